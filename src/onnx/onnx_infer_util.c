/* onnx_infer_util.c - what the inference's families are written with:
 * the run's arena, name maps, failing with a reason, reading inputs,
 * attributes and values, setting outputs, and numpy's broadcast. */
#include "onnx_infer_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- memory ---- */

void *onnx__infer_alloc(struct onnx_infer *in, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct infer_chunk *c = in->chunks;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        if (in->out_of_memory || in->bytes + cap + sizeof *c > in->cap) {
            in->out_of_memory = true;
            return NULL;
        }
        c = malloc(sizeof *c + cap);
        if (!c) {
            in->out_of_memory = in->malloc_failed = true;
            return NULL;
        }
        in->bytes += cap + sizeof *c;
        c->cap = cap;
        c->used = 0;
        c->next = in->chunks;
        in->chunks = c;
    }
    void *p = (char *)c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

/* ---- name maps ---- */

struct nm_slot *onnx__nm_find(const struct namemap *m, const uint8_t *p, size_t n)
{
    if (!m->cap)
        return NULL;
    uint32_t j = (uint32_t)onnx_hash_slot(onnx_hash((struct onnx_bytes){p, n}), m->cap - 1);
    while (m->slot[j].v) {
        if (m->slot[j].n == n && (n == 0 || memcmp(m->slot[j].p, p, n) == 0))
            return &m->slot[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

void *onnx__nm_get(const struct namemap *m, const uint8_t *p, size_t n)
{
    struct nm_slot *s = onnx__nm_find(m, p, n);
    return s ? s->v : NULL;
}

/* Sets name -> v (replacing); false when memory ran out. */
bool onnx__nm_put(struct onnx_infer *in, struct namemap *m, const uint8_t *p, size_t n, void *v)
{
    struct nm_slot *s = onnx__nm_find(m, p, n);
    if (s) {
        s->v = v;
        return true;
    }
    if ((m->count + 1) * 2 > m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 16;
        struct nm_slot *slot = onnx__infer_alloc(in, cap * sizeof *slot);
        if (!slot)
            return false;
        for (uint32_t i = 0; i < m->cap; i++) {
            if (!m->slot[i].v)
                continue;
            uint32_t j = (uint32_t)onnx_hash_slot(
                onnx_hash((struct onnx_bytes){m->slot[i].p, m->slot[i].n}), cap - 1);
            while (slot[j].v)
                j = (j + 1) & (cap - 1);
            slot[j] = m->slot[i];
        }
        m->slot = slot; /* the old slots stay in the arena */
        m->cap = cap;
    }
    uint32_t j = (uint32_t)onnx_hash_slot(onnx_hash((struct onnx_bytes){p, n}), m->cap - 1);
    while (m->slot[j].v)
        j = (j + 1) & (m->cap - 1);
    m->slot[j] = (struct nm_slot){p, n, v};
    m->count++;
    return true;
}

void onnx__nm_clear(struct namemap *m)
{
    if (m->cap)
        memset(m->slot, 0, m->cap * sizeof *m->slot);
    m->count = 0;
}

bool onnx__bytes_is(struct onnx_bytes b, const char *s)
{
    size_t n = strlen(s);
    return b.n == n && (n == 0 || memcmp(b.p, s, n) == 0);
}

/* ---- helpers for the families ---- */

void *onnx__unconst(const void *p)
{
    return (void *)(uintptr_t)p;
}

bool onnx__fail(struct nctx *c, const char *why)
{
    c->why = why;
    return false;
}

bool onnx__invalid(struct nctx *c, const char *why)
{
    c->in->contradictions++;
    return onnx__fail(c, why);
}

bool onnx__fail_name(struct nctx *c, const char *fmt, struct onnx_bytes name)
{
    const char *at = strstr(fmt, "%s");
    size_t pre = at ? (size_t)(at - fmt) : strlen(fmt), nn = name.n > 200 ? 200 : name.n;
    size_t post = at ? strlen(at + 2) : 0;
    char *s = onnx__infer_alloc(c->in, pre + nn + post + 1);
    if (!s)
        return onnx__fail(c, "memory cap");
    memcpy(s, fmt, pre);
    for (size_t i = 0; i < nn; i++) /* any byte but NUL, which would cut the text */
        s[pre + i] = (char)(name.p[i] ? name.p[i] : '?');
    if (at)
        memcpy(s + pre + nn, at + 2, post);
    s[pre + nn + post] = '\0';
    return onnx__fail(c, s);
}

const struct onnx_dx *onnx__K(struct nctx *c, int64_t v)
{
    return onnx_dx_const(c->in->dx, v);
}

const struct ival *onnx__IN(struct nctx *c, uint32_t i)
{
    return i < c->n_in ? c->inv[i] : NULL;
}

const struct ival *onnx__SHAPED(struct nctx *c, uint32_t i)
{
    const struct ival *v = onnx__IN(c, i);
    return v && v->pub.rank >= 0 ? v : NULL;
}

bool onnx__set_out(struct nctx *c, uint32_t i, int32_t rank, const struct onnx_dx *const *dims)
{
    if (i >= c->n_out)
        return true;
    if (rank < 0 || rank > ONNX_INFER_MAX_RANK)
        return onnx__fail(c, "the output's rank is out of range");
    const struct onnx_dx **d = onnx__infer_alloc(c->in, (size_t)rank * PTR_BYTES + 1);
    if (!d)
        return onnx__fail(c, "memory cap");
    for (int32_t k = 0; k < rank; k++) {
        int64_t v;
        d[k] = dims ? dims[k] : NULL;
        if (d[k] && onnx_dx_is_const(d[k], &v) && v < 0) { /* no tensor has it: unknown */
            d[k] = NULL;
            c->why = "a dim computed from the attributes is negative";
        }
    }
    c->out[i].pub.rank = rank;
    c->out[i].pub.dims = d;
    return true;
}

const struct onnx_dx *onnx__value_wrap_to_type(struct onnx_dx_ctx *dx, int32_t elem_type,
                                               const struct onnx_dx *v)
{
    static const struct {
        int32_t type;
        int bits;
        bool is_signed;
    } ints[] = {{2, 8, false}, {3, 8, true},    {4, 16, false}, {5, 16, true},
                {6, 32, true}, {12, 32, false}, {21, 4, false}, {22, 4, true}};
    int64_t k;
    if (!v || elem_type == DT_INT64 || !elem_type)
        return v; /* int64's arithmetic is the expressions' (NULL past it); unknown type: as is */
    if (elem_type == DT_UINT64) /* a constant 0..INT64_MAX; 2^63.. has no int64 form */
        return onnx_dx_is_const(v, &k) && k >= 0 ? v : NULL;
    if (elem_type == DT_BOOL)
        return onnx_dx_is_const(v, &k) ? onnx_dx_const(dx, k != 0) : NULL;
    for (size_t t = 0; t < sizeof ints / sizeof ints[0]; t++) {
        if (ints[t].type != elem_type)
            continue;
        /* a symbol may take any value: only constants have a known wrap */
        if (!onnx_dx_is_const(v, &k))
            return NULL;
        uint64_t m = ((uint64_t)1 << ints[t].bits) - 1, u = (uint64_t)k & m;
        if (ints[t].is_signed && u > m / 2)
            return onnx_dx_const(dx, (int64_t)u - (int64_t)m - 1);
        return onnx_dx_const(dx, (int64_t)u);
    }
    return v; /* float types: their values are the float families' */
}

bool onnx__set_vals(struct nctx *c, uint32_t i, int32_t n, const struct onnx_dx *const *vals)
{
    if (i >= c->n_out || n < 0 || n > ONNX_INFER_VALUES)
        return true;
    const struct onnx_dx **v = onnx__infer_alloc(c->in, (size_t)n * PTR_BYTES + 1);
    if (!v)
        return true; /* values are a bonus: their absence is no failure */
    bool any = false;
    for (int32_t k = 0; k < n; k++)
        any |=
            (v[k] = onnx__value_wrap_to_type(c->in->dx, c->out[i].pub.elem_type, vals[k])) != NULL;
    if (!any && n)
        return true;
    c->out[i].n_vals = n;
    c->out[i].vals = v;
    return true;
}

bool onnx__in_vals(struct nctx *c, uint32_t i, const struct onnx_dx *const **v, int32_t *n)
{
    const struct ival *x = onnx__IN(c, i);
    if (!x || x->n_vals < 0)
        return false;
    *v = x->vals;
    *n = x->n_vals;
    return true;
}

bool onnx__const_ints(struct nctx *c, uint32_t i, int64_t *buf, uint32_t cap, uint32_t *n)
{
    const struct onnx_dx *const *v;
    int32_t m;
    if (!onnx__in_vals(c, i, &v, &m) || (uint32_t)m > cap)
        return false;
    for (int32_t k = 0; k < m; k++)
        if (!onnx_dx_is_const(v[k], &buf[k]))
            return false;
    *n = (uint32_t)m;
    return true;
}

bool onnx__const_numel(const struct ival *v, int64_t *n)
{
    int64_t p = 1, d;
    if (!v || v->pub.rank < 0)
        return false;
    for (int32_t k = 0; k < v->pub.rank; k++) {
        if (!onnx_dx_is_const(v->pub.dims[k], &d) || d < 0)
            return false;
        if (d && p > INT64_MAX / d)
            return false;
        p *= d;
    }
    *n = p;
    return true;
}

const struct onnx_attr *onnx__attr(struct nctx *c, const char *name)
{
    const struct onnx_attr *found = NULL;
    for (uint32_t i = 0; i < c->node->n_attrs; i++)
        if (onnx__bytes_is(c->node->attrs[i].name, name))
            found = &c->node->attrs[i]; /* the last one, as protobuf's reader keeps */
    return found;
}

int64_t onnx__attr_i(struct nctx *c, const char *name, int64_t def)
{
    const struct onnx_attr *a = onnx__attr(c, name);
    return a && (a->has_i || a->type == ONNX_ATTR_INT) ? a->i : def;
}

bool onnx__attr_ints(struct nctx *c, const char *name, const int64_t **v, uint32_t *n)
{
    const struct onnx_attr *a = onnx__attr(c, name);
    if (!a || (a->type != ONNX_ATTR_INTS && a->n_ints == 0))
        return false;
    *v = a->ints;
    *n = a->n_ints;
    return true;
}

bool onnx__attr_s_is(struct nctx *c, const char *name, const char *want)
{
    const struct onnx_attr *a = onnx__attr(c, name);
    return a && onnx__bytes_is(a->s, want);
}

bool onnx__norm_axis(int64_t a, int32_t rank, int32_t *out)
{
    if (a < -(int64_t)rank || a >= rank)
        return false;
    *out = (int32_t)(a < 0 ? a + rank : a);
    return true;
}

bool onnx__broadcast(struct nctx *c, const struct ival *const *v, uint32_t n,
                     const struct onnx_dx **dims, int32_t *rank)
{
    int32_t r = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!v[i] || v[i]->pub.rank < 0)
            return onnx__fail(c, "an input's shape is unknown");
        if (v[i]->pub.rank > r)
            r = v[i]->pub.rank;
    }
    if (r > ONNX_INFER_MAX_RANK)
        return onnx__fail(c, "rank too large");
    const struct onnx_dx *one = onnx__K(c, 1);
    for (int32_t k = 0; k < r; k++) {
        const struct onnx_dx *d = one;
        bool unknown = false;
        for (uint32_t i = 0; i < n; i++) {
            int32_t j = k - (r - v[i]->pub.rank);
            if (j < 0)
                continue;
            const struct onnx_dx *e = v[i]->pub.dims[j];
            int64_t ev, dv;
            if (!e) {
                unknown = true; /* unless another dim settles it, below */
                continue;
            }
            if (e == one || e == d)
                continue;
            if (d == one) {
                d = e;
                continue;
            }
            bool ec = onnx_dx_is_const(e, &ev), dc = onnx_dx_is_const(d, &dv);
            if (ec && dc)
                return onnx__invalid(c, "the inputs' shapes do not broadcast");
            /* a symbol against a constant c != 1 must be c (or 1) */
            if (ec)
                d = e;
            else if (!dc)
                unknown = true; /* two different expressions */
        }
        /* an unknown dim broadcast with d: the result is d only when d is
         * a constant other than 1 (the unknown one is d or 1) */
        int64_t dv;
        if (unknown && !(onnx_dx_is_const(d, &dv) && dv != 1))
            d = NULL;
        dims[k] = d;
    }
    *rank = r;
    return true;
}

const struct onnx_dx *onnx__dims_product(struct nctx *c, const struct onnx_dx *const *d,
                                         int32_t from, int32_t to)
{
    const struct onnx_dx *p = onnx__K(c, 1);
    for (int32_t k = from; k < to; k++)
        p = onnx_dx_mul(c->in->dx, p, d[k]);
    return p;
}

const struct onnx_dx *onnx__as_dim(const struct onnx_dx *v)
{
    int64_t x;
    if (onnx_dx_is_const(v, &x))
        return x >= 0 ? v : NULL;
    return onnx_dx_nonneg(v) ? v : NULL;
}
