/* main.c - the dmltensor executable: everything is in cli_main(). */
#include "cli.h"
#include "platform.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (!cli_plat_init(&argc, &argv)) {
        fputs("dmltensor: out of memory\n", stderr);
        return CLI_EXIT_IO;
    }
    return cli_main(argc, argv, stdin, stdout, stderr);
}
