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
#include "onnx_options.h"
#include "onnx_wire.h"

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

/* ---- inferred shapes ---- */

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
