/* dml_ep_table.h - the generated tables of the DML EP model
 * (dml_ep_table.c, written by tools/gen_dml_ep_table.py from tools/data/):
 * ONNX's operator schemas and the DML EP's kernel registrations. */
#ifndef DMLT_DML_EP_TABLE_H
#define DMLT_DML_EP_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* One version of one ONNX operator (docs/Changelog.md). inputs/outputs:
 * the formal parameters' types, comma separated ("T", "tensor(int64)"),
 * '?' after an optional one, '*' after a variadic one; "-" for none. */
struct dmlt_onnx_schema {
    const char *domain; /* "" the default domain, "ai.onnx.ml" */
    const char *op;
    unsigned since;
    const char *inputs, *outputs;
};

#define DMLT_EP_MAX_LABELS 4
#define DMLT_EP_SEQUENCES  31 /* bit of dmlt_ep_reg.types: sequences of tensors allowed */

/* The support queries the registrations name (OperatorRegistration.cpp). */
enum dmlt_ep_query {
    DMLT_Q_NONE,
    DMLT_Q_MAXPOOL,
    DMLT_Q_SLICE,
    DMLT_Q_RESIZE,
    DMLT_Q_SCATTER,
    DMLT_Q_EINSUM,
    DMLT_Q_RNN,
    DMLT_Q_BATCHNORM,
    DMLT_Q_PAD,
    DMLT_Q_LAYERNORM,
    DMLT_Q_SKIPLAYERNORM,
    DMLT_Q_QLINEARSIGMOID,
    DMLT_Q_ATTENTION,
    DMLT_Q_QATTENTION,
    DMLT_Q_MATMULNBITS
};

/* One kernel registration of the DML EP. */
struct dmlt_ep_reg {
    const char *domain, *op;
    unsigned since; /* the kernel's since version (what ORT matches exactly) */
    unsigned opset; /* the macro's version argument, as the source writes it */
    unsigned n_labels;
    const char *labels[DMLT_EP_MAX_LABELS];
    uint32_t types[DMLT_EP_MAX_LABELS]; /* bit t: ONNX TensorProto.DataType t allowed */
    unsigned graph;                     /* DmlGraphSupport::Supported */
    unsigned cpu_inputs;                /* bit i: input i is a required constant CPU input */
    unsigned input_count;               /* requiredInputCountForDmlGraphSupport, 0 none */
    unsigned query;                     /* enum dmlt_ep_query */
    unsigned duplicate;   /* an earlier registration (in the source's order) has the same
                           * domain, op and since version */
    const char *macro;    /* REG_INFO, REG_INFO_VER, ..., ORT_KERNEL, FACTORY */
    const char *typelist; /* supportedTypeList<name> */
    const char *file;     /* where the registration stands at dmlt_ep_reg_source's commit: */
    unsigned line;        /* OperatorRegistration.cpp, or a factory's header (DmlDFT.h) */
};

extern const struct dmlt_onnx_schema dmlt_ep_onnx_schema_table[]; /* by domain, op, since */
extern const unsigned dmlt_ep_onnx_schema_count;
extern const char dmlt_ep_onnx_schema_revision[];
/* by domain, op, since, then the source's order */
extern const struct dmlt_ep_reg dmlt_ep_reg_table[];
/* "microsoft/onnxruntime@COMMIT OperatorRegistration.cpp": the registrations' revision */
extern const char dmlt_ep_reg_source[];
extern const unsigned dmlt_ep_reg_count;

#endif
