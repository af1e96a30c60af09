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
    /* Pitch applies to the second-innermost memory dim: NHWC rows are W*C. */
    const uint32_t img[4] = {1, 3, 2, 5};
    dmlt_layout_spec_init(&spec, 4);
    dmlt_layout_parse("nhwc", 4, 4, spec.order);
    spec.row_pitch_align_bytes = 64; /* 16 float32 */
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 4, img, &spec, s, &err) == DMLT_OK);
    /* c: 1; w: 3 rounded up to 16; h: 16 x 5 = 80; n: 80 x 2 = 160. */
    CHECK_STRIDES(s, 160, 1, 80, 16);
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

/* Detection: the packed strides of every order of random sizes are detected
 * as an order whose packed strides are the same; ties prefer logical order. */
static void test_detect(void)
{
    for (int iter = 0; iter < 5000; iter++) {
        unsigned rank = check_range(1, 8);
        uint32_t sizes[DMLT_MAX_RANK], s[DMLT_MAX_RANK], s2[DMLT_MAX_RANK];
        unsigned order[DMLT_MAX_RANK], found[DMLT_MAX_RANK];
        for (unsigned i = 0; i < rank; i++) {
            sizes[i] = check_range(1, 4);
            order[i] = i;
        }
        for (unsigned i = rank; i-- > 1;) { /* Fisher-Yates */
            unsigned j = check_range(0, i), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        struct dmlt_error err;
        CHECK(dmlt_packed_strides(rank, sizes, order, s, &err) == DMLT_OK);
        if (!CHECK(dmlt_layout_detect(rank, sizes, s, found)))
            continue;
        CHECK(dmlt_packed_strides(rank, sizes, found, s2, &err) == DMLT_OK);
        for (unsigned i = 0; i < rank; i++)
            CHECK_EQ(s2[i], s[i]);
        /* Perturbing one stride of a dim of size > 1 breaks packing. */
        for (unsigned d = 0; d < rank; d++) {
            if (sizes[d] > 1) {
                s[d] += 1;
                if (dmlt_layout_detect(rank, sizes, s, found)) {
                    CHECK(dmlt_packed_strides(rank, sizes, found, s2, &err) == DMLT_OK);
                    bool same = true;
                    for (unsigned i = 0; i < rank; i++)
                        same = same && s2[i] == s[i];
                    CHECK(same);
                }
                break;
            }
        }
    }
    unsigned o[DMLT_MAX_RANK];
    const uint32_t small[4] = {1, 1, 3, 5};
    const uint32_t nchw[4] = {15, 15, 5, 1}, nhwc[4] = {15, 1, 5, 1}, bc[4] = {15, 0, 5, 1};
    CHECK(dmlt_layout_detect(4, small, nchw, o) && o[0] == 0 && o[1] == 1 && o[2] == 2);
    CHECK(dmlt_layout_detect(4, small, nhwc, o) && o[0] == 0 && o[1] == 2 && o[3] == 1);
    CHECK(!dmlt_layout_detect(4, small, bc, o));
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

int main(void)
{
    test_documented_examples();
    test_calculate_strides();
    test_parse();
    test_modifiers_and_limits();
    test_detect();
    test_follow_order();
    return check_finish("test_layout");
}
