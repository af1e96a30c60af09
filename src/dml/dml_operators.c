/* dml_operators.c - lookups over the generated DirectML operator tables
 * (dml_operator_table.c, written by tools/gen_dml_tables.py). */
#include "dml_operators.h"

#include <string.h>

#include "dml_operator_table.h"

static int eq_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'a' && x <= 'z')
            x = (char)(x - 'a' + 'A');
        if (y >= 'a' && y <= 'z')
            y = (char)(y - 'a' + 'A');
        if (x != y)
            return 0;
    }
    return *a == *b;
}

/* strcmp of an upper-case table name against name upper-cased. */
static int cmp_upper(const char *table, const char *name)
{
    for (;; table++, name++) {
        unsigned char x = (unsigned char)*table, y = (unsigned char)*name;
        if (y >= 'a' && y <= 'z')
            y = (unsigned char)(y - 'a' + 'A');
        if (x != y || x == 0)
            return (int)x - (int)y;
    }
}

const struct dmlt_dml_operator *dmlt_dml_operator_find(const char *name)
{
    static const char prefix[] = "DML_OPERATOR_";
    size_t n = sizeof prefix - 1;
    if (name == NULL)
        return NULL;
    if (strlen(name) > n) {
        size_t k;
        for (k = 0; k < n; k++) {
            char c = name[k];
            if (c >= 'a' && c <= 'z')
                c = (char)(c - 'a' + 'A');
            if (c != prefix[k])
                break;
        }
        if (k == n)
            name += n;
    }
    /* the table is sorted by its upper-case names (tools/gen_dml_tables.py):
     * a binary search, name compared upper-cased */
    size_t lo = 0, hi = dmlt_dml_operator_count;
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        const int c = cmp_upper(dmlt_dml_operator_table[mid].name, name);
        if (c == 0)
            return &dmlt_dml_operator_table[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const struct dmlt_dml_tensor_rule *dmlt_dml_tensor_rule_at(const struct dmlt_dml_operator *op,
                                                           const char *tensor, unsigned level)
{
    const struct dmlt_dml_tensor_rule *best = NULL;
    unsigned i;
    if (op == NULL || tensor == NULL)
        return NULL;
    for (i = 0; i < op->n_rules; i++) {
        const struct dmlt_dml_tensor_rule *r = &op->rules[i];
        if (!eq_nocase(r->tensor, tensor) || r->level > level)
            continue;
        if (best == NULL || r->level > best->level)
            best = r;
    }
    return best;
}

const struct dmlt_dml_mapping *dmlt_dml_mapping_find(const char *onnx_op, unsigned *count)
{
    unsigned i, n = 0;
    const struct dmlt_dml_mapping *first = NULL;
    for (i = 0; i < dmlt_dml_mapping_count; i++) {
        if (strcmp(dmlt_dml_mapping_table[i].onnx_op, onnx_op) != 0) {
            if (first != NULL)
                break;
            continue;
        }
        if (first == NULL)
            first = &dmlt_dml_mapping_table[i];
        n++;
    }
    if (count != NULL)
        *count = n;
    return first;
}

unsigned dmlt_dml_newest_level(void)
{
    return dmlt_dml_tables_newest_level;
}

const char *dmlt_dml_tables_source(void)
{
    return dmlt_dml_tables_revision;
}

unsigned dmlt_dml_level_parse(const char *text)
{
    static const char prefix[] = "DML_FEATURE_LEVEL_";
    unsigned major = 0, minor = 0;
    const char *p = text;
    if (p == NULL)
        return 0;
    if (strncmp(p, prefix, sizeof prefix - 1) == 0)
        p += sizeof prefix - 1;
    if (*p < '1' || *p > '9')
        return 0;
    major = (unsigned)(*p++ - '0');
    if (*p != '_' && *p != '.')
        return 0;
    p++;
    if (*p < '0' || *p > '9')
        return 0;
    minor = (unsigned)(*p++ - '0');
    if (*p != '\0')
        return 0;
    return (major << 12) | (minor << 8);
}

unsigned dmlt_dml_operator_total(void)
{
    return dmlt_dml_operator_count;
}

const struct dmlt_dml_operator *dmlt_dml_operator_at(unsigned i)
{
    return i < dmlt_dml_operator_count ? &dmlt_dml_operator_table[i] : NULL;
}

/* DML_FEATURE_LEVEL's values, as windows-ai-docs' "DirectML feature level
 * history" (docs/directml/dml-feature-level-history.md) lists them. */
int dmlt_dml_level_known(unsigned level)
{
    static const unsigned levels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100,
                                      0x4000, 0x4100, 0x5000, 0x5100, 0x5200,
                                      0x6000, 0x6100, 0x6200, 0x6300, 0x6400};
    unsigned i;
    for (i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (levels[i] == level)
            return 1;
    return 0;
}
