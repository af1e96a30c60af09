/* onnx_dimexpr_text.c - an expression's value under a binding (checked
 * int64 at every step) and its text. */
#include "onnx_dimexpr_int.h"

#include <string.h>

/* ---- evaluation ---- */

struct eval {
    onnx_dx_lookup lookup;
    void *user;
    const char *unbound;
    size_t unbound_len;
};

static enum onnx_dx_status eval_expr(const struct onnx_dx *e, struct eval *ev, int64_t *out);

static enum onnx_dx_status eval_atom(const struct atom *a, struct eval *ev, int64_t *out)
{
    if (a->kind == A_SYM) {
        if (ev->lookup && ev->lookup(ev->user, a->name, a->len, out))
            return ONNX_DX_OK;
        ev->unbound = a->name;
        ev->unbound_len = a->len;
        return ONNX_DX_UNBOUND;
    }
    int64_t x, y;
    enum onnx_dx_status s = eval_expr(a->a, ev, &x);
    if (s == ONNX_DX_OK)
        s = eval_expr(a->b, ev, &y);
    if (s != ONNX_DX_OK)
        return s;
    switch (a->kind) {
    case A_FLOOR:
        if (y == 0)
            return ONNX_DX_DIV_ZERO;
        return floordiv_ok(x, y, out) ? ONNX_DX_OK : ONNX_DX_OVERFLOW;
    case A_MIN:
        *out = x < y ? x : y;
        return ONNX_DX_OK;
    case A_MAX:
    case A_SYM:
        break;
    }
    *out = x > y ? x : y;
    return ONNX_DX_OK;
}

static enum onnx_dx_status eval_expr(const struct onnx_dx *e, struct eval *ev, int64_t *out)
{
    int64_t sum = 0;
    for (uint32_t i = 0; i < e->n; i++) {
        int64_t v = e->t[i].c;
        const struct mono *m = e->t[i].m;
        for (uint32_t k = 0; k < m->n; k++) {
            int64_t x;
            enum onnx_dx_status s = eval_atom(m->f[k].atom, ev, &x);
            if (s != ONNX_DX_OK)
                return s;
            for (uint32_t p = 0; p < m->f[k].exp; p++)
                if (!mul_ok(v, x, &v))
                    return ONNX_DX_OVERFLOW;
        }
        if (!add_ok(sum, v, &sum))
            return ONNX_DX_OVERFLOW;
    }
    *out = sum;
    return ONNX_DX_OK;
}

enum onnx_dx_status onnx_dx_eval(const struct onnx_dx *e, onnx_dx_lookup lookup, void *user,
                                 int64_t *out, const char **unbound, size_t *unbound_len)
{
    struct eval ev = {lookup, user, NULL, 0};
    enum onnx_dx_status s = eval_expr(e, &ev, out);
    if (unbound)
        *unbound = ev.unbound;
    if (unbound_len)
        *unbound_len = ev.unbound_len;
    return s;
}

/* ---- printing ---- */

struct out {
    char *buf;
    size_t cap, len;
};

static void put(struct out *o, const char *s, size_t n)
{
    size_t room = o->len + 1 < o->cap ? o->cap - 1 - o->len : 0;
    size_t k = n < room ? n : room;
    if (k)
        memcpy(o->buf + o->len, s, k);
    o->len += n; /* what does not fit is counted only */
}

static void put_u64(struct out *o, uint64_t v)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[sizeof tmp - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(o, tmp + sizeof tmp - n, n);
}

static void print_expr(const struct onnx_dx *e, struct out *o);

/* A symbol as it is, when it reads as one name ([A-Za-z_][A-Za-z0-9_]*,
 * not floor, min or max); else in single quotes, ' and \ escaped with a
 * backslash: a symbol named a*b prints 'a*b', never like the product. */
static void put_symbol(struct out *o, const char *name, size_t len)
{
    bool plain = len > 0 && !(name[0] >= '0' && name[0] <= '9');
    for (size_t i = 0; i < len && plain; i++) {
        char ch = name[i];
        plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                ch == '_';
    }
    if (plain && !((len == 5 && memcmp(name, "floor", 5) == 0) ||
                   (len == 3 && (memcmp(name, "min", 3) == 0 || memcmp(name, "max", 3) == 0)))) {
        put(o, name, len);
        return;
    }
    put(o, "'", 1);
    size_t from = 0;
    for (size_t i = 0; i < len; i++)
        if (name[i] == '\'' || name[i] == '\\') {
            put(o, name + from, i - from);
            put(o, "\\", 1);
            from = i;
        }
    put(o, name + from, len - from);
    put(o, "'", 1);
}

/* An argument in parentheses unless it is a constant >= 0 or one atom. */
static void print_arg(const struct onnx_dx *e, struct out *o)
{
    int64_t v;
    bool plain = (onnx_dx_is_const(e, &v) && v >= 0) ||
                 (e->n == 1 && e->t[0].c == 1 && e->t[0].m->n == 1 && e->t[0].m->f[0].exp == 1);
    if (!plain)
        put(o, "(", 1);
    print_expr(e, o);
    if (!plain)
        put(o, ")", 1);
}

static void print_atom(const struct atom *a, struct out *o)
{
    switch (a->kind) {
    case A_SYM:
        put_symbol(o, a->name, a->len);
        return;
    case A_FLOOR:
        put(o, "floor(", 6);
        print_arg(a->a, o);
        put(o, "/", 1);
        print_arg(a->b, o);
        put(o, ")", 1);
        return;
    case A_MIN:
    case A_MAX:
        put(o, a->kind == A_MIN ? "min(" : "max(", 4);
        print_expr(a->a, o);
        put(o, ",", 1);
        print_expr(a->b, o);
        put(o, ")", 1);
        return;
    }
}

static void print_term(const struct term *t, bool first, struct out *o)
{
    uint64_t mag = t->c < 0 ? 0 - (uint64_t)t->c : (uint64_t)t->c;
    if (t->c < 0)
        put(o, "-", 1);
    else if (!first)
        put(o, "+", 1);
    bool any = false;
    for (uint32_t k = 0; k < t->m->n; k++)
        for (uint32_t p = 0; p < t->m->f[k].exp; p++) {
            if (any)
                put(o, "*", 1);
            print_atom(t->m->f[k].atom, o);
            any = true;
        }
    if (!any || mag != 1) {
        if (any)
            put(o, "*", 1);
        put_u64(o, mag);
    }
}

static void print_expr(const struct onnx_dx *e, struct out *o)
{
    if (e->n == 0) {
        put(o, "0", 1);
        return;
    }
    /* the constant term (stored first) is printed last: H+1 */
    uint32_t start = e->t[0].m->n == 0 ? 1 : 0;
    bool first = true;
    for (uint32_t i = start; i < e->n; i++, first = false)
        print_term(&e->t[i], first, o);
    if (start)
        print_term(&e->t[0], first, o);
}

size_t onnx_dx_print(const struct onnx_dx *e, char *buf, size_t cap)
{
    struct out o = {buf, cap, 0};
    if (e)
        print_expr(e, &o);
    else
        put(&o, "?", 1);
    if (cap)
        buf[o.len < cap ? o.len : cap - 1] = '\0';
    return o.len;
}

static void symbols_of(const struct onnx_dx *e, void (*f)(void *user, const char *name, size_t len),
                       void *user, const struct atom **seen, uint32_t *n_seen, uint32_t cap)
{
    for (uint32_t i = 0; i < e->n; i++)
        for (uint32_t k = 0; k < e->t[i].m->n; k++) {
            const struct atom *a = e->t[i].m->f[k].atom;
            if (a->kind != A_SYM) {
                symbols_of(a->a, f, user, seen, n_seen, cap);
                symbols_of(a->b, f, user, seen, n_seen, cap);
                continue;
            }
            uint32_t j = 0;
            while (j < *n_seen && seen[j] != a)
                j++;
            if (j < *n_seen)
                continue;
            if (*n_seen < cap)
                seen[(*n_seen)++] = a;
            f(user, a->name, a->len);
        }
}

void onnx_dx_symbols(const struct onnx_dx *e, void (*f)(void *user, const char *name, size_t len),
                     void *user)
{
    const struct atom *seen[64];
    uint32_t n = 0;
    if (e)
        symbols_of(e, f, user, seen, &n, 64);
}
