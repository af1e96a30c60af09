/* test_onnx_session.c DIR - the model session (src/onnx/onnx_session.c) on
 * every model of DIR (tests/cli/data/onnx), with no CLI: its records are
 * the walk's (onnx_walk_nodes on the same bytes, logged value by value and
 * node by node), kept, let go (records_memory 1: each walks again) or kept
 * without the nodes; each reader passes over the bytes once (onnx_parse_passes)
 * and onnx_session_each kept passes over none; the inference needs the
 * model read, runs once, and its indexes agree with a linear search of the
 * model and of onnx_infer_mismatch_at; a model cut short is refused by the
 * open, with its offset. */
#include "check.h"
#include "onnx_dimexpr.h"
#include "onnx_session.h"
#include "pb.h"

#include <dirent.h>
#include <stdlib.h>

struct log {
    char *p;
    size_t n, cap;
};

static void log_put(struct log *l, const char *s)
{
    const size_t k = strlen(s);
    if (l->n + k + 1 > l->cap) {
        l->cap = (l->n + k + 1) * 2;
        l->p = realloc(l->p, l->cap);
        if (l->p == NULL)
            abort();
    }
    memcpy(l->p + l->n, s, k + 1);
    l->n += k;
}

static enum onnx_step log_tensor(void *ctx, const struct onnx_tensor *t)
{
    char line[1024];
    struct onnx_dim_iter it;
    struct onnx_dim d;
    uint64_t dims = 0;
    onnx_dims_begin(t, &it);
    while (onnx_dims_next(&it, &d))
        dims = dims * 31 + (d.kind == ONNX_DIM_VALUE ? (uint64_t)d.value : 7u);
    snprintf(line, sizeof line, "T %d %s %.*s g%u r%llu e%d x%d d%llu\n", (int)t->kind, t->path,
             (int)t->name.n, t->name.p ? (const char *)t->name.p : "", t->graph,
             (unsigned long long)t->rank, (int)t->elem_type, (int)t->external,
             (unsigned long long)dims);
    log_put(ctx, line);
    return ONNX_STEP_GO;
}

static enum onnx_step log_node(void *ctx, uint32_t graph, uint32_t node, const char *path)
{
    char line[1024];
    snprintf(line, sizeof line, "N %u %u %s\n", graph, node, path);
    log_put(ctx, line);
    return ONNX_STEP_GO;
}

/* Answers GO to the first `after` values, then `then`. */
struct stopper {
    unsigned seen, after;
    enum onnx_step then;
};

static enum onnx_step stop_at(void *ctx, const struct onnx_tensor *t)
{
    struct stopper *st = ctx;
    (void)t;
    return st->seen++ < st->after ? ONNX_STEP_GO : st->then;
}

/* ONNX_STEP_STOP ends a pass with true, ONNX_STEP_FAIL with false (and
 * not out of memory), both at once: kept records and a walk again alike. */
static void check_steps(const struct onnx_session *s)
{
    for (int k = 0; k < 2; k++) {
        struct stopper st = {0, 1, k ? ONNX_STEP_FAIL : ONNX_STEP_STOP};
        bool oom = true;
        CHECK_EQ(onnx_session_each(s, stop_at, NULL, &st, &oom), k == 0);
        CHECK(!oom);
        CHECK_EQ(st.seen, 2);
    }
}

static bool log_same(const struct log *a, const struct log *b)
{
    return a->n == b->n && a->n > 0 && memcmp(a->p, b->p, a->n) == 0;
}

/* The log of one pass: the session's, or the walk's when s is NULL. */
static struct log pass(const struct onnx_session *s, const uint8_t *data, size_t len, bool nodes)
{
    struct log l = {NULL, 0, 0};
    struct onnx_error err;
    bool oom = false;
    log_put(&l, "");
    if (s == NULL)
        CHECK(
            onnx_walk_nodes(data, len, log_tensor, nodes ? log_node : NULL, NULL, &l, &err, &oom));
    else
        CHECK(onnx_session_each(s, log_tensor, nodes ? log_node : NULL, &l, &oom));
    CHECK(!oom);
    return l;
}

/* Whether graph declares name, by a linear search of the model. */
static bool declares(const struct onnx_model *m, uint32_t graph, struct onnx_bytes name)
{
    const struct onnx_graph *g = &m->graphs[graph];
    for (uint32_t i = 0; i < g->n_outputs + g->n_value_info; i++) {
        const struct onnx_bytes n =
            i < g->n_outputs ? g->outputs[i].name : g->value_info[i - g->n_outputs].name;
        if (n.n == name.n && memcmp(n.p, name.p, n.n) == 0)
            return true;
    }
    return false;
}

static void check_indexes(const struct onnx_session *s)
{
    const struct onnx_model *m = &s->model;
    for (uint32_t g = 0; g < m->n_graphs; g++)
        for (uint32_t k = 0; k < m->graphs[g].n_nodes; k++)
            for (uint32_t o = 0; o < m->graphs[g].nodes[k].n_outputs; o++) {
                const struct onnx_bytes name = m->graphs[g].nodes[k].outputs[o];
                if (name.n == 0)
                    continue;
                CHECK(onnx_session_declared(s, g, name) == declares(m, g, name));
                if (g + 1 < m->n_graphs) /* another graph's name is not its own */
                    CHECK(!onnx_session_declared(s, g + 1, name) || declares(m, g + 1, name));
            }
    const size_t n = onnx_infer_mismatch_count(s->infer);
    for (size_t i = 0; i < n; i++) {
        const struct onnx_infer_mismatch *mm = onnx_infer_mismatch_at(s->infer, i);
        size_t first = i;
        for (size_t j = 0; j < i; j++) {
            const struct onnx_infer_mismatch *e = onnx_infer_mismatch_at(s->infer, j);
            if (e->graph == mm->graph && e->name.n == mm->name.n &&
                memcmp(e->name.p, mm->name.p, e->name.n) == 0) {
                first = j;
                break;
            }
        }
        CHECK(onnx_session_mismatch(s, mm->graph, mm->name) ==
              onnx_infer_mismatch_at(s->infer, first));
    }
}

/* --dim N=2 bound: every main graph input declared with N first has 2
 * there once inferred. How many were checked. */
static unsigned check_bound(const struct onnx_session *s)
{
    const struct onnx_graph *g = &s->model.graphs[0];
    unsigned n = 0;
    for (uint32_t i = 0; i < g->n_inputs; i++) {
        const struct onnx_type *t = &g->inputs[i].type;
        if (!t->has_shape || t->rank == 0 || t->dims[0].kind != ONNX_DIM_PARAM ||
            t->dims[0].param.n != 1 || t->dims[0].param.p[0] != 'N')
            continue;
        const struct onnx_infer_value *v =
            onnx_infer_lookup(s->infer, 0, (const char *)g->inputs[i].name.p, g->inputs[i].name.n);
        int64_t c = -1;
        CHECK(v != NULL && v->rank > 0 && v->dims[0] != NULL && onnx_dx_is_const(v->dims[0], &c));
        CHECK_EQ(c, 2);
        n++;
    }
    return n;
}

static unsigned bound_inputs;

static void check_model(const char *path)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    static uint8_t data[1 << 20];
    const size_t len = fread(data, 1, sizeof data, f);
    fclose(f);
    struct onnx_session s;
    struct onnx_error err;
    bool oom = false;
    const unsigned long walks = onnx_parse_passes(ONNX_READER_WALK),
                        reads = onnx_parse_passes(ONNX_READER_MODEL);
    /* One pass: the model read, its records (the walk's) given as it goes. */
    CHECK(onnx_session_open(&s, data, len, NULL, &err, &oom));
    struct log kept = pass(&s, data, len, true), values = pass(&s, data, len, false);
    CHECK_EQ(onnx_parse_passes(ONNX_READER_WALK) - walks, 0);
    CHECK_EQ(onnx_parse_passes(ONNX_READER_MODEL) - reads, 1);
    struct log walked = pass(NULL, data, len, true), walked_values = pass(NULL, data, len, false);
    CHECK(log_same(&kept, &walked));
    CHECK(log_same(&values, &walked_values));
    check_steps(&s);
    const struct onnx_infer_dim dim = {"N", 1, 2};
    const struct onnx_infer_options opts = {&dim, 1, NULL, 0, 0};
    CHECK(onnx_session_infer(&s, &opts));
    CHECK(s.infer != NULL);
    CHECK(!onnx_session_infer(&s, &opts)); /* once */
    if (s.infer != NULL) {
        for (uint32_t g = 0; g < s.model.n_graphs; g++)
            CHECK(onnx_infer_order(s.infer, g) != NULL);
        check_indexes(&s);
        bound_inputs += check_bound(&s);
    }
    onnx_session_close(&s);

    /* The records let go: each walks again, the same. */
    const struct onnx_session_options dropped = {0, 1, false, false, NULL, NULL};
    CHECK(onnx_session_open(&s, data, len, &dropped, &err, &oom));
    const unsigned long before = onnx_parse_passes(ONNX_READER_WALK);
    struct log again = pass(&s, data, len, true);
    CHECK_EQ(onnx_parse_passes(ONNX_READER_WALK) - before, 1);
    CHECK(log_same(&again, &walked));
    check_steps(&s);
    onnx_session_close(&s);

    /* The values kept without the nodes: a pass with nodes walks again. */
    const struct onnx_session_options no_nodes = {0, 0, false, true, NULL, NULL};
    CHECK(onnx_session_open(&s, data, len, &no_nodes, &err, &oom));
    const unsigned long start = onnx_parse_passes(ONNX_READER_WALK);
    struct log v = pass(&s, data, len, false);
    CHECK_EQ(onnx_parse_passes(ONNX_READER_WALK) - start, 0);
    struct log all = pass(&s, data, len, true);
    CHECK_EQ(onnx_parse_passes(ONNX_READER_WALK) - start, 1);
    CHECK(log_same(&v, &walked_values));
    CHECK(log_same(&all, &walked));
    onnx_session_close(&s);

    /* Cut short: refused by the open, at a byte inside the model. */
    if (len > 16) {
        CHECK(!onnx_session_open(&s, data, len - 5, NULL, &err, &oom));
        CHECK(!oom);
        CHECK(err.message[0] != '\0');
        onnx_session_close(&s);
    }
    free(kept.p);
    free(values.p);
    free(walked.p);
    free(walked_values.p);
    free(again.p);
    free(v.p);
    free(all.p);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_onnx_session DIR\n");
        return 2;
    }
    DIR *dir = opendir(argv[1]);
    CHECK(dir != NULL);
    unsigned models = 0;
    for (struct dirent *e; dir != NULL && (e = readdir(dir)) != NULL;) {
        const size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".onnx") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        check_model(path);
        models++;
    }
    if (dir != NULL)
        closedir(dir);
    CHECK(models >= 5);
    CHECK(bound_inputs >= 3); /* convnet, branches, runtime */
    return check_finish("test_onnx_session");
}
