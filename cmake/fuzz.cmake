# fuzz.cmake - DMLT_FUZZ=ON: build the libFuzzer targets (clang only).
# Included from the root CMakeLists.txt before any target is defined, so that
# every target (core, CLI, tests, fuzzers) is compiled with libFuzzer's
# coverage instrumentation and with ASan + UBSan without recovery: the
# fuzzers see the edges of all the code they reach, and any memory error or
# undefined behaviour stops them with a reproducer.
# The targets themselves (fuzz_cli, fuzz_parse, fuzz_core) are defined in
# tests/fuzz/CMakeLists.txt; the corpus replay tests are built in every build.
#
#   cmake --preset fuzz && cmake --build --preset fuzz
#   build-fuzz/tests/fuzz/fuzz_cli tests/fuzz/corpus/cli -max_total_time=60
option(DMLT_FUZZ "Build the libFuzzer targets fuzz_* with ASan+UBSan (needs clang)" OFF)

if(DMLT_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "DMLT_FUZZ=ON needs clang, not ${CMAKE_C_COMPILER_ID}: "
                        "use 'cmake --preset fuzz' or -DCMAKE_C_COMPILER=clang")
  endif()
  if(NOT DMLT_BUILD_TESTS)
    message(FATAL_ERROR "DMLT_FUZZ=ON needs DMLT_BUILD_TESTS=ON (the targets are in tests/fuzz)")
  endif()
  # libFuzzer's runtime ships separately on Debian (libclang-rt-NN-dev).
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS -fsanitize=fuzzer)
  check_c_source_compiles([=[
    #include <stddef.h>
    #include <stdint.h>
    int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
    int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
  ]=] DMLT_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  if(NOT DMLT_HAVE_LIBFUZZER)
    string(REGEX MATCH "^[0-9]+" clang_major "${CMAKE_C_COMPILER_VERSION}")
    message(FATAL_ERROR "clang cannot link -fsanitize=fuzzer: install libFuzzer's runtime "
                        "(Debian: apt-get install libclang-rt-${clang_major}-dev)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
