/* cmd_scan.c - `scan`: every DirectML tensor description inside any JSON
 * document (a DxDispatch model, say) validated, and a DxDispatch model's
 * bindings checked. */
#include "results.h"
#include "platform.h"
#include "scan_dxdispatch.h"
#include "source_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define SCAN_MAX_INPUT ((size_t)256 << 20) /* a document is read whole */

struct scan {
    struct cli_config *cfg;
    struct descriptor *d;
    struct outbuf *out, rec, path;
    struct tally t;
    struct cli_error *e;
    bool failed_write;
    uint64_t bindings; /* records of a DxDispatch model's bindings */
};

/* $.a.b[2]["odd key"] */
static void path_push_key(struct outbuf *p, const char *key)
{
    bool plain =
        (key[0] >= 'a' && key[0] <= 'z') || (key[0] >= 'A' && key[0] <= 'Z') || key[0] == '_';
    for (const char *c = key; plain && *c; c++)
        plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                *c == '_';
    if (plain) {
        ob_putc(p, '.');
        ob_puts(p, key);
    } else {
        ob_putc(p, '[');
        ob_json_str(p, key);
        ob_putc(p, ']');
    }
}

static void scan_hit(struct scan *s, const cJSON *obj)
{
    struct cli_error e;
    ob_putc(&s->path, '\0');
    const char *path = s->path.data;
    s->t.records++;
    ob_reset(&s->rec);
    bool ok = descriptor_from_json(obj, DESC_SCAN, s->d, &e);
    if (ok) {
        s->d->cfg.json_opened = true; /* validate's keys follow the path's */
        ok = results_run(s->d, &s->rec, &e);
    }
    if (!ok) {
        results_error_record(s->out, NULL, path, 0, &e);
        results_note_failure(&s->t, 0, &e);
    } else {
        /* {"path":..., "dtype":..., "sizes":[...], and validate's keys} */
        struct tensor_desc td;
        struct cli_error ignored;
        ob_puts(s->out, "{\"path\":");
        ob_json_str(s->out, path);
        if (describe_tensor(&s->d->cfg.t, &td, &ignored)) {
            ob_puts(s->out, ",\"dtype\":");
            ob_json_str(s->out, dmlt_dtype_get(td.t.dtype)->name);
            ob_puts(s->out, ",\"sizes\":");
            ob_u32_list(s->out, td.t.sizes, td.t.rank, 1, true);
            ob_puts(s->out, ",\"strides\":");
            ob_u32_list(s->out, td.t.strides, td.t.rank, 1, true);
        }
        ob_putc(s->out, ',');
        ob_write(s->out, s->rec.data, s->rec.len);
        if (s->d->cfg.exit_status != CLI_EXIT_OK)
            s->t.broken++;
    }
    s->path.len--; /* drop the NUL again */
}

static void scan_value(struct scan *s, const cJSON *v)
{
    if (s->failed_write)
        return;
    if (cJSON_IsObject(v) && cJSON_GetObjectItemCaseSensitive(v, "DataType") &&
        cJSON_GetObjectItemCaseSensitive(v, "Sizes")) {
        scan_hit(s, v);
        if (s->out->len >= BATCH_CHUNK && !cli_drain(s->out, s->e))
            s->failed_write = true;
        return; /* a tensor description holds no other */
    }
    if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
        return;
    size_t mark = s->path.len;
    unsigned long i = 0;
    for (const cJSON *c = v->child; c; c = c->next, i++) {
        if (cJSON_IsObject(v)) {
            path_push_key(&s->path, c->string);
        } else {
            ob_putc(&s->path, '[');
            ob_u64(&s->path, i);
            ob_putc(&s->path, ']');
        }
        scan_value(s, c);
        s->path.len = mark;
    }
}

/* ---- scan: a DxDispatch model's bindings ------------------------------------ */

/* One bound tensor: validate's checks with the binding's Offset,
 * SizeInBytes and buffer size; or the error that keeps it unchecked. */
static void scan_binding(void *ctx, const struct dxd_binding *b, const struct cli_error *err)
{
    struct scan *s = ctx;
    if (s->failed_write)
        return;
    s->t.records++;
    s->bindings++;
    struct cli_error e;
    char offset[24], size[24], buffer[24];
    *put_u64(offset, b->offset) = '\0';
    *put_u64(size, b->size) = '\0';
    *put_u64(buffer, b->buffer_size) = '\0';
    ob_reset(&s->rec);
    bool ok = err == NULL && descriptor_from_json(b->tensor, DESC_SCAN, s->d, &e);
    if (ok) {
        s->d->cfg.t.base_offset = offset;
        s->d->cfg.t.binding_size = b->has_size ? size : NULL;
        s->d->cfg.t.buffer_size = b->has_buffer_size ? buffer : NULL;
        s->d->cfg.json_opened = true; /* validate's keys follow the binding's */
        ok = results_run(s->d, &s->rec, &e);
    }
    if (!ok) {
        /* As results_error_record() writes it, with what is known of the binding. */
        ob_puts(s->out, "{\"id\":null,\"path\":");
        ob_json_str(s->out, b->path);
        if (b->tensor_path) {
            ob_puts(s->out, ",\"tensor_path\":");
            ob_json_str(s->out, b->tensor_path);
        }
        if (b->resource) {
            ob_puts(s->out, ",\"resource\":");
            ob_json_str(s->out, b->resource);
        }
        ob_putc(s->out, ',');
        render_error_member(s->out, err ? err : &e);
        ob_puts(s->out, "}\n");
        results_note_failure(&s->t, 0, err ? err : &e);
    } else {
        /* {"path":..., "tensor_path":..., "resource":..., the tensor, the
         * binding, and validate's keys} */
        struct tensor_desc td;
        struct cli_error ignored;
        ob_puts(s->out, "{\"path\":");
        ob_json_str(s->out, b->path);
        ob_puts(s->out, ",\"tensor_path\":");
        ob_json_str(s->out, b->tensor_path);
        ob_puts(s->out, ",\"resource\":");
        ob_json_str(s->out, b->resource);
        if (describe_tensor(&s->d->cfg.t, &td, &ignored)) {
            ob_puts(s->out, ",\"dtype\":");
            ob_json_str(s->out, dmlt_dtype_get(td.t.dtype)->name);
            ob_puts(s->out, ",\"sizes\":");
            ob_u32_list(s->out, td.t.sizes, td.t.rank, 1, true);
            ob_puts(s->out, ",\"strides\":");
            ob_u32_list(s->out, td.t.strides, td.t.rank, 1, true);
        }
        ob_puts(s->out, ",\"base_offset_bytes\":");
        ob_puts(s->out, offset);
        ob_puts(s->out, ",\"binding_size_bytes\":");
        ob_puts(s->out, b->has_size ? size : "null");
        ob_puts(s->out, ",\"buffer_size_bytes\":");
        ob_puts(s->out, b->has_buffer_size ? buffer : "null");
        ob_putc(s->out, ',');
        ob_write(s->out, s->rec.data, s->rec.len);
        if (s->d->cfg.exit_status != CLI_EXIT_OK)
            s->t.broken++;
    }
    if (s->out->len >= BATCH_CHUNK && !cli_drain(s->out, s->e))
        s->failed_write = true;
}

static bool run_scan(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    if (cfg->input == NULL) {
        cli_fail(e, CLI_E_MISSING_ARGUMENT, NULL, NULL,
                 "missing: the JSON file to scan (or - for stdin)");
        cli_hint(e, "dmltensor scan model.json");
        return false;
    }
    bool opened;
    FILE *in = results_open_input(cfg, e, &opened);
    if (in == NULL)
        return false;
    struct outbuf doc;
    ob_init(&doc);
    char block[64 * 1024];
    size_t n;
    while ((n = fread(block, 1, sizeof block, in)) > 0 && doc.len <= SCAN_MAX_INPUT)
        ob_write(&doc, block, n);
    bool read_error = ferror(in) != 0;
    int read_errno = errno;
    if (opened)
        fclose(in);
    if (read_error || doc.failed || doc.len > SCAN_MAX_INPUT) {
        ob_free(&doc);
        if (read_error) {
            cli_fail(e, CLI_E_IO_ERROR, NULL, cfg->input, "read error: %s",
                     strerror(read_errno ? read_errno : EIO));
            e->exit_code = CLI_EXIT_IO;
            return false;
        }
        return cli_fail(e, CLI_E_INPUT_TOO_LARGE, NULL, cfg->input,
                        "larger than %u MiB; scan reads a document whole",
                        (unsigned)(SCAN_MAX_INPUT >> 20));
    }
    /* A UTF-8 byte order mark is not content (batch skips it too). */
    const char *data = doc.data ? doc.data : "";
    size_t bom = doc.len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    struct json_error je = {"out of memory", 0};
    cJSON *root = doc.failed ? NULL : json_parse(data + bom, doc.len - bom, NULL, &je);
    if (root == NULL) {
        size_t off = je.at + bom;
        unsigned long line = 1;
        for (size_t i = 0; i < off && i < doc.len; i++)
            line += data[i] == '\n';
        ob_free(&doc);
        return cli_fail(e, CLI_E_BAD_JSON, NULL, cfg->input, "%s at line %lu", je.message, line);
    }
    ob_free(&doc);
    struct scan s;
    memset(&s, 0, sizeof s);
    s.cfg = cfg;
    s.out = out;
    s.e = e;
    s.d = malloc(sizeof *s.d);
    ob_init(&s.rec);
    ob_init(&s.path);
    ob_putc(&s.path, '$');
    if (s.d)
        scan_value(&s, root);
    bool ok = s.d != NULL && !s.failed_write;
    if (ok && dxd_is_model(root) && !dxd_scan_bindings(root, scan_binding, &s)) {
        ok = false;
        cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    ok = ok && !s.failed_write;
    if (s.d == NULL)
        cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    cJSON_Delete(root);
    free(s.d);
    ob_free(&s.rec);
    ob_free(&s.path);
    if (!ok)
        return false;
    if (s.t.records == 0)
        fprintf(cfg->err,
                "dmltensor: scan: no tensor description (an object with DataType and "
                "Sizes) in %s\n",
                cfg->input);
    results_summary(cfg, &s.t,
                    s.bindings ? "tensor descriptions and bindings" : "tensor descriptions");
    if (s.t.failed || s.t.broken)
        cfg->exit_status = CLI_EXIT_RULE;
    return true;
}

const struct command cmd_scan = {
    .name = "scan",
    .id = CMD_SCAN,
    .summary = "find and validate every tensor description in a JSON document",
    .usage = "dmltensor scan FILE|-",
    .about = "Finds every DirectML tensor description (an object with DataType and\n"
             "Sizes) anywhere in a JSON document, such as a DxDispatch model, and writes\n"
             "one JSON line per description: its JSON path, dtype, sizes, strides and\n"
             "validation result (as validate --format json prints it). Other keys of\n"
             "those objects are ignored; an operator's own Strides (a convolution's) are\n"
             "not a tensor's. In a DxDispatch model, each tensor a dispatch binds to a\n"
             "resource gets a line too: the binding's Offset, SizeInBytes and buffer\n"
             "size, checked (binding_size, binding_in_buffer, base_offset_16). Exit\n"
             "status 1 when any description or binding breaks a rule.\n",
    .examples = "  dmltensor scan model.json | jq -r 'select(.valid == false) | .path'\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON),
    .batch = false,
    .run = run_scan,
};
