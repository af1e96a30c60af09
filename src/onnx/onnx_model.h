/* onnx_model.h - an ONNX model as shape inference needs it: graphs, nodes,
 * attributes and the values they name, read from the protobuf wire format
 * (onnx_model.c) with protobuf's rules (a message field given twice is
 * merged, repeated fields append, the last scalar wins).
 *
 * The ONNX layer (src/onnx/) turns bytes into a model and shapes: no I/O,
 * no printing. The text the model keeps (names, op types, symbols) is
 * copied into the model's arena, so that once read, the caller's buffer
 * (a mapped file) is not touched again: its pages may go (see
 * onnx_model_read_releasing). Raw tensor data is not kept. Tensor data is
 * never read, except the values of small integer tensors (int32/int64/
 * int8/int16/uint8.., at most ONNX_SMALL_DATA elements) and of small FLOAT
 * tensors (at most ONNX_SMALL_FLOATS) that shape computations use
 * (Reshape's shape, Slice's starts, Resize's scales, ...).
 *
 * What is kept grows with the nodes, not with the declared values: a
 * graph's inputs, initializers and value_info are kept when a node or a
 * graph output names them, in any graph of the model (a subgraph's inputs
 * all: Loop and Scan bind them by position; a model of millions
 * of value_infos and no nodes keeps none).
 *
 * Integer tensor values: raw_data (little-endian) when given, else the
 * typed field (int32_data, int64_data, uint64_data: packed or not); a type
 * narrower than its field keeps the low bits (numpy's astype), BOOL is 0 or
 * 1; no values (has_values false) when the data's count is not the dims'
 * product, a dim is negative, the data is external, or a UINT64 value is
 * past INT64_MAX. tests/onnx/check_onnx_model.py compares all of it with
 * onnx.load and onnx.numpy_helper. */
#ifndef DMLT_ONNX_MODEL_H
#define DMLT_ONNX_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_common.h"
#include "onnx_wire.h"

#define ONNX_SMALL_DATA   1024 /* elements of an integer tensor whose values are read */
#define ONNX_SMALL_FLOATS 16   /* elements of a FLOAT tensor whose values are read */

/* A declared type: TypeProto, as far as a tensor goes. */
struct onnx_type {
    enum onnx_value value;
    bool has_elem_type;
    int32_t elem_type; /* TensorProto.DataType */
    bool has_shape;    /* false: the rank is unknown */
    uint32_t rank;
    const struct onnx_dim *dims; /* rank of them */
    /* A sequence's or optional's element type when it is a tensor type
     * (one level: an optional of a sequence keeps none); NULL otherwise. */
    const struct onnx_type *elem;
};

/* A TensorProto (an initializer, a Constant's value, an attribute's t). */
struct onnx_tensor_data {
    struct onnx_bytes name;
    int32_t elem_type;
    uint32_t rank;
    const int64_t *dims;
    bool external;   /* data_location EXTERNAL */
    bool has_values; /* an integer tensor of at most ONNX_SMALL_DATA elements whose data was read */
    uint32_t n_values;
    const int64_t *values; /* n_values of them, in row-major order, as int64 */
    /* a FLOAT tensor of at most ONNX_SMALL_FLOATS elements whose data was
     * read (Resize's scales): n_floats of them; NULL otherwise */
    uint32_t n_floats;
    const float *floats;
    bool sparse; /* a SparseTensorProto: dims are the dense dims, no values */
};

/* AttributeProto.AttributeType */
enum onnx_attr_type {
    ONNX_ATTR_UNDEFINED = 0,
    ONNX_ATTR_FLOAT = 1,
    ONNX_ATTR_INT = 2,
    ONNX_ATTR_STRING = 3,
    ONNX_ATTR_TENSOR = 4,
    ONNX_ATTR_GRAPH = 5,
    ONNX_ATTR_FLOATS = 6,
    ONNX_ATTR_INTS = 7,
    ONNX_ATTR_STRINGS = 8,
    ONNX_ATTR_TENSORS = 9,
    ONNX_ATTR_GRAPHS = 10,
    ONNX_ATTR_SPARSE_TENSOR = 11,
    ONNX_ATTR_SPARSE_TENSORS = 12,
    ONNX_ATTR_TYPE_PROTO = 13,
    ONNX_ATTR_TYPE_PROTOS = 14
};

struct onnx_graph;

struct onnx_attr {
    struct onnx_bytes name;
    enum onnx_attr_type type; /* as declared; 0 if not */
    float f;
    int64_t i;
    struct onnx_bytes s;
    uint32_t n_floats;
    const float *floats;
    uint32_t n_ints;
    const int64_t *ints;
    const struct onnx_tensor_data *t; /* NULL if none */
    const struct onnx_graph *g;       /* NULL if none */
    bool has_f, has_i, has_s;         /* which scalar fields were given */
    uint32_t n_strings, n_tensors, n_graphs;
    const struct onnx_bytes *strings;
    const struct onnx_tensor_data *tensors;
    const struct onnx_graph *const *graphs;       /* n_graphs of them, in model->graphs */
    const struct onnx_tensor_data *sparse_tensor; /* dense dims; NULL if none */
};

struct onnx_node {
    struct onnx_bytes op_type, domain, name;
    uint32_t n_inputs, n_outputs, n_attrs;
    const struct onnx_bytes *inputs; /* an empty name: an optional input left out */
    const struct onnx_bytes *outputs;
    const struct onnx_attr *attrs;
};

/* A graph input, output or value_info. */
struct onnx_value_info {
    struct onnx_bytes name;
    struct onnx_type type; /* .value ONNX_V_UNTYPED when none is given */
};

struct onnx_graph {
    const struct onnx_graph *parent; /* NULL for the main graph */
    const struct onnx_node *owner;   /* the node whose attribute this graph is */
    uint32_t index;                  /* in model->graphs, 0 the main graph */
    uint32_t n_nodes, n_inputs, n_outputs, n_initializers, n_value_info;
    const struct onnx_node *nodes; /* in file order */
    const struct onnx_value_info *inputs, *outputs, *value_info;
    const struct onnx_tensor_data *initializers; /* the dense ones, then the sparse (.sparse) */
    const uint32_t
        *initializer_slots;    /* their indices by name hash (NULL: a graph built by hand) */
    uint32_t initializer_mask; /* slots - 1 */
};

struct onnx_opset {
    struct onnx_bytes domain; /* "" (or "ai.onnx") is the default domain */
    int64_t version;
};

struct onnx_model {
    int64_t ir_version;
    struct onnx_bytes producer_name, producer_version;
    uint32_t n_opsets;
    const struct onnx_opset *opsets;
    uint32_t n_graphs;
    const struct onnx_graph *graphs; /* [0] the main graph, then subgraphs in the walk's order:
                                        depth first, a node's attributes in order, an
                                        attribute's g before its graphs */
    void *arena_;                    /* the reader's: freed by onnx_model_free */
};

/* A Constant node of the default domain (its value is a weight, not an
 * activation). */
bool onnx_node_is_constant(const struct onnx_node *n);
/* name is one of g's initializers (a hash lookup). */
bool onnx_graph_has_initializer(const struct onnx_graph *g, struct onnx_bytes name);

/* Reads the ModelProto in data[0..len). False with err filled when the
 * model is damaged or not a ModelProto; *out_of_memory when memory ran
 * out (err says so too). */
bool onnx_model_read(const uint8_t *data, size_t len, struct onnx_model *model,
                     struct onnx_error *err, bool *out_of_memory);
void onnx_model_free(struct onnx_model *model);

/* The most memory the reader holds for a model's graphs, nodes, attributes
 * and values (its arena and side tables), for a model of len bytes:
 * 16 MiB + 32 x len, at most ONNX_MODEL_MAX_MEMORY (1 GiB). The densest
 * graph measured, a 37 MB chain of 1.4M Relu nodes with short names (no
 * weights), takes 14 times its size; a model's weights take nothing.
 * onnx_model_read and onnx_model_read_releasing apply it;
 * onnx_model_read_capped takes another (the CLI's tests lower it). */
#define ONNX_MODEL_MAX_MEMORY ((size_t)1 << 30)
size_t onnx_model_memory_cap(size_t len);

/* onnx_model_read, told after each field of the main graph that the bytes
 * before upto are not needed until a later pass comes back to them: a
 * mapped file may let their pages go (peak memory then stays that of the
 * graph's metadata, not of the pages around it). */
typedef void (*onnx_model_release_fn)(void *ctx, size_t upto);
bool onnx_model_read_releasing(const uint8_t *data, size_t len, struct onnx_model *model,
                               struct onnx_error *err, bool *out_of_memory,
                               onnx_model_release_fn release, void *ctx);

/* onnx_model_read_releasing with the memory cap max_memory: past it, false
 * with err->limit set and the message naming the cap (not out of memory). */
bool onnx_model_read_capped(const uint8_t *data, size_t len, size_t max_memory,
                            struct onnx_model *model, struct onnx_error *err, bool *out_of_memory,
                            onnx_model_release_fn release, void *ctx);

/* The walk's records (onnx_wire.h) given as the model is read: fn for
 * every declared value, node_fn for every node (either may be NULL), in
 * the walk's order, with its paths and graph indices. A callback answers
 * ONNX_STEP_GO; any other answer ends the read, failed (err->callback). */
struct onnx_model_records {
    onnx_tensor_fn fn;
    onnx_node_fn node_fn;
    void *ctx;
};

/* onnx_model_read_capped in one pass over the bytes with the walk: every
 * message checked (the values no node names too, as the walk checks
 * them), the walk's records given to records (may be NULL), the model
 * read. The same model and the same records as onnx_model_read_capped
 * then onnx_walk_nodes (tests/fuzz/fuzz_onnx.c checks it); a damaged model
 * is refused by both, each at the first damage it meets (the walk reads
 * a graph's values before its nodes). */
bool onnx_model_read_walking(const uint8_t *data, size_t len, size_t max_memory,
                             struct onnx_model *model, struct onnx_error *err, bool *out_of_memory,
                             onnx_model_release_fn release, void *release_ctx,
                             const struct onnx_model_records *records);

/* The default domain's opset version (0 when the model imports none; the
 * last given when it imports it twice). */
int64_t onnx_model_opset(const struct onnx_model *model);

/* An attribute of a node by name, or NULL. */
const struct onnx_attr *onnx_node_attr(const struct onnx_node *node, const char *name);

#endif
