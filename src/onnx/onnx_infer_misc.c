/* onnx_infer_misc.c - data-dependent operators (NonZero, Compress,
 * Unique, NonMaxSuppression: a new symbol named after the value), Constant,
 * the generators (RandomNormal, Multinomial, windows), Einsum, linear
 * algebra and signal processing (Det, DFT, STFT, MelWeightMatrix), text,
 * the training optimizers, the recurrent
 * operators (RNN, GRU, LSTM) and the matrix products. */
#include "onnx_infer_int.h"

#include <string.h>

bool onnx__fam_data_dependent(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    const struct onnx_dx *n = onnx__fresh(c, 0), *d[ONNX_INFER_MAX_RANK];
    int32_t ax;
    switch (c->op->arg.data_dependent) {
    case DD_NONZERO: { /* NonZero: [rank, n]; a scalar as numpy's atleast_1d (ONNX Runtime): [1, n]
                        */
        if (!x)
            return onnx__fail(c, "the input's rank is unknown");
        const struct onnx_dx *nz[2] = {onnx__K(c, x->pub.rank ? x->pub.rank : 1), n};
        return onnx__set_out(c, 0, 2, nz);
    }
    case DD_COMPRESS: /* Compress */
        if (!onnx__attr(c, "axis"))
            return onnx__set_out(c, 0, 1, &n);
        if (!x || !onnx__norm_axis(onnx__attr_i(c, "axis", 0), x->pub.rank, &ax))
            return onnx__fail(c, "the input's shape is unknown or axis out of range");
        memcpy(d, x->pub.dims, (size_t)x->pub.rank * PTR_BYTES);
        d[ax] = n;
        return onnx__set_out(c, 0, x->pub.rank, d);
    case DD_UNIQUE: /* Unique: Y, indices, inverse_indices, counts */
        for (uint32_t k = 1; k < c->n_out; k++)
            c->out[k].pub.elem_type = DT_INT64;
        if (!x)
            return onnx__fail(c, "the input's shape is unknown");
        if (onnx__attr(c, "axis")) {
            if (!onnx__norm_axis(onnx__attr_i(c, "axis", 0), x->pub.rank, &ax))
                return onnx__fail(c, "axis out of range");
            memcpy(d, x->pub.dims, (size_t)x->pub.rank * PTR_BYTES);
            d[ax] = n;
            if (!onnx__set_out(c, 0, x->pub.rank, d) || !onnx__set_out(c, 2, 1, &x->pub.dims[ax]))
                return false;
        } else {
            const struct onnx_dx *all = onnx__dims_product(c, x->pub.dims, 0, x->pub.rank);
            if (!onnx__set_out(c, 0, 1, &n) || !onnx__set_out(c, 2, 1, &all))
                return false;
        }
        return onnx__set_out(c, 1, 1, &n) && onnx__set_out(c, 3, 1, &n);
    case DD_NMS: { /* NonMaxSuppression: [n, 3] */
        const struct onnx_dx *s[2] = {n, onnx__K(c, 3)};
        return onnx__set_out(c, 0, 2, s);
    }
    }
    return onnx__fail(c, "not a data-dependent operator"); /* (the table names none other) */
}

bool onnx__fam_constant(struct nctx *c)
{
    const struct onnx_attr *a;
    if ((a = onnx__attr(c, "value")) != NULL) {
        const struct onnx_tensor_data *t = a->t;
        const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
        if (!t || t->rank > ONNX_INFER_MAX_RANK)
            return onnx__fail(c, "no tensor in value");
        c->out[0].pub.elem_type = t->elem_type;
        for (uint32_t k = 0; k < t->rank; k++)
            if (!(d[k] = t->dims[k] >= 0 ? onnx__K(c, t->dims[k]) : NULL))
                return onnx__fail(c, "a negative dim");
        if (!onnx__set_out(c, 0, (int32_t)t->rank, d))
            return false;
        if (t->has_values && t->n_values <= ONNX_INFER_VALUES) {
            const struct onnx_dx *v[ONNX_INFER_VALUES];
            for (uint32_t k = 0; k < t->n_values; k++)
                v[k] = onnx__K(c, t->values[k]);
            onnx__set_vals(c, 0, (int32_t)t->n_values, v);
        }
        c->out[0].fvals = t->floats;
        c->out[0].n_fvals = t->n_floats;
        return true;
    }
    const struct onnx_dx *len;
    if ((a = onnx__attr(c, "value_int")) != NULL) {
        c->out[0].pub.elem_type = DT_INT64;
        len = onnx__K(c, a->i);
        return onnx__set_out(c, 0, 0, NULL) && onnx__set_vals(c, 0, 1, &len);
    }
    if ((a = onnx__attr(c, "value_ints")) != NULL) {
        c->out[0].pub.elem_type = DT_INT64;
        len = onnx__K(c, a->n_ints);
        if (!onnx__set_out(c, 0, 1, &len))
            return false;
        if (a->n_ints <= ONNX_INFER_VALUES) {
            const struct onnx_dx *v[ONNX_INFER_VALUES];
            for (uint32_t k = 0; k < a->n_ints; k++)
                v[k] = onnx__K(c, a->ints[k]);
            onnx__set_vals(c, 0, (int32_t)a->n_ints, v);
        }
        return true;
    }
    if ((a = onnx__attr(c, "value_float")) != NULL || (a = onnx__attr(c, "value_string")) != NULL) {
        c->out[0].pub.elem_type = a->name.n == 11 ? DT_FLOAT : DT_STRING;
        if (a->name.n == 11) {
            c->out[0].fvals = &a->f;
            c->out[0].n_fvals = 1;
        }
        return onnx__set_out(c, 0, 0, NULL);
    }
    if ((a = onnx__attr(c, "value_floats")) != NULL) {
        c->out[0].pub.elem_type = DT_FLOAT;
        len = onnx__K(c, a->n_floats);
        if (a->n_floats <= ONNX_INFER_VALUES) {
            c->out[0].fvals = a->floats;
            c->out[0].n_fvals = a->n_floats;
        }
        return onnx__set_out(c, 0, 1, &len);
    }
    return onnx__fail(c, "no value attribute this inference reads (sparse_value, value_strings)");
}

bool onnx__fam_generator(struct nctx *c)
{
    if (c->op->arg.generator == GEN_MULTINOMIAL) { /* Multinomial: [batch, sample_size] */
        const struct ival *x = onnx__SHAPED(c, 0);
        c->out[0].pub.elem_type = (int32_t)onnx__attr_i(c, "dtype", DT_INT32);
        if (!x || x->pub.rank != 2)
            return onnx__fail(c, "the input's shape is unknown or not of rank 2");
        const struct onnx_dx *d[2] = {x->pub.dims[0],
                                      onnx__K(c, onnx__attr_i(c, "sample_size", 1))};
        return onnx__set_out(c, 0, 2, d);
    }
    const int64_t *s;
    uint32_t n;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    if (!onnx__attr_ints(c, "shape", &s, &n) || n > ONNX_INFER_MAX_RANK)
        return onnx__fail(c, "no shape attribute");
    for (uint32_t k = 0; k < n; k++)
        if (!(d[k] = s[k] >= 0 ? onnx__K(c, s[k]) : NULL))
            return onnx__fail(c, "a negative dim");
    return onnx__set_out(c, 0, (int32_t)n, d);
}

bool onnx__fam_window(struct nctx *c)
{
    const struct onnx_dx *const *v;
    int32_t n;
    c->out[0].pub.elem_type = (int32_t)onnx__attr_i(c, "output_datatype", DT_FLOAT);
    const struct onnx_dx *size = onnx__in_vals(c, 0, &v, &n) && n == 1 ? onnx__as_dim(v[0]) : NULL;
    if (!size)
        c->why = "the size's value is unknown";
    return onnx__set_out(c, 0, 1, &size);
}

/* Einsum: each letter's dim from the inputs that name it; "..." dims
 * broadcast; without "->", the letters named once, in order. */
bool onnx__fam_einsum(struct nctx *c)
{
    const struct onnx_attr *a = onnx__attr(c, "equation");
    if (!a || a->s.n > 512)
        return onnx__fail(c, "no equation");
    const struct onnx_dx *letter[128] = {NULL};
    int count[128] = {0};
    struct ival ell[16];
    const struct ival *ellp[16];
    uint32_t n_ell = 0, input = 0;
    const uint8_t *p = a->s.p, *end = p + a->s.n;
    int32_t pos = 0;
    const struct ival *x = onnx__SHAPED(c, 0);
    for (; p <= end && input < c->n_in; p++) {
        if (p == end || *p == ',' || *p == '-') { /* the end of an input's term */
            if (!x || pos > x->pub.rank)
                return onnx__fail(c, "an input's shape is unknown or the equation does not fit");
            input++;
            x = onnx__SHAPED(c, input);
            pos = 0;
            if (p < end && *p == '-')
                break;
            continue;
        }
        if (*p == ' ')
            continue;
        if (*p == '.') {
            if (p + 2 >= end || p[1] != '.' || p[2] != '.' || n_ell >= 16 || !x)
                return onnx__fail(c, "a bad ellipsis");
            int32_t named = 0; /* letters after the ellipsis in this term */
            for (const uint8_t *q = p + 3; q < end && *q != ',' && *q != '-'; q++)
                named += (*q >= 'A' && *q <= 'z');
            int32_t span = x->pub.rank - pos - named;
            if (span < 0)
                return onnx__fail(c, "the equation does not fit the input's rank");
            memset(&ell[n_ell], 0, sizeof ell[n_ell]);
            ell[n_ell].pub.rank = span;
            ell[n_ell].pub.dims = x->pub.dims + pos;
            ellp[n_ell] = &ell[n_ell];
            n_ell++;
            pos += span;
            p += 2;
            continue;
        }
        if (*p >= 128 || !x || pos >= x->pub.rank)
            return onnx__fail(c, "the equation does not fit the input's rank");
        const struct onnx_dx *d = x->pub.dims[pos++];
        int64_t v;
        if (!letter[*p] || (onnx_dx_is_const(letter[*p], &v) && v == 1))
            letter[*p] = d;
        count[*p]++;
    }
    const struct onnx_dx *ed[ONNX_INFER_MAX_RANK], *d[ONNX_INFER_MAX_RANK];
    int32_t er = 0, n = 0;
    if (n_ell && !onnx__broadcast(c, ellp, n_ell, ed, &er))
        return false;
    if (p < end && *p == '-') {
        if (++p >= end || *p != '>')
            return onnx__fail(c, "a bad equation");
        for (p++; p < end; p++) {
            if (*p == ' ')
                continue;
            if (*p == '.') {
                for (int32_t k = 0; k < er && n < ONNX_INFER_MAX_RANK; k++)
                    d[n++] = ed[k];
                p += 2;
            } else if (*p < 128 && count[*p] && n < ONNX_INFER_MAX_RANK) {
                d[n++] = letter[*p];
            } else {
                return onnx__fail(c, "the output names a letter no input has");
            }
        }
    } else {
        for (int32_t k = 0; k < er; k++)
            d[n++] = ed[k];
        for (int ch = 0; ch < 128 && n < ONNX_INFER_MAX_RANK; ch++)
            if (count[ch] == 1)
                d[n++] = letter[ch];
    }
    return onnx__set_out(c, 0, n, d);
}

/* Adagrad, Momentum, Adam (ai.onnx.preview.training): inputs R, T, then n
 * of each of X, G, (V,) (H); outputs n of each new state, output k shaped
 * as X[k mod n]. Gradient (TR_GRADIENT): inputs the xs then the zs, output k
 * the gradient with respect to xs[k], of its shape (its type is y's, not
 * given here). */
bool onnx__fam_training(struct nctx *c)
{
    if (c->op->arg.training == TR_GRADIENT) {
        if (c->n_out > c->n_in)
            return onnx__fail(c, "more outputs than inputs");
        for (uint32_t k = 0; k < c->n_out; k++) {
            const struct ival *x = onnx__SHAPED(c, k);
            if (x && !x->pub.not_tensor && !onnx__set_out(c, k, x->pub.rank, x->pub.dims))
                return false;
        }
        return true;
    }
    uint32_t groups = (uint32_t)c->op->arg.training, n = c->n_out / groups;
    if (n == 0 || c->n_out % groups || c->n_in != 2 + (groups + 1) * n)
        return onnx__fail(c, "the input and output counts do not match");
    for (uint32_t k = 0; k < c->n_out; k++) {
        const struct ival *x = onnx__SHAPED(c, 2 + k % n);
        c->out[k].pub.elem_type =
            onnx__IN(c, 2 + k % n) ? onnx__IN(c, 2 + k % n)->pub.elem_type : 0;
        if (x && !onnx__set_out(c, k, x->pub.rank, x->pub.dims))
            return false;
    }
    return true;
}

/* Det: [..., M, M] -> [...]; DFT: the axis's length (dft_length, halved
 * plus one when onesided) and a last dim of 2 (real, imaginary); the axis
 * an attribute (default 1) before opset 20, input 2 (default -2) from it. */
bool onnx__fam_linalg(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    int32_t r = x->pub.rank, ax;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    memcpy(d, x->pub.dims, (size_t)r * PTR_BYTES);
    if (c->op->arg.linalg == LA_DET) {
        if (r < 2)
            return onnx__fail(c, "rank below 2");
        return onnx__set_out(c, 0, r - 2, d);
    }
    const struct onnx_dx *const *v;
    int32_t n;
    int64_t a = onnx__attr_i(c, "axis", 1); /* DFT-17: an attribute, default 1 */
    if (onnx__since(c)) {                   /* DFT-20: input 2, a scalar, default -2 */
        a = -2;
        if (onnx__IN(c, 2) &&
            !(onnx__in_vals(c, 2, &v, &n) && n == 1 && onnx_dx_is_const(v[0], &a)))
            return onnx__fail(c, "the axis input's value is unknown");
    } else if (onnx__IN(c, 2)) {
        return onnx__fail(c, "DFT before opset 20 takes two inputs (the axis is an attribute)");
    }
    if (r < 2 || !onnx__norm_axis(a, r, &ax) || ax == r - 1)
        return onnx__fail(c, "axis out of range");
    const struct onnx_dx *len = d[ax];
    if (onnx__IN(c, 1))
        len = onnx__in_vals(c, 1, &v, &n) && n == 1 ? onnx__as_dim(v[0]) : NULL;
    if (onnx__attr_i(c, "onesided", 0))
        len = onnx_dx_add(DX(c), onnx_dx_floordiv(DX(c), len, onnx__K(c, 2)), onnx__K(c, 1));
    d[ax] = len;
    d[r - 1] = onnx__K(c, 2);
    return onnx__set_out(c, 0, r, d);
}

/* StringNormalizer: [C] or [1, C], C less the stopwords found (a new
 * symbol; without stopwords, C). TfIdfVectorizer: the last dim becomes
 * max(ngram_indexes) + 1. */
bool onnx__fam_text(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    if (!x || x->pub.rank < 1 || x->pub.rank > 2)
        return onnx__fail(c, "the input's shape is unknown or not of rank 1 or 2");
    const struct onnx_dx *d[2] = {x->pub.dims[0], x->pub.rank > 1 ? x->pub.dims[1] : NULL};
    int32_t last = x->pub.rank - 1;
    if (c->op->arg.text == TX_NORMALIZER) {
        if (onnx__attr(c, "stopwords")) /* (an empty list is not written) */
            d[last] = onnx__fresh(c, 0);
        return onnx__set_out(c, 0, x->pub.rank, d);
    }
    const int64_t *ix;
    uint32_t n;
    int64_t m = -1;
    if (!onnx__attr_ints(c, "ngram_indexes", &ix, &n))
        return onnx__fail(c, "no ngram_indexes");
    for (uint32_t k = 0; k < n; k++)
        m = ix[k] > m ? ix[k] : m;
    if (m < 0 || m == INT64_MAX)
        return onnx__fail(c, "ngram_indexes out of range");
    d[last] = onnx__K(c, m + 1);
    return onnx__set_out(c, 0, x->pub.rank, d);
}

/* MelWeightMatrix: [floor(dft_length/2)+1, num_mel_bins]. STFT:
 * [batch, frames, bins, 2], frames = floor((length-frame_length)/step)+1,
 * bins = floor(frame_length/2)+1 when onesided (the default), else
 * frame_length; frame_length from input 3, else the window's length. */
bool onnx__fam_signal(struct nctx *c)
{
    const struct onnx_dx *const *v;
    int32_t n;
    if (c->op->arg.signal == SG_MEL) {
        c->out[0].pub.elem_type = (int32_t)onnx__attr_i(c, "output_datatype", DT_FLOAT);
        const struct onnx_dx *bins =
            onnx__in_vals(c, 0, &v, &n) && n == 1 ? onnx__as_dim(v[0]) : NULL;
        const struct onnx_dx *len =
            onnx__in_vals(c, 1, &v, &n) && n == 1 ? onnx__as_dim(v[0]) : NULL;
        const struct onnx_dx *d[2] = {
            onnx_dx_add(DX(c), onnx_dx_floordiv(DX(c), len, onnx__K(c, 2)), onnx__K(c, 1)), bins};
        return onnx__set_out(c, 0, 2, d);
    }
    const struct ival *x = onnx__SHAPED(c, 0), *w = onnx__SHAPED(c, 2);
    if (!x || x->pub.rank != 3)
        return onnx__fail(c, "the signal's shape is unknown or not of rank 3");
    const struct onnx_dx *step = onnx__in_vals(c, 1, &v, &n) && n == 1 ? onnx__as_dim(v[0]) : NULL;
    const struct onnx_dx *fl = NULL;
    if (onnx__IN(c, 3))
        fl = onnx__in_vals(c, 3, &v, &n) && n == 1 ? onnx__as_dim(v[0]) : NULL;
    else if (w && w->pub.rank == 1)
        fl = w->pub.dims[0];
    int64_t s;
    if (!onnx_dx_is_const(step, &s) || s < 1)
        return onnx__fail(c, "frame_step is unknown or not positive");
    const struct onnx_dx *d[4];
    d[0] = x->pub.dims[0];
    d[1] = onnx_dx_add(DX(c), onnx_dx_floordiv(DX(c), onnx_dx_sub(DX(c), x->pub.dims[1], fl), step),
                       onnx__K(c, 1));
    d[2] = onnx__attr_i(c, "onesided", 1)
               ? onnx_dx_add(DX(c), onnx_dx_floordiv(DX(c), fl, onnx__K(c, 2)), onnx__K(c, 1))
               : fl;
    d[3] = onnx__K(c, 2);
    return onnx__set_out(c, 0, 4, d);
}

/* CenterCropPad: the axes take the shape input's values. Col2Im: [N, C,
 * image_shape...] with C = input dim 1 / prod(block_shape). */
bool onnx__fam_crop(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0);
    const struct onnx_dx *const *v, *const *b;
    int32_t n, nb;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    if (!x)
        return onnx__fail(c, "the input's shape is unknown");
    if (!onnx__in_vals(c, 1, &v, &n) || n > ONNX_INFER_MAX_RANK - 2)
        return onnx__fail(c, "the shape input's values are unknown");
    if (c->op->arg.crop == CR_COL2IM) { /* Col2Im */
        if (x->pub.rank != 3 || !onnx__in_vals(c, 2, &b, &nb) || nb != n)
            return onnx__fail(c, "block_shape's values are unknown");
        const struct onnx_dx *p = onnx__dims_product(c, b, 0, nb);
        d[0] = x->pub.dims[0];
        d[1] = onnx_dx_floordiv(DX(c), x->pub.dims[1], p);
        for (int32_t k = 0; k < n; k++)
            d[2 + k] = onnx__as_dim(v[k]);
        return onnx__set_out(c, 0, 2 + n, d);
    }
    const int64_t *ax;
    uint32_t na = 0;
    int32_t r = x->pub.rank, a;
    memcpy(d, x->pub.dims, (size_t)r * PTR_BYTES);
    bool given = onnx__attr_ints(c, "axes", &ax, &na);
    if ((given && na != (uint32_t)n) || (!given && n != r))
        return onnx__fail(c, "the shape's length does not match the axes");
    for (int32_t k = 0; k < n; k++) {
        if (!onnx__norm_axis(given ? ax[k] : k, r, &a))
            return onnx__fail(c, "an axis is out of range");
        d[a] = onnx__as_dim(v[k]);
    }
    return onnx__set_out(c, 0, r, d);
}

/* RNN, GRU, LSTM: Y [seq, dirs, batch, hidden] and Y_h, Y_c [dirs, batch,
 * hidden]; layout 1 (opset 14) puts batch first. */

bool onnx__fam_rnn(struct nctx *c)
{
    const struct ival *x = onnx__SHAPED(c, 0), *r = onnx__SHAPED(c, 2);
    int64_t layout = onnx__attr_i(c, "layout", 0);
    int64_t dirs = onnx__attr_s_is(c, "direction", "bidirectional") ? 2 : 1;
    const struct onnx_dx *hidden = onnx__attr(c, "hidden_size")
                                       ? onnx__K(c, onnx__attr_i(c, "hidden_size", 0))
                                       : (r && r->pub.rank == 3 ? r->pub.dims[2] : NULL);
    if (!x || x->pub.rank != 3)
        return onnx__fail(c, "X's shape is unknown or not of rank 3");
    const struct onnx_dx *seq = x->pub.dims[layout ? 1 : 0], *batch = x->pub.dims[layout ? 0 : 1];
    const struct onnx_dx *y[4], *h[3];
    if (layout) {
        y[0] = batch, y[1] = seq, y[2] = onnx__K(c, dirs), y[3] = hidden;
        h[0] = batch, h[1] = onnx__K(c, dirs), h[2] = hidden;
    } else {
        y[0] = seq, y[1] = onnx__K(c, dirs), y[2] = batch, y[3] = hidden;
        h[0] = onnx__K(c, dirs), h[1] = batch, h[2] = hidden;
    }
    if (!onnx__set_out(c, 0, 4, y))
        return false;
    for (uint32_t k = 1; k < c->n_out && k < 3; k++)
        if (!onnx__set_out(c, k, 3, h))
            return false;
    return true;
}

/* MatMul (numpy's: batch dims broadcast, a vector gains a dim that is
 * dropped after), MatMulInteger, QLinearMatMul, Gemm. */

bool onnx__fam_matmul(struct nctx *c)
{
    uint32_t bi = c->op->arg.mm == M_QLINEAR ? 3 : 1;
    const struct ival *a = onnx__SHAPED(c, 0), *b = onnx__SHAPED(c, bi);
    if (c->op->arg.mm == M_INTEGER)
        c->out[0].pub.elem_type = DT_INT32;
    if (c->op->arg.mm == M_QLINEAR)
        c->out[0].pub.elem_type = onnx__IN(c, 7) ? onnx__IN(c, 7)->pub.elem_type : 0;
    if (!a || !b)
        return onnx__fail(c, "an input's shape is unknown");
    if (c->op->arg.mm == M_GEMM) {
        if (a->pub.rank != 2 || b->pub.rank != 2)
            return onnx__fail(c, "Gemm's inputs are not matrices");
        const struct onnx_dx *d[2];
        d[0] = a->pub.dims[onnx__attr_i(c, "transA", 0) ? 1 : 0];
        d[1] = b->pub.dims[onnx__attr_i(c, "transB", 0) ? 0 : 1];
        return onnx__set_out(c, 0, 2, d);
    }
    int32_t ra = a->pub.rank, rb = b->pub.rank;
    if (ra < 1 || rb < 1)
        return onnx__fail(c, "MatMul of a scalar");
    /* batch dims broadcast; a vector gains a dim that is dropped after */
    struct ival ba = *a, bb = *b;
    ba.pub.rank = ra > 2 ? ra - 2 : 0;
    bb.pub.rank = rb > 2 ? rb - 2 : 0;
    const struct ival *bv[2] = {&ba, &bb};
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK + 2];
    int32_t r;
    if (!onnx__broadcast(c, bv, 2, d, &r))
        return false;
    if (ra >= 2)
        d[r++] = a->pub.dims[ra - 2];
    if (rb >= 2)
        d[r++] = b->pub.dims[rb - 1];
    return onnx__set_out(c, 0, r, d);
}
