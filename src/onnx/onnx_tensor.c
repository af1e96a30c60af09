/* onnx_tensor.c - the model reader's tensors, types and values
 * (onnx_model.c reads the graphs around them), and its arena. Each message
 * is read as protobuf reads it (pb.h's struct pb_msg: every occurrence of
 * a message field, in order): the last scalar wins, repeated fields append
 * (packed or not), a message field given twice is merged. Field numbers
 * are onnx.proto's:
 *
 *   TensorProto       dims 1, data_type 2, float_data 4, int32_data 5, int64_data 7,
 *                     name 8, raw_data 9, uint64_data 11, data_location 14
 *   SparseTensorProto values 1, indices 2, dims 3
 *   ValueInfoProto    name 1, type 2
 *   TypeProto         tensor_type 1, sequence_type 4, map_type 5,
 *                     sparse_tensor_type 8, optional_type 9 (a oneof)
 *   TypeProto.Tensor  elem_type 1, shape 2 (SparseTensor: the same)
 *   TensorShapeProto  dim 1; Dimension dim_value 1, dim_param 2 (a oneof) */
#include "model_read.h"

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

bool onnx__count_one(struct reader *r, uint32_t *n, size_t at, const char *what)
{
    if (*n == UINT32_MAX)
        return onnx__pb_fail(r->err, at, "more than %u %s", UINT32_MAX, what);
    (*n)++;
    return true;
}

/* ---- repeated and last fields ------------------------------------------- */

/* Calls each for every value of a repeated varint field, packed or not. */
static bool each_varint(struct reader *r, const struct pb_msg *m, unsigned number, const char *what,
                        bool (*each)(void *ctx, uint64_t v, size_t at), void *ctx)
{
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        if (f.number != number)
            continue;
        if (f.wt == PB_VARINT) {
            if (!each(ctx, f.v, f.at))
                return false;
            continue;
        }
        if (!onnx__pb_want(&f, PB_LEN, what, r->err))
            return false;
        struct pb p = {r->base, f.start, f.end};
        while (p.pos < p.end) {
            const size_t at = p.pos;
            uint64_t v = 0;
            if (!onnx__pb_varint(&p, &v, r->err) || !each(ctx, v, at))
                return false;
        }
    }
    return !it.failed;
}

struct int64s {
    struct reader *r;
    const char *what;
    uint32_t n;
    int64_t *values; /* NULL while counting */
};

static bool int64s_each(void *ctx, uint64_t v, size_t at)
{
    struct int64s *s = ctx;
    if (s->values != NULL) {
        s->values[s->n++] = (int64_t)v;
        return true;
    }
    return onnx__count_one(s->r, &s->n, at, s->what);
}

bool onnx__read_int64s(struct reader *r, const struct pb_msg *m, unsigned number, const char *what,
                       uint32_t *n, const int64_t **values)
{
    struct int64s s = {r, what, 0, NULL};
    if (!each_varint(r, m, number, what, int64s_each, &s))
        return false;
    int64_t *v = onnx__arena_alloc(r->arena, s.n, sizeof *v);
    if (v == NULL)
        return onnx__reader_oom(r);
    const uint32_t count = s.n;
    s.n = 0;
    s.values = v;
    if (!each_varint(r, m, number, what, int64s_each, &s))
        return false;
    *n = count;
    *values = v;
    return true;
}

struct onnx_bytes onnx__reader_text(struct reader *r, const struct pb_field *f)
{
    static const uint8_t none[1] = {0};
    const size_t n = f->end - f->start;
    uint8_t *copy = onnx__arena_alloc(r->arena, n ? n : 1, 1);
    if (copy == NULL)
        return (struct onnx_bytes){none, 0};
    if (n)
        memcpy(copy, r->base + f->start, n);
    return (struct onnx_bytes){copy, n};
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

static float float_at(const uint8_t *p)
{
    const uint32_t bits =
        (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
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
            v[n] = float_at(raw->p + (size_t)4 * n);
    } else {
        struct onnx_error ignored;
        struct pb_iter it;
        struct pb_field f;
        onnx__pb_iter_begin(&it, m);
        while (onnx__pb_iter_next(&it, &f, &ignored)) {
            if (f.number != 4)
                continue;
            if (f.wt != PB_LEN && f.wt != PB_FIXED32)
                return true;
            const size_t start = f.wt == PB_LEN ? f.start : f.end - 4;
            if ((f.end - start) % 4 != 0)
                return true;
            for (size_t at = start; at < f.end; at += 4) {
                if (n == count)
                    return true;
                v[n++] = float_at(r->base + at);
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
        const unsigned field = t->elem_type == 7 ? 7 : size == 8 || t->elem_type == 12 ? 11 : 5;
        struct typed s = {t->elem_type, 0, (uint32_t)count, v, true};
        /* Tensor data is not checked (the walk skips it unread): data this
         * reader cannot take (a wrong wire type) leaves the values out. */
        struct onnx_error ignored;
        struct reader quiet = *r;
        quiet.err = &ignored;
        if (!each_varint(&quiet, m, field, "a TensorProto data field", typed_each, &s) || !s.ok ||
            s.n != count)
            return true;
    }
    t->has_values = true;
    t->n_values = (uint32_t)count;
    t->values = v;
    return true;
}

/* ---- messages -------------------------------------------------------------- */

bool onnx__read_tensor(struct reader *r, const struct pb_msg *m, struct onnx_tensor_data *t)
{
    struct pb_iter it;
    struct pb_field f;
    struct onnx_bytes raw = {NULL, 0};
    bool has_raw = false;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        bool ok = true;
        switch (f.number) {
        case 2:
            ok = onnx__pb_want(&f, PB_VARINT, "TensorProto.data_type", r->err);
            t->elem_type = (int32_t)(uint32_t)f.v;
            break;
        case 8:
            ok = onnx__pb_want(&f, PB_LEN, "TensorProto.name", r->err);
            t->name = onnx__reader_text(r, &f);
            break;
        case 14:
            ok = onnx__pb_want(&f, PB_VARINT, "TensorProto.data_location", r->err);
            t->external = f.v == 1;
            break;
        case 9:
            ok = onnx__pb_want(&f, PB_LEN, "TensorProto.raw_data", r->err);
            raw = onnx__pb_bytes(r->base, &f);
            has_raw = true;
            break;
        case 13:
            ok = onnx__pb_want(&f, PB_LEN, "TensorProto.external_data", r->err);
            break;
        default:
            break; /* dims below; the data fields when the values are read */
        }
        if (!ok)
            return false;
    }
    if (it.failed || !onnx__read_int64s(r, m, 1, "TensorProto.dims", &t->rank, &t->dims))
        return false;
    return read_values(r, m, t, &raw, has_raw);
}

bool onnx__read_sparse(struct reader *r, const struct pb_msg *m, struct onnx_tensor_data *t)
{
    struct pb_iter it;
    struct pb_field f;
    bool has_values = false;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        if (f.number == 1 && !onnx__pb_want(&f, PB_LEN, "SparseTensorProto.values", r->err))
            return false;
        if (f.number == 2 && !onnx__pb_want(&f, PB_LEN, "SparseTensorProto.indices", r->err))
            return false;
        has_values = has_values || f.number == 1;
    }
    if (it.failed)
        return false;
    struct pb_msg values;
    if (has_values) {
        struct onnx_tensor_data v;
        memset(&v, 0, sizeof v);
        if (!onnx__pb_sub(m, 1, &values, r->err) || !onnx__read_tensor(r, &values, &v))
            return false;
        t->name = v.name;
        t->elem_type = v.elem_type;
    }
    t->sparse = true;
    return onnx__read_int64s(r, m, 3, "SparseTensorProto.dims", &t->rank, &t->dims);
}

/* A Dimension (an element of TensorShapeProto.dim): its oneof's last case. */
static bool read_dim(struct reader *r, const struct pb_field *d, struct onnx_dim *dim)
{
    struct pb p = {r->base, d->start, d->end};
    struct pb_field g;
    dim->kind = ONNX_DIM_UNKNOWN;
    while (p.pos < p.end) {
        if (!onnx__pb_next(&p, &g, r->err))
            return false;
        if (g.number == 1) {
            if (!onnx__pb_want(&g, PB_VARINT, "Dimension.dim_value", r->err))
                return false;
            dim->kind = ONNX_DIM_VALUE;
            dim->value = (int64_t)g.v;
            dim->param.p = NULL;
            dim->param.n = 0;
        } else if (g.number == 2) {
            if (!onnx__pb_want(&g, PB_LEN, "Dimension.dim_param", r->err))
                return false;
            dim->kind = ONNX_DIM_PARAM;
            dim->value = 0;
            dim->param = onnx__reader_text(r, &g);
        }
    }
    if (dim->kind == ONNX_DIM_PARAM && dim->param.n == 0)
        dim->kind = ONNX_DIM_UNKNOWN; /* an empty symbol names nothing */
    return true;
}

/* TensorShapeProto (merged): its dims in order. */
static bool read_shape(struct reader *r, const struct pb_msg *shape, struct onnx_type *t)
{
    for (int pass = 0; pass < 2; pass++) {
        struct onnx_dim *dims = NULL;
        if (pass == 1 && (dims = onnx__arena_alloc(r->arena, t->rank, sizeof *dims)) == NULL)
            return onnx__reader_oom(r);
        uint32_t n = 0;
        struct pb_iter it;
        struct pb_field f;
        onnx__pb_iter_begin(&it, shape);
        while (onnx__pb_iter_next(&it, &f, r->err)) {
            if (f.number != 1)
                continue;
            if (!onnx__pb_want(&f, PB_LEN, "TensorShapeProto.dim", r->err))
                return false;
            if (pass == 0) {
                if (!onnx__count_one(r, &n, f.at, "dims"))
                    return false;
            } else if (onnx__pb_depth(shape) + 1 > PB_MAX_DEPTH) {
                return onnx__pb_too_deep(r->err, f.at);
            } else if (!read_dim(r, &f, &dims[n++])) {
                return false;
            }
        }
        if (it.failed)
            return false;
        t->rank = n;
        t->dims = dims;
    }
    return true;
}

/* TypeProto.Tensor or .SparseTensor (merged): elem_type and shape. */
static bool read_tensor_type(struct reader *r, const struct pb_msg *m, struct onnx_type *t)
{
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        if (f.number == 1) {
            if (!onnx__pb_want(&f, PB_VARINT, "TypeProto.Tensor.elem_type", r->err))
                return false;
            t->has_elem_type = true;
            t->elem_type = (int32_t)(uint32_t)f.v;
        } else if (f.number == 2) {
            if (!onnx__pb_want(&f, PB_LEN, "TypeProto.Tensor.shape", r->err))
                return false;
            t->has_shape = true;
        }
    }
    if (it.failed)
        return false;
    struct pb_msg shape;
    if (t->has_shape && (!onnx__pb_sub(m, 2, &shape, r->err) || !read_shape(r, &shape, t)))
        return false;
    return true;
}

/* TypeProto.Sequence's or .Optional's elem_type (field 1) when it is a
 * tensor type, into t->elem. Read quietly and only where its path fits:
 * what it cannot read (damage, nesting past PB_MAX_PATH) leaves elem
 * NULL, and the model reads as it did without it. */
static bool read_elem_type(struct reader *r, const struct pb_msg *m, unsigned which, size_t from,
                           struct onnx_type *t)
{
    struct onnx_error ignored;
    struct reader quiet = *r;
    quiet.err = &ignored;
    struct pb_msg outer, inner;
    /* outer, its elem_type, that type's tensor_type and its shape */
    if (m->n_path + 4 > PB_MAX_PATH || onnx__pb_depth(m) + 4 > PB_MAX_DEPTH ||
        !onnx__pb_sub(m, which, &outer, &ignored))
        return true;
    outer.from = from;
    struct pb_iter it;
    struct pb_field f;
    bool has = false;
    onnx__pb_iter_begin(&it, &outer);
    while (onnx__pb_iter_next(&it, &f, &ignored))
        if (f.number == 1) {
            if (f.wt != PB_LEN)
                return true;
            has = true;
        }
    if (it.failed || !has || !onnx__pb_sub(&outer, 1, &inner, &ignored))
        return true;
    struct onnx_type *e = onnx__arena_alloc(r->arena, 1, sizeof *e);
    if (e == NULL)
        return onnx__reader_oom(r);
    memset(e, 0, sizeof *e);
    if (onnx__read_type(&quiet, &inner, e) && e->value == ONNX_V_TENSOR)
        t->elem = e;
    return !r->arena->failed || onnx__reader_oom(r);
}

bool onnx__read_type(struct reader *r, const struct pb_msg *m, struct onnx_type *t)
{
    struct pb_iter it;
    struct pb_field f;
    unsigned which = 0; /* the oneof's field */
    size_t from = m->from;
    t->value = ONNX_V_OTHER_TYPE;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
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
        if (!onnx__pb_want(&f, PB_LEN, "a TypeProto case", r->err))
            return false;
        if (f.number != which)
            from = f.at; /* another case: the earlier ones are cleared */
        which = f.number;
        t->value = v;
    }
    if (it.failed)
        return false;
    if (which == 4 || which == 9)
        return read_elem_type(r, m, which, from, t);
    if (which != 1 && which != 8)
        return true;
    struct pb_msg tensor;
    if (!onnx__pb_sub(m, which, &tensor, r->err))
        return false;
    tensor.from = from;
    return read_tensor_type(r, &tensor, t);
}

bool onnx__read_value_info(struct reader *r, const struct pb_msg *m, struct onnx_value_info *v)
{
    struct pb_iter it;
    struct pb_field f;
    bool typed = false;
    v->type.value = ONNX_V_UNTYPED;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, r->err)) {
        if (f.number == 1) {
            if (!onnx__pb_want(&f, PB_LEN, "ValueInfoProto.name", r->err))
                return false;
            v->name = onnx__reader_text(r, &f);
        } else if (f.number == 2) {
            if (!onnx__pb_want(&f, PB_LEN, "ValueInfoProto.type", r->err))
                return false;
            typed = true;
        }
    }
    if (it.failed)
        return false;
    struct pb_msg type;
    if (typed && (!onnx__pb_sub(m, 2, &type, r->err) || !onnx__read_type(r, &type, &v->type)))
        return false;
    return true;
}
