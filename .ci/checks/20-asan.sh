#!/usr/bin/env bash
# The whole test suite again under AddressSanitizer + UBSan (no recovery).
set -euo pipefail
cmake --preset asan >/dev/null
cmake --build --preset asan
ctest --preset asan -LE once
