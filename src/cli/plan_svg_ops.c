/* plan_svg_ops.c - the picture's colours (plan_svg.h): a fixed colour for
 * each op, the same in every model. Each op family has a hue; each op of
 * the family's list a shade of it, by its place in the list; an op no list
 * names is "other": a grey shade chosen by a hash of its name. */
#include "plan_svg.h"

#include <stdlib.h>
#include <string.h>

struct family {
    const char *name;
    int hue, sat;           /* degrees, percent */
    const char *const *ops; /* NULL-terminated */
};

static const char *const CONV[] = {"Conv",       "ConvTranspose", "ConvInteger", "QLinearConv",
                                   "DeformConv", "FusedConv",     "NhwcConv",    NULL};
static const char *const MATMUL[] = {
    "MatMul",      "Gemm",      "MatMulInteger", "QLinearMatMul",        "Einsum", "FusedMatMul",
    "MatMulNBits", "FusedGemm", "QGemm",         "MatMulIntegerToFloat", NULL};
static const char *const ACTIVATION[] = {
    "Relu",     "Sigmoid",  "Tanh",     "Gelu",        "LeakyRelu",
    "Elu",      "Selu",     "Celu",     "HardSigmoid", "HardSwish",
    "Softplus", "Softsign", "Mish",     "PRelu",       "ThresholdedRelu",
    "Clip",     "Erf",      "FastGelu", "BiasGelu",    "QuickGelu",
    NULL};
static const char *const ATTENTION[] = {"Softmax",
                                        "LogSoftmax",
                                        "Hardmax",
                                        "Attention",
                                        "MultiHeadAttention",
                                        "GroupQueryAttention",
                                        "RotaryEmbedding",
                                        NULL};
static const char *const NORM[] = {"BatchNormalization",
                                   "LayerNormalization",
                                   "InstanceNormalization",
                                   "GroupNormalization",
                                   "LpNormalization",
                                   "MeanVarianceNormalization",
                                   "SimplifiedLayerNormalization",
                                   "SkipLayerNormalization",
                                   "SkipSimplifiedLayerNormalization",
                                   "RMSNormalization",
                                   "LRN",
                                   NULL};
static const char *const POOL[] = {
    "MaxPool",      "AveragePool", "GlobalAveragePool", "GlobalMaxPool", "LpPool",
    "GlobalLpPool", "MaxRoiPool",  "RoiAlign",          "MaxUnpool",     NULL};
static const char *const ARITH[] = {
    "Add",  "Sub",  "Mul",        "Div",   "Pow",  "Sqrt",    "Exp",  "Log",
    "Neg",  "Abs",  "Reciprocal", "Floor", "Ceil", "Round",   "Sign", "Sin",
    "Cos",  "Tan",  "Mod",        "Max",   "Min",  "Sum",     "Mean", "BitShift",
    "Asin", "Acos", "Atan",       "Sinh",  "Cosh", "BiasAdd", NULL};
static const char *const LOGIC[] = {
    "Equal", "Less",  "LessOrEqual", "Greater", "GreaterOrEqual", "Not",       "And",        "Or",
    "Xor",   "Where", "IsNaN",       "IsInf",   "BitwiseAnd",     "BitwiseOr", "BitwiseNot", NULL};
static const char *const REDUCE[] = {
    "ReduceSum", "ReduceMean", "ReduceMax",    "ReduceMin",       "ReduceProd",
    "ReduceL1",  "ReduceL2",   "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare",
    "ArgMax",    "ArgMin",     "TopK",         "CumSum",          NULL};
static const char *const MOVE[] = {"Reshape",
                                   "Transpose",
                                   "Concat",
                                   "Split",
                                   "Slice",
                                   "Squeeze",
                                   "Unsqueeze",
                                   "Flatten",
                                   "Expand",
                                   "Tile",
                                   "Gather",
                                   "GatherElements",
                                   "GatherND",
                                   "Scatter",
                                   "ScatterND",
                                   "ScatterElements",
                                   "Pad",
                                   "DepthToSpace",
                                   "SpaceToDepth",
                                   "Identity",
                                   "Compress",
                                   "ReverseSequence",
                                   "Trilu",
                                   "Col2Im",
                                   NULL};
static const char *const RESIZE[] = {"Resize", "Upsample", "GridSample", "AffineGrid", NULL};
static const char *const SHAPE[] = {"Shape",   "Size",   "ConstantOfShape",   "Range",
                                    "NonZero", "Cast",   "CastLike",          "OneHot",
                                    "EyeLike", "Unique", "NonMaxSuppression", NULL};
static const char *const RECURRENT[] = {"LSTM", "GRU", "RNN", NULL};
static const char *const QUANT[] = {"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear",
                                    NULL};
static const char *const CONTROL[] = {"If", "Loop", "Scan", NULL};
static const char *const OTHER_KNOWN[] = {"Dropout",      "DFT",           "STFT",
                                          "RandomNormal", "RandomUniform", "Multinomial",
                                          "Bernoulli",    "Det",           NULL};

/* In the legend's order. Hues far apart; "other" is grey. */
static const struct family FAMILIES[] = {
    {"convolution", 212, 45, CONV},      {"matrix product", 28, 85, MATMUL},
    {"activation", 112, 40, ACTIVATION}, {"softmax, attention", 356, 70, ATTENTION},
    {"normalization", 300, 30, NORM},    {"pooling", 176, 35, POOL},
    {"arithmetic", 48, 80, ARITH},       {"comparison, logic", 330, 90, LOGIC},
    {"reduction", 22, 30, REDUCE},       {"data movement", 145, 50, MOVE},
    {"resize", 190, 80, RESIZE},         {"shape", 240, 20, SHAPE},
    {"recurrent", 228, 60, RECURRENT},   {"quantization", 10, 45, QUANT},
    {"control flow", 75, 60, CONTROL},   {"other", 275, 35, OTHER_KNOWN},
};
#define N_FAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

/* An op's shade: the k-th op of a family takes lightness LIGHT[k % 6]
 * and the family's hue turned by TURN[k / 6 % 5]: 30 colours a family. */
static const int LIGHT[] = {48, 64, 34, 78, 24, 56};
static const int TURN[] = {0, 10, -10, 20, -20};

/* The op's own name: the part after the last '.' (domain.op_type). */
static const char *op_type_of(const char *op)
{
    const char *dot = strrchr(op, '.');
    return dot ? dot + 1 : op;
}

/* "#rrggbb" of HSL (hue in degrees, saturation and lightness in
 * percent), in integers: the same bytes everywhere. */
static void hsl(int hue, int sat, int light, char out[8])
{
    static const char hex[] = "0123456789abcdef";
    hue = ((hue % 360) + 360) % 360;
    /* chroma and the rest in thousandths */
    const int c = (1000 - abs(2 * light * 10 - 1000)) * sat / 100;
    const int hp = hue * 1000 / 60; /* hue / 60 in thousandths */
    const int x = c * (1000 - abs(hp % 2000 - 1000)) / 1000;
    const int m = light * 10 - c / 2;
    int r = 0, g = 0, b = 0;
    switch (hp / 1000) {
    case 0:
        r = c, g = x;
        break;
    case 1:
        r = x, g = c;
        break;
    case 2:
        g = c, b = x;
        break;
    case 3:
        g = x, b = c;
        break;
    case 4:
        r = x, b = c;
        break;
    default:
        r = c, b = x;
        break;
    }
    const int v[3] = {r + m, g + m, b + m};
    out[0] = '#';
    for (int k = 0; k < 3; k++) {
        const int byte = (v[k] * 255 + 500) / 1000;
        out[1 + 2 * k] = hex[(byte >> 4) & 15];
        out[2 + 2 * k] = hex[byte & 15];
    }
    out[7] = '\0';
}

unsigned cli_plan_op_family(const char *op)
{
    if (op == NULL)
        return PLAN_NO_FAMILY;
    const char *type = op_type_of(op);
    for (unsigned f = 0; f < N_FAMILIES; f++)
        for (unsigned k = 0; FAMILIES[f].ops[k]; k++)
            if (strcmp(FAMILIES[f].ops[k], type) == 0)
                return f;
    return PLAN_UNLISTED;
}

const char *cli_plan_family_name(unsigned family)
{
    return family < N_FAMILIES       ? FAMILIES[family].name
           : family == PLAN_UNLISTED ? "unlisted"
                                     : "no op";
}

void cli_plan_op_colour(const char *op, char out[8])
{
    if (op == NULL) {
        memcpy(out, PLAN_NO_OP_COLOUR, 8);
        return;
    }
    const char *type = op_type_of(op);
    const unsigned f = cli_plan_op_family(op);
    if (f < N_FAMILIES) {
        unsigned k = 0;
        while (strcmp(FAMILIES[f].ops[k], type) != 0)
            k++;
        hsl(FAMILIES[f].hue + TURN[k / 6 % 5], FAMILIES[f].sat, LIGHT[k % 6], out);
        return;
    }
    uint32_t h = 2166136261u; /* FNV-1a of the whole name: a grey */
    for (const unsigned char *p = (const unsigned char *)op; *p; p++)
        h = (h ^ *p) * 16777619u;
    hsl(0, 0, 30 + (int)(h % 41), out);
}
