/* scan_onnx.c - scan of an ONNX model (scan.h): a record per value the
 * model declares (source_onnx.c makes each a descriptor), a record per
 * activation that shape inference finds (section 9), and the model's
 * summary, as JSON Lines or a table for people. */
#include "input.h"
#include "scan.h"
#include "scan_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a record is, whatever made it: a value the model declares (the
 * walk's onnx_tensor) or an activation shape inference found. */
struct rec {
    const char *path;
    struct onnx_bytes name;
    bool has_name;
    unsigned kind;                /* enum onnx_kind, SCAN_ACTIVATION or SCAN_FOLDED */
    const struct onnx_node *node; /* an activation's node */
    bool model_io;                /* an input or output of the main graph */
    bool external;
    uint32_t graph; /* its graph's index: a declared value's mismatch */
};

static const char *rec_kind(const struct rec *r)
{
    return cli_scan_kind_name(r->kind);
}

/* ---- scan: an ONNX model ---------------------------------------------------- */

/* The text of bytes from the model, NUL-terminated, in b. */
static const char *model_text(struct outbuf *b, struct onnx_bytes t)
{
    cli_ob_reset(b);
    if (t.n)
        ob_write(b, (const char *)t.p, t.n);
    ob_putc(b, '\0');
    return b->failed ? "" : b->data;
}

/* ---- a model's shapes and symbols ------------------------------------------- */

/* Counts sym among the model's unbound symbols, once; the first
 * UNBOUND_LIST_MAX go in the summary's list. */
static void note_unbound(struct scan *s, struct onnx_bytes sym)
{
    struct model_totals *m = &s->model;
    struct unbound_set *u = m->unbound;
    const size_t mask = 2 * UNBOUND_TRACK_MAX - 1;
    size_t i = onnx_hash_slot(onnx_hash(sym), mask);
    while (u->slot[i].p != NULL) {
        if (onnx_bytes_eq(u->slot[i], sym))
            return;
        i = (i + 1) & mask;
    }
    if (u->distinct == UNBOUND_TRACK_MAX) {
        u->overflow = true; /* maybe new, maybe not: told apart no more */
        return;
    }
    u->slot[i] = sym;
    if (u->distinct++ >= UNBOUND_LIST_MAX)
        return;
    if (m->unbound_list.len)
        ob_puts(&m->unbound_list, s->text ? ", " : ",");
    const char *text = model_text(&s->scratch, sym);
    if (s->text)
        cli_ob_quoted_text(&m->unbound_list, text, SIZE_MAX);
    else
        cli_ob_json_str(&m->unbound_list, text);
}

/* The record's "shape" into s->shape: the dims as the model gives them
 * (numbers, symbols, null for a dim with neither), or null without a
 * shape; each unbound symbol is noted. */
static void read_shape(struct scan *s, const struct onnx_tensor *t)
{
    struct outbuf *b = &s->shape;
    cli_ob_reset(b);
    s->n_pending = 0;
    if (t->form == ONNX_DIMS_NONE) {
        ob_puts(b, "null");
        return;
    }
    /* A value whose --shape is given leaves no symbol to bind. */
    const bool given = t->has_name && cli_onnx_in_main_graph(t) &&
                       cli_onnx_shape_given(&s->onnx, t->name.p, t->name.n) != NULL;
    struct onnx_dim_iter it;
    struct onnx_dim dim;
    onnx_dims_begin(t, &it);
    ob_putc(b, '[');
    for (bool first = true; onnx_dims_next(&it, &dim); first = false) {
        if (!first)
            ob_putc(b, ',');
        switch (dim.kind) {
        case ONNX_DIM_VALUE:
            if (dim.value < 0) {
                ob_putc(b, '-');
                ob_u64(b, 0 - (uint64_t)dim.value);
            } else {
                ob_u64(b, (uint64_t)dim.value);
            }
            break;
        case ONNX_DIM_PARAM:
            cli_ob_json_str(b, model_text(&s->scratch, dim.param));
            if (!given && cli_onnx_dim_bound(&s->onnx, dim.param.p, dim.param.n) == NULL &&
                s->n_pending < sizeof s->pending / sizeof s->pending[0])
                s->pending[s->n_pending++] = dim.param;
            break;
        case ONNX_DIM_UNKNOWN:
            ob_puts(b, "null");
            break;
        }
    }
    ob_putc(b, ']');
}

/* A graph input or output of the main graph: the model's own I/O (not a
 * subgraph's). */
static bool is_model_io(const struct onnx_tensor *t)
{
    return (t->kind == ONNX_INPUT && strncmp(t->path, "graph.input[", 12) == 0) ||
           (t->kind == ONNX_OUTPUT && strncmp(t->path, "graph.output[", 13) == 0);
}

static bool is_weight(const struct rec *r)
{
    return r->kind == ONNX_INITIALIZER || r->kind == ONNX_SPARSE_INITIALIZER ||
           r->kind == ONNX_CONSTANT;
}

/* The totals a record adds to, whether it has a size (bytes) or not. */
static void count_sizes(struct model_totals *m, const struct rec *t, const dmlt_u128 *bytes)
{
    if (t->model_io) {
        if (t->kind == ONNX_INPUT)
            m->io_inputs++;
        else
            m->io_outputs++;
        if (bytes)
            (void)dmlt_u128_add(m->io_bytes, *bytes, &m->io_bytes);
        else
            m->io_complete = false;
    }
    if (is_weight(t)) {
        if (bytes)
            (void)dmlt_u128_add(m->weight_bytes, *bytes, &m->weight_bytes);
        else
            m->weights_unsized++;
    }
}

/* Text of the node's operator: op_type, or domain.op_type outside the
 * default domain. */
static const char *op_text(struct outbuf *b, const struct onnx_node *n)
{
    cli_ob_reset(b);
    if (!onnx_default_domain(n->domain)) {
        ob_write(b, (const char *)n->domain.p, n->domain.n);
        ob_putc(b, '.');
    }
    if (n->op_type.n)
        ob_write(b, (const char *)n->op_type.p, n->op_type.n);
    ob_putc(b, '\0');
    for (size_t i = 0; i + 1 < b->len; i++)
        if (b->data[i] == '\0')
            b->data[i] = '?';
    return b->failed ? "" : b->data;
}

static void put_onnx_head(struct scan *s, const struct rec *t, const struct onnx_facts *facts)
{
    struct outbuf *out = s->out;
    ob_puts(out, "{\"path\":"); /* the sink puts "file" first, with several files */
    cli_ob_json_str(out, t->path);
    ob_puts(out, ",\"name\":");
    if (t->has_name)
        cli_ob_json_str(out, model_text(&s->scratch, t->name));
    else
        ob_puts(out, "null");
    ob_puts(out, ",\"kind\":");
    cli_ob_json_str(out, rec_kind(t));
    if (t->node) {
        ob_puts(out, ",\"op\":");
        cli_ob_json_str(out, op_text(&s->scratch, t->node));
    }
    /* where the value lives: a graph input's or an initializer's own
     * record says it (the model reader keeps only those a node reads),
     * else its producer's placement (src/dml) */
    const char *place =
        t->kind == ONNX_INPUT                                               ? "input"
        : t->kind == ONNX_INITIALIZER || t->kind == ONNX_SPARSE_INITIALIZER ? "initializer"
        : t->has_name
            ? dmlt_ep_value_placement(&s->ep, t->graph, (const char *)t->name.p, t->name.n)
            : NULL;
    ob_puts(out, ",\"placement\":");
    if (place)
        cli_ob_json_str(out, place);
    else
        ob_puts(out, "null");
    ob_puts(out, ",\"onnx_type\":");
    if (facts->onnx_type)
        cli_ob_json_str(out, facts->onnx_type);
    else
        ob_puts(out, "null");
    ob_puts(out, ",\"shape\":");
    ob_write(out, s->shape.data, s->shape.len);
}

/* A tensor's label in the table: its name, or its path when it has none. */
static const char *label_of(struct scan *s, const struct rec *t)
{
    const char *name = t->has_name ? model_text(&s->scratch, t->name) : "";
    return *name ? name : t->path;
}

/* A failed or broken record's path (its label in text, the first few),
 * for the summary's lists; count is the list's length with it. */
static void remember_path(struct scan *s, struct outbuf *list, uint64_t count, const struct rec *t)
{
    if (count > (s->text ? TEXT_LIST_MAX : JSON_LIST_MAX))
        return;
    if (list->len)
        ob_puts(list, s->text ? ", " : ",");
    if (s->text)
        cli_ob_quoted_text(list, label_of(s, t), SIZE_MAX);
    else
        cli_ob_json_str(list, t->path);
}

/* One row of --format text (see cli_scan_text_row). */
static void put_text_row(struct scan *s, const struct rec *t, const struct onnx_facts *facts,
                         const struct tensor_desc *td, const dmlt_u128 *bytes,
                         const struct cli_error *err, bool broken)
{
    cli_scan_text_row(s->out, &s->text_tmp, s->name_width, label_of(s, t), rec_kind(t), facts, td,
                      bytes, err, broken);
}

/* A model's header in text: its file, then the columns' names. */
static void put_text_header(struct scan *s)
{
    struct outbuf *out = s->out;
    if (s->text_started)
        ob_putc(out, '\n');
    s->text_started = true;
    cli_ob_quoted_text(out, s->file, SIZE_MAX);
    ob_puts(out, " (ONNX model)\n");
    cli_scan_text_header(out, s->name_width);
}

static void measure_label(struct scan *s, const char *label)
{
    const size_t w = cli_scan_text_width(&s->text_tmp, label);
    if (w > s->name_width)
        s->name_width = w;
}

/* The measuring walk before a table: the widest label, declared values
 * and activations. */
static enum onnx_step measure_tensor(void *ctx, const struct onnx_tensor *t)
{
    struct scan *s = ctx;
    const struct rec r = {
        .path = t->path, .name = t->name, .has_name = t->has_name, .kind = t->kind};
    measure_label(s, label_of(s, &r));
    return ONNX_STEP_GO;
}

static bool activation_output(const struct scan *s, uint32_t graph, const struct onnx_node *node,
                              uint32_t i);

static enum onnx_step measure_node(void *ctx, uint32_t graph, uint32_t index, const char *path)
{
    struct scan *s = ctx;
    if (s->session.infer == NULL || graph >= s->session.model.n_graphs ||
        index >= s->session.model.graphs[graph].n_nodes)
        return ONNX_STEP_GO;
    const struct onnx_node *node = &s->session.model.graphs[graph].nodes[index];
    for (uint32_t i = 0; i < node->n_outputs; i++) {
        if (!activation_output(s, graph, node, i))
            continue;
        const struct rec r = {.path = path,
                              .name = node->outputs[i],
                              .has_name = true,
                              .kind = SCAN_ACTIVATION,
                              .node = node,
                              .graph = graph};
        measure_label(s, label_of(s, &r));
    }
    return ONNX_STEP_GO;
}

/* The largest tensor so far, for the summary. */
static void note_largest(struct scan *s, const struct rec *t, dmlt_u128 bytes)
{
    struct model_totals *m = &s->model;
    if (m->has_largest && dmlt_u128_cmp(bytes, m->largest_bytes) <= 0)
        return;
    m->has_largest = true;
    m->largest_bytes = bytes;
    cli_ob_reset(&m->largest);
    if (s->text) {
        cli_ob_quoted_text(&m->largest, label_of(s, t), SIZE_MAX);
        if (t->has_name && *model_text(&s->scratch, t->name)) {
            ob_puts(&m->largest, " (");
            cli_ob_quoted_text(&m->largest, t->path, SIZE_MAX); /* op_types are the model's */
            ob_putc(&m->largest, ')');
        }
        return;
    }
    ob_puts(&m->largest, "{\"path\":");
    cli_ob_json_str(&m->largest, t->path);
    ob_puts(&m->largest, ",\"name\":");
    if (t->has_name)
        cli_ob_json_str(&m->largest, model_text(&s->scratch, t->name));
    else
        ob_puts(&m->largest, "null");
    ob_puts(&m->largest, ",\"total_tensor_size_bytes\":");
    ob_u128(&m->largest, bytes);
    ob_putc(&m->largest, '}');
}

/* An error record (e), counted by what it means for the exit status. */
static enum onnx_step emit_error(struct scan *s, const struct rec *t, struct scan_record *r,
                                 const struct onnx_facts *facts, const struct cli_error *e)
{
    struct model_totals *m = &s->model;
    if (s->text) {
        put_text_row(s, t, facts, NULL, NULL, e, false);
    } else {
        put_onnx_head(s, t, facts);
        ob_putc(s->out, ',');
        cli_render_error_member(s->out, e);
        ob_puts(s->out, "}\n");
    }
    count_sizes(m, t, NULL);
    const enum onnx_verdict v = cli_onnx_error_verdict(e->id);
    m->unknown += v == ONNX_UNKNOWN;
    if (v == ONNX_UNKNOWN && t->model_io && t->kind == ONNX_INPUT) {
        (void)cli_scan_first_unknown(s);
        cli_scan_first_unknown_input(s, t->path, t->name);
    }
    m->empty += strcmp(e->id, cli_error_name(CLI_E_ZERO_SIZE)) == 0;
    m->not_tensors += strcmp(e->id, cli_error_name(CLI_E_NOT_A_TENSOR)) == 0;
    const bool failed = v == ONNX_DEFINITE || (v == ONNX_UNKNOWN && s->cfg->strict);
    r->failure = failed ? e : NULL;
    const enum onnx_step step = cli_scan_sink(s, r);
    if (failed)
        remember_path(s, &m->failed_paths, m->failed, t);
    return step;
}

static void put_notes(struct outbuf *out, const struct onnx_facts *facts)
{
    if (facts->n_notes == 0)
        return;
    ob_puts(out, ",\"notes\":[");
    for (unsigned i = 0; i < facts->n_notes; i++) {
        if (i)
            ob_putc(out, ',');
        cli_ob_json_str(out, facts->notes[i]);
    }
    ob_putc(out, ']');
}

/* validate's result in s->rec with one more check: the warning
 * shape_mismatch, where inference contradicts what the model declares
 * (the record keeps the declaration). The result ends "...]}\n" and
 * counts its "warnings" (rendered just before, so its form is known). */
static void add_mismatch_check(struct scan *s, const struct onnx_infer_mismatch *mm, bool listed)
{
    char msg[200], num[48];
    if (mm->dim >= 0)
        snprintf(msg, sizeof msg, "dim %ld is %lld in the model, %lld as inferred", (long)mm->dim,
                 (long long)mm->declared, (long long)mm->inferred);
    else if (mm->dim == -1)
        snprintf(msg, sizeof msg, "rank %lld in the model, %lld as inferred",
                 (long long)mm->declared, (long long)mm->inferred);
    else
        snprintf(msg, sizeof msg, "element type %lld in the model, %lld as inferred",
                 (long long)mm->declared, (long long)mm->inferred);
    struct outbuf *r = &s->rec;
    if (r->failed || r->len < 4 || memcmp(r->data + r->len - 3, "]}\n", 3) != 0)
        return;
    ob_putc(r, '\0');
    const char *w = r->failed ? NULL : strstr(r->data, "\"warnings\":");
    r->len--;
    if (w == NULL)
        return;
    struct outbuf b;
    cli_ob_init(&b);
    const size_t at = (size_t)(w - r->data) + 11;
    uint64_t n = 0;
    size_t end = at;
    while (end < r->len && r->data[end] >= '0' && r->data[end] <= '9')
        n = n * 10 + (uint64_t)(r->data[end++] - '0');
    ob_write(&b, r->data, at);
    ob_write(&b, num, (size_t)(cli_put_u64(num, n + 1) - num));
    ob_write(&b, r->data + end, r->len - 3 - end);
    if (!listed) { /* --checks none: counted, not listed */
        ob_puts(&b, "]}\n");
        goto done;
    }
    ob_puts(&b, r->data[r->len - 4] == '[' ? "{" : ",{"); /* none listed before it */
    ob_puts(&b, "\"id\":\"shape_mismatch\",\"level\":\"warning\",\"status\":\"fail\","
                "\"message\":");
    cli_ob_json_str(&b, msg);
    ob_puts(&b, ",\"rule\":\"a declared shape agrees with the one its producer gives "
                "(ONNX shape inference)\"}]}\n");
done:
    if (!b.failed) {
        cli_ob_reset(r);
        ob_write(r, b.data, b.len);
    }
    cli_ob_free(&b);
}

/* A record: s->shape holds its "shape", s->d its descriptor when ok
 * (else e says why not); rendered, then handed to the sink. */
static enum onnx_step emit_record(struct scan *s, const struct rec *t, bool ok,
                                  struct onnx_facts *facts, struct cli_error *e)
{
    struct model_totals *m = &s->model;
    struct scan_record r = {.start = s->out->len, .model = true, .kind = t->kind};
    cli_ob_reset(&s->rec);
    if (ok) {
        s->d->cfg.json_opened = true; /* validate's keys follow the record's */
        s->d->cfg.checks_shown = s->cfg->checks_shown;
        ok = cli_results_run(s->d, &s->rec, e);
    }
    if (!ok)
        return emit_error(s, t, &r, facts, e);
    const struct onnx_infer_mismatch *mm =
        t->node == NULL && t->has_name ? onnx_session_mismatch(&s->session, t->graph, t->name)
                                       : NULL;
    if (mm)
        add_mismatch_check(s, mm, s->cfg->checks_shown != CHECKS_NONE);
    struct tensor_desc td;
    struct cli_error ignored;
    struct dmlt_report rep = DMLT_REPORT_INIT;
    struct dmlt_error derr;
    dmlt_u128 bytes = dmlt_u128_from_u64(0);
    const bool described = cli_describe_tensor(&s->d->cfg.t, &td, &ignored);
    const bool has_bytes = described && dmlt_report_compute(&td.t, NULL, &rep, &derr) == DMLT_OK;
    if (has_bytes)
        bytes = rep.total_tensor_size_bytes;
    const bool broken = s->d->cfg.exit_status != CLI_EXIT_OK;
    if (t->external && facts->n_notes < ONNX_MAX_NOTES)
        snprintf(facts->notes[facts->n_notes++], sizeof facts->notes[0],
                 "its data is in an external file (not read)");
    if (s->text) {
        put_text_row(s, t, facts, described ? &td : NULL, has_bytes ? &bytes : NULL, NULL, broken);
    } else {
        put_onnx_head(s, t, facts);
        if (described) {
            ob_puts(s->out, ",\"dtype\":");
            cli_ob_json_str(s->out, dmlt_dtype_get(td.t.dtype)->name);
            ob_puts(s->out, ",\"sizes\":");
            cli_ob_u32_list(s->out, td.t.sizes, td.t.rank, 1, true);
            ob_puts(s->out, ",\"strides\":");
            cli_ob_u32_list(s->out, td.t.strides, td.t.rank, 1, true);
        }
        if (has_bytes) {
            ob_puts(s->out, ",\"total_tensor_size_bytes\":");
            ob_u128(s->out, bytes);
        }
        put_notes(s->out, facts);
        ob_putc(s->out, ',');
        ob_write(s->out, s->rec.data, s->rec.len);
    }
    if (t->kind == ONNX_INITIALIZER || t->kind == ONNX_SPARSE_INITIALIZER) {
        (void)dmlt_u128_add(m->initializer_bytes, bytes, &m->initializer_bytes);
        m->external += t->external;
    }
    if (t->kind == SCAN_FOLDED)
        (void)dmlt_u128_add(m->folded_bytes, bytes, &m->folded_bytes);
    count_sizes(m, t, has_bytes ? &bytes : NULL);
    note_largest(s, t, bytes);
    r.bytes = has_bytes ? &bytes : NULL;
    r.broken = broken;
    const enum onnx_step step = cli_scan_sink(s, &r);
    if (broken)
        remember_path(s, &m->broken_paths, m->broken, t);
    return step;
}

/* For onnx_dx_symbols: a symbol of an inferred dim, noted when unbound
 * (bound ones were constants already). */
static void inferred_symbol(void *ctx, const char *name, size_t len)
{
    struct scan *s = ctx;
    note_unbound(s, (struct onnx_bytes){(const uint8_t *)name, len});
}

/* The unbound symbols that decide a declared value's size: its inferred
 * shape's where inference gives every dim (a declared symbol it resolved
 * decides nothing), else the declaration's. */
static void note_deciding_symbols(struct scan *s, const struct onnx_tensor *t)
{
    const struct onnx_infer_value *v =
        s->session.infer == NULL || !t->has_name || t->kind == ONNX_INITIALIZER ||
                t->kind == ONNX_SPARSE_INITIALIZER || t->kind == ONNX_CONSTANT
            ? NULL
            : onnx_infer_lookup(s->session.infer, t->graph, (const char *)t->name.p, t->name.n);
    bool whole = v != NULL && v->source == ONNX_INFER_INFERRED && v->rank >= 0;
    for (int32_t i = 0; whole && i < v->rank; i++)
        whole = v->dims[i] != NULL;
    if (whole) {
        for (int32_t i = 0; i < v->rank; i++)
            onnx_dx_symbols(v->dims[i], inferred_symbol, s);
        return;
    }
    for (unsigned i = 0; i < s->n_pending; i++)
        note_unbound(s, s->pending[i]);
}

/* A declared value whose own shape leaves it unknown takes the inferred
 * one, if inference knows more: its descriptor in s->d (*ok) or the error
 * it gives in e, and its shape in s->shape, with a note. False (nothing
 * changed) otherwise. */
static bool take_inferred(struct scan *s, const struct onnx_tensor *t, struct onnx_facts *facts,
                          struct cli_error *e, bool *ok)
{
    if (s->session.infer == NULL || !t->has_name || t->kind == ONNX_INITIALIZER ||
        t->kind == ONNX_SPARSE_INITIALIZER || t->kind == ONNX_CONSTANT)
        return false;
    const struct onnx_infer_value *v =
        onnx_infer_lookup(s->session.infer, t->graph, (const char *)t->name.p, t->name.n);
    if (v == NULL || v->source != ONNX_INFER_INFERRED)
        return false;
    struct onnx_facts f2;
    struct cli_error e2;
    *ok = cli_descriptor_from_inferred(v, &s->onnx, s->d, &f2, &e2);
    /* no better than the declaration (its own error stands), unless the
     * declaration has no rank and inference knows the shape (symbols,
     * say): then the inferred shape and its reason, not "rank unknown" */
    bool knows_more = v->rank >= 0 && !v->not_tensor && strcmp(e->id, "shape_unknown") == 0;
    if (!*ok && cli_onnx_error_verdict(e2.id) == ONNX_UNKNOWN && !knows_more) {
        *ok = false;
        return false;
    }
    const char *own = e->id;
    *facts = f2;
    if (!*ok)
        *e = e2;
    if (facts->n_notes < ONNX_MAX_NOTES)
        snprintf(facts->notes[facts->n_notes++], sizeof facts->notes[0],
                 "shape inferred: the model's own leaves its size unknown (%s)", own);
    cli_ob_reset(&s->shape);
    cli_onnx_inferred_shape_json(&s->shape, v, inferred_symbol, s);
    return true;
}

static enum onnx_step scan_onnx_tensor(void *ctx, const struct onnx_tensor *t)
{
    struct scan *s = ctx;
    struct cli_error e;
    struct onnx_facts facts;
    const struct rec r = {.path = t->path,
                          .name = t->name,
                          .has_name = t->has_name,
                          .kind = t->kind,
                          .model_io = is_model_io(t),
                          .external = t->external,
                          .graph = t->graph};
    read_shape(s, t);
    bool ok = cli_descriptor_from_onnx(t, &s->onnx, s->d, &facts, &e);
    bool replaced = false;
    if (!ok && cli_onnx_error_verdict(e.id) == ONNX_UNKNOWN &&
        !(replaced = take_inferred(s, t, &facts, &e, &ok))) {
        /* A failed try may have reset the descriptor: describe t again. */
        ok = cli_descriptor_from_onnx(t, &s->onnx, s->d, &facts, &e);
    }
    if (!replaced && !ok)
        note_deciding_symbols(s, t);
    return emit_record(s, &r, ok, &facts, &e);
}

/* Whether a node's output i gets an activation record: it has a name, no
 * graph output or value_info of its graph declares it, and it is no
 * Constant's (whose value has its record). */
static bool activation_output(const struct scan *s, uint32_t graph, const struct onnx_node *node,
                              uint32_t i)
{
    if (onnx_node_is_constant(node))
        return false;
    return node->outputs[i].n != 0 && !onnx_session_declared(&s->session, graph, node->outputs[i]);
}

/* The path of node `real` of graph, from the walk's path of node `index`
 * of the same graph ("...node[7] (Conv)"), into s->path; false when the
 * walk's path is not of that form. */
static bool node_path(struct scan *s, const char *path, uint32_t graph, uint32_t index,
                      uint32_t real)
{
    const struct onnx_graph *g = &s->session.model.graphs[graph];
    char head[32];
    const struct onnx_bytes op = g->nodes[index].op_type;
    const size_t len = strlen(path);
    const int h = snprintf(head, sizeof head, "node[%lu]", (unsigned long)index);
    size_t tail = (size_t)h + (op.n ? op.n + 3 : 0);
    if (!op.n && len >= 3 && strcmp(path + len - 3, " ()") == 0)
        tail += 3;
    if (tail > len || strncmp(path + len - tail, head, (size_t)h) != 0)
        return false;
    const struct onnx_bytes rop = g->nodes[real].op_type;
    cli_ob_reset(&s->path);
    ob_write(&s->path, path, len - tail);
    ob_puts(&s->path, "node[");
    ob_u64(&s->path, real);
    ob_putc(&s->path, ']');
    if (rop.n) {
        ob_puts(&s->path, " (");
        ob_write(&s->path, (const char *)rop.p, rop.n);
        ob_putc(&s->path, ')');
    }
    return true;
}

/* The activations of the node that runs index-th in its graph (SPEC
 * section 11: the order a runtime sorts the nodes in, the file's where it
 * is topological): each output that has no record of its own, as
 * inference found it, of kind folded where a runtime computes it once. */
static enum onnx_step scan_onnx_node(void *ctx, uint32_t graph, uint32_t index, const char *path)
{
    struct scan *s = ctx;
    if (s->session.infer == NULL || graph >= s->session.model.n_graphs ||
        index >= s->session.model.graphs[graph].n_nodes)
        return ONNX_STEP_GO;
    uint32_t real = onnx_infer_order(s->session.infer, graph)->order[index];
    cli_ob_reset(&s->path);
    if (real == index || !node_path(s, path, graph, index, real)) {
        real = index;
        cli_ob_reset(&s->path);
        ob_puts(&s->path, path);
    }
    const size_t head = s->path.len;
    const struct onnx_node *node = &s->session.model.graphs[graph].nodes[real];
    for (uint32_t i = 0; i < node->n_outputs; i++) {
        const struct onnx_bytes name = node->outputs[i];
        if (!activation_output(s, graph, node, i))
            continue;
        s->path.len = head;
        ob_puts(&s->path, ".output[");
        ob_u64(&s->path, i);
        ob_puts(&s->path, "]");
        ob_putc(&s->path, '\0');
        if (s->path.failed) {
            s->failed = true;
            cli_fail(s->e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
            return ONNX_STEP_FAIL;
        }
        const struct onnx_infer_value *v = onnx_infer_output(s->session.infer, graph, real, i);
        const struct rec r = {.path = s->path.data,
                              .name = name,
                              .has_name = true,
                              .kind = v && v->folded ? SCAN_FOLDED : SCAN_ACTIVATION,
                              .node = node,
                              .graph = graph};
        /* --shape on an activation: the inference gave it that shape */
        struct onnx_shape_binding *given =
            graph ? NULL : cli_onnx_shape_given(&s->onnx, name.p, name.n);
        if (given)
            given->used = true;
        struct onnx_facts facts;
        struct cli_error e;
        bool ok;
        cli_ob_reset(&s->shape);
        if (v == NULL) {
            memset(&facts, 0, sizeof facts);
            ob_puts(&s->shape, "null");
            ok = cli_fail(&e, CLI_E_SHAPE_NOT_INFERRED, NULL, NULL, "no result for this output");
        } else {
            cli_onnx_inferred_shape_json(&s->shape, v, inferred_symbol, s);
            ok = cli_descriptor_from_inferred(v, &s->onnx, s->d, &facts, &e);
        }
        if (!ok &&
            cli_onnx_error_verdict(e.id) == ONNX_UNKNOWN) /* which earlier value it waits on */
            cli_first_unknown_depends(&s->session.model, s->session.infer, &s->onnx, s->d, graph,
                                      node, cli_scan_first_unknown(s), e.message, sizeof e.message);
        const enum onnx_step step = emit_record(s, &r, ok, &facts, &e);
        if (step != ONNX_STEP_GO)
            return step;
    }
    return ONNX_STEP_GO;
}

/* What a pass over the model's bytes may let go (the session's release). */
void cli_scan_release_map(void *ctx, size_t upto)
{
    struct scan *s = ctx;
    cli_plat_map_release(s->map, upto);
}

/* --shape against the model, before any record: a conflict is the file's
 * error (exit status 2 for one file). */
struct shape_pass {
    struct scan *s;
    struct cli_error *e;
    bool conflict;
};

static enum onnx_step check_shape(void *ctx, const struct onnx_tensor *t)
{
    struct shape_pass *p = ctx;
    if (cli_onnx_shape_check(t, &p->s->onnx, p->e))
        return ONNX_STEP_GO;
    p->conflict = true;
    return ONNX_STEP_FAIL; /* p->e says why */
}

static void reset_totals(struct model_totals *m)
{
    m->tensors = m->failed = m->broken = m->external = 0;
    m->unknown = m->empty = m->not_tensors = m->weights_unsized = 0;
    m->io_inputs = m->io_outputs = 0;
    m->io_complete = true;
    memset(m->kinds, 0, sizeof m->kinds);
    m->initializer_bytes = m->io_bytes = m->largest_bytes = dmlt_u128_from_u64(0);
    m->weight_bytes = m->folded_bytes = dmlt_u128_from_u64(0);
    m->folded = 0;
    m->has_largest = false;
    memset(m->unbound, 0, sizeof *m->unbound);
    cli_ob_reset(&m->unbound_list);
    cli_ob_reset(&m->largest);
    cli_ob_reset(&m->broken_paths);
    cli_ob_reset(&m->failed_paths);
}

bool cli_scan_onnx(struct scan *s, struct cli_error *e)
{
    bool oom = false;
    if (s->onnx.n_shapes) {
        struct shape_pass pass = {s, e, false};
        if (!onnx_session_each(&s->session, check_shape, NULL, &pass, &oom))
            return pass.conflict ? false /* e says which */
                                 : cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    s->onnx_files++;
    struct model_totals *m = &s->model;
    reset_totals(m);
    if (!s->cfg->no_infer && !cli_model_session_infer(&s->session, &s->onnx, e))
        return false;
    const struct dmlt_ep_options ep_opts = {s->dml_level, NULL};
    if (s->session.infer && !s->text && /* the table has no placement column */
        !dmlt_ep_run(&s->session.model, s->session.infer, &ep_opts, &s->ep))
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    s->first_searched = false; /* searched when a record of unknown size needs it */
    if (s->text) {             /* the names measured first: the table's width */
        s->name_width = 0;
        if (!onnx_session_each(&s->session, measure_tensor, measure_node, s, &oom))
            return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        put_text_header(s);
    }
    /* The session's records again (the bytes were checked): it fails
     * only when a record could not be kept or written (the sink's s->e)
     * or memory ran out. */
    const bool walked = onnx_session_each(&s->session, scan_onnx_tensor, scan_onnx_node, s, &oom);
    if (!walked) {
        if (s->failed)
            *e = *s->e;
        else
            cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    } else {
        s->unknown += m->unknown;
        if (s->text)
            cli_scan_put_text_totals(s);
        else
            cli_scan_put_onnx_summary(s);
    }
    dmlt_ep_free(&s->ep);
    return walked && cli_scan_drain_if_full(s);
}

bool cli_scan_onnx_init(struct scan *s)
{
    struct model_totals *m = &s->model;
    m->unbound = malloc(sizeof *m->unbound);
    cli_ob_init(&m->unbound_list);
    cli_ob_init(&m->largest);
    cli_ob_init(&m->broken_paths);
    cli_ob_init(&m->failed_paths);
    return m->unbound != NULL;
}

void cli_scan_onnx_free(struct scan *s)
{
    struct model_totals *m = &s->model;
    free(m->unbound);
    m->unbound = NULL;
    cli_ob_free(&m->unbound_list);
    cli_ob_free(&m->largest);
    cli_ob_free(&m->broken_paths);
    cli_ob_free(&m->failed_paths);
}
