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
    void *ctx;
    struct path path;
    struct onnx_error *err;
    unsigned depth;
    bool stop;
};

/* A repeated int64 (dims): one varint, or a packed run of them. Adds the
 * count to *n. */
static bool count_int64s(const uint8_t *base, const struct pb_field *f, const char *what,
                         uint64_t *n, struct onnx_error *err)
{
    if (f->wt == PB_VARINT) {
        (*n)++;
        return true;
    }
    if (!pb_want(f, PB_LEN, what, err))
        return false;
    struct pb r = {base, f->start, f->end};
    while (r.pos < r.end) {
        uint64_t v;
        if (!pb_varint(&r, &v, err))
            return false;
        (*n)++;
    }
    return true;
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

static bool enter(struct walk *w, size_t at)
{
    if (++w->depth > ONNX_MAX_DEPTH)
        return pb_fail(w->err, at, "messages nested deeper than %d", ONNX_MAX_DEPTH);
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
    if (!w->fn(w->ctx, t))
        w->stop = true;
    w->path.len--;
    return true;
}

/* ---- messages ------------------------------------------------------------ */

/* A TensorProto: its type, dims, name, and whether its data is external. */
static bool read_tensor(struct walk *w, size_t start, size_t end, struct onnx_tensor *t)
{
    if (!enter(w, start))
        return false;
    t->value = ONNX_V_TENSOR;
    t->form = ONNX_DIMS_REPEAT;
    t->msg.p = w->base + start;
    t->msg.n = end - start;
    t->field = 1;
    t->rank = 0;
    struct pb r = {w->base, start, end};
    struct pb_field f = {0};
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, w->err))
            return false;
        switch (f.number) {
        case 1:
            if (!count_int64s(w->base, &f, "TensorProto.dims", &t->rank, w->err))
                return false;
            break;
        case 2:
            if (!pb_want(&f, PB_VARINT, "TensorProto.data_type", w->err))
                return false;
            t->has_elem_type = true;
            t->elem_type = (int32_t)(uint32_t)f.v;
            break;
        case 8:
            if (!pb_want(&f, PB_LEN, "TensorProto.name", w->err))
                return false;
            t->name = pb_bytes(w->base, &f);
            t->has_name = true;
            break;
        case 14:
            if (!pb_want(&f, PB_VARINT, "TensorProto.data_location", w->err))
                return false;
            t->external = f.v == 1;
            break;
        case 9:
        case 13:
            if (!pb_want(&f, PB_LEN,
                         f.number == 9 ? "TensorProto.raw_data" : "TensorProto.external_data",
                         w->err))
                return false;
            break;
        default:
            break; /* the typed data fields and the rest: skipped unread */
        }
    }
    w->depth--;
    return true;
}

/* A SparseTensorProto: the dense dims, the values' type and name. */
static bool read_sparse(struct walk *w, size_t start, size_t end, struct onnx_tensor *t)
{
    if (!enter(w, start))
        return false;
    struct pb r = {w->base, start, end};
    struct pb_field f = {0};
    uint64_t rank = 0;
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, w->err))
            return false;
        if (f.number == 1) {
            if (!pb_want(&f, PB_LEN, "SparseTensorProto.values", w->err))
                return false;
            struct onnx_tensor values = {0};
            if (!read_tensor(w, f.start, f.end, &values))
                return false;
            t->has_elem_type = values.has_elem_type;
            t->elem_type = values.elem_type;
            t->name = values.name;
            t->has_name = values.has_name;
        } else if (f.number == 2) {
            if (!pb_want(&f, PB_LEN, "SparseTensorProto.indices", w->err))
                return false;
        } else if (f.number == 3) {
            if (!count_int64s(w->base, &f, "SparseTensorProto.dims", &rank, w->err))
                return false;
        }
    }
    t->value = ONNX_V_SPARSE_TENSOR;
    t->form = ONNX_DIMS_REPEAT;
    t->msg.p = w->base + start;
    t->msg.n = end - start;
    t->field = 3;
    t->rank = rank;
    w->depth--;
    return true;
}

/* A TensorShapeProto: its Dimension messages, checked and counted. */
static bool read_shape(struct walk *w, size_t start, size_t end, struct onnx_tensor *t)
{
    if (!enter(w, start))
        return false;
    struct pb r = {w->base, start, end};
    struct pb_field f, g;
    t->form = ONNX_DIMS_SHAPE;
    t->msg.p = w->base + start;
    t->msg.n = end - start;
    t->rank = 0;
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, w->err))
            return false;
        if (f.number != 1)
            continue;
        if (!pb_want(&f, PB_LEN, "TensorShapeProto.dim", w->err))
            return false;
        t->rank++;
        struct pb d = {w->base, f.start, f.end};
        while (d.pos < d.end) {
            if (!pb_next(&d, &g, w->err))
                return false;
            if ((g.number == 1 && !pb_want(&g, PB_VARINT, "Dimension.dim_value", w->err)) ||
                (g.number == 2 && !pb_want(&g, PB_LEN, "Dimension.dim_param", w->err)))
                return false;
        }
    }
    w->depth--;
    return true;
}

/* A TypeProto: a tensor's element type and shape, or what else it is. */
static bool read_type(struct walk *w, size_t start, size_t end, struct onnx_tensor *t)
{
    if (!enter(w, start))
        return false;
    struct pb r = {w->base, start, end};
    struct pb_field f, g;
    t->value = ONNX_V_OTHER_TYPE;
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, w->err))
            return false;
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
        if (!pb_want(&f, PB_LEN, "a TypeProto case", w->err))
            return false;
        t->value = v; /* a oneof: the last case given is the one */
        t->has_elem_type = false;
        t->form = ONNX_DIMS_NONE;
        t->rank = 0;
        if (v != ONNX_V_TENSOR)
            continue;
        struct pb tt = {w->base, f.start, f.end};
        while (tt.pos < tt.end) {
            if (!pb_next(&tt, &g, w->err))
                return false;
            if (g.number == 1) {
                if (!pb_want(&g, PB_VARINT, "TypeProto.Tensor.elem_type", w->err))
                    return false;
                t->has_elem_type = true;
                t->elem_type = (int32_t)(uint32_t)g.v;
            } else if (g.number == 2) {
                if (!pb_want(&g, PB_LEN, "TypeProto.Tensor.shape", w->err) ||
                    !read_shape(w, g.start, g.end, t))
                    return false;
            }
        }
    }
    w->depth--;
    return true;
}

static bool walk_value_info(struct walk *w, size_t start, size_t end, enum onnx_kind kind)
{
    if (!enter(w, start))
        return false;
    struct onnx_tensor t = {0};
    t.kind = kind;
    t.value = ONNX_V_UNTYPED;
    t.form = ONNX_DIMS_NONE;
    struct pb r = {w->base, start, end};
    struct pb_field f = {0};
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, w->err))
            return false;
        if (f.number == 1) {
            if (!pb_want(&f, PB_LEN, "ValueInfoProto.name", w->err))
                return false;
            t.name = pb_bytes(w->base, &f);
            t.has_name = true;
        } else if (f.number == 2) {
            if (!pb_want(&f, PB_LEN, "ValueInfoProto.type", w->err))
                return false;
            struct onnx_tensor typed = t;
            if (!read_type(w, f.start, f.end, &typed))
                return false;
            typed.name = t.name; /* the name may come after the type */
            typed.has_name = t.has_name;
            t = typed;
        }
    }
    w->depth--;
    return emit(w, &t);
}

static bool walk_graph(struct walk *w, size_t start, size_t end);

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

/* An attribute: the graphs in it, walked; for a Constant node, its value. */
static bool walk_attribute(struct walk *w, size_t start, size_t end, bool constant,
                           const struct onnx_bytes *output0)
{
    if (!enter(w, start))
        return false;
    struct pb r = {w->base, start, end};
    struct pb_field f, name = {0};
    bool has_name = false;
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, w->err))
            return false;
        bool ok = true;
        switch (f.number) {
        case 1:
            ok = pb_want(&f, PB_LEN, "AttributeProto.name", w->err);
            name = f;
            has_name = true;
            break;
        case 2:
            ok = pb_want(&f, PB_FIXED32, "AttributeProto.f", w->err);
            break;
        case 3:
        case 20:
            ok = pb_want(&f, PB_VARINT, f.number == 3 ? "AttributeProto.i" : "AttributeProto.type",
                         w->err);
            break;
        case 4:
        case 5:
        case 6:
        case 9:
        case 10:
        case 11:
        case 22:
        case 23:
            ok = pb_want(&f, PB_LEN, "an AttributeProto field", w->err);
            break;
        case 7:
            if (f.wt != PB_FIXED32)
                ok = pb_want(&f, PB_LEN, "AttributeProto.floats", w->err);
            if (ok && f.wt == PB_LEN && (f.end - f.start) % 4 != 0)
                ok = pb_fail(w->err, f.at, "AttributeProto.floats: %zu bytes, not a multiple of 4",
                             f.end - f.start);
            break;
        case 8:
            if (f.wt != PB_VARINT)
                ok = pb_want(&f, PB_LEN, "AttributeProto.ints", w->err);
            break;
        default:
            break;
        }
        if (!ok)
            return false;
    }
    const size_t mark = w->path.len;
    path_putc(w, '.');
    if (has_name)
        path_put_bytes(w, w->base + name.start, name.end - name.start);
    /* The value of a Constant node. */
    struct onnx_tensor t = {0};
    t.kind = ONNX_CONSTANT;
    if (output0) {
        t.name = *output0;
        t.has_name = true;
    }
    int value = -1; /* index in constant_values */
    for (size_t i = 0; constant && has_name && i < sizeof constant_values / sizeof *constant_values;
         i++)
        if (pb_bytes_are(w->base, &name, constant_values[i].name))
            value = (int)i;
    uint64_t count = 0;
    uint64_t graphs = 0;
    r.pos = start;
    while (r.pos < r.end && !w->stop) {
        if (!pb_next(&r, &f, w->err))
            return false;
        if (f.number == 6) {
            if (!walk_graph(w, f.start, f.end))
                return false;
        } else if (f.number == 11) {
            const size_t m = w->path.len;
            path_putc(w, '[');
            path_u64(w, graphs++);
            path_putc(w, ']');
            if (!walk_graph(w, f.start, f.end))
                return false;
            w->path.len = m;
        } else if (constant && has_name && f.number == 5 && pb_bytes_are(w->base, &name, "value")) {
            struct onnx_tensor v = t;
            if (!read_tensor(w, f.start, f.end, &v))
                return false;
            v.name = t.name;
            v.has_name = t.has_name;
            if (!emit(w, &v))
                return false;
        } else if (constant && has_name && f.number == 22 &&
                   pb_bytes_are(w->base, &name, "sparse_value")) {
            struct onnx_tensor v = t;
            if (!read_sparse(w, f.start, f.end, &v))
                return false;
            v.name = t.name;
            v.has_name = t.has_name;
            if (!emit(w, &v))
                return false;
        } else if (value >= 0 && f.number == constant_values[value].field) {
            if (f.number == 7 && f.wt == PB_LEN)
                count += (f.end - f.start) / 4;
            else if (f.number == 8 && f.wt == PB_LEN &&
                     !count_int64s(w->base, &f, "AttributeProto.ints", &count, w->err))
                return false;
            else if (!(f.number == 8 && f.wt == PB_LEN))
                count++;
        }
    }
    if (value >= 0 && !w->stop) {
        t.value = ONNX_V_TENSOR;
        t.has_elem_type = true;
        t.elem_type = constant_values[value].elem_type;
        t.form = ONNX_DIMS_COUNT;
        t.rank = constant_values[value].list ? 1 : 0;
        t.count = count;
        if (!emit(w, &t))
            return false;
    }
    w->path.len = mark;
    w->depth--;
    return true;
}

static bool walk_node(struct walk *w, size_t start, size_t end)
{
    if (!enter(w, start))
        return false;
    struct pb r = {w->base, start, end};
    struct pb_field f, op = {0}, domain = {0}, output0 = {0};
    bool has_op = false, has_output = false;
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, w->err))
            return false;
        static const char *const what[] = {NULL,
                                           "NodeProto.input",
                                           "NodeProto.output",
                                           "NodeProto.name",
                                           "NodeProto.op_type",
                                           "NodeProto.attribute",
                                           "NodeProto.doc_string",
                                           "NodeProto.domain"};
        if (f.number >= 1 && f.number <= 7 && !pb_want(&f, PB_LEN, what[f.number], w->err))
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
    const bool constant = has_op && pb_bytes_are(w->base, &op, "Constant") &&
                          (domain.end == domain.start || pb_bytes_are(w->base, &domain, "ai.onnx"));
    const size_t mark = w->path.len;
    if (has_op) {
        path_puts(w, " (");
        path_put_bytes(w, w->base + op.start, op.end - op.start);
        path_putc(w, ')');
    }
    const struct onnx_bytes out0 = pb_bytes(w->base, &output0);
    r.pos = start;
    while (r.pos < r.end && !w->stop) {
        if (!pb_next(&r, &f, w->err))
            return false;
        if (f.number == 5 &&
            !walk_attribute(w, f.start, f.end, constant, has_output ? &out0 : NULL))
            return false;
    }
    w->path.len = mark;
    w->depth--;
    return true;
}

static bool walk_graph(struct walk *w, size_t start, size_t end)
{
    if (!enter(w, start))
        return false;
    static const struct {
        unsigned field;
        const char *name;
    } passes[] = {{11, "input"},      {12, "output"},
                  {5, "initializer"}, {15, "sparse_initializer"},
                  {13, "value_info"}, {1, "node"}};
    /* One pass per kind, for records in that order; a check (no fn) needs
     * one pass for all: fewer pages touched. */
    enum { N_PASSES = sizeof passes / sizeof *passes };
    const size_t n_passes = w->fn ? N_PASSES : 1;
    /* Where each kind's fields begin and end: a pass reads only that span
     * (exporters write each kind together: the initializers' pages are then
     * not read again for the inputs). */
    size_t from[N_PASSES], to[N_PASSES];
    for (size_t p = 0; p < N_PASSES; p++) {
        from[p] = w->fn ? end : start;
        to[p] = end;
    }
    if (w->fn) {
        struct pb r = {w->base, start, end};
        struct pb_field f = {0};
        while (r.pos < r.end) {
            const size_t at = r.pos;
            if (!pb_next(&r, &f, w->err))
                return false;
            for (size_t p = 0; p < N_PASSES; p++) {
                if (f.number != passes[p].field)
                    continue;
                if (from[p] == end)
                    from[p] = at;
                to[p] = f.end;
            }
            if (w->release && w->depth == 1)
                w->release(w->ctx, f.end);
        }
    }
    for (size_t p = 0; p < n_passes && !w->stop; p++) {
        struct pb r = {w->base, from[p], to[p]};
        struct pb_field f = {0};
        uint64_t i = 0;
        while (r.pos < r.end && !w->stop) {
            if (!pb_next(&r, &f, w->err))
                return false;
            bool mine = f.number == passes[p].field;
            for (size_t q = 0; !w->fn && q < sizeof passes / sizeof *passes; q++)
                mine = mine || f.number == passes[q].field;
            if (!mine) {
                if (w->release && w->depth == 1) /* the main graph */
                    w->release(w->ctx, f.end);
                continue;
            }
            if (!pb_want(&f, PB_LEN, "a GraphProto field", w->err))
                return false;
            const size_t mark = w->path.len;
            path_push_index(w, passes[p].name, i++); /* a check: any name will do */
            bool ok;
            switch (f.number) {
            case 11:
                ok = walk_value_info(w, f.start, f.end, ONNX_INPUT);
                break;
            case 12:
                ok = walk_value_info(w, f.start, f.end, ONNX_OUTPUT);
                break;
            case 13:
                ok = walk_value_info(w, f.start, f.end, ONNX_VALUE_INFO);
                break;
            case 5: {
                struct onnx_tensor t = {0};
                t.kind = ONNX_INITIALIZER;
                ok = read_tensor(w, f.start, f.end, &t) && emit(w, &t);
                break;
            }
            case 15: {
                struct onnx_tensor t = {0};
                t.kind = ONNX_SPARSE_INITIALIZER;
                ok = read_sparse(w, f.start, f.end, &t) && emit(w, &t);
                break;
            }
            default:
                ok = walk_node(w, f.start, f.end);
                break;
            }
            if (!ok)
                return false;
            w->path.len = mark;
            if (w->release && w->depth == 1) /* the main graph */
                w->release(w->ctx, f.end);
        }
    }
    w->depth--;
    return true;
}

bool onnx_walk(const uint8_t *data, size_t len, onnx_tensor_fn fn, onnx_release_fn release,
               void *ctx, struct onnx_error *err, bool *out_of_memory)
{
    struct walk w;
    memset(&w, 0, sizeof w);
    w.base = data;
    w.fn = fn;
    w.release = release;
    w.ctx = ctx;
    w.err = err;
    *out_of_memory = false;
    err->offset = 0;
    err->message[0] = '\0';
    struct pb r = {data, 0, len};
    struct pb_field f, graph = {0};
    bool has_graph = false;
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, err))
            return false;
        if (f.number == 7) {
            if (!pb_want(&f, PB_LEN, "ModelProto.graph", err))
                return false;
            graph = f;
            has_graph = true;
        } else if ((f.number == 1 && !pb_want(&f, PB_VARINT, "ModelProto.ir_version", err)) ||
                   (f.number == 8 && !pb_want(&f, PB_LEN, "ModelProto.opset_import", err))) {
            return false;
        }
    }
    if (!has_graph)
        return pb_fail(err, len, "no graph (ModelProto field 7)");
    path_puts(&w, "graph");
    bool ok = walk_graph(&w, graph.start, graph.end);
    *out_of_memory = w.path.failed;
    free(w.path.data);
    return ok && !*out_of_memory;
}

/* ---- dims ------------------------------------------------------------------ */

void onnx_dims_begin(const struct onnx_tensor *t, struct onnx_dim_iter *it)
{
    it->t = t;
    it->pos = 0;
    it->packed_end = 0;
    it->i = 0;
}

bool onnx_dims_next(struct onnx_dim_iter *it, struct onnx_dim *d)
{
    const struct onnx_tensor *t = it->t;
    d->kind = ONNX_DIM_VALUE;
    d->value = 0;
    d->param.p = NULL;
    d->param.n = 0;
    if (it->i >= t->rank)
        return false;
    if (t->form == ONNX_DIMS_NONE)
        return false;
    if (t->form == ONNX_DIMS_COUNT) {
        it->i++;
        d->value = (int64_t)t->count;
        return true;
    }
    struct pb r = {t->msg.p, it->pos, t->msg.n};
    struct pb_field f = {0};
    uint64_t v = 0;
    if (t->form == ONNX_DIMS_REPEAT) {
        for (;;) {
            if (it->pos < it->packed_end) {
                r.pos = it->pos;
                r.end = it->packed_end;
                if (!pb_varint(&r, &v, NULL))
                    return false;
                it->pos = r.pos;
                it->i++;
                d->value = (int64_t)v;
                return true;
            }
            r.pos = it->pos;
            r.end = t->msg.n;
            if (r.pos >= r.end || !pb_next(&r, &f, NULL))
                return false;
            it->pos = r.pos;
            if (f.number != t->field)
                continue;
            if (f.wt == PB_VARINT) {
                it->i++;
                d->value = (int64_t)f.v;
                return true;
            }
            it->pos = f.start;
            it->packed_end = f.end;
        }
    }
    /* ONNX_DIMS_SHAPE */
    while (r.pos < r.end) {
        if (!pb_next(&r, &f, NULL))
            return false;
        if (f.number != 1)
            continue;
        it->pos = r.pos;
        it->i++;
        d->kind = ONNX_DIM_UNKNOWN;
        struct pb m = {t->msg.p, f.start, f.end};
        struct pb_field g = {0};
        while (m.pos < m.end && pb_next(&m, &g, NULL)) {
            if (g.number == 1) {
                d->kind = ONNX_DIM_VALUE;
                d->value = (int64_t)g.v;
            } else if (g.number == 2) {
                d->kind = ONNX_DIM_PARAM;
                d->param = pb_bytes(t->msg.p, &g);
            }
        }
        if (d->kind == ONNX_DIM_PARAM && d->param.n == 0)
            d->kind = ONNX_DIM_UNKNOWN; /* an empty symbol names nothing */
        return true;
    }
    return false;
}

/* ---- names ----------------------------------------------------------------- */

const char *onnx_type_name(int32_t elem_type)
{
    static const char *const names[] = {
        "UNDEFINED",      "FLOAT",    "UINT8",        "INT8",           "UINT16",
        "INT16",          "INT32",    "INT64",        "STRING",         "BOOL",
        "FLOAT16",        "DOUBLE",   "UINT32",       "UINT64",         "COMPLEX64",
        "COMPLEX128",     "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
        "FLOAT8E5M2FNUZ", "UINT4",    "INT4",         "FLOAT4E2M1",     "FLOAT8E8M0"};
    if (elem_type < 0 || (size_t)elem_type >= sizeof names / sizeof *names)
        return NULL;
    return names[elem_type];
}

const char *onnx_kind_name(enum onnx_kind kind)
{
    static const char *const names[] = {
        [ONNX_INPUT] = "input",
        [ONNX_OUTPUT] = "output",
        [ONNX_INITIALIZER] = "initializer",
        [ONNX_SPARSE_INITIALIZER] = "sparse_initializer",
        [ONNX_VALUE_INFO] = "value_info",
        [ONNX_CONSTANT] = "constant",
    };
    return (unsigned)kind < ONNX_KIND_COUNT ? names[kind] : "?";
}
