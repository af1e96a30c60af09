/* test_outbuf.c - the CLI's hand-written formatters against independent
 * references: every integer at each power-of-ten boundary and random ones
 * (cli_put_u64, cli_fmt_u128, ob_u64, ob_u128 against printf and a digit-by-digit
 * division), and JSON strings (cli_ob_json_str, which scans 8 bytes at a time)
 * against a byte-by-byte reference, with each special byte at every
 * position around an 8-byte boundary. */
#include "check.h"
#include "outbuf.h"

#include <stdlib.h>

static void check_u64(uint64_t v)
{
    char want[32], got[32];
    snprintf(want, sizeof want, "%" PRIu64, v);
    char *end = cli_put_u64(got, v);
    *end = '\0';
    CHECK_STR(got, want);
    char buf[48];
    buf[cli_fmt_u128(buf, P(v))] = '\0';
    CHECK_STR(buf, want);

    struct outbuf b;
    cli_ob_init(&b);
    OB_LIT(&b, "x"); /* in place and slow path both: a fresh buffer has no room */
    ob_u64(&b, v);
    ob_putc(&b, '\0');
    CHECK(!b.failed);
    if (!b.failed)
        CHECK_STR(b.data + 1, want);
    cli_ob_free(&b);
}

static void check_u128(ref_u128 v)
{
    char want[48], got[48];
    check_u128_str(want, v);
    got[cli_fmt_u128(got, P(v))] = '\0';
    CHECK_STR(got, want);
    struct outbuf b;
    cli_ob_init(&b);
    ob_u128(&b, P(v));
    ob_putc(&b, '\0');
    CHECK(!b.failed);
    if (!b.failed)
        CHECK_STR(b.data, want);
    cli_ob_free(&b);
}

static void test_numbers(void)
{
    uint64_t p = 1;
    for (int k = 0; k <= 19; k++, p *= 10) {
        check_u64(p - 1);
        check_u64(p);
        check_u64(p + 1);
        check_u64(p * 2 - 1);
        if (k < 19)
            check_u64(p * 10 - 1);
    }
    for (unsigned bit = 0; bit < 64; bit++) {
        uint64_t v = (uint64_t)1 << bit;
        check_u64(v - 1);
        check_u64(v);
        check_u64(v + 1);
    }
    check_u64(UINT64_MAX);
    check_u64(UINT64_MAX - 1);
    for (int i = 0; i < 20000; i++)
        check_u64(check_rand() >> (check_rand() % 64));

    ref_u128 q = 1;
    for (int k = 0; k <= 38; k++, q *= 10) {
        check_u128(q - 1);
        check_u128(q);
        check_u128(q + 1);
    }
    check_u128(~(ref_u128)0);
    check_u128((ref_u128)UINT64_MAX + 1);
    for (int i = 0; i < 5000; i++)
        check_u128(((ref_u128)check_rand() << 64 | check_rand()) >> (check_rand() % 128));
}

/* Reference: one byte at a time, as JSON (RFC 8259) requires, with
 * invalid UTF-8 replaced by U+FFFD. */
static size_t ref_utf8(const unsigned char *p)
{
    unsigned n = p[0] >= 0xF0 && p[0] <= 0xF4   ? 4
                 : p[0] >= 0xE0 && p[0] <= 0xEF ? 3
                 : p[0] >= 0xC2 && p[0] <= 0xDF ? 2
                                                : 0;
    if (n == 0)
        return 0;
    uint32_t cp = p[0] & (0x7F >> n);
    for (unsigned i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

static void ref_json_str(struct outbuf *b, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    ob_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        if (*p >= 0x80) {
            size_t n = ref_utf8(p);
            if (n)
                ob_write(b, (const char *)p, n);
            else
                OB_LIT(b, "\xEF\xBF\xBD");
            p += n ? n : 1;
            continue;
        }
        if (*p == '"' || *p == '\\') {
            ob_putc(b, '\\');
            ob_putc(b, (char)*p);
        } else if (*p == '\n') {
            OB_LIT(b, "\\n");
        } else if (*p == '\t') {
            OB_LIT(b, "\\t");
        } else if (*p == '\r') {
            OB_LIT(b, "\\r");
        } else if (*p < 0x20 || *p == 0x7f) {
            char esc[6] = {'\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15]};
            ob_write(b, esc, 6);
        } else {
            ob_putc(b, (char)*p);
        }
        p++;
    }
    ob_putc(b, '"');
}

static void check_json_str(const char *s)
{
    struct outbuf got, want;
    cli_ob_init(&got);
    cli_ob_init(&want);
    cli_ob_json_str(&got, s);
    ref_json_str(&want, s);
    CHECK(!got.failed && !want.failed);
    if (CHECK_EQ(got.len, want.len) && got.len)
        CHECK(memcmp(got.data, want.data, got.len) == 0);
    else
        fprintf(stderr, "  for the string \"%s\"\n", s);
    cli_ob_free(&got);
    cli_ob_free(&want);
}

static void test_json_strings(void)
{
    static const char *const specials[] = {"\"",
                                           "\\",
                                           "\n",
                                           "\t",
                                           "\r",
                                           "\x01",
                                           "\x1f",
                                           "\x7f",
                                           " ",
                                           "~",
                                           "\xc3\xa9",
                                           "\xe2\x82\xac",
                                           "\xf0\x9f\x98\x80",
                                           "\xc3",
                                           "\xe2\x82",
                                           "\xff",
                                           "\xed\xa0\x80",
                                           "\xc0\xaf",
                                           "\x80"};
    char s[64];
    check_json_str("");
    check_json_str("plain ASCII text that runs past several words of eight");
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) {
        for (size_t before = 0; before <= 17; before++) {
            for (size_t after = 0; after <= 9; after += 3) {
                size_t n = 0;
                for (size_t i = 0; i < before; i++)
                    s[n++] = (char)('a' + i % 26);
                size_t m = strlen(specials[k]);
                memcpy(s + n, specials[k], m);
                n += m;
                for (size_t i = 0; i < after; i++)
                    s[n++] = (char)('A' + i % 26);
                s[n] = '\0';
                check_json_str(s);
            }
        }
    }
    /* Random bytes, mostly printable, of every length up to 40. */
    for (int i = 0; i < 20000; i++) {
        size_t n = check_rand() % 41;
        for (size_t j = 0; j < n; j++) {
            uint64_t r = check_rand();
            s[j] = (char)(r % 8 == 0 ? (r >> 8) % 255 + 1 : ' ' + (r >> 8) % 95);
        }
        s[n] = '\0';
        check_json_str(s);
    }
}

int main(void)
{
    test_numbers();
    test_json_strings();
    return check_finish("test_outbuf");
}
