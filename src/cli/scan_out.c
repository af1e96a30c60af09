/* scan_out.c - what scan's parts write through (scan.h): the "file" key
 * of a record when several files are scanned, draining the output, and
 * the name of a value's kind. */
#include "scan.h"

#include <string.h>

void scan_put_file_key(struct scan *s, size_t start)
{
    if (!s->multi || s->out->failed || s->out->len <= start)
        return;
    ob_reset(&s->scratch);
    ob_puts(&s->scratch, "\"file\":");
    ob_json_str(&s->scratch, s->file);
    ob_putc(&s->scratch, ',');
    if (s->scratch.failed)
        return;
    const size_t n = s->scratch.len;
    if (ob_space(s->out, n) == NULL)
        return;
    char *at = s->out->data + start + 1; /* after the record's { */
    memmove(at + n, at, s->out->len - start - 1);
    memcpy(at, s->scratch.data, n);
    s->out->len += n;
}

bool scan_drain_if_full(struct scan *s)
{
    if (s->out->len >= BATCH_CHUNK && !cli_drain(s->out, s->e))
        s->failed_write = true;
    return !s->failed_write;
}

const char *scan_kind_name(unsigned k)
{
    if (k == SCAN_ACTIVATION)
        return "activation";
    return k == SCAN_FOLDED ? "folded" : onnx_kind_name((enum onnx_kind)k);
}
