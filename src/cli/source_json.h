/* source_json.h - descriptors from JSON: a `batch` record or an object
 * `scan` found (source_json.c). */
#ifndef DMLT_SOURCE_JSON_H
#define DMLT_SOURCE_JSON_H

#include "descriptor.h"
#include "json_parse.h"

/* Reads obj into d. False with e filled (key named) for a bad key or value. */
bool cli_descriptor_from_json(const cJSON *obj, enum descriptor_mode mode, struct descriptor *d,
                              struct cli_error *e);

/* The same as cli_descriptor_from_json() on the tree of the record text[0..len),
 * without building the tree, for the records batch sees most: one flat
 * object of known keys with ASCII strings without escapes, integers without
 * sign, fraction or exponent, and lists of those. False, with d in no
 * particular state, for anything else, including every record that
 * cli_descriptor_from_json() would refuse: the caller then takes the general
 * path, which words the error. */
bool cli_descriptor_from_plain(const char *text, size_t len, struct descriptor *d);

#endif
