/* render_c.h - `--format c`: a C snippet that declares a buffer tensor's
 * DML_BUFFER_TENSOR_DESC (and, with a binding, its DML_BUFFER_BINDING), to
 * paste inside a function body. It is valid C11 and C++ alike: positional
 * aggregate initializers, integer suffixes where a value needs them, enum
 * names for DataType and Flags. For NAME (--name, default "tensor"):
 *
 *     UINT NAMESizes[R], NAMEStrides[R];
 *     DML_BUFFER_TENSOR_DESC NAMEBufferDesc;  DML_TENSOR_DESC NAMEDesc;
 *     DML_BUFFER_BINDING NAMEBinding;         DML_BINDING_DESC NAMEBindingDesc;
 *
 * so snippets with different names can sit in one function. size and
 * validate call it; so can any command that has a descriptor to show. */
#ifndef DMLT_RENDER_C_H
#define DMLT_RENDER_C_H

#include "errors.h"

#define C_NAME_DEFAULT "tensor"
#define C_NAME_MAX     64 /* characters of a --name */

/* A DML_BUFFER_BINDING: the Buffer is left NULL for the caller to fill. */
struct c_binding {
    uint64_t offset;      /* Offset */
    uint64_t size;        /* SizeInBytes */
    bool has_buffer_size; /* named in the Buffer's comment, when known */
    uint64_t buffer_size;
};

struct c_snippet {
    const char *name; /* variable prefix: NULL for C_NAME_DEFAULT; else checked
                         by cli_c_name_check() */
    const struct dmlt_tensor *t;
    uint32_t flags;                  /* DML_TENSOR_FLAGS */
    uint64_t total;                  /* TotalTensorSizeInBytes (see cli_c_total) */
    uint32_t alignment;              /* GuaranteedBaseOffsetAlignment */
    const char *layout;              /* for the heading comment, or NULL */
    const struct c_binding *binding; /* NULL: no DML_BUFFER_BINDING */
};

/* Whether name can prefix the snippet's variables: a C identifier that
 * starts with a letter, holds no "__" (reserved in C++), at most
 * C_NAME_MAX characters. False with e filled (option --name), its hint
 * an example naming the command's variables (its c_variables). */
bool cli_c_name_check(const char *name, const char *variables, struct cli_error *e);

/* TotalTensorSizeInBytes for the snippet: the field is a UINT64, so a total
 * past 2^64-1 (only a tensor over DirectML's element limit has one) is an
 * error (exit status 1: no DML_BUFFER_TENSOR_DESC can say it). */
bool cli_c_total(dmlt_u128 total, uint64_t *out, struct cli_error *e);

/* A comment line, with any "*" "/" pair in text broken up. */
void cli_c_comment(struct outbuf *b, const char *text);

/* The declarations, each ending in a newline. */
void cli_render_c_snippet(struct outbuf *b, const struct c_snippet *s);

#endif
