/* source_onnx.c - descriptors from an ONNX model's tensors (see
 * source_onnx.h). ONNX's dims are int64: each is checked here, exactly,
 * before it becomes a --sizes text, so that an error says which dim of
 * which tensor and why in ONNX's terms; the rest (the element count, the
 * total size within 2^32-1 elements) is validate's, as for any tensor. */
#include "source_onnx.h"
#include "parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ONNX's data types as DirectML's. */
static const char *directml_dtype(int32_t elem_type, bool *as_uint8)
{
    *as_uint8 = false;
    switch (elem_type) {
    case 1:
        return "float32";
    case 2:
        return "uint8";
    case 3:
        return "int8";
    case 4:
        return "uint16";
    case 5:
        return "int16";
    case 6:
        return "int32";
    case 7:
        return "int64";
    case 9:
        *as_uint8 = true;
        return "uint8";
    case 10:
        return "float16";
    case 11:
        return "float64";
    case 12:
        return "uint32";
    case 13:
        return "uint64";
    case 21:
        return "uint4";
    case 22:
        return "int4";
    default:
        return NULL;
    }
}

static void note(struct onnx_facts *f, const char *fmt, ...) DMLT_PRINTF(2, 3);

static void note(struct onnx_facts *f, const char *fmt, ...)
{
    if (f->n_notes == ONNX_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->notes[f->n_notes++], sizeof f->notes[0], fmt, ap);
    va_end(ap);
}

static bool put_u64_text(struct descriptor *d, uint64_t v, struct cli_error *e)
{
    char buf[24];
    char *end = cli_put_u64(buf, v);
    return cli_descriptor_text_put(d, buf, (size_t)(end - buf), "sizes", e);
}

/* As the command line: --dtype (set already), --sizes, --rank, --layout. */
static bool sizes_to_descriptor(const uint64_t *sizes, unsigned rank, const struct onnx_options *o,
                                struct descriptor *d, struct onnx_facts *facts, struct cli_error *e)
{
    d->cfg.t.sizes = cli_descriptor_text_begin(d);
    for (unsigned i = 0; i < rank; i++)
        if ((i && !cli_descriptor_text_put(d, ",", 1, "sizes", e)) || !put_u64_text(d, sizes[i], e))
            return false;
    if (!cli_descriptor_text_end(d, "sizes", e))
        return false;
    unsigned final_rank = rank;
    if (o->rank && o->rank_value > rank) {
        d->cfg.t.rank = o->rank;
        final_rank = o->rank_value;
    } else if (o->rank && o->rank_value < rank) {
        note(facts, "rank %u is over --rank %u: not padded", rank, o->rank_value);
    }
    if (o->layout) {
        unsigned order[DMLT_MAX_RANK];
        if (dmlt_layout_parse(o->layout, strlen(o->layout), final_rank, order) == DMLT_OK)
            d->cfg.t.layout = o->layout;
        else
            note(facts, "--layout %.60s does not fit rank %u: row-major strides", o->layout,
                 final_rank);
    }
    return true;
}

/* What the value is (a tensor, or why it is none) and its DirectML data
 * type: facts->value and facts->onnx_type, and the notes on both. */
static bool value_dtype(const struct onnx_tensor *t, struct onnx_facts *facts,
                        const char **dtype_out, struct cli_error *e)
{
    static const char *const values[] = {
        [ONNX_V_TENSOR] = "tensor",
        [ONNX_V_SPARSE_TENSOR] = "sparse_tensor",
        [ONNX_V_UNTYPED] = NULL,
        [ONNX_V_SEQUENCE] = "sequence",
        [ONNX_V_MAP] = "map",
        [ONNX_V_OPTIONAL] = "optional",
        [ONNX_V_SPARSE_TYPE] = "sparse_tensor",
        [ONNX_V_OTHER_TYPE] = NULL,
    };
    facts->value = values[t->value];
    if (t->has_elem_type && (t->value == ONNX_V_TENSOR || t->value == ONNX_V_SPARSE_TENSOR))
        facts->onnx_type = onnx_type_name(t->elem_type);

    switch (t->value) {
    case ONNX_V_TENSOR:
    case ONNX_V_SPARSE_TENSOR:
        break;
    case ONNX_V_UNTYPED:
        cli_fail(e, CLI_E_TYPE_UNKNOWN, NULL, NULL,
                 "the model declares no type for this value (ONNX allows it, as for a "
                 "subgraph's outputs: the type is left to inference)");
        return false;
    case ONNX_V_OTHER_TYPE:
        cli_fail(e, CLI_E_TYPE_UNKNOWN, NULL, NULL,
                 "the model's type for this value has none of ONNX's cases (tensor_type, "
                 "sequence_type, map_type, optional_type, sparse_tensor_type)");
        return false;
    case ONNX_V_SEQUENCE:
    case ONNX_V_MAP:
    case ONNX_V_OPTIONAL:
    case ONNX_V_SPARSE_TYPE:
        cli_fail(e, CLI_E_NOT_A_TENSOR, NULL, NULL,
                 "a%s %s, not a tensor: DirectML binds only tensors",
                 facts->value[0] == 'o' ? "n" : "", facts->value);
        return false;
    }
    bool as_uint8;
    const char *dtype = t->has_elem_type ? directml_dtype(t->elem_type, &as_uint8) : NULL;
    if (dtype == NULL) {
        if (!t->has_elem_type)
            cli_fail(e, CLI_E_DTYPE_UNSUPPORTED, NULL, NULL, "the model gives no element type");
        else if (facts->onnx_type)
            cli_fail(e, CLI_E_DTYPE_UNSUPPORTED, NULL, NULL,
                     "ONNX type %s has no DirectML data type", facts->onnx_type);
        else
            cli_fail(e, CLI_E_DTYPE_UNSUPPORTED, NULL, NULL,
                     "ONNX type %ld is not a known TensorProto.DataType", (long)t->elem_type);
        return false;
    }
    if (as_uint8)
        note(facts, "BOOL is bound as uint8 (one byte per element)");
    if (t->value == ONNX_V_SPARSE_TENSOR)
        note(facts, "sparse: these are the dense tensor's sizes; its values and indices are "
                    "stored apart");
    *dtype_out = dtype;
    return true;
}

/* The model's dims of t, each checked, into sizes[0..*rank_out); every
 * unbound symbol is named at once. */
static bool model_dims(const struct onnx_tensor *t, struct onnx_options *o,
                       uint64_t sizes[DMLT_MAX_RANK], unsigned *rank_out, struct cli_error *e)
{
    unsigned rank = 0;
    char unbound[200] = "";
    size_t unbound_len = 0;
    unsigned n_unbound = 0;
    struct onnx_dim_iter it;
    struct onnx_dim dim;
    onnx_dims_begin(t, &it);
    while (rank < DMLT_MAX_RANK && onnx_dims_next(&it, &dim)) {
        const unsigned i = rank++;
        uint64_t v = 0;
        switch (dim.kind) {
        case ONNX_DIM_UNKNOWN:
            cli_fail(e, CLI_E_DIM_UNKNOWN, NULL, NULL,
                     "dim %u is unknown (the model gives neither a value nor a symbol)", i);
            return false;
        case ONNX_DIM_PARAM: {
            struct onnx_dim_binding *b = cli_onnx_dim_bound(o, dim.param.p, dim.param.n);
            if (b == NULL) {
                if (n_unbound++ < 4) {
                    int w = snprintf(unbound + unbound_len, sizeof unbound - unbound_len,
                                     "%s\"%.*s\"", unbound_len ? ", " : "",
                                     cli_shown(dim.param.n, 60), (const char *)dim.param.p);
                    if (w > 0 && (size_t)w < sizeof unbound - unbound_len)
                        unbound_len += (size_t)w;
                }
                continue;
            }
            b->used = true;
            v = b->value;
            break;
        }
        case ONNX_DIM_VALUE:
            if (dim.value < 0) {
                cli_fail(e, CLI_E_DIM_NEGATIVE, NULL, NULL, "dim %u is %lld", i,
                         (long long)dim.value);
                return false;
            }
            v = (uint64_t)dim.value;
            break;
        }
        if (v == 0) {
            cli_fail(e, CLI_E_ZERO_SIZE, NULL, NULL,
                     "dim %u is 0: a DirectML tensor has no empty dims", i);
            return false;
        }
        if (v > UINT32_MAX) {
            cli_fail(e, CLI_E_DIM_TOO_LARGE, NULL, NULL,
                     "dim %u is %llu, over 4294967295 (DirectML's sizes are 32-bit)", i,
                     (unsigned long long)v);
            return false;
        }
        sizes[i] = v;
    }
    if (n_unbound) {
        cli_fail(e, CLI_E_DIM_UNBOUND, NULL, NULL, "symbolic dim%s %s%s unbound",
                 n_unbound > 1 ? "s" : "", unbound, n_unbound > 4 ? " and more" : "");
        cli_hint(e, "bind each with --dim NAME=VALUE");
        return false;
    }
    *rank_out = rank;
    return true;
}

bool cli_descriptor_from_onnx(const struct onnx_tensor *t, struct onnx_options *o,
                              struct descriptor *d, struct onnx_facts *facts, struct cli_error *e)
{
    cli_descriptor_reset(d, DESC_SCAN);
    memset(facts, 0, sizeof *facts);
    const char *dtype;
    if (!value_dtype(t, facts, &dtype, e))
        return false;
    d->cfg.t.dtype = dtype;
    struct onnx_shape_binding *given = t->has_name && cli_onnx_in_main_graph(t)
                                           ? cli_onnx_shape_given(o, t->name.p, t->name.n)
                                           : NULL;
    if (given) { /* checked against the model's dims already (cli_onnx_shape_check) */
        given->used = true;
        if (given->rank > DMLT_MAX_RANK) {
            cli_fail(e, CLI_E_TOO_MANY_DIMS, NULL, NULL,
                     "rank %u (--shape): a DirectML tensor has 1..%d dims", given->rank,
                     DMLT_MAX_RANK);
            return false;
        }
        note(facts, "sizes from --shape %.150s", given->text);
        return sizes_to_descriptor(given->dims, given->rank, o, d, facts, e);
    }
    if (t->form == ONNX_DIMS_NONE) {
        cli_fail(e, CLI_E_SHAPE_UNKNOWN, NULL, NULL,
                 "the model gives no shape for this value (its rank is unknown)");
        return false;
    }
    if (t->rank > DMLT_MAX_RANK) {
        cli_fail(e, CLI_E_TOO_MANY_DIMS, NULL, NULL, "rank %llu: a DirectML tensor has 1..%d dims",
                 (unsigned long long)t->rank, DMLT_MAX_RANK);
        return false;
    }

    uint64_t sizes[DMLT_MAX_RANK] = {0};
    unsigned rank = 0;
    if (!model_dims(t, o, sizes, &rank, e))
        return false;
    if (rank == 0) {
        sizes[rank++] = 1;
        note(facts, "a scalar (rank 0): sizes [1]");
    }
    return sizes_to_descriptor(sizes, rank, o, d, facts, e);
}

enum onnx_verdict cli_onnx_error_verdict(const char *id)
{
    static const struct {
        const char *id;
        enum onnx_verdict verdict;
    } table[] = {
        {"dim_unbound", ONNX_UNKNOWN},        {"dim_unknown", ONNX_UNKNOWN},
        {"shape_unknown", ONNX_UNKNOWN},      {"type_unknown", ONNX_UNKNOWN},
        {"shape_not_inferred", ONNX_UNKNOWN}, {"zero_size", ONNX_NO_CONCERN},
        {"not_a_tensor", ONNX_NO_CONCERN},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(id, table[i].id) == 0)
            return table[i].verdict;
    return ONNX_DEFINITE;
}

/* ---- inferred shapes ----------------------------------------------------- */

void cli_onnx_inferred_shape_json(struct outbuf *b, const struct onnx_infer_value *v,
                                  void (*symbol)(void *ctx, const char *name, size_t len),
                                  void *ctx)
{
    if (v->not_tensor || v->rank < 0) {
        ob_puts(b, "null");
        return;
    }
    ob_putc(b, '[');
    for (int32_t i = 0; i < v->rank; i++) {
        if (i)
            ob_putc(b, ',');
        const struct onnx_dx *d = v->dims[i];
        int64_t c;
        if (d == NULL) {
            ob_puts(b, "null");
        } else if (onnx_dx_is_const(d, &c)) {
            if (c < 0) {
                ob_putc(b, '-');
                ob_u64(b, 0 - (uint64_t)c);
            } else {
                ob_u64(b, (uint64_t)c);
            }
        } else {
            char small[256];
            const size_t n = onnx_dx_print(d, small, sizeof small);
            if (n < sizeof small) {
                cli_ob_json_str(b, small);
            } else if (n > ONNX_DX_PRINT_MAX) { /* too long to print: unknown */
                ob_puts(b, "null");
            } else {
                char *big = malloc(n + 1);
                if (big)
                    onnx_dx_print(d, big, n + 1);
                cli_ob_json_str(b, big ? big : "");
                free(big);
            }
            onnx_dx_symbols(d, symbol, ctx);
        }
    }
    ob_putc(b, ']');
}

struct unbound_text {
    char text[200];
    size_t len;
    unsigned n;
};

static void collect_unbound(void *ctx, const char *name, size_t len)
{
    struct unbound_text *u = ctx;
    if (u->n++ >= 4)
        return;
    int w = snprintf(u->text + u->len, sizeof u->text - u->len, "%s\"%.*s\"", u->len ? ", " : "",
                     cli_shown(len, 60), name);
    if (w > 0 && (size_t)w < sizeof u->text - u->len)
        u->len += (size_t)w;
}

static bool not_inferred(const struct onnx_infer_value *v, struct cli_error *e, const char *what)
{
    cli_fail(e, CLI_E_SHAPE_NOT_INFERRED, NULL, NULL, "%s not inferred: %.300s", what,
             v->reason ? v->reason : "no reason given");
    return false;
}

bool cli_descriptor_from_inferred(const struct onnx_infer_value *v, struct onnx_options *o,
                                  struct descriptor *d, struct onnx_facts *facts,
                                  struct cli_error *e)
{
    cli_descriptor_reset(d, DESC_SCAN);
    memset(facts, 0, sizeof *facts);
    facts->value = v->not_tensor ? "sequence, map or optional" : "tensor";
    if (v->not_tensor)
        return cli_fail(e, CLI_E_NOT_A_TENSOR, NULL, NULL,
                        "a sequence, map or optional, not a tensor: DirectML binds only tensors");
    if (v->elem_type == 0)
        return not_inferred(v, e, "its type");
    facts->onnx_type = onnx_type_name(v->elem_type);
    bool as_uint8;
    const char *dtype = directml_dtype(v->elem_type, &as_uint8);
    if (dtype == NULL) {
        if (facts->onnx_type)
            return cli_fail(e, CLI_E_DTYPE_UNSUPPORTED, NULL, NULL,
                            "ONNX type %s has no DirectML data type", facts->onnx_type);
        return cli_fail(e, CLI_E_DTYPE_UNSUPPORTED, NULL, NULL,
                        "ONNX type %ld is not a known TensorProto.DataType", (long)v->elem_type);
    }
    if (as_uint8)
        note(facts, "BOOL is bound as uint8 (one byte per element)");
    d->cfg.t.dtype = dtype;
    if (v->rank < 0)
        return not_inferred(v, e, "its shape");
    if (v->rank > DMLT_MAX_RANK)
        return cli_fail(e, CLI_E_TOO_MANY_DIMS, NULL, NULL,
                        "rank %ld: a DirectML tensor has 1..%d dims", (long)v->rank, DMLT_MAX_RANK);
    uint64_t sizes[DMLT_MAX_RANK] = {0};
    struct unbound_text unbound = {"", 0, 0};
    for (int32_t i = 0; i < v->rank; i++) {
        int64_t c;
        if (v->dims[i] == NULL) {
            char what[40];
            snprintf(what, sizeof what, "dim %ld", (long)i);
            return not_inferred(v, e, what);
        }
        if (!onnx_dx_is_const(v->dims[i], &c)) {
            onnx_dx_symbols(v->dims[i], collect_unbound, &unbound);
            continue;
        }
        if (c < 0)
            return cli_fail(e, CLI_E_DIM_NEGATIVE, NULL, NULL, "dim %ld is %lld", (long)i,
                            (long long)c);
        if (c == 0)
            return cli_fail(e, CLI_E_ZERO_SIZE, NULL, NULL,
                            "dim %ld is 0: a DirectML tensor has no empty dims", (long)i);
        if ((uint64_t)c > UINT32_MAX)
            return cli_fail(e, CLI_E_DIM_TOO_LARGE, NULL, NULL,
                            "dim %ld is %lld, over 4294967295 (DirectML's sizes are 32-bit)",
                            (long)i, (long long)c);
        sizes[i] = (uint64_t)c;
    }
    if (unbound.n) {
        cli_fail(e, CLI_E_DIM_UNBOUND, NULL, NULL, "symbolic dim%s %s%s unbound",
                 unbound.n > 1 ? "s" : "", unbound.text, unbound.n > 4 ? " and more" : "");
        cli_hint(e, "bind each with --dim NAME=VALUE");
        return false;
    }
    unsigned rank = (unsigned)v->rank;
    if (rank == 0) {
        sizes[rank++] = 1;
        note(facts, "a scalar (rank 0): sizes [1]");
    }
    return sizes_to_descriptor(sizes, rank, o, d, facts, e);
}
