/* fuzz_view.c - the core's views (dmlt_view_*) on tensors and operations
 * built from the fuzz input, sizes and strides up to 2^32-1 and start,
 * stop and index values up to +-2^63.
 *
 * The input: a data type, a rank, sizes and strides, then up to 16
 * operations (slice, select, permute, broadcast_to, reshape, split,
 * narrow), each from a few bytes. Invariants, after every operation:
 *  - a refused operation leaves the view exactly as it was; a reshape
 *    refused for a copy names a dim that is not contiguous with the next
 *    dim of size over 1;
 *  - dmlt_slice_resolve follows Python's rules (a reference in 128 bits);
 *  - every coordinate checked (all of them in a view of at most 4096
 *    elements, else element 0, the last and a few from the input) maps back
 *    to a parent coordinate inside the parent, at exactly the element
 *    offset the view's strides give: dot(parent coordinate, parent strides)
 *    = offset + dot(coordinate, strides), in 128 bits; element 0 maps to
 *    `source`;
 *  - a reshape keeps the elements in row-major order (small views);
 *  - dmlt_view_bytes gives offset x bits / 8 and the minimum implied size
 *    of the view, or DMLT_E_RANGE exactly when one passes 2^64 - 1;
 *  - dmlt_view_alignment is the largest power of two dividing the offset,
 *    at most max(16, the parent's alignment).
 */
#include "fuzz.h"

#include "dmltensor.h"

#include <string.h>

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

#define SMALL 4096u

struct reader {
    const uint8_t *p;
    size_t n;
};

static uint8_t rd8(struct reader *r)
{
    if (r->n == 0)
        return 0;
    r->n--;
    return *r->p++;
}

static uint64_t rdn(struct reader *r, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v = v << 8 | rd8(r);
    return v;
}

/* Mostly small sizes; now and then up to 65536 or 2^32-1. */
static uint32_t rd_size(struct reader *r)
{
    uint8_t b = rd8(r);
    if (b < 200)
        return b % 6u + 1;
    if (b < 250)
        return (uint32_t)rdn(r, 2) + 1;
    uint32_t v = (uint32_t)rdn(r, 4);
    return v ? v : 1;
}

static uint32_t rd_stride(struct reader *r)
{
    uint8_t b = rd8(r);
    if (b < 200)
        return b % 16u;
    return (uint32_t)rdn(r, 4);
}

/* A signed value: small mostly, else any 64 bits. */
static int64_t rd_signed(struct reader *r)
{
    uint8_t b = rd8(r);
    if (b < 240)
        return (int64_t)(b % 24) - 12;
    return (int64_t)rdn(r, 8);
}

/* ---- checks ------------------------------------------------------------ */

static u128 dot(const uint32_t c[], const uint32_t s[], unsigned rank)
{
    u128 o = 0;
    for (unsigned d = 0; d < rank; d++)
        o += (u128)c[d] * s[d];
    return o;
}

static u128 count_of(const struct dmlt_tensor *t)
{
    u128 n = 1;
    for (unsigned d = 0; d < t->rank; d++) {
        n *= t->sizes[d];
        if (n > SMALL)
            return SMALL + 1; /* enough to know it is not small */
    }
    return n;
}

static void unravel(uint64_t f, const struct dmlt_tensor *t, uint32_t c[])
{
    for (unsigned d = t->rank; d-- > 0;) {
        c[d] = (uint32_t)(f % t->sizes[d]);
        f /= t->sizes[d];
    }
}

/* The parent offset of view coordinate c, through the view's own map. */
static u128 parent_offset(const struct dmlt_view *v, const struct dmlt_tensor *parent,
                          const uint32_t c[])
{
    uint32_t pc[DMLT_MAX_RANK];
    struct dmlt_error err;
    FUZZ_CHECK(dmlt_view_parent_coord(v, c, pc, &err) == DMLT_OK);
    FUZZ_CHECK(v->parent_rank == parent->rank);
    for (unsigned d = 0; d < parent->rank; d++)
        FUZZ_CHECK(pc[d] < parent->sizes[d]);
    u128 at = dot(pc, parent->strides, parent->rank);
    FUZZ_CHECK(at == (u128)v->offset + dot(c, v->t.strides, v->t.rank));
    return at;
}

static void check_coord(const struct dmlt_view *v, const struct dmlt_tensor *parent,
                        const uint32_t c[])
{
    (void)parent_offset(v, parent, c);
}

static void check_view(const struct dmlt_view *v, const struct dmlt_tensor *parent,
                       struct reader *r)
{
    const struct dmlt_tensor *t = &v->t;
    FUZZ_CHECK(t->rank >= 1 && t->rank <= DMLT_MAX_RANK && t->dtype == parent->dtype);
    for (unsigned d = 0; d < t->rank; d++)
        FUZZ_CHECK(t->sizes[d] >= 1);
    uint32_t c[DMLT_MAX_RANK] = {0}, pc[DMLT_MAX_RANK];
    struct dmlt_error err;
    FUZZ_CHECK(dmlt_view_parent_coord(v, c, pc, &err) == DMLT_OK);
    FUZZ_CHECK(memcmp(pc, v->source, parent->rank * sizeof pc[0]) == 0);
    u128 n = count_of(t);
    if (n <= SMALL) {
        for (uint64_t f = 0; f < (uint64_t)n; f++) {
            unravel(f, t, c);
            check_coord(v, parent, c);
        }
    } else {
        for (unsigned d = 0; d < t->rank; d++)
            c[d] = t->sizes[d] - 1;
        check_coord(v, parent, c);
        for (int k = 0; k < 3; k++) {
            for (unsigned d = 0; d < t->rank; d++)
                c[d] = (uint32_t)(rdn(r, 4) % t->sizes[d]);
            check_coord(v, parent, c);
        }
        /* Outside the view: refused. */
        unsigned d = rd8(r) % t->rank;
        c[d] = t->sizes[d];
        FUZZ_CHECK(dmlt_view_parent_coord(v, c, pc, &err) == DMLT_E_COORD && err.dim == (int)d);
    }

    /* Bytes: exact values, or DMLT_E_RANGE exactly past 2^64 - 1. */
    const unsigned bits = dmlt_dtype_get(t->dtype)->bits;
    u128 byte_offset = (u128)v->offset * bits / 8;
    u128 last = 0;
    for (unsigned i = 0; i < t->rank; i++)
        last += (u128)(t->sizes[i] - 1u) * t->strides[i];
    u128 total_bits = (last + 1) * bits;
    u128 size = (total_bits / 8 + (total_bits % 8 != 0) + 3) / 4 * 4;
    uint64_t b, s;
    bool whole;
    enum dmlt_status st = dmlt_view_bytes(v, &b, &whole, &s);
    if (byte_offset > UINT64_MAX || size > UINT64_MAX) {
        FUZZ_CHECK(st == DMLT_E_RANGE);
    } else {
        FUZZ_CHECK(st == DMLT_OK && b == byte_offset && s == size);
        FUZZ_CHECK(whole == ((u128)v->offset * bits % 8 == 0));
        uint32_t parent_align = (uint32_t)rdn(r, 4);
        uint32_t a = dmlt_view_alignment(b, parent_align);
        uint32_t cap = parent_align > 16 ? parent_align : 16;
        cap &= ~(cap - 1u);
        FUZZ_CHECK(a != 0 && (a & (a - 1)) == 0 && a <= cap);
        FUZZ_CHECK(b % a == 0);
        FUZZ_CHECK(a == cap || b % ((uint64_t)a * 2) != 0);
    }
}

/* Python's slice.indices() for step >= 1, in 128 bits. */
static uint64_t ref_slice(uint32_t size, const int64_t *start, const int64_t *stop, int64_t step,
                          uint64_t *first)
{
    i128 n = size, lo = start ? *start : 0, hi = stop ? *stop : n;
    if (lo < 0)
        lo += n;
    if (hi < 0)
        hi += n;
    lo = lo < 0 ? 0 : lo > n ? n : lo;
    hi = hi < 0 ? 0 : hi > n ? n : hi;
    *first = (uint64_t)lo;
    return hi <= lo ? 0 : (uint64_t)((hi - lo - 1) / step + 1);
}

/* ---- the operations ----------------------------------------------------- */

static enum dmlt_status op_slice(struct dmlt_view *v, struct reader *r)
{
    unsigned dim = rd8(r) % (v->t.rank + 1u); /* sometimes past the rank */
    uint8_t flags = rd8(r);
    int64_t start = rd_signed(r), stop = rd_signed(r);
    int64_t step = (flags & 4) ? rd_signed(r) : 1;
    const int64_t *ps = (flags & 1) ? &start : NULL, *pe = (flags & 2) ? &stop : NULL;
    struct dmlt_error err;
    if (dim < v->t.rank) {
        uint32_t first, count;
        enum dmlt_status st = dmlt_slice_resolve(v->t.sizes[dim], ps, pe, step, &first, &count);
        if (step < 1) {
            FUZZ_CHECK(st == DMLT_E_INVALID);
        } else {
            uint64_t rfirst, rcount = ref_slice(v->t.sizes[dim], ps, pe, step, &rfirst);
            FUZZ_CHECK(rcount == 0 ? st == DMLT_E_ZERO_SIZE
                                   : st == DMLT_OK && first == rfirst && count == rcount);
        }
    }
    enum dmlt_status st = dmlt_view_slice(v, dim, ps, pe, step, &err);
    if (dim >= v->t.rank)
        FUZZ_CHECK(st == DMLT_E_INVALID);
    return st;
}

static enum dmlt_status op_select(struct dmlt_view *v, struct reader *r)
{
    unsigned dim = rd8(r) % v->t.rank;
    int64_t index = rd_signed(r);
    const int64_t n = v->t.sizes[dim];
    const unsigned rank = v->t.rank;
    struct dmlt_error err;
    enum dmlt_status st = dmlt_view_select(v, dim, index, &err);
    if (index < -n || index >= n)
        FUZZ_CHECK(st == DMLT_E_COORD);
    else if (rank == 1)
        FUZZ_CHECK(st == DMLT_E_RANK);
    return st;
}

static enum dmlt_status op_permute(struct dmlt_view *v, struct reader *r)
{
    unsigned order[DMLT_MAX_RANK], rank = v->t.rank;
    for (unsigned i = 0; i < rank; i++)
        order[i] = i;
    for (unsigned i = rank; i-- > 1;) {
        unsigned j = rd8(r) % (i + 1), x = order[i];
        order[i] = order[j];
        order[j] = x;
    }
    bool bad = rd8(r) < 16;
    if (bad)
        order[rd8(r) % rank] = rd8(r) % (rank + 1);
    bool seen[DMLT_MAX_RANK + 1] = {false}, perm = true;
    for (unsigned i = 0; i < rank; i++) {
        perm = perm && order[i] < rank && !seen[order[i]];
        seen[order[i]] = true;
    }
    struct dmlt_view before = *v;
    struct dmlt_error err;
    enum dmlt_status st = dmlt_view_permute(v, order, &err);
    if (!perm)
        FUZZ_CHECK(st == DMLT_E_LAYOUT);
    if (st == DMLT_OK)
        for (unsigned i = 0; i < rank; i++)
            FUZZ_CHECK(v->t.sizes[i] == before.t.sizes[order[i]] &&
                       v->t.strides[i] == before.t.strides[order[i]]);
    return st;
}

static enum dmlt_status op_broadcast(struct dmlt_view *v, struct reader *r)
{
    unsigned rank = v->t.rank + rd8(r) % 3u;
    if (rank > DMLT_MAX_RANK)
        rank = v->t.rank;
    unsigned lead = rank - v->t.rank;
    uint32_t sizes[DMLT_MAX_RANK];
    for (unsigned i = 0; i < rank; i++) {
        uint32_t was = i < lead ? 1 : v->t.sizes[i - lead];
        uint8_t b = rd8(r);
        sizes[i] = b < 200 ? (was == 1 ? b % 4u + 1 : was) : rd_size(r);
    }
    if (rd8(r) < 8)
        rank = rd8(r) % (DMLT_MAX_RANK + 2); /* any rank, too small or too big */
    struct dmlt_error err;
    return dmlt_view_broadcast_to(v, rank, sizes, &err);
}

static enum dmlt_status op_reshape(struct dmlt_view *v, struct reader *r)
{
    const struct dmlt_view before = *v;
    int64_t sizes[DMLT_MAX_RANK + 1];
    unsigned rank;
    u128 n = count_of(&v->t);
    if (n <= SMALL && rd8(r) < 200) {
        /* A factorization of the count, size-1 dims and a -1 now and then. */
        uint64_t left = (uint64_t)n;
        rank = 0;
        while (rank < DMLT_MAX_RANK - 1 && left > 1) {
            uint64_t f = rd8(r) % 5u + 2;
            if (left % f == 0) {
                sizes[rank++] = (int64_t)f;
                left /= f;
            } else if (rd8(r) < 64) {
                sizes[rank++] = (int64_t)left;
                left = 1;
            } else if (r->n == 0) {
                break;
            }
        }
        if (left > 1 || rank == 0)
            sizes[rank++] = (int64_t)left;
        if (rank < DMLT_MAX_RANK && rd8(r) < 64)
            sizes[rank++] = 1;
        uint8_t b = rd8(r);
        if (b < 64)
            sizes[b % rank] = -1;
        else if (b < 72)
            sizes[b % rank] += 1;
    } else {
        rank = rd8(r) % (DMLT_MAX_RANK + 1) + 1;
        for (unsigned i = 0; i < rank; i++) {
            uint8_t b = rd8(r);
            sizes[i] = b < 32 ? -1 : b < 200 ? (int64_t)(b % 6) + 1 : rd_signed(r);
        }
    }
    struct dmlt_error err;
    enum dmlt_status st = dmlt_view_reshape(v, rank, sizes, &err);
    if (st == DMLT_E_LAYOUT) {
        /* A copy is needed: the dim named and the next of size > 1 are not
         * contiguous. */
        FUZZ_CHECK(err.dim >= 0 && (unsigned)err.dim < before.t.rank);
        unsigned i = (unsigned)err.dim, j = i + 1;
        FUZZ_CHECK(before.t.sizes[i] != 1);
        while (j < before.t.rank && before.t.sizes[j] == 1)
            j++;
        FUZZ_CHECK(j < before.t.rank);
        FUZZ_CHECK((u128)before.t.strides[i] != (u128)before.t.sizes[j] * before.t.strides[j]);
    }
    if (st == DMLT_OK && n <= SMALL) {
        /* The same elements, in the same row-major order. */
        FUZZ_CHECK(count_of(&v->t) == n);
        uint32_t a[DMLT_MAX_RANK], b[DMLT_MAX_RANK];
        for (uint64_t f = 0; f < (uint64_t)n; f++) {
            unravel(f, &before.t, a);
            unravel(f, &v->t, b);
            FUZZ_CHECK((u128)before.offset + dot(a, before.t.strides, before.t.rank) ==
                       (u128)v->offset + dot(b, v->t.strides, v->t.rank));
        }
    }
    return st;
}

/* A part of a split: equal parts, or part sizes that may not add up. */
static enum dmlt_status op_split(struct dmlt_view *v, struct reader *r)
{
    unsigned dim = rd8(r) % v->t.rank;
    uint32_t size = v->t.sizes[dim];
    unsigned n = rd8(r) % 8u + 1, part = rd8(r) % (n + 1);
    uint32_t sizes[8];
    uint64_t sum = 0;
    bool equal = rd8(r) < 128, zero = false;
    for (unsigned i = 0; i < n; i++) {
        uint8_t b = rd8(r);
        sizes[i] = b < 224 ? size / n + (i < size % n) : b % 4u;
        zero = zero || sizes[i] == 0;
        sum += sizes[i];
    }
    const struct dmlt_view before = *v;
    struct dmlt_error err;
    enum dmlt_status st = dmlt_view_split(v, dim, n, equal ? NULL : sizes, part, &err);
    if (part >= n || (equal && size % n != 0) || (!equal && !zero && sum != size))
        FUZZ_CHECK(st == DMLT_E_INVALID);
    else if (!equal && zero)
        FUZZ_CHECK(st == DMLT_E_ZERO_SIZE || st == DMLT_E_INVALID);
    else if (st == DMLT_OK) {
        uint64_t first = 0;
        for (unsigned i = 0; i < part; i++)
            first += equal ? size / n : sizes[i];
        FUZZ_CHECK(v->t.sizes[dim] == (equal ? size / n : sizes[part]));
        FUZZ_CHECK((u128)v->offset == (u128)before.offset + (u128)first * before.t.strides[dim]);
    }
    return st;
}

static enum dmlt_status op_narrow(struct dmlt_view *v, struct reader *r)
{
    unsigned dim = rd8(r) % v->t.rank;
    uint32_t size = v->t.sizes[dim];
    uint8_t b = rd8(r);
    uint32_t first = b < 200 ? b % size : (uint32_t)rdn(r, 4);
    uint32_t count = rd8(r) % 4u + (b & 1);
    uint32_t step = rd8(r) % 3u + 1;
    if (rd8(r) > 240)
        step = (uint32_t)rdn(r, 4);
    struct dmlt_error err;
    enum dmlt_status st = dmlt_view_narrow(v, dim, first, count, step, &err);
    if (count == 0)
        FUZZ_CHECK(st == DMLT_E_ZERO_SIZE || st == DMLT_E_INVALID);
    else if (step && first + (uint64_t)step * (count - 1) >= size)
        FUZZ_CHECK(st == DMLT_E_COORD);
    return st;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
    struct reader r = {data, n};
    struct dmlt_tensor parent;
    memset(&parent, 0, sizeof parent);
    parent.dtype = (enum dmlt_dtype)(rd8(&r) % DMLT_DTYPE_COUNT + 1);
    parent.rank = rd8(&r) % DMLT_MAX_RANK + 1;
    for (unsigned d = 0; d < parent.rank; d++)
        parent.sizes[d] = rd_size(&r);
    for (unsigned d = 0; d < parent.rank; d++)
        parent.strides[d] = rd_stride(&r);
    struct dmlt_view v = DMLT_VIEW_INIT;
    struct dmlt_error err;
    FUZZ_CHECK(dmlt_view_init(&v, &parent, &err) == DMLT_OK);
    check_view(&v, &parent, &r);
    for (unsigned k = 0; k < DMLT_VIEW_MAX_STEPS + 2 && r.n > 0; k++) {
        struct dmlt_view before = v;
        enum dmlt_status st = DMLT_OK;
        switch (rd8(&r) % 7) {
        case 0:
            st = op_slice(&v, &r);
            break;
        case 1:
            st = op_select(&v, &r);
            break;
        case 2:
            st = op_permute(&v, &r);
            break;
        case 3:
            st = op_broadcast(&v, &r);
            break;
        case 4:
            st = op_reshape(&v, &r);
            break;
        case 5:
            st = op_split(&v, &r);
            break;
        default:
            st = op_narrow(&v, &r);
            break;
        }
        if (st != DMLT_OK) {
            FUZZ_CHECK(memcmp(&v, &before, sizeof v) == 0); /* nothing changed */
            continue;
        }
        check_view(&v, &parent, &r);
    }
    return 0;
}
