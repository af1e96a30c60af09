#!/usr/bin/env python3
"""check_infer_symbols.py INFER_DUMP [--models N] - symbols: binding later
equals binding first, and both equal onnx.shape_inference at the binding.

Random models over an input x [N, C, H, W] with symbolic N, H, W: chains of
Conv, ConvTranspose, MaxPool/AveragePool (pads, strides, dilations,
ceil_mode, auto_pad), Pad, Slice (negative and huge starts/ends, steps of
either sign), Resize to sizes computed from Shape, Reshape through
Shape -> Gather -> Concat with -1, Flatten, Transpose, Concat, Split,
Unsqueeze, Squeeze, DepthToSpace. Each model is inferred once without
bindings (dims print as expressions: "floor((H+1)/2)"), then for random
bindings of N, H, W:
  - infer_dump --dim N=.. --dim H=.. --dim W=.. (binding first);
  - the symbolic expressions evaluated in Python's integers (binding later);
  - onnx.shape_inference.infer_shapes(data_prop=True) on the model with the
    input fixed at those dims (the reference, where it gives a shape).
All three must agree wherever they give a dim. Prints the counts; exit 1 on
any disagreement. Run with /usr/bin/python3 (python3-onnx)."""
import json
import os
import random
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto as T
from onnx import helper as h

BIG = 1 << 62


class Builder:
    def __init__(self, rng):
        self.rng, self.nodes, self.inits, self.k = rng, [], [], 0
        self.rank = 4

    def name(self, p):
        self.k += 1
        return "%s%d" % (p, self.k)

    def const(self, vals):
        n = self.name("c")
        self.inits.append(h.make_tensor(n, T.INT64, [len(vals)], vals))
        return n

    def node(self, op, ins, n_out=1, **attrs):
        outs = [self.name(op.lower()) for _ in range(n_out)]
        self.nodes.append(h.make_node(op, ins, outs, **attrs))
        return outs[0] if n_out == 1 else outs

    def step(self, x):
        r = self.rng
        if self.rank != 4:
            return x
        op = r.choice(["conv", "convt", "pool", "pool", "pad", "slice", "resize", "reshape",
                       "transpose", "concat", "split", "unsqueeze", "d2s"])
        if op in ("conv", "convt"):
            k = [r.randint(1, 4), r.randint(1, 4)]
            w = self.name("w")
            cin, cout = 3, 3
            dims = [cout, cin] + k if op == "conv" else [cin, cout] + k
            self.inits.append(h.make_tensor(w, T.FLOAT, dims, [0.0] * (cout * cin * k[0] * k[1])))
            attrs = {"strides": [r.randint(1, 3), r.randint(1, 3)],
                     "dilations": [r.randint(1, 2), r.randint(1, 2)]}
            if op == "convt":
                attrs["output_padding"] = [0, 0]
            if r.random() < 0.3:
                attrs["auto_pad"] = r.choice(["SAME_UPPER", "SAME_LOWER", "VALID"])
            else:
                attrs["pads"] = [r.randint(0, 2) for _ in range(4)]
            if op == "convt" and attrs.get("auto_pad", "").startswith("SAME"):
                attrs["dilations"] = [1, 1]
            return self.node("Conv" if op == "conv" else "ConvTranspose", [x, w], **attrs)
        if op == "pool":
            attrs = {"kernel_shape": [r.randint(1, 3), r.randint(1, 3)],
                     "strides": [r.randint(1, 3), r.randint(1, 3)]}
            if r.random() < 0.3:
                attrs["auto_pad"] = r.choice(["SAME_UPPER", "SAME_LOWER", "VALID"])
            else:
                attrs["pads"] = [r.randint(0, 1) for _ in range(4)]
                attrs["ceil_mode"] = r.randint(0, 1)
            return self.node(r.choice(["MaxPool", "AveragePool"]), [x], **attrs)
        if op == "pad":
            return self.node("Pad", [x, self.const([0, 0, r.randint(0, 3), r.randint(0, 3),
                                                    0, 0, r.randint(0, 3), r.randint(0, 3)])])
        if op == "slice":
            step = r.choice([1, 1, 2, 3, -1, -2])
            pick = [0, 1, 3, -1, -3, BIG, -BIG]
            return self.node("Slice", [x, self.const([r.choice(pick)]),
                                       self.const([r.choice(pick)]),
                                       self.const([r.choice([2, 3, -1])]), self.const([step])])
        if op == "resize":
            s = self.node("Shape", [x])
            sizes = self.node("Mul", [s, self.const([1, 1, r.randint(1, 3), r.randint(1, 3)])])
            return self.node("Resize", [x, "", "", sizes], mode="nearest")
        if op == "reshape":
            s = self.node("Shape", [x])
            b = self.node("Gather", [s, self.const([0])], axis=0)
            c = self.node("Gather", [s, self.const([1])], axis=0)
            shape = self.node("Concat", [b, c, self.const([-1]), self.const([1])], axis=0)
            return self.node("Reshape", [x, shape])
        if op == "transpose":
            return self.node("Transpose", [x], perm=[0, 1, 3, 2])
        if op == "concat":
            return self.node("Concat", [x, x], axis=r.choice([2, 3]))
        if op == "split":
            outs = self.node("Split", [x], n_out=2, axis=1, num_outputs=2)
            return outs[0]
        if op == "unsqueeze":
            u = self.node("Unsqueeze", [x, self.const([2])])
            return self.node("Squeeze", [u, self.const([2])])
        return self.node("DepthToSpace", [self.node("Concat", [x] * 4, axis=1)], blocksize=2)


def make(rng):
    b = Builder(rng)
    x = "x"
    for _ in range(rng.randint(1, 5)):
        x = b.step(x)
    b.node("Flatten", [x], axis=1)
    g = h.make_graph(b.nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, ["N", 3, "H", "W"])],
                     [h.make_tensor_value_info(b.nodes[-1].output[0], T.FLOAT, None)], b.inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 18)])


def dump(tool, path, env):
    args = sum((["--dim", "%s=%d" % kv] for kv in env.items()), [])
    out = subprocess.run([tool] + args + [path], capture_output=True, text=True, check=True)
    return {r["name"]: r["shape"] for r in map(json.loads, out.stdout.splitlines()) if "g" in r}


def evaluate(expr, env):
    if expr is None or isinstance(expr, int):
        return expr
    return eval(expr.replace("/", "//"),
                {"__builtins__": {}, "floor": lambda v: v, "min": min, "max": max}, env)


def reference(model, env):
    """onnx.shape_inference at env, in this process (the worker's side)."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for d in m.graph.input[0].type.tensor_type.shape.dim:
        if d.HasField("dim_param"):
            d.dim_value = env[d.dim_param]
    try:
        inf = onnx.shape_inference.infer_shapes(m, data_prop=True)
    except Exception:  # the model is wrong at these dims (a kernel past the input)
        return None
    out = {}
    for vi in list(inf.graph.value_info) + list(inf.graph.output):
        dims = [d.dim_value if d.HasField("dim_value") else None
                for d in vi.type.tensor_type.shape.dim]
        if vi.type.tensor_type.HasField("shape") and None not in dims:
            out[vi.name] = dims
    return out


def worker():
    """--reference: lines "PATH N H W" in, a JSON line of shapes out (null
    when onnx refuses the model). onnx.shape_inference crashes (SIGSEGV) on
    some of these models, so it runs in a process of its own."""
    for line in sys.stdin:
        path, n, hh, w = line.split()
        env = {"N": int(n), "H": int(hh), "W": int(w)}
        print(json.dumps(reference(onnx.load(path), env)), flush=True)


def references(items):
    """onnx.shape_inference of each (path, env), None where it failed or
    crashed (the worker is started again after the crash)."""
    out = []
    while len(out) < len(items):
        todo = items[len(out):]
        text = "".join("%s %d %d %d\n" % (p, e["N"], e["H"], e["W"]) for p, e in todo)
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--reference"],
                              input=text, capture_output=True, text=True)
        got = [json.loads(l) for l in proc.stdout.splitlines()]
        out += got
        if proc.returncode != 0 and len(out) < len(items):
            out.append(None)  # the one it crashed on
    return out


def after_ceil_mode(model):
    """The values a pool with ceil_mode=1 feeds: this onnx (1.12) keeps a
    last window that starts in the right padding, which the ONNX text
    since opset 19, PyTorch and ONNX Runtime drop (issue 27 item 2; the
    tool is checked against PyTorch's pools in onnx/infer_hostile)."""
    stale = set()
    for n in model.graph.node:
        ceil = any(a.name == "ceil_mode" and a.i for a in n.attribute)
        if ceil or any(i in stale for i in n.input):
            stale.update(n.output)
    return stale


def main():
    if sys.argv[1] == "--reference":
        return worker()
    tool = os.path.abspath(sys.argv[1])
    n_models = int(sys.argv[sys.argv.index("--models") + 1]) if "--models" in sys.argv else 150
    rng = random.Random(20)
    stats = {"dims": 0, "later": 0, "reference": 0, "symbolic_full": 0, "values": 0}
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        models, items = [], []
        for i in range(n_models):
            model = make(rng)
            path = os.path.join(tmp, "m%d.onnx" % i)
            onnx.save(model, path)
            envs = [{"N": rng.randint(1, 9), "H": rng.randint(12, 80), "W": rng.randint(12, 80)}
                    for _ in range(4)]
            models.append((path, envs))
            items += [(path, e) for e in envs]
        refs = iter(references(items))
        for i, (path, envs) in enumerate(models):
            stale = after_ceil_mode(onnx.load(path))
            sym = dump(tool, path, {})
            stats["values"] += len(sym)
            stats["symbolic_full"] += sum(1 for s in sym.values() if s and None not in s)
            for env in envs:
                ref = next(refs)
                if ref is None:
                    continue
                first = dump(tool, path, env)
                for name, s in sym.items():
                    f = first.get(name)
                    later = [evaluate(d, env) for d in s] if s is not None else None
                    r = ref.get(name)
                    if f is not None:
                        stats["dims"] += len(f)
                    if later is not None and f is not None:
                        for a, b in zip(later, f):
                            if a is not None and b is not None:
                                stats["later"] += 1
                                if a != b:
                                    bad.append("model %d %s at %s: symbolic %s -> %s, bound first %s"
                                               % (i, name, env, s, later, f))
                    if r is not None and f is not None and name not in stale:
                        if len(r) != len(f) or any(b is not None and a != b for a, b in zip(r, f)):
                            bad.append("model %d %s at %s: %s, onnx.shape_inference %s"
                                       % (i, name, env, f, r))
                        else:
                            stats["reference"] += 1
    print("%d models, %d values (%d with a full symbolic shape); bound: %d dims, %d compared "
          "with the symbolic expression evaluated, %d shapes equal to onnx.shape_inference's"
          % (n_models, stats["values"], stats["symbolic_full"], stats["dims"], stats["later"],
             stats["reference"]))
    for b in bad[:30]:
        print("FAIL " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
