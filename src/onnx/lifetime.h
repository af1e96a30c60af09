/* lifetime.h - when each value of an ONNX model's main graph is alive, by
 * SPEC section 10's rule, for `plan MODEL.onnx`:
 *  - step k is the k-th node the main graph runs (order, onnx_order.h:
 *    the file's order where it is topological; NULL: the file's order);
 *  - a value lives from its producer's step to the step of its last
 *    consumer, inclusive; a value read inside a node's subgraph (an If
 *    branch, a Loop body, at any depth, unless the subgraph defines a value
 *    of that name itself) is read by that node; a value never read lives at
 *    its producer's step;
 *  - the values are the activations: node outputs that are neither graph
 *    outputs nor a Constant node's; with io, also the graph inputs that are
 *    no initializer (alive from step 0) and the graph outputs (alive to the
 *    last step).
 * Pure: the model in, the lifetimes out; no I/O. Linear time in the names
 * of the graph and its subgraphs (one hash table). */
#ifndef DMLT_ONNX_LIFETIME_H
#define DMLT_ONNX_LIFETIME_H

#include "onnx_model.h"

enum onnx_life_kind { ONNX_LIFE_ACTIVATION, ONNX_LIFE_INPUT, ONNX_LIFE_OUTPUT };

#define ONNX_LIFE_NO_NODE UINT32_MAX /* a graph input has no producer */

struct onnx_life {
    struct onnx_bytes name;
    enum onnx_life_kind kind;
    uint32_t node;   /* the producer's index in the main graph's file, or ONNX_LIFE_NO_NODE */
    uint32_t output; /* which of its outputs */
    uint64_t first, last;
};

/* The values of graph g (the main graph) with their lifetimes, in order:
 * with io the graph inputs first, then the node outputs in step order.
 * *out is malloc'd (free it), *count its length. False when memory ran
 * out. */
bool onnx_lifetimes(const struct onnx_graph *g, const uint32_t *order, bool io,
                    struct onnx_life **out, size_t *count);

/* The same, and *probes (if not NULL) the hash table's slots looked at:
 * linear in the names of g and its subgraphs (a test holds it to that). */
bool onnx_lifetimes_counted(const struct onnx_graph *g, const uint32_t *order, bool io,
                            struct onnx_life **out, size_t *count, uint64_t *probes);

#endif
