/* onnx_infer_shape.c - the families whose output shape comes from values:
 * reshape-like (Reshape, Flatten, Squeeze/Unsqueeze, Transpose, Concat,
 * Split, Slice, Tile, Pad, Expand, Resize...), the shape computations
 * themselves (Shape, Size, Range, ConstantOfShape, Gather on a shape),
 * gather, data-dependent operators (new symbols), and generators. */
#include "onnx_infer_int.h"

#include <string.h>

#define HUGE_INDEX ((int64_t)1 << 62) /* past any dim: "to the end" */

static void pass_values(struct nctx *c, const struct ival *x)
{
    if (x && x->n_vals >= 0)
        onnx__set_vals(c, 0, x->n_vals, x->vals);
}

/* Axes from an attribute (before the table's since) or from input i. */
static bool get_axes(struct nctx *c, uint32_t i, const char *name, int64_t *axes, uint32_t *n,
                     bool *given)
{
    *n = 0;
    *given = false;
    if (onnx__since(c)) {
        if (!onnx__IN(c, i))
            return true;
        *given = true;
        return onnx__const_ints(c, i, axes, ONNX_INFER_MAX_RANK, n);
    }
    const int64_t *a;
    uint32_t m;
    if (onnx__attr_ints(c, name, &a, &m)) {
        if (m > ONNX_INFER_MAX_RANK)
            return false;
        memcpy(axes, a, m * sizeof *a);
        *n = m;
        *given = true;
    }
    return true;
}

bool onnx__fam_reshape(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    const struct onnx_dx *sv[ONNX_INFER_MAX_RANK];
    const struct onnx_dx *const *v = NULL;
    int32_t n;
    if (!onnx__since(c)) { /* Reshape-1: the shape an attribute */
        const int64_t *a;
        uint32_t m;
        if (!onnx__attr_ints(c, "shape", &a, &m) || m > ONNX_INFER_MAX_RANK)
            return onnx__fail(c, "no shape attribute");
        for (uint32_t k = 0; k < m; k++)
            sv[k] = onnx__K(c, a[k]);
        v = sv;
        n = (int32_t)m;
    } else if (!onnx__in_vals(c, 1, &v, &n)) {
        const struct ival *s = onnx__SHAPED(c, 1);
        int64_t r;
        if (s && s->pub.rank == 1 && onnx_dx_is_const(s->pub.dims[0], &r) && r >= 0 &&
            r <= ONNX_INFER_MAX_RANK) {
            c->why = "the shape input's values are unknown";
            return onnx__set_out(c, 0, (int32_t)r, NULL);
        }
        return onnx__fail(c, "the shape input's values are unknown");
    }
    if (n > ONNX_INFER_MAX_RANK)
        return onnx__fail(c, "rank too large");
    bool allowzero = onnx__attr_i(c, "allowzero", 0) != 0;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    int32_t infer_at = -1;
    for (int32_t k = 0; k < n; k++) {
        int64_t e;
        d[k] = NULL;
        if (!v[k])
            continue;
        if (!onnx_dx_is_const(v[k], &e)) {
            d[k] = onnx__as_dim(v[k]); /* taken as a dim: not 0 or -1 */
        } else if (e == 0 && !allowzero) {
            if (x && k < x->pub.rank)
                d[k] = x->pub.dims[k];
            else if (x)
                return onnx__fail(c, "a 0 in the shape copies a dim the input lacks");
        } else if (e == -1) {
            if (infer_at >= 0)
                return onnx__fail(c, "two -1 in the shape");
            infer_at = k;
        } else if (e < -1) {
            return onnx__fail(c, "a negative dim in the shape");
        } else {
            d[k] = v[k];
        }
    }
    if (infer_at >= 0 && x) {
        const struct onnx_dx *total = onnx__dims_product(c, x->pub.dims, 0, x->pub.rank);
        const struct onnx_dx *known = onnx__K(c, 1);
        for (int32_t k = 0; k < n; k++)
            if (k != infer_at)
                known = onnx_dx_mul(DX(c), known, d[k]);
        int64_t kv;
        if (known && !(onnx_dx_is_const(known, &kv) && kv == 0))
            d[infer_at] = onnx_dx_floordiv(DX(c), total, known);
    }
    if (!onnx__set_out(c, 0, n, d))
        return false;
    pass_values(c, x);
    return true;
}

bool onnx__fam_flatten(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    int64_t a = onnx__attr_i(c, "axis", 1);
    if (a < 0)
        a += x->pub.rank;
    if (a < 0 || a > x->pub.rank)
        return onnx__fail(c, "axis out of range");
    const struct onnx_dx *d[2] = {onnx__dims_product(c, x->pub.dims, 0, (int32_t)a),
                                  onnx__dims_product(c, x->pub.dims, (int32_t)a, x->pub.rank)};
    if (!onnx__set_out(c, 0, 2, d))
        return false;
    pass_values(c, x);
    return true;
}

bool onnx__fam_squeeze(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    int64_t axes[ONNX_INFER_MAX_RANK];
    uint32_t n;
    bool given;
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    if (!get_axes(c, 1, "axes", axes, &n, &given))
        return onnx__fail(c, "the axes' values are unknown");
    int32_t r = x->pub.rank, out_r = c->op->arg.squeeze == SQ_UNSQUEEZE ? r + (int32_t)n : r;
    bool mark[ONNX_INFER_MAX_RANK] = {false};
    if (out_r > ONNX_INFER_MAX_RANK)
        return onnx__fail(c, "rank too large");
    if (c->op->arg.squeeze == SQ_UNSQUEEZE && !given)
        return onnx__fail(c, "Unsqueeze without axes");
    for (uint32_t k = 0; k < n; k++) {
        int32_t ax;
        if (!onnx__norm_axis(axes[k], out_r, &ax) || mark[ax])
            return onnx__fail(c, "an axis is out of range or repeated");
        mark[ax] = true;
    }
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    int32_t m = 0;
    if (c->op->arg.squeeze == SQ_UNSQUEEZE) {
        for (int32_t k = 0, s = 0; k < out_r; k++)
            d[m++] = mark[k] ? onnx__K(c, 1) : x->pub.dims[s++];
    } else {
        for (int32_t k = 0; k < r; k++) {
            int64_t v;
            bool one = onnx_dx_is_const(x->pub.dims[k], &v) && v == 1;
            if (!given && !one && !(x->pub.dims[k] && onnx_dx_is_const(x->pub.dims[k], &v)))
                return onnx__fail(c, "which dims are 1 is unknown");
            if (given && mark[k] && x->pub.dims[k] && !one && onnx_dx_is_const(x->pub.dims[k], &v))
                return onnx__invalid(c, "a squeezed dim is not 1");
            if (given ? !mark[k] : !one)
                d[m++] = x->pub.dims[k];
        }
    }
    if (!onnx__set_out(c, 0, m, d))
        return false;
    pass_values(c, x);
    return true;
}

bool onnx__fam_transpose(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    int32_t r = x->pub.rank;
    const int64_t *p;
    uint32_t n;
    bool seen[ONNX_INFER_MAX_RANK] = {false};
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    int32_t perm[ONNX_INFER_MAX_RANK];
    if (!onnx__attr_ints(c, "perm", &p, &n)) {
        for (int32_t k = 0; k < r; k++)
            d[k] = x->pub.dims[perm[k] = r - 1 - k];
    } else {
        if (n != (uint32_t)r)
            return onnx__fail(c, "perm's length is not the rank");
        for (int32_t k = 0; k < r; k++) {
            int32_t a;
            if (!onnx__norm_axis(p[k], r, &a) || seen[a])
                return onnx__fail(c, "perm is not a permutation");
            seen[a] = true;
            d[k] = x->pub.dims[perm[k] = a];
        }
    }
    if (!onnx__set_out(c, 0, r, d))
        return false;
    if (r <= 1)
        pass_values(c, x);
    else
        onnx__values_transpose(c, x, perm);
    return true;
}

bool onnx__fam_concat(struct nctx *c)
{
    const struct ival *first = onnx__SHAPED(c, 0);
    if (!first)
        return onnx__fail(c, "an input's shape is unknown");
    int32_t r = first->pub.rank, ax;
    if (!onnx__attr(c, "axis") && onnx__since(c))
        return onnx__fail(c, "no axis");
    if (!onnx__norm_axis(onnx__attr_i(c, "axis", 1), r, &ax))
        return onnx__fail(c, "axis out of range");
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    for (int32_t k = 0; k < r; k++)
        d[k] = k == ax ? onnx__K(c, 0) : NULL;
    const struct onnx_dx *vals[ONNX_INFER_VALUES];
    int32_t nv = 0;
    bool values = r == 1;
    for (uint32_t i = 0; i < c->n_in; i++) {
        const struct ival *v = onnx__SHAPED(c, i);
        if (!v)
            return onnx__fail(c, "an input's shape is unknown");
        if (v->pub.rank != r)
            return onnx__fail(c, "the inputs' ranks differ");
        for (int32_t k = 0; k < r; k++) {
            const struct onnx_dx *e = v->pub.dims[k];
            int64_t a, b;
            if (k == ax) {
                d[k] = onnx_dx_add(DX(c), d[k], e);
            } else if (!d[k] || (e && onnx_dx_is_const(e, &a) && !onnx_dx_is_const(d[k], &b))) {
                d[k] = e; /* a constant settles a symbol (they must be equal) */
            } else if (e && onnx_dx_is_const(e, &a) && onnx_dx_is_const(d[k], &b) && a != b) {
                return onnx__invalid(c, "the inputs' dims differ");
            }
        }
        if (values && v->n_vals >= 0 && nv + v->n_vals <= ONNX_INFER_VALUES) {
            memcpy(vals + nv, v->vals, (size_t)v->n_vals * PTR_BYTES);
            nv += v->n_vals;
        } else {
            values = false;
        }
    }
    if (!onnx__set_out(c, 0, r, d))
        return false;
    if (values)
        onnx__set_vals(c, 0, nv, vals);
    else if (r > 1)
        onnx__values_concat(c, ax);
    return true;
}

bool onnx__fam_split(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    int32_t r = x->pub.rank, ax;
    if (!onnx__norm_axis(onnx__attr_i(c, "axis", 0), r, &ax))
        return onnx__fail(c, "axis out of range");
    int64_t sizes[256];
    uint32_t n = 0, n_out = c->n_out;
    bool given = false;
    const struct onnx_dx *dim = x->pub.dims[ax];
    if (n_out > 256)
        return onnx__fail(c, "too many outputs");
    if (onnx__since(c) && onnx__IN(c, 1)) {
        given = true;
        if (!onnx__const_ints(c, 1, sizes, 256, &n))
            n = 0, c->why = "the split input's values are unknown";
    } else if (!onnx__since(c)) {
        const int64_t *a;
        uint32_t m;
        if (onnx__attr_ints(c, "split", &a, &m) && m <= 256) {
            memcpy(sizes, a, m * sizeof *a);
            n = m;
            given = true;
        }
    }
    if (given && n && n != n_out)
        return onnx__fail(c, "split's length is not the output count");
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    memcpy(d, x->pub.dims, (size_t)r * PTR_BYTES);
    int64_t parts = onnx__attr_i(c, "num_outputs", 0);
    const struct onnx_dx *chunk = NULL;
    if (!given && c->opset >= 18 && parts > 0) {
        if ((uint64_t)parts != n_out)
            return onnx__fail(c, "num_outputs is not the output count");
        chunk = onnx_dx_ceildiv(DX(c), dim, onnx__K(c, parts));
    } else if (!given) {
        int64_t dv;
        if (n_out == 0) /* a Split with no outputs: nothing to divide by */
            return onnx__fail(c, "Split has no outputs");
        if (onnx_dx_is_const(dim, &dv) && dv % n_out)
            return onnx__invalid(c, "the dim does not split evenly");
        chunk = onnx_dx_floordiv(DX(c), dim, onnx__K(c, n_out));
    }
    for (uint32_t k = 0; k < n_out; k++) {
        if (given)
            d[ax] = n ? onnx__K(c, sizes[k]) : NULL;
        else if (k + 1 < n_out || !c->opset || parts <= 0)
            d[ax] = chunk;
        else /* the last of num_outputs takes what is left */
            d[ax] =
                onnx_dx_sub(DX(c), dim, onnx_dx_mul(DX(c), chunk, onnx__K(c, (int64_t)n_out - 1)));
        int64_t v;
        if (d[ax] && onnx_dx_is_const(d[ax], &v) && v < 0)
            return onnx__invalid(c, "a part is negative");
        if (!onnx__set_out(c, k, r, d))
            return false;
    }
    return true;
}

/* A Slice start or end on a dim d, clamped as ONNX does: for a positive
 * step into [0,d], else into [lo,d-1] with lo 0 (start) or -1 (end). */
static const struct onnx_dx *slice_index(struct nctx *c, const struct onnx_dx *v,
                                         const struct onnx_dx *d, bool positive, int64_t lo)
{
    int64_t x;
    if (!v || !d)
        return NULL;
    const struct onnx_dx *hi = positive ? d : onnx_dx_sub(DX(c), d, onnx__K(c, 1));
    const struct onnx_dx *low = onnx__K(c, positive ? 0 : lo);
    if (onnx_dx_is_const(v, &x)) {
        if (x >= HUGE_INDEX)
            return hi;
        if (x <= -HUGE_INDEX)
            return low;
        if (x < 0)
            return onnx_dx_max(DX(c), onnx_dx_add(DX(c), v, d), low);
        return onnx_dx_min(DX(c), v, hi);
    }
    return onnx_dx_nonneg(v) ? onnx_dx_min(DX(c), v, hi) : NULL;
}

static bool slice_params(struct nctx *c, int32_t r, const struct onnx_dx **st,
                         const struct onnx_dx **en, int64_t *axes, int64_t *steps, int32_t *n)
{
    const struct onnx_dx *const *sv, *const *ev;
    int32_t ns, ne;
    uint32_t na = 0, nst = 0;
    if (!onnx__since(c)) {
        const int64_t *a, *b;
        uint32_t m1, m2;
        if (!onnx__attr_ints(c, "starts", &a, &m1) || !onnx__attr_ints(c, "ends", &b, &m2) ||
            m1 != m2 || m1 > ONNX_INFER_MAX_RANK)
            return onnx__fail(c, "starts and ends are missing");
        for (uint32_t k = 0; k < m1; k++) {
            st[k] = onnx__K(c, a[k]);
            en[k] = onnx__K(c, b[k]);
        }
        ns = (int32_t)m1;
        const int64_t *ax;
        if (onnx__attr_ints(c, "axes", &ax, &na) && na <= ONNX_INFER_MAX_RANK)
            memcpy(axes, ax, na * sizeof *ax);
    } else {
        if (!onnx__in_vals(c, 1, &sv, &ns) || !onnx__in_vals(c, 2, &ev, &ne) || ns != ne ||
            ns > ONNX_INFER_MAX_RANK)
            return onnx__fail(c, "the starts' or ends' values are unknown");
        memcpy(st, sv, (size_t)ns * PTR_BYTES);
        memcpy(en, ev, (size_t)ns * PTR_BYTES);
        if (onnx__IN(c, 3) && !onnx__const_ints(c, 3, axes, ONNX_INFER_MAX_RANK, &na))
            return onnx__fail(c, "the axes' values are unknown");
        if (onnx__IN(c, 4) && !onnx__const_ints(c, 4, steps, ONNX_INFER_MAX_RANK, &nst))
            return onnx__fail(c, "the steps' values are unknown");
    }
    if ((na && na != (uint32_t)ns) || (nst && nst != (uint32_t)ns))
        return onnx__fail(c, "starts, ends, axes and steps differ in length");
    for (int32_t k = 0; k < ns; k++) {
        if (!na)
            axes[k] = k;
        if (!nst)
            steps[k] = 1;
    }
    (void)r;
    *n = ns;
    return true;
}

bool onnx__fam_slice(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    int32_t r = x->pub.rank, n = 0;
    const struct onnx_dx *st[ONNX_INFER_MAX_RANK] = {NULL}, *en[ONNX_INFER_MAX_RANK] = {NULL};
    int64_t axes[ONNX_INFER_MAX_RANK] = {0}, steps[ONNX_INFER_MAX_RANK] = {0};
    if (!slice_params(c, r, st, en, axes, steps, &n))
        return false;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK], *start[ONNX_INFER_MAX_RANK] = {NULL};
    int64_t a0[ONNX_INFER_MAX_RANK], step[ONNX_INFER_MAX_RANK];
    bool seen[ONNX_INFER_MAX_RANK] = {false};
    memcpy(d, x->pub.dims, (size_t)r * PTR_BYTES);
    for (int32_t k = 0; k < r; k++)
        step[k] = 1;
    for (int32_t k = 0; k < n; k++) {
        int32_t ax;
        if (!onnx__norm_axis(axes[k], r, &ax) || seen[ax])
            return onnx__fail(c, "an axis is out of range or repeated");
        seen[ax] = true;
        int64_t s = steps[k];
        if (s == 0 || s == INT64_MIN)
            return onnx__fail(c, "a step is 0");
        const struct onnx_dx *dim = x->pub.dims[ax];
        const struct onnx_dx *a = slice_index(c, st[k], dim, s > 0, 0);
        const struct onnx_dx *b = slice_index(c, en[k], dim, s > 0, -1);
        int64_t e;
        if (s < 0 && onnx_dx_is_const(en[k], &e) && (e == INT32_MAX || e == INT64_MAX)) {
            /* the text and onnx clamp it to d-1, ONNX Runtime reads it as
             * "through the start" (numpy's None): unknown */
            b = NULL;
            c->why = "a negative step with end INT_MAX: ONNX's text stops at the last element, "
                     "ONNX Runtime runs through the start";
        }
        const struct onnx_dx *len = s > 0 ? onnx_dx_sub(DX(c), b, a) : onnx_dx_sub(DX(c), a, b);
        d[ax] = onnx_dx_max(DX(c), onnx_dx_ceildiv(DX(c), len, onnx__K(c, s > 0 ? s : -s)),
                            onnx__K(c, 0));
        start[ax] = a;
        step[ax] = s;
    }
    if (!onnx__set_out(c, 0, r, d))
        return false;
    /* values, any rank, with constant bounds */
    bool known = x->n_vals >= 0;
    for (int32_t k = 0; k < r && known; k++)
        known = onnx_dx_is_const(start[k] ? start[k] : onnx__K(c, 0), &a0[k]);
    if (known)
        onnx__values_strided(c, x, a0, step);
    return true;
}

/* Tile's repeats or Pad's pads: the dims from input i's values. */
bool onnx__fam_tile(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    const struct onnx_dx *const *v;
    int32_t n, r = x->pub.rank;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    if (!onnx__in_vals(c, 1, &v, &n)) {
        c->why = "the repeats' values are unknown";
        return onnx__set_out(c, 0, r, NULL);
    }
    if (n != r)
        return onnx__fail(c, "repeats' length is not the rank");
    for (int32_t k = 0; k < r; k++)
        d[k] = onnx_dx_mul(DX(c), x->pub.dims[k], onnx__as_dim(v[k]));
    return onnx__set_out(c, 0, r, d);
}

bool onnx__fam_pad(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    int32_t r = x->pub.rank, n;
    const struct onnx_dx *pv[2 * ONNX_INFER_MAX_RANK] = {NULL};
    const struct onnx_dx *const *v = pv;
    int64_t axes[ONNX_INFER_MAX_RANK];
    uint32_t na = 0;
    if (!onnx__since(c)) {
        const int64_t *p;
        uint32_t m;
        if ((!onnx__attr_ints(c, "pads", &p, &m) && !onnx__attr_ints(c, "paddings", &p, &m)) ||
            m > 2 * ONNX_INFER_MAX_RANK)
            return onnx__fail(c, "no pads");
        for (uint32_t k = 0; k < m; k++)
            pv[k] = onnx__K(c, p[k]);
        n = (int32_t)m;
    } else if (!onnx__in_vals(c, 1, &v, &n)) {
        c->why = "the pads' values are unknown";
        return onnx__set_out(c, 0, r, NULL);
    }
    if (onnx__IN(c, 3) && !onnx__const_ints(c, 3, axes, ONNX_INFER_MAX_RANK, &na))
        return onnx__fail(c, "the axes' values are unknown");
    if (!na)
        for (int32_t k = 0; k < r; k++)
            axes[na++] = k;
    if (n != 2 * (int32_t)na)
        return onnx__fail(c, "pads' length does not match");
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    memcpy(d, x->pub.dims, (size_t)r * PTR_BYTES);
    for (uint32_t k = 0; k < na; k++) {
        int32_t ax;
        if (!onnx__norm_axis(axes[k], r, &ax))
            return onnx__fail(c, "an axis is out of range");
        d[ax] = onnx_dx_add(DX(c), onnx_dx_add(DX(c), d[ax], v[k]), v[k + na]);
        int64_t e;
        if (d[ax] && onnx_dx_is_const(d[ax], &e) && e < 0)
            return onnx__invalid(c, "the pads make a dim negative");
        if (d[ax] && !onnx_dx_is_const(d[ax], &e) && !onnx_dx_nonneg(d[ax]))
            d[ax] = NULL; /* a negative pad on a symbol: its sign is unknown */
    }
    return onnx__set_out(c, 0, r, d);
}

bool onnx__fam_shape(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x) { /* always 1-D: its length is the rank */
        c->why = "the input's rank is unknown";
        return onnx__set_out(c, 0, 1, NULL);
    }
    int64_t r = x->pub.rank, s = onnx__attr_i(c, "start", 0), e = onnx__attr_i(c, "end", r);
    s = s < 0 ? s + r : s;
    e = e < 0 ? e + r : e;
    s = s < 0 ? 0 : s > r ? r : s;
    e = e < 0 ? 0 : e > r ? r : e;
    int64_t n = e > s ? e - s : 0;
    const struct onnx_dx *d = onnx__K(c, n);
    if (!onnx__set_out(c, 0, 1, &d))
        return false;
    return onnx__set_vals(c, 0, (int32_t)n, x->pub.dims + s);
}

bool onnx__fam_size(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!onnx__set_out(c, 0, 0, NULL))
        return false;
    if (x) {
        const struct onnx_dx *p = onnx__dims_product(c, x->pub.dims, 0, x->pub.rank);
        if (p)
            onnx__set_vals(c, 0, 1, &p);
    }
    return true;
}

/* The dims a 1-D shape input gives (Expand, ConstantOfShape). */
static bool shape_from_values(struct nctx *c, uint32_t i, const struct onnx_dx **d, int32_t *n)
{
    const struct onnx_dx *const *v;
    if (!onnx__in_vals(c, i, &v, n)) {
        const struct ival *s = onnx__SHAPED(c, i);
        int64_t r;
        if (s && s->pub.rank == 1 && onnx_dx_is_const(s->pub.dims[0], &r) && r >= 0 &&
            r <= ONNX_INFER_MAX_RANK) {
            *n = (int32_t)r;
            for (int32_t k = 0; k < *n; k++)
                d[k] = NULL;
            c->why = "the shape input's values are unknown";
            return true;
        }
        return onnx__fail(c, "the shape input's values are unknown");
    }
    if (*n > ONNX_INFER_MAX_RANK)
        return onnx__fail(c, "rank too large");
    for (int32_t k = 0; k < *n; k++)
        d[k] = onnx__as_dim(v[k]);
    return true;
}

bool onnx__fam_const_of_shape(struct nctx *c)
{
    const struct onnx_attr *a = onnx__attr(c, "value");
    const struct onnx_tensor_data *t = a ? a->t : NULL;
    c->out[0].pub.elem_type = t ? t->elem_type : DT_FLOAT;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    int32_t n;
    if (!shape_from_values(c, 0, d, &n) || !onnx__set_out(c, 0, n, d))
        return false;
    int64_t total = 1, dv;
    for (int32_t k = 0; k < n; k++) {
        if (!onnx_dx_is_const(d[k], &dv) || dv < 0 || (dv && total > ONNX_INFER_VALUES / dv))
            return true;
        total *= dv;
    }
    if (t && t->has_values && t->n_values == 1) {
        const struct onnx_dx *v[ONNX_INFER_VALUES];
        for (int64_t k = 0; k < total; k++)
            v[k] = onnx__K(c, t->values[0]);
        onnx__set_vals(c, 0, (int32_t)total, v);
    }
    return true;
}

bool onnx__fam_expand(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    struct ival s = {0};
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK], *out[ONNX_INFER_MAX_RANK];
    int32_t n, r;
    if (!shape_from_values(c, 1, d, &n))
        return false;
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    s.pub.rank = n;
    s.pub.dims = d;
    const struct ival *v[2] = {x, &s};
    if (!onnx__broadcast(c, v, 2, out, &r) || !onnx__set_out(c, 0, r, out))
        return false;
    int64_t e;
    if (x->n_vals == 1 && onnx__const_numel(&c->out[0], &e) && e <= ONNX_INFER_VALUES) {
        const struct onnx_dx *vals[ONNX_INFER_VALUES];
        for (int64_t k = 0; k < e; k++)
            vals[k] = x->vals[0];
        onnx__set_vals(c, 0, (int32_t)e, vals);
    }
    return true;
}

bool onnx__fam_range(struct nctx *c)
{
    const struct onnx_dx *const *a, *const *b, *const *s;
    int32_t na, nb, ns;
    if (!onnx__in_vals(c, 0, &a, &na) || !onnx__in_vals(c, 1, &b, &nb) ||
        !onnx__in_vals(c, 2, &s, &ns) || na != 1 || nb != 1 || ns != 1) {
        c->why = "start, limit or delta is unknown";
        return onnx__set_out(c, 0, 1, NULL);
    }
    int64_t step;
    if (!onnx_dx_is_const(s[0], &step) || step == 0 || step == INT64_MIN) {
        c->why = "delta is unknown or 0";
        return onnx__set_out(c, 0, 1, NULL);
    }
    const struct onnx_dx *span =
        step > 0 ? onnx_dx_sub(DX(c), b[0], a[0]) : onnx_dx_sub(DX(c), a[0], b[0]);
    const struct onnx_dx *n = onnx_dx_max(
        DX(c), onnx_dx_ceildiv(DX(c), span, onnx__K(c, step > 0 ? step : -step)), onnx__K(c, 0));
    if (!onnx__set_out(c, 0, 1, &n))
        return false;
    int64_t len;
    if (onnx_dx_is_const(n, &len) && len <= ONNX_INFER_VALUES) {
        const struct onnx_dx *v[ONNX_INFER_VALUES];
        for (int64_t k = 0; k < len; k++)
            v[k] = onnx_dx_add(DX(c), a[0], onnx__K(c, k * step));
        onnx__set_vals(c, 0, (int32_t)len, v);
    }
    return true;
}

bool onnx__fam_space_depth(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    int64_t b = onnx__attr_i(c, "blocksize", 0);
    if (!x || x->pub.rank != 4)
        return onnx__fail(c, "the input's shape is unknown or not of rank 4");
    if (b < 1 || b > 65536)
        return onnx__fail(c, "blocksize out of range");
    const struct onnx_dx *d[4], *bb = onnx__K(c, b), *b2 = onnx__K(c, b * b);
    d[0] = x->pub.dims[0];
    if (c->op->arg.space_depth == SD_DEPTH_TO_SPACE) {
        d[1] = onnx_dx_floordiv(DX(c), x->pub.dims[1], b2);
        d[2] = onnx_dx_mul(DX(c), x->pub.dims[2], bb);
        d[3] = onnx_dx_mul(DX(c), x->pub.dims[3], bb);
    } else {
        d[1] = onnx_dx_mul(DX(c), x->pub.dims[1], b2);
        d[2] = onnx_dx_floordiv(DX(c), x->pub.dims[2], bb);
        d[3] = onnx_dx_floordiv(DX(c), x->pub.dims[3], bb);
    }
    return onnx__set_out(c, 0, 4, d);
}

/* floor(d * s): the ONNX text's exact product, and ONNX Runtime's kernel
 * (and onnx's inference up to 1.1x): the dim converted to float32, times
 * the float32 scale, floored (ORT truncates: the same for a product >=
 * 0). For a constant dim below 2^29 (the exact product in double: 24 bits
 * of mantissa times 29 bits) the number when both agree, else unknown
 * (16777217 * 2.0f: exactly 33554434, 33554432 in float32, as float32(d)
 * is 16777216; 10 * 0.7f: 6.99999988 exactly, 7 in float32). For a
 * symbolic dim and a scale exactly m / 2^k (k <= 16, m < 2^16):
 * floor(d*m / 2^k), the exact product, which float32 gives too while
 * d*m < 2^24; docs/onnx.md lists this case. Any other scale: unknown. */
static const struct onnx_dx *scaled(struct nctx *c, const struct onnx_dx *d, float s)
{
    int64_t dv;
    if (!(s > 0) || !d)
        return NULL;
    if (onnx_dx_is_const(d, &dv)) {
        if (dv < 0 || dv >= ((int64_t)1 << 29))
            return NULL;
        const double exact = (double)dv * (double)s;
        const float f32 = (float)((float)dv * s); /* the cast rounds to float32 */
        if (!(exact < 4e18) || !((double)f32 < 4e18) || (int64_t)exact != (int64_t)f32) {
            c->why = "floor(dim*scale) differs in float32 (ONNX Runtime) and exactly (ONNX's text)";
            return NULL;
        }
        return onnx__K(c, (int64_t)exact); /* non-negative: truncation is the floor */
    }
    for (int k = 0; k <= 16; k++) {
        double v = (double)s * (double)((int64_t)1 << k); /* exact: a power of two */
        if (v >= 0 && v < 65536 && v == (double)(int64_t)v)
            return onnx_dx_floordiv(DX(c), onnx_dx_mul(DX(c), d, onnx__K(c, (int64_t)v)),
                                    onnx__K(c, (int64_t)1 << k));
    }
    c->why = "a symbolic dim times a scale that is no m/2^k (k <= 16): floor(dim*scale) in "
             "float32 is no expression";
    return NULL;
}

bool onnx__fam_resize(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    int32_t r = x->pub.rank;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    memcpy(d, x->pub.dims, (size_t)r * PTR_BYTES);
    if (c->op->arg.resize == RS_UPSAMPLE && !onnx__since(c)) { /* Upsample's scales attribute */
        const struct onnx_attr *a = onnx__attr(c, "scales");
        if (!a || a->n_floats != (uint32_t)r)
            return onnx__fail(c, "scales' length is not the rank");
        for (int32_t k = 0; k < r; k++)
            d[k] = scaled(c, d[k], a->floats[k]);
        return onnx__set_out(c, 0, r, d);
    }
    const struct onnx_dx *const *v;
    int32_t n;
    int64_t axes[ONNX_INFER_MAX_RANK];
    uint32_t na = 0;
    if (c->op->arg.resize == RS_RESIZE && onnx__since(c) && onnx__IN(c, 3) &&
        onnx__in_vals(c, 3, &v, &n)) {
        if (onnx__attr(c, "keep_aspect_ratio_policy") &&
            !onnx__attr_s_is(c, "keep_aspect_ratio_policy", "stretch"))
            return onnx__fail(c, "keep_aspect_ratio_policy other than stretch");
        const int64_t *ax;
        if (onnx__attr_ints(c, "axes", &ax, &na) && na <= ONNX_INFER_MAX_RANK)
            memcpy(axes, ax, na * sizeof *ax);
        else
            for (na = 0; na < (uint32_t)r; na++)
                axes[na] = na;
        if ((uint32_t)n != na)
            return onnx__fail(c, "sizes' length does not match");
        for (uint32_t k = 0; k < na; k++) {
            int32_t a;
            if (!onnx__norm_axis(axes[k], r, &a))
                return onnx__fail(c, "an axis is out of range");
            d[a] = onnx__as_dim(v[k]);
        }
        return onnx__set_out(c, 0, r, d);
    }
    /* scales (Upsample-9 and Resize-10: input 1; Resize-11: input 2, and
     * axes from opset 18): floor(dim * scale), when that is exact */
    const struct ival *sc =
        onnx__IN(c, c->op->arg.resize == RS_UPSAMPLE || !onnx__since(c) ? 1 : 2);
    if (sc && sc->fvals && sc->n_fvals > 0) {
        if (onnx__attr_s_is(c, "coordinate_transformation_mode", "tf_crop_and_resize"))
            return onnx__fail(c, "tf_crop_and_resize scales the roi, not the input");
        const int64_t *ax;
        if (c->opset >= 18 && onnx__attr_ints(c, "axes", &ax, &na) && na <= ONNX_INFER_MAX_RANK)
            memcpy(axes, ax, na * sizeof *ax);
        else
            for (na = 0; na < (uint32_t)r; na++)
                axes[na] = na;
        if (sc->n_fvals != na)
            return onnx__fail(c, "scales' length does not match");
        for (uint32_t k = 0; k < na; k++) {
            int32_t a;
            if (!onnx__norm_axis(axes[k], r, &a))
                return onnx__fail(c, "an axis is out of range");
            d[a] = scaled(c, d[a], sc->fvals[k]);
        }
        return onnx__set_out(c, 0, r, d);
    }
    c->why = "the scales' values are unknown (a FLOAT initializer or Constant of at most 16 is "
             "read) or the sizes are unknown";
    return onnx__set_out(c, 0, r, NULL);
}

bool onnx__fam_gather(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0), *idx = onnx__SHAPED(c, 1);
    if (c->op->arg.gather == GA_ELEMENTS) { /* GatherElements: the indices' shape */
        if (!idx)
            return onnx__fail(c, "the indices' shape is unknown");
        return onnx__set_out(c, 0, idx->pub.rank, idx->pub.dims);
    }
    if (!x || !idx)
        return onnx__fail(c, "an input's shape is unknown");
    int32_t r = x->pub.rank, q = idx->pub.rank, ax;
    if (!onnx__norm_axis(onnx__attr_i(c, "axis", 0), r, &ax))
        return onnx__fail(c, "axis out of range");
    if (r - 1 + q > ONNX_INFER_MAX_RANK)
        return onnx__fail(c, "rank too large");
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    int32_t n = 0;
    for (int32_t k = 0; k < ax; k++)
        d[n++] = x->pub.dims[k];
    for (int32_t k = 0; k < q; k++)
        d[n++] = idx->pub.dims[k];
    for (int32_t k = ax + 1; k < r; k++)
        d[n++] = x->pub.dims[k];
    if (!onnx__set_out(c, 0, n, d))
        return false;
    /* values: indices into a 1-D value */
    int64_t iv[ONNX_INFER_VALUES];
    uint32_t ni;
    if (r == 1 && x->n_vals >= 0 && onnx__const_ints(c, 1, iv, ONNX_INFER_VALUES, &ni)) {
        const struct onnx_dx *v[ONNX_INFER_VALUES];
        for (uint32_t k = 0; k < ni; k++) {
            int64_t i = iv[k] < 0 ? iv[k] + x->n_vals : iv[k];
            if (i < 0 || i >= x->n_vals)
                return true;
            v[k] = x->vals[i];
        }
        onnx__set_vals(c, 0, (int32_t)ni, v);
    } else if (r > 1) {
        onnx__values_gather(c, x, ax);
    }
    return true;
}

bool onnx__fam_gather_nd(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0), *idx = onnx__SHAPED(c, 1);
    int64_t b = onnx__attr_i(c, "batch_dims", 0), k;
    if (!x || !idx || idx->pub.rank < 1)
        return onnx__fail(c, "an input's shape is unknown");
    if (!onnx_dx_is_const(idx->pub.dims[idx->pub.rank - 1], &k))
        return onnx__fail(c, "the indices' last dim is unknown");
    if (b < 0 || k < 1 || b + k > x->pub.rank)
        return onnx__fail(c, "batch_dims or the indices' last dim is out of range");
    const struct onnx_dx *d[2 * ONNX_INFER_MAX_RANK];
    int32_t n = 0;
    for (int32_t i = 0; i < idx->pub.rank - 1; i++)
        d[n++] = idx->pub.dims[i];
    for (int32_t i = (int32_t)(b + k); i < x->pub.rank; i++)
        d[n++] = x->pub.dims[i];
    return onnx__set_out(c, 0, n, d);
}

bool onnx__fam_onehot(struct nctx *c)
{
    const struct ival *idx = onnx__SHAPED(c, 0);
    const struct onnx_dx *const *v;
    int32_t n, ax;
    if (!idx)
        return onnx__fail(c, "the indices' shape is unknown");
    int32_t r = idx->pub.rank + 1;
    if (r > ONNX_INFER_MAX_RANK || !onnx__norm_axis(onnx__attr_i(c, "axis", -1), r, &ax))
        return onnx__fail(c, "axis out of range");
    const struct onnx_dx *depth = onnx__in_vals(c, 1, &v, &n) && n == 1 ? onnx__as_dim(v[0]) : NULL;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    for (int32_t k = 0, s = 0; k < r; k++)
        d[k] = k == ax ? depth : idx->pub.dims[s++];
    if (!depth)
        c->why = "depth's value is unknown (or not an integer)";
    return onnx__set_out(c, 0, r, d);
}

bool onnx__fam_topk(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    const struct onnx_dx *const *v;
    int32_t n, ax;
    if (c->n_out > 1)
        c->out[1].pub.elem_type = DT_INT64;
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    if (!onnx__norm_axis(onnx__attr_i(c, "axis", -1), x->pub.rank, &ax))
        return onnx__fail(c, "axis out of range");
    const struct onnx_dx *k = NULL;
    if (!onnx__since(c))
        k = onnx__attr(c, "k") ? onnx__K(c, onnx__attr_i(c, "k", 0)) : NULL;
    else if (onnx__in_vals(c, 1, &v, &n) && n == 1)
        k = onnx__as_dim(v[0]);
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    memcpy(d, x->pub.dims, (size_t)x->pub.rank * PTR_BYTES);
    d[ax] = k;
    if (!k)
        c->why = "K is unknown";
    return onnx__set_out(c, 0, x->pub.rank, d) && onnx__set_out(c, 1, x->pub.rank, d);
}
