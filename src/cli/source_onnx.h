/* source_onnx.h - descriptors from the tensors of an ONNX model
 * (source_onnx.c): each value onnx_wire.c finds becomes the texts the
 * command line would have given (--dtype, --sizes, --rank, --layout), or an
 * error record's error (a type DirectML has not, a value that is no tensor,
 * a dim that is unknown, symbolic and unbound, 0, negative or past 32
 * bits, more than 8 dims). */
#ifndef DMLT_SOURCE_ONNX_H
#define DMLT_SOURCE_ONNX_H

#include "descriptor.h"
#include "onnx_infer.h"
#include "onnx_wire.h"

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
    const char *rank; /* the --rank text, or NULL */
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

/* A value of the main graph (not of a subgraph), by its path. */
bool cli_onnx_in_main_graph(const struct onnx_tensor *t);

#define ONNX_MAX_NOTES 4

/* What a record says of a tensor besides its descriptor. */
struct onnx_facts {
    const char *onnx_type; /* "FLOAT16", or NULL when unknown */
    const char *value;     /* "tensor", "sequence", "map", ... */
    char notes[ONNX_MAX_NOTES][200];
    unsigned n_notes;
};

/* Fills d (validate, JSON) from t. False with e filled for an error
 * record; facts are filled either way. */
bool cli_descriptor_from_onnx(const struct onnx_tensor *t, struct onnx_options *o,
                              struct descriptor *d, struct onnx_facts *facts, struct cli_error *e);

/* What an error record of scan means for its exit status: a definite
 * DirectML problem (exit status 1: dtype_unsupported, too_many_dims,
 * dim_too_large, dim_negative, ...), only unknown (dims unbound or
 * unknown, no shape, no type, not inferred: counted, exit status 1 only
 * with --strict), or no DirectML concern (an empty tensor, a sequence or
 * map: counted only). */
enum onnx_verdict { ONNX_DEFINITE, ONNX_UNKNOWN, ONNX_NO_CONCERN };
enum onnx_verdict cli_onnx_error_verdict(const char *id);

/* ---- inferred shapes (section 9) ---- */

/* Shape inference over model with --dim and --shape as o holds them, and
 * which names each graph declares as outputs or value_info (those have
 * records of their own). */
struct onnx_inference {
    struct onnx_infer *result;
    struct onnx_infer_dim *dims;
    struct onnx_infer_shape *shapes;
    int64_t *shape_dims;
    struct declared {
        uint32_t graph;
        struct onnx_bytes name;
    } * declared; /* open addressing, name.p NULL empty */
    size_t mask;
    struct declared *mismatched; /* the values inference contradicts: graph, name */
    size_t *mismatch_at;         /* each one's first mismatch (onnx_infer_mismatch_at) */
    size_t mismatch_mask;
};

/* False with e filled (out_of_memory) when memory ran out. */
bool cli_onnx_inference_run(struct onnx_inference *inf, const struct onnx_model *model,
                            const struct onnx_options *o, struct cli_error *e);
void cli_onnx_inference_free(struct onnx_inference *inf);
/* Whether graph declares name among its outputs or value_info. */
bool cli_onnx_inference_declared(const struct onnx_inference *inf, uint32_t graph,
                                 struct onnx_bytes name);
/* The first place inference contradicts what graph declares of name (a
 * fixed dim, the rank or the element type), or NULL. */
const struct onnx_infer_mismatch *cli_onnx_inference_mismatch(const struct onnx_inference *inf,
                                                              uint32_t graph,
                                                              struct onnx_bytes name);

/* An inferred value's "shape" as JSON into b: numbers, expressions over
 * the symbols as strings ("batch*197"), null for an unknown dim; null
 * without a rank. symbol is called for each symbol of the dims (b's
 * writer notes the unbound ones). */
void cli_onnx_inferred_shape_json(struct outbuf *b, const struct onnx_infer_value *v,
                                  void (*symbol)(void *ctx, const char *name, size_t len),
                                  void *ctx);

/* Fills d from an inferred value, as cli_descriptor_from_onnx does from a
 * declared one: shape_not_inferred (with inference's reason) where a dim,
 * the rank or the element type is unknown. */
bool cli_descriptor_from_inferred(const struct onnx_infer_value *v, struct onnx_options *o,
                                  struct descriptor *d, struct onnx_facts *facts,
                                  struct cli_error *e);

#endif
