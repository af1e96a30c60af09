/* model_session.h - the model session (src/onnx/onnx_session.h) as scan,
 * plan and nodes open it (model_session.c): over the bytes cli_input_whole
 * took, with the CLI's memory caps, and bound with the command's --dim and
 * --shape. A command that renders a model opens one session, renders what
 * it asks of it, and closes it; it never walks or reads the bytes itself. */
#ifndef DMLT_MODEL_SESSION_H
#define DMLT_MODEL_SESSION_H

#include "errors.h"
#include "onnx_options.h"
#include "onnx_session.h"
#include "platform.h"

/* What a command asks of the walk's records (onnx_session_each). */
enum model_records {
    MODEL_RECORDS_NONE,   /* none: the model read (and checked) only */
    MODEL_RECORDS_VALUES, /* the declared values (no node_fn) */
    MODEL_RECORDS_ALL     /* the values and the nodes */
};

/* onnx_session_open over m's bytes: the model reader's cap
 * cli_input_model_memory_cap(m->len), the walk's records kept as the
 * command asks for them up to 8 MiB (or that cap, if smaller); release (may be NULL) told as each
 * pass goes. False with oe and *oom filled (the caller words the error: each command names what it
 * reads); s is to be closed either way. */
bool cli_model_session_open(struct onnx_session *s, const struct plat_map *m,
                            enum model_records records, onnx_release_fn release, void *ctx,
                            struct onnx_error *oe, bool *oom);

/* The session's failure to open or read as the command's error (returns
 * false): out_of_memory, or bad_onnx naming file, the byte and the
 * reader's message, "a damaged ONNX model" or "an ONNX model past this
 * reader's limit"; the hint says what the command reads (reads), or, past
 * the limit, that protobuf's own readers refuse it too. */
bool cli_model_session_fail(struct cli_error *e, const struct onnx_error *oe, bool oom,
                            const char *file, const char *reads);

/* Binds o's --dim and --shape and infers the model read (its shapes, the
 * order each graph runs in, what is folded). False with e filled
 * (out_of_memory) when memory ran out. */
bool cli_model_session_infer(struct onnx_session *s, const struct onnx_options *o,
                             struct cli_error *e);

#endif
