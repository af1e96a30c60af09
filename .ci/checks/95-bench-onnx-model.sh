#!/usr/bin/env bash
# Benchmark of the ONNX layer's model reader (tests/bench/bench_onnx_model.sh):
# 2,000,000 value_infos and no node (the reader's memory stays flat: a test),
# and 100,000 nodes against python3-onnx's onnx.load (a report).
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want python3-onnx
want time # /usr/bin/time for the peak RSS
install_wanted 95-bench-onnx-model

tests/bench/bench_onnx_model.sh build/tests/dump_model
