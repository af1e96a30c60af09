/* plan_svg.c - `plan --format svg`: the main arena as a picture, SVG 1.1.
 *
 * Steps run across, offsets down: tensor i is the rectangle from
 * x(first) to x(last + 1) and from y(offset) to y(offset + size), in user
 * units (the viewBox is the picture's size in pixels), each coordinate
 * written with three decimals, rounded down: exact integer arithmetic, so
 * the same plan gives the same bytes everywhere.
 *   y(o) = PLOT_Y + o x PLOT_H / arena
 *   x(s): a step where some tensor starts (an allocating step) is ALLOC_W
 *   units wide; each run of steps between them where none starts is
 *   GAP_W units in all (compressed), a step inside it at its share of the
 *   run; the units scaled to PLOT_W. docs/plan.md states it; the tests
 *   recompute it.
 * Its fill is its op's colour (plan_svg_ops.c: a fixed colour per op
 * family, the same in every model) and its <title> says its name, op,
 * size and offset. The axes have ticks: offsets in B, KiB, MiB or GiB at
 * round steps, allocating steps with their node's name. The lower bound is
 * a dashed line; the peak step is outlined in red, its tensors too, and
 * named below the plot; the legend names every op drawn (the largest
 * LEGEND_MAX - 1 and "other" past LEGEND_MAX). */
#include "plan_out.h"
#include "plan_svg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_X       80u
#define PLOT_Y       50u
#define PLOT_W       900u
#define PLOT_H       600u
#define ALLOC_W      4u   /* units of an allocating step */
#define GAP_W        1u   /* units of a run of steps that allocate nothing */
#define TICKS_H      170u /* below the plot: the step labels */
#define LEGEND_MAX   48u  /* legend entries (4 a row) */
#define LEGEND_COLS  4u
#define OTHER_COLOUR "#cccccc"
#define PEAK_RED     "#d62728"
#define PEAK_LINES   3u /* the peak's tensors named below the plot: lines of */
#define PEAK_EACH    3u /* so many */

/* Text for XML, escaped by the one function every text output shares. */
static void put_xml_text(struct outbuf *b, const char *s)
{
    cli_ob_xml_text(b, s);
}

/* The x mapping: the allocating steps f[0..m) (sorted, distinct), rep[j]
 * the first tensor (input order) starting at f[j]; gb[j] the nonempty
 * runs of idle steps before run j (run j precedes f[j]; run m follows
 * the last), m + 2 entries. */
struct xmap {
    uint64_t *f;
    size_t *rep;
    uint64_t *gb;
    size_t m;
    uint64_t span, total; /* steps; units in all */
};

/* Orders a[0..n) by cmp (stable, through tmp: qsort has no context). */
static void msort(size_t *a, size_t *tmp, size_t n, int (*cmp)(size_t, size_t, const void *),
                  const void *ctx)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            const size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = cmp(a[j], a[i], ctx) < 0 ? a[j++] : a[i++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

static int by_first(size_t i, size_t j, const void *ctx)
{
    const struct planned *t = ctx;
    return t[i].first != t[j].first ? (t[i].first < t[j].first ? -1 : 1) : 0;
}

static int by_op(size_t i, size_t j, const void *ctx)
{
    const struct planned *t = ctx;
    return strcmp(t[i].op, t[j].op);
}

static void xmap_free(struct xmap *x)
{
    free(x->f);
    free(x->rep);
    free(x->gb);
}

/* The steps of t[0..n) (those of nonzero size) that allocate; false when
 * memory ran out. */
static bool xmap_init(struct xmap *x, const struct planned *t, size_t n, uint64_t span)
{
    memset(x, 0, sizeof *x);
    x->span = span;
    size_t *idx = malloc((2 * n + 1) * sizeof *idx);
    x->f = malloc((n + 1) * sizeof *x->f);
    x->rep = malloc((n + 1) * sizeof *x->rep);
    x->gb = malloc((n + 2) * sizeof *x->gb);
    if (idx == NULL || x->f == NULL || x->rep == NULL || x->gb == NULL) {
        free(idx);
        xmap_free(x);
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i].size_bytes != 0 && t[i].first < span)
            idx[k++] = i;
    msort(idx, idx + n, k, by_first, t);
    for (size_t i = 0; i < k; i++)
        if (x->m == 0 || x->f[x->m - 1] != t[idx[i]].first) {
            x->f[x->m] = t[idx[i]].first;
            x->rep[x->m++] = idx[i];
        }
    free(idx);
    x->gb[0] = 0;
    for (size_t j = 0; j <= x->m; j++) { /* run j: from the step after f[j-1] to f[j] */
        const uint64_t g0 = j == 0 ? 0 : x->f[j - 1] + 1, g1 = j == x->m ? span : x->f[j];
        x->gb[j + 1] = x->gb[j] + (g1 > g0);
    }
    x->total = (uint64_t)x->m * ALLOC_W + x->gb[x->m + 1] * GAP_W;
    if (x->total == 0)
        x->total = 1;
    return true;
}

/* x(s) in thousandths of a unit, for 0 <= s <= span. */
static uint64_t x_milli(const struct xmap *x, uint64_t s)
{
    size_t lo = 0, hi = x->m; /* j: the first allocating step >= s */
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (x->f[mid] < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    const size_t j = lo;
    dmlt_u128 num, q;
    uint64_t den = 1;
    if (j < x->m && x->f[j] == s) {
        num = dmlt_u128_from_u64((uint64_t)j * ALLOC_W + x->gb[j + 1] * GAP_W);
    } else {
        const uint64_t g0 = j == 0 ? 0 : x->f[j - 1] + 1, g1 = j == x->m ? x->span : x->f[j];
        const uint64_t base = (uint64_t)j * ALLOC_W + x->gb[j] * GAP_W;
        if (g1 <= g0 || s <= g0) {
            num = dmlt_u128_from_u64(base);
        } else {
            den = g1 - g0;
            (void)dmlt_u128_mul(dmlt_u128_from_u64(base), dmlt_u128_from_u64(den), &num);
            (void)dmlt_u128_add(num, dmlt_u128_from_u64((s - g0) * GAP_W), &num);
        }
    }
    (void)dmlt_u128_mul(num, dmlt_u128_from_u64((uint64_t)PLOT_W * 1000u), &num);
    (void)dmlt_u128_divmod(num, den, &q, NULL);
    (void)dmlt_u128_divmod(q, x->total, &q, NULL);
    return (uint64_t)PLOT_X * 1000u + dmlt_u128_to_u64(q);
}

/* y(o) in thousandths. */
static uint64_t y_milli(uint64_t o, uint64_t arena)
{
    dmlt_u128 num, q;
    (void)dmlt_u128_mul(dmlt_u128_from_u64(o), dmlt_u128_from_u64((uint64_t)PLOT_H * 1000u), &num);
    (void)dmlt_u128_divmod(num, arena, &q, NULL);
    return (uint64_t)PLOT_Y * 1000u + dmlt_u128_to_u64(q);
}

static void put_milli(struct outbuf *b, uint64_t milli)
{
    ob_u64(b, milli / 1000);
    char frac[5] = {'.', (char)('0' + milli / 100 % 10), (char)('0' + milli / 10 % 10),
                    (char)('0' + milli % 10), 0};
    ob_puts(b, frac);
}

/* The legend: the ops drawn, each with its colour; past LEGEND_MAX, the
 * largest LEGEND_MAX - 1 by bytes and "other". */
struct legend {
    const char *ops[LEGEND_MAX];
    size_t n;
    size_t others; /* ops drawn in OTHER_COLOUR */
};

static bool in_legend(const struct legend *l, const char *op)
{
    if (op == NULL || l->others == 0)
        return true;
    for (size_t k = 0; k < l->n; k++)
        if (strcmp(l->ops[k], op) == 0)
            return true;
    return false;
}

static void fill_of(const struct legend *l, const char *op, char out[8])
{
    if (in_legend(l, op))
        cli_plan_op_colour(op, out);
    else
        memcpy(out, OTHER_COLOUR, 8);
}

/* An op of the legend being built: its name and bytes drawn. */
struct op_total {
    const char *op;
    dmlt_u128 bytes;
};

static int by_bytes(size_t i, size_t j, const void *ctx)
{
    const struct op_total *o = ctx;
    const int c = dmlt_u128_cmp(o[j].bytes, o[i].bytes); /* the largest first */
    return c ? c : strcmp(o[i].op, o[j].op);
}

static int by_family(size_t i, size_t j, const void *ctx)
{
    const struct op_total *o = ctx;
    const unsigned fi = cli_plan_op_family(o[i].op), fj = cli_plan_op_family(o[j].op);
    return fi != fj ? (fi < fj ? -1 : 1) : strcmp(o[i].op, o[j].op);
}

/* The legend of the tensors drawn; false when memory ran out. */
static bool legend_init(struct legend *l, const struct plan_view *v, size_t main_n)
{
    memset(l, 0, sizeof *l);
    size_t *idx = malloc((2 * v->n + 1) * sizeof *idx);
    struct op_total *o = malloc((v->n + 1) * sizeof *o);
    size_t *order = malloc((2 * v->n + 1) * sizeof *order);
    if (idx == NULL || o == NULL || order == NULL) {
        free(idx);
        free(o);
        free(order);
        return false;
    }
    size_t k = 0, n_ops = 0;
    for (size_t i = 0; i < v->n; i++) {
        const size_t t = plan_view_at(v, i);
        if (t < main_n && v->t[t].op != NULL && v->t[t].size_bytes != 0)
            idx[k++] = t;
    }
    msort(idx, idx + v->n, k, by_op, v->t);
    for (size_t i = 0; i < k; i++) {
        const struct planned *t = &v->t[idx[i]];
        if (n_ops == 0 || strcmp(o[n_ops - 1].op, t->op) != 0)
            o[n_ops++] = (struct op_total){t->op, dmlt_u128_from_u64(0)};
        (void)dmlt_u128_add(o[n_ops - 1].bytes, dmlt_u128_from_u64(t->size_bytes),
                            &o[n_ops - 1].bytes);
    }
    for (size_t i = 0; i < n_ops; i++)
        order[i] = i;
    size_t keep = n_ops;
    if (n_ops > LEGEND_MAX) {
        msort(order, order + n_ops, n_ops, by_bytes, o);
        keep = LEGEND_MAX - 1;
        l->others = n_ops - keep;
    }
    msort(order, order + n_ops, keep, by_family, o);
    for (size_t i = 0; i < keep; i++)
        l->ops[l->n++] = o[order[i]].op;
    free(idx);
    free(o);
    free(order);
    return true;
}

/* Text cut to at most max characters (whole UTF-8 sequences), escaped. */
static void put_xml_cut(struct outbuf *b, const char *s, size_t max)
{
    char buf[256];
    size_t n = 0, chars = 0;
    while (s[n] && n + 4 < sizeof buf) {
        if (((unsigned char)s[n] & 0xC0) != 0x80 && chars++ == max)
            break;
        buf[n] = s[n];
        n++;
    }
    while (n > 0 && ((unsigned char)buf[n - 1] & 0xC0) == 0xC0) /* a sequence cut short */
        n--;
    buf[n] = '\0';
    put_xml_text(b, buf);
    if (s[n])
        ob_puts(b, "...");
}

static void put_rect(struct outbuf *b, const struct legend *l, const struct xmap *x,
                     const struct planned *t, uint64_t off, uint64_t arena, bool peak)
{
    const uint64_t end = t->last >= x->span - 1 ? x->span : t->last + 1;
    const uint64_t x0 = x_milli(x, t->first), x1 = x_milli(x, end);
    const uint64_t y0 = y_milli(off, arena), y1 = y_milli(off + t->size_bytes, arena);
    char fill[8];
    fill_of(l, t->op, fill);
    ob_puts(b, "<rect x=\"");
    put_milli(b, x0);
    ob_puts(b, "\" y=\"");
    put_milli(b, y0);
    ob_puts(b, "\" width=\"");
    put_milli(b, x1 - x0); /* differences of the rounded ends: neighbours meet exactly */
    ob_puts(b, "\" height=\"");
    put_milli(b, y1 - y0);
    ob_puts(b, "\" fill=\"");
    ob_puts(b, fill);
    ob_puts(b, peak ? "\" stroke=\"" PEAK_RED "\" stroke-width=\"1.5\"><title>"
                    : "\" stroke=\"#ffffff\" stroke-width=\"0.5\"><title>");
    put_xml_text(b, t->name);
    if (t->op) {
        ob_puts(b, " (");
        put_xml_text(b, t->op);
        ob_putc(b, ')');
    }
    ob_puts(b, ": ");
    ob_u64(b, t->size_bytes);
    ob_puts(b, " bytes at offset ");
    ob_u64(b, off);
    ob_puts(b, ", steps ");
    ob_u64(b, t->first);
    ob_puts(b, "..");
    ob_u64(b, t->last);
    ob_puts(b, peak ? ", alive at the peak</title></rect>\n" : "</title></rect>\n");
}

/* Offset ticks: a unit the arena holds at least twice (B, KiB, MiB, GiB,
 * TiB) and a round step of it (1, 2, 5 x 10^k) that makes at most 8. */
static void put_y_ticks(struct outbuf *b, uint64_t arena)
{
    static const char *const UNITS[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    unsigned u = 0;
    while (u + 1 < 5 && arena / ((uint64_t)1 << (10 * (u + 1))) >= 2)
        u++;
    const uint64_t unit = (uint64_t)1 << (10 * u), q = arena / unit;
    static const uint64_t ROUND[] = {1, 2, 5};
    uint64_t step = 1;
    for (uint64_t e = 1; q / step > 8; e *= 10)
        for (unsigned k = 0; k < 3 && (step = ROUND[k] * e, q / step > 8); k++)
            ;
    ob_puts(b, "<g font-family=\"sans-serif\" font-size=\"11\" text-anchor=\"end\">\n");
    for (uint64_t v = 0; v <= q; v += step) {
        const uint64_t y = y_milli(v * unit, arena);
        ob_puts(b, "<line x1=\"74\" y1=\"");
        put_milli(b, y);
        ob_puts(b, "\" x2=\"80\" y2=\"");
        put_milli(b, y);
        ob_puts(b, "\" stroke=\"#000000\" stroke-width=\"1\"/><text x=\"72\" y=\"");
        put_milli(b, y + 4000);
        ob_puts(b, "\">");
        ob_u64(b, v);
        ob_putc(b, ' ');
        ob_puts(b, UNITS[u]);
        ob_puts(b, "</text>\n");
        if (q - v < step)
            break;
    }
    ob_puts(b, "</g>\n");
}

/* A size for people: "512 B", "3.1 MiB" (one decimal, rounded down). */
static void put_size(struct outbuf *b, uint64_t v)
{
    static const char *const UNITS[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    unsigned u = 0;
    while (u + 1 < 7 && v >> (10 * (u + 1)) != 0)
        u++;
    ob_u64(b, v >> (10 * u));
    if (u > 0) {
        const uint64_t rest = v & (((uint64_t)1 << (10 * u)) - 1);
        ob_putc(b, '.');
        ob_putc(b, (char)('0' + (char)((rest * 10) >> (10 * u))));
    }
    ob_putc(b, ' ');
    ob_puts(b, UNITS[u]);
}

/* Text cut in the middle to at most max characters: the head, "...", the
 * tail (where names that share a prefix differ). */
static void put_xml_mid(struct outbuf *b, const char *s, size_t max)
{
    size_t chars = 0;
    for (const char *p = s; *p; p++)
        chars += ((unsigned char)*p & 0xC0) != 0x80;
    if (chars <= max) {
        put_xml_text(b, s);
        return;
    }
    const size_t head = (max - 3) / 2, tail = max - 3 - head;
    put_xml_cut(b, s, head); /* writes "..." after the head */
    const size_t skip = chars - tail;
    const char *p = s;
    for (size_t c = 0; *p; p++) {
        if (((unsigned char)*p & 0xC0) != 0x80 && c++ == skip)
            break;
    }
    put_xml_text(b, p);
}

/* Step ticks: allocating steps, each labelled with its step and the first
 * tensor it allocates (a model's node output and op), 12 pixels apart at
 * least; the steps between, which allocate nothing, are compressed. */
static void put_x_ticks(struct outbuf *b, const struct xmap *x, const struct planned *t)
{
    ob_puts(b, "<g font-family=\"sans-serif\" font-size=\"9\">\n");
    uint64_t last = 0;
    bool any = false;
    for (size_t j = 0; j < x->m; j++) {
        const uint64_t x0 = x_milli(x, x->f[j]);
        const uint64_t mid =
            x0 + (x_milli(x, x->f[j] == UINT64_MAX ? x->f[j] : x->f[j] + 1) - x0) / 2;
        if (any && mid < last + 12000)
            continue;
        any = true;
        last = mid;
        ob_puts(b, "<line x1=\"");
        put_milli(b, mid);
        ob_puts(b, "\" y1=\"650\" x2=\"");
        put_milli(b, mid);
        ob_puts(b, "\" y2=\"656\" stroke=\"#000000\" stroke-width=\"1\"/><text x=\"");
        put_milli(b, mid - 3000);
        ob_puts(b, "\" y=\"659\" transform=\"rotate(90 ");
        put_milli(b, mid - 3000);
        ob_puts(b, " 659)\">");
        ob_u64(b, x->f[j]);
        ob_putc(b, ' ');
        const struct planned *r = &t[x->rep[j]];
        put_xml_mid(b, r->name, 20);
        if (r->op) {
            ob_puts(b, " (");
            put_xml_cut(b, r->op, 12);
            ob_putc(b, ')');
        }
        ob_puts(b, "</text>\n");
    }
    ob_puts(b, "</g>\n");
}

/* The peak: its step outlined (its tensors are, where they are drawn) and
 * named below the plot, the largest first. */
static void put_peak(struct outbuf *b, const struct xmap *x, const struct plan_summary *s,
                     const struct planned *t, unsigned y)
{
    if (s->r.lower_bound_bytes == 0)
        return;
    const uint64_t p = s->r.peak_step;
    const uint64_t x0 = x_milli(x, p), x1 = x_milli(x, p >= x->span - 1 ? x->span : p + 1);
    ob_puts(b, "<rect x=\"");
    put_milli(b, x0);
    ob_puts(b, "\" y=\"50\" width=\"");
    put_milli(b, x1 - x0);
    ob_puts(b, "\" height=\"600\" fill=\"none\" stroke=\"" PEAK_RED "\" stroke-width=\"2\"/>\n"
               "<g font-family=\"sans-serif\" font-size=\"12\">\n<text x=\"80\" y=\"");
    ob_u64(b, y);
    ob_puts(b, "\" fill=\"" PEAK_RED "\">peak: step ");
    ob_u64(b, p);
    ob_puts(b, ", ");
    ob_u64(b, s->r.lower_bound_bytes);
    ob_puts(b, " bytes alive in ");
    ob_u64(b, (uint64_t)s->n_peak);
    ob_puts(b, s->n_peak == 1 ? " tensor:</text>\n" : " tensors:</text>\n");
    for (size_t line = 0; line < PEAK_LINES; line++) {
        ob_puts(b, "<text x=\"80\" y=\"");
        ob_u64(b, y + 16 + 16 * line);
        ob_puts(b, "\">");
        for (size_t k = line * PEAK_EACH; k < s->n_peak && k < (line + 1) * PEAK_EACH; k++) {
            if (k > line * PEAK_EACH)
                ob_puts(b, ", ");
            put_xml_mid(b, t[s->peak[k]].name, 26);
            ob_puts(b, " (");
            put_size(b, t[s->peak[k]].size_bytes);
            ob_putc(b, ')');
        }
        if (line == PEAK_LINES - 1 && s->n_peak > (size_t)PEAK_LINES * PEAK_EACH) {
            ob_puts(b, ", and ");
            ob_u64(b, (uint64_t)(s->n_peak - (size_t)PEAK_LINES * PEAK_EACH));
            ob_puts(b, " more");
        }
        ob_puts(b, "</text>\n");
    }
    ob_puts(b, "</g>\n");
}

static void put_swatch(struct outbuf *b, unsigned x, unsigned y, const char *fill,
                       const char *label, const char *title)
{
    ob_puts(b, "<rect x=\"");
    ob_u64(b, x);
    ob_puts(b, "\" y=\"");
    ob_u64(b, y);
    ob_puts(b, "\" width=\"24\" height=\"12\" fill=\"");
    ob_puts(b, fill);
    ob_puts(b, "\"/><text x=\"");
    ob_u64(b, x + 30);
    ob_puts(b, "\" y=\"");
    ob_u64(b, y + 10);
    ob_puts(b, "\">");
    put_xml_cut(b, label, 28);
    if (title) {
        ob_puts(b, "<title>");
        put_xml_text(b, title);
        ob_puts(b, "</title>");
    }
    ob_puts(b, "</text>\n");
}

static void put_legend(struct outbuf *b, const struct legend *l, unsigned y)
{
    ob_puts(b, "<g font-family=\"sans-serif\" font-size=\"12\">\n<line x1=\"80\" y1=\"");
    ob_u64(b, y + 6);
    ob_puts(b, "\" x2=\"110\" y2=\"");
    ob_u64(b, y + 6);
    ob_puts(b, "\" stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>"
               "<text x=\"116\" y=\"");
    ob_u64(b, y + 10);
    ob_puts(b, "\">lower bound: the most bytes alive at one step</text>\n<rect x=\"440\" y=\"");
    ob_u64(b, y);
    ob_puts(b, "\" width=\"24\" height=\"12\" fill=\"none\" stroke=\"" PEAK_RED
               "\" stroke-width=\"2\"/><text x=\"470\" y=\"");
    ob_u64(b, y + 10);
    ob_puts(b, "\">peak step and its tensors</text>\n");
    put_swatch(b, 680, y, PLAN_NO_OP_COLOUR, "no op", NULL);
    char fill[8];
    for (size_t k = 0; k <= l->n; k++) {
        if (k == l->n && l->others == 0)
            break;
        const unsigned col = (unsigned)(k % LEGEND_COLS), row = (unsigned)(k / LEGEND_COLS);
        const unsigned x = 80u + col * 225u, yy = y + 22u + row * 18u;
        if (k == l->n) {
            char label[48];
            snprintf(label, sizeof label, "other: %lu more ops", (unsigned long)l->others);
            put_swatch(b, x, yy, OTHER_COLOUR, label, NULL);
            break;
        }
        cli_plan_op_colour(l->ops[k], fill);
        put_swatch(b, x, yy, fill, l->ops[k], cli_plan_family_name(cli_plan_op_family(l->ops[k])));
    }
    ob_puts(b, "</g>\n");
}

static void put_header(struct outbuf *b, const struct plan_summary *s, const struct plan_view *v,
                       unsigned height)
{
    ob_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
               "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
               "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"1000\" "
               "height=\"");
    ob_u64(b, height);
    ob_puts(b, "\" viewBox=\"0 0 1000 ");
    ob_u64(b, height);
    ob_puts(b, "\">\n<title>dmltensor plan: ");
    ob_u64(b, (uint64_t)s->main_n);
    ob_puts(b, " tensors in ");
    ob_u64(b, s->r.arena_bytes);
    ob_puts(b, " bytes</title>\n<rect x=\"0\" y=\"0\" width=\"1000\" height=\"");
    ob_u64(b, height);
    ob_puts(b, "\" fill=\"#ffffff\"/>\n<g font-family=\"sans-serif\" font-size=\"12\">\n"
               "<text x=\"80\" y=\"20\">");
    ob_u64(b, (uint64_t)s->main_n);
    ob_puts(b, " tensors, arena ");
    cli_ob_bytes(b, dmlt_u128_from_u64(s->r.arena_bytes));
    ob_puts(b, ", lower bound ");
    ob_u64(b, s->r.lower_bound_bytes);
    ob_puts(b, " bytes (ratio ");
    cli_ob_ratio(b, s->r.arena_bytes, s->r.lower_bound_bytes);
    ob_puts(b, "), alignment ");
    ob_u64(b, s->alignment);
    if (v->idx) {
        ob_puts(b, "; the ");
        ob_u64(b, (uint64_t)v->n);
        ob_puts(b, " largest drawn");
    }
    if (s->n_groups > 1) {
        ob_puts(b, "; ");
        ob_u64(b, (uint64_t)(s->n_groups - 1));
        ob_puts(b, " subgraphs in arenas of their own, total ");
        cli_ob_bytes(b, s->total_arena);
    }
    ob_puts(b, "</text>\n<text x=\"80\" y=\"40\">steps: where a tensor starts (a step "
               "that allocates nothing: compressed)</text>\n"
               "<text x=\"20\" y=\"350\" transform=\"rotate(-90 20 350)\" "
               "text-anchor=\"middle\">offset</text>\n</g>\n"
               "<rect x=\"80\" y=\"50\" width=\"900\" height=\"600\" fill=\"#f4f4f4\"/>\n");
}

static bool is_peak(const struct plan_summary *s, const struct planned *t)
{
    const uint64_t p = s->r.peak_step;
    return s->n_peak && t->first <= p && p <= t->last;
}

void cli_plan_render_svg(struct outbuf *b, const struct plan_view *v, const struct plan_summary *s)
{
    const struct planned *t = v->t;
    /* 2^64 steps (a last step of 2^64 - 1) are drawn as 2^64 - 1 */
    uint64_t span = dmlt_u128_fits_u64(s->steps) ? dmlt_u128_to_u64(s->steps) : UINT64_MAX;
    for (size_t i = 0; i < s->main_n; i++)
        if (t[i].last >= span)
            span = t[i].last == UINT64_MAX ? UINT64_MAX : t[i].last + 1;
    if (span == 0)
        span = 1;
    const uint64_t arena = s->r.arena_bytes ? s->r.arena_bytes : 1;
    struct xmap x;
    struct legend l;
    if (!xmap_init(&x, t, s->main_n, span)) {
        b->failed = true; /* out of memory: the dispatcher says so */
        return;
    }
    if (!legend_init(&l, v, s->main_n)) {
        xmap_free(&x);
        b->failed = true;
        return;
    }
    const size_t entries = l.n + (l.others != 0);
    const unsigned rows = (unsigned)((entries + LEGEND_COLS - 1) / LEGEND_COLS);
    const unsigned peak_y = PLOT_Y + PLOT_H + TICKS_H + 14u;
    const unsigned legend_y = peak_y + 16u * (PEAK_LINES + 1) + 14u;
    const unsigned height = legend_y + 22u + rows * 18u + 12u;
    put_header(b, s, v, height);
    put_y_ticks(b, arena);
    for (size_t k = 0; k < v->n; k++) {
        const size_t i = plan_view_at(v, k);
        if (i < s->main_n && t[i].size_bytes != 0)
            put_rect(b, &l, &x, &t[i], v->off[i], arena, is_peak(s, &t[i]));
    }
    if (s->r.lower_bound_bytes != 0) {
        const uint64_t y = y_milli(s->r.lower_bound_bytes, arena);
        ob_puts(b, "<line x1=\"80\" y1=\"");
        put_milli(b, y);
        ob_puts(b, "\" x2=\"980\" y2=\"");
        put_milli(b, y);
        ob_puts(b, "\" stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>\n");
    }
    put_x_ticks(b, &x, t);
    put_peak(b, &x, s, t, peak_y);
    put_legend(b, &l, legend_y);
    ob_puts(b, "</svg>\n");
    xmap_free(&x);
}
