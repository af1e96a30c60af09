/* report.c - element counts and byte sizes of a buffer tensor (SPEC §1),
 * its properties and diagnostics. */
#include "internal.h"

#include <string.h>

enum dmlt_status dmlt_tensor_check(const struct dmlt_tensor *t, struct dmlt_error *err)
{
    err->dim = -1;
    err->value = t->rank;
    err->limit = DMLT_MAX_RANK;
    if (t->rank < 1 || t->rank > DMLT_MAX_RANK)
        return DMLT_E_RANK;
    if (dmlt_dtype_get(t->dtype) == NULL)
        return DMLT_E_DTYPE;
    for (unsigned d = 0; d < t->rank; d++) {
        if (t->sizes[d] == 0) {
            err->dim = (int)d;
            err->value = 0;
            return DMLT_E_ZERO_SIZE;
        }
    }
    return DMLT_OK;
}

bool dmlt__bytes_dword(dmlt_u128 elements, unsigned bits, dmlt_u128 *bytes)
{
    dmlt_u128 total_bits;
    if (!u128_mul(elements, bits, &total_bits))
        return false;
    dmlt_u128 b = total_bits / 8 + (total_bits % 8 != 0);
    if (b > DMLT_U128_MAX - 3)
        return false;
    *bytes = (b + 3) / 4 * 4;
    return true;
}

uint64_t dmlt_published_helper_size(const struct dmlt_tensor *t, bool *wraps)
{
    /* As published: UINT indexOfLastElement += (sizes[i]-1) * strides[i],
     * all in 32 bits, then (UINT64(index) + 1) * elementSize, rounded up
     * to 4. Unsigned arithmetic wraps modulo 2^32, as the helper's does. */
    uint32_t index32 = 0;
    dmlt_u128 exact = 0;
    for (unsigned d = 0; d < t->rank; d++) {
        index32 += (uint32_t)((t->sizes[d] - 1u) * t->strides[d]);
        exact += (dmlt_u128)(t->sizes[d] - 1u) * t->strides[d];
    }
    *wraps = exact > UINT32_MAX;
    const struct dmlt_dtype_info *info = dmlt_dtype_get(t->dtype);
    if (info == NULL || info->bits < 8)
        return 0; /* the helper's switch has no case for 4-bit types */
    uint64_t size = ((uint64_t)index32 + 1) * (info->bits / 8);
    return (size + 3) & ~(uint64_t)3;
}

static void add_diag(struct dmlt_report *r, enum dmlt_diag_id id, dmlt_u128 value)
{
    r->diags[r->diag_count].id = id;
    r->diags[r->diag_count].value = value;
    r->diag_count++;
}

enum dmlt_status dmlt_report_compute(const struct dmlt_tensor *t, const uint64_t *total,
                                     struct dmlt_report *out, struct dmlt_error *err)
{
    enum dmlt_status st = dmlt_tensor_check(t, err);
    if (st != DMLT_OK)
        return st;
    memset(out, 0, sizeof *out);
    const unsigned bits = dmlt_dtype_get(t->dtype)->bits;

    /* Element count: up to (2^32-1)^8, so it may not fit even 128 bits. */
    dmlt_u128 count = 1, last = 0, span = 1;
    for (unsigned d = 0; d < t->rank; d++) {
        if (!u128_mul(count, t->sizes[d], &count)) {
            err->dim = (int)d;
            err->value = t->sizes[d];
            return DMLT_E_RANGE;
        }
        dmlt_u128 reach = (dmlt_u128)(t->sizes[d] - 1u) * t->strides[d];
        last += reach; /* each term < 2^64, eight of them: no wrap */
        dmlt_u128 extent = (dmlt_u128)t->sizes[d] * t->strides[d];
        if (t->sizes[d] > 1 && t->strides[d] > 0 && extent > span)
            span = extent;
        out->broadcast_dims[d] = t->sizes[d] > 1 && t->strides[d] == 0;
        out->broadcast = out->broadcast || out->broadcast_dims[d];
    }
    out->element_count = count;
    out->index_of_last_element = last;
    err->dim = -1;
    err->value = count;
    if (!dmlt__bytes_dword(count, bits, &out->packed_size_bytes))
        return DMLT_E_RANGE;
    /* last + 1 and span are below 2^68: these cannot overflow. */
    dmlt__bytes_dword(last + 1, bits, &out->minimum_implied_size_bytes);
    dmlt__bytes_dword(span, bits, &out->padded_size_bytes);
    out->extent_elements = span > last + 1 ? span : last + 1;
    if (out->padded_size_bytes < out->minimum_implied_size_bytes)
        out->padded_size_bytes = out->minimum_implied_size_bytes;
    out->total_given = total != NULL;
    out->total_tensor_size_bytes = total ? *total : out->minimum_implied_size_bytes;

    out->layout_detected = dmlt_layout_detect(t->rank, t->sizes, t->strides, out->detected_order);
    /* The packed strides of a memory order number the elements 0..count-1,
     * each once: no two coordinates share an offset, and no search needed. */
    out->overlapping = out->layout_detected ? DMLT_NO : dmlt_overlapping(t, DMLT_OVERLAP_WORK_CAP);
    if (out->overlapping == DMLT_NO) {
        out->packed = last + 1 == count ? DMLT_YES : DMLT_NO;
        out->padded = last + 1 > count ? DMLT_YES : DMLT_NO;
    } else {
        out->packed = out->padded = out->overlapping == DMLT_YES ? DMLT_NO : DMLT_UNKNOWN;
    }

    bool wraps;
    uint64_t helper = dmlt_published_helper_size(t, &wraps);
    if (bits < 8)
        add_diag(out, DMLT_DIAG_HELPER_DTYPE, 0);
    else if (wraps)
        add_diag(out, DMLT_DIAG_HELPER_OVERFLOW, helper);
    if (t->rank != 4 && t->rank != 5)
        add_diag(out, DMLT_DIAG_RANK_NOT_4_OR_5, t->rank);
    if (out->overlapping == DMLT_UNKNOWN)
        add_diag(out, DMLT_DIAG_OVERLAP_UNKNOWN, DMLT_OVERLAP_WORK_CAP);
    if (total && *total < out->minimum_implied_size_bytes)
        add_diag(out, DMLT_DIAG_TOTAL_TOO_SMALL, out->minimum_implied_size_bytes);
    /* DirectML: a buffer tensor's total size cannot exceed 2^32-1 elements. */
    if ((dmlt_u128)out->total_tensor_size_bytes * 8u > (dmlt_u128)UINT32_MAX * bits)
        add_diag(out, DMLT_DIAG_OVER_UINT32_ELEMENTS, (dmlt_u128)UINT32_MAX * bits / 8u);
    return DMLT_OK;
}
