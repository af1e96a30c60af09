/* dml_operators.h - DirectML operators' tensor support, by feature level.
 *
 * The data is generated (tools/gen_dml_tables.py from tools/data/dml_*.tsv,
 * each row with its source page in MicrosoftDocs/sdk-api or
 * windows-ai-docs) into dml_operator_table.c. Pure data and lookups: no
 * I/O, no allocation. Used by `validate --operator` (src/cli) and by the
 * DML EP model of `nodes` (src/dml/dml_ep*.c).
 *
 * src/dml/ is the layer that knows both ONNX (src/onnx) and DirectML
 * (src/lib): the model as ONNX Runtime's DirectML provider runs it.
 *
 * Feature levels are written as 0xMm00 (DML_FEATURE_LEVEL_5_1 = 0x5100),
 * as DirectML's enum DML_FEATURE_LEVEL does.
 */
#ifndef DMLT_DML_OPERATORS_H
#define DMLT_DML_OPERATORS_H

#include <stdint.h>

#include "dmltensor.h" /* enum dmlt_dtype: DML_TENSOR_DATA_TYPE's values */

#ifdef __cplusplus
extern "C" {
#endif

/* One tensor field of one operator desc, as "Tensor support" lists it for
 * one feature level: from `level` on (until a newer row of the same
 * operator and tensor), `dim_counts` has bit n set when n dimensions are
 * allowed, `dtypes` bit (1u << DML_TENSOR_DATA_TYPE) when that type is. */
struct dmlt_dml_tensor_rule {
    const char *tensor;  /* the desc's field: "ATensor", "OutputTensor" */
    unsigned level;      /* 0x1000 .. : the first level this row applies to */
    uint16_t dim_counts; /* bit n: n dimensions allowed (n in 1..8) */
    uint32_t dtypes;     /* bit d: enum dmlt_dtype d allowed (0: the page lists none: unknown) */
    unsigned optional;   /* 1 when the field may be null */
};

struct dmlt_dml_operator {
    const char *name;    /* without the prefix: "GEMM" (DML_OPERATOR_GEMM); DML_OPERATOR_REDUCE's
                            tables differ by function: "REDUCE:SUM", "REDUCE:ARGMAX" ... */
    unsigned introduced; /* the feature level that introduced the operator */
    const struct dmlt_dml_tensor_rule *rules;
    unsigned n_rules;
    const char *source; /* the documentation page the rows come from */
};

/* The operator named NAME ("DML_OPERATOR_GEMM" or "GEMM", any case), or NULL. */
const struct dmlt_dml_operator *dmlt_dml_operator_find(const char *name);

/* The rule for TENSOR of OP in force at LEVEL (the newest row whose level
 * is <= LEVEL), or NULL when the operator has no such tensor or none of
 * its rows applies at LEVEL. */
const struct dmlt_dml_tensor_rule *dmlt_dml_tensor_rule_at(const struct dmlt_dml_operator *op,
                                                           const char *tensor, unsigned level);

/* How ONNX Runtime's DML EP maps an ONNX operator onto DirectML operator
 * descs (its Operators/DmlOperator*.cpp): the tensors of the ONNX node go
 * to these desc fields. An ONNX operator may create several DirectML
 * operators (rows for one op are contiguous, in creation order). */
struct dmlt_dml_mapping {
    const char *onnx_op; /* "Conv", or "com.microsoft.FusedMatMul" outside the default domain */
    const char *dml_operator; /* "CONVOLUTION" (without DML_OPERATOR_) */
    const char *inputs;       /* the desc field of each ONNX input, comma-separated, "-" for an
                                 input the operator does not take as a tensor:
                                 "InputTensor,FilterTensor,BiasTensor" */
    const char *outputs;      /* the same for outputs: "OutputTensor"; a field ending in '*' takes
                                 that input and every later one (an array field: "InputTensors*") */
    const char *source;       /* "DmlOperatorConvolution.cpp:NN", or FILE:CLASS where the line was
                                 not counted */
    const char *condition;    /* when the row applies, where the provider picks between rows
                                 (MaxPool: MAX_POOLING or MAX_POOLING2): "no Indices output and
                                 every dilation 1"; NULL where it does not pick */
};

/* The rows for ONNX operator OP (as dmlt_dml_mapping.onnx_op names it):
 * the first, with *count set to how many follow it for OP (0 and NULL when
 * none). */
const struct dmlt_dml_mapping *dmlt_dml_mapping_find(const char *onnx_op, unsigned *count);

/* The newest feature level the tables hold (the default of --feature-level). */
unsigned dmlt_dml_newest_level(void);

/* Parse "5_1", "5.1", "DML_FEATURE_LEVEL_5_1" into 0x5100; 0 when not a level. */
/* A level's two numbers, for "%u_%u" (0x5100: 5 and 1). */
#define DMLT_DML_LEVEL_MAJOR(l) (((unsigned)(l) >> 12) & 0xfu)
#define DMLT_DML_LEVEL_MINOR(l) (((unsigned)(l) >> 8) & 0xfu)
unsigned dmlt_dml_level_parse(const char *text);

/* The revision of the documentation the tables were generated from. */
const char *dmlt_dml_tables_source(void);

/* How many operators the tables hold, and the I-th of them (sorted by
 * name; NULL past the end): for listing and suggesting names. */
unsigned dmlt_dml_operator_total(void);
const struct dmlt_dml_operator *dmlt_dml_operator_at(unsigned i);

/* 1 when LEVEL (0xMm00) is one of DML_FEATURE_LEVEL's values (1_0, 2_0,
 * 2_1, 3_0, 3_1, 4_0, 4_1, 5_0, 5_1, 5_2, 6_0 .. 6_4), else 0. */
int dmlt_dml_level_known(unsigned level);

#ifdef __cplusplus
}
#endif

#endif
