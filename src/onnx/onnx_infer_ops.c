/* onnx_infer_ops.c - the operator table and the families of shape
 * functions that keep or combine their inputs' shapes: elementwise unary,
 * broadcasting binary and variadic (with the small integer values they
 * compute), reductions, matrix products, normalisation, recurrent and
 * quantisation operators. Convolution and pooling are in
 * onnx_infer_conv.c; reshape-like, gather and scatter, and data-dependent
 * operators in onnx_infer_shape.c. Each operator is a line of the table at the end:
 * its family, input and output counts, output type rule and argument. */
#include "onnx_infer_int.h"

#include <float.h>
#include <string.h>

/* Float values are computed as IEEE-754 float32 computes them (what every
 * runtime computes): only where C's float arithmetic is float32's. */
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define FLOAT_VALUES 1
#else
#define FLOAT_VALUES 0
#endif

/* ---- elementwise unary ---- */

static bool is_int_type(int32_t t)
{
    return (t >= 2 && t <= 7) || t == DT_BOOL || t == 12 || t == DT_UINT64;
}

static bool unary_extra(struct nctx *c, const struct ival *x)
{
    switch (c->op->arg.unary) {
    case U_DROPOUT:
        if (c->n_out > 1) {
            c->out[1].pub.elem_type = DT_BOOL;
            return onnx__set_out(c, 1, x->pub.rank, x->pub.dims);
        }
        return true;
    case U_BATCHNORM: {
        const struct ival *s = onnx__SHAPED(c, 1);
        for (uint32_t k = 1; k < c->n_out; k++) {
            c->out[k].pub.elem_type = onnx__IN(c, 1) ? onnx__IN(c, 1)->pub.elem_type : 0;
            if (s && !onnx__set_out(c, k, s->pub.rank, s->pub.dims))
                return false;
        }
        return true;
    }
    case U_LAYERNORM: {
        int32_t ax;
        if (!onnx__norm_axis(onnx__attr_i(c, "axis", -1), x->pub.rank, &ax))
            return onnx__fail(c, "axis out of range");
        const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
        for (int32_t k = 0; k < x->pub.rank; k++)
            d[k] = k < ax ? x->pub.dims[k] : onnx__K(c, 1);
        for (uint32_t k = 1; k < c->n_out; k++) {
            c->out[k].pub.elem_type = (int32_t)onnx__attr_i(c, "stash_type", DT_FLOAT);
            if (!onnx__set_out(c, k, x->pub.rank, d))
                return false;
        }
        return true;
    }
    case U_PLAIN:
    case U_VALUES:
    case U_NEG:
    case U_BOOL:
    case U_DTYPE_OR_IN:
    case U_QUANT:
    case U_DEQUANT:
    case U_DYNQUANT:
    case U_LOSS:
    case U_FLOOR:
    case U_CEIL:
        break;
    }
    return true;
}

static void unary_type(struct nctx *c, const struct ival *x)
{
    const struct ival *v;
    switch (c->op->arg.unary) {
    case U_BOOL:
        c->out[0].pub.elem_type = DT_BOOL;
        break;
    case U_DTYPE_OR_IN:
        c->out[0].pub.elem_type = (int32_t)onnx__attr_i(c, "dtype", x ? x->pub.elem_type : 0);
        break;
    case U_QUANT:
        v = onnx__IN(c, 2);
        c->out[0].pub.elem_type =
            v ? v->pub.elem_type : (int32_t)onnx__attr_i(c, "output_dtype", 0);
        if (!c->out[0].pub.elem_type)
            c->out[0].pub.elem_type = DT_UINT8;
        break;
    case U_DEQUANT:
        v = onnx__IN(c, 1);
        c->out[0].pub.elem_type = onnx__since(c) ? (v ? v->pub.elem_type : 0) : DT_FLOAT;
        break;
    case U_DYNQUANT:
        c->out[0].pub.elem_type = DT_UINT8;
        if (c->n_out > 1)
            c->out[1].pub.elem_type = DT_FLOAT;
        if (c->n_out > 2)
            c->out[2].pub.elem_type = DT_UINT8;
        onnx__set_out(c, 1, 0, NULL);
        onnx__set_out(c, 2, 0, NULL);
        break;
    case U_DROPOUT: /* the mask is bool whether or not its shape is known */
        if (c->n_out > 1)
            c->out[1].pub.elem_type = DT_BOOL;
        break;
    case U_PLAIN:
    case U_VALUES:
    case U_NEG:
    case U_BATCHNORM:
    case U_LAYERNORM:
    case U_LOSS:
    case U_FLOOR:
    case U_CEIL:
        break;
    }
}

static bool loss(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0), *t = onnx__SHAPED(c, 1);
    c->out[0].pub.elem_type = onnx__IN(c, 0) ? onnx__IN(c, 0)->pub.elem_type : 0;
    if (c->n_out > 1) {
        c->out[1].pub.elem_type = c->out[0].pub.elem_type;
        if (x && !onnx__set_out(c, 1, x->pub.rank, x->pub.dims))
            return false;
    }
    if (!onnx__attr_s_is(c, "reduction", "none")) /* mean (the default) or sum: a scalar */
        return onnx__set_out(c, 0, 0, NULL);
    if (!t)
        return onnx__fail(c, "the target's shape is unknown");
    return onnx__set_out(c, 0, t->pub.rank, t->pub.dims);
}

/* Values through Identity or a Cast to an integer type: onnx__set_vals wraps
 * them to the type (onnx__value_wrap_to_type), as a Cast between integer types
 * does. */
static void cast_values(struct nctx *c, const struct ival *x)
{
    if (x->n_vals <= ONNX_INFER_VALUES)
        onnx__set_vals(c, 0, x->n_vals, x->vals);
}

/* ---- float values: small FLOAT constants through the float32 arithmetic
 * of shape computations (Cast, Mul, Div, Add, Sub, Floor, Ceil), and back to
 * integer values only where a float is an integer: Cast(Floor(Cast(H,
 * FLOAT) * 0.5f), INT64) of H = 7 is 3. ---- */

static void set_fvals(struct nctx *c, uint32_t n, const float *f)
{
    float *v = n <= ONNX_INFER_VALUES ? onnx__infer_alloc(c->in, (size_t)n * sizeof *v + 1) : NULL;
    if (!v)
        return; /* values are a bonus */
    if (n)
        memcpy(v, f, (size_t)n * sizeof *v);
    c->out[0].fvals = v;
    c->out[0].n_fvals = n;
}

/* f rounded down (up) to an integer; f itself when it is one already
 * (every float of magnitude 2^23 or more is) or not finite. */
static float round_to_int(float f, bool up)
{
    if (!(f > -8388608.0f && f < 8388608.0f))
        return f;
    float r = (float)(int32_t)f; /* toward zero, exact below 2^23 */
    if (!up && r > f)
        r -= 1.0f;
    if (up && r < f)
        r += 1.0f;
    return r;
}

/* Float values through a unary op: Floor and Ceil round them; Identity and
 * Cast to FLOAT keep them; Cast to an integer type gives integer values
 * where each float is an integer (no rounding to guess); Cast of integer
 * constants (below 2^24: exact) to FLOAT gives float values. */
static void unary_fvals(struct nctx *c, const struct ival *x)
{
    float f[ONNX_INFER_VALUES];
    const struct onnx_dx *v[ONNX_INFER_VALUES];
    int32_t to = c->out[0].pub.elem_type;
    if (!FLOAT_VALUES)
        return;
    if (x->fvals && x->n_fvals <= ONNX_INFER_VALUES) {
        uint32_t n = x->n_fvals;
        if (c->op->arg.unary == U_FLOOR || c->op->arg.unary == U_CEIL) {
            for (uint32_t k = 0; k < n; k++)
                f[k] = round_to_int(x->fvals[k], c->op->arg.unary == U_CEIL);
            set_fvals(c, n, f);
        } else if (c->op->arg.unary == U_VALUES && to == DT_FLOAT) {
            set_fvals(c, n, x->fvals);
        } else if (c->op->arg.unary == U_VALUES && is_int_type(to) && to != DT_BOOL) {
            for (uint32_t k = 0; k < n; k++) {
                float e = x->fvals[k];
                bool whole = e == round_to_int(e, false) && e > -9.2e18f && e < 9.2e18f;
                v[k] = whole ? onnx__K(c, (int64_t)e) : NULL;
                /* a float outside the integer type: C leaves it undefined, no wrap known */
                if (v[k] != onnx__value_wrap_to_type(DX(c), to, v[k]))
                    v[k] = NULL;
            }
            struct ival t = {0};
            t.n_vals = (int32_t)n;
            t.vals = v;
            cast_values(c, &t);
        }
        return;
    }
    if (c->op->arg.unary != U_VALUES || to != DT_FLOAT || x->n_vals < 0 ||
        !is_int_type(x->pub.elem_type))
        return;
    for (int32_t k = 0; k < x->n_vals; k++) {
        int64_t i;
        if (!onnx_dx_is_const(x->vals[k], &i) || i < -16777216 || i > 16777216)
            return;
        f[k] = (float)i;
    }
    set_fvals(c, (uint32_t)x->n_vals, f);
}

static bool fam_unary(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (c->op->arg.unary == U_LOSS)
        return loss(c);
    if (onnx__IN(c, 0) && onnx__IN(c, 0)->pub.not_tensor &&
        onnx__bytes_is(c->node->op_type, "Identity"))
        return onnx__set_from_elem(c, 0,
                                   onnx__elem_copy(c->in, onnx__IN(c, 0))); /* a sequence passes */
    unary_type(c, onnx__IN(c, 0));
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    if (!onnx__set_out(c, 0, x->pub.rank, x->pub.dims))
        return false;
    if (x->n_vals >= 0) {
        int32_t to = c->out[0].pub.elem_type;
        if (c->op->arg.unary == U_VALUES &&
            is_int_type(to)) /* bool too: onnx__value_wrap_to_type */
            cast_values(c, x);
        if (c->op->arg.unary == U_NEG) {
            const struct onnx_dx *v[ONNX_INFER_VALUES];
            for (int32_t k = 0; k < x->n_vals; k++)
                v[k] = onnx_dx_sub(c->in->dx, onnx__K(c, 0), x->vals[k]);
            onnx__set_vals(c, 0, x->n_vals, v);
        }
    }
    unary_fvals(c, x);
    return unary_extra(c, x);
}

/* ---- broadcasting, with values ---- */

/* One element of a value op; NULL when it is not known exactly. */
static const struct onnx_dx *value_op(struct nctx *c, const struct onnx_dx *a,
                                      const struct onnx_dx *b, const struct onnx_dx *w)
{
    struct onnx_dx_ctx *dx = c->in->dx;
    int64_t x, y;
    if (!a || !b)
        return NULL;
    switch (c->op->arg.value) {
    case V_ADD:
        return onnx_dx_add(dx, a, b);
    case V_SUB:
        return onnx_dx_sub(dx, a, b);
    case V_MUL:
        return onnx_dx_mul(dx, a, b);
    case V_DIV: /* integer Div truncates: floor when both are >= 0 */
        if (onnx_dx_is_const(a, &x) && onnx_dx_is_const(b, &y))
            return y == 0 || (x == INT64_MIN && y == -1) ? NULL : onnx__K(c, x / y);
        if (onnx_dx_nonneg(a) && onnx_dx_is_const(b, &y) && y > 0)
            return onnx_dx_floordiv(dx, a, b);
        return NULL;
    case V_MOD:
        if (onnx__attr_i(c, "fmod", 0) == 0)
            return onnx_dx_mod(dx, a, b);
        if (onnx_dx_nonneg(a) && onnx_dx_is_const(b, &y) && y > 0)
            return onnx_dx_mod(dx, a, b);
        return NULL;
    case V_MAX:
        return onnx_dx_max(dx, a, b);
    case V_MIN:
        return onnx_dx_min(dx, a, b);
    case V_EQ:
        if (a == b)
            return onnx__K(c, 1);
        if (onnx_dx_is_const(a, &x) && onnx_dx_is_const(b, &y))
            return onnx__K(c, x == y);
        return NULL;
    case V_LT:
    case V_GT:
        if (onnx_dx_is_const(a, &x) && onnx_dx_is_const(b, &y))
            return onnx__K(c, c->op->arg.value == V_LT ? x < y : x > y);
        return NULL;
    case V_WHERE:
        if (!w || !onnx_dx_is_const(a, &x))
            return NULL;
        return x ? b : w;
    case V_NONE:
    case V_CMP_NONE:
        break;
    }
    return NULL;
}

/* One element of a float value op (float32 arithmetic); false when the op
 * has none. */
static bool float_op(struct nctx *c, float a, float b, float *r)
{
    switch (c->op->arg.value) {
    case V_ADD:
        *r = a + b;
        return true;
    case V_SUB:
        *r = a - b;
        return true;
    case V_MUL:
        *r = a * b;
        return true;
    case V_DIV:
        *r = a / b;
        return true;
    case V_MOD:
    case V_MAX:
    case V_MIN:
    case V_EQ:
    case V_LT:
    case V_GT:
    case V_WHERE:
    case V_NONE:
    case V_CMP_NONE:
        break;
    }
    return false;
}

/* The values of a broadcasting op when every input has values (integer
 * ones, or float ones for Add, Sub, Mul and Div) and every shape is
 * constant. */
static void broadcast_values(struct nctx *c, const struct ival *const *v, uint32_t n,
                             const struct onnx_dx *const *dims, int32_t rank)
{
    int64_t total = 1, d[ONNX_INFER_MAX_RANK] = {0};
    float unused;
    bool fl =
        FLOAT_VALUES && n == 2 && v[0]->fvals && v[1]->fvals && float_op(c, 0.0f, 1.0f, &unused);
    if (c->op->arg.value == V_NONE || c->op->arg.value == V_CMP_NONE || n > 3 ||
        (n < 2 && c->op->arg.value != V_MAX && c->op->arg.value != V_MIN))
        return;
    for (uint32_t i = 0; i < n && !fl; i++)
        if (v[i]->n_vals < 0)
            return;
    if (rank > ONNX_INFER_MAX_RANK)
        return;
    for (int32_t k = 0; k < rank; k++) {
        if (!onnx_dx_is_const(dims[k], &d[k]) || d[k] <= 0 || total > ONNX_INFER_VALUES / d[k])
            return;
        total *= d[k];
    }
    for (uint32_t i = 0; i < n; i++) /* each input's dims known too */
        for (int32_t j = 0; j < v[i]->pub.rank; j++)
            if (!onnx_dx_is_const(v[i]->pub.dims[j], NULL))
                return;
    const struct onnx_dx *out[ONNX_INFER_VALUES];
    float fout[ONNX_INFER_VALUES];
    for (int64_t e = 0; e < total; e++) {
        const struct onnx_dx *el[3] = {NULL, NULL, NULL};
        float fel[2] = {0, 0};
        for (uint32_t i = 0; i < n; i++) {
            /* the element of input i that element e reads */
            int64_t rem = e, idx = 0, stride = 1;
            for (int32_t k = rank - 1; k >= 0 && d[k] > 0; k--) { /* (d[k] > 0 above) */
                int64_t coord = rem % d[k];
                rem /= d[k];
                int32_t j = k - (rank - v[i]->pub.rank);
                if (j < 0)
                    continue;
                int64_t dj;
                onnx_dx_is_const(v[i]->pub.dims[j], &dj);
                idx += (dj == 1 ? 0 : coord) * stride;
                stride *= dj;
            }
            if (fl) {
                if (idx >= (int64_t)v[i]->n_fvals)
                    return;
                fel[i] = v[i]->fvals[idx];
                continue;
            }
            if (idx >= v[i]->n_vals)
                return;
            el[i] = v[i]->vals[idx];
        }
        if (fl) {
            float_op(c, fel[0], fel[1], &fout[e]);
            continue;
        }
        const struct onnx_dx *r = el[0];
        if (c->op->arg.value == V_WHERE)
            r = value_op(c, el[0], el[1], el[2]);
        else
            for (uint32_t i = 1; i < n; i++)
                r = value_op(c, r, el[i], NULL);
        out[e] = r;
    }
    if (fl)
        set_fvals(c, (uint32_t)total, fout);
    else
        onnx__set_vals(c, 0, (int32_t)total, out);
}

static bool fam_broadcast(struct nctx *c)
{
    const struct ival *v[64];
    uint32_t n = 0;
    if (c->op->arg.value == V_WHERE && onnx__IN(c, 1))
        c->out[0].pub.elem_type = onnx__IN(c, 1)->pub.elem_type;
    /* before the table's since (opset 7) B broadcast to A (attribute
     * broadcast, axis): A's shape. Where has one form. */
    if (!onnx__since(c) && c->n_in == 2) {
        const struct ival *a = onnx__SHAPED(c, 0);
        if (!a)
            return onnx__fail(c, "the first input's shape is unknown");
        return onnx__set_out(c, 0, a->pub.rank, a->pub.dims);
    }
    for (uint32_t i = 0; i < c->n_in && n < 64; i++)
        if (onnx__IN(c, i))
            v[n++] = onnx__IN(c, i);
    if (n != c->n_in)
        return onnx__fail(c, "an input is left out");
    const struct onnx_dx *dims[ONNX_INFER_MAX_RANK];
    int32_t rank;
    if (!onnx__broadcast(c, v, n, dims, &rank) || !onnx__set_out(c, 0, rank, dims))
        return false;
    broadcast_values(c, v, n, dims, rank);
    return true;
}

/* ---- reductions ---- */

static bool fam_reduce(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    int32_t r = x->pub.rank;
    bool keep = onnx__attr_i(c, "keepdims", 1) != 0;
    bool mark[ONNX_INFER_MAX_RANK] = {false};
    int64_t axes[ONNX_INFER_MAX_RANK];
    uint32_t n_axes = 0;
    if (c->op->arg.reduce == R_ARG) {
        axes[0] = onnx__attr_i(c, "axis", 0);
        n_axes = 1;
    } else if (onnx__since(c)) { /* the axes an input */
        if (onnx__IN(c, 1) && !onnx__const_ints(c, 1, axes, ONNX_INFER_MAX_RANK, &n_axes)) {
            if (!keep)
                return onnx__fail(c, "the axes input's values are unknown");
            const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
            for (int32_t k = 0; k < r; k++) /* a dim of 1 stays 1 either way */
                d[k] = x->pub.dims[k] == onnx__K(c, 1) ? x->pub.dims[k] : NULL;
            c->why = "the axes input's values are unknown";
            return onnx__set_out(c, 0, r, d);
        }
        if (n_axes == 0 && onnx__attr_i(c, "noop_with_empty_axes", 0))
            return onnx__set_out(c, 0, r, x->pub.dims);
    } else {
        const int64_t *a;
        uint32_t n;
        if (onnx__attr_ints(c, "axes", &a, &n)) {
            if (n > ONNX_INFER_MAX_RANK)
                return onnx__fail(c, "too many axes");
            memcpy(axes, a, n * sizeof *a);
            n_axes = n;
        }
    }
    bool empty = false;
    for (int32_t k = 0; k < r; k++)
        empty |= x->pub.dims[k] == onnx__K(c, 0);
    for (uint32_t i = 0; i < n_axes; i++) {
        int32_t ax;
        if (!onnx__norm_axis(axes[i], r, &ax))
            return onnx__fail(c, "an axis is out of range");
        if (axes[i] < 0 && empty) /* ONNX Runtime 1.30 gives back the input's shape */
            return onnx__fail(c,
                              "a negative axis on an empty input: ONNX Runtime keeps the input's "
                              "shape, ONNX's text reduces it");
        mark[ax] = true;
    }
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    int32_t n = 0;
    for (int32_t k = 0; k < r; k++) {
        bool red = n_axes == 0 || mark[k];
        if (!red)
            d[n++] = x->pub.dims[k];
        else if (keep)
            d[n++] = onnx__K(c, 1);
    }
    if (!onnx__set_out(c, 0, n, d))
        return false;
    /* values: a whole 1-D value reduced by Sum, Prod, Max or Min */
    if (x->n_vals >= 1 && r == 1 && c->op->arg.reduce != R_ARG) {
        const struct onnx_dx *acc = x->vals[0];
        const char *op = c->op->name; /* the table's, NUL-terminated */
        int which = strcmp(op, "ReduceSum") == 0    ? 1
                    : strcmp(op, "ReduceMax") == 0  ? 2
                    : strcmp(op, "ReduceMin") == 0  ? 3
                    : strcmp(op, "ReduceProd") == 0 ? 4
                                                    : 0;
        for (int32_t k = 1; k < x->n_vals && which; k++)
            acc = which == 1   ? onnx_dx_add(c->in->dx, acc, x->vals[k])
                  : which == 2 ? onnx_dx_max(c->in->dx, acc, x->vals[k])
                  : which == 3 ? onnx_dx_min(c->in->dx, acc, x->vals[k])
                               : onnx_dx_mul(c->in->dx, acc, x->vals[k]);
        if (which)
            onnx__set_vals(c, 0, 1, &acc);
    }
    return true;
}

/* ---- the table ---- */

#define UN(name, min, max, outs, ty, arg)                                                          \
    {                                                                                              \
        name, fam_unary, min, max, outs, ty, 0,                                                    \
        {                                                                                          \
            .unary = (arg)                                                                         \
        }                                                                                          \
    }
#define U1(name) UN(name, 1, 1, 1, TY_IN0, U_PLAIN)
/* numpy broadcasting from opset 7; before, B took A's shape */
#define BI(name, ty, arg)                                                                          \
    {                                                                                              \
        name, fam_broadcast, 2, 2, 1, ty, 7,                                                       \
        {                                                                                          \
            .value = (arg)                                                                         \
        }                                                                                          \
    }
#define VAR(name, arg)                                                                             \
    {                                                                                              \
        name, fam_broadcast, 1, 255, 1, TY_IN0, 7,                                                 \
        {                                                                                          \
            .value = (arg)                                                                         \
        }                                                                                          \
    }
/* the axes an input from since, before it an attribute */
#define RED(name, since)                                                                           \
    {                                                                                              \
        name, fam_reduce, 1, 2, 1, TY_IN0, since,                                                  \
        {                                                                                          \
            .reduce = R_AXES                                                                       \
        }                                                                                          \
    }
#define CONV(name, min, max, outs, ty, arg)                                                        \
    {                                                                                              \
        name, onnx__fam_conv, min, max, outs, ty, 0,                                               \
        {                                                                                          \
            .conv = (arg)                                                                          \
        }                                                                                          \
    }

const struct op_entry onnx__infer_ops[] = {
    /* elementwise unary: the input's shape */
    U1("Abs"),
    U1("Acos"),
    U1("Acosh"),
    U1("Asin"),
    U1("Asinh"),
    U1("Atan"),
    U1("Atanh"),
    UN("Ceil", 1, 1, 1, TY_IN0, U_CEIL),
    U1("Celu"),
    U1("Cos"),
    U1("Cosh"),
    U1("Elu"),
    U1("Erf"),
    U1("Exp"),
    UN("Floor", 1, 1, 1, TY_IN0, U_FLOOR),
    UN("Gelu", 1, 1, 1, TY_IN0, U_PLAIN),
    U1("HardSigmoid"),
    U1("HardSwish"),
    U1("Hardmax"),
    U1("LeakyRelu"),
    U1("Log"),
    U1("LogSoftmax"),
    U1("LpNormalization"),
    U1("LRN"),
    U1("MeanVarianceNormalization"),
    U1("Mish"),
    U1("Reciprocal"),
    U1("Relu"),
    U1("Round"),
    U1("Selu"),
    U1("Shrink"),
    U1("Sigmoid"),
    U1("Sign"),
    U1("Sin"),
    U1("Sinh"),
    U1("Softmax"),
    U1("Softplus"),
    U1("Softsign"),
    U1("Sqrt"),
    U1("Tan"),
    U1("Tanh"),
    U1("ThresholdedRelu"),
    U1("Not"),
    U1("BitwiseNot"),
    UN("Neg", 1, 1, 1, TY_IN0, U_NEG),
    UN("Identity", 1, 1, 1, TY_IN0, U_VALUES),
    UN("Cast", 1, 1, 1, TY_ATTR_TO, U_VALUES),
    UN("CastLike", 2, 2, 1, TY_IN1, U_VALUES),
    UN("IsNaN", 1, 1, 1, TY_BOOL, U_BOOL),
    UN("IsInf", 1, 1, 1, TY_BOOL, U_BOOL),
    UN("Clip", 1, 3, 1, TY_IN0, U_PLAIN),
    UN("CumSum", 2, 2, 1, TY_IN0, U_PLAIN),
    UN("Trilu", 1, 2, 1, TY_IN0, U_PLAIN),
    UN("ReverseSequence", 2, 2, 1, TY_IN0, U_PLAIN),
    UN("Dropout", 1, 3, 2, TY_IN0, U_DROPOUT),
    UN("Scatter", 3, 3, 1, TY_IN0, U_PLAIN),
    UN("ScatterElements", 3, 3, 1, TY_IN0, U_PLAIN),
    UN("ScatterND", 3, 3, 1, TY_IN0, U_PLAIN),
    UN("RandomNormalLike", 1, 1, 1, TY_FAMILY, U_DTYPE_OR_IN),
    UN("RandomUniformLike", 1, 1, 1, TY_FAMILY, U_DTYPE_OR_IN),
    UN("Bernoulli", 1, 1, 1, TY_FAMILY, U_DTYPE_OR_IN),
    UN("EyeLike", 1, 1, 1, TY_FAMILY, U_DTYPE_OR_IN),
    /* normalisation */
    UN("InstanceNormalization", 3, 3, 1, TY_IN0, U_PLAIN),
    UN("GroupNormalization", 3, 3, 1, TY_IN0, U_PLAIN),
    UN("BatchNormalization", 5, 5, 5, TY_IN0, U_BATCHNORM),
    UN("LayerNormalization", 2, 3, 3, TY_IN0, U_LAYERNORM),
    UN("SoftmaxCrossEntropyLoss", 2, 3, 2, TY_IN0, U_LOSS),
    UN("NegativeLogLikelihoodLoss", 2, 3, 1, TY_IN0, U_LOSS),
    /* quantisation */
    UN("QuantizeLinear", 2, 3, 1, TY_FAMILY, U_QUANT),
    {"DequantizeLinear", fam_unary, 2, 3, 1, TY_FAMILY, 19, {.unary = U_DEQUANT}},
    UN("DynamicQuantizeLinear", 1, 1, 3, TY_FAMILY, U_DYNQUANT),
    /* broadcasting binary and variadic */
    BI("Add", TY_IN0, V_ADD),
    BI("Sub", TY_IN0, V_SUB),
    BI("Mul", TY_IN0, V_MUL),
    BI("Div", TY_IN0, V_DIV),
    BI("Mod", TY_IN0, V_MOD),
    BI("Pow", TY_IN0, V_NONE),
    BI("PRelu", TY_IN0, V_NONE),
    BI("BitShift", TY_IN0, V_NONE),
    BI("And", TY_BOOL, V_NONE),
    BI("Or", TY_BOOL, V_NONE),
    BI("Xor", TY_BOOL, V_NONE),
    BI("Equal", TY_BOOL, V_EQ),
    BI("Less", TY_BOOL, V_LT),
    BI("Greater", TY_BOOL, V_GT),
    BI("LessOrEqual", TY_BOOL, V_NONE),
    BI("GreaterOrEqual", TY_BOOL, V_NONE),
    BI("BitwiseAnd", TY_IN0, V_NONE),
    BI("BitwiseOr", TY_IN0, V_NONE),
    BI("BitwiseXor", TY_IN0, V_NONE),
    VAR("Max", V_MAX),
    VAR("Min", V_MIN),
    VAR("Sum", V_CMP_NONE),
    VAR("Mean", V_CMP_NONE),
    {"Where", fam_broadcast, 3, 3, 1, TY_IN1, 0, {.value = V_WHERE}},
    /* reductions */
    RED("ReduceSum", 13),
    RED("ReduceMean", 18),
    RED("ReduceMax", 18),
    RED("ReduceMin", 18),
    RED("ReduceProd", 18),
    RED("ReduceL1", 18),
    RED("ReduceL2", 18),
    RED("ReduceLogSum", 18),
    RED("ReduceLogSumExp", 18),
    RED("ReduceSumSquare", 18),
    {"ArgMax", fam_reduce, 1, 1, 1, TY_I64, 0, {.reduce = R_ARG}},
    {"ArgMin", fam_reduce, 1, 1, 1, TY_I64, 0, {.reduce = R_ARG}},
    /* convolution and pooling */
    CONV("Conv", 2, 3, 1, TY_IN0, C_CONV),
    CONV("ConvInteger", 2, 4, 1, TY_FAMILY, C_CONV_INT),
    CONV("QLinearConv", 8, 9, 1, TY_FAMILY, C_QLCONV),
    CONV("ConvTranspose", 2, 3, 1, TY_IN0, C_TRANSPOSE),
    CONV("MaxPool", 1, 1, 2, TY_IN0, C_POOL),
    CONV("AveragePool", 1, 1, 1, TY_IN0, C_POOL),
    CONV("LpPool", 1, 1, 1, TY_IN0, C_POOL),
    CONV("GlobalAveragePool", 1, 1, 1, TY_IN0, C_GLOBAL),
    CONV("GlobalMaxPool", 1, 1, 1, TY_IN0, C_GLOBAL),
    CONV("GlobalLpPool", 1, 1, 1, TY_IN0, C_GLOBAL),
    CONV("MaxUnpool", 2, 3, 1, TY_IN0, C_UNPOOL),
    CONV("MaxRoiPool", 2, 2, 1, TY_IN0, C_ROIPOOL),
    CONV("RoiAlign", 3, 3, 1, TY_IN0, C_ROIALIGN),
    CONV("GridSample", 2, 2, 1, TY_IN0, C_GRIDSAMPLE),
    /* matrix products */
    {"MatMul", onnx__fam_matmul, 2, 2, 1, TY_IN0, 0, {.mm = M_MATMUL}},
    {"MatMulInteger", onnx__fam_matmul, 2, 4, 1, TY_FAMILY, 0, {.mm = M_INTEGER}},
    {"QLinearMatMul", onnx__fam_matmul, 8, 8, 1, TY_FAMILY, 0, {.mm = M_QLINEAR}},
    {"Gemm", onnx__fam_matmul, 2, 3, 1, TY_IN0, 0, {.mm = M_GEMM}},
    {"Einsum", onnx__fam_einsum, 1, 255, 1, TY_IN0, 0, NO_ARG},
    {"Det", onnx__fam_linalg, 1, 1, 1, TY_IN0, 0, {.linalg = LA_DET}},
    {"DFT", onnx__fam_linalg, 1, 3, 1, TY_IN0, 20, {.linalg = LA_DFT}},
    /* recurrent */
    {"RNN", onnx__fam_rnn, 3, 6, 2, TY_IN0, 0, NO_ARG},
    {"GRU", onnx__fam_rnn, 3, 6, 2, TY_IN0, 0, NO_ARG},
    {"LSTM", onnx__fam_rnn, 3, 8, 3, TY_IN0, 0, NO_ARG},
    /* reshape-like (onnx_infer_shape.c) */
    {"Reshape", onnx__fam_reshape, 1, 2, 1, TY_IN0, 5, NO_ARG},
    {"Flatten", onnx__fam_flatten, 1, 1, 1, TY_IN0, 0, NO_ARG},
    {"Squeeze", onnx__fam_squeeze, 1, 2, 1, TY_IN0, 13, {.squeeze = SQ_SQUEEZE}},
    {"Unsqueeze", onnx__fam_squeeze, 1, 2, 1, TY_IN0, 13, {.squeeze = SQ_UNSQUEEZE}},
    {"Transpose", onnx__fam_transpose, 1, 1, 1, TY_IN0, 0, NO_ARG},
    {"Concat", onnx__fam_concat, 1, 255, 1, TY_IN0, 4, NO_ARG},
    {"Split", onnx__fam_split, 1, 2, 255, TY_IN0, 13, NO_ARG},
    {"Slice", onnx__fam_slice, 1, 5, 1, TY_IN0, 10, NO_ARG},
    {"Tile", onnx__fam_tile, 2, 3, 1, TY_IN0, 0, NO_ARG},
    {"Pad", onnx__fam_pad, 1, 4, 1, TY_IN0, 11, NO_ARG},
    {"Shape", onnx__fam_shape, 1, 1, 1, TY_I64, 0, NO_ARG},
    {"Size", onnx__fam_size, 1, 1, 1, TY_I64, 0, NO_ARG},
    {"ConstantOfShape", onnx__fam_const_of_shape, 1, 1, 1, TY_FAMILY, 0, NO_ARG},
    {"Expand", onnx__fam_expand, 2, 2, 1, TY_IN0, 0, NO_ARG},
    {"Range", onnx__fam_range, 3, 3, 1, TY_IN0, 0, NO_ARG},
    {"DepthToSpace", onnx__fam_space_depth, 1, 1, 1, TY_IN0, 0, {.space_depth = SD_DEPTH_TO_SPACE}},
    {"SpaceToDepth", onnx__fam_space_depth, 1, 1, 1, TY_IN0, 0, {.space_depth = SD_SPACE_TO_DEPTH}},
    {"Resize", onnx__fam_resize, 1, 4, 1, TY_IN0, 11, {.resize = RS_RESIZE}},
    {"Upsample", onnx__fam_resize, 1, 2, 1, TY_IN0, 9, {.resize = RS_UPSAMPLE}},
    /* gather and scatter */
    {"Gather", onnx__fam_gather, 2, 2, 1, TY_IN0, 0, {.gather = GA_GATHER}},
    {"GatherElements", onnx__fam_gather, 2, 2, 1, TY_IN0, 0, {.gather = GA_ELEMENTS}},
    {"GatherND", onnx__fam_gather_nd, 2, 2, 1, TY_IN0, 0, NO_ARG},
    {"OneHot", onnx__fam_onehot, 3, 3, 1, TY_IN2, 0, NO_ARG},
    {"TopK", onnx__fam_topk, 1, 2, 2, TY_IN0, 10, NO_ARG},
    /* data-dependent dims: new symbols */
    {"NonZero", onnx__fam_data_dependent, 1, 1, 1, TY_I64, 0, {.data_dependent = DD_NONZERO}},
    {"Compress", onnx__fam_data_dependent, 2, 2, 1, TY_IN0, 0, {.data_dependent = DD_COMPRESS}},
    {"Unique", onnx__fam_data_dependent, 1, 1, 4, TY_IN0, 0, {.data_dependent = DD_UNIQUE}},
    {"NonMaxSuppression", onnx__fam_data_dependent, 2, 5, 1, TY_I64, 0, {.data_dependent = DD_NMS}},
    /* generators */
    {"Constant", onnx__fam_constant, 0, 0, 1, TY_FAMILY, 0, NO_ARG},
    {"RandomNormal", onnx__fam_generator, 0, 0, 1, TY_ATTR_DTYPE, 0, {.generator = GEN_RANDOM}},
    {"RandomUniform", onnx__fam_generator, 0, 0, 1, TY_ATTR_DTYPE, 0, {.generator = GEN_RANDOM}},
    {"Multinomial", onnx__fam_generator, 1, 1, 1, TY_FAMILY, 0, {.generator = GEN_MULTINOMIAL}},
    {"HannWindow", onnx__fam_window, 1, 1, 1, TY_FAMILY, 0, NO_ARG},
    {"HammingWindow", onnx__fam_window, 1, 1, 1, TY_FAMILY, 0, NO_ARG},
    {"BlackmanWindow", onnx__fam_window, 1, 1, 1, TY_FAMILY, 0, NO_ARG},
    /* text, optional and sequence scalars */
    {"StringNormalizer", onnx__fam_text, 1, 1, 1, TY_IN0, 0, {.text = TX_NORMALIZER}},
    {"TfIdfVectorizer", onnx__fam_text, 1, 1, 1, TY_FLOAT, 0, {.text = TX_TFIDF}},
    {"OptionalHasElement", onnx__fam_scalar, 0, 1, 1, TY_BOOL, 0, {.scalar = SC_HAS_ELEMENT}},
    {"SequenceLength", onnx__fam_scalar, 1, 1, 1, TY_I64, 0, {.scalar = SC_LENGTH}},
    /* sequences and optionals (onnx_infer_seq.c) */
    {"SequenceConstruct", onnx__fam_sequence, 1, 255, 1, TY_FAMILY, 0, {.seq = S_CONSTRUCT}},
    {"SequenceEmpty", onnx__fam_sequence, 0, 0, 1, TY_FAMILY, 0, {.seq = S_EMPTY}},
    {"SequenceErase", onnx__fam_sequence, 1, 2, 1, TY_FAMILY, 0, {.seq = S_ERASE}},
    {"SequenceInsert", onnx__fam_sequence, 2, 3, 1, TY_FAMILY, 0, {.seq = S_INSERT}},
    {"SplitToSequence", onnx__fam_sequence, 1, 2, 1, TY_FAMILY, 0, {.seq = S_SPLIT}},
    {"SequenceMap", onnx__fam_sequence_map, 1, 255, 255, TY_FAMILY, 0, NO_ARG},
    {"Optional", onnx__fam_sequence, 0, 1, 1, TY_FAMILY, 0, {.seq = S_OPTIONAL}},
    {"SequenceAt", onnx__fam_sequence, 2, 2, 1, TY_FAMILY, 0, {.seq = S_AT}},
    {"ConcatFromSequence", onnx__fam_sequence, 1, 1, 1, TY_FAMILY, 0, {.seq = S_CONCAT}},
    {"OptionalGetElement", onnx__fam_sequence, 1, 1, 1, TY_FAMILY, 0, {.seq = S_GET}},
    /* signal processing */
    {"MelWeightMatrix", onnx__fam_signal, 5, 5, 1, TY_FAMILY, 0, {.signal = SG_MEL}},
    {"STFT", onnx__fam_signal, 2, 4, 1, TY_IN0, 0, {.signal = SG_STFT}},
    {"CenterCropPad", onnx__fam_crop, 2, 2, 1, TY_IN0, 0, {.crop = CR_CENTER_CROP_PAD}},
    {"Col2Im", onnx__fam_crop, 3, 3, 1, TY_IN0, 0, {.crop = CR_COL2IM}},
    /* training (domain ai.onnx.preview.training) */
    {"training.Adagrad",
     onnx__fam_training,
     5,
     255,
     255,
     TY_FAMILY,
     0,
     {.training = TR_TWO_GROUPS}},
    {"training.Momentum",
     onnx__fam_training,
     5,
     255,
     255,
     TY_FAMILY,
     0,
     {.training = TR_TWO_GROUPS}},
    {"training.Adam", onnx__fam_training, 6, 255, 255, TY_FAMILY, 0, {.training = TR_THREE_GROUPS}},
    {"training.Gradient", onnx__fam_training, 1, 255, 255, TY_FAMILY, 0, {.training = TR_GRADIENT}},
    /* subgraphs */
    {"If", onnx__fam_if, 1, 1, 255, TY_FAMILY, 0, NO_ARG},
    {"Loop", onnx__fam_loop, 0, 255, 255, TY_FAMILY, 0, NO_ARG},
    {"Scan", onnx__fam_scan, 1, 255, 255, TY_FAMILY, 9, NO_ARG},
};

const size_t onnx__infer_n_ops = sizeof onnx__infer_ops / sizeof onnx__infer_ops[0];
