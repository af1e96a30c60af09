#!/bin/sh
# setup.sh - install what building dmltensor needs on Debian (cmake, a C
# compiler, libcjson-dev), then build the command into build/. The README's
# first command: nothing of the test suite's (.ci/setup-tests.sh, the
# README's test command, adds that). Safe to run again: installs only what is
# missing, rebuilds incrementally. With CI=true the build treats warnings as
# errors (preset "ci").
set -eu
cd "$(dirname "$0")/.."

. .ci/lib.sh
want cmake cmake
want gcc cc
want libc6-dev # the C library headers and start files (gcc alone may lack them)
want libcjson-dev
install_wanted setup

preset=default
if [ "${CI:-}" = true ]; then preset=ci; fi
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" --target dmltensor >&2
