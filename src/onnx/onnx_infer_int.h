/* onnx_infer_int.h - what the inference's files share: a value's record,
 * the run's state, a node's context and the helpers the operator families
 * (onnx_infer_ops.c, onnx_infer_shape.c) are written with. */
#ifndef DMLT_ONNX_INFER_INT_H
#define DMLT_ONNX_INFER_INT_H

#include "onnx_infer.h"

/* TensorProto.DataType values the families name. */
enum {
    DT_FLOAT = 1,
    DT_UINT8 = 2,
    DT_INT8 = 3,
    DT_INT16 = 5,
    DT_INT32 = 6,
    DT_INT64 = 7,
    DT_STRING = 8,
    DT_BOOL = 9,
    DT_UINT64 = 13,
    DT_MAX_KNOWN = 23
};

/* A value: its public record, and its propagated elements (row-major,
 * each an expression or NULL when that element is unknown). */
struct ival {
    struct onnx_infer_value pub;
    int32_t n_vals; /* -1: no values */
    const struct onnx_dx **vals;
    /* A sequence's or optional's (pub.not_tensor) element: the type and
     * shape every element has, dims that differ unknown; NULL when
     * unknown. Made by onnx__elem_copy and never changed after. */
    const struct ival *elem;
    bool has_len; /* a sequence of seq_len elements */
    uint32_t seq_len;
    /* A small FLOAT initializer's or Constant's values (Resize's scales),
     * n_fvals of them; NULL when unknown. */
    const float *fvals;
    uint32_t n_fvals;
};

struct namemap {
    struct nm_slot {
        const uint8_t *p;
        size_t n;
        void *v;
    } * slot;
    uint32_t cap, count;
};

struct gstate {
    struct namemap map;  /* name -> struct ival *, this graph's own values */
    struct namemap decl; /* name -> const struct onnx_type *, outputs and value_info */
    uint32_t *base;      /* per node, its first output's index in outs */
    struct ival *outs;
    uint32_t n_outs;
    bool visited;
    struct onnx_order ord; /* the order its nodes run in */
};

struct op_entry;

struct infer_chunk {
    struct infer_chunk *next;
    size_t used, cap;
    max_align_t data[];
};

struct onnx_infer {
    const struct onnx_model *model;
    struct onnx_dx_ctx *dx;
    int64_t opset;
    size_t cap, bytes;
    bool out_of_memory;
    bool malloc_failed; /* the system said no (not the cap): the run fails */
    struct infer_chunk *chunks;
    struct gstate *gs;
    struct namemap binding; /* --dim: name -> int64_t * */
    struct namemap shapes;  /* --shape: name -> const struct onnx_infer_shape * */
    struct namemap ops;     /* op_type -> const struct op_entry * */
    struct onnx_infer_mismatch *mismatch;
    size_t n_mismatch, cap_mismatch;
    struct onnx_bytes *symbols;
    size_t n_symbols, cap_symbols;
    struct namemap symbol_names;  /* the symbols made so far */
    struct namemap model_symbols; /* every dim_param the model declares, bound or not */
    uint64_t work;                /* node visits left */
    size_t contradictions;        /* onnx__invalid() calls */
    /* The driver's graph inference, handed to the operators with subgraphs
     * (If, Loop, Scan: onnx_infer_graph.c) so that they do not call up
     * into the driver: graph g, its inputs given (a subgraph's, n of
     * them) or declared. */
    void (*infer_graph)(struct onnx_infer *in, const struct onnx_graph *g,
                        const struct ival *const *inputs, uint32_t n, uint32_t depth);
};

/* A node being inferred. */
struct nctx {
    struct onnx_infer *in;
    const struct onnx_node *node;
    const struct op_entry *op;
    int64_t opset;
    uint32_t graph, depth;
    uint32_t n_in, n_out;
    const struct ival **inv; /* n_in, NULL for an absent input */
    struct ival *out;        /* n_out */
    const char *why;         /* set by onnx__fail() */
};

/* The expression context every family builds dims with. */
static inline struct onnx_dx_ctx *DX(struct nctx *c)
{
    return c->in->dx;
}

typedef bool (*family_fn)(struct nctx *c);

/* Output element type rules, applied before the family runs. */
enum type_rule {
    TY_IN0,
    TY_IN1,
    TY_IN2,
    TY_BOOL,
    TY_I64,
    TY_FLOAT,
    TY_U8,
    TY_ATTR_TO,    /* Cast's "to" */
    TY_ATTR_DTYPE, /* "dtype", default FLOAT */
    TY_FAMILY      /* the family sets it */
};

/* Each family's own argument: which of its operators a line of the table
 * is, an enum a family (the member of union op_arg it reads). */
enum unary_arg {
    U_PLAIN,
    U_VALUES,      /* Identity, Cast to an integer type: the values pass */
    U_NEG,         /* values negated */
    U_BOOL,        /* IsNaN, IsInf: bool of the same shape */
    U_DROPOUT,     /* a bool mask of the same shape as output 1 */
    U_DTYPE_OR_IN, /* type from "dtype", else input 0's */
    U_QUANT,       /* QuantizeLinear: input 2's type, else uint8 */
    U_DEQUANT,     /* DequantizeLinear: float (from its since: input 1's type) */
    U_DYNQUANT,    /* DynamicQuantizeLinear: y uint8, two scalars */
    U_BATCHNORM,   /* extra outputs of input 1's shape */
    U_LAYERNORM,   /* Mean, InvStdDev: the normalised axes kept as 1 */
    U_LOSS,        /* SoftmaxCrossEntropyLoss / NegativeLogLikelihoodLoss */
    U_FLOOR,       /* Floor, Ceil: float values rounded */
    U_CEIL
};
/* Broadcasting (onnx_infer_ops.c): the values computed. */
enum value_op {
    V_NONE,
    V_ADD,
    V_SUB,
    V_MUL,
    V_DIV,
    V_MOD,
    V_MAX,
    V_MIN,
    V_EQ,
    V_LT,
    V_GT,
    V_WHERE,
    V_CMP_NONE
};
/* Reductions: over axes (an attribute, from the table's since an input),
 * or ArgMax's and ArgMin's one axis. */
enum reduce_arg { R_AXES, R_ARG };
/* Convolution and pooling (onnx_infer_conv.c). */
enum conv_arg {
    C_CONV,
    C_CONV_INT,
    C_QLCONV,
    C_POOL,
    C_GLOBAL,
    C_TRANSPOSE,
    C_UNPOOL,
    C_ROIPOOL,
    C_ROIALIGN,
    C_GRIDSAMPLE
};
enum mm_arg { M_MATMUL, M_INTEGER, M_QLINEAR, M_GEMM };
/* Sequences and optionals (onnx_infer_seq.c). */
enum seq_arg {
    S_CONSTRUCT,
    S_EMPTY,
    S_INSERT,
    S_ERASE,
    S_SPLIT,
    S_OPTIONAL,
    S_AT,
    S_GET,
    S_CONCAT
};
enum squeeze_arg { SQ_SQUEEZE, SQ_UNSQUEEZE };
enum space_depth_arg { SD_DEPTH_TO_SPACE, SD_SPACE_TO_DEPTH };
enum resize_arg { RS_RESIZE, RS_UPSAMPLE };
enum gather_arg { GA_GATHER, GA_ELEMENTS };
enum data_dependent_arg { DD_NONZERO, DD_COMPRESS, DD_UNIQUE, DD_NMS };
enum generator_arg { GEN_RANDOM, GEN_MULTINOMIAL };
enum text_arg { TX_NORMALIZER, TX_TFIDF };
enum scalar_arg { SC_HAS_ELEMENT, SC_LENGTH };
enum signal_arg { SG_MEL, SG_STFT };
enum crop_arg { CR_CENTER_CROP_PAD, CR_COL2IM };
enum linalg_arg { LA_DET, LA_DFT };
/* The training operators: an optimizer's value is its number of state
 * groups (Adagrad, Momentum: 2; Adam: 3); Gradient's 0. */
enum training_arg { TR_GRADIENT = 0, TR_TWO_GROUPS = 2, TR_THREE_GROUPS = 3 };

union op_arg {
    int none; /* the families without an argument (NO_ARG) */
    enum unary_arg unary;
    enum value_op value;
    enum reduce_arg reduce;
    enum conv_arg conv;
    enum mm_arg mm;
    enum seq_arg seq;
    enum squeeze_arg squeeze;
    enum space_depth_arg space_depth;
    enum resize_arg resize;
    enum gather_arg gather;
    enum data_dependent_arg data_dependent;
    enum generator_arg generator;
    enum text_arg text;
    enum scalar_arg scalar;
    enum signal_arg signal;
    enum crop_arg crop;
    enum linalg_arg linalg;
    enum training_arg training;
};
#define NO_ARG                                                                                     \
    {                                                                                              \
        .none = 0                                                                                  \
    }

struct op_entry {
    const char *name;
    family_fn fn;
    uint8_t min_in, max_in, max_out;
    uint8_t type; /* enum type_rule */
    /* The opset from which the operator takes its later form (an input
     * where earlier versions read an attribute, numpy broadcasting, ...:
     * its family says which), 0 when the table knows one form. Families
     * ask onnx__since(c). Split's and Resize's second changes (opset 18)
     * stay in their family. */
    uint8_t since;
    union op_arg arg; /* the family's own argument: its member */
};

/* Whether the node's opset has its operator's later form (op->since). */
static inline bool onnx__since(const struct nctx *c)
{
    return c->opset >= c->op->since;
}

/* The operator table (onnx_infer_ops.c). */
extern const struct op_entry onnx__infer_ops[];
extern const size_t onnx__infer_n_ops;

/* The size of a pointer to a struct (a dim, an ival): every such pointer
 * has the size of a void * (C11 6.2.5p28 makes them all alike; on every
 * platform this builds for, void * too), and clang-tidy reads sizeof(T *)
 * of a struct as a likely mistake. */
#define PTR_BYTES sizeof(void *)
_Static_assert(sizeof(const struct onnx_dx *) == sizeof(void *), "pointer sizes");

/* ---- name maps (onnx_infer_util.c) ---- */
struct nm_slot *onnx__nm_find(const struct namemap *m, const uint8_t *p, size_t n);
void *onnx__nm_get(const struct namemap *m, const uint8_t *p, size_t n);
/* Sets name -> v (replacing); false when memory ran out. */
bool onnx__nm_put(struct onnx_infer *in, struct namemap *m, const uint8_t *p, size_t n, void *v);
void onnx__nm_clear(struct namemap *m);
bool onnx__bytes_is(struct onnx_bytes b, const char *s);

/* ---- symbols, names in scope, declarations (onnx_infer_scope.c) ---- */
/* The value named n as graph g sees it: its own, then its parents'. */
struct ival *onnx__lookup(struct onnx_infer *in, const struct onnx_graph *g, struct onnx_bytes n);
/* Declared dims fill in inferred unknown ones; a contradiction is a mismatch. */
void onnx__merge_declared(struct onnx_infer *in, uint32_t graph, struct onnx_bytes name,
                          struct ival *v, const struct onnx_type *t);
/* Records every dim_param graph g declares (inputs, outputs, value_info,
 * sequence elements), so that a fresh symbol never takes one's name;
 * false when memory ran out. */
bool onnx__reserve_symbols(struct onnx_infer *in, const struct onnx_graph *g);
/* v as its declared type t gives it (source DECLARED), or unknown with a reason. */
void onnx__from_type(struct onnx_infer *in, struct ival *v, const struct onnx_type *t);
/* --shape NAME=...: the main graph's value takes that shape. */
void onnx__apply_shape(struct onnx_infer *in, uint32_t graph, struct onnx_bytes name,
                       struct ival *v);

/* ---- values of any rank moved by Slice, Transpose, Concat, Gather
 * (onnx_infer_values.c): each sets output 0's values when every dim in
 * play is a known constant, else leaves it without ---- */
/* v's dims when each is a constant and their product <= ONNX_INFER_VALUES. */
bool onnx__value_dims(const struct ival *v, int64_t *d, int64_t *total);
/* Output element at coordinate o reads x at start[k] + o[k] * step[k]. */
void onnx__values_strided(struct nctx *c, const struct ival *x, const int64_t *start,
                          const int64_t *step);
/* Output dim k is x's dim perm[k]. */
void onnx__values_transpose(struct nctx *c, const struct ival *x, const int32_t *perm);
/* Every input, joined along axis. */
void onnx__values_concat(struct nctx *c, int32_t axis);
/* x's elements at input 1's (constant) indices along axis. */
void onnx__values_gather(struct nctx *c, const struct ival *x, int32_t axis);

/* ---- folding (onnx_fold.c) ---- */
/* Whether node's outputs are folded (SPEC section 11): computed once when
 * a runtime session is made. Its inputs are looked up in g's scope. */
bool onnx__fold_node(struct onnx_infer *in, const struct onnx_graph *g,
                     const struct onnx_node *node);

/* ---- helpers (onnx_infer_util.c) ---- */
void *onnx__infer_alloc(struct onnx_infer *in, size_t n);
bool onnx__fail(struct nctx *c, const char *why);
/* onnx__fail() for what proves the model wrong at these dims (shapes that do not
 * broadcast, concatenate or split): counted in onnx_infer_contradictions. */
bool onnx__invalid(struct nctx *c, const char *why);
/* A const pointer kept in a name map's void * slot. */
void *onnx__unconst(const void *p);
/* A reason with one name in it: "input '%s' ..." (fmt has one %s). */
bool onnx__fail_name(struct nctx *c, const char *fmt, struct onnx_bytes name);
const struct onnx_dx *onnx__K(struct nctx *c, int64_t v);
/* The product of dims[from..to), NULL when one is unknown. */
const struct onnx_dx *onnx__dims_product(struct nctx *c, const struct onnx_dx *const *d,
                                         int32_t from, int32_t to);
/* A value element read as a dim: a constant >= 0 or an expression >= 0, else NULL. */
const struct onnx_dx *onnx__as_dim(const struct onnx_dx *v);
/* Input i when present, else NULL. */
const struct ival *onnx__IN(struct nctx *c, uint32_t i);
/* Input i with a known rank, else NULL. */
const struct ival *onnx__SHAPED(struct nctx *c, uint32_t i);
/* Sets output i's shape (dims copied; NULL dims: rank r of unknown dims). */
bool onnx__set_out(struct nctx *c, uint32_t i, int32_t rank, const struct onnx_dx *const *dims);
/* Integer value v as an element of type elem_type holds it: int64 as it
 * is (the expressions' checked arithmetic: NULL past int64); a narrower
 * integer type (uint8 ... int32, uint32, int4, uint4) wraps a constant
 * modulo 2^bits into its range, as ONNX Runtime's C arithmetic does
 * (uint8 200+100 = 44), and a symbolic value is NULL (its wrap unknown);
 * uint64 keeps a constant 0..INT64_MAX; bool is 0 or 1. The one place
 * that decides values per type: onnx__set_vals applies it to every value. */
const struct onnx_dx *onnx__value_wrap_to_type(struct onnx_dx_ctx *dx, int32_t elem_type,
                                               const struct onnx_dx *v);
/* Sets output i's values (copied, each through onnx__value_wrap_to_type for
 * output i's element type), n <= ONNX_INFER_VALUES. */
bool onnx__set_vals(struct nctx *c, uint32_t i, int32_t n, const struct onnx_dx *const *vals);
/* Input i's values when they are all known constants: n of them in buf. */
bool onnx__const_ints(struct nctx *c, uint32_t i, int64_t *buf, uint32_t cap, uint32_t *n);
/* Input i's values (elements may be NULL), or false. */
bool onnx__in_vals(struct nctx *c, uint32_t i, const struct onnx_dx *const **v, int32_t *n);
/* A new symbol for a data-dependent dim of output i (onnx_infer_scope.c). */
const struct onnx_dx *onnx__fresh(struct nctx *c, uint32_t i);
/* The same for dim `dim` of output i, one of several: NAME_dim_J. */
const struct onnx_dx *onnx__fresh_dim(struct nctx *c, uint32_t i, int32_t dim);
/* The number of elements of v when every dim is a known constant. */
bool onnx__const_numel(const struct ival *v, int64_t *n);

const struct onnx_attr *onnx__attr(struct nctx *c, const char *name);
int64_t onnx__attr_i(struct nctx *c, const char *name, int64_t def);
bool onnx__attr_ints(struct nctx *c, const char *name, const int64_t **v, uint32_t *n);
bool onnx__attr_s_is(struct nctx *c, const char *name, const char *want);
/* Normalises axis a (-rank..rank-1) into [0,rank); false when outside. */
bool onnx__norm_axis(int64_t a, int32_t rank, int32_t *out);
/* Multidirectional (numpy) broadcast of n shapes into dims/rank. */
bool onnx__broadcast(struct nctx *c, const struct ival *const *v, uint32_t n,
                     const struct onnx_dx **dims, int32_t *rank);

/* The families, each in the file docs/architecture.md names for it. */
bool onnx__fam_conv(struct nctx *c);
bool onnx__fam_reshape(struct nctx *c);
bool onnx__fam_flatten(struct nctx *c);
bool onnx__fam_squeeze(struct nctx *c);
bool onnx__fam_transpose(struct nctx *c);
bool onnx__fam_concat(struct nctx *c);
bool onnx__fam_split(struct nctx *c);
bool onnx__fam_slice(struct nctx *c);
bool onnx__fam_tile(struct nctx *c);
bool onnx__fam_pad(struct nctx *c);
bool onnx__fam_shape(struct nctx *c);
bool onnx__fam_size(struct nctx *c);
bool onnx__fam_const_of_shape(struct nctx *c);
bool onnx__fam_expand(struct nctx *c);
bool onnx__fam_range(struct nctx *c);
bool onnx__fam_space_depth(struct nctx *c);
bool onnx__fam_gather(struct nctx *c);
bool onnx__fam_gather_nd(struct nctx *c);
bool onnx__fam_onehot(struct nctx *c);
bool onnx__fam_topk(struct nctx *c);
bool onnx__fam_resize(struct nctx *c);
bool onnx__fam_data_dependent(struct nctx *c);
bool onnx__fam_constant(struct nctx *c);
bool onnx__fam_generator(struct nctx *c);
bool onnx__fam_window(struct nctx *c);
bool onnx__fam_einsum(struct nctx *c);
bool onnx__fam_training(struct nctx *c);
bool onnx__fam_linalg(struct nctx *c);
bool onnx__fam_scalar(struct nctx *c);
bool onnx__fam_text(struct nctx *c);
bool onnx__fam_sequence(struct nctx *c);
/* A sequence's element (onnx_infer_seq.c): an unchanging copy of v's type
 * and shape; the element both a and b are (dims that differ unknown);
 * output i made that element (c->why set when its shape is unknown). */
const struct ival *onnx__elem_copy(struct onnx_infer *in, const struct ival *v);
const struct ival *onnx__elem_meet(struct onnx_infer *in, const struct ival *a,
                                   const struct ival *b);
bool onnx__set_from_elem(struct nctx *c, uint32_t i, const struct ival *e);
bool onnx__fam_signal(struct nctx *c);
bool onnx__fam_crop(struct nctx *c);
bool onnx__fam_rnn(struct nctx *c);
bool onnx__fam_matmul(struct nctx *c);

/* Subgraphs (onnx_infer_graph.c). */
bool onnx__fam_if(struct nctx *c);
bool onnx__fam_loop(struct nctx *c);
bool onnx__fam_scan(struct nctx *c);
bool onnx__fam_sequence_map(struct nctx *c);

#endif
