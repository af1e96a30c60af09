/* input.h - the one input reader of every command that reads a FILE or
 * standard input (scan, plan, batch). The input is opened once; its first
 * bytes (the head, up to 4 KiB) are read once and judged: whether they can
 * start JSON (a document, JSON Lines, an array) and whether they can start
 * an ONNX model (a protobuf ModelProto). Bytes that can start neither are
 * refused at once, whatever follows (random data, zeros, a PNG). Then the
 * command takes the input either whole (cli_input_whole: mapped when it is a
 * regular file, else the head and the rest read within the cap its kind
 * sets, refused past it before memory grows further) or as records
 * (cli_input_records: the head, then the rest of the stream). Nothing opens
 * the input a second time: a pipe, a FIFO or `<(...)` gives its bytes once
 * (docs/cli.md, "Input"). */
#ifndef DMLT_INPUT_H
#define DMLT_INPUT_H

#include "errors.h"
#include "json_parse.h"
#include "onnx_common.h"
#include "platform.h"
#include "records.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define INPUT_HEAD 4096

struct input {
    const char *name; /* as given: a path, or "-" for standard input */
    FILE *f;
    bool opened;   /* f was opened here: cli_input_close closes it */
    bool at_start; /* f was at its start before the head (a regular file is mapped) */
    unsigned char head[INPUT_HEAD];
    size_t head_len; /* less than INPUT_HEAD: the whole input */
    /* What the head can start. */
    bool json_start;               /* its first byte past a byte order mark and white
                                    * space can start a JSON value (or there is none) */
    bool json;                     /* ... and the head parses as the start of JSON text */
    struct json_error json_error;  /* !json: why, at a byte of the head */
    bool model;                    /* the head can start a ModelProto */
    struct onnx_error model_error; /* !model: why */
    size_t model_pos;              /* what onnx_model_prefix has checked */
    bool whole_model;              /* cli_input_whole reads a model */
};

/* Opens file ("-": std_in) and reads its head. False with e filled:
 * cannot_open (exit 2), a read error (exit 3). */
bool cli_input_open(struct input *in, const char *file, FILE *std_in, struct cli_error *e);
void cli_input_close(struct input *in);

/* The whole input into m (cli_plat_unmap_file once done), by what the head
 * is: JSON (by its first byte, in->json_start) within 256 MiB, else a
 * model (in->model) within 2 GiB (protobuf's limit) whose top-level fields are
 * checked as they arrive. False with e filled: cli_input_too_large past the cap
 * (exit 2), bad_onnx when bytes read later show it is no model, read errors
 * (exit 3), out_of_memory. */
bool cli_input_whole(struct input *in, struct plat_map *m, struct cli_error *e);

/* r reads the input as records: the head, then the rest of the stream. */
void cli_input_records(struct input *in, struct record_reader *r);

/* The error of an input the head shows is neither JSON nor a model:
 * bad_json naming why it is not JSON and, when its first byte starts no
 * JSON value, why it is no model either; bad_onnx when it starts as a
 * model (its first field is ModelProto's) and a later field is damaged.
 * what names what the command reads. */
bool cli_input_refuse(const struct input *in, const char *what, struct cli_error *e);

/* The most bytes of a JSON document read whole (256 MiB). */
size_t cli_input_json_cap(void);
/* DMLT_TEST_INPUT_CAP_SHIFT's K (docs/testing.md), 0 without it: every
 * input cap 2^K times smaller, for tests to reach them with little data. */
unsigned cli_input_cap_shift(void);

/* The most memory the model reader may hold for the graphs of a model of
 * len bytes (onnx_model_memory_cap: 16 MiB + 32 x len, at most 1 GiB),
 * lower under DMLT_TEST_INPUT_CAP_SHIFT (to 1 MiB at least). */
size_t cli_input_model_memory_cap(size_t len);

/* cli_input_too_large for name: a JSON document, or a model that was read. */
bool cli_input_too_large(struct cli_error *e, const char *name, bool model);

#endif
