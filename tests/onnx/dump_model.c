/* dump_model.c - onnx_model_read's model as JSON, for check_onnx_model.py
 * to compare with python3-onnx's onnx.load.
 *
 *   dump_model FILE...   one JSON line per file: the model, or
 *                        {"error": MESSAGE, "offset": N, "limit": BOOL}
 *   dump_model --count FILE...   {"graphs": N, "nodes": N, "values": N}
 *
 * Text from the model is written as hex (it may be any bytes); a float as
 * its 32 bits. */
#include "onnx_model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex(struct onnx_bytes b)
{
    putchar('"');
    for (size_t i = 0; i < b.n; i++)
        printf("%02x", b.p[i]);
    putchar('"');
}

static void i64s(uint32_t n, const int64_t *v)
{
    putchar('[');
    for (uint32_t i = 0; i < n; i++)
        printf("%s%" PRId64, i ? "," : "", v[i]);
    putchar(']');
}

static void tensor(const struct onnx_tensor_data *t)
{
    printf("{\"name\":");
    hex(t->name);
    printf(",\"elem_type\":%" PRId32 ",\"dims\":", t->elem_type);
    i64s(t->rank, t->dims);
    printf(",\"external\":%s,\"sparse\":%s,\"values\":", t->external ? "true" : "false",
           t->sparse ? "true" : "false");
    if (t->has_values)
        i64s(t->n_values, t->values);
    else
        printf("null");
    printf(",\"floats\":");
    if (t->floats) {
        putchar('[');
        for (uint32_t i = 0; i < t->n_floats; i++) {
            uint32_t bits;
            memcpy(&bits, &t->floats[i], sizeof bits);
            printf("%s%" PRIu32, i ? "," : "", bits);
        }
        putchar(']');
    } else {
        printf("null");
    }
    putchar('}');
}

/* A type's fields: value, elem_type, shape, and a sequence's or
 * optional's tensor element type as "inner". */
static void type_fields(const struct onnx_type *t)
{
    printf("\"value\":%d", (int)t->value);
    if (t->has_elem_type)
        printf(",\"elem_type\":%" PRId32, t->elem_type);
    if (t->elem) {
        printf(",\"inner\":{");
        type_fields(t->elem);
        putchar('}');
    }
    printf(",\"shape\":");
    if (!t->has_shape) {
        printf("null");
        return;
    }
    putchar('[');
    for (uint32_t i = 0; i < t->rank; i++) {
        const struct onnx_dim *d = &t->dims[i];
        if (i)
            putchar(',');
        if (d->kind == ONNX_DIM_VALUE)
            printf("%" PRId64, d->value);
        else if (d->kind == ONNX_DIM_PARAM)
            hex(d->param);
        else
            printf("null");
    }
    putchar(']');
}

static void value_info(const struct onnx_value_info *v)
{
    printf("{\"name\":");
    hex(v->name);
    putchar(',');
    type_fields(&v->type);
    putchar('}');
}

static void attr(const struct onnx_attr *a)
{
    printf("{\"name\":");
    hex(a->name);
    printf(",\"type\":%d", (int)a->type);
    if (a->has_f) {
        uint32_t bits;
        memcpy(&bits, &a->f, sizeof bits);
        printf(",\"f\":%" PRIu32, bits);
    }
    if (a->has_i)
        printf(",\"i\":%" PRId64, a->i);
    if (a->has_s) {
        printf(",\"s\":");
        hex(a->s);
    }
    printf(",\"floats\":[");
    for (uint32_t i = 0; i < a->n_floats; i++) {
        uint32_t bits;
        memcpy(&bits, &a->floats[i], sizeof bits);
        printf("%s%" PRIu32, i ? "," : "", bits);
    }
    printf("],\"ints\":");
    i64s(a->n_ints, a->ints);
    printf(",\"strings\":[");
    for (uint32_t i = 0; i < a->n_strings; i++) {
        if (i)
            putchar(',');
        hex(a->strings[i]);
    }
    printf("],\"tensors\":[");
    for (uint32_t i = 0; i < a->n_tensors; i++) {
        if (i)
            putchar(',');
        tensor(&a->tensors[i]);
    }
    printf("],\"graphs\":[");
    for (uint32_t i = 0; i < a->n_graphs; i++)
        printf("%s%" PRIu32, i ? "," : "", a->graphs[i]->index);
    putchar(']');
    if (a->t) {
        printf(",\"t\":");
        tensor(a->t);
    }
    if (a->g)
        printf(",\"g\":%" PRIu32, a->g->index);
    if (a->sparse_tensor) {
        printf(",\"sparse_tensor\":");
        tensor(a->sparse_tensor);
    }
    putchar('}');
}

static void node(const struct onnx_node *n)
{
    printf("{\"op_type\":");
    hex(n->op_type);
    printf(",\"domain\":");
    hex(n->domain);
    printf(",\"name\":");
    hex(n->name);
    printf(",\"inputs\":[");
    for (uint32_t i = 0; i < n->n_inputs; i++) {
        if (i)
            putchar(',');
        hex(n->inputs[i]);
    }
    printf("],\"outputs\":[");
    for (uint32_t i = 0; i < n->n_outputs; i++) {
        if (i)
            putchar(',');
        hex(n->outputs[i]);
    }
    printf("],\"attrs\":[");
    for (uint32_t i = 0; i < n->n_attrs; i++) {
        if (i)
            putchar(',');
        attr(&n->attrs[i]);
    }
    printf("]}");
}

static void values(const char *key, uint32_t n, const struct onnx_value_info *v)
{
    printf(",\"%s\":[", key);
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            putchar(',');
        value_info(&v[i]);
    }
    putchar(']');
}

static void graph(const struct onnx_model *m, const struct onnx_graph *g)
{
    printf("{\"index\":%" PRIu32 ",\"parent\":", g->index);
    if (g->parent)
        printf("%" PRIu32, g->parent->index);
    else
        printf("null");
    /* the owner: where its node is, (graph, node) */
    printf(",\"owner\":");
    if (g->owner && g->parent)
        printf("%td", g->owner - g->parent->nodes);
    else
        printf("null");
    printf(",\"nodes\":[");
    for (uint32_t i = 0; i < g->n_nodes; i++) {
        if (i)
            putchar(',');
        node(&g->nodes[i]);
    }
    putchar(']');
    values("inputs", g->n_inputs, g->inputs);
    values("outputs", g->n_outputs, g->outputs);
    values("value_info", g->n_value_info, g->value_info);
    printf(",\"initializers\":[");
    for (uint32_t i = 0; i < g->n_initializers; i++) {
        if (i)
            putchar(',');
        tensor(&g->initializers[i]);
    }
    printf("]}");
    (void)m;
}

/* --count: the counts only (tests/bench/bench_onnx_model.sh) */
static void counts(const struct onnx_model *m)
{
    uint64_t nodes = 0, values = 0;
    for (uint32_t i = 0; i < m->n_graphs; i++) {
        const struct onnx_graph *g = &m->graphs[i];
        nodes += g->n_nodes;
        values += (uint64_t)g->n_inputs + g->n_outputs + g->n_value_info + g->n_initializers;
    }
    printf("{\"graphs\":%" PRIu32 ",\"nodes\":%" PRIu64 ",\"values\":%" PRIu64 "}\n", m->n_graphs,
           nodes, values);
}

/* The whole file in a buffer of exactly its size (ASan sees a read past
 * the model). */
static uint8_t *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        perror(path);
        return NULL;
    }
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    uint8_t *data =
        size >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc(size ? (size_t)size : 1) : NULL;
    if (data != NULL && fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data == NULL)
        fprintf(stderr, "%s: cannot read it\n", path);
    *len = data ? (size_t)size : 0;
    return data;
}

static int dump(const char *path, bool count_only)
{
    size_t len = 0;
    uint8_t *exact = read_file(path, &len);
    if (exact == NULL)
        return 1;
    struct onnx_model m;
    struct onnx_error e;
    bool oom;
    if (!onnx_model_read(exact, len, &m, &e, &oom)) {
        printf("{\"error\":\"");
        for (const char *c = e.message; *c; c++)
            printf(*c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
        printf("\",\"offset\":%zu,\"limit\":%s,\"oom\":%s}\n", e.offset, e.limit ? "true" : "false",
               oom ? "true" : "false");
        free(exact);
        return 0;
    }
    if (count_only) {
        counts(&m);
        onnx_model_free(&m);
        free(exact);
        return 0;
    }
    printf("{\"ir_version\":%" PRId64 ",\"producer_name\":", m.ir_version);
    hex(m.producer_name);
    printf(",\"producer_version\":");
    hex(m.producer_version);
    printf(",\"opset\":%" PRId64 ",\"opsets\":[", onnx_model_opset(&m));
    for (uint32_t i = 0; i < m.n_opsets; i++) {
        printf("%s[", i ? "," : "");
        hex(m.opsets[i].domain);
        printf(",%" PRId64 "]", m.opsets[i].version);
    }
    printf("],\"graphs\":[");
    for (uint32_t i = 0; i < m.n_graphs; i++) {
        if (i)
            putchar(',');
        graph(&m, &m.graphs[i]);
    }
    printf("]}\n");
    onnx_model_free(&m);
    free(exact);
    return 0;
}

int main(int argc, char **argv)
{
    int status = 0;
    const bool count_only = argc > 1 && strcmp(argv[1], "--count") == 0;
    for (int i = count_only ? 2 : 1; i < argc; i++)
        status |= dump(argv[i], count_only);
    return status;
}
