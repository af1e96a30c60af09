/* fuzz_cli.c - the whole command line, from argv to exit status.
 *
 * The input is a list of argv words separated by '\n' or NUL (one trailing
 * separator is dropped, so a file written one word per line reads as you
 * would expect; "\n" alone is one empty word; an empty input is no words),
 * then optionally two NULs and what standard input holds (for `batch -`
 * and `scan -`; else stdin is at end of file). argv[0] is "dmltensor".
 * Inputs with a '/' in a word are skipped: batch and scan would read the
 * machine's files. stdout and stderr are captured in memory by sinks that
 * fail every write past 1 MiB: huge outputs (locate on a broadcast tensor,
 * map of a big tensor) stop there with exit status 3, as on a full disk.
 *
 * Besides "no crash, leak or undefined behaviour" (ASan, UBSan) it checks
 * the exit status contract of README.md ("Exit status"):
 *  - the status is 0..3, and 3 only when a write failed or with a message;
 *  - status 2 (usage): stderr starts with "dmltensor: " (the main help
 *    when there are no arguments), and stdout is empty or exactly one line
 *    holding a JSON object with an "error" object (--format json);
 *  - with --format json, stdout is one JSON value; with jsonl, and from
 *    batch and scan, each line is.
 * It also checks that stderr holds no control bytes but newlines (user text
 * in messages is escaped) and that JSON output is valid UTF-8 (the inputs
 * in tests/fuzz/regressions/cli/control-bytes-* and utf8-* broke these once).
 * DMLT_FUZZ_STRICT=0 in the environment turns these two checks off.
 */
#define _GNU_SOURCE
#include "fuzz.h"

#include "cli.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <string.h>

#define SINK_LIMIT ((size_t)1 << 20)

struct sink {
    char *data; /* SINK_LIMIT bytes */
    size_t len;
    bool overflowed;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    struct sink *s = cookie;
    if (n > SINK_LIMIT - s->len) {
        s->overflowed = true;
        errno = ENOSPC;
        return 0; /* fopencookie(3): 0 is a write error */
    }
    memcpy(s->data + s->len, buf, n);
    s->len += n;
    return (ssize_t)n;
}

static FILE *sink_open(struct sink *s)
{
    if (s->data == NULL)
        s->data = malloc(SINK_LIMIT);
    FUZZ_CHECK(s->data != NULL);
    s->len = 0;
    s->overflowed = false;
    cookie_io_functions_t io = {NULL, sink_write, NULL, NULL};
    FILE *f = fopencookie(s, "w", io);
    FUZZ_CHECK(f != NULL);
    return f;
}

static bool starts_with(const struct sink *s, const char *prefix)
{
    size_t n = strlen(prefix);
    return s->len >= n && memcmp(s->data, prefix, n) == 0;
}

/* One JSON value in text[0..len), nothing else but whitespace. */
static cJSON *parse_json(const char *text, size_t len)
{
    const char *end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (j == NULL)
        return NULL;
    while (end < text + len && (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n'))
        end++;
    if (end != text + len) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

/* Every line is a JSON value; the output ends with a newline. */
static bool all_lines_json(const struct sink *s)
{
    if (s->len == 0 || s->data[s->len - 1] != '\n')
        return false;
    const char *p = s->data, *end = s->data + s->len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        cJSON *j = parse_json(p, (size_t)(nl - p));
        if (j == NULL)
            return false;
        cJSON_Delete(j);
        p = nl + 1;
    }
    return true;
}

/* Exactly one line: {"error":{"id":"...","message":"...",...}} */
static bool is_error_object(const struct sink *s)
{
    if (s->len == 0 || s->data[s->len - 1] != '\n' || memchr(s->data, '\n', s->len - 1))
        return false;
    cJSON *j = parse_json(s->data, s->len - 1);
    if (j == NULL)
        return false;
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(j, "error");
    bool ok = cJSON_IsObject(j) && cJSON_IsObject(err) &&
              cJSON_IsString(cJSON_GetObjectItemCaseSensitive(err, "id")) &&
              cJSON_IsString(cJSON_GetObjectItemCaseSensitive(err, "message"));
    cJSON_Delete(j);
    return ok;
}

/* 1 when --format json was asked for, 2 for jsonl, 0 otherwise or with help
 * (which is text). */
static bool asks_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0 || strcmp(a, "--version") == 0 ||
            (i == 1 && strcmp(a, "help") == 0))
            return true;
    }
    return false;
}

static int json_requested(int argc, char **argv)
{
    int json = 0;
    if (asks_help(argc, argv))
        return 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (strncmp(a, "--format=", 9) == 0)
            v = a + 9;
        else if (strcmp(a, "--format") == 0 && i + 1 < argc)
            v = argv[i + 1];
        if (v && strcmp(v, "json") == 0)
            json = 1;
        else if (v && strcmp(v, "jsonl") == 0)
            json = 2;
    }
    if (json == 1 && argc > 1 && (strcmp(argv[1], "plan") == 0 || strcmp(argv[1], "scan") == 0))
        json = 2; /* plan's and scan's json is JSON Lines, as their jsonl */
    return json;
}

/* --format text (scan's table of an ONNX model is no JSON Lines). */
static bool text_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--format=text") == 0 ||
            (strcmp(argv[i], "--format") == 0 && i + 1 < argc && strcmp(argv[i + 1], "text") == 0))
            return true;
    return false;
}

static bool has_control_bytes(const struct sink *s)
{
    for (size_t i = 0; i < s->len; i++) {
        unsigned char c = (unsigned char)s->data[i];
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return true;
    }
    return false;
}

/* Valid UTF-8 (JSON text must be: RFC 8259 section 8.1). */
static bool valid_utf8(const struct sink *s)
{
    const unsigned char *p = (const unsigned char *)s->data, *end = p + s->len;
    while (p < end) {
        unsigned c = *p++, n = c < 0x80                 ? 0
                               : c >= 0xc2 && c <= 0xdf ? 1
                               : (c & 0xf0) == 0xe0     ? 2
                               : c >= 0xf0 && c <= 0xf4 ? 3
                                                        : 9;
        if (n == 9 || (size_t)(end - p) < n)
            return false;
        unsigned cp = c & (0x3fu >> n);
        for (unsigned i = 0; i < n; i++, p++) {
            if ((*p & 0xc0) != 0x80)
                return false;
            cp = cp << 6 | (*p & 0x3fu);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
            return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct sink out, err;
    static FILE *devnull;
    static int strict = -1;
    if (strict < 0) {
        const char *s = getenv("DMLT_FUZZ_STRICT");
        strict = !(s && s[0] == '0');
    }
    if (devnull == NULL)
        devnull = fopen("/dev/null", "r");
    FUZZ_CHECK(devnull != NULL);
    clearerr(devnull);

    /* Standard input: what follows the first two NULs. */
    const uint8_t *stdin_data = NULL;
    size_t stdin_size = 0;
    for (size_t i = 0; i + 1 < size; i++) {
        if (data[i] == 0 && data[i + 1] == 0) {
            stdin_data = data + i + 2;
            stdin_size = size - i - 2;
            size = i;
            break;
        }
    }
    /* A path would let batch and scan read the machine's files (/dev/zero
     * never ends): words with '/' are not tried. */
    if (memchr(data, '/', size))
        return 0;

    /* Split into words, in place, in a NUL-terminated copy. */
    char *buf = malloc(size + 1);
    char **argv = malloc((size + 3) * sizeof *argv);
    FUZZ_CHECK(buf != NULL && argv != NULL);
    if (size)
        memcpy(buf, data, size);
    size_t n = size;
    if (n && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
        n--;
    buf[n] = '\0';
    int argc = 0;
    static char argv0[] = "dmltensor";
    argv[argc++] = argv0;
    if (size) {
        argv[argc++] = buf;
        for (size_t i = 0; i < n; i++) {
            if (buf[i] == '\n' || buf[i] == '\0') {
                buf[i] = '\0';
                argv[argc++] = buf + i + 1;
            }
        }
    }
    argv[argc] = NULL;

    char *stdin_copy = NULL;
    FILE *in = devnull;
    if (stdin_size) {
        stdin_copy = malloc(stdin_size);
        FUZZ_CHECK(stdin_copy != NULL);
        memcpy(stdin_copy, stdin_data, stdin_size);
        in = fmemopen(stdin_copy, stdin_size, "r");
        FUZZ_CHECK(in != NULL);
    }
    FILE *fout = sink_open(&out), *ferr = sink_open(&err);
    int status = cli_main(argc, argv, in, fout, ferr);
    fclose(fout);
    fclose(ferr);
    if (in != devnull)
        fclose(in);

    FUZZ_CHECK(status >= 0 && status <= 3);
    const bool capped = out.overflowed || err.overflowed;
    if (status == 3) /* an I/O error: a sink full, or an input, with a message */
        FUZZ_CHECK(capped || starts_with(&err, "dmltensor: "));
    if (!capped) {
        if (argc == 1) {
            FUZZ_CHECK(status == 2 && out.len == 0 && starts_with(&err, "dmltensor - "));
        } else if (status == 2) {
            FUZZ_CHECK(starts_with(&err, "dmltensor: "));
            FUZZ_CHECK(out.len == 0 || is_error_object(&out));
        }
        int json = out.len ? json_requested(argc, argv) : 0;
        if (json == 1 && status != 2) { /* one JSON value (an error is one line) */
            cJSON *j = parse_json(out.data, out.len);
            FUZZ_CHECK(j != NULL && out.data[out.len - 1] == '\n');
            cJSON_Delete(j);
        }
        bool lines = argc > 1 && (strcmp(argv[1], "batch") == 0 || strcmp(argv[1], "scan") == 0) &&
                     !asks_help(argc, argv) && !text_requested(argc, argv);
        if (json == 2 || (lines && out.len && (status == 0 || status == 1)))
            FUZZ_CHECK(all_lines_json(&out)); /* JSON Lines: one value a line */
        if (strict) {
            FUZZ_CHECK(!has_control_bytes(&err));
            if (json || lines)
                FUZZ_CHECK(valid_utf8(&out));
        }
    }
    free(stdin_copy);
    free(argv);
    free(buf);
    return 0;
}
