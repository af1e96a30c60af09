/* replay_main.c - runs files through a fuzz target's LLVMFuzzerTestOneInput
 * without libFuzzer, so that any compiler can replay the corpora and the
 * saved regressions as an ordinary test.
 *
 * Usage: replay_NAME PATH...   (a directory means each file in it; files
 * whose names start with '.' are skipped). Exits 0 after running at least
 * one input; a violated invariant aborts. */
#define _DEFAULT_SOURCE
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = malloc(cap);
    for (;;) {
        if (data == NULL) {
            fclose(f);
            fprintf(stderr, "replay: out of memory\n");
            return -1;
        }
        len += fread(data + len, 1, cap - len, f);
        if (len < cap)
            break;
        cap *= 2;
        uint8_t *p = realloc(data, cap);
        if (p == NULL)
            free(data);
        data = p;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(data);
        fprintf(stderr, "replay: %s: read error\n", path);
        return -1;
    }
    /* libFuzzer passes a copy of exactly `len` bytes: so does this. */
    uint8_t *exact = malloc(len ? len : 1);
    if (exact == NULL) {
        free(data);
        return -1;
    }
    memcpy(exact, data, len);
    free(data);
    (void)LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
        return -1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **p = realloc(names, cap * sizeof *names);
            if (p == NULL)
                break;
            names = p;
        }
        size_t len = strlen(dir) + strlen(ent->d_name) + 2;
        names[n] = malloc(len);
        if (names[n] == NULL)
            break;
        snprintf(names[n], len, "%s/%s", dir, ent->d_name);
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str); /* a stable order for the log */
    int count = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (count >= 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            int r = run_file(names[i]);
            count = r < 0 ? -1 : count + r;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    long total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
            return 1;
        }
        int r = S_ISDIR(st.st_mode) ? run_dir(argv[i]) : run_file(argv[i]);
        if (r < 0)
            return 1;
        printf("replay: %s: %d inputs\n", argv[i], r);
        total += r;
    }
    if (total == 0) {
        fprintf(stderr, "replay: no inputs (usage: %s FILE_OR_DIR...)\n", argv[0]);
        return 1;
    }
    printf("replay: %ld inputs, no invariant failed\n", total);
    return 0;
}
