/* cmd_validate.c - `validate`: the core runs every DirectML rule on the
 * descriptor; this file words each outcome (what is wrong, how to fix it)
 * and renders the list as text or JSON. Exit status 1 when an error-level
 * check fails. */
#include "check_messages.h"
#include "cli.h"
#include "render_c.h"
#include "validate_operator.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *level_name(enum dmlt_severity s)
{
    return s == DMLT_ERROR ? "error" : s == DMLT_WARNING ? "warning" : "info";
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
    if (!cli_c_total(checks[DMLT_CHECK_TOTAL_MINIMUM].value, &c.total, e))
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
    cli_ob_init(&layout);
    if (o) {
        cli_layout_name(&layout, td->t.rank, o);
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
        cli_check_message(msg + n, sizeof msg - n, &checks[i], td);
        cli_c_comment(out, msg);
    }
    cli_render_c_snippet(out, &c);
    cli_ob_free(&layout);
    return true;
}

static bool run_validate(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct tensor_desc td;
    if (!cli_describe_tensor(&cfg->t, &td, e))
        return false;
    struct dmlt_desc d;
    cli_validate_desc_of(&td, &d);
    struct dmlt_check checks[DMLT_CHECK_COUNT];
    bool valid = dmlt_validate(&d, td.t.rank, checks, DMLT_CHECK_COUNT);
    struct operator_result opr; /* --operator: validate_operator.c */
    if (!cli_validate_operator_run(cfg, &td, &opr, e))
        return false;
    valid = valid && opr.failed == 0;

    unsigned errors = 0, warnings = 0;
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++) {
        if (checks[i].passed)
            continue;
        if (dmlt_check_level(checks[i].id) == DMLT_ERROR)
            errors++;
        else
            warnings++;
    }
    errors += opr.failed;
    if (cfg->format == FMT_C) {
        cli_validate_operator_c(out, &opr);
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
        cli_validate_operator_json(out, &opr);
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
        cli_check_message(msg, sizeof msg, c, &td);
        if (json) {
            ob_puts(out, first ? "{\"id\":\"" : ",{\"id\":\"");
            first = false;
            ob_puts(out, dmlt_check_id_name(c->id));
            ob_puts(out, "\",\"level\":\"");
            ob_puts(out, level_name(level));
            ob_puts(out, c->skipped  ? "\",\"status\":\"skipped\""
                         : c->passed ? "\",\"status\":\"pass\""
                                     : "\",\"status\":\"fail\"");
            ob_puts(out, ",\"message\":");
            cli_ob_json_str(out, msg);
            ob_puts(out, ",\"rule\":");
            cli_ob_json_str(out, dmlt_check_rule(c->id));
            ob_putc(out, '}');
            continue;
        }
        size_t start = out->len;
        ob_puts(out, c->skipped            ? "skip"
                     : c->passed           ? "pass"
                     : level == DMLT_ERROR ? "FAIL"
                                           : "warn");
        cli_ob_pad_to(out, start, 6);
        ob_puts(out, dmlt_check_id_name(c->id));
        cli_ob_pad_to(out, start, 30);
        ob_puts(out, msg);
        ob_putc(out, '\n');
    }
    if (json) {
        cli_validate_operator_json_checks(out, &opr, (int)cfg->checks_shown, &first);
        ob_puts(out, "]}\n");
    } else {
        cli_validate_operator_text(out, &opr);
        char line[120];
        snprintf(line, sizeof line, "\n%s: %u error%s, %u warning%s\n", valid ? "valid" : "INVALID",
                 errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
        ob_puts(out, line);
    }
    if (!valid)
        cfg->exit_status = CLI_EXIT_RULE;
    return true;
}

const struct command cli_cmd_validate = {
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
                "      --buffer-size 4096 --format c --name input\n"
                "  dmltensor validate --dtype float16 --sizes 1,1,64,128 --alignment 256 \\\n"
                "      --operator GEMM --tensor ATensor --feature-level 5_1\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_C),
    .c_variables = "Sizes, Strides, BufferDesc",
    .format_help =
        "text (default), json (one line) or c (a C snippet: the DML_BUFFER_TENSOR_DESC and, "
        "with a binding, the DML_BUFFER_BINDING; failed checks as comments)",
    .batch = true,
    .tensor = true,
    .run = run_validate,
};
