/* onnx_proto.c - one validator per ONNX message, for both readers (see
 * onnx_proto.h). Fields a reader does not read are skipped by their wire
 * type (pb.c checks that far: a length inside its message, a varint of at
 * most 10 bytes). Every read is bounded by the end of the enclosing
 * message, which is bounded by the file. */
#include "onnx_proto.h"

#include <string.h>

bool onnx__element(const struct pb_msg *m, const struct pb_field *f, struct pb_msg *e,
                   struct onnx_error *err)
{
    if (onnx__pb_depth(m) + 1 > PB_MAX_DEPTH)
        return onnx__pb_too_deep(err, f->at);
    *e = onnx__pb_root(m->base, f->start, f->end, onnx__pb_depth(m) + 1);
    return true;
}

/* ---- ModelProto, OperatorSetIdProto, GraphProto --------------------------------- */

bool onnx__check_opset(const uint8_t *base, const struct pb_field *f, struct onnx_bytes *domain,
                       int64_t *version, struct onnx_error *err)
{
    struct pb r = {base, f->start, f->end};
    struct pb_field g;
    domain->p = NULL;
    domain->n = 0;
    *version = 0;
    while (r.pos < r.end) {
        if (!onnx__pb_next(&r, &g, err))
            return false;
        if (g.number == ONNXF_OPSET_DOMAIN) {
            if (!onnx__pb_want(&g, PB_LEN, "OperatorSetIdProto.domain", err))
                return false;
            *domain = onnx__pb_bytes(base, &g);
        } else if (g.number == ONNXF_OPSET_VERSION) {
            if (!onnx__pb_want(&g, PB_VARINT, "OperatorSetIdProto.version", err))
                return false;
            *version = (int64_t)g.v;
        }
    }
    return true;
}

bool onnx__check_model(const struct pb_msg *root, struct onnx_model_msg *v, struct onnx_error *err)
{
    memset(v, 0, sizeof *v);
    struct pb_iter it;
    struct pb_field f;
    bool has_graph = false;
    onnx__pb_iter_begin(&it, root);
    while (onnx__pb_iter_next(&it, &f, err)) {
        struct onnx_bytes domain;
        int64_t version;
        bool ok = true;
        switch (f.number) {
        case ONNXF_MODEL_IR_VERSION:
            ok = onnx__pb_want(&f, PB_VARINT, "ModelProto.ir_version", err);
            v->ir_version = f.v;
            break;
        case ONNXF_MODEL_PRODUCER_NAME:
            ok = onnx__pb_want(&f, PB_LEN, "ModelProto.producer_name", err);
            v->producer_name = f;
            v->has_producer_name = true;
            break;
        case ONNXF_MODEL_PRODUCER_VERSION:
            ok = onnx__pb_want(&f, PB_LEN, "ModelProto.producer_version", err);
            v->producer_version = f;
            v->has_producer_version = true;
            break;
        case ONNXF_MODEL_GRAPH:
            ok = has_graph = onnx__pb_want(&f, PB_LEN, "ModelProto.graph", err);
            break;
        case ONNXF_MODEL_OPSET_IMPORT:
            ok = onnx__pb_want(&f, PB_LEN, "ModelProto.opset_import", err) &&
                 onnx__check_opset(root->base, &f, &domain, &version, err);
            v->n_opsets++;
            break;
        default:
            break;
        }
        if (!ok)
            return false;
    }
    if (it.failed)
        return false;
    if (!has_graph)
        return onnx__pb_fail(err, root->end, "no graph (ModelProto field %d)", ONNXF_MODEL_GRAPH);
    return onnx__pb_sub(root, ONNXF_MODEL_GRAPH, &v->graph, err);
}

/* ---- NodeProto, AttributeProto ---------------------------------------------------- */

bool onnx__check_node(const struct pb_msg *m, struct onnx_node_msg *v, struct onnx_error *err)
{
    static const char *const what[] = {NULL,
                                       "NodeProto.input",
                                       "NodeProto.output",
                                       "NodeProto.name",
                                       "NodeProto.op_type",
                                       "NodeProto.attribute",
                                       "NodeProto.doc_string",
                                       "NodeProto.domain"};
    memset(v, 0, sizeof *v);
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err)) {
        if (f.number >= sizeof what / sizeof *what)
            continue;
        if (!onnx__pb_want(&f, PB_LEN, what[f.number], err))
            return false;
        switch (f.number) {
        case ONNXF_NODE_INPUT:
            v->n_inputs++;
            break;
        case ONNXF_NODE_OUTPUT:
            if (!v->has_output)
                v->output0 = f;
            v->has_output = true;
            v->n_outputs++;
            break;
        case ONNXF_NODE_NAME:
            v->name = f;
            v->has_name = true;
            break;
        case ONNXF_NODE_OP_TYPE:
            v->op_type = f;
            v->has_op_type = true;
            break;
        case ONNXF_NODE_ATTRIBUTE:
            v->n_attributes++;
            break;
        case ONNXF_NODE_DOMAIN:
            v->domain = f;
            v->has_domain = true;
            break;
        default:
            break;
        }
    }
    return !it.failed;
}

bool onnx__is_constant_op(struct onnx_bytes op_type, struct onnx_bytes domain)
{
    return onnx_bytes_is(op_type, "Constant") && onnx_default_domain(domain);
}

/* AttributeProto's repeated scalars: floats (fixed32, packed or not, in
 * whole values) and ints (varints; a packed run is read after the other
 * fields: *packed), counted. */
static bool attr_numbers(const struct pb_field *f, struct onnx_attr_msg *v, bool *packed,
                         struct onnx_error *err)
{
    if (f->number == ONNXF_ATTR_FLOATS) {
        if (f->wt == PB_FIXED32) {
            v->n_floats++;
            return true;
        }
        if (!onnx__pb_want(f, PB_LEN, "AttributeProto.floats", err))
            return false;
        if ((f->end - f->start) % 4 != 0)
            return onnx__pb_fail(err, f->at,
                                 "AttributeProto.floats: %zu bytes, not a multiple of 4",
                                 f->end - f->start);
        v->n_floats += (f->end - f->start) / 4;
        return true;
    }
    if (f->wt == PB_VARINT) {
        v->n_ints++;
        return true;
    }
    *packed = true;
    return onnx__pb_want(f, PB_LEN, "AttributeProto.ints", err);
}

/* One field of an AttributeProto into v. */
static bool attr_field(const struct pb_field *f, struct onnx_attr_msg *v, bool *packed,
                       struct onnx_error *err)
{
    switch (f->number) {
    case ONNXF_ATTR_NAME:
        v->name = *f;
        v->has_name = true;
        return onnx__pb_want(f, PB_LEN, "AttributeProto.name", err);
    case ONNXF_ATTR_F:
        v->f_bits = (uint32_t)f->v;
        v->has_f = true;
        return onnx__pb_want(f, PB_FIXED32, "AttributeProto.f", err);
    case ONNXF_ATTR_I:
        v->i = (int64_t)f->v;
        v->has_i = true;
        return onnx__pb_want(f, PB_VARINT, "AttributeProto.i", err);
    case ONNXF_ATTR_TYPE:
        v->type = (int32_t)(uint32_t)f->v;
        return onnx__pb_want(f, PB_VARINT, "AttributeProto.type", err);
    case ONNXF_ATTR_S:
    case ONNXF_ATTR_T:
    case ONNXF_ATTR_G:
    case ONNXF_ATTR_STRINGS:
    case ONNXF_ATTR_TENSORS:
    case ONNXF_ATTR_GRAPHS:
    case ONNXF_ATTR_SPARSE_TENSOR:
    case ONNXF_ATTR_SPARSE_TENSORS:
        if (f->number == ONNXF_ATTR_S) {
            v->s = *f;
            v->has_s = true;
        }
        v->has_t = v->has_t || f->number == ONNXF_ATTR_T;
        v->has_g = v->has_g || f->number == ONNXF_ATTR_G;
        v->has_sparse_tensor = v->has_sparse_tensor || f->number == ONNXF_ATTR_SPARSE_TENSOR;
        v->n_strings += f->number == ONNXF_ATTR_STRINGS;
        v->n_tensors += f->number == ONNXF_ATTR_TENSORS;
        v->n_graphs += f->number == ONNXF_ATTR_GRAPHS;
        return onnx__pb_want(f, PB_LEN, "an AttributeProto field", err);
    case ONNXF_ATTR_FLOATS:
    case ONNXF_ATTR_INTS:
        return attr_numbers(f, v, packed, err);
    default:
        return true;
    }
}

bool onnx__check_attribute(const struct pb_msg *m, struct onnx_attr_msg *v, struct onnx_error *err)
{
    memset(v, 0, sizeof *v);
    struct pb_iter it;
    struct pb_field f;
    bool packed = false;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err))
        if (!attr_field(&f, v, &packed, err))
            return false;
    if (it.failed)
        return false;
    if (!packed) /* the common case: exporters write ints unpacked (onnx.proto is proto2) */
        return true;
    v->n_ints = 0;
    return onnx__pb_each_varint(m, ONNXF_ATTR_INTS, "AttributeProto.ints", NULL, NULL, &v->n_ints,
                                err);
}

/* ---- TensorProto, SparseTensorProto --------------------------------------------- */

bool onnx__check_tensor(const struct pb_msg *m, struct onnx_tensor_msg *v, struct onnx_error *err)
{
    memset(v, 0, sizeof *v);
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err)) {
        bool ok = true;
        switch (f.number) {
        case ONNXF_TENSOR_DATA_TYPE:
            ok = onnx__pb_want(&f, PB_VARINT, "TensorProto.data_type", err);
            v->has_data_type = true;
            v->data_type = (int32_t)(uint32_t)f.v;
            break;
        case ONNXF_TENSOR_NAME:
            ok = onnx__pb_want(&f, PB_LEN, "TensorProto.name", err);
            v->name = f;
            v->has_name = true;
            break;
        case ONNXF_TENSOR_DATA_LOCATION:
            ok = onnx__pb_want(&f, PB_VARINT, "TensorProto.data_location", err);
            v->external = f.v == ONNX_DATA_LOCATION_EXTERNAL;
            break;
        case ONNXF_TENSOR_RAW_DATA:
            ok = onnx__pb_want(&f, PB_LEN, "TensorProto.raw_data", err);
            v->raw_data = f;
            v->has_raw_data = true;
            break;
        case ONNXF_TENSOR_EXTERNAL_DATA:
            ok = onnx__pb_want(&f, PB_LEN, "TensorProto.external_data", err);
            break;
        default:
            break; /* dims below; the data fields and the rest: skipped unread */
        }
        if (!ok)
            return false;
    }
    return !it.failed && onnx__pb_each_varint(m, ONNXF_TENSOR_DIMS, "TensorProto.dims", NULL, NULL,
                                              &v->rank, err);
}

bool onnx__check_sparse(const struct pb_msg *m, struct onnx_sparse_msg *v, struct onnx_error *err)
{
    memset(v, 0, sizeof *v);
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err)) {
        if (f.number == ONNXF_SPARSE_VALUES &&
            !onnx__pb_want(&f, PB_LEN, "SparseTensorProto.values", err))
            return false;
        if (f.number == ONNXF_SPARSE_INDICES &&
            !onnx__pb_want(&f, PB_LEN, "SparseTensorProto.indices", err))
            return false;
        v->has_values = v->has_values || f.number == ONNXF_SPARSE_VALUES;
    }
    if (it.failed)
        return false;
    struct pb_msg values;
    if (v->has_values && (!onnx__pb_sub(m, ONNXF_SPARSE_VALUES, &values, err) ||
                          !onnx__check_tensor(&values, &v->values, err)))
        return false;
    return onnx__pb_each_varint(m, ONNXF_SPARSE_DIMS, "SparseTensorProto.dims", NULL, NULL,
                                &v->rank, err);
}

/* ---- TypeProto, its tensor type, TensorShapeProto, ValueInfoProto --------------- */

bool onnx__read_dim(const uint8_t *base, const struct pb_field *f, struct onnx_dim *d,
                    struct onnx_error *err)
{
    struct pb r = {base, f->start, f->end};
    struct pb_field g;
    d->kind = ONNX_DIM_UNKNOWN; /* neither case given */
    d->value = 0;
    d->param.p = NULL;
    d->param.n = 0;
    while (r.pos < r.end) {
        if (!onnx__pb_next(&r, &g, err))
            return false;
        if (g.number == ONNXF_DIMENSION_DIM_VALUE) {
            if (!onnx__pb_want(&g, PB_VARINT, "Dimension.dim_value", err))
                return false;
            d->kind = ONNX_DIM_VALUE;
            d->value = (int64_t)g.v;
            d->param.p = NULL;
            d->param.n = 0;
        } else if (g.number == ONNXF_DIMENSION_DIM_PARAM) {
            if (!onnx__pb_want(&g, PB_LEN, "Dimension.dim_param", err))
                return false;
            d->kind = ONNX_DIM_PARAM;
            d->value = 0;
            d->param = onnx__pb_bytes(base, &g);
        }
    }
    if (d->kind == ONNX_DIM_PARAM && d->param.n == 0)
        d->kind = ONNX_DIM_UNKNOWN; /* an empty symbol names nothing */
    return true;
}

/* TensorShapeProto (merged): its dims counted, each Dimension checked,
 * the first ONNX_VIEW_DIMS kept. */
static bool check_shape(const struct pb_msg *m, struct onnx_type_msg *v, struct onnx_error *err)
{
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err)) {
        if (f.number != ONNXF_SHAPE_DIM)
            continue;
        if (!onnx__pb_want(&f, PB_LEN, "TensorShapeProto.dim", err))
            return false;
        if (onnx__pb_depth(m) + 1 > PB_MAX_DEPTH)
            return onnx__pb_too_deep(err, f.at);
        struct onnx_dim d;
        if (!onnx__read_dim(m->base, &f, &d, err))
            return false;
        if (v->rank < ONNX_VIEW_DIMS)
            v->dims[v->rank] = d;
        v->rank++;
    }
    return !it.failed;
}

/* TypeProto.Tensor or .SparseTensor (merged): elem_type and shape. */
static bool check_tensor_type(const struct pb_msg *m, struct onnx_type_msg *v,
                              struct onnx_error *err)
{
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err)) {
        if (f.number == ONNXF_TENSOR_TYPE_ELEM_TYPE) {
            if (!onnx__pb_want(&f, PB_VARINT, "TypeProto.Tensor.elem_type", err))
                return false;
            v->has_elem_type = true;
            v->elem_type = (int32_t)(uint32_t)f.v;
        } else if (f.number == ONNXF_TENSOR_TYPE_SHAPE) {
            if (!onnx__pb_want(&f, PB_LEN, "TypeProto.Tensor.shape", err))
                return false;
            v->has_shape = true;
        }
    }
    if (it.failed || !v->has_shape)
        return !it.failed;
    return onnx__pb_sub(m, ONNXF_TENSOR_TYPE_SHAPE, &v->shape, err) &&
           check_shape(&v->shape, v, err);
}

bool onnx__check_type(const struct pb_msg *m, struct onnx_type_msg *v, struct onnx_error *err)
{
    memset(v, 0, sizeof *v);
    v->value = ONNX_V_OTHER_TYPE;
    v->from = m->from;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err)) {
        enum onnx_value value;
        switch (f.number) {
        case ONNXF_TYPE_TENSOR_TYPE:
            value = ONNX_V_TENSOR;
            break;
        case ONNXF_TYPE_SEQUENCE_TYPE:
            value = ONNX_V_SEQUENCE;
            break;
        case ONNXF_TYPE_MAP_TYPE:
            value = ONNX_V_MAP;
            break;
        case ONNXF_TYPE_SPARSE_TENSOR_TYPE:
            value = ONNX_V_SPARSE_TYPE;
            break;
        case ONNXF_TYPE_OPTIONAL_TYPE:
            value = ONNX_V_OPTIONAL;
            break;
        default:
            continue;
        }
        if (!onnx__pb_want(&f, PB_LEN, "a TypeProto case", err))
            return false;
        if (f.number != v->which)
            v->from = f.at; /* another case: the earlier ones are cleared */
        v->which = f.number;
        v->value = value;
    }
    if (it.failed)
        return false;
    if (v->which != ONNXF_TYPE_TENSOR_TYPE && v->which != ONNXF_TYPE_SPARSE_TENSOR_TYPE)
        return true;
    struct pb_msg tensor;
    if (!onnx__pb_sub(m, v->which, &tensor, err))
        return false;
    tensor.from = v->from;
    return check_tensor_type(&tensor, v, err);
}

bool onnx__check_value_info(const struct pb_msg *m, struct onnx_value_info_msg *v,
                            struct onnx_error *err)
{
    v->has_name = v->has_type = false;
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err)) {
        if (f.number == ONNXF_VALUE_INFO_NAME) {
            if (!onnx__pb_want(&f, PB_LEN, "ValueInfoProto.name", err))
                return false;
            v->name = f;
            v->has_name = true;
        } else if (f.number == ONNXF_VALUE_INFO_TYPE) {
            if (!onnx__pb_want(&f, PB_LEN, "ValueInfoProto.type", err))
                return false;
            v->has_type = true;
        }
    }
    if (it.failed)
        return false;
    if (!v->has_type)
        return true;
    return onnx__pb_sub(m, ONNXF_VALUE_INFO_TYPE, &v->type_msg, err) &&
           onnx__check_type(&v->type_msg, &v->type, err);
}
