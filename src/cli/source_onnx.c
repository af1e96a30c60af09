/* source_onnx.c - descriptors from an ONNX model's tensors (see
 * source_onnx.h). ONNX's dims are int64: each is checked here, exactly,
 * before it becomes a --sizes text, so that an error says which dim of
 * which tensor and why in ONNX's terms; the rest (the element count, the
 * total size within 2^32-1 elements) is validate's, as for any tensor. */
#include "source_onnx.h"
#include "parse.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void onnx_options_free(struct onnx_options *o)
{
    free(o->dims);
    o->dims = NULL;
    o->n_dims = 0;
}

bool onnx_options_read(const struct cli_config *cfg, struct onnx_options *o, struct cli_error *e)
{
    memset(o, 0, sizeof *o);
    if (cfg->n_dims && (o->dims = calloc(cfg->n_dims, sizeof *o->dims)) == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    for (unsigned i = 0; i < cfg->n_dims; i++) {
        const char *text = cfg->dims[i];
        const char *eq = strchr(text, '=');
        if (eq == NULL || eq == text) {
            cli_fail(e, CLI_E_BAD_DIMENSION, "--dim", text,
                     eq ? "no name before =" : "expected NAME=VALUE");
            cli_hint(e, "--dim batch=8 binds the symbolic dim \"batch\" to 8");
            return false;
        }
        uint64_t v;
        if (!parse_uint(eq + 1, strlen(eq + 1), 1, UINT32_MAX, &v, e, "--dim", text, NULL, "sizes"))
            return false;
        const size_t len = (size_t)(eq - text);
        for (unsigned k = 0; k < o->n_dims; k++)
            if (o->dims[k].len == len && memcmp(o->dims[k].name, text, len) == 0)
                return cli_fail(e, CLI_E_DUPLICATE_OPTION, "--dim", text,
                                "binds \"%.*s\" a second time", (int)(len < 100 ? len : 100), text);
        o->dims[o->n_dims].name = text;
        o->dims[o->n_dims].len = len;
        o->dims[o->n_dims].value = v;
        o->n_dims++;
    }
    if (cfg->t.rank) {
        uint64_t r;
        if (!parse_uint(cfg->t.rank, strlen(cfg->t.rank), 1, DMLT_MAX_RANK, &r, e, "--rank",
                        cfg->t.rank, NULL, "ranks"))
            return false;
        o->rank = cfg->t.rank;
        o->rank_value = (unsigned)r;
    }
    if (cfg->t.layout) {
        /* Checked against some rank it names: each tensor then takes it
         * where it fits. */
        unsigned order[DMLT_MAX_RANK];
        bool fits = false;
        for (unsigned r = 1; r <= DMLT_MAX_RANK && !fits; r++)
            fits = dmlt_layout_parse(cfg->t.layout, strlen(cfg->t.layout), r, order) == DMLT_OK;
        if (!fits) {
            cli_fail(e, CLI_E_BAD_LAYOUT, "--layout", cfg->t.layout, "not a layout of any rank");
            cli_hint(e, "nchw, nhwc, ncdhw, ndhwc, row-major, col-major, or a permutation of a "
                        "rank's letters");
            return false;
        }
        o->layout = cfg->t.layout;
    }
    return true;
}

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

/* A symbol from the model in a message: at most 60 bytes of it. */
static int shown(size_t n)
{
    return (int)(n < 60 ? n : 60);
}

static bool put_u64_text(struct descriptor *d, uint64_t v, struct cli_error *e)
{
    char buf[24];
    char *end = put_u64(buf, v);
    return descriptor_text_put(d, buf, (size_t)(end - buf), "sizes", e);
}

bool descriptor_from_onnx(const struct onnx_tensor *t, struct onnx_options *o, struct descriptor *d,
                          struct onnx_facts *facts, struct cli_error *e)
{
    descriptor_reset(d, DESC_SCAN);
    memset(facts, 0, sizeof *facts);
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
        cli_fail(e, CLI_E_TYPE_UNKNOWN, NULL, NULL, "the model gives no type for this value");
        return false;
    case ONNX_V_OTHER_TYPE:
        cli_fail(e, CLI_E_TYPE_UNKNOWN, NULL, NULL,
                 "a type this reader does not know (no tensor_type, sequence_type, map_type, "
                 "optional_type or sparse_tensor_type)");
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

    /* The dims, each checked; every unbound symbol is named at once. */
    uint64_t sizes[DMLT_MAX_RANK];
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
            unsigned k = 0;
            while (k < o->n_dims && (o->dims[k].len != dim.param.n ||
                                     memcmp(o->dims[k].name, dim.param.p, dim.param.n) != 0))
                k++;
            if (k == o->n_dims) {
                if (n_unbound++ < 4) {
                    int w = snprintf(unbound + unbound_len, sizeof unbound - unbound_len,
                                     "%s\"%.*s\"", unbound_len ? ", " : "", shown(dim.param.n),
                                     (const char *)dim.param.p);
                    if (w > 0 && (size_t)w < sizeof unbound - unbound_len)
                        unbound_len += (size_t)w;
                }
                continue;
            }
            o->dims[k].used = true;
            v = o->dims[k].value;
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
    if (rank == 0) {
        sizes[rank++] = 1;
        note(facts, "a scalar (rank 0): sizes [1]");
    }

    /* As the command line: --dtype, --sizes, --rank, --layout. */
    d->cfg.t.dtype = dtype;
    d->cfg.t.sizes = descriptor_text_begin(d);
    for (unsigned i = 0; i < rank; i++)
        if ((i && !descriptor_text_put(d, ",", 1, "sizes", e)) || !put_u64_text(d, sizes[i], e))
            return false;
    if (!descriptor_text_end(d, "sizes", e))
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
