/* onnx_dimexpr.h - exact integer expressions over symbols, for the dims
 * and small integer values shape inference computes: constants, symbols,
 * +, -, *, floor and ceil division, mod, min and max.
 *
 * Every expression is kept in one canonical form and interned, so two
 * expressions built the same way, or built in ways the canonical form
 * equates, are the same pointer: `batch*197` from Mul(batch, 197) and from
 * Add(batch*196, batch) compare equal with ==.
 *
 * The form: a sum of terms c*m (c a non-zero int64, m a product of atoms
 * with exponents), terms sorted by monomial; an atom is a symbol or
 * floor(a/b), min(a,b), max(a,b) of canonical expressions. Division by a
 * positive constant c splits each coefficient k = c*q + r (0 <= r < c):
 * floor((c*Q + R)/c) = Q + floor(R/c), exact because Q is integer-valued,
 * and R is divided by the gcd of its coefficients and c. ceil(a/c) is
 * floor((a+c-1)/c) and a mod b is a - b*floor(a/b) (Python's sign rule).
 * A division whose divisor divides every term exactly (batch*768 / 768,
 * batch*seq / seq) gives the quotient.
 *
 * Arithmetic is exact: a coefficient that leaves int64 gives NULL (no
 * expression), as does a division by zero or an expression past the caps
 * below (terms, nesting, size); a product of more than ONNX_DX_MAX_TERMS
 * term pairs is refused before it is built (work per operation bounded). NULL in gives NULL out:
 * callers treat NULL as "unknown". Memory is bounded by the context's cap.
 *
 * Symbols are dims: they are taken to be >= 0 (onnx_dx_nonneg). */
#ifndef DMLT_ONNX_DIMEXPR_H
#define DMLT_ONNX_DIMEXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct onnx_dx;     /* an interned canonical expression (opaque) */
struct onnx_dx_ctx; /* the arena and intern tables they live in */

#define ONNX_DX_MAX_TERMS 64   /* terms of one expression */
#define ONNX_DX_MAX_DEPTH 24   /* atoms nested inside atoms */
#define ONNX_DX_MAX_SIZE  4096 /* nodes of an expression unfolded as a tree */

/* A context whose allocations stop at mem_cap bytes (then every
 * constructor returns NULL). NULL when even the context cannot be made. */
struct onnx_dx_ctx *onnx_dx_ctx_new(size_t mem_cap);
/* True once an allocation failed for want of memory (not the cap): what
 * was computed since may be missing, so the run's result is not to be used. */
bool onnx_dx_ctx_malloc_failed(const struct onnx_dx_ctx *ctx);
void onnx_dx_ctx_free(struct onnx_dx_ctx *ctx);
/* Bytes the context holds (arena and tables). */
size_t onnx_dx_ctx_bytes(const struct onnx_dx_ctx *ctx);
/* True once an allocation was refused for the cap. */
bool onnx_dx_ctx_exhausted(const struct onnx_dx_ctx *ctx);

const struct onnx_dx *onnx_dx_const(struct onnx_dx_ctx *ctx, int64_t v);
/* The symbol of that name (copied). The same name gives the same symbol. */
const struct onnx_dx *onnx_dx_symbol(struct onnx_dx_ctx *ctx, const char *name, size_t len);

const struct onnx_dx *onnx_dx_add(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b);
const struct onnx_dx *onnx_dx_sub(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b);
const struct onnx_dx *onnx_dx_mul(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b);
/* floor(a/b), ceil(a/b), a - b*floor(a/b); NULL when b is 0. */
const struct onnx_dx *onnx_dx_floordiv(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                       const struct onnx_dx *b);
const struct onnx_dx *onnx_dx_ceildiv(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                      const struct onnx_dx *b);
const struct onnx_dx *onnx_dx_mod(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b);
const struct onnx_dx *onnx_dx_min(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b);
const struct onnx_dx *onnx_dx_max(struct onnx_dx_ctx *ctx, const struct onnx_dx *a,
                                  const struct onnx_dx *b);

/* True (and *v) when e is a constant. */
bool onnx_dx_is_const(const struct onnx_dx *e, int64_t *v);
/* True when e is >= 0 for every binding of its symbols to values >= 0
 * (a sufficient test: non-negative coefficients over non-negative atoms). */
bool onnx_dx_nonneg(const struct onnx_dx *e);

/* The symbols' values for onnx_dx_eval: true and *value when name is bound. */
typedef bool (*onnx_dx_lookup)(void *user, const char *name, size_t len, int64_t *value);

enum onnx_dx_status {
    ONNX_DX_OK,
    ONNX_DX_UNBOUND,  /* a symbol has no value (its name in *unbound) */
    ONNX_DX_OVERFLOW, /* a step leaves int64 */
    ONNX_DX_DIV_ZERO  /* a division by 0 under this binding */
};

/* e's value under the binding, exactly (checked int64 at every step). */
enum onnx_dx_status onnx_dx_eval(const struct onnx_dx *e, onnx_dx_lookup lookup, void *user,
                                 int64_t *out, const char **unbound, size_t *unbound_len);

/* Writes e as text (`batch*197`, `floor((H+1)/2)`, `min(a,3)`) into
 * buf[0..cap) NUL-terminated when it fits; returns the length it needs
 * (without the NUL), as snprintf does. A symbol that is not one plain name
 * ([A-Za-z_][A-Za-z0-9_]*, not floor, min or max) is quoted: 'a*b', with '
 * and \ escaped by a backslash. Callers print no text longer than
 * ONNX_DX_PRINT_MAX (a 1 MB symbol name repeated in an expression would
 * print gigabytes): past it the dim is shown as unknown. */
#define ONNX_DX_PRINT_MAX 4096
size_t onnx_dx_print(const struct onnx_dx *e, char *buf, size_t cap);

/* Calls f for each distinct symbol of e (in a stable order). */
void onnx_dx_symbols(const struct onnx_dx *e, void (*f)(void *user, const char *name, size_t len),
                     void *user);

#endif
