#!/usr/bin/env bash
# Benchmark of `dmltensor scan` on ONNX models (tests/bench/bench_onnx.sh):
# a 1 GiB model (256 initializers of 4 MiB) written to a temporary file,
# scan against python3-onnx's onnx.load (hyperfine), scan's peak RSS, and
# the whole libonnx-testdata corpus in one scan. A report, not a test:
# times on a shared machine are noise; it fails only when a command fails
# or scan's summary of the model is wrong. Needs about 1 GiB in $TMPDIR.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want hyperfine hyperfine
want python3-onnx
want libonnx-testdata
want time # /usr/bin/time for the peak RSS
install_wanted 93-bench-onnx

tests/bench/bench_onnx.sh build/dmltensor
