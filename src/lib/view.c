/* view.c - views of a tensor, as NumPy's: slicing, integer indexing,
 * transpose, broadcast_to and reshape without a copy, each a new set of
 * sizes and strides and a new offset of element 0 within the parent.
 *
 * Offsets and byte counts are uint64_t (DML_BUFFER_BINDING's Offset and
 * SizeInBytes are UINT64) with every sum and product checked. Element
 * counts can reach (2^32-1)^8, so reshape compares them as 256-bit numbers
 * (struct big below), which also maps coordinates back through a reshape. */
#include "internal.h"

#include <string.h>

enum step_kind { STEP_NARROW, STEP_SELECT, STEP_PERMUTE, STEP_BROADCAST, STEP_RESHAPE };

/* ---- 256-bit unsigned numbers, in 32-bit limbs (least significant first) */

#define BIG_LIMBS 8 /* (2^32-1)^8 < 2^256: any element count fits */

struct big {
    uint32_t limb[BIG_LIMBS];
};

static void big_set(struct big *b, uint32_t v)
{
    memset(b, 0, sizeof *b);
    b->limb[0] = v;
}

/* b = b x m + a; false when the result passes 2^256 (never for products of
 * at most eight sizes). */
static bool big_mul_add(struct big *b, uint32_t m, uint32_t a)
{
    uint64_t carry = a;
    for (unsigned i = 0; i < BIG_LIMBS; i++) {
        uint64_t x = (uint64_t)b->limb[i] * m + carry;
        b->limb[i] = (uint32_t)x;
        carry = x >> 32;
    }
    return carry == 0;
}

/* b = b / d, returning the remainder. d > 0. */
static uint32_t big_divmod(struct big *b, uint32_t d)
{
    uint64_t rem = 0;
    for (unsigned i = BIG_LIMBS; i-- > 0;) {
        uint64_t x = (rem << 32) | b->limb[i];
        b->limb[i] = (uint32_t)(x / d);
        rem = x % d;
    }
    return (uint32_t)rem;
}

static int big_cmp(const struct big *a, const struct big *b)
{
    for (unsigned i = BIG_LIMBS; i-- > 0;)
        if (a->limb[i] != b->limb[i])
            return a->limb[i] < b->limb[i] ? -1 : 1;
    return 0;
}

/* The value when it fits 32 bits. */
static bool big_u32(const struct big *b, uint32_t *out)
{
    for (unsigned i = 1; i < BIG_LIMBS; i++)
        if (b->limb[i] != 0)
            return false;
    *out = b->limb[0];
    return true;
}

/* b += v (the sum stays far below 2^256). */
static void big_add_u64(struct big *b, uint64_t v)
{
    uint64_t carry = v;
    for (unsigned i = 0; i < BIG_LIMBS && carry; i++) {
        uint64_t x = (uint64_t)b->limb[i] + (carry & UINT32_MAX);
        b->limb[i] = (uint32_t)x;
        carry = (carry >> 32) + (x >> 32);
    }
}

/* The value when it fits 64 bits. */
static bool big_u64(const struct big *b, uint64_t *out)
{
    for (unsigned i = 2; i < BIG_LIMBS; i++)
        if (b->limb[i] != 0)
            return false;
    *out = (uint64_t)b->limb[1] << 32 | b->limb[0];
    return true;
}

/* The product of n sizes. */
static bool big_product(const uint32_t sizes[], unsigned n, struct big *out)
{
    big_set(out, 1);
    for (unsigned i = 0; i < n; i++)
        if (!big_mul_add(out, sizes[i], 0))
            return false;
    return true;
}

/* ---- checked 64-bit arithmetic -------------------------------------------- */

static bool add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (b > UINT64_MAX - a)
        return false;
    *out = a + b;
    return true;
}

static bool mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

/* ---- the steps kept to map coordinates back --------------------------------- */

static struct dmlt_view_step *new_step(struct dmlt_view *v, enum step_kind kind,
                                       struct dmlt_error *err)
{
    if (v->n_steps_ >= DMLT_VIEW_MAX_STEPS) {
        err->dim = -1;
        return NULL;
    }
    struct dmlt_view_step *s = &v->steps_[v->n_steps_];
    memset(s, 0, sizeof *s);
    s->kind = (unsigned char)kind;
    s->rank_in = (unsigned char)v->t.rank;
    return s;
}

/* Maps coord (a coordinate of the view after the first n steps) back to the
 * parent's coordinate, one step at a time from the last. */
static void map_back(const struct dmlt_view *v, unsigned n, const uint32_t coord[],
                     uint32_t parent[])
{
    uint32_t x[DMLT_MAX_RANK] = {0}, y[DMLT_MAX_RANK] = {0};
    unsigned rank = n == v->n_steps_ ? v->t.rank : v->steps_[n].rank_in;
    memcpy(x, coord, rank * sizeof x[0]);
    for (unsigned i = n; i-- > 0;) {
        const struct dmlt_view_step *s = &v->steps_[i];
        switch ((enum step_kind)s->kind) {
        case STEP_NARROW:
            /* first + step x (count - 1) is below the dim's size: no wrap. */
            x[s->dim] = s->first + s->step * x[s->dim];
            break;
        case STEP_SELECT:
            for (unsigned d = rank; d > s->dim; d--)
                x[d] = x[d - 1];
            x[s->dim] = s->first;
            break;
        case STEP_PERMUTE:
            for (unsigned d = 0; d < rank; d++)
                y[s->order[d]] = x[d];
            memcpy(x, y, rank * sizeof x[0]);
            break;
        case STEP_BROADCAST: {
            unsigned lead = s->rank_out - s->rank_in;
            for (unsigned d = 0; d < s->rank_in; d++)
                y[d] = s->sizes_in[d] == 1 ? 0 : x[d + lead];
            memcpy(x, y, s->rank_in * sizeof x[0]);
            break;
        }
        case STEP_RESHAPE: {
            /* The same element in logical row-major order on both sides. */
            struct big flat;
            big_set(&flat, 0);
            for (unsigned d = 0; d < s->rank_out; d++)
                (void)big_mul_add(&flat, s->sizes_out[d], x[d]);
            for (unsigned d = s->rank_in; d-- > 0;)
                x[d] = big_divmod(&flat, s->sizes_in[d]);
            break;
        }
        }
        rank = s->rank_in;
    }
    memcpy(parent, x, rank * sizeof x[0]);
}

/* Records the step just filled in and updates the source of element 0. */
static void commit_step(struct dmlt_view *v)
{
    v->steps_[v->n_steps_].rank_out = (unsigned char)v->t.rank;
    v->n_steps_++;
    const uint32_t zero[DMLT_MAX_RANK] = {0};
    map_back(v, v->n_steps_, zero, v->source);
}

/* ---- operations ---------------------------------------------------------- */

enum dmlt_status dmlt_view_init(struct dmlt_view *v, const struct dmlt_tensor *parent,
                                struct dmlt_error *err)
{
    /* The first version of the struct ends with steps_ (see the header). */
    const size_t size = v->size;
    err->dim = -1;
    if (size < offsetof(struct dmlt_view, steps_) + sizeof v->steps_)
        return DMLT_E_INVALID;
    enum dmlt_status st = dmlt_tensor_check(parent, err);
    if (st != DMLT_OK)
        return st;
    memset(v, 0, size < sizeof *v ? size : sizeof *v);
    v->size = size;
    v->t = *parent;
    v->parent_rank = parent->rank;
    return DMLT_OK;
}

enum dmlt_status dmlt_slice_resolve(uint32_t size, const int64_t *start, const int64_t *stop,
                                    int64_t step, uint32_t *first, uint32_t *count)
{
    if (step < 1)
        return DMLT_E_INVALID;
    /* Python's slice.indices() for a positive step: negative values count
     * from the end, then both are clamped to 0..size. */
    int64_t n = size, lo = 0, hi = n;
    if (start) {
        lo = *start < 0 ? (*start < -n ? 0 : *start + n) : (*start > n ? n : *start);
    }
    if (stop) {
        hi = *stop < 0 ? (*stop < -n ? 0 : *stop + n) : (*stop > n ? n : *stop);
    }
    if (hi <= lo)
        return DMLT_E_ZERO_SIZE;
    uint64_t span = (uint64_t)(hi - lo);
    *first = (uint32_t)lo;
    *count = (uint32_t)((span - 1) / (uint64_t)step + 1);
    return DMLT_OK;
}

enum dmlt_status dmlt_view_narrow(struct dmlt_view *v, unsigned dim, uint32_t first, uint32_t count,
                                  uint32_t step, struct dmlt_error *err)
{
    err->dim = dim < DMLT_MAX_RANK ? (int)dim : -1;
    if (dim >= v->t.rank || step == 0)
        return DMLT_E_INVALID;
    if (count == 0)
        return DMLT_E_ZERO_SIZE;
    uint64_t last = first + (uint64_t)step * (count - 1);
    if (last >= v->t.sizes[dim])
        return DMLT_E_COORD;
    uint64_t stride = v->t.strides[dim], offset;
    if (count > 1 && stride * step > DMLT_MAX_STRIDE)
        return DMLT_E_RANGE;
    if (!add_u64(v->offset, stride * first, &offset))
        return DMLT_E_RANGE;
    struct dmlt_view_step *s = new_step(v, STEP_NARROW, err);
    if (s == NULL)
        return DMLT_E_RANGE;
    s->dim = (unsigned char)dim;
    s->first = first;
    s->step = step;
    v->offset = offset;
    v->t.sizes[dim] = count;
    if (count > 1)
        v->t.strides[dim] = (uint32_t)(stride * step);
    commit_step(v);
    return DMLT_OK;
}

enum dmlt_status dmlt_view_split(struct dmlt_view *v, unsigned dim, unsigned n_parts,
                                 const uint32_t part_sizes[], unsigned part, struct dmlt_error *err)
{
    err->dim = dim < DMLT_MAX_RANK ? (int)dim : -1;
    if (dim >= v->t.rank || n_parts == 0 || part >= n_parts)
        return DMLT_E_INVALID;
    const uint32_t size = v->t.sizes[dim];
    uint64_t first = 0, len;
    if (part_sizes == NULL) {
        if (size % n_parts != 0)
            return DMLT_E_INVALID;
        len = size / n_parts;
        first = len * part;
    } else {
        uint64_t sum = 0; /* n_parts sizes below 2^32: no wrap below 2^32 parts */
        for (unsigned i = 0; i < n_parts; i++) {
            if (part_sizes[i] == 0)
                return DMLT_E_ZERO_SIZE;
            if (i < part)
                first += part_sizes[i];
            sum += part_sizes[i];
        }
        if (sum != size)
            return DMLT_E_INVALID;
        len = part_sizes[part];
    }
    return dmlt_view_narrow(v, dim, (uint32_t)first, (uint32_t)len, 1, err);
}

enum dmlt_status dmlt_view_slice(struct dmlt_view *v, unsigned dim, const int64_t *start,
                                 const int64_t *stop, int64_t step, struct dmlt_error *err)
{
    err->dim = dim < DMLT_MAX_RANK ? (int)dim : -1;
    if (dim >= v->t.rank)
        return DMLT_E_INVALID;
    uint32_t first, count;
    enum dmlt_status st = dmlt_slice_resolve(v->t.sizes[dim], start, stop, step, &first, &count);
    if (st != DMLT_OK)
        return st;
    /* step fits 32 bits in effect: a step past the dim takes one element. */
    uint32_t step32 = count == 1 ? 1 : (uint32_t)step;
    return dmlt_view_narrow(v, dim, first, count, step32, err);
}

enum dmlt_status dmlt_view_select(struct dmlt_view *v, unsigned dim, int64_t index,
                                  struct dmlt_error *err)
{
    err->dim = dim < DMLT_MAX_RANK ? (int)dim : -1;
    if (dim >= v->t.rank)
        return DMLT_E_INVALID;
    int64_t n = v->t.sizes[dim];
    if (index < -n || index >= n)
        return DMLT_E_COORD;
    if (v->t.rank == 1)
        return DMLT_E_RANK;
    uint32_t at = (uint32_t)(index < 0 ? index + n : index);
    uint64_t offset;
    if (!add_u64(v->offset, (uint64_t)v->t.strides[dim] * at, &offset))
        return DMLT_E_RANGE;
    struct dmlt_view_step *s = new_step(v, STEP_SELECT, err);
    if (s == NULL)
        return DMLT_E_RANGE;
    s->dim = (unsigned char)dim;
    s->first = at;
    v->offset = offset;
    for (unsigned d = dim; d + 1 < v->t.rank; d++) {
        v->t.sizes[d] = v->t.sizes[d + 1];
        v->t.strides[d] = v->t.strides[d + 1];
    }
    v->t.rank--;
    v->t.sizes[v->t.rank] = 0;
    v->t.strides[v->t.rank] = 0;
    commit_step(v);
    return DMLT_OK;
}

enum dmlt_status dmlt_view_permute(struct dmlt_view *v, const unsigned order[],
                                   struct dmlt_error *err)
{
    err->dim = -1;
    bool seen[DMLT_MAX_RANK] = {false};
    for (unsigned i = 0; i < v->t.rank; i++) {
        if (order[i] >= v->t.rank || seen[order[i]])
            return DMLT_E_LAYOUT;
        seen[order[i]] = true;
    }
    struct dmlt_view_step *s = new_step(v, STEP_PERMUTE, err);
    if (s == NULL)
        return DMLT_E_RANGE;
    struct dmlt_tensor t = v->t;
    for (unsigned i = 0; i < v->t.rank; i++) {
        s->order[i] = (unsigned char)order[i];
        t.sizes[i] = v->t.sizes[order[i]];
        t.strides[i] = v->t.strides[order[i]];
    }
    v->t = t;
    commit_step(v);
    return DMLT_OK;
}

enum dmlt_status dmlt_view_broadcast_to(struct dmlt_view *v, unsigned rank, const uint32_t sizes[],
                                        struct dmlt_error *err)
{
    err->dim = -1;
    if (rank < v->t.rank || rank > DMLT_MAX_RANK)
        return DMLT_E_RANK;
    struct dmlt_tensor t = v->t;
    const unsigned lead = rank - v->t.rank;
    for (unsigned i = 0; i < rank; i++) {
        err->dim = (int)i;
        if (sizes[i] == 0)
            return DMLT_E_ZERO_SIZE;
        t.sizes[i] = sizes[i];
        if (i < lead) {
            t.strides[i] = 0; /* a new dim repeats the whole view */
            continue;
        }
        uint32_t was = v->t.sizes[i - lead];
        if (was == sizes[i])
            t.strides[i] = v->t.strides[i - lead];
        else if (was == 1)
            t.strides[i] = 0;
        else
            return DMLT_E_INVALID;
    }
    err->dim = -1;
    struct dmlt_view_step *s = new_step(v, STEP_BROADCAST, err);
    if (s == NULL)
        return DMLT_E_RANGE;
    memcpy(s->sizes_in, v->t.sizes, sizeof s->sizes_in);
    t.rank = rank;
    v->t = t;
    commit_step(v);
    return DMLT_OK;
}

/* The new sizes: -1 computed, each checked, the element count unchanged. */
static enum dmlt_status reshape_sizes(const struct dmlt_view *v, unsigned rank,
                                      const int64_t sizes[], uint32_t out[], struct dmlt_error *err)
{
    int infer = -1;
    for (unsigned i = 0; i < rank; i++) {
        err->dim = (int)i;
        if (sizes[i] == 0)
            return DMLT_E_ZERO_SIZE;
        if (sizes[i] < 0 && (sizes[i] != -1 || infer >= 0))
            return DMLT_E_INVALID;
        if (sizes[i] > (int64_t)DMLT_MAX_DIM_SIZE)
            return DMLT_E_RANGE;
        if (sizes[i] == -1)
            infer = (int)i;
        out[i] = sizes[i] < 0 ? 1 : (uint32_t)sizes[i];
    }
    err->dim = -1;
    struct big have, want;
    big_product(v->t.sizes, v->t.rank, &have);
    big_product(out, rank, &want);
    if (infer < 0)
        return big_cmp(&have, &want) == 0 ? DMLT_OK : DMLT_E_INVALID;
    /* -1 is have / want. Divided by each known size in turn: the quotient
     * is floor(have / want), and the division is exact exactly when every
     * remainder is 0 (have = ab q2 + a r2 + r1, with a r2 + r1 < ab). */
    struct big q = have;
    bool exact = true;
    for (unsigned i = 0; i < rank; i++)
        exact = big_divmod(&q, out[i]) == 0 && exact;
    err->dim = infer;
    if (!exact)
        return DMLT_E_INVALID;
    uint32_t q32;
    if (!big_u32(&q, &q32))
        return DMLT_E_RANGE; /* a size past 4294967295 */
    out[infer] = q32;
    return DMLT_OK;
}

enum dmlt_status dmlt_view_reshape(struct dmlt_view *v, unsigned rank, const int64_t sizes[],
                                   struct dmlt_error *err)
{
    err->dim = -1;
    if (rank < 1 || rank > DMLT_MAX_RANK)
        return DMLT_E_RANK;
    uint32_t nd[DMLT_MAX_RANK] = {0};
    enum dmlt_status st = reshape_sizes(v, rank, sizes, nd, err);
    if (st != DMLT_OK)
        return st;

    /* NumPy's _attempt_nocopy_reshape, C order. The old dims of size 1
     * move no element: set aside. Then old and new dims are matched in
     * chunks of equal element count; the old dims of a chunk must be
     * contiguous with each other (stride = next stride x next size), and
     * the new dims of the chunk get the strides of a packed run ending with
     * the chunk's innermost old stride. */
    uint32_t od[DMLT_MAX_RANK] = {0}, os[DMLT_MAX_RANK] = {0};
    unsigned oindex[DMLT_MAX_RANK], on = 0;
    for (unsigned d = 0; d < v->t.rank; d++) {
        if (v->t.sizes[d] != 1) {
            od[on] = v->t.sizes[d];
            os[on] = v->t.strides[d];
            oindex[on++] = d;
        }
    }
    uint64_t ns[DMLT_MAX_RANK]; /* new strides, saturated at UINT64_MAX */
    unsigned oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < rank && oi < on) {
        struct big np, op;
        big_set(&np, nd[ni]);
        big_set(&op, od[oi]);
        for (int c; (c = big_cmp(&np, &op)) != 0;) {
            if (c < 0)
                (void)big_mul_add(&np, nd[nj++], 0);
            else
                (void)big_mul_add(&op, od[oj++], 0);
        }
        for (unsigned ok = oi; ok + 1 < oj; ok++) {
            if ((uint64_t)os[ok] != (uint64_t)od[ok + 1] * os[ok + 1]) {
                err->dim = (int)oindex[ok];
                return DMLT_E_LAYOUT;
            }
        }
        ns[nj - 1] = os[oj - 1];
        for (unsigned nk = nj - 1; nk > ni; nk--)
            if (!mul_u64(ns[nk], nd[nk], &ns[nk - 1]))
                ns[nk - 1] = UINT64_MAX;
        ni = nj++;
        oi = oj++;
    }
    /* The new trailing dims of size 1 (all the new dims when every old
     * dim had size 1): NumPy gives them the last stride, or the element
     * size, i.e. 1 element. */
    uint64_t last = ni >= 1 ? ns[ni - 1] : 1;
    for (unsigned nk = ni; nk < rank; nk++)
        ns[nk] = last;

    struct dmlt_tensor t = v->t;
    t.rank = rank;
    for (unsigned d = 0; d < DMLT_MAX_RANK; d++) {
        t.sizes[d] = d < rank ? nd[d] : 0;
        t.strides[d] = 0;
    }
    for (unsigned d = 0; d < rank; d++) {
        if (ns[d] <= DMLT_MAX_STRIDE)
            t.strides[d] = (uint32_t)ns[d];
        else if (nd[d] > 1) {
            err->dim = (int)d;
            return DMLT_E_RANGE;
        } /* else a size-1 dim: its stride moves nothing, 0 stands in */
    }
    struct dmlt_view_step *s = new_step(v, STEP_RESHAPE, err);
    if (s == NULL)
        return DMLT_E_RANGE;
    memcpy(s->sizes_in, v->t.sizes, sizeof s->sizes_in);
    memcpy(s->sizes_out, nd, rank * sizeof nd[0]);
    v->t = t;
    commit_step(v);
    return DMLT_OK;
}

enum dmlt_status dmlt_view_parent_coord(const struct dmlt_view *v, const uint32_t coord[],
                                        uint32_t parent[], struct dmlt_error *err)
{
    err->dim = -1;
    for (unsigned d = 0; d < v->t.rank; d++) {
        if (coord[d] >= v->t.sizes[d]) {
            err->dim = (int)d;
            return DMLT_E_COORD;
        }
    }
    map_back(v, v->n_steps_, coord, parent);
    return DMLT_OK;
}

enum dmlt_status dmlt_view_bytes(const struct dmlt_view *v, uint64_t *byte_offset, bool *whole_byte,
                                 uint64_t *size_bytes)
{
    const struct dmlt_dtype_info *info = dmlt_dtype_get(v->t.dtype);
    if (info == NULL)
        return DMLT_E_DTYPE;
    const unsigned bits = info->bits;
    /* offset x bits / 8: for 4-bit types offset / 2, else offset x bytes. */
    if (bits < 8) {
        *byte_offset = v->offset / 2;
        *whole_byte = v->offset % 2 == 0;
    } else {
        if (!mul_u64(v->offset, bits / 8, byte_offset))
            return DMLT_E_RANGE;
        *whole_byte = true;
    }
    /* round_up(ceil((index_of_last_element + 1) x bits / 8), 4). The index
     * can pass 2^64 while the bytes of a 4-bit tensor do not: counted in
     * 256 bits, then checked. */
    struct big n;
    big_set(&n, 1);
    for (unsigned d = 0; d < v->t.rank; d++)
        big_add_u64(&n, (uint64_t)(v->t.sizes[d] - 1u) * v->t.strides[d]);
    if (bits < 8) {
        uint32_t odd = big_divmod(&n, 2);
        big_add_u64(&n, odd);
    } else {
        (void)big_mul_add(&n, bits / 8, 0); /* below 2^67 x 8: no overflow */
    }
    uint64_t bytes;
    if (!big_u64(&n, &bytes) || bytes > UINT64_MAX - 3)
        return DMLT_E_RANGE;
    *size_bytes = (bytes + 3) / 4 * 4;
    return DMLT_OK;
}

uint32_t dmlt_view_alignment(uint64_t byte_offset, uint32_t parent_alignment)
{
    uint32_t cap = parent_alignment > 16 ? parent_alignment : 16;
    /* The cap's own largest power of two, should the parent's not be one. */
    cap &= ~(cap - 1u);
    uint64_t low = byte_offset & (~byte_offset + 1u); /* lowest set bit; 0 for 0 */
    return low == 0 || low >= cap ? cap : (uint32_t)low;
}
