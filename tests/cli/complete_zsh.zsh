#!/usr/bin/env zsh
# complete_zsh.zsh FPATH_DIR LINE - prints, one per line, the completions an
# interactive zsh (zsh -f, compinit, FPATH_DIR first on $fpath) offers for
# LINE followed by TAB. Used by check_completions.sh.
#
# It runs zsh in a pseudo-terminal (zsh/zpty), replaces compadd with a
# function that prints what it is given, and reads the output between two
# NUL lines. The technique is that of zsh-capture-completion (Valodim).
zmodload zsh/zpty || exit 2
fdir=$1 line=$2
init=$(mktemp) || exit 2
trap 'rm -f $init; zpty -d z 2>/dev/null' EXIT
cat >$init <<'EOF'
PROMPT=
autoload -U compinit
compinit -u -D
bindkey '^M' undefined
bindkey '^J' undefined
bindkey '^I' complete-word
null-line () { echo -E - $'\0' }
compprefuncs=( null-line )
comppostfuncs=( null-line exit )
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
compadd () {
  # Calls that only ask for the matches (-O, -A, -D) are passed through.
  if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "$@"
    return $?
  fi
  typeset -a __hits
  builtin compadd -A __hits "$@"
  [[ -n $__hits ]] || return
  local h
  for h in $__hits; do echo -E - "$IPREFIX$h"; done
}
echo ok
EOF
zpty z zsh -f -i
zpty -w z "fpath=(${(q)fdir} \$fpath); source ${(q)init}"
local out
repeat 20; do
  zpty -r z out
  [[ $out == ok* ]] && break
done
[[ $out == ok* ]] || { echo "complete_zsh.zsh: zsh did not start" >&2; exit 2 }
zpty -w z "$line"$'\t'
integer seen=0
# zpty -r without a parameter name copies the output to stdout.
while zpty -r z; do :; done | while IFS= read -r out; do
  if [[ $out == *$'\0\r' ]]; then
    (( seen++ )) && exit 0 || continue
  fi
  (( seen )) && print -r -- "${out%$'\r'}"
done
exit 2 # the second NUL line never came
