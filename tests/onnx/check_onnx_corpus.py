#!/usr/bin/env python3
"""check_onnx_corpus.py DMLTENSOR [DIR...] - `dmltensor scan` against
python3-onnx on real models.

Every *.onnx under the DIRs (default: Debian's libonnx-testdata, about 1,070
models of the ONNX project's node and PyTorch-converted tests, no one here
wrote them) and the models tests/onnx/make_models.py makes (symbolic dims,
every data type, scalars, rank 9, zero dims, a dim of 2^32, nested If/Loop,
Constant nodes, external data whose file is missing) are scanned in ONE
`dmltensor scan` call. For each model, the records must be, one for one and
in order, what this script derives from onnx.load(path,
load_external_data=False): the path, name, kind, ONNX type, and either the
DirectML sizes or the error id. The reference reads the protobuf objects,
not the wire, so it checks onnx_wire.c's reading independently.

Needs Debian's python3-onnx (run with /usr/bin/python3). Prints a line per
failure and "N models, M tensors agree"; exits 1 on any disagreement.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

import onnx
from onnx import TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_models  # noqa: E402

NAMES = ["UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING",
         "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16",
         "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4",
         "FLOAT4E2M1", "FLOAT8E8M0"]
DIRECTML = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64",
            9: "uint8", 10: "float16", 11: "float64", 12: "uint32", 13: "uint64", 21: "uint4",
            22: "int4"}
CONSTANT_VALUES = {"value_float": (1, False), "value_floats": (1, True), "value_int": (7, False),
                   "value_ints": (7, True), "value_string": (8, False), "value_strings": (8, True)}


def type_name(t):
    return NAMES[t] if 0 <= t < len(NAMES) else None


def judge(elem, has_elem, dims):
    """(error id, None) or (None, sizes) for a tensor of elem and dims: a
    list of ints, ("param", name) or None (unknown); dims None: no shape."""
    if not has_elem or elem not in DIRECTML:
        return "dtype_unsupported", None
    if dims is None:
        return "shape_unknown", None
    if len(dims) > 8:
        return "too_many_dims", None
    sizes, unbound = [], False
    for d in dims:
        if d is None:
            return "dim_unknown", None
        if isinstance(d, tuple):
            unbound = True
            continue
        if d < 0:
            return "dim_negative", None
        if d == 0:
            return "zero_size", None
        if d > 0xFFFFFFFF:
            return "dim_too_large", None
        sizes.append(d)
    if unbound:
        return "dim_unbound", None
    return None, sizes or [1]


def shape_dims(shape):
    out = []
    for d in shape.dim:
        which = d.WhichOneof("value")
        if which == "dim_value":
            out.append(d.dim_value)
        elif which == "dim_param" and d.dim_param:
            out.append(("param", d.dim_param))
        else:
            out.append(None)
    return out


def path_text(s):
    return s.replace("\0", "?")


def expect_graph(g, path, out):
    def rec(p, name, kind, onnx_type, verdict, dims=None):
        err, sizes = verdict
        shape = None if dims is None else [d[1] if isinstance(d, tuple) else d for d in dims]
        out.append({"path": p, "name": name, "kind": kind, "onnx_type": onnx_type,
                    "error": err, "sizes": sizes, "shape": shape})

    def value_info(v, p, kind):
        if not v.HasField("type"):
            return rec(p, v.name, kind, None, ("type_unknown", None))
        which = v.type.WhichOneof("value")
        if which is None:
            return rec(p, v.name, kind, None, ("type_unknown", None))
        if which != "tensor_type":
            return rec(p, v.name, kind, None, ("not_a_tensor", None))
        tt = v.type.tensor_type
        has = tt.HasField("elem_type")
        dims = shape_dims(tt.shape) if tt.HasField("shape") else None
        rec(p, v.name, kind, type_name(tt.elem_type) if has else None,
            judge(tt.elem_type, has, dims), dims)

    def tensor(t, p, kind, name):
        has = t.HasField("data_type")
        rec(p, name, kind, type_name(t.data_type) if has else None,
            judge(t.data_type, has, list(t.dims)), list(t.dims))

    def sparse(s, p, kind, name):
        has = s.values.HasField("data_type")
        rec(p, name, kind, type_name(s.values.data_type) if has else None,
            judge(s.values.data_type, has, list(s.dims)), list(s.dims))

    for i, v in enumerate(g.input):
        value_info(v, f"{path}.input[{i}]", "input")
    for i, v in enumerate(g.output):
        value_info(v, f"{path}.output[{i}]", "output")
    for i, t in enumerate(g.initializer):
        tensor(t, f"{path}.initializer[{i}]", "initializer", t.name if t.HasField("name") else None)
    for i, s in enumerate(g.sparse_initializer):
        sparse(s, f"{path}.sparse_initializer[{i}]", "sparse_initializer",
               s.values.name if s.values.HasField("name") else None)
    for i, v in enumerate(g.value_info):
        value_info(v, f"{path}.value_info[{i}]", "value_info")
    for i, n in enumerate(g.node):
        np_ = f"{path}.node[{i}]"
        if n.HasField("op_type"):
            np_ += f" ({path_text(n.op_type)})"
        constant = n.op_type == "Constant" and n.domain in ("", "ai.onnx")
        out0 = n.output[0] if len(n.output) else None
        for a in n.attribute:
            ap = f"{np_}.{path_text(a.name)}"
            if constant and a.name == "value" and a.HasField("t"):
                tensor(a.t, ap, "constant", out0)
            if constant and a.name == "sparse_value" and a.HasField("sparse_tensor"):
                sparse(a.sparse_tensor, ap, "constant", out0)
            if constant and a.name in CONSTANT_VALUES:
                elem, is_list = CONSTANT_VALUES[a.name]
                count = len(a.floats) if elem == 1 else len(a.ints) if elem == 7 else len(a.strings)
                rec(ap, out0, "constant", NAMES[elem],
                    judge(elem, True, [count] if is_list else []), [count] if is_list else [])
            if a.HasField("g"):
                expect_graph(a.g, ap, out)
            for k, sub in enumerate(a.graphs):
                expect_graph(sub, f"{ap}[{k}]", out)


def expect_model(path):
    m = onnx.load(path, load_external_data=False)
    out = []
    expect_graph(m.graph, "graph", out)
    return out


def main():
    binary = sys.argv[1]
    dirs = sys.argv[2:] or ["/usr/share/libonnx-testdata"]
    files = []
    for d in dirs:
        files += sorted(glob.glob(os.path.join(d, "**", "*.onnx"), recursive=True))
    if len(files) < 2:
        print(f"fewer than 2 models under {dirs}: is libonnx-testdata installed?")
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        gen = os.path.join(tmp, "generated")
        make_models.main_into(gen)
        return check(binary, files + sorted(glob.glob(os.path.join(gen, "*.onnx"))))


def graphs_of(g):
    yield g
    for n in g.node:
        for a in n.attribute:
            if a.HasField("g"):
                yield from graphs_of(a.g)
            for sub in a.graphs:
                yield from graphs_of(sub)


def check_model_facts(path, have):
    m = onnx.load(path, load_external_data=False)
    if have is None:
        return ["summary: no model"]
    ops = {}
    for g in graphs_of(m.graph):
        for n in g.node:
            key = n.op_type if n.domain in ("", "ai.onnx") else f"{n.domain}.{n.op_type}"
            ops[key.replace("\0", "?")] = ops.get(key.replace("\0", "?"), 0) + 1
    opsets = {}
    for o in m.opset_import:
        opsets[o.domain] = o.version  # a domain given twice: the last (JSON keeps the last too)
    want = {"ir_version": m.ir_version, "producer_name": m.producer_name.replace("\0", "?"),
            "producer_version": m.producer_version.replace("\0", "?")}
    bad = [f"summary model {k} {have.get(k)!r}, onnx says {v!r}" for k, v in want.items()
           if have.get(k) != v]
    if len(opsets) <= 100 and have["opset_import"] != opsets:
        bad.append(f"summary opset_import {have['opset_import']}, onnx says {opsets}")
    first = dict(list(ops.items())[:100])
    if have["operators"] != first or have["operators_more"] != max(0, len(ops) - 100):
        bad.append(f"summary operators {list(have['operators'].items())[:5]}..., onnx says "
                   f"{list(first.items())[:5]}... ({len(ops)})")
    return bad


def check(binary, files):
    t0 = time.monotonic()
    p = subprocess.run([binary, "scan", "--no-infer"] + files, capture_output=True)
    wall = time.monotonic() - t0
    if p.returncode not in (0, 1):
        print(f"scan exited {p.returncode}: {p.stderr.decode(errors='replace')[-2000:]}")
        return 1
    got = {f: [] for f in files}
    summaries = {}
    for line in p.stdout.decode("utf-8").splitlines():
        r = json.loads(line)
        if "summary" in r:
            summaries[r["summary"]["file"]] = r["summary"]
        elif "error" in r and "path" not in r:
            print(f"FAIL {r['file']}: not scanned: {r['error']}")
            got.setdefault(r["file"], None)
        else:
            got[r["file"]].append(r)
    failures = tensors = 0
    for f in files:
        try:
            want = expect_model(f)
        except Exception as ex:  # noqa: BLE001 - a model onnx cannot load
            print(f"FAIL {f}: onnx.load fails: {ex}")
            failures += 1
            continue
        have = got.get(f)
        bad = []
        if have is None or f not in summaries:
            bad.append("no records or no summary")
        else:
            if len(have) != len(want):
                bad.append(f"{len(have)} records, onnx has {len(want)}")
            for h, w in zip(have, want):
                err = h["error"]["id"] if "error" in h else None
                sizes = h.get("sizes")
                for key, hv, wv in (("path", h["path"], w["path"]), ("name", h["name"], w["name"]),
                                    ("kind", h["kind"], w["kind"]),
                                    ("onnx_type", h["onnx_type"], w["onnx_type"]),
                                    ("error", err, w["error"]), ("sizes", sizes, w["sizes"]),
                                    ("shape", h["shape"], w["shape"])):
                    if hv != wv:
                        bad.append(f"{w['path']}: {key} {hv!r}, onnx says {wv!r}")
            # The summary's model I/O (the main graph's own), its unbound
            # symbols (first met first, none bound here) and unknown count.
            io = summaries[f]["io"]
            main_in = sum(1 for w in want if w["path"].startswith("graph.input["))
            main_out = sum(1 for w in want if w["path"].startswith("graph.output["))
            if (io["inputs"], io["outputs"]) != (main_in, main_out):
                bad.append(f"summary io {io['inputs']}/{io['outputs']}, onnx has "
                           f"{main_in}/{main_out}")
            symbols = []
            for w in want:
                for d in w["shape"] or []:
                    if isinstance(d, str) and d not in symbols:
                        symbols.append(d)
            listed = summaries[f]["unbound"] + [None] * summaries[f]["unbound_more"]
            if listed[:100] != (symbols[:100] + [None] * max(0, len(symbols) - 100))[:100] or \
                    len(listed) != len(symbols):
                bad.append(f"summary unbound {summaries[f]['unbound'][:5]}..., onnx has "
                           f"{symbols[:5]}... ({len(symbols)})")
            unknown_ids = ("dim_unbound", "dim_unknown", "shape_unknown", "type_unknown")
            unknown = sum(1 for w in want if w["error"] in unknown_ids)
            if summaries[f]["unknown"] != unknown:
                bad.append(f"summary unknown {summaries[f]['unknown']}, onnx says {unknown}")
            # The model as a whole: IR version, producer, opsets, operators
            # counted over every graph (first met first, at most 100).
            bad += check_model_facts(f, summaries[f].get("model"))
            kinds = {}
            for w in want:
                kinds[w["kind"]] = kinds.get(w["kind"], 0) + 1
            for k, n in summaries[f]["kinds"].items():
                if n != kinds.get(k, 0):
                    bad.append(f"summary: {n} {k}, onnx has {kinds.get(k, 0)}")
        if bad:
            failures += 1
            print(f"FAIL {f}:\n  " + "\n  ".join(bad[:10]))
        else:
            tensors += len(want)
    print(f"{len(files) - failures} of {len(files)} models agree with onnx.load "
          f"({tensors} tensors); one scan of all took {wall:.3f} s "
          f"({wall / len(files) * 1000:.3f} ms per model)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
