/* descriptor.h - a tensor descriptor from an input (a `batch` record, an
 * object `scan` found; each source in its own source_*.c) turned into the
 * texts the command line would have given. The same parsers, checks and
 * messages then apply, and an error names the input's key instead of the
 * option. This header is what a descriptor is and how a source fills one;
 * it declares no reader (a source's reader is in its own header). */
#ifndef DMLT_DESCRIPTOR_H
#define DMLT_DESCRIPTOR_H

#include "cli.h"

#include <cjson/cJSON.h>

#define DESC_MAX_COORDS 256 /* coordinates one `offset` record may ask for */

struct descriptor {
    struct cli_config cfg; /* cmd, format json, the option texts */
    const cJSON *id;       /* "id", echoed into the result; NULL if none */
    /* Or, from cli_descriptor_from_plain(), the id's JSON text exactly as it
     * is to be echoed (an integer, or a string without escapes). */
    const char *id_text;
    size_t id_len;
    /* With explicit strides, "layout" and per-dim "broadcast" booleans (as
     * `size` prints them) describe the strides; they are checked against
     * them after the tensor is described. */
    const char *layout_check;
    int broadcast_check[DMLT_MAX_RANK]; /* -1 not given, else 0/1 */
    unsigned n_broadcast_check;
    /* For each option set, the key that set it, to name it in errors. */
    struct {
        const char *option, *key;
    } from[24];
    unsigned n_from;
    const char *coords[DESC_MAX_COORDS];
    /* The commands a record may name ("command") and cli_results_run() runs:
     * the reader's cfg->commands, set once (cli_descriptor_reset keeps it). */
    struct command_list commands;
    char arena[16 * 1024]; /* texts built from JSON lists and numbers */
    size_t used;
};

enum descriptor_mode {
    DESC_BATCH, /* every key must be known; "command" picks the command */
    DESC_SCAN   /* DirectML's keys only, others ignored; always validate */
};

/* What a key fills. */
enum desc_slot {
    DESC_DTYPE,
    DESC_SIZES,
    DESC_STRIDES,
    DESC_LAYOUT,
    DESC_ORDER,
    DESC_BROADCAST,
    DESC_PAD,
    DESC_RANK,
    DESC_ROW_PITCH,
    DESC_TOTAL,
    DESC_ALIGNMENT,
    DESC_BASE_OFFSET,
    DESC_FLAGS,
    DESC_COORD,
    DESC_COORDS,
    DESC_COMMAND,
    DESC_ID,
    DESC_DIMENSION_COUNT,
    DESC_BINDING_SIZE,
    DESC_BUFFER_SIZE,
    DESC_OPS,    /* view */
    DESC_IGNORED /* keys `size` prints that describe nothing new */
};

/* A key of a descriptor: its name, the slot it fills and the command-line
 * option it stands for (NULL for keys that are no option). */
struct desc_key {
    const char *name;
    enum desc_slot slot;
    const char *option;
    bool directml; /* a DML_BUFFER_TENSOR_DESC field name (scan reads these) */
};

/* Empties d for a new record: the default command (size; validate for
 * scan), JSON output, no texts. */
void cli_descriptor_reset(struct descriptor *d, enum descriptor_mode mode);

/* The key named name that mode reads, or NULL. */
const struct desc_key *cli_descriptor_key(const char *name, enum descriptor_mode mode);

/* The key closest to name, for a "did you mean" hint, or NULL. */
const char *cli_descriptor_suggest_key(const char *name);

/* Where a slot's text goes (an option text of d->cfg), or NULL for slots a
 * source handles itself (coordinates, command, id, ops, ...). */
const char **cli_descriptor_slot(struct descriptor *d, enum desc_slot s);

/* Notes that key set option, to name the key in an error about it. */
void cli_descriptor_remember(struct descriptor *d, const char *option, const char *key);

/* Texts built in d's arena: begin one, put bytes, end it with a NUL. False,
 * with e filled (too_long, key named), when the arena is full. */
char *cli_descriptor_text_begin(struct descriptor *d);
bool cli_descriptor_text_put(struct descriptor *d, const char *s, size_t n, const char *key,
                             struct cli_error *e);
bool cli_descriptor_text_end(struct descriptor *d, const char *key, struct cli_error *e);
bool cli_descriptor_too_long(const char *key, struct cli_error *e);

/* Once every key is read: with explicit strides, "layout" and broadcast
 * booleans only describe them (as `size` prints them): checked, not
 * applied. */
void cli_descriptor_describe_strides(struct descriptor *d);

/* After a command failed on d's texts: name the key instead of the option. */
void cli_descriptor_name_key(const struct descriptor *d, struct cli_error *e);

/* With explicit strides, checks "layout" and broadcast booleans against the
 * described tensor. */
bool cli_descriptor_check_described(struct descriptor *d, const struct tensor_desc *t,
                                    struct cli_error *e);

#endif
