#!/usr/bin/env python3
"""check_onnx_fields.py ONNX_PROTO_H - the ONNX layer's table of field
numbers (src/onnx/onnx_proto.h, ONNXF_<MESSAGE>_<FIELD>) against onnx.proto
as python3-onnx compiled it: every constant names a field of its message
(its name lower-cased) with that number, and the DataLocation value is
EXTERNAL's. A field newer than the installed onnx (NEWER) is reported, not
failed. Exits 1 on any mismatch, 77 (skipped) without python3-onnx.
"""
import re
import sys

try:
    import onnx
except ImportError:
    print("check_onnx_fields: python3-onnx is not installed: skipped")
    sys.exit(77)

# The constant's message part, longest first (TENSOR_TYPE before TENSOR and
# TYPE): the messages whose fields it numbers.
MESSAGES = [
    ("TENSOR_TYPE_", [onnx.TypeProto.Tensor, onnx.TypeProto.SparseTensor]),
    ("VALUE_INFO_", [onnx.ValueInfoProto]),
    ("DIMENSION_", [onnx.TensorShapeProto.Dimension]),
    ("SEQUENCE_", [onnx.TypeProto.Sequence, onnx.TypeProto.Optional]),
    ("SPARSE_", [onnx.SparseTensorProto]),
    ("TENSOR_", [onnx.TensorProto]),
    ("MODEL_", [onnx.ModelProto]),
    ("OPSET_", [onnx.OperatorSetIdProto]),
    ("GRAPH_", [onnx.GraphProto]),
    ("NODE_", [onnx.NodeProto]),
    ("ATTR_", [onnx.AttributeProto]),
    ("SHAPE_", [onnx.TensorShapeProto]),
    ("TYPE_", [onnx.TypeProto]),
]
# Fields of a later onnx.proto than Debian's python3-onnx 1.12.
NEWER = {"ModelProto.configuration"}


def main():
    text = open(sys.argv[1]).read()
    consts = re.findall(r"\b(ONNXF_[A-Z0-9_]+) = (\d+)", text)
    if len(consts) < 50:
        print("check_onnx_fields: only %d ONNXF_ constants found" % len(consts))
        return 1
    bad = 0
    for name, number in consts:
        rest = name[len("ONNXF_"):]
        prefix, messages = next((p, m) for p, m in MESSAGES if rest.startswith(p))
        field = rest[len(prefix):].lower()
        for msg in messages:
            full = msg.DESCRIPTOR.full_name.replace("onnx.", "")
            f = msg.DESCRIPTOR.fields_by_name.get(field)
            if f is None and full + "." + field in NEWER:
                print("%s: %s.%s is newer than onnx %s: not checked" %
                      (name, full, field, onnx.__version__))
            elif f is None:
                print("FAIL %s: %s has no field %s" % (name, full, field))
                bad += 1
            elif f.number != int(number):
                print("FAIL %s = %s: %s.%s is %d" % (name, number, full, field, f.number))
                bad += 1
    m = re.search(r"ONNX_DATA_LOCATION_EXTERNAL = (\d+)", text)
    if m is None or int(m.group(1)) != onnx.TensorProto.EXTERNAL:
        print("FAIL ONNX_DATA_LOCATION_EXTERNAL: TensorProto.EXTERNAL is %d" %
              onnx.TensorProto.EXTERNAL)
        bad += 1
    print("%d field numbers against onnx %s's onnx.proto: %d wrong" %
          (len(consts), onnx.__version__, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
