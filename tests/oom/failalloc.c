/* failalloc.c - allocation-failure injection for the test binary
 * dmltensor_failalloc (SQLite's "fail the Nth allocation", without
 * touching the code under test).
 *
 * The binary is linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
 * (GNU ld), so every call to those in the project's static libraries comes
 * here first. The environment says what to do:
 *   DMLT_FAIL_ALLOC=N          the Nth call (1-based) returns NULL
 *   DMLT_FAIL_ALLOC_PERSIST=1  ... and every call after it too
 *   DMLT_ALLOC_COUNT_FILE=PATH at exit, the number of calls is written there
 * Without them it only counts. realloc(p, 0) and free are not counted.
 * Used by tests/oom/check_failalloc.py. */
#include <stdio.h>
#include <stdlib.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t k, size_t n);
void *__wrap_realloc(void *p, size_t n);

static unsigned long calls, fail_at;
static int persist, ready;

static void write_count(void)
{
    const char *path = getenv("DMLT_ALLOC_COUNT_FILE");
    FILE *f;
    if (path == NULL || (f = fopen(path, "w")) == NULL)
        return;
    fprintf(f, "%lu\n", calls);
    fclose(f);
}

static int should_fail(void)
{
    if (!ready) {
        const char *s = getenv("DMLT_FAIL_ALLOC");
        const char *p = getenv("DMLT_FAIL_ALLOC_PERSIST");
        ready = 1;
        fail_at = s ? strtoul(s, NULL, 10) : 0;
        persist = p != NULL && p[0] == '1';
        atexit(write_count);
    }
    calls++;
    if (fail_at == 0)
        return 0;
    return persist ? calls >= fail_at : calls == fail_at;
}

void *__wrap_malloc(size_t n)
{
    return should_fail() ? NULL : __real_malloc(n);
}
void *__wrap_calloc(size_t k, size_t n)
{
    return should_fail() ? NULL : __real_calloc(k, n);
}
void *__wrap_realloc(void *p, size_t n)
{
    if (n == 0)
        return __real_realloc(p, n);
    return should_fail() ? NULL : __real_realloc(p, n);
}
