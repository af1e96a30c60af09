/* model_read.h - what onnx_model.c (graphs, nodes, attributes) and
 * onnx_tensor.c (tensors, types, values) share while a model is read. */
#ifndef DMLT_ONNX_MODEL_READ_H
#define DMLT_ONNX_MODEL_READ_H

#include "onnx_model.h"
#include "pb.h"

/* Memory that lives as long as the model: chunks, freed together. */
struct arena_chunk;
struct arena {
    struct arena_chunk *head;
    bool failed;
    size_t bytes; /* what the reader holds: the arena's chunks and its side tables */
    size_t limit; /* the most it may hold (onnx_model_read_capped) */
    bool over;    /* failed because of limit, not of malloc */
};
/* Counts bytes the reader takes; false (and failed, over set) past limit. */
bool onnx__arena_charge(struct arena *a, size_t bytes);
/* n objects of size bytes, zeroed; NULL (and failed set) when memory ran
 * out or n * size overflows. n == 0 gives a valid pointer too. */
void *onnx__arena_alloc(struct arena *a, size_t n, size_t size);
void onnx__arena_free(struct arena *a);

struct reader {
    const uint8_t *base;
    struct arena *arena;
    struct onnx_error *err;
};

/* An out-of-memory error: false. */
bool onnx__reader_oom(struct reader *r);

/* The text of a length-delimited field, copied into the arena: the model
 * keeps no pointer into the file, so that once read, the file's pages
 * are never touched again (a name next to a weight would bring back the
 * weight's pages). An empty text when memory ran out (the arena says so). */
struct onnx_bytes onnx__reader_text(struct reader *r, const struct pb_field *f);

/* The counts the model holds are uint32_t: one more than that is refused. */
bool onnx__count_one(struct reader *r, uint32_t *n, size_t at, const char *what);

/* A repeated int64 field of m (packed or not, in any mix): its values,
 * allocated in the arena. */
bool onnx__read_int64s(struct reader *r, const struct pb_msg *m, unsigned number, const char *what,
                       uint32_t *n, const int64_t **values);
/* The last occurrence of a length-delimited field of m (a string), or
 * none; *given says whether there was one. */
bool onnx__read_last_bytes(struct reader *r, const struct pb_msg *m, unsigned number,
                           const char *what, struct onnx_bytes *b, bool *given);

/* A TensorProto (merged), a SparseTensorProto (its dense dims), a
 * TypeProto (merged, oneof's rule). */
bool onnx__read_tensor(struct reader *r, const struct pb_msg *m, struct onnx_tensor_data *t);
bool onnx__read_sparse(struct reader *r, const struct pb_msg *m, struct onnx_tensor_data *t);
bool onnx__read_type(struct reader *r, const struct pb_msg *m, struct onnx_type *t);
/* A ValueInfoProto (an element of a repeated field). */
bool onnx__read_value_info(struct reader *r, const struct pb_msg *m, struct onnx_value_info *v);

#endif
