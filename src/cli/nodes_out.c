/* nodes_out.c - `nodes`' records and summary (nodes_out.h). */
#include "nodes_out.h"
#include "platform.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST_MAX   100  /* entries of a summary map, lines of a text section */
#define PATH_MAX_  2048 /* bytes of a node's path */
#define EP_NAME(b) (int)((b).n < 120 ? (b).n : 120), (const char *)(b).p

/* An op and how many nodes of it (cpu_ops, failing_ops). */
struct op_count {
    struct onnx_bytes domain, op;
    size_t n;
};

struct op_counts {
    struct op_count *at;
    size_t n, cap;
    size_t more; /* nodes of ops past LIST_MAX distinct ones */
    bool oom;
};

struct render {
    struct cli_config *cfg;
    const struct dmlt_ep_result *r;
    struct outbuf *out; /* written out as it grows past BATCH_CHUNK */
    struct cli_error *e;
    bool written_badly;     /* a write failed: e says so */
    struct outbuf tmp;      /* a model text, NUL-terminated */
    struct outbuf lines[3]; /* text: failures, CPU fallbacks, unknowns */
    size_t listed[3], total[3];
    struct op_counts cpu_ops, failing_ops;
    char first_failure_path[PATH_MAX_];
    const struct dmlt_ep_node *first_failure;
    char first_unknown_path[PATH_MAX_];
    const struct dmlt_ep_node *first_unknown;
};

/* Model text as a NUL-terminated string (in rd->tmp, until the next call). */
static const char *text_of(struct render *rd, struct onnx_bytes t)
{
    cli_ob_reset(&rd->tmp);
    if (t.n)
        ob_write(&rd->tmp, (const char *)t.p, t.n);
    ob_putc(&rd->tmp, '\0');
    return rd->tmp.failed ? "" : rd->tmp.data;
}

/* "Conv", or "com.microsoft.FusedMatMul" outside the default domain. */
static void put_op(struct outbuf *b, const struct onnx_node *node)
{
    if (!onnx_default_domain(node->domain)) {
        ob_write(b, (const char *)node->domain.p, node->domain.n);
        ob_putc(b, '.');
    }
    ob_write(b, (const char *)node->op_type.p, node->op_type.n);
}

static void count_op(struct op_counts *c, const struct onnx_node *node)
{
    for (size_t i = 0; i < c->n; i++)
        if (onnx_bytes_eq(c->at[i].op, node->op_type) &&
            onnx_bytes_eq(c->at[i].domain, node->domain)) {
            c->at[i].n++;
            return;
        }
    if (c->n == LIST_MAX) {
        c->more++;
        return;
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        struct op_count *p = realloc(c->at, cap * sizeof *p);
        if (p == NULL) {
            c->oom = true;
            return;
        }
        c->at = p, c->cap = cap;
    }
    c->at[c->n++] = (struct op_count){node->domain, node->op_type, 1};
}

static void no_symbol(void *ctx, const char *name, size_t len)
{
    (void)ctx, (void)name, (void)len;
}

/* One tensor of a node: {"name", "onnx_type", "dtype", "sizes" or "shape",
 * "dimension_count", "failed"}. */
static void put_tensor(struct render *rd, const struct dmlt_ep_node *n, bool output, uint32_t i,
                       struct onnx_bytes name, const struct onnx_infer_value *v)
{
    struct outbuf *b = rd->out;
    char tname[32];
    OB_LIT(b, "{\"name\":");
    cli_ob_json_str(b, text_of(rd, name));
    OB_LIT(b, ",\"onnx_type\":");
    const int32_t elem = v && !v->not_tensor && v->elem_type > 0 ? v->elem_type : 0;
    const bool typed = elem > 0;
    if (typed)
        cli_ob_json_str(b, dmlt_ep_onnx_type_name(elem, tname, sizeof tname));
    else
        ob_puts(b, "null");
    OB_LIT(b, ",\"dtype\":");
    const int dt = typed ? dmlt_ep_dml_dtype(elem) : -1;
    const struct dmlt_dtype_info *info = dt >= 0 ? dmlt_dtype_get((enum dmlt_dtype)dt) : NULL;
    if (info)
        cli_ob_json_str(b, info->name);
    else
        ob_puts(b, "null");
    int64_t elems;
    bool zero;
    if (v && dmlt_ep_value_dims(v, &elems, &zero, NULL, 0) == EP_DIMS_KNOWN) {
        OB_LIT(b, ",\"sizes\":");
    } else {
        OB_LIT(b, ",\"shape\":");
    }
    if (v)
        cli_onnx_inferred_shape_json(b, v, no_symbol, NULL);
    else
        ob_puts(b, "null");
    OB_LIT(b, ",\"dimension_count\":");
    if (v && !v->not_tensor && v->rank >= 0)
        ob_u64(b, dmlt_ep_dimension_count(v->rank));
    else
        ob_puts(b, "null");
    OB_LIT(b, ",\"failed\":[");
    bool first = true;
    for (uint32_t f = 0; f < n->n_failures; f++) {
        const struct dmlt_ep_failure *x = &rd->r->failures[n->first_failure + f];
        if (x->output != output || x->index != i)
            continue;
        if (!first)
            ob_putc(b, ',');
        first = false;
        cli_ob_json_str(b, dmlt_ep_reason_id((enum dmlt_ep_reason)x->rule));
    }
    OB_LIT(b, "]}");
}

static void put_tensors(struct render *rd, const struct dmlt_ep_node *n, bool output)
{
    const struct dmlt_ep_result *r = rd->r;
    const struct onnx_node *node = &r->model->graphs[n->graph].nodes[n->index];
    const uint32_t count = output ? node->n_outputs : node->n_inputs;
    ob_putc(rd->out, '[');
    bool first = true;
    for (uint32_t i = 0; i < count; i++) {
        const struct onnx_bytes name = output ? node->outputs[i] : node->inputs[i];
        if (name.n == 0)
            continue; /* an optional one left out */
        if (!first)
            ob_putc(rd->out, ',');
        first = false;
        const struct onnx_infer_value *v =
            output ? onnx_infer_output(r->inf, n->graph, n->index, i)
                   : onnx_infer_lookup(r->inf, n->graph, (const char *)name.p, name.n);
        put_tensor(rd, n, output, i, name, v);
    }
    ob_putc(rd->out, ']');
}

static void put_reasons(struct render *rd, const struct dmlt_ep_node *n, bool notes)
{
    struct outbuf *b = rd->out;
    ob_putc(b, '[');
    bool first = true;
    for (uint32_t k = 0; k < n->n_reasons; k++) {
        const struct dmlt_ep_reason_rec *x = &rd->r->reasons[n->first_reason + k];
        if ((x->id < 0) != notes)
            continue;
        if (!first)
            ob_putc(b, ',');
        first = false;
        if (notes) {
            cli_ob_json_str(b, rd->r->text + x->text);
            continue;
        }
        OB_LIT(b, "{\"id\":");
        cli_ob_json_str(b, dmlt_ep_reason_id((enum dmlt_ep_reason)x->id));
        OB_LIT(b, ",\"message\":");
        cli_ob_json_str(b, rd->r->text + x->text);
        ob_putc(b, '}');
    }
    ob_putc(b, ']');
}

static void put_dml_operators(struct render *rd, const struct dmlt_ep_node *n)
{
    struct outbuf *b = rd->out;
    unsigned count = 0;
    const struct dmlt_dml_mapping *m = NULL;
    if (n->placement == DMLT_PLACE_DML || n->placement == DMLT_PLACE_DML_KERNEL ||
        n->placement == DMLT_PLACE_FAILS)
        m = dmlt_ep_mapping(rd->r, n, &count);
    if (m == NULL) {
        ob_puts(b, "null");
        return;
    }
    ob_putc(b, '[');
    for (unsigned k = 0; k < count; k++) {
        if (k)
            ob_putc(b, ',');
        OB_LIT(b, "\"DML_OPERATOR_");
        ob_puts(b, m[k].dml_operator);
        ob_putc(b, '"');
    }
    ob_putc(b, ']');
}

static void put_record_json(struct render *rd, const struct dmlt_ep_node *n, const char *path)
{
    struct outbuf *b = rd->out;
    const struct onnx_node *node = &rd->r->model->graphs[n->graph].nodes[n->index];
    OB_LIT(b, "{\"path\":");
    cli_ob_json_str(b, path);
    OB_LIT(b, ",\"name\":");
    cli_ob_json_str(b, text_of(rd, node->name));
    OB_LIT(b, ",\"op\":\"");
    size_t at = b->len;
    put_op(b, node);
    /* the op again, escaped: a name from the model */
    char op[300];
    snprintf(op, sizeof op, "%.*s", (int)(b->len - at < 299 ? b->len - at : 299), b->data + at);
    b->len = at - 1;
    cli_ob_json_str(b, op);
    OB_LIT(b, ",\"since_version\":");
    if (n->since)
        ob_u64(b, n->since);
    else
        ob_puts(b, "null");
    OB_LIT(b, ",\"placement\":\"");
    ob_puts(b, dmlt_ep_placement_name(n->placement));
    OB_LIT(b, "\",\"reasons\":");
    put_reasons(rd, n, false);
    OB_LIT(b, ",\"notes\":");
    put_reasons(rd, n, true);
    OB_LIT(b, ",\"partition\":");
    if (n->partition >= 0)
        ob_u64(b, (uint64_t)n->partition);
    else
        ob_puts(b, "null");
    OB_LIT(b, ",\"dml_operators\":");
    put_dml_operators(rd, n);
    OB_LIT(b, ",\"inputs\":");
    put_tensors(rd, n, false);
    OB_LIT(b, ",\"outputs\":");
    put_tensors(rd, n, true);
    OB_LIT(b, "}\n");
}

static void csv_field(struct outbuf *b, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        ob_puts(b, s);
        return;
    }
    ob_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            ob_putc(b, '"');
        ob_putc(b, *s);
    }
    ob_putc(b, '"');
}

static void put_record_csv(struct render *rd, const struct dmlt_ep_node *n, const char *path)
{
    struct outbuf *b = rd->out;
    const struct onnx_node *node = &rd->r->model->graphs[n->graph].nodes[n->index];
    char op[300];
    csv_field(b, path);
    ob_putc(b, ',');
    csv_field(b, text_of(rd, node->name));
    ob_putc(b, ',');
    snprintf(op, sizeof op, "%s%s%.*s",
             onnx_default_domain(node->domain) ? "" : text_of(rd, node->domain),
             onnx_default_domain(node->domain) ? "" : ".",
             (int)(node->op_type.n < 200 ? node->op_type.n : 200), (const char *)node->op_type.p);
    csv_field(b, op);
    ob_putc(b, ',');
    if (n->since)
        ob_u64(b, n->since);
    ob_putc(b, ',');
    ob_puts(b, dmlt_ep_placement_name(n->placement));
    ob_putc(b, ',');
    if (n->partition >= 0)
        ob_u64(b, (uint64_t)n->partition);
    ob_putc(b, ',');
    bool first = true;
    for (uint32_t k = 0; k < n->n_reasons; k++) {
        const struct dmlt_ep_reason_rec *x = &rd->r->reasons[n->first_reason + k];
        if (x->id < 0)
            continue;
        if (!first)
            ob_putc(b, ';');
        first = false;
        ob_puts(b, dmlt_ep_reason_id((enum dmlt_ep_reason)x->id));
    }
    ob_putc(b, '\n');
}

/* A node's line in a text section: path, op, name, then its reasons. */
static void put_text_line(struct render *rd, struct outbuf *b, const struct dmlt_ep_node *n,
                          const char *path)
{
    const struct onnx_node *node = &rd->r->model->graphs[n->graph].nodes[n->index];
    OB_LIT(b, "  ");
    cli_ob_quoted_text(b, path, 200);
    OB_LIT(b, "  ");
    struct outbuf op;
    cli_ob_init(&op);
    put_op(&op, node);
    ob_putc(&op, '\0');
    cli_ob_quoted_text(b, op.failed ? "" : op.data, 80);
    cli_ob_free(&op);
    if (node->name.n) {
        OB_LIT(b, " \"");
        cli_ob_quoted_text(b, text_of(rd, node->name), 80);
        ob_putc(b, '"');
    }
    ob_putc(b, '\n');
    for (uint32_t k = 0; k < n->n_reasons; k++) {
        const struct dmlt_ep_reason_rec *x = &rd->r->reasons[n->first_reason + k];
        OB_LIT(b, "      ");
        ob_puts(b, x->id < 0 ? "note" : dmlt_ep_reason_id((enum dmlt_ep_reason)x->id));
        OB_LIT(b, ": ");
        cli_ob_quoted_text(b, rd->r->text + x->text, 600);
        ob_putc(b, '\n');
    }
}

/* What a node adds to the summary and to the text's sections. */
static void tally(struct render *rd, const struct dmlt_ep_node *n, const char *path)
{
    const struct onnx_node *node = &rd->r->model->graphs[n->graph].nodes[n->index];
    int section = -1;
    if (n->placement == DMLT_PLACE_FAILS) {
        count_op(&rd->failing_ops, node);
        section = 0;
        if (rd->first_failure == NULL) {
            rd->first_failure = n;
            snprintf(rd->first_failure_path, sizeof rd->first_failure_path, "%s", path);
        }
    } else if (n->placement == DMLT_PLACE_CPU) {
        count_op(&rd->cpu_ops, node);
        section = 1;
    } else if (n->placement == DMLT_PLACE_UNKNOWN) {
        section = 2;
        if (rd->first_unknown == NULL) {
            rd->first_unknown = n;
            snprintf(rd->first_unknown_path, sizeof rd->first_unknown_path, "%s", path);
        }
    }
    if (section < 0 || rd->cfg->format != FMT_TEXT)
        return;
    rd->total[section]++;
    if (rd->listed[section]++ < LIST_MAX)
        put_text_line(rd, &rd->lines[section], n, path);
}

/* Graph g's nodes and, right after each, its subgraphs', with their paths. */
static void walk_graph(struct render *rd, uint32_t g, char *path, size_t len)
{
    const struct onnx_graph *gr = &rd->r->model->graphs[g];
    for (uint32_t j = 0; j < gr->n_nodes && !rd->written_badly; j++) { /* in the order they run */
        if (rd->out->len >= BATCH_CHUNK && !cli_drain(rd->out, rd->e)) {
            rd->written_badly = true;
            return;
        }
        const uint32_t k = dmlt_ep_run_index(rd->r, g, j);
        const struct dmlt_ep_node *n = dmlt_ep_node_at(rd->r, g, k);
        const struct onnx_node *node = &gr->nodes[k];
        int w = snprintf(path + len, PATH_MAX_ - len, ".node[%lu]", (unsigned long)k);
        const size_t at = w < 0                          ? len
                          : len + (size_t)w >= PATH_MAX_ ? PATH_MAX_ - 1
                                                         : len + (size_t)w;
        if (rd->cfg->format == FMT_CSV)
            put_record_csv(rd, n, path);
        else if (rd->cfg->format != FMT_TEXT)
            put_record_json(rd, n, path);
        tally(rd, n, path);
        for (uint32_t a = 0; a < node->n_attrs; a++) {
            const struct onnx_attr *attr = &node->attrs[a];
            const uint32_t count = attr->g ? 1 : attr->n_graphs;
            for (uint32_t b = 0; b < count; b++) {
                const struct onnx_graph *sub = attr->g ? attr->g : attr->graphs[b];
                if (attr->g)
                    w = snprintf(path + at, PATH_MAX_ - at, " (%.*s).%.*s", EP_NAME(node->op_type),
                                 EP_NAME(attr->name));
                else
                    w = snprintf(path + at, PATH_MAX_ - at, " (%.*s).%.*s[%lu]",
                                 EP_NAME(node->op_type), EP_NAME(attr->name), (unsigned long)b);
                const size_t sub_len = w < 0                              ? at
                                       : at + (size_t)w >= PATH_MAX_ - 32 ? PATH_MAX_ - 32
                                                                          : at + (size_t)w;
                walk_graph(rd, sub->index, path, sub_len);
            }
        }
        path[len] = '\0';
    }
}

static void put_op_counts(struct render *rd, const char *key, const struct op_counts *c)
{
    struct outbuf *b = rd->out;
    ob_putc(b, '"');
    ob_puts(b, key);
    OB_LIT(b, "\":{");
    for (size_t i = 0; i < c->n; i++) {
        struct outbuf op;
        cli_ob_init(&op);
        if (!onnx_default_domain(c->at[i].domain)) {
            ob_write(&op, (const char *)c->at[i].domain.p, c->at[i].domain.n);
            ob_putc(&op, '.');
        }
        ob_write(&op, (const char *)c->at[i].op.p, c->at[i].op.n);
        ob_putc(&op, '\0');
        if (i)
            ob_putc(b, ',');
        cli_ob_json_str(b, op.failed ? "" : op.data);
        ob_putc(b, ':');
        ob_u64(b, c->at[i].n);
        cli_ob_free(&op);
    }
    OB_LIT(b, "},\"");
    ob_puts(b, key);
    OB_LIT(b, "_more\":");
    ob_u64(b, c->more);
}

static void put_level(struct outbuf *b, unsigned level)
{
    if (level == 0) {
        ob_puts(b, "null");
        return;
    }
    char s[16];
    snprintf(s, sizeof s, "%u_%u", DMLT_DML_LEVEL_MAJOR(level), DMLT_DML_LEVEL_MINOR(level));
    cli_ob_json_str(b, s);
}

/* The first node of a placement: {"path", "op", "reason"} or null. */
static void put_first(struct render *rd, const struct dmlt_ep_node *n, const char *path)
{
    struct outbuf *b = rd->out;
    if (n == NULL) {
        ob_puts(b, "null");
        return;
    }
    OB_LIT(b, "{\"path\":");
    cli_ob_json_str(b, path);
    OB_LIT(b, ",\"reason\":");
    const struct dmlt_ep_reason_rec *x = NULL;
    for (uint32_t k = 0; k < n->n_reasons && x == NULL; k++)
        if (rd->r->reasons[n->first_reason + k].id >= 0)
            x = &rd->r->reasons[n->first_reason + k];
    if (x == NULL) {
        ob_puts(b, "null}");
        return;
    }
    OB_LIT(b, "{\"id\":");
    cli_ob_json_str(b, dmlt_ep_reason_id((enum dmlt_ep_reason)x->id));
    OB_LIT(b, ",\"message\":");
    cli_ob_json_str(b, rd->r->text + x->text);
    OB_LIT(b, "}}");
}

static void put_summary_json(struct render *rd)
{
    const struct dmlt_ep_result *r = rd->r;
    struct outbuf *b = rd->out;
    OB_LIT(b, "{\"summary\":{\"nodes\":");
    ob_u64(b, r->n_nodes);
    OB_LIT(b, ",\"placements\":{");
    for (int p = 0; p < DMLT_PLACE_COUNT; p++) {
        if (p)
            ob_putc(b, ',');
        ob_putc(b, '"');
        ob_puts(b, dmlt_ep_placement_name((enum dmlt_placement)p));
        OB_LIT(b, "\":");
        ob_u64(b, r->placements[p]);
    }
    OB_LIT(b, "},\"partitions\":");
    ob_u64(b, r->partitions);
    OB_LIT(b, ",\"copies\":");
    ob_u64(b, r->copies);
    ob_putc(b, ',');
    put_op_counts(rd, "cpu_ops", &rd->cpu_ops);
    ob_putc(b, ',');
    put_op_counts(rd, "failing_ops", &rd->failing_ops);
    OB_LIT(b, ",\"first_failure\":");
    put_first(rd, rd->first_failure, rd->first_failure_path);
    OB_LIT(b, ",\"first_unknown\":");
    put_first(rd, rd->first_unknown, rd->first_unknown_path);
    OB_LIT(b, ",\"feature_level\":");
    put_level(b, r->feature_level);
    OB_LIT(b, ",\"sources\":{\"provider\":");
    cli_ob_json_str(b, dmlt_ep_source());
    OB_LIT(b, ",\"onnx\":");
    cli_ob_json_str(b, dmlt_ep_onnx_schema_revision);
    OB_LIT(b, ",\"directml\":");
    cli_ob_json_str(b, dmlt_dml_tables_source());
    OB_LIT(b, "}}}\n");
}

static void put_section(struct render *rd, int s, const char *title)
{
    struct outbuf *b = rd->out;
    if (rd->total[s] == 0)
        return;
    char line[200];
    snprintf(line, sizeof line, "%s (%zu):\n", title, rd->total[s]);
    ob_puts(b, line);
    ob_write(b, rd->lines[s].data, rd->lines[s].len);
    if (rd->total[s] > LIST_MAX) {
        snprintf(line, sizeof line, "  ... and %zu more (the JSON Lines output lists them all)\n",
                 rd->total[s] - LIST_MAX);
        ob_puts(b, line);
    }
    ob_putc(b, '\n');
}

static void put_text(struct render *rd)
{
    const struct dmlt_ep_result *r = rd->r;
    struct outbuf *b = rd->out;
    char line[400];
    put_section(rd, 0, "FAILS: session creation fails with E_INVALIDARG");
    put_section(rd, 1, "CPU fallbacks: the CPU provider runs them");
    snprintf(line, sizeof line, "copies: %zu value%s cross between the CPU and DirectML each run\n",
             r->copies, r->copies == 1 ? "" : "s");
    ob_puts(b, line);
    put_section(rd, 2, "unknown: what decides them is not known");
    if (rd->total[2] == 0)
        ob_putc(b, '\n');
    snprintf(line, sizeof line,
             "nodes: %zu\n  folded      %zu\n  dml         %zu (in %zu fused graph%s)\n"
             "  dml_kernel  %zu\n  cpu         %zu\n  fails       %zu\n  unknown     %zu\n",
             r->n_nodes, r->placements[DMLT_PLACE_FOLDED], r->placements[DMLT_PLACE_DML],
             r->partitions, r->partitions == 1 ? "" : "s", r->placements[DMLT_PLACE_DML_KERNEL],
             r->placements[DMLT_PLACE_CPU], r->placements[DMLT_PLACE_FAILS],
             r->placements[DMLT_PLACE_UNKNOWN]);
    ob_puts(b, line);
    OB_LIT(b, "feature level: ");
    if (r->feature_level)
        snprintf(line, sizeof line, "%u_%u", DMLT_DML_LEVEL_MAJOR(r->feature_level),
                 DMLT_DML_LEVEL_MINOR(r->feature_level));
    else
        snprintf(line, sizeof line, "none (DirectML's operator tables are empty)");
    ob_puts(b, line);
    snprintf(line, sizeof line, "\nsources: %s; %s; DirectML: %s\n", dmlt_ep_source(),
             dmlt_ep_onnx_schema_revision, dmlt_dml_tables_source());
    ob_puts(b, line);
}

bool cli_nodes_render(struct cli_config *cfg, const struct dmlt_ep_result *r, struct outbuf *out,
                      struct cli_error *e)
{
    struct render rd;
    memset(&rd, 0, sizeof rd);
    rd.cfg = cfg, rd.r = r, rd.out = out, rd.e = e;
    cli_ob_init(&rd.tmp);
    for (int s = 0; s < 3; s++)
        cli_ob_init(&rd.lines[s]);
    char *path = malloc(PATH_MAX_);
    bool ok = path != NULL;
    if (ok) {
        if (cfg->format == FMT_CSV)
            OB_LIT(out, "path,name,op,since_version,placement,partition,reasons\n");
        snprintf(path, PATH_MAX_, "graph");
        if (r->model->n_graphs)
            walk_graph(&rd, 0, path, strlen(path));
        if (rd.written_badly)
            ok = false;
        else if (cfg->format == FMT_TEXT)
            put_text(&rd);
        else if (cfg->format != FMT_CSV)
            put_summary_json(&rd);
    }
    ok = ok && !rd.cpu_ops.oom && !rd.failing_ops.oom && !out->failed && !rd.tmp.failed;
    for (int s = 0; s < 3; s++)
        ok = ok && !rd.lines[s].failed, cli_ob_free(&rd.lines[s]);
    cli_ob_free(&rd.tmp);
    free(rd.cpu_ops.at);
    free(rd.failing_ops.at);
    free(path);
    if (rd.written_badly)
        return false; /* e says why */
    return ok || cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
}
