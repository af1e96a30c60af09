/* plan_svg.c - `plan --format svg`: the plan as a picture, SVG 1.1.
 *
 * Steps run across, offsets down: tensor i is the rectangle from
 * x(first) to x(last + 1) and from y(offset) to y(offset + size), where
 *   x(s) = PLOT_X + s x PLOT_W / span   (span = the steps, at least last + 1)
 *   y(o) = PLOT_Y + o x PLOT_H / arena
 * in user units (the viewBox is the picture's size in pixels), each
 * coordinate written with three decimals, rounded down: exact integer
 * arithmetic, so the same plan gives the same bytes everywhere. Its fill
 * is the colour of its op (the legend's first 18 ops one colour each,
 * further ops a hash of the name into the same palette; grey without one) and its <title> says its
 * name, op, size and offset. The lower bound is a dashed line at y(lower bound); the peak step a
 * red outline around x(peak)..x(peak + 1); the legend below names them and the colours. */
#include "plan_out.h"

#include <string.h>

#define PLOT_X      80u
#define PLOT_Y      50u
#define PLOT_W      900u
#define PLOT_H      600u
#define WIDTH       1000u
#define LEGEND_ROWS 6u /* op colours: 3 a row */

static const char *const PALETTE[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2",
                                      "#edc948", "#9c755f", "#e15759", "#17becf", "#bcbd22",
                                      "#1f3f7a", "#8c564b", "#ff9da7", "#6b8e23", "#d4a6c8",
                                      "#5f9ea0", "#cd853f", "#7f7fff"};
#define N_PALETTE (sizeof PALETTE / sizeof PALETTE[0])
#define NO_OP     "#a0a0a0"
#define N_LEGEND  N_PALETTE /* ops named in the legend, each its own colour */

/* The legend's ops: the first N_LEGEND distinct ones, in input order. */
struct legend {
    const char *ops[N_LEGEND];
    size_t n;
};

/* The colour of an op: the legend's k-th op has PALETTE[k]; an op past
 * the legend a hash of its name into the palette; no op grey. */
static const char *op_colour(const struct legend *l, const char *op)
{
    if (op == NULL)
        return NO_OP;
    for (size_t k = 0; k < l->n; k++)
        if (strcmp(l->ops[k], op) == 0)
            return PALETTE[k];
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)op; *p; p++)
        h = (h ^ *p) * 16777619u;
    return PALETTE[h % N_PALETTE];
}

/* base + v x scale / den in thousandths of a unit, as "12.345". */
static void put_coord(struct outbuf *b, unsigned base, uint64_t v, unsigned scale, uint64_t den)
{
    dmlt_u128 num, q;
    (void)dmlt_u128_mul(dmlt_u128_from_u64(v), dmlt_u128_from_u64((uint64_t)scale * 1000u), &num);
    (void)dmlt_u128_divmod(num, den ? den : 1, &q, NULL);
    uint64_t milli = dmlt_u128_to_u64(q) + (uint64_t)base * 1000u; /* at most scale x 1000 */
    ob_u64(b, milli / 1000);
    char frac[5] = {'.', (char)('0' + milli / 100 % 10), (char)('0' + milli / 10 % 10),
                    (char)('0' + milli % 10), 0};
    ob_puts(b, frac);
}

/* Text for XML, escaped by the one function every text output shares. */
static void put_xml_text(struct outbuf *b, const char *s)
{
    ob_xml_text(b, s);
}

static void put_rect(struct outbuf *b, const struct legend *l, const struct planned *t,
                     uint64_t off, uint64_t span, uint64_t arena)
{
    ob_puts(b, "<rect x=\"");
    put_coord(b, PLOT_X, t->first, PLOT_W, span);
    ob_puts(b, "\" y=\"");
    put_coord(b, PLOT_Y, off, PLOT_H, arena);
    ob_puts(b, "\" width=\"");
    /* width and height as differences of the rounded ends, so that
     * neighbours meet exactly */
    dmlt_u128 a, z, qa, qz;
    (void)dmlt_u128_mul(dmlt_u128_from_u64(t->first), dmlt_u128_from_u64((uint64_t)PLOT_W * 1000u),
                        &a);
    (void)dmlt_u128_mul(dmlt_u128_from_u64(t->last + 1 > t->last ? t->last + 1 : t->last),
                        dmlt_u128_from_u64((uint64_t)PLOT_W * 1000u), &z);
    (void)dmlt_u128_divmod(a, span, &qa, NULL);
    (void)dmlt_u128_divmod(z, span, &qz, NULL);
    put_coord(b, 0, dmlt_u128_to_u64(qz) - dmlt_u128_to_u64(qa), 1, 1000);
    ob_puts(b, "\" height=\"");
    (void)dmlt_u128_mul(dmlt_u128_from_u64(off), dmlt_u128_from_u64((uint64_t)PLOT_H * 1000u), &a);
    (void)dmlt_u128_mul(dmlt_u128_from_u64(off + t->size_bytes),
                        dmlt_u128_from_u64((uint64_t)PLOT_H * 1000u), &z);
    (void)dmlt_u128_divmod(a, arena, &qa, NULL);
    (void)dmlt_u128_divmod(z, arena, &qz, NULL);
    put_coord(b, 0, dmlt_u128_to_u64(qz) - dmlt_u128_to_u64(qa), 1, 1000);
    ob_puts(b, "\" fill=\"");
    ob_puts(b, op_colour(l, t->op));
    ob_puts(b, "\" stroke=\"#ffffff\" stroke-width=\"0.5\"><title>");
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
    ob_puts(b, "</title></rect>\n");
}

static void legend_init(struct legend *l, const struct planned *t, size_t n)
{
    l->n = 0;
    for (size_t i = 0; i < n && l->n < N_LEGEND; i++) {
        if (t[i].op == NULL)
            continue;
        bool seen = false;
        for (size_t k = 0; k < l->n && !seen; k++)
            seen = strcmp(l->ops[k], t[i].op) == 0;
        if (!seen)
            l->ops[l->n++] = t[i].op;
    }
}

static void put_legend(struct outbuf *b, const struct legend *l, unsigned y)
{
    ob_puts(b, "<g font-family=\"sans-serif\" font-size=\"12\">\n");
    ob_puts(b, "<line x1=\"80\" y1=\"");
    ob_u64(b, y + 6);
    ob_puts(b, "\" x2=\"110\" y2=\"");
    ob_u64(b, y + 6);
    ob_puts(b, "\" stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>"
               "<text x=\"116\" y=\"");
    ob_u64(b, y + 10);
    ob_puts(b, "\">lower bound: the most bytes alive at one step</text>\n"
               "<rect x=\"440\" y=\"");
    ob_u64(b, y);
    ob_puts(b, "\" width=\"24\" height=\"12\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>"
               "<text x=\"470\" y=\"");
    ob_u64(b, y + 10);
    ob_puts(b, "\">peak step</text>\n<rect x=\"600\" y=\"");
    ob_u64(b, y);
    ob_puts(b, "\" width=\"24\" height=\"12\" fill=\"" NO_OP "\"/><text x=\"630\" y=\"");
    ob_u64(b, y + 10);
    ob_puts(b, "\">a tensor (colour: its op; no op: grey)</text>\n");
    for (size_t k = 0; k < l->n; k++) {
        const unsigned x = 80u + (unsigned)(k % 3) * 300u, yy = y + 20u + (unsigned)(k / 3) * 18u;
        ob_puts(b, "<rect x=\"");
        ob_u64(b, x);
        ob_puts(b, "\" y=\"");
        ob_u64(b, yy);
        ob_puts(b, "\" width=\"24\" height=\"12\" fill=\"");
        ob_puts(b, PALETTE[k]);
        ob_puts(b, "\"/><text x=\"");
        ob_u64(b, x + 30);
        ob_puts(b, "\" y=\"");
        ob_u64(b, yy + 10);
        ob_puts(b, "\">");
        put_xml_text(b, l->ops[k]);
        ob_puts(b, "</text>\n");
    }
    ob_puts(b, "</g>\n");
}

static void put_header(struct outbuf *b, const struct plan_summary *s, uint64_t span,
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
    ob_u64(b, (uint64_t)s->tensors);
    ob_puts(b, " tensors in ");
    ob_u64(b, s->r.arena_bytes);
    ob_puts(b, " bytes</title>\n<rect x=\"0\" y=\"0\" width=\"1000\" height=\"");
    ob_u64(b, height);
    ob_puts(b, "\" fill=\"#ffffff\"/>\n<g font-family=\"sans-serif\" font-size=\"12\">\n"
               "<text x=\"80\" y=\"20\">");
    ob_u64(b, (uint64_t)s->tensors);
    ob_puts(b, " tensors, arena ");
    ob_u64(b, s->r.arena_bytes);
    ob_puts(b, " bytes, lower bound ");
    ob_u64(b, s->r.lower_bound_bytes);
    ob_puts(b, " bytes (ratio ");
    ob_ratio(b, s->r.arena_bytes, s->r.lower_bound_bytes);
    ob_puts(b, "), alignment ");
    ob_u64(b, s->alignment);
    ob_puts(b, "</text>\n<text x=\"80\" y=\"42\">step 0</text><text x=\"980\" y=\"42\" "
               "text-anchor=\"end\">step ");
    ob_u64(b, span == UINT64_MAX ? UINT64_MAX : span - 1); /* the last step */
    ob_puts(b, "</text>\n<text x=\"74\" y=\"60\" text-anchor=\"end\">0</text>"
               "<text x=\"74\" y=\"650\" text-anchor=\"end\">");
    ob_u64(b, s->r.arena_bytes);
    ob_puts(b, "</text>\n<text x=\"74\" y=\"350\" text-anchor=\"end\">offset</text>\n</g>\n"
               "<rect x=\"80\" y=\"50\" width=\"900\" height=\"600\" fill=\"#f4f4f4\"/>\n");
}

void plan_render_svg(struct outbuf *b, const struct planned *t, const uint64_t *offsets, size_t n,
                     const struct plan_summary *s)
{
    /* 2^64 steps (a last step of 2^64 - 1) are drawn as 2^64 - 1 */
    uint64_t span = dmlt_u128_fits_u64(s->steps) ? dmlt_u128_to_u64(s->steps) : UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        if (t[i].last >= span)
            span = t[i].last == UINT64_MAX ? UINT64_MAX : t[i].last + 1;
    if (span == 0)
        span = 1;
    const uint64_t arena = s->r.arena_bytes ? s->r.arena_bytes : 1;
    const unsigned height = PLOT_Y + PLOT_H + 30u + 20u + LEGEND_ROWS * 18u;
    struct legend l;
    legend_init(&l, t, n);
    put_header(b, s, span, height);
    for (size_t i = 0; i < n; i++)
        if (t[i].size_bytes != 0)
            put_rect(b, &l, &t[i], offsets[i], span, arena);
    if (s->r.lower_bound_bytes != 0) {
        ob_puts(b, "<line x1=\"80\" y1=\"");
        put_coord(b, PLOT_Y, s->r.lower_bound_bytes, PLOT_H, arena);
        ob_puts(b, "\" x2=\"980\" y2=\"");
        put_coord(b, PLOT_Y, s->r.lower_bound_bytes, PLOT_H, arena);
        ob_puts(b, "\" stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"6,3\"/>\n");
        ob_puts(b, "<rect x=\"");
        put_coord(b, PLOT_X, s->r.peak_step, PLOT_W, span);
        ob_puts(b, "\" y=\"50\" width=\"");
        put_coord(b, 0, 1, PLOT_W, span);
        ob_puts(b, "\" height=\"600\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>\n");
    }
    put_legend(b, &l, PLOT_Y + PLOT_H + 30u);
    ob_puts(b, "</svg>\n");
}
