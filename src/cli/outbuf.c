/* outbuf.c - see outbuf.h. */
#include "outbuf.h"

#include <stdlib.h>
#include <string.h>

void ob_init(struct outbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
    b->sink = stdout;
}

void ob_free(struct outbuf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void ob_reset(struct outbuf *b)
{
    b->len = 0;
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
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

char *ob_space(struct outbuf *b, size_t n)
{
    return reserve(b, n) ? b->data + b->len : NULL;
}

void ob_write(struct outbuf *b, const char *s, size_t n)
{
    if (n == 0 || !reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

void ob_puts(struct outbuf *b, const char *s)
{
    ob_write(b, s, strlen(s));
}

void ob_putc(struct outbuf *b, char c)
{
    if (reserve(b, 1))
        b->data[b->len++] = c;
}

size_t fmt_u128(char *buf, dmlt_u128 v)
{
    char tmp[40];
    size_t n = 0;
    /* Peel 19 digits at a time with 64-bit divisions where possible. */
    do {
        if (v <= UINT64_MAX) {
            uint64_t w = (uint64_t)v;
            do {
                tmp[n++] = (char)('0' + w % 10);
                w /= 10;
            } while (w != 0);
            break;
        }
        uint64_t chunk = (uint64_t)(v % UINT64_C(10000000000000000000));
        v /= UINT64_C(10000000000000000000);
        for (int i = 0; i < 19; i++) {
            tmp[n++] = (char)('0' + chunk % 10);
            chunk /= 10;
        }
    } while (v != 0);
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    return n;
}

void ob_u128(struct outbuf *b, dmlt_u128 v)
{
    char buf[40];
    ob_write(b, buf, fmt_u128(buf, v));
}

void ob_u64(struct outbuf *b, uint64_t v)
{
    ob_u128(b, v);
}

void ob_u32_list(struct outbuf *b, const uint32_t *v, unsigned n, uint64_t scale, bool json)
{
    if (json)
        ob_putc(b, '[');
    for (unsigned i = 0; i < n; i++) {
        if (i)
            ob_putc(b, ',');
        ob_u64(b, (uint64_t)v[i] * scale);
    }
    if (json)
        ob_putc(b, ']');
}

void ob_pad_to(struct outbuf *b, size_t line_start, size_t column)
{
    ob_putc(b, ' ');
    while (b->len - line_start < column)
        ob_putc(b, ' ');
}

void ob_json_str(struct outbuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    ob_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
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
        default:
            if (*p < 0x20 || *p == 0x7f) {
                char esc[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};
                ob_write(b, esc, 6);
            } else {
                ob_putc(b, (char)*p); /* UTF-8 passes through unchanged */
            }
        }
    }
    ob_putc(b, '"');
}

void ob_quoted_text(struct outbuf *b, const char *s, size_t max)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++) {
        if (n == max) {
            ob_puts(b, "...");
            return;
        }
        if (*p < 0x20 || *p == 0x7f) {
            char esc[4] = {'\\', 'x', hex[*p >> 4], hex[*p & 15]};
            ob_write(b, esc, 4);
        } else {
            ob_putc(b, (char)*p);
        }
    }
}

bool ob_flush_to(struct outbuf *b, FILE *f)
{
    if (b->failed)
        return false;
    if (b->len != 0 && fwrite(b->data, 1, b->len, f) != b->len)
        return false;
    return fflush(f) == 0 && !ferror(f);
}
