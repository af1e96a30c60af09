/* plan_sort.c - the planner's sort: a stable merge sort of indices by
 * (key, key2, index), insertion-sorted runs of 16 first; by key alone, of
 * RADIX_MIN or more indices given in increasing order (the planner's sorts
 * of every tensor), a least-significant-byte-first radix sort, which keeps
 * equal keys in that order: the same result. */
#include "plan_internal.h"

#include <string.h>

#define RUN       16u
#define RADIX_MIN 256u

/* The radix sort by key alone of a[0..m) when its indices increase (ties
 * then stay by index, as the merge sort puts them); false, a[] untouched,
 * when they do not. A byte where every key agrees is skipped. */
static bool radix(uint32_t *a, uint32_t *tmp, size_t m, const uint64_t *key)
{
    uint64_t diff = 0;
    for (size_t i = 1; i < m; i++) {
        if (a[i] <= a[i - 1])
            return false;
        diff |= key[a[i]] ^ key[a[0]];
    }
    uint32_t *src = a, *dst = tmp;
    for (unsigned shift = 0; shift < 64; shift += 8) {
        if (((diff >> shift) & 0xffu) == 0)
            continue;
        size_t at[256] = {0};
        for (size_t i = 0; i < m; i++)
            at[(key[src[i]] >> shift) & 0xffu]++;
        size_t sum = 0;
        for (size_t d = 0; d < 256; d++) {
            const size_t c = at[d];
            at[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < m; i++)
            dst[at[(key[src[i]] >> shift) & 0xffu]++] = src[i];
        uint32_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != a)
        memcpy(a, src, m * sizeof *a);
    return true;
}

static bool before(const uint64_t *key, const uint64_t *key2, uint32_t x, uint32_t y)
{
    if (key[x] != key[y])
        return key[x] < key[y];
    if (key2 != NULL && key2[x] != key2[y])
        return key2[x] < key2[y];
    return x < y;
}

static void merge(const uint32_t *src, uint32_t *dst, size_t lo, size_t mid, size_t hi,
                  const uint64_t *key, const uint64_t *key2)
{
    size_t i = lo, j = mid, o = lo;
    while (i < mid && j < hi)
        dst[o++] = before(key, key2, src[j], src[i]) ? src[j++] : src[i++];
    while (i < mid)
        dst[o++] = src[i++];
    while (j < hi)
        dst[o++] = src[j++];
}

void dmlt__plan_sort(uint32_t *a, uint32_t *tmp, size_t m, const uint64_t *key,
                     const uint64_t *key2)
{
    if (key2 == NULL && m >= RADIX_MIN && radix(a, tmp, m, key))
        return;
    for (size_t s = 0; s < m; s += RUN) {
        size_t e = s + RUN < m ? s + RUN : m;
        for (size_t i = s + 1; i < e; i++) {
            uint32_t v = a[i];
            size_t j = i;
            while (j > s && before(key, key2, v, a[j - 1])) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = v;
        }
    }
    uint32_t *src = a, *dst = tmp;
    for (size_t w = RUN; w < m; w *= 2) {
        for (size_t lo = 0; lo < m; lo += 2 * w) {
            size_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
            merge(src, dst, lo, mid, hi, key, key2);
        }
        uint32_t *x = src;
        src = dst;
        dst = x;
    }
    if (src != a)
        memcpy(a, src, m * sizeof *a);
}
