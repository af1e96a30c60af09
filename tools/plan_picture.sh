#!/bin/sh
# plan_picture.sh [DMLTENSOR] - docs/plan-resnet50.svg, from the tool as it
# is: torchvision's ResNet-50 exported by tests/onnx/export_torch.py (Debian's
# python3-torch and python3-torchvision, random weights; into
# build/cache/torch, made once), planned at batch 1 by
# `dmltensor plan MODEL --dim batch=1 --format svg`.
set -eu
cd "$(dirname "$0")/.."
bin=${1:-build/dmltensor}
cache=${DMLT_TORCH_CACHE:-build/cache/torch}
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3 # Debian's, which has torch
"$py" tests/onnx/export_torch.py "$cache" resnet50 >/dev/null
"$bin" plan "$cache/resnet50.onnx" --dim batch=1 --format svg >docs/plan-resnet50.svg
"$bin" plan "$cache/resnet50.onnx" --dim batch=1 | tail -n 1
