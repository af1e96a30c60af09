/* validate_operator.c - `validate --operator NAME --tensor NAME
 * [--feature-level X_Y]`: looks the operator up in DirectML's tensor
 * support tables (src/dml), checks the descriptor's DimensionCount and
 * DataType against the row in force at the level and the level against
 * the one that introduced the operator, and words each outcome. */
#include "validate_operator.h"

#include "parse.h"
#include "render_c.h"

#include <stdio.h>
#include <string.h>

static int upper(int c)
{
    return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* "DML_FEATURE_LEVEL_5_1" of 0x5100. */
static void level_text(char *buf, size_t size, unsigned level)
{
    snprintf(buf, size, "DML_FEATURE_LEVEL_%u_%u", DMLT_DML_LEVEL_MAJOR(level),
             DMLT_DML_LEVEL_MINOR(level));
}

/* "2 to 4", "4", "1, 3 to 5" of a dimension-count bit set. */
static void dims_text(char *buf, size_t size, unsigned bits)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned lo = 1; lo <= 8 && n < size; lo++) {
        if (!(bits & (1u << lo)))
            continue;
        unsigned hi = lo;
        while (hi < 8 && (bits & (1u << (hi + 1))))
            hi++;
        int w = hi == lo ? snprintf(buf + n, size - n, "%s%u", n ? ", " : "", lo)
                         : snprintf(buf + n, size - n, "%s%u to %u", n ? ", " : "", lo, hi);
        n += w > 0 ? (size_t)w : 0;
        lo = hi;
    }
}

/* "float32, float16" of a data-type bit set, in DML_TENSOR_DATA_TYPE order. */
static void types_text(char *buf, size_t size, uint32_t bits)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned d = 1; d <= DMLT_DTYPE_COUNT && n < size; d++) {
        const struct dmlt_dtype_info *info = dmlt_dtype_get((enum dmlt_dtype)d);
        if (!(bits & (1u << d)) || info == NULL)
            continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? ", " : "", info->name);
        n += w > 0 ? (size_t)w : 0;
    }
}

/* The tensor fields of op, comma-separated (its rules are sorted by tensor). */
static void tensor_names(char *buf, size_t size, const struct dmlt_dml_operator *op)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < op->n_rules && n < size; i++) {
        if (i > 0 && strcmp(op->rules[i].tensor, op->rules[i - 1].tensor) == 0)
            continue;
        int w = snprintf(buf + n, size - n, "%s%s", n ? ", " : "", op->rules[i].tensor);
        n += w > 0 ? (size_t)w : 0;
    }
}

/* Edit distance between a and b (case-insensitive), capped at 99. */
static unsigned distance(const char *a, const char *b)
{
    unsigned row[65], la = (unsigned)strlen(a), lb = (unsigned)strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    for (unsigned j = 0; j <= lb; j++)
        row[j] = j;
    for (unsigned i = 1; i <= la; i++) {
        unsigned diag = row[0];
        row[0] = i;
        for (unsigned j = 1; j <= lb; j++) {
            unsigned up = row[j];
            unsigned cost = upper((unsigned char)a[i - 1]) != upper((unsigned char)b[j - 1]);
            unsigned best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return false;
    for (; *hay; hay++) {
        size_t k = 0;
        while (k < n && hay[k] && upper((unsigned char)hay[k]) == upper((unsigned char)needle[k]))
            k++;
        if (k == n)
            return true;
    }
    return false;
}

/* Up to 6 operator names like `name`: those containing it, else the
 * nearest by edit distance. */
static void suggest_operators(char *buf, size_t size, const char *name)
{
    static const char prefix[] = "DML_OPERATOR_";
    if (strlen(name) > sizeof prefix - 1 && contains_nocase(name, prefix) &&
        upper((unsigned char)name[0]) == 'D')
        name += sizeof prefix - 1;
    size_t n = 0;
    unsigned shown = 0, total = dmlt_dml_operator_total();
    buf[0] = '\0';
    for (unsigned pass = 0; pass < 2 && shown == 0; pass++) {
        for (unsigned limit = pass == 0 ? 0 : 1; limit <= (pass == 0 ? 0 : 6) && shown < 6; limit++)
            for (unsigned i = 0; i < total && shown < 6 && n < size; i++) {
                const char *op = dmlt_dml_operator_at(i)->name;
                bool hit = pass == 0 ? contains_nocase(op, name) : distance(op, name) == limit;
                if (!hit)
                    continue;
                int w = snprintf(buf + n, size - n, "%s%s", n ? ", " : "", op);
                n += w > 0 ? (size_t)w : 0;
                shown++;
            }
    }
}

/* The level asked for (--feature-level), or the newest the tables hold. */
static bool lookup(const struct cli_config *cfg, struct operator_result *r, struct cli_error *e)
{
    char list[240];
    r->op = dmlt_dml_operator_find(cfg->dml_operator);
    if (r->op == NULL) {
        cli_fail(e, CLI_E_UNKNOWN_OPERATOR, "--operator", cfg->dml_operator,
                 "not a DirectML operator the tables hold");
        suggest_operators(list, sizeof list, cfg->dml_operator);
        if (list[0])
            cli_hint(e, "did you mean %s? (docs/validation.md lists them all)", list);
        else
            cli_hint(e, "docs/validation.md lists the operators the tables hold");
        return false;
    }
    tensor_names(list, sizeof list, r->op);
    if (cfg->dml_tensor == NULL) {
        cli_fail(e, CLI_E_MISSING_OPTION, "--operator", cfg->dml_operator,
                 "needs --tensor NAME: which of the desc's tensors the descriptor is");
        cli_hint(e, "%s has %s", r->op->name, list);
        return false;
    }
    const struct dmlt_dml_tensor_rule *any = dmlt_dml_tensor_rule_at(r->op, cfg->dml_tensor, ~0u);
    if (any == NULL) {
        cli_fail(e, CLI_E_UNKNOWN_TENSOR, "--tensor", cfg->dml_tensor, "%s has no such tensor",
                 r->op->name);
        cli_hint(e, "%s has %s", r->op->name, list);
        return false;
    }
    r->tensor = any->tensor;
    return cli_parse_feature_level(cfg->feature_level, &r->level, e);
}

static void check_level(struct operator_result *r, struct operator_check *c)
{
    char intro[40], at[40];
    level_text(intro, sizeof intro, r->op->introduced);
    level_text(at, sizeof at, r->level);
    c->id = "operator_feature_level";
    c->passed = r->op->introduced <= r->level;
    if (c->passed)
        snprintf(c->message, sizeof c->message, "%s was introduced in %s; checked at %s",
                 r->op->name, intro, at);
    else
        snprintf(c->message, sizeof c->message,
                 "%s was introduced in %s, after %s: a device at that level cannot create it; "
                 "require %s (IDMLDevice::CheckFeatureSupport) or use another operator",
                 r->op->name, intro, at, intro);
    snprintf(c->rule, sizeof c->rule,
             "an operator exists from the feature level that introduced it (%s)", r->op->source);
}

/* Fills the dimension-count check, and the data-type one from the same row. */
static void check_tensor(struct operator_result *r, const struct tensor_desc *td,
                         struct operator_check *dims, struct operator_check *types)
{
    char at[40], allowed[120];
    level_text(at, sizeof at, r->level);
    const struct dmlt_dtype_info *info = dmlt_dtype_get(td->t.dtype);
    const char *dtype = info ? info->name : "?";
    dims->id = "operator_dimension_count";
    types->id = "operator_data_type";
    snprintf(dims->rule, sizeof dims->rule,
             "DimensionCount is one the operator's Tensor support lists for the tensor at the "
             "feature level (%s)",
             r->op->source);
    snprintf(types->rule, sizeof types->rule,
             "DataType is one the operator's Tensor support lists for the tensor at the feature "
             "level (%s)",
             r->op->source);
    if (r->rule == NULL) {
        bool exists = r->op->introduced <= r->level;
        dims->passed = types->passed = !exists;
        if (exists)
            snprintf(dims->message, sizeof dims->message,
                     "%s of %s has no Tensor support row at %s", r->tensor, r->op->name, at);
        else
            snprintf(dims->message, sizeof dims->message, "not checked: %s does not exist at %s",
                     r->op->name, at);
        memcpy(types->message, dims->message, sizeof types->message);
        return;
    }
    dims_text(allowed, sizeof allowed, r->rule->dim_counts);
    dims->passed = td->t.rank <= 8 && (r->rule->dim_counts & (1u << td->t.rank));
    snprintf(dims->message, sizeof dims->message,
             "DimensionCount %u: %s of %s takes %s dimensions at %s%s", td->t.rank, r->tensor,
             r->op->name, allowed, at,
             dims->passed ? "" : "; give it one of those (pad with leading 1s or merge dims)");
    if (r->rule->dtypes == 0) {
        types->passed = true;
        snprintf(types->message, sizeof types->message,
                 "not checked: the page lists no data types for %s of %s", r->tensor, r->op->name);
        return;
    }
    types_text(allowed, sizeof allowed, r->rule->dtypes);
    types->passed = (r->rule->dtypes >> (unsigned)td->t.dtype) & 1u;
    snprintf(types->message, sizeof types->message, "DataType %s: %s of %s takes %s at %s%s", dtype,
             r->tensor, r->op->name, allowed, at,
             types->passed ? "" : "; cast it (DML_OPERATOR_CAST) or use another operator");
}

bool cli_validate_operator_run(const struct cli_config *cfg, const struct tensor_desc *td,
                               struct operator_result *r, struct cli_error *e)
{
    memset(r, 0, sizeof *r);
    if (cfg->dml_operator == NULL) {
        const char *opt = cfg->dml_tensor ? "--tensor" : "--feature-level";
        const char *text = cfg->dml_tensor ? cfg->dml_tensor : cfg->feature_level;
        if (text == NULL)
            return true;
        cli_fail(e, CLI_E_MISSING_OPTION, opt, text, "only means something with --operator NAME");
        cli_hint(e, "add --operator, e.g. --operator GEMM --tensor ATensor");
        return false;
    }
    if (!lookup(cfg, r, e))
        return false;
    r->asked = true;
    r->rule = dmlt_dml_tensor_rule_at(r->op, r->tensor, r->level);
    check_tensor(r, td, &r->checks[0], &r->checks[1]);
    check_level(r, &r->checks[2]);
    for (unsigned i = 0; i < OPERATOR_CHECK_COUNT; i++)
        r->failed += !r->checks[i].passed;
    return true;
}

void cli_validate_operator_text(struct outbuf *out, const struct operator_result *r)
{
    if (!r->asked)
        return;
    for (unsigned i = 0; i < OPERATOR_CHECK_COUNT; i++) {
        const struct operator_check *c = &r->checks[i];
        size_t start = out->len;
        ob_puts(out, c->passed ? "pass" : "FAIL");
        cli_ob_pad_to(out, start, 6);
        ob_puts(out, c->id);
        cli_ob_pad_to(out, start, 30);
        ob_puts(out, c->message);
        ob_putc(out, '\n');
    }
}

static void level_json(struct outbuf *out, unsigned level)
{
    char buf[8];
    snprintf(buf, sizeof buf, "%u_%u", DMLT_DML_LEVEL_MAJOR(level), DMLT_DML_LEVEL_MINOR(level));
    cli_ob_json_str(out, buf);
}

void cli_validate_operator_json(struct outbuf *out, const struct operator_result *r)
{
    if (!r->asked)
        return;
    ob_puts(out, ",\"operator\":{\"name\":");
    cli_ob_json_str(out, r->op->name);
    ob_puts(out, ",\"tensor\":");
    cli_ob_json_str(out, r->tensor);
    ob_puts(out, ",\"feature_level\":");
    level_json(out, r->level);
    ob_puts(out, ",\"introduced\":");
    level_json(out, r->op->introduced);
    ob_puts(out, ",\"dimension_counts\":");
    if (r->rule == NULL) {
        ob_puts(out, "null,\"data_types\":null,\"optional\":null");
    } else {
        ob_putc(out, '[');
        for (unsigned n = 1, first = 1; n <= 8; n++)
            if (r->rule->dim_counts & (1u << n)) {
                if (!first)
                    ob_putc(out, ',');
                ob_u64(out, n);
                first = 0;
            }
        ob_puts(out, "],\"data_types\":");
        if (r->rule->dtypes == 0) {
            ob_puts(out, "null");
        } else {
            ob_putc(out, '[');
            for (unsigned d = 1, first = 1; d <= DMLT_DTYPE_COUNT; d++)
                if ((r->rule->dtypes >> d) & 1u) {
                    if (!first)
                        ob_putc(out, ',');
                    cli_ob_json_str(out, dmlt_dtype_get((enum dmlt_dtype)d)->name);
                    first = 0;
                }
            ob_putc(out, ']');
        }
        ob_puts(out, r->rule->optional ? ",\"optional\":true" : ",\"optional\":false");
    }
    ob_puts(out, ",\"source\":");
    cli_ob_json_str(out, r->op->source);
    ob_putc(out, '}');
}

void cli_validate_operator_json_checks(struct outbuf *out, const struct operator_result *r,
                                       int checks_shown, bool *first)
{
    if (!r->asked)
        return;
    for (unsigned i = 0; i < OPERATOR_CHECK_COUNT; i++) {
        const struct operator_check *c = &r->checks[i];
        if (checks_shown == CHECKS_NONE || (checks_shown == CHECKS_FAILED && c->passed))
            continue;
        ob_puts(out, *first ? "{\"id\":\"" : ",{\"id\":\"");
        *first = false;
        ob_puts(out, c->id);
        ob_puts(out, c->passed ? "\",\"level\":\"error\",\"status\":\"pass\""
                               : "\",\"level\":\"error\",\"status\":\"fail\"");
        ob_puts(out, ",\"message\":");
        cli_ob_json_str(out, c->message);
        ob_puts(out, ",\"rule\":");
        cli_ob_json_str(out, c->rule);
        ob_putc(out, '}');
    }
}

void cli_validate_operator_c(struct outbuf *out, const struct operator_result *r)
{
    if (!r->asked)
        return;
    for (unsigned i = 0; i < OPERATOR_CHECK_COUNT; i++) {
        char msg[600];
        if (r->checks[i].passed)
            continue;
        snprintf(msg, sizeof msg, "FAIL %s: %s", r->checks[i].id, r->checks[i].message);
        cli_c_comment(out, msg);
    }
}
