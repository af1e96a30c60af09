/* plan_skyline.c - the skyline placement: tensors placed from the bottom
 * of the buffer up, each at the lowest offset where it fits above every
 * tensor placed before it, as google/minimalloc's first pass places them
 * (Moffitt, "MiniMalloc", ASPLOS 2024: canonical placement, lowest offset
 * first, longest lifetime breaking ties).
 *
 * The steps are numbered by the distinct first and last steps (at most 2n
 * coordinates). The skyline is, for each coordinate, the top (rounded up to
 * the alignment) of the tensors placed across it; runs of equal height are
 * segments, kept in a list and in a heap by (height, start). The lowest
 * segment is taken: if an unplaced tensor's lifetime lies within it, the
 * first in the order (longest lifetime, ...) goes at its height; if none
 * does, none ever will (the skyline only rises), and the segment rises to
 * its lower neighbour's height, joining it. A tensor whose lifetime lies
 * within a segment is found in a tree over the tensors by first step, each
 * node holding the smallest last coordinate and the best rank of the
 * unplaced tensors below it: a branch and bound of at most VISITS nodes,
 * then the leftmost that fits (O(log n)). Every placement and every rise
 * is O(log n): the whole is O(n log n) in time and 88 bytes a tensor. */
#include "plan_internal.h"

#include <string.h>

#define NONE   UINT32_MAX
#define VISITS 256 /* tree nodes the branch and bound may visit for one tensor */

struct sky {
    struct dmlt__plan_node *nodes;
    size_t n, t, leaves;
    uint64_t align;
    uint32_t *cf, *cl;          /* by position: first and last coordinate */
    uint32_t *minlast, *maxkey; /* the tree: 2 x leaves nodes, 1 the root */
    uint64_t *height;           /* by segment start: the segment's height */
    uint32_t *nxt, *prv;        /* by segment start: the next (t: none) and previous segment */
    uint32_t *hpos, *heap;      /* the heap of segments by (height, start) */
    size_t heap_n;
    uint64_t work;
};

static size_t leaves_for(size_t n)
{
    size_t l = 1;
    while (l < n)
        l *= 2;
    return l;
}

size_t dmlt__sky_scratch(size_t n)
{
    const size_t l = leaves_for(n);
    if (n > (SIZE_MAX - 64) / 96 || l > (SIZE_MAX - 64) / 96)
        return SIZE_MAX;
    return 8 * n + 16 * l + 24 * (2 * n + 1) + 64;
}

static void carve(struct sky *s, void *scratch)
{
    uint8_t *p = scratch;
    const size_t n = s->n, c = 2 * n + 1;
    s->height = (uint64_t *)p; /* first: 8-byte aligned */
    s->nxt = (uint32_t *)(p + 8 * c);
    s->prv = s->nxt + c;
    s->hpos = s->prv + c;
    s->heap = s->hpos + c;
    s->cf = s->heap + c;
    s->cl = s->cf + n;
    s->minlast = s->cl + n;
    s->maxkey = s->minlast + 2 * s->leaves;
}

/* ---- the heap of segments ------------------------------------------------ */

static bool lower(const struct sky *s, uint32_t a, uint32_t b)
{
    return s->height[a] != s->height[b] ? s->height[a] < s->height[b] : a < b;
}

static void heap_put(struct sky *s, size_t i, uint32_t seg)
{
    s->heap[i] = seg;
    s->hpos[seg] = (uint32_t)i;
}

static void sift(struct sky *s, size_t i)
{
    const uint32_t seg = s->heap[i];
    while (i > 0 && lower(s, seg, s->heap[(i - 1) / 2])) {
        heap_put(s, i, s->heap[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->heap_n)
            break;
        if (c + 1 < s->heap_n && lower(s, s->heap[c + 1], s->heap[c]))
            c++;
        if (!lower(s, s->heap[c], seg))
            break;
        heap_put(s, i, s->heap[c]);
        i = c;
    }
    heap_put(s, i, seg);
    s->work++;
}

static void heap_push(struct sky *s, uint32_t seg)
{
    heap_put(s, s->heap_n++, seg);
    sift(s, s->heap_n - 1);
}

static void heap_remove(struct sky *s, uint32_t seg)
{
    const size_t i = s->hpos[seg];
    const uint32_t last = s->heap[--s->heap_n];
    if (i < s->heap_n) {
        heap_put(s, i, last);
        sift(s, i);
    }
}

/* Segment c absorbs the next one, of the same height. */
static void join_next(struct sky *s, uint32_t c)
{
    const uint32_t r = s->nxt[c];
    s->nxt[c] = s->nxt[r];
    if (s->nxt[r] < s->t)
        s->prv[s->nxt[r]] = c;
    heap_remove(s, r);
}

/* Joins segment c with its neighbours of the same height. */
static void join(struct sky *s, uint32_t c)
{
    if (s->nxt[c] < s->t && s->height[s->nxt[c]] == s->height[c])
        join_next(s, c);
    if (s->prv[c] != NONE && s->height[s->prv[c]] == s->height[c])
        join_next(s, s->prv[c]);
}

/* ---- the tree of unplaced tensors ---------------------------------------- */

static void tree_pull(struct sky *s, size_t v)
{
    for (v /= 2; v >= 1; v /= 2) {
        const uint32_t ml = s->minlast[2 * v] < s->minlast[2 * v + 1] ? s->minlast[2 * v]
                                                                      : s->minlast[2 * v + 1];
        const uint32_t mk = s->maxkey[2 * v] > s->maxkey[2 * v + 1] ? s->maxkey[2 * v]
                                                                    : s->maxkey[2 * v + 1];
        s->minlast[v] = ml;
        s->maxkey[v] = mk;
    }
}

struct frame {
    size_t v, l, r; /* a tree node and the positions [l, r) below it */
};

/* The unplaced tensor of the best rank among positions [lo, hi) whose last
 * coordinate is at most b, in at most VISITS nodes; NONE if none was found
 * (*capped: the visits ran out first). */
static uint32_t best_in(struct sky *s, size_t lo, size_t hi, uint32_t b, bool *capped)
{
    struct frame st[2 * 40];
    size_t top = 0, visits = 0;
    uint32_t best = 0, at = NONE;
    st[top++] = (struct frame){1, 0, s->leaves};
    *capped = false;
    while (top > 0) {
        const size_t v = st[top - 1].v, l = st[top - 1].l, r = st[top - 1].r;
        top--;
        if (r <= lo || l >= hi || s->minlast[v] > b || s->maxkey[v] <= best)
            continue;
        if (++visits > VISITS) {
            *capped = at == NONE;
            break;
        }
        if (v >= s->leaves) {
            best = s->maxkey[v];
            at = (uint32_t)(v - s->leaves);
            continue;
        }
        const size_t m = l + (r - l) / 2, a = 2 * v, c = 2 * v + 1;
        const bool left_first = s->maxkey[a] >= s->maxkey[c];
        /* pushed last, popped first: the child of the better rank */
        st[top++] = (struct frame){left_first ? c : a, left_first ? m : l, left_first ? r : m};
        st[top++] = (struct frame){left_first ? a : c, left_first ? l : m, left_first ? m : r};
    }
    s->work += visits;
    return at;
}

/* The leftmost unplaced tensor among positions [lo, hi) whose last
 * coordinate is at most b, or NONE. */
static uint32_t leftmost(struct sky *s, size_t v, size_t l, size_t r, size_t lo, size_t hi,
                         uint32_t b)
{
    s->work++;
    if (r <= lo || l >= hi || s->minlast[v] > b)
        return NONE;
    if (v >= s->leaves)
        return (uint32_t)(v - s->leaves);
    const size_t m = l + (r - l) / 2;
    const uint32_t x = leftmost(s, 2 * v, l, m, lo, hi, b);
    return x != NONE ? x : leftmost(s, 2 * v + 1, m, r, lo, hi, b);
}

/* The first position whose first coordinate is at least c. */
static size_t first_at(const struct sky *s, uint32_t c)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (s->cf[mid] < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- setting up ---------------------------------------------------------- */

/* The coordinates: the distinct first and last steps, in order. key,
 * order and tmp are scratch of n entries. */
static void coordinates(struct sky *s, uint64_t *key, uint32_t *order, uint32_t *tmp)
{
    const struct dmlt__plan_node *t = s->nodes;
    for (size_t p = 0; p < s->n; p++) {
        order[p] = (uint32_t)p;
        key[p] = t[p].last;
    }
    dmlt__plan_sort(order, tmp, s->n, key, NULL);
    size_t i = 0, j = 0;
    uint32_t c = 0;
    bool any = false;
    uint64_t prev = 0;
    while (i < s->n || j < s->n) { /* firsts by position, lasts by order */
        const bool take_first = j == s->n || (i < s->n && t[i].first <= t[order[j]].last);
        const uint64_t v = take_first ? t[i].first : t[order[j]].last;
        if (any && v != prev)
            c++;
        any = true;
        prev = v;
        if (take_first)
            s->cf[i++] = c;
        else
            s->cl[order[j++]] = c;
    }
    s->t = s->n ? (size_t)c + 1 : 0;
}

/* Each tensor's rank in the order (n for the first, 0 for a tensor of size
 * 0), into the tree's leaves; the tree above them. */
static void ranks(struct sky *s, enum dmlt__sky_order o, uint64_t *key, uint64_t *key2,
                  uint32_t *order, uint32_t *tmp)
{
    const struct dmlt__plan_node *t = s->nodes;
    for (size_t p = 0; p < s->n; p++) {
        const uint64_t width = t[p].last - t[p].first, size = t[p].size;
        wu128 area = w_add64(w_mul64(size, width), size);
        order[p] = (uint32_t)p;
        key[p] = UINT64_MAX - (o == DMLT__SKY_SIZE    ? size
                               : o == DMLT__SKY_WIDTH ? width
                               : w_fits_u64(area)     ? w_low(area)
                                                      : UINT64_MAX);
        key2[p] = UINT64_MAX - (o == DMLT__SKY_WIDTH ? size : width);
    }
    dmlt__plan_sort(order, tmp, s->n, key, key2);
    for (size_t v = 0; v < 2 * s->leaves; v++) {
        s->minlast[v] = NONE;
        s->maxkey[v] = 0;
    }
    for (size_t k = 0; k < s->n; k++) {
        const uint32_t p = order[k];
        if (t[p].size == 0)
            continue;
        s->minlast[s->leaves + p] = s->cl[p];
        s->maxkey[s->leaves + p] = (uint32_t)(s->n - k);
    }
    for (size_t v = s->leaves - 1; v >= 1; v--) {
        const size_t a = 2 * v, c = 2 * v + 1;
        s->minlast[v] = s->minlast[a] < s->minlast[c] ? s->minlast[a] : s->minlast[c];
        s->maxkey[v] = s->maxkey[a] > s->maxkey[c] ? s->maxkey[a] : s->maxkey[c];
    }
}

/* ---- placing ------------------------------------------------------------- */

/* Tensor p at the height of segment a (its lifetime within it). */
static bool place(struct sky *s, uint32_t a, uint32_t p, uint64_t *arena)
{
    struct dmlt__plan_node *x = &s->nodes[p];
    const uint64_t h = s->height[a];
    if (x->size > UINT64_MAX - h)
        return false;
    x->off = h;
    if (h + x->size > *arena)
        *arena = h + x->size;
    uint64_t top;
    if (!dmlt__round_up(h + x->size, s->align, &top))
        top = UINT64_MAX; /* nothing of nonzero size fits above it */
    const uint32_t f = s->cf[p], l = s->cl[p], next = s->nxt[a];
    if (l + 1 < next) { /* the part after it stays at h */
        s->height[l + 1] = h;
        s->nxt[l + 1] = next;
        s->prv[l + 1] = f;
        if (next < s->t)
            s->prv[next] = l + 1;
        s->nxt[f] = l + 1;
        heap_push(s, l + 1);
    } else {
        s->nxt[f] = next;
        if (next < s->t)
            s->prv[next] = f;
    }
    s->height[f] = top;
    if (f > a) { /* the part before it stays at h */
        s->nxt[a] = f;
        s->prv[f] = a;
        heap_push(s, f);
    } else {
        sift(s, s->hpos[a]);
    }
    join(s, f);
    s->minlast[s->leaves + p] = NONE;
    s->maxkey[s->leaves + p] = 0;
    tree_pull(s, s->leaves + p);
    return true;
}

/* Segment a, where nothing left fits, rises to its lower neighbour. */
static bool rise(struct sky *s, uint32_t a)
{
    const uint32_t l = s->prv[a], r = s->nxt[a];
    if (l == NONE && r >= s->t)
        return false; /* every tensor fits the whole: none is left */
    uint64_t h = UINT64_MAX;
    if (l != NONE)
        h = s->height[l];
    if (r < s->t && s->height[r] < h)
        h = s->height[r];
    s->height[a] = h;
    sift(s, s->hpos[a]);
    join(s, a);
    return true;
}

bool dmlt__sky_place(struct dmlt__plan_node *nodes, size_t n, uint64_t align,
                     enum dmlt__sky_order order, void *scratch, uint64_t *arena, uint64_t *work)
{
    struct sky s = {.nodes = nodes, .n = n, .align = align, .leaves = leaves_for(n)};
    carve(&s, scratch);
    /* scratch for the sorts: the segments' arrays, set up after them */
    uint64_t *key = s.height, *key2 = (uint64_t *)s.nxt;
    uint32_t *ord = s.nxt + 2 * n, *tmp = ord + n;
    coordinates(&s, key, ord, tmp);
    ranks(&s, order, key, key2, ord, tmp);
    size_t left = 0;
    for (size_t p = 0; p < n; p++) {
        nodes[p].off = 0;
        left += nodes[p].size != 0;
    }
    *arena = 0;
    s.height[0] = 0;
    s.nxt[0] = (uint32_t)s.t;
    s.prv[0] = NONE;
    s.heap_n = 0;
    if (left)
        heap_push(&s, 0);
    bool ok = true;
    while (ok && left > 0) {
        const uint32_t a = s.heap[0], b = s.nxt[a] - 1;
        const size_t lo = first_at(&s, a), hi = first_at(&s, b + 1);
        bool capped;
        uint32_t p = best_in(&s, lo, hi, b, &capped);
        if (capped)
            p = leftmost(&s, 1, 0, s.leaves, lo, hi, b);
        if (p != NONE) {
            ok = place(&s, a, p, arena);
            left--;
        } else {
            ok = rise(&s, a);
        }
    }
    *work += s.work;
    return ok;
}
