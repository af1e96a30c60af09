/* cli_main.c - dispatch the command, write its output whole, map failures
 * to exit statuses (0 ok, 1 rule broken, 2 usage, 3 I/O). The streams are
 * parameters so that tests and fuzzers can run the whole path in memory. */
#include "cli.h"
#include "onnx_common.h"
#include "platform.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* Writes b to f; a failure is exit 3 with a message on stderr. A reader
 * that went away (`| head`) is not a failure: nothing is said, status 0. */
static int write_out(struct outbuf *b, FILE *f, FILE *ferr)
{
    errno = 0;
    if (cli_ob_flush_to(b, f))
        return CLI_EXIT_OK;
    int err = errno;
    if (b->failed) { /* nothing of it was written: cli_ob_flush_to checks first */
        fputs("dmltensor: out of memory\n", ferr);
        return CLI_EXIT_USAGE;
    }
    if (cli_plat_closed_pipe(f, err))
        return CLI_EXIT_OK;
    fprintf(ferr, "dmltensor: write error: %s\n", strerror(err ? err : EIO));
    return CLI_EXIT_IO;
}

static int report_error(const struct cli_error *e, enum format fmt, FILE *out, FILE *ferr)
{
    if (e->exit_code == CLI_EXIT_OK)
        return CLI_EXIT_OK; /* the reader went away: nothing to say */
    struct outbuf b;
    cli_ob_init(&b);
    cli_render_error_text(&b, e);
    int status = e->exit_code;
    if (b.failed) { /* no memory left to word the error: say that, as exit 2 */
        fputs("dmltensor: out of memory\n", ferr);
        cli_ob_free(&b);
        return CLI_EXIT_USAGE;
    }
    (void)cli_ob_flush_to(&b, ferr);
    if ((fmt == FMT_JSON || fmt == FMT_JSONL) && !e->stdout_failed) { /* an object scripts read */
        cli_ob_reset(&b);
        cli_render_error_json(&b, e);
        if (write_out(&b, out, ferr) != CLI_EXIT_OK)
            status = CLI_EXIT_IO;
    }
    cli_ob_free(&b);
    return status;
}

/* DMLT_DEBUG_PARSES set: how many times each reader passed over a model's
 * bytes in this run, on stderr (the parse-count test, docs/testing.md). */
static void debug_parses(FILE *ferr, const unsigned long before[ONNX_READERS])
{
    if (getenv("DMLT_DEBUG_PARSES") == NULL)
        return;
    fprintf(ferr, "dmltensor: parses: walk %lu, model %lu\n",
            onnx_parse_passes(ONNX_READER_WALK) - before[ONNX_READER_WALK],
            onnx_parse_passes(ONNX_READER_MODEL) - before[ONNX_READER_MODEL]);
}

int cli_main(int argc, char **argv, FILE *in, FILE *fout, FILE *ferr)
{
    const unsigned long parses[ONNX_READERS] = {onnx_parse_passes(ONNX_READER_WALK),
                                                onnx_parse_passes(ONNX_READER_MODEL)};
    struct outbuf out;
    struct cli_config cfg = {0};
    struct cli_error e;
    int status = CLI_EXIT_OK;
    cli_ob_init(&out);
    cli_ob_oom_reset();
    out.sink = fout;

    if (argc < 2) {
        cli_render_main_help(&out);
        (void)cli_ob_flush_to(&out, ferr);
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        cli_render_main_help(&out);
        status = write_out(&out, fout, ferr);
        goto done;
    }
    if (strcmp(argv[1], "--version") == 0) {
        cli_render_version(&out);
        status = write_out(&out, fout, ferr);
        goto done;
    }
    if (!cli_parse_command_line(argc, argv, &cfg, &e)) {
        status = report_error(&e, cli_format_from_argv(argc, argv), fout, ferr);
        goto done;
    }
    cfg.in = in;
    cfg.err = ferr;
    cfg.commands = (struct command_list){cli_commands, cli_n_commands};
    if (cfg.help) {
        cli_render_command_help(&out, cli_command_of(cfg.cmd));
        status = write_out(&out, fout, ferr);
        goto done;
    }
    bool ok = cli_command_of(cfg.cmd)->run(&cfg, &out, &e);
    if (ok && cli_ob_oom_seen()) /* a scratch buffer failed: its text is missing */
        ok = cli_fail(&e, CLI_E_OUT_OF_MEMORY, NULL, NULL, "out of memory");
    if (!ok && e.exit_code == CLI_EXIT_IO && cli_ob_oom_seen()) /* a drain refused */
        e.exit_code = CLI_EXIT_USAGE;
    if (!ok) {
        status = report_error(&e, cfg.format, fout, ferr);
        goto done;
    }
    status = write_out(&out, fout, ferr);
    if (status == CLI_EXIT_OK && cfg.exit_status != CLI_EXIT_OK)
        status = cfg.exit_status; /* e.g. validate found a broken rule */
done:
    debug_parses(ferr, parses);
    cli_free_command_line(&cfg);
    cli_ob_free(&out);
    return status;
}
