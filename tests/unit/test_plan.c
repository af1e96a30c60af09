/* dmlt_plan against an independent checker and against brute force.
 *
 * The checker knows nothing of the planner: for every plan it checks that
 * no two tensors alive at a common step share a byte (every pair), that
 * every offset is a multiple of the alignment, and recomputes the arena,
 * both lower bounds, the peak step and the sum step by step. Brute force:
 * for small random plans the optimum, the least arena over every order of
 * placement with each tensor at the lowest offset that fits (some order
 * gives an optimal plan: place an optimal plan's tensors by increasing
 * offset, each lands at or below its optimal offset), itself checked on
 * the smallest plans against every assignment of aligned offsets. */
#include "check.h"
#include "plan_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_T 4096

static struct dmlt_plan_tensor T[MAX_T];
static uint64_t OFF[MAX_T];

static bool alive_together(const struct dmlt_plan_tensor *a, const struct dmlt_plan_tensor *b)
{
    return a->first <= b->last && b->first <= a->last;
}

static uint64_t round_up_ref(uint64_t v, uint64_t a)
{
    return (uint64_t)(((ref_u128)v + a - 1) / a * a);
}

/* The checker: true when the plan is right. */
static bool check_plan(size_t n, uint64_t align, const uint64_t *off,
                       const struct dmlt_plan_result *r)
{
    bool ok = true;
    ref_u128 top = 0, sum = 0;
    uint64_t max_slack = 0;
    for (size_t i = 0; i < n; i++) {
        sum += T[i].size_bytes;
        ok &= CHECK_EQ(off[i] % align, 0);
        if (T[i].size_bytes == 0)
            continue;
        if ((ref_u128)off[i] + T[i].size_bytes > top)
            top = (ref_u128)off[i] + T[i].size_bytes;
        uint64_t slack = round_up_ref(T[i].size_bytes, align) - T[i].size_bytes;
        if (slack > max_slack)
            max_slack = slack;
        for (size_t j = 0; j < i; j++) {
            if (T[j].size_bytes == 0 || !alive_together(&T[i], &T[j]))
                continue;
            bool apart = (ref_u128)off[i] + T[i].size_bytes <= off[j] ||
                         (ref_u128)off[j] + T[j].size_bytes <= off[i];
            if (!apart)
                fprintf(stderr, "tensors %zu and %zu share bytes\n", j, i);
            ok &= CHECK(apart);
        }
    }
    ok &= CHECK_EQ(top, R(dmlt_u128_from_u64(r->arena_bytes)));
    ok &= CHECK_EQ(sum, R(r->sum_bytes));
    /* Step by step: only the steps where a tensor starts can hold the max. */
    ref_u128 lb = 0, alb = 0;
    uint64_t peak = 0;
    for (size_t s = 0; s < n; s++) {
        uint64_t step = T[s].first;
        ref_u128 live = 0, rounded = 0;
        for (size_t i = 0; i < n; i++) {
            if (T[i].first <= step && step <= T[i].last) {
                live += T[i].size_bytes;
                rounded += (ref_u128)T[i].size_bytes +
                           (round_up_ref(T[i].size_bytes, align) - T[i].size_bytes);
            }
        }
        if (live > lb || (live == lb && live > 0 && step < peak)) {
            lb = live;
            peak = step;
        }
        if (rounded > max_slack && rounded - max_slack > alb)
            alb = rounded - max_slack;
    }
    if (alb < lb)
        alb = lb;
    ok &= CHECK_EQ(lb, r->lower_bound_bytes);
    ok &= CHECK_EQ(alb, r->aligned_lower_bound_bytes);
    if (lb > 0)
        ok &= CHECK_EQ(peak, r->peak_step);
    ok &= CHECK(r->arena_bytes >= r->aligned_lower_bound_bytes);
    /* greedy by size alone, when it ran to the end (0: stopped early) */
    ok &= CHECK(r->greedy_arena_bytes == 0 || r->arena_bytes <= r->greedy_arena_bytes);
    return ok;
}

static enum dmlt_status plan(size_t n, uint64_t align, unsigned flags, uint64_t budget,
                             struct dmlt_plan_result *r)
{
    size_t bytes;
    if (dmlt_plan_workspace_size(n, &bytes) != DMLT_OK)
        return DMLT_E_RANGE;
    void *ws = malloc(bytes);
    struct dmlt_plan_options o = {align, flags, budget};
    struct dmlt_error err;
    r->size = sizeof *r;
    enum dmlt_status st = dmlt_plan(T, n, &o, ws, bytes, OFF, r, &err);
    free(ws);
    return st;
}

/* ---- brute force ---------------------------------------------------------- */

struct brute {
    size_t n;
    uint64_t align, best;
    uint64_t off[16];
    bool used[16];
    size_t placed[16];
};

static uint64_t lowest(struct brute *b, size_t depth, size_t c)
{
    /* Try each candidate start: 0 and the aligned end of each placed
     * neighbour; the lowest that fits. */
    uint64_t best = UINT64_MAX;
    for (size_t q = 0; q <= depth; q++) {
        uint64_t start = 0;
        if (q < depth) {
            size_t p = b->placed[q];
            if (!alive_together(&T[p], &T[c]))
                continue;
            start = round_up_ref(b->off[p] + T[p].size_bytes, b->align);
        }
        bool fits = true;
        for (size_t u = 0; u < depth && fits; u++) {
            size_t p = b->placed[u];
            if (alive_together(&T[p], &T[c]) && T[p].size_bytes &&
                start < b->off[p] + T[p].size_bytes && b->off[p] < start + T[c].size_bytes)
                fits = false;
        }
        if (fits && start < best)
            best = start;
    }
    return best;
}

static void brute_orders(struct brute *b, size_t depth, uint64_t top)
{
    if (top >= b->best)
        return;
    if (depth == b->n) {
        b->best = top;
        return;
    }
    for (size_t c = 0; c < b->n; c++) {
        if (b->used[c])
            continue;
        uint64_t o = T[c].size_bytes ? lowest(b, depth, c) : 0;
        uint64_t end = o + T[c].size_bytes;
        b->used[c] = true;
        b->off[c] = o;
        b->placed[depth] = c;
        brute_orders(b, depth + 1, end > top ? end : top);
        b->used[c] = false;
    }
}

/* Every assignment of aligned offsets below `limit`: the optimum by
 * definition, for the smallest plans. */
static void brute_offsets(struct brute *b, size_t i, uint64_t limit)
{
    if (i == b->n) {
        uint64_t top = 0;
        for (size_t p = 0; p < b->n; p++)
            if (T[p].size_bytes && b->off[p] + T[p].size_bytes > top)
                top = b->off[p] + T[p].size_bytes;
        if (top < b->best)
            b->best = top;
        return;
    }
    for (uint64_t o = 0; o < limit; o += b->align) {
        bool fits = true;
        for (size_t p = 0; p < i && fits; p++)
            if (T[p].size_bytes && T[i].size_bytes && alive_together(&T[p], &T[i]) &&
                o < b->off[p] + T[p].size_bytes && b->off[p] < o + T[i].size_bytes)
                fits = false;
        if (!fits)
            continue;
        b->off[i] = o;
        brute_offsets(b, i + 1, limit);
        if (T[i].size_bytes == 0)
            break;
    }
}

static void random_plan(size_t n, uint64_t steps, uint64_t max_size)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t a = check_rand() % steps, len = check_rand() % (steps / 4 + 2);
        T[i].first = a;
        T[i].last = a + len;
        T[i].size_bytes = check_rand() % 16 == 0 ? 0 : 1 + check_rand() % max_size;
    }
}

static void test_bruteforce(void)
{
    unsigned at_opt = 0, greedy_at_opt = 0, runs = 0;
    double worst = 1, greedy_worst = 1, sum_ratio = 0, greedy_sum = 0;
    for (int iter = 0; iter < 1500; iter++) {
        size_t n = 2 + check_rand() % 7; /* 2..8 */
        uint64_t align = (uint64_t)1 << (check_rand() % 4);
        random_plan(n, 2 + check_rand() % 10, 1 + check_rand() % 40);
        struct brute b = {.n = n, .align = align, .best = UINT64_MAX};
        brute_orders(&b, 0, 0);
        struct dmlt_plan_result r, g;
        if (!CHECK_EQ(plan(n, align, 0, 0, &r), DMLT_OK) || !check_plan(n, align, OFF, &r))
            continue;
        CHECK_EQ(plan(n, align, DMLT_PLAN_ONLY_GREEDY, 0, &g), DMLT_OK);
        check_plan(n, align, OFF, &g);
        CHECK(r.arena_bytes >= b.best);
        /* Up to 9 tensors the planner searches every order itself. */
        CHECK_EQ(r.arena_bytes, b.best);
        runs++;
        double q = b.best ? (double)r.arena_bytes / (double)b.best : 1;
        double gq = b.best ? (double)g.arena_bytes / (double)b.best : 1;
        at_opt += r.arena_bytes == b.best;
        greedy_at_opt += g.arena_bytes == b.best;
        worst = q > worst ? q : worst;
        greedy_worst = gq > greedy_worst ? gq : greedy_worst;
        sum_ratio += q;
        greedy_sum += gq;
    }
    printf("brute force, %u plans of 2..8 tensors: planner at the optimum in %u (mean %.4fx, "
           "worst %.3fx); greedy by size alone in %u (mean %.4fx, worst %.3fx)\n",
           runs, at_opt, sum_ratio / runs, worst, greedy_at_opt, greedy_sum / runs, greedy_worst);
    /* The order search itself against every offset assignment. */
    for (int iter = 0; iter < 300; iter++) {
        size_t n = 2 + check_rand() % 3;
        uint64_t align = 1 + (check_rand() % 2) * 3; /* 1 or 4 */
        random_plan(n, 4, 6);
        struct brute o = {.n = n, .align = align, .best = UINT64_MAX};
        struct brute x = o;
        brute_orders(&o, 0, 0);
        brute_offsets(&x, 0, 6 * n + 4);
        CHECK_EQ(o.best, x.best);
    }
}

/* The capacity search (plan_search.c) decides exactly on small plans: at
 * the optimum (brute force over orders) it finds a plan, checked like any,
 * and one byte below it proves there is none. */
static void test_search_decides(void)
{
    unsigned found = 0, refused = 0;
    for (int iter = 0; iter < 1500; iter++) {
        size_t n = 1 + check_rand() % 8;
        uint64_t align = (uint64_t)1 << (check_rand() % 3);
        random_plan(n, 2 + check_rand() % 10, 1 + check_rand() % 40);
        struct brute b = {.n = n, .align = align, .best = UINT64_MAX};
        brute_orders(&b, 0, 0);
        static struct dmlt__plan_node nodes[16];
        static uint64_t scratch[1 << 14];
        if (!CHECK(dmlt__search_scratch(n) <= sizeof scratch))
            return;
        for (size_t i = 0; i < n; i++)
            nodes[i] =
                (struct dmlt__plan_node){T[i].first, T[i].last, T[i].size_bytes, 0, 0, (uint32_t)i};
        uint64_t work = 0;
        int r = dmlt__search(nodes, n, align, b.best, scratch, (uint64_t)1 << 30, &work);
        if (CHECK_EQ(r, 1)) {
            struct dmlt_plan_result pr = {.size = sizeof pr};
            for (size_t i = 0; i < n; i++)
                OFF[i] = nodes[i].off;
            pr.arena_bytes = 0;
            for (size_t i = 0; i < n; i++)
                if (T[i].size_bytes && OFF[i] + T[i].size_bytes > pr.arena_bytes)
                    pr.arena_bytes = OFF[i] + T[i].size_bytes;
            CHECK(pr.arena_bytes <= b.best);
            bool ok = true;
            for (size_t i = 0; i < n; i++) {
                ok &= CHECK_EQ(OFF[i] % align, 0);
                for (size_t j = 0; j < i; j++)
                    if (T[i].size_bytes && T[j].size_bytes && alive_together(&T[i], &T[j]))
                        ok &= CHECK(OFF[i] + T[i].size_bytes <= OFF[j] ||
                                    OFF[j] + T[j].size_bytes <= OFF[i]);
            }
            found += ok;
        }
        if (b.best > 0) {
            r = dmlt__search(nodes, n, align, b.best - 1, scratch, (uint64_t)1 << 30, &work);
            refused += CHECK_EQ(r, 0);
        }
    }
    printf("capacity search: a plan at the optimum in %u, none below it in %u\n", found, refused);
}

/* The planner's sort (plan_sort.c: a merge sort, and a radix sort for long
 * runs of increasing indices by one key) against a reference: insertion by
 * (key, key2, index), on inputs in increasing order and shuffled, keys of
 * few values and of any 64 bits. */
static void test_sort(void)
{
    enum { M = 3000 };
    static uint32_t a[M], tmp[M], ref[M];
    static uint64_t key[M], key2[M];
    for (int iter = 0; iter < 60; iter++) {
        const size_t m = iter < 6 ? (size_t)iter : 1 + check_rand() % M;
        const unsigned kind = (unsigned)(check_rand() % 3);
        for (size_t i = 0; i < m; i++) {
            const uint64_t r = ((uint64_t)check_rand() << 32) ^ check_rand();
            key[i] = kind == 0 ? r % 5 : kind == 1 ? r : r << 40;
            key2[i] = check_rand() % 3;
            a[i] = (uint32_t)i;
        }
        if (iter % 2) /* shuffled: no radix, the merge sort's ties by index */
            for (size_t i = m; i > 1; i--) {
                const size_t j = check_rand() % i;
                const uint32_t x = a[i - 1];
                a[i - 1] = a[j];
                a[j] = x;
            }
        const uint64_t *k2 = iter % 3 == 0 ? key2 : NULL;
        for (size_t i = 0; i < m; i++) { /* the reference: insertion */
            size_t j = i;
            const uint32_t x = a[i];
            while (j > 0) {
                const uint32_t y = ref[j - 1];
                const bool after = key[y] != key[x]       ? key[y] > key[x]
                                   : k2 && k2[y] != k2[x] ? k2[y] > k2[x]
                                                          : y > x;
                if (!after)
                    break;
                ref[j] = y;
                j--;
            }
            ref[j] = x;
        }
        dmlt__plan_sort(a, tmp, m, key, k2);
        bool same = true;
        for (size_t i = 0; i < m; i++)
            same &= a[i] == ref[i];
        CHECK(same);
    }
}

/* The capacity search on plans of 20 to 300 tensors, too many for brute
 * force: at the arena of a plan the planner made (checked above: a plan
 * exists there) it must never answer "none", and every plan it finds is
 * checked like any and is the same twice; at the lower bound, likewise any
 * plan it finds. */
/* (a quarter under the sanitizers, coverage and Wine, as LARGE_ROUNDS below) */
#ifdef DMLT_TEST_SLOW_BUILD
#define SEARCH_ROUNDS 10
#else
#define SEARCH_ROUNDS 40
#endif

static void test_search_large(void)
{
    static struct dmlt__plan_node nodes[300];
    static uint64_t first_off[300];
    unsigned found = 0;
    for (int iter = 0; iter < SEARCH_ROUNDS; iter++) {
        size_t n = 20 + check_rand() % 281;
        uint64_t align = (uint64_t)1 << (check_rand() % 5);
        random_plan(n, 5 + check_rand() % 200, 1 + check_rand() % 5000);
        struct dmlt_plan_result r;
        if (!CHECK_EQ(plan(n, align, 0, 0, &r), DMLT_OK) || !check_plan(n, align, OFF, &r))
            continue;
        void *scratch = malloc(dmlt__search_scratch(n));
        if (!CHECK(scratch != NULL))
            return;
        const uint64_t caps[2] = {r.arena_bytes, r.aligned_lower_bound_bytes};
        for (int k = 0; k < 2; k++) {
            int res[2];
            for (int again = 0; again < 2; again++) {
                for (size_t i = 0; i < n; i++)
                    nodes[i] = (struct dmlt__plan_node){T[i].first, T[i].last, T[i].size_bytes,
                                                        0,          0,         (uint32_t)i};
                uint64_t work = 0;
                res[again] =
                    dmlt__search(nodes, n, align, caps[k], scratch, (uint64_t)1 << 23, &work);
                for (size_t i = 0; i < n; i++) {
                    OFF[i] = nodes[i].off;
                    if (again == 1 && res[0] == 1)
                        CHECK_EQ(OFF[i], first_off[i]);
                    first_off[i] = OFF[i];
                }
            }
            CHECK_EQ(res[0], res[1]);
            if (k == 0)
                CHECK(res[0] != 0); /* a plan exists at the planner's arena */
            if (res[0] != 1)
                continue;
            found++;
            struct dmlt_plan_result q = r;
            q.arena_bytes = 0;
            for (size_t i = 0; i < n; i++)
                if (T[i].size_bytes && OFF[i] + T[i].size_bytes > q.arena_bytes)
                    q.arena_bytes = OFF[i] + T[i].size_bytes;
            CHECK(q.arena_bytes <= caps[k]);
            check_plan(n, align, OFF, &q);
        }
        free(scratch);
    }
    printf("capacity search on 20 to 300 tensors: %u plans found, each checked\n", found);
}

/* Sizes near 2^64 / n (their sum just fits): the planner's plan checked
 * and at the brute-force optimum. */
static void test_huge(void)
{
    for (int iter = 0; iter < 300; iter++) {
        size_t n = 2 + check_rand() % 5;
        random_plan(n, 2 + check_rand() % 6, 1000);
        for (size_t i = 0; i < n; i++)
            T[i].size_bytes = UINT64_MAX / n - check_rand() % 1000;
        struct brute b = {.n = n, .align = 1, .best = UINT64_MAX};
        brute_orders(&b, 0, 0);
        struct dmlt_plan_result r;
        if (CHECK_EQ(plan(n, 1, 0, 0, &r), DMLT_OK) && check_plan(n, 1, OFF, &r))
            CHECK_EQ(r.arena_bytes, b.best);
    }
}

static const uint64_t *sort_off;

static int by_offset(const void *a, const void *b)
{
    const uint64_t x = sort_off[*(const uint32_t *)a], y = sort_off[*(const uint32_t *)b];
    return x < y ? -1 : x > y;
}

/* Issue 27 item 15: 30,000 tensors all alive at once took 44-52 s (every
 * placement sorted every tensor placed before it, uncounted). The work now
 * stays within 64 n log2 n + 2^25 units (before: n^2 / 2 visits), and the
 * plan is valid (all alive: by offset, each ends before the next begins). */
static void test_all_alive(void)
{
    const size_t n = 30000;
    struct dmlt_plan_tensor *big = malloc(n * sizeof *big);
    uint64_t *off = malloc(n * sizeof *off);
    uint32_t *idx = malloc(n * sizeof *idx);
    size_t bytes = 0;
    void *ws = NULL;
    if (CHECK(big && off && idx) && CHECK_EQ(dmlt_plan_workspace_size(n, &bytes), DMLT_OK))
        ws = malloc(bytes);
    if (ws != NULL) {
        for (size_t i = 0; i < n; i++)
            big[i] = (struct dmlt_plan_tensor){1 + check_rand() % (1u << 20), 7, 7};
        struct dmlt_plan_options o = {256, 0, 0};
        struct dmlt_plan_result r = DMLT_PLAN_RESULT_INIT;
        if (CHECK_EQ(dmlt_plan(big, n, &o, ws, bytes, off, &r, NULL), DMLT_OK)) {
            CHECK(r.work <= 64u * n * 15u + ((uint64_t)1 << 25));
            for (size_t i = 0; i < n; i++)
                idx[i] = (uint32_t)i;
            sort_off = off;
            qsort(idx, n, sizeof *idx, by_offset);
            uint64_t top = 0;
            for (size_t i = 0; i < n; i++) {
                const uint32_t k = idx[i];
                CHECK_EQ(off[k] % 256, 0);
                if (i > 0)
                    CHECK(off[idx[i - 1]] + big[idx[i - 1]].size_bytes <= off[k]);
                if (off[k] + big[k].size_bytes > top)
                    top = off[k] + big[k].size_bytes;
            }
            CHECK_EQ(r.arena_bytes, top);
            CHECK(r.arena_bytes >= r.aligned_lower_bound_bytes);
        }
    }
    free(ws);
    free(big);
    free(off);
    free(idx);
}

/* ---- larger random and structured plans ---------------------------------- */

/* Under the sanitizers (about 9x slower here), in the unoptimised
 * coverage build and under Wine a quarter of the rounds: the default and portable builds
 * run them all, and ASan looks for what any round's memory use would show
 * (SEARCH_ROUNDS above too). */
#ifdef DMLT_TEST_SLOW_BUILD
#define LARGE_ROUNDS 15
#else
#define LARGE_ROUNDS 60
#endif

static void test_random_large(void)
{
    for (int iter = 0; iter < LARGE_ROUNDS; iter++) {
        size_t n = 10 + check_rand() % 400;
        uint64_t align = (uint64_t)1 << (check_rand() % 9);
        random_plan(n, 5 + check_rand() % 300, 1 + check_rand() % 100000);
        struct dmlt_plan_result r;
        if (CHECK_EQ(plan(n, align, 0, 0, &r), DMLT_OK))
            check_plan(n, align, OFF, &r);
        /* A tiny budget still gives a valid plan: the skyline's first pass
         * always runs to the end (O(n log n)); greedy alone stacks. */
        if (CHECK_EQ(plan(n, align, 0, 50, &r), DMLT_OK)) {
            check_plan(n, align, OFF, &r);
            CHECK(r.strategy == DMLT_PLAN_SKYLINE || r.strategy == DMLT_PLAN_NONE);
        }
        if (CHECK_EQ(plan(n, align, DMLT_PLAN_ONLY_GREEDY, 50, &r), DMLT_OK)) {
            check_plan(n, align, OFF, &r);
            CHECK_EQ(r.strategy, DMLT_PLAN_STACKED);
        }
    }
}

/* A ConvNeXt-like chain: each block's input stays alive across its
 * depthwise conv, norm, 4x expansion, GELU and projection (a residual). */
static size_t convnext_like(uint64_t batch)
{
    size_t n = 0;
    uint64_t step = 0;
    const uint64_t widths[] = {96, 192, 384, 768}, hw[] = {56 * 56, 28 * 28, 14 * 14, 7 * 7};
    const unsigned depth[] = {3, 3, 9, 3};
    for (unsigned s = 0; s < 4; s++) {
        for (unsigned d = 0; d < depth[s]; d++) {
            uint64_t c = widths[s] * hw[s] * batch * 4;
            size_t in = n ? n - 1 : 0;
            if (n == 0) {
                T[n++] = (struct dmlt_plan_tensor){c, step, step};
                in = 0;
            }
            const uint64_t sizes[] = {c, c, 4 * c, 4 * c, c, c};
            for (unsigned k = 0; k < 6; k++, step++)
                T[n++] = (struct dmlt_plan_tensor){sizes[k], step + 1, step + 2};
            T[in].last = step + 1; /* the residual add reads the block input */
        }
        T[n++] = (struct dmlt_plan_tensor){widths[s] * hw[s] * batch, step + 1, step + 2};
        step++;
    }
    return n;
}

static void test_structured(void)
{
    for (uint64_t batch = 1; batch <= 8; batch *= 8) {
        size_t n = convnext_like(batch);
        struct dmlt_plan_result r, g;
        CHECK_EQ(plan(n, 256, DMLT_PLAN_ONLY_GREEDY, 0, &g), DMLT_OK);
        check_plan(n, 256, OFF, &g);
        CHECK_EQ(plan(n, 256, 0, 0, &r), DMLT_OK);
        check_plan(n, 256, OFF, &r);
        printf("convnext-like, batch %u, %zu tensors: greedy %.4fx, planner %.4fx the lower bound "
               "(strategy %d)\n",
               (unsigned)batch, n, (double)g.arena_bytes / (double)g.lower_bound_bytes,
               (double)r.arena_bytes / (double)r.lower_bound_bytes, (int)r.strategy);
    }
    /* Determinism: the same input, the same offsets. */
    size_t n = 300;
    random_plan(n, 100, 5000);
    static uint64_t first[MAX_T];
    struct dmlt_plan_result r;
    plan(n, 16, 0, 0, &r);
    memcpy(first, OFF, n * sizeof *OFF);
    plan(n, 16, 0, 0, &r);
    CHECK(memcmp(first, OFF, n * sizeof *OFF) == 0);
}

/* ---- errors and limits --------------------------------------------------- */

static void test_errors(void)
{
    struct dmlt_plan_result r;
    T[0] = (struct dmlt_plan_tensor){16, 0, 3};
    T[1] = (struct dmlt_plan_tensor){16, 5, 2};
    CHECK_EQ(plan(1, 0, 0, 0, &r), DMLT_E_INVALID);
    CHECK_EQ(plan(1, 24, 0, 0, &r), DMLT_E_INVALID);
    CHECK_EQ(plan(2, 16, 0, 0, &r), DMLT_E_INVALID); /* last < first */
    size_t bytes;
    CHECK_EQ(dmlt_plan_workspace_size(2, &bytes), DMLT_OK);
    static uint64_t ws[1 << 12];
    struct dmlt_plan_options o = {16, 0, 0};
    struct dmlt_error err;
    r.size = sizeof r;
    CHECK_EQ(dmlt_plan(T, 1, &o, ws, 8, OFF, &r, &err), DMLT_E_INVALID); /* workspace */
    CHECK_EQ(dmlt_plan(T, 2, &o, ws, sizeof ws, OFF, &r, &err), DMLT_E_INVALID);
    CHECK_EQ(err.value, 1);
    CHECK_EQ(dmlt_plan(NULL, 0, &o, NULL, 0, NULL, &r, &err), DMLT_OK);
    CHECK_EQ(r.arena_bytes, 0);
    CHECK_EQ(dmlt_plan_workspace_size((size_t)UINT32_MAX, &bytes), DMLT_E_RANGE);

    /* 2^64 - 1 exactly, and one byte past it. */
    T[0] = (struct dmlt_plan_tensor){(uint64_t)1 << 63, 0, 1};
    T[1] = (struct dmlt_plan_tensor){((uint64_t)1 << 63) - 1, 1, 2};
    CHECK_EQ(plan(2, 1, 0, 0, &r), DMLT_OK);
    CHECK_EQ(r.arena_bytes, UINT64_MAX);
    check_plan(2, 1, OFF, &r);
    CHECK_EQ(plan(2, 2, 0, 0, &r), DMLT_OK); /* 2^63 first, then 2^63 - 1 */
    CHECK_EQ(r.arena_bytes, UINT64_MAX);
    T[1].size_bytes = (uint64_t)1 << 63;
    CHECK_EQ(plan(2, 1, 0, 0, &r), DMLT_E_RANGE);
    T[1].first = 2; /* apart in time: both at 0 */
    CHECK_EQ(plan(2, 1, 0, 0, &r), DMLT_OK);
    CHECK_EQ(r.arena_bytes, (uint64_t)1 << 63);
    CHECK_EQ(R(r.sum_bytes), (ref_u128)1 << 64);
    T[0] = (struct dmlt_plan_tensor){UINT64_MAX, 0, UINT64_MAX};
    CHECK_EQ(plan(1, 256, 0, 0, &r), DMLT_OK);
    CHECK_EQ(r.arena_bytes, UINT64_MAX);
    CHECK_EQ(r.aligned_lower_bound_bytes, UINT64_MAX);
    /* An aligned bound past 2^64 - 1 although the sizes fit. */
    T[0] = (struct dmlt_plan_tensor){UINT64_MAX - 100, 0, 0};
    T[1] = (struct dmlt_plan_tensor){100, 0, 0};
    CHECK_EQ(plan(2, 256, 0, 0, &r), DMLT_E_RANGE);
    CHECK_EQ(plan(2, 1, 0, 0, &r), DMLT_OK);
    /* A smaller result struct (an older header's) gets its prefix only. */
    struct {
        struct dmlt_plan_result r;
        unsigned char guard[8];
    } small;
    memset(&small, 0xAB, sizeof small);
    small.r.size = offsetof(struct dmlt_plan_result, strategy);
    CHECK_EQ(dmlt_plan(T, 2, &o, ws, sizeof ws, OFF, &small.r, &err), DMLT_E_RANGE);
    o.alignment = 1;
    CHECK_EQ(dmlt_plan(T, 2, &o, ws, sizeof ws, OFF, &small.r, &err), DMLT_OK);
    CHECK_EQ(small.r.lower_bound_bytes, UINT64_MAX);
    CHECK_EQ(((unsigned char *)&small.r)[small.r.size], 0xAB);
    CHECK_EQ(small.guard[0], 0xAB);
}

/* Paths the random plans rarely take: NULL arguments, offsets that would
 * pass 2^64 - 1 in one order but not the bound, saturated areas, a budget
 * that runs out inside the search. */
static void test_edges(void)
{
    struct dmlt_plan_result r = DMLT_PLAN_RESULT_INIT;
    struct dmlt_plan_options o = {16, 0, 0};
    static uint64_t ws[1 << 12];
    size_t bytes;
    CHECK_EQ(dmlt_plan_workspace_size(2, NULL), DMLT_E_INVALID);
    T[0] = (struct dmlt_plan_tensor){16, 0, 1};
    CHECK_EQ(dmlt_plan(NULL, 1, &o, ws, sizeof ws, OFF, &r, NULL), DMLT_E_INVALID);
    CHECK_EQ(dmlt_plan(T, 1, NULL, ws, sizeof ws, OFF, &r, NULL), DMLT_E_INVALID);
    CHECK_EQ(dmlt_plan(T, 1, &o, ws, sizeof ws, OFF, NULL, NULL), DMLT_E_INVALID);
    r.size = 8;
    CHECK_EQ(dmlt_plan(T, 1, &o, ws, sizeof ws, OFF, &r, NULL), DMLT_E_INVALID);
    r.size = sizeof r;
    o.alignment = 48;
    CHECK_EQ(dmlt_plan(T, 1, &o, ws, sizeof ws, OFF, &r, NULL), DMLT_E_INVALID);
    CHECK_EQ(dmlt_plan_workspace_size(1, &bytes), DMLT_OK);
    CHECK(bytes <= sizeof ws);
    /* 2^63 + 1 then 2^62 at an alignment of 2^62: the bound fits (3 x 2^62
     * + 1); greedy by size passes 2^64 - 1 (2^62 after 2^63 + 1 rounds to
     * 3 x 2^62), the other order fits: 2^62 at 0, 2^63 + 1 at 2^62 (the
     * planner said "out of range" before the skyline). */
    T[0] = (struct dmlt_plan_tensor){((uint64_t)1 << 63) + 1, 0, 1};
    T[1] = (struct dmlt_plan_tensor){(uint64_t)1 << 62, 1, 2};
    if (CHECK_EQ(plan(2, (uint64_t)1 << 62, 0, 0, &r), DMLT_OK)) {
        check_plan(2, (uint64_t)1 << 62, OFF, &r);
        CHECK_EQ(r.arena_bytes, 3 * ((uint64_t)1 << 62) + 1);
    }
    CHECK_EQ(plan(2, (uint64_t)1 << 62, DMLT_PLAN_ONLY_GREEDY, 0, &r), DMLT_E_RANGE);
    o.alignment = (uint64_t)1 << 62;
    CHECK_EQ(dmlt_plan(T, 2, &o, ws, sizeof ws, OFF, &r, NULL), DMLT_OK);
    /* near the top: the gap after a tensor rounds past 2^64 - 1 */
    T[0] = (struct dmlt_plan_tensor){UINT64_MAX - 8, 0, 0};
    T[1] = (struct dmlt_plan_tensor){4, 1, 1};
    T[2] = (struct dmlt_plan_tensor){4, 0, 1};
    CHECK_EQ(plan(3, 16, 0, 0, &r), DMLT_E_RANGE);
    /* a tensor whose size x lifetime passes 2^64 beside a chain greedy
     * leaves above its bound */
    size_t n = convnext_like(1);
    T[n++] = (struct dmlt_plan_tensor){(uint64_t)1 << 40, 0, (uint64_t)1 << 40};
    if (CHECK_EQ(plan(n, 256, 0, 0, &r), DMLT_OK))
        check_plan(n, 256, OFF, &r);
    /* budgets that run out after greedy, in the improvement or the search */
    for (uint64_t budget = 20; budget < 400; budget += 37) {
        random_plan(8, 6, 1000);
        if (CHECK_EQ(plan(8, 16, 0, budget, &r), DMLT_OK))
            check_plan(8, 16, OFF, &r);
    }
}

/* The tests in groups, each its own ctest (unit/test_plan_GROUP: see
 * tests/CMakeLists.txt) so that they run side by side; no argument runs
 * them all. */
static const struct {
    const char *group;
    void (*run)(void);
} tests[] = {
    {"exact", test_edges},       {"exact", test_errors},          {"exact", test_bruteforce},
    {"exact", test_sort},        {"search", test_search_decides}, {"search", test_search_large},
    {"exact", test_huge},        {"exact", test_all_alive},       {"random", test_random_large},
    {"random", test_structured},
};

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : NULL;
    unsigned ran = 0;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        if (group == NULL || strcmp(group, tests[i].group) == 0) {
            tests[i].run();
            ran++;
        }
    if (ran == 0) {
        fprintf(stderr, "test_plan: no group %s (exact, search, random)\n", group);
        return 2;
    }
    return check_finish("test_plan");
}
