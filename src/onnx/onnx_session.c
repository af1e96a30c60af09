/* onnx_session.c - one model, parsed once per command (onnx_session.h). */
#include "onnx_session.h"

#include <stdlib.h>
#include <string.h>

enum { RECORD_TENSOR = 1, RECORD_NODE = 2 };

/* A node's record: its graph and index (then its path). */
struct node_record {
    uint32_t graph, node;
};

/* ---- the walk's records ---------------------------------------------------- */

/* Appends n bytes; past records_memory every record is let go (each then
 * walks again) and the walk goes on as a check. False when malloc failed. */
static bool put(struct onnx_session *s, const void *p, size_t n)
{
    if (s->records_dropped)
        return true;
    if (n > s->opts.records_memory - s->records_len) {
        free(s->records);
        s->records = NULL;
        s->records_len = s->records_cap = 0;
        s->records_dropped = true;
        return true;
    }
    if (s->records_len + n > s->records_cap) {
        size_t cap = s->records_cap ? s->records_cap : 4096;
        while (cap < s->records_len + n)
            cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
        if (cap > s->opts.records_memory)
            cap = s->opts.records_memory;
        unsigned char *r = realloc(s->records, cap);
        if (r == NULL)
            return false;
        s->records = r;
        s->records_cap = cap;
    }
    memcpy(s->records + s->records_len, p, n);
    s->records_len += n;
    return true;
}

/* One walk of the bytes: the session's own (its records kept), or a
 * caller's again (records let go); the walk hands every callback one
 * context, this. */
struct pass {
    const struct onnx_session_options *opts;
    struct onnx_session *keep; /* the open's walk: records into it */
    onnx_tensor_fn fn;         /* a later walk: the caller's */
    onnx_node_fn node_fn;
    void *ctx;
    bool out_of_memory; /* a record could not be kept */
};

static void pass_release(void *ctx, size_t upto)
{
    const struct pass *p = ctx;
    if (p->opts->release != NULL)
        p->opts->release(p->opts->release_ctx, upto);
}

static bool put_record(struct pass *p, unsigned char tag, const void *rec, size_t n,
                       const char *path)
{
    if (!put(p->keep, &tag, 1) || !put(p->keep, rec, n) || !put(p->keep, path, strlen(path) + 1)) {
        p->out_of_memory = true;
        return false;
    }
    return true;
}

static enum onnx_step keep_tensor(void *ctx, const struct onnx_tensor *t)
{
    struct onnx_tensor copy = *t;
    copy.path = NULL; /* the walk's buffer: the path follows the record */
    return put_record(ctx, RECORD_TENSOR, &copy, sizeof copy, t->path) ? ONNX_STEP_GO
                                                                       : ONNX_STEP_FAIL;
}

static enum onnx_step keep_node(void *ctx, uint32_t graph, uint32_t node, const char *path)
{
    const struct node_record n = {graph, node};
    return put_record(ctx, RECORD_NODE, &n, sizeof n, path) ? ONNX_STEP_GO : ONNX_STEP_FAIL;
}

static enum onnx_step pass_tensor(void *ctx, const struct onnx_tensor *t)
{
    const struct pass *p = ctx;
    return p->fn == NULL ? ONNX_STEP_GO : p->fn(p->ctx, t);
}

static enum onnx_step pass_node(void *ctx, uint32_t graph, uint32_t node, const char *path)
{
    const struct pass *p = ctx;
    return p->node_fn == NULL ? ONNX_STEP_GO : p->node_fn(p->ctx, graph, node, path);
}

bool onnx_session_open(struct onnx_session *s, const uint8_t *data, size_t len,
                       const struct onnx_session_options *o, struct onnx_error *err,
                       bool *out_of_memory)
{
    memset(s, 0, sizeof *s);
    s->data = data;
    s->len = len;
    if (o != NULL)
        s->opts = *o;
    if (s->opts.model_memory == 0)
        s->opts.model_memory = onnx_model_memory_cap(len);
    if (s->opts.records_memory == 0)
        s->opts.records_memory = s->opts.model_memory;
    s->records_dropped = s->opts.no_records;
    struct pass p = {&s->opts, s, NULL, NULL, NULL, false};
    const bool keep = !s->opts.no_records;
    const struct onnx_model_records records = {
        keep ? keep_tensor : NULL, keep && !s->opts.no_node_records ? keep_node : NULL, &p};
    s->has_model =
        onnx_model_read_walking(data, len, s->opts.model_memory, &s->model, err, out_of_memory,
                                s->opts.release, s->opts.release_ctx, &records);
    if (p.out_of_memory) { /* a record could not be kept: the read stopped */
        *out_of_memory = true;
        return onnx__pb_fail(err, 0, "out of memory");
    }
    return s->has_model;
}

/* The records again, from the bytes kept (the walk's order): true at
 * their end or where a callback answered ONNX_STEP_STOP, false where one
 * answered ONNX_STEP_FAIL (its owner knows why). */
static bool replay(const struct onnx_session *s, onnx_tensor_fn fn, onnx_node_fn node_fn, void *ctx)
{
    size_t at = 0, released = 0;
    while (at < s->records_len) {
        const unsigned char tag = s->records[at++];
        if (tag == RECORD_TENSOR) {
            struct onnx_tensor t;
            memcpy(&t, s->records + at, sizeof t);
            at += sizeof t;
            t.path = (const char *)s->records + at;
            at += strlen(t.path) + 1;
            const enum onnx_step step = fn != NULL ? fn(ctx, &t) : ONNX_STEP_GO;
            if (step != ONNX_STEP_GO)
                return step == ONNX_STEP_STOP;
            /* Its message was the last read: the pages before its end may
             * go, as the walk lets them go after each field (a record
             * earlier in the file than the last starts a new pass). */
            if (s->opts.release != NULL && t.dims.end != 0 && t.dims.end != released) {
                released = t.dims.end;
                s->opts.release(s->opts.release_ctx, released);
            }
        } else {
            struct node_record n;
            memcpy(&n, s->records + at, sizeof n);
            at += sizeof n;
            const char *path = (const char *)s->records + at;
            at += strlen(path) + 1;
            const enum onnx_step step =
                node_fn != NULL ? node_fn(ctx, n.graph, n.node, path) : ONNX_STEP_GO;
            if (step != ONNX_STEP_GO)
                return step == ONNX_STEP_STOP;
        }
    }
    return true;
}

bool onnx_session_each(const struct onnx_session *s, onnx_tensor_fn fn, onnx_node_fn node_fn,
                       void *ctx, bool *out_of_memory)
{
    *out_of_memory = false;
    if (!s->records_dropped && (node_fn == NULL || !s->opts.no_node_records))
        return replay(s, fn, node_fn, ctx);
    struct pass p = {&s->opts, NULL, fn, node_fn, ctx, false};
    struct onnx_error err; /* the open walked these bytes whole: only memory can fail */
    return onnx_walk_nodes(s->data, s->len, pass_tensor, pass_node, pass_release, &p, &err,
                           out_of_memory);
}

/* ---- the names each graph declares, the mismatches ----------------------- */

/* name's slot in set (*found: it is there), or the empty slot it takes. */
static size_t slot_of(const struct onnx_session_name *set, size_t mask, uint32_t graph,
                      struct onnx_bytes name, bool *found)
{
    size_t i = onnx_hash_slot(onnx_hash_more(graph, name), mask);
    for (; set[i].name.p; i = (i + 1) & mask)
        if (set[i].graph == graph && onnx_bytes_eq(set[i].name, name)) {
            *found = true;
            return i;
        }
    *found = false;
    return i;
}

static size_t table_cap(size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    return cap;
}

static bool index_declared(struct onnx_session *s)
{
    const struct onnx_model *model = &s->model;
    size_t names = 0;
    for (uint32_t g = 0; g < model->n_graphs; g++)
        names += (size_t)model->graphs[g].n_outputs + model->graphs[g].n_value_info;
    const size_t cap = table_cap(names);
    s->declared_mask = cap - 1;
    s->declared = calloc(cap, sizeof s->declared[0]);
    if (s->declared == NULL)
        return false;
    for (uint32_t g = 0; g < model->n_graphs; g++) {
        const struct onnx_graph *gr = &model->graphs[g];
        for (uint32_t i = 0; i < gr->n_outputs + gr->n_value_info; i++) {
            const struct onnx_bytes name =
                i < gr->n_outputs ? gr->outputs[i].name : gr->value_info[i - gr->n_outputs].name;
            bool found;
            const size_t k = slot_of(s->declared, s->declared_mask, g, name, &found);
            if (!found && name.p != NULL)
                s->declared[k] = (struct onnx_session_name){g, name};
        }
    }
    return true;
}

/* The mismatches by value, the first of each (a value may have several). */
static bool index_mismatches(struct onnx_session *s)
{
    const size_t n = onnx_infer_mismatch_count(s->infer);
    const size_t cap = table_cap(n);
    s->mismatch_mask = cap - 1;
    s->mismatched = calloc(cap, sizeof s->mismatched[0]);
    s->mismatch_at = calloc(cap, sizeof s->mismatch_at[0]);
    if (s->mismatched == NULL || s->mismatch_at == NULL)
        return false;
    for (size_t k = 0; k < n; k++) {
        const struct onnx_infer_mismatch *m = onnx_infer_mismatch_at(s->infer, k);
        bool found;
        const size_t i = slot_of(s->mismatched, s->mismatch_mask, m->graph, m->name, &found);
        if (found || m->name.p == NULL)
            continue;
        s->mismatched[i] = (struct onnx_session_name){m->graph, m->name};
        s->mismatch_at[i] = k;
    }
    return true;
}

bool onnx_session_declared(const struct onnx_session *s, uint32_t graph, struct onnx_bytes name)
{
    bool found = false;
    if (s->declared != NULL && name.p != NULL)
        (void)slot_of(s->declared, s->declared_mask, graph, name, &found);
    return found;
}

const struct onnx_infer_mismatch *onnx_session_mismatch(const struct onnx_session *s,
                                                        uint32_t graph, struct onnx_bytes name)
{
    if (s->mismatched == NULL || name.p == NULL)
        return NULL;
    bool found;
    const size_t i = slot_of(s->mismatched, s->mismatch_mask, graph, name, &found);
    return found ? onnx_infer_mismatch_at(s->infer, s->mismatch_at[i]) : NULL;
}

/* ---- the bindings and the inference ------------------------------------------ */

bool onnx_session_infer(struct onnx_session *s, const struct onnx_infer_options *options)
{
    if (!s->has_model || s->infer != NULL || !index_declared(s))
        return false;
    if (onnx_infer_run(&s->model, options, &s->infer) != ONNX_INFER_OK)
        return false;
    return index_mismatches(s);
}

void onnx_session_close(struct onnx_session *s)
{
    onnx_infer_free(s->infer);
    onnx_model_free(&s->model);
    free(s->records);
    free(s->declared);
    free(s->mismatched);
    free(s->mismatch_at);
    memset(s, 0, sizeof *s);
}
