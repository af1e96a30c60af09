#!/usr/bin/env bash
# Coverage of the core library: builds the coverage preset (gcc --coverage),
# runs the whole test suite but the tests labelled onnx_layer (they run only
# src/onnx, none of src/lib's lines), prints gcovr's summary for src/lib/
# (lines and branches) and fails below 95% of lines or 90% of branches.
# The report per file is in $dir/coverage.txt (lines) and
# $dir/coverage-branches.txt.
# Environment: DMLT_COV_BUILD_DIR (default build-cov).
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want gcovr gcovr
install_wanted 35-coverage

dir=${DMLT_COV_BUILD_DIR:-build-cov}
cmake --preset coverage -B "$dir" >/dev/null
cmake --build "$dir" -j2 >/dev/null
find "$dir" -name '*.gcda' -delete # counts from this run only
ctest --test-dir "$dir" -j2 -LE "onnx_layer|once" --output-on-failure >"$dir/ctest.log" ||
  { tail -n 50 "$dir/ctest.log"; exit 1; }
tail -n 3 "$dir/ctest.log"

# Only the core library's own sources count (src/lib/, not the tests).
gcov_args=(--root . --filter 'src/lib/' --exclude-unreachable-branches "$dir")
gcovr "${gcov_args[@]}" --txt "$dir/coverage.txt"
gcovr "${gcov_args[@]}" --branches --txt "$dir/coverage-branches.txt"
cat "$dir/coverage.txt" "$dir/coverage-branches.txt"
echo "== gcovr summary, src/lib/ (fails under 95% of lines or 90% of branches)"
# The report goes to a file of its own: as root, gcovr --txt /dev/null
# replaces the device with a regular file, which breaks every later step.
gcovr "${gcov_args[@]}" --print-summary --fail-under-line 95 --fail-under-branch 90 \
  --txt "$dir/coverage-summary.txt"
