/* onnx_hash.c - names hashed with a key (see onnx_common.h): SipHash-1-3
 * (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012; the
 * variant Rust's HashMap and CPython use), keyed once per process by the
 * caller, so that names chosen to collide in one run's tables do not
 * collide in another's (hash flooding: a model of names crafted to share
 * slots would make each table's probing quadratic). */
#include "onnx_common.h"

#include <string.h>

/* The key; the CLI sets a random one first thing (cli_main). These are
 * the key a program that sets none gets: fixed, as FNV's was. */
static uint64_t key0 = 0x736f6d6570736575u, key1 = 0x646f72616e646f6du;

void onnx_hash_set_key(uint64_t k0, uint64_t k1)
{
    key0 = k0;
    key1 = k1;
}

static inline uint64_t rotl(uint64_t x, unsigned b)
{
    return (x << b) | (x >> (64 - b));
}

struct sip {
    uint64_t v0, v1, v2, v3;
};

static inline void sip_round(struct sip *s)
{
    s->v0 += s->v1;
    s->v1 = rotl(s->v1, 13) ^ s->v0;
    s->v0 = rotl(s->v0, 32);
    s->v2 += s->v3;
    s->v3 = rotl(s->v3, 16) ^ s->v2;
    s->v0 += s->v3;
    s->v3 = rotl(s->v3, 21) ^ s->v0;
    s->v2 += s->v1;
    s->v1 = rotl(s->v1, 17) ^ s->v2;
    s->v2 = rotl(s->v2, 32);
}

/* 8 bytes as a little-endian number, whatever the host. */
static inline uint64_t load_le(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ || defined(_M_X64) ||     \
    defined(_M_ARM64)
    uint64_t m;
    memcpy(&m, p, 8);
    return m;
#else
    uint64_t m = 0;
    for (unsigned b = 0; b < 8; b++)
        m |= (uint64_t)p[b] << (8 * b);
    return m;
#endif
}

/* SipHash-c-d; inlined with c and d constants where onnx_hash calls it. */
static inline uint64_t siphash(uint64_t k0, uint64_t k1, const uint8_t *p, size_t n, unsigned c,
                               unsigned d)
{
    struct sip s = {k0 ^ 0x736f6d6570736575u, k1 ^ 0x646f72616e646f6du, k0 ^ 0x6c7967656e657261u,
                    k1 ^ 0x7465646279746573u};
    const size_t whole = n - n % 8;
    for (size_t at = 0; at < whole; at += 8) {
        const uint64_t m = load_le(p + at);
        s.v3 ^= m;
        for (unsigned i = 0; i < c; i++)
            sip_round(&s);
        s.v0 ^= m;
    }
    uint64_t last = (uint64_t)(n & 0xff) << 56;
    for (size_t b = whole; b < n; b++)
        last |= (uint64_t)p[b] << (8 * (b - whole));
    s.v3 ^= last;
    for (unsigned i = 0; i < c; i++)
        sip_round(&s);
    s.v0 ^= last;
    s.v2 ^= 0xff;
    for (unsigned i = 0; i < d; i++)
        sip_round(&s);
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

uint64_t onnx_siphash(uint64_t k0, uint64_t k1, const uint8_t *p, size_t n, unsigned c, unsigned d)
{
    return siphash(k0, k1, p, n, c, d);
}

uint64_t onnx_hash_more(uint64_t h, struct onnx_bytes b)
{
    return siphash(key0 ^ h, key1, b.p, b.n, 1, 3);
}

uint64_t onnx_hash(struct onnx_bytes b)
{
    return siphash(key0, key1, b.p, b.n, 1, 3);
}
