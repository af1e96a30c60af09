/*
 * dmltensor.h - exact layout arithmetic for DirectML buffer tensors.
 *
 * The library computes what a DML_BUFFER_TENSOR_DESC implies: strides for a
 * layout, the minimum implied buffer size (DMLCalcBufferTensorSize, exact),
 * packed/padded sizes, properties (broadcast, overlapping, packed, padded),
 * offsets of coordinates and the coordinates at an offset.
 *
 * It does arithmetic and nothing else: no I/O, no allocation, no globals.
 * Every function returns a dmlt_status; details a message needs (which
 * dimension, which value) travel in a caller-owned struct dmlt_error.
 *
 * Sizes and byte counts can exceed 64 bits (float64 sizes {2^32-1, 2^32-1}
 * needs about 2^67 bytes), so they are carried as unsigned 128-bit integers
 * (dmlt_u128, two 64-bit words: the header is plain C11 for any compiler)
 * and every product and sum is checked: a result that does not fit is the
 * error DMLT_E_RANGE, never a wrapped number.
 *
 * Upgrading. A program built against this header keeps working with a later
 * library of the same major version (the shared library's SONAME):
 *  - every enum value is pinned: new statuses, diagnostics and checks get
 *    new numbers, none is renumbered;
 *  - result structs that may grow (struct dmlt_report, struct dmlt_walk,
 *    struct dmlt_view) start with a `size` the caller sets to sizeof the
 *    struct it has (DMLT_REPORT_INIT, DMLT_WALK_INIT, DMLT_VIEW_INIT); new fields are only ever
 * added at the end, and the library writes no byte past `size`, so a program built against an
 * older, smaller struct gets the fields it knows;
 *  - dmlt_validate is told how many results the caller's array holds;
 *  - dmlt_version() says which library is loaded, DMLT_VERSION_NUMBER which
 *    header a program was built against.
 * struct dmlt_error, struct dmlt_check, struct dmlt_diag and the input
 * structs do not change within a major version.
 */
#ifndef DMLTENSOR_H
#define DMLTENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header: 0.1.0 is 100 (MAJOR x 10000 + MINOR x 100 +
 * PATCH). The same as the CMake project's version (a test checks it). */
#define DMLT_VERSION_MAJOR 0
#define DMLT_VERSION_MINOR 1
#define DMLT_VERSION_PATCH 0
#define DMLT_VERSION_NUMBER                                                                        \
    (DMLT_VERSION_MAJOR * 10000 + DMLT_VERSION_MINOR * 100 + DMLT_VERSION_PATCH)
#define DMLT_STRINGIFY_(x) #x
#define DMLT_STRINGIFY(x)  DMLT_STRINGIFY_(x)
#define DMLT_VERSION_STRING                                                                        \
    DMLT_STRINGIFY(DMLT_VERSION_MAJOR)                                                             \
    "." DMLT_STRINGIFY(DMLT_VERSION_MINOR) "." DMLT_STRINGIFY(DMLT_VERSION_PATCH)

/* DMLT_API marks the library's functions. On Windows it is
 * __declspec(dllexport) while the DLL is built (DMLT_BUILDING_LIBRARY),
 * __declspec(dllimport) for a program using the DLL, and nothing when
 * DMLT_STATIC is defined: while building the static library and in every
 * program linked with it. The CMake targets set these for you
 * (dmltensor::dmltensor_static carries DMLT_STATIC); by hand, define
 * DMLT_STATIC when you link libdmltensor statically on Windows. Elsewhere,
 * the shared library exports only these functions (GCC/Clang visibility). */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(DMLT_STATIC)
#define DMLT_API
#elif defined(DMLT_BUILDING_LIBRARY)
#define DMLT_API __declspec(dllexport)
#else
#define DMLT_API __declspec(dllimport)
#endif
#elif defined(DMLT_BUILDING_LIBRARY) && defined(__GNUC__)
#define DMLT_API __attribute__((visibility("default")))
#else
#define DMLT_API
#endif

/* The version of the library actually loaded, as DMLT_VERSION_NUMBER: a
 * program can compare it with the header it was built against. */
DMLT_API unsigned dmlt_version(void);

/* The same as text, "0.1.0". Never NULL. */
DMLT_API const char *dmlt_version_string(void);

/* ------------------------------------------------------------------------ */
/* 128-bit unsigned integers                                                */
/* ------------------------------------------------------------------------ */

/* An unsigned 128-bit integer, value = hi x 2^64 + lo. The same two words on
 * every compiler (standard C has no 128-bit integer type, and MSVC none at
 * all), so a program is written the same way everywhere. Read it with the
 * helpers below; a value that fits 64 bits is simply {v, 0}:
 *
 *     struct dmlt_report r = ...;
 *     if (dmlt_u128_fits_u64(r.minimum_implied_size_bytes))
 *         printf("%llu\n", (unsigned long long)dmlt_u128_to_u64(r.minimum_implied_size_bytes));
 *     else {
 *         char buf[DMLT_U128_DEC_SIZE];
 *         dmlt_u128_to_dec(r.minimum_implied_size_bytes, buf);
 *         puts(buf);
 *     }
 */
typedef struct dmlt_u128 {
    uint64_t lo; /* the low 64 bits */
    uint64_t hi; /* the high 64 bits */
} dmlt_u128;

/* Room for the decimal text of any dmlt_u128: 39 digits and a NUL. */
#define DMLT_U128_DEC_SIZE 40

/* v as a dmlt_u128. */
static inline dmlt_u128 dmlt_u128_from_u64(uint64_t v)
{
    dmlt_u128 r;
    r.lo = v;
    r.hi = 0;
    return r;
}

/* 2^128 - 1, the largest value. */
static inline dmlt_u128 dmlt_u128_max(void)
{
    dmlt_u128 r;
    r.lo = UINT64_MAX;
    r.hi = UINT64_MAX;
    return r;
}

/* Whether v fits in 64 bits (v <= UINT64_MAX). */
static inline bool dmlt_u128_fits_u64(dmlt_u128 v)
{
    return v.hi == 0;
}

/* v as a uint64_t, for a v that dmlt_u128_fits_u64 (otherwise the low 64
 * bits). */
static inline uint64_t dmlt_u128_to_u64(dmlt_u128 v)
{
    return v.lo;
}

/* -1, 0 or 1 as a < b, a == b or a > b. */
static inline int dmlt_u128_cmp(dmlt_u128 a, dmlt_u128 b)
{
    if (a.hi != b.hi)
        return a.hi < b.hi ? -1 : 1;
    if (a.lo != b.lo)
        return a.lo < b.lo ? -1 : 1;
    return 0;
}

/* Whether a == b. */
static inline bool dmlt_u128_eq(dmlt_u128 a, dmlt_u128 b)
{
    return a.lo == b.lo && a.hi == b.hi;
}

/* *out = a + b. Returns false, leaving *out alone, when the sum passes
 * 2^128 - 1. */
static inline bool dmlt_u128_add(dmlt_u128 a, dmlt_u128 b, dmlt_u128 *out)
{
    dmlt_u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo ? 1u : 0u);
    if (r.hi < a.hi || (r.hi == a.hi && r.lo < a.lo))
        return false;
    *out = r;
    return true;
}

/* *out = a - b. Returns false, leaving *out alone, when b > a. */
static inline bool dmlt_u128_sub(dmlt_u128 a, dmlt_u128 b, dmlt_u128 *out)
{
    if (dmlt_u128_cmp(a, b) < 0)
        return false;
    out->hi = a.hi - b.hi - (a.lo < b.lo ? 1u : 0u);
    out->lo = a.lo - b.lo;
    return true;
}

/* *out = a x b. Returns false, leaving *out alone, when the product passes
 * 2^128 - 1. */
DMLT_API bool dmlt_u128_mul(dmlt_u128 a, dmlt_u128 b, dmlt_u128 *out);

/* Division by a 64-bit number: *quotient = a / d and *remainder = a % d
 * (either pointer may be NULL). Returns false for d == 0. */
DMLT_API bool dmlt_u128_divmod(dmlt_u128 a, uint64_t d, dmlt_u128 *quotient, uint64_t *remainder);

/* Writes v in decimal, without leading zeros ("0" for 0), and a NUL into
 * buf. Returns the number of digits: 1 to 39. */
DMLT_API size_t dmlt_u128_to_dec(dmlt_u128 v, char buf[DMLT_U128_DEC_SIZE]);

/* Parses text[0..len) as a decimal number: one or more ASCII digits, nothing
 * else (no sign, no spaces). Returns false, leaving *out alone, for any
 * other text or a value past 2^128 - 1. */
DMLT_API bool dmlt_u128_parse_dec(const char *text, size_t len, dmlt_u128 *out);

/* v as the nearest double (ties to even), as a C cast of a 128-bit integer
 * would give: for human-readable sizes ("2 EiB"), never for arithmetic. */
DMLT_API double dmlt_u128_to_double(dmlt_u128 v);

#define DMLT_MAX_RANK     8
#define DMLT_MAX_DIM_SIZE UINT32_C(4294967295) /* DirectML sizes are UINT */
#define DMLT_MAX_STRIDE   UINT32_C(4294967295) /* ... and so are strides */

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

/* One list, so the enum and dmlt_status_name() cannot drift apart. Each
 * value is pinned: a new status takes the next number at the end. */
#define DMLT_STATUS_LIST(X)                                                                        \
    X(DMLT_OK, 0, "ok")                                                                            \
    X(DMLT_E_INVALID, 1, "invalid argument")                                                       \
    X(DMLT_E_RANK, 2, "rank out of range")                                                         \
    X(DMLT_E_ZERO_SIZE, 3, "size is zero")                                                         \
    X(DMLT_E_RANGE, 4, "value out of range")                                                       \
    X(DMLT_E_DTYPE, 5, "unknown data type")                                                        \
    X(DMLT_E_LAYOUT, 6, "bad layout")                                                              \
    X(DMLT_E_COORD, 7, "coordinate out of range")                                                  \
    X(DMLT_E_WORK_CAP, 8, "search work limit reached")

enum dmlt_status {
#define DMLT_X_ENUM(name, value, text) name = (value),
    DMLT_STATUS_LIST(DMLT_X_ENUM)
#undef DMLT_X_ENUM
};

/* A short English phrase for a status ("value out of range"). Never NULL. */
DMLT_API const char *dmlt_status_name(enum dmlt_status status);

/* Details of a failure. dim is the logical dimension involved, or -1;
 * value is the offending number when there is one. */
struct dmlt_error {
    int dim;
    dmlt_u128 value;
    dmlt_u128 limit;
};

/* ------------------------------------------------------------------------ */
/* Data types                                                               */
/* ------------------------------------------------------------------------ */

/* Values are DirectML's DML_TENSOR_DATA_TYPE enum values. */
enum dmlt_dtype {
    DMLT_DTYPE_UNKNOWN = 0,
    DMLT_DTYPE_FLOAT32 = 1,
    DMLT_DTYPE_FLOAT16 = 2,
    DMLT_DTYPE_UINT32 = 3,
    DMLT_DTYPE_UINT16 = 4,
    DMLT_DTYPE_UINT8 = 5,
    DMLT_DTYPE_INT32 = 6,
    DMLT_DTYPE_INT16 = 7,
    DMLT_DTYPE_INT8 = 8,
    DMLT_DTYPE_FLOAT64 = 9,
    DMLT_DTYPE_UINT64 = 10,
    DMLT_DTYPE_INT64 = 11,
    DMLT_DTYPE_UINT4 = 12,
    DMLT_DTYPE_INT4 = 13
};
#define DMLT_DTYPE_COUNT 13

struct dmlt_dtype_info {
    enum dmlt_dtype dtype;
    const char *name;     /* "float16" */
    const char *dml_name; /* "DML_TENSOR_DATA_TYPE_FLOAT16" */
    unsigned bits;        /* element size in bits: 4, 8, 16, 32 or 64 */
};

/* Information on a data type, or NULL for a value outside 1..13. */
DMLT_API const struct dmlt_dtype_info *dmlt_dtype_get(enum dmlt_dtype dtype);

/* Parses a data type name of len bytes: case-insensitive; accepts "float16",
 * "FLOAT16", "DML_TENSOR_DATA_TYPE_FLOAT16" and aliases (f16, fp16, half,
 * f32, float, double, u8, i64, ...). Returns DMLT_E_DTYPE if unknown. */
DMLT_API enum dmlt_status dmlt_dtype_parse(const char *text, size_t len, enum dmlt_dtype *out);

/* ------------------------------------------------------------------------ */
/* Layouts and strides                                                      */
/* ------------------------------------------------------------------------ */

/* Dimension letters for a rank: "w", "hw", "dhw", "nchw", "ncdhw"; NULL for
 * ranks 6..8, whose dimensions are named by 0-based index. */
DMLT_API const char *dmlt_dim_letters(unsigned rank);

/* Parses a layout name for a tensor of the given rank into a memory order
 * (order[0] = outermost logical dimension, order[rank-1] = innermost).
 * Accepts a permutation of the rank's letters ("nhwc", "wh"), "row-major",
 * "col-major", and a comma-separated list of indices ("0,2,3,1"). Case-
 * insensitive. Returns DMLT_E_LAYOUT when the text is not a layout of this
 * rank. */
DMLT_API enum dmlt_status dmlt_layout_parse(const char *text, size_t len, unsigned rank,
                                            unsigned order[DMLT_MAX_RANK]);

/* How to build strides: a memory order plus modifiers. */
struct dmlt_layout_spec {
    unsigned order[DMLT_MAX_RANK];  /* outermost first, logical indices */
    bool broadcast[DMLT_MAX_RANK];  /* stride 0; counts as extent 1 */
    uint32_t pad[DMLT_MAX_RANK];    /* unused elements after each run */
    uint32_t row_pitch_align_bytes; /* 0 = none */
};

/* Sets spec to plain row-major order with no modifiers. */
DMLT_API void dmlt_layout_spec_init(struct dmlt_layout_spec *spec, unsigned rank);

/* Computes element strides. Walking the memory order from the innermost
 * dimension out, each dimension's stride is the running extent (0 when
 * broadcast, exactly as DirectML's CalculateStrides); the running extent
 * then grows by size x stride (size 1 when broadcast) plus the padding
 * asked for after that dimension. With row_pitch_align_bytes, the row pitch
 * (H's stride in nchw, nhwc, ncdhw, ndhwc; else the second-innermost memory
 * dim's) is rounded up so each row starts on that many bytes; the alignment must be a multiple of
 * the element size (DMLT_E_INVALID otherwise). A stride above 4294967295 is DMLT_E_RANGE with
 * err->dim set, except on a dim of size 1, whose stride moves no offset and
 * is set to 0. Example: sizes {2,3}, order {0,1}, pad w=2 -> strides {5,1}. */
DMLT_API enum dmlt_status dmlt_strides_from_layout(enum dmlt_dtype dtype, unsigned rank,
                                                   const uint32_t sizes[],
                                                   const struct dmlt_layout_spec *spec,
                                                   uint32_t strides_out[], struct dmlt_error *err);

/* Packed strides for a memory order (no broadcast or padding). Cannot fail
 * for ranks 1..8 except by DMLT_E_RANGE. */
DMLT_API enum dmlt_status dmlt_packed_strides(unsigned rank, const uint32_t sizes[],
                                              const unsigned order[], uint32_t strides_out[],
                                              struct dmlt_error *err);

/* Detects the memory order (the layout) whose packed strides equal the
 * given strides, ignoring the strides of size-1 dims (they move no element;
 * NumPy's contiguity flags ignore them too). Returns true and fills order
 * when one exists. When several orders fit (size-1 dims may sit anywhere):
 * preferred when it is one of them (the --layout given; may be NULL), else
 * the first, in lexicographic order of the dims' indices (the order
 * `layouts --rank R` lists them), of those whose packed strides match
 * exactly, size-1 dims included, else the first of all. Sizes {1,3,4,4},
 * strides {0,16,4,1} give nchw; sizes {2,1,4,4}, strides {16,1,4,1} nhwc;
 * strides {15,15,5,1} for sizes {1,1,3,5} nchw, not cnhw. */
DMLT_API bool dmlt_layout_detect_prefer(unsigned rank, const uint32_t sizes[],
                                        const uint32_t strides[], const unsigned preferred[],
                                        unsigned order[]);

/* dmlt_layout_detect_prefer() without a preferred order. */
DMLT_API bool dmlt_layout_detect(unsigned rank, const uint32_t sizes[], const uint32_t strides[],
                                 unsigned order[]);

/* Whether the strides follow a memory order (outermost first), padding
 * allowed: going inward, each dim's stride is at least the next-inner dim's
 * stride times its size. Dims of size 1 and broadcast dims (stride 0) say
 * nothing about the order and are skipped. Every layout with --pad,
 * --row-pitch-align or --broadcast gives strides that follow its order. */
DMLT_API bool dmlt_strides_follow_order(unsigned rank, const uint32_t sizes[],
                                        const uint32_t strides[], const unsigned order[]);

/* ------------------------------------------------------------------------ */
/* The tensor and its report                                                */
/* ------------------------------------------------------------------------ */

struct dmlt_tensor {
    enum dmlt_dtype dtype;
    unsigned rank;                   /* 1..8 */
    uint32_t sizes[DMLT_MAX_RANK];   /* 1..4294967295, logical order */
    uint32_t strides[DMLT_MAX_RANK]; /* in elements, logical order */
};

/* Checks rank (1..8), sizes (no zero) and data type. */
DMLT_API enum dmlt_status dmlt_tensor_check(const struct dmlt_tensor *t, struct dmlt_error *err);

enum dmlt_tristate { DMLT_NO = 0, DMLT_YES = 1, DMLT_UNKNOWN = 2 };

enum dmlt_severity { DMLT_INFO = 0, DMLT_WARNING = 1, DMLT_ERROR = 2 };

/* Diagnostics a report can carry; each has a stable id string and a pinned
 * number (0, 1, 2, ... in list order: a new one takes the next number). */
#define DMLT_DIAG_LIST(X)                                                                          \
    X(DMLT_DIAG_HELPER_OVERFLOW, 0, "helper_overflow", DMLT_WARNING)                               \
    X(DMLT_DIAG_HELPER_DTYPE, 1, "helper_unsupported_dtype", DMLT_INFO)                            \
    X(DMLT_DIAG_RANK_NOT_4_OR_5, 2, "rank_not_4_or_5", DMLT_INFO)                                  \
    X(DMLT_DIAG_OVERLAP_UNKNOWN, 3, "overlap_unknown", DMLT_WARNING)                               \
    X(DMLT_DIAG_TOTAL_TOO_SMALL, 4, "total_size_too_small", DMLT_ERROR)                            \
    X(DMLT_DIAG_OVER_UINT32_ELEMENTS, 5, "total_size_over_uint32_elements", DMLT_WARNING)

enum dmlt_diag_id {
#define DMLT_X_ENUM(name, value, id, sev) name = (value),
    DMLT_DIAG_LIST(DMLT_X_ENUM)
#undef DMLT_X_ENUM
        DMLT_DIAG_COUNT /* the number of diagnostics this header knows */
};

/* Room for diagnostics in a report: more than there are, so that later
 * versions can add some without changing struct dmlt_report's layout. */
#define DMLT_DIAG_CAPACITY 16

/* Stable id ("helper_overflow") and default severity of a diagnostic. */
DMLT_API const char *dmlt_diag_id_name(enum dmlt_diag_id id);
DMLT_API enum dmlt_severity dmlt_diag_severity(enum dmlt_diag_id id);

struct dmlt_diag {
    enum dmlt_diag_id id;
    dmlt_u128 value; /* helper_overflow: the helper's (wrong) result in bytes;
                        total_size_too_small: the minimum implied size */
};

/* Everything `size` reports. Byte counts round up to whole DWORDs (4 bytes)
 * as DirectML requires; 4-bit types are counted in bits first.
 * Set `size` before calling dmlt_report_compute (see "Upgrading" above):
 *
 *     struct dmlt_report r = DMLT_REPORT_INIT;
 */
struct dmlt_report {
    size_t size;                          /* set by the caller: sizeof(struct dmlt_report) */
    dmlt_u128 element_count;              /* product of sizes */
    dmlt_u128 index_of_last_element;      /* sum of (size-1) x stride */
    dmlt_u128 packed_size_bytes;          /* roundup(ceil(N x bits/8), 4) */
    dmlt_u128 minimum_implied_size_bytes; /* DMLCalcBufferTensorSize, exact */
    dmlt_u128 padded_size_bytes;          /* including trailing row padding */
    dmlt_u128 extent_elements;            /* elements the padded size spans:
                                             max(index_of_last_element + 1, span) */
    dmlt_u128 total_tensor_size_bytes;    /* given total, else minimum implied */
    bool total_given;
    bool broadcast_dims[DMLT_MAX_RANK]; /* size > 1 and stride 0 */
    bool broadcast;
    enum dmlt_tristate overlapping;
    enum dmlt_tristate packed;
    enum dmlt_tristate padded;
    bool layout_detected;                   /* strides are packed for ... */
    unsigned detected_order[DMLT_MAX_RANK]; /* ... this memory order */
    unsigned diag_count;                    /* diags[0..diag_count), at most DMLT_DIAG_COUNT */
    struct dmlt_diag diags[DMLT_DIAG_CAPACITY];
    /* Fields added in later versions go here, after every field above. */
};

#ifdef __cplusplus
#define DMLT_REPORT_INIT                                                                           \
    {                                                                                              \
        sizeof(struct dmlt_report)                                                                 \
    }
#else
#define DMLT_REPORT_INIT                                                                           \
    {                                                                                              \
        .size = sizeof(struct dmlt_report)                                                         \
    }
#endif

/* Work limit for the overlap search (nodes visited); the answer is
 * DMLT_UNKNOWN past it. */
#define DMLT_OVERLAP_WORK_CAP 2000000u

/* Computes the report. total may be NULL (no total given). Fails on an
 * invalid tensor, DMLT_E_RANGE (element count beyond 128 bits), or
 * DMLT_E_INVALID when out->size is 0 (not set). Writes the first out->size
 * bytes of the report and nothing past them; diag_count then counts only the
 * diagnostics that fit. */
DMLT_API enum dmlt_status dmlt_report_compute(const struct dmlt_tensor *t, const uint64_t *total,
                                              struct dmlt_report *out, struct dmlt_error *err);

/* The result DirectML's published DMLCalcBufferTensorSize returns for these
 * strides: its strided sum is 32-bit and wraps. Returns 0 for data types the
 * published helper does not know (it returns 0 for them too). Sets *wraps
 * when the exact sum does not fit in 32 bits. */
DMLT_API uint64_t dmlt_published_helper_size(const struct dmlt_tensor *t, bool *wraps);

/* Whether two different coordinates share an element offset. Exact: a
 * sorted-stride sufficient test, then a bounded search for a nonzero
 * z with |z_i| < size_i and sum z_i x stride_i = 0 (the same Diophantine
 * problem NumPy's mem_overlap solves). DMLT_UNKNOWN only when more than
 * work_cap search nodes would be needed. */
DMLT_API enum dmlt_tristate dmlt_overlapping(const struct dmlt_tensor *t, unsigned long work_cap);

/* ------------------------------------------------------------------------ */
/* Offsets                                                                  */
/* ------------------------------------------------------------------------ */

/* Element offset of a coordinate: dot(coord, strides). A coordinate at or
 * past its dimension's size is DMLT_E_COORD with err->dim, err->value and
 * err->limit (the size) set. */
DMLT_API enum dmlt_status dmlt_offset(const struct dmlt_tensor *t, const uint32_t coord[],
                                      dmlt_u128 *offset, struct dmlt_error *err);

/* Byte offset of element offset k: base + k x bits / 8, rounded down. For
 * 4-bit types two elements share a byte; *nibble is then 0 for the low
 * nibble (even k) or 1 for the high one (odd k), else always 0. Fails only
 * with DMLT_E_DTYPE or DMLT_E_RANGE (past 2^128). */
DMLT_API enum dmlt_status dmlt_byte_offset(enum dmlt_dtype dtype, dmlt_u128 k, uint64_t base,
                                           dmlt_u128 *byte, unsigned *nibble);

/* The elements that hold byte b (counted from the tensor's first byte):
 * *first is the first element offset, *count is 1 (2 for 4-bit types), and
 * *byte_in_element is b's position inside a multi-byte element. */
DMLT_API enum dmlt_status dmlt_elements_at_byte(enum dmlt_dtype dtype, dmlt_u128 b,
                                                dmlt_u128 *first, unsigned *count,
                                                unsigned *byte_in_element);

/* Called for each coordinate found by dmlt_locate; return false to stop. */
typedef bool (*dmlt_coord_fn)(void *ctx, const uint32_t coord[], unsigned rank);

/* Calls fn for every coordinate whose element offset is `offset`, in logical
 * row-major order, without enumerating the tensor: a depth-first search over
 * dimensions that keeps only values consistent with the bounds and the gcd
 * of the remaining strides. *found counts the coordinates reported. Returns
 * DMLT_E_WORK_CAP if the search visited work_cap nodes before finishing (the
 * coordinates reported so far are correct but may be incomplete). */
DMLT_API enum dmlt_status dmlt_locate(const struct dmlt_tensor *t, dmlt_u128 offset,
                                      unsigned long work_cap, dmlt_coord_fn fn, void *ctx,
                                      uint64_t *found);

/* dmlt_locate with a budget for the whole search, to share among many
 * searches (map's views draw many offsets in bounded time): *budget is the
 * number of search nodes it may visit in all, solutions included, and on
 * return what is left of it. DMLT_E_WORK_CAP if the budget ran out before
 * the search finished: the coordinates reported are correct, the first in
 * row-major order, but there may be more. */
DMLT_API enum dmlt_status dmlt_locate_budget(const struct dmlt_tensor *t, dmlt_u128 offset,
                                             unsigned long *budget, dmlt_coord_fn fn, void *ctx,
                                             uint64_t *found);

/* Every coordinate in logical row-major order (the last dim fastest), with
 * its offsets kept up to date by additions: the offset map in constant
 * memory. Read the public fields after dmlt_walk_start and after each
 * dmlt_walk_next that returns true. Set `size` first (see "Upgrading").
 *
 *     struct dmlt_walk w = DMLT_WALK_INIT;
 *     if (dmlt_walk_start(&w, &t, base) == DMLT_OK)
 *         do use(w.coord, w.offset, w.byte_offset); while (dmlt_walk_next(&w));
 */
struct dmlt_walk {
    size_t size; /* set by the caller: sizeof(struct dmlt_walk) */
    uint32_t coord[DMLT_MAX_RANK];
    dmlt_u128 offset;      /* element offset: dot(coord, strides) */
    dmlt_u128 byte_offset; /* base + offset x bits / 8, rounded down */
    unsigned nibble;       /* 4-bit types: 0 low, 1 high nibble; else 0 */
    unsigned changed;      /* the outermost dim the last step changed: the
                              coordinates of dims before it are as before */
    /* private */
    struct dmlt_tensor t_;
    unsigned bits_;
    uint64_t base_;
    /* Fields added in later versions go here. */
};

#ifdef __cplusplus
#define DMLT_WALK_INIT                                                                             \
    {                                                                                              \
        sizeof(struct dmlt_walk)                                                                   \
    }
#else
#define DMLT_WALK_INIT                                                                             \
    {                                                                                              \
        .size = sizeof(struct dmlt_walk)                                                           \
    }
#endif

/* Starts at coordinate 0 (offset 0, byte offset base). Fails on an invalid
 * tensor, or with DMLT_E_INVALID when w->size is smaller than this first
 * version of the struct (through base_). Writes nothing past w->size. */
DMLT_API enum dmlt_status dmlt_walk_start(struct dmlt_walk *w, const struct dmlt_tensor *t,
                                          uint64_t base_offset_bytes);

/* Steps to the next coordinate; false after the last one (w unchanged). */
DMLT_API bool dmlt_walk_next(struct dmlt_walk *w);

/* ------------------------------------------------------------------------ */
/* Validation of a whole DML_BUFFER_TENSOR_DESC                             */
/* ------------------------------------------------------------------------ */

#define DMLT_FLAG_OWNED_BY_DML 1u /* DML_TENSOR_FLAG_OWNED_BY_DML */

struct dmlt_desc {
    struct dmlt_tensor t;
    bool has_total;
    uint64_t total_tensor_size_bytes;          /* TotalTensorSizeInBytes */
    uint32_t guaranteed_base_offset_alignment; /* 0 = none */
    uint64_t base_offset_bytes;                /* where the buffer range starts */
    uint32_t flags;                            /* DML_TENSOR_FLAGS */
    /* The binding (DML_BUFFER_BINDING): its Offset is base_offset_bytes. A
     * size not given leaves its check passing as not applicable. */
    bool has_binding_size;
    uint64_t binding_size_bytes; /* DML_BUFFER_BINDING::SizeInBytes */
    bool has_buffer_size;
    uint64_t buffer_size_bytes; /* the size of the whole D3D12 buffer */
};

/* Every rule, with its pinned number (0, 1, 2, ... in list order: a new
 * rule takes the next number), stable id, level, and the DirectML rule it
 * enforces.
 * For 4-bit types "the element size" is taken as 1 byte: the smallest
 * addressable unit, so the alignment rule reads "a power of two >= 1". */
#define DMLT_CHECK_LIST(X)                                                                         \
    X(DMLT_CHECK_RANK, 0, "rank", DMLT_ERROR, "DimensionCount is 1 to 8 (DML_BUFFER_TENSOR_DESC)") \
    X(DMLT_CHECK_SIZES_NONZERO, 1, "sizes_nonzero", DMLT_ERROR,                                    \
      "a zero size in any dimension is invalid (DML_BUFFER_TENSOR_DESC::Sizes)")                   \
    X(DMLT_CHECK_STRIDES_COUNT, 2, "strides_count", DMLT_ERROR,                                    \
      "Strides, when given, has DimensionCount entries")                                           \
    X(DMLT_CHECK_TOTAL_MINIMUM, 3, "total_size_minimum", DMLT_ERROR,                               \
      "TotalTensorSizeInBytes is at least the minimum implied size (DMLCalcBufferTensorSize)")     \
    X(DMLT_CHECK_TOTAL_DWORD, 4, "total_size_dword", DMLT_ERROR,                                   \
      "bound buffer sizes are DWORD-aligned: TotalTensorSizeInBytes is a multiple of 4")           \
    X(DMLT_CHECK_TOTAL_ELEMENTS, 5, "total_size_elements", DMLT_ERROR,                             \
      "a buffer tensor's total size cannot exceed 2^32-1 elements")                                \
    X(DMLT_CHECK_ALIGNMENT_POW2, 6, "alignment_power_of_two", DMLT_ERROR,                          \
      "GuaranteedBaseOffsetAlignment is 0 or a power of two at least the element size")            \
    X(DMLT_CHECK_BASE_OFFSET_16, 7, "base_offset_16", DMLT_ERROR,                                  \
      "buffer tensors always have a minimum alignment of 16 bytes")                                \
    X(DMLT_CHECK_BASE_OFFSET_ALIGNMENT, 8, "base_offset_alignment", DMLT_ERROR,                    \
      "the buffer range's offset is a multiple of GuaranteedBaseOffsetAlignment")                  \
    X(DMLT_CHECK_FLAGS, 9, "flags_known", DMLT_ERROR,                                              \
      "Flags is DML_TENSOR_FLAG_NONE or DML_TENSOR_FLAG_OWNED_BY_DML")                             \
    X(DMLT_CHECK_RANK_4_OR_5, 10, "rank_4_or_5", DMLT_WARNING,                                     \
      "most operators take 4-D {N,C,H,W} or 5-D {N,C,D,H,W} tensors")                              \
    X(DMLT_CHECK_ALIGNMENT_32, 11, "alignment_32", DMLT_WARNING,                                   \
      "for best performance, align tensors to 32 bytes or more")                                   \
    X(DMLT_CHECK_HELPER, 12, "helper_overflow", DMLT_WARNING,                                      \
      "the published DMLCalcBufferTensorSize sums the strided index in 32 bits")                   \
    X(DMLT_CHECK_BINDING_SIZE, 13, "binding_size", DMLT_ERROR,                                     \
      "the bound buffer range is at least TotalTensorSizeInBytes "                                 \
      "(DML_BUFFER_BINDING::SizeInBytes)")                                                         \
    X(DMLT_CHECK_BINDING_IN_BUFFER, 14, "binding_in_buffer", DMLT_ERROR,                           \
      "the bound range lies inside its buffer: Offset + SizeInBytes <= the buffer's size")         \
    X(DMLT_CHECK_STRIDES_OVERLAP, 15, "strides_overlap", DMLT_WARNING,                             \
      "two elements share memory only along broadcast dims (stride 0)")

enum dmlt_check_id {
#define DMLT_X_ENUM(name, value, id, level, rule) name = (value),
    DMLT_CHECK_LIST(DMLT_X_ENUM)
#undef DMLT_X_ENUM
        DMLT_CHECK_COUNT /* the number of checks this header knows */
};

DMLT_API const char *dmlt_check_id_name(enum dmlt_check_id id);
DMLT_API enum dmlt_severity dmlt_check_level(enum dmlt_check_id id);
DMLT_API const char *dmlt_check_rule(enum dmlt_check_id id);

/* One check's outcome. value/limit carry the numbers its message needs:
 * the total and the minimum, the alignment and the element size, ...
 * binding_size: SizeInBytes and TotalTensorSizeInBytes. binding_in_buffer:
 * the end of the range (Offset + SizeInBytes, or Offset +
 * TotalTensorSizeInBytes when no binding size is given: the least any
 * binding holds) and the buffer's size. */
struct dmlt_check {
    enum dmlt_check_id id;
    bool passed, skipped; /* skipped: not run or not decided (passed is then true) */
    dmlt_u128 value;
    dmlt_u128 limit;
};

/* Runs every check of DMLT_CHECK_LIST; out[i] gets check number i, for i
 * below out_count (pass DMLT_CHECK_COUNT with an array of that many: a later
 * library with more checks writes only the ones the caller has room for).
 * strides_count is the number of strides the caller was given (0 = none).
 * Returns true when no error-level check failed, counting every check the
 * library has, written or not. A tensor too large to measure (DMLT_E_RANGE
 * from dmlt_report_compute) fails total_size_minimum. */
DMLT_API bool dmlt_validate(const struct dmlt_desc *d, unsigned strides_count,
                            struct dmlt_check out[], size_t out_count);

/* ------------------------------------------------------------------------ */
/* Views: a tensor seen through slicing, indexing, transposing, broadcasting */
/* and reshaping without a copy, as NumPy's views                           */
/* ------------------------------------------------------------------------ */

/* A view of a parent tensor that lives in a buffer: the view's own sizes and
 * strides, and where its element 0 sits in the parent. Every element of the
 * view is an element of the parent: the view's coordinate c is at the
 * parent's element offset `offset + dot(c, t.strides)`. Start with
 * dmlt_view_init(), then apply operations; each one leaves the view as it
 * was when it fails. Offsets are uint64_t, as DML_BUFFER_BINDING's Offset:
 * an offset past 2^64 - 1 is DMLT_E_RANGE. At most DMLT_VIEW_MAX_STEPS
 * operations (DMLT_E_RANGE past them): the view keeps each one to map its
 * coordinates back to the parent's. */
#define DMLT_VIEW_MAX_STEPS 16

struct dmlt_view_step { /* private */
    unsigned char kind, dim, rank_in, rank_out;
    uint32_t first, step;
    unsigned char order[DMLT_MAX_RANK];
    uint32_t sizes_in[DMLT_MAX_RANK];
    uint32_t sizes_out[DMLT_MAX_RANK];
};

struct dmlt_view {
    size_t size;                    /* set by the caller: sizeof(struct dmlt_view) */
    struct dmlt_tensor t;           /* the view: the parent's dtype, its own sizes, strides */
    uint64_t offset;                /* element offset of element 0 in the parent */
    unsigned parent_rank;           /* the parent's rank */
    uint32_t source[DMLT_MAX_RANK]; /* the parent coordinate of element 0 */
    /* private */
    unsigned n_steps_;
    struct dmlt_view_step steps_[DMLT_VIEW_MAX_STEPS];
    /* Fields added in later versions go here. */
};

#ifdef __cplusplus
#define DMLT_VIEW_INIT                                                                             \
    {                                                                                              \
        sizeof(struct dmlt_view)                                                                   \
    }
#else
#define DMLT_VIEW_INIT                                                                             \
    {                                                                                              \
        .size = sizeof(struct dmlt_view)                                                           \
    }
#endif

/* The whole parent as a view (offset 0). Set `size` first (see "Upgrading"):
 *
 *     struct dmlt_view v = DMLT_VIEW_INIT;
 *     if (dmlt_view_init(&v, &parent, &err) == DMLT_OK) ...
 *
 * Fails as dmlt_tensor_check(), or with DMLT_E_INVALID for a size smaller
 * than this first version of the struct. */
DMLT_API enum dmlt_status dmlt_view_init(struct dmlt_view *v, const struct dmlt_tensor *parent,
                                         struct dmlt_error *err);

/* Python's slice rules for one dim of `size` elements: start and stop may
 * be NULL (omitted: the whole dim), negative (counted from the end) and
 * out of range (clamped). Fills *first and *count (elements taken, every
 * step-th from first). DMLT_E_INVALID when step < 1 (a negative step would
 * reverse the dim, which unsigned strides cannot); DMLT_E_ZERO_SIZE when
 * the slice selects nothing (DirectML has no empty dims). Example: size 5,
 * start -2, stop NULL, step 1 -> first 3, count 2. */
DMLT_API enum dmlt_status dmlt_slice_resolve(uint32_t size, const int64_t *start,
                                             const int64_t *stop, int64_t step, uint32_t *first,
                                             uint32_t *count);

/* Keeps `count` elements of dim `dim`, every step-th from `first`: the
 * offset grows by first x stride and the stride by step (unless count is
 * 1). DMLT_E_INVALID (err->dim set) for a dim past the rank; DMLT_E_COORD
 * when first + (count - 1) x step is past the dim; DMLT_E_ZERO_SIZE for
 * count 0; DMLT_E_RANGE when the stride passes 4294967295 or the offset
 * 2^64 - 1. */
DMLT_API enum dmlt_status dmlt_view_narrow(struct dmlt_view *v, unsigned dim, uint32_t first,
                                           uint32_t count, uint32_t step, struct dmlt_error *err);

/* Part `part` of NumPy's split along dim `dim`: n_parts equal parts when
 * part_sizes is NULL (n_parts must divide the dim, as np.split requires),
 * else parts of part_sizes[0..n_parts), which add up to the dim. The view
 * becomes that part (dmlt_view_narrow). DMLT_E_INVALID (err->dim set) for
 * a dim past the rank, n_parts 0, a division with a remainder, part sizes
 * that do not add up to the dim, or part >= n_parts; DMLT_E_ZERO_SIZE for a
 * part of size 0. */
DMLT_API enum dmlt_status dmlt_view_split(struct dmlt_view *v, unsigned dim, unsigned n_parts,
                                          const uint32_t part_sizes[], unsigned part,
                                          struct dmlt_error *err);

/* NumPy's a[..., start:stop:step, ...] on dim `dim`: dmlt_slice_resolve()
 * then dmlt_view_narrow(), with their errors. */
DMLT_API enum dmlt_status dmlt_view_slice(struct dmlt_view *v, unsigned dim, const int64_t *start,
                                          const int64_t *stop, int64_t step,
                                          struct dmlt_error *err);

/* NumPy's a[..., index, ...]: takes one index of dim `dim` (negative counts
 * from the end) and drops the dim. DMLT_E_COORD for an index out of range;
 * DMLT_E_RANK when the view has one dim (a DirectML tensor keeps rank >= 1);
 * DMLT_E_INVALID for a dim past the rank. */
DMLT_API enum dmlt_status dmlt_view_select(struct dmlt_view *v, unsigned dim, int64_t index,
                                           struct dmlt_error *err);

/* NumPy's transpose(order): output dim i is input dim order[i] (rank
 * entries). DMLT_E_LAYOUT when order is not a permutation of 0..rank-1. */
DMLT_API enum dmlt_status dmlt_view_permute(struct dmlt_view *v, const unsigned order[],
                                            struct dmlt_error *err);

/* NumPy's broadcast_to(sizes): dims aligned on the right; a dim of size 1
 * may take any size (stride 0), new leading dims get stride 0, other dims
 * keep their size. DMLT_E_RANK when rank is below the view's or past 8;
 * DMLT_E_ZERO_SIZE for a size 0; DMLT_E_INVALID (err->dim = the target
 * dim) when a dim of size over 1 would change. */
DMLT_API enum dmlt_status dmlt_view_broadcast_to(struct dmlt_view *v, unsigned rank,
                                                 const uint32_t sizes[], struct dmlt_error *err);

/* NumPy's reshape(sizes) when it needs no copy (_attempt_nocopy_reshape,
 * in C order): one entry may be -1, computed from the others. Errors:
 * DMLT_E_RANK for rank outside 1..8; DMLT_E_ZERO_SIZE for a 0 entry;
 * DMLT_E_INVALID for another negative entry, two -1s, or an element count
 * that differs from the view's (err->dim = -1) ; DMLT_E_RANGE when a size
 * passes 4294967295 or a new stride does; DMLT_E_LAYOUT when the reshape
 * needs a copy: err->dim is a dim of the view (not of size 1) whose stride
 * is not the stride of the next dim of size over 1 times that dim's size,
 * so the two cannot be merged. */
DMLT_API enum dmlt_status dmlt_view_reshape(struct dmlt_view *v, unsigned rank,
                                            const int64_t sizes[], struct dmlt_error *err);

/* The parent coordinate of the view's coordinate `coord` (the element the
 * view's element comes from), through every operation in turn. DMLT_E_COORD
 * (err->dim set) when coord is outside the view. */
DMLT_API enum dmlt_status dmlt_view_parent_coord(const struct dmlt_view *v, const uint32_t coord[],
                                                 uint32_t parent[], struct dmlt_error *err);

/* Where the view sits in the buffer: its byte offset from the parent's
 * first byte (offset x bits / 8, rounded down; *whole_byte false when a
 * 4-bit view starts on a high nibble) and its minimum implied size
 * (DMLCalcBufferTensorSize of the view, exact: the same value as
 * dmlt_report_compute()'s). DMLT_E_RANGE when either passes 2^64 - 1. */
DMLT_API enum dmlt_status dmlt_view_bytes(const struct dmlt_view *v, uint64_t *byte_offset,
                                          bool *whole_byte, uint64_t *size_bytes);

/* GuaranteedBaseOffsetAlignment of a view at byte_offset within a parent
 * whose own alignment is parent_alignment: the largest power of two that
 * divides byte_offset, at most the parent's alignment, which counts as 16
 * when below (a bound buffer tensor is always 16-byte aligned). */
DMLT_API uint32_t dmlt_view_alignment(uint64_t byte_offset, uint32_t parent_alignment);

/* ---- Plan: one buffer for tensors that live over steps ---------------- */

/* A tensor to place: its size in bytes and the steps it is alive, first to
 * last inclusive. TensorFlow Lite's TensorUsageRecord. */
struct dmlt_plan_tensor {
    uint64_t size_bytes;
    uint64_t first; /* first step alive */
    uint64_t last;  /* last step alive, >= first */
};

/* Which order of placement gave the plan (pinned numbers). */
enum dmlt_plan_strategy {
    DMLT_PLAN_NONE = 0,             /* no tensor of nonzero size */
    DMLT_PLAN_GREEDY_SIZE = 1,      /* greedy by size, best fit (Pisarchyk & Lee 2020) */
    DMLT_PLAN_GREEDY_FIRST_FIT = 2, /* the same order, lowest gap that fits */
    DMLT_PLAN_GREEDY_LIFETIME = 3,  /* longest lifetime first, then by size */
    DMLT_PLAN_GREEDY_AREA = 4,      /* largest size x lifetime first */
    DMLT_PLAN_BUMPED = 5,           /* an order improved by moving the top tensor forward */
    DMLT_PLAN_SEARCH = 6,           /* exhaustive search over orders (small plans) */
    DMLT_PLAN_STACKED = 7,          /* each tensor after the last: the work budget ran out */
    DMLT_PLAN_SKYLINE = 8,          /* lowest offset first (minimalloc's first pass) */
    DMLT_PLAN_CAPACITY_SEARCH = 9   /* a plan searched for within a capacity */
};

/* Flags of struct dmlt_plan_options. */
#define DMLT_PLAN_ONLY_GREEDY 1u /* greedy by size with best fit, no improvement */

struct dmlt_plan_options {
    uint64_t alignment;   /* every offset a multiple of it: a power of two (DirectML: >= 16) */
    unsigned flags;       /* DMLT_PLAN_ONLY_GREEDY or 0 */
    uint64_t work_budget; /* units of work in all, the skyline aside; 0 = 2^32 */
};

/* What dmlt_plan found besides the offsets. Set `size` first (see
 * "Upgrading"): struct dmlt_plan_result r = DMLT_PLAN_RESULT_INIT. */
struct dmlt_plan_result {
    size_t size;                        /* set by the caller: sizeof(struct dmlt_plan_result) */
    uint64_t arena_bytes;               /* max(offset + size): the buffer to allocate */
    uint64_t lower_bound_bytes;         /* max over steps of the sum of live sizes, unrounded */
    uint64_t aligned_lower_bound_bytes; /* the same counting the alignment (see dmlt_plan) */
    uint64_t peak_step;                 /* the first step whose live sum is lower_bound_bytes */
    dmlt_u128 sum_bytes;                /* the sum of all sizes (each in its own buffer) */
    uint64_t greedy_arena_bytes;        /* greedy by size alone (0: not run to its end) */
    uint64_t work;                      /* units of work used (see dmlt_plan) */
    enum dmlt_plan_strategy strategy;   /* the placement that was kept */
    /* Fields added in later versions go here. */
};

#ifdef __cplusplus
#define DMLT_PLAN_RESULT_INIT                                                                      \
    {                                                                                              \
        sizeof(struct dmlt_plan_result)                                                            \
    }
#else
#define DMLT_PLAN_RESULT_INIT                                                                      \
    {                                                                                              \
        .size = sizeof(struct dmlt_plan_result)                                                    \
    }
#endif

/* Bytes of workspace dmlt_plan needs for count tensors (about 130 a tensor;
 * up to 512 tensors also the capacity search's, about 28 count^2).
 * DMLT_E_RANGE when that passes SIZE_MAX or count passes 2^32 - 2. */
DMLT_API enum dmlt_status dmlt_plan_workspace_size(size_t count, size_t *bytes);

/* Places count tensors in one buffer: offsets[i] for tensor i, each a
 * multiple of options->alignment, so that no two tensors alive at a common
 * step share a byte; the arena as small as the planner finds. The skyline
 * first (lowest offset first: minimalloc's first pass), always, O(n log n);
 * then, above the aligned lower bound and within the work budget, greedy
 * best fit, other orders, and up to 512 tensors a search for a plan within
 * a capacity (docs/plan.md). The smallest arena is kept (the first of
 * equals). DMLT_PLAN_ONLY_GREEDY: greedy by size with best fit alone,
 * stacked when the budget runs out. Deterministic on every platform.
 *
 * Lower bounds: lower_bound_bytes sums the live sizes as they are (SPEC's
 * lower bound: no plan can be smaller). With an alignment A, two tensors one
 * above the other are at least round_up(size, A) apart, so at every step
 * the arena is at least the sum of round_up(size, A) of the live tensors
 * less the largest round_up(size, A) - size of any tensor: the aligned
 * lower bound is the larger of that and lower_bound_bytes. A tensor of size
 * 0 occupies nothing and gets offset 0.
 *
 * workspace: dmlt_plan_workspace_size(count) bytes, any alignment. Errors:
 * DMLT_E_INVALID (err->value the tensor's index, err->dim -1) for an
 * alignment that is 0 or not a power of two, a tensor with last < first, a
 * workspace too small, result->size too small, or NULL pointers;
 * DMLT_E_RANGE when the lower bound, or every plan tried, passes 2^64 - 1. */
DMLT_API enum dmlt_status dmlt_plan(const struct dmlt_plan_tensor tensors[], size_t count,
                                    const struct dmlt_plan_options *options, void *workspace,
                                    size_t workspace_size, uint64_t offsets[],
                                    struct dmlt_plan_result *result, struct dmlt_error *err);

#ifdef __cplusplus
}
#endif
#endif /* DMLTENSOR_H */
