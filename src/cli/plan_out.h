/* plan_out.h - `plan`'s one entry for every input: an array of tensors to
 * place (from JSON Lines in cmd_plan.c; from an ONNX model's activations
 * in plan_model.c), planned by dmlt_plan() and
 * rendered as jsonl/json, text, svg or c (plan_out.c, plan_svg.c). */
#ifndef DMLT_PLAN_OUT_H
#define DMLT_PLAN_OUT_H

#include "cli.h"

/* A tensor to place. Strings live as long as the array; path, op and
 * sizes may be NULL (unknown: printed as null). */
struct planned {
    const char *name, *path, *op;
    const uint32_t *sizes; /* rank of them, or NULL */
    unsigned rank;
    int dtype; /* enum dmlt_dtype, or -1 when unknown */
    uint64_t size_bytes, first, last;
};

/* What the summary says beyond the plan itself. */
struct plan_extra {
    dmlt_u128 steps;         /* the model's node count; JSON Lines: the last step + 1 */
    bool has_weight, has_io; /* weight_bytes and io_bytes are known (a model) */
    dmlt_u128 weight_bytes, io_bytes;
    bool has_skipped;        /* a model: the summary's "skipped" */
    uint64_t skipped_folded; /* folded values left out (SPEC section 11) */
};

/* The summary's figures, for the renderers. */
struct plan_summary {
    size_t tensors;
    dmlt_u128 steps; /* up to 2^64: a last step of 2^64 - 1 makes 2^64 steps */
    uint64_t alignment;
    struct dmlt_plan_result r;
    const struct plan_extra *x;
};

/* Plans t[0..n) with cfg's --alignment (cfg->t.alignment, checked; default
 * 256) and renders it in cfg->format into out (drained as it grows). False
 * with e filled when the alignment is bad, memory runs out or the arena
 * would pass 2^64 - 1. */
bool plan_tensors(struct cli_config *cfg, const struct planned *t, size_t n,
                  const struct plan_extra *x, struct outbuf *out, struct cli_error *e);

/* plan_svg.c: the picture (steps across, offsets down). */
void plan_render_svg(struct outbuf *b, const struct planned *t, const uint64_t *offsets, size_t n,
                     const struct plan_summary *s);

#endif
