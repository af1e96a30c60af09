/* scan_model.c - an ONNX model's facts for scan's summary (scan_model.h). */
#include "scan_model.h"

#include <stdlib.h>
#include <string.h>

/* The operators of every graph, counted by op_type ("domain.op_type"
 * outside the default domain), in the order first met. */
struct op_count {
    struct onnx_bytes domain, op_type;
    uint64_t count;
};

struct op_table {
    struct op_count *ops; /* first met first */
    size_t n;
    size_t *slot; /* open addressing: index + 1 into ops, 0 empty */
    size_t mask;
};

static void count_op(struct op_table *t, const struct onnx_node *node)
{
    struct onnx_bytes domain =
        onnx_default_domain(node->domain) ? (struct onnx_bytes){NULL, 0} : node->domain;
    size_t i = onnx_hash_slot(onnx_hash_more(onnx_hash(domain), node->op_type), t->mask);
    for (; t->slot[i]; i = (i + 1) & t->mask) {
        struct op_count *c = &t->ops[t->slot[i] - 1];
        if (onnx_bytes_eq(c->domain, domain) && onnx_bytes_eq(c->op_type, node->op_type)) {
            c->count++;
            return;
        }
    }
    t->ops[t->n] = (struct op_count){domain, node->op_type, 1};
    t->slot[i] = ++t->n;
}

/* The opset imports, one per domain (a domain imported twice: the last
 * version, as a JSON object keeps one key); count is the version. */
static bool count_opsets(const struct onnx_model *m, struct op_table *t)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)m->n_opsets)
        cap *= 2;
    t->ops = malloc((m->n_opsets ? m->n_opsets : 1) * sizeof t->ops[0]);
    t->slot = calloc(cap, sizeof t->slot[0]);
    t->mask = cap - 1;
    t->n = 0;
    if (t->ops == NULL || t->slot == NULL) {
        free(t->ops);
        free(t->slot);
        return false;
    }
    for (uint32_t k = 0; k < m->n_opsets; k++) {
        const struct onnx_bytes domain = m->opsets[k].domain;
        size_t i = onnx_hash_slot(onnx_hash(domain), t->mask);
        while (t->slot[i] && !onnx_bytes_eq(t->ops[t->slot[i] - 1].op_type, domain))
            i = (i + 1) & t->mask;
        if (t->slot[i] == 0) {
            t->ops[t->n] = (struct op_count){{NULL, 0}, domain, 0};
            t->slot[i] = ++t->n;
        }
        t->ops[t->slot[i] - 1].count = (uint64_t)m->opsets[k].version; /* shown as int64 */
    }
    return true;
}

/* The table of m's operators; false when memory ran out. */
static bool count_ops(const struct onnx_model *m, struct op_table *t)
{
    size_t nodes = 0;
    for (uint32_t g = 0; g < m->n_graphs; g++)
        nodes += m->graphs[g].n_nodes;
    size_t cap = 16;
    while (cap < 2 * nodes)
        cap *= 2;
    t->ops = malloc((nodes ? nodes : 1) * sizeof t->ops[0]);
    t->slot = calloc(cap, sizeof t->slot[0]);
    t->mask = cap - 1;
    t->n = 0;
    if (t->ops == NULL || t->slot == NULL) {
        free(t->ops);
        free(t->slot);
        return false;
    }
    for (uint32_t g = 0; g < m->n_graphs; g++)
        for (uint32_t k = 0; k < m->graphs[g].n_nodes; k++)
            count_op(t, &m->graphs[g].nodes[k]);
    return true;
}

/* Text from the model, NUL-terminated (a NUL inside shown as '?'). */
/* Bytes of the model into b, a NUL among them shown as '?'. */
static void put_model_bytes(struct outbuf *b, struct onnx_bytes s)
{
    const size_t from = b->len;
    if (s.n)
        ob_write(b, (const char *)s.p, s.n);
    for (size_t i = from; !b->failed && i < b->len; i++)
        if (b->data[i] == '\0')
            b->data[i] = '?';
}

static const char *text_of(struct outbuf *b, struct onnx_bytes s)
{
    cli_ob_reset(b);
    put_model_bytes(b, s);
    ob_putc(b, '\0');
    return b->failed ? "" : b->data;
}

static void op_name(struct outbuf *b, const struct op_count *c)
{
    cli_ob_reset(b);
    put_model_bytes(b, c->domain);
    if (c->domain.n)
        ob_putc(b, '.');
    put_model_bytes(b, c->op_type);
    ob_putc(b, '\0');
}

static void put_i64(struct outbuf *out, int64_t v)
{
    if (v < 0) {
        ob_putc(out, '-');
        ob_u64(out, 0 - (uint64_t)v);
    } else {
        ob_u64(out, (uint64_t)v);
    }
}

bool cli_scan_model_json(struct outbuf *out, const struct onnx_model *m)
{
    struct op_table ops, opsets;
    if (!count_ops(m, &ops))
        return false;
    if (!count_opsets(m, &opsets)) {
        free(ops.ops);
        free(ops.slot);
        return false;
    }
    struct outbuf scratch;
    cli_ob_init(&scratch);
    ob_puts(out, ",\"model\":{\"ir_version\":");
    put_i64(out, m->ir_version);
    ob_puts(out, ",\"producer_name\":");
    cli_ob_json_str(out, text_of(&scratch, m->producer_name));
    ob_puts(out, ",\"producer_version\":");
    cli_ob_json_str(out, text_of(&scratch, m->producer_version));
    ob_puts(out, ",\"opset_import\":{");
    for (size_t i = 0; i < opsets.n && i < SCAN_MODEL_LIST_MAX; i++) {
        if (i)
            ob_putc(out, ',');
        cli_ob_json_str(out, text_of(&scratch, opsets.ops[i].op_type));
        ob_putc(out, ':');
        put_i64(out, (int64_t)opsets.ops[i].count);
    }
    ob_puts(out, "},\"opset_import_more\":");
    ob_u64(out, opsets.n > SCAN_MODEL_LIST_MAX ? opsets.n - SCAN_MODEL_LIST_MAX : 0);
    ob_puts(out, ",\"operators\":{");
    for (size_t i = 0; i < ops.n && i < SCAN_MODEL_LIST_MAX; i++) {
        if (i)
            ob_putc(out, ',');
        op_name(&scratch, &ops.ops[i]);
        cli_ob_json_str(out, scratch.failed ? "" : scratch.data);
        ob_putc(out, ':');
        ob_u64(out, ops.ops[i].count);
    }
    ob_puts(out, "},\"operators_more\":");
    ob_u64(out, ops.n > SCAN_MODEL_LIST_MAX ? ops.n - SCAN_MODEL_LIST_MAX : 0);
    ob_putc(out, '}');
    cli_ob_free(&scratch);
    free(ops.ops);
    free(ops.slot);
    free(opsets.ops);
    free(opsets.slot);
    return true;
}

static void label(struct outbuf *out, const char *text)
{
    const size_t line = out->len;
    ob_puts(out, text);
    cli_ob_pad_to(out, line, 19);
}

bool cli_scan_model_text(struct outbuf *out, const struct onnx_model *m)
{
    struct op_table ops;
    if (!count_ops(m, &ops))
        return false;
    struct outbuf scratch;
    cli_ob_init(&scratch);
    label(out, "model");
    ob_puts(out, "IR ");
    put_i64(out, m->ir_version);
    if (m->producer_name.n) {
        ob_puts(out, ", ");
        cli_ob_quoted_text(out, text_of(&scratch, m->producer_name), 60);
        if (m->producer_version.n) {
            ob_putc(out, ' ');
            cli_ob_quoted_text(out, text_of(&scratch, m->producer_version), 30);
        }
    }
    for (uint32_t i = 0; i < m->n_opsets && i < SCAN_MODEL_LIST_MAX; i++) {
        ob_puts(out, i ? ", " : "; opset ");
        if (!onnx_default_domain(m->opsets[i].domain)) {
            cli_ob_quoted_text(out, text_of(&scratch, m->opsets[i].domain), 60);
            ob_putc(out, ' ');
        }
        put_i64(out, m->opsets[i].version);
    }
    ob_putc(out, '\n');
    label(out, "operators");
    ob_u64(out, ops.n);
    for (size_t i = 0; i < ops.n && i < SCAN_MODEL_LIST_MAX; i++) {
        ob_puts(out, i ? ", " : ": ");
        op_name(&scratch, &ops.ops[i]);
        cli_ob_quoted_text(out, scratch.failed ? "" : scratch.data, 60);
        ob_putc(out, ' ');
        ob_u64(out, ops.ops[i].count);
    }
    if (ops.n > SCAN_MODEL_LIST_MAX) {
        ob_puts(out, ", and ");
        ob_u64(out, ops.n - SCAN_MODEL_LIST_MAX);
        ob_puts(out, " more");
    }
    ob_putc(out, '\n');
    cli_ob_free(&scratch);
    free(ops.ops);
    free(ops.slot);
    return true;
}
