#!/usr/bin/env bash
# .ci/prefetch.sh - every Debian package the checks in .ci/checks/ want,
# installed at once (one apt-get update, one install), in the background
# while .ci/run's first checks build and test: on a fresh machine the
# downloads then cost CI no wall time. A check whose packages are still
# being installed waits for this (.ci/lib.sh, DMLT_CI_PREFETCH_PID); if
# this fails, each check installs what it wants itself, as without it.
set -euo pipefail
cd "$(dirname "$0")/.."
. .ci/lib.sh
major=$(clang -dumpversion 2>/dev/null | cut -d. -f1 || true) # 30-fuzz: libclang-rt-$major-dev
[ -n "$major" ] || major=14
# The checks' own `want` lines, as they say them (one package each).
eval "$(grep -h -E '^[[:space:]]*want ' .ci/checks/*.sh)"
DMLT_CI_PREFETCH_PID="" install_wanted prefetch
echo "prefetch: done"
