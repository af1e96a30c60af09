/* plan.c - one buffer for tensors that live over steps: an offset for each
 * so that two tensors alive at a common step never share a byte, and the
 * buffer (the arena) small. The problem is dynamic storage allocation
 * (NP-hard); the planner is greedy by size with best fit (Pisarchyk & Lee,
 * "Efficient Memory Management for Deep Neural Net Inference", 2020), then
 * other orders, an iterated move of the tensor on top and, for a few
 * tensors, an exhaustive search, within a work budget, keeping the best.
 *
 * Work is counted in overlap visits: a placed tensor looked at while placing
 * another. Tensors are kept sorted by first step with a tree of the largest
 * last step of each block of BLOCK of them, so placing a tensor visits
 * little more than the tensors alive beside it. All memory is the caller's
 * workspace; every offset is checked against 2^64 - 1. */
#include "plan_internal.h"

#include <string.h>

#define BLOCK          16u
#define DEFAULT_BUDGET ((uint64_t)1 << 32)
#define SEARCH_MAX     9u                  /* the exhaustive search: at most this many tensors */
#define BUMP_ROUNDS    256                 /* moves of the tensor on top, at most */
#define SMALL_SORT     48                  /* neighbours sorted in place up to this many */
#define SKY_MORE_MAX   65536u              /* more orders of the skyline up to this many tensors */
#define SEARCH_BUDGET  ((uint64_t)1 << 30) /* the capacity search's work, at most */
#define SEARCH_PER     ((uint64_t)1 << 23) /* and at most this much a tensor */
#define GREEDY_SHARE   1 /* greedy and improvement may take this many times the skyline's work */

typedef struct dmlt__plan_node node_t;

struct ws {
    size_t n;
    uint64_t align;
    node_t *nodes;                                     /* by first step */
    uint32_t *order, *best_order, *tmp, *list, *list2; /* positions in nodes */
    uint64_t *key, *key2;                              /* sort keys, by position */
    uint64_t *lasts; /* the nodes' last steps, packed: what a scan reads first */
    uint32_t *ranks; /* by position: its place in the order being placed (UINT32_MAX: size 0) */
    uint64_t *tree;  /* tree[leaves + b]: the largest last step in block b of the nodes */
    size_t leaves;
    uint64_t work, budget;
    uint64_t best_arena, target;
    uint64_t order_arena; /* the arena of best_order's plan (UINT64_MAX: none kept) */
    void *scratch;        /* the skyline's, over the arrays above (set up again after it) */
};

/* ---- the workspace ------------------------------------------------------- */

static size_t leaves_for(size_t n)
{
    size_t blocks = n / BLOCK + 1, leaves = 1;
    while (leaves < blocks)
        leaves *= 2;
    return leaves;
}

/* The arrays of greedy best fit (per tensor: 3 keys and 6 positions; the
 * tree) and the skyline's scratch share the space after the nodes. */
static size_t region_for(size_t n)
{
    const size_t leaves = leaves_for(n), sky = dmlt__sky_scratch(n);
    const size_t per = 3 * sizeof(uint64_t) + 6 * sizeof(uint32_t);
    if (sky == SIZE_MAX || n > (SIZE_MAX / 4) / per || leaves > (SIZE_MAX / 4) / 16)
        return SIZE_MAX;
    const size_t greedy = n * per + 2 * leaves * sizeof(uint64_t), search = dmlt__search_scratch(n);
    const size_t most = greedy > sky ? greedy : sky;
    return most > search ? most : search;
}

enum dmlt_status dmlt_plan_workspace_size(size_t count, size_t *bytes)
{
    if (bytes == NULL)
        return DMLT_E_INVALID;
    if (count > (size_t)UINT32_MAX - 1u)
        return DMLT_E_RANGE;
    const size_t region = region_for(count);
    if (region == SIZE_MAX || count > (SIZE_MAX / 4) / sizeof(node_t))
        return DMLT_E_RANGE;
    *bytes = count * sizeof(node_t) + region + 8; /* and 8 to align it */
    return DMLT_OK;
}

static void ws_carve(struct ws *w, void *workspace)
{
    uintptr_t p = (uintptr_t)workspace;
    p = (p + 7u) & ~(uintptr_t)7u;
    const size_t n = w->n;
    w->nodes = (node_t *)p;
    uint64_t *u64 = (uint64_t *)(w->nodes + n);
    w->scratch = u64;
    w->key = u64;
    w->key2 = u64 + n;
    w->lasts = u64 + 2 * n;
    w->tree = u64 + 3 * n;
    uint32_t *u32 = (uint32_t *)(w->tree + 2 * w->leaves);
    uint32_t **arrays[] = {&w->order, &w->best_order, &w->tmp, &w->list, &w->list2, &w->ranks};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
        *arrays[i] = u32 + i * n;
}

/* The nodes in order of first steps, each with its pend. */
static void build_index(struct ws *w, const struct dmlt_plan_tensor *t)
{
    uint32_t *byfirst = w->list;
    for (size_t i = 0; i < w->n; i++) {
        byfirst[i] = (uint32_t)i;
        w->key[i] = t[i].first;
    }
    dmlt__plan_sort(byfirst, w->tmp, w->n, w->key, NULL);
    for (size_t p = 0; p < w->n; p++) {
        const struct dmlt_plan_tensor *x = &t[byfirst[p]];
        w->nodes[p] = (node_t){x->first, x->last, x->size_bytes, 0, 0, byfirst[p]};
    }
    for (size_t p = 0; p < w->n; p++) {
        size_t lo = p, hi = w->n; /* the first position past p whose first > last */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (w->nodes[mid].first <= w->nodes[p].last)
                lo = mid + 1;
            else
                hi = mid;
        }
        w->nodes[p].pend = (uint32_t)lo;
    }
}

/* The nodes' last steps packed, and the tree of each block's largest last
 * step above them (the skyline's scratch was over them). */
static void build_tree(struct ws *w)
{
    for (size_t p = 0; p < w->n; p++)
        w->lasts[p] = w->nodes[p].last;
    memset(w->tree, 0, 2 * w->leaves * sizeof *w->tree);
    for (size_t p = 0; p < w->n; p++) {
        uint64_t *leaf = &w->tree[w->leaves + p / BLOCK];
        if (w->nodes[p].last > *leaf)
            *leaf = w->nodes[p].last;
    }
    for (size_t v = w->leaves - 1; v >= 1; v--)
        w->tree[v] = w->tree[2 * v] > w->tree[2 * v + 1] ? w->tree[2 * v] : w->tree[2 * v + 1];
}

/* ---- lower bounds -------------------------------------------------------- */

struct bounds {
    wu128 live_max, aligned_max;
    uint64_t peak_step;
};

static uint64_t rounding(uint64_t size, uint64_t align)
{
    uint64_t r = size & (align - 1);
    return r ? align - r : 0;
}

/* The largest sum of live sizes over the steps (and the first step that
 * has it), and the aligned bound: the sum of live sizes rounded up to the
 * alignment less the largest rounding of any tensor (see dmltensor.h). */
static void lower_bounds(struct ws *w, struct bounds *b)
{
    const node_t *t = w->nodes;
    uint32_t *bylast = w->list;
    uint64_t max_slack = 0;
    for (size_t i = 0; i < w->n; i++) {
        bylast[i] = (uint32_t)i;
        w->key[i] = t[i].last;
        if (rounding(t[i].size, w->align) > max_slack)
            max_slack = rounding(t[i].size, w->align);
    }
    dmlt__plan_sort(bylast, w->tmp, w->n, w->key, NULL);
    wu128 live = w_u64(0), rounded = w_u64(0);
    b->live_max = b->aligned_max = w_u64(0);
    b->peak_step = 0;
    size_t j = 0;
    for (size_t p = 0; p < w->n; p++) {
        const uint64_t step = t[p].first;
        for (; j < w->n && t[bylast[j]].last < step; j++) {
            const node_t *y = &t[bylast[j]];
            live = w_sub(live, w_u64(y->size));
            rounded = w_sub(rounded, w_add64(w_u64(y->size), rounding(y->size, w->align)));
        }
        live = w_add64(live, t[p].size);
        rounded = w_add(rounded, w_add64(w_u64(t[p].size), rounding(t[p].size, w->align)));
        if (p + 1 < w->n && t[p + 1].first == step)
            continue; /* the step is not complete yet */
        if (w_lt(b->live_max, live)) {
            b->live_max = live;
            b->peak_step = step;
        }
        if (w_lt(w_u64(max_slack), rounded)) {
            wu128 a = w_sub(rounded, w_u64(max_slack));
            if (w_lt(b->aligned_max, a))
                b->aligned_max = a;
        }
    }
    if (w_lt(b->aligned_max, b->live_max))
        b->aligned_max = b->live_max;
}

/* ---- greedy placement ---------------------------------------------------- */

/* Adds to list[*m] the positions before pend, placed before rank k, of
 * nonzero size, alive at step a or later: the tensors beside one whose
 * first step is a (positions before pend start at or before its last).
 * The tree is walked from the block of pend leftwards, skipping every
 * subtree whose largest last step is before a: the blocks scanned are
 * those that hold such a tensor, and the climb is O(log n). */
static void collect(struct ws *w, size_t pend, uint64_t a, uint32_t k, size_t *m)
{
    if (pend == 0)
        return;
    size_t v = w->leaves + (pend - 1) / BLOCK;
    for (;;) {
        if (w->tree[v] >= a) {
            if (v < w->leaves) {
                v = 2 * v + 1; /* right to left: the right child first */
                continue;
            }
            const size_t b = v - w->leaves;
            const size_t end = (b + 1) * BLOCK < pend ? (b + 1) * BLOCK : pend;
            /* without branches: half of them would be mispredicted */
            size_t got = *m;
            for (size_t p = b * BLOCK; p < end; p++) {
                w->list[got] = (uint32_t)p; /* got <= the entries scanned before p < n */
                got += (size_t)((w->lasts[p] >= a) & (w->ranks[p] < k));
            }
            *m = got;
            w->work += end - b * BLOCK;
        }
        while (v != 1 && (v & 1) == 0)
            v >>= 1; /* up while v is a left child */
        if (v == 1)
            return;
        v--; /* the subtree just left of v's */
        w->work++;
    }
}

/* The placed tensors alive beside the one at position p (placed before
 * rank k), by offset, in list[0..m). */
static size_t neighbours(struct ws *w, uint32_t p, uint32_t k)
{
    size_t m = 0;
    collect(w, w->nodes[p].pend, w->nodes[p].first, k, &m);
    /* the sort's comparisons count too: m^2 / 4 in place, m log2 m merged */
    uint64_t lg = 1;
    while (((uint64_t)1 << lg) < m)
        lg++;
    w->work += m + (m <= SMALL_SORT ? m * m / 4 : m * lg);
    if (m <= SMALL_SORT) { /* (offset, position) pairs, no indirection */
        struct {
            uint64_t off;
            uint32_t p;
        } pairs[SMALL_SORT];
        for (size_t q = 0; q < m; q++) {
            const uint32_t x = w->list[q];
            const uint64_t off = w->nodes[x].off;
            size_t j = q;
            while (j > 0) { /* pairs[0..q) were set by the passes before */
                // cppcheck-suppress uninitvar
                const uint64_t prev_off = pairs[j - 1].off, prev_p = pairs[j - 1].p;
                if (prev_off < off || (prev_off == off && prev_p < x))
                    break;
                pairs[j] = pairs[j - 1];
                j--;
            }
            pairs[j].off = off;
            pairs[j].p = x;
        }
        for (size_t q = 0; q < m; q++)
            w->list[q] = pairs[q].p;
        return m;
    }
    for (size_t q = 0; q < m; q++)
        w->key[w->list[q]] = w->nodes[w->list[q]].off;
    dmlt__plan_sort(w->list, w->list2, m, w->key, NULL);
    return m;
}

/* The offset for the tensor at position p among list[0..m) (by offset):
 * the start of the smallest gap that holds it (best fit) or of the lowest
 * (first fit), else past them all. False past 2^64 - 1. */
static bool fit(const struct ws *w, uint32_t p, size_t m, bool first_fit, uint64_t *out)
{
    const uint64_t size = w->nodes[p].size;
    uint64_t prev_end = 0, best = 0, best_gap = UINT64_MAX;
    bool found = false;
    for (size_t q = 0; q < m; q++) {
        const node_t *x = &w->nodes[w->list[q]];
        uint64_t start;
        if (!dmlt__round_up(prev_end, w->align, &start))
            return false;
        if (x->off >= start && x->off - start >= size) {
            const uint64_t gap = x->off - start - size;
            if (gap < best_gap) {
                best_gap = gap;
                best = start;
                found = true;
            }
            if (first_fit || gap == 0)
                break;
        }
        const uint64_t end = x->off + x->size; /* checked when placed */
        if (end > prev_end)
            prev_end = end;
    }
    if (!found && !dmlt__round_up(prev_end, w->align, &best))
        return false;
    if (best > UINT64_MAX - size)
        return false;
    *out = best;
    return true;
}

/* Places the tensors in w->order (positions) at their nodes' offsets;
 * *arena their top. False when the work budget runs out, an offset passes
 * 2^64 - 1, or the arena reaches `stop` (no better than a plan kept). */
static bool run(struct ws *w, bool first_fit, uint64_t stop, uint64_t *arena)
{
    for (size_t k = 0; k < w->n; k++)
        w->ranks[w->order[k]] = w->nodes[w->order[k]].size ? (uint32_t)k : UINT32_MAX;
    uint64_t top = 0;
    for (size_t k = 0; k < w->n; k++) {
        const uint32_t p = w->order[k];
        node_t *x = &w->nodes[p];
        x->off = 0;
        if (x->size == 0)
            continue;
        const size_t m = neighbours(w, p, (uint32_t)k);
        if (w->work > w->budget || !fit(w, p, m, first_fit, &x->off))
            return false;
        if (x->off + x->size > top)
            top = x->off + x->size;
        if (stop != UINT64_MAX && top >= stop)
            return false;
    }
    *arena = top;
    return true;
}

/* Keeps the nodes' plan when it is smaller than the best so far; the order
 * placed (w->order) when it is the best order placed so far. */
static bool keep(struct ws *w, uint64_t arena, uint64_t offsets[], enum dmlt_plan_strategy s,
                 struct dmlt_plan_result *r)
{
    if (s != DMLT_PLAN_SKYLINE && arena < w->order_arena) {
        w->order_arena = arena;
        memcpy(w->best_order, w->order, w->n * sizeof *w->order);
    }
    if (arena >= w->best_arena)
        return false;
    w->best_arena = arena;
    for (size_t p = 0; p < w->n; p++)
        offsets[w->nodes[p].id] = w->nodes[p].off;
    r->strategy = s;
    return true;
}

/* The order of strategy s in w->order: positions, ties by position (the
 * order of first steps, then of the caller's indices). Its sort counts as
 * work (n log2 n comparisons); false, and no sort, when that would pass the
 * budget: the order could not be placed anyway (a million tensors: the
 * skyline's plan stands, without four sorts of the million). */
static bool order_for(struct ws *w, enum dmlt_plan_strategy s)
{
    uint64_t lg = 1;
    while (lg < 64 && ((uint64_t)1 << lg) < w->n)
        lg++;
    const uint64_t cost = (uint64_t)w->n * lg; /* n < 2^32 */
    if (w->work > w->budget || cost > w->budget - w->work)
        return false;
    w->work += cost;
    for (size_t p = 0; p < w->n; p++) {
        const node_t *x = &w->nodes[p];
        const uint64_t life = x->last - x->first;
        w->order[p] = (uint32_t)p;
        w->key2[p] = UINT64_MAX - x->size;
        if (s == DMLT_PLAN_GREEDY_LIFETIME) {
            w->key[p] = UINT64_MAX - life;
        } else if (s == DMLT_PLAN_GREEDY_AREA) {
            wu128 area = w_mul64(x->size, life);
            area = w_add64(area, x->size); /* size x (life + 1) < 2^128 */
            w->key[p] = w_fits_u64(area) ? UINT64_MAX - w_low(area) : 0;
        } else {
            w->key[p] = UINT64_MAX - x->size;
        }
    }
    dmlt__plan_sort(w->order, w->tmp, w->n, w->key, s == DMLT_PLAN_GREEDY_SIZE ? NULL : w->key2);
    return true;
}

/* ---- improvement --------------------------------------------------------- */

/* From the best order: the last-placed tensor that reaches the top moves to
 * the front, and the order is placed again; repeated from the new order,
 * keeping any better plan. */
static void bump(struct ws *w, uint64_t offsets[], struct dmlt_plan_result *r)
{
    uint64_t arena;
    memcpy(w->order, w->best_order, w->n * sizeof *w->order);
    if (w->order_arena == UINT64_MAX || !run(w, false, UINT64_MAX, &arena))
        return; /* no order placed, or the budget ran out placing it again */
    for (int round = 0; round < BUMP_ROUNDS && w->best_arena > w->target; round++) {
        size_t at = 0;
        for (size_t k = 0; k < w->n; k++) {
            const node_t *x = &w->nodes[w->order[k]];
            if (x->size != 0 && x->off + x->size == arena)
                at = k;
        }
        if (at == 0)
            return; /* the first tensor is on top: moving it changes nothing */
        const uint32_t moved = w->order[at];
        memmove(w->order + 1, w->order, at * sizeof *w->order);
        w->order[0] = moved;
        if (!run(w, false, UINT64_MAX, &arena))
            return;
        keep(w, arena, offsets, DMLT_PLAN_BUMPED, r);
    }
}

/* The exhaustive search over orders, each tensor at the lowest offset that
 * fits: some order gives an optimal plan (place an optimal plan's tensors
 * by increasing offset: each lands at or below its optimal offset). */
struct search {
    struct ws *w;
    uint32_t ids[SEARCH_MAX]; /* positions */
    uint64_t off[SEARCH_MAX];
    bool used[SEARCH_MAX];
    uint32_t placed[SEARCH_MAX];
    unsigned n;
    bool found;
};

static uint64_t lowest_fit(struct search *s, unsigned depth, uint32_t c, bool *ok)
{
    const node_t *t = s->w->nodes, *x = &t[s->ids[c]];
    uint32_t near[SEARCH_MAX] = {0};
    unsigned m = 0;
    for (unsigned q = 0; q < depth; q++) {
        const node_t *y = &t[s->ids[s->placed[q]]];
        if (y->first <= x->last && x->first <= y->last) {
            unsigned p = m++;
            while (p > 0 && s->off[near[p - 1]] > s->off[s->placed[q]]) {
                near[p] = near[p - 1];
                p--;
            }
            near[p] = s->placed[q];
        }
    }
    s->w->work += m + 1;
    uint64_t start = 0, prev_end = 0;
    for (unsigned q = 0; q <= m; q++) {
        *ok = dmlt__round_up(prev_end, s->w->align, &start) && start <= UINT64_MAX - x->size;
        if (!*ok || q == m || s->off[near[q]] >= start + x->size)
            return start;
        const uint64_t end = s->off[near[q]] + t[s->ids[near[q]]].size;
        if (end > prev_end)
            prev_end = end;
    }
    return start;
}

static void search(struct search *s, unsigned depth, uint64_t top, uint64_t offsets[])
{
    struct ws *w = s->w;
    if (w->work > w->budget || w->best_arena <= w->target)
        return;
    if (depth == s->n) {
        w->best_arena = top;
        for (unsigned q = 0; q < s->n; q++)
            offsets[w->nodes[s->ids[q]].id] = s->off[q];
        s->found = true;
        return;
    }
    for (uint32_t c = 0; c < s->n; c++) {
        if (s->used[c])
            continue;
        bool ok;
        const uint64_t o = lowest_fit(s, depth, c, &ok);
        const uint64_t end = o + w->nodes[s->ids[c]].size;
        if (!ok || end >= w->best_arena)
            continue;
        s->used[c] = true;
        s->off[c] = o;
        s->placed[depth] = c;
        search(s, depth + 1, end > top ? end : top, offsets);
        s->used[c] = false;
    }
}

static void improve(struct ws *w, uint64_t offsets[], struct dmlt_plan_result *r)
{
    static const enum dmlt_plan_strategy orders[] = {
        DMLT_PLAN_GREEDY_AREA, DMLT_PLAN_GREEDY_LIFETIME, DMLT_PLAN_GREEDY_FIRST_FIT};
    for (size_t q = 0; q < sizeof orders / sizeof orders[0] && w->best_arena > w->target; q++) {
        uint64_t arena;
        if (!order_for(w,
                       orders[q] == DMLT_PLAN_GREEDY_FIRST_FIT ? DMLT_PLAN_GREEDY_SIZE : orders[q]))
            break;
        if (run(w, orders[q] == DMLT_PLAN_GREEDY_FIRST_FIT, w->best_arena, &arena))
            keep(w, arena, offsets, orders[q], r);
    }
    if (w->best_arena > w->target)
        bump(w, offsets, r);
    struct search s = {.w = w};
    for (size_t p = 0; p < w->n; p++) {
        if (w->nodes[p].size == 0)
            continue;
        if (s.n == SEARCH_MAX)
            return;
        s.ids[s.n++] = (uint32_t)p;
    }
    if (w->best_arena > w->target) {
        search(&s, 0, 0, offsets);
        if (s.found)
            r->strategy = DMLT_PLAN_SEARCH;
    }
}

/* ---- the call ------------------------------------------------------------ */

static enum dmlt_status plan_invalid(struct dmlt_error *err, size_t index)
{
    if (err != NULL) {
        err->dim = -1;
        err->value = dmlt_u128_from_u64((uint64_t)index);
        err->limit = dmlt_u128_from_u64(0);
    }
    return DMLT_E_INVALID;
}

/* Each tensor after the one before it: the plan when the work budget ran
 * out before greedy by size finished. */
static bool stacked(struct ws *w, const struct dmlt_plan_tensor t[], uint64_t offsets[])
{
    uint64_t end = 0;
    for (size_t i = 0; i < w->n; i++) {
        offsets[i] = 0;
        if (t[i].size_bytes == 0)
            continue;
        if (!dmlt__round_up(end, w->align, &offsets[i]) ||
            offsets[i] > UINT64_MAX - t[i].size_bytes)
            return false;
        end = offsets[i] + t[i].size_bytes;
    }
    w->best_arena = end;
    return true;
}

/* Some orders of the skyline placement, while the budget lasts (the first
 * always: O(n log n)); the greedy best-fit arrays set up after them. */
static void skyline(struct ws *w, uint64_t offsets[], struct dmlt_plan_result *r)
{
    static const enum dmlt__sky_order orders[] = {DMLT__SKY_WIDTH, DMLT__SKY_SIZE, DMLT__SKY_AREA};
    for (size_t q = 0; q < sizeof orders / sizeof orders[0] && w->best_arena > w->target; q++) {
        uint64_t arena;
        if (q > 0 && (w->work > w->budget || w->n > SKY_MORE_MAX))
            break; /* the other orders for plans of up to SKY_MORE_MAX tensors */
        if (dmlt__sky_place(w->nodes, w->n, w->align, orders[q], w->scratch, &arena, &w->work))
            keep(w, arena, offsets, DMLT_PLAN_SKYLINE, r);
    }
    build_tree(w);
}

/* The yes/no search (plan_search.c) at the aligned lower bound, then, while
 * it proves a capacity infeasible, halfway up to the best plan so far: the
 * least capacity within search_budget() units of work: a quarter of it at
 * the lower bound, a sixteenth each capacity after. */
static uint64_t search_budget(size_t n)
{
    return n < SEARCH_BUDGET / SEARCH_PER ? n * SEARCH_PER : SEARCH_BUDGET;
}

static void search_capacity(struct ws *w, uint64_t offsets[], struct dmlt_plan_result *r)
{
    if (w->n > DMLT__SEARCH_N)
        return;
    uint64_t lo = w->target, hi = w->best_arena - 1, spent = 0;
    uint64_t budget = search_budget(w->n); /* and what is left of the caller's */
    const uint64_t first = budget / 4, probe_each = budget / 16;
    if (w->work >= w->budget)
        return;
    if (w->budget - w->work < budget)
        budget = w->budget - w->work;
    while (lo <= hi && spent < budget) {
        const uint64_t cap = lo == w->target ? lo : lo + (hi - lo) / 2;
        uint64_t used = 0;
        const uint64_t left = budget - spent;
        const uint64_t probe = lo == w->target ? first : probe_each;
        const int found = dmlt__search(w->nodes, w->n, w->align, cap, w->scratch,
                                       left < probe ? left : probe, &used);
        spent += used;
        w->work += used;
        if (found <= 0) { /* none below cap, or none found in time: higher */
            lo = cap + 1;
            continue;
        }
        uint64_t arena = 0;
        for (size_t p = 0; p < w->n; p++)
            if (w->nodes[p].size && w->nodes[p].off + w->nodes[p].size > arena)
                arena = w->nodes[p].off + w->nodes[p].size;
        keep(w, arena, offsets, DMLT_PLAN_CAPACITY_SEARCH, r);
        hi = arena - 1;
    }
}

/* Every strategy in turn, the best plan kept in offsets (see dmltensor.h);
 * false when every plan tried passes 2^64 - 1. */
static bool place_all(struct ws *w, const struct dmlt_plan_tensor t[], unsigned flags,
                      uint64_t offsets[], struct dmlt_plan_result *r)
{
    const bool only_greedy = (flags & DMLT_PLAN_ONLY_GREEDY) != 0;
    w->best_arena = w->order_arena = UINT64_MAX;
    if (only_greedy) {
        build_tree(w);
    } else {
        skyline(w, offsets, r);
        /* The rest: up to GREEDY_SHARE times the skyline's work (up to
         * SKY_MORE_MAX tensors), 2^24, and the capacity search's budget
         * (up to DMLT__SEARCH_N tensors). */
        const uint64_t more = (w->n <= SKY_MORE_MAX ? w->work * GREEDY_SHARE : 0) +
                              ((uint64_t)1 << 24) +
                              (w->n <= DMLT__SEARCH_N ? search_budget(w->n) : 0);
        if (w->work <= (UINT64_MAX >> 5) && w->work + more < w->budget)
            w->budget = w->work + more;
    }
    uint64_t arena;
    if (w->best_arena > w->target && order_for(w, DMLT_PLAN_GREEDY_SIZE) &&
        run(w, false, UINT64_MAX, &arena)) {
        r->greedy_arena_bytes = arena;
        keep(w, arena, offsets, DMLT_PLAN_GREEDY_SIZE, r);
    }
    if (!only_greedy && w->best_arena > w->target)
        improve(w, offsets, r);
    if (!only_greedy && w->best_arena > w->target && w->best_arena != UINT64_MAX)
        search_capacity(w, offsets, r);
    if (w->best_arena == UINT64_MAX) { /* nothing placed: each after the one before */
        if (!stacked(w, t, offsets))
            return false;
        r->strategy = DMLT_PLAN_STACKED;
        if (only_greedy)
            r->greedy_arena_bytes = w->best_arena;
    }
    if (w->best_arena == 0)
        r->strategy = DMLT_PLAN_NONE;
    return true;
}

static enum dmlt_status check_args(const struct dmlt_plan_tensor tensors[], size_t count,
                                   const struct dmlt_plan_options *o, size_t workspace_size,
                                   const struct dmlt_plan_result *r, struct dmlt_error *err)
{
    size_t need = 0;
    enum dmlt_status st = count ? dmlt_plan_workspace_size(count, &need) : DMLT_OK;
    if (st != DMLT_OK)
        return st;
    if (o == NULL || r == NULL || r->size < offsetof(struct dmlt_plan_result, strategy) ||
        o->alignment == 0 || (o->alignment & (o->alignment - 1)) != 0 || workspace_size < need)
        return plan_invalid(err, 0);
    for (size_t i = 0; i < count; i++)
        if (tensors[i].last < tensors[i].first)
            return plan_invalid(err, i);
    return DMLT_OK;
}

enum dmlt_status dmlt_plan(const struct dmlt_plan_tensor tensors[], size_t count,
                           const struct dmlt_plan_options *options, void *workspace,
                           size_t workspace_size, uint64_t offsets[],
                           struct dmlt_plan_result *result, struct dmlt_error *err)
{
    if (count > 0 && (tensors == NULL || workspace == NULL || offsets == NULL))
        return plan_invalid(err, 0);
    enum dmlt_status st = check_args(tensors, count, options, workspace_size, result, err);
    if (st != DMLT_OK)
        return st;
    struct ws w = {.n = count, .align = options->alignment};
    w.leaves = leaves_for(count);
    w.budget = options->work_budget ? options->work_budget : DEFAULT_BUDGET;
    struct dmlt_plan_result r;
    memset(&r, 0, sizeof r);
    r.size = result->size;
    if (count > 0) {
        ws_carve(&w, workspace);
        build_index(&w, tensors);
        struct bounds b;
        lower_bounds(&w, &b);
        if (!w_fits_u64(b.aligned_max)) {
            if (err != NULL) {
                err->dim = -1;
                err->value = w_to_pub(b.aligned_max);
                err->limit = dmlt_u128_from_u64(UINT64_MAX);
            }
            return DMLT_E_RANGE;
        }
        r.lower_bound_bytes = w_low(b.live_max);
        r.aligned_lower_bound_bytes = w_low(b.aligned_max);
        r.peak_step = b.peak_step;
        w.target = r.aligned_lower_bound_bytes;
        if (!place_all(&w, tensors, options->flags, offsets, &r))
            return DMLT_E_RANGE;
        r.arena_bytes = w.best_arena;
        wu128 sum = w_u64(0);
        for (size_t i = 0; i < count; i++)
            sum = w_add64(sum, tensors[i].size_bytes); /* count < 2^32: no wrap */
        r.sum_bytes = w_to_pub(sum);
        r.work = w.work;
    }
    memcpy(result, &r, result->size < sizeof r ? result->size : sizeof r);
    return DMLT_OK;
}
