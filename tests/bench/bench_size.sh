#!/usr/bin/env bash
# bench_size.sh - instruction-count benchmark of `dmltensor size` and
# `dmltensor view` against a baseline C program that only builds and prints
# a 5-key cJSON object. Goals: size --format json and a view with three
# operations (--format json) each at most 1.25x the baseline.
#
# Instruction counts come from valgrind's callgrind ("Collected : N").
# If hyperfine is on PATH, wall-clock ratios are printed as well.
# This is a report, not a test: it exits 0 even when the goal is missed,
# and 1 only if a command could not be run.
set -euo pipefail

usage() {
    echo "usage: $0 [path/to/dmltensor]   (default: <repo>/build/dmltensor)"
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
esac

die() { echo "bench_size.sh: error: $*" >&2; exit 1; }

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-"$repo_root/build/dmltensor"}
[ -x "$bin" ] || die "dmltensor binary not found or not executable: $bin"
case "$bin" in /*) ;; *) bin="$(pwd)/$bin" ;; esac

command -v valgrind >/dev/null 2>&1 || die "valgrind not found on PATH (apt-get install valgrind)"
command -v cc >/dev/null 2>&1 || die "cc not found on PATH (install a C compiler)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- baseline: build and print a 5-key cJSON object -------------------------
cat >"$tmp/baseline.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <cjson/cJSON.h>

int main(void)
{
    const int sizes[4] = {1, 3, 224, 224};
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return 1;
    cJSON_AddStringToObject(root, "dtype", "float16");
    cJSON_AddNumberToObject(root, "rank", 4);
    cJSON_AddItemToObject(root, "sizes", cJSON_CreateIntArray(sizes, 4));
    cJSON_AddNumberToObject(root, "minimum_implied_size_bytes", 301056);
    cJSON_AddBoolToObject(root, "packed", 1);
    char *s = cJSON_PrintUnformatted(root);
    if (!s) {
        cJSON_Delete(root);
        return 1;
    }
    puts(s);
    cJSON_free(s);
    cJSON_Delete(root);
    return 0;
}
EOF
(cd "$tmp" && cc -O2 baseline.c -lcjson -o baseline) \
    || die "failed to compile the cJSON baseline (is libcjson-dev installed?)"

# --- cases --------------------------------------------------------------------
names=(
    "baseline (5-key cJSON)"
    "size nhwc json"
    "size nhwc text"
    "size strided json (overlap)"
    "size f64 huge json"
    "view 3 ops json"
    "view 3 ops text"
    "view misaligned json (fix)"
)
cmds=(
    "$tmp/baseline"
    "$bin size --dtype float16 --sizes 1,3,224,224 --layout nhwc --format json"
    "$bin size --dtype float16 --sizes 1,3,224,224 --layout nhwc"
    "$bin size --sizes 2,3 --strides 3,2 --format json"
    "$bin size --dtype float64 --sizes 4294967295,4294967295 --format json"
    "$bin view --dtype float16 --sizes 8,3,224,224 --slice n=2:4 --permute nhwc --reshape 2,50176,3 --format json"
    "$bin view --dtype float16 --sizes 8,3,224,224 --slice n=2:4 --permute nhwc --reshape 2,50176,3"
    "$bin view --dtype float16 --sizes 4,3 --slice h=1:3 --select w=0 --broadcast-to 3,2 --format json"
)
# Exit statuses other than 0 that a case may have: the misaligned view
# breaks a rule (1) by design.
allowed_status=(0 0 0 0 0 0 0 1)

# Each command is first run normally and must exit as expected.
for i in "${!cmds[@]}"; do
    status=0
    # shellcheck disable=SC2086 # word splitting is intended (no spaces in args)
    ${cmds[$i]} >/dev/null 2>"$tmp/err" || status=$?
    if [ "$status" != "${allowed_status[$i]}" ]; then
        echo "bench_size.sh: error: command failed: ${cmds[$i]}" >&2
        cat "$tmp/err" >&2
        exit 1
    fi
done

instr() {
    local out n
    # shellcheck disable=SC2086
    out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null $1 2>&1 >/dev/null) \
        || [ -n "$2" ] || die "valgrind failed on: $1"$'\n'"$out"
    n=$(printf '%s\n' "$out" | sed -n 's/^==[0-9]*== Collected : *\([0-9][0-9]*\).*/\1/p' | tail -n 1)
    [ -n "$n" ] || die "no 'Collected :' line from valgrind for: $1"
    echo "$n"
}

counts=()
for i in "${!cmds[@]}"; do
    ok_fail=""
    [ "${allowed_status[$i]}" = 0 ] || ok_fail=yes
    counts[i]=$(instr "${cmds[$i]}" "$ok_fail")
done

base=${counts[0]}
printf '%-30s %14s %8s\n' "case" "instructions" "ratio"
for i in "${!cmds[@]}"; do
    printf '%-30s %14s %8s\n' "${names[$i]}" "${counts[$i]}" \
        "$(awk -v a="${counts[$i]}" -v b="$base" 'BEGIN { printf "%.2fx", a / b }')"
done

if awk -v a="${counts[1]}" -v b="$base" 'BEGIN { exit !(a <= 1.25 * b) }'; then
    verdict=PASS
else
    verdict=FAIL
fi
echo "goal: size --format json <= 1.25x baseline: $verdict"
if awk -v a="${counts[5]}" -v b="$base" 'BEGIN { exit !(a <= 1.25 * b) }'; then
    verdict=PASS
else
    verdict=FAIL
fi
echo "goal: view with 3 operations --format json <= 1.25x baseline: $verdict"

# --- optional wall clock ------------------------------------------------------
if command -v hyperfine >/dev/null 2>&1; then
    if hyperfine -N --warmup 20 --runs 200 --style none \
        --export-json "$tmp/hf.json" "${cmds[0]}" "${cmds[1]}" >/dev/null 2>&1; then
        mapfile -t means < <(grep -o '"mean": *[0-9.eE+-]*' "$tmp/hf.json" | sed 's/.*: *//')
        if [ "${#means[@]}" -ge 2 ]; then
            echo
            echo "wall clock (hyperfine, mean of 200 runs):"
            awk -v b="${means[0]}" -v a="${means[1]}" -v n0="${names[0]}" -v n1="${names[1]}" 'BEGIN {
                printf "%-30s %10.1f us %8s\n", n0, b * 1e6, "1.00x"
                printf "%-30s %10.1f us %7.2fx\n", n1, a * 1e6, a / b
            }'
        fi
    fi
fi

exit 0
