/* onnx_sniff.c - see onnx_sniff.h. */
#include "onnx_sniff.h"

#include "pb.h"

/* ModelProto's fields (onnx.proto, ONNX 1.18): their numbers and wire
 * types; a model's first field is one of them. */
static bool model_field(uint64_t number, unsigned wt)
{
    switch (number) {
    case 1: /* ir_version */
    case 5: /* model_version */
        return wt == PB_VARINT;
    case 2:  /* producer_name */
    case 3:  /* producer_version */
    case 4:  /* domain */
    case 6:  /* doc_string */
    case 7:  /* graph */
    case 8:  /* opset_import */
    case 14: /* metadata_props */
    case 20: /* training_info */
    case 25: /* functions */
    case 26: /* configuration */
        return wt == PB_LEN;
    default:
        return false;
    }
}

/* A varint at p[*at..n): 1 read, 0 cut short by n, -1 over 10 bytes. */
static int varint(const uint8_t *p, size_t n, size_t *at, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (*at + i >= n)
            return 0;
        const uint8_t b = p[*at + i];
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if ((b & 0x80) == 0) {
            *at += i + 1;
            *v = x;
            return 1;
        }
    }
    return -1;
}

bool onnx_model_prefix(const uint8_t *p, size_t n, size_t *pos, uint64_t max,
                       struct onnx_error *err)
{
    while (*pos < n) {
        const size_t field = *pos;
        size_t at = field;
        uint64_t tag = 0, len = 0;
        int r = varint(p, n, &at, &tag);
        if (r < 0)
            return onnx__pb_fail(err, field, "a field's tag longer than 10 bytes");
        if (r == 0)
            return true; /* more bytes decide */
        const uint64_t number = tag >> 3;
        const unsigned wt = (unsigned)(tag & 7);
        if (number == 0 || number > PB_MAX_FIELD)
            return onnx__pb_fail(err, field, "field number %llu (protobuf's are 1..%u)",
                                 (unsigned long long)number, PB_MAX_FIELD);
        if (field == 0 && !model_field(number, wt))
            return onnx__pb_fail(err, field,
                                 "field %llu of wire type %u cannot start a ModelProto (a model "
                                 "starts with one of its fields, ir_version first)",
                                 (unsigned long long)number, wt);
        switch (wt) {
        case PB_VARINT:
            r = varint(p, n, &at, &len);
            if (r < 0)
                return onnx__pb_fail(err, field, "field %llu: a varint longer than 10 bytes",
                                     (unsigned long long)number);
            if (r == 0)
                return true;
            len = 0;
            break;
        case PB_FIXED64:
            len = 8;
            break;
        case PB_FIXED32:
            len = 4;
            break;
        case PB_LEN:
            r = varint(p, n, &at, &len);
            if (r < 0)
                return onnx__pb_fail(err, field, "field %llu: a length longer than 10 bytes",
                                     (unsigned long long)number);
            if (r == 0)
                return true;
            break;
        default:
            return onnx__pb_fail(err, field,
                                 "field %llu: wire type %u (a model has 0, 1, 2 and 5 only)",
                                 (unsigned long long)number, wt);
        }
        if (len > max || at > max - len)
            return onnx__pb_fail(
                err, field,
                "field %llu of %llu bytes ends past %llu bytes, the most a model is read",
                (unsigned long long)number, (unsigned long long)len, (unsigned long long)max);
        *pos = at + (size_t)len;
    }
    return true;
}
