/* offset.c - offset of a coordinate, and the coordinates at an offset. */
#include "internal.h"

enum dmlt_status dmlt_offset(const struct dmlt_tensor *t, const uint32_t coord[], dmlt_u128 *offset,
                             struct dmlt_error *err)
{
    enum dmlt_status st = dmlt_tensor_check(t, err);
    if (st != DMLT_OK)
        return st;
    dmlt_u128 sum = 0;
    for (unsigned d = 0; d < t->rank; d++) {
        if (coord[d] >= t->sizes[d]) {
            err->dim = (int)d;
            err->value = coord[d];
            err->limit = t->sizes[d];
            return DMLT_E_COORD;
        }
        sum += (dmlt_u128)coord[d] * t->strides[d]; /* < 8 x 2^64: no wrap */
    }
    *offset = sum;
    return DMLT_OK;
}

enum dmlt_status dmlt_byte_offset(enum dmlt_dtype dtype, dmlt_u128 k, uint64_t base,
                                  dmlt_u128 *byte, unsigned *nibble)
{
    const struct dmlt_dtype_info *info = dmlt_dtype_get(dtype);
    if (info == NULL)
        return DMLT_E_DTYPE;
    dmlt_u128 bits;
    if (!u128_mul(k, info->bits, &bits) || !u128_add(bits / 8, base, byte))
        return DMLT_E_RANGE;
    *nibble = info->bits < 8 ? (unsigned)(k % 2) : 0;
    return DMLT_OK;
}

enum dmlt_status dmlt_elements_at_byte(enum dmlt_dtype dtype, dmlt_u128 b, dmlt_u128 *first,
                                       unsigned *count, unsigned *byte_in_element)
{
    const struct dmlt_dtype_info *info = dmlt_dtype_get(dtype);
    if (info == NULL)
        return DMLT_E_DTYPE;
    if (info->bits < 8) {
        if (!u128_mul(b, 2, first))
            return DMLT_E_RANGE;
        *count = 2;
        *byte_in_element = 0;
        return DMLT_OK;
    }
    unsigned size = info->bits / 8;
    *first = b / size;
    *count = 1;
    *byte_in_element = (unsigned)(b % size);
    return DMLT_OK;
}

struct locate_ctx {
    dmlt_coord_fn fn;
    void *ctx;
    uint64_t found;
};

static bool emit_coord(void *ctx, const dmlt_i128 x[], unsigned n)
{
    struct locate_ctx *lc = ctx;
    uint32_t coord[DMLT_MAX_RANK];
    for (unsigned d = 0; d < n; d++)
        coord[d] = (uint32_t)x[d];
    lc->found++;
    return lc->fn(lc->ctx, coord, n);
}

/* dmlt_locate and dmlt_locate_budget: renew says whether a solution starts
 * the count of work again; *visited gets the nodes visited. */
static enum dmlt_status locate(const struct dmlt_tensor *t, dmlt_u128 offset,
                               unsigned long work_cap, bool renew, unsigned long *visited,
                               dmlt_coord_fn fn, void *ctx, uint64_t *found)
{
    struct dmlt_error err;
    *found = 0;
    *visited = 0;
    enum dmlt_status st = dmlt_tensor_check(t, &err);
    if (st != DMLT_OK)
        return st;
    dmlt_i128 a[DMLT_MAX_RANK], lo[DMLT_MAX_RANK], hi[DMLT_MAX_RANK];
    dmlt_u128 last = 0;
    for (unsigned d = 0; d < t->rank; d++) {
        a[d] = t->strides[d];
        lo[d] = 0;
        hi[d] = (dmlt_i128)t->sizes[d] - 1;
        last += (dmlt_u128)hi[d] * t->strides[d];
    }
    if (offset > last)
        return DMLT_OK; /* past the last element: nothing maps there */
    struct locate_ctx lc = {fn, ctx, 0};
    enum dmlt__solve_result r = dmlt__solve(t->rank, a, lo, hi, (dmlt_i128)offset, work_cap, renew,
                                            visited, emit_coord, &lc);
    *found = lc.found;
    return r == DMLT__SOLVE_CAPPED ? DMLT_E_WORK_CAP : DMLT_OK;
}

enum dmlt_status dmlt_locate(const struct dmlt_tensor *t, dmlt_u128 offset, unsigned long work_cap,
                             dmlt_coord_fn fn, void *ctx, uint64_t *found)
{
    unsigned long visited;
    return locate(t, offset, work_cap, true, &visited, fn, ctx, found);
}

enum dmlt_status dmlt_locate_budget(const struct dmlt_tensor *t, dmlt_u128 offset,
                                    unsigned long *budget, dmlt_coord_fn fn, void *ctx,
                                    uint64_t *found)
{
    unsigned long visited;
    enum dmlt_status st = locate(t, offset, *budget, false, &visited, fn, ctx, found);
    *budget -= visited < *budget ? visited : *budget;
    return st;
}
