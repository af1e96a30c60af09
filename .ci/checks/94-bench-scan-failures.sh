#!/usr/bin/env bash
# scan's peak RSS on a model of 2,000,000 failing tensors, in JSON Lines and
# text, against the same model with every tensor ok
# (tests/bench/bench_scan_failures.sh): a test, since memory is not noise.
# Within 16 MiB and 1.25x the baseline, and the summary's lists hold 100
# paths and a count of the rest. About 30 s.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want time # /usr/bin/time for the peak RSS
install_wanted 94-bench-scan-failures

tests/bench/bench_scan_failures.sh build/dmltensor
