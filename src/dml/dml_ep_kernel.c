/* dml_ep_kernel.c - the DML EP model's per-node stages (dml_ep.h): the
 * schema's since version, ORT's kernel lookup and type constraints, the
 * support queries and tensor types (IsNodeSupportedByDml), and kernel
 * creation's tensor rules. Each stage records why it decides as it does. */
#include "dml_ep_kernel.h"

#include <stdio.h>
#include <string.h>

#define REG_SRC "OperatorRegistration.cpp"
#define EP_SRC  "ExecutionProvider.cpp IsNodeSupportedByDml"

static int cmp_bytes(struct onnx_bytes a, const char *s)
{
    size_t n = strlen(s), m = a.n < n ? a.n : n;
    int c = m ? memcmp(a.p, s, m) : 0; /* a.p may be NULL when a.n is 0 */
    return c ? c : (a.n < n ? -1 : a.n > n ? 1 : 0);
}

static bool is(struct onnx_bytes a, const char *s)
{
    return cmp_bytes(a, s) == 0;
}

/* "" for the default domain (written "" or "ai.onnx"). */
static struct onnx_bytes norm_domain(struct onnx_bytes d)
{
    if (is(d, "ai.onnx"))
        d.n = 0;
    return d;
}

/* The model's opset import for domain (the last given); 0 when none. */
static int64_t opset_of(const struct onnx_model *m, struct onnx_bytes domain)
{
    int64_t v = 0;
    for (uint32_t i = 0; i < m->n_opsets; i++)
        if (onnx_bytes_eq(norm_domain(m->opsets[i].domain), domain))
            v = m->opsets[i].version;
    return v;
}

/* The schema of (domain, op) in force at opset: the row with the largest
 * since version <= opset, or NULL. */
static const struct dmlt_onnx_schema *schema_at(struct onnx_bytes domain, struct onnx_bytes op,
                                                int64_t opset)
{
    size_t lo = 0, hi = dmlt_ep_onnx_schema_count;
    while (lo < hi) { /* the first row >= (domain, op) */
        size_t mid = lo + (hi - lo) / 2;
        const struct dmlt_onnx_schema *s = &dmlt_ep_onnx_schema_table[mid];
        int c = -cmp_bytes(domain, s->domain);
        if (c == 0)
            c = -cmp_bytes(op, s->op);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    const struct dmlt_onnx_schema *best = NULL;
    for (size_t i = lo; i < dmlt_ep_onnx_schema_count; i++) {
        const struct dmlt_onnx_schema *s = &dmlt_ep_onnx_schema_table[i];
        if (!is(domain, s->domain) || !is(op, s->op))
            break;
        if ((int64_t)s->since <= opset)
            best = s;
    }
    return best;
}

/* The registrations of (domain, op): the first and how many. */
static const struct dmlt_ep_reg *regs_of(struct onnx_bytes domain, struct onnx_bytes op,
                                         size_t *count)
{
    size_t lo = 0, hi = dmlt_ep_reg_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const struct dmlt_ep_reg *s = &dmlt_ep_reg_table[mid];
        int c = -cmp_bytes(domain, s->domain);
        if (c == 0)
            c = -cmp_bytes(op, s->op);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t n = 0;
    while (lo + n < dmlt_ep_reg_count && is(domain, dmlt_ep_reg_table[lo + n].domain) &&
           is(op, dmlt_ep_reg_table[lo + n].op))
        n++;
    *count = n;
    return n ? &dmlt_ep_reg_table[lo] : NULL;
}

/* ONNX-domain schemas ONNX Runtime adds itself (its contrib ops in the
 * ONNX domain, since version 1), where ONNX's own start later or never. */
static unsigned ort_onnx_domain_schema(struct onnx_bytes op)
{
    return is(op, "LayerNormalization") || is(op, "SimplifiedLayerNormalization") ? 1 : 0;
}

/* Node n's schema since-version (n->since; 0 when unknown) and the
 * schema's formal parameters (*schema, NULL when the tables have none). */
static enum ep_verdict since_version(struct ep_state *st, struct dmlt_ep_node *n,
                                     const struct dmlt_onnx_schema **schema, bool record)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct onnx_bytes domain = norm_domain(node->domain);
    *schema = NULL;
    if (domain.n == 0 || is(domain, "ai.onnx.ml") || is(domain, "ai.onnx.preview.training")) {
        const int64_t opset = opset_of(st->r->model, domain);
        if (opset <= 0) {
            if (record)
                dmlt_ep__reason(st, (uint32_t)(n - st->r->nodes), DMLT_R_NOT_REGISTERED,
                                "the model imports no opset for the domain \"%.*s\" of %.*s",
                                EP_NAME(domain), EP_NAME(node->op_type));
            return EP_UNKNOWN;
        }
        *schema = schema_at(domain, node->op_type, opset);
        if (*schema != NULL) {
            n->since = (*schema)->since;
            if (domain.n == 0 && ort_onnx_domain_schema(node->op_type) && (int64_t)n->since > opset)
                n->since = 1;
            return EP_OK;
        }
        if (domain.n == 0 && ort_onnx_domain_schema(node->op_type)) {
            n->since = 1; /* ORT's own LayerNormalization-1 (contrib_defs.cc) */
            return EP_OK;
        }
        if (record)
            dmlt_ep__reason(
                st, (uint32_t)(n - st->r->nodes), DMLT_R_NOT_REGISTERED,
                "ONNX has no operator %.*s at opset %lld of the domain \"%.*s\" (%s): ONNX "
                "Runtime refuses the model",
                EP_NAME(node->op_type), (long long)opset, EP_NAME(domain),
                dmlt_ep_onnx_schema_revision);
        return EP_UNKNOWN;
    }
    if (is(domain, "com.microsoft") || is(domain, "com.microsoft.dml"))
        n->since = 1; /* ORT's contrib schemas: since version 1 (MsftOperatorSet1) */
    return EP_OK;
}

static bool allowed(uint32_t mask, const struct onnx_infer_value *v)
{
    if (v->not_tensor)
        return (mask >> DMLT_EP_SEQUENCES) & 1u;
    return v->elem_type > 0 && v->elem_type < 31 && ((mask >> v->elem_type) & 1u);
}

/* The type label of formal parameter i of a schema's list "T,T,T?" ('*'
 * on the last: it covers the rest), into buf; false when none. */
static bool formal_label(const char *list, uint32_t i, char *buf, size_t cap)
{
    const char *p = list;
    uint32_t k = 0;
    if (strcmp(list, "-") == 0)
        return false;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        const bool variadic = len && p[len - 1] == '*';
        if (k == i || (variadic && end == NULL && i > k)) {
            while (len && (p[len - 1] == '*' || p[len - 1] == '?'))
                len--;
            if (len >= cap)
                return false;
            memcpy(buf, p, len);
            buf[len] = '\0';
            return true;
        }
        if (end == NULL)
            return false;
        p = end + 1;
        k++;
    }
}

/* KernelRegistry's type check: every input and output bound to a label of
 * the registration has a type the label allows. */
static enum ep_verdict type_constraints(struct ep_state *st, struct dmlt_ep_node *n,
                                        const struct dmlt_onnx_schema *schema)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct dmlt_ep_reg *reg = n->reg;
    const uint32_t at = (uint32_t)(n - st->r->nodes);
    char label[64], tname[32];
    if (schema == NULL || reg->n_labels == 0)
        return EP_OK;
    for (int out = 0; out < 2; out++) {
        const uint32_t count = out ? node->n_outputs : node->n_inputs;
        for (uint32_t i = 0; i < count; i++) {
            if (!formal_label(out ? schema->outputs : schema->inputs, i, label, sizeof label))
                continue;
            unsigned j = 0;
            while (j < reg->n_labels && strcmp(reg->labels[j], label) != 0)
                j++;
            if (j == reg->n_labels)
                continue;
            const struct onnx_bytes name = out ? node->outputs[i] : node->inputs[i];
            if (name.n == 0)
                continue;
            const struct onnx_infer_value *v =
                out ? dmlt_ep__output_value(st, n, i) : dmlt_ep__input_value(st, n, i);
            if (v == NULL || (!v->not_tensor && v->elem_type == 0))
                return dmlt_ep__reason(
                           st, at, DMLT_R_TYPE_NOT_SUPPORTED,
                           "the element type of %s %lu (%.*s) is not known%s%s: it decides "
                           "the kernel's type constraint %s",
                           out ? "output" : "input", (unsigned long)i, EP_NAME(name),
                           v && v->reason ? ": " : "", v && v->reason ? v->reason : "", label),
                       EP_UNKNOWN;
            if (!allowed(reg->types[j], v))
                return dmlt_ep__reason(
                           st, at, DMLT_R_TYPE_NOT_SUPPORTED,
                           "%s %lu (%.*s) is %s; the DML EP's %.*s-%u kernel takes %s only in "
                           "supportedTypeList%s (%s:%u)",
                           out ? "output" : "input", (unsigned long)i, EP_NAME(name),
                           v->not_tensor ? "not a tensor"
                                         : ep_onnx_type_name(v->elem_type, tname, sizeof tname),
                           EP_NAME(node->op_type), reg->since, label, reg->typelist, reg->file,
                           reg->line),
                       EP_CPU;
        }
    }
    return EP_OK;
}

enum ep_verdict dmlt_ep__kernel_lookup(struct ep_state *st, struct dmlt_ep_node *n)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const uint32_t at = (uint32_t)(n - st->r->nodes);
    const struct dmlt_onnx_schema *schema;
    enum ep_verdict v = since_version(st, n, &schema, true);
    if (v != EP_OK)
        return v;
    size_t count;
    const struct dmlt_ep_reg *regs = regs_of(norm_domain(node->domain), node->op_type, &count);
    if (regs == NULL)
        return dmlt_ep__reason(st, at, DMLT_R_NOT_REGISTERED,
                               "the DML EP registers no kernel for %.*s%s%.*s (%s)",
                               EP_NAME(norm_domain(node->domain)),
                               norm_domain(node->domain).n ? "." : "", EP_NAME(node->op_type),
                               REG_SRC),
               EP_CPU;
    for (size_t i = 0; i < count; i++)
        if (regs[i].since == n->since && !regs[i].duplicate)
            n->reg = &regs[i];
    if (n->reg == NULL) {
        char list[160];
        size_t len = 0;
        list[0] = '\0';
        for (size_t i = 0; i < count && len + 12 < sizeof list; i++)
            if (!regs[i].duplicate)
                len += (size_t)snprintf(list + len, sizeof list - len, "%s%u", len ? ", " : "",
                                        regs[i].since);
        return dmlt_ep__reason(
                   st, at, DMLT_R_OPSET_NOT_REGISTERED,
                   "%.*s's schema since-version is %u; the DML EP registers %.*s only at "
                   "since-versions %s (%s), and ONNX Runtime matches the since-version "
                   "exactly (kernel_registry.cc VerifyKernelDef)",
                   EP_NAME(node->op_type), n->since, EP_NAME(node->op_type), list, REG_SRC),
               EP_CPU;
    }
    v = type_constraints(st, n, schema);
    if (v == EP_OK)
        n->has_kernel = true;
    return v;
}

void dmlt_ep__since(struct ep_state *st, struct dmlt_ep_node *n)
{
    const struct dmlt_onnx_schema *schema;
    (void)since_version(st, n, &schema, false);
}
