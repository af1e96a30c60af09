/* ep_fake_tables.c MODEL.onnx [N=PLACEMENT/REASON]... - the kernel-creation
 * stage of `nodes` (src/dml/dml_ep.h) against a tiny DirectML table built
 * here, through dmlt_ep_options.tables: the generated tables are empty on
 * this branch (another branch fills them), so this checks that the stage
 * reads them right. The table: MatMul -> DML_OPERATOR_GEMM (ATensor,
 * BTensor -> OutputTensor) whose tensors take 4 dims only and float32 or
 * float16; Relu -> DML_OPERATOR_ACTIVATION_RELU, introduced at feature level
 * 6_1. Prints "node I: PLACEMENT/FIRST_REASON" for each node of the main graph;
 * each N=PLACEMENT/REASON argument is checked (exit 1 on a mismatch). Run
 * by tests/dml/check_nodes_stages.py, which builds the models. */
#include "dml_ep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct dmlt_dml_tensor_rule gemm_rules[] = {
    {"ATensor", 0x1000, 1u << 4, (1u << DMLT_DTYPE_FLOAT32) | (1u << DMLT_DTYPE_FLOAT16), 0},
    {"BTensor", 0x1000, 1u << 4, (1u << DMLT_DTYPE_FLOAT32) | (1u << DMLT_DTYPE_FLOAT16), 0},
    {"OutputTensor", 0x1000, 1u << 4, (1u << DMLT_DTYPE_FLOAT32) | (1u << DMLT_DTYPE_FLOAT16), 0},
};
static const struct dmlt_dml_tensor_rule relu_rules[] = {
    {"InputTensor", 0x6100, 0x1f0, 1u << DMLT_DTYPE_FLOAT32, 0},
    {"OutputTensor", 0x6100, 0x1f0, 1u << DMLT_DTYPE_FLOAT32, 0},
};
static const struct dmlt_dml_operator ops[] = {
    {"GEMM", 0x1000, gemm_rules, 3, "test table"},
    {"ACTIVATION_RELU", 0x6100, relu_rules, 2, "test table"},
};
static const struct dmlt_dml_mapping maps[] = {
    {"MatMul", "GEMM", "ATensor,BTensor", "OutputTensor", "test", NULL},
    {"Relu", "ACTIVATION_RELU", "InputTensor", "OutputTensor", "test", NULL},
};

static const struct dmlt_dml_operator *find(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0)
            return &ops[i];
    return NULL;
}

static const struct dmlt_dml_tensor_rule *rule_at(const struct dmlt_dml_operator *op,
                                                  const char *tensor, unsigned level)
{
    for (unsigned i = 0; i < op->n_rules; i++)
        if (strcmp(op->rules[i].tensor, tensor) == 0 && op->rules[i].level <= level)
            return &op->rules[i];
    return NULL;
}

static const struct dmlt_dml_mapping *mapping(const char *op, unsigned *count)
{
    for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
        if (strcmp(maps[i].onnx_op, op) == 0) {
            *count = 1;
            return &maps[i];
        }
    *count = 0;
    return NULL;
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    uint8_t *buf = malloc(1 << 20);
    *len = buf ? fread(buf, 1, 1 << 20, f) : 0;
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    size_t len;
    uint8_t *data = argc > 1 ? slurp(argv[1], &len) : NULL;
    struct onnx_model model;
    struct onnx_error oe;
    struct onnx_infer *inf = NULL;
    bool oom = false;
    if (data == NULL || !onnx_model_read(data, len, &model, &oe, &oom)) {
        fprintf(stderr, "ep_fake_tables: cannot read %s\n", argc > 1 ? argv[1] : "(none)");
        return 2;
    }
    const struct onnx_infer_options io = {0};
    if (onnx_infer_run(&model, &io, &inf) != ONNX_INFER_OK)
        return 2;
    static const struct dmlt_ep_tables tables = {find, rule_at, mapping};
    unsigned level = 0x6400;
    int first_check = 2;
    if (argc > 2 && strncmp(argv[2], "--level=", 8) == 0) {
        level = dmlt_dml_level_parse(argv[2] + 8);
        first_check = 3;
    }
    const struct dmlt_ep_options opts = {level, &tables};
    struct dmlt_ep_result r;
    if (!dmlt_ep_run(&model, inf, &opts, &r))
        return 2;
    int bad = 0;
    char got[64][160];
    for (uint32_t k = 0; k < model.graphs[0].n_nodes && k < 64; k++) {
        const struct dmlt_ep_node *n = dmlt_ep_node_at(&r, 0, k);
        int w = snprintf(got[k], sizeof got[k], "%s", dmlt_ep_placement_name(n->placement));
        for (uint32_t i = 0; i < n->n_reasons; i++) { /* the first reason */
            const struct dmlt_ep_reason_rec *x = &r.reasons[n->first_reason + i];
            if (x->id >= 0 && w > 0 && (size_t)w < sizeof got[k]) {
                snprintf(got[k] + w, sizeof got[k] - (size_t)w, "/%s",
                         dmlt_ep_reason_id((enum dmlt_ep_reason)x->id));
                break;
            }
        }
        printf("node %lu: %s\n", (unsigned long)k, got[k]);
    }
    for (int a = first_check; a < argc; a++) {
        unsigned long k = strtoul(argv[a], NULL, 10);
        const char *want = strchr(argv[a], '=');
        if (want == NULL || k >= 64 || k >= model.graphs[0].n_nodes || strcmp(got[k], want + 1)) {
            fprintf(stderr, "ep_fake_tables: %s: expected %s, got %s\n", argv[1], argv[a],
                    k < 64 && k < model.graphs[0].n_nodes ? got[k] : "(no such node)");
            bad = 1;
        }
    }
    dmlt_ep_free(&r);
    onnx_infer_free(inf);
    onnx_model_free(&model);
    free(data);
    return bad;
}
