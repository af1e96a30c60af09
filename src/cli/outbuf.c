/* outbuf.c - see outbuf.h. */
#include "outbuf.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cli_ob_init(struct outbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
    b->sink = stdout;
}

void cli_ob_free(struct outbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void cli_ob_reset(struct outbuf *b)
{
    b->len = 0;
}

/* Set when any buffer's allocation failed since cli_ob_oom_reset(): a scratch
 * buffer whose text went missing must not let the result pass as whole.
 * One flag for the process: the CLI runs one command at a time. */
static bool oom_seen;

bool cli_ob_oom_seen(void)
{
    return oom_seen;
}

void cli_ob_oom_reset(void)
{
    oom_seen = false;
}

void cli_ob_oom_note(void)
{
    oom_seen = true;
}

static bool reserve(struct outbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = oom_seen = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

char *cli_ob_space(struct outbuf *b, size_t n)
{
    return reserve(b, n) ? b->data + b->len : NULL;
}

void cli_ob_write_slow(struct outbuf *b, const char *s, size_t n)
{
    if (n == 0 || !reserve(b, n) || b->data == NULL)
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324252627282930"
                                  "31323334353637383940414243444546474849505152535455565758596061"
                                  "62636465666768697071727374757677787980818283848586878889909192"
                                  "93949596979899";

/* The number of bits up to v's highest set bit (v > 0). The portable form
 * is what MSVC compiles; the `portable` CMake preset builds and tests it. */
static unsigned bit_length(uint64_t v)
{
#if defined(__GNUC__) && !defined(DMLT_PORTABLE_U128)
    return 64u - (unsigned)__builtin_clzll(v);
#else
    unsigned n = 0;
    for (unsigned step = 32; step; step /= 2)
        if (v >> step) {
            v >>= step;
            n += step;
        }
    return n + 1;
#endif
}

/* Decimal digits in v (v >= 10): log2 scaled by log10(2) ~ 1233/4096 gives
 * the count or one more, which one comparison settles. */
static unsigned decimal_digits(uint64_t v)
{
    static const uint64_t pow10[20] = {1u,
                                       10u,
                                       100u,
                                       1000u,
                                       10000u,
                                       100000u,
                                       1000000u,
                                       10000000u,
                                       100000000u,
                                       1000000000u,
                                       10000000000u,
                                       100000000000u,
                                       1000000000000u,
                                       10000000000000u,
                                       100000000000000u,
                                       1000000000000000u,
                                       10000000000000000u,
                                       100000000000000000u,
                                       1000000000000000000u,
                                       10000000000000000000u};
    unsigned t = (bit_length(v) * 1233u) >> 12;
    return t + (v >= pow10[t]);
}

char *cli_put_u64(char *p, uint64_t v)
{
    if (v < 10) { /* most numbers in a result are small */
        *p = (char)('0' + v);
        return p + 1;
    }
    if (v < 100) {
        p[0] = digit_pairs[v * 2];
        p[1] = digit_pairs[v * 2 + 1];
        return p + 2;
    }
    unsigned n = decimal_digits(v);
    char *q = p + n;
    if (v <= UINT32_MAX) { /* the usual case: 32-bit divisions are cheaper */
        uint32_t w = (uint32_t)v;
        while (w >= 100) {
            unsigned i = (w % 100) * 2;
            w /= 100;
            *--q = digit_pairs[i + 1];
            *--q = digit_pairs[i];
        }
        v = w;
    }
    while (v >= 100) {
        unsigned i = (unsigned)(v % 100) * 2;
        v /= 100;
        *--q = digit_pairs[i + 1];
        *--q = digit_pairs[i];
    }
    if (v >= 10) {
        *--q = digit_pairs[v * 2 + 1];
        *--q = digit_pairs[v * 2];
    } else {
        *--q = (char)('0' + v);
    }
    return p + n;
}

size_t cli_fmt_u128(char *buf, dmlt_u128 v)
{
    if (dmlt_u128_fits_u64(v))
        return (size_t)(cli_put_u64(buf, dmlt_u128_to_u64(v)) - buf);
    char tmp[DMLT_U128_DEC_SIZE];
    size_t n = dmlt_u128_to_dec(v, tmp);
    memcpy(buf, tmp, n);
    return n;
}

void cli_ob_u128_slow(struct outbuf *b, dmlt_u128 v)
{
    char buf[40];
    ob_write(b, buf, cli_fmt_u128(buf, v));
}

void cli_ob_u64_slow(struct outbuf *b, uint64_t v)
{
    char buf[24];
    ob_write(b, buf, (size_t)(cli_put_u64(buf, v) - buf));
}

void cli_ob_u32_list(struct outbuf *b, const uint32_t *v, unsigned n, uint64_t scale, bool json)
{
    /* At most 8 x (20 digits + comma) + brackets: format in place. */
    char *p = cli_ob_space(b, (size_t)n * 21 + 2);
    if (p == NULL)
        return;
    char *start = p;
    if (json)
        *p++ = '[';
    for (unsigned i = 0; i < n; i++) {
        if (i)
            *p++ = ',';
        p = cli_put_u64(p, (uint64_t)v[i] * scale);
    }
    if (json)
        *p++ = ']';
    b->len += (size_t)(p - start);
}

void cli_ob_pad_to(struct outbuf *b, size_t line_start, size_t column)
{
    ob_putc(b, ' ');
    for (size_t at = cli_ob_columns(b, line_start); at < column; at++)
        ob_putc(b, ' ');
}

void cli_ob_fill_to(struct outbuf *b, size_t start, size_t width)
{
    size_t have = b->len - start;
    if (have >= width)
        return;
    char *p = cli_ob_space(b, width - have);
    if (p == NULL)
        return;
    memset(p, ' ', width - have);
    b->len += width - have;
}

/* Length of the valid UTF-8 sequence at p (lead byte >= 0x80), or 0. */
static size_t utf8_length(const unsigned char *p)
{
    unsigned char lo = 0x80, hi = 0xBF;
    size_t n;
    if (p[0] >= 0xC2 && p[0] <= 0xDF) {
        n = 2;
    } else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
        n = 3;
        if (p[0] == 0xE0)
            lo = 0xA0; /* no overlong forms */
        if (p[0] == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
        n = 4;
        if (p[0] == 0xF0)
            lo = 0x90;
        if (p[0] == 0xF4)
            hi = 0x8F; /* not past U+10FFFF */
    } else {
        return 0;
    }
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0; /* also stops at the NUL */
    return n;
}

/* True if any of the 8 bytes in w needs more than a copy in a JSON string:
 * a control byte (< 0x20), '"', '\\', DEL or a byte >= 0x80 (UTF-8, to be
 * checked). Each test is exact about whether any byte matches. */
static bool word_needs_care(uint64_t w)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t below_space = (w - ones * 0x20) & ~w;
    uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\'), del = w ^ (ones * 0x7f);
    quote = (quote - ones) & ~quote;
    backslash = (backslash - ones) & ~backslash;
    del = (del - ones) & ~del;
    return ((below_space | quote | backslash | del) & highs) != 0 || (w & highs) != 0;
}

void cli_ob_json_str(struct outbuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    ob_putc(b, '"');
    const unsigned char *p = (const unsigned char *)s;
    const unsigned char *end = p + strlen(s);
    for (;;) {
        /* A run that needs no escape goes in one copy (UTF-8 included),
         * found 8 bytes at a time, then byte by byte. */
        const unsigned char *run = p;
        while (end - p >= 8) {
            uint64_t w;
            memcpy(&w, p, 8);
            if (word_needs_care(w))
                break;
            p += 8;
        }
        while (*p >= 0x20 && *p < 0x7f && *p != '"' && *p != '\\')
            p++;
        ob_write(b, (const char *)run, (size_t)(p - run));
        if (*p == '\0')
            break;
        if (*p >= 0x80) {
            /* Valid UTF-8 passes; anything else (a byte of another encoding,
             * a character cut short) becomes U+FFFD, so the output is JSON. */
            size_t n = utf8_length(p);
            if (n)
                ob_write(b, (const char *)p, n);
            else
                ob_write(b, "\xEF\xBF\xBD", 3);
            p += n ? n : 1;
            continue;
        }
        switch (*p) {
        case '"':
            ob_write(b, "\\\"", 2);
            break;
        case '\\':
            ob_write(b, "\\\\", 2);
            break;
        case '\n':
            ob_write(b, "\\n", 2);
            break;
        case '\t':
            ob_write(b, "\\t", 2);
            break;
        case '\r':
            ob_write(b, "\\r", 2);
            break;
        default: {
            char esc[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};
            ob_write(b, esc, 6);
        }
        }
        p++;
    }
    ob_putc(b, '"');
}

void cli_ob_json_verbatim(struct outbuf *b, const char *s, size_t n)
{
    bool in_string = false;
    for (size_t i = 0; i < n;) {
        const unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x80) { /* only inside a string */
            size_t k = utf8_length((const unsigned char *)s + i);
            if (k == 0 || k > n - i)
                ob_write(b, "\xEF\xBF\xBD", 3);
            else
                ob_write(b, s + i, k);
            i += k && k <= n - i ? k : 1;
            continue;
        }
        if (in_string && ch == '\\' && i + 1 < n) {
            ob_write(b, s + i, 2); /* an escape, as it was */
            i += 2;
            continue;
        }
        if (ch == '"')
            in_string = !in_string;
        if (in_string || !(ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'))
            ob_putc(b, (char)ch);
        i++;
    }
}

/* Unicode's format characters (general category Cf: the soft hyphen, bidi
 * marks, overrides and isolates, zero-width characters, the byte order
 * mark, invisible operators, tags), with the line and paragraph separators
 * (U+2028, U+2029) and the unassigned U+2065 among them: invisible, or they
 * reorder or break the text around them on a terminal. Unicode 15. */
static const struct {
    uint32_t lo, hi;
} format_chars[] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},
    {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x206F},   {0xFEFF, 0xFEFF},
    {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F},
    {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
};

/* Whether code point c is shown escaped: a C1 control (U+0080..U+009F) or
 * one of format_chars. */
static bool hidden_char(uint32_t c)
{
    if (c >= 0x80 && c <= 0x9F)
        return true;
    for (size_t i = 0; i < sizeof format_chars / sizeof *format_chars; i++)
        if (c >= format_chars[i].lo && c <= format_chars[i].hi)
            return true;
    return false;
}

/* The one escaping of text from input, for a terminal (xml false) or for
 * XML character data and attributes (xml true: the five specials as
 * entities too, and U+FFFE/U+FFFF, which XML cannot hold, as escapes). */
static void quote_text(struct outbuf *b, const char *s, size_t max, bool xml)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; n++) {
        if (n == max) {
            ob_puts(b, "...");
            return;
        }
        const size_t len = *p >= 0x80 ? utf8_length(p) : 1;
        if (len == 0 || *p < 0x20 || *p == 0x7f) { /* C0, DEL, a byte that is not UTF-8 */
            char esc[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};
            ob_write(b, esc, 4);
            p++;
            continue;
        }
        if (*p == '\\') { /* a literal backslash, so that "a\x1b" never reads as an escape */
            ob_puts(b, "\\\\");
            p++;
            continue;
        }
        if (xml && (*p == '&' || *p == '<' || *p == '>' || *p == '"' || *p == '\'')) {
            ob_puts(b, *p == '&'   ? "&amp;"
                       : *p == '<' ? "&lt;"
                       : *p == '>' ? "&gt;"
                       : *p == '"' ? "&quot;"
                                   : "&apos;");
            p++;
            continue;
        }
        uint32_t c = len == 1 ? *p : (uint32_t)(*p & (0x7F >> len));
        for (size_t i = 1; i < len; i++)
            c = c << 6 | (uint32_t)(p[i] & 0x3F);
        if (hidden_char(c) || (xml && (c == 0xFFFE || c == 0xFFFF))) {
            /* \u009b, \u202e; \U000e0001 past the BMP */
            char esc[10] = {'\\', c > 0xFFFF ? 'U' : 'u'};
            size_t k = 2, digits = c > 0xFFFF ? 8 : 4;
            for (size_t d = digits; d-- > 0;)
                esc[k++] = hex[(c >> (4 * d)) & 15];
            ob_write(b, esc, k);
        } else {
            ob_write(b, (const char *)p, len);
        }
        p += len;
    }
}

void cli_ob_quoted_text(struct outbuf *b, const char *s, size_t max)
{
    quote_text(b, s, max, false);
}

void cli_ob_xml_text(struct outbuf *b, const char *s)
{
    quote_text(b, s, SIZE_MAX, true);
}

size_t cli_ob_columns(const struct outbuf *b, size_t from)
{
    size_t n = 0;
    for (size_t i = from; i < b->len; i++)
        n += ((unsigned char)b->data[i] & 0xC0) != 0x80; /* not a UTF-8 continuation byte */
    return n;
}

bool cli_ob_flush_to(struct outbuf *b, FILE *f)
{
    if (b->failed)
        return false;
    if (b->len != 0 && fwrite(b->data, 1, b->len, f) != b->len)
        return false;
    return fflush(f) == 0 && !ferror(f);
}

void cli_ob_json_path_key(struct outbuf *b, const char *key)
{
    bool plain =
        (key[0] >= 'a' && key[0] <= 'z') || (key[0] >= 'A' && key[0] <= 'Z') || key[0] == '_';
    for (const char *c = key; plain && *c; c++)
        plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                *c == '_';
    if (plain) {
        ob_putc(b, '.');
        ob_puts(b, key);
    } else {
        ob_putc(b, '[');
        cli_ob_json_str(b, key);
        ob_putc(b, ']');
    }
}

/* "301056 bytes (294 KiB)" */
void cli_ob_bytes(struct outbuf *b, dmlt_u128 v)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
    ob_u128(b, v);
    ob_puts(b, dmlt_u128_eq(v, dmlt_u128_from_u64(1)) ? " byte" : " bytes");
    if (dmlt_u128_cmp(v, dmlt_u128_from_u64(1024)) < 0)
        return;
    double x = dmlt_u128_to_double(v);
    unsigned u = 0;
    x /= 1024;
    const unsigned n_units = sizeof units / sizeof units[0];
    while (x >= 1024 && u + 1 < n_units) {
        x /= 1024;
        u++;
    }
    /* 1023.96 KiB rounds to 1024.0 KiB at one decimal: say 1.0 MiB. */
    char buf[64];
    snprintf(buf, sizeof buf, "%.1f", x);
    if (strcmp(buf, "1024.0") == 0 && u + 1 < n_units) {
        x /= 1024;
        u++;
    }
    if (x == (double)(uint64_t)x)
        snprintf(buf, sizeof buf, " (%.0f %s)", x, units[u]);
    else
        snprintf(buf, sizeof buf, " (%.1f %s)", x, units[u]);
    ob_puts(b, buf);
}

/* Appends n bytes of s to msg[*len..], as many as fit before size - 1. */
static void say_part(char *msg, size_t size, size_t *len, const char *s, size_t n)
{
    if (n > size - 1 - *len)
        n = size - 1 - *len;
    memcpy(msg + *len, s, n);
    *len += n;
}

/* snprintf() for the sentences below, which only ever put in numbers
 * already written as text: each "%s" takes the next argument, everything
 * else is copied. Cut at size - 1 bytes, always NUL-terminated. (printf's
 * full machinery took a fifth of the time of a validate record in batch.) */
void cli_say(char *msg, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t len = 0;
    for (;;) {
        const char *pct = strchr(fmt, '%');
        say_part(msg, size, &len, fmt, pct ? (size_t)(pct - fmt) : strlen(fmt));
        if (pct == NULL)
            break;
        if (pct[1] != 's') { /* not a conversion: the '%' itself */
            say_part(msg, size, &len, pct, 1);
            fmt = pct + 1;
            continue;
        }
        const char *arg = va_arg(ap, const char *);
        say_part(msg, size, &len, arg, strlen(arg));
        fmt = pct + 2; /* past "%s" */
    }
    msg[len] = '\0';
    va_end(ap);
}

void cli_ob_ratio(struct outbuf *b, uint64_t num, uint64_t den)
{
    if (den == 0) {
        ob_puts(b, "null");
        return;
    }
    /* round(num x 10000 / den), exactly */
    dmlt_u128 scaled, q;
    (void)dmlt_u128_mul(dmlt_u128_from_u64(num), dmlt_u128_from_u64(10000), &scaled);
    (void)dmlt_u128_add(scaled, dmlt_u128_from_u64(den / 2), &scaled);
    (void)dmlt_u128_divmod(scaled, den, &q, NULL);
    uint64_t frac;
    dmlt_u128 whole;
    (void)dmlt_u128_divmod(q, 10000, &whole, &frac);
    ob_u128(b, whole);
    char digits[5] = {(char)('0' + frac / 1000), (char)('0' + frac / 100 % 10),
                      (char)('0' + frac / 10 % 10), (char)('0' + frac % 10), 0};
    ob_putc(b, '.');
    ob_puts(b, digits);
}
