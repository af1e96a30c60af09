/* cmd_lists.c - `dtypes` and `layouts`: what dmltensor accepts, as tables
 * for people and arrays in JSON. */
#include "cli.h"
#include "parse.h"

#include <string.h>

static bool run_dtypes(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    (void)e;
    const bool json = cfg->format == FMT_JSON;
    ob_puts(out, json ? "[" : "name     DirectML name                  value  bits\n");
    for (int i = 1; i <= DMLT_DTYPE_COUNT; i++) {
        const struct dmlt_dtype_info *d = dmlt_dtype_get((enum dmlt_dtype)i);
        if (json) {
            ob_puts(out, i > 1 ? ",{\"name\":" : "{\"name\":");
            cli_ob_json_str(out, d->name);
            ob_puts(out, ",\"dml_name\":");
            cli_ob_json_str(out, d->dml_name);
            ob_puts(out, ",\"value\":");
            ob_u64(out, (uint64_t)i);
            ob_puts(out, ",\"bits\":");
            ob_u64(out, d->bits);
            ob_putc(out, '}');
            continue;
        }
        size_t start = out->len;
        ob_puts(out, d->name);
        cli_ob_pad_to(out, start, 9);
        ob_puts(out, d->dml_name);
        cli_ob_pad_to(out, start, 41);
        if (i < 10)
            ob_putc(out, ' ');
        ob_u64(out, (uint64_t)i);
        cli_ob_pad_to(out, start, 48);
        if (d->bits < 10)
            ob_putc(out, ' ');
        ob_u64(out, d->bits);
        ob_putc(out, '\n');
    }
    ob_puts(out, json ? "]\n" : "");
    return true;
}

static void json_str_or_null(struct outbuf *b, const char *s)
{
    if (s)
        cli_ob_json_str(b, s);
    else
        ob_puts(b, "null");
}

/* The layout names of each rank besides the permutations of its letters
 * and index lists: the text table and the JSON list print the same. */
static const char *const named[DMLT_MAX_RANK + 1] = {NULL,
                                                     "w row-major col-major",
                                                     "hw wh row-major col-major",
                                                     "dhw whd row-major col-major",
                                                     "nchw nhwc row-major col-major",
                                                     "ncdhw ndhwc row-major col-major",
                                                     "row-major col-major",
                                                     "row-major col-major",
                                                     "row-major col-major"};

/* Every permutation of `letters`, in lexicographic order of positions. */
static void permutations(struct outbuf *b, const char *letters, bool json)
{
    unsigned n = (unsigned)strlen(letters), idx[DMLT_MAX_RANK];
    for (unsigned i = 0; i < n; i++)
        idx[i] = i;
    bool first = true;
    for (;;) {
        if (json)
            ob_puts(b, first ? "\"" : ",\"");
        for (unsigned i = 0; i < n; i++)
            ob_putc(b, letters[idx[i]]);
        ob_puts(b, json ? "\"" : "\n");
        first = false;
        /* next permutation */
        int i = (int)n - 2;
        while (i >= 0 && idx[i] > idx[i + 1])
            i--;
        if (i < 0)
            return;
        unsigned j = n - 1;
        while (idx[j] < idx[i])
            j--;
        unsigned t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        for (unsigned a = (unsigned)i + 1, z = n - 1; a < z; a++, z--) {
            t = idx[a];
            idx[a] = idx[z];
            idx[z] = t;
        }
    }
}

static bool run_layouts(struct cli_config *cfg, struct outbuf *out, struct cli_error *e)
{
    const bool json = cfg->format == FMT_JSON;
    if (cfg->t.rank) {
        uint64_t r;
        if (!cli_parse_uint(cfg->t.rank, strlen(cfg->t.rank), 1, DMLT_MAX_RANK, &r, e, "--rank",
                            cfg->t.rank, "the rank", NULL))
            return false;
        const char *letters = dmlt_dim_letters((unsigned)r);
        if (json) {
            ob_puts(out, "{\"rank\":");
            ob_u64(out, r);
            ob_puts(out, ",\"letters\":");
            json_str_or_null(out, letters);
            ob_puts(out, ",\"layouts\":[");
            if (letters)
                permutations(out, letters, true);
            ob_puts(out, letters ? ",\"row-major\",\"col-major\"]}\n"
                                 : "\"row-major\",\"col-major\"]}\n");
        } else if (letters) {
            permutations(out, letters, false);
            ob_puts(out, "row-major\ncol-major\n");
        } else {
            ob_puts(out, "row-major\ncol-major\n(rank 6 to 8 have no letters: any order as "
                         "indices, like --order 0,2,1,3,4,5)\n");
        }
        return true;
    }
    if (!json)
        ob_puts(out, "rank  letters  default    named layouts                    other orders\n");
    else
        ob_putc(out, '[');
    for (unsigned r = 1; r <= DMLT_MAX_RANK; r++) {
        const char *letters = dmlt_dim_letters(r);
        if (json) {
            ob_puts(out, r > 1 ? ",{\"rank\":" : "{\"rank\":");
            ob_u64(out, r);
            ob_puts(out, ",\"letters\":");
            json_str_or_null(out, letters);
            ob_puts(out, ",\"default\":");
            cli_ob_json_str(out, letters ? letters : "row-major");
            ob_puts(out, ",\"named\":[");
            const char *p = named[r];
            for (bool first = true; *p; first = false) {
                const char *sp = strchr(p, ' ');
                size_t len = sp ? (size_t)(sp - p) : strlen(p);
                ob_puts(out, first ? "\"" : ",\"");
                ob_write(out, p, len);
                ob_putc(out, '"');
                p += len + (sp != NULL);
            }
            ob_puts(out, "]}");
            continue;
        }
        size_t start = out->len;
        ob_u64(out, r);
        cli_ob_pad_to(out, start, 6);
        ob_puts(out, letters ? letters : "-");
        cli_ob_pad_to(out, start, 15);
        ob_puts(out, letters ? letters : "row-major");
        cli_ob_pad_to(out, start, 26);
        ob_puts(out, named[r]);
        cli_ob_pad_to(out, start, 59);
        ob_puts(out, letters ? (r > 1 ? "any permutation of the letters; --order" : "-")
                             : "--order, like 0,2,1,3,4,5");
        ob_putc(out, '\n');
    }
    ob_puts(out, json ? "]\n" : "\nAny rank also takes --order with indices, outermost first.\n");
    return true;
}

const struct command cli_cmd_dtypes = {
    .name = "dtypes",
    .id = CMD_DTYPES,
    .summary = "the data types, their enum values and sizes",
    .usage = "dmltensor dtypes [--format json]",
    .about = "The 13 DirectML data types: name, DML_TENSOR_DATA_TYPE value, size in bits.\n",
    .examples = "  dmltensor dtypes --format json | jq -r '.[] | select(.bits == 16) | .name'\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON),
    .format_help = "text (default) or json (one line)",
    .batch = false,
    .run = run_dtypes,
};

const struct command cli_cmd_layouts = {
    .name = "layouts",
    .id = CMD_LAYOUTS,
    .summary = "the layout names of each rank",
    .usage = "dmltensor layouts [--rank R] [--format json]",
    .about = "Layout names by rank: the dimension letters, the named layouts, and with\n"
             "--rank every permutation of that rank's letters.\n",
    .examples = "  dmltensor layouts\n"
                "  dmltensor layouts --rank 3\n",
    .formats = FMT_BIT(FMT_TEXT) | FMT_BIT(FMT_JSON),
    .format_help = "text (default) or json (one line)",
    .batch = false,
    .run = run_layouts,
};
