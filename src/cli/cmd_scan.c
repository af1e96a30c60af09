/* cmd_scan.c - `scan`: every DirectML tensor description inside any JSON
 * document (a DxDispatch model, say) validated, and a DxDispatch model's
 * bindings checked. */
#include "scan.h"
#include "scan_dxdispatch.h"
#include "input.h"
#include "parse.h"
#include "source_json.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A tensor description: validate's result, or the error that keeps it
 * unchecked, as a record. */
static enum onnx_step scan_hit(struct scan *s, const cJSON *obj)
{
    struct cli_error e;
    struct scan_record r = {.start = s->out->len};
    ob_putc(&s->path, '\0');
    const char *path = s->path.data;
    if (s->path.failed) /* cli_ob_oom_seen(): the command fails "out of memory" */
        return ONNX_STEP_GO;
    cli_ob_reset(&s->rec);
    bool ok = cli_descriptor_from_json(obj, DESC_SCAN, s->d, &e);
    if (ok) {
        s->d->cfg.json_opened = true; /* validate's keys follow the path's */
        s->d->cfg.checks_shown = s->cfg->checks_shown;
        ok = cli_results_run(s->d, &s->rec, &e);
    }
    if (!ok) {
        cli_results_error_record(s->out, NULL, path, 0, &e);
        r.failure = &e;
    } else {
        /* {"path":..., "dtype":..., "sizes":[...], and validate's keys} */
        struct tensor_desc td;
        struct cli_error ignored;
        ob_puts(s->out, "{\"path\":");
        cli_ob_json_str(s->out, path);
        if (cli_describe_tensor(&s->d->cfg.t, &td, &ignored)) {
            ob_puts(s->out, ",\"dtype\":");
            cli_ob_json_str(s->out, dmlt_dtype_get(td.t.dtype)->name);
            ob_puts(s->out, ",\"sizes\":");
            cli_ob_u32_list(s->out, td.t.sizes, td.t.rank, 1, true);
            ob_puts(s->out, ",\"strides\":");
            cli_ob_u32_list(s->out, td.t.strides, td.t.rank, 1, true);
        }
        ob_putc(s->out, ',');
        ob_write(s->out, s->rec.data, s->rec.len);
        r.broken = s->d->cfg.exit_status != CLI_EXIT_OK;
    }
    s->path.len--; /* drop the NUL again */
    return cli_scan_sink(s, &r);
}

/* Every tensor description in v, in document order, until the sink says
 * stop. */
static enum onnx_step scan_value(struct scan *s, const cJSON *v)
{
    if (cJSON_IsObject(v) && cJSON_GetObjectItemCaseSensitive(v, "DataType") &&
        cJSON_GetObjectItemCaseSensitive(v, "Sizes"))
        return scan_hit(s, v); /* a tensor description holds no other */
    if (!cJSON_IsObject(v) && !cJSON_IsArray(v))
        return ONNX_STEP_GO;
    size_t mark = s->path.len;
    unsigned long i = 0;
    enum onnx_step step = ONNX_STEP_GO;
    for (const cJSON *c = v->child; c && step == ONNX_STEP_GO; c = c->next, i++) {
        if (cJSON_IsObject(v)) {
            cli_ob_json_path_key(&s->path, c->string);
        } else {
            ob_putc(&s->path, '[');
            ob_u64(&s->path, i);
            ob_putc(&s->path, ']');
        }
        step = scan_value(s, c);
        s->path.len = mark;
    }
    return step;
}

/* ---- scan: a DxDispatch model's bindings ------------------------------------ */

/* One bound tensor: validate's checks with the binding's Offset,
 * SizeInBytes and buffer size; or the error that keeps it unchecked. */
static enum onnx_step scan_binding(void *ctx, const struct dxd_binding *b,
                                   const struct cli_error *err)
{
    struct scan *s = ctx;
    s->bindings++;
    struct cli_error e;
    struct scan_record r = {.start = s->out->len};
    char offset[24], size[24], buffer[24];
    *cli_put_u64(offset, b->offset) = '\0';
    *cli_put_u64(size, b->size) = '\0';
    *cli_put_u64(buffer, b->buffer_size) = '\0';
    cli_ob_reset(&s->rec);
    bool ok = err == NULL && cli_descriptor_from_json(b->tensor, DESC_SCAN, s->d, &e);
    if (ok) {
        s->d->cfg.t.base_offset = offset;
        s->d->cfg.t.binding_size = b->has_size ? size : NULL;
        s->d->cfg.t.buffer_size = b->has_buffer_size ? buffer : NULL;
        s->d->cfg.json_opened = true; /* validate's keys follow the binding's */
        s->d->cfg.checks_shown = s->cfg->checks_shown;
        ok = cli_results_run(s->d, &s->rec, &e);
    }
    if (!ok) {
        /* As cli_results_error_record() writes it, with what is known of the binding. */
        ob_puts(s->out, "{\"id\":null,\"path\":");
        cli_ob_json_str(s->out, b->path);
        if (b->tensor_path) {
            ob_puts(s->out, ",\"tensor_path\":");
            cli_ob_json_str(s->out, b->tensor_path);
        }
        if (b->resource) {
            ob_puts(s->out, ",\"resource\":");
            cli_ob_json_str(s->out, b->resource);
        }
        ob_putc(s->out, ',');
        cli_render_error_member(s->out, err ? err : &e);
        ob_puts(s->out, "}\n");
        r.failure = err ? err : &e;
    } else {
        /* {"path":..., "tensor_path":..., "resource":..., the tensor, the
         * binding, and validate's keys} */
        struct tensor_desc td;
        struct cli_error ignored;
        ob_puts(s->out, "{\"path\":");
        cli_ob_json_str(s->out, b->path);
        ob_puts(s->out, ",\"tensor_path\":");
        cli_ob_json_str(s->out, b->tensor_path);
        ob_puts(s->out, ",\"resource\":");
        cli_ob_json_str(s->out, b->resource);
        if (cli_describe_tensor(&s->d->cfg.t, &td, &ignored)) {
            ob_puts(s->out, ",\"dtype\":");
            cli_ob_json_str(s->out, dmlt_dtype_get(td.t.dtype)->name);
            ob_puts(s->out, ",\"sizes\":");
            cli_ob_u32_list(s->out, td.t.sizes, td.t.rank, 1, true);
            ob_puts(s->out, ",\"strides\":");
            cli_ob_u32_list(s->out, td.t.strides, td.t.rank, 1, true);
        }
        ob_puts(s->out, ",\"base_offset_bytes\":");
        ob_puts(s->out, offset);
        ob_puts(s->out, ",\"binding_size_bytes\":");
        ob_puts(s->out, b->has_size ? size : "null");
        ob_puts(s->out, ",\"buffer_size_bytes\":");
        ob_puts(s->out, b->has_buffer_size ? buffer : "null");
        ob_putc(s->out, ',');
        ob_write(s->out, s->rec.data, s->rec.len);
        r.broken = s->d->cfg.exit_status != CLI_EXIT_OK;
    }
    return cli_scan_sink(s, &r);
}

/* ---- scan: a JSON document ------------------------------------------------- */

static bool scan_json(struct scan *s, const char *data, size_t len, struct cli_error *e)
{
    const char *name = s->file;
    if (len > cli_input_json_cap())
        return cli_input_too_large(e, name, false);
    /* A UTF-8 byte order mark is not content (batch skips it too). */
    if (data == NULL)
        data = "";
    size_t bom = len >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    struct json_error je = {"out of memory", 0};
    cJSON *root = cli_json_parse(data + bom, len - bom, NULL, &je);
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
    enum onnx_step step = scan_value(s, root);
    if (step == ONNX_STEP_GO && cli_dxd_is_model(root))
        step = cli_dxd_scan_bindings(root, scan_binding, s);
    cJSON_Delete(root);
    if (step == ONNX_STEP_FAIL && s->failed) { /* the sink's: s->e says why */
        *e = *s->e;
        return false;
    }
    if (step == ONNX_STEP_FAIL) /* the bindings' paths could not grow */
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    if (s->t.records == before)
        cli_note(s->cfg->err,
                 "scan: no tensor description (an object with DataType and Sizes) in %s", name);
    return true;
}

/* ---- scan: one file ---------------------------------------------------------- */

static bool scan_file(struct scan *s, struct cli_error *e)
{
    struct input in;
    if (!cli_input_open(&in, s->file, s->cfg->in, e))
        return false;
    if (in.json_start ? !in.json : !in.model) { /* refused at once, whatever follows */
        cli_input_refuse(&in, SCAN_READS, e);
        cli_input_close(&in);
        return false;
    }
    if (in.json_start && s->text) {
        cli_fail(e, CLI_E_BAD_FORMAT, "--format", "text",
                 "text is for ONNX models; JSON documents are scanned as JSON Lines, and %s is one",
                 s->file);
        cli_hint(e, "scan it without --format text (or with --format jsonl)");
        cli_input_close(&in);
        return false;
    }
    struct plat_map m;
    memset(&m, 0, sizeof m);
    bool ok = cli_input_whole(&in, &m, e);
    cli_input_close(&in);
    if (!ok)
        return false;
    struct onnx_error oe;
    bool oom = false;
    s->map = &m;
    if (in.json_start) {
        ok = scan_json(s, (const char *)m.data, m.len, e);
    } else if (cli_model_session_open(&s->session, &m, MODEL_RECORDS_ALL, cli_scan_release_map, s,
                                      &oe, &oom)) {
        /* The whole model is checked first: a damaged one prints no record. */
        ok = cli_scan_onnx(s, e);
    } else {
        ok = cli_model_session_fail(e, &oe, oom, s->file, SCAN_READS);
    }
    onnx_session_close(&s->session); /* (a JSON document opened none) */
    s->map = NULL;                   /* m lives no longer */
    cli_plat_unmap_file(&m);
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

/* What the options asked for that the files did not have: a --dim no
 * tensor uses, a --shape no value of a main graph (a JSON document has
 * neither), --top over a JSON document's records. */
static void note_unused(struct cli_config *cfg, const struct scan *s, unsigned bad_files)
{
    for (unsigned k = 0; k < s->onnx.n_dims; k++)
        if (!s->onnx.dims[k].used)
            cli_note(cfg->err, "scan: --dim %s: no tensor has the symbolic dim \"%.*s\"",
                     s->onnx.dims[k].text, (int)s->onnx.dims[k].len, s->onnx.dims[k].name);
    for (unsigned k = 0; k < s->onnx.n_shapes; k++)
        if (!s->onnx.shapes[k].used)
            cli_note(cfg->err, "scan: --shape %s: the main graph has no tensor \"%.*s\"",
                     s->onnx.shapes[k].text, (int)s->onnx.shapes[k].len, s->onnx.shapes[k].name);
    if (cfg->top && s->onnx_files < cfg->n_files - bad_files)
        cli_note(cfg->err,
                 "scan: --top %s: a JSON document's records are written whole "
                 "(--top keeps an ONNX model's largest)",
                 cfg->top);
}

/* Each file in turn; one that cannot be scanned, with several files, is
 * a record of its own (counted in *bad_files) unless the run cannot go on
 * (a write error, out of memory). */
static bool scan_files(struct scan *s, unsigned *bad_files, struct cli_error *e)
{
    for (unsigned i = 0; i < s->cfg->n_files; i++) {
        s->file = s->cfg->files[i];
        struct cli_error fe;
        if (scan_file(s, &fe))
            continue;
        if (!s->multi || s->failed || fe.exit_code == CLI_EXIT_IO ||
            fe.id == cli_error_name(CLI_E_OUT_OF_MEMORY)) {
            *e = fe;
            return false;
        }
        /* One file that cannot be read does not end the run. */
        struct outbuf msg;
        cli_ob_init(&msg);
        cli_render_error_text(&msg, &fe);
        (void)cli_ob_flush_to(&msg, s->cfg->err);
        cli_ob_free(&msg);
        (*bad_files)++;
        if (cli_scan_sink_file_error(s, &fe) != ONNX_STEP_GO) {
            *e = *s->e;
            return false;
        }
    }
    return true;
}

/* After every file: the notes, the tally on stderr and the exit status. */
static void scan_report(struct cli_config *cfg, const struct scan *s, unsigned bad_files)
{
    note_unused(cfg, s, bad_files);
    cli_results_summary(cfg, &s->t,
                        s->onnx_files == 0 ? (s->bindings ? "tensor descriptions and bindings"
                                                          : "tensor descriptions")
                        : s->onnx_files == cfg->n_files - bad_files ? "tensors"
                                                                    : "records");
    if (s->unknown && !cfg->strict)
        cli_note(cfg->err,
                 "scan: %llu tensor%s of unknown size (unbound or unknown dims, no shape or no "
                 "type): not failed (--strict fails them)%s%s",
                 (unsigned long long)s->unknown, s->unknown == 1 ? "" : "s",
                 s->first_note[0] ? "; the first: " : "", s->first_note);
    if (s->t.failed || s->t.broken)
        cfg->exit_status = CLI_EXIT_RULE;
    if (bad_files) { /* records, as batch's failed ones: exit 2 would promise no output */
        fprintf(cfg->err, "dmltensor: scan: %u of %u files could not be scanned\n", bad_files,
                cfg->n_files);
        cfg->exit_status = CLI_EXIT_RULE;
    }
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
    if (!cli_parse_feature_level(cfg->feature_level, &s.dml_level, e) ||
        !cli_onnx_options_read(cfg, &s.onnx, e)) {
        cli_onnx_options_free(&s.onnx);
        return false;
    }
    s.cfg = cfg;
    s.out = out;
    s.e = e;
    if (!cli_scan_top_init(&s, e)) {
        cli_onnx_options_free(&s.onnx);
        return false;
    }
    s.multi = cfg->n_files > 1;
    s.text = text;
    s.d = malloc(sizeof *s.d);
    cli_ob_init(&s.shape);
    cli_ob_init(&s.rec);
    cli_ob_init(&s.path);
    cli_ob_init(&s.scratch);
    cli_ob_init(&s.text_tmp);
    bool ok = cli_scan_onnx_init(&s) && s.d != NULL;
    if (s.d != NULL)
        s.d->commands = cfg->commands;
    if (!ok)
        cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    unsigned bad_files = 0;
    ok = ok && scan_files(&s, &bad_files, e);
    free(s.d);
    cli_scan_onnx_free(&s);
    cli_scan_top_free(&s);
    cli_ob_free(&s.shape);
    cli_ob_free(&s.rec);
    cli_ob_free(&s.path);
    cli_ob_free(&s.scratch);
    cli_ob_free(&s.text_tmp);
    if (ok)
        scan_report(cfg, &s, bad_files);
    cli_onnx_options_free(&s.onnx);
    return ok;
}

const struct command cli_cmd_scan = {
    .name = "scan",
    .id = CMD_SCAN,
    .summary = "find and validate every tensor of a JSON document or an ONNX model",
    .usage = "dmltensor scan FILE|- [FILE...] [--dim NAME=VALUE]... [--rank R] [--layout NAME]\n"
             "                     [--shape NAME=D1,D2,..]... [--strict] [--no-infer]\n"
             "                     [--feature-level X_Y] [--format jsonl|json|text]\n"
             "                     [--checks all|failed|none] [--top N]",
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
             "not_a_tensor, dim_unbound, ...); then one {\"summary\":...} line. Exit\n"
             "status 1 for a definite DirectML problem only; a size that is only unknown\n"
             "(an unbound symbol, no shape) is counted, and fails with --strict. Tensor\n"
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
    .args = ARGS_FILES,
    .batch = false,
    .text_errors = true, /* its records stream on stdout; an error is not one */
    .format_help =
        "jsonl (default: a JSON object per tensor, then an ONNX model's summary; json is the "
        "same) or text (a table of an ONNX model's tensors, then its totals; JSON documents "
        "stay JSON Lines only)",
    .run = run_scan,
};
