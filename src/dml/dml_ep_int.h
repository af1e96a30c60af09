/* dml_ep_int.h - what the DML EP model's files share (dml_ep.c the
 * driver, dml_ep_kernel.c the kernel stages, dml_ep_values.c below both):
 * the values of every graph by name, and recording reasons and failures. */
#ifndef DMLT_DML_EP_INT_H
#define DMLT_DML_EP_INT_H

#include "dml_ep.h"

enum ep_value_kind { EPV_INPUT, EPV_INITIALIZER, EPV_NODE };

/* A value of one graph: a graph input, an initializer or a node output. */
struct ep_value {
    uint32_t graph;
    struct onnx_bytes name; /* name.p NULL: an empty slot */
    enum ep_value_kind kind;
    bool constant; /* an initializer ORT treats as constant (not overridable) */
    int64_t elems; /* an initializer's element count, -1 when not known */
    uint32_t node; /* EPV_NODE: its producer, an index in result->nodes */
    uint32_t output;
    bool folded;     /* EPV_NODE: computed when the session is made */
    bool cpu_arg;    /* in the CPU-preferred pass's cpu_output_args */
    unsigned copied; /* bit 0: copied to the CPU, bit 1: to DirectML (counted once) */
};

struct ep_state {
    struct dmlt_ep_result *r;
    const struct dmlt_ep_tables *tables;
    struct ep_value *vals; /* open addressing */
    size_t mask;
    bool model_has_subgraphs;
    bool oom;
};

/* dml_operators.h's lookups, the default of dmlt_ep_options.tables. */
extern const struct dmlt_ep_tables dmlt_ep__default_tables;

bool dmlt_ep__values_build(struct ep_state *st);
void dmlt_ep__values_free(struct ep_state *st);
/* The value graph g sees under that name: its own, then its ancestors'. */
struct ep_value *dmlt_ep__value_find(const struct ep_state *st, uint32_t graph,
                                     struct onnx_bytes name);
/* Graph g's own value of that name, or NULL. */
struct ep_value *dmlt_ep__value_here(const struct ep_state *st, uint32_t graph,
                                     struct onnx_bytes name);
/* The same over a table kept in a result (dmlt_ep_result.values_). */
struct ep_value *dmlt_ep__values_find(struct ep_value *vals, size_t mask,
                                      const struct onnx_model *m, uint32_t graph,
                                      struct onnx_bytes name);
struct ep_value *dmlt_ep__values_here(struct ep_value *vals, size_t mask, uint32_t graph,
                                      struct onnx_bytes name);

/* Records a reason (id an enum dmlt_ep_reason) or a note (id -1) for
 * node; false when memory ran out. */
bool dmlt_ep__reason(struct ep_state *st, uint32_t node, int id, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
bool dmlt_ep__failure(struct ep_state *st, uint32_t node, bool output, uint32_t index, int rule);

/* The inferred value of node n's input i (NULL when none: an empty name,
 * or no result) and of its output k. */
const struct onnx_infer_value *dmlt_ep__input_value(const struct ep_state *st,
                                                    const struct dmlt_ep_node *n, uint32_t i);
const struct onnx_infer_value *dmlt_ep__output_value(const struct ep_state *st,
                                                     const struct dmlt_ep_node *n, uint32_t k);
const struct onnx_node *dmlt_ep__onnx_node(const struct ep_state *st, const struct dmlt_ep_node *n);

#define ep_value_dims     dmlt_ep_value_dims
#define ep_onnx_type_name dmlt_ep_onnx_type_name
#define ep_dml_dtype      dmlt_ep_dml_dtype

/* "%.*s" arguments of a name, cut to 120 bytes. */
#define EP_NAME(b) (int)((b).n < 120 ? (b).n : 120), (const char *)(b).p

#endif
