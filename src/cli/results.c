/* results.c - what batch and scan share: running a descriptor's command,
 * the error records and the tally of failures, opening the input. */
#include "results.h"
#include "platform.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A JSON value as given: strings through cli_ob_json_str (valid UTF-8 out
 * whatever came in), numbers as they were written, lists and objects item
 * by item. */
void cli_results_put_json(struct outbuf *b, const cJSON *v)
{
    if (v == NULL || cJSON_IsNull(v)) {
        ob_puts(b, "null");
    } else if (cJSON_IsString(v)) {
        cli_ob_json_str(b, v->valuestring);
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
                cli_ob_json_str(b, c->string ? c->string : "");
                ob_putc(b, ':');
            }
            cli_results_put_json(b, c);
        }
        ob_putc(b, object ? '}' : ']');
    }
}

/* Runs d's command into rec (one JSON object and a newline). */
bool cli_results_run(struct descriptor *d, struct outbuf *rec, struct cli_error *e)
{
    if (d->layout_check || d->n_broadcast_check) {
        struct tensor_desc td;
        if (!cli_describe_tensor(&d->cfg.t, &td, e) || !cli_descriptor_check_described(d, &td, e)) {
            cli_descriptor_name_key(d, e);
            return false;
        }
    }
    const struct command *c = command_of(&d->commands, d->cfg.cmd);
    bool ok = c != NULL ? c->run(&d->cfg, rec, e)
                        : cli_fail(e, CLI_E_BAD_COMMAND, NULL, d->cfg.cmd_name, "not a command");
    if (!ok)
        cli_descriptor_name_key(d, e);
    return ok;
}

void cli_results_note_failure(struct tally *t, unsigned long line, const struct cli_error *e)
{
    if (t->failed++ == 0) {
        t->first_line = line;
        snprintf(t->first_message, sizeof t->first_message, "%.150s%s%.400s",
                 e->key      ? e->key
                 : e->option ? e->option
                             : "",
                 e->key || e->option ? ": " : "", e->message);
    }
}

/* A record's id as given: from the tree, or the text the plain path kept. */
void cli_results_put_id(struct outbuf *out, const struct descriptor *d)
{
    if (d && d->id_text)
        cli_ob_json_verbatim(out, d->id_text, d->id_len);
    else
        cli_results_put_json(out, d ? d->id : NULL);
}

void cli_results_error_record(struct outbuf *out, const struct descriptor *d, const char *path,
                              unsigned long line, const struct cli_error *e)
{
    ob_puts(out, "{\"id\":");
    cli_results_put_id(out, d);
    if (path) {
        ob_puts(out, ",\"path\":");
        cli_ob_json_str(out, path);
    } else {
        ob_puts(out, ",\"line\":");
        ob_u64(out, line);
    }
    ob_putc(out, ',');
    cli_render_error_member(out, e);
    ob_puts(out, "}\n");
}

void cli_results_summary(const struct cli_config *cfg, const struct tally *t, const char *what)
{
    if (t->failed) {
        char where[40] = "";
        if (t->first_line)
            snprintf(where, sizeof where, ", at line %lu", t->first_line);
        /* The message may quote the input: cli_note escapes it. */
        cli_note(cfg->err, "%s: %llu of %llu %s failed; the first%s: %s", cfg->cmd_name,
                 (unsigned long long)t->failed, (unsigned long long)t->records, what, where,
                 t->first_message);
    }
    if (t->broken)
        fprintf(cfg->err,
                "dmltensor: %s: %llu of %llu %s break a DirectML rule (\"valid\":false)\n",
                cfg->cmd_name, (unsigned long long)t->broken, (unsigned long long)t->records, what);
}
