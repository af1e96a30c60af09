#!/bin/sh
# check_completions.sh DMLTENSOR COMPLETIONS_DIR - fails when the bash, zsh
# or fish completion (src/completions/) misses a command or an option that
# `dmltensor --help` or any `dmltensor COMMAND --help` lists, so they cannot
# drift apart. Then, in each of bash, zsh and fish that is installed, it
# completes command lines for real and compares what is offered with
# --help, `dmltensor dtypes` and `dmltensor layouts`, and runs dmltensor
# with each --field, --layout and --format value offered.
set -eu
bin=$1 dir=$2
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
here=$(cd "$(dirname "$0")" && pwd)
files="$dir/dmltensor.bash $dir/_dmltensor $dir/dmltensor.fish"
failed=0
fail() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}

# The commands, as the main help lists them.
cmds=$("$bin" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ -n "$cmds" ] || { echo "no commands found in 'dmltensor --help'"; exit 1; }

# 1. Every command and every option any --help mentions is in every file.
for f in $files; do
  for cmd in $cmds; do
    grep -qE "(^|[^a-z_-])$cmd([^a-z_-]|\$)" "$f" || fail "$f: missing command $cmd"
  done
  for cmd in "" $cmds; do
    # shellcheck disable=SC2086
    for opt in $("$bin" $cmd --help | grep -oE '(^|[ ,])--[a-z][a-z-]*' | tr -d ' ,' | sort -u); do
      # --name, or fish's "complete -l name".
      grep -qE -- "(^|[^a-z-])(--|-l )${opt#--}([^a-z-]|\$)" "$f" ||
        fail "$f: missing $opt (from 'dmltensor $cmd --help')"
    done
  done
done
[ "$failed" = 0 ] && echo "bash, zsh and fish completions list every command and option"

# 2. Real completions. The shells see dmltensor on PATH and a scratch HOME.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/home" "$tmp/files"
: >"$tmp/files/descriptors.jsonl"
ln -s "$bin" "$tmp/bin/dmltensor"
PATH=$tmp/bin:$PATH HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home XDG_DATA_HOME=$tmp/home
export PATH HOME XDG_CONFIG_HOME XDG_DATA_HOME
unset XDG_CACHE_HOME

# offers SHELL LINE: what SHELL offers for LINE<TAB>, sorted, one a line.
offers() {
  case $1 in
  bash)
    # As readline splits the line: '=' is a word of its own (COMP_WORDBREAKS).
    bash --norc --noprofile -c '
      source "$1" || exit 2
      fn=$(complete -p dmltensor) && fn=${fn#*-F } && fn=${fn%% *} || exit 2
      line=$2
      read -ra COMP_WORDS <<<"${line//=/ = }"
      [[ $line == *" " ]] && COMP_WORDS+=("")
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
      "$fn" dmltensor "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
      printf "%s\n" "${COMPREPLY[@]}"' sh "$dir/dmltensor.bash" "$2" ;;
  zsh) timeout 30 zsh -f "$here/complete_zsh.zsh" "$dir" "$2" ;;
  fish)
    # shellcheck disable=SC2016 # $argv is fish's
    fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$dir/dmltensor.fish" "$2" |
      cut -f1 ;;
  esac | sed '/^$/d' | sort -u
}

# expect SHELL LINE WORD...: SHELL offers exactly these words for LINE<TAB>.
expect() {
  sh=$1 line=$2
  shift 2
  want=$(printf '%s\n' "$@" | sed '/^$/d' | sort -u)
  got=$(offers "$sh" "$line") || { fail "$sh: '$line<TAB>': the shell failed"; return 0; }
  if [ "$got" != "$want" ]; then
    fail "$sh: '$line<TAB>' offers [$(echo "$got" | tr '\n' ' ')], not [$(echo "$want" | tr '\n' ' ')]"
  fi
}

# The options a help defines (its "  --name" and "  -h, --help" lines).
defined() {
  # shellcheck disable=SC2086
  "$bin" $1 --help | grep -oE '^  (-[a-zA-Z], )?--[a-z][a-z-]*' | tr ',' ' '
}

dtypes=$("$bin" dtypes | awk 'NR > 1 { print $1 }')
named=$("$bin" layouts --format json | grep -oE '"named":\[[^]]*\]' | grep -oE '"[a-z-]+"' |
  tr -d '"' | grep -vx named)

for sh in bash zsh fish; do
  if ! command -v "$sh" >/dev/null 2>&1; then
    echo "$sh not installed: its completion was only checked for names"
    continue
  fi
  before=$failed
  # shellcheck disable=SC2086
  expect "$sh" "dmltensor " $cmds
  # shellcheck disable=SC2046
  expect "$sh" "dmltensor -" $(defined "")
  for cmd in $cmds; do
    # shellcheck disable=SC2046
    expect "$sh" "dmltensor $cmd --" $(defined "$cmd" | tr ' ' '\n' | grep -- '^--')
  done
  expect "$sh" "dmltensor si" size
  expect "$sh" "dmltensor size --dt" --dtype
  expect "$sh" "dmltensor size --dtype f" float16 float32 float64
  # shellcheck disable=SC2086
  expect "$sh" "dmltensor size --dtype " $dtypes
  expect "$sh" "dmltensor size --sizes " # nothing, not file names
  expect "$sh" "dmltensor size --format " text json env c
  expect "$sh" "dmltensor validate --format " text json c
  if [ "$sh" = bash ]; then
    expect bash "dmltensor size --dtype=f" float16 float32 float64
  else
    expect "$sh" "dmltensor size --dtype=f" --dtype=float16 --dtype=float32 --dtype=float64
  fi

  # A command whose usage takes a FILE completes file names.
  for cmd in $cmds; do
    "$bin" "$cmd" --help | head -n 1 | grep -q FILE || continue
    cd "$tmp/files"
    expect "$sh" "dmltensor $cmd desc" descriptors.jsonl
    cd "$OLDPWD"
  done

  # Every value offered is one dmltensor takes; every named layout is offered.
  layouts=$(offers "$sh" "dmltensor size --layout ")
  for name in $named; do
    echo "$layouts" | grep -qx -- "$name" || fail "$sh: layout $name is not offered"
  done
  for name in $layouts; do
    case $name in
    *-major) sizes=1,1,1,1 ;;
    *) sizes=$(echo "$name" | sed 's/./1,/g; s/,$//') ;;
    esac
    "$bin" size --sizes "$sizes" --layout "$name" --field layout </dev/null >/dev/null 2>&1 ||
      fail "$sh: layout $name is offered but not accepted"
  done
  for field in $(offers "$sh" "dmltensor size --field "); do
    "$bin" size --sizes 1 --field "$field" </dev/null >/dev/null 2>&1 ||
      fail "$sh: field $field is offered but not accepted"
  done
  # --format, for each command that has it and runs with no other option
  # or with --sizes 1.
  for cmd in $cmds; do
    defined "$cmd" | grep -q -- '--format' || continue
    if "$bin" "$cmd" </dev/null >/dev/null 2>&1; then args=""
    elif "$bin" "$cmd" --sizes 1 </dev/null >/dev/null 2>&1; then args="--sizes 1"
    else continue
    fi
    for format in $(offers "$sh" "dmltensor $cmd --format "); do
      # shellcheck disable=SC2086
      "$bin" "$cmd" $args --format "$format" </dev/null >/dev/null 2>&1 ||
        fail "$sh: $cmd --format $format is offered but not accepted"
    done
  done
  [ "$failed" = "$before" ] && echo "$sh completes commands, options and values as --help says"
done
[ "$failed" = 0 ] || { echo "$failed failures"; exit 1; }
