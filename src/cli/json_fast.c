/* json_fast.c - see json_fast.h. */
#include "json_fast.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>

#define MAX_DEPTH 32

struct cursor {
    const char *p, *end;
    int depth;
};

static void skip_space(struct cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
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
    const char *start = ++c->p; /* past the quote */
    while (c->p < c->end && *c->p != '"') {
        if (*c->p == '\\' || (unsigned char)*c->p < 0x20)
            return NULL;
        c->p++;
    }
    if (c->p == c->end)
        return NULL;
    size_t n = (size_t)(c->p - start);
    c->p++; /* the closing quote */
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
    c->p++; /* past { or [ */
    skip_space(c);
    if (c->p < c->end && *c->p == (object ? '}' : ']')) {
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
        if (*c->p != (object ? '}' : ']'))
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
    bool negative = *c->p == '-';
    if (negative)
        c->p++;
    const char *digits = c->p;
    long long v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && c->p - digits < 16)
        v = v * 10 + (*c->p++ - '0');
    size_t n = (size_t)(c->p - digits);
    if (n == 0 || n > 15 || (n > 1 && digits[0] == '0'))
        return NULL;
    if (c->p < c->end &&
        (*c->p == '.' || *c->p == 'e' || *c->p == 'E' || (*c->p >= '0' && *c->p <= '9')))
        return NULL;
    cJSON *node = new_node(cJSON_Number);
    if (node == NULL)
        return NULL;
    double d = negative ? -(double)v : (double)v;
    node->valuedouble = d;
    /* cJSON saturates valueint the same way. */
    node->valueint = d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
    return node;
}

static cJSON *parse_literal(struct cursor *c, const char *word, int type)
{
    size_t n = strlen(word);
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
        return parse_literal(c, "true", cJSON_True);
    case 'f':
        return parse_literal(c, "false", cJSON_False);
    case 'n':
        return parse_literal(c, "null", cJSON_NULL);
    default:
        if (*c->p == '-' || (*c->p >= '0' && *c->p <= '9'))
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
