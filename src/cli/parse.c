/* parse.c - see parse.h. */
#include "parse.h"
#include "dml_operators.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

bool cli_parse_uint(const char *text, size_t len, uint64_t min, uint64_t max, uint64_t *out,
                    struct cli_error *e, const char *option, const char *whole, const char *what,
                    const char *range_noun)
{
    const char *subject = what ? what : "the value";
    if (len == 0)
        return cli_fail(e, CLI_E_EMPTY_FIELD, option, whole, "%s is empty", subject);
    uint64_t v = 0;
    bool over = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c < '0' || c > '9') {
            cli_fail(e, CLI_E_BAD_NUMBER, option, whole, "%s \"%.*s\" is not a decimal number",
                     subject, (int)(len > 40 ? 40 : len), text);
            if (c == '-' || c == '+')
                cli_hint(e, "numbers take no sign");
            else if (c == ' ' || c == '\t')
                cli_hint(e, "write lists without spaces, like 1,3,224,224");
            else if (len > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
                cli_hint(e, "numbers are decimal; hexadecimal is not accepted");
            return false;
        }
        unsigned digit = (unsigned)(c - '0');
        if (v > (UINT64_MAX - digit) / 10)
            over = true;
        else
            v = v * 10 + digit;
    }
    if (over || v > max || v < min) {
        char range[80];
        if (range_noun)
            snprintf(range, sizeof range, "%s are %" PRIu64 "..%" PRIu64, range_noun, min, max);
        else
            snprintf(range, sizeof range, "allowed: %" PRIu64 "..%" PRIu64, min, max);
        if (over || v > max)
            return cli_fail(e, CLI_E_OUT_OF_RANGE, option, whole,
                            "%s is %.*s, over %" PRIu64 " (%s)", subject,
                            (int)(len > 40 ? 40 : len), text, max, range);
        return cli_fail(e,
                        v == 0 && range_noun && strcmp(range_noun, "sizes") == 0
                            ? CLI_E_ZERO_SIZE
                            : CLI_E_OUT_OF_RANGE,
                        option, whole, "%s is %" PRIu64 " (%s)", subject, v, range);
    }
    *out = v;
    return true;
}

bool cli_parse_uint_list(const char *option, const char *text, uint64_t min, uint64_t max,
                         unsigned max_count, uint64_t out[], unsigned *count, struct cli_error *e,
                         const char *item_name, const char *range_noun)
{
    *count = 0;
    if (text[0] == '\0')
        return cli_fail(e, CLI_E_EMPTY_FIELD, option, text,
                        "empty list (expected numbers like 1,3,224,224)");
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (*count == max_count) {
            unsigned total = *count;
            for (const char *q = p; q; q = strchr(q, ','), q = q ? q + 1 : q)
                total++;
            return cli_fail(e, CLI_E_TOO_MANY_DIMS, option, text,
                            "%u values; at most %u are allowed (rank is 1..%u)", total, max_count,
                            max_count);
        }
        /* The common case without building the message's words. */
        uint64_t v = 0;
        size_t i = 0;
        while (i < len && i < 19 && p[i] >= '0' && p[i] <= '9')
            v = v * 10 + (uint64_t)(p[i++] - '0');
        if (i == len && len > 0 && v >= min && v <= max) {
            out[*count] = v;
        } else {
            char what[40];
            snprintf(what, sizeof what, "%s %u", item_name, *count);
            if (!cli_parse_uint(p, len, min, max, &out[*count], e, option, text, what, range_noun))
                return false;
        }
        (*count)++;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

void cli_dim_name(char buf[8], unsigned rank, unsigned d)
{
    const char *letters = dmlt_dim_letters(rank);
    if (letters && d < rank)
        snprintf(buf, 8, "%c", letters[d]);
    else
        snprintf(buf, 8, "%u", d);
}

bool cli_parse_dim(const char *text, size_t len, unsigned rank, unsigned *dim, struct cli_error *e,
                   const char *option, const char *whole)
{
    const char *letters = dmlt_dim_letters(rank);
    if (len == 1 && letters) {
        char c = ascii_lower(text[0]);
        const char *p = c ? strchr(letters, c) : NULL;
        if (p) {
            *dim = (unsigned)(p - letters);
            return true;
        }
    }
    if (len > 0 && text[0] >= '0' && text[0] <= '9') {
        uint64_t v = 0;
        if (!cli_parse_uint(text, len, 0, rank - 1, &v, e, option, whole, "the dimension index",
                            NULL)) {
            cli_hint(e, "dimensions are 0..%u for rank %u", rank - 1, rank);
            return false;
        }
        *dim = (unsigned)v;
        return true;
    }
    cli_fail(e, CLI_E_BAD_DIMENSION, option, whole,
             "\"%.*s\" is not a dimension of a rank-%u tensor", (int)(len > 40 ? 40 : len), text,
             rank);
    if (letters)
        cli_hint(e, "use the letters %s or indices 0..%u", letters, rank - 1);
    else
        cli_hint(e, "rank %u has no letters; use indices 0..%u", rank, rank - 1);
    return false;
}

bool cli_parse_dim_set(const char *option, const char *text, unsigned rank, bool set[DMLT_MAX_RANK],
                       struct cli_error *e)
{
    if (text[0] == '\0')
        return cli_fail(e, CLI_E_EMPTY_FIELD, option, text, "no dimension given");
    const char *p = text;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0)
            return cli_fail(e, CLI_E_EMPTY_FIELD, option, text, "empty item in the list");
        bool digits = p[0] >= '0' && p[0] <= '9';
        /* "hw" is two letters; "12" is one index. */
        size_t step = digits ? len : 1;
        for (size_t i = 0; i < len; i += step) {
            unsigned d;
            if (!cli_parse_dim(p + i, step, rank, &d, e, option, text))
                return false;
            set[d] = true;
        }
        if (!comma)
            return true;
        p = comma + 1;
    }
}

/* Edit distance, for "did you mean" hints on short names. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    size_t row[41];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *cli_suggest(const char *text, const char *const names[], size_t count)
{
    const char *best = NULL;
    size_t best_d = 3; /* at most two edits away */
    for (size_t i = 0; i < count; i++) {
        size_t d = distance(text, names[i]);
        if (d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

bool cli_parse_feature_level(const char *text, unsigned *level, struct cli_error *e)
{
    char newest[40];
    unsigned nl = dmlt_dml_newest_level();
    snprintf(newest, sizeof newest, "DML_FEATURE_LEVEL_%u_%u", DMLT_DML_LEVEL_MAJOR(nl),
             DMLT_DML_LEVEL_MINOR(nl));
    if (text == NULL) {
        *level = dmlt_dml_newest_level();
        return true;
    }
    *level = dmlt_dml_level_parse(text);
    if (*level == 0 || !dmlt_dml_level_known(*level)) {
        cli_fail(e, CLI_E_BAD_FEATURE_LEVEL, "--feature-level", text,
                 "not a DML_FEATURE_LEVEL (1_0, 2_0, 2_1, 3_0, 3_1, 4_0, 4_1, 5_0, 5_1, 5_2, "
                 "6_0 .. 6_4)");
        cli_hint(e, "write it as 5_1, 5.1 or DML_FEATURE_LEVEL_5_1");
        return false;
    }
    if (*level > dmlt_dml_newest_level()) {
        cli_fail(e, CLI_E_BAD_FEATURE_LEVEL, "--feature-level", text,
                 "newer than the tables, which end at %s", newest);
        cli_hint(e, "leave --feature-level out to check at %s", newest);
        return false;
    }
    return true;
}
