#!/usr/bin/env bash
# Fuzzing: builds the libFuzzer targets (preset fuzz: clang, ASan + UBSan)
# and runs each for FUZZ_SECONDS (default 30) from its seed corpus and its
# saved regressions. A crash, leak, undefined behaviour, violated invariant
# or timeout fails the check, and the reproducer is kept (its path is
# printed). What libFuzzer adds to the corpus goes to a scratch directory,
# never to tests/fuzz/corpus/. Two targets run at a time (2 cores).
# Environment: DMLT_FUZZ_BUILD_DIR (default build-fuzz), FUZZ_SECONDS.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want clang clang
install_wanted 30-fuzz
# libFuzzer's runtime ships apart from clang: libclang-rt-<major>-dev.
major=$(clang -dumpversion | cut -d. -f1)
want "libclang-rt-$major-dev"
install_wanted 30-fuzz

dir=${DMLT_FUZZ_BUILD_DIR:-build-fuzz}
seconds=${FUZZ_SECONDS:-30}
cmake --preset fuzz -B "$dir" >/dev/null
cmake --build "$dir" -j2 >/dev/null

work=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-fuzz.XXXXXX")
run() {
  local t=$1
  local seeds=(tests/fuzz/corpus/"$t")
  if [ -d tests/fuzz/regressions/"$t" ]; then seeds+=(tests/fuzz/regressions/"$t"); fi
  mkdir -p "$work/$t"
  # -timeout: one input may take at most 10 s; -rss_limit_mb: 2 GiB.
  "$dir/tests/fuzz/fuzz_$t" "$work/$t" "${seeds[@]}" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/$t-" \
    >"$work/$t.log" 2>&1
}
report() {
  local t=$1 status=$2
  local done runs rate
  done=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$work/$t.log" | tail -1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/$t.log")
  if [ "$status" = 0 ]; then
    done=$(sed -E 's/.*DONE +//; s/ +lim:.*//' <<<"$done")
    echo "fuzz_$t: ${runs:-?} runs in ${seconds} s (${rate:-?}/s), $done, no crash"
    return 0
  fi
  echo "fuzz_$t: FAILED (exit $status); the end of its log ($work/$t.log):"
  tail -n 40 "$work/$t.log"
  ls "$work/$t"-* 2>/dev/null | sed 's/^/reproducer: /'
  return 1
}

failed=0
run cli & a=$!
run parse & b=$!
sa=0; wait $a || sa=$?
sb=0; wait $b || sb=$?
report cli $sa || failed=1
report parse $sb || failed=1
run core & c=$!
run json & d=$!
sc=0; wait $c || sc=$?
sd=0; wait $d || sd=$?
report core $sc || failed=1
report json $sd || failed=1
run view & e=$!
run onnx & f=$!
se=0; wait $e || se=$?
sf=0; wait $f || sf=$?
report view $se || failed=1
report onnx $sf || failed=1
run infer & g=$!
sg=0; wait $g || sg=$?
report infer $sg || failed=1
if [ "$failed" != 0 ]; then
  echo "fuzz: a target failed; the inputs are in $work" >&2
  exit 1
fi
rm -rf "$work"
echo "fuzz: no crash in ${seconds} s per target"
