/* fuzz_json.c - batch's JSON path: the record reader, the JSON parser
 * against cJSON's and against a grammar check, and the descriptor reader.
 *
 * Input: any bytes, read by batch's record reader (JSON Lines or an array).
 * For each record, invariants:
 *  - cli_json_parse accepts exactly what strict JSON is (a grammar check below,
 *    written from RFC 8259 separately), less \u0000 and lone surrogates,
 *    and nesting past JSON_MAX_DEPTH; what it refuses has an error inside
 *    the text (or at its end);
 *  - where it accepts, cJSON accepts too and builds the same tree, item by
 *    item; a number node keeps its text, which strtod reads as cJSON does;
 *  - cli_json_integer_digits of each number text against a reference;
 *  - a record is NUL-terminated at its length and never over RECORD_MAX;
 *  - cli_descriptor_from_plain, where it takes a record, fills the descriptor
 *    exactly as cli_descriptor_from_json does from the parsed tree, and echoes
 *    the same id.
 * And the whole input through `dmltensor batch -` and `scan -` into a
 * memory stream: no crash, no leak, exit status 0, 1 or 2.
 */
#define _POSIX_C_SOURCE 200809L /* fmemopen, open_memstream */
#include "fuzz.h"

#include "cli.h"
#include "source_json.h"
#include "json_parse.h"
#include "records.h"

#include <string.h>

/* Equal trees, item by item in order: cJSON_Compare looks keys up by name,
 * so it calls {"a":1,"a":2} unequal to itself. mine is cli_json_parse's tree,
 * theirs cJSON's. */
static bool same_tree(const cJSON *mine, const cJSON *theirs)
{
    const cJSON *a = mine, *b = theirs;
    for (; a && b; a = a->next, b = b->next) {
        if ((a->type & 0xFF) != (b->type & 0xFF))
            return false;
        if ((a->string == NULL) != (b->string == NULL) ||
            (a->string && strcmp(a->string, b->string) != 0))
            return false;
        if (cJSON_IsString(a) && strcmp(a->valuestring, b->valuestring) != 0)
            return false;
        if (cJSON_IsNumber(a) && strtod(json_number_text(a), NULL) != b->valuedouble)
            return false;
        if ((cJSON_IsArray(a) || cJSON_IsObject(a)) && !same_tree(a->child, b->child))
            return false;
    }
    return a == NULL && b == NULL;
}

/* ---- strict JSON, by the grammar --------------------------------------- */

struct gram {
    const char *p, *end;
    int depth;
};

static void g_space(struct gram *g)
{
    while (g->p < g->end && (*g->p == ' ' || *g->p == '\t' || *g->p == '\n' || *g->p == '\r'))
        g->p++;
}

static bool g_digits(struct gram *g)
{
    const char *start = g->p;
    while (g->p < g->end && *g->p >= '0' && *g->p <= '9')
        g->p++;
    return g->p > start;
}

static int g_hex(struct gram *g)
{
    int v = 0;
    for (int i = 0; i < 4; i++, g->p++) {
        if (g->p == g->end || !strchr("0123456789abcdefABCDEF", *g->p) || *g->p == '\0')
            return -1;
        char ch = *g->p;
        v = v * 16 + (ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
    }
    return v;
}

static bool g_string(struct gram *g)
{
    g->p++;
    while (g->p < g->end && *g->p != '"') {
        unsigned char ch = (unsigned char)*g->p++;
        if (ch < 0x20)
            return false;
        if (ch != '\\')
            continue;
        if (g->p == g->end)
            return false;
        ch = (unsigned char)*g->p++;
        if (ch == 'u') {
            int u = g_hex(g);
            if (u <= 0 || (u >= 0xDC00 && u <= 0xDFFF)) /* \u0000, a lone low half */
                return false;
            if (u >= 0xD800 && u <= 0xDBFF) {
                if (g->end - g->p < 2 || g->p[0] != '\\' || g->p[1] != 'u')
                    return false;
                g->p += 2;
                int low = g_hex(g);
                if (low < 0xDC00 || low > 0xDFFF)
                    return false;
            }
        } else if (ch == '\0' || !strchr("\"\\/bfnrt", ch)) {
            return false;
        }
    }
    if (g->p == g->end)
        return false;
    g->p++;
    return true;
}

static bool g_value(struct gram *g)
{
    g_space(g);
    if (g->p == g->end)
        return false;
    char ch = *g->p;
    if (ch == '{' || ch == '[') {
        if (++g->depth > JSON_MAX_DEPTH)
            return false;
        char close = ch == '{' ? '}' : ']';
        g->p++;
        g_space(g);
        if (g->p < g->end && *g->p == close) {
            g->p++;
            g->depth--;
            return true;
        }
        for (;;) {
            if (close == '}') {
                g_space(g);
                if (g->p == g->end || *g->p != '"' || !g_string(g))
                    return false;
                g_space(g);
                if (g->p == g->end || *g->p++ != ':')
                    return false;
            }
            if (!g_value(g))
                return false;
            g_space(g);
            if (g->p == g->end)
                return false;
            ch = *g->p++;
            if (ch == close) {
                g->depth--;
                return true;
            }
            if (ch != ',')
                return false;
        }
    }
    if (ch == '"')
        return g_string(g);
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(g->end - g->p) >= n && memcmp(g->p, words[i], n) == 0) {
            g->p += n;
            return true;
        }
    }
    if (ch == '-')
        g->p++;
    const char *int_start = g->p;
    if (!g_digits(g) || (g->p - int_start > 1 && *int_start == '0'))
        return false;
    if (g->p < g->end && *g->p == '.') {
        g->p++;
        if (!g_digits(g))
            return false;
    }
    if (g->p < g->end && (*g->p == 'e' || *g->p == 'E')) {
        g->p++;
        if (g->p < g->end && (*g->p == '+' || *g->p == '-'))
            g->p++;
        if (!g_digits(g))
            return false;
    }
    return true;
}

static bool strict_json(const char *text, size_t len)
{
    struct gram g = {text, text + len, 0};
    if (!g_value(&g))
        return false;
    g_space(&g);
    return g.p == g.end;
}

/* cli_json_integer_digits against Python-like arithmetic on small cases: the
 * number's value as digits x 10^scale by a second, plainer route. */
static void check_integer_digits(const char *num)
{
    char buf[80];
    size_t n = 0;
    enum json_integer r = cli_json_integer_digits(num, buf, sizeof buf, &n);
    /* Reference: all significand digits, then the exponent. */
    const char *p = num;
    bool negative = *p == '-';
    p += negative;
    char sig[64];
    size_t k = 0;
    long long scale = 0;
    bool long_sig = false;
    for (; (*p >= '0' && *p <= '9') || *p == '.'; p++) {
        if (*p == '.') {
            scale = 0; /* counted below */
            continue;
        }
        if (k < sizeof sig)
            sig[k++] = *p;
        else
            long_sig = true;
    }
    const char *dot = strchr(num, '.');
    const char *exp_at = strpbrk(num, "eE");
    long long frac = 0;
    if (dot)
        frac = (exp_at ? exp_at : p) - dot - 1;
    long long e = 0;
    if (exp_at) {
        const char *q = exp_at + 1;
        bool down = *q == '-';
        q += *q == '-' || *q == '+';
        for (; *q >= '0' && *q <= '9'; q++)
            if (e < 100000)
                e = e * 10 + (*q - '0');
        e = down ? -e : e;
    }
    if (long_sig || e > 1000 || e < -1000)
        return; /* beyond the reference's simple arithmetic */
    scale = e - frac;
    size_t first = 0;
    while (first < k && sig[first] == '0')
        first++;
    if (first == k) {
        FUZZ_CHECK(r == JSON_INTEGER && n == 1 && strcmp(buf, "0") == 0);
        return;
    }
    size_t last = k;
    while (sig[last - 1] == '0') {
        last--;
        scale++;
    }
    if (negative || scale < 0) {
        FUZZ_CHECK(r == JSON_NOT_INTEGER);
        return;
    }
    long long digits = (long long)(last - first) + scale;
    if (digits + 1 > (long long)sizeof buf) {
        FUZZ_CHECK(r == JSON_INTEGER_HUGE);
        return;
    }
    FUZZ_CHECK(r == JSON_INTEGER && (long long)n == digits);
    FUZZ_CHECK(memcmp(buf, sig + first, last - first) == 0);
    for (long long i = (long long)(last - first); i < digits; i++)
        FUZZ_CHECK(buf[i] == '0');
}

static void check_numbers(const cJSON *v)
{
    for (; v; v = v->next) {
        if (cJSON_IsNumber(v))
            check_integer_digits(json_number_text(v));
        check_numbers(v->child);
    }
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* d1 from cli_descriptor_from_plain, d2 from cli_descriptor_from_json: the same
 * command, option texts, checks, keys named for errors, and id. */
static void check_same_descriptor(const struct descriptor *d1, const struct descriptor *d2)
{
    const struct tensor_args *a = &d1->cfg.t, *b = &d2->cfg.t;
    FUZZ_CHECK(d1->cfg.cmd == d2->cfg.cmd && same_text(d1->cfg.cmd_name, d2->cfg.cmd_name));
    FUZZ_CHECK(d1->cfg.format == d2->cfg.format && d1->cfg.n_coords == d2->cfg.n_coords);
    FUZZ_CHECK(same_text(a->dtype, b->dtype) && same_text(a->sizes, b->sizes) &&
               same_text(a->strides, b->strides) && same_text(a->layout, b->layout) &&
               same_text(a->order, b->order) && same_text(a->rank, b->rank) &&
               same_text(a->row_pitch_align, b->row_pitch_align) &&
               same_text(a->total_size, b->total_size) &&
               same_text(a->base_offset, b->base_offset) && same_text(a->alignment, b->alignment) &&
               same_text(a->flags, b->flags));
    FUZZ_CHECK(a->n_broadcast == b->n_broadcast && a->n_pad == b->n_pad);
    FUZZ_CHECK(same_text(a->broadcast[0], b->broadcast[0]) && same_text(a->pad[0], b->pad[0]));
    FUZZ_CHECK(same_text(d1->layout_check, d2->layout_check));
    FUZZ_CHECK(d1->n_broadcast_check == d2->n_broadcast_check);
    FUZZ_CHECK(d1->n_from == d2->n_from);
    for (unsigned i = 0; i < d1->n_from && i < d2->n_from; i++)
        FUZZ_CHECK(same_text(d1->from[i].option, d2->from[i].option) &&
                   same_text(d1->from[i].key, d2->from[i].key));
    /* The id: the plain path keeps its text, which must be what the
     * general path prints for the tree's value. */
    FUZZ_CHECK((d1->id_text != NULL) == (d2->id != NULL));
    if (d1->id_text && d2->id) {
        struct outbuf want;
        cli_ob_init(&want);
        if (cJSON_IsString(d2->id)) {
            cli_ob_json_str(&want, d2->id->valuestring);
        } else {
            FUZZ_CHECK(cJSON_IsNumber(d2->id));
            ob_puts(&want, json_number_text(d2->id));
        }
        FUZZ_CHECK(!want.failed && want.len == d1->id_len &&
                   memcmp(want.data, d1->id_text, want.len) == 0);
        cli_ob_free(&want);
    }
}

static void check_record(const char *text, size_t len, struct descriptor *d1, struct descriptor *d2)
{
    FUZZ_CHECK(len <= RECORD_MAX && text[len] == '\0');
    struct json_error je;
    cJSON *mine = cli_json_parse(text, len, NULL, &je);
    FUZZ_CHECK((mine != NULL) == strict_json(text, len));
    if (mine == NULL)
        FUZZ_CHECK(je.message != NULL && je.at <= len);
    if (cli_descriptor_from_plain(text, len, d1)) {
        FUZZ_CHECK(mine != NULL);
        struct cli_error e;
        FUZZ_CHECK(cli_descriptor_from_json(mine, DESC_BATCH, d2, &e));
        check_same_descriptor(d1, d2);
    }
    if (mine) {
        cJSON *theirs = cJSON_ParseWithLengthOpts(text, len + 1, NULL, true);
        FUZZ_CHECK(theirs != NULL);
        FUZZ_CHECK(same_tree(mine, theirs));
        check_numbers(mine);
        cJSON_Delete(theirs);
    }
    cJSON_Delete(mine);
}

static void run_cli(const uint8_t *data, size_t size, const char *cmd)
{
    FILE *in = fmemopen((void *)(uintptr_t)data, size, "rb");
    char *obuf = NULL, *ebuf = NULL;
    size_t olen = 0, elen = 0;
    FILE *out = open_memstream(&obuf, &olen);
    FILE *err = open_memstream(&ebuf, &elen);
    if (in && out && err) {
        char arg0[] = "dmltensor", arg1[16], arg2[] = "-";
        snprintf(arg1, sizeof arg1, "%s", cmd);
        char *argv[] = {arg0, arg1, arg2, NULL};
        int status = cli_main(3, argv, in, out, err);
        FUZZ_CHECK(status == 0 || status == 1 || status == 2);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    if (err)
        fclose(err);
    free(obuf);
    free(ebuf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 64 * 1024)
        return 0;
    FILE *f = fmemopen((void *)(uintptr_t)data, size, "rb");
    if (f == NULL)
        return 0;
    struct record_reader *r = malloc(sizeof *r);
    struct descriptor *d1 = malloc(sizeof *d1), *d2 = malloc(sizeof *d2);
    if (r && d1 && d2) {
        cli_record_reader_init(r, f);
        d2->commands = (struct command_list){cli_commands, cli_n_commands};
        const char *text;
        size_t len;
        unsigned long line;
        enum record_status st;
        unsigned n = 0;
        while ((st = cli_record_next(r, &text, &len, &line)) != RECORD_END && n++ < 10000) {
            FUZZ_CHECK(st != RECORD_IO_ERROR);
            if (st == RECORD_OK)
                check_record(text, len, d1, d2);
        }
        cli_record_reader_free(r);
    }
    free(r);
    free(d1);
    free(d2);
    fclose(f);
    run_cli(data, size, "batch");
    run_cli(data, size, "scan");
    return 0;
}
