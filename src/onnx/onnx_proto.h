/* onnx_proto.h - ONNX's messages as the ONNX layer reads them: the field
 * numbers of onnx.proto in one table, and one validator per message
 * (onnx_proto.c), shared by the streaming walk (onnx_wire.c) and the model
 * reader (onnx_model.c, onnx_tensor.c).
 *
 * The numbers are those of onnx/onnx.proto in the ONNX repository
 * (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto, ONNX 1.18;
 * Debian's python3-onnx 1.12 ships it as
 * /usr/lib/python3/dist-packages/onnx/onnx.proto, with all of these but
 * ModelProto.configuration). A field keeps its number in every version.
 *
 * A validator reads one message (merged, as protobuf reads it: pb.h's
 * struct pb_msg) in one pass: it checks the wire type of each field ONNX
 * defines that a reader reads, and gives what the message says as a view
 * (struct onnx_*_msg): scalars, the last occurrence of a string (a
 * pb_field: its bytes stay in the model), counts of repeated fields. The
 * readers turn a view into their own records: the walk points into the
 * file, the model reader copies into its arena. Damage is an error with
 * the byte offset; the same damage gets the same message from both. */
#ifndef DMLT_ONNX_PROTO_H
#define DMLT_ONNX_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_common.h"
#include "pb.h"

/* ---- field numbers (onnx.proto) -------------------------------------------- */

/* ModelProto */
enum {
    ONNXF_MODEL_IR_VERSION = 1,
    ONNXF_MODEL_PRODUCER_NAME = 2,
    ONNXF_MODEL_PRODUCER_VERSION = 3,
    ONNXF_MODEL_DOMAIN = 4,
    ONNXF_MODEL_MODEL_VERSION = 5,
    ONNXF_MODEL_DOC_STRING = 6,
    ONNXF_MODEL_GRAPH = 7,
    ONNXF_MODEL_OPSET_IMPORT = 8,
    ONNXF_MODEL_METADATA_PROPS = 14,
    ONNXF_MODEL_TRAINING_INFO = 20,
    ONNXF_MODEL_FUNCTIONS = 25,
    ONNXF_MODEL_CONFIGURATION = 26
};

/* OperatorSetIdProto */
enum { ONNXF_OPSET_DOMAIN = 1, ONNXF_OPSET_VERSION = 2 };

/* GraphProto */
enum {
    ONNXF_GRAPH_NODE = 1,
    ONNXF_GRAPH_INITIALIZER = 5,
    ONNXF_GRAPH_INPUT = 11,
    ONNXF_GRAPH_OUTPUT = 12,
    ONNXF_GRAPH_VALUE_INFO = 13,
    ONNXF_GRAPH_SPARSE_INITIALIZER = 15
};

/* NodeProto */
enum {
    ONNXF_NODE_INPUT = 1,
    ONNXF_NODE_OUTPUT = 2,
    ONNXF_NODE_NAME = 3,
    ONNXF_NODE_OP_TYPE = 4,
    ONNXF_NODE_ATTRIBUTE = 5,
    ONNXF_NODE_DOC_STRING = 6,
    ONNXF_NODE_DOMAIN = 7
};

/* AttributeProto */
enum {
    ONNXF_ATTR_NAME = 1,
    ONNXF_ATTR_F = 2,
    ONNXF_ATTR_I = 3,
    ONNXF_ATTR_S = 4,
    ONNXF_ATTR_T = 5,
    ONNXF_ATTR_G = 6,
    ONNXF_ATTR_FLOATS = 7,
    ONNXF_ATTR_INTS = 8,
    ONNXF_ATTR_STRINGS = 9,
    ONNXF_ATTR_TENSORS = 10,
    ONNXF_ATTR_GRAPHS = 11,
    ONNXF_ATTR_TYPE = 20,
    ONNXF_ATTR_SPARSE_TENSOR = 22,
    ONNXF_ATTR_SPARSE_TENSORS = 23
};

/* TensorProto */
enum {
    ONNXF_TENSOR_DIMS = 1,
    ONNXF_TENSOR_DATA_TYPE = 2,
    ONNXF_TENSOR_FLOAT_DATA = 4,
    ONNXF_TENSOR_INT32_DATA = 5,
    ONNXF_TENSOR_INT64_DATA = 7,
    ONNXF_TENSOR_NAME = 8,
    ONNXF_TENSOR_RAW_DATA = 9,
    ONNXF_TENSOR_UINT64_DATA = 11,
    ONNXF_TENSOR_EXTERNAL_DATA = 13,
    ONNXF_TENSOR_DATA_LOCATION = 14
};
enum { ONNX_DATA_LOCATION_EXTERNAL = 1 }; /* TensorProto.DataLocation */

/* SparseTensorProto */
enum { ONNXF_SPARSE_VALUES = 1, ONNXF_SPARSE_INDICES = 2, ONNXF_SPARSE_DIMS = 3 };

/* ValueInfoProto */
enum { ONNXF_VALUE_INFO_NAME = 1, ONNXF_VALUE_INFO_TYPE = 2 };

/* TypeProto: a oneof */
enum {
    ONNXF_TYPE_TENSOR_TYPE = 1,
    ONNXF_TYPE_SEQUENCE_TYPE = 4,
    ONNXF_TYPE_MAP_TYPE = 5,
    ONNXF_TYPE_SPARSE_TENSOR_TYPE = 8,
    ONNXF_TYPE_OPTIONAL_TYPE = 9
};

/* TypeProto.Tensor and TypeProto.SparseTensor */
enum { ONNXF_TENSOR_TYPE_ELEM_TYPE = 1, ONNXF_TENSOR_TYPE_SHAPE = 2 };

/* TypeProto.Sequence and TypeProto.Optional */
enum { ONNXF_SEQUENCE_ELEM_TYPE = 1 };

/* TensorShapeProto, and its Dimension (a oneof) */
enum { ONNXF_SHAPE_DIM = 1, ONNXF_DIMENSION_DIM_VALUE = 1, ONNXF_DIMENSION_DIM_PARAM = 2 };

/* ---- one validator per message ------------------------------------------------ */

/* An element of a repeated message field f of m (a node, a value...): a
 * message of its own, one level deeper; the nesting limit checked. */
bool onnx__element(const struct pb_msg *m, const struct pb_field *f, struct pb_msg *e,
                   struct onnx_error *err);

/* ModelProto: ir_version, producer_name and _version, opset_import (each
 * OperatorSetIdProto checked as it comes), graph (there must be one). */
struct onnx_model_msg {
    uint64_t ir_version;
    struct pb_field producer_name, producer_version; /* given: has_* */
    bool has_producer_name, has_producer_version;
    uint64_t n_opsets;
    struct pb_msg graph; /* merged */
};
bool onnx__check_model(const struct pb_msg *root, struct onnx_model_msg *v, struct onnx_error *err);

/* OperatorSetIdProto in f (an opset_import): domain (empty when not
 * given) and version (0). err may be NULL (checked already). */
bool onnx__check_opset(const uint8_t *base, const struct pb_field *f, struct onnx_bytes *domain,
                       int64_t *version, struct onnx_error *err);

/* A field of a GraphProto: true when it is one of the repeated messages the
 * readers read (node, initializer, input, output, value_info,
 * sparse_initializer), whose wire type it then checks (*err filled if
 * wrong: *ok false). Inline: the readers ask it of every field of a graph. */
static inline bool onnx__graph_field(const struct pb_field *f, bool *ok, struct onnx_error *err)
{
    switch (f->number) {
    case ONNXF_GRAPH_NODE:
    case ONNXF_GRAPH_INITIALIZER:
    case ONNXF_GRAPH_INPUT:
    case ONNXF_GRAPH_OUTPUT:
    case ONNXF_GRAPH_VALUE_INFO:
    case ONNXF_GRAPH_SPARSE_INITIALIZER:
        *ok = f->wt == PB_LEN || onnx__pb_want(f, PB_LEN, "a GraphProto field", err);
        return true;
    default:
        *ok = true;
        return false;
    }
}

/* NodeProto: its strings and how many of each repeated field. */
struct onnx_node_msg {
    struct pb_field output0, name, op_type, domain; /* output0: the first output */
    bool has_output, has_name, has_op_type, has_domain;
    uint64_t n_inputs, n_outputs, n_attributes;
};
bool onnx__check_node(const struct pb_msg *m, struct onnx_node_msg *v, struct onnx_error *err);
/* op_type Constant of the default domain ("" or "ai.onnx"). */
bool onnx__is_constant_op(struct onnx_bytes op_type, struct onnx_bytes domain);

/* AttributeProto: its scalars, which message fields it has, how many of
 * each repeated field (floats and ints checked: whole fixed32 values,
 * well-formed varints; their values are read by the model reader). */
struct onnx_attr_msg {
    struct pb_field name, s;
    bool has_name, has_f, has_i, has_s;
    bool has_t, has_g, has_sparse_tensor;
    int32_t type;
    uint32_t f_bits; /* float's bits */
    int64_t i;
    uint64_t n_floats, n_ints, n_strings, n_tensors, n_graphs;
};
bool onnx__check_attribute(const struct pb_msg *m, struct onnx_attr_msg *v, struct onnx_error *err);

/* TensorProto: type, name, where its data is, its dims counted (each
 * checked); the data fields are not read. */
struct onnx_tensor_msg {
    bool has_data_type, has_name, has_raw_data, external;
    int32_t data_type;
    struct pb_field name, raw_data;
    uint64_t rank;
};
bool onnx__check_tensor(const struct pb_msg *m, struct onnx_tensor_msg *v, struct onnx_error *err);

/* SparseTensorProto: its values' TensorProto (checked whole when given)
 * and the dense dims counted. */
struct onnx_sparse_msg {
    bool has_values;
    struct onnx_tensor_msg values;
    uint64_t rank; /* of dims (field ONNXF_SPARSE_DIMS) */
};
bool onnx__check_sparse(const struct pb_msg *m, struct onnx_sparse_msg *v, struct onnx_error *err);

#define ONNX_VIEW_DIMS 8
/* TypeProto: its oneof's case (a case given after another clears it), and
 * for a tensor (or sparse tensor) type its elem_type and shape: the shape
 * checked whole, its dims counted. */
struct onnx_type_msg {
    enum onnx_value value; /* ONNX_V_OTHER_TYPE when no case is known */
    unsigned which;        /* the case's field; 0: none */
    size_t from;           /* where the case's last run begins (pb_msg's from) */
    bool has_elem_type, has_shape;
    int32_t elem_type;
    struct pb_msg shape; /* has_shape: TensorShapeProto, merged */
    uint64_t rank;
    /* the first dims as onnx__read_dim reads them (param in the model):
     * a reader of at most ONNX_VIEW_DIMS dims need not read them again */
    struct onnx_dim dims[ONNX_VIEW_DIMS];
};
bool onnx__check_type(const struct pb_msg *m, struct onnx_type_msg *v, struct onnx_error *err);

/* ValueInfoProto: its name and type (checked whole when given). */
struct onnx_value_info_msg {
    bool has_name, has_type;
    struct pb_field name;
    struct pb_msg type_msg; /* has_type: the TypeProto, merged */
    struct onnx_type_msg type;
};
bool onnx__check_value_info(const struct pb_msg *m, struct onnx_value_info_msg *v,
                            struct onnx_error *err);

/* A TensorShapeProto.Dimension in f: its oneof's last case; param points
 * into the model. An empty dim_param names nothing: unknown. err may be
 * NULL (checked already). */
bool onnx__read_dim(const uint8_t *base, const struct pb_field *f, struct onnx_dim *d,
                    struct onnx_error *err);

#endif
