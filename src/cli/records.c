/* records.c - see records.h. */
#include "records.h"

#include <stdlib.h>
#include <string.h>

enum { MODE_UNKNOWN, MODE_LINES, MODE_ARRAY, MODE_DONE };

void record_reader_init(struct record_reader *r, FILE *f)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->line = 1;
}

void record_reader_free(struct record_reader *r)
{
    free(r->rec);
    r->rec = NULL;
    r->cap = 0;
}

static bool is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool refill(struct record_reader *r)
{
    if (r->pos < r->end)
        return true;
    if (r->eof)
        return false;
    r->pos = 0;
    r->end = fread(r->block, 1, sizeof r->block, r->f);
    if (r->end == 0) {
        r->eof = true;
        r->io_error = ferror(r->f) != 0;
        return false;
    }
    return true;
}

static int peek(struct record_reader *r)
{
    return refill(r) ? (unsigned char)r->block[r->pos] : -1;
}

static int next_byte(struct record_reader *r)
{
    if (!refill(r))
        return -1;
    int c = (unsigned char)r->block[r->pos++];
    if (c == '\n')
        r->line++;
    return c;
}

/* Appends to the record unless that passes RECORD_MAX; false then. */
static bool append(struct record_reader *r, const char *s, size_t n)
{
    if (r->len + n > RECORD_MAX)
        return false;
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 1)
            cap *= 2;
        char *p = realloc(r->rec, cap);
        if (p == NULL)
            return false; /* treated as too long: the record is dropped */
        r->rec = p;
        r->cap = cap;
    }
    if (r->rec == NULL)
        return false;
    memcpy(r->rec + r->len, s, n);
    r->len += n;
    r->rec[r->len] = '\0';
    return true;
}

static void detect_mode(struct record_reader *r)
{
    /* A UTF-8 byte order mark is not content. */
    if (refill(r) && r->end - r->pos >= 3 && memcmp(r->block + r->pos, "\xEF\xBB\xBF", 3) == 0)
        r->pos += 3;
    while (is_space(peek(r)))
        next_byte(r); /* counts the lines it passes */
    if (peek(r) == '[') {
        r->pos++;
        r->mode = MODE_ARRAY;
    } else {
        r->mode = MODE_LINES;
    }
}

static enum record_status next_line(struct record_reader *r, const char **text, size_t *len,
                                    unsigned long *line)
{
    for (;;) {
        r->len = 0;
        if (r->rec)
            r->rec[0] = '\0';
        bool too_long = false, newline = false, any = false;
        *line = r->line;
        while (!newline && refill(r)) {
            any = true;
            const char *p = r->block + r->pos;
            size_t avail = r->end - r->pos;
            const char *nl = memchr(p, '\n', avail);
            size_t n = nl ? (size_t)(nl - p) : avail;
            if (!too_long && !append(r, p, n))
                too_long = true;
            r->pos += n;
            if (nl) {
                r->pos++;
                r->line++;
                newline = true;
            }
        }
        if (r->io_error)
            return RECORD_IO_ERROR;
        if (!any)
            return RECORD_END;
        if (too_long)
            return RECORD_TOO_LONG;
        if (r->len && r->rec[r->len - 1] == '\r')
            r->rec[--r->len] = '\0';
        size_t i = 0;
        while (i < r->len && is_space(r->rec[i]))
            i++;
        if (i == r->len)
            continue; /* a blank line */
        *text = r->rec;
        *len = r->len;
        return RECORD_OK;
    }
}

static enum record_status next_element(struct record_reader *r, const char **text, size_t *len,
                                       unsigned long *line)
{
    while (is_space(peek(r)))
        next_byte(r);
    *line = r->line;
    int c = peek(r);
    if (c == ']' || c == -1) {
        bool closed = c == ']';
        if (closed)
            next_byte(r);
        /* Whatever follows the array is read as JSON Lines: a file of JSON
         * Lines whose first record is an array loses nothing. */
        r->mode = MODE_LINES;
        if (r->io_error)
            return RECORD_IO_ERROR;
        if (!closed || r->comma)
            return RECORD_MALFORMED; /* no ']', or [1,] */
        return next_line(r, text, len, line);
    }
    r->len = 0;
    if (r->rec)
        r->rec[0] = '\0'; /* an empty element ("[1,,2]") is an empty record */
    bool too_long = false, in_string = false, escaped = false;
    int depth = 0;
    while ((c = peek(r)) != -1) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (depth == 0 && (c == ',' || c == ']')) {
            break;
        }
        char ch = (char)next_byte(r);
        if (!too_long && !append(r, &ch, 1))
            too_long = true;
    }
    r->comma = c == ',';
    if (r->comma)
        next_byte(r);
    if (r->io_error)
        return RECORD_IO_ERROR;
    if (too_long)
        return RECORD_TOO_LONG;
    if (r->rec == NULL)
        append(r, "", 0);
    *text = r->rec;
    *len = r->len;
    return RECORD_OK;
}

enum record_status record_next(struct record_reader *r, const char **text, size_t *len,
                               unsigned long *line)
{
    if (r->mode == MODE_UNKNOWN)
        detect_mode(r);
    switch (r->mode) {
    case MODE_LINES:
        return next_line(r, text, len, line);
    case MODE_ARRAY:
        return next_element(r, text, len, line);
    default:
        *line = r->line;
        return RECORD_END;
    }
}
