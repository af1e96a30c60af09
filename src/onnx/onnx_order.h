/* onnx_order.h - the order a runtime runs a graph's nodes in (SPEC section
 * 11, "Order"): the file's order where it is topological (ONNX requires
 * it), else a stable topological sort as ONNX Runtime's: a node as soon as
 * every value it reads exists, file order among the nodes ready together.
 * A node reads its inputs and, through its subgraphs (If's branches,
 * Loop's and Scan's bodies, at any depth), every value of this graph they
 * name. Nodes on a cycle (and those only a cycle feeds) cannot be ordered:
 * they come last, in file order, and the ones on a cycle are marked.
 * Pure: the graph in, the order out; no I/O. */
#ifndef DMLT_ONNX_ORDER_H
#define DMLT_ONNX_ORDER_H

#include "onnx_model.h"

struct onnx_order {
    uint32_t *order; /* g->n_nodes node indices, in the order they run */
    bool *on_cycle;  /* by node index: the node is on a cycle of g's nodes */
    bool sorted;     /* the file's order was not topological */
    bool cycle;      /* some node is on a cycle */
};

/* Fills o (its arrays of g->n_nodes elements the caller's). False when
 * memory for the sort ran out (o then holds the file's order). */
bool onnx_order_graph(const struct onnx_graph *g, struct onnx_order *o);

#endif
