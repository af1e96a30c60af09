/* fuzz_parse.c - the parsers of numbers, lists, dimensions and names, each
 * against a small independent reference, and the formatters they pair with.
 *
 * Input: byte 0 picks the parser, byte 1 a parameter (a range, a rank, a
 * count), the rest is the text. Invariants:
 *  - cli_parse_uint accepts exactly the nonempty all-digit texts in min..max,
 *    with the right value; a canonical text (no leading zero) printed back
 *    in decimal is the text itself; each refusal has the expected error id,
 *    a message, and renders as "dmltensor: ..." text and as a JSON error
 *    object that cJSON reads back;
 *  - cli_parse_uint_list is the same per field, fails on the first bad field or
 *    on field max_count+1, and joins back to the text when canonical;
 *  - cli_parse_dim, cli_parse_dim_set: as the reference; cli_dim_name() reads back;
 *  - suggest: the first name at the least edit distance, when under 3;
 *  - dmlt_dtype_parse, dmlt_layout_parse: case-insensitive; a parsed
 *    layout is a permutation whose name (cli_layout_name) parses back to it;
 *  - cli_fmt_u128 round-trips; cli_ob_json_str is JSON for any bytes, and decodes
 *    to them; cli_ob_quoted_text has no control bytes, escapes C0, C1, DEL,
 *    bidi and zero-width characters and bytes that are not UTF-8.
 */
#include "fuzz.h"

#include "cli.h"
#include "parse.h"

#include <cjson/cJSON.h>
#include <string.h>

/* Reference arithmetic: the compiler's unsigned __int128, independent of
 * the library's dmlt_u128 code (pure 64-bit words on the portable build). */
__extension__ typedef unsigned __int128 ref_u128;

static dmlt_u128 P(ref_u128 v)
{
    dmlt_u128 r = {(uint64_t)v, (uint64_t)(v >> 64)};
    return r;
}

static const struct {
    uint64_t min, max;
    const char *noun;
} ranges[] = {
    {0, UINT64_MAX, NULL},
    {1, UINT32_MAX, "sizes"},
    {0, UINT32_MAX, "strides"},
    {1, 8, NULL},
    {0, 7, NULL},
    {0, 0, NULL},
    {5, 5, NULL},
    {1, UINT64_MAX, NULL},
    {UINT64_MAX, UINT64_MAX, NULL},
    {10, 1000000, "sizes"},
};
#define N_RANGES (sizeof ranges / sizeof ranges[0])

/* Reference UTF-8 check, by code point: the length of the valid sequence
 * at p, or 0 (bad lead or continuation byte, overlong, surrogate, past
 * U+10FFFF, or cut short by the NUL). */
static size_t ref_utf8_len(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    size_t n = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC0 ? 2 : 0;
    if (n == 0 || p[0] >= 0xF8)
        return 0;
    uint32_t cp = p[0] & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3Fu);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

static char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

static char upper(char c)
{
    return (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* ---- reference number parser ------------------------------------------ */

enum ref_result { REF_OK, REF_EMPTY, REF_BAD, REF_OVER, REF_UNDER };

static enum ref_result ref_uint(const char *t, size_t len, uint64_t min, uint64_t max,
                                uint64_t *out)
{
    if (len == 0)
        return REF_EMPTY;
    ref_u128 v = 0;
    bool big = false;
    for (size_t i = 0; i < len; i++) {
        if (!is_digit(t[i]))
            return REF_BAD;
        if (!big)
            v = v * 10 + (unsigned)(t[i] - '0');
        if (v > UINT64_MAX)
            big = true;
    }
    if (big || v > max)
        return REF_OVER;
    if (v < min)
        return REF_UNDER;
    *out = (uint64_t)v;
    return REF_OK;
}

static const char *ref_id(enum ref_result r, uint64_t min, const char *noun, const char *t,
                          size_t len)
{
    switch (r) {
    case REF_EMPTY:
        return "empty_field";
    case REF_BAD:
        return "bad_number";
    case REF_OVER:
        return "out_of_range";
    case REF_UNDER: {
        /* the value is below min: zero_size when it is 0 and a size */
        bool zero = true;
        for (size_t i = 0; i < len; i++)
            zero = zero && t[i] == '0';
        (void)min;
        return zero && noun && strcmp(noun, "sizes") == 0 ? "zero_size" : "out_of_range";
    }
    case REF_OK:
        break;
    }
    return NULL;
}

static bool canonical(const char *t, size_t len)
{
    return len > 0 && (t[0] != '0' || len == 1);
}

/* ---- error rendering ----------------------------------------------------- */

static void check_error(const struct cli_error *e, const char *id, const char *option)
{
    FUZZ_CHECK(e->exit_code == CLI_EXIT_USAGE);
    FUZZ_CHECK(e->id != NULL && strcmp(e->id, id) == 0);
    FUZZ_CHECK(e->option == option);
    FUZZ_CHECK(memchr(e->message, '\0', sizeof e->message) != NULL && e->message[0] != '\0');
    FUZZ_CHECK(memchr(e->hint, '\0', sizeof e->hint) != NULL);

    struct outbuf b;
    cli_ob_init(&b);
    cli_render_error_text(&b, e);
    FUZZ_CHECK(!b.failed && b.len > 12 && memcmp(b.data, "dmltensor: ", 11) == 0);
    FUZZ_CHECK(b.data[b.len - 1] == '\n');
    cli_ob_reset(&b);
    cli_render_error_json(&b, e);
    FUZZ_CHECK(!b.failed && b.len > 2 && b.data[b.len - 1] == '\n');
    cJSON *j = cJSON_ParseWithLength(b.data, b.len);
    FUZZ_CHECK(j != NULL);
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
    const cJSON *jid = cJSON_GetObjectItemCaseSensitive(err, "id");
    FUZZ_CHECK(cJSON_IsString(jid) && strcmp(jid->valuestring, id) == 0);
    FUZZ_CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(err, "message")));
    cJSON_Delete(j);
    cli_ob_free(&b);
}

/* ---- the targets --------------------------------------------------------- */

static void fuzz_uint(uint8_t param, const char *text, size_t len, const char *whole)
{
    uint64_t min = ranges[param % N_RANGES].min, max = ranges[param % N_RANGES].max;
    const char *noun = ranges[param % N_RANGES].noun;
    const char *what = (param & 0x80) ? "dimension 2" : NULL;
    uint64_t want = 0, got = 0;
    struct cli_error e;
    memset(&e, 0, sizeof e);
    enum ref_result r = ref_uint(text, len, min, max, &want);
    bool ok = cli_parse_uint(text, len, min, max, &got, &e, "--opt", whole, what, noun);
    FUZZ_CHECK(ok == (r == REF_OK));
    if (ok) {
        FUZZ_CHECK(got == want && got >= min && got <= max);
        char buf[48];
        size_t n = cli_fmt_u128(buf, dmlt_u128_from_u64(got));
        /* Printed back: the text itself when canonical, else without its
         * leading zeros. */
        size_t z = 0;
        while (z + 1 < len && text[z] == '0')
            z++;
        FUZZ_CHECK(n == len - z && memcmp(buf, text + z, n) == 0);
        if (canonical(text, len))
            FUZZ_CHECK(z == 0);
        return;
    }
    check_error(&e, ref_id(r, min, noun, text, len), "--opt");
    FUZZ_CHECK(e.text == whole);
}

static void fuzz_list(uint8_t param, const char *text)
{
    uint64_t min = ranges[param % N_RANGES].min, max = ranges[param % N_RANGES].max;
    const char *noun = ranges[param % N_RANGES].noun;
    unsigned max_count = 1u + (param >> 4) % DMLT_MAX_RANK;
    uint64_t got[DMLT_MAX_RANK], want[DMLT_MAX_RANK];
    unsigned count = 99;
    struct cli_error e;
    memset(&e, 0, sizeof e);
    bool ok =
        cli_parse_uint_list("--list", text, min, max, max_count, got, &count, &e, "item", noun);

    /* Reference: fields between commas; the first failure decides. */
    const char *id = NULL;
    unsigned n = 0;
    if (text[0] == '\0') {
        id = "empty_field";
    } else {
        const char *p = text;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            if (n == max_count) {
                id = "too_many_dims";
                break;
            }
            enum ref_result r = ref_uint(p, len, min, max, &want[n]);
            if (r != REF_OK) {
                id = ref_id(r, min, noun, p, len);
                break;
            }
            n++;
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    FUZZ_CHECK(ok == (id == NULL));
    if (!ok) {
        check_error(&e, id, "--list");
        return;
    }
    FUZZ_CHECK(count == n && n >= 1 && n <= max_count);
    /* Joined back in decimal: the text, when every field is canonical. */
    char joined[DMLT_MAX_RANK * 41];
    size_t len = 0;
    for (unsigned i = 0; i < n; i++) {
        FUZZ_CHECK(got[i] == want[i]);
        if (i)
            joined[len++] = ',';
        len += cli_fmt_u128(joined + len, dmlt_u128_from_u64(got[i]));
    }
    bool canon = true;
    for (const char *p = text; *p; p++)
        if (*p == '0' && (p == text || p[-1] == ',') && is_digit(p[1]))
            canon = false;
    if (canon)
        FUZZ_CHECK(len == strlen(text) && memcmp(joined, text, len) == 0);
}

/* Reference for one dimension: a letter of the rank, or an index. */
static bool ref_dim(const char *t, size_t len, unsigned rank, unsigned *d, const char **id)
{
    const char *letters = dmlt_dim_letters(rank);
    if (len == 1 && letters && t[0] != '\0') {
        const char *p = strchr(letters, lower(t[0]));
        if (p) {
            *d = (unsigned)(p - letters);
            return true;
        }
    }
    if (len > 0 && is_digit(t[0])) {
        uint64_t v;
        enum ref_result r = ref_uint(t, len, 0, rank - 1, &v);
        if (r == REF_OK) {
            *d = (unsigned)v;
            return true;
        }
        *id = ref_id(r, 0, NULL, t, len);
        return false;
    }
    *id = "bad_dimension";
    return false;
}

static void fuzz_dim(uint8_t param, const char *text, size_t len, const char *whole)
{
    unsigned rank = 1u + param % DMLT_MAX_RANK;
    unsigned got = 99, want = 99;
    const char *id = NULL;
    struct cli_error e;
    memset(&e, 0, sizeof e);
    bool ok = cli_parse_dim(text, len, rank, &got, &e, "--dim", whole);
    bool ref = ref_dim(text, len, rank, &want, &id);
    FUZZ_CHECK(ok == ref);
    if (ok)
        FUZZ_CHECK(got == want && got < rank);
    else
        check_error(&e, id, "--dim");
    /* Every dimension's name reads back as that dimension. */
    for (unsigned d = 0; d < rank; d++) {
        char name[8];
        cli_dim_name(name, rank, d);
        FUZZ_CHECK(cli_parse_dim(name, strlen(name), rank, &got, &e, "--dim", name) && got == d);
    }
}

static void fuzz_dim_set(uint8_t param, const char *text)
{
    unsigned rank = 1u + param % DMLT_MAX_RANK;
    bool got[DMLT_MAX_RANK] = {false}, want[DMLT_MAX_RANK] = {false};
    struct cli_error e;
    memset(&e, 0, sizeof e);
    bool ok = cli_parse_dim_set("--set", text, rank, got, &e);

    const char *id = NULL;
    if (text[0] == '\0')
        id = "empty_field";
    for (const char *p = text; id == NULL;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == 0) {
            id = "empty_field";
            break;
        }
        size_t step = is_digit(p[0]) ? len : 1; /* "12" is an index, "hw" two letters */
        for (size_t i = 0; i < len && id == NULL; i += step) {
            unsigned d;
            if (ref_dim(p + i, step, rank, &d, &id))
                want[d] = true;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    FUZZ_CHECK(ok == (id == NULL));
    if (!ok) {
        check_error(&e, id, "--set");
        return;
    }
    for (unsigned d = 0; d < DMLT_MAX_RANK; d++)
        FUZZ_CHECK(got[d] == want[d] && (!got[d] || d < rank));
}

static size_t ref_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t m[41][41];
    for (size_t i = 0; i <= la; i++)
        m[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        m[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t best = m[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (m[i - 1][j] + 1 < best)
                best = m[i - 1][j] + 1;
            if (m[i][j - 1] + 1 < best)
                best = m[i][j - 1] + 1;
            m[i][j] = best;
        }
    }
    return m[la][lb];
}

static void fuzz_suggest(const char *text)
{
    static const char *const names[] = {"size",    "offset",  "locate",      "validate", "dtypes",
                                        "layouts", "--sizes", "--strides",   "--layout", "--pad",
                                        "--dtype", "float16", "int4",        "nchw",     "--format",
                                        "x",       "",        "--total-size"};
    const size_t n = sizeof names / sizeof names[0];
    const char *got = cli_suggest(text, names, n);
    const char *want = NULL;
    if (strlen(text) <= 40) {
        size_t best = 3;
        for (size_t i = 0; i < n; i++) {
            size_t d = ref_distance(text, names[i]);
            if (d < best) {
                best = d;
                want = names[i];
            }
        }
    }
    FUZZ_CHECK(got == want);
}

static void fuzz_dtype(const char *text, size_t len)
{
    enum dmlt_dtype got = DMLT_DTYPE_UNKNOWN, again = DMLT_DTYPE_UNKNOWN;
    enum dmlt_status st = dmlt_dtype_parse(text, len, &got);
    FUZZ_CHECK(st == DMLT_OK || st == DMLT_E_DTYPE);
    /* Case does not matter. */
    char *flipped = malloc(len + 1);
    FUZZ_CHECK(flipped != NULL);
    for (size_t i = 0; i < len; i++)
        flipped[i] = (i % 2) ? upper(text[i]) : lower(text[i]);
    FUZZ_CHECK(dmlt_dtype_parse(flipped, len, &again) == st);
    free(flipped);
    if (st != DMLT_OK)
        return;
    FUZZ_CHECK(again == got);
    const struct dmlt_dtype_info *info = dmlt_dtype_get(got);
    FUZZ_CHECK(info != NULL && info->dtype == got);
    FUZZ_CHECK(info->bits == 4 || info->bits == 8 || info->bits == 16 || info->bits == 32 ||
               info->bits == 64);
    FUZZ_CHECK(dmlt_dtype_parse(info->name, strlen(info->name), &again) == DMLT_OK && again == got);
    FUZZ_CHECK(dmlt_dtype_parse(info->dml_name, strlen(info->dml_name), &again) == DMLT_OK &&
               again == got);
    for (size_t i = 0; i < len; i++)
        FUZZ_CHECK(is_digit(text[i]) || (lower(text[i]) >= 'a' && lower(text[i]) <= 'z') ||
                   text[i] == '_');
}

static void fuzz_layout(uint8_t param, const char *text, size_t len)
{
    unsigned rank = param % (DMLT_MAX_RANK + 2); /* 0 and 9 are not ranks */
    unsigned order[DMLT_MAX_RANK], again[DMLT_MAX_RANK];
    enum dmlt_status st = dmlt_layout_parse(text, len, rank, order);
    FUZZ_CHECK(st == DMLT_OK || st == DMLT_E_LAYOUT);
    char *flipped = malloc(len + 1);
    FUZZ_CHECK(flipped != NULL);
    for (size_t i = 0; i < len; i++)
        flipped[i] = upper(text[i]);
    FUZZ_CHECK(dmlt_layout_parse(flipped, len, rank, again) == st);
    free(flipped);
    if (st != DMLT_OK)
        return;
    FUZZ_CHECK(rank >= 1 && rank <= DMLT_MAX_RANK);
    bool seen[DMLT_MAX_RANK] = {false};
    for (unsigned i = 0; i < rank; i++) {
        FUZZ_CHECK(order[i] < rank && !seen[order[i]] && again[i] == order[i]);
        seen[order[i]] = true;
    }
    /* Its name parses back to it. */
    struct outbuf b;
    cli_ob_init(&b);
    cli_layout_name(&b, rank, order);
    FUZZ_CHECK(!b.failed && b.len > 0);
    FUZZ_CHECK(dmlt_layout_parse(b.data, b.len, rank, again) == DMLT_OK);
    FUZZ_CHECK(memcmp(again, order, rank * sizeof order[0]) == 0);
    cli_ob_free(&b);
    /* Letters name the order directly. */
    const char *letters = dmlt_dim_letters(rank);
    if (letters && len == rank && !is_digit(text[0]))
        for (unsigned i = 0; i < rank; i++)
            FUZZ_CHECK(letters[order[i]] == lower(text[i]));
}

static void fuzz_format(const char *text, size_t len, const char *whole)
{
    /* cli_fmt_u128 on 16 bytes of the input, read back digit by digit. */
    ref_u128 v = 0;
    for (size_t i = 0; i < 16; i++)
        v = (v << 8) | (i < len ? (uint8_t)text[i] : 0u);
    char buf[48];
    size_t n = cli_fmt_u128(buf, P(v));
    FUZZ_CHECK(n >= 1 && n <= 39 && (buf[0] != '0' || n == 1));
    ref_u128 back = 0;
    for (size_t i = 0; i < n; i++) {
        FUZZ_CHECK(is_digit(buf[i]));
        back = back * 10 + (unsigned)(buf[i] - '0');
    }
    FUZZ_CHECK(back == v);
    /* ... and by the library's parser, which also takes the input itself
     * exactly when it is digits of a value below 2^128. */
    dmlt_u128 parsed = {0, 0};
    FUZZ_CHECK(dmlt_u128_parse_dec(buf, n, &parsed) && dmlt_u128_eq(parsed, P(v)));
    ref_u128 ref = 0;
    bool ref_ok = len > 0;
    for (size_t i = 0; i < len && ref_ok; i++) {
        unsigned dgt = (unsigned)(text[i] - '0');
        ref_ok = is_digit(text[i]) && ref <= (~(ref_u128)0 - dgt) / 10;
        ref = ref * 10 + dgt;
    }
    FUZZ_CHECK(dmlt_u128_parse_dec(text, len, &parsed) == ref_ok);
    if (ref_ok)
        FUZZ_CHECK(dmlt_u128_eq(parsed, P(ref)));

    /* cli_ob_json_str: JSON for any bytes, decoding to the same bytes where
     * they are valid UTF-8 and to U+FFFD for each byte that is not. */
    struct outbuf b, want;
    cli_ob_init(&b);
    cli_ob_init(&want);
    cli_ob_json_str(&b, whole);
    FUZZ_CHECK(!b.failed);
    for (size_t i = 0; i < b.len; i++)
        FUZZ_CHECK((unsigned char)b.data[i] >= 0x20 && b.data[i] != 0x7f);
    for (const unsigned char *q = (const unsigned char *)whole; *q;) {
        size_t k = ref_utf8_len(q);
        if (k == 0) {
            ob_write(&want, "\xEF\xBF\xBD", 3);
            k = 1;
        } else {
            ob_write(&want, (const char *)q, k);
        }
        q += k;
    }
    ob_putc(&want, '\0');
    cJSON *j = cJSON_ParseWithLength(b.data, b.len);
    FUZZ_CHECK(cJSON_IsString(j) && strcmp(j->valuestring, want.data) == 0);
    cJSON_Delete(j);
    cli_ob_free(&want);

    /* cli_ob_quoted_text: no control bytes, at most max characters shown. */
    cli_ob_reset(&b);
    size_t max = 1 + len % 130;
    cli_ob_quoted_text(&b, whole, max);
    FUZZ_CHECK(!b.failed && b.len <= 10 * max + 3);
    for (size_t i = 0; i < b.len; i++)
        FUZZ_CHECK((unsigned char)b.data[i] >= 0x20 && b.data[i] != 0x7f);
    /* Exactly, unit by unit (a UTF-8 character, or a byte that is not
     * one): a backslash doubled; C0, DEL and bytes that are not UTF-8 as \xNN; C1 controls and
     * the bidi, zero-width and separator characters as \uXXXX; printable
     * ASCII as itself; any other character as itself or \uXXXX /
     * \UXXXXXXXX (cli/text_escapes checks which, against Python's
     * categories); at most max units, then "...". */
    static const char hex[] = "0123456789abcdef";
    size_t k = 0, units = 0;
    const unsigned char *q = (const unsigned char *)whole;
    for (; *q && units < max; units++) {
        size_t un = ref_utf8_len(q);
        if (*q == '\\') { /* a literal backslash doubled: "a\x1b" never reads as an escape */
            FUZZ_CHECK(k + 2 <= b.len && b.data[k] == '\\' && b.data[k + 1] == '\\');
            k += 2;
            q++;
            continue;
        }
        if (un == 0 || *q < 0x20 || *q == 0x7f) {
            FUZZ_CHECK(k + 4 <= b.len && b.data[k] == '\\' && b.data[k + 1] == 'x' &&
                       b.data[k + 2] == hex[*q >> 4] && b.data[k + 3] == hex[*q & 15]);
            k += 4;
            q++;
            continue;
        }
        uint32_t c = un == 1 ? *q : (uint32_t)(*q & (0xFF >> (un + 1)));
        for (size_t i = 1; i < un; i++)
            c = c << 6 | (q[i] & 0x3Fu);
        char esc[11];
        int e = snprintf(esc, sizeof esc, c > 0xFFFF ? "\\U%08x" : "\\u%04x", (unsigned)c);
        const bool must_escape = (c >= 0x80 && c <= 0x9F) || (c >= 0x200B && c <= 0x200F) ||
                                 (c >= 0x2028 && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) ||
                                 c == 0xFEFF || c == 0xAD || c == 0x61C;
        const bool raw = k + un <= b.len && memcmp(b.data + k, q, un) == 0;
        const bool escaped = k + (size_t)e <= b.len && memcmp(b.data + k, esc, (size_t)e) == 0;
        FUZZ_CHECK(c < 0x80 ? raw : must_escape ? escaped : raw || escaped);
        k += raw && !must_escape ? un : (size_t)e;
        q += un;
    }
    if (*q) {
        FUZZ_CHECK(b.len == k + 3 && memcmp(b.data + k, "...", 3) == 0);
    } else {
        FUZZ_CHECK(b.len == k);
    }
    cli_ob_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const uint8_t which = data[0], param = data[1];
    const size_t len = size - 2;
    /* The text with its exact length (it may hold NULs), and as a C string. */
    char *text = malloc(len + 1);
    FUZZ_CHECK(text != NULL);
    if (len)
        memcpy(text, data + 2, len);
    text[len] = '\0';
    switch (which % 8) {
    case 0:
        fuzz_uint(param, text, len, text);
        break;
    case 1:
        fuzz_list(param, text);
        break;
    case 2:
        fuzz_dim(param, text, len, text);
        break;
    case 3:
        fuzz_dim_set(param, text);
        break;
    case 4:
        fuzz_suggest(text);
        break;
    case 5:
        fuzz_dtype(text, len);
        break;
    case 6:
        fuzz_layout(param, text, len);
        break;
    case 7:
        fuzz_format(text, len, text);
        break;
    }
    free(text);
    return 0;
}
