/* internal.h - helpers shared by the library's files; not installed. */
#ifndef DMLT_INTERNAL_H
#define DMLT_INTERNAL_H

#include "dmltensor.h"

#define DMLT_U128_MAX (~(dmlt_u128)0)

/* Checked 128-bit arithmetic: return false when the result does not fit. */
static inline bool u128_mul(dmlt_u128 a, dmlt_u128 b, dmlt_u128 *out)
{
    if (a != 0 && b > DMLT_U128_MAX / a)
        return false;
    *out = a * b;
    return true;
}

static inline bool u128_add(dmlt_u128 a, dmlt_u128 b, dmlt_u128 *out)
{
    if (b > DMLT_U128_MAX - a)
        return false;
    *out = a + b;
    return true;
}

/* Bytes needed for `elements` elements of `bits` bits, rounded up to a whole
 * DWORD as DirectML requires of every bound buffer. */
bool dmlt__bytes_dword(dmlt_u128 elements, unsigned bits, dmlt_u128 *bytes);

/* Bounded linear Diophantine search, shared by overlap and locate.
 * Finds integer vectors x with lo[i] <= x[i] <= hi[i] and
 * sum a[i] * x[i] == target (a[i] >= 0), calling fn for each in
 * lexicographic order of the variables as given. n is 1..8. */
typedef bool (*dmlt__solution_fn)(void *ctx, const dmlt_i128 x[], unsigned n);

enum dmlt__solve_result { DMLT__SOLVE_DONE, DMLT__SOLVE_STOPPED, DMLT__SOLVE_CAPPED };

/* work_cap bounds the search nodes visited between two solutions, or, with
 * renew false, in all; *visited (if not NULL) gets the nodes visited. */
enum dmlt__solve_result dmlt__solve(unsigned n, const dmlt_i128 a[], const dmlt_i128 lo[],
                                    const dmlt_i128 hi[], dmlt_i128 target, unsigned long work_cap,
                                    bool renew, unsigned long *visited, dmlt__solution_fn fn,
                                    void *ctx);

#endif
