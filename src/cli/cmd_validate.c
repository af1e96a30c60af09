/* cmd_validate.c - `validate`: the core runs every DirectML rule on the
 * descriptor; this file words each outcome (what is wrong, how to fix it)
 * and renders the list as text or JSON. Exit status 1 when an error-level
 * check fails. */
#include "cli.h"
#include "render_c.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *level_name(enum dmlt_severity s)
{
    return s == DMLT_ERROR ? "error" : s == DMLT_WARNING ? "warning" : "info";
}

/* Appends n bytes of s to msg[*len..], as many as fit before size - 1. */
static void say_part(char *msg, size_t size, size_t *len, const char *s, size_t n)
{
    if (n > size - 1 - *len)
        n = size - 1 - *len;
    memcpy(msg + *len, s, n);
    *len += n;
}

/* snprintf() for the sentences below, which only ever put in numbers
 * already written as text: each "%s" takes the next argument, everything
 * else is copied. Cut at size - 1 bytes, always NUL-terminated. (printf's
 * full machinery took a fifth of the time of a validate record in batch.) */
void cli_say(char *msg, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t len = 0;
    for (;;) {
        const char *pct = strchr(fmt, '%');
        say_part(msg, size, &len, fmt, pct ? (size_t)(pct - fmt) : strlen(fmt));
        if (pct == NULL)
            break;
        if (pct[1] != 's') { /* not a conversion: the '%' itself */
            say_part(msg, size, &len, pct, 1);
            fmt = pct + 1;
            continue;
        }
        const char *arg = va_arg(ap, const char *);
        say_part(msg, size, &len, arg, strlen(arg));
        fmt = pct + 2; /* past "%s" */
    }
    msg[len] = '\0';
    va_end(ap);
}

/* v rounded up to a multiple of m, wrapping modulo 2^128 as C's unsigned
 * arithmetic would. */
static dmlt_u128 round_up(dmlt_u128 v, uint64_t m)
{
    dmlt_u128 q;
    uint64_t rem;
    dmlt_u128_divmod(v, m, &q, &rem);
    if (rem == 0)
        return v;
    dmlt_u128 r = {0, 0};
    if (dmlt_u128_add(q, dmlt_u128_from_u64(1), &q))
        dmlt_u128_mul(q, dmlt_u128_from_u64(m), &r);
    return r;
}

/* The sentence for one check, with its numbers. */
void check_message(char *msg, size_t size, const struct dmlt_check *c, const struct tensor_desc *d)
{
    char v[40], l[40], r[40];
    v[fmt_u128(v, c->value)] = '\0';
    l[fmt_u128(l, c->limit)] = '\0';
    switch (c->id) {
    case DMLT_CHECK_RANK:
        cli_say(msg, size,
                c->passed ? "DimensionCount %s is within 1..8"
                          : "DimensionCount %s: use 1 to 8 dimensions",
                v);
        break;
    case DMLT_CHECK_SIZES_NONZERO:
        cli_say(msg, size,
                c->passed ? "no size is 0"
                          : "dimension %s has size 0: every size "
                            "must be at least 1",
                v);
        break;
    case DMLT_CHECK_STRIDES_COUNT:
        cli_say(msg, size,
                c->passed ? "one stride per dimension (%s)"
                          : "%s strides for %s dimensions: give one per dimension",
                v, l);
        break;
    case DMLT_CHECK_TOTAL_MINIMUM:
        if (dmlt_u128_eq(c->limit, dmlt_u128_max()))
            cli_say(msg, size, "the minimum implied size is past 2^128 bytes");
        else if (c->passed)
            cli_say(msg, size, "TotalTensorSizeInBytes %s is at least the minimum implied size %s",
                    v, l);
        else
            cli_say(msg, size,
                    "TotalTensorSizeInBytes %s is below the minimum implied size %s: set it to "
                    "at least %s",
                    v, l, l);
        break;
    case DMLT_CHECK_TOTAL_DWORD:
        r[fmt_u128(r, round_up(c->value, 4))] = '\0';
        cli_say(msg, size,
                c->passed ? "TotalTensorSizeInBytes %s is a multiple of 4"
                          : "TotalTensorSizeInBytes %s is not a multiple of 4: round "
                            "it up to %s",
                v, r);
        break;
    case DMLT_CHECK_TOTAL_ELEMENTS:
        cli_say(msg, size,
                c->passed ? "%s bytes is within 2^32-1 elements (%s bytes of this type)"
                          : "%s bytes is over 2^32-1 elements (%s bytes of this type): split "
                            "the tensor",
                v, l);
        break;
    case DMLT_CHECK_ALIGNMENT_POW2:
        if (dmlt_u128_eq(c->value, dmlt_u128_from_u64(0)))
            cli_say(msg, size, "GuaranteedBaseOffsetAlignment is 0 (no guarantee)");
        else if (c->passed)
            cli_say(msg, size,
                    "GuaranteedBaseOffsetAlignment %s is a power of two of at least the "
                    "element size (%s byte%s)",
                    v, l, dmlt_u128_eq(c->limit, dmlt_u128_from_u64(1)) ? "" : "s");
        else
            cli_say(msg, size,
                    "GuaranteedBaseOffsetAlignment %s is not a power of two of at least %s "
                    "bytes: use 0, 16, 32, 64, 128 or 256",
                    v, l);
        break;
    case DMLT_CHECK_BASE_OFFSET_16:
        r[fmt_u128(r, round_up(c->value, 16))] = '\0';
        cli_say(msg, size,
                c->passed ? "base offset %s is a multiple of 16"
                          : "base offset %s is not a multiple of 16: bind the "
                            "buffer range at %s",
                v, r);
        break;
    case DMLT_CHECK_BASE_OFFSET_ALIGNMENT:
        if (dmlt_u128_eq(c->limit, dmlt_u128_from_u64(0)))
            cli_say(msg, size, "no GuaranteedBaseOffsetAlignment to honour");
        else if (c->passed)
            cli_say(msg, size, "base offset %s is a multiple of the alignment %s", v, l);
        else
            cli_say(msg, size,
                    "base offset %s is not a multiple of GuaranteedBaseOffsetAlignment %s: "
                    "move the buffer range or lower the alignment",
                    v, l);
        break;
    case DMLT_CHECK_FLAGS:
        cli_say(msg, size,
                c->passed ? "Flags %s is a known DML_TENSOR_FLAGS value"
                          : "Flags %s has unknown bits: only "
                            "DML_TENSOR_FLAG_OWNED_BY_DML (1) is defined",
                v);
        break;
    case DMLT_CHECK_RANK_4_OR_5:
        cli_say(msg, size,
                c->passed ? "rank %s"
                          : "rank %s: most operators need 4-D or 5-D "
                            "tensors; pad with leading 1s (--rank 4)",
                v);
        break;
    case DMLT_CHECK_ALIGNMENT_32:
        if (c->passed)
            cli_say(msg, size, "alignment %s is at least 32 bytes", v);
        else if (dmlt_u128_eq(c->value, dmlt_u128_from_u64(0)))
            cli_say(msg, size,
                    "no alignment is guaranteed (0): 32 bytes or more lets DirectML "
                    "use vectorized loads");
        else
            cli_say(msg, size,
                    "alignment %s is under 32 bytes: aligning to 32 or more lets DirectML use "
                    "vectorized loads",
                    v);
        break;
    case DMLT_CHECK_HELPER:
        if (c->passed)
            cli_say(msg, size, "DMLCalcBufferTensorSize as published gives the same %s bytes", l);
        else if (dmlt_dtype_get(d->t.dtype)->bits < 8)
            cli_say(msg, size,
                    "DMLCalcBufferTensorSize as published returns 0 for 4-bit types: size the "
                    "buffer with %s bytes",
                    l);
        else
            cli_say(msg, size,
                    "DMLCalcBufferTensorSize as published wraps in 32 bits and returns %s "
                    "bytes, not %s: do not size this buffer with it",
                    v, l);
        break;
    case DMLT_CHECK_BINDING_SIZE:
        if (!d->has_binding_size)
            cli_say(msg, size, "no binding size given (--binding-size): not checked");
        else if (dmlt_u128_eq(c->limit, dmlt_u128_max()))
            cli_say(msg, size, "SizeInBytes %s: the tensor is too large to bind", v);
        else if (c->passed)
            cli_say(msg, size, "SizeInBytes %s is at least TotalTensorSizeInBytes %s", v, l);
        else
            cli_say(msg, size,
                    "SizeInBytes %s is below TotalTensorSizeInBytes %s: bind at least %s bytes", v,
                    l, l);
        break;
    case DMLT_CHECK_BINDING_IN_BUFFER: {
        /* The range checked: SizeInBytes, else TotalTensorSizeInBytes. */
        char o[40], n[40];
        dmlt_u128 range = dmlt_u128_from_u64(0); /* Offset + range is c->value */
        (void)dmlt_u128_sub(c->value, dmlt_u128_from_u64(d->base_offset), &range);
        o[fmt_u128(o, dmlt_u128_from_u64(d->base_offset))] = '\0';
        n[fmt_u128(n, range)] = '\0';
        const char *what = d->has_binding_size ? "SizeInBytes" : "TotalTensorSizeInBytes";
        if (!d->has_buffer_size)
            cli_say(msg, size, "no buffer size given (--buffer-size): not checked");
        else if (dmlt_u128_eq(c->value, dmlt_u128_max()))
            cli_say(msg, size, "Offset %s + %s is past 2^128 bytes: no buffer holds it", o, what);
        else if (c->passed)
            cli_say(msg, size, "Offset %s + %s %s = %s is within the buffer's %s bytes", o, what, n,
                    v, l);
        else
            cli_say(msg, size,
                    "Offset %s + %s %s = %s is past the buffer's %s bytes: move or shrink the "
                    "range, or use a larger buffer",
                    o, what, n, v, l);
        break;
    }
    case DMLT_CHECK_COUNT:
        msg[0] = '\0';
        break;
    }
}

/* --format c: each failed check as a comment, then the snippet; with a
 * binding given (--base-offset, --binding-size or --buffer-size), its
 * DML_BUFFER_BINDING too, SizeInBytes defaulting to TotalTensorSizeInBytes. */
static bool render_c(struct outbuf *out, const struct cli_config *cfg, const struct tensor_desc *td,
                     const struct dmlt_check checks[], struct cli_error *e)
{
    struct c_snippet c;
    memset(&c, 0, sizeof c);
    /* The total_size_minimum check carries TotalTensorSizeInBytes: the
     * one given, else the minimum implied size. */
    if (!c_total(checks[DMLT_CHECK_TOTAL_MINIMUM].value, &c.total, e))
        return false;
    c.name = cfg->c_name;
    c.t = &td->t;
    c.flags = td->flags;
    c.alignment = td->alignment;
    struct c_binding binding;
    if (cfg->t.base_offset || td->has_binding_size || td->has_buffer_size) {
        binding.offset = td->base_offset;
        binding.size = td->has_binding_size ? td->binding_size : c.total;
        binding.has_buffer_size = td->has_buffer_size;
        binding.buffer_size = td->buffer_size;
        c.binding = &binding;
    }
    unsigned order[DMLT_MAX_RANK];
    const unsigned *o = td->layout_requested ? td->order : NULL;
    if (o == NULL && dmlt_layout_detect(td->t.rank, td->t.sizes, td->t.strides, order))
        o = order;
    struct outbuf layout;
    ob_init(&layout);
    if (o) {
        layout_name(&layout, td->t.rank, o);
        ob_putc(&layout, '\0');
        c.layout = layout.failed ? NULL : layout.data;
    }
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++) {
        if (checks[i].passed)
            continue;
        char msg[600];
        size_t n = (size_t)snprintf(msg, sizeof msg, "%s %s: ",
                                    dmlt_check_level(checks[i].id) == DMLT_ERROR ? "FAIL" : "warn",
                                    dmlt_check_id_name(checks[i].id));
        check_message(msg + n, sizeof msg - n, &checks[i], td);
        c_comment(out, msg);
    }
    render_c_snippet(out, &c);
    ob_free(&layout);
    return true;
}

void validate_desc_of(const struct tensor_desc *td, struct dmlt_desc *d)
{
    d->t = td->t;
    d->has_total = td->has_total;
    d->total_tensor_size_bytes = td->total;
    d->guaranteed_base_offset_alignment = td->alignment;
    d->base_offset_bytes = td->base_offset;
    d->flags = td->flags;
    d->has_binding_size = td->has_binding_size;
    d->binding_size_bytes = td->binding_size;
    d->has_buffer_size = td->has_buffer_size;
    d->buffer_size_bytes = td->buffer_size;
}

static bool run_validate(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct tensor_desc td;
    if (!describe_tensor(&cfg->t, &td, e))
        return false;
    struct dmlt_desc d;
    validate_desc_of(&td, &d);
    struct dmlt_check checks[DMLT_CHECK_COUNT];
    bool valid = dmlt_validate(&d, td.t.rank, checks, DMLT_CHECK_COUNT);

    unsigned errors = 0, warnings = 0;
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++) {
        if (checks[i].passed)
            continue;
        if (dmlt_check_level(checks[i].id) == DMLT_ERROR)
            errors++;
        else
            warnings++;
    }
    if (cfg->format == FMT_C) {
        if (!render_c(out, cfg, &td, checks, e))
            return false;
        if (!valid)
            cfg->exit_status = CLI_EXIT_RULE;
        return true;
    }
    const bool json = cfg->format == FMT_JSON;
    if (json) {
        cli_json_open(cfg, out);
        ob_puts(out, valid ? "\"valid\":true" : "\"valid\":false");
        ob_puts(out, ",\"errors\":");
        ob_u64(out, errors);
        ob_puts(out, ",\"warnings\":");
        ob_u64(out, warnings);
        ob_puts(out, ",\"checks\":[");
    }
    bool first = true;
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++) {
        const struct dmlt_check *c = &checks[i];
        enum dmlt_severity level = dmlt_check_level(c->id);
        if (json &&
            (cfg->checks_shown == CHECKS_NONE || (cfg->checks_shown == CHECKS_FAILED && c->passed)))
            continue; /* scan --checks failed|none */
        char msg[512];
        check_message(msg, sizeof msg, c, &td);
        if (json) {
            ob_puts(out, first ? "{\"id\":\"" : ",{\"id\":\"");
            first = false;
            ob_puts(out, dmlt_check_id_name(c->id));
            ob_puts(out, "\",\"level\":\"");
            ob_puts(out, level_name(level));
            ob_puts(out, c->passed ? "\",\"status\":\"pass\"" : "\",\"status\":\"fail\"");
            ob_puts(out, ",\"message\":");
            ob_json_str(out, msg);
            ob_puts(out, ",\"rule\":");
            ob_json_str(out, dmlt_check_rule(c->id));
            ob_putc(out, '}');
            continue;
        }
        size_t start = out->len;
        ob_puts(out, c->passed ? "pass" : level == DMLT_ERROR ? "FAIL" : "warn");
        ob_pad_to(out, start, 6);
        ob_puts(out, dmlt_check_id_name(c->id));
        ob_pad_to(out, start, 30);
        ob_puts(out, msg);
        ob_putc(out, '\n');
    }
    if (json) {
        ob_puts(out, "]}\n");
    } else {
        char line[120];
        snprintf(line, sizeof line, "\n%s: %u error%s, %u warning%s\n", valid ? "valid" : "INVALID",
                 errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
        ob_puts(out, line);
    }
    if (!valid)
        cfg->exit_status = CLI_EXIT_RULE;
    return true;
}

const struct command cmd_validate = {
    .name = "validate",
    .id = CMD_VALIDATE,
    .summary = "check a whole DML_BUFFER_TENSOR_DESC against DirectML's rules",
    .usage = "dmltensor validate --sizes LIST [OPTIONS]",
    .about = "Checks a whole DML_BUFFER_TENSOR_DESC against DirectML's rules: each check\n"
             "has a stable id, a level (error or warning), and a message saying how to\n"
             "fix it. Exit status 1 when any error-level check fails.\n",
    .examples = "  dmltensor validate --dtype float16 --sizes 1,3,224,224 --layout nhwc \\\n"
                "      --total-size 301056 --alignment 256\n"
                "  dmltensor validate --sizes 2,3 --strides 5,1 --total-size 24 --format json\n"
                "  dmltensor validate --sizes 1,1,3,5 --base-offset 256 --binding-size 64 \\\n"
                "      --buffer-size 4096 --format c --name input\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_C),
    .format_help =
        "text (default), json (one line) or c (a C snippet: the DML_BUFFER_TENSOR_DESC and, "
        "with a binding, the DML_BUFFER_BINDING; failed checks as comments)",
    .batch = true,
    .tensor = true,
    .run = run_validate,
};
