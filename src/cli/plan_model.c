/* plan_model.c - `plan MODEL.onnx` (plan_model.h). */
#include "plan_model.h"
#include "dml_ep.h"
#include "parse.h"
#include "first_unknown.h"
#include "lifetime.h"
#include "model_session.h"
#include "plan_out.h"
#include "source_onnx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_MAX_TEXT 384u /* a tensor's path, cut to fit */
#define GPATH_EACH    320u /* a subgraph's path, cut to fit */

/* What the plan of a model keeps until it is rendered. */
struct model_plan {
    struct onnx_session ses; /* the model, read and inferred once */
    const struct onnx_model *model;
    const struct onnx_infer *inf;
    struct onnx_options o;
    struct descriptor *d;
    struct planned *t;
    struct plan_pool text;     /* the tensors' paths, names, ops and sizes */
    char *gpath;               /* each graph's path, GPATH_EACH apart ("" for the main graph) */
    struct plan_group *groups; /* one per graph, in the model's order */
    struct first_unknown first;
    struct dmlt_ep_result ep; /* --device dml: each node's placement (src/dml) */
    bool dml;
};

static void model_plan_free(struct model_plan *p)
{
    dmlt_ep_free(&p->ep);
    onnx_session_close(&p->ses);
    cli_onnx_options_free(&p->o);
    free(p->d);
    free(p->t);
    cli_plan_pool_free(&p->text);
    free(p->gpath);
    free(p->groups);
}

/* TotalTensorSizeInBytes of an inferred value, its dtype and sizes; false
 * with e filled when its size is not known. */
static bool value_size(struct model_plan *p, const struct onnx_infer_value *v, uint64_t *bytes,
                       struct tensor_desc *td, struct cli_error *e)
{
    struct onnx_facts facts;
    if (v == NULL)
        return cli_fail(e, CLI_E_SHAPE_NOT_INFERRED, NULL, NULL, "no result for this value");
    if (!cli_descriptor_from_inferred(v, &p->o, p->d, &facts, e) ||
        !cli_describe_tensor(&p->d->cfg.t, td, e))
        return false;
    struct dmlt_report rep = DMLT_REPORT_INIT;
    struct dmlt_error derr;
    if (dmlt_report_compute(&td->t, NULL, &rep, &derr) != DMLT_OK ||
        !dmlt_u128_fits_u64(rep.total_tensor_size_bytes))
        return cli_fail(e, CLI_E_TOTAL_SIZE_RANGE, NULL, NULL, "its size is past 2^64 - 1 bytes");
    *bytes = dmlt_u128_to_u64(rep.total_tensor_size_bytes);
    return true;
}

static const struct onnx_infer_value *value_of(const struct model_plan *p, uint32_t graph,
                                               const struct onnx_life *l)
{
    if (l->node != ONNX_LIFE_NO_NODE && l->kind == ONNX_LIFE_ACTIVATION)
        return onnx_infer_output(p->inf, graph, l->node, l->output);
    return onnx_infer_lookup(p->inf, graph, (const char *)l->name.p, l->name.n);
}

/* The path of graph gi (first_unknown.c's, as scan writes it); the main
 * graph's "" (its values' paths start "graph"). */
static void put_graph_path(struct model_plan *p, uint32_t gi)
{
    char *out = p->gpath + (size_t)gi * GPATH_EACH;
    out[0] = '\0';
    if (gi != 0)
        cli_model_graph_path(out, GPATH_EACH, &p->model->graphs[gi]);
}

/* "graph.node[7] (Conv).output[0]" (or the subgraph's path for graph);
 * a graph input has none (""): the model reader keeps the inputs a node
 * names, so their index in the file is not known here. */
static size_t put_path(char *buf, size_t cap, const char *gpath, const struct onnx_graph *g,
                       const struct onnx_life *l)
{
    int n = 0;
    buf[0] = '\0';
    if (l->node != ONNX_LIFE_NO_NODE) {
        const struct onnx_node *node = &g->nodes[l->node];
        n = snprintf(buf, cap, "%s.node[%lu] (%.*s).output[%lu]", *gpath ? gpath : "graph",
                     (unsigned long)l->node, cli_shown(node->op_type.n, 100),
                     (const char *)node->op_type.p, (unsigned long)l->output);
    }
    return n < 0 ? 0 : (size_t)n >= cap ? cap - 1 : (size_t)n;
}

/* For the walk's records: the path of the main graph input that is the
 * first unknown (the model reader does not keep inputs' places in the
 * file). */
static enum onnx_step find_input_path(void *ctx, const struct onnx_tensor *t)
{
    struct first_unknown *f = ctx;
    if (*f->path)
        return ONNX_STEP_STOP;
    if (t->kind != ONNX_INPUT || t->graph != 0 || !t->has_name || !onnx_bytes_is(t->name, f->name))
        return ONNX_STEP_GO;
    snprintf(f->path, sizeof f->path, "%s", t->path);
    return ONNX_STEP_STOP; /* the first is the one */
}

/* The summary's first_unknown: the first value of unknown size in
 * execution order, as scan's summary names it. */
static void find_first_unknown(struct model_plan *p, struct plan_extra *x)
{
    cli_first_unknown_find(p->model, p->inf, &p->o, p->d, &p->first);
    if (!p->first.found)
        return;
    if (p->first.is_input) {
        bool oom = false; /* a path left "" (the input's name shown instead) */
        (void)onnx_session_each(&p->ses, find_input_path, NULL, &p->first, &oom);
    }
    x->has_first_unknown = true;
    x->first_unknown.path = *p->first.path ? p->first.path : p->first.name;
    x->first_unknown.op = *p->first.op ? p->first.op : NULL;
    x->first_unknown.reason = p->first.reason;
}

/* Why a tensor's size is unknown, and what to do: bind a symbol, or (a
 * shape inference does not give) name the cause and leave it out. */
static void unknown_hint(struct cli_error *e)
{
    if (e->id != NULL && strcmp(e->id, "dim_unbound") == 0)
        cli_hint(e, "bind its symbols with --dim NAME=VALUE (or --shape), or leave it out with "
                    "--skip-unknown");
    else
        cli_hint(e, "shape inference does not give its size (the message says why); leave it "
                    "out with --skip-unknown");
}

/* --device dml: whether the value of life l (made by a node) is left out,
 * and why: its PLAN_SKIP_ cause, -1 when it is in DirectML memory, -2
 * (with e filled, naming it in text) when its node's placement is unknown
 * and --skip-unknown was not given. */
static int dml_skip(struct cli_config *cfg, struct model_plan *p, uint32_t gi,
                    const struct onnx_life *l, char *text, struct cli_error *e)
{
    switch (dmlt_ep_output_memory(&p->ep, gi, l->node)) {
    case DMLT_MEM_DML:
        return -1;
    case DMLT_MEM_CPU:
        return PLAN_SKIP_CPU;
    case DMLT_MEM_FOLDED:
        return PLAN_SKIP_FOLDED;
    case DMLT_MEM_FAILS:
        return PLAN_SKIP_FAILS;
    case DMLT_MEM_UNKNOWN:
        break;
    }
    if (cfg->skip_unknown)
        return PLAN_SKIP_PLACEMENT;
    const struct dmlt_ep_node *n = dmlt_ep_node_at(&p->ep, gi, l->node);
    const char *why = n && n->n_reasons ? p->ep.text + p->ep.reasons[n->first_reason].text : "";
    cli_fail(e, CLI_E_PLACEMENT_UNKNOWN, NULL, NULL,
             "where its node runs is unknown, so whether it is in DirectML memory is too%s%s",
             *why ? ": " : "", why);
    cli_hint(e, "dmltensor nodes MODEL says why; leave it out with --skip-unknown (the plan "
                "is then incomplete)");
    e->key = text; /* the tensor's path names it */
    cli_error_keep(e);
    return -2;
}

/* The planned tensors of graph gi's lives[0..n) into p->t from *kept on:
 * each with its size, or skipped (--skip-unknown, counted) or the error
 * naming it. */
static bool fill(struct cli_config *cfg, struct model_plan *p, struct plan_extra *x, uint32_t gi,
                 const struct onnx_life *lives, size_t n, size_t *kept, struct cli_error *e)
{
    const struct onnx_graph *g = &p->model->graphs[gi];
    const char *gpath = p->gpath + (size_t)gi * GPATH_EACH;
    size_t k = *kept;
    for (size_t i = 0; i < n; i++) {
        const struct onnx_life *l = &lives[i];
        char text[PATH_MAX_TEXT];
        struct tensor_desc td;
        memset(&td, 0, sizeof td);
        uint64_t bytes = 0;
        const size_t path_len = put_path(text, sizeof text, gpath, g, l);
        const struct onnx_infer_value *v = value_of(p, gi, l);
        if (v && v->folded && l->kind == ONNX_LIFE_ACTIVATION) {
            x->skipped[PLAN_SKIP_FOLDED]++; /* a weight when the session runs (SPEC section 11) */
            continue;
        }
        if (p->dml && l->node != ONNX_LIFE_NO_NODE) {
            const int skip = dml_skip(cfg, p, gi, l, text, e);
            if (skip == -2)
                return false;
            if (skip >= 0) {
                x->skipped[skip]++;
                continue;
            }
        }
        if (!value_size(p, v, &bytes, &td, e)) {
            if (cfg->skip_unknown) {
                x->skipped[PLAN_SKIP_UNKNOWN]++;
                continue;
            }
            cli_first_unknown_depends(p->model, p->inf, &p->o, p->d, gi,
                                      l->node != ONNX_LIFE_NO_NODE ? &g->nodes[l->node] : NULL,
                                      &p->first, e->message, sizeof e->message);
            unknown_hint(e);
            if (!*text) /* an input: its name */
                snprintf(text, sizeof text, "%.*s", cli_shown(l->name.n, 250),
                         (const char *)l->name.p);
            e->key = text; /* the tensor's path names it */
            cli_error_keep(e);
            return false;
        }
        struct planned *t = &p->t[k];
        const struct onnx_bytes op =
            l->node != ONNX_LIFE_NO_NODE ? g->nodes[l->node].op_type : (struct onnx_bytes){0};
        uint32_t *sizes = cli_plan_pool_alloc(&p->text, td.t.rank * sizeof *sizes + 1);
        t->path = path_len ? cli_plan_pool_str(&p->text, text, path_len) : NULL;
        t->graph = gpath;
        /* the name and op as long as a message shows them */
        t->name =
            cli_plan_pool_str(&p->text, (const char *)l->name.p, (size_t)cli_shown(l->name.n, 250));
        t->op = op.p ? cli_plan_pool_str(&p->text, (const char *)op.p, (size_t)cli_shown(op.n, 110))
                     : NULL;
        if (sizes == NULL || (path_len && t->path == NULL) || t->name == NULL ||
            (op.p && t->op == NULL))
            return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        memcpy(sizes, td.t.sizes, td.t.rank * sizeof td.t.sizes[0]);
        t->sizes = sizes;
        t->rank = td.t.rank;
        t->dtype = (int)td.t.dtype;
        t->size_bytes = bytes;
        t->first = l->first;
        t->last = l->last;
        k++;
    }
    *kept = k;
    return true;
}

/* The summary's weight_bytes as scan counts them: every initializer,
 * sparse initializer and Constant value of every graph whose size is known
 * (the walk's records). */
struct weights {
    struct model_plan *p;
    dmlt_u128 sum;
};

static enum onnx_step add_weight(void *ctx, const struct onnx_tensor *t)
{
    struct weights *w = ctx;
    if (t->kind != ONNX_INITIALIZER && t->kind != ONNX_SPARSE_INITIALIZER &&
        t->kind != ONNX_CONSTANT)
        return ONNX_STEP_GO;
    struct onnx_facts facts;
    struct cli_error ignored;
    struct tensor_desc td;
    struct dmlt_report rep = DMLT_REPORT_INIT;
    struct dmlt_error derr;
    memset(&td, 0, sizeof td);
    if (cli_descriptor_from_onnx(t, &w->p->o, w->p->d, &facts, &ignored) &&
        cli_describe_tensor(&w->p->d->cfg.t, &td, &ignored) &&
        dmlt_report_compute(&td.t, NULL, &rep, &derr) == DMLT_OK)
        (void)dmlt_u128_add(w->sum, rep.total_tensor_size_bytes, &w->sum);
    return ONNX_STEP_GO;
}

/* Every graph's tensors, each graph a group (SPEC section 11): the main
 * graph's first, then the subgraphs in the model's order (a parent before
 * its children). --io places the main graph's inputs and outputs only. */
static bool fill_graphs(struct cli_config *cfg, struct model_plan *p, struct plan_extra *x,
                        size_t *kept, struct cli_error *e)
{
    const uint32_t n_graphs = p->model->n_graphs;
    const size_t slots = n_graphs ? n_graphs : 1; /* (the caller sees one graph at least) */
    /* an array of pointers, one a graph */
    // NOLINTNEXTLINE(bugprone-sizeof-expression)
    struct onnx_life **lives = calloc(slots, sizeof *lives);
    size_t *counts = calloc(slots, sizeof *counts);
    p->groups = calloc(slots, sizeof *p->groups);
    p->gpath = malloc(slots * GPATH_EACH);
    bool ok = lives && counts && p->groups && p->gpath;
    size_t total = 0;
    for (uint32_t gi = 0; ok && gi < n_graphs; gi++) {
        put_graph_path(p, gi);
        ok = onnx_lifetimes(&p->model->graphs[gi], onnx_infer_order(p->inf, gi)->order,
                            gi == 0 && cfg->plan_io, &lives[gi], &counts[gi]);
        total += ok ? counts[gi] : 0;
    }
    if (ok) {
        p->t = calloc(total ? total : 1, sizeof *p->t);
        ok = p->t != NULL;
    }
    if (!ok)
        cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    *kept = 0;
    for (uint32_t gi = 0; ok && gi < n_graphs; gi++) {
        const struct onnx_graph *g = &p->model->graphs[gi];
        struct plan_group *grp = &p->groups[gi];
        grp->path = p->gpath + (size_t)gi * GPATH_EACH;
        grp->start = *kept;
        grp->parent = gi == 0 || g->parent == NULL ? -1 : (long)g->parent->index;
        grp->steps = g->n_nodes;
        ok = fill(cfg, p, x, gi, lives[gi], counts[gi], kept, e);
        grp->n = *kept - grp->start;
    }
    for (uint32_t gi = 0; lives && gi < n_graphs; gi++)
        free(lives[gi]);
    free(lives);
    free(counts);
    x->groups = p->groups;
    x->n_groups = n_graphs;
    return ok;
}

/* Adds the size of the main graph's value name to *sum; false when it is
 * not known. */
static bool add_size(struct model_plan *p, struct onnx_bytes name, dmlt_u128 *sum)
{
    struct tensor_desc td;
    struct cli_error ignored;
    uint64_t bytes = 0;
    memset(&td, 0, sizeof td);
    if (!value_size(p, onnx_infer_lookup(p->inf, 0, (const char *)name.p, name.n), &bytes, &td,
                    &ignored))
        return false;
    return dmlt_u128_add(*sum, dmlt_u128_from_u64(bytes), sum); /* false: past 2^128 */
}

/* The summary's io_bytes (the main graph's inputs that are no
 * initializer, and its outputs), only when every size is known. */
static void model_bytes(struct model_plan *p, struct plan_extra *x)
{
    const struct onnx_graph *g = &p->model->graphs[0];
    x->io_bytes = dmlt_u128_from_u64(0);
    x->has_io = true;
    for (uint32_t i = 0; i < g->n_inputs && x->has_io; i++)
        x->has_io = onnx_graph_has_initializer(g, g->inputs[i].name) ||
                    add_size(p, g->inputs[i].name, &x->io_bytes);
    for (uint32_t i = 0; i < g->n_outputs && x->has_io; i++)
        x->has_io = add_size(p, g->outputs[i].name, &x->io_bytes);
}

/* The main graph has an order to run in: false with e filled (exit 2)
 * naming a node on a cycle. */
static bool ordered(struct model_plan *p, struct cli_error *e)
{
    const struct onnx_order *o = onnx_infer_order(p->inf, 0);
    if (!o->cycle)
        return true;
    const struct onnx_graph *g = &p->model->graphs[0];
    uint32_t k = 0;
    while (!o->on_cycle[k])
        k++;
    const struct onnx_bytes op = g->nodes[k].op_type;
    cli_fail(e, CLI_E_GRAPH_CYCLE, NULL, NULL,
             "graph.node[%lu] (%.*s) is on a cycle of the main graph's nodes: no order runs it",
             (unsigned long)k, cli_shown(op.n, 100), (const char *)op.p);
    cli_hint(e, "a node reads, directly or through others, a value it makes itself");
    return false;
}

/* --device dml: every node placed as nodes places it (src/dml), the
 * copies counted; false with e filled for a bad --feature-level or no
 * memory. */
static bool place_nodes(struct cli_config *cfg, struct model_plan *p, struct plan_extra *x,
                        struct cli_error *e)
{
    struct dmlt_ep_options opts = {0, NULL};
    if (!p->dml)
        return true;
    if (!cli_parse_feature_level(cfg->feature_level, &opts.feature_level, e))
        return false;
    if (!dmlt_ep_run(p->model, p->inf, &opts, &p->ep))
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    x->device = "dml";
    x->copies = p->ep.copies;
    return true;
}

/* What --device dml left out that the plan should have held, on stderr. */
static void note_dml(struct cli_config *cfg, const struct plan_extra *x)
{
    if (x->skipped[PLAN_SKIP_FAILS])
        cli_note(cfg->err,
                 "plan: %llu tensor%s of nodes that fail on DirectML left out: session creation "
                 "fails (dmltensor nodes says which); the plan is incomplete (\"complete\":false)",
                 (unsigned long long)x->skipped[PLAN_SKIP_FAILS],
                 x->skipped[PLAN_SKIP_FAILS] == 1 ? "" : "s");
    if (x->skipped[PLAN_SKIP_PLACEMENT])
        cli_note(cfg->err,
                 "plan: %llu tensor%s of nodes whose placement is unknown left out "
                 "(--skip-unknown; dmltensor nodes says why): the plan is incomplete "
                 "(\"complete\":false)",
                 (unsigned long long)x->skipped[PLAN_SKIP_PLACEMENT],
                 x->skipped[PLAN_SKIP_PLACEMENT] == 1 ? "" : "s");
}

bool cli_plan_model(struct cli_config *cfg, const struct plat_map *m, struct outbuf *out,
                    struct cli_error *e)
{
    struct model_plan p;
    memset(&p, 0, sizeof p);
    struct onnx_error oe;
    bool oom = false;
    p.d = malloc(sizeof *p.d);
    p.dml = cfg->device != NULL;
    const bool have_d = p.d != NULL;
    if (!have_d || !cli_onnx_options_read(cfg, &p.o, e)) {
        model_plan_free(&p);
        return have_d ? false : cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    struct weights w = {&p, dmlt_u128_from_u64(0)};
    if (!cli_model_session_open(&p.ses, m, MODEL_RECORDS_VALUES, NULL, NULL, &oe, &oom) ||
        !onnx_session_each(&p.ses, add_weight, NULL, &w, &oom)) {
        model_plan_free(&p);
        return cli_model_session_fail(e, &oe, oom, cfg->input ? cfg->input : "-",
                                      "plan reads JSON Lines of tensors, or an ONNX model");
    }
    p.model = &p.ses.model;
    size_t kept = 0;
    bool ok = p.model->n_graphs > 0; /* (the reader refuses a model without one) */
    if (!ok)
        cli_fail(e, CLI_E_BAD_ONNX, NULL, cfg->input ? cfg->input : "-", "the model has no graph");
    struct plan_extra x = {.steps = dmlt_u128_from_u64(ok ? p.model->graphs[0].n_nodes : 0),
                           .has_weight = true,
                           .weight_bytes = w.sum};
    ok = ok && cli_model_session_infer(&p.ses, &p.o, e);
    p.inf = p.ses.infer;
    ok = ok && ordered(&p, e) && place_nodes(cfg, &p, &x, e);
    if (ok) {
        cli_onnx_note_unused(cfg, "plan", p.model, &p.o);
        find_first_unknown(&p, &x);
    }
    ok = ok && fill_graphs(cfg, &p, &x, &kept, e);
    if (ok) {
        model_bytes(&p, &x);
        /* clang-analyzer (14) reports p.t as leaked here since note_unused
         * moved out of this file; model_plan_free(&p) below frees it on
         * every path (ASan's and valgrind's leak checks run plan). */
        // NOLINTNEXTLINE(clang-analyzer-unix.Malloc)
        ok = cli_plan_tensors(cfg, p.t, kept, &x, out, e);
    }
    if (ok && x.skipped[PLAN_SKIP_UNKNOWN])
        cli_note(cfg->err,
                 "plan: %llu tensor%s of unknown size left out (--skip-unknown): the plan is "
                 "incomplete (\"complete\":false); the first: %s%s%s%s: %s",
                 (unsigned long long)x.skipped[PLAN_SKIP_UNKNOWN],
                 x.skipped[PLAN_SKIP_UNKNOWN] == 1 ? "" : "s", x.first_unknown.path,
                 x.first_unknown.op ? " (" : "", x.first_unknown.op ? x.first_unknown.op : "",
                 x.first_unknown.op ? ")" : "", x.first_unknown.reason);
    if (ok)
        note_dml(cfg, &x);
    model_plan_free(&p);
    return ok;
}
