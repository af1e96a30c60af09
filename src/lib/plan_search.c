/* plan_search.c - a yes/no search for a plan within a capacity, after
 * google/minimalloc (Moffitt, "MiniMalloc: A Lightweight Memory Allocator
 * for Hardware-Accelerated Machine Learning", ASPLOS 2024), for plans of up
 * to DMLT__SEARCH_N tensors:
 *  - canonical placement: tensors are placed in nondecreasing order of
 *    (offset, rank), each at its lowest offset above every placed tensor
 *    alive beside it (some optimal plan is reached this way);
 *  - candidates by that lowest offset, then by rank (longest lifetime, then
 *    largest size);
 *  - the section bound: at every step (section), the tensors still to
 *    place that are alive there stack above both the current offset and
 *    the top of the placed ones there: that sum must stay within the
 *    capacity;
 *  - dominance: a tensor whose lowest offset is at or above the lowest top
 *    any unplaced tensor could reach would leave a gap that one fills;
 *  - a tensor alive beside no unplaced one ("hatless") that fails ends the
 *    node: no other choice there can do better.
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

struct srch {
    struct dmlt__plan_node *nodes;
    size_t n, t, nz;
    uint64_t align, cap;
    uint32_t *cf, *cl;    /* by position: first, last coordinate */
    uint32_t *ranks;      /* HEURISTICS x n: the rank of each (0 first) in each order */
    const uint32_t *rank; /* the order of this search */
    uint32_t *cuts;       /* by section s: the unplaced tensors alive at s and s + 1 */
    uint64_t *minoff;     /* by position: the lowest offset it may take */
    uint8_t *placed;      /* by position */
    uint64_t *floor;      /* by section: the top of the placed tensors there */
    uint64_t *low;        /* by section: the lowest offset an unplaced one there may take */
    wu128 *total;         /* by section: the sizes still to place there */
    uint32_t *log_idx;    /* minoff changes: which */
    uint64_t *log_old;    /* and the value before; floors before, in a second stack */
    uint64_t *flog;
    size_t n_log, n_flog;
    uint64_t work, budget;
    uint64_t *out;     /* by position: the offsets of the plan found */
    struct keys *keys; /* by position: the preorders' keys */
};

static size_t sections_for(size_t n)
{
    return 2 * n + 1;
}

size_t dmlt__search_scratch(size_t n)
{
    if (n > DMLT__SEARCH_N)
        return 0;
    const size_t s = sections_for(n);
    /* per tensor: 3 u32, minoff, out, placed; per section: floor, total;
     * the logs: n^2 minoff changes (12 bytes), n x sections floors */
    return n * (2 * 4 + HEURISTICS * 4 + 8 + 8 + 1) + s * (8 + 8 + 16 + 4) + n * n * 12 +
           n * s * 8 + n * sizeof(struct keys) + 96;
}

static void carve(struct srch *s, void *scratch)
{
    const size_t n = s->n, c = sections_for(n);
    uint8_t *p = (uint8_t *)(((uintptr_t)scratch + 15u) & ~(uintptr_t)15u);
    s->total = (wu128 *)(void *)p;
    s->floor = (uint64_t *)(s->total + c);
    s->low = s->floor + c;
    s->minoff = s->low + c;
    s->out = s->minoff + n;
    s->log_old = s->out + n;
    s->flog = s->log_old + n * n;
    s->log_idx = (uint32_t *)(s->flog + n * c);
    s->cf = s->log_idx + n * n;
    s->cl = s->cf + n;
    s->ranks = s->cl + n;
    s->cuts = s->ranks + HEURISTICS * n;
    s->placed = (uint8_t *)(s->cuts + c);
    s->keys = (struct keys *)(void *)(((uintptr_t)(s->placed + n) + 15u) & ~(uintptr_t)15u);
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
            if (w_lt(k[p].total, s->total[c]))
                k[p].total = s->total[c];
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

/* The sections (the distinct first and last steps), each tensor's, its
 * rank, and the sizes alive in each section. n is small (at most
 * DMLT__SEARCH_N): plain quadratic loops. */
static void setup(struct srch *s)
{
    const struct dmlt__plan_node *x = s->nodes;
    uint64_t *v = s->floor; /* 2n + 1 entries: the endpoints, sorted */
    size_t m = 0;
    for (size_t p = 0; p < s->n; p++) {
        const uint64_t e[2] = {x[p].first, x[p].last};
        for (int k = 0; k < 2; k++) {
            size_t j = m++;
            while (j > 0 && v[j - 1] > e[k]) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = e[k];
        }
    }
    size_t t = 0;
    for (size_t i = 0; i < m; i++)
        if (t == 0 || v[t - 1] != v[i])
            v[t++] = v[i];
    s->t = t;
    s->nz = 0;
    for (size_t p = 0; p < s->n; p++) {
        s->cf[p] = (uint32_t)find(v, t, x[p].first);
        s->cl[p] = (uint32_t)find(v, t, x[p].last);
        s->minoff[p] = 0;
        s->placed[p] = x[p].size == 0;
        s->nz += x[p].size != 0;
    }
    for (size_t c = 0; c < t; c++) {
        s->floor[c] = 0;
        s->total[c] = w_u64(0);
        s->cuts[c] = 0;
    }
    for (size_t p = 0; p < s->n; p++) {
        for (uint32_t c = s->cf[p]; c <= s->cl[p] && x[p].size; c++) {
            s->total[c] = w_add64(s->total[c], x[p].size);
            s->cuts[c] += c < s->cl[p];
        }
    }
    s->work += (uint64_t)s->n * s->n + (uint64_t)s->n * t;
}

/* The section bound with the next tensor placed at off: at each section,
 * the tensors still to place there stack above the lowest offset any of
 * them may take (minimalloc's floor of the unallocated), and above off. */
static bool bound_holds(struct srch *s, size_t lo, size_t hi, uint64_t off)
{
    for (size_t c = lo; c < hi; c++)
        s->low[c] = UINT64_MAX;
    for (size_t q = 0; q < s->n; q++) {
        if (s->placed[q] || s->cf[q] < lo || s->cl[q] >= hi)
            continue;
        for (uint32_t c = s->cf[q]; c <= s->cl[q]; c++)
            if (s->minoff[q] < s->low[c])
                s->low[c] = s->minoff[q];
        s->work += s->cl[q] - s->cf[q] + 1;
    }
    s->work += hi - lo + s->n;
    for (size_t c = lo; c < hi; c++) {
        if (s->low[c] == UINT64_MAX)
            continue; /* nothing left to place there */
        const uint64_t f = s->low[c] > off ? s->low[c] : off;
        if (w_lt(w_u64(s->cap), w_add64(s->total[c], f)))
            return false;
    }
    return true;
}

/* Places p at off: the lowest offsets of the unplaced beside it rise to its
 * aligned top, the floors of its sections to its top. *hatless: it is
 * beside no unplaced tensor. */
static void put(struct srch *s, size_t p, uint64_t off, bool *hatless)
{
    const struct dmlt__plan_node *x = s->nodes;
    const uint64_t top = off + x[p].size; /* checked by the caller */
    uint64_t above;
    if (!dmlt__round_up(top, s->align, &above))
        above = UINT64_MAX;
    s->placed[p] = 1;
    *hatless = true;
    for (size_t q = 0; q < s->n; q++) {
        if (s->placed[q] || s->cf[q] > s->cl[p] || s->cf[p] > s->cl[q])
            continue;
        *hatless = false;
        if (s->minoff[q] < above) {
            s->log_idx[s->n_log] = (uint32_t)q;
            s->log_old[s->n_log++] = s->minoff[q];
            s->minoff[q] = above;
        }
    }
    for (uint32_t c = s->cf[p]; c <= s->cl[p]; c++) {
        s->flog[s->n_flog++] = s->floor[c];
        s->floor[c] = top;
        s->total[c] = w_sub(s->total[c], w_u64(x[p].size));
        s->cuts[c] -= c < s->cl[p];
    }
    s->work += s->n + (s->cl[p] - s->cf[p] + 1);
}

static void take_back(struct srch *s, size_t p, size_t log_mark)
{
    for (uint32_t c = s->cl[p] + 1; c-- > s->cf[p];) {
        s->floor[c] = s->flog[--s->n_flog];
        s->total[c] = w_add64(s->total[c], s->nodes[p].size);
        s->cuts[c] += c < s->cl[p];
    }
    while (s->n_log > log_mark) {
        s->n_log--;
        s->minoff[s->log_idx[s->n_log]] = s->log_old[s->n_log];
    }
    s->placed[p] = 0;
}

/* The unplaced tensor next after (off, rank) in the order of (lowest
 * offset, rank), or SIZE_MAX. */
static size_t next_candidate(struct srch *s, size_t lo, size_t hi, uint64_t off, int64_t rank)
{
    size_t at = SIZE_MAX;
    for (size_t q = 0; q < s->n; q++) {
        if (s->placed[q] || s->cf[q] < lo || s->cl[q] >= hi)
            continue;
        const uint64_t o = s->minoff[q];
        const int64_t r = s->rank[q];
        if (o < off || (o == off && r <= rank))
            continue;
        if (at == SIZE_MAX || o < s->minoff[at] || (o == s->minoff[at] && r < s->rank[at]))
            at = q;
    }
    s->work += s->n;
    return at;
}

static int dfs(struct srch *s, size_t lo, size_t hi, uint64_t last_off, int64_t last_rank);

/* Sections [lo, hi) after a placement: split where no unplaced tensor
 * crosses from a section to the next (minimalloc's dynamic decomposition),
 * each part searched on its own from its start; else the search goes on. */
static int solve_range(struct srch *s, size_t lo, size_t hi, uint64_t off, int64_t rank)
{
    size_t cut = lo;
    while (cut + 1 < hi && s->cuts[cut] != 0)
        cut++;
    s->work += cut - lo + 1;
    if (cut + 1 >= hi)
        return dfs(s, lo, hi, off, rank);
    for (size_t a = lo; a < hi;) {
        size_t b = a;
        while (b + 1 < hi && s->cuts[b] != 0)
            b++;
        const int r = dfs(s, a, b + 1, 0, -1);
        if (r != FOUND)
            return r;
        a = b + 1;
    }
    return FOUND;
}

static int dfs(struct srch *s, size_t lo, size_t hi, uint64_t last_off, int64_t last_rank)
{
    const struct dmlt__plan_node *x = s->nodes;
    wu128 min_height = w_max(); /* the lowest top an unplaced tensor can reach */
    bool any = false;
    for (size_t q = 0; q < s->n; q++) {
        if (s->placed[q] || s->cf[q] < lo || s->cl[q] >= hi)
            continue;
        any = true;
        if (w_lt(w_add64(w_u64(s->minoff[q]), x[q].size), min_height))
            min_height = w_add64(w_u64(s->minoff[q]), x[q].size);
    }
    s->work += s->n;
    if (!any) { /* this part done: the offsets of the placed */
        for (size_t p = 0; p < s->n; p++)
            if (s->placed[p])
                s->out[p] = x[p].size ? s->minoff[p] : 0;
        return FOUND;
    }
    if (s->work > s->budget)
        return ABORTED;
    uint64_t off = last_off;
    int64_t rank = last_rank;
    for (;;) {
        const size_t c = next_candidate(s, lo, hi, off, rank);
        if (c == SIZE_MAX)
            break;
        off = s->minoff[c];
        rank = s->rank[c];
        if (!w_lt(w_u64(off), min_height))
            break; /* dominated: it and every later one would leave a gap */
        if (x[c].size > s->cap || off > s->cap - x[c].size)
            continue;
        const size_t mark = s->n_log;
        bool hatless;
        put(s, c, off, &hatless); /* minoff[c] stays its offset */
        int r = bound_holds(s, lo, hi, off) ? solve_range(s, lo, hi, off, rank) : NOT_FOUND;
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
    rank_all(&s);
    /* each order in turn with a limit that doubles, as minimalloc's round
     * robin: a search that ends without its limit decides */
    int r = ABORTED;
    for (uint64_t limit = 4096 * (uint64_t)n; r == ABORTED && s.work < budget; limit *= 2) {
        for (unsigned h = 0; h < HEURISTICS && r == ABORTED && s.work < budget; h++) {
            s.rank = s.ranks + h * n;
            s.budget = s.work + limit < budget ? s.work + limit : budget;
            for (size_t p = 0; p < n; p++)
                s.out[p] = 0;
            r = solve_range(&s, 0, s.t, 0, -1);
        }
    }
    *work += s.work;
    if (r != FOUND)
        return r == ABORTED ? -1 : 0;
    for (size_t p = 0; p < n; p++)
        nodes[p].off = s.out[p];
    return 1;
}
