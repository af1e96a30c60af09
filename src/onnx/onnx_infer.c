/* onnx_infer.c - the inference's driver: graphs in the order their nodes
 * run (onnx_order.h: the file's where it is topological), each node
 * checked and handed to its family, subgraphs (If, Loop, Scan) through
 * in->infer_graph, and the result's API. Symbols, names in scope and
 * declarations are in onnx_infer_scope.c; the operators in one table of
 * families (onnx_infer_ops.c). */
#include "onnx_infer_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_CAP ((size_t)256 << 20)

static void infer_node(struct onnx_infer *in, const struct onnx_graph *g, uint32_t i,
                       uint32_t depth);

/* Infers graph g: its inputs are given (a subgraph's, n of them) or
 * declared (the main graph's). */
static void infer_graph(struct onnx_infer *in, const struct onnx_graph *g,
                        const struct ival *const *inputs, uint32_t n, uint32_t depth)
{
    struct gstate *gs = &in->gs[g->index];
    onnx__nm_clear(&gs->map);
    gs->visited = true;
    for (uint32_t i = 0; i < gs->n_outs; i++) {
        memset(&gs->outs[i], 0, sizeof gs->outs[i]);
        gs->outs[i].pub.rank = -1;
        gs->outs[i].n_vals = -1;
        gs->outs[i].pub.reason = "not reached";
    }
    for (uint32_t i = 0; i < g->n_initializers; i++) {
        const struct onnx_tensor_data *t = &g->initializers[i];
        struct ival *v = onnx__infer_alloc(in, sizeof *v);
        const struct onnx_dx **d = onnx__infer_alloc(in, (size_t)t->rank * PTR_BYTES + 1);
        if (!v || !d || t->rank > ONNX_INFER_MAX_RANK)
            continue;
        v->pub.source = ONNX_INFER_DECLARED;
        v->pub.folded = true; /* unless an input of that name overrides it */
        v->pub.elem_type = t->elem_type;
        v->pub.rank = (int32_t)t->rank;
        v->n_vals = -1;
        bool ok = true;
        for (uint32_t k = 0; k < t->rank; k++)
            ok &= (d[k] = t->dims[k] >= 0 ? onnx_dx_const(in->dx, t->dims[k]) : NULL) != NULL;
        v->pub.dims = d;
        if (ok && t->has_values && t->n_values <= ONNX_INFER_VALUES) {
            const struct onnx_dx **vals = onnx__infer_alloc(in, t->n_values * PTR_BYTES + 1);
            if (vals) {
                for (uint32_t k = 0; k < t->n_values; k++)
                    vals[k] = onnx__value_wrap_to_type(in->dx, t->elem_type,
                                                       onnx_dx_const(in->dx, t->values[k]));
                v->vals = vals;
                v->n_vals = (int32_t)t->n_values;
            }
        }
        if (ok && t->floats) {
            v->fvals = t->floats;
            v->n_fvals = t->n_floats;
        }
        onnx__nm_put(in, &gs->map, t->name.p, t->name.n, v);
    }
    for (uint32_t i = 0; i < g->n_inputs; i++) {
        const struct onnx_value_info *vi = &g->inputs[i];
        struct ival *v = onnx__infer_alloc(in, sizeof *v);
        if (!v)
            continue;
        if (inputs) {
            if (i < n && inputs[i])
                *v = *inputs[i];
            else
                onnx__from_type(in, v, &vi->type);
        } else {
            struct ival *init = onnx__nm_get(&gs->map, vi->name.p, vi->name.n);
            onnx__from_type(in, v, &vi->type);
            /* an initializer that is also an input is only a default: its
             * dims fill in, its values do not count */
            if (init && v->pub.rank < 0 && !v->pub.not_tensor) {
                *v = *init;
                v->n_vals = -1;
                v->fvals = NULL;
            }
            onnx__apply_shape(in, g->index, vi->name, v);
        }
        v->pub.folded = false; /* given when the graph runs */
        onnx__nm_put(in, &gs->map, vi->name.p, vi->name.n, v);
    }
    for (uint32_t i = 0; i < g->n_nodes; i++)
        infer_node(in, g, gs->ord.order[i], depth);
}

static void node_reason(struct onnx_infer *in, const struct onnx_node *node, struct ival *out,
                        uint32_t n, const char *why)
{
    size_t len = node->op_type.n + strlen(why) + 3;
    char *s = onnx__infer_alloc(in, len > 300 ? 300 : len);
    if (s) {
        size_t op = node->op_type.n > 100 ? 100 : node->op_type.n;
        if (op)
            memcpy(s, node->op_type.p, op);
        snprintf(s + op, (len > 300 ? 300 : len) - op, ": %s", why);
        for (size_t k = 0; k < op; k++)
            if (!s[k])
                s[k] = '?';
        why = s;
    }
    for (uint32_t k = 0; k < n; k++)
        if (!out[k].pub.reason || out[k].pub.rank < 0)
            out[k].pub.reason = why;
}

static const struct op_entry *find_op(struct onnx_infer *in, const struct onnx_node *node)
{
    if (onnx__bytes_is(node->domain, "ai.onnx.preview.training") && node->op_type.n < 64) {
        char name[80] = "training.";
        memcpy(name + 9, node->op_type.p, node->op_type.n);
        return onnx__nm_get(&in->ops, (const uint8_t *)name, 9 + node->op_type.n);
    }
    if (node->domain.n && !onnx__bytes_is(node->domain, "ai.onnx"))
        return NULL;
    return onnx__nm_get(&in->ops, node->op_type.p, node->op_type.n);
}

static void set_type(struct nctx *c)
{
    const struct op_entry *op = c->op;
    int32_t t = 0;
    const struct ival *x;
    switch ((enum type_rule)op->type) {
    case TY_IN0:
    case TY_IN1:
    case TY_IN2:
        x = onnx__IN(c, (uint32_t)(op->type - TY_IN0));
        t = x ? x->pub.elem_type : 0;
        break;
    case TY_BOOL:
        t = DT_BOOL;
        break;
    case TY_I64:
        t = DT_INT64;
        break;
    case TY_FLOAT:
        t = DT_FLOAT;
        break;
    case TY_U8:
        t = DT_UINT8;
        break;
    case TY_ATTR_TO:
        t = (int32_t)onnx__attr_i(c, "to", 0);
        break;
    case TY_ATTR_DTYPE:
        t = (int32_t)onnx__attr_i(c, "dtype", DT_FLOAT);
        break;
    case TY_FAMILY:
        break;
    }
    if (t < 0 || t > 64)
        t = 0;
    for (uint32_t k = 0; k < c->n_out; k++)
        c->out[k].pub.elem_type = t;
}

static bool check_node(struct nctx *c)
{
    const struct onnx_node *node = c->node;
    uint32_t n_in = node->n_inputs;
    while (n_in && node->inputs[n_in - 1].n == 0)
        n_in--; /* trailing optional inputs left out */
    if (n_in < c->op->min_in)
        return onnx__fail(c, "too few inputs");
    if (n_in > c->op->max_in)
        return onnx__fail(c, "too many inputs");
    if (node->n_outputs > c->op->max_out)
        return onnx__fail(c, "too many outputs");
    c->n_in = n_in;
    c->inv = onnx__infer_alloc(c->in, (n_in + 1) * PTR_BYTES);
    if (!c->inv)
        return onnx__fail(c, "memory cap");
    for (uint32_t k = 0; k < n_in; k++) {
        if (node->inputs[k].n == 0)
            continue;
        const struct onnx_graph *g = &c->in->model->graphs[c->graph];
        c->inv[k] = onnx__lookup(c->in, g, node->inputs[k]);
        if (!c->inv[k])
            return onnx__fail_name(c, "input '%s' is not defined before this node",
                                   node->inputs[k]);
    }
    return true;
}

static void infer_node(struct onnx_infer *in, const struct onnx_graph *g, uint32_t i,
                       uint32_t depth)
{
    struct gstate *gs = &in->gs[g->index];
    const struct onnx_node *node = &g->nodes[i];
    struct nctx c = {0};
    c.in = in;
    c.node = node;
    c.opset = in->opset;
    c.graph = g->index;
    c.depth = depth;
    c.n_out = node->n_outputs;
    c.out = gs->outs + gs->base[i];
    for (uint32_t k = 0; k < c.n_out; k++)
        c.out[k].pub.reason = NULL;
    c.op = find_op(in, node);
    bool ok;
    if (gs->ord.on_cycle[i])
        ok = onnx__fail(&c, "graph_cycle: the node is on a cycle of its graph's nodes");
    else if (in->work == 0)
        ok = onnx__fail(&c, "work limit reached");
    else if (in->out_of_memory)
        ok = onnx__fail(&c, "memory cap");
    else if (!c.op)
        ok = onnx__fail(&c,
                        node->domain.n && !onnx__bytes_is(node->domain, "ai.onnx")
                            ? "no shape function (an operator of another domain)"
                            : "no shape function (not a default-domain operator through opset 18)");
    else if ((ok = check_node(&c))) {
        in->work--;
        set_type(&c);
        ok = c.op->fn(&c);
    }
    for (uint32_t k = 0; k < c.n_out; k++) {
        struct ival *o = &c.out[k];
        if (ok && o->pub.rank >= 0) {
            o->pub.source = ONNX_INFER_INFERRED;
            for (int32_t d = 0; d < o->pub.rank; d++) {
                int64_t v;
                if (onnx_dx_is_const(o->pub.dims[d], &v) && v < 0) {
                    /* a model whose shapes cannot be (pads past the input...) */
                    ((const struct onnx_dx **)onnx__unconst(o->pub.dims))[d] = NULL;
                    o->pub.reason = "a dim would be negative";
                    in->contradictions++;
                }
                if (!o->pub.dims[d] && !o->pub.reason)
                    o->pub.reason = c.why ? c.why : "a dim depends on unknown dims or values";
            }
        } else {
            o->pub.rank = -1;
            o->pub.dims = NULL;
            o->n_vals = -1;
            if (ok && !o->pub.reason && !o->pub.not_tensor)
                o->pub.reason = c.why ? c.why : "no shape for this output";
        }
        if (o->pub.reason && !o->pub.not_tensor) { /* "Op: why" */
            const char *why = o->pub.reason;
            o->pub.reason = NULL;
            node_reason(in, node, o, 1, why);
        }
    }
    if (!ok)
        node_reason(in, node, c.out, c.n_out, c.why ? c.why : "not inferred");
    const bool folded = !gs->ord.on_cycle[i] && onnx__fold_node(in, g, node);
    for (uint32_t k = 0; k < c.n_out; k++) {
        c.out[k].pub.folded = folded;
        struct onnx_bytes name = node->outputs[k];
        if (!name.n)
            continue;
        onnx__merge_declared(in, g->index, name, &c.out[k],
                             onnx__nm_get(&gs->decl, name.p, name.n));
        onnx__apply_shape(in, g->index, name, &c.out[k]);
        onnx__nm_put(in, &gs->map, name.p, name.n, &c.out[k]);
    }
}

/* ---- the run ---- */

static bool setup(struct onnx_infer *in, const struct onnx_infer_options *o)
{
    const struct onnx_model *m = in->model;
    in->infer_graph = infer_graph;
    for (size_t i = 0; i < onnx__infer_n_ops; i++)
        if (!onnx__nm_put(in, &in->ops, (const uint8_t *)onnx__infer_ops[i].name,
                          strlen(onnx__infer_ops[i].name), onnx__unconst(&onnx__infer_ops[i])))
            return false;
    for (size_t i = 0; o && i < o->n_dims; i++) {
        int64_t *v = onnx__infer_alloc(in, sizeof *v);
        if (!v ||
            !onnx__nm_put(in, &in->binding, (const uint8_t *)o->dims[i].name, o->dims[i].len, v))
            return false;
        *v = o->dims[i].value;
    }
    for (size_t i = 0; o && i < o->n_shapes; i++)
        if (!onnx__nm_put(in, &in->shapes, (const uint8_t *)o->shapes[i].name, o->shapes[i].len,
                          onnx__unconst(&o->shapes[i])))
            return false;
    in->gs = onnx__infer_alloc(in, (m->n_graphs + 1) * sizeof *in->gs);
    if (!in->gs)
        return false;
    uint64_t nodes = 0;
    for (uint32_t gi = 0; gi < m->n_graphs; gi++) {
        const struct onnx_graph *g = &m->graphs[gi];
        struct gstate *gs = &in->gs[gi];
        gs->base = onnx__infer_alloc(in, (g->n_nodes + 1) * sizeof *gs->base);
        if (!gs->base)
            return false;
        uint64_t total = 0;
        for (uint32_t i = 0; i < g->n_nodes; i++) {
            gs->base[i] = (uint32_t)total;
            total += g->nodes[i].n_outputs;
        }
        if (total > UINT32_MAX / 2 ||
            !(gs->outs = onnx__infer_alloc(in, (total + 1) * sizeof *gs->outs)))
            return false;
        gs->n_outs = (uint32_t)total;
        gs->ord.order = onnx__infer_alloc(in, ((size_t)g->n_nodes + 1) * sizeof *gs->ord.order);
        gs->ord.on_cycle = onnx__infer_alloc(in, (size_t)g->n_nodes + 1);
        if (!gs->ord.order || !gs->ord.on_cycle || !onnx_order_graph(g, &gs->ord))
            return false;
        for (uint32_t i = 0; i < gs->n_outs; i++) {
            gs->outs[i].pub.rank = -1;
            gs->outs[i].n_vals = -1;
            gs->outs[i].pub.reason = "not reached (its graph's node was not inferred)";
        }
        if (!onnx__reserve_symbols(in, g))
            return false;
        for (uint32_t i = 0; i < g->n_outputs; i++)
            if (!onnx__nm_put(in, &gs->decl, g->outputs[i].name.p, g->outputs[i].name.n,
                              onnx__unconst(&g->outputs[i].type)))
                return false;
        for (uint32_t i = 0; i < g->n_value_info; i++)
            if (!onnx__nm_put(in, &gs->decl, g->value_info[i].name.p, g->value_info[i].name.n,
                              onnx__unconst(&g->value_info[i].type)))
                return false;
        nodes += g->n_nodes;
    }
    in->work = nodes * 16 + 4096;
    return true;
}

static int64_t default_opset(const struct onnx_model *m)
{
    int64_t v = 0;
    for (uint32_t i = 0; i < m->n_opsets; i++)
        if (m->opsets[i].domain.n == 0 || onnx__bytes_is(m->opsets[i].domain, "ai.onnx"))
            v = m->opsets[i].version;
    return v;
}

enum onnx_infer_status onnx_infer_run(const struct onnx_model *model,
                                      const struct onnx_infer_options *options,
                                      struct onnx_infer **out)
{
    struct onnx_infer *in = calloc(1, sizeof *in);
    *out = NULL;
    if (!in)
        return ONNX_INFER_NO_MEMORY;
    in->model = model;
    in->cap = options && options->mem_cap ? options->mem_cap : DEFAULT_CAP;
    in->bytes = sizeof *in;
    in->opset = default_opset(model);
    in->dx = onnx_dx_ctx_new(in->cap / 2);
    in->cap -= in->cap / 2;
    if (!in->dx || !setup(in, options)) {
        onnx_infer_free(in);
        return ONNX_INFER_NO_MEMORY;
    }
    if (model->n_graphs)
        infer_graph(in, &model->graphs[0], NULL, 0, 0);
    if (in->malloc_failed || onnx_dx_ctx_malloc_failed(in->dx)) {
        /* not the cap (which makes shapes unknown, with that reason): a
         * failed malloc leaves the result incomplete, and no reason for it */
        onnx_infer_free(in);
        return ONNX_INFER_NO_MEMORY;
    }
    *out = in;
    return ONNX_INFER_OK;
}

void onnx_infer_free(struct onnx_infer *in)
{
    if (!in)
        return;
    for (struct infer_chunk *c = in->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    onnx_dx_ctx_free(in->dx);
    free(in);
}

const struct onnx_infer_value *onnx_infer_output(const struct onnx_infer *in, uint32_t graph,
                                                 uint32_t node, uint32_t output)
{
    if (graph >= in->model->n_graphs || node >= in->model->graphs[graph].n_nodes ||
        output >= in->model->graphs[graph].nodes[node].n_outputs)
        return NULL;
    return &in->gs[graph].outs[in->gs[graph].base[node] + output].pub;
}

const struct onnx_infer_value *onnx_infer_lookup(const struct onnx_infer *in, uint32_t graph,
                                                 const char *name, size_t len)
{
    if (graph >= in->model->n_graphs)
        return NULL;
    struct onnx_bytes b = {(const uint8_t *)name, len};
    struct ival *v = onnx__lookup(onnx__unconst(in), &in->model->graphs[graph], b);
    return v ? &v->pub : NULL;
}

const struct onnx_order *onnx_infer_order(const struct onnx_infer *in, uint32_t graph)
{
    return graph < in->model->n_graphs ? &in->gs[graph].ord : NULL;
}

bool onnx_infer_sorted(const struct onnx_infer *in)
{
    for (uint32_t g = 0; g < in->model->n_graphs; g++)
        if (in->gs[g].ord.sorted)
            return true;
    return false;
}

size_t onnx_infer_mismatch_count(const struct onnx_infer *in)
{
    return in->n_mismatch;
}

const struct onnx_infer_mismatch *onnx_infer_mismatch_at(const struct onnx_infer *in, size_t i)
{
    return i < in->n_mismatch ? &in->mismatch[i] : NULL;
}

size_t onnx_infer_contradictions(const struct onnx_infer *in)
{
    return in->contradictions + in->n_mismatch;
}

size_t onnx_infer_symbol_count(const struct onnx_infer *in)
{
    return in->n_symbols;
}

struct onnx_bytes onnx_infer_symbol_at(const struct onnx_infer *in, size_t i)
{
    struct onnx_bytes none = {NULL, 0};
    return i < in->n_symbols ? in->symbols[i] : none;
}

size_t onnx_infer_bytes(const struct onnx_infer *in)
{
    return in->bytes + onnx_dx_ctx_bytes(in->dx);
}
