/* results.h - what batch and scan share (results.c): running a
 * descriptor's command, error records, the tally of failures with its
 * summary on stderr, and opening the input named on the command line. */
#ifndef DMLT_RESULTS_H
#define DMLT_RESULTS_H

#include "cli.h"
#include "descriptor.h"
#include "json_parse.h"

#include <stdint.h>
#include <stdio.h>

/* A streamed result is written out when this much has gathered. */
#define BATCH_CHUNK ((size_t)64 << 10)

/* How many records failed (error records) or broke a rule, and the first
 * failure, for the summary. */
struct tally {
    uint64_t records, failed, broken; /* error records; well-formed but invalid */
    unsigned long first_line;
    char first_message[600];
};

/* A JSON value as given: strings through cli_ob_json_str (valid UTF-8 out
 * whatever came in), numbers as they were written, lists and objects item
 * by item. */
void cli_results_put_json(struct outbuf *b, const cJSON *v);
/* Runs d's command into rec (one JSON object and a newline). */
bool cli_results_run(struct descriptor *d, struct outbuf *rec, struct cli_error *e);
/* Counts a failure; the first one is kept for the summary. */
void cli_results_note_failure(struct tally *t, unsigned long line, const struct cli_error *e);
/* A record's id as given: from the tree, or the text the plain path kept. */
void cli_results_put_id(struct outbuf *out, const struct descriptor *d);
/* {"id":...,"line":N or "path":...,"error":{...}} and a newline. */
void cli_results_error_record(struct outbuf *out, const struct descriptor *d, const char *path,
                              unsigned long line, const struct cli_error *e);
/* "dmltensor: batch: N of M records failed; the first, at line L: ..." */
void cli_results_summary(const struct cli_config *cfg, const struct tally *t, const char *what);

#endif
