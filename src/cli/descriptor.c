/* descriptor.c - what a descriptor is (see descriptor.h): the keys and
 * the options they stand for, the slots their texts go to, the texts built
 * in the descriptor's own arena, and naming a key in an error. The sources
 * (source_json.c; ONNX models and more to come) fill descriptors through
 * these functions; this file reads no input. */
#include "descriptor.h"
#include "options.h"
#include "parse.h"

#include <stdio.h>
#include <string.h>

/* The slot each option's keys fill. Their names come from the option
 * table (options.c: key, directml_key), in this order. */
static const struct {
    const char *option;
    enum desc_slot slot;
} option_slots[] = {
    {"--dtype", DESC_DTYPE},
    {"--sizes", DESC_SIZES},
    {"--strides", DESC_STRIDES},
    {"--layout", DESC_LAYOUT},
    {"--order", DESC_ORDER},
    {"--broadcast", DESC_BROADCAST},
    {"--pad", DESC_PAD},
    {"--rank", DESC_RANK},
    {"--row-pitch-align", DESC_ROW_PITCH},
    {"--total-size", DESC_TOTAL},
    {"--alignment", DESC_ALIGNMENT},
    {"--base-offset", DESC_BASE_OFFSET},
    {"--flags", DESC_FLAGS},
    {"--binding-size", DESC_BINDING_SIZE},
    {"--buffer-size", DESC_BUFFER_SIZE},
};

/* The keys that are no option's, after the options' keys. */
static const struct desc_key own_keys[] = {
    {"DimensionCount", DESC_DIMENSION_COUNT, NULL, true},
    {"coord", DESC_COORD, "--coord", false},
    {"coords", DESC_COORDS, "--coord", false},
    {"command", DESC_COMMAND, NULL, false},
    {"ops", DESC_OPS, NULL, false},
    {"id", DESC_ID, NULL, false},
    /* keys `size` prints that describe nothing new */
    {"dml_data_type", DESC_IGNORED, NULL, false},
    {"dml_data_type_value", DESC_IGNORED, NULL, false},
    {"element_size_bits", DESC_IGNORED, NULL, false},
    {"byte_strides", DESC_IGNORED, NULL, false},
    {"element_count", DESC_IGNORED, NULL, false},
    {"index_of_last_element", DESC_IGNORED, NULL, false},
    {"packed_size_bytes", DESC_IGNORED, NULL, false},
    {"minimum_implied_size_bytes", DESC_IGNORED, NULL, false},
    {"padded_size_bytes", DESC_IGNORED, NULL, false},
    {"properties", DESC_IGNORED, NULL, false},
    {"valid", DESC_IGNORED, NULL, false},
    {"diagnostics", DESC_IGNORED, NULL, false},
};

#define N_OPTION_SLOTS (sizeof option_slots / sizeof option_slots[0])
#define N_OWN_KEYS     (sizeof own_keys / sizeof own_keys[0])
#define MAX_KEYS       (2 * N_OPTION_SLOTS + N_OWN_KEYS)

/* Every key: built on first use (not thread-safe, as the CLI needs none). */
static struct desc_key keys[MAX_KEYS];
static size_t n_keys;

static void build_keys(void)
{
    const struct opt_def *options;
    const size_t n_options = cli_options(&options);
    for (size_t i = 0; i < N_OPTION_SLOTS; i++) {
        const struct opt_def *o = NULL;
        for (size_t j = 0; j < n_options && o == NULL; j++)
            if (options[j].key && strcmp(options[j].name, option_slots[i].option) == 0)
                o = &options[j];
        if (o == NULL)
            continue; /* docs/batch.md's table and cli/batch_fields would miss it */
        keys[n_keys++] = (struct desc_key){o->key, option_slots[i].slot, o->name, false};
        if (o->directml_key)
            keys[n_keys++] =
                (struct desc_key){o->directml_key, option_slots[i].slot, o->name, true};
    }
    for (size_t i = 0; i < N_OWN_KEYS; i++)
        keys[n_keys++] = own_keys[i];
}

char *cli_descriptor_text_begin(struct descriptor *d)
{
    return d->arena + d->used;
}

bool cli_descriptor_too_long(const char *key, struct cli_error *e)
{
    cli_fail(e, CLI_E_TOO_LONG, NULL, NULL, "the values are too long (more than %zu bytes in all)",
             sizeof((struct descriptor *)0)->arena);
    e->key = key;
    return false;
}

/* Appends to the text being built; cli_descriptor_text_end() ends it with a NUL. */
bool cli_descriptor_text_put(struct descriptor *d, const char *s, size_t n, const char *key,
                             struct cli_error *e)
{
    if (n >= sizeof d->arena - d->used)
        return cli_descriptor_too_long(key, e);
    memcpy(d->arena + d->used, s, n);
    d->used += n;
    return true;
}

bool cli_descriptor_text_end(struct descriptor *d, const char *key, struct cli_error *e)
{
    if (d->used >= sizeof d->arena)
        return cli_descriptor_too_long(key, e);
    d->arena[d->used++] = '\0';
    return true;
}

/* find_key's index: the keys in chains by first byte, each in table order
 * (so the first match is the one a scan of the table would find). Entries
 * are 1 + an index into keys[], 0 ending a chain. Built on first use. */
static unsigned char first_key[256], next_key[MAX_KEYS];
_Static_assert(MAX_KEYS < 256, "find_key's index holds 1 + a key's index in a byte");
static bool key_index_built;

static void build_key_index(void)
{
    build_keys();
    for (size_t i = n_keys; i-- > 0;) { /* backwards: each key goes first */
        unsigned char b = (unsigned char)keys[i].name[0];
        next_key[i] = first_key[b];
        first_key[b] = (unsigned char)(i + 1);
    }
    key_index_built = true;
}

const struct desc_key *cli_descriptor_key(const char *name, enum descriptor_mode mode)
{
    if (!key_index_built)
        build_key_index();
    for (unsigned i = first_key[(unsigned char)name[0]]; i != 0; i = next_key[i - 1]) {
        const struct desc_key *k = &keys[i - 1];
        if (strcmp(k->name, name) == 0 && (mode == DESC_BATCH || k->directml))
            return k;
    }
    return NULL;
}

const char *cli_descriptor_suggest_key(const char *name)
{
    if (!key_index_built)
        build_key_index();
    const char *names[MAX_KEYS];
    for (size_t i = 0; i < n_keys; i++)
        names[i] = keys[i].name;
    return cli_suggest(name, names, n_keys);
}

const char **cli_descriptor_slot(struct descriptor *d, enum desc_slot s)
{
    struct tensor_args *t = &d->cfg.t;
    switch (s) {
    case DESC_DTYPE:
        return &t->dtype;
    case DESC_SIZES:
        return &t->sizes;
    case DESC_STRIDES:
        return &t->strides;
    case DESC_LAYOUT:
        return &t->layout;
    case DESC_ORDER:
        return &t->order;
    case DESC_BROADCAST:
        return &t->broadcast[0];
    case DESC_PAD:
        return &t->pad[0];
    case DESC_RANK:
        return &t->rank;
    case DESC_ROW_PITCH:
        return &t->row_pitch_align;
    case DESC_TOTAL:
        return &t->total_size;
    case DESC_ALIGNMENT:
        return &t->alignment;
    case DESC_BASE_OFFSET:
        return &t->base_offset;
    case DESC_FLAGS:
        return &t->flags;
    case DESC_BINDING_SIZE:
        return &t->binding_size;
    case DESC_BUFFER_SIZE:
        return &t->buffer_size;
    case DESC_OPS:
    case DESC_COORD:
    case DESC_COORDS:
    case DESC_COMMAND:
    case DESC_ID:
    case DESC_DIMENSION_COUNT:
    case DESC_IGNORED:
        break;
    }
    return NULL;
}

void cli_descriptor_remember(struct descriptor *d, const char *option, const char *key)
{
    if (option && d->n_from < sizeof d->from / sizeof d->from[0]) {
        d->from[d->n_from].option = option;
        d->from[d->n_from].key = key;
        d->n_from++;
    }
}

/* With explicit strides, layout and broadcast booleans only describe them
 * (as `size` prints them): check, do not apply. */
void cli_descriptor_describe_strides(struct descriptor *d)
{
    if (d->cfg.t.strides) {
        d->layout_check = d->cfg.t.layout;
        d->cfg.t.described_layout = d->cfg.t.layout;
        d->cfg.t.layout = NULL;
        if (d->n_broadcast_check) {
            d->cfg.t.broadcast[0] = NULL;
            d->cfg.t.n_broadcast = 0;
        }
    } else {
        d->n_broadcast_check = 0;
    }
}

void cli_descriptor_reset(struct descriptor *d, enum descriptor_mode mode)
{
    memset(&d->cfg, 0, sizeof d->cfg);
    d->id = NULL;
    d->id_text = NULL;
    d->id_len = 0;
    d->layout_check = NULL;
    d->n_broadcast_check = 0;
    d->n_from = 0;
    d->used = 0;
    d->cfg.cmd = mode == DESC_SCAN ? CMD_VALIDATE : CMD_SIZE;
    d->cfg.cmd_name = mode == DESC_SCAN ? "validate" : "size";
    d->cfg.format = FMT_JSON;
    d->cfg.coords = d->coords;
}

void cli_descriptor_name_key(const struct descriptor *d, struct cli_error *e)
{
    if (e->key || e->option == NULL)
        return;
    for (unsigned i = 0; i < d->n_from; i++) {
        if (strcmp(d->from[i].option, e->option) == 0) {
            e->key = d->from[i].key;
            return;
        }
    }
    /* An option no key set (a missing one): its snake_case key. */
    if (!key_index_built)
        build_key_index();
    for (size_t i = 0; i < n_keys; i++) {
        if (keys[i].option && strcmp(keys[i].option, e->option) == 0) {
            e->key = keys[i].name;
            return;
        }
    }
}

bool cli_descriptor_check_described(struct descriptor *d, const struct tensor_desc *t,
                                    struct cli_error *e)
{
    if (d->n_broadcast_check) {
        bool ok = d->n_broadcast_check == t->t.rank;
        for (unsigned i = 0; ok && i < t->t.rank; i++)
            ok = d->broadcast_check[i] == (t->t.sizes[i] > 1 && t->t.strides[i] == 0);
        if (!ok) {
            cli_fail(e, CLI_E_CONFLICTING_KEYS, NULL, NULL,
                     "does not match the strides (a dim is broadcast when its size is over 1 "
                     "and its stride 0)");
            e->key = "broadcast";
            return false;
        }
    }
    if (d->layout_check == NULL)
        return true;
    /* The strides must follow the layout's memory order (padding allowed,
     * as `size` prints for --pad or --row-pitch-align). Only the order is
     * needed: no strides are computed from the layout, which may not have
     * packed strides within 32 bits when a broadcast dim is counted. */
    unsigned order[DMLT_MAX_RANK];
    const unsigned rank = t->t.rank;
    if (dmlt_layout_parse(d->layout_check, strlen(d->layout_check), rank, order) != DMLT_OK) {
        cli_fail(e, CLI_E_BAD_LAYOUT, NULL, d->layout_check, "not a memory order for rank %u",
                 rank);
        e->key = "layout";
        return false;
    }
    if (!dmlt_strides_follow_order(rank, t->t.sizes, t->t.strides, order)) {
        cli_fail(e, CLI_E_CONFLICTING_KEYS, NULL, d->layout_check,
                 "the strides given do not follow this layout's memory order");
        e->key = "layout";
        /* The layout's own strides, with the dims the strides broadcast. */
        struct dmlt_layout_spec spec;
        dmlt_layout_spec_init(&spec, rank);
        memcpy(spec.order, order, sizeof order);
        for (unsigned i = 0; i < rank; i++)
            spec.broadcast[i] = t->t.sizes[i] > 1 && t->t.strides[i] == 0;
        uint32_t strides[DMLT_MAX_RANK];
        struct dmlt_error err;
        struct outbuf b;
        cli_ob_init(&b);
        if (dmlt_strides_from_layout(t->t.dtype, rank, t->t.sizes, &spec, strides, &err) == DMLT_OK)
            cli_ob_u32_list(&b, strides, rank, 1, false);
        ob_putc(&b, '\0');
        if (b.failed || b.len == 1)
            cli_hint(e, "drop \"layout\" or \"strides\"");
        else
            cli_hint(e, "its packed strides are %s; drop \"layout\" or \"strides\"", b.data);
        cli_ob_free(&b);
        return false;
    }
    return true;
}
