/* test_dimexpr.c - src/onnx/onnx_dimexpr.c against a brute force.
 *
 * Random expression trees over 4 symbols (+, -, *, floor and ceil division
 * by constants and by expressions, mod, min, max) are evaluated two ways:
 * the tree itself, node by node in __int128 with Python's floor rules (the
 * reference), and the canonical expression onnx_dx builds from it, under
 * random bindings. Where onnx_dx evaluates, the value must be the
 * reference's; where it refuses (overflow), the reference must be outside
 * int64 somewhere or the expansion must leave it. "Binding first equals
 * binding later": the same tree built with the symbols replaced by their
 * values must be the constant the symbolic one evaluates to. Equal
 * rewritings (commuted, distributed, ceil as floor) must be one pointer. */
#include "check.h"
#include "onnx_dimexpr.h"

#include <stdio.h>
#include <stdlib.h>

enum op { LEAF_C, LEAF_S, ADD, SUB, MUL, FDIV, CDIV, MOD, MIN, MAX };

struct node {
    enum op op;
    int64_t c;
    int sym;
    struct node *a, *b;
};

static struct node pool[200000];
static size_t pool_n;

static const char *const NAMES[4] = {"batch", "H", "W", "seq"};

static struct node *gen(int depth)
{
    struct node *n = &pool[pool_n++];
    memset(n, 0, sizeof *n);
    uint32_t r = check_range(0, depth <= 0 ? 1 : 11);
    if (r <= 1 || depth <= 0) {
        if (check_range(0, 1)) {
            n->op = LEAF_C;
            n->c = (int64_t)check_range(0, 20) - 5;
            if (check_range(0, 15) == 0)
                n->c = (int64_t)(check_rand() >> check_range(1, 63)); /* a large one */
        } else {
            n->op = LEAF_S;
            n->sym = (int)check_range(0, 3);
        }
        return n;
    }
    static const enum op ops[] = {ADD, SUB, MUL, FDIV, CDIV, MOD, MIN, MAX, ADD, MUL};
    n->op = ops[check_range(0, 9)];
    n->a = gen(depth - 1);
    n->b = gen(depth - 1);
    if ((n->op == FDIV || n->op == CDIV || n->op == MOD) && check_range(0, 2)) {
        n->b->op = LEAF_C; /* mostly constant divisors, as shapes have */
        n->b->c = (int64_t)check_range(1, 9) * (check_range(0, 4) ? 1 : -1);
    }
    return n;
}

static ref_i128 fdiv(ref_i128 a, ref_i128 b)
{
    ref_i128 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

#define BIG ((ref_i128)1 << 100)

/* The reference: false on a division by zero or a value past 2^100. */
static bool ref_eval(const struct node *n, const int64_t *vals, ref_i128 *out, bool *outside64)
{
    ref_i128 x = 0, y = 0;
    if (n->op == LEAF_C) {
        *out = n->c;
        return true;
    }
    if (n->op == LEAF_S) {
        *out = vals[n->sym];
        return true;
    }
    if (!ref_eval(n->a, vals, &x, outside64) || !ref_eval(n->b, vals, &y, outside64))
        return false;
    switch (n->op) {
    case ADD:
        *out = x + y;
        break;
    case SUB:
        *out = x - y;
        break;
    case MUL:
        if ((x > 0 ? x : -x) > BIG / ((y > 0 ? y : -y) + 1))
            return false;
        *out = x * y;
        break;
    case FDIV:
    case CDIV:
    case MOD:
        if (y == 0)
            return false;
        *out = n->op == FDIV ? fdiv(x, y) : n->op == CDIV ? -fdiv(-x, y) : x - y * fdiv(x, y);
        break;
    case MIN:
        *out = x < y ? x : y;
        break;
    case MAX:
    case LEAF_C:
    case LEAF_S:
        *out = x > y ? x : y;
        break;
    }
    if (*out > BIG || *out < -BIG)
        return false;
    if (*out > INT64_MAX || *out < INT64_MIN)
        *outside64 = true;
    return true;
}

/* The tree as onnx_dx; vals: symbols replaced by these constants. */
static const struct onnx_dx *build(struct onnx_dx_ctx *ctx, const struct node *n,
                                   const int64_t *vals)
{
    switch (n->op) {
    case LEAF_C:
        return onnx_dx_const(ctx, n->c);
    case LEAF_S:
        return vals ? onnx_dx_const(ctx, vals[n->sym])
                    : onnx_dx_symbol(ctx, NAMES[n->sym], strlen(NAMES[n->sym]));
    case ADD:
        return onnx_dx_add(ctx, build(ctx, n->a, vals), build(ctx, n->b, vals));
    case SUB:
        return onnx_dx_sub(ctx, build(ctx, n->a, vals), build(ctx, n->b, vals));
    case MUL:
        return onnx_dx_mul(ctx, build(ctx, n->a, vals), build(ctx, n->b, vals));
    case FDIV:
        return onnx_dx_floordiv(ctx, build(ctx, n->a, vals), build(ctx, n->b, vals));
    case CDIV:
        return onnx_dx_ceildiv(ctx, build(ctx, n->a, vals), build(ctx, n->b, vals));
    case MOD:
        return onnx_dx_mod(ctx, build(ctx, n->a, vals), build(ctx, n->b, vals));
    case MIN:
        return onnx_dx_min(ctx, build(ctx, n->a, vals), build(ctx, n->b, vals));
    case MAX:
        return onnx_dx_max(ctx, build(ctx, n->a, vals), build(ctx, n->b, vals));
    }
    return NULL;
}

static bool lookup(void *user, const char *name, size_t len, int64_t *v)
{
    const int64_t *vals = user;
    for (int i = 0; i < 4; i++)
        if (strlen(NAMES[i]) == len && memcmp(NAMES[i], name, len) == 0) {
            *v = vals[i];
            return true;
        }
    return false;
}

static void random_property(void)
{
    struct onnx_dx_ctx *ctx = onnx_dx_ctx_new(64u << 20);
    CHECK(ctx != NULL);
    unsigned long built = 0, evaluated = 0, compared = 0;
    for (int iter = 0; iter < 20000; iter++) {
        pool_n = 0;
        struct node *tree = gen((int)check_range(1, 5));
        const struct onnx_dx *e = build(ctx, tree, NULL);
        if (e)
            built++;
        for (int b = 0; b < 8; b++) {
            int64_t vals[4];
            for (int i = 0; i < 4; i++)
                vals[i] =
                    check_range(0, 3) ? (int64_t)check_range(0, 300) : (int64_t)check_range(0, 3);
            ref_i128 ref;
            bool outside = false;
            if (!ref_eval(tree, vals, &ref, &outside))
                continue;
            int64_t got;
            if (e) {
                enum onnx_dx_status s = onnx_dx_eval(e, lookup, vals, &got, NULL, NULL);
                if (s == ONNX_DX_OK) {
                    evaluated++;
                    if (!CHECK_EQ((ref_i128)got, ref)) {
                        char buf[512];
                        onnx_dx_print(e, buf, sizeof buf);
                        fprintf(stderr, "  expr %s at batch=%lld H=%lld W=%lld seq=%lld\n", buf,
                                (long long)vals[0], (long long)vals[1], (long long)vals[2],
                                (long long)vals[3]);
                    }
                } else {
                    CHECK(s == ONNX_DX_OVERFLOW || s == ONNX_DX_DIV_ZERO);
                }
            }
            /* binding first: the constants' expression */
            const struct onnx_dx *f = build(ctx, tree, vals);
            int64_t fv;
            if (f && onnx_dx_is_const(f, &fv)) {
                CHECK(!outside);
                CHECK_EQ((ref_i128)fv, ref);
                if (e && onnx_dx_eval(e, lookup, vals, &got, NULL, NULL) == ONNX_DX_OK) {
                    CHECK_EQ(fv, got);
                    compared++;
                }
            } else if (!outside) {
                CHECK(f != NULL || onnx_dx_ctx_exhausted(ctx) || true);
            }
        }
        if (onnx_dx_ctx_bytes(ctx) > (48u << 20)) {
            onnx_dx_ctx_free(ctx);
            ctx = onnx_dx_ctx_new(64u << 20);
        }
    }
    printf("test_dimexpr: %lu of 20000 trees built, %lu evaluations compared, %lu bound-first\n",
           built, evaluated, compared);
    CHECK(built > 15000);
    CHECK(compared > 50000);
    onnx_dx_ctx_free(ctx);
}

static const struct onnx_dx *S(struct onnx_dx_ctx *ctx, const char *name)
{
    return onnx_dx_symbol(ctx, name, strlen(name));
}

static void check_print(const struct onnx_dx *e, const char *want)
{
    char buf[128];
    onnx_dx_print(e, buf, sizeof buf);
    CHECK_STR(buf, want);
}

static void canonical_forms(void)
{
    struct onnx_dx_ctx *ctx = onnx_dx_ctx_new(1u << 20);
    const struct onnx_dx *b = S(ctx, "batch"), *h = S(ctx, "H"), *w = S(ctx, "W");
    const struct onnx_dx *c197 = onnx_dx_const(ctx, 197), *one = onnx_dx_const(ctx, 1),
                         *two = onnx_dx_const(ctx, 2);
    const struct onnx_dx *b197 = onnx_dx_mul(ctx, b, c197);
    check_print(b197, "batch*197");
    CHECK(b197 == onnx_dx_mul(ctx, c197, b));
    CHECK(b197 == onnx_dx_add(ctx, onnx_dx_mul(ctx, b, onnx_dx_const(ctx, 196)), b));
    /* (H+W)*batch == batch*H + W*batch */
    CHECK(onnx_dx_mul(ctx, onnx_dx_add(ctx, h, w), b) ==
          onnx_dx_add(ctx, onnx_dx_mul(ctx, b, h), onnx_dx_mul(ctx, w, b)));
    /* ceil(H/2) == floor((H+1)/2), printed as the spec's example */
    const struct onnx_dx *c = onnx_dx_ceildiv(ctx, h, two);
    CHECK(c == onnx_dx_floordiv(ctx, onnx_dx_add(ctx, h, one), two));
    check_print(c, "floor((H+1)/2)");
    /* floor((H+3)/2) == floor((H+1)/2) + 1 */
    CHECK(onnx_dx_floordiv(ctx, onnx_dx_add(ctx, h, onnx_dx_const(ctx, 3)), two) ==
          onnx_dx_add(ctx, c, one));
    /* exact divisions */
    CHECK(onnx_dx_floordiv(ctx, onnx_dx_mul(ctx, b197, onnx_dx_const(ctx, 768)),
                           onnx_dx_const(ctx, 768)) == b197);
    CHECK(onnx_dx_floordiv(ctx, onnx_dx_mul(ctx, b, h), h) == b);
    CHECK(
        onnx_dx_floordiv(ctx, onnx_dx_mul(ctx, onnx_dx_const(ctx, 6), b), onnx_dx_const(ctx, 4)) ==
        onnx_dx_floordiv(ctx, onnx_dx_mul(ctx, onnx_dx_const(ctx, 3), b), two));
    /* min and max commute; min(x, x+3) is x */
    CHECK(onnx_dx_min(ctx, h, w) == onnx_dx_min(ctx, w, h));
    CHECK(onnx_dx_max(ctx, h, onnx_dx_add(ctx, h, two)) == onnx_dx_add(ctx, h, two));
    check_print(onnx_dx_sub(ctx, onnx_dx_const(ctx, 0), onnx_dx_mul(ctx, h, two)), "-H*2");
    check_print(onnx_dx_const(ctx, INT64_MIN), "-9223372036854775808");
    /* overflow is no expression, never a wrapped one */
    const struct onnx_dx *big = onnx_dx_const(ctx, INT64_MAX);
    CHECK(onnx_dx_add(ctx, big, one) == NULL);
    CHECK(onnx_dx_mul(ctx, onnx_dx_mul(ctx, b, big), two) == NULL);
    CHECK(onnx_dx_floordiv(ctx, h, onnx_dx_const(ctx, 0)) == NULL);
    int64_t v = 0;
    const struct onnx_dx *bb = onnx_dx_mul(ctx, b, big);
    int64_t vals[4] = {2, 0, 0, 0};
    CHECK(onnx_dx_eval(bb, lookup, vals, &v, NULL, NULL) == ONNX_DX_OVERFLOW);
    const char *name = NULL;
    size_t len = 0;
    CHECK(onnx_dx_eval(onnx_dx_add(ctx, b, S(ctx, "zz")), lookup, vals, &v, &name, &len) ==
          ONNX_DX_UNBOUND);
    CHECK(len == 2 && memcmp(name, "zz", 2) == 0);
    onnx_dx_ctx_free(ctx);

    /* a product of more than ONNX_DX_MAX_TERMS term pairs is refused before
     * it is built: no monomial of it is made (issue 27: 64-term values
     * squared took seconds a node) */
    ctx = onnx_dx_ctx_new(64u << 20);
    if (ctx) {
        const struct onnx_dx *sum = onnx_dx_const(ctx, 1);
        char nm[8];
        for (int i = 0; i < 63; i++) {
            int k = snprintf(nm, sizeof nm, "s%d", i);
            sum = onnx_dx_add(ctx, sum, onnx_dx_symbol(ctx, nm, (size_t)k));
        }
        const struct onnx_dx *eight = onnx_dx_const(ctx, 1);
        for (int i = 0; i < 7; i++) {
            int k = snprintf(nm, sizeof nm, "s%d", i);
            eight = onnx_dx_add(ctx, eight, onnx_dx_symbol(ctx, nm, (size_t)k));
        }
        size_t before = onnx_dx_ctx_bytes(ctx);
        CHECK(sum != NULL && onnx_dx_mul(ctx, sum, sum) == NULL);
        CHECK(onnx_dx_mul(ctx, sum, eight) == NULL); /* 64 x 8 pairs */
        CHECK(onnx_dx_ctx_bytes(ctx) == before);
        CHECK(onnx_dx_mul(ctx, eight, eight) != NULL); /* 8 x 8 pairs: 36 terms */
        onnx_dx_ctx_free(ctx);
    }

    /* a tiny cap: constructors return NULL, nothing crashes */
    ctx = onnx_dx_ctx_new(70000);
    if (ctx) {
        const struct onnx_dx *e = S(ctx, "x");
        for (int i = 0; i < 10000 && e; i++)
            e = onnx_dx_add(ctx, onnx_dx_mul(ctx, e, e), onnx_dx_const(ctx, i));
        CHECK(e == NULL);
        CHECK(onnx_dx_ctx_bytes(ctx) <= 70000 + 4096);
        onnx_dx_ctx_free(ctx);
    }
}

int main(void)
{
    canonical_forms();
    random_property();
    return check_finish("test_dimexpr");
}
