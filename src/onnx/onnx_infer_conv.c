/* onnx_infer_conv.c - the convolution and pooling family: Conv,
 * ConvInteger, QLinearConv, ConvTranspose, the pools (average, max, Lp,
 * global), MaxUnpool, MaxRoiPool, RoiAlign and GridSample; auto_pad,
 * dilations, strides, ceil_mode and output_padding as the ONNX spec gives
 * their output size. The table (onnx_infer_ops.c) names the operator with
 * an enum conv_arg. */
#include "onnx_infer_int.h"

#include <string.h>

/* One spatial output size: (in + pads - ((k-1)*d+1)) / s + 1, floor or
 * ceil; SAME_* pads: ceil(in / s). */
static const struct onnx_dx *pool_dim(struct nctx *c, const struct onnx_dx *in, int64_t k,
                                      int64_t s, int64_t d, int64_t pb, int64_t pe, int mode,
                                      bool ceil_mode)
{
    struct onnx_dx_ctx *dx = c->in->dx;
    int64_t v;
    if (!in || k < 1 || s < 1 || d < 1 || k > INT32_MAX || d > INT32_MAX)
        return NULL;
    if (onnx_dx_is_const(in, &v) && v == 0) {
        c->why = "an empty spatial dim: the runtimes and onnx disagree";
        return NULL;
    }
    if (mode == 1 && d > 1 && c->op->arg.conv == C_POOL) {
        /* ONNX Runtime's pools size SAME's pads with the undilated kernel */
        c->why = "a pool with auto_pad SAME and a dilation: ONNX's text gives ceil(in/stride), "
                 "ONNX Runtime pads for the undilated kernel";
        return NULL;
    }
    if (mode == 1) /* SAME_UPPER, SAME_LOWER */
        return onnx_dx_ceildiv(dx, in, onnx__K(c, s));
    if (mode == 2) /* VALID */
        pb = pe = 0;
    const struct onnx_dx *eff =
        onnx_dx_sub(dx, onnx_dx_add(dx, in, onnx__K(c, pb + pe)), onnx__K(c, (k - 1) * d + 1));
    if (onnx_dx_is_const(eff, &v) && v < 0) {
        c->why = "the kernel is longer than the padded input: ONNX Runtime's pools give 0 or "
                 "refuse it, PyTorch refuses it";
        return NULL;
    }
    const struct onnx_dx *q = ceil_mode ? onnx_dx_ceildiv(dx, eff, onnx__K(c, s))
                                        : onnx_dx_floordiv(dx, eff, onnx__K(c, s));
    const struct onnx_dx *r = onnx_dx_add(dx, q, onnx__K(c, 1));
    if (ceil_mode && pe > (k - 1) * d + 1 - s) {
        /* a last window that starts in the right padding is dropped (the
         * spec's text since opset 19, PyTorch, ONNX Runtime's PR 16752):
         * r - 1 when (r-1)*s >= in + pb, that is when r > ceil((in+pb)/s).
         * The last window starts at most at in + pb + pe - k_eff + s - 1,
         * so only pe + s > k_eff can drop one. */
        const struct onnx_dx *starts =
            onnx_dx_ceildiv(dx, onnx_dx_add(dx, in, onnx__K(c, pb)), onnx__K(c, s));
        const struct onnx_dx *over = onnx_dx_max(dx, onnx__K(c, 0), onnx_dx_sub(dx, r, starts));
        r = onnx_dx_sub(dx, r, onnx_dx_min(dx, onnx__K(c, 1), over));
    }
    if (onnx_dx_is_const(r, &v) && v < 0)
        return NULL;
    return r;
}

/* A begin and an end pad, each 0..INT32_MAX (so that every sum and
 * product with a stride, kernel or dilation stays in int64), summed. */
static bool pads_sum(int64_t b, int64_t e, int64_t *sum)
{
    if (b < 0 || e < 0 || b > INT32_MAX || e > INT32_MAX)
        return false;
    *sum = b + e;
    return true;
}

static int auto_pad_mode(struct nctx *c)
{
    if (onnx__attr_s_is(c, "auto_pad", "SAME_UPPER") ||
        onnx__attr_s_is(c, "auto_pad", "SAME_LOWER"))
        return 1;
    if (onnx__attr_s_is(c, "auto_pad", "VALID"))
        return 2;
    return 0;
}

static bool conv_transpose(struct nctx *c, const struct ival *x, const struct ival *w, int32_t ns,
                           const int64_t *ks, const struct onnx_dx **d)
{
    struct onnx_dx_ctx *dx = c->in->dx;
    int64_t group = onnx__attr_i(c, "group", 1);
    const int64_t *s = NULL, *dl = NULL, *p = NULL, *op = NULL, *os = NULL;
    uint32_t ns_, nd, np, nop, nos = 0;
    bool hs = onnx__attr_ints(c, "strides", &s, &ns_),
         hd = onnx__attr_ints(c, "dilations", &dl, &nd);
    bool hp = onnx__attr_ints(c, "pads", &p, &np),
         hop = onnx__attr_ints(c, "output_padding", &op, &nop);
    onnx__attr_ints(c, "output_shape", &os, &nos);
    if ((hs && ns_ != (uint32_t)ns) || (hd && nd != (uint32_t)ns) ||
        (hp && np != 2 * (uint32_t)ns) || (hop && nop != (uint32_t)ns))
        return onnx__fail(c, "an attribute's length does not match the rank");
    d[1] = w && w->pub.rank >= 2 ? onnx_dx_mul(dx, w->pub.dims[1], onnx__K(c, group)) : NULL;
    for (int32_t i = 0; i < ns; i++) {
        if (nos) {
            int64_t o = nos >= (uint32_t)ns ? os[nos - (uint32_t)ns + (uint32_t)i] : -1;
            d[2 + i] = o >= 0 ? onnx__K(c, o) : NULL;
            continue;
        }
        int64_t st = hs ? s[i] : 1, di = hd ? dl[i] : 1, opd = hop ? op[i] : 0, pad;
        if (st < 1 || di < 1 || ks[i] < 1 || st > INT32_MAX || di > INT32_MAX ||
            ks[i] > INT32_MAX || opd < 0 || opd > INT32_MAX)
            return onnx__fail(c, "a stride, dilation or kernel is out of range");
        if (!pads_sum(hp ? p[i] : 0, hp ? p[i + ns] : 0, &pad))
            return onnx__fail(c, "a pad is out of range");
        const struct onnx_dx *in = x->pub.dims[2 + i];
        if (auto_pad_mode(c) == 1) {
            /* the spec's in*stride; onnx.shape_inference clamps the total
             * pad (k_eff - stride) at 0 and so differs when k_eff < stride:
             * there, not inferred */
            d[2 + i] = (ks[i] - 1) * di + 1 >= st ? onnx_dx_mul(dx, in, onnx__K(c, st)) : NULL;
            /* with output_padding, onnx.shape_inference adds it (in*stride +
             * output_padding), ONNX Runtime and the text do not (in=5, k=3,
             * s=2, output_padding=1: 11 and 10): unknown */
            if (opd) {
                d[2 + i] = NULL;
                c->why = "auto_pad SAME with output_padding: onnx adds output_padding to "
                         "in*stride, ONNX Runtime does not";
            } else if (!d[2 + i]) {
                c->why = "auto_pad SAME with a kernel shorter than the stride: onnx and ONNX "
                         "Runtime give s*(in-1)+k_eff, ONNX's text in*stride";
            }
            continue;
        }
        /* s*(in-1) + output_padding + ((k-1)*d+1) - pads */
        d[2 + i] =
            onnx_dx_add(dx, onnx_dx_mul(dx, onnx_dx_sub(dx, in, onnx__K(c, 1)), onnx__K(c, st)),
                        onnx__K(c, opd + (ks[i] - 1) * di + 1 - pad));
    }
    return true;
}

static bool conv_spatial(struct nctx *c, const struct ival *x, const struct ival *w,
                         const struct onnx_dx **d)
{
    int32_t ns = x->pub.rank - 2;
    int64_t ks[ONNX_INFER_MAX_RANK];
    const int64_t *k = NULL, *s = NULL, *dl = NULL, *p = NULL;
    uint32_t nk = 0, ns_ = 0, nd = 0, np = 0;
    if (onnx__attr_ints(c, "kernel_shape", &k, &nk)) {
        if (nk != (uint32_t)ns)
            return onnx__fail(c, "kernel_shape's length does not match the rank");
        memcpy(ks, k, nk * sizeof *k);
    } else if (w && w->pub.rank == x->pub.rank) {
        for (int32_t i = 0; i < ns; i++)
            if (!onnx_dx_is_const(w->pub.dims[2 + i], &ks[i]))
                return onnx__fail(c, "the kernel's shape is unknown");
    } else {
        return onnx__fail(c, "the kernel's shape is unknown");
    }
    if (c->op->arg.conv == C_TRANSPOSE)
        return conv_transpose(c, x, w, ns, ks, d);
    bool hs = onnx__attr_ints(c, "strides", &s, &ns_),
         hd = onnx__attr_ints(c, "dilations", &dl, &nd);
    bool hp = onnx__attr_ints(c, "pads", &p, &np);
    if ((hs && ns_ != (uint32_t)ns) || (hd && nd != (uint32_t)ns) || (hp && np != 2 * (uint32_t)ns))
        return onnx__fail(c, "an attribute's length does not match the rank");
    int mode = auto_pad_mode(c);
    bool ceil_mode = onnx__attr_i(c, "ceil_mode", 0) != 0;
    for (int32_t i = 0; i < ns; i++) {
        int64_t pb = hp ? p[i] : 0, pe = hp ? p[i + ns] : 0;
        if (pb < 0 || pe < 0 || pb > INT32_MAX || pe > INT32_MAX)
            return onnx__fail(c, "a pad is out of range");
        d[2 + i] = pool_dim(c, x->pub.dims[2 + i], ks[i], hs ? s[i] : 1, hd ? dl[i] : 1, pb, pe,
                            mode, ceil_mode);
    }
    return true;
}

static bool roi(struct nctx *c, const struct ival *x)
{
    const struct ival *r = onnx__SHAPED(c, 1);
    const struct onnx_dx *d[4];
    d[0] = r && r->pub.rank == 2 ? r->pub.dims[0] : NULL;
    d[1] = x->pub.rank == 4 ? x->pub.dims[1] : NULL;
    if (c->op->arg.conv == C_ROIALIGN) {
        d[2] = onnx__K(c, onnx__attr_i(c, "output_height", 1));
        d[3] = onnx__K(c, onnx__attr_i(c, "output_width", 1));
    } else {
        const int64_t *ps;
        uint32_t n;
        if (!onnx__attr_ints(c, "pooled_shape", &ps, &n) || n != 2)
            return onnx__fail(c, "pooled_shape is missing");
        d[2] = onnx__K(c, ps[0]);
        d[3] = onnx__K(c, ps[1]);
    }
    return onnx__set_out(c, 0, 4, d);
}

bool onnx__fam_conv(struct nctx *c)
{
    uint32_t wi = c->op->arg.conv == C_QLCONV ? 3 : 1;
    const struct ival *x = onnx__SHAPED(c, 0), *w = onnx__SHAPED(c, wi);
    if (c->op->arg.conv == C_QLCONV)
        c->out[0].pub.elem_type = onnx__IN(c, 7) ? onnx__IN(c, 7)->pub.elem_type : DT_UINT8;
    if (c->op->arg.conv == C_CONV_INT)
        c->out[0].pub.elem_type = DT_INT32;
    if (c->n_out > 1) /* MaxPool's Indices */
        c->out[1].pub.elem_type = DT_INT64;
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    if (x->pub.rank < 2 + (c->op->arg.conv == C_GLOBAL ? 0 : 1) && c->op->arg.conv != C_GRIDSAMPLE)
        return onnx__fail(c, "the input's rank is below 3");
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    d[0] = x->pub.dims[0];
    d[1] = x->pub.rank > 1 ? x->pub.dims[1] : NULL;
    switch (c->op->arg.conv) {
    case C_GLOBAL:
        for (int32_t i = 2; i < x->pub.rank; i++)
            d[i] = onnx__K(c, 1);
        break;
    case C_ROIPOOL:
    case C_ROIALIGN:
        return roi(c, x);
    case C_GRIDSAMPLE: {
        const struct ival *g = onnx__SHAPED(c, 1);
        if (!g || g->pub.rank != x->pub.rank)
            return onnx__fail(c, "the grid's shape is unknown");
        for (int32_t i = 2; i < x->pub.rank; i++)
            d[i] = g->pub.dims[i - 1];
        break;
    }
    case C_UNPOOL: {
        const struct ival *os = onnx__IN(c, 2);
        if (os) {
            const struct onnx_dx *const *v;
            int32_t n;
            if (!onnx__in_vals(c, 2, &v, &n) || n != x->pub.rank)
                return onnx__fail(c, "output_shape's values are unknown");
            return onnx__set_out(c, 0, n, v);
        }
        const int64_t *k, *s = NULL, *p = NULL;
        uint32_t nk, n2 = 0, np = 0;
        if (!onnx__attr_ints(c, "kernel_shape", &k, &nk) || nk != (uint32_t)x->pub.rank - 2)
            return onnx__fail(c, "kernel_shape is missing");
        onnx__attr_ints(c, "strides", &s, &n2);
        onnx__attr_ints(c, "pads", &p, &np);
        for (uint32_t i = 0; i < nk; i++) {
            int64_t st = n2 == nk ? s[i] : 1, pad;
            if (st < 1 || st > INT32_MAX || k[i] < 1 || k[i] > INT32_MAX)
                return onnx__fail(c, "a stride or kernel is out of range");
            if (!pads_sum(np == 2 * nk ? p[i] : 0, np == 2 * nk ? p[i + nk] : 0, &pad))
                return onnx__fail(c, "a pad is out of range");
            struct onnx_dx_ctx *dx = c->in->dx;
            d[2 + i] = onnx_dx_add(
                dx,
                onnx_dx_mul(dx, onnx_dx_sub(dx, x->pub.dims[2 + i], onnx__K(c, 1)), onnx__K(c, st)),
                onnx__K(c, k[i] - pad));
        }
        break;
    }
    case C_CONV:
    case C_CONV_INT:
    case C_QLCONV:
    case C_TRANSPOSE:
    case C_POOL:
        if (c->op->arg.conv != C_POOL && c->op->arg.conv != C_TRANSPOSE)
            d[1] = w && w->pub.rank >= 1 ? w->pub.dims[0] : NULL;
        if (!conv_spatial(c, x, w, d))
            return false;
        break;
    }
    if (!onnx__set_out(c, 0, x->pub.rank, d))
        return false;
    if (c->n_out > 1 && c->op->arg.conv == C_POOL)
        return onnx__set_out(c, 1, x->pub.rank, d);
    return true;
}
