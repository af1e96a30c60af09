/* cmd_map.c - `map`: the offset map. Rows (text, csv, jsonl, json) stream
 * every element in logical row-major order from the core's walk, formatted
 * by hand in place into the output buffer; the part of a line that only
 * outer coordinates decide is built once per row and copied. Views draw the
 * buffer (--view memory) or each 2-D slice (--view grid), bounded by --limit. */
#include "cli.h"
#include "platform.h"
#include "parse.h"

#include <stdlib.h>
#include <string.h>

#define MAP_CHUNK          ((size_t)256 << 10) /* write out when the buffer holds this much */
#define MAP_LINE_MAX       1024u               /* a row's line is shorter than this */
#define VIEW_DEFAULT_LIMIT 256u                /* cells a view draws without --limit */
#define VIEW_MAX_CELLS     100000u             /* and with it: what the budget below can draw */
/* Search nodes a whole view may visit to find who is at each cell (about
 * 0.2 s; as many as one `locate` may visit between two answers). A cell
 * whose search ran out of it is drawn as unknown, never guessed. */
#define VIEW_WORK_BUDGET 2000000ul

/* ---- integers, by hand ------------------------------------------------- */

static unsigned digits_u64(uint64_t v)
{
    unsigned n = 1;
    while (v >= 10) {
        v /= 10;
        n++;
    }
    return n;
}

static char *put_u128(char *p, dmlt_u128 v)
{
    if (dmlt_u128_fits_u64(v))
        return cli_put_u64(p, dmlt_u128_to_u64(v));
    return p + cli_fmt_u128(p, v);
}

static unsigned digits_u128(dmlt_u128 v)
{
    char buf[40];
    return dmlt_u128_fits_u64(v) ? digits_u64(dmlt_u128_to_u64(v)) : (unsigned)cli_fmt_u128(buf, v);
}

/* Right-aligns v in a field of `width` characters. */
static char *put_u128_right(char *p, dmlt_u128 v, unsigned width)
{
    unsigned n = digits_u128(v);
    while (width-- > n)
        *p++ = ' ';
    return put_u128(p, v);
}

/* ---- rows ---------------------------------------------------------------- */

struct rows {
    enum format fmt;
    unsigned rank;
    bool four_bit;
    /* text: column widths */
    unsigned coord_w, offset_w, byte_w;
    /* the line up to the last coordinate, rebuilt when an outer one changes */
    char prefix[MAP_LINE_MAX / 2];
    size_t prefix_len;
};

/* Copies n bytes (not a C string: rows are written in place, unterminated). */
static char *put_bytes(char *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

static void build_prefix(struct rows *r, const uint32_t coord[])
{
    char *p = r->prefix;
    if (r->fmt == FMT_JSONL || r->fmt == FMT_JSON) {
        p = put_bytes(p, "{\"coord\":[", 10);
    }
    for (unsigned d = 0; d + 1 < r->rank; d++) {
        p = cli_put_u64(p, coord[d]);
        *p++ = ',';
    }
    r->prefix_len = (size_t)(p - r->prefix);
}

static char *put_row(char *p, const struct rows *r, const struct dmlt_walk *w)
{
    memcpy(p, r->prefix, r->prefix_len);
    char *start = p;
    p += r->prefix_len;
    p = cli_put_u64(p, w->coord[r->rank - 1]);
    switch (r->fmt) {
    case FMT_TEXT: {
        size_t used = (size_t)(p - start);
        while (used++ < r->coord_w + 2u)
            *p++ = ' ';
        p = put_u128_right(p, w->offset, r->offset_w);
        *p++ = ' ';
        *p++ = ' ';
        p = put_u128_right(p, w->byte_offset, r->byte_w);
        if (r->four_bit) {
            memcpy(p, w->nibble ? "  high" : "  low", w->nibble ? 6 : 5);
            p += w->nibble ? 6 : 5;
        }
        break;
    }
    case FMT_CSV:
        *p++ = ',';
        p = put_u128(p, w->offset);
        *p++ = ',';
        p = put_u128(p, w->byte_offset);
        if (r->four_bit) {
            memcpy(p, w->nibble ? ",high" : ",low", w->nibble ? 5 : 4);
            p += w->nibble ? 5 : 4;
        }
        break;
    case FMT_JSON:
    case FMT_JSONL:
    case FMT_ENV:
    case FMT_C: /* not a format of map: options.c refuses it */
    case FMT_SVG:
        p = put_u128(put_bytes(p, "],\"offset\":", 11), w->offset);
        p = put_u128(put_bytes(p, ",\"byte_offset\":", 15), w->byte_offset);
        if (r->four_bit) {
            memcpy(p, w->nibble ? ",\"nibble\":\"high\"" : ",\"nibble\":\"low\"",
                   w->nibble ? 16 : 15);
            p += w->nibble ? 16 : 15;
        }
        *p++ = '}';
        if (r->fmt == FMT_JSON)
            return p; /* the separator is ",\n", the end "]\n" */
        break;
    }
    *p++ = '\n';
    return p;
}

static void rows_header(struct outbuf *out, struct rows *r, const struct dmlt_tensor *t,
                        const struct dmlt_report *rep, uint64_t base)
{
    if (r->fmt == FMT_CSV) {
        for (unsigned d = 0; d < r->rank; d++) {
            char name[8];
            cli_dim_name(name, r->rank, d);
            if (r->rank > 5) /* no letters: d0, d1, ... */
                ob_putc(out, 'd');
            ob_puts(out, name);
            ob_putc(out, ',');
        }
        ob_puts(out, r->four_bit ? "offset,byte_offset,nibble\n" : "offset,byte_offset\n");
    } else if (r->fmt == FMT_JSON) {
        ob_putc(out, '[');
    } else if (r->fmt == FMT_TEXT) {
        /* The last coordinate is the widest; offsets are at most the last
         * element's index, byte offsets its byte. */
        r->coord_w = 0;
        for (unsigned d = 0; d < r->rank; d++)
            r->coord_w += digits_u64(t->sizes[d] - 1u) + (d ? 1u : 0u);
        if (r->coord_w < 10)
            r->coord_w = 10;
        dmlt_u128 last_byte;
        unsigned nib;
        dmlt_byte_offset(t->dtype, rep->index_of_last_element, base, &last_byte, &nib);
        r->offset_w = digits_u128(rep->index_of_last_element);
        if (r->offset_w < 6)
            r->offset_w = 6;
        r->byte_w = digits_u128(last_byte);
        if (r->byte_w < 11)
            r->byte_w = 11;
        size_t start = out->len;
        ob_puts(out, "coordinate");
        cli_ob_fill_to(out, start, r->coord_w + 2u + r->offset_w - 6u);
        ob_puts(out, "offset  ");
        cli_ob_fill_to(out, start, r->coord_w + 4u + r->offset_w + r->byte_w - 11u);
        ob_puts(out, r->four_bit ? "byte offset  nibble\n" : "byte offset\n");
    }
}

static bool map_rows(const struct tensor_desc *d, const struct dmlt_report *rep, uint64_t limit,
                     enum format fmt, struct outbuf *out, struct cli_error *e)
{
    struct rows r;
    memset(&r, 0, sizeof r);
    r.fmt = fmt;
    r.rank = d->t.rank;
    r.four_bit = dmlt_dtype_get(d->t.dtype)->bits < 8;
    rows_header(out, &r, &d->t, rep, d->base_offset);

    struct dmlt_walk w;
    w.size = sizeof w;
    dmlt_walk_start(&w, &d->t, d->base_offset);
    build_prefix(&r, w.coord);
    uint64_t n = 0;
    do {
        if (w.changed + 1u < r.rank)
            build_prefix(&r, w.coord);
        char *p = cli_ob_space(out, MAP_LINE_MAX + 2);
        if (p == NULL)
            return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        if (fmt == FMT_JSON && n != 0) {
            *p++ = ',';
            *p++ = '\n';
        }
        p = put_row(p, &r, &w);
        out->len = (size_t)(p - out->data);
        if (out->len >= MAP_CHUNK && !cli_drain(out, e))
            return false;
    } while (++n != limit && dmlt_walk_next(&w));
    if (fmt == FMT_JSON) {
        ob_puts(out, "]\n");
    } else if (fmt == FMT_TEXT && n == limit &&
               dmlt_u128_cmp(rep->element_count, dmlt_u128_from_u64(limit)) > 0) {
        char more[40];
        dmlt_u128 rest = {0, 0};
        dmlt_u128_sub(rep->element_count, dmlt_u128_from_u64(limit), &rest);
        more[cli_fmt_u128(more, rest)] = '\0';
        ob_puts(out, "... ");
        ob_puts(out, more);
        ob_puts(out, " more elements (raise --limit)\n");
    }
    return true;
}

/* ---- views --------------------------------------------------------------- */

struct style {
    bool color;
    unsigned width;
};

#define DIM_ON  "\033[2m"
#define HI_ON   "\033[1;33m"
#define SGR_OFF "\033[0m"

/* Up to 3 coordinates at one offset, how many were found (up to 4), and
 * whether the search for them finished. */
struct cell {
    uint32_t coord[3][DMLT_MAX_RANK];
    uint64_t count;
    bool complete;
};

/* What a drawing can say of a cell. */
enum cell_kind {
    CELL_ELEMENT, /* one coordinate */
    CELL_PADDING, /* none */
    CELL_SHARED,  /* several (two found are enough to know) */
    CELL_UNKNOWN  /* the search stopped before it could tell */
};

static enum cell_kind cell_kind(const struct cell *c)
{
    if (c->count > 1)
        return CELL_SHARED;
    if (!c->complete)
        return CELL_UNKNOWN;
    return c->count ? CELL_ELEMENT : CELL_PADDING;
}

static bool collect(void *ctx, const uint32_t coord[], unsigned rank)
{
    struct cell *c = ctx;
    if (c->count < 3)
        memcpy(c->coord[c->count], coord, rank * sizeof coord[0]);
    c->count++;
    return c->count < 4; /* enough to say "more" */
}

/* The view's work budget, shared by its cells. */
struct view_work {
    unsigned long budget; /* search nodes left */
    uint64_t cells_left;  /* cells still to search */
};

/* Who is at offset k, within the view's budget: a cell may spend its share
 * of what is left (more than an even share when the cells before it were
 * cheap, as most are). */
static void locate_cell(const struct dmlt_tensor *t, dmlt_u128 k, struct view_work *w,
                        struct cell *c)
{
    uint64_t found;
    const unsigned long cap = (unsigned long)(w->budget / (w->cells_left ? w->cells_left : 1));
    unsigned long left = cap;
    c->count = 0;
    c->complete = dmlt_locate_budget(t, k, &left, collect, c, &found) == DMLT_OK;
    w->budget -= cap - left;
    if (w->cells_left)
        w->cells_left--;
}

/* An element's name: a letter in logical order when there are at most 26,
 * else its coordinate. */
static void element_name(struct outbuf *b, const struct dmlt_tensor *t, const uint32_t coord[],
                         bool letters)
{
    if (letters) {
        unsigned idx = 0;
        for (unsigned d = 0; d < t->rank; d++)
            idx = idx * t->sizes[d] + coord[d];
        ob_putc(b, (char)('A' + idx));
    } else {
        cli_ob_u32_list(b, coord, t->rank, 1, false);
    }
}

static void put_cell(struct outbuf *b, const char *text, size_t n, unsigned width, const char *sgr,
                     bool color)
{
    for (size_t i = n; i < width; i++)
        ob_putc(b, ' ');
    if (color && sgr)
        ob_puts(b, sgr);
    ob_write(b, text, n);
    if (color && sgr)
        ob_puts(b, SGR_OFF);
}

static void tensor_line(struct outbuf *b, const struct tensor_desc *d)
{
    ob_puts(b, dmlt_dtype_get(d->t.dtype)->name);
    ob_puts(b, ", sizes ");
    cli_ob_u32_list(b, d->t.sizes, d->t.rank, 1, false);
    ob_puts(b, ", strides ");
    cli_ob_u32_list(b, d->t.strides, d->t.rank, 1, false);
}

#define SHARED_LISTED 8 /* shared cells whose coordinates are listed under the picture */

/* Under the picture: the cells it leaves out (past --limit), or else how
 * many cells are padding, shared or unknown. */
static void memory_counts(struct outbuf *out, dmlt_u128 cells, uint64_t shown,
                          const uint64_t count[4])
{
    char n[40];
    if (dmlt_u128_cmp(dmlt_u128_from_u64(shown), cells) < 0) {
        dmlt_u128 rest = {0, 0}, last = {0, 0};
        dmlt_u128_sub(cells, dmlt_u128_from_u64(shown), &rest);
        dmlt_u128_sub(cells, dmlt_u128_from_u64(1), &last);
        n[cli_fmt_u128(n, rest)] = '\0';
        ob_puts(out, "... ");
        ob_puts(out, n);
        ob_puts(out, " more cells (offsets ");
        ob_u64(out, shown);
        ob_puts(out, "..");
        ob_u128(out, last);
        ob_puts(out, "); raise --limit to draw them\n");
    } else {
        ob_u64(out, count[CELL_PADDING]);
        ob_puts(out, count[CELL_PADDING] == 1 ? " padding cell, " : " padding cells, ");
        ob_u64(out, count[CELL_SHARED]);
        ob_puts(out, count[CELL_SHARED] == 1 ? " shared cell" : " shared cells");
        if (count[CELL_UNKNOWN]) {
            ob_puts(out, ", ");
            ob_u64(out, count[CELL_UNKNOWN]);
            ob_puts(out, count[CELL_UNKNOWN] == 1 ? " unknown cell" : " unknown cells");
        }
        ob_putc(out, '\n');
    }
}

/* Who shares each of the first shared cells (listed[0..n_listed), at
 * offsets listed_at[]), and how many more there are. */
static void shared_cells(struct outbuf *out, const struct dmlt_tensor *t, const struct cell *listed,
                         const uint64_t *listed_at, unsigned n_listed, uint64_t shared,
                         bool letters)
{
    for (unsigned i = 0; i < n_listed; i++) {
        const struct cell *c = &listed[i];
        ob_puts(out, i ? "" : "\n");
        ob_puts(out, "offset ");
        ob_u64(out, listed_at[i]);
        ob_puts(out, ":");
        for (uint64_t j = 0; j < c->count && j < 3; j++) {
            ob_putc(out, ' ');
            element_name(out, t, c->coord[j], letters);
        }
        if (c->count > 3 || !c->complete) /* more, or maybe more */
            ob_puts(out, " ...");
        ob_putc(out, '\n');
    }
    if (n_listed == SHARED_LISTED && shared > SHARED_LISTED) {
        ob_puts(out, "(and ");
        ob_u64(out, shared - SHARED_LISTED);
        ob_puts(out, " more shared cells)\n");
    }
}

static bool view_memory(const struct tensor_desc *d, const struct dmlt_report *rep, uint64_t limit,
                        const struct style *st, struct outbuf *out, struct cli_error *e)
{
    const struct dmlt_tensor *t = &d->t;
    const unsigned bits = dmlt_dtype_get(t->dtype)->bits;
    dmlt_u128 cells = rep->extent_elements, total_cells;
    /* total x 8 < 2^67: the product fits. */
    if (d->has_total &&
        dmlt_u128_mul(dmlt_u128_from_u64(d->total), dmlt_u128_from_u64(8), &total_cells) &&
        dmlt_u128_divmod(total_cells, bits, &total_cells, NULL) &&
        dmlt_u128_cmp(total_cells, cells) > 0)
        cells = total_cells;
    const uint64_t shown =
        dmlt_u128_cmp(cells, dmlt_u128_from_u64(limit)) < 0 ? dmlt_u128_to_u64(cells) : limit;
    const bool letters = dmlt_u128_cmp(rep->element_count, dmlt_u128_from_u64(26)) <= 0;

    /* Pass 1: each cell's label, to size the columns. */
    struct outbuf labels; /* the labels, NUL-separated */
    cli_ob_init(&labels);
    size_t *at = malloc((size_t)shown * sizeof *at);
    unsigned char *kind = malloc((size_t)shown); /* enum cell_kind */
    if (at == NULL || kind == NULL) {
        free(at);
        free(kind);
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    unsigned cell_w = digits_u64(shown - 1);
    uint64_t count[4] = {0}; /* cells of each kind */
    struct view_work work = {VIEW_WORK_BUDGET, shown};
    struct cell listed[SHARED_LISTED]; /* the first shared cells, for the list */
    uint64_t listed_at[SHARED_LISTED];
    unsigned n_listed = 0;
    for (uint64_t k = 0; k < shown; k++) {
        struct cell c;
        locate_cell(t, dmlt_u128_from_u64(k), &work, &c);
        at[k] = labels.len;
        kind[k] = (unsigned char)cell_kind(&c);
        count[kind[k]]++;
        switch ((enum cell_kind)kind[k]) {
        case CELL_PADDING:
            ob_putc(&labels, 'x');
            break;
        case CELL_ELEMENT:
            element_name(&labels, t, c.coord[0], letters);
            break;
        case CELL_SHARED:
            element_name(&labels, t, c.coord[0], letters);
            ob_putc(&labels, '*');
            if (n_listed < SHARED_LISTED) {
                listed[n_listed] = c;
                listed_at[n_listed++] = k;
            }
            break;
        case CELL_UNKNOWN: /* its first coordinate, if found: maybe more */
            if (c.count)
                element_name(&labels, t, c.coord[0], letters);
            ob_putc(&labels, '?');
            break;
        }
        size_t w = labels.len - at[k];
        if (w > cell_w)
            cell_w = (unsigned)w;
        ob_putc(&labels, '\0');
    }

    char n[40];
    tensor_line(out, d);
    ob_putc(out, '\n');
    n[cli_fmt_u128(n, cells)] = '\0';
    ob_puts(out, n);
    ob_puts(out, dmlt_u128_eq(cells, dmlt_u128_from_u64(1)) ? " cell: " : " cells: ");
    n[cli_fmt_u128(n, rep->element_count)] = '\0';
    ob_puts(out, n);
    ob_puts(out,
            dmlt_u128_eq(rep->element_count, dmlt_u128_from_u64(1)) ? " element" : " elements");
    ob_puts(out, letters ? " (A, B, ... in logical order)" : " (by coordinate)");
    ob_puts(out, ", x padding, * shared by several coordinates");
    if (count[CELL_UNKNOWN])
        ob_puts(out, ", ? unknown (the search stopped at the view's work limit)");
    ob_puts(out, "\n\n");

    /* Rows of cells, wrapped to the width. */
    const unsigned label_w = 8; /* "offset  " */
    unsigned per_line = st->width > label_w + cell_w ? (st->width - label_w) / (cell_w + 1) : 1;
    if (per_line == 0)
        per_line = 1;
    for (uint64_t first = 0; first < shown; first += per_line) {
        uint64_t end = first + per_line < shown ? first + per_line : shown;
        ob_puts(out, "offset ");
        for (uint64_t k = first; k < end; k++) {
            char num[24];
            size_t len = (size_t)(cli_put_u64(num, k) - num);
            put_cell(out, num, len, cell_w + 1, NULL, false);
        }
        ob_puts(out, "\nelement");
        for (uint64_t k = first; k < end; k++) {
            const char *text = labels.data + at[k];
            const char *sgr = kind[k] == CELL_PADDING  ? DIM_ON
                              : kind[k] == CELL_SHARED ? HI_ON
                                                       : NULL;
            put_cell(out, text, strlen(text), cell_w + 1, sgr, st->color);
        }
        ob_puts(out, end < shown ? "\n\n" : "\n");
    }
    memory_counts(out, cells, shown, count);
    shared_cells(out, t, listed, listed_at, n_listed, count[CELL_SHARED], letters);
    free(at);
    free(kind);
    cli_ob_free(&labels);
    return true;
}

/* "n=0, c=1" for the outer dims of a slice. */
static void slice_title(struct outbuf *b, unsigned rank, const uint32_t coord[], unsigned outer)
{
    for (unsigned dd = 0; dd < outer; dd++) {
        char name[8];
        cli_dim_name(name, rank, dd);
        if (dd)
            ob_puts(b, ", ");
        if (rank > 5)
            ob_putc(b, 'd');
        ob_puts(b, name);
        ob_putc(b, '=');
        ob_u64(b, coord[dd]);
    }
    ob_puts(b, ":\n");
}

/* The cells a grid draws: every coordinate but the columns cut, up to
 * limit (saturating: a grid can have past 2^64 cells). */
static uint64_t grid_cells(const struct dmlt_tensor *t, uint32_t cols_shown, uint64_t limit)
{
    uint64_t n = cols_shown;
    for (unsigned d = 0; d + 1 < t->rank && n < limit; d++)
        n = n > limit / t->sizes[d] ? limit : n * t->sizes[d];
    return n < limit ? n : limit;
}

/* The grid's heading: the tensor, and which dims are its rows and
 * columns (rname empty for a rank-1 tensor: columns only). */
static void grid_heading(struct outbuf *out, const struct tensor_desc *d, const char *rname,
                         const char *cname, bool mark_shared)
{
    const unsigned rank = d->t.rank;
    tensor_line(out, d);
    ob_puts(out, "\n");
    if (rank >= 2) {
        ob_puts(out, "rows ");
        if (rank > 5)
            ob_putc(out, 'd');
        ob_puts(out, rname);
        ob_puts(out, ", ");
    }
    ob_puts(out, "columns ");
    if (rank > 5)
        ob_putc(out, 'd');
    ob_puts(out, cname);
    ob_puts(out, ": the element offset of each coordinate");
    ob_puts(out, mark_shared ? " (* where several coordinates share it)\n" : "\n");
}

/* A slice's first line: the column numbers over the cells, right-aligned
 * as the offsets under them, "..." when columns are cut. */
static void grid_column_numbers(struct outbuf *out, unsigned row_w, unsigned cell_w,
                                uint32_t cols_shown, uint32_t cols, bool mark_shared)
{
    for (unsigned i = 0; i < row_w; i++)
        ob_putc(out, ' ');
    for (uint32_t c = 0; c < cols_shown; c++) {
        char num[24];
        char *end = cli_put_u64(num, c);
        if (mark_shared)
            *end++ = ' '; /* over the digits, not the mark */
        put_cell(out, num, (size_t)(end - num), cell_w + 1, NULL, false);
    }
    ob_puts(out, cols_shown < cols ? " ...\n" : "\n");
}

static bool view_grid(const struct tensor_desc *d, const struct dmlt_report *rep, uint64_t limit,
                      const struct style *st, struct outbuf *out, struct cli_error *e)
{
    const struct dmlt_tensor *t = &d->t;
    const unsigned rank = t->rank;
    const unsigned outer = rank >= 2 ? rank - 2 : 0; /* dims that name slices */
    const uint32_t rows = rank >= 2 ? t->sizes[rank - 2] : 1;
    const uint32_t cols = t->sizes[rank - 1];
    char rname[8] = "", cname[8];
    if (rank >= 2)
        cli_dim_name(rname, rank, rank - 2);
    cli_dim_name(cname, rank, rank - 1);
    const bool mark_shared = rep->overlapping != DMLT_NO;

    /* Cells right-align the offset; a shared one ends in '*', one that may
     * be in '?', others in ' '. */
    unsigned cell_w = digits_u128(rep->index_of_last_element) + (mark_shared ? 1u : 0u);
    if (digits_u64(cols - 1u) > cell_w)
        cell_w = digits_u64(cols - 1u);
    const unsigned row_w = (unsigned)strlen(rname) + (rank > 5 ? 2u : 1u) + digits_u64(rows - 1u);
    uint64_t fit = st->width > row_w ? (st->width - row_w) / (cell_w + 1u) : 0;
    const uint32_t cols_shown = fit == 0 ? 1 : fit < cols ? (uint32_t)fit : cols;

    grid_heading(out, d, rname, cname, mark_shared);

    uint32_t coord[DMLT_MAX_RANK] = {0};
    uint64_t drawn = 0, unknown = 0;
    struct view_work work = {VIEW_WORK_BUDGET, grid_cells(t, cols_shown, limit)};
    bool stopped = false;
    for (;;) {
        ob_putc(out, '\n');
        if (outer)
            slice_title(out, rank, coord, outer);
        grid_column_numbers(out, row_w, cell_w, cols_shown, cols, mark_shared);
        for (uint32_t r = 0; r < rows; r++) {
            if (drawn >= limit) {
                stopped = true;
                goto done;
            }
            size_t start = out->len;
            if (rank >= 2) {
                if (rank > 5)
                    ob_putc(out, 'd');
                ob_puts(out, rname);
                ob_putc(out, '=');
                ob_u64(out, r);
                coord[rank - 2] = r;
            }
            cli_ob_fill_to(out, start, row_w);
            uint32_t c = 0;
            for (; c < cols_shown && drawn < limit; c++, drawn++) {
                coord[rank - 1] = c;
                dmlt_u128 k;
                struct dmlt_error err;
                dmlt_offset(t, coord, &k, &err);
                char num[48];
                size_t len = (size_t)(put_u128(num, k) - num);
                const char *sgr = NULL;
                if (mark_shared) {
                    struct cell cl;
                    locate_cell(t, k, &work, &cl);
                    enum cell_kind ck = cell_kind(&cl);
                    num[len++] = (char)(ck == CELL_SHARED ? '*' : ck == CELL_UNKNOWN ? '?' : ' ');
                    sgr = ck == CELL_SHARED ? HI_ON : NULL;
                    unknown += ck == CELL_UNKNOWN;
                }
                put_cell(out, num, len, cell_w + 1, sgr, st->color);
            }
            ob_puts(out, c < cols ? " ...\n" : "\n");
            stopped = c < cols_shown; /* --limit cut the row */
            if (out->len >= MAP_CHUNK && !cli_drain(out, e))
                return false;
        }
        /* The next slice: count up the outer dims, the last fastest. */
        unsigned dd = outer;
        while (dd > 0 && coord[dd - 1] + 1u == t->sizes[dd - 1])
            coord[--dd] = 0;
        if (dd == 0)
            break;
        coord[dd - 1]++;
        if (drawn >= limit) {
            stopped = true;
            break;
        }
    }
done:
    if (stopped) {
        ob_puts(out, "... (drew ");
        ob_u64(out, drawn);
        ob_puts(out, " cells; raise --limit to draw more)\n");
    }
    if (unknown) {
        ob_puts(out, "(? marks ");
        ob_u64(out, unknown);
        ob_puts(out, unknown == 1 ? " cell" : " cells");
        ob_puts(out, " whose search for other coordinates at the same offset stopped at the "
                     "view's work limit: shared or not is unknown)\n");
    }
    if (cols_shown < cols) {
        ob_puts(out, "(columns ");
        ob_u64(out, cols_shown);
        ob_puts(out, "..");
        ob_u64(out, cols - 1u);
        ob_puts(out, " do not fit in ");
        ob_u64(out, st->width);
        ob_puts(out, " columns; see --width)\n");
    }
    return true;
}

/* ---- the command ---------------------------------------------------------- */

static bool want_color(const char *when, FILE *f, struct cli_error *e, bool *out)
{
    if (when == NULL || strcmp(when, "auto") == 0) {
        *out = cli_plat_color_auto(f);
        return true;
    }
    if (strcmp(when, "always") == 0 || strcmp(when, "never") == 0) {
        *out = when[0] == 'a';
        if (*out)
            cli_plat_color_enable(f);
        return true;
    }
    cli_fail(e, CLI_E_BAD_COLOR, "--color", when, "not auto, always or never");
    cli_hint(e, "colour is on only on a terminal by default; NO_COLOR turns it off");
    return false;
}

static bool run_map(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct tensor_desc d;
    if (!cli_describe_tensor(&cfg->t, &d, e))
        return false;
    uint64_t limit = 0, width = 0;
    if (cfg->limit && !cli_parse_uint(cfg->limit, strlen(cfg->limit), 1, UINT64_MAX, &limit, e,
                                      "--limit", cfg->limit, "the limit", NULL))
        return false;
    if (cfg->width && !cli_parse_uint(cfg->width, strlen(cfg->width), 20, 100000, &width, e,
                                      "--width", cfg->width, "the width", NULL))
        return false;
    if (cfg->view && limit > VIEW_MAX_CELLS) {
        cli_fail(e, CLI_E_OUT_OF_RANGE, "--limit", cfg->limit, "a view draws at most %u cells",
                 VIEW_MAX_CELLS);
        cli_hint(e, "for more, list the elements: drop --view");
        return false;
    }
    enum { VIEW_NONE, VIEW_MEMORY, VIEW_GRID } view = VIEW_NONE;
    if (cfg->view) {
        if (strcmp(cfg->view, "memory") == 0) {
            view = VIEW_MEMORY;
        } else if (strcmp(cfg->view, "grid") == 0) {
            view = VIEW_GRID;
        } else {
            cli_fail(e, CLI_E_BAD_VIEW, "--view", cfg->view, "not a view (memory or grid)");
            cli_hint(e, "memory draws the buffer cell by cell; grid draws each 2-D slice");
            return false;
        }
        if (cfg->format_text && cfg->format != FMT_TEXT)
            return cli_fail(e, CLI_E_CONFLICTING_OPTIONS, "--view", cfg->view,
                            "draws text; it cannot be combined with --format %s", cfg->format_text);
    } else if (cfg->color || cfg->width) {
        return cli_fail(e, CLI_E_CONFLICTING_OPTIONS, cfg->color ? "--color" : "--width",
                        cfg->color ? cfg->color : cfg->width, "applies to --view only");
    }
    struct style st = {false, width ? (unsigned)width : cli_plat_term_width(out->sink)};
    if (!want_color(cfg->color, out->sink, e, &st.color))
        return false;

    struct dmlt_report rep;
    rep.size = sizeof rep;
    struct dmlt_error err;
    if (dmlt_report_compute(&d.t, d.has_total ? &d.total : NULL, &rep, &err) != DMLT_OK)
        return cli_fail(e, CLI_E_ELEMENT_COUNT_RANGE, "--sizes", cfg->t.sizes,
                        "the tensor is past 2^128 bits, beyond what dmltensor computes exactly");
    bool ok = false;
    switch (view) {
    case VIEW_MEMORY:
        return view_memory(&d, &rep, limit ? limit : VIEW_DEFAULT_LIMIT, &st, out, e);
    case VIEW_GRID:
        ok = view_grid(&d, &rep, limit ? limit : VIEW_DEFAULT_LIMIT, &st, out, e);
        break;
    case VIEW_NONE:
        ok = map_rows(&d, &rep, limit, cfg->format, out, e);
        break;
    }
    return ok;
}

const struct command cli_cmd_map = {
    .name = "map",
    .id = CMD_MAP,
    .summary = "every element's offsets, streamed; or a picture of the buffer",
    .usage = "dmltensor map --sizes LIST [OPTIONS]",
    .about = "Every element in logical row-major order (the last dim fastest) with its\n"
             "element offset and byte offset, streamed in constant memory: safe to pipe\n"
             "into head, or to write millions of lines. --view draws the buffer instead:\n"
             "memory shows each cell of the buffer and which element is in it (x for\n"
             "padding, * for a cell several coordinates share, ? for one the search\n"
             "could not settle within the view's work limit); grid shows each 2-D\n"
             "slice (the last two logical dims) with the offset in each cell.\n",
    .examples =
        "  dmltensor map --sizes 2,3 --pad w=2\n"
        "  dmltensor map --sizes 2,3 --pad w=2 --view memory\n"
        "  dmltensor map --sizes 1,2,2,3 --layout nhwc --view grid\n"
        "  dmltensor map --dtype float16 --sizes 1,3,224,224 --layout nhwc --format csv | head\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_CSV) | FMT_BIT(FMT_JSONL),
    .format_help =
        "text (default, aligned columns), csv (with a header row), jsonl (an object per line) "
        "or json (one array)",
    .batch = false,
    .tensor = true,
    .run = run_map,
};
