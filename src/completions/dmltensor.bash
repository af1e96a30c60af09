# bash completion for dmltensor(1)                         -*- shell-script -*-
# Installed as share/bash-completion/completions/dmltensor; to try it
# without installing: source src/completions/dmltensor.bash
#
# Adding a command or an option (do the same in _dmltensor for zsh and in
# dmltensor.fish; the ctest cli/completions fails until all three agree
# with `dmltensor --help` and every `dmltensor COMMAND --help`):
#   - a command: add it to _dmltensor_commands, and a branch for it in
#     _dmltensor_options listing its options as its --help does;
#   - an option that takes no value: add it to _dmltensor_flags;
#   - an option whose value is a file: add it to _dmltensor_file_options;
#   - a command that takes file arguments: add it to _dmltensor_file_commands;
#   - values to offer for an option: a branch in _dmltensor_values.

_dmltensor_commands='size offset locate map validate view batch scan dtypes layouts'

# Options that take no value; every other option takes one.
_dmltensor_flags='-h --help --version --progress'
# Options whose value is a path.
_dmltensor_file_options=''
# Commands whose arguments (other than options) are files.
_dmltensor_file_commands='batch scan'

# `dmltensor dtypes`
_dmltensor_dtypes='float32 float16 uint32 uint16 uint8 int32 int16 int8 float64
  uint64 int64 uint4 int4'
# `dmltensor layouts`: the named layouts of ranks 1-5, and those of any rank
# (any permutation of the rank's letters, or indices, also works).
_dmltensor_layouts='w hw wh dhw whd nchw nhwc ncdhw ndhwc row-major col-major'
# `dmltensor size --field`: the JSON keys of `size --format json`.
_dmltensor_fields='dtype dml_data_type dml_data_type_value element_size_bits rank
  sizes layout strides byte_strides broadcast element_count index_of_last_element
  packed_size_bytes minimum_implied_size_bytes padded_size_bytes
  total_tensor_size_bytes properties.packed properties.padded
  properties.broadcast properties.overlapping diagnostics'

# _dmltensor_options COMMAND: the options COMMAND takes.
_dmltensor_options()
{
    local tensor='--dtype --rank --sizes'
    local layout='--broadcast --layout --order --pad --row-pitch-align --strides'
    case $1 in
    size)
        echo "$tensor $layout --total-size --field --format --name --help" ;;
    offset)
        echo "$tensor $layout --base-offset --coord --format --help" ;;
    locate)
        echo "$tensor $layout --base-offset --total-size --byte-offset --limit --offset" \
            "--format --help" ;;
    map)
        echo "$tensor $layout --base-offset --total-size --color --format --limit --view" \
            "--width --help" ;;
    validate)
        echo "$tensor $layout --alignment --base-offset --binding-size --buffer-size --flags" \
            "--total-size --format --name --help" ;;
    view)
        echo "$tensor $layout --alignment --base-offset --buffer-size --total-size" \
            "--broadcast-to --permute --reshape --select --slice --split --format --help" ;;
    batch)
        echo '--progress --help' ;;
    scan)
        echo '--dim --layout --rank --help' ;;
    dtypes)
        echo '--format --help' ;;
    layouts)
        echo '--rank --format --help' ;;
    '')
        echo '-h --help --version' ;;
    esac
}

# _dmltensor_values COMMAND OPTION: the values to offer for OPTION.
_dmltensor_values()
{
    case $2 in
    --dtype) echo "$_dmltensor_dtypes" ;;
    --layout) echo "$_dmltensor_layouts" ;;
    --field) echo "$_dmltensor_fields" ;;
    --flags) echo 'none owned_by_dml' ;;
    --rank) echo '1 2 3 4 5 6 7 8' ;;
    --color) echo 'auto always never' ;;
    --view) echo 'memory grid' ;;
    --format)
        case $1 in
        size) echo 'text json env c' ;;
        validate) echo 'text json c' ;;
        map) echo 'text csv jsonl json' ;;
        *) echo 'text json' ;;
        esac
        ;;
    esac
}

_dmltensor()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev='' prefix='' cmd='' i
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()

    # --opt=value: bash splits it into --opt, = and value (COMP_WORDBREAKS
    # has '='); without that split, the value keeps the --opt= prefix.
    if [[ $cur == = ]]; then
        cur=''
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    elif [[ $cur == --*=* ]]; then
        prev=${cur%%=*} prefix=${cur%%=*}= cur=${cur#*=}
    fi

    # The command: the first word that is not an option.
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
        -*) ;;
        *) cmd=${COMP_WORDS[i]} && break ;;
        esac
    done

    local IFS=$' \t\n'
    if [[ $prev == -* && -n $cmd && " $_dmltensor_flags " != *" $prev "* ]]; then
        # The value of an option.
        if [[ " $_dmltensor_file_options " == *" $prev "* ]]; then
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        else
            mapfile -t COMPREPLY < <(compgen -W "$(_dmltensor_values "$cmd" "$prev")" -- "$cur")
        fi
        if [[ -n $prefix ]]; then
            COMPREPLY=("${COMPREPLY[@]/#/$prefix}")
        fi
    elif [[ -n $cmd && $cur != -* && " $_dmltensor_file_commands " == *" $cmd "* ]]; then
        # A file argument (- is stdin).
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    elif [[ $cur == -* || -n $cmd ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_dmltensor_options "$cmd")" -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -W "$_dmltensor_commands" -- "$cur")
    fi
}

complete -F _dmltensor dmltensor
