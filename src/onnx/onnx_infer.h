/* onnx_infer.h - shape inference over an ONNX model (onnx_model.h): the
 * element type and shape of every node output of every graph, as exact
 * integer expressions over the model's symbols (onnx_dimexpr.h).
 *
 * What is read: the graphs' declared types (inputs, outputs, value_info),
 * the initializers' dims, the operators' attributes and the default
 * domain's opset, and the values of small integer tensors (initializers
 * and Constants whose values the reader kept, ONNX_SMALL_DATA elements at
 * most) and of small FLOAT ones (ONNX_SMALL_FLOATS: Resize's scales).
 * Values computed from them and from known shapes (Shape, Gather,
 * Concat, Slice, arithmetic...; float32 arithmetic for floats, back to
 * integers only where whole) are propagated, at most ONNX_INFER_VALUES
 * elements per value, so a Reshape whose shape is computed from a Shape
 * resolves. Sequences and optionals keep their elements' type and shape.
 *
 * Nodes are visited once, in the order they run (onnx_order.h: the file's
 * where it is topological, else a stable sort): a node on a cycle is "not
 * inferred" (graph_cycle), and so is one that reads a value no node,
 * input or initializer defines. Subgraphs are inferred when their node is:
 * If's branches with the outer scope (the branch taken when the condition
 * is known, else where both agree), Loop's and Scan's bodies with the
 * loop-carried shapes narrowed to what every iteration keeps. A dim that
 * depends on tensor data (NonZero, Unique, a Loop's trip count...) is a new
 * symbol named after the value. Where inference is unsure, the dim or the
 * whole shape is unknown, with a reason: a wrong shape is worse than none.
 *
 * Symbols stand for dims: integers 0 <= s < 2^62. A symbol bound with
 * ONNX_INFER_DIM is that constant from the start; binding later (onnx_dx_eval
 * of the symbolic result) gives the same number.
 *
 * Memory: the result holds one record per value (node outputs, inputs,
 * initializers: about 64 bytes each plus 8 per dim and per propagated
 * element), the name maps (16 bytes a value) and the interned expressions;
 * all of it stops at options.mem_cap (values inferred after that are
 * "not inferred: memory cap"). Time: per node, linear in the dims and
 * values it touches (names are hashed); a loop body is inferred at most
 * ONNX_INFER_LOOP_PASSES times, subgraphs nest at most ONNX_INFER_MAX_NESTING
 * deep. The model must outlive the result (names point into it). */
#ifndef DMLT_ONNX_INFER_H
#define DMLT_ONNX_INFER_H

#include "onnx_dimexpr.h"
#include "onnx_model.h"
#include "onnx_order.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ONNX_INFER_VALUES      1024 /* elements of a propagated value */
#define ONNX_INFER_LOOP_PASSES 4    /* inferences of one loop body */
#define ONNX_INFER_MAX_NESTING 16   /* subgraphs inside subgraphs */
#define ONNX_INFER_MAX_RANK    64   /* a larger rank is "not inferred" */

/* --dim NAME=VALUE: the symbol NAME is VALUE (0 <= VALUE < 2^62). */
struct onnx_infer_dim {
    const char *name;
    size_t len;
    int64_t value;
};

/* --shape NAME=D1,D2,...: the main graph's value NAME has this shape. */
struct onnx_infer_shape {
    const char *name;
    size_t len;
    uint32_t rank;
    const int64_t *dims;
};

struct onnx_infer_options {
    const struct onnx_infer_dim *dims;
    size_t n_dims;
    const struct onnx_infer_shape *shapes;
    size_t n_shapes;
    size_t mem_cap; /* bytes; 0: 256 MiB */
};

/* Where a value's type and shape come from. */
enum onnx_infer_source {
    ONNX_INFER_NONE,     /* not inferred and not declared: see reason */
    ONNX_INFER_DECLARED, /* not inferred; the model's declaration */
    ONNX_INFER_INFERRED  /* inferred (declared dims fill in its unknown ones) */
};

/* One value's result. dims[i] NULL: that dim is unknown. */
struct onnx_infer_value {
    enum onnx_infer_source source;
    bool not_tensor; /* a sequence, map or optional: no shape */
    /* Computed once when a runtime session is made (SPEC section 11): an
     * initializer that no input overrides, a Constant's value, the output
     * of a deterministic default-domain node without subgraphs whose
     * inputs are all folded, or of Shape or Size of a value whose every
     * dim is a known constant (--dim and --shape bind them). */
    bool folded;
    int32_t elem_type; /* TensorProto.DataType, 0 when unknown */
    int32_t rank;      /* -1 when the rank is unknown */
    const struct onnx_dx *const *dims;
    /* Why the shape (or a dim of it) is not inferred: "Foo: no shape
     * function (an operator of another domain)", "Reshape: the shape
     * input's values are unknown"... NULL when inference gave every dim;
     * kept when declared dims filled in what it could not give. */
    const char *reason;
};

/* A declared fixed dim (or rank, or element type) that the inferred one
 * contradicts. The value's result has that dim unknown. Or (option) a
 * --shape that contradicts a known dim or rank of the value, which the
 * model declares or inference gives: the value takes the --shape, and the
 * caller is to refuse it (a shape the model cannot have). */
enum onnx_infer_against {
    ONNX_AGAINST_NONE,     /* a declaration against the inference */
    ONNX_AGAINST_DECLARED, /* a --shape against what the model declares */
    ONNX_AGAINST_INFERRED  /* a --shape against what inference gives */
};
struct onnx_infer_mismatch {
    uint32_t graph; /* index in model->graphs */
    struct onnx_bytes name;
    int32_t dim;      /* the dim, -1 the rank, -2 the element type */
    int64_t declared; /* the declared dim, rank or element type (option: the --shape's) */
    int64_t inferred; /* (option: the model's) */
    enum onnx_infer_against option;
};

struct onnx_infer;

enum onnx_infer_status { ONNX_INFER_OK, ONNX_INFER_NO_MEMORY };

/* Infers every graph of model. *out is the result (free it with
 * onnx_infer_free) unless ONNX_INFER_NO_MEMORY, when even the result's
 * frame could not be allocated. Running out of options->mem_cap later is
 * not a failure: the values past it are "not inferred". */
enum onnx_infer_status onnx_infer_run(const struct onnx_model *model,
                                      const struct onnx_infer_options *options,
                                      struct onnx_infer **out);
void onnx_infer_free(struct onnx_infer *result);

/* Output `output` of node `node` of graph `graph` (indices as in the
 * model); NULL when there is no such output. */
const struct onnx_infer_value *onnx_infer_output(const struct onnx_infer *result, uint32_t graph,
                                                 uint32_t node, uint32_t output);
/* The value named name as graph `graph` sees it at its end (its own
 * values, then the enclosing graphs'); NULL when no value has that name. */
const struct onnx_infer_value *onnx_infer_lookup(const struct onnx_infer *result, uint32_t graph,
                                                 const char *name, size_t len);

/* The order graph's nodes run in (onnx_order.h), NULL when there is no
 * such graph; whether some graph's file order was not topological. */
const struct onnx_order *onnx_infer_order(const struct onnx_infer *result, uint32_t graph);
bool onnx_infer_sorted(const struct onnx_infer *result);

size_t onnx_infer_mismatch_count(const struct onnx_infer *result);
const struct onnx_infer_mismatch *onnx_infer_mismatch_at(const struct onnx_infer *result, size_t i);

/* How many times the model proved wrong at these dims: shapes that do
 * not broadcast, concatenate or split, a negative dim, and the mismatches
 * above. 0 for a model valid at its bindings; "binding later equals
 * binding first" holds for the bindings at which this is 0. */
size_t onnx_infer_contradictions(const struct onnx_infer *result);

/* The symbols the results use that no binding gave a value (model dims,
 * then the new symbols of data-dependent dims), in order of first use. */
size_t onnx_infer_symbol_count(const struct onnx_infer *result);
struct onnx_bytes onnx_infer_symbol_at(const struct onnx_infer *result, size_t i);

/* Bytes the result holds (for the benchmarks' figures). */
size_t onnx_infer_bytes(const struct onnx_infer *result);

#endif
