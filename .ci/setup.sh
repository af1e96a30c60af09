#!/bin/sh
# setup.sh - install what dmltensor needs on Debian, then build it into build/.
# Safe to run again: installs only what is missing, rebuilds incrementally.
# With CI=true the build treats warnings as errors (preset "ci").
set -eu
cd "$(dirname "$0")/.."

missing=""
command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
dpkg-query -W -f='${Status}' libcjson-dev 2>/dev/null | grep -q 'install ok installed' ||
  missing="$missing libcjson-dev"

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
