#!/usr/bin/env bash
# The whole test suite again on the portable 128-bit path (CMake option
# DMLT_PORTABLE_U128: src/lib/wide.h in pairs of 64-bit words, no __int128),
# the code MSVC compiles, built with GCC, warnings as errors. Every test
# runs: unit (test_wide checks that path against GCC's __int128), brute
# force, golden and Python property tests; not those labelled onnx_layer
# (tests/CMakeLists.txt), which run only src/onnx, where this option changes
# nothing, nor those labelled once (the sources alone): they ran in the
# default build already.
set -euo pipefail
cmake --preset portable >/dev/null
cmake --build --preset portable
ctest --preset portable -LE "onnx_layer|once"
