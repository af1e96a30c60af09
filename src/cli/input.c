/* input.c - see input.h. */
#include "input.h"

#include "onnx_model.h"
#include "onnx_sniff.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_JSON  ((size_t)256 << 20) /* a JSON document is parsed whole */
#define MAX_MODEL ((size_t)1 << 31)   /* protobuf's limit: a model read, not mapped */

/* DMLT_TEST_INPUT_CAP_SHIFT=K, for tests only (docs/testing.md): every cap
 * 2^K times smaller (K from 1 to 20), so that a test reaches them with
 * little data. Anything else is ignored; it can only lower the caps. */
unsigned cli_input_cap_shift(void)
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

size_t cli_input_json_cap(void)
{
    return MAX_JSON >> cli_input_cap_shift();
}

size_t cli_input_model_memory_cap(size_t len)
{
    const size_t cap = onnx_model_memory_cap(len) >> cli_input_cap_shift();
    return cap > ((size_t)1 << 20) ? cap : (size_t)1 << 20; /* a test's cap: 1 MiB at least */
}

static size_t model_cap(void)
{
    return MAX_MODEL >> cli_input_cap_shift();
}

bool cli_input_too_large(struct cli_error *e, const char *name, bool model)
{
    const size_t cap = model ? model_cap() : cli_input_json_cap();
    char mib[64] = ""; /* "256 MiB" (none under a test's cap of less than 1 MiB) */
    if (cap >= ((size_t)1 << 20))
        snprintf(mib, sizeof mib, " (%llu MiB%s)", (unsigned long long)(cap >> 20),
                 model ? ", protobuf's limit for a model" : "");
    if (!model)
        return cli_fail(e, CLI_E_INPUT_TOO_LARGE, NULL, name,
                        "larger than %llu bytes%s: a JSON document is read whole",
                        (unsigned long long)cap, mib);
    cli_fail(e, CLI_E_INPUT_TOO_LARGE, NULL, name,
             "larger than %llu bytes%s: a model that is not a regular file is read whole",
             (unsigned long long)cap, mib);
    cli_hint(e, "save it to a file and give its name: a file is mapped, not read");
    return false;
}

/* Whether the head can start JSON text: its first value parses, or is cut
 * by the end of the head (a string, a literal or an escape cut short), or
 * is followed by more (JSON Lines' next record). */
static void sniff_json(struct input *in)
{
    const char *p = (const char *)in->head;
    size_t n = in->head_len, i = n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    while (i < n && json_is_space(p[i]))
        i++;
    in->json_start = i == n || (p[i] != '\0' && strchr("{[\"-0123456789tfn", p[i]) != NULL);
    in->json_error = (struct json_error){NULL, 0};
    if (!in->json_start) {
        in->json_error = (struct json_error){"malformed JSON", i};
        return;
    }
    struct json_arena arena = {NULL};
    struct json_error je;
    const bool cut = n == INPUT_HEAD; /* more follows the head */
    in->json = cli_json_parse(p + i, n - i, &arena, &je) != NULL ||
               cli_json_prefix_error(p + i, n - i, cut, &je);
    cli_json_arena_free(&arena);
    if (!in->json)
        in->json_error = (struct json_error){je.message, je.at + i};
}

bool cli_input_open(struct input *in, const char *file, FILE *std_in, struct cli_error *e)
{
    memset(in, 0, sizeof *in);
    in->name = file;
    if (strcmp(file, "-") == 0) {
        in->f = std_in;
    } else {
        int err;
        in->f = cli_plat_open_read(file, &err);
        if (in->f == NULL && err == EISDIR) { /* a usage error, like a missing file */
            cli_fail(e, CLI_E_CANNOT_OPEN, NULL, file, "cannot open: it is a directory");
            cli_hint(e, "give a file (JSON, JSON Lines or an ONNX model), or - for standard input");
            return false;
        }
        if (in->f == NULL)
            return cli_fail(e, CLI_E_CANNOT_OPEN, NULL, file, "cannot open: %s", strerror(err));
        in->opened = true;
    }
    in->at_start = ftell(in->f) == 0;
    if (!in->at_start)
        clearerr(in->f); /* a pipe cannot tell */
    in->head_len = fread(in->head, 1, sizeof in->head, in->f);
    if (in->head_len < sizeof in->head && ferror(in->f)) {
        cli_fail(e, CLI_E_IO_ERROR, NULL, file, "read error: %s", strerror(errno ? errno : EIO));
        e->exit_code = CLI_EXIT_IO;
        cli_input_close(in);
        return false;
    }
    sniff_json(in);
    in->model = in->head_len > 0 && onnx_model_prefix(in->head, in->head_len, &in->model_pos,
                                                      UINT64_MAX, &in->model_error);
    if (in->model && in->head_len < sizeof in->head && in->model_pos == 0) {
        in->model = false; /* the whole input, and its first field is cut short */
        in->model_error.offset = 0;
        snprintf(in->model_error.message, sizeof in->model_error.message,
                 "the input ends inside a field");
    }
    if (in->head_len == 0)
        snprintf(in->model_error.message, sizeof in->model_error.message, "it is empty");
    return true;
}

void cli_input_close(struct input *in)
{
    if (in->opened && in->f)
        fclose(in->f);
    in->f = NULL;
    in->opened = false;
}

/* The cap on input read whole: JSON's, or a model's while its top-level
 * fields are sound (0 once they are not: reading stops). */
static size_t whole_cap(void *ctx, const unsigned char *data, size_t len)
{
    struct input *in = ctx;
    if (!in->whole_model)
        return cli_input_json_cap();
    if (in->model && data != NULL)
        in->model = onnx_model_prefix(data, len, &in->model_pos, UINT64_MAX, &in->model_error);
    /* 0 stops the reading: damage, or a field that ends past the cap (too large, at once) */
    return in->model && in->model_pos <= model_cap() ? model_cap() : 0;
}

bool cli_input_whole(struct input *in, struct plat_map *m, struct cli_error *e)
{
    int err;
    in->whole_model = !in->json_start;
    if (!cli_plat_map_open(in->f, in->at_start, in->head, in->head_len, whole_cap, in, m, &err)) {
        if (err == ENOMEM) {
            cli_fail(e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
        } else {
            cli_fail(e, CLI_E_IO_ERROR, NULL, in->name, "read error: %s", strerror(err));
            e->exit_code = CLI_EXIT_IO;
        }
        return false;
    }
    if (m->truncated) { /* refused before memory grew past the cap */
        cli_plat_unmap_file(m);
        if (in->whole_model && !in->model)
            return cli_fail(e, CLI_E_BAD_ONNX, NULL, in->name,
                            "a damaged ONNX model: at byte %zu: %s", in->model_error.offset,
                            in->model_error.message);
        return cli_input_too_large(e, in->name, in->whole_model);
    }
    return true;
}

void cli_input_records(struct input *in, struct record_reader *r)
{
    cli_record_reader_init(r, in->f);
    cli_record_reader_prefix(r, in->head, in->head_len);
}

bool cli_input_refuse(const struct input *in, const char *what, struct cli_error *e)
{
    const size_t at = in->json_error.at;
    if (!in->json_start && in->model_error.offset > 0) { /* a model's start, then damage */
        cli_fail(e, CLI_E_BAD_ONNX, NULL, in->name, "a damaged ONNX model: at byte %zu: %s",
                 in->model_error.offset, in->model_error.message);
        cli_hint(e, "%s", what);
        return false;
    }
    if (!in->json_start) {
        cli_fail(e, CLI_E_BAD_JSON, NULL, in->name,
                 "malformed JSON at line 1: byte %zu is 0x%02x, which starts no JSON value", at + 1,
                 at < in->head_len ? in->head[at] : 0u);
    } else {
        unsigned long line = 1;
        for (size_t i = 0; i < at && i < in->head_len; i++)
            line += in->head[i] == '\n';
        cli_fail(e, CLI_E_BAD_JSON, NULL, in->name, "%s at line %lu",
                 in->json_error.message ? in->json_error.message : "malformed JSON", line);
    }
    if (!in->json_start) /* what it might have been instead */
        cli_hint(e, "nor is it an ONNX model (at byte %zu: %s); %s", in->model_error.offset,
                 in->model_error.message, what);
    return false;
}
