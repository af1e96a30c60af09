/* options.h - the option table's entry (options.c): what --help, the parser
 * and tools/dump_tables.c (the man page, docs/cli.md and the completions,
 * through tools/gen_docs.py) read. */
#ifndef DMLT_OPTIONS_H
#define DMLT_OPTIONS_H

#include "cli.h"

#include <stdint.h>

enum opt_group {
    GROUP_TENSOR,
    GROUP_LAYOUT,
    GROUP_BUFFER,
    GROUP_QUERY,
    GROUP_OPERATIONS,
    GROUP_OUTPUT,
    GROUP_OTHER
};

/* What an option's value is and where it lands in struct cli_config (at:
 * its offsetof, as curl's option table does). Only a repeatable kind may be
 * given twice; the parser refuses any other the second time. */
enum opt_kind {
    OPT_FLAG,       /* bool at `at`; takes no value */
    OPT_VALUE,      /* const char * at `at` */
    OPT_REPEAT,     /* const char *[MAX_REPEAT] at `at`, its unsigned count at `count` */
    OPT_REPEAT_ANY, /* const char ** at `at`, room for every argument; count at `count` */
    OPT_OPERATION   /* view: op_text[] in the order given, op_kind[] its `op` */
};

/* The numbers an option's value holds, min..max each: what the tests
 * check from the table (tools/dump_tables.c prints it; cli/hostile gives
 * every numeric option of every command bad numbers, and wants its
 * message to give the same largest value). The command reads the value
 * itself, with the same bounds; an index's bound is its tensor's. */
enum opt_number {
    OPT_NUM_NONE,  /* no number: a name, a flag, or its own syntax (--slice, --feature-level) */
    OPT_NUM_ONE,   /* one decimal number: --top 5 */
    OPT_NUM_LIST,  /* a comma list of them: --sizes 2,3 */
    OPT_NUM_NAMED, /* NAME=number: --dim N=8, --pad w=2 */
    OPT_NUM_NAMED_LIST,   /* NAME=list: --shape x=1,3 */
    OPT_NUM_SIGNED_LIST,  /* a list whose items may be -1: --reshape 3,-1 */
    OPT_NUM_NAMED_SIGNED, /* NAME=integer, negative from the end: --select h=-1 (no min, max) */
    OPT_NUM_DIMS, /* dimension indices, or the rank's letters: --broadcast 0,2 (no min, max) */
};

struct opt_def {
    const char *name;
    const char *metavar; /* NULL: takes no value (OPT_FLAG) */
    enum opt_kind kind;
    size_t at, count;     /* offsetof(struct cli_config, ...) */
    enum view_op_kind op; /* OPT_OPERATION: which */
    enum opt_group group;
    unsigned commands; /* CMD_BIT()s of the commands taking it */
    /* One line for --help. NULL: each command's own (struct command's
     * format_help), and the option belongs only to the commands that have
     * one (--format). */
    const char *help;
    /* The keys batch and scan read for this option (on the first entry of
     * a name only; NULL for none): snake_case, and DirectML's field name
     * (DML_BUFFER_TENSOR_DESC), which scan reads too. */
    const char *key, *directml_key;
    enum opt_number number; /* OPT_NUM_NONE: not a number */
    uint64_t min, max;
};

/* The table, in its order; the title of a group (--help's heading); the
 * name of a format (NULL past the last). For tools/dump_tables.c. */
size_t cli_options(const struct opt_def **table);
const char *cli_option_group_title(enum opt_group group);
const char *cli_format_name(enum format fmt);
/* The entry for the option `name` (len bytes) that belongs to cmd, else
 * any entry of that name, else NULL. */
const struct opt_def *cli_find_option(const char *name, size_t len, const struct command *cmd);
/* cfg->format_text as one of the formats `prints` (FMT_BIT()s) names:
 * cfg->format, or bad_format listing them. */
bool cli_format_parse(struct cli_config *cfg, unsigned prints, struct cli_error *e);
/* Whether command cmd takes the option, and its help there. */
bool cli_option_of(const struct opt_def *o, const struct command *cmd);
const char *cli_option_help(const struct opt_def *o, const struct command *cmd);

#endif
