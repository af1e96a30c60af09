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
 * |a| <= 2^32 and |x| <= 2^32 fit 64 bits; the sums, below 2^68, are wide
 * (wide.h). */
#include "internal.h"

struct search {
    unsigned n;
    const int64_t *a, *lo, *hi;
    wi128 min_rest[DMLT_MAX_RANK + 1];   /* smallest sum of a[j]x[j], j >= i */
    wi128 max_rest[DMLT_MAX_RANK + 1];   /* largest */
    int64_t gcd_rest[DMLT_MAX_RANK + 1]; /* gcd of a[j], j >= i (0: none) */
    int64_t x[DMLT_MAX_RANK];
    unsigned long work, cap;
    dmlt__solution_fn fn;
    void *ctx;
};

/* gcd of a, b >= 0 (all coefficients are). */
static int64_t gcd(int64_t a, int64_t b)
{
    while (b != 0) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int64_t mod_pos(int64_t a, int64_t m) /* m > 0, result in [0, m) */
{
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}

/* Inverse of a modulo m, for gcd(a, m) == 1 and 1 <= m <= 2^32: every
 * Bezout coefficient stays below m in magnitude, so 64 bits hold them. */
static int64_t mod_inverse(int64_t a, int64_t m)
{
    int64_t r0 = m, r1 = mod_pos(a, m), s0 = 0, s1 = 1;
    while (r1 != 0) {
        int64_t q = r0 / r1, t;
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
    s->work = 0; /* the cap bounds the work between two solutions */
    return s->fn(s->ctx, s->x, s->n) ? DMLT__SOLVE_DONE : DMLT__SOLVE_STOPPED;
}

static enum dmlt__solve_result visit(struct search *s, unsigned i, wi128 rem)
{
    if (++s->work > s->cap)
        return DMLT__SOLVE_CAPPED;
    const int64_t a = s->a[i];
    int64_t lo = s->lo[i], hi = s->hi[i], step = 1;

    if (a != 0) {
        /* rem - a x must stay within what the rest can make... */
        wi128 lo_b = wi_ceil_div(wi_sub(rem, s->max_rest[i + 1]), a);
        wi128 hi_b = wi_floor_div(wi_sub(rem, s->min_rest[i + 1]), a);
        if (wi_lt(wi_i64(hi), lo_b) || wi_lt(hi_b, wi_i64(lo)))
            return DMLT__SOLVE_DONE;
        /* Both bounds now lie within [lo, hi] or beyond its other end. */
        if (wi_lt(wi_i64(lo), lo_b))
            lo = wi_to_i64(lo_b);
        if (wi_lt(hi_b, wi_i64(hi)))
            hi = wi_to_i64(hi_b);
        if (lo > hi)
            return DMLT__SOLVE_DONE;
        /* ...and be a multiple of the rest's gcd G: a x == rem (mod G). */
        int64_t G = s->gcd_rest[i + 1];
        if (G > 1) {
            int64_t g = gcd(a, G);
            if (wi_mod(rem, g) != 0)
                return DMLT__SOLVE_DONE;
            step = G / g;
            /* Both factors are below step <= 2^32: the product fits. */
            uint64_t r = (uint64_t)wi_mod(wi_floor_div(rem, g), step);
            uint64_t inv = (uint64_t)mod_inverse(a / g, step);
            int64_t x0 = (int64_t)(r * inv % (uint64_t)step);
            lo += mod_pos(x0 - lo, step);
        }
    } else if (wi_lt(rem, s->min_rest[i + 1]) || wi_lt(s->max_rest[i + 1], rem)) {
        return DMLT__SOLVE_DONE;
    }

    for (int64_t v = lo; v <= hi; v += step) {
        s->x[i] = v;
        wi128 next = wi_sub(rem, wi_mul64(a, v));
        enum dmlt__solve_result r;
        if (i + 1 == s->n)
            r = wi_is_zero(next) ? report(s) : DMLT__SOLVE_DONE;
        else
            r = visit(s, i + 1, next);
        if (r != DMLT__SOLVE_DONE)
            return r;
    }
    return DMLT__SOLVE_DONE;
}

enum dmlt__solve_result dmlt__solve(unsigned n, const int64_t a[], const int64_t lo[],
                                    const int64_t hi[], wi128 target, unsigned long work_cap,
                                    dmlt__solution_fn fn, void *ctx)
{
    struct search s;
    s.n = n;
    s.a = a;
    s.lo = lo;
    s.hi = hi;
    s.work = 0;
    s.cap = work_cap;
    s.fn = fn;
    s.ctx = ctx;
    if (n == 0 || n > DMLT_MAX_RANK)
        return DMLT__SOLVE_DONE;
    for (unsigned i = 0; i < n; i++)
        if (lo[i] > hi[i])
            return DMLT__SOLVE_DONE;
    s.min_rest[n] = s.max_rest[n] = wi_i64(0);
    s.gcd_rest[n] = 0;
    for (unsigned i = n; i-- > 0;) {
        s.min_rest[i] = wi_add(s.min_rest[i + 1], wi_mul64(a[i], lo[i]));
        s.max_rest[i] = wi_add(s.max_rest[i + 1], wi_mul64(a[i], hi[i]));
        s.gcd_rest[i] = gcd(s.gcd_rest[i + 1], a[i]);
    }
    return visit(&s, 0, target);
}
