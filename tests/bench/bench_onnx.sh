#!/usr/bin/env bash
# bench_onnx.sh - `dmltensor scan` of ONNX models, against python3-onnx's
# onnx.load of the same file, measured in the same run.
#
# A model with 1 GiB of initializer data is written to a temporary file
# (never the repository): 256 FLOAT initializers of 4 MiB each (1024x1024,
# raw_data), a Conv-free graph with inputs and outputs of symbolic dims
# (batch, seq). It is written as protobuf directly (streamed: no 1 GiB in
# memory), then checked with onnx.load. Reported:
#   wall time   hyperfine (if on PATH; else 3 timed runs each) of
#               `dmltensor scan MODEL --dim batch=8 --dim seq=128 >/dev/null`
#               and of `/usr/bin/python3 -c 'import onnx; onnx.load(PATH)'`;
#               ratio (goal: scan at least 100x faster);
#   peak RSS    /usr/bin/time -f %M of the scan (goal: at most 16 MiB), and,
#               for scale, of onnx.load;
#   corpus      every model of libonnx-testdata (if installed) in one scan
#               call: ms per model (goal: under 1 ms).
# A report, not a test: it exits 0 when a goal is missed, and 1 only when a
# command fails or scan's output is wrong (not 256 initializers of
# 4194304 bytes).
# Usage: bench_onnx.sh [path/to/dmltensor]   (default <repo>/build/dmltensor)
set -euo pipefail

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/dmltensor"}
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac
[ -x "$bin" ] || { echo "bench_onnx.sh: no dmltensor at $bin" >&2; exit 1; }
py=/usr/bin/python3
have() { command -v "$1" >/dev/null 2>&1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-bench-onnx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
model="$tmp/big.onnx"

"$py" - "$model" <<'PY'
import sys
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)
def ld(field, payload_len):  # tag and length of a length-delimited field
    return varint(field << 3 | 2) + varint(payload_len)
def msg(field, payload):
    return ld(field, len(payload)) + payload
def vint(field, v):
    return varint(field << 3) + varint(v)
def dim(v):
    return msg(1, vint(1, v) if isinstance(v, int) else msg(2, v.encode()))
def value_info(name, elem, dims):
    shape = b"".join(dim(d) for d in dims)
    return msg(1, name.encode()) + msg(2, msg(1, vint(1, elem) + msg(2, shape)))
n, side = 256, 1024
data_len = side * side * 4  # 4 MiB of FLOAT
heads = []
for i in range(n):
    head = vint(1, side) + vint(1, side) + vint(2, 1) + msg(8, b"w%03d" % i)
    heads.append(head + ld(9, data_len))
ios = [msg(11, value_info("tokens", 7, ["batch", "seq"])),
       msg(11, value_info("mask", 9, ["batch", "seq"])),
       msg(12, value_info("logits", 1, ["batch", "seq", side]))]
inits_len = sum(len(ld(5, len(h) + data_len)) + len(h) + data_len for h in heads)
graph_len = inits_len + sum(map(len, ios)) + len(msg(2, b"big"))
chunk = bytes(data_len)
with open(sys.argv[1], "wb") as f:
    f.write(vint(1, 8) + msg(2, b"bench_onnx") + msg(8, msg(1, b"") + vint(2, 17)))
    f.write(ld(7, graph_len))
    f.write(msg(2, b"big"))
    for h in heads:
        f.write(ld(5, len(h) + data_len) + h)
        f.write(chunk)
    for io in ios:
        f.write(io)
PY
size=$(stat -c %s "$model")
echo "model: $model, $size bytes (256 initializers of 4 MiB, inputs of dims batch, seq)"

# The model is one onnx.load can read, and scan sees what it holds.
"$py" -c "import onnx,sys; m=onnx.load(sys.argv[1]); assert len(m.graph.initializer)==256" "$model"
out=$("$bin" scan "$model" --dim batch=8 --dim seq=128 | tail -1)
case "$out" in
  *'"initializer":256,'*'"initializer_bytes":1073741824,'*'"failed":0,'*) ;;
  *) echo "bench_onnx.sh: wrong summary from scan: $out" >&2; exit 1 ;;
esac

scan_cmd="$bin scan $model --dim batch=8 --dim seq=128"
load_cmd="$py -c 'import onnx; onnx.load(\"$model\")'"
cat "$model" >/dev/null # both start from the page cache
if have hyperfine; then
  hyperfine -N --warmup 2 --runs 20 --export-json "$tmp/scan.json" "$scan_cmd" >/dev/null 2>&1 ||
    hyperfine --warmup 2 --runs 20 --export-json "$tmp/scan.json" "$scan_cmd >/dev/null" >/dev/null
  hyperfine --warmup 1 --runs 3 --export-json "$tmp/load.json" "$load_cmd" >/dev/null
  t_scan=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['mean'])" "$tmp/scan.json")
  t_load=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][0]['mean'])" "$tmp/load.json")
else
  t() { local s e; s=$(date +%s.%N); for _ in 1 2 3; do eval "$1" >/dev/null; done; e=$(date +%s.%N); echo "($e - $s) / 3" | bc -l; }
  t_scan=$(t "$scan_cmd"); t_load=$(t "$load_cmd")
fi
"$py" - "$t_scan" "$t_load" <<'PY'
import sys
s, l = float(sys.argv[1]), float(sys.argv[2])
print(f"wall: scan {s*1000:.2f} ms, onnx.load {l*1000:.0f} ms: scan is {l/s:.0f}x faster (goal >= 100x)")
PY

if [ -x /usr/bin/time ]; then
  rss_scan=$(/usr/bin/time -f %M "$bin" scan "$model" --dim batch=8 --dim seq=128 2>&1 >/dev/null | tail -1)
  rss_load=$(/usr/bin/time -f %M "$py" -c "import onnx; onnx.load('$model')" 2>&1 >/dev/null | tail -1)
  echo "peak RSS: scan $rss_scan KiB (goal <= 16384), onnx.load $rss_load KiB"
else
  echo "peak RSS: skipped (no /usr/bin/time)"
fi

corpus=/usr/share/libonnx-testdata
if [ -d "$corpus" ]; then
  find "$corpus" -name '*.onnx' | sort >"$tmp/corpus.txt"
  count=$(wc -l <"$tmp/corpus.txt")
  xargs -a "$tmp/corpus.txt" -d '\n' "$bin" scan >/dev/null 2>&1 || true # warm the cache
  s=$(date +%s.%N)
  for _ in 1 2 3; do xargs -a "$tmp/corpus.txt" -d '\n' "$bin" scan >/dev/null 2>&1 || true; done
  e=$(date +%s.%N)
  "$py" -c "import sys; t=(float(sys.argv[2])-float(sys.argv[1]))/3; n=int(sys.argv[3]); print(f'corpus: {n} models in one scan: {t*1000:.1f} ms, {t/n*1000:.3f} ms per model (goal < 1 ms)')" "$s" "$e" "$count"
else
  echo "corpus: skipped ($corpus missing: apt-get install libonnx-testdata)"
fi
