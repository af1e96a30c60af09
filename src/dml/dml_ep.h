/* dml_ep.h - where ONNX Runtime's DirectML execution provider (the DML
 * EP) runs each node of a model: SPEC section 12's placements, decided
 * stage by stage as the provider decides them, from the model (src/onnx),
 * its inferred shapes and the generated tables:
 *
 *   0. folded: computed once when the session is made (SPEC section 11);
 *   1. kernel lookup: a registration for the node's domain and op whose
 *      since version EQUALS the node's schema since-version (ORT's
 *      KernelRegistry matches no range), and its type constraints;
 *   2. the CPU-preferred pass (fallback_cpu_capability.cc);
 *   3. the support query and every tensor's DirectML type
 *      (ExecutionProvider.cpp IsNodeSupportedByDml);
 *   4. graph fusion (GraphPartitioner.cpp BuildPartitions);
 *   5. kernel creation: every tensor padded to at least 4 dims, rank > 8
 *      refused, the DirectML operator's tensor support at the feature
 *      level (dml_operators.h).
 *
 * Where what decides a stage is unknown (a type or a shape inference could
 * not give), the node is `unknown` with the reason; nothing is guessed.
 * No I/O, no printing. */
#ifndef DMLT_DML_EP_H
#define DMLT_DML_EP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dml_ep_table.h"
#include "dml_operators.h"
#include "onnx_infer.h"
#include "onnx_model.h"

enum dmlt_placement {
    DMLT_PLACE_FOLDED,
    DMLT_PLACE_DML,
    DMLT_PLACE_DML_KERNEL,
    DMLT_PLACE_CPU,
    DMLT_PLACE_FAILS,
    DMLT_PLACE_UNKNOWN,
    DMLT_PLACE_COUNT
};

/* "folded", "dml", "dml_kernel", "cpu", "fails", "unknown" */
const char *dmlt_ep_placement_name(enum dmlt_placement p);

/* SPEC section 12's reason ids, in its order. */
enum dmlt_ep_reason {
    DMLT_R_NOT_REGISTERED,
    DMLT_R_OPSET_NOT_REGISTERED,
    DMLT_R_TYPE_NOT_SUPPORTED,
    DMLT_R_QUERY_REJECTED,
    DMLT_R_CPU_PREFERRED,
    DMLT_R_CONTROL_FLOW,
    DMLT_R_CPU_INPUT_NOT_CONSTANT,
    DMLT_R_DYNAMIC_SHAPE,
    DMLT_R_ZERO_DIM,
    DMLT_R_INPUT_COUNT,
    DMLT_R_GRAPH_HAS_SUBGRAPHS,
    DMLT_R_GRAPH_NOT_SUPPORTED,
    DMLT_R_DIMENSION_COUNT,
    DMLT_R_DATA_TYPE,
    DMLT_R_TOO_MANY_ELEMENTS,
    DMLT_R_RANK_TOO_LARGE,
    DMLT_R_FEATURE_LEVEL,
    DMLT_R_COUNT
};

/* "not_registered", ... */
const char *dmlt_ep_reason_id(enum dmlt_ep_reason r);

/* The lookups kernel creation uses (dml_operators.h's by default). A test
 * hands its own to check the stage against a table it builds. */
struct dmlt_ep_tables {
    const struct dmlt_dml_operator *(*operator_find)(const char *name);
    const struct dmlt_dml_tensor_rule *(*rule_at)(const struct dmlt_dml_operator *op,
                                                  const char *tensor, unsigned level);
    const struct dmlt_dml_mapping *(*mapping_find)(const char *onnx_op, unsigned *count);
};

struct dmlt_ep_options {
    unsigned feature_level;              /* 0x5100; 0: dmlt_dml_newest_level() */
    const struct dmlt_ep_tables *tables; /* NULL: dml_operators.h's */
};

/* Why a node is where it is, or what was not checked (a note). */
struct dmlt_ep_reason_rec {
    uint32_t node; /* index in result->nodes */
    int id;        /* enum dmlt_ep_reason, or -1 for a note */
    uint32_t text; /* offset of its message in result->text */
};

/* A tensor of a node that breaks a rule at kernel creation. */
struct dmlt_ep_failure {
    uint32_t node;
    bool output;    /* an output (else an input) */
    uint32_t index; /* the input's or output's position */
    int rule;       /* enum dmlt_ep_reason: dimension_count, data_type, ... */
};

struct dmlt_ep_node {
    uint32_t graph, index; /* model->graphs[graph].nodes[index] */
    unsigned since;        /* the schema's since version in force; 0 unknown */
    enum dmlt_placement placement;
    int32_t partition;             /* fused graph, in order of creation; -1 none */
    const struct dmlt_ep_reg *reg; /* the kernel ORT finds, or NULL */
    uint32_t first_reason, n_reasons;
    uint32_t first_failure, n_failures;
    bool has_kernel; /* internal: ORT's kernel lookup finds one */
    bool cpu_side;   /* internal: the CPU-preferred pass moved it */
};

struct ep_value;

struct dmlt_ep_result {
    const struct onnx_model *model;
    const struct onnx_infer *inf;
    unsigned feature_level;
    struct dmlt_ep_node *nodes; /* every graph's, graph by graph, each in file order
                                   (dmlt_ep_run_index gives the order they run) */
    size_t n_nodes;
    size_t *graph_first; /* graph g's nodes start at nodes[graph_first[g]] */
    struct dmlt_ep_reason_rec *reasons;
    size_t n_reasons, cap_reasons;
    struct dmlt_ep_failure *failures;
    size_t n_failures, cap_failures;
    char *text;
    size_t n_text, cap_text;
    size_t placements[DMLT_PLACE_COUNT];
    size_t partitions;        /* fused graphs */
    size_t copies;            /* values that cross between the CPU and DirectML each run */
    const void *internal_;    /* the tables kernel creation uses */
    struct ep_value *values_; /* internal: every graph's values by name */
    size_t values_mask_;
};

/* Decides every node. False when memory ran out (result freed then). The
 * model and inference must outlive the result. */
bool dmlt_ep_run(const struct onnx_model *model, const struct onnx_infer *inf,
                 const struct dmlt_ep_options *options, struct dmlt_ep_result *result);
void dmlt_ep_free(struct dmlt_ep_result *result);

/* The file index of the j-th node of graph to run (SPEC section 11's
 * order, the inference's: the file's where it is topological). */
uint32_t dmlt_ep_run_index(const struct dmlt_ep_result *r, uint32_t graph, uint32_t j);
/* The node at model->graphs[graph].nodes[index]. */
const struct dmlt_ep_node *dmlt_ep_node_at(const struct dmlt_ep_result *r, uint32_t graph,
                                           uint32_t index);

/* Where the value a graph sees under a name comes from, as scan's
 * records say it (SPEC section 12): the placement name of the node that
 * makes it ("dml", "cpu", "folded", ...: nodes' placement of its
 * producer), "input" (a graph input: the caller binds it, or the node
 * that owns the subgraph), "initializer" (a weight: uploaded when the
 * session is made), or NULL when no value of graph or its ancestors has
 * that name. The one place scan asks. */
const char *dmlt_ep_value_placement(const struct dmlt_ep_result *r, uint32_t graph,
                                    const char *name, size_t len);

/* Where the outputs of node model->graphs[graph].nodes[index] live
 * while the session runs, for plan --device dml: DirectML memory (an
 * output of a dml or dml_kernel node, but Shape's and Size's, which the
 * provider writes to CPU memory: the same rule as `copies`), CPU memory
 * (a cpu node's), or no memory of the run (folded: a weight), or not
 * decided (the producer fails or is unknown). */
enum dmlt_ep_memory {
    DMLT_MEM_DML,
    DMLT_MEM_CPU,
    DMLT_MEM_FOLDED,
    DMLT_MEM_FAILS,
    DMLT_MEM_UNKNOWN
};
enum dmlt_ep_memory dmlt_ep_output_memory(const struct dmlt_ep_result *r, uint32_t graph,
                                          uint32_t index);

/* The dimension count DirectML receives for a tensor of this rank: the EP
 * pads every tensor with leading 1s to at least 4 dims. */
unsigned dmlt_ep_dimension_count(int32_t rank);

/* The DirectML operator types the provider creates for n (from the
 * mapping tables): the rows and their count, NULL/0 when unknown. */
const struct dmlt_dml_mapping *dmlt_ep_mapping(const struct dmlt_ep_result *r,
                                               const struct dmlt_ep_node *n, unsigned *count);

/* What is known of a value's dims: all known numbers (*elems their
 * product, saturated at INT64_MAX), some symbolic (names the first symbol
 * into sym), or some unknown. */
enum ep_dims { EP_DIMS_KNOWN, EP_DIMS_SYMBOLIC, EP_DIMS_UNKNOWN };
enum ep_dims dmlt_ep_value_dims(const struct onnx_infer_value *v, int64_t *elems, bool *zero,
                                char *sym, size_t sym_cap);

/* An ONNX element type's name ("FLOAT16"), "type N" past the table. */
const char *dmlt_ep_onnx_type_name(int32_t elem_type, char *buf, size_t cap);
/* The DirectML data type (enum dmlt_dtype) of an ONNX element type, or -1
 * when DirectML has none (GetDmlDataTypeFromMlDataTypeNoThrow). */
int dmlt_ep_dml_dtype(int32_t elem_type);

/* The source revisions the tables come from. */
const char *dmlt_ep_source(void);

#endif
