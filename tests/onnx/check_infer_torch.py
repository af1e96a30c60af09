#!/usr/bin/env python3
"""check_infer_torch.py INFER_DUMP CACHEDIR [NAME...] - the inference on
real architectures exported by export_torch.py (made first if missing).

For each NAME, the dynamic export (NAME.onnx: batch, and seq for the
Transformer) is read (onnx_model_read) and inferred at --dim batch=8
(--dim seq=128). Then:
  1. every node output of the main graph has full sizes (all numbers),
     inferred (not taken from a declaration);
  2. where onnx.shape_inference.infer_shapes(data_prop=True) gives a static
     shape to the same model with its inputs fixed at batch 8 (seq 128), it
     is the same;
  3. the static export (NAME.static.onnx, exported at batch 8 so every shape
     is folded), inferred by onnx.shape_inference: every value of the same
     name has the same shape.
Also symbols: the dynamic export inferred without --dim gives expressions
over batch (and seq); evaluated at batch 8 (seq 128) they are the sizes
above. Prints one line per model and exits 1 on any failure.
Run with /usr/bin/python3 (onnx, torch, torchvision)."""
import json
import os
import subprocess
import sys
import tempfile

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import export_torch  # noqa: E402

SEQ_MODELS = {"transformer"}
# Models whose inputs' height and width are symbols too (export_torch.py's
# windowed-attention block): bound at the size it was exported at.
PLANE_MODELS = {"window": {"height": 14, "width": 18}}


def infer(dump, path, args):
    """infer_dump on the model file (onnx_model_read, then the inference)."""
    out = subprocess.run([dump] + args + [path], capture_output=True, text=True, check=True)
    recs = [json.loads(l) for l in out.stdout.splitlines()]
    return {r["name"]: r for r in recs if r.get("g") == 0}


def static_shapes(model):
    m = onnx.shape_inference.infer_shapes(model, data_prop=True)
    out = {}
    for vi in list(m.graph.value_info) + list(m.graph.output):
        if not vi.type.HasField("tensor_type") or not vi.type.tensor_type.HasField("shape"):
            continue
        dims = [d.dim_value if d.HasField("dim_value") else None
                for d in vi.type.tensor_type.shape.dim]
        if all(d is not None for d in dims):
            out[vi.name] = dims
    return out


def evaluate(expr, env):
    """A printed dim ("batch*197", "floor((H+1)/2)") under a binding."""
    if isinstance(expr, int) or expr is None:
        return expr
    code = expr.replace("/", "//")
    return eval(code, {"__builtins__": {}, "floor": lambda x: x, "min": min, "max": max}, env)


def check(dump, cache, name):
    export_torch.export(name, cache)
    dyn = onnx.load(os.path.join(cache, name + ".onnx"), load_external_data=False)
    static = onnx.load(os.path.join(cache, name + ".static.onnx"), load_external_data=False)
    env = {"batch": 8, "seq": 128} if name in SEQ_MODELS else {"batch": 8}
    env.update(PLANE_MODELS.get(name, {}))
    args = sum((["--dim", "%s=%d" % kv] for kv in env.items()), [])
    dyn_path = os.path.join(cache, name + ".onnx")
    ours = infer(dump, dyn_path, args)
    symbolic = infer(dump, dyn_path, [])
    errors = []
    def is_full(r):
        return (r["shape"] is not None and all(isinstance(d, int) for d in r["shape"])
                and r["source"] == "inferred")
    full = sum(1 for r in ours.values() if is_full(r))
    for n, r in ours.items():
        if not is_full(r):
            errors.append("%s (%s): not full: %s %s" % (n, r["op"], r["shape"], r["reason"]))
    # 2. onnx.shape_inference on the same model, inputs fixed
    fixed = onnx.ModelProto()
    fixed.CopyFrom(dyn)
    for vi in fixed.graph.input:
        for d in vi.type.tensor_type.shape.dim:
            if d.HasField("dim_param"):
                d.dim_value = env[d.dim_param]
    ref = static_shapes(fixed)
    agree_onnx = 0
    for n, dims in ref.items():
        if n in ours:
            if ours[n]["shape"] == dims:
                agree_onnx += 1
            else:
                errors.append("%s: %s, onnx.shape_inference %s" % (n, ours[n]["shape"], dims))
    # 3. the static export, by name: the same value where the node making
    # it has the same op and inputs in both exports (the exporter numbers
    # its shape computations, so a name alone may be another value)
    def producers(m):
        """name -> a hash of how the value is computed, recursively."""
        nodes = {o: n for n in m.graph.node for o in n.output}
        inits = {t.name: tuple(t.dims) for t in m.graph.initializer}
        memo = {}

        def sig(name):
            if name not in memo:
                n = nodes.get(name)
                if n is None:
                    memo[name] = hash(("value", name, inits.get(name)))
                else:
                    memo[name] = 0  # (a cycle cannot recurse forever)
                    memo[name] = hash((n.op_type, list(n.output).index(name),
                                       tuple(a.SerializeToString() for a in n.attribute),
                                       tuple(sig(i) for i in n.input)))
            return memo[name]
        sys.setrecursionlimit(100000)
        return {o: sig(o) for o in nodes}
    pd, ps = producers(dyn), producers(static)
    st = static_shapes(static)
    agree_static = 0
    for n, dims in st.items():
        if n in ours and ours[n]["shape"] is not None and pd.get(n) == ps.get(n):
            if ours[n]["shape"] == dims:
                agree_static += 1
            else:
                errors.append("%s: %s, static export %s" % (n, ours[n]["shape"], dims))
    # symbols: binding later equals binding first
    for n, r in symbolic.items():
        if r["shape"] is None or n not in ours:
            continue
        later = [evaluate(d, env) for d in r["shape"]]
        first = ours[n]["shape"]
        if any(a is not None and b is not None and a != b for a, b in zip(later, first or [])):
            errors.append("%s: symbolic %s at %s is %s, bound first %s" % (n, r["shape"], env,
                                                                          later, first))
    print("%s: %d activations, %d full; onnx.shape_inference static for %d, equal %d; "
          "static export: %d of the same name equal; %d symbolic shapes bound later agree"
          % (name, len(ours), full, len(ref), agree_onnx, agree_static, len(symbolic)))
    for e in errors[:20]:
        print("  FAIL %s: %s" % (name, e))
    return not errors


def main():
    dump, cache = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(cache, exist_ok=True)
    ok = True
    # By default every export but the windowed-attention block: torch
    # declares its output [batch, 3, height, width] although the block
    # upsamples by 2, and the unbound pass keeps that declaration, so
    # "bound later agrees" cannot hold there (a known gap: the declaration
    # is reported as a mismatch by scan). onnx/ort_oracle checks its shapes
    # against ONNX Runtime at two bindings instead.
    for name in sys.argv[3:] or [m for m in export_torch.MODELS if m not in PLANE_MODELS]:
        ok &= check(dump, cache, name)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
