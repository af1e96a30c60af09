/* onnx_wire.h - the tensors of an ONNX model, read from the protobuf wire
 * format in place (onnx_wire.c). Nothing is unpacked or copied: a tensor's
 * data (raw_data, the typed data fields, external files) is skipped by its
 * length, unread, so a model of any size is walked from its metadata.
 *
 * The walk visits the main graph and, recursively, the graphs in node
 * attributes (If's then_branch/else_branch, Loop's and Scan's body): in each
 * graph its inputs, outputs, initializers, sparse initializers, value_info,
 * and then the nodes in order (a Constant node's value, then the graphs of
 * each node). Every message is read as protobuf reads it (pb.h's struct
 * pb_msg): a message field given twice is merged (two models concatenated
 * are walked as their merge), repeated fields append, the last scalar
 * wins. Every length is checked against the message that holds it; damage
 * (a length past the end, a varint over 10 bytes, a wrong wire type for a
 * field ONNX defines) ends the walk with the byte offset, and so does
 * nesting past PB_MAX_DEPTH (err->limit: this reader's limit, protobuf's
 * own, not damage). Nothing outside [data, data + len) is ever read.
 *
 * The walk's pieces (onnx_wire_int.h) are driven two ways: by the bytes
 * alone (onnx_walk, onnx_walk_nodes: in constant memory), and by the
 * model reader as it reads (onnx_model_read_walking: a command's one pass
 * over a model, which gives these records as it builds the model). */
#ifndef DMLT_ONNX_WIRE_H
#define DMLT_ONNX_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_common.h"
#include "pb.h"

enum onnx_kind {
    ONNX_INPUT,
    ONNX_OUTPUT,
    ONNX_INITIALIZER,
    ONNX_SPARSE_INITIALIZER,
    ONNX_VALUE_INFO,
    ONNX_CONSTANT,
    ONNX_KIND_COUNT
};

/* Where a value's dims are: which message, and how to read them. */
enum onnx_dims_form {
    ONNX_DIMS_NONE,   /* no shape: the rank is unknown */
    ONNX_DIMS_REPEAT, /* int64 values of field `field` of dims (packed or not) */
    ONNX_DIMS_SHAPE,  /* dims is a TensorShapeProto: Dimension messages */
    ONNX_DIMS_COUNT   /* a Constant's value_floats and the like: rank 1, dim count */
};

struct onnx_tensor {
    enum onnx_kind kind;
    const char *path;       /* graph.node[7] (If).then_branch.output[0]; NUL-terminated */
    struct onnx_bytes name; /* a Constant's: its node's output[0] */
    bool has_name;
    enum onnx_value value;
    bool has_elem_type;
    int32_t elem_type; /* TensorProto.DataType */
    enum onnx_dims_form form;
    struct pb_msg dims; /* merged: every occurrence of the message */
    unsigned field;
    uint64_t rank;  /* number of dims (0 for a scalar) */
    uint64_t count; /* ONNX_DIMS_COUNT: the one dim */
    bool external;  /* data_location EXTERNAL: its data is in another file */
    uint32_t graph; /* its graph's index: the model reader's (onnx_model.h) */
};

/* Reads a tensor's dims in order. The walk checked the bytes already. */
struct onnx_dim_iter {
    const struct onnx_tensor *t;
    struct pb_iter fields;
    struct pb packed; /* a packed run of ONNX_DIMS_REPEAT */
    uint64_t i;
};
void onnx_dims_begin(const struct onnx_tensor *t, struct onnx_dim_iter *it);
bool onnx_dims_next(struct onnx_dim_iter *it, struct onnx_dim *d);

/* ONNX's name of a TensorProto.DataType ("FLOAT16"), or NULL if unknown. */
const char *onnx_type_name(int32_t elem_type);
/* "input", "output", "initializer", ... */
const char *onnx_kind_name(enum onnx_kind kind);

/* Called once per value: ONNX_STEP_STOP ends the walk there (onnx_walk
 * returns true), ONNX_STEP_FAIL ends it failed (onnx_walk returns false
 * with err->callback set). */
typedef enum onnx_step (*onnx_tensor_fn)(void *ctx, const struct onnx_tensor *t);

/* Told, after each field of the main graph, that the bytes before upto
 * are not needed until the walk comes back to them (the next pass over
 * the graph): a mapped file may let their pages go. */
typedef void (*onnx_release_fn)(void *ctx, size_t upto);

/* Walks the ModelProto in data[0..len). fn may be NULL: a check of the
 * whole model only; release may be NULL. False with err filled when the
 * model is damaged or not a ModelProto (no graph); *out_of_memory when the
 * path could not grow; err->callback when a callback failed. */
bool onnx_walk(const uint8_t *data, size_t len, onnx_tensor_fn fn, onnx_release_fn release,
               void *ctx, struct onnx_error *err, bool *out_of_memory);

/* Called once per node, after the records of its graph's values and of
 * the nodes before it, and before anything of its own (its Constant value,
 * its subgraphs): graph and node are the indices the model reader gives
 * (model->graphs[graph].nodes[node]), path the node's ("graph.node[7]
 * (Conv)"). It answers as onnx_tensor_fn does. */
typedef enum onnx_step (*onnx_node_fn)(void *ctx, uint32_t graph, uint32_t node, const char *path);

/* onnx_walk, with node_fn called for each node too (which needs fn). */
bool onnx_walk_nodes(const uint8_t *data, size_t len, onnx_tensor_fn fn, onnx_node_fn node_fn,
                     onnx_release_fn release, void *ctx, struct onnx_error *err,
                     bool *out_of_memory);

#endif
