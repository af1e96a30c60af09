/* onnx_common.h - what the ONNX layer's two readers share: bytes inside
 * the model, the error a damaged model gets, what a value is, a declared
 * dim. onnx_wire.h (the streaming walk) and onnx_model.h (the model read
 * whole) both include it. */
#ifndef DMLT_ONNX_COMMON_H
#define DMLT_ONNX_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* MinGW: defines __MINGW_PRINTF_FORMAT (no I/O is done) */
#include <string.h>

#if defined(__MINGW_PRINTF_FORMAT) /* MinGW's C99 printf (__USE_MINGW_ANSI_STDIO) */
#define ONNX_PRINTF(f, a) __attribute__((format(__MINGW_PRINTF_FORMAT, f, a)))
#elif defined(__GNUC__)
#define ONNX_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define ONNX_PRINTF(f, a)
#endif

/* Bytes inside the model (not NUL-terminated). */
struct onnx_bytes {
    const uint8_t *p;
    size_t n;
};

/* ---- names: hashed and compared here only -------------------------------- */

/* A name's hash: SipHash-1-3 (onnx_hash.c) under the process's key, so
 * that names crafted to collide do not (hash flooding). onnx_hash_more
 * goes on from a hash h (a pair of names, or a graph's index and a name,
 * hashes as one). A key set (onnx_hash_set_key) before any table is built
 * and kept for the process: the CLI sets a random one. No output depends
 * on it: tables only find names, in orders kept apart. */
uint64_t onnx_hash(struct onnx_bytes b);
uint64_t onnx_hash_more(uint64_t h, struct onnx_bytes b);
void onnx_hash_set_key(uint64_t k0, uint64_t k1);
/* SipHash-c-d of p[0..n) under the key (k0, k1) (test_onnx_hash checks
 * SipHash-2-4 against the paper's vectors). */
uint64_t onnx_siphash(uint64_t k0, uint64_t k1, const uint8_t *p, size_t n, unsigned c, unsigned d);
/* The first slot of hash h in a table of mask + 1 slots (a power of two),
 * where linear probing starts: the high bits of h times a constant. */
static inline size_t onnx_hash_slot(uint64_t h, size_t mask)
{
    return (size_t)((h * 0x9E3779B97F4A7C15u) >> 32) & mask;
}
/* The same bytes (p may be NULL when n is 0). */
static inline bool onnx_bytes_eq(struct onnx_bytes a, struct onnx_bytes b)
{
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}
/* b is the text s. */
static inline bool onnx_bytes_is(struct onnx_bytes b, const char *s)
{
    const struct onnx_bytes t = {(const uint8_t *)s, strlen(s)};
    return onnx_bytes_eq(b, t);
}
/* ONNX's default domain: "" or "ai.onnx". */
static inline bool onnx_default_domain(struct onnx_bytes d)
{
    return d.n == 0 || onnx_bytes_is(d, "ai.onnx");
}

/* How many times each reader of a whole model (the walk, onnx_wire.c; the
 * model reader, onnx_model.c) began a pass over a model's bytes in this
 * process, so that a test can see how often a command parses its model
 * (the CLI prints them under DMLT_DEBUG_PARSES, docs/testing.md). */
enum onnx_reader { ONNX_READER_WALK, ONNX_READER_MODEL, ONNX_READERS };
unsigned long onnx_parse_passes(enum onnx_reader reader);

/* What a value is: a tensor, or (TypeProto's other cases) not one. */
enum onnx_value {
    ONNX_V_TENSOR,
    ONNX_V_SPARSE_TENSOR, /* a sparse initializer or Constant sparse_value: dense dims */
    ONNX_V_UNTYPED,       /* a ValueInfoProto without a type */
    ONNX_V_SEQUENCE,
    ONNX_V_MAP,
    ONNX_V_OPTIONAL,
    ONNX_V_SPARSE_TYPE, /* TypeProto.sparse_tensor_type */
    ONNX_V_OTHER_TYPE   /* a TypeProto of a case this reader does not know */
};

/* A declared dim (TensorShapeProto.Dimension). */
struct onnx_dim {
    enum { ONNX_DIM_VALUE, ONNX_DIM_PARAM, ONNX_DIM_UNKNOWN } kind;
    int64_t value;
    struct onnx_bytes param; /* ONNX_DIM_PARAM: the symbol, "N" */
};

/* Why a model could not be read. */
struct onnx_error {
    size_t offset; /* the byte at fault, from the start of the file */
    char message[200];
    bool limit;    /* a limit of this reader (nesting), not damage */
    bool callback; /* a callback answered ONNX_STEP_FAIL: its caller knows why */
};

/* What a walk's callback answers: go on, stop here (no error: the walk
 * ends as if the model ended), or stop because the callback failed (the
 * walk fails; the callback's owner holds the reason). A callback's false
 * used to mean both "stop" and "out of memory". */
enum onnx_step { ONNX_STEP_GO, ONNX_STEP_STOP, ONNX_STEP_FAIL };

#endif
