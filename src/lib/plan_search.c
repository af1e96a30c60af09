/* plan_search.c - a yes/no search for a plan within a capacity, after
 * google/minimalloc (Moffitt, "MiniMalloc: A Lightweight Memory Allocator
 * for Hardware-Accelerated Machine Learning", ASPLOS 2024), for plans of up
 * to DMLT__SEARCH_N tensors:
 *  - sections: the distinct last steps, each holding the tensors alive
 *    there (every set of tensors alive together is within one: minimalloc's
 *    cross sections, taken where a tensor ends);
 *  - canonical placement: tensors are placed in nondecreasing order of
 *    (offset, rank), each at its lowest offset above every placed tensor
 *    alive beside it (some optimal plan is reached this way);
 *  - candidates by that lowest offset, then by rank (the preorder), kept
 *    sorted from node to node: a child's list is its parent's, less the
 *    tensor placed, with the few whose lowest offset rose merged back in;
 *  - the section bound: at every step (section), the tensors still to
 *    place that are alive there stack above both the current offset and
 *    the lowest offset any of them may take: that sum must stay within the
 *    capacity. Checked incrementally: a placement changes the lowest
 *    offsets only of the tensors beside it, so only their sections are
 *    looked at again (each section's tensors listed once, in setup);
 *  - dominance: a tensor whose lowest offset is at or above the lowest top
 *    any unplaced tensor could reach would leave a gap that one fills;
 *  - a tensor alive beside no unplaced one ("hatless") that fails ends the
 *    node: no other choice there can do better;
 *  - decomposition: where no unplaced tensor crosses from a section to the
 *    next, each side is searched on its own, its tensors ranked again by
 *    the order with what is left to place (minimalloc's SubSolve: the
 *    order's T key falls as tensors are placed). Without the new ranks
 *    E, H and I of minimalloc's challenging set were not solved in 2^35
 *    units; with them each is in under 2^28.
 * Depth first, every change logged and undone; the work counted. */
#include "plan_internal.h"

#include <string.h>

enum { FOUND, NOT_FOUND, ABORTED };

/* minimalloc's preorders, tried in turn with a growing limit: W the
 * lifetime, A size x lifetime, T the most bytes alive at a step of its
 * lifetime; each descending, then the tensor's position. */
#define HEURISTICS 3
static const char orders[HEURISTICS][4] = {"WAT", "TAW", "TWA"};

struct keys {
    uint64_t width;
    wu128 area, total;
};

/* A candidate: its lowest offset when the list was sorted, its rank. */
struct cand {
    uint64_t off;
    uint32_t rank, pos;
};

struct srch {
    struct dmlt__plan_node *nodes;
    size_t n, t;
    uint64_t align, cap;
    uint32_t *cf, *cl; /* by position: first, last section */
    uint32_t *ranks;   /* HEURISTICS x n: the rank of each (0 first) in each order */
    uint32_t *rank;    /* the order of this search (ranked again in a part) */
    unsigned h;        /* which order */
    bool fresh;        /* the ranks changed: the next list is sorted anew */
    uint32_t *saved;   /* n^2 pairs: (position, rank before a part's ranking) */
    size_t n_saved;
    uint32_t *sbuf;         /* 2n: a part's positions and the sort's scratch */
    uint32_t *cuts;         /* by section s: the unplaced tensors alive at s and s + 1 */
    uint32_t *ov_at, *ov;   /* by position: the tensors beside it, ov[ov_at[p]..ov_at[p + 1]) */
    uint32_t *mem_at, *mem; /* by section: the tensors alive there, likewise */
    uint64_t *minoff;       /* by position: the lowest offset it may take (UINT64_MAX: placed) */
    uint64_t *at;           /* by position: its offset once placed */
    uint8_t *placed;        /* by position */
    uint64_t *total;   /* by section: the sizes still to place there (< 2^64: the bound fits) */
    uint32_t *log_idx; /* minoff changes: which */
    uint64_t *log_old; /* and the value before */
    size_t n_log;
    struct cand *cands; /* n + 1 lists of n: the candidates of the node at each depth (0..n) */
    struct cand *tmp;   /* n: the candidates whose offset rose */
    uint64_t work, budget;
    uint64_t *out;     /* by position: the offsets of the plan found */
    struct keys *keys; /* by position: the preorders' keys */
};

static size_t sections_for(size_t n)
{
    return n + 1;
}

size_t dmlt__search_scratch(size_t n)
{
    if (n > DMLT__SEARCH_N)
        return 0;
    const size_t s = sections_for(n);
    /* per tensor: cf, cl, ranks, ov_at, minoff, at, out, placed, keys, tmp;
     * sbuf (2); per section: total, cuts, mem_at; the lists: n^2
     * overlaps, n x sections members, n^2 minoff changes (12 bytes), n^2
     * saved ranks (8 bytes), n^2 candidates */
    return n * ((2 + HEURISTICS + 1 + 2) * 4 + 8 + 8 + 8 + 1 + sizeof(struct keys) +
                sizeof(struct cand)) +
           s * (8 + 4 + 4) + n * n * 4 + n * s * 4 + n * n * 12 + n * n * 8 +
           (n + 1) * n * sizeof(struct cand) + 160;
}

static void carve(struct srch *s, void *scratch)
{
    const size_t n = s->n, c = sections_for(n);
    uint8_t *p = (uint8_t *)(((uintptr_t)scratch + 15u) & ~(uintptr_t)15u);
    s->cands = (struct cand *)(void *)p;
    s->tmp = s->cands + (n + 1) * n;
    s->keys = (struct keys *)(void *)(s->tmp + n);
    s->total = (uint64_t *)(void *)(s->keys + n);
    s->minoff = s->total + c;
    s->at = s->minoff + n;
    s->out = s->at + n;
    s->log_old = s->out + n;
    s->log_idx = (uint32_t *)(s->log_old + n * n);
    s->cf = s->log_idx + n * n;
    s->cl = s->cf + n;
    s->ranks = s->cl + n;
    s->cuts = s->ranks + HEURISTICS * n;
    s->ov_at = s->cuts + c;
    s->ov = s->ov_at + n + 1;
    s->mem_at = s->ov + n * n;
    s->mem = s->mem_at + c + 1;
    s->saved = s->mem + n * c;
    s->sbuf = s->saved + 2 * n * n;
    s->placed = (uint8_t *)(s->sbuf + 2 * n);
}

static size_t find(const uint64_t *v, size_t m, uint64_t x)
{
    size_t lo = 0, hi = m;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Whether q comes before p in order h. */
static bool ahead(const struct keys *k, size_t q, size_t p, unsigned h)
{
    for (int i = 0; i < 3; i++) {
        const char c = orders[h][i];
        if (c == 'W' && k[q].width != k[p].width)
            return k[q].width > k[p].width;
        if (c == 'A' && !w_eq(k[q].area, k[p].area))
            return w_lt(k[p].area, k[q].area);
        if (c == 'T' && !w_eq(k[q].total, k[p].total))
            return w_lt(k[p].total, k[q].total);
    }
    return q < p;
}

typedef bool before_fn(const struct srch *s, uint32_t q, uint32_t p);

/* Sorts a[0..m) (positions) by before, stably; tmp[0..m) is scratch. A
 * bottom-up merge sort: m is at most DMLT__SEARCH_N. */
static void sort_by(struct srch *s, uint32_t *a, uint32_t *tmp, size_t m, before_fn *before)
{
    uint32_t *from = a, *to = tmp;
    for (size_t w = 1; w < m; w *= 2) {
        for (size_t lo = 0; lo < m; lo += 2 * w) {
            const size_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                to[k++] = before(s, from[j], from[i]) ? from[j++] : from[i++];
            while (i < mid)
                to[k++] = from[i++];
            while (j < hi)
                to[k++] = from[j++];
        }
        uint32_t *t = from;
        from = to;
        to = t;
        s->work += m;
    }
    if (from != a)
        memcpy(a, from, m * sizeof *a);
}

static bool in_order(const struct srch *s, uint32_t q, uint32_t p)
{
    return ahead(s->keys, q, p, s->h);
}

static bool lower_offset(const struct srch *s, uint32_t q, uint32_t p)
{
    return s->minoff[q] < s->minoff[p];
}

/* Each tensor's rank in each order; keys: n entries of scratch. */
static void rank_all(struct srch *s)
{
    struct keys *k = s->keys;
    const struct dmlt__plan_node *x = s->nodes;
    for (size_t p = 0; p < s->n; p++) {
        k[p].width = x[p].last - x[p].first;
        k[p].area = w_mul64(x[p].size, k[p].width);
        k[p].area = w_add64(k[p].area, x[p].size);
        k[p].total = w_u64(0);
        for (uint32_t c = s->cf[p]; c <= s->cl[p]; c++)
            if (w_lt(k[p].total, w_u64(s->total[c])))
                k[p].total = w_u64(s->total[c]);
    }
    for (unsigned h = 0; h < HEURISTICS; h++)
        for (size_t p = 0; p < s->n; p++) {
            uint32_t r = 0;
            for (size_t q = 0; q < s->n; q++)
                r += ahead(k, q, p, h);
            s->ranks[h * s->n + p] = r;
        }
    s->work += HEURISTICS * (uint64_t)s->n * s->n;
}

/* The lists: for each tensor (of nonzero size) the others beside it, for
 * each section the tensors alive there. */
static void lists(struct srch *s)
{
    const struct dmlt__plan_node *x = s->nodes;
    size_t m = 0;
    for (size_t p = 0; p < s->n; p++) {
        s->ov_at[p] = (uint32_t)m;
        for (size_t q = 0; q < s->n && x[p].size; q++)
            if (q != p && x[q].size && s->cf[q] <= s->cl[p] && s->cf[p] <= s->cl[q])
                s->ov[m++] = (uint32_t)q;
    }
    s->ov_at[s->n] = (uint32_t)m;
    m = 0;
    for (size_t c = 0; c < s->t; c++) {
        s->mem_at[c] = (uint32_t)m;
        for (size_t p = 0; p < s->n; p++)
            if (x[p].size && s->cf[p] <= c && c <= s->cl[p])
                s->mem[m++] = (uint32_t)p;
    }
    s->mem_at[s->t] = (uint32_t)m;
    s->work += (uint64_t)s->n * (s->n + s->t);
}

/* The sections (the distinct last steps), each tensor's (from the first
 * section at or after its first step to its last's), and the sizes alive
 * in each section. n is small (at most DMLT__SEARCH_N): plain quadratic
 * loops. */
static void setup(struct srch *s)
{
    const struct dmlt__plan_node *x = s->nodes;
    uint64_t *v = s->out; /* n entries: the last steps, sorted */
    size_t m = 0;
    for (size_t p = 0; p < s->n; p++) {
        size_t j = m++;
        while (j > 0 && v[j - 1] > x[p].last) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x[p].last;
    }
    size_t t = 0;
    for (size_t i = 0; i < m; i++)
        if (t == 0 || v[t - 1] != v[i])
            v[t++] = v[i];
    s->t = t;
    for (size_t p = 0; p < s->n; p++) {
        s->cf[p] = (uint32_t)find(v, t, x[p].first);
        s->cl[p] = (uint32_t)find(v, t, x[p].last);
    }
    for (size_t p = 0; p < s->n; p++) {
        s->minoff[p] = x[p].size ? 0 : UINT64_MAX;
        s->at[p] = 0;
        s->placed[p] = x[p].size == 0;
    }
    for (size_t c = 0; c < t; c++) {
        s->total[c] = 0;
        s->cuts[c] = 0;
    }
    for (size_t p = 0; p < s->n; p++) {
        for (uint32_t c = s->cf[p]; c <= s->cl[p] && x[p].size; c++) {
            s->total[c] += x[p].size; /* at most the lower bound: the caller's cap */
            s->cuts[c] += c < s->cl[p];
        }
    }
    s->work += (uint64_t)s->n * s->n + (uint64_t)s->n * t;
}

/* The section bound at section c with the tensor just placed at off: the
 * tensors still to place there stack above the lowest offset any of them
 * may take (minimalloc's floor of the unallocated) and above off. */
static bool section_holds(struct srch *s, size_t c, uint64_t off)
{
    uint64_t low = UINT64_MAX;
    for (uint32_t i = s->mem_at[c]; i < s->mem_at[c + 1]; i++) {
        const uint32_t q = s->mem[i];
        const uint64_t o = s->minoff[q]; /* UINT64_MAX once placed */
        low = o < low ? o : low;
    }
    s->work += s->mem_at[c + 1] - s->mem_at[c];
    if (low == UINT64_MAX)
        return true; /* nothing left to place there */
    if (low < off)
        low = off;
    return s->total[c] <= s->cap && low <= s->cap - s->total[c];
}

/* The bound after p's placement at off in sections [lo, hi): every
 * section against off (when it rose: the offsets only rise from here), and
 * those of [a, b], where some lowest offset rose, against their lowest
 * offset. Outside p's steps each of those holds a tensor beside p whose
 * lowest offset rose to p's aligned top: the lowest offset there is at most
 * that, so a section with room for it above that holds (no scan). */
static bool bound_holds(struct srch *s, size_t lo, size_t hi, size_t p, size_t a, size_t b,
                        uint64_t last_off)
{
    const uint64_t off = s->at[p];
    const uint64_t room = off <= s->cap ? s->cap - off : 0;
    for (size_t c = lo; c < hi && off != last_off; c++)
        if (s->total[c] > room)
            return false;
    s->work += off != last_off ? hi - lo : 0;
    uint64_t above; /* p's aligned top: at most the capacity (checked by the caller) */
    if (!dmlt__round_up(off + s->nodes[p].size, s->align, &above) || above > s->cap)
        above = s->cap;
    const uint64_t room_above = s->cap - above;
    if (a < lo)
        a = lo;
    for (size_t c = a; c <= b && c < hi; c++) {
        if ((c < s->cf[p] || c > s->cl[p]) && s->total[c] <= room_above)
            continue;
        if (!section_holds(s, c, off))
            return false;
    }
    s->work += b - a + 1;
    return true;
}

/* Places p at off: the lowest offsets of the unplaced beside it rise to its
 * aligned top, its sections' sums fall. *hatless: it is beside no unplaced
 * tensor; [*a, *b] the sections where something changed. */
static void put(struct srch *s, size_t p, uint64_t off, bool *hatless, size_t *a, size_t *b)
{
    const struct dmlt__plan_node *x = s->nodes;
    const uint64_t top = off + x[p].size; /* checked by the caller */
    uint64_t above;
    if (!dmlt__round_up(top, s->align, &above))
        above = UINT64_MAX;
    s->placed[p] = 1;
    s->at[p] = off;
    s->minoff[p] = UINT64_MAX; /* out of the sections' lowest offsets */
    *hatless = true;
    *a = s->cf[p];
    *b = s->cl[p];
    for (uint32_t i = s->ov_at[p]; i < s->ov_at[p + 1]; i++) {
        const uint32_t q = s->ov[i];
        if (s->placed[q])
            continue;
        *hatless = false;
        if (s->minoff[q] < above) {
            s->log_idx[s->n_log] = q;
            s->log_old[s->n_log++] = s->minoff[q];
            s->minoff[q] = above;
            if (s->cf[q] < *a)
                *a = s->cf[q];
            if (s->cl[q] > *b)
                *b = s->cl[q];
        }
    }
    for (uint32_t c = s->cf[p]; c <= s->cl[p]; c++) {
        s->total[c] -= x[p].size;
        s->cuts[c] -= c < s->cl[p];
    }
    s->work += s->ov_at[p + 1] - s->ov_at[p] + (s->cl[p] - s->cf[p] + 1);
}

static void take_back(struct srch *s, size_t p, size_t log_mark)
{
    for (uint32_t c = s->cf[p]; c <= s->cl[p]; c++) {
        s->total[c] += s->nodes[p].size;
        s->cuts[c] += c < s->cl[p];
    }
    while (s->n_log > log_mark) {
        s->n_log--;
        s->minoff[s->log_idx[s->n_log]] = s->log_old[s->n_log];
    }
    s->placed[p] = 0;
    s->minoff[p] = s->at[p];
}

static bool cand_before(const struct cand *a, const struct cand *b)
{
    return a->off < b->off || (a->off == b->off && a->rank < b->rank);
}

/* The candidates of the node at depth d (sections [lo, hi)) in
 * s->cands[d n ..): those of the node above it (all tensors at depth 0)
 * unplaced and within the sections, by (lowest offset, rank): the ones
 * whose offset did not change stay in order, the others are sorted and
 * merged in; or the list search_part made. *min_height: the lowest top
 * any of them can reach. */
static size_t candidates(struct srch *s, size_t d, size_t lo, size_t hi, uint64_t *min_height)
{
    struct cand *out = s->cands + d * s->n, *moved = s->tmp;
    const struct cand *in = d ? s->cands + (d - 1) * s->n : NULL;
    size_t m = 0, k = 0, m_in = s->n;
    *min_height = UINT64_MAX;
    if (s->fresh) { /* search_part made this list */
        s->fresh = false;
        while (m < s->n && out[m].pos != UINT32_MAX) {
            const uint64_t size = s->nodes[out[m].pos].size;
            const uint64_t h = out[m].off > UINT64_MAX - size ? UINT64_MAX : out[m].off + size;
            *min_height = h < *min_height ? h : *min_height;
            m++;
        }
        s->work += m;
        return m;
    }
    for (size_t i = 0; i < m_in; i++) {
        const uint32_t q = d ? in[i].pos : (uint32_t)i;
        if (q == UINT32_MAX) {
            m_in = i;
            break; /* the end of the list above */
        }
        if (s->placed[q] || s->cf[q] < lo || s->cl[q] >= hi)
            continue;
        const struct cand e = {s->minoff[q], s->rank[q], q};
        const uint64_t size = s->nodes[q].size;
        const uint64_t h = e.off > UINT64_MAX - size ? UINT64_MAX : e.off + size;
        if (h < *min_height)
            *min_height = h;
        if (d && e.off == in[i].off) {
            out[m++] = e; /* in order */
            continue;
        }
        size_t j = k++; /* insertion: few move at a node */
        while (j > 0 && cand_before(&e, &moved[j - 1])) {
            moved[j] = moved[j - 1];
            j--;
        }
        moved[j] = e;
        s->work += k - j;
    }
    s->work += m_in;
    /* merge moved[0..k) into out[0..m), from the back */
    size_t i = m, j = k, w = m + k;
    while (j > 0) {
        if (i > 0 && cand_before(&moved[j - 1], &out[i - 1]))
            out[--w] = out[--i];
        else
            out[--w] = moved[--j];
    }
    m += k;
    if (m < s->n)
        out[m].pos = UINT32_MAX;
    s->work += k;
    return m;
}

static int dfs(struct srch *s, size_t d, size_t lo, size_t hi, uint64_t last_off,
               int64_t last_rank);

/* The part of sections [lo, hi) at depth d, on its own: its unplaced
 * tensors ranked again by the order (the T key from the sizes still to
 * place), their candidate list at depth d sorted anew, the search run, the
 * ranks put back. */
static int search_part(struct srch *s, size_t d, size_t lo, size_t hi)
{
    uint32_t *part = s->sbuf, *tmp = s->sbuf + s->n;
    size_t m = 0;
    for (size_t p = 0; p < s->n; p++) {
        if (s->placed[p] || s->cf[p] < lo || s->cl[p] >= hi)
            continue;
        struct keys *k = &s->keys[p];
        k->total = w_u64(0);
        for (uint32_t c = s->cf[p]; c <= s->cl[p]; c++)
            if (w_lt(k->total, w_u64(s->total[c])))
                k->total = w_u64(s->total[c]);
        s->work += s->cl[p] - s->cf[p] + 1;
        part[m++] = (uint32_t)p;
    }
    s->work += s->n;
    sort_by(s, part, tmp, m, in_order);
    const size_t mark = s->n_saved;
    for (size_t i = 0; i < m; i++) {
        s->saved[2 * s->n_saved] = part[i];
        s->saved[2 * s->n_saved++ + 1] = s->rank[part[i]];
        s->rank[part[i]] = (uint32_t)i;
    }
    sort_by(s, part, tmp, m, lower_offset); /* stable: by (offset, rank) */
    struct cand *list = s->cands + d * s->n;
    for (size_t i = 0; i < m; i++)
        list[i] = (struct cand){s->minoff[part[i]], s->rank[part[i]], part[i]};
    if (m < s->n)
        list[m].pos = UINT32_MAX;
    s->fresh = true;
    const int r = dfs(s, d, lo, hi, 0, -1);
    while (s->n_saved > mark) {
        s->n_saved--;
        s->rank[s->saved[2 * s->n_saved]] = s->saved[2 * s->n_saved + 1];
    }
    return r;
}

/* Sections [lo, hi) after a placement at depth d: split where no unplaced
 * tensor crosses from a section to the next (minimalloc's dynamic
 * decomposition), each part searched on its own from its start; else the
 * search goes on. */
static int solve_range(struct srch *s, size_t d, size_t lo, size_t hi, uint64_t off, int64_t rank)
{
    size_t cut = lo;
    while (cut + 1 < hi && s->cuts[cut] != 0)
        cut++;
    s->work += cut - lo + 1;
    if (cut + 1 >= hi)
        return dfs(s, d, lo, hi, off, rank);
    for (size_t a = lo; a < hi;) {
        size_t b = a;
        while (b + 1 < hi && s->cuts[b] != 0)
            b++;
        const int r = search_part(s, d, a, b + 1);
        if (r != FOUND)
            return r;
        a = b + 1;
    }
    return FOUND;
}

static int dfs(struct srch *s, size_t d, size_t lo, size_t hi, uint64_t last_off, int64_t last_rank)
{
    const struct dmlt__plan_node *x = s->nodes;
    uint64_t min_height; /* the lowest top an unplaced tensor can reach */
    const size_t m = candidates(s, d, lo, hi, &min_height);
    if (m == 0) { /* this part done: the offsets of the placed */
        for (size_t p = 0; p < s->n; p++)
            if (s->placed[p])
                s->out[p] = s->at[p];
        s->work += s->n;
        return FOUND;
    }
    if (s->work > s->budget)
        return ABORTED;
    const struct cand *list = s->cands + d * s->n;
    for (size_t i = 0; i < m; i++) {
        const uint64_t off = list[i].off;
        const size_t c = list[i].pos;
        s->work++;
        if (off < last_off || (off == last_off && (int64_t)list[i].rank <= last_rank))
            continue; /* canonical: placed in order of (offset, rank) */
        if (off >= min_height)
            break; /* dominated: it and every later one would leave a gap */
        if (x[c].size > s->cap || off > s->cap - x[c].size)
            continue;
        const size_t mark = s->n_log;
        bool hatless;
        size_t a, b;
        put(s, c, off, &hatless, &a, &b);
        int r = bound_holds(s, lo, hi, c, a, b, last_off)
                    ? solve_range(s, d + 1, lo, hi, off, (int64_t)list[i].rank)
                    : NOT_FOUND;
        take_back(s, c, mark);
        if (r != NOT_FOUND)
            return r;
        if (hatless)
            break;
    }
    return NOT_FOUND;
}

int dmlt__search(struct dmlt__plan_node *nodes, size_t n, uint64_t align, uint64_t cap,
                 void *scratch, uint64_t budget, uint64_t *work)
{
    struct srch s = {.nodes = nodes, .n = n, .align = align, .cap = cap};
    carve(&s, scratch);
    setup(&s);
    lists(&s);
    rank_all(&s);
    /* each order in turn with a limit that doubles, as minimalloc's round
     * robin: a search that ends without its limit decides */
    int r = ABORTED; /* unless a step's tensors alone pass the capacity */
    for (size_t c = 0; c < s.t; c++)
        r = s.total[c] > cap ? NOT_FOUND : r;
    for (uint64_t limit = 4096 * (uint64_t)n; r == ABORTED && s.work < budget; limit *= 2) {
        for (unsigned h = 0; h < HEURISTICS && r == ABORTED && s.work < budget; h++) {
            s.rank = s.ranks + h * n;
            s.h = h;
            s.budget = s.work + limit < budget ? s.work + limit : budget;
            for (size_t p = 0; p < n; p++)
                s.out[p] = 0;
            r = solve_range(&s, 0, 0, s.t, 0, -1);
        }
    }
    *work += s.work;
    if (r != FOUND)
        return r == ABORTED ? -1 : 0;
    for (size_t p = 0; p < n; p++)
        nodes[p].off = s.out[p];
    return 1;
}
