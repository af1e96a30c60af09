/* dmlt_validate: each DML_BUFFER_TENSOR_DESC rule passing and failing at its
 * boundary; byte offsets and nibbles of 4-bit types. */
#include "check.h"

static struct dmlt_desc desc(enum dmlt_dtype dtype, uint32_t h, uint32_t w)
{
    struct dmlt_desc d;
    memset(&d, 0, sizeof d);
    d.t.dtype = dtype;
    d.t.rank = 4;
    d.t.sizes[0] = d.t.sizes[1] = 1;
    d.t.sizes[2] = h;
    d.t.sizes[3] = w;
    d.t.strides[0] = d.t.strides[1] = h * w;
    d.t.strides[2] = w;
    d.t.strides[3] = 1;
    d.guaranteed_base_offset_alignment = 32;
    return d;
}

/* Runs the checks; returns whether `id` passed and whether all errors did. */
static bool passes(const struct dmlt_desc *d, enum dmlt_check_id id, bool *valid)
{
    struct dmlt_check c[DMLT_CHECK_COUNT];
    bool v = dmlt_validate(d, d->t.rank, c, DMLT_CHECK_COUNT);
    if (valid)
        *valid = v;
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++)
        CHECK_EQ(c[i].id, i); /* one result per check, in list order */
    return c[id].passed;
}

int main(void)
{
    bool valid;
    struct dmlt_desc d = desc(DMLT_DTYPE_FLOAT32, 3, 5); /* 60 bytes */
    CHECK(passes(&d, DMLT_CHECK_TOTAL_MINIMUM, &valid) && valid);

    d.has_total = true;
    d.total_tensor_size_bytes = 60;
    CHECK(passes(&d, DMLT_CHECK_TOTAL_MINIMUM, &valid) && valid);
    d.total_tensor_size_bytes = 56;
    CHECK(!passes(&d, DMLT_CHECK_TOTAL_MINIMUM, &valid) && !valid);
    d.total_tensor_size_bytes = 62;
    CHECK(!passes(&d, DMLT_CHECK_TOTAL_DWORD, &valid) && !valid);
    CHECK(passes(&d, DMLT_CHECK_TOTAL_MINIMUM, NULL));

    /* 2^32-1 elements: float32 allows (2^32-1) x 4 bytes, not 4 more. */
    d.total_tensor_size_bytes = (uint64_t)UINT32_MAX * 4;
    CHECK(passes(&d, DMLT_CHECK_TOTAL_ELEMENTS, NULL));
    d.total_tensor_size_bytes += 4;
    CHECK(!passes(&d, DMLT_CHECK_TOTAL_ELEMENTS, NULL));
    /* int4: (2^32-1) x 4 bits = 2147483647.5 bytes, so 2147483648 is over. */
    struct dmlt_desc q = desc(DMLT_DTYPE_INT4, 3, 5);
    q.has_total = true;
    q.total_tensor_size_bytes = 2147483644;
    CHECK(passes(&q, DMLT_CHECK_TOTAL_ELEMENTS, NULL));
    q.total_tensor_size_bytes = 2147483648;
    CHECK(!passes(&q, DMLT_CHECK_TOTAL_ELEMENTS, NULL));

    /* Alignment: 0 or a power of two >= element size (1 byte for 4-bit). */
    d = desc(DMLT_DTYPE_FLOAT64, 3, 5);
    const uint32_t ok_align[] = {0, 8, 16, 256, 1u << 31};
    for (size_t i = 0; i < sizeof ok_align / sizeof ok_align[0]; i++) {
        d.guaranteed_base_offset_alignment = ok_align[i];
        CHECK(passes(&d, DMLT_CHECK_ALIGNMENT_POW2, NULL));
    }
    const uint32_t bad_align[] = {1, 2, 4, 24, 3, UINT32_MAX};
    for (size_t i = 0; i < sizeof bad_align / sizeof bad_align[0]; i++) {
        d.guaranteed_base_offset_alignment = bad_align[i];
        CHECK(!passes(&d, DMLT_CHECK_ALIGNMENT_POW2, &valid) && !valid);
    }
    q = desc(DMLT_DTYPE_UINT4, 3, 5);
    q.guaranteed_base_offset_alignment = 1;
    CHECK(passes(&q, DMLT_CHECK_ALIGNMENT_POW2, NULL));
    CHECK(!passes(&q, DMLT_CHECK_ALIGNMENT_32, NULL));

    /* Base offset: a multiple of 16 and of the alignment. */
    d = desc(DMLT_DTYPE_FLOAT32, 3, 5);
    d.guaranteed_base_offset_alignment = 64;
    d.base_offset_bytes = 128;
    CHECK(passes(&d, DMLT_CHECK_BASE_OFFSET_16, NULL));
    CHECK(passes(&d, DMLT_CHECK_BASE_OFFSET_ALIGNMENT, &valid) && valid);
    d.base_offset_bytes = 48;
    CHECK(passes(&d, DMLT_CHECK_BASE_OFFSET_16, NULL));
    CHECK(!passes(&d, DMLT_CHECK_BASE_OFFSET_ALIGNMENT, &valid) && !valid);
    d.base_offset_bytes = 8;
    CHECK(!passes(&d, DMLT_CHECK_BASE_OFFSET_16, NULL));
    d.guaranteed_base_offset_alignment = 0;
    d.base_offset_bytes = 16;
    CHECK(passes(&d, DMLT_CHECK_BASE_OFFSET_ALIGNMENT, NULL));
    CHECK(!passes(&d, DMLT_CHECK_ALIGNMENT_32, &valid) && valid); /* a warning only */

    /* Flags. */
    d = desc(DMLT_DTYPE_FLOAT32, 3, 5);
    d.flags = DMLT_FLAG_OWNED_BY_DML;
    CHECK(passes(&d, DMLT_CHECK_FLAGS, NULL));
    d.flags = 2;
    CHECK(!passes(&d, DMLT_CHECK_FLAGS, &valid) && !valid);

    /* Rank and sizes: bad values fail rather than crash. */
    d = desc(DMLT_DTYPE_FLOAT32, 3, 5);
    d.t.rank = 2;
    CHECK(!passes(&d, DMLT_CHECK_RANK_4_OR_5, &valid) && valid);
    d.t.rank = 9;
    CHECK(!passes(&d, DMLT_CHECK_RANK, &valid) && !valid);
    d.t.rank = 4;
    d.t.sizes[2] = 0;
    CHECK(!passes(&d, DMLT_CHECK_SIZES_NONZERO, &valid) && !valid);
    CHECK(!passes(&d, DMLT_CHECK_TOTAL_MINIMUM, NULL)); /* cannot be measured */
    d = desc(DMLT_DTYPE_FLOAT32, 3, 5);
    struct dmlt_check c[DMLT_CHECK_COUNT];
    CHECK(!dmlt_validate(&d, 3, c, DMLT_CHECK_COUNT) && !c[DMLT_CHECK_STRIDES_COUNT].passed);
    CHECK(dmlt_validate(&d, 0, c, DMLT_CHECK_COUNT)); /* no strides given: fine */

    /* The published helper: wraps past 2^32, returns 0 for 4-bit types. */
    d = desc(DMLT_DTYPE_UINT8, 2, 4294967295u);
    d.t.strides[2] = 2; /* index 2 + 4294967294 = 2^32 */
    d.t.strides[0] = d.t.strides[1] = 0;
    CHECK(!passes(&d, DMLT_CHECK_HELPER, NULL));
    CHECK(passes(&q, DMLT_CHECK_TOTAL_MINIMUM, NULL));
    CHECK(!passes(&q, DMLT_CHECK_HELPER, NULL));
    CHECK_STR(dmlt_check_id_name(DMLT_CHECK_BASE_OFFSET_16), "base_offset_16");
    CHECK(dmlt_check_level(DMLT_CHECK_ALIGNMENT_32) == DMLT_WARNING);
    CHECK(strlen(dmlt_check_rule(DMLT_CHECK_FLAGS)) > 0);

    /* The binding: SizeInBytes >= TotalTensorSizeInBytes (60 here), and
     * Offset + SizeInBytes <= the buffer's size; each at its boundary. A
     * size not given passes (not applicable). */
    d = desc(DMLT_DTYPE_FLOAT32, 3, 5);
    CHECK(passes(&d, DMLT_CHECK_BINDING_SIZE, NULL));
    CHECK(passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, NULL));
    d.has_binding_size = true;
    d.binding_size_bytes = 59;
    CHECK(!passes(&d, DMLT_CHECK_BINDING_SIZE, &valid) && !valid);
    d.binding_size_bytes = 60;
    CHECK(passes(&d, DMLT_CHECK_BINDING_SIZE, &valid) && valid);
    d.binding_size_bytes = 61;
    CHECK(passes(&d, DMLT_CHECK_BINDING_SIZE, NULL));
    d.has_total = true; /* against the total given, not the minimum */
    d.total_tensor_size_bytes = 64;
    CHECK(!passes(&d, DMLT_CHECK_BINDING_SIZE, NULL));
    d.binding_size_bytes = 64;
    CHECK(passes(&d, DMLT_CHECK_BINDING_SIZE, NULL));
    d.base_offset_bytes = 256;
    d.has_buffer_size = true;
    d.buffer_size_bytes = 319; /* 256 + 64 = 320 */
    CHECK(!passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, &valid) && !valid);
    d.buffer_size_bytes = 320;
    CHECK(passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, &valid) && valid);
    d.buffer_size_bytes = 321;
    CHECK(passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, NULL));
    /* Without SizeInBytes: Offset + TotalTensorSizeInBytes. */
    d.has_binding_size = false;
    d.buffer_size_bytes = 319;
    CHECK(!passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, NULL));
    d.buffer_size_bytes = 320;
    CHECK(passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, NULL));
    /* Offset + SizeInBytes past 2^64 is past any buffer: not wrapped. */
    d.has_binding_size = true;
    d.binding_size_bytes = UINT64_MAX;
    d.base_offset_bytes = 16;
    d.buffer_size_bytes = UINT64_MAX;
    CHECK(!passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, NULL));
    dmlt_validate(&d, 4, c, DMLT_CHECK_COUNT);
    CHECK_EQ(c[DMLT_CHECK_BINDING_IN_BUFFER].value, (ref_u128)UINT64_MAX + 16);
    CHECK_EQ(c[DMLT_CHECK_BINDING_IN_BUFFER].limit, UINT64_MAX);
    d.base_offset_bytes = 0;
    CHECK(passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, NULL));
    /* A tensor too large to measure: no binding holds it. */
    d = desc(DMLT_DTYPE_FLOAT64, 4294967295u, 4294967295u);
    d.t.sizes[0] = d.t.sizes[1] = 4294967295u;
    d.t.strides[0] = d.t.strides[1] = d.t.strides[2] = 4294967295u;
    d.has_binding_size = d.has_buffer_size = true;
    d.binding_size_bytes = d.buffer_size_bytes = UINT64_MAX;
    CHECK(!passes(&d, DMLT_CHECK_BINDING_SIZE, NULL));
    d.has_binding_size = false;
    CHECK(!passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, NULL));
    /* Random values near the boundaries and near 2^64, against the same
     * rules written without a sum: size <= buffer && offset <= buffer - size. */
    for (int i = 0; i < 20000; i++) {
        d = desc(DMLT_DTYPE_FLOAT16, 1 + (uint32_t)(check_rand() % 7), 2);
        uint64_t near[] = {0,         1, 16, 60, 64, UINT32_MAX, (uint64_t)1 << 63, UINT64_MAX - 64,
                           UINT64_MAX};
        uint64_t pick[3];
        for (int k = 0; k < 3; k++)
            pick[k] = near[check_rand() % (sizeof near / sizeof near[0])] + (check_rand() % 5) -
                      2; /* wraps near 0 and 2^64: fine */
        d.has_binding_size = check_rand() % 4 != 0;
        d.binding_size_bytes = pick[0];
        d.has_buffer_size = check_rand() % 4 != 0;
        d.buffer_size_bytes = pick[1];
        d.base_offset_bytes = pick[2];
        uint64_t total = (uint64_t)d.t.sizes[2] * 2 * 2; /* h x 2 float16, packed */
        uint64_t range = d.has_binding_size ? d.binding_size_bytes : total;
        bool size_ok = !d.has_binding_size || d.binding_size_bytes >= total;
        bool in_ok = !d.has_buffer_size || (range <= d.buffer_size_bytes &&
                                            d.base_offset_bytes <= d.buffer_size_bytes - range);
        CHECK_EQ(passes(&d, DMLT_CHECK_BINDING_SIZE, NULL), size_ok);
        CHECK_EQ(passes(&d, DMLT_CHECK_BINDING_IN_BUFFER, NULL), in_ok);
    }
    CHECK_STR(dmlt_check_id_name(DMLT_CHECK_BINDING_SIZE), "binding_size");
    CHECK_STR(dmlt_check_id_name(DMLT_CHECK_BINDING_IN_BUFFER), "binding_in_buffer");
    CHECK(dmlt_check_level(DMLT_CHECK_BINDING_IN_BUFFER) == DMLT_ERROR);

    /* Byte offsets and the elements at a byte. */
    dmlt_u128 byte, first;
    unsigned nibble, count, in_elem;
    CHECK(dmlt_byte_offset(DMLT_DTYPE_FLOAT16, P(7), 256, &byte, &nibble) == DMLT_OK);
    CHECK_EQ(byte, 270);
    CHECK_EQ(nibble, 0);
    CHECK(dmlt_byte_offset(DMLT_DTYPE_INT4, P(7), 0, &byte, &nibble) == DMLT_OK);
    CHECK_EQ(byte, 3);
    CHECK_EQ(nibble, 1);
    CHECK(dmlt_byte_offset(DMLT_DTYPE_INT4, P(6), 0, &byte, &nibble) == DMLT_OK);
    CHECK_EQ(nibble, 0);
    CHECK(dmlt_byte_offset(DMLT_DTYPE_FLOAT64, P(~(ref_u128)0), 0, &byte, &nibble) == DMLT_E_RANGE);
    CHECK(dmlt_elements_at_byte(DMLT_DTYPE_FLOAT32, P(30), &first, &count, &in_elem) == DMLT_OK);
    CHECK(R(first) == 7 && count == 1 && in_elem == 2);
    CHECK(dmlt_elements_at_byte(DMLT_DTYPE_UINT4, P(5), &first, &count, &in_elem) == DMLT_OK);
    CHECK(R(first) == 10 && count == 2);
    /* Round trip: the byte of element k holds k, for every type. */
    for (int t = 1; t <= DMLT_DTYPE_COUNT; t++) {
        for (ref_u128 k = 0; k < 100; k++) {
            CHECK(dmlt_byte_offset((enum dmlt_dtype)t, P(k), 0, &byte, &nibble) == DMLT_OK);
            CHECK(dmlt_elements_at_byte((enum dmlt_dtype)t, byte, &first, &count, &in_elem) ==
                  DMLT_OK);
            CHECK(R(first) <= k && k < R(first) + count && in_elem == 0);
        }
    }
    return check_finish("test_validate");
}
