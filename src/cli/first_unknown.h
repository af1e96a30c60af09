/* first_unknown.h - where a model's unknown sizes start (SPEC section 11,
 * "Honest totals"): the first value of unknown size in execution order
 * (the main graph's inputs, then each graph's nodes in order, the main
 * graph first), which scan's and plan's summaries name once
 * (`first_unknown`), and for a later value, the input of its node that is
 * unknown too, which its message names. Also the path of a subgraph as
 * scan writes it, which plan's records carry. */
#ifndef DMLT_FIRST_UNKNOWN_H
#define DMLT_FIRST_UNKNOWN_H

#include "source_onnx.h"

struct first_unknown {
    bool found;
    bool is_input;    /* a main graph input (its path: the record's, found by name) */
    char path[384];   /* graph.node[7] (Reshape).output[0]; an input: "" until its record */
    char op[112];     /* "" for an input */
    char reason[400]; /* "dim_unbound: symbolic dim \"N\" unbound" */
    char name[256];
};

/* The path of graph g as scan writes it: "graph" for the main graph,
 * "graph.node[7] (If).then_branch" for a subgraph ("...branches[1]" for
 * a graph of a list attribute); cut to cap - 1 characters. */
void cli_model_graph_path(char *out, size_t cap, const struct onnx_graph *g);

/* The first value of unknown size of model (inference result r, bindings
 * o; d is scratch). out->found false when every size is known. */
void cli_first_unknown_find(const struct onnx_model *model, const struct onnx_infer *r,
                            struct onnx_options *o, struct descriptor *d,
                            struct first_unknown *out);

/* For a value of unknown size produced by node (of graph graph): appends
 * to msg (of cap bytes) which input of the node is unknown too, and the
 * first unknown fu when it is another value. Nothing when every input's
 * size is known (the node is a cause of its own). */
void cli_first_unknown_depends(const struct onnx_model *model, const struct onnx_infer *r,
                               struct onnx_options *o, struct descriptor *d, uint32_t graph,
                               const struct onnx_node *node, const struct first_unknown *fu,
                               char *msg, size_t cap);

#endif
