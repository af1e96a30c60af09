/* validate.c - the rules a DML_BUFFER_TENSOR_DESC must follow, one check
 * each, from DirectML's documentation of the structure. */
#include "internal.h"

#include <string.h>

const char *dmlt_check_id_name(enum dmlt_check_id id)
{
    switch (id) {
#define DMLT_X_CASE(name, value, text, level, rule)                                                \
    case name:                                                                                     \
        return text;
        DMLT_CHECK_LIST(DMLT_X_CASE)
#undef DMLT_X_CASE
    case DMLT_CHECK_COUNT:
        break;
    }
    return "unknown";
}

enum dmlt_severity dmlt_check_level(enum dmlt_check_id id)
{
    /* A table, not a switch whose cases would repeat the same few values. */
    static const enum dmlt_severity level[DMLT_CHECK_COUNT] = {
#define DMLT_X_LEVEL(name, value, text, lvl, rule) [name] = (lvl),
        DMLT_CHECK_LIST(DMLT_X_LEVEL)
#undef DMLT_X_LEVEL
    };
    return (unsigned)id < DMLT_CHECK_COUNT ? level[id] : DMLT_INFO;
}

const char *dmlt_check_rule(enum dmlt_check_id id)
{
    switch (id) {
#define DMLT_X_CASE(name, value, text, level, rule)                                                \
    case name:                                                                                     \
        return rule;
        DMLT_CHECK_LIST(DMLT_X_CASE)
#undef DMLT_X_CASE
    case DMLT_CHECK_COUNT:
        break;
    }
    return "";
}

static void set(struct dmlt_check out[], enum dmlt_check_id id, bool passed, wu128 value,
                wu128 limit)
{
    out[id].id = id;
    out[id].passed = passed;
    out[id].skipped = false;
    out[id].value = w_to_pub(value);
    out[id].limit = w_to_pub(limit);
}

static void set64(struct dmlt_check out[], enum dmlt_check_id id, bool passed, uint64_t value,
                  uint64_t limit)
{
    set(out, id, passed, w_u64(value), w_u64(limit));
}

static bool is_pow2(uint64_t v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* Every check into out[DMLT_CHECK_COUNT]. */
static void validate_all(const struct dmlt_desc *d, unsigned strides_count,
                         struct dmlt_check out[DMLT_CHECK_COUNT])
{
    const struct dmlt_tensor *t = &d->t;
    const struct dmlt_dtype_info *info = dmlt_dtype_get(t->dtype);
    const unsigned bits = info ? info->bits : 8;
    /* The element size in whole bytes; 1 for 4-bit types (see the header). */
    const unsigned elem_bytes = bits < 8 ? 1 : bits / 8;

    memset(out, 0, DMLT_CHECK_COUNT * sizeof out[0]);
    bool rank_ok = t->rank >= 1 && t->rank <= DMLT_MAX_RANK;
    set64(out, DMLT_CHECK_RANK, rank_ok, t->rank, DMLT_MAX_RANK);
    unsigned zero_dim = DMLT_MAX_RANK;
    for (unsigned i = 0; rank_ok && i < t->rank; i++)
        if (t->sizes[i] == 0 && zero_dim == DMLT_MAX_RANK)
            zero_dim = i;
    set64(out, DMLT_CHECK_SIZES_NONZERO, zero_dim == DMLT_MAX_RANK, zero_dim, 0);
    set64(out, DMLT_CHECK_STRIDES_COUNT, strides_count == 0 || strides_count == t->rank,
          strides_count, t->rank);

    struct dmlt_report r;
    r.size = sizeof r;
    struct dmlt_error err;
    bool measured = rank_ok && zero_dim == DMLT_MAX_RANK && info &&
                    dmlt_report_compute(t, NULL, &r, &err) == DMLT_OK;
    wu128 minimum = measured ? w_from_pub(r.minimum_implied_size_bytes) : w_max();
    wu128 total = d->has_total ? w_u64(d->total_tensor_size_bytes) : minimum;
    set(out, DMLT_CHECK_TOTAL_MINIMUM, measured && w_le(minimum, total), total, minimum);
    set(out, DMLT_CHECK_TOTAL_DWORD, (w_low(total) & 3u) == 0, total, w_u64(4));
    /* total x 8 <= (2^32-1) x bits: compare in bits, exactly. */
    uint64_t max_bytes = (uint64_t)UINT32_MAX * bits / 8;
    set(out, DMLT_CHECK_TOTAL_ELEMENTS,
        w_fits_u64(total) && w_le(w_mul64(w_low(total), 8), w_mul64(UINT32_MAX, bits)), total,
        w_u64(max_bytes));

    uint32_t align = d->guaranteed_base_offset_alignment;
    set64(out, DMLT_CHECK_ALIGNMENT_POW2, align == 0 || (is_pow2(align) && align >= elem_bytes),
          align, elem_bytes);
    set64(out, DMLT_CHECK_BASE_OFFSET_16, d->base_offset_bytes % 16 == 0, d->base_offset_bytes, 16);
    set64(out, DMLT_CHECK_BASE_OFFSET_ALIGNMENT, align == 0 || d->base_offset_bytes % align == 0,
          d->base_offset_bytes, align);
    set64(out, DMLT_CHECK_FLAGS, (d->flags & ~DMLT_FLAG_OWNED_BY_DML) == 0, d->flags,
          DMLT_FLAG_OWNED_BY_DML);

    set64(out, DMLT_CHECK_RANK_4_OR_5, t->rank == 4 || t->rank == 5, t->rank, 0);
    set64(out, DMLT_CHECK_ALIGNMENT_32, align >= 32, align, 32);
    bool wraps = false;
    uint64_t helper = measured ? dmlt_published_helper_size(t, &wraps) : 0;
    /* The helper is wrong when it wraps, and for 4-bit types (it returns 0). */
    set(out, DMLT_CHECK_HELPER, !wraps && bits >= 8, w_u64(helper),
        w_eq(minimum, w_max()) ? w_u64(0) : minimum);

    /* The binding (DML_BUFFER_BINDING). A size not given passes as not
     * applicable; without SizeInBytes the range checked against the
     * buffer is TotalTensorSizeInBytes, the least any binding must hold.
     * Offset + SizeInBytes can pass 2^64: summed in 128 bits, compared
     * exactly (a total that cannot be measured is w_max() and fails). */
    set(out, DMLT_CHECK_BINDING_SIZE,
        !d->has_binding_size || w_le(total, w_u64(d->binding_size_bytes)),
        w_u64(d->has_binding_size ? d->binding_size_bytes : 0), total);
    out[DMLT_CHECK_BINDING_SIZE].skipped = !d->has_binding_size;
    wu128 range = d->has_binding_size ? w_u64(d->binding_size_bytes) : total;
    wu128 end;
    bool end_fits = w_add_ok(w_u64(d->base_offset_bytes), range, &end);
    if (!end_fits)
        end = w_max();
    set(out, DMLT_CHECK_BINDING_IN_BUFFER,
        !d->has_buffer_size || (end_fits && w_le(end, w_u64(d->buffer_size_bytes))), end,
        w_u64(d->has_buffer_size ? d->buffer_size_bytes : 0));
    out[DMLT_CHECK_BINDING_IN_BUFFER].skipped = !d->has_buffer_size;

    /* Overlap outside broadcast dims: exact, or skipped past the work cap.
     * value 1 for an overlap, limit the work cap.
     * Without broadcast it is the report's own answer. */
    enum dmlt_tristate overlap = DMLT_UNKNOWN;
    if (measured)
        overlap = r.broadcast ? dmlt__overlapping_outside_broadcast(t, DMLT_OVERLAP_WORK_CAP)
                              : r.overlapping;
    set64(out, DMLT_CHECK_STRIDES_OVERLAP, overlap != DMLT_YES, overlap == DMLT_YES,
          DMLT_OVERLAP_WORK_CAP);
    out[DMLT_CHECK_STRIDES_OVERLAP].skipped = overlap == DMLT_UNKNOWN;
}

bool dmlt_validate(const struct dmlt_desc *d, unsigned strides_count, struct dmlt_check out[],
                   size_t out_count)
{
    struct dmlt_check all[DMLT_CHECK_COUNT];
    validate_all(d, strides_count, all);
    bool valid = true;
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++)
        if (!all[i].passed && dmlt_check_level((enum dmlt_check_id)i) == DMLT_ERROR)
            valid = false;
    if (out != NULL)
        memcpy(out, all,
               (out_count < DMLT_CHECK_COUNT ? out_count : DMLT_CHECK_COUNT) * sizeof all[0]);
    return valid;
}
