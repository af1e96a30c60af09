/* Sizes, properties and diagnostics on DirectML's documented examples and on
 * the edges: 4-bit types, values past 2^64, the published helper's wrap. */
#include "check.h"

static struct dmlt_tensor tensor(enum dmlt_dtype dtype, unsigned rank, const uint32_t *sizes,
                                 const uint32_t *strides)
{
    struct dmlt_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = dtype;
    t.rank = rank;
    memcpy(t.sizes, sizes, rank * sizeof *sizes);
    memcpy(t.strides, strides, rank * sizeof *strides);
    return t;
}

static bool has_diag(const struct dmlt_report *r, enum dmlt_diag_id id, dmlt_u128 *value)
{
    for (unsigned i = 0; i < r->diag_count; i++) {
        if (r->diags[i].id == id) {
            if (value)
                *value = r->diags[i].value;
            return true;
        }
    }
    return false;
}

static void test_documented(void)
{
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    /* float16 1,3,224,224 NHWC: 301056 bytes, packed. */
    const uint32_t img[4] = {1, 3, 224, 224}, img_s[4] = {150528, 1, 672, 3};
    struct dmlt_tensor t = tensor(DMLT_DTYPE_FLOAT16, 4, img, img_s);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK_EQ(r.element_count, 150528);
    CHECK_EQ(r.index_of_last_element, 150527);
    CHECK_EQ(r.minimum_implied_size_bytes, 301056);
    CHECK_EQ(r.packed_size_bytes, 301056);
    CHECK_EQ(r.padded_size_bytes, 301056);
    CHECK_EQ(r.total_tensor_size_bytes, 301056);
    CHECK(r.packed == DMLT_YES && r.padded == DMLT_NO && r.overlapping == DMLT_NO);
    CHECK(r.diag_count == 0);
    CHECK(r.layout_detected && r.detected_order[1] == 2 && r.detected_order[3] == 1);

    /* DHW 2x2x3, strides {6,3,1}: element H at (1,0,1) is at offset 7. */
    const uint32_t dhw[3] = {2, 2, 3}, dhw_s[3] = {6, 3, 1}, h[3] = {1, 0, 1};
    t = tensor(DMLT_DTYPE_UINT8, 3, dhw, dhw_s);
    dmlt_u128 off;
    CHECK(dmlt_offset(&t, h, &off, &err) == DMLT_OK);
    CHECK_EQ(off, 7);

    /* 2x3 with H stride 5 (A B C x x D E F x x): 8 elements reached, padded.
     * docs/concepts.md: float32 gives minimum 32 bytes and padded 40. */
    const uint32_t hw[2] = {2, 3}, pad_s[2] = {5, 1};
    t = tensor(DMLT_DTYPE_FLOAT32, 2, hw, pad_s);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK_EQ(r.index_of_last_element, 7);
    CHECK_EQ(r.minimum_implied_size_bytes, 32);
    CHECK_EQ(r.padded_size_bytes, 40);
    CHECK_EQ(r.packed_size_bytes, 24);
    CHECK(r.padded == DMLT_YES && r.packed == DMLT_NO && r.overlapping == DMLT_NO);
    CHECK(!r.layout_detected);
    CHECK(has_diag(&r, DMLT_DIAG_RANK_NOT_4_OR_5, NULL));

    /* 2x3 broadcast along H (A B C / A B C): 3 elements stored. */
    const uint32_t bc_s[2] = {0, 1};
    t = tensor(DMLT_DTYPE_UINT8, 2, hw, bc_s);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK_EQ(r.index_of_last_element, 2);
    CHECK_EQ(r.minimum_implied_size_bytes, 4); /* 3 bytes, rounded to a DWORD */
    CHECK(r.broadcast && r.broadcast_dims[0] && !r.broadcast_dims[1]);
    CHECK(r.overlapping == DMLT_YES && r.packed == DMLT_NO && r.padded == DMLT_NO);
}

static void test_four_bit(void)
{
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    /* int4, 3 elements: 12 bits -> 2 bytes -> 4 after rounding. */
    const uint32_t n3[1] = {3}, s1[1] = {1};
    struct dmlt_tensor t = tensor(DMLT_DTYPE_INT4, 1, n3, s1);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK_EQ(r.minimum_implied_size_bytes, 4);
    CHECK(has_diag(&r, DMLT_DIAG_HELPER_DTYPE, NULL));
    /* uint4 1x9 elements = 36 bits = 5 bytes -> 8. */
    const uint32_t n9[2] = {1, 9}, s9[2] = {9, 1};
    t = tensor(DMLT_DTYPE_UINT4, 2, n9, s9);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK_EQ(r.minimum_implied_size_bytes, 8);
    CHECK_EQ(r.packed_size_bytes, 8);
    bool wraps;
    CHECK_EQ(dmlt_published_helper_size(&t, &wraps), 0); /* the helper's default: 0 */
}

static void test_big_values(void)
{
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    /* float64 {2^32-1, 2^32-1}: every byte count is past 2^64 and exact. */
    const uint32_t sz[2] = {4294967295u, 4294967295u}, st[2] = {4294967295u, 1};
    struct dmlt_tensor t = tensor(DMLT_DTYPE_FLOAT64, 2, sz, st);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    const ref_u128 n = (ref_u128)4294967295u * 4294967295u;
    CHECK_EQ(r.element_count, n);
    CHECK(R(r.element_count) > ((ref_u128)1 << 53));
    CHECK_EQ(r.index_of_last_element, n - 1);
    CHECK_EQ(r.minimum_implied_size_bytes, n * 8);
    CHECK(R(r.minimum_implied_size_bytes) > (ref_u128)UINT64_MAX);
    CHECK(r.packed == DMLT_YES);
    dmlt_u128 helper = {0, 0};
    /* The helper's 32-bit index: (-2)(-1) + (-2)(1) = 0 mod 2^32 -> 8 bytes. */
    CHECK(has_diag(&r, DMLT_DIAG_HELPER_OVERFLOW, &helper));
    CHECK_EQ(helper, 8);
    CHECK(has_diag(&r, DMLT_DIAG_OVER_UINT32_ELEMENTS, NULL));

    /* Just inside the helper's range: no overflow diagnostic, same answer. */
    const uint32_t sz2[1] = {4294967295u}, st2[1] = {1};
    t = tensor(DMLT_DTYPE_UINT8, 1, sz2, st2);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK(!has_diag(&r, DMLT_DIAG_HELPER_OVERFLOW, NULL));
    bool wraps;
    CHECK_EQ(dmlt_published_helper_size(&t, &wraps), r.minimum_implied_size_bytes);
    CHECK(!wraps);
    /* One past: index 2^32 wraps to 0 in the helper. */
    const uint32_t sz3[2] = {2, 4294967295u}, st3[2] = {2, 1};
    t = tensor(DMLT_DTYPE_UINT8, 2, sz3, st3);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK_EQ(r.index_of_last_element, (ref_u128)1 << 32);
    CHECK(has_diag(&r, DMLT_DIAG_HELPER_OVERFLOW, &helper));
    CHECK_EQ(helper, 4);

    /* Eight dims of 2^32-1: the element count passes 2^128 and is refused. */
    uint32_t s8[8], z8[8];
    for (int i = 0; i < 8; i++) {
        s8[i] = 4294967295u;
        z8[i] = 0;
    }
    t = tensor(DMLT_DTYPE_UINT8, 8, s8, z8);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_RANGE);
    /* Four of them fit in 128 bits, but not their byte count. */
    t = tensor(DMLT_DTYPE_UINT8, 4, s8, z8);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_RANGE);
    t = tensor(DMLT_DTYPE_FLOAT64, 3, s8, z8);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK(r.broadcast && r.overlapping == DMLT_YES);
}

static void test_total_and_checks(void)
{
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    const uint32_t hw[2] = {2, 3}, st[2] = {3, 1};
    struct dmlt_tensor t = tensor(DMLT_DTYPE_FLOAT32, 2, hw, st);
    uint64_t total = 20;
    CHECK(dmlt_report_compute(&t, &total, &r, &err) == DMLT_OK);
    CHECK_EQ(r.total_tensor_size_bytes, 20);
    dmlt_u128 v = {0, 0};
    CHECK(has_diag(&r, DMLT_DIAG_TOTAL_TOO_SMALL, &v));
    CHECK_EQ(v, 24);
    total = 24;
    CHECK(dmlt_report_compute(&t, &total, &r, &err) == DMLT_OK);
    CHECK(!has_diag(&r, DMLT_DIAG_TOTAL_TOO_SMALL, NULL));

    t.rank = 0;
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_RANK);
    t.rank = 9;
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_RANK);
    t.rank = 2;
    t.sizes[1] = 0;
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_ZERO_SIZE);
    CHECK_EQ(err.dim, 1);
    t.sizes[1] = 3;
    t.dtype = (enum dmlt_dtype)99;
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_DTYPE);

    /* Offsets: out of range names the dim and its size. */
    t.dtype = DMLT_DTYPE_FLOAT32;
    const uint32_t c[2] = {1, 3};
    dmlt_u128 off;
    CHECK(dmlt_offset(&t, c, &off, &err) == DMLT_E_COORD);
    CHECK_EQ(err.dim, 1);
    CHECK_EQ(err.value, 3);
    CHECK_EQ(err.limit, 3);
}

int main(void)
{
    test_documented();
    test_four_bit();
    test_big_values();
    test_total_and_checks();
    return check_finish("test_report");
}
