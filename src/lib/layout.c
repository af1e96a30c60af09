/* layout.c - memory orders (nchw, nhwc, permutations, index lists), strides
 * from a layout, and detection of the layout that given strides pack. */
#include "internal.h"

#include <string.h>

/* Logical dimension letters by rank, as DirectML names them. */
static const char *const letters[6] = {NULL, "w", "hw", "dhw", "nchw", "ncdhw"};

const char *dmlt_dim_letters(unsigned rank)
{
    return (rank >= 1 && rank <= 5) ? letters[rank] : NULL;
}

void dmlt_layout_spec_init(struct dmlt_layout_spec *spec, unsigned rank)
{
    memset(spec, 0, sizeof *spec);
    for (unsigned i = 0; i < DMLT_MAX_RANK; i++)
        spec->order[i] = i < rank ? i : 0;
}

static char lower(char c)
{
    /* Not ?: here, which would compute in int and narrow on return. */
    if (c >= 'A' && c <= 'Z')
        return (char)(c - 'A' + 'a');
    return c;
}

static bool is_word(const char *text, size_t len, const char *word)
{
    size_t n = strlen(word);
    if (len != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (lower(text[i]) != word[i])
            return false;
    return true;
}

/* "0,2,3,1": a permutation of 0..rank-1 written as decimal indices. */
static enum dmlt_status parse_index_list(const char *text, size_t len, unsigned rank,
                                         unsigned order[])
{
    bool seen[DMLT_MAX_RANK] = {false};
    unsigned count = 0;
    size_t i = 0;
    while (i <= len) {
        size_t start = i;
        unsigned v = 0;
        while (i < len && text[i] >= '0' && text[i] <= '9') {
            v = v * 10u + (unsigned)(text[i] - '0');
            if (v >= DMLT_MAX_RANK)
                return DMLT_E_LAYOUT;
            i++;
        }
        if (i == start || count >= rank || v >= rank || seen[v])
            return DMLT_E_LAYOUT;
        seen[v] = true;
        order[count++] = v;
        if (i == len)
            break;
        if (text[i] != ',')
            return DMLT_E_LAYOUT;
        i++;
    }
    return count == rank ? DMLT_OK : DMLT_E_LAYOUT;
}

enum dmlt_status dmlt_layout_parse(const char *text, size_t len, unsigned rank,
                                   unsigned order[DMLT_MAX_RANK])
{
    if (rank < 1 || rank > DMLT_MAX_RANK || len == 0)
        return DMLT_E_LAYOUT;
    if (is_word(text, len, "row-major")) {
        for (unsigned i = 0; i < rank; i++)
            order[i] = i;
        return DMLT_OK;
    }
    if (is_word(text, len, "col-major") || is_word(text, len, "column-major")) {
        for (unsigned i = 0; i < rank; i++)
            order[i] = rank - 1 - i;
        return DMLT_OK;
    }
    if (text[0] >= '0' && text[0] <= '9')
        return parse_index_list(text, len, rank, order);

    const char *names = dmlt_dim_letters(rank);
    if (names == NULL || len != rank)
        return DMLT_E_LAYOUT;
    bool seen[DMLT_MAX_RANK] = {false};
    for (size_t i = 0; i < len; i++) {
        const char *p = strchr(names, lower(text[i]));
        if (text[i] == '\0' || p == NULL)
            return DMLT_E_LAYOUT;
        unsigned d = (unsigned)(p - names);
        if (seen[d])
            return DMLT_E_LAYOUT;
        seen[d] = true;
        order[i] = d;
    }
    return DMLT_OK;
}

/* The memory position (0 = outermost) whose stride --row-pitch-align
 * rounds: the row pitch, as D3D12 and image APIs mean it, is the stride of
 * H. In the image layouts that have an H (nchw and nhwc at rank 4, ncdhw
 * and ndhwc at rank 5) that is H's position: a row of NHWC is W x C
 * elements, not one pixel. In any other order, the second-innermost. */
static unsigned pitch_position(unsigned rank, const unsigned order[])
{
    static const unsigned nchw[] = {0, 1, 2, 3}, nhwc[] = {0, 2, 3, 1};
    static const unsigned ncdhw[] = {0, 1, 2, 3, 4}, ndhwc[] = {0, 2, 3, 4, 1};
    const size_t n = rank * sizeof order[0];
    if (rank == 4 && (memcmp(order, nchw, n) == 0 || memcmp(order, nhwc, n) == 0))
        return order[2] == 2 ? 2 : 1;
    if (rank == 5 && (memcmp(order, ncdhw, n) == 0 || memcmp(order, ndhwc, n) == 0))
        return order[3] == 3 ? 3 : 2;
    return rank - 2;
}

static bool is_permutation(unsigned rank, const unsigned order[])
{
    bool seen[DMLT_MAX_RANK] = {false};
    for (unsigned i = 0; i < rank; i++) {
        if (order[i] >= rank || seen[order[i]])
            return false;
        seen[order[i]] = true;
    }
    return true;
}

enum dmlt_status dmlt_strides_from_layout(enum dmlt_dtype dtype, unsigned rank,
                                          const uint32_t sizes[],
                                          const struct dmlt_layout_spec *spec,
                                          uint32_t strides_out[], struct dmlt_error *err)
{
    err->dim = -1;
    const struct dmlt_dtype_info *info = dmlt_dtype_get(dtype);
    if (info == NULL)
        return DMLT_E_DTYPE;
    if (rank < 1 || rank > DMLT_MAX_RANK)
        return DMLT_E_RANK;
    if (!is_permutation(rank, spec->order))
        return DMLT_E_LAYOUT;

    /* Row pitch in elements: BYTES x 8 bits must hold whole elements. */
    uint64_t pitch_elems = 1;
    if (spec->row_pitch_align_bytes != 0) {
        uint64_t align_bits = (uint64_t)spec->row_pitch_align_bytes * 8u;
        if (align_bits % info->bits != 0) {
            err->value = dmlt_u128_from_u64(spec->row_pitch_align_bytes);
            err->limit = dmlt_u128_from_u64(info->bits);
            return DMLT_E_INVALID;
        }
        pitch_elems = align_bits / info->bits;
    }

    /* Walk from the innermost memory dimension out. The running extent
     * stays below 2^65: every stride assigned from it is checked. */
    const unsigned pitch_k = rank >= 2 ? pitch_position(rank, spec->order) : rank;
    wu128 extent = w_u64(1);
    for (unsigned k = rank; k-- > 0;) {
        unsigned d = spec->order[k];
        if (sizes[d] == 0) {
            err->dim = (int)d;
            return DMLT_E_ZERO_SIZE;
        }
        if (k == 0 && spec->pad[d] != 0) {
            /* Padding after the outermost dimension changes no stride. */
            err->dim = (int)d;
            return DMLT_E_LAYOUT;
        }
        if (k == pitch_k && pitch_elems > 1)
            extent = w_mul_lo(w_divmod64(w_add64(extent, pitch_elems - 1), pitch_elems, NULL),
                              pitch_elems);
        if (spec->broadcast[d]) {
            strides_out[d] = 0;
            extent = w_add64(extent, spec->pad[d]);
            continue;
        }
        const bool too_big = w_lt(w_u64(DMLT_MAX_STRIDE), extent);
        if (too_big && sizes[d] == 1) {
            /* A size-1 dim's coordinate is always 0, so its stride never
             * moves an offset: 0 stands in (DirectML's 32-bit helper would
             * wrap). Its extent of 1 leaves the running extent alone. */
            strides_out[d] = 0;
            extent = w_add64(extent, spec->pad[d]);
            continue;
        }
        if (too_big) {
            err->dim = (int)d;
            err->value = w_to_pub(extent);
            err->limit = dmlt_u128_from_u64(DMLT_MAX_STRIDE);
            return DMLT_E_RANGE;
        }
        strides_out[d] = (uint32_t)w_low(extent);
        extent = w_add64(w_mul64(w_low(extent), sizes[d]), spec->pad[d]);
    }
    return DMLT_OK;
}

enum dmlt_status dmlt_packed_strides(unsigned rank, const uint32_t sizes[], const unsigned order[],
                                     uint32_t strides_out[], struct dmlt_error *err)
{
    struct dmlt_layout_spec spec;
    dmlt_layout_spec_init(&spec, rank);
    if (rank >= 1 && rank <= DMLT_MAX_RANK)
        memcpy(spec.order, order, rank * sizeof order[0]);
    return dmlt_strides_from_layout(DMLT_DTYPE_UINT8, rank, sizes, &spec, strides_out, err);
}

/* Builds the order from the innermost dimension out. At each running extent
 * the dimensions whose stride equals it form a group: any number of size-1
 * dimensions and at most one larger one (two would overlap). The size-1 ones
 * go inside the larger one, which grows the extent; among themselves their
 * order is free, so it follows logical order: strides {15,15,5,1} for sizes
 * {1,1,3,5} read as nchw, not cnhw. */
bool dmlt_strides_follow_order(unsigned rank, const uint32_t sizes[], const uint32_t strides[],
                               const unsigned order[])
{
    int inner = -1; /* the last dim that counts, going inward */
    for (unsigned i = 0; i < rank && i < DMLT_MAX_RANK; i++) {
        unsigned d = order[i];
        if (d >= rank || sizes[d] <= 1 || strides[d] == 0)
            continue;
        if (inner >= 0 && (uint64_t)strides[inner] < (uint64_t)strides[d] * sizes[d])
            return false;
        inner = (int)d;
    }
    return true;
}

/* Layout detection (docs/concepts.md). The dims of size > 1, taken by
 * increasing stride, must be packed: the first stride 1, each next one the
 * previous stride times the previous size. That fixes their memory order
 * (`chain`, outermost first); a dim of size 1 moves no element, so it may sit
 * anywhere, and every such interleaving is a layout that fits. Between two
 * consecutive chain dims (a "slot") the packed stride of a size-1 dim is the
 * product of the sizes inside it: slot 0 (outermost) has the element count,
 * slot k the stride of chain[k-1], the innermost slot 1. Products grow going
 * outward, so a size-1 dim matches its given stride exactly in one slot at
 * most (DirectML's CalculateStrides gives a stride past 4294967295 as 0). */
struct chain {
    unsigned n;                       /* dims of size > 1 */
    unsigned dim[DMLT_MAX_RANK];      /* outermost first */
    uint64_t slot[DMLT_MAX_RANK + 1]; /* packed stride of a size-1 dim in slot k */
};

static bool packed_chain(unsigned rank, const uint32_t sizes[], const uint32_t strides[],
                         struct chain *c)
{
    bool used[DMLT_MAX_RANK] = {false};
    unsigned big = 0;
    for (unsigned d = 0; d < rank; d++)
        big += sizes[d] > 1;
    c->n = big;
    /* From the innermost out: the one unused dim of size > 1 with stride =
     * extent. Two would overlap; none means not packed. */
    uint64_t extent = 1;
    c->slot[big] = 1;
    for (unsigned k = big; k-- > 0;) {
        unsigned found = DMLT_MAX_RANK;
        for (unsigned d = 0; d < rank; d++) {
            if (sizes[d] <= 1 || used[d] || strides[d] != extent)
                continue;
            if (found != DMLT_MAX_RANK)
                return false;
            found = d;
        }
        if (found == DMLT_MAX_RANK)
            return false;
        used[found] = true;
        c->dim[k] = found;
        extent *= sizes[found]; /* a stride below 2^32 times a size: below 2^64 */
        c->slot[k] = extent;
    }
    return true;
}

/* Whether the dims of size > 1 appear in `order` as in the chain. */
static bool order_fits(unsigned rank, const uint32_t sizes[], const struct chain *c,
                       const unsigned order[])
{
    if (!is_permutation(rank, order))
        return false;
    unsigned k = 0;
    for (unsigned i = 0; i < rank; i++)
        if (sizes[order[i]] > 1 && (k >= c->n || c->dim[k++] != order[i]))
            return false;
    return k == c->n;
}

bool dmlt_layout_detect_prefer(unsigned rank, const uint32_t sizes[], const uint32_t strides[],
                               const unsigned preferred[], unsigned order[])
{
    struct chain c;
    if (rank < 1 || rank > DMLT_MAX_RANK || !packed_chain(rank, sizes, strides, &c))
        return false;
    if (preferred && order_fits(rank, sizes, &c, preferred)) {
        memcpy(order, preferred, rank * sizeof order[0]);
        return true;
    }
    /* The slot of each size-1 dim whose stride is its packed one there; if
     * every size-1 dim has one, the orders that match exactly are those, and
     * the first in lexicographic order sorts each slot by index. */
    unsigned slot_of[DMLT_MAX_RANK];
    bool exact = true;
    for (unsigned d = 0; d < rank && exact; d++) {
        if (sizes[d] > 1)
            continue;
        exact = false;
        for (unsigned k = 0; k <= c.n && !exact; k++) {
            uint64_t packed = c.slot[k] > DMLT_MAX_STRIDE ? 0 : c.slot[k];
            if (strides[d] == packed) {
                slot_of[d] = k;
                exact = true;
            }
        }
    }
    unsigned pos = 0;
    if (exact) {
        for (unsigned k = 0; k <= c.n; k++) {
            for (unsigned d = 0; d < rank; d++)
                if (sizes[d] <= 1 && slot_of[d] == k)
                    order[pos++] = d;
            if (k < c.n)
                order[pos++] = c.dim[k];
        }
        return true;
    }
    /* Else the first in lexicographic order (the order `layouts --rank R`
     * lists them): at each position the smallest dim that can go there, a
     * size-1 one or the next of the chain. */
    bool placed[DMLT_MAX_RANK] = {false};
    unsigned next = 0;
    for (pos = 0; pos < rank; pos++) {
        unsigned pick = next < c.n ? c.dim[next] : DMLT_MAX_RANK;
        for (unsigned d = 0; d < rank && d < pick; d++) {
            if (sizes[d] <= 1 && !placed[d]) {
                pick = d;
                break;
            }
        }
        if (next < c.n && pick == c.dim[next])
            next++;
        placed[pick] = true;
        order[pos] = pick;
    }
    return true;
}

bool dmlt_layout_detect(unsigned rank, const uint32_t sizes[], const uint32_t strides[],
                        unsigned order[])
{
    return dmlt_layout_detect_prefer(rank, sizes, strides, NULL, order);
}
