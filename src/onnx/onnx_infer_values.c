/* onnx_infer_values.c - values of any rank through the families that move
 * elements without computing them (Slice, Transpose, Concat, Gather): what
 * exporters make of computed pads (PyTorch's F.pad: a 2-D int64 value
 * through Slice with step -1, Transpose and Reshape), rolls and windows.
 * Each needs every dim of its inputs and output a known constant and at
 * most ONNX_INFER_VALUES elements; an element it cannot place leaves the
 * output without values, never with a wrong one. */
#include "onnx_infer_int.h"

#include <string.h>

bool onnx__value_dims(const struct ival *v, int64_t *d, int64_t *total)
{
    int64_t t = 1;
    if (!v || v->pub.rank < 0 || v->pub.rank > ONNX_INFER_MAX_RANK)
        return false;
    for (int32_t k = 0; k < v->pub.rank; k++) {
        if (!onnx_dx_is_const(v->pub.dims[k], &d[k]) || d[k] < 0 ||
            (d[k] && t > ONNX_INFER_VALUES / d[k]))
            return false;
        t *= d[k];
    }
    *total = t;
    return true;
}

/* Element e's coordinates over dims d[0..r) (row-major). */
static void coords(int64_t e, const int64_t *d, int32_t r, int64_t *at)
{
    for (int32_t k = r - 1; k >= 0; k--) {
        at[k] = d[k] ? e % d[k] : 0;
        e = d[k] ? e / d[k] : 0;
    }
}

/* The row-major index of coordinates at over dims d; -1 outside them. */
static int64_t index_of(const int64_t *at, const int64_t *d, int32_t r)
{
    int64_t i = 0;
    for (int32_t k = 0; k < r; k++) {
        if (at[k] < 0 || at[k] >= d[k])
            return -1;
        i = i * d[k] + at[k];
    }
    return i;
}

/* Output 0's dims (every one constant) and element count. */
static bool out_dims(struct nctx *c, int64_t *d, int64_t *total)
{
    struct ival o = c->out[0];
    o.n_vals = 0;
    return onnx__value_dims(&o, d, total);
}

void onnx__values_strided(struct nctx *c, const struct ival *x, const int64_t *start,
                          const int64_t *step)
{
    int64_t xd[ONNX_INFER_MAX_RANK], od[ONNX_INFER_MAX_RANK], at[ONNX_INFER_MAX_RANK];
    int64_t xn, on;
    const int32_t r = x->pub.rank;
    if (x->n_vals < 0 || !onnx__value_dims(x, xd, &xn) || xn != x->n_vals ||
        !out_dims(c, od, &on) || c->out[0].pub.rank != r)
        return;
    const struct onnx_dx *v[ONNX_INFER_VALUES + 1];
    for (int64_t e = 0; e < on; e++) {
        coords(e, od, r, at);
        for (int32_t k = 0; k < r; k++)
            at[k] = start[k] + at[k] * step[k];
        const int64_t i = index_of(at, xd, r);
        if (i < 0)
            return;
        v[e] = x->vals[i];
    }
    onnx__set_vals(c, 0, (int32_t)on, v);
}

void onnx__values_transpose(struct nctx *c, const struct ival *x, const int32_t *perm)
{
    int64_t xd[ONNX_INFER_MAX_RANK], od[ONNX_INFER_MAX_RANK];
    int64_t oat[ONNX_INFER_MAX_RANK], xat[ONNX_INFER_MAX_RANK], xn, on;
    const int32_t r = x->pub.rank;
    if (x->n_vals < 0 || !onnx__value_dims(x, xd, &xn) || xn != x->n_vals ||
        !out_dims(c, od, &on) || on != xn)
        return;
    const struct onnx_dx *v[ONNX_INFER_VALUES + 1];
    for (int64_t e = 0; e < on; e++) {
        coords(e, od, r, oat);
        for (int32_t k = 0; k < r; k++)
            xat[perm[k]] = oat[k];
        const int64_t i = index_of(xat, xd, r);
        if (i < 0)
            return;
        v[e] = x->vals[i];
    }
    onnx__set_vals(c, 0, (int32_t)on, v);
}

void onnx__values_concat(struct nctx *c, int32_t axis)
{
    int64_t od[ONNX_INFER_MAX_RANK], at[ONNX_INFER_MAX_RANK], on;
    int64_t start[64], dims[64][ONNX_INFER_MAX_RANK];
    if (c->n_in > 64 || !out_dims(c, od, &on))
        return;
    const int32_t r = c->out[0].pub.rank;
    int64_t sum = 0;
    for (uint32_t i = 0; i < c->n_in; i++) {
        const struct ival *x = onnx__IN(c, i);
        int64_t n;
        if (!x || x->n_vals < 0 || x->pub.rank != r || !onnx__value_dims(x, dims[i], &n) ||
            n != x->n_vals)
            return;
        start[i] = sum;
        sum += dims[i][axis];
    }
    const struct onnx_dx *v[ONNX_INFER_VALUES + 1];
    for (int64_t e = 0; e < on; e++) {
        coords(e, od, r, at);
        uint32_t i = c->n_in;
        while (i > 0 && start[i - 1] > at[axis])
            i--;
        if (i == 0)
            return;
        at[axis] -= start[i - 1];
        const int64_t k = index_of(at, dims[i - 1], r);
        if (k < 0)
            return;
        v[e] = onnx__IN(c, i - 1)->vals[k];
    }
    onnx__set_vals(c, 0, (int32_t)on, v);
}

void onnx__values_gather(struct nctx *c, const struct ival *x, int32_t axis)
{
    int64_t xd[ONNX_INFER_MAX_RANK], id[ONNX_INFER_MAX_RANK], od[ONNX_INFER_MAX_RANK];
    int64_t oat[ONNX_INFER_MAX_RANK], xat[ONNX_INFER_MAX_RANK], xn, in, on;
    int64_t iv[ONNX_INFER_VALUES];
    uint32_t ni;
    const struct ival *idx = onnx__IN(c, 1);
    const int32_t r = x->pub.rank;
    if (x->n_vals < 0 || !onnx__value_dims(x, xd, &xn) || xn != x->n_vals || !idx ||
        !onnx__value_dims(idx, id, &in) || !onnx__const_ints(c, 1, iv, ONNX_INFER_VALUES, &ni) ||
        (int64_t)ni != in || !out_dims(c, od, &on))
        return;
    const int32_t q = idx->pub.rank;
    const struct onnx_dx *v[ONNX_INFER_VALUES + 1];
    for (int64_t e = 0; e < on; e++) {
        coords(e, od, c->out[0].pub.rank, oat);
        int64_t j = index_of(oat + axis, id, q); /* the index's own coordinates */
        if (j < 0)
            return;
        int64_t p = iv[j] < 0 ? iv[j] + xd[axis] : iv[j];
        memcpy(xat, oat, (size_t)axis * sizeof *xat);
        xat[axis] = p;
        memcpy(xat + axis + 1, oat + axis + q, (size_t)(r - axis - 1) * sizeof *xat);
        const int64_t i = index_of(xat, xd, r);
        if (i < 0)
            return;
        v[e] = x->vals[i];
    }
    onnx__set_vals(c, 0, (int32_t)on, v);
}
