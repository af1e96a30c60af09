# The DirectML layer (target dmltensor_dml): the model as ONNX Runtime's
# DirectML provider runs it. Above src/onnx (model, inference) and
# src/lib (DirectML's data types); no I/O, no printing, no cJSON.
set(DMLT_DML_SOURCES
  src/dml/dml_operators.c
  src/dml/dml_operator_table.c
  src/dml/dml_mapping_table.c
  src/dml/dml_ep.c
  src/dml/dml_ep_checks.c
  src/dml/dml_ep_queries.c
  src/dml/dml_ep_kernel.c
  src/dml/dml_ep_table.c
  src/dml/dml_onnx_schema_table.c
  src/dml/dml_ep_values.c)
