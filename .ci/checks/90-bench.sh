#!/usr/bin/env bash
# Benchmarks: figures and ratios against baselines measured in the same run.
# A report, not a test: times on a shared machine are noise.
set -euo pipefail
if command -v valgrind >/dev/null 2>&1; then
  tests/bench/bench_size.sh build/dmltensor
else
  echo "valgrind not installed; skipped"
fi
