/* describe.c - from the options' texts to a tensor: data type, sizes, rank
 * padding, and strides (explicit, or from a layout and its modifiers). The
 * core computes the strides; this file only maps its errors to messages that
 * name the option and the text at fault. */
#include "cli.h"
#include "parse.h"

#include <inttypes.h>
#include <string.h>

static bool describe_dtype(const char *text, enum dmlt_dtype *out, struct cli_error *e)
{
    if (text == NULL) {
        *out = DMLT_DTYPE_FLOAT32;
        return true;
    }
    if (dmlt_dtype_parse(text, strlen(text), out) == DMLT_OK)
        return true;
    const char *names[DMLT_DTYPE_COUNT];
    for (int i = 0; i < DMLT_DTYPE_COUNT; i++)
        names[i] = dmlt_dtype_get((enum dmlt_dtype)(i + 1))->name;
    cli_fail(e, CLI_E_BAD_DTYPE, "--dtype", text, "not a DirectML data type");
    const char *s = cli_suggest(text, names, DMLT_DTYPE_COUNT);
    if (s)
        cli_hint(e, "did you mean %s?", s);
    else
        cli_hint(e, "types: float32 float16 float64 int8 int16 int32 int64 uint8 uint16 "
                    "uint32 uint64 int4 uint4");
    return false;
}

/* --pad n=1,w=2: padding after runs along each named dimension. */
static bool describe_pad(const char *text, unsigned rank, uint32_t pad[], struct cli_error *e)
{
    const char *p = text;
    if (*p == '\0')
        return cli_fail(e, CLI_E_EMPTY_FIELD, "--pad", text, "no DIM=N given");
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (eq == NULL) {
            cli_fail(e, CLI_E_BAD_PAD, "--pad", text, "expected DIM=N, like w=2");
            return false;
        }
        unsigned d;
        uint64_t n;
        if (!cli_parse_dim(p, (size_t)(eq - p), rank, &d, e, "--pad", text) ||
            !cli_parse_uint(eq + 1, len - (size_t)(eq - p) - 1, 0, DMLT_MAX_STRIDE, &n, e, "--pad",
                            text, "the padding", NULL))
            return false;
        if (n > UINT32_MAX - pad[d])
            return cli_fail(e, CLI_E_OUT_OF_RANGE, "--pad", text, "padding adds up past %" PRIu32,
                            UINT32_MAX);
        pad[d] += (uint32_t)n;
        if (!comma)
            return true;
        p = comma + 1;
    }
}

/* Stride the leading size-1 dims get when --rank pads explicit strides:
 * the extent of the given dims, as a packed layout would have them. */
static uint64_t leading_stride(unsigned rank, const uint32_t sizes[], const uint64_t strides[])
{
    uint64_t span = 1;
    for (unsigned d = 0; d < rank; d++) {
        uint64_t ext = (uint64_t)sizes[d] * strides[d];
        if (ext > span)
            span = ext;
    }
    return span;
}

static bool equals_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        if (ascii_lower(*a) != ascii_lower(*b))
            return false;
    }
    return *a == *b;
}

/* --flags: a DML_TENSOR_FLAGS name or number. Unknown bits in a number are
 * well-formed but break a rule, so validate reports them (flags_known). */
static bool describe_flags(const char *text, uint32_t *out, struct cli_error *e)
{
    static const struct {
        const char *name;
        uint32_t value;
    } names[] = {{"none", 0},
                 {"DML_TENSOR_FLAG_NONE", 0},
                 {"owned_by_dml", DMLT_FLAG_OWNED_BY_DML},
                 {"DML_TENSOR_FLAG_OWNED_BY_DML", DMLT_FLAG_OWNED_BY_DML}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (equals_nocase(text, names[i].name)) {
            *out = names[i].value;
            return true;
        }
    }
    if (text[0] >= '0' && text[0] <= '9') {
        uint64_t v;
        if (!cli_parse_uint(text, strlen(text), 0, UINT32_MAX, &v, e, "--flags", text, "the flags",
                            NULL))
            return false;
        *out = (uint32_t)v;
        return true;
    }
    cli_fail(e, CLI_E_BAD_FLAGS, "--flags", text, "not a DML_TENSOR_FLAGS value");
    cli_hint(e, "use none, owned_by_dml, or a number");
    return false;
}

static bool describe_buffer(const struct tensor_args *a, struct tensor_desc *out,
                            struct cli_error *e)
{
    uint64_t v;
    if (a->total_size) {
        if (!cli_parse_uint(a->total_size, strlen(a->total_size), 0, UINT64_MAX, &out->total, e,
                            "--total-size", a->total_size, "the total size", NULL))
            return false;
        out->has_total = true;
    }
    if (a->base_offset &&
        !cli_parse_uint(a->base_offset, strlen(a->base_offset), 0, UINT64_MAX, &out->base_offset, e,
                        "--base-offset", a->base_offset, "the base offset", NULL))
        return false;
    if (a->binding_size) {
        if (!cli_parse_uint(a->binding_size, strlen(a->binding_size), 0, UINT64_MAX,
                            &out->binding_size, e, "--binding-size", a->binding_size,
                            "the binding size", NULL))
            return false;
        out->has_binding_size = true;
    }
    if (a->buffer_size) {
        if (!cli_parse_uint(a->buffer_size, strlen(a->buffer_size), 0, UINT64_MAX,
                            &out->buffer_size, e, "--buffer-size", a->buffer_size,
                            "the buffer size", NULL))
            return false;
        out->has_buffer_size = true;
    }
    if (a->alignment) {
        if (!cli_parse_uint(a->alignment, strlen(a->alignment), 0, UINT32_MAX, &v, e, "--alignment",
                            a->alignment, "the alignment", NULL))
            return false;
        out->alignment = (uint32_t)v;
    }
    return a->flags == NULL || describe_flags(a->flags, &out->flags, e);
}

static bool layout_error(const struct tensor_args *a, unsigned rank, struct cli_error *e)
{
    const char *opt = a->order ? "--order" : "--layout";
    const char *text = a->order ? a->order : a->layout;
    const char *letters = dmlt_dim_letters(rank);
    cli_fail(e, CLI_E_BAD_LAYOUT, opt, text, "not a memory order for rank %u", rank);
    if (letters)
        cli_hint(e, "use a permutation of %s, row-major, col-major, or indices like %s", letters,
                 rank == 4 ? "0,2,3,1" : "0,1,...");
    else
        cli_hint(e, "rank %u has no letters: use row-major, col-major or indices 0..%u", rank,
                 rank - 1);
    return false;
}

static bool describe_strides(const struct tensor_args *a, unsigned given_rank,
                             struct tensor_desc *out, struct cli_error *e)
{
    struct dmlt_tensor *t = &out->t;
    uint64_t v[DMLT_MAX_RANK];
    unsigned n;
    if (!cli_parse_uint_list("--strides", a->strides, 0, DMLT_MAX_STRIDE, DMLT_MAX_RANK, v, &n, e,
                             "stride", "strides"))
        return false;
    if (n != t->rank && n != given_rank) {
        cli_fail(e, CLI_E_STRIDE_COUNT, "--strides", a->strides,
                 "%u strides for %u sizes (give one stride per dimension)", n, t->rank);
        return false;
    }
    unsigned lead = t->rank - n;
    uint64_t s0 = lead ? leading_stride(n, t->sizes + lead, v) : 0;
    if (s0 > DMLT_MAX_STRIDE) {
        cli_fail(e, CLI_E_STRIDE_RANGE, "--rank", a->rank,
                 "the added dims would need stride %" PRIu64 ", over 4294967295", s0);
        cli_hint(e, "give all %u strides in --strides", t->rank);
        return false;
    }
    for (unsigned d = 0; d < t->rank; d++)
        t->strides[d] = d < lead ? (uint32_t)s0 : (uint32_t)v[d - lead];
    out->strides_given = true;
    return true;
}

/* Strides from a memory order (--layout or --order, row-major without
 * either) with its --broadcast, --pad and --row-pitch-align. */
static bool describe_layout(const struct tensor_args *a, struct tensor_desc *out,
                            struct cli_error *e)
{
    struct dmlt_tensor *t = &out->t;
    struct dmlt_layout_spec spec;
    dmlt_layout_spec_init(&spec, t->rank);
    const char *ltext = a->order ? a->order : a->layout;
    if (ltext && dmlt_layout_parse(ltext, strlen(ltext), t->rank, spec.order) != DMLT_OK)
        return layout_error(a, t->rank, e);
    for (unsigned i = 0; i < a->n_broadcast; i++)
        if (!cli_parse_dim_set("--broadcast", a->broadcast[i], t->rank, spec.broadcast, e))
            return false;
    for (unsigned i = 0; i < a->n_pad; i++)
        if (!describe_pad(a->pad[i], t->rank, spec.pad, e))
            return false;
    if (a->row_pitch_align) {
        uint64_t r;
        if (!cli_parse_uint(a->row_pitch_align, strlen(a->row_pitch_align), 1, UINT32_MAX, &r, e,
                            "--row-pitch-align", a->row_pitch_align, "the alignment", NULL))
            return false;
        if (t->rank < 2)
            return cli_fail(e, CLI_E_BAD_ROW_PITCH, "--row-pitch-align", a->row_pitch_align,
                            "a rank-1 tensor has no rows");
        spec.row_pitch_align_bytes = (uint32_t)r;
    }
    memcpy(out->order, spec.order, sizeof out->order);
    out->layout_requested = true;

    struct dmlt_error err;
    switch (dmlt_strides_from_layout(t->dtype, t->rank, t->sizes, &spec, t->strides, &err)) {
    case DMLT_OK:
        return true;
    case DMLT_E_INVALID:
        cli_fail(e, CLI_E_BAD_ROW_PITCH, "--row-pitch-align", a->row_pitch_align,
                 "not a whole number of %u-bit elements", (unsigned)dmlt_u128_to_u64(err.limit));
        cli_hint(e, "use a multiple of the element size, e.g. 256");
        return false;
    case DMLT_E_LAYOUT: {
        char dn[8];
        cli_dim_name(dn, t->rank, (unsigned)err.dim);
        /* The --pad text that pads that dim, to quote. */
        const char *text = a->n_pad ? a->pad[0] : NULL;
        for (unsigned i = 0; i < a->n_pad; i++) {
            uint32_t one[DMLT_MAX_RANK] = {0};
            struct cli_error ignored;
            if (describe_pad(a->pad[i], t->rank, one, &ignored) && one[err.dim]) {
                text = a->pad[i];
                break;
            }
        }
        cli_fail(e, CLI_E_BAD_PAD, "--pad", text,
                 "%s is the outermost dimension of this layout; padding after it changes no stride",
                 dn);
        cli_hint(e, "for bytes after the tensor, use --total-size");
        return false;
    }
    case DMLT_E_RANGE: {
        char dn[8], num[40];
        cli_dim_name(dn, t->rank, (unsigned)err.dim);
        num[cli_fmt_u128(num, err.value)] = '\0';
        return cli_fail(e, CLI_E_STRIDE_RANGE, "--sizes", a->sizes,
                        "the stride of dimension %d (%s) would be %s, over 4294967295 (DirectML "
                        "strides are 32-bit)",
                        err.dim, dn, num);
    }
    case DMLT_E_RANK:
    case DMLT_E_ZERO_SIZE:
    case DMLT_E_DTYPE:
    case DMLT_E_COORD:
    case DMLT_E_WORK_CAP:
        break;
    }
    return cli_fail(e, CLI_E_INTERNAL, NULL, NULL, "unexpected error computing strides");
}

bool cli_describe_tensor(const struct tensor_args *a, struct tensor_desc *out, struct cli_error *e)
{
    memset(out, 0, sizeof *out);
    struct dmlt_tensor *t = &out->t;
    if (!describe_dtype(a->dtype, &t->dtype, e))
        return false;
    if (a->sizes == NULL) {
        cli_fail(e, CLI_E_MISSING_OPTION, "--sizes", NULL, "missing; it is required");
        cli_hint(e, "for example --sizes 1,3,224,224 (logical order: N,C,H,W)");
        return false;
    }
    uint64_t v[DMLT_MAX_RANK];
    unsigned given_rank;
    if (!cli_parse_uint_list("--sizes", a->sizes, 1, DMLT_MAX_DIM_SIZE, DMLT_MAX_RANK, v,
                             &given_rank, e, "dimension", "sizes"))
        return false;
    t->rank = given_rank;
    if (a->rank) {
        uint64_t r;
        if (!cli_parse_uint(a->rank, strlen(a->rank), 1, DMLT_MAX_RANK, &r, e, "--rank", a->rank,
                            "the rank", NULL))
            return false;
        if (r < given_rank)
            return cli_fail(e, CLI_E_BAD_RANK, "--rank", a->rank,
                            "smaller than the %u sizes given (--rank only adds leading dims)",
                            given_rank);
        t->rank = (unsigned)r;
    }
    unsigned lead = t->rank - given_rank;
    for (unsigned d = 0; d < t->rank; d++)
        t->sizes[d] = d < lead ? 1 : (uint32_t)v[d - lead];

    out->given_rank = given_rank;
    if (!describe_buffer(a, out, e))
        return false;

    /* Strides come from exactly one source. */
    const char *src[3] = {a->strides ? "--strides" : NULL, a->layout ? "--layout" : NULL,
                          a->order ? "--order" : NULL};
    const char *first = NULL;
    for (int i = 0; i < 3; i++) {
        if (src[i] && first) {
            cli_fail(e, CLI_E_CONFLICTING_OPTIONS, src[i], NULL, "conflicts with %s", first);
            cli_hint(e, "strides come from one of --strides, --layout or --order");
            return false;
        }
        if (src[i])
            first = src[i];
    }
    if (a->strides) {
        const char *mod = a->n_broadcast       ? "--broadcast"
                          : a->n_pad           ? "--pad"
                          : a->row_pitch_align ? "--row-pitch-align"
                                               : NULL;
        if (mod) {
            cli_fail(e, CLI_E_CONFLICTING_OPTIONS, mod, NULL,
                     "modifies a layout; it cannot be "
                     "combined with --strides");
            cli_hint(e, "write the strides you want in --strides (0 to broadcast)");
            return false;
        }
        if (!describe_strides(a, given_rank, out, e))
            return false;
        const char *dl = a->described_layout;
        out->order_preferred =
            dl && dmlt_layout_parse(dl, strlen(dl), t->rank, out->order) == DMLT_OK;
        return true;
    }

    return describe_layout(a, out, e);
}

void cli_layout_name(struct outbuf *b, unsigned rank, const unsigned order[])
{
    const char *letters = dmlt_dim_letters(rank);
    if (letters) {
        for (unsigned i = 0; i < rank; i++)
            ob_putc(b, letters[order[i]]);
        return;
    }
    bool row = true, col = true;
    for (unsigned i = 0; i < rank; i++) {
        row = row && order[i] == i;
        col = col && order[i] == rank - 1 - i;
    }
    if (row || col) {
        ob_puts(b, row ? "row-major" : "col-major");
        return;
    }
    for (unsigned i = 0; i < rank; i++) {
        if (i)
            ob_putc(b, ',');
        ob_u64(b, order[i]);
    }
}
