/* records.c - see records.h. */
#include "records.h"

#include <stdlib.h>
#include <string.h>

enum { MODE_UNKNOWN, MODE_LINES, MODE_ARRAY, MODE_DONE };

void cli_record_reader_init(struct record_reader *r, FILE *f)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->line = 1;
}

void cli_record_reader_free(struct record_reader *r)
{
    free(r->rec);
    r->rec = NULL;
    r->cap = 0;
}

void cli_record_reader_prefix(struct record_reader *r, const void *p, size_t n)
{
    r->pre = p;
    r->pre_len = n;
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
    if (r->pre_len) { /* the bytes taken first */
        r->end = r->pre_len < sizeof r->block - 1 ? r->pre_len : sizeof r->block - 1;
        memcpy(r->block, r->pre, r->end);
        r->pre += r->end;
        r->pre_len -= r->end;
    } else {
        r->end = fread(r->block, 1, sizeof r->block - 1, r->f);
    }
    r->total += r->end;
    r->block[r->end] = '\n'; /* the sentinel scan_element() relies on */
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

/* Appends to the record unless that passes max bytes; false then. */
static bool append(struct record_reader *r, const char *s, size_t n, size_t max)
{
    if (r->len + n > max)
        return false;
    if (r->len + n + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + n + 1)
            cap *= 2;
        char *p = realloc(r->rec, cap);
        if (p == NULL) {
            r->no_memory = true; /* cli_record_next says so: not "too long" */
            return false;
        }
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

/* Skips white space, counting the lines it passes; stops before the first
 * other byte, or at the end of the input. */
static void skip_space(struct record_reader *r)
{
    while (refill(r)) {
        const char *p = r->block + r->pos, *end = r->block + r->end;
        while (p < end && is_space(*p)) {
            if (*p == '\n')
                r->line++;
            p++;
        }
        r->pos = (size_t)(p - r->block);
        if (p < end)
            return;
    }
}

static void detect_mode(struct record_reader *r)
{
    /* A UTF-8 byte order mark is not content. */
    if (refill(r) && r->end - r->pos >= 3 && memcmp(r->block + r->pos, "\xEF\xBB\xBF", 3) == 0)
        r->pos += 3;
    skip_space(r);
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
            /* One byte more than a record: the CR of a CRLF line end. */
            if (!append(r, p, n, RECORD_MAX + 1)) {
                too_long = true;
                break; /* the rest of the line is not read */
            }
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
        if (r->no_memory)
            return RECORD_NO_MEMORY;
        if (r->len && !too_long && r->rec[r->len - 1] == '\r')
            r->rec[--r->len] = '\0';
        if (too_long || r->len > RECORD_MAX) { /* RECORD_MAX + 1 bytes, the last not a CR */
            r->stopped = true;
            return RECORD_TOO_LONG;
        }
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

/* What the element scan below must look at outside a string: the newline
 * that counts lines, the quote that opens a string, what opens or closes a
 * list or an object, and the comma. Every other byte is content. */
enum element_byte { EB_CONTENT, EB_NEWLINE, EB_QUOTE, EB_OPEN, EB_CLOSE, EB_COMMA };
static const unsigned char element_byte[256] = {
    ['\n'] = EB_NEWLINE, ['"'] = EB_QUOTE, ['['] = EB_OPEN,  ['{'] = EB_OPEN,
    [']'] = EB_CLOSE,    ['}'] = EB_CLOSE, [','] = EB_COMMA,
};

/* Inside a string: the newline, the closing quote and the escape. */
static const bool string_stop[256] = {['\n'] = true, ['"'] = true, ['\\'] = true};

/* The scan's state, kept across input blocks. */
struct element_scan {
    bool in_string, escaped; /* escaped: the block ended just after a '\' */
    int depth;
};

/* Scans block bytes [p, end) of an array element, counting lines in r.
 * Returns where the element ends (at a ',' or ']' outside any string, list
 * or object, which is not part of it), or end if it goes on past the
 * block. *end is the '\n' sentinel refill() puts after the data, so the
 * inner loops need no bounds check: they stop there and test for end. */
static const char *scan_element(struct record_reader *r, struct element_scan *s, const char *p,
                                const char *end)
{
    if (s->escaped && p < end) { /* the byte after the '\' that ended the last block */
        s->escaped = false;
        if (*p == '\n')
            r->line++;
        p++;
    }
    while (p < end) {
        if (s->in_string) {
            while (!string_stop[(unsigned char)*p])
                p++;
            if (p == end)
                break;
            if (*p == '\n') {
                r->line++;
            } else if (*p == '"') {
                s->in_string = false;
            } else { /* a '\': the byte after it is content, whatever it is */
                if (p + 1 == end) {
                    s->escaped = true;
                    break;
                }
                p++;
                if (*p == '\n')
                    r->line++;
            }
            p++;
            continue;
        }
        while (element_byte[(unsigned char)*p] == EB_CONTENT)
            p++;
        if (p == end)
            break;
        switch ((enum element_byte)element_byte[(unsigned char)*p]) {
        case EB_NEWLINE:
            r->line++;
            break;
        case EB_QUOTE:
            s->in_string = true;
            break;
        case EB_OPEN:
            s->depth++;
            break;
        case EB_CLOSE:
            if (s->depth > 0)
                s->depth--;
            else if (*p == ']')
                return p; /* the end of the array; a '}' here is content */
            break;
        case EB_COMMA:
            if (s->depth == 0)
                return p;
            break;
        case EB_CONTENT:
            break;
        }
        p++;
    }
    return end;
}

static enum record_status next_element(struct record_reader *r, const char **text, size_t *len,
                                       unsigned long *line)
{
    skip_space(r);
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
    bool too_long = false;
    struct element_scan s = {false, false, 0};
    c = -1; /* the byte that ended the element; -1 for the end of the input */
    while (refill(r)) {
        const char *start = r->block + r->pos, *end = r->block + r->end;
        const char *stop = scan_element(r, &s, start, end);
        size_t n = (size_t)(stop - start);
        if (n && !append(r, start, n, RECORD_MAX)) {
            too_long = true;
            break; /* the rest of the element is not read */
        }
        r->pos += n;
        if (stop < end) {
            c = (unsigned char)*stop;
            break;
        }
    }
    if (r->no_memory) /* append failed: not the record's length */
        return RECORD_NO_MEMORY;
    if (too_long) {
        r->stopped = true;
        return RECORD_TOO_LONG;
    }
    r->comma = c == ',';
    if (r->comma)
        next_byte(r);
    if (r->io_error)
        return RECORD_IO_ERROR;
    if (r->rec == NULL && !append(r, "", 0, RECORD_MAX))
        return RECORD_NO_MEMORY;
    *text = r->rec;
    *len = r->len;
    return RECORD_OK;
}

enum record_status cli_record_next(struct record_reader *r, const char **text, size_t *len,
                                   unsigned long *line)
{
    if (r->stopped) {
        *line = r->line;
        return RECORD_END;
    }
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
