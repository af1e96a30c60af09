#!/usr/bin/env python3
"""check_infer_api.py INFER_DUMP - what the inference promises beyond
shapes, on small models written here with onnx.helper, each case with the
answer worked out by hand from the ONNX spec:

  - a declared fixed dim that contradicts the inferred one is a mismatch
    (declared and inferred numbers), and that dim is unknown;
  - declared dims fill in what inference cannot give (a Reshape whose
    shape is a graph input), the output still counted as inferred;
  - --shape sets an input's whole shape; --dim binds a symbol;
  - a data-dependent dim is a new symbol named after its value, NAME_2
    when a model symbol already has that name;
  - If with a known condition takes its branch; with an unknown one, the
    dims both branches agree on;
  - a Loop without a condition input stacks its scan outputs M times;
  - reasons name the operator; a cycle is not inferred.
Exit 1 on the first case that fails."""
import json
import os
import subprocess
import sys
import tempfile

from onnx import TensorProto as T
from onnx import helper as h

DUMP = None


def run(model, *args):
    with tempfile.NamedTemporaryFile("wb", suffix=".onnx", delete=False) as f:
        f.write(model.SerializeToString())
        path = f.name
    try:
        out = subprocess.run([DUMP, *args, path], capture_output=True, text=True, check=True)
    finally:
        os.unlink(path)
    recs = [json.loads(l) for l in out.stdout.splitlines()]
    values = {(r["g"], r["name"]): r for r in recs if "g" in r}
    mism = [r["mismatch"] for r in recs if "mismatch" in r]
    return values, mism, recs[-1]["symbols"]


def model(nodes, inputs, outputs, inits=(), value_info=()):
    g = h.make_graph(nodes, "g", inputs, outputs, list(inits), value_info=list(value_info))
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17)])


def vi(name, shape, t=T.FLOAT):
    return h.make_tensor_value_info(name, t, shape)


def expect(cond, what):
    if not cond:
        print("FAIL: " + what)
        sys.exit(1)
    print("ok: " + what)


def main():
    global DUMP
    DUMP = os.path.abspath(sys.argv[1])
    x = vi("x", ["N", 3, 8, 8])

    # mismatch: Relu keeps [N,3,8,8]; value_info says dim 2 is 5
    m = model([h.make_node("Relu", ["x"], ["r"]), h.make_node("Relu", ["r"], ["s"])], [x],
              [vi("s", None)], value_info=[vi("r", ["N", 3, 5, 8])])
    v, mm, _ = run(m)
    expect(mm == [{"g": 0, "name": "r", "dim": 2, "declared": 5, "inferred": 8}],
           "a declared fixed dim that differs is a mismatch: %s" % mm)
    expect(v[(0, "r")]["shape"] == ["N", 3, None, 8], "the contradicted dim is unknown")
    expect(v[(0, "s")]["shape"] == ["N", 3, None, 8], "and stays unknown downstream")

    # declared fills in: Reshape's shape is a graph input
    m = model([h.make_node("Reshape", ["x", "shape"], ["r"])],
              [x, vi("shape", [2], T.INT64)], [vi("r", None)],
              value_info=[vi("r", ["N", 192])])
    v, mm, _ = run(m)
    expect(v[(0, "r")]["shape"] == ["N", 192] and v[(0, "r")]["source"] == "inferred" and not mm,
           "declared dims fill in a Reshape of unknown values: %s" % v[(0, "r")])

    # --shape and --dim
    m = model([h.make_node("Flatten", ["x"], ["f"], axis=1)], [x], [vi("f", None)])
    v, _, syms = run(m, "--shape", "x=5,3,8,8")
    expect(v[(0, "f")]["shape"] == [5, 192], "--shape sets the input's shape")
    v, _, syms = run(m, "--dim", "N=7")
    expect(v[(0, "f")]["shape"] == [7, 192] and syms == [], "--dim binds N")
    v, _, syms = run(m)
    expect(v[(0, "f")]["shape"] == ["N", 192] and syms == ["N"], "unbound, N stays a symbol")

    # data-dependent: NonZero's count is a new symbol named after the value
    m = model([h.make_node("NonZero", ["x"], ["nz"]), h.make_node("NonZero", ["x"], ["N"])],
              [x], [vi("nz", None)])
    v, _, syms = run(m)
    expect(v[(0, "nz")]["shape"] == [4, "nz"], "NonZero: [rank, nz]")
    expect(v[(0, "N")]["shape"] == [4, "N_2"] and "N_2" in syms,
           "a value named like a model symbol gets N_2: %s" % v[(0, "N")]["shape"])
    v, _, _ = run(m, "--dim", "nz=11")
    expect(v[(0, "nz")]["shape"] == [4, 11], "a data-dependent symbol can be bound")

    # If: known condition takes its branch; unknown keeps what both agree on
    then_g = h.make_graph([h.make_node("Flatten", ["x"], ["t"], axis=2)], "t", [],
                          [vi("t", None)])
    else_g = h.make_graph([h.make_node("Flatten", ["x"], ["e"], axis=1)], "e", [],
                          [vi("e", None)])
    cond = h.make_tensor("c", T.BOOL, [], [True])
    m = model([h.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
              [x], [vi("y", None)], inits=[cond])
    v, _, _ = run(m)
    expect(v[(0, "y")]["shape"] == ["N*3", 64], "If with a known condition: the then branch")
    m = model([h.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
              [x, vi("c", [], T.BOOL)], [vi("y", None)])
    v, _, _ = run(m)
    expect(v[(0, "y")]["shape"] == [None, None] and "If" in v[(0, "y")]["reason"],
           "If with an unknown condition: rank 2, the dims differ")

    # Loop: M = 6, no condition input: scan outputs stacked 6 times
    body = h.make_graph([h.make_node("Identity", ["cond"], ["cond_out"]),
                         h.make_node("Add", ["acc", "one"], ["acc_out"]),
                         h.make_node("Cast", ["i"], ["i_f"], to=1)], "body",
                        [vi("i", [], T.INT64), vi("cond", [], T.BOOL), vi("acc", None)],
                        [vi("cond_out", [], T.BOOL), vi("acc_out", None), vi("i_f", None)])
    m = model([h.make_node("Loop", ["M", "", "x"], ["final", "iters"], body=body)], [x],
              [vi("final", None)],
              inits=[h.make_tensor("M", T.INT64, [], [6]), h.make_tensor("one", T.FLOAT, [], [1.0])])
    v, _, _ = run(m)
    expect(v[(0, "final")]["shape"] == ["N", 3, 8, 8], "Loop: the carried shape is kept")
    expect(v[(0, "iters")]["shape"] == [6], "Loop: scan outputs stacked M = 6 times")

    # a cycle and an unknown operator: not inferred, with the op in the reason
    m = model([h.make_node("Relu", ["b"], ["a"]), h.make_node("Relu", ["a"], ["b"]),
               h.make_node("Frobnicate", ["x"], ["z"], domain="com.example")], [x],
              [vi("b", None)])
    v, _, _ = run(m)
    expect(v[(0, "a")]["shape"] is None and v[(0, "a")]["reason"].startswith("Relu: input 'b'"),
           "a cycle: %s" % v[(0, "a")]["reason"])
    expect(v[(0, "z")]["shape"] is None and "another domain" in v[(0, "z")]["reason"],
           "another domain's operator: %s" % v[(0, "z")]["reason"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
