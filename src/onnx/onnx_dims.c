/* onnx_dims.c - a value the walk handed out (onnx_wire.h), read after
 * it: its dims in order, from bytes the walk checked already (a repeated
 * int64 field packed or not, a TensorShapeProto's Dimensions, or a
 * Constant's one count); and ONNX's names of element types and of the
 * kinds of values. */
#include "onnx_wire.h"
#include "pb.h"

/* ---- dims ------------------------------------------------------------------ */

void onnx_dims_begin(const struct onnx_tensor *t, struct onnx_dim_iter *it)
{
    it->t = t;
    it->i = 0;
    it->packed.base = t->dims.base;
    it->packed.pos = it->packed.end = 0;
    if (t->form == ONNX_DIMS_REPEAT || t->form == ONNX_DIMS_SHAPE)
        onnx__pb_iter_begin(&it->fields, &t->dims);
}

/* A Dimension: its oneof's last case. */
static void read_dim(const uint8_t *base, const struct pb_field *f, struct onnx_dim *d)
{
    struct pb m = {base, f->start, f->end};
    struct pb_field g;
    d->kind = ONNX_DIM_UNKNOWN;
    while (m.pos < m.end && onnx__pb_next(&m, &g, NULL)) {
        if (g.number == 1) {
            d->kind = ONNX_DIM_VALUE;
            d->value = (int64_t)g.v;
            d->param.p = NULL;
            d->param.n = 0;
        } else if (g.number == 2) {
            d->kind = ONNX_DIM_PARAM;
            d->value = 0;
            d->param = onnx__pb_bytes(base, &g);
        }
    }
    if (d->kind == ONNX_DIM_PARAM && d->param.n == 0)
        d->kind = ONNX_DIM_UNKNOWN; /* an empty symbol names nothing */
}

bool onnx_dims_next(struct onnx_dim_iter *it, struct onnx_dim *d)
{
    const struct onnx_tensor *t = it->t;
    d->kind = ONNX_DIM_VALUE;
    d->value = 0;
    d->param.p = NULL;
    d->param.n = 0;
    if (it->i >= t->rank || t->form == ONNX_DIMS_NONE)
        return false;
    if (t->form == ONNX_DIMS_COUNT) {
        it->i++;
        d->value = (int64_t)t->count;
        return true;
    }
    struct pb_field f;
    uint64_t v = 0;
    for (;;) {
        if (t->form == ONNX_DIMS_REPEAT && it->packed.pos < it->packed.end) {
            if (!onnx__pb_varint(&it->packed, &v, NULL))
                return false;
            it->i++;
            d->value = (int64_t)v;
            return true;
        }
        if (!onnx__pb_iter_next(&it->fields, &f, NULL))
            return false;
        if (f.number != (t->form == ONNX_DIMS_SHAPE ? 1 : t->field))
            continue;
        it->i++;
        if (t->form == ONNX_DIMS_SHAPE) {
            read_dim(t->dims.base, &f, d);
            return true;
        }
        if (f.wt == PB_VARINT) {
            d->value = (int64_t)f.v;
            return true;
        }
        it->i--;
        it->packed.pos = f.start;
        it->packed.end = f.end;
    }
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
