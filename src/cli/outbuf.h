/* outbuf.h - a growable output buffer, so that a result is written whole
 * or not at all, with the number and JSON string formatters the renderers
 * share. Integers are formatted by hand: exact at any size (cJSON's %.15g
 * is not) and cheaper than printf. */
#ifndef DMLT_OUTBUF_H
#define DMLT_OUTBUF_H

#include "dmltensor.h"

#include <stdio.h>
#include <string.h>

struct outbuf {
    char *data;
    size_t len, cap;
    bool failed; /* an allocation failed; the buffer is unusable */
    FILE *sink;  /* where cli_drain() writes a streamed result */
};

void cli_ob_init(struct outbuf *b);
void cli_ob_free(struct outbuf *b);
void cli_ob_reset(struct outbuf *b);
void cli_ob_write_slow(struct outbuf *b, const char *s, size_t n);

/* Appends n bytes (inline: renderers call these for every few bytes). */
static inline void ob_write(struct outbuf *b, const char *s, size_t n)
{
    if (n == 0) /* s may be a failed buffer's NULL data */
        return;
    if (n <= b->cap - b->len && b->data) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
    } else {
        cli_ob_write_slow(b, s, n);
    }
}
static inline void ob_puts(struct outbuf *b, const char *s)
{
    ob_write(b, s, strlen(s));
}
static inline void ob_putc(struct outbuf *b, char c)
{
    if (b->len < b->cap)
        b->data[b->len++] = c;
    else
        cli_ob_write_slow(b, &c, 1);
}
/* True when any buffer ran out of memory since cli_ob_oom_reset() (cli_main
 * resets it per command): then the result is not written and the command
 * fails "out of memory", exit 2, whichever buffer it was. */
bool cli_ob_oom_seen(void);
void cli_ob_oom_reset(void);
/* For an allocation outside any buffer that the CLI cannot do without
 * (a table a summary needs): the same outcome as a buffer's. */
void cli_ob_oom_note(void);
/* Room for n more bytes at b->data + b->len, for a caller that formats in
 * place and then adds what it wrote to b->len. NULL when out of memory. */
char *cli_ob_space(struct outbuf *b, size_t n);
void cli_ob_pad_to(struct outbuf *b, size_t line_start, size_t column);
/* Spaces until b->len - start reaches width (bytes, not columns); nothing
 * when it already has, or once the buffer has failed. */
void cli_ob_fill_to(struct outbuf *b, size_t start, size_t width);
/* v[0..n) each times scale: "[1,2,3]" when json, else "1,2,3". */
void cli_ob_u32_list(struct outbuf *b, const uint32_t *v, unsigned n, uint64_t scale, bool json);
/* num / den rounded to 4 decimals ("1.0762"), or null when den is 0
 * (plan's arena over its lower bound). */
void cli_ob_ratio(struct outbuf *b, uint64_t num, uint64_t den);
/* snprintf() for sentences that only ever put in numbers already written
 * as text: each "%s" takes the next argument, everything else is copied.
 * Cut at size - 1 bytes, always NUL-terminated. */
void cli_say(char *msg, size_t size, const char *fmt, ...);
/* A JSON string literal, quotes included. */
void cli_ob_json_str(struct outbuf *b, const char *s);
/* JSON text s[0..n) (a value cli_json_parse() accepted) as it was written, on
 * one line: white space outside strings left out, bytes that are not UTF-8
 * as U+FFFD; strings keep their escapes ("\ud83d\ude00" stays so). */
void cli_ob_json_verbatim(struct outbuf *b, const char *s, size_t n);
/* One step of a JSON path, as scan writes them: .key for a plain name,
 * ["odd key"] for any other. */
void cli_ob_json_path_key(struct outbuf *b, const char *key);
/* Text from input (a name, a path, a message quoting input) for a person:
 * the one escaping function of every text output. What a terminal would
 * act on or hide is shown as an escape: C0 controls, DEL and bytes that are
 * not UTF-8 as \xNN (raw 0x9B too), C1 controls (U+0080..U+009F) and
 * Unicode's format characters (bidi overrides and isolates, zero-width
 * characters, U+FEFF, U+00AD, U+061C, tags, ...; the line and paragraph
 * separators) as \u009b or \U000e0001, and a backslash as \\ (so that
 * the text "a\x1b" never reads as the escape of ESC). Everything else is
 * copied. Cut after max characters (an escape is one) with "...". */
void cli_ob_quoted_text(struct outbuf *b, const char *s, size_t max);
/* The same escaping for XML (SVG titles and text): cli_ob_quoted_text's, the
 * five XML specials as entities, and U+FFFE/U+FFFF (no XML characters) as
 * \ufffe. A bidi override or an invisible character never reaches a
 * tooltip raw. */
void cli_ob_xml_text(struct outbuf *b, const char *s);
/* The characters (not bytes) of b from byte from on: the column a text
 * line has reached, since its text is valid UTF-8 (cli_ob_quoted_text's). */
size_t cli_ob_columns(const struct outbuf *b, size_t from);

/* Writes the buffer to f and flushes. Returns false on a write error. */
bool cli_ob_flush_to(struct outbuf *b, FILE *f);

/* Decimal digits of v into buf (at least 40 bytes); returns the length. */
size_t cli_fmt_u128(char *buf, dmlt_u128 v);
/* Decimal digits of v at p (room for 20); returns the end. */
char *cli_put_u64(char *p, uint64_t v);

void cli_ob_u64_slow(struct outbuf *b, uint64_t v);
void cli_ob_u128_slow(struct outbuf *b, dmlt_u128 v);

/* Decimal digits of v, formatted in place when there is room. */
static inline void ob_u64(struct outbuf *b, uint64_t v)
{
    if (b->cap - b->len >= 20 && b->data)
        b->len = (size_t)(cli_put_u64(b->data + b->len, v) - b->data);
    else
        cli_ob_u64_slow(b, v);
}
static inline void ob_u128(struct outbuf *b, dmlt_u128 v)
{
    if (dmlt_u128_fits_u64(v))
        ob_u64(b, dmlt_u128_to_u64(v));
    else
        cli_ob_u128_slow(b, v);
}
/* "301056 bytes (294 KiB)": exact, then a rounded binary unit from 1 KiB. */
void cli_ob_bytes(struct outbuf *b, dmlt_u128 v);
/* A string literal: its length is known at compile time. */
#define OB_LIT(b, lit) ob_write((b), "" lit, sizeof(lit) - 1)

#endif
