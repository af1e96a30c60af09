#!/usr/bin/env bash
# bench_nodes.sh - `dmltensor nodes` on ViT-B/16 at batch 8 (exported by
# tests/onnx/export_torch.py into build/cache/torch, made once), against two
# baselines measured in the same run:
#   scan      `dmltensor scan --dim batch=8` on the same model (goal: nodes
#             within 2x scan's time: the placement costs at most one more
#             pass of the same size);
#   ORT       creating an ONNX Runtime CPU session for the same model with
#             onnxruntime-node (goal: nodes at least 50x faster): installed
#             under the build directory with `npm install --ignore-scripts
#             onnxruntime-node`; skipped with a message when npm is offline.
# Times are the mean of 5 runs (hyperfine when on PATH); also the instruction
# count of one nodes run under callgrind when valgrind is on PATH.
# A report, not a test: a missed goal exits 0; a failed command exits 1.
# Usage: bench_nodes.sh [path/to/dmltensor]   (default <repo>/build/dmltensor)
set -euo pipefail

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/dmltensor"}
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac
[ -x "$bin" ] || { echo "bench_nodes.sh: no dmltensor at $bin" >&2; exit 1; }
build=$(dirname "$bin")
py=/usr/bin/python3
cache="$build/cache/torch"
have() { command -v "$1" >/dev/null 2>&1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-bench-nodes.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$py" "$repo_root/tests/onnx/export_torch.py" "$cache" vit_b_16 >/dev/null 2>&1
model="$cache/vit_b_16.onnx"
echo "model: ViT-B/16, $(stat -c %s "$model") bytes, at batch 8"

mean() { # mean seconds of 5 runs of a shell command
  local s e
  s=$(date +%s.%N)
  for _ in 1 2 3 4 5; do eval "$1" >/dev/null 2>&1 || true; done
  e=$(date +%s.%N)
  echo "($e - $s) / 5" | bc -l
}
nodes_cmd="$bin nodes $model --dim batch=8"
scan_cmd="$bin scan $model --dim batch=8"
$nodes_cmd >"$tmp/nodes.jsonl" || [ $? -eq 1 ]
tail -1 "$tmp/nodes.jsonl" | "$py" -c "import json,sys; s=json.load(sys.stdin)['summary']; print('placements:', json.dumps(s['placements']), 'partitions:', s['partitions'], 'copies:', s['copies'])"
cat "$model" >/dev/null
if have hyperfine; then
  hyperfine -N -i --warmup 1 --runs 10 --export-json "$tmp/h.json" "$nodes_cmd" "$scan_cmd" >/dev/null 2>&1
  read -r t_nodes t_scan < <("$py" -c "import json,sys; r=json.load(open(sys.argv[1]))['results']; print(r[0]['mean'], r[1]['mean'])" "$tmp/h.json")
else
  t_nodes=$(mean "$nodes_cmd"); t_scan=$(mean "$scan_cmd")
fi

# ONNX Runtime: a CPU session made for the same model (graph optimizations on)
ort_dir="$build/bench-ort"
# the ONNX Runtime that the oracle tests installed (tests/onnx/ort/install.sh), when there
[ -d "$build/tests/ort/node_modules/onnxruntime-node" ] && ort_dir="$build/tests/ort"
t_ort=""
if [ ! -d "$ort_dir/node_modules/onnxruntime-node" ]; then
  mkdir -p "$ort_dir"
  (cd "$ort_dir" && timeout 300 npm install --ignore-scripts --no-audit --no-fund onnxruntime-node >/dev/null 2>&1) || true
fi
if [ -d "$ort_dir/node_modules/onnxruntime-node" ] && have node; then
  cat >"$tmp/ort.js" <<'JS'
const ort = require('onnxruntime-node');
(async () => {
  const runs = 3;
  let total = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    const s = await ort.InferenceSession.create(process.argv[2], {executionProviders: ['cpu']});
    total += Number(process.hrtime.bigint() - t0) / 1e9;
    if (s.release) await s.release();
  }
  console.log(total / runs);
})().catch(e => { console.error(e.message); process.exit(1); });
JS
  t_ort=$(NODE_PATH="$ort_dir/node_modules" node "$tmp/ort.js" "$model" 2>/dev/null) || t_ort=""
fi

"$py" - "$t_nodes" "$t_scan" "${t_ort:-}" <<'PY'
import sys
n, s = float(sys.argv[1]), float(sys.argv[2])
print(f"nodes {n*1000:.1f} ms, scan {s*1000:.1f} ms: {n/s:.2f}x scan's time (goal <= 2x)")
if sys.argv[3]:
    o = float(sys.argv[3])
    print(f"ONNX Runtime CPU session creation {o*1000:.0f} ms: nodes is {o/n:.0f}x faster (goal >= 50x)")
else:
    print("ONNX Runtime: onnxruntime-node could not be installed (npm offline?): not measured")
PY
if have valgrind; then
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" $nodes_cmd >/dev/null 2>"$tmp/cg.err" || true
  ir=$(grep -m1 '^summary:' "$tmp/cg.out" | awk '{print $2}')
  echo "instructions (callgrind, one nodes run): ${ir:-n/a}"
fi
