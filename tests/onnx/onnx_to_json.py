#!/usr/bin/env python3
"""onnx_to_json.py - an ONNX model as the JSON that tests/onnx/infer_dump
reads with --json: the fields of src/onnx/onnx_model.h (graphs in walk
order, nodes, attributes, declared values, initializers with the values of
small integer tensors and of FLOAT ones of at most 16 elements), written from python3-onnx's objects. It lets the
inference be tested on a model independently of the wire reader.

    onnx_to_json.py MODEL.onnx OUT.json [--strip]

--strip removes every value_info and the shapes of the graph outputs (of
every graph), as the reference-backend test needs. As a module:
model_json(model, strip) returns the dict."""
import json
import math
import sys

import onnx
from onnx import numpy_helper

SMALL = 1024
SMALL_FLOATS = 16
INT_TYPES = {2, 3, 4, 5, 6, 7, 9, 12, 13}  # (u)int8..64, bool


def tensor_json(t):
    n = 1
    for d in t.dims:
        n *= d
    out = {"name": t.name, "elem": t.data_type, "dims": list(t.dims), "values": None}
    external = t.data_location == onnx.TensorProto.EXTERNAL
    if t.data_type in INT_TYPES and n <= SMALL and not external:
        try:
            out["values"] = [int(v) for v in numpy_helper.to_array(t).reshape(-1)]
        except Exception:  # a damaged tensor: no values
            out["values"] = None
    if t.data_type == onnx.TensorProto.FLOAT and n <= SMALL_FLOATS and not external:
        try:  # a float32 as a double is exact, and so is its JSON text
            f = [float(v) for v in numpy_helper.to_array(t).reshape(-1)]
            if all(math.isfinite(v) for v in f):  # (JSON has no NaN)
                out["floats"] = f
        except Exception:
            pass
    return out


def type_json(tp, strip_shape=False):
    which = tp.WhichOneof("value")
    if which is None:
        return {"value": 2}
    if which in ("tensor_type", "sparse_tensor_type"):
        tt = getattr(tp, which)
        out = {"value": 0 if which == "tensor_type" else 6,
               "elem": tt.elem_type if tt.elem_type else None, "shape": None}
        if tt.HasField("shape") and not strip_shape:
            dims = []
            for d in tt.shape.dim:
                w = d.WhichOneof("value")
                dims.append(d.dim_value if w == "dim_value" else d.dim_param if w == "dim_param"
                             else None)
            out["shape"] = dims
        return out
    out = {"value": {"sequence_type": 3, "map_type": 4, "optional_type": 5}.get(which, 7)}
    if which in ("sequence_type", "optional_type"):
        st = getattr(tp, which)
        if st.HasField("elem_type") and st.elem_type.WhichOneof("value") == "tensor_type":
            out["inner"] = type_json(st.elem_type)
    return out


def vi_json(vi, strip_shape=False):
    return {"name": vi.name, "type": type_json(vi.type, strip_shape)}


def model_json(model, strip=False):
    graphs = []

    def walk(g, parent, owner):
        idx = len(graphs)
        entry = {"parent": parent, "owner": owner, "nodes": [], "inputs": [], "outputs": [],
                 "value_info": [], "initializers": []}
        graphs.append(entry)
        entry["inputs"] = [vi_json(v) for v in g.input]
        entry["outputs"] = [vi_json(v, strip) for v in g.output]
        entry["value_info"] = [] if strip else [vi_json(v) for v in g.value_info]
        inits = [tensor_json(t) for t in g.initializer]
        for st in g.sparse_initializer:
            inits.append({"name": st.values.name, "elem": st.values.data_type,
                          "dims": list(st.dims), "values": None})
        entry["initializers"] = inits
        for ni, n in enumerate(g.node):
            attrs = []
            for a in n.attribute:
                aj = {"name": a.name, "type": a.type}
                if a.type == onnx.AttributeProto.INT:
                    aj["i"] = a.i
                elif a.type == onnx.AttributeProto.FLOAT:
                    aj["f"] = a.f
                elif a.type == onnx.AttributeProto.STRING:
                    aj["s"] = a.s.decode("latin-1")
                elif a.type == onnx.AttributeProto.INTS:
                    aj["ints"] = list(a.ints)
                elif a.type == onnx.AttributeProto.FLOATS:
                    aj["floats"] = list(a.floats)
                elif a.type == onnx.AttributeProto.TENSOR:
                    aj["t"] = tensor_json(a.t)
                elif a.type == onnx.AttributeProto.SPARSE_TENSOR:
                    aj["t"] = {"name": "", "elem": a.sparse_tensor.values.data_type,
                               "dims": list(a.sparse_tensor.dims), "values": None}
                elif a.type == onnx.AttributeProto.GRAPH:
                    aj["g"] = walk(a.g, idx, [idx, ni])
                attrs.append(aj)
            entry["nodes"].append({"op": n.op_type, "domain": n.domain, "name": n.name,
                                   "inputs": list(n.input), "outputs": list(n.output),
                                   "attrs": attrs})
        return idx

    walk(model.graph, -1, None)
    return {"ir_version": model.ir_version,
            "opsets": [[o.domain, o.version] for o in model.opset_import],
            "graphs": graphs}


def main():
    strip = "--strip" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--strip"]
    model = onnx.load(args[0], load_external_data=False)
    with open(args[1], "w") as f:
        json.dump(model_json(model, strip), f)


if __name__ == "__main__":
    main()
