#!/usr/bin/env bash
# Benchmark of the ONNX shape inference (tests/bench/bench_infer.sh): ViT-B/16
# at batch 8 against onnx.shape_inference (time ratio, peak RSS), and the 13
# exported architectures checked shape for shape; issue 27's adversarial
# shapes (bench_infer_adversarial.sh: instructions against a small model). A report, not a test: it
# fails only when a command fails or a shape is wrong. The exports (random
# weights, python3-torch) are made once into build/cache/torch.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want hyperfine hyperfine
want python3-onnx
want python3-torch
want python3-torchvision
want time # /usr/bin/time for the peak RSS
want valgrind # callgrind's instruction counts of the adversarial shapes
install_wanted 95-bench-infer

tests/bench/bench_infer.sh build/tests/infer_dump
# ViT-B/16 for 97-bench-nodes, exported here (about 2 minutes of CPU) while
# the fuzzers' time box runs beside, not in the timed benchmarks' serial part
/usr/bin/python3 tests/onnx/export_torch.py build/cache/torch vit_b_16 >/dev/null
tests/bench/bench_infer_adversarial.sh build/tests/infer_dump
