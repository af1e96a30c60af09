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
 * is O(log n): the whole is O(n log n) in time and 96 bytes a tensor. */
#include "plan_internal.h"

#include <string.h>

#define NONE   UINT32_MAX
#define VISITS 256 /* tree nodes the branch and bound may visit for one tensor */

struct tnode {
    uint32_t minlast, maxkey; /* of the unplaced tensors below: the smallest last, the best rank */
};

struct sky {
    struct dmlt__plan_node *nodes;
    size_t n, t, leaves;
    uint64_t align;
    uint32_t *cf, *cl;     /* by position: first and last coordinate */
    uint32_t *at;          /* by coordinate c (and t): the first position whose cf >= c */
    struct tnode *tree;    /* 2 x leaves nodes, 1 the root */
    uint64_t *height;      /* by segment start: the segment's height */
    uint32_t *nxt, *prv;   /* by segment start: the next (t: none) and previous segment */
    uint32_t *hpos, *heap; /* the heap of segments by (height, start) */
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
    return 8 * n + 16 * l + 28 * (2 * n + 2) + 64;
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
    s->at = s->cl + n;
    s->tree = (struct tnode *)(s->at + c + (c & 1)); /* 8-byte aligned */
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
        const struct tnode a = s->tree[2 * v], c = s->tree[2 * v + 1];
        s->tree[v].minlast = a.minlast < c.minlast ? a.minlast : c.minlast;
        s->tree[v].maxkey = a.maxkey > c.maxkey ? a.maxkey : c.maxkey;
    }
}

/* The tree's nodes that cover positions [lo, hi) exactly, left to right,
 * into c[]; their count (at most 2 log2 leaves). */
static size_t cover(const struct sky *s, size_t lo, size_t hi, size_t *c)
{
    size_t left[64], right[64], nl = 0, nr = 0;
    for (size_t l = lo + s->leaves, r = hi + s->leaves; l < r; l /= 2, r /= 2) {
        if (l & 1)
            left[nl++] = l++;
        if (r & 1)
            right[nr++] = --r;
    }
    for (size_t i = 0; i < nl; i++)
        c[i] = left[i];
    for (size_t i = 0; i < nr; i++)
        c[nl + i] = right[nr - 1 - i];
    return nl + nr;
}

/* Below node v (minlast <= b): the leftmost leaf whose last is at most b. */
static size_t leftmost(struct sky *s, size_t v, uint32_t b)
{
    while (v < s->leaves) {
        v = s->tree[2 * v].minlast <= b ? 2 * v : 2 * v + 1;
        s->work++;
    }
    return v;
}

/* The unplaced tensor of the best rank among positions [lo, hi) whose last
 * coordinate is at most b: a branch and bound from the nodes that cover
 * the range, the better rank first, of at most VISITS nodes, then (if it
 * found none in them) the leftmost. NONE when there is none. */
static uint32_t pick(struct sky *s, size_t lo, size_t hi, uint32_t b)
{
    size_t c[128], st[128];
    const size_t nc = cover(s, lo, hi, c);
    size_t top = 0, visits = 0, first = 0;
    bool any = false;
    for (size_t i = nc; i-- > 0;) { /* pushed right to left: the leftmost on top */
        if (s->tree[c[i]].minlast <= b) {
            st[top++] = c[i];
            first = c[i];
            any = true;
        }
    }
    s->work += nc;
    if (!any)
        return NONE;
    uint32_t best = 0;
    size_t at = 0;
    while (top > 0 && visits < VISITS) {
        const size_t v = st[--top];
        visits++;
        if (s->tree[v].minlast > b || s->tree[v].maxkey <= best)
            continue;
        if (v >= s->leaves) {
            best = s->tree[v].maxkey;
            at = v;
            continue;
        }
        const bool left_first = s->tree[2 * v].maxkey >= s->tree[2 * v + 1].maxkey;
        st[top++] = left_first ? 2 * v + 1 : 2 * v; /* pushed last, popped first: the better */
        st[top++] = left_first ? 2 * v : 2 * v + 1;
    }
    s->work += visits;
    if (best == 0)
        at = leftmost(s, first, b);
    return (uint32_t)(at - s->leaves);
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
    for (size_t p = s->n, q = s->t + 1; q-- > 0;) {
        while (p > 0 && s->cf[p - 1] >= q)
            p--;
        s->at[q] = (uint32_t)p;
    }
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
    for (size_t v = 0; v < 2 * s->leaves; v++)
        s->tree[v] = (struct tnode){NONE, 0};
    for (size_t k = 0; k < s->n; k++) {
        const uint32_t p = order[k];
        if (t[p].size == 0)
            continue;
        s->tree[s->leaves + p] = (struct tnode){s->cl[p], (uint32_t)(s->n - k)};
    }
    for (size_t v = s->leaves - 1; v >= 1; v--) {
        const struct tnode a = s->tree[2 * v], c = s->tree[2 * v + 1];
        s->tree[v].minlast = a.minlast < c.minlast ? a.minlast : c.minlast;
        s->tree[v].maxkey = a.maxkey > c.maxkey ? a.maxkey : c.maxkey;
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
    s->tree[s->leaves + p] = (struct tnode){NONE, 0};
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
        const size_t lo = s.at[a], hi = s.at[b + 1];
        const uint32_t p = lo < hi ? pick(&s, lo, hi, b) : NONE;
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
