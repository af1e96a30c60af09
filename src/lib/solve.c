/* solve.c - bounded linear Diophantine search.
 *
 * Finds every integer vector x with lo[i] <= x[i] <= hi[i] and
 * sum a[i] x[i] == target, where a[i] >= 0. This one problem answers both
 * "which coordinates have offset K" (x = coordinate, a = strides) and "do two
 * coordinates share an offset" (x = their difference, target 0).
 *
 * Depth-first over the variables in the order given. At each level only
 * values of x[i] that the remaining variables can still balance are tried:
 * the remainder must lie between the smallest and largest sum the rest can
 * make, and be a multiple of the gcd of their coefficients. The second
 * condition fixes x[i] modulo G/gcd(a[i], G), so the loop steps by that,
 * which makes packed and padded layouts cost O(rank) per solution.
 * All arithmetic is in 128 bits: |a| <= 2^32, |x| <= 2^32, sums < 2^68. */
#include "internal.h"

struct search {
    unsigned n;
    const dmlt_i128 *a, *lo, *hi;
    dmlt_i128 min_rest[DMLT_MAX_RANK + 1]; /* smallest sum of a[j]x[j], j >= i */
    dmlt_i128 max_rest[DMLT_MAX_RANK + 1]; /* largest */
    dmlt_i128 gcd_rest[DMLT_MAX_RANK + 1]; /* gcd of a[j], j >= i (0: none) */
    dmlt_i128 x[DMLT_MAX_RANK];
    unsigned long work, cap, visited;
    bool renew; /* a solution starts the count of work again */
    dmlt__solution_fn fn;
    void *ctx;
};

static dmlt_i128 gcd(dmlt_i128 a, dmlt_i128 b)
{
    while (b != 0) {
        dmlt_i128 t = a % b;
        a = b;
        b = t;
    }
    return a < 0 ? -a : a;
}

static dmlt_i128 floor_div(dmlt_i128 a, dmlt_i128 b) /* b > 0 */
{
    dmlt_i128 q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static dmlt_i128 ceil_div(dmlt_i128 a, dmlt_i128 b) /* b > 0 */
{
    dmlt_i128 q = a / b;
    return (a % b != 0 && a > 0) ? q + 1 : q;
}

static dmlt_i128 mod_pos(dmlt_i128 a, dmlt_i128 m) /* m > 0, result in [0, m) */
{
    dmlt_i128 r = a % m;
    return r < 0 ? r + m : r;
}

/* Inverse of a modulo m, for gcd(a, m) == 1 and m >= 1. */
static dmlt_i128 mod_inverse(dmlt_i128 a, dmlt_i128 m)
{
    dmlt_i128 r0 = m, r1 = mod_pos(a, m), s0 = 0, s1 = 1;
    while (r1 != 0) {
        dmlt_i128 q = r0 / r1, t;
        t = r0 - q * r1;
        r0 = r1;
        r1 = t;
        t = s0 - q * s1;
        s0 = s1;
        s1 = t;
    }
    return mod_pos(s0, m);
}

static enum dmlt__solve_result report(struct search *s)
{
    if (s->renew)
        s->work = 0; /* the cap bounds the work between two solutions */
    return s->fn(s->ctx, s->x, s->n) ? DMLT__SOLVE_DONE : DMLT__SOLVE_STOPPED;
}

static enum dmlt__solve_result visit(struct search *s, unsigned i, dmlt_i128 rem)
{
    if (++s->work > s->cap)
        return DMLT__SOLVE_CAPPED;
    s->visited++;
    const dmlt_i128 a = s->a[i];
    dmlt_i128 lo = s->lo[i], hi = s->hi[i], step = 1;

    if (a != 0) {
        /* rem - a x must stay within what the rest can make... */
        dmlt_i128 lo_b = ceil_div(rem - s->max_rest[i + 1], a);
        dmlt_i128 hi_b = floor_div(rem - s->min_rest[i + 1], a);
        if (lo_b > lo)
            lo = lo_b;
        if (hi_b < hi)
            hi = hi_b;
        if (lo > hi)
            return DMLT__SOLVE_DONE;
        /* ...and be a multiple of the rest's gcd G: a x == rem (mod G). */
        dmlt_i128 G = s->gcd_rest[i + 1];
        if (G > 1) {
            dmlt_i128 g = gcd(a, G);
            if (mod_pos(rem, g) != 0)
                return DMLT__SOLVE_DONE;
            step = G / g;
            dmlt_i128 x0 = mod_pos(mod_pos(rem / g, step) * mod_inverse(a / g, step), step);
            lo += mod_pos(x0 - lo, step);
        }
    } else if (rem < s->min_rest[i + 1] || rem > s->max_rest[i + 1]) {
        return DMLT__SOLVE_DONE;
    }

    for (dmlt_i128 v = lo; v <= hi; v += step) {
        s->x[i] = v;
        dmlt_i128 next = rem - a * v;
        enum dmlt__solve_result r;
        if (i + 1 == s->n)
            r = next == 0 ? report(s) : DMLT__SOLVE_DONE;
        else
            r = visit(s, i + 1, next);
        if (r != DMLT__SOLVE_DONE)
            return r;
    }
    return DMLT__SOLVE_DONE;
}

enum dmlt__solve_result dmlt__solve(unsigned n, const dmlt_i128 a[], const dmlt_i128 lo[],
                                    const dmlt_i128 hi[], dmlt_i128 target, unsigned long work_cap,
                                    bool renew, unsigned long *visited, dmlt__solution_fn fn,
                                    void *ctx)
{
    struct search s;
    s.n = n;
    s.a = a;
    s.lo = lo;
    s.hi = hi;
    s.work = 0;
    s.cap = work_cap;
    s.visited = 0;
    s.renew = renew;
    s.fn = fn;
    s.ctx = ctx;
    if (visited)
        *visited = 0;
    if (n == 0 || n > DMLT_MAX_RANK)
        return DMLT__SOLVE_DONE;
    for (unsigned i = 0; i < n; i++)
        if (lo[i] > hi[i])
            return DMLT__SOLVE_DONE;
    s.min_rest[n] = s.max_rest[n] = s.gcd_rest[n] = 0;
    for (unsigned i = n; i-- > 0;) {
        s.min_rest[i] = s.min_rest[i + 1] + a[i] * lo[i];
        s.max_rest[i] = s.max_rest[i + 1] + a[i] * hi[i];
        s.gcd_rest[i] = gcd(s.gcd_rest[i + 1], a[i]);
    }
    enum dmlt__solve_result r = visit(&s, 0, target);
    if (visited)
        *visited = s.visited;
    return r;
}
