/* view_render.c - one view of view's walk (view_render.h): measured (its
 * descriptor, binding and validate's checks, and the view's own), then
 * rendered as text, JSON or C; and the parent and the fix, as the command
 * puts them around the views. */
#include "view_render.h"
#include "check_messages.h"
#include "render_c.h"

#include <stdio.h>
#include <string.h>

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
    *cli_put_u64(a, r->v->offset) = '\0';
    *cli_put_u64(b, r->offset) = '\0';
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

/* validate's sentence for a check, except base_offset_16 failing, whose
 * remedy for a view is not to move the range but to pad the parent. */
static void desc_check_message(char *msg, size_t size, const struct dmlt_check *c,
                               const struct parent_info *p, const struct view_result *r)
{
    if (c->id == DMLT_CHECK_BASE_OFFSET_16 && !c->passed) {
        char a[24], b[24], z[24];
        *cli_put_u64(a, r->offset) = '\0';
        *cli_put_u64(b, r->byte_offset) = '\0';
        *cli_put_u64(z, p->td->base_offset) = '\0';
        cli_say(msg, size,
                "Offset %s is not a multiple of 16: the view starts %s byte%s into the parent, "
                "bound at %s",
                a, b, r->byte_offset == 1 ? "" : "s", z);
        return;
    }
    cli_check_message(msg, size, c, &r->vd);
}

/* ---- rendering ------------------------------------------------------------- */

static void json_view(struct outbuf *b, const struct parent_info *p, const struct view_result *r)
{
    const struct dmlt_view *v = r->v;
    ob_puts(b, "{\"desc\":{\"DataType\":\"");
    ob_puts(b, p->info->dml_name);
    ob_puts(b, "\",\"Flags\":\"DML_TENSOR_FLAG_NONE\",\"DimensionCount\":");
    ob_u64(b, v->t.rank);
    ob_puts(b, ",\"Sizes\":");
    cli_ob_u32_list(b, v->t.sizes, v->t.rank, 1, true);
    ob_puts(b, ",\"Strides\":");
    cli_ob_u32_list(b, v->t.strides, v->t.rank, 1, true);
    ob_puts(b, ",\"TotalTensorSizeInBytes\":");
    ob_u64(b, r->size);
    ob_puts(b, ",\"GuaranteedBaseOffsetAlignment\":");
    ob_u64(b, r->alignment);
    ob_puts(b, "},\"binding\":{\"offset_bytes\":");
    ob_u64(b, r->offset);
    ob_puts(b, ",\"size_in_bytes\":");
    ob_u64(b, r->size);
    ob_puts(b, "},\"source\":");
    cli_ob_u32_list(b, v->source, v->parent_rank, 1, true);
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
        cli_ob_json_str(b, msg);
        ob_puts(b, ",\"rule\":");
        cli_ob_json_str(b, rule);
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
    cli_ob_pad_to(b, start, 35);
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
    cli_ob_u32_list(b, v->source, v->parent_rank, 1, false);
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
        cli_ob_pad_to(b, start, 8);
        ob_puts(b, id);
        cli_ob_pad_to(b, start, 32);
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
    cli_ob_init(&head);
    ob_puts(&head, "view ");
    ob_u64(&head, index);
    ob_puts(&head, ": parent coordinate ");
    cli_ob_u32_list(&head, v->source, v->parent_rank, 1, false);
    ob_puts(&head, ", element offset ");
    ob_u64(&head, v->offset);
    ob_putc(&head, '\0');
    if (!head.failed)
        cli_c_comment(b, head.data);
    cli_ob_free(&head);
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
        cli_c_comment(b, msg);
    }
    char name[C_NAME_MAX + 24];
    *cli_put_u64(num, index) = '\0';
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
    cli_render_c_snippet(b, &s);
}

bool cli_view_render(void *ctx, const struct dmlt_view *v, unsigned index)
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

void cli_view_parent_json(struct outbuf *b, const struct parent_info *p)
{
    const struct tensor_desc *td = p->td;
    ob_puts(b, "\"parent\":{\"dtype\":\"");
    ob_puts(b, p->info->name);
    ob_puts(b, "\",\"sizes\":");
    cli_ob_u32_list(b, td->t.sizes, td->t.rank, 1, true);
    ob_puts(b, ",\"strides\":");
    cli_ob_u32_list(b, td->t.strides, td->t.rank, 1, true);
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

void cli_view_parent_text(struct outbuf *b, const struct parent_info *p)
{
    const struct tensor_desc *td = p->td;
    ob_puts(b, "parent: ");
    ob_puts(b, p->info->name);
    ob_puts(b, ", sizes ");
    cli_ob_u32_list(b, td->t.sizes, td->t.rank, 1, false);
    ob_puts(b, ", strides ");
    cli_ob_u32_list(b, td->t.strides, td->t.rank, 1, false);
    ob_puts(b, "; ");
    ob_u64(b, p->total);
    ob_puts(b, " bytes at offset ");
    ob_u64(b, td->base_offset);
    ob_puts(b, " of a ");
    ob_u64(b, p->buffer_size);
    ob_puts(b, "-byte buffer\n");
}

void cli_view_fix_render(struct outbuf *b, const struct fix *f, bool json)
{
    if (json) {
        if (!f->pad_found && !f->pitch_found) {
            ob_puts(b, ",\"fix\":null");
            return;
        }
        ob_puts(b, ",\"fix\":{\"pad\":");
        if (f->pad_found)
            cli_ob_json_str(b, f->pad);
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
