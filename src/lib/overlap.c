/* overlap.c - do two different coordinates share an element offset?
 *
 * Coordinates x != y overlap when sum (x_i - y_i) stride_i == 0, i.e. when a
 * nonzero z with |z_i| <= size_i - 1 solves sum z_i stride_i == 0. Cheap
 * exact answers come first; the bounded search decides the rest. */
#include "internal.h"

static bool stop_at_nonzero(void *ctx, const dmlt_i128 z[], unsigned n)
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
    dmlt_i128 stride[DMLT_MAX_RANK] = {0}, maxz[DMLT_MAX_RANK] = {0};
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
        maxz[k] = (dmlt_i128)t->sizes[d] - 1;
    }

    /* Sufficient for no overlap: every stride exceeds the farthest reach of
     * all smaller strides (the shape of every packed or padded layout). */
    bool nested = true;
    dmlt_i128 reach = 0;
    for (unsigned k = n; k-- > 0;) {
        if (stride[k] <= reach)
            nested = false;
        reach += stride[k] * maxz[k];
    }
    if (nested)
        return DMLT_NO;

    /* Pigeonhole: more elements than offsets 0..last must overlap. */
    dmlt_u128 count = 1;
    bool count_fits = true;
    for (unsigned k = 0; k < n && count_fits; k++)
        count_fits = u128_mul(count, (dmlt_u128)maxz[k] + 1, &count);
    if (!count_fits || count > (dmlt_u128)reach + 1)
        return DMLT_YES;

    dmlt_i128 lo[DMLT_MAX_RANK];
    for (unsigned k = 0; k < n; k++)
        lo[k] = -maxz[k];
    switch (dmlt__solve(n, stride, lo, maxz, 0, work_cap, true, NULL, stop_at_nonzero, NULL)) {
    case DMLT__SOLVE_STOPPED:
        return DMLT_YES;
    case DMLT__SOLVE_DONE:
        return DMLT_NO;
    case DMLT__SOLVE_CAPPED:
        break;
    }
    return DMLT_UNKNOWN;
}
