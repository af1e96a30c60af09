/* test_dml_operators.c - src/dml's lookups (dml_operators.h) over the
 * generated tables: names and levels parsed, the rule in force at a level,
 * and every ONNX operator's mapping rows against the text table they were
 * generated from (tools/data/dml_ep_operator_map.tsv, read here line by
 * line: argv[1]). */
#include "check.h"
#include "dml_operator_table.h"
#include "dml_operators.h"

#include <stdlib.h>

static void test_names_and_levels(void)
{
    const struct dmlt_dml_operator *gemm = dmlt_dml_operator_find("GEMM");
    CHECK(gemm != NULL);
    CHECK(dmlt_dml_operator_find("DML_OPERATOR_GEMM") == gemm);
    CHECK(dmlt_dml_operator_find("dml_operator_gemm") == gemm);
    CHECK(dmlt_dml_operator_find("gemm") == gemm);
    CHECK(dmlt_dml_operator_find("GEM") == NULL);
    CHECK(dmlt_dml_operator_find("DML_OPERATOR_") == NULL);
    CHECK(dmlt_dml_operator_find("") == NULL);
    CHECK(dmlt_dml_operator_find(NULL) == NULL);
    CHECK(dmlt_dml_operator_find("REDUCE:SUM") != NULL);
    /* every operator found by its own name, in lower case too: the lookup
     * is a binary search over the table, which must stay sorted */
    for (size_t i = 0; i < dmlt_dml_operator_count; i++) {
        const char *name = dmlt_dml_operator_table[i].name;
        char lower[64];
        size_t k = 0;
        for (; name[k] && k + 1 < sizeof lower; k++)
            lower[k] = (char)(name[k] >= 'A' && name[k] <= 'Z' ? name[k] - 'A' + 'a' : name[k]);
        lower[k] = 0;
        CHECK(dmlt_dml_operator_find(name) == &dmlt_dml_operator_table[i]);
        CHECK(dmlt_dml_operator_find(lower) == &dmlt_dml_operator_table[i]);
    }

    CHECK_EQ(dmlt_dml_level_parse("5_1"), 0x5100u);
    CHECK_EQ(dmlt_dml_level_parse("5.1"), 0x5100u);
    CHECK_EQ(dmlt_dml_level_parse("DML_FEATURE_LEVEL_6_4"), 0x6400u);
    CHECK_EQ(dmlt_dml_level_parse("0_1"), 0u);
    CHECK_EQ(dmlt_dml_level_parse("5_10"), 0u);
    CHECK_EQ(dmlt_dml_level_parse("5"), 0u);
    CHECK_EQ(dmlt_dml_level_parse("5_1 "), 0u);
    CHECK(dmlt_dml_level_known(0x2100));
    CHECK(!dmlt_dml_level_known(0x1500));
    CHECK(!dmlt_dml_level_known(0x7000));
    CHECK(dmlt_dml_level_known(dmlt_dml_newest_level()));

    /* GEMM's ATensor: 4 dims at 1_0 (bit 4), 2 to 4 from 4_0 (the page). */
    const struct dmlt_dml_tensor_rule *r = dmlt_dml_tensor_rule_at(gemm, "ATensor", 0x3100);
    CHECK(r != NULL && r->level == 0x1000 && r->dim_counts == (1u << 4));
    r = dmlt_dml_tensor_rule_at(gemm, "atensor", 0x4000);
    CHECK(r != NULL && r->level == 0x4000 && r->dim_counts == ((1u << 2) | (1u << 3) | (1u << 4)));
    CHECK(dmlt_dml_tensor_rule_at(gemm, "XTensor", 0x6400) == NULL);
    const struct dmlt_dml_operator *gelu = dmlt_dml_operator_find("ACTIVATION_GELU");
    CHECK(gelu != NULL && gelu->introduced == 0x5100);
    CHECK(dmlt_dml_tensor_rule_at(gelu, "InputTensor", 0x5000) == NULL);
    CHECK(dmlt_dml_tensor_rule_at(gelu, "InputTensor", 0x5100) != NULL);

    /* dmlt_dml_operator_at walks them all, sorted, each found by name. */
    unsigned n = dmlt_dml_operator_total();
    CHECK(n > 0);
    CHECK(dmlt_dml_operator_at(n) == NULL);
    for (unsigned i = 0; i < n; i++) {
        const struct dmlt_dml_operator *op = dmlt_dml_operator_at(i);
        CHECK(dmlt_dml_operator_find(op->name) == op);
        if (i > 0)
            CHECK(strcmp(dmlt_dml_operator_at(i - 1)->name, op->name) < 0);
    }
}

/* Splits a TSV line in place into up to max fields; returns how many. */
static unsigned split(char *line, char **fields, unsigned max)
{
    unsigned n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    while (n < max) {
        fields[n++] = line;
        char *tab = strchr(line, '\t');
        if (tab == NULL)
            break;
        *tab = '\0';
        line = tab + 1;
    }
    return n;
}

/* Each ONNX operator's rows, in the TSV's order, are what
 * dmlt_dml_mapping_find returns for it. */
static void test_mapping(const char *path)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (f == NULL)
        return;
    char line[1024], *c[8] = {0};
    unsigned rows = 0, ops = 0, at = 0, count = 0;
    const struct dmlt_dml_mapping *first = NULL;
    char current[128] = "";
    bool header = true;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (header) { /* onnx_op dml_operator inputs outputs condition source commit */
            header = false;
            continue;
        }
        const unsigned fields = split(line, c, 8);
        CHECK_EQ(fields, 7u);
        if (fields != 7u)
            continue;
        if (strcmp(c[0], current) != 0) {
            CHECK(first == NULL || at == count); /* the previous op had no more rows */
            snprintf(current, sizeof current, "%s", c[0]);
            first = dmlt_dml_mapping_find(current, &count);
            at = 0;
            ops++;
            CHECK(first != NULL);
        }
        rows++;
        CHECK(first != NULL && at < count); /* no more TSV rows than the table's */
        if (first == NULL || at >= count)
            continue;
        const struct dmlt_dml_mapping *m = &first[at++];
        CHECK_STR(m->onnx_op, c[0]);
        CHECK_STR(m->dml_operator, c[1]);
        CHECK_STR(m->inputs, c[2]);
        CHECK_STR(m->outputs, c[3]);
        CHECK_STR(m->source, c[5]);
        if (strcmp(c[4], "-") == 0)
            CHECK(m->condition == NULL);
        else
            CHECK(m->condition != NULL && strcmp(m->condition, c[4]) == 0);
        CHECK(dmlt_dml_operator_find(m->dml_operator) != NULL);
    }
    fclose(f);
    CHECK(first == NULL || at == count);
    CHECK(rows > 0 && ops > 0);
    unsigned none = 7;
    CHECK(dmlt_dml_mapping_find("NoSuchOp", &none) == NULL);
    CHECK_EQ(none, 0u);
}

int main(int argc, char **argv)
{
    test_names_and_levels();
    if (argc < 2) {
        fprintf(stderr, "usage: test_dml_operators tools/data/dml_ep_operator_map.tsv\n");
        return 2;
    }
    test_mapping(argv[1]);
    return check_finish("test_dml_operators");
}
