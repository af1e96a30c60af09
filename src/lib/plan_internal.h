/* plan_internal.h - what plan.c (the call, the lower bounds, greedy best
 * fit and its improvement), plan_skyline.c (the skyline placement) and
 * plan_sort.c share; not installed. */
#ifndef DMLT_PLAN_INTERNAL_H
#define DMLT_PLAN_INTERNAL_H

#include "internal.h"

/* A tensor, kept in the order of first steps: placing one looks at its
 * neighbours in this order, so what it reads sits close together. */
struct dmlt__plan_node {
    uint64_t first, last, size;
    uint64_t off;  /* its offset in the plan being built */
    uint32_t pend; /* the first position whose first step is past this one's last */
    uint32_t id;   /* its index in the caller's array */
};

/* round_up(v, align) into *out; false past 2^64 - 1. */
static inline bool dmlt__round_up(uint64_t v, uint64_t align, uint64_t *out)
{
    uint64_t r = v & (align - 1);
    if (r == 0) {
        *out = v;
        return true;
    }
    if (v > UINT64_MAX - (align - r))
        return false;
    *out = v + (align - r);
    return true;
}

/* Sorts a[0..m) (indices into key and key2) by (key, key2, index), stably;
 * tmp[0..m) is scratch. key2 may be NULL. */
void dmlt__plan_sort(uint32_t *a, uint32_t *tmp, size_t m, const uint64_t *key,
                     const uint64_t *key2);

/* The orders of the skyline placement: which unplaced tensor, of those that
 * fit in the lowest part of the skyline, goes there first. */
enum dmlt__sky_order {
    DMLT__SKY_WIDTH, /* longest lifetime, then largest size (minimalloc's first pass) */
    DMLT__SKY_SIZE,  /* largest size, then longest lifetime */
    DMLT__SKY_AREA   /* largest size x lifetime, then longest lifetime */
};

/* Bytes of scratch the skyline needs for n tensors (at most 104 n + 120);
 * SIZE_MAX past SIZE_MAX. */
size_t dmlt__sky_scratch(size_t n);

/* The skyline placement of nodes[0..n) (by first step), at the lowest part
 * of the skyline first: each node's off set, *arena the top. False when an
 * offset would pass 2^64 - 1. scratch: dmlt__sky_scratch(n) bytes, 8-byte
 * aligned; *work counts the tree nodes visited. O(n log n). */
bool dmlt__sky_place(struct dmlt__plan_node *nodes, size_t n, uint64_t align,
                     enum dmlt__sky_order order, void *scratch, uint64_t *arena, uint64_t *work);

/* The search for a plan within a capacity (plan_search.c): for at most
 * DMLT__SEARCH_N tensors. */
#define DMLT__SEARCH_N 512u

/* Bytes of scratch the search needs for n tensors (0 past DMLT__SEARCH_N):
 * about 44 n^2 + 150 n. */
size_t dmlt__search_scratch(size_t n);

/* A plan of nodes[0..n) whose arena is at most cap, found by a depth-first
 * search within budget units of work (*work counts them): 1 found (each
 * node's off set), 0 there is none, -1 the budget ran out first. */
int dmlt__search(struct dmlt__plan_node *nodes, size_t n, uint64_t align, uint64_t cap,
                 void *scratch, uint64_t budget, uint64_t *work);

#endif
