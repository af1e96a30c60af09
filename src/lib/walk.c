/* walk.c - every coordinate in logical row-major order, offsets by addition. */
#include "internal.h"

#include <string.h>

static void set_bytes(struct dmlt_walk *w, wu128 offset)
{
    /* offset <= index_of_last_element < 2^67: offset x 64 + 2^64 fits. */
    w->offset = w_to_pub(offset);
    if (w->bits_ < 8) {
        w->byte_offset = w_to_pub(w_add64(w_shr(offset, 1), w->base_));
        w->nibble = (unsigned)(w_low(offset) & 1u);
    } else {
        w->byte_offset = w_to_pub(w_add64(w_mul_lo(offset, w->bits_ / 8u), w->base_));
    }
}

enum dmlt_status dmlt_walk_start(struct dmlt_walk *w, const struct dmlt_tensor *t,
                                 uint64_t base_offset_bytes)
{
    /* The first version of the struct ends with base_ (see the header). */
    const size_t size = w->size;
    if (size < offsetof(struct dmlt_walk, base_) + sizeof w->base_)
        return DMLT_E_INVALID;
    struct dmlt_error err;
    enum dmlt_status st = dmlt_tensor_check(t, &err);
    if (st != DMLT_OK)
        return st;
    memset(w, 0, size < sizeof *w ? size : sizeof *w);
    w->size = size;
    w->t_ = *t;
    w->bits_ = dmlt_dtype_get(t->dtype)->bits;
    w->base_ = base_offset_bytes;
    w->changed = 0;
    set_bytes(w, w_u64(0));
    return DMLT_OK;
}

bool dmlt_walk_next(struct dmlt_walk *w)
{
    const struct dmlt_tensor *t = &w->t_;
    wu128 offset = w_from_pub(w->offset);
    unsigned d = t->rank;
    while (d-- > 0) {
        if (w->coord[d] + 1u < t->sizes[d]) {
            w->coord[d]++;
            w->changed = d;
            set_bytes(w, w_add64(offset, t->strides[d]));
            return true;
        }
        /* This dim wraps to 0; carry into the next-outer one. */
        offset = w_sub(offset, w_mul64(w->coord[d], t->strides[d]));
        w->coord[d] = 0;
    }
    /* Past the last coordinate: put it back. */
    for (d = 0; d < t->rank; d++) {
        w->coord[d] = t->sizes[d] - 1u;
        offset = w_add(offset, w_mul64(w->coord[d], t->strides[d]));
    }
    set_bytes(w, offset);
    return false;
}
