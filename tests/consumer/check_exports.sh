#!/bin/sh
# check_exports.sh LIBDMLTENSOR.SO DMLTENSOR.H - fails unless the shared
# library exports exactly the functions the header declares with DMLT_API:
# none missing (a consumer would not link) and no internal one leaked.
set -eu
lib=$1 header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The name before the first '(' of each declaration that starts with DMLT_API.
grep -oE '^DMLT_API [^(]*\(' "$header" | sed -E 's/.*[ *]([A-Za-z_][A-Za-z0-9_]*)\($/\1/' |
  sort -u >"$tmp/declared"
# Functions exported, less what a compiler runtime links in: names with a
# leading __, and mangle_path (libgcov, in --coverage builds).
nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | grep -vE '^(__|mangle_path$)' |
  sort -u >"$tmp/exported"
[ -s "$tmp/declared" ] || { echo "no DMLT_API declarations found in $header"; exit 1; }
status=0
if ! cmp -s "$tmp/declared" "$tmp/exported"; then
  comm -23 "$tmp/declared" "$tmp/exported" | sed 's/^/declared DMLT_API but not exported: /'
  comm -13 "$tmp/declared" "$tmp/exported" | sed 's/^/exported but not declared DMLT_API: /'
  status=1
fi
[ "$status" = 0 ] && echo "$(wc -l <"$tmp/exported") functions exported, as the header declares"
exit "$status"
