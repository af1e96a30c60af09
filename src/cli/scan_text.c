/* scan_text.c - see scan_text.h. */
#include "scan_text.h"
#include "check_messages.h"

#include <string.h>

/* Where each column starts after NAME's (BYTES ends two before STATUS); a
 * longer value runs over, never cut. A row fits 100 columns: NAME at most
 * SCAN_NAME_MAX, an error row's status where its sizes would be. */
enum { GAP = 2, KIND_WIDTH = 12, TYPE_WIDTH = 12, SIZES_WIDTH = 16, BYTES_WIDTH = 11 };

/* The byte of b->data (from byte from on) where character k starts. */
static size_t char_at(const struct outbuf *b, size_t from, size_t k)
{
    size_t i = from;
    for (size_t n = 0; i < b->len; i++) {
        if (((unsigned char)b->data[i] & 0xC0) == 0x80)
            continue;
        if (n++ == k)
            break;
    }
    return i;
}

void cli_text_cut_middle(struct outbuf *out, struct outbuf *tmp, const char *label, size_t max)
{
    cli_ob_reset(tmp);
    cli_ob_quoted_text(tmp, label, SIZE_MAX);
    const size_t n = cli_ob_columns(tmp, 0);
    if (tmp->failed || n <= max || max < 5) {
        ob_write(out, tmp->data, tmp->len);
        return;
    }
    const size_t head = (max - 3) / 2, tail = max - 3 - head;
    const size_t head_end = char_at(tmp, 0, head), tail_start = char_at(tmp, 0, n - tail);
    ob_write(out, tmp->data, head_end);
    ob_puts(out, "...");
    ob_write(out, tmp->data + tail_start, tmp->len - tail_start);
}

size_t cli_scan_text_width(struct outbuf *tmp, const char *label)
{
    cli_ob_reset(tmp);
    cli_ob_quoted_text(tmp, label, SIZE_MAX);
    const size_t n = cli_ob_columns(tmp, 0);
    return n < SCAN_NAME_MAX ? n : SCAN_NAME_MAX;
}

/* The id of the first error-level check of td that fails, or NULL. */
static const char *first_failed_check(const struct tensor_desc *td)
{
    struct dmlt_desc d;
    struct dmlt_check checks[DMLT_CHECK_COUNT];
    cli_validate_desc_of(td, &d);
    (void)dmlt_validate(&d, td->t.rank, checks, DMLT_CHECK_COUNT);
    for (unsigned i = 0; i < DMLT_CHECK_COUNT; i++)
        if (!checks[i].passed && dmlt_check_level(checks[i].id) == DMLT_ERROR)
            return dmlt_check_id_name(checks[i].id);
    return NULL;
}

/* "FLOAT16" for float16, "BOOL->uint8": ONNX's type, then DirectML's
 * unless it is the same name or its plain spelling (FLOAT is float32,
 * DOUBLE float64). */
static void put_type(struct outbuf *out, const struct onnx_facts *facts, const char *dtype)
{
    if (facts->onnx_type == NULL) {
        ob_puts(out, facts->value ? facts->value : "-");
        return;
    }
    ob_puts(out, facts->onnx_type);
    if (dtype && ((strcmp(facts->onnx_type, "FLOAT") == 0 && strcmp(dtype, "float32") == 0) ||
                  (strcmp(facts->onnx_type, "DOUBLE") == 0 && strcmp(dtype, "float64") == 0)))
        return;
    size_t i = 0;
    const char *o = facts->onnx_type;
    while (dtype && o[i] && dtype[i] && (o[i] | 0x20) == (dtype[i] | 0x20))
        i++;
    if (dtype && !(o[i] == '\0' && dtype[i] == '\0')) {
        ob_puts(out, "->");
        ob_puts(out, dtype);
    }
}

/* BYTES, right-aligned to end two before STATUS, then the gap. */
enum { STATUS_AT = SIZES_WIDTH + BYTES_WIDTH };
static void put_bytes(struct outbuf *out, size_t line, size_t status_col, const char *num, size_t n)
{
    ob_putc(out, ' ');
    for (size_t at = cli_ob_columns(out, line); at + n + 2 < status_col; at++)
        ob_putc(out, ' ');
    ob_write(out, num, n);
    ob_puts(out, "  ");
}

static size_t name_col(size_t name_width)
{
    return (name_width < SCAN_NAME_MIN ? SCAN_NAME_MIN : name_width) + GAP;
}

void cli_scan_text_header(struct outbuf *out, size_t name_width)
{
    const size_t line = out->len, kind = name_col(name_width);
    ob_puts(out, "NAME");
    cli_ob_pad_to(out, line, kind);
    ob_puts(out, "KIND");
    cli_ob_pad_to(out, line, kind + KIND_WIDTH);
    ob_puts(out, "TYPE");
    cli_ob_pad_to(out, line, kind + KIND_WIDTH + TYPE_WIDTH);
    ob_puts(out, "SIZES");
    put_bytes(out, line, kind + KIND_WIDTH + TYPE_WIDTH + STATUS_AT, "BYTES", 5);
    ob_puts(out, "STATUS\n");
}

void cli_scan_text_row(struct outbuf *out, struct outbuf *tmp, size_t name_width, const char *label,
                       const char *kind, const struct onnx_facts *facts,
                       const struct tensor_desc *td, const dmlt_u128 *bytes,
                       const struct cli_error *err, bool broken)
{
    const size_t line = out->len, kind_col = name_col(name_width);
    cli_text_cut_middle(out, tmp, label, SCAN_NAME_MAX);
    cli_ob_pad_to(out, line, kind_col);
    ob_puts(out, kind);
    cli_ob_pad_to(out, line, kind_col + KIND_WIDTH);
    put_type(out, facts, td ? dmlt_dtype_get(td->t.dtype)->name : NULL);
    cli_ob_pad_to(out, line, kind_col + KIND_WIDTH + TYPE_WIDTH);
    if (err) { /* no sizes, no bytes: the error where they would be */
        ob_puts(out, "error: ");
        ob_puts(out, err->id);
        ob_putc(out, '\n');
        return;
    }
    if (td)
        cli_ob_u32_list(out, td->t.sizes, td->t.rank, 1, false);
    else
        ob_putc(out, '-');
    char num[48];
    size_t n = 1;
    if (bytes)
        n = cli_fmt_u128(num, *bytes);
    else
        num[0] = '-';
    put_bytes(out, line, kind_col + KIND_WIDTH + TYPE_WIDTH + STATUS_AT, num, n);
    if (broken) {
        const char *id = td ? first_failed_check(td) : NULL;
        ob_puts(out, "INVALID");
        if (id) {
            ob_puts(out, ": ");
            ob_puts(out, id);
        }
    } else {
        ob_puts(out, "ok");
    }
    ob_putc(out, '\n');
}
