/* descriptor.h - a tensor descriptor given as JSON (a `batch` record, or an
 * object `scan` found) turned into the texts the command line would have
 * given. The same parsers, checks and messages then apply, and an error
 * names the JSON key instead of the option. */
#ifndef DMLT_DESCRIPTOR_H
#define DMLT_DESCRIPTOR_H

#include "cli.h"

#include <cjson/cJSON.h>

#define DESC_MAX_COORDS 256 /* coordinates one `offset` record may ask for */

struct descriptor {
    struct cli_config cfg; /* cmd, format json, the option texts */
    const cJSON *id;       /* "id", echoed into the result; NULL if none */
    /* Or, from descriptor_from_plain(), the id's JSON text exactly as it
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
    char arena[16 * 1024]; /* texts built from JSON lists and numbers */
    size_t used;
};

enum descriptor_mode {
    DESC_BATCH, /* every key must be known; "command" picks the command */
    DESC_SCAN   /* DirectML's keys only, others ignored; always validate */
};

/* Reads obj into d. False with e filled (key named) for a bad key or value. */
bool descriptor_from_json(const cJSON *obj, enum descriptor_mode mode, struct descriptor *d,
                          struct cli_error *e);

/* The same as descriptor_from_json() on the tree of the record text[0..len),
 * without building the tree, for the records batch sees most: one flat
 * object of known keys with ASCII strings without escapes, integers without
 * sign, fraction or exponent, and lists of those. False, with d in no particular state, for
 * anything else, including every record that descriptor_from_json() would
 * refuse: the caller then takes the general path, which words the error. */
bool descriptor_from_plain(const char *text, size_t len, struct descriptor *d);

/* After a command failed on d's texts: name the key instead of the option. */
void descriptor_name_key(const struct descriptor *d, struct cli_error *e);

/* With explicit strides, checks "layout" and broadcast booleans against the
 * described tensor. */
bool descriptor_check_described(struct descriptor *d, const struct tensor_desc *t,
                                struct cli_error *e);

#endif
