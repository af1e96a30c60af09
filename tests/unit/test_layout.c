/* Strides from layouts, checked against DirectML's documented examples and a
 * transcription of its CalculateStrides helper; layout parsing; detection. */
#include "check.h"

static enum dmlt_status strides_for(const char *layout, unsigned rank, const uint32_t sizes[],
                                    uint32_t out[])
{
    struct dmlt_layout_spec spec;
    struct dmlt_error err;
    dmlt_layout_spec_init(&spec, rank);
    enum dmlt_status st = dmlt_layout_parse(layout, strlen(layout), rank, spec.order);
    if (st != DMLT_OK)
        return st;
    return dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, rank, sizes, &spec, out, &err);
}

#define CHECK_STRIDES(got, ...)                                                                    \
    do {                                                                                           \
        const uint32_t want_[] = {__VA_ARGS__};                                                    \
        for (size_t i_ = 0; i_ < sizeof want_ / sizeof want_[0]; i_++)                             \
            CHECK_EQ((got)[i_], want_[i_]);                                                        \
    } while (0)

/* DirectML's CalculateStrides, transcribed from the "DirectML helper
 * functions" page (sizes in NCHW order, 32-bit as published). */
static void calculate_strides(bool nhwc, const uint32_t sizes[4], const bool bc[4], uint32_t out[4])
{
    enum { N, C, H, W };
    uint32_t n = bc[N] ? 1 : sizes[N], c = bc[C] ? 1 : sizes[C];
    uint32_t h = bc[H] ? 1 : sizes[H], w = bc[W] ? 1 : sizes[W];
    (void)n;
    if (!nhwc) {
        out[N] = bc[N] ? 0 : c * h * w;
        out[C] = bc[C] ? 0 : h * w;
        out[H] = bc[H] ? 0 : w;
        out[W] = bc[W] ? 0 : 1;
    } else {
        out[N] = bc[N] ? 0 : h * w * c;
        out[H] = bc[H] ? 0 : w * c;
        out[W] = bc[W] ? 0 : c;
        out[C] = bc[C] ? 0 : 1;
    }
}

static void test_documented_examples(void)
{
    uint32_t s[DMLT_MAX_RANK];
    /* "Using strides to express padding and memory layout": {1,1,3,5}. */
    const uint32_t small[4] = {1, 1, 3, 5};
    CHECK(strides_for("nchw", 4, small, s) == DMLT_OK);
    CHECK_STRIDES(s, 15, 15, 5, 1);
    CHECK(strides_for("nhwc", 4, small, s) == DMLT_OK);
    CHECK_STRIDES(s, 15, 1, 5, 1);
    /* 2-D: row-major HW {3,1}; column-major WH {1,2} for a 2x3 tensor. */
    const uint32_t hw[2] = {2, 3};
    CHECK(strides_for("hw", 2, hw, s) == DMLT_OK);
    CHECK_STRIDES(s, 3, 1);
    CHECK(strides_for("wh", 2, hw, s) == DMLT_OK);
    CHECK_STRIDES(s, 1, 2);
    CHECK(strides_for("col-major", 2, hw, s) == DMLT_OK);
    CHECK_STRIDES(s, 1, 2);
    /* DHW 2x2x3: strides {6,3,1}. */
    const uint32_t dhw[3] = {2, 2, 3};
    CHECK(strides_for("dhw", 3, dhw, s) == DMLT_OK);
    CHECK_STRIDES(s, 6, 3, 1);
    /* The example: float16 1,3,224,224 NHWC. */
    const uint32_t img[4] = {1, 3, 224, 224};
    CHECK(strides_for("nhwc", 4, img, s) == DMLT_OK);
    CHECK_STRIDES(s, 150528, 1, 672, 3);

    /* Padding: a 2x3 tensor with an H stride of 5 (A B C x x D E F x x). */
    struct dmlt_layout_spec spec;
    struct dmlt_error err;
    dmlt_layout_spec_init(&spec, 2);
    spec.pad[1] = 2;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_UINT8, 2, hw, &spec, s, &err) == DMLT_OK);
    CHECK_STRIDES(s, 5, 1);
    /* Broadcast along H: every row is the same row (stride 0). */
    dmlt_layout_spec_init(&spec, 2);
    spec.broadcast[0] = true;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_UINT8, 2, hw, &spec, s, &err) == DMLT_OK);
    CHECK_STRIDES(s, 0, 1);
}

static void test_calculate_strides(void)
{
    /* Every broadcast pattern, both layouts, many sizes: the core agrees with
     * DirectML's own helper wherever the helper's 32-bit products fit. */
    for (int iter = 0; iter < 2000; iter++) {
        uint32_t sizes[4];
        for (int i = 0; i < 4; i++)
            sizes[i] = check_range(1, iter < 1000 ? 6 : 300);
        for (unsigned mask = 0; mask < 16; mask++) {
            for (int nhwc = 0; nhwc < 2; nhwc++) {
                struct dmlt_layout_spec spec;
                struct dmlt_error err;
                dmlt_layout_spec_init(&spec, 4);
                CHECK(dmlt_layout_parse(nhwc ? "nhwc" : "nchw", 4, 4, spec.order) == DMLT_OK);
                bool bc[4];
                for (int i = 0; i < 4; i++)
                    bc[i] = spec.broadcast[i] = (mask >> i) & 1;
                uint32_t got[4], want[4];
                CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT16, 4, sizes, &spec, got, &err) ==
                      DMLT_OK);
                calculate_strides(nhwc, sizes, bc, want);
                for (int i = 0; i < 4; i++)
                    if (!CHECK_EQ(got[i], want[i]))
                        fprintf(stderr, "  sizes %u,%u,%u,%u mask %u nhwc %d dim %d\n", sizes[0],
                                sizes[1], sizes[2], sizes[3], mask, nhwc, i);
            }
        }
    }
}

static void test_parse(void)
{
    unsigned o[DMLT_MAX_RANK];
    CHECK(dmlt_layout_parse("NHWC", 4, 4, o) == DMLT_OK && o[0] == 0 && o[1] == 2 && o[2] == 3 &&
          o[3] == 1);
    CHECK(dmlt_layout_parse("ndhwc", 5, 5, o) == DMLT_OK && o[4] == 1);
    CHECK(dmlt_layout_parse("whd", 3, 3, o) == DMLT_OK && o[0] == 2 && o[2] == 0);
    CHECK(dmlt_layout_parse("w", 1, 1, o) == DMLT_OK && o[0] == 0);
    CHECK(dmlt_layout_parse("0,2,3,1", 7, 4, o) == DMLT_OK && o[1] == 2 && o[3] == 1);
    CHECK(dmlt_layout_parse("7,6,5,4,3,2,1,0", 15, 8, o) == DMLT_OK && o[0] == 7);
    CHECK(dmlt_layout_parse("row-major", 9, 8, o) == DMLT_OK && o[7] == 7);
    CHECK(dmlt_layout_parse("col-major", 9, 6, o) == DMLT_OK && o[0] == 5 && o[5] == 0);
    /* Not layouts of that rank. */
    CHECK(dmlt_layout_parse("nhwc", 4, 3, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("nhwn", 4, 4, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("nhw", 3, 4, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("abcdef", 6, 6, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("0,1,1", 5, 3, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("0,1,", 4, 3, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("0,,1", 4, 2, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("0,1,3", 5, 3, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("00000000000000000001,0", 22, 2, o) == DMLT_OK && o[0] == 1);
    CHECK(dmlt_layout_parse("99999999999999999999,0", 22, 2, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("", 0, 2, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("hw", 2, 9, o) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("h\0", 2, 2, o) == DMLT_E_LAYOUT);
}

static void test_modifiers_and_limits(void)
{
    struct dmlt_layout_spec spec;
    struct dmlt_error err;
    uint32_t s[DMLT_MAX_RANK];
    /* Row pitch: float32 rows of 3 elements aligned to 256 bytes = 64 elements. */
    const uint32_t hw[2] = {2, 3};
    dmlt_layout_spec_init(&spec, 2);
    spec.row_pitch_align_bytes = 256;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 2, hw, &spec, s, &err) == DMLT_OK);
    CHECK_STRIDES(s, 64, 1);
    /* int4: 256 bytes hold 512 elements. */
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_INT4, 2, hw, &spec, s, &err) == DMLT_OK);
    CHECK_STRIDES(s, 512, 1);
    /* The row pitch is H's stride: an NHWC row is W x C elements. */
    const uint32_t img[4] = {1, 3, 2, 5};
    dmlt_layout_spec_init(&spec, 4);
    dmlt_layout_parse("nhwc", 4, 4, spec.order);
    spec.row_pitch_align_bytes = 64; /* 16 float32 */
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 4, img, &spec, s, &err) == DMLT_OK);
    /* c: 1; w: 3; h: 5 x 3 = 15 rounded up to 16; n: 16 x 2 = 32. */
    CHECK_STRIDES(s, 32, 1, 16, 3);
    /* Issue 28's case: float16 1,3,224,224 NHWC, rows of 224 x 3 x 2 = 1344
     * bytes padded to 1536 (768 elements), not every pixel to 256 bytes. */
    const uint32_t rgb[4] = {1, 3, 224, 224};
    spec.row_pitch_align_bytes = 256;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT16, 4, rgb, &spec, s, &err) == DMLT_OK);
    CHECK_STRIDES(s, 172032, 1, 768, 3);
    /* Another order of rank 4 (nwhc): the second-innermost memory dim, h. */
    dmlt_layout_parse("nwhc", 4, 4, spec.order);
    spec.row_pitch_align_bytes = 64;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 4, img, &spec, s, &err) == DMLT_OK);
    /* c: 1; h: 3 rounded up to 16; w: 16 x 2 = 32; n: 32 x 5 = 160. */
    CHECK_STRIDES(s, 160, 1, 16, 32);
    dmlt_layout_parse("nhwc", 4, 4, spec.order);
    /* 6 bytes is not a whole number of float32 elements. */
    spec.row_pitch_align_bytes = 6;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 4, img, &spec, s, &err) == DMLT_E_INVALID);

    /* Pad on the outermost memory dim changes no stride: refused. */
    dmlt_layout_spec_init(&spec, 2);
    spec.pad[0] = 4;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 2, hw, &spec, s, &err) == DMLT_E_LAYOUT);
    CHECK_EQ(err.dim, 0);

    /* A stride that does not fit in 32 bits is an error naming the dim. */
    const uint32_t big[3] = {2, 65536, 65536};
    dmlt_layout_spec_init(&spec, 3);
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 3, big, &spec, s, &err) == DMLT_E_RANGE);
    CHECK_EQ(err.dim, 0);
    CHECK_EQ(err.value, (ref_u128)1 << 32);
    /* Just fits: 65535 * 65537 = 4294967295. */
    const uint32_t edge[3] = {2, 65535, 65537};
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 3, edge, &spec, s, &err) == DMLT_OK);
    CHECK_EQ(s[0], 4294967295u);
    /* A size-1 dim whose stride would not fit moves no offset: stride 0. */
    const uint32_t lead1[4] = {1, 1, 65536, 65536};
    dmlt_layout_spec_init(&spec, 4);
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_UINT8, 4, lead1, &spec, s, &err) == DMLT_OK);
    CHECK_STRIDES(s, 0, 0, 65536, 1);
    dmlt_layout_spec_init(&spec, 3);
    /* ...and so does broadcast. */
    spec.broadcast[0] = true;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 3, big, &spec, s, &err) == DMLT_OK);
    CHECK_EQ(s[0], 0);
}

/* Steps order to the next permutation in lexicographic order; false after
 * the last. */
static bool next_permutation(unsigned n, unsigned order[])
{
    int i = (int)n - 2;
    while (i >= 0 && order[i] > order[i + 1])
        i--;
    if (i < 0)
        return false;
    unsigned j = n - 1;
    while (order[j] < order[i])
        j--;
    unsigned t = order[i];
    order[i] = order[j];
    order[j] = t;
    for (unsigned x = (unsigned)i + 1, y = n - 1; x < y; x++, y--) {
        t = order[x];
        order[x] = order[y];
        order[y] = t;
    }
    return true;
}

/* The detection of docs/concepts.md by brute force: every order in lexicographic
 * order; it fits when its packed strides equal the given ones on the dims of
 * size > 1. Returns false when none fits, else the preferred one if it fits,
 * else the first exact match (size-1 dims included), else the first fit. */
static bool brute_detect(unsigned rank, const uint32_t sizes[], const uint32_t strides[],
                         const unsigned preferred[], unsigned out[])
{
    unsigned perm[DMLT_MAX_RANK], fit[DMLT_MAX_RANK], exact[DMLT_MAX_RANK];
    bool any_fit = false, any_exact = false;
    for (unsigned i = 0; i < rank; i++)
        perm[i] = i;
    do {
        uint32_t p[DMLT_MAX_RANK];
        struct dmlt_error err;
        if (dmlt_packed_strides(rank, sizes, perm, p, &err) != DMLT_OK)
            continue;
        bool fits = true, same = true;
        for (unsigned d = 0; d < rank; d++) {
            fits = fits && (sizes[d] == 1 || p[d] == strides[d]);
            same = same && p[d] == strides[d];
        }
        if (!fits)
            continue;
        if (preferred && memcmp(preferred, perm, rank * sizeof perm[0]) == 0) {
            memcpy(out, perm, rank * sizeof perm[0]);
            return true;
        }
        if (!any_fit)
            memcpy(fit, perm, sizeof fit);
        if (same && !any_exact)
            memcpy(exact, perm, sizeof exact);
        any_fit = true;
        any_exact = any_exact || same;
    } while (next_permutation(rank, perm));
    if (any_fit)
        memcpy(out, any_exact ? exact : fit, rank * sizeof out[0]);
    return any_fit;
}

static void shuffle(unsigned n, unsigned v[])
{
    for (unsigned i = n; i-- > 1;) { /* Fisher-Yates */
        unsigned j = check_range(0, i), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* Detection against brute force: the packed strides of random orders of
 * random sizes (many of them 1), often with the strides of size-1 dims
 * changed (they move no element) or one stride of a larger dim nudged, and
 * with or without a preferred order. */
static void test_detect(void)
{
    for (int iter = 0; iter < 10000; iter++) {
        unsigned rank = check_range(1, 7);
        uint32_t sizes[DMLT_MAX_RANK], s[DMLT_MAX_RANK];
        unsigned order[DMLT_MAX_RANK], pref[DMLT_MAX_RANK], found[DMLT_MAX_RANK],
            want[DMLT_MAX_RANK];
        for (unsigned i = 0; i < rank; i++) {
            sizes[i] = check_range(0, 2) == 0 ? check_range(2, 4) : check_range(1, 2);
            order[i] = pref[i] = i;
        }
        shuffle(rank, order);
        shuffle(rank, pref);
        struct dmlt_error err;
        CHECK(dmlt_packed_strides(rank, sizes, order, s, &err) == DMLT_OK);
        switch (check_range(0, 3)) {
        case 0: /* as packed */
            break;
        case 1: /* other strides on size-1 dims */
            for (unsigned d = 0; d < rank; d++)
                if (sizes[d] == 1 && check_range(0, 1))
                    s[d] =
                        check_range(0, 3) == 0 ? check_range(0, 100) : s[check_range(0, rank - 1)];
            break;
        case 2: /* a nudged stride */
            s[check_range(0, rank - 1)] += check_range(0, 1) ? 1 : UINT32_C(4294967295);
            break;
        default: /* small random strides */
            for (unsigned d = 0; d < rank; d++)
                s[d] = check_range(0, 12);
            break;
        }
        const unsigned *p = check_range(0, 1) ? pref : NULL;
        bool got = dmlt_layout_detect_prefer(rank, sizes, s, p, found);
        bool expect = brute_detect(rank, sizes, s, p, want);
        if (!CHECK(got == expect) || !got)
            continue;
        bool same = memcmp(found, want, rank * sizeof found[0]) == 0;
        if (!CHECK(same)) {
            fprintf(stderr, "  rank %u sizes", rank);
            for (unsigned d = 0; d < rank; d++)
                fprintf(stderr, " %u/%u", sizes[d], s[d]);
            fprintf(stderr, ": got");
            for (unsigned d = 0; d < rank; d++)
                fprintf(stderr, " %u", found[d]);
            fprintf(stderr, ", want");
            for (unsigned d = 0; d < rank; d++)
                fprintf(stderr, " %u", want[d]);
            fprintf(stderr, "\n");
        }
        if (p == NULL) {
            unsigned plain[DMLT_MAX_RANK];
            CHECK(dmlt_layout_detect(rank, sizes, s, plain) &&
                  memcmp(plain, found, rank * sizeof found[0]) == 0);
        }
    }
    /* The and the header's examples. */
    unsigned o[DMLT_MAX_RANK];
    const uint32_t small[4] = {1, 1, 3, 5};
    const uint32_t nchw[4] = {15, 15, 5, 1}, nhwc[4] = {15, 1, 5, 1}, bc[4] = {15, 0, 5, 1};
    CHECK(dmlt_layout_detect(4, small, nchw, o) && o[0] == 0 && o[1] == 1 && o[2] == 2);
    CHECK(dmlt_layout_detect(4, small, nhwc, o) && o[0] == 0 && o[1] == 2 && o[3] == 1);
    /* c's stride 0 is no packed stride of any order: the first, nchw. */
    CHECK(dmlt_layout_detect(4, small, bc, o) && o[0] == 0 && o[1] == 1 && o[2] == 2);
    const uint32_t s1344[4] = {1, 3, 4, 4}, st1344[4] = {0, 16, 4, 1};
    CHECK(dmlt_layout_detect(4, s1344, st1344, o) && o[0] == 0 && o[1] == 1 && o[2] == 2);
    const uint32_t s2144[4] = {2, 1, 4, 4}, st2144[4] = {16, 1, 4, 1};
    CHECK(dmlt_layout_detect(4, s2144, st2144, o) && o[0] == 0 && o[1] == 2 && o[2] == 3 &&
          o[3] == 1);
    /* ... and with nchw given, which fits as well (C = 1). */
    const unsigned given[4] = {0, 1, 2, 3};
    CHECK(dmlt_layout_detect_prefer(4, s2144, st2144, given, o) && o[1] == 1);
    /* A preferred order that does not fit is not taken. */
    const unsigned hwcn[4] = {2, 3, 1, 0};
    CHECK(dmlt_layout_detect_prefer(4, s2144, st2144, hwcn, o) && o[3] == 1);
    /* A broadcast dim of size > 1 fits no layout. */
    const uint32_t s2344[4] = {2, 3, 4, 4}, b2344[4] = {48, 0, 4, 1};
    CHECK(!dmlt_layout_detect(4, s2344, b2344, o));
    /* A size-1 dim's packed stride past 2^32-1 is 0 (dmlt_strides_from_layout):
     * outermost, c's packed stride 2^32 is written 0, an exact match; n's
     * 65536 is the packed stride between h and w: c,h,n,w. */
    const uint32_t big[4] = {1, 1, 65536, 65536}, bigs[4] = {65536, 0, 65536, 1};
    CHECK(dmlt_layout_detect(4, big, bigs, o) && o[0] == 1 && o[1] == 2 && o[2] == 0);
}

/* Strides from any layout and its modifiers follow that layout's order;
 * the strides of another order, told apart by two dims of size > 1, do
 * not. */
static void test_follow_order(void)
{
    for (int iter = 0; iter < 5000; iter++) {
        unsigned rank = check_range(1, 8);
        uint32_t sizes[DMLT_MAX_RANK], s[DMLT_MAX_RANK];
        struct dmlt_layout_spec spec;
        dmlt_layout_spec_init(&spec, rank);
        for (unsigned i = 0; i < rank; i++)
            sizes[i] = check_range(1, 4);
        for (unsigned i = rank; i-- > 1;) {
            unsigned j = check_range(0, i), t = spec.order[i];
            spec.order[i] = spec.order[j];
            spec.order[j] = t;
        }
        for (unsigned i = 0; i < rank; i++) {
            spec.broadcast[i] = check_range(0, 5) == 0;
            if (i != spec.order[0]) /* no padding after the outermost dim */
                spec.pad[i] = check_range(0, 3) == 0 ? check_range(1, 5) : 0;
        }
        struct dmlt_error err;
        if (dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, rank, sizes, &spec, s, &err) != DMLT_OK)
            continue;
        CHECK(dmlt_strides_follow_order(rank, sizes, s, spec.order));
        /* Swap the two outermost dims that count: no longer followed. */
        int first = -1, second = -1;
        for (unsigned i = 0; i < rank; i++) {
            unsigned d = spec.order[i];
            if (sizes[d] <= 1 || s[d] == 0)
                continue;
            if (first < 0)
                first = (int)i;
            else if (second < 0)
                second = (int)i;
        }
        if (second >= 0) {
            unsigned swapped[DMLT_MAX_RANK];
            memcpy(swapped, spec.order, sizeof swapped);
            swapped[first] = spec.order[second];
            swapped[second] = spec.order[first];
            CHECK(!dmlt_strides_follow_order(rank, sizes, s, swapped));
        }
    }
    const uint32_t sizes[2] = {2, 3};
    const uint32_t packed[2] = {3, 1}, padded[2] = {5, 1}, col[2] = {1, 2}, bcast[2] = {0, 1};
    const unsigned *o_hw = (const unsigned[]){0, 1}, *o_wh = (const unsigned[]){1, 0};
    CHECK(dmlt_strides_follow_order(2, sizes, packed, o_hw));
    CHECK(dmlt_strides_follow_order(2, sizes, padded, o_hw));
    CHECK(dmlt_strides_follow_order(2, sizes, bcast, o_hw));
    CHECK(!dmlt_strides_follow_order(2, sizes, col, o_hw));
    CHECK(dmlt_strides_follow_order(2, sizes, col, o_wh));
    CHECK(!dmlt_strides_follow_order(2, sizes, packed, o_wh));
}

/* --row-pitch-align against brute force: every element of random tensors
 * in the image layouts and in random orders, with no two at one offset,
 * every row starting on the alignment, and no row stride larger than a
 * row needs. A row is what lies inside the row dim in memory order: the
 * row dim is H in nchw, nhwc, ncdhw and ndhwc (issue 28), the
 * second-innermost memory dim in any other order. */
static bool is_image_layout(unsigned rank, const unsigned order[])
{
    static const char *const names[] = {"nchw", "nhwc", "ncdhw", "ndhwc"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        unsigned o[DMLT_MAX_RANK];
        if (dmlt_layout_parse(names[i], strlen(names[i]), rank, o) == DMLT_OK &&
            memcmp(o, order, rank * sizeof o[0]) == 0)
            return true;
    }
    return false;
}

static void test_row_pitch_bruteforce(void)
{
    static const enum dmlt_dtype types[] = {DMLT_DTYPE_UINT8, DMLT_DTYPE_FLOAT16,
                                            DMLT_DTYPE_FLOAT32, DMLT_DTYPE_FLOAT64,
                                            DMLT_DTYPE_INT4};
    static const uint32_t aligns[] = {8, 16, 32, 64, 256};
    static unsigned char seen[1 << 23]; /* past the largest offset these sizes reach */
    unsigned image_cases = 0;
    for (int iter = 0; iter < 3000; iter++) {
        const unsigned rank = check_range(2, 5);
        uint32_t sizes[DMLT_MAX_RANK];
        uint64_t count = 1;
        for (unsigned d = 0; d < rank; d++) {
            sizes[d] = check_range(1, 6);
            count *= sizes[d];
        }
        struct dmlt_layout_spec spec;
        dmlt_layout_spec_init(&spec, rank);
        const char *image = rank == 4   ? (check_rand() % 2 ? "nchw" : "nhwc")
                            : rank == 5 ? (check_rand() % 2 ? "ncdhw" : "ndhwc")
                                        : NULL;
        if (image && check_rand() % 2) {
            dmlt_layout_parse(image, strlen(image), rank, spec.order);
        } else {
            for (unsigned i = rank; i-- > 1;) {
                unsigned j = check_range(0, i), tmp = spec.order[i];
                spec.order[i] = spec.order[j];
                spec.order[j] = tmp;
            }
        }
        const enum dmlt_dtype dtype = types[check_rand() % 5];
        const unsigned bits = dmlt_dtype_get(dtype)->bits;
        spec.row_pitch_align_bytes = aligns[check_rand() % 5];
        uint32_t st[DMLT_MAX_RANK];
        struct dmlt_error err;
        CHECK(dmlt_strides_from_layout(dtype, rank, sizes, &spec, st, &err) == DMLT_OK);

        /* The row dim, by the definition; the dims inside it in memory order. */
        unsigned row_pos = rank - 2;
        const bool img = is_image_layout(rank, spec.order);
        image_cases += img;
        for (unsigned k = 0; img && k < rank; k++)
            if (spec.order[k] == rank - 2) /* h: n,c,h,w and n,c,d,h,w */
                row_pos = k;
        bool inner[DMLT_MAX_RANK] = {false};
        for (unsigned k = row_pos + 1; k < rank; k++)
            inner[spec.order[k]] = true;

        uint64_t inner_count = 1, outer_count = 1;
        for (unsigned d = 0; d < rank; d++)
            *(inner[d] ? &inner_count : &outer_count) *= sizes[d];
        const uint64_t pitch = st[spec.order[row_pos]];

        /* Every element: offsets distinct, rows aligned, the span of a row. */
        static uint64_t offs[6 * 6 * 6 * 6 * 6];
        uint64_t row_span = 0;
        uint32_t c[DMLT_MAX_RANK] = {0};
        for (uint64_t e = 0; e < count; e++) {
            uint64_t off = 0, rem = e;
            bool row_start = true, in_row = true;
            for (unsigned d = rank; d-- > 0;) {
                c[d] = (uint32_t)(rem % sizes[d]);
                rem /= sizes[d];
                off += (uint64_t)c[d] * st[d];
                if (inner[d] && c[d])
                    row_start = false;
                if (!inner[d] && c[d])
                    in_row = false;
            }
            CHECK(off < sizeof seen && !seen[off]);
            if (off < sizeof seen)
                seen[off] = 1;
            offs[e] = off;
            if (row_start) { /* rows one pitch apart, packed, each aligned */
                CHECK_EQ(off * bits % (spec.row_pitch_align_bytes * 8u), 0);
                CHECK(off % pitch == 0 && off / pitch < outer_count);
            }
            if (in_row && off + 1 > row_span)
                row_span = off + 1;
        }
        for (uint64_t e = 0; e < count; e++) /* seen[] all 0 again */
            if (offs[e] < sizeof seen)
                seen[offs[e]] = 0;
        /* The row dim's stride holds a row, and one alignment less would not. */
        const uint64_t per = spec.row_pitch_align_bytes * 8u / bits;
        CHECK(pitch >= row_span && pitch % per == 0 && pitch - per < row_span);
        CHECK_EQ(row_span, inner_count); /* no padding inside a row */
    }
    CHECK(image_cases > 500);
}

int main(void)
{
    test_documented_examples();
    test_calculate_strides();
    test_parse();
    test_modifiers_and_limits();
    test_detect();
    test_follow_order();
    test_row_pitch_bruteforce();
    return check_finish("test_layout");
}
