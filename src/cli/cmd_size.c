/* cmd_size.c - the `size` command: compute the report, then render it as
 * text (people), JSON (one line), env (KEY=value) or one --field. JSON, env
 * and --field all read the same field table below, so their keys agree. */
#include "cli.h"
#include "parse.h"
#include "render_c.h"

#include <stdio.h>
#include <string.h>

struct size_result {
    const struct tensor_desc *d;
    const struct dmlt_dtype_info *info;
    struct dmlt_report r;
    bool layout_detected; /* as r's, preferring a described layout */
    unsigned detected_order[DMLT_MAX_RANK];
    bool valid; /* no error-level diagnostic: DirectML takes the descriptor */
};

enum flavor { FL_JSON, FL_ENV, FL_FIELD };

static void put_null(struct outbuf *b, enum flavor fl)
{
    if (fl != FL_ENV)
        OB_LIT(b, "null");
}

static void put_bool(struct outbuf *b, bool v)
{
    if (v)
        OB_LIT(b, "true");
    else
        OB_LIT(b, "false");
}

static void put_tristate(struct outbuf *b, enum dmlt_tristate v, enum flavor fl)
{
    if (v == DMLT_UNKNOWN)
        put_null(b, fl);
    else
        put_bool(b, v == DMLT_YES);
}

/* A list: [1,2,3] in JSON, 1,2,3 otherwise. */
static void list_open(struct outbuf *b, enum flavor fl)
{
    if (fl == FL_JSON)
        ob_putc(b, '[');
}

static void list_close(struct outbuf *b, enum flavor fl)
{
    if (fl == FL_JSON)
        ob_putc(b, ']');
}

static void put_u32_list(struct outbuf *b, const uint32_t *v, unsigned n, uint64_t scale,
                         enum flavor fl)
{
    cli_ob_u32_list(b, v, n, scale, fl == FL_JSON);
}

/* A data type's names are the core's constants, letters, digits and
 * underscores only (test_dtype pins them): JSON strings without escapes. */
static void put_name(struct outbuf *b, const char *name, enum flavor fl)
{
    if (fl == FL_JSON)
        ob_putc(b, '"');
    ob_puts(b, name);
    if (fl == FL_JSON)
        ob_putc(b, '"');
}
static void f_dtype(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    put_name(b, s->info->name, fl);
}
static void f_dml_data_type(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    put_name(b, s->info->dml_name, fl);
}
static void f_dml_data_type_value(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    (void)fl;
    ob_u64(b, (uint64_t)s->info->dtype);
}
static void f_bits(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    (void)fl;
    ob_u64(b, s->info->bits);
}
static void f_rank(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    (void)fl;
    ob_u64(b, s->d->t.rank);
}
static void f_sizes(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    put_u32_list(b, s->d->t.sizes, s->d->t.rank, 1, fl);
}

/* The requested layout, else the one the strides pack, else null. */
static bool layout_order(const struct size_result *s, const unsigned **order)
{
    if (s->d->layout_requested) {
        *order = s->d->order;
        return true;
    }
    *order = s->detected_order;
    return s->layout_detected;
}

static void f_layout(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    const unsigned *order;
    if (!layout_order(s, &order)) {
        put_null(b, fl);
        return;
    }
    if (fl == FL_JSON)
        ob_putc(b, '"');
    cli_layout_name(b, s->d->t.rank, order);
    if (fl == FL_JSON)
        ob_putc(b, '"');
}
static void f_strides(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    put_u32_list(b, s->d->t.strides, s->d->t.rank, 1, fl);
}
static void f_byte_strides(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    if (s->info->bits < 8)
        put_null(b, fl); /* a 4-bit stride can be half a byte */
    else
        put_u32_list(b, s->d->t.strides, s->d->t.rank, s->info->bits / 8, fl);
}
static void f_broadcast(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    list_open(b, fl);
    for (unsigned i = 0; i < s->d->t.rank; i++) {
        if (i)
            ob_putc(b, ',');
        put_bool(b, s->r.broadcast_dims[i]);
    }
    list_close(b, fl);
}

#define U128_FIELD(fname, member)                                                                  \
    static void fname(struct outbuf *b, const struct size_result *s, enum flavor fl)               \
    {                                                                                              \
        (void)fl;                                                                                  \
        ob_u128(b, s->r.member);                                                                   \
    }
U128_FIELD(f_element_count, element_count)
U128_FIELD(f_index_of_last, index_of_last_element)
U128_FIELD(f_packed_size, packed_size_bytes)
U128_FIELD(f_minimum_size, minimum_implied_size_bytes)
U128_FIELD(f_padded_size, padded_size_bytes)
U128_FIELD(f_total_size, total_tensor_size_bytes)

static void f_p_packed(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    put_tristate(b, s->r.packed, fl);
}
static void f_p_padded(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    put_tristate(b, s->r.padded, fl);
}
static void f_p_broadcast(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    (void)fl;
    put_bool(b, s->r.broadcast);
}
static void f_p_overlapping(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    put_tristate(b, s->r.overlapping, fl);
}

static void f_valid(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    (void)fl;
    put_bool(b, s->valid);
}

static const char *severity_name(enum dmlt_severity sev)
{
    switch (sev) {
    case DMLT_INFO:
        return "info";
    case DMLT_WARNING:
        return "warning";
    case DMLT_ERROR:
        return "error";
    }
    return "info";
}

/* The human sentence for a diagnostic; the numbers come from the report. */
static void diag_message(struct outbuf *b, const struct size_result *s, const struct dmlt_diag *g)
{
    char n1[40], n2[40];
    n1[cli_fmt_u128(n1, g->value)] = '\0';
    n2[cli_fmt_u128(n2, s->r.minimum_implied_size_bytes)] = '\0';
    char msg[400];
    switch (g->id) {
    case DMLT_DIAG_HELPER_OVERFLOW:
        snprintf(msg, sizeof msg,
                 "DMLCalcBufferTensorSize as published sums the strided index in 32 bits, "
                 "which wraps here: it returns %s bytes, not %s",
                 n1, n2);
        break;
    case DMLT_DIAG_HELPER_DTYPE:
        snprintf(msg, sizeof msg,
                 "DMLCalcBufferTensorSize as published has no case for 4-bit types and returns "
                 "0; sizes here count 4 bits per element");
        break;
    case DMLT_DIAG_RANK_NOT_4_OR_5:
        snprintf(msg, sizeof msg,
                 "rank %s: most DirectML operators take 4-D or 5-D tensors (--rank 4 adds "
                 "leading size-1 dims)",
                 n1);
        break;
    case DMLT_DIAG_OVERLAP_UNKNOWN:
        snprintf(msg, sizeof msg,
                 "the overlap search stopped after %s steps: overlapping, packed and padded "
                 "are unknown",
                 n1);
        break;
    case DMLT_DIAG_TOTAL_TOO_SMALL:
        snprintf(msg, sizeof msg,
                 "the total size is below the minimum implied size %s bytes; DirectML "
                 "rejects it",
                 n1);
        break;
    case DMLT_DIAG_OVER_UINT32_ELEMENTS:
        snprintf(msg, sizeof msg,
                 "the buffer holds more than 2^32-1 elements (%s bytes of this type), the most "
                 "a DirectML buffer tensor may",
                 n1);
        break;
    case DMLT_DIAG_COUNT:
        msg[0] = '\0';
        break;
    }
    ob_puts(b, msg);
}

static void f_diagnostics(struct outbuf *b, const struct size_result *s, enum flavor fl)
{
    list_open(b, fl);
    for (unsigned i = 0; i < s->r.diag_count; i++) {
        const struct dmlt_diag *g = &s->r.diags[i];
        if (i)
            ob_putc(b, ',');
        if (fl != FL_JSON) {
            ob_puts(b, dmlt_diag_id_name(g->id));
            continue;
        }
        ob_puts(b, "{\"severity\":\"");
        ob_puts(b, severity_name(dmlt_diag_severity(g->id)));
        ob_puts(b, "\",\"id\":\"");
        ob_puts(b, dmlt_diag_id_name(g->id));
        ob_puts(b, "\",\"message\":");
        struct outbuf m;
        cli_ob_init(&m);
        diag_message(&m, s, g);
        ob_putc(&m, '\0');
        cli_ob_json_str(b, m.failed ? "" : m.data);
        cli_ob_free(&m);
        if (g->id == DMLT_DIAG_HELPER_OVERFLOW) {
            ob_puts(b, ",\"helper_size_bytes\":");
            ob_u128(b, g->value);
        }
        ob_putc(b, '}');
    }
    list_close(b, fl);
}

struct field {
    const char *group; /* NULL, or the object it sits in */
    const char *key;
    /* In JSON: "group":{ when the group opens here, then "key": */
    const char *json_key;
    size_t json_key_len;
    void (*put)(struct outbuf *, const struct size_result *, enum flavor);
};

#define FIELD(key, put)                                                                            \
    {                                                                                              \
        NULL, key, "\"" key "\":", sizeof("\"" key "\":") - 1, put                                 \
    }
#define GROUP_OPEN(group, key, put)                                                                \
    {                                                                                              \
        group, key, "\"" group "\":{\"" key "\":", sizeof("\"" group "\":{\"" key "\":") - 1, put  \
    }
#define IN_GROUP(group, key, put)                                                                  \
    {                                                                                              \
        group, key, "\"" key "\":", sizeof("\"" key "\":") - 1, put                                \
    }

/* The `size` JSON object, in order. docs/schema/size.schema.json names these keys. A group's
 * fields are consecutive, its first opens it. */
static const struct field fields[] = {
    FIELD("dtype", f_dtype),
    FIELD("dml_data_type", f_dml_data_type),
    FIELD("dml_data_type_value", f_dml_data_type_value),
    FIELD("element_size_bits", f_bits),
    FIELD("rank", f_rank),
    FIELD("sizes", f_sizes),
    FIELD("layout", f_layout),
    FIELD("strides", f_strides),
    FIELD("byte_strides", f_byte_strides),
    FIELD("broadcast", f_broadcast),
    FIELD("element_count", f_element_count),
    FIELD("index_of_last_element", f_index_of_last),
    FIELD("packed_size_bytes", f_packed_size),
    FIELD("minimum_implied_size_bytes", f_minimum_size),
    FIELD("padded_size_bytes", f_padded_size),
    FIELD("total_tensor_size_bytes", f_total_size),
    GROUP_OPEN("properties", "packed", f_p_packed),
    IN_GROUP("properties", "padded", f_p_padded),
    IN_GROUP("properties", "broadcast", f_p_broadcast),
    IN_GROUP("properties", "overlapping", f_p_overlapping),
    FIELD("valid", f_valid),
    FIELD("diagnostics", f_diagnostics),
};
#define N_FIELDS (sizeof fields / sizeof fields[0])

static void render_json(struct outbuf *b, const struct size_result *s, const struct cli_config *cfg)
{
    cli_json_open(cfg, b);
    for (size_t i = 0; i < N_FIELDS; i++) {
        const struct field *f = &fields[i];
        if (i) {
            /* Close the group the previous field was in, if this one is not. */
            const char *open = fields[i - 1].group;
            if (open && (f->group == NULL || strcmp(open, f->group) != 0))
                ob_putc(b, '}');
            ob_putc(b, ',');
        }
        ob_write(b, f->json_key, f->json_key_len);
        f->put(b, s, FL_JSON);
    }
    if (fields[N_FIELDS - 1].group)
        ob_putc(b, '}');
    OB_LIT(b, "}\n");
}

static void put_upper(struct outbuf *b, const char *s)
{
    for (const char *p = s; *p; p++)
        ob_putc(b, ascii_upper(*p));
}

/* DMLT_ and the JSON path in capitals: properties.packed is
 * DMLT_PROPERTIES_PACKED. Values need no quoting: digits, letters, commas,
 * dashes and underscores only. */
static void render_env(struct outbuf *b, const struct size_result *s)
{
    for (size_t i = 0; i < N_FIELDS; i++) {
        ob_puts(b, "DMLT_");
        if (fields[i].group) {
            put_upper(b, fields[i].group);
            ob_putc(b, '_');
        }
        put_upper(b, fields[i].key);
        ob_putc(b, '=');
        fields[i].put(b, s, FL_ENV);
        ob_putc(b, '\n');
    }
}

static const struct field *find_field(const char *name)
{
    const struct field *bare = NULL;
    for (size_t i = 0; i < N_FIELDS; i++) {
        const struct field *f = &fields[i];
        size_t gl = f->group ? strlen(f->group) : 0;
        if (f->group && strncmp(name, f->group, gl) == 0 && name[gl] == '.' &&
            strcmp(name + gl + 1, f->key) == 0)
            return f;
        if (strcmp(name, f->key) == 0 && (bare == NULL || f->group == NULL))
            bare = f;
    }
    return bare;
}

static bool render_field(struct outbuf *b, const struct size_result *s, const char *name,
                         struct cli_error *e)
{
    const struct field *f = find_field(name);
    if (f == NULL) {
        cli_fail(e, CLI_E_BAD_FIELD, "--field", name, "not a field of size");
        cli_hint(e, "fields are the JSON keys: dtype, sizes, strides, "
                    "minimum_implied_size_bytes, properties.packed, ... (see --format json)");
        return false;
    }
    f->put(b, s, FL_FIELD);
    ob_putc(b, '\n');
    return true;
}

static size_t row(struct outbuf *b, const char *label)
{
    size_t start = b->len;
    ob_puts(b, label);
    cli_ob_pad_to(b, start, 23);
    return start;
}

static void render_text(struct outbuf *b, const struct size_result *s)
{
    const struct dmlt_tensor *t = &s->d->t;
    const struct dmlt_report *r = &s->r;
    const char *letters = dmlt_dim_letters(t->rank);

    row(b, "dtype");
    ob_puts(b, s->info->name);
    ob_puts(b, " (");
    ob_puts(b, s->info->dml_name);
    ob_puts(b, " = ");
    ob_u64(b, (uint64_t)s->info->dtype);
    ob_puts(b, ", ");
    ob_u64(b, s->info->bits);
    ob_puts(b, " bits)\n");

    row(b, "rank");
    ob_u64(b, t->rank);
    if (letters) {
        ob_puts(b, " (");
        for (unsigned i = 0; i < t->rank; i++) {
            if (i)
                ob_putc(b, ',');
            ob_putc(b, letters[i]);
        }
        ob_putc(b, ')');
    }
    ob_putc(b, '\n');

    row(b, "sizes");
    f_sizes(b, s, FL_FIELD);
    ob_putc(b, '\n');

    row(b, "layout");
    const unsigned *order;
    if (layout_order(s, &order)) {
        cli_layout_name(b, t->rank, order);
        if (!s->d->layout_requested)
            ob_puts(b, " (detected from the strides)");
    } else {
        ob_puts(b, "none (the strides are not a packed layout)");
    }
    ob_putc(b, '\n');

    row(b, "strides");
    f_strides(b, s, FL_FIELD);
    ob_putc(b, '\n');
    row(b, "byte strides");
    if (s->info->bits < 8)
        ob_puts(b, "none (4-bit elements: see strides)");
    else
        f_byte_strides(b, s, FL_FIELD);
    ob_putc(b, '\n');

    row(b, "broadcast");
    if (!r->broadcast) {
        ob_puts(b, "none");
    } else {
        bool first = true;
        for (unsigned i = 0; i < t->rank; i++) {
            if (!r->broadcast_dims[i])
                continue;
            char dn[8];
            cli_dim_name(dn, t->rank, i);
            if (!first)
                ob_putc(b, ',');
            ob_puts(b, dn);
            first = false;
        }
        ob_puts(b, " (stride 0)");
    }
    ob_putc(b, '\n');

    row(b, "element count");
    ob_u128(b, r->element_count);
    ob_putc(b, '\n');
    row(b, "index of last element");
    ob_u128(b, r->index_of_last_element);
    ob_putc(b, '\n');
    row(b, "packed size");
    cli_ob_bytes(b, r->packed_size_bytes);
    ob_putc(b, '\n');
    row(b, "minimum implied size");
    cli_ob_bytes(b, r->minimum_implied_size_bytes);
    ob_putc(b, '\n');
    row(b, "padded size");
    cli_ob_bytes(b, r->padded_size_bytes);
    ob_putc(b, '\n');
    row(b, "total tensor size");
    cli_ob_bytes(b, r->total_tensor_size_bytes);
    ob_puts(b, r->total_given ? ", given\n" : ", the minimum implied size\n");

    row(b, "properties");
    if (r->overlapping == DMLT_UNKNOWN) {
        ob_puts(b, r->broadcast ? "broadcast, " : "");
        ob_puts(b, "overlap unknown");
    } else if (r->overlapping == DMLT_YES) {
        ob_puts(b, r->broadcast ? "broadcast, overlapping" : "overlapping");
    } else {
        ob_puts(b, r->packed == DMLT_YES ? "packed" : "padded");
    }
    ob_putc(b, '\n');

    for (unsigned i = 0; i < r->diag_count; i++) {
        const struct dmlt_diag *g = &r->diags[i];
        if (i == 0)
            ob_putc(b, '\n');
        ob_puts(b, severity_name(dmlt_diag_severity(g->id)));
        ob_puts(b, ": ");
        ob_puts(b, dmlt_diag_id_name(g->id));
        ob_puts(b, ": ");
        diag_message(b, s, g);
        ob_putc(b, '\n');
    }
}

/* The snippet of --format c: the descriptor as given (Flags none, no
 * alignment: size takes neither), its layout in the heading. */
static bool render_c(struct outbuf *b, const struct size_result *s, const char *name,
                     struct cli_error *e)
{
    struct c_snippet c;
    memset(&c, 0, sizeof c);
    if (!cli_c_total(s->r.total_tensor_size_bytes, &c.total, e))
        return false;
    c.name = name;
    c.t = &s->d->t;
    struct outbuf layout;
    cli_ob_init(&layout);
    const unsigned *order;
    if (layout_order(s, &order)) {
        cli_layout_name(&layout, s->d->t.rank, order);
        ob_putc(&layout, '\0');
        c.layout = layout.failed ? NULL : layout.data;
    }
    /* What DirectML would say of it first: each error and warning as a
     * comment, as validate's snippet carries its failed checks. */
    for (unsigned i = 0; i < s->r.diag_count; i++) {
        const struct dmlt_diag *g = &s->r.diags[i];
        const enum dmlt_severity sev = dmlt_diag_severity(g->id);
        if (sev == DMLT_INFO)
            continue;
        struct outbuf m;
        cli_ob_init(&m);
        ob_puts(&m, sev == DMLT_ERROR ? "FAIL " : "warn ");
        ob_puts(&m, dmlt_diag_id_name(g->id));
        ob_puts(&m, ": ");
        diag_message(&m, s, g);
        ob_putc(&m, '\0');
        if (m.failed)
            b->failed = true;
        else
            cli_c_comment(b, m.data);
        cli_ob_free(&m);
    }
    cli_render_c_snippet(b, &c);
    cli_ob_free(&layout);
    return true;
}

static bool run_size(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct tensor_desc d;
    if (!cli_describe_tensor(&cfg->t, &d, e))
        return false;
    struct size_result s;
    s.r.size = sizeof s.r;
    s.d = &d;
    s.info = dmlt_dtype_get(d.t.dtype);
    struct dmlt_error err;
    if (dmlt_report_compute(&d.t, d.has_total ? &d.total : NULL, &s.r, &err) != DMLT_OK)
        return cli_fail(e, CLI_E_ELEMENT_COUNT_RANGE, "--sizes", cfg->t.sizes,
                        "the element count times the element size is past 2^128 bits, "
                        "beyond what dmltensor computes exactly");
    s.layout_detected = s.r.layout_detected;
    memcpy(s.detected_order, s.r.detected_order, sizeof s.detected_order);
    if (d.order_preferred)
        s.layout_detected =
            dmlt_layout_detect_prefer(d.t.rank, d.t.sizes, d.t.strides, d.order, s.detected_order);
    s.valid = true;
    for (unsigned i = 0; i < s.r.diag_count; i++)
        if (dmlt_diag_severity(s.r.diags[i].id) == DMLT_ERROR)
            s.valid = false;
    /* SPEC section 4: a description that breaks a DirectML rule is exit
     * status 1, whatever the format (batch counts the record as broken). */
    if (!s.valid)
        cfg->exit_status = CLI_EXIT_RULE;
    if (cfg->field)
        return render_field(out, &s, cfg->field, e);
    switch (cfg->format) {
    case FMT_JSON:
        render_json(out, &s, cfg);
        break;
    case FMT_C:
        return render_c(out, &s, cfg->c_name, e);
    case FMT_ENV:
        render_env(out, &s);
        break;
    case FMT_TEXT:
    case FMT_CSV:   /* not a format of size: options.c refuses it */
    case FMT_JSONL: /* ditto */
    case FMT_SVG:   /* ditto */
        render_text(out, &s);
        break;
    }
    return true;
}

const struct command cli_cmd_size = {
    .name = "size",
    .id = CMD_SIZE,
    .summary = "strides, buffer sizes and properties of a tensor",
    .usage = "dmltensor size --sizes LIST [OPTIONS]",
    .about = "Strides, element counts and buffer sizes of a DirectML buffer tensor:\n"
             "the minimum implied size (DMLCalcBufferTensorSize, exact), packed, padded\n"
             "and total sizes, broadcast/overlap/packed/padded properties, and warnings\n"
             "such as the published helper's 32-bit overflow. Exit status 1 when a\n"
             "diagnostic is an error (a total below the minimum: DirectML rejects it).\n",
    .examples = "  dmltensor size --dtype float16 --sizes 1,3,224,224 --layout nhwc\n"
                "  dmltensor size --sizes 2,3 --pad w=2            # row stride 5\n"
                "  dmltensor size --sizes 1,3,4,4 --broadcast h,w --format json\n"
                "  bytes=$(dmltensor size --sizes 1,64,56,56 --field minimum_implied_size_bytes)\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_ENV) | FMT_BIT(FMT_C),
    .c_variables = "Sizes, Strides, BufferDesc",
    .format_help =
        "text (default), json (one line), env (KEY=value lines for eval) or c (a C snippet: "
        "the DML_BUFFER_TENSOR_DESC)",
    .batch = true,
    .tensor = true,
    .run = run_size,
};
