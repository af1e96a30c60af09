# coverage.cmake - DMLT_COVERAGE=ON: gcc --coverage (gcov), for gcovr.
# Included from the root CMakeLists.txt before any target is defined. Built
# without optimisation so that lines and branches map onto the source.
#
#   cmake --preset coverage && cmake --build --preset coverage
#   ctest --preset coverage
#   gcovr --root . --filter 'src/lib/' --txt-metric branch build-cov   # (see .ci/checks/35-coverage.sh)
option(DMLT_COVERAGE "Build with gcc --coverage for line and branch coverage (gcovr)" OFF)

if(DMLT_COVERAGE)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "DMLT_COVERAGE=ON needs gcc (gcov), not ${CMAKE_C_COMPILER_ID}: "
                        "use 'cmake --preset coverage' or -DCMAKE_C_COMPILER=gcc")
  endif()
  add_compile_options(--coverage -O0)
  add_link_options(--coverage)
endif()
