/* pb.c - the protobuf wire format, read in place (see pb.h). */
#include "pb.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool onnx__pb_fail(struct onnx_error *err, size_t at, const char *fmt, ...)
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

static unsigned long passes[ONNX_READERS];

void onnx__pb_count_pass(enum onnx_reader reader)
{
    passes[reader]++;
}

unsigned long onnx_parse_passes(enum onnx_reader reader)
{
    return passes[reader];
}

bool onnx__pb_varint(struct pb *r, uint64_t *v, struct onnx_error *err)
{
    const size_t at = r->pos;
    uint64_t x = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (r->pos >= r->end)
            return onnx__pb_fail(err, at, "a varint runs past the end of its message (at byte %zu)",
                                 r->end);
        const uint8_t b = r->base[r->pos++];
        x |= (uint64_t)(b & 0x7f) << (7 * i); /* bits past 64 are dropped, as protobuf does */
        if ((b & 0x80) == 0) {
            *v = x;
            return true;
        }
    }
    return onnx__pb_fail(err, at, "a varint longer than 10 bytes");
}

static uint64_t le_bits(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

bool onnx__pb_next(struct pb *r, struct pb_field *f, struct onnx_error *err)
{
    /* every member set on every path (clang-analyzer does not know that
     * pb_fail returns false) */
    *f = (struct pb_field){.at = r->pos};
    uint64_t tag = 0;
    if (!onnx__pb_varint(r, &tag, err))
        return false;
    const uint64_t number = tag >> 3;
    f->wt = (unsigned)(tag & 7);
    if (number == 0 || number > PB_MAX_FIELD)
        return onnx__pb_fail(err, f->at, "field number %llu (protobuf's are 1..%u)",
                             (unsigned long long)number, PB_MAX_FIELD);
    f->number = (unsigned)number;
    f->v = 0;
    f->start = f->end = r->pos;
    switch (f->wt) {
    case PB_VARINT:
        return onnx__pb_varint(r, &f->v, err);
    case PB_FIXED64:
    case PB_FIXED32: {
        const size_t n = f->wt == PB_FIXED64 ? 8 : 4;
        if (r->end - r->pos < n)
            return onnx__pb_fail(err, f->at,
                                 "field %u: a %zu-byte value runs past the end of its message",
                                 f->number, n);
        f->v = le_bits(r->base + r->pos, n);
        r->pos += n;
        f->end = r->pos;
        return true;
    }
    case PB_LEN: {
        const size_t len_at = r->pos;
        uint64_t len = 0;
        if (!onnx__pb_varint(r, &len, err))
            return false;
        if (len > r->end - r->pos)
            return onnx__pb_fail(
                err, len_at,
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
        return onnx__pb_fail(err, f->at, "field %u: wire type %u (a group) is not used by ONNX",
                             f->number, f->wt);
    default:
        return onnx__pb_fail(err, f->at, "field %u: wire type %u is not a protobuf wire type",
                             f->number, f->wt);
    }
}

bool onnx__pb_want(const struct pb_field *f, unsigned wt, const char *what, struct onnx_error *err)
{
    if (f->wt == wt)
        return true;
    return onnx__pb_fail(err, f->at, "%s (field %u) has wire type %u, not %u", what, f->number,
                         f->wt, wt);
}

struct onnx_bytes onnx__pb_bytes(const uint8_t *base, const struct pb_field *f)
{
    struct onnx_bytes b = {base + f->start, f->end - f->start};
    return b;
}

bool onnx__pb_bytes_are(const uint8_t *base, const struct pb_field *f, const char *s)
{
    const size_t n = strlen(s);
    return f->end - f->start == n && memcmp(base + f->start, s, n) == 0;
}

/* ---- a message given more than once ---------------------------------------- */

bool onnx__pb_too_deep(struct onnx_error *err, size_t at)
{
    if (err != NULL)
        err->limit = true;
    return onnx__pb_fail(
        err, at,
        "messages nested more than %d levels deep: this reader's limit (protobuf's, "
        "against stack exhaustion), not damage",
        PB_MAX_DEPTH);
}

struct pb_msg onnx__pb_root(const uint8_t *base, size_t start, size_t end, unsigned depth)
{
    struct pb_msg m;
    memset(&m, 0, sizeof m);
    m.base = base;
    m.start = m.from = start;
    m.end = m.to = end;
    m.depth = depth;
    return m;
}

unsigned onnx__pb_depth(const struct pb_msg *m)
{
    return m->depth + m->n_path;
}

bool onnx__pb_sub(const struct pb_msg *m, unsigned number, struct pb_msg *sub,
                  struct onnx_error *err)
{
    *sub = *m; /* from and to too: a oneof's earlier case stays cleared */
    if (onnx__pb_depth(m) + 1 > PB_MAX_DEPTH)
        return onnx__pb_too_deep(err, m->start);
    if (m->n_path == PB_MAX_PATH) { /* never: the readers' paths are shorter */
        return onnx__pb_fail(err, m->start, "field %u: a message path longer than %d", number,
                             PB_MAX_PATH);
    }
    sub->path[sub->n_path++] = number;
    return true;
}

void onnx__pb_iter_begin(struct pb_iter *it, const struct pb_msg *m)
{
    it->m = m;
    it->open = 0;
    it->failed = false;
    it->level[0].base = m->base;
    it->level[0].pos = m->start;
    it->level[0].end = m->end;
    if (m->n_path == 0 && m->from > m->start && m->from < m->end)
        it->level[0].pos = m->from;
}

bool onnx__pb_iter_next(struct pb_iter *it, struct pb_field *f, struct onnx_error *err)
{
    const struct pb_msg *m = it->m;
    for (;;) {
        struct pb *r = &it->level[it->open];
        if (r->pos >= r->end) {
            if (it->open == 0)
                return false;
            it->open--;
            continue;
        }
        if (!onnx__pb_next(r, f, err)) {
            it->failed = true;
            return false;
        }
        if (it->open == m->n_path) {
            if (f->at >= m->to)
                return false;
            return true;
        }
        if (f->number != m->path[it->open] || f->wt != PB_LEN || f->end <= m->from)
            continue;
        struct pb *next = &it->level[++it->open];
        next->base = m->base;
        next->pos = f->start;
        next->end = f->end;
        if (it->open == m->n_path && m->from > f->start)
            next->pos = m->from; /* a field of this level: see pb_msg */
    }
}

bool onnx__pb_each_varint(const struct pb_msg *m, unsigned number, const char *what,
                          bool (*each)(void *ctx, uint64_t v, size_t at), void *ctx, uint64_t *n,
                          struct onnx_error *err)
{
    struct pb_iter it;
    struct pb_field f;
    onnx__pb_iter_begin(&it, m);
    while (onnx__pb_iter_next(&it, &f, err)) {
        if (f.number != number)
            continue;
        if (f.wt == PB_VARINT) {
            if (n != NULL)
                (*n)++;
            if (each != NULL && !each(ctx, f.v, f.at))
                return false;
            continue;
        }
        if (!onnx__pb_want(&f, PB_LEN, what, err))
            return false;
        struct pb r = {m->base, f.start, f.end};
        while (r.pos < r.end) {
            const size_t at = r.pos;
            uint64_t v = 0;
            if (!onnx__pb_varint(&r, &v, err))
                return false;
            if (n != NULL)
                (*n)++;
            if (each != NULL && !each(ctx, v, at))
                return false;
        }
    }
    return !it.failed;
}
