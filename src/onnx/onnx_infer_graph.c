/* onnx_infer_graph.c - the operators with subgraphs: If (both branches
 * with the outer scope; the taken one when the condition is known), Loop
 * and Scan (bodies inferred with loop-carried shapes narrowed until every
 * iteration keeps them; scan outputs stacked along the trip count),
 * SequenceMap (the body once, on the shape every element has). */
#include "onnx_infer_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Infers subgraph g of the node in c with these inputs; out[k] the
 * graph's k-th output as seen at its end (NULL when undefined). */
static bool infer_subgraph(struct nctx *c, const struct onnx_graph *g,
                           const struct ival *const *inputs, uint32_t n, const struct ival **out,
                           uint32_t n_out)
{
    if (!g || g->index >= c->in->model->n_graphs)
        return onnx__fail(c, "a subgraph is missing");
    if (c->depth + 1 >= ONNX_INFER_MAX_NESTING)
        return onnx__fail(c, "subgraphs nested too deep");
    if (g->n_inputs != n)
        return onnx__fail(c, "the subgraph's inputs do not match the node's");
    c->in->infer_graph(c->in, g, inputs, n, c->depth + 1);
    for (uint32_t k = 0; k < n_out; k++) {
        if (k >= g->n_outputs) {
            out[k] = NULL;
            continue;
        }
        struct ival *v = onnx__lookup(c->in, g, g->outputs[k].name);
        if (v && v->pub.source != ONNX_INFER_INFERRED) {
            struct ival *d = onnx__infer_alloc(c->in, sizeof *d);
            if (d) {
                *d = *v;
                onnx__merge_declared(c->in, g->index, g->outputs[k].name, d, &g->outputs[k].type);
                v = d;
            }
        }
        out[k] = v;
    }
    return true;
}

static const struct onnx_graph *graph_attr(struct nctx *c, const char *name)
{
    const struct onnx_attr *a = onnx__attr(c, name);
    return a ? a->g : NULL;
}

static void copy_out(struct nctx *c, uint32_t k, const struct ival *v)
{
    if (k >= c->n_out || !v)
        return;
    c->out[k].pub.elem_type = v->pub.elem_type;
    c->out[k].pub.not_tensor = v->pub.not_tensor;
    c->out[k].elem = v->elem;
    c->out[k].has_len = v->has_len;
    c->out[k].seq_len = v->seq_len;
    if (v->pub.rank >= 0)
        onnx__set_out(c, k, v->pub.rank, v->pub.dims);
    if (v->n_vals >= 0)
        onnx__set_vals(c, k, v->n_vals, v->vals);
}

bool onnx__fam_if(struct nctx *c)
{
    const struct onnx_graph *gt = graph_attr(c, "then_branch"), *ge = graph_attr(c, "else_branch");
    const struct ival *ot[256] = {NULL}, *oe[256] = {NULL};
    if (c->n_out > 256)
        return onnx__fail(c, "too many outputs");
    if (!gt || !ge || gt->n_outputs != c->n_out || ge->n_outputs != c->n_out)
        return onnx__fail(c, "the branches' outputs do not match the node's");
    if (!infer_subgraph(c, gt, NULL, 0, ot, c->n_out) ||
        !infer_subgraph(c, ge, NULL, 0, oe, c->n_out))
        return false;
    const struct onnx_dx *const *cv;
    int32_t n;
    int64_t cond;
    if (onnx__in_vals(c, 0, &cv, &n) && n == 1 && onnx_dx_is_const(cv[0], &cond)) {
        for (uint32_t k = 0; k < c->n_out; k++)
            copy_out(c, k, cond ? ot[k] : oe[k]);
        return true;
    }
    for (uint32_t k = 0; k < c->n_out; k++) {
        const struct ival *a = ot[k], *b = oe[k];
        if (!a || !b)
            continue;
        c->out[k].pub.elem_type = a->pub.elem_type == b->pub.elem_type ? a->pub.elem_type : 0;
        if (a->pub.not_tensor && b->pub.not_tensor) { /* sequences: elements that agree */
            struct ival *o = &c->out[k];
            o->pub.not_tensor = true;
            o->elem = onnx__elem_meet(c->in, a->elem, b->elem);
            o->has_len = a->has_len && b->has_len && a->seq_len == b->seq_len;
            o->seq_len = o->has_len ? a->seq_len : 0;
            continue;
        }
        if (a->pub.rank < 0 || a->pub.rank != b->pub.rank)
            continue;
        const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
        /* a dim the branches give differently depends on the condition's
         * data: a new symbol (SPEC section 9), unless one is unknown */
        for (int32_t j = 0; j < a->pub.rank; j++)
            d[j] = a->pub.dims[j] == b->pub.dims[j]   ? a->pub.dims[j]
                   : a->pub.dims[j] && b->pub.dims[j] ? onnx__fresh_dim(c, k, j)
                                                      : NULL;
        onnx__set_out(c, k, a->pub.rank, d);
    }
    c->why = "the branches' shapes differ and the condition is unknown";
    return true;
}

/* The loop-carried values' shapes narrowed to what every iteration keeps:
 * state[k] starts as the initial value's; a dim the body changes becomes
 * unknown, until the body keeps every known dim (or, after the passes, the
 * shapes are dropped: then the body's inference assumed nothing). */
static bool narrow(struct nctx *c, const struct onnx_graph *body, struct ival *state, uint32_t n,
                   const struct ival **args, uint32_t n_args, uint32_t first_state,
                   uint32_t first_out, const struct ival **outs, uint32_t n_outs)
{
    for (uint32_t pass = 0; pass <= ONNX_INFER_LOOP_PASSES; pass++) {
        if (pass == ONNX_INFER_LOOP_PASSES)
            for (uint32_t k = 0; k < n; k++)
                state[k].pub.rank = -1;
        for (uint32_t k = 0; k < n; k++)
            args[first_state + k] = &state[k];
        if (!infer_subgraph(c, body, args, n_args, outs, n_outs))
            return false;
        bool changed = false;
        for (uint32_t k = 0; k < n; k++) {
            const struct ival *o = outs[first_out + k];
            struct ival *s = &state[k];
            if (o && o->pub.elem_type != s->pub.elem_type)
                s->pub.elem_type = 0;
            if (s->pub.rank < 0)
                continue;
            if (!o || o->pub.rank != s->pub.rank) {
                s->pub.rank = -1;
                changed = true;
                continue;
            }
            for (int32_t j = 0; j < s->pub.rank; j++)
                if (s->pub.dims[j] && o->pub.dims[j] != s->pub.dims[j]) {
                    ((const struct onnx_dx **)onnx__unconst(s->pub.dims))[j] = NULL;
                    changed = true;
                }
        }
        if (!changed)
            return true;
    }
    return true;
}

static bool init_state(struct nctx *c, struct ival *s, const struct ival *v)
{
    memset(s, 0, sizeof *s);
    s->n_vals = -1;
    s->pub.rank = -1;
    s->pub.source = ONNX_INFER_INFERRED;
    if (!v)
        return true;
    s->pub.elem_type = v->pub.elem_type;
    s->pub.not_tensor = v->pub.not_tensor;
    if (v->pub.rank < 0)
        return true;
    const struct onnx_dx **d = onnx__infer_alloc(c->in, (size_t)v->pub.rank * PTR_BYTES + 1);
    if (!d)
        return onnx__fail(c, "memory cap");
    memcpy(d, v->pub.dims, (size_t)v->pub.rank * PTR_BYTES);
    s->pub.rank = v->pub.rank;
    s->pub.dims = d;
    return true;
}

static struct ival *scalar(struct nctx *c, int32_t elem)
{
    struct ival *v = onnx__infer_alloc(c->in, sizeof *v);
    if (v) {
        v->pub.source = ONNX_INFER_INFERRED;
        v->pub.elem_type = elem;
        v->pub.rank = 0;
        v->pub.dims = (const struct onnx_dx *const *)v; /* rank 0: never read */
        v->n_vals = -1;
    }
    return v;
}

/* A scan output: the per-iteration shape with the iteration count
 * inserted at axis. */
static void stacked(struct nctx *c, uint32_t k, const struct ival *o, const struct onnx_dx *count,
                    int64_t axis)
{
    if (!o || k >= c->n_out)
        return;
    c->out[k].pub.elem_type = o->pub.elem_type;
    int32_t ax;
    if (o->pub.rank < 0 || o->pub.rank + 1 > ONNX_INFER_MAX_RANK ||
        !onnx__norm_axis(axis, o->pub.rank + 1, &ax))
        return;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    for (int32_t j = 0, s = 0; j <= o->pub.rank; j++)
        d[j] = j == ax ? count : o->pub.dims[s++];
    onnx__set_out(c, k, o->pub.rank + 1, d);
}

bool onnx__fam_loop(struct nctx *c)
{
    const struct onnx_graph *body = graph_attr(c, "body");
    if (!body || c->node->n_inputs < 2)
        return onnx__fail(c, "no body, or fewer than 2 inputs");
    uint32_t n = c->node->n_inputs - 2;
    if (body->n_inputs != n + 2 || body->n_outputs < n + 1 || n > 256 ||
        c->n_out > body->n_outputs - 1)
        return onnx__fail(c, "the body's inputs and outputs do not match the node's");
    uint32_t k_scan = body->n_outputs - 1 - n;
    struct ival *state = onnx__infer_alloc(c->in, (n + 1) * sizeof *state);
    const struct ival **args = onnx__infer_alloc(c->in, (n + 2) * PTR_BYTES);
    const struct ival **outs = onnx__infer_alloc(c->in, (body->n_outputs + 1) * PTR_BYTES);
    if (!state || !args || !outs)
        return onnx__fail(c, "memory cap");
    for (uint32_t k = 0; k < n; k++)
        if (!init_state(c, &state[k], k + 2 < c->n_in ? c->inv[k + 2] : NULL))
            return false;
    args[0] = scalar(c, DT_INT64);
    struct ival *cond = scalar(c, DT_BOOL);
    args[1] = cond;
    if (cond && !onnx__IN(c, 1)) { /* no condition input: every iteration that runs sees true */
        const struct onnx_dx **t = onnx__infer_alloc(c->in, PTR_BYTES);
        if (t) {
            t[0] = onnx__K(c, 1);
            cond->vals = t;
            cond->n_vals = 1;
        }
    }
    if (!narrow(c, body, state, n, args, n + 2, 2, 1, outs, body->n_outputs))
        return false;
    for (uint32_t k = 0; k < n && k < c->n_out; k++)
        copy_out(c, k, &state[k]);
    /* the trip count: M when nothing can stop the loop early, else a new
     * symbol per scan output. Loop(M, ""): ONNX's text ignores the body's
     * condition output, ONNX Runtime stops when it is false: M only when
     * it is true whenever the condition input is, else unknown. */
    const struct onnx_dx *const *mv;
    int32_t mn;
    int64_t stays = 0;
    const struct onnx_dx *trip = NULL;
    bool ignored =
        !onnx__IN(c, 1) && onnx__in_vals(c, 0, &mv, &mn) && mn == 1 && onnx_dx_nonneg(mv[0]);
    if (ignored) {
        const struct ival *co = outs[0];
        if (co && co->n_vals == 1 && onnx_dx_is_const(co->vals[0], &stays) && stays)
            trip = mv[0];
        else
            c->why = "no condition input, and the body's condition output may be false: "
                     "ONNX's text runs M iterations, ONNX Runtime stops early";
    }
    for (uint32_t j = 0; j < k_scan && n + j < c->n_out; j++)
        stacked(c, n + j, outs[1 + n + j], trip ? trip : ignored ? NULL : onnx__fresh(c, n + j), 0);
    return true;
}

/* Drops dim 0 (Scan-8's batch axis) of s; the batch, met across the
 * inputs, in *batch (NULL: unknown or differing). */
static void drop_batch(struct ival *s, const struct onnx_dx **batch, bool first)
{
    if (s->pub.rank < 1) {
        s->pub.rank = -1;
        *batch = NULL;
        return;
    }
    const struct onnx_dx **d = onnx__unconst(s->pub.dims);
    if (first)
        *batch = d[0];
    else if (*batch != d[0])
        *batch = NULL;
    memmove(d, d + 1, (size_t)(s->pub.rank - 1) * PTR_BYTES);
    s->pub.rank--;
}

/* Output k with batch inserted as dim 0 (Scan-8). */
static bool add_batch(struct nctx *c, uint32_t k, const struct onnx_dx *batch)
{
    struct ival *o = &c->out[k];
    if (o->pub.rank < 0 || o->pub.rank + 1 > ONNX_INFER_MAX_RANK)
        return true;
    const struct onnx_dx *d[ONNX_INFER_MAX_RANK];
    d[0] = batch;
    memcpy(d + 1, o->pub.dims, (size_t)o->pub.rank * PTR_BYTES);
    o->n_vals = -1;
    return onnx__set_out(c, k, o->pub.rank + 1, d);
}

/* Scan: n state inputs, then m scan inputs; the body takes the states and
 * one slice of each scan input (scan_input_axes, default 0) and gives the
 * states and one slice of each scan output (stacked along
 * scan_output_axes). Scan-8 has a first input sequence_lens (optional)
 * and a batch axis 0 on every input and output, scanned along axis 1. */
bool onnx__fam_scan(struct nctx *c)
{
    const struct onnx_graph *body = graph_attr(c, "body");
    int64_t m = onnx__attr_i(c, "num_scan_inputs", -1);
    uint32_t first = !onnx__since(c); /* Scan-8's sequence_lens */
    if (!body || m < 1 || m > (int64_t)c->node->n_inputs - first)
        return onnx__fail(c, "no body or a bad num_scan_inputs");
    uint32_t n = c->node->n_inputs - first - (uint32_t)m, ms = (uint32_t)m;
    if (body->n_inputs != n + ms || body->n_outputs < n || c->n_out > body->n_outputs)
        return onnx__fail(c, "the body's inputs and outputs do not match the node's");
    const int64_t *in_axes = NULL, *out_axes = NULL;
    uint32_t n_in_axes = 0, n_out_axes = 0;
    if (!first) {
        onnx__attr_ints(c, "scan_input_axes", &in_axes, &n_in_axes);
        onnx__attr_ints(c, "scan_output_axes", &out_axes, &n_out_axes);
    }
    struct ival *state = onnx__infer_alloc(c->in, (n + ms + 1) * sizeof *state);
    const struct ival **args = onnx__infer_alloc(c->in, (n + ms + 1) * PTR_BYTES);
    const struct ival **outs = onnx__infer_alloc(c->in, (body->n_outputs + 1) * PTR_BYTES);
    if (!state || !args || !outs)
        return onnx__fail(c, "memory cap");
    const struct onnx_dx *len = NULL, *batch = NULL;
    for (uint32_t k = 0; k < n + ms; k++) {
        if (!init_state(c, &state[k], onnx__IN(c, first + k)))
            return false;
        if (first)
            drop_batch(&state[k], &batch, k == 0);
    }
    for (uint32_t j = 0; j < ms; j++) { /* a slice of each scan input */
        struct ival *s = &state[n + j];
        int64_t a = j < n_in_axes ? in_axes[j] : 0;
        int32_t ax;
        if (s->pub.rank >= 0 && onnx__norm_axis(a, s->pub.rank, &ax)) {
            const struct onnx_dx **d = onnx__unconst(s->pub.dims);
            if (j == 0 || !len)
                len = d[ax];
            else if (len != d[ax])
                len = d[ax] ? len : NULL;
            memmove(d + ax, d + ax + 1, (size_t)(s->pub.rank - ax - 1) * PTR_BYTES);
            s->pub.rank--;
        } else {
            s->pub.rank = -1;
        }
        args[n + j] = s;
    }
    if (!narrow(c, body, state, n, args, n + ms, 0, 0, outs, body->n_outputs))
        return false;
    for (uint32_t k = 0; k < n && k < c->n_out; k++)
        copy_out(c, k, &state[k]);
    for (uint32_t j = 0; n + j < c->n_out; j++)
        stacked(c, n + j, outs[n + j], len, j < n_out_axes ? out_axes[j] : 0);
    for (uint32_t k = 0; first && k < c->n_out; k++)
        if (!add_batch(c, k, batch))
            return false;
    return true;
}

/* SequenceMap: the body once, its inputs the sequences' elements (the dims
 * every element has) and the other inputs as they are; output k the
 * sequence of the body's output k, as long as input 0. */
bool onnx__fam_sequence_map(struct nctx *c)
{
    const struct onnx_graph *body = graph_attr(c, "body");
    if (!body || body->n_outputs < c->n_out)
        return onnx__fail(c, "the body's outputs do not match the node's");
    const struct ival **args = onnx__infer_alloc(c->in, (c->n_in + 1) * PTR_BYTES);
    const struct ival **outs = onnx__infer_alloc(c->in, (c->n_out + 1) * PTR_BYTES);
    struct ival *unknown = onnx__infer_alloc(c->in, sizeof *unknown);
    if (!args || !outs || !unknown)
        return onnx__fail(c, "memory cap");
    unknown->pub.source = ONNX_INFER_INFERRED;
    unknown->pub.rank = -1;
    unknown->n_vals = -1;
    for (uint32_t k = 0; k < c->n_in; k++) {
        const struct ival *x = onnx__IN(c, k);
        if (!x)
            return onnx__fail(c, "an input is left out");
        args[k] = !x->pub.not_tensor ? x : x->elem ? x->elem : unknown;
    }
    if (!infer_subgraph(c, body, args, c->n_in, outs, c->n_out))
        return false;
    const struct ival *s0 = onnx__IN(c, 0);
    for (uint32_t k = 0; k < c->n_out; k++) {
        struct ival *o = &c->out[k];
        o->pub.not_tensor = true;
        o->pub.reason = "a sequence or optional, not a tensor";
        o->elem = outs[k] && !outs[k]->pub.not_tensor ? onnx__elem_copy(c->in, outs[k]) : NULL;
        o->has_len = s0->pub.not_tensor && s0->has_len;
        o->seq_len = o->has_len ? s0->seq_len : 0;
    }
    return true;
}
