/* dml_ep.c - the DML EP model's driver (dml_ep.h): folding, then ORT's
 * stages in its order over every graph, graph fusion, and the copies. */
#include "dml_ep_kernel.h"

#include <stdlib.h>
#include <string.h>

static const char *const placement_names[DMLT_PLACE_COUNT] = {"folded", "dml",   "dml_kernel",
                                                              "cpu",    "fails", "unknown"};

const char *dmlt_ep_placement_name(enum dmlt_placement p)
{
    return (unsigned)p < DMLT_PLACE_COUNT ? placement_names[p] : "unknown";
}

static const char *const reason_ids[DMLT_R_COUNT] = {"not_registered",
                                                     "opset_not_registered",
                                                     "type_not_supported",
                                                     "query_rejected",
                                                     "cpu_preferred",
                                                     "control_flow",
                                                     "cpu_input_not_constant",
                                                     "dynamic_shape",
                                                     "zero_dim",
                                                     "input_count",
                                                     "graph_has_subgraphs",
                                                     "graph_not_supported",
                                                     "dimension_count",
                                                     "data_type",
                                                     "too_many_elements",
                                                     "rank_too_large",
                                                     "feature_level"};

const char *dmlt_ep_reason_id(enum dmlt_ep_reason r)
{
    return (unsigned)r < DMLT_R_COUNT ? reason_ids[r] : "note";
}

const char *dmlt_ep_source(void)
{
    return dmlt_ep_reg_source;
}

static bool is(struct onnx_bytes a, const char *s)
{
    return onnx_bytes_is(a, s);
}

static bool has_subgraph(const struct onnx_node *node)
{
    for (uint32_t a = 0; a < node->n_attrs; a++)
        if (node->attrs[a].g != NULL || node->attrs[a].n_graphs)
            return true;
    return false;
}

/* SPEC section 11's folding, as the ONNX layer decides it (onnx_fold.c,
 * through the inference's result): a node is folded when its outputs are. */
static bool folds(struct ep_state *st, struct dmlt_ep_node *n)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    if (node->n_outputs == 0)
        return false;
    for (uint32_t k = 0; k < node->n_outputs; k++) {
        const struct onnx_infer_value *v = dmlt_ep__output_value(st, n, k);
        if (node->outputs[k].n != 0 && (v == NULL || !v->folded))
            return false;
    }
    return true;
}

static void mark_outputs(struct ep_state *st, const struct dmlt_ep_node *n, bool folded, bool cpu)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    for (uint32_t o = 0; o < node->n_outputs; o++) {
        struct ep_value *v = dmlt_ep__value_here(st, n->graph, node->outputs[o]);
        if (v == NULL || v->kind != EPV_NODE)
            continue;
        v->folded |= folded;
        v->cpu_arg |= cpu;
    }
}

/* Whether input i of n (in its own graph) is in cpu_output_args. */
static bool cpu_input(struct ep_state *st, const struct dmlt_ep_node *n, uint32_t i)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct ep_value *v = dmlt_ep__value_here(st, n->graph, node->inputs[i]);
    return v != NULL && v->kind == EPV_NODE && v->cpu_arg;
}

/* IsSmallInitializer (100 elements at most; a folded value is an
 * initializer by then) or an input of the graph. */
static bool small_or_input(struct ep_state *st, const struct dmlt_ep_node *n, uint32_t i)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct ep_value *v = dmlt_ep__value_find(st, n->graph, node->inputs[i]);
    if (v == NULL)
        return false;
    if (v->kind == EPV_INITIALIZER)
        return v->elems >= 0 && v->elems <= 100;
    if (v->kind == EPV_INPUT)
        return v->graph == n->graph;
    if (v->folded) {
        int64_t elems;
        bool zero;
        return ep_value_dims(dmlt_ep__input_value(st, n, i), &elems, &zero, NULL, 0) ==
                   EP_DIMS_KNOWN &&
               elems <= 100;
    }
    return false;
}

/* fallback_cpu_capability.cc GetCpuPreferredNodes' test for one provider
 * node that consumes a CPU tensor. */
static bool place_in_cpu(struct ep_state *st, const struct dmlt_ep_node *n)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    for (uint32_t i = 0; i < node->n_inputs; i++) {
        if (node->inputs[i].n == 0)
            return false; /* an absent input is no CPU tensor */
        const struct onnx_infer_value *v = dmlt_ep__input_value(st, n, i);
        const int32_t t = v ? v->elem_type : 0;
        if (t == 10 || t == 16 || (t >= 17 && t <= 20))
            return false; /* float16, bfloat16, float8: never moved */
        if (small_or_input(st, n, i))
            continue;
        if (!cpu_input(st, n, i))
            return false;
        if (n->reg && i < 32 && ((n->reg->cpu_inputs >> i) & 1u))
            return false; /* the provider wants it in CPU memory anyway */
    }
    return true;
}

/* One graph's CPU-preferred pass: a forward sweep in execution order (a
 * candidate's producers come before it, as ORT's priority queue orders). */
static void cpu_preferred(struct ep_state *st, uint32_t g)
{
    const struct onnx_graph *gr = &st->r->model->graphs[g];
    for (uint32_t j = 0; j < gr->n_nodes; j++) {
        const uint32_t k = dmlt_ep_run_index(st->r, g, j);
        struct dmlt_ep_node *n = &st->r->nodes[st->r->graph_first[g] + k];
        const struct onnx_node *node = &gr->nodes[k];
        if (n->placement == DMLT_PLACE_FOLDED || n->placement == DMLT_PLACE_UNKNOWN)
            continue;
        if (n->has_kernel && onnx_default_domain(node->domain) &&
            (is(node->op_type, "Shape") || is(node->op_type, "Size") ||
             is(node->op_type, "SequenceLength")))
            mark_outputs(st, n, false, true); /* AbiCustomRegistry: output on the CPU */
        bool candidate = false;
        for (uint32_t i = 0; i < node->n_inputs && !candidate; i++)
            candidate = node->inputs[i].n && cpu_input(st, n, i);
        if (!candidate)
            continue;
        if (!n->has_kernel) {
            mark_outputs(st, n, false, true);
        } else if (place_in_cpu(st, n)) {
            n->cpu_side = true;
            mark_outputs(st, n, false, true);
        }
    }
}

/* The graph-fusion conditions (GraphPartitioner.cpp GetRegistrationProperties
 * and BuildPartitions) for a node on DirectML: the reasons it cannot be a
 * DirectML graph node, recorded; EP_UNKNOWN when only an unknown shape
 * could decide. */
static enum ep_verdict graph_node(struct ep_state *st, struct dmlt_ep_node *n)
{
    const uint32_t at = (uint32_t)(n - st->r->nodes);
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct dmlt_ep_reg *reg = n->reg;
    bool definite = false;
    if (has_subgraph(node)) {
        definite = dmlt_ep__reason(st, at, DMLT_R_CONTROL_FLOW,
                                   "%.*s runs its subgraphs through ONNX Runtime's own kernel "
                                   "(RegisterCpuOperatorsAsDml): never in a fused graph",
                                   EP_NAME(node->op_type));
    } else if (!reg->graph) {
        definite = dmlt_ep__reason(
            st, at, DMLT_R_GRAPH_NOT_SUPPORTED, "its registration says %s (%s, %s:%u)",
            strcmp(reg->macro, "FACTORY") == 0 ? "supportsGraph false"
                                               : "DmlGraphSupport::NotSupported",
            reg->macro, reg->file, reg->line);
    }
    if (st->model_has_subgraphs)
        definite =
            dmlt_ep__reason(st, at, DMLT_R_GRAPH_HAS_SUBGRAPHS,
                            "the model has an If, Loop or Scan: graph fusion is off for every "
                            "node (GraphPartitioner.cpp ModelUsesSubgraph)");
    if (reg->input_count && reg->input_count != node->n_inputs)
        definite = dmlt_ep__reason(st, at, DMLT_R_INPUT_COUNT,
                                   "%lu inputs: a fused graph takes %.*s only with %u "
                                   "(requiredInputCountForDmlGraphSupport)",
                                   (unsigned long)node->n_inputs, EP_NAME(node->op_type),
                                   reg->input_count);
    for (uint32_t i = 0; i < node->n_inputs && i < 32; i++) {
        if (!((reg->cpu_inputs >> i) & 1u) || node->inputs[i].n == 0)
            continue;
        const struct ep_value *v = dmlt_ep__value_find(st, n->graph, node->inputs[i]);
        if (v == NULL || !(v->kind == EPV_INITIALIZER || (v->kind == EPV_NODE && v->folded)))
            definite = dmlt_ep__reason(st, at, DMLT_R_CPU_INPUT_NOT_CONSTANT,
                                       "input %lu (%.*s) is a required constant CPU input but no "
                                       "initializer when the session is made",
                                       (unsigned long)i, EP_NAME(node->inputs[i]));
    }
    bool unknown = false, dynamic = false, empty = false;
    for (int out = 0; out < 2; out++)
        for (uint32_t i = 0; i < (out ? node->n_outputs : node->n_inputs); i++) {
            const struct onnx_bytes name = out ? node->outputs[i] : node->inputs[i];
            if (name.n == 0)
                continue;
            const struct onnx_infer_value *v =
                out ? dmlt_ep__output_value(st, n, i) : dmlt_ep__input_value(st, n, i);
            int64_t elems;
            bool zero;
            char sym[64];
            switch (ep_value_dims(v, &elems, &zero, sym, sizeof sym)) {
            case EP_DIMS_SYMBOLIC:
                if (dynamic)
                    break; /* the first one names it */
                dynamic = true;
                definite =
                    dmlt_ep__reason(st, at, DMLT_R_DYNAMIC_SHAPE,
                                    "%s %lu (%.*s) has a dim not known until run time (%s): a "
                                    "fused graph needs static shapes (bind it with --dim)",
                                    out ? "output" : "input", (unsigned long)i, EP_NAME(name), sym);
                break;
            case EP_DIMS_UNKNOWN:
                if (!unknown)
                    dmlt_ep__reason(
                        st, at, DMLT_R_DYNAMIC_SHAPE,
                        "the shape of %s %lu (%.*s) is not known%s%s: it decides whether "
                        "the node joins a fused graph",
                        out ? "output" : "input", (unsigned long)i, EP_NAME(name),
                        v && v->reason ? ": " : "", v && v->reason ? v->reason : "");
                unknown = true;
                break;
            case EP_DIMS_KNOWN:
                if (zero && !empty)
                    empty = definite =
                        dmlt_ep__reason(st, at, DMLT_R_ZERO_DIM,
                                        "%s %lu (%.*s) has a 0 dim: a fused graph takes no empty "
                                        "tensor (ContainsEmptyDimensions)",
                                        out ? "output" : "input", (unsigned long)i, EP_NAME(name));
            }
        }
    return definite ? EP_CPU : unknown ? EP_UNKNOWN : EP_OK;
}

/* Union-find over the partitions of BuildPartitions. */
struct parts {
    int32_t *parent;
    bool *final;
    size_t n;
};

static int32_t root(struct parts *p, int32_t a)
{
    while (p->parent[a] != a)
        a = p->parent[a] = p->parent[p->parent[a]];
    return a;
}

/* The partition of input i's producer in n's graph, or -1. */
static int32_t input_part(struct ep_state *st, struct parts *p, const struct dmlt_ep_node *n,
                          uint32_t i)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct ep_value *v = dmlt_ep__value_here(st, n->graph, node->inputs[i]);
    if (v == NULL || v->kind != EPV_NODE || v->folded)
        return -1;
    const int32_t q = st->r->nodes[v->node].partition;
    return q < 0 ? -1 : root(p, q);
}

/* BuildPartitions over one graph: a graph node joins the first partition
 * among its inputs' that is not final and merges the others into it (or
 * starts one); any other node makes its own, final, partition and
 * finalizes the partitions it reads. */
static void build_partitions(struct ep_state *st, struct parts *p, uint32_t g, const bool *graph_ok)
{
    const struct onnx_graph *gr = &st->r->model->graphs[g];
    for (uint32_t j = 0; j < gr->n_nodes; j++) {
        const uint32_t k = dmlt_ep_run_index(st->r, g, j);
        const size_t at = st->r->graph_first[g] + k;
        struct dmlt_ep_node *n = &st->r->nodes[at];
        const struct onnx_node *node = &gr->nodes[k];
        if (n->placement == DMLT_PLACE_FOLDED)
            continue;
        const int32_t self = (int32_t)p->n++;
        p->parent[self] = self;
        p->final[self] = !graph_ok[at];
        n->partition = self;
        int32_t first = -1;
        for (uint32_t i = 0; i < node->n_inputs; i++) {
            const int32_t q = node->inputs[i].n ? input_part(st, p, n, i) : -1;
            if (q < 0 || q == first)
                continue;
            if (!graph_ok[at]) {
                p->final[q] = true;
            } else if (!p->final[q]) {
                if (first < 0) {
                    first = q;
                    p->parent[self] = q;
                } else {
                    p->parent[q] = first;
                }
            }
        }
    }
}

/* Folding, ORT's kernel lookup, the CPU-preferred pass and
 * IsNodeSupportedByDml: every node's placement but dml/dml_kernel/fails. */
static void place_nodes(struct ep_state *st)
{
    struct dmlt_ep_result *r = st->r;
    for (size_t i = 0; i < r->n_nodes; i++) {
        struct dmlt_ep_node *n = &r->nodes[i];
        if (folds(st, n)) {
            n->placement = DMLT_PLACE_FOLDED;
            dmlt_ep__since(st, n);
            mark_outputs(st, n, true, false);
            continue;
        }
        const enum ep_verdict v = dmlt_ep__kernel_lookup(st, n);
        n->placement = v == EP_CPU       ? DMLT_PLACE_CPU
                       : v == EP_UNKNOWN ? DMLT_PLACE_UNKNOWN
                                         : DMLT_PLACE_DML;
    }
    for (uint32_t g = 0; g < r->model->n_graphs; g++)
        cpu_preferred(st, g);
    for (size_t i = 0; i < r->n_nodes; i++) {
        struct dmlt_ep_node *n = &r->nodes[i];
        if (n->placement != DMLT_PLACE_DML)
            continue;
        const enum ep_verdict v = dmlt_ep__supported_by_dml(st, n);
        if (v != EP_OK) {
            n->placement = v == EP_UNKNOWN ? DMLT_PLACE_UNKNOWN : DMLT_PLACE_CPU;
            continue;
        }
        if (n->cpu_side) {
            n->placement = DMLT_PLACE_CPU;
            dmlt_ep__reason(
                st, (uint32_t)i, DMLT_R_CPU_PREFERRED,
                "every input is a CPU tensor (a Shape or Size result and what only such "
                "values feed), a small initializer or a graph input: ONNX Runtime keeps it "
                "on the CPU (fallback_cpu_capability.cc GetCpuPreferredNodes)");
        }
    }
}

/* Graph fusion, then kernel creation for every node on DirectML. */
static bool fuse_and_create(struct ep_state *st)
{
    struct dmlt_ep_result *r = st->r;
    bool *graph_ok = calloc(r->n_nodes + 1, sizeof *graph_ok);
    struct parts p = {calloc(r->n_nodes + 1, sizeof *p.parent), calloc(r->n_nodes + 1, 1), 0};
    if (graph_ok == NULL || p.parent == NULL || p.final == NULL) {
        free(graph_ok), free(p.parent), free(p.final);
        return false;
    }
    for (size_t i = 0; i < r->n_nodes; i++) {
        struct dmlt_ep_node *n = &r->nodes[i];
        if (n->placement != DMLT_PLACE_DML)
            continue;
        const enum ep_verdict v = graph_node(st, n);
        if (v == EP_OK)
            graph_ok[i] = true;
        else
            n->placement = v == EP_UNKNOWN ? DMLT_PLACE_UNKNOWN : DMLT_PLACE_DML_KERNEL;
    }
    for (uint32_t g = 0; g < r->model->n_graphs; g++)
        build_partitions(st, &p, g, graph_ok);
    /* fused graphs numbered in execution order */
    int32_t *number = malloc((p.n + 1) * sizeof *number);
    if (number == NULL) {
        free(graph_ok), free(p.parent), free(p.final);
        return false;
    }
    for (size_t i = 0; i < p.n; i++)
        number[i] = -1;
    for (size_t i = 0; i < r->n_nodes; i++) {
        struct dmlt_ep_node *n = &r->nodes[i];
        const int32_t q = n->partition >= 0 ? root(&p, n->partition) : -1;
        n->partition = -1;
        if (n->placement == DMLT_PLACE_DML || n->placement == DMLT_PLACE_DML_KERNEL) {
            const enum ep_verdict v = dmlt_ep__kernel_creation(st, n);
            if (v == EP_FAILS)
                n->placement = DMLT_PLACE_FAILS;
            else if (v == EP_UNKNOWN)
                n->placement = DMLT_PLACE_UNKNOWN;
        }
        if (n->placement == DMLT_PLACE_DML && q >= 0) {
            if (number[q] < 0)
                number[q] = (int32_t)r->partitions++;
            n->partition = number[q];
        }
    }
    free(number), free(graph_ok), free(p.parent), free(p.final);
    return true;
}

static bool cpu_out(const struct dmlt_ep_node *n, const struct onnx_node *node)
{
    return n->placement == DMLT_PLACE_CPU ||
           (onnx_default_domain(node->domain) &&
            (is(node->op_type, "Shape") || is(node->op_type, "Size")));
}

/* The values that cross between a node on the CPU and one on DirectML:
 * each value once per direction (ORT inserts one copy per device). */
static void count_copies(struct ep_state *st)
{
    struct dmlt_ep_result *r = st->r;
    for (size_t i = 0; i < r->n_nodes; i++) {
        const struct dmlt_ep_node *n = &r->nodes[i];
        const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
        if (n->placement == DMLT_PLACE_FOLDED || n->placement == DMLT_PLACE_UNKNOWN)
            continue;
        for (uint32_t k = 0; k < node->n_inputs; k++) {
            struct ep_value *v = dmlt_ep__value_here(st, n->graph, node->inputs[k]);
            if (v == NULL || v->kind != EPV_NODE || v->folded)
                continue;
            const struct dmlt_ep_node *src = &r->nodes[v->node];
            if (src->placement == DMLT_PLACE_UNKNOWN || src->placement == DMLT_PLACE_FOLDED)
                continue;
            const bool from_cpu = cpu_out(src, dmlt_ep__onnx_node(st, src));
            const bool to_cpu = n->placement == DMLT_PLACE_CPU ||
                                (n->reg && k < 32 && ((n->reg->cpu_inputs >> k) & 1u));
            const unsigned bit = to_cpu ? 1u : 2u;
            if (from_cpu != to_cpu && !(v->copied & bit)) {
                v->copied |= bit;
                r->copies++;
            }
        }
    }
}

/* Reasons and failures grouped by node, in the order they were found. */
static bool group(struct dmlt_ep_result *r)
{
    struct dmlt_ep_reason_rec *rs = malloc((r->n_reasons + 1) * sizeof *rs);
    struct dmlt_ep_failure *fs = malloc((r->n_failures + 1) * sizeof *fs);
    if (rs == NULL || fs == NULL) {
        free(rs), free(fs);
        return false;
    }
    for (size_t i = 0; i < r->n_reasons; i++)
        r->nodes[r->reasons[i].node].n_reasons++;
    for (size_t i = 0; i < r->n_failures; i++)
        r->nodes[r->failures[i].node].n_failures++;
    uint32_t a = 0, b = 0;
    for (size_t i = 0; i < r->n_nodes; i++) {
        r->nodes[i].first_reason = a, a += r->nodes[i].n_reasons, r->nodes[i].n_reasons = 0;
        r->nodes[i].first_failure = b, b += r->nodes[i].n_failures, r->nodes[i].n_failures = 0;
    }
    for (size_t i = 0; i < r->n_reasons; i++) {
        struct dmlt_ep_node *n = &r->nodes[r->reasons[i].node];
        rs[n->first_reason + n->n_reasons++] = r->reasons[i];
    }
    for (size_t i = 0; i < r->n_failures; i++) {
        struct dmlt_ep_node *n = &r->nodes[r->failures[i].node];
        fs[n->first_failure + n->n_failures++] = r->failures[i];
    }
    free(r->reasons), free(r->failures);
    r->reasons = rs, r->failures = fs;
    return true;
}

bool dmlt_ep_run(const struct onnx_model *model, const struct onnx_infer *inf,
                 const struct dmlt_ep_options *options, struct dmlt_ep_result *r)
{
    memset(r, 0, sizeof *r);
    r->model = model;
    r->inf = inf;
    struct ep_state st = {.r = r};
    st.tables = options && options->tables ? options->tables : &dmlt_ep__default_tables;
    r->internal_ = st.tables;
    r->feature_level =
        options && options->feature_level ? options->feature_level : dmlt_dml_newest_level();
    r->graph_first = calloc(model->n_graphs + 1, sizeof *r->graph_first);
    for (uint32_t g = 0; r->graph_first && g < model->n_graphs; g++) {
        r->graph_first[g + 1] = r->graph_first[g] + model->graphs[g].n_nodes;
        for (uint32_t k = 0; k < model->graphs[g].n_nodes; k++)
            st.model_has_subgraphs |= has_subgraph(&model->graphs[g].nodes[k]);
    }
    r->n_nodes = r->graph_first ? r->graph_first[model->n_graphs] : 0;
    r->nodes = calloc(r->n_nodes + 1, sizeof *r->nodes);
    if (r->graph_first == NULL || r->nodes == NULL || !dmlt_ep__values_build(&st))
        goto oom;
    for (uint32_t g = 0; g < model->n_graphs; g++)
        for (uint32_t k = 0; k < model->graphs[g].n_nodes; k++) {
            struct dmlt_ep_node *n = &r->nodes[r->graph_first[g] + k];
            n->graph = g, n->index = k, n->partition = -1;
        }
    place_nodes(&st);
    if (st.oom || !fuse_and_create(&st) || st.oom)
        goto oom;
    count_copies(&st);
    for (size_t i = 0; i < r->n_nodes; i++)
        r->placements[r->nodes[i].placement]++;
    r->values_ = st.vals; /* kept for dmlt_ep_value_placement */
    r->values_mask_ = st.mask;
    st.vals = NULL;
    if (group(r))
        return true;
oom:
    dmlt_ep__values_free(&st);
    dmlt_ep_free(r);
    return false;
}

void dmlt_ep_free(struct dmlt_ep_result *r)
{
    free(r->nodes), free(r->graph_first), free(r->reasons), free(r->failures), free(r->text);
    free(r->values_);
    memset(r, 0, sizeof *r);
}

uint32_t dmlt_ep_run_index(const struct dmlt_ep_result *r, uint32_t graph, uint32_t j)
{
    const struct onnx_order *o = r->inf ? onnx_infer_order(r->inf, graph) : NULL;
    return o && o->order ? o->order[j] : j;
}

const struct dmlt_ep_node *dmlt_ep_node_at(const struct dmlt_ep_result *r, uint32_t graph,
                                           uint32_t index)
{
    if (graph >= r->model->n_graphs || index >= r->model->graphs[graph].n_nodes)
        return NULL;
    return &r->nodes[r->graph_first[graph] + index];
}

const char *dmlt_ep_value_placement(const struct dmlt_ep_result *r, uint32_t graph,
                                    const char *name, size_t len)
{
    if (r->values_ == NULL || graph >= r->model->n_graphs || len == 0)
        return NULL;
    const struct ep_value *v =
        dmlt_ep__values_find(r->values_, r->values_mask_, r->model, graph,
                             (struct onnx_bytes){(const uint8_t *)name, len});
    if (v == NULL)
        return NULL;
    if (v->kind == EPV_INPUT)
        return "input";
    if (v->kind == EPV_INITIALIZER)
        return "initializer";
    return dmlt_ep_placement_name(r->nodes[v->node].placement);
}

enum dmlt_ep_memory dmlt_ep_output_memory(const struct dmlt_ep_result *r, uint32_t graph,
                                          uint32_t index)
{
    const struct dmlt_ep_node *n = dmlt_ep_node_at(r, graph, index);
    if (n == NULL)
        return DMLT_MEM_UNKNOWN;
    if (n->placement == DMLT_PLACE_FOLDED)
        return DMLT_MEM_FOLDED;
    if (n->placement == DMLT_PLACE_FAILS)
        return DMLT_MEM_FAILS;
    if (n->placement == DMLT_PLACE_UNKNOWN)
        return DMLT_MEM_UNKNOWN;
    return cpu_out(n, &r->model->graphs[graph].nodes[index]) ? DMLT_MEM_CPU : DMLT_MEM_DML;
}
