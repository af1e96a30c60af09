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
    const char *graph;     /* the subgraph's path, "" (or NULL) for the main graph */
    const uint32_t *sizes; /* rank of them, or NULL */
    unsigned rank;
    int dtype; /* enum dmlt_dtype, or -1 when unknown */
    uint64_t size_bytes, first, last;
};

/* The planned tensors' text and sizes, in blocks that never move (a
 * struct planned points into them), each string its own length: plan's
 * two readers (cmd_plan.c's JSON Lines, plan_model.c's model) keep them
 * here. Zeroed to begin; freed whole. */
struct plan_pool {
    struct plan_pool_block *head;
};
/* n bytes (8-aligned) that live until the pool is freed; NULL out of memory. */
void *cli_plan_pool_alloc(struct plan_pool *pool, size_t n);
/* A copy of the first n bytes of s (NUL-terminated); NULL out of memory. */
const char *cli_plan_pool_str(struct plan_pool *pool, const char *s, size_t n);
void cli_plan_pool_free(struct plan_pool *pool);

/* One arena: the main graph's, or a subgraph's (SPEC section 11): the
 * tensors t[start, start + n) with its own steps. parent is the group of
 * the graph that holds the node owning it (-1 for the main graph). */
struct plan_group {
    const char *path; /* "" for the main graph */
    size_t start, n;
    long parent;
    uint64_t steps;
    /* filled by cli_plan_tensors() */
    struct dmlt_plan_result r;
    dmlt_u128 need; /* its arena plus the most its nodes' subgraphs need at once */
};

/* What plan leaves out, by cause: a key of the summary's "skipped" each.
 * A new cause is one line here and its count in plan_extra.skipped. */
#define PLAN_SKIPPED(X)                                                                            \
    X(UNKNOWN, "unknown") /* a size shape inference does not give (--skip-unknown) */              \
    X(FOLDED, "folded")   /* computed once when the session is made (SPEC section 11) */           \
    X(CPU, "cpu")         /* --device dml: in CPU memory (a cpu node's, Shape's, Size's) */        \
    X(FAILS, "fails")     /* --device dml: its node fails session creation */                      \
    X(PLACEMENT, "placement_unknown") /* --device dml: its node's placement is unknown */

enum plan_skip {
#define PLAN_SKIP_ENUM(id, key) PLAN_SKIP_##id,
    PLAN_SKIPPED(PLAN_SKIP_ENUM)
#undef PLAN_SKIP_ENUM
        PLAN_SKIP_COUNT
};

/* The first unknown value (in step order), its op and why. */
struct plan_unknown {
    const char *path, *op, *reason;
};

/* What the summary says beyond the plan itself. */
struct plan_extra {
    dmlt_u128 steps;         /* the model's node count; JSON Lines: the last step + 1 */
    bool has_weight, has_io; /* weight_bytes and io_bytes are known (a model) */
    dmlt_u128 weight_bytes, io_bytes;
    struct plan_group *groups; /* NULL: one arena, every tensor (JSON Lines) */
    size_t n_groups;
    uint64_t skipped[PLAN_SKIP_COUNT];
    bool has_first_unknown;
    struct plan_unknown first_unknown;
    const char *device; /* --device: "dml", or NULL (every tensor) */
    uint64_t copies;    /* --device dml: values copied between the CPU and DirectML each run */
};

/* Whether a plan holds every tensor it should: nothing of unknown size,
 * unknown placement or failing node left out. */
static inline bool plan_complete(const struct plan_extra *x)
{
    return !x->skipped[PLAN_SKIP_UNKNOWN] && !x->skipped[PLAN_SKIP_FAILS] &&
           !x->skipped[PLAN_SKIP_PLACEMENT];
}

/* The summary's figures, for the renderers. */
struct plan_summary {
    size_t tensors;  /* every record, subgraphs' too */
    size_t main_n;   /* the main arena's: t[0, main_n) */
    dmlt_u128 steps; /* up to 2^64: a last step of 2^64 - 1 makes 2^64 steps */
    uint64_t alignment;
    struct dmlt_plan_result r;
    const struct plan_extra *x;
    dmlt_u128 total_arena;           /* the main arena plus what its nodes' subgraphs need */
    const struct plan_group *groups; /* n_groups >= 1; [0] the main graph */
    size_t n_groups;
    /* the main arena's tensors alive at the peak step, the largest first */
    const size_t *peak;
    size_t n_peak;
};

/* Plans t[0..n) with cfg's --alignment (cfg->t.alignment, checked; default
 * 256) and renders it in cfg->format into out (drained as it grows). False
 * with e filled when the alignment is bad, memory runs out or the arena
 * would pass 2^64 - 1. */
bool cli_plan_tensors(struct cli_config *cfg, const struct planned *t, size_t n,
                      const struct plan_extra *x, struct outbuf *out, struct cli_error *e);

/* What a renderer draws: the tensors shown (every one, or --top's, the
 * largest first), t[idx[k]] at off[idx[k]]; idx NULL: t[0..n) in order. */
struct plan_view {
    const struct planned *t;
    const uint64_t *off;
    const size_t *idx;
    size_t n;
};

static inline size_t plan_view_at(const struct plan_view *v, size_t k)
{
    return v->idx ? v->idx[k] : k;
}

/* plan_out.c: the group (arena) of tensor i: 0 the main graph's. */
size_t cli_plan_group_of(const struct plan_summary *s, size_t i);

/* plan_svg.c: the picture (steps across, offsets down) of the main arena. */
void cli_plan_render_svg(struct outbuf *b, const struct plan_view *v, const struct plan_summary *s);

#endif
