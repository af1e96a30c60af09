/* wide.h - the library's 128-bit arithmetic, in one place; not installed.
 *
 * wu128 is an unsigned 128-bit integer, wi128 a signed one (two's
 * complement). Where the compiler has __int128 (GCC, Clang) they are the
 * native types; elsewhere (MSVC), or when the build asks for it with
 * -DDMLT_PORTABLE_U128 (CMake option DMLT_PORTABLE_U128, which CI builds
 * and tests), they are pairs of 64-bit words and every operation below is
 * written out in 64-bit arithmetic. The rest of src/lib touches wide values
 * only through these functions, so both paths compute the same numbers.
 *
 * Plain operations (w_add, w_sub, w_mul_lo, wi_*) wrap modulo 2^128 like C's
 * unsigned arithmetic: use them where the comment at the call says why the
 * result fits. The _ok forms are checked and return false on overflow.
 */
#ifndef DMLT_WIDE_H
#define DMLT_WIDE_H

#include "dmltensor.h"

#if defined(__SIZEOF_INT128__) && !defined(DMLT_PORTABLE_U128)
#define DMLT_WIDE_NATIVE 1
__extension__ typedef unsigned __int128 wu128;
__extension__ typedef __int128 wi128;
#else
#define DMLT_WIDE_NATIVE 0
typedef dmlt_u128 wu128;
typedef struct wi128 {
    uint64_t lo, hi; /* two's complement: hi's top bit is the sign */
} wi128;
#endif

/* ---- conversions ---------------------------------------------------------- */

static inline wu128 w_u64(uint64_t v)
{
#if DMLT_WIDE_NATIVE
    return v;
#else
    wu128 r = {v, 0};
    return r;
#endif
}

static inline wu128 w_from_pub(dmlt_u128 v)
{
#if DMLT_WIDE_NATIVE
    return (wu128)v.hi << 64 | v.lo;
#else
    return v;
#endif
}

static inline dmlt_u128 w_to_pub(wu128 v)
{
#if DMLT_WIDE_NATIVE
    dmlt_u128 r = {(uint64_t)v, (uint64_t)(v >> 64)};
    return r;
#else
    return v;
#endif
}

/* The low 64 bits. */
static inline uint64_t w_low(wu128 v)
{
#if DMLT_WIDE_NATIVE
    return (uint64_t)v;
#else
    return v.lo;
#endif
}

static inline uint64_t w_high(wu128 v)
{
#if DMLT_WIDE_NATIVE
    return (uint64_t)(v >> 64);
#else
    return v.hi;
#endif
}

/* 2^128 - 1 */
static inline wu128 w_max(void)
{
#if DMLT_WIDE_NATIVE
    return ~(wu128)0;
#else
    wu128 r = {UINT64_MAX, UINT64_MAX};
    return r;
#endif
}

static inline bool w_fits_u64(wu128 v)
{
    return w_high(v) == 0;
}

/* ---- comparisons ------------------------------------------------------------ */

static inline bool w_eq(wu128 a, wu128 b)
{
#if DMLT_WIDE_NATIVE
    return a == b;
#else
    return a.lo == b.lo && a.hi == b.hi;
#endif
}

static inline bool w_lt(wu128 a, wu128 b)
{
#if DMLT_WIDE_NATIVE
    return a < b;
#else
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
#endif
}

static inline bool w_le(wu128 a, wu128 b)
{
    return !w_lt(b, a);
}

static inline bool w_is_zero(wu128 a)
{
#if DMLT_WIDE_NATIVE
    return a == 0;
#else
    return (a.lo | a.hi) == 0;
#endif
}

/* ---- wrapping arithmetic ------------------------------------------------------ */

static inline wu128 w_add(wu128 a, wu128 b)
{
#if DMLT_WIDE_NATIVE
    return a + b;
#else
    wu128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
#endif
}

static inline wu128 w_add64(wu128 a, uint64_t b)
{
    return w_add(a, w_u64(b));
}

static inline wu128 w_sub(wu128 a, wu128 b)
{
#if DMLT_WIDE_NATIVE
    return a - b;
#else
    wu128 r;
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (a.lo < b.lo);
    return r;
#endif
}

/* The full product of two 64-bit numbers: never wraps. */
static inline wu128 w_mul64(uint64_t a, uint64_t b)
{
#if DMLT_WIDE_NATIVE
    return (wu128)a * b;
#else
    const uint64_t m = 0xFFFFFFFFu;
    uint64_t a0 = a & m, a1 = a >> 32, b0 = b & m, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & m) + (p10 & m); /* < 3 x 2^32 */
    wu128 r;
    r.lo = (mid << 32) | (p00 & m);
    r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    return r;
#endif
}

/* a x b modulo 2^128. */
static inline wu128 w_mul_lo(wu128 a, uint64_t b)
{
#if DMLT_WIDE_NATIVE
    return a * b;
#else
    wu128 r = w_mul64(a.lo, b);
    r.hi += a.hi * b;
    return r;
#endif
}

static inline wu128 w_shr(wu128 a, unsigned n) /* n < 128 */
{
#if DMLT_WIDE_NATIVE
    return a >> n;
#else
    wu128 r;
    if (n == 0)
        return a;
    if (n >= 64) {
        r.lo = a.hi >> (n - 64);
        r.hi = 0;
    } else {
        r.lo = (a.lo >> n) | (a.hi << (64 - n));
        r.hi = a.hi >> n;
    }
    return r;
#endif
}

/* ---- checked arithmetic: false when the result passes 2^128 - 1 ------------- */

static inline bool w_add_ok(wu128 a, wu128 b, wu128 *out)
{
    wu128 r = w_add(a, b);
    if (w_lt(r, a))
        return false;
    *out = r;
    return true;
}

static inline bool w_mul_ok(wu128 a, wu128 b, wu128 *out)
{
#if DMLT_WIDE_NATIVE
    if (a != 0 && b > ~(wu128)0 / a)
        return false;
    *out = a * b;
    return true;
#else
    if (a.hi != 0 && b.hi != 0)
        return false; /* at least 2^64 x 2^64 */
    /* One of the cross terms is 0; the other must fit in 64 bits. */
    wu128 cross = w_add(w_mul64(a.hi, b.lo), w_mul64(a.lo, b.hi));
    if (cross.hi != 0)
        return false;
    wu128 r = w_mul64(a.lo, b.lo);
    r.hi += cross.lo;
    if (r.hi < cross.lo)
        return false;
    *out = r;
    return true;
#endif
}

/* ---- division by a 64-bit number ------------------------------------------- */

/* a / d, and a % d into *rem (may be NULL). d must not be 0. */
static inline wu128 w_divmod64(wu128 a, uint64_t d, uint64_t *rem)
{
#if DMLT_WIDE_NATIVE
    if (rem)
        *rem = (uint64_t)(a % d);
    return a / d;
#else
    wu128 q;
    uint64_t r;
    if (d <= 0xFFFFFFFFu) {
        /* Long division in 32-bit digits: each step divides < 2^64. */
        const uint64_t m = 0xFFFFFFFFu;
        uint64_t cur = a.hi >> 32, q3, q2, q1, q0;
        q3 = cur / d;
        cur = (cur % d) << 32 | (a.hi & m);
        q2 = cur / d;
        cur = (cur % d) << 32 | (a.lo >> 32);
        q1 = cur / d;
        cur = (cur % d) << 32 | (a.lo & m);
        q0 = cur / d;
        r = cur % d;
        q.hi = q3 << 32 | q2;
        q.lo = q1 << 32 | q0;
    } else {
        /* The high word directly, then the low one bit by bit. */
        q.hi = a.hi / d;
        r = a.hi % d;
        q.lo = 0;
        for (unsigned i = 64; i-- > 0;) {
            uint64_t carry = r >> 63;
            r = r << 1 | ((a.lo >> i) & 1u);
            if (carry || r >= d) {
                r -= d; /* (2r + bit) - d < d: the wrap gives the true value */
                q.lo |= (uint64_t)1 << i;
            }
        }
    }
    if (rem)
        *rem = r;
    return q;
#endif
}

/* a % d, d != 0. */
static inline uint64_t w_mod64(wu128 a, uint64_t d)
{
    uint64_t r;
    (void)w_divmod64(a, d, &r);
    return r;
}

/* ---- signed --------------------------------------------------------------- */

static inline wi128 wi_i64(int64_t v)
{
#if DMLT_WIDE_NATIVE
    return v;
#else
    wi128 r = {(uint64_t)v, v < 0 ? UINT64_MAX : 0};
    return r;
#endif
}

/* A non-negative value below 2^127. */
static inline wi128 wi_from_u(wu128 v)
{
#if DMLT_WIDE_NATIVE
    return (wi128)v;
#else
    wi128 r = {v.lo, v.hi};
    return r;
#endif
}

static inline bool wi_is_neg(wi128 a)
{
#if DMLT_WIDE_NATIVE
    return a < 0;
#else
    return (a.hi >> 63) != 0;
#endif
}

static inline bool wi_is_zero(wi128 a)
{
#if DMLT_WIDE_NATIVE
    return a == 0;
#else
    return (a.lo | a.hi) == 0;
#endif
}

static inline bool wi_lt(wi128 a, wi128 b)
{
#if DMLT_WIDE_NATIVE
    return a < b;
#else
    int64_t ah = (int64_t)a.hi, bh = (int64_t)b.hi;
    return ah < bh || (ah == bh && a.lo < b.lo);
#endif
}

static inline wi128 wi_add(wi128 a, wi128 b)
{
#if DMLT_WIDE_NATIVE
    return (wi128)((wu128)a + (wu128)b);
#else
    wi128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
#endif
}

static inline wi128 wi_sub(wi128 a, wi128 b)
{
#if DMLT_WIDE_NATIVE
    return (wi128)((wu128)a - (wu128)b);
#else
    wi128 r;
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (a.lo < b.lo);
    return r;
#endif
}

static inline wi128 wi_neg(wi128 a)
{
    return wi_sub(wi_i64(0), a);
}

/* The full product of two 64-bit signed numbers: never wraps. */
static inline wi128 wi_mul64(int64_t a, int64_t b)
{
#if DMLT_WIDE_NATIVE
    return (wi128)a * b;
#else
    /* Unsigned product of the magnitudes, then the sign. */
    uint64_t ma = a < 0 ? 0u - (uint64_t)a : (uint64_t)a;
    uint64_t mb = b < 0 ? 0u - (uint64_t)b : (uint64_t)b;
    wu128 p = w_mul64(ma, mb);
    wi128 r = {p.lo, p.hi};
    return (a < 0) != (b < 0) ? wi_neg(r) : r;
#endif
}

/* |a| as an unsigned number (2^127 for the most negative). */
static inline wu128 wi_abs(wi128 a)
{
#if DMLT_WIDE_NATIVE
    return a < 0 ? 0u - (wu128)a : (wu128)a;
#else
    wi128 m = wi_is_neg(a) ? wi_neg(a) : a;
    wu128 r = {m.lo, m.hi};
    return r;
#endif
}

/* floor(a / d) and ceil(a / d) for d > 0, and a mod d in [0, d). The
 * portable path divides the magnitude and corrects for the sign. */
static inline wi128 wi_floor_div(wi128 a, int64_t d)
{
#if DMLT_WIDE_NATIVE
    wi128 q = a / d;
    return (a % d != 0 && a < 0) ? q - 1 : q;
#else
    uint64_t r;
    wu128 q = w_divmod64(wi_abs(a), (uint64_t)d, &r);
    if (!wi_is_neg(a))
        return wi_from_u(q);
    return wi_neg(wi_from_u(r != 0 ? w_add64(q, 1) : q));
#endif
}

static inline wi128 wi_ceil_div(wi128 a, int64_t d)
{
#if DMLT_WIDE_NATIVE
    wi128 q = a / d;
    return (a % d != 0 && a > 0) ? q + 1 : q;
#else
    uint64_t r;
    wu128 q = w_divmod64(wi_abs(a), (uint64_t)d, &r);
    if (wi_is_neg(a))
        return wi_neg(wi_from_u(q));
    return wi_from_u(r != 0 ? w_add64(q, 1) : q);
#endif
}

static inline int64_t wi_mod(wi128 a, int64_t d)
{
#if DMLT_WIDE_NATIVE
    wi128 r = a % d;
    return (int64_t)(r < 0 ? r + d : r);
#else
    uint64_t r = w_mod64(wi_abs(a), (uint64_t)d);
    return (int64_t)(wi_is_neg(a) && r != 0 ? (uint64_t)d - r : r);
#endif
}

/* The value, for one known to be within int64_t. */
static inline int64_t wi_to_i64(wi128 a)
{
#if DMLT_WIDE_NATIVE
    return (int64_t)a;
#else
    return (int64_t)a.lo;
#endif
}

#endif
