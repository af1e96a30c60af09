/* offset.c - offset of a coordinate, and the coordinates at an offset. */
#include "internal.h"

enum dmlt_status dmlt_offset(const struct dmlt_tensor *t, const uint32_t coord[], dmlt_u128 *offset,
                             struct dmlt_error *err)
{
    enum dmlt_status st = dmlt_tensor_check(t, err);
    if (st != DMLT_OK)
        return st;
    wu128 sum = w_u64(0);
    for (unsigned d = 0; d < t->rank; d++) {
        if (coord[d] >= t->sizes[d]) {
            err->dim = (int)d;
            err->value = dmlt_u128_from_u64(coord[d]);
            err->limit = dmlt_u128_from_u64(t->sizes[d]);
            return DMLT_E_COORD;
        }
        sum = w_add(sum, w_mul64(coord[d], t->strides[d])); /* < 8 x 2^64: no wrap */
    }
    *offset = w_to_pub(sum);
    return DMLT_OK;
}

enum dmlt_status dmlt_byte_offset(enum dmlt_dtype dtype, dmlt_u128 k, uint64_t base,
                                  dmlt_u128 *byte, unsigned *nibble)
{
    const struct dmlt_dtype_info *info = dmlt_dtype_get(dtype);
    if (info == NULL)
        return DMLT_E_DTYPE;
    wu128 bits, b;
    if (!w_mul_ok(w_from_pub(k), w_u64(info->bits), &bits) ||
        !w_add_ok(w_shr(bits, 3), w_u64(base), &b))
        return DMLT_E_RANGE;
    *byte = w_to_pub(b);
    *nibble = info->bits < 8 ? (unsigned)(k.lo & 1u) : 0;
    return DMLT_OK;
}

enum dmlt_status dmlt_elements_at_byte(enum dmlt_dtype dtype, dmlt_u128 b, dmlt_u128 *first,
                                       unsigned *count, unsigned *byte_in_element)
{
    const struct dmlt_dtype_info *info = dmlt_dtype_get(dtype);
    if (info == NULL)
        return DMLT_E_DTYPE;
    if (info->bits < 8) {
        wu128 f;
        if (!w_mul_ok(w_from_pub(b), w_u64(2), &f))
            return DMLT_E_RANGE;
        *first = w_to_pub(f);
        *count = 2;
        *byte_in_element = 0;
        return DMLT_OK;
    }
    uint64_t in_element;
    *first = w_to_pub(w_divmod64(w_from_pub(b), info->bits / 8, &in_element));
    *count = 1;
    *byte_in_element = (unsigned)in_element;
    return DMLT_OK;
}

struct locate_ctx {
    dmlt_coord_fn fn;
    void *ctx;
    uint64_t found;
};

static bool emit_coord(void *ctx, const int64_t x[], unsigned n)
{
    struct locate_ctx *lc = ctx;
    uint32_t coord[DMLT_MAX_RANK];
    for (unsigned d = 0; d < n; d++)
        coord[d] = (uint32_t)x[d];
    lc->found++;
    return lc->fn(lc->ctx, coord, n);
}

enum dmlt_status dmlt_locate(const struct dmlt_tensor *t, dmlt_u128 offset, unsigned long work_cap,
                             dmlt_coord_fn fn, void *ctx, uint64_t *found)
{
    struct dmlt_error err;
    *found = 0;
    enum dmlt_status st = dmlt_tensor_check(t, &err);
    if (st != DMLT_OK)
        return st;
    int64_t a[DMLT_MAX_RANK], lo[DMLT_MAX_RANK], hi[DMLT_MAX_RANK];
    wu128 last = w_u64(0);
    for (unsigned d = 0; d < t->rank; d++) {
        a[d] = t->strides[d];
        lo[d] = 0;
        hi[d] = (int64_t)t->sizes[d] - 1;
        last = w_add(last, w_mul64(t->sizes[d] - 1u, t->strides[d])); /* < 8 x 2^64 */
    }
    if (w_lt(last, w_from_pub(offset)))
        return DMLT_OK; /* past the last element: nothing maps there */
    struct locate_ctx lc = {fn, ctx, 0};
    enum dmlt__solve_result r =
        dmlt__solve(t->rank, a, lo, hi, wi_from_u(w_from_pub(offset)), work_cap, emit_coord, &lc);
    *found = lc.found;
    return r == DMLT__SOLVE_CAPPED ? DMLT_E_WORK_CAP : DMLT_OK;
}
