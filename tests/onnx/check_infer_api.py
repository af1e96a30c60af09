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
  - a sequence's (an optional's) elements keep their type and the dims
    they agree on, and its length: SequenceAt, ConcatFromSequence,
    SequenceLength and OptionalGetElement give them back, SequenceMap's body
    maps them; Gradient has its
    xs' shapes; Scan-8 keeps its batch axis;
  - Resize's and Upsample's scales from FLOAT initializers and Constants:
    floor(dim*scale) only where exact; float values through Cast, Mul,
    Div, Floor, Ceil back to integers only where whole;
  - reasons name the operator; a cycle is not inferred.
Exit 1 on the first case that fails."""
import json
import os
import subprocess
import sys
import tempfile

import onnx
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
    v, _, syms = run(m)
    expect(v[(0, "y")]["shape"] == ["y_dim_0", "y_dim_1"] and "y_dim_1" in syms,
           "If with an unknown condition: rank 2, each dim the branches give differently "
           "a new symbol: %s" % v[(0, "y")]["shape"])
    v, _, _ = run(m, "--dim", "y_dim_1=64")
    expect(v[(0, "y")]["shape"] == ["y_dim_0", 64], "an If's symbol can be bound")
    # a dim both branches agree on stays; one a branch leaves unknown stays unknown
    then_g = h.make_graph([h.make_node("Flatten", ["x"], ["t"], axis=1)], "t", [],
                          [vi("t", None)])
    else_g = h.make_graph([h.make_node("Flatten", ["x"], ["f"], axis=1),
                           h.make_node("Concat", ["f", "f"], ["e"], axis=1)], "e", [],
                          [vi("e", None)])
    m = model([h.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
              [x, vi("c", [], T.BOOL)], [vi("y", None)])
    v, _, _ = run(m)
    expect(v[(0, "y")]["shape"] == ["N", "y_dim_1"],
           "If: the dim both branches agree on stays: %s" % v[(0, "y")]["shape"])
    else_g = h.make_graph([h.make_node("Reshape", ["x", "s"], ["e"])], "e", [], [vi("e", None)])
    m = model([h.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
              [x, vi("c", [], T.BOOL), vi("s", [2], T.INT64)], [vi("y", None)])
    v, _, _ = run(m)
    expect(v[(0, "y")]["shape"] == [None, None],
           "If: a dim a branch leaves unknown stays unknown: %s" % v[(0, "y")]["shape"])
    # branches of different ranks whose outputs declare no type: the element
    # type both give is known (an activation record, not "type unknown")
    then_g = h.make_graph([h.make_node("Flatten", ["x"], ["t"], axis=2)], "t", [], [])
    then_g.output.add().name = "t"
    else_g = h.make_graph([h.make_node("Relu", ["x"], ["e"])], "e", [], [])
    else_g.output.add().name = "e"
    m = model([h.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g),
               h.make_node("Relu", ["y"], ["z"])], [x, vi("c", [], T.BOOL)], [vi("z", None)])
    v, _, _ = run(m)
    expect(v[(0, "y")]["shape"] is None and v[(0, "y")]["elem"] == T.FLOAT,
           "If with an unknown condition, ranks 2 and 4: the element type known: %s" % v[(0, "y")])

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

    # sequences and optionals: the shape every element has, and the length
    a, b = vi("a", [2, 3, 4]), vi("b", [2, 5, 4])
    m = model([h.make_node("SequenceConstruct", ["a", "a", "a"], ["s3"]),
               h.make_node("ConcatFromSequence", ["s3"], ["cat1"], axis=1),
               h.make_node("ConcatFromSequence", ["s3"], ["stack"], axis=-1, new_axis=1),
               h.make_node("SequenceLength", ["s3"], ["len"]),
               h.make_node("Unsqueeze", ["len", "axis0"], ["len1"]),
               h.make_node("Concat", ["len1", "minus1"], ["shape3"], axis=0),
               h.make_node("Reshape", ["a", "shape3"], ["flat3"]),
               h.make_node("SequenceConstruct", ["a", "b"], ["s2"]),
               h.make_node("SequenceAt", ["s2", "zero"], ["at"]),
               h.make_node("ConcatFromSequence", ["s2"], ["cat_ab"], axis=1),
               h.make_node("SequenceEmpty", [], ["e"]),
               h.make_node("SequenceInsert", ["e", "x"], ["s1"]),
               h.make_node("SequenceErase", ["s3"], ["s3e"]),
               h.make_node("ConcatFromSequence", ["s3e"], ["cat_erased"], axis=0),
               h.make_node("Identity", ["s1"], ["s1i"]),
               h.make_node("SequenceAt", ["s1i", "zero"], ["x_again"]),
               h.make_node("SplitToSequence", ["a"], ["pieces"], axis=2, keepdims=0),
               h.make_node("SequenceAt", ["pieces", "zero"], ["piece"]),
               h.make_node("SplitToSequence", ["a", "two"], ["halves"], axis=2),
               h.make_node("ConcatFromSequence", ["halves"], ["whole"], axis=2),
               h.make_node("SplitToSequence", ["a", "three"], ["uneven"], axis=2),
               h.make_node("SequenceAt", ["uneven", "zero"], ["uneven0"]),
               h.make_node("Optional", ["x"], ["opt"]),
               h.make_node("OptionalGetElement", ["opt"], ["got"])],
              [x, a, b], [vi("cat1", None)],
              inits=[h.make_tensor("zero", T.INT64, [], [0]), h.make_tensor("two", T.INT64, [], [2]),
                     h.make_tensor("three", T.INT64, [], [3]),
                     h.make_tensor("axis0", T.INT64, [1], [0]),
                     h.make_tensor("minus1", T.INT64, [1], [-1])])
    v, _, _ = run(m)
    shapes = {n: v[(0, n)]["shape"] for n in ("cat1", "stack", "flat3", "at", "cat_ab", "cat_erased",
                                             "x_again", "piece", "whole", "uneven0", "got")}
    expect(shapes == {"cat1": [2, 9, 4], "stack": [2, 3, 4, 3], "flat3": [3, 8], "at": [2, None, 4],
                      "cat_ab": [2, None, 4], "cat_erased": [4, 3, 4], "x_again": ["N", 3, 8, 8],
                      "piece": [2, 3], "whole": [2, 3, 4], "uneven0": [2, 3, None],
                      "got": ["N", 3, 8, 8]},
           "sequences: SequenceConstruct/Insert/Erase/SplitToSequence, then SequenceAt, "
           "ConcatFromSequence, SequenceLength, Optional: %s" % shapes)
    expect(v[(0, "at")]["elem"] == T.FLOAT and v[(0, "s3")]["shape"] is None,
           "an element's type is known; a sequence itself has no shape")

    # a sequence's or optional's element type declared by a graph input
    opt_t = h.make_optional_type_proto(h.make_tensor_type_proto(T.FLOAT, [4]))
    m = model([h.make_node("OptionalGetElement", ["oi"], ["oe"]),
               h.make_node("SequenceAt", ["si", "zero"], ["se"])],
              [h.make_value_info("oi", opt_t),
               h.make_tensor_sequence_value_info("si", T.INT64, ["N", 3])], [vi("oe", None)],
              inits=[h.make_tensor("zero", T.INT64, [], [0])])
    v, _, _ = run(m)
    expect(v[(0, "oe")]["shape"] == [4] and v[(0, "se")]["shape"] == ["N", 3] and
           v[(0, "se")]["elem"] == T.INT64,
           "declared optional and sequence inputs: their elements' shapes: %s %s"
           % (v[(0, "oe")]["shape"], v[(0, "se")]["shape"]))

    # SequenceMap: the body on the elements' shape, an output sequence of
    # the body's outputs
    body = h.make_graph([h.make_node("Add", ["el", "t"], ["sum"]),
                         h.make_node("Shape", ["el"], ["shp"])], "body",
                        [vi("el", None), vi("t", None)], [vi("sum", None), vi("shp", None, T.INT64)])
    m = model([h.make_node("SequenceConstruct", ["a", "a"], ["s2"]),
               h.make_node("SequenceMap", ["s2", "a"], ["sums", "shapes"], body=body),
               h.make_node("SequenceAt", ["sums", "zero"], ["s0"]),
               h.make_node("SequenceAt", ["shapes", "zero"], ["h0"]),
               h.make_node("SequenceLength", ["sums"], ["n"])],
              [a], [vi("s0", None)], inits=[h.make_tensor("zero", T.INT64, [], [0])])
    v, _, _ = run(m)
    expect(v[(0, "s0")]["shape"] == [2, 3, 4] and v[(0, "h0")]["shape"] == [3],
           "SequenceMap: the body's outputs as the elements: %s %s"
           % (v[(0, "s0")]["shape"], v[(0, "h0")]["shape"]))

    # If with sequences in its branches, the condition unknown: the
    # elements' dims that agree
    then_g = h.make_graph([h.make_node("SequenceConstruct", ["a"], ["ts"])], "then", [],
                          [h.make_tensor_sequence_value_info("ts", T.FLOAT, None)])
    else_g = h.make_graph([h.make_node("SequenceConstruct", ["b"], ["es"])], "else", [],
                          [h.make_tensor_sequence_value_info("es", T.FLOAT, None)])
    m = model([h.make_node("If", ["c"], ["s"], then_branch=then_g, else_branch=else_g),
               h.make_node("SequenceAt", ["s", "zero"], ["y"])],
              [a, b, vi("c", [], T.BOOL)], [vi("y", None)],
              inits=[h.make_tensor("zero", T.INT64, [], [0])])
    v, _, _ = run(m)
    expect(v[(0, "y")]["shape"] == [2, None, 4] and v[(0, "y")]["elem"] == T.FLOAT,
           "If of sequences, the condition unknown: %s" % v[(0, "y")])

    # Gradient (ai.onnx.preview.training): each gradient has its x's shape
    m = h.make_model(h.make_graph(
        [h.make_node("Add", ["a", "a"], ["c"]),
         h.make_node("Gradient", ["a", "b"], ["dc_da"], domain="ai.onnx.preview.training",
                     xs=["a"], zs=["b"], y="c")], "g", [a, b], [vi("dc_da", None)]),
        opset_imports=[h.make_opsetid("", 12), h.make_opsetid("ai.onnx.preview.training", 1)])
    v, _, _ = run(m)
    expect(v[(0, "dc_da")]["shape"] == [2, 3, 4], "Gradient: x's shape: %s" % v[(0, "dc_da")])

    # Scan before opset 9: sequence_lens first, a batch axis 0 everywhere,
    # scanned along axis 1
    body = h.make_graph([h.make_node("Add", ["sum_in", "next"], ["sum_out"]),
                         h.make_node("Identity", ["sum_out"], ["scan_out"])], "body",
                        [vi("sum_in", [2]), vi("next", [2])],
                        [vi("sum_out", [2]), vi("scan_out", [2])])
    m = h.make_model(h.make_graph(
        [h.make_node("Scan", ["", "init", "xs"], ["y", "z"], body=body, num_scan_inputs=1)], "g",
        [vi("init", ["B", 2]), vi("xs", ["B", 5, 2])], [vi("y", None), vi("z", None)]),
        opset_imports=[h.make_opsetid("", 8)])
    v, _, _ = run(m)
    expect(v[(0, "y")]["shape"] == ["B", 2] and v[(0, "z")]["shape"] == ["B", 5, 2],
           "Scan-8: the batch axis kept, scan outputs stacked along axis 1: %s %s"
           % (v[(0, "y")]["shape"], v[(0, "z")]["shape"]))

    # Resize's and Upsample's scales: small FLOAT initializers and Constants
    # are read; floor(dim*scale) when exact and a float32 product floors the
    # same (10*0.7f is 6.99999988 exactly, 7.0 in float32: unknown)
    y = vi("y", [1, 3, 10, 7])
    m = model([h.make_node("Constant", [], ["s2"], value=h.make_tensor("v", T.FLOAT, [4],
                                                                       [1, 1, 2, 2])),
               h.make_node("Resize", ["x", "", "s2"], ["up2"], mode="nearest"),
               h.make_node("Resize", ["y", "", "odd"], ["odd_out"], mode="linear"),
               h.make_node("Resize", ["y", "", "seven"], ["seven_out"]),
               h.make_node("Resize", ["y", "", "given"], ["given_out"])],
              [x, y, vi("given", [4])], [vi("up2", None)],
              inits=[h.make_tensor("odd", T.FLOAT, [4], [1, 1, 0.6, 1.5]),
                     h.make_tensor("seven", T.FLOAT, [4], [1, 1, 0.7, 1]),
                     h.make_tensor("given", T.FLOAT, [4], [1, 1, 2, 2])])
    v, _, _ = run(m)
    shapes = {n: v[(0, n)]["shape"] for n in ("up2", "odd_out", "seven_out", "given_out")}
    expect(shapes == {"up2": ["N", 3, 16, 16], "odd_out": [1, 3, 6, 10],
                      "seven_out": [1, 3, None, 7], "given_out": [None] * 4},
           "Resize with float scales: a Constant, an initializer, 10*0.7f unknown, "
           "an input's default not read: %s" % shapes)
    m = h.make_model(h.make_graph(
        [h.make_node("Upsample", ["x", "sc"], ["u"], mode="nearest")], "g", [x], [vi("u", None)],
        [h.make_tensor("sc", T.FLOAT, [4], [1, 1, 2, 3])]), opset_imports=[h.make_opsetid("", 9)])
    v, _, _ = run(m)
    expect(v[(0, "u")]["shape"] == ["N", 3, 16, 24], "Upsample-9's scales: %s" % v[(0, "u")])

    # float values through a shape computation, as exporters write
    # F.interpolate(scale_factor=1.5): H, W of [N,3,7,8] times 1.5f, Floor,
    # back to int64 (10, 12); without the Floor, 7*0.7f = 4.9 is no integer
    z = vi("z", ["N", 3, 7, 8])
    m = model([h.make_node("Shape", ["z"], ["shp"]),
               h.make_node("Gather", ["shp", "hw_idx"], ["hw"]),
               h.make_node("Cast", ["hw"], ["hw_f"], to=T.FLOAT),
               h.make_node("Constant", [], ["k"], value_float=1.5),
               h.make_node("Mul", ["hw_f", "k"], ["hw_s"]),
               h.make_node("Floor", ["hw_s"], ["hw_fl"]),
               h.make_node("Cast", ["hw_fl"], ["hw_i"], to=T.INT64),
               h.make_node("Slice", ["shp", "zero1", "two1"], ["nc"]),
               h.make_node("Concat", ["nc", "hw_i"], ["sizes"], axis=0),
               h.make_node("Resize", ["z", "", "", "sizes"], ["up"]),
               h.make_node("Mul", ["hw_f", "p7"], ["hw_p7"]),
               h.make_node("Cast", ["hw_p7"], ["hw_p7i"], to=T.INT64),
               h.make_node("Concat", ["nc", "hw_p7i"], ["sizes2"], axis=0),
               h.make_node("Resize", ["z", "", "", "sizes2"], ["down"]),
               h.make_node("Div", ["hw_fl", "two_f"], ["half"]),
               h.make_node("Ceil", ["half"], ["half_up"]),
               h.make_node("Cast", ["half_up"], ["half_i"], to=T.INT64),
               h.make_node("ConstantOfShape", ["half_i"], ["ones"])],
              [z], [vi("up", None)],
              inits=[h.make_tensor("hw_idx", T.INT64, [2], [2, 3]),
                     h.make_tensor("zero1", T.INT64, [1], [0]),
                     h.make_tensor("two1", T.INT64, [1], [2]),
                     h.make_tensor("p7", T.FLOAT, [], [0.7]),
                     h.make_tensor("two_f", T.FLOAT, [1], [2.0])])
    v, _, _ = run(m)
    shapes = {n: v[(0, n)]["shape"] for n in ("up", "down", "ones")}
    expect(shapes == {"up": ["N", 3, 10, 12], "down": [None] * 4, "ones": [5, 6]},
           "float values: Cast, Mul, Floor, Div, Ceil, back to int64 where whole: %s" % shapes)

    # a cycle and an unknown operator: not inferred, with the op in the reason
    m = model([h.make_node("Relu", ["b"], ["a"]), h.make_node("Relu", ["a"], ["b"]),
               h.make_node("Frobnicate", ["x"], ["z"], domain="com.example")], [x],
              [vi("b", None)])
    v, _, _ = run(m)
    expect(all(v[(0, n)]["shape"] is None and
               v[(0, n)]["reason"].startswith("Relu: graph_cycle") for n in "ab"),
           "a cycle: %s" % v[(0, "a")]["reason"])
    # nodes out of topological order (a converter appended a Cast after the
    # node that reads it): inferred in the order a runtime sorts them
    m = model([h.make_node("Relu", ["c"], ["d"]), h.make_node("Cast", ["x"], ["c"], to=10),
               h.make_node("Relu", ["d"], ["e"])], [x], [vi("e", None)])
    w, _, _ = run(m)
    expect(w[(0, "d")]["shape"] == ["N", 3, 8, 8] and w[(0, "e")]["shape"] == ["N", 3, 8, 8],
           "out of order: %s" % w[(0, "d")])
    # Dropout's mask is BOOL even when its shape is unknown (ONNX Runtime
    # says bool: swin_t's export at a dim inference could not resolve)
    m = model([h.make_node("Dropout", ["u"], ["du", "mask"])], [vi("u", None)], [vi("du", None)])
    w, _, _ = run(m)
    expect(w[(0, "mask")]["elem"] == T.BOOL, "Dropout's mask type: %s" % w[(0, "mask")])
    # values of any rank (PyTorch's F.pad with computed pads): a 2-D value
    # through Slice with step -1, Transpose and Reshape gives Pad its pads;
    # Concat along axis 1 and Gather of a 2-D value too
    big = -(2 ** 63) + 1
    m = model([h.make_node("Slice", ["p2", "st", "en", "ax", "sp"], ["rev"]),
               h.make_node("Transpose", ["rev"], ["tr"], perm=[1, 0]),
               h.make_node("Reshape", ["tr", "m1"], ["pads"]),
               h.make_node("Pad", ["u4", "pads"], ["padded"]),
               h.make_node("Concat", ["p2", "p2"], ["cat"], axis=1),
               h.make_node("Gather", ["cat", "one"], ["row"], axis=0),
               h.make_node("Reshape", ["v6", "row"], ["re"])],
              [vi("u4", [4, 5]), vi("v6", [6, 6])], [vi("padded", None), vi("re", None)],
              [h.make_tensor("p2", T.INT64, [2, 2], [0, 1, 2, 3]),
               h.make_tensor("st", T.INT64, [1], [-1]), h.make_tensor("en", T.INT64, [1], [big]),
               h.make_tensor("ax", T.INT64, [1], [0]), h.make_tensor("sp", T.INT64, [1], [-1]),
               h.make_tensor("m1", T.INT64, [1], [-1]), h.make_tensor("one", T.INT64, [], [1])])
    w, _, _ = run(m)
    # pads [[2,3],[0,1]] transposed: begins [2,0], ends [3,1]; row 1 of
    # [[0,1,0,1],[2,3,2,3]] is [2,3,2,3], the shape v6's 36 elements take
    expect(w[(0, "padded")]["shape"] == [9, 6], "F.pad's computed pads: %s" % w[(0, "padded")])
    expect(w[(0, "re")]["shape"] == [2, 3, 2, 3], "Concat, Gather of 2-D values: %s" % w[(0, "re")])
    # an If whose branches declare their output with an empty TypeProto
    # (none of ONNX's cases: Silero VAD's nested Ifs) and compute a tensor
    # whose shape is not inferred: unknown, not a sequence
    def branch(name):
        out = onnx.ValueInfoProto(name=name)
        out.type.SetInParent()
        return h.make_graph([h.make_node("Frob", ["u4"], [name], domain="com.example")], name,
                            [], [out])
    m = model([h.make_node("If", ["flag"], ["chosen"], then_branch=branch("t1"),
                           else_branch=branch("e1")),
               h.make_node("Relu", ["chosen"], ["after"])],
              [vi("u4", [4, 5]), vi("flag", [], T.BOOL)], [vi("after", None)])
    w, _, _ = run(m)
    expect(not w[(0, "chosen")]["not_tensor"] and w[(0, "chosen")]["shape"] is None,
           "If of empty-typed branch outputs: %s" % w[(0, "chosen")])
    # Shape of a value of unknown rank is 1-D
    m = model([h.make_node("Shape", ["u"], ["su"])], [vi("u", None)], [vi("su", None, T.INT64)])
    w, _, _ = run(m)
    expect(w[(0, "su")]["shape"] == [None], "Shape of an unknown rank: %s" % w[(0, "su")])
    expect(v[(0, "z")]["shape"] is None and "another domain" in v[(0, "z")]["reason"],
           "another domain's operator: %s" % v[(0, "z")]["reason"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
