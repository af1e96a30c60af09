/* test_walk.c - dmlt_walk against an independent enumeration: for random
 * tensors (every dtype, ranks 1..8, strides from 0 to near 2^32, base
 * offsets up to 2^64-1), each step's coordinate is the next in row-major
 * order, its offsets equal dmlt_offset and dmlt_byte_offset, `changed` is
 * the outermost dim that moved, and the walk ends after exactly
 * element_count steps, leaving the last coordinate in place. */
#include "check.h"

static uint32_t pick_stride(void)
{
    switch (check_rand() % 4) {
    case 0:
        return 0;
    case 1:
        return (uint32_t)(check_rand() % 7);
    case 2:
        return (uint32_t)(check_rand() % 100);
    default:
        return UINT32_MAX - (uint32_t)(check_rand() % 3);
    }
}

static void walk_one(const struct dmlt_tensor *t, uint64_t base)
{
    struct dmlt_walk w = DMLT_WALK_INIT;
    CHECK_EQ(dmlt_walk_start(&w, t, base), DMLT_OK);
    uint32_t expect[DMLT_MAX_RANK] = {0};
    uint64_t steps = 0;
    for (;;) {
        steps++;
        for (unsigned d = 0; d < t->rank; d++)
            CHECK_EQ(w.coord[d], expect[d]);
        dmlt_u128 k, byte;
        unsigned nibble;
        struct dmlt_error err;
        CHECK_EQ(dmlt_offset(t, expect, &k, &err), DMLT_OK);
        CHECK_EQ(w.offset, k);
        CHECK_EQ(dmlt_byte_offset(t->dtype, k, base, &byte, &nibble), DMLT_OK);
        CHECK_EQ(w.byte_offset, byte);
        CHECK_EQ(w.nibble, nibble);
        /* The next coordinate in row-major order, and the dim that moves. */
        unsigned d = t->rank;
        while (d > 0 && expect[d - 1] + 1 == t->sizes[d - 1])
            expect[--d] = 0;
        if (d == 0) {
            CHECK(!dmlt_walk_next(&w));
            /* Unchanged: still at the last coordinate. */
            for (unsigned i = 0; i < t->rank; i++)
                CHECK_EQ(w.coord[i], t->sizes[i] - 1);
            CHECK_EQ(w.offset, k);
            break;
        }
        expect[d - 1]++;
        CHECK(dmlt_walk_next(&w));
        CHECK_EQ(w.changed, d - 1);
    }
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    CHECK_EQ(dmlt_report_compute(t, NULL, &r, &err), DMLT_OK);
    CHECK_EQ(steps, r.element_count);
}

int main(void)
{
    for (int i = 0; i < 3000; i++) {
        struct dmlt_tensor t;
        memset(&t, 0, sizeof t);
        t.dtype = (enum dmlt_dtype)(1 + check_rand() % DMLT_DTYPE_COUNT);
        t.rank = 1 + (unsigned)(check_rand() % (i % 5 == 0 ? 8 : 4));
        uint64_t count = 1;
        for (unsigned d = 0; d < t.rank; d++) {
            t.sizes[d] = 1 + (uint32_t)(check_rand() % (count > 200 ? 1 : 4));
            count *= t.sizes[d];
            t.strides[d] = pick_stride();
        }
        uint64_t base = check_rand() % 3 == 0 ? UINT64_MAX - check_rand() % 16 : check_rand() % 64;
        walk_one(&t, base);
    }
    /* An invalid tensor does not start. */
    struct dmlt_tensor bad = {DMLT_DTYPE_FLOAT32, 2, {2, 0}, {1, 1}};
    struct dmlt_walk w = DMLT_WALK_INIT;
    CHECK_EQ(dmlt_walk_start(&w, &bad, 0), DMLT_E_ZERO_SIZE);
    return check_finish("test_walk");
}
