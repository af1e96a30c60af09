/* cmd_batch.c - `batch`: JSON descriptors in, one JSON result per record
 * out, in order. A record runs through the same code as the single command
 * with --format json; a bad record becomes an error record and the run goes
 * on. */
#include "results.h"
#include "input.h"
#include "platform.h"
#include "records.h"
#include "source_json.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct progress {
    bool on, shown, tty;
    FILE *err;
    double start, last; /* cli_plat_seconds() */
};

static void progress_init(struct progress *p, const struct cli_config *cfg)
{
    p->tty = cli_plat_isatty(cfg->err);
    p->on = cfg->progress || p->tty; /* on a terminal it shows after a second */
    p->shown = false;
    p->err = cfg->err;
    p->start = p->last = cli_plat_seconds();
}

static void progress_tick(struct progress *p, uint64_t records, bool last)
{
    if (!p->on)
        return;
    double now = cli_plat_seconds(), total = now - p->start;
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

/* ---- batch ---------------------------------------------------------------- */

/* Runs the described record: its result, or an error record, into out. */
static void answer(struct descriptor *d, unsigned long line, struct outbuf *out, struct tally *t)
{
    struct cli_error e;
    /* The single command's object, rendered in place, its id first: batch
     * writes {"id":X, and the command goes on from there. */
    const size_t mark = out->len;
    d->cfg.json_opened = d->id || d->id_text;
    if (d->cfg.json_opened) {
        ob_puts(out, "{\"id\":");
        cli_results_put_id(out, d);
        ob_putc(out, ',');
    }
    if (cli_results_run(d, out, &e)) {
        if (d->cfg.exit_status != CLI_EXIT_OK)
            t->broken++;
    } else {
        out->len = mark; /* nothing half */
        cli_results_error_record(out, d, NULL, line, &e);
        cli_results_note_failure(t, line, &e);
    }
}

static void batch_record(const char *text, size_t len, unsigned long line, struct descriptor *d,
                         struct json_arena *arena, struct outbuf *out, struct tally *t)
{
    /* Every node and string of the last record's tree came from the arena:
     * the reset takes them all back at once, without the walk cJSON_Delete
     * would make to free each one (about a third of the time per record
     * went to malloc and free). Here, so that no way out of a record (a bad
     * one included) keeps its tree. */
    cli_json_arena_reset(arena);
    /* Most records are plain: read straight into the descriptor. */
    if (cli_descriptor_from_plain(text, len, d)) {
        answer(d, line, out, t);
        return;
    }
    struct cli_error e;
    struct json_error je;
    cJSON *root = cli_json_parse(text, len, arena, &je);
    if (root == NULL) {
        if (je.at >= len)
            cli_fail(&e, CLI_E_BAD_JSON, NULL, NULL, "%s at the end of the record", je.message);
        else
            cli_fail(&e, CLI_E_BAD_JSON, NULL, NULL, "%s at byte %zu of the record", je.message,
                     je.at + 1);
        cli_results_error_record(out, NULL, NULL, line, &e);
        cli_results_note_failure(t, line, &e);
        return;
    }
    const bool ok = cli_descriptor_from_json(root, DESC_BATCH, d, &e);
    /* The id is echoed as it was written (docs/batch.md), not as the tree
     * holds it: a string's escapes ("\ud83d\ude00", "\/") stay. */
    if (d->id)
        (void)cli_json_member_text(text, len, "id", arena, &d->id_text, &d->id_len);
    if (ok) {
        answer(d, line, out, t);
    } else {
        cli_results_error_record(out, d, NULL, line, &e);
        cli_results_note_failure(t, line, &e);
    }
}

static bool run_batch(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct input *in = malloc(sizeof *in);
    if (in == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    if (!cli_input_open(in, cfg->input ? cfg->input : "-", cfg->in, e)) {
        free(in);
        return false;
    }
    struct record_reader *r = malloc(sizeof *r);
    struct descriptor *d = malloc(sizeof *d);
    if (r == NULL || d == NULL) {
        free(r);
        free(d);
        cli_input_close(in);
        free(in);
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    }
    cli_input_records(in, r);
    d->commands = cfg->commands;
    struct tally t = {0};
    struct progress p;
    progress_init(&p, cfg);
    struct json_arena arena = {NULL};
    bool ok = true;
    for (;;) {
        const char *text;
        size_t len;
        unsigned long line;
        enum record_status st = cli_record_next(r, &text, &len, &line);
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
        t.records++;
        if (st == RECORD_OK) {
            batch_record(text, len, line, d, &arena, out, &t);
        } else {
            struct cli_error re;
            if (st == RECORD_TOO_LONG)
                cli_fail(&re, CLI_E_RECORD_TOO_LONG, NULL, NULL,
                         "the record is longer than %zu bytes, the most a record may be",
                         RECORD_MAX);
            else
                cli_fail(&re, CLI_E_BAD_JSON, NULL, NULL,
                         "the JSON array is not closed by a single ']' (or has a trailing comma)");
            cli_results_error_record(out, NULL, NULL, line, &re);
            cli_results_note_failure(&t, line, &re);
            if (st == RECORD_TOO_LONG) { /* the rest is not read: the run ends here */
                ok = cli_drain(out, e) &&
                     cli_fail(e, CLI_E_RECORD_TOO_LONG, NULL, in->name,
                              "line %lu: the record is longer than %zu bytes, the most a record "
                              "may be: reading stopped there",
                              line, RECORD_MAX);
                break;
            }
        }
        if (out->len >= BATCH_CHUNK && !cli_drain(out, e)) {
            ok = false;
            break;
        }
        if ((t.records & 1023u) == 0)
            progress_tick(&p, t.records, false);
    }
    progress_tick(&p, t.records, true);
    cli_json_arena_free(&arena);
    cli_record_reader_free(r);
    free(r);
    free(d);
    cli_input_close(in);
    free(in);
    if (!ok)
        return false;
    cli_results_summary(cfg, &t, "records");
    if (t.failed || t.broken)
        cfg->exit_status = CLI_EXIT_RULE;
    return true;
}

const struct command cli_cmd_batch = {
    .name = "batch",
    .id = CMD_BATCH,
    .summary = "many descriptors as JSON Lines or an array: a JSON result each",
    .usage = "dmltensor batch [FILE|-] [--progress]",
    .about = "Reads tensor descriptors, one JSON object per line (JSON Lines) or one\n"
             "JSON array of them, from FILE or stdin, and writes one compact JSON result\n"
             "per descriptor, in input order: the object the single command prints with\n"
             "--format json, with the descriptor's \"id\" first. Keys: dtype sizes\n"
             "strides layout order broadcast pad rank row_pitch_align\n"
             "total_tensor_size_bytes guaranteed_base_offset_alignment base_offset_bytes\n"
             "binding_size_bytes buffer_size_bytes flags, DirectML's DataType Sizes\n"
             "Strides TotalTensorSizeInBytes GuaranteedBaseOffsetAlignment Flags\n"
             "DimensionCount, and command (" CLI_BATCH_COMMANDS "; size by default,\n"
             "offset with coord or coords) and id. A bad record gives\n"
             "{\"id\":...,\"line\":N,\"error\":{...}} and the run goes on. Exit status 1\n"
             "when any record failed or broke a rule. \"command\":\"view\" takes \"ops\",\n"
             "like [{\"slice\":\"h=0:2\"},{\"permute\":[1,0]}], and buffer_size_bytes.\n",
    .examples =
        "  echo '{\"id\":1,\"dtype\":\"float16\",\"sizes\":[1,3,224,224],\"layout\":\"nhwc\"}' \\\n"
        "      | dmltensor batch | jq .minimum_implied_size_bytes\n"
        "  dmltensor batch descriptors.jsonl > results.jsonl\n",
    .formats = 0, /* no --format: JSON Lines only */
    .args = ARGS_FILE,
    .batch = false,
    .run = run_batch,
};
