/* cmd_plan.c - `plan FILE.jsonl|-`: tensors with lifetimes read as JSON
 * Lines (or one JSON array), placed in one buffer by cli_plan_tensors(). A
 * record is {"name", "first", "last", and "size_in_bytes" or a descriptor's
 * keys as batch reads them (dtype, sizes, layout, ...)}, with "path" and
 * "op" echoed and "offset" ignored, so plan's own records can be planned
 * again. A bad record stops the run before anything is printed (exit 2):
 * half a plan would be a wrong one. A model's activations come in through
 * cli_plan_tensors() too, once shape inference gives their sizes. */
#include "plan_model.h"
#include "plan_out.h"
#include "input.h"
#include "parse.h"
#include "records.h"
#include "results.h"
#include "source_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The most plan reads as records (docs/plan.md, "Input"): the bytes of a
 * JSON document read whole (256 MiB), and 2^22 records (4,194,304); both
 * lower under DMLT_TEST_INPUT_CAP_SHIFT. Past either, cli_input_too_large at
 * the line where it was passed, before memory grows further. */
#define PLAN_MAX_RECORDS ((size_t)1 << 22)

static unsigned long long plan_max_bytes(void)
{
    return cli_input_json_cap();
}

static size_t plan_max_records(void)
{
    return PLAN_MAX_RECORDS >> cli_input_cap_shift();
}

static bool plan_too_large(struct cli_error *e, const char *name, bool bytes,
                           unsigned long long max_bytes, size_t max_records)
{
    if (bytes)
        cli_fail(e, CLI_E_INPUT_TOO_LARGE, NULL, name,
                 "more than %llu bytes of records, the most plan reads", max_bytes);
    else
        cli_fail(e, CLI_E_INPUT_TOO_LARGE, NULL, name,
                 "more than %zu records, the most plan places in one run", max_records);
    cli_hint(e, "plan reads at most %llu bytes and %zu records (docs/plan.md)", max_bytes,
             max_records);
    return false;
}

struct reader {
    struct plan_pool pool; /* strings and sizes of every record */
    struct planned *t;
    size_t n, cap;
    uint64_t last_step;
    unsigned long long summaries; /* {"summary":{...}} records skipped */
    struct descriptor *d;
    struct json_arena arena;
};

static void reader_free(struct reader *r)
{
    cli_plan_pool_free(&r->pool);
    free(r->t);
    free(r->d);
    cli_json_arena_free(&r->arena);
}

/* Puts "line N: " before the message of e. */
static bool at_line(struct cli_error *e, unsigned long line)
{
    char msg[sizeof e->message];
    memcpy(msg, e->message, sizeof msg);
    snprintf(e->message, sizeof e->message, "line %lu: %.360s", line, msg);
    return false;
}

/* "\"KEY\" what", naming the key. */
static bool key_error(struct cli_error *e, enum cli_error_id id, const char *key, const char *what)
{
    cli_fail(e, id, NULL, NULL, "\"%s\" %s", key, what);
    e->key = key;
    return false;
}

/* A whole number 0..2^64-1 from a JSON number. */
static bool read_u64(const cJSON *v, const char *key, uint64_t *out, struct cli_error *e)
{
    if (!cJSON_IsNumber(v))
        return key_error(e, CLI_E_BAD_TYPE, key, "must be a whole number");
    char digits[48];
    size_t n;
    dmlt_u128 v128 = {0, 0};
    enum json_integer kind =
        cli_json_integer_digits(json_number_text(v), digits, sizeof digits, &n);
    if (kind == JSON_NOT_INTEGER)
        return key_error(e, CLI_E_BAD_NUMBER, key, "must be a whole number 0..2^64-1");
    if (kind == JSON_INTEGER_HUGE || !dmlt_u128_parse_dec(digits, n, &v128) ||
        !dmlt_u128_fits_u64(v128))
        return key_error(e, CLI_E_OUT_OF_RANGE, key, "is past 2^64-1");
    *out = dmlt_u128_to_u64(v128);
    return true;
}

static bool read_str(struct reader *r, const cJSON *v, const char *key, bool nullable,
                     const char **out, struct cli_error *e)
{
    if (nullable && cJSON_IsNull(v)) {
        *out = NULL;
        return true;
    }
    if (!cJSON_IsString(v))
        return key_error(e, CLI_E_BAD_TYPE, key,
                         nullable ? "must be a string or null" : "must be a string");
    *out = cli_plan_pool_str(&r->pool, v->valuestring, strlen(v->valuestring));
    return *out != NULL || cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
}

/* The descriptor's keys of obj (what is left of the record): dtype, sizes
 * and TotalTensorSizeInBytes, as batch's size command reads them. */
static bool read_descriptor(struct reader *r, const cJSON *obj, struct planned *p,
                            struct cli_error *e)
{
    static const char *const refused[] = {"command", "coord", "coords", "ops", "id"};
    for (const cJSON *k = obj->child; k; k = k->next)
        for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
            if (strcmp(k->string, refused[i]) == 0)
                return key_error(e, CLI_E_UNKNOWN_KEY, refused[i], "is not a key of a plan record");
    struct descriptor *d = r->d;
    if (!cli_descriptor_from_json(obj, DESC_BATCH, d, e))
        return false;
    struct tensor_desc td;
    if (!cli_describe_tensor(&d->cfg.t, &td, e) || !cli_descriptor_check_described(d, &td, e)) {
        cli_descriptor_name_key(d, e);
        return false;
    }
    struct dmlt_report rep = DMLT_REPORT_INIT;
    struct dmlt_error err;
    if (dmlt_report_compute(&td.t, td.has_total ? &td.total : NULL, &rep, &err) != DMLT_OK ||
        !dmlt_u128_fits_u64(rep.total_tensor_size_bytes))
        return key_error(e, CLI_E_TOTAL_SIZE_RANGE, "sizes",
                         "give a tensor whose size in bytes is past 2^64-1");
    uint32_t *sizes = cli_plan_pool_alloc(&r->pool, td.t.rank * sizeof *sizes);
    if (sizes == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    memcpy(sizes, td.t.sizes, td.t.rank * sizeof *sizes);
    p->sizes = sizes;
    p->rank = td.t.rank;
    p->dtype = (int)td.t.dtype;
    uint64_t total = dmlt_u128_to_u64(rep.total_tensor_size_bytes);
    if (p->size_bytes == UINT64_MAX) {
        p->size_bytes = total;
    } else if (p->size_bytes < total) {
        return key_error(e, CLI_E_BAD_RECORD, "size_in_bytes",
                         "is below the tensor's TotalTensorSizeInBytes");
    }
    return true;
}

/* The plan's own keys, taken out of the tree; the rest is a descriptor. */
static bool read_fields(struct reader *r, cJSON *root, struct planned *p, struct cli_error *e)
{
    static const char *const keys[] = {"name", "path",          "op",     "first",
                                       "last", "size_in_bytes", "offset", "graph"};
    bool seen[sizeof keys / sizeof keys[0]] = {false};
    bool has_size = false;
    cJSON *k = root->child;
    while (k) {
        cJSON *next = k->next;
        size_t i = 0;
        while (i < sizeof keys / sizeof keys[0] && /* the first byte first: a million records */
               (k->string[0] != keys[i][0] || strcmp(k->string, keys[i]) != 0))
            i++;
        if (i == sizeof keys / sizeof keys[0] && cJSON_IsNull(k) &&
            (strcmp(k->string, "dtype") == 0 || strcmp(k->string, "sizes") == 0)) {
            cJSON_DetachItemViaPointer(root, k); /* unknown in plan's own records */
        } else if (i < sizeof keys / sizeof keys[0]) {
            if (seen[i])
                return key_error(e, CLI_E_DUPLICATE_KEY, keys[i], "is given twice");
            seen[i] = true;
            bool ok = i == 0   ? read_str(r, k, keys[i], false, &p->name, e)
                      : i == 1 ? read_str(r, k, keys[i], true, &p->path, e)
                      : i == 2 ? read_str(r, k, keys[i], true, &p->op, e)
                      : i == 3 ? read_u64(k, keys[i], &p->first, e)
                      : i == 4 ? read_u64(k, keys[i], &p->last, e)
                      : i == 5 ? (has_size = true, read_u64(k, keys[i], &p->size_bytes, e))
                      : i == 7 ? read_str(r, k, keys[i], true, &p->graph, e)
                               : true;
            if (!ok)
                return false;
            cJSON_DetachItemViaPointer(root, k); /* the arena takes it back */
        }
        k = next;
    }
    for (size_t i = 0; i < 5; i++)
        if (!seen[i] && (i == 0 || i >= 3))
            return key_error(e, CLI_E_MISSING_KEY, keys[i], "is missing");
    if (p->last < p->first) {
        cli_fail(e, CLI_E_BAD_LIFETIME, NULL, NULL, "\"last\" is before \"first\"");
        cli_hint(e, "a tensor lives from step first to step last, inclusive");
        e->key = "last";
        return false;
    }
    if (root->child)
        return read_descriptor(r, root, p, e);
    if (!has_size) {
        key_error(e, CLI_E_MISSING_KEY, "size_in_bytes", "is missing");
        cli_hint(e, "give size_in_bytes, or the tensor's dtype and sizes as batch reads them");
        return false;
    }
    return true;
}

static bool read_record(struct reader *r, const char *text, size_t len, struct cli_error *e)
{
    cli_json_arena_reset(&r->arena);
    struct json_error je;
    cJSON *root = cli_json_parse(text, len, &r->arena, &je);
    if (root == NULL)
        return cli_fail(e, CLI_E_BAD_JSON, NULL, NULL, "%s at byte %zu of the record", je.message,
                        je.at + 1);
    if (!cJSON_IsObject(root))
        return cli_fail(e, CLI_E_BAD_RECORD, NULL, NULL, "a record must be a JSON object");
    if (root->child && root->child->next == NULL && strcmp(root->child->string, "summary") == 0 &&
        cJSON_IsObject(root->child)) {
        r->summaries++; /* plan's own output: its summary is no tensor */
        return true;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 1024;
        struct planned *t = realloc(r->t, cap * sizeof *t);
        if (t == NULL)
            return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        r->t = t;
        r->cap = cap;
    }
    struct planned *p = &r->t[r->n];
    *p = (struct planned){.dtype = -1, .size_bytes = UINT64_MAX};
    if (!read_fields(r, root, p, e))
        return false;
    if (p->last >= r->last_step)
        r->last_step = p->last;
    r->n++;
    return true;
}

static bool read_records(struct cli_config *cfg, struct input *in, struct reader *r,
                         struct cli_error *e)
{
    struct record_reader *rr = malloc(sizeof *rr);
    r->d = malloc(sizeof *r->d);
    if (rr == NULL || r->d == NULL) {
        free(rr);
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    cli_input_records(in, rr);
    r->d->commands = cfg->commands;
    const unsigned long long max_bytes = plan_max_bytes();
    const size_t max_records = plan_max_records();
    bool ok = true;
    for (;;) {
        const char *text;
        size_t len;
        unsigned long line;
        enum record_status st = cli_record_next(rr, &text, &len, &line);
        if (st == RECORD_END)
            break;
        if (st == RECORD_NO_MEMORY) {
            ok = cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
            break;
        }
        if (st == RECORD_IO_ERROR) {
            ok = cli_fail(e, CLI_E_IO_ERROR, NULL, in->name, "read error: %s",
                          strerror(errno ? errno : EIO));
            e->exit_code = CLI_EXIT_IO;
            break;
        }
        if (st == RECORD_TOO_LONG)
            ok = cli_fail(e, CLI_E_RECORD_TOO_LONG, NULL, NULL,
                          "the record is longer than %zu bytes, the most a record may be",
                          RECORD_MAX);
        else if (st == RECORD_MALFORMED)
            ok = cli_fail(e, CLI_E_BAD_JSON, NULL, NULL,
                          "the JSON array is not closed by a single ']' (or has a trailing comma)");
        else if (rr->total > max_bytes || r->n == max_records)
            ok = plan_too_large(e, in->name, rr->total > max_bytes, max_bytes, max_records);
        else
            ok = read_record(r, text, len, e);
        if (!ok) {
            at_line(e, line);
            cli_error_keep(e); /* its key and text point into the record */
            break;
        }
    }
    cli_record_reader_free(rr);
    free(rr);
    return ok;
}

static bool run_plan(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    if (cfg->device && strcmp(cfg->device, "dml") != 0) {
        cli_fail(e, CLI_E_BAD_DEVICE, "--device", cfg->device, "not dml");
        cli_hint(e, "--device dml plans only a model's tensors in DirectML memory; without it "
                    "plan places every activation");
        return false;
    }
    unsigned level; /* refused before any input is read (place_nodes uses it) */
    if (!cli_parse_feature_level(cfg->feature_level, &level, e))
        return false;
    if (cfg->feature_level && !cfg->device)
        cli_note(cfg->err,
                 "plan: --feature-level %s: used only with --device dml (it places "
                 "a model's nodes)",
                 cfg->feature_level);
    struct input in;
    if (!cli_input_open(&in, cfg->input ? cfg->input : "-", cfg->in, e))
        return false;
    if (!in.json_start && in.model) { /* a model: read whole, or mapped */
        struct plat_map m;
        memset(&m, 0, sizeof m);
        bool ok = cli_input_whole(&in, &m, e);
        cli_input_close(&in);
        if (ok)
            ok = cli_plan_model(cfg, &m, out, e);
        cli_plat_unmap_file(&m);
        return ok;
    }
    if (!in.json_start) { /* neither: refused at once, whatever follows */
        cli_input_refuse(
            &in, "plan reads JSON Lines of tensors (its own output too), or an ONNX model", e);
        cli_input_close(&in);
        return false;
    }
    struct reader r;
    memset(&r, 0, sizeof r);
    bool ok = read_records(cfg, &in, &r, e);
    cli_input_close(&in);
    for (unsigned k = 0; ok && k < cfg->n_dims; k++) /* they size a model's tensors */
        cli_note(cfg->err, "plan: --dim %s: JSON Lines have no symbolic dims (it sizes a model)",
                 cfg->dims[k]);
    if (ok && cfg->device)
        cli_note(cfg->err,
                 "plan: --device %s: JSON Lines carry no nodes to place (it places a "
                 "model's tensors); every tensor is planned",
                 cfg->device);
    for (unsigned k = 0; ok && k < cfg->n_shapes; k++)
        cli_note(cfg->err, "plan: --shape %s: JSON Lines have no model values (it shapes a model)",
                 cfg->shapes[k]);
    if (ok && cfg->plan_io)
        cli_note(cfg->err, "plan: --io: JSON Lines have no model inputs or outputs; every "
                           "record is planned");
    if (ok && cfg->skip_unknown)
        cli_note(cfg->err, "plan: --skip-unknown: a record's size is always known (one without "
                           "is refused)");
    if (ok) {
        struct plan_extra x = {.steps = dmlt_u128_from_u64(0)};
        if (r.n) /* the last step + 1, 2^64 at most */
            (void)dmlt_u128_add(dmlt_u128_from_u64(r.last_step), dmlt_u128_from_u64(1), &x.steps);
        ok = cli_plan_tensors(cfg, r.t, r.n, &x, out, e);
    }
    reader_free(&r);
    return ok;
}

const struct command cli_cmd_plan = {
    .name = "plan",
    .id = CMD_PLAN,
    .summary = "one buffer for tensors that live over steps: every offset and the arena",
    .usage =
        "dmltensor plan [FILE.jsonl|-|MODEL.onnx] [--dim NAME=VALUE]... [--shape NAME=D1,..]...\n"
        "                     [--io] [--skip-unknown] [--device dml [--feature-level X_Y]]\n"
        "                     [--alignment BYTES] [--format FMT] [--name NAME] [--top N]",
    .about = "Places tensors in one buffer so that no two alive at the same step share a\n"
             "byte: each tensor's offset (its DML_BUFFER_BINDING Offset, a multiple of\n"
             "--alignment) and the buffer's size (the arena), near the lower bound: the\n"
             "most bytes alive at one step. Reads JSON Lines (or one JSON array) from FILE\n"
             "or stdin: {\"name\":..., \"first\":STEP, \"last\":STEP, \"size_in_bytes\":N}, or\n"
             "a descriptor's keys (dtype, sizes, layout, ... as batch reads them) instead\n"
             "of size_in_bytes; \"path\" and \"op\" are echoed. Writes one record per\n"
             "tensor, in input order, then {\"summary\":{...}} with the arena, the lower\n"
             "bound and their ratio. A bad record stops the run (exit 2), nothing printed.\n",
    .examples = "  dmltensor plan tensors.jsonl | jq .summary.arena_bytes\n"
                "  dmltensor plan tensors.jsonl --format text\n"
                "  dmltensor plan tensors.jsonl --format svg > plan.svg\n",
    .formats = FMT_BIT(FMT_JSONL) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_SVG) |
               FMT_BIT(FMT_C),
    .c_variables = "ArenaBytes, TensorCount, Tensors",
    .format_help =
        "jsonl (default: a JSON object per tensor, then the summary; json the same), text (a "
        "table and the totals), svg (the picture: steps across, offsets down) or c (a C table "
        "of names, offsets and sizes, and the arena size)",
    .default_format = FMT_JSONL,
    .args = ARGS_FILE,
    .batch = false,
    .run = run_plan,
};
