/* options.c - the option table and the format names, from which the
 * parser (command_line.c), --help (help.c), the man page and the docs all
 * read: they cannot disagree about an option. Below the commands: it knows
 * a command only by the entry it is handed. */
#include "cli.h"
#include "options.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Every command whose entry says it describes a tensor (struct command's
 * tensor): a bit no command id has. */
#define TENSOR_CMDS (1u << 31)
_Static_assert(CMD_COUNT <= 31, "command ids below TENSOR_CMDS' bit");
#define ALL_CMDS (~0u) /* every command, a new one too */

/* Where an option's value lands: its kind and place in struct cli_config. */
#define CFG(field)       offsetof(struct cli_config, field)
#define FLAG(field)      OPT_FLAG, CFG(field), 0, VOP_SLICE
#define VALUE(field)     OPT_VALUE, CFG(field), 0, VOP_SLICE
#define REPEAT(arr, n)   OPT_REPEAT, CFG(arr), CFG(n), VOP_SLICE
#define REPEAT_ANY(p, n) OPT_REPEAT_ANY, CFG(p), CFG(n), VOP_SLICE
#define OPERATION(kind)  OPT_OPERATION, CFG(op_text), CFG(n_ops), kind

/* The numbers a value holds (enum opt_number), each lo..hi, after an
 * entry's keys. */
#define U32                   UINT32_MAX
#define U64                   UINT64_MAX
#define NUMBER(lo, hi)        OPT_NUM_ONE, lo, hi
#define NUMBERS(lo, hi)       OPT_NUM_LIST, lo, hi
#define NAMED(lo, hi)         OPT_NUM_NAMED, lo, hi
#define NAMED_NUMBERS(lo, hi) OPT_NUM_NAMED_LIST, lo, hi
#define NOT_A_NUMBER          OPT_NUM_NONE, 0, 0

/* In help order within each group (help lists them by group). A name may have
 * one entry per set of commands, so that each help says what it does there. */
static const struct opt_def options[] = {
    {"--alignment", "BYTES", VALUE(t.alignment), GROUP_BUFFER, CMD_BIT(CMD_VALIDATE),
     "GuaranteedBaseOffsetAlignment: 0 (none, the default) or a power of two",
     "guaranteed_base_offset_alignment", "GuaranteedBaseOffsetAlignment", NUMBER(0, U32)},
    {"--base-offset", "BYTES", VALUE(t.base_offset), GROUP_BUFFER,
     CMD_BIT(CMD_OFFSET) | CMD_BIT(CMD_LOCATE) | CMD_BIT(CMD_VALIDATE) | CMD_BIT(CMD_MAP),
     "offset of the buffer range in its resource (default 0); byte offsets include it",
     "base_offset_bytes", NULL, NUMBER(0, U64)},
    {"--binding-size", "BYTES", VALUE(t.binding_size), GROUP_BUFFER, CMD_BIT(CMD_VALIDATE),
     "the binding's SizeInBytes (DML_BUFFER_BINDING): at least TotalTensorSizeInBytes",
     "binding_size_bytes", NULL, NUMBER(0, U64)},
    {"--broadcast", "DIMS", REPEAT(t.broadcast, t.n_broadcast), GROUP_LAYOUT, TENSOR_CMDS,
     "broadcast these dims: stride 0 (letters or indices: c, hw, 0,2)", "broadcast", NULL,
     OPT_NUM_DIMS, 0, 0},
    {"--buffer-size", "BYTES", VALUE(t.buffer_size), GROUP_BUFFER, CMD_BIT(CMD_VALIDATE),
     "size of the whole buffer the range is bound in: Offset + SizeInBytes must fit",
     "buffer_size_bytes", NULL, NUMBER(0, U64)},
    {"--byte-offset", "B", VALUE(byte_offset), GROUP_QUERY, CMD_BIT(CMD_LOCATE),
     "find the elements holding byte B (counted like offset's byte offsets)", NULL, NULL,
     NUMBER(0, U64)},
    {"--color", "WHEN", VALUE(color), GROUP_OUTPUT, CMD_BIT(CMD_MAP),
     "colour a view: auto (default: only on a terminal, never with NO_COLOR set), always "
     "or never",
     NULL, NULL, NOT_A_NUMBER},
    {"--coord", "LIST", REPEAT_ANY(coords, n_coords), GROUP_QUERY, CMD_BIT(CMD_OFFSET),
     "a coordinate in logical order, like 0,1,2,3; repeat for several", NULL, NULL,
     NUMBERS(0, U32)},
    {"--dtype", "TYPE", VALUE(t.dtype), GROUP_TENSOR, TENSOR_CMDS,
     "data type (default float32): float32 float16 float64 int8..int64 uint8..uint64 int4 "
     "uint4, or DML_TENSOR_DATA_TYPE_* names",
     "dtype", "DataType", NOT_A_NUMBER},
    {"--feature-level", "X_Y", VALUE(feature_level), GROUP_QUERY, CMD_BIT(CMD_VALIDATE),
     "with --operator: the DML_FEATURE_LEVEL to check at, like 5_1 (default: the newest the "
     "tables hold)",
     NULL, NULL, NOT_A_NUMBER},
    {"--field", "NAME", VALUE(field), GROUP_OUTPUT, CMD_BIT(CMD_SIZE),
     "print only this value (a JSON key, e.g. minimum_implied_size_bytes)", NULL, NULL,
     NOT_A_NUMBER},
    {"--flags", "FLAGS", VALUE(t.flags), GROUP_BUFFER, CMD_BIT(CMD_VALIDATE),
     "DML_TENSOR_FLAGS: none (default), owned_by_dml, or a number", "flags", "Flags",
     NUMBER(0, U32)},
    /* Its help and the formats it checks are each command's (struct command's
     * formats and format_help). */
    {"--format", "FMT", VALUE(format_text), GROUP_OUTPUT, ALL_CMDS, NULL, NULL, NULL, NOT_A_NUMBER},
    {"--help", NULL, FLAG(help), GROUP_OTHER, ALL_CMDS, "show this help", NULL, NULL, NOT_A_NUMBER},
    {"--layout", "NAME", VALUE(t.layout), GROUP_LAYOUT, TENSOR_CMDS,
     "memory order, outermost first: nchw nhwc ncdhw ndhwc, any permutation of the rank's "
     "letters, row-major (default), col-major, or indices 0,2,3,1",
     "layout", NULL, NOT_A_NUMBER},
    {"--limit", "N", VALUE(limit), GROUP_QUERY, CMD_BIT(CMD_LOCATE),
     "list at most N coordinates (default: all of them)", NULL, NULL, NUMBER(1, U64)},
    {"--limit", "N", VALUE(limit), GROUP_OUTPUT, CMD_BIT(CMD_MAP),
     "list at most N elements (default: all); a view draws at most N cells (default 256, at most "
     "100000)",
     NULL, NULL, NUMBER(1, U64)},
    {"--name", "NAME", VALUE(c_name), GROUP_OUTPUT, CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_VALIDATE),
     "with --format c: prefix of the variables (default tensor: tensorSizes, tensorStrides, "
     "tensorBufferDesc, tensorDesc, tensorBinding, tensorBindingDesc)",
     NULL, NULL, NOT_A_NUMBER},
    {"--name", "NAME", VALUE(c_name), GROUP_OUTPUT, CMD_BIT(CMD_VIEW),
     "with --format c: prefix of the variables (default view: viewSizes, viewBufferDesc, "
     "viewBinding, ...; with --split, view0, view1, ... for the parts)",
     NULL, NULL, NOT_A_NUMBER},
    {"--offset", "K", VALUE(offset), GROUP_QUERY, CMD_BIT(CMD_LOCATE),
     "find the coordinates at element offset K", NULL, NULL, NUMBER(0, U64)},
    {"--operator", "NAME", VALUE(dml_operator), GROUP_QUERY, CMD_BIT(CMD_VALIDATE),
     "also check the tensor against this DirectML operator's tensor support (DML_OPERATOR_GEMM "
     "or GEMM; REDUCE:SUM for a reduce function); needs --tensor",
     NULL, NULL, NOT_A_NUMBER},
    {"--order", "LIST", VALUE(t.order), GROUP_LAYOUT, TENSOR_CMDS,
     "memory order by dimension index, outermost first (any rank): 0,2,3,1", "order", NULL,
     NOT_A_NUMBER},
    {"--pad", "DIM=N,..", REPEAT(t.pad, t.n_pad), GROUP_LAYOUT, TENSOR_CMDS,
     "N unused elements after each run along DIM (w=2 on a width-3 row: row stride 5)", "pad", NULL,
     NAMED(0, U32)},
    {"--progress", NULL, FLAG(progress), GROUP_OUTPUT, CMD_BIT(CMD_BATCH),
     "show records and records/s on stderr (on by default when stderr is a terminal and the "
     "run takes over a second)",
     NULL, NULL, NOT_A_NUMBER},
    {"--rank", "R", VALUE(t.rank), GROUP_TENSOR, TENSOR_CMDS,
     "add leading size-1 dims up to rank R (3,5 with --rank 4 is 1,1,3,5)", "rank", NULL,
     NUMBER(1, 8)},
    {"--rank", "R", VALUE(t.rank), GROUP_QUERY, CMD_BIT(CMD_LAYOUTS),
     "list every layout name of rank R", NULL, NULL, NUMBER(1, 8)},
    {"--row-pitch-align", "BYTES", VALUE(t.row_pitch_align), GROUP_LAYOUT, TENSOR_CMDS,
     "start each row on a BYTES boundary (e.g. 256 for D3D12 texture copies)", "row_pitch_align",
     NULL, NUMBER(1, U32)},
    {"--sizes", "LIST", VALUE(t.sizes), GROUP_TENSOR, TENSOR_CMDS,
     "sizes in logical order (NCHW for rank 4), each 1..4294967295 (required)", "sizes", "Sizes",
     NUMBERS(1, U32)},
    {"--strides", "LIST", VALUE(t.strides), GROUP_LAYOUT, TENSOR_CMDS,
     "explicit element strides in logical order, each 0..4294967295", "strides", "Strides",
     NUMBERS(0, U32)},
    {"--tensor", "NAME", VALUE(dml_tensor), GROUP_QUERY, CMD_BIT(CMD_VALIDATE),
     "with --operator: the operator desc's tensor field the descriptor is for (ATensor, "
     "InputTensor, OutputTensor...)",
     NULL, NULL, NOT_A_NUMBER},
    {"--total-size", "BYTES", VALUE(t.total_size), GROUP_BUFFER,
     CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_LOCATE) | CMD_BIT(CMD_VALIDATE) | CMD_BIT(CMD_MAP),
     "TotalTensorSizeInBytes (default: the minimum implied size)", "total_tensor_size_bytes",
     "TotalTensorSizeInBytes", NUMBER(0, U64)},
    {"--view", "VIEW", VALUE(view), GROUP_OUTPUT, CMD_BIT(CMD_MAP),
     "draw instead of listing: memory (the buffer cell by cell, as DirectML's docs draw it) or "
     "grid (each 2-D slice with the offset in each cell)",
     NULL, NULL, NOT_A_NUMBER},
    {"--width", "COLUMNS", VALUE(width), GROUP_OUTPUT, CMD_BIT(CMD_MAP),
     "wrap a view to this many columns (default: $COLUMNS, else the terminal's width, else 80)",
     NULL, NULL, NUMBER(20, 100000)},
    /* view: the parent's binding and the operations, sorted by name */
    {"--alignment", "BYTES", VALUE(t.alignment), GROUP_BUFFER, CMD_BIT(CMD_VIEW),
     "the parent's GuaranteedBaseOffsetAlignment (default 16: a bound tensor is always 16-byte "
     "aligned); a view's is the largest power of two dividing its offset, at most this",
     NULL, NULL, NUMBER(0, U32)},
    {"--base-offset", "BYTES", VALUE(t.base_offset), GROUP_BUFFER, CMD_BIT(CMD_VIEW),
     "where the parent is bound in its buffer (its DML_BUFFER_BINDING Offset; default 0)", NULL,
     NULL, NUMBER(0, U64)},
    {"--broadcast-to", "SIZES", OPERATION(VOP_BROADCAST_TO), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "NumPy's broadcast_to: dims aligned on the right, a size-1 dim grows with stride 0, new "
     "leading dims get stride 0",
     NULL, NULL, NUMBERS(1, U32)},
    {"--buffer-size", "BYTES", VALUE(t.buffer_size), GROUP_BUFFER, CMD_BIT(CMD_VIEW),
     "size of the whole buffer (default: base offset + the parent's total size); each view's "
     "range must fit in it",
     NULL, NULL, NUMBER(0, U64)},
    {"--permute", "ORDER", OPERATION(VOP_PERMUTE), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "new dim order, as NumPy's transpose: dim i of the result is dim ORDER[i] (indices 1,0,2 "
     "or the current rank's letters: nhwc)",
     NULL, NULL, NOT_A_NUMBER},
    {"--reshape", "SIZES", OPERATION(VOP_RESHAPE), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "new sizes, one of them may be -1; only without a copy (NumPy's rule), else exit 1 "
     "naming the dims that cannot be merged",
     NULL, NULL, OPT_NUM_SIGNED_LIST, 1, U32},
    {"--select", "DIM=INDEX", OPERATION(VOP_SELECT), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "take one index of DIM and drop the dim (negative counts from the end)", NULL, NULL,
     OPT_NUM_NAMED_SIGNED, 0, 0},
    {"--slice", "DIM=START:STOP[:STEP]", OPERATION(VOP_SLICE), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "keep part of DIM, with Python's rules (omitted: the whole dim, negative: from the end); "
     "STEP >= 1",
     NULL, NULL, NOT_A_NUMBER},
    {"--split", "DIM=N|DIM=A+B+..", OPERATION(VOP_SPLIT), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "several views: DIM cut into N equal parts, or into parts of sizes A, B, ...", NULL, NULL,
     NAMED(1, 4096)},
    {"--total-size", "BYTES", VALUE(t.total_size), GROUP_BUFFER, CMD_BIT(CMD_VIEW),
     "the parent's TotalTensorSizeInBytes (default: its minimum implied size)", NULL, NULL,
     NUMBER(0, U64)},
    /* plan, sorted by name */
    {"--alignment", "BYTES", VALUE(t.alignment), GROUP_BUFFER, CMD_BIT(CMD_PLAN),
     "every offset a multiple of BYTES: a power of two, at least 16 (DirectML's minimum); "
     "default 256",
     NULL, NULL, NUMBER(16, U64)},
    {"--name", "NAME", VALUE(c_name), GROUP_OUTPUT, CMD_BIT(CMD_PLAN),
     "with --format c: prefix of the variables (default plan: planTensors, planArenaBytes, "
     "planTensorCount)",
     NULL, NULL, NOT_A_NUMBER},
    {"--top", "N", VALUE(top), GROUP_OUTPUT, CMD_BIT(CMD_SCAN) | CMD_BIT(CMD_PLAN),
     "only the N largest tensors by bytes, largest first, in every format (scan: of each ONNX "
     "model; the summary still counts them all)",
     NULL, NULL, NUMBER(1, U64)},
    {"--checks", "WHICH", VALUE(checks), GROUP_OUTPUT, CMD_BIT(CMD_SCAN),
     "which of validate's checks each record lists: all (default), failed (those that fail) or "
     "none",
     NULL, NULL, NOT_A_NUMBER},
    /* scan: ONNX models, sorted by name */
    {"--dim", "NAME=VALUE", REPEAT_ANY(dims, n_dims), GROUP_TENSOR,
     CMD_BIT(CMD_SCAN) | CMD_BIT(CMD_PLAN) | CMD_BIT(CMD_NODES),
     "ONNX models: bind the symbolic dim NAME to VALUE (1..4294967295) in every tensor; repeat "
     "for each symbol, any number of times (--dim batch=8)",
     NULL, NULL, NAMED(1, U32)},
    {"--device", "DEV", VALUE(device), GROUP_TENSOR, CMD_BIT(CMD_PLAN),
     "ONNX models: dml plans only the tensors in DirectML memory (outputs of nodes on "
     "DirectML, as nodes places them); the CPU's and the copies are counted",
     NULL, NULL, NOT_A_NUMBER},
    {"--io", NULL, FLAG(plan_io), GROUP_TENSOR, CMD_BIT(CMD_PLAN),
     "ONNX models: the main graph's inputs (alive from step 0) and outputs (alive to the last "
     "step) are placed too",
     NULL, NULL, NOT_A_NUMBER},
    {"--skip-unknown", NULL, FLAG(skip_unknown), GROUP_TENSOR, CMD_BIT(CMD_PLAN),
     "ONNX models: leave out a tensor whose size is unknown instead of stopping (exit 2)", NULL,
     NULL, NOT_A_NUMBER},
    {"--no-infer", NULL, FLAG(no_infer), GROUP_TENSOR, CMD_BIT(CMD_SCAN),
     "ONNX models: only the values the model declares, no shape inference (no activation records; "
     "a declared value keeps its own shape)",
     NULL, NULL, NOT_A_NUMBER},
    {"--shape", "NAME=D1,D2,..", REPEAT_ANY(shapes, n_shapes), GROUP_TENSOR,
     CMD_BIT(CMD_SCAN) | CMD_BIT(CMD_PLAN) | CMD_BIT(CMD_NODES),
     "ONNX models: the whole shape of the main graph's value NAME (an input, say), anonymous dims "
     "too (--shape state=2,1,128); repeat for each value",
     NULL, NULL, NAMED_NUMBERS(1, U32)},
    {"--feature-level", "X_Y", VALUE(feature_level), GROUP_TENSOR,
     CMD_BIT(CMD_NODES) | CMD_BIT(CMD_SCAN) | CMD_BIT(CMD_PLAN),
     "ONNX models: DirectML feature level whose operator tensor rules decide each node's "
     "placement (5_1, 6.4 or DML_FEATURE_LEVEL_6_4; default: the newest the tables hold)",
     NULL, NULL, NOT_A_NUMBER},
    {"--require", "WHAT", VALUE(require), GROUP_OUTPUT, CMD_BIT(CMD_NODES),
     "dml: exit status 1 unless every node is folded or in a fused DirectML graph (graph "
     "capture needs that)",
     NULL, NULL, NOT_A_NUMBER},
    {"--strict", NULL, FLAG(strict), GROUP_OUTPUT, CMD_BIT(CMD_SCAN),
     "ONNX models: exit status 1 for a tensor whose size is unknown too (an unbound or unknown "
     "dim, no shape, no type), not only for a definite DirectML problem",
     NULL, NULL, NOT_A_NUMBER},
    {"--layout", "NAME", VALUE(t.layout), GROUP_TENSOR, CMD_BIT(CMD_SCAN),
     "ONNX models: strides of this memory order (nhwc, col-major, ...) for each tensor of a rank "
     "it fits; the others keep row-major, with a note",
     NULL, NULL, NOT_A_NUMBER},
    {"--rank", "R", VALUE(t.rank), GROUP_TENSOR, CMD_BIT(CMD_SCAN),
     "ONNX models: add leading size-1 dims to each tensor up to rank R (a larger rank is left "
     "as it is, with a note)",
     NULL, NULL, NUMBER(1, 8)},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

static const char *const group_titles[] = {
    [GROUP_TENSOR] = "Tensor",
    [GROUP_LAYOUT] = "Layout (give --strides, or --layout/--order with modifiers)",
    [GROUP_BUFFER] = "Buffer",
    [GROUP_QUERY] = "Query",
    [GROUP_OPERATIONS] = "Operations (in order; DIM: a letter of the current rank or an index)",
    [GROUP_OUTPUT] = "Output",
    [GROUP_OTHER] = "Other",
};
_Static_assert(sizeof group_titles / sizeof group_titles[0] == GROUP_OTHER + 1,
               "a title for every option group");

size_t cli_options(const struct opt_def **table)
{
    *table = options;
    return N_OPTIONS;
}

const char *cli_option_group_title(enum opt_group group)
{
    return group_titles[group];
}

bool cli_option_of(const struct opt_def *o, const struct command *cmd)
{
    const bool mine =
        (o->commands & CMD_BIT(cmd->id)) != 0 || ((o->commands & TENSOR_CMDS) != 0 && cmd->tensor);
    return mine && (o->help || cmd->format_help);
}

const char *cli_option_help(const struct opt_def *o, const struct command *cmd)
{
    return o->help ? o->help : cmd->format_help;
}

/* The entry for `name` that belongs to cmd, else any entry of that name. */
const struct opt_def *cli_find_option(const char *name, size_t len, const struct command *cmd)
{
    const struct opt_def *any = NULL;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        if (strlen(options[i].name) != len || memcmp(options[i].name, name, len) != 0)
            continue;
        if (cli_option_of(&options[i], cmd))
            return &options[i];
        any = &options[i];
    }
    return any;
}

/* The formats, in the order a hint lists them; each command says which it
 * prints (struct command's formats). */
static const struct {
    const char *name;
    enum format fmt;
} formats[] = {
    {"text", FMT_TEXT},   {"json", FMT_JSON}, {"env", FMT_ENV}, {"csv", FMT_CSV},
    {"jsonl", FMT_JSONL}, {"c", FMT_C},       {"svg", FMT_SVG},
};

const char *cli_format_name(enum format fmt)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].fmt == fmt)
            return formats[i].name;
    return NULL;
}

bool cli_format_parse(struct cli_config *cfg, unsigned prints, struct cli_error *e)
{
    const char *names[sizeof formats / sizeof formats[0]];
    size_t n = 0;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if ((prints & FMT_BIT(formats[i].fmt)) == 0)
            continue;
        if (strcmp(cfg->format_text, formats[i].name) == 0) {
            cfg->format = formats[i].fmt;
            return true;
        }
        names[n++] = formats[i].name;
    }
    char list[64] = "";
    size_t used = 0;
    for (size_t i = 0; i < n && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s",
                         i == 0       ? ""
                         : i + 1 == n ? " or "
                                      : ", ",
                         names[i]);
        used += w > 0 ? (size_t)w : 0;
    }
    cli_fail(e, CLI_E_BAD_FORMAT, "--format", cfg->format_text, "not a format of %s",
             cfg->cmd_name);
    cli_hint(e, "%s prints %s", cfg->cmd_name, list);
    return false;
}
