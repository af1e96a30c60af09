/* options.c - the option table, argv parsing and --help, from one source:
 * help text, parser and man page cannot disagree about an option. */
#include "cli.h"
#include "options.h"
#include "parse.h"
#include "render_c.h"
#include "dmlt_version.h"

#include <stddef.h>
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

/* Sorted by name. Help lists them by group in this order. A name may have
 * one entry per set of commands, so that each help says what it does there. */
static const struct opt_def options[] = {
    {"--alignment", "BYTES", VALUE(t.alignment), GROUP_BUFFER, CMD_BIT(CMD_VALIDATE),
     "GuaranteedBaseOffsetAlignment: 0 (none, the default) or a power of two",
     "guaranteed_base_offset_alignment", "GuaranteedBaseOffsetAlignment"},
    {"--base-offset", "BYTES", VALUE(t.base_offset), GROUP_BUFFER,
     CMD_BIT(CMD_OFFSET) | CMD_BIT(CMD_LOCATE) | CMD_BIT(CMD_VALIDATE) | CMD_BIT(CMD_MAP),
     "offset of the buffer range in its resource (default 0); byte offsets include it",
     "base_offset_bytes", NULL},
    {"--binding-size", "BYTES", VALUE(t.binding_size), GROUP_BUFFER, CMD_BIT(CMD_VALIDATE),
     "the binding's SizeInBytes (DML_BUFFER_BINDING): at least TotalTensorSizeInBytes",
     "binding_size_bytes", NULL},
    {"--broadcast", "DIMS", REPEAT(t.broadcast, t.n_broadcast), GROUP_LAYOUT, TENSOR_CMDS,
     "broadcast these dims: stride 0 (letters or indices: c, hw, 0,2)", "broadcast", NULL},
    {"--buffer-size", "BYTES", VALUE(t.buffer_size), GROUP_BUFFER, CMD_BIT(CMD_VALIDATE),
     "size of the whole buffer the range is bound in: Offset + SizeInBytes must fit",
     "buffer_size_bytes", NULL},
    {"--byte-offset", "B", VALUE(byte_offset), GROUP_QUERY, CMD_BIT(CMD_LOCATE),
     "find the elements holding byte B (counted like offset's byte offsets)", NULL, NULL},
    {"--color", "WHEN", VALUE(color), GROUP_OUTPUT, CMD_BIT(CMD_MAP),
     "colour a view: auto (default: only on a terminal, never with NO_COLOR set), always "
     "or never",
     NULL, NULL},
    {"--coord", "LIST", REPEAT_ANY(coords, n_coords), GROUP_QUERY, CMD_BIT(CMD_OFFSET),
     "a coordinate in logical order, like 0,1,2,3; repeat for several", NULL, NULL},
    {"--dtype", "TYPE", VALUE(t.dtype), GROUP_TENSOR, TENSOR_CMDS,
     "data type (default float32): float32 float16 float64 int8..int64 uint8..uint64 int4 "
     "uint4, or DML_TENSOR_DATA_TYPE_* names",
     "dtype", "DataType"},
    {"--field", "NAME", VALUE(field), GROUP_OUTPUT, CMD_BIT(CMD_SIZE),
     "print only this value (a JSON key, e.g. minimum_implied_size_bytes)", NULL, NULL},
    {"--flags", "FLAGS", VALUE(t.flags), GROUP_BUFFER, CMD_BIT(CMD_VALIDATE),
     "DML_TENSOR_FLAGS: none (default), owned_by_dml, or a number", "flags", "Flags"},
    /* Its help and the formats it checks are each command's (struct command's
     * formats and format_help). */
    {"--format", "FMT", VALUE(format_text), GROUP_OUTPUT, ALL_CMDS, NULL, NULL, NULL},
    {"--help", NULL, FLAG(help), GROUP_OTHER, ALL_CMDS, "show this help", NULL, NULL},
    {"--layout", "NAME", VALUE(t.layout), GROUP_LAYOUT, TENSOR_CMDS,
     "memory order, outermost first: nchw nhwc ncdhw ndhwc, any permutation of the rank's "
     "letters, row-major (default), col-major, or indices 0,2,3,1",
     "layout", NULL},
    {"--limit", "N", VALUE(limit), GROUP_QUERY, CMD_BIT(CMD_LOCATE),
     "list at most N coordinates (default: all of them)", NULL, NULL},
    {"--limit", "N", VALUE(limit), GROUP_OUTPUT, CMD_BIT(CMD_MAP),
     "list at most N elements (default: all); a view draws at most N cells (default 256, at most "
     "100000)",
     NULL, NULL},
    {"--name", "NAME", VALUE(c_name), GROUP_OUTPUT, CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_VALIDATE),
     "with --format c: prefix of the variables (default tensor: tensorSizes, tensorStrides, "
     "tensorBufferDesc, tensorDesc, tensorBinding, tensorBindingDesc)",
     NULL, NULL},
    {"--name", "NAME", VALUE(c_name), GROUP_OUTPUT, CMD_BIT(CMD_VIEW),
     "with --format c: prefix of the variables (default view: viewSizes, viewBufferDesc, "
     "viewBinding, ...; with --split, view0, view1, ... for the parts)",
     NULL, NULL},
    {"--offset", "K", VALUE(offset), GROUP_QUERY, CMD_BIT(CMD_LOCATE),
     "find the coordinates at element offset K", NULL, NULL},
    {"--order", "LIST", VALUE(t.order), GROUP_LAYOUT, TENSOR_CMDS,
     "memory order by dimension index, outermost first (any rank): 0,2,3,1", "order", NULL},
    {"--pad", "DIM=N,..", REPEAT(t.pad, t.n_pad), GROUP_LAYOUT, TENSOR_CMDS,
     "N unused elements after each run along DIM (w=2 on a width-3 row: row stride 5)", "pad",
     NULL},
    {"--progress", NULL, FLAG(progress), GROUP_OUTPUT, CMD_BIT(CMD_BATCH),
     "show records and records/s on stderr (on by default when stderr is a terminal and the "
     "run takes over a second)",
     NULL, NULL},
    {"--rank", "R", VALUE(t.rank), GROUP_TENSOR, TENSOR_CMDS,
     "add leading size-1 dims up to rank R (3,5 with --rank 4 is 1,1,3,5)", "rank", NULL},
    {"--rank", "R", VALUE(t.rank), GROUP_QUERY, CMD_BIT(CMD_LAYOUTS),
     "list every layout name of rank R", NULL, NULL},
    {"--row-pitch-align", "BYTES", VALUE(t.row_pitch_align), GROUP_LAYOUT, TENSOR_CMDS,
     "start each row on a BYTES boundary (e.g. 256 for D3D12 texture copies)", "row_pitch_align",
     NULL},
    {"--sizes", "LIST", VALUE(t.sizes), GROUP_TENSOR, TENSOR_CMDS,
     "sizes in logical order (NCHW for rank 4), each 1..4294967295 (required)", "sizes", "Sizes"},
    {"--strides", "LIST", VALUE(t.strides), GROUP_LAYOUT, TENSOR_CMDS,
     "explicit element strides in logical order, each 0..4294967295", "strides", "Strides"},
    {"--total-size", "BYTES", VALUE(t.total_size), GROUP_BUFFER,
     CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_LOCATE) | CMD_BIT(CMD_VALIDATE) | CMD_BIT(CMD_MAP),
     "TotalTensorSizeInBytes (default: the minimum implied size)", "total_tensor_size_bytes",
     "TotalTensorSizeInBytes"},
    {"--view", "VIEW", VALUE(view), GROUP_OUTPUT, CMD_BIT(CMD_MAP),
     "draw instead of listing: memory (the buffer cell by cell, as DirectML's docs draw it) or "
     "grid (each 2-D slice with the offset in each cell)",
     NULL, NULL},
    {"--width", "COLUMNS", VALUE(width), GROUP_OUTPUT, CMD_BIT(CMD_MAP),
     "wrap a view to this many columns (default: $COLUMNS, else the terminal's width, else 80)",
     NULL, NULL},
    /* view: the parent's binding and the operations, sorted by name */
    {"--alignment", "BYTES", VALUE(t.alignment), GROUP_BUFFER, CMD_BIT(CMD_VIEW),
     "the parent's GuaranteedBaseOffsetAlignment (default 16: a bound tensor is always 16-byte "
     "aligned); a view's is the largest power of two dividing its offset, at most this",
     NULL, NULL},
    {"--base-offset", "BYTES", VALUE(t.base_offset), GROUP_BUFFER, CMD_BIT(CMD_VIEW),
     "where the parent is bound in its buffer (its DML_BUFFER_BINDING Offset; default 0)", NULL,
     NULL},
    {"--broadcast-to", "SIZES", OPERATION(VOP_BROADCAST_TO), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "NumPy's broadcast_to: dims aligned on the right, a size-1 dim grows with stride 0, new "
     "leading dims get stride 0",
     NULL, NULL},
    {"--buffer-size", "BYTES", VALUE(t.buffer_size), GROUP_BUFFER, CMD_BIT(CMD_VIEW),
     "size of the whole buffer (default: base offset + the parent's total size); each view's "
     "range must fit in it",
     NULL, NULL},
    {"--permute", "ORDER", OPERATION(VOP_PERMUTE), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "new dim order, as NumPy's transpose: dim i of the result is dim ORDER[i] (indices 1,0,2 "
     "or the current rank's letters: nhwc)",
     NULL, NULL},
    {"--reshape", "SIZES", OPERATION(VOP_RESHAPE), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "new sizes, one of them may be -1; only without a copy (NumPy's rule), else exit 1 "
     "naming the dims that cannot be merged",
     NULL, NULL},
    {"--select", "DIM=INDEX", OPERATION(VOP_SELECT), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "take one index of DIM and drop the dim (negative counts from the end)", NULL, NULL},
    {"--slice", "DIM=START:STOP[:STEP]", OPERATION(VOP_SLICE), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "keep part of DIM, with Python's rules (omitted: the whole dim, negative: from the end); "
     "STEP >= 1",
     NULL, NULL},
    {"--split", "DIM=N|DIM=A+B+..", OPERATION(VOP_SPLIT), GROUP_OPERATIONS, CMD_BIT(CMD_VIEW),
     "several views: DIM cut into N equal parts, or into parts of sizes A, B, ...", NULL, NULL},
    {"--total-size", "BYTES", VALUE(t.total_size), GROUP_BUFFER, CMD_BIT(CMD_VIEW),
     "the parent's TotalTensorSizeInBytes (default: its minimum implied size)", NULL, NULL},
    /* plan, sorted by name */
    {"--alignment", "BYTES", VALUE(t.alignment), GROUP_BUFFER, CMD_BIT(CMD_PLAN),
     "every offset a multiple of BYTES: a power of two, at least 16 (DirectML's minimum); "
     "default 256",
     NULL, NULL},
    {"--name", "NAME", VALUE(c_name), GROUP_OUTPUT, CMD_BIT(CMD_PLAN),
     "with --format c: prefix of the variables (default plan: planTensors, planArenaBytes, "
     "planTensorCount)",
     NULL, NULL},
    {"--checks", "WHICH", VALUE(checks), GROUP_OUTPUT, CMD_BIT(CMD_SCAN),
     "which of validate's checks each record lists: all (default), failed (those that fail) or "
     "none",
     NULL, NULL},
    /* scan: ONNX models, sorted by name */
    {"--dim", "NAME=VALUE", REPEAT_ANY(dims, n_dims), GROUP_TENSOR,
     CMD_BIT(CMD_SCAN) | CMD_BIT(CMD_PLAN),
     "ONNX models: bind the symbolic dim NAME to VALUE (1..4294967295) in every tensor; repeat "
     "for each symbol, any number of times (--dim batch=8)",
     NULL, NULL},
    {"--io", NULL, FLAG(plan_io), GROUP_TENSOR, CMD_BIT(CMD_PLAN),
     "ONNX models: the main graph's inputs (alive from step 0) and outputs (alive to the last "
     "step) are placed too",
     NULL, NULL},
    {"--skip-unknown", NULL, FLAG(skip_unknown), GROUP_TENSOR, CMD_BIT(CMD_PLAN),
     "ONNX models: leave out a tensor whose size is unknown instead of stopping (exit 2)", NULL,
     NULL},
    {"--no-infer", NULL, FLAG(no_infer), GROUP_TENSOR, CMD_BIT(CMD_SCAN),
     "ONNX models: only the values the model declares, no shape inference (no activation records; "
     "a declared value keeps its own shape)",
     NULL, NULL},
    {"--shape", "NAME=D1,D2,..", REPEAT_ANY(shapes, n_shapes), GROUP_TENSOR,
     CMD_BIT(CMD_SCAN) | CMD_BIT(CMD_PLAN),
     "ONNX models: the whole shape of the main graph's value NAME (an input, say), anonymous dims "
     "too (--shape state=2,1,128); repeat for each value",
     NULL, NULL},
    {"--strict", NULL, FLAG(strict), GROUP_OUTPUT, CMD_BIT(CMD_SCAN),
     "ONNX models: exit status 1 for a tensor whose size is unknown too (an unbound or unknown "
     "dim, no shape, no type), not only for a definite DirectML problem",
     NULL, NULL},
    {"--layout", "NAME", VALUE(t.layout), GROUP_LAYOUT, CMD_BIT(CMD_SCAN),
     "ONNX models: strides of this memory order (nhwc, col-major, ...) for each tensor of a rank "
     "it fits; the others keep row-major, with a note",
     NULL, NULL},
    {"--rank", "R", VALUE(t.rank), GROUP_TENSOR, CMD_BIT(CMD_SCAN),
     "ONNX models: add leading size-1 dims to each tensor up to rank R (a larger rank is left "
     "as it is, with a note)",
     NULL, NULL},
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
static const struct opt_def *find_option(const char *name, size_t len, const struct command *cmd)
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

enum format format_from_argv(int argc, char **argv)
{
    const struct command *c = argc > 1 && argv[1] ? cli_command_named(argv[1]) : NULL;
    if (c && c->text_errors)
        return FMT_TEXT;
    for (int i = 1; i < argc; i++) {
        if (argv[i] == NULL)
            break;
        const char *v = strncmp(argv[i], "--format=", 9) == 0              ? argv[i] + 9
                        : strcmp(argv[i], "--format") == 0 && i + 1 < argc ? argv[i + 1]
                                                                           : NULL;
        if (v && (strcmp(v, "json") == 0 || strcmp(v, "jsonl") == 0))
            return FMT_JSON;
    }
    return FMT_TEXT;
}

static bool unknown_option(struct cli_error *e, const char *arg, size_t len, const char *cmd)
{
    const char *names[N_OPTIONS];
    for (size_t i = 0; i < N_OPTIONS; i++)
        names[i] = options[i].name;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), arg);
    cli_fail(e, CLI_E_UNKNOWN_OPTION, NULL, arg, "unknown option for %s", cmd);
    const char *s = cli_suggest(name, names, N_OPTIONS);
    if (s)
        cli_hint(e, "did you mean %s? See 'dmltensor %s --help'", s, cmd);
    else
        cli_hint(e, "see 'dmltensor %s --help'", cmd);
    return false;
}

/* Stores an option's value where its entry says (NULL for a flag). */
static bool store(const struct opt_def *o, const char *value, struct cli_config *cfg,
                  struct cli_error *e)
{
    char *base = (char *)cfg;
    unsigned *count = (unsigned *)(void *)(base + o->count);
    const char **slot = NULL;
    switch (o->kind) {
    case OPT_FLAG: {
        bool *flag = (bool *)(void *)(base + o->at);
        if (*flag) {
            cli_fail(e, CLI_E_DUPLICATE_OPTION, o->name, NULL, "given twice");
            cli_hint(e, "give each option once");
            return false;
        }
        *flag = true;
        return true;
    }
    case OPT_VALUE:
        slot = (const char **)(void *)(base + o->at);
        if (*slot) {
            cli_fail(e, CLI_E_DUPLICATE_OPTION, o->name, value, "given twice (first as \"%s\")",
                     *slot);
            cli_hint(e, "give each option once");
            return false;
        }
        break;
    case OPT_REPEAT:
        if (*count == MAX_REPEAT)
            return cli_fail(e, CLI_E_TOO_MANY_VALUES, o->name, value, "given more than %d times",
                            MAX_REPEAT);
        slot = (const char **)(void *)(base + o->at) + (*count)++;
        break;
    case OPT_REPEAT_ANY: /* room for every argument */
        slot = *(const char ***)(void *)(base + o->at) + (*count)++;
        break;
    case OPT_OPERATION:
        if (*count == MAX_VIEW_OPS)
            return cli_fail(e, CLI_E_TOO_MANY_VALUES, o->name, value, "more than %d operations",
                            MAX_VIEW_OPS);
        cfg->op_kind[*count] = o->op;
        slot = (const char **)(void *)(base + o->at) + (*count)++;
        break;
    }
    *slot = value;
    return true;
}

static bool parse_options(int argc, char **argv, int first, const struct command *cmd,
                          struct cli_config *cfg, struct cli_error *e)
{
    for (int i = first; i < argc; i++) {
        const char *arg = strcmp(argv[i], "-h") == 0 ? "--help" : argv[i];
        if ((cmd->args == ARGS_FILES || (cmd->args == ARGS_FILE && cfg->input == NULL)) &&
            (arg[0] != '-' || arg[1] == '\0')) {
            if (cfg->input == NULL)
                cfg->input = arg;             /* FILE, or - for stdin */
            cfg->files[cfg->n_files++] = arg; /* scan FILE... */
            continue;
        }
        if (arg[0] != '-' || arg[1] != '-') {
            cli_fail(e, CLI_E_UNEXPECTED_ARGUMENT, NULL, arg, "unexpected argument to %s",
                     cfg->cmd_name);
            cli_hint(e, "options start with --; see 'dmltensor %s --help'", cfg->cmd_name);
            return false;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct opt_def *o = find_option(arg, len, cmd);
        if (o == NULL)
            return unknown_option(e, arg, len, cfg->cmd_name);
        if (!cli_option_of(o, cmd))
            return cli_fail(e, CLI_E_UNKNOWN_OPTION, o->name, NULL, "not an option of %s",
                            cfg->cmd_name);
        const char *value = NULL;
        if (o->kind == OPT_FLAG) {
            if (eq)
                return cli_fail(e, CLI_E_UNEXPECTED_VALUE, o->name, eq + 1,
                                "this option takes no value");
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            cli_fail(e, CLI_E_MISSING_VALUE, o->name, NULL, "needs a value (%s)", o->metavar);
            cli_hint(e, "%s %s: %s", o->name, o->metavar, cli_option_help(o, cmd));
            return false;
        }
        if (!store(o, value, cfg, e))
            return false;
    }
    return true;
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

static bool parse_format(struct cli_config *cfg, struct cli_error *e)
{
    const char *names[sizeof formats / sizeof formats[0]];
    size_t n = 0;
    const unsigned prints = cli_command_of(cfg->cmd)->formats;
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

void free_command_line(struct cli_config *cfg)
{
    free((void *)cfg->coords);
    cfg->coords = NULL;
    free((void *)cfg->files);
    cfg->files = NULL;
    free((void *)cfg->dims);
    cfg->dims = NULL;
    free((void *)cfg->shapes);
    cfg->shapes = NULL;
}

bool parse_command_line(int argc, char **argv, struct cli_config *cfg, struct cli_error *e)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->coords = calloc((size_t)argc, sizeof cfg->coords[0]);
    cfg->files = calloc((size_t)argc, sizeof cfg->files[0]);
    cfg->dims = calloc((size_t)argc, sizeof cfg->dims[0]);
    cfg->shapes = calloc((size_t)argc, sizeof cfg->shapes[0]);
    if (cfg->coords == NULL || cfg->files == NULL || cfg->dims == NULL || cfg->shapes == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    const char *name = argv[1];
    const struct command *c = cli_command_named(name);
    if (c) {
        cfg->cmd = c->id;
        cfg->cmd_name = c->name;
    } else {
        const char *names[32]; /* more than there are commands */
        size_t n = 0;
        for (; n < cli_n_commands && n < sizeof names / sizeof names[0]; n++)
            names[n] = cli_commands[n]->name;
        if (name[0] == '-')
            cli_fail(e, CLI_E_UNKNOWN_OPTION, NULL, name, "unknown option");
        else
            cli_fail(e, CLI_E_UNKNOWN_COMMAND, NULL, name, "unknown command");
        const char *s = cli_suggest(name, names, n);
        if (s)
            cli_hint(e, "did you mean '%s'? See 'dmltensor --help'", s);
        else
            cli_hint(e, "see 'dmltensor --help' for the commands");
        return false;
    }
    if (!parse_options(argc, argv, 2, c, cfg, e))
        return false;
    if (cfg->help)
        return true;
    if (cfg->format_text && !parse_format(cfg, e))
        return false;
    if (cfg->field && cfg->format_text && cfg->format != FMT_TEXT)
        return cli_fail(e, CLI_E_CONFLICTING_OPTIONS, "--field", cfg->field,
                        "prints one plain value; it cannot be combined with --format %s",
                        cfg->format_text);
    if (cfg->c_name) {
        if (cfg->format != FMT_C) {
            cli_fail(e, CLI_E_CONFLICTING_OPTIONS, "--name", cfg->c_name,
                     "names the variables of --format c");
            cli_hint(e, "add --format c");
            return false;
        }
        if (!c_name_check(cfg->c_name, e))
            return false;
    }
    return true;
}

/* Appends `text` wrapped to width 79; continuation lines start at `indent`. */
static void wrap(struct outbuf *b, size_t line_start, size_t indent, const char *text)
{
    const char *p = text;
    bool first = true;
    while (*p) {
        const char *sp = strchr(p, ' ');
        size_t word = sp ? (size_t)(sp - p) : strlen(p);
        if (!first && b->len - line_start + 1 + word > 79) {
            ob_putc(b, '\n');
            line_start = b->len;
            for (size_t i = 0; i < indent; i++)
                ob_putc(b, ' ');
        } else if (!first) {
            ob_putc(b, ' ');
        }
        ob_write(b, p, word);
        first = false;
        p += word;
        while (*p == ' ')
            p++;
    }
    ob_putc(b, '\n');
}

void render_main_help(struct outbuf *b)
{
    ob_puts(b, "dmltensor - layout calculator for DirectML buffer tensors\n\n"
               "Usage: dmltensor COMMAND [OPTIONS]\n\nCommands:\n");
    for (size_t i = 0; i < cli_n_commands; i++) {
        size_t start = b->len;
        ob_puts(b, "  ");
        ob_puts(b, cli_commands[i]->name);
        ob_pad_to(b, start, 12);
        ob_puts(b, cli_commands[i]->summary);
        ob_putc(b, '\n');
    }
    ob_puts(b, "\nOptions:\n"
               "  -h, --help  show this help (dmltensor COMMAND --help for a command)\n"
               "  --version   show the version and build details\n\n"
               "Example:\n"
               "  dmltensor size --dtype float16 --sizes 1,3,224,224 --layout nhwc\n\n"
               "Exit status: 0 success, 1 the tensor breaks a DirectML rule, 2 usage or\n"
               "malformed input, 3 I/O error. See dmltensor(1).\n");
}

/* "size, offset, validate or view": the commands batch records may name. */
static void batch_commands(struct outbuf *b)
{
    size_t count = 0, n = 0;
    for (size_t i = 0; i < cli_n_commands; i++)
        count += cli_commands[i]->batch;
    for (size_t i = 0; i < cli_n_commands; i++) {
        if (!cli_commands[i]->batch)
            continue;
        ob_puts(b, n == 0 ? "" : n + 1 == count ? " or " : ", ");
        n++;
        ob_puts(b, cli_commands[i]->name);
    }
}

void render_about(struct outbuf *b, const struct command *h)
{
    static const char token[] = CLI_BATCH_COMMANDS;
    const char *at = strstr(h->about, token);
    if (at == NULL) {
        ob_puts(b, h->about);
        return;
    }
    /* The paragraph holding the list, filled again to 79 columns. */
    const char *para = at;
    while (para > h->about && !(para[-1] == '\n' && para - 1 > h->about && para[-2] == '\n'))
        para--;
    const char *end = strstr(at, "\n\n");
    if (end == NULL)
        end = h->about + strlen(h->about);
    struct outbuf text;
    ob_init(&text);
    for (const char *p = para; p < end; p++) {
        if (p == at) {
            batch_commands(&text);
            p += sizeof token - 2;
        } else if (*p == '\n') {
            ob_putc(&text, ' ');
        } else {
            ob_putc(&text, *p);
        }
    }
    while (text.len > 0 && text.data[text.len - 1] == ' ')
        text.len--;
    ob_putc(&text, '\0');
    ob_write(b, h->about, (size_t)(para - h->about));
    if (!text.failed)
        wrap(b, b->len, 0, text.data);
    else
        b->failed = true;
    ob_free(&text);
    if (*end)
        ob_puts(b, end + 1);
}

void render_command_help(struct outbuf *b, const struct command *h)
{
    ob_puts(b, "Usage: ");
    ob_puts(b, h->usage);
    ob_puts(b, "\n\n");
    render_about(b, h);
    for (unsigned g = GROUP_TENSOR; g <= GROUP_OTHER; g++) {
        bool any = false;
        for (size_t i = 0; i < N_OPTIONS; i++) {
            const struct opt_def *o = &options[i];
            if (o->group != g || !cli_option_of(o, h))
                continue;
            if (!any) {
                ob_putc(b, '\n');
                ob_puts(b, group_titles[g]);
                ob_puts(b, ":\n");
                any = true;
            }
            size_t start = b->len;
            ob_puts(b, "  ");
            ob_puts(b, o->name);
            if (o->metavar) {
                ob_putc(b, ' ');
                ob_puts(b, o->metavar);
            }
            if (b->len - start >= 26) {
                ob_putc(b, '\n');
                start = b->len;
            }
            ob_pad_to(b, start, 26);
            wrap(b, start, 26, cli_option_help(o, h));
        }
    }
    ob_puts(b, "\nExamples:\n");
    ob_puts(b, h->examples);
}

void render_version(struct outbuf *b)
{
    ob_puts(b, "dmltensor " DMLT_VERSION "\n");
    ob_puts(b, "built " DMLT_BUILD_TYPE " with " DMLT_COMPILER ", cJSON " DMLT_CJSON_VERSION "\n");
}
