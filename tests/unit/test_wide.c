/* test_wide.c - the 128-bit arithmetic against the compiler's own
 * unsigned __int128 / __int128 (check.h's ref_u128), which is the
 * independent reference here: the public dmlt_u128 helpers (dmltensor.h)
 * and the library's internal ones (src/lib/wide.h), on boundary values
 * (0, 1, 2^32, 2^64-1, 2^64, 2^127, 2^128-1 and their neighbours) and on
 * random ones of every magnitude. Run on the default build it tests the
 * native path of wide.h; on the portable build (DMLT_PORTABLE_U128, the
 * `portable` preset) the code under test is the pure 64-bit-word one. */
#include "check.h"
#include "wide.h"

#include <stdlib.h>

#if defined(DMLT_PORTABLE_U128) && DMLT_WIDE_NATIVE
#error "DMLT_PORTABLE_U128 must select the portable path of wide.h"
#endif

#define REF_MAX (~(ref_u128)0)

static ref_u128 W(wu128 v)
{
    return R(w_to_pub(v));
}

static wu128 WP(ref_u128 v)
{
    return w_from_pub(P(v));
}

static ref_i128 WI(wi128 v)
{
#if DMLT_WIDE_NATIVE
    return v;
#else
    return (ref_i128)((ref_u128)v.hi << 64 | v.lo);
#endif
}

static wi128 WIP(ref_i128 v)
{
#if DMLT_WIDE_NATIVE
    return v;
#else
    wi128 r = {(uint64_t)v, (uint64_t)((ref_u128)v >> 64)};
    return r;
#endif
}

/* ---- the values ----------------------------------------------------------- */

#define N_EDGES 23
static ref_u128 edges[N_EDGES];

static void init_edges(void)
{
    const ref_u128 one = 1;
    const ref_u128 e[N_EDGES] = {0,
                                 1,
                                 2,
                                 3,
                                 10,
                                 (one << 32) - 1,
                                 one << 32,
                                 (one << 32) + 1,
                                 one << 63,
                                 (one << 64) - 2,
                                 (one << 64) - 1,
                                 one << 64,
                                 (one << 64) + 1,
                                 ((one << 64) - 1) << 32,
                                 one << 96,
                                 (one << 127) - 1,
                                 one << 127,
                                 (one << 127) + 1,
                                 REF_MAX - 1,
                                 REF_MAX,
                                 (ref_u128)UINT64_C(10000000000000000000),
                                 (ref_u128)UINT64_C(10000000000000000000) *
                                     UINT64_C(10000000000000000000),
                                 REF_MAX / 3};
    memcpy(edges, e, sizeof e);
}

/* Random, of a random magnitude: every bit length is as likely. */
static ref_u128 rand_u128(void)
{
    ref_u128 v = (ref_u128)check_rand() << 64 | check_rand();
    return v >> (check_rand() % 128);
}

static uint64_t rand_u64(void)
{
    return check_rand() >> (check_rand() % 64);
}

/* ---- the public helpers ------------------------------------------------------ */

static void check_public_pair(ref_u128 a, ref_u128 b)
{
    const dmlt_u128 pa = P(a), pb = P(b);
    dmlt_u128 out = P(12345);

    CHECK_EQ(dmlt_u128_cmp(pa, pb), a < b ? -1 : a > b ? 1 : 0);
    CHECK_EQ(dmlt_u128_eq(pa, pb), a == b);

    bool add_fits = a <= REF_MAX - b;
    CHECK_EQ(dmlt_u128_add(pa, pb, &out), add_fits);
    CHECK_EQ(out, add_fits ? a + b : 12345); /* untouched on overflow */
    out = P(12345);

    bool sub_fits = b <= a;
    CHECK_EQ(dmlt_u128_sub(pa, pb, &out), sub_fits);
    CHECK_EQ(out, sub_fits ? a - b : 12345);
    out = P(12345);

    bool mul_fits = a == 0 || b <= REF_MAX / a;
    CHECK_EQ(dmlt_u128_mul(pa, pb, &out), mul_fits);
    CHECK_EQ(out, mul_fits ? a * b : 12345);
}

static void check_public_one(ref_u128 a)
{
    const dmlt_u128 pa = P(a);
    CHECK_EQ(dmlt_u128_fits_u64(pa), a <= UINT64_MAX);
    CHECK_EQ(dmlt_u128_to_u64(pa), (uint64_t)a);

    char want[48], got[DMLT_U128_DEC_SIZE + 8];
    check_u128_str(want, a);
    memset(got, 'x', sizeof got);
    size_t n = dmlt_u128_to_dec(pa, got);
    CHECK_EQ(n, strlen(want));
    CHECK_STR(got, want); /* NUL-terminated */

    dmlt_u128 back = P(7);
    CHECK(dmlt_u128_parse_dec(got, n, &back));
    CHECK_EQ(back, a);
    /* One more digit: in range exactly when a x 10 + 9 is. */
    got[n] = '9';
    back = P(7);
    bool fits = a <= (REF_MAX - 9) / 10;
    CHECK_EQ(dmlt_u128_parse_dec(got, n + 1, &back), fits);
    CHECK_EQ(back, fits ? a * 10 + 9 : 7);

    CHECK(dmlt_u128_to_double(pa) == (double)a);
}

static void check_public_div(ref_u128 a, uint64_t d)
{
    dmlt_u128 q = P(1);
    uint64_t r = 1;
    if (d == 0) {
        CHECK(!dmlt_u128_divmod(P(a), 0, &q, &r));
        CHECK_EQ(q, 1);
        return;
    }
    CHECK(dmlt_u128_divmod(P(a), d, &q, &r));
    CHECK_EQ(q, a / d);
    CHECK_EQ(r, a % d);
    CHECK(dmlt_u128_divmod(P(a), d, NULL, &r) && r == a % d);
    CHECK(dmlt_u128_divmod(P(a), d, &q, NULL));
    CHECK_EQ(q, a / d);
}

static const uint64_t divisors[] = {0,
                                    1,
                                    2,
                                    3,
                                    7,
                                    8,
                                    10,
                                    16,
                                    0xFFFFFFFFu,
                                    UINT64_C(0x100000000),
                                    UINT64_C(0x100000001),
                                    UINT64_C(10000000000000000000),
                                    UINT64_C(1) << 63,
                                    (UINT64_C(1) << 63) + 1,
                                    UINT64_MAX - 1,
                                    UINT64_MAX};
#define N_DIVISORS (sizeof divisors / sizeof divisors[0])

static void test_public(void)
{
    for (unsigned i = 0; i < N_EDGES; i++) {
        check_public_one(edges[i]);
        for (unsigned j = 0; j < N_EDGES; j++)
            check_public_pair(edges[i], edges[j]);
        for (unsigned j = 0; j < N_DIVISORS; j++)
            check_public_div(edges[i], divisors[j]);
    }
    for (int i = 0; i < 20000; i++) {
        ref_u128 a = rand_u128(), b = rand_u128();
        check_public_pair(a, b);
        check_public_one(a);
        check_public_div(a, rand_u64());
        check_public_div(a, (uint64_t)check_range(1, 1000));
    }
    CHECK_EQ(dmlt_u128_from_u64(UINT64_MAX), UINT64_MAX);
    CHECK_EQ(dmlt_u128_max(), REF_MAX);

    /* Parsing refuses what is not a number below 2^128. */
    dmlt_u128 v = P(5);
    CHECK(!dmlt_u128_parse_dec("", 0, &v));
    CHECK(!dmlt_u128_parse_dec("12a", 3, &v));
    CHECK(!dmlt_u128_parse_dec("-1", 2, &v));
    CHECK(!dmlt_u128_parse_dec("+1", 2, &v));
    CHECK(!dmlt_u128_parse_dec(" 1", 2, &v));
    CHECK(!dmlt_u128_parse_dec("1.5", 3, &v));
    static const char two128[] = "340282366920938463463374607431768211456";
    static const char max128[] = "340282366920938463463374607431768211455";
    CHECK(!dmlt_u128_parse_dec(two128, sizeof two128 - 1, &v));
    CHECK(!dmlt_u128_parse_dec("1000000000000000000000000000000000000000", 40, &v));
    CHECK_EQ(v, 5);
    CHECK(dmlt_u128_parse_dec(max128, sizeof max128 - 1, &v));
    CHECK_EQ(v, REF_MAX);
    CHECK(dmlt_u128_parse_dec("000000000000000000000000000000000000000000007", 45, &v));
    CHECK_EQ(v, 7);
    CHECK(dmlt_u128_parse_dec("18446744073709551616", 20, &v)); /* 2^64 */
    CHECK_EQ(v, (ref_u128)1 << 64);
    char buf[DMLT_U128_DEC_SIZE];
    CHECK_EQ(dmlt_u128_to_dec(dmlt_u128_max(), buf), 39);
    CHECK_STR(buf, max128);
    CHECK_EQ(dmlt_u128_to_dec(P(0), buf), 1);
    CHECK_STR(buf, "0");

    /* to_double rounds to nearest, ties to even, past 2^64 too. */
    const ref_u128 t = ((ref_u128)1 << 80) + ((ref_u128)1 << 27); /* a tie: even */
    CHECK(dmlt_u128_to_double(P(t)) == 1208925819614629174706176.0);
    CHECK(dmlt_u128_to_double(P(t + 1)) == (double)(t + 1)); /* past the tie: up */
    CHECK(dmlt_u128_to_double(P(REF_MAX)) == 340282366920938463463374607431768211456.0);
}

/* ---- wide.h ------------------------------------------------------------------ */

static void check_wide_pair(ref_u128 a, ref_u128 b)
{
    const wu128 wa = WP(a), wb = WP(b);
    CHECK_EQ(W(w_add(wa, wb)), a + b);
    CHECK_EQ(W(w_sub(wa, wb)), a - b);
    CHECK_EQ(w_lt(wa, wb), a < b);
    CHECK_EQ(w_le(wa, wb), a <= b);
    CHECK_EQ(w_eq(wa, wb), a == b);
    CHECK_EQ(W(w_mul_lo(wa, (uint64_t)b)), a * (uint64_t)b);
    CHECK_EQ(W(w_mul64((uint64_t)a, (uint64_t)b)), (ref_u128)(uint64_t)a * (uint64_t)b);
    wu128 out = w_u64(99);
    bool fits = a <= REF_MAX - b;
    CHECK_EQ(w_add_ok(wa, wb, &out), fits);
    CHECK_EQ(W(out), fits ? a + b : 99);
    out = w_u64(99);
    fits = a == 0 || b <= REF_MAX / a;
    CHECK_EQ(w_mul_ok(wa, wb, &out), fits);
    CHECK_EQ(W(out), fits ? a * b : 99);
}

static void check_wide_one(ref_u128 a, uint64_t d)
{
    const wu128 wa = WP(a);
    CHECK_EQ(w_low(wa), (uint64_t)a);
    CHECK_EQ(w_high(wa), (uint64_t)(a >> 64));
    CHECK_EQ(w_fits_u64(wa), a <= UINT64_MAX);
    CHECK_EQ(w_is_zero(wa), a == 0);
    unsigned s = (unsigned)(d % 128);
    CHECK_EQ(W(w_shr(wa, s)), a >> s);
    CHECK_EQ(W(w_add64(wa, d)), a + d);
    if (d != 0) {
        uint64_t r = 7;
        CHECK_EQ(W(w_divmod64(wa, d, &r)), a / d);
        CHECK_EQ(r, a % d);
        CHECK_EQ(W(w_divmod64(wa, d, NULL)), a / d);
        CHECK_EQ(w_mod64(wa, d), a % d);
    }
}

/* Signed: the solver's operations, on values of its magnitudes (sums
 * below 2^70) and at the edges of 64 bits. */
static void check_signed(ref_i128 a, ref_i128 b, int64_t x, int64_t y, int64_t d)
{
    const wi128 wa = WIP(a), wb = WIP(b);
    CHECK_EQ(WI(wi_i64(x)), (ref_i128)x);
    CHECK_EQ(WI(wi_add(wa, wb)), a + b);
    CHECK_EQ(WI(wi_sub(wa, wb)), a - b);
    CHECK_EQ(WI(wi_neg(wa)), -a);
    CHECK_EQ(wi_lt(wa, wb), a < b);
    CHECK_EQ(wi_is_neg(wa), a < 0);
    CHECK_EQ(wi_is_zero(wa), a == 0);
    CHECK_EQ(WI(wi_mul64(x, y)), (ref_i128)x * y);
    CHECK_EQ(wi_to_i64(wi_i64(x)), x);
    CHECK_EQ(W(wi_abs(wa)), a < 0 ? (ref_u128)-a : (ref_u128)a);
    if (a >= 0)
        CHECK_EQ(WI(wi_from_u(WP((ref_u128)a))), a);
    if (d > 0) {
        ref_i128 q = a / d, r = a % d; /* C truncates toward zero */
        ref_i128 fl = (r != 0 && a < 0) ? q - 1 : q;
        ref_i128 ce = (r != 0 && a > 0) ? q + 1 : q;
        CHECK_EQ(WI(wi_floor_div(wa, d)), fl);
        CHECK_EQ(WI(wi_ceil_div(wa, d)), ce);
        CHECK_EQ(wi_mod(wa, d), r < 0 ? r + d : r);
    }
}

static ref_i128 rand_i128(void)
{
    /* Magnitudes up to 2^70, either sign. */
    ref_i128 m =
        (ref_i128)(((ref_u128)check_rand() << 64 | check_rand()) >> (58 + check_rand() % 70));
    return (check_rand() & 1) ? -m : m;
}

static int64_t rand_i64(void)
{
    int64_t m = (int64_t)(check_rand() >> (1 + check_rand() % 63));
    return (check_rand() & 1) ? -m : m;
}

static void test_wide(void)
{
    for (unsigned i = 0; i < N_EDGES; i++) {
        for (unsigned j = 0; j < N_EDGES; j++)
            check_wide_pair(edges[i], edges[j]);
        for (unsigned j = 0; j < N_DIVISORS; j++)
            check_wide_one(edges[i], divisors[j]);
    }
    for (int i = 0; i < 20000; i++) {
        check_wide_pair(rand_u128(), rand_u128());
        check_wide_one(rand_u128(), rand_u64());
        check_wide_one(rand_u128(), check_range(1, 100));
    }
    CHECK_EQ(W(w_max()), REF_MAX);
    CHECK_EQ(W(w_u64(UINT64_MAX)), UINT64_MAX);

    const ref_i128 one = 1;
    const ref_i128 s_edges[] = {0,
                                1,
                                -1,
                                2,
                                -2,
                                INT64_MAX,
                                INT64_MIN,
                                (ref_i128)INT64_MAX + 1,
                                (ref_i128)INT64_MIN - 1,
                                one << 64,
                                -(one << 64),
                                (one << 70) - 1,
                                -(one << 70) + 1,
                                (ref_i128)(((ref_u128)1 << 127) - 1),
                                -(ref_i128)(((ref_u128)1 << 127) - 1)};
    const int64_t i_edges[] = {0,          1,           -1,         2,         3,
                               4294967295, -4294967295, 4294967296, INT64_MAX, INT64_MIN + 1};
    const int64_t d_edges[] = {1, 2, 3, 7, 4294967295, 4294967296, INT64_MAX};
    const unsigned ns = sizeof s_edges / sizeof s_edges[0];
    const unsigned ni = sizeof i_edges / sizeof i_edges[0];
    const unsigned nd = sizeof d_edges / sizeof d_edges[0];
    for (unsigned i = 0; i < ns; i++)
        for (unsigned j = 0; j < ns; j++)
            for (unsigned k = 0; k < nd; k++)
                check_signed(s_edges[i], s_edges[j], i_edges[(i + k) % ni], i_edges[(j + k) % ni],
                             d_edges[k]);
    for (int i = 0; i < 20000; i++) {
        int64_t d = rand_i64();
        check_signed(rand_i128(), rand_i128(), rand_i64(), rand_i64(), d == INT64_MIN ? 1 : d);
    }
}

int main(void)
{
    init_edges();
    test_public();
    test_wide();
    return check_finish(DMLT_WIDE_NATIVE ? "test_wide (native __int128 path)"
                                         : "test_wide (portable path)");
}
