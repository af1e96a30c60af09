/* internal.h - helpers shared by the library's files; not installed. */
#ifndef DMLT_INTERNAL_H
#define DMLT_INTERNAL_H

#include "dmltensor.h"
#include "dmltensor_guess.h"
#include "wide.h"

/* Bytes needed for `elements` elements of `bits` bits, rounded up to a whole
 * DWORD as DirectML requires of every bound buffer. */
bool dmlt__bytes_dword(wu128 elements, unsigned bits, wu128 *bytes);

/* Bounded linear Diophantine search, shared by overlap and locate.
 * Finds integer vectors x with lo[i] <= x[i] <= hi[i] and
 * sum a[i] * x[i] == target (a[i] >= 0), calling fn for each in
 * lexicographic order of the variables as given. n is 1..8; every a[i],
 * lo[i] and hi[i] is within +-2^32, so each x[i] fits 64 bits and the sums,
 * below 2^68, fit the 128-bit target. */
typedef bool (*dmlt__solution_fn)(void *ctx, const int64_t x[], unsigned n);

enum dmlt__solve_result { DMLT__SOLVE_DONE, DMLT__SOLVE_STOPPED, DMLT__SOLVE_CAPPED };

/* work_cap bounds the search nodes visited between two solutions, or, with
 * renew false, in all; *visited (if not NULL) gets the nodes visited. */
enum dmlt__solve_result dmlt__solve(unsigned n, const int64_t a[], const int64_t lo[],
                                    const int64_t hi[], wi128 target, unsigned long work_cap,
                                    bool renew, unsigned long *visited, dmlt__solution_fn fn,
                                    void *ctx);

#endif
