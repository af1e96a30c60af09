#!/usr/bin/env python3
"""make_models.py OUTDIR - the ONNX models the tests of `scan` need, made with
python3-onnx's helper (Debian's /usr/bin/python3). Each covers what a real
exporter may write and what DirectML cannot take:

  zoo.onnx        every kind (input, output, initializer, sparse_initializer,
                  value_info, Constant value and value_* attributes), If and
                  Loop subgraphs (nested), a scalar, BOOL, a sequence, a map,
                  an optional, an untyped value, a shapeless one, symbolic dims
                  N and T, an unknown dim, rank 9, a zero dim, a dim of 2^32,
                  a negative dim
  dtypes.onnx     one initializer (no data) and one input per TensorProto data
                  type 1..23, supported or not
  external.onnx   initializers whose data is external, in a file that is not
                  there (it must not matter)
  tiny.onnx       one input, one output, one initializer: for truncations
  runtime.onnx    what a runtime does before it runs (SPEC section 11): nodes
                  out of topological order (a MatMul before the Identity of
                  the weight it reads), weights through Identity(initializer),
                  a Constant's arithmetic, Shape and Gather of an input (folded
                  once N is bound), RandomNormal (never folded)
  cycle.onnx      two Relus reading each other's outputs

Run: /usr/bin/python3 tests/onnx/make_models.py DIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper, numpy_helper


def vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def zoo():
    x = vi("X", T.FLOAT, ["N", 3, 4, 4])
    y = vi("Y", T.FLOAT16, ["N", "T"])
    cond = vi("cond", T.BOOL, [])
    seq = helper.make_tensor_sequence_value_info("S", T.FLOAT, [2])
    mt = onnx.TypeProto()
    mt.map_type.key_type = T.INT64
    mt.map_type.value_type.CopyFrom(helper.make_tensor_type_proto(T.FLOAT, [1]))
    mp = helper.make_value_info("M", mt)
    opt = helper.make_value_info("O", helper.make_optional_type_proto(helper.make_tensor_type_proto(T.FLOAT, [2])))
    untyped = onnx.ValueInfoProto(name="untyped")
    shapeless = helper.make_value_info("shapeless", helper.make_tensor_type_proto(T.FLOAT, None))
    unknown = vi("unknown_dim", T.FLOAT, [None, 3])
    r9 = vi("rank9", T.FLOAT, [1] * 9)
    zero = vi("zero", T.FLOAT, [2, 0])
    big = vi("big", T.UINT8, [2 ** 32])
    neg = vi("negative", T.FLOAT, [-3])
    w = numpy_helper.from_array(np.ones((3, 3, 1, 1), dtype=np.float32), "W")
    bf = helper.make_tensor("bf16", T.BFLOAT16, [4], [1, 2, 3, 4])
    s = helper.make_tensor("str", T.STRING, [2], [b"a", b"b"])
    sparse = helper.make_sparse_tensor(
        numpy_helper.from_array(np.array([1.0, 2.0], dtype=np.float32), "sp"),
        numpy_helper.from_array(np.array([0, 5], dtype=np.int64), "sp_idx"), [10, 10])
    c1 = helper.make_node("Constant", [], ["c_scalar"], value=numpy_helper.from_array(np.array(2.0, dtype=np.float32)))
    c2 = helper.make_node("Constant", [], ["c_ints"], value_ints=[1, 2, 3])
    c3 = helper.make_node("Constant", [], ["c_float"], value_float=1.5)
    # If: then_branch holds a Loop whose body holds a Constant.
    body = helper.make_graph(
        [helper.make_node("Constant", [], ["inner"], value=numpy_helper.from_array(np.zeros((2, 2), dtype=np.int64)))],
        "body",
        [vi("i", T.INT64, []), vi("c", T.BOOL, []), vi("acc", T.FLOAT, ["T"])],
        [vi("c_out", T.BOOL, []), vi("acc_out", T.FLOAT, ["T"])])
    loop = helper.make_node("Loop", ["", "cond", "X"], ["L"], body=body)
    then_g = helper.make_graph([loop], "then", [], [vi("then_out", T.FLOAT, ["N", 3, 4, 4])])
    else_g = helper.make_graph([], "else", [], [vi("else_out", T.INT8, [5])])
    iff = helper.make_node("If", ["cond"], ["Z"], then_branch=then_g, else_branch=else_g)
    g = helper.make_graph([c1, c2, iff, c3], "zoo", [x, cond, seq, mp, opt], [y],
                          [w, bf, s], value_info=[untyped, shapeless, unknown, r9, zero, big, neg],
                          sparse_initializer=[sparse])
    return helper.make_model(g)


def dtypes():
    inputs, inits = [], []
    for t in range(1, 24):
        inputs.append(vi("in_%d" % t, t, [2, 3]))
        tp = onnx.TensorProto(name="init_%d" % t, data_type=t, dims=[4])
        inits.append(tp)
    return helper.make_model(helper.make_graph([], "dtypes", inputs, [], inits))


def external():
    a = onnx.TensorProto(name="ext_a", data_type=T.FLOAT, dims=[1024, 1024])
    a.data_location = onnx.TensorProto.EXTERNAL
    for k, v in (("location", "weights_missing.bin"), ("offset", "0"), ("length", str(4 << 20))):
        e = a.external_data.add()
        e.key, e.value = k, v
    b = onnx.TensorProto(name="ext_b", data_type=T.FLOAT16, dims=[7])
    b.data_location = onnx.TensorProto.EXTERNAL
    e = b.external_data.add()
    e.key, e.value = "location", "nowhere/else.bin"
    return helper.make_model(helper.make_graph([], "external", [vi("x", T.FLOAT, [1024, 1024])], [], [a, b]))


def tiny():
    w = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "w")
    n = helper.make_node("Add", ["x", "w"], ["y"])
    return helper.make_model(helper.make_graph([n], "tiny", [vi("x", T.FLOAT, ["B", 3])], [vi("y", T.FLOAT, ["B", 3])], [w]))


def runtime():
    w = numpy_helper.from_array(np.arange(16, dtype=np.float32).reshape(4, 4), "w")
    b = numpy_helper.from_array(np.ones(4, dtype=np.float32), "b")
    zero = numpy_helper.from_array(np.array(0, dtype=np.int64), "zero")
    nodes = [
        helper.make_node("MatMul", ["x", "wt"], ["h"]),
        helper.make_node("Identity", ["w"], ["wt"]),
        helper.make_node("Add", ["h", "b"], ["y"]),
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"]),
        helper.make_node("Constant", [], ["c"],
                         value=numpy_helper.from_array(np.full((2, 3), 2, np.float32))),
        helper.make_node("Mul", ["c", "c"], ["cc"]),
        helper.make_node("RandomNormal", [], ["r"], shape=[2, 3]),
        helper.make_node("Add", ["r", "cc"], ["rc"]),
        helper.make_node("Relu", ["h"], ["hr"]),
    ]
    g = helper.make_graph(nodes, "runtime", [vi("x", T.FLOAT, ["N", 4])],
                          [vi("y", T.FLOAT, ["N", 4])], [w, b, zero])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def cycle():
    nodes = [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Relu", ["b"], ["a"]),
             helper.make_node("Relu", ["a"], ["b"])]
    g = helper.make_graph(nodes, "cycle", [vi("x", T.FLOAT, [2])], [vi("y", T.FLOAT, [2])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def main_into(out):
    os.makedirs(out, exist_ok=True)
    for name, make in (("zoo", zoo), ("dtypes", dtypes), ("external", external), ("tiny", tiny),
                       ("runtime", runtime), ("cycle", cycle)):
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(make().SerializeToString())


if __name__ == "__main__":
    main_into(sys.argv[1])
