/* onnx_wire.c - an ONNX model's tensors from the protobuf wire format, in
 * place (see onnx_wire.h). Field numbers are those of onnx.proto (Debian's
 * libonnx-dev ships it as /usr/include/onnx/onnx.proto):
 *
 *   ModelProto       graph 7
 *   GraphProto       node 1, initializer 5, input 11, output 12,
 *                    value_info 13, sparse_initializer 15
 *   NodeProto        input 1, output 2, name 3, op_type 4, attribute 5,
 *                    domain 7
 *   AttributeProto   name 1, f 2, i 3, s 4, t 5, g 6, floats 7, ints 8,
 *                    strings 9, tensors 10, graphs 11, type 20,
 *                    sparse_tensor 22, sparse_tensors 23
 *   TensorProto      dims 1 (packed or not), data_type 2, name 8,
 *                    data_location 14; raw_data 9, the typed data fields
 *                    and external_data 13 skipped by length, unread
 *   SparseTensorProto values 1 (a TensorProto), indices 2, dims 3
 *   ValueInfoProto   name 1, type 2
 *   TypeProto        tensor_type 1; sequence_type 4, map_type 5,
 *                    sparse_tensor_type 8, optional_type 9 (not tensors)
 *   TypeProto.Tensor elem_type 1, shape 2
 *   TensorShapeProto dim 1; Dimension dim_value 1, dim_param 2
 *
 * Fields this reader does not know are skipped by their wire type, and
 * checked as far as that goes (a length inside its message, a varint of at
 * most 10 bytes). Every read is bounded by the end of the enclosing
 * message, which is bounded by the file. */
#include "onnx_wire.h"
#include "pb.h"

#include <stdlib.h>
#include <string.h>

/* The path of the value being read: grows as the walk goes down. */
struct path {
    char *data;
    size_t len, cap;
    bool failed; /* out of memory: the walk stops */
};

struct walk {
    const uint8_t *base;
    onnx_tensor_fn fn;
    onnx_release_fn release;
    onnx_node_fn node_fn;
    void *ctx;
    struct path path;
    uint32_t graphs; /* graphs entered so far: the next one's index */
    uint32_t graph;  /* the index of the graph being walked */
    uint32_t node;   /* the index of the node being walked, in its graph */
    struct onnx_error *err;
    unsigned depth;
    bool stop;
};

/* A repeated int64 (dims) of m: adds the count of its values, packed or
 * not, to *n. */
static bool count_int64s(struct walk *w, const struct pb_msg *m, unsigned number, const char *what,
                         uint64_t *n)
{
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        if (f.number != number)
            continue;
        if (f.wt == PB_VARINT) {
            (*n)++;
            continue;
        }
        if (!onnx__pb_want(&f, PB_LEN, what, w->err))
            return false;
        struct pb r = {w->base, f.start, f.end};
        while (r.pos < r.end) {
            uint64_t v;
            if (!onnx__pb_varint(&r, &v, w->err))
                return false;
            (*n)++;
        }
    }
    return !it.failed;
}

/* ---- the path ------------------------------------------------------------ */

/* Text from the model in a path: a NUL would end it early, so it is shown
 * as '?'; everything else goes as it is (JSON output escapes it). */
static void path_put(struct path *b, const char *s, size_t n)
{
    if (b->failed)
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

static void path_putc(struct walk *w, char c)
{
    path_put(&w->path, &c, 1);
}

static void path_puts(struct walk *w, const char *s)
{
    path_put(&w->path, s, strlen(s));
}

static void path_u64(struct walk *w, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[sizeof digits - ++n] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    path_put(&w->path, digits + sizeof digits - n, n);
}

static void path_put_bytes(struct walk *w, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        path_putc(w, (char)(p[i] ? p[i] : '?'));
}

static void path_push_index(struct walk *w, const char *name, uint64_t i)
{
    path_putc(w, '.');
    path_puts(w, name);
    path_putc(w, '[');
    path_u64(w, i);
    path_putc(w, ']');
}

/* An element of a repeated message field of m (a node, a value...): a
 * message of its own, one level deeper. */
static bool element(struct walk *w, const struct pb_msg *m, const struct pb_field *f,
                    struct pb_msg *e)
{
    if (onnx__pb_depth(m) + 1 > PB_MAX_DEPTH)
        return onnx__pb_too_deep(w->err, f->at);
    *e = onnx__pb_root(w->base, f->start, f->end, onnx__pb_depth(m) + 1);
    return true;
}

static bool emit(struct walk *w, struct onnx_tensor *t)
{
    if (w->fn == NULL)
        return true;
    path_putc(w, '\0');
    if (w->path.failed)
        return false;
    t->path = w->path.data;
    t->graph = w->graph;
    if (!w->fn(w->ctx, t))
        w->stop = true;
    w->path.len--;
    return true;
}

/* ---- messages ------------------------------------------------------------ */

/* A TensorProto (merged): its type, dims, name, and whether its data is
 * external. */
static bool read_tensor(struct walk *w, const struct pb_msg *m, struct onnx_tensor *t)
{
    t->value = ONNX_V_TENSOR;
    t->form = ONNX_DIMS_REPEAT;
    t->dims = *m;
    t->field = 1;
    t->rank = 0;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        bool ok = true;
        switch (f.number) {
        case 2:
            ok = onnx__pb_want(&f, PB_VARINT, "TensorProto.data_type", w->err);
            t->has_elem_type = true;
            t->elem_type = (int32_t)(uint32_t)f.v;
            break;
        case 8:
            ok = onnx__pb_want(&f, PB_LEN, "TensorProto.name", w->err);
            t->name = onnx__pb_bytes(w->base, &f);
            t->has_name = true;
            break;
        case 14:
            ok = onnx__pb_want(&f, PB_VARINT, "TensorProto.data_location", w->err);
            t->external = f.v == 1;
            break;
        case 9:
        case 13:
            ok = onnx__pb_want(&f, PB_LEN,
                               f.number == 9 ? "TensorProto.raw_data" : "TensorProto.external_data",
                               w->err);
            break;
        default:
            break; /* dims below; the data fields and the rest: skipped unread */
        }
        if (!ok)
            return false;
    }
    return !it.failed && count_int64s(w, m, 1, "TensorProto.dims", &t->rank);
}

/* A SparseTensorProto (merged): the dense dims, the values' type and name. */
static bool read_sparse(struct walk *w, const struct pb_msg *m, struct onnx_tensor *t)
{
    struct pb_iter it;
    struct pb_field f;
    bool has_values = false;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        if (f.number == 1 && !onnx__pb_want(&f, PB_LEN, "SparseTensorProto.values", w->err))
            return false;
        if (f.number == 2 && !onnx__pb_want(&f, PB_LEN, "SparseTensorProto.indices", w->err))
            return false;
        has_values = has_values || f.number == 1;
    }
    if (it.failed)
        return false;
    if (has_values) {
        struct pb_msg vm;
        struct onnx_tensor values;
        memset(&values, 0, sizeof values);
        if (!onnx__pb_sub(m, 1, &vm, w->err) || !read_tensor(w, &vm, &values))
            return false;
        t->has_elem_type = values.has_elem_type;
        t->elem_type = values.elem_type;
        t->name = values.name;
        t->has_name = values.has_name;
    }
    t->value = ONNX_V_SPARSE_TENSOR;
    t->form = ONNX_DIMS_REPEAT;
    t->dims = *m;
    t->field = 3;
    t->rank = 0;
    return count_int64s(w, m, 3, "SparseTensorProto.dims", &t->rank);
}

/* A TensorShapeProto (merged): its dims counted, each Dimension checked. */
static bool read_shape(struct walk *w, const struct pb_msg *m, struct onnx_tensor *t)
{
    struct pb_iter it;
    struct pb_field f, g;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        if (f.number != 1)
            continue;
        if (!onnx__pb_want(&f, PB_LEN, "TensorShapeProto.dim", w->err))
            return false;
        if (onnx__pb_depth(m) + 1 > PB_MAX_DEPTH)
            return onnx__pb_too_deep(w->err, f.at);
        t->rank++;
        struct pb d = {w->base, f.start, f.end};
        while (d.pos < d.end) {
            if (!onnx__pb_next(&d, &g, w->err))
                return false;
            if ((g.number == 1 && !onnx__pb_want(&g, PB_VARINT, "Dimension.dim_value", w->err)) ||
                (g.number == 2 && !onnx__pb_want(&g, PB_LEN, "Dimension.dim_param", w->err)))
                return false;
        }
    }
    return !it.failed;
}

/* TypeProto.Tensor (merged): elem_type and shape. */
static bool read_tensor_type(struct walk *w, const struct pb_msg *m, struct onnx_tensor *t)
{
    struct pb_iter it;
    struct pb_field f;
    bool has_shape = false;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        if (f.number == 1) {
            if (!onnx__pb_want(&f, PB_VARINT, "TypeProto.Tensor.elem_type", w->err))
                return false;
            t->has_elem_type = true;
            t->elem_type = (int32_t)(uint32_t)f.v;
        } else if (f.number == 2) {
            if (!onnx__pb_want(&f, PB_LEN, "TypeProto.Tensor.shape", w->err))
                return false;
            has_shape = true;
        }
    }
    if (it.failed || !has_shape)
        return !it.failed;
    t->form = ONNX_DIMS_SHAPE;
    return onnx__pb_sub(m, 2, &t->dims, w->err) && read_shape(w, &t->dims, t);
}

/* A TypeProto (merged): a tensor's element type and shape, or what else it
 * is. Its cases are a oneof: a case given after another clears it. */
static bool read_type(struct walk *w, const struct pb_msg *m, struct onnx_tensor *t)
{
    struct pb_iter it;
    struct pb_field f;
    unsigned which = 0;
    size_t from = m->from;
    t->value = ONNX_V_OTHER_TYPE;
    t->has_elem_type = false;
    t->form = ONNX_DIMS_NONE;
    t->rank = 0;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        enum onnx_value v;
        switch (f.number) {
        case 1:
            v = ONNX_V_TENSOR;
            break;
        case 4:
            v = ONNX_V_SEQUENCE;
            break;
        case 5:
            v = ONNX_V_MAP;
            break;
        case 8:
            v = ONNX_V_SPARSE_TYPE;
            break;
        case 9:
            v = ONNX_V_OPTIONAL;
            break;
        default:
            continue;
        }
        if (!onnx__pb_want(&f, PB_LEN, "a TypeProto case", w->err))
            return false;
        if (f.number != which)
            from = f.at;
        which = f.number;
        t->value = v;
    }
    if (it.failed || (which != 1 && which != 8))
        return !it.failed;
    struct pb_msg tensor;
    if (!onnx__pb_sub(m, which, &tensor, w->err))
        return false;
    tensor.from = from;
    if (which == 1)
        return read_tensor_type(w, &tensor, t);
    /* sparse_tensor_type: no DirectML tensor, but checked as the model
     * reader reads it */
    struct onnx_tensor sparse;
    memset(&sparse, 0, sizeof sparse);
    return read_tensor_type(w, &tensor, &sparse);
}

static bool walk_value_info(struct walk *w, const struct pb_msg *m, enum onnx_kind kind)
{
    struct onnx_tensor t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.value = ONNX_V_UNTYPED;
    t.form = ONNX_DIMS_NONE;
    struct pb_iter it;
    struct pb_field f;
    bool typed = false;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        if (f.number == 1) {
            if (!onnx__pb_want(&f, PB_LEN, "ValueInfoProto.name", w->err))
                return false;
            t.name = onnx__pb_bytes(w->base, &f);
            t.has_name = true;
        } else if (f.number == 2) {
            if (!onnx__pb_want(&f, PB_LEN, "ValueInfoProto.type", w->err))
                return false;
            typed = true;
        }
    }
    if (it.failed)
        return false;
    struct pb_msg type;
    if (typed && (!onnx__pb_sub(m, 2, &type, w->err) || !read_type(w, &type, &t)))
        return false;
    return emit(w, &t);
}

static bool walk_graph(struct walk *w, const struct pb_msg *m, bool main);

/* The Constant value_* attributes that are no TensorProto: a scalar or a
 * list of FLOAT, INT64 or STRING. */
static const struct {
    const char *name;
    int32_t elem_type; /* TensorProto.DataType */
    unsigned field;    /* AttributeProto's */
    bool list;
} constant_values[] = {
    {"value_float", 1, 2, false}, {"value_floats", 1, 7, true},  {"value_int", 7, 3, false},
    {"value_ints", 7, 8, true},   {"value_string", 8, 4, false}, {"value_strings", 8, 9, true},
};

/* An attribute's fields, their wire types checked: its name (the last),
 * which message fields it has, and (a value_* of a Constant) the count of
 * field `count_field`'s values. */
static bool attribute_fields(struct walk *w, const struct pb_msg *m, struct pb_field *name,
                             bool *has_name, unsigned *has)
{
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        bool ok = true;
        switch (f.number) {
        case 1:
            ok = onnx__pb_want(&f, PB_LEN, "AttributeProto.name", w->err);
            *name = f;
            *has_name = true;
            break;
        case 2:
            ok = onnx__pb_want(&f, PB_FIXED32, "AttributeProto.f", w->err);
            break;
        case 3:
        case 20:
            ok = onnx__pb_want(&f, PB_VARINT,
                               f.number == 3 ? "AttributeProto.i" : "AttributeProto.type", w->err);
            break;
        case 4:
        case 5:
        case 6:
        case 9:
        case 10:
        case 11:
        case 22:
        case 23:
            ok = onnx__pb_want(&f, PB_LEN, "an AttributeProto field", w->err);
            if (f.number == 5 || f.number == 6 || f.number == 22)
                *has |= 1u << (f.number == 22 ? 7 : f.number);
            break;
        case 7:
            if (f.wt != PB_FIXED32)
                ok = onnx__pb_want(&f, PB_LEN, "AttributeProto.floats", w->err);
            if (ok && f.wt == PB_LEN && (f.end - f.start) % 4 != 0)
                ok = onnx__pb_fail(w->err, f.at,
                                   "AttributeProto.floats: %zu bytes, not a multiple of 4",
                                   f.end - f.start);
            break;
        case 8:
            if (f.wt != PB_VARINT)
                ok = onnx__pb_want(&f, PB_LEN, "AttributeProto.ints", w->err);
            break;
        default:
            break;
        }
        if (!ok)
            return false;
    }
    return !it.failed;
}

/* The count of a Constant's value_* list (or 1 for a scalar given). */
static bool constant_count(struct walk *w, const struct pb_msg *m, unsigned field, uint64_t *count)
{
    if (field == 8)
        return count_int64s(w, m, 8, "AttributeProto.ints", count);
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err))
        if (f.number == field)
            *count += f.number == 7 && f.wt == PB_LEN ? (f.end - f.start) / 4 : 1;
    return !it.failed;
}

/* The tensors of an attribute that are no Constant's value (t, tensors,
 * sparse_tensor), read for their damage only: as the model reader does. */
static bool check_tensors(struct walk *w, const struct pb_msg *m, unsigned has, bool value)
{
    struct onnx_tensor t;
    struct pb_msg sub;
    memset(&t, 0, sizeof t);
    if (!value && (has & 1u << 5) &&
        (!onnx__pb_sub(m, 5, &sub, w->err) || !read_tensor(w, &sub, &t)))
        return false;
    if (!value && (has & 1u << 7) &&
        (!onnx__pb_sub(m, 22, &sub, w->err) || !read_sparse(w, &sub, &t)))
        return false;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err))
        if (f.number == 10 && (!element(w, m, &f, &sub) || !read_tensor(w, &sub, &t)))
            return false;
    return !it.failed;
}

/* An attribute: for a Constant node, its value; then the graphs in it. */
static bool walk_attribute(struct walk *w, const struct pb_msg *m, bool constant,
                           const struct onnx_bytes *output0)
{
    struct pb_field name = {0};
    bool has_name = false;
    unsigned has = 0; /* bits: 5 t, 6 g, 7 sparse_tensor */
    if (!attribute_fields(w, m, &name, &has_name, &has))
        return false;
    const size_t mark = w->path.len;
    path_putc(w, '.');
    if (has_name)
        path_put_bytes(w, w->base + name.start, name.end - name.start);
    struct onnx_tensor t;
    memset(&t, 0, sizeof t);
    t.kind = ONNX_CONSTANT;
    if (output0) {
        t.name = *output0;
        t.has_name = true;
    }
    const bool value = constant && has_name && onnx__pb_bytes_are(w->base, &name, "value");
    const bool sparse = constant && has_name && onnx__pb_bytes_are(w->base, &name, "sparse_value");
    struct pb_msg sub;
    if (!check_tensors(w, m, has, value || sparse))
        return false;
    if (value && (has & 1u << 5)) {
        struct onnx_tensor v = t;
        if (!onnx__pb_sub(m, 5, &sub, w->err) || !read_tensor(w, &sub, &v))
            return false;
        v.name = t.name;
        v.has_name = t.has_name;
        if (!emit(w, &v))
            return false;
    }
    if (sparse && (has & 1u << 7)) {
        struct onnx_tensor v = t;
        if (!onnx__pb_sub(m, 22, &sub, w->err) || !read_sparse(w, &sub, &v))
            return false;
        v.name = t.name;
        v.has_name = t.has_name;
        if (!emit(w, &v))
            return false;
    }
    for (size_t i = 0; constant && has_name && i < sizeof constant_values / sizeof *constant_values;
         i++) {
        if (!onnx__pb_bytes_are(w->base, &name, constant_values[i].name))
            continue;
        t.value = ONNX_V_TENSOR;
        t.has_elem_type = true;
        t.elem_type = constant_values[i].elem_type;
        t.form = ONNX_DIMS_COUNT;
        t.rank = constant_values[i].list ? 1 : 0;
        if (!constant_count(w, m, constant_values[i].field, &t.count) || !emit(w, &t))
            return false;
    }
    if ((has & 1u << 6) && !w->stop &&
        (!onnx__pb_sub(m, 6, &sub, w->err) || !walk_graph(w, &sub, false)))
        return false;
    struct pb_iter it;
    struct pb_field f;
    uint64_t graphs = 0;
    onnx__pb_iter_begin(&it, m);
    while (!w->stop && onnx__pb_iter_next(&it, &f, w->err)) {
        if (f.number != 11)
            continue;
        const size_t at = w->path.len;
        path_putc(w, '[');
        path_u64(w, graphs++);
        path_putc(w, ']');
        if (!element(w, m, &f, &sub) || !walk_graph(w, &sub, false))
            return false;
        w->path.len = at;
    }
    if (it.failed)
        return false;
    w->path.len = mark;
    return true;
}

static bool walk_node(struct walk *w, const struct pb_msg *m)
{
    static const char *const what[] = {NULL,
                                       "NodeProto.input",
                                       "NodeProto.output",
                                       "NodeProto.name",
                                       "NodeProto.op_type",
                                       "NodeProto.attribute",
                                       "NodeProto.doc_string",
                                       "NodeProto.domain"};
    struct pb_iter it;
    struct pb_field f, op = {0}, domain = {0}, output0 = {0};
    bool has_op = false, has_output = false;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        if (f.number >= 1 && f.number <= 7 && !onnx__pb_want(&f, PB_LEN, what[f.number], w->err))
            return false;
        if (f.number == 2 && !has_output) {
            output0 = f;
            has_output = true;
        } else if (f.number == 4) {
            op = f;
            has_op = true;
        } else if (f.number == 7) {
            domain = f;
        }
    }
    if (it.failed)
        return false;
    const bool constant =
        has_op && onnx__pb_bytes_are(w->base, &op, "Constant") &&
        (domain.end == domain.start || onnx__pb_bytes_are(w->base, &domain, "ai.onnx"));
    const size_t mark = w->path.len;
    if (has_op) {
        path_puts(w, " (");
        path_put_bytes(w, w->base + op.start, op.end - op.start);
        path_putc(w, ')');
    }
    if (w->node_fn) { /* before the node's subgraphs, after nothing of it */
        path_putc(w, '\0');
        if (w->path.failed)
            return false;
        if (!w->node_fn(w->ctx, w->graph, w->node, w->path.data))
            w->stop = true;
        w->path.len--;
    }
    const struct onnx_bytes out0 = onnx__pb_bytes(w->base, &output0);
    struct pb_msg e;
    onnx__pb_iter_begin(&it, m);
    while (!w->stop && onnx__pb_iter_next(&it, &f, w->err))
        if (f.number == 5 &&
            (!element(w, m, &f, &e) || !walk_attribute(w, &e, constant, has_output ? &out0 : NULL)))
            return false;
    if (it.failed)
        return false;
    w->path.len = mark;
    return true;
}

static const struct {
    unsigned field;
    const char *name;
} passes[] = {{11, "input"},      {12, "output"}, {5, "initializer"}, {15, "sparse_initializer"},
              {13, "value_info"}, {1, "node"}};
enum { N_PASSES = sizeof passes / sizeof *passes };

/* One field of a graph: its value's record, or its node's. */
static bool graph_field(struct walk *w, const struct pb_msg *m, const struct pb_field *f)
{
    struct pb_msg e;
    if (!element(w, m, f, &e))
        return false;
    struct onnx_tensor t;
    memset(&t, 0, sizeof t);
    switch (f->number) {
    case 11:
        return walk_value_info(w, &e, ONNX_INPUT);
    case 12:
        return walk_value_info(w, &e, ONNX_OUTPUT);
    case 13:
        return walk_value_info(w, &e, ONNX_VALUE_INFO);
    case 5:
        t.kind = ONNX_INITIALIZER;
        return read_tensor(w, &e, &t) && emit(w, &t);
    case 15:
        t.kind = ONNX_SPARSE_INITIALIZER;
        return read_sparse(w, &e, &t) && emit(w, &t);
    default:
        return walk_node(w, &e);
    }
}

/* Where each kind's fields begin and end in m: a pass reads only that
 * span (exporters write each kind together: the initializers' pages are
 * then not read again for the inputs). */
static bool graph_spans(struct walk *w, const struct pb_msg *m, bool main, size_t from[N_PASSES],
                        size_t to[N_PASSES])
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
            w->release(w->ctx, f.end);
    }
    return !it.failed;
}

static bool walk_graph_passes(struct walk *w, const struct pb_msg *m, bool main);

/* A graph, numbered in the order graphs are entered (the main graph 0,
 * then each subgraph as its node is walked: the model reader's order). */
static bool walk_graph(struct walk *w, const struct pb_msg *m, bool main)
{
    const uint32_t outer = w->graph, outer_node = w->node;
    w->graph = w->graphs++;
    const bool ok = walk_graph_passes(w, m, main);
    w->graph = outer;
    w->node = outer_node;
    return ok;
}

static bool walk_graph_passes(struct walk *w, const struct pb_msg *m, bool main)
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
        uint64_t i = 0;
        onnx__pb_iter_begin(&it, &span);
        while (!w->stop && onnx__pb_iter_next(&it, &f, w->err)) {
            bool mine = f.number == passes[p].field;
            for (size_t q = 0; !w->fn && q < N_PASSES; q++)
                mine = mine || f.number == passes[q].field;
            if (mine && !onnx__pb_want(&f, PB_LEN, "a GraphProto field", w->err))
                return false;
            if (mine) {
                const size_t mark = w->path.len;
                w->node = (uint32_t)i;
                path_push_index(w, passes[p].name, i++); /* a check: any name will do */
                if (!graph_field(w, m, &f))
                    return false;
                w->path.len = mark;
            }
            if (w->release && main) /* the main graph */
                w->release(w->ctx, f.end);
        }
        if (it.failed)
            return false;
    }
    return true;
}

/* ModelProto's fields (those the model reader reads, checked as it
 * checks them); the graph's message. */
static bool model_fields(struct walk *w, const struct pb_msg *root, struct pb_msg *graph)
{
    struct pb_iter it;
    struct pb_field f, g;
    bool has_graph = false;
    onnx__pb_iter_begin(&it, root);
    while (onnx__pb_iter_next(&it, &f, w->err)) {
        bool ok = true;
        if (f.number == 1)
            ok = onnx__pb_want(&f, PB_VARINT, "ModelProto.ir_version", w->err);
        else if (f.number == 2 || f.number == 3)
            ok = onnx__pb_want(&f, PB_LEN, "ModelProto.producer_name", w->err);
        else if (f.number == 7)
            ok = has_graph = onnx__pb_want(&f, PB_LEN, "ModelProto.graph", w->err);
        else if (f.number == 8)
            ok = onnx__pb_want(&f, PB_LEN, "ModelProto.opset_import", w->err);
        if (!ok)
            return false;
        if (f.number != 8)
            continue;
        struct pb r = {w->base, f.start, f.end};
        while (r.pos < r.end) {
            if (!onnx__pb_next(&r, &g, w->err))
                return false;
            if ((g.number == 1 &&
                 !onnx__pb_want(&g, PB_LEN, "OperatorSetIdProto.domain", w->err)) ||
                (g.number == 2 &&
                 !onnx__pb_want(&g, PB_VARINT, "OperatorSetIdProto.version", w->err)))
                return false;
        }
    }
    if (it.failed)
        return false;
    if (!has_graph)
        return onnx__pb_fail(w->err, root->end, "no graph (ModelProto field 7)");
    return onnx__pb_sub(root, 7, graph, w->err);
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
    struct walk w;
    memset(&w, 0, sizeof w);
    w.base = data;
    w.fn = fn;
    w.node_fn = node_fn;
    w.release = release;
    w.ctx = ctx;
    w.err = err;
    *out_of_memory = false;
    memset(err, 0, sizeof *err);
    const struct pb_msg root = onnx__pb_root(data, 0, len, 0);
    struct pb_msg graph;
    if (!model_fields(&w, &root, &graph))
        return false;
    path_puts(&w, "graph");
    bool ok = walk_graph(&w, &graph, true);
    *out_of_memory = w.path.failed;
    free(w.path.data);
    return ok && !*out_of_memory;
}
