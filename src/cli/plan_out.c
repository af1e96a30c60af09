/* plan_out.c - `plan` after its input is read: dmlt_plan() on the tensors,
 * then the records and summary of SPEC section 10 as JSON Lines, a table
 * (text) or a C table (c); the picture is plan_svg.c's. */
#include "plan_out.h"
#include "parse.h"
#include "platform.h"
#include "render_c.h"
#include "results.h"

#include <stdlib.h>
#include <string.h>

#define PLAN_DEFAULT_ALIGNMENT 256u
#define PLAN_MIN_ALIGNMENT     16u /* DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT */

static bool parse_alignment(const char *text, uint64_t *out, struct cli_error *e)
{
    if (text == NULL) {
        *out = PLAN_DEFAULT_ALIGNMENT;
        return true;
    }
    if (!parse_uint(text, strlen(text), 0, UINT64_MAX, out, e, "--alignment", text, NULL,
                    "alignments"))
        return false;
    if (*out < PLAN_MIN_ALIGNMENT || (*out & (*out - 1)) != 0) {
        cli_fail(e, CLI_E_BAD_ALIGNMENT, "--alignment", text,
                 "not a power of two of at least 16 bytes");
        cli_hint(e, "DirectML binds a buffer tensor at a multiple of 16 bytes; the default is 256");
        return false;
    }
    return true;
}

static void put_str_or_null(struct outbuf *b, const char *s)
{
    if (s)
        ob_json_str(b, s);
    else
        ob_puts(b, "null");
}

static bool render_jsonl(struct outbuf *b, const struct planned *t, const uint64_t *off, size_t n,
                         const struct plan_summary *s, struct cli_error *e)
{
    for (size_t i = 0; i < n; i++) {
        OB_LIT(b, "{\"name\":");
        ob_json_str(b, t[i].name);
        OB_LIT(b, ",\"path\":");
        put_str_or_null(b, t[i].path);
        OB_LIT(b, ",\"op\":");
        put_str_or_null(b, t[i].op);
        OB_LIT(b, ",\"dtype\":");
        put_str_or_null(b,
                        t[i].dtype >= 0 ? dmlt_dtype_get((enum dmlt_dtype)t[i].dtype)->name : NULL);
        OB_LIT(b, ",\"sizes\":");
        if (t[i].sizes)
            ob_u32_list(b, t[i].sizes, t[i].rank, 1, true);
        else
            OB_LIT(b, "null");
        OB_LIT(b, ",\"size_in_bytes\":");
        ob_u64(b, t[i].size_bytes);
        OB_LIT(b, ",\"first\":");
        ob_u64(b, t[i].first);
        OB_LIT(b, ",\"last\":");
        ob_u64(b, t[i].last);
        OB_LIT(b, ",\"offset\":");
        ob_u64(b, off[i]);
        OB_LIT(b, "}\n");
        if (b->len >= BATCH_CHUNK && !cli_drain(b, e))
            return false;
    }
    OB_LIT(b, "{\"summary\":{\"tensors\":");
    ob_u64(b, (uint64_t)s->tensors);
    OB_LIT(b, ",\"steps\":");
    ob_u128(b, s->steps);
    OB_LIT(b, ",\"alignment\":");
    ob_u64(b, s->alignment);
    OB_LIT(b, ",\"arena_bytes\":");
    ob_u64(b, s->r.arena_bytes);
    OB_LIT(b, ",\"lower_bound_bytes\":");
    ob_u64(b, s->r.lower_bound_bytes);
    OB_LIT(b, ",\"ratio\":");
    ob_ratio(b, s->r.arena_bytes, s->r.lower_bound_bytes);
    OB_LIT(b, ",\"peak_step\":");
    ob_u64(b, s->r.peak_step);
    OB_LIT(b, ",\"sum_bytes\":");
    ob_u128(b, s->r.sum_bytes);
    OB_LIT(b, ",\"weight_bytes\":");
    if (s->x->has_weight)
        ob_u128(b, s->x->weight_bytes);
    else
        OB_LIT(b, "null");
    OB_LIT(b, ",\"io_bytes\":");
    if (s->x->has_io)
        ob_u128(b, s->x->io_bytes);
    else
        OB_LIT(b, "null");
    if (s->x->has_skipped) { /* the tensors left out, by why */
        OB_LIT(b, ",\"skipped\":{\"folded\":");
        ob_u64(b, s->x->skipped_folded);
        OB_LIT(b, "}");
    }
    OB_LIT(b, "}}\n");
    return true;
}

static unsigned digits(uint64_t v)
{
    unsigned d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

static void put_right(struct outbuf *b, uint64_t v, unsigned width)
{
    for (unsigned d = digits(v); d < width; d++)
        ob_putc(b, ' ');
    ob_u64(b, v);
}

static void put_head(struct outbuf *b, const char *h, unsigned width)
{
    for (size_t d = strlen(h); d < width; d++)
        ob_putc(b, ' ');
    ob_puts(b, h);
}

static void render_text_totals(struct outbuf *b, const struct plan_summary *s)
{
    ob_puts(b, "\ntensors ");
    ob_u64(b, (uint64_t)s->tensors);
    ob_puts(b, ", steps ");
    ob_u128(b, s->steps);
    ob_puts(b, ", alignment ");
    ob_u64(b, s->alignment);
    ob_puts(b, "\narena        ");
    ob_bytes(b, dmlt_u128_from_u64(s->r.arena_bytes));
    ob_puts(b, "\nlower bound  ");
    ob_bytes(b, dmlt_u128_from_u64(s->r.lower_bound_bytes));
    ob_puts(b, ", the most bytes alive at one step (step ");
    ob_u64(b, s->r.peak_step);
    ob_puts(b, ")\nratio        ");
    ob_ratio(b, s->r.arena_bytes, s->r.lower_bound_bytes);
    ob_puts(b, "\nsum of sizes ");
    ob_bytes(b, s->r.sum_bytes);
    ob_puts(b, ", each tensor in a buffer of its own\n");
    if (s->x->has_weight) {
        ob_puts(b, "weights      ");
        ob_bytes(b, s->x->weight_bytes);
        ob_putc(b, '\n');
    }
    if (s->x->has_io) {
        ob_puts(b, "model I/O    ");
        ob_bytes(b, s->x->io_bytes);
        ob_putc(b, '\n');
    }
    if (s->x->has_skipped && s->x->skipped_folded) {
        ob_puts(b, "left out     ");
        ob_u64(b, s->x->skipped_folded);
        ob_puts(b, " folded (computed once when a session is made)\n");
    }
}

static bool render_text(struct outbuf *b, const struct planned *t, const uint64_t *off, size_t n,
                        const struct plan_summary *s, struct cli_error *e)
{
    unsigned w_off = 6, w_size = 5, w_step = 5;
    for (size_t i = 0; i < n; i++) {
        if (digits(off[i]) > w_off)
            w_off = digits(off[i]);
        if (digits(t[i].size_bytes) > w_size)
            w_size = digits(t[i].size_bytes);
        if (digits(t[i].last) > w_step)
            w_step = digits(t[i].last);
    }
    put_head(b, "OFFSET", w_off);
    put_head(b, "BYTES", w_size + 2);
    put_head(b, "FIRST", w_step + 2);
    put_head(b, "LAST", w_step + 2);
    ob_puts(b, "  NAME (OP)\n");
    for (size_t i = 0; i < n; i++) {
        put_right(b, off[i], w_off);
        put_right(b, t[i].size_bytes, w_size + 2);
        put_right(b, t[i].first, w_step + 2);
        put_right(b, t[i].last, w_step + 2);
        ob_puts(b, "  ");
        ob_quoted_text(b, t[i].name, SIZE_MAX);
        if (t[i].op) {
            ob_puts(b, " (");
            ob_quoted_text(b, t[i].op, SIZE_MAX);
            ob_putc(b, ')');
        }
        ob_putc(b, '\n');
        if (b->len >= BATCH_CHUNK && !cli_drain(b, e))
            return false;
    }
    render_text_totals(b, s);
    return true;
}

/* A C string literal: printable ASCII as it is, every other byte (and ",
 * \ and ?, no trigraphs) as a three-digit octal escape. */
static void c_string(struct outbuf *b, const char *s)
{
    ob_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20 && *p < 0x7F && *p != '"' && *p != '\\' && *p != '?') {
            ob_putc(b, (char)*p);
        } else {
            char esc[4] = {'\\', (char)('0' + (*p >> 6)), (char)('0' + ((*p >> 3) & 7)),
                           (char)('0' + (*p & 7))};
            ob_write(b, esc, 4);
        }
    }
    ob_putc(b, '"');
}

static bool render_c(struct outbuf *b, const char *name, const struct planned *t,
                     const uint64_t *off, size_t n, const struct plan_summary *s,
                     struct cli_error *e)
{
    char line[200];
    ob_puts(b, "/* dmltensor plan: ");
    ob_u64(b, (uint64_t)n);
    ob_puts(b, " tensors in one buffer of ");
    ob_u64(b, s->r.arena_bytes);
    ob_puts(b, " bytes (lower bound ");
    ob_u64(b, s->r.lower_bound_bytes);
    ob_puts(b, ", alignment ");
    ob_u64(b, s->alignment);
    ob_puts(b, ").\n");
    cli_say(line, sizeof line, " * Bind tensor i with DML_BUFFER_BINDING {buffer, %s", name);
    ob_puts(b, line);
    cli_say(line, sizeof line, "Tensors[i].offset, %sTensors[i].size}. */\n", name);
    ob_puts(b, line);
    cli_say(line, sizeof line, "static const unsigned long long %sArenaBytes = ", name);
    ob_puts(b, line);
    ob_u64(b, s->r.arena_bytes);
    cli_say(line, sizeof line, "ULL;\nstatic const unsigned long long %sTensorCount = ", name);
    ob_puts(b, line);
    ob_u64(b, (uint64_t)n);
    cli_say(line, sizeof line, "ULL;\nstatic const struct %sTensor {\n", name);
    ob_puts(b, line);
    ob_puts(b, "    const char *name;\n    unsigned long long offset, size;\n");
    cli_say(line, sizeof line, "} %sTensors[", name);
    ob_puts(b, line);
    ob_u64(b, n ? (uint64_t)n : 1);
    ob_puts(b, "] = {\n");
    if (n == 0)
        ob_puts(b, "    {\"\", 0ULL, 0ULL}, /* no tensor: an empty array is not C */\n");
    for (size_t i = 0; i < n; i++) {
        ob_puts(b, "    {");
        c_string(b, t[i].name);
        ob_puts(b, ", ");
        ob_u64(b, off[i]);
        ob_puts(b, "ULL, ");
        ob_u64(b, t[i].size_bytes);
        ob_puts(b, "ULL},\n");
        if (b->len >= BATCH_CHUNK && !cli_drain(b, e))
            return false;
    }
    ob_puts(b, "};\n");
    return true;
}

/* dmlt_plan() with a workspace of its own. */
static bool run_planner(const struct planned *t, size_t n, uint64_t alignment, uint64_t *offsets,
                        struct dmlt_plan_result *r, struct cli_error *e)
{
    size_t ws_bytes = 0;
    if (n > 0 && dmlt_plan_workspace_size(n, &ws_bytes) != DMLT_OK)
        return cli_fail(e, CLI_E_OUT_OF_RANGE, NULL, NULL, "too many tensors to plan");
    struct dmlt_plan_tensor *pt = malloc((n ? n : 1) * sizeof *pt);
    void *ws = malloc(ws_bytes ? ws_bytes : 1);
    if (pt == NULL || ws == NULL) {
        free(pt);
        free(ws);
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        pt[i].size_bytes = t[i].size_bytes;
        pt[i].first = t[i].first;
        pt[i].last = t[i].last;
    }
    struct dmlt_plan_options o = {alignment, 0, 0};
    struct dmlt_error err;
    r->size = sizeof *r;
    enum dmlt_status st = dmlt_plan(pt, n, &o, ws, ws_bytes, offsets, r, &err);
    free(pt);
    free(ws);
    if (st == DMLT_E_RANGE) {
        char num[48];
        num[fmt_u128(num, err.value)] = '\0';
        cli_fail(e, CLI_E_OUT_OF_RANGE, NULL, NULL,
                 "the tensors need at least %s bytes at one step: past 2^64 - 1, the largest "
                 "DML_BUFFER_BINDING",
                 num);
        return false;
    }
    if (st != DMLT_OK)
        return cli_fail(e, CLI_E_INTERNAL, NULL, NULL, "the planner failed: %s",
                        dmlt_status_name(st));
    return true;
}

bool plan_tensors(struct cli_config *cfg, const struct planned *t, size_t n,
                  const struct plan_extra *x, struct outbuf *out, struct cli_error *e)
{
    struct plan_summary s = {.tensors = n, .steps = x->steps, .x = x};
    if (!parse_alignment(cfg->t.alignment, &s.alignment, e))
        return false;
    uint64_t *offsets = calloc(n ? n : 1, sizeof *offsets);
    if (offsets == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    bool ok = run_planner(t, n, s.alignment, offsets, &s.r, e);
    if (ok) {
        switch (cfg->format) {
        case FMT_TEXT:
            ok = render_text(out, t, offsets, n, &s, e);
            break;
        case FMT_C:
            ok = render_c(out, cfg->c_name ? cfg->c_name : "plan", t, offsets, n, &s, e);
            break;
        case FMT_SVG:
            plan_render_svg(out, t, offsets, n, &s);
            break;
        case FMT_JSON:
        case FMT_JSONL:
        case FMT_ENV:
        case FMT_CSV:
            ok = render_jsonl(out, t, offsets, n, &s, e);
            break;
        }
    }
    free(offsets);
    return ok;
}
