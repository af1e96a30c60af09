/* cmd_batch.c - `batch` (JSON descriptors in, one JSON result per record
 * out, in order) and `scan` (every DirectML tensor description inside any
 * JSON document, validated). A record runs through the same code as the
 * single command with --format json; a bad record becomes an error record
 * and the run goes on. */
#include "cli.h"
#include "platform.h"
#include "descriptor.h"
#include "json_parse.h"
#include "records.h"
#include "scan_dxdispatch.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BATCH_CHUNK ((size_t)64 << 10)

/* ---- shared -------------------------------------------------------------- */

/* A JSON value as given: strings through ob_json_str (valid UTF-8 out
 * whatever came in), numbers as they were written, lists and objects item
 * by item. */
static void put_json_value(struct outbuf *b, const cJSON *v)
{
    if (v == NULL || cJSON_IsNull(v)) {
        ob_puts(b, "null");
    } else if (cJSON_IsString(v)) {
        ob_json_str(b, v->valuestring);
    } else if (cJSON_IsBool(v)) {
        ob_puts(b, cJSON_IsTrue(v) ? "true" : "false");
    } else if (cJSON_IsNumber(v)) {
        ob_puts(b, json_number_text(v)); /* strict JSON: ASCII */
    } else if (cJSON_IsArray(v) || cJSON_IsObject(v)) {
        const bool object = cJSON_IsObject(v);
        ob_putc(b, object ? '{' : '[');
        for (const cJSON *c = v->child; c; c = c->next) {
            if (c != v->child)
                ob_putc(b, ',');
            if (object) {
                ob_json_str(b, c->string ? c->string : "");
                ob_putc(b, ':');
            }
            put_json_value(b, c);
        }
        ob_putc(b, object ? '}' : ']');
    }
}

/* Runs d's command into rec (one JSON object and a newline). */
static bool run_descriptor(struct descriptor *d, struct outbuf *rec, struct cli_error *e)
{
    if (d->layout_check || d->n_broadcast_check) {
        struct tensor_desc td;
        if (!describe_tensor(&d->cfg.t, &td, e) || !descriptor_check_described(d, &td, e)) {
            descriptor_name_key(d, e);
            return false;
        }
    }
    bool ok = d->cfg.cmd == CMD_OFFSET     ? run_offset(&d->cfg, rec, e)
              : d->cfg.cmd == CMD_VALIDATE ? run_validate(&d->cfg, rec, e)
              : d->cfg.cmd == CMD_VIEW     ? run_view(&d->cfg, rec, e)
                                           : run_size(&d->cfg, rec, e);
    if (!ok)
        descriptor_name_key(d, e);
    return ok;
}

struct progress {
    bool on, shown, tty;
    FILE *err;
    double start, last; /* plat_seconds() */
};

static void progress_init(struct progress *p, const struct cli_config *cfg)
{
    p->tty = plat_isatty(cfg->err);
    p->on = cfg->progress || p->tty; /* on a terminal it shows after a second */
    p->shown = false;
    p->err = cfg->err;
    p->start = p->last = plat_seconds();
}

static void progress_tick(struct progress *p, uint64_t records, bool last)
{
    if (!p->on)
        return;
    double now = plat_seconds(), total = now - p->start;
    if (!last && (total < 1.0 || now - p->last < (p->tty ? 0.25 : 1.0)))
        return;
    if (last && !p->shown)
        return; /* a quick run says nothing */
    p->last = now;
    fprintf(p->err, "%sdmltensor: %llu records, %.0f records/s%s", p->tty ? "\r\033[K" : "",
            (unsigned long long)records, total > 0 ? (double)records / total : 0.0,
            p->tty && !last ? "" : "\n");
    fflush(p->err);
    p->shown = true;
}

struct tally {
    uint64_t records, failed, broken; /* error records; well-formed but invalid */
    unsigned long first_line;
    char first_message[600];
};

static void note_failure(struct tally *t, unsigned long line, const struct cli_error *e)
{
    if (t->failed++ == 0) {
        t->first_line = line;
        snprintf(t->first_message, sizeof t->first_message, "%.150s%s%.400s",
                 e->key      ? e->key
                 : e->option ? e->option
                             : "",
                 e->key || e->option ? ": " : "", e->message);
        for (char *c = t->first_message; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?'; /* a key from the input may hold control bytes */
    }
}

/* A record's id as given: from the tree, or the text the plain path kept. */
static void put_id(struct outbuf *out, const struct descriptor *d)
{
    if (d && d->id_text)
        ob_write(out, d->id_text, d->id_len);
    else
        put_json_value(out, d ? d->id : NULL);
}

static void error_record(struct outbuf *out, const struct descriptor *d, const char *path,
                         unsigned long line, const struct cli_error *e)
{
    ob_puts(out, "{\"id\":");
    put_id(out, d);
    if (path) {
        ob_puts(out, ",\"path\":");
        ob_json_str(out, path);
    } else {
        ob_puts(out, ",\"line\":");
        ob_u64(out, line);
    }
    ob_putc(out, ',');
    render_error_member(out, e);
    ob_puts(out, "}\n");
}

static FILE *open_input(struct cli_config *cfg, struct cli_error *e, bool *opened)
{
    *opened = false;
    if (cfg->input == NULL || strcmp(cfg->input, "-") == 0)
        return cfg->in;
    int err;
    FILE *f = plat_open_read(cfg->input, &err);
    if (f == NULL && err == EISDIR) { /* a usage error, like a missing file: not a failed read */
        fail(e, "cannot_open", NULL, cfg->input, "cannot open: it is a directory");
        set_hint(e, "give a JSON file, or - for standard input");
        return NULL;
    }
    if (f == NULL) {
        fail(e, "cannot_open", NULL, cfg->input, "cannot open: %s", strerror(err));
        return NULL;
    }
    *opened = true;
    return f;
}

static void summary(const struct cli_config *cfg, const struct tally *t, const char *what)
{
    if (t->failed) {
        char where[40] = "";
        if (t->first_line)
            snprintf(where, sizeof where, ", at line %lu", t->first_line);
        fprintf(cfg->err, "dmltensor: %s: %llu of %llu %s failed; the first%s: %s\n", cfg->cmd_name,
                (unsigned long long)t->failed, (unsigned long long)t->records, what, where,
                t->first_message);
    }
    if (t->broken)
        fprintf(cfg->err,
                "dmltensor: %s: %llu of %llu %s break a DirectML rule (\"valid\":false)\n",
                cfg->cmd_name, (unsigned long long)t->broken, (unsigned long long)t->records, what);
}

/* ---- cJSON's memory: one arena per record ------------------------------ */

/* cJSON allocates every node and string separately; a record's tree lives
 * only until the record is answered, so its memory comes from a bump arena
 * emptied after each record (about a third of the time per record went to
 * malloc and free). Blocks past the first are freed at each reset, so the
 * arena does not grow with the number of records. */
struct arena_block {
    struct arena_block *next;
    size_t used, size;
    max_align_t data[];
};

static struct arena_block *arena_head;

static void *arena_malloc(size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    struct arena_block *b = arena_head;
    if (b == NULL || b->size - b->used < n) {
        size_t size = n > ((size_t)60 << 10) ? n : ((size_t)60 << 10);
        struct arena_block *nb = malloc(sizeof *nb + size);
        if (nb == NULL)
            return NULL;
        nb->next = b;
        nb->used = 0;
        nb->size = size;
        arena_head = b = nb;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    return p;
}

static void arena_free(void *p)
{
    (void)p; /* everything goes at the next reset */
}

static void arena_reset(bool release_all)
{
    while (arena_head && (release_all || arena_head->next)) {
        struct arena_block *next = arena_head->next;
        free(arena_head);
        arena_head = next;
    }
    if (arena_head)
        arena_head->used = 0;
}

static void arena_hooks(bool on)
{
    cJSON_Hooks hooks = {on ? arena_malloc : NULL, on ? arena_free : NULL};
    cJSON_InitHooks(&hooks);
    if (!on)
        arena_reset(true);
}

/* ---- batch ---------------------------------------------------------------- */

/* Runs the described record: its result, or an error record, into out. */
static void answer(struct descriptor *d, unsigned long line, struct outbuf *out, struct tally *t)
{
    struct cli_error e;
    /* The single command's object, rendered in place, with the id in front:
     * {"id":X then {"dtype":... whose '{' becomes ','. */
    const size_t mark = out->len;
    const bool has_id = d->id || d->id_text;
    size_t brace = mark;
    if (has_id) {
        ob_puts(out, "{\"id\":");
        put_id(out, d);
        brace = out->len;
    }
    if (run_descriptor(d, out, &e)) {
        if (has_id && !out->failed)
            out->data[brace] = ',';
        if (d->cfg.exit_status != EXIT_OK)
            t->broken++;
    } else {
        out->len = mark; /* nothing half */
        error_record(out, d, NULL, line, &e);
        note_failure(t, line, &e);
    }
}

static void batch_record(const char *text, size_t len, unsigned long line, struct descriptor *d,
                         struct outbuf *out, struct tally *t)
{
    /* Every node and string of the last record's tree came from the arena
     * (batch runs with arena_hooks on): the reset frees them all at once,
     * without the walk cJSON_Delete would make to free each one. Here, so
     * that no way out of a record (a bad one included) keeps its tree. */
    arena_reset(false);
    /* Most records are plain: read straight into the descriptor. */
    if (descriptor_from_plain(text, len, d)) {
        answer(d, line, out, t);
        return;
    }
    struct cli_error e;
    struct json_error je;
    cJSON *root = json_parse(text, len, &je);
    if (root == NULL) {
        if (je.at >= len)
            fail(&e, "bad_json", NULL, NULL, "%s at the end of the record", je.message);
        else
            fail(&e, "bad_json", NULL, NULL, "%s at byte %zu of the record", je.message, je.at + 1);
        error_record(out, NULL, NULL, line, &e);
        note_failure(t, line, &e);
        return;
    }
    if (descriptor_from_json(root, DESC_BATCH, d, &e)) {
        answer(d, line, out, t);
    } else {
        error_record(out, d, NULL, line, &e);
        note_failure(t, line, &e);
    }
}

bool run_batch(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    bool opened;
    FILE *in = open_input(cfg, e, &opened);
    if (in == NULL)
        return false;
    struct record_reader *r = malloc(sizeof *r);
    struct descriptor *d = malloc(sizeof *d);
    if (r == NULL || d == NULL) {
        free(r);
        free(d);
        if (opened)
            fclose(in);
        return fail(e, "out_of_memory", NULL, NULL, "out of memory");
    }
    record_reader_init(r, in);
    struct tally t = {0};
    struct progress p;
    progress_init(&p, cfg);
    arena_hooks(true);
    bool ok = true;
    for (;;) {
        const char *text;
        size_t len;
        unsigned long line;
        enum record_status st = record_next(r, &text, &len, &line);
        if (st == RECORD_END)
            break;
        if (st == RECORD_IO_ERROR) {
            ok = fail(e, "io_error", NULL, cfg->input ? cfg->input : "-", "read error: %s",
                      strerror(errno ? errno : EIO));
            e->exit_code = EXIT_IO;
            break;
        }
        t.records++;
        if (st == RECORD_OK) {
            batch_record(text, len, line, d, out, &t);
        } else {
            struct cli_error re;
            if (st == RECORD_TOO_LONG)
                fail(&re, "record_too_long", NULL, NULL, "the record is longer than %zu bytes",
                     RECORD_MAX);
            else
                fail(&re, "bad_json", NULL, NULL,
                     "the JSON array is not closed by a single ']' (or has a trailing comma)");
            error_record(out, NULL, NULL, line, &re);
            note_failure(&t, line, &re);
        }
        if (out->len >= BATCH_CHUNK && !cli_drain(out, e)) {
            ok = false;
            break;
        }
        if ((t.records & 1023u) == 0)
            progress_tick(&p, t.records, false);
    }
    progress_tick(&p, t.records, true);
    arena_hooks(false);
    record_reader_free(r);
    free(r);
    free(d);
    if (opened)
        fclose(in);
    if (!ok)
        return false;
    summary(cfg, &t, "records");
    if (t.failed || t.broken)
        cfg->exit_status = EXIT_RULE;
    return true;
}

/* ---- scan ----------------------------------------------------------------- */

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
    if (!descriptor_from_json(obj, DESC_SCAN, s->d, &e) || !run_descriptor(s->d, &s->rec, &e)) {
        error_record(s->out, NULL, path, 0, &e);
        note_failure(&s->t, 0, &e);
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
        ob_write(s->out, s->rec.data + 1, s->rec.len - 1);
        if (s->d->cfg.exit_status != EXIT_OK)
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
        ok = run_descriptor(s->d, &s->rec, &e);
    }
    if (!ok) {
        /* As error_record() writes it, with what is known of the binding. */
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
        note_failure(&s->t, 0, err ? err : &e);
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
        ob_write(s->out, s->rec.data + 1, s->rec.len - 1);
        if (s->d->cfg.exit_status != EXIT_OK)
            s->t.broken++;
    }
    if (s->out->len >= BATCH_CHUNK && !cli_drain(s->out, s->e))
        s->failed_write = true;
}

bool run_scan(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    if (cfg->input == NULL) {
        fail(e, "missing_argument", NULL, NULL, "missing: the JSON file to scan (or - for stdin)");
        set_hint(e, "dmltensor scan model.json");
        return false;
    }
    bool opened;
    FILE *in = open_input(cfg, e, &opened);
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
            fail(e, "io_error", NULL, cfg->input, "read error: %s",
                 strerror(read_errno ? read_errno : EIO));
            e->exit_code = EXIT_IO;
            return false;
        }
        return fail(e, "input_too_large", NULL, cfg->input,
                    "larger than %u MiB; scan reads a document whole",
                    (unsigned)(SCAN_MAX_INPUT >> 20));
    }
    /* A UTF-8 byte order mark is not content (batch skips it too). */
    const char *data = doc.data ? doc.data : "";
    size_t bom = doc.len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    struct json_error je = {"out of memory", 0};
    cJSON *root = doc.failed ? NULL : json_parse(data + bom, doc.len - bom, &je);
    if (root == NULL) {
        size_t off = je.at + bom;
        unsigned long line = 1;
        for (size_t i = 0; i < off && i < doc.len; i++)
            line += data[i] == '\n';
        ob_free(&doc);
        return fail(e, "bad_json", NULL, cfg->input, "%s at line %lu", je.message, line);
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
        fail(e, "out_of_memory", NULL, NULL, "out of memory");
    }
    ok = ok && !s.failed_write;
    if (s.d == NULL)
        fail(e, "out_of_memory", NULL, NULL, "out of memory");
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
    summary(cfg, &s.t, s.bindings ? "tensor descriptions and bindings" : "tensor descriptions");
    if (s.t.failed || s.t.broken)
        cfg->exit_status = EXIT_RULE;
    return true;
}
