/* scan_out.c - what scan's parts write through (scan.h): the "file" key
 * of a record when several files are scanned, draining the output, and
 * the name of a value's kind. */
#include "scan.h"

#include "parse.h"

#include <stdlib.h>
#include <string.h>

void cli_scan_put_file_key(struct scan *s, size_t start)
{
    if (!s->multi || s->out->failed || s->out->len <= start)
        return;
    cli_ob_reset(&s->scratch);
    ob_puts(&s->scratch, "\"file\":");
    cli_ob_json_str(&s->scratch, s->file);
    ob_putc(&s->scratch, ',');
    if (s->scratch.failed)
        return;
    const size_t n = s->scratch.len;
    if (cli_ob_space(s->out, n) == NULL)
        return;
    char *at = s->out->data + start + 1; /* after the record's { */
    memmove(at + n, at, s->out->len - start - 1);
    memcpy(at, s->scratch.data, n);
    s->out->len += n;
}

bool cli_scan_drain_if_full(struct scan *s)
{
    if (s->out->len >= BATCH_CHUNK && !cli_drain(s->out, s->e))
        s->failed = true;
    return !s->failed;
}

const char *cli_scan_kind_name(unsigned k)
{
    if (k == SCAN_ACTIVATION)
        return "activation";
    return k == SCAN_FOLDED ? "folded" : onnx_kind_name((enum onnx_kind)k);
}

bool cli_scan_top_init(struct scan *s, struct cli_error *e)
{
    memset(&s->top, 0, sizeof s->top);
    const char *text = s->cfg->top;
    if (text == NULL)
        return true;
    return cli_parse_uint(text, strlen(text), 1, UINT64_MAX, &s->top.n, e, "--top", text, NULL,
                          "counts");
}

void cli_scan_top_free(struct scan *s)
{
    for (size_t i = 0; i < s->top.count; i++)
        free(s->top.heap[i].data);
    free(s->top.heap);
    memset(&s->top, 0, sizeof s->top);
}

/* a ranks below b: smaller, or as large and later. */
static bool top_below(const struct scan_top_entry *a, const struct scan_top_entry *b)
{
    if (a->known != b->known)
        return !a->known;
    const int c = dmlt_u128_cmp(a->bytes, b->bytes);
    return c != 0 ? c < 0 : a->seq > b->seq;
}

static void top_sift_down(struct scan_top_entry *h, size_t n, size_t i)
{
    for (;;) {
        size_t m = i;
        const size_t l = 2 * i + 1, r = l + 1;
        if (l < n && top_below(&h[l], &h[m]))
            m = l;
        if (r < n && top_below(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        const struct scan_top_entry t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* --top: takes the record written to s->out from start out of it and
 * keeps it if it is among the N largest (bytes NULL: unknown); false when
 * memory ran out. Without --top it leaves it. */
static bool scan_top_keep(struct scan *s, size_t start, const dmlt_u128 *bytes)
{
    struct scan_top *t = &s->top;
    if (t->n == 0 || s->out->failed || s->out->len < start)
        return true;
    struct scan_top_entry e = {bytes ? *bytes : dmlt_u128_from_u64(0), bytes != NULL, t->seq++,
                               NULL, s->out->len - start};
    const bool full = t->count == t->n;
    if (full && !top_below(&t->heap[0], &e)) {
        s->out->len = start; /* not among the largest */
        return true;
    }
    e.data = malloc(e.len ? e.len : 1);
    if (e.data == NULL)
        return false;
    memcpy(e.data, s->out->data + start, e.len);
    s->out->len = start;
    if (full) {
        free(t->heap[0].data);
        t->heap[0] = e;
        top_sift_down(t->heap, t->count, 0);
        return true;
    }
    if (t->count == t->cap) {
        const size_t cap = t->cap ? 2 * t->cap : 64;
        struct scan_top_entry *h = realloc(t->heap, cap * sizeof *h);
        if (h == NULL) {
            free(e.data);
            return false;
        }
        t->heap = h;
        t->cap = cap;
    }
    size_t i = t->count++; /* sift up */
    while (i > 0 && top_below(&e, &t->heap[(i - 1) / 2])) {
        t->heap[i] = t->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    t->heap[i] = e;
    return true;
}

void cli_scan_top_flush(struct scan *s)
{
    struct scan_top *t = &s->top;
    /* heap sort: the smallest goes to the end each time, so the array ends
     * largest first */
    for (size_t n = t->count; n > 1; n--) {
        const struct scan_top_entry last = t->heap[n - 1];
        t->heap[n - 1] = t->heap[0];
        t->heap[0] = last;
        top_sift_down(t->heap, n - 1, 0);
    }
    for (size_t i = 0; i < t->count; i++) {
        ob_write(s->out, t->heap[i].data, t->heap[i].len);
        free(t->heap[i].data);
    }
    t->count = 0;
    t->seq = 0;
}

/* ---- the sink: every record of scan goes out here ---------------------------- */

enum onnx_step cli_scan_sink(struct scan *s, const struct scan_record *r)
{
    if (r->file_error) /* names its file; counted apart (run_scan's "N of M files") */
        return cli_scan_drain_if_full(s) ? ONNX_STEP_GO : ONNX_STEP_FAIL;
    /* Counted first, whatever a filter does with it after: the tally
     * (stderr's summary, the exit status) and the model's summary. */
    s->t.records++;
    if (r->failure)
        cli_results_note_failure(&s->t, 0, r->failure);
    s->t.broken += r->broken;
    if (r->model) {
        struct model_totals *m = &s->model;
        m->tensors++;
        m->kinds[r->kind]++;
        m->folded += r->kind == SCAN_FOLDED;
        m->failed += r->failure != NULL;
        m->broken += r->broken;
    }
    if (s->multi && !s->text)
        cli_scan_put_file_key(s, r->start);
    if (r->model && s->top.n && !scan_top_keep(s, r->start, r->bytes)) {
        s->failed = true;
        cli_fail(s->e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        return ONNX_STEP_FAIL;
    }
    return cli_scan_drain_if_full(s) ? ONNX_STEP_GO : ONNX_STEP_FAIL;
}

enum onnx_step cli_scan_sink_file_error(struct scan *s, const struct cli_error *fe)
{
    struct outbuf *out = s->out;
    const struct scan_record r = {.start = out->len, .file_error = true};
    if (s->text) {
        if (s->text_started)
            ob_putc(out, '\n');
        s->text_started = true;
        cli_ob_quoted_text(out, s->file, SIZE_MAX);
        ob_puts(out, ": not scanned: error: ");
        ob_puts(out, fe->id);
        ob_putc(out, '\n');
    } else {
        ob_puts(out, "{\"file\":");
        cli_ob_json_str(out, s->file);
        ob_putc(out, ',');
        cli_render_error_member(out, fe);
        ob_puts(out, "}\n");
    }
    return cli_scan_sink(s, &r);
}
