/* check.h - a tiny test harness in the manner of libuv's ASSERT macros:
 * each failed check prints file:line and both values, and the test goes on
 * so one run shows every failure. main() returns check_finish(). */
#ifndef DMLT_CHECK_H
#define DMLT_CHECK_H

#include "dmltensor.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static unsigned long check_passed, check_failed;

/* The tests' reference arithmetic is the compiler's own unsigned __int128
 * (GCC and Clang): independent of the library's dmlt_u128 code, which on
 * the portable build (DMLT_PORTABLE_U128) uses no __int128 at all. R() reads
 * a library value into it, P() makes one for the library. */
#if !defined(__SIZEOF_INT128__)
#error "the unit tests need unsigned __int128 (GCC or Clang) as their reference"
#endif
__extension__ typedef unsigned __int128 ref_u128;
__extension__ typedef __int128 ref_i128;

static inline ref_u128 R(dmlt_u128 v)
{
    return (ref_u128)v.hi << 64 | v.lo;
}

static inline dmlt_u128 P(ref_u128 v)
{
    dmlt_u128 r = {(uint64_t)v, (uint64_t)(v >> 64)};
    return r;
}

static inline void check_u128_str(char *buf, ref_u128 v)
{
    char tmp[48];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
}

static inline bool check_eq_u128(ref_u128 a, ref_u128 b, const char *ea, const char *eb,
                                 const char *file, int line)
{
    if (a == b) {
        check_passed++;
        return true;
    }
    char sa[48], sb[48];
    check_u128_str(sa, a);
    check_u128_str(sb, b);
    fprintf(stderr, "%s:%d: CHECK_EQ(%s, %s) failed: %s != %s\n", file, line, ea, eb, sa, sb);
    check_failed++;
    return false;
}

/* Any integer or dmlt_u128 as a ref_u128 (signed ones converted as a cast
 * would: -1 is 2^128 - 1). */
static inline ref_u128 check_ref_same(ref_u128 v)
{
    return v;
}
static inline ref_u128 check_ref_int(long long v)
{
    return (ref_u128)v;
}
static inline ref_u128 check_ref_i128(ref_i128 v)
{
    return (ref_u128)v;
}
#define CHECK_REF(x)                                                                               \
    _Generic((x), dmlt_u128                                                                        \
             : R, int                                                                              \
             : check_ref_int, long                                                                 \
             : check_ref_int, long long                                                            \
             : check_ref_int, ref_i128                                                             \
             : check_ref_i128, default                                                             \
             : check_ref_same)(x)

#define CHECK_EQ(a, b) check_eq_u128(CHECK_REF(a), CHECK_REF(b), #a, #b, __FILE__, __LINE__)

#define CHECK(cond)                                                                                \
    ((cond) ? (check_passed++, true)                                                               \
            : (fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond),            \
               check_failed++, false))

#define CHECK_STR(a, b)                                                                            \
    ((strcmp((a), (b)) == 0)                                                                       \
         ? (check_passed++, true)                                                                  \
         : (fprintf(stderr, "%s:%d: CHECK_STR(%s, %s) failed: \"%s\" != \"%s\"\n", __FILE__,       \
                    __LINE__, #a, #b, (a), (b)),                                                   \
            check_failed++, false))

/* Deterministic xorshift so failures reproduce. */
static uint64_t check_rng_state = 0x9E3779B97F4A7C15u;
static inline uint64_t check_rand(void)
{
    uint64_t x = check_rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return check_rng_state = x;
}
/* Uniform-ish in [lo, hi]. */
static inline uint32_t check_range(uint32_t lo, uint32_t hi)
{
    return lo + (uint32_t)(check_rand() % ((uint64_t)hi - lo + 1));
}

static inline int check_finish(const char *name)
{
    printf("%s: %lu checks passed, %lu failed\n", name, check_passed, check_failed);
    return check_failed == 0 ? 0 : 1;
}

#endif
