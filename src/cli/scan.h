/* scan.h - scan's state, which its parts share: the command
 * (cmd_scan.c: the files, JSON documents, DxDispatch bindings), the ONNX
 * scan (scan_onnx.c: a model's records, inferred activations and summary)
 * and the output both write through (scan_out.c). */
#ifndef DMLT_SCAN_H
#define DMLT_SCAN_H

#include "platform.h"
#include "results.h"
#include "first_unknown.h"
#include "model_session.h"
#include "source_onnx.h"
#include "dml_ep.h"

#include <stdbool.h>
#include <stdint.h>

/* What scan reads, the hint of an input it refuses. */
#define SCAN_READS "scan reads JSON documents and ONNX models (a protobuf ModelProto)"

/* The distinct symbols left unbound: the first UNBOUND_LIST_MAX listed,
 * up to UNBOUND_TRACK_MAX told apart (a table of that many slots), the
 * rest counted as "at least". */
enum { UNBOUND_LIST_MAX = 100, UNBOUND_TRACK_MAX = 4096 };

struct unbound_set {
    struct onnx_bytes slot[2 * UNBOUND_TRACK_MAX]; /* open addressing, half full at most */
    uint64_t distinct;
    bool overflow; /* more than UNBOUND_TRACK_MAX distinct: distinct is a lower bound */
};

/* The kinds of scan's records: the walk's (enum onnx_kind), then the
 * node outputs inference finds, activations and folded values (SPEC
 * section 11: computed once when a runtime session is made). */
enum { SCAN_ACTIVATION = ONNX_KIND_COUNT, SCAN_FOLDED, SCAN_KINDS };

/* One ONNX model's totals, for its summary record. */
struct model_totals {
    uint64_t tensors, failed, broken, external;
    uint64_t unknown, empty, not_tensors, weights_unsized;
    uint64_t kinds[SCAN_KINDS];
    uint64_t folded;        /* records of kind folded */
    dmlt_u128 folded_bytes; /* their sizes, where known */
    dmlt_u128 initializer_bytes, io_bytes, largest_bytes, weight_bytes;
    uint64_t io_inputs, io_outputs;
    bool io_complete;
    bool has_largest;
    struct unbound_set *unbound;
    struct outbuf unbound_list; /* JSON strings, or text, of the first UNBOUND_LIST_MAX */
    /* JSON: {"path":..,"name":..,"total_tensor_size_bytes":..} and
     * "path","path" (the first JSON_LIST_MAX); text: "name (path)" and
     * "name, name" (the first TEXT_LIST_MAX). */
    struct outbuf largest;
    struct outbuf broken_paths, failed_paths;
};

/* The summary's lists keep the first few paths and count the rest
 * (failed_paths_more): memory stays flat whatever the model. */
enum { TEXT_LIST_MAX = 5, JSON_LIST_MAX = 100 };

/* --top N: the N largest records of a model so far, kept until its
 * summary (scan_out.c). */
struct scan_top_entry {
    dmlt_u128 bytes;
    bool known;   /* its size is known (an unknown one ranks below every known) */
    uint64_t seq; /* input order, among equals */
    char *data;   /* the record as written, len bytes */
    size_t len;
};

struct scan_top {
    uint64_t n;                  /* N; 0 without --top */
    struct scan_top_entry *heap; /* the smallest at [0] */
    size_t count, cap;
    uint64_t seq;
};

struct scan {
    struct cli_config *cfg;
    struct descriptor *d;
    struct outbuf *out, rec, path, scratch, shape;
    struct tally t;
    struct cli_error *e;
    bool failed;              /* a record could not be kept or written: s->e says why */
    uint64_t bindings;        /* records of a DxDispatch model's bindings */
    const char *file;         /* the file being scanned */
    bool multi;               /* several files: each record says its file */
    bool text;                /* --format text: a table per ONNX model */
    bool text_started;        /* text written: a blank line before the next */
    unsigned onnx_files;      /* ONNX models scanned */
    uint64_t unknown;         /* their tensors of unknown size, all models */
    struct onnx_options onnx; /* --dim, --rank, --layout */
    struct model_totals model;
    struct plat_map *map; /* the file being scanned */
    /* The ONNX model being scanned (model_session.h): walked once (its
     * records kept), read whole, its shapes inferred (session.infer NULL:
     * --no-infer); every pass over its records asks the session. */
    struct onnx_session session;
    size_t name_width; /* --format text: the NAME column's, for this model */
    struct outbuf text_tmp;
    struct scan_top top;
    struct first_unknown first; /* this model's first value of unknown size */
    bool first_searched;        /* first is found once a record of unknown size needs it */
    /* A declared shape's unbound symbols, noted once its record shows they
     * still decide its size (not when inference resolves them). */
    struct onnx_bytes pending[64];
    unsigned n_pending;
    char first_note[600];     /* the run's first one, for the note on stderr */
    unsigned dml_level;       /* --feature-level, parsed */
    struct dmlt_ep_result ep; /* each node's placement (SPEC section 12), for "placement" */
};

/* A record as cli_scan_sink() takes it: rendered (a JSON line or a text row)
 * into s->out from start, and what counts and ranks it. */
struct scan_record {
    size_t start;
    bool model;                      /* an ONNX model's (then kind says which): --top ranks it */
    unsigned kind;                   /* enum onnx_kind, SCAN_ACTIVATION or SCAN_FOLDED */
    const dmlt_u128 *bytes;          /* its size; NULL: unknown (ranks below every known) */
    const struct cli_error *failure; /* an error that fails the run (exit 1), or NULL */
    bool broken;                     /* it breaks one of DirectML's rules (exit 1) */
    bool file_error; /* cli_scan_sink_file_error's: a file not scanned, with its "file" */
};

/* scan_out.c: the one way out for every record of scan (a JSON
 * document's descriptions and bindings, an ONNX model's values and
 * activations): counted (the run's tally, a model's summary), given its
 * "file" when several files are scanned, ranked by --top, written out
 * once s->out holds BATCH_CHUNK. An option that filters, limits or counts
 * records is a gate here. ONNX_STEP_FAIL (s->failed, s->e says why) when
 * it could not be kept or written. */
enum onnx_step cli_scan_sink(struct scan *s, const struct scan_record *r);
/* scan_out.c: a file that could not be scanned, as a record of its own
 * (several files: the others are scanned): {"file":..,"error":{..}}, or
 * its line in the text, through cli_scan_sink(). */
enum onnx_step cli_scan_sink_file_error(struct scan *s, const struct cli_error *fe);
/* scan_out.c: with several files, each record carries its "file": put
 * first in the record written to s->out from start (whole, not yet
 * drained). */
void cli_scan_put_file_key(struct scan *s, size_t start);
/* scan_out.c: writes s->out out once it holds BATCH_CHUNK; false (and
 * s->failed) when writing failed. */
bool cli_scan_drain_if_full(struct scan *s);
/* scan_out.c: reads --top (exit 2 for a bad one); cli_scan_top_free frees
 * what it keeps. */
bool cli_scan_top_init(struct scan *s, struct cli_error *e);
void cli_scan_top_free(struct scan *s);
/* scan_out.c: writes the records kept, the largest first (input order
 * among equals), and forgets them: before a model's summary. */
void cli_scan_top_flush(struct scan *s);
/* scan_summary.c: the model's first value of unknown size (s->first),
 * searched for the first time it is needed. */
const struct first_unknown *cli_scan_first_unknown(struct scan *s);
/* scan_summary.c: a main graph input of unknown size, its record's path:
 * the first unknown's when it is that input. */
void cli_scan_first_unknown_input(struct scan *s, const char *path, struct onnx_bytes name);
/* scan_out.c: "input", ..., "activation" (SCAN_ACTIVATION), "folded"
 * (SCAN_FOLDED): the kind a record and the summary name. */
const char *cli_scan_kind_name(unsigned k);

/* scan_onnx.c: the ONNX model of s->session, walked whole already: its
 * records (declared values, then inferred activations in node order) and
 * its summary. */
bool cli_scan_onnx(struct scan *s, struct cli_error *e);
/* scan_onnx.c: the per-model state of s (totals, lists); false when
 * memory ran out. cli_scan_onnx_free undoes it (either way). */
bool cli_scan_onnx_init(struct scan *s);
void cli_scan_onnx_free(struct scan *s);
/* scan_summary.c: a model's totals after its records, as the
 * {"summary":{...}} record or --format text's lines. */
void cli_scan_put_onnx_summary(struct scan *s);
void cli_scan_put_text_totals(struct scan *s);
/* For onnx_walk: pages of the mapped file before upto may go. */
void cli_scan_release_map(void *ctx, size_t upto);

#endif
