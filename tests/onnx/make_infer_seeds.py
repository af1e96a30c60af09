#!/usr/bin/env python3
"""make_infer_seeds.py OUTDIR - hostile and ordinary models for the fuzz
target `infer` (tests/fuzz/fuzz_infer.c), written with onnx.helper (which
checks nothing, so every one of these is a model the reader accepts):
a cycle, a node reading a value made later, wrong input counts, absurd
attributes (strides 0, kernels and pads near 2^62, rank 70), huge shape
values, dims whose product passes 2^63, Reshape's -1 over such a product,
Loop, Scan and If bodies (nested, with carried shapes that grow), a Shape ->
Gather -> Concat -> Reshape chain and symbolic Conv/Pool/Slice/Resize,
sequences and optionals, Scan-8 and float values (overflowing, divided by 0).
Run with /usr/bin/python3 (python3-onnx); the files are committed as
tests/fuzz/corpus/infer/."""
import os
import sys

from onnx import TensorProto as T
from onnx import helper as h

BIG = 1 << 62


def model(nodes, inputs, outputs, inits=(), opset=17):
    g = h.make_graph(nodes, "g", inputs, outputs, list(inits))
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)])


def vi(name, shape, t=T.FLOAT):
    return h.make_tensor_value_info(name, t, shape)


def i64(name, vals, dims=None):
    return h.make_tensor(name, T.INT64, [len(vals)] if dims is None else dims, vals)


def seeds():
    x = vi("x", ["N", 3, "H", "W"])
    y = vi("y", None)
    w = h.make_tensor("w", T.FLOAT, [8, 3, 3, 3], [0.0] * 216)
    yield "cycle", model([h.make_node("Relu", ["b"], ["a"]), h.make_node("Relu", ["a"], ["b"])],
                         [x], [vi("b", None)])
    yield "forward_ref", model([h.make_node("Add", ["x", "later"], ["s"]),
                                h.make_node("Relu", ["x"], ["later"])], [x], [vi("s", None)])
    yield "self_ref", model([h.make_node("Add", ["x", "s"], ["s"])], [x], [vi("s", None)])
    yield "input_counts", model([h.make_node("Conv", ["x"], ["c"]),
                                 h.make_node("Add", ["x", "x", "x"], ["a"]),
                                 h.make_node("Relu", [], ["r"]),
                                 h.make_node("Split", ["x"], ["p"] * 300, axis=1)],
                                [x], [vi("c", None)])
    yield "absurd_conv", model([
        h.make_node("Conv", ["x", "w"], ["c0"], strides=[0, 0]),
        h.make_node("Conv", ["x", "w"], ["c1"], kernel_shape=[BIG, BIG], dilations=[BIG, 2]),
        h.make_node("Conv", ["x", "w"], ["c2"], pads=[BIG, BIG, BIG, BIG]),
        h.make_node("MaxPool", ["x"], ["p0"], kernel_shape=[3, 3], pads=[-5, -5, 0, 0]),
        h.make_node("MaxPool", ["x"], ["p1"], kernel_shape=[1 << 40] * 70),
        h.make_node("ConvTranspose", ["x", "w"], ["t0"], strides=[BIG, BIG],
                    output_padding=[BIG, 1]),
        h.make_node("AveragePool", ["x"], ["p2"], kernel_shape=[3, 3], ceil_mode=1,
                    auto_pad="SAME_LOWER", strides=[7, 1 << 33])], [x], [y], [w])
    huge = i64("huge", [BIG, BIG, BIG])
    minus = i64("minus", [-1, 1 << 40])
    yield "huge_shapes", model([
        h.make_node("Reshape", ["x", "huge"], ["r0"]),
        h.make_node("ConstantOfShape", ["huge"], ["z"]),
        h.make_node("Reshape", ["z", "minus"], ["r1"]),
        h.make_node("Expand", ["x", "huge"], ["e"]),
        h.make_node("Tile", ["x", i64n("rep", [BIG, BIG, BIG, BIG])], ["t"]),
        h.make_node("Flatten", ["z"], ["f"], axis=2),
        h.make_node("Size", ["z"], ["sz"]),
        h.make_node("Range", ["zero", "bigs", "one"], ["rg"])],
        [x], [y], [huge, minus, rep_tensor(), h.make_tensor("zero", T.INT64, [], [0]),
                   h.make_tensor("bigs", T.INT64, [], [BIG]),
                   h.make_tensor("one", T.INT64, [], [1])])
    big_in = vi("big", [1 << 40, 1 << 40, 1 << 20])
    yield "product_2_63", model([
        h.make_node("Flatten", ["big"], ["f"], axis=0),
        h.make_node("Reshape", ["big", "m1"], ["r"]),
        h.make_node("Size", ["big"], ["s"]),
        h.make_node("Shape", ["big"], ["sh"]),
        h.make_node("ReduceProd", ["sh"], ["p"], keepdims=0),
        h.make_node("Mul", ["sh", "sh"], ["mm"])],
        [big_in], [y], [i64("m1", [-1])])
    # Shape -> Gather -> Concat -> Reshape, symbolic Conv, Slice, Resize
    idx = i64("i0", [0])
    m1 = i64("m1", [-1])
    yield "shape_chain", model([
        h.make_node("Conv", ["x", "w"], ["c"], strides=[2, 2], pads=[1, 1, 1, 1]),
        h.make_node("Shape", ["c"], ["s"]),
        h.make_node("Gather", ["s", "i0"], ["b"]),
        h.make_node("Concat", ["b", "m1"], ["ns"], axis=0),
        h.make_node("Reshape", ["c", "ns"], ["flat"]),
        h.make_node("Slice", ["c", "st", "en", "ax"], ["sl"]),
        h.make_node("Shape", ["x"], ["xs"]),
        h.make_node("Mul", ["xs", "two"], ["xs2"]),
        h.make_node("Resize", ["x", "", "", "xs2"], ["up"], mode="nearest"),
        h.make_node("MaxPool", ["c"], ["p"], kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1)],
        [x], [vi("flat", None)],
        [w, idx, m1, i64("st", [1, -3]), i64("en", [BIG, -1]), i64("ax", [2, 3]),
         i64("two", [1, 1, 2, 2])])
    # Loop whose carried value grows; If with different branches; Scan
    body = h.make_graph([h.make_node("Identity", ["cond"], ["cond_out"]),
                         h.make_node("Cast", ["iter"], ["it_f"], to=1),
                         h.make_node("Concat", ["acc", "acc"], ["acc_out"], axis=0),
                         h.make_node("Relu", ["acc"], ["scan_out"])], "body",
                        [vi("iter", [], T.INT64), vi("cond", [], T.BOOL), vi("acc", None)],
                        [vi("cond_out", [], T.BOOL), vi("acc_out", None), vi("scan_out", None),
                         vi("it_f", None)])
    then_g = h.make_graph([h.make_node("Relu", ["x"], ["t"])], "then", [], [vi("t", None)])
    else_g = h.make_graph([h.make_node("Transpose", ["x"], ["e"])], "else", [], [vi("e", None)])
    yield "loop_if", model([
        h.make_node("Loop", ["trip", "", "x"], ["acc_final", "stack", "its"], body=body),
        h.make_node("If", ["c"], ["pick"], then_branch=then_g, else_branch=else_g),
        h.make_node("Loop", ["trip"], [], body=body)],
        [x, vi("c", [], T.BOOL)], [y], [h.make_tensor("trip", T.INT64, [], [5])])
    sbody = h.make_graph([h.make_node("Add", ["s", "e"], ["s2"]),
                          h.make_node("Identity", ["s2"], ["o"])], "sbody",
                         [vi("s", None), vi("e", None)], [vi("s2", None), vi("o", None)])
    yield "scan", model([h.make_node("Scan", ["init", "seq"], ["fin", "outs"], body=sbody,
                                     num_scan_inputs=1, scan_input_axes=[1])],
                        [vi("init", [4]), vi("seq", [4, "T"])], [y])
    # nested subgraphs reading the outer scope, If nested 20 deep
    g = h.make_graph([h.make_node("Relu", ["x"], ["r0"])], "g0", [], [vi("r0", None)])
    leaf = h.make_graph([h.make_node("Relu", ["x"], ["l"])], "leaf", [], [vi("l", None)])
    for k in range(1, 20):
        g = h.make_graph([h.make_node("If", ["c"], ["r%d" % k], then_branch=g, else_branch=leaf)],
                         "g%d" % k, [], [vi("r%d" % k, None)])
    yield "nested_if", model([h.make_node("If", ["c"], ["top"], then_branch=g, else_branch=leaf)],
                             [x, vi("c", [], T.BOOL)], [y])
    yield "data_dependent", model([
        h.make_node("NonZero", ["x"], ["nz"]),
        h.make_node("Unique", ["x"], ["u", "ui", "uinv", "uc"], axis=1),
        h.make_node("NonZero", ["nz"], ["nz2"]),
        h.make_node("TopK", ["x", "k"], ["tv", "ti"], axis=-1)],
        [x, vi("k", [1], T.INT64)], [y])
    yield "old_opsets", model([
        h.make_node("Reshape", ["x"], ["r"], shape=[0, -1]),
        h.make_node("Slice", ["x"], ["s"], starts=[0, 1], ends=[BIG, -1], axes=[0, 3]),
        h.make_node("Upsample", ["x"], ["u"], scales=[1.0, 1.0, 2.0, 1.5]),
        h.make_node("Pad", ["x"], ["p"], pads=[0, 0, 1, 1, 0, 0, 1, 1]),
        h.make_node("Split", ["x"], ["a", "b"], axis=1, split=[1, 2]),
        h.make_node("Squeeze", ["x"], ["q"], axes=[1]),
        h.make_node("Add", ["x", "w"], ["ad"], broadcast=1)],
        [x], [y], [w], opset=4)

    # sequences and optionals (elements tracked), Scan-8, float values
    a, b = vi("a", [2, 3, 4]), vi("b", [2, BIG, 4])
    yield "sequences", model([
        h.make_node("SequenceConstruct", ["a", "b", "a"], ["s3"]),
        h.make_node("ConcatFromSequence", ["s3"], ["c1"], axis=1),
        h.make_node("ConcatFromSequence", ["s3"], ["c2"], axis=-1, new_axis=1),
        h.make_node("SequenceEmpty", [], ["e"]),
        h.make_node("SequenceInsert", ["e", "a"], ["s1"]),
        h.make_node("SequenceErase", ["s1"], ["s0"]),
        h.make_node("SequenceErase", ["s0"], ["sneg"]),
        h.make_node("SequenceAt", ["sneg", "k"], ["at"]),
        h.make_node("SplitToSequence", ["b", "k"], ["pieces"], axis=1),
        h.make_node("ConcatFromSequence", ["pieces"], ["c3"], axis=1),
        h.make_node("SequenceLength", ["pieces"], ["len"]),
        h.make_node("Optional", ["s3"], ["o"]),
        h.make_node("OptionalGetElement", ["o"], ["s3b"]),
        h.make_node("Identity", ["s3b"], ["s3c"]),
        h.make_node("SequenceAt", ["s3c", "k"], ["at2"])],
        [a, b, vi("k", [], T.INT64)], [vi("at2", None)], [i64("k", [1], [])])
    mbody = h.make_graph([h.make_node("Add", ["el", "t"], ["sum"]),
                          h.make_node("SequenceMap", ["inner", "el"], ["again"], body=h.make_graph(
                              [h.make_node("Identity", ["q"], ["r"])], "in", [vi("q", None),
                                                                             vi("w", None)],
                              [vi("r", None)]))], "body",
                         [vi("el", None), vi("t", None),
                          h.make_tensor_sequence_value_info("inner", T.FLOAT, None)],
                         [vi("sum", None), h.make_tensor_sequence_value_info("again", T.FLOAT,
                                                                               None)])
    opt_seq = h.make_optional_type_proto(h.make_sequence_type_proto(
        h.make_tensor_type_proto(T.FLOAT, [2, 3, 4])))
    yield "sequence_map", model([
        h.make_node("SequenceMap", ["si", "a", "si"], ["sums", "agains"], body=mbody),
        h.make_node("SequenceAt", ["sums", "k"], ["s0"]),
        h.make_node("OptionalGetElement", ["os"], ["os_seq"]),
        h.make_node("SequenceMap", ["os_seq"], ["m2"], body=mbody),
        h.make_node("SequenceAt", ["os_seq", "k"], ["os0"])],
        [h.make_tensor_sequence_value_info("si", T.FLOAT, [2, "N", 4]), a,
         h.make_value_info("os", opt_seq), vi("k", [], T.INT64)], [vi("s0", None)])
    body = h.make_graph([h.make_node("Add", ["si", "nx"], ["so"]),
                         h.make_node("Identity", ["so"], ["sc"])], "body",
                        [vi("si", [2]), vi("nx", [2])], [vi("so", [2]), vi("sc", [2])])
    yield "scan8_floats", model([
        h.make_node("Scan", ["", "init", "xs"], ["y", "z"], body=body, num_scan_inputs=1),
        h.make_node("Shape", ["xs"], ["shp"]),
        h.make_node("Cast", ["shp"], ["shp_f"], to=T.FLOAT),
        h.make_node("Constant", [], ["k"], value_float=1e38),
        h.make_node("Mul", ["shp_f", "k"], ["big"]),
        h.make_node("Div", ["big", "zero"], ["inf"]),
        h.make_node("Floor", ["inf"], ["fl"]),
        h.make_node("Ceil", ["fl"], ["ce"]),
        h.make_node("Cast", ["ce"], ["back"], to=T.INT64),
        h.make_node("Resize", ["xs", "back"], ["r10"]),
        h.make_node("Upsample", ["xs", "sc"], ["u"])],
        [vi("init", ["B", 2]), vi("xs", ["B", 5, 2])], [vi("y", None)],
        [h.make_tensor("zero", T.FLOAT, [], [0.0]),
         h.make_tensor("sc", T.FLOAT, [3], [1.0, 0.7, 1e30])], opset=8)


def i64n(name, vals):
    return name


def rep_tensor():
    return i64("rep", [BIG, BIG, BIG, BIG])


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, m in seeds():
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())


if __name__ == "__main__":
    main()
