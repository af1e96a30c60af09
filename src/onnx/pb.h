/* pb.h - the protobuf wire format, read in place (pb.c): what the ONNX
 * layer's readers share. Every read is bounded by the end of the message
 * that holds it; damage fills a struct onnx_error with the byte offset. */
#ifndef DMLT_ONNX_PB_H
#define DMLT_ONNX_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_common.h"

#define PB_MAX_FIELD 536870911u /* 2^29 - 1 */

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2, PB_FIXED32 = 5 };

/* A message being read: bytes [pos, end) of base. */
struct pb {
    const uint8_t *base;
    size_t pos, end;
};

/* One field: its number, wire type, where its tag is, and its value (a
 * varint, or the bits of a fixed32/fixed64) or its contents [start, end)
 * (length-delimited). */
struct pb_field {
    unsigned number, wt;
    size_t at;
    uint64_t v;
    size_t start, end;
};

/* Fills err (if not NULL) and returns false. */
bool onnx__pb_fail(struct onnx_error *err, size_t at, const char *fmt, ...) ONNX_PRINTF(3, 4);

bool onnx__pb_varint(struct pb *r, uint64_t *v, struct onnx_error *err);
/* The next field of r: damage (a length past the end, a varint over 10
 * bytes, a group or an unknown wire type, field number 0) is an error. */
bool onnx__pb_next(struct pb *r, struct pb_field *f, struct onnx_error *err);
/* f has wire type wt, or an error naming what. */
bool onnx__pb_want(const struct pb_field *f, unsigned wt, const char *what, struct onnx_error *err);

/* The float whose IEEE 754 bits are the little-endian fixed32 at p
 * (protobuf's float, packed or not). */
static inline float onnx__pb_float_le(const uint8_t *p)
{
    const uint32_t bits =
        (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* The contents of a length-delimited field as bytes. */
struct onnx_bytes onnx__pb_bytes(const uint8_t *base, const struct pb_field *f);
bool onnx__pb_bytes_are(const uint8_t *base, const struct pb_field *f, const char *s);

/* The parse-count hook (onnx_common.h's onnx_parse_passes): each reader
 * of a whole model counts its passes over the model's bytes. */
void onnx__pb_count_pass(enum onnx_reader reader);

/* Messages nested in messages, below the ModelProto: protobuf's own limit
 * (python3-onnx's reader refuses a model nested deeper), so that every
 * model python3-onnx reads is read; the limit keeps the readers' recursion
 * from exhausting the stack. */
#define PB_MAX_DEPTH 100

/* A message that may be given more than once, as protobuf reads it: the
 * concatenation of every occurrence. It is one message in file order,
 * root (a message given once: the file, or an element of a repeated field)
 * and a path of field numbers under it: the fields of every occurrence of
 * path[0] in root, of every occurrence of path[1] in those... Reading them
 * in order is reading the merge (a scalar given again wins, a repeated
 * field appends, a message field given twice is this again, one level
 * deeper).
 *
 * from: occurrences that end at or before it are left out, and a field of
 * the last level before it is skipped: a oneof's case given later clears
 * an earlier one (from is the tag of the last case that differs), and a
 * pass over a graph starts at its first field of one kind (from is that
 * field's tag). to: fields whose tag lies at or after it end the reading. */
#define PB_MAX_PATH 6
struct pb_msg {
    const uint8_t *base;
    size_t start, end; /* root */
    unsigned n_path;
    unsigned path[PB_MAX_PATH];
    size_t from, to;
    unsigned depth; /* of root, below the ModelProto (the ModelProto: 0) */
};

struct pb_iter {
    const struct pb_msg *m;
    struct pb level[PB_MAX_PATH + 1];
    unsigned open; /* levels open: level[0..open] */
    bool failed;   /* damage: err says where */
};

/* The root itself as a message. */
struct pb_msg onnx__pb_root(const uint8_t *base, size_t start, size_t end, unsigned depth);
/* The message field number of m, merged: one level deeper. False (and an
 * error naming the limit) when the path or PB_MAX_DEPTH would be passed. */
bool onnx__pb_sub(const struct pb_msg *m, unsigned number, struct pb_msg *sub,
                  struct onnx_error *err);
/* The depth of m's fields' message below the ModelProto. */
unsigned onnx__pb_depth(const struct pb_msg *m);

void onnx__pb_iter_begin(struct pb_iter *it, const struct pb_msg *m);
/* The next field of the merged message: false at its end, or on damage
 * (it->failed set, err filled). An occurrence of the path given with
 * another wire type than length-delimited is skipped here: the readers
 * check each field they read. */
bool onnx__pb_iter_next(struct pb_iter *it, struct pb_field *f, struct onnx_error *err);
/* The limit's message. */
bool onnx__pb_too_deep(struct onnx_error *err, size_t at);

/* Every value of the repeated varint field number of m, packed or not, in
 * order: each (when not NULL) is called with it and its offset, and false
 * from each stops the reading (false); *n (when not NULL) counts them.
 * Damage (a wire type other than varint or length-delimited: "what has
 * wire type...", a packed varint past its run) is an error. */
bool onnx__pb_each_varint(const struct pb_msg *m, unsigned number, const char *what,
                          bool (*each)(void *ctx, uint64_t v, size_t at), void *ctx, uint64_t *n,
                          struct onnx_error *err);

#endif
