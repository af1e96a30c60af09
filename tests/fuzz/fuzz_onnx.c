/* fuzz_onnx.c - the ONNX reader (onnx_wire.c) and scan's ONNX path.
 *
 * Input: any bytes, as a model file. Invariants:
 *  - onnx_walk never reads outside the input (ASan; the input is copied
 *    into a buffer of exactly its size), nor crashes, on any bytes;
 *  - the check pass (no callback) and the walk with a callback agree: both
 *    succeed or both fail (not always at the same byte: the check reads the
 *    graph in file order, the walk once per kind, so each meets the first
 *    damage in its own order; scan runs the check first and prints its error);
 *  - a damaged model's error offsets lie within the input, with a message;
 *  - each value's dims, read again by onnx_dims_next, are exactly its rank
 *    (no shape: none), and its path starts with "graph";
 *  - cli_descriptor_from_onnx either fills a descriptor or an error with an id;
 *  - the model reader (onnx_model_read) reads every model the walk accepts
 *    and refuses every model the walk refuses (it checks the values no node
 *    names as the walk does: a command's one pass is the reader's);
 *  - the reader's records (onnx_model_read_walking: the walk's pieces
 *    called as it reads) are the walk's, in the same order: each record's
 *    kind, graph, path, name, type and rank, and each node's;
 *  - both read the same values under protobuf's rules: the walk's
 *    records (but the Constants'), graph by graph, are the model's outputs
 *    and the inputs, initializers and value_info a node or an output names,
 *    with the same names, types and dims;
 * And the whole input through `dmltensor scan -` into a memory stream: no
 * crash, no leak, exit status 0, 1 or 2.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen, open_memstream */
#include "fuzz.h"

#include "cli.h"
#include "onnx_model.h"
#include "onnx_wire.h"
#include "source_onnx.h"

#include <string.h>

/* A value as the walk saw it, for the comparison with the model. */
struct value {
    enum onnx_kind kind;
    struct onnx_bytes name;
    enum onnx_value value;
    int32_t elem_type; /* 0 when none is given */
    bool has_shape;
    uint32_t rank, first_dim; /* dims[first_dim..first_dim + rank) */
    uint32_t graph;           /* its graph's index */
};

enum { MAX_VALUES = 20000, MAX_DIMS = 50000 };

struct seen {
    struct descriptor d;
    struct onnx_options o;
    unsigned long values;
    struct value *v; /* MAX_VALUES */
    struct onnx_dim *dims;
    uint32_t n_v, n_dims;
    bool overflow; /* too many to compare */
};

static void remember(struct seen *s, const struct onnx_tensor *t)
{
    if (t->kind == ONNX_CONSTANT || s->overflow)
        return;
    if (s->n_v == MAX_VALUES || t->rank > MAX_DIMS - s->n_dims) {
        s->overflow = true;
        return;
    }
    struct value *v = &s->v[s->n_v++];
    v->kind = t->kind;
    v->graph = t->graph;
    v->name = t->has_name ? t->name : (struct onnx_bytes){NULL, 0};
    v->value = t->value;
    v->elem_type = t->has_elem_type ? t->elem_type : 0;
    v->has_shape = t->form != ONNX_DIMS_NONE;
    v->rank = 0;
    v->first_dim = s->n_dims;
    struct onnx_dim_iter it;
    onnx_dims_begin(t, &it);
    while (v->has_shape && onnx_dims_next(&it, &s->dims[s->n_dims]))
        s->n_dims++, v->rank++;
}

static enum onnx_step on_value(void *ctx, const struct onnx_tensor *t)
{
    struct seen *s = ctx;
    s->values++;
    FUZZ_CHECK(t->path && strncmp(t->path, "graph", 5) == 0);
    FUZZ_CHECK((unsigned)t->kind < ONNX_KIND_COUNT);
    struct onnx_dim_iter it;
    struct onnx_dim d;
    uint64_t n = 0;
    onnx_dims_begin(t, &it);
    while (onnx_dims_next(&it, &d)) {
        n++;
        if (d.kind == ONNX_DIM_PARAM)
            FUZZ_CHECK(d.param.n > 0 && d.param.p != NULL);
    }
    FUZZ_CHECK(n == (t->form == ONNX_DIMS_NONE ? 0 : t->rank));
    remember(s, t);
    struct onnx_facts facts;
    struct cli_error e;
    memset(&e, 0, sizeof e);
    if (!cli_descriptor_from_onnx(t, &s->o, &s->d, &facts, &e))
        FUZZ_CHECK(e.id != NULL && e.message[0] != '\0');
    else
        FUZZ_CHECK(s->d.cfg.t.sizes != NULL && s->d.cfg.t.dtype != NULL);
    return s->values < 100000 ? ONNX_STEP_GO : ONNX_STEP_STOP;
}

/* The records as a sequence: a hash of each one's fields, in order. */
struct trace {
    uint64_t h, n;
};

static void trace_bytes(struct trace *tr, const void *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tr->h = (tr->h ^ ((const uint8_t *)p)[i]) * 0x100000001b3u;
}

static enum onnx_step trace_value(void *ctx, const struct onnx_tensor *t)
{
    struct trace *tr = ctx;
    const int32_t fields[] = {(int32_t)t->kind,  (int32_t)t->value, t->has_elem_type,
                              t->elem_type,      (int32_t)t->form,  (int32_t)t->rank,
                              (int32_t)t->graph, t->external,       t->has_name};
    trace_bytes(tr, fields, sizeof fields);
    trace_bytes(tr, t->path, strlen(t->path) + 1);
    if (t->has_name)
        trace_bytes(tr, t->name.p, t->name.n);
    tr->n++;
    return ONNX_STEP_GO;
}

static enum onnx_step trace_node(void *ctx, uint32_t graph, uint32_t node, const char *path)
{
    struct trace *tr = ctx;
    const uint32_t at[] = {graph, node};
    trace_bytes(tr, at, sizeof at);
    trace_bytes(tr, path, strlen(path) + 1);
    tr->n++;
    return ONNX_STEP_GO;
}

static bool same_bytes(struct onnx_bytes a, struct onnx_bytes b)
{
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static bool same_dim(const struct onnx_dim *a, const struct onnx_dim *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == ONNX_DIM_VALUE)
        return a->value == b->value;
    return a->kind != ONNX_DIM_PARAM || same_bytes(a->param, b->param);
}

/* A name a node (any graph's) or a graph output uses. */
static bool used(const struct onnx_model *m, struct onnx_bytes name)
{
    for (uint32_t g = 0; g < m->n_graphs; g++) {
        const struct onnx_graph *gr = &m->graphs[g];
        for (uint32_t i = 0; i < gr->n_outputs; i++)
            if (same_bytes(gr->outputs[i].name, name))
                return true;
        for (uint32_t k = 0; k < gr->n_nodes; k++) {
            const struct onnx_node *n = &gr->nodes[k];
            for (uint32_t i = 0; i < n->n_inputs; i++)
                if (same_bytes(n->inputs[i], name))
                    return true;
            for (uint32_t i = 0; i < n->n_outputs; i++)
                if (same_bytes(n->outputs[i], name))
                    return true;
        }
    }
    return false;
}

/* The walk's next kept value is vi (a ValueInfoProto of the model). */
static void check_info(const struct seen *s, uint32_t *k, enum onnx_kind kind,
                       const struct onnx_value_info *vi)
{
    FUZZ_CHECK(*k < s->n_v);
    const struct value *v = &s->v[(*k)++];
    FUZZ_CHECK(v->kind == kind && same_bytes(v->name, vi->name) && v->value == vi->type.value);
    if (v->value != ONNX_V_TENSOR)
        return;
    FUZZ_CHECK(v->elem_type == (vi->type.has_elem_type ? vi->type.elem_type : 0));
    FUZZ_CHECK(v->has_shape == vi->type.has_shape && v->rank == vi->type.rank);
    for (uint32_t i = 0; v->has_shape && i < v->rank; i++)
        FUZZ_CHECK(same_dim(&s->dims[v->first_dim + i], &vi->type.dims[i]));
}

static void check_tensor(const struct seen *s, uint32_t *k, const struct onnx_tensor_data *t)
{
    FUZZ_CHECK(*k < s->n_v);
    const struct value *v = &s->v[(*k)++];
    FUZZ_CHECK(v->kind == (t->sparse ? ONNX_SPARSE_INITIALIZER : ONNX_INITIALIZER));
    FUZZ_CHECK(same_bytes(v->name, t->name) && v->elem_type == t->elem_type);
    FUZZ_CHECK(v->has_shape && v->rank == t->rank);
    for (uint32_t i = 0; i < v->rank; i++) {
        const struct onnx_dim *d = &s->dims[v->first_dim + i];
        FUZZ_CHECK(d->kind == ONNX_DIM_VALUE && d->value == t->dims[i]);
    }
}

/* The walk's values, but those no node or output names (a subgraph's
 * inputs are all kept), are the model's values in its graphs' order. */
static void compare(struct seen *s, const struct onnx_model *m)
{
    uint64_t names = 0; /* used() is a linear search: small models only */
    for (uint32_t g = 0; g < m->n_graphs; g++)
        for (uint32_t k = 0; k < m->graphs[g].n_nodes; k++)
            names += 1u + m->graphs[g].nodes[k].n_inputs + m->graphs[g].nodes[k].n_outputs;
    if (names * s->n_v > 20000000u)
        return;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < s->n_v; i++)
        if (s->v[i].kind == ONNX_OUTPUT || (s->v[i].kind == ONNX_INPUT && s->v[i].graph) ||
            used(m, s->v[i].name)) /* a subgraph's inputs all: positional */
            s->v[kept++] = s->v[i];
    s->n_v = kept;
    uint32_t k = 0;
    for (uint32_t g = 0; g < m->n_graphs; g++) {
        const struct onnx_graph *gr = &m->graphs[g];
        for (uint32_t i = 0; i < gr->n_inputs; i++)
            check_info(s, &k, ONNX_INPUT, &gr->inputs[i]);
        for (uint32_t i = 0; i < gr->n_outputs; i++)
            check_info(s, &k, ONNX_OUTPUT, &gr->outputs[i]);
        for (uint32_t i = 0; i < gr->n_initializers; i++)
            check_tensor(s, &k, &gr->initializers[i]);
        for (uint32_t i = 0; i < gr->n_value_info; i++)
            check_info(s, &k, ONNX_VALUE_INFO, &gr->value_info[i]);
    }
    FUZZ_CHECK(k == s->n_v);
}

static void run_cli(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)(uintptr_t)data, size, "rb");
    char *obuf = NULL, *ebuf = NULL;
    size_t olen = 0, elen = 0;
    FILE *out = open_memstream(&obuf, &olen);
    FILE *err = open_memstream(&ebuf, &elen);
    if (in && out && err) {
        char arg0[] = "dmltensor", arg1[] = "scan", arg2[] = "-", arg3[] = "--dim", arg4[] = "N=2";
        char *argv[] = {arg0, arg1, arg2, arg3, arg4, NULL};
        int status = cli_main(5, argv, in, out, err);
        FUZZ_CHECK(status == 0 || status == 1 || status == 2);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    if (err)
        fclose(err);
    free(obuf);
    free(ebuf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256 * 1024)
        return 0;
    uint8_t *copy = malloc(size ? size : 1); /* exactly the input: ASan sees a read past it */
    struct seen *s = malloc(sizeof *s);
    struct value *values = malloc(MAX_VALUES * sizeof *values);
    struct onnx_dim *dims = malloc(MAX_DIMS * sizeof *dims);
    if (copy == NULL || s == NULL || values == NULL || dims == NULL) {
        free(copy);
        free(s);
        free(values);
        free(dims);
        return 0;
    }
    s->v = values;
    s->dims = dims;
    s->n_v = s->n_dims = 0;
    s->overflow = false;
    memcpy(copy, data, size);
    static struct onnx_dim_binding n = {.name = "N", .len = 1, .value = 2, .text = "N=2"};
    memset(&s->o, 0, sizeof s->o);
    s->o.dims = &n;
    s->o.n_dims = 1;
    s->values = 0;
    struct onnx_error e1, e2;
    bool oom1, oom2;
    bool ok1 = onnx_walk(copy, size, NULL, NULL, NULL, &e1, &oom1);
    bool ok2 = onnx_walk(copy, size, on_value, NULL, s, &e2, &oom2);
    if (!oom1 && !oom2) {
        FUZZ_CHECK(ok1 == ok2);
        if (!ok1) {
            FUZZ_CHECK(e1.offset <= size && e1.message[0] != '\0');
            FUZZ_CHECK(e2.offset <= size && e2.message[0] != '\0');
        }
    }
    struct onnx_model m;
    struct onnx_error e3;
    bool oom3;
    const bool ok3 = onnx_model_read(copy, size, &m, &e3, &oom3);
    if (ok1 && !oom3)
        FUZZ_CHECK(ok3);
    if (ok3 && !oom1)
        FUZZ_CHECK(ok1);
    struct trace walked = {0xcbf29ce484222325u, 0}, read = walked;
    struct onnx_model m2;
    struct onnx_error e4, e5;
    bool oom4, oom5;
    const struct onnx_model_records records = {trace_value, trace_node, &read};
    const bool ok4 =
        onnx_walk_nodes(copy, size, trace_value, trace_node, NULL, &walked, &e4, &oom4);
    const bool ok5 = onnx_model_read_walking(copy, size, onnx_model_memory_cap(size), &m2, &e5,
                                             &oom5, NULL, NULL, &records);
    if (ok4 && ok5)
        FUZZ_CHECK(walked.n == read.n && walked.h == read.h);
    if (ok5)
        onnx_model_free(&m2);
    if (!ok3)
        FUZZ_CHECK(e3.offset <= size && e3.message[0] != '\0');
    if (ok2 && ok3 && !oom2 && !s->overflow && s->values < MAX_VALUES)
        compare(s, &m);
    if (ok3)
        onnx_model_free(&m);
    free(copy);
    free(s);
    free(values);
    free(dims);
    run_cli(data, size);
    return 0;
}
