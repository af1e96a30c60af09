#!/usr/bin/env bash
# Benchmark of `dmltensor batch` against jq, with peak RSS and a callgrind
# profile (tests/bench/bench_batch.sh). A report, not a test: times on a
# shared machine are noise. 200,000 records here to stay near 20 s; run the
# script without a count for the full 1,000,000. The peak RSS on 1,000,000
# bad records of each kind is a test (memory is not noise): the script fails
# when a kind passes 1.25x good records'.
set -euo pipefail
tests/bench/bench_batch.sh build/dmltensor "${DMLT_BENCH_BATCH_RECORDS:-200000}"
