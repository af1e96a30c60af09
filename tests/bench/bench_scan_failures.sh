#!/usr/bin/env bash
# bench_scan_failures.sh - scan's memory does not grow with its failures.
#
# Issue 19 item 2: a model of 10 million value_infos without an element type
# made the JSON Lines summary 279 MB and scan's peak RSS 547 MB, since the
# summary's failed_paths kept every path. Now the summary's lists hold the
# first 100 paths and a count of the rest (failed_paths_more).
#
# Two models of TENSORS value_infos (default 2,000,000; also
# $DMLT_BENCH_SCAN_FAILURES_TENSORS) are written as protobuf bytes directly
# by the standard library's Python (no python3-onnx: seconds, not minutes),
# into a temporary directory: one whose tensor types give no element type
# (every record fails, type_unknown), and, as the baseline measured in the
# same run, the same model with FLOAT (every record ok), scanned with
# --format text (its JSON Lines would be 6 GB of checks). Reported, for
# --format jsonl and --format text of the failing model:
#   peak RSS    /usr/bin/time -f %M of `dmltensor scan MODEL --format F`
#               (goal: at most 16 MiB, and at most 1.25x the baseline's:
#               failures cost no memory);
#   time        wall seconds of each scan (indicative only);
#   summary     failed = TENSORS, failed_paths the first 100 paths,
#               failed_paths_more = TENSORS - 100; text: the first five
#               names and "and N more".
# Memory is not noise: a goal missed, or a wrong summary, fails the script
# (exit 1), and so CI (.ci/checks/94-bench-scan-failures.sh).
# Usage: bench_scan_failures.sh [path/to/dmltensor] [TENSORS]
set -euo pipefail

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/dmltensor"}
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac
[ -x "$bin" ] || { echo "bench_scan_failures.sh: no dmltensor at $bin" >&2; exit 1; }
n=${2:-${DMLT_BENCH_SCAN_FAILURES_TENSORS:-2000000}}
[ -x /usr/bin/time ] || { echo "bench_scan_failures.sh: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
py=/usr/bin/python3
[ -x "$py" ] || py=python3

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-bench-failures.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$py" - "$tmp" "$n" <<'PY'
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
tmp, n = sys.argv[1], int(sys.argv[2])
shape = msg(2, msg(1, vint(1, 1)))  # shape { dim { dim_value: 1 } }
for name, tensor in (("failing", shape), ("ok", vint(1, 1) + shape)):  # elem_type FLOAT = 1
    typ = msg(2, msg(1, tensor))  # ValueInfoProto.type { tensor_type {...} }
    graph = msg(2, b"failures") + b"".join(msg(13, msg(1, b"v%d" % i) + typ) for i in range(n))
    with open("%s/%s.onnx" % (tmp, name), "wb") as f:
        f.write(vint(1, 8) + msg(8, msg(1, b"") + vint(2, 17)) + msg(7, graph))
PY
echo "models: $n value_infos each, $(stat -c %s "$tmp/failing.onnx") bytes (no element type)" \
    "and $(stat -c %s "$tmp/ok.onnx") bytes (FLOAT, the baseline)"

status=0
scan() { # model format -> "peak_KB seconds"; output in $tmp/out
    local t0 t1
    t0=$(date +%s.%N)
    { /usr/bin/time -f %M -o "$tmp/rss" "$bin" scan "$tmp/$1.onnx" --format "$2" 2>"$tmp/err" ||
        true; } | tail -n 20 >"$tmp/out"
    t1=$(date +%s.%N)
    echo "$(tail -n 1 "$tmp/rss") $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
}

printf '%-7s %-22s %12s %8s\n' format model "peak RSS KB" seconds
# The baseline in text only: the ok model's JSON Lines are 6 GB of checks.
read -r base_kb base_s < <(scan ok text)
printf '%-7s %-22s %12s %8s\n' text "ok (baseline)" "$base_kb" "$base_s"
for fmt in jsonl text; do
    read -r fail_kb fail_s < <(scan failing "$fmt")
    printf '%-7s %-22s %12s %8s\n' "$fmt" "failing" "$fail_kb" "$fail_s"
    if [ "$fmt" = jsonl ]; then
        got=$(tail -n 1 "$tmp/out" | "$py" -c '
import json, sys
s = json.load(sys.stdin)["summary"]
want = ["graph.value_info[%d]" % i for i in range(100)]
print("ok" if s["failed"] == int(sys.argv[1]) and s["failed_paths"] == want[:s["failed"]]
      and s.get("failed_paths_more") == max(s["failed"] - 100, 0) and s["broken_paths"] == []
      and s.get("broken_paths_more") == 0 else "wrong: %r" % {k: s.get(k) for k in
      ("failed", "failed_paths_more", "broken", "broken_paths_more")})' "$n")
    else
        want="failed             $n: v0, v1, v2, v3, v4, and $((n - 5)) more"
        got=$(grep -qxF "$want" "$tmp/out" && echo ok || echo "wrong: $(grep '^failed' "$tmp/out")")
    fi
    ratio=$(awk -v a="$fail_kb" -v b="$base_kb" 'BEGIN { printf "%.2f", a / b }')
    verdict=$(awk -v a="$fail_kb" -v r="$ratio" \
        'BEGIN { print (a <= 16384 && r <= 1.25) ? "met" : "MISSED" }')
    echo "$fmt: summary $got; peak RSS ${fail_kb} KB, ${ratio}x the baseline" \
        "(goal: <= 16384 KB and <= 1.25x): $verdict"
    [ "$got" = ok ] && [ "$verdict" = met ] || status=1
done
exit $status
