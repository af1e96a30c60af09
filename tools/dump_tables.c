/* dump_tables.c - the command line's tables as one JSON document on stdout,
 * for tools/gen_docs.py, which writes the man page's COMMANDS and OPTIONS,
 * docs/cli.md's option tables and the shell completions from it. Built
 * from the same library as dmltensor (dmltensor_cli), never installed.
 *
 *   commands  cli_commands (commands.c): name, summary, usage, about
 *             (as --help prints it), examples, formats (names),
 *             format_help, args (none, file or files), batch, text_errors
 *   options   the option table (options.c), in its order: name, metavar
 *             (null: takes no value), group (index into groups), commands
 *             (names, in cli_commands' order), kind, repeatable, help (one
 *             record per help text: --format's is each command's own),
 *             number (null, or the numbers the value holds: kind, min, max)
 *   groups    the option groups' titles, as --help heads them
 *   formats   every --format name, in the order a hint lists them
 *   dtypes    the data types' names, by DML_TENSOR_DATA_TYPE value
 *   layouts   the named layouts of each rank (rank 1 first), as
 *             `dmltensor layouts --format json` lists them
 *   main_help `dmltensor --help` */
#include "cli.h"
#include "options.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *format_names(unsigned formats)
{
    cJSON *a = cJSON_CreateArray();
    for (int f = 0; cli_format_name((enum format)f) != NULL; f++)
        if (formats & FMT_BIT((enum format)f))
            cJSON_AddItemToArray(a, cJSON_CreateString(cli_format_name((enum format)f)));
    return a;
}

static cJSON *commands(void)
{
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < cli_n_commands; i++) {
        const struct command *c = cli_commands[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", c->name);
        cJSON_AddStringToObject(o, "summary", c->summary);
        cJSON_AddStringToObject(o, "usage", c->usage);
        struct outbuf about;
        cli_ob_init(&about);
        cli_render_about(&about, c);
        ob_putc(&about, '\0');
        cJSON_AddStringToObject(o, "about", about.failed ? "" : about.data);
        cli_ob_free(&about);
        cJSON_AddStringToObject(o, "examples", c->examples);
        cJSON_AddItemToObject(o, "formats", format_names(c->formats));
        cJSON_AddItemToObject(o, "default_format",
                              format_names(c->formats ? 1u << c->default_format : 0));
        if (c->format_help)
            cJSON_AddStringToObject(o, "format_help", c->format_help);
        else
            cJSON_AddNullToObject(o, "format_help");
        cJSON_AddStringToObject(o, "args",
                                c->args == ARGS_FILES  ? "files"
                                : c->args == ARGS_FILE ? "file"
                                                       : "none");
        cJSON_AddBoolToObject(o, "batch", c->batch);
        cJSON_AddBoolToObject(o, "text_errors", c->text_errors);
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static const char *const kind_names[] = {
    [OPT_FLAG] = "flag",         [OPT_VALUE] = "value",         [OPT_REPEAT] = "repeat",
    [OPT_REPEAT_ANY] = "repeat", [OPT_OPERATION] = "operation",
};

/* One record per entry and help text: an entry whose help is each
 * command's own (--format) gives one record per text, for the commands
 * that share it, in cli_commands' order. */
/* "number": null, or {"kind": "one"|"list"|"named"|"named_list"|
 * "signed_list"|"named_signed"|"dims", "min": "0", "max": "4294967295"} (the
 * bounds as decimal text: a double holds no 2^64-1). */
static void add_number(cJSON *o, const struct opt_def *d)
{
    static const char *const kinds[] = {
        [OPT_NUM_ONE] = "one",
        [OPT_NUM_LIST] = "list",
        [OPT_NUM_NAMED] = "named",
        [OPT_NUM_NAMED_LIST] = "named_list",
        [OPT_NUM_SIGNED_LIST] = "signed_list",
        [OPT_NUM_NAMED_SIGNED] = "named_signed",
        [OPT_NUM_DIMS] = "dims",
    };
    if (d->number == OPT_NUM_NONE) {
        cJSON_AddNullToObject(o, "number");
        return;
    }
    char text[24];
    cJSON *n = cJSON_AddObjectToObject(o, "number");
    cJSON_AddStringToObject(n, "kind", kinds[d->number]);
    snprintf(text, sizeof text, "%llu", (unsigned long long)d->min);
    cJSON_AddStringToObject(n, "min", text);
    snprintf(text, sizeof text, "%llu", (unsigned long long)d->max);
    cJSON_AddStringToObject(n, "max", text);
}

static cJSON *options(void)
{
    const struct opt_def *table;
    const size_t n = cli_options(&table);
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        const struct opt_def *d = &table[i];
        for (size_t first = 0; first < cli_n_commands; first++) {
            const struct command *fc = cli_commands[first];
            if (!cli_option_of(d, fc))
                continue;
            const char *help = cli_option_help(d, fc);
            bool seen = false; /* this text, written with an earlier command */
            for (size_t c = 0; c < first && !seen; c++)
                seen = cli_option_of(d, cli_commands[c]) &&
                       strcmp(cli_option_help(d, cli_commands[c]), help) == 0;
            if (seen)
                continue;
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "name", d->name);
            if (d->metavar)
                cJSON_AddStringToObject(o, "metavar", d->metavar);
            else
                cJSON_AddNullToObject(o, "metavar");
            cJSON_AddNumberToObject(o, "group", (double)d->group);
            cJSON *cmds = cJSON_AddArrayToObject(o, "commands");
            for (size_t c = first; c < cli_n_commands; c++)
                if (cli_option_of(d, cli_commands[c]) &&
                    strcmp(cli_option_help(d, cli_commands[c]), help) == 0)
                    cJSON_AddItemToArray(cmds, cJSON_CreateString(cli_commands[c]->name));
            cJSON_AddStringToObject(o, "kind", kind_names[d->kind]);
            cJSON_AddBoolToObject(o, "repeatable", d->kind != OPT_FLAG && d->kind != OPT_VALUE);
            add_number(o, d);
            cJSON_AddStringToObject(o, "help", help);
            cJSON_AddItemToArray(a, o);
        }
    }
    return a;
}

static cJSON *groups(void)
{
    cJSON *a = cJSON_CreateArray();
    for (int g = GROUP_TENSOR; g <= GROUP_OTHER; g++)
        cJSON_AddItemToArray(a, cJSON_CreateString(cli_option_group_title((enum opt_group)g)));
    return a;
}

static cJSON *dtypes(void)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 1; i <= DMLT_DTYPE_COUNT; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(dmlt_dtype_get((enum dmlt_dtype)i)->name));
    return a;
}

/* Each rank's "named" list of `dmltensor layouts --format json`. */
static cJSON *layouts(void)
{
    struct cli_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.cmd = CMD_LAYOUTS;
    cfg.cmd_name = "layouts";
    cfg.format = FMT_JSON;
    struct cli_error e;
    memset(&e, 0, sizeof e);
    struct outbuf b;
    cli_ob_init(&b);
    b.sink = NULL; /* not a streamed command */
    cJSON *ranks = NULL;
    if (cli_command_of(CMD_LAYOUTS)->run(&cfg, &b, &e)) {
        ob_putc(&b, '\0');
        if (!b.failed)
            ranks = cJSON_Parse(b.data);
    }
    cli_ob_free(&b);
    if (ranks == NULL)
        return NULL;
    cJSON *a = cJSON_CreateArray();
    const cJSON *rank;
    cJSON_ArrayForEach(rank, ranks)
    {
        cJSON *named = cJSON_GetObjectItemCaseSensitive(rank, "named");
        cJSON_AddItemToArray(a, cJSON_Duplicate(named, true));
    }
    cJSON_Delete(ranks);
    return a;
}

static char *main_help(void)
{
    struct outbuf b;
    cli_ob_init(&b);
    cli_render_main_help(&b);
    ob_putc(&b, '\0');
    return b.failed ? NULL : b.data;
}

int main(void)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddItemToObject(doc, "commands", commands());
    cJSON_AddItemToObject(doc, "options", options());
    cJSON_AddItemToObject(doc, "groups", groups());
    cJSON_AddItemToObject(doc, "formats", format_names(~0u));
    cJSON_AddItemToObject(doc, "dtypes", dtypes());
    cJSON *named = layouts();
    char *help = main_help();
    if (named == NULL || help == NULL) {
        fputs("dump_tables: could not list the layouts or render the help\n", stderr);
        return 1;
    }
    cJSON_AddItemToObject(doc, "layouts", named);
    cJSON_AddStringToObject(doc, "main_help", help);
    free(help);
    char *text = cJSON_Print(doc);
    cJSON_Delete(doc);
    if (text == NULL || puts(text) == EOF || fflush(stdout) != 0) {
        fputs("dump_tables: cannot write the tables\n", stderr);
        return 1;
    }
    cJSON_free(text);
    return 0;
}
