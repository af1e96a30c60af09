/* cmd_view.c - `view`: the descriptor and binding of views of a tensor that
 * lives in a buffer (docs/views.md). The operations' texts are parsed here
 * against the view's current rank; the core (dmlt_view_*) does the
 * arithmetic; this file checks each view as validate does, looks for the
 * parent padding that would align every view on 16 bytes, and renders. */
#include "cli.h"
#include "render_c.h"
#include "parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_VIEWS   4096 /* views one command may print (--split parts) */
#define MAX_FIX_PAD 64   /* pads tried for a fix: 16 bytes hold at most 32 elements */

/* ---- parsing the operations ----------------------------------------------- */

/* A signed decimal integer: an optional '-', then digits. Python clamps
 * slice bounds, so a magnitude past 2^63 - 1 saturates rather than fails. */
static bool parse_int(const char *p, size_t len, int64_t *out, struct cli_error *e,
                      const char *option, const char *whole, const char *what)
{
    bool neg = len > 0 && p[0] == '-';
    size_t i = neg ? 1 : 0;
    if (i == len)
        return cli_fail(e, CLI_E_EMPTY_FIELD, option, whole, "%s is empty", what);
    uint64_t v = 0;
    for (; i < len; i++) {
        if (p[i] < '0' || p[i] > '9') {
            cli_fail(e, CLI_E_BAD_NUMBER, option, whole, "%s \"%.*s\" is not a decimal integer",
                     what, (int)(len > 40 ? 40 : len), p);
            if (p[i] == '+')
                cli_hint(e, "write a positive number without a sign");
            return false;
        }
        unsigned digit = (unsigned)(p[i] - '0');
        v = v > ((uint64_t)INT64_MAX - digit) / 10 ? (uint64_t)INT64_MAX : v * 10 + digit;
    }
    *out = neg ? -(int64_t)v : (int64_t)v;
    return true;
}

/* "DIM=REST": the dim (a letter of the current rank or an index) and REST. */
static bool parse_dim_eq(const char *text, unsigned rank, unsigned *dim, const char **rest,
                         struct cli_error *e, const char *option, const char *example)
{
    const char *eq = strchr(text, '=');
    if (eq == NULL) {
        cli_fail(e, CLI_E_BAD_OPERATION, option, text, "expected %s", example);
        return false;
    }
    if (!parse_dim(text, (size_t)(eq - text), rank, dim, e, option, text))
        return false;
    *rest = eq + 1;
    return true;
}

/* The current rank's name for dim d: its letter, or its index. */
static const char *dname(char buf[8], unsigned rank, unsigned d)
{
    dim_name(buf, rank, d);
    return buf;
}

static void sizes_text(char *buf, size_t size, const uint32_t *v, unsigned n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < n && used < size; i++) {
        int w = snprintf(buf + used, size - used, i ? ",%" PRIu32 : "%" PRIu32, v[i]);
        used += w > 0 ? (size_t)w : 0;
    }
}

static bool range_error(struct cli_error *e, const char *option, const char *text)
{
    cli_fail(e, CLI_E_OUT_OF_RANGE, option, text,
             "the view's offset would pass 2^64 - 1 elements, or a stride 4294967295 (DirectML "
             "strides are 32-bit)");
    return false;
}

static bool apply_slice(struct dmlt_view *v, const char *text, struct cli_error *e)
{
    const char *opt = "--slice", *rest;
    unsigned dim;
    if (!parse_dim_eq(text, v->t.rank, &dim, &rest, e, opt, "DIM=START:STOP[:STEP], like h=0:2"))
        return false;
    const char *c1 = strchr(rest, ':');
    if (c1 == NULL) {
        cli_fail(e, CLI_E_BAD_OPERATION, opt, text, "expected DIM=START:STOP[:STEP], like h=0:2");
        cli_hint(e, "to take one index and drop the dim, use --select DIM=INDEX");
        return false;
    }
    const char *c2 = strchr(c1 + 1, ':');
    const char *stop_end = c2 ? c2 : c1 + 1 + strlen(c1 + 1);
    if (c2 && strchr(c2 + 1, ':'))
        return cli_fail(e, CLI_E_BAD_OPERATION, opt, text,
                        "more than two ':' (DIM=START:STOP[:STEP])");
    int64_t start = 0, stop = 0, step = 1;
    bool has_start = c1 > rest, has_stop = stop_end > c1 + 1;
    if (has_start && !parse_int(rest, (size_t)(c1 - rest), &start, e, opt, text, "START"))
        return false;
    if (has_stop && !parse_int(c1 + 1, (size_t)(stop_end - c1 - 1), &stop, e, opt, text, "STOP"))
        return false;
    if (c2 && c2[1] != '\0' && !parse_int(c2 + 1, strlen(c2 + 1), &step, e, opt, text, "STEP"))
        return false;
    char dn[8];
    if (step == 0)
        return cli_fail(e, CLI_E_BAD_STEP, opt, text, "the step is 0 (a slice steps by 1 or more)");
    if (step < 0) {
        cli_fail(e, CLI_E_NEGATIVE_STEP, opt, text,
                 "a negative step reverses the dim: DirectML strides are unsigned, so a reversed "
                 "view needs a copy");
        cli_hint(e, "slice with a positive step and reverse the data in a copy");
        return false;
    }
    struct dmlt_error err;
    switch (
        dmlt_view_slice(v, dim, has_start ? &start : NULL, has_stop ? &stop : NULL, step, &err)) {
    case DMLT_OK:
        return true;
    case DMLT_E_ZERO_SIZE:
        cli_fail(e, CLI_E_EMPTY_SLICE, opt, text,
                 "selects nothing from %s (size %" PRIu32 "): DirectML has no zero sizes",
                 dname(dn, v->t.rank, dim), v->t.sizes[dim]);
        cli_hint(e, "indices of %s are 0..%" PRIu32 " (or -%" PRIu32 "..-1 from the end)", dn,
                 v->t.sizes[dim] - 1, v->t.sizes[dim]);
        return false;
    case DMLT_E_RANGE:
        return range_error(e, opt, text);
    case DMLT_E_INVALID:
    case DMLT_E_RANK:
    case DMLT_E_DTYPE:
    case DMLT_E_LAYOUT:
    case DMLT_E_COORD:
    case DMLT_E_WORK_CAP:
        break;
    }
    return cli_fail(e, CLI_E_INTERNAL, opt, text, "unexpected error slicing");
}

static bool apply_select(struct dmlt_view *v, const char *text, struct cli_error *e)
{
    const char *opt = "--select", *rest;
    unsigned dim;
    int64_t index = 0;
    if (!parse_dim_eq(text, v->t.rank, &dim, &rest, e, opt, "DIM=INDEX, like n=0") ||
        !parse_int(rest, strlen(rest), &index, e, opt, text, "INDEX"))
        return false;
    struct dmlt_error err;
    char dn[8];
    switch (dmlt_view_select(v, dim, index, &err)) {
    case DMLT_OK:
        return true;
    case DMLT_E_COORD:
        cli_fail(e, CLI_E_INDEX_RANGE, opt, text, "index %.40s is outside %s (size %" PRIu32 ")",
                 rest, dname(dn, v->t.rank, dim), v->t.sizes[dim]);
        cli_hint(e, "indices of %s are 0..%" PRIu32 " (or -%" PRIu32 "..-1 from the end)", dn,
                 v->t.sizes[dim] - 1, v->t.sizes[dim]);
        return false;
    case DMLT_E_RANK:
        cli_fail(e, CLI_E_SELECT_RANK, opt, text,
                 "would drop the only dim: a DirectML tensor has rank 1 to 8");
        if (index == -1)
            cli_hint(e, "keep one element as a rank-1 view with --slice %s=-1:",
                     dname(dn, v->t.rank, dim));
        else
            cli_hint(e, "keep one element as a rank-1 view with --slice %s=%" PRId64 ":%" PRId64,
                     dname(dn, v->t.rank, dim), index, index + 1);
        return false;
    case DMLT_E_RANGE:
        return range_error(e, opt, text);
    case DMLT_E_INVALID:
    case DMLT_E_ZERO_SIZE:
    case DMLT_E_DTYPE:
    case DMLT_E_LAYOUT:
    case DMLT_E_WORK_CAP:
        break;
    }
    return cli_fail(e, CLI_E_INTERNAL, opt, text, "unexpected error selecting");
}

static bool apply_permute(struct dmlt_view *v, const char *text, struct cli_error *e)
{
    unsigned order[DMLT_MAX_RANK];
    struct dmlt_error err;
    if (dmlt_layout_parse(text, strlen(text), v->t.rank, order) != DMLT_OK) {
        const char *letters = dmlt_dim_letters(v->t.rank);
        cli_fail(e, CLI_E_BAD_ORDER, "--permute", text, "not an order of the %u dims of the view",
                 v->t.rank);
        if (letters)
            cli_hint(e, "give each dim once: indices 0..%u, or the letters %s in the new order",
                     v->t.rank - 1, letters);
        else
            cli_hint(e, "give each dim once: indices 0..%u", v->t.rank - 1);
        return false;
    }
    if (dmlt_view_permute(v, order, &err) != DMLT_OK)
        return range_error(e, "--permute", text);
    return true;
}

static bool apply_broadcast_to(struct dmlt_view *v, const char *text, struct cli_error *e)
{
    const char *opt = "--broadcast-to";
    uint64_t s[DMLT_MAX_RANK];
    uint32_t sizes[DMLT_MAX_RANK];
    unsigned n;
    if (!parse_uint_list(opt, text, 1, DMLT_MAX_DIM_SIZE, DMLT_MAX_RANK, s, &n, e, "dimension",
                         "sizes"))
        return false;
    for (unsigned i = 0; i < n; i++)
        sizes[i] = (uint32_t)s[i];
    struct dmlt_error err;
    enum dmlt_status st = dmlt_view_broadcast_to(v, n, sizes, &err);
    if (st == DMLT_OK)
        return true;
    char have[200]; /* a failed operation leaves the view as it was */
    sizes_text(have, sizeof have, v->t.sizes, v->t.rank);
    switch (st) {
    case DMLT_OK:
        break;
    case DMLT_E_RANK:
        cli_fail(e, CLI_E_BROADCAST_RANK, opt, text,
                 "%u sizes for a view of rank %u (sizes %s): broadcasting adds leading dims, it "
                 "removes none",
                 n, v->t.rank, have);
        return false;
    case DMLT_E_INVALID: {
        unsigned lead = n - v->t.rank, d = (unsigned)err.dim;
        cli_fail(e, CLI_E_BROADCAST_SIZE, opt, text,
                 "dim %u of the view has size %" PRIu32 ", which cannot become %" PRIu32
                 " (only size-1 dims grow)",
                 d - lead, v->t.sizes[d - lead], sizes[d]);
        cli_hint(e, "the view's sizes are %s; dims line up from the right", have);
        return false;
    }
    case DMLT_E_RANGE:
        return range_error(e, opt, text);
    case DMLT_E_ZERO_SIZE:
    case DMLT_E_DTYPE:
    case DMLT_E_LAYOUT:
    case DMLT_E_COORD:
    case DMLT_E_WORK_CAP:
        break;
    }
    return cli_fail(e, CLI_E_INTERNAL, opt, text, "unexpected error broadcasting");
}

static bool apply_reshape(struct dmlt_view *v, const char *text, struct cli_error *e)
{
    const char *opt = "--reshape";
    int64_t sizes[DMLT_MAX_RANK];
    unsigned n = 0;
    if (text[0] == '\0')
        return cli_fail(e, CLI_E_EMPTY_FIELD, opt, text, "empty list (expected sizes like 2,-1)");
    for (const char *p = text;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n == DMLT_MAX_RANK)
            return cli_fail(e, CLI_E_TOO_MANY_DIMS, opt, text, "more than %u sizes (rank is 1..%u)",
                            DMLT_MAX_RANK, DMLT_MAX_RANK);
        char what[24] = "size ";
        *put_u64(what + 5, n) = '\0';
        if (len == 2 && p[0] == '-' && p[1] == '1') {
            sizes[n++] = -1;
        } else {
            uint64_t u;
            if (!parse_uint(p, len, 1, DMLT_MAX_DIM_SIZE, &u, e, opt, text, what, "sizes")) {
                if (len > 0 && p[0] == '-')
                    cli_hint(e, "one size may be -1, computed from the others");
                return false;
            }
            sizes[n++] = (int64_t)u;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    unsigned inferred = 0;
    for (unsigned i = 0; i < n; i++)
        inferred += sizes[i] == -1;
    if (inferred > 1)
        return cli_fail(e, CLI_E_BAD_SIZE, opt, text, "%u sizes are -1; one at most is computed",
                        inferred);
    struct dmlt_error err;
    enum dmlt_status st = dmlt_view_reshape(v, n, sizes, &err);
    if (st == DMLT_OK)
        return true;
    char have[200], dn[8], dn2[8]; /* a failed operation leaves the view as it was */
    sizes_text(have, sizeof have, v->t.sizes, v->t.rank);
    switch (st) {
    case DMLT_OK:
        break;
    case DMLT_E_INVALID:
        if (err.dim >= 0)
            cli_fail(e, CLI_E_RESHAPE_COUNT, opt, text,
                     "the view's sizes %s do not divide by the other sizes: -1 has no whole value",
                     have);
        else
            cli_fail(e, CLI_E_RESHAPE_COUNT, opt, text,
                     "the view's sizes %s have another element count: a reshape keeps every "
                     "element",
                     have);
        return false;
    case DMLT_E_RANGE:
        return cli_fail(e, CLI_E_OUT_OF_RANGE, opt, text,
                        "a size or a stride of the result would pass 4294967295");
    case DMLT_E_LAYOUT: {
        unsigned i = (unsigned)err.dim, j = i + 1;
        while (j < v->t.rank && v->t.sizes[j] == 1)
            j++;
        cli_fail(e, CLI_E_RESHAPE_COPY, opt, text,
                 "needs a copy: dims %s (stride %" PRIu32 ") and %s (size %" PRIu32
                 ", stride %" PRIu32 ") cannot be merged, since %" PRIu32 " is not %" PRIu32
                 " x %" PRIu32,
                 dname(dn, v->t.rank, i), v->t.strides[i], dname(dn2, v->t.rank, j), v->t.sizes[j],
                 v->t.strides[j], v->t.strides[i], v->t.sizes[j], v->t.strides[j]);
        cli_hint(e, "NumPy would copy here; DirectML needs a strided view. Reshape before "
                    "--permute or --slice, or copy the data");
        e->exit_code = CLI_EXIT_RULE;
        return false;
    }
    case DMLT_E_RANK:
    case DMLT_E_ZERO_SIZE:
    case DMLT_E_DTYPE:
    case DMLT_E_COORD:
    case DMLT_E_WORK_CAP:
        break;
    }
    return cli_fail(e, CLI_E_INTERNAL, opt, text, "unexpected error reshaping");
}

/* --split DIM=N or DIM=A+B+...: the start and size of each part. */
struct split {
    unsigned dim, n;
    uint32_t equal; /* the size of each part, or 0 for sizes[] */
    uint32_t sizes[MAX_VIEWS];
};

static bool parse_split(const struct dmlt_view *v, const char *text, struct split *s,
                        struct cli_error *e)
{
    const char *opt = "--split", *rest;
    if (!parse_dim_eq(text, v->t.rank, &s->dim, &rest, e, opt, "DIM=N or DIM=A+B+..., like c=3"))
        return false;
    const uint32_t size = v->t.sizes[s->dim];
    char dn[8];
    dname(dn, v->t.rank, s->dim);
    if (strchr(rest, '+') == NULL) {
        uint64_t n;
        if (!parse_uint(rest, strlen(rest), 1, MAX_VIEWS, &n, e, opt, text, "the number of parts",
                        NULL))
            return false;
        if (size % n != 0) {
            cli_fail(e, CLI_E_SPLIT_UNEQUAL, opt, text,
                     "%s has size %" PRIu32 ", which %" PRIu64 " equal parts do not divide", dn,
                     size, n);
            if (n <= size && n <= 16) {
                /* NumPy's array_split: the first size % n parts one larger. */
                char parts[200];
                size_t used = 0;
                for (uint32_t k = 0; k < (uint32_t)n && used < sizeof parts; k++) {
                    uint32_t len = size / (uint32_t)n + (k < size % (uint32_t)n);
                    int w = snprintf(parts + used, sizeof parts - used,
                                     k ? "+%" PRIu32 : "%" PRIu32, len);
                    used += w > 0 ? (size_t)w : 0;
                }
                cli_hint(e, "give the part sizes, as NumPy's array_split would cut: %s=%s", dn,
                         parts);
            }
            return false;
        }
        s->n = (unsigned)n;
        s->equal = size / (uint32_t)n;
        return true;
    }
    s->n = 0;
    s->equal = 0;
    uint64_t sum = 0;
    for (const char *p = rest;;) {
        const char *plus = strchr(p, '+');
        size_t len = plus ? (size_t)(plus - p) : strlen(p);
        if (s->n == MAX_VIEWS)
            return cli_fail(e, CLI_E_TOO_MANY_VALUES, opt, text, "more than %d parts", MAX_VIEWS);
        char what[24] = "part ";
        *put_u64(what + 5, s->n) = '\0';
        uint64_t u;
        if (!parse_uint(p, len, 1, DMLT_MAX_DIM_SIZE, &u, e, opt, text, what, "part sizes"))
            return false;
        s->sizes[s->n++] = (uint32_t)u;
        sum += u;
        if (!plus)
            break;
        p = plus + 1;
    }
    if (sum != size)
        return cli_fail(e, CLI_E_SPLIT_SUM, opt, text,
                        "the parts add up to %" PRIu64 ", but %s has size %" PRIu32, sum, dn, size);
    return true;
}

/* ---- every view of the parent --------------------------------------------- */

/* Called with each view in order; false stops the walk (no error). */
typedef bool (*view_fn)(void *ctx, const struct dmlt_view *v, unsigned index);

struct walk {
    const struct cli_config *cfg;
    view_fn fn;
    void *ctx;
    unsigned count; /* views so far */
    bool stopped;
};

static bool walk_from(struct walk *w, const struct dmlt_view *at, unsigned op, struct cli_error *e)
{
    struct dmlt_view v = *at;
    for (; op < w->cfg->n_ops; op++) {
        const char *text = w->cfg->op_text[op];
        bool ok = true;
        switch (w->cfg->op_kind[op]) {
        case VOP_SLICE:
            ok = apply_slice(&v, text, e);
            break;
        case VOP_SELECT:
            ok = apply_select(&v, text, e);
            break;
        case VOP_PERMUTE:
            ok = apply_permute(&v, text, e);
            break;
        case VOP_BROADCAST_TO:
            ok = apply_broadcast_to(&v, text, e);
            break;
        case VOP_RESHAPE:
            ok = apply_reshape(&v, text, e);
            break;
        case VOP_SPLIT: {
            /* Each part in turn goes through the rest of the operations. */
            struct split s;
            if (!parse_split(&v, text, &s, e))
                return false;
            for (unsigned k = 0; k < s.n && !w->stopped; k++) {
                struct dmlt_view part = v;
                struct dmlt_error err;
                if (dmlt_view_split(&part, s.dim, s.n, s.equal ? NULL : s.sizes, k, &err) !=
                    DMLT_OK)
                    return range_error(e, "--split", text);
                if (!walk_from(w, &part, op + 1, e))
                    return false;
            }
            return true;
        }
        }
        if (!ok)
            return false;
    }
    if (w->count == MAX_VIEWS) {
        cli_fail(e, CLI_E_TOO_MANY_VIEWS, NULL, NULL, "more than %d views", MAX_VIEWS);
        cli_hint(e, "split into fewer parts");
        return false;
    }
    if (!w->fn(w->ctx, &v, w->count++))
        w->stopped = true;
    return true;
}

/* Runs the operations on the parent, calling fn with each view. */
static bool walk_views(const struct cli_config *cfg, const struct dmlt_tensor *parent, view_fn fn,
                       void *ctx, struct cli_error *e)
{
    struct walk w = {cfg, fn, ctx, 0, false};
    struct dmlt_view v = DMLT_VIEW_INIT;
    struct dmlt_error err;
    if (dmlt_view_init(&v, parent, &err) != DMLT_OK)
        return cli_fail(e, CLI_E_INTERNAL, NULL, NULL, "the parent is not a valid tensor");
    return walk_from(&w, &v, 0, e);
}

/* ---- one view: its descriptor, binding and checks -------------------------- */

/* The view's own check, after validate's (whose binding_size and
 * binding_in_buffer check the view's binding: SizeInBytes is its
 * TotalTensorSizeInBytes, the buffer --buffer-size or the parent's end). */
enum view_check { VCHECK_WHOLE_BYTE, VCHECK_COUNT };

static const struct {
    const char *id, *rule;
} view_checks[VCHECK_COUNT] = {
    {"view_offset_whole_byte", "a 4-bit tensor starts on a whole byte: its first element is the "
                               "low nibble of the byte at Offset"},
};

struct parent_info {
    const struct tensor_desc *td;
    const struct dmlt_dtype_info *info;
    uint64_t total;       /* the parent's TotalTensorSizeInBytes */
    uint64_t buffer_size; /* the whole buffer */
};

struct view_result {
    const struct dmlt_view *v;
    uint64_t byte_offset; /* within the parent */
    bool whole_byte;
    uint64_t size;         /* TotalTensorSizeInBytes = SizeInBytes */
    uint32_t alignment;    /* GuaranteedBaseOffsetAlignment */
    uint64_t offset;       /* DML_BUFFER_BINDING::Offset */
    struct tensor_desc vd; /* the view as validate's messages read it */
    struct dmlt_check checks[DMLT_CHECK_COUNT];
    bool passed[VCHECK_COUNT];
    bool valid;
    unsigned errors, warnings;
};

static bool measure(const struct parent_info *p, const struct dmlt_view *v, struct view_result *r,
                    struct cli_error *e)
{
    r->v = v;
    if (dmlt_view_bytes(v, &r->byte_offset, &r->whole_byte, &r->size) != DMLT_OK ||
        r->byte_offset > UINT64_MAX - p->td->base_offset)
        return cli_fail(e, CLI_E_OUT_OF_RANGE, NULL, NULL,
                        "a view's offset or size is past 2^64 - 1 bytes (DML_BUFFER_BINDING's "
                        "Offset and SizeInBytes are UINT64)");
    r->offset = p->td->base_offset + r->byte_offset;
    r->alignment = dmlt_view_alignment(r->byte_offset, p->td->alignment);

    /* validate's checks of the view's descriptor and binding. */
    struct dmlt_desc d;
    memset(&d, 0, sizeof d);
    d.t = v->t;
    d.has_total = true;
    d.total_tensor_size_bytes = r->size;
    d.guaranteed_base_offset_alignment = r->alignment;
    d.base_offset_bytes = r->offset;
    d.flags = 0;
    d.has_binding_size = true;
    d.binding_size_bytes = r->size;
    d.has_buffer_size = true;
    d.buffer_size_bytes = p->buffer_size;
    r->valid = dmlt_validate(&d, v->t.rank, r->checks, DMLT_CHECK_COUNT);
    memset(&r->vd, 0, sizeof r->vd);
    r->vd.t = v->t;
    r->vd.base_offset = r->offset;
    r->vd.alignment = r->alignment;
    r->vd.has_binding_size = r->vd.has_buffer_size = true;
    r->vd.binding_size = r->size;
    r->vd.buffer_size = p->buffer_size;
    r->passed[VCHECK_WHOLE_BYTE] = r->whole_byte;
    r->valid = r->valid && r->passed[VCHECK_WHOLE_BYTE];
    r->errors = r->warnings = 0;
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++) {
        if (r->checks[i].passed)
            continue;
        if (dmlt_check_level(r->checks[i].id) == DMLT_ERROR)
            r->errors++;
        else
            r->warnings++;
    }
    for (unsigned i = 0; i < VCHECK_COUNT; i++)
        r->errors += !r->passed[i];
    return true;
}

static void view_check_message(char *msg, size_t size, enum view_check c,
                               const struct parent_info *p, const struct view_result *r)
{
    char a[24], b[24];
    *put_u64(a, r->v->offset) = '\0';
    *put_u64(b, r->offset) = '\0';
    switch (c) {
    case VCHECK_WHOLE_BYTE:
        if (p->info->bits >= 8)
            cli_say(msg, size, "%s-bit elements are whole bytes",
                    p->info->bits == 8    ? "8"
                    : p->info->bits == 16 ? "16"
                    : p->info->bits == 32 ? "32"
                                          : "64");
        else if (r->whole_byte)
            cli_say(msg, size, "element offset %s is even: the view starts on byte %s", a, b);
        else
            cli_say(msg, size,
                    "element offset %s is odd: the view would start in the high nibble of "
                    "byte %s; start it at an even element",
                    a, b);
        break;
    case VCHECK_COUNT:
        msg[0] = '\0';
        break;
    }
}

static const char *level_word(enum dmlt_severity s)
{
    return s == DMLT_ERROR ? "error" : s == DMLT_WARNING ? "warning" : "info";
}

/* ---- the fix: padding that aligns every view on 16 bytes ------------------- */

struct align_probe {
    const struct parent_info *p;
    bool all_aligned;
};

static bool probe_view(void *ctx, const struct dmlt_view *v, unsigned index)
{
    (void)index;
    struct align_probe *a = ctx;
    uint64_t off, size;
    bool whole;
    if (dmlt_view_bytes(v, &off, &whole, &size) != DMLT_OK || !whole ||
        (a->p->td->base_offset + off) % 16 != 0)
        a->all_aligned = false;
    return a->all_aligned; /* stop at the first that is not */
}

/* Whether the parent with these options puts every view on 16 bytes. */
static bool aligns(const struct cli_config *cfg, const struct tensor_args *a,
                   const struct parent_info *p)
{
    struct tensor_desc td;
    struct cli_error ignored;
    if (!describe_tensor(a, &td, &ignored))
        return false;
    struct parent_info p2 = *p;
    p2.td = &td;
    struct align_probe probe = {&p2, true};
    return walk_views(cfg, &td.t, probe_view, &probe, &ignored) && probe.all_aligned;
}

struct fix {
    bool pad_found, pitch_found;
    char pad[32]; /* "w=5" */
    uint32_t pitch;
};

/* The smallest --pad DIM=N (N from 1, dims from the innermost out) and
 * whether --row-pitch-align 16 make every view start on 16 bytes. Only for
 * a parent given by a layout, bound on 16 bytes itself. */
static void find_fix(const struct cli_config *cfg, const struct parent_info *p, struct fix *f)
{
    memset(f, 0, sizeof *f);
    const struct tensor_desc *td = p->td;
    if (td->strides_given || td->base_offset % 16 != 0)
        return;
    struct tensor_args a = cfg->t;
    if (a.n_pad < MAX_REPEAT) {
        for (unsigned n = 1; n <= MAX_FIX_PAD && !f->pad_found; n++) {
            for (unsigned k = td->t.rank; k-- > 1 && !f->pad_found;) {
                char dn[8];
                snprintf(f->pad, sizeof f->pad, "%s=%u", dname(dn, td->t.rank, td->order[k]), n);
                a.pad[a.n_pad] = f->pad;
                a.n_pad = cfg->t.n_pad + 1;
                f->pad_found = aligns(cfg, &a, p);
            }
        }
    }
    a = cfg->t;
    if (a.row_pitch_align == NULL && td->t.rank >= 2) {
        a.row_pitch_align = "16";
        f->pitch_found = aligns(cfg, &a, p);
        f->pitch = 16;
    }
}

/* validate's sentence for a check, except base_offset_16 failing, whose
 * remedy for a view is not to move the range but to pad the parent. */
static void desc_check_message(char *msg, size_t size, const struct dmlt_check *c,
                               const struct parent_info *p, const struct view_result *r)
{
    if (c->id == DMLT_CHECK_BASE_OFFSET_16 && !c->passed) {
        char a[24], b[24], z[24];
        *put_u64(a, r->offset) = '\0';
        *put_u64(b, r->byte_offset) = '\0';
        *put_u64(z, p->td->base_offset) = '\0';
        cli_say(msg, size,
                "Offset %s is not a multiple of 16: the view starts %s byte%s into the parent, "
                "bound at %s",
                a, b, r->byte_offset == 1 ? "" : "s", z);
        return;
    }
    check_message(msg, size, c, &r->vd);
}

/* ---- rendering ------------------------------------------------------------- */

struct render {
    struct outbuf *out;
    const struct parent_info *p;
    bool json;
    bool c;           /* --format c */
    const char *name; /* its variables' prefix */
    bool numbered;    /* several views (a split): NAME0, NAME1, ... */
    bool valid;       /* every view so far */
    bool misaligned;  /* some view fails base_offset_16 */
    struct cli_error *e;
    bool failed; /* measure() failed: e says why */
};

static void json_view(struct outbuf *b, const struct parent_info *p, const struct view_result *r)
{
    const struct dmlt_view *v = r->v;
    ob_puts(b, "{\"desc\":{\"DataType\":\"");
    ob_puts(b, p->info->dml_name);
    ob_puts(b, "\",\"Flags\":\"DML_TENSOR_FLAG_NONE\",\"DimensionCount\":");
    ob_u64(b, v->t.rank);
    ob_puts(b, ",\"Sizes\":");
    ob_u32_list(b, v->t.sizes, v->t.rank, 1, true);
    ob_puts(b, ",\"Strides\":");
    ob_u32_list(b, v->t.strides, v->t.rank, 1, true);
    ob_puts(b, ",\"TotalTensorSizeInBytes\":");
    ob_u64(b, r->size);
    ob_puts(b, ",\"GuaranteedBaseOffsetAlignment\":");
    ob_u64(b, r->alignment);
    ob_puts(b, "},\"binding\":{\"offset_bytes\":");
    ob_u64(b, r->offset);
    ob_puts(b, ",\"size_in_bytes\":");
    ob_u64(b, r->size);
    ob_puts(b, "},\"source\":");
    ob_u32_list(b, v->source, v->parent_rank, 1, true);
    ob_puts(b, ",\"element_offset\":");
    ob_u64(b, v->offset);
    ob_puts(b, r->valid ? ",\"valid\":true" : ",\"valid\":false");
    ob_puts(b, ",\"errors\":");
    ob_u64(b, r->errors);
    ob_puts(b, ",\"warnings\":");
    ob_u64(b, r->warnings);
    ob_puts(b, ",\"checks\":[");
    char msg[512];
    for (unsigned i = 0; i < DMLT_CHECK_COUNT + VCHECK_COUNT; i++) {
        const char *id, *rule;
        bool passed;
        enum dmlt_severity level = DMLT_ERROR;
        if (i < DMLT_CHECK_COUNT) {
            const struct dmlt_check *c = &r->checks[i];
            desc_check_message(msg, sizeof msg, c, p, r);
            id = dmlt_check_id_name(c->id);
            rule = dmlt_check_rule(c->id);
            level = dmlt_check_level(c->id);
            passed = c->passed;
        } else {
            enum view_check c = (enum view_check)(i - DMLT_CHECK_COUNT);
            view_check_message(msg, sizeof msg, c, p, r);
            id = view_checks[c].id;
            rule = view_checks[c].rule;
            passed = r->passed[c];
        }
        ob_puts(b, i ? ",{\"id\":\"" : "{\"id\":\"");
        ob_puts(b, id);
        ob_puts(b, "\",\"level\":\"");
        ob_puts(b, level_word(level));
        ob_puts(b, passed ? "\",\"status\":\"pass\"" : "\",\"status\":\"fail\"");
        ob_puts(b, ",\"message\":");
        ob_json_str(b, msg);
        ob_puts(b, ",\"rule\":");
        ob_json_str(b, rule);
        ob_putc(b, '}');
    }
    ob_puts(b, "]}");
}

static size_t row(struct outbuf *b, const char *label, size_t indent)
{
    size_t start = b->len;
    for (size_t i = 0; i < indent; i++)
        ob_putc(b, ' ');
    ob_puts(b, label);
    ob_pad_to(b, start, 35);
    return start;
}

static void braces(struct outbuf *b, const uint32_t *v, unsigned n)
{
    ob_putc(b, '{');
    for (unsigned i = 0; i < n; i++) {
        if (i)
            ob_puts(b, ", ");
        ob_u64(b, v[i]);
    }
    ob_puts(b, "}\n");
}

/* One line: the parent's bytes, '#' where the view's range is. */
static void picture(struct outbuf *b, const struct parent_info *p, const struct view_result *r)
{
    uint64_t total = p->total > r->byte_offset + r->size ? p->total : r->byte_offset + r->size;
    unsigned cells = total < 48 ? (unsigned)total : 48;
    if (cells == 0)
        return;
    uint64_t lo = r->byte_offset, hi = r->byte_offset + r->size;
    row(b, "bytes", 2);
    ob_putc(b, '|');
    for (unsigned i = 0; i < cells; i++) {
        /* Cell i holds bytes [i x total / cells, (i + 1) x total / cells). */
        uint64_t a = total / cells * i + total % cells * i / cells;
        uint64_t z = total / cells * (i + 1) + total % cells * (i + 1) / cells;
        bool in = a < hi && z > lo;
        char cell = '.';
        if (in)
            cell = z > p->total ? '!' : '#';
        ob_putc(b, cell);
    }
    ob_puts(b, "|  ");
    ob_u64(b, lo);
    ob_puts(b, "..");
    ob_u64(b, hi);
    ob_puts(b, " of the parent's ");
    ob_u64(b, p->total);
    ob_puts(b, " bytes\n");
}

static void text_view(struct outbuf *b, const struct parent_info *p, const struct view_result *r,
                      unsigned index)
{
    const struct dmlt_view *v = r->v;
    ob_puts(b, "\nview ");
    ob_u64(b, index);
    ob_puts(b, r->valid ? "\n" : " (INVALID)\n");
    ob_puts(b, "  DML_BUFFER_TENSOR_DESC\n");
    row(b, "DataType", 4);
    ob_puts(b, p->info->dml_name);
    ob_putc(b, '\n');
    row(b, "Flags", 4);
    ob_puts(b, "DML_TENSOR_FLAG_NONE\n");
    row(b, "DimensionCount", 4);
    ob_u64(b, v->t.rank);
    ob_putc(b, '\n');
    row(b, "Sizes", 4);
    braces(b, v->t.sizes, v->t.rank);
    row(b, "Strides", 4);
    braces(b, v->t.strides, v->t.rank);
    row(b, "TotalTensorSizeInBytes", 4);
    ob_u64(b, r->size);
    ob_putc(b, '\n');
    row(b, "GuaranteedBaseOffsetAlignment", 4);
    ob_u64(b, r->alignment);
    ob_putc(b, '\n');
    ob_puts(b, "  DML_BUFFER_BINDING\n");
    row(b, "Offset", 4);
    ob_u64(b, r->offset);
    ob_putc(b, '\n');
    row(b, "SizeInBytes", 4);
    ob_u64(b, r->size);
    ob_putc(b, '\n');
    row(b, "source", 2);
    ob_puts(b, "parent coordinate ");
    ob_u32_list(b, v->source, v->parent_rank, 1, false);
    ob_puts(b, ", element offset ");
    ob_u64(b, v->offset);
    ob_putc(b, '\n');
    picture(b, p, r);
    char msg[512];
    unsigned shown = 0;
    for (unsigned i = 0; i < DMLT_CHECK_COUNT + VCHECK_COUNT; i++) {
        const char *id;
        bool error = true;
        if (i < DMLT_CHECK_COUNT) {
            const struct dmlt_check *c = &r->checks[i];
            if (c->passed)
                continue;
            desc_check_message(msg, sizeof msg, c, p, r);
            id = dmlt_check_id_name(c->id);
            error = dmlt_check_level(c->id) == DMLT_ERROR;
        } else {
            enum view_check c = (enum view_check)(i - DMLT_CHECK_COUNT);
            if (r->passed[c])
                continue;
            view_check_message(msg, sizeof msg, c, p, r);
            id = view_checks[c].id;
        }
        size_t start = b->len;
        ob_puts(b, error ? "  FAIL" : "  warn");
        ob_pad_to(b, start, 8);
        ob_puts(b, id);
        ob_pad_to(b, start, 32);
        ob_puts(b, msg);
        ob_putc(b, '\n');
        shown++;
    }
    if (shown == 0)
        ob_puts(b, "  every check passes\n");
}

/* --format c: a comment saying which view and each failed check, then the
 * view's DML_BUFFER_TENSOR_DESC and DML_BUFFER_BINDING (render_c.h). */
static void c_view(const struct render *rd, const struct view_result *r, unsigned index)
{
    const struct dmlt_view *v = r->v;
    struct outbuf *b = rd->out;
    char msg[600], num[24];
    if (index)
        ob_putc(b, '\n');
    struct outbuf head;
    ob_init(&head);
    ob_puts(&head, "view ");
    ob_u64(&head, index);
    ob_puts(&head, ": parent coordinate ");
    ob_u32_list(&head, v->source, v->parent_rank, 1, false);
    ob_puts(&head, ", element offset ");
    ob_u64(&head, v->offset);
    ob_putc(&head, '\0');
    if (!head.failed)
        c_comment(b, head.data);
    ob_free(&head);
    for (unsigned i = 0; i < DMLT_CHECK_COUNT + VCHECK_COUNT; i++) {
        const char *id;
        bool error = true;
        size_t n;
        if (i < DMLT_CHECK_COUNT) {
            const struct dmlt_check *c = &r->checks[i];
            if (c->passed)
                continue;
            id = dmlt_check_id_name(c->id);
            error = dmlt_check_level(c->id) == DMLT_ERROR;
            n = (size_t)snprintf(msg, sizeof msg, "%s %s: ", error ? "FAIL" : "warn", id);
            desc_check_message(msg + n, sizeof msg - n, c, rd->p, r);
        } else {
            enum view_check c = (enum view_check)(i - DMLT_CHECK_COUNT);
            if (r->passed[c])
                continue;
            id = view_checks[c].id;
            n = (size_t)snprintf(msg, sizeof msg, "FAIL %s: ", id);
            view_check_message(msg + n, sizeof msg - n, c, rd->p, r);
        }
        c_comment(b, msg);
    }
    char name[C_NAME_MAX + 24];
    *put_u64(num, index) = '\0';
    snprintf(name, sizeof name, "%s%s", rd->name, rd->numbered ? num : "");
    struct c_binding binding = {r->offset, r->size, true, rd->p->buffer_size};
    struct c_snippet s;
    memset(&s, 0, sizeof s);
    s.name = name;
    s.t = &r->vd.t;
    s.flags = 0; /* DML_TENSOR_FLAG_NONE, as the JSON's desc says */
    s.total = r->size;
    s.alignment = r->alignment;
    s.binding = &binding;
    render_c_snippet(b, &s);
}

static bool render_view(void *ctx, const struct dmlt_view *v, unsigned index)
{
    struct render *rd = ctx;
    struct view_result r;
    if (!measure(rd->p, v, &r, rd->e)) {
        rd->failed = true;
        return false;
    }
    rd->valid = rd->valid && r.valid;
    rd->misaligned = rd->misaligned || !r.checks[DMLT_CHECK_BASE_OFFSET_16].passed;
    if (rd->c) {
        c_view(rd, &r, index);
    } else if (rd->json) {
        if (index)
            ob_putc(rd->out, ',');
        json_view(rd->out, rd->p, &r);
    } else {
        text_view(rd->out, rd->p, &r, index);
    }
    return true;
}

static void json_parent(struct outbuf *b, const struct parent_info *p)
{
    const struct tensor_desc *td = p->td;
    ob_puts(b, "\"parent\":{\"dtype\":\"");
    ob_puts(b, p->info->name);
    ob_puts(b, "\",\"sizes\":");
    ob_u32_list(b, td->t.sizes, td->t.rank, 1, true);
    ob_puts(b, ",\"strides\":");
    ob_u32_list(b, td->t.strides, td->t.rank, 1, true);
    ob_puts(b, ",\"total_tensor_size_bytes\":");
    ob_u64(b, p->total);
    ob_puts(b, ",\"base_offset_bytes\":");
    ob_u64(b, td->base_offset);
    ob_puts(b, ",\"buffer_size_bytes\":");
    ob_u64(b, p->buffer_size);
    ob_puts(b, ",\"guaranteed_base_offset_alignment\":");
    ob_u64(b, td->alignment);
    ob_puts(b, "},\"views\":[");
}

static void text_parent(struct outbuf *b, const struct parent_info *p)
{
    const struct tensor_desc *td = p->td;
    ob_puts(b, "parent: ");
    ob_puts(b, p->info->name);
    ob_puts(b, ", sizes ");
    ob_u32_list(b, td->t.sizes, td->t.rank, 1, false);
    ob_puts(b, ", strides ");
    ob_u32_list(b, td->t.strides, td->t.rank, 1, false);
    ob_puts(b, "; ");
    ob_u64(b, p->total);
    ob_puts(b, " bytes at offset ");
    ob_u64(b, td->base_offset);
    ob_puts(b, " of a ");
    ob_u64(b, p->buffer_size);
    ob_puts(b, "-byte buffer\n");
}

static void render_fix(struct outbuf *b, const struct fix *f, bool json)
{
    if (json) {
        if (!f->pad_found && !f->pitch_found) {
            ob_puts(b, ",\"fix\":null");
            return;
        }
        ob_puts(b, ",\"fix\":{\"pad\":");
        if (f->pad_found)
            ob_json_str(b, f->pad);
        else
            ob_puts(b, "null");
        ob_puts(b, ",\"row_pitch_align\":");
        if (f->pitch_found)
            ob_u64(b, f->pitch);
        else
            ob_puts(b, "null");
        ob_putc(b, '}');
        return;
    }
    if (!f->pad_found && !f->pitch_found)
        return;
    ob_puts(b, "\nfix: every view starts on 16 bytes with the parent's ");
    if (f->pad_found) {
        ob_puts(b, "--pad ");
        ob_puts(b, f->pad);
    }
    if (f->pad_found && f->pitch_found)
        ob_puts(b, " or ");
    if (f->pitch_found) {
        ob_puts(b, "--row-pitch-align ");
        ob_u64(b, f->pitch);
    }
    ob_putc(b, '\n');
}

static bool run_view(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct tensor_desc td;
    if (!describe_tensor(&cfg->t, &td, e))
        return false;
    struct parent_info p;
    p.td = &td;
    p.info = dmlt_dtype_get(td.t.dtype);
    struct dmlt_view whole = DMLT_VIEW_INIT;
    struct dmlt_error err;
    uint64_t zero, minimum;
    bool w;
    if (dmlt_view_init(&whole, &td.t, &err) != DMLT_OK ||
        dmlt_view_bytes(&whole, &zero, &w, &minimum) != DMLT_OK)
        return cli_fail(e, CLI_E_OUT_OF_RANGE, "--sizes", cfg->t.sizes,
                        "the tensor's minimum implied size is past 2^64 - 1 bytes "
                        "(DML_BUFFER_BINDING sizes are UINT64)");
    p.total = td.has_total ? td.total : minimum;
    if (cfg->t.buffer_size) {
        if (!parse_uint(cfg->t.buffer_size, strlen(cfg->t.buffer_size), 0, UINT64_MAX,
                        &p.buffer_size, e, "--buffer-size", cfg->t.buffer_size, "the buffer size",
                        NULL))
            return false;
    } else if (p.total > UINT64_MAX - td.base_offset) {
        return cli_fail(e, CLI_E_OUT_OF_RANGE, "--base-offset", cfg->t.base_offset,
                        "the base offset plus the tensor's size is past 2^64 - 1 bytes");
    } else {
        p.buffer_size = td.base_offset + p.total;
    }

    struct render rd = {
        out, &p, cfg->format == FMT_JSON, cfg->format == FMT_C, NULL, false, true, false, e, false};
    rd.name = cfg->c_name ? cfg->c_name : "view";
    for (unsigned i = 0; i < cfg->n_ops; i++)
        rd.numbered = rd.numbered || cfg->op_kind[i] == VOP_SPLIT;
    if (rd.json) {
        cli_json_open(cfg, out);
        json_parent(out, &p);
    } else if (!rd.c) {
        text_parent(out, &p);
    }
    if (!walk_views(cfg, &td.t, render_view, &rd, e) || rd.failed)
        return false;
    struct fix f;
    memset(&f, 0, sizeof f);
    if (rd.misaligned)
        find_fix(cfg, &p, &f);
    if (rd.json) {
        ob_puts(out, rd.valid ? "],\"valid\":true" : "],\"valid\":false");
        render_fix(out, &f, true);
        ob_puts(out, "}\n");
    } else if (rd.c) {
        if (f.pad_found || f.pitch_found) {
            struct outbuf fix;
            ob_init(&fix);
            render_fix(&fix, &f, false); /* "\nfix: ...\n" */
            if (!fix.failed && fix.len > 2) {
                fix.data[fix.len - 1] = '\0';
                c_comment(out, fix.data + 1);
            }
            ob_free(&fix);
        }
    } else {
        render_fix(out, &f, false);
        ob_puts(out, rd.valid ? "\nvalid\n" : "\nINVALID: a view breaks a DirectML rule\n");
    }
    if (!rd.valid)
        cfg->exit_status = CLI_EXIT_RULE;
    return true;
}

const struct command cmd_view = {
    .name = "view",
    .id = CMD_VIEW,
    .summary = "slice, select, permute, broadcast, reshape or split a bound tensor",
    .usage = "dmltensor view --sizes LIST [OPTIONS] [OPERATIONS]",
    .about = "The DML_BUFFER_TENSOR_DESC and DML_BUFFER_BINDING of views of a tensor that\n"
             "lives in a buffer, as NumPy makes views: slices, an index, a transpose,\n"
             "broadcast_to, a reshape without copy, and parts of a split. For each view:\n"
             "its descriptor (TotalTensorSizeInBytes its own minimum implied size), its\n"
             "binding (Offset = where the parent is bound + the view's byte offset), the\n"
             "parent coordinate of its first element, and the checks: validate's of the\n"
             "view's descriptor and binding (base_offset_16, base_offset_alignment,\n"
             "binding_size, binding_in_buffer against --buffer-size, by default where\n"
             "the parent ends), then view_offset_whole_byte (4-bit types). A view that\n"
             "breaks a rule is printed all the same, with the smallest --pad or\n"
             "--row-pitch-align of the parent that would fix it; exit status 1. A\n"
             "negative step or an empty slice is exit status 2.\n",
    .examples = "  dmltensor view --dtype float16 --sizes 8,3,64,64 --slice n=2:4\n"
                "  dmltensor view --sizes 2,3,4 --permute 0,2,1 --format json\n"
                "  dmltensor view --dtype float16 --sizes 1,128,2304 --split w=3\n"
                "  dmltensor view --sizes 64 --reshape 1,64,1,1 --broadcast-to 2,64,7,7\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_C),
    .format_help =
        "text (default), json (one line) or c (C snippets: each view's DML_BUFFER_TENSOR_DESC "
        "and DML_BUFFER_BINDING; failed checks as comments)",
    .batch = true,
    .tensor = true,
    .run = run_view,
};
