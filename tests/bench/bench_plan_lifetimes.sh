#!/usr/bin/env bash
# bench_plan_lifetimes.sh - `dmltensor plan MODEL.onnx` on the adversarial
# shapes of issue 27 item 14, against `scan` of the same model (the
# baseline measured in the same run: the reading and inference that plan
# does too):
#   branch   an If whose then-branch has N nodes (default 160,000), each an
#            Add of an outer value and the branch's value before it;
#   weights  a pre-IR-4 model: N/4 weights (default 40,000) listed as graph
#            inputs, each also an initializer, summed by a chain of Adds;
#   options  the weights model with N/8 --shape options that name nothing.
# Lifetimes were quadratic (every read compared with every initializer and
# every branch node): 296 s and 10-32 s on 8a90fa2; linear since. So were
# the io sum (each input looked up among the initializers one by one: 3.95
# s CPU against scan's 0.71 on 7fae5b3, 0.34 s now) and the note of an
# unused option (a pass over the model per option: 7.18 s against 1.03).
# Prints wall and CPU seconds of each and plan / scan; exits 1 when plan
# fails or takes over 3x scan's CPU time plus 0.5 s (7fae5b3's took 5.6x
# and 7.0x).
# Usage: bench_plan_lifetimes.sh [path/to/dmltensor] [N]
set -euo pipefail

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/dmltensor"}
n=${2:-160000}
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac
[ -x "$bin" ] || { echo "bench_plan_lifetimes.sh: no dmltensor at $bin" >&2; exit 1; }
py=/usr/bin/python3
"$py" -c 'import onnx' 2>/dev/null || { echo "bench_plan_lifetimes.sh: needs python3-onnx" >&2; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-bench-life.XXXXXX")
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT

"$py" - "$tmp" "$n" <<'PY'
import sys
from onnx import TensorProto, helper, save
tmp, n = sys.argv[1], int(sys.argv[2])
f = TensorProto.FLOAT
# branch: y = If(c) { N Adds }, z = Relu(y)
nodes = [helper.make_node("Add", ["x", "x"], ["b0"])]
nodes += [helper.make_node("Add", ["x" if k % 2 else "b%d" % (k - 1), "b%d" % (k - 1)], ["b%d" % k])
          for k in range(1, n)]
branch = helper.make_graph(nodes, "then", [], [helper.make_tensor_value_info("b%d" % (n - 1), f, [4])])
other = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [],
                          [helper.make_tensor_value_info("e", f, [4])])
main = helper.make_graph(
    [helper.make_node("Relu", ["a"], ["x"]),
     helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=other),
     helper.make_node("Relu", ["y"], ["z"])], "branch",
    [helper.make_tensor_value_info("a", f, [4]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
    [helper.make_tensor_value_info("z", f, [4])])
save(helper.make_model(main, opset_imports=[helper.make_opsetid("", 17)]), f"{tmp}/branch.onnx")
# weights: N/4 graph inputs that are initializers too (IR 3)
w = max(1, n // 4)
inits = [helper.make_tensor("w%d" % i, f, [1], [1.0]) for i in range(w)]
ins = [helper.make_tensor_value_info("w%d" % i, f, [1]) for i in range(w)]
adds = [helper.make_node("Relu", ["w0"], ["s0"])]
adds += [helper.make_node("Add", ["s%d" % (i - 1), "w%d" % i], ["s%d" % i]) for i in range(1, w)]
main = helper.make_graph(adds + [helper.make_node("Relu", ["s%d" % (w - 1)], ["z"])], "weights", ins,
                         [helper.make_tensor_value_info("z", f, [1])], initializer=inits)
m = helper.make_model(main, opset_imports=[helper.make_opsetid("", 7)])
m.ir_version = 3
save(m, f"{tmp}/weights.onnx")
PY

cpu_of() { # cpu_of CMD...: "wall cpu" of one run (output to /dev/null)
  /usr/bin/time -f "%e %U %S" -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" || {
    cat "$tmp/err" >&2; return 1; }
  tail -n 1 "$tmp/time" | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
}

status=0
echo "dmltensor plan on adversarial models (load average $(cut -d' ' -f1 /proc/loadavg), $(nproc) cores)"
for m in branch weights; do
  read -r s_wall s_cpu < <(cpu_of "$bin" scan "$tmp/$m.onnx")
  if ! out=$(cpu_of "$bin" plan --io "$tmp/$m.onnx"); then
    echo "bench_plan_lifetimes.sh: plan failed on $m" >&2; status=1; continue
  fi
  read -r p_wall p_cpu <<<"$out"
  printf '  %-8s plan %7.2f s wall %7.2f s CPU   scan (baseline) %7.2f s wall %7.2f s CPU' \
    "$m" "$p_wall" "$p_cpu" "$s_wall" "$s_cpu"
  awk -v p="$p_cpu" -v s="$s_cpu" 'BEGIN { if (s > 0) printf "   plan / scan CPU %.2fx", p / s; printf "\n" }'
  if awk -v p="$p_cpu" -v s="$s_cpu" 'BEGIN { exit !(p > 3 * s + 0.5) }'; then
    echo "bench_plan_lifetimes.sh: plan of $m takes over 3x scan's CPU time" >&2; status=1
  fi
done
# n/8 --shape options that name nothing, on the weights model (n/4 inputs
# and nodes in the main graph): plan's note
# of each was a pass over the model per option (O(options x values): 14.5 s
# on a 100,000-node chain with 20,000 of them); scan with the same options
# is the baseline.
opts=()
for ((i = 0; i < n / 8; i++)); do opts+=(--shape "nothere$i=4"); done
read -r s_wall s_cpu < <(cpu_of "$bin" scan "$tmp/weights.onnx" "${opts[@]}")
if out=$(cpu_of "$bin" plan "$tmp/weights.onnx" "${opts[@]}"); then
  read -r p_wall p_cpu <<<"$out"
  printf '  %-8s plan %7.2f s wall %7.2f s CPU   scan (baseline) %7.2f s wall %7.2f s CPU' \
    "options" "$p_wall" "$p_cpu" "$s_wall" "$s_cpu"
  awk -v p="$p_cpu" -v s="$s_cpu" 'BEGIN { if (s > 0) printf "   plan / scan CPU %.2fx", p / s; printf "\n" }'
  if awk -v p="$p_cpu" -v s="$s_cpu" 'BEGIN { exit !(p > 3 * s + 0.5) }'; then
    echo "bench_plan_lifetimes.sh: plan with $((n / 8)) unused --shape takes over 3x scan's CPU time" >&2
    status=1
  fi
else
  echo "bench_plan_lifetimes.sh: plan failed with $((n / 8)) --shape options" >&2; status=1
fi
exit "$status"
