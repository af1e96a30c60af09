/* onnx_order_graph (src/onnx/onnx_order.c) against plain references on
 * 2,000 random graphs: nodes in a random file order, each reading random
 * values of other nodes (directly, or through a subgraph), some with a
 * back edge that makes a cycle. The reference order simulates the rule
 * step by step (the lowest file index among the nodes whose every read
 * exists, O(n^2)); a node is on a cycle when a search from it comes back
 * to it. A graph in topological order keeps it (sorted false). Also
 * onnx_lifetimes with the order: each value lives from its producer's step
 * to the step of its last reader. */
#include "check.h"
#include "lifetime.h"
#include "onnx_order.h"

#include <stdio.h>
#include <stdlib.h>

#define MAXN 48
static char names[MAXN][16];
static struct onnx_bytes in_store[MAXN][4], out_store[MAXN][1];
static struct onnx_bytes sub_in_store[MAXN][1], sub_out_store[MAXN][1];
static struct onnx_node nodes[MAXN], sub_nodes[MAXN];
static struct onnx_attr attrs[MAXN];
static struct onnx_graph subs[MAXN];
/* reads[k][j]: node k reads node j's output (itself or in its subgraph) */
static bool reads[MAXN][MAXN];

static struct onnx_bytes B(const char *s) {
    struct onnx_bytes b = {(const uint8_t *)s, strlen(s)};
    return b;
}

/* Whether a walk along reads from k comes back to k. */
static bool
on_cycle_ref(uint32_t n, uint32_t k)
{
    bool seen[MAXN] = {0};
    uint32_t stack[MAXN * MAXN], sp = 0;
    stack[sp++] = k;
    while (sp) {
        const uint32_t v = stack[--sp];
        for (uint32_t w = 0; w < n; w++) {
            if (!reads[w][v])
                continue; /* w reads v: v -> w */
            if (w == k)
                return true;
            if (!seen[w]) {
                seen[w] = true;
                stack[sp++] = w;
            }
        }
    }
    return false;
}

static void make_graph(uint32_t n, bool cyclic)
{
    /* a random topological structure over ranks, then a random file order */
    uint32_t perm[MAXN];
    for (uint32_t i = 0; i < n; i++)
        perm[i] = i;
    const bool shuffle = check_rand() % 2;
    for (uint32_t i = n; shuffle && i > 1; i--) {
        uint32_t j = (uint32_t)(check_rand() % i), t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    memset(reads, 0, sizeof reads);
    for (uint32_t k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "v%u", (unsigned)k);
        out_store[k][0] = B(names[k]);
    }
    for (uint32_t r = 0; r < n; r++) { /* the node of rank r sits at file index perm[r] */
        const uint32_t k = perm[r];
        uint32_t ni = r ? (uint32_t)(check_rand() % 4) : 0;
        for (uint32_t i = 0; i < ni; i++) {
            uint32_t j = perm[check_rand() % r];
            if (cyclic && check_rand() % 12 == 0)
                j = perm[r + (uint32_t)(check_rand() % (n - r))]; /* itself or later */
            in_store[k][i] = B(names[j]);
            reads[k][j] = true;
        }
        nodes[k] = (struct onnx_node){.op_type = B("Op"),
                                      .n_inputs = ni,
                                      .n_outputs = 1,
                                      .inputs = in_store[k],
                                      .outputs = out_store[k]};
        if (r && check_rand() % 5 == 0) {
            const uint32_t j = perm[check_rand() % r];
            sub_in_store[k][0] = B(names[j]);
            reads[k][j] = true;
            sub_out_store[k][0] = B("inner");
            sub_nodes[k] = (struct onnx_node){.op_type = B("Id"),
                                              .n_inputs = 1,
                                              .n_outputs = 1,
                                              .inputs = sub_in_store[k],
                                              .outputs = sub_out_store[k]};
            subs[k] = (struct onnx_graph){.n_nodes = 1, .nodes = &sub_nodes[k]};
            attrs[k] =
                (struct onnx_attr){.name = B("body"), .type = ONNX_ATTR_GRAPH, .g = &subs[k]};
            nodes[k].n_attrs = 1;
            nodes[k].attrs = &attrs[k];
        } else {
            nodes[k].n_attrs = 0;
        }
    }
}

static void check_lifetimes(const struct onnx_graph *g, const uint32_t *order)
{
    const uint32_t n = g->n_nodes;
    uint32_t step_of[MAXN];
    for (uint32_t s = 0; s < n; s++)
        step_of[order[s]] = s;
    struct onnx_life *v;
    size_t count;
    if (!CHECK(onnx_lifetimes(g, order, false, &v, &count)))
        return;
    CHECK_EQ(count, n);
    for (size_t i = 0; i < count; i++) {
        const uint32_t k = v[i].node;
        CHECK_EQ(i == 0 || step_of[v[i - 1].node] < step_of[k], true); /* in step order */
        uint64_t last = step_of[k];
        for (uint32_t w = 0; w < n; w++)
            if (reads[w][k] && step_of[w] > last)
                last = step_of[w];
        CHECK_EQ(v[i].first, step_of[k]);
        CHECK_EQ(v[i].last, last);
    }
    free(v);
}

static void test_random(void)
{
    uint64_t sorted = 0, cycles = 0;
    for (int iter = 0; iter < 2000; iter++) {
        const uint32_t n = 1 + (uint32_t)(check_rand() % (MAXN - 1));
        const bool cyclic = iter % 3 == 0;
        make_graph(n, cyclic);
        struct onnx_graph g = {.n_nodes = n, .nodes = nodes};
        uint32_t order[MAXN];
        bool on_cycle[MAXN];
        struct onnx_order o = {order, on_cycle, false, false};
        if (!CHECK(onnx_order_graph(&g, &o)))
            continue;
        /* the reference: the lowest ready file index, step by step */
        bool done[MAXN] = {0}, file_order = true, any_cycle = false;
        uint32_t at = 0;
        for (;;) {
            uint32_t pick = UINT32_MAX;
            for (uint32_t k = 0; k < n && pick == UINT32_MAX; k++) {
                bool ready = !done[k];
                for (uint32_t j = 0; j < n && ready; j++)
                    ready = !reads[k][j] || done[j];
                if (ready)
                    pick = k;
            }
            if (pick == UINT32_MAX)
                break;
            file_order &= pick == at;
            done[pick] = true;
            CHECK_EQ(order[at], pick);
            at++;
        }
        for (uint32_t k = 0, rest = at; k < n; k++) /* the rest, in file order */
            if (!done[k])
                CHECK_EQ(order[rest++], k);
        for (uint32_t k = 0; k < n; k++) {
            const bool ref = !done[k] && on_cycle_ref(n, k);
            any_cycle |= ref;
            CHECK_EQ(on_cycle[k], ref);
        }
        CHECK_EQ(o.sorted, !(file_order && at == n));
        CHECK_EQ(o.cycle, any_cycle);
        sorted += o.sorted;
        cycles += o.cycle;
        if (at == n)
            check_lifetimes(&g, order);
    }
    printf("test_order: %llu of 2000 graphs sorted, %llu with a cycle\n",
           (unsigned long long)sorted, (unsigned long long)cycles);
    CHECK(sorted > 100 && cycles > 100);
}

int main(void)
{
    test_random();
    return check_finish("test_order");
}
