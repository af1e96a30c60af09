/* commands.c - the list of commands, from commands.def: each entry is
 * defined beside its code (cmd_*.c). To add a command: its cmd_NAME.c with
 * a struct command, a line in commands.def, its bit on any option it takes
 * that is not a tensor option (options.c), and its prose
 * (man/descriptions.troff, a section in docs/cli.md with its marker
 * comments); then `cmake --build build --target regen-docs` writes the rest
 * (tools/gen_docs.py). See docs/architecture.md. */
#include "cli.h"

#include <string.h>

/* In the order `dmltensor --help` lists them. */
const struct command *const cli_commands[] = {
#define COMMAND(ID, name) &cli_cmd_##name,
#include "commands.def"
#undef COMMAND
};
const size_t cli_n_commands = sizeof cli_commands / sizeof cli_commands[0];

const struct command *cli_command_named(const char *name)
{
    for (size_t i = 0; i < cli_n_commands; i++)
        if (strcmp(name, cli_commands[i]->name) == 0)
            return cli_commands[i];
    return NULL;
}

const struct command *cli_command_of(enum command_id id)
{
    for (size_t i = 0; i < cli_n_commands; i++)
        if (cli_commands[i]->id == id)
            return cli_commands[i];
    return NULL;
}
