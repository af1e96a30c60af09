/* onnx_dimexpr.c - canonical, interned integer expressions (see
 * onnx_dimexpr.h for the form). Three intern tables: atoms (symbols,
 * floor, min, max), monomials (sorted atom powers) and expressions (sorted
 * terms); each object is built in scratch, looked up by content and copied
 * into the arena only when new, so equal content is one pointer. */
#include "onnx_dimexpr.h"

#include <stdlib.h>
#include <string.h>

enum atom_kind { A_SYM, A_FLOOR, A_MIN, A_MAX };

struct atom {
    uint32_t id, hash, depth, size;
    enum atom_kind kind;
    bool nonneg;
    const char *name; /* A_SYM */
    size_t len;
    const struct onnx_dx *a, *b; /* the others */
};

struct pw {
    const struct atom *atom;
    uint32_t exp;
};

#define MAX_FACTORS 16 /* atom powers in one monomial */
#define MAX_EXP     64

struct mono {
    uint32_t id, hash, n, depth, size;
    bool nonneg;
    const struct pw *f; /* sorted by atom id */
};

struct term {
    int64_t c;
    const struct mono *m;
};

struct onnx_dx {
    uint32_t id, hash, n, depth, size;
    bool nonneg;
    const struct term *t; /* sorted by monomial id, the constant (id 0) first */
};

struct table {
    void **slot;
    uint32_t cap, count;
};

struct chunk {
    struct chunk *next;
    size_t used, cap;
    max_align_t data[];
};

#define SCRATCH_TERMS (ONNX_DX_MAX_TERMS * ONNX_DX_MAX_TERMS)

struct onnx_dx_ctx {
    size_t cap, bytes;
    bool exhausted;
    struct chunk *chunks;
    struct table atoms, monos, exprs;
    uint32_t next_id;
    const struct mono *one; /* the empty monomial */
    struct term scratch[SCRATCH_TERMS];
    struct term scratch2[SCRATCH_TERMS];
};

/* ---- checked int64 ---- */

static bool add_ok(int64_t a, int64_t b, int64_t *r)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return false;
    *r = a + b;
    return true;
}

static bool mul_ok(int64_t a, int64_t b, int64_t *r)
{
    if (a == 0 || b == 0) {
        *r = 0;
        return true;
    }
    if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN))
        return false;
    if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
              : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
        return false;
    *r = a * b;
    return true;
}

/* floor(a/b), b != 0, false when it overflows (INT64_MIN / -1). */
static bool floordiv_ok(int64_t a, int64_t b, int64_t *q)
{
    if (b == -1 && a == INT64_MIN)
        return false;
    int64_t t = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        t--;
    *q = t;
    return true;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    uint64_t x = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
    uint64_t y = b < 0 ? 0 - (uint64_t)b : (uint64_t)b;
    while (y) {
        uint64_t t = x % y;
        x = y;
        y = t;
    }
    return x > (uint64_t)INT64_MAX ? 1 : (int64_t)x;
}

/* ---- memory ---- */

static void *arena_alloc(struct onnx_dx_ctx *ctx, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct chunk *c = ctx->chunks;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        if (ctx->bytes + cap + sizeof(struct chunk) > ctx->cap) {
            ctx->exhausted = true;
            return NULL;
        }
        c = malloc(sizeof(struct chunk) + cap);
        if (!c) {
            ctx->exhausted = true;
            return NULL;
        }
        ctx->bytes += cap + sizeof(struct chunk);
        c->cap = cap;
        c->used = 0;
        c->next = ctx->chunks;
        ctx->chunks = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    return p;
}

static bool table_grow(struct onnx_dx_ctx *ctx, struct table *t, uint32_t (*hash_of)(const void *))
{
    uint32_t cap = t->cap ? t->cap * 2 : 256;
    size_t bytes = (size_t)cap * sizeof(void *);
    if (ctx->bytes + bytes > ctx->cap) {
        ctx->exhausted = true;
        return false;
    }
    void **slot = calloc(cap, sizeof(void *));
    if (!slot) {
        ctx->exhausted = true;
        return false;
    }
    for (uint32_t i = 0; i < t->cap; i++) {
        if (!t->slot[i])
            continue;
        uint32_t j = hash_of(t->slot[i]) & (cap - 1);
        while (slot[j])
            j = (j + 1) & (cap - 1);
        slot[j] = t->slot[i];
    }
    ctx->bytes += bytes;
    ctx->bytes -= (size_t)t->cap * sizeof(void *);
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return true;
}

static uint32_t mix(uint32_t h, uint64_t v)
{
    v ^= v >> 33;
    v *= 0xff51afd7ed558ccdULL;
    v ^= v >> 33;
    return (h ^ (uint32_t)v ^ (uint32_t)(v >> 32)) * 16777619u;
}

static uint32_t atom_hash_of(const void *p)
{
    return ((const struct atom *)p)->hash;
}
static uint32_t mono_hash_of(const void *p)
{
    return ((const struct mono *)p)->hash;
}
static uint32_t expr_hash_of(const void *p)
{
    return ((const struct onnx_dx *)p)->hash;
}

/* The slot where an object equal to key is, or where it would go (after
 * growing the table). NULL when the table cannot grow. */
static void **table_find(struct onnx_dx_ctx *ctx, struct table *t, uint32_t hash,
                         bool (*eq)(const void *, const void *), const void *key,
                         uint32_t (*hash_of)(const void *))
{
    if ((t->count + 1) * 4 > t->cap * 3 && !table_grow(ctx, t, hash_of))
        return NULL;
    uint32_t j = hash & (t->cap - 1);
    while (t->slot[j] && !eq(t->slot[j], key))
        j = (j + 1) & (t->cap - 1);
    return &t->slot[j];
}

/* ---- atoms ---- */

static bool atom_eq(const void *x, const void *y)
{
    const struct atom *a = x, *b = y;
    if (a->hash != b->hash || a->kind != b->kind)
        return false;
    if (a->kind == A_SYM)
        return a->len == b->len && memcmp(a->name, b->name, a->len) == 0;
    return a->a == b->a && a->b == b->b;
}

static const struct atom *atom_intern(struct onnx_dx_ctx *ctx, struct atom *key)
{
    void **slot = table_find(ctx, &ctx->atoms, key->hash, atom_eq, key, atom_hash_of);
    if (!slot)
        return NULL;
    if (*slot)
        return *slot;
    struct atom *a = arena_alloc(ctx, sizeof *a + (key->kind == A_SYM ? key->len + 1 : 0));
    if (!a)
        return NULL;
    *a = *key;
    if (key->kind == A_SYM) {
        char *name = (char *)(a + 1);
        if (key->len)
            memcpy(name, key->name, key->len);
        name[key->len] = '\0';
        a->name = name;
    }
    a->id = ctx->next_id++;
    *slot = a;
    ctx->atoms.count++;
    return a;
}

/* ---- monomials ---- */

static bool mono_eq(const void *x, const void *y)
{
    const struct mono *a = x, *b = y;
    if (a->hash != b->hash || a->n != b->n)
        return false;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->f[i].atom != b->f[i].atom || a->f[i].exp != b->f[i].exp)
            return false;
    return true;
}

static const struct mono *mono_intern(struct onnx_dx_ctx *ctx, const struct pw *f, uint32_t n)
{
    struct mono key = {0};
    key.n = n;
    key.f = f;
    key.hash = 2166136261u;
    key.nonneg = true;
    for (uint32_t i = 0; i < n; i++) {
        key.hash = mix(key.hash, (uint64_t)f[i].atom->id << 8 | f[i].exp);
        /* an even power is >= 0 whatever the atom */
        if (!f[i].atom->nonneg && f[i].exp % 2)
            key.nonneg = false;
        if (f[i].atom->depth > key.depth)
            key.depth = f[i].atom->depth;
        key.size += f[i].atom->size * f[i].exp;
    }
    void **slot = table_find(ctx, &ctx->monos, key.hash, mono_eq, &key, mono_hash_of);
    if (!slot)
        return NULL;
    if (*slot)
        return *slot;
    struct mono *m = arena_alloc(ctx, sizeof *m + n * sizeof(struct pw));
    if (!m)
        return NULL;
    *m = key;
    struct pw *copy = (struct pw *)(m + 1);
    if (n)
        memcpy(copy, f, n * sizeof *f);
    m->f = copy;
    m->id = ctx->next_id++;
    *slot = m;
    ctx->monos.count++;
    return m;
}

static const struct mono *mono_mul(struct onnx_dx_ctx *ctx, const struct mono *a,
                                   const struct mono *b)
{
    if (a->n == 0)
        return b;
    if (b->n == 0)
        return a;
    struct pw f[2 * MAX_FACTORS];
    uint32_t n = 0, i = 0, j = 0;
    while (i < a->n || j < b->n) {
        if (j >= b->n || (i < a->n && a->f[i].atom->id < b->f[j].atom->id)) {
            f[n++] = a->f[i++];
        } else if (i >= a->n || b->f[j].atom->id < a->f[i].atom->id) {
            f[n++] = b->f[j++];
        } else {
            f[n] = a->f[i++];
            f[n++].exp += b->f[j++].exp;
            if (f[n - 1].exp > MAX_EXP)
                return NULL;
        }
    }
    if (n > MAX_FACTORS)
        return NULL;
    return mono_intern(ctx, f, n);
}

/* a / b when b's powers are within a's (the quotient monomial), else NULL. */
static const struct mono *mono_div(struct onnx_dx_ctx *ctx, const struct mono *a,
                                   const struct mono *b)
{
    struct pw f[MAX_FACTORS];
    uint32_t n = 0, j = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        struct pw p = a->f[i];
        if (j < b->n && b->f[j].atom == p.atom) {
            if (b->f[j].exp > p.exp)
                return NULL;
            p.exp -= b->f[j].exp;
            j++;
        }
        if (p.exp)
            f[n++] = p;
    }
    if (j < b->n)
        return NULL;
    return mono_intern(ctx, f, n);
}

/* ---- expressions ---- */

static bool expr_eq(const void *x, const void *y)
{
    const struct onnx_dx *a = x, *b = y;
    if (a->hash != b->hash || a->n != b->n)
        return false;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->t[i].c != b->t[i].c || a->t[i].m != b->t[i].m)
            return false;
    return true;
}

/* The expression of terms t[0..n), sorted by monomial id with distinct
 * monomials and no zero coefficient. */
static const struct onnx_dx *expr_intern(struct onnx_dx_ctx *ctx, const struct term *t, uint32_t n)
{
    if (n > ONNX_DX_MAX_TERMS)
        return NULL;
    struct onnx_dx key = {0};
    key.n = n;
    key.t = t;
    key.hash = 2166136261u;
    key.nonneg = true;
    for (uint32_t i = 0; i < n; i++) {
        key.hash = mix(key.hash, t[i].m->id);
        key.hash = mix(key.hash, (uint64_t)t[i].c);
        if (t[i].c < 0 || !t[i].m->nonneg)
            key.nonneg = false;
        if (t[i].m->depth > key.depth)
            key.depth = t[i].m->depth;
        key.size += t[i].m->size + 1;
    }
    if (key.depth > ONNX_DX_MAX_DEPTH || key.size > ONNX_DX_MAX_SIZE)
        return NULL;
    void **slot = table_find(ctx, &ctx->exprs, key.hash, expr_eq, &key, expr_hash_of);
    if (!slot)
        return NULL;
    if (*slot)
        return *slot;
    struct onnx_dx *e = arena_alloc(ctx, sizeof *e + n * sizeof(struct term));
    if (!e)
        return NULL;
    *e = key;
    struct term *copy = (struct term *)(e + 1);
    if (n)
        memcpy(copy, t, n * sizeof *t);
    e->t = copy;
    e->id = ctx->next_id++;
    *slot = e;
    ctx->exprs.count++;
    return e;
}

struct onnx_dx_ctx *onnx_dx_ctx_new(size_t mem_cap)
{
    struct onnx_dx_ctx *ctx = calloc(1, sizeof *ctx);
    if (!ctx)
        return NULL;
    ctx->cap = mem_cap;
    ctx->bytes = sizeof *ctx;
    ctx->next_id = 0;
    ctx->one = mono_intern(ctx, NULL, 0); /* id 0: the constant term sorts first */
    if (!ctx->one) {
        onnx_dx_ctx_free(ctx);
        return NULL;
    }
    return ctx;
}

void onnx_dx_ctx_free(struct onnx_dx_ctx *ctx)
{
    if (!ctx)
        return;
    for (struct chunk *c = ctx->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(ctx->atoms.slot);
    free(ctx->monos.slot);
    free(ctx->exprs.slot);
    free(ctx);
}

size_t onnx_dx_ctx_bytes(const struct onnx_dx_ctx *ctx)
{
    return ctx->bytes;
}

bool onnx_dx_ctx_exhausted(const struct onnx_dx_ctx *ctx)
{
    return ctx->exhausted;
}

const struct onnx_dx *onnx_dx_const(struct onnx_dx_ctx *ctx, int64_t v)
{
    struct term t = {v, ctx->one};
    return expr_intern(ctx, &t, v != 0);
}

static const struct onnx_dx *from_atom(struct onnx_dx_ctx *ctx, struct atom *key)
{
    const struct atom *a = atom_intern(ctx, key);
    if (!a)
        return NULL;
    struct pw p = {a, 1};
    const struct mono *m = mono_intern(ctx, &p, 1);
    if (!m)
        return NULL;
    struct term t = {1, m};
    return expr_intern(ctx, &t, 1);
}

const struct onnx_dx *onnx_dx_symbol(struct onnx_dx_ctx *ctx, const char *name, size_t len)
{
    struct atom key = {0};
    key.kind = A_SYM;
    key.name = name;
    key.len = len;
    key.nonneg = true;
    key.size = 1;
    key.hash = 2166136261u;
    for (size_t i = 0; i < len; i++)
        key.hash = (key.hash ^ (uint8_t)name[i]) * 16777619u;
    return from_atom(ctx, &key);
}

static const struct onnx_dx *make_atom(struct onnx_dx_ctx *ctx, enum atom_kind kind,
                                       const struct onnx_dx *a, const struct onnx_dx *b,
                                       bool nonneg)
{
    struct atom key = {0};
    key.kind = kind;
    key.a = a;
    key.b = b;
    key.nonneg = nonneg;
    key.depth = 1 + (a->depth > b->depth ? a->depth : b->depth);
    key.size = 1 + a->size + b->size;
    key.hash = mix(mix((uint32_t)kind * 2654435761u, a->id), b->id);
    if (key.depth > ONNX_DX_MAX_DEPTH || key.size > ONNX_DX_MAX_SIZE)
        return NULL;
    return from_atom(ctx, &key);
}

/* a + s*b for s = 1 or -1: a merge of the sorted term lists. */
static const struct onnx_dx *add_signed(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                        const struct onnx_dx *b, int64_t s)
{
    if (!a || !b)
        return NULL;
    struct term *t = ctx->scratch;
    uint32_t n = 0, i = 0, j = 0;
    while (i < a->n || j < b->n) {
        struct term x;
        if (j >= b->n || (i < a->n && a->t[i].m->id < b->t[j].m->id)) {
            x = a->t[i++];
        } else {
            x = b->t[j];
            if (!mul_ok(x.c, s, &x.c))
                return NULL;
            if (i < a->n && a->t[i].m == b->t[j].m && !add_ok(a->t[i++].c, x.c, &x.c))
                return NULL;
            j++;
        }
        if (x.c)
            t[n++] = x;
    }
    return expr_intern(ctx, t, n);
}

const struct onnx_dx *onnx_dx_add(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b)
{
    return add_signed(ctx, a, b, 1);
}

const struct onnx_dx *onnx_dx_sub(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b)
{
    return add_signed(ctx, a, b, -1);
}

static int term_cmp(const void *x, const void *y)
{
    const struct term *a = x, *b = y;
    return a->m->id < b->m->id ? -1 : a->m->id > b->m->id;
}

/* Sorts t[0..n) by monomial, adds up equal monomials and drops zeros. */
static const struct onnx_dx *normalise(struct onnx_dx_ctx *ctx, struct term *t, uint32_t n)
{
    qsort(t, n, sizeof *t, term_cmp);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (k && t[k - 1].m == t[i].m) {
            if (!add_ok(t[k - 1].c, t[i].c, &t[k - 1].c))
                return NULL;
        } else {
            if (k && t[k - 1].c == 0)
                k--;
            t[k++] = t[i];
        }
    }
    if (k && t[k - 1].c == 0)
        k--;
    return expr_intern(ctx, t, k);
}

const struct onnx_dx *onnx_dx_mul(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b)
{
    if (!a || !b)
        return NULL;
    struct term *t = ctx->scratch2;
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->n; i++)
        for (uint32_t j = 0; j < b->n; j++) {
            if (!mul_ok(a->t[i].c, b->t[j].c, &t[n].c))
                return NULL;
            t[n].m = mono_mul(ctx, a->t[i].m, b->t[j].m);
            if (!t[n].m)
                return NULL;
            n++;
        }
    return normalise(ctx, t, n);
}

bool onnx_dx_is_const(const struct onnx_dx *e, int64_t *v)
{
    if (!e || e->n > 1 || (e->n == 1 && e->t[0].m->n != 0))
        return false;
    if (v)
        *v = e->n ? e->t[0].c : 0;
    return true;
}

bool onnx_dx_nonneg(const struct onnx_dx *e)
{
    return e && e->nonneg;
}

/* a / b exactly when b is one term c*m dividing every term of a. */
static const struct onnx_dx *exact_quotient(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                            const struct onnx_dx *b)
{
    if (b->n != 1)
        return NULL;
    struct term *t = ctx->scratch2;
    for (uint32_t i = 0; i < a->n; i++) {
        if (b->t[0].c == -1 && a->t[i].c == INT64_MIN)
            return NULL;
        if (a->t[i].c % b->t[0].c != 0)
            return NULL;
        t[i].c = a->t[i].c / b->t[0].c;
        t[i].m = mono_div(ctx, a->t[i].m, b->t[0].m);
        if (!t[i].m)
            return NULL;
    }
    return normalise(ctx, t, a->n);
}

/* floor(a/c) for a constant c > 0: Q + floor(R/c), see the header. */
static const struct onnx_dx *floordiv_const(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                            int64_t c)
{
    if (c == 1)
        return a;
    struct term q[ONNX_DX_MAX_TERMS] = {{0, NULL}}, r[ONNX_DX_MAX_TERMS] = {{0, NULL}};
    uint32_t nq = 0, nr = 0;
    int64_t g = c;
    for (uint32_t i = 0; i < a->n; i++) {
        int64_t qi, ri;
        if (!floordiv_ok(a->t[i].c, c, &qi))
            return NULL;
        ri = a->t[i].c % c; /* k - qi*c, in [0,c), without forming qi*c */
        if (ri < 0)
            ri += c;
        if (qi)
            q[nq++] = (struct term){qi, a->t[i].m};
        if (ri) {
            r[nr++] = (struct term){ri, a->t[i].m};
            g = gcd64(g, ri);
        }
    }
    const struct onnx_dx *qe = expr_intern(ctx, q, nq);
    if (nr == 0 || (nr == 1 && r[0].m->n == 0)) /* R a constant in [0,c): floor is 0 */
        return qe;
    for (uint32_t i = 0; i < nr; i++)
        r[i].c /= g;
    const struct onnx_dx *re = expr_intern(ctx, r, nr);
    const struct onnx_dx *ce = onnx_dx_const(ctx, c / g);
    if (!re || !ce)
        return NULL;
    return onnx_dx_add(ctx, qe, make_atom(ctx, A_FLOOR, re, ce, re->nonneg));
}

static const struct onnx_dx *negate(struct onnx_dx_ctx *ctx, const struct onnx_dx *a)
{
    return onnx_dx_sub(ctx, onnx_dx_const(ctx, 0), a);
}

const struct onnx_dx *onnx_dx_floordiv(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                       const struct onnx_dx *b)
{
    if (!a || !b)
        return NULL;
    int64_t c;
    if (onnx_dx_is_const(b, &c)) {
        if (c == 0 || c == INT64_MIN)
            return NULL;
        if (c < 0)
            return floordiv_const(ctx, negate(ctx, a), -c);
        return floordiv_const(ctx, a, c);
    }
    const struct onnx_dx *q = exact_quotient(ctx, a, b);
    if (q)
        return q;
    if (a->n == 0)
        return a; /* 0 / b is 0 (b not a constant 0) */
    return make_atom(ctx, A_FLOOR, a, b, a->nonneg && b->nonneg);
}

const struct onnx_dx *onnx_dx_ceildiv(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                      const struct onnx_dx *b)
{
    if (!a || !b)
        return NULL;
    int64_t c;
    if (onnx_dx_is_const(b, &c)) {
        if (c == 0 || c == INT64_MIN)
            return NULL;
        if (c < 0) {
            a = negate(ctx, a);
            c = -c;
        }
        /* ceil(a/c) = floor((a+c-1)/c) */
        return floordiv_const(ctx, onnx_dx_add(ctx, a, onnx_dx_const(ctx, c - 1)), c);
    }
    const struct onnx_dx *q = exact_quotient(ctx, a, b);
    if (q)
        return q;
    return negate(ctx, onnx_dx_floordiv(ctx, negate(ctx, a), b));
}

const struct onnx_dx *onnx_dx_mod(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b)
{
    return onnx_dx_sub(ctx, a, onnx_dx_mul(ctx, b, onnx_dx_floordiv(ctx, a, b)));
}

static const struct onnx_dx *minmax(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                    const struct onnx_dx *b, bool is_min)
{
    if (!a || !b)
        return NULL;
    if (a == b)
        return a;
    int64_t d;
    const struct onnx_dx *diff = onnx_dx_sub(ctx, a, b);
    if (onnx_dx_is_const(diff, &d)) /* min(x+k, x) */
        return (d <= 0) == is_min ? a : b;
    if (onnx_dx_is_const(b, &d) && d == 0 && a->nonneg)
        return is_min ? b : a;
    if (onnx_dx_is_const(a, &d) && d == 0 && b->nonneg)
        return is_min ? a : b;
    if (a->id > b->id) {
        const struct onnx_dx *t = a;
        a = b;
        b = t;
    }
    bool nonneg = is_min ? a->nonneg && b->nonneg : a->nonneg || b->nonneg;
    return make_atom(ctx, is_min ? A_MIN : A_MAX, a, b, nonneg);
}

const struct onnx_dx *onnx_dx_min(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b)
{
    return minmax(ctx, a, b, true);
}

const struct onnx_dx *onnx_dx_max(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b)
{
    return minmax(ctx, a, b, false);
}

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
    for (size_t i = 0; i < n; i++, o->len++)
        if (o->len + 1 < o->cap)
            o->buf[o->len] = s[i];
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
        put(o, a->name, a->len);
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
