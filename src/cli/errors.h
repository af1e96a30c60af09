/* errors.h - one failure of the command line: exit status, a stable id for
 * scripts, the option and the text at fault, a message and a hint. */
#ifndef DMLT_ERRORS_H
#define DMLT_ERRORS_H

#include "outbuf.h"

#include <stdio.h>

enum cli_exit { CLI_EXIT_OK = 0, CLI_EXIT_RULE = 1, CLI_EXIT_USAGE = 2, CLI_EXIT_IO = 3 };

/* Every error id the command line reports, once: the JSON error object's
 * "id" (docs/schema/error.schema.json lists the same, which the test
 * docs/error_ids checks). Sorted by name; scripts depend on these texts. */
#define CLI_ERRORS(X)                                                                              \
    X(BAD_ALIGNMENT, "bad_alignment")                                                              \
    X(BAD_BINDING, "bad_binding")                                                                  \
    X(BAD_CHECKS, "bad_checks")                                                                    \
    X(BAD_COLOR, "bad_color")                                                                      \
    X(BAD_COMMAND, "bad_command")                                                                  \
    X(BAD_DEVICE, "bad_device")                                                                    \
    X(BAD_DIMENSION, "bad_dimension")                                                              \
    X(BAD_DTYPE, "bad_dtype")                                                                      \
    X(BAD_FEATURE_LEVEL, "bad_feature_level")                                                      \
    X(BAD_FIELD, "bad_field")                                                                      \
    X(BAD_FLAGS, "bad_flags")                                                                      \
    X(BAD_FORMAT, "bad_format")                                                                    \
    X(BAD_JSON, "bad_json")                                                                        \
    X(BAD_LAYOUT, "bad_layout")                                                                    \
    X(BAD_LIFETIME, "bad_lifetime")                                                                \
    X(BAD_NAME, "bad_name")                                                                        \
    X(BAD_NUMBER, "bad_number")                                                                    \
    X(BAD_ONNX, "bad_onnx")                                                                        \
    X(BAD_OPERATION, "bad_operation")                                                              \
    X(BAD_ORDER, "bad_order")                                                                      \
    X(BAD_PAD, "bad_pad")                                                                          \
    X(BAD_RANK, "bad_rank")                                                                        \
    X(BAD_RECORD, "bad_record")                                                                    \
    X(BAD_REQUIRE, "bad_require")                                                                  \
    X(BAD_ROW_PITCH, "bad_row_pitch")                                                              \
    X(BAD_SIZE, "bad_size")                                                                        \
    X(BAD_STEP, "bad_step")                                                                        \
    X(BAD_TYPE, "bad_type")                                                                        \
    X(BAD_VIEW, "bad_view")                                                                        \
    X(BINDING_COUNT, "binding_count")                                                              \
    X(BINDING_FIELD, "binding_field")                                                              \
    X(BROADCAST_RANK, "broadcast_rank")                                                            \
    X(BROADCAST_SIZE, "broadcast_size")                                                            \
    X(CANNOT_OPEN, "cannot_open")                                                                  \
    X(CONFLICTING_KEYS, "conflicting_keys")                                                        \
    X(CONFLICTING_OPTIONS, "conflicting_options")                                                  \
    X(COORDINATE_COUNT, "coordinate_count")                                                        \
    X(COORDINATE_OUT_OF_RANGE, "coordinate_out_of_range")                                          \
    X(DIM_NEGATIVE, "dim_negative")                                                                \
    X(DIM_TOO_LARGE, "dim_too_large")                                                              \
    X(DIM_UNBOUND, "dim_unbound")                                                                  \
    X(DIM_UNKNOWN, "dim_unknown")                                                                  \
    X(DIMENSION_COUNT, "dimension_count")                                                          \
    X(DISPATCHABLE_MISSING, "dispatchable_missing")                                                \
    X(DTYPE_UNSUPPORTED, "dtype_unsupported")                                                      \
    X(DUPLICATE_KEY, "duplicate_key")                                                              \
    X(DUPLICATE_OPTION, "duplicate_option")                                                        \
    X(ELEMENT_COUNT_RANGE, "element_count_range")                                                  \
    X(ELEMENT_SIZE_UNKNOWN, "element_size_unknown")                                                \
    X(EMPTY_FIELD, "empty_field")                                                                  \
    X(EMPTY_SLICE, "empty_slice")                                                                  \
    X(GRAPH_CYCLE, "graph_cycle")                                                                  \
    X(INDEX_RANGE, "index_range")                                                                  \
    X(INPUT_TOO_LARGE, "input_too_large")                                                          \
    X(INTERNAL, "internal")                                                                        \
    X(IO_ERROR, "io_error")                                                                        \
    X(MISSING_ARGUMENT, "missing_argument")                                                        \
    X(MISSING_KEY, "missing_key")                                                                  \
    X(MISSING_OPTION, "missing_option")                                                            \
    X(MISSING_VALUE, "missing_value")                                                              \
    X(NEGATIVE_STEP, "negative_step")                                                              \
    X(NOT_A_TENSOR, "not_a_tensor")                                                                \
    X(OFFSET_OUT_OF_RANGE, "offset_out_of_range")                                                  \
    X(OUT_OF_MEMORY, "out_of_memory")                                                              \
    X(OUT_OF_RANGE, "out_of_range")                                                                \
    X(PLACEMENT_UNKNOWN, "placement_unknown")                                                      \
    X(RECORD_TOO_LONG, "record_too_long")                                                          \
    X(RESHAPE_COPY, "reshape_copy")                                                                \
    X(RESHAPE_COUNT, "reshape_count")                                                              \
    X(RESOURCE_MISSING, "resource_missing")                                                        \
    X(SELECT_RANK, "select_rank")                                                                  \
    X(SHAPE_CONFLICT, "shape_conflict")                                                            \
    X(SHAPE_NOT_INFERRED, "shape_not_inferred")                                                    \
    X(SHAPE_UNKNOWN, "shape_unknown")                                                              \
    X(SPLIT_SUM, "split_sum")                                                                      \
    X(SPLIT_UNEQUAL, "split_unequal")                                                              \
    X(STRIDE_COUNT, "stride_count")                                                                \
    X(STRIDE_RANGE, "stride_range")                                                                \
    X(TOO_LONG, "too_long")                                                                        \
    X(TOO_MANY_DIMS, "too_many_dims")                                                              \
    X(TOO_MANY_VALUES, "too_many_values")                                                          \
    X(TOO_MANY_VIEWS, "too_many_views")                                                            \
    X(TOTAL_SIZE_RANGE, "total_size_range")                                                        \
    X(TYPE_UNKNOWN, "type_unknown")                                                                \
    X(UNEXPECTED_ARGUMENT, "unexpected_argument")                                                  \
    X(UNEXPECTED_KEY, "unexpected_key")                                                            \
    X(UNEXPECTED_VALUE, "unexpected_value")                                                        \
    X(UNKNOWN_COMMAND, "unknown_command")                                                          \
    X(UNKNOWN_KEY, "unknown_key")                                                                  \
    X(UNKNOWN_OPERATOR, "unknown_operator")                                                        \
    X(UNKNOWN_OPTION, "unknown_option")                                                            \
    X(UNKNOWN_TENSOR, "unknown_tensor")                                                            \
    X(ZERO_SIZE, "zero_size")

enum cli_error_id {
#define CLI_ERROR_ENUM(name, text) CLI_E_##name,
    CLI_ERRORS(CLI_ERROR_ENUM)
#undef CLI_ERROR_ENUM
        CLI_E_COUNT
};

/* The id's text, "bad_number". */
const char *cli_error_name(enum cli_error_id id);

struct cli_error {
    int exit_code;
    const char *id;     /* "zero_size", "bad_number", ... */
    const char *option; /* "--sizes", or NULL */
    const char *key;    /* batch and scan: the JSON key at fault ("Sizes"), or NULL */
    const char *text;   /* the offending text, or NULL */
    char message[400];
    char hint[240];
    /* cli_error_keep(): copies of key and text, for an error that outlives
     * the input they point into (plan frees its records before the error
     * is reported). */
    char kept_key[64], kept_text[200];
    /* cli_drain(): standard output failed: the error goes to standard error
     * alone (a JSON error object could not be written either, and would
     * only say the write error twice). */
    bool stdout_failed;
};

#if defined(__MINGW_PRINTF_FORMAT) /* MinGW's C99 printf (__USE_MINGW_ANSI_STDIO) */
#define DMLT_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__)
#define DMLT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DMLT_PRINTF(f, a)
#endif

/* Fills e as a usage error (exit 2); returns false for `return cli_fail(...)`. */
bool cli_fail(struct cli_error *e, enum cli_error_id id, const char *option, const char *text,
              const char *fmt, ...) DMLT_PRINTF(5, 6);
void cli_hint(struct cli_error *e, const char *fmt, ...) DMLT_PRINTF(2, 3);
/* Points e->key and e->text at copies inside e (cut to fit). */
void cli_error_keep(struct cli_error *e);

/* How much of a name from the input a message shows ("%.*s"): its first
 * max bytes at most (a name may be a megabyte long). */
static inline int cli_shown(size_t n, size_t max)
{
    return (int)(n < max ? n : max);
}

/* "dmltensor: " and the formatted text, through cli_ob_quoted_text (it may
 * quote input: a name, a file, a message), and a newline, to f: a note on
 * stderr that is not the command's error. */
void cli_note(FILE *f, const char *fmt, ...) DMLT_PRINTF(2, 3);

/* "dmltensor: --sizes: "1,0,3": dimension 1 is 0 (...)" and the hint. */
void cli_render_error_text(struct outbuf *b, const struct cli_error *e);
/* {"error":{"id":...,"message":...,"option":...,"text":...}} and a newline */
void cli_render_error_json(struct outbuf *b, const struct cli_error *e);
/* Just "error":{...}, for a batch record that carries more keys. "key"
 * stands where "option" would when the input was JSON. */
void cli_render_error_member(struct outbuf *b, const struct cli_error *e);

#endif
