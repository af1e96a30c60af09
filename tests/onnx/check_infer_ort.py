#!/usr/bin/env python3
"""check_infer_ort.py INFER_DUMP ORT_DIR [--models N] [--seed S] - shape
inference against ONNX Runtime (onnxruntime-node, CPU; installed into
ORT_DIR/node_modules by tests/onnx/ort/install.sh): random small
graphs of 1 to 3 operators with hostile attributes (pads, strides,
dilations, ceil_mode, auto_pad, output_padding, negative axes, starts and
ends far past int32, negative steps and pads), every node output a graph
output, run by ONNX Runtime on inputs of zeros. Every dim the tool gives as
a number must be ONNX Runtime's (0 wrong); unknown is allowed (counted and
printed: docs/onnx.md lists where the implementations disagree). Models
ONNX Runtime refuses are counted, not compared. Exit 77 (skipped) when
ORT_DIR holds no onnxruntime-node (npm offline), 1 on a wrong dim."""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

from onnx import TensorProto as T
from onnx import helper as h

BIG = [2**31, 2**62, -2**62, 2**63 - 1, -2**63]


class G:
    def __init__(self, r):
        self.r, self.nodes, self.inits, self.k = r, [], [], 0

    def name(self, p):
        self.k += 1
        return "%s%d" % (p, self.k)

    def ints(self, vals):
        n = self.name("c")
        self.inits.append(h.make_tensor(n, T.INT64, [len(vals)], vals))
        return n

    def floats(self, vals, dims=None):
        n = self.name("f")
        self.inits.append(h.make_tensor(n, T.FLOAT, dims or [len(vals)], vals))
        return n

    def node(self, op, ins, **attrs):
        out = self.name(op.lower())
        self.nodes.append(h.make_node(op, ins, [out], **attrs))
        return out


def spatial(r, n, lo, hi):
    return [r.randint(lo, hi) for _ in range(n)]


def conv_like(g, x, rank):
    r, ns = g.r, rank - 2
    op = r.choice(["Conv", "ConvTranspose", "MaxPool", "AveragePool", "LpPool", "MaxPool"])
    k = spatial(r, ns, 1, 4)
    attrs = {"strides": spatial(r, ns, 1, 4)}
    if op in ("Conv", "ConvTranspose", "MaxPool") and r.random() < 0.5:
        attrs["dilations"] = spatial(r, ns, 1, 3)
    mode = r.choice(["pads", "pads", "SAME_UPPER", "SAME_LOWER", "VALID", "none"])
    if mode == "pads":
        attrs["pads"] = [r.randint(0, kk - 1 if op not in ("Conv", "ConvTranspose") else 3)
                         for kk in k + k]
    elif mode != "none":
        attrs["auto_pad"] = mode
    if op in ("MaxPool", "AveragePool", "LpPool"):
        attrs["kernel_shape"] = k
        if op != "LpPool" or r.random() < 0.5:
            attrs["ceil_mode"] = r.randint(0, 1)
        if op == "AveragePool":
            attrs["count_include_pad"] = r.randint(0, 1)
        return g.node(op, [x], **attrs), (18, 19)
    w = g.floats([0.0] * (2 * 2 * int(eval("*".join(map(str, k))))), [2, 2] + k)
    if op == "ConvTranspose":
        st = attrs["strides"]
        dl = attrs.get("dilations", [1] * ns)
        if r.random() < 0.5:
            attrs["output_padding"] = [r.randint(0, max(s, d) - 1) for s, d in zip(st, dl)]
        if r.random() < 0.15:
            attrs["output_shape"] = spatial(r, ns, 1, 12)
    return g.node(op, [x, w], **attrs), (17,)


def axis_op(g, x, rank):
    r = g.r
    op = r.choice(["Slice", "Slice", "Transpose", "Unsqueeze", "Squeeze", "Flatten", "Concat",
                   "Gather", "Split", "ReduceSum", "Pad", "Tile", "DepthToSpace", "Resize",
                   "GlobalAveragePool", "Softmax", "TopK", "ReduceMax"])
    ax = r.randint(-rank, rank - 1)
    if op == "Slice":
        n = r.randint(1, rank)
        axes = r.sample(range(-rank, rank), n)
        axes = [a for i, a in enumerate(axes) if (a % rank) not in [b % rank for b in axes[:i]]]
        pick = [0, 1, 2, -1, -2, 5] + BIG
        steps = [r.choice([1, 1, 2, 3, -1, -2, 2**62, -2**62]) for _ in axes]
        return g.node(op, [x, g.ints([r.choice(pick) for _ in axes]),
                           g.ints([r.choice(pick) for _ in axes]), g.ints(axes),
                           g.ints(steps)]), (13,)
    if op == "Transpose":
        perm = list(range(rank))
        r.shuffle(perm)
        return g.node(op, [x], perm=perm), (13,)
    if op == "Unsqueeze":
        return g.node(op, [x, g.ints([r.randint(-rank - 1, rank)])]), (13,)
    if op == "Squeeze":
        return g.node(op, [x, g.ints([ax])]), (13,)
    if op == "Flatten":
        return g.node(op, [x], axis=r.randint(-rank, rank)), (13,)
    if op == "Concat":
        return g.node(op, [x, x], axis=ax), (13,)
    if op == "Gather":
        return g.node(op, [x, g.ints([r.choice([0, -1])] * r.randint(1, 3))], axis=ax), (13,)
    if op == "Split":
        return g.node(op, [x], axis=ax, num_outputs=r.randint(1, 3)), (18,)
    if op in ("ReduceSum", "ReduceMax"):
        return g.node(op, [x, g.ints([ax])], keepdims=r.randint(0, 1)), (18,)
    if op == "Pad":
        return g.node(op, [x, g.ints([r.randint(-1, 3) for _ in range(2 * rank)])]), (13,)
    if op == "Tile":
        return g.node(op, [x, g.ints([r.randint(1, 3) for _ in range(rank)])]), (13,)
    if op == "DepthToSpace":
        if rank != 4:
            return x, (13,)
        c = g.node("Concat", [x] * 4, axis=1)
        return g.node(op, [c], blocksize=2, mode=r.choice(["DCR", "CRD"])), (13,)
    if op == "Resize":
        sc = [1.0, 1.0] + [r.choice([0.5, 0.7, 1.5, 2.0, 3.0, 0.25]) for _ in range(rank - 2)]
        return g.node(op, [x, "", g.floats(sc)], mode=r.choice(["nearest", "linear"])), (13, 18)
    if op == "GlobalAveragePool":
        return g.node(op, [x]), (13,)
    if op == "TopK":
        return g.node(op, [x, g.ints([1])], axis=ax), (13,)
    return g.node(op, [x], axis=ax), (13,)


def make(r):
    rank = r.choice([3, 4, 4])
    dims = [r.randint(1, 3), 2] + [r.randint(1, 7) for _ in range(rank - 2)]
    g = G(r)
    x = "x"
    for _ in range(r.randint(1, 3)):
        step = conv_like if r.random() < 0.5 else axis_op
        x, _ = step(g, x, rank)
        if g.nodes and g.nodes[-1].op_type in ("Flatten", "Squeeze", "Unsqueeze", "Gather",
                                               "ReduceSum", "ReduceMax", "TopK", "Split"):
            break  # the rank may have changed: the chain stops here
    opset = 19  # every operator here at its newest form before 20
    outs = [h.make_empty_tensor_value_info(o) for n in g.nodes for o in n.output]
    graph = h.make_graph(g.nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, dims)], outs,
                         g.inits)
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    return m, dims


def main():
    tool = os.path.abspath(sys.argv[1])
    ort_dir = os.path.abspath(sys.argv[2])
    n_models = int(sys.argv[sys.argv.index("--models") + 1]) if "--models" in sys.argv else 300
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 27
    mods = os.path.join(ort_dir, "node_modules")
    if not os.path.isdir(os.path.join(mods, "onnxruntime-node")) or not shutil.which("node"):
        print("SKIP: no onnxruntime-node in %s (npm offline, or no node): the differential "
              "test against ONNX Runtime did not run" % mods)
        return 77
    r = random.Random(seed)
    stats = {"models": 0, "refused": 0, "dims": 0, "unknown": 0, "wrong": 0}
    bad, unknowns = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        jobs, models = [], []
        for i in range(n_models):
            m, dims = make(r)
            path = os.path.join(tmp, "m%d.onnx" % i)
            with open(path, "wb") as f:
                f.write(m.SerializeToString())
            models.append((path, m))
            jobs.append(json.dumps({"path": path,
                                    "inputs": {"x": {"type": "float32", "dims": dims}}}))
        env = dict(os.environ, NODE_PATH=mods)
        here = os.path.dirname(os.path.abspath(__file__))
        proc = subprocess.run(["node", os.path.join(here, "ort_shapes.js")],
                              input="\n".join(jobs) + "\n", capture_output=True, text=True,
                              env=env)
        results = [json.loads(l) for l in proc.stdout.splitlines()]
        if len(results) != len(jobs):
            print("FAIL: ort_shapes.js gave %d results of %d: %s"
                  % (len(results), len(jobs), proc.stderr[-500:]))
            return 1
        for (path, m), res in zip(models, results):
            stats["models"] += 1
            if "error" in res:
                stats["refused"] += 1
                continue
            out = subprocess.run([tool, path], capture_output=True, text=True, check=True)
            ours = {rec["name"]: rec for rec in map(json.loads, out.stdout.splitlines())
                    if rec.get("g") == 0}
            for name, dims in res["outputs"].items():
                rec = ours.get(name)
                shape = rec["shape"] if rec else None
                if shape is None:
                    stats["unknown"] += len(dims)
                    key = (rec or {}).get("reason") or "no record"
                    unknowns[key] = unknowns.get(key, 0) + 1
                    continue
                if len(shape) != len(dims):
                    stats["wrong"] += 1
                    bad.append((path, name, shape, dims, [n.op_type for n in m.graph.node]))
                    continue
                for a, b in zip(shape, dims):
                    stats["dims"] += 1
                    if a is None:
                        stats["unknown"] += 1
                        key = rec.get("reason") or "a dim unknown"
                        unknowns[key] = unknowns.get(key, 0) + 1
                    elif a != b:
                        stats["wrong"] += 1
                        bad.append((name, shape, dims, str(m.graph.node)[:1500]))
                        break
    print("%(models)d random models, %(refused)d refused by ONNX Runtime; %(dims)d dims "
          "compared, %(unknown)d unknown, %(wrong)d wrong" % stats)
    for reason, n in sorted(unknowns.items(), key=lambda kv: -kv[1])[:12]:
        print("  unknown x%d: %s" % (n, reason[:160]))
    for b in bad[:5]:
        print("FAIL: %s" % (b,))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
