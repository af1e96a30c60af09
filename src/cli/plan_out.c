/* plan_out.c - `plan` after its input is read: dmlt_plan() on the tensors,
 * then the records and summary of SPEC section 10 as JSON Lines, a table
 * (text) or a C table (c); the picture is plan_svg.c's. */
#include "plan_out.h"
#include "parse.h"
#include "platform.h"
#include "render_c.h"
#include "results.h"
#include "scan_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_DEFAULT_ALIGNMENT 256u
#define PLAN_MIN_ALIGNMENT     16u  /* DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT */
#define PLAN_LIST_MAX          100u /* a summary list's entries; the rest counted (_more) */
#define TEXT_LIST_MAX          5u   /* the text totals' */

/* ---- the planned tensors' text ------------------------------------------- */

#define POOL_BLOCK ((size_t)1 << 20)

struct plan_pool_block {
    struct plan_pool_block *next;
    size_t used, cap;
    _Alignas(8) char data[];
};

void *cli_plan_pool_alloc(struct plan_pool *pool, size_t n)
{
    n = (n + 7u) & ~(size_t)7u;
    struct plan_pool_block *b = pool->head;
    if (b == NULL || b->cap - b->used < n) {
        const size_t cap = n > POOL_BLOCK ? n : POOL_BLOCK;
        b = malloc(sizeof *b + cap);
        if (b == NULL)
            return NULL;
        b->next = pool->head;
        b->used = 0;
        b->cap = cap;
        pool->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
}

const char *cli_plan_pool_str(struct plan_pool *pool, const char *s, size_t n)
{
    char *p = cli_plan_pool_alloc(pool, n + 1);
    if (p != NULL) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

void cli_plan_pool_free(struct plan_pool *pool)
{
    while (pool->head) {
        struct plan_pool_block *next = pool->head->next;
        free(pool->head);
        pool->head = next;
    }
}

/* ---- options ------------------------------------------------------------- */

static bool parse_alignment(const char *text, uint64_t *out, struct cli_error *e)
{
    if (text == NULL) {
        *out = PLAN_DEFAULT_ALIGNMENT;
        return true;
    }
    if (!cli_parse_uint(text, strlen(text), 0, UINT64_MAX, out, e, "--alignment", text, NULL,
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
        cli_ob_json_str(b, s);
    else
        ob_puts(b, "null");
}

static void put_u128_or_null(struct outbuf *b, bool known, dmlt_u128 v)
{
    if (known)
        ob_u128(b, v);
    else
        OB_LIT(b, "null");
}

static const char *const SKIP_KEYS[] = {
#define PLAN_SKIP_KEY(id, key) key,
    PLAN_SKIPPED(PLAN_SKIP_KEY)
#undef PLAN_SKIP_KEY
};

/* The table's line for each cause, after "left out     N". */
static const char *const SKIP_TEXTS[PLAN_SKIP_COUNT] = {
    " of unknown size: the plan is incomplete\n",
    " folded (computed when the session is made)\n",
    " in CPU memory (--device dml: the CPU provider's)\n",
    " of nodes that fail on DirectML: the plan is incomplete\n",
    " of nodes whose placement is unknown: the plan is incomplete\n",
};

/* The summary's keys of SPEC section 11: subgraphs, what was left out,
 * the first unknown, the peak's tensors. */
static void render_json_fidelity(struct outbuf *b, const struct planned *t,
                                 const struct plan_summary *s)
{
    OB_LIT(b, ",\"total_arena_bytes\":");
    ob_u128(b, s->total_arena);
    OB_LIT(b, ",\"subgraphs\":[");
    for (size_t g = 1; g < s->n_groups && g <= PLAN_LIST_MAX; g++) {
        const struct plan_group *pg = &s->groups[g];
        ob_puts(b, g > 1 ? ",{\"path\":" : "{\"path\":");
        cli_ob_json_str(b, pg->path);
        OB_LIT(b, ",\"tensors\":");
        ob_u64(b, (uint64_t)pg->n);
        OB_LIT(b, ",\"arena_bytes\":");
        ob_u64(b, pg->r.arena_bytes);
        OB_LIT(b, ",\"lower_bound_bytes\":");
        ob_u64(b, pg->r.lower_bound_bytes);
        OB_LIT(b, "}");
    }
    OB_LIT(b, "],\"subgraphs_more\":");
    ob_u64(b, s->n_groups - 1 > PLAN_LIST_MAX ? (uint64_t)(s->n_groups - 1 - PLAN_LIST_MAX) : 0);
    OB_LIT(b, ",\"skipped\":{");
    for (size_t k = 0; k < PLAN_SKIP_COUNT; k++) {
        if (k)
            ob_putc(b, ',');
        cli_ob_json_str(b, SKIP_KEYS[k]);
        ob_putc(b, ':');
        ob_u64(b, s->x->skipped[k]);
    }
    OB_LIT(b, "},\"complete\":");
    ob_puts(b, plan_complete(s->x) ? "true" : "false");
    OB_LIT(b, ",\"device\":");
    put_str_or_null(b, s->x->device);
    OB_LIT(b, ",\"copies\":");
    if (s->x->device)
        ob_u64(b, s->x->copies);
    else
        OB_LIT(b, "null");
    OB_LIT(b, ",\"first_unknown\":");
    if (s->x->has_first_unknown) {
        OB_LIT(b, "{\"path\":");
        put_str_or_null(b, s->x->first_unknown.path);
        OB_LIT(b, ",\"op\":");
        put_str_or_null(b, s->x->first_unknown.op);
        OB_LIT(b, ",\"reason\":");
        put_str_or_null(b, s->x->first_unknown.reason);
        ob_putc(b, '}');
    } else {
        OB_LIT(b, "null");
    }
    OB_LIT(b, ",\"peak_tensors\":[");
    for (size_t k = 0; k < s->n_peak && k < PLAN_LIST_MAX; k++) {
        if (k)
            ob_putc(b, ',');
        cli_ob_json_str(b, t[s->peak[k]].name);
    }
    OB_LIT(b, "],\"peak_tensors_more\":");
    ob_u64(b, s->n_peak > PLAN_LIST_MAX ? (uint64_t)(s->n_peak - PLAN_LIST_MAX) : 0);
}

static bool render_jsonl(struct outbuf *b, const struct plan_view *v, const struct plan_summary *s,
                         struct cli_error *e)
{
    for (size_t k = 0; k < v->n; k++) {
        const size_t i = plan_view_at(v, k);
        const struct planned *t = v->t;
        OB_LIT(b, "{\"name\":");
        cli_ob_json_str(b, t[i].name);
        OB_LIT(b, ",\"path\":");
        put_str_or_null(b, t[i].path);
        OB_LIT(b, ",\"graph\":");
        cli_ob_json_str(b, t[i].graph ? t[i].graph : "");
        OB_LIT(b, ",\"op\":");
        put_str_or_null(b, t[i].op);
        OB_LIT(b, ",\"dtype\":");
        put_str_or_null(b,
                        t[i].dtype >= 0 ? dmlt_dtype_get((enum dmlt_dtype)t[i].dtype)->name : NULL);
        OB_LIT(b, ",\"sizes\":");
        if (t[i].sizes)
            cli_ob_u32_list(b, t[i].sizes, t[i].rank, 1, true);
        else
            OB_LIT(b, "null");
        OB_LIT(b, ",\"size_in_bytes\":");
        ob_u64(b, t[i].size_bytes);
        OB_LIT(b, ",\"first\":");
        ob_u64(b, t[i].first);
        OB_LIT(b, ",\"last\":");
        ob_u64(b, t[i].last);
        OB_LIT(b, ",\"offset\":");
        ob_u64(b, v->off[i]);
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
    cli_ob_ratio(b, s->r.arena_bytes, s->r.lower_bound_bytes);
    OB_LIT(b, ",\"peak_step\":");
    ob_u64(b, s->r.peak_step);
    OB_LIT(b, ",\"sum_bytes\":");
    ob_u128(b, s->r.sum_bytes);
    OB_LIT(b, ",\"weight_bytes\":");
    put_u128_or_null(b, s->x->has_weight, s->x->weight_bytes);
    OB_LIT(b, ",\"io_bytes\":");
    put_u128_or_null(b, s->x->has_io, s->x->io_bytes);
    render_json_fidelity(b, v->t, s);
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

/* The subgraphs' arenas and what was left out, after the totals. */
static void render_text_fidelity(struct outbuf *b, const struct planned *t,
                                 const struct plan_summary *s)
{
    if (s->n_groups > 1) {
        ob_puts(b, "subgraphs    ");
        ob_u64(b, (uint64_t)(s->n_groups - 1));
        ob_puts(b, ", each an arena of its own (G in the table); total arena ");
        cli_ob_bytes(b, s->total_arena);
        ob_putc(b, '\n');
        for (size_t g = 1; g < s->n_groups && g <= PLAN_LIST_MAX; g++) {
            ob_puts(b, "  G");
            ob_u64(b, (uint64_t)g);
            ob_puts(b, " ");
            cli_ob_quoted_text(b, s->groups[g].path, SIZE_MAX);
            ob_puts(b, ": ");
            ob_u64(b, (uint64_t)s->groups[g].n);
            ob_puts(b, s->groups[g].n == 1 ? " tensor, arena " : " tensors, arena ");
            cli_ob_bytes(b, dmlt_u128_from_u64(s->groups[g].r.arena_bytes));
            ob_putc(b, '\n');
        }
    }
    if (s->n_peak) {
        ob_puts(b, "peak tensors ");
        for (size_t k = 0; k < s->n_peak && k < TEXT_LIST_MAX; k++) {
            if (k)
                ob_puts(b, ", ");
            cli_ob_quoted_text(b, t[s->peak[k]].name, 40);
        }
        if (s->n_peak > TEXT_LIST_MAX) {
            ob_puts(b, ", and ");
            ob_u64(b, (uint64_t)(s->n_peak - TEXT_LIST_MAX));
            ob_puts(b, " more");
        }
        ob_putc(b, '\n');
    }
    for (size_t k = 0; k < PLAN_SKIP_COUNT; k++) {
        if (s->x->skipped[k] == 0)
            continue;
        ob_puts(b, "left out     ");
        ob_u64(b, s->x->skipped[k]);
        ob_puts(b, SKIP_TEXTS[k]);
    }
    if (s->x->device) {
        ob_puts(b, "copies       ");
        ob_u64(b, s->x->copies);
        ob_puts(b, " values cross between the CPU and DirectML each run\n");
    }
    if (s->x->has_first_unknown && s->x->first_unknown.path) {
        ob_puts(b, "first unknown ");
        cli_ob_quoted_text(b, s->x->first_unknown.path, 80);
        if (s->x->first_unknown.reason) {
            ob_puts(b, ": ");
            cli_ob_quoted_text(b, s->x->first_unknown.reason, 160);
        }
        ob_putc(b, '\n');
    }
}

static void render_text_totals(struct outbuf *b, const struct planned *t,
                               const struct plan_summary *s)
{
    ob_puts(b, "\ntensors ");
    ob_u64(b, (uint64_t)s->tensors);
    ob_puts(b, ", steps ");
    ob_u128(b, s->steps);
    ob_puts(b, ", alignment ");
    ob_u64(b, s->alignment);
    ob_puts(b, "\narena        ");
    cli_ob_bytes(b, dmlt_u128_from_u64(s->r.arena_bytes));
    ob_puts(b, "\nlower bound  ");
    cli_ob_bytes(b, dmlt_u128_from_u64(s->r.lower_bound_bytes));
    ob_puts(b, ", the most bytes alive at one step (step ");
    ob_u64(b, s->r.peak_step);
    ob_puts(b, ")\nratio        ");
    cli_ob_ratio(b, s->r.arena_bytes, s->r.lower_bound_bytes);
    ob_puts(b, "\nsum of sizes ");
    cli_ob_bytes(b, s->r.sum_bytes);
    ob_puts(b, ", each tensor in a buffer of its own\n");
    if (s->x->has_weight) {
        ob_puts(b, "weights      ");
        cli_ob_bytes(b, s->x->weight_bytes);
        ob_putc(b, '\n');
    }
    if (s->x->has_io) {
        ob_puts(b, "model I/O    ");
        cli_ob_bytes(b, s->x->io_bytes);
        ob_putc(b, '\n');
    }
    render_text_fidelity(b, t, s);
}

/* The table's width: a row fits TEXT_COLUMNS characters, the NAME (OP)
 * column cut in the middle of the name to make it so. */
#define TEXT_COLUMNS  100u
#define TEXT_NAME_MIN 24u

static bool render_text(struct outbuf *b, const struct plan_view *v, const struct plan_summary *s,
                        struct cli_error *e)
{
    const struct planned *t = v->t;
    unsigned w_off = 6, w_size = 5, w_step = 5, w_g = 0;
    for (size_t k = 0; k < v->n; k++) {
        const size_t i = plan_view_at(v, k);
        if (digits(v->off[i]) > w_off)
            w_off = digits(v->off[i]);
        if (digits(t[i].size_bytes) > w_size)
            w_size = digits(t[i].size_bytes);
        if (digits(t[i].last) > w_step)
            w_step = digits(t[i].last);
    }
    if (s->n_groups > 1)
        w_g = digits((uint64_t)(s->n_groups - 1)) + 1;
    put_head(b, "OFFSET", w_off);
    put_head(b, "BYTES", w_size + 2);
    put_head(b, "FIRST", w_step + 2);
    put_head(b, "LAST", w_step + 2);
    if (w_g)
        put_head(b, "G", w_g + 2);
    ob_puts(b, "  NAME (OP)\n");
    const unsigned used = w_off + w_size + 2 + 2 * (w_step + 2) + (w_g ? w_g + 2 : 0) + 2;
    struct outbuf tmp;
    cli_ob_init(&tmp);
    for (size_t k = 0; k < v->n; k++) {
        const size_t i = plan_view_at(v, k);
        put_right(b, v->off[i], w_off);
        put_right(b, t[i].size_bytes, w_size + 2);
        put_right(b, t[i].first, w_step + 2);
        put_right(b, t[i].last, w_step + 2);
        if (w_g) {
            char label[24] = "-";
            const size_t g = cli_plan_group_of(s, i);
            if (g)
                snprintf(label, sizeof label, "G%lu", (unsigned long)g);
            put_head(b, label, w_g + 2);
        }
        ob_puts(b, "  ");
        size_t room = TEXT_COLUMNS > used + TEXT_NAME_MIN ? TEXT_COLUMNS - used : TEXT_NAME_MIN;
        if (t[i].op) {
            cli_ob_reset(&tmp);
            cli_ob_quoted_text(&tmp, t[i].op, 30);
            const size_t op_cols = cli_ob_columns(&tmp, 0) + 3;
            room = room > op_cols + 8 ? room - op_cols : 8;
        }
        cli_text_cut_middle(b, &tmp, t[i].name, room);
        if (t[i].op) {
            ob_puts(b, " (");
            cli_ob_quoted_text(b, t[i].op, 30);
            ob_putc(b, ')');
        }
        ob_putc(b, '\n');
        if (b->len >= BATCH_CHUNK && !cli_drain(b, e)) {
            cli_ob_free(&tmp);
            return false;
        }
    }
    cli_ob_free(&tmp);
    render_text_totals(b, t, s);
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

static bool render_c(struct outbuf *b, const char *name, const struct plan_view *v,
                     const struct plan_summary *s, struct cli_error *e)
{
    const struct planned *t = v->t;
    const size_t n = v->n;
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
    if (s->n_groups > 1) { /* each subgraph's tensors are offsets into an arena of its own */
        ob_puts(b, " * The main arena's tensors come first (");
        ob_u64(b, (uint64_t)s->groups[0].n);
        ob_puts(b, "); then each subgraph's, offsets into its own arena;\n * total arena ");
        ob_u128(b, s->total_arena);
        ob_puts(b, " bytes (the main arena plus the most its nodes' subgraphs need).\n");
    }
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
    for (size_t k = 0; k < n; k++) {
        const size_t i = plan_view_at(v, k);
        ob_puts(b, "    {");
        c_string(b, t[i].name);
        ob_puts(b, ", ");
        ob_u64(b, v->off[i]);
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
        num[cli_fmt_u128(num, err.value)] = '\0';
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

size_t cli_plan_group_of(const struct plan_summary *s, size_t i)
{
    size_t lo = 0, hi = s->n_groups; /* the last group starting at or before i */
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (s->groups[mid].start <= i)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Each group planned in an arena of its own, then what each needs with
 * its subgraphs: its arena plus the most one child needs (an If's branches
 * never run together; a body's arena serves every iteration; nodes run one
 * at a time). Children follow their parent (pre-order): a reverse walk. */
static bool plan_groups(const struct planned *t, struct plan_group *g, size_t n_groups,
                        uint64_t alignment, uint64_t *offsets, struct cli_error *e)
{
    for (size_t k = 0; k < n_groups; k++) {
        const struct planned *gt = g[k].n ? t + g[k].start : t; /* t is NULL with no tensors */
        if (!run_planner(gt, g[k].n, alignment, offsets + g[k].start, &g[k].r, e))
            return false;
        g[k].need = dmlt_u128_from_u64(0); /* the most a child needs, so far */
    }
    for (size_t k = n_groups; k-- > 0;) {
        if (!dmlt_u128_add(g[k].need, dmlt_u128_from_u64(g[k].r.arena_bytes), &g[k].need))
            return cli_fail(e, CLI_E_OUT_OF_RANGE, NULL, NULL, "the arenas pass 2^128 bytes");
        const long p = g[k].parent;
        if (k > 0 && p >= 0 && (size_t)p < k && dmlt_u128_cmp(g[k].need, g[p].need) > 0)
            g[p].need = g[k].need;
    }
    return true;
}

/* Orders a[0..n) by b's size, largest first, input order among equals
 * (a merge sort through tmp: stable, n log n). */
static void sort_by_size(size_t *a, size_t *tmp, size_t n, const struct planned *t)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            const size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = t[a[j]].size_bytes > t[a[i]].size_bytes ? a[j++] : a[i++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* The main arena's tensors alive at the peak step, the largest first. */
static bool find_peak(const struct planned *t, struct plan_summary *s, size_t **out)
{
    size_t n = 0;
    const uint64_t p = s->r.peak_step;
    for (size_t i = 0; i < s->main_n; i++)
        n += t[i].first <= p && p <= t[i].last && t[i].size_bytes > 0;
    size_t *a = malloc((2 * n + 1) * sizeof *a);
    if (a == NULL)
        return false;
    n = 0;
    for (size_t i = 0; i < s->main_n; i++)
        if (t[i].first <= p && p <= t[i].last && t[i].size_bytes > 0)
            a[n++] = i;
    sort_by_size(a, a + n, n, t);
    s->peak = a;
    s->n_peak = s->r.lower_bound_bytes ? n : 0;
    *out = a;
    return true;
}

/* --top N: the N largest, largest first; idx NULL without --top. */
static bool top_view(const struct cli_config *cfg, const struct planned *t, size_t n, size_t **idx,
                     size_t *shown, struct cli_error *e)
{
    *idx = NULL;
    *shown = n;
    if (cfg->top == NULL)
        return true;
    uint64_t top;
    if (!cli_parse_uint(cfg->top, strlen(cfg->top), 1, UINT64_MAX, &top, e, "--top", cfg->top, NULL,
                        "counts"))
        return false;
    size_t *a = malloc((2 * n + 1) * sizeof *a);
    if (a == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    for (size_t i = 0; i < n; i++)
        a[i] = i;
    sort_by_size(a, a + n, n, t);
    *idx = a;
    *shown = top < n ? (size_t)top : n;
    return true;
}

static bool render(struct cli_config *cfg, const struct plan_view *v, const struct plan_summary *s,
                   struct outbuf *out, struct cli_error *e)
{
    switch (cfg->format) {
    case FMT_TEXT:
        return render_text(out, v, s, e);
    case FMT_C:
        return render_c(out, cfg->c_name ? cfg->c_name : "plan", v, s, e);
    case FMT_SVG:
        cli_plan_render_svg(out, v, s);
        return true;
    case FMT_JSON:
    case FMT_JSONL:
    case FMT_ENV:
    case FMT_CSV:
        break;
    }
    return render_jsonl(out, v, s, e);
}

static const char *graph_of(const struct planned *t)
{
    return t->graph ? t->graph : "";
}

/* Stable order of records by graph: lexicographic, so "" (the main graph)
 * comes first and a subgraph after the graph holding it (its path is a
 * prefix of its children's). */
static void sort_by_graph(size_t *a, size_t *tmp, size_t n, const struct planned *t)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            const size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = strcmp(graph_of(&t[a[j]]), graph_of(&t[a[i]])) < 0 ? a[j++] : a[i++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* JSON Lines whose records name their graph (plan's own output of a model
 * with subgraphs) are planned as the model was: an arena per graph, the
 * records grouped in *rt (a copy; NULL when none names a graph), the
 * parent of a graph the longest other whose path and ".node[" begin its
 * path, else the main graph. False when memory ran out. */
static bool group_records(const struct planned *t, size_t n, struct planned **rt,
                          struct plan_group **groups, size_t *n_groups)
{
    *rt = NULL;
    *groups = NULL;
    size_t named = 0;
    for (size_t i = 0; i < n; i++)
        named += *graph_of(&t[i]) != '\0';
    if (named == 0)
        return true;
    size_t *idx = malloc(2 * n * sizeof *idx);
    struct planned *r = malloc(n * sizeof *r);
    struct plan_group *g = calloc(n + 1, sizeof *g);
    if (idx == NULL || r == NULL || g == NULL) {
        free(idx);
        free(r);
        free(g);
        return false;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_by_graph(idx, idx + n, n, t);
    size_t k = 0;
    g[0] = (struct plan_group){.path = "", .parent = -1};
    for (size_t i = 0; i < n; i++) {
        r[i] = t[idx[i]];
        const char *path = graph_of(&r[i]);
        if (strcmp(path, g[k].path) != 0)
            g[++k] = (struct plan_group){.path = path, .start = i, .parent = 0};
        g[k].n++;
    }
    for (size_t a = 1; a <= k; a++) { /* its parent: the longest enclosing path */
        const size_t len = strlen(g[a].path);
        for (size_t b = a; b-- > 1;) {
            const size_t pl = strlen(g[b].path);
            if (pl < len && strncmp(g[a].path, g[b].path, pl) == 0 &&
                strncmp(g[a].path + pl, ".node[", 6) == 0) {
                g[a].parent = (long)b;
                break;
            }
        }
    }
    free(idx);
    *rt = r;
    *groups = g;
    *n_groups = k + 1;
    return true;
}

bool cli_plan_tensors(struct cli_config *cfg, const struct planned *t, size_t n,
                      const struct plan_extra *x, struct outbuf *out, struct cli_error *e)
{
    struct plan_summary s = {.tensors = n, .steps = x->steps, .x = x};
    struct plan_group one = {.path = "", .start = 0, .n = n, .parent = -1};
    struct plan_group *groups = x->groups ? x->groups : &one, *read_groups = NULL;
    struct planned *grouped = NULL;
    s.groups = groups;
    s.n_groups = x->groups ? x->n_groups : 1;
    if (!parse_alignment(cfg->t.alignment, &s.alignment, e))
        return false;
    if (x->groups == NULL && !group_records(t, n, &grouped, &read_groups, &s.n_groups))
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    if (grouped) { /* the steps are the main graph's: its last + 1 */
        t = grouped;
        s.groups = groups = read_groups;
        s.steps = dmlt_u128_from_u64(0);
        for (size_t i = 0; i < groups[0].n; i++)
            if (dmlt_u128_cmp(dmlt_u128_from_u64(t[i].last), s.steps) >= 0)
                (void)dmlt_u128_add(dmlt_u128_from_u64(t[i].last), dmlt_u128_from_u64(1), &s.steps);
    }
    struct plan_view v = {.t = t};
    size_t *idx = NULL;
    if (!top_view(cfg, t, n, &idx, &v.n, e)) {
        free(grouped);
        free(read_groups);
        return false;
    }
    v.idx = idx;
    uint64_t *offsets = calloc(n ? n : 1, sizeof *offsets);
    size_t *peak = NULL;
    bool ok = offsets != NULL || cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    ok = ok && plan_groups(t, groups, s.n_groups, s.alignment, offsets, e);
    if (ok) {
        s.r = groups[0].r;
        s.main_n = groups[0].n;
        s.total_arena = groups[0].need;
        for (size_t k = 1; k < s.n_groups; k++) /* every tensor in a buffer of its own */
            (void)dmlt_u128_add(s.r.sum_bytes, groups[k].r.sum_bytes, &s.r.sum_bytes);
        ok = find_peak(t, &s, &peak) ||
             cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    v.off = offsets;
    ok = ok && render(cfg, &v, &s, out, e);
    free(peak);
    free(idx);
    free(offsets);
    free(grouped);
    free(read_groups);
    return ok;
}
