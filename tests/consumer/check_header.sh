#!/bin/sh
# check_header.sh CC INCLUDE_DIR - the public header is plain C for any
# compiler: no __int128 or other extension in it; it compiles as strict C11
# (-pedantic-errors, every warning an error) also where the compiler has no
# 128-bit integers (-U__SIZEOF_INT128__), as C++ when c++ is installed, and
# for Windows with MinGW-w64 when installed; and DMLT_API expands as
# dmltensor.h documents: dllexport while building the DLL, dllimport for its
# users, nothing with DMLT_STATIC, GCC visibility elsewhere.
set -eu
cc=$1 inc=$2
h=$inc/dmltensor.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
fail() {
  echo "check_header: FAIL: $*"
  status=1
}

if grep -n '__int128\|__extension__\|__SIZEOF_INT128__' "$h"; then
  fail "compiler-specific 128-bit integers in $h"
fi

# A program using the header's types, inline helpers and init macros.
cat >"$tmp/use.c" <<'C'
#include <dmltensor.h>

int main(void)
{
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_walk w = DMLT_WALK_INIT;
    struct dmlt_view v = DMLT_VIEW_INIT;
    dmlt_u128 a = dmlt_u128_from_u64(UINT64_MAX), b = dmlt_u128_max(), c;
    int ok = dmlt_u128_add(a, a, &c) && !dmlt_u128_add(b, a, &c) && dmlt_u128_sub(b, a, &c) &&
             dmlt_u128_cmp(a, b) < 0 && !dmlt_u128_eq(a, b) && dmlt_u128_fits_u64(a) &&
             dmlt_u128_to_u64(a) == UINT64_MAX;
    return ok && r.size == sizeof r && w.size == sizeof w && v.size == sizeof v &&
                   DMLT_VERSION_NUMBER > 0
               ? 0
               : 1;
}
C
strict="-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wstrict-prototypes -Wundef -Werror"
# shellcheck disable=SC2086 # one word per flag
"$cc" -std=c11 -pedantic-errors $strict -fsyntax-only -I"$inc" "$tmp/use.c" ||
  fail "$h is not strict C11"
# shellcheck disable=SC2086
"$cc" -std=c11 -pedantic-errors $strict -U__SIZEOF_INT128__ -fsyntax-only -I"$inc" "$tmp/use.c" ||
  fail "$h needs 128-bit integers"
if command -v c++ >/dev/null 2>&1; then
  cp "$tmp/use.c" "$tmp/use.cpp"
  c++ -std=c++11 -pedantic-errors -Wall -Wextra -Wno-missing-field-initializers -Werror -fsyntax-only -I"$inc" "$tmp/use.cpp" ||
    fail "$h does not compile as C++11"
fi
if command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
  for def in "" -DDMLT_STATIC -DDMLT_BUILDING_LIBRARY; do
    # shellcheck disable=SC2086
    x86_64-w64-mingw32-gcc -std=c11 -pedantic-errors $strict $def -fsyntax-only -I"$inc" \
      "$tmp/use.c" || fail "$h does not compile with MinGW-w64 ($def)"
  done
fi

# DMLT_API's expansion in each case.
expand() {
  printf '#include <dmltensor.h>\nDMLT_API_IS DMLT_API END\n' >"$tmp/api.c"
  "$cc" -E -P -I"$inc" "$@" "$tmp/api.c" | sed -n 's/^DMLT_API_IS *\(.*\) *END$/\1/p' |
    sed 's/ *$//'
}
want() {
  got=$(expand "$@")
  [ "$got" = "$expected" ] || fail "DMLT_API with ${*:-no definitions} is '$got', not '$expected'"
}
expected='__declspec(dllimport)' want -D_WIN32
expected='__declspec(dllexport)' want -D_WIN32 -DDMLT_BUILDING_LIBRARY
expected='' want -D_WIN32 -DDMLT_STATIC
expected='' want -D_WIN32 -DDMLT_STATIC -DDMLT_BUILDING_LIBRARY
expected='__declspec(dllimport)' want -D__CYGWIN__
expected='__attribute__((visibility("default")))' want -DDMLT_BUILDING_LIBRARY
expected='' want
expected='' want -DDMLT_STATIC

[ "$status" = 0 ] && echo "check_header: $h is portable C11 and DMLT_API expands as documented"
exit "$status"
