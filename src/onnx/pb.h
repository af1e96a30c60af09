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
bool pb_fail(struct onnx_error *err, size_t at, const char *fmt, ...) ONNX_PRINTF(3, 4);

bool pb_varint(struct pb *r, uint64_t *v, struct onnx_error *err);
/* The next field of r: damage (a length past the end, a varint over 10
 * bytes, a group or an unknown wire type, field number 0) is an error. */
bool pb_next(struct pb *r, struct pb_field *f, struct onnx_error *err);
/* f has wire type wt, or an error naming what. */
bool pb_want(const struct pb_field *f, unsigned wt, const char *what, struct onnx_error *err);

/* The contents of a length-delimited field as bytes. */
struct onnx_bytes pb_bytes(const uint8_t *base, const struct pb_field *f);
bool pb_bytes_are(const uint8_t *base, const struct pb_field *f, const char *s);

#endif
