/* infer_dump.c - a test tool: runs src/onnx's shape inference on a model
 * and prints every node output's inferred type and shape as JSON Lines.
 *
 *   infer_dump [--dim NAME=V]... [--shape NAME=D1,D2,...]... [--mem BYTES] MODEL
 *
 * MODEL is an ONNX file (mapped as scan maps it, read with onnx_model_read)
 * or, when it ends in .json, the JSON that tests/onnx/onnx_to_json.py
 * writes: the same fields, from python3-onnx, so the inference is tested
 * apart from the wire reader. One line per node output:
 *   {"g":0,"n":3,"o":0,"name":"x","op":"Conv","elem":1,
 *    "shape":[8,64,"floor((H+1)/2)",null],"source":"inferred","reason":null}
 * ("shape" null when the rank is unknown), then {"mismatch":{...}} lines and
 * one {"symbols":[...],"bytes":N} line. Exit 0, or 2 on bad usage or a
 * model it cannot read. */
#include "onnx_infer.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_model.h"
#include "platform.h"

/* ---- allocation: everything the JSON model holds, freed at exit ---- */

struct block {
    struct block *next;
    max_align_t data[];
};
static struct block *blocks;

static void *zalloc(size_t n)
{
    struct block *b = calloc(1, sizeof *b + n + 1);
    if (!b) {
        fprintf(stderr, "infer_dump: out of memory\n");
        exit(2);
    }
    b->next = blocks;
    blocks = b;
    return b->data;
}

static void free_all(void)
{
    while (blocks) {
        struct block *n = blocks->next;
        free(blocks);
        blocks = n;
    }
}

static struct onnx_bytes str_of(const cJSON *s)
{
    struct onnx_bytes b = {(const uint8_t *)"", 0};
    if (cJSON_IsString(s)) {
        size_t n = strlen(s->valuestring);
        uint8_t *p = zalloc(n);
        /* latin-1 from Python: each code point < 256 is one byte */
        size_t k = 0;
        for (const unsigned char *q = (const unsigned char *)s->valuestring; *q; q++) {
            if (*q < 0x80)
                p[k++] = *q;
            else if ((*q & 0xE0) == 0xC0 && q[1]) {
                p[k++] = (uint8_t)(((*q & 0x1F) << 6) | (q[1] & 0x3F));
                q++;
            } else
                p[k++] = *q;
        }
        b.p = p;
        b.n = k;
    }
    return b;
}

static int64_t num(const cJSON *n)
{
    return cJSON_IsNumber(n) ? (int64_t)n->valuedouble : 0;
}

static uint32_t count(const cJSON *a)
{
    return cJSON_IsArray(a) ? (uint32_t)cJSON_GetArraySize(a) : 0;
}

static const int64_t *ints_of(const cJSON *a, uint32_t *n)
{
    *n = count(a);
    int64_t *v = zalloc(*n * sizeof *v);
    uint32_t k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a) v[k++] = num(e);
    return v;
}

static const struct onnx_tensor_data *tensor_of(const cJSON *j)
{
    struct onnx_tensor_data *t = zalloc(sizeof *t);
    t->name = str_of(cJSON_GetObjectItem(j, "name"));
    t->elem_type = (int32_t)num(cJSON_GetObjectItem(j, "elem"));
    t->dims = ints_of(cJSON_GetObjectItem(j, "dims"), &t->rank);
    const cJSON *v = cJSON_GetObjectItem(j, "values");
    if (cJSON_IsArray(v)) {
        t->has_values = true;
        t->values = ints_of(v, &t->n_values);
    }
    const cJSON *f = cJSON_GetObjectItem(j, "floats");
    if (cJSON_IsArray(f)) {
        t->n_floats = count(f);
        float *fv = zalloc((t->n_floats + 1) * sizeof *fv);
        uint32_t k = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, f) fv[k++] = (float)e->valuedouble;
        t->floats = fv;
    }
    return t;
}

static void type_of(const cJSON *j, struct onnx_type *t)
{
    t->value = (enum onnx_value)num(cJSON_GetObjectItem(j, "value"));
    const cJSON *e = cJSON_GetObjectItem(j, "elem"), *s = cJSON_GetObjectItem(j, "shape");
    t->has_elem_type = cJSON_IsNumber(e);
    t->elem_type = (int32_t)num(e);
    if (cJSON_IsArray(s)) {
        t->has_shape = true;
        t->rank = count(s);
        struct onnx_dim *d = zalloc(t->rank * sizeof *d);
        uint32_t k = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, s)
        {
            if (cJSON_IsNumber(x)) {
                d[k].kind = ONNX_DIM_VALUE;
                d[k].value = num(x);
            } else if (cJSON_IsString(x)) {
                d[k].kind = ONNX_DIM_PARAM;
                d[k].param = str_of(x);
            } else {
                d[k].kind = ONNX_DIM_UNKNOWN;
            }
            k++;
        }
        t->dims = d;
    }
    const cJSON *inner = cJSON_GetObjectItem(j, "inner");
    if (cJSON_IsObject(inner)) {
        struct onnx_type *et = zalloc(sizeof *et);
        type_of(inner, et);
        t->elem = et;
    }
}

static const struct onnx_value_info *vis_of(const cJSON *a, uint32_t *n)
{
    *n = count(a);
    struct onnx_value_info *v = zalloc(*n * sizeof *v);
    uint32_t k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        v[k].name = str_of(cJSON_GetObjectItem(e, "name"));
        type_of(cJSON_GetObjectItem(e, "type"), &v[k].type);
        k++;
    }
    return v;
}

static void attr_of(const cJSON *j, struct onnx_attr *a, struct onnx_graph *graphs,
                    uint32_t n_graphs)
{
    const cJSON *x;
    a->name = str_of(cJSON_GetObjectItem(j, "name"));
    a->type = (enum onnx_attr_type)num(cJSON_GetObjectItem(j, "type"));
    if ((x = cJSON_GetObjectItem(j, "i")) != NULL)
        a->i = num(x), a->has_i = true;
    if ((x = cJSON_GetObjectItem(j, "f")) != NULL)
        a->f = (float)x->valuedouble, a->has_f = true;
    if ((x = cJSON_GetObjectItem(j, "s")) != NULL)
        a->s = str_of(x), a->has_s = true;
    if ((x = cJSON_GetObjectItem(j, "ints")) != NULL)
        a->ints = ints_of(x, &a->n_ints);
    if ((x = cJSON_GetObjectItem(j, "floats")) != NULL) {
        a->n_floats = count(x);
        float *f = zalloc(a->n_floats * sizeof *f);
        uint32_t k = 0;
        const cJSON *e;
        cJSON_ArrayForEach(e, x) f[k++] = (float)e->valuedouble;
        a->floats = f;
    }
    if ((x = cJSON_GetObjectItem(j, "t")) != NULL)
        a->t = tensor_of(x);
    if ((x = cJSON_GetObjectItem(j, "g")) != NULL && num(x) >= 0 && num(x) < n_graphs)
        a->g = &graphs[num(x)];
}

static const struct onnx_bytes *names_of(const cJSON *a, uint32_t *n)
{
    *n = count(a);
    struct onnx_bytes *b = zalloc(*n * sizeof *b);
    uint32_t k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a) b[k++] = str_of(e);
    return b;
}

static void graph_of(const cJSON *j, struct onnx_graph *g, struct onnx_graph *graphs, uint32_t n)
{
    int64_t parent = num(cJSON_GetObjectItem(j, "parent"));
    g->parent = parent >= 0 && parent < n ? &graphs[parent] : NULL;
    const cJSON *owner = cJSON_GetObjectItem(j, "owner");
    g->inputs = vis_of(cJSON_GetObjectItem(j, "inputs"), &g->n_inputs);
    g->outputs = vis_of(cJSON_GetObjectItem(j, "outputs"), &g->n_outputs);
    g->value_info = vis_of(cJSON_GetObjectItem(j, "value_info"), &g->n_value_info);
    const cJSON *inits = cJSON_GetObjectItem(j, "initializers"), *e;
    g->n_initializers = count(inits);
    struct onnx_tensor_data *t = zalloc(g->n_initializers * sizeof *t);
    uint32_t k = 0;
    cJSON_ArrayForEach(e, inits) t[k++] = *tensor_of(e);
    g->initializers = t;
    const cJSON *nodes = cJSON_GetObjectItem(j, "nodes");
    g->n_nodes = count(nodes);
    struct onnx_node *nd = zalloc(g->n_nodes * sizeof *nd);
    k = 0;
    cJSON_ArrayForEach(e, nodes)
    {
        nd[k].op_type = str_of(cJSON_GetObjectItem(e, "op"));
        nd[k].domain = str_of(cJSON_GetObjectItem(e, "domain"));
        nd[k].name = str_of(cJSON_GetObjectItem(e, "name"));
        nd[k].inputs = names_of(cJSON_GetObjectItem(e, "inputs"), &nd[k].n_inputs);
        nd[k].outputs = names_of(cJSON_GetObjectItem(e, "outputs"), &nd[k].n_outputs);
        const cJSON *attrs = cJSON_GetObjectItem(e, "attrs"), *a;
        nd[k].n_attrs = count(attrs);
        struct onnx_attr *at = zalloc(nd[k].n_attrs * sizeof *at);
        uint32_t m = 0;
        cJSON_ArrayForEach(a, attrs) attr_of(a, &at[m++], graphs, n);
        nd[k].attrs = at;
        k++;
    }
    g->nodes = nd;
    if (cJSON_IsArray(owner) && count(owner) == 2 && g->parent) {
        int64_t ni = num(cJSON_GetArrayItem(owner, 1));
        if (ni >= 0 && ni < g->parent->n_nodes)
            g->owner = &g->parent->nodes[ni];
    }
}

static bool read_json_model(const char *path, struct onnx_model *m)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = zalloc((size_t)len + 1);
    if (len < 0 || fread(text, 1, (size_t)len, f) != (size_t)len) {
        fclose(f);
        return false;
    }
    fclose(f);
    cJSON *root = cJSON_Parse(text);
    if (!root)
        return false;
    m->ir_version = num(cJSON_GetObjectItem(root, "ir_version"));
    const cJSON *ops = cJSON_GetObjectItem(root, "opsets"), *e;
    m->n_opsets = count(ops);
    struct onnx_opset *os = zalloc(m->n_opsets * sizeof *os);
    uint32_t k = 0;
    cJSON_ArrayForEach(e, ops)
    {
        os[k].domain = str_of(cJSON_GetArrayItem(e, 0));
        os[k].version = num(cJSON_GetArrayItem(e, 1));
        k++;
    }
    m->opsets = os;
    const cJSON *graphs = cJSON_GetObjectItem(root, "graphs");
    m->n_graphs = count(graphs);
    struct onnx_graph *g = zalloc(m->n_graphs * sizeof *g);
    for (uint32_t i = 0; i < m->n_graphs; i++)
        g[i].index = i;
    k = 0;
    /* parents first: graph_of points owners at the parent's nodes */
    cJSON_ArrayForEach(e, graphs) graph_of(e, &g[k++], g, m->n_graphs);
    for (uint32_t i = 0; i < m->n_graphs; i++) /* owners whose parent came later */
        if (g[i].parent && !g[i].owner) {
            const cJSON *owner = cJSON_GetObjectItem(cJSON_GetArrayItem(graphs, (int)i), "owner");
            int64_t ni = num(cJSON_GetArrayItem(owner, 1));
            if (ni >= 0 && ni < g[i].parent->n_nodes)
                g[i].owner = &g[i].parent->nodes[ni];
        }
    m->graphs = g;
    cJSON_Delete(root);
    return true;
}

/* ---- output ---- */

static void put_str(const uint8_t *p, size_t n)
{
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = p[i];
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7F)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

static void put_cstr(const char *s)
{
    if (s)
        put_str((const uint8_t *)s, strlen(s));
    else
        fputs("null", stdout);
}

static void put_value(const struct onnx_infer_value *v)
{
    static const char *const SOURCES[] = {"none", "declared", "inferred"};
    printf(",\"elem\":%d,\"shape\":", (int)v->elem_type);
    if (v->rank < 0) {
        fputs("null", stdout);
    } else {
        putchar('[');
        for (int32_t k = 0; k < v->rank; k++) {
            int64_t c;
            if (k)
                putchar(',');
            if (!v->dims[k]) {
                fputs("null", stdout);
            } else if (onnx_dx_is_const(v->dims[k], &c)) {
                printf("%lld", (long long)c);
            } else {
                char buf[4096];
                onnx_dx_print(v->dims[k], buf, sizeof buf);
                put_cstr(buf);
            }
        }
        putchar(']');
    }
    printf(",\"source\":\"%s\",\"not_tensor\":%s,\"reason\":", SOURCES[v->source],
           v->not_tensor ? "true" : "false");
    put_cstr(v->reason);
}

static void dump(const struct onnx_model *m, const struct onnx_infer *r)
{
    for (uint32_t g = 0; g < m->n_graphs; g++)
        for (uint32_t n = 0; n < m->graphs[g].n_nodes; n++) {
            const struct onnx_node *node = &m->graphs[g].nodes[n];
            for (uint32_t o = 0; o < node->n_outputs; o++) {
                const struct onnx_infer_value *v = onnx_infer_output(r, g, n, o);
                printf("{\"g\":%u,\"n\":%u,\"o\":%u,\"name\":", g, n, o);
                put_str(node->outputs[o].p, node->outputs[o].n);
                fputs(",\"op\":", stdout);
                put_str(node->op_type.p, node->op_type.n);
                put_value(v);
                fputs("}\n", stdout);
            }
        }
    for (size_t i = 0; i < onnx_infer_mismatch_count(r); i++) {
        const struct onnx_infer_mismatch *mm = onnx_infer_mismatch_at(r, i);
        printf("{\"mismatch\":{\"g\":%u,\"name\":", mm->graph);
        put_str(mm->name.p, mm->name.n);
        printf(",\"dim\":%d,\"declared\":%lld,\"inferred\":%lld}}\n", (int)mm->dim,
               (long long)mm->declared, (long long)mm->inferred);
    }
    fputs("{\"symbols\":[", stdout);
    for (size_t i = 0; i < onnx_infer_symbol_count(r); i++) {
        struct onnx_bytes s = onnx_infer_symbol_at(r, i);
        if (i)
            putchar(',');
        put_str(s.p, s.n);
    }
    printf("],\"bytes\":%zu}\n", onnx_infer_bytes(r));
}

static int usage(void)
{
    fprintf(stderr, "usage: infer_dump [--dim NAME=V]... [--shape NAME=D1,D2,...]... "
                    "[--mem BYTES] [--quiet] MODEL.onnx|MODEL.json\n");
    return 2;
}

/* A test tool reads any model whole (a pipe too). */
static size_t any_size(const unsigned char *data, size_t len)
{
    (void)data;
    (void)len;
    return SIZE_MAX - 1;
}

int main(int argc, char **argv)
{
    struct onnx_infer_dim dims[64];
    struct onnx_infer_shape shapes[64];
    struct onnx_infer_options opt = {dims, 0, shapes, 0, 0};
    const char *path = NULL;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        char *eq;
        if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
        } else if (strcmp(argv[i], "--mem") == 0 && i + 1 < argc) {
            opt.mem_cap = (size_t)strtoull(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "--dim") == 0 && i + 1 < argc && opt.n_dims < 64 &&
                   (eq = strchr(argv[i + 1], '='))) {
            dims[opt.n_dims++] = (struct onnx_infer_dim){argv[i + 1], (size_t)(eq - argv[i + 1]),
                                                         strtoll(eq + 1, NULL, 10)};
            i++;
        } else if (strcmp(argv[i], "--shape") == 0 && i + 1 < argc && opt.n_shapes < 64 &&
                   (eq = strchr(argv[i + 1], '='))) {
            int64_t *d = zalloc(64 * sizeof *d);
            uint32_t r = 0;
            for (char *p = eq + 1; *p && r < 64;) {
                d[r++] = strtoll(p, &p, 10);
                if (*p == ',')
                    p++;
                else
                    break;
            }
            shapes[opt.n_shapes++] =
                (struct onnx_infer_shape){argv[i + 1], (size_t)(eq - argv[i + 1]), r, d};
            i++;
        } else if (argv[i][0] == '-' || path) {
            return usage();
        } else {
            path = argv[i];
        }
    }
    if (!path)
        return usage();
    struct onnx_model model = {0};
    struct plat_map map = {0};
    bool mapped = false;
    size_t plen = strlen(path);
    bool json = plen > 5 && strcmp(path + plen - 5, ".json") == 0;
    if (json) {
        if (!read_json_model(path, &model)) {
            fprintf(stderr, "infer_dump: %s: cannot read the JSON model\n", path);
            free_all();
            return 2;
        }
    } else {
        int err = 0;
        struct onnx_error oe;
        bool oom = false;
        if (!cli_plat_map_file(path, any_size, &map, &err) || map.truncated) {
            fprintf(stderr, "infer_dump: %s: cannot read it (errno %d)\n", path, err);
            return 2;
        }
        mapped = true;
        if (!onnx_model_read(map.data, map.len, &model, &oe, &oom)) {
            fprintf(stderr, "infer_dump: %s: %s\n", path, oe.message);
            cli_plat_unmap_file(&map);
            return 2;
        }
    }
    struct onnx_infer *r;
    if (onnx_infer_run(&model, &opt, &r) != ONNX_INFER_OK) {
        fprintf(stderr, "infer_dump: out of memory\n");
        free_all();
        return 2;
    }
    if (!quiet)
        dump(&model, r);
    onnx_infer_free(r);
    if (mapped) {
        onnx_model_free(&model);
        cli_plat_unmap_file(&map);
    }
    free_all();
    return 0;
}
