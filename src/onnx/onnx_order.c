/* onnx_order.c - a graph's nodes in the order they run (onnx_order.h):
 * Kahn's sort with the ready nodes in a min-heap of file indices (so a
 * graph already in topological order keeps it), then Tarjan's strongly
 * connected components over what is left, to mark the nodes on a cycle. */
#include "onnx_order.h"

#include <stdlib.h>
#include <string.h>

struct prod {
    const uint8_t *p;
    size_t n;
    uint32_t node; /* UINT32_MAX: empty slot */
};

struct sort {
    const struct onnx_graph *g;
    struct prod *map;
    size_t mask;
    uint32_t *count; /* per node: out-edges (first pass), then the CSR's start */
    uint32_t *edge;  /* consumers, grouped by producer */
    uint32_t *indeg;
    size_t n_edges;
    bool fill; /* second pass: write the edges */
};

static struct prod *slot_of(const struct sort *s, const uint8_t *p, size_t n)
{
    const struct onnx_bytes b = {p, n};
    for (size_t i = onnx_hash_slot(onnx_hash(b), s->mask);; i = (i + 1) & s->mask) {
        struct prod *e = &s->map[i];
        if (e->node == UINT32_MAX || onnx_bytes_eq((struct onnx_bytes){e->p, e->n}, b))
            return e;
    }
}

/* The edge producer(name) -> node, if this graph's nodes make name. */
static void depend(struct sort *s, struct onnx_bytes name, uint32_t node, bool implicit)
{
    if (name.n == 0)
        return;
    const struct prod *e = slot_of(s, name.p, name.n);
    if (e->node == UINT32_MAX || (implicit && e->node == node))
        return; /* not made here (an input, an initializer, an outer value) */
    if (s->fill)
        s->edge[s->count[e->node] + --s->indeg[e->node]] = node;
    else
        s->count[e->node]++;
    s->n_edges++;
}

/* The values subgraph sg (and its subgraphs) read: node's implicit inputs. */
static void depend_subgraph(struct sort *s, const struct onnx_graph *sg, uint32_t node)
{
    for (uint32_t k = 0; k < sg->n_nodes; k++) {
        const struct onnx_node *n = &sg->nodes[k];
        for (uint32_t i = 0; i < n->n_inputs; i++)
            depend(s, n->inputs[i], node, true);
        for (uint32_t a = 0; a < n->n_attrs; a++) {
            if (n->attrs[a].g)
                depend_subgraph(s, n->attrs[a].g, node);
            for (uint32_t j = 0; j < n->attrs[a].n_graphs; j++)
                depend_subgraph(s, n->attrs[a].graphs[j], node);
        }
    }
    for (uint32_t o = 0; o < sg->n_outputs; o++)
        depend(s, sg->outputs[o].name, node, true);
}

static void edges(struct sort *s)
{
    const struct onnx_graph *g = s->g;
    s->n_edges = 0;
    for (uint32_t k = 0; k < g->n_nodes; k++) {
        const struct onnx_node *n = &g->nodes[k];
        for (uint32_t i = 0; i < n->n_inputs; i++)
            depend(s, n->inputs[i], k, false);
        for (uint32_t a = 0; a < n->n_attrs; a++) {
            if (n->attrs[a].g)
                depend_subgraph(s, n->attrs[a].g, k);
            for (uint32_t j = 0; j < n->attrs[a].n_graphs; j++)
                depend_subgraph(s, n->attrs[a].graphs[j], k);
        }
    }
}

/* ---- the ready nodes: a min-heap of node indices ---- */

static void heap_push(uint32_t *h, uint32_t *n, uint32_t v)
{
    uint32_t i = (*n)++;
    while (i && h[(i - 1) / 2] > v) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

static uint32_t heap_pop(uint32_t *h, uint32_t *n)
{
    const uint32_t top = h[0], v = h[--*n];
    uint32_t i = 0;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = v;
    return top;
}

/* Kahn's sort into o->order; returns how many nodes it ordered. */
static uint32_t kahn(const struct sort *s, struct onnx_order *o, uint32_t *heap)
{
    const uint32_t n = s->g->n_nodes;
    uint32_t ready = 0, done = 0;
    for (uint32_t k = 0; k < n; k++)
        if (s->indeg[k] == 0)
            heap_push(heap, &ready, k);
    while (ready) {
        const uint32_t k = heap_pop(heap, &ready);
        if (k != done)
            o->sorted = true;
        o->order[done++] = k;
        for (uint32_t e = s->count[k]; e < s->count[k + 1]; e++)
            if (--s->indeg[s->edge[e]] == 0)
                heap_push(heap, &ready, s->edge[e]);
    }
    return done;
}

/* Tarjan's components over the nodes Kahn left (indeg > 0 marks them),
 * iteratively: a node is on a cycle when its component has two nodes or
 * it reads itself. idx and low are per node (0: not visited), stack and
 * call n each. */
static void mark_cycles(const struct sort *s, struct onnx_order *o, uint32_t *idx, uint32_t *low,
                        uint32_t *stack, uint32_t *call, uint32_t *pos)
{
    const uint32_t n = s->g->n_nodes;
    uint32_t next = 1, sp = 0;
    for (uint32_t root = 0; root < n; root++) {
        if (s->indeg[root] == 0 || idx[root])
            continue;
        uint32_t cp = 0;
        call[cp++] = root;
        idx[root] = low[root] = next++;
        pos[root] = s->count[root];
        stack[sp++] = root;
        while (cp) {
            const uint32_t v = call[cp - 1];
            if (pos[v] < s->count[v + 1]) {
                const uint32_t w = s->edge[pos[v]++];
                if (s->indeg[w] == 0)
                    continue; /* ordered: on no cycle */
                if (w == v)
                    o->on_cycle[v] = true;
                if (!idx[w]) {
                    idx[w] = low[w] = next++;
                    pos[w] = s->count[w];
                    stack[sp++] = w;
                    call[cp++] = w;
                } else if (low[w] && idx[w] < low[v]) {
                    low[v] = idx[w]; /* low[w] 0: w's component is closed */
                }
                continue;
            }
            cp--;
            if (cp && low[v] < low[call[cp - 1]])
                low[call[cp - 1]] = low[v];
            if (low[v] != idx[v])
                continue;
            const bool many = stack[sp - 1] != v;
            uint32_t w;
            do {
                w = stack[--sp];
                o->on_cycle[w] |= many;
                low[w] = 0;
            } while (w != v);
        }
    }
}

static bool run(struct sort *s, struct onnx_order *o)
{
    const uint32_t n = s->g->n_nodes;
    edges(s); /* count */
    if (s->n_edges >= UINT32_MAX)
        return false;
    uint32_t total = 0;
    for (uint32_t k = 0; k < n; k++) { /* count[k]: where k's edges start */
        const uint32_t c = s->count[k];
        s->count[k] = total;
        s->indeg[k] = c; /* filled from the end down */
        total += c;
    }
    s->count[n] = total;
    s->edge = malloc(((size_t)total + 1) * sizeof *s->edge);
    uint32_t *work = malloc(((size_t)n + 1) * 5 * sizeof *work);
    if (!s->edge || !work) {
        free(work);
        return false;
    }
    s->fill = true;
    edges(s); /* indeg back to 0, edges written */
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t e = s->count[k]; e < s->count[k + 1]; e++)
            s->indeg[s->edge[e]]++; // NOLINT(clang-analyzer-core.uninitialized.ArraySubscript):
                                    // edges() wrote every edge[e]
    const uint32_t done = kahn(s, o, work);
    if (done < n) {
        o->sorted = true;
        memset(work, 0, ((size_t)n + 1) * 2 * sizeof *work);
        const size_t w = (size_t)n + 1;
        mark_cycles(s, o, work, work + w, work + 2 * w, work + 3 * w, work + 4 * w);
        uint32_t at = done;
        for (uint32_t k = 0; k < n; k++)
            if (s->indeg[k]) {
                o->order[at++] = k;
                o->cycle |= o->on_cycle[k];
            }
    }
    free(work);
    return true;
}

bool onnx_order_graph(const struct onnx_graph *g, struct onnx_order *o)
{
    const uint32_t n = g->n_nodes;
    o->sorted = o->cycle = false;
    for (uint32_t k = 0; k < n; k++) {
        o->order[k] = k;
        o->on_cycle[k] = false;
    }
    size_t outputs = 0;
    for (uint32_t k = 0; k < n; k++)
        outputs += g->nodes[k].n_outputs;
    size_t cap = 16;
    while (cap < 2 * outputs)
        cap *= 2;
    struct sort s = {.g = g, .mask = cap - 1};
    s.map = malloc(cap * sizeof *s.map);
    s.count = calloc((size_t)n + 1, sizeof *s.count);
    s.indeg = calloc((size_t)n + 1, sizeof *s.indeg);
    bool ok = s.map && s.count && s.indeg;
    if (ok) {
        for (size_t i = 0; i < cap; i++)
            s.map[i].node = UINT32_MAX;
        for (uint32_t k = 0; k < n; k++)
            for (uint32_t j = 0; j < g->nodes[k].n_outputs; j++) {
                const struct onnx_bytes name = g->nodes[k].outputs[j];
                struct prod *e = slot_of(&s, name.p, name.n);
                if (name.n && e->node == UINT32_MAX) /* the first producer stays */
                    *e = (struct prod){name.p, name.n, k};
            }
        ok = run(&s, o);
    }
    if (!ok) {
        o->sorted = o->cycle = false;
        for (uint32_t k = 0; k < n; k++)
            o->order[k] = k;
    }
    free(s.map);
    free(s.count);
    free(s.indeg);
    free(s.edge);
    return ok;
}
