/* dml_ep_queries.c - the DML EP's support queries: the callbacks its
 * registrations name (OperatorRegistration.cpp), each in its operator's
 * DmlOperator*.cpp at microsoft/onnxruntime@12dfe2859c85, the revision of
 * tools/data/dml_ep_registrations.txt. IsNodeSupportedByDml asks the
 * node's query first (dml_ep_checks.c). A query that raises an error
 * (GetAttribute of a missing or mistyped attribute, ML_CHECK_VALID_ARGUMENT)
 * is not modelled: unknown, naming what raises. */
#include "dml_ep_queries.h"

#include <string.h>

#define AT  " at 12dfe2859c85"
#define MLH "MLOperatorAuthorHelper.h"

/* Whether attribute a is of a type, as ORT's GetAttr checks it (its
 * declared type; one without a declared type by the field it gives). */
static bool typed(const struct onnx_attr *a, enum onnx_attr_type t, bool has)
{
    return a->type == t || (a->type == ONNX_ATTR_UNDEFINED && has);
}

/* GetOptionalAttribute<int32_t> (MLOperatorAuthorHelper.h:378): absent, the
 * default; an int, gsl::narrow_cast of the int64, i.e. its low 32 bits;
 * present but no int, GetAttribute throws: false, an unknown recorded. The
 * raw value in *raw for messages. */
static bool opt_i32(struct ep_state *st, uint32_t at, const struct onnx_node *node,
                    const char *name, const char *query, int32_t dflt, int32_t *v, int64_t *raw)
{
    const struct onnx_attr *a = onnx_node_attr(node, name);
    *v = dflt;
    *raw = dflt;
    if (a == NULL)
        return true;
    if (!typed(a, ONNX_ATTR_INT, a->has_i))
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "attribute %s is no integer: %s reads it with "
                               "GetOptionalAttribute<int32_t> (" MLH ":378" AT
                               "), which throws; what the provider makes of that is not modelled",
                               name, query),
               false;
    *raw = a->i;
    *v = (int32_t)(uint32_t)(uint64_t)a->i;
    return true;
}

/* An int attribute read as int32 that the query takes only as 0: EP_OK, or
 * EP_CPU / EP_UNKNOWN with the reason recorded. */
static enum ep_verdict zero_i32(struct ep_state *st, uint32_t at, const struct onnx_node *node,
                                const char *name, const char *query)
{
    int32_t v;
    int64_t raw;
    if (!opt_i32(st, at, node, name, query, 0, &v, &raw))
        return EP_UNKNOWN;
    if (v == 0)
        return EP_OK;
    return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED, "attribute %s=%lld%s: %s takes only 0",
                           name, (long long)raw,
                           (int64_t)v != raw ? " (narrowed to 32 bits there)" : "", query),
           EP_CPU;
}

/* A string attribute as GetAttribute(name) returns it: std::string built
 * from the bytes up to the first NUL (MLOperatorAuthorHelper.h:341). */
static size_t c_string_len(struct onnx_bytes s)
{
    const void *nul = s.n ? memchr(s.p, '\0', s.n) : NULL;
    return nul ? (size_t)((const char *)nul - (const char *)s.p) : s.n;
}

/* IsInputValid / IsOutputValid (MLOperatorAuthorImpl.cpp:1024, :1035): the
 * slot exists and names a value. */
static bool valid(const struct onnx_bytes *names, uint32_t count, uint32_t i)
{
    return i < count && names[i].n != 0;
}

/* QueryBatchNormalization (DmlOperatorBatchNormalization.cpp:166): no
 * training_mode (int32), 5 tensor inputs of one element type. */
static enum ep_verdict query_batchnorm(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    static const char q[] = "QueryBatchNormalization (DmlOperatorBatchNormalization.cpp:166" AT ")";
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    enum ep_verdict v = zero_i32(st, at, node, "training_mode", q);
    if (v != EP_OK)
        return v;
    if (node->n_inputs < 5)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED, "%lu inputs: %s needs 5",
                               (unsigned long)node->n_inputs, q),
               EP_CPU;
    int32_t t0 = 0;
    for (uint32_t i = 0; i < 5; i++) {
        const struct onnx_infer_value *iv = dmlt_ep__input_value(st, n, i);
        if (iv == NULL || (!iv->not_tensor && iv->elem_type == 0))
            return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                                   "the element type of input %lu (%.*s) is not known: "
                                   "%s needs all 5 alike",
                                   (unsigned long)i, EP_NAME(node->inputs[i]), q),
                   EP_UNKNOWN;
        if (i == 0)
            t0 = iv->elem_type;
        if (iv->not_tensor || iv->elem_type != t0)
            return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                                   "input %lu (%.*s) has another element type than input 0: "
                                   "%s needs all 5 alike",
                                   (unsigned long)i, EP_NAME(node->inputs[i]), q),
                   EP_CPU;
    }
    return EP_OK;
}

/* QueryResize (DmlOperatorResize.cpp:324): mode not "cubic", exclude_outside
 * (int32) 0, extrapolation_value 0. */
static enum ep_verdict query_resize(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    static const char q[] = "QueryResize (DmlOperatorResize.cpp:324" AT ")";
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct onnx_attr *mode = onnx_node_attr(node, "mode");
    const struct onnx_attr *ev = onnx_node_attr(node, "extrapolation_value");
    if ((mode && !typed(mode, ONNX_ATTR_STRING, mode->has_s)) ||
        (ev && !typed(ev, ONNX_ATTR_FLOAT, ev->has_f)))
        return dmlt_ep__reason(
                   st, at, DMLT_R_QUERY_REJECTED,
                   "attribute %s is no %s: %s reads it with GetOptionalAttribute, "
                   "which throws; what the provider makes of that is not modelled",
                   mode && !typed(mode, ONNX_ATTR_STRING, mode->has_s) ? "mode"
                                                                       : "extrapolation_value",
                   mode && !typed(mode, ONNX_ATTR_STRING, mode->has_s) ? "string" : "float", q),
               EP_UNKNOWN;
    if (mode && c_string_len(mode->s) == 5 && memcmp(mode->s.p, "cubic", 5) == 0)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "attribute mode=\"cubic\": %s: DirectML has no cubic interpolation",
                               q),
               EP_CPU;
    enum ep_verdict v = zero_i32(st, at, node, "exclude_outside", q);
    if (v != EP_OK)
        return v;
    if (ev && ev->f != 0.0f)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "attribute extrapolation_value=%g: %s takes only 0", (double)ev->f,
                               q),
               EP_CPU;
    return EP_OK;
}

/* QueryQAttention (DmlOperatorQAttention.cpp:677): no `unidirectional` with a
 * mask (input 5), no `do_rotary`, no `past_present_share_buffer`; each int32. */
static enum ep_verdict query_qattention(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    static const char q[] = "QueryQAttention (DmlOperatorQAttention.cpp:677" AT ")";
    static const char *const names[] = {"unidirectional", "do_rotary", "past_present_share_buffer"};
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    int32_t uni;
    int64_t raw;
    if (!opt_i32(st, at, node, names[0], q, 0, &uni, &raw))
        return EP_UNKNOWN;
    if (uni != 0 && valid(node->inputs, node->n_inputs, 5))
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "attribute unidirectional=%lld with a mask_index (input 5): %s "
                               "takes it only without one",
                               (long long)raw, q),
               EP_CPU;
    for (unsigned k = 1; k < 3; k++) {
        enum ep_verdict v = zero_i32(st, at, node, names[k], q);
        if (v != EP_OK)
            return v;
    }
    return EP_OK;
}

/* QueryAttention (DmlOperatorAttention.cpp:541): no `past` (input 4), no
 * `past_sequence_length` (input 6), no `present` (output 1); no
 * unidirectional, do_rotary or past_present_share_buffer (each int32). */
static enum ep_verdict query_attention(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    static const char q[] = "QueryAttention (DmlOperatorAttention.cpp:541" AT ")";
    static const char *const names[] = {"unidirectional", "do_rotary", "past_present_share_buffer"};
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    for (uint32_t i = 4; i <= 6; i += 2)
        if (valid(node->inputs, node->n_inputs, i))
            return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                                   "input %lu (%.*s) is given: %s takes no %s", (unsigned long)i,
                                   EP_NAME(node->inputs[i]), q,
                                   i == 4 ? "past" : "past_sequence_length"),
                   EP_CPU;
    if (valid(node->outputs, node->n_outputs, 1))
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "output 1 (%.*s) is given: %s takes no present",
                               EP_NAME(node->outputs[1]), q),
               EP_CPU;
    for (unsigned k = 0; k < 3; k++) {
        enum ep_verdict v = zero_i32(st, at, node, names[k], q);
        if (v != EP_OK)
            return v;
    }
    return EP_OK;
}

/* QueryMatMulNBits (DmlOperatorMatMulNBits.cpp:176): bits 4 or 8, and K
 * (narrowed to 32 bits) a multiple of block_size; a missing attribute
 * (GetAttribute throws) or block_size <= 0 (ML_CHECK_VALID_ARGUMENT) is an
 * error the query raises, which is not modelled: unknown. */
static enum ep_verdict query_matmulnbits(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    static const char q[] = "QueryMatMulNBits (DmlOperatorMatMulNBits.cpp:176" AT ")";
    static const char *const names[] = {"bits", "K", "block_size"};
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    int64_t v[3];
    for (unsigned k = 0; k < 3; k++) {
        const struct onnx_attr *a = onnx_node_attr(node, names[k]);
        if (a == NULL || !typed(a, ONNX_ATTR_INT, a->has_i))
            return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                                   "no integer attribute %s: %s reads it with GetAttribute, "
                                   "which throws; what the provider makes of that is not modelled",
                                   names[k], q),
                   EP_UNKNOWN;
        v[k] = a->i;
    }
    if (v[0] != 4 && v[0] != 8)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "attribute bits=%lld: %s takes 4 or 8", (long long)v[0], q),
               EP_CPU;
    if (v[2] <= 0)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "attribute block_size=%lld: %s fails its "
                               "ML_CHECK_VALID_ARGUMENT(blockSize > 0); what the provider makes "
                               "of that is not modelled",
                               (long long)v[2], q),
               EP_UNKNOWN;
    const uint32_t k32 = (uint32_t)(uint64_t)v[1]; /* gsl::narrow_cast<uint32_t> */
    if ((int64_t)k32 % v[2] != 0)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "attribute K=%lld%s is no multiple of block_size=%lld: %s takes "
                               "whole blocks only",
                               (long long)v[1],
                               (int64_t)k32 != v[1] ? " (narrowed to 32 bits there)" : "",
                               (long long)v[2], q),
               EP_CPU;
    return EP_OK;
}

/* QueryScatter (DmlOperatorScatter.cpp:111, ScatterElements-16 and
 * ScatterND-16): reduction "none" (the default) only. */
static enum ep_verdict query_scatter(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    static const char q[] = "QueryScatter (DmlOperatorScatter.cpp:111" AT ")";
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct onnx_attr *a = onnx_node_attr(node, "reduction");
    if (a == NULL)
        return EP_OK;
    if (!typed(a, ONNX_ATTR_STRING, a->has_s))
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "attribute reduction is no string: %s reads it with "
                               "GetOptionalAttribute<std::string> (" MLH ":426" AT
                               "), which throws; what the provider makes of that is not modelled",
                               q),
               EP_UNKNOWN;
    const size_t len = c_string_len(a->s);
    if (len == 4 && memcmp(a->s.p, "none", 4) == 0)
        return EP_OK;
    return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                           "attribute reduction=\"%.*s\": %s takes only \"none\" (DirectML's "
                           "scatter does no reduction)",
                           (int)(len < 40 ? len : 40), (const char *)a->s.p, q),
           EP_CPU;
}

/* QueryPad (DmlOperatorPadding.cpp:104, Pad-7's registration: Pad-2's
 * `pads` attribute): no negative pad, read with
 * GetOptionalAttributeVectorInt32 (MLOperatorAuthorHelper.h:354), which
 * clamps each int64 to int32 (the sign is kept). Later Pads have no query. */
static enum ep_verdict query_pad(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct onnx_attr *a = onnx_node_attr(node, "pads");
    for (uint32_t i = 0; a != NULL && i < a->n_ints; i++)
        if (a->ints[i] < 0)
            return dmlt_ep__reason(
                       st, at, DMLT_R_QUERY_REJECTED,
                       "attribute pads[%lu]=%lld: QueryPad (DmlOperatorPadding.cpp:104" AT
                       ") takes no negative pad (DML_PADDING1 has none)",
                       (unsigned long)i, (long long)a->ints[i]),
                   EP_CPU;
    return EP_OK;
}

/* QueryRecurrentNeuralNetwork (DmlOperatorRecurrentNeuralNetwork.cpp:413,
 * RNN, GRU and LSTM since 14): layout (int32) 0 only. */
static enum ep_verdict query_rnn(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    return zero_i32(st, at, dmlt_ep__onnx_node(st, n), "layout",
                    "QueryRecurrentNeuralNetwork (DmlOperatorRecurrentNeuralNetwork.cpp:413" AT
                    ")");
}

/* QuerySkipLayerNormalization (DmlOperatorSkipLayerNormalization.cpp:209,
 * SkipLayerNormalization and SkipSimplifiedLayerNormalization): no output 1
 * (mean) or 2 (inv_std_var). */
static enum ep_verdict query_skiplayernorm(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    for (uint32_t k = 1; k <= 2; k++)
        if (valid(node->outputs, node->n_outputs, k))
            return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                                   "output %lu (%.*s) is given: QuerySkipLayerNormalization "
                                   "(DmlOperatorSkipLayerNormalization.cpp:209" AT
                                   ") takes no %s output",
                                   (unsigned long)k, EP_NAME(node->outputs[k]),
                                   k == 1 ? "mean" : "inv_std_var"),
                   EP_CPU;
    return EP_OK;
}

/* EinSumHelper::ParseEquationComponents (OperatorHelper.cpp:1393) counted:
 * the components of the equation (inputs and output), 0 for an ellipsis
 * (left unrecognized), -1 with *err for an equation it raises an error on. */
static int einsum_components(struct onnx_bytes eq, const char **err)
{
    const char *p = (const char *)eq.p;
    const size_t len = c_string_len(eq);
    uint64_t seen = 0;
    bool output = false;
    int count = 0;
    for (size_t i = 0;; i++) {
        char ch = '\0'; /* the std::string's terminator */
        if (i < len)
            ch = p[i];
        const bool lower = ch >= 'a' && ch <= 'z', upper = ch >= 'A' && ch <= 'Z';
        if (lower || upper) {
            const uint64_t bit = 1ull << (lower ? ch - 'a' : 26 + ch - 'A');
            if (!(seen & bit) && output)
                return *err = "a label in the output that no input has (OperatorHelper.cpp:1418)",
                       -1;
            seen |= bit;
            continue;
        }
        if (ch == ' ')
            continue;
        count++;
        if (ch == ',')
            continue;
        if (ch == '-') {
            if (i + 1 >= len || p[i + 1] != '>')
                return *err = "a '-' not followed by '>' (OperatorHelper.cpp:1448)", -1;
            if (output)
                return *err = "a second '->' (OperatorHelper.cpp:1449)", -1;
            output = true;
            i++;
            continue;
        }
        if (ch == '.')
            return 0; /* "Ellipsis is unsupported" (OperatorHelper.cpp:1454) */
        if (ch == '\0')
            return output ? count : count + 1;
        return *err = "a character other than a letter, ' ', ',' or \"->\" "
                      "(OperatorHelper.cpp:1463)",
               -1;
    }
}

/* QueryEinSum (DmlOperatorEinSum.cpp:406): the equation (GetAttribute,
 * OperatorHelper.h:779) recognized as one of DirectML's patterns, i.e.
 * parsed, no ellipsis, at most 2 inputs (DetermineRecognizedOperatorType,
 * OperatorHelper.cpp:1490: any 1- or 2-input equation is recognized). */
static enum ep_verdict query_einsum(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    static const char q[] = "QueryEinSum (DmlOperatorEinSum.cpp:406" AT ")";
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    const struct onnx_attr *a = onnx_node_attr(node, "equation");
    const char *err = NULL;
    if (a == NULL || !typed(a, ONNX_ATTR_STRING, a->has_s))
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "no string attribute equation: %s reads it with GetAttribute "
                               "(OperatorHelper.h:779" AT "), which throws; what the provider "
                               "makes of that is not modelled",
                               q),
               EP_UNKNOWN;
    const int count = einsum_components(a->s, &err);
    const int shown = (int)(a->s.n < 80 ? a->s.n : 80);
    if (count < 0)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "equation \"%.*s\" has %s: %s raises an error on it; what the "
                               "provider makes of that is not modelled",
                               shown, (const char *)a->s.p, err, q),
               EP_UNKNOWN;
    if (count == 0)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "equation \"%.*s\" has an ellipsis: %s leaves it unrecognized "
                               "(OperatorHelper.cpp:1454)",
                               shown, (const char *)a->s.p, q),
               EP_CPU;
    if (count > 3)
        return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                               "equation \"%.*s\" has %d inputs: %s recognizes at most 2 "
                               "(OperatorHelper.cpp:1513)",
                               shown, (const char *)a->s.p, count - 1, q),
               EP_CPU;
    return EP_OK;
}

enum ep_verdict dmlt_ep__support_query(struct ep_state *st, struct dmlt_ep_node *n, uint32_t at)
{
    const struct onnx_node *node = dmlt_ep__onnx_node(st, n);
    switch (n->reg->query) {
    case DMLT_Q_NONE:
        return EP_OK;
    case DMLT_Q_SLICE: /* context->GetInputCount() <= 5 */
        return node->n_inputs <= 5
                   ? EP_OK
                   : (dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                                      "%lu inputs: QuerySlice (DmlOperatorSlice.cpp:45" AT
                                      ") takes at most 5",
                                      (unsigned long)node->n_inputs),
                      EP_CPU);
    case DMLT_Q_MAXPOOL: /* GetOptionalAttribute<int>(storage_order) == 0 */
        return zero_i32(st, at, node, "storage_order",
                        "QueryMaxPool (DmlOperatorPooling.cpp:184" AT ")");
    case DMLT_Q_RESIZE:
        return query_resize(st, n, at);
    case DMLT_Q_BATCHNORM:
        return query_batchnorm(st, n, at);
    case DMLT_Q_QATTENTION:
        return query_qattention(st, n, at);
    case DMLT_Q_ATTENTION:
        return query_attention(st, n, at);
    case DMLT_Q_MATMULNBITS:
        return query_matmulnbits(st, n, at);
    case DMLT_Q_SCATTER:
        return query_scatter(st, n, at);
    case DMLT_Q_PAD:
        return query_pad(st, n, at);
    case DMLT_Q_RNN:
        return query_rnn(st, n, at);
    case DMLT_Q_SKIPLAYERNORM:
        return query_skiplayernorm(st, n, at);
    case DMLT_Q_EINSUM:
        return query_einsum(st, n, at);
    case DMLT_Q_QLINEARSIGMOID: /* context->GetInputCount() < 5: no (zero points optional) */
        return node->n_inputs >= 5 ? EP_OK
                                   : (dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                                                      "%lu inputs: QueryQLinearSigmoid "
                                                      "(DmlOperatorQLinearSigmoid.cpp:166" AT
                                                      ") needs 5 (both zero points)",
                                                      (unsigned long)node->n_inputs),
                                      EP_CPU);
    case DMLT_Q_LAYERNORM: /* GetOutputCount() == 1 (a bias is optional since c2d08fd73) */
        if (node->n_outputs != 1)
            return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                                   "%lu outputs: QueryLayerNormalization "
                                   "(DmlOperatorLayerNormalization.cpp:257" AT
                                   ") takes 1 output only (no Mean, InvStdDev)",
                                   (unsigned long)node->n_outputs),
                   EP_CPU;
        return EP_OK;
    }
    return dmlt_ep__reason(st, at, DMLT_R_QUERY_REJECTED,
                           "the registration names support query %u, which this build does not "
                           "know (%s:%u)",
                           (unsigned)n->reg->query, n->reg->file, n->reg->line),
           EP_UNKNOWN;
}
