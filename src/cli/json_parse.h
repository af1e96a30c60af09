/* json_parse.h - the JSON reader of `batch` and `scan`: strict JSON (RFC
 * 8259) into a cJSON tree, its nodes from the caller's arena or from
 * malloc (no process-wide cJSON hook), and every number kept as the text
 * it was written as, for it to be read exactly (cJSON's doubles round past
 * 2^53).
 *
 * Strict: white space is space, tab, newline and carriage return only; a
 * string holds no raw control byte (U+0000..U+001F) and no \u0000 (a C
 * string would end there) nor a lone UTF-16 surrogate; numbers have no
 * leading zero and digits after '.' and 'e'; nothing but white space after
 * the value. Bytes that are not valid UTF-8 pass through (the output
 * writers replace them with U+FFFD). */
#ifndef DMLT_JSON_PARSE_H
#define DMLT_JSON_PARSE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 1000 /* lists and objects nested deeper are refused */

/* The byte classes every JSON scanner here uses (json_parse.c, and the
 * plain path of source_json.c): one table look-up per byte. */
enum {
    JSON_CC_SPACE = 1,      /* JSON white space: ' ', '\t', '\n', '\r' */
    JSON_CC_STRING_END = 2, /* stops a run of plain string bytes: '"', '\\', a control byte */
    JSON_CC_DIGIT = 4       /* '0'..'9' */
};
extern const unsigned char cli_json_char_class[256];

static inline bool json_is_space(char ch)
{
    return (cli_json_char_class[(unsigned char)ch] & JSON_CC_SPACE) != 0;
}

static inline bool json_is_digit(char ch)
{
    return (cli_json_char_class[(unsigned char)ch] & JSON_CC_DIGIT) != 0;
}

/* The first byte at or after p that is not white space (end at most). */
static inline const char *json_skip_space(const char *p, const char *end)
{
    while (p < end && json_is_space(*p))
        p++;
    return p;
}

/* The first byte at or after p that is not a digit (end at most). */
static inline const char *json_skip_digits(const char *p, const char *end)
{
    while (p < end && json_is_digit(*p))
        p++;
    return p;
}

/* Why text is not JSON: a phrase ("malformed JSON") and where (0-based). */
struct json_error {
    const char *message;
    size_t at;
};

/* Memory for the trees of many small documents (batch's records): blocks
 * handed out in order and taken back all at once. Zero-initialize it. */
struct json_arena {
    struct json_arena_block *head;
};
/* Takes back every tree parsed into a; keeps one block for the next. */
void cli_json_arena_reset(struct json_arena *a);
/* Frees every block. */
void cli_json_arena_free(struct json_arena *a);

/* Parses text[0..len) as one JSON value with only white space around it.
 * The tree's memory comes from arena (reset or free it; never cJSON_Delete
 * such a tree), or with arena NULL from cJSON's allocator (free the tree
 * with cJSON_Delete). A number node's valuestring is its text as written
 * (valuedouble is only cJSON's approximation). NULL, with err filled, if
 * the text is not JSON or memory ran out. */
cJSON *cli_json_parse(const char *text, size_t len, struct json_arena *arena,
                      struct json_error *err);

/* Whether err, from cli_json_parse() of text[0..len), still lets the text be
 * the start of JSON text (JSON Lines included): a value followed by more
 * (the next line's record), or, when cut (more bytes follow text), a value
 * the cut leaves unfinished (a string, a number, a literal, an escape, a
 * list or an object not yet closed). The sniff of an input's first bytes. */
bool cli_json_prefix_error(const char *text, size_t len, bool cut, const struct json_error *err);

/* The text, as written, of the value of the first member named key (the
 * name decoded: "\u0069d" is "id") of the object text[0..len), which
 * cli_json_parse() accepted: *start and its length *n, white space around it
 * left out. False when the text is no object or has no such member. The
 * names decoded come from arena (NULL: cJSON's allocator, freed here). */
bool cli_json_member_text(const char *text, size_t len, const char *key, struct json_arena *arena,
                          const char **start, size_t *n);

/* A number node's text, as written. */
static inline const char *json_number_text(const cJSON *number)
{
    return number->valuestring;
}

/* What a JSON number text denotes. */
enum json_integer {
    JSON_INTEGER,      /* a whole number of at least 0 (-0, 1e2, 10E-1, 1.50e1) */
    JSON_NOT_INTEGER,  /* a fraction, or a whole number below 0 */
    JSON_INTEGER_HUGE, /* a whole number of more than `cap` - 1 digits */
};

/* The number text num (valid JSON) read exactly: for JSON_INTEGER, its
 * decimal digits without leading zeros into buf, NUL-terminated, and their
 * count in *n. */
enum json_integer cli_json_integer_digits(const char *num, char *buf, size_t cap, size_t *n);

#endif
