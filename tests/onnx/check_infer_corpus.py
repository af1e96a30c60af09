#!/usr/bin/env python3
"""check_infer_corpus.py INFER_DUMP [DIR...] - src/onnx's shape inference
against ONNX's reference backend and against onnx.shape_inference.

Every model of Debian's libonnx-testdata (or under the DIRs) with a
test_data_set_0 is loaded with python3-onnx; its graph inputs take the
shapes of input_N.pb (what the backend was given); every value_info and the
shapes of every graph output are removed. Then:

  a. the reference backend: infer_dump reads the model (onnx_model_read)
     and infers it; each main-graph
     output's inferred shape (when every dim is a number) must be the shape
     of output_N.pb, and its element type the tensor's. Zero wrong; the
     coverage (tensor outputs with a full shape: numbers, or symbols for
     data-dependent dims with the backend's rank and numbers) must be at
     least 90% of the whole corpus. An output that is a sequence or an
     optional has no tensor shape (its output_N.pb is a SequenceProto or an
     OptionalProto): it is counted apart, not in the coverage.
  b. onnx.shape_inference.infer_shapes(data_prop=True) on the same model:
     every value of every graph to which it gives a full static shape must
     have the same shape here when this inference gives one too.

  c. the same stripped model given to infer_dump as the JSON onnx_to_json.py
     writes from python3-onnx's objects: the same inference, model for
     model, unless the wire reader reads the model differently (a report).

Run with Debian's /usr/bin/python3 (onnx, numpy). Prints the figures and
each failure, the operators most often not inferred, and exits 1 on any
wrong shape or a coverage below the goal. --list prints every output not inferred and why."""
import collections
import glob
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile

import onnx
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_to_json  # noqa: E402


DUMP = None
NOT_TENSOR = "not a tensor"
GOAL = 90.0  # percent of the tensor outputs with a full shape


def default_dirs():
    out = subprocess.run(["dpkg", "-L", "libonnx-testdata"], capture_output=True, text=True)
    dirs = set()
    for line in out.stdout.splitlines():
        if line.endswith("/model.onnx"):
            dirs.add(os.path.dirname(line))
    return sorted(dirs)


def load_pb(path):
    """The dims and data type of a TensorProto file, or None (a sequence,
    an optional, a map: not a tensor)."""
    with open(path, "rb") as f:
        data = f.read()
    t = onnx.TensorProto()
    try:
        t.ParseFromString(data)
    except Exception:
        return None
    if not t.data_type and not t.dims:
        return None
    return list(t.dims), t.data_type


def prepare(model_dir):
    """The model with its inputs' shapes from test_data_set_0 and nothing
    declared past them; the expected outputs."""
    model = onnx.load(os.path.join(model_dir, "model.onnx"), load_external_data=False)
    ds = os.path.join(model_dir, "test_data_set_0")
    g = model.graph
    inits = {t.name for t in g.initializer}
    real_inputs = [vi for vi in g.input if vi.name not in inits]
    for k, vi in enumerate(real_inputs):
        p = os.path.join(ds, "input_%d.pb" % k)
        if not os.path.exists(p) or not vi.type.HasField("tensor_type"):
            continue
        pb = load_pb(p)
        if pb is None:
            continue
        shape = vi.type.tensor_type.shape
        del shape.dim[:]
        for d in pb[0]:
            shape.dim.add().dim_value = d
    expected = []
    for k, vo in enumerate(g.output):
        p = os.path.join(ds, "output_%d.pb" % k)
        if not vo.type.HasField("tensor_type"):
            # a sequence or optional: output_N.pb is a SequenceProto or an
            # OptionalProto, no TensorProto (read as one, its name's bytes
            # would be dims); no tensor shape to compare
            expected.append(NOT_TENSOR if os.path.exists(p) else None)
            continue
        expected.append(load_pb(p) if os.path.exists(p) else None)
    return model, expected


def dims_static(shape):
    return shape is not None and all(isinstance(d, int) for d in shape)


def symbolic_ok(shape, exp):
    """A full shape with symbols: rank and numbers as the backend's."""
    if shape is None or None in shape or len(shape) != len(exp):
        return False
    return all(not isinstance(d, int) or d == e for d, e in zip(shape, exp))


def onnx_shapes(model):
    """onnx.shape_inference's static shapes, per graph (walk order) and name."""
    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception:
        return None
    out = []

    def walk(g):
        shapes = {}
        for vi in list(g.value_info) + list(g.output):
            tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
            if tt is None or not tt.HasField("shape"):
                continue
            dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
            if all(d is not None for d in dims):
                shapes[vi.name] = dims
        out.append(shapes)
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g)

    walk(inferred.graph)
    return out


def strip_model(model):
    """A copy without value_info and without the graph outputs' shapes."""
    stripped = onnx.ModelProto()
    stripped.CopyFrom(model)

    def strip(g):
        del g.value_info[:]
        for vo in g.output:
            if vo.type.HasField("tensor_type"):
                vo.type.tensor_type.ClearField("shape")
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    strip(a.g)
                for sg in a.graphs:
                    strip(sg)

    strip(stripped.graph)
    return stripped


def check_one(model_dir):
    res = {"dir": model_dir, "outputs": 0, "not_tensors": 0, "inferred": 0, "symbolic": 0, "onnx_outputs": 0,
           "wrong": [], "missing": [], "missing_onnx": [],
           "onnx_static": 0, "onnx_agree": 0, "onnx_wrong": [], "onnx_only": 0,
           "ours_only": 0, "error": None}
    try:
        model, expected = prepare(model_dir)
    except Exception as e:  # a model python3-onnx cannot load is not ours to judge
        res["error"] = "load: %s" % e
        return res
    stripped = strip_model(model)
    with tempfile.NamedTemporaryFile("wb", suffix=".onnx", delete=False) as f:
        f.write(stripped.SerializeToString())
        path = f.name
    jpath = path[:-5] + ".json"
    with open(jpath, "w") as f:
        json.dump(onnx_to_json.model_json(stripped), f)
    try:
        out = subprocess.run([DUMP, path], capture_output=True, text=True, timeout=60)
        jout = subprocess.run([DUMP, jpath], capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(path)
        os.unlink(jpath)
    if out.returncode != 0:
        res["error"] = "infer_dump exit %d: %s" % (out.returncode, out.stderr.strip())
        return res
    # c. the same model read by onnx_model_read and by python3-onnx
    # (onnx_to_json.py): the same inference, or the reader differs
    res["same_as_json"] = jout.returncode == 0 and [
        l for l in out.stdout.splitlines() if not l.startswith('{"symbols"')] == [
        l for l in jout.stdout.splitlines() if not l.startswith('{"symbols"')]
    lines = [json.loads(l) for l in out.stdout.splitlines()]
    by_name = {}  # (graph, name) -> record
    for r in lines:
        if "g" in r:
            by_name[(r["g"], r["name"])] = r
    # a. against the reference backend's outputs
    for k, vo in enumerate(model.graph.output):
        exp = expected[k] if k < len(expected) else None
        if exp is None:
            continue
        r = by_name.get((0, vo.name))
        if r is None:
            continue  # an input or initializer passed through: no node
        if exp is NOT_TENSOR:
            res["not_tensors"] += 1
            continue
        res["outputs"] += 1
        if dims_static(r["shape"]):
            res["inferred"] += 1
            # the test data stores BFLOAT16 (16) results as UINT16 (4) tensors
            elem_ok = not r["elem"] or r["elem"] == exp[1] or (r["elem"], exp[1]) == (16, 4)
            if r["shape"] != exp[0] or not elem_ok:
                res["wrong"].append("%s: %s %s, backend %s %s" % (vo.name, r["shape"], r["elem"],
                                                                  exp[0], exp[1]))
        elif symbolic_ok(r["shape"], exp[0]):
            # a full shape with symbols (a data-dependent dim): its rank and
            # numbers must be the backend's
            res["symbolic"] += 1
            res["missing"].append((r["op"], r["reason"], vo.name, r["shape"]))
        else:
            if r["shape"] is not None and None not in r["shape"]:
                res["wrong"].append("%s: %s, backend %s" % (vo.name, r["shape"], exp[0]))
            res["missing"].append((r["op"], r["reason"], vo.name, r["shape"]))
    # b. against onnx.shape_inference (the same stripped model)
    ref = onnx_shapes(stripped)
    if ref is not None:
        for k, vo in enumerate(model.graph.output):
            if (0, vo.name) in by_name and k < len(expected) and expected[k] not in (None, NOT_TENSOR):
                res["onnx_outputs"] += vo.name in ref[0]
        for gi, shapes in enumerate(ref):
            for name, dims in shapes.items():
                r = by_name.get((gi, name))
                if r is None:
                    continue
                res["onnx_static"] += 1
                if dims_static(r["shape"]):
                    if r["shape"] == dims:
                        res["onnx_agree"] += 1
                    else:
                        res["onnx_wrong"].append("graph %d %s: %s, onnx %s" %
                                                 (gi, name, r["shape"], dims))
                else:
                    res["onnx_only"] += 1
                    res["missing_onnx"].append("graph %d %s (%s): %s, onnx %s: %s" % (
                        gi, name, r["op"], r["shape"], dims, r["reason"]))
        for (gi, name), r in by_name.items():
            if gi < len(ref) and dims_static(r["shape"]) and name not in ref[gi]:
                res["ours_only"] += 1
    return res


def main():
    global DUMP
    args = sys.argv[1:]
    listing = "--list" in args
    args = [a for a in args if a != "--list"]
    DUMP = os.path.abspath(args[0])
    whole = not args[1:]  # the goal holds for the whole corpus, not a part of it
    dirs = []
    for d in args[1:] or default_dirs():
        dirs += sorted(os.path.dirname(p) for p in glob.glob(os.path.join(d, "**/model.onnx"),
                                                              recursive=True)) or [d]
    dirs = [d for d in dirs if os.path.isdir(os.path.join(d, "test_data_set_0"))]
    with multiprocessing.Pool(os.cpu_count() or 2) as pool:
        results = pool.map(check_one, dirs, chunksize=8)
    tot = collections.Counter()
    why = collections.Counter()
    failed = False
    for r in results:
        if r["error"]:
            print("note: %s: %s" % (r["dir"], r["error"]))
            if r["error"].startswith("infer_dump"):
                failed = True
            continue
        for k in ("outputs", "not_tensors", "inferred", "symbolic", "onnx_outputs", "onnx_static", "onnx_agree", "onnx_only", "ours_only"):
            tot[k] += r[k]
        for w in r["wrong"]:
            print("WRONG (backend) %s: %s" % (r["dir"], w))
            failed = True
        for w in r["onnx_wrong"]:
            print("WRONG (onnx) %s: %s" % (r["dir"], w))
            failed = True
        if listing:
            for m in r["missing_onnx"]:
                print("onnx only %s: %s" % (os.path.basename(r["dir"]), m))
        for op, reason, name, shape in r["missing"]:
            why[op] += 1
            if listing:
                print("not inferred %s: %s %s (%s): %s" % (os.path.basename(r["dir"]), name, shape,
                                                          op, reason))
    wrong = sum(len(r["wrong"]) for r in results)
    onnx_wrong = sum(len(r["onnx_wrong"]) for r in results)
    cov = 100.0 * tot["inferred"] / max(tot["outputs"], 1)
    cov_all = 100.0 * (tot["inferred"] + tot["symbolic"]) / max(tot["outputs"], 1)
    print("a. reference backend: %d models, %d tensor outputs, %d inferred with numbers (%.1f%%), "
          "%d more with symbols (data-dependent dims; %.1f%% in all, goal %.0f%%), %d wrong; "
          "onnx.shape_inference gives %d of them a static shape (%.1f%%); "
          "%d more outputs are sequences or optionals (no tensor shape, not counted)"
          % (len(results), tot["outputs"], tot["inferred"], cov, tot["symbolic"], cov_all, GOAL,
             wrong, tot["onnx_outputs"], 100.0 * tot["onnx_outputs"] / max(tot["outputs"], 1),
             tot["not_tensors"]))
    if whole and cov_all < GOAL:
        print("FAIL: %.1f%% of the tensor outputs inferred, below the goal of %.0f%%"
              % (cov_all, GOAL))
        failed = True
    print("b. onnx.shape_inference: %d static values, %d equal here, %d wrong, "
          "%d only onnx infers, %d only this inference infers"
          % (tot["onnx_static"], tot["onnx_agree"], onnx_wrong, tot["onnx_only"],
             tot["ours_only"]))
    differ = [os.path.basename(r["dir"]) for r in results
              if not r["error"] and not r.get("same_as_json", True)]
    print("c. read by onnx_model_read and by python3-onnx (onnx_to_json.py): the same "
          "inference for %d of %d models; differ: %s"
          % (len(results) - len(differ), len(results), ", ".join(differ) or "none"))
    print("not inferred by op: %s" % ", ".join("%s %d" % kv for kv in why.most_common(25)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
