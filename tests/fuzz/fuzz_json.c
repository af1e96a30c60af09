/* fuzz_json.c - batch's JSON path: the record reader, the fast parser
 * against cJSON's, and the descriptor reader.
 *
 * Input: any bytes, read by batch's record reader (JSON Lines or an array).
 * For each record, invariants:
 *  - json_fast_parse accepts only what cJSON accepts, and builds the same
 *    tree, item by item;
 *  - descriptor_from_json gives the same verdict (and error id) on the
 *    tree from either parser;
 *  - a record is NUL-terminated at its length and never over RECORD_MAX.
 * And the whole input through `dmltensor batch -` and `scan -` into a
 * memory stream: no crash, no leak, exit status 0, 1 or 2.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen, open_memstream */
#include "fuzz.h"

#include "cli.h"
#include "descriptor.h"
#include "json_fast.h"
#include "records.h"

#include <string.h>

/* Equal trees, item by item in order: cJSON_Compare looks keys up by name,
 * so it calls {"a":1,"a":2} unequal to itself. */
static bool same_tree(const cJSON *a, const cJSON *b)
{
    for (; a && b; a = a->next, b = b->next) {
        if ((a->type & 0xFF) != (b->type & 0xFF))
            return false;
        if ((a->string == NULL) != (b->string == NULL) ||
            (a->string && strcmp(a->string, b->string) != 0))
            return false;
        if (cJSON_IsString(a) && strcmp(a->valuestring, b->valuestring) != 0)
            return false;
        if (cJSON_IsNumber(a) && (a->valuedouble != b->valuedouble || a->valueint != b->valueint))
            return false;
        if ((cJSON_IsArray(a) || cJSON_IsObject(a)) && !same_tree(a->child, b->child))
            return false;
    }
    return a == NULL && b == NULL;
}

static void check_record(const char *text, size_t len, struct descriptor *d1, struct descriptor *d2)
{
    FUZZ_CHECK(len <= RECORD_MAX && text[len] == '\0');
    cJSON *fast = json_fast_parse(text, len);
    cJSON *slow = cJSON_ParseWithLengthOpts(text, len + 1, NULL, true);
    if (fast) {
        FUZZ_CHECK(slow != NULL);
        FUZZ_CHECK(same_tree(fast, slow));
        struct cli_error e1, e2;
        bool ok1 = descriptor_from_json(fast, DESC_BATCH, d1, &e1);
        bool ok2 = descriptor_from_json(slow, DESC_BATCH, d2, &e2);
        FUZZ_CHECK(ok1 == ok2);
        if (!ok1)
            FUZZ_CHECK(strcmp(e1.id, e2.id) == 0);
    }
    cJSON_Delete(fast);
    cJSON_Delete(slow);
}

static void run_cli(const uint8_t *data, size_t size, const char *cmd)
{
    FILE *in = fmemopen((void *)(uintptr_t)data, size, "rb");
    char *obuf = NULL, *ebuf = NULL;
    size_t olen = 0, elen = 0;
    FILE *out = open_memstream(&obuf, &olen);
    FILE *err = open_memstream(&ebuf, &elen);
    if (in && out && err) {
        char arg0[] = "dmltensor", arg1[16], arg2[] = "-";
        snprintf(arg1, sizeof arg1, "%s", cmd);
        char *argv[] = {arg0, arg1, arg2, NULL};
        int status = cli_main(3, argv, in, out, err);
        FUZZ_CHECK(status == 0 || status == 1 || status == 2);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    if (err)
        fclose(err);
    free(obuf);
    free(ebuf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 64 * 1024)
        return 0;
    FILE *f = fmemopen((void *)(uintptr_t)data, size, "rb");
    if (f == NULL)
        return 0;
    struct record_reader *r = malloc(sizeof *r);
    struct descriptor *d1 = malloc(sizeof *d1), *d2 = malloc(sizeof *d2);
    if (r && d1 && d2) {
        record_reader_init(r, f);
        const char *text;
        size_t len;
        unsigned long line;
        enum record_status st;
        unsigned n = 0;
        while ((st = record_next(r, &text, &len, &line)) != RECORD_END && n++ < 10000) {
            FUZZ_CHECK(st != RECORD_IO_ERROR);
            if (st == RECORD_OK)
                check_record(text, len, d1, d2);
        }
        record_reader_free(r);
    }
    free(r);
    free(d1);
    free(d2);
    fclose(f);
    run_cli(data, size, "batch");
    run_cli(data, size, "scan");
    return 0;
}
