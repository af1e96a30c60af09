/* The library at its limits and on arguments it must refuse: ranks 0 and 9,
 * unknown data types, orders that are not permutations, zero sizes, values
 * at the edge of 128 bits, the overlap search at its work cap, and the
 * names of every status, diagnostic and check including out-of-range ids.
 * Each entry point refuses bad input with the documented status instead of
 * reading past an array or computing a wrapped number. */
#include "check.h"

#define U128_MAX (~(ref_u128)0)

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
            *value = r->diags[i].value;
            return true;
        }
    }
    return false;
}

/* Bad ranks, types, orders and sizes for the layout functions. */
static void test_layout_refusals(void)
{
    const uint32_t sizes[DMLT_MAX_RANK] = {2, 3, 4, 5, 1, 1, 1, 1};
    uint32_t strides[DMLT_MAX_RANK];
    struct dmlt_error err;
    struct dmlt_layout_spec spec;
    unsigned order[DMLT_MAX_RANK];

    CHECK(dmlt_dim_letters(0) == NULL);
    CHECK(dmlt_dim_letters(6) == NULL);
    CHECK(dmlt_dim_letters(DMLT_MAX_RANK + 1) == NULL);
    CHECK_STR(dmlt_dim_letters(5), "ncdhw");

    dmlt_layout_spec_init(&spec, 4);
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_UNKNOWN, 4, sizes, &spec, strides, &err) ==
          DMLT_E_DTYPE);
    CHECK(dmlt_strides_from_layout((enum dmlt_dtype)(DMLT_DTYPE_COUNT + 1), 4, sizes, &spec,
                                   strides, &err) == DMLT_E_DTYPE);
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 0, sizes, &spec, strides, &err) ==
          DMLT_E_RANK);
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, DMLT_MAX_RANK + 1, sizes, &spec, strides,
                                   &err) == DMLT_E_RANK);
    /* An order that repeats a dimension, or names one past the rank. */
    spec.order[2] = 1;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 4, sizes, &spec, strides, &err) ==
          DMLT_E_LAYOUT);
    spec.order[2] = 4;
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 4, sizes, &spec, strides, &err) ==
          DMLT_E_LAYOUT);
    /* A zero size names its dimension. */
    const uint32_t zero[3] = {2, 0, 3};
    dmlt_layout_spec_init(&spec, 3);
    CHECK(dmlt_strides_from_layout(DMLT_DTYPE_FLOAT32, 3, zero, &spec, strides, &err) ==
          DMLT_E_ZERO_SIZE);
    CHECK_EQ(err.dim, 1);

    /* dmlt_packed_strides checks the rank before it copies the order. */
    const unsigned identity[DMLT_MAX_RANK] = {0, 1, 2, 3, 4, 5, 6, 7};
    CHECK(dmlt_packed_strides(0, sizes, identity, strides, &err) == DMLT_E_RANK);
    CHECK(dmlt_packed_strides(DMLT_MAX_RANK + 1, sizes, identity, strides, &err) == DMLT_E_RANK);
    CHECK(dmlt_packed_strides(DMLT_MAX_RANK, sizes, identity, strides, &err) == DMLT_OK);
    CHECK(strides[7] == 1 && strides[3] == 1 && strides[2] == 5 && strides[0] == 60);

    /* Detection refuses ranks 0 and 9, and strides no order packs. */
    CHECK(!dmlt_layout_detect(0, sizes, strides, order));
    CHECK(!dmlt_layout_detect(DMLT_MAX_RANK + 1, sizes, strides, order));
    const uint32_t gap[2] = {4, 1}; /* sizes 2,3: row stride 4 is padded */
    CHECK(!dmlt_layout_detect(2, sizes, gap, order));

    /* Parsing: no text, ranks 0 and 9, indices past the rank or past 7. */
    CHECK(dmlt_layout_parse("nchw", 0, 4, order) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("w", 1, 0, order) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("0,1,2,3,4,5,6,7,8", 17, DMLT_MAX_RANK + 1, order) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("0,1,2,3,4,5,6,9", 15, DMLT_MAX_RANK, order) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("0,1,2,3,4,5,7,16", 16, DMLT_MAX_RANK, order) == DMLT_E_LAYOUT);
    CHECK(dmlt_layout_parse("7,6,5,4,3,2,1,0", 15, DMLT_MAX_RANK, order) == DMLT_OK);
    CHECK(order[0] == 7 && order[7] == 0);
    /* Only the first len bytes count: "nchw" of "nchwx". */
    CHECK(dmlt_layout_parse("nchwx", 4, 4, order) == DMLT_OK);
    CHECK(dmlt_layout_parse("nch\0", 4, 4, order) == DMLT_E_LAYOUT);
}

/* Every entry point refuses a tensor dmlt_tensor_check refuses. */
static void test_tensor_refusals(void)
{
    const uint32_t sizes[DMLT_MAX_RANK] = {2, 3, 1, 1, 1, 1, 1, 1}, strides[DMLT_MAX_RANK] = {0};
    const uint32_t coord[DMLT_MAX_RANK] = {0};
    struct dmlt_error err;
    struct dmlt_report r = DMLT_REPORT_INIT;
    dmlt_u128 off;
    uint64_t found = 99;
    struct dmlt_walk w = DMLT_WALK_INIT;

    struct dmlt_tensor t = tensor(DMLT_DTYPE_FLOAT32, 2, sizes, strides);
    t.rank = 0;
    CHECK(dmlt_tensor_check(&t, &err) == DMLT_E_RANK);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_RANK);
    CHECK(dmlt_offset(&t, coord, &off, &err) == DMLT_E_RANK);
    CHECK(dmlt_locate(&t, P(0), 100, NULL, NULL, &found) == DMLT_E_RANK && found == 0);
    CHECK(dmlt_walk_start(&w, &t, 0) == DMLT_E_RANK);
    t.rank = DMLT_MAX_RANK + 1;
    CHECK(dmlt_tensor_check(&t, &err) == DMLT_E_RANK);
    CHECK_EQ(err.value, DMLT_MAX_RANK + 1);
    CHECK_EQ(err.limit, DMLT_MAX_RANK);

    t = tensor((enum dmlt_dtype)0, 2, sizes, strides);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_DTYPE);
    CHECK(dmlt_offset(&t, coord, &off, &err) == DMLT_E_DTYPE);
    t.dtype = (enum dmlt_dtype)(DMLT_DTYPE_COUNT + 1);
    CHECK(dmlt_locate(&t, P(0), 100, NULL, NULL, &found) == DMLT_E_DTYPE);
    /* The published helper knows no such type: 0, as it returns. */
    bool wraps = true;
    CHECK_EQ(dmlt_published_helper_size(&t, &wraps), 0);
    CHECK(!wraps);

    const uint32_t zero[3] = {2, 3, 0};
    t = tensor(DMLT_DTYPE_UINT8, 3, zero, strides);
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_ZERO_SIZE);
    CHECK_EQ(err.dim, 2);
    CHECK(dmlt_walk_start(&w, &t, 0) == DMLT_E_ZERO_SIZE);
}

/* Byte offsets and element counts at the edge of 128 bits. */
static void test_128_bit_edges(void)
{
    dmlt_u128 byte, first;
    unsigned nibble, count, in_elem;
    /* k x 64 bits fits up to k = 2^122 - 1. */
    const ref_u128 k_max = ((ref_u128)1 << 122) - 1;
    CHECK(dmlt_byte_offset(DMLT_DTYPE_FLOAT64, P(k_max), UINT64_MAX, &byte, &nibble) == DMLT_OK);
    CHECK(R(byte) == k_max * 8 + UINT64_MAX && nibble == 0);
    CHECK(dmlt_byte_offset(DMLT_DTYPE_FLOAT64, P(k_max + 1), 0, &byte, &nibble) == DMLT_E_RANGE);
    CHECK(dmlt_byte_offset(DMLT_DTYPE_INT4, P(U128_MAX), 0, &byte, &nibble) == DMLT_E_RANGE);
    CHECK(dmlt_byte_offset(DMLT_DTYPE_INT4, P(U128_MAX / 4), 0, &byte, &nibble) == DMLT_OK);
    CHECK(R(byte) == U128_MAX / 8 && nibble == 1);
    CHECK(dmlt_byte_offset(DMLT_DTYPE_UNKNOWN, P(0), 0, &byte, &nibble) == DMLT_E_DTYPE);

    /* Two 4-bit elements a byte: byte b holds elements 2b and 2b+1. */
    CHECK(dmlt_elements_at_byte(DMLT_DTYPE_UINT4, P(U128_MAX / 2), &first, &count, &in_elem) ==
          DMLT_OK);
    CHECK(R(first) == U128_MAX - 1 && count == 2 && in_elem == 0);
    CHECK(dmlt_elements_at_byte(DMLT_DTYPE_UINT4, P(U128_MAX / 2 + 1), &first, &count, &in_elem) ==
          DMLT_E_RANGE);
    CHECK(dmlt_elements_at_byte((enum dmlt_dtype)99, P(0), &first, &count, &in_elem) ==
          DMLT_E_DTYPE);
    CHECK(dmlt_elements_at_byte(DMLT_DTYPE_FLOAT64, P(U128_MAX), &first, &count, &in_elem) ==
          DMLT_OK);
    CHECK(R(first) == U128_MAX / 8 && count == 1 && in_elem == 7);

    /* 8 dims of 2^32-1 elements: the count passes 2^128. With strides
     * that are not nested, the overlap test's pigeonhole count passes
     * 2^128 too: they overlap (all strides 1). */
    uint32_t sizes[DMLT_MAX_RANK], strides[DMLT_MAX_RANK];
    for (unsigned d = 0; d < DMLT_MAX_RANK; d++) {
        sizes[d] = UINT32_MAX;
        strides[d] = 1;
    }
    struct dmlt_tensor t = tensor(DMLT_DTYPE_UINT8, DMLT_MAX_RANK, sizes, strides);
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_E_RANGE);
    CHECK_EQ(err.dim, 4); /* (2^32-1)^5 is the first product past 2^128 */
    CHECK(dmlt_overlapping(&t, 10) == DMLT_YES);
}

/* The overlap search stops at its work cap with "unknown", never with a
 * wrong answer, and the report says so. */
static void test_overlap_cap(void)
{
    /* sizes 3,3 strides 3,2: not nested (3 <= 2x2), no pigeonhole (9 <= 11
     * offsets), and no overlap: 3a + 2b = 0 needs |b| = 3. */
    const uint32_t s33[2] = {3, 3}, st[2] = {3, 2};
    struct dmlt_tensor t = tensor(DMLT_DTYPE_UINT8, 2, s33, st);
    CHECK(dmlt_overlapping(&t, 1) == DMLT_UNKNOWN);
    CHECK(dmlt_overlapping(&t, 1000) == DMLT_NO);
    /* With 4 rows, (2,0) and (0,3) share offset 6. */
    const uint32_t s44[2] = {4, 4};
    t = tensor(DMLT_DTYPE_UINT8, 2, s44, st);
    CHECK(dmlt_overlapping(&t, 1) == DMLT_UNKNOWN);
    CHECK(dmlt_overlapping(&t, 1000) == DMLT_YES);

    /* Eight dims of 8 with large, unrelated strides: about 15^7 search
     * nodes, past DMLT_OVERLAP_WORK_CAP, so the report cannot say. */
    const uint32_t sizes[DMLT_MAX_RANK] = {8, 8, 8, 8, 8, 8, 8, 8};
    const uint32_t strides[DMLT_MAX_RANK] = {1290852541u, 3066988985u, 2717401112u, 1865455665u,
                                             1182811308u, 2730087285u, 2385463286u, 1531287043u};
    t = tensor(DMLT_DTYPE_UINT8, DMLT_MAX_RANK, sizes, strides);
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    CHECK(dmlt_report_compute(&t, NULL, &r, &err) == DMLT_OK);
    CHECK(r.overlapping == DMLT_UNKNOWN);
    CHECK(r.packed == DMLT_UNKNOWN && r.padded == DMLT_UNKNOWN);
    dmlt_u128 v = {0, 0};
    CHECK(has_diag(&r, DMLT_DIAG_OVERLAP_UNKNOWN, &v));
    CHECK_EQ(v, DMLT_OVERLAP_WORK_CAP);
    CHECK(dmlt_diag_severity(DMLT_DIAG_OVERLAP_UNKNOWN) == DMLT_WARNING);
    /* Everything else is still exact. */
    CHECK_EQ(r.element_count, 16777216);
    ref_u128 last = 0;
    for (unsigned d = 0; d < DMLT_MAX_RANK; d++)
        last += (ref_u128)7 * strides[d];
    CHECK_EQ(r.index_of_last_element, last);
}

/* A descriptor too broken to measure fails the size rules, not the run. */
static void test_validate_unmeasured(void)
{
    const uint32_t sizes[2] = {2, 3}, strides[2] = {3, 1};
    struct dmlt_desc d;
    memset(&d, 0, sizeof d);
    d.t = tensor((enum dmlt_dtype)0, 2, sizes, strides);
    struct dmlt_check out[DMLT_CHECK_COUNT];
    CHECK(!dmlt_validate(&d, 2, out, DMLT_CHECK_COUNT));
    CHECK(out[DMLT_CHECK_RANK].passed && out[DMLT_CHECK_SIZES_NONZERO].passed);
    CHECK(!out[DMLT_CHECK_TOTAL_MINIMUM].passed);
    CHECK(!out[DMLT_CHECK_TOTAL_ELEMENTS].passed);
    CHECK_EQ(out[DMLT_CHECK_HELPER].limit, 0); /* no minimum to compare with */
    /* Rank 9: its sizes are not read, the rank rule fails. */
    d.t.dtype = DMLT_DTYPE_FLOAT32;
    d.t.rank = DMLT_MAX_RANK + 1;
    CHECK(!dmlt_validate(&d, 0, out, DMLT_CHECK_COUNT));
    CHECK(!out[DMLT_CHECK_RANK].passed && out[DMLT_CHECK_SIZES_NONZERO].passed);
    CHECK(out[DMLT_CHECK_STRIDES_COUNT].passed); /* none given */
    CHECK(!out[DMLT_CHECK_TOTAL_MINIMUM].passed);
    /* Alignment 0 is "none": it passes, and so does any base offset. */
    d.t.rank = 2;
    d.base_offset_bytes = 48;
    CHECK(dmlt_validate(&d, 2, out, DMLT_CHECK_COUNT));
    CHECK(out[DMLT_CHECK_ALIGNMENT_POW2].passed && out[DMLT_CHECK_BASE_OFFSET_ALIGNMENT].passed);
    CHECK(!out[DMLT_CHECK_ALIGNMENT_32].passed);
}

/* Names: one per id, distinct, and a fallback for ids out of range. */
static void test_names(void)
{
    for (int i = DMLT_OK; i <= DMLT_E_WORK_CAP; i++) {
        const char *a = dmlt_status_name((enum dmlt_status)i);
        CHECK(a[0] != '\0' && strcmp(a, "unknown status") != 0);
        for (int j = DMLT_OK; j < i; j++)
            CHECK(strcmp(a, dmlt_status_name((enum dmlt_status)j)) != 0);
    }
    CHECK_STR(dmlt_status_name((enum dmlt_status)(DMLT_E_WORK_CAP + 1)), "unknown status");
    for (int i = 0; i < DMLT_DIAG_COUNT; i++) {
        const char *a = dmlt_diag_id_name((enum dmlt_diag_id)i);
        CHECK(a[0] != '\0' && strcmp(a, "unknown") != 0);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(a, dmlt_diag_id_name((enum dmlt_diag_id)j)) != 0);
    }
    CHECK_STR(dmlt_diag_id_name(DMLT_DIAG_COUNT), "unknown");
    CHECK(dmlt_diag_severity(DMLT_DIAG_COUNT) == DMLT_INFO);
    CHECK(dmlt_diag_severity((enum dmlt_diag_id) - 1) == DMLT_INFO);
    CHECK(dmlt_diag_severity(DMLT_DIAG_TOTAL_TOO_SMALL) == DMLT_ERROR);
    CHECK(dmlt_diag_severity(DMLT_DIAG_RANK_NOT_4_OR_5) == DMLT_INFO);
    for (int i = 0; i < DMLT_CHECK_COUNT; i++) {
        const char *a = dmlt_check_id_name((enum dmlt_check_id)i);
        CHECK(a[0] != '\0' && strcmp(a, "unknown") != 0);
        CHECK(dmlt_check_rule((enum dmlt_check_id)i)[0] != '\0');
        for (int j = 0; j < i; j++)
            CHECK(strcmp(a, dmlt_check_id_name((enum dmlt_check_id)j)) != 0);
    }
    CHECK_STR(dmlt_check_id_name(DMLT_CHECK_COUNT), "unknown");
    CHECK_STR(dmlt_check_rule(DMLT_CHECK_COUNT), "");
    CHECK(dmlt_check_level(DMLT_CHECK_COUNT) == DMLT_INFO);
    CHECK(dmlt_check_level((enum dmlt_check_id) - 1) == DMLT_INFO);
    CHECK(dmlt_check_level(DMLT_CHECK_RANK) == DMLT_ERROR);
    CHECK(dmlt_check_level(DMLT_CHECK_HELPER) == DMLT_WARNING);
}

int main(void)
{
    test_layout_refusals();
    test_tensor_refusals();
    test_128_bit_edges();
    test_overlap_cap();
    test_validate_unmeasured();
    test_names();
    return check_finish("test_limits");
}
