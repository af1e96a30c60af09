#!/usr/bin/env python3
"""make_adversarial_infer.py OUT_DIR - the adversarial models of issue 27
item 11 for tests/bench/bench_infer_adversarial.sh:

  mul64.onnx   an input of rank 64 (64 symbols), its Shape plus the sum
               of its dims: 64 values of 64 terms each; then MULS Mul
               nodes squaring it (each product 64 x 64 term pairs a value);
  small.onnx   the same graph over rank 2: the baseline of the same run.
MULS is 40 (argv[2] to change it)."""
import os
import sys

from onnx import TensorProto as T
from onnx import helper as h


def make(rank, muls):
    x = h.make_tensor_value_info("x", T.FLOAT, ["s%d" % i for i in range(rank)])
    nodes = [h.make_node("Shape", ["x"], ["sh"]),
             h.make_node("ReduceSum", ["sh"], ["sum"], keepdims=1),
             h.make_node("Add", ["sh", "sum"], ["v"])]
    nodes += [h.make_node("Mul", ["v", "v"], ["m%d" % i]) for i in range(muls)]
    outs = [h.make_tensor_value_info("m%d" % i, T.INT64, None) for i in range(muls)]
    g = h.make_graph(nodes, "adversarial", [x], outs)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 13)])


def main():
    out = sys.argv[1]
    muls = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    os.makedirs(out, exist_ok=True)
    for name, rank in (("mul64", 64), ("small", 2)):
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(make(rank, muls).SerializeToString())
    return 0


if __name__ == "__main__":
    sys.exit(main())
