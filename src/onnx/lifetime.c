/* lifetime.c - the main graph's values and the steps they are alive (see
 * lifetime.h). Every name goes through one hash table, so the work is
 * linear in the model's names: an entry knows whether the name is a main
 * graph initializer or output, which value of the main graph it names, and
 * how many of the enclosing subgraphs being walked define it themselves (a
 * read of a name so shadowed is the subgraph's own). Entering a subgraph
 * counts its names up, leaving it counts them down. */
#include "lifetime.h"

#include <stdlib.h>
#include <string.h>

struct entry {
    struct onnx_bytes name;
    uint32_t life;   /* index + 1 into the values, 0 none */
    uint32_t shadow; /* subgraphs being walked that define the name */
    bool init, output;
};

struct ctx {
    struct onnx_life *v;
    size_t n;
    struct entry *e;
    size_t n_entries, cap_entries;
    uint32_t *slots; /* index + 1 into e; 0 empty */
    size_t mask;
    uint32_t *undo; /* entries whose shadow was counted up, to count down */
    size_t n_undo, cap_undo;
    uint64_t probes; /* slots looked at: the work, for the tests */
    bool oom;
};

/* The slot of name: its entry's, or the empty one where it would go. */
static size_t slot_of(struct ctx *c, struct onnx_bytes name)
{
    size_t s = onnx_hash_slot(onnx_hash(name), c->mask);
    for (;; s = (s + 1) & c->mask) {
        c->probes++;
        if (c->slots[s] == 0 || onnx_bytes_eq(c->e[c->slots[s] - 1].name, name))
            return s;
    }
}

static struct entry *find(struct ctx *c, struct onnx_bytes name)
{
    const size_t s = slot_of(c, name);
    return c->slots[s] ? &c->e[c->slots[s] - 1] : NULL;
}

/* Twice the slots when the table is half full. */
static bool grow(struct ctx *c)
{
    const size_t cap = 2 * (c->mask + 1);
    uint32_t *slots = calloc(cap, sizeof *slots);
    struct entry *e = realloc(c->e, 2 * c->cap_entries * sizeof *e);
    if (e != NULL)
        c->e = e;
    if (slots == NULL || e == NULL) {
        free(slots);
        return false;
    }
    c->cap_entries *= 2;
    free(c->slots);
    c->slots = slots;
    c->mask = cap - 1;
    for (size_t i = 0; i < c->n_entries; i++)
        c->slots[slot_of(c, c->e[i].name)] = (uint32_t)(i + 1);
    return true;
}

/* The entry of name, added when new; NULL when memory ran out. */
static struct entry *get(struct ctx *c, struct onnx_bytes name)
{
    size_t s = slot_of(c, name);
    if (c->slots[s] != 0)
        return &c->e[c->slots[s] - 1];
    if (c->n_entries + 1 > c->cap_entries || 2 * (c->n_entries + 1) > c->mask + 1) {
        if (c->n_entries + 1 >= UINT32_MAX || !grow(c)) {
            c->oom = true;
            return NULL;
        }
        s = slot_of(c, name); /* the table was rebuilt */
    }
    c->e[c->n_entries] = (struct entry){.name = name};
    c->slots[s] = (uint32_t)++c->n_entries;
    return &c->e[c->n_entries - 1];
}

/* A read of name at step: the main graph's value lives at least to it. */
static void read_at(struct ctx *c, struct onnx_bytes name, uint64_t step)
{
    if (name.n == 0)
        return; /* an optional input left out */
    const struct entry *x = find(c, name);
    if (x == NULL || x->shadow != 0 || x->life == 0)
        return; /* not a value kept, or the subgraph's own */
    struct onnx_life *v = &c->v[x->life - 1];
    if (step > v->last)
        v->last = step;
}

/* name is subgraph's own while it is walked. */
static void shadow(struct ctx *c, struct onnx_bytes name)
{
    struct entry *x = get(c, name);
    if (x == NULL)
        return;
    if (c->n_undo == c->cap_undo) {
        uint32_t *u = realloc(c->undo, 2 * c->cap_undo * sizeof *u);
        if (u == NULL) {
            c->oom = true;
            return;
        }
        c->undo = u;
        c->cap_undo *= 2;
    }
    x->shadow++;
    c->undo[c->n_undo++] = (uint32_t)(x - c->e);
}

static void read_subgraph(struct ctx *c, const struct onnx_graph *g, uint64_t step);

/* The reads inside node n's subgraphs (a GRAPH or GRAPHS attribute). */
static void read_attrs(struct ctx *c, const struct onnx_node *n, uint64_t step)
{
    for (uint32_t a = 0; a < n->n_attrs; a++) {
        if (n->attrs[a].g != NULL)
            read_subgraph(c, n->attrs[a].g, step);
        for (uint32_t j = 0; j < n->attrs[a].n_graphs; j++)
            read_subgraph(c, n->attrs[a].graphs[j], step);
    }
}

/* Every read inside subgraph g (and its subgraphs) counts at step, but for
 * names g (or a subgraph around it) defines. */
static void read_subgraph(struct ctx *c, const struct onnx_graph *g, uint64_t step)
{
    const size_t mark = c->n_undo;
    for (uint32_t i = 0; i < g->n_inputs; i++)
        shadow(c, g->inputs[i].name);
    for (uint32_t i = 0; i < g->n_initializers; i++)
        shadow(c, g->initializers[i].name);
    for (uint32_t k = 0; k < g->n_nodes; k++)
        for (uint32_t o = 0; o < g->nodes[k].n_outputs; o++)
            shadow(c, g->nodes[k].outputs[o]);
    for (uint32_t k = 0; k < g->n_nodes && !c->oom; k++) {
        const struct onnx_node *n = &g->nodes[k];
        for (uint32_t i = 0; i < n->n_inputs; i++)
            read_at(c, n->inputs[i], step);
        read_attrs(c, n, step);
    }
    for (uint32_t o = 0; o < g->n_outputs; o++)
        read_at(c, g->outputs[o].name, step);
    while (c->n_undo > mark)
        c->e[c->undo[--c->n_undo]].shadow--;
}

/* One more value kept; the first of a name is the one reads find (a model
 * that names two values alike breaks ONNX's single assignment). */
static void keep(struct ctx *c, struct onnx_life life)
{
    struct entry *x = get(c, life.name);
    c->v[c->n] = life;
    if (x != NULL && x->life == 0)
        x->life = (uint32_t)(c->n + 1);
    c->n++;
}

/* The values kept, in order, into c->v. */
static void collect(struct ctx *c, const struct onnx_graph *g, const uint32_t *order, bool io)
{
    for (uint32_t i = 0; i < g->n_initializers; i++) {
        struct entry *x = get(c, g->initializers[i].name);
        if (x != NULL)
            x->init = true;
    }
    for (uint32_t o = 0; o < g->n_outputs; o++) {
        struct entry *x = get(c, g->outputs[o].name);
        if (x != NULL)
            x->output = true;
    }
    for (uint32_t i = 0; io && i < g->n_inputs && !c->oom; i++) {
        const struct entry *x = find(c, g->inputs[i].name);
        if (x != NULL && x->init)
            continue; /* a weight, with a default value */
        keep(c, (struct onnx_life){g->inputs[i].name, ONNX_LIFE_INPUT, ONNX_LIFE_NO_NODE, 0, 0, 0});
    }
    for (uint32_t step = 0; step < g->n_nodes && !c->oom; step++) {
        const uint32_t k = order ? order[step] : step;
        const struct onnx_node *node = &g->nodes[k];
        if (onnx_node_is_constant(node))
            continue;
        for (uint32_t o = 0; o < node->n_outputs; o++) {
            const struct onnx_bytes name = node->outputs[o];
            const struct entry *x = name.n ? find(c, name) : NULL;
            const bool output = x != NULL && x->output;
            if (name.n == 0 || (output && !io))
                continue;
            keep(c, (struct onnx_life){name, output ? ONNX_LIFE_OUTPUT : ONNX_LIFE_ACTIVATION, k, o,
                                       step, step});
        }
    }
}

static void reads(struct ctx *c, const struct onnx_graph *g, const uint32_t *order, bool io)
{
    for (uint32_t step = 0; step < g->n_nodes && !c->oom; step++) {
        const struct onnx_node *n = &g->nodes[order ? order[step] : step];
        for (uint32_t i = 0; i < n->n_inputs; i++)
            read_at(c, n->inputs[i], step);
        read_attrs(c, n, step);
    }
    if (io) { /* the graph's outputs live to its last step */
        const uint64_t last = g->n_nodes ? g->n_nodes - 1u : 0;
        for (uint32_t o = 0; o < g->n_outputs; o++) {
            const struct entry *x = find(c, g->outputs[o].name);
            if (x != NULL && x->life != 0 && last > c->v[x->life - 1].last)
                c->v[x->life - 1].last = last;
        }
    }
}

bool onnx_lifetimes_counted(const struct onnx_graph *g, const uint32_t *order, bool io,
                            struct onnx_life **out, size_t *count, uint64_t *probes)
{
    size_t most = io ? g->n_inputs : 0;
    for (uint32_t k = 0; k < g->n_nodes; k++)
        most += g->nodes[k].n_outputs;
    struct ctx c = {.cap_entries = 64, .cap_undo = 64};
    c.v = malloc((most ? most : 1) * sizeof *c.v);
    c.e = malloc(c.cap_entries * sizeof *c.e);
    c.slots = calloc(128, sizeof *c.slots);
    c.undo = malloc(c.cap_undo * sizeof *c.undo);
    c.mask = 127;
    bool ok = c.v && c.e && c.slots && c.undo && most < UINT32_MAX;
    if (ok) {
        collect(&c, g, order, io);
        reads(&c, g, order, io);
        ok = !c.oom;
    }
    free(c.e);
    free(c.slots);
    free(c.undo);
    if (!ok) {
        free(c.v);
        return false;
    }
    if (probes != NULL)
        *probes = c.probes;
    *out = c.v;
    *count = c.n;
    return true;
}

bool onnx_lifetimes(const struct onnx_graph *g, const uint32_t *order, bool io,
                    struct onnx_life **out, size_t *count)
{
    return onnx_lifetimes_counted(g, order, io, out, count, NULL);
}
