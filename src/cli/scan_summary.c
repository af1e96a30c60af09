/* scan_summary.c - an ONNX model's totals after its records (scan.h):
 * the {"summary":{...}} record, or --format text's totals. */
#include "scan.h"
#include "scan_model.h"
#include "scan_text.h"

#include <stdio.h>
#include <string.h>

const struct first_unknown *cli_scan_first_unknown(struct scan *s)
{
    if (!s->first_searched) {
        cli_first_unknown_find(&s->session.model, s->session.infer, &s->onnx, s->d, &s->first);
        s->first_searched = true;
    }
    return &s->first;
}

void cli_scan_first_unknown_input(struct scan *s, const char *path, struct onnx_bytes name)
{
    struct first_unknown *f = &s->first;
    if (f->found && f->is_input && !*f->path && onnx_bytes_is(name, f->name))
        snprintf(f->path, sizeof f->path, "%s", path);
}

/* The first unknown of the model, when it has any: its path (an input
 * whose record was not seen: its name). */
static const struct first_unknown *first_unknown_of(struct scan *s)
{
    if (s->model.unknown == 0)
        return NULL;
    const struct first_unknown *f = cli_scan_first_unknown(s);
    if (!f->found)
        return NULL;
    if (!s->first_note[0])
        snprintf(s->first_note, sizeof s->first_note, "%.380s%s%.100s%s: %.100s",
                 *f->path ? f->path : f->name, *f->op ? " (" : "", f->op, *f->op ? ")" : "",
                 f->reason);
    return f;
}

/* A totals line of --format text: its label, padded. */
static void text_label(struct outbuf *out, const char *label)
{
    const size_t line = out->len;
    ob_puts(out, label);
    cli_ob_pad_to(out, line, 19);
}

/* A list of text's totals: count, then the first few and how many more. */
static void put_text_list(struct outbuf *out, uint64_t count, const struct outbuf *list,
                          uint64_t shown)
{
    ob_u64(out, count);
    if (count == 0) {
        ob_putc(out, '\n');
        return;
    }
    ob_puts(out, ": ");
    ob_write(out, list->data, list->len);
    if (count > shown) {
        ob_puts(out, ", and ");
        ob_u64(out, count - shown);
        ob_puts(out, " more");
    }
    ob_putc(out, '\n');
}

/* --format text: the model's totals, after its rows. */
void cli_scan_put_text_totals(struct scan *s)
{
    const struct model_totals *m = &s->model;
    struct outbuf *out = s->out;
    cli_scan_top_flush(s);
    ob_putc(out, '\n');
    if (!cli_scan_model_text(out, &s->session.model))
        cli_ob_oom_note(); /* its tables could not be made: the command fails */
    text_label(out, "tensors");
    ob_u64(out, m->tensors);
    bool first = true;
    for (unsigned k = 0; k < SCAN_KINDS; k++) {
        if (m->kinds[k] == 0)
            continue;
        ob_puts(out, first ? " (" : ", ");
        first = false;
        ob_u64(out, m->kinds[k]);
        ob_putc(out, ' ');
        ob_puts(out, cli_scan_kind_name(k));
    }
    ob_puts(out, first ? "\n" : ")\n");
    text_label(out, "initializer bytes");
    cli_ob_bytes(out, m->initializer_bytes);
    if (m->external) {
        ob_puts(out, "; ");
        ob_u64(out, m->external);
        ob_puts(out, " external (not read)");
    }
    ob_putc(out, '\n');
    text_label(out, "weight bytes");
    cli_ob_bytes(out, m->weight_bytes);
    if (m->weights_unsized) {
        ob_puts(out, "; ");
        ob_u64(out, m->weights_unsized);
        ob_puts(out, " more without a DirectML size");
    }
    ob_putc(out, '\n');
    if (m->folded) { /* SPEC section 11 */
        text_label(out, "folded");
        ob_u64(out, m->folded);
        ob_puts(out, m->folded == 1 ? " value, " : " values, ");
        cli_ob_bytes(out, m->folded_bytes);
        ob_puts(out, " (computed when a session is made)\n");
    }
    if (s->session.infer && onnx_infer_sorted(s->session.infer)) {
        text_label(out, "order");
        ob_puts(out, "sorted: the file's node order is not topological\n");
    }
    text_label(out, "I/O bytes");
    cli_ob_bytes(out, m->io_bytes);
    for (unsigned k = 0; k < s->onnx.n_dims; k++) {
        ob_puts(out, k ? " " : " at ");
        ob_puts(out, "--dim ");
        cli_ob_quoted_text(out, s->cfg->dims[k], SIZE_MAX);
    }
    ob_puts(out, " (");
    ob_u64(out, m->io_inputs);
    ob_puts(out, m->io_inputs == 1 ? " input, " : " inputs, ");
    ob_u64(out, m->io_outputs);
    ob_puts(out, m->io_outputs == 1 ? " output" : " outputs");
    ob_puts(out, m->io_complete ? ")\n" : "; incomplete: some sizes are unknown)\n");
    text_label(out, "largest");
    if (m->has_largest) {
        ob_write(out, m->largest.data, m->largest.len);
        ob_puts(out, ": ");
        cli_ob_bytes(out, m->largest_bytes);
        ob_putc(out, '\n');
    } else {
        ob_puts(out, "-\n");
    }
    if (m->unbound->distinct) {
        text_label(out, "unbound");
        put_text_list(out, m->unbound->distinct, &m->unbound_list, UNBOUND_LIST_MAX);
    }
    if (m->unknown) {
        text_label(out, "unknown");
        ob_u64(out, m->unknown);
        ob_puts(out,
                s->cfg->strict ? " (failed: --strict)\n" : " (not failed; --strict fails them)\n");
    }
    const struct first_unknown *f = first_unknown_of(s);
    if (f) {
        const size_t line = out->len; /* within 100 columns: the JSON has it whole */
        text_label(out, "first unknown");
        cli_text_cut_middle(out, &s->text_tmp, *f->path ? f->path : f->name, 44);
        ob_puts(out, ": ");
        const size_t used = cli_ob_columns(out, line);
        cli_ob_quoted_text(out, f->reason, used < 90 ? 100 - 3 - used : 10);
        ob_putc(out, '\n');
    }
    if (m->empty || m->not_tensors) {
        text_label(out, "not DirectML's");
        ob_u64(out, m->empty);
        ob_puts(out, " empty (a 0 dim), ");
        ob_u64(out, m->not_tensors);
        ob_puts(out, " not tensors\n");
    }
    text_label(out, "broken");
    put_text_list(out, m->broken, &m->broken_paths, TEXT_LIST_MAX);
    text_label(out, "failed");
    put_text_list(out, m->failed, &m->failed_paths, TEXT_LIST_MAX);
}

/* ,"KEY":[the first JSON_LIST_MAX],"KEY_more":the rest of count */
static void put_json_list(struct outbuf *out, const char *key, uint64_t count,
                          const struct outbuf *list)
{
    ob_puts(out, ",\"");
    ob_puts(out, key);
    ob_puts(out, "\":[");
    if (list->len) /* an empty outbuf's data is NULL */
        ob_write(out, list->data, list->len);
    ob_puts(out, "],\"");
    ob_puts(out, key);
    ob_puts(out, "_more\":");
    ob_u64(out, count > JSON_LIST_MAX ? count - JSON_LIST_MAX : 0);
}

/* {"summary":{...}}: the model's totals, after its records. */
void cli_scan_put_onnx_summary(struct scan *s)
{
    const struct model_totals *m = &s->model;
    struct outbuf *out = s->out;
    cli_scan_top_flush(s);
    ob_puts(out, "{\"summary\":{");
    if (s->multi) {
        ob_puts(out, "\"file\":");
        cli_ob_json_str(out, s->file);
        ob_putc(out, ',');
    }
    ob_puts(out, "\"tensors\":");
    ob_u64(out, m->tensors);
    ob_puts(out, ",\"kinds\":{");
    for (unsigned k = 0; k < SCAN_KINDS; k++) {
        if (k)
            ob_putc(out, ',');
        cli_ob_json_str(out, cli_scan_kind_name(k));
        ob_putc(out, ':');
        ob_u64(out, m->kinds[k]);
    }
    ob_puts(out, "},\"initializer_bytes\":");
    ob_u128(out, m->initializer_bytes);
    ob_puts(out, ",\"external_initializers\":");
    ob_u64(out, m->external);
    ob_puts(out, ",\"io_bytes\":");
    ob_u128(out, m->io_bytes);
    ob_puts(out, ",\"io\":{\"inputs\":");
    ob_u64(out, m->io_inputs);
    ob_puts(out, ",\"outputs\":");
    ob_u64(out, m->io_outputs);
    ob_puts(out, ",\"bytes\":");
    ob_u128(out, m->io_bytes);
    ob_puts(out, ",\"complete\":");
    ob_puts(out, m->io_complete ? "true" : "false");
    ob_puts(out, "},\"weight_bytes\":");
    ob_u128(out, m->weight_bytes);
    ob_puts(out, ",\"weights_unsized\":");
    ob_u64(out, m->weights_unsized);
    ob_puts(out, ",\"folded\":{\"values\":"); /* SPEC section 11 */
    ob_u64(out, m->folded);
    ob_puts(out, ",\"bytes\":");
    ob_u128(out, m->folded_bytes);
    ob_puts(out, "},\"sorted\":");
    ob_puts(out, s->session.infer && onnx_infer_sorted(s->session.infer) ? "true" : "false");
    ob_puts(out, ",\"unknown\":");
    ob_u64(out, m->unknown);
    ob_puts(out, ",\"empty\":");
    ob_u64(out, m->empty);
    ob_puts(out, ",\"not_tensors\":");
    ob_u64(out, m->not_tensors);
    ob_puts(out, ",\"unbound\":[");
    if (m->unbound_list.len)
        ob_write(out, m->unbound_list.data, m->unbound_list.len);
    ob_puts(out, "],\"unbound_more\":");
    const uint64_t listed =
        m->unbound->distinct < UNBOUND_LIST_MAX ? m->unbound->distinct : UNBOUND_LIST_MAX;
    ob_u64(out, m->unbound->distinct - listed);
    if (m->unbound->overflow)
        ob_puts(out, ",\"unbound_more_at_least\":true");
    const struct first_unknown *f = first_unknown_of(s);
    ob_puts(out, ",\"first_unknown\":");
    if (f) {
        ob_puts(out, "{\"path\":");
        cli_ob_json_str(out, *f->path ? f->path : f->name);
        ob_puts(out, ",\"op\":");
        if (*f->op)
            cli_ob_json_str(out, f->op);
        else
            ob_puts(out, "null");
        ob_puts(out, ",\"reason\":");
        cli_ob_json_str(out, f->reason);
        ob_putc(out, '}');
    } else {
        ob_puts(out, "null");
    }
    ob_puts(out, ",\"largest\":");
    if (m->has_largest)
        ob_write(out, m->largest.data, m->largest.len);
    else
        ob_puts(out, "null");
    ob_puts(out, ",\"broken\":");
    ob_u64(out, m->broken);
    put_json_list(out, "broken_paths", m->broken, &m->broken_paths);
    ob_puts(out, ",\"failed\":");
    ob_u64(out, m->failed);
    put_json_list(out, "failed_paths", m->failed, &m->failed_paths);
    if (!cli_scan_model_json(out, &s->session.model))
        cli_ob_oom_note(); /* its tables could not be made: the command fails */
    ob_puts(out, "}}\n");
}
