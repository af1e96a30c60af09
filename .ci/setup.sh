#!/bin/sh
# setup.sh - install what dmltensor needs on Debian, then build it into build/.
# Safe to run again: installs only what is missing, rebuilds incrementally.
# With CI=true the build treats warnings as errors (preset "ci").
set -eu
cd "$(dirname "$0")/.."

missing=""
# want PACKAGE [COMMAND]: install PACKAGE unless COMMAND is on PATH (or,
# without COMMAND, unless dpkg says the package is installed).
want() {
  if [ $# -gt 1 ]; then
    command -v "$2" >/dev/null 2>&1 && return 0
  else
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' && return 0
  fi
  missing="$missing $1"
}
# To build:
want cmake cmake
want gcc cc
want libcjson-dev
# To test (ctest runs these):
want python3 python3
want python3-jsonschema
want jq jq

if [ -n "$missing" ]; then
  echo "setup: installing$missing" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
  $sudo apt-get update -qq
  # shellcheck disable=SC2086 # one word per package
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >&2
fi

preset=default
if [ "${CI:-}" = true ]; then preset=ci; fi
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" >&2
