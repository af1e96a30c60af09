/*
 * consumer.c - a program that uses the dmltensor library as an outside
 * project would: only the installed header and library (docs/install.md).
 * It computes the strides and the minimum implied size of
 * a float16 1x3x224x224 NHWC tensor and checks them against DirectML's
 * documented figures. Exit status 0 when they match, 1 otherwise.
 */
#include <dmltensor.h>

#include <stdio.h>
#include <string.h>

static int fail(const char *what, enum dmlt_status status)
{
    fprintf(stderr, "consumer: %s: %s\n", what, dmlt_status_name(status));
    return 1;
}

int main(void)
{
    static const char dtype_name[] = "float16";
    static const char layout_name[] = "nhwc";
    static const uint32_t want_strides[4] = {150528, 1, 672, 3};
    struct dmlt_tensor t = {.rank = 4, .sizes = {1, 3, 224, 224}};
    struct dmlt_layout_spec spec;
    struct dmlt_report report = DMLT_REPORT_INIT;
    struct dmlt_error err;
    enum dmlt_status st;

    st = dmlt_dtype_parse(dtype_name, strlen(dtype_name), &t.dtype);
    if (st != DMLT_OK)
        return fail("dmlt_dtype_parse", st);
    dmlt_layout_spec_init(&spec, t.rank);
    st = dmlt_layout_parse(layout_name, strlen(layout_name), t.rank, spec.order);
    if (st != DMLT_OK)
        return fail("dmlt_layout_parse", st);
    st = dmlt_strides_from_layout(t.dtype, t.rank, t.sizes, &spec, t.strides, &err);
    if (st != DMLT_OK)
        return fail("dmlt_strides_from_layout", st);
    st = dmlt_report_compute(&t, NULL, &report, &err);
    if (st != DMLT_OK)
        return fail("dmlt_report_compute", st);

    char bytes[DMLT_U128_DEC_SIZE];
    dmlt_u128_to_dec(report.minimum_implied_size_bytes, bytes);
    printf("%s 1,3,224,224 %s: strides %u,%u,%u,%u, minimum implied size %s bytes\n",
           dmlt_dtype_get(t.dtype)->name, layout_name, (unsigned)t.strides[0],
           (unsigned)t.strides[1], (unsigned)t.strides[2], (unsigned)t.strides[3], bytes);
    if (memcmp(t.strides, want_strides, sizeof want_strides) != 0 ||
        !dmlt_u128_eq(report.minimum_implied_size_bytes, dmlt_u128_from_u64(301056))) {
        fprintf(stderr, "consumer: expected strides 150528,1,672,3 and 301056 bytes\n");
        return 1;
    }
    return 0;
}
