/* dml_operator_table.h - the generated tables' declarations
 * (dml_operator_table.c and dml_mapping_table.c are written by
 * tools/gen_dml_tables.py). */
#ifndef DMLT_DML_OPERATOR_TABLE_H
#define DMLT_DML_OPERATOR_TABLE_H

#include "dml_operators.h"

extern const struct dmlt_dml_operator dmlt_dml_operator_table[];
extern const unsigned dmlt_dml_operator_count;
extern const unsigned dmlt_dml_tables_newest_level;
extern const char dmlt_dml_tables_revision[];
extern const struct dmlt_dml_mapping dmlt_dml_mapping_table[];
extern const unsigned dmlt_dml_mapping_count;

#endif
