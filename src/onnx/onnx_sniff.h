/* onnx_sniff.h - whether bytes can be the start of an ONNX model (a
 * protobuf ModelProto), judged from its first bytes as they arrive
 * (onnx_sniff.c): what lets a reader refuse bytes that are no model
 * (random data, a PNG, zeros) within its first few KiB instead of reading
 * up to a model's limit first. Bytes in, no I/O. */
#ifndef DMLT_ONNX_SNIFF_H
#define DMLT_ONNX_SNIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx_common.h"

/* The top-level fields of p[0..n) from *pos (0 at the start) are checked
 * while each one's tag and length lie within n: the first field a
 * ModelProto field with its wire type (protobuf writes fields in number
 * order, and every writer of ONNX starts with a field of ModelProto:
 * ir_version first), every field well-formed (field number 1..2^29-1,
 * wire type varint, fixed32, fixed64 or length-delimited), and every field
 * ending within max bytes (the most the reader takes). *pos moves past
 * the fields checked: call again with more bytes. False with err filled
 * (its offset the field's) when the bytes cannot start a model. */
bool onnx_model_prefix(const uint8_t *p, size_t n, size_t *pos, uint64_t max,
                       struct onnx_error *err);

#endif
