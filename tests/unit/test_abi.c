/* test_abi.c - what lets a program built against this header keep working
 * with a later library (dmltensor.h, "Upgrading"):
 *  - every enum value is pinned to the number it has now, and each X-macro
 *    list numbers its entries 0, 1, 2, ... in order;
 *  - DMLT_VERSION_* agree with CMake's project(VERSION) and with
 *    dmlt_version() / dmlt_version_string();
 *  - a caller whose struct dmlt_report or struct dmlt_walk is smaller (an
 *    older header's) gets its prefix filled and not one byte past its size;
 *    a larger one (a newer header's) keeps its extra bytes; size 0 is
 *    refused; dmlt_validate writes only out_count results. */
#include "check.h"

#include <stddef.h>
#include <stdlib.h>

#ifndef DMLT_TEST_CMAKE_VERSION
#error "tests/CMakeLists.txt passes the project's version as DMLT_TEST_CMAKE_VERSION"
#endif

static void test_pinned(void)
{
    /* The numbers programs were built with. Never change one: add. */
    CHECK_EQ(DMLT_OK, 0);
    CHECK_EQ(DMLT_E_INVALID, 1);
    CHECK_EQ(DMLT_E_RANK, 2);
    CHECK_EQ(DMLT_E_ZERO_SIZE, 3);
    CHECK_EQ(DMLT_E_RANGE, 4);
    CHECK_EQ(DMLT_E_DTYPE, 5);
    CHECK_EQ(DMLT_E_LAYOUT, 6);
    CHECK_EQ(DMLT_E_COORD, 7);
    CHECK_EQ(DMLT_E_WORK_CAP, 8);

    CHECK_EQ(DMLT_PLAN_NONE, 0);
    CHECK_EQ(DMLT_PLAN_GREEDY_SIZE, 1);
    CHECK_EQ(DMLT_PLAN_GREEDY_FIRST_FIT, 2);
    CHECK_EQ(DMLT_PLAN_GREEDY_LIFETIME, 3);
    CHECK_EQ(DMLT_PLAN_GREEDY_AREA, 4);
    CHECK_EQ(DMLT_PLAN_BUMPED, 5);
    CHECK_EQ(DMLT_PLAN_SEARCH, 6);
    CHECK_EQ(DMLT_PLAN_STACKED, 7);
    CHECK_EQ(DMLT_PLAN_SKYLINE, 8);
    CHECK_EQ(DMLT_PLAN_CAPACITY_SEARCH, 9);
    CHECK_EQ(DMLT_PLAN_ONLY_GREEDY, 1);

    CHECK_EQ(DMLT_DIAG_HELPER_OVERFLOW, 0);
    CHECK_EQ(DMLT_DIAG_HELPER_DTYPE, 1);
    CHECK_EQ(DMLT_DIAG_RANK_NOT_4_OR_5, 2);
    CHECK_EQ(DMLT_DIAG_OVERLAP_UNKNOWN, 3);
    CHECK_EQ(DMLT_DIAG_TOTAL_TOO_SMALL, 4);
    CHECK_EQ(DMLT_DIAG_OVER_UINT32_ELEMENTS, 5);
    _Static_assert(DMLT_DIAG_COUNT <= DMLT_DIAG_CAPACITY, "room for every diagnostic");

    CHECK_EQ(DMLT_CHECK_RANK, 0);
    CHECK_EQ(DMLT_CHECK_SIZES_NONZERO, 1);
    CHECK_EQ(DMLT_CHECK_STRIDES_COUNT, 2);
    CHECK_EQ(DMLT_CHECK_TOTAL_MINIMUM, 3);
    CHECK_EQ(DMLT_CHECK_TOTAL_DWORD, 4);
    CHECK_EQ(DMLT_CHECK_TOTAL_ELEMENTS, 5);
    CHECK_EQ(DMLT_CHECK_ALIGNMENT_POW2, 6);
    CHECK_EQ(DMLT_CHECK_BASE_OFFSET_16, 7);
    CHECK_EQ(DMLT_CHECK_BASE_OFFSET_ALIGNMENT, 8);
    CHECK_EQ(DMLT_CHECK_FLAGS, 9);
    CHECK_EQ(DMLT_CHECK_RANK_4_OR_5, 10);
    CHECK_EQ(DMLT_CHECK_ALIGNMENT_32, 11);
    CHECK_EQ(DMLT_CHECK_HELPER, 12);

    CHECK_EQ(DMLT_NO, 0);
    CHECK_EQ(DMLT_YES, 1);
    CHECK_EQ(DMLT_UNKNOWN, 2);
    CHECK_EQ(DMLT_INFO, 0);
    CHECK_EQ(DMLT_WARNING, 1);
    CHECK_EQ(DMLT_ERROR, 2);
    /* DirectML's own DML_TENSOR_DATA_TYPE values. */
    CHECK_EQ(DMLT_DTYPE_UNKNOWN, 0);
    CHECK_EQ(DMLT_DTYPE_FLOAT32, 1);
    CHECK_EQ(DMLT_DTYPE_FLOAT16, 2);
    CHECK_EQ(DMLT_DTYPE_UINT32, 3);
    CHECK_EQ(DMLT_DTYPE_UINT16, 4);
    CHECK_EQ(DMLT_DTYPE_UINT8, 5);
    CHECK_EQ(DMLT_DTYPE_INT32, 6);
    CHECK_EQ(DMLT_DTYPE_INT16, 7);
    CHECK_EQ(DMLT_DTYPE_INT8, 8);
    CHECK_EQ(DMLT_DTYPE_FLOAT64, 9);
    CHECK_EQ(DMLT_DTYPE_UINT64, 10);
    CHECK_EQ(DMLT_DTYPE_INT64, 11);
    CHECK_EQ(DMLT_DTYPE_UINT4, 12);
    CHECK_EQ(DMLT_DTYPE_INT4, 13);

    /* Each list in order, 0, 1, 2, ...: so *_COUNT counts them and arrays
     * indexed by them have no holes. */
    int i = 0;
#define X_IN_ORDER_3(name, value, text) CHECK_EQ(value, i++);
    DMLT_STATUS_LIST(X_IN_ORDER_3)
    i = 0;
#define X_IN_ORDER_4(name, value, text, sev) CHECK_EQ(value, i++);
    DMLT_DIAG_LIST(X_IN_ORDER_4)
    CHECK_EQ(i, DMLT_DIAG_COUNT);
    i = 0;
#define X_IN_ORDER_5(name, value, text, level, rule) CHECK_EQ(value, i++);
    DMLT_CHECK_LIST(X_IN_ORDER_5)
    CHECK_EQ(i, DMLT_CHECK_COUNT);
}

static void test_version(void)
{
    /* volatile: a comparison the compiler cannot fold away */
    const char *volatile header = DMLT_VERSION_STRING;
    CHECK_STR(header, DMLT_TEST_CMAKE_VERSION);
    CHECK_STR(dmlt_version_string(), DMLT_TEST_CMAKE_VERSION);
    CHECK_EQ(dmlt_version(), DMLT_VERSION_NUMBER);
    char text[32];
    snprintf(text, sizeof text, "%u.%u.%u", dmlt_version() / 10000, dmlt_version() / 100 % 100,
             dmlt_version() % 100);
    CHECK_STR(text, DMLT_TEST_CMAKE_VERSION);
}

/* ---- struct sizes ----------------------------------------------------------- */

#define SENTINEL 0xA5
#define SLACK    64

static bool untouched(const unsigned char *p, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (p[i] != SENTINEL)
            return false;
    return true;
}

/* int4 rank 2 with a too-small total: three diagnostics. */
static struct dmlt_tensor diag_tensor(void)
{
    struct dmlt_tensor t;
    memset(&t, 0, sizeof t);
    t.dtype = DMLT_DTYPE_INT4;
    t.rank = 2;
    t.sizes[0] = 3;
    t.sizes[1] = 5;
    t.strides[0] = 5;
    t.strides[1] = 1;
    return t;
}

static void check_report_size(size_t size, const struct dmlt_report *full, uint64_t total)
{
    const struct dmlt_tensor t = diag_tensor();
    unsigned char *buf = malloc(sizeof(struct dmlt_report) + SLACK);
    if (!CHECK(buf != NULL))
        return;
    memset(buf, SENTINEL, sizeof(struct dmlt_report) + SLACK);
    memcpy(buf, &size, sizeof size); /* the caller sets size, nothing else */
    struct dmlt_error err;
    CHECK_EQ(dmlt_report_compute(&t, &total, (struct dmlt_report *)(void *)buf, &err), DMLT_OK);

    const size_t written = size < sizeof *full ? size : sizeof *full;
    if (!CHECK(untouched(buf, written, sizeof(struct dmlt_report) + SLACK)))
        fprintf(stderr, "  size %zu: a byte past it was written\n", size);
    /* The prefix is the full report's, with only the diagnostics that fit. */
    struct dmlt_report want;
    memcpy(&want, full, sizeof want); /* padding too */
    want.size = size;
    const size_t at = offsetof(struct dmlt_report, diags);
    size_t fit = size > at ? (size - at) / sizeof want.diags[0] : 0;
    if (want.diag_count > fit)
        want.diag_count = (unsigned)fit;
    if (!CHECK(memcmp(buf, &want, written) == 0))
        fprintf(stderr, "  size %zu: the prefix differs from the full report\n", size);
    if (size >= offsetof(struct dmlt_report, diags)) {
        struct dmlt_report got;
        memcpy(&got, buf, written);
        CHECK(got.diag_count <= full->diag_count);
        for (unsigned i = 0; i < got.diag_count; i++)
            CHECK((i + 1) * sizeof got.diags[0] <= size - at); /* each listed one fits */
    }
    free(buf);
}

static void test_report_size(void)
{
    const struct dmlt_tensor t = diag_tensor();
    const uint64_t total = 4; /* below the minimum, 8 bytes */
    struct dmlt_report full = DMLT_REPORT_INIT;
    struct dmlt_error err;
    CHECK_EQ(dmlt_report_compute(&t, &total, &full, &err), DMLT_OK);
    CHECK_EQ(full.size, sizeof full);
    CHECK_EQ(full.diag_count, 3);
    CHECK_EQ(full.minimum_implied_size_bytes, 8);

    /* Older structs end at a field boundary: after each field in turn. */
    const size_t ends[] = {
        offsetof(struct dmlt_report, element_count) + sizeof full.element_count,
        offsetof(struct dmlt_report, minimum_implied_size_bytes) +
            sizeof full.minimum_implied_size_bytes,
        offsetof(struct dmlt_report, total_given) + sizeof full.total_given,
        offsetof(struct dmlt_report, padded) + sizeof full.padded,
        offsetof(struct dmlt_report, diag_count) + sizeof full.diag_count,
        offsetof(struct dmlt_report, diags),
        offsetof(struct dmlt_report, diags) + sizeof full.diags[0],
        offsetof(struct dmlt_report, diags) + 2 * sizeof full.diags[0],
        offsetof(struct dmlt_report, diags) + 2 * sizeof full.diags[0] + 8, /* 2 whole */
        sizeof full - 1,
        sizeof full,
        sizeof full + 48, /* a newer header's: the rest is left alone */
        sizeof(size_t),
    };
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
        check_report_size(ends[i], &full, total);
    /* Every size in between, too. */
    for (size_t size = sizeof(size_t); size < sizeof full; size += 7)
        check_report_size(size, &full, total);

    /* A failure leaves size as the caller set it, for the next call. */
    struct dmlt_tensor huge = t;
    huge.rank = DMLT_MAX_RANK;
    for (unsigned d = 0; d < DMLT_MAX_RANK; d++)
        huge.sizes[d] = UINT32_MAX;
    struct dmlt_report again = DMLT_REPORT_INIT;
    CHECK_EQ(dmlt_report_compute(&huge, NULL, &again, &err), DMLT_E_RANGE);
    CHECK_EQ(again.size, sizeof again);
    CHECK_EQ(dmlt_report_compute(&t, &total, &again, &err), DMLT_OK);

    /* size 0: not set. Refused, nothing written. */
    unsigned char buf[sizeof(struct dmlt_report)];
    memset(buf, SENTINEL, sizeof buf);
    memset(buf, 0, sizeof(size_t));
    CHECK_EQ(dmlt_report_compute(&t, &total, (struct dmlt_report *)(void *)buf, &err),
             DMLT_E_INVALID);
    CHECK(untouched(buf, sizeof(size_t), sizeof buf));
}

static void test_walk_size(void)
{
    const struct dmlt_tensor t = diag_tensor();
    const size_t need = offsetof(struct dmlt_walk, base_) + sizeof(uint64_t);
    unsigned char *buf = malloc(sizeof(struct dmlt_walk) + SLACK);
    if (!CHECK(buf != NULL))
        return;
    /* Too small for the walk's state (or not set): refused, untouched. */
    const size_t small[] = {0, 1, need - 1};
    for (size_t i = 0; i < 3; i++) {
        memset(buf, SENTINEL, sizeof(struct dmlt_walk) + SLACK);
        memcpy(buf, &small[i], sizeof small[i]);
        CHECK_EQ(dmlt_walk_start((struct dmlt_walk *)(void *)buf, &t, 0), DMLT_E_INVALID);
        CHECK(untouched(buf, sizeof(size_t), sizeof(struct dmlt_walk) + SLACK));
    }
    /* This struct, and a newer header's larger one: walks, and leaves what
     * lies past this version's struct alone. */
    const size_t sizes[] = {sizeof(struct dmlt_walk), sizeof(struct dmlt_walk) + SLACK};
    for (size_t i = 0; i < 2; i++) {
        memset(buf, SENTINEL, sizeof(struct dmlt_walk) + SLACK);
        memcpy(buf, &sizes[i], sizeof sizes[i]);
        struct dmlt_walk *w = (struct dmlt_walk *)(void *)buf;
        CHECK_EQ(dmlt_walk_start(w, &t, 0), DMLT_OK);
        CHECK_EQ(w->size, sizes[i]);
        unsigned n = 1;
        while (dmlt_walk_next(w))
            n++;
        CHECK_EQ(n, 15);
        CHECK_EQ(w->offset, 14);
        CHECK(untouched(buf, sizeof(struct dmlt_walk), sizeof(struct dmlt_walk) + SLACK));
    }
    free(buf);
}

static void test_validate_count(void)
{
    struct dmlt_desc d;
    memset(&d, 0, sizeof d);
    d.t = diag_tensor();
    d.has_total = true;
    d.total_tensor_size_bytes = 6; /* below the minimum, not a multiple of 4 */
    struct dmlt_check all[DMLT_CHECK_COUNT];
    const bool valid = dmlt_validate(&d, 2, all, DMLT_CHECK_COUNT);
    CHECK(!valid);
    for (size_t n = 0; n <= DMLT_CHECK_COUNT; n++) {
        struct dmlt_check out[DMLT_CHECK_COUNT + 2];
        memset(out, SENTINEL, sizeof out);
        /* The first failing checks (3 and 4) are past the smaller counts:
         * the answer still counts them. */
        CHECK_EQ(dmlt_validate(&d, 2, out, n), valid);
        CHECK(memcmp(out, all, n * sizeof out[0]) == 0);
        CHECK(untouched((const unsigned char *)out, n * sizeof out[0], sizeof out));
    }
    CHECK_EQ(dmlt_validate(&d, 2, NULL, 0), valid);
    /* A newer header's larger array: only the checks this library has. */
    struct dmlt_check more[DMLT_CHECK_COUNT + 2];
    memset(more, SENTINEL, sizeof more);
    CHECK_EQ(dmlt_validate(&d, 2, more, DMLT_CHECK_COUNT + 2), valid);
    CHECK(untouched((const unsigned char *)more, DMLT_CHECK_COUNT * sizeof more[0], sizeof more));
}

int main(void)
{
    test_pinned();
    test_version();
    test_report_size();
    test_walk_size();
    test_validate_count();
    return check_finish("test_abi");
}
