# The ONNX layer's sources: built as the static library dmltensor_onnx.
# Bytes in, a model and its values out: no I/O, no printing, no cJSON, no
# CLI header.
set(DMLT_ONNX_SOURCES
  src/onnx/lifetime.c
  src/onnx/onnx_hash.c
  src/onnx/onnx_dims.c
  src/onnx/onnx_model.c
  src/onnx/onnx_order.c
  src/onnx/onnx_proto.c
  src/onnx/onnx_sniff.c
  src/onnx/onnx_tensor.c
  src/onnx/onnx_wire.c
  src/onnx/pb.c)
