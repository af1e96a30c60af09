/* model_session.c - the model session as the commands open it (see
 * model_session.h). */
#include "model_session.h"
#include "input.h"

#include <stdlib.h>
#include <string.h>

bool cli_model_session_open(struct onnx_session *s, const struct plat_map *m,
                            enum model_records records, onnx_release_fn release, void *ctx,
                            struct onnx_error *oe, bool *oom)
{
    /* The walk's records kept up to 8 MiB (a few tens of thousands of
     * values: every real model's); past it each pass walks the bytes
     * again, in constant memory (a model of millions of value_infos). */
    const size_t model_cap = cli_input_model_memory_cap(m->len);
    const size_t records_cap = (size_t)8 << 20;
    const struct onnx_session_options o = {model_cap,
                                           model_cap < records_cap ? model_cap : records_cap,
                                           records == MODEL_RECORDS_NONE,
                                           records != MODEL_RECORDS_ALL,
                                           release,
                                           ctx};
    return onnx_session_open(s, m->data, m->len, &o, oe, oom);
}

bool cli_model_session_fail(struct cli_error *e, const struct onnx_error *oe, bool oom,
                            const char *file, const char *reads)
{
    if (oom)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    cli_fail(e, CLI_E_BAD_ONNX, NULL, file, "%s: at byte %zu: %s",
             oe->limit ? "an ONNX model past this reader's limit" : "a damaged ONNX model",
             oe->offset, oe->message);
    if (oe->limit)
        cli_hint(e, "protobuf's own readers (python3-onnx's onnx.load) refuse it too");
    else
        cli_hint(e, "%s", reads);
    return false;
}

/* The first --shape that contradicts what the model declares or what
 * inference gives of its value (a known rank or dim): shape_conflict. A
 * value the model cannot have would size everything after it wrongly. */
static bool shape_conflicts(const struct onnx_session *s, const struct onnx_options *o,
                            struct cli_error *e)
{
    const size_t n = s->infer ? onnx_infer_mismatch_count(s->infer) : 0;
    for (size_t k = 0; k < n; k++) {
        const struct onnx_infer_mismatch *m = onnx_infer_mismatch_at(s->infer, k);
        const struct onnx_shape_binding *b =
            m->option != ONNX_AGAINST_NONE ? cli_onnx_shape_given(o, m->name.p, m->name.n) : NULL;
        if (b == NULL)
            continue;
        const char *how = m->option == ONNX_AGAINST_INFERRED ? "inferred" : "declared";
        if (m->dim < 0)
            cli_fail(e, CLI_E_SHAPE_CONFLICT, "--shape", b->text,
                     "the value has %lld dims in the model (%s), not %lld", (long long)m->inferred,
                     how, (long long)m->declared);
        else
            cli_fail(e, CLI_E_SHAPE_CONFLICT, "--shape", b->text,
                     "dim %d is %lld in the model (%s), not %lld", (int)m->dim,
                     (long long)m->inferred, how, (long long)m->declared);
        cli_hint(e, "--shape gives a value a shape the model leaves open (a symbol, a dim with "
                    "neither value nor symbol); leave it out where the model fixes the shape");
        return false;
    }
    return true;
}

bool cli_model_session_infer(struct onnx_session *s, const struct onnx_options *o,
                             struct cli_error *e)
{
    if (!onnx_session_infer(s, &o->infer)) /* o outlives s */
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    return shape_conflicts(s, o, e);
}
