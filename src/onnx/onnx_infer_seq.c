/* onnx_infer_seq.c - sequences and optionals: a sequence (an optional)
 * has no shape of its own, but the type and shape every element has (dims
 * that differ between elements unknown) and, when known, its length. They
 * are kept in struct ival's elem, has_len and seq_len, so that what is
 * taken out again (SequenceAt, ConcatFromSequence, OptionalGetElement) has
 * a shape: SequenceConstruct(X, Y, Z) of three [2,3,4] concatenated along
 * axis 1 is [2,9,4]. */
#include "onnx_infer_int.h"

#include <string.h>

/* Nested elements (an optional of a sequence...) followed at most so deep:
 * past it, unknown. */
#define ELEM_DEPTH 8

const struct ival *onnx__elem_copy(struct onnx_infer *in, const struct ival *v)
{
    if (!v)
        return NULL;
    struct ival *e = onnx__infer_alloc(in, sizeof *e);
    if (!e)
        return NULL;
    memset(e, 0, sizeof *e);
    e->pub.source = ONNX_INFER_INFERRED;
    e->pub.elem_type = v->pub.elem_type;
    e->pub.not_tensor = v->pub.not_tensor;
    e->pub.rank = -1;
    e->n_vals = -1;
    e->elem = v->elem; /* itself a copy: never changed */
    e->has_len = v->has_len;
    e->seq_len = v->seq_len;
    if (v->pub.rank >= 0 && !v->pub.not_tensor) {
        const struct onnx_dx **d = onnx__infer_alloc(in, (size_t)v->pub.rank * PTR_BYTES + 1);
        if (!d)
            return NULL;
        if (v->pub.rank)
            memcpy(d, v->pub.dims, (size_t)v->pub.rank * PTR_BYTES);
        e->pub.rank = v->pub.rank;
        e->pub.dims = d;
    }
    return e;
}

static const struct ival *meet(struct onnx_infer *in, const struct ival *a, const struct ival *b,
                               int depth)
{
    if (!a || !b || a->pub.not_tensor != b->pub.not_tensor || depth > ELEM_DEPTH)
        return NULL;
    if (a == b)
        return a;
    struct ival *e = (struct ival *)onnx__unconst(onnx__elem_copy(in, a));
    if (!e)
        return NULL;
    if (e->pub.elem_type != b->pub.elem_type)
        e->pub.elem_type = 0;
    if (e->pub.not_tensor) {
        e->elem = meet(in, a->elem, b->elem, depth + 1);
        e->has_len = a->has_len && b->has_len && a->seq_len == b->seq_len;
        return e;
    }
    if (e->pub.rank >= 0 && e->pub.rank != b->pub.rank)
        e->pub.rank = -1;
    for (int32_t k = 0; k < e->pub.rank; k++)
        if (e->pub.dims[k] != b->pub.dims[k]) /* interned: equal dims are one pointer */
            ((const struct onnx_dx **)onnx__unconst(e->pub.dims))[k] = NULL;
    return e;
}

const struct ival *onnx__elem_meet(struct onnx_infer *in, const struct ival *a,
                                   const struct ival *b)
{
    return meet(in, a, b, 0);
}

bool onnx__set_from_elem(struct nctx *c, uint32_t i, const struct ival *e)
{
    if (i >= c->n_out)
        return true;
    if (!e) {
        c->why = "the sequence's (optional's) elements are unknown";
        return true;
    }
    struct ival *o = &c->out[i];
    o->pub.elem_type = e->pub.elem_type;
    o->pub.not_tensor = e->pub.not_tensor;
    o->elem = e->elem;
    o->has_len = e->has_len;
    o->seq_len = e->seq_len;
    if (e->pub.not_tensor) {
        o->pub.reason = "a sequence or optional, not a tensor";
        return true;
    }
    if (e->pub.rank < 0) {
        c->why = "the shape of the sequence's (optional's) elements is unknown";
        return true;
    }
    return onnx__set_out(c, i, e->pub.rank, e->pub.dims);
}

/* Output 0 a sequence of elem, of length len (when has_len). */
static bool seq_out(struct nctx *c, const struct ival *elem, bool has_len, int64_t len)
{
    struct ival *o = &c->out[0];
    o->pub.not_tensor = true;
    o->pub.elem_type = 0;
    o->pub.reason = "a sequence or optional, not a tensor";
    o->elem = elem;
    o->has_len = has_len && len >= 0 && len <= UINT32_MAX;
    o->seq_len = o->has_len ? (uint32_t)len : 0;
    return true;
}

/* A sequence input: the value, or NULL when it is none. */
static const struct ival *SEQ(struct nctx *c, uint32_t i)
{
    const struct ival *s = onnx__IN(c, i);
    return s && s->pub.not_tensor ? s : NULL;
}

/* SplitToSequence: the pieces' shape. No split: pieces of 1 along axis
 * (dropped when keepdims is 0); a scalar split s: pieces of s (the last
 * shorter unless s divides the dim); a 1-D split: its sizes (equal ones
 * known). */
static bool split_to_sequence(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0), *sp = onnx__IN(c, 1);
    int32_t ax;
    if (!x || !onnx__norm_axis(onnx__attr_i(c, "axis", 0), x->pub.rank, &ax))
        return seq_out(c, NULL, false, 0);
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    memcpy(d, x->pub.dims, (size_t)x->pub.rank * PTR_BYTES);
    int32_t rank = x->pub.rank;
    int64_t dim = -1, len = -1, buf[ONNX_INFER_VALUES];
    uint32_t n;
    bool dim_known = onnx_dx_is_const(d[ax], &dim);
    if (!sp) {
        len = dim_known ? dim : -1;
        if (onnx__attr_i(c, "keepdims", 1)) {
            d[ax] = onnx__K(c, 1);
        } else {
            memmove(d + ax, d + ax + 1, (size_t)(rank - ax - 1) * PTR_BYTES);
            rank--;
        }
    } else if (sp->pub.rank == 0 && onnx__const_ints(c, 1, buf, 1, &n) && n == 1 && buf[0] > 0) {
        if (dim_known) {
            len = dim / buf[0] + (dim % buf[0] != 0);
            d[ax] = dim % buf[0] == 0 ? onnx__K(c, buf[0]) : NULL;
        } else {
            d[ax] = NULL;
        }
    } else if (sp->pub.rank == 1 && onnx__const_ints(c, 1, buf, ONNX_INFER_VALUES, &n) && n > 0) {
        len = n;
        for (uint32_t k = 1; k < n; k++)
            if (buf[k] != buf[0])
                buf[0] = -1;
        d[ax] = buf[0] >= 0 ? onnx__K(c, buf[0]) : NULL;
    } else {
        d[ax] = NULL;
    }
    struct ival piece = {0};
    piece.pub.elem_type = x->pub.elem_type;
    piece.pub.rank = rank;
    piece.pub.dims = d;
    return seq_out(c, onnx__elem_copy(c->in, &piece), len >= 0, len);
}

/* ConcatFromSequence: the elements' shape, the axis dim times the length
 * (new_axis 0), or the length inserted at axis (new_axis 1). */
static bool concat_from_sequence(struct nctx *c)
{
    const struct ival *s = SEQ(c, 0), *e = s ? s->elem : NULL;
    if (!e || e->pub.not_tensor || e->pub.rank < 0)
        return onnx__fail(c, "the shape of the sequence's elements is unknown");
    c->out[0].pub.elem_type = e->pub.elem_type;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    const struct onnx_dx *len = s->has_len && s->seq_len > 0 ? onnx__K(c, s->seq_len) : NULL;
    int32_t r = e->pub.rank, ax;
    bool new_axis = onnx__attr_i(c, "new_axis", 0) == 1;
    if (!onnx__attr(c, "axis") || !onnx__norm_axis(onnx__attr_i(c, "axis", 0), r + new_axis, &ax))
        return onnx__fail(c, "axis out of range");
    if (new_axis && r + 1 > ONNX_INFER_MAX_RANK)
        return onnx__fail(c, "the output's rank is out of range");
    for (int32_t j = 0, k = 0; j < r + new_axis; j++)
        d[j] = new_axis && j == ax ? len : e->pub.dims[k++];
    if (!new_axis)
        d[ax] = onnx_dx_mul(c->in->dx, len, d[ax]);
    return onnx__set_out(c, 0, r + new_axis, d);
}

bool onnx__fam_sequence(struct nctx *c)
{
    const struct ival *s = SEQ(c, 0), *e = NULL;
    switch (c->op->arg.seq) {
    case S_CONSTRUCT:
        e = onnx__elem_copy(c->in, onnx__IN(c, 0));
        for (uint32_t k = 1; k < c->n_in; k++)
            e = onnx__elem_meet(c->in, e, onnx__IN(c, k));
        return seq_out(c, e, true, c->n_in);
    case S_EMPTY:
        return seq_out(c, NULL, true, 0);
    case S_INSERT: {
        const struct ival *t = onnx__IN(c, 1);
        if (!s)
            return seq_out(c, NULL, false, 0);
        e = s->has_len && s->seq_len == 0 ? onnx__elem_copy(c->in, t)
                                          : onnx__elem_meet(c->in, s->elem, t);
        return seq_out(c, e, s->has_len, (int64_t)s->seq_len + 1);
    }
    case S_ERASE:
        if (!s)
            return seq_out(c, NULL, false, 0);
        return seq_out(c, s->elem, s->has_len && s->seq_len > 0, (int64_t)s->seq_len - 1);
    case S_SPLIT:
        return split_to_sequence(c);
    case S_OPTIONAL:
        return seq_out(c, onnx__elem_copy(c->in, onnx__IN(c, 0)), false, 0);
    case S_AT:
        if (!s)
            return onnx__fail(c, "input 0 is not a sequence");
        return onnx__set_from_elem(c, 0, s->elem);
    case S_GET: /* an optional's element, or (opset 18) a tensor itself */
        return onnx__set_from_elem(c, 0, s ? s->elem : onnx__elem_copy(c->in, onnx__IN(c, 0)));
    case S_CONCAT:
        return concat_from_sequence(c);
    }
    return onnx__fail(c, "not a sequence operator");
}

/* OptionalHasElement (bool), SequenceLength (int64, its value when the
 * length is known). */
bool onnx__fam_scalar(struct nctx *c)
{
    const struct ival *s = SEQ(c, 0);
    if (!onnx__set_out(c, 0, 0, NULL))
        return false;
    if (c->op->arg.scalar == SC_LENGTH && s && s->has_len) {
        const struct onnx_dx *v = onnx__K(c, s->seq_len);
        return onnx__set_vals(c, 0, 1, &v);
    }
    return true;
}
