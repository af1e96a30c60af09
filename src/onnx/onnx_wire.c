/* onnx_wire.c - an ONNX model's tensors from the protobuf wire format, in
 * place (see onnx_wire.h). Each message is read by its validator
 * (onnx_proto.h: the field numbers of onnx.proto, the model reader's
 * too), whose view this file turns into records: a value's name, type and
 * dims point into the model. */
#include "onnx_wire.h"
#include "onnx_proto.h"
#include "onnx_wire_int.h"
#include "pb.h"

#include <stdlib.h>
#include <string.h>

/* A callback's answer: whether the walk goes on. */
static void answer(struct onnx__walk *w, enum onnx_step step)
{
    if (step == ONNX_STEP_GO)
        return;
    w->stop = true;
    w->fn_fails = step == ONNX_STEP_FAIL;
}

/* ---- the path ------------------------------------------------------------ */

/* Text from the model in a path: a NUL would end it early, so it is shown
 * as '?'; everything else goes as it is (JSON output escapes it). */
static void path_put(struct onnx__path *b, const char *s, size_t n)
{
    if (b->failed || b->off)
        return;
    if (b->cap - b->len < n) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap - b->len < n) {
            if (cap > SIZE_MAX / 2) {
                b->failed = true;
                return;
            }
            cap *= 2;
        }
        char *p = realloc(b->data, cap);
        if (p == NULL) {
            b->failed = true;
            return;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
}

static void path_putc(struct onnx__walk *w, char c)
{
    path_put(&w->path, &c, 1);
}

static void path_puts(struct onnx__walk *w, const char *s)
{
    path_put(&w->path, s, strlen(s));
}

static void path_u64(struct onnx__walk *w, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[sizeof digits - ++n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    path_put(&w->path, digits + sizeof digits - n, n);
}

static void path_put_bytes(struct onnx__walk *w, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        path_putc(w, (char)(p[i] ? p[i] : '?'));
}

static void path_push_index(struct onnx__walk *w, const char *name, uint64_t i)
{
    path_putc(w, '.');
    path_puts(w, name);
    path_putc(w, '[');
    path_u64(w, i);
    path_putc(w, ']');
}

static bool emit(struct onnx__walk *w, struct onnx_tensor *t)
{
    if (w->fn == NULL)
        return true;
    path_putc(w, '\0');
    if (w->path.failed)
        return false;
    t->path = w->path.data;
    t->graph = w->graph;
    answer(w, w->fn(w->ctx, t));
    w->path.len--;
    return true;
}

/* ---- messages: their validators' views as records ------------------------- */

/* A TensorProto (merged): its type, dims, name, and whether its data is
 * external. */
static bool read_tensor(struct onnx__walk *w, const struct pb_msg *m, struct onnx_tensor *t)
{
    struct onnx_tensor_msg v;
    if (!onnx__check_tensor(m, &v, w->err))
        return false;
    t->value = ONNX_V_TENSOR;
    t->form = ONNX_DIMS_REPEAT;
    t->dims = *m;
    t->field = ONNXF_TENSOR_DIMS;
    t->rank = v.rank;
    if (v.has_data_type) {
        t->has_elem_type = true;
        t->elem_type = v.data_type;
    }
    if (v.has_name) {
        t->name = onnx__pb_bytes(w->base, &v.name);
        t->has_name = true;
    }
    t->external = v.external;
    return true;
}

/* A SparseTensorProto (merged): the dense dims, the values' type and name. */
static bool read_sparse(struct onnx__walk *w, const struct pb_msg *m, struct onnx_tensor *t)
{
    struct onnx_sparse_msg v;
    if (!onnx__check_sparse(m, &v, w->err))
        return false;
    if (v.has_values) {
        t->has_elem_type = v.values.has_data_type;
        t->elem_type = v.values.data_type;
        t->name =
            v.values.has_name ? onnx__pb_bytes(w->base, &v.values.name) : (struct onnx_bytes){0};
        t->has_name = v.values.has_name;
    }
    t->value = ONNX_V_SPARSE_TENSOR;
    t->form = ONNX_DIMS_REPEAT;
    t->dims = *m;
    t->field = ONNXF_SPARSE_DIMS;
    t->rank = v.rank;
    return true;
}

/* A TypeProto (merged): a tensor's element type and shape, or what else it
 * is (a sparse tensor type is no DirectML tensor, but checked whole). */
static void type_record(const struct onnx_type_msg *v, struct onnx_tensor *t)
{
    t->value = v->value;
    if (v->which != ONNXF_TYPE_TENSOR_TYPE)
        return;
    if (v->has_elem_type) {
        t->has_elem_type = true;
        t->elem_type = v->elem_type;
    }
    if (v->has_shape) {
        t->form = ONNX_DIMS_SHAPE;
        t->dims = v->shape;
        t->rank = v->rank;
    }
}

static bool walk_value_info(struct onnx__walk *w, const struct pb_msg *m, enum onnx_kind kind)
{
    struct onnx_tensor t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.value = ONNX_V_UNTYPED;
    t.form = ONNX_DIMS_NONE;
    struct onnx_value_info_msg v;
    if (!onnx__check_value_info(m, &v, w->err))
        return false;
    if (v.has_name) {
        t.name = onnx__pb_bytes(w->base, &v.name);
        t.has_name = true;
    }
    if (v.has_type)
        type_record(&v.type, &t);
    return emit(w, &t);
}

static bool walk_graph(struct onnx__walk *w, const struct pb_msg *m, bool main);

/* The Constant value_* attributes that are no TensorProto: a scalar or a
 * list of FLOAT, INT64 or STRING. */
static const struct {
    const char *name;
    int32_t elem_type; /* TensorProto.DataType */
    unsigned field;    /* AttributeProto's */
} constant_values[] = {
    {"value_float", 1, ONNXF_ATTR_F},  {"value_floats", 1, ONNXF_ATTR_FLOATS},
    {"value_int", 7, ONNXF_ATTR_I},    {"value_ints", 7, ONNXF_ATTR_INTS},
    {"value_string", 8, ONNXF_ATTR_S}, {"value_strings", 8, ONNXF_ATTR_STRINGS},
};

/* A Constant's value_* attribute as a record: a scalar, or a list of its
 * count. */
static bool constant_value(struct onnx__walk *w, const struct onnx_attr_msg *a,
                           struct onnx_tensor *t)
{
    const struct onnx_bytes name = onnx__pb_bytes(w->base, &a->name);
    for (size_t i = 0; i < sizeof constant_values / sizeof *constant_values; i++) {
        if (!onnx_bytes_is(name, constant_values[i].name))
            continue;
        const unsigned field = constant_values[i].field;
        t->value = ONNX_V_TENSOR;
        t->has_elem_type = true;
        t->elem_type = constant_values[i].elem_type;
        t->form = ONNX_DIMS_COUNT;
        t->rank =
            field == ONNXF_ATTR_FLOATS || field == ONNXF_ATTR_INTS || field == ONNXF_ATTR_STRINGS;
        t->count = field == ONNXF_ATTR_FLOATS ? a->n_floats
                   : field == ONNXF_ATTR_INTS ? a->n_ints
                                              : a->n_strings;
        return emit(w, t);
    }
    return true;
}

/* A Constant's value (its attribute's t) or sparse_value (sparse_tensor)
 * as its record, named by t (the node's output). */
static bool constant_tensor(struct onnx__walk *w, const struct pb_msg *m, unsigned field,
                            const struct onnx_tensor *t)
{
    struct onnx_tensor v = *t;
    struct pb_msg sub;
    if (!onnx__pb_sub(m, field, &sub, w->err) ||
        !(field == ONNXF_ATTR_T ? read_tensor(w, &sub, &v) : read_sparse(w, &sub, &v)))
        return false;
    v.name = t->name;
    v.has_name = t->has_name;
    return emit(w, &v);
}

/* The tensors of an attribute: t and sparse_tensor (a Constant's value and
 * sparse_value records), tensors (checked), as the model reader reads
 * them. */
static bool attribute_tensors(struct onnx__walk *w, const struct pb_msg *m,
                              const struct onnx_attr_msg *a, bool value, bool sparse,
                              const struct onnx_tensor *t)
{
    struct onnx_tensor v = *t;
    struct pb_msg sub;
    if (a->has_t && !value &&
        (!onnx__pb_sub(m, ONNXF_ATTR_T, &sub, w->err) || !read_tensor(w, &sub, &v)))
        return false;
    if (a->has_sparse_tensor && !sparse &&
        (!onnx__pb_sub(m, ONNXF_ATTR_SPARSE_TENSOR, &sub, w->err) || !read_sparse(w, &sub, &v)))
        return false;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err))
        if (f.number == ONNXF_ATTR_TENSORS &&
            (!onnx__element(m, &f, &sub, w->err) || !read_tensor(w, &sub, &v)))
            return false;
    if (it.failed)
        return false;
    return (!value || !a->has_t || constant_tensor(w, m, ONNXF_ATTR_T, t)) &&
           (!sparse || !a->has_sparse_tensor || constant_tensor(w, m, ONNXF_ATTR_SPARSE_TENSOR, t));
}

/* ---- the pieces both drivers call (onnx_wire_int.h) ------------------------ */

void onnx__walk_path_index(struct onnx__walk *w, uint64_t k)
{
    path_putc(w, '[');
    path_u64(w, k);
    path_putc(w, ']');
}

void onnx__walk_path_back(struct onnx__walk *w, size_t mark)
{
    w->path.len = mark;
}

bool onnx__walk_attribute(struct onnx__walk *w, const struct pb_msg *m,
                          const struct onnx_attr_msg *a, bool constant,
                          const struct onnx_bytes *output0, size_t *mark)
{
    *mark = w->path.len;
    path_putc(w, '.');
    if (a->has_name)
        path_put_bytes(w, w->base + a->name.start, a->name.end - a->name.start);
    struct onnx_tensor t;
    memset(&t, 0, sizeof t);
    t.kind = ONNX_CONSTANT;
    if (output0) {
        t.name = *output0;
        t.has_name = true;
    }
    const struct onnx_bytes name = onnx__pb_bytes(w->base, &a->name);
    constant = constant && a->has_name;
    return attribute_tensors(w, m, a, constant && onnx_bytes_is(name, "value"),
                             constant && onnx_bytes_is(name, "sparse_value"), &t) &&
           (!constant || constant_value(w, a, &t)) && !w->path.failed;
}

bool onnx__walk_node(struct onnx__walk *w, uint32_t index, const struct onnx_node_msg *v,
                     size_t *mark, bool *constant)
{
    const struct onnx_bytes op = onnx__pb_bytes(w->base, &v->op_type);
    *constant = v->has_op_type && onnx__is_constant_op(op, onnx__pb_bytes(w->base, &v->domain));
    *mark = w->path.len;
    w->node = index;
    path_push_index(w, "node", index);
    if (v->has_op_type) {
        path_puts(w, " (");
        path_put_bytes(w, op.p, op.n);
        path_putc(w, ')');
    }
    if (w->node_fn) { /* before the node's subgraphs, after nothing of it */
        path_putc(w, '\0');
        if (w->path.failed)
            return false;
        answer(w, w->node_fn(w->ctx, w->graph, w->node, w->path.data));
        w->path.len--;
    }
    return !w->path.failed;
}

/* The kinds of a graph's fields, in the order of the records: the values'
 * kinds, then the nodes. */
static const struct {
    unsigned field;
    const char *name;
    enum onnx_kind kind;
} passes[] = {{ONNXF_GRAPH_INPUT, "input", ONNX_INPUT},
              {ONNXF_GRAPH_OUTPUT, "output", ONNX_OUTPUT},
              {ONNXF_GRAPH_INITIALIZER, "initializer", ONNX_INITIALIZER},
              {ONNXF_GRAPH_SPARSE_INITIALIZER, "sparse_initializer", ONNX_SPARSE_INITIALIZER},
              {ONNXF_GRAPH_VALUE_INFO, "value_info", ONNX_VALUE_INFO}};
enum { N_PASSES = sizeof passes / sizeof *passes };

/* One value of a graph (field f, of the kind passes[p]): checked, its
 * record given. */
static bool graph_value(struct onnx__walk *w, const struct pb_msg *m, const struct pb_field *f,
                        size_t p)
{
    struct pb_msg e;
    if (!onnx__element(m, f, &e, w->err))
        return false;
    struct onnx_tensor t;
    memset(&t, 0, sizeof t);
    t.kind = passes[p].kind;
    switch (f->number) {
    case ONNXF_GRAPH_INITIALIZER:
        return read_tensor(w, &e, &t) && emit(w, &t);
    case ONNXF_GRAPH_SPARSE_INITIALIZER:
        return read_sparse(w, &e, &t) && emit(w, &t);
    default:
        return walk_value_info(w, &e, t.kind);
    }
}

/* Where each kind's fields begin and end in m: a pass reads only that
 * span (exporters write each kind together: the initializers' pages are
 * then not read again for the inputs). */
static bool graph_spans(struct onnx__walk *w, const struct pb_msg *m, bool main,
                        size_t from[N_PASSES], size_t to[N_PASSES])
{
    for (size_t p = 0; p < N_PASSES; p++) {
        from[p] = SIZE_MAX;
        to[p] = 0;
    }
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        for (size_t p = 0; p < N_PASSES; p++) {
            if (f.number != passes[p].field)
                continue;
            if (from[p] == SIZE_MAX)
                from[p] = f.at;
            to[p] = f.end;
        }
        if (w->release && main)
            w->release(w->release_ctx, f.end);
    }
    return !it.failed;
}

bool onnx__walk_values(struct onnx__walk *w, const struct pb_msg *m, bool main)
{
    /* One pass per kind, for records in that order; a check (no fn) needs
     * one pass for all: fewer pages touched. */
    size_t from[N_PASSES], to[N_PASSES];
    if (w->fn && !graph_spans(w, m, main, from, to))
        return false;
    const size_t n_passes = w->fn ? N_PASSES : 1;
    for (size_t p = 0; p < n_passes && !w->stop; p++) {
        struct pb_msg span = *m;
        if (w->fn && from[p] == SIZE_MAX)
            continue; /* none of this kind */
        if (w->fn) {
            span.from = from[p];
            span.to = to[p];
        }
        struct pb_iter it;
        struct pb_field f;
        uint64_t counts[N_PASSES] = {0};
        onnx__pb_iter_begin(&it, &span);
        while (!w->stop && onnx__pb_iter_next(&it, &f, w->err)) {
            bool ok = true;
            const bool known = onnx__graph_field(&f, &ok, w->err);
            if (!ok)
                return false;
            size_t q = known ? p : N_PASSES;
            while (q < N_PASSES && f.number != passes[q].field)
                q += w->fn ? N_PASSES : 1; /* a check reads every kind in one pass */
            if (q < N_PASSES) {
                const size_t mark = w->path.len;
                path_push_index(w, passes[q].name, counts[q]++);
                if (!graph_value(w, m, &f, q))
                    return false;
                w->path.len = mark;
            }
            if (w->release && main) /* the main graph */
                w->release(w->release_ctx, f.end);
        }
        if (it.failed)
            return false;
    }
    return !w->path.failed;
}

void onnx__walk_begin(struct onnx__walk *w, const uint8_t *base, onnx_tensor_fn fn,
                      onnx_node_fn node_fn, onnx_release_fn release, void *ctx,
                      struct onnx_error *err)
{
    memset(w, 0, sizeof *w);
    w->base = base;
    w->fn = fn;
    w->node_fn = node_fn;
    w->release = release;
    w->release_ctx = ctx;
    w->ctx = ctx;
    w->err = err;
    w->path.off = fn == NULL && node_fn == NULL;
    path_puts(w, "graph");
}

bool onnx__walk_end(struct onnx__walk *w, bool ok, bool *out_of_memory)
{
    *out_of_memory = w->path.failed;
    free(w->path.data);
    w->path.data = NULL;
    if (ok && w->fn_fails) {
        w->err->callback = true;
        static const char why[] = "the walk's callback failed";
        memcpy(w->err->message, why, sizeof why);
        return false;
    }
    return ok && !*out_of_memory;
}

/* ---- the walk: the pieces, driven by the bytes alone ----------------------- */

/* An attribute: for a Constant node, its value; then the graphs in it. */
static bool walk_attribute(struct onnx__walk *w, const struct pb_msg *m, bool constant,
                           const struct onnx_bytes *output0)
{
    struct onnx_attr_msg a;
    size_t mark;
    if (!onnx__check_attribute(m, &a, w->err) ||
        !onnx__walk_attribute(w, m, &a, constant, output0, &mark))
        return false;
    struct pb_msg sub;
    if (a.has_g && !w->stop &&
        (!onnx__pb_sub(m, ONNXF_ATTR_G, &sub, w->err) || !walk_graph(w, &sub, false)))
        return false;
    struct pb_iter it;
    struct pb_field f;
    uint64_t graphs = 0;
    onnx__pb_iter_begin(&it, m);
    while (!w->stop && onnx__pb_iter_next(&it, &f, w->err)) {
        if (f.number != ONNXF_ATTR_GRAPHS)
            continue;
        const size_t at = w->path.len;
        onnx__walk_path_index(w, graphs++);
        if (!onnx__element(m, &f, &sub, w->err) || !walk_graph(w, &sub, false))
            return false;
        w->path.len = at;
    }
    if (it.failed)
        return false;
    w->path.len = mark;
    return true;
}

static bool walk_node(struct onnx__walk *w, const struct pb_msg *m, uint32_t index)
{
    struct onnx_node_msg v;
    size_t mark;
    bool constant;
    if (!onnx__check_node(m, &v, w->err) || !onnx__walk_node(w, index, &v, &mark, &constant))
        return false;
    const struct onnx_bytes out0 = onnx__pb_bytes(w->base, &v.output0);
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    onnx__pb_iter_begin(&it, m);
    while (!w->stop && onnx__pb_iter_next(&it, &f, w->err))
        if (f.number == ONNXF_NODE_ATTRIBUTE &&
            (!onnx__element(m, &f, &e, w->err) ||
             !walk_attribute(w, &e, constant, v.has_output ? &out0 : NULL)))
            return false;
    if (it.failed)
        return false;
    w->path.len = mark;
    return true;
}

/* A graph's nodes, in order. */
static bool walk_nodes(struct onnx__walk *w, const struct pb_msg *m, bool main)
{
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    uint32_t i = 0;
    onnx__pb_iter_begin(&it, m);
    while (!w->stop && onnx__pb_iter_next(&it, &f, w->err)) {
        bool ok = true;
        if (f.number == ONNXF_GRAPH_NODE &&
            (!onnx__graph_field(&f, &ok, w->err) || !ok || !onnx__element(m, &f, &e, w->err) ||
             !walk_node(w, &e, i++)))
            return false;
        if (w->release && main)
            w->release(w->release_ctx, f.end);
    }
    return !it.failed;
}

/* A graph, numbered in the order graphs are entered (the main graph 0,
 * then each subgraph as its node is walked: the model reader's order). */
static bool walk_graph(struct onnx__walk *w, const struct pb_msg *m, bool main)
{
    const uint32_t outer = w->graph, outer_node = w->node;
    w->graph = w->graphs++;
    const bool ok = onnx__walk_values(w, m, main) && (w->stop || walk_nodes(w, m, main));
    w->graph = outer;
    w->node = outer_node;
    return ok;
}

bool onnx_walk(const uint8_t *data, size_t len, onnx_tensor_fn fn, onnx_release_fn release,
               void *ctx, struct onnx_error *err, bool *out_of_memory)
{
    return onnx_walk_nodes(data, len, fn, NULL, release, ctx, err, out_of_memory);
}

bool onnx_walk_nodes(const uint8_t *data, size_t len, onnx_tensor_fn fn, onnx_node_fn node_fn,
                     onnx_release_fn release, void *ctx, struct onnx_error *err,
                     bool *out_of_memory)
{
    memset(err, 0, sizeof *err);
    *out_of_memory = false;
    onnx__pb_count_pass(ONNX_READER_WALK);
    const struct pb_msg root = onnx__pb_root(data, 0, len, 0);
    struct onnx_model_msg model;
    if (!onnx__check_model(&root, &model, err))
        return false;
    struct onnx__walk w;
    onnx__walk_begin(&w, data, fn, node_fn, release, ctx, err);
    return onnx__walk_end(&w, walk_graph(&w, &model.graph, true), out_of_memory);
}
