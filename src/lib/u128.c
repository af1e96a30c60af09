/* u128.c - the public 128-bit helpers that are not inline in the header. */
#include "wide.h"

bool dmlt_u128_mul(dmlt_u128 a, dmlt_u128 b, dmlt_u128 *out)
{
    wu128 r;
    if (!w_mul_ok(w_from_pub(a), w_from_pub(b), &r))
        return false;
    *out = w_to_pub(r);
    return true;
}

bool dmlt_u128_divmod(dmlt_u128 a, uint64_t d, dmlt_u128 *quotient, uint64_t *remainder)
{
    if (d == 0)
        return false;
    uint64_t r;
    wu128 q = w_divmod64(w_from_pub(a), d, &r);
    if (quotient)
        *quotient = w_to_pub(q);
    if (remainder)
        *remainder = r;
    return true;
}

size_t dmlt_u128_to_dec(dmlt_u128 v, char buf[DMLT_U128_DEC_SIZE])
{
    /* 19 digits at a time from the right, then the last group. */
    const uint64_t e19 = UINT64_C(10000000000000000000);
    char tmp[DMLT_U128_DEC_SIZE];
    size_t n = 0;
    wu128 w = w_from_pub(v);
    while (!w_fits_u64(w)) {
        uint64_t chunk;
        w = w_divmod64(w, e19, &chunk);
        for (int i = 0; i < 19; i++) {
            tmp[n++] = (char)('0' + chunk % 10);
            chunk /= 10;
        }
    }
    uint64_t top = w_low(w);
    do {
        tmp[n++] = (char)('0' + top % 10);
        top /= 10;
    } while (top != 0);
    for (size_t i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return n;
}

bool dmlt_u128_parse_dec(const char *text, size_t len, dmlt_u128 *out)
{
    if (len == 0)
        return false;
    wu128 v = w_u64(0);
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        if (!w_mul_ok(v, w_u64(10), &v) || !w_add_ok(v, w_u64((uint64_t)(text[i] - '0')), &v))
            return false;
    }
    *out = w_to_pub(v);
    return true;
}

double dmlt_u128_to_double(dmlt_u128 v)
{
    if (v.hi == 0)
        return (double)v.lo;
    /* Keep the top 64 bits, with every bit shifted out ORed into the
     * lowest one: the conversion of those 64 bits then rounds as the whole
     * number would (the dropped bits lie far below the rounding point). */
    unsigned s = 0;
    for (uint64_t h = v.hi; h != 0; h >>= 1)
        s++; /* 1..64: bits in the high word */
    uint64_t top = s == 64 ? v.hi : (v.hi << (64 - s)) | (v.lo >> s);
    uint64_t lost = s == 64 ? v.lo : v.lo & (((uint64_t)1 << s) - 1);
    double x = (double)(top | (lost != 0));
    return x * (double)((uint64_t)1 << (s - 1)) * 2.0; /* exact: x 2^s */
}
