# The DirectML layer (target dmltensor_dml): the model as ONNX Runtime's
# DirectML provider runs it. Above src/onnx (model, inference) and
# src/lib (DirectML's data types); no I/O, no printing, no cJSON.
set(DMLT_DML_SOURCES
  src/dml/dml_operators.c
  src/dml/dml_operator_table.c
  src/dml/dml_mapping_table.c)
