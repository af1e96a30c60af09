/* cli.h - the parsed command line. Options are read into raw texts first
 * (options.c), then turned into a tensor description (describe.c), so each
 * message can name the option and the exact text at fault. */
#ifndef DMLT_CLI_H
#define DMLT_CLI_H

#include "errors.h"

#include <string.h>

/* CMD_SIZE, ...: one a command of commands.def, in its order. */
enum command_id {
    CMD_NONE = 0,
#define COMMAND(ID, name) CMD_##ID,
#include "commands.def"
#undef COMMAND
    CMD_COUNT /* not a command: one past the last */
};
#define CMD_BIT(c) (1u << (c))

struct command;

/* The commands, as the dispatcher hands them to those that run others
 * (batch and scan run a record's command from it), so that nothing below
 * the dispatcher reaches up into commands.c. */
struct command_list {
    const struct command *const *at;
    size_t n;
};

enum format { FMT_TEXT, FMT_JSON, FMT_ENV, FMT_CSV, FMT_JSONL, FMT_C, FMT_SVG };
#define FMT_BIT(f) (1u << (f))

#define MAX_REPEAT   16
#define MAX_VIEW_OPS DMLT_VIEW_MAX_STEPS /* view: operations in all */

/* view's operations (--slice ... --split), applied in the order given. */
enum view_op_kind { VOP_SLICE, VOP_SELECT, VOP_PERMUTE, VOP_BROADCAST_TO, VOP_RESHAPE, VOP_SPLIT };

struct tensor_args {
    const char *dtype, *sizes, *strides, *layout, *order, *rank;
    const char *row_pitch_align, *total_size;
    const char *base_offset, *alignment, *flags; /* the rest of the desc */
    const char *binding_size, *buffer_size;      /* the binding (validate, view) */
    const char *broadcast[MAX_REPEAT];
    const char *pad[MAX_REPEAT];
    unsigned n_broadcast, n_pad;
    /* batch: a "layout" given beside explicit strides only describes them;
     * it is preferred when several layouts fit the strides. */
    const char *described_layout;
};

struct cli_config {
    enum command_id cmd;
    const char *cmd_name;
    enum format format;
    const char *format_text, *field;
    const char *c_name; /* --name: the --format c snippet's variable prefix */
    const char *checks; /* scan --checks: all, failed or none */
    /* Which checks validate's JSON lists (scan sets it in each record's). */
    enum { CHECKS_ALL, CHECKS_FAILED, CHECKS_NONE } checks_shown;
    bool help;
    struct tensor_args t;
    const char **coords; /* --coord, repeatable: n_coords of them */
    unsigned n_coords;
    const char *offset, *byte_offset, *limit; /* locate, map */
    const char *view, *color, *width;         /* map */
    /* validate --operator, --tensor, --feature-level (validate_operator.c) */
    const char *dml_operator, *dml_tensor; /* and feature_level below */
    int exit_status;                       /* set by a command whose output is a failed check */
    /* batch wrote the result object's opening brace and the record's id
     * member (`{"id":X,`): the command's JSON goes on from there. */
    bool json_opened;
    const char *input;  /* batch, scan: FILE, or "-" (scan: the first of files) */
    const char **files; /* scan FILE...: n_files of them (room for argc) */
    unsigned n_files;
    const char **dims; /* scan --dim NAME=VALUE, any number (argc entries) */
    unsigned n_dims;
    const char **shapes; /* scan --shape NAME=D1,D2,..., any number (argc entries) */
    unsigned n_shapes;
    bool progress;             /* batch --progress */
    bool strict;               /* scan --strict: an unknown size fails too */
    bool no_infer;             /* scan --no-infer: the model's declared values only */
    bool plan_io;              /* plan --io: a model's inputs and outputs too */
    bool skip_unknown;         /* plan --skip-unknown: leave out tensors of unknown size */
    const char *feature_level; /* --feature-level X_Y (nodes, validate --operator) */
    const char *require;       /* nodes --require dml */
    const char *device;        /* plan --device dml: DirectML memory only */
    const char *top;           /* scan, plan --top N: only the N largest tensors */
    FILE *in, *err;            /* stdin and stderr, as cli_main got them */
    /* The dispatcher's commands, for batch and scan (which run them). */
    struct command_list commands;
    /* view: the operations, in command-line order */
    enum view_op_kind op_kind[MAX_VIEW_OPS];
    const char *op_text[MAX_VIEW_OPS];
    unsigned n_ops;
};

/* A tensor and what the user asked for, ready for the core and renderers. */
struct tensor_desc {
    struct dmlt_tensor t;
    bool has_total;
    uint64_t total;
    bool layout_requested;         /* from --layout/--order or default */
    unsigned order[DMLT_MAX_RANK]; /* the requested memory order */
    bool strides_given;
    unsigned given_rank;  /* before --rank */
    uint64_t base_offset; /* --base-offset, bytes */
    uint32_t alignment;   /* --alignment */
    uint32_t flags;       /* --flags */
    bool order_preferred; /* explicit strides with a described layout in order[] */
    bool has_binding_size, has_buffer_size;
    uint64_t binding_size; /* --binding-size: DML_BUFFER_BINDING::SizeInBytes */
    uint64_t buffer_size;  /* --buffer-size: the whole buffer's size */
};

/* command_line.c: argv into cfg; help.c: --help and --version */
bool cli_parse_command_line(int argc, char **argv, struct cli_config *cfg, struct cli_error *e);
void cli_free_command_line(struct cli_config *cfg);
enum format cli_format_from_argv(int argc, char **argv);
void cli_render_main_help(struct outbuf *b);
void cli_render_command_help(struct outbuf *b, const struct command *cmd);
/* A command's about, with CLI_BATCH_COMMANDS in it replaced by the list of
 * the commands batch records may name ("size, offset, validate or view"),
 * its paragraph filled again. */
#define CLI_BATCH_COMMANDS "{batch commands}"
void cli_render_about(struct outbuf *b, const struct command *cmd);
void cli_render_version(struct outbuf *b);

/* describe.c */
bool cli_describe_tensor(const struct tensor_args *a, struct tensor_desc *out, struct cli_error *e);
/* Name of a memory order: "nhwc", "row-major", "0,2,1,3,4,5". */
void cli_layout_name(struct outbuf *b, unsigned rank, const unsigned order[]);

/* A command: one entry each, defined in its cmd_*.c, listed once in
 * commands.c. The dispatcher, `--help`, the formats --format accepts and
 * batch's "command" key all walk that list. */
struct command {
    const char *name;     /* dmltensor NAME */
    enum command_id id;   /* the bit its options carry (options.c) */
    const char *summary;  /* its line in `dmltensor --help` */
    const char *usage;    /* after "Usage: " */
    const char *about;    /* what it does: lines of at most 79 columns */
    const char *examples; /* "  dmltensor ..." lines, run by docs/help_examples */
    /* FMT_BIT()s of the formats it prints (0: no --format), and --format's
     * help for it: each of those names, with what it prints. */
    unsigned formats;
    const char *format_help;
    /* Its format without --format (FMT_TEXT unless set). With a JSON one,
     * every error of it is also an object on stdout, the parser's too. */
    enum format default_format;
    enum { ARGS_NONE, ARGS_FILE, ARGS_FILES } args; /* FILE or - (one, or any number) */
    bool batch;       /* batch records may name it ("command": NAME) */
    bool text_errors; /* its errors go to stderr alone, whatever its --format */
    bool tensor;      /* describes a tensor: takes the tensor options (--sizes, ...) */
    /* The variables --format c declares, after --name's prefix
     * ("Sizes, Strides, BufferDesc"): --name's hint lists them. */
    const char *c_variables;
    /* Runs the command into out. Long outputs (locate, map, batch) are
     * written to stdout as they grow (cli_drain); a failed write is reported
     * through e with exit status 3. */
    bool (*run)(struct cli_config *cfg, struct outbuf *out, struct cli_error *e);
};

/* commands.c: the commands, in the order `dmltensor --help` lists them. */
extern const struct command *const cli_commands[];
extern const size_t cli_n_commands;
/* The entry of a command, by name (NULL if none) or by id. */
const struct command *cli_command_named(const char *name);
const struct command *cli_command_of(enum command_id id);

/* The entry of a command in l, by name or by id; NULL if none. */
static inline const struct command *command_named(const struct command_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(name, l->at[i]->name) == 0)
            return l->at[i];
    return NULL;
}
static inline const struct command *command_of(const struct command_list *l, enum command_id id)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->at[i]->id == id)
            return l->at[i];
    return NULL;
}

/* Each command's entry, in its cmd_*.c. */
#define COMMAND(ID, name) extern const struct command cli_cmd_##name;
#include "commands.def"
#undef COMMAND

/* The opening brace of a command's JSON result object, unless batch has
 * written it already with the record's id (cfg->json_opened). */
static inline void cli_json_open(const struct cli_config *cfg, struct outbuf *b)
{
    if (!cfg->json_opened)
        ob_putc(b, '{');
}

/* The whole command line: parse argv, run, write to out/err. Returns the
 * exit status. main() calls it with the standard streams. */
int cli_main(int argc, char **argv, FILE *in, FILE *out, FILE *err);

#endif
