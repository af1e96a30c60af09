# fish completion for dmltensor(1). Installed as
# share/fish/vendor_completions.d/dmltensor.fish.
#
# The commands, their options and the values offered are written by
# tools/gen_docs.py from the command and option tables (src/cli/cmd_*.c,
# src/cli/options.c; values the tables do not hold are listed in the
# script): change those, then `cmake --build build --target regen-docs`.
# ctest docs/generated fails while this file is stale.

complete -c dmltensor -f

# generated: data (tools/gen_docs.py from the tables; edit those, not this)
set -g __dmltensor_commands size offset locate map validate view batch scan plan nodes dtypes layouts
set -l dtypes float32 float16 uint32 uint16 uint8 int32 int16 int8 float64 uint64 int64 uint4 int4
set -l fields dtype dml_data_type dml_data_type_value element_size_bits rank sizes layout strides \
    byte_strides broadcast element_count index_of_last_element packed_size_bytes \
    minimum_implied_size_bytes padded_size_bytes total_tensor_size_bytes properties.packed \
    properties.padded properties.broadcast properties.overlapping valid diagnostics
set -l layouts w hw wh dhw whd nchw nhwc ncdhw ndhwc row-major col-major
set -l ranks 1 2 3 4 5 6 7 8

# Commands, before there is one.
set -l no_cmd "not __fish_seen_subcommand_from $__dmltensor_commands"
complete -c dmltensor -n $no_cmd -a size -d 'strides, buffer sizes and properties of a tensor'
complete -c dmltensor -n $no_cmd -a offset -d 'element and byte offset of coordinates'
complete -c dmltensor -n $no_cmd -a locate -d 'every coordinate at an element or byte offset'
complete -c dmltensor -n $no_cmd -a map -d 'every element\'s offsets, streamed; or a picture of the buffer'
complete -c dmltensor -n $no_cmd -a validate -d 'check a whole DML_BUFFER_TENSOR_DESC against DirectML\'s rules'
complete -c dmltensor -n $no_cmd -a view -d 'slice, select, permute, broadcast, reshape or split a bound tensor'
complete -c dmltensor -n $no_cmd -a batch -d 'many descriptors as JSON Lines or an array: a JSON result each'
complete -c dmltensor -n $no_cmd -a scan -d 'find and validate every tensor of a JSON document or an ONNX model'
complete -c dmltensor -n $no_cmd -a plan -d 'one buffer for tensors that live over steps: every offset and the arena'
complete -c dmltensor -n $no_cmd -a nodes -d 'where ONNX Runtime\'s DirectML provider runs each node of a model, and why'
complete -c dmltensor -n $no_cmd -a dtypes -d 'the data types, their enum values and sizes'
complete -c dmltensor -n $no_cmd -a layouts -d 'the layout names of each rank'
complete -c dmltensor -n $no_cmd -s h -l help -d 'show this help (dmltensor COMMAND --help for a command)'
complete -c dmltensor -n $no_cmd -l version -d 'show the version and build details'
# end generated: data

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

# generated: options (tools/gen_docs.py from the tables; edit those, not this)
# Tensor
__dmltensor_opt 'size offset locate map validate view' --dtype 'data type (default float32): float32 float16 float64 int8..int64 uint8..uint64 int4 uint4, or DML_TENSOR_DATA_TYPE_* names' $dtypes
__dmltensor_opt 'size offset locate map validate view' --rank 'add leading size-1 dims up to rank R (3,5 with --rank 4 is 1,1,3,5)' $ranks
__dmltensor_opt 'size offset locate map validate view' --sizes 'sizes in logical order (NCHW for rank 4), each 1..4294967295 (required)'
__dmltensor_opt 'scan plan nodes' --dim 'ONNX models: bind the symbolic dim NAME to VALUE (1..4294967295) in every tensor; repeat for each symbol, any number of times (--dim batch=8)'
__dmltensor_opt 'plan' --device 'ONNX models: dml plans only the tensors in DirectML memory (outputs of nodes on DirectML, as nodes places them); the CPU\'s and the copies are counted' dml
__dmltensor_opt 'plan' --io 'ONNX models: the main graph\'s inputs (alive from step 0) and outputs (alive to the last step) are placed too' -
__dmltensor_opt 'plan' --skip-unknown 'ONNX models: leave out a tensor whose size is unknown instead of stopping (exit 2)' -
__dmltensor_opt 'scan' --no-infer 'ONNX models: only the values the model declares, no shape inference (no activation records; a declared value keeps its own shape)' -
__dmltensor_opt 'scan plan nodes' --shape 'ONNX models: the whole shape of the main graph\'s value NAME (an input, say), anonymous dims too (--shape state=2,1,128); repeat for each value'
__dmltensor_opt 'scan plan nodes' --feature-level 'ONNX models: DirectML feature level whose operator tensor rules decide each node\'s placement (5_1, 6.4 or DML_FEATURE_LEVEL_6_4; default: the newest the tables hold)'
__dmltensor_opt 'scan' --layout 'ONNX models: strides of this memory order (nhwc, col-major, ...) for each tensor of a rank it fits; the others keep row-major, with a note' $layouts
__dmltensor_opt 'scan' --rank 'ONNX models: add leading size-1 dims to each tensor up to rank R (a larger rank is left as it is, with a note)' $ranks
# Layout
__dmltensor_opt 'size offset locate map validate view' --broadcast 'broadcast these dims: stride 0 (letters or indices: c, hw, 0,2)'
__dmltensor_opt 'size offset locate map validate view' --layout 'memory order, outermost first: nchw nhwc ncdhw ndhwc, any permutation of the rank\'s letters, row-major (default), col-major, or indices 0,2,3,1' $layouts
__dmltensor_opt 'size offset locate map validate view' --order 'memory order by dimension index, outermost first (any rank): 0,2,3,1'
__dmltensor_opt 'size offset locate map validate view' --pad 'N unused elements after each run along DIM (w=2 on a width-3 row: row stride 5)'
__dmltensor_opt 'size offset locate map validate view' --row-pitch-align 'start each row on a BYTES boundary (e.g. 256 for D3D12 texture copies)'
__dmltensor_opt 'size offset locate map validate view' --strides 'explicit element strides in logical order, each 0..4294967295'
# Buffer
__dmltensor_opt 'validate' --alignment 'GuaranteedBaseOffsetAlignment: 0 (none, the default) or a power of two'
__dmltensor_opt 'offset locate map validate' --base-offset 'offset of the buffer range in its resource (default 0); byte offsets include it'
__dmltensor_opt 'validate' --binding-size 'the binding\'s SizeInBytes (DML_BUFFER_BINDING): at least TotalTensorSizeInBytes'
__dmltensor_opt 'validate' --buffer-size 'size of the whole buffer the range is bound in: Offset + SizeInBytes must fit'
__dmltensor_opt 'validate' --flags 'DML_TENSOR_FLAGS: none (default), owned_by_dml, or a number' none owned_by_dml
__dmltensor_opt 'size locate map validate' --total-size 'TotalTensorSizeInBytes (default: the minimum implied size)'
__dmltensor_opt 'view' --alignment 'the parent\'s GuaranteedBaseOffsetAlignment (default 16: a bound tensor is always 16-byte aligned); a view\'s is the largest power of two dividing its offset, at most this'
__dmltensor_opt 'view' --base-offset 'where the parent is bound in its buffer (its DML_BUFFER_BINDING Offset; default 0)'
__dmltensor_opt 'view' --buffer-size 'size of the whole buffer (default: base offset + the parent\'s total size); each view\'s range must fit in it'
__dmltensor_opt 'view' --total-size 'the parent\'s TotalTensorSizeInBytes (default: its minimum implied size)'
__dmltensor_opt 'plan' --alignment 'every offset a multiple of BYTES: a power of two, at least 16 (DirectML\'s minimum); default 256'
# Query
__dmltensor_opt 'locate' --byte-offset 'find the elements holding byte B (counted like offset\'s byte offsets)'
__dmltensor_opt 'offset' --coord 'a coordinate in logical order, like 0,1,2,3; repeat for several'
__dmltensor_opt 'validate' --feature-level 'with --operator: the DML_FEATURE_LEVEL to check at, like 5_1 (default: the newest the tables hold)'
__dmltensor_opt 'locate' --limit 'list at most N coordinates (default: all of them)'
__dmltensor_opt 'locate' --offset 'find the coordinates at element offset K'
__dmltensor_opt 'validate' --operator 'also check the tensor against this DirectML operator\'s tensor support (DML_OPERATOR_GEMM or GEMM; REDUCE:SUM for a reduce function); needs --tensor'
__dmltensor_opt 'layouts' --rank 'list every layout name of rank R' $ranks
__dmltensor_opt 'validate' --tensor 'with --operator: the operator desc\'s tensor field the descriptor is for (ATensor, InputTensor, OutputTensor...)'
# Operations
__dmltensor_opt 'view' --broadcast-to 'NumPy\'s broadcast_to: dims aligned on the right, a size-1 dim grows with stride 0, new leading dims get stride 0'
__dmltensor_opt 'view' --permute 'new dim order, as NumPy\'s transpose: dim i of the result is dim ORDER[i] (indices 1,0,2 or the current rank\'s letters: nhwc)'
__dmltensor_opt 'view' --reshape 'new sizes, one of them may be -1; only without a copy (NumPy\'s rule), else exit 1 naming the dims that cannot be merged'
__dmltensor_opt 'view' --select 'take one index of DIM and drop the dim (negative counts from the end)'
__dmltensor_opt 'view' --slice 'keep part of DIM, with Python\'s rules (omitted: the whole dim, negative: from the end); STEP >= 1'
__dmltensor_opt 'view' --split 'several views: DIM cut into N equal parts, or into parts of sizes A, B, ...'
# Output
__dmltensor_opt 'map' --color 'colour a view: auto (default: only on a terminal, never with NO_COLOR set), always or never' auto always never
__dmltensor_opt 'size' --field 'print only this value (a JSON key, e.g. minimum_implied_size_bytes)' $fields
__dmltensor_opt 'size' --format 'text (default), json (one line), env (KEY=value lines for eval) or c (a C snippet: the DML_BUFFER_TENSOR_DESC)' text json env c
__dmltensor_opt 'offset locate dtypes layouts' --format 'text (default) or json (one line)' text json
__dmltensor_opt 'map' --format 'text (default, aligned columns), csv (with a header row), jsonl (an object per line) or json (one array)' text json csv jsonl
__dmltensor_opt 'validate' --format 'text (default), json (one line) or c (a C snippet: the DML_BUFFER_TENSOR_DESC and, with a binding, the DML_BUFFER_BINDING; failed checks as comments)' text json c
__dmltensor_opt 'view' --format 'text (default), json (one line) or c (C snippets: each view\'s DML_BUFFER_TENSOR_DESC and DML_BUFFER_BINDING; failed checks as comments)' text json c
__dmltensor_opt 'scan' --format 'jsonl (default: a JSON object per tensor, then an ONNX model\'s summary; json is the same) or text (a table of an ONNX model\'s tensors, then its totals; JSON documents stay JSON Lines only)' text json jsonl
__dmltensor_opt 'plan' --format 'jsonl (default: a JSON object per tensor, then the summary; json the same), text (a table and the totals), svg (the picture: steps across, offsets down) or c (a C table of names, offsets and sizes, and the arena size)' text json jsonl c svg
__dmltensor_opt 'nodes' --format 'jsonl (default: a JSON object per node, then the summary; json the same), text (what to act on first: failures, CPU fallbacks and copies, then the counts) or csv (a line per node)' text json csv jsonl
__dmltensor_opt 'map' --limit 'list at most N elements (default: all); a view draws at most N cells (default 256, at most 100000)'
__dmltensor_opt 'size validate' --name 'with --format c: prefix of the variables (default tensor: tensorSizes, tensorStrides, tensorBufferDesc, tensorDesc, tensorBinding, tensorBindingDesc)'
__dmltensor_opt 'view' --name 'with --format c: prefix of the variables (default view: viewSizes, viewBufferDesc, viewBinding, ...; with --split, view0, view1, ... for the parts)'
__dmltensor_opt 'batch' --progress 'show records and records/s on stderr (on by default when stderr is a terminal and the run takes over a second)' -
__dmltensor_opt 'map' --view 'draw instead of listing: memory (the buffer cell by cell, as DirectML\'s docs draw it) or grid (each 2-D slice with the offset in each cell)' memory grid
__dmltensor_opt 'map' --width 'wrap a view to this many columns (default: $COLUMNS, else the terminal\'s width, else 80)'
__dmltensor_opt 'plan' --name 'with --format c: prefix of the variables (default plan: planTensors, planArenaBytes, planTensorCount)'
__dmltensor_opt 'scan plan' --top 'only the N largest tensors by bytes, largest first, in every format (scan: of each ONNX model; the summary still counts them all)'
__dmltensor_opt 'scan' --checks 'which of validate\'s checks each record lists: all (default), failed (those that fail) or none' all failed none
__dmltensor_opt 'nodes' --require 'dml: exit status 1 unless every node is folded or in a fused DirectML graph (graph capture needs that)' dml
__dmltensor_opt 'scan' --strict 'ONNX models: exit status 1 for a tensor whose size is unknown too (an unbound or unknown dim, no shape, no type), not only for a definite DirectML problem' -
# Other
__dmltensor_opt 'size offset locate map validate view batch scan plan nodes dtypes layouts' --help 'show this help' -

# File arguments (- is stdin).
complete -c dmltensor -n '__fish_seen_subcommand_from batch scan plan nodes' -F
# end generated: options
