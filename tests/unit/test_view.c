/* Views against brute force: random parents (packed, padded, broadcast and
 * arbitrary strides) and random chains of operations. The model keeps, for
 * every element of the view in logical row-major order, the parent
 * coordinate it comes from, and applies each operation to that list by its
 * definition (NumPy's slicing, indexing, transpose, broadcast_to, reshape in
 * C order). After each step every element of the view must be at the
 * parent's offset of its source coordinate, and map back to it. */
#include "check.h"

#define MAX_ELEMS 4096

struct model {
    unsigned rank;
    uint32_t sizes[DMLT_MAX_RANK];
    unsigned count;
    unsigned char coord[MAX_ELEMS][DMLT_MAX_RANK]; /* parent coordinates */
};

static struct model m, m_next; /* big: not on the stack */

static uint64_t dot64(const uint32_t c[], const uint32_t s[], unsigned rank)
{
    uint64_t o = 0;
    for (unsigned d = 0; d < rank; d++)
        o += (uint64_t)c[d] * s[d];
    return o;
}

static unsigned count_of(const uint32_t sizes[], unsigned rank)
{
    unsigned n = 1;
    for (unsigned d = 0; d < rank; d++)
        n *= sizes[d];
    return n;
}

/* Coordinate of the flat index f (row-major). */
static void unravel(unsigned f, const uint32_t sizes[], unsigned rank, uint32_t c[])
{
    for (unsigned d = rank; d-- > 0;) {
        c[d] = f % sizes[d];
        f /= sizes[d];
    }
}

static unsigned ravel(const uint32_t c[], const uint32_t sizes[], unsigned rank)
{
    unsigned f = 0;
    for (unsigned d = 0; d < rank; d++)
        f = f * sizes[d] + c[d];
    return f;
}

/* Python's slice(start, stop, step).indices(size) for step >= 1, written
 * as the list of indices taken. */
static unsigned py_slice(uint32_t size, const int64_t *start, const int64_t *stop, int64_t step,
                         uint32_t taken[])
{
    int64_t n = size;
    int64_t lo = start ? *start : 0, hi = stop ? *stop : n;
    if (lo < 0)
        lo += n;
    if (hi < 0)
        hi += n;
    lo = lo < 0 ? 0 : lo > n ? n : lo;
    hi = hi < 0 ? 0 : hi > n ? n : hi;
    unsigned k = 0;
    for (int64_t i = lo; i < hi; i += step)
        taken[k++] = (uint32_t)i;
    return k;
}

/* Every element of v against the model. */
static void check_view(const struct dmlt_view *v, const struct dmlt_tensor *parent)
{
    if (!CHECK_EQ(v->t.rank, m.rank))
        return;
    for (unsigned d = 0; d < m.rank; d++)
        CHECK_EQ(v->t.sizes[d], m.sizes[d]);
    if (!CHECK_EQ(count_of(v->t.sizes, v->t.rank), m.count))
        return;
    for (unsigned f = 0; f < m.count; f++) {
        uint32_t c[DMLT_MAX_RANK], pc[DMLT_MAX_RANK], got[DMLT_MAX_RANK];
        unravel(f, m.sizes, m.rank, c);
        for (unsigned d = 0; d < parent->rank; d++)
            pc[d] = m.coord[f][d];
        uint64_t through_view = v->offset + dot64(c, v->t.strides, v->t.rank);
        uint64_t in_parent = dot64(pc, parent->strides, parent->rank);
        if (!CHECK_EQ(through_view, in_parent))
            return;
        struct dmlt_error err;
        CHECK(dmlt_view_parent_coord(v, c, got, &err) == DMLT_OK);
        for (unsigned d = 0; d < parent->rank; d++)
            CHECK_EQ(got[d], pc[d]);
        if (f == 0)
            for (unsigned d = 0; d < parent->rank; d++)
                CHECK_EQ(v->source[d], pc[d]);
    }
    /* The binding's size is the report's minimum implied size. */
    uint64_t byte_offset, size_bytes;
    bool whole;
    struct dmlt_report r = DMLT_REPORT_INIT;
    struct dmlt_error err;
    CHECK(dmlt_view_bytes(v, &byte_offset, &whole, &size_bytes) == DMLT_OK);
    CHECK(dmlt_report_compute(&v->t, NULL, &r, &err) == DMLT_OK);
    CHECK_EQ(r.minimum_implied_size_bytes, size_bytes);
    unsigned bits = dmlt_dtype_get(v->t.dtype)->bits;
    CHECK_EQ(byte_offset, v->offset * bits / 8);
    CHECK(whole == (v->offset * bits % 8 == 0));
}

/* Whether the model's offsets are those of some strides on its sizes: the
 * strides are the offsets one step along each dim from element 0. */
static bool strided_view_exists(const struct dmlt_tensor *parent)
{
    uint32_t pc[DMLT_MAX_RANK], c[DMLT_MAX_RANK];
    int64_t s[DMLT_MAX_RANK];
    for (unsigned d = 0; d < parent->rank; d++)
        pc[d] = m.coord[0][d];
    int64_t base = (int64_t)dot64(pc, parent->strides, parent->rank);
    for (unsigned k = 0; k < m.rank; k++) {
        s[k] = 0;
        if (m.sizes[k] == 1)
            continue;
        memset(c, 0, sizeof c);
        c[k] = 1;
        unsigned f = ravel(c, m.sizes, m.rank);
        for (unsigned d = 0; d < parent->rank; d++)
            pc[d] = m.coord[f][d];
        s[k] = (int64_t)dot64(pc, parent->strides, parent->rank) - base;
        if (s[k] < 0)
            return false;
    }
    for (unsigned f = 0; f < m.count; f++) {
        unravel(f, m.sizes, m.rank, c);
        int64_t want = base;
        for (unsigned k = 0; k < m.rank; k++)
            want += s[k] * c[k];
        for (unsigned d = 0; d < parent->rank; d++)
            pc[d] = m.coord[f][d];
        if ((int64_t)dot64(pc, parent->strides, parent->rank) != want)
            return false;
    }
    return true;
}

static int64_t rand_i64(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(check_rand() % (uint64_t)(hi - lo + 1));
}

static unsigned n_ok[5], n_refused[5], n_refused_existing;

/* One random operation on v and the model. */
static void random_op(struct dmlt_view *v, const struct dmlt_tensor *parent)
{
    struct dmlt_error err;
    struct dmlt_view before = *v;
    enum dmlt_status st = DMLT_OK, want = DMLT_OK;
    unsigned kind = check_range(0, 4);
    m_next = m;
    switch (kind) {
    case 0: { /* slice */
        unsigned dim = check_range(0, m.rank - 1);
        int64_t n = m.sizes[dim], start = rand_i64(-n - 2, n + 2), stop = rand_i64(-n - 2, n + 2);
        int64_t step = check_range(0, 9) == 0 ? rand_i64(-2, 0) : rand_i64(1, 3);
        const int64_t *ps = check_range(0, 3) ? &start : NULL;
        const int64_t *pe = check_range(0, 3) ? &stop : NULL;
        st = dmlt_view_slice(v, dim, ps, pe, step, &err);
        uint32_t taken[64];
        unsigned k = step < 1 ? 0 : py_slice(m.sizes[dim], ps, pe, step, taken);
        want = step < 1 ? DMLT_E_INVALID : k == 0 ? DMLT_E_ZERO_SIZE : DMLT_OK;
        if (want != DMLT_OK)
            break;
        m_next.sizes[dim] = k;
        m_next.count = count_of(m_next.sizes, m_next.rank);
        for (unsigned f = 0; f < m_next.count; f++) {
            uint32_t c[DMLT_MAX_RANK];
            unravel(f, m_next.sizes, m_next.rank, c);
            c[dim] = taken[c[dim]];
            memcpy(m_next.coord[f], m.coord[ravel(c, m.sizes, m.rank)], DMLT_MAX_RANK);
        }
        break;
    }
    case 1: { /* select */
        unsigned dim = check_range(0, m.rank - 1);
        int64_t n = m.sizes[dim], index = rand_i64(-n - 1, n);
        st = dmlt_view_select(v, dim, index, &err);
        want = index < -n || index >= n ? DMLT_E_COORD : m.rank == 1 ? DMLT_E_RANK : DMLT_OK;
        if (want != DMLT_OK)
            break;
        uint32_t at = (uint32_t)(index < 0 ? index + n : index);
        m_next.rank = m.rank - 1;
        for (unsigned d = dim; d < m_next.rank; d++)
            m_next.sizes[d] = m.sizes[d + 1];
        m_next.count = count_of(m_next.sizes, m_next.rank);
        for (unsigned f = 0; f < m_next.count; f++) {
            uint32_t c2[DMLT_MAX_RANK], c[DMLT_MAX_RANK];
            unravel(f, m_next.sizes, m_next.rank, c2);
            for (unsigned d = 0, e = 0; d < m.rank; d++)
                c[d] = d == dim ? at : c2[e++];
            memcpy(m_next.coord[f], m.coord[ravel(c, m.sizes, m.rank)], DMLT_MAX_RANK);
        }
        break;
    }
    case 2: { /* permute */
        unsigned order[DMLT_MAX_RANK];
        for (unsigned i = 0; i < m.rank; i++)
            order[i] = i;
        for (unsigned i = m.rank; i-- > 1;) {
            unsigned j = check_range(0, i), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        bool bad = check_range(0, 9) == 0;
        if (bad)
            order[check_range(0, m.rank - 1)] = check_range(0, 1) ? m.rank : order[0] + 0;
        bad = false;
        bool seen[DMLT_MAX_RANK + 1] = {false};
        for (unsigned i = 0; i < m.rank; i++) {
            bad = bad || order[i] >= m.rank || seen[order[i]];
            if (order[i] <= m.rank)
                seen[order[i]] = true;
        }
        st = dmlt_view_permute(v, order, &err);
        want = bad ? DMLT_E_LAYOUT : DMLT_OK;
        if (bad)
            break;
        for (unsigned i = 0; i < m.rank; i++)
            m_next.sizes[i] = m.sizes[order[i]];
        for (unsigned f = 0; f < m_next.count; f++) {
            uint32_t c2[DMLT_MAX_RANK], c[DMLT_MAX_RANK];
            unravel(f, m_next.sizes, m_next.rank, c2);
            for (unsigned i = 0; i < m.rank; i++)
                c[order[i]] = c2[i];
            memcpy(m_next.coord[f], m.coord[ravel(c, m.sizes, m.rank)], DMLT_MAX_RANK);
        }
        break;
    }
    case 3: { /* broadcast_to */
        unsigned rank = m.rank + check_range(0, 2);
        if (rank > 6)
            rank = m.rank;
        unsigned lead = rank - m.rank;
        uint32_t sizes[DMLT_MAX_RANK] = {0};
        bool bad = false;
        for (unsigned i = 0; i < rank; i++) {
            uint32_t was = i < lead ? 1 : m.sizes[i - lead];
            sizes[i] = was == 1 ? check_range(1, 3) : was;
        }
        if (check_range(0, 9) == 0) { /* change a dim of size > 1 */
            for (unsigned i = lead; i < rank; i++)
                if (m.sizes[i - lead] > 1) {
                    sizes[i]++;
                    bad = true;
                    break;
                }
        }
        if (count_of(sizes, rank) > MAX_ELEMS)
            return;
        st = dmlt_view_broadcast_to(v, rank, sizes, &err);
        want = bad ? DMLT_E_INVALID : DMLT_OK;
        if (bad)
            break;
        m_next.rank = rank;
        memcpy(m_next.sizes, sizes, sizeof sizes);
        m_next.count = count_of(sizes, rank);
        for (unsigned f = 0; f < m_next.count; f++) {
            uint32_t c2[DMLT_MAX_RANK], c[DMLT_MAX_RANK];
            unravel(f, m_next.sizes, m_next.rank, c2);
            for (unsigned d = 0; d < m.rank; d++)
                c[d] = m.sizes[d] == 1 ? 0 : c2[d + lead];
            memcpy(m_next.coord[f], m.coord[ravel(c, m.sizes, m.rank)], DMLT_MAX_RANK);
        }
        break;
    }
    default: { /* reshape: the same elements in row-major order */
        uint32_t sizes[DMLT_MAX_RANK];
        unsigned rank = 0, left = m.count;
        while (left > 1 && rank < 6) { /* random factors of the count */
            unsigned f = check_range(2, 6);
            if (left % f == 0) {
                sizes[rank++] = f;
                left /= f;
            } else if (check_range(0, 3) == 0) {
                sizes[rank++] = left;
                left = 1;
            }
        }
        if (left > 1)
            sizes[rank++] = left;
        while (rank < DMLT_MAX_RANK && (rank == 0 || check_range(0, 3) == 0)) {
            unsigned at = check_range(0, rank); /* a size-1 dim anywhere */
            memmove(sizes + at + 1, sizes + at, (rank - at) * sizeof sizes[0]);
            sizes[at] = 1;
            rank++;
        }
        int64_t arg[DMLT_MAX_RANK];
        for (unsigned i = 0; i < rank; i++)
            arg[i] = sizes[i];
        bool bad = check_range(0, 9) == 0;
        if (bad)
            arg[check_range(0, rank - 1)] += 1;
        else if (check_range(0, 2) == 0)
            arg[check_range(0, rank - 1)] = -1;
        st = dmlt_view_reshape(v, rank, arg, &err);
        if (bad) {
            want = DMLT_E_INVALID;
            break;
        }
        m_next.rank = rank;
        memcpy(m_next.sizes, sizes, sizeof sizes);
        struct model keep = m;
        m = m_next;
        bool exists = strided_view_exists(parent);
        m = keep;
        if (st == DMLT_E_LAYOUT) {
            /* Refused: a strided view would be NumPy's only if it existed;
             * and the dim named is not contiguous with the next one. */
            n_refused[4]++;
            int d = err.dim;
            if (!CHECK(d >= 0 && (unsigned)d < before.t.rank && before.t.sizes[d] != 1))
                return;
            unsigned j = (unsigned)d + 1;
            while (j < before.t.rank && before.t.sizes[j] == 1)
                j++;
            CHECK(j < before.t.rank && (uint64_t)before.t.strides[d] !=
                                           (uint64_t)before.t.sizes[j] * before.t.strides[j]);
            n_refused_existing += exists; /* NumPy's rule is local, not "any view" */
            CHECK(memcmp(v, &before, sizeof before) == 0);
            return;
        }
        CHECK(exists); /* a reshape that succeeds is a strided view */
        break;
    }
    }
    if (!CHECK_EQ(st, want)) {
        fprintf(stderr, "  op %u: status %s, expected %s\n", kind, dmlt_status_name(st),
                dmlt_status_name(want));
        return;
    }
    if (st != DMLT_OK) {
        CHECK(memcmp(v, &before, sizeof before) == 0); /* a failed op changes nothing */
        n_refused[kind]++;
        return;
    }
    n_ok[kind]++;
    m = m_next;
    check_view(v, parent);
}

static void random_parent(struct dmlt_tensor *t)
{
    static const enum dmlt_dtype dtypes[] = {DMLT_DTYPE_UINT8, DMLT_DTYPE_FLOAT16,
                                             DMLT_DTYPE_FLOAT32, DMLT_DTYPE_FLOAT64,
                                             DMLT_DTYPE_INT4};
    memset(t, 0, sizeof *t);
    t->dtype = dtypes[check_range(0, 4)];
    t->rank = check_range(1, 5);
    for (unsigned d = 0; d < t->rank; d++)
        t->sizes[d] = check_range(0, 3) == 0 ? 1 : check_range(1, 4);
    struct dmlt_layout_spec spec;
    dmlt_layout_spec_init(&spec, t->rank);
    for (unsigned i = t->rank; i-- > 1;) {
        unsigned j = check_range(0, i), x = spec.order[i];
        spec.order[i] = spec.order[j];
        spec.order[j] = x;
    }
    switch (check_range(0, 3)) {
    case 0: /* packed */
        break;
    case 1: /* padded */
        for (unsigned i = 1; i < t->rank; i++)
            spec.pad[spec.order[i]] = check_range(0, 2);
        break;
    case 2: /* broadcast */
        spec.broadcast[check_range(0, t->rank - 1)] = true;
        break;
    default: /* any strides: overlapping, gaps, zeros */
        for (unsigned d = 0; d < t->rank; d++)
            t->strides[d] = check_range(0, 7);
        return;
    }
    struct dmlt_error err;
    CHECK(dmlt_strides_from_layout(t->dtype, t->rank, t->sizes, &spec, t->strides, &err) ==
          DMLT_OK);
}

static void test_random_chains(void)
{
    for (int iter = 0; iter < 6000; iter++) {
        struct dmlt_tensor parent;
        random_parent(&parent);
        struct dmlt_view v = DMLT_VIEW_INIT;
        struct dmlt_error err;
        CHECK(dmlt_view_init(&v, &parent, &err) == DMLT_OK);
        m.rank = parent.rank;
        memcpy(m.sizes, parent.sizes, sizeof m.sizes);
        m.count = count_of(parent.sizes, parent.rank);
        for (unsigned f = 0; f < m.count; f++) {
            uint32_t c[DMLT_MAX_RANK] = {0};
            unravel(f, parent.sizes, parent.rank, c);
            for (unsigned d = 0; d < DMLT_MAX_RANK; d++)
                m.coord[f][d] = (unsigned char)c[d];
        }
        check_view(&v, &parent);
        unsigned ops = check_range(1, 6);
        for (unsigned i = 0; i < ops; i++)
            random_op(&v, &parent);
    }
    printf("test_view: reshapes %u done, %u refused (%u of them with a strided view NumPy's "
           "rule does not find)\n",
           n_ok[4], n_refused[4], n_refused_existing);
    /* Every kind of operation ran, and was refused, many times. */
    for (unsigned k = 0; k < 5; k++) {
        CHECK(n_ok[k] > 1000);
        CHECK(n_refused[k] > 50);
    }
}

/* Python's slice rules, one by one. */
static void test_slice_resolve(void)
{
    uint32_t first, count;
    const int64_t m2 = -2, two = 2, big = INT64_MAX, small = INT64_MIN, three = 3, zero = 0;
    CHECK(dmlt_slice_resolve(5, &m2, NULL, 1, &first, &count) == DMLT_OK && first == 3 &&
          count == 2);
    CHECK(dmlt_slice_resolve(5, NULL, NULL, 2, &first, &count) == DMLT_OK && first == 0 &&
          count == 3);
    CHECK(dmlt_slice_resolve(5, &small, &big, 1, &first, &count) == DMLT_OK && first == 0 &&
          count == 5);
    CHECK(dmlt_slice_resolve(5, &two, &three, big, &first, &count) == DMLT_OK && first == 2 &&
          count == 1);
    CHECK(dmlt_slice_resolve(5, &three, &two, 1, &first, &count) == DMLT_E_ZERO_SIZE);
    CHECK(dmlt_slice_resolve(5, &big, NULL, 1, &first, &count) == DMLT_E_ZERO_SIZE);
    CHECK(dmlt_slice_resolve(5, NULL, &zero, 1, &first, &count) == DMLT_E_ZERO_SIZE);
    CHECK(dmlt_slice_resolve(5, NULL, NULL, 0, &first, &count) == DMLT_E_INVALID);
    CHECK(dmlt_slice_resolve(5, NULL, NULL, -1, &first, &count) == DMLT_E_INVALID);
    CHECK(dmlt_slice_resolve(4294967295u, NULL, NULL, 1, &first, &count) == DMLT_OK &&
          count == 4294967295u);
}

/* The example: rows of a float16 tensor with 3 columns are 6 bytes
 * apart; with 5 elements of padding, 16. QKV: three parts of a packed
 * buffer. Offsets past 2^64 and strides past 2^32 are refused. */
static void test_examples_and_limits(void)
{
    struct dmlt_tensor t = {DMLT_DTYPE_FLOAT16, 2, {4, 3}, {3, 1}};
    struct dmlt_view v = DMLT_VIEW_INIT;
    struct dmlt_error err;
    const int64_t one = 1, two = 2;
    uint64_t off, size;
    bool whole;
    CHECK(dmlt_view_init(&v, &t, &err) == DMLT_OK);
    CHECK(dmlt_view_slice(&v, 0, &one, &two, 1, &err) == DMLT_OK);
    CHECK(dmlt_view_bytes(&v, &off, &whole, &size) == DMLT_OK && off == 6 && size == 8);
    CHECK_EQ(dmlt_view_alignment(off, 0), 2);
    CHECK_EQ(v.source[0], 1);
    t.strides[0] = 8; /* --pad w=5 */
    CHECK(dmlt_view_init(&v, &t, &err) == DMLT_OK);
    CHECK(dmlt_view_slice(&v, 0, &one, &two, 1, &err) == DMLT_OK);
    CHECK(dmlt_view_bytes(&v, &off, &whole, &size) == DMLT_OK && off == 16);
    CHECK_EQ(dmlt_view_alignment(off, 0), 16);
    CHECK_EQ(dmlt_view_alignment(off, 256), 16);
    CHECK_EQ(dmlt_view_alignment(0, 256), 256);
    CHECK_EQ(dmlt_view_alignment(512, 256), 256);
    CHECK_EQ(dmlt_view_alignment(0, 0), 16);

    /* QKV: {1, 8, 3*64} split on the last dim into 3 x 64. */
    struct dmlt_tensor qkv = {DMLT_DTYPE_FLOAT16, 3, {1, 8, 192}, {1536, 192, 1}};
    for (uint32_t part = 0; part < 3; part++) {
        CHECK(dmlt_view_init(&v, &qkv, &err) == DMLT_OK);
        CHECK(dmlt_view_narrow(&v, 2, part * 64, 64, 1, &err) == DMLT_OK);
        CHECK(dmlt_view_bytes(&v, &off, &whole, &size) == DMLT_OK);
        CHECK_EQ(off, part * 128);
        CHECK_EQ(size, (7 * 192 + 63 + 1) * 2);
        CHECK_EQ(v.t.strides[1], 192);
    }
    /* The same three parts with dmlt_view_split, equal or by sizes. */
    const uint32_t thirds[3] = {64, 64, 64}, uneven[3] = {128, 32, 32};
    for (unsigned part = 0; part < 3; part++) {
        struct dmlt_view a = DMLT_VIEW_INIT, b, c;
        CHECK(dmlt_view_init(&a, &qkv, &err) == DMLT_OK);
        b = c = a;
        CHECK(dmlt_view_split(&a, 2, 3, NULL, part, &err) == DMLT_OK);
        CHECK(dmlt_view_split(&b, 2, 3, thirds, part, &err) == DMLT_OK);
        CHECK(memcmp(&a, &b, sizeof a) == 0);
        CHECK(dmlt_view_split(&c, 2, 3, uneven, part, &err) == DMLT_OK);
        CHECK_EQ(c.offset, part == 0 ? 0 : part == 1 ? 128 : 160);
        CHECK_EQ(c.t.sizes[2], uneven[part]);
    }
    CHECK(dmlt_view_init(&v, &qkv, &err) == DMLT_OK);
    CHECK(dmlt_view_split(&v, 2, 5, NULL, 0, &err) == DMLT_E_INVALID);   /* 192 % 5 */
    CHECK(dmlt_view_split(&v, 2, 0, NULL, 0, &err) == DMLT_E_INVALID);   /* no parts */
    CHECK(dmlt_view_split(&v, 2, 3, NULL, 3, &err) == DMLT_E_INVALID);   /* no part 3 */
    CHECK(dmlt_view_split(&v, 3, 3, NULL, 0, &err) == DMLT_E_INVALID);   /* no dim 3 */
    CHECK(dmlt_view_split(&v, 2, 2, thirds, 0, &err) == DMLT_E_INVALID); /* 128 != 192 */
    const uint32_t with_zero[3] = {96, 0, 96};
    CHECK(dmlt_view_split(&v, 2, 3, with_zero, 0, &err) == DMLT_E_ZERO_SIZE);
    CHECK(dmlt_view_split(&v, 0, 1, NULL, 0, &err) == DMLT_OK && v.t.sizes[0] == 1);

    /* 4-bit: an odd element offset starts on a high nibble. */
    struct dmlt_tensor i4 = {DMLT_DTYPE_INT4, 1, {7}, {1}};
    CHECK(dmlt_view_init(&v, &i4, &err) == DMLT_OK);
    CHECK(dmlt_view_narrow(&v, 0, 3, 2, 1, &err) == DMLT_OK);
    CHECK(dmlt_view_bytes(&v, &off, &whole, &size) == DMLT_OK && off == 1 && !whole && size == 4);

    /* A stride step past 2^32 - 1. */
    struct dmlt_tensor wide = {DMLT_DTYPE_UINT8, 2, {3, 65536}, {65536, 1}};
    CHECK(dmlt_view_init(&v, &wide, &err) == DMLT_OK);
    CHECK(dmlt_view_narrow(&v, 0, 0, 2, 2, &err) == DMLT_OK); /* 131072: fits */
    CHECK(dmlt_view_init(&v, &wide, &err) == DMLT_OK);
    CHECK(dmlt_view_narrow(&v, 1, 0, 2, 65536, &err) == DMLT_E_COORD);
    struct dmlt_tensor huge = {DMLT_DTYPE_UINT8, 1, {4294967295u}, {65537}};
    CHECK(dmlt_view_init(&v, &huge, &err) == DMLT_OK);
    CHECK(dmlt_view_narrow(&v, 0, 0, 2, 65536, &err) == DMLT_E_RANGE && err.dim == 0);
    /* An offset past 2^64 - 1: the largest strides, selected at the end. */
    struct dmlt_tensor far = {DMLT_DTYPE_FLOAT64,
                              8,
                              {4294967295u, 4294967295u, 4294967295u, 4294967295u, 2, 2, 2, 2},
                              {4294967295u, 4294967295u, 4294967295u, 4294967295u, 1, 1, 1, 1}};
    CHECK(dmlt_view_init(&v, &far, &err) == DMLT_OK);
    const int64_t last = -1;
    CHECK(dmlt_view_select(&v, 0, last, &err) == DMLT_OK);
    CHECK(dmlt_view_select(&v, 0, last, &err) == DMLT_E_RANGE); /* 2 x (2^32-2)(2^32-1) < 2^64 */
    CHECK(dmlt_view_bytes(&v, &off, &whole, &size) == DMLT_E_RANGE); /* x 8 bytes: past */
    /* Reshape: the count must match; -1 divides exactly and fits 32 bits. */
    struct dmlt_tensor six = {DMLT_DTYPE_FLOAT32, 2, {2, 3}, {3, 1}};
    CHECK(dmlt_view_init(&v, &six, &err) == DMLT_OK);
    CHECK(dmlt_view_reshape(&v, 2, (const int64_t[]){4, -1}, &err) == DMLT_E_INVALID);
    CHECK(dmlt_view_reshape(&v, 2, (const int64_t[]){-1, -1}, &err) == DMLT_E_INVALID);
    CHECK(dmlt_view_reshape(&v, 2, (const int64_t[]){0, 6}, &err) == DMLT_E_ZERO_SIZE);
    CHECK(dmlt_view_reshape(&v, 2, (const int64_t[]){-2, 3}, &err) == DMLT_E_INVALID);
    CHECK(dmlt_view_reshape(&v, 9, (const int64_t[]){1, 1, 1, 1, 1, 1, 1, 1, 6}, &err) ==
          DMLT_E_RANK);
    CHECK(dmlt_view_reshape(&v, 3, (const int64_t[]){3, -1, 1}, &err) == DMLT_OK &&
          v.t.sizes[1] == 2 && v.t.strides[0] == 2 && v.t.strides[1] == 1);
    struct dmlt_tensor bc = {DMLT_DTYPE_UINT8, 2, {65536, 65536}, {0, 0}};
    CHECK(dmlt_view_init(&v, &bc, &err) == DMLT_OK);
    CHECK(dmlt_view_reshape(&v, 1, (const int64_t[]){-1}, &err) == DMLT_E_RANGE);
    CHECK(dmlt_view_reshape(&v, 2, (const int64_t[]){65536 * 2, -1}, &err) == DMLT_OK &&
          v.t.sizes[1] == 32768 && v.t.strides[0] == 0);
    /* A transposed tensor cannot be flattened: h and w are not contiguous. */
    struct dmlt_tensor tr = {DMLT_DTYPE_FLOAT32, 2, {3, 2}, {1, 3}};
    CHECK(dmlt_view_init(&v, &tr, &err) == DMLT_OK);
    CHECK(dmlt_view_reshape(&v, 1, (const int64_t[]){6}, &err) == DMLT_E_LAYOUT && err.dim == 0);
    /* Select on rank 1; permute not a permutation; broadcast down a rank. */
    struct dmlt_tensor one_d = {DMLT_DTYPE_FLOAT32, 1, {4}, {1}};
    CHECK(dmlt_view_init(&v, &one_d, &err) == DMLT_OK);
    CHECK(dmlt_view_select(&v, 0, 1, &err) == DMLT_E_RANK);
    CHECK(dmlt_view_permute(&v, (const unsigned[]){1}, &err) == DMLT_E_LAYOUT);
    CHECK(dmlt_view_broadcast_to(&v, 2, (const uint32_t[]){3, 5}, &err) == DMLT_E_INVALID &&
          err.dim == 1);
    CHECK(dmlt_view_broadcast_to(&v, 2, (const uint32_t[]){3, 4}, &err) == DMLT_OK &&
          v.t.strides[0] == 0 && v.t.strides[1] == 1);
    CHECK(dmlt_view_broadcast_to(&v, 1, (const uint32_t[]){4}, &err) == DMLT_E_RANK);
    /* A size below the first version of the struct is refused. */
    struct dmlt_view small = DMLT_VIEW_INIT;
    small.size = offsetof(struct dmlt_view, steps_);
    CHECK(dmlt_view_init(&small, &one_d, &err) == DMLT_E_INVALID);
    /* At most DMLT_VIEW_MAX_STEPS operations. */
    CHECK(dmlt_view_init(&v, &one_d, &err) == DMLT_OK);
    for (unsigned i = 0; i < DMLT_VIEW_MAX_STEPS; i++)
        CHECK(dmlt_view_permute(&v, (const unsigned[]){0}, &err) == DMLT_OK);
    CHECK(dmlt_view_permute(&v, (const unsigned[]){0}, &err) == DMLT_E_RANGE);
}

int main(void)
{
    test_slice_resolve();
    test_examples_and_limits();
    test_random_chains();
    return check_finish("test_view");
}
