/* json_fast.h - a parser for the plain JSON a batch record almost always
 * is: objects, arrays, strings without escapes, integers of up to 15 digits,
 * true, false, null. It builds the same cJSON tree cJSON_Parse would (nodes
 * from cJSON's allocation hooks), about five times faster; anything else
 * (an escape, a fraction, an exponent, a long number, an error) makes it
 * return NULL so that cJSON's own parser takes the record, errors included.
 * tests/fuzz/fuzz_json.c checks that both parsers build equal trees. */
#ifndef DMLT_JSON_FAST_H
#define DMLT_JSON_FAST_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Parses text[0..len) as one JSON value with only white space around it.
 * Free the tree with cJSON_Delete. NULL: use cJSON_ParseWithLengthOpts. */
cJSON *json_fast_parse(const char *text, size_t len);

/* What cJSON accepts but JSON does not, or what a C string cannot hold:
 * a number with a leading zero ("01") or a bare dot ("1."), and a string
 * with \u0000 in it (cJSON would cut the string there). Returns a message
 * for the first such thing, and its byte offset in *at, or NULL. */
const char *json_strict_problem(const char *text, size_t len, size_t *at);

#endif
