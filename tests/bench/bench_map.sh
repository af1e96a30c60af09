#!/usr/bin/env bash
# bench_map.sh - throughput and memory of `dmltensor map` against a baseline
# of `seq N` (N = the element count) writing to /dev/null, measured in the
# same run.
#
# For the float16 NHWC tensors 1,3,224,224 (150,528 elements) and
# 1,64,256,256 (4,194,304 elements), each of --format csv, text and jsonl:
#   lines/s   output lines per second;
#   MB/s      output bytes (counted once with wc -c) per second;
#   vs seq    MB/s over seq's MB/s for the same N (goal: >= 1.00); map's
#             lines are longer than seq's, so lines/s over seq's lines/s is
#             shown too (lines vs seq);
#   peak RSS  /usr/bin/time -f %M at both sizes and their ratio: map streams,
#             so its memory must not grow with the element count (goal:
#             ratio <= 1.25).
# Then --view memory and grid at the largest --limit (100,000) on cheap and on
# costly tensors: the view's work budget bounds its time (goal: < 1 s).
# Times come from hyperfine (mean of several runs) if it is on PATH, else from
# plain timing of a few runs each (date +%s%N).
# This is a report, not a test: it exits 0 even when a goal is missed, and 1
# only if a command could not be run.
set -euo pipefail

usage() {
    echo "usage: $0 [path/to/dmltensor]   (default: <repo>/build/dmltensor)"
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
esac

die() { echo "bench_map.sh: error: $*" >&2; exit 1; }

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/dmltensor"}
[ -x "$bin" ] || die "dmltensor binary not found or not executable: $bin"
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac
command -v seq >/dev/null 2>&1 || die "seq not found on PATH (coreutils)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

shapes=("1,3,224,224" "1,64,256,256")
formats=(csv text jsonl)
runs_for() { # hyperfine runs (plain timing: a third of them) by element count
    if [ "$1" -le 1000000 ]; then echo 30; else echo 6; fi
}

elements() { # product of a comma-separated list
    awk -v s="$1" 'BEGIN { n = split(s, a, ","); p = 1; for (i = 1; i <= n; i++) p *= a[i]; printf "%d\n", p }'
}

map_cmd() { # shape format
    echo "$bin map --dtype float16 --sizes $1 --layout nhwc --format $2"
}

# Each command is first run once: it must exit 0, and its output is counted.
# count CMD -> "lines bytes"
count() {
    local wc_out
    # shellcheck disable=SC2086 # word splitting is intended (no spaces in args)
    if ! wc_out=$($1 2>"$tmp/err" | wc -lc); then
        die "command failed: $1"$'\n'"$(cat "$tmp/err")"
    fi
    # (a failure on the left of the pipe fails the $() above: pipefail)
    if [ -s "$tmp/err" ]; then
        die "command wrote to stderr: $1"$'\n'"$(cat "$tmp/err")"
    fi
    echo "$wc_out" | awk '{ print $1, $2 }'
}

# Mean wall time in seconds of each command (arguments: runs, commands...),
# one per line.
mean_times() {
    local runs=$1
    shift
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine -N --output=null --warmup 1 --runs "$runs" --style none \
            --export-json "$tmp/hf.json" "$@" >"$tmp/hf.log" 2>&1 \
            || die "hyperfine failed:"$'\n'"$(cat "$tmp/hf.log")"
        grep -o '"mean": *[0-9.eE+-]*' "$tmp/hf.json" | sed 's/.*: *//'
    else
        local cmd i t0 t1
        for cmd in "$@"; do
            # shellcheck disable=SC2086
            $cmd >/dev/null || die "command failed: $cmd" # warmup
            t0=$(date +%s%N)
            for ((i = 0; i < runs; i++)); do
                # shellcheck disable=SC2086
                $cmd >/dev/null || die "command failed: $cmd"
            done
            t1=$(date +%s%N)
            awk -v a="$t0" -v b="$t1" -v n="$runs" 'BEGIN { printf "%.9f\n", (b - a) / n / 1e9 }'
        done
    fi
}

if command -v hyperfine >/dev/null 2>&1; then
    timer="hyperfine $(hyperfine --version | awk '{ print $2 }'), mean of N runs after 1 warmup"
else
    timer="plain timing (hyperfine not found), mean of N runs after 1 warmup"
fi
echo "dmltensor map vs seq, output to /dev/null; $timer"

goal_rate=PASS
for shape in "${shapes[@]}"; do
    n=$(elements "$shape")
    runs=$(runs_for "$n")
    command -v hyperfine >/dev/null 2>&1 || runs=$(((runs + 2) / 3))
    names=("seq $n")
    cmds=("seq $n")
    for f in "${formats[@]}"; do
        names+=("map --format $f")
        cmds+=("$(map_cmd "$shape" "$f")")
    done
    lines=()
    bytes=()
    for i in "${!cmds[@]}"; do
        pair=$(count "${cmds[$i]}")
        read -r "lines[i]" "bytes[i]" <<<"$pair"
    done
    times=$(mean_times "$runs" "${cmds[@]}")
    mapfile -t secs <<<"$times"
    [ "${#secs[@]}" -eq "${#cmds[@]}" ] || die "expected ${#cmds[@]} timings, got ${#secs[@]}"

    echo
    echo "float16 $shape nhwc: $n elements, N = $runs"
    printf '%-18s %10s %10s %11s %10s %7s %6s %12s\n' \
        "case" "time ms" "lines" "lines/s" "MB/s" "vs seq" "goal" "lines vs seq"
    for i in "${!cmds[@]}"; do
        row=$(awk -v t="${secs[$i]}" -v l="${lines[$i]}" -v b="${bytes[$i]}" \
            -v t0="${secs[0]}" -v l0="${lines[0]}" -v b0="${bytes[0]}" -v first="$i" 'BEGIN {
                mbs = b / t / 1e6; base = b0 / t0 / 1e6; r = mbs / base
                goal = first == 0 ? "" : (r >= 1.0 ? "PASS" : "MISS")
                printf "%10.2f %10d %11.3g %10.1f %6.2fx %6s %11.2fx", t * 1e3, l, l / t, mbs, r,
                    goal, (l / t) / (l0 / t0)
            }')
        printf '%-18s %s\n' "${names[$i]}" "$row"
        case "$row" in *MISS*) goal_rate=MISS ;; esac
    done
done
echo
echo "goal: every map format's MB/s >= seq's MB/s at the same N: $goal_rate"

# --- peak RSS ----------------------------------------------------------------
echo
if [ -x /usr/bin/time ]; then
    rss() { # command -> peak RSS in KB
        # shellcheck disable=SC2086
        /usr/bin/time -f %M -o "$tmp/rss" $1 >/dev/null 2>"$tmp/err" \
            || die "command failed: $1"$'\n'"$(cat "$tmp/err")"
        tail -n 1 "$tmp/rss"
    }
    small=${shapes[0]}
    large=${shapes[1]}
    n_small=$(elements "$small")
    n_large=$(elements "$large")
    echo "peak RSS (/usr/bin/time -f %M), KB: $n_small vs $n_large elements"
    printf '%-18s %12s %12s %8s %7s\n' "case" "$small" "$large" "ratio" "goal"
    goal_rss=PASS
    for f in seq "${formats[@]}"; do
        if [ "$f" = seq ]; then
            name="seq N"
            a=$(rss "seq $n_small")
            b=$(rss "seq $n_large")
        else
            name="map --format $f"
            a=$(rss "$(map_cmd "$small" "$f")")
            b=$(rss "$(map_cmd "$large" "$f")")
        fi
        verdict=$(awk -v a="$a" -v b="$b" -v f="$f" 'BEGIN {
            if (f == "seq") print ""; else print (b <= 1.25 * a ? "PASS" : "MISS") }')
        if [ "$verdict" = MISS ]; then goal_rss=MISS; fi
        printf '%-18s %12s %12s %7.2fx %7s\n' "$name" "$a" "$b" \
            "$(awk -v a="$a" -v b="$b" 'BEGIN { print b / a }')" "$verdict"
    done
    echo
    echo "goal: map's peak RSS at $n_large elements <= 1.25x at $n_small: $goal_rss"
else
    echo "peak RSS: /usr/bin/time not found (apt-get install time); skipped"
fi

# --- views: the work budget --------------------------------------------------
# A view searches, for each cell, who is there, within one work budget for
# the whole view: its time is bounded whatever the tensor. Timed at the
# largest --limit a view takes, on tensors whose searches are cheap (packed
# NHWC) and on ones that run out of work (the sizes and strides of issue 13,
# and a broadcast-heavy overlap). Goal: each under 1 s. Wall time of one run
# (mean of 3), and the cells drawn unknown (`?`).
echo
view_limit=100000
hard="--dtype uint8 --sizes 2,1000,1000,1000,1000,1000,1000,2 --strides 101,2,2,2,2,2,2,1000003"
echo "map --view at --limit $view_limit: wall time (mean of 3 runs) and cells drawn unknown"
printf '%-44s %8s %10s %8s\n' "case" "view" "wall s" "unknown"
goal_view=PASS
for tensor in "--dtype float16 --sizes 1,64,256,256 --layout nhwc" "$hard" \
    "--sizes 64,1000,1000 --strides 1,1,1"; do
    for view in memory grid; do
        cmd="$bin map $tensor --view $view --limit $view_limit --width 200"
        # shellcheck disable=SC2086
        $cmd >"$tmp/view" 2>"$tmp/err" || die "command failed: $cmd"$'\n'"$(cat "$tmp/err")"
        unknown=$(tr -cd '?' <"$tmp/view" | wc -c)
        t0=$(date +%s%N)
        for _ in 1 2 3; do
            # shellcheck disable=SC2086
            $cmd >/dev/null
        done
        t1=$(date +%s%N)
        secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 3e9 }')
        if awk -v s="$secs" 'BEGIN { exit !(s >= 1.0) }'; then goal_view=MISS; fi
        case "$tensor" in
            *1000003*) name="issue 13's 2,1000,...,2 strides 101,2,...";;
            *1,1,1) name="64,1000,1000 strides 1,1,1";;
            *) name="float16 1,64,256,256 nhwc";;
        esac
        printf '%-44s %8s %10s %8s\n' "$name" "$view" "$secs" "$unknown"
    done
done
echo "goal: every view at --limit $view_limit in under 1 s: $goal_view"

exit 0
