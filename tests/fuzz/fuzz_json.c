/* fuzz_json.c - batch's JSON path: the record reader, the fast parser
 * against cJSON's, and the descriptor reader.
 *
 * Input: any bytes, read by batch's record reader (JSON Lines or an array).
 * For each record, invariants:
 *  - json_fast_parse accepts only what cJSON accepts, and builds the same
 *    tree, item by item;
 *  - descriptor_from_json gives the same verdict (and error id) on the
 *    tree from either parser;
 *  - a record is NUL-terminated at its length and never over RECORD_MAX;
 *  - descriptor_from_plain, where it takes a record, fills the descriptor
 *    exactly as descriptor_from_json does from cJSON's tree, and echoes
 *    the same id.
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

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* d1 from descriptor_from_plain, d2 from descriptor_from_json: the same
 * command, option texts, checks, keys named for errors, and id. */
static void check_same_descriptor(const struct descriptor *d1, const struct descriptor *d2)
{
    const struct tensor_args *a = &d1->cfg.t, *b = &d2->cfg.t;
    FUZZ_CHECK(d1->cfg.cmd == d2->cfg.cmd && same_text(d1->cfg.cmd_name, d2->cfg.cmd_name));
    FUZZ_CHECK(d1->cfg.format == d2->cfg.format && d1->cfg.n_coords == d2->cfg.n_coords);
    FUZZ_CHECK(same_text(a->dtype, b->dtype) && same_text(a->sizes, b->sizes) &&
               same_text(a->strides, b->strides) && same_text(a->layout, b->layout) &&
               same_text(a->order, b->order) && same_text(a->rank, b->rank) &&
               same_text(a->row_pitch_align, b->row_pitch_align) &&
               same_text(a->total_size, b->total_size) &&
               same_text(a->base_offset, b->base_offset) && same_text(a->alignment, b->alignment) &&
               same_text(a->flags, b->flags));
    FUZZ_CHECK(a->n_broadcast == b->n_broadcast && a->n_pad == b->n_pad);
    FUZZ_CHECK(same_text(a->broadcast[0], b->broadcast[0]) && same_text(a->pad[0], b->pad[0]));
    FUZZ_CHECK(same_text(d1->layout_check, d2->layout_check));
    FUZZ_CHECK(d1->n_broadcast_check == d2->n_broadcast_check);
    FUZZ_CHECK(d1->n_from == d2->n_from);
    for (unsigned i = 0; i < d1->n_from && i < d2->n_from; i++)
        FUZZ_CHECK(same_text(d1->from[i].option, d2->from[i].option) &&
                   same_text(d1->from[i].key, d2->from[i].key));
    /* The id: the plain path keeps its text, which must be what the
     * general path prints for the tree's value. */
    FUZZ_CHECK((d1->id_text != NULL) == (d2->id != NULL));
    if (d1->id_text && d2->id) {
        struct outbuf want;
        ob_init(&want);
        if (cJSON_IsString(d2->id)) {
            ob_json_str(&want, d2->id->valuestring);
        } else {
            FUZZ_CHECK(cJSON_IsNumber(d2->id) && d2->id->valuedouble >= 0);
            ob_u64(&want, (uint64_t)d2->id->valuedouble);
        }
        FUZZ_CHECK(!want.failed && want.len == d1->id_len &&
                   memcmp(want.data, d1->id_text, want.len) == 0);
        ob_free(&want);
    }
}

static void check_record(const char *text, size_t len, struct descriptor *d1, struct descriptor *d2)
{
    if (descriptor_from_plain(text, len, d1)) {
        cJSON *tree = cJSON_ParseWithLengthOpts(text, len + 1, NULL, true);
        FUZZ_CHECK(tree != NULL);
        struct cli_error e;
        FUZZ_CHECK(descriptor_from_json(tree, DESC_BATCH, d2, &e));
        check_same_descriptor(d1, d2);
        cJSON_Delete(tree);
    }
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
