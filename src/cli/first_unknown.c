/* first_unknown.c - see first_unknown.h. */
#include "first_unknown.h"

#include <stdio.h>
#include <string.h>

void cli_model_graph_path(char *out, size_t cap, const struct onnx_graph *g)
{
    if (cap == 0)
        return;
    if (g->parent == NULL || g->owner == NULL) {
        snprintf(out, cap, "graph");
        return;
    }
    cli_model_graph_path(out, cap, g->parent);
    const struct onnx_node *owner = g->owner;
    struct onnx_bytes attr = {(const uint8_t *)"?", 1};
    long item = -1;
    for (uint32_t a = 0; a < owner->n_attrs; a++) {
        if (owner->attrs[a].g == g)
            attr = owner->attrs[a].name;
        for (uint32_t j = 0; j < owner->attrs[a].n_graphs; j++)
            if (owner->attrs[a].graphs[j] == g) {
                attr = owner->attrs[a].name;
                item = (long)j;
            }
    }
    const size_t at = strlen(out);
    if (at + 1 >= cap)
        return;
    int n = snprintf(out + at, cap - at, ".node[%lu] (%.*s).%.*s",
                     (unsigned long)(owner - g->parent->nodes), cli_shown(owner->op_type.n, 60),
                     (const char *)owner->op_type.p, cli_shown(attr.n, 60), (const char *)attr.p);
    if (item >= 0 && n > 0 && at + (size_t)n + 1 < cap)
        snprintf(out + at + (size_t)n, cap - at - (size_t)n, "[%ld]", item);
}

/* Whether v's size is unknown (scan's verdict), with why in e. */
static bool unknown(const struct onnx_infer_value *v, struct onnx_options *o, struct descriptor *d,
                    struct cli_error *e)
{
    struct onnx_facts facts;
    if (v == NULL) {
        cli_fail(e, CLI_E_SHAPE_NOT_INFERRED, NULL, NULL, "no result for this value");
        return true;
    }
    return !cli_descriptor_from_inferred(v, o, d, &facts, e) &&
           cli_onnx_error_verdict(e->id) == ONNX_UNKNOWN;
}

static void keep(struct first_unknown *out, const struct cli_error *e, struct onnx_bytes name)
{
    out->found = true;
    snprintf(out->reason, sizeof out->reason, "%.40s: %.350s", e->id ? e->id : "unknown",
             e->message);
    snprintf(out->name, sizeof out->name, "%.*s", cli_shown(name.n, 250), (const char *)name.p);
}

void cli_first_unknown_find(const struct onnx_model *model, const struct onnx_infer *r,
                            struct onnx_options *o, struct descriptor *d, struct first_unknown *out)
{
    memset(out, 0, sizeof *out);
    if (r == NULL || model->n_graphs == 0)
        return;
    struct cli_error e;
    const struct onnx_graph *main = &model->graphs[0];
    for (uint32_t i = 0; i < main->n_inputs; i++) {
        const struct onnx_bytes name = main->inputs[i].name;
        if (onnx_graph_has_initializer(main, name) ||
            !unknown(onnx_infer_lookup(r, 0, (const char *)name.p, name.n), o, d, &e))
            continue;
        keep(out, &e, name);
        out->is_input = true;
        return;
    }
    for (uint32_t gi = 0; gi < model->n_graphs; gi++) {
        const struct onnx_graph *g = &model->graphs[gi];
        const struct onnx_order *ord = onnx_infer_order(r, gi);
        for (uint32_t step = 0; step < g->n_nodes; step++) { /* in the order they run */
            const uint32_t k = ord && ord->order ? ord->order[step] : step;
            const struct onnx_node *n = &g->nodes[k];
            if (onnx_node_is_constant(n))
                continue;
            for (uint32_t j = 0; j < n->n_outputs; j++) {
                if (n->outputs[j].n == 0 || !unknown(onnx_infer_output(r, gi, k, j), o, d, &e))
                    continue;
                keep(out, &e, n->outputs[j]);
                char gpath[320];
                cli_model_graph_path(gpath, sizeof gpath, g);
                snprintf(out->path, sizeof out->path, "%s.node[%lu] (%.*s).output[%lu]", gpath,
                         (unsigned long)k, cli_shown(n->op_type.n, 40), (const char *)n->op_type.p,
                         (unsigned long)j);
                snprintf(out->op, sizeof out->op, "%.*s", cli_shown(n->op_type.n, 110),
                         (const char *)n->op_type.p);
                return;
            }
        }
    }
}

void cli_first_unknown_depends(const struct onnx_model *model, const struct onnx_infer *r,
                               struct onnx_options *o, struct descriptor *d, uint32_t graph,
                               const struct onnx_node *node, const struct first_unknown *fu,
                               char *msg, size_t cap)
{
    (void)model;
    if (r == NULL || node == NULL)
        return;
    struct cli_error e;
    for (uint32_t i = 0; i < node->n_inputs; i++) {
        const struct onnx_bytes in = node->inputs[i];
        if (in.n == 0 || !unknown(onnx_infer_lookup(r, graph, (const char *)in.p, in.n), o, d, &e))
            continue;
        const size_t at = strlen(msg);
        if (at + 1 >= cap)
            return;
        const bool same = fu->found && onnx_bytes_is(in, fu->name);
        if (fu->found && !same)
            snprintf(msg + at, cap - at,
                     "; it reads \"%.*s\", of unknown size too; the first unknown: %s (%.120s)",
                     cli_shown(in.n, 80), (const char *)in.p, *fu->path ? fu->path : fu->name,
                     fu->reason);
        else
            snprintf(msg + at, cap - at, "; it reads \"%.*s\", the first unknown: %s (%.160s)",
                     cli_shown(in.n, 80), (const char *)in.p,
                     fu->found && *fu->path ? fu->path : fu->name, fu->found ? fu->reason : "");
        return;
    }
}
