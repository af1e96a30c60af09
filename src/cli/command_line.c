/* command_line.c - argv into a struct cli_config: the command by its
 * name, each option's value stored where its table entry says (options.c),
 * a second use of an option that is not repeatable refused, --format
 * checked against what the command prints, the options that constrain each
 * other. Beside the dispatcher, above the commands. */
#include "cli.h"
#include "options.h"
#include "parse.h"
#include "render_c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum format cli_format_from_argv(int argc, char **argv)
{
    const struct command *c = argc > 1 && argv[1] ? cli_command_named(argv[1]) : NULL;
    if (c && c->text_errors)
        return FMT_TEXT;
    bool json_default = c && (c->default_format == FMT_JSON || c->default_format == FMT_JSONL);
    for (int i = 1; i < argc; i++) {
        if (argv[i] == NULL)
            break;
        const char *v = strncmp(argv[i], "--format=", 9) == 0              ? argv[i] + 9
                        : strcmp(argv[i], "--format") == 0 && i + 1 < argc ? argv[i + 1]
                                                                           : NULL;
        if (v && (strcmp(v, "json") == 0 || strcmp(v, "jsonl") == 0))
            return FMT_JSON;
        if (v) /* another format asked: text errors */
            return FMT_TEXT;
    }
    return json_default ? FMT_JSON : FMT_TEXT;
}

/* The one option of c that starts with name (--byte: --byte-offset), else
 * NULL (none, or several). */
static const char *unique_prefix(const char *name, size_t len, const struct command *c)
{
    const struct opt_def *options;
    const size_t n_options = cli_options(&options);
    const char *found = NULL;
    for (size_t i = 0; i < n_options; i++) {
        const char *o = options[i].name;
        if (!cli_option_of(&options[i], c) || strncmp(o, name, len) != 0 || o[len] == '\0' ||
            (found && strcmp(found, o) == 0))
            continue;
        if (found)
            return NULL;
        found = o;
    }
    return found;
}

static bool unknown_option(struct cli_error *e, const char *arg, size_t len,
                           const struct command *c)
{
    const char *cmd = c->name;
    const struct opt_def *options;
    const size_t n_options = cli_options(&options);
    const char **names = malloc(n_options * sizeof *names);
    if (names == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    /* The command's own options: another command's is no help here. */
    size_t n = 0;
    for (size_t i = 0; i < n_options; i++)
        if (cli_option_of(&options[i], c))
            names[n++] = options[i].name;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(len < 63 ? len : 63), arg);
    cli_fail(e, CLI_E_UNKNOWN_OPTION, NULL, arg, "unknown option for %s", cmd);
    const char *s = len > 3 ? unique_prefix(name, strlen(name), c) : NULL;
    if (s == NULL)
        s = cli_suggest(name, names, n);
    free((void *)names);
    if (s)
        cli_hint(e, "did you mean %s? See 'dmltensor %s --help'", s, cmd);
    else
        cli_hint(e, "see 'dmltensor %s --help'", cmd);
    return false;
}

/* Stores an option's value where its entry says (NULL for a flag). */
static bool store(const struct opt_def *o, const char *value, struct cli_config *cfg,
                  struct cli_error *e)
{
    char *base = (char *)cfg;
    unsigned *count = (unsigned *)(void *)(base + o->count);
    const char **slot = NULL;
    switch (o->kind) {
    case OPT_FLAG: {
        bool *flag = (bool *)(void *)(base + o->at);
        if (*flag) {
            cli_fail(e, CLI_E_DUPLICATE_OPTION, o->name, NULL, "given twice");
            cli_hint(e, "give each option once");
            return false;
        }
        *flag = true;
        return true;
    }
    case OPT_VALUE:
        slot = (const char **)(void *)(base + o->at);
        if (*slot) {
            cli_fail(e, CLI_E_DUPLICATE_OPTION, o->name, value, "given twice (first as \"%s\")",
                     *slot);
            cli_hint(e, "give each option once");
            return false;
        }
        break;
    case OPT_REPEAT:
        if (*count == MAX_REPEAT)
            return cli_fail(e, CLI_E_TOO_MANY_VALUES, o->name, value, "given more than %d times",
                            MAX_REPEAT);
        slot = (const char **)(void *)(base + o->at) + (*count)++;
        break;
    case OPT_REPEAT_ANY: /* room for every argument */
        slot = *(const char ***)(void *)(base + o->at) + (*count)++;
        break;
    case OPT_OPERATION:
        if (*count == MAX_VIEW_OPS)
            return cli_fail(e, CLI_E_TOO_MANY_VALUES, o->name, value, "more than %d operations",
                            MAX_VIEW_OPS);
        cfg->op_kind[*count] = o->op;
        slot = (const char **)(void *)(base + o->at) + (*count)++;
        break;
    }
    *slot = value;
    return true;
}

static bool parse_options(int argc, char **argv, int first, const struct command *cmd,
                          struct cli_config *cfg, struct cli_error *e)
{
    for (int i = first; i < argc; i++) {
        const char *arg = strcmp(argv[i], "-h") == 0 ? "--help" : argv[i];
        if ((cmd->args == ARGS_FILES || (cmd->args == ARGS_FILE && cfg->input == NULL)) &&
            (arg[0] != '-' || arg[1] == '\0')) {
            if (cfg->input == NULL)
                cfg->input = arg;             /* FILE, or - for stdin */
            cfg->files[cfg->n_files++] = arg; /* scan FILE... */
            continue;
        }
        if (arg[0] != '-' || arg[1] != '-') {
            cli_fail(e, CLI_E_UNEXPECTED_ARGUMENT, NULL, arg, "unexpected argument to %s",
                     cfg->cmd_name);
            cli_hint(e, "options start with --; see 'dmltensor %s --help'", cfg->cmd_name);
            return false;
        }
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        const struct opt_def *o = cli_find_option(arg, len, cmd);
        if (o == NULL)
            return unknown_option(e, arg, len, cmd);
        if (!cli_option_of(o, cmd))
            return cli_fail(e, CLI_E_UNKNOWN_OPTION, o->name, NULL, "not an option of %s",
                            cfg->cmd_name);
        const char *value = NULL;
        if (o->kind == OPT_FLAG) {
            if (eq)
                return cli_fail(e, CLI_E_UNEXPECTED_VALUE, o->name, eq + 1,
                                "this option takes no value");
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            cli_fail(e, CLI_E_MISSING_VALUE, o->name, NULL, "needs a value (%s)", o->metavar);
            cli_hint(e, "%s %s: %s", o->name, o->metavar, cli_option_help(o, cmd));
            return false;
        }
        if (!store(o, value, cfg, e))
            return false;
    }
    return true;
}

void cli_free_command_line(struct cli_config *cfg)
{
    free((void *)cfg->coords);
    cfg->coords = NULL;
    free((void *)cfg->files);
    cfg->files = NULL;
    free((void *)cfg->dims);
    cfg->dims = NULL;
    free((void *)cfg->shapes);
    cfg->shapes = NULL;
}

bool cli_parse_command_line(int argc, char **argv, struct cli_config *cfg, struct cli_error *e)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->coords = calloc((size_t)argc, sizeof cfg->coords[0]);
    cfg->files = calloc((size_t)argc, sizeof cfg->files[0]);
    cfg->dims = calloc((size_t)argc, sizeof cfg->dims[0]);
    cfg->shapes = calloc((size_t)argc, sizeof cfg->shapes[0]);
    if (cfg->coords == NULL || cfg->files == NULL || cfg->dims == NULL || cfg->shapes == NULL)
        return cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    const char *name = argv[1];
    const struct command *c = cli_command_named(name);
    if (c) {
        cfg->cmd = c->id;
        cfg->cmd_name = c->name;
    } else {
        const char *names[32]; /* more than there are commands */
        size_t n = 0;
        for (; n < cli_n_commands && n < sizeof names / sizeof names[0]; n++)
            names[n] = cli_commands[n]->name;
        if (name[0] == '-')
            cli_fail(e, CLI_E_UNKNOWN_OPTION, NULL, name, "unknown option");
        else
            cli_fail(e, CLI_E_UNKNOWN_COMMAND, NULL, name, "unknown command");
        const char *s = cli_suggest(name, names, n);
        if (s)
            cli_hint(e, "did you mean '%s'? See 'dmltensor --help'", s);
        else
            cli_hint(e, "see 'dmltensor --help' for the commands");
        return false;
    }
    if (!parse_options(argc, argv, 2, c, cfg, e))
        return false;
    if (cfg->help)
        return true;
    cfg->format = c->default_format;
    if (cfg->format_text && !cli_format_parse(cfg, c->formats, e))
        return false;
    if (cfg->field && cfg->format_text && cfg->format != FMT_TEXT)
        return cli_fail(e, CLI_E_CONFLICTING_OPTIONS, "--field", cfg->field,
                        "prints one plain value; it cannot be combined with --format %s",
                        cfg->format_text);
    if (cfg->c_name) {
        if (cfg->format != FMT_C) {
            cli_fail(e, CLI_E_CONFLICTING_OPTIONS, "--name", cfg->c_name,
                     "names the variables of --format c");
            cli_hint(e, "add --format c");
            return false;
        }
        if (!cli_c_name_check(cfg->c_name, c->c_variables, e))
            return false;
    }
    return true;
}
