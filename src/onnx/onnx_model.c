/* onnx_model.c - an ONNX model read whole (see onnx_model.h): its graphs,
 * nodes and attributes here, tensors and types in onnx_tensor.c. Every
 * message is read as protobuf reads it (pb.h: the last scalar wins,
 * repeated fields append, a message field given twice is merged). Field
 * numbers are onnx.proto's:
 *
 *   ModelProto        ir_version 1, producer_name 2, producer_version 3,
 *                     graph 7, opset_import 8
 *   OperatorSetIdProto domain 1, version 2
 *   GraphProto        node 1, initializer 5, input 11, output 12,
 *                     value_info 13, sparse_initializer 15
 *   NodeProto         input 1, output 2, name 3, op_type 4, attribute 5,
 *                     domain 7
 *   AttributeProto    name 1, f 2, i 3, s 4, t 5, g 6, floats 7, ints 8,
 *                     strings 9, tensors 10, graphs 11, type 20,
 *                     sparse_tensor 22, sparse_tensors 23
 *
 * Two phases, so that memory grows with the nodes: first every graph's
 * nodes and outputs (the names they use go into a set), then each graph's
 * inputs, initializers and value_info whose name is in the set. */
#include "model_read.h"

#include <stdlib.h>
#include <string.h>

/* The names nodes and graph outputs use: open addressing, each slot with
 * its name's hash (most probes end without reading the name). */
struct name_slot {
    struct onnx_bytes name; /* p NULL: empty */
    uint64_t hash;
};
struct name_set {
    struct name_slot *slots;
    size_t cap, n;
};

struct graph_slot {
    struct onnx_graph *g;
    struct pb_msg msg;
    uint32_t parent; /* UINT32_MAX: none */
};

/* A pointer to a graph, set once the graphs have their final place. */
struct fixup {
    const struct onnx_graph **slot;
    uint32_t index;
};

struct model_reader {
    struct reader r;
    struct name_set names;
    struct graph_slot *graphs;
    size_t n_graphs, cap_graphs;
    struct fixup *fixups;
    size_t n_fixups, cap_fixups;
    onnx_model_release_fn release; /* NULL: keep every page */
    void *release_ctx;
};

/* After a field of the main graph: the bytes before upto are not needed
 * until the next pass over the graph comes back to them. */
static void release(const struct model_reader *mr, bool main, size_t upto)
{
    if (main && mr->release)
        mr->release(mr->release_ctx, upto);
}

static bool grow(struct arena *a, void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    const size_t c = *cap ? *cap * 2 : 16;
    if (c > SIZE_MAX / size / 2 || !onnx__arena_charge(a, (c - *cap) * size))
        return false;
    void *q = realloc(*p, c * size);
    if (q == NULL)
        return false;
    *p = q;
    *cap = c;
    return true;
}

static uint64_t hash(struct onnx_bytes b)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    for (size_t i = 0; i < b.n; i++)
        h = (h ^ b.p[i]) * 1099511628211u;
    return h;
}

static const uint8_t empty_name[1];

/* The slot of b (hash h), or the empty slot where it would go. */
static size_t find(const struct name_set *s, struct onnx_bytes b, uint64_t h)
{
    /* FNV's low bits vary little between names such as x1, x2: the high
     * bits of a multiplication spread them */
    size_t i = (size_t)((h * 0x9E3779B97F4A7C15u) >> 32) & (s->cap - 1);
    for (;; i = (i + 1) & (s->cap - 1)) {
        const struct name_slot *x = &s->slots[i];
        if (x->name.p == NULL ||
            (x->hash == h && x->name.n == b.n && (b.n == 0 || memcmp(x->name.p, b.p, b.n) == 0)))
            return i;
    }
}

static bool names_add(struct model_reader *mr, struct onnx_bytes b)
{
    struct name_set *s = &mr->names;
    if (b.p == NULL)
        b.p = empty_name; /* an empty name is a name too */
    if (s->n + 1 > s->cap / 2) {
        const size_t cap = s->cap ? s->cap * 2 : 1024;
        struct name_slot *slots =
            cap < SIZE_MAX / sizeof *slots && onnx__arena_charge(mr->r.arena, cap * sizeof *slots)
                ? calloc(cap, sizeof *slots)
                : NULL;
        if (slots == NULL)
            return onnx__reader_oom(&mr->r);
        struct name_set bigger = {slots, cap, s->n};
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i].name.p != NULL)
                slots[find(&bigger, s->slots[i].name, s->slots[i].hash)] = s->slots[i];
        free(s->slots);
        *s = bigger;
    }
    const uint64_t h = hash(b);
    struct name_slot *x = &s->slots[find(s, b, h)];
    if (x->name.p == NULL) {
        x->name = b;
        x->hash = h;
        s->n++;
    }
    return true;
}

static bool names_have(const struct name_set *s, struct onnx_bytes b)
{
    if (b.p == NULL)
        b.p = empty_name;
    return s->cap != 0 && s->slots[find(s, b, hash(b))].name.p != NULL;
}

/* An element of a repeated message field of m: a message of its own. */
static bool element(struct reader *r, const struct pb_msg *m, const struct pb_field *f,
                    struct pb_msg *e)
{
    if (onnx__pb_depth(m) + 1 > PB_MAX_DEPTH)
        return onnx__pb_too_deep(r->err, f->at);
    *e = onnx__pb_root(r->base, f->start, f->end, onnx__pb_depth(m) + 1);
    return true;
}

static bool later(struct model_reader *mr, const struct onnx_graph **slot, uint32_t index)
{
    if (!grow(mr->r.arena, (void **)&mr->fixups, &mr->cap_fixups, mr->n_fixups, sizeof *mr->fixups))
        return onnx__reader_oom(&mr->r);
    mr->fixups[mr->n_fixups].slot = slot;
    mr->fixups[mr->n_fixups++].index = index;
    return true;
}

static bool read_graph(struct model_reader *mr, const struct pb_msg *m, uint32_t parent,
                       const struct onnx_node *owner, uint32_t *index);

/* AttributeProto.floats: fixed32 values, packed or not. */
static bool read_floats(struct reader *r, const struct pb_msg *m, struct onnx_attr *a)
{
    float *v = NULL;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && (v = onnx__arena_alloc(r->arena, a->n_floats, sizeof *v)) == NULL)
            return onnx__reader_oom(r);
        uint32_t n = 0;
        struct pb_iter it;
        struct pb_field f;
        onnx__pb_iter_begin(&it, m);
        while (onnx__pb_iter_next(&it, &f, r->err)) {
            if (f.number != 7)
                continue;
            const size_t start = f.wt == PB_LEN ? f.start : f.end - 4;
            for (size_t at = start; at < f.end; at += 4) {
                if (pass == 0 && !onnx__count_one(r, &n, at, "floats"))
                    return false;
                if (pass == 1) {
                    const uint8_t *p = r->base + at;
                    const uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 |
                                          (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
                    memcpy(&v[n++], &bits, sizeof bits);
                }
            }
        }
        if (it.failed)
            return false;
        a->n_floats = n;
    }
    a->floats = v;
    return true;
}

/* The scalar fields of an attribute, its wire types checked, and how many
 * of each repeated message there are. */
static bool attr_fields(struct reader *r, const struct pb_msg *m, struct onnx_attr *a, bool *has_t,
                        bool *has_g, bool *has_sparse)
{
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        bool ok = true;
        switch (f.number) {
        case 1:
            ok = onnx__pb_want(&f, PB_LEN, "AttributeProto.name", r->err);
            a->name = onnx__reader_text(r, &f);
            break;
        case 2:
            ok = onnx__pb_want(&f, PB_FIXED32, "AttributeProto.f", r->err);
            const uint32_t bits = (uint32_t)f.v;
            memcpy(&a->f, &bits, sizeof bits);
            a->has_f = true;
            break;
        case 3:
        case 20:
            ok = onnx__pb_want(&f, PB_VARINT,
                               f.number == 3 ? "AttributeProto.i" : "AttributeProto.type", r->err);
            if (f.number == 3) {
                a->i = (int64_t)f.v;
                a->has_i = true;
            } else {
                a->type = (enum onnx_attr_type)(int32_t)(uint32_t)f.v;
            }
            break;
        case 4:
        case 5:
        case 6:
        case 9:
        case 10:
        case 11:
        case 22:
        case 23:
            ok = onnx__pb_want(&f, PB_LEN, "an AttributeProto field", r->err);
            if (f.number == 4) {
                a->s = onnx__reader_text(r, &f);
                a->has_s = true;
            }
            *has_t = *has_t || f.number == 5;
            *has_g = *has_g || f.number == 6;
            *has_sparse = *has_sparse || f.number == 22;
            if (ok && f.number == 9)
                ok = onnx__count_one(r, &a->n_strings, f.at, "strings");
            if (ok && f.number == 10)
                ok = onnx__count_one(r, &a->n_tensors, f.at, "tensors");
            if (ok && f.number == 11)
                ok = onnx__count_one(r, &a->n_graphs, f.at, "graphs");
            break;
        case 7:
            if (f.wt != PB_FIXED32)
                ok = onnx__pb_want(&f, PB_LEN, "AttributeProto.floats", r->err);
            if (ok && f.wt == PB_LEN && (f.end - f.start) % 4 != 0)
                ok = onnx__pb_fail(r->err, f.at,
                                   "AttributeProto.floats: %zu bytes, not a multiple of 4",
                                   f.end - f.start);
            break;
        case 8:
            if (f.wt != PB_VARINT)
                ok = onnx__pb_want(&f, PB_LEN, "AttributeProto.ints", r->err);
            break;
        default:
            break;
        }
        if (!ok)
            return false;
    }
    return !it.failed;
}

/* strings, tensors and graphs: one message (or string) per occurrence. */
static bool attr_lists(struct model_reader *mr, const struct pb_msg *m, struct onnx_attr *a,
                       uint32_t graph, const struct onnx_node *owner)
{
    struct reader *r = &mr->r;
    struct onnx_bytes *strings = onnx__arena_alloc(r->arena, a->n_strings, sizeof *strings);
    struct onnx_tensor_data *tensors = onnx__arena_alloc(r->arena, a->n_tensors, sizeof *tensors);
    /* pointers to the graphs (they live in model->graphs) */
    const struct onnx_graph **graphs = onnx__arena_alloc(
        r->arena, a->n_graphs, sizeof *graphs); // NOLINT(bugprone-sizeof-expression)
    if (strings == NULL || tensors == NULL || graphs == NULL)
        return onnx__reader_oom(r);
    a->strings = strings;
    a->tensors = tensors;
    a->graphs = graphs;
    uint32_t ns = 0, nt = 0, ng = 0;
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        if (f.number == 9) {
            strings[ns++] = onnx__reader_text(r, &f);
        } else if (f.number == 10) {
            if (!element(r, m, &f, &e) || !onnx__read_tensor(r, &e, &tensors[nt++]))
                return false;
        } else if (f.number == 11) {
            uint32_t index = 0;
            if (!element(r, m, &f, &e) || !read_graph(mr, &e, graph, owner, &index) ||
                !later(mr, &graphs[ng++], index))
                return false;
        }
    }
    return !it.failed;
}

static bool read_attr(struct model_reader *mr, const struct pb_msg *m, uint32_t graph,
                      const struct onnx_node *owner, struct onnx_attr *a)
{
    struct reader *r = &mr->r;
    bool has_t = false, has_g = false, has_sparse = false;
    if (!attr_fields(r, m, a, &has_t, &has_g, &has_sparse) ||
        !onnx__read_int64s(r, m, 8, "AttributeProto.ints", &a->n_ints, &a->ints) ||
        !read_floats(r, m, a))
        return false;
    struct pb_msg sub;
    if (has_t) {
        struct onnx_tensor_data *t = onnx__arena_alloc(r->arena, 1, sizeof *t);
        if (t == NULL)
            return onnx__reader_oom(r);
        if (!onnx__pb_sub(m, 5, &sub, r->err) || !onnx__read_tensor(r, &sub, t))
            return false;
        a->t = t;
    }
    if (has_sparse) {
        struct onnx_tensor_data *t = onnx__arena_alloc(r->arena, 1, sizeof *t);
        if (t == NULL)
            return onnx__reader_oom(r);
        if (!onnx__pb_sub(m, 22, &sub, r->err) || !onnx__read_sparse(r, &sub, t))
            return false;
        a->sparse_tensor = t;
    }
    if (has_g) {
        uint32_t index = 0;
        if (!onnx__pb_sub(m, 6, &sub, r->err) || !read_graph(mr, &sub, graph, owner, &index) ||
            !later(mr, &a->g, index))
            return false;
    }
    return attr_lists(mr, m, a, graph, owner);
}

static bool read_node(struct model_reader *mr, const struct pb_msg *m, uint32_t graph,
                      struct onnx_node *node)
{
    static const char *const what[] = {NULL,
                                       "NodeProto.input",
                                       "NodeProto.output",
                                       "NodeProto.name",
                                       "NodeProto.op_type",
                                       "NodeProto.attribute",
                                       "NodeProto.doc_string",
                                       "NodeProto.domain"};
    struct reader *r = &mr->r;
    struct onnx_bytes *inputs = NULL, *outputs = NULL;
    struct onnx_attr *attrs = NULL;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            inputs = onnx__arena_alloc(r->arena, node->n_inputs, sizeof *inputs);
            outputs = onnx__arena_alloc(r->arena, node->n_outputs, sizeof *outputs);
            attrs = onnx__arena_alloc(r->arena, node->n_attrs, sizeof *attrs);
            if (inputs == NULL || outputs == NULL || attrs == NULL)
                return onnx__reader_oom(r);
            node->inputs = inputs;
            node->outputs = outputs;
            node->attrs = attrs;
        }
        uint32_t ni = 0, no = 0, na = 0;
        struct pb_iter it;
        struct pb_field f;
        onnx__pb_iter_begin(&it, m);
        while (onnx__pb_iter_next(&it, &f, r->err)) {
            if (f.number > 7)
                continue;
            if (!onnx__pb_want(&f, PB_LEN, what[f.number], r->err))
                return false;
            /* Text is copied where it is kept: names, op_type, domain (not
             * an attribute's bytes, nor a doc_string). */
            const bool kept = f.number == 3 || f.number == 4 || f.number == 7 ||
                              ((f.number == 1 || f.number == 2) && pass != 0);
            const struct onnx_bytes b =
                kept ? onnx__reader_text(r, &f) : onnx__pb_bytes(r->base, &f);
            bool ok = true;
            if (f.number == 1)
                ok = pass == 0 ? onnx__count_one(r, &ni, f.at, "inputs")
                               : ((inputs[ni++] = b), names_add(mr, b));
            else if (f.number == 2)
                ok = pass == 0 ? onnx__count_one(r, &no, f.at, "outputs")
                               : ((outputs[no++] = b), names_add(mr, b));
            else if (f.number == 3)
                node->name = b;
            else if (f.number == 4)
                node->op_type = b;
            else if (f.number == 7)
                node->domain = b;
            else if (f.number == 5 && pass == 0)
                ok = onnx__count_one(r, &na, f.at, "attributes");
            if (!ok)
                return false;
        }
        if (it.failed)
            return false;
        node->n_inputs = ni;
        node->n_outputs = no;
        if (pass == 0)
            node->n_attrs = na;
    }
    /* The attributes last: their graphs read after the node's names. */
    uint32_t na = 0;
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err))
        if (f.number == 5 &&
            (!element(r, m, &f, &e) || !read_attr(mr, &e, graph, node, &attrs[na++])))
            return false;
    return !it.failed;
}

static bool read_graph(struct model_reader *mr, const struct pb_msg *m, uint32_t parent,
                       const struct onnx_node *owner, uint32_t *index)
{
    struct reader *r = &mr->r;
    struct onnx_graph *g = onnx__arena_alloc(r->arena, 1, sizeof *g);
    if (g == NULL)
        return onnx__reader_oom(r);
    if (mr->n_graphs >= UINT32_MAX)
        return onnx__pb_fail(r->err, m->start, "more than %u graphs", UINT32_MAX);
    if (!grow(mr->r.arena, (void **)&mr->graphs, &mr->cap_graphs, mr->n_graphs, sizeof *mr->graphs))
        return onnx__reader_oom(r);
    *index = (uint32_t)mr->n_graphs;
    mr->graphs[mr->n_graphs].g = g;
    mr->graphs[mr->n_graphs].msg = *m;
    mr->graphs[mr->n_graphs++].parent = parent;
    g->index = *index;
    g->owner = owner;
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    uint32_t nn = 0, no = 0;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        const unsigned n = f.number;
        if ((n == 1 || n == 5 || n == 11 || n == 12 || n == 13 || n == 15) &&
            !onnx__pb_want(&f, PB_LEN, "a GraphProto field", r->err))
            return false;
        if ((n == 1 && !onnx__count_one(r, &nn, f.at, "nodes")) ||
            (n == 12 && !onnx__count_one(r, &no, f.at, "outputs")))
            return false;
        release(mr, *index == 0, f.end);
    }
    if (it.failed)
        return false;
    struct onnx_node *nodes = onnx__arena_alloc(r->arena, nn, sizeof *nodes);
    struct onnx_value_info *outputs = onnx__arena_alloc(r->arena, no, sizeof *outputs);
    if (nodes == NULL || outputs == NULL)
        return onnx__reader_oom(r);
    g->nodes = nodes;
    g->outputs = outputs;
    uint32_t i = 0, o = 0;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        release(mr, *index == 0, f.at);
        if (f.number == 1) {
            if (!element(r, m, &f, &e) || !read_node(mr, &e, *index, &nodes[i++]))
                return false;
            g->n_nodes = i;
        } else if (f.number == 12) {
            if (!element(r, m, &f, &e) || !onnx__read_value_info(r, &e, &outputs[o]) ||
                !names_add(mr, outputs[o].name))
                return false;
            g->n_outputs = ++o;
        }
    }
    return !it.failed;
}

/* The name of a graph's input or value_info (field 1), an initializer
 * (field 8), or a sparse initializer (its values' name). */
static bool value_name(struct reader *r, const struct pb_msg *e, unsigned field,
                       struct onnx_bytes *name)
{
    struct pb_msg values;
    bool given = false;
    name->p = NULL;
    name->n = 0;
    if (field == 15)
        return onnx__pb_sub(e, 1, &values, r->err) &&
               onnx__read_last_bytes(r, &values, 8, "TensorProto.name", name, &given);
    return onnx__read_last_bytes(r, e, field == 5 ? 8 : 1,
                                 field == 5 ? "TensorProto.name" : "ValueInfoProto.name", name,
                                 &given);
}

/* The graph's values of field `field` that a node or an output names:
 * counted into *k when vi and td are NULL, else read into vi[*k..] or
 * td[*k..]. */
static bool values_of(struct model_reader *mr, const struct pb_msg *m, unsigned field, uint32_t *k,
                      struct onnx_value_info *vi, struct onnx_tensor_data *td)
{
    const bool main = mr->n_graphs && m->start == mr->graphs[0].msg.start;
    struct reader *r = &mr->r;
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    struct onnx_bytes name;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        release(mr, main, f.at);
        if (f.number != field)
            continue;
        if (!element(r, m, &f, &e) || !value_name(r, &e, field, &name))
            return false;
        /* A subgraph's inputs are positional (a Loop's or Scan's body
         * binds them by index): every one is kept, named or not. */
        if (!(field == 11 && !main) && !names_have(&mr->names, name))
            continue;
        bool ok;
        if (vi == NULL && td == NULL)
            ok = onnx__count_one(r, k, f.at, "values");
        else if (vi != NULL)
            ok = onnx__read_value_info(r, &e, &vi[(*k)++]);
        else if (field == 5)
            ok = onnx__read_tensor(r, &e, &td[(*k)++]);
        else
            ok = onnx__read_sparse(r, &e, &td[(*k)++]);
        if (!ok)
            return false;
    }
    return !it.failed;
}

/* Phase two: a graph's inputs, initializers (dense, then sparse) and
 * value_info that a node or an output names. */
static bool graph_values(struct model_reader *mr, const struct graph_slot *s)
{
    struct reader *r = &mr->r;
    struct onnx_graph *g = s->g;
    const struct pb_msg *m = &s->msg;
    uint32_t n_in = 0, n_vi = 0, n_init = 0;
    if (!values_of(mr, m, 11, &n_in, NULL, NULL) || !values_of(mr, m, 13, &n_vi, NULL, NULL) ||
        !values_of(mr, m, 5, &n_init, NULL, NULL) || !values_of(mr, m, 15, &n_init, NULL, NULL))
        return false;
    struct onnx_value_info *in = onnx__arena_alloc(r->arena, n_in, sizeof *in);
    struct onnx_value_info *vi = onnx__arena_alloc(r->arena, n_vi, sizeof *vi);
    struct onnx_tensor_data *init = onnx__arena_alloc(r->arena, n_init, sizeof *init);
    if (in == NULL || vi == NULL || init == NULL)
        return onnx__reader_oom(r);
    g->inputs = in;
    g->value_info = vi;
    g->initializers = init;
    if (!values_of(mr, m, 11, &g->n_inputs, in, NULL) ||
        !values_of(mr, m, 13, &g->n_value_info, vi, NULL) ||
        !values_of(mr, m, 5, &g->n_initializers, NULL, init) ||
        !values_of(mr, m, 15, &g->n_initializers, NULL, init))
        return false;
    return true;
}

/* ModelProto's own fields; the graph's message. */
static bool model_fields(struct model_reader *mr, const struct pb_msg *root,
                         struct onnx_model *model, struct pb_msg *graph)
{
    struct reader *r = &mr->r;
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    bool has_graph = false;
    onnx__pb_iter_begin(&it, root);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        if (f.number == 1) {
            if (!onnx__pb_want(&f, PB_VARINT, "ModelProto.ir_version", r->err))
                return false;
            model->ir_version = (int64_t)f.v;
        } else if (f.number == 2 || f.number == 3) {
            if (!onnx__pb_want(&f, PB_LEN, "ModelProto.producer_name", r->err))
                return false;
            if (f.number == 2)
                model->producer_name = onnx__reader_text(r, &f);
            else
                model->producer_version = onnx__reader_text(r, &f);
        } else if (f.number == 7) {
            if (!onnx__pb_want(&f, PB_LEN, "ModelProto.graph", r->err))
                return false;
            has_graph = true;
        } else if (f.number == 8) {
            if (!onnx__pb_want(&f, PB_LEN, "ModelProto.opset_import", r->err) ||
                !onnx__count_one(r, &model->n_opsets, f.at, "opsets"))
                return false;
        }
    }
    if (it.failed)
        return false;
    if (!has_graph)
        return onnx__pb_fail(r->err, root->end, "no graph (ModelProto field 7)");
    struct onnx_opset *opsets = onnx__arena_alloc(r->arena, model->n_opsets, sizeof *opsets);
    if (opsets == NULL)
        return onnx__reader_oom(r);
    model->opsets = opsets;
    uint32_t k = 0;
    onnx__pb_iter_begin(&it, root);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        if (f.number != 8)
            continue;
        struct onnx_opset *o = &opsets[k++];
        struct pb_iter oi;
        struct pb_field g;
        if (!element(r, root, &f, &e))
            return false;
        onnx__pb_iter_begin(&oi, &e);
        while (onnx__pb_iter_next(&oi, &g, r->err)) {
            if (g.number == 1 && onnx__pb_want(&g, PB_LEN, "OperatorSetIdProto.domain", r->err))
                o->domain = onnx__reader_text(r, &g);
            else if (g.number == 2 &&
                     onnx__pb_want(&g, PB_VARINT, "OperatorSetIdProto.version", r->err))
                o->version = (int64_t)g.v;
            else if (g.number == 1 || g.number == 2)
                return false;
        }
        if (oi.failed)
            return false;
    }
    return !it.failed && onnx__pb_sub(root, 7, graph, r->err);
}

/* The graphs in their final array (pre-order), and every pointer to one. */
static bool place_graphs(struct model_reader *mr, struct onnx_model *model)
{
    struct onnx_graph *graphs = onnx__arena_alloc(mr->r.arena, mr->n_graphs, sizeof *graphs);
    if (graphs == NULL)
        return onnx__reader_oom(&mr->r);
    for (size_t i = 0; i < mr->n_graphs; i++) {
        graphs[i] = *mr->graphs[i].g;
        const uint32_t p = mr->graphs[i].parent;
        graphs[i].parent = p == UINT32_MAX ? NULL : &graphs[p];
    }
    for (size_t i = 0; i < mr->n_fixups; i++)
        *mr->fixups[i].slot = &graphs[mr->fixups[i].index];
    model->graphs = graphs;
    model->n_graphs = (uint32_t)mr->n_graphs;
    return true;
}

size_t onnx_model_memory_cap(size_t len)
{
    const size_t base = (size_t)16 << 20, per_byte = 32;
    if (len > (ONNX_MODEL_MAX_MEMORY - base) / per_byte)
        return ONNX_MODEL_MAX_MEMORY;
    return base + per_byte * len;
}

bool onnx_model_read(const uint8_t *data, size_t len, struct onnx_model *model,
                     struct onnx_error *err, bool *out_of_memory)
{
    return onnx_model_read_capped(data, len, onnx_model_memory_cap(len), model, err, out_of_memory,
                                  NULL, NULL);
}

bool onnx_model_read_releasing(const uint8_t *data, size_t len, struct onnx_model *model,
                               struct onnx_error *err, bool *out_of_memory,
                               onnx_model_release_fn release_fn, void *release_ctx)
{
    return onnx_model_read_capped(data, len, onnx_model_memory_cap(len), model, err, out_of_memory,
                                  release_fn, release_ctx);
}

bool onnx_model_read_capped(const uint8_t *data, size_t len, size_t max_memory,
                            struct onnx_model *model, struct onnx_error *err, bool *out_of_memory,
                            onnx_model_release_fn release_fn, void *release_ctx)
{
    memset(model, 0, sizeof *model);
    memset(err, 0, sizeof *err);
    *out_of_memory = false;
    struct arena *arena = calloc(1, sizeof *arena);
    if (arena == NULL) {
        *out_of_memory = true;
        return onnx__pb_fail(err, 0, "out of memory");
    }
    model->arena_ = arena;
    arena->limit = max_memory;
    struct model_reader mr;
    memset(&mr, 0, sizeof mr);
    mr.r.base = data;
    mr.release = release_fn;
    mr.release_ctx = release_ctx;
    mr.r.arena = arena;
    mr.r.err = err;
    const struct pb_msg root = onnx__pb_root(data, 0, len, 0);
    struct pb_msg graph = root; /* model_fields sets it */
    uint32_t main_graph = 0;
    bool ok = model_fields(&mr, &root, model, &graph) &&
              read_graph(&mr, &graph, UINT32_MAX, NULL, &main_graph);
    for (size_t i = 0; ok && i < mr.n_graphs; i++)
        ok = graph_values(&mr, &mr.graphs[i]);
    ok = ok && place_graphs(&mr, model);
    if (ok && arena->failed) /* a text that could not be copied */
        ok = onnx__reader_oom(&mr.r);
    free(mr.names.slots);
    free(mr.graphs);
    free(mr.fixups);
    if (!ok && arena->over) { /* the cap, not malloc: a limit of this reader */
        onnx__pb_fail(err, 0, "reading its graphs takes more than %zu bytes (%zu MiB)", max_memory,
                      max_memory >> 20);
        err->limit = true;
    }
    if (!ok) {
        *out_of_memory = arena->failed && !arena->over;
        onnx_model_free(model);
    }
    return ok;
}

void onnx_model_free(struct onnx_model *model)
{
    if (model->arena_ != NULL) {
        onnx__arena_free(model->arena_);
        free(model->arena_);
    }
    memset(model, 0, sizeof *model);
}

static bool bytes_eq(struct onnx_bytes b, const char *s)
{
    const size_t n = strlen(s);
    return b.n == n && (n == 0 || memcmp(b.p, s, n) == 0);
}

int64_t onnx_model_opset(const struct onnx_model *model)
{
    int64_t v = 0;
    for (uint32_t i = 0; i < model->n_opsets; i++)
        if (bytes_eq(model->opsets[i].domain, "") || bytes_eq(model->opsets[i].domain, "ai.onnx"))
            v = model->opsets[i].version; /* the last given */
    return v;
}

const struct onnx_attr *onnx_node_attr(const struct onnx_node *node, const char *name)
{
    for (uint32_t i = 0; i < node->n_attrs; i++)
        if (bytes_eq(node->attrs[i].name, name))
            return &node->attrs[i];
    return NULL;
}

bool onnx_node_is_constant(const struct onnx_node *n)
{
    return n->op_type.n == 8 && memcmp(n->op_type.p, "Constant", 8) == 0 &&
           (n->domain.n == 0 || (n->domain.n == 7 && memcmp(n->domain.p, "ai.onnx", 7) == 0));
}

bool onnx_graph_has_initializer(const struct onnx_graph *g, struct onnx_bytes name)
{
    for (uint32_t k = 0; k < g->n_initializers; k++)
        if (g->initializers[k].name.n == name.n &&
            (name.n == 0 || memcmp(g->initializers[k].name.p, name.p, name.n) == 0))
            return true;
    return false;
}
