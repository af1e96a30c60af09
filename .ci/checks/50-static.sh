#!/usr/bin/env bash
# Static analysis of src/lib, src/onnx, src/dml (less its generated tables,
# *_table.c) and src/cli: clang-tidy (bugprone-*, cert-*,
# clang-analyzer-*; the few checks turned off are justified in .clang-tidy)
# with a build's compile_commands.json, and cppcheck (warning, portability,
# performance). Any finding fails the check. A finding that is a false
# positive is silenced where it stands: // NOLINT(check) for clang-tidy,
# // cppcheck-suppress id for cppcheck, each with its reason.
# Environment: DMLT_TIDY_BUILD_DIR (default build-tidy) for compile_commands.json.
set -euo pipefail
cd "$(dirname "$0")/../.."

. .ci/lib.sh
want clang-tidy clang-tidy
want cppcheck cppcheck
install_wanted 50-static

# compile_commands.json (and the generated dmlt_version.h): configuring is enough.
dir=${DMLT_TIDY_BUILD_DIR:-build-tidy}
cmake --preset default -B "$dir" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
sources=(src/lib/*.c src/onnx/*.c $(ls src/dml/*.c | grep -v '_table\.c$') src/cli/*.c)
status=0

echo "== clang-tidy ($(clang-tidy --version | grep -o 'version [0-9.]*'))"
# Two at a time; each file's findings are printed together.
if ! printf '%s\n' "${sources[@]}" |
  xargs -P 2 -n 1 clang-tidy -p "$dir" --quiet 2>/dev/null; then
  status=1
fi

# Twice: the __int128 path of src/lib/wide.h, and the portable one
# (DMLT_PORTABLE_U128, what compilers without 128-bit integers build).
for config in -D__SIZEOF_INT128__=16 -DDMLT_PORTABLE_U128; do
  echo "== cppcheck ($(cppcheck --version)) $config"
  if ! cppcheck --quiet --std=c11 --enable=warning,portability,performance --error-exitcode=1 \
    --inline-suppr --suppress=missingIncludeSystem -j 2 \
    -I src/include -I src/lib -I src/onnx -I src/dml -I src/cli -I "$dir/generated" \
    -D__GNUC__ "$config" \
    --template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
    "${sources[@]}"; then
    status=1
  fi
done

if [ "$status" != 0 ]; then
  echo "static analysis: findings above" >&2
  exit 1
fi
echo "static analysis: no findings"
