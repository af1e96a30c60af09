# fish completion for dmltensor(1). Installed as
# share/fish/vendor_completions.d/dmltensor.fish.
#
# Adding a command or an option (do the same in dmltensor.bash and
# _dmltensor for zsh; the ctest cli/completions fails until all three agree
# with `dmltensor --help` and every `dmltensor COMMAND --help`):
#   - a command: add it to $__dmltensor_commands, with a `complete ... -a`
#     line for its summary, and add it to the command lists of the options
#     it takes (or give it options of its own) below;
#   - an option: __dmltensor_opt 'COMMANDS' --NAME 'help' [VALUES]: it takes
#     a value unless VALUES is -, with VALUES offered; a file: use `complete`
#     directly with -r -F;
#   - a command that takes file arguments: add it to the -F line below.

set -g __dmltensor_commands size offset locate map validate view batch scan dtypes layouts
set -l tensor_cmds size offset locate map validate view

# `dmltensor dtypes`
set -l dtypes float32 float16 uint32 uint16 uint8 int32 int16 int8 float64 uint64 int64 uint4 int4
# `dmltensor layouts`: named layouts of ranks 1-5, and those of any rank.
set -l layouts w hw wh dhw whd nchw nhwc ncdhw ndhwc row-major col-major
# `dmltensor size --field`: the JSON keys of `size --format json`.
set -l fields dtype dml_data_type dml_data_type_value element_size_bits rank sizes layout \
    strides byte_strides broadcast element_count index_of_last_element packed_size_bytes \
    minimum_implied_size_bytes padded_size_bytes total_tensor_size_bytes properties.packed \
    properties.padded properties.broadcast properties.overlapping diagnostics

complete -c dmltensor -f

# Commands, before there is one.
set -l no_cmd "not __fish_seen_subcommand_from $__dmltensor_commands"
complete -c dmltensor -n $no_cmd -a size -d 'strides, buffer sizes and properties of a tensor'
complete -c dmltensor -n $no_cmd -a offset -d 'element and byte offset of coordinates'
complete -c dmltensor -n $no_cmd -a locate -d 'every coordinate at an element or byte offset'
complete -c dmltensor -n $no_cmd -a map -d "every element's offsets, streamed; or a picture of the buffer"
complete -c dmltensor -n $no_cmd -a validate -d "check a whole DML_BUFFER_TENSOR_DESC against DirectML's rules"
complete -c dmltensor -n $no_cmd -a view -d 'slice, select, permute, broadcast, reshape or split a bound tensor'
complete -c dmltensor -n $no_cmd -a batch -d 'many descriptors as JSON Lines or an array: a JSON result each'
complete -c dmltensor -n $no_cmd -a scan -d 'find and validate every tensor of a JSON document or an ONNX model'
complete -c dmltensor -n $no_cmd -a dtypes -d 'the data types, their enum values and sizes'
complete -c dmltensor -n $no_cmd -a layouts -d 'the layout names of each rank'
complete -c dmltensor -n $no_cmd -s h -l help -d 'show help (dmltensor COMMAND --help for a command)'
complete -c dmltensor -n $no_cmd -l version -d 'show the version and build details'

# __dmltensor_opt 'CMD...' --NAME HELP [VALUE...]: --NAME for these
# commands. Without values it takes a value but offers none; with the single
# value - it takes no value.
function __dmltensor_opt
    set -l cond "__fish_seen_subcommand_from $argv[1]"
    set argv[2] (string replace -r -- '^--' '' $argv[2])
    if test (count $argv) -lt 4
        complete -c dmltensor -n $cond -l $argv[2] -d $argv[3] -x
    else if test "$argv[4]" = -
        complete -c dmltensor -n $cond -l $argv[2] -d $argv[3]
    else
        complete -c dmltensor -n $cond -l $argv[2] -d $argv[3] -x -a "$argv[4..-1]"
    end
end

# Tensor
__dmltensor_opt "$tensor_cmds" --dtype 'data type (default float32)' $dtypes
__dmltensor_opt "$tensor_cmds" --rank 'add leading size-1 dims up to rank R' 1 2 3 4 5 6 7 8
__dmltensor_opt "$tensor_cmds" --sizes 'sizes in logical order (NCHW for rank 4)'
# Layout
__dmltensor_opt "$tensor_cmds" --broadcast 'broadcast these dims: stride 0'
__dmltensor_opt "$tensor_cmds" --layout 'memory order, outermost first' $layouts
__dmltensor_opt "$tensor_cmds" --order 'memory order by dimension index, outermost first'
__dmltensor_opt "$tensor_cmds" --pad 'N unused elements after each run along DIM (DIM=N,..)'
__dmltensor_opt "$tensor_cmds" --row-pitch-align 'start each row on a BYTES boundary'
__dmltensor_opt "$tensor_cmds" --strides 'explicit element strides in logical order'
# Buffer
__dmltensor_opt validate --alignment 'GuaranteedBaseOffsetAlignment: 0 or a power of two'
__dmltensor_opt 'offset locate map validate' --base-offset 'offset of the buffer range in its resource'
__dmltensor_opt validate --binding-size "the binding's SizeInBytes (DML_BUFFER_BINDING)"
__dmltensor_opt validate --buffer-size 'size of the whole buffer the range is bound in'
__dmltensor_opt validate --flags DML_TENSOR_FLAGS none owned_by_dml
__dmltensor_opt 'size locate map validate' --total-size TotalTensorSizeInBytes
# Query
__dmltensor_opt locate --byte-offset 'find the elements holding byte B'
__dmltensor_opt offset --coord 'a coordinate in logical order; repeat for several'
__dmltensor_opt locate --limit 'list at most N coordinates'
__dmltensor_opt map --limit 'list at most N elements; a view draws at most N cells'
__dmltensor_opt locate --offset 'find the coordinates at element offset K'
__dmltensor_opt layouts --rank 'list every layout name of rank R' 1 2 3 4 5 6 7 8
# Output
__dmltensor_opt size --field 'print only this value (a JSON key)' $fields
__dmltensor_opt size --format 'output format' text json env c
__dmltensor_opt validate --format 'output format' text json c
__dmltensor_opt map --format 'output format' text csv jsonl json
__dmltensor_opt 'offset locate dtypes layouts' --format 'output format' text json
__dmltensor_opt 'size validate' --name 'with --format c: prefix of the variables'
__dmltensor_opt map --color 'colour a view' auto always never
__dmltensor_opt map --view 'draw instead of listing' memory grid
__dmltensor_opt map --width 'wrap a view to this many columns'
__dmltensor_opt batch --progress 'show records and records/s on stderr' -
# view: the parent's binding, and the operations
__dmltensor_opt view --alignment "the parent's GuaranteedBaseOffsetAlignment"
__dmltensor_opt view --base-offset 'where the parent is bound in its buffer'
__dmltensor_opt view --buffer-size 'size of the whole buffer'
__dmltensor_opt view --total-size "the parent's TotalTensorSizeInBytes"
__dmltensor_opt view --broadcast-to 'NumPy broadcast_to: new sizes'
__dmltensor_opt view --permute 'new dim order (transpose): 1,0,2 or letters'
__dmltensor_opt view --reshape 'new sizes, one may be -1 (no copy)'
__dmltensor_opt view --select 'take one index of DIM and drop the dim (DIM=INDEX)'
__dmltensor_opt view --slice 'keep part of DIM (DIM=START:STOP[:STEP])'
__dmltensor_opt view --split 'several views: DIM=N equal parts or DIM=A+B+..'
__dmltensor_opt view --format 'output format' text json
# scan: ONNX models
__dmltensor_opt scan --dim 'bind a symbolic dim of an ONNX model (NAME=VALUE)'
__dmltensor_opt scan --rank 'pad each tensor with leading 1s up to rank R' 1 2 3 4 5 6 7 8
__dmltensor_opt scan --layout 'memory order for each tensor of a rank it fits' $layouts
# Other
__dmltensor_opt "$__dmltensor_commands" --help 'show this help' -

# File arguments (- is stdin).
complete -c dmltensor -n '__fish_seen_subcommand_from batch scan' -F
