/* cmd_offset.c - `offset` (coordinate -> offsets) and `locate` (offset ->
 * every coordinate there). The core does the arithmetic and the search;
 * this file parses the queries and renders the answers. */
#include "cli.h"
#include "platform.h"
#include "parse.h"

#include <inttypes.h>
#include <string.h>

/* Output above this size is written out while locate is still searching. */
#define STREAM_CHUNK ((size_t)64 << 10)

static const char *nibble_name(unsigned nibble)
{
    return nibble ? "high" : "low";
}

/* ,"offset":K,"byte_offset":B and, for 4-bit types, ,"nibble":"low" */
static void offsets_json(struct outbuf *out, dmlt_u128 k, dmlt_u128 byte, bool four_bit,
                         unsigned nibble)
{
    ob_puts(out, "\"offset\":");
    ob_u128(out, k);
    ob_puts(out, ",\"byte_offset\":");
    ob_u128(out, byte);
    if (four_bit) {
        ob_puts(out, ",\"nibble\":\"");
        ob_puts(out, nibble_name(nibble));
        ob_putc(out, '"');
    }
}

/* A --coord value: rank numbers, or the given rank's numbers when --rank
 * added leading dims (their coordinate is 0). */
static bool parse_coord(const char *text, const struct tensor_desc *d, uint32_t coord[],
                        struct cli_error *e)
{
    uint64_t v[DMLT_MAX_RANK];
    unsigned n;
    if (!cli_parse_uint_list("--coord", text, 0, UINT32_MAX, DMLT_MAX_RANK, v, &n, e, "coordinate",
                             "coordinates"))
        return false;
    if (n != d->t.rank && n != d->given_rank) {
        cli_fail(e, CLI_E_COORDINATE_COUNT, "--coord", text, "%u values for a rank-%u tensor", n,
                 d->t.rank);
        cli_hint(e, "give one coordinate per dimension, in logical order");
        return false;
    }
    unsigned lead = d->t.rank - n;
    for (unsigned i = 0; i < d->t.rank; i++)
        coord[i] = i < lead ? 0 : (uint32_t)v[i - lead];
    return true;
}

static void tensor_summary_json(struct outbuf *b, const struct tensor_desc *d)
{
    ob_puts(b, "\"dtype\":");
    cli_ob_json_str(b, dmlt_dtype_get(d->t.dtype)->name);
    ob_puts(b, ",\"sizes\":");
    cli_ob_u32_list(b, d->t.sizes, d->t.rank, 1, true);
    ob_puts(b, ",\"strides\":");
    cli_ob_u32_list(b, d->t.strides, d->t.rank, 1, true);
    ob_puts(b, ",\"base_offset_bytes\":");
    ob_u64(b, d->base_offset);
}

static bool run_offset(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct tensor_desc d;
    if (!cli_describe_tensor(&cfg->t, &d, e))
        return false;
    if (cfg->n_coords == 0) {
        cli_fail(e, CLI_E_MISSING_OPTION, "--coord", NULL, "missing; give at least one coordinate");
        cli_hint(e, "for example --coord 0,1,2,3 (logical order)");
        return false;
    }
    const bool json = cfg->format == FMT_JSON;
    const bool four_bit = dmlt_dtype_get(d.t.dtype)->bits < 8;
    /* Text columns as wide as their widest value (at least 13, 6 and 11
     * characters), two spaces apart: pass 0 measures (and does every
     * check), pass 1 writes. */
    size_t coord_w = 13, offset_w = 6, byte_w = 11;
    for (int pass = json ? 1 : 0; pass < 2; pass++) {
        if (pass == 1 && json) {
            cli_json_open(cfg, out);
            tensor_summary_json(out, &d);
            ob_puts(out, ",\"offsets\":[");
        } else if (pass == 1) {
            size_t start = out->len;
            ob_puts(out, "coordinate");
            cli_ob_pad_to(out, start, coord_w + 2);
            ob_puts(out, "offset");
            cli_ob_pad_to(out, start, coord_w + offset_w + 4);
            ob_puts(out, four_bit ? "byte offset" : "byte offset\n");
            if (four_bit) {
                cli_ob_pad_to(out, start, coord_w + offset_w + byte_w + 6);
                ob_puts(out, "nibble\n");
            }
        }
        for (unsigned i = 0; i < cfg->n_coords; i++) {
            uint32_t c[DMLT_MAX_RANK];
            if (!parse_coord(cfg->coords[i], &d, c, e))
                return false;
            dmlt_u128 off, byte;
            unsigned nibble;
            struct dmlt_error err;
            if (dmlt_offset(&d.t, c, &off, &err) != DMLT_OK) {
                char dn[8];
                cli_dim_name(dn, d.t.rank, (unsigned)err.dim);
                cli_fail(e, CLI_E_COORDINATE_OUT_OF_RANGE, "--coord", cfg->coords[i],
                         "coordinate %d is %" PRIu32 ", outside dimension %d (%s) of size %" PRIu32,
                         err.dim, (uint32_t)dmlt_u128_to_u64(err.value), err.dim, dn,
                         (uint32_t)dmlt_u128_to_u64(err.limit));
                cli_hint(e, "coordinates are 0-based: 0..%" PRIu32,
                         (uint32_t)dmlt_u128_to_u64(err.limit) - 1);
                e->exit_code = CLI_EXIT_RULE;
                return false;
            }
            if (dmlt_byte_offset(d.t.dtype, off, d.base_offset, &byte, &nibble) != DMLT_OK)
                return cli_fail(e, CLI_E_OUT_OF_RANGE, "--base-offset", cfg->t.base_offset,
                                "the byte offset passes 2^128");
            if (pass == 0) {
                char num[48];
                size_t n = (size_t)d.t.rank - 1; /* the commas */
                for (unsigned k = 0; k < d.t.rank; k++)
                    n += (size_t)(cli_put_u64(num, c[k]) - num);
                coord_w = n > coord_w ? n : coord_w;
                n = cli_fmt_u128(num, off);
                offset_w = n > offset_w ? n : offset_w;
                n = cli_fmt_u128(num, byte);
                byte_w = n > byte_w ? n : byte_w;
            } else if (json) {
                ob_puts(out, i ? ",{\"coord\":" : "{\"coord\":");
                cli_ob_u32_list(out, c, d.t.rank, 1, true);
                ob_putc(out, ',');
                offsets_json(out, off, byte, four_bit, nibble);
                ob_putc(out, '}');
            } else {
                size_t start = out->len;
                cli_ob_u32_list(out, c, d.t.rank, 1, false);
                cli_ob_pad_to(out, start, coord_w + 2);
                ob_u128(out, off);
                cli_ob_pad_to(out, start, coord_w + offset_w + 4);
                ob_u128(out, byte);
                if (four_bit) {
                    cli_ob_pad_to(out, start, coord_w + offset_w + byte_w + 6);
                    ob_puts(out, nibble_name(nibble));
                }
                ob_putc(out, '\n');
            }
        }
    }
    if (json)
        ob_puts(out, "]}\n");
    return true;
}

/* ---- locate ---------------------------------------------------------- */

struct locate_out {
    struct outbuf *out;
    struct cli_error *e;
    unsigned rank;
    bool json;
    uint64_t listed, limit; /* limit 0: no limit */
    bool truncated, write_failed;
    /* Text: "offset K, byte B (nibble)" for the header, written where the
     * element's output starts (header_at) once the count is known, or
     * before the first chunk that has to be written out early. */
    struct outbuf head;
    size_t header_at;
    bool streamed;
};

/* Puts text at position `at` of b, moving what follows. */
static void insert_at(struct outbuf *b, size_t at, const char *text, size_t n)
{
    size_t tail = b->len - at;
    if (n == 0) /* text may be a failed buffer's NULL data */
        return;
    ob_write(b, text, n);
    if (b->failed)
        return;
    memmove(b->data + at + n, b->data + at, tail);
    memcpy(b->data + at, text, n);
}

static bool on_coord(void *ctx, const uint32_t coord[], unsigned rank)
{
    struct locate_out *lo = ctx;
    if (lo->limit && lo->listed == lo->limit) {
        lo->truncated = true; /* a coordinate past the limit exists */
        return false;
    }
    if (lo->json) {
        if (lo->listed)
            ob_putc(lo->out, ',');
        cli_ob_u32_list(lo->out, coord, rank, 1, true);
    } else {
        ob_puts(lo->out, "  ");
        cli_ob_u32_list(lo->out, coord, rank, 1, false);
        ob_putc(lo->out, '\n');
    }
    lo->listed++;
    if (lo->out->len >= STREAM_CHUNK) {
        if (!lo->json && !lo->streamed) {
            /* The count comes at the end, in a closing line. */
            insert_at(lo->out, lo->header_at, lo->head.data, lo->head.len);
            insert_at(lo->out, lo->header_at + lo->head.len, ":\n", 2);
            lo->streamed = true;
        }
        if (!cli_drain(lo->out, lo->e)) {
            lo->write_failed = true;
            return false;
        }
    }
    return true;
}

/* "1 coordinate", "padding (...)", with notes on a limit or the work cap. */
static void count_text(struct outbuf *b, const struct locate_out *lo, bool complete)
{
    if (lo->listed == 0 && complete) {
        ob_puts(b, "padding (no coordinate maps here)");
    } else {
        ob_u64(b, lo->listed);
        ob_puts(b, lo->listed == 1 ? " coordinate" : " coordinates");
        if (lo->truncated)
            ob_puts(b, " (more exist: raise --limit)");
    }
    if (!complete)
        ob_puts(b, " (search stopped at its work limit: the list may be incomplete)");
}

/* Lists the coordinates at element offset k into out. */
static bool locate_one(const struct tensor_desc *d, dmlt_u128 k, struct locate_out *lo, bool first)
{
    dmlt_u128 byte;
    unsigned nibble;
    dmlt_byte_offset(d->t.dtype, k, d->base_offset, &byte, &nibble);
    const bool four_bit = dmlt_dtype_get(d->t.dtype)->bits < 8;
    struct outbuf *out = lo->out;
    if (lo->json) {
        ob_puts(out, first ? "{" : ",{");
        offsets_json(out, k, byte, four_bit, nibble);
        ob_puts(out, ",\"coords\":[");
    }
    cli_ob_reset(&lo->head);
    ob_puts(&lo->head, "offset ");
    ob_u128(&lo->head, k);
    ob_puts(&lo->head, ", byte ");
    ob_u128(&lo->head, byte);
    if (four_bit) {
        ob_puts(&lo->head, " (");
        ob_puts(&lo->head, nibble_name(nibble));
        ob_puts(&lo->head, " nibble)");
    }
    lo->header_at = out->len;
    lo->streamed = false;
    lo->listed = 0;
    lo->truncated = false;
    uint64_t found;
    enum dmlt_status st = dmlt_locate(&d->t, k, DMLT_OVERLAP_WORK_CAP, on_coord, lo, &found);
    if (lo->write_failed)
        return false;
    const bool complete = st == DMLT_OK;
    if (lo->json) {
        ob_puts(out, "],\"count\":");
        ob_u64(out, lo->listed);
        ob_puts(out, ",\"padding\":");
        ob_puts(out, lo->listed == 0 && complete ? "true" : "false");
        ob_puts(out, ",\"truncated\":");
        ob_puts(out, lo->truncated ? "true" : "false");
        ob_puts(out, ",\"search_complete\":");
        ob_puts(out, complete ? "true" : "false");
        ob_putc(out, '}');
        return true;
    }
    if (lo->streamed) {
        count_text(out, lo, complete);
        ob_putc(out, '\n');
        return true;
    }
    ob_puts(&lo->head, ": ");
    count_text(&lo->head, lo, complete);
    ob_putc(&lo->head, '\n');
    insert_at(out, lo->header_at, lo->head.data, lo->head.len);
    return true;
}

/* The buffer's end in bytes: --total-size, else the minimum implied size. */
static bool buffer_end(const struct tensor_desc *d, const char *sizes, dmlt_u128 *end,
                       struct cli_error *e)
{
    struct dmlt_report r;
    r.size = sizeof r;
    struct dmlt_error err;
    if (dmlt_report_compute(&d->t, d->has_total ? &d->total : NULL, &r, &err) != DMLT_OK)
        return cli_fail(e, CLI_E_ELEMENT_COUNT_RANGE, "--sizes", sizes,
                        "the tensor is past 2^128 bits, beyond what dmltensor computes exactly");
    *end = r.total_tensor_size_bytes;
    return true;
}

static bool run_locate(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    struct tensor_desc d;
    if (!cli_describe_tensor(&cfg->t, &d, e))
        return false;
    if ((cfg->offset == NULL) == (cfg->byte_offset == NULL)) {
        if (cfg->offset)
            return cli_fail(e, CLI_E_CONFLICTING_OPTIONS, "--byte-offset", NULL,
                            "conflicts with --offset: give one");
        cli_fail(e, CLI_E_MISSING_OPTION, "--offset", NULL,
                 "missing; give --offset or --byte-offset");
        cli_hint(e, "for example --offset 7");
        return false;
    }
    struct locate_out lo;
    memset(&lo, 0, sizeof lo);
    lo.out = out;
    lo.e = e;
    lo.rank = d.t.rank;
    lo.json = cfg->format == FMT_JSON;
    if (cfg->limit && !cli_parse_uint(cfg->limit, strlen(cfg->limit), 1, UINT64_MAX, &lo.limit, e,
                                      "--limit", cfg->limit, "the limit", NULL))
        return false;
    dmlt_u128 end = {0, 0};
    if (!buffer_end(&d, cfg->t.sizes, &end, e))
        return false;

    /* The element offsets to solve for: one, or two nibbles of a byte. */
    const char *opt = cfg->offset ? "--offset" : "--byte-offset";
    const char *text = cfg->offset ? cfg->offset : cfg->byte_offset;
    uint64_t q;
    if (!cli_parse_uint(text, strlen(text), 0, UINT64_MAX, &q, e, opt, text, "the offset", NULL))
        return false;
    dmlt_u128 first = dmlt_u128_from_u64(q), last_byte;
    unsigned count = 1, in_element = 0, nibble;
    if (cfg->byte_offset) {
        if (q < d.base_offset) {
            cli_fail(e, CLI_E_OFFSET_OUT_OF_RANGE, opt, text,
                     "before the tensor, which starts at --base-offset %" PRIu64, d.base_offset);
            e->exit_code = CLI_EXIT_RULE;
            return false;
        }
        dmlt_elements_at_byte(d.t.dtype, dmlt_u128_from_u64(q - d.base_offset), &first, &count,
                              &in_element);
    }
    /* Past the end: the element's byte is not inside the buffer. */
    dmlt_byte_offset(d.t.dtype, first, 0, &last_byte, &nibble);
    if (dmlt_u128_cmp(last_byte, end) >= 0) {
        char n[40];
        n[cli_fmt_u128(n, end)] = '\0';
        cli_fail(e, CLI_E_OFFSET_OUT_OF_RANGE, opt, text, "past the end of the %s-byte buffer", n);
        cli_hint(e, "%s",
                 d.has_total ? "the buffer is --total-size bytes"
                             : "the buffer is the minimum implied size; "
                               "give --total-size for a larger one");
        e->exit_code = CLI_EXIT_RULE;
        return false;
    }
    if (lo.json) {
        ob_puts(out, cfg->offset ? "{\"query\":{\"offset\":" : "{\"query\":{\"byte_offset\":");
        ob_u64(out, q);
        ob_puts(out, "},");
        if (cfg->byte_offset && count == 1) {
            ob_puts(out, "\"byte_in_element\":");
            ob_u64(out, in_element);
            ob_putc(out, ',');
        }
        ob_puts(out, "\"elements\":[");
    } else if (cfg->byte_offset && count == 1 && in_element) {
        ob_puts(out, "byte ");
        ob_u64(out, q);
        ob_puts(out, " is byte ");
        ob_u64(out, in_element);
        ob_puts(out, " of the element at offset ");
        ob_u128(out, first);
        ob_putc(out, '\n');
    }
    bool ok = true;
    for (unsigned i = 0; i < count && ok; i++) {
        dmlt_u128 k = first; /* first + 1 fits: first is at most 2^65 */
        ok = (i == 0 || dmlt_u128_add(first, dmlt_u128_from_u64(i), &k)) &&
             locate_one(&d, k, &lo, i == 0);
    }
    cli_ob_free(&lo.head);
    if (ok && lo.json)
        ob_puts(out, "]}\n");
    return ok;
}

const struct command cli_cmd_offset = {
    .name = "offset",
    .id = CMD_OFFSET,
    .summary = "element and byte offset of coordinates",
    .usage = "dmltensor offset --sizes LIST --coord LIST... [OPTIONS]",
    .about = "Element offset (dot product of coordinate and strides) and byte offset of\n"
             "each coordinate. For 4-bit types, the byte and the nibble (low for even\n"
             "element offsets). A coordinate outside the tensor is exit status 1.\n",
    .examples =
        "  dmltensor offset --sizes 2,2,3 --coord 1,0,1              # 7\n"
        "  dmltensor offset --sizes 1,3,4,4 --layout nhwc --coord 0,2,1,1 --coord 0,0,3,3\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON),
    .format_help = "text (default) or json (one line)",
    .batch = true,
    .tensor = true,
    .run = run_offset,
};

const struct command cli_cmd_locate = {
    .name = "locate",
    .id = CMD_LOCATE,
    .summary = "every coordinate at an element or byte offset",
    .usage = "dmltensor locate --sizes LIST (--offset K | --byte-offset B) [OPTIONS]",
    .about = "Every coordinate whose element offset is K, or whose element holds byte B,\n"
             "found by solving per dimension (never by walking the tensor). Broadcast\n"
             "and overlapping tensors can have many; an offset that no coordinate\n"
             "reaches is padding. An offset past the buffer's end is exit status 1.\n",
    .examples = "  dmltensor locate --sizes 2,3 --pad w=2 --offset 6     # 1,1\n"
                "  dmltensor locate --sizes 2,3 --pad w=2 --offset 3     # padding\n"
                "  dmltensor locate --sizes 1,3,4,4 --broadcast hw --offset 1 --limit 4\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON),
    .format_help = "text (default) or json (one line)",
    .batch = false,
    .tensor = true,
    .run = run_locate,
};
