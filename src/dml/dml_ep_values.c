/* dml_ep_values.c - the values of every graph by name, and recording
 * reasons and failures, for the DML EP model (dml_ep_int.h). */
#include "dml_ep_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t hash_of(uint32_t graph, struct onnx_bytes name)
{
    return onnx_hash_more(graph, name);
}

static bool same(const struct ep_value *v, uint32_t graph, struct onnx_bytes name)
{
    return v->graph == graph && onnx_bytes_eq(v->name, name);
}

struct ep_value *dmlt_ep__values_here(struct ep_value *vals, size_t mask, uint32_t graph,
                                      struct onnx_bytes name)
{
    if (name.n == 0 || vals == NULL)
        return NULL;
    for (size_t i = onnx_hash_slot(hash_of(graph, name), mask);; i = (i + 1) & mask) {
        struct ep_value *v = &vals[i];
        if (v->name.p == NULL)
            return NULL;
        if (same(v, graph, name))
            return v;
    }
}

struct ep_value *dmlt_ep__values_find(struct ep_value *vals, size_t mask,
                                      const struct onnx_model *m, uint32_t graph,
                                      struct onnx_bytes name)
{
    const struct onnx_graph *g = &m->graphs[graph];
    for (;;) {
        struct ep_value *v = dmlt_ep__values_here(vals, mask, g->index, name);
        if (v != NULL || g->parent == NULL)
            return v;
        g = g->parent;
    }
}

struct ep_value *dmlt_ep__value_here(const struct ep_state *st, uint32_t graph,
                                     struct onnx_bytes name)
{
    return dmlt_ep__values_here(st->vals, st->mask, graph, name);
}

struct ep_value *dmlt_ep__value_find(const struct ep_state *st, uint32_t graph,
                                     struct onnx_bytes name)
{
    return dmlt_ep__values_find(st->vals, st->mask, st->r->model, graph, name);
}

/* The slot for (graph, name): the existing one, or a new one. */
static struct ep_value *slot(struct ep_state *st, uint32_t graph, struct onnx_bytes name)
{
    for (size_t i = onnx_hash_slot(hash_of(graph, name), st->mask);; i = (i + 1) & st->mask) {
        struct ep_value *v = &st->vals[i];
        if (v->name.p == NULL) {
            v->graph = graph;
            v->name = name;
            v->elems = -1;
            return v;
        }
        if (same(v, graph, name))
            return v;
    }
}

static bool is_main_input(const struct onnx_graph *g, struct onnx_bytes name)
{
    for (uint32_t i = 0; i < g->n_inputs; i++)
        if (onnx_bytes_eq(g->inputs[i].name, name))
            return true;
    return false;
}

static void add_graph(struct ep_state *st, const struct onnx_graph *g)
{
    const struct onnx_model *m = st->r->model;
    for (uint32_t i = 0; i < g->n_inputs; i++)
        if (g->inputs[i].name.n)
            slot(st, g->index, g->inputs[i].name)->kind = EPV_INPUT;
    for (uint32_t i = 0; i < g->n_initializers; i++) {
        const struct onnx_tensor_data *t = &g->initializers[i];
        if (t->name.n == 0)
            continue;
        struct ep_value *v = slot(st, g->index, t->name);
        v->kind = EPV_INITIALIZER;
        /* Graph::IsConstantInitializer: from IR version 4 on, an
         * initializer also listed as a graph input may be overridden. */
        v->constant = !(m->ir_version >= 4 && is_main_input(g, t->name));
        int64_t elems = 1;
        for (uint32_t d = 0; d < t->rank && elems >= 0; d++)
            elems = t->dims[d] < 0 || (t->dims[d] && elems > INT64_MAX / t->dims[d])
                        ? -1
                        : elems * t->dims[d];
        v->elems = elems;
    }
    const size_t first = st->r->graph_first[g->index];
    for (uint32_t k = 0; k < g->n_nodes; k++) {
        const struct onnx_node *node = &g->nodes[k];
        for (uint32_t o = 0; o < node->n_outputs; o++) {
            if (node->outputs[o].n == 0)
                continue;
            struct ep_value *v = slot(st, g->index, node->outputs[o]);
            v->kind = EPV_NODE;
            v->node = (uint32_t)(first + k);
            v->output = o;
        }
    }
}

bool dmlt_ep__values_build(struct ep_state *st)
{
    const struct onnx_model *m = st->r->model;
    size_t n = 0;
    for (uint32_t g = 0; g < m->n_graphs; g++) {
        const struct onnx_graph *gr = &m->graphs[g];
        n += gr->n_inputs + gr->n_initializers;
        for (uint32_t k = 0; k < gr->n_nodes; k++)
            n += gr->nodes[k].n_outputs;
    }
    size_t cap = 16;
    while (cap < 2 * n + 16)
        cap *= 2;
    st->vals = calloc(cap, sizeof *st->vals);
    if (st->vals == NULL)
        return false;
    st->mask = cap - 1;
    for (uint32_t g = 0; g < m->n_graphs; g++)
        add_graph(st, &m->graphs[g]);
    return true;
}

void dmlt_ep__values_free(struct ep_state *st)
{
    free(st->vals);
    st->vals = NULL;
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, c * size);
    if (q == NULL)
        return false;
    *p = q;
    *cap = c;
    return true;
}

bool dmlt_ep__reason(struct ep_state *st, uint32_t node, int id, const char *fmt, ...)
{
    struct dmlt_ep_result *r = st->r;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = len < 0 ? 0 : (size_t)len >= sizeof buf ? sizeof buf - 1 : (size_t)len;
    if (!grow((void **)&r->reasons, &r->cap_reasons, r->n_reasons + 1, sizeof *r->reasons) ||
        !grow((void **)&r->text, &r->cap_text, r->n_text + n + 1, 1)) {
        st->oom = true;
        return false;
    }
    memcpy(r->text + r->n_text, buf, n);
    r->text[r->n_text + n] = '\0';
    r->reasons[r->n_reasons++] = (struct dmlt_ep_reason_rec){node, id, (uint32_t)r->n_text};
    r->n_text += n + 1;
    return true;
}

bool dmlt_ep__failure(struct ep_state *st, uint32_t node, bool output, uint32_t index, int rule)
{
    struct dmlt_ep_result *r = st->r;
    if (!grow((void **)&r->failures, &r->cap_failures, r->n_failures + 1, sizeof *r->failures)) {
        st->oom = true;
        return false;
    }
    r->failures[r->n_failures++] = (struct dmlt_ep_failure){node, output, index, rule};
    return true;
}

const struct onnx_node *dmlt_ep__onnx_node(const struct ep_state *st, const struct dmlt_ep_node *n)
{
    return &st->r->model->graphs[n->graph].nodes[n->index];
}

const struct onnx_infer_value *dmlt_ep__input_value(const struct ep_state *st,
                                                    const struct dmlt_ep_node *n, uint32_t i)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    if (i >= node->n_inputs || node->inputs[i].n == 0)
        return NULL;
    return onnx_infer_lookup(st->r->inf, n->graph, (const char *)node->inputs[i].p,
                             node->inputs[i].n);
}

const struct onnx_infer_value *dmlt_ep__output_value(const struct ep_state *st,
                                                     const struct dmlt_ep_node *n, uint32_t k)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    if (k >= node->n_outputs || node->outputs[k].n == 0)
        return NULL;
    return onnx_infer_output(st->r->inf, n->graph, n->index, k);
}

enum ep_dims dmlt_ep_value_dims(const struct onnx_infer_value *v, int64_t *elems, bool *zero,
                                char *sym, size_t sym_cap)
{
    *elems = 1;
    *zero = false;
    if (sym_cap)
        sym[0] = '\0';
    if (v == NULL || v->rank < 0 || v->not_tensor)
        return EP_DIMS_UNKNOWN;
    enum ep_dims res = EP_DIMS_KNOWN;
    for (int32_t i = 0; i < v->rank; i++) {
        int64_t d;
        if (v->dims[i] == NULL)
            return EP_DIMS_UNKNOWN;
        if (!onnx_dx_is_const(v->dims[i], &d)) {
            if (res == EP_DIMS_KNOWN && sym_cap)
                (void)onnx_dx_print(v->dims[i], sym, sym_cap);
            res = EP_DIMS_SYMBOLIC;
            continue;
        }
        if (d == 0)
            *zero = true;
        *elems = d < 0 ? 0 : (d && *elems > INT64_MAX / d) ? INT64_MAX : *elems * d;
    }
    return res;
}

static const char *const onnx_type_names[] = {
    "UNDEFINED",      "FLOAT",      "UINT8",          "INT8",       "UINT16",   "INT16",
    "INT32",          "INT64",      "STRING",         "BOOL",       "FLOAT16",  "DOUBLE",
    "UINT32",         "UINT64",     "COMPLEX64",      "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4",      "INT4",     "FLOAT4E2M1"};

const char *dmlt_ep_onnx_type_name(int32_t elem_type, char *buf, size_t cap)
{
    if (elem_type >= 0 && (size_t)elem_type < sizeof onnx_type_names / sizeof onnx_type_names[0])
        return onnx_type_names[elem_type];
    snprintf(buf, cap, "type %ld", (long)elem_type);
    return buf;
}

int dmlt_ep_dml_dtype(int32_t elem_type)
{
    switch (elem_type) {
    case 1:
        return DMLT_DTYPE_FLOAT32;
    case 2:
        return DMLT_DTYPE_UINT8;
    case 3:
        return DMLT_DTYPE_INT8;
    case 4:
        return DMLT_DTYPE_UINT16;
    case 5:
        return DMLT_DTYPE_INT16;
    case 6:
        return DMLT_DTYPE_INT32;
    case 7:
        return DMLT_DTYPE_INT64;
    case 9:
        return DMLT_DTYPE_UINT8; /* BOOL: DirectML reads it as UINT8 */
    case 10:
        return DMLT_DTYPE_FLOAT16;
    case 11:
        return DMLT_DTYPE_FLOAT64;
    case 12:
        return DMLT_DTYPE_UINT32;
    case 13:
        return DMLT_DTYPE_UINT64;
    default:
        return -1;
    }
}

unsigned dmlt_ep_dimension_count(int32_t rank)
{
    return rank < 4 ? 4u : (unsigned)rank;
}

const struct dmlt_ep_tables dmlt_ep__default_tables = {
    dmlt_dml_operator_find, dmlt_dml_tensor_rule_at, dmlt_dml_mapping_find};

const struct dmlt_dml_mapping *dmlt_ep_mapping(const struct dmlt_ep_result *r,
                                               const struct dmlt_ep_node *n, unsigned *count)
{
    const struct dmlt_ep_tables *t = r->internal_ ? r->internal_ : &dmlt_ep__default_tables;
    const struct onnx_node *node = &r->model->graphs[n->graph].nodes[n->index];
    char key[160];
    struct onnx_bytes d = node->domain;
    if (onnx_default_domain(d))
        d.n = 0;
    *count = 0;
    if (d.n + node->op_type.n + 2 > sizeof key)
        return NULL;
    size_t at = 0;
    if (d.n) {
        memcpy(key, d.p, d.n);
        key[d.n] = '.';
        at = d.n + 1;
    }
    if (node->op_type.n) /* op_type.p may be NULL when empty */
        memcpy(key + at, node->op_type.p, node->op_type.n);
    key[at + node->op_type.n] = '\0';
    /* The row found in the table, never key. */
    // cppcheck-suppress returnDanglingLifetime
    return t->mapping_find(key, count);
}
