/* onnx_model.c - an ONNX model read whole (see onnx_model.h): its graphs,
 * nodes and attributes here, tensors and types in onnx_tensor.c. Every
 * message is read as protobuf reads it (pb.h: the last scalar wins,
 * repeated fields append, a message field given twice is merged), by its
 * validator (onnx_proto.h: onnx.proto's field numbers, the walk's too),
 * whose view is read into the model here.
 *
 * Two phases, so that memory grows with the nodes: first every graph's
 * nodes and outputs (the names they use go into a set), then each graph's
 * inputs, initializers and value_info whose name is in the set.
 *
 * The first phase is also the walk (onnx_wire_int.h's pieces, called as
 * each graph, node and attribute is met): every value of a graph checked
 * as the graph is entered, kept or not, and the walk's records given in
 * the walk's order. One pass over the bytes checks the whole model, gives
 * its records and reads it. */
#include "model_read.h"
#include "onnx_proto.h"
#include "onnx_wire_int.h"

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

/* Where each kind of a graph's fields lies (SPAN_*): from the first of
 * them to the end of the last, so that a pass over one kind reads that
 * span only (exporters write each kind together: a pass over a graph's
 * 100,000 value_infos then skips its 100,000 nodes and initializers). */
enum { SPAN_INPUT, SPAN_VALUE_INFO, SPAN_INITIALIZER, SPAN_SPARSE, SPAN_NODES_OUTPUTS, SPANS };

struct graph_slot {
    struct onnx_graph *g;
    struct pb_msg msg;
    uint32_t parent; /* UINT32_MAX: none */
    size_t from[SPANS], to[SPANS];
};

static int span_of(unsigned field)
{
    switch (field) {
    case ONNXF_GRAPH_INPUT:
        return SPAN_INPUT;
    case ONNXF_GRAPH_VALUE_INFO:
        return SPAN_VALUE_INFO;
    case ONNXF_GRAPH_INITIALIZER:
        return SPAN_INITIALIZER;
    case ONNXF_GRAPH_SPARSE_INITIALIZER:
        return SPAN_SPARSE;
    case ONNXF_GRAPH_NODE:
    case ONNXF_GRAPH_OUTPUT:
        return SPAN_NODES_OUTPUTS;
    default:
        return -1;
    }
}

/* m restricted to the span of kind k of its graph's slot s. */
static struct pb_msg span(const struct graph_slot *s, int k)
{
    struct pb_msg m = s->msg;
    if (s->from[k] == SIZE_MAX) { /* none of them: a reading that ends at once */
        m.to = m.start;
        return m;
    }
    m.from = s->from[k];
    m.to = s->to[k];
    return m;
}

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
    struct onnx__walk walk; /* the values checked, the records given */
};

/* A piece of the walk done: false when it failed (err filled, or its path
 * out of memory) or a callback answered other than ONNX_STEP_GO. */
static bool walked(const struct model_reader *mr, bool ok)
{
    return ok && !mr->walk.stop;
}

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

static const uint8_t empty_name[1];

/* The slot of b (hash h), or the empty slot where it would go. */
static size_t find(const struct name_set *s, struct onnx_bytes b, uint64_t h)
{
    size_t i = onnx_hash_slot(h, s->cap - 1);
    for (;; i = (i + 1) & (s->cap - 1)) {
        const struct name_slot *x = &s->slots[i];
        if (x->name.p == NULL || (x->hash == h && onnx_bytes_eq(x->name, b)))
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
    const uint64_t h = onnx_hash(b);
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
    return s->cap != 0 && s->slots[find(s, b, onnx_hash(b))].name.p != NULL;
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

/* AttributeProto.floats: fixed32 values, packed or not (the validator
 * counted them). */
static bool read_floats(struct reader *r, const struct pb_msg *m, uint64_t count,
                        struct onnx_attr *a)
{
    if (!onnx__count_fits(r, count, m->start, "floats", &a->n_floats))
        return false;
    float *v = onnx__arena_alloc(r->arena, a->n_floats, sizeof *v);
    if (v == NULL)
        return onnx__reader_oom(r);
    uint32_t n = 0;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, NULL)) {
        if (f.number != ONNXF_ATTR_FLOATS)
            continue;
        const size_t start = f.wt == PB_LEN ? f.start : f.end - 4;
        for (size_t at = start; at < f.end && n < a->n_floats; at += 4)
            v[n++] = onnx__pb_float_le(r->base + at);
    }
    a->floats = v;
    return true;
}

/* The scalar fields of an attribute (checked by its validator, v). */
static bool attr_scalars(struct reader *r, const struct pb_msg *m, const struct onnx_attr_msg *v,
                         struct onnx_attr *a)
{
    if (v->has_name)
        a->name = onnx__reader_text(r, &v->name);
    a->type = (enum onnx_attr_type)v->type;
    memcpy(&a->f, &v->f_bits, sizeof a->f);
    a->has_f = v->has_f;
    a->i = v->i;
    a->has_i = v->has_i;
    if (v->has_s)
        a->s = onnx__reader_text(r, &v->s);
    a->has_s = v->has_s;
    return onnx__count_fits(r, v->n_strings, m->start, "strings", &a->n_strings) &&
           onnx__count_fits(r, v->n_tensors, m->start, "tensors", &a->n_tensors) &&
           onnx__count_fits(r, v->n_graphs, m->start, "graphs", &a->n_graphs) &&
           onnx__read_int64s(r, m, ONNXF_ATTR_INTS, v->n_ints, m->start, "AttributeProto.ints",
                             &a->n_ints, &a->ints) &&
           read_floats(r, m, v->n_floats, a);
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
        if (f.number == ONNXF_ATTR_STRINGS) {
            strings[ns++] = onnx__reader_text(r, &f);
        } else if (f.number == ONNXF_ATTR_TENSORS) {
            if (!onnx__element(m, &f, &e, r->err) || !onnx__read_tensor(r, &e, &tensors[nt++]))
                return false;
        } else if (f.number == ONNXF_ATTR_GRAPHS) {
            uint32_t index = 0;
            const size_t mark = mr->walk.path.len;
            onnx__walk_path_index(&mr->walk, ng);
            if (!onnx__element(m, &f, &e, r->err) || !read_graph(mr, &e, graph, owner, &index) ||
                !later(mr, &graphs[ng++], index))
                return false;
            onnx__walk_path_back(&mr->walk, mark);
        }
    }
    return !it.failed;
}

/* An attribute's t or sparse_tensor (field), merged. */
static bool attr_tensor(struct reader *r, const struct pb_msg *m, unsigned field,
                        const struct onnx_tensor_data **out)
{
    struct onnx_tensor_data *t = onnx__arena_alloc(r->arena, 1, sizeof *t);
    if (t == NULL)
        return onnx__reader_oom(r);
    struct pb_msg sub;
    if (!onnx__pb_sub(m, field, &sub, r->err) ||
        !(field == ONNXF_ATTR_T ? onnx__read_tensor(r, &sub, t) : onnx__read_sparse(r, &sub, t)))
        return false;
    *out = t;
    return true;
}

/* An attribute of owner (a Constant node: constant, its first output
 * output0 or NULL). */
static bool read_attr(struct model_reader *mr, const struct pb_msg *m, uint32_t graph,
                      const struct onnx_node *owner, struct onnx_attr *a, bool constant,
                      const struct onnx_bytes *output0)
{
    struct reader *r = &mr->r;
    struct onnx_attr_msg v;
    size_t mark;
    if (!onnx__check_attribute(m, &v, r->err) ||
        !walked(mr, onnx__walk_attribute(&mr->walk, m, &v, constant, output0, &mark)) ||
        !attr_scalars(r, m, &v, a))
        return false;
    if ((v.has_t && !attr_tensor(r, m, ONNXF_ATTR_T, &a->t)) ||
        (v.has_sparse_tensor && !attr_tensor(r, m, ONNXF_ATTR_SPARSE_TENSOR, &a->sparse_tensor)))
        return false;
    struct pb_msg sub;
    if (v.has_g) {
        uint32_t index = 0;
        if (!onnx__pb_sub(m, ONNXF_ATTR_G, &sub, r->err) ||
            !read_graph(mr, &sub, graph, owner, &index) || !later(mr, &a->g, index))
            return false;
    }
    if (!attr_lists(mr, m, a, graph, owner))
        return false;
    onnx__walk_path_back(&mr->walk, mark);
    return true;
}

/* The node at index of graph. */
static bool read_node(struct model_reader *mr, const struct pb_msg *m, uint32_t graph,
                      uint32_t index, struct onnx_node *node)
{
    struct reader *r = &mr->r;
    struct onnx_node_msg v;
    size_t mark;
    bool constant;
    if (!onnx__check_node(m, &v, r->err) ||
        !walked(mr, onnx__walk_node(&mr->walk, index, &v, &mark, &constant)) ||
        !onnx__count_fits(r, v.n_inputs, m->start, "inputs", &node->n_inputs) ||
        !onnx__count_fits(r, v.n_outputs, m->start, "outputs", &node->n_outputs) ||
        !onnx__count_fits(r, v.n_attributes, m->start, "attributes", &node->n_attrs))
        return false;
    /* Text is copied where it is kept: names, op_type, domain (not an
     * attribute's bytes, nor a doc_string). */
    if (v.has_name)
        node->name = onnx__reader_text(r, &v.name);
    if (v.has_op_type)
        node->op_type = onnx__reader_text(r, &v.op_type);
    if (v.has_domain)
        node->domain = onnx__reader_text(r, &v.domain);
    struct onnx_bytes *inputs = onnx__arena_alloc(r->arena, node->n_inputs, sizeof *inputs);
    struct onnx_bytes *outputs = onnx__arena_alloc(r->arena, node->n_outputs, sizeof *outputs);
    struct onnx_attr *attrs = onnx__arena_alloc(r->arena, node->n_attrs, sizeof *attrs);
    if (inputs == NULL || outputs == NULL || attrs == NULL)
        return onnx__reader_oom(r);
    node->inputs = inputs;
    node->outputs = outputs;
    node->attrs = attrs;
    uint32_t ni = 0, no = 0;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        struct onnx_bytes *to = f.number == ONNXF_NODE_INPUT    ? &inputs[ni++]
                                : f.number == ONNXF_NODE_OUTPUT ? &outputs[no++]
                                                                : NULL;
        if (to != NULL && !names_add(mr, *to = onnx__reader_text(r, &f)))
            return false;
    }
    if (it.failed)
        return false;
    /* The attributes last: their graphs read after the node's names. */
    uint32_t na = 0;
    struct pb_msg e;
    const struct onnx_bytes out0 = onnx__pb_bytes(r->base, &v.output0);
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err))
        if (f.number == ONNXF_NODE_ATTRIBUTE &&
            (!onnx__element(m, &f, &e, r->err) ||
             !read_attr(mr, &e, graph, node, &attrs[na++], constant, v.has_output ? &out0 : NULL)))
            return false;
    if (it.failed)
        return false;
    onnx__walk_path_back(&mr->walk, mark);
    return true;
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
    struct graph_slot *slot = &mr->graphs[mr->n_graphs++];
    slot->g = g;
    slot->msg = *m;
    slot->parent = parent;
    for (int k = 0; k < SPANS; k++) {
        slot->from[k] = SIZE_MAX;
        slot->to[k] = 0;
    }
    g->index = *index;
    g->owner = owner;
    /* Its values checked (and recorded) first, as the walk enters a graph. */
    struct onnx__walk *w = &mr->walk;
    const uint32_t outer = w->graph, outer_node = w->node;
    w->graph = *index;
    if (!walked(mr, onnx__walk_values(w, m, *index == 0)))
        return false;
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    uint32_t nn = 0, no = 0;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        bool ok = true;
        (void)onnx__graph_field(&f, &ok, r->err);
        if (!ok || (f.number == ONNXF_GRAPH_NODE && !onnx__count_one(r, &nn, f.at, "nodes")) ||
            (f.number == ONNXF_GRAPH_OUTPUT && !onnx__count_one(r, &no, f.at, "outputs")))
            return false;
        const int k = span_of(f.number);
        if (k >= 0) { /* (slot: no graph was added since) */
            slot->from[k] = slot->from[k] == SIZE_MAX ? f.at : slot->from[k];
            slot->to[k] = f.end;
        }
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
    const struct pb_msg nodes_outputs = span(slot, SPAN_NODES_OUTPUTS);
    onnx__pb_iter_begin(&it, &nodes_outputs); /* (slot may move: a subgraph grows the slots) */
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        release(mr, *index == 0, f.at);
        if (f.number == ONNXF_GRAPH_NODE) {
            if (!onnx__element(m, &f, &e, r->err) || !read_node(mr, &e, *index, i, &nodes[i]))
                return false;
            g->n_nodes = ++i;
        } else if (f.number == ONNXF_GRAPH_OUTPUT) {
            if (!onnx__element(m, &f, &e, r->err) || !onnx__read_value_info(r, &e, &outputs[o]) ||
                !names_add(mr, outputs[o].name))
                return false;
            g->n_outputs = ++o;
        }
    }
    w->graph = outer;
    w->node = outer_node;
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
    if (field == ONNXF_GRAPH_SPARSE_INITIALIZER)
        return onnx__pb_sub(e, ONNXF_SPARSE_VALUES, &values, r->err) &&
               onnx__read_last_bytes(r, &values, ONNXF_TENSOR_NAME, "TensorProto.name", name,
                                     &given);
    if (field == ONNXF_GRAPH_INITIALIZER)
        return onnx__read_last_bytes(r, e, ONNXF_TENSOR_NAME, "TensorProto.name", name, &given);
    return onnx__read_last_bytes(r, e, ONNXF_VALUE_INFO_NAME, "ValueInfoProto.name", name, &given);
}

/* The graph's values of field `field` that a node or an output names:
 * counted into *k when vi and td are NULL, else read into vi[*k..] or
 * td[*k..]. */
static bool values_of(struct model_reader *mr, const struct graph_slot *s, unsigned field,
                      uint32_t *k, struct onnx_value_info *vi, struct onnx_tensor_data *td)
{
    const struct pb_msg *m = &s->msg;
    const bool main = s == &mr->graphs[0];
    struct reader *r = &mr->r;
    struct pb_iter it;
    struct pb_field f;
    struct pb_msg e;
    struct onnx_bytes name;
    const struct pb_msg of_field = span(s, span_of(field));
    onnx__pb_iter_begin(&it, &of_field);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        release(mr, main, f.at);
        if (f.number != field)
            continue;
        if (!onnx__element(m, &f, &e, r->err) || !value_name(r, &e, field, &name))
            return false;
        /* A subgraph's inputs are positional (a Loop's or Scan's body
         * binds them by index): every one is kept, named or not. */
        if (!(field == ONNXF_GRAPH_INPUT && !main) && !names_have(&mr->names, name))
            continue;
        bool ok;
        if (vi == NULL && td == NULL)
            ok = onnx__count_one(r, k, f.at, "values");
        else if (vi != NULL)
            ok = onnx__read_value_info(r, &e, &vi[(*k)++]);
        else if (field == ONNXF_GRAPH_INITIALIZER)
            ok = onnx__read_tensor(r, &e, &td[(*k)++]);
        else
            ok = onnx__read_sparse(r, &e, &td[(*k)++]);
        if (!ok)
            return false;
    }
    return !it.failed;
}

/* g's initializers by name, for onnx_graph_has_initializer: an open
 * addressing table of their indices (UINT32_MAX empty), at least twice as
 * many slots as initializers, in the reader's arena. False out of memory. */
static bool index_initializers(struct reader *r, struct onnx_graph *g)
{
    size_t cap = 2;
    while (cap < 2 * (size_t)g->n_initializers)
        cap *= 2;
    uint32_t *slots = onnx__arena_alloc(r->arena, cap, sizeof *slots);
    if (slots == NULL)
        return onnx__reader_oom(r);
    memset(slots, 0xff, cap * sizeof *slots);
    for (uint32_t k = 0; k < g->n_initializers; k++) {
        size_t i = onnx_hash_slot(onnx_hash(g->initializers[k].name), cap - 1);
        while (slots[i] != UINT32_MAX)
            i = (i + 1) & (cap - 1);
        slots[i] = k;
    }
    g->initializer_slots = slots;
    g->initializer_mask = (uint32_t)(cap - 1);
    return true;
}

/* Phase two: a graph's inputs, initializers (dense, then sparse) and
 * value_info that a node or an output names. */
static bool graph_values(struct model_reader *mr, const struct graph_slot *s)
{
    struct reader *r = &mr->r;
    struct onnx_graph *g = s->g;
    uint32_t n_in = 0, n_vi = 0, n_init = 0;
    if (!values_of(mr, s, ONNXF_GRAPH_INPUT, &n_in, NULL, NULL) ||
        !values_of(mr, s, ONNXF_GRAPH_VALUE_INFO, &n_vi, NULL, NULL) ||
        !values_of(mr, s, ONNXF_GRAPH_INITIALIZER, &n_init, NULL, NULL) ||
        !values_of(mr, s, ONNXF_GRAPH_SPARSE_INITIALIZER, &n_init, NULL, NULL))
        return false;
    struct onnx_value_info *in = onnx__arena_alloc(r->arena, n_in, sizeof *in);
    struct onnx_value_info *vi = onnx__arena_alloc(r->arena, n_vi, sizeof *vi);
    struct onnx_tensor_data *init = onnx__arena_alloc(r->arena, n_init, sizeof *init);
    if (in == NULL || vi == NULL || init == NULL)
        return onnx__reader_oom(r);
    g->inputs = in;
    g->value_info = vi;
    g->initializers = init;
    if (!values_of(mr, s, ONNXF_GRAPH_INPUT, &g->n_inputs, in, NULL) ||
        !values_of(mr, s, ONNXF_GRAPH_VALUE_INFO, &g->n_value_info, vi, NULL) ||
        !values_of(mr, s, ONNXF_GRAPH_INITIALIZER, &g->n_initializers, NULL, init) ||
        !values_of(mr, s, ONNXF_GRAPH_SPARSE_INITIALIZER, &g->n_initializers, NULL, init))
        return false;
    return index_initializers(r, g);
}

/* ModelProto's own fields (checked by its validator); the graph's
 * message. */
static bool model_fields(struct model_reader *mr, const struct pb_msg *root,
                         struct onnx_model *model, struct pb_msg *graph)
{
    struct reader *r = &mr->r;
    struct onnx_model_msg v;
    if (!onnx__check_model(root, &v, r->err) ||
        !onnx__count_fits(r, v.n_opsets, root->start, "opsets", &model->n_opsets))
        return false;
    model->ir_version = (int64_t)v.ir_version;
    if (v.has_producer_name)
        model->producer_name = onnx__reader_text(r, &v.producer_name);
    if (v.has_producer_version)
        model->producer_version = onnx__reader_text(r, &v.producer_version);
    struct onnx_opset *opsets = onnx__arena_alloc(r->arena, model->n_opsets, sizeof *opsets);
    if (opsets == NULL)
        return onnx__reader_oom(r);
    model->opsets = opsets;
    uint32_t k = 0;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, root);
    while (k < model->n_opsets && onnx__pb_iter_next(&it, &f, NULL)) {
        if (f.number != ONNXF_MODEL_OPSET_IMPORT)
            continue;
        struct onnx_opset *o = &opsets[k++];
        struct onnx_bytes domain;
        (void)onnx__check_opset(r->base, &f, &domain, &o->version, NULL); /* checked */
        if (domain.p != NULL)
            o->domain = onnx__reader_bytes(r, domain);
    }
    *graph = v.graph;
    return true;
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
    return onnx_model_read_walking(data, len, max_memory, model, err, out_of_memory, release_fn,
                                   release_ctx, NULL);
}

bool onnx_model_read_walking(const uint8_t *data, size_t len, size_t max_memory,
                             struct onnx_model *model, struct onnx_error *err, bool *out_of_memory,
                             onnx_model_release_fn release_fn, void *release_ctx,
                             const struct onnx_model_records *records)
{
    memset(model, 0, sizeof *model);
    memset(err, 0, sizeof *err);
    *out_of_memory = false;
    onnx__pb_count_pass(ONNX_READER_MODEL);
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
    const struct onnx_model_records none = {NULL, NULL, NULL};
    if (records == NULL)
        records = &none;
    onnx__walk_begin(&mr.walk, data, records->fn, records->node_fn, release_fn, records->ctx, err);
    mr.walk.release_ctx = release_ctx; /* the main graph's values let go as they are checked */
    const struct pb_msg root = onnx__pb_root(data, 0, len, 0);
    struct pb_msg graph = root; /* model_fields sets it */
    uint32_t main_graph = 0;
    bool ok = model_fields(&mr, &root, model, &graph) &&
              read_graph(&mr, &graph, UINT32_MAX, NULL, &main_graph);
    /* A callback's answer other than go ends the read as a failed one. */
    mr.walk.fn_fails = mr.walk.fn_fails || mr.walk.stop;
    bool path_oom;
    ok = onnx__walk_end(&mr.walk, ok || mr.walk.stop, &path_oom) && ok;
    for (size_t i = 0; ok && i < mr.n_graphs; i++)
        ok = graph_values(&mr, &mr.graphs[i]);
    ok = ok && place_graphs(&mr, model);
    if (ok && arena->failed) /* a text that could not be copied */
        ok = onnx__reader_oom(&mr.r);
    if (path_oom) { /* the walk's path could not grow */
        arena->failed = true;
        arena->over = false;
        onnx__pb_fail(err, 0, "out of memory");
    }
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

int64_t onnx_model_opset(const struct onnx_model *model)
{
    int64_t v = 0;
    for (uint32_t i = 0; i < model->n_opsets; i++)
        if (onnx_default_domain(model->opsets[i].domain))
            v = model->opsets[i].version; /* the last given */
    return v;
}

const struct onnx_attr *onnx_node_attr(const struct onnx_node *node, const char *name)
{
    for (uint32_t i = 0; i < node->n_attrs; i++)
        if (onnx_bytes_is(node->attrs[i].name, name))
            return &node->attrs[i];
    return NULL;
}

bool onnx_node_is_constant(const struct onnx_node *n)
{
    return onnx__is_constant_op(n->op_type, n->domain);
}

bool onnx_graph_has_initializer(const struct onnx_graph *g, struct onnx_bytes name)
{
    if (g->initializer_slots == NULL) { /* a graph built by hand (tests) */
        for (uint32_t k = 0; k < g->n_initializers; k++)
            if (onnx_bytes_eq(g->initializers[k].name, name))
                return true;
        return false;
    }
    for (size_t i = onnx_hash_slot(onnx_hash(name), g->initializer_mask);
         g->initializer_slots[i] != UINT32_MAX; i = (i + 1) & g->initializer_mask)
        if (onnx_bytes_eq(g->initializers[g->initializer_slots[i]].name, name))
            return true;
    return false;
}
