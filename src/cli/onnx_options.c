/* onnx_options.c - --dim, --shape, --rank and --layout as scan, plan and
 * nodes read them, and a --shape checked against a declared value (see
 * onnx_options.h). */
#include "onnx_options.h"
#include "parse.h"

#include <stdlib.h>
#include <string.h>

/* Names as bytes: shorter first, then memcmp (any order does for bsearch). */
static int compare_names(const char *a, size_t an, const char *b, size_t bn)
{
    if (an != bn)
        return an < bn ? -1 : 1;
    return an ? memcmp(a, b, an) : 0;
}

static int compare_dims(const void *a, const void *b)
{
    const struct onnx_dim_binding *x = a, *y = b;
    return compare_names(x->name, x->len, y->name, y->len);
}

static int compare_shapes(const void *a, const void *b)
{
    const struct onnx_shape_binding *x = a, *y = b;
    return compare_names(x->name, x->len, y->name, y->len);
}

struct onnx_dim_binding *cli_onnx_dim_bound(const struct onnx_options *o, const void *p, size_t n)
{
    const struct onnx_dim_binding key = {.name = p, .len = n};
    return o->n_dims ? bsearch(&key, o->dims, o->n_dims, sizeof o->dims[0], compare_dims) : NULL;
}

struct onnx_shape_binding *cli_onnx_shape_given(const struct onnx_options *o, const void *p,
                                                size_t n)
{
    const struct onnx_shape_binding key = {.name = p, .len = n};
    return o->n_shapes ? bsearch(&key, o->shapes, o->n_shapes, sizeof o->shapes[0], compare_shapes)
                       : NULL;
}

/* "NAME=..." split at its last '=' (a name may hold one; a value never). */
static bool split_named(const char *text, const char *option, const char *example,
                        const char **value, size_t *len, struct cli_error *e)
{
    const char *eq = strrchr(text, '=');
    if (eq == NULL || eq == text) {
        cli_fail(e, CLI_E_BAD_DIMENSION, option, text,
                 eq ? "no name before =" : "expected NAME=VALUE");
        cli_hint(e, "%s", example);
        return false;
    }
    *value = eq + 1;
    *len = (size_t)(eq - text);
    return true;
}

static bool read_dims(const struct cli_config *cfg, struct onnx_options *o, struct cli_error *e)
{
    for (unsigned i = 0; i < cfg->n_dims; i++) {
        const char *text = cfg->dims[i], *value;
        struct onnx_dim_binding *b = &o->dims[i];
        if (!split_named(text, "--dim", "--dim batch=8 binds the symbolic dim \"batch\" to 8",
                         &value, &b->len, e) ||
            !cli_parse_uint(value, strlen(value), 1, UINT32_MAX, &b->value, e, "--dim", text, NULL,
                            "sizes"))
            return false;
        b->name = text;
        b->text = text;
    }
    o->n_dims = cfg->n_dims;
    qsort(o->dims, o->n_dims, sizeof o->dims[0], compare_dims);
    for (unsigned i = 1; i < o->n_dims; i++)
        if (compare_dims(&o->dims[i - 1], &o->dims[i]) == 0)
            return cli_fail(e, CLI_E_DUPLICATE_OPTION, "--dim", o->dims[i].text,
                            "binds \"%.*s\" a second time", cli_shown(o->dims[i].len, 100),
                            o->dims[i].name);
    return true;
}

static bool read_shapes(const struct cli_config *cfg, struct onnx_options *o, struct cli_error *e)
{
    for (unsigned i = 0; i < cfg->n_shapes; i++) {
        const char *text = cfg->shapes[i], *value;
        struct onnx_shape_binding *b = &o->shapes[i];
        if (!split_named(text, "--shape",
                         "--shape state=2,1,128 gives the value \"state\" the sizes 2,1,128",
                         &value, &b->len, e) ||
            !cli_parse_uint_list("--shape", value, 1, UINT32_MAX, ONNX_SHAPE_MAX_RANK, b->dims,
                                 &b->rank, e, "dim", "sizes"))
            return false;
        b->name = text;
        b->text = text;
    }
    o->n_shapes = cfg->n_shapes;
    qsort(o->shapes, o->n_shapes, sizeof o->shapes[0], compare_shapes);
    for (unsigned i = 1; i < o->n_shapes; i++)
        if (compare_shapes(&o->shapes[i - 1], &o->shapes[i]) == 0)
            return cli_fail(e, CLI_E_DUPLICATE_OPTION, "--shape", o->shapes[i].text,
                            "gives \"%.*s\" a second shape", cli_shown(o->shapes[i].len, 100),
                            o->shapes[i].name);
    return true;
}

void cli_onnx_options_free(struct onnx_options *o)
{
    free(o->dims);
    free(o->shapes);
    free(o->infer_dims);
    free(o->infer_shapes);
    free(o->infer_shape_dims);
    memset(o, 0, sizeof *o);
}

/* o->infer: the bindings read, as the session binds them. */
static bool infer_view(struct onnx_options *o)
{
    size_t n_shape_dims = 0;
    for (unsigned k = 0; k < o->n_shapes; k++)
        n_shape_dims += o->shapes[k].rank;
    struct onnx_infer_dim *dims = o->infer_dims = calloc(o->n_dims + 1, sizeof *dims);
    struct onnx_infer_shape *shapes = o->infer_shapes = calloc(o->n_shapes + 1, sizeof *shapes);
    o->infer_shape_dims = calloc(n_shape_dims + 1, sizeof *o->infer_shape_dims);
    o->infer.dims = dims;
    o->infer.shapes = shapes;
    if (dims == NULL || shapes == NULL || o->infer_shape_dims == NULL)
        return false;
    for (unsigned k = 0; k < o->n_dims; k++)
        dims[k] =
            (struct onnx_infer_dim){o->dims[k].name, o->dims[k].len, (int64_t)o->dims[k].value};
    size_t at = 0;
    for (unsigned k = 0; k < o->n_shapes; k++) {
        const struct onnx_shape_binding *b = &o->shapes[k];
        for (unsigned i = 0; i < b->rank; i++)
            o->infer_shape_dims[at + i] = (int64_t)b->dims[i];
        shapes[k] = (struct onnx_infer_shape){b->name, b->len, b->rank, o->infer_shape_dims + at};
        at += b->rank;
    }
    o->infer.n_dims = o->n_dims;
    o->infer.n_shapes = o->n_shapes;
    return true;
}

bool cli_onnx_options_read(const struct cli_config *cfg, struct onnx_options *o,
                           struct cli_error *e)
{
    memset(o, 0, sizeof *o);
    o->dims = calloc(cfg->n_dims ? cfg->n_dims : 1, sizeof o->dims[0]);
    o->shapes = calloc(cfg->n_shapes ? cfg->n_shapes : 1, sizeof o->shapes[0]);
    if (o->dims == NULL || o->shapes == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    if (!read_dims(cfg, o, e) || !read_shapes(cfg, o, e))
        return false;
    if (!infer_view(o))
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    if (cfg->t.rank) {
        uint64_t r;
        if (!cli_parse_uint(cfg->t.rank, strlen(cfg->t.rank), 1, DMLT_MAX_RANK, &r, e, "--rank",
                            cfg->t.rank, NULL, "ranks"))
            return false;
        o->rank = cfg->t.rank;
        o->rank_value = (unsigned)r;
    }
    if (cfg->t.layout) {
        /* Checked against some rank it names: each tensor then takes it
         * where it fits. */
        unsigned order[DMLT_MAX_RANK];
        bool fits = false;
        for (unsigned r = 1; r <= DMLT_MAX_RANK && !fits; r++)
            fits = dmlt_layout_parse(cfg->t.layout, strlen(cfg->t.layout), r, order) == DMLT_OK;
        if (!fits) {
            cli_fail(e, CLI_E_BAD_LAYOUT, "--layout", cfg->t.layout, "not a layout of any rank");
            cli_hint(e, "nchw, nhwc, ncdhw, ndhwc, row-major, col-major, or a permutation of a "
                        "rank's letters");
            return false;
        }
        o->layout = cfg->t.layout;
    }
    return true;
}

bool cli_onnx_in_main_graph(const struct onnx_tensor *t)
{
    return t->graph == 0;
}

/* Marks each --dim whose symbol one of v[0..n) has. */
static void mark_symbols(const struct onnx_value_info *v, uint32_t n, struct onnx_options *o)
{
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t d = 0; v[i].type.has_shape && d < v[i].type.rank; d++) {
            const struct onnx_bytes p = v[i].type.dims[d].param;
            struct onnx_dim_binding *b =
                v[i].type.dims[d].kind == ONNX_DIM_PARAM ? cli_onnx_dim_bound(o, p.p, p.n) : NULL;
            if (b != NULL)
                b->used = true;
        }
}

static void mark_name(struct onnx_bytes name, struct onnx_options *o)
{
    struct onnx_shape_binding *b = cli_onnx_shape_given(o, name.p, name.n);
    if (b != NULL)
        b->used = true;
}

/* One pass over the model, each name looked up among the sorted options:
 * O((values + dims) log options), not a pass per option. */
void cli_onnx_note_unused(const struct cli_config *cfg, const char *cmd,
                          const struct onnx_model *model, struct onnx_options *o)
{
    for (unsigned k = 0; k < o->n_dims; k++)
        o->dims[k].used = false;
    for (unsigned k = 0; k < o->n_shapes; k++)
        o->shapes[k].used = false;
    for (uint32_t gi = 0; gi < model->n_graphs && o->n_dims; gi++) {
        const struct onnx_graph *g = &model->graphs[gi];
        mark_symbols(g->inputs, g->n_inputs, o);
        mark_symbols(g->outputs, g->n_outputs, o);
        mark_symbols(g->value_info, g->n_value_info, o);
    }
    if (model->n_graphs > 0 && o->n_shapes) {
        const struct onnx_graph *g = &model->graphs[0];
        const struct onnx_value_info *lists[3] = {g->inputs, g->outputs, g->value_info};
        const uint32_t counts[3] = {g->n_inputs, g->n_outputs, g->n_value_info};
        for (int l = 0; l < 3; l++)
            for (uint32_t i = 0; i < counts[l]; i++)
                mark_name(lists[l][i].name, o);
        for (uint32_t k = 0; k < g->n_nodes; k++)
            for (uint32_t i = 0; i < g->nodes[k].n_outputs; i++)
                mark_name(g->nodes[k].outputs[i], o);
    }
    for (unsigned k = 0; k < o->n_dims; k++)
        if (!o->dims[k].used)
            cli_note(cfg->err, "%s: --dim %s: no tensor has the symbolic dim \"%.*s\"", cmd,
                     o->dims[k].text, cli_shown(o->dims[k].len, 100), o->dims[k].name);
    for (unsigned k = 0; k < o->n_shapes; k++)
        if (!o->shapes[k].used)
            cli_note(cfg->err, "%s: --shape %s: the main graph has no tensor \"%.*s\"", cmd,
                     o->shapes[k].text, cli_shown(o->shapes[k].len, 100), o->shapes[k].name);
}

bool cli_onnx_shape_check(const struct onnx_tensor *t, struct onnx_options *o, struct cli_error *e)
{
    if (!t->has_name || !cli_onnx_in_main_graph(t))
        return true;
    const struct onnx_shape_binding *b = cli_onnx_shape_given(o, t->name.p, t->name.n);
    if (b == NULL || t->form == ONNX_DIMS_NONE)
        return true;
    if (t->rank != b->rank) {
        cli_fail(e, CLI_E_SHAPE_CONFLICT, "--shape", b->text,
                 "%s has %llu dims in the model (%s), not %u", "the value",
                 (unsigned long long)t->rank, t->path, b->rank);
        return false;
    }
    struct onnx_dim_iter it;
    struct onnx_dim dim;
    onnx_dims_begin(t, &it);
    for (unsigned i = 0; onnx_dims_next(&it, &dim); i++) {
        uint64_t want = b->dims[i];
        if (dim.kind == ONNX_DIM_PARAM) {
            const struct onnx_dim_binding *d = cli_onnx_dim_bound(o, dim.param.p, dim.param.n);
            if (d == NULL || d->value == want)
                continue;
            cli_fail(e, CLI_E_SHAPE_CONFLICT, "--shape", b->text,
                     "dim %u is the symbol \"%.*s\", which %s binds to %llu", i,
                     cli_shown(dim.param.n, 60), (const char *)dim.param.p, d->text,
                     (unsigned long long)d->value);
            return false;
        }
        if (dim.kind == ONNX_DIM_VALUE && (dim.value < 0 || (uint64_t)dim.value != want)) {
            cli_fail(e, CLI_E_SHAPE_CONFLICT, "--shape", b->text,
                     "dim %u is %lld in the model (%s), not %llu", i, (long long)dim.value, t->path,
                     (unsigned long long)want);
            return false;
        }
    }
    return true;
}
