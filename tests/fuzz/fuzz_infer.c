/* fuzz_infer.c - shape inference (src/onnx/onnx_infer.h) on any model the
 * reader (onnx_model_read) accepts.
 *
 * Input: any bytes, as a model file. Invariants:
 *  - no crash, no read outside the input, no leak (ASan), whatever the
 *    graph: cycles, values read before they are made, wrong input counts,
 *    absurd attributes, huge shape values, products past 2^63;
 *  - memory bounded: the result holds at most its cap (and a little more
 *    for the frame);
 *  - every inferred rank is within ONNX_INFER_MAX_RANK and every constant
 *    dim is >= 0; every dim prints and evaluates without a crash;
 *  - binding later equals binding first: the symbols of the first run all
 *    bound to 7, a second run with those bindings gives, wherever it gives
 *    a constant dim, the value the first run's expression evaluates to
 *    (when neither run finds the model wrong: onnx_infer_contradictions).
 */
#include "fuzz.h"

#include "onnx_infer.h"
#include "onnx_model.h"

#include <string.h>

#define CAP         ((size_t)8 << 20)
#define MAX_SYMBOLS 64

static bool bind7(void *user, const char *name, size_t len, int64_t *v)
{
    (void)user;
    (void)name;
    (void)len;
    *v = 7;
    return true;
}

static void check_value(const struct onnx_infer_value *v)
{
    char buf[64];
    FUZZ_CHECK(v != NULL);
    FUZZ_CHECK(v->rank >= -1 && v->rank <= ONNX_INFER_MAX_RANK);
    for (int32_t k = 0; k < v->rank; k++) {
        int64_t c;
        if (!v->dims[k])
            continue;
        if (onnx_dx_is_const(v->dims[k], &c))
            FUZZ_CHECK(c >= 0);
        size_t n = onnx_dx_print(v->dims[k], buf, sizeof buf);
        FUZZ_CHECK(n >= strlen(buf));
        int64_t x;
        (void)onnx_dx_eval(v->dims[k], bind7, NULL, &x, NULL, NULL);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    FUZZ_CHECK(copy != NULL);
    if (size)
        memcpy(copy, data, size);
    struct onnx_model m;
    struct onnx_error err;
    bool oom = false;
    memset(&m, 0, sizeof m);
    if (!onnx_model_read(copy, size, &m, &err, &oom)) {
        free(copy);
        return 0;
    }
    struct onnx_infer_options opt = {NULL, 0, NULL, 0, CAP};
    struct onnx_infer *a = NULL, *b = NULL;
    if (onnx_infer_run(&m, &opt, &a) == ONNX_INFER_OK) {
        FUZZ_CHECK(onnx_infer_bytes(a) <= 2 * CAP);
        struct onnx_infer_dim dims[MAX_SYMBOLS];
        size_t n = onnx_infer_symbol_count(a);
        for (size_t i = 0; i < n && i < MAX_SYMBOLS; i++) {
            struct onnx_bytes s = onnx_infer_symbol_at(a, i);
            dims[i] = (struct onnx_infer_dim){(const char *)s.p, s.n, 7};
        }
        opt.dims = dims;
        opt.n_dims = n < MAX_SYMBOLS ? n : MAX_SYMBOLS;
        bool all = n <= MAX_SYMBOLS;
        if (onnx_infer_run(&m, &opt, &b) != ONNX_INFER_OK)
            b = NULL;
        /* a model proved wrong at the binding (shapes that do not
         * broadcast...) has no right answer there to compare with */
        bool consistent =
            b && onnx_infer_contradictions(a) == 0 && onnx_infer_contradictions(b) == 0;
        for (uint32_t g = 0; g < m.n_graphs; g++)
            for (uint32_t i = 0; i < m.graphs[g].n_nodes; i++)
                for (uint32_t o = 0; o < m.graphs[g].nodes[i].n_outputs; o++) {
                    const struct onnx_infer_value *x = onnx_infer_output(a, g, i, o);
                    check_value(x);
                    if (!b)
                        continue;
                    const struct onnx_infer_value *y = onnx_infer_output(b, g, i, o);
                    check_value(y);
                    if (!all || x->rank < 0 || x->rank != y->rank || !consistent)
                        continue;
                    for (int32_t k = 0; k < x->rank; k++) {
                        int64_t later, first;
                        if (x->dims[k] && y->dims[k] && onnx_dx_is_const(y->dims[k], &first) &&
                            onnx_dx_eval(x->dims[k], bind7, NULL, &later, NULL, NULL) == ONNX_DX_OK)
                            FUZZ_CHECK(later == first);
                    }
                }
    }
    onnx_infer_free(a);
    onnx_infer_free(b);
    onnx_model_free(&m);
    free(copy);
    return 0;
}
