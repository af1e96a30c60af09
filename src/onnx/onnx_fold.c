/* onnx_fold.c - which node outputs a runtime computes once, when its
 * session is made (SPEC section 11, "Folding"; ONNX Runtime's constant
 * folding, with free dimensions overridden by --dim and --shape): a node is
 * folded when it is deterministic, of the default domain, has no
 * subgraph (a runtime folds inside the subgraph, not the node), and every
 * input it names is folded (an initializer no graph input overrides, a
 * Constant's value, a folded output); Shape and Size when every dim of
 * their input is a known constant. The driver (onnx_infer.c) asks once per
 * node, after its inputs are inferred. */
#include "onnx_infer_int.h"

#include <string.h>

/* The operators whose outputs differ from run to run. */
static const char *const random_ops[] = {"RandomNormal",      "RandomUniform", "RandomNormalLike",
                                         "RandomUniformLike", "Multinomial",   "Bernoulli"};

static bool fully_known(const struct ival *v)
{
    if (!v || v->pub.not_tensor || v->pub.rank < 0)
        return false;
    for (int32_t d = 0; d < v->pub.rank; d++)
        if (!onnx_dx_is_const(v->pub.dims[d], NULL))
            return false;
    return true;
}

bool onnx__fold_node(struct onnx_infer *in, const struct onnx_graph *g,
                     const struct onnx_node *node)
{
    if (node->domain.n && !onnx__bytes_is(node->domain, "ai.onnx"))
        return false;
    for (size_t i = 0; i < sizeof random_ops / sizeof random_ops[0]; i++)
        if (onnx__bytes_is(node->op_type, random_ops[i]))
            return false;
    for (uint32_t a = 0; a < node->n_attrs; a++)
        if (node->attrs[a].g || node->attrs[a].n_graphs)
            return false;
    if ((onnx__bytes_is(node->op_type, "Shape") || onnx__bytes_is(node->op_type, "Size")) &&
        node->n_inputs >= 1 && node->inputs[0].n)
        if (fully_known(onnx__lookup(in, g, node->inputs[0])))
            return true;
    for (uint32_t i = 0; i < node->n_inputs; i++) {
        if (node->inputs[i].n == 0)
            continue; /* an optional input left out */
        const struct ival *v = onnx__lookup(in, g, node->inputs[i]);
        if (!v || !v->pub.folded)
            return false;
    }
    return true;
}
