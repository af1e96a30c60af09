/* onnx_options.h - what scan, plan and nodes are told of a model on the
 * command line (onnx_options.c): --dim NAME=VALUE and --shape
 * NAME=D1,D2,... (any number of each, sorted by name), --rank R and
 * --layout L, read from the command's options; and a --shape checked
 * against a value the model declares. The session binds them
 * (model_session.h); the descriptors read them (source_onnx.h). */
#ifndef DMLT_ONNX_OPTIONS_H
#define DMLT_ONNX_OPTIONS_H

#include "cli.h"
#include "errors.h"
#include "onnx_infer.h"
#include "onnx_model.h"
#include "onnx_wire.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ONNX_SHAPE_MAX_RANK 64 /* dims of a --shape */

/* --dim NAME=VALUE: a symbol's value. */
struct onnx_dim_binding {
    const char *name; /* into the --dim text */
    size_t len;
    uint64_t value;
    const char *text; /* the whole --dim text */
    bool used;        /* some tensor had this symbol */
};

/* --shape NAME=D1,D2,...: the whole shape of a main-graph value. */
struct onnx_shape_binding {
    const char *name; /* into the --shape text */
    size_t len;
    unsigned rank;
    uint64_t dims[ONNX_SHAPE_MAX_RANK];
    const char *text; /* the whole --shape text */
    bool used;        /* some value had this name */
};

/* --dim, --shape, --rank R and --layout L as scan was given them; dims
 * and shapes sorted by name (bsearch), any number of each. */
struct onnx_options {
    struct onnx_dim_binding *dims;
    unsigned n_dims;
    struct onnx_shape_binding *shapes;
    unsigned n_shapes;
    /* The same bindings as the model session binds them (onnx_infer.h),
     * made once when read: they (and the names they point into) outlive
     * the session. */
    struct onnx_infer_options infer;
    struct onnx_infer_dim *infer_dims;     /* infer.dims */
    struct onnx_infer_shape *infer_shapes; /* infer.shapes */
    int64_t *infer_shape_dims;             /* their dims */
    const char *rank;                      /* the --rank text, or NULL */
    unsigned rank_value;
    const char *layout; /* the --layout text, or NULL */
};

/* Reads --dim, --shape, --rank and --layout from cfg. False with e filled
 * (exit 2) for a bad one; o is to be freed with cli_onnx_options_free either
 * way. */
bool cli_onnx_options_read(const struct cli_config *cfg, struct onnx_options *o,
                           struct cli_error *e);
void cli_onnx_options_free(struct onnx_options *o);

/* The --dim binding of the symbol [p, p + n), or NULL. */
struct onnx_dim_binding *cli_onnx_dim_bound(const struct onnx_options *o, const void *p, size_t n);
/* The --shape of the value named [p, p + n), or NULL. */
struct onnx_shape_binding *cli_onnx_shape_given(const struct onnx_options *o, const void *p,
                                                size_t n);

/* Whether t, a value of the main graph, contradicts a --shape given for
 * its name (another rank, or a fixed dim the model declares that differs).
 * False with e filled (shape_conflict, exit 2) when it does. */
bool cli_onnx_shape_check(const struct onnx_tensor *t, struct onnx_options *o, struct cli_error *e);

/* A value of the main graph (not of a subgraph). */
bool cli_onnx_in_main_graph(const struct onnx_tensor *t);

/* What plan and nodes were told that the model does not have, a note each
 * on stderr ("CMD: --dim ..."): a --dim whose symbol no input, output or
 * value_info of any graph has, a --shape that names no input, output,
 * value_info or node output of the main graph. (scan notes the same from
 * the records it writes.) Sets each binding's used. */
void cli_onnx_note_unused(const struct cli_config *cfg, const char *cmd,
                          const struct onnx_model *model, struct onnx_options *o);

#endif
