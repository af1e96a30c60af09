/* overlap.c - do two different coordinates share an element offset?
 *
 * Coordinates x != y overlap when sum (x_i - y_i) stride_i == 0, i.e. when a
 * nonzero z with |z_i| <= size_i - 1 solves sum z_i stride_i == 0. Cheap
 * exact answers come first; the bounded search decides the rest. */
#include "internal.h"

static bool stop_at_nonzero(void *ctx, const int64_t z[], unsigned n)
{
    (void)ctx;
    for (unsigned i = 0; i < n; i++)
        if (z[i] != 0)
            return false; /* found two coordinates with one offset */
    return true;          /* z = 0 compares a coordinate with itself */
}

enum dmlt_tristate dmlt_overlapping(const struct dmlt_tensor *t, unsigned long work_cap)
{
    /* Dimensions of size 1 cannot tell two coordinates apart. */
    /* Entries 0..n-1 are filled below; zeroed so that no reader (nor
     * cppcheck's uninitvar) sees an indeterminate value. */
    int64_t stride[DMLT_MAX_RANK] = {0}, maxz[DMLT_MAX_RANK] = {0};
    unsigned n = 0;
    for (unsigned d = 0; d < t->rank; d++) {
        if (t->sizes[d] <= 1)
            continue;
        if (t->strides[d] == 0)
            return DMLT_YES; /* broadcast */
        /* insertion sort, largest stride first */
        unsigned k = n++;
        while (k > 0 && stride[k - 1] < t->strides[d]) {
            stride[k] = stride[k - 1];
            maxz[k] = maxz[k - 1];
            k--;
        }
        stride[k] = t->strides[d];
        maxz[k] = (int64_t)t->sizes[d] - 1;
    }

    /* Sufficient for no overlap: every stride exceeds the farthest reach of
     * all smaller strides (the shape of every packed or padded layout). */
    bool nested = true;
    wu128 reach = w_u64(0); /* below 8 x 2^64 */
    for (unsigned k = n; k-- > 0;) {
        if (w_le(w_u64((uint64_t)stride[k]), reach))
            nested = false;
        reach = w_add(reach, w_mul64((uint64_t)stride[k], (uint64_t)maxz[k]));
    }
    if (nested)
        return DMLT_NO;

    /* Pigeonhole: more elements than offsets 0..last must overlap. */
    wu128 count = w_u64(1);
    bool count_fits = true;
    for (unsigned k = 0; k < n && count_fits; k++)
        count_fits = w_mul_ok(count, w_u64((uint64_t)maxz[k] + 1), &count);
    if (!count_fits || w_lt(w_add64(reach, 1), count))
        return DMLT_YES;

    int64_t lo[DMLT_MAX_RANK];
    for (unsigned k = 0; k < n; k++)
        lo[k] = -maxz[k];
    switch (
        dmlt__solve(n, stride, lo, maxz, wi_i64(0), work_cap, true, NULL, stop_at_nonzero, NULL)) {
    case DMLT__SOLVE_STOPPED:
        return DMLT_YES;
    case DMLT__SOLVE_DONE:
        return DMLT_NO;
    case DMLT__SOLVE_CAPPED:
        break;
    }
    return DMLT_UNKNOWN;
}
