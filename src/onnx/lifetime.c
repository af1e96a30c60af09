/* lifetime.c - the main graph's values and the steps they are alive (see
 * lifetime.h). Names are found through one hash table of the values kept;
 * a subgraph's reads are walked at the step of the node that owns it. */
#include "lifetime.h"

#include <stdlib.h>
#include <string.h>

#define CHAIN_MAX 64 /* subgraph nesting whose own names shadow the main graph's */

struct ctx {
    struct onnx_life *v;
    size_t n;
    uint32_t *slots; /* index + 1 into v; 0 empty */
    size_t mask;
    const struct onnx_graph *chain[CHAIN_MAX];
    unsigned depth;
};

static bool same(struct onnx_bytes a, struct onnx_bytes b)
{
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static bool is_text(struct onnx_bytes a, const char *s)
{
    return a.n == strlen(s) && memcmp(a.p, s, a.n) == 0;
}

static size_t hash(struct onnx_bytes b)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    for (size_t i = 0; i < b.n; i++)
        h = (h ^ b.p[i]) * 1099511628211u;
    return (size_t)(h ^ (h >> 32));
}

/* The value named name, or NULL. */
static struct onnx_life *find(const struct ctx *c, struct onnx_bytes name)
{
    for (size_t s = hash(name) & c->mask;; s = (s + 1) & c->mask) {
        if (c->slots[s] == 0)
            return NULL;
        if (same(c->v[c->slots[s] - 1].name, name))
            return &c->v[c->slots[s] - 1];
    }
}

/* Keeps the first value of a name (a model that names two values alike
 * breaks ONNX's single assignment; the first producer stays). */
static void insert(struct ctx *c, size_t i)
{
    size_t s = hash(c->v[i].name) & c->mask;
    while (c->slots[s] != 0) {
        if (same(c->v[c->slots[s] - 1].name, c->v[i].name))
            return;
        s = (s + 1) & c->mask;
    }
    c->slots[s] = (uint32_t)(i + 1);
}

static bool is_constant(const struct onnx_node *n)
{
    return is_text(n->op_type, "Constant") && (n->domain.n == 0 || is_text(n->domain, "ai.onnx"));
}

static bool in_list(const struct onnx_value_info *v, uint32_t n, struct onnx_bytes name)
{
    for (uint32_t i = 0; i < n; i++)
        if (same(v[i].name, name))
            return true;
    return false;
}

static bool is_initializer(const struct onnx_graph *g, struct onnx_bytes name)
{
    for (uint32_t i = 0; i < g->n_initializers; i++)
        if (same(g->initializers[i].name, name))
            return true;
    return false;
}

/* Whether subgraph g gives name a value of its own. */
static bool defines(const struct onnx_graph *g, struct onnx_bytes name)
{
    if (in_list(g->inputs, g->n_inputs, name) || is_initializer(g, name))
        return true;
    for (uint32_t k = 0; k < g->n_nodes; k++)
        for (uint32_t o = 0; o < g->nodes[k].n_outputs; o++)
            if (same(g->nodes[k].outputs[o], name))
                return true;
    return false;
}

/* A read of name at step: the value lives at least to it. */
static void read_at(struct ctx *c, struct onnx_bytes name, uint64_t step)
{
    if (name.n == 0)
        return; /* an optional input left out */
    for (unsigned d = 0; d < c->depth; d++)
        if (defines(c->chain[d], name))
            return; /* the subgraph's own value */
    struct onnx_life *v = find(c, name);
    if (v != NULL && step > v->last)
        v->last = step;
}

/* Every read inside subgraph g (and its subgraphs) counts at step. Past
 * CHAIN_MAX levels a name counts as the main graph's even when a deeper
 * subgraph defines it: a lifetime only grows, and the plan stays safe. */
static void read_subgraph(struct ctx *c, const struct onnx_graph *g, uint64_t step)
{
    const bool pushed = c->depth < CHAIN_MAX;
    if (pushed)
        c->chain[c->depth++] = g;
    for (uint32_t k = 0; k < g->n_nodes; k++) {
        const struct onnx_node *n = &g->nodes[k];
        for (uint32_t i = 0; i < n->n_inputs; i++)
            read_at(c, n->inputs[i], step);
        for (uint32_t a = 0; a < n->n_attrs; a++)
            if (n->attrs[a].g != NULL)
                read_subgraph(c, n->attrs[a].g, step);
    }
    for (uint32_t o = 0; o < g->n_outputs; o++)
        read_at(c, g->outputs[o].name, step);
    if (pushed)
        c->depth--;
}

/* The values kept, in order, into c->v (NULL: only count them). */
static size_t collect(const struct onnx_graph *g, const uint32_t *order, bool io,
                      struct onnx_life *v)
{
    size_t n = 0;
    for (uint32_t i = 0; io && i < g->n_inputs; i++) {
        if (is_initializer(g, g->inputs[i].name))
            continue; /* a weight, with a default value */
        if (v)
            v[n] =
                (struct onnx_life){g->inputs[i].name, ONNX_LIFE_INPUT, ONNX_LIFE_NO_NODE, 0, 0, 0};
        n++;
    }
    for (uint32_t step = 0; step < g->n_nodes; step++) {
        const uint32_t k = order ? order[step] : step;
        const struct onnx_node *node = &g->nodes[k];
        if (is_constant(node))
            continue;
        for (uint32_t o = 0; o < node->n_outputs; o++) {
            const struct onnx_bytes name = node->outputs[o];
            const bool output = in_list(g->outputs, g->n_outputs, name);
            if (name.n == 0 || (output && !io))
                continue;
            if (v)
                v[n] = (struct onnx_life){
                    name, output ? ONNX_LIFE_OUTPUT : ONNX_LIFE_ACTIVATION, k, o, step, step};
            n++;
        }
    }
    return n;
}

bool onnx_lifetimes(const struct onnx_graph *g, const uint32_t *order, bool io,
                    struct onnx_life **out, size_t *count)
{
    struct ctx c = {.n = collect(g, order, io, NULL)};
    size_t cap = 16;
    while (cap < 2 * c.n)
        cap *= 2;
    c.v = malloc((c.n ? c.n : 1) * sizeof *c.v);
    c.slots = calloc(cap, sizeof *c.slots);
    if (c.v == NULL || c.slots == NULL || c.n >= UINT32_MAX) {
        free(c.v);
        free(c.slots);
        return false;
    }
    c.mask = cap - 1;
    collect(g, order, io, c.v);
    for (size_t i = 0; i < c.n; i++)
        insert(&c, i);
    for (uint32_t step = 0; step < g->n_nodes; step++) {
        const struct onnx_node *n = &g->nodes[order ? order[step] : step];
        for (uint32_t i = 0; i < n->n_inputs; i++)
            read_at(&c, n->inputs[i], step);
        for (uint32_t a = 0; a < n->n_attrs; a++)
            if (n->attrs[a].g != NULL)
                read_subgraph(&c, n->attrs[a].g, step);
    }
    if (io) { /* the graph's outputs live to its last step */
        const uint64_t last = g->n_nodes ? g->n_nodes - 1u : 0;
        for (uint32_t o = 0; o < g->n_outputs; o++) {
            struct onnx_life *v = find(&c, g->outputs[o].name);
            if (v != NULL && last > v->last)
                v->last = last;
        }
    }
    free(c.slots);
    *out = c.v;
    *count = c.n;
    return true;
}
