#!/usr/bin/env bash
# Benchmark of `dmltensor nodes` (tests/bench/bench_nodes.sh, issue 31):
# ViT-B/16 at batch 8 against `scan` of it (goal: within 2x) and against
# creating an ONNX Runtime CPU session for it with onnxruntime-node (goal:
# 50x faster), both measured in the same run (the model exported by
# 95-bench-infer, beside the fuzzers). A report: a missed goal on a
# shared machine exits 0; a failed command fails the check.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want npm npm
want hyperfine hyperfine
want python3-torch
want python3-torchvision
want valgrind # callgrind's instruction count of one nodes run
install_wanted 97-bench-nodes

tests/bench/bench_nodes.sh build/dmltensor
