/* fuzz_core.c - the core library's answers checked against each other and
 * against brute force, on tensors built from the fuzz input.
 *
 * The input builds a tensor (data type, rank 1..8, sizes mostly small but
 * sometimes up to 2^32-1) with strides that are explicit, packed for a
 * random memory order, or from a layout with broadcast, padding and row
 * pitch; then a buffer description and a few coordinates, offsets and
 * bytes to ask about. Invariants, among others:
 *  - the report's counts and sizes follow their definitions (docs/concepts.md),
 *    and fail with DMLT_E_RANGE exactly when a value passes 128 bits;
 *  - packed implies index_of_last_element + 1 == element count; not
 *    overlapping implies minimum implied size >= packed size; broadcast
 *    implies overlapping; a detected layout packs to the same strides;
 *  - the offset of the last coordinate is index_of_last_element;
 *  - dmlt_locate of a coordinate's offset lists that coordinate, lists only
 *    coordinates at that offset, in row-major order, and counts them;
 *  - on tensors of at most 4096 elements, brute force over every coordinate
 *    (with dmlt_walk, checked against an odometer) agrees with the overlap
 *    answer and with dmlt_locate at each offset;
 *  - a layout's strides nest (so it never overlaps unless broadcast), and
 *    packed ones are detected; byte offsets and dmlt_elements_at_byte are
 *    inverse; every validate rule matches its definition.
 */
#include "fuzz.h"

#include "dmltensor.h"

#include <string.h>

/* The reference arithmetic is the compiler's unsigned __int128 (clang and
 * GCC have it): independent of the library's dmlt_u128 code, which on the
 * portable build (DMLT_PORTABLE_U128) uses no __int128 at all. R() reads a
 * library value, P() makes one. */
__extension__ typedef unsigned __int128 ref_u128;

static ref_u128 R(dmlt_u128 v)
{
    return (ref_u128)v.hi << 64 | v.lo;
}

static dmlt_u128 P(ref_u128 v)
{
    dmlt_u128 r = {(uint64_t)v, (uint64_t)(v >> 64)};
    return r;
}

#define U128_MAX (~(ref_u128)0)

/* The library's offset functions, on reference values. */
static enum dmlt_status offset_ref(const struct dmlt_tensor *t, const uint32_t c[], ref_u128 *off,
                                   struct dmlt_error *err)
{
    dmlt_u128 v = {0, 0};
    enum dmlt_status st = dmlt_offset(t, c, &v, err);
    if (st == DMLT_OK)
        *off = R(v);
    return st;
}

static enum dmlt_status byte_offset_ref(enum dmlt_dtype dtype, ref_u128 k, uint64_t base,
                                        ref_u128 *byte, unsigned *nibble)
{
    dmlt_u128 v = {0, 0};
    enum dmlt_status st = dmlt_byte_offset(dtype, P(k), base, &v, nibble);
    if (st == DMLT_OK)
        *byte = R(v);
    return st;
}

static enum dmlt_status elements_at_byte_ref(enum dmlt_dtype dtype, ref_u128 b, ref_u128 *first,
                                             unsigned *count, unsigned *in_elem)
{
    dmlt_u128 v = {0, 0};
    enum dmlt_status st = dmlt_elements_at_byte(dtype, P(b), &v, count, in_elem);
    if (st == DMLT_OK)
        *first = R(v);
    return st;
}
#define BRUTE_MAX 4096u
/* Work cap of the locate searches on big tensors: enough for most, small
 * enough to keep each input fast (a capped search is checked too). */
#define LOCATE_CAP 100000ul

/* ---- reading the input ---------------------------------------------------- */

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

static uint32_t rd32(struct reader *r, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v = v << 8 | rd8(r);
    return v;
}

static uint64_t rd64(struct reader *r)
{
    return (uint64_t)rd32(r, 4) << 32 | rd32(r, 4);
}

/* ---- references ------------------------------------------------------------ */

static bool mul_ok(ref_u128 a, ref_u128 b, ref_u128 *out)
{
    if (a != 0 && b > U128_MAX / a)
        return false;
    *out = a * b;
    return true;
}

/* ceil(elements x bits / 8) rounded up to a multiple of 4; false past 2^128. */
static bool ref_bytes(ref_u128 elements, unsigned bits, ref_u128 *out)
{
    ref_u128 b;
    if (!mul_ok(elements, bits, &b))
        return false;
    b = b / 8 + (b % 8 != 0);
    if (b > U128_MAX - 3)
        return false;
    *out = (b + 3) / 4 * 4;
    return true;
}

static ref_u128 ref_dot(const struct dmlt_tensor *t, const uint32_t c[])
{
    ref_u128 s = 0;
    for (unsigned d = 0; d < t->rank; d++)
        s += (ref_u128)c[d] * t->strides[d];
    return s;
}

/* -1, 0, 1 as a is before, equal to, after b in row-major order. */
static int cmp_coord(const uint32_t a[], const uint32_t b[], unsigned rank)
{
    for (unsigned d = 0; d < rank; d++)
        if (a[d] != b[d])
            return a[d] < b[d] ? -1 : 1;
    return 0;
}

static bool has_diag(const struct dmlt_report *r, enum dmlt_diag_id id)
{
    for (unsigned i = 0; i < r->diag_count; i++)
        if (r->diags[i].id == id)
            return true;
    return false;
}

/* ---- locate: collect and check what it reports ------------------------------ */

struct collect {
    const struct dmlt_tensor *t;
    ref_u128 offset;
    uint32_t prev[DMLT_MAX_RANK];
    uint64_t calls, stop_after;
    const uint32_t *want; /* a coordinate that must be listed, or NULL */
    bool saw_want;
    uint32_t *list; /* all coordinates listed, when not NULL (up to BRUTE_MAX) */
};

static bool on_coord(void *ctx, const uint32_t coord[], unsigned rank)
{
    struct collect *c = ctx;
    FUZZ_CHECK(rank == c->t->rank);
    for (unsigned d = 0; d < rank; d++)
        FUZZ_CHECK(coord[d] < c->t->sizes[d]);
    FUZZ_CHECK(ref_dot(c->t, coord) == c->offset);
    if (c->calls)
        FUZZ_CHECK(cmp_coord(c->prev, coord, rank) < 0); /* row-major, no repeats */
    memcpy(c->prev, coord, rank * sizeof coord[0]);
    if (c->want && cmp_coord(c->want, coord, rank) == 0)
        c->saw_want = true;
    if (c->list && c->calls < BRUTE_MAX)
        memcpy(c->list + c->calls * rank, coord, rank * sizeof coord[0]);
    c->calls++;
    return c->calls < c->stop_after;
}

static enum dmlt_status locate(const struct dmlt_tensor *t, ref_u128 offset, unsigned long cap,
                               struct collect *c)
{
    uint64_t found = 12345;
    c->t = t;
    c->offset = offset;
    c->calls = 0;
    c->saw_want = false;
    enum dmlt_status st = dmlt_locate(t, P(offset), cap, on_coord, c, &found);
    FUZZ_CHECK(st == DMLT_OK || st == DMLT_E_WORK_CAP);
    FUZZ_CHECK(found == c->calls);
    return st;
}

/* ---- building the tensor ------------------------------------------------------ */

enum stride_mode { STRIDES_EXPLICIT, STRIDES_PACKED, STRIDES_LAYOUT };

struct built {
    struct dmlt_tensor t;
    enum stride_mode mode;
    struct dmlt_layout_spec spec;
    bool valid_input; /* rank, dtype and sizes are valid */
};

static uint32_t read_size(struct reader *r)
{
    uint8_t s = rd8(r);
    if (s < 192)
        return 1u + s % 8u;
    if (s < 240)
        return 1u + rd32(r, 1);
    if (s < 250)
        return 1u + rd32(r, 2);
    if (s < 254)
        return rd32(r, 4) | 1u;        /* up to 2^32-1 */
    return s == 254 ? UINT32_MAX : 0u; /* 0 is invalid */
}

static uint32_t read_stride(struct reader *r)
{
    uint8_t s = rd8(r);
    if (s < 160)
        return s % 16u;
    if (s < 224)
        return rd32(r, 2);
    if (s < 250)
        return rd32(r, 4);
    return UINT32_MAX - (s - 250u);
}

static void read_order(struct reader *r, unsigned rank, unsigned order[])
{
    for (unsigned i = 0; i < rank; i++)
        order[i] = i;
    for (unsigned i = rank; i-- > 1;) {
        unsigned j = rd8(r) % (i + 1);
        unsigned tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
}

/* Checks what dmlt_strides_from_layout said about spec. */
/* The dim whose stride is the row pitch (dmltensor.h): H in the nchw,
 * nhwc, ncdhw and ndhwc orders (dim 2 of 4, dim 3 of 5), else the
 * second-innermost memory dim. */
static unsigned pitch_dim(unsigned rank, const unsigned order[])
{
    static const unsigned nchw[] = {0, 1, 2, 3}, nhwc[] = {0, 2, 3, 1};
    static const unsigned ncdhw[] = {0, 1, 2, 3, 4}, ndhwc[] = {0, 2, 3, 4, 1};
    const size_t n = rank * sizeof order[0];
    if (rank == 4 && (memcmp(order, nchw, n) == 0 || memcmp(order, nhwc, n) == 0))
        return 2;
    if (rank == 5 && (memcmp(order, ncdhw, n) == 0 || memcmp(order, ndhwc, n) == 0))
        return 3;
    return order[rank - 2];
}

static void check_layout(const struct built *b, enum dmlt_status st, const struct dmlt_error *err)
{
    const struct dmlt_tensor *t = &b->t;
    const struct dmlt_layout_spec *spec = &b->spec;
    const unsigned bits = dmlt_dtype_get(t->dtype)->bits;
    const bool bad_pitch =
        spec->row_pitch_align_bytes != 0 && ((uint64_t)spec->row_pitch_align_bytes * 8u) % bits;
    if (bad_pitch) {
        FUZZ_CHECK(st == DMLT_E_INVALID);
        return;
    }
    if (st == DMLT_E_LAYOUT) {
        FUZZ_CHECK(spec->pad[spec->order[0]] != 0 && err->dim == (int)spec->order[0]);
        return;
    }
    if (st == DMLT_E_RANGE) {
        FUZZ_CHECK(err->dim >= 0 && err->dim < (int)t->rank);
        FUZZ_CHECK(R(err->value) > DMLT_MAX_STRIDE && t->sizes[err->dim] > 1);
        FUZZ_CHECK(!spec->broadcast[err->dim]);
        return;
    }
    FUZZ_CHECK(st == DMLT_OK);
    FUZZ_CHECK(spec->pad[spec->order[0]] == 0);
    /* From the innermost memory dim out, each stride is the running extent
     * of the dims inside it: at least their reach, so nothing overlaps. */
    ref_u128 reach = 0;
    for (unsigned k = t->rank; k-- > 0;) {
        unsigned d = spec->order[k];
        if (spec->broadcast[d]) {
            FUZZ_CHECK(t->strides[d] == 0);
            continue;
        }
        if (t->sizes[d] == 1)
            continue; /* its stride moves nothing (and may be 0 past 2^32) */
        FUZZ_CHECK(t->strides[d] > reach);
        reach += (ref_u128)(t->sizes[d] - 1u) * t->strides[d];
    }
    if (spec->row_pitch_align_bytes != 0 && t->rank >= 2) {
        unsigned d = pitch_dim(t->rank, spec->order);
        ref_u128 pitch = (ref_u128)spec->row_pitch_align_bytes * 8u / bits;
        if (!spec->broadcast[d] && t->strides[d] != 0)
            FUZZ_CHECK(t->strides[d] % pitch == 0);
    }
}

static bool build(struct reader *r, struct built *b)
{
    memset(b, 0, sizeof *b);
    struct dmlt_tensor *t = &b->t;
    uint8_t h = rd8(r);
    unsigned dt = h % 16u;
    t->dtype = (enum dmlt_dtype)(dt == 0 ? 0 : dt == 15 ? 14 : dt); /* 0, 14: invalid */
    uint8_t rk = rd8(r);
    t->rank = rk == 255 ? 0 : rk == 254 ? 9 : 1u + rk % DMLT_MAX_RANK;
    unsigned n = t->rank <= DMLT_MAX_RANK ? t->rank : DMLT_MAX_RANK;
    for (unsigned d = 0; d < n; d++)
        t->sizes[d] = read_size(r);
    b->mode = (enum stride_mode)((h >> 4) % 3u);

    struct dmlt_error err;
    enum dmlt_status chk = dmlt_tensor_check(t, &err);
    b->valid_input = chk == DMLT_OK;
    if (t->rank < 1 || t->rank > DMLT_MAX_RANK)
        FUZZ_CHECK(chk == DMLT_E_RANK);
    else if (dmlt_dtype_get(t->dtype) == NULL)
        FUZZ_CHECK(chk == DMLT_E_DTYPE);
    else if (chk != DMLT_OK)
        FUZZ_CHECK(chk == DMLT_E_ZERO_SIZE && err.dim >= 0 && t->sizes[err.dim] == 0);

    if (b->mode == STRIDES_EXPLICIT || !b->valid_input) {
        b->mode = STRIDES_EXPLICIT;
        for (unsigned d = 0; d < n; d++)
            t->strides[d] = read_stride(r);
        return true;
    }
    unsigned order[DMLT_MAX_RANK];
    read_order(r, t->rank, order);
    if (b->mode == STRIDES_PACKED) {
        dmlt_layout_spec_init(&b->spec, t->rank);
        memcpy(b->spec.order, order, sizeof order);
        enum dmlt_status st = dmlt_packed_strides(t->rank, t->sizes, order, t->strides, &err);
        check_layout(b, st, &err);
        return st == DMLT_OK;
    }
    struct dmlt_layout_spec *spec = &b->spec;
    dmlt_layout_spec_init(spec, t->rank);
    memcpy(spec->order, order, sizeof order);
    uint8_t mods = rd8(r);
    for (unsigned d = 0; d < t->rank; d++) {
        if (mods & 1u)
            spec->broadcast[d] = rd8(r) < 64;
        if (mods & 2u) {
            uint8_t p = rd8(r);
            spec->pad[d] = p < 128 ? 0 : p < 250 ? p % 8u : rd32(r, 4);
        }
    }
    if (mods & 4u) {
        static const uint32_t pitches[] = {1, 2, 3, 4, 6, 8, 16, 32, 256, 4096};
        uint8_t p = rd8(r);
        spec->row_pitch_align_bytes = p < 200 ? pitches[p % 10] : rd32(r, 4);
    }
    if ((mods & 8u) == 0) /* usually no padding after the outermost dim */
        spec->pad[spec->order[0]] = 0;
    enum dmlt_status st =
        dmlt_strides_from_layout(t->dtype, t->rank, t->sizes, spec, t->strides, &err);
    check_layout(b, st, &err);
    return st == DMLT_OK;
}

/* ---- the report --------------------------------------------------------------- */

static void check_report(const struct built *b, const uint64_t *total, struct dmlt_report *rep,
                         bool *measured)
{
    const struct dmlt_tensor *t = &b->t;
    struct dmlt_error err;
    enum dmlt_status st = dmlt_report_compute(t, total, rep, &err);
    *measured = false;
    if (!b->valid_input) {
        FUZZ_CHECK(st == DMLT_E_RANK || st == DMLT_E_DTYPE || st == DMLT_E_ZERO_SIZE);
        return;
    }
    const unsigned bits = dmlt_dtype_get(t->dtype)->bits;
    ref_u128 count = 1, last = 0, span = 1, packed = 0;
    bool fits = true;
    for (unsigned d = 0; d < t->rank; d++) {
        fits = fits && mul_ok(count, t->sizes[d], &count);
        last += (ref_u128)(t->sizes[d] - 1u) * t->strides[d];
        ref_u128 ext = (ref_u128)t->sizes[d] * t->strides[d];
        if (t->sizes[d] > 1 && t->strides[d] > 0 && ext > span)
            span = ext;
    }
    fits = fits && ref_bytes(count, bits, &packed);
    if (!fits) {
        FUZZ_CHECK(st == DMLT_E_RANGE);
        return;
    }
    FUZZ_CHECK(st == DMLT_OK);
    *measured = true;
    ref_u128 minimum = 0, padded = 0;
    FUZZ_CHECK(ref_bytes(last + 1, bits, &minimum) && ref_bytes(span, bits, &padded));
    FUZZ_CHECK(R(rep->element_count) == count);
    FUZZ_CHECK(R(rep->index_of_last_element) == last);
    FUZZ_CHECK(R(rep->packed_size_bytes) == packed);
    FUZZ_CHECK(R(rep->minimum_implied_size_bytes) == minimum);
    FUZZ_CHECK(R(rep->padded_size_bytes) == (padded > minimum ? padded : minimum));
    FUZZ_CHECK(rep->total_given == (total != NULL));
    FUZZ_CHECK(R(rep->total_tensor_size_bytes) == (total ? *total : minimum));

    bool any = false;
    for (unsigned d = 0; d < t->rank; d++) {
        bool bc = t->sizes[d] > 1 && t->strides[d] == 0;
        FUZZ_CHECK(rep->broadcast_dims[d] == bc);
        any = any || bc;
    }
    FUZZ_CHECK(rep->broadcast == any);
    if (any)
        FUZZ_CHECK(rep->overlapping == DMLT_YES);
    switch (rep->overlapping) {
    case DMLT_NO:
        FUZZ_CHECK(last + 1 >= count); /* one element per offset at most */
        FUZZ_CHECK(minimum >= packed);
        FUZZ_CHECK(rep->packed == (last + 1 == count ? DMLT_YES : DMLT_NO));
        FUZZ_CHECK(rep->padded == (last + 1 > count ? DMLT_YES : DMLT_NO));
        break;
    case DMLT_YES:
        FUZZ_CHECK(rep->packed == DMLT_NO && rep->padded == DMLT_NO);
        break;
    case DMLT_UNKNOWN:
        FUZZ_CHECK(rep->packed == DMLT_UNKNOWN && rep->padded == DMLT_UNKNOWN);
        FUZZ_CHECK(last + 1 >= count); /* else the pigeonhole says yes */
        break;
    }
    if (last + 1 < count)
        FUZZ_CHECK(rep->overlapping == DMLT_YES);
    if (rep->packed == DMLT_YES)
        FUZZ_CHECK(R(rep->index_of_last_element) + 1 == R(rep->element_count) &&
                   R(rep->minimum_implied_size_bytes) == R(rep->packed_size_bytes));

    /* A detected layout packs to these strides on every dim of size > 1
     * (a size-1 dim's stride moves no element). */
    if (rep->layout_detected) {
        uint32_t again[DMLT_MAX_RANK];
        struct dmlt_error e2;
        FUZZ_CHECK(dmlt_packed_strides(t->rank, t->sizes, rep->detected_order, again, &e2) ==
                   DMLT_OK);
        for (unsigned d = 0; d < t->rank; d++)
            FUZZ_CHECK(t->sizes[d] == 1 || again[d] == t->strides[d]);
        FUZZ_CHECK(rep->packed == DMLT_YES);
    }

    /* The published helper, and the diagnostics. */
    bool wraps = false;
    uint64_t helper = dmlt_published_helper_size(t, &wraps);
    FUZZ_CHECK(wraps == (last > UINT32_MAX));
    if (bits < 8)
        FUZZ_CHECK(helper == 0);
    else if (!wraps)
        FUZZ_CHECK(helper == minimum);
    ref_u128 tot = R(rep->total_tensor_size_bytes);
    bool want[DMLT_DIAG_COUNT] = {false};
    want[DMLT_DIAG_HELPER_DTYPE] = bits < 8;
    want[DMLT_DIAG_HELPER_OVERFLOW] = bits >= 8 && wraps;
    want[DMLT_DIAG_RANK_NOT_4_OR_5] = t->rank != 4 && t->rank != 5;
    want[DMLT_DIAG_OVERLAP_UNKNOWN] = rep->overlapping == DMLT_UNKNOWN;
    want[DMLT_DIAG_TOTAL_TOO_SMALL] = total && *total < minimum;
    want[DMLT_DIAG_OVER_UINT32_ELEMENTS] = tot * 8u > (ref_u128)UINT32_MAX * bits;
    unsigned n = 0;
    for (unsigned i = 0; i < DMLT_DIAG_COUNT; i++) {
        FUZZ_CHECK(has_diag(rep, (enum dmlt_diag_id)i) == want[i]);
        n += want[i];
    }
    FUZZ_CHECK(rep->diag_count == n);

    /* The last coordinate is at index_of_last_element; coordinate 0 at 0. */
    uint32_t c[DMLT_MAX_RANK] = {0};
    ref_u128 off = 1;
    FUZZ_CHECK(offset_ref(t, c, &off, &err) == DMLT_OK && off == 0);
    for (unsigned d = 0; d < t->rank; d++)
        c[d] = t->sizes[d] - 1u;
    FUZZ_CHECK(offset_ref(t, c, &off, &err) == DMLT_OK && off == last);
}

/* ---- coordinates, offsets, bytes ----------------------------------------------- */

static void check_coordinate(const struct dmlt_tensor *t, const struct dmlt_report *rep,
                             struct reader *r)
{
    uint32_t c[DMLT_MAX_RANK];
    uint8_t how = rd8(r);
    for (unsigned d = 0; d < t->rank; d++)
        c[d] = (how & 1) ? rd32(r, 4) % t->sizes[d] : rd8(r) % t->sizes[d];
    ref_u128 off;
    struct dmlt_error err;
    if (how & 2) {
        /* One coordinate out of range: DMLT_E_COORD naming it. */
        unsigned d = rd8(r) % t->rank;
        if (t->sizes[d] < UINT32_MAX) {
            uint32_t saved = c[d];
            c[d] = t->sizes[d] + rd8(r) % (UINT32_MAX - t->sizes[d] + 1u);
            FUZZ_CHECK(offset_ref(t, c, &off, &err) == DMLT_E_COORD);
            FUZZ_CHECK(err.dim == (int)d && R(err.value) == c[d] && R(err.limit) == t->sizes[d]);
            c[d] = saved;
        }
    }
    FUZZ_CHECK(offset_ref(t, c, &off, &err) == DMLT_OK);
    FUZZ_CHECK(off == ref_dot(t, c) && off <= R(rep->index_of_last_element));

    /* locate(offset(c)) lists c: complete, or cut by a small work cap. */
    struct collect col;
    memset(&col, 0, sizeof col);
    col.want = c;
    col.stop_after = 256;
    unsigned long cap = (how & 4) ? 1u + rd8(r) : LOCATE_CAP;
    enum dmlt_status st = locate(t, off, cap, &col);
    if (st == DMLT_OK && col.calls < col.stop_after)
        FUZZ_CHECK(col.saw_want);
    if (rep->overlapping == DMLT_NO && st == DMLT_OK)
        FUZZ_CHECK(col.calls == 1);
    /* Stopping after k coordinates reports k. */
    if (col.calls > 1) {
        uint64_t k = col.calls / 2;
        memset(&col, 0, sizeof col);
        col.stop_after = k;
        if (locate(t, off, cap, &col) == DMLT_OK)
            FUZZ_CHECK(col.calls == k);
    }
    /* Past the last element: nothing. */
    memset(&col, 0, sizeof col);
    col.stop_after = 1;
    FUZZ_CHECK(locate(t, R(rep->index_of_last_element) + 1 + rd8(r), cap, &col) == DMLT_OK &&
               col.calls == 0);
}

static void check_bytes(enum dmlt_dtype dtype, struct reader *r)
{
    const struct dmlt_dtype_info *info = dmlt_dtype_get(dtype);
    ref_u128 k = rd64(r), byte, first;
    if (rd8(r) & 1)
        k = k << 64 | rd64(r); /* past 2^64, up to 2^128-1 */
    uint64_t base = (rd8(r) & 1) ? rd64(r) : rd32(r, 2);
    unsigned nibble = 9, count = 9, in_elem = 9;
    enum dmlt_status st = byte_offset_ref(dtype, k, base, &byte, &nibble);
    if (info == NULL) {
        FUZZ_CHECK(st == DMLT_E_DTYPE);
        FUZZ_CHECK(elements_at_byte_ref(dtype, k, &first, &count, &in_elem) == DMLT_E_DTYPE);
        return;
    }
    ref_u128 bitpos;
    bool fits = mul_ok(k, info->bits, &bitpos) && bitpos / 8 <= U128_MAX - base;
    FUZZ_CHECK((st == DMLT_OK) == fits);
    if (st == DMLT_OK) {
        FUZZ_CHECK(byte == bitpos / 8 + base);
        FUZZ_CHECK(nibble == (info->bits < 8 ? (unsigned)(k % 2) : 0u));
        /* The elements at that byte hold element k. */
        st = elements_at_byte_ref(dtype, byte - base, &first, &count, &in_elem);
        FUZZ_CHECK(st == DMLT_OK);
        FUZZ_CHECK(first <= k && k - first < count && in_elem == 0);
        FUZZ_CHECK(count == (info->bits < 8 ? 2u : 1u));
        if (info->bits < 8)
            FUZZ_CHECK(k - first == nibble);
    }
    /* And the other way: any byte b is byte in_elem of element first. */
    ref_u128 b = k;
    st = elements_at_byte_ref(dtype, b, &first, &count, &in_elem);
    if (info->bits < 8) {
        FUZZ_CHECK((st == DMLT_OK) == (b <= U128_MAX / 2));
        if (st == DMLT_OK)
            FUZZ_CHECK(first == 2 * b && count == 2 && in_elem == 0);
    } else {
        FUZZ_CHECK(st == DMLT_OK && count == 1);
        FUZZ_CHECK(first * (info->bits / 8) + in_elem == b && in_elem < info->bits / 8);
    }
}

/* ---- brute force ------------------------------------------------------------------ */

struct pair {
    ref_u128 offset;
    uint32_t index; /* in row-major order */
};

static int cmp_pair(const void *a, const void *b)
{
    const struct pair *x = a, *y = b;
    if (x->offset != y->offset)
        return x->offset < y->offset ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static void brute_force(const struct dmlt_tensor *t, const struct dmlt_report *rep, uint64_t base)
{
    const unsigned n = (unsigned)R(rep->element_count), rank = t->rank;
    static uint32_t coords[BRUTE_MAX * DMLT_MAX_RANK], listed[BRUTE_MAX * DMLT_MAX_RANK];
    static struct pair pairs[BRUTE_MAX];
    const struct dmlt_dtype_info *info = dmlt_dtype_get(t->dtype);

    /* dmlt_walk against an odometer. */
    struct dmlt_walk w = DMLT_WALK_INIT;
    FUZZ_CHECK(dmlt_walk_start(&w, t, base) == DMLT_OK);
    uint32_t c[DMLT_MAX_RANK] = {0};
    for (unsigned i = 0; i < n; i++) {
        if (i) {
            unsigned d = rank;
            while (d-- > 0) {
                if (++c[d] < t->sizes[d])
                    break;
                c[d] = 0;
            }
            FUZZ_CHECK(dmlt_walk_next(&w));
            FUZZ_CHECK(w.changed == d);
        }
        FUZZ_CHECK(memcmp(w.coord, c, rank * sizeof c[0]) == 0);
        ref_u128 off = ref_dot(t, c), byte;
        unsigned nibble;
        FUZZ_CHECK(R(w.offset) == off);
        FUZZ_CHECK(byte_offset_ref(t->dtype, off, base, &byte, &nibble) == DMLT_OK);
        FUZZ_CHECK(R(w.byte_offset) == byte && w.nibble == nibble);
        memcpy(coords + (size_t)i * rank, c, rank * sizeof c[0]);
        pairs[i].offset = off;
        pairs[i].index = i;
    }
    FUZZ_CHECK(!dmlt_walk_next(&w));
    FUZZ_CHECK(R(w.offset) == R(rep->index_of_last_element)); /* left on the last one */
    (void)info;

    /* Overlap, exactly. */
    qsort(pairs, n, sizeof pairs[0], cmp_pair);
    bool overlap = false;
    for (unsigned i = 1; i < n; i++)
        overlap = overlap || pairs[i].offset == pairs[i - 1].offset;
    FUZZ_CHECK(rep->overlapping == (overlap ? DMLT_YES : DMLT_NO));
    FUZZ_CHECK(dmlt_overlapping(t, DMLT_OVERLAP_WORK_CAP) == rep->overlapping);

    /* locate at each offset reached (and at the gaps between them) lists
     * exactly the coordinates there, in row-major order. */
    struct collect col;
    memset(&col, 0, sizeof col);
    col.list = listed;
    col.stop_after = UINT64_MAX;
    unsigned checked = 0;
    for (unsigned i = 0; i < n && checked < 256;) {
        unsigned j = i;
        while (j < n && pairs[j].offset == pairs[i].offset)
            j++;
        FUZZ_CHECK(locate(t, pairs[i].offset, DMLT_OVERLAP_WORK_CAP, &col) == DMLT_OK);
        FUZZ_CHECK(col.calls == j - i);
        for (unsigned k = i; k < j; k++)
            FUZZ_CHECK(memcmp(listed + (size_t)(k - i) * rank,
                              coords + (size_t)pairs[k].index * rank,
                              rank * sizeof listed[0]) == 0);
        if (i > 0 && pairs[i].offset > pairs[i - 1].offset + 1) {
            FUZZ_CHECK(locate(t, pairs[i].offset - 1, DMLT_OVERLAP_WORK_CAP, &col) == DMLT_OK);
            FUZZ_CHECK(col.calls == 0); /* padding */
        }
        i = j;
        checked++;
    }
}

/* ---- validate ----------------------------------------------------------------------- */

static void check_validate(const struct built *b, struct reader *r)
{
    struct dmlt_desc d;
    memset(&d, 0, sizeof d);
    d.t = b->t;
    uint8_t h = rd8(r);
    d.has_total = h & 1;
    d.total_tensor_size_bytes = (h & 2) ? rd64(r) : rd32(r, 2);
    static const uint32_t aligns[] = {0, 1, 2, 4, 8, 16, 24, 32, 256, 0x80000000u};
    d.guaranteed_base_offset_alignment = (h & 4) ? rd32(r, 4) : aligns[rd8(r) % 10];
    d.base_offset_bytes = (h & 8) ? rd64(r) : 16u * rd8(r) + ((h & 16) ? rd8(r) % 16u : 0u);
    d.flags = (h & 32) ? rd32(r, 4) : rd8(r) % 2u;
    unsigned strides_count = (h & 64) ? rd8(r) % 10u : d.t.rank;
    /* The binding: sizes near the total, and anything up to 2^64-1. */
    uint8_t hb = rd8(r);
    d.has_binding_size = hb & 1;
    d.binding_size_bytes = (hb & 2) ? rd64(r) : d.total_tensor_size_bytes + rd8(r) - 128u;
    d.has_buffer_size = hb & 4;
    d.buffer_size_bytes = (hb & 8) ? rd64(r) : d.base_offset_bytes + rd32(r, 2);

    struct dmlt_check out[DMLT_CHECK_COUNT];
    bool valid = dmlt_validate(&d, strides_count, out, DMLT_CHECK_COUNT);

    const struct dmlt_tensor *t = &d.t;
    const struct dmlt_dtype_info *info = dmlt_dtype_get(t->dtype);
    const unsigned bits = info ? info->bits : 8;
    const unsigned elem_bytes = bits < 8 ? 1 : bits / 8;
    bool rank_ok = t->rank >= 1 && t->rank <= DMLT_MAX_RANK, sizes_ok = true;
    for (unsigned i = 0; rank_ok && i < t->rank; i++)
        sizes_ok = sizes_ok && t->sizes[i] != 0;
    struct dmlt_report rep = DMLT_REPORT_INIT;
    struct dmlt_error err;
    bool measured =
        rank_ok && sizes_ok && info && dmlt_report_compute(t, NULL, &rep, &err) == DMLT_OK;
    ref_u128 minimum = measured ? R(rep.minimum_implied_size_bytes) : U128_MAX;
    ref_u128 total = d.has_total ? d.total_tensor_size_bytes : minimum;
    uint32_t align = d.guaranteed_base_offset_alignment;
    bool pow2 = align != 0 && (align & (align - 1)) == 0;
    bool wraps = false;
    if (measured)
        (void)dmlt_published_helper_size(t, &wraps);

    bool want[DMLT_CHECK_COUNT];
    want[DMLT_CHECK_RANK] = rank_ok;
    want[DMLT_CHECK_SIZES_NONZERO] = !rank_ok || sizes_ok;
    want[DMLT_CHECK_STRIDES_COUNT] = strides_count == 0 || strides_count == t->rank;
    want[DMLT_CHECK_TOTAL_MINIMUM] = measured && total >= minimum;
    want[DMLT_CHECK_TOTAL_DWORD] = total % 4 == 0;
    want[DMLT_CHECK_TOTAL_ELEMENTS] =
        total <= U128_MAX / 8 && total * 8 <= (ref_u128)UINT32_MAX * bits;
    want[DMLT_CHECK_ALIGNMENT_POW2] = align == 0 || (pow2 && align >= elem_bytes);
    want[DMLT_CHECK_BASE_OFFSET_16] = d.base_offset_bytes % 16 == 0;
    want[DMLT_CHECK_BASE_OFFSET_ALIGNMENT] = align == 0 || d.base_offset_bytes % align == 0;
    want[DMLT_CHECK_FLAGS] = d.flags <= 1;
    want[DMLT_CHECK_RANK_4_OR_5] = t->rank == 4 || t->rank == 5;
    want[DMLT_CHECK_ALIGNMENT_32] = align >= 32;
    want[DMLT_CHECK_HELPER] = !wraps && bits >= 8;
    /* Offset + range <= buffer, written without the sum. */
    ref_u128 range = d.has_binding_size ? d.binding_size_bytes : total;
    want[DMLT_CHECK_BINDING_SIZE] = !d.has_binding_size || d.binding_size_bytes >= total;
    want[DMLT_CHECK_BINDING_IN_BUFFER] =
        !d.has_buffer_size ||
        (range <= d.buffer_size_bytes && d.base_offset_bytes <= d.buffer_size_bytes - range);
    /* strides_overlap: the tensor with its broadcast dims as size 1; an
     * answer the search cannot give is skipped, never a failure. */
    struct dmlt_tensor kept = *t;
    for (unsigned i = 0; rank_ok && i < kept.rank; i++)
        if (kept.sizes[i] > 1 && kept.strides[i] == 0)
            kept.sizes[i] = 1;
    enum dmlt_tristate overlap =
        measured ? dmlt_overlapping(&kept, DMLT_OVERLAP_WORK_CAP) : DMLT_UNKNOWN;
    want[DMLT_CHECK_STRIDES_OVERLAP] = overlap != DMLT_YES;
    FUZZ_CHECK(out[DMLT_CHECK_STRIDES_OVERLAP].skipped == (overlap == DMLT_UNKNOWN));
    FUZZ_CHECK(out[DMLT_CHECK_BINDING_SIZE].skipped == !d.has_binding_size);
    FUZZ_CHECK(out[DMLT_CHECK_BINDING_IN_BUFFER].skipped == !d.has_buffer_size);
    bool want_valid = true;
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++) {
        FUZZ_CHECK(out[i].id == (enum dmlt_check_id)i);
        FUZZ_CHECK(!out[i].skipped || out[i].passed);
        FUZZ_CHECK(out[i].passed == want[i]);
        FUZZ_CHECK(dmlt_check_id_name((enum dmlt_check_id)i)[0] != '\0');
        FUZZ_CHECK(dmlt_check_rule((enum dmlt_check_id)i)[0] != '\0');
        if (!want[i] && dmlt_check_level((enum dmlt_check_id)i) == DMLT_ERROR)
            want_valid = false;
    }
    FUZZ_CHECK(valid == want_valid);
    if (want[DMLT_CHECK_TOTAL_MINIMUM] == false && measured)
        FUZZ_CHECK(R(out[DMLT_CHECK_TOTAL_MINIMUM].value) == total &&
                   R(out[DMLT_CHECK_TOTAL_MINIMUM].limit) == minimum);
}

/* An invalid tensor is refused by every entry point, with the same status. */
static void check_invalid(const struct built *b)
{
    struct dmlt_report rep = DMLT_REPORT_INIT;
    struct dmlt_error err;
    bool measured;
    check_report(b, NULL, &rep, &measured);
    enum dmlt_status st = dmlt_tensor_check(&b->t, &err);
    FUZZ_CHECK(st != DMLT_OK);
    uint32_t c[DMLT_MAX_RANK] = {0};
    ref_u128 off;
    FUZZ_CHECK(offset_ref(&b->t, c, &off, &err) == st);
    struct collect col;
    memset(&col, 0, sizeof col);
    col.stop_after = 1;
    uint64_t found = 7;
    FUZZ_CHECK(dmlt_locate(&b->t, P(0), 100, on_coord, &col, &found) == st && found == 0);
    struct dmlt_walk w = DMLT_WALK_INIT;
    FUZZ_CHECK(dmlt_walk_start(&w, &b->t, 0) == st);
    FUZZ_CHECK(dmlt_report_compute(&b->t, NULL, &rep, &err) == st);
    for (int i = -1; i <= DMLT_E_WORK_CAP + 1; i++)
        FUZZ_CHECK(dmlt_status_name((enum dmlt_status)i)[0] != '\0');
    for (int i = -1; i <= DMLT_DIAG_COUNT; i++) {
        FUZZ_CHECK(dmlt_diag_id_name((enum dmlt_diag_id)i)[0] != '\0');
        enum dmlt_severity sev = dmlt_diag_severity((enum dmlt_diag_id)i);
        FUZZ_CHECK(sev == DMLT_INFO || sev == DMLT_WARNING || sev == DMLT_ERROR);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct reader r = {data, size};
    struct built b;
    bool built = build(&r, &b);
    check_validate(&b, &r);
    if (!built || !b.valid_input) {
        if (!b.valid_input)
            check_invalid(&b);
        return 0;
    }
    const struct dmlt_tensor *t = &b.t;
    uint8_t h = rd8(&r);
    uint64_t total_v = (h & 1) ? rd64(&r) : rd32(&r, 2);
    struct dmlt_report rep = DMLT_REPORT_INIT;
    bool measured;
    check_report(&b, (h & 2) ? &total_v : NULL, &rep, &measured);

    /* A layout never overlaps itself unless it broadcasts; packed strides
     * are packed, and detected (a size-1 dim's clipped stride included). */
    bool any_broadcast = false;
    for (unsigned d = 0; d < t->rank; d++)
        any_broadcast = any_broadcast || b.spec.broadcast[d];
    if (measured && b.mode != STRIDES_EXPLICIT && !any_broadcast)
        FUZZ_CHECK(rep.overlapping == DMLT_NO);
    if (measured && b.mode == STRIDES_PACKED) {
        FUZZ_CHECK(rep.packed == DMLT_YES);
        FUZZ_CHECK(rep.layout_detected);
    }
    /* Overlap with a small work cap: unknown, or the same answer. */
    if (measured) {
        enum dmlt_tristate o = dmlt_overlapping(t, 1u + rd8(&r));
        FUZZ_CHECK(o == DMLT_UNKNOWN || o == rep.overlapping);
    }

    if (measured) {
        for (unsigned i = 0, n = 1u + rd8(&r) % 4u; i < n; i++)
            check_coordinate(t, &rep, &r);
    }
    check_bytes(t->dtype, &r);
    if (measured && R(rep.element_count) <= BRUTE_MAX)
        brute_force(t, &rep, (rd8(&r) & 1) ? rd64(&r) : 0u);
    return 0;
}
