/* platform.h - the CLI's one room for what differs between operating systems
 * (POSIX and Windows): the process's streams, terminals, colour, opening
 * files by UTF-8 name, a monotonic clock, and writing a streamed result out
 * with the wording of its failure. No other CLI file has a Windows #ifdef.
 *
 * It sits above the output buffer (outbuf.h) and the error type (errors.h):
 * commands call down into it, never up into the dispatcher. */
#ifndef DMLT_PLATFORM_H
#define DMLT_PLATFORM_H

#include "errors.h"
#include "outbuf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Once, first thing in main(): a write to a closed pipe becomes the error
 * EPIPE instead of a signal (POSIX); the standard streams are binary, so
 * output bytes are the same as on Linux (LF, never CRLF), and argv is replaced by
 * the command line in UTF-8 (Windows). False only when memory runs out. */
bool cli_plat_init(int *argc, char ***argv);

/* 128 random bits: the system's (getentropy, rand_s), mixed with the clock
 * and the process where that fails (the names' hash key, main.c). */
void cli_plat_random(uint64_t out[2]);

/* Whether f is a terminal (a console on Windows). */
bool cli_plat_isatty(FILE *f);

/* The width to draw in: $COLUMNS when it is plain digits from 20 to 1000
 * (" 50", "+50" and "-18446744073709551566" are ignored), else the
 * terminal's width when f is one, else 80. */
unsigned cli_plat_term_width(FILE *f);

/* Whether colour is on by default for f: NO_COLOR unset or empty, f a
 * terminal, and (Windows) the console takes escape sequences, which this
 * turns on (virtual-terminal mode). */
bool cli_plat_color_auto(FILE *f);

/* Turns on escape sequences for f if it is a Windows console (for
 * --color always); nothing elsewhere. */
void cli_plat_color_enable(FILE *f);

/* Opens the file named by the UTF-8 text path for reading, binary. NULL
 * with *err set to an errno value on failure; a directory is EISDIR on
 * every platform. */
FILE *cli_plat_open_read(const char *path, int *err);

/* A file's bytes, mapped read-only, or, for what cannot be mapped (a pipe,
 * a FIFO, a device, a stream such as standard input, a file of size 0 as
 * /proc's), read into memory up to a cap. */
struct plat_map {
    const unsigned char *data; /* NULL when len is 0 */
    size_t len;
    void *base;      /* the same, to unmap or free */
    bool read;       /* data was read into a buffer (free), not mapped */
    bool truncated;  /* read: the input is longer than the cap, data its first len bytes */
    size_t released; /* cli_plat_map_release: pages before this are let go */
};

/* The most bytes input may have when it is read, given its first len bytes
 * (data is NULL when len is 0) and the caller's ctx: asked again as the
 * bytes grow, so the cap can depend on what the input turns out to be (and
 * drop below len when the bytes show it is no input the caller takes).
 * Less than SIZE_MAX. */
typedef size_t plat_cap(void *ctx, const unsigned char *data, size_t len);

/* The bytes of the open stream f, the one way every command takes its
 * input whole: mapped when f is a regular file (at_start: not read from
 * before head; a file of size 0, as /proc's, is read), else head[0..
 * head_len) (the bytes the caller already took from f) followed by the rest
 * of f, read within cap. False with *err set to an errno value on failure
 * (a file larger than the address space EFBIG, ENOMEM). An empty input is
 * len 0, data NULL. Read past its cap, it is true with m->truncated set:
 * memory never holds more than the cap and a byte. A mapped file has no
 * cap. f stays open (the caller closes it). */
bool cli_plat_map_open(FILE *f, bool at_start, const unsigned char *head, size_t head_len,
                       plat_cap *cap, void *ctx, struct plat_map *m, int *err);
/* The same for the file named by the UTF-8 text path, opened here (for
 * tools; a directory is EISDIR), with a cap that needs no ctx. */
bool cli_plat_map_file(const char *path, size_t (*cap)(const unsigned char *, size_t),
                       struct plat_map *m, int *err);
void cli_plat_unmap_file(struct plat_map *m);
/* A hint: the bytes of m before upto are not needed for now. Where the
 * system allows (POSIX), their pages leave the process's resident set,
 * in steps of at least 1 MiB; touched again, they come back from the page
 * cache. Nothing on Windows or for a map that was read. */
void cli_plat_map_release(struct plat_map *m, size_t upto);

/* Seconds on a monotonic clock, for progress and rates. */
double cli_plat_seconds(void);

/* Whether errno value err, from a write to f that failed, means the reader
 * went away (a closed pipe): not a failure, the command ends quietly with
 * status 0. */
bool cli_plat_closed_pipe(FILE *f, int err);

/* Writes what out holds to out->sink and empties it. False on a write
 * error, with e filled (exit 3), or with exit status 0 for a closed pipe. */
bool cli_drain(struct outbuf *out, struct cli_error *e);

#endif
