# bash completion for dmltensor(1)                         -*- shell-script -*-
# Installed as share/bash-completion/completions/dmltensor; to try it
# without installing: source src/completions/dmltensor.bash
#
# The commands, their options and the values offered are written by
# tools/gen_docs.py from the command and option tables (src/cli/cmd_*.c,
# src/cli/options.c; values the tables do not hold are listed in the
# script): change those, then `cmake --build build --target regen-docs`.
# ctest docs/generated fails while this file is stale; ctest
# cli/completions completes command lines in bash, zsh and fish and checks
# what is offered against `dmltensor --help` and every `COMMAND --help`.

# Options whose value is a path (none yet: such an option would need its
# values completed as files).
_dmltensor_file_options=''

# generated: data (tools/gen_docs.py from the tables; edit those, not this)
_dmltensor_commands='size offset locate map validate view batch scan plan nodes dtypes layouts'

# Options that take no value; every other option takes one.
_dmltensor_flags='-h --help --version --progress --io --skip-unknown --no-infer --strict'
# Commands whose arguments (other than options) are files.
_dmltensor_file_commands='batch scan plan nodes'

# _dmltensor_options COMMAND: the options COMMAND takes, as its --help
# lists them.
_dmltensor_options()
{
    case $1 in
    size)
        echo '--dtype --rank --sizes --broadcast --layout --order --pad --row-pitch-align' \
             '--strides --total-size --field --format --name --help' ;;
    offset)
        echo '--dtype --rank --sizes --broadcast --layout --order --pad --row-pitch-align' \
             '--strides --base-offset --coord --format --help' ;;
    locate)
        echo '--dtype --rank --sizes --broadcast --layout --order --pad --row-pitch-align' \
             '--strides --base-offset --total-size --byte-offset --limit --offset --format' \
             '--help' ;;
    map)
        echo '--dtype --rank --sizes --broadcast --layout --order --pad --row-pitch-align' \
             '--strides --base-offset --total-size --color --format --limit --view --width' \
             '--help' ;;
    validate)
        echo '--dtype --rank --sizes --broadcast --layout --order --pad --row-pitch-align' \
             '--strides --alignment --base-offset --binding-size --buffer-size --flags' \
             '--total-size --feature-level --operator --tensor --format --name --help' ;;
    view)
        echo '--dtype --rank --sizes --broadcast --layout --order --pad --row-pitch-align' \
             '--strides --alignment --base-offset --buffer-size --total-size --broadcast-to' \
             '--permute --reshape --select --slice --split --format --name --help' ;;
    batch)
        echo '--progress --help' ;;
    scan)
        echo '--dim --no-infer --shape --feature-level --layout --rank --format --top --checks' \
             '--strict --help' ;;
    plan)
        echo '--dim --device --io --skip-unknown --shape --feature-level --alignment --format' \
             '--name --top --help' ;;
    nodes)
        echo '--dim --shape --feature-level --format --require --help' ;;
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
    --color) echo 'auto always never' ;;
    --dtype) echo 'float32 float16 uint32 uint16 uint8 int32 int16 int8 float64 uint64 int64' \
                  'uint4 int4' ;;
    --field) echo 'dtype dml_data_type dml_data_type_value element_size_bits rank sizes layout' \
                  'strides byte_strides broadcast element_count index_of_last_element' \
                  'packed_size_bytes minimum_implied_size_bytes padded_size_bytes' \
                  'total_tensor_size_bytes properties.packed properties.padded' \
                  'properties.broadcast properties.overlapping valid diagnostics' ;;
    --flags) echo 'none owned_by_dml' ;;
    --format)
        case $1 in
        size) echo 'text json env c' ;;
        offset | locate | dtypes | layouts) echo 'text json' ;;
        map | nodes) echo 'text json csv jsonl' ;;
        validate | view) echo 'text json c' ;;
        scan) echo 'text json jsonl' ;;
        plan) echo 'text json jsonl c svg' ;;
        esac
        ;;
    --layout) echo 'w hw wh dhw whd nchw nhwc ncdhw ndhwc row-major col-major' ;;
    --rank) echo '1 2 3 4 5 6 7 8' ;;
    --view) echo 'memory grid' ;;
    --checks) echo 'all failed none' ;;
    --device) echo 'dml' ;;
    --require) echo 'dml' ;;
    esac
}
# end generated: data

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
