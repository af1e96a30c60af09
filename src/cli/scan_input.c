/* scan_input.c - see scan_input.h. */
#include "scan_input.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCAN_MAX_JSON  ((size_t)256 << 20) /* a JSON document is parsed whole */
#define SCAN_MAX_MODEL ((size_t)1 << 31)   /* protobuf's limit: a model read, not mapped */

bool scan_looks_like_json(const unsigned char *p, size_t n)
{
    size_t i = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
        i++;
    return i == n || p[i] == '\0' || strchr("{[\"-0123456789tfn", p[i]) != NULL;
}

/* DMLT_TEST_INPUT_CAP_SHIFT=K, for tests only (docs/testing.md): both caps
 * 2^K times smaller (K from 1 to 20), so that a test reaches them with
 * little data. Anything else is ignored; it can only lower the caps. */
static unsigned cap_shift(void)
{
    const char *k = getenv("DMLT_TEST_INPUT_CAP_SHIFT");
    if (k == NULL || k[0] < '1' || k[0] > '9')
        return 0;
    unsigned v = (unsigned)(k[0] - '0');
    if (k[1] >= '0' && k[1] <= '9' && k[2] == '\0')
        v = v * 10 + (unsigned)(k[1] - '0');
    else if (k[1] != '\0')
        return 0;
    return v <= 20 ? v : 0;
}

size_t scan_json_cap(void)
{
    return SCAN_MAX_JSON >> cap_shift();
}

static size_t model_cap(void)
{
    return SCAN_MAX_MODEL >> cap_shift();
}

/* The cap on input that is read, not mapped: a JSON document's, or a
 * model's (protobuf's own limit: ONNX keeps larger weights outside the
 * model), by what the first bytes are. */
static size_t input_cap(const unsigned char *data, size_t len)
{
    return scan_looks_like_json(data, len) ? scan_json_cap() : model_cap();
}

bool scan_too_large(struct cli_error *e, const char *name, bool model)
{
    const size_t cap = model ? model_cap() : scan_json_cap();
    char mib[48] = ""; /* "256 MiB" (none under a test's cap of less than 1 MiB) */
    if (cap >= ((size_t)1 << 20))
        snprintf(mib, sizeof mib, " (%llu MiB%s)", (unsigned long long)(cap >> 20),
                 model ? ", protobuf's limit for a model" : "");
    if (!model)
        return cli_fail(e, CLI_E_INPUT_TOO_LARGE, NULL, name,
                        "larger than %llu bytes%s: scan reads a JSON document whole",
                        (unsigned long long)cap, mib);
    cli_fail(e, CLI_E_INPUT_TOO_LARGE, NULL, name,
             "larger than %llu bytes%s: a model that is not a regular file is read whole",
             (unsigned long long)cap, mib);
    cli_hint(e, "save it to a file and scan that: a file is mapped, not read");
    return false;
}

bool scan_input_open(const char *file, FILE *in, struct plat_map *m, struct cli_error *e)
{
    int err;
    const bool is_stdin = strcmp(file, "-") == 0;
    if (is_stdin ? !plat_map_stream(in, input_cap, m, &err)
                 : !plat_map_file(file, input_cap, m, &err)) {
        if (err == ENOMEM) {
            cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        } else if (is_stdin) {
            cli_fail(e, CLI_E_IO_ERROR, NULL, file, "read error: %s", strerror(err));
            e->exit_code = CLI_EXIT_IO;
        } else if (err == EISDIR) { /* a usage error, like a missing file: not a failed read */
            cli_fail(e, CLI_E_CANNOT_OPEN, NULL, file, "cannot open: it is a directory");
            cli_hint(e, "give a JSON file or an ONNX model, or - for standard input");
        } else {
            cli_fail(e, CLI_E_CANNOT_OPEN, NULL, file, "cannot open: %s", strerror(err));
        }
        return false;
    }
    if (m->truncated) { /* refused before memory grew past the cap */
        const bool json = scan_looks_like_json(m->data, m->len);
        plat_unmap_file(m);
        return scan_too_large(e, file, !json);
    }
    return true;
}
