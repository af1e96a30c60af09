#!/usr/bin/env bash
# bench_onnx_model.sh [DUMP_MODEL] - the ONNX layer's model reader
# (onnx_model_read, through tests/onnx/dump_model --count) on two models
# written to a temporary directory:
#  - flat: 2,000,000 value_infos (FLOAT [batch, 64]) and no node: nothing is
#    kept (values are kept when a node or an output names them), so the
#    reader's memory past the file itself stays flat. Goal: peak RSS minus
#    the file's size (dump_model holds the file in memory) at most 16 MiB.
#  - chain: 100,000 Add nodes, each with an int64 initializer [2] and a
#    value_info: time against python3-onnx's onnx.load of the same file (the
#    baseline, measured in the same run; goal: at least 2x faster), and the
#    memory per node.
# A report: times on a shared machine are noise; it fails when a command
# fails, a count is wrong, or the flat model's memory passes its goal.
set -euo pipefail

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/tests/dump_model"}
[ -x "$bin" ] || { echo "bench_onnx_model.sh: no dump_model at $bin" >&2; exit 1; }
py=/usr/bin/python3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-bench-model.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$py" - "$tmp/flat.onnx" "$tmp/chain.onnx" <<'PY'
import sys
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)
def msg(field, payload):
    return varint(field << 3 | 2) + varint(len(payload)) + payload
def vint(field, v):
    return varint(field << 3) + varint(v)
def dim(v):
    return msg(1, vint(1, v) if isinstance(v, int) else msg(2, v.encode()))
def value_info(name, elem, dims):
    shape = b"".join(dim(d) for d in dims)
    return msg(1, name.encode()) + msg(2, msg(1, vint(1, elem) + msg(2, shape)))
head = vint(1, 8) + msg(8, msg(1, b"") + vint(2, 17))
with open(sys.argv[1], "wb") as f:
    body = b"".join(msg(13, value_info("v%d" % i, 1, ["batch", 64])) for i in range(2000000))
    f.write(head + msg(7, body))
n = 100000
parts = [msg(11, value_info("x0", 7, ["batch", 2]))]
for i in range(n):
    node = (msg(1, b"x%d" % i) + msg(1, b"c%d" % i) + msg(2, b"x%d" % (i + 1)) +
            msg(3, b"add%d" % i) + msg(4, b"Add"))
    parts.append(msg(1, node))
    parts.append(msg(5, vint(1, 2) + vint(2, 7) + msg(8, b"c%d" % i) +
                     msg(9, (i).to_bytes(8, "little") + (i + 1).to_bytes(8, "little"))))
    parts.append(msg(13, value_info("x%d" % (i + 1), 7, ["batch", 2])))
parts.append(msg(12, value_info("x%d" % n, 7, ["batch", 2])))
with open(sys.argv[2], "wb") as f:
    f.write(head + msg(7, b"".join(parts)))
PY

rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
size_kib() { echo $(( $(stat -c %s "$1") / 1024 )); }

out=$("$bin" --count "$tmp/flat.onnx")
[ "$out" = '{"graphs":1,"nodes":0,"values":0}' ] || { echo "flat: wrong counts: $out" >&2; exit 1; }
if [ -x /usr/bin/time ]; then
  r=$(rss "$bin" --count "$tmp/flat.onnx")
  base=$(rss "$bin" --count /dev/null 2>/dev/null || echo 0)
  f=$(size_kib "$tmp/flat.onnx")
  echo "flat (2,000,000 value_infos, no node): peak RSS $r KiB, file $f KiB, base $base KiB:" \
    "the reader's own $((r - f - base)) KiB (goal <= 16384)"
  # memory is not noise: a test
  [ $((r - f - base)) -le 16384 ] || { echo "flat: the reader's memory grew with the values" >&2; exit 1; }
else
  echo "flat: peak RSS skipped (no /usr/bin/time)"
fi

out=$("$bin" --count "$tmp/chain.onnx")
[ "$out" = '{"graphs":1,"nodes":100000,"values":200002}' ] ||
  { echo "chain: wrong counts: $out" >&2; exit 1; }
"$py" - "$bin" "$tmp/chain.onnx" <<'PY'
import subprocess, sys, time
import onnx
def best(f, runs):
    t = []
    for _ in range(runs):
        s = time.perf_counter(); f(); t.append(time.perf_counter() - s)
    return min(t)
dump, path = sys.argv[1], sys.argv[2]
t_read = best(lambda: subprocess.run([dump, "--count", path], check=True, capture_output=True), 5)
t_load = best(lambda: onnx.load(path), 3)
print(f"chain (100,000 nodes): onnx_model_read {t_read*1000:.1f} ms (process included), "
      f"onnx.load {t_load*1000:.0f} ms: {t_load/t_read:.1f}x faster (goal >= 2x)")
PY
if [ -x /usr/bin/time ]; then
  r=$(rss "$bin" --count "$tmp/chain.onnx")
  f=$(size_kib "$tmp/chain.onnx")
  echo "chain: peak RSS $r KiB, file $f KiB: $(( (r - f) * 1024 / 100000 )) bytes per node"
fi
