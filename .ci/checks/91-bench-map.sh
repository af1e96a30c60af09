#!/usr/bin/env bash
# Benchmark of `map`: throughput against `seq` and peak RSS at two sizes,
# measured in the same run (hyperfine if installed, else plain timing).
# A report, not a test: times on a shared machine are noise.
set -euo pipefail
tests/bench/bench_map.sh build/dmltensor
