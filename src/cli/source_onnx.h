/* source_onnx.h - descriptors from the tensors of an ONNX model
 * (source_onnx.c): each value onnx_wire.c finds becomes the texts the
 * command line would have given (--dtype, --sizes, --rank, --layout), or an
 * error record's error (a type DirectML has not, a value that is no tensor,
 * a dim that is unknown, symbolic and unbound, 0, negative or past 32
 * bits, more than 8 dims). */
#ifndef DMLT_SOURCE_ONNX_H
#define DMLT_SOURCE_ONNX_H

#include "descriptor.h"
#include "onnx_wire.h"

/* One --dim NAME=VALUE. */
struct onnx_dim_binding {
    const char *name; /* NUL-terminated, into the --dim text */
    size_t len;
    uint64_t value;
    bool used; /* some tensor had this symbol */
};

/* --dim NAME=VALUE (any number), --rank R and --layout L as scan was given
 * them. */
struct onnx_options {
    struct onnx_dim_binding *dims; /* n_dims, malloc'd: onnx_options_free */
    unsigned n_dims;
    const char *rank; /* the --rank text, or NULL */
    unsigned rank_value;
    const char *layout; /* the --layout text, or NULL */
};

/* Reads --dim, --rank and --layout from cfg. False with e filled (exit 2)
 * for a bad one. */
bool onnx_options_read(const struct cli_config *cfg, struct onnx_options *o, struct cli_error *e);
void onnx_options_free(struct onnx_options *o);

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
bool descriptor_from_onnx(const struct onnx_tensor *t, struct onnx_options *o, struct descriptor *d,
                          struct onnx_facts *facts, struct cli_error *e);

#endif
