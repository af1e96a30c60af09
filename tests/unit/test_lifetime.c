/* onnx_lifetimes on hand-built graphs: a small network with a Constant, an
 * If whose branch reads an outer value (and shadows another), a value never
 * read and graph inputs, outputs and initializers, with and without io;
 * then random graphs against a plain reference of SPEC section 10's rule
 * (every value, every node, every subgraph scanned by name). */
#include "check.h"
#include "lifetime.h"

#include <stdio.h>
#include <stdlib.h>

static struct onnx_bytes B(const char *s) {
    struct onnx_bytes b = {(const uint8_t *)s, strlen(s)};
    return b;
}

static const struct onnx_life *
named(const struct onnx_life *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].name.n == strlen(name) && memcmp(v[i].name.p, name, v[i].name.n) == 0)
            return &v[i];
    return NULL;
}

static void test_network(void)
{
    /* then_branch: Identity(a) -> t; Identity(b) -> u where the branch has
     * its own input named b; output t. */
    static struct onnx_bytes sub_in0[] = {{(const uint8_t *)"a", 1}};
    static struct onnx_bytes sub_out0[] = {{(const uint8_t *)"t", 1}};
    static struct onnx_bytes sub_in1[] = {{(const uint8_t *)"b", 1}};
    static struct onnx_bytes sub_out1[] = {{(const uint8_t *)"u", 1}};
    struct onnx_node sub_nodes[2] = {
        {.op_type = B("Identity"),
         .n_inputs = 1,
         .n_outputs = 1,
         .inputs = sub_in0,
         .outputs = sub_out0},
        {.op_type = B("Identity"),
         .n_inputs = 1,
         .n_outputs = 1,
         .inputs = sub_in1,
         .outputs = sub_out1},
    };
    struct onnx_value_info sub_inputs[] = {{.name = B("b")}};
    struct onnx_value_info sub_outputs[] = {{.name = B("t")}};
    struct onnx_graph branch = {.n_nodes = 2,
                                .n_inputs = 1,
                                .n_outputs = 1,
                                .nodes = sub_nodes,
                                .inputs = sub_inputs,
                                .outputs = sub_outputs};
    struct onnx_attr if_attr = {.name = B("then_branch"), .type = ONNX_ATTR_GRAPH, .g = &branch};

    struct onnx_bytes n0_in[] = {B("x"), B("w"), B("")}, n0_out[] = {B("a")};
    struct onnx_bytes n1_in[] = {B("a")}, n1_out[] = {B("b")};
    struct onnx_bytes n2_out[] = {B("c")};
    struct onnx_bytes n3_in[] = {B("b")}, n3_out[] = {B("d")};
    struct onnx_bytes n4_in[] = {B("d"), B("c")}, n4_out[] = {B("y")};
    struct onnx_bytes n5_in[] = {B("b")}, n5_out[] = {B("s"), B("")};
    struct onnx_node nodes[] = {
        {.op_type = B("Conv"), .n_inputs = 3, .n_outputs = 1, .inputs = n0_in, .outputs = n0_out},
        {.op_type = B("Relu"), .n_inputs = 1, .n_outputs = 1, .inputs = n1_in, .outputs = n1_out},
        {.op_type = B("Constant"), .n_outputs = 1, .outputs = n2_out},
        {.op_type = B("If"),
         .n_inputs = 1,
         .n_outputs = 1,
         .n_attrs = 1,
         .inputs = n3_in,
         .outputs = n3_out,
         .attrs = &if_attr},
        {.op_type = B("Add"), .n_inputs = 2, .n_outputs = 1, .inputs = n4_in, .outputs = n4_out},
        {.op_type = B("Shape"), .n_inputs = 1, .n_outputs = 2, .inputs = n5_in, .outputs = n5_out},
    };
    struct onnx_value_info inputs[] = {{.name = B("x")}, {.name = B("w")}};
    struct onnx_value_info outputs[] = {{.name = B("y")}};
    struct onnx_tensor_data inits[] = {{.name = B("w")}};
    struct onnx_graph g = {.n_nodes = 6,
                           .n_inputs = 2,
                           .n_outputs = 1,
                           .n_initializers = 1,
                           .nodes = nodes,
                           .inputs = inputs,
                           .outputs = outputs,
                           .initializers = inits};
    struct onnx_life *v;
    size_t n;
    CHECK(onnx_lifetimes(&g, NULL, false, &v, &n));
    CHECK_EQ(n, 4); /* a, b, d, s: not c (Constant), not y (an output) */
    const struct onnx_life *a = named(v, n, "a"), *b = named(v, n, "b"), *d = named(v, n, "d"),
                           *s = named(v, n, "s");
    if (CHECK(a && b && d && s)) {
        CHECK_EQ(a->first, 0);
        CHECK_EQ(a->last, 3); /* read inside node 3's branch */
        CHECK_EQ(b->first, 1);
        CHECK_EQ(b->last, 5); /* the branch's b is its own; Shape reads b at 5 */
        CHECK_EQ(d->first, 3);
        CHECK_EQ(d->last, 4);
        CHECK_EQ(s->first, 5); /* never read: its producer's step */
        CHECK_EQ(s->last, 5);
        CHECK_EQ(a->kind, ONNX_LIFE_ACTIVATION);
        CHECK_EQ(s->node, 5);
    }
    free(v);
    CHECK(onnx_lifetimes(&g, NULL, true, &v, &n));
    CHECK_EQ(n, 6); /* x, then a, b, d, y, s */
    const struct onnx_life *x = named(v, n, "x"), *y = named(v, n, "y");
    if (CHECK(x && y && named(v, n, "w") == NULL)) {
        CHECK_EQ(x->kind, ONNX_LIFE_INPUT);
        CHECK_EQ(x->first, 0);
        CHECK_EQ(x->last, 0);
        CHECK_EQ(y->kind, ONNX_LIFE_OUTPUT);
        CHECK_EQ(y->first, 4);
        CHECK_EQ(y->last, 5); /* to the last step */
        CHECK(v[0].name.p == x->name.p);
    }
    free(v);
}

/* ---- random graphs against a plain reference ----------------------------- */

#define MAXN 40
static char names[4 * MAXN][16];
static struct onnx_bytes in_store[MAXN][4], out_store[MAXN][2];
static struct onnx_node nodes_r[MAXN], sub_nodes_r[MAXN];
static struct onnx_bytes sub_in_store[MAXN][2], sub_out_store[MAXN][1];
static struct onnx_attr attrs_r[MAXN];
static struct onnx_graph subs_r[MAXN];

static bool reads_in(const struct onnx_graph *g, struct onnx_bytes name)
{
    for (uint32_t k = 0; k < g->n_nodes; k++) {
        for (uint32_t i = 0; i < g->nodes[k].n_inputs; i++)
            if (g->nodes[k].inputs[i].n == name.n &&
                memcmp(g->nodes[k].inputs[i].p, name.p, name.n) == 0)
                return true;
    }
    return false;
}

static void test_random(void)
{
    for (int iter = 0; iter < 300; iter++) {
        const uint32_t nn = 1 + (uint32_t)(check_rand() % (MAXN - 1));
        /* values v0..: node k outputs "vK"; node inputs: random earlier
         * values; some nodes own a subgraph reading one outer value. */
        for (uint32_t k = 0; k < nn; k++) {
            snprintf(names[k], sizeof names[k], "v%u", (unsigned)k);
            out_store[k][0] = B(names[k]);
            uint32_t ni = k ? (uint32_t)(check_rand() % 3) : 0;
            for (uint32_t i = 0; i < ni; i++)
                in_store[k][i] = B(names[check_rand() % k]);
            nodes_r[k] = (struct onnx_node){.op_type = B("Op"),
                                            .n_inputs = ni,
                                            .n_outputs = 1,
                                            .inputs = in_store[k],
                                            .outputs = out_store[k]};
            if (k && check_rand() % 4 == 0) {
                sub_in_store[k][0] = B(names[check_rand() % k]);
                sub_out_store[k][0] = B("inner");
                sub_nodes_r[k] = (struct onnx_node){.op_type = B("Id"),
                                                    .n_inputs = 1,
                                                    .n_outputs = 1,
                                                    .inputs = sub_in_store[k],
                                                    .outputs = sub_out_store[k]};
                subs_r[k] = (struct onnx_graph){.n_nodes = 1, .nodes = &sub_nodes_r[k]};
                attrs_r[k] =
                    (struct onnx_attr){.name = B("body"), .type = ONNX_ATTR_GRAPH, .g = &subs_r[k]};
                nodes_r[k].n_attrs = 1;
                nodes_r[k].attrs = &attrs_r[k];
            }
        }
        struct onnx_graph g = {.n_nodes = nn, .nodes = nodes_r};
        struct onnx_life *v;
        size_t n;
        if (!CHECK(onnx_lifetimes(&g, NULL, false, &v, &n)))
            continue;
        CHECK_EQ(n, nn);
        for (uint32_t k = 0; k < nn && k < n; k++) {
            /* The reference: the last node that reads vk, itself or in its subgraph. */
            uint64_t last = k;
            for (uint32_t j = k; j < nn; j++) {
                struct onnx_graph one = {.n_nodes = 1, .nodes = &nodes_r[j]};
                if (reads_in(&one, out_store[k][0]) ||
                    (nodes_r[j].n_attrs && reads_in(nodes_r[j].attrs[0].g, out_store[k][0])))
                    last = j;
            }
            CHECK_EQ(v[k].first, k);
            CHECK_EQ(v[k].last, last);
        }
        free(v);
        for (uint32_t k = 0; k < nn; k++)
            nodes_r[k].n_attrs = 0;
    }
}

/* ---- the adversarial shapes of issue 27 item 14: linear work ------------- */

/* A pre-IR-4 model: BIG weights listed as graph inputs (each also an
 * initializer), a node reading them all, then an If whose branch has BIG
 * nodes, each reading an outer value and the branch's own value before it.
 * The hash table's probes stay within a small multiple of the names (the
 * old code compared every name with every initializer and every branch
 * node: BIG^2). */
#define BIG 20000
static char big_names[3 * BIG][16];
static struct onnx_bytes big_bytes[3 * BIG];
static struct onnx_value_info big_inputs[BIG];
static struct onnx_tensor_data big_inits[BIG];
static struct onnx_node big_branch_nodes[BIG];
static struct onnx_bytes big_branch_in[BIG][2];

static void test_adversarial(void)
{
    for (size_t i = 0; i < 3 * BIG; i++) {
        snprintf(big_names[i], sizeof big_names[i], "%c%zu", i < BIG ? 'w' : 'b', i);
        big_bytes[i] = B(big_names[i]);
    }
    for (size_t i = 0; i < BIG; i++) {
        big_inputs[i].name = big_bytes[i];
        big_inits[i].name = big_bytes[i];
    }
    static struct onnx_bytes x_out[] = {{(const uint8_t *)"x", 1}};
    static struct onnx_bytes y_out[] = {{(const uint8_t *)"y", 1}};
    static struct onnx_bytes if_in[] = {{(const uint8_t *)"x", 1}};
    for (size_t k = 0; k < BIG; k++) {
        big_branch_in[k][0] = k % 2 ? x_out[0] : big_bytes[BIG + (k ? k - 1 : 0)];
        big_branch_in[k][1] = k ? big_bytes[BIG + k - 1] : x_out[0];
        big_branch_nodes[k] = (struct onnx_node){.op_type = B("Add"),
                                                 .n_inputs = 2,
                                                 .n_outputs = 1,
                                                 .inputs = big_branch_in[k],
                                                 .outputs = &big_bytes[BIG + k]};
    }
    struct onnx_value_info br_out[] = {{.name = big_bytes[2 * BIG - 1]}};
    struct onnx_graph branch = {
        .n_nodes = BIG, .n_outputs = 1, .nodes = big_branch_nodes, .outputs = br_out};
    struct onnx_attr attr = {.name = B("then_branch"), .type = ONNX_ATTR_GRAPH, .g = &branch};
    struct onnx_node nodes[] = {
        {.op_type = B("Sum"),
         .n_inputs = BIG,
         .n_outputs = 1,
         .inputs = big_bytes,
         .outputs = x_out},
        {.op_type = B("If"),
         .n_inputs = 1,
         .n_outputs = 1,
         .n_attrs = 1,
         .inputs = if_in,
         .outputs = y_out,
         .attrs = &attr},
        {.op_type = B("Relu"),
         .n_inputs = 1,
         .n_outputs = 1,
         .inputs = y_out,
         .outputs = &big_bytes[2 * BIG]},
    };
    struct onnx_value_info outs[] = {{.name = big_bytes[2 * BIG]}};
    struct onnx_graph g = {.n_nodes = 3,
                           .n_inputs = BIG,
                           .n_outputs = 1,
                           .n_initializers = BIG,
                           .nodes = nodes,
                           .inputs = big_inputs,
                           .outputs = outs,
                           .initializers = big_inits};
    struct onnx_life *v;
    size_t n;
    uint64_t probes = 0;
    if (!CHECK(onnx_lifetimes_counted(&g, NULL, true, &v, &n, &probes)))
        return;
    CHECK_EQ(n, 3); /* x, y, and the output; the weights are initializers */
    const struct onnx_life *x = named(v, n, "x"), *y = named(v, n, "y");
    if (CHECK(x && y)) {
        CHECK_EQ(x->last, 1); /* read inside the branch, at the If's step */
        CHECK_EQ(y->last, 2);
    }
    /* names: 2 BIG in the main graph, 2 BIG reads and BIG values in the
     * branch; a table at most half full keeps the mean probe short */
    CHECK(probes <= 16u * 5u * BIG);
    if (probes > 16u * 5u * BIG)
        fprintf(stderr, "  %llu probes for %d names\n", (unsigned long long)probes, 5 * BIG);
    free(v);
}

/* A chain long enough for the hash table to grow many times: node k adds
 * v(k-1) and v(k-3); every value's last reader checked (the table once
 * kept a slot found before it grew: values lost their reads). */
#define CHAIN 5000
static char chain_names[CHAIN][16];
static struct onnx_bytes chain_out[CHAIN], chain_in[CHAIN][2];
static struct onnx_node chain_nodes[CHAIN];

static void test_long_chain(void)
{
    for (size_t k = 0; k < CHAIN; k++) {
        snprintf(chain_names[k], sizeof chain_names[k], "v%zu", k);
        chain_out[k] = B(chain_names[k]);
    }
    for (size_t k = 0; k < CHAIN; k++) {
        chain_in[k][0] = chain_out[k ? k - 1 : 0];
        chain_in[k][1] = chain_out[k >= 3 ? k - 3 : 0];
        chain_nodes[k] = (struct onnx_node){.op_type = B("Add"),
                                            .n_inputs = k ? 2 : 0,
                                            .n_outputs = 1,
                                            .inputs = chain_in[k],
                                            .outputs = &chain_out[k]};
    }
    struct onnx_graph g = {.n_nodes = CHAIN, .nodes = chain_nodes};
    struct onnx_life *v;
    size_t n;
    if (!CHECK(onnx_lifetimes(&g, NULL, false, &v, &n)) || !CHECK_EQ(n, CHAIN))
        return;
    unsigned wrong = 0;
    for (size_t k = 0; k < CHAIN; k++) {
        size_t last = k + 3 < CHAIN ? k + 3 : k + 1 < CHAIN ? k + 1 : k;
        if (k == 0)
            last = 3; /* v0 is also read by nodes 1..3 through both inputs */
        wrong += v[k].last != last;
    }
    CHECK_EQ(wrong, 0);
    free(v);
}

int main(void)
{
    test_long_chain();
    test_network();
    test_adversarial();
    test_random();
    return check_finish("test_lifetime");
}
