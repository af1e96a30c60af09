/* scan_dxdispatch.c - see scan_dxdispatch.h. Byte counts are uint64_t, as
 * DML_BUFFER_BINDING's are, and every product and sum is checked: a value
 * past 2^64-1 is an error that says so, never a wrapped number. */
#include "scan_dxdispatch.h"
#include "json_parse.h"
#include "parse.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct walk {
    const cJSON *resources, *dispatchables;
    dxd_binding_fn fn;
    void *ctx;
    struct outbuf path, tensor_path;
    enum onnx_step step; /* fn's last answer: the walk goes on while ONNX_STEP_GO */
};

/* One binding to fn, unless it asked to stop. */
static void call(struct walk *w, const struct dxd_binding *b, const struct cli_error *e)
{
    if (w->step == ONNX_STEP_GO)
        w->step = w->fn(w->ctx, b, e);
}

static bool has_type(const cJSON *v, int type)
{
    return v != NULL && (v->type & 0xFF) == type;
}

static bool is_tensor(const cJSON *v)
{
    return has_type(v, cJSON_Object) && cJSON_GetObjectItemCaseSensitive(v, "DataType") &&
           cJSON_GetObjectItemCaseSensitive(v, "Sizes");
}

static bool equals_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (ascii_lower(*a) != ascii_lower(*b))
            return false;
    return *a == *b;
}

static void push_index(struct outbuf *p, unsigned long i)
{
    ob_putc(p, '[');
    ob_u64(p, i);
    ob_putc(p, ']');
}

/* The paths as C strings: NUL-terminated in place, the NUL dropped again
 * by the next push (each push starts at len). */
static const char *path_text(struct outbuf *p)
{
    ob_putc(p, '\0');
    p->len--;
    return p->failed ? "$" : p->data;
}

static bool u64_mul(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

static bool u64_add(uint64_t a, uint64_t b, uint64_t *out)
{
    if (b > UINT64_MAX - a)
        return false;
    *out = a + b;
    return true;
}

/* Bytes that count elements of `bits` bits take: ceil(count x bits / 8). */
static bool bytes_of(uint64_t count, uint64_t bits, uint64_t *out)
{
    if (bits < 8) { /* 4-bit: two a byte */
        *out = count / 2 + count % 2;
        return true;
    }
    return u64_mul(count, bits / 8, out);
}

static bool out_of_range(struct cli_error *e, const char *key, const char *what)
{
    cli_fail(e, CLI_E_OUT_OF_RANGE, NULL, NULL, "%s is past 2^64-1 bytes", what);
    e->key = key;
    return false;
}

/* A count or byte size: a JSON number or a string of digits, up to 2^64-1,
 * read exactly as the command line reads its numbers. */
static bool read_u64(const cJSON *v, const char *key, uint64_t *out, struct cli_error *e)
{
    char buf[48];
    const char *text = buf;
    if (has_type(v, cJSON_String)) {
        text = v->valuestring;
    } else if (has_type(v, cJSON_Number)) {
        /* Read exactly from the number's text, as batch reads its keys: a
         * whole number as its digits, a fraction or a negative number as
         * written, for cli_parse_uint to refuse with its own message. */
        size_t n;
        switch (cli_json_integer_digits(json_number_text(v), buf, sizeof buf, &n)) {
        case JSON_INTEGER:
            break;
        case JSON_NOT_INTEGER:
            text = json_number_text(v);
            break;
        case JSON_INTEGER_HUGE:
            return out_of_range(e, key, key);
        }
    } else {
        cli_fail(e, CLI_E_BAD_TYPE, NULL, NULL, "expected a number");
        e->key = key;
        return false;
    }
    if (!cli_parse_uint(text, strlen(text), 0, UINT64_MAX, out, e, NULL, text, key, NULL)) {
        e->key = key;
        return false;
    }
    return true;
}

/* An optional number: 0 when absent. */
static bool read_opt(const cJSON *obj, const char *key, uint64_t *out, struct cli_error *e)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = 0;
    return v == NULL || read_u64(v, key, out, e);
}

/* The bits of a data type name ("FLOAT16", "DML_TENSOR_DATA_TYPE_INT8"),
 * or 0 (absent, UNKNOWN, not a type). */
static unsigned dtype_bits(const cJSON *v)
{
    enum dmlt_dtype t;
    if (has_type(v, cJSON_String) &&
        dmlt_dtype_parse(v->valuestring, strlen(v->valuestring), &t) == DMLT_OK)
        return dmlt_dtype_get(t)->bits;
    if (has_type(v, cJSON_Number) && v->valuedouble >= 1 && v->valuedouble <= DMLT_DTYPE_COUNT &&
        v->valuedouble == floor(v->valuedouble))
        return dmlt_dtype_get((enum dmlt_dtype)v->valuedouble)->bits;
    return 0;
}

/* The resource's size in bytes, when the model says it (see the header). */
static bool resource_size(const cJSON *res, bool *known, uint64_t *size, struct cli_error *e)
{
    *known = false;
    const cJSON *given = cJSON_GetObjectItemCaseSensitive(res, "sizeInBytes");
    if (given) {
        *known = true;
        return read_u64(given, "sizeInBytes", size, e);
    }
    unsigned bits = dtype_bits(cJSON_GetObjectItemCaseSensitive(res, "initialValuesDataType"));
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(res, "initialValues");
    const cJSON *value_count = has_type(values, cJSON_Object)
                                   ? cJSON_GetObjectItemCaseSensitive(values, "valueCount")
                                   : NULL;
    /* Unknown for an UNKNOWN data type (typed entries), values from a file
     * (sourcePath) or "deferred": those are sized elsewhere. */
    if (bits == 0 || (!has_type(values, cJSON_Array) && value_count == NULL))
        return true;
    uint64_t count = (uint64_t)cJSON_GetArraySize(values);
    if (value_count && !read_u64(value_count, "valueCount", &count, e))
        return false;
    uint64_t offset, bytes;
    if (!read_opt(res, "initialValuesOffsetInBytes", &offset, e))
        return false;
    if (!bytes_of(count, bits, &bytes) || !u64_add(bytes, offset, &bytes) ||
        !u64_add(bytes, 3, &bytes))
        return out_of_range(e, "initialValues", "the resource's size");
    *size = bytes / 4 * 4; /* rounded up to 4, as DxDispatch does */
    *known = true;
    return true;
}

/* One source bound to one tensor. */
static void bind_one(struct walk *w, const cJSON *src, const cJSON *tensor)
{
    struct dxd_binding b;
    memset(&b, 0, sizeof b);
    struct cli_error e;
    b.path = path_text(&w->path);
    b.tensor_path = path_text(&w->tensor_path);
    b.tensor = tensor;
    uint64_t elem_offset = 0, elem_count = 0, elem_size = 0;
    if (has_type(src, cJSON_String)) {
        b.resource = src->valuestring;
    } else if (has_type(src, cJSON_Object)) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(src, "name");
        if (!has_type(name, cJSON_String)) {
            cli_fail(&e, CLI_E_BAD_BINDING, NULL, NULL, "a binding range names its resource");
            cli_hint(&e,
                     "for example {\"name\": \"A\", \"elementOffset\": 4, \"elementCount\": 8}");
            e.key = "name";
            call(w, &b, &e);
            return;
        }
        b.resource = name->valuestring;
        if (!read_opt(src, "elementOffset", &elem_offset, &e) ||
            !read_opt(src, "elementCount", &elem_count, &e) ||
            !read_opt(src, "elementSizeInBytes", &elem_size, &e)) {
            call(w, &b, &e);
            return;
        }
    } else {
        cli_fail(&e, CLI_E_BAD_BINDING, NULL, NULL,
                 "a binding is a resource's name, an object with \"name\", or a list of those");
        call(w, &b, &e);
        return;
    }
    const cJSON *res = cJSON_GetObjectItemCaseSensitive(w->resources, b.resource);
    if (!has_type(res, cJSON_Object)) {
        cli_fail(&e, CLI_E_RESOURCE_MISSING, NULL, b.resource,
                 "no resource named \"%.200s\" in $.resources", b.resource);
        call(w, &b, &e);
        return;
    }
    if (!resource_size(res, &b.has_buffer_size, &b.buffer_size, &e)) {
        call(w, &b, &e);
        return;
    }
    /* The element size, in bits: elementSizeInBytes, else the resource's
     * data type, else the tensor's. */
    uint64_t bits = elem_size;
    if (bits != 0 && !u64_mul(bits, 8, &bits)) {
        out_of_range(&e, "elementSizeInBytes", "the element size");
        call(w, &b, &e);
        return;
    }
    if (bits == 0)
        bits = dtype_bits(cJSON_GetObjectItemCaseSensitive(res, "initialValuesDataType"));
    if (bits == 0)
        bits = dtype_bits(cJSON_GetObjectItemCaseSensitive(tensor, "DataType"));
    if (bits == 0 && (elem_offset || elem_count)) {
        cli_fail(&e, CLI_E_ELEMENT_SIZE_UNKNOWN, NULL, b.resource,
                 "the element size is unknown: the resource has no initialValuesDataType and the "
                 "tensor no DataType dmltensor knows");
        cli_hint(&e, "give elementSizeInBytes");
        call(w, &b, &e);
        return;
    }
    /* Offset: a whole number of bytes (two 4-bit elements a byte). */
    bool ok = bits < 8 ? elem_offset % 2 == 0 : u64_mul(elem_offset, bits / 8, &b.offset);
    if (bits < 8)
        b.offset = elem_offset / 2;
    if (!ok) {
        if (bits < 8)
            cli_fail(&e, CLI_E_BAD_BINDING, NULL, NULL,
                     "elementOffset %llu of 4-bit elements is not a whole byte",
                     (unsigned long long)elem_offset);
        else
            out_of_range(&e, "elementOffset", "the binding's offset");
        e.key = "elementOffset";
        call(w, &b, &e);
        return;
    }
    if (elem_count != 0) {
        if (!bytes_of(elem_count, bits, &b.size)) {
            out_of_range(&e, "elementCount", "the binding's size");
            call(w, &b, &e);
            return;
        }
        b.has_size = true;
    } else if (b.has_buffer_size) { /* the rest of the buffer */
        b.size = b.offset <= b.buffer_size ? b.buffer_size - b.offset : 0;
        b.has_size = true;
    }
    call(w, &b, NULL);
}

/* A dispatchable whose bindings name tensor fields: a DirectML operator. */
static const cJSON *operator_desc(const cJSON *dispatchable)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(dispatchable, "type");
    if (has_type(type, cJSON_String) &&
        (equals_nocase(type->valuestring, "hlsl") || equals_nocase(type->valuestring, "onnx") ||
         equals_nocase(type->valuestring, "dmlSerializedGraph")))
        return NULL;
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(dispatchable, "desc");
    return has_type(desc, cJSON_Object) ? desc : NULL;
}

/* Each member of a "bindings" object against the desc's tensor fields.
 * w->path holds the bindings' path; name is the dispatchable's. */
static void bind_fields(struct walk *w, const char *name, const cJSON *desc, const cJSON *bindings)
{
    const size_t mark = w->path.len;
    for (const cJSON *f = bindings->child; f && w->step == ONNX_STEP_GO; f = f->next) {
        cli_ob_json_path_key(&w->path, f->string);
        cli_ob_reset(&w->tensor_path);
        ob_putc(&w->tensor_path, '$');
        cli_ob_json_path_key(&w->tensor_path, "dispatchables");
        cli_ob_json_path_key(&w->tensor_path, name);
        cli_ob_json_path_key(&w->tensor_path, "desc");
        cli_ob_json_path_key(&w->tensor_path, f->string);
        const size_t tmark = w->tensor_path.len;
        const cJSON *field = cJSON_GetObjectItemCaseSensitive(desc, f->string);
        const bool many = has_type(field, cJSON_Array);
        const bool list = has_type(f, cJSON_Array);
        int tensors = many ? cJSON_GetArraySize(field) : is_tensor(field) ? 1 : 0;
        int sources = list ? cJSON_GetArraySize(f) : 1;
        struct dxd_binding b;
        memset(&b, 0, sizeof b);
        struct cli_error e;
        if (tensors == 0 && many) {
            b.path = path_text(&w->path);
            cli_fail(&e, CLI_E_BINDING_COUNT, NULL, NULL, "bound to an empty list of tensors");
            e.key = f->string;
            call(w, &b, &e);
        } else if (tensors == 0) {
            b.path = path_text(&w->path);
            cli_fail(&e, CLI_E_BINDING_FIELD, NULL, NULL,
                     "the desc of dispatchable \"%.200s\" has no tensor field of this name", name);
            e.key = f->string;
            call(w, &b, &e);
        } else if (tensors != sources) {
            b.path = path_text(&w->path);
            b.tensor_path = path_text(&w->tensor_path);
            cli_fail(&e, CLI_E_BINDING_COUNT, NULL, NULL, "%d resource%s bound to %d tensor%s",
                     sources, sources == 1 ? "" : "s", tensors, tensors == 1 ? "" : "s");
            cli_hint(&e, "bind one resource to each tensor of the list, in order");
            e.key = f->string;
            call(w, &b, &e);
        } else {
            const cJSON *src = list ? f->child : f;
            const cJSON *tensor = many ? field->child : field;
            for (unsigned long i = 0; src && tensor && w->step == ONNX_STEP_GO;
                 i++, src = src->next, tensor = tensor->next) {
                const size_t smark = w->path.len;
                if (list)
                    push_index(&w->path, i);
                if (many)
                    push_index(&w->tensor_path, i);
                if (is_tensor(tensor)) {
                    bind_one(w, src, tensor);
                } else {
                    b.path = path_text(&w->path);
                    b.tensor_path = path_text(&w->tensor_path);
                    cli_fail(&e, CLI_E_BINDING_FIELD, NULL, NULL,
                             "bound to a tensor field that holds no tensor description (DataType "
                             "and Sizes)");
                    e.key = f->string;
                    call(w, &b, &e);
                }
                w->path.len = smark;
                w->tensor_path.len = tmark;
                if (!list && !many)
                    break;
            }
        }
        w->path.len = mark;
    }
}

bool cli_dxd_is_model(const cJSON *root)
{
    return has_type(root, cJSON_Object) &&
           has_type(cJSON_GetObjectItemCaseSensitive(root, "resources"), cJSON_Object) &&
           has_type(cJSON_GetObjectItemCaseSensitive(root, "dispatchables"), cJSON_Object) &&
           has_type(cJSON_GetObjectItemCaseSensitive(root, "commands"), cJSON_Array);
}

enum onnx_step cli_dxd_scan_bindings(const cJSON *root, dxd_binding_fn fn, void *ctx)
{
    struct walk w;
    w.resources = cJSON_GetObjectItemCaseSensitive(root, "resources");
    w.dispatchables = cJSON_GetObjectItemCaseSensitive(root, "dispatchables");
    w.fn = fn;
    w.ctx = ctx;
    w.step = ONNX_STEP_GO;
    cli_ob_init(&w.path);
    cli_ob_init(&w.tensor_path);

    /* A dispatchable's own bindings, made when it is initialized. */
    for (const cJSON *d = w.dispatchables->child; d && w.step == ONNX_STEP_GO; d = d->next) {
        const cJSON *desc = operator_desc(d);
        const cJSON *bindings = cJSON_GetObjectItemCaseSensitive(d, "bindings");
        if (desc == NULL || !has_type(bindings, cJSON_Object))
            continue;
        cli_ob_reset(&w.path);
        ob_putc(&w.path, '$');
        cli_ob_json_path_key(&w.path, "dispatchables");
        cli_ob_json_path_key(&w.path, d->string);
        cli_ob_json_path_key(&w.path, "bindings");
        bind_fields(&w, d->string, desc, bindings);
    }

    /* Each dispatch command's. */
    const cJSON *commands = cJSON_GetObjectItemCaseSensitive(root, "commands");
    unsigned long i = 0;
    for (const cJSON *c = commands->child; c && w.step == ONNX_STEP_GO; c = c->next, i++) {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(c, "type");
        if (!has_type(type, cJSON_String) || !equals_nocase(type->valuestring, "dispatch"))
            continue;
        cli_ob_reset(&w.path);
        ob_putc(&w.path, '$');
        cli_ob_json_path_key(&w.path, "commands");
        push_index(&w.path, i);
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "dispatchable");
        const cJSON *d = has_type(name, cJSON_String)
                             ? cJSON_GetObjectItemCaseSensitive(w.dispatchables, name->valuestring)
                             : NULL;
        const cJSON *bindings = cJSON_GetObjectItemCaseSensitive(c, "bindings");
        struct dxd_binding b;
        memset(&b, 0, sizeof b);
        struct cli_error e;
        if (d == NULL) {
            cli_ob_json_path_key(&w.path, "dispatchable");
            b.path = path_text(&w.path);
            const char *missing = has_type(name, cJSON_String) ? name->valuestring : NULL;
            if (missing)
                cli_fail(&e, CLI_E_DISPATCHABLE_MISSING, NULL, missing,
                         "no dispatchable named \"%.200s\" in $.dispatchables", missing);
            else
                cli_fail(&e, CLI_E_DISPATCHABLE_MISSING, NULL, NULL,
                         "a dispatch command names its dispatchable");
            e.key = "dispatchable";
            call(&w, &b, &e);
            continue;
        }
        const cJSON *desc = operator_desc(d);
        if (desc == NULL)
            continue; /* shader registers or graph inputs: no tensor fields */
        cli_ob_json_path_key(&w.path, "bindings");
        if (!has_type(bindings, cJSON_Object)) {
            b.path = path_text(&w.path);
            cli_fail(&e, CLI_E_BAD_BINDING, NULL, NULL,
                     "a dispatch command's bindings are an object: tensor field -> resource");
            e.key = "bindings";
            call(&w, &b, &e);
            continue;
        }
        bind_fields(&w, d->string, desc, bindings);
    }
    const bool oom = w.path.failed || w.tensor_path.failed;
    cli_ob_free(&w.path);
    cli_ob_free(&w.tensor_path);
    return oom ? ONNX_STEP_FAIL : w.step;
}
