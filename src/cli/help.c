/* help.c - --help and --version: the main help (the command list), a
 * command's help (its usage and about from its entry, its options by group
 * from the option table, its examples), and the about's generated list of
 * the commands batch runs. Beside the dispatcher, above the commands. */
#include "cli.h"
#include "options.h"
#include "dmlt_version.h"

#include <string.h>

/* Appends `text` wrapped to width 79; continuation lines start at `indent`. */
static void wrap(struct outbuf *b, size_t line_start, size_t indent, const char *text)
{
    const char *p = text;
    bool first = true;
    while (*p) {
        const char *sp = strchr(p, ' ');
        size_t word = sp ? (size_t)(sp - p) : strlen(p);
        if (!first && b->len - line_start + 1 + word > 79) {
            ob_putc(b, '\n');
            line_start = b->len;
            for (size_t i = 0; i < indent; i++)
                ob_putc(b, ' ');
        } else if (!first) {
            ob_putc(b, ' ');
        }
        ob_write(b, p, word);
        first = false;
        p += word;
        while (*p == ' ')
            p++;
    }
    ob_putc(b, '\n');
}

void cli_render_main_help(struct outbuf *b)
{
    ob_puts(b, "dmltensor - layout calculator for DirectML buffer tensors\n\n"
               "Usage: dmltensor COMMAND [OPTIONS]\n\nCommands:\n");
    for (size_t i = 0; i < cli_n_commands; i++) {
        size_t start = b->len;
        ob_puts(b, "  ");
        ob_puts(b, cli_commands[i]->name);
        cli_ob_pad_to(b, start, 12);
        ob_puts(b, cli_commands[i]->summary);
        ob_putc(b, '\n');
    }
    ob_puts(b, "\nOptions:\n"
               "  -h, --help  show this help (dmltensor COMMAND --help for a command)\n"
               "  --version   show the version and build details\n\n"
               "Example:\n"
               "  dmltensor size --dtype float16 --sizes 1,3,224,224 --layout nhwc\n\n"
               "Exit status: 0 success, 1 the tensor breaks a DirectML rule, 2 usage or\n"
               "malformed input, 3 I/O error. See dmltensor(1).\n");
}

/* "size, offset, validate or view": the commands batch records may name. */
static void batch_commands(struct outbuf *b)
{
    size_t count = 0, n = 0;
    for (size_t i = 0; i < cli_n_commands; i++)
        count += cli_commands[i]->batch;
    for (size_t i = 0; i < cli_n_commands; i++) {
        if (!cli_commands[i]->batch)
            continue;
        ob_puts(b, n == 0 ? "" : n + 1 == count ? " or " : ", ");
        n++;
        ob_puts(b, cli_commands[i]->name);
    }
}

void cli_render_about(struct outbuf *b, const struct command *h)
{
    static const char token[] = CLI_BATCH_COMMANDS;
    const char *at = strstr(h->about, token);
    if (at == NULL) {
        ob_puts(b, h->about);
        return;
    }
    /* The paragraph holding the list, filled again to 79 columns. */
    const char *para = at;
    while (para > h->about && !(para[-1] == '\n' && para - 1 > h->about && para[-2] == '\n'))
        para--;
    const char *end = strstr(at, "\n\n");
    if (end == NULL)
        end = h->about + strlen(h->about);
    struct outbuf text;
    cli_ob_init(&text);
    for (const char *p = para; p < end; p++) {
        if (p == at) {
            batch_commands(&text);
            p += sizeof token - 2;
        } else if (*p == '\n') {
            ob_putc(&text, ' ');
        } else {
            ob_putc(&text, *p);
        }
    }
    while (text.len > 0 && text.data[text.len - 1] == ' ')
        text.len--;
    ob_putc(&text, '\0');
    ob_write(b, h->about, (size_t)(para - h->about));
    if (!text.failed)
        wrap(b, b->len, 0, text.data);
    else
        b->failed = true;
    cli_ob_free(&text);
    if (*end)
        ob_puts(b, end + 1);
}

void cli_render_command_help(struct outbuf *b, const struct command *h)
{
    ob_puts(b, "Usage: ");
    ob_puts(b, h->usage);
    ob_puts(b, "\n\n");
    cli_render_about(b, h);
    const struct opt_def *options;
    const size_t n_options = cli_options(&options);
    for (unsigned g = GROUP_TENSOR; g <= GROUP_OTHER; g++) {
        bool any = false;
        for (size_t i = 0; i < n_options; i++) {
            const struct opt_def *o = &options[i];
            if (o->group != g || !cli_option_of(o, h))
                continue;
            if (!any) {
                ob_putc(b, '\n');
                ob_puts(b, cli_option_group_title((enum opt_group)g));
                ob_puts(b, ":\n");
                any = true;
            }
            size_t start = b->len;
            ob_puts(b, "  ");
            ob_puts(b, o->name);
            if (o->metavar) {
                ob_putc(b, ' ');
                ob_puts(b, o->metavar);
            }
            if (b->len - start >= 26) {
                ob_putc(b, '\n');
                start = b->len;
            }
            cli_ob_pad_to(b, start, 26);
            wrap(b, start, 26, cli_option_help(o, h));
        }
    }
    ob_puts(b, "\nExamples:\n");
    ob_puts(b, h->examples);
}

void cli_render_version(struct outbuf *b)
{
    ob_puts(b, "dmltensor " DMLT_VERSION "\n");
    ob_puts(b, "built " DMLT_BUILD_TYPE " with " DMLT_COMPILER ", cJSON " DMLT_CJSON_VERSION "\n");
}
