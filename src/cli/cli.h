/* cli.h - the parsed command line. Options are read into raw texts first
 * (options.c), then turned into a tensor description (describe.c), so each
 * message can name the option and the exact text at fault. */
#ifndef DMLT_CLI_H
#define DMLT_CLI_H

#include "errors.h"

enum command { CMD_NONE = 0, CMD_SIZE };
#define CMD_BIT(c) (1u << (c))

enum format { FMT_TEXT, FMT_JSON, FMT_ENV };

#define MAX_REPEAT 16

struct tensor_args {
    const char *dtype, *sizes, *strides, *layout, *order, *rank;
    const char *row_pitch_align, *total_size;
    const char *broadcast[MAX_REPEAT];
    const char *pad[MAX_REPEAT];
    unsigned n_broadcast, n_pad;
};

struct cli_config {
    enum command cmd;
    const char *cmd_name;
    enum format format;
    const char *format_text, *field;
    bool help;
    struct tensor_args t;
};

/* A tensor and what the user asked for, ready for the core and renderers. */
struct tensor_desc {
    struct dmlt_tensor t;
    bool has_total;
    uint64_t total;
    bool layout_requested;         /* from --layout/--order or default */
    unsigned order[DMLT_MAX_RANK]; /* the requested memory order */
    bool strides_given;
};

/* options.c */
bool parse_command_line(int argc, char **argv, struct cli_config *cfg, struct cli_error *e);
enum format format_from_argv(int argc, char **argv);
void render_main_help(struct outbuf *b);
void render_command_help(struct outbuf *b, enum command cmd);
void render_version(struct outbuf *b);

/* describe.c */
bool describe_tensor(const struct tensor_args *a, struct tensor_desc *out, struct cli_error *e);
/* Name of a memory order: "nhwc", "row-major", "0,2,1,3,4,5". */
void layout_name(struct outbuf *b, unsigned rank, const unsigned order[]);

/* render_size.c */
bool run_size(const struct cli_config *cfg, struct outbuf *out, struct cli_error *e);

#endif
