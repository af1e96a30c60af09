/* options.c - the option table, argv parsing and --help, from one source:
 * help text, parser and man page cannot disagree about an option. */
#include "cli.h"
#include "parse.h"
#include "render_c.h"
#include "dmlt_version.h"

#include <stdlib.h>
#include <string.h>

enum opt_id {
    OPT_ALIGNMENT,
    OPT_BASE_OFFSET,
    OPT_BINDING_SIZE,
    OPT_BROADCAST,
    OPT_BUFFER_SIZE,
    OPT_BYTE_OFFSET,
    OPT_COLOR,
    OPT_COORD,
    OPT_DTYPE,
    OPT_FIELD,
    OPT_FLAGS,
    OPT_FORMAT,
    OPT_HELP,
    OPT_LAYOUT,
    OPT_LIMIT,
    OPT_NAME,
    OPT_OFFSET,
    OPT_ORDER,
    OPT_PAD,
    OPT_PROGRESS,
    OPT_RANK,
    OPT_ROW_PITCH_ALIGN,
    OPT_SIZES,
    OPT_STRIDES,
    OPT_TOTAL_SIZE,
    OPT_VIEW,
    OPT_WIDTH,
    /* view */
    OPT_SLICE,
    OPT_SELECT,
    OPT_PERMUTE,
    OPT_BROADCAST_TO,
    OPT_RESHAPE,
    OPT_SPLIT,
};

enum opt_group {
    GROUP_TENSOR,
    GROUP_LAYOUT,
    GROUP_BUFFER,
    GROUP_QUERY,
    GROUP_OPERATIONS,
    GROUP_OUTPUT,
    GROUP_OTHER
};

struct opt_def {
    const char *name;
    const char *metavar; /* NULL: takes no value */
    enum opt_id id;
    enum opt_group group;
    unsigned commands;
    bool repeatable;
    const char *help;
};

#define TENSOR_CMDS                                                                                \
    (CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_OFFSET) | CMD_BIT(CMD_LOCATE) | CMD_BIT(CMD_VALIDATE) |       \
     CMD_BIT(CMD_MAP) | CMD_BIT(CMD_VIEW))
#define ALL_CMDS                                                                                   \
    (TENSOR_CMDS | CMD_BIT(CMD_DTYPES) | CMD_BIT(CMD_LAYOUTS) | CMD_BIT(CMD_BATCH) |               \
     CMD_BIT(CMD_SCAN))
#define JSONL_CMDS (CMD_BIT(CMD_BATCH) | CMD_BIT(CMD_SCAN)) /* JSON Lines only: no --format */

/* Sorted by name. Help lists them by group in this order. A name may have
 * one entry per set of commands, so that each help says what it does there. */
static const struct opt_def options[] = {
    {"--alignment", "BYTES", OPT_ALIGNMENT, GROUP_BUFFER, CMD_BIT(CMD_VALIDATE), false,
     "GuaranteedBaseOffsetAlignment: 0 (none, the default) or a power of two"},
    {"--base-offset", "BYTES", OPT_BASE_OFFSET, GROUP_BUFFER,
     CMD_BIT(CMD_OFFSET) | CMD_BIT(CMD_LOCATE) | CMD_BIT(CMD_VALIDATE) | CMD_BIT(CMD_MAP), false,
     "offset of the buffer range in its resource (default 0); byte offsets include it"},
    {"--binding-size", "BYTES", OPT_BINDING_SIZE, GROUP_BUFFER, CMD_BIT(CMD_VALIDATE), false,
     "the binding's SizeInBytes (DML_BUFFER_BINDING): at least TotalTensorSizeInBytes"},
    {"--broadcast", "DIMS", OPT_BROADCAST, GROUP_LAYOUT, TENSOR_CMDS, true,
     "broadcast these dims: stride 0 (letters or indices: c, hw, 0,2)"},
    {"--buffer-size", "BYTES", OPT_BUFFER_SIZE, GROUP_BUFFER, CMD_BIT(CMD_VALIDATE), false,
     "size of the whole buffer the range is bound in: Offset + SizeInBytes must fit"},
    {"--byte-offset", "B", OPT_BYTE_OFFSET, GROUP_QUERY, CMD_BIT(CMD_LOCATE), false,
     "find the elements holding byte B (counted like offset's byte offsets)"},
    {"--color", "WHEN", OPT_COLOR, GROUP_OUTPUT, CMD_BIT(CMD_MAP), false,
     "colour a view: auto (default: only on a terminal, never with NO_COLOR set), always "
     "or never"},
    {"--coord", "LIST", OPT_COORD, GROUP_QUERY, CMD_BIT(CMD_OFFSET), true,
     "a coordinate in logical order, like 0,1,2,3; repeat for several"},
    {"--dtype", "TYPE", OPT_DTYPE, GROUP_TENSOR, TENSOR_CMDS, false,
     "data type (default float32): float32 float16 float64 int8..int64 uint8..uint64 int4 "
     "uint4, or DML_TENSOR_DATA_TYPE_* names"},
    {"--field", "NAME", OPT_FIELD, GROUP_OUTPUT, CMD_BIT(CMD_SIZE), false,
     "print only this value (a JSON key, e.g. minimum_implied_size_bytes)"},
    {"--flags", "FLAGS", OPT_FLAGS, GROUP_BUFFER, CMD_BIT(CMD_VALIDATE), false,
     "DML_TENSOR_FLAGS: none (default), owned_by_dml, or a number"},
    {"--format", "FMT", OPT_FORMAT, GROUP_OUTPUT, CMD_BIT(CMD_SIZE), false,
     "text (default), json (one line), env (KEY=value lines for eval) or c (a C snippet: the "
     "DML_BUFFER_TENSOR_DESC)"},
    {"--format", "FMT", OPT_FORMAT, GROUP_OUTPUT, CMD_BIT(CMD_VALIDATE), false,
     "text (default), json (one line) or c (a C snippet: the DML_BUFFER_TENSOR_DESC and, with "
     "a binding, the DML_BUFFER_BINDING; failed checks as comments)"},
    {"--format", "FMT", OPT_FORMAT, GROUP_OUTPUT,
     ALL_CMDS & ~(CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_VALIDATE) | CMD_BIT(CMD_MAP) | JSONL_CMDS), false,
     "text (default) or json (one line)"},
    {"--format", "FMT", OPT_FORMAT, GROUP_OUTPUT, CMD_BIT(CMD_MAP), false,
     "text (default, aligned columns), csv (with a header row), jsonl (an object per line) or "
     "json (one array)"},
    {"--help", NULL, OPT_HELP, GROUP_OTHER, ALL_CMDS, false, "show this help"},
    {"--layout", "NAME", OPT_LAYOUT, GROUP_LAYOUT, TENSOR_CMDS, false,
     "memory order, outermost first: nchw nhwc ncdhw ndhwc, any permutation of the rank's "
     "letters, row-major (default), col-major, or indices 0,2,3,1"},
    {"--limit", "N", OPT_LIMIT, GROUP_QUERY, CMD_BIT(CMD_LOCATE), false,
     "list at most N coordinates (default: all of them)"},
    {"--limit", "N", OPT_LIMIT, GROUP_OUTPUT, CMD_BIT(CMD_MAP), false,
     "list at most N elements (default: all); a view draws at most N cells (default 256, at most "
     "100000)"},
    {"--name", "NAME", OPT_NAME, GROUP_OUTPUT, CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_VALIDATE), false,
     "with --format c: prefix of the variables (default tensor: tensorSizes, tensorStrides, "
     "tensorBufferDesc, tensorDesc, tensorBinding, tensorBindingDesc)"},
    {"--offset", "K", OPT_OFFSET, GROUP_QUERY, CMD_BIT(CMD_LOCATE), false,
     "find the coordinates at element offset K"},
    {"--order", "LIST", OPT_ORDER, GROUP_LAYOUT, TENSOR_CMDS, false,
     "memory order by dimension index, outermost first (any rank): 0,2,3,1"},
    {"--pad", "DIM=N,..", OPT_PAD, GROUP_LAYOUT, TENSOR_CMDS, true,
     "N unused elements after each run along DIM (w=2 on a width-3 row: row stride 5)"},
    {"--progress", NULL, OPT_PROGRESS, GROUP_OUTPUT, CMD_BIT(CMD_BATCH), false,
     "show records and records/s on stderr (on by default when stderr is a terminal and the "
     "run takes over a second)"},
    {"--rank", "R", OPT_RANK, GROUP_TENSOR, TENSOR_CMDS, false,
     "add leading size-1 dims up to rank R (3,5 with --rank 4 is 1,1,3,5)"},
    {"--rank", "R", OPT_RANK, GROUP_QUERY, CMD_BIT(CMD_LAYOUTS), false,
     "list every layout name of rank R"},
    {"--row-pitch-align", "BYTES", OPT_ROW_PITCH_ALIGN, GROUP_LAYOUT, TENSOR_CMDS, false,
     "start each row on a BYTES boundary (e.g. 256 for D3D12 texture copies)"},
    {"--sizes", "LIST", OPT_SIZES, GROUP_TENSOR, TENSOR_CMDS, false,
     "sizes in logical order (NCHW for rank 4), each 1..4294967295 (required)"},
    {"--strides", "LIST", OPT_STRIDES, GROUP_LAYOUT, TENSOR_CMDS, false,
     "explicit element strides in logical order, each 0..4294967295"},
    {"--total-size", "BYTES", OPT_TOTAL_SIZE, GROUP_BUFFER,
     CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_LOCATE) | CMD_BIT(CMD_VALIDATE) | CMD_BIT(CMD_MAP), false,
     "TotalTensorSizeInBytes (default: the minimum implied size)"},
    {"--view", "VIEW", OPT_VIEW, GROUP_OUTPUT, CMD_BIT(CMD_MAP), false,
     "draw instead of listing: memory (the buffer cell by cell, as DirectML's docs draw it) or "
     "grid (each 2-D slice with the offset in each cell)"},
    {"--width", "COLUMNS", OPT_WIDTH, GROUP_OUTPUT, CMD_BIT(CMD_MAP), false,
     "wrap a view to this many columns (default: $COLUMNS, else the terminal's width, else 80)"},
    /* view: the parent's binding and the operations, sorted by name */
    {"--alignment", "BYTES", OPT_ALIGNMENT, GROUP_BUFFER, CMD_BIT(CMD_VIEW), false,
     "the parent's GuaranteedBaseOffsetAlignment (default 16: a bound tensor is always 16-byte "
     "aligned); a view's is the largest power of two dividing its offset, at most this"},
    {"--base-offset", "BYTES", OPT_BASE_OFFSET, GROUP_BUFFER, CMD_BIT(CMD_VIEW), false,
     "where the parent is bound in its buffer (its DML_BUFFER_BINDING Offset; default 0)"},
    {"--broadcast-to", "SIZES", OPT_BROADCAST_TO, GROUP_OPERATIONS, CMD_BIT(CMD_VIEW), true,
     "NumPy's broadcast_to: dims aligned on the right, a size-1 dim grows with stride 0, new "
     "leading dims get stride 0"},
    {"--buffer-size", "BYTES", OPT_BUFFER_SIZE, GROUP_BUFFER, CMD_BIT(CMD_VIEW), false,
     "size of the whole buffer (default: base offset + the parent's total size); each view's "
     "range must fit in it"},
    {"--permute", "ORDER", OPT_PERMUTE, GROUP_OPERATIONS, CMD_BIT(CMD_VIEW), true,
     "new dim order, as NumPy's transpose: dim i of the result is dim ORDER[i] (indices 1,0,2 "
     "or the current rank's letters: nhwc)"},
    {"--reshape", "SIZES", OPT_RESHAPE, GROUP_OPERATIONS, CMD_BIT(CMD_VIEW), true,
     "new sizes, one of them may be -1; only without a copy (NumPy's rule), else exit 1 "
     "naming the dims that cannot be merged"},
    {"--select", "DIM=INDEX", OPT_SELECT, GROUP_OPERATIONS, CMD_BIT(CMD_VIEW), true,
     "take one index of DIM and drop the dim (negative counts from the end)"},
    {"--slice", "DIM=START:STOP[:STEP]", OPT_SLICE, GROUP_OPERATIONS, CMD_BIT(CMD_VIEW), true,
     "keep part of DIM, with Python's rules (omitted: the whole dim, negative: from the end); "
     "STEP >= 1"},
    {"--split", "DIM=N|DIM=A+B+..", OPT_SPLIT, GROUP_OPERATIONS, CMD_BIT(CMD_VIEW), true,
     "several views: DIM cut into N equal parts, or into parts of sizes A, B, ..."},
    {"--total-size", "BYTES", OPT_TOTAL_SIZE, GROUP_BUFFER, CMD_BIT(CMD_VIEW), false,
     "the parent's TotalTensorSizeInBytes (default: its minimum implied size)"},
};
#define N_OPTIONS (sizeof options / sizeof options[0])

static const struct {
    const char *name;
    enum command cmd;
    const char *summary;
} commands[] = {
    {"size", CMD_SIZE, "strides, buffer sizes and properties of a tensor"},
    {"offset", CMD_OFFSET, "element and byte offset of coordinates"},
    {"locate", CMD_LOCATE, "every coordinate at an element or byte offset"},
    {"map", CMD_MAP, "every element's offsets, streamed; or a picture of the buffer"},
    {"validate", CMD_VALIDATE, "check a whole DML_BUFFER_TENSOR_DESC against DirectML's rules"},
    {"view", CMD_VIEW, "slice, select, permute, broadcast, reshape or split a bound tensor"},
    {"batch", CMD_BATCH, "many descriptors as JSON Lines or an array: a JSON result each"},
    {"scan", CMD_SCAN, "find and validate every tensor description in a JSON document"},
    {"dtypes", CMD_DTYPES, "the data types, their enum values and sizes"},
    {"layouts", CMD_LAYOUTS, "the layout names of each rank"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

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

/* The slot of view's next operation, in the order given; NULL past
 * MAX_VIEW_OPS of them. */
static const char **view_op(struct cli_config *cfg, enum view_op_kind kind)
{
    if (cfg->n_ops == MAX_VIEW_OPS)
        return NULL;
    cfg->op_kind[cfg->n_ops] = kind;
    return &cfg->op_text[cfg->n_ops++];
}

static const char **slot_for(struct cli_config *cfg, enum opt_id id)
{
    struct tensor_args *t = &cfg->t;
    switch (id) {
    case OPT_DTYPE:
        return &t->dtype;
    case OPT_SIZES:
        return &t->sizes;
    case OPT_STRIDES:
        return &t->strides;
    case OPT_LAYOUT:
        return &t->layout;
    case OPT_ORDER:
        return &t->order;
    case OPT_RANK:
        return &t->rank;
    case OPT_ROW_PITCH_ALIGN:
        return &t->row_pitch_align;
    case OPT_TOTAL_SIZE:
        return &t->total_size;
    case OPT_BASE_OFFSET:
        return &t->base_offset;
    case OPT_ALIGNMENT:
        return &t->alignment;
    case OPT_FLAGS:
        return &t->flags;
    case OPT_BINDING_SIZE:
        return &t->binding_size;
    case OPT_BUFFER_SIZE:
        return &t->buffer_size;
    case OPT_OFFSET:
        return &cfg->offset;
    case OPT_BYTE_OFFSET:
        return &cfg->byte_offset;
    case OPT_LIMIT:
        return &cfg->limit;
    case OPT_VIEW:
        return &cfg->view;
    case OPT_COLOR:
        return &cfg->color;
    case OPT_WIDTH:
        return &cfg->width;
    case OPT_COORD:
        return &cfg->coords[cfg->n_coords++]; /* room for argc of them */
    case OPT_FIELD:
        return &cfg->field;
    case OPT_NAME:
        return &cfg->c_name;
    case OPT_FORMAT:
        return &cfg->format_text;
    case OPT_BROADCAST:
        return t->n_broadcast < MAX_REPEAT ? &t->broadcast[t->n_broadcast++] : NULL;
    case OPT_PAD:
        return t->n_pad < MAX_REPEAT ? &t->pad[t->n_pad++] : NULL;
    case OPT_SLICE:
        return view_op(cfg, VOP_SLICE);
    case OPT_SELECT:
        return view_op(cfg, VOP_SELECT);
    case OPT_PERMUTE:
        return view_op(cfg, VOP_PERMUTE);
    case OPT_BROADCAST_TO:
        return view_op(cfg, VOP_BROADCAST_TO);
    case OPT_RESHAPE:
        return view_op(cfg, VOP_RESHAPE);
    case OPT_SPLIT:
        return view_op(cfg, VOP_SPLIT);
    case OPT_HELP:
    case OPT_PROGRESS:
        break;
    }
    return NULL;
}

/* The entry for `name` that belongs to cmd, else any entry of that name. */
static const struct opt_def *find_option(const char *name, size_t len, enum command cmd)
{
    const struct opt_def *any = NULL;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        if (strlen(options[i].name) != len || memcmp(options[i].name, name, len) != 0)
            continue;
        if (options[i].commands & CMD_BIT(cmd))
            return &options[i];
        any = &options[i];
    }
    return any;
}

enum format format_from_argv(int argc, char **argv)
{
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
    fail(e, "unknown_option", NULL, arg, "unknown option for %s", cmd);
    const char *s = suggest(name, names, N_OPTIONS);
    if (s)
        set_hint(e, "did you mean %s? See 'dmltensor %s --help'", s, cmd);
    else
        set_hint(e, "see 'dmltensor %s --help'", cmd);
    return false;
}

static bool parse_options(int argc, char **argv, int first, struct cli_config *cfg,
                          struct cli_error *e)
{
    for (int i = first; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            cfg->help = true;
            continue;
        }
        if ((CMD_BIT(cfg->cmd) & JSONL_CMDS) && cfg->input == NULL &&
            (arg[0] != '-' || arg[1] == '\0')) {
            cfg->input = arg; /* FILE, or - for stdin */
            continue;
        }
        if (arg[0] != '-' || arg[1] != '-') {
            fail(e, "unexpected_argument", NULL, arg, "unexpected argument to %s", cfg->cmd_name);
            set_hint(e, "options start with --; see 'dmltensor %s --help'", cfg->cmd_name);
            return false;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct opt_def *o = find_option(arg, len, cfg->cmd);
        if (o == NULL)
            return unknown_option(e, arg, len, cfg->cmd_name);
        if ((o->commands & CMD_BIT(cfg->cmd)) == 0)
            return fail(e, "unknown_option", o->name, NULL, "not an option of %s", cfg->cmd_name);
        if (o->metavar == NULL) {
            if (eq)
                return fail(e, "unexpected_value", o->name, eq + 1, "this option takes no value");
            if (o->id == OPT_PROGRESS)
                cfg->progress = true;
            continue;
        }
        const char *value;
        if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            fail(e, "missing_value", o->name, NULL, "needs a value (%s)", o->metavar);
            set_hint(e, "%s %s: %s", o->name, o->metavar, o->help);
            return false;
        }
        const char **slot = slot_for(cfg, o->id);
        if (slot == NULL && o->group == GROUP_OPERATIONS)
            return fail(e, "too_many_values", o->name, value, "more than %d operations",
                        MAX_VIEW_OPS);
        if (slot == NULL)
            return fail(e, "too_many_values", o->name, value, "given more than %d times",
                        MAX_REPEAT);
        if (*slot && !o->repeatable) {
            fail(e, "duplicate_option", o->name, value, "given twice (first as \"%s\")", *slot);
            set_hint(e, "give each option once");
            return false;
        }
        *slot = value;
    }
    return true;
}

/* Which command prints which formats. */
static const struct {
    const char *name;
    enum format fmt;
    unsigned commands;
} formats[] = {
    {"text", FMT_TEXT, ALL_CMDS},           {"json", FMT_JSON, ALL_CMDS},
    {"env", FMT_ENV, CMD_BIT(CMD_SIZE)},    {"csv", FMT_CSV, CMD_BIT(CMD_MAP)},
    {"jsonl", FMT_JSONL, CMD_BIT(CMD_MAP)}, {"c", FMT_C, CMD_BIT(CMD_SIZE) | CMD_BIT(CMD_VALIDATE)},
};

static bool parse_format(struct cli_config *cfg, struct cli_error *e)
{
    const char *names[sizeof formats / sizeof formats[0]];
    size_t n = 0;
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if ((formats[i].commands & CMD_BIT(cfg->cmd)) == 0)
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
    fail(e, "bad_format", "--format", cfg->format_text, "not a format of %s", cfg->cmd_name);
    set_hint(e, "%s prints %s", cfg->cmd_name, list);
    return false;
}

void free_command_line(struct cli_config *cfg)
{
    free((void *)cfg->coords);
    cfg->coords = NULL;
}

bool parse_command_line(int argc, char **argv, struct cli_config *cfg, struct cli_error *e)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->coords = calloc((size_t)argc, sizeof cfg->coords[0]);
    if (cfg->coords == NULL)
        return fail(e, "out_of_memory", NULL, NULL, "out of memory");
    const char *name = argv[1];
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(name, commands[i].name) == 0) {
            cfg->cmd = commands[i].cmd;
            cfg->cmd_name = commands[i].name;
        }
    }
    if (cfg->cmd == CMD_NONE) {
        const char *names[N_COMMANDS];
        for (size_t i = 0; i < N_COMMANDS; i++)
            names[i] = commands[i].name;
        if (name[0] == '-')
            fail(e, "unknown_option", NULL, name, "unknown option");
        else
            fail(e, "unknown_command", NULL, name, "unknown command");
        const char *s = suggest(name, names, N_COMMANDS);
        if (s)
            set_hint(e, "did you mean '%s'? See 'dmltensor --help'", s);
        else
            set_hint(e, "see 'dmltensor --help' for the commands");
        return false;
    }
    if (!parse_options(argc, argv, 2, cfg, e))
        return false;
    if (cfg->help)
        return true;
    if (cfg->format_text && !parse_format(cfg, e))
        return false;
    if (cfg->field && cfg->format_text && cfg->format != FMT_TEXT)
        return fail(e, "conflicting_options", "--field", cfg->field,
                    "prints one plain value; it cannot be combined with --format %s",
                    cfg->format_text);
    if (cfg->c_name) {
        if (cfg->format != FMT_C) {
            fail(e, "conflicting_options", "--name", cfg->c_name,
                 "names the variables of --format c");
            set_hint(e, "add --format c");
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
    for (size_t i = 0; i < N_COMMANDS; i++) {
        size_t start = b->len;
        ob_puts(b, "  ");
        ob_puts(b, commands[i].name);
        ob_pad_to(b, start, 12);
        ob_puts(b, commands[i].summary);
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

struct command_help {
    enum command cmd;
    const char *usage, *about, *examples;
};

static const struct command_help helps[] = {
    {CMD_SIZE, "dmltensor size --sizes LIST [OPTIONS]",
     "Strides, element counts and buffer sizes of a DirectML buffer tensor:\n"
     "the minimum implied size (DMLCalcBufferTensorSize, exact), packed, padded\n"
     "and total sizes, broadcast/overlap/packed/padded properties, and warnings\n"
     "such as the published helper's 32-bit overflow.\n",
     "  dmltensor size --dtype float16 --sizes 1,3,224,224 --layout nhwc\n"
     "  dmltensor size --sizes 2,3 --pad w=2            # row stride 5\n"
     "  dmltensor size --sizes 1,3,4,4 --broadcast h,w --format json\n"
     "  bytes=$(dmltensor size --sizes 1,64,56,56 --field minimum_implied_size_bytes)\n"},
    {CMD_OFFSET, "dmltensor offset --sizes LIST --coord LIST... [OPTIONS]",
     "Element offset (dot product of coordinate and strides) and byte offset of\n"
     "each coordinate. For 4-bit types, the byte and the nibble (low for even\n"
     "element offsets). A coordinate outside the tensor is exit status 1.\n",
     "  dmltensor offset --sizes 2,2,3 --coord 1,0,1              # 7\n"
     "  dmltensor offset --sizes 1,3,4,4 --layout nhwc --coord 0,2,1,1 --coord 0,0,3,3\n"},
    {CMD_LOCATE, "dmltensor locate --sizes LIST (--offset K | --byte-offset B) [OPTIONS]",
     "Every coordinate whose element offset is K, or whose element holds byte B,\n"
     "found by solving per dimension (never by walking the tensor). Broadcast\n"
     "and overlapping tensors can have many; an offset that no coordinate\n"
     "reaches is padding. An offset past the buffer's end is exit status 1.\n",
     "  dmltensor locate --sizes 2,3 --pad w=2 --offset 6     # 1,1\n"
     "  dmltensor locate --sizes 2,3 --pad w=2 --offset 3     # padding\n"
     "  dmltensor locate --sizes 1,3,4,4 --broadcast hw --offset 1 --limit 4\n"},
    {CMD_VALIDATE, "dmltensor validate --sizes LIST [OPTIONS]",
     "Checks a whole DML_BUFFER_TENSOR_DESC against DirectML's rules: each check\n"
     "has a stable id, a level (error or warning), and a message saying how to\n"
     "fix it. Exit status 1 when any error-level check fails.\n",
     "  dmltensor validate --dtype float16 --sizes 1,3,224,224 --layout nhwc \\\n"
     "      --total-size 301056 --alignment 256\n"
     "  dmltensor validate --sizes 2,3 --strides 5,1 --total-size 24 --format json\n"
     "  dmltensor validate --sizes 1,1,3,5 --base-offset 256 --binding-size 64 \\\n"
     "      --buffer-size 4096 --format c --name input\n"},
    {CMD_MAP, "dmltensor map --sizes LIST [OPTIONS]",
     "Every element in logical row-major order (the last dim fastest) with its\n"
     "element offset and byte offset, streamed in constant memory: safe to pipe\n"
     "into head, or to write millions of lines. --view draws the buffer instead:\n"
     "memory shows each cell of the buffer and which element is in it (x for\n"
     "padding, * for a cell several coordinates share, ? for one the search\n"
     "could not settle within the view's work limit); grid shows each 2-D\n"
     "slice (the last two logical dims) with the offset in each cell.\n",
     "  dmltensor map --sizes 2,3 --pad w=2\n"
     "  dmltensor map --sizes 2,3 --pad w=2 --view memory\n"
     "  dmltensor map --sizes 1,2,2,3 --layout nhwc --view grid\n"
     "  dmltensor map --dtype float16 --sizes 1,3,224,224 --layout nhwc --format csv | head\n"},
    {CMD_VIEW, "dmltensor view --sizes LIST [OPTIONS] [OPERATIONS]",
     "The DML_BUFFER_TENSOR_DESC and DML_BUFFER_BINDING of views of a tensor that\n"
     "lives in a buffer, as NumPy makes views: slices, an index, a transpose,\n"
     "broadcast_to, a reshape without copy, and parts of a split. For each view:\n"
     "its descriptor (TotalTensorSizeInBytes its own minimum implied size), its\n"
     "binding (Offset = where the parent is bound + the view's byte offset), the\n"
     "parent coordinate of its first element, and the checks: validate's of the\n"
     "view's descriptor and binding (base_offset_16, base_offset_alignment,\n"
     "binding_size, binding_in_buffer against --buffer-size, by default where\n"
     "the parent ends), then view_offset_whole_byte (4-bit types). A view that\n"
     "breaks a rule is printed all the same, with the smallest --pad or\n"
     "--row-pitch-align of the parent that would fix it; exit status 1. A\n"
     "negative step or an empty slice is exit status 2.\n",
     "  dmltensor view --dtype float16 --sizes 8,3,64,64 --slice n=2:4\n"
     "  dmltensor view --sizes 2,3,4 --permute 0,2,1 --format json\n"
     "  dmltensor view --dtype float16 --sizes 1,128,2304 --split w=3\n"
     "  dmltensor view --sizes 64 --reshape 1,64,1,1 --broadcast-to 2,64,7,7\n"},
    {CMD_BATCH, "dmltensor batch [FILE|-] [--progress]",
     "Reads tensor descriptors, one JSON object per line (JSON Lines) or one\n"
     "JSON array of them, from FILE or stdin, and writes one compact JSON result\n"
     "per descriptor, in input order: the object the single command prints with\n"
     "--format json, with the descriptor's \"id\" first. Keys: dtype sizes\n"
     "strides layout order broadcast pad rank row_pitch_align\n"
     "total_tensor_size_bytes guaranteed_base_offset_alignment base_offset_bytes\n"
     "binding_size_bytes buffer_size_bytes flags, DirectML's DataType Sizes\n"
     "Strides TotalTensorSizeInBytes GuaranteedBaseOffsetAlignment Flags\n"
     "DimensionCount, and command (size, validate or offset, with coord or\n"
     "coords) and id. A bad record gives\n"
     "{\"id\":...,\"line\":N,\"error\":{...}} and the run goes on. Exit status 1\n"
     "when any record failed or broke a rule. \"command\":\"view\" takes \"ops\",\n"
     "like [{\"slice\":\"h=0:2\"},{\"permute\":[1,0]}], and buffer_size_bytes.\n",
     "  echo '{\"id\":1,\"dtype\":\"float16\",\"sizes\":[1,3,224,224],\"layout\":\"nhwc\"}' \\\n"
     "      | dmltensor batch | jq .minimum_implied_size_bytes\n"
     "  dmltensor batch descriptors.jsonl > results.jsonl\n"},
    {CMD_SCAN, "dmltensor scan FILE|-",
     "Finds every DirectML tensor description (an object with DataType and\n"
     "Sizes) anywhere in a JSON document, such as a DxDispatch model, and writes\n"
     "one JSON line per description: its JSON path, dtype, sizes, strides and\n"
     "validation result (as validate --format json prints it). Other keys of\n"
     "those objects are ignored; an operator's own Strides (a convolution's) are\n"
     "not a tensor's. In a DxDispatch model, each tensor a dispatch binds to a\n"
     "resource gets a line too: the binding's Offset, SizeInBytes and buffer\n"
     "size, checked (binding_size, binding_in_buffer, base_offset_16). Exit\n"
     "status 1 when any description or binding breaks a rule.\n",
     "  dmltensor scan model.json | jq -r 'select(.valid == false) | .path'\n"},
    {CMD_DTYPES, "dmltensor dtypes [--format json]",
     "The 13 DirectML data types: name, DML_TENSOR_DATA_TYPE value, size in bits.\n",
     "  dmltensor dtypes --format json | jq -r '.[] | select(.bits == 16) | .name'\n"},
    {CMD_LAYOUTS, "dmltensor layouts [--rank R] [--format json]",
     "Layout names by rank: the dimension letters, the named layouts, and with\n"
     "--rank every permutation of that rank's letters.\n",
     "  dmltensor layouts\n"
     "  dmltensor layouts --rank 3\n"},
};

void render_command_help(struct outbuf *b, enum command cmd)
{
    const struct command_help *h = NULL;
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++)
        if (helps[i].cmd == cmd)
            h = &helps[i];
    if (h == NULL)
        return;
    ob_puts(b, "Usage: ");
    ob_puts(b, h->usage);
    ob_puts(b, "\n\n");
    ob_puts(b, h->about);
    for (unsigned g = GROUP_TENSOR; g <= GROUP_OTHER; g++) {
        bool any = false;
        for (size_t i = 0; i < N_OPTIONS; i++) {
            const struct opt_def *o = &options[i];
            if (o->group != g || (o->commands & CMD_BIT(cmd)) == 0)
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
            wrap(b, start, 26, o->help);
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
