#!/usr/bin/env bash
# Half of the golden command-line cases (tests/cli/cases/*.case) again,
# and every 32nd hostile-input invocation (tests/cli/check_hostile.py), each under
# valgrind memcheck: an invalid read or write, a use of uninitialised memory
# or a leak makes it exit 99, which fails the case (its expected status is
# 0..3). Both scripts put $DMLT_WRAPPER in front of the binary. Two
# invocations run at a time (2 cores).
# Which half: the cases of odd or even index as the commit's hash is odd
# or even (git HEAD; DMLT_VALGRIND_HALF=0, 1, or all): two commits in a row
# memcheck every case, half the time each (a case is about 0.45 s of CPU
# under memcheck: 431 cases were 4 of CI's minutes), and the asan build
# runs every case every time.
# The binary is a plain build (valgrind cannot run ASan builds): build/,
# built with the ci preset if it is not there yet.
# Environment: DMLT_BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want valgrind valgrind
install_wanted 25-valgrind

dir=${DMLT_BUILD_DIR:-build}
if [ ! -f "$dir/CMakeCache.txt" ]; then
  cmake --preset ci -B "$dir" >/dev/null
fi
cmake --build "$dir" -j2 >/dev/null

export DMLT_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full \
--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"
all=(tests/cli/cases/*.case)
which=${DMLT_VALGRIND_HALF:-$((0x$(git rev-parse --short=1 HEAD 2>/dev/null || echo 0) % 2))}
cases=()
for i in "${!all[@]}"; do
  if [ "$which" = all ] || [ $((i % 2)) = "$which" ]; then cases+=("${all[$i]}"); fi
done
echo "valgrind: ${#cases[@]} of ${#all[@]} golden cases (half $which; DMLT_VALGRIND_HALF=all for every one)"
half=$(((${#cases[@]} + 1) / 2))
log=$(mktemp -d "${TMPDIR:-/tmp}/dmlt-valgrind.XXXXXX")
python3 tests/cli/run_golden.py "$dir/dmltensor" "${cases[@]:0:half}" >"$log/1" 2>&1 & a=$!
python3 tests/cli/run_golden.py "$dir/dmltensor" "${cases[@]:half}" >"$log/2" 2>&1 & b=$!
sa=0; wait $a || sa=$?
sb=0; wait $b || sb=$?
if [ "$sa" != 0 ] || [ "$sb" != 0 ]; then
  grep -hv '^ok ' "$log/1" "$log/2"
  echo "valgrind: a case failed under memcheck (exit 99 is a memcheck error)" >&2
  exit 1
fi
echo "valgrind: golden cases: $(tail -qn1 "$log/1" "$log/2" | paste -sd';' | sed 's/;/ + /')"

# Every 32nd hostile invocation (error paths, where leaks hide; the asan build
# runs them all), two at a time.
if ! python3 tests/cli/check_hostile.py "$dir/dmltensor" --every=32 >"$log/3" 2>&1; then
  grep -v '^ok ' "$log/3" | head -n 60
  echo "valgrind: a hostile invocation failed under memcheck (exit 99 is a memcheck error)" >&2
  exit 1
fi
echo "valgrind: hostile input: $(tail -n1 "$log/3")"

# Damaged ONNX models (issue 16): a small model cut at every byte and with
# 30 random byte changes, each run of scan under memcheck.
if ! DMLT_ONNX_FLIPS=30 python3 tests/onnx/check_onnx_damage.py "$dir/dmltensor" \
  tests/cli/data/onnx/tiny.onnx >"$log/4" 2>&1; then
  grep -v '^ok ' "$log/4" | head -n 60
  echo "valgrind: a damaged ONNX model failed under memcheck (exit 99 is a memcheck error)" >&2
  exit 1
fi
echo "valgrind: damaged ONNX models: $(tail -n1 "$log/4")"

# The model reader (onnx_model_read, through dump_model): two models, one
# concatenated with itself (merged messages), and tiny.onnx cut at every
# byte, in one process under memcheck.
python3 - "$log" <<'PY'
import sys
d = sys.argv[1]
zoo = open("tests/cli/data/onnx/zoo.onnx", "rb").read()
tiny = open("tests/cli/data/onnx/tiny.onnx", "rb").read()
open(f"{d}/zoo2.onnx", "wb").write(zoo + zoo)
for i in range(len(tiny)):
    open(f"{d}/cut{i}.onnx", "wb").write(tiny[:i])
PY
if ! $DMLT_WRAPPER "$dir/tests/dump_model" tests/cli/data/onnx/zoo.onnx tests/cli/data/onnx/tiny.onnx \
  "$log"/zoo2.onnx "$log"/cut*.onnx >/dev/null; then
  echo "valgrind: the model reader failed under memcheck (exit 99 is a memcheck error)" >&2
  exit 1
fi
echo "valgrind: model reader: $(ls "$log"/cut*.onnx | wc -l) cuts and 3 models, no memcheck error"
rm -rf "$log"
