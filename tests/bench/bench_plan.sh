#!/usr/bin/env bash
# bench_plan.sh - `dmltensor plan` of a million tensors from JSON Lines, and
# the planner's arena against the lower bound and greedy by size.
#
# Writes N records (default 1,000,000) of a long network to a temporary
# file: tensor i is born at step i/2 (+0..2) and lives 0..20 steps, of
# 4 KiB, 64 KiB, 784 KiB, 3 MiB or a random size up to 4 MiB. Reported:
#   time      wall and CPU (user + sys) seconds of `plan FILE > /dev/null`
#             (goal: at most 3 s), and, as the baseline measured in the same
#             run, `batch` over the same number of size records (its own
#             work per record: parse, describe, print);
#   memory    peak RSS of plan (/usr/bin/time -f %M) over N: bytes a tensor
#             (goal: at most 256);
#   quality   tests/bench/plan_ratio.c (dmlt_bench_plan): the arena over
#             the lower bound for the planner and for greedy by size alone
#             (the same library call with DMLT_PLAN_ONLY_GREEDY), on
#             ConvNeXt- and ResNet-like chains at batch 1 and 8, random
#             plans, the random chain of N tensors and 30,000 tensors all
#             alive at once (issue 27 item 15: 44-52 s before the skyline);
#   challenging  the same on google/minimalloc's benchmarks/challenging set
#             (tests/bench/data/minimalloc_challenging, alignment 1): the
#             arena over the lower bound, which minimalloc reaches on 9 of 11
#             (its own figures; its code is not built here).
# Memory is not noise, so a peak RSS over 256 bytes a tensor fails the
# script (exit 1), as does a wrong summary (tensors != N); time on a shared
# machine is a report (CPU time is the figure to compare with the goal when
# the load average passes the core count).
# Usage: bench_plan.sh [path/to/dmltensor] [N]
set -euo pipefail

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/dmltensor"}
n=${2:-1000000}
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac
[ -x "$bin" ] || { echo "bench_plan.sh: no dmltensor at $bin" >&2; exit 1; }
ratio_bin="$(dirname "$bin")/tests/dmlt_bench_plan"
py=/usr/bin/python3

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-bench-plan.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$py" - "$tmp" "$n" <<'PY'
import random, sys
tmp, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(23)
sizes = [4096, 65536, 802816, 3211264]
with open(f"{tmp}/plan.jsonl", "w") as plan, open(f"{tmp}/batch.jsonl", "w") as batch:
    for i in range(n):
        first = i // 2 + rng.randrange(3)
        last = first + rng.choice([0, 1, 1, 2, 3, 5, 20])
        size = rng.choice(sizes) if rng.random() < 0.8 else rng.randrange(4, 1 << 22)
        plan.write('{"name":"t%d","op":"Conv","first":%d,"last":%d,"size_in_bytes":%d}\n'
                   % (i, first, last, size))
        batch.write('{"id":%d,"dtype":"float16","sizes":[1,64,%d,56]}\n' % (i, 1 + i % 64))
PY

measure() { # measure NAME CMD...: wall, cpu, peak RSS (KB) of one run
  local name=$1
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$@" >"$tmp/out.$name"
  read -r wall user sys rss <"$tmp/time"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  echo "$wall $cpu $rss"
}

read -r p_wall p_cpu p_rss < <(measure plan "$bin" plan "$tmp/plan.jsonl")
read -r b_wall b_cpu b_rss < <(measure batch "$bin" batch "$tmp/batch.jsonl")
summary=$(tail -n 1 "$tmp/out.plan")
tensors=$(printf '%s' "$summary" | sed -E 's/.*"tensors":([0-9]+).*/\1/')
per=$(( p_rss * 1024 / n ))
echo "dmltensor plan, $n tensors from JSON Lines (load average $(cut -d' ' -f1 /proc/loadavg), $(nproc) cores)"
printf '  plan : %6.2f s wall %6.2f s CPU (goal: 3 s)   peak RSS %d KB = %d bytes a tensor (goal: 256)\n' \
  "$p_wall" "$p_cpu" "$p_rss" "$per"
printf '  batch: %6.2f s wall %6.2f s CPU (baseline: the same number of size records)\n' \
  "$b_wall" "$b_cpu"
awk -v p="$p_cpu" -v b="$b_cpu" 'BEGIN { if (b > 0) printf "  plan / batch CPU: %.2fx\n", p / b }'
echo "  $summary"
if [ -x "$ratio_bin" ]; then
  echo "arena / lower bound (greedy: greedy by size with best fit alone; work: overlap visits a tensor)"
  "$ratio_bin" "$n"
  echo "minimalloc's challenging set (alignment 1; minimalloc: 1.0000 on 9 of 11)"
  "$ratio_bin" --csv "$repo_root"/tests/bench/data/minimalloc_challenging/*.csv
fi
status=0
[ "$tensors" = "$n" ] || { echo "bench_plan.sh: the summary says $tensors tensors, not $n" >&2; status=1; }
[ "$per" -le 256 ] || { echo "bench_plan.sh: $per bytes of peak RSS a tensor, over 256" >&2; status=1; }
exit "$status"
