/* overlap.c - do two different coordinates share an element offset?
 *
 * Coordinates x != y overlap when sum (x_i - y_i) stride_i == 0, i.e. when a
 * nonzero z with |z_i| <= size_i - 1 solves sum z_i stride_i == 0. Cheap
 * exact answers come first; the bounded search decides the rest. */
#include "internal.h"

#include <string.h>

static bool stop_at_nonzero(void *ctx, const int64_t z[], unsigned n)
{
    (void)ctx;
    for (unsigned i = 0; i < n; i++)
        if (z[i] != 0)
            return false; /* found two coordinates with one offset */
    return true;          /* z = 0 compares a coordinate with itself */
}

/* The tensor without its broadcast dims (size > 1, stride 0): each becomes
 * size 1, so that only the other dims can make two elements meet. */
static struct dmlt_tensor without_broadcast(const struct dmlt_tensor *t)
{
    struct dmlt_tensor u = *t;
    for (unsigned d = 0; d < u.rank && d < DMLT_MAX_RANK; d++)
        if (u.sizes[d] > 1 && u.strides[d] == 0)
            u.sizes[d] = 1;
    return u;
}

enum dmlt_tristate dmlt__overlapping_outside_broadcast(const struct dmlt_tensor *t,
                                                       unsigned long work_cap)
{
    const struct dmlt_tensor u = without_broadcast(t);
    return dmlt_overlapping(&u, work_cap);
}

/* Sufficient for no overlap: with the dims of size > 1 sorted by stride,
 * each stride exceeds the farthest reach of all smaller ones (the shape of
 * every packed or padded layout); stride 0 on a size > 1 dim never is. Sets
 * *packed when, moreover, the last element is at N - 1. */
static bool nested(unsigned rank, const uint32_t sizes[], const uint32_t strides[], bool *packed)
{
    uint64_t stride[DMLT_MAX_RANK] = {0}, maxz[DMLT_MAX_RANK] = {0};
    unsigned n = 0;
    for (unsigned d = 0; d < rank; d++) {
        if (sizes[d] <= 1)
            continue;
        if (strides[d] == 0)
            return false;
        unsigned k = n++;
        while (k > 0 && stride[k - 1] < strides[d]) {
            stride[k] = stride[k - 1];
            maxz[k] = maxz[k - 1];
            k--;
        }
        stride[k] = strides[d];
        maxz[k] = (uint64_t)sizes[d] - 1;
    }
    /* Nested so far, the elements are distinct offsets in 0..reach: the
     * count never passes reach + 1, below 2^68. */
    wu128 reach = w_u64(0), count = w_u64(1);
    for (unsigned k = n; k-- > 0;) {
        if (w_le(w_u64(stride[k]), reach))
            return false;
        reach = w_add(reach, w_mul64(stride[k], maxz[k]));
        count = w_mul_lo(count, maxz[k] + 1);
    }
    *packed = w_eq(w_add64(reach, 1), count);
    return true;
}

/* Tries every order of the strides of the movable dims (not broadcast) in
 * lexicographic order of the permutation; the first packed result wins,
 * else the first nested one. */
static bool best_permutation(const struct dmlt_tensor *t, const uint32_t base[],
                             uint32_t out[DMLT_MAX_RANK], bool *out_packed)
{
    unsigned pos[DMLT_MAX_RANK], n = 0, perm[DMLT_MAX_RANK];
    for (unsigned d = 0; d < t->rank; d++)
        if (!(t->sizes[d] > 1 && base[d] == 0))
            pos[n++] = d;
    for (unsigned i = 0; i < n; i++)
        perm[i] = i;
    bool found = false;
    *out_packed = false;
    uint32_t cand[DMLT_MAX_RANK];
    for (;;) {
        memcpy(cand, base, t->rank * sizeof cand[0]);
        for (unsigned i = 0; i < n; i++)
            cand[pos[i]] = base[pos[perm[i]]];
        bool packed = false;
        if (nested(t->rank, t->sizes, cand, &packed) && (packed || !found)) {
            memcpy(out, cand, t->rank * sizeof cand[0]);
            found = true;
            *out_packed = packed;
            if (packed)
                return true;
        }
        /* the next permutation, in lexicographic order */
        unsigned i = n;
        while (i > 1 && perm[i - 2] > perm[i - 1])
            i--;
        if (i <= 1)
            return found;
        unsigned j = n - 1;
        while (perm[j] < perm[i - 2])
            j--;
        unsigned tmp = perm[i - 2];
        perm[i - 2] = perm[j];
        perm[j] = tmp;
        for (unsigned a = i - 1, b = n - 1; a < b; a++, b--) {
            tmp = perm[a];
            perm[a] = perm[b];
            perm[b] = tmp;
        }
    }
}

/* The strides divided by the element size, when they look like bytes. */
static bool as_elements(const struct dmlt_tensor *t, uint32_t divided[DMLT_MAX_RANK])
{
    const unsigned bits = dmlt_dtype_get(t->dtype)->bits;
    if (bits < 16)
        return false; /* a 1-byte (or 4-bit) element: bytes are elements */
    const uint32_t elem = bits / 8;
    bool moves = false;
    for (unsigned d = 0; d < t->rank; d++) {
        if (t->sizes[d] > 1 && t->strides[d] % elem != 0)
            return false;
        moves = moves || (t->sizes[d] > 1 && t->strides[d] != 0);
        /* a size-1 dim's stride moves nothing: 0 when it does not divide */
        divided[d] = t->strides[d] % elem == 0 ? t->strides[d] / elem : 0;
    }
    return moves;
}

unsigned dmlt__strides_guess(const struct dmlt_tensor *t, uint32_t meant[DMLT_MAX_RANK])
{
    if (dmlt_dtype_get(t->dtype) == NULL || t->rank < 1 || t->rank > DMLT_MAX_RANK)
        return DMLT_GUESS_NONE;
    for (unsigned d = 0; d < t->rank; d++)
        if (t->sizes[d] == 0)
            return DMLT_GUESS_NONE;
    /* The candidates, fewest changes first: in bytes; listed in memory
     * order (only when the strides as given make elements meet); both. A
     * packed one wins, else the first whose elements do not meet. */
    uint32_t cand[3][DMLT_MAX_RANK], divided[DMLT_MAX_RANK];
    bool ok[3] = {false, false, false}, packed[3] = {false, false, false};
    const bool bytes = as_elements(t, divided);
    if (bytes && nested(t->rank, t->sizes, divided, &packed[0])) {
        memcpy(cand[0], divided, t->rank * sizeof divided[0]);
        ok[0] = true;
    }
    bool given_packed;
    if (!nested(t->rank, t->sizes, t->strides, &given_packed)) {
        const struct dmlt_tensor u = without_broadcast(t);
        if (dmlt_overlapping(&u, DMLT_OVERLAP_WORK_CAP) != DMLT_NO) {
            ok[1] = best_permutation(t, t->strides, cand[1], &packed[1]);
            ok[2] = bytes && best_permutation(t, divided, cand[2], &packed[2]);
        }
    }
    static const unsigned kind[3] = {DMLT_GUESS_BYTES, DMLT_GUESS_MEMORY_ORDER,
                                     DMLT_GUESS_BYTES | DMLT_GUESS_MEMORY_ORDER};
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < 3; i++)
            if (ok[i] && (packed[i] || pass == 1)) {
                memcpy(meant, cand[i], t->rank * sizeof meant[0]);
                return kind[i];
            }
    return DMLT_GUESS_NONE;
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
