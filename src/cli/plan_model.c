/* plan_model.c - `plan MODEL.onnx` (plan_model.h). */
#include "plan_model.h"
#include "lifetime.h"
#include "input.h"
#include "plan_out.h"
#include "source_onnx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the plan of a model keeps until it is rendered. */
struct model_plan {
    struct onnx_model model;
    struct onnx_options o;
    struct onnx_inference inf;
    struct descriptor *d;
    struct planned *t;
    char *text; /* paths and ops, one block */
    uint32_t *sizes;
};

static void model_plan_free(struct model_plan *p)
{
    onnx_inference_free(&p->inf);
    onnx_options_free(&p->o);
    onnx_model_free(&p->model);
    free(p->d);
    free(p->t);
    free(p->text);
    free(p->sizes);
}

/* TotalTensorSizeInBytes of an inferred value, its dtype and sizes; false
 * with e filled when its size is not known. */
static bool value_size(struct model_plan *p, const struct onnx_infer_value *v, uint64_t *bytes,
                       struct tensor_desc *td, struct cli_error *e)
{
    struct onnx_facts facts;
    if (v == NULL)
        return cli_fail(e, CLI_E_SHAPE_NOT_INFERRED, NULL, NULL, "no result for this value");
    if (!descriptor_from_inferred(v, &p->o, p->d, &facts, e) ||
        !describe_tensor(&p->d->cfg.t, td, e))
        return false;
    struct dmlt_report rep = DMLT_REPORT_INIT;
    struct dmlt_error derr;
    if (dmlt_report_compute(&td->t, NULL, &rep, &derr) != DMLT_OK ||
        !dmlt_u128_fits_u64(rep.total_tensor_size_bytes))
        return cli_fail(e, CLI_E_TOTAL_SIZE_RANGE, NULL, NULL, "its size is past 2^64 - 1 bytes");
    *bytes = dmlt_u128_to_u64(rep.total_tensor_size_bytes);
    return true;
}

static const struct onnx_infer_value *value_of(const struct model_plan *p,
                                               const struct onnx_life *l)
{
    if (l->node != ONNX_LIFE_NO_NODE && l->kind == ONNX_LIFE_ACTIVATION)
        return onnx_infer_output(p->inf.result, 0, l->node, l->output);
    return onnx_infer_lookup(p->inf.result, 0, (const char *)l->name.p, l->name.n);
}

/* "graph.node[7] (Conv).output[0]"; a graph input has none (""): the
 * model reader keeps the inputs a node names, so their index in the file
 * is not known here. */
static size_t put_path(char *buf, size_t cap, const struct onnx_graph *g, const struct onnx_life *l)
{
    int n = 0;
    buf[0] = '\0';
    if (l->node != ONNX_LIFE_NO_NODE) {
        const struct onnx_node *node = &g->nodes[l->node];
        n = snprintf(buf, cap, "graph.node[%lu] (%.*s).output[%lu]", (unsigned long)l->node,
                     (int)(node->op_type.n < 200 ? node->op_type.n : 200),
                     (const char *)node->op_type.p, (unsigned long)l->output);
    }
    return n < 0 ? 0 : (size_t)n;
}

/* The planned tensors of lives[0..n): each with its size, or skipped
 * (--skip-unknown) or the error naming it. */
static bool fill(struct cli_config *cfg, struct model_plan *p, const struct onnx_life *lives,
                 size_t n, size_t *kept, struct cli_error *e)
{
    const struct onnx_graph *g = &p->model.graphs[0];
    p->t = calloc(n ? n : 1, sizeof *p->t);
    p->sizes = calloc(n ? n * DMLT_MAX_RANK : 1, sizeof *p->sizes);
    p->text = malloc(n ? n * 640 : 1); /* name, path and op of each, cut to fit */
    if (p->t == NULL || p->sizes == NULL || p->text == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const struct onnx_life *l = &lives[i];
        char *text = p->text + i * 640;
        struct tensor_desc td;
        memset(&td, 0, sizeof td);
        uint64_t bytes = 0;
        size_t at = put_path(text, 256, g, l) + 1;
        if (!value_size(p, value_of(p, l), &bytes, &td, e)) {
            if (cfg->skip_unknown)
                continue;
            cli_hint(e, "bind its symbols with --dim or --shape, or leave it out with "
                        "--skip-unknown");
            if (!*text) /* an input: its name */
                snprintf(text, 256, "%.*s", (int)(l->name.n < 250 ? l->name.n : 250),
                         (const char *)l->name.p);
            e->key = text; /* the tensor's path names it */
            cli_error_keep(e);
            return false;
        }
        struct planned *t = &p->t[k];
        t->path = *text ? text : NULL;
        snprintf(text + at, 256, "%.*s", (int)(l->name.n < 250 ? l->name.n : 250),
                 (const char *)l->name.p);
        t->name = text + at;
        at += strlen(text + at) + 1;
        t->op = NULL;
        if (l->node != ONNX_LIFE_NO_NODE) {
            const struct onnx_bytes op = g->nodes[l->node].op_type;
            snprintf(text + at, 120, "%.*s", (int)(op.n < 110 ? op.n : 110), (const char *)op.p);
            t->op = text + at;
        }
        memcpy(p->sizes + k * DMLT_MAX_RANK, td.t.sizes, td.t.rank * sizeof td.t.sizes[0]);
        t->sizes = p->sizes + k * DMLT_MAX_RANK;
        t->rank = td.t.rank;
        t->dtype = (int)td.t.dtype;
        t->size_bytes = bytes;
        t->first = l->first;
        t->last = l->last;
        k++;
    }
    *kept = k;
    return true;
}

/* Adds the size of the main graph's value name to *sum; false when it is
 * not known. */
static bool add_size(struct model_plan *p, struct onnx_bytes name, dmlt_u128 *sum)
{
    struct tensor_desc td;
    struct cli_error ignored;
    uint64_t bytes = 0;
    memset(&td, 0, sizeof td);
    if (!value_size(p, onnx_infer_lookup(p->inf.result, 0, (const char *)name.p, name.n), &bytes,
                    &td, &ignored))
        return false;
    return dmlt_u128_add(*sum, dmlt_u128_from_u64(bytes), sum); /* false: past 2^128 */
}

static bool is_initializer(const struct onnx_graph *g, struct onnx_bytes name)
{
    for (uint32_t k = 0; k < g->n_initializers; k++)
        if (g->initializers[k].name.n == name.n &&
            (name.n == 0 || memcmp(g->initializers[k].name.p, name.p, name.n) == 0))
            return true;
    return false;
}

/* The summary's weight_bytes (the main graph's initializers that its
 * nodes read) and io_bytes (its inputs that are no initializer, and its
 * outputs), each only when every size is known. */
static void model_bytes(struct model_plan *p, struct plan_extra *x)
{
    const struct onnx_graph *g = &p->model.graphs[0];
    x->weight_bytes = x->io_bytes = dmlt_u128_from_u64(0);
    x->has_weight = x->has_io = true;
    for (uint32_t i = 0; i < g->n_initializers && x->has_weight; i++)
        x->has_weight = add_size(p, g->initializers[i].name, &x->weight_bytes);
    for (uint32_t i = 0; i < g->n_inputs && x->has_io; i++)
        x->has_io =
            is_initializer(g, g->inputs[i].name) || add_size(p, g->inputs[i].name, &x->io_bytes);
    for (uint32_t i = 0; i < g->n_outputs && x->has_io; i++)
        x->has_io = add_size(p, g->outputs[i].name, &x->io_bytes);
}

bool plan_model(struct cli_config *cfg, const struct plat_map *m, struct outbuf *out,
                struct cli_error *e)
{
    struct model_plan p;
    memset(&p, 0, sizeof p);
    struct onnx_error oe;
    bool oom = false;
    if (!onnx_walk(m->data, m->len, NULL, NULL, NULL, &oe, &oom) ||
        !onnx_model_read_capped(m->data, m->len, input_model_memory_cap(m->len), &p.model, &oe, &oom,
                                NULL, NULL)) {
        if (oom)
            return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        cli_fail(e, CLI_E_BAD_ONNX, NULL, cfg->input ? cfg->input : "-", "%s: at byte %zu: %s",
                 oe.limit ? "an ONNX model past this reader's limit" : "a damaged ONNX model",
                 oe.offset, oe.message);
        if (!oe.limit)
            cli_hint(e, "plan reads JSON Lines of tensors, or an ONNX model");
        return false;
    }
    struct onnx_life *lives = NULL;
    size_t n = 0, kept = 0;
    p.d = malloc(sizeof *p.d);
    bool ok = p.d != NULL && p.model.n_graphs > 0;
    if (!ok)
        cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    ok = ok && onnx_options_read(cfg, &p.o, e) && onnx_inference_run(&p.inf, &p.model, &p.o, e);
    if (ok && !onnx_lifetimes(&p.model.graphs[0], cfg->plan_io, &lives, &n))
        ok = cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    ok = ok && fill(cfg, &p, lives, n, &kept, e);
    if (ok) {
        struct plan_extra x = {.steps = dmlt_u128_from_u64(p.model.graphs[0].n_nodes)};
        model_bytes(&p, &x);
        ok = plan_tensors(cfg, p.t, kept, &x, out, e);
    }
    free(lives);
    model_plan_free(&p);
    return ok;
}
