/* main.c - the dmltensor executable: everything is in cli_main(). */
#include "cli.h"

#include <signal.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN); /* a closed pipe is EPIPE, which ends quietly */
    return cli_main(argc, argv, stdin, stdout, stderr);
}
