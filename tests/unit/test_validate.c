/* dmlt_validate: each DML_BUFFER_TENSOR_DESC rule passing and failing at its
 * boundary; byte offsets and nibbles of 4-bit types. */
#include "check.h"
#include "dmltensor_guess.h"

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

/* Two different coordinates at one offset, broadcast dims (size > 1,
 * stride 0) held at 0: by enumerating every coordinate (at most 4^5). */
static bool brute_overlap(unsigned rank, const uint32_t sizes[], const uint32_t strides[])
{
    static uint64_t offs[1024];
    uint32_t kept[DMLT_MAX_RANK];
    uint64_t n = 1;
    for (unsigned d = 0; d < rank; d++) {
        kept[d] = sizes[d] > 1 && strides[d] == 0 ? 1 : sizes[d];
        n *= kept[d];
    }
    for (uint64_t e = 0; e < n; e++) {
        uint64_t rem = e, off = 0;
        for (unsigned d = rank; d-- > 0;) {
            off += rem % kept[d] * strides[d];
            rem /= kept[d];
        }
        for (uint64_t f = 0; f < e; f++)
            if (offs[f] == off)
                return true;
        offs[e] = off;
    }
    return false;
}

/* strides_overlap against brute force, the skipped checks, and the strides
 * dmlt__strides_guess names: the given ones divided by the element size
 * and/or reordered, broadcast dims kept at 0, with no overlap. */
static void test_strides_overlap(void)
{
    static const enum dmlt_dtype types[] = {DMLT_DTYPE_UINT8, DMLT_DTYPE_FLOAT16,
                                            DMLT_DTYPE_FLOAT32, DMLT_DTYPE_INT64, DMLT_DTYPE_INT4};
    unsigned guesses[4] = {0, 0, 0, 0}, overlapping = 0;
    for (int iter = 0; iter < 6000; iter++) {
        struct dmlt_desc d;
        memset(&d, 0, sizeof d);
        d.t.dtype = types[check_rand() % 5];
        d.t.rank = check_range(1, 5);
        const uint32_t esize = dmlt_dtype_get(d.t.dtype)->bits / 8;
        /* Random strides, or a packed layout's turned into a classic mistake. */
        const bool mistake = check_rand() % 2;
        unsigned order[DMLT_MAX_RANK];
        for (unsigned i = 0; i < d.t.rank; i++)
            order[i] = i;
        for (unsigned i = d.t.rank; i-- > 1;) {
            unsigned j = check_range(0, i), tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        for (unsigned i = 0; i < d.t.rank; i++)
            d.t.sizes[i] = check_range(1, 4);
        if (mistake) {
            uint32_t packed[DMLT_MAX_RANK];
            struct dmlt_error err;
            CHECK(dmlt_packed_strides(d.t.rank, d.t.sizes, order, packed, &err) == DMLT_OK);
            const bool in_order = check_rand() % 2, in_bytes = esize >= 2 && check_rand() % 2;
            for (unsigned i = 0; i < d.t.rank; i++)
                d.t.strides[i] = (in_order ? packed[order[i]] : packed[i]) * (in_bytes ? esize : 1);
        } else {
            for (unsigned i = 0; i < d.t.rank; i++)
                d.t.strides[i] = check_range(0, check_rand() % 3 ? 12 : 40);
        }
        struct dmlt_check c[DMLT_CHECK_COUNT];
        (void)dmlt_validate(&d, d.t.rank, c, DMLT_CHECK_COUNT);
        const bool brute = brute_overlap(d.t.rank, d.t.sizes, d.t.strides);
        overlapping += brute;
        CHECK_EQ(c[DMLT_CHECK_STRIDES_OVERLAP].passed, !brute);
        CHECK(!c[DMLT_CHECK_STRIDES_OVERLAP].skipped);
        CHECK(c[DMLT_CHECK_BINDING_SIZE].skipped && c[DMLT_CHECK_BINDING_SIZE].passed);
        CHECK(c[DMLT_CHECK_BINDING_IN_BUFFER].skipped && c[DMLT_CHECK_BINDING_IN_BUFFER].passed);
        CHECK(!c[DMLT_CHECK_TOTAL_MINIMUM].skipped);

        uint32_t meant[DMLT_MAX_RANK];
        const unsigned g = dmlt__strides_guess(&d.t, meant);
        guesses[g & 3]++;
        if (g == DMLT_GUESS_NONE)
            continue;
        CHECK(!brute_overlap(d.t.rank, d.t.sizes, meant));
        CHECK(!(g & DMLT_GUESS_MEMORY_ORDER) || brute); /* reordered only when they meet */
        const uint32_t scale = g & DMLT_GUESS_BYTES ? esize : 1;
        CHECK(scale > 1 || !(g & DMLT_GUESS_BYTES));
        /* The size > 1 dims' strides meant, times scale, are a reordering
         * (or, without MEMORY_ORDER, exactly) the given ones; 0 stays 0. */
        bool used[DMLT_MAX_RANK] = {false};
        for (unsigned i = 0; i < d.t.rank; i++) {
            if (d.t.sizes[i] <= 1)
                continue;
            if (d.t.strides[i] == 0) {
                CHECK_EQ(meant[i], 0);
                continue;
            }
            if (!(g & DMLT_GUESS_MEMORY_ORDER)) {
                CHECK_EQ((uint64_t)meant[i] * scale, d.t.strides[i]);
                continue;
            }
            bool found = false;
            for (unsigned j = 0; j < d.t.rank && !found; j++)
                if (!used[j] && !(d.t.sizes[j] > 1 && d.t.strides[j] == 0) &&
                    (uint64_t)meant[i] * scale == d.t.strides[j])
                    found = used[j] = true;
            if (!CHECK(found)) {
                for (unsigned k = 0; k < d.t.rank; k++)
                    fprintf(stderr, " %u:%u/%u->%u", k, d.t.sizes[k], d.t.strides[k], meant[k]);
                fprintf(stderr, " dtype %d guess %u\n", (int)d.t.dtype, g);
            }
        }
    }
    /* Each kind of guess, and both outcomes of the check, came up. */
    CHECK(guesses[DMLT_GUESS_BYTES] > 100 && guesses[DMLT_GUESS_MEMORY_ORDER] > 100 &&
          guesses[DMLT_GUESS_BYTES | DMLT_GUESS_MEMORY_ORDER] > 50);
    CHECK(overlapping > 500 && overlapping < 5500);

    /* Issue 28's two mistakes, float16 1,3,224,224. */
    struct dmlt_tensor t = {DMLT_DTYPE_FLOAT16, 4, {1, 3, 224, 224}, {301056, 2, 1344, 6}};
    uint32_t meant[DMLT_MAX_RANK];
    CHECK_EQ(dmlt__strides_guess(&t, meant), DMLT_GUESS_BYTES);
    CHECK(meant[0] == 150528 && meant[1] == 1 && meant[2] == 672 && meant[3] == 3);
    const uint32_t memory_order[4] = {150528, 672, 3, 1};
    memcpy(t.strides, memory_order, sizeof memory_order);
    CHECK_EQ(dmlt__strides_guess(&t, meant), DMLT_GUESS_MEMORY_ORDER);
    CHECK(meant[0] == 150528 && meant[1] == 1 && meant[2] == 672 && meant[3] == 3);
    /* Broadcast alone is no overlap; the binding checks run when given. */
    struct dmlt_desc b;
    memset(&b, 0, sizeof b);
    b.t = (struct dmlt_tensor){DMLT_DTYPE_FLOAT32, 4, {1, 3, 4, 4}, {0, 1, 0, 0}};
    b.has_binding_size = b.has_buffer_size = true;
    b.binding_size_bytes = b.buffer_size_bytes = 64;
    struct dmlt_check c[DMLT_CHECK_COUNT];
    (void)dmlt_validate(&b, 4, c, DMLT_CHECK_COUNT);
    CHECK(c[DMLT_CHECK_STRIDES_OVERLAP].passed && !c[DMLT_CHECK_STRIDES_OVERLAP].skipped);
    CHECK(!c[DMLT_CHECK_BINDING_SIZE].skipped && !c[DMLT_CHECK_BINDING_IN_BUFFER].skipped);
    b.t.strides[1] = 0; /* c broadcast too: still none */
    (void)dmlt_validate(&b, 4, c, DMLT_CHECK_COUNT);
    CHECK(c[DMLT_CHECK_STRIDES_OVERLAP].passed);
    b.t.strides[1] = 1;
    b.t.strides[2] = 1; /* c and h meet: overlap */
    (void)dmlt_validate(&b, 4, c, DMLT_CHECK_COUNT);
    CHECK(!c[DMLT_CHECK_STRIDES_OVERLAP].passed);
    CHECK_STR(dmlt_check_id_name(DMLT_CHECK_STRIDES_OVERLAP), "strides_overlap");
    CHECK(dmlt_check_level(DMLT_CHECK_STRIDES_OVERLAP) == DMLT_WARNING);
}

int main(void)
{
    test_strides_overlap();
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
