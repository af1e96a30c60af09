/* dml_ep_checks.c - the DML EP model's checks of a node that has a kernel
 * (dml_ep_kernel.h): the support query (dml_ep_queries.c) and every
 * tensor's DirectML type (ExecutionProvider.cpp IsNodeSupportedByDml), and kernel creation's
 * tensor rules (the EP's TensorDesc and DirectML's operator tables). */
#include "dml_ep_queries.h"

#include <stdio.h>
#include <string.h>

#define EP_SRC "ExecutionProvider.cpp IsNodeSupportedByDml"

static bool is(struct onnx_bytes a, const char *s)
{
    return onnx_bytes_is(a, s);
}

/* IsCpuOnDmlOperator and IsDmlSequenceOperator: their sequences are allowed
 * (If joined IsCpuOnDmlOperator in 20be51525, "Support if node with sequence
 * outputs", with its kernels' V taking sequences: ExecutionProvider.cpp at
 * 12dfe2859c85, the registrations' revision; if_output above). */
static bool sequence_op(struct onnx_bytes op)
{
    static const char *const ops[] = {
        "SequenceAt",         "SequenceConstruct",  "SequenceEmpty",
        "SequenceLength",     "SequenceErase",      "SequenceInsert",
        "OptionalGetElement", "OptionalHasElement", "ConcatFromSequence"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (is(op, ops[i]))
            return true;
    return false;
}

/* An If output that is not a tensor: its kernels' V is
 * AllTensorAndSequenceTensorTypes (OperatorRegistration.cpp:196-221 at
 * 12dfe2859c85), so a sequence passes (IsCpuOnDmlOperator) and an optional
 * finds no kernel; the kind is read from then_branch's declared output. */
static enum ep_verdict if_output(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at,
                                 uint32_t k)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct onnx_attr *a = onnx_node_attr(node, "then_branch");
    const enum onnx_value kind =
        a && a->g && k < a->g->n_outputs ? a->g->outputs[k].type.value : ONNX_V_UNTYPED;
    if (kind == ONNX_V_SEQUENCE)
        return EP_OK;
    if (kind == ONNX_V_OPTIONAL)
        return dmlt_ep__reason(st, at, DMLT_R_TYPE_NOT_SUPPORTED,
                               "output %lu (%.*s) is an optional: the DML EP's If kernels take "
                               "V only as AllTensorAndSequenceTensorTypes "
                               "(OperatorRegistration.cpp:167-221)",
                               (unsigned long)k, EP_NAME(node->outputs[k])),
               EP_CPU;
    return dmlt_ep__reason(st, at, DMLT_R_TYPE_NOT_SUPPORTED,
                           "output %lu (%.*s) is not a tensor, and then_branch does not declare "
                           "whether it is a sequence (which the DML EP's If takes) or not",
                           (unsigned long)k, EP_NAME(node->outputs[k])),
           EP_UNKNOWN;
}

/* DoesNodeContainSupportedDataTypes for one input or output. */
static enum ep_verdict tensor_type(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at,
                                   bool out, uint32_t i)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct onnx_bytes name = out ? node->outputs[i] : node->inputs[i];
    char tname[32];
    if (name.n == 0)
        return EP_OK;
    const struct onnx_infer_value *v =
        out ? dmlt_ep__output_value(st, n, i) : dmlt_ep__input_value(st, n, i);
    if (v != NULL && v->not_tensor) {
        if (out && is(node->op_type, "If"))
            return if_output(st, n, at, i);
        if (sequence_op(node->op_type))
            return EP_OK;
        return dmlt_ep__reason(st, at, DMLT_R_TYPE_NOT_SUPPORTED,
                               "%s %lu (%.*s) is not a tensor (%s)", out ? "output" : "input",
                               (unsigned long)i, EP_NAME(name), EP_SRC),
               EP_CPU;
    }
    if (v == NULL || v->elem_type == 0)
        return dmlt_ep__reason(st, at, DMLT_R_TYPE_NOT_SUPPORTED,
                               "the element type of %s %lu (%.*s) is not known%s%s",
                               out ? "output" : "input", (unsigned long)i, EP_NAME(name),
                               v && v->reason ? ": " : "", v && v->reason ? v->reason : ""),
               EP_UNKNOWN;
    if (v->elem_type == 21 || v->elem_type == 22) /* ONNX's UINT4, INT4 */
        return dmlt_ep__reason(st, at, DMLT_R_TYPE_NOT_SUPPORTED,
                               "%s %lu (%.*s) is %s: the provider maps it to "
                               "DML_TENSOR_DATA_TYPE_%s (DmlCommon.cpp:14 at 12dfe2859c85), "
                               "which these DirectML types do not hold, and whether the "
                               "adapter takes it (GetSupportedDeviceDataTypeMask) is not "
                               "modelled",
                               out ? "output" : "input", (unsigned long)i, EP_NAME(name),
                               ep_onnx_type_name(v->elem_type, tname, sizeof tname),
                               v->elem_type == 21 ? "UINT4" : "INT4"),
               EP_UNKNOWN;
    if (ep_dml_dtype(v->elem_type) < 0)
        return dmlt_ep__reason(st, at, DMLT_R_TYPE_NOT_SUPPORTED,
                               "%s %lu (%.*s) is %s, which DirectML has no data type for (%s)",
                               out ? "output" : "input", (unsigned long)i, EP_NAME(name),
                               ep_onnx_type_name(v->elem_type, tname, sizeof tname), EP_SRC),
               EP_CPU;
    return EP_OK; /* a CPU input, or a type the device supports (int64, float64: assumed) */
}

enum ep_verdict dmlt_ep__supported_by_dml(struct ep_state *st, struct dmlt_ep_node *n)
{
    const uint32_t at = (uint32_t)(n - st->r->nodes);
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    enum ep_verdict v = dmlt_ep__support_query(st, n, at);
    for (uint32_t i = 0; v == EP_OK && i < node->n_inputs; i++)
        v = tensor_type(st, n, at, false, i);
    for (uint32_t k = 0; v == EP_OK && k < node->n_outputs; k++)
        v = tensor_type(st, n, at, true, k);
    return v;
}

/* The desc field of ONNX input/output i in a mapping row's list
 * ("InputTensor,FilterTensor,BiasTensor"), into buf; false for "-" or none. */
static bool field_of(const char *list, uint32_t i, char *buf, size_t cap)
{
    const char *p = list;
    for (uint32_t k = 0; p != NULL; k++) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (k == i) {
            if (len == 0 || len >= cap || (len == 1 && p[0] == '-'))
                return false;
            memcpy(buf, p, len);
            buf[len] = '\0';
            return true;
        }
        p = end ? end + 1 : NULL;
    }
    return false;
}

/* One tensor against one DirectML operator's rule for its field. */
static bool check_rule(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at, bool out,
                       uint32_t i, const struct dmlt_dml_operator *op, const char *field,
                       bool *unsure)
{
    const struct onnx_infer_value *v =
        out ? dmlt_ep__output_value(st, n, i) : dmlt_ep__input_value(st, n, i);
    const struct dmlt_dml_tensor_rule *rule = st->tables->rule_at(op, field, st->r->feature_level);
    char tname[32];
    if (v == NULL || rule == NULL || v->rank < 0)
        return true;
    const unsigned count = dmlt_ep_dimension_count(v->rank);
    const int dt = ep_dml_dtype(v->elem_type);
    bool failed = false;
    if (count > 8 || !((rule->dim_counts >> count) & 1u)) {
        failed = true;
        if (!dmlt_ep__failure(st, at, out, i, DMLT_R_DIMENSION_COUNT) ||
            !dmlt_ep__reason(st, at, DMLT_R_DIMENSION_COUNT,
                             "%s %lu: DML_OPERATOR_%s's %s takes no %u dimensions at feature level "
                             "%u_%u (%s)",
                             out ? "output" : "input", (unsigned long)i, op->name, field, count,
                             DMLT_DML_LEVEL_MAJOR(st->r->feature_level),
                             DMLT_DML_LEVEL_MINOR(st->r->feature_level), op->source))
            return false;
    }
    if (dt == DMLT_DTYPE_INT64 || dt == DMLT_DTYPE_UINT64) {
        if (!((rule->dtypes >> dt) & 1u)) { /* the EP may hand it over as 32-bit halves */
            *unsure = true;
            return dmlt_ep__reason(
                st, at, DMLT_R_DATA_TYPE,
                "%s %lu is %s, which DML_OPERATOR_%s's %s does not list at feature "
                "level %u_%u (%s); the provider's 64-bit integer handling (strided "
                "32-bit views) is not modelled: not counted as a failure",
                out ? "output" : "input", (unsigned long)i,
                ep_onnx_type_name(v->elem_type, tname, sizeof tname), op->name, field,
                DMLT_DML_LEVEL_MAJOR(st->r->feature_level),
                DMLT_DML_LEVEL_MINOR(st->r->feature_level), op->source);
        }
    } else if (dt >= 0 && !((rule->dtypes >> dt) & 1u)) {
        failed = true;
        if (!dmlt_ep__failure(st, at, out, i, DMLT_R_DATA_TYPE) ||
            !dmlt_ep__reason(st, at, DMLT_R_DATA_TYPE,
                             "%s %lu is %s: DML_OPERATOR_%s's %s does not take it at feature level "
                             "%u_%u (%s)",
                             out ? "output" : "input", (unsigned long)i,
                             ep_onnx_type_name(v->elem_type, tname, sizeof tname), op->name, field,
                             DMLT_DML_LEVEL_MAJOR(st->r->feature_level),
                             DMLT_DML_LEVEL_MINOR(st->r->feature_level), op->source))
            return false;
    }
    (void)failed;
    return true;
}

/* The EP's own limits on every tensor it hands DirectML. */
static enum ep_verdict tensor_limits(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at,
                                     bool out, uint32_t i)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct onnx_bytes name = out ? node->outputs[i] : node->inputs[i];
    if (name.n == 0 || (!out && i < 32 && n->reg && ((n->reg->cpu_inputs >> i) & 1u)))
        return EP_OK;
    const struct onnx_infer_value *v =
        out ? dmlt_ep__output_value(st, n, i) : dmlt_ep__input_value(st, n, i);
    if (v != NULL && v->not_tensor)
        return EP_OK;
    if (v == NULL || v->rank < 0)
        return dmlt_ep__reason(
                   st, at, DMLT_R_RANK_TOO_LARGE,
                   "the rank of %s %lu (%.*s) is not known%s%s: the EP refuses more than 8 "
                   "dims",
                   out ? "output" : "input", (unsigned long)i, EP_NAME(name),
                   v && v->reason ? ": " : "", v && v->reason ? v->reason : ""),
               EP_UNKNOWN;
    if (v->rank > 8)
        return dmlt_ep__failure(st, at, out, i, DMLT_R_RANK_TOO_LARGE),
               dmlt_ep__reason(
                   st, at, DMLT_R_RANK_TOO_LARGE,
                   "%s %lu (%.*s) has %ld dims: DirectML tensors have at most 8 "
                   "(DML_TENSOR_DIMENSION_COUNT_MAX1; the EP's TensorDesc refuses more)",
                   out ? "output" : "input", (unsigned long)i, EP_NAME(name), (long)v->rank),
               EP_FAILS;
    int64_t elems;
    bool zero;
    char sym[8];
    if (ep_value_dims(v, &elems, &zero, sym, sizeof sym) == EP_DIMS_KNOWN &&
        elems > (int64_t)UINT32_MAX)
        return dmlt_ep__failure(st, at, out, i, DMLT_R_TOO_MANY_ELEMENTS),
               dmlt_ep__reason(st, at, DMLT_R_TOO_MANY_ELEMENTS,
                               "%s %lu (%.*s) has %lld elements: a DirectML tensor has at most "
                               "4294967295 (DirectML's 32-bit element indexing)",
                               out ? "output" : "input", (unsigned long)i, EP_NAME(name),
                               (long long)elems),
               EP_FAILS;
    return EP_OK;
}

enum ep_verdict dmlt_ep__kernel_creation(struct ep_state *st, struct dmlt_ep_node *n)
{
    const uint32_t at = (uint32_t)(n - st->r->nodes);
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    enum ep_verdict worst = EP_OK;
    if (n->reg && strcmp(n->reg->macro, "ORT_KERNEL") == 0)
        return EP_OK; /* ONNX Runtime's own kernel (If, sequences): no DirectML operator */
    for (int out = 0; out < 2; out++)
        for (uint32_t i = 0; i < (out ? node->n_outputs : node->n_inputs); i++) {
            enum ep_verdict v = tensor_limits(st, n, at, out, i);
            if (v == EP_FAILS || (v == EP_UNKNOWN && worst == EP_OK))
                worst = v;
        }
    unsigned count = 0;
    const struct dmlt_dml_mapping *m = dmlt_ep_mapping(st->r, n, &count);
    if (m == NULL) {
        dmlt_ep__reason(st, at, -1,
                        "DirectML's tensor rules not checked: the tables map %.*s to no DirectML "
                        "operator",
                        EP_NAME(node->op_type));
        return worst;
    }
    char field[64];
    /* Rows with a condition are alternatives the provider picks between
     * (MaxPool: MAX_POOLING or MAX_POOLING2): the node fails only when
     * every alternative does; else which one runs decides. */
    bool alternatives = false;
    unsigned alt_failed = 0;
    for (unsigned k = 0; k < count; k++)
        alternatives |= count > 1 && m[k].condition != NULL;
    for (unsigned k = 0; k < count; k++) {
        const struct dmlt_dml_operator *op = st->tables->operator_find(m[k].dml_operator);
        if (op == NULL) {
            dmlt_ep__reason(
                st, at, -1,
                "DirectML's tensor rules not checked: DML_OPERATOR_%s is not in the tables",
                m[k].dml_operator);
            continue;
        }
        if (op->introduced > st->r->feature_level) {
            dmlt_ep__reason(st, at, DMLT_R_FEATURE_LEVEL,
                            "DML_OPERATOR_%s needs feature level %u_%u; the level is %u_%u (%s)",
                            op->name, DMLT_DML_LEVEL_MAJOR(op->introduced),
                            DMLT_DML_LEVEL_MINOR(op->introduced),
                            DMLT_DML_LEVEL_MAJOR(st->r->feature_level),
                            DMLT_DML_LEVEL_MINOR(st->r->feature_level), op->source);
            worst = EP_FAILS;
            continue;
        }
        const size_t before = st->r->n_failures;
        bool unsure = false;
        for (uint32_t i = 0; i < node->n_inputs; i++)
            if (field_of(m[k].inputs, i, field, sizeof field) &&
                !check_rule(st, n, at, false, i, op, field, &unsure))
                return worst;
        for (uint32_t i = 0; i < node->n_outputs; i++)
            if (field_of(m[k].outputs, i, field, sizeof field) &&
                !check_rule(st, n, at, true, i, op, field, &unsure))
                return worst;
        const bool failed = st->r->n_failures > before;
        alt_failed += failed;
        if (failed && !alternatives)
            worst = EP_FAILS;
        else if ((failed || unsure) && worst == EP_OK)
            worst = EP_UNKNOWN;
    }
    if (alternatives && alt_failed == count)
        worst = EP_FAILS;
    else if (alternatives && alt_failed > 0 && worst != EP_FAILS &&
             !dmlt_ep__reason(
                 st, at, DMLT_R_DATA_TYPE,
                 "the provider picks between %u DirectML operators for %.*s (%s (%s)): the "
                 "tensors break the rules of %u of them, and which one it creates is not "
                 "modelled",
                 count, EP_NAME(node->op_type), m[0].source, m[0].condition ? m[0].condition : "-",
                 alt_failed))
        return worst;
    return worst;
}
