/* cmd_scan.c - `scan`: every DirectML tensor description inside any JSON
 * document (a DxDispatch model, say) validated, and a DxDispatch model's
 * bindings checked. */
#include "results.h"
#include "platform.h"
#include "scan_dxdispatch.h"
#include "scan_input.h"
#include "scan_text.h"
#include "source_json.h"
#include "source_onnx.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One ONNX model's totals, for its summary record. */
struct onnx_model {
    uint64_t tensors, failed, broken, external;
    uint64_t kinds[ONNX_KIND_COUNT];
    dmlt_u128 initializer_bytes, io_bytes, largest_bytes;
    bool has_largest;
    /* JSON: {"path":..,"name":..,"total_tensor_size_bytes":..} and
     * "path","path" (the first JSON_LIST_MAX); text: "name (path)" and
     * "name, name" (the first TEXT_LIST_MAX). */
    struct outbuf largest;
    struct outbuf broken_paths, failed_paths;
};

/* The summary's lists keep the first few paths and count the rest
 * (failed_paths_more): memory stays flat whatever the model. */
enum { TEXT_LIST_MAX = 5, JSON_LIST_MAX = 100 };

struct scan {
    struct cli_config *cfg;
    struct descriptor *d;
    struct outbuf *out, rec, path, scratch;
    struct tally t;
    struct cli_error *e;
    bool failed_write;
    uint64_t bindings;        /* records of a DxDispatch model's bindings */
    const char *file;         /* the file being scanned */
    bool multi;               /* several files: each record says its file */
    bool text;                /* --format text: a table per ONNX model */
    bool text_started;        /* text written: a blank line before the next */
    unsigned onnx_files;      /* ONNX models scanned */
    struct onnx_options onnx; /* --dim, --rank, --layout */
    struct onnx_model model;
    struct plat_map *map; /* the file being scanned */
    size_t name_width;    /* --format text: the NAME column's, for this model */
    struct outbuf text_tmp;
};

static void put_file_key(struct scan *s, size_t start);

static void scan_hit(struct scan *s, const cJSON *obj)
{
    struct cli_error e;
    const size_t start = s->out->len;
    ob_putc(&s->path, '\0');
    const char *path = s->path.data;
    s->t.records++;
    ob_reset(&s->rec);
    bool ok = descriptor_from_json(obj, DESC_SCAN, s->d, &e);
    if (ok) {
        s->d->cfg.json_opened = true; /* validate's keys follow the path's */
        s->d->cfg.checks_shown = s->cfg->checks_shown;
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
    put_file_key(s, start);
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
            ob_json_path_key(&s->path, c->string);
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
    const size_t start = s->out->len;
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
        s->d->cfg.checks_shown = s->cfg->checks_shown;
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
    put_file_key(s, start);
    if (s->out->len >= BATCH_CHUNK && !cli_drain(s->out, s->e))
        s->failed_write = true;
}

/* ---- scan: the file's key, for several files ------------------------------ */

/* With several files, each record carries its "file": put first in the
 * record written to s->out from start (whole, not yet drained). */
static void put_file_key(struct scan *s, size_t start)
{
    if (!s->multi || s->out->failed || s->out->len <= start)
        return;
    ob_reset(&s->scratch);
    ob_puts(&s->scratch, "\"file\":");
    ob_json_str(&s->scratch, s->file);
    ob_putc(&s->scratch, ',');
    if (s->scratch.failed)
        return;
    const size_t n = s->scratch.len;
    if (ob_space(s->out, n) == NULL)
        return;
    char *at = s->out->data + start + 1; /* after the record's { */
    memmove(at + n, at, s->out->len - start - 1);
    memcpy(at, s->scratch.data, n);
    s->out->len += n;
}

static bool drain_if_full(struct scan *s)
{
    if (s->out->len >= BATCH_CHUNK && !cli_drain(s->out, s->e))
        s->failed_write = true;
    return !s->failed_write;
}

/* ---- scan: a JSON document ------------------------------------------------- */

static bool scan_json(struct scan *s, const char *data, size_t len, struct cli_error *e)
{
    const char *name = s->file;
    if (len > scan_json_cap())
        return scan_too_large(e, name, false);
    /* A UTF-8 byte order mark is not content (batch skips it too). */
    if (data == NULL)
        data = "";
    size_t bom = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    struct json_error je = {"out of memory", 0};
    cJSON *root = json_parse(data + bom, len - bom, NULL, &je);
    if (root == NULL) {
        size_t off = je.at + bom;
        unsigned long line = 1;
        for (size_t i = 0; i < off && i < len; i++)
            line += data[i] == '\n';
        return cli_fail(e, CLI_E_BAD_JSON, NULL, name, "%s at line %lu", je.message, line);
    }
    const uint64_t before = s->t.records;
    s->path.len = 0;
    ob_putc(&s->path, '$');
    scan_value(s, root);
    bool ok = !s->failed_write;
    if (ok && dxd_is_model(root) && !dxd_scan_bindings(root, scan_binding, s)) {
        ok = false;
        cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    cJSON_Delete(root);
    if (s->failed_write)
        *e = *s->e;
    if (ok && s->t.records == before)
        cli_note(s->cfg->err,
                 "scan: no tensor description (an object with DataType and Sizes) in %s", name);
    return ok && !s->failed_write;
}

/* ---- scan: an ONNX model ---------------------------------------------------- */

/* The text of bytes from the model, NUL-terminated, in b. */
static const char *model_text(struct outbuf *b, struct onnx_bytes t)
{
    ob_reset(b);
    if (t.n)
        ob_write(b, (const char *)t.p, t.n);
    ob_putc(b, '\0');
    return b->failed ? "" : b->data;
}

static void put_onnx_head(struct scan *s, const struct onnx_tensor *t,
                          const struct onnx_facts *facts)
{
    struct outbuf *out = s->out;
    ob_putc(out, '{');
    if (s->multi) {
        ob_puts(out, "\"file\":");
        ob_json_str(out, s->file);
        ob_putc(out, ',');
    }
    ob_puts(out, "\"path\":");
    ob_json_str(out, t->path);
    ob_puts(out, ",\"name\":");
    if (t->has_name)
        ob_json_str(out, model_text(&s->scratch, t->name));
    else
        ob_puts(out, "null");
    ob_puts(out, ",\"kind\":");
    ob_json_str(out, onnx_kind_name(t->kind));
    ob_puts(out, ",\"onnx_type\":");
    if (facts->onnx_type)
        ob_json_str(out, facts->onnx_type);
    else
        ob_puts(out, "null");
}

/* A failed or broken record's path (its label in text), for the summary's
 * lists, which keep the first few; count is the list's length with it. */
static const char *label_of(struct scan *s, const struct onnx_tensor *t);

static void remember_path(struct scan *s, struct outbuf *list, uint64_t count,
                          const struct onnx_tensor *t)
{
    if (count > (s->text ? TEXT_LIST_MAX : JSON_LIST_MAX))
        return;
    if (list->len)
        ob_puts(list, s->text ? ", " : ",");
    if (s->text)
        ob_quoted_text(list, label_of(s, t), SIZE_MAX);
    else
        ob_json_str(list, t->path);
}

/* A tensor's label in the table: its name, or its path when it has none. */
static const char *label_of(struct scan *s, const struct onnx_tensor *t)
{
    const char *name = t->has_name ? model_text(&s->scratch, t->name) : "";
    return *name ? name : t->path;
}

/* One row of --format text (see scan_text_row). */
static void put_text_row(struct scan *s, const struct onnx_tensor *t,
                         const struct onnx_facts *facts, const struct tensor_desc *td,
                         const dmlt_u128 *bytes, const struct cli_error *err, bool broken)
{
    scan_text_row(s->out, &s->text_tmp, s->name_width, label_of(s, t), onnx_kind_name(t->kind),
                  facts, td, bytes, err, broken);
}

/* A model's header in text: its file, then the columns' names. */
static void put_text_header(struct scan *s)
{
    struct outbuf *out = s->out;
    if (s->text_started)
        ob_putc(out, '\n');
    s->text_started = true;
    ob_quoted_text(out, s->file, SIZE_MAX);
    ob_puts(out, " (ONNX model)\n");
    scan_text_header(out, s->name_width);
}

/* The measuring walk before a table: the widest label. */
static bool measure_tensor(void *ctx, const struct onnx_tensor *t)
{
    struct scan *s = ctx;
    const size_t w = scan_text_width(&s->text_tmp, label_of(s, t));
    if (w > s->name_width)
        s->name_width = w;
    return true;
}

static bool scan_onnx_tensor(void *ctx, const struct onnx_tensor *t)
{
    struct scan *s = ctx;
    struct onnx_model *m = &s->model;
    struct cli_error e;
    struct onnx_facts facts;
    s->t.records++;
    m->tensors++;
    m->kinds[t->kind]++;
    ob_reset(&s->rec);
    bool ok = descriptor_from_onnx(t, &s->onnx, s->d, &facts, &e);
    if (ok) {
        s->d->cfg.json_opened = true; /* validate's keys follow the record's */
        s->d->cfg.checks_shown = s->cfg->checks_shown;
        ok = results_run(s->d, &s->rec, &e);
    }
    if (!ok) {
        if (s->text) {
            put_text_row(s, t, &facts, NULL, NULL, &e, false);
        } else {
            put_onnx_head(s, t, &facts);
            ob_putc(s->out, ',');
            render_error_member(s->out, &e);
            ob_puts(s->out, "}\n");
        }
        results_note_failure(&s->t, 0, &e);
        m->failed++;
        remember_path(s, &m->failed_paths, m->failed, t);
        return drain_if_full(s);
    }
    struct tensor_desc td;
    struct cli_error ignored;
    struct dmlt_report rep = DMLT_REPORT_INIT;
    struct dmlt_error derr;
    dmlt_u128 bytes = dmlt_u128_from_u64(0);
    const bool described = describe_tensor(&s->d->cfg.t, &td, &ignored);
    const bool has_bytes = described && dmlt_report_compute(&td.t, NULL, &rep, &derr) == DMLT_OK;
    if (has_bytes)
        bytes = rep.total_tensor_size_bytes;
    const bool broken = s->d->cfg.exit_status != CLI_EXIT_OK;
    if (s->text) {
        put_text_row(s, t, &facts, described ? &td : NULL, has_bytes ? &bytes : NULL, NULL, broken);
    } else {
        put_onnx_head(s, t, &facts);
        if (described) {
            ob_puts(s->out, ",\"dtype\":");
            ob_json_str(s->out, dmlt_dtype_get(td.t.dtype)->name);
            ob_puts(s->out, ",\"sizes\":");
            ob_u32_list(s->out, td.t.sizes, td.t.rank, 1, true);
            ob_puts(s->out, ",\"strides\":");
            ob_u32_list(s->out, td.t.strides, td.t.rank, 1, true);
        }
        if (has_bytes) {
            ob_puts(s->out, ",\"total_tensor_size_bytes\":");
            ob_u128(s->out, bytes);
        }
        if (t->external)
            snprintf(facts.notes[facts.n_notes < ONNX_MAX_NOTES ? facts.n_notes++ : 0],
                     sizeof facts.notes[0], "its data is in an external file (not read)");
        if (facts.n_notes) {
            ob_puts(s->out, ",\"notes\":[");
            for (unsigned i = 0; i < facts.n_notes; i++) {
                if (i)
                    ob_putc(s->out, ',');
                ob_json_str(s->out, facts.notes[i]);
            }
            ob_putc(s->out, ']');
        }
        ob_putc(s->out, ',');
        ob_write(s->out, s->rec.data, s->rec.len);
    }
    if (broken) {
        s->t.broken++;
        m->broken++;
        remember_path(s, &m->broken_paths, m->broken, t);
    }
    if (t->kind == ONNX_INITIALIZER || t->kind == ONNX_SPARSE_INITIALIZER) {
        (void)dmlt_u128_add(m->initializer_bytes, bytes, &m->initializer_bytes);
        m->external += t->external;
    } else if (t->kind == ONNX_INPUT || t->kind == ONNX_OUTPUT) {
        (void)dmlt_u128_add(m->io_bytes, bytes, &m->io_bytes);
    }
    if (!m->has_largest || dmlt_u128_cmp(bytes, m->largest_bytes) > 0) {
        m->has_largest = true;
        m->largest_bytes = bytes;
        ob_reset(&m->largest);
        if (s->text) {
            ob_quoted_text(&m->largest, label_of(s, t), SIZE_MAX);
            if (t->has_name && *model_text(&s->scratch, t->name)) {
                ob_puts(&m->largest, " (");
                ob_quoted_text(&m->largest, t->path, SIZE_MAX); /* op_types are the model's */
                ob_putc(&m->largest, ')');
            }
        } else {
            ob_puts(&m->largest, "{\"path\":");
            ob_json_str(&m->largest, t->path);
            ob_puts(&m->largest, ",\"name\":");
            if (t->has_name)
                ob_json_str(&m->largest, model_text(&s->scratch, t->name));
            else
                ob_puts(&m->largest, "null");
            ob_puts(&m->largest, ",\"total_tensor_size_bytes\":");
            ob_u128(&m->largest, bytes);
            ob_putc(&m->largest, '}');
        }
    }
    return drain_if_full(s);
}

/* A totals line of --format text: its label, padded. */
static void text_label(struct outbuf *out, const char *label)
{
    const size_t line = out->len;
    ob_puts(out, label);
    ob_pad_to(out, line, 19);
}

/* A list of text's totals: count, then the first few and how many more. */
static void put_text_list(struct outbuf *out, uint64_t count, const struct outbuf *list)
{
    ob_u64(out, count);
    if (count == 0) {
        ob_putc(out, '\n');
        return;
    }
    ob_puts(out, ": ");
    ob_write(out, list->data, list->len);
    if (count > TEXT_LIST_MAX) {
        ob_puts(out, ", and ");
        ob_u64(out, count - TEXT_LIST_MAX);
        ob_puts(out, " more");
    }
    ob_putc(out, '\n');
}

/* ,"KEY":[the first JSON_LIST_MAX],"KEY_more":the rest of count */
static void put_json_list(struct outbuf *out, const char *key, uint64_t count,
                          const struct outbuf *list)
{
    ob_puts(out, ",\"");
    ob_puts(out, key);
    ob_puts(out, "\":[");
    if (list->len) /* an empty outbuf's data is NULL */
        ob_write(out, list->data, list->len);
    ob_puts(out, "],\"");
    ob_puts(out, key);
    ob_puts(out, "_more\":");
    ob_u64(out, count > JSON_LIST_MAX ? count - JSON_LIST_MAX : 0);
}

/* --format text: the model's totals, after its rows. */
static void put_text_totals(struct scan *s)
{
    const struct onnx_model *m = &s->model;
    struct outbuf *out = s->out;
    ob_putc(out, '\n');
    text_label(out, "tensors");
    ob_u64(out, m->tensors);
    bool first = true;
    for (unsigned k = 0; k < ONNX_KIND_COUNT; k++) {
        if (m->kinds[k] == 0)
            continue;
        ob_puts(out, first ? " (" : ", ");
        first = false;
        ob_u64(out, m->kinds[k]);
        ob_putc(out, ' ');
        ob_puts(out, onnx_kind_name((enum onnx_kind)k));
    }
    ob_puts(out, first ? "\n" : ")\n");
    text_label(out, "initializer bytes");
    ob_bytes(out, m->initializer_bytes);
    if (m->external) {
        ob_puts(out, "; ");
        ob_u64(out, m->external);
        ob_puts(out, " external (not read)");
    }
    ob_putc(out, '\n');
    text_label(out, "I/O bytes");
    ob_bytes(out, m->io_bytes);
    for (unsigned k = 0; k < s->onnx.n_dims; k++) {
        ob_puts(out, k ? " " : " at ");
        ob_puts(out, "--dim ");
        ob_quoted_text(out, s->cfg->dims[k], SIZE_MAX);
    }
    ob_putc(out, '\n');
    text_label(out, "largest");
    if (m->has_largest) {
        ob_write(out, m->largest.data, m->largest.len);
        ob_puts(out, ": ");
        ob_bytes(out, m->largest_bytes);
        ob_putc(out, '\n');
    } else {
        ob_puts(out, "-\n");
    }
    text_label(out, "broken");
    put_text_list(out, m->broken, &m->broken_paths);
    text_label(out, "failed");
    put_text_list(out, m->failed, &m->failed_paths);
}

/* {"summary":{...}}: the model's totals, after its records. */
static void put_onnx_summary(struct scan *s)
{
    const struct onnx_model *m = &s->model;
    struct outbuf *out = s->out;
    ob_puts(out, "{\"summary\":{");
    if (s->multi) {
        ob_puts(out, "\"file\":");
        ob_json_str(out, s->file);
        ob_putc(out, ',');
    }
    ob_puts(out, "\"tensors\":");
    ob_u64(out, m->tensors);
    ob_puts(out, ",\"kinds\":{");
    for (unsigned k = 0; k < ONNX_KIND_COUNT; k++) {
        if (k)
            ob_putc(out, ',');
        ob_json_str(out, onnx_kind_name((enum onnx_kind)k));
        ob_putc(out, ':');
        ob_u64(out, m->kinds[k]);
    }
    ob_puts(out, "},\"initializer_bytes\":");
    ob_u128(out, m->initializer_bytes);
    ob_puts(out, ",\"external_initializers\":");
    ob_u64(out, m->external);
    ob_puts(out, ",\"io_bytes\":");
    ob_u128(out, m->io_bytes);
    ob_puts(out, ",\"largest\":");
    if (m->has_largest)
        ob_write(out, m->largest.data, m->largest.len);
    else
        ob_puts(out, "null");
    ob_puts(out, ",\"broken\":");
    ob_u64(out, m->broken);
    put_json_list(out, "broken_paths", m->broken, &m->broken_paths);
    ob_puts(out, ",\"failed\":");
    ob_u64(out, m->failed);
    put_json_list(out, "failed_paths", m->failed, &m->failed_paths);
    ob_puts(out, "}}\n");
}

/* An ONNX model that onnx_walk() checked whole already: its records and
 * its summary. */
static void release_map(void *ctx, size_t upto)
{
    struct scan *s = ctx;
    plat_map_release(s->map, upto);
}

static bool scan_onnx(struct scan *s, const unsigned char *data, size_t len, struct cli_error *e)
{
    struct onnx_error oe;
    bool oom;
    s->onnx_files++;
    struct onnx_model *m = &s->model;
    m->tensors = m->failed = m->broken = m->external = 0;
    memset(m->kinds, 0, sizeof m->kinds);
    m->initializer_bytes = m->io_bytes = m->largest_bytes = dmlt_u128_from_u64(0);
    m->has_largest = false;
    ob_reset(&m->largest);
    ob_reset(&m->broken_paths);
    ob_reset(&m->failed_paths);
    if (s->text) { /* a walk to measure the names first: the table's width */
        s->name_width = 0;
        if (!onnx_walk(data, len, measure_tensor, release_map, s, &oe, &oom))
            return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        put_text_header(s);
    }
    if (!onnx_walk(data, len, scan_onnx_tensor, release_map, s, &oe, &oom) || s->failed_write) {
        if (s->failed_write)
            *e = *s->e;
        else
            cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        return false;
    }
    if (s->text)
        put_text_totals(s);
    else
        put_onnx_summary(s);
    return drain_if_full(s);
}

/* ---- scan: one file ---------------------------------------------------------- */

static bool scan_file(struct scan *s, struct cli_error *e)
{
    struct plat_map m;
    memset(&m, 0, sizeof m);
    if (!scan_input_open(s->file, s->cfg->in, &m, e))
        return false;
    struct onnx_error oe;
    bool oom = false, ok;
    s->map = &m;
    if (scan_looks_like_json(m.data, m.len) && s->text) {
        ok = cli_fail(e, CLI_E_BAD_FORMAT, "--format", "text",
                      "text is for ONNX models; JSON documents are scanned as JSON Lines, and "
                      "%s is one",
                      s->file);
        cli_hint(e, "scan it without --format text (or with --format jsonl)");
    } else if (scan_looks_like_json(m.data, m.len)) {
        ok = scan_json(s, (const char *)m.data, m.len, e);
    } else if (onnx_walk(m.data, m.len, NULL, release_map, s, &oe, &oom)) {
        /* The whole model is checked first: a damaged one prints no record. */
        ok = scan_onnx(s, m.data, m.len, e);
    } else if (oom) {
        ok = cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    } else if (m.data[0] == 0x08) { /* ir_version first, as every exporter writes it */
        ok = cli_fail(e, CLI_E_BAD_ONNX, NULL, s->file, "a damaged ONNX model: at byte %zu: %s",
                      oe.offset, oe.message);
        cli_hint(e, "scan reads JSON documents and ONNX models (a protobuf ModelProto)");
    } else {
        /* Neither: JSON's error, as for any document that is not JSON. */
        ok = scan_json(s, (const char *)m.data, m.len, e);
        if (!ok && e->id == cli_error_name(CLI_E_BAD_JSON))
            cli_hint(e, "nor is it an ONNX model (at byte %zu: %s)", oe.offset, oe.message);
    }
    s->map = NULL; /* m lives no longer */
    plat_unmap_file(&m);
    return ok;
}

/* --checks all|failed|none into cfg->checks_shown. */
static bool checks_read(struct cli_config *cfg, struct cli_error *e)
{
    static const char *const names[] = {"all", "failed", "none"};
    for (unsigned i = 0; i < 3; i++) {
        if (cfg->checks == NULL || strcmp(cfg->checks, names[i]) == 0) {
            cfg->checks_shown = cfg->checks == NULL ? CHECKS_ALL : i;
            return true;
        }
    }
    cli_fail(e, CLI_E_BAD_CHECKS, "--checks", cfg->checks, "not all, failed or none");
    cli_hint(e, "--checks failed lists only the checks a tensor fails");
    return false;
}

static bool run_scan(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    const bool text = cfg->format_text != NULL && cfg->format == FMT_TEXT;
    /* --format jsonl, and json (the same for scan, as every other command
     * takes json), as without it: errors on stderr alone. */
    cfg->format = FMT_TEXT;
    if (cfg->input == NULL) {
        cli_fail(e, CLI_E_MISSING_ARGUMENT, NULL, NULL,
                 "missing: the JSON file to scan (or - for stdin)");
        cli_hint(e, "dmltensor scan model.json");
        return false;
    }
    if (!checks_read(cfg, e))
        return false;
    struct scan s;
    memset(&s, 0, sizeof s);
    if (!onnx_options_read(cfg, &s.onnx, e)) {
        onnx_options_free(&s.onnx);
        return false;
    }
    s.cfg = cfg;
    s.out = out;
    s.e = e;
    s.multi = cfg->n_files > 1;
    s.text = text;
    s.d = malloc(sizeof *s.d);
    ob_init(&s.rec);
    ob_init(&s.path);
    ob_init(&s.scratch);
    ob_init(&s.text_tmp);
    ob_init(&s.model.largest);
    ob_init(&s.model.broken_paths);
    ob_init(&s.model.failed_paths);
    bool ok = s.d != NULL;
    if (!ok)
        cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    unsigned bad_files = 0;
    for (unsigned i = 0; ok && i < cfg->n_files; i++) {
        s.file = cfg->files[i];
        struct cli_error fe;
        if (scan_file(&s, &fe))
            continue;
        if (!s.multi || s.failed_write || fe.exit_code == CLI_EXIT_IO ||
            fe.id == cli_error_name(CLI_E_OUT_OF_MEMORY)) {
            *e = fe;
            ok = false;
            break;
        }
        /* One file that cannot be read does not end the run. */
        struct outbuf msg;
        ob_init(&msg);
        render_error_text(&msg, &fe);
        (void)ob_flush_to(&msg, cfg->err);
        ob_free(&msg);
        if (s.text) {
            if (s.text_started)
                ob_putc(out, '\n');
            s.text_started = true;
            ob_quoted_text(out, s.file, SIZE_MAX);
            ob_puts(out, ": not scanned: error: ");
            ob_puts(out, fe.id);
            ob_putc(out, '\n');
        } else {
            ob_puts(out, "{\"file\":");
            ob_json_str(out, s.file);
            ob_putc(out, ',');
            render_error_member(out, &fe);
            ob_puts(out, "}\n");
        }
        bad_files++;
        if (!drain_if_full(&s)) {
            *e = *s.e;
            ok = false;
        }
    }
    free(s.d);
    ob_free(&s.rec);
    ob_free(&s.path);
    ob_free(&s.scratch);
    ob_free(&s.text_tmp);
    ob_free(&s.model.largest);
    ob_free(&s.model.broken_paths);
    ob_free(&s.model.failed_paths);
    if (!ok) {
        onnx_options_free(&s.onnx);
        return false;
    }
    for (unsigned k = 0; s.onnx_files && k < s.onnx.n_dims; k++)
        if (!s.onnx.dims[k].used)
            cli_note(cfg->err, "scan: --dim %s: no tensor has the symbolic dim \"%.*s\"",
                     cfg->dims[k], (int)s.onnx.dims[k].len, s.onnx.dims[k].name);
    onnx_options_free(&s.onnx);
    results_summary(cfg, &s.t,
                    s.onnx_files == 0
                        ? (s.bindings ? "tensor descriptions and bindings" : "tensor descriptions")
                    : s.onnx_files == cfg->n_files - bad_files ? "tensors"
                                                               : "records");
    if (s.t.failed || s.t.broken)
        cfg->exit_status = CLI_EXIT_RULE;
    if (bad_files) { /* records, as batch's failed ones: exit 2 would promise no output */
        fprintf(cfg->err, "dmltensor: scan: %u of %u files could not be scanned\n", bad_files,
                cfg->n_files);
        cfg->exit_status = CLI_EXIT_RULE;
    }
    return true;
}

const struct command cmd_scan = {
    .name = "scan",
    .id = CMD_SCAN,
    .summary = "find and validate every tensor of a JSON document or an ONNX model",
    .usage = "dmltensor scan FILE|- [FILE...] [--dim NAME=VALUE]... [--rank R] [--layout L]\n"
             "                     [--format jsonl|json|text] [--checks all|failed|none]",
    .about = "Finds every DirectML tensor description (an object with DataType and\n"
             "Sizes) anywhere in a JSON document, such as a DxDispatch model, and writes\n"
             "one JSON line per description: its JSON path, dtype, sizes, strides and\n"
             "validation result (as validate --format json prints it). Other keys of\n"
             "those objects are ignored; an operator's own Strides (a convolution's) are\n"
             "not a tensor's. In a DxDispatch model, each tensor a dispatch binds to a\n"
             "resource gets a line too: the binding's Offset, SizeInBytes and buffer\n"
             "size, checked (binding_size, binding_in_buffer, base_offset_16). Exit\n"
             "status 1 when any description or binding breaks a rule.\n"
             "\n"
             "An ONNX model (recognised by its content, a protobuf ModelProto) gets one\n"
             "line per tensor of its graph and subgraphs (inputs, outputs, initializers,\n"
             "value_info, Constant nodes): path, name, kind, onnx_type, then the\n"
             "DirectML descriptor and validate's result, or an error (dtype_unsupported,\n"
             "not_a_tensor, dim_unbound, ...); then one {\"summary\":...} line. Tensor\n"
             "data is never read: the file is mapped and weights are skipped unread.\n"
             "With several files, each line carries its \"file\".\n"
             "\n"
             "--format text prints an ONNX model as a table for people instead: a row\n"
             "per tensor (name, kind, type, sizes, bytes, status: ok, INVALID and the\n"
             "first failed check, or error and its id), then its totals. JSON documents\n"
             "are JSON Lines only: with --format text they are refused (exit status 2).\n"
             "--format json is the same as jsonl.\n",
    .examples = "  dmltensor scan model.json | jq -r 'select(.valid == false) | .path'\n"
                "  dmltensor scan model.onnx --dim batch=8 | jq -r 'select(.error or .valid == "
                "false) | .path'\n"
                "  dmltensor scan model.onnx --dim batch=8 --format text\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON) | FMT_BIT(FMT_JSONL), /* json: jsonl */
    .batch = false,
    .run = run_scan,
};
