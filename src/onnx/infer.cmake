# Shape inference over an ONNX model (src/onnx/onnx_model.h): the engine
# and its integer expressions; the model session over the readers and it. Pure: no I/O, no printing, no cJSON.
set(DMLT_ONNX_INFER_SOURCES
  src/onnx/onnx_dimexpr.c
  src/onnx/onnx_dimexpr_text.c
  src/onnx/onnx_fold.c
  src/onnx/onnx_infer.c
  src/onnx/onnx_infer_conv.c
  src/onnx/onnx_infer_graph.c
  src/onnx/onnx_infer_misc.c
  src/onnx/onnx_infer_scope.c
  src/onnx/onnx_infer_ops.c
  src/onnx/onnx_infer_seq.c
  src/onnx/onnx_infer_shape.c
  src/onnx/onnx_infer_util.c
  src/onnx/onnx_infer_values.c
  src/onnx/onnx_session.c)
add_library(dmltensor_onnx_infer STATIC ${DMLT_ONNX_INFER_SOURCES})
target_include_directories(dmltensor_onnx_infer PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/src/onnx)
target_link_libraries(dmltensor_onnx_infer PUBLIC dmltensor_onnx)
target_compile_options(dmltensor_onnx_infer PRIVATE ${DMLT_WARNINGS})
