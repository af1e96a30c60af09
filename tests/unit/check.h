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

static inline void check_u128_str(char *buf, dmlt_u128 v)
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

static inline bool check_eq_u128(dmlt_u128 a, dmlt_u128 b, const char *ea, const char *eb,
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

#define CHECK_EQ(a, b) check_eq_u128((dmlt_u128)(a), (dmlt_u128)(b), #a, #b, __FILE__, __LINE__)

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
