/* json_fast.c - see json_fast.h. */
#include "json_fast.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>

#define MAX_DEPTH 32

/* Byte classes for the scanning loops: one table look-up per byte. */
enum {
    CC_SPACE = 1,      /* JSON white space: ' ', '\t', '\n', '\r' */
    CC_STRING_END = 2, /* stops a plain string: '"', '\\' or a control byte */
    CC_DIGIT = 4       /* '0'..'9' */
};
/* clang-format off */
static const unsigned char char_class[256] = {
    /* 0x00-0x1F: control bytes; \t \n \r are also white space */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 3, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    /* 0x20-0x3F: ' ' is white space, '"' ends a string, '0'..'9' digits */
    1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0, 0, 0, 0, 0, 0,
    /* 0x40-0x5F: '\\' (0x5C) ends a string */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
    /* 0x60-0xFF: nothing special (bytes of UTF-8 sequences included) */
};
/* clang-format on */

static bool is_space(char ch)
{
    return (char_class[(unsigned char)ch] & CC_SPACE) != 0;
}

static bool is_digit_byte(char ch)
{
    return (char_class[(unsigned char)ch] & CC_DIGIT) != 0;
}

struct cursor {
    const char *p, *end;
    int depth;
};

static void skip_space(struct cursor *c)
{
    const char *p = c->p;
    while (p < c->end && is_space(*p))
        p++;
    c->p = p;
}

static cJSON *new_node(int type)
{
    cJSON *n = cJSON_malloc(sizeof *n);
    if (n) {
        memset(n, 0, sizeof *n);
        n->type = type;
    }
    return n;
}

/* A string with no escape and no control byte, copied; NULL otherwise. */
static char *plain_string(struct cursor *c)
{
    const char *start = c->p + 1, *p = start, *end = c->end; /* past the quote */
    while (p < end && !(char_class[(unsigned char)*p] & CC_STRING_END))
        p++;
    if (p == end || *p != '"')
        return NULL; /* unterminated, an escape or a control byte */
    size_t n = (size_t)(p - start);
    c->p = p + 1; /* past the closing quote */
    char *s = cJSON_malloc(n + 1);
    if (s) {
        memcpy(s, start, n);
        s[n] = '\0';
    }
    return s;
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
    if (++c->depth > MAX_DEPTH)
        return NULL;
    cJSON *node = new_node(object ? cJSON_Object : cJSON_Array), *last = NULL;
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
            if (c->p == c->end || *c->p != '"' || (key = plain_string(c)) == NULL)
                goto fail;
            skip_space(c);
            if (c->p == c->end || *c->p != ':') {
                cJSON_free(key);
                goto fail;
            }
            c->p++;
        }
        cJSON *item = parse_value(c);
        if (item == NULL) {
            cJSON_free(key);
            goto fail;
        }
        item->string = key;
        append(node, &last, item);
        skip_space(c);
        if (c->p == c->end)
            goto fail;
        if (*c->p == ',') {
            c->p++;
            continue;
        }
        if (*c->p != close)
            goto fail;
        c->p++;
        c->depth--;
        return node;
    }
fail:
    cJSON_Delete(node);
    return NULL;
}

/* -?(0|[1-9][0-9]*) with at most 15 digits (exact as a double), not
 * followed by a fraction or exponent. */
static cJSON *parse_integer(struct cursor *c)
{
    const char *p = c->p, *end = c->end;
    bool negative = *p == '-';
    if (negative)
        p++;
    const char *digits = p;
    /* Reads at most 16 digits: a 16th one is enough to refuse. */
    const char *limit = end - p > 16 ? p + 16 : end;
    long long v = 0;
    unsigned digit;
    while (p < limit && (digit = (unsigned)((unsigned char)*p - '0')) <= 9) {
        v = v * 10 + digit;
        p++;
    }
    size_t n = (size_t)(p - digits);
    if (n == 0 || n > 15 || (n > 1 && digits[0] == '0'))
        return NULL;
    /* No digit follows here: the loop stopped at a non-digit, at the end,
     * or at the 16th digit, refused just above. */
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
        return NULL;
    c->p = p;
    cJSON *node = new_node(cJSON_Number);
    if (node == NULL)
        return NULL;
    node->valuedouble = negative ? -(double)v : (double)v;
    /* cJSON saturates valueint the same way (v < 10^15 is exact as a
     * double, so the integer comparisons give the same result). */
    if (negative)
        node->valueint = v >= -(long long)INT_MIN ? INT_MIN : (int)-v;
    else
        node->valueint = v >= INT_MAX ? INT_MAX : (int)v;
    return node;
}

/* word is "true", "false" or "null", n its length. */
static cJSON *parse_literal(struct cursor *c, const char *word, size_t n, int type)
{
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
        return NULL;
    c->p += n;
    cJSON *node = new_node(type);
    if (node && type == cJSON_True)
        node->valueint = 1;
    return node;
}

static cJSON *parse_value(struct cursor *c)
{
    skip_space(c);
    if (c->p == c->end)
        return NULL;
    switch (*c->p) {
    case '{':
        return parse_container(c, true);
    case '[':
        return parse_container(c, false);
    case '"': {
        char *s = plain_string(c);
        cJSON *node = s ? new_node(cJSON_String) : NULL;
        if (node == NULL) {
            cJSON_free(s);
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
        if (*c->p == '-' || is_digit_byte(*c->p))
            return parse_integer(c);
        return NULL;
    }
}

cJSON *json_fast_parse(const char *text, size_t len)
{
    struct cursor c = {text, text + len, 0};
    cJSON *root = parse_value(&c);
    if (root == NULL)
        return NULL;
    skip_space(&c);
    if (c.p != c.end) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

const char *json_strict_problem(const char *text, size_t len, size_t *at)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        if (*p == '"') {
            for (p++; p < end && *p != '"'; p++) {
                if (*p != '\\')
                    continue;
                if (end - p >= 6 && memcmp(p + 1, "u0000", 5) == 0) {
                    *at = (size_t)(p - text);
                    return "a string holds \\u0000, which dmltensor cannot pass on";
                }
                p++; /* the escaped character */
            }
            p++;
            continue;
        }
        if (*p == '-' || is_digit(*p)) {
            const char *start = p;
            if (*p == '-')
                p++;
            bool zero = p < end && *p == '0';
            const char *digits = p;
            while (p < end && is_digit(*p))
                p++;
            bool bad = p == digits || (zero && p - digits > 1);
            if (!bad && p < end && *p == '.') {
                const char *frac = ++p;
                while (p < end && is_digit(*p))
                    p++;
                bad = p == frac;
            }
            if (!bad && p < end && (*p == 'e' || *p == 'E')) {
                p++;
                if (p < end && (*p == '+' || *p == '-'))
                    p++;
                const char *exp = p;
                while (p < end && is_digit(*p))
                    p++;
                bad = p == exp;
            }
            if (bad) {
                *at = (size_t)(start - text);
                return "not a JSON number (no leading zeros; digits after . and e)";
            }
            continue;
        }
        p++;
    }
    return NULL;
}
