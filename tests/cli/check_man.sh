#!/bin/sh
# check_man.sh DMLTENSOR MANPAGE - fails when an option that any --help
# lists is missing from the man page, so the two cannot drift apart.
set -eu
bin=$1 man=$2
missing=0
# The commands, as the main help lists them.
cmds=$("$bin" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$cmds" ] || { echo "no commands found in 'dmltensor --help'"; exit 1; }
for cmd in "" $cmds; do
  # shellcheck disable=SC2086
  for opt in $("$bin" $cmd --help | grep -oE '(^|[ ,])--[a-z][a-z-]*' | tr -d ' ,' | sort -u); do
    # groff escapes dashes in the page: \-\-row\-pitch\-align
    esc=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
    if ! grep -q -- "$esc" "$man"; then
      echo "missing from $man: $opt (from 'dmltensor $cmd --help')"
      missing=1
    fi
  done
done
[ "$missing" = 0 ] && echo "man page lists every option"
exit "$missing"
