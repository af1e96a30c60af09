/* onnx_dimexpr.c - canonical, interned integer expressions (see
 * onnx_dimexpr.h for the form). Three intern tables: atoms (symbols,
 * floor, min, max), monomials (sorted atom powers) and expressions (sorted
 * terms); each object is built in scratch, looked up by content and copied
 * into the arena only when new, so equal content is one pointer. */
#include "onnx_dimexpr_int.h"

#include <stdlib.h>
#include <string.h>

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
    bool malloc_failed; /* the system said no (not the cap): the caller's run fails */
    struct chunk *chunks;
    struct table atoms, monos, exprs;
    uint32_t next_id;
    const struct mono *one; /* the empty monomial */
    struct term scratch[SCRATCH_TERMS];
    struct term scratch2[SCRATCH_TERMS];
};

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
            ctx->exhausted = ctx->malloc_failed = true;
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
        ctx->exhausted = ctx->malloc_failed = true;
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
    const void *found = *slot;
    if (found != NULL)
        return found;
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
    const void *found = *slot;
    if (found != NULL)
        return found;
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
    const void *found = *slot;
    if (found != NULL)
        return found;
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

bool onnx_dx_ctx_malloc_failed(const struct onnx_dx_ctx *ctx)
{
    return ctx->malloc_failed;
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
    /* Refused before it is built: a product of more than
     * ONNX_DX_MAX_TERMS term pairs (64-term values multiplied 4,096 pairs
     * at a time, each interned, then refused, took seconds a node). */
    if ((uint64_t)a->n * b->n > ONNX_DX_MAX_TERMS)
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
