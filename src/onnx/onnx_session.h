/* onnx_session.h - one model, parsed once per command (onnx_session.c).
 *
 * A session is what the commands that render a model (scan, plan, nodes)
 * know of it: the model's bytes (the caller's: a mapping or a buffer the
 * CLI made; the session does no I/O) passed over once, the walk's records
 * (onnx_wire.h: every declared value and every node, in the walk's order,
 * with their paths), the model (onnx_model.h), the --dim and --shape
 * bindings, and the inference over them (onnx_infer.h: shapes, the order
 * each graph runs in, what a runtime folds), with the names each graph
 * declares and the first place inference contradicts a declaration.
 * A command asks the session; it never walks or reads the bytes again.
 *
 * The steps, each once, in this order (a command stops after any):
 *   onnx_session_open   the one pass (onnx_model_read_walking): the whole
 *                       model checked (damage, the nesting limit, the
 *                       reader's memory cap), its records kept as the
 *                       walk gives them, the model read (graphs, nodes,
 *                       attributes);
 *   onnx_session_infer  the bindings, then shape inference, order, folding.
 * onnx_session_each gives the walk's records again, as the walk gave them.
 *
 * The records kept take memory with the declared values (a value's struct
 * and path): past the caller's cap for them (records_memory) they are let
 * go, and onnx_session_each walks the bytes again (the only case of a
 * second pass: a model of millions of declared values, which the walk
 * otherwise reads in constant memory). */
#ifndef DMLT_ONNX_SESSION_H
#define DMLT_ONNX_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_infer.h"
#include "onnx_model.h"
#include "onnx_wire.h"

struct onnx_session_options {
    size_t model_memory;   /* the model reader's cap; 0: onnx_model_memory_cap(len) */
    size_t records_memory; /* the walk's records kept; 0: as model_memory */
    bool no_records;       /* keep none (each walks again) */
    bool no_node_records;  /* keep the values' only (each with a node_fn walks again) */
    /* Told that the bytes before upto are not needed until a later pass
     * (onnx_wire.h's onnx_release_fn): a mapping may let their pages go.
     * May be NULL. */
    onnx_release_fn release;
    void *release_ctx;
};

/* Which names a graph declares (outputs, value_info): an open-addressing
 * set, name.p NULL empty. */
struct onnx_session_name {
    uint32_t graph;
    struct onnx_bytes name;
};

struct onnx_session {
    const uint8_t *data;
    size_t len;
    struct onnx_session_options opts;
    /* The walk's records: a tag byte, then the record (struct onnx_tensor,
     * or a node's graph and index) and its NUL-terminated path. */
    unsigned char *records;
    size_t records_len, records_cap;
    bool records_dropped; /* past records_memory: each walks again */
    bool has_model;
    struct onnx_model model;            /* after onnx_session_open */
    struct onnx_infer *infer;           /* after onnx_session_infer; NULL before (or without) */
    struct onnx_session_name *declared; /* outputs and value_info of every graph */
    size_t declared_mask;
    struct onnx_session_name *mismatched; /* the values inference contradicts */
    size_t *mismatch_at;                  /* each one's first (onnx_infer_mismatch_at) */
    size_t mismatch_mask;
};

/* Reads the ModelProto in data[0..len) in one pass: every message
 * checked, the walk's records kept (as o asks), the model read
 * (s->model). False with err filled when the model is damaged or past the
 * reader's limits (err->limit: the nesting limit, the memory cap), or out
 * of memory (*out_of_memory, err says so too). The session is to be
 * closed either way; data must outlive it. */
bool onnx_session_open(struct onnx_session *s, const uint8_t *data, size_t len,
                       const struct onnx_session_options *o, struct onnx_error *err,
                       bool *out_of_memory);

/* Binds the symbols and shapes of options (not copied: options, its
 * arrays and the names they point into outlive the session) and infers
 * every graph of the model, once;
 * then s->infer is the result (its order and folding too). False when
 * memory ran out (no result). */
bool onnx_session_infer(struct onnx_session *s, const struct onnx_infer_options *options);

/* The walk's records again, in the walk's order: fn for each value,
 * node_fn (may be NULL) for each node, as onnx_walk_nodes calls them.
 * ONNX_STEP_STOP from either stops (true is returned); ONNX_STEP_FAIL
 * stops with false (the callback's owner knows why). False with
 * *out_of_memory when the records were let go and walking again ran out
 * of memory. */
bool onnx_session_each(const struct onnx_session *s, onnx_tensor_fn fn, onnx_node_fn node_fn,
                       void *ctx, bool *out_of_memory);

/* Whether graph declares name among its outputs or value_info (after
 * onnx_session_infer). */
bool onnx_session_declared(const struct onnx_session *s, uint32_t graph, struct onnx_bytes name);

/* The first place inference contradicts what graph declares of name (a
 * fixed dim, the rank or the element type), or NULL. */
const struct onnx_infer_mismatch *onnx_session_mismatch(const struct onnx_session *s,
                                                        uint32_t graph, struct onnx_bytes name);

void onnx_session_close(struct onnx_session *s);

#endif
