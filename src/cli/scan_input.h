/* scan_input.h - what scan reads, and how: a file or standard input, mapped
 * when it is a regular file, else read within a cap that the first bytes
 * choose (a JSON document's or a model's), and refused past it before memory
 * grows further (docs/cli.md, scan). */
#ifndef DMLT_SCAN_INPUT_H
#define DMLT_SCAN_INPUT_H

#include "errors.h"
#include "platform.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* JSON, by its first byte past a byte order mark and white space: the
 * start of a JSON value. An empty input is JSON too (bad_json). */
bool scan_looks_like_json(const unsigned char *p, size_t n);

/* The most bytes of a JSON document scan parses (256 MiB). */
size_t scan_json_cap(void);

/* The bytes of file ("-": the stream in) into m, to plat_unmap_file once
 * done. False with e filled: cannot_open, input_too_large (read past its
 * cap, exit 2), read errors (exit 3), out_of_memory. */
bool scan_input_open(const char *file, FILE *in, struct plat_map *m, struct cli_error *e);

/* input_too_large for name: a JSON document, or a model that was read. */
bool scan_too_large(struct cli_error *e, const char *name, bool model);

#endif
