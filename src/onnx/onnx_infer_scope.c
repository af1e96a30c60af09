/* onnx_infer_scope.c - what the driver and the families share about
 * values: symbols (the model's dim_params, bound by --dim or not, and the
 * fresh ones of data-dependent dims), the names in scope (a graph's own,
 * then its parents'), and declarations (a value's declared type, merged
 * with the inferred one; --shape). Below both the driver (onnx_infer.c)
 * and the families, so neither calls up into the other. */
#include "onnx_infer_int.h"

#include <string.h>

/* A symbol of the model (a dim_param) or of data (fresh), bound or not. */
static const struct onnx_dx *symbol(struct onnx_infer *in, const uint8_t *p, size_t n,
                                    const uint8_t *owner)
{
    int64_t *bound = onnx__nm_get(&in->binding, p, n);
    if (bound)
        return onnx_dx_const(in->dx, *bound);
    struct nm_slot *s = onnx__nm_find(&in->symbol_names, p, n);
    if (!s) {
        if (in->n_symbols == in->cap_symbols) {
            size_t cap = in->cap_symbols ? in->cap_symbols * 2 : 16;
            struct onnx_bytes *b = onnx__infer_alloc(in, cap * sizeof *b);
            if (!b)
                return NULL;
            if (in->n_symbols)
                memcpy(b, in->symbols, in->n_symbols * sizeof *b);
            in->symbols = b;
            in->cap_symbols = cap;
        }
        in->symbols[in->n_symbols++] = (struct onnx_bytes){p, n};
        if (!onnx__nm_put(in, &in->symbol_names, p, n, onnx__unconst(owner ? owner : p)))
            return NULL;
    }
    return onnx_dx_symbol(in->dx, (const char *)p, n);
}

static bool reserve_type(struct onnx_infer *in, const struct onnx_type *t)
{
    for (uint32_t d = 0; t && t->has_shape && t->dims && d < t->rank; d++)
        if (t->dims[d].kind == ONNX_DIM_PARAM && t->dims[d].param.n &&
            !onnx__nm_put(in, &in->model_symbols, t->dims[d].param.p, t->dims[d].param.n,
                          onnx__unconst(t->dims[d].param.p)))
            return false;
    return !t || !t->elem || reserve_type(in, t->elem);
}

bool onnx__reserve_symbols(struct onnx_infer *in, const struct onnx_graph *g)
{
    const struct onnx_value_info *lists[3] = {g->inputs, g->outputs, g->value_info};
    uint32_t counts[3] = {g->n_inputs, g->n_outputs, g->n_value_info};
    for (int l = 0; l < 3; l++)
        for (uint32_t i = 0; i < counts[l]; i++)
            if (!reserve_type(in, &lists[l][i].type))
                return false;
    return true;
}

/* True when a fresh symbol of owner may not be called p[0..n): another
 * value's fresh symbol has it, or the model declares it (bound or not:
 * binding later and first must name the same symbols). */
static bool name_taken(struct onnx_infer *in, const uint8_t *p, size_t n, const uint8_t *owner)
{
    struct nm_slot *s = onnx__nm_find(&in->symbol_names, p, n);
    return (s && s->v != owner) || onnx__nm_find(&in->model_symbols, p, n);
}

const struct onnx_dx *onnx__fresh(struct nctx *c, uint32_t i)
{
    return onnx__fresh_dim(c, i, -1);
}

const struct onnx_dx *onnx__fresh_dim(struct nctx *c, uint32_t i, int32_t dim)
{
    struct onnx_bytes name = i < c->node->n_outputs ? c->node->outputs[i] : c->node->op_type;
    const uint8_t *owner = name.p ? name.p : (const uint8_t *)"";
    if (dim >= 0) { /* NAME_dim_J: the owner is still the value's name */
        char *named = onnx__infer_alloc(c->in, name.n + 16);
        if (!named)
            return NULL;
        if (name.n && name.p)
            memcpy(named, name.p, name.n);
        name.n += (size_t)snprintf(named + name.n, 16, "_dim_%d", (int)dim);
        name.p = (const uint8_t *)named;
    }
    const uint8_t *p = name.p;
    size_t n = name.n;
    char *buf = NULL;
    for (int k = 2;; k++) {
        if (!name_taken(c->in, p, n, owner))
            break;
        if (k == 1000) /* every NAME_k taken: no symbol rather than a shared one */
            return NULL;
        /* the name is another value's symbol or the model's: NAME_2, ... */
        if (!buf && !(buf = onnx__infer_alloc(c->in, name.n + 8)))
            return NULL;
        if (name.n && name.p)
            memcpy(buf, name.p, name.n);
        n = name.n + (size_t)snprintf(buf + name.n, 8, "_%d", k);
        p = (const uint8_t *)buf;
    }
    return symbol(c->in, p, n, owner);
}

/* ---- values from declarations ---- */

static const struct onnx_dx *declared_dim(struct onnx_infer *in, const struct onnx_dim *d)
{
    switch (d->kind) {
    case ONNX_DIM_VALUE:
        return d->value >= 0 ? onnx_dx_const(in->dx, d->value) : NULL;
    case ONNX_DIM_PARAM:
        return d->param.n ? symbol(in, d->param.p, d->param.n, NULL) : NULL;
    case ONNX_DIM_UNKNOWN:
        break;
    }
    return NULL;
}

void onnx__from_type(struct onnx_infer *in, struct ival *v, const struct onnx_type *t)
{
    v->n_vals = -1;
    v->pub.rank = -1;
    if (!t || t->value == ONNX_V_UNTYPED || t->value == ONNX_V_OTHER_TYPE) {
        /* a TypeProto of none of ONNX's cases says nothing: no sequence */
        v->pub.reason = "no type declared";
        return;
    }
    if (t->value != ONNX_V_TENSOR && t->value != ONNX_V_SPARSE_TENSOR &&
        t->value != ONNX_V_SPARSE_TYPE) {
        v->pub.not_tensor = true;
        v->pub.reason = "not a tensor";
        if (t->elem && t->elem->value == ONNX_V_TENSOR) { /* a sequence's declared element */
            struct ival e = {0};
            onnx__from_type(in, &e, t->elem);
            v->elem = onnx__elem_copy(in, &e);
        }
        return;
    }
    v->pub.source = ONNX_INFER_DECLARED;
    v->pub.elem_type = t->has_elem_type ? t->elem_type : 0;
    if (!t->has_shape || t->rank > ONNX_INFER_MAX_RANK) {
        v->pub.reason = "no shape declared";
        return;
    }
    const struct onnx_dx **d = onnx__infer_alloc(in, t->rank * PTR_BYTES + 1);
    if (!d) {
        v->pub.reason = "memory cap";
        return;
    }
    for (uint32_t k = 0; k < t->rank; k++)
        d[k] = declared_dim(in, &t->dims[k]);
    v->pub.rank = (int32_t)t->rank;
    v->pub.dims = d;
}

static void add_mismatch_of(struct onnx_infer *in, uint32_t graph, struct onnx_bytes name,
                            int32_t dim, int64_t declared, int64_t inferred,
                            enum onnx_infer_against option)
{
    if (in->n_mismatch == in->cap_mismatch) {
        size_t cap = in->cap_mismatch ? in->cap_mismatch * 2 : 16;
        struct onnx_infer_mismatch *m = onnx__infer_alloc(in, cap * sizeof *m);
        if (!m)
            return;
        if (in->n_mismatch)
            memcpy(m, in->mismatch, in->n_mismatch * sizeof *m);
        in->mismatch = m;
        in->cap_mismatch = cap;
    }
    in->mismatch[in->n_mismatch++] =
        (struct onnx_infer_mismatch){graph, name, dim, declared, inferred, option};
}

static void add_mismatch(struct onnx_infer *in, uint32_t graph, struct onnx_bytes name, int32_t dim,
                         int64_t declared, int64_t inferred)
{
    add_mismatch_of(in, graph, name, dim, declared, inferred, ONNX_AGAINST_NONE);
}

/* The inferred value v meets its declaration t: declared dims fill in the
 * unknown ones; a fixed declared dim that a constant contradicts is a
 * mismatch, and that dim becomes unknown. */
void onnx__merge_declared(struct onnx_infer *in, uint32_t graph, struct onnx_bytes name,
                          struct ival *v, const struct onnx_type *t)
{
    if (v->pub.source != ONNX_INFER_INFERRED) {
        struct ival d = {0};
        onnx__from_type(in, &d, t);
        if (d.pub.source == ONNX_INFER_DECLARED || d.pub.not_tensor) {
            const char *why = v->pub.reason;
            int32_t elem = v->pub.elem_type;
            if (v->pub.not_tensor && d.pub.not_tensor) { /* a sequence keeps its elements */
                d.elem = v->elem ? v->elem : d.elem;
                d.has_len = v->has_len;
                d.seq_len = v->seq_len;
            }
            *v = d;
            if (!v->pub.elem_type)
                v->pub.elem_type = elem;
            if (why)
                v->pub.reason = why;
        }
        return;
    }
    if (!t || (t->value != ONNX_V_TENSOR && t->value != ONNX_V_SPARSE_TENSOR))
        return;
    if (t->has_elem_type && t->elem_type && v->pub.elem_type && t->elem_type != v->pub.elem_type)
        add_mismatch(in, graph, name, -2, t->elem_type, v->pub.elem_type);
    if (!v->pub.elem_type && t->has_elem_type)
        v->pub.elem_type = t->elem_type;
    if (!t->has_shape)
        return;
    if (v->pub.rank < 0) {
        struct ival d = {0};
        onnx__from_type(in, &d, t);
        v->pub.rank = d.pub.rank;
        v->pub.dims = d.pub.dims;
        return;
    }
    if ((uint32_t)v->pub.rank != t->rank) {
        add_mismatch(in, graph, name, -1, t->rank, v->pub.rank);
        v->pub.rank = -1;
        v->pub.dims = NULL;
        v->n_vals = -1;
        v->pub.reason = "the declared rank differs from the inferred one";
        return;
    }
    const struct onnx_dx **dims = onnx__unconst(v->pub.dims);
    for (uint32_t k = 0; k < t->rank; k++) {
        int64_t iv;
        const struct onnx_dim *dd = &t->dims[k];
        if (!dims[k]) {
            dims[k] = declared_dim(in, dd);
        } else if (dd->kind == ONNX_DIM_VALUE && onnx_dx_is_const(dims[k], &iv) &&
                   iv != dd->value) {
            add_mismatch(in, graph, name, (int32_t)k, dd->value, iv);
            dims[k] = NULL;
            v->n_vals = -1;
        }
    }
}

/* --shape NAME=...: the main graph's value takes that shape. */
void onnx__apply_shape(struct onnx_infer *in, uint32_t graph, struct onnx_bytes name,
                       struct ival *v)
{
    const struct onnx_infer_shape *s;
    if (graph != 0 || !(s = onnx__nm_get(&in->shapes, name.p, name.n)) ||
        s->rank > ONNX_INFER_MAX_RANK)
        return;
    const struct onnx_dx **d = onnx__infer_alloc(in, s->rank * PTR_BYTES + 1);
    if (!d)
        return;
    /* What the value is known to be, declared or inferred, contradicted:
     * the caller refuses the --shape. */
    const enum onnx_infer_against against =
        v->pub.source == ONNX_INFER_INFERRED ? ONNX_AGAINST_INFERRED : ONNX_AGAINST_DECLARED;
    if (v->pub.rank >= 0 && v->pub.rank != (int32_t)s->rank)
        add_mismatch_of(in, graph, name, -1, s->rank, v->pub.rank, against);
    for (uint32_t k = 0; k < s->rank; k++) {
        d[k] = s->dims[k] >= 0 ? onnx_dx_const(in->dx, s->dims[k]) : NULL;
        int64_t iv;
        if (v->pub.rank == (int32_t)s->rank && onnx_dx_is_const(v->pub.dims[k], &iv) &&
            iv != s->dims[k])
            add_mismatch_of(in, graph, name, (int32_t)k, s->dims[k], iv, against);
    }
    if (v->pub.source == ONNX_INFER_NONE)
        v->pub.source = ONNX_INFER_DECLARED;
    v->pub.rank = (int32_t)s->rank;
    v->pub.dims = d;
    v->pub.reason = NULL;
}

/* ---- names in scope ---- */

struct ival *onnx__lookup(struct onnx_infer *in, const struct onnx_graph *g, struct onnx_bytes n)
{
    for (; g; g = g->parent) {
        struct ival *v = onnx__nm_get(&in->gs[g->index].map, n.p, n.n);
        if (v)
            return v;
    }
    return NULL;
}
