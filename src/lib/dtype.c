/* dtype.c - DirectML data types: enum values, element sizes, names. */
#include "dmltensor.h"

#include <string.h>

static const struct dmlt_dtype_info dtypes[DMLT_DTYPE_COUNT] = {
    {DMLT_DTYPE_FLOAT32, "float32", "DML_TENSOR_DATA_TYPE_FLOAT32", 32},
    {DMLT_DTYPE_FLOAT16, "float16", "DML_TENSOR_DATA_TYPE_FLOAT16", 16},
    {DMLT_DTYPE_UINT32, "uint32", "DML_TENSOR_DATA_TYPE_UINT32", 32},
    {DMLT_DTYPE_UINT16, "uint16", "DML_TENSOR_DATA_TYPE_UINT16", 16},
    {DMLT_DTYPE_UINT8, "uint8", "DML_TENSOR_DATA_TYPE_UINT8", 8},
    {DMLT_DTYPE_INT32, "int32", "DML_TENSOR_DATA_TYPE_INT32", 32},
    {DMLT_DTYPE_INT16, "int16", "DML_TENSOR_DATA_TYPE_INT16", 16},
    {DMLT_DTYPE_INT8, "int8", "DML_TENSOR_DATA_TYPE_INT8", 8},
    {DMLT_DTYPE_FLOAT64, "float64", "DML_TENSOR_DATA_TYPE_FLOAT64", 64},
    {DMLT_DTYPE_UINT64, "uint64", "DML_TENSOR_DATA_TYPE_UINT64", 64},
    {DMLT_DTYPE_INT64, "int64", "DML_TENSOR_DATA_TYPE_INT64", 64},
    {DMLT_DTYPE_UINT4, "uint4", "DML_TENSOR_DATA_TYPE_UINT4", 4},
    {DMLT_DTYPE_INT4, "int4", "DML_TENSOR_DATA_TYPE_INT4", 4},
};

/* Aliases people type; canonical names and FLOAT16-style spellings are
 * matched from the table above. */
static const struct {
    const char *alias;
    enum dmlt_dtype dtype;
} aliases[] = {
    {"f32", DMLT_DTYPE_FLOAT32},    {"fp32", DMLT_DTYPE_FLOAT32}, {"float", DMLT_DTYPE_FLOAT32},
    {"single", DMLT_DTYPE_FLOAT32}, {"f16", DMLT_DTYPE_FLOAT16},  {"fp16", DMLT_DTYPE_FLOAT16},
    {"half", DMLT_DTYPE_FLOAT16},   {"f64", DMLT_DTYPE_FLOAT64},  {"fp64", DMLT_DTYPE_FLOAT64},
    {"double", DMLT_DTYPE_FLOAT64}, {"u8", DMLT_DTYPE_UINT8},     {"u16", DMLT_DTYPE_UINT16},
    {"u32", DMLT_DTYPE_UINT32},     {"u64", DMLT_DTYPE_UINT64},   {"i8", DMLT_DTYPE_INT8},
    {"i16", DMLT_DTYPE_INT16},      {"i32", DMLT_DTYPE_INT32},    {"i64", DMLT_DTYPE_INT64},
    {"u4", DMLT_DTYPE_UINT4},       {"i4", DMLT_DTYPE_INT4},      {"byte", DMLT_DTYPE_UINT8},
    {"int", DMLT_DTYPE_INT32},
};

const struct dmlt_dtype_info *dmlt_dtype_get(enum dmlt_dtype dtype)
{
    if ((int)dtype < 1 || (int)dtype > DMLT_DTYPE_COUNT)
        return NULL;
    return &dtypes[(int)dtype - 1];
}

static char lower(char c)
{
    /* Not ?: here, which would compute in int and narrow on return. */
    if (c >= 'A' && c <= 'Z')
        return (char)(c - 'A' + 'a');
    return c;
}

/* Case-insensitive comparison of text[0..len) with a NUL-terminated name. */
static bool equals_nocase(const char *text, size_t len, const char *name)
{
    size_t i = 0;
    for (; i < len; i++) {
        if (name[i] == '\0' || lower(text[i]) != lower(name[i]))
            return false;
    }
    return name[i] == '\0';
}

enum dmlt_status dmlt_dtype_parse(const char *text, size_t len, enum dmlt_dtype *out)
{
    static const char prefix[] = "DML_TENSOR_DATA_TYPE_";
    const size_t plen = sizeof prefix - 1;
    if (len > plen) {
        bool has_prefix = true;
        for (size_t i = 0; i < plen && has_prefix; i++)
            has_prefix = lower(text[i]) == lower(prefix[i]);
        if (has_prefix) {
            text += plen;
            len -= plen;
        }
    }
    for (size_t i = 0; i < DMLT_DTYPE_COUNT; i++) {
        if (equals_nocase(text, len, dtypes[i].name)) {
            *out = dtypes[i].dtype;
            return DMLT_OK;
        }
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (equals_nocase(text, len, aliases[i].alias)) {
            *out = aliases[i].dtype;
            return DMLT_OK;
        }
    }
    return DMLT_E_DTYPE;
}
