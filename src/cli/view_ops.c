/* view_ops.c - view's operations (view_ops.h): each text of --slice,
 * --select, --permute, --broadcast-to, --reshape and --split parsed
 * against the view's current rank and applied by the core (dmlt_view_*),
 * and the walk that hands each view they make, in order, to its caller. */
#include "view_ops.h"
#include "parse.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_VIEWS 4096 /* views one command may print (--split parts) */

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
    if (!cli_parse_dim(text, (size_t)(eq - text), rank, dim, e, option, text))
        return false;
    *rest = eq + 1;
    return true;
}

/* The current rank's name for dim d: its letter, or its index. */
static const char *dname(char buf[8], unsigned rank, unsigned d)
{
    cli_dim_name(buf, rank, d);
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
    if (!cli_parse_uint_list(opt, text, 1, DMLT_MAX_DIM_SIZE, DMLT_MAX_RANK, s, &n, e, "dimension",
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
        *cli_put_u64(what + 5, n) = '\0';
        if (len == 2 && p[0] == '-' && p[1] == '1') {
            sizes[n++] = -1;
        } else {
            uint64_t u;
            if (!cli_parse_uint(p, len, 1, DMLT_MAX_DIM_SIZE, &u, e, opt, text, what, "sizes")) {
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
        if (!cli_parse_uint(rest, strlen(rest), 1, MAX_VIEWS, &n, e, opt, text,
                            "the number of parts", NULL))
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
        *cli_put_u64(what + 5, s->n) = '\0';
        uint64_t u;
        if (!cli_parse_uint(p, len, 1, DMLT_MAX_DIM_SIZE, &u, e, opt, text, what, "part sizes"))
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

bool cli_walk_views(const struct cli_config *cfg, const struct dmlt_tensor *parent, view_fn fn,
                    void *ctx, struct cli_error *e)
{
    struct walk w = {cfg, fn, ctx, 0, false};
    struct dmlt_view v = DMLT_VIEW_INIT;
    struct dmlt_error err;
    if (dmlt_view_init(&v, parent, &err) != DMLT_OK)
        return cli_fail(e, CLI_E_INTERNAL, NULL, NULL, "the parent is not a valid tensor");
    return walk_from(&w, &v, 0, e);
}
