#!/usr/bin/env bash
# bench_infer.sh - shape inference (src/onnx/onnx_infer.h, through the test
# tool infer_dump) against python3-onnx's onnx.shape_inference, measured in
# the same run, on real architectures exported by tests/onnx/export_torch.py
# (python3-torch, random weights, into build/cache/torch; made once: the
# export of all 13 takes a few minutes).
#
# Reported:
#   wall time   ViT-B/16 (1 dynamic batch, 330 MB of weights) read and inferred
#               at batch 8: `infer_dump --quiet --dim batch=8 vit_b_16.onnx`
#               (hyperfine if on PATH, else 5 timed runs) against
#               `python3 -c 'import onnx; from onnx import shape_inference;
#               shape_inference.infer_shapes(onnx.load(P), data_prop=True)'`;
#               ratio (goal: at most 1% of onnx's time);
#   peak RSS    /usr/bin/time -f %M of the same infer_dump run, and of
#               `dmltensor scan --dim batch=8` on it (goal <= 16 MiB);
#   models      tests/onnx/check_infer_torch.py over all 13 architectures:
#               every activation full at batch 8, equal to onnx's and to the
#               static export's, symbols bound later agree.
# A report, not a test: a missed goal exits 0; a failed command or a wrong
# shape in check_infer_torch.py exits 1.
# Usage: bench_infer.sh [path/to/infer_dump]   (default <repo>/build/tests/infer_dump)
set -euo pipefail

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/tests/infer_dump"}
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac
[ -x "$bin" ] || { echo "bench_infer.sh: no infer_dump at $bin" >&2; exit 1; }
py=/usr/bin/python3
cache="$(dirname "$(dirname "$bin")")/cache/torch"
have() { command -v "$1" >/dev/null 2>&1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-bench-infer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$py" "$repo_root/tests/onnx/export_torch.py" "$cache" >/dev/null 2>&1
model="$cache/vit_b_16.onnx"
nodes=$("$py" -c "import onnx,sys; print(len(onnx.load(sys.argv[1], load_external_data=False).graph.node))" "$model")
echo "model: ViT-B/16, $(stat -c %s "$model") bytes, $nodes nodes, inferred at batch 8"

ours="$bin --quiet --dim batch=8 $model"
ref="$py -c 'import onnx; from onnx import shape_inference; shape_inference.infer_shapes(onnx.load(\"$model\"), data_prop=True)'"
cat "$model" >/dev/null # both start from the page cache
if have hyperfine; then
  hyperfine -N --warmup 2 --runs 20 --export-json "$tmp/ours.json" "$ours" >/dev/null 2>&1
  hyperfine --warmup 1 --runs 3 --export-json "$tmp/ref.json" "$ref" >/dev/null
  t_ours=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['mean'])" "$tmp/ours.json")
  t_ref=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['mean'])" "$tmp/ref.json")
else
  t() { local s e; s=$(date +%s.%N); for _ in 1 2 3 4 5; do eval "$1" >/dev/null; done; e=$(date +%s.%N); echo "($e - $s) / 5" | bc -l; }
  t_ours=$(t "$ours"); t_ref=$(t "$ref")
fi
"$py" - "$t_ours" "$t_ref" <<'PY'
import sys
o, r = float(sys.argv[1]), float(sys.argv[2])
print(f"wall: infer_dump {o*1000:.1f} ms, onnx.shape_inference {r*1000:.0f} ms: "
      f"{100*o/r:.2f}% of onnx's time (goal <= 1%)")
PY

if [ -x /usr/bin/time ]; then
  rss=$(/usr/bin/time -f %M $ours 2>&1 >/dev/null | tail -1)
  echo "peak RSS: infer_dump $rss KiB (goal <= 16384)"
  # scan (which maps the model and infers it as infer_dump does), if built
  scan="$(dirname "$(dirname "$bin")")/dmltensor"
  if [ -x "$scan" ]; then
    out=$(/usr/bin/time -f "%M %e" "$scan" scan --dim batch=8 "$model" 2>&1 >/dev/null | tail -1)
    echo "scan --dim batch=8: peak RSS ${out% *} KiB, ${out#* } s (goal <= 16384 KiB)"
  fi
else
  echo "peak RSS: skipped (no /usr/bin/time)"
fi

"$py" "$repo_root/tests/onnx/check_infer_torch.py" "$bin" "$cache" 2>/dev/null
