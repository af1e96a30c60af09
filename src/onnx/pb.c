/* pb.c - the protobuf wire format, read in place (see pb.h). */
#include "pb.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool pb_fail(struct onnx_error *err, size_t at, const char *fmt, ...)
{
    if (err == NULL)
        return false;
    err->offset = at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return false;
}

bool pb_varint(struct pb *r, uint64_t *v, struct onnx_error *err)
{
    const size_t at = r->pos;
    uint64_t x = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (r->pos >= r->end)
            return pb_fail(err, at, "a varint runs past the end of its message (at byte %zu)",
                           r->end);
        const uint8_t b = r->base[r->pos++];
        x |= (uint64_t)(b & 0x7f) << (7 * i); /* bits past 64 are dropped, as protobuf does */
        if ((b & 0x80) == 0) {
            *v = x;
            return true;
        }
    }
    return pb_fail(err, at, "a varint longer than 10 bytes");
}

static uint64_t le_bits(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

bool pb_next(struct pb *r, struct pb_field *f, struct onnx_error *err)
{
    f->at = r->pos;
    uint64_t tag = 0;
    if (!pb_varint(r, &tag, err))
        return false;
    const uint64_t number = tag >> 3;
    f->wt = (unsigned)(tag & 7);
    if (number == 0 || number > PB_MAX_FIELD)
        return pb_fail(err, f->at, "field number %llu (protobuf's are 1..%u)",
                       (unsigned long long)number, PB_MAX_FIELD);
    f->number = (unsigned)number;
    f->v = 0;
    f->start = f->end = r->pos;
    switch (f->wt) {
    case PB_VARINT:
        return pb_varint(r, &f->v, err);
    case PB_FIXED64:
    case PB_FIXED32: {
        const size_t n = f->wt == PB_FIXED64 ? 8 : 4;
        if (r->end - r->pos < n)
            return pb_fail(err, f->at,
                           "field %u: a %zu-byte value runs past the end of its message", f->number,
                           n);
        f->v = le_bits(r->base + r->pos, n);
        r->pos += n;
        f->end = r->pos;
        return true;
    }
    case PB_LEN: {
        const size_t len_at = r->pos;
        uint64_t len = 0;
        if (!pb_varint(r, &len, err))
            return false;
        if (len > r->end - r->pos)
            return pb_fail(err, len_at,
                           "field %u: a length of %llu bytes runs past the end of its message "
                           "(%zu bytes left)",
                           f->number, (unsigned long long)len, r->end - r->pos);
        f->start = r->pos;
        f->end = r->pos + (size_t)len;
        r->pos = f->end;
        return true;
    }
    case 3:
    case 4:
        return pb_fail(err, f->at, "field %u: wire type %u (a group) is not used by ONNX",
                       f->number, f->wt);
    default:
        return pb_fail(err, f->at, "field %u: wire type %u is not a protobuf wire type", f->number,
                       f->wt);
    }
}

bool pb_want(const struct pb_field *f, unsigned wt, const char *what, struct onnx_error *err)
{
    if (f->wt == wt)
        return true;
    return pb_fail(err, f->at, "%s (field %u) has wire type %u, not %u", what, f->number, f->wt,
                   wt);
}

struct onnx_bytes pb_bytes(const uint8_t *base, const struct pb_field *f)
{
    struct onnx_bytes b = {base + f->start, f->end - f->start};
    return b;
}

bool pb_bytes_are(const uint8_t *base, const struct pb_field *f, const char *s)
{
    const size_t n = strlen(s);
    return f->end - f->start == n && memcmp(base + f->start, s, n) == 0;
}
