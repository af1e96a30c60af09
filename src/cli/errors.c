/* errors.c - see errors.h. */
#include "errors.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Long or binary text from the command line is cut and escaped. */
#define TEXT_MAX 120

const char *cli_error_name(enum cli_error_id id)
{
    static const char *const names[] = {
#define CLI_ERROR_NAME(name, text) text,
        CLI_ERRORS(CLI_ERROR_NAME)
#undef CLI_ERROR_NAME
    };
    return (unsigned)id < CLI_E_COUNT ? names[id] : "internal";
}

bool cli_fail(struct cli_error *e, enum cli_error_id id, const char *option, const char *text,
              const char *fmt, ...)
{
    e->exit_code = CLI_EXIT_USAGE;
    e->stdout_failed = false;
    e->id = cli_error_name(id);
    e->option = option;
    e->key = NULL;
    e->text = text;
    e->hint[0] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    va_end(ap);
    return false;
}

void cli_hint(struct cli_error *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->hint, sizeof e->hint, fmt, ap);
    va_end(ap);
}

void cli_note(FILE *f, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    struct outbuf b;
    cli_ob_init(&b);
    ob_puts(&b, "dmltensor: ");
    cli_ob_quoted_text(&b, text, SIZE_MAX);
    ob_putc(&b, '\n');
    (void)cli_ob_flush_to(&b, f);
    cli_ob_free(&b);
}

void cli_error_keep(struct cli_error *e)
{
    if (e->key && e->key != e->kept_key) {
        snprintf(e->kept_key, sizeof e->kept_key, "%s", e->key);
        e->key = e->kept_key;
    }
    if (e->text && e->text != e->kept_text) {
        snprintf(e->kept_text, sizeof e->kept_text, "%s", e->text);
        e->text = e->kept_text;
    }
}

void cli_render_error_text(struct outbuf *b, const struct cli_error *e)
{
    ob_puts(b, "dmltensor: ");
    if (e->key || e->option) { /* a key is input (plan names it): shown, not sent */
        cli_ob_quoted_text(b, e->key ? e->key : e->option, TEXT_MAX);
        ob_puts(b, ": ");
    }
    if (e->text) {
        ob_putc(b, '"');
        cli_ob_quoted_text(b, e->text, TEXT_MAX);
        ob_puts(b, "\": ");
    }
    /* Messages and hints can quote input: control bytes are shown, not sent
     * to the terminal. */
    cli_ob_quoted_text(b, e->message, sizeof e->message);
    ob_putc(b, '\n');
    if (e->hint[0]) {
        ob_puts(b, "dmltensor: hint: ");
        cli_ob_quoted_text(b, e->hint, sizeof e->hint);
        ob_putc(b, '\n');
    }
}

void cli_render_error_json(struct outbuf *b, const struct cli_error *e)
{
    ob_putc(b, '{');
    cli_render_error_member(b, e);
    ob_puts(b, "}\n");
}

void cli_render_error_member(struct outbuf *b, const struct cli_error *e)
{
    ob_puts(b, "\"error\":{\"id\":");
    cli_ob_json_str(b, e->id);
    ob_puts(b, ",\"message\":");
    cli_ob_json_str(b, e->message);
    if (e->key) {
        ob_puts(b, ",\"key\":");
        cli_ob_json_str(b, e->key);
    } else if (e->option) {
        ob_puts(b, ",\"option\":");
        cli_ob_json_str(b, e->option);
    }
    if (e->text) {
        /* The text as given, unless it is too long to echo usefully. */
        struct outbuf t;
        cli_ob_init(&t);
        cli_ob_quoted_text(&t, e->text, TEXT_MAX);
        ob_putc(&t, '\0');
        ob_puts(b, ",\"text\":");
        cli_ob_json_str(b, t.failed ? "" : t.data);
        cli_ob_free(&t);
    }
    if (e->hint[0]) {
        ob_puts(b, ",\"hint\":");
        cli_ob_json_str(b, e->hint);
    }
    ob_putc(b, '}');
}
