/* errors.h - one failure of the command line: exit status, a stable id for
 * scripts, the option and the text at fault, a message and a hint. */
#ifndef DMLT_ERRORS_H
#define DMLT_ERRORS_H

#include "outbuf.h"

enum exit_code { EXIT_OK = 0, EXIT_RULE = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

struct cli_error {
    int exit_code;
    const char *id;     /* "zero_size", "bad_number", ... */
    const char *option; /* "--sizes", or NULL */
    const char *key;    /* batch and scan: the JSON key at fault ("Sizes"), or NULL */
    const char *text;   /* the offending text, or NULL */
    char message[400];
    char hint[240];
};

#if defined(__MINGW_PRINTF_FORMAT) /* MinGW's C99 printf (__USE_MINGW_ANSI_STDIO) */
#define DMLT_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__)
#define DMLT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DMLT_PRINTF(f, a)
#endif

/* Fills e as a usage error (exit 2); returns false for `return fail(...)`. */
bool fail(struct cli_error *e, const char *id, const char *option, const char *text,
          const char *fmt, ...) DMLT_PRINTF(5, 6);
void set_hint(struct cli_error *e, const char *fmt, ...) DMLT_PRINTF(2, 3);

/* "dmltensor: --sizes: "1,0,3": dimension 1 is 0 (...)" and the hint. */
void render_error_text(struct outbuf *b, const struct cli_error *e);
/* {"error":{"id":...,"message":...,"option":...,"text":...}} and a newline */
void render_error_json(struct outbuf *b, const struct cli_error *e);
/* Just "error":{...}, for a batch record that carries more keys. "key"
 * stands where "option" would when the input was JSON. */
void render_error_member(struct outbuf *b, const struct cli_error *e);

#endif
