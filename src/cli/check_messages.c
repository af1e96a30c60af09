/* check_messages.c - validate's checks as the commands word them: the
 * DML_BUFFER_TENSOR_DESC a tensor_desc stands for, and one sentence for
 * each check's outcome (what is wrong, how to fix it), with its numbers. */
#include "check_messages.h"
#include "dmltensor_guess.h"

#include <inttypes.h>
#include <stdio.h>

/* v rounded up to a multiple of m, wrapping modulo 2^128 as C's unsigned
 * arithmetic would. */
static dmlt_u128 round_up(dmlt_u128 v, uint64_t m)
{
    dmlt_u128 q;
    uint64_t rem;
    dmlt_u128_divmod(v, m, &q, &rem);
    if (rem == 0)
        return v;
    dmlt_u128 r = {0, 0};
    if (dmlt_u128_add(q, dmlt_u128_from_u64(1), &q))
        dmlt_u128_mul(q, dmlt_u128_from_u64(m), &r);
    return r;
}

/* The alignment and the base offset: DirectML's rules for where the
 * tensor starts (ALIGNMENT_POW2, BASE_OFFSET_16, BASE_OFFSET_ALIGNMENT) and
 * the advice for fast loads (ALIGNMENT_32). */
static void alignment_message(char *msg, size_t size, const struct dmlt_check *c, const char *v,
                              const char *l)
{
    char r[40];
    if (c->id == DMLT_CHECK_ALIGNMENT_POW2) {
        if (dmlt_u128_eq(c->value, dmlt_u128_from_u64(0)))
            cli_say(msg, size, "GuaranteedBaseOffsetAlignment is 0 (no guarantee)");
        else if (c->passed)
            cli_say(msg, size,
                    "GuaranteedBaseOffsetAlignment %s is a power of two of at least the "
                    "element size (%s byte%s)",
                    v, l, dmlt_u128_eq(c->limit, dmlt_u128_from_u64(1)) ? "" : "s");
        else
            cli_say(msg, size,
                    "GuaranteedBaseOffsetAlignment %s is not a power of two of at least %s "
                    "bytes: use 0, 16, 32, 64, 128 or 256",
                    v, l);
        return;
    }
    if (c->id == DMLT_CHECK_BASE_OFFSET_16) {
        r[cli_fmt_u128(r, round_up(c->value, 16))] = '\0';
        cli_say(msg, size,
                c->passed ? "base offset %s is a multiple of 16"
                          : "base offset %s is not a multiple of 16: bind the "
                            "buffer range at %s",
                v, r);
        return;
    }
    if (c->id == DMLT_CHECK_BASE_OFFSET_ALIGNMENT) {
        if (dmlt_u128_eq(c->limit, dmlt_u128_from_u64(0)))
            cli_say(msg, size, "no GuaranteedBaseOffsetAlignment to honour");
        else if (c->passed)
            cli_say(msg, size, "base offset %s is a multiple of the alignment %s", v, l);
        else
            cli_say(msg, size,
                    "base offset %s is not a multiple of GuaranteedBaseOffsetAlignment %s: "
                    "move the buffer range or lower the alignment",
                    v, l);
        return;
    }
    /* DMLT_CHECK_ALIGNMENT_32 */
    if (c->passed)
        cli_say(msg, size, "alignment %s is at least 32 bytes", v);
    else if (dmlt_u128_eq(c->value, dmlt_u128_from_u64(0)))
        cli_say(msg, size,
                "no alignment is guaranteed (0): 32 bytes or more lets DirectML "
                "use vectorized loads");
    else
        cli_say(msg, size,
                "alignment %s is under 32 bytes: aligning to 32 or more lets DirectML use "
                "vectorized loads",
                v);
}

/* The binding (DML_BUFFER_BINDING): its SizeInBytes, and its range in the
 * buffer (BINDING_SIZE, BINDING_IN_BUFFER). */
static void binding_message(char *msg, size_t size, const struct dmlt_check *c,
                            const struct tensor_desc *d, const char *v, const char *l)
{
    if (c->id == DMLT_CHECK_BINDING_SIZE) {
        if (!d->has_binding_size)
            cli_say(msg, size, "no binding size given (--binding-size): not checked");
        else if (dmlt_u128_eq(c->limit, dmlt_u128_max()))
            cli_say(msg, size, "SizeInBytes %s: the tensor is too large to bind", v);
        else if (c->passed)
            cli_say(msg, size, "SizeInBytes %s is at least TotalTensorSizeInBytes %s", v, l);
        else
            cli_say(msg, size,
                    "SizeInBytes %s is below TotalTensorSizeInBytes %s: bind at least %s bytes", v,
                    l, l);
        return;
    }
    /* DMLT_CHECK_BINDING_IN_BUFFER. The range checked: SizeInBytes, else
     * TotalTensorSizeInBytes. */
    char o[40], n[40];
    dmlt_u128 range = dmlt_u128_from_u64(0); /* Offset + range is c->value */
    (void)dmlt_u128_sub(c->value, dmlt_u128_from_u64(d->base_offset), &range);
    o[cli_fmt_u128(o, dmlt_u128_from_u64(d->base_offset))] = '\0';
    n[cli_fmt_u128(n, range)] = '\0';
    const char *what = d->has_binding_size ? "SizeInBytes" : "TotalTensorSizeInBytes";
    if (!d->has_buffer_size)
        cli_say(msg, size, "no buffer size given (--buffer-size): not checked");
    else if (dmlt_u128_eq(c->value, dmlt_u128_max()))
        cli_say(msg, size, "Offset %s + %s is past 2^128 bytes: no buffer holds it", o, what);
    else if (c->passed)
        cli_say(msg, size, "Offset %s + %s %s = %s is within the buffer's %s bytes", o, what, n, v,
                l);
    else
        cli_say(msg, size,
                "Offset %s + %s %s = %s is past the buffer's %s bytes: move or shrink the "
                "range, or use a larger buffer",
                o, what, n, v, l);
}

/* "150528,1,672,3" into buf (room for 8 strides of 10 digits). */
static void strides_text(char *buf, size_t size, const uint32_t s[], unsigned rank)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < rank && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, i ? ",%" PRIu32 : "%" PRIu32, s[i]);
}

/* The strides meant, when those given look like a classic mistake
 * (dmlt__strides_guess): "in elements, not bytes," ... and the packed layout
 * they make, if any. Returns the guess (DMLT_GUESS_NONE: nothing said). */
static unsigned guess_text(char *buf, size_t size, const struct tensor_desc *d,
                           struct dmlt_tensor *meant)
{
    buf[0] = '\0';
    if (!d->strides_given)
        return DMLT_GUESS_NONE;
    *meant = d->t;
    const unsigned g = dmlt__strides_guess(&d->t, meant->strides);
    if (g == DMLT_GUESS_NONE)
        return g;
    char list[100], layout[32] = "";
    strides_text(list, sizeof list, meant->strides, d->t.rank);
    unsigned order[DMLT_MAX_RANK];
    if (dmlt_layout_detect(d->t.rank, d->t.sizes, meant->strides, order)) {
        struct outbuf b;
        cli_ob_init(&b);
        cli_layout_name(&b, d->t.rank, order);
        if (!b.failed && b.len < sizeof layout - 1)
            snprintf(layout, sizeof layout, " (--layout %.*s)", (int)b.len, b.data);
        cli_ob_free(&b);
    }
    const unsigned bits = dmlt_dtype_get(d->t.dtype)->bits;
    char elem[24];
    snprintf(elem, sizeof elem, "%u bytes", bits / 8);
    if (g == DMLT_GUESS_BYTES)
        cli_say(buf, size,
                "each stride is a multiple of the element size (%s): as byte strides, in "
                "elements they are --strides %s%s",
                elem, list, layout);
    else if (g == DMLT_GUESS_MEMORY_ORDER)
        cli_say(buf, size,
                "the strides look listed in memory order; in logical order (the order of "
                "--sizes) they are --strides %s%s",
                list, layout);
    else
        cli_say(buf, size,
                "the strides look like byte strides listed in memory order; in elements and "
                "in logical order (the order of --sizes) they are --strides %s%s",
                list, layout);
    return g;
}

/* strides_overlap: distinct elements on one offset, but along broadcast
 * dims, with the strides meant when the mistake is a classic one. */
static void overlap_message(char *msg, size_t size, const struct dmlt_check *c,
                            const struct tensor_desc *d, const char *l)
{
    char hint[400];
    struct dmlt_tensor meant;
    if (c->skipped) {
        cli_say(msg, size,
                "the overlap search stopped after %s steps, or the tensor cannot be "
                "measured: not decided",
                l);
        return;
    }
    const unsigned g = guess_text(hint, sizeof hint, d, &meant);
    if (c->passed) {
        /* A note only when the strides divided are a packed layout. */
        unsigned order[DMLT_MAX_RANK];
        if (g == DMLT_GUESS_BYTES &&
            dmlt_layout_detect(d->t.rank, d->t.sizes, meant.strides, order))
            cli_say(msg, size, "no two elements share an offset outside broadcast dims; %s", hint);
        else
            cli_say(msg, size, "no two elements share an offset outside broadcast dims");
        return;
    }
    if (g != DMLT_GUESS_NONE)
        cli_say(msg, size, "two different elements share an offset (not along a broadcast dim): %s",
                hint);
    else
        cli_say(msg, size,
                "two different elements share an offset (not along a broadcast dim): give each "
                "dim a stride past the reach of the smaller ones, or 0 to broadcast it");
}

/* total_size_minimum failing with byte strides: the total may be right and
 * the strides wrong. Writes the hint, or nothing, into buf. */
static void total_hint(char *buf, size_t size, const struct dmlt_check *c,
                       const struct tensor_desc *d)
{
    buf[0] = '\0';
    char hint[400];
    struct dmlt_tensor meant;
    if (!c->passed && (guess_text(hint, sizeof hint, d, &meant) & DMLT_GUESS_BYTES)) {
        struct dmlt_report r;
        r.size = sizeof r;
        struct dmlt_error err;
        if (dmlt_report_compute(&meant, NULL, &r, &err) == DMLT_OK &&
            dmlt_u128_cmp(r.minimum_implied_size_bytes, c->value) <= 0) {
            char m[40];
            m[cli_fmt_u128(m, r.minimum_implied_size_bytes)] = '\0';
            cli_say(buf, size, "; %s, whose minimum implied size %s fits", hint, m);
        }
    }
}

/* The sentence for one check, with its numbers. */
void cli_check_message(char *msg, size_t size, const struct dmlt_check *c,
                       const struct tensor_desc *d)
{
    char v[40], l[40], r[40];
    v[cli_fmt_u128(v, c->value)] = '\0';
    l[cli_fmt_u128(l, c->limit)] = '\0';
    switch (c->id) {
    case DMLT_CHECK_RANK:
        cli_say(msg, size,
                c->passed ? "DimensionCount %s is within 1..8"
                          : "DimensionCount %s: use 1 to 8 dimensions",
                v);
        break;
    case DMLT_CHECK_SIZES_NONZERO:
        cli_say(msg, size,
                c->passed ? "no size is 0"
                          : "dimension %s has size 0: every size "
                            "must be at least 1",
                v);
        break;
    case DMLT_CHECK_STRIDES_COUNT:
        cli_say(msg, size,
                c->passed ? "one stride per dimension (%s)"
                          : "%s strides for %s dimensions: give one per dimension",
                v, l);
        break;
    case DMLT_CHECK_TOTAL_MINIMUM:
        if (dmlt_u128_eq(c->limit, dmlt_u128_max()))
            cli_say(msg, size, "the minimum implied size is past 2^128 bytes");
        else if (c->passed)
            cli_say(msg, size, "TotalTensorSizeInBytes %s is at least the minimum implied size %s",
                    v, l);
        else {
            char hint[480];
            total_hint(hint, sizeof hint, c, d);
            if (hint[0] != '\0')
                cli_say(msg, size,
                        "TotalTensorSizeInBytes %s is below the minimum implied size %s%s; else "
                        "set it to at least %s",
                        v, l, hint, l);
            else
                cli_say(msg, size,
                        "TotalTensorSizeInBytes %s is below the minimum implied size %s: set it "
                        "to at least %s",
                        v, l, l);
        }
        break;
    case DMLT_CHECK_TOTAL_DWORD:
        r[cli_fmt_u128(r, round_up(c->value, 4))] = '\0';
        cli_say(msg, size,
                c->passed ? "TotalTensorSizeInBytes %s is a multiple of 4"
                          : "TotalTensorSizeInBytes %s is not a multiple of 4: round "
                            "it up to %s",
                v, r);
        break;
    case DMLT_CHECK_TOTAL_ELEMENTS:
        cli_say(msg, size,
                c->passed ? "%s bytes is within 2^32-1 elements (%s bytes of this type)"
                          : "%s bytes is over 2^32-1 elements (%s bytes of this type): split "
                            "the tensor",
                v, l);
        break;
    case DMLT_CHECK_FLAGS:
        cli_say(msg, size,
                c->passed ? "Flags %s is a known DML_TENSOR_FLAGS value"
                          : "Flags %s has unknown bits: only "
                            "DML_TENSOR_FLAG_OWNED_BY_DML (1) is defined",
                v);
        break;
    case DMLT_CHECK_RANK_4_OR_5:
        cli_say(msg, size,
                c->passed ? "rank %s"
                          : "rank %s: most operators need 4-D or 5-D "
                            "tensors; pad with leading 1s (--rank 4)",
                v);
        break;
    case DMLT_CHECK_HELPER:
        if (c->passed)
            cli_say(msg, size, "DMLCalcBufferTensorSize as published gives the same %s bytes", l);
        else if (dmlt_dtype_get(d->t.dtype)->bits < 8)
            cli_say(msg, size,
                    "DMLCalcBufferTensorSize as published returns 0 for 4-bit types: size the "
                    "buffer with %s bytes",
                    l);
        else
            cli_say(msg, size,
                    "DMLCalcBufferTensorSize as published wraps in 32 bits and returns %s "
                    "bytes, not %s: do not size this buffer with it",
                    v, l);
        break;
    case DMLT_CHECK_ALIGNMENT_POW2:
    case DMLT_CHECK_BASE_OFFSET_16:
    case DMLT_CHECK_BASE_OFFSET_ALIGNMENT:
    case DMLT_CHECK_ALIGNMENT_32:
        alignment_message(msg, size, c, v, l);
        break;
    case DMLT_CHECK_BINDING_SIZE:
    case DMLT_CHECK_BINDING_IN_BUFFER:
        binding_message(msg, size, c, d, v, l);
        break;
    case DMLT_CHECK_STRIDES_OVERLAP:
        overlap_message(msg, size, c, d, l);
        break;
    case DMLT_CHECK_COUNT:
        msg[0] = '\0';
        break;
    }
}

void cli_validate_desc_of(const struct tensor_desc *td, struct dmlt_desc *d)
{
    d->t = td->t;
    d->has_total = td->has_total;
    d->total_tensor_size_bytes = td->total;
    d->guaranteed_base_offset_alignment = td->alignment;
    d->base_offset_bytes = td->base_offset;
    d->flags = td->flags;
    d->has_binding_size = td->has_binding_size;
    d->binding_size_bytes = td->binding_size;
    d->has_buffer_size = td->has_buffer_size;
    d->buffer_size_bytes = td->buffer_size;
}
