/* source_json.c - descriptors from JSON (see source_json.h): a `batch`
 * record or an object `scan` found, read from cli_json_parse()'s tree, or for
 * the plain records most batches hold, straight from the text. JSON
 * numbers are read exactly from the text they were written as: an integer
 * of any size or spelling becomes its digits, as the command line would
 * have given them, and anything else (a fraction, a negative number) goes
 * to the option's parser as written, to be refused with its own message. */
#include "source_json.h"
#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Digits an integer may have before it is refused outright: every option
 * stops at 2^64 - 1, which has 20. */
#define MAX_DIGITS 64

/* cJSON_IsNumber(v) and the like, without a call into the library: as
 * cJSON does, the type is the low byte of v->type, and NULL has no type.
 * For numbers, strings, arrays, objects and null (cJSON_IsBool tests bits,
 * and stays a call). */
static bool has_type(const cJSON *v, int type)
{
    return v != NULL && (v->type & 0xFF) == type;
}

/* ---- building texts ------------------------------------------------------- */

static bool bad_value(struct cli_error *e, const char *key, enum cli_error_id id,
                      const char *message)
{
    cli_fail(e, id, NULL, NULL, "%s", message);
    e->key = key;
    return false;
}

/* A JSON number as the text the option would have had: an integer (1e2,
 * 10E-1 and -0 included) as its digits, exactly at any size; a negative
 * number or a fraction as written, for the option's own parser to refuse
 * with its own message. */
static bool put_number(struct descriptor *d, const cJSON *v, const char *key, struct cli_error *e)
{
    const char *text = json_number_text(v);
    size_t n = 0; /* the usual case first: digits alone (JSON has no leading zero) */
    while (n <= MAX_DIGITS && text[n] >= '0' && text[n] <= '9')
        n++;
    if (n <= MAX_DIGITS && text[n] == '\0')
        return cli_descriptor_text_put(d, text, n, key, e);
    char digits[MAX_DIGITS + 1];
    switch (cli_json_integer_digits(text, digits, sizeof digits, &n)) {
    case JSON_INTEGER:
        return cli_descriptor_text_put(d, digits, n, key, e);
    case JSON_NOT_INTEGER:
        return cli_descriptor_text_put(d, text, strlen(text), key, e);
    case JSON_INTEGER_HUGE:
        break;
    }
    cli_fail(e, CLI_E_OUT_OF_RANGE, NULL, text,
             "a whole number of more than %d digits, past every range", MAX_DIGITS);
    e->key = key;
    return false;
}

/* A JSON number that must be a small integer (a data type's enum value,
 * DimensionCount): its value, or -1. */
static long small_integer(const cJSON *v)
{
    char digits[8];
    size_t n;
    if (!has_type(v, cJSON_Number) ||
        cli_json_integer_digits(json_number_text(v), digits, sizeof digits, &n) != JSON_INTEGER)
        return -1;
    return strtol(digits, NULL, 10);
}

/* A list as the option's text: [1,2] or ["h","w"] -> "1,2" / "h,w"; a string
 * passes as it is. */
static bool list_text(struct descriptor *d, const cJSON *v, const char *key, const char **out,
                      struct cli_error *e)
{
    if (has_type(v, cJSON_String)) {
        *out = v->valuestring;
        return true;
    }
    if (!has_type(v, cJSON_Array))
        return bad_value(e, key, CLI_E_BAD_TYPE, "expected a list, like [1,2,3], or \"1,2,3\"");
    *out = cli_descriptor_text_begin(d);
    bool first = true;
    for (const cJSON *it = v->child; it; it = it->next) {
        if (!first && !cli_descriptor_text_put(d, ",", 1, key, e))
            return false;
        first = false;
        if (has_type(it, cJSON_Number)) {
            if (!put_number(d, it, key, e))
                return false;
        } else if (has_type(it, cJSON_String)) {
            if (!cli_descriptor_text_put(d, it->valuestring, strlen(it->valuestring), key, e))
                return false;
        } else {
            return bad_value(e, key, CLI_E_BAD_TYPE, "list items are numbers or strings");
        }
    }
    return cli_descriptor_text_end(d, key, e);
}

/* A single value: a string as it is, a number as digits. */
static bool scalar_text(struct descriptor *d, const cJSON *v, const char *key, const char **out,
                        struct cli_error *e)
{
    if (has_type(v, cJSON_String)) {
        *out = v->valuestring;
        return true;
    }
    if (!has_type(v, cJSON_Number))
        return bad_value(e, key, CLI_E_BAD_TYPE, "expected a number or a string");
    *out = cli_descriptor_text_begin(d);
    return put_number(d, v, key, e) && cli_descriptor_text_end(d, key, e);
}

/* "DataType": 2 is DML_TENSOR_DATA_TYPE_FLOAT16. */
static bool dtype_text(const cJSON *v, const char *key, const char **out, struct cli_error *e)
{
    if (has_type(v, cJSON_Number)) {
        long x = small_integer(v);
        const struct dmlt_dtype_info *info =
            x >= 1 && x <= DMLT_DTYPE_COUNT ? dmlt_dtype_get((enum dmlt_dtype)x) : NULL;
        if (info == NULL)
            return bad_value(e, key, CLI_E_BAD_DTYPE, "not a DML_TENSOR_DATA_TYPE value (1..13)");
        *out = info->name;
        return true;
    }
    if (!has_type(v, cJSON_String))
        return bad_value(e, key, CLI_E_BAD_TYPE, "expected a data type name, like \"float16\"");
    *out = v->valuestring;
    return true;
}

/* "broadcast": "hw", ["h","w"], [2,3], or per-dim booleans as `size` prints. */
static bool broadcast_text(struct descriptor *d, const cJSON *v, const char *key, const char **out,
                           struct cli_error *e)
{
    if (has_type(v, cJSON_Array) && v->child && cJSON_IsBool(v->child)) {
        unsigned n = 0;
        for (const cJSON *it = v->child; it; it = it->next) {
            if (!cJSON_IsBool(it))
                return bad_value(e, key, CLI_E_BAD_TYPE,
                                 "a list of booleans, one per dimension, or of dimensions");
            if (n == DMLT_MAX_RANK)
                return bad_value(e, key, CLI_E_TOO_MANY_VALUES,
                                 "more than 8 booleans (one per dimension)");
            d->broadcast_check[n++] = cJSON_IsTrue(it);
        }
        d->n_broadcast_check = n;
        /* As a modifier: the dims marked true. */
        *out = cli_descriptor_text_begin(d);
        bool any = false;
        for (unsigned i = 0; i < n; i++) {
            if (!d->broadcast_check[i])
                continue;
            char num[4];
            int len = snprintf(num, sizeof num, any ? ",%u" : "%u", i);
            if (!cli_descriptor_text_put(d, num, (size_t)len, key, e))
                return false;
            any = true;
        }
        if (!any)
            *out = NULL; /* nothing broadcast */
        return any ? cli_descriptor_text_end(d, key, e) : true;
    }
    return list_text(d, v, key, out, e);
}

/* "pad": "w=2", ["h=1","w=2"] or {"w":2}. */
static bool pad_text(struct descriptor *d, const cJSON *v, const char *key, const char **out,
                     struct cli_error *e)
{
    if (!has_type(v, cJSON_Object))
        return list_text(d, v, key, out, e);
    *out = cli_descriptor_text_begin(d);
    bool first = true;
    for (const cJSON *it = v->child; it; it = it->next) {
        if (!first && !cli_descriptor_text_put(d, ",", 1, key, e))
            return false;
        first = false;
        if (!cli_descriptor_text_put(d, it->string, strlen(it->string), key, e) ||
            !cli_descriptor_text_put(d, "=", 1, key, e))
            return false;
        if (!has_type(it, cJSON_Number))
            return bad_value(e, key, CLI_E_BAD_TYPE, "pad amounts are numbers: {\"w\": 2}");
        if (!put_number(d, it, key, e))
            return false;
    }
    return cli_descriptor_text_end(d, key, e);
}

/* ---- the object ----------------------------------------------------------- */

static bool read_command(struct descriptor *d, const cJSON *v, const char *key, struct cli_error *e)
{
    const struct command_list *l = &d->commands;
    const struct command *c = has_type(v, cJSON_String) ? command_named(l, v->valuestring) : NULL;
    if (c && c->batch) {
        d->cfg.cmd = c->id;
        d->cfg.cmd_name = c->name;
        return true;
    }
    /* "not a batch command (size, offset, validate or view)" */
    char names[200] = "";
    size_t count = 0, n = 0;
    for (size_t i = 0; i < l->n; i++)
        count += l->at[i]->batch;
    for (size_t i = 0; i < l->n; i++) {
        if (!l->at[i]->batch)
            continue;
        n++;
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s",
                 n == 1       ? ""
                 : n == count ? " or "
                              : ", ",
                 l->at[i]->name);
    }
    cli_fail(e, CLI_E_BAD_COMMAND, NULL, has_type(v, cJSON_String) ? v->valuestring : NULL,
             "not a batch command (%s)", names);
    e->key = key;
    return false;
}

static bool read_coords(struct descriptor *d, const cJSON *v, const char *key, bool many,
                        struct cli_error *e)
{
    if (!many) {
        d->cfg.n_coords = 1;
        return list_text(d, v, key, &d->coords[0], e);
    }
    if (!has_type(v, cJSON_Array))
        return bad_value(e, key, CLI_E_BAD_TYPE, "expected a list of coordinates: [[0,1],[1,2]]");
    for (const cJSON *it = v->child; it; it = it->next) {
        if (d->cfg.n_coords == DESC_MAX_COORDS)
            return bad_value(e, key, CLI_E_TOO_MANY_VALUES,
                             "more than 256 coordinates in one record");
        if (!list_text(d, it, key, &d->coords[d->cfg.n_coords++], e))
            return false;
    }
    return true;
}

/* "ops": [{"slice":"h=0:2"},{"permute":[1,0]}]: view's operations, in
 * order, each as the option's text (a list is joined with commas). */
static bool read_ops(struct descriptor *d, const cJSON *v, const char *key, struct cli_error *e)
{
    static const struct {
        const char *name, *option;
        enum view_op_kind kind;
    } ops[] = {
        {"slice", "--slice", VOP_SLICE},       {"select", "--select", VOP_SELECT},
        {"permute", "--permute", VOP_PERMUTE}, {"broadcast_to", "--broadcast-to", VOP_BROADCAST_TO},
        {"reshape", "--reshape", VOP_RESHAPE}, {"split", "--split", VOP_SPLIT}};
    const size_t n = sizeof ops / sizeof ops[0];
    if (!has_type(v, cJSON_Array))
        return bad_value(e, key, CLI_E_BAD_TYPE,
                         "expected a list of operations, like [{\"slice\":\"h=0:2\"}]");
    for (const cJSON *it = v->child; it; it = it->next) {
        if (!has_type(it, cJSON_Object) || it->child == NULL || it->child->next != NULL)
            return bad_value(e, key, CLI_E_BAD_OPERATION,
                             "each operation is an object with one key: slice, select, permute, "
                             "broadcast_to, reshape or split");
        const cJSON *op = it->child;
        size_t i = 0;
        while (i < n && strcmp(ops[i].name, op->string) != 0)
            i++;
        if (i == n) {
            cli_fail(e, CLI_E_BAD_OPERATION, NULL, op->string, "not an operation");
            cli_hint(e, "operations: slice, select, permute, broadcast_to, reshape, split");
            e->key = key;
            return false;
        }
        if (d->cfg.n_ops == MAX_VIEW_OPS)
            return bad_value(e, key, CLI_E_TOO_MANY_VALUES, "more than 16 operations");
        if (!list_text(d, op, key, &d->cfg.op_text[d->cfg.n_ops], e))
            return false;
        d->cfg.op_kind[d->cfg.n_ops++] = ops[i].kind;
        bool named = false; /* errors of this option name the key */
        for (unsigned k = 0; k < d->n_from; k++)
            named = named || strcmp(d->from[k].option, ops[i].option) == 0;
        if (!named)
            cli_descriptor_remember(d, ops[i].option, key);
    }
    return true;
}

/* cJSON_GetObjectItemCaseSensitive(obj, "id") without the library call:
 * the first item named "id", looking no further than an item without a
 * name, as cJSON does. */
static const cJSON *find_id(const cJSON *obj)
{
    for (const cJSON *it = obj->child; it && it->string; it = it->next)
        if (it->string[0] == 'i' && it->string[1] == 'd' && it->string[2] == '\0')
            return it;
    return NULL;
}

/* A key `size` prints that batch ignores may still be given once only:
 * the earlier item of obj named as item is, or NULL. */
static const char *earlier_key(const cJSON *obj, const cJSON *item)
{
    for (const cJSON *it = obj->child; it != item; it = it->next)
        if (strcmp(it->string, item->string) == 0)
            return it->string;
    return NULL;
}

/* One key's value k into its slot of d (DimensionCount's kept in
 * *dimension_count, to check against the sizes once all are read). */
static bool read_value(struct descriptor *d, const cJSON *it, const struct desc_key *k,
                       const char *key, const cJSON **dimension_count, struct cli_error *e)
{
    const char **slot = cli_descriptor_slot(d, k->slot);
    bool ok = true;
    switch (k->slot) {
    case DESC_DTYPE:
        ok = dtype_text(it, key, slot, e);
        break;
    case DESC_SIZES:
        ok = list_text(d, it, key, slot, e);
        break;
    case DESC_STRIDES:
        if (has_type(it, cJSON_NULL))
            break; /* as size prints for no strides: none given */
        ok = list_text(d, it, key, slot, e);
        break;
    case DESC_ORDER:
        ok = list_text(d, it, key, slot, e);
        break;
    case DESC_LAYOUT:
        if (has_type(it, cJSON_NULL))
            break; /* `size` prints null when no named layout fits */
        if (!has_type(it, cJSON_String))
            return bad_value(e, key, CLI_E_BAD_TYPE, "expected a layout name, like \"nhwc\"");
        *slot = it->valuestring;
        break;
    case DESC_BROADCAST:
        ok = broadcast_text(d, it, key, slot, e);
        if (*slot)
            d->cfg.t.n_broadcast = 1;
        break;
    case DESC_PAD:
        ok = pad_text(d, it, key, slot, e);
        d->cfg.t.n_pad = 1;
        break;
    case DESC_RANK:
    case DESC_ROW_PITCH:
    case DESC_TOTAL:
    case DESC_ALIGNMENT:
    case DESC_BASE_OFFSET:
    case DESC_FLAGS:
    case DESC_BINDING_SIZE:
    case DESC_BUFFER_SIZE:
        ok = scalar_text(d, it, key, slot, e);
        break;
    case DESC_COORD:
    case DESC_COORDS:
        ok = read_coords(d, it, key, k->slot == DESC_COORDS, e);
        break;
    case DESC_COMMAND:
        ok = read_command(d, it, key, e);
        break;
    case DESC_OPS:
        ok = read_ops(d, it, key, e);
        break;
    case DESC_DIMENSION_COUNT:
        *dimension_count = it;
        break;
    case DESC_ID:
    case DESC_IGNORED:
        break;
    }
    return ok;
}

/* The error for a key no descriptor has (batch's records; scan skips
 * them): a near key's name, or the list of them. */
static void unknown_key(const char *key, struct cli_error *e)
{
    cli_fail(e, CLI_E_UNKNOWN_KEY, NULL, NULL, "not a descriptor key");
    e->key = key;
    const char *s = cli_descriptor_suggest_key(key);
    if (s)
        cli_hint(e, "did you mean \"%s\"?", s);
    else
        cli_hint(e, "keys: dtype sizes strides layout order broadcast pad rank "
                    "total_tensor_size_bytes guaranteed_base_offset_alignment "
                    "base_offset_bytes binding_size_bytes buffer_size_bytes flags "
                    "command coord coords ops id, or "
                    "DirectML's DataType Sizes Strides TotalTensorSizeInBytes "
                    "GuaranteedBaseOffsetAlignment Flags DimensionCount");
}

bool cli_descriptor_from_json(const cJSON *obj, enum descriptor_mode mode, struct descriptor *d,
                              struct cli_error *e)
{
    cli_descriptor_reset(d, mode);
    if (!has_type(obj, cJSON_Object)) {
        cli_fail(e, CLI_E_BAD_RECORD, NULL, NULL,
                 "a descriptor is a JSON object, like {\"sizes\":[1,3,8,8]}");
        return false;
    }
    /* The id first, so that an error in any other key still echoes it. */
    d->id = mode == DESC_BATCH ? find_id(obj) : NULL;
    const cJSON *dimension_count = NULL;
    const char *seen[DESC_IGNORED + 1] = {0}; /* the key that set each slot */
    for (const cJSON *it = obj->child; it; it = it->next) {
        const char *key = it->string;
        const struct desc_key *k = cli_descriptor_key(key, mode);
        if (k == NULL) {
            if (mode == DESC_SCAN)
                continue; /* an operator's own fields */
            unknown_key(key, e);
            return false;
        }
        /* The same key twice, or two spellings of one field ("coord" and
         * "coords" are one field: a coordinate, or a list of them). */
        const enum desc_slot field = k->slot == DESC_COORDS ? DESC_COORD : k->slot;
        const char *before = field == DESC_IGNORED ? earlier_key(obj, it) : seen[field];
        if (before) {
            cli_fail(e, CLI_E_DUPLICATE_KEY, NULL, NULL, "given twice (also as \"%s\")", before);
            e->key = key;
            return false;
        }
        seen[field] = key;
        if (!read_value(d, it, k, key, &dimension_count, e))
            return false;
        cli_descriptor_remember(d, k->option, key);
    }
    if (d->cfg.t.sizes == NULL) {
        cli_fail(e, CLI_E_MISSING_KEY, NULL, NULL, "missing: every descriptor has sizes");
        e->key = mode == DESC_SCAN ? "Sizes" : "sizes";
        cli_hint(e, "for example {\"sizes\":[1,3,224,224]}");
        return false;
    }
    if (dimension_count) {
        /* The sizes as the option reads them, a list or a string alike:
         * one more than their commas (none for an empty text). */
        int n = d->cfg.t.sizes[0] ? 1 : 0;
        for (const char *c = d->cfg.t.sizes; *c; c++)
            n += *c == ',';
        if (small_integer(dimension_count) != n) {
            cli_fail(e, CLI_E_DIMENSION_COUNT, NULL, NULL,
                     "DimensionCount is not the number of Sizes (%d)", n);
            e->key = "DimensionCount";
            return false;
        }
    }
    cli_descriptor_describe_strides(d);
    if (d->cfg.cmd == CMD_OFFSET && d->cfg.n_coords == 0) {
        cli_fail(e, CLI_E_MISSING_KEY, NULL, NULL, "missing: offset needs coord or coords");
        e->key = "coords";
        return false;
    }
    if (d->cfg.cmd != CMD_VIEW && seen[DESC_OPS]) {
        cli_fail(e, CLI_E_UNEXPECTED_KEY, NULL, NULL, "only for \"command\": \"view\"");
        e->key = "ops";
        return false;
    }
    if (d->cfg.cmd != CMD_OFFSET && d->cfg.n_coords != 0) {
        cli_fail(e, CLI_E_UNEXPECTED_KEY, NULL, NULL, "only for \"command\": \"offset\"");
        e->key = "coords";
        return false;
    }
    return true;
}

/* ---- plain records, without a tree ---------------------------------------- */

struct plain {
    const char *p, *end;
};

static void plain_space(struct plain *c)
{
    c->p = json_skip_space(c->p, c->end);
}

/* A string of printable ASCII without '\': [start, start + n), quotes
 * excluded. Anything else (an escape, UTF-8, a control byte, DEL) is left to
 * the general path, whose output may differ from the bytes given. */
static bool plain_string_span(struct plain *c, const char **start, size_t *n)
{
    const char *p = c->p + 1;
    *start = p;
    while (p < c->end && *p != '"') {
        if (*p < 0x20 || *p > 0x7e || *p == '\\')
            return false;
        p++;
    }
    if (p == c->end)
        return false;
    *n = (size_t)(p - *start);
    c->p = p + 1;
    return true;
}

/* An integer as JSON writes it: no sign, no leading zero, no fraction or
 * exponent, at most MAX_DIGITS digits (put_number() refuses more). Its
 * digits are then already the text the option would have had (and the
 * id's text as it is to be echoed). */
static bool plain_integer_span(struct plain *c, const char **start, size_t *n)
{
    const char *p = json_skip_digits(c->p, c->end);
    *start = c->p;
    *n = (size_t)(p - *start);
    if (*n == 0 || *n > MAX_DIGITS || (*n > 1 && **start == '0'))
        return false;
    if (p < c->end && (*p == '.' || *p == 'e' || *p == 'E'))
        return false;
    c->p = p;
    return true;
}

/* A string or an integer, copied into the arena as a NUL-terminated text. */
static bool plain_scalar(struct plain *c, struct descriptor *d, const char **out, bool *is_string)
{
    const char *start;
    size_t n;
    *is_string = c->p < c->end && *c->p == '"';
    if (*is_string ? !plain_string_span(c, &start, &n) : !plain_integer_span(c, &start, &n))
        return false;
    if (n + 1 > sizeof d->arena - d->used)
        return false;
    *out = d->arena + d->used;
    memcpy(d->arena + d->used, start, n);
    d->arena[d->used + n] = '\0';
    d->used += n + 1;
    return true;
}

/* A flat list of strings and integers, as list_text() joins it: "1,2,3". */
static bool plain_list(struct plain *c, struct descriptor *d, const char **out)
{
    c->p++; /* past '[' */
    plain_space(c);
    if (c->p < c->end && *c->p == ']') {
        c->p++;
        if (d->used >= sizeof d->arena)
            return false;
        *out = d->arena + d->used;
        d->arena[d->used++] = '\0';
        return true;
    }
    *out = d->arena + d->used;
    for (;;) {
        const char *start;
        size_t n;
        plain_space(c);
        bool ok = c->p < c->end && *c->p == '"' ? plain_string_span(c, &start, &n)
                                                : plain_integer_span(c, &start, &n);
        if (!ok || n + 1 >= sizeof d->arena - d->used)
            return false;
        memcpy(d->arena + d->used, start, n);
        d->used += n;
        plain_space(c);
        if (c->p == c->end)
            return false;
        if (*c->p == ']') {
            c->p++;
            d->arena[d->used++] = '\0';
            return true;
        }
        if (*c->p != ',')
            return false;
        c->p++;
        d->arena[d->used++] = ',';
    }
}

bool cli_descriptor_from_plain(const char *text, size_t len, struct descriptor *d)
{
    struct plain c = {text, text + len};
    cli_descriptor_reset(d, DESC_BATCH);
    bool seen[DESC_IGNORED + 1] = {false};
    plain_space(&c);
    if (c.p == c.end || *c.p != '{')
        return false;
    c.p++;
    plain_space(&c);
    if (c.p < c.end && *c.p == '}')
        return false; /* no sizes: the general path says so */
    for (;;) {
        /* The key, looked up in place: at most the longest key's length. */
        char key[40];
        const char *start;
        size_t n;
        plain_space(&c);
        if (c.p == c.end || *c.p != '"' || !plain_string_span(&c, &start, &n) || n >= sizeof key)
            return false;
        memcpy(key, start, n);
        key[n] = '\0';
        const struct desc_key *k = cli_descriptor_key(key, DESC_BATCH);
        if (k == NULL || seen[k->slot])
            return false; /* unknown or given twice: the general path words it */
        seen[k->slot] = true;
        plain_space(&c);
        if (c.p == c.end || *c.p != ':')
            return false;
        c.p++;
        plain_space(&c);
        if (c.p == c.end)
            return false;
        const bool list = *c.p == '[';
        const char *value_start = c.p, *value = NULL;
        bool is_string = false;
        if (list ? !plain_list(&c, d, &value) : !plain_scalar(&c, d, &value, &is_string))
            return false; /* null, true, false, an object, a nested list... */
        const char **slot = cli_descriptor_slot(d, k->slot);
        switch (k->slot) {
        case DESC_DTYPE:
            if (list || !is_string)
                return false; /* DataType as a number: the general path */
            *slot = value;
            break;
        case DESC_SIZES:
        case DESC_STRIDES:
        case DESC_ORDER:
        case DESC_BROADCAST:
        case DESC_PAD:
            if (!list && !is_string)
                return false; /* a number where a list belongs: refused there */
            *slot = value;
            if (k->slot == DESC_BROADCAST)
                d->cfg.t.n_broadcast = 1;
            if (k->slot == DESC_PAD)
                d->cfg.t.n_pad = 1;
            break;
        case DESC_LAYOUT:
        case DESC_RANK:
        case DESC_ROW_PITCH:
        case DESC_TOTAL:
        case DESC_ALIGNMENT:
        case DESC_BASE_OFFSET:
        case DESC_FLAGS:
        case DESC_BINDING_SIZE:
        case DESC_BUFFER_SIZE:
            if (list || (k->slot == DESC_LAYOUT && !is_string))
                return false;
            *slot = value;
            break;
        case DESC_COMMAND:
            if (list || !is_string)
                return false;
            if (strcmp(value, "validate") == 0) {
                d->cfg.cmd = CMD_VALIDATE;
                d->cfg.cmd_name = "validate";
            } else if (strcmp(value, "size") != 0) {
                return false; /* offset needs coords; anything else is an error */
            }
            break;
        case DESC_ID:
            if (list)
                return false;
            /* The id's own JSON text, as the general path would echo it:
             * an integer or a plain string, quotes included. */
            d->id_text = value_start;
            d->id_len = (size_t)(c.p - value_start);
            break;
        case DESC_COORD:
        case DESC_COORDS:
        case DESC_DIMENSION_COUNT:
        case DESC_OPS:
        case DESC_IGNORED:
            return false;
        }
        cli_descriptor_remember(d, k->option, k->name);
        plain_space(&c);
        if (c.p == c.end)
            return false;
        if (*c.p == '}')
            break;
        if (*c.p != ',')
            return false;
        c.p++;
    }
    c.p++;
    plain_space(&c);
    if (c.p != c.end || d->cfg.t.sizes == NULL)
        return false;
    cli_descriptor_describe_strides(d);
    return true;
}
