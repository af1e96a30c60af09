/* report.c - element counts and byte sizes of a buffer tensor (docs/concepts.md),
 * its properties and diagnostics. */
#include "internal.h"

#include <string.h>

enum dmlt_status dmlt_tensor_check(const struct dmlt_tensor *t, struct dmlt_error *err)
{
    err->dim = -1;
    err->value = dmlt_u128_from_u64(t->rank);
    err->limit = dmlt_u128_from_u64(DMLT_MAX_RANK);
    if (t->rank < 1 || t->rank > DMLT_MAX_RANK)
        return DMLT_E_RANK;
    if (dmlt_dtype_get(t->dtype) == NULL)
        return DMLT_E_DTYPE;
    for (unsigned d = 0; d < t->rank; d++) {
        if (t->sizes[d] == 0) {
            err->dim = (int)d;
            err->value = dmlt_u128_from_u64(0);
            return DMLT_E_ZERO_SIZE;
        }
    }
    return DMLT_OK;
}

bool dmlt__bytes_dword(wu128 elements, unsigned bits, wu128 *bytes)
{
    wu128 total_bits;
    if (!w_mul_ok(elements, w_u64(bits), &total_bits))
        return false;
    /* ceil(total_bits / 32) x 4: at most 2^125 x 4, so no wrap. */
    wu128 dwords = w_add64(w_shr(total_bits, 5), (w_low(total_bits) & 31u) != 0);
    *bytes = w_mul_lo(dwords, 4);
    return true;
}

uint64_t dmlt_published_helper_size(const struct dmlt_tensor *t, bool *wraps)
{
    /* As published: UINT indexOfLastElement += (sizes[i]-1) * strides[i],
     * all in 32 bits, then (UINT64(index) + 1) * elementSize, rounded up
     * to 4. Unsigned arithmetic wraps modulo 2^32, as the helper's does. */
    uint32_t index32 = 0;
    wu128 exact = w_u64(0);
    for (unsigned d = 0; d < t->rank; d++) {
        index32 += (uint32_t)((t->sizes[d] - 1u) * t->strides[d]);
        exact = w_add(exact, w_mul64(t->sizes[d] - 1u, t->strides[d]));
    }
    *wraps = w_lt(w_u64(UINT32_MAX), exact);
    const struct dmlt_dtype_info *info = dmlt_dtype_get(t->dtype);
    if (info == NULL || info->bits < 8)
        return 0; /* the helper's switch has no case for 4-bit types */
    uint64_t size = ((uint64_t)index32 + 1) * (info->bits / 8);
    return (size + 3) & ~(uint64_t)3;
}

_Static_assert(DMLT_DIAG_COUNT <= DMLT_DIAG_CAPACITY, "a report has room for every diagnostic");

static void add_diag(struct dmlt_report *r, enum dmlt_diag_id id, wu128 value)
{
    r->diags[r->diag_count].id = id;
    r->diags[r->diag_count].value = w_to_pub(value);
    r->diag_count++;
}

static enum dmlt_status compute(const struct dmlt_tensor *t, const uint64_t *total,
                                struct dmlt_report *out, struct dmlt_error *err);

enum dmlt_status dmlt_report_compute(const struct dmlt_tensor *t, const uint64_t *total,
                                     struct dmlt_report *out, struct dmlt_error *err)
{
    const size_t size = out->size;
    if (size == 0) {
        err->dim = -1;
        err->value = err->limit = dmlt_u128_from_u64(0);
        return DMLT_E_INVALID;
    }
    if (size >= sizeof *out) { /* this version's struct, or a later one */
        enum dmlt_status st = compute(t, total, out, err);
        out->size = size;
        return st;
    }
    /* An older, smaller struct: its prefix, and only the diagnostics that
     * fit in it entirely. */
    struct dmlt_report full;
    enum dmlt_status st = compute(t, total, &full, err);
    if (st != DMLT_OK)
        return st;
    const size_t diags_at = offsetof(struct dmlt_report, diags);
    size_t fit = size > diags_at ? (size - diags_at) / sizeof full.diags[0] : 0;
    if (full.diag_count > fit)
        full.diag_count = (unsigned)fit;
    full.size = size;
    memcpy(out, &full, size);
    return DMLT_OK;
}

static enum dmlt_status compute(const struct dmlt_tensor *t, const uint64_t *total,
                                struct dmlt_report *out, struct dmlt_error *err)
{
    enum dmlt_status st = dmlt_tensor_check(t, err);
    if (st != DMLT_OK)
        return st;
    memset(out, 0, sizeof *out); /* the caller puts size back */
    const unsigned bits = dmlt_dtype_get(t->dtype)->bits;

    /* Element count: up to (2^32-1)^8, so it may not fit even 128 bits. */
    wu128 count = w_u64(1), last = w_u64(0), span = w_u64(1);
    for (unsigned d = 0; d < t->rank; d++) {
        if (!w_mul_ok(count, w_u64(t->sizes[d]), &count)) {
            err->dim = (int)d;
            err->value = dmlt_u128_from_u64(t->sizes[d]);
            return DMLT_E_RANGE;
        }
        /* each term < 2^64, eight of them: no wrap */
        last = w_add(last, w_mul64(t->sizes[d] - 1u, t->strides[d]));
        wu128 extent = w_mul64(t->sizes[d], t->strides[d]);
        if (t->sizes[d] > 1 && t->strides[d] > 0 && w_lt(span, extent))
            span = extent;
        out->broadcast_dims[d] = t->sizes[d] > 1 && t->strides[d] == 0;
        out->broadcast = out->broadcast || out->broadcast_dims[d];
    }
    out->element_count = w_to_pub(count);
    out->index_of_last_element = w_to_pub(last);
    err->dim = -1;
    err->value = w_to_pub(count);
    wu128 packed, minimum = w_u64(0), padded = w_u64(0);
    if (!dmlt__bytes_dword(count, bits, &packed))
        return DMLT_E_RANGE;
    /* last + 1 and span are below 2^68: these cannot overflow. */
    const wu128 end = w_add64(last, 1);
    dmlt__bytes_dword(end, bits, &minimum);
    dmlt__bytes_dword(span, bits, &padded);
    out->extent_elements = w_to_pub(w_lt(end, span) ? span : end);
    if (w_lt(padded, minimum))
        padded = minimum;
    const wu128 total_bytes = total ? w_u64(*total) : minimum;
    out->packed_size_bytes = w_to_pub(packed);
    out->minimum_implied_size_bytes = w_to_pub(minimum);
    out->padded_size_bytes = w_to_pub(padded);
    out->total_given = total != NULL;
    out->total_tensor_size_bytes = w_to_pub(total_bytes);

    out->layout_detected = dmlt_layout_detect(t->rank, t->sizes, t->strides, out->detected_order);
    /* The packed strides of a memory order number the elements 0..count-1,
     * each once: no two coordinates share an offset, and no search needed. */
    out->overlapping = out->layout_detected ? DMLT_NO : dmlt_overlapping(t, DMLT_OVERLAP_WORK_CAP);
    if (out->overlapping == DMLT_NO) {
        out->packed = w_eq(end, count) ? DMLT_YES : DMLT_NO;
        out->padded = w_lt(count, end) ? DMLT_YES : DMLT_NO;
    } else {
        out->packed = out->padded = out->overlapping == DMLT_YES ? DMLT_NO : DMLT_UNKNOWN;
    }

    bool wraps;
    uint64_t helper = dmlt_published_helper_size(t, &wraps);
    if (bits < 8)
        add_diag(out, DMLT_DIAG_HELPER_DTYPE, w_u64(0));
    else if (wraps)
        add_diag(out, DMLT_DIAG_HELPER_OVERFLOW, w_u64(helper));
    if (t->rank != 4 && t->rank != 5)
        add_diag(out, DMLT_DIAG_RANK_NOT_4_OR_5, w_u64(t->rank));
    if (out->overlapping == DMLT_UNKNOWN)
        add_diag(out, DMLT_DIAG_OVERLAP_UNKNOWN, w_u64(DMLT_OVERLAP_WORK_CAP));
    if (total && w_lt(w_u64(*total), minimum))
        add_diag(out, DMLT_DIAG_TOTAL_TOO_SMALL, minimum);
    /* DirectML: a buffer tensor's total size cannot exceed 2^32-1 elements.
     * total x 8 > (2^32-1) x bits, in bits: total < 2^71, so no wrap. */
    if (w_lt(w_mul64(UINT32_MAX, bits), w_mul_lo(total_bytes, 8)))
        add_diag(out, DMLT_DIAG_OVER_UINT32_ELEMENTS, w_u64((uint64_t)UINT32_MAX * bits / 8u));
    return DMLT_OK;
}
