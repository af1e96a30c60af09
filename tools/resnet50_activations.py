#!/usr/bin/env python3
"""The activations of ResNet-50 (torchvision's, as exported to ONNX with
batch norm folded into the convolutions) as `dmltensor plan` records, from
the architecture's shapes: every node output that is not the graph output,
with its first and last step by SPEC section 10's rule (a value lives from
its producer's node to its last consumer's). Until `plan MODEL.onnx` reads a
model's inferred shapes, this is how docs/plan.md draws ResNet-50.

Usage: resnet50_activations.py [BATCH] > resnet50.jsonl   (BATCH: default 1)
"""
import json
import sys


def main():
    batch = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    nodes = []  # (op, inputs, output, shape NCHW)

    def node(op, inputs, out, shape):
        nodes.append((op, inputs, out, shape))
        return out

    x = node("Conv", ["input"], "conv1", (batch, 64, 112, 112))
    x = node("Relu", [x], "relu1", (batch, 64, 112, 112))
    x = node("MaxPool", [x], "pool1", (batch, 64, 56, 56))
    channels, size = 64, 56
    for stage, (mid, out, blocks) in enumerate([(64, 256, 3), (128, 512, 4), (256, 1024, 6),
                                                (512, 2048, 3)], 1):
        for b in range(blocks):
            stride = 2 if stage > 1 and b == 0 else 1
            new = size // stride
            p = f"layer{stage}.{b}"
            a = node("Conv", [x], f"{p}.conv1", (batch, mid, size, size))
            a = node("Relu", [a], f"{p}.relu1", (batch, mid, size, size))
            a = node("Conv", [a], f"{p}.conv2", (batch, mid, new, new))
            a = node("Relu", [a], f"{p}.relu2", (batch, mid, new, new))
            a = node("Conv", [a], f"{p}.conv3", (batch, out, new, new))
            short = x
            if b == 0:
                short = node("Conv", [x], f"{p}.downsample", (batch, out, new, new))
            a = node("Add", [a, short], f"{p}.add", (batch, out, new, new))
            x = node("Relu", [a], f"{p}.relu3", (batch, out, new, new))
            channels, size = out, new
    x = node("GlobalAveragePool", [x], "avgpool", (batch, channels, 1, 1))
    x = node("Flatten", [x], "flatten", (batch, channels))
    node("Gemm", [x], "output", (batch, 1000))  # the graph output: not planned
    last = {}
    for step, (_, inputs, _, _) in enumerate(nodes):
        for name in inputs:
            last[name] = step
    for step, (op, _, out, shape) in enumerate(nodes):
        if out == "output":
            continue
        print(json.dumps({"name": out, "op": op, "path": f"graph.node[{step}] ({op}).output[0]",
                          "dtype": "float32", "sizes": list(shape), "first": step,
                          "last": last.get(out, step)}, separators=(",", ":")))


if __name__ == "__main__":
    main()
