/* onnx_dimexpr_int.h - the canonical form's structures and the checked
 * int64 steps, shared by onnx_dimexpr.c (building) and
 * onnx_dimexpr_text.c (evaluating and printing). */
#ifndef DMLT_ONNX_DIMEXPR_INT_H
#define DMLT_ONNX_DIMEXPR_INT_H

#include "onnx_dimexpr.h"

enum atom_kind { A_SYM, A_FLOOR, A_MIN, A_MAX };

struct atom {
    uint32_t id, hash, depth, size;
    enum atom_kind kind;
    bool nonneg;
    const char *name; /* A_SYM */
    size_t len;
    const struct onnx_dx *a, *b; /* the others */
};

struct pw {
    const struct atom *atom;
    uint32_t exp;
};

#define MAX_FACTORS 16 /* atom powers in one monomial */
#define MAX_EXP     64

struct mono {
    uint32_t id, hash, n, depth, size;
    bool nonneg;
    const struct pw *f; /* sorted by atom id */
};

struct term {
    int64_t c;
    const struct mono *m;
};

struct onnx_dx {
    uint32_t id, hash, n, depth, size;
    bool nonneg;
    const struct term *t; /* sorted by monomial id, the constant (id 0) first */
};

/* ---- checked int64 ---- */

static inline bool add_ok(int64_t a, int64_t b, int64_t *r)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return false;
    *r = a + b;
    return true;
}

static inline bool mul_ok(int64_t a, int64_t b, int64_t *r)
{
    if (a == 0 || b == 0) {
        *r = 0;
        return true;
    }
    if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN))
        return false;
    if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a)
              : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
        return false;
    *r = a * b;
    return true;
}

/* floor(a/b), b != 0, false when it overflows (INT64_MIN / -1). */
static inline bool floordiv_ok(int64_t a, int64_t b, int64_t *q)
{
    if (b == -1 && a == INT64_MIN)
        return false;
    int64_t t = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        t--;
    *q = t;
    return true;
}

#endif
