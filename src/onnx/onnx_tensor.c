/* onnx_tensor.c - the model reader's tensors, types and values
 * (onnx_model.c reads the graphs around them), and its arena. Each message
 * is read as protobuf reads it (pb.h's struct pb_msg: every occurrence of
 * a message field, in order): the last scalar wins, repeated fields append
 * (packed or not), a message field given twice is merged. Each message is
 * checked by its validator (onnx_proto.h, the walk's too), whose view is
 * read into the model here. */
#include "model_read.h"
#include "onnx_proto.h"

#include <stdlib.h>
#include <string.h>

/* ---- the arena ----------------------------------------------------------- */

struct arena_chunk {
    struct arena_chunk *next;
    size_t used, cap; /* in units of max_align_t */
    max_align_t data[];
};

enum { CHUNK_UNITS = 4096 }; /* 64 KiB with 16-byte units */

bool onnx__arena_charge(struct arena *a, size_t bytes)
{
    if (bytes > a->limit || a->bytes > a->limit - bytes) {
        a->failed = true;
        a->over = true;
        return false;
    }
    a->bytes += bytes;
    return true;
}

void *onnx__arena_alloc(struct arena *a, size_t n, size_t size)
{
    if (a->failed)
        return NULL;
    if (size != 0 && n > SIZE_MAX / size) {
        a->failed = true;
        return NULL;
    }
    const size_t bytes = n * size;
    const size_t unit = sizeof(max_align_t);
    /* at least one: n == 0 is a valid pointer too */
    const size_t units = bytes == 0 ? 1 : bytes / unit + (bytes % unit != 0);
    struct arena_chunk *c = a->head;
    if (c == NULL || c->cap - c->used < units) {
        const size_t cap = units > CHUNK_UNITS ? units : CHUNK_UNITS;
        if (cap > (SIZE_MAX - sizeof *c) / unit) {
            a->failed = true;
            return NULL;
        }
        c = onnx__arena_charge(a, sizeof *c + cap * unit) ? malloc(sizeof *c + cap * unit) : NULL;
        if (c == NULL) {
            a->failed = true;
            return NULL;
        }
        c->used = 0;
        c->cap = cap;
        if (a->head != NULL && a->head->cap - a->head->used > cap - units) {
            /* a big block: behind the current chunk, whose room stays */
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    void *p = c->data + c->used;
    c->used += units;
    memset(p, 0, bytes);
    return p;
}

void onnx__arena_free(struct arena *a)
{
    while (a->head != NULL) {
        struct arena_chunk *next = a->head->next;
        free(a->head);
        a->head = next;
    }
}

bool onnx__reader_oom(struct reader *r)
{
    r->arena->failed = true;
    return onnx__pb_fail(r->err, 0, "out of memory");
}

bool onnx__count_fits(struct reader *r, uint64_t count, size_t at, const char *what, uint32_t *n)
{
    if (count > UINT32_MAX)
        return onnx__pb_fail(r->err, at, "more than %u %s", UINT32_MAX, what);
    *n = (uint32_t)count;
    return true;
}

bool onnx__count_one(struct reader *r, uint32_t *n, size_t at, const char *what)
{
    if (*n == UINT32_MAX)
        return onnx__pb_fail(r->err, at, "more than %u %s", UINT32_MAX, what);
    (*n)++;
    return true;
}

/* ---- repeated and last fields ------------------------------------------- */

static bool int64s_each(void *ctx, uint64_t v, size_t at)
{
    (void)at;
    int64_t **next = ctx;
    *(*next)++ = (int64_t)v;
    return true;
}

bool onnx__read_int64s(struct reader *r, const struct pb_msg *m, unsigned number, uint64_t count,
                       size_t at, const char *what, uint32_t *n, const int64_t **values)
{
    if (!onnx__count_fits(r, count, at, what, n))
        return false;
    int64_t *v = onnx__arena_alloc(r->arena, (size_t)count, sizeof *v);
    if (v == NULL)
        return onnx__reader_oom(r);
    int64_t *next = v;
    struct onnx_error ignored; /* checked by the message's validator */
    if (!onnx__pb_each_varint(m, number, what, int64s_each, &next, NULL, &ignored) ||
        next != v + count)
        return onnx__pb_fail(r->err, at, "%s: not as counted", what); /* never */
    *values = v;
    return true;
}

struct onnx_bytes onnx__reader_bytes(struct reader *r, struct onnx_bytes b)
{
    static const uint8_t none[1] = {0};
    uint8_t *copy = onnx__arena_alloc(r->arena, b.n ? b.n : 1, 1);
    if (copy == NULL)
        return (struct onnx_bytes){none, 0};
    if (b.n)
        memcpy(copy, b.p, b.n);
    return (struct onnx_bytes){copy, b.n};
}

struct onnx_bytes onnx__reader_text(struct reader *r, const struct pb_field *f)
{
    return onnx__reader_bytes(r, onnx__pb_bytes(r->base, f));
}

bool onnx__read_last_bytes(struct reader *r, const struct pb_msg *m, unsigned number,
                           const char *what, struct onnx_bytes *b, bool *given)
{
    struct pb_iter it;
    struct pb_field f;
    *given = false;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        if (f.number != number)
            continue;
        if (!onnx__pb_want(&f, PB_LEN, what, r->err))
            return false;
        *b = onnx__pb_bytes(r->base, &f); /* a name to look up, not kept: not copied */
        *given = true;
    }
    return !it.failed;
}

/* ---- a small integer tensor's values ------------------------------------- */

/* Bytes per element of the integer types whose values are read; 0 for the
 * others. */
static unsigned int_size(int32_t elem_type)
{
    switch (elem_type) {
    case 2: /* UINT8 */
    case 3: /* INT8 */
    case 9: /* BOOL */
        return 1;
    case 4: /* UINT16 */
    case 5: /* INT16 */
        return 2;
    case 6:  /* INT32 */
    case 12: /* UINT32 */
        return 4;
    case 7:  /* INT64 */
    case 13: /* UINT64 */
        return 8;
    default:
        return 0;
    }
}

/* A stored value (raw bits, or a typed field's varint) as the element
 * type's value: narrower types keep their low bits, as numpy's astype. */
static bool int_value(int32_t elem_type, uint64_t bits, int64_t *v)
{
    switch (elem_type) {
    case 2:
        *v = (uint8_t)bits;
        return true;
    case 3: /* the low byte, two's complement */
        *v = (int64_t)(bits & 0xff) - ((bits & 0x80) ? 256 : 0);
        return true;
    case 9:
        *v = (uint8_t)bits != 0;
        return true;
    case 4:
        *v = (uint16_t)bits;
        return true;
    case 5:
        *v = (int16_t)(uint16_t)bits;
        return true;
    case 6:
        *v = (int32_t)(uint32_t)bits;
        return true;
    case 12:
        *v = (uint32_t)bits;
        return true;
    case 13:
        if (bits > INT64_MAX)
            return false; /* not an int64 */
        *v = (int64_t)bits;
        return true;
    default:
        *v = (int64_t)bits;
        return true;
    }
}

struct typed {
    int32_t elem_type;
    uint32_t n, want;
    int64_t *values;
    bool ok;
};

static bool typed_each(void *ctx, uint64_t v, size_t at)
{
    (void)at;
    struct typed *s = ctx;
    if (s->n >= s->want || !int_value(s->elem_type, v, &s->values[s->n]))
        s->ok = false;
    else
        s->n++;
    return true;
}

/* The values of t, a FLOAT tensor of count elements, from raw_data
 * (little-endian) when given, else from float_data (fixed32, packed or
 * not). Data this reader cannot take leaves the values out. */
static bool read_floats(struct reader *r, const struct pb_msg *m, struct onnx_tensor_data *t,
                        const struct onnx_bytes *raw, bool has_raw, uint32_t count)
{
    float *v = onnx__arena_alloc(r->arena, count + 1, sizeof *v);
    if (v == NULL)
        return onnx__reader_oom(r);
    uint32_t n = 0;
    if (has_raw) {
        if (raw->n != (size_t)count * 4)
            return true;
        for (; n < count; n++)
            v[n] = onnx__pb_float_le(raw->p + (size_t)4 * n);
    } else {
        struct onnx_error ignored;
        struct pb_iter it;
        struct pb_field f;
        onnx__pb_iter_begin(&it, m);
        while (onnx__pb_iter_next(&it, &f, &ignored)) {
            if (f.number != ONNXF_TENSOR_FLOAT_DATA)
                continue;
            if (f.wt != PB_LEN && f.wt != PB_FIXED32)
                return true;
            const size_t start = f.wt == PB_LEN ? f.start : f.end - 4;
            if ((f.end - start) % 4 != 0)
                return true;
            for (size_t at = start; at < f.end; at += 4) {
                if (n == count)
                    return true;
                v[n++] = onnx__pb_float_le(r->base + at);
            }
        }
        if (it.failed || n != count)
            return true;
    }
    t->n_floats = count;
    t->floats = v;
    return true;
}

/* The values of t, an integer tensor of at most ONNX_SMALL_DATA elements
 * or a FLOAT one of at most ONNX_SMALL_FLOATS, from raw_data
 * (little-endian) when given, else from its typed field. */
static bool read_values(struct reader *r, const struct pb_msg *m, struct onnx_tensor_data *t,
                        const struct onnx_bytes *raw, bool has_raw)
{
    const unsigned size = int_size(t->elem_type);
    const bool is_float = t->elem_type == 1;
    if ((size == 0 && !is_float) || t->external)
        return true;
    const uint64_t cap = is_float ? ONNX_SMALL_FLOATS : ONNX_SMALL_DATA;
    uint64_t count = 1;
    for (uint32_t i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return true;
        if (t->dims[i] == 0)
            count = 0;
        else if (count != 0 && (uint64_t)t->dims[i] > cap / count)
            return true;
        else
            count *= (uint64_t)t->dims[i];
    }
    if (is_float)
        return read_floats(r, m, t, raw, has_raw, (uint32_t)count);
    int64_t *v = onnx__arena_alloc(r->arena, (size_t)count, sizeof *v);
    if (v == NULL)
        return onnx__reader_oom(r);
    if (has_raw) {
        if (raw->n != count * size)
            return true;
        for (uint64_t i = 0; i < count; i++) {
            uint64_t bits = 0;
            for (unsigned b = 0; b < size; b++)
                bits |= (uint64_t)raw->p[i * size + b] << (8 * b);
            if (!int_value(t->elem_type, bits, &v[i]))
                return true;
        }
    } else {
        const unsigned field = t->elem_type == 7                 ? ONNXF_TENSOR_INT64_DATA
                               : size == 8 || t->elem_type == 12 ? ONNXF_TENSOR_UINT64_DATA
                                                                 : ONNXF_TENSOR_INT32_DATA;
        struct typed s = {t->elem_type, 0, (uint32_t)count, v, true};
        /* Tensor data is not checked (the walk skips it unread): data this
         * reader cannot take (a wrong wire type) leaves the values out. */
        struct onnx_error ignored;
        if (!onnx__pb_each_varint(m, field, "a TensorProto data field", typed_each, &s, NULL,
                                  &ignored) ||
            !s.ok || s.n != count)
            return true;
    }
    t->has_values = true;
    t->n_values = (uint32_t)count;
    t->values = v;
    return true;
}

/* ---- messages: their validators' views (onnx_proto.h) into the model -------- */

bool onnx__read_tensor(struct reader *r, const struct pb_msg *m, struct onnx_tensor_data *t)
{
    struct onnx_tensor_msg v;
    if (!onnx__check_tensor(m, &v, r->err))
        return false;
    t->elem_type = v.data_type;
    if (v.has_name)
        t->name = onnx__reader_text(r, &v.name);
    t->external = v.external;
    const struct onnx_bytes raw = onnx__pb_bytes(r->base, &v.raw_data);
    return onnx__read_int64s(r, m, ONNXF_TENSOR_DIMS, v.rank, m->start, "TensorProto.dims",
                             &t->rank, &t->dims) &&
           read_values(r, m, t, &raw, v.has_raw_data);
}

bool onnx__read_sparse(struct reader *r, const struct pb_msg *m, struct onnx_tensor_data *t)
{
    struct onnx_sparse_msg v;
    if (!onnx__check_sparse(m, &v, r->err))
        return false;
    if (v.has_values) {
        t->name = v.values.has_name ? onnx__reader_text(r, &v.values.name) : (struct onnx_bytes){0};
        t->elem_type = v.values.data_type;
    }
    t->sparse = true;
    return onnx__read_int64s(r, m, ONNXF_SPARSE_DIMS, v.rank, m->start, "SparseTensorProto.dims",
                             &t->rank, &t->dims);
}

/* A tensor type's dims (TensorShapeProto, merged), the symbols copied. */
static bool read_shape(struct reader *r, const struct onnx_type_msg *v, struct onnx_type *t)
{
    uint32_t rank = 0;
    if (!onnx__count_fits(r, v->rank, v->shape.start, "dims", &rank))
        return false;
    struct onnx_dim *dims = onnx__arena_alloc(r->arena, (size_t)v->rank, sizeof *dims);
    if (dims == NULL)
        return onnx__reader_oom(r);
    uint32_t n = 0;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, &v->shape);
    while (n < rank) {
        if (rank <= ONNX_VIEW_DIMS) {
            dims[n] = v->dims[n]; /* read by onnx__check_type */
        } else if (!onnx__pb_iter_next(&it, &f, NULL)) {
            break;
        } else if (f.number != ONNXF_SHAPE_DIM) {
            continue;
        } else {
            (void)onnx__read_dim(r->base, &f, &dims[n], NULL); /* checked by onnx__check_type */
        }
        struct onnx_dim *d = &dims[n++];
        if (d->param.p != NULL)
            d->param = onnx__reader_bytes(r, d->param);
    }
    t->rank = n;
    t->dims = dims;
    return true;
}

static bool type_from(struct reader *r, const struct pb_msg *m, const struct onnx_type_msg *v,
                      struct onnx_type *t);

/* TypeProto.Sequence's or .Optional's elem_type when it is a tensor type,
 * into t->elem. Read quietly and only where its path fits: what it cannot
 * read (damage, nesting past PB_MAX_PATH) leaves elem NULL, and the model
 * reads as it did without it. */
static bool read_elem_type(struct reader *r, const struct pb_msg *m, const struct onnx_type_msg *v,
                           struct onnx_type *t)
{
    struct onnx_error ignored;
    struct reader quiet = *r;
    quiet.err = &ignored;
    struct pb_msg outer, inner;
    /* outer, its elem_type, that type's tensor_type and its shape */
    if (m->n_path + 4 > PB_MAX_PATH || onnx__pb_depth(m) + 4 > PB_MAX_DEPTH ||
        !onnx__pb_sub(m, v->which, &outer, &ignored))
        return true;
    outer.from = v->from;
    struct pb_iter it;
    struct pb_field f;
    bool has = false;
    onnx__pb_iter_begin(&it, &outer);
    while (onnx__pb_iter_next(&it, &f, &ignored))
        if (f.number == ONNXF_SEQUENCE_ELEM_TYPE) {
            if (f.wt != PB_LEN)
                return true;
            has = true;
        }
    if (it.failed || !has || !onnx__pb_sub(&outer, ONNXF_SEQUENCE_ELEM_TYPE, &inner, &ignored))
        return true;
    struct onnx_type *e = onnx__arena_alloc(r->arena, 1, sizeof *e);
    if (e == NULL)
        return onnx__reader_oom(r);
    memset(e, 0, sizeof *e);
    struct onnx_type_msg ev;
    if (onnx__check_type(&inner, &ev, &ignored) && type_from(&quiet, &inner, &ev, e) &&
        e->value == ONNX_V_TENSOR)
        t->elem = e;
    return !r->arena->failed || onnx__reader_oom(r);
}

/* A TypeProto m, checked into v, as the model's type. */
static bool type_from(struct reader *r, const struct pb_msg *m, const struct onnx_type_msg *v,
                      struct onnx_type *t)
{
    t->value = v->value;
    if (v->which == ONNXF_TYPE_SEQUENCE_TYPE || v->which == ONNXF_TYPE_OPTIONAL_TYPE)
        return read_elem_type(r, m, v, t);
    if (v->which != ONNXF_TYPE_TENSOR_TYPE && v->which != ONNXF_TYPE_SPARSE_TENSOR_TYPE)
        return true;
    if (v->has_elem_type) {
        t->has_elem_type = true;
        t->elem_type = v->elem_type;
    }
    t->has_shape = v->has_shape;
    return !v->has_shape || read_shape(r, v, t);
}

bool onnx__read_type(struct reader *r, const struct pb_msg *m, struct onnx_type *t)
{
    struct onnx_type_msg v;
    return onnx__check_type(m, &v, r->err) && type_from(r, m, &v, t);
}

bool onnx__read_value_info(struct reader *r, const struct pb_msg *m, struct onnx_value_info *vi)
{
    struct onnx_value_info_msg v;
    if (!onnx__check_value_info(m, &v, r->err))
        return false;
    if (v.has_name)
        vi->name = onnx__reader_text(r, &v.name);
    vi->type.value = ONNX_V_UNTYPED;
    return !v.has_type || type_from(r, &v.type_msg, &v.type, &vi->type);
}
