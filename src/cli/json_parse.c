/* json_parse.c - see json_parse.h. A recursive descent over the text with
 * one table look-up per byte in the loops that matter (white space, the
 * bytes of a string, digits). */
#include "json_parse.h"
#include "outbuf.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* clang-format off */
const unsigned char cli_json_char_class[256] = {
    /* 0x00-0x1F: control bytes; \t \n \r are also white space */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 3, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    /* 0x20-0x3F: ' ' is white space, '"' ends a string, '0'..'9' digits */
    1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0,
    /* 0x40-0x5F: '\\' (0x5C) ends a run */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
    /* 0x60-0xFF: nothing special (bytes of UTF-8 sequences included) */
};
/* clang-format on */

#define MALFORMED    "malformed JSON"
#define BAD_NUMBER   "not a JSON number (no leading zeros; digits after . and e)"
#define RAW_CONTROL  "a raw control byte in a string (JSON escapes it)"
#define NUL_ESCAPE   "a string holds \\u0000, which dmltensor cannot pass on"
#define BAD_ESCAPE   "not a JSON escape"
#define SURROGATE    "a lone UTF-16 surrogate in a \\u escape"
#define UNTERMINATED "a string without its closing quote"
#define TOO_DEEP     "lists and objects nested more than 1000 deep"
#define AFTER_VALUE  "text after the JSON value"
static const char NO_MEMORY[] = "out of memory";

struct cursor {
    const char *p, *start, *end;
    int depth;
    struct json_error *err;
    struct json_arena *arena; /* NULL: cJSON's allocator */
};

/* ---- memory: the caller's arena, or cJSON's allocator ------------------- */

struct json_arena_block {
    struct json_arena_block *next;
    size_t used, size;
    max_align_t data[];
};

static void *arena_alloc(struct json_arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct json_arena_block *b = a->head;
    if (b == NULL || b->size - b->used < n) {
        size_t size = n > ((size_t)60 << 10) ? n : ((size_t)60 << 10);
        struct json_arena_block *nb = malloc(sizeof *nb + size);
        if (nb == NULL)
            return NULL;
        nb->next = b;
        nb->used = 0;
        nb->size = size;
        a->head = b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

void cli_json_arena_reset(struct json_arena *a)
{
    /* Blocks past the first are freed, so that the arena does not grow
     * with the number of documents. */
    while (a->head && a->head->next) {
        struct json_arena_block *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    if (a->head)
        a->head->used = 0;
}

void cli_json_arena_free(struct json_arena *a)
{
    cli_json_arena_reset(a);
    free(a->head);
    a->head = NULL;
}

static void *mem_alloc(struct cursor *c, size_t n)
{
    return c->arena ? arena_alloc(c->arena, n) : cJSON_malloc(n);
}

/* Gives back what mem_alloc gave: to cJSON's allocator; an arena's goes at
 * its reset. */
static void mem_free(struct cursor *c, void *p)
{
    if (c->arena == NULL)
        cJSON_free(p);
}

static void tree_free(struct cursor *c, cJSON *node)
{
    if (c->arena == NULL)
        cJSON_Delete(node);
}

static void skip_space(struct cursor *c)
{
    c->p = json_skip_space(c->p, c->end);
}

/* Records the first error (the innermost: callers return at once). */
static void *error_at(struct cursor *c, const char *at, const char *message)
{
    if (message == NO_MEMORY) /* not the record's fault: the command fails (exit 2) */
        cli_ob_oom_note();
    if (c->err->message == NULL) {
        c->err->message = message;
        c->err->at = (size_t)(at - c->start);
    }
    return NULL;
}

static cJSON *new_node(struct cursor *c, int type)
{
    cJSON *n = mem_alloc(c, sizeof *n);
    if (n == NULL)
        return error_at(c, c->p, NO_MEMORY);
    memset(n, 0, sizeof *n);
    n->type = type;
    return n;
}

/* The value of 4 hex digits at p, or -1. */
static long hex4(const char *p, const char *end)
{
    if (end - p < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        char ch = p[i];
        int d = ch >= '0' && ch <= '9'   ? ch - '0'
                : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                         : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static char *put_utf8(char *out, unsigned long cp)
{
    if (cp < 0x80) {
        *out++ = (char)cp;
    } else if (cp < 0x800) {
        *out++ = (char)(0xC0 | (cp >> 6));
        *out++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *out++ = (char)(0xE0 | (cp >> 12));
        *out++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *out++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *out++ = (char)(0xF0 | (cp >> 18));
        *out++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *out++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *out++ = (char)(0x80 | (cp & 0x3F));
    }
    return out;
}

/* Decodes the escape at *pp (just past its '\') into out; moves both on.
 * NULL on a bad escape (the error recorded). A \u escape is at most 6
 * bytes and gives at most 3 (4 for a pair of 12), so out never passes
 * the text's length. */
static char *escape(struct cursor *c, const char **pp, char *out)
{
    const char *p = *pp;
    static const char simple_in[] = "\"\\/bfnrt", simple_out[] = "\"\\/\b\f\n\r\t";
    const char *s = p < c->end && *p != '\0' ? strchr(simple_in, *p) : NULL;
    if (s) {
        *out++ = simple_out[s - simple_in];
        *pp = p + 1;
        return out;
    }
    if (p == c->end || *p != 'u')
        return error_at(c, p - 1, BAD_ESCAPE);
    long cp = hex4(p + 1, c->end);
    if (cp < 0)
        return error_at(c, p - 1, BAD_ESCAPE);
    p += 5;
    if (cp == 0)
        return error_at(c, p - 6, NUL_ESCAPE);
    if (cp >= 0xDC00 && cp <= 0xDFFF)
        return error_at(c, p - 6, SURROGATE);
    if (cp >= 0xD800 && cp <= 0xDBFF) { /* a high surrogate: a low one must follow */
        long low = c->end - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex4(p + 2, c->end) : -1;
        if (low < 0xDC00 || low > 0xDFFF)
            return error_at(c, p - 6, SURROGATE);
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        p += 6;
    }
    *pp = p;
    return put_utf8(out, (unsigned long)cp);
}

/* The string at c->p (its opening quote), decoded and NUL-terminated. */
static char *parse_string(struct cursor *c)
{
    const char *start = c->p + 1, *p = start, *end = c->end;
    while (p < end && !(cli_json_char_class[(unsigned char)*p] & JSON_CC_STRING_END))
        p++;
    if (p < end && *p == '"') { /* the usual case: no escape */
        size_t n = (size_t)(p - start);
        char *s = mem_alloc(c, n + 1);
        if (s == NULL)
            return error_at(c, start, NO_MEMORY);
        memcpy(s, start, n);
        s[n] = '\0';
        c->p = p + 1;
        return s;
    }
    /* Escapes: the decoded text is never longer than the rest of the
     * input, nor than the string's own bytes; find its end first. */
    const char *q = p;
    while (q < end && *q != '"') {
        if ((unsigned char)*q < 0x20)
            return error_at(c, q, RAW_CONTROL);
        q += *q == '\\' && q + 1 < end ? 2 : 1;
    }
    if (q >= end)
        return error_at(c, c->p, UNTERMINATED);
    char *s = mem_alloc(c, (size_t)(q - start) + 1), *out = s;
    if (s == NULL)
        return error_at(c, start, NO_MEMORY);
    memcpy(out, start, (size_t)(p - start));
    out += p - start;
    while (p < q) {
        if (*p == '\\') {
            p++;
            out = escape(c, &p, out);
            if (out == NULL) {
                mem_free(c, s);
                return NULL;
            }
        } else {
            *out++ = *p++;
        }
    }
    *out = '\0';
    c->p = q + 1;
    return s;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, kept as its text. */
static cJSON *parse_number(struct cursor *c)
{
    const char *start = c->p, *p = start, *end = c->end;
    if (*p == '-')
        p++;
    const char *digits = p;
    unsigned long long v = 0;
    while (p < end && json_is_digit(*p)) {
        v = v * 10 + (unsigned)(*p - '0'); /* wraps past 19 digits: then unused */
        p++;
    }
    size_t n = (size_t)(p - digits);
    bool integer = true;
    if (n == 0 || (n > 1 && *digits == '0'))
        return error_at(c, start, BAD_NUMBER);
    if (p < end && *p == '.') {
        const char *frac = ++p;
        while (p < end && json_is_digit(*p))
            p++;
        if (p == frac)
            return error_at(c, start, BAD_NUMBER);
        integer = false;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        const char *exp = p;
        while (p < end && json_is_digit(*p))
            p++;
        if (p == exp)
            return error_at(c, start, BAD_NUMBER);
        integer = false;
    }
    cJSON *node = new_node(c, cJSON_Number);
    size_t len = (size_t)(p - start);
    char *text = node ? mem_alloc(c, len + 1) : NULL;
    if (text == NULL) {
        mem_free(c, node);
        return node ? error_at(c, start, NO_MEMORY) : NULL;
    }
    memcpy(text, start, len);
    text[len] = '\0';
    node->valuestring = text;
    /* cJSON's approximation, for code that reads valuedouble: exact for
     * integers of up to 15 digits, strtod's for the rest. */
    double x = integer && n <= 15 ? (double)v : strtod(text, NULL);
    if (integer && n <= 15 && *start == '-')
        x = -x;
    node->valuedouble = x;
    node->valueint = x >= INT_MAX ? INT_MAX : x <= (double)INT_MIN ? INT_MIN : (int)x;
    c->p = p;
    return node;
}

/* word is "true", "false" or "null", n its length. */
static cJSON *parse_literal(struct cursor *c, const char *word, size_t n, int type)
{
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
        return error_at(c, c->p, MALFORMED);
    cJSON *node = new_node(c, type);
    if (node == NULL)
        return NULL;
    c->p += n;
    if (type == cJSON_True)
        node->valueint = 1;
    return node;
}

static cJSON *parse_value(struct cursor *c);

/* Links item after *last under parent, as cJSON does (head->prev is the
 * last item). */
static void append(cJSON *parent, cJSON **last, cJSON *item)
{
    if (*last == NULL) {
        parent->child = item;
    } else {
        (*last)->next = item;
        item->prev = *last;
    }
    *last = item;
    parent->child->prev = item;
}

static cJSON *parse_container(struct cursor *c, bool object)
{
    if (++c->depth > JSON_MAX_DEPTH)
        return error_at(c, c->p, TOO_DEEP);
    cJSON *node = new_node(c, object ? cJSON_Object : cJSON_Array), *last = NULL;
    if (node == NULL)
        return NULL;
    const char close = object ? '}' : ']';
    c->p++; /* past { or [ */
    skip_space(c);
    if (c->p < c->end && *c->p == close) {
        c->p++;
        c->depth--;
        return node;
    }
    for (;;) {
        char *key = NULL;
        if (object) {
            skip_space(c);
            if (c->p == c->end || *c->p != '"') {
                error_at(c, c->p, MALFORMED);
                goto fail;
            }
            if ((key = parse_string(c)) == NULL)
                goto fail;
            skip_space(c);
            if (c->p == c->end || *c->p != ':') {
                mem_free(c, key);
                error_at(c, c->p, MALFORMED);
                goto fail;
            }
            c->p++;
        }
        cJSON *item = parse_value(c);
        if (item == NULL) {
            mem_free(c, key);
            goto fail;
        }
        item->string = key;
        append(node, &last, item);
        skip_space(c);
        if (c->p < c->end && *c->p == ',') {
            c->p++;
            continue;
        }
        if (c->p == c->end || *c->p != close) {
            error_at(c, c->p, MALFORMED);
            goto fail;
        }
        c->p++;
        c->depth--;
        return node;
    }
fail:
    tree_free(c, node);
    return NULL;
}

static cJSON *parse_value(struct cursor *c)
{
    skip_space(c);
    if (c->p == c->end)
        return error_at(c, c->p, MALFORMED);
    switch (*c->p) {
    case '{':
        return parse_container(c, true);
    case '[':
        return parse_container(c, false);
    case '"': {
        char *s = parse_string(c);
        cJSON *node = s ? new_node(c, cJSON_String) : NULL;
        if (node == NULL) {
            mem_free(c, s);
            return NULL;
        }
        node->valuestring = s;
        return node;
    }
    case 't':
        return parse_literal(c, "true", 4, cJSON_True);
    case 'f':
        return parse_literal(c, "false", 5, cJSON_False);
    case 'n':
        return parse_literal(c, "null", 4, cJSON_NULL);
    default:
        if (*c->p == '-' || json_is_digit(*c->p))
            return parse_number(c);
        return error_at(c, c->p, MALFORMED);
    }
}

/* Past the JSON value at p, which cli_json_parse() accepted: strings skipped
 * with their escapes, lists and objects by their depth. */
static const char *skip_value(const char *p, const char *end)
{
    int depth = 0;
    while (p < end) {
        const char ch = *p;
        if (ch == '"') {
            for (p++; p < end && *p != '"'; p++)
                if (*p == '\\')
                    p++;
            p++;
        } else if (ch == '{' || ch == '[') {
            depth++;
            p++;
        } else if (ch == '}' || ch == ']') {
            if (depth == 0)
                return p;
            depth--;
            p++;
        } else if (depth == 0 && (ch == ',' || json_is_space(ch))) {
            return p;
        } else {
            p++;
        }
        if (depth == 0 && (ch == '"' || ch == '}' || ch == ']'))
            return p;
    }
    return p;
}

bool cli_json_member_text(const char *text, size_t len, const char *key, struct json_arena *arena,
                          const char **start, size_t *n)
{
    struct json_error err = {NULL, 0};
    struct cursor c = {text, text, text + len, 0, &err, arena};
    skip_space(&c);
    if (c.p == c.end || *c.p != '{')
        return false;
    c.p++;
    for (;;) {
        skip_space(&c);
        if (c.p == c.end || *c.p != '"')
            return false;
        char *name = parse_string(&c); /* decoded: "\u0069d" is "id" */
        if (name == NULL)
            return false;
        const bool found = strcmp(name, key) == 0;
        mem_free(&c, name);
        skip_space(&c);
        if (c.p == c.end || *c.p != ':')
            return false;
        c.p++;
        skip_space(&c);
        const char *value = c.p;
        c.p = skip_value(c.p, c.end);
        if (found) {
            *start = value;
            *n = (size_t)(c.p - value);
            return true;
        }
        skip_space(&c);
        if (c.p == c.end || *c.p != ',')
            return false;
        c.p++;
    }
}

cJSON *cli_json_parse(const char *text, size_t len, struct json_arena *arena,
                      struct json_error *err)
{
    err->message = NULL;
    err->at = 0;
    struct cursor c = {text, text, text + len, 0, err, arena};
    cJSON *root = parse_value(&c);
    if (root == NULL)
        return NULL;
    skip_space(&c);
    if (c.p != c.end) {
        tree_free(&c, root);
        return error_at(&c, c.p, AFTER_VALUE);
    }
    return root;
}

bool cli_json_prefix_error(const char *text, size_t len, bool cut, const struct json_error *err)
{
    if (err->message == NULL)
        return true;
    if (strcmp(err->message, AFTER_VALUE) == 0) { /* the next line's record, after a newline */
        for (size_t i = err->at; i > 0 && json_is_space(text[i - 1]); i--)
            if (text[i - 1] == '\n')
                return true;
        return false;
    }
    if (!cut || strcmp(err->message, NO_MEMORY) == 0)
        return false;
    if (strcmp(err->message, UNTERMINATED) == 0 || err->at + 8 >= len)
        return true; /* a string, literal or escape the cut ends */
    if (strcmp(err->message, BAD_NUMBER) != 0)
        return false;
    for (size_t i = err->at; i < len; i++) /* a number that runs to the cut */
        if (!json_is_digit(text[i]) && (text[i] == '\0' || strchr("-+.eE", text[i]) == NULL))
            return false;
    return true;
}

/* ---- exact integers --------------------------------------------------- */

enum json_integer cli_json_integer_digits(const char *num, char *buf, size_t cap, size_t *n)
{
    /* The usual case: digits alone, already as they are to be (JSON has
     * no leading zero). */
    size_t k = 0;
    while (k < cap && json_is_digit(num[k]))
        k++;
    if (k < cap && num[k] == '\0') {
        memcpy(buf, num, k + 1);
        *n = k;
        return JSON_INTEGER;
    }
    const char *p = num;
    const bool negative = *p == '-';
    if (negative)
        p++;
    /* The significand's digits, integer part then fraction, and the power
     * of ten that scales them: value = digits x 10^scale. */
    const char *int_start = p;
    while (json_is_digit(*p))
        p++;
    const char *int_end = p, *frac_start = p, *frac_end = p;
    if (*p == '.') {
        frac_start = ++p;
        while (json_is_digit(*p))
            p++;
        frac_end = p;
    }
    long long scale = 0; /* saturates far past any digit count that fits */
    if (*p == 'e' || *p == 'E') {
        p++;
        bool down = *p == '-';
        if (*p == '+' || *p == '-')
            p++;
        long long e = 0;
        for (; json_is_digit(*p); p++)
            if (e < 1000000000LL)
                e = e * 10 + (*p - '0');
        scale = down ? -e : e;
    }
    scale -= frac_end - frac_start;
    /* The significant digits: first and last nonzero ones over both parts
     * (i indexes the int part then the fraction as one sequence). */
    const long long n_int = int_end - int_start, n_all = n_int + (frac_end - frac_start);
#define DIGIT_AT(i) ((i) < n_int ? int_start[i] : frac_start[(i)-n_int])
    long long first = 0, last = n_all - 1;
    while (first < n_all && DIGIT_AT(first) == '0')
        first++;
    if (first == n_all) { /* zero, whatever its sign and exponent */
        if (cap < 2)
            return JSON_INTEGER_HUGE;
        buf[0] = '0';
        buf[1] = '\0';
        *n = 1;
        return JSON_INTEGER;
    }
    while (DIGIT_AT(last) == '0') {
        last--;
        scale++;
    }
    if (negative || scale < 0)
        return JSON_NOT_INTEGER;
    const long long count = last - first + 1;
    if (count + scale + 1 > (long long)cap)
        return JSON_INTEGER_HUGE;
    k = 0;
    for (long long i = first; i <= last; i++)
        buf[k++] = DIGIT_AT(i);
#undef DIGIT_AT
    for (long long i = 0; i < scale; i++)
        buf[k++] = '0';
    buf[k] = '\0';
    *n = k;
    return JSON_INTEGER;
}
