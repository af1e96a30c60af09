/* options.h - the option table's entry (options.c): what --help, the parser
 * and tools/dump_tables.c (the man page, docs/cli.md and the completions,
 * through tools/gen_docs.py) read. */
#ifndef DMLT_OPTIONS_H
#define DMLT_OPTIONS_H

#include "cli.h"

enum opt_id {
    OPT_ALIGNMENT,
    OPT_BASE_OFFSET,
    OPT_BINDING_SIZE,
    OPT_BROADCAST,
    OPT_BUFFER_SIZE,
    OPT_BYTE_OFFSET,
    OPT_CHECKS,
    OPT_COLOR,
    OPT_COORD,
    OPT_DIM,
    OPT_DTYPE,
    OPT_FIELD,
    OPT_FLAGS,
    OPT_FORMAT,
    OPT_HELP,
    OPT_LAYOUT,
    OPT_LIMIT,
    OPT_NO_INFER,
    OPT_IO,
    OPT_SKIP_UNKNOWN,
    OPT_NAME,
    OPT_OFFSET,
    OPT_ORDER,
    OPT_PAD,
    OPT_PROGRESS,
    OPT_RANK,
    OPT_ROW_PITCH_ALIGN,
    OPT_SHAPE,
    OPT_SIZES,
    OPT_STRICT,
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
    /* The keys batch and scan read for this option (on the first entry of
     * a name only; NULL for none): snake_case, and DirectML's field name
     * (DML_BUFFER_TENSOR_DESC), which scan reads too. */
    const char *key, *directml_key;
};

/* The table, in its order; the title of a group (--help's heading); the
 * name of a format (NULL past the last). For tools/dump_tables.c. */
size_t cli_options(const struct opt_def **table);
const char *cli_option_group_title(enum opt_group group);
const char *cli_format_name(enum format fmt);

#endif
