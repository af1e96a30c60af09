#!/usr/bin/env python3
"""check_infer_since.py INFER_DUMP CC SRC_DIR - the operator table's since
column (src/onnx/onnx_infer_ops.c, as CC's preprocessor expands it)
against onnx.shape_inference.

Every operator whose line gives a since S (the opset from which it takes
its later form: an input where it read an attribute, numpy broadcasting)
is built at opset S - 1 in its earlier form, where ONNX has the operator
there, and at opset S in its later form, with the shapes where the two
forms give different answers; each output's shape and element type from infer_dump
must be onnx.shape_inference's (strict) when that gives a full static
shape, and
each side must be compared at least once. A since one too high or too low
reads the wrong form at one of the two opsets: a different shape or none.
An operator with a since and no model here fails the test (write its
models), as does a model of an operator the table gives no since.

Run with Debian's /usr/bin/python3 (onnx, numpy)."""
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def since_column(cc, src):
    """{operator: since} for every line of the table with a since above 0,
    read from the table as the preprocessor expands its macros."""
    onnx_dir = os.path.join(src, "src", "onnx")
    out = subprocess.run([cc, "-E", "-P", "-I", onnx_dir, os.path.join(onnx_dir, "onnx_infer_ops.c")],
                         capture_output=True, text=True, check=True).stdout
    table = out[out.index("onnx__infer_ops[] = {"):]
    found = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"\{\s*\"([\w.]+)\"\s*,\s*\w+\s*,\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*\w+\s*,\s*(\d+)\s*,", table)}
    if len(found) < 100:
        raise SystemExit(f"check_infer_since: read {len(found)} lines of the table, too few")
    return {op: s for op, s in found.items() if s > 0}


def vi(n, shape, t=T.FLOAT):
    return h.make_tensor_value_info(n, t, shape)


def i64(n, v):
    return nh.from_array(np.array(v, dtype=np.int64), n)


def f32(n, v):
    return nh.from_array(np.array(v, dtype=np.float32), n)


# Each operator: (earlier form, later form), each a function of the op
# name giving (nodes, inputs, initializers); the output is "y".
def binary(early_a, early_b, late_a, late_b, t=T.FLOAT):
    return (lambda op: ([h.make_node(op, ["a", "b"], ["y"], broadcast=1, axis=1)],
                        [vi("a", early_a, t), vi("b", early_b, t)], []),
            lambda op: ([h.make_node(op, ["a", "b"], ["y"])],
                        [vi("a", late_a, t), vi("b", late_b, t)], []))


ARITH = binary([2, 3, 4], [3], [2, 1, 4], [3, 1])
LOGIC = binary([2, 3, 4], [3], [2, 1, 4], [3, 1], T.BOOL)
REDUCE = (lambda op: ([h.make_node(op, ["x"], ["y"], axes=[1], keepdims=0)],
                      [vi("x", [2, 3, 4])], []),
          lambda op: ([h.make_node(op, ["x", "ax"], ["y"], keepdims=0)],
                      [vi("x", [2, 3, 4])], [i64("ax", [1])]))
SQUEEZE = (lambda op: ([h.make_node(op, ["x"], ["y"], axes=[0])], [vi("x", [1, 3, 1])], []),
           lambda op: ([h.make_node(op, ["x", "ax"], ["y"])], [vi("x", [1, 3, 1])],
                       [i64("ax", [0])]))

BUILD = {
    "DequantizeLinear": (
        lambda op: ([h.make_node(op, ["x", "s"], ["y"])],
                    [vi("x", [2, 3], T.INT8), vi("s", [], T.FLOAT)], []),
        lambda op: ([h.make_node(op, ["x", "s"], ["y"])],
                    [vi("x", [2, 3], T.INT8), vi("s", [], T.FLOAT16)], [])),
    "Squeeze": SQUEEZE,
    "Unsqueeze": SQUEEZE,
    "Split": (
        lambda op: ([h.make_node(op, ["x"], ["y", "z"], axis=1, split=[1, 3])],
                    [vi("x", [2, 4])], []),
        lambda op: ([h.make_node(op, ["x", "s"], ["y", "z"], axis=1)], [vi("x", [2, 4])],
                    [i64("s", [1, 3])])),
    "Reshape": (
        lambda op: ([h.make_node(op, ["x"], ["y"], shape=[3, 2])], [vi("x", [2, 3])], []),
        lambda op: ([h.make_node(op, ["x", "s"], ["y"])], [vi("x", [2, 3])], [i64("s", [6])])),
    "Concat": (
        lambda op: ([h.make_node(op, ["a", "b"], ["y"])], [vi("a", [2, 3]), vi("b", [2, 3])],
                    []),
        lambda op: ([h.make_node(op, ["a", "b"], ["y"], axis=0)],
                    [vi("a", [2, 3]), vi("b", [2, 3])], [])),
    "Slice": (
        lambda op: ([h.make_node(op, ["x"], ["y"], starts=[1], ends=[3], axes=[1])],
                    [vi("x", [4, 5])], []),
        lambda op: ([h.make_node(op, ["x", "s", "e", "ax"], ["y"])], [vi("x", [4, 5])],
                    [i64("s", [1]), i64("e", [3]), i64("ax", [1])])),
    "Pad": (
        lambda op: ([h.make_node(op, ["x"], ["y"], pads=[1, 0, 1, 2])], [vi("x", [4, 5])], []),
        lambda op: ([h.make_node(op, ["x", "p"], ["y"])], [vi("x", [4, 5])],
                    [i64("p", [1, 0, 1, 2])])),
    "TopK": (
        lambda op: ([h.make_node(op, ["x"], ["y", "i"], k=2)], [vi("x", [4, 5])], []),
        lambda op: ([h.make_node(op, ["x", "k"], ["y", "i"])], [vi("x", [4, 5])],
                    [i64("k", [2])])),
    "Upsample": (
        lambda op: ([h.make_node(op, ["x"], ["y"], scales=[1.0, 1.0, 2.0, 3.0])],
                    [vi("x", [1, 1, 3, 4])], []),
        lambda op: ([h.make_node(op, ["x", "s"], ["y"])], [vi("x", [1, 1, 3, 4])],
                    [f32("s", [1, 1, 2, 3])])),
    "Resize": (
        lambda op: ([h.make_node(op, ["x", "s"], ["y"])], [vi("x", [1, 1, 3, 4])],
                    [f32("s", [1, 1, 2, 3])]),
        lambda op: ([h.make_node(op, ["x", "r", "s"], ["y"])], [vi("x", [1, 1, 3, 4])],
                    [f32("r", []), f32("s", [1, 1, 2, 3])])),
    "DFT": (
        lambda op: ([h.make_node(op, ["x"], ["y"], axis=1, onesided=1)],
                    [vi("x", [2, 8, 6, 1])], []),
        lambda op: ([h.make_node(op, ["x", "", "a"], ["y"], onesided=1)],
                    [vi("x", [2, 8, 6, 1])], [i64("a", 1)])),
}
for _op in ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
            "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"):
    BUILD[_op] = REDUCE
for _op in ("Add", "Sub", "Mul", "Div", "Mod", "Pow", "PRelu", "BitShift", "Equal", "Less",
            "Greater", "LessOrEqual", "GreaterOrEqual"):
    BUILD[_op] = ARITH
for _op in ("And", "Or", "Xor"):
    BUILD[_op] = LOGIC
# Left out, with the reason: numpy broadcasting reached them at opset 8
# while the table's since is 7 (before it they took same shapes: a model at
# opset 7 of different shapes is not valid, so no answer to compare);
# bitwise operators are from opset 18, integers only; Scan's earlier form
# (opset 8's sequence_lens) is tested by the corpus (test_scan_sum).
LEFT_OUT = {"Max", "Min", "Sum", "Mean", "Scan", "BitwiseAnd", "BitwiseOr", "BitwiseXor"}
# PRelu broadcasts the slope to X (unidirectional) in both forms, and has
# no broadcast attribute before 7: X's shape either way (both forms valid).
BUILD["PRelu"] = (lambda op: ([h.make_node(op, ["a", "b"], ["y"])],
                              [vi("a", [2, 3, 4]), vi("b", [2, 3, 4])], []),
                  lambda op: ([h.make_node(op, ["a", "b"], ["y"])],
                              [vi("a", [2, 3, 4]), vi("b", [3, 1])], []))

# The answer from the operator's specification, at one opset, where
# onnx.shape_inference has none: no inference function for the earliest
# versions (Concat-1, Reshape-1), or an opset newer than the installed onnx
# knows (it would judge by an older schema): (shape, element type) of "y".
HAND = {
    ("Concat", 3): ([2, 6], T.FLOAT),  # Concat-1: axis 1 when not given
    ("Reshape", 4): ([3, 2], T.FLOAT),  # Reshape-1: the shape attribute
    ("DFT", 19): ([2, 5, 6, 2], T.FLOAT),  # DFT-17: axis 1, one-sided: 8 // 2 + 1
    ("DFT", 20): ([2, 5, 6, 2], T.FLOAT),  # DFT-20: the same, the axis an input
    ("DequantizeLinear", 18): ([2, 3], T.FLOAT),  # DequantizeLinear-13: float
    ("DequantizeLinear", 19): ([2, 3], T.FLOAT16),  # DequantizeLinear-19: x_scale's type
}
for _op in ("ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
            "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"):
    HAND[(_op, 18)] = ([2, 4], T.FLOAT)  # Reduce*-18: axes input [1], keepdims 0

failures = []


def exists(op, opset):
    """Whether ONNX has op at opset (its first version at most opset)."""
    try:
        first = min(s.since_version for s in onnx.defs.get_all_schemas_with_history()
                    if s.name == op and s.domain == "")
    except ValueError:
        return False
    return first <= opset


def reference(model, op, opset):
    """(shape, element type) of "y": onnx.shape_inference's on a model whose
    node onnx's checker accepts at that opset (the form valid there), else
    the hand answer; None for a node the checker refuses, or no answer."""
    hand = HAND.get((op, opset))
    if opset > onnx.defs.onnx_opset_version():
        return hand
    ctx = onnx.checker.C.CheckerContext()
    ctx.ir_version = model.ir_version
    ctx.opset_imports = {"": opset}
    try:
        for node in model.graph.node:
            onnx.checker.check_node(node, ctx)
    except onnx.checker.ValidationError:  # a form not valid at this opset
        return None
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
    except Exception:  # noqa: BLE001
        return hand
    for v in list(inferred.graph.value_info) + list(inferred.graph.output):
        if v.name == "y" and v.type.tensor_type.HasField("shape"):
            dims = v.type.tensor_type.shape.dim
            if all(d.HasField("dim_value") for d in dims):
                return [d.dim_value for d in dims], v.type.tensor_type.elem_type
    return hand


def ours(dump, path):
    out = subprocess.run([dump, path], capture_output=True, text=True, check=False)
    for line in out.stdout.splitlines():
        rec = json.loads(line)
        if rec.get("name") == "y":
            return rec.get("shape"), rec.get("elem")
    return None


def main():
    dump, cc, src = sys.argv[1], sys.argv[2], sys.argv[3]
    table = since_column(cc, src)
    if not table:
        print("FAIL: no since read from the table")
        return 1
    for op in sorted(set(BUILD) - set(table)):
        failures.append(f"{op}: models here, no since in the table")
    compared = 0
    with tempfile.TemporaryDirectory() as tmp:
        for op, since in sorted(table.items()):
            if op in LEFT_OUT:
                continue
            if op not in BUILD:
                failures.append(f"{op}: since {since} in the table, no models in this test")
                continue
            if not exists(op, since):
                print(f"  {op}: not in ONNX at its since {since} (later): nothing to tell apart")
                continue
            sides = 0
            for opset, which, form in ((since - 1, "earlier", BUILD[op][0]),
                                       (since, "later", BUILD[op][1])):
                if not exists(op, opset):
                    sides += 1  # the operator begins at its since: one form
                    continue
                nodes, inputs, inits = form(op)
                graph = h.make_graph(nodes, op, inputs,
                                     [h.make_empty_tensor_value_info("y")],
                                     initializer=inits)
                model = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
                model.ir_version = 7
                want = reference(model, op, opset)
                if want is None:
                    print(f"  {op} at opset {opset}: not valid in this form, or no answer")
                    continue
                path = os.path.join(tmp, f"{op}_{opset}.onnx")
                onnx.save(model, path)
                got = ours(dump, path)
                compared += 1
                sides += 1
                if got != tuple(want):
                    failures.append(f"{op} at opset {opset} (since {since}): {got}, "
                                    f"the reference {want}")
            if sides < 2:
                failures.append(f"{op}: a side of since {since} not compared")
    for f in failures:
        print("FAIL", f)
    print(f"{len(table)} operators with a since, {compared} models compared, "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
