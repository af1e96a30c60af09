/* onnx_wire_int.h - the walk's pieces (onnx_wire.c), for the two drivers
 * that go down a model: the walk itself (onnx_walk_nodes: a check of the
 * whole model, or its records again) and the model reader (onnx_model.c),
 * which calls them as it reads, so that one pass over the bytes both
 * checks every message, gives the records in the walk's order and builds
 * the model. Not visible outside src/onnx.
 *
 * A driver enters graphs in the same order (pre-order: the main graph 0,
 * then each subgraph as its node's attribute is read), and for each graph:
 *   onnx__walk_values      its inputs, outputs, initializers, sparse
 *                          initializers and value_info, kind by kind,
 *                          each checked and recorded;
 *   then each node in order:
 *     onnx__walk_node       its record and its path;
 *     for each attribute, in order:
 *       onnx__walk_attribute  its tensors checked, a Constant's value
 *                             recorded, its name on the path;
 *       its graph (g), then its graphs ([k]: onnx__walk_path_index);
 *       the path cut back (onnx__walk_path_back). */
#ifndef DMLT_ONNX_WIRE_INT_H
#define DMLT_ONNX_WIRE_INT_H

#include "onnx_proto.h"
#include "onnx_wire.h"

/* The path of the value being read: grows as the walk goes down. */
struct onnx__path {
    char *data;
    size_t len, cap;
    bool failed; /* out of memory: the walk stops */
    bool off;    /* no callback: no path is built */
};

struct onnx__walk {
    const uint8_t *base;
    onnx_tensor_fn fn;       /* may be NULL */
    onnx_release_fn release; /* may be NULL */
    void *release_ctx;
    onnx_node_fn node_fn; /* may be NULL */
    void *ctx;            /* fn's and node_fn's */
    struct onnx__path path;
    uint32_t graphs; /* graphs entered so far: the next one's index */
    uint32_t graph;  /* the index of the graph being read */
    uint32_t node;   /* the index of the node being read, in its graph */
    struct onnx_error *err;
    bool stop;     /* a callback answered ONNX_STEP_STOP or ONNX_STEP_FAIL */
    bool fn_fails; /* ONNX_STEP_FAIL: the walk fails */
};

/* A walk over base's bytes, its path "graph"; release (may be NULL) told
 * after each field of the main graph, with ctx (the reader sets its own
 * release_ctx after this). */
void onnx__walk_begin(struct onnx__walk *w, const uint8_t *base, onnx_tensor_fn fn,
                      onnx_node_fn node_fn, onnx_release_fn release, void *ctx,
                      struct onnx_error *err);
/* Its end: the path freed; ok as the driver found, false with
 * *out_of_memory when the path could not grow, or with err->callback set
 * when a callback answered ONNX_STEP_FAIL. */
bool onnx__walk_end(struct onnx__walk *w, bool ok, bool *out_of_memory);

/* The values of graph m (w->graph: its index), checked and recorded kind
 * by kind (each kind's span read alone when there are records: exporters
 * write each kind together). main: the main graph, whose pages are let go
 * as it goes. False with err filled on damage, or when the path ran out
 * of memory; a callback's ONNX_STEP_STOP or FAIL sets w->stop. */
bool onnx__walk_values(struct onnx__walk *w, const struct pb_msg *m, bool main);

/* A node of w->graph, checked (v), at index: ".node[index] (op)" on the
 * path (*mark: where to cut back to) and its record given; *constant: a
 * Constant node, whose first output names its value. False when the path
 * ran out of memory. */
bool onnx__walk_node(struct onnx__walk *w, uint32_t index, const struct onnx_node_msg *v,
                     size_t *mark, bool *constant);

/* An attribute m (checked: a) of the node being read: its tensors checked,
 * and for a Constant node (constant, its output0 or NULL) its value
 * recorded; ".name" on the path (*mark: where to cut back to). False
 * with err filled on damage, or when the path ran out of memory. */
bool onnx__walk_attribute(struct onnx__walk *w, const struct pb_msg *m,
                          const struct onnx_attr_msg *a, bool constant,
                          const struct onnx_bytes *output0, size_t *mark);

/* "[k]" on the path (the k-th graph of an attribute's graphs). */
void onnx__walk_path_index(struct onnx__walk *w, uint64_t k);
/* The path cut back to mark. */
void onnx__walk_path_back(struct onnx__walk *w, size_t mark);

#endif
