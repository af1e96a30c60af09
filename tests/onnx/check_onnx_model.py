#!/usr/bin/env python3
"""check_onnx_model.py DUMP_MODEL [DIR...] - onnx_model_read against
python3-onnx's onnx.load, model by model.

Every *.onnx under the DIRs (default: Debian's libonnx-testdata, about 1,070
models no one here wrote), the models tests/onnx/make_models.py makes, and
a few made here (If nested 1 to 31 deep, which python3-onnx reads; merged
messages: a model concatenated with itself, a shape given twice) are read
by tests/onnx/dump_model.c (onnx_model_read, dumped as JSON) and compared
with what this script derives from onnx.load: the model's ir_version,
producer, opsets; every graph in pre-order (the main graph, then each
node's attribute graphs, g before graphs, depth first) with its parent and
owner; every node's op_type, domain, name, inputs, outputs and attributes
(f, i, s, floats, ints, strings, t, g, tensors, graphs, sparse_tensor);
the graph's outputs, and the inputs, value_info and initializers that a node
or an output names (onnx_model.h keeps only those), with their types and
dims; the values of integer tensors of at most 1,024 elements and of FLOAT
tensors of at most 16 through onnx.numpy_helper.

Needs Debian's python3-onnx (run with /usr/bin/python3). Prints a line per
difference and "N models agree"; exits 1 on any.
"""
import glob
import json
import os
import struct
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_models  # noqa: E402

SMALL = 1024
SMALL_FLOATS = 16
INT_TYPES = {TensorProto.UINT8, TensorProto.INT8, TensorProto.UINT16, TensorProto.INT16,
             TensorProto.INT32, TensorProto.INT64, TensorProto.UINT32, TensorProto.UINT64,
             TensorProto.BOOL}
CASES = {"tensor_type": 0, "sequence_type": 3, "map_type": 4, "optional_type": 5,
         "sparse_tensor_type": 6}


def h(s):
    return (s.encode("utf-8") if isinstance(s, str) else bytes(s)).hex()


def bits(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def values_of(t):
    if t.data_type not in INT_TYPES or t.data_location == TensorProto.EXTERNAL:
        return None
    if any(d < 0 for d in t.dims):
        return None
    n = 1
    for d in t.dims:
        n *= d
    if n > SMALL:
        return None
    try:
        a = numpy_helper.to_array(t)
    except Exception:
        return None
    if a.size != n:
        return None
    if t.data_type == TensorProto.UINT64 and any(int(x) > 2**63 - 1 for x in a.flatten()):
        return None
    return [int(x) for x in a.flatten()]


def floats_of(t):
    """A FLOAT tensor's values (as their 32 bits) when it has at most
    SMALL_FLOATS elements."""
    if t.data_type != TensorProto.FLOAT or t.data_location == TensorProto.EXTERNAL:
        return None
    if any(d < 0 for d in t.dims):
        return None
    n = 1
    for d in t.dims:
        n *= d
    if n > SMALL_FLOATS:
        return None
    try:
        a = numpy_helper.to_array(t)
    except Exception:
        return None
    if a.size != n:
        return None
    return [bits(float(x)) for x in a.flatten()]


def tensor(t):
    return {"name": h(t.name), "elem_type": t.data_type, "dims": list(t.dims),
            "external": t.data_location == TensorProto.EXTERNAL, "sparse": False,
            "values": values_of(t), "floats": floats_of(t)}


def sparse(s):
    return {"name": h(s.values.name), "elem_type": s.values.data_type, "dims": list(s.dims),
            "external": False, "sparse": True, "values": None, "floats": None}


def dim(d):
    which = d.WhichOneof("value")
    if which == "dim_value":
        return d.dim_value
    if which == "dim_param" and d.dim_param:
        return h(d.dim_param)
    return None


def value_info(v):
    out = {"name": h(v.name)}
    if not v.HasField("type"):
        out["value"] = 2
        out["shape"] = None
        return out
    out.update(type_fields(v.type))
    return out


def type_fields(tp):
    """value, elem_type, shape; a sequence's or optional's element type,
    when it is a tensor type, as "inner" (one level)."""
    which = tp.WhichOneof("value")
    out = {"value": CASES.get(which, 7), "shape": None}
    if which in ("tensor_type", "sparse_tensor_type"):
        tt = getattr(tp, which)
        if tt.HasField("elem_type"):
            out["elem_type"] = tt.elem_type
        if tt.HasField("shape"):
            out["shape"] = [dim(d) for d in tt.shape.dim]
    elif which in ("sequence_type", "optional_type"):
        st = getattr(tp, which)
        if st.HasField("elem_type") and st.elem_type.WhichOneof("value") == "tensor_type":
            inner = type_fields(st.elem_type)
            out["inner"] = inner
    return out


class Model:
    """The expected dump of a ModelProto."""

    def __init__(self, m):
        self.names = set()  # what a node or a graph output names, in any graph
        self.collect(m.graph)
        self.graphs = []  # in pre-order, as add() meets them
        self.out = {"ir_version": m.ir_version, "producer_name": h(m.producer_name),
                    "producer_version": h(m.producer_version),
                    "opset": next((o.version for o in reversed(m.opset_import)
                                   if o.domain in ("", "ai.onnx")), 0),
                    "opsets": [[h(o.domain), o.version] for o in m.opset_import],
                    "graphs": self.graphs}
        self.add(m.graph, None, None)

    def collect(self, g):
        for o in g.output:
            self.names.add(o.name)
        for n in g.node:
            self.names.update(n.input)
            self.names.update(n.output)
            for a in n.attribute:
                if a.HasField("g"):
                    self.collect(a.g)
                for sub in a.graphs:
                    self.collect(sub)

    def add(self, g, parent, owner):
        index = len(self.graphs)
        d = {"index": index, "parent": parent, "owner": owner, "nodes": []}
        self.graphs.append(d)
        for k, n in enumerate(g.node):
            d["nodes"].append(self.node(n, index, k))
        # A subgraph's inputs all (Loop and Scan bind them by position).
        keep = [v for v in g.input if v.name in self.names or parent is not None]
        d["inputs"] = [value_info(v) for v in keep]
        d["outputs"] = [value_info(v) for v in g.output]
        d["value_info"] = [value_info(v) for v in g.value_info if v.name in self.names]
        d["initializers"] = ([tensor(t) for t in g.initializer if t.name in self.names] +
                             [sparse(s) for s in g.sparse_initializer
                              if s.values.name in self.names])
        return index

    def node(self, n, graph, k):
        attrs = []
        for a in n.attribute:
            x = {"name": h(a.name), "type": a.type}
            if a.HasField("f"):
                x["f"] = bits(a.f)
            if a.HasField("i"):
                x["i"] = a.i
            if a.HasField("s"):
                x["s"] = h(a.s)
            x["floats"] = [bits(f) for f in a.floats]
            x["ints"] = list(a.ints)
            x["strings"] = [h(s) for s in a.strings]
            x["tensors"] = [tensor(t) for t in a.tensors]
            if a.HasField("t"):
                x["t"] = tensor(a.t)
            if a.HasField("g"):
                x["g"] = self.add(a.g, graph, k)
            x["graphs"] = [self.add(sub, graph, k) for sub in a.graphs]
            if a.HasField("sparse_tensor"):
                x["sparse_tensor"] = sparse(a.sparse_tensor)
            attrs.append(x)
        return {"op_type": h(n.op_type), "domain": h(n.domain), "name": h(n.name),
                "inputs": [h(s) for s in n.input], "outputs": [h(s) for s in n.output],
                "attrs": attrs}


def nested_if(depth):
    """If nested depth deep (python3-onnx reads 31, not 32)."""
    def leaf(d):
        return helper.make_graph([helper.make_node("Identity", ["x"], [f"z{d}"])], f"l{d}", [],
                                 [helper.make_tensor_value_info(f"z{d}", TensorProto.FLOAT, [2])])
    g = leaf(0)
    for d in range(1, depth + 1):
        node = helper.make_node("If", ["c"], [f"y{d}"], then_branch=g, else_branch=leaf(-d))
        g = helper.make_graph([node], f"g{d}", [],
                              [helper.make_tensor_value_info(f"y{d}", TensorProto.FLOAT, ["N"])])
    g.input.extend([helper.make_tensor_value_info("c", TensorProto.BOOL, []),
                    helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])])
    return helper.make_model(g).SerializeToString()


def made_here(out):
    paths = []
    for depth in (1, 2, 21, 31):
        p = os.path.join(out, f"if{depth}.onnx")
        with open(p, "wb") as f:
            f.write(nested_if(depth))
        paths.append(p)
    zoo = os.path.join(out, "zoo.onnx")
    if os.path.exists(zoo):
        with open(zoo, "rb") as f:
            b = f.read()
        p = os.path.join(out, "zoo_twice.onnx")
        with open(p, "wb") as f:
            f.write(b + b)  # every repeated field twice, every message merged
        paths.append(p)
    return paths


def main():
    dump = sys.argv[1]
    dirs = sys.argv[2:] or ["/usr/share/libonnx-testdata"]
    files = sorted(p for d in dirs for p in glob.glob(os.path.join(d, "**", "*.onnx"),
                                                     recursive=True))
    if len(files) < 2:
        print(f"fewer than 2 models under {dirs}: is libonnx-testdata installed?")
        return 1
    with tempfile.TemporaryDirectory() as gen:
        make_models.main_into(gen)
        files += sorted(glob.glob(os.path.join(gen, "*.onnx")))
        files += made_here(gen)
        return check(dump, files)


def check(dump, files):
    bad = 0
    for start in range(0, len(files), 200):
        batch = files[start:start + 200]
        out = subprocess.run([dump] + batch, capture_output=True, check=True).stdout
        lines = out.decode().splitlines()
        if len(lines) != len(batch):
            print(f"{len(lines)} lines for {len(batch)} models")
            return 1
        for path, line in zip(batch, lines):
            got = json.loads(line)
            try:
                want = Model(onnx.load(path, load_external_data=False)).out
            except Exception as e:  # python3-onnx refuses it: so may we
                if "error" not in got:
                    print(f"{path}: onnx.load refuses it ({e}), the reader does not")
                    bad += 1
                continue
            if got != want:
                bad += 1
                print(f"{path}: differs at {first_difference(got, want)}")
    print(f"{len(files)} models: {len(files) - bad} agree, {bad} differ")
    return 1 if bad else 0


def first_difference(a, b, where="model"):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{where}.{k}: {a.get(k, '(none)')!r:.200} vs {b.get(k, '(none)')!r:.200}"
            if a[k] != b[k]:
                return first_difference(a[k], b[k], f"{where}.{k}")
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} vs {len(b)} entries"
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, f"{where}[{i}]")
    return f"{where}: {a!r:.200} (reader) vs {b!r:.200} (onnx.load)"


if __name__ == "__main__":
    sys.exit(main())
