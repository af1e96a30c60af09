/* main.c - the dmltensor executable: everything is in cli_main(). */
#include "cli.h"
#include "onnx_common.h"
#include "platform.h"

#include <stdio.h>
#include <stdlib.h>

/* The names' hash key (onnx_common.h), once for the process: random, so
 * that a model's names cannot be chosen to collide in its tables (hash
 * flooding); DMLT_TEST_HASH_KEY=N (digits) fixes it, for tests that show
 * no output depends on it. */
static void hash_key(void)
{
    uint64_t k[2];
    const char *fixed = getenv("DMLT_TEST_HASH_KEY");
    if (fixed != NULL && fixed[0] >= '0' && fixed[0] <= '9') {
        k[0] = strtoull(fixed, NULL, 10);
        k[1] = ~k[0];
    } else {
        cli_plat_random(k);
    }
    onnx_hash_set_key(k[0], k[1]);
}

int main(int argc, char **argv)
{
    if (!cli_plat_init(&argc, &argv)) {
        fputs("dmltensor: out of memory\n", stderr);
        return CLI_EXIT_IO;
    }
    hash_key();
    return cli_main(argc, argv, stdin, stdout, stderr);
}
