/* parse.h - strict parsing of the numbers and lists the options take:
 * decimal digits only, no sign, no spaces, no empty fields, range-checked. */
#ifndef DMLT_PARSE_H
#define DMLT_PARSE_H

#include "errors.h"

/* Parses text[0..len) as a decimal integer in min..max. On failure fills e
 * naming `option` and `whole` (the option's full text) and what is wrong;
 * `what` names the field ("dimension 2") or is NULL for a lone number;
 * `range_noun` words the range ("sizes" -> "sizes are 1..4294967295"). */
bool cli_parse_uint(const char *text, size_t len, uint64_t min, uint64_t max, uint64_t *out,
                    struct cli_error *e, const char *option, const char *whole, const char *what,
                    const char *range_noun);

/* A comma-separated list of up to max_count integers in min..max. */
bool cli_parse_uint_list(const char *option, const char *text, uint64_t min, uint64_t max,
                         unsigned max_count, uint64_t out[], unsigned *count, struct cli_error *e,
                         const char *item_name, const char *range_noun);

/* One dimension of a tensor of `rank`: a letter of the rank's names or a
 * 0-based index. */
bool cli_parse_dim(const char *text, size_t len, unsigned rank, unsigned *dim, struct cli_error *e,
                   const char *option, const char *whole);

/* "n", "h,w", "hw", "0,2": a set of dimensions. */
bool cli_parse_dim_set(const char *option, const char *text, unsigned rank, bool set[DMLT_MAX_RANK],
                       struct cli_error *e);

/* ASCII case mapping (not <ctype.h>: no locale, no int round trip). */
static inline char ascii_lower(char c)
{
    if (c >= 'A' && c <= 'Z')
        return (char)(c + ('a' - 'A'));
    return c;
}
static inline char ascii_upper(char c)
{
    if (c >= 'a' && c <= 'z')
        return (char)(c - ('a' - 'A'));
    return c;
}

/* Name of dimension d for messages: its letter, or its index. */
void cli_dim_name(char buf[8], unsigned rank, unsigned d);

/* --feature-level (validate --operator, nodes): TEXT ("5_1", "5.1",
 * "DML_FEATURE_LEVEL_5_1"; NULL: the newest the tables hold) into
 * *level (0x5100); an error naming the option when it is not a level the
 * tables know. */
bool cli_parse_feature_level(const char *text, unsigned *level, struct cli_error *e);

/* Closest of `names` to `text` when it is a likely typo, else NULL. */
const char *cli_suggest(const char *text, const char *const names[], size_t count);

#endif
