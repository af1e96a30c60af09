/* DirectML data types: enum values, element sizes and names. */
#include "check.h"

static enum dmlt_dtype parse(const char *s)
{
    enum dmlt_dtype d = DMLT_DTYPE_UNKNOWN;
    if (dmlt_dtype_parse(s, strlen(s), &d) != DMLT_OK)
        return DMLT_DTYPE_UNKNOWN;
    return d;
}

int main(void)
{
    /* docs/size.md: enum value and bits of each of the 13 types. */
    static const struct {
        const char *name;
        int value;
        unsigned bits;
    } expect[] = {{"float32", 1, 32}, {"float16", 2, 16}, {"uint32", 3, 32}, {"uint16", 4, 16},
                  {"uint8", 5, 8},    {"int32", 6, 32},   {"int16", 7, 16},  {"int8", 8, 8},
                  {"float64", 9, 64}, {"uint64", 10, 64}, {"int64", 11, 64}, {"uint4", 12, 4},
                  {"int4", 13, 4}};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        const struct dmlt_dtype_info *info = dmlt_dtype_get((enum dmlt_dtype)expect[i].value);
        if (!CHECK(info != NULL))
            continue;
        CHECK_STR(info->name, expect[i].name);
        CHECK_EQ(info->bits, expect[i].bits);
        CHECK_EQ(parse(expect[i].name), expect[i].value);
        /* The DirectML spelling round-trips, in any case. */
        CHECK_EQ(parse(info->dml_name), expect[i].value);
        char upper[64];
        size_t n = strlen(info->name);
        for (size_t k = 0; k <= n; k++)
            upper[k] =
                (char)((info->name[k] >= 'a' && info->name[k] <= 'z') ? info->name[k] - 'a' + 'A'
                                                                      : info->name[k]);
        CHECK_EQ(parse(upper), expect[i].value);
    }
    CHECK(dmlt_dtype_get(DMLT_DTYPE_UNKNOWN) == NULL);
    CHECK(dmlt_dtype_get((enum dmlt_dtype)14) == NULL);

    CHECK_EQ(parse("f16"), DMLT_DTYPE_FLOAT16);
    CHECK_EQ(parse("FP16"), DMLT_DTYPE_FLOAT16);
    CHECK_EQ(parse("half"), DMLT_DTYPE_FLOAT16);
    CHECK_EQ(parse("float"), DMLT_DTYPE_FLOAT32);
    CHECK_EQ(parse("double"), DMLT_DTYPE_FLOAT64);
    CHECK_EQ(parse("u8"), DMLT_DTYPE_UINT8);
    CHECK_EQ(parse("i64"), DMLT_DTYPE_INT64);
    CHECK_EQ(parse("dml_tensor_data_type_int4"), DMLT_DTYPE_INT4);

    CHECK_EQ(parse(""), DMLT_DTYPE_UNKNOWN);
    CHECK_EQ(parse("float1"), DMLT_DTYPE_UNKNOWN);
    CHECK_EQ(parse("float160"), DMLT_DTYPE_UNKNOWN);
    CHECK_EQ(parse("DML_TENSOR_DATA_TYPE_"), DMLT_DTYPE_UNKNOWN);
    CHECK_EQ(parse("bfloat16"), DMLT_DTYPE_UNKNOWN);
    /* Length-delimited: "float16" read as its first 5 bytes is "float". */
    enum dmlt_dtype d;
    CHECK(dmlt_dtype_parse("float16", 5, &d) == DMLT_OK && d == DMLT_DTYPE_FLOAT32);

    CHECK_STR(dmlt_status_name(DMLT_E_RANGE), "value out of range");
    CHECK_STR(dmlt_diag_id_name(DMLT_DIAG_HELPER_OVERFLOW), "helper_overflow");
    return check_finish("test_dtype");
}
