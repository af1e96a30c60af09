/* Property tests: every definition of docs/concepts.md the core computes is compared with
 * brute-force enumeration of all coordinates, over thousands of random small
 * tensors with random strides, layouts, broadcasts and padding. */
#include "check.h"

#include <stdlib.h>

#define MAX_ELEMS 4096

struct brute {
    uint64_t n;
    uint64_t offsets[MAX_ELEMS]; /* in row-major coordinate order */
    uint64_t max_offset;
    bool overlap;
};

static void enumerate(const struct dmlt_tensor *t, struct brute *b)
{
    uint32_t c[DMLT_MAX_RANK] = {0};
    b->n = 0;
    b->max_offset = 0;
    for (;;) {
        uint64_t off = 0;
        for (unsigned d = 0; d < t->rank; d++)
            off += (uint64_t)c[d] * t->strides[d];
        b->offsets[b->n++] = off;
        if (off > b->max_offset)
            b->max_offset = off;
        unsigned d = t->rank;
        while (d-- > 0) {
            if (++c[d] < t->sizes[d])
                break;
            c[d] = 0;
        }
        if (d == (unsigned)-1)
            break;
    }
    /* Overlap: a bitmap of offsets seen. */
    unsigned char *seen = calloc(b->max_offset + 1, 1);
    b->overlap = false;
    for (uint64_t i = 0; i < b->n; i++) {
        if (seen[b->offsets[i]])
            b->overlap = true;
        seen[b->offsets[i]] = 1;
    }
    free(seen);
}

static ref_u128 dword_bytes(uint64_t elements, unsigned bits)
{
    ref_u128 bytes = ((ref_u128)elements * bits + 7) / 8;
    return (bytes + 3) / 4 * 4;
}

/* A random tensor with at most MAX_ELEMS elements. */
static void random_tensor(struct dmlt_tensor *t)
{
    memset(t, 0, sizeof *t);
    t->dtype = (enum dmlt_dtype)check_range(1, DMLT_DTYPE_COUNT);
    t->rank = check_range(1, 6);
    uint64_t n = 1;
    for (unsigned d = 0; d < t->rank; d++) {
        uint32_t max = (uint32_t)(MAX_ELEMS / n < 5 ? MAX_ELEMS / n : 5);
        t->sizes[d] = check_range(1, max ? max : 1);
        n *= t->sizes[d];
    }
    if (check_rand() % 2) {
        /* Arbitrary strides: broadcast, padded, overlapping, anything. */
        for (unsigned d = 0; d < t->rank; d++)
            t->strides[d] = check_range(0, check_rand() % 3 ? 12 : 40);
        return;
    }
    /* A layout with modifiers, as the CLI builds one. */
    struct dmlt_layout_spec spec;
    dmlt_layout_spec_init(&spec, t->rank);
    for (unsigned i = t->rank; i-- > 1;) {
        unsigned j = check_range(0, i), tmp = spec.order[i];
        spec.order[i] = spec.order[j];
        spec.order[j] = tmp;
    }
    for (unsigned k = 0; k < t->rank; k++) {
        unsigned d = spec.order[k];
        spec.broadcast[d] = check_rand() % 6 == 0;
        spec.pad[d] = k > 0 && check_rand() % 4 == 0 ? check_range(1, 3) : 0;
    }
    if (t->rank >= 2 && check_rand() % 5 == 0)
        spec.row_pitch_align_bytes = 16;
    struct dmlt_error err;
    enum dmlt_status st =
        dmlt_strides_from_layout(t->dtype, t->rank, t->sizes, &spec, t->strides, &err);
    CHECK(st == DMLT_OK);
    /* Check the layout walk itself, from its definition. The row pitch is
     * H's stride in nchw, nhwc, ncdhw and ndhwc, else the second-innermost
     * memory dim's (test_layout checks it against brute force). */
    unsigned pitch_k = t->rank - 2;
    static const char *const image[] = {"nchw", "nhwc", "ncdhw", "ndhwc"};
    for (size_t i = 0; i < sizeof image / sizeof image[0]; i++) {
        unsigned o[DMLT_MAX_RANK];
        if (dmlt_layout_parse(image[i], strlen(image[i]), t->rank, o) != DMLT_OK ||
            memcmp(o, spec.order, t->rank * sizeof o[0]) != 0)
            continue;
        for (unsigned k = 0; k < t->rank; k++)
            if (o[k] == t->rank - 2)
                pitch_k = k;
    }
    uint64_t extent = 1;
    for (unsigned k = t->rank; k-- > 0;) {
        unsigned d = spec.order[k];
        if (k == pitch_k && spec.row_pitch_align_bytes) {
            uint64_t per = spec.row_pitch_align_bytes * 8u / dmlt_dtype_get(t->dtype)->bits;
            extent = (extent + per - 1) / per * per;
        }
        CHECK_EQ(t->strides[d], spec.broadcast[d] ? 0 : extent);
        extent = extent * (spec.broadcast[d] ? 1 : t->sizes[d]) + spec.pad[d];
    }
}

struct collect {
    uint32_t coords[MAX_ELEMS][DMLT_MAX_RANK];
    uint64_t n;
};

static bool collect_coord(void *ctx, const uint32_t coord[], unsigned rank)
{
    struct collect *c = ctx;
    if (c->n < MAX_ELEMS)
        memcpy(c->coords[c->n], coord, rank * sizeof coord[0]);
    c->n++;
    return true;
}

static void unravel(const struct dmlt_tensor *t, uint64_t index, uint32_t coord[])
{
    for (unsigned d = t->rank; d-- > 0;) {
        coord[d] = (uint32_t)(index % t->sizes[d]);
        index /= t->sizes[d];
    }
}

static struct brute b;
static struct collect got, got_budget;

/* dmlt_locate_budget at offset off: with an ample budget, the coordinates
 * got holds (dmlt_locate's), and the budget less the nodes visited; with
 * any smaller budget, DMLT_E_WORK_CAP, a budget of 0 left, and the first
 * of those coordinates, in order (never one that is not there). */
static void check_locate_budget(const struct dmlt_tensor *t, uint64_t off)
{
    const unsigned long ample = 1000000000ul;
    unsigned long budget = ample;
    uint64_t found;
    got_budget.n = 0;
    CHECK(dmlt_locate_budget(t, P(off), &budget, collect_coord, &got_budget, &found) == DMLT_OK);
    CHECK_EQ(got_budget.n, got.n);
    for (uint64_t i = 0; i < got.n && i < got_budget.n && i < MAX_ELEMS; i++)
        CHECK(memcmp(got.coords[i], got_budget.coords[i], t->rank * sizeof(uint32_t)) == 0);
    const unsigned long used = ample - budget;
    CHECK(used <= ample);
    const unsigned long smaller[3] = {0, used / 2, used - 1};
    for (int j = 0; j < 3 && used > 0; j++) {
        budget = smaller[j];
        got_budget.n = 0;
        CHECK(dmlt_locate_budget(t, P(off), &budget, collect_coord, &got_budget, &found) ==
              DMLT_E_WORK_CAP);
        CHECK_EQ(budget, 0);
        CHECK(got_budget.n <= got.n);
        for (uint64_t i = 0; i < got_budget.n && i < MAX_ELEMS; i++)
            CHECK(memcmp(got.coords[i], got_budget.coords[i], t->rank * sizeof(uint32_t)) == 0);
    }
}

static void check_tensor(const struct dmlt_tensor *t)
{
    enumerate(t, &b);
    const unsigned bits = dmlt_dtype_get(t->dtype)->bits;
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    if (!CHECK(dmlt_report_compute(t, NULL, &r, &err) == DMLT_OK))
        return;
    CHECK_EQ(r.element_count, b.n);
    CHECK_EQ(r.index_of_last_element, b.max_offset);
    CHECK_EQ(r.minimum_implied_size_bytes, dword_bytes(b.max_offset + 1, bits));
    CHECK_EQ(r.packed_size_bytes, dword_bytes(b.n, bits));
    CHECK_EQ(r.total_tensor_size_bytes, r.minimum_implied_size_bytes);
    /* padded: the extent of the widest dimension, at least the minimum. */
    uint64_t span = 1;
    for (unsigned d = 0; d < t->rank; d++)
        if (t->sizes[d] > 1 && t->strides[d] > 0 && (uint64_t)t->sizes[d] * t->strides[d] > span)
            span = (uint64_t)t->sizes[d] * t->strides[d];
    ref_u128 padded = dword_bytes(span, bits);
    if (padded < R(r.minimum_implied_size_bytes))
        padded = R(r.minimum_implied_size_bytes);
    CHECK_EQ(r.padded_size_bytes, padded);
    CHECK(R(r.padded_size_bytes) >= R(r.minimum_implied_size_bytes));

    bool broadcast = false;
    for (unsigned d = 0; d < t->rank; d++) {
        bool bd = t->sizes[d] > 1 && t->strides[d] == 0;
        CHECK_EQ(r.broadcast_dims[d], bd);
        broadcast = broadcast || bd;
    }
    CHECK_EQ(r.broadcast, broadcast);
    if (!CHECK_EQ(r.overlapping, b.overlap ? DMLT_YES : DMLT_NO)) {
        fprintf(stderr, "  rank %u sizes", t->rank);
        for (unsigned d = 0; d < t->rank; d++)
            fprintf(stderr, " %u/%u", t->sizes[d], t->strides[d]);
        fprintf(stderr, "\n");
    }
    CHECK_EQ(r.packed, !b.overlap && b.max_offset + 1 == b.n ? DMLT_YES : DMLT_NO);
    CHECK_EQ(r.padded, !b.overlap && b.max_offset + 1 > b.n ? DMLT_YES : DMLT_NO);
    if (!b.overlap)
        CHECK(R(r.minimum_implied_size_bytes) >= R(r.packed_size_bytes));

    /* Offsets, and locate against the brute-force inverse. */
    for (uint64_t i = 0; i < b.n; i++) {
        uint32_t c[DMLT_MAX_RANK];
        unravel(t, i, c);
        dmlt_u128 off;
        CHECK(dmlt_offset(t, c, &off, &err) == DMLT_OK);
        CHECK_EQ(off, b.offsets[i]);
    }
    for (uint64_t off = 0; off <= b.max_offset + 1; off++) {
        uint64_t found;
        got.n = 0;
        CHECK(dmlt_locate(t, P(off), 1000000, collect_coord, &got, &found) == DMLT_OK);
        CHECK_EQ(found, got.n);
        uint64_t k = 0; /* the brute-force matches, in row-major order */
        bool same = true;
        for (uint64_t i = 0; i < b.n; i++) {
            if (b.offsets[i] != off)
                continue;
            uint32_t c[DMLT_MAX_RANK];
            unravel(t, i, c);
            if (k >= got.n || memcmp(c, got.coords[k], t->rank * sizeof c[0]) != 0)
                same = false;
            k++;
        }
        if (!CHECK(same && k == got.n))
            fprintf(stderr, "  locate offset %llu: %llu expected, %llu found\n",
                    (unsigned long long)off, (unsigned long long)k, (unsigned long long)got.n);
        check_locate_budget(t, off);
    }
}

/* Overlap on larger shapes, where the sorted test fails and the search must
 * decide: brute force over up to ~100k coordinates. */
static void test_overlap_search(void)
{
    for (int iter = 0; iter < 400; iter++) {
        struct dmlt_tensor t;
        memset(&t, 0, sizeof t);
        t.dtype = DMLT_DTYPE_UINT8;
        t.rank = check_range(2, 4);
        uint64_t n = 1;
        for (unsigned d = 0; d < t.rank; d++) {
            t.sizes[d] = check_range(2, t.rank == 2 ? 300 : t.rank == 3 ? 40 : 16);
            t.strides[d] = check_range(1, 200);
            n *= t.sizes[d];
        }
        if (n > 120000)
            continue;
        uint64_t last = 0;
        for (unsigned d = 0; d < t.rank; d++)
            last += (uint64_t)(t.sizes[d] - 1) * t.strides[d];
        unsigned char *seen = calloc(last + 1, 1);
        bool overlap = false;
        uint32_t c[DMLT_MAX_RANK] = {0};
        for (uint64_t i = 0; i < n && !overlap; i++) {
            unravel(&t, i, c);
            uint64_t off = 0;
            for (unsigned d = 0; d < t.rank; d++)
                off += (uint64_t)c[d] * t.strides[d];
            overlap = seen[off];
            seen[off] = 1;
        }
        free(seen);
        CHECK_EQ(dmlt_overlapping(&t, DMLT_OVERLAP_WORK_CAP), overlap ? DMLT_YES : DMLT_NO);
    }
}

static bool count_only(void *ctx, const uint32_t coord[], unsigned rank)
{
    (void)coord;
    (void)rank;
    (*(uint64_t *)ctx)++;
    return true;
}

/* Shapes whose answers must come from the search's pruning, not from
 * enumeration: a small work cap proves it without timing anything. */
static void test_search_is_not_enumeration(void)
{
    struct dmlt_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = DMLT_DTYPE_FLOAT32;
    /* 2^20 x 2^20 with strides 2^20+1 and 2^20: not nested, yet no overlap
     * (z1 (2^20+1) = -z2 2^20 needs |z1| >= 2^20). */
    t.rank = 2;
    t.sizes[0] = t.sizes[1] = 1u << 20;
    t.strides[0] = (1u << 20) + 1;
    t.strides[1] = 1u << 20;
    CHECK_EQ(dmlt_overlapping(&t, 1000), DMLT_NO);
    /* ...and with strides 3 and 2 they collide at once. */
    t.strides[0] = 3;
    t.strides[1] = 2;
    CHECK_EQ(dmlt_overlapping(&t, 1000), DMLT_YES);

    /* locate in 1x64x256x256 NHWC: each offset has one coordinate. */
    t.rank = 4;
    const uint32_t sizes[4] = {1, 64, 256, 256}, strides[4] = {4194304, 1, 16384, 64};
    memcpy(t.sizes, sizes, sizeof sizes);
    memcpy(t.strides, strides, sizeof strides);
    for (int i = 0; i < 200; i++) {
        uint64_t off = check_rand() % 4194304, found = 0, n = 0;
        CHECK(dmlt_locate(&t, P(off), 64, count_only, &n, &found) == DMLT_OK);
        CHECK_EQ(found, 1);
    }
    /* Col-major rank 8, sizes 16: one coordinate per offset. */
    t.rank = 8;
    uint32_t s = 1;
    for (unsigned d = 0; d < 8; d++) {
        t.sizes[d] = d < 7 ? 16 : 15;
        t.strides[d] = s;
        s *= 16;
    }
    uint64_t found = 0, n = 0;
    CHECK(dmlt_locate(&t, P(4000000000u), 64, count_only, &n, &found) == DMLT_OK);
    CHECK_EQ(found, 1);
    /* A broadcast tensor has many: 1x3x4x4 broadcast on h,w -> 16 per offset. */
    t.rank = 4;
    const uint32_t bs[4] = {1, 3, 4, 4}, bst[4] = {3, 1, 0, 0};
    memcpy(t.sizes, bs, sizeof bs);
    memcpy(t.strides, bst, sizeof bst);
    n = 0;
    CHECK(dmlt_locate(&t, P(2), 64, count_only, &n, &found) == DMLT_OK);
    CHECK_EQ(found, 16);
    /* dmlt_locate's cap starts again at each of the 16; a budget does not:
     * what is enough between two solutions is not enough for all 16. */
    unsigned long visited_all = 1000;
    CHECK(dmlt_locate_budget(&t, P(2), &visited_all, count_only, &n, &found) == DMLT_OK);
    visited_all = 1000 - visited_all;
    unsigned long between = 1;
    while (dmlt_locate(&t, P(2), between, count_only, &n, &found) != DMLT_OK)
        between++;
    CHECK(between < visited_all);
    unsigned long budget = between;
    CHECK(dmlt_locate_budget(&t, P(2), &budget, count_only, &n, &found) == DMLT_E_WORK_CAP);
    CHECK(found < 16 && budget == 0);
    /* A work cap that is too small says so rather than guessing. */
    t.rank = 3;
    const uint32_t hs[3] = {1000, 1000, 1000}, hst[3] = {1, 1, 1};
    memcpy(t.sizes, hs, sizeof hs);
    memcpy(t.strides, hst, sizeof hst);
    CHECK_EQ(dmlt_overlapping(&t, 5), DMLT_YES); /* pigeonhole, no search */
}

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 3000;
    for (int i = 0; i < iterations; i++) {
        struct dmlt_tensor t;
        random_tensor(&t);
        check_tensor(&t);
    }
    test_overlap_search();
    test_search_is_not_enumeration();
    return check_finish("test_bruteforce");
}
