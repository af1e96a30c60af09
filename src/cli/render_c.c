/* render_c.c - see render_c.h. The snippet is checked by
 * tests/c_snippet/check_c_snippet.py: compiled as C11 and as C++ against a
 * stand-in of directml.h, run, and its values compared with --format json. */
#include "render_c.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

bool cli_c_name_check(const char *name, const char *variables, struct cli_error *e)
{
    size_t n = strlen(name);
    bool ok = n >= 1 && n <= C_NAME_MAX &&
              ((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z'));
    for (size_t i = 0; ok && i < n; i++) {
        char c = name[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             (c == '_' && name[i + 1] != '_');
    }
    if (ok)
        return true;
    cli_fail(e, CLI_E_BAD_NAME, "--name", name,
             "not a name for C variables (letters, digits and single underscores, starting with a "
             "letter, at most %d characters)",
             C_NAME_MAX);
    /* "input: inputSizes, inputStrides, inputBufferDesc" from "Sizes, Strides, BufferDesc" */
    char hint[160] = "for example --name input:";
    size_t n_hint = strlen(hint);
    for (const char *v = variables ? variables : ""; *v && n_hint + 8 < sizeof hint;) {
        size_t k = strcspn(v, ",");
        n_hint += (size_t)snprintf(hint + n_hint, sizeof hint - n_hint, " input%.*s%s", (int)k, v,
                                   v[k] ? "," : "");
        v += k + (v[k] == ',');
        while (*v == ' ')
            v++;
    }
    cli_hint(e, "%s", hint);
    return false;
}

bool cli_c_total(dmlt_u128 total, uint64_t *out, struct cli_error *e)
{
    if (dmlt_u128_fits_u64(total)) {
        *out = dmlt_u128_to_u64(total);
        return true;
    }
    char num[40];
    num[cli_fmt_u128(num, total)] = '\0';
    cli_fail(e, CLI_E_TOTAL_SIZE_RANGE, NULL, NULL,
             "TotalTensorSizeInBytes would be %s, past UINT64: no DML_BUFFER_TENSOR_DESC can "
             "describe this tensor",
             num);
    cli_hint(e, "split the tensor (a buffer tensor holds at most 2^32-1 elements)");
    e->exit_code = CLI_EXIT_RULE;
    return false;
}

void cli_c_comment(struct outbuf *b, const char *text)
{
    OB_LIT(b, "/* ");
    for (const char *p = text; *p; p++) {
        ob_putc(b, *p);
        if (p[0] == '*' && p[1] == '/')
            ob_putc(b, ' ');
    }
    OB_LIT(b, " */\n");
}

/* An integer literal of the type the field needs. Plain up to INT_MAX
 * (an int everywhere); 'u' up to UINT_MAX, so that no compiler reads
 * 4294967295 as a signed long; past 32 bits, for UINT64 fields only, ULL. */
static void put_literal(struct outbuf *b, uint64_t v)
{
    ob_u64(b, v);
    if (v > UINT32_MAX)
        OB_LIT(b, "ULL");
    else if (v > INT32_MAX)
        ob_putc(b, 'u');
}

static void put_array(struct outbuf *b, const char *name, const char *suffix, const uint32_t *v,
                      unsigned n)
{
    OB_LIT(b, "UINT ");
    ob_puts(b, name);
    ob_puts(b, suffix);
    ob_putc(b, '[');
    ob_u64(b, n);
    OB_LIT(b, "] = {");
    for (unsigned i = 0; i < n; i++) {
        if (i)
            OB_LIT(b, ", ");
        put_literal(b, v[i]);
    }
    OB_LIT(b, "};\n");
}

/* An initializer, one member a line with the member's name in a comment,
 * the comments aligned. */
#define C_MAX_MEMBERS 7
struct members {
    struct outbuf text; /* the values, each NUL-terminated */
    size_t start[C_MAX_MEMBERS];
    const char *field[C_MAX_MEMBERS];
    unsigned n;
};

static struct outbuf *member(struct members *m, const char *field)
{
    if (m->n)
        ob_putc(&m->text, '\0');
    m->start[m->n] = m->text.len;
    m->field[m->n++] = field;
    return &m->text;
}

static void put_members(struct outbuf *b, const char *type, const char *name, const char *suffix,
                        struct members *m)
{
    ob_putc(&m->text, '\0');
    ob_puts(b, type);
    ob_putc(b, ' ');
    ob_puts(b, name);
    ob_puts(b, suffix);
    OB_LIT(b, " = {\n");
    size_t width = 0;
    for (unsigned i = 0; i < m->n && !m->text.failed; i++) {
        size_t w = strlen(m->text.data + m->start[i]) + (i + 1 < m->n);
        width = w > width ? w : width;
    }
    for (unsigned i = 0; i < m->n && !m->text.failed; i++) {
        size_t line = b->len;
        OB_LIT(b, "    ");
        ob_puts(b, m->text.data + m->start[i]);
        if (i + 1 < m->n)
            ob_putc(b, ',');
        cli_ob_pad_to(b, line, 4 + width + 1);
        OB_LIT(b, "/* ");
        ob_puts(b, m->field[i]);
        OB_LIT(b, " */\n");
    }
    if (m->text.failed)
        b->failed = true;
    OB_LIT(b, "};\n");
    cli_ob_reset(&m->text);
    m->n = 0;
}

void cli_render_c_snippet(struct outbuf *b, const struct c_snippet *s)
{
    const struct dmlt_tensor *t = s->t;
    const struct dmlt_dtype_info *info = dmlt_dtype_get(t->dtype);
    const char *name = s->name ? s->name : C_NAME_DEFAULT;

    /* The heading: what the snippet describes. */
    struct outbuf h;
    cli_ob_init(&h);
    ob_puts(&h, info->name);
    OB_LIT(&h, " tensor, sizes {");
    cli_ob_u32_list(&h, t->sizes, t->rank, 1, false);
    ob_putc(&h, '}');
    if (s->layout) {
        OB_LIT(&h, ", layout ");
        ob_puts(&h, s->layout);
    }
    OB_LIT(&h, " (dmltensor)");
    ob_putc(&h, '\0');
    if (h.failed)
        b->failed = true;
    else
        cli_c_comment(b, h.data);
    cli_ob_free(&h);

    put_array(b, name, "Sizes", t->sizes, t->rank);
    put_array(b, name, "Strides", t->strides, t->rank);

    struct members m;
    memset(&m, 0, sizeof m);
    cli_ob_init(&m.text);
    ob_puts(member(&m, "DataType"), info->dml_name);
    struct outbuf *v = member(&m, "Flags");
    if (s->flags == 0) {
        ob_puts(v, "DML_TENSOR_FLAG_NONE");
    } else if (s->flags == DMLT_FLAG_OWNED_BY_DML) {
        ob_puts(v, "DML_TENSOR_FLAG_OWNED_BY_DML");
    } else { /* unknown bits: validate says so; the value is kept */
        ob_puts(v, "(DML_TENSOR_FLAGS)");
        put_literal(v, s->flags);
    }
    ob_u64(member(&m, "DimensionCount"), t->rank);
    v = member(&m, "Sizes");
    ob_puts(v, name);
    ob_puts(v, "Sizes");
    v = member(&m, "Strides");
    ob_puts(v, name);
    ob_puts(v, "Strides");
    put_literal(member(&m, "TotalTensorSizeInBytes"), s->total);
    put_literal(member(&m, "GuaranteedBaseOffsetAlignment"), s->alignment);
    put_members(b, "DML_BUFFER_TENSOR_DESC", name, "BufferDesc", &m);

    OB_LIT(b, "DML_TENSOR_DESC ");
    ob_puts(b, name);
    OB_LIT(b, "Desc = {DML_TENSOR_TYPE_BUFFER, &");
    ob_puts(b, name);
    OB_LIT(b, "BufferDesc};\n");

    if (s->binding) {
        const struct c_binding *bd = s->binding;
        char comment[96] = "Buffer: your ID3D12Resource*";
        if (bd->has_buffer_size) {
            char num[24];
            *cli_put_u64(num, bd->buffer_size) = '\0';
            snprintf(comment, sizeof comment, "Buffer: your ID3D12Resource* (a buffer of %s bytes)",
                     num);
        }
        ob_puts(member(&m, comment), "NULL");
        put_literal(member(&m, "Offset"), bd->offset);
        put_literal(member(&m, "SizeInBytes"), bd->size);
        put_members(b, "DML_BUFFER_BINDING", name, "Binding", &m);
        OB_LIT(b, "DML_BINDING_DESC ");
        ob_puts(b, name);
        OB_LIT(b, "BindingDesc = {DML_BINDING_TYPE_BUFFER, &");
        ob_puts(b, name);
        OB_LIT(b, "Binding};\n");
    }
    cli_ob_free(&m.text);
}
