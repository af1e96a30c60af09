/* test_onnx_hash.c - the names' hash (src/onnx/onnx_hash.c).
 *
 * SipHash-2-4 against the reference vectors of its authors (the key
 * 00 01 .. 0f, the messages 00 01 .. of 0 to 15 bytes: vectors.h of
 * github.com/veorq/SipHash, the paper's appendix A for 15 bytes), which
 * checks the rounds, the block order and the tail; the key's effect on
 * onnx_hash. With --print13, prints SipHash-1-3 (the variant onnx_hash
 * uses) under the zero key of the messages 00 01 .. of 1 to 64 bytes, as
 * signed 64-bit numbers: tests/onnx/check_siphash13.py compares them with
 * CPython's hash() of the same bytes under PYTHONHASHSEED=0 (its key then
 * zero, its function SipHash-1-3 since 3.11). */
#include "check.h"
#include "onnx_common.h"

#include <stdlib.h>

static const uint64_t vectors24[16] = {
    0x726fdb47dd0e0e31u, 0x74f839c593dc67fdu, 0x0d6c8009d9a94f5au, 0x85676696d7fb7e2du,
    0xcf2794e0277187b7u, 0x18765564cd99a68du, 0xcbc9466e58fee3ceu, 0xab0200f58b01d137u,
    0x93f5f5799a932462u, 0x9e0082df0ba9e4b0u, 0x7a5dbbc594ddb9f3u, 0xf4b32f46226bada7u,
    0x751e8fbc860ee5fbu, 0x14ea5627c0843d90u, 0xf723ca908e7af2eeu, 0xa129ca6149be45e5u};

int main(int argc, char **argv)
{
    uint8_t m[64];
    for (unsigned i = 0; i < 64; i++)
        m[i] = (uint8_t)i;
    if (argc == 2 && strcmp(argv[1], "--print13") == 0) {
        for (size_t n = 1; n <= 64; n++)
            printf("%zu %lld\n", n, (long long)onnx_siphash(0, 0, m, n, 1, 3));
        return 0;
    }
    const uint64_t k0 = 0x0706050403020100u, k1 = 0x0f0e0d0c0b0a0908u;
    for (size_t n = 0; n < 16; n++)
        CHECK_EQ(onnx_siphash(k0, k1, m, n, 2, 4), vectors24[n]);
    /* The key is the process's: another key, other hashes (of every one
     * of 1,000 names), and the same again under the same key. */
    char name[16];
    unsigned same = 0;
    for (unsigned i = 0; i < 1000; i++) {
        const int n = snprintf(name, sizeof name, "x%u", i);
        const struct onnx_bytes b = {(const uint8_t *)name, (size_t)n};
        onnx_hash_set_key(1, 2);
        const uint64_t a = onnx_hash(b), a_more = onnx_hash_more(7, b);
        onnx_hash_set_key(3, 4);
        const uint64_t c = onnx_hash(b);
        onnx_hash_set_key(1, 2);
        CHECK_EQ(onnx_hash(b), a);
        CHECK(a_more != a); /* going on from another hash */
        same += a == c;
    }
    CHECK_EQ(same, 0);
    return check_finish("test_onnx_hash");
}
