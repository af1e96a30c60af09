/* plan_ratio.c - dmlt_plan's arena against the lower bound and against
 * greedy by size alone (DMLT_PLAN_ONLY_GREEDY, the baseline, measured in the
 * same run), on random and structured instances, with the CPU time of each
 * and the work (overlap visits a tensor).
 * Used by tests/bench/bench_plan.sh; prints one line per instance:
 *   NAME TENSORS LOWER_BOUND GREEDY_RATIO PLAN_RATIO GREEDY_S PLAN_S STRATEGY
 *   GREEDY_WORK PLAN_WORK
 * Usage: dmlt_bench_plan [N] (N: the random instances' tensors, default
 * 1000000); dmlt_bench_plan --csv FILE... (minimalloc's CSV, alignment 1);
 * dmlt_bench_plan --csv-at-bound FILE... (the same, exit status 1 unless
 * every plan is at its lower bound: ctest's plan/minimalloc_at_bound). */
#include "dmltensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* CPU seconds: on a shared machine, wall time is mostly the others' load. */
static double now(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

static uint64_t alignment = 256, greedy_budget = 0; /* 0: the library's default */

static int plan(const struct dmlt_plan_tensor *t, size_t n, unsigned flags,
                struct dmlt_plan_result *r, double *seconds)
{
    size_t bytes;
    if (dmlt_plan_workspace_size(n, &bytes) != DMLT_OK)
        return 1;
    void *ws = malloc(bytes);
    uint64_t *off = malloc((n ? n : 1) * sizeof *off);
    struct dmlt_plan_options o = {alignment, flags, flags ? greedy_budget : 0};
    struct dmlt_error err;
    r->size = sizeof *r;
    double t0 = now();
    enum dmlt_status st = dmlt_plan(t, n, &o, ws, bytes, off, r, &err);
    *seconds = now() - t0;
    free(ws);
    free(off);
    return st != DMLT_OK;
}

/* One line for the instance; 1 when the planner's arena is above at_most
 * (0: the lower bound) or it failed, else 0. */
static int report(const char *name, const struct dmlt_plan_tensor *t, size_t n, uint64_t at_most)
{
    struct dmlt_plan_result g, p;
    double gs, ps;
    if (plan(t, n, DMLT_PLAN_ONLY_GREEDY, &g, &gs) || plan(t, n, 0, &p, &ps)) {
        printf("%s: the planner failed\n", name);
        return 1;
    }
    printf("%-26s %8zu %14llu %8.4f %8.4f %7.3f %7.3f %d %.1f %.1f\n", name, n,
           (unsigned long long)p.lower_bound_bytes,
           (double)g.arena_bytes / (double)g.lower_bound_bytes,
           (double)p.arena_bytes / (double)p.lower_bound_bytes, gs, ps, (int)p.strategy,
           (double)g.work / (double)n, (double)p.work / (double)n);
    return p.arena_bytes > (at_most ? at_most : p.lower_bound_bytes);
}

/* A chain of blocks like ConvNeXt's: each block's input stays alive over
 * its depthwise conv, norm, 4x expansion, GELU and projection (the residual
 * add reads it), four stages of widths 96..768 at 56..7 pixels. */
static size_t convnext_like(struct dmlt_plan_tensor *t, uint64_t batch)
{
    static const uint64_t widths[] = {96, 192, 384, 768}, hw[] = {56 * 56, 28 * 28, 14 * 14, 49};
    static const unsigned depth[] = {3, 3, 9, 3};
    size_t n = 0;
    uint64_t step = 0;
    t[n++] = (struct dmlt_plan_tensor){widths[0] * hw[0] * batch * 4, 0, 0};
    for (unsigned s = 0; s < 4; s++) {
        for (unsigned d = 0; d < depth[s]; d++) {
            const uint64_t c = widths[s] * hw[s] * batch * 4;
            const size_t in = n - 1;
            const uint64_t sizes[] = {c, c, 4 * c, 4 * c, c, c};
            for (unsigned k = 0; k < 6; k++, step++)
                t[n++] = (struct dmlt_plan_tensor){sizes[k], step + 1, step + 2};
            t[in].last = step + 1;
        }
        if (s < 3) { /* downsampling: norm then a strided conv */
            const uint64_t c = widths[s + 1] * hw[s + 1] * batch * 4;
            t[n++] = (struct dmlt_plan_tensor){widths[s] * hw[s] * batch * 4, step + 1, step + 2};
            t[n++] = (struct dmlt_plan_tensor){c, step + 2, step + 3};
            step += 2;
        }
    }
    return n;
}

/* ResNet-like: bottlenecks whose input stays alive to the add. */
static size_t resnet_like(struct dmlt_plan_tensor *t, uint64_t batch)
{
    static const uint64_t widths[] = {256, 512, 1024, 2048}, hw[] = {56 * 56, 28 * 28, 14 * 14, 49};
    static const unsigned depth[] = {3, 4, 6, 3};
    size_t n = 0;
    uint64_t step = 0;
    t[n++] = (struct dmlt_plan_tensor){64 * 112 * 112 * 4 * batch, 0, 1};
    t[n++] = (struct dmlt_plan_tensor){64 * 56 * 56 * 4 * batch, 1, 2};
    step = 2;
    for (unsigned s = 0; s < 4; s++) {
        for (unsigned d = 0; d < depth[s]; d++) {
            const uint64_t c = widths[s] * hw[s] * batch * 4, m = c / 4;
            const size_t in = n - 1;
            const uint64_t sizes[] = {m, m, m, m, c, c, c};
            for (unsigned k = 0; k < 7; k++, step++)
                t[n++] = (struct dmlt_plan_tensor){sizes[k], step, step + 1};
            t[in].last = step; /* the add, or the projection shortcut */
        }
    }
    return n;
}

/* minimalloc's CSV (id,lower,upper,size: the steps [lower, upper), the
 * header first) into t; its count, 0 when unreadable. */
static size_t read_csv(const char *path, struct dmlt_plan_tensor *t, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char line[256];
    size_t n = 0;
    unsigned long long id, lo, hi, size;
    while (n < cap && fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "%llu,%llu,%llu,%llu", &id, &lo, &hi, &size) == 4 && hi > lo)
            t[n++] = (struct dmlt_plan_tensor){size, lo, hi - 1};
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    /* --csv: alignment 1, as minimalloc's; --csv-at-bound: the same, and the
     * exit status 1 unless every plan is at its lower bound (a test);
     * --csv-at-most BYTES: 1 unless every arena is at most BYTES */
    const bool at_bound = argc > 1 && strcmp(argv[1], "--csv-at-bound") == 0;
    const bool at_most = argc > 2 && strcmp(argv[1], "--csv-at-most") == 0;
    if (argc > 1 && (strcmp(argv[1], "--csv") == 0 || at_bound || at_most)) {
        static struct dmlt_plan_tensor c[4096];
        int above = 0;
        const uint64_t limit = at_most ? strtoull(argv[2], NULL, 10) : 0;
        alignment = 1;
        printf("%-26s %8s %14s %8s %8s %7s %7s %s %s %s\n", "instance", "tensors", "lower_bound",
               "greedy", "planner", "greedy_s", "plan_s", "strategy", "greedy_work", "plan_work");
        for (int i = at_most ? 3 : 2; i < argc; i++) {
            const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
            const size_t n = read_csv(argv[i], c, 4096);
            above |= n == 0 || report(name, c, n, limit);
        }
        return at_bound || at_most ? above : 0;
    }
    size_t big = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    struct dmlt_plan_tensor *t = malloc((big > 4096 ? big : 4096) * sizeof *t);
    if (t == NULL)
        return 1;
    printf("%-26s %8s %14s %8s %8s %7s %7s %s %s %s\n", "instance", "tensors", "lower_bound",
           "greedy", "planner", "greedy_s", "plan_s", "strategy", "greedy_work", "plan_work");
    report("convnext-like batch 1", t, convnext_like(t, 1), 0);
    report("convnext-like batch 8", t, convnext_like(t, 8), 0);
    report("resnet-like batch 1", t, resnet_like(t, 1), 0);
    report("resnet-like batch 8", t, resnet_like(t, 8), 0);
    for (int k = 0; k < 3; k++) {
        const size_t n = 200;
        for (size_t i = 0; i < n; i++) {
            uint64_t first = next() % 50;
            t[i] = (struct dmlt_plan_tensor){1 + next() % 100000, first, first + next() % 8};
        }
        char name[40];
        snprintf(name, sizeof name, "random 200 (%d)", k);
        report(name, t, n, 0);
    }
    for (size_t i = 0; i < big; i++) { /* a long network: lifetimes of 1..21 steps */
        uint64_t first = i / 2 + next() % 3;
        static const uint64_t sizes[] = {4096, 65536, 802816, 3211264};
        t[i] = (struct dmlt_plan_tensor){next() % 5 ? sizes[next() % 4] : 4 + next() % (1u << 22),
                                         first, first + (next() % 4 ? next() % 4 : next() % 21)};
    }
    report("random chain", t, big, 0);
    /* issue 27 item 15: 30,000 tensors all alive at once (was 44-52 s); the
     * baseline, quadratic here, stops at 2^28 units of work (then stacks) */
    for (size_t i = 0; i < 30000 && i < big; i++)
        t[i] = (struct dmlt_plan_tensor){1 + next() % (1u << 20), 0, 0};
    greedy_budget = (uint64_t)1 << 28;
    report("all alive 30000", t, big < 30000 ? big : 30000, 0);
    free(t);
    return 0;
}
