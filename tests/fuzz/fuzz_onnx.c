/* fuzz_onnx.c - the ONNX reader (onnx_wire.c) and scan's ONNX path.
 *
 * Input: any bytes, as a model file. Invariants:
 *  - onnx_walk never reads outside the input (ASan; the input is copied
 *    into a buffer of exactly its size), nor crashes, on any bytes;
 *  - the check pass (no callback) and the walk with a callback agree: both
 *    succeed or both fail (not always at the same byte: the check reads the
 *    graph in file order, the walk once per kind, so each meets the first
 *    damage in its own order; scan runs the check first and prints its error);
 *  - a damaged model's error offsets lie within the input, with a message;
 *  - each value's dims, read again by onnx_dims_next, are exactly its rank
 *    (no shape: none), and its path starts with "graph";
 *  - descriptor_from_onnx either fills a descriptor or an error with an id;
 * And the whole input through `dmltensor scan -` into a memory stream: no
 * crash, no leak, exit status 0, 1 or 2.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen, open_memstream */
#include "fuzz.h"

#include "cli.h"
#include "onnx_wire.h"
#include "source_onnx.h"

#include <string.h>

struct seen {
    struct descriptor d;
    struct onnx_options o;
    unsigned long values;
};

static bool on_value(void *ctx, const struct onnx_tensor *t)
{
    struct seen *s = ctx;
    s->values++;
    FUZZ_CHECK(t->path && strncmp(t->path, "graph", 5) == 0);
    FUZZ_CHECK((unsigned)t->kind < ONNX_KIND_COUNT);
    struct onnx_dim_iter it;
    struct onnx_dim d;
    uint64_t n = 0;
    onnx_dims_begin(t, &it);
    while (onnx_dims_next(&it, &d)) {
        n++;
        if (d.kind == ONNX_DIM_PARAM)
            FUZZ_CHECK(d.param.n > 0 && d.param.p != NULL);
    }
    FUZZ_CHECK(n == (t->form == ONNX_DIMS_NONE ? 0 : t->rank));
    struct onnx_facts facts;
    struct cli_error e;
    memset(&e, 0, sizeof e);
    if (!descriptor_from_onnx(t, &s->o, &s->d, &facts, &e))
        FUZZ_CHECK(e.id != NULL && e.message[0] != '\0');
    else
        FUZZ_CHECK(s->d.cfg.t.sizes != NULL && s->d.cfg.t.dtype != NULL);
    return s->values < 100000;
}

static void run_cli(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)(uintptr_t)data, size, "rb");
    char *obuf = NULL, *ebuf = NULL;
    size_t olen = 0, elen = 0;
    FILE *out = open_memstream(&obuf, &olen);
    FILE *err = open_memstream(&ebuf, &elen);
    if (in && out && err) {
        char arg0[] = "dmltensor", arg1[] = "scan", arg2[] = "-", arg3[] = "--dim", arg4[] = "N=2";
        char *argv[] = {arg0, arg1, arg2, arg3, arg4, NULL};
        int status = cli_main(5, argv, in, out, err);
        FUZZ_CHECK(status == 0 || status == 1 || status == 2);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    if (err)
        fclose(err);
    free(obuf);
    free(ebuf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 256 * 1024)
        return 0;
    uint8_t *copy = malloc(size ? size : 1); /* exactly the input: ASan sees a read past it */
    struct seen *s = malloc(sizeof *s);
    if (copy == NULL || s == NULL) {
        free(copy);
        free(s);
        return 0;
    }
    memcpy(copy, data, size);
    memset(&s->o, 0, sizeof s->o);
    struct onnx_dim_binding n_is_2 = {"N", 1, 2, false}; /* --dim N=2 */
    s->o.dims = &n_is_2;
    s->o.n_dims = 1;
    s->values = 0;
    struct onnx_error e1, e2;
    bool oom1, oom2;
    bool ok1 = onnx_walk(copy, size, NULL, NULL, NULL, &e1, &oom1);
    bool ok2 = onnx_walk(copy, size, on_value, NULL, s, &e2, &oom2);
    if (!oom1 && !oom2) {
        FUZZ_CHECK(ok1 == ok2);
        if (!ok1) {
            FUZZ_CHECK(e1.offset <= size && e1.message[0] != '\0');
            FUZZ_CHECK(e2.offset <= size && e2.message[0] != '\0');
        }
    }
    free(copy);
    free(s);
    run_cli(data, size);
    return 0;
}
