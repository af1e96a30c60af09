#!/usr/bin/env python3
"""check_infer_hostile.py INFER_DUMP DMLTENSOR - issue 27's shape-inference
findings (hostile input, round 4), each against an answer computed apart
from the tool (PyTorch, numpy in the element type's arithmetic, float32
products as ONNX Runtime and onnx compute them, the ONNX text), or, where
ONNX's text, onnx's reference and ONNX Runtime disagree, "unknown" with
the reason:

  - pools with ceil_mode=1 drop a last window that starts in the right
    padding (PyTorch, ONNX Runtime PR 16752): every small case against
    torch's own pools;
  - a data-dependent symbol never takes a name the model declares, bound
    by --dim or not: binding later and first agree;
  - integer values wrap to their element type (uint8 200+100 = 44, int32
    65536*65536 = 0), as numpy computes them;
  - Resize's floor(dim*scale) in float32, for m/2^k scales too;
  - DFT-20: axis and dft_length are inputs (numpy.fft's shapes);
  - Loop(M, "") whose body's condition can stop it: scan outputs' rows
    unknown with the reason;
  - ConvTranspose/MaxUnpool pads past int64: not inferred, never a shape;
  - NonZero of a scalar: [1, n] (numpy's atleast_1d, ONNX Runtime);
  - ConvTranspose with auto_pad SAME and output_padding: unknown;
  - 40 Muls of 64-term values: refused up front (unknown, bounded work);
  - a 1 MB symbol name: scan's record stays short;
  - a declared output without a shape says what inference knows; --shape
    on an activation; a symbol named a*b is quoted in expressions.
Exit 1 on the first case that fails."""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from onnx import TensorProto as T
from onnx import helper as h

DUMP = None
EXE = None


def write(model):
    f = tempfile.NamedTemporaryFile("wb", suffix=".onnx", delete=False)
    f.write(model.SerializeToString())
    f.close()
    return f.name


def run(model, *args):
    path = write(model)
    try:
        out = subprocess.run([DUMP, *args, path], capture_output=True, text=True, check=True)
    finally:
        os.unlink(path)
    recs = [json.loads(l) for l in out.stdout.splitlines()]
    values = {r["name"]: r for r in recs if "g" in r and r["g"] == 0}
    return values, recs[-1]["symbols"]


def model(nodes, inputs, outputs, inits=(), opset=17, value_info=()):
    g = h.make_graph(nodes, "g", inputs, outputs, list(inits), value_info=list(value_info))
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)])


def vi(name, shape, t=T.FLOAT):
    return h.make_tensor_value_info(name, t, shape)


def expect(cond, what):
    if not cond:
        print("FAIL: " + what)
        sys.exit(1)
    print("ok: " + what)


def evaluate(expr, env):
    if expr is None or isinstance(expr, int):
        return expr
    return eval(expr.replace("/", "//"),
                {"__builtins__": {}, "floor": lambda v: v, "min": min, "max": max}, env)


# ---- item 2: ceil_mode ----

def ceil_mode_pools():
    import torch
    import torch.nn.functional as F
    cases = []
    for n in range(1, 10):
        for k in range(1, 4):
            for s in range(1, 4):
                for p in range(0, k // 2 + 1):
                    cases.append((n, k, s, p))
    nodes, outs = [], []
    for i, (n, k, s, p) in enumerate(cases):
        for op in ("MaxPool", "AveragePool"):
            nodes.append(h.make_node(op, ["x%d" % n], ["%s_%d" % (op, i)], kernel_shape=[k],
                                     strides=[s], pads=[p, p], ceil_mode=1))
            outs.append(("%s_%d" % (op, i), op, n, k, s, p))
    ins = [vi("x%d" % n, [1, 1, n]) for n in range(1, 10)]
    v, _ = run(model(nodes, ins, [vi(outs[0][0], None)], opset=19))
    sym = model([h.make_node(op, ["x"], [name], kernel_shape=[k], strides=[s], pads=[p, p],
                             ceil_mode=1) for name, op, _, k, s, p in outs],
                [vi("x", [1, 1, "L"])], [vi(outs[0][0], None)], opset=19)
    vs, _ = run(sym)
    bad = []
    for name, op, n, k, s, p in outs:
        f = F.max_pool1d if op == "MaxPool" else F.avg_pool1d
        if n + 2 * p < k:  # a kernel past the padded input: torch's pools disagree, unknown
            if v[name]["shape"] != [1, 1, None]:
                bad.append((op, n, k, s, p, v[name]["shape"], None))
            continue
        want = list(f(torch.zeros(1, 1, n), k, s, p, ceil_mode=True).shape)
        later = [evaluate(d, {"L": n}) for d in vs[name]["shape"]]
        if v[name]["shape"] != want or later != want:
            bad.append((op, n, k, s, p, v[name]["shape"], vs[name]["shape"], want))
    expect(not bad, "ceil_mode=1: %d pools (bound and symbolic) equal PyTorch's: %s"
           % (len(outs), bad[:3]))
    m = model([h.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2],
                           pads=[1, 1, 1, 1], ceil_mode=1)], [vi("x", [1, 1, 5, 5])],
              [vi("y", None)], opset=19)
    want = list(F.max_pool2d(torch.zeros(1, 1, 5, 5), 2, 2, 1, ceil_mode=True).shape)
    expect(run(m)[0]["y"]["shape"] == want, "the issue's 5x5, k=2, s=2, pads=1: %s" % want)


# ---- item 3: fresh symbols avoid the model's names ----

def fresh_names():
    # NonZero's output is named n; the model declares another n (on a
    # graph output, after the node)
    m = model([h.make_node("NonZero", ["x"], ["n"]), h.make_node("Relu", ["z"], ["r"])],
              [vi("x", [2, 3]), vi("z", ["m", 2])], [vi("n", None), vi("r", ["n", 2])])
    v, syms = run(m)
    fresh = v["n"]["shape"][1]
    expect(isinstance(fresh, str) and fresh not in ("n", "m"),
           "a fresh symbol avoids a name the model declares later: %s" % fresh)
    v1, _ = run(m, "--dim", "n=5")
    expect(v1["n"]["shape"] == v["n"]["shape"],
           "binding the model's n first leaves the fresh symbol alone: %s %s"
           % (v1["n"]["shape"], v["n"]["shape"]))
    # a model whose symbols take NAME and NAME_2..NAME_999: no symbol at all
    # rather than one that shares a model symbol's name
    names = ["n"] + ["n_%d" % k for k in range(2, 1000)]
    m = model([h.make_node("NonZero", ["x"], ["n"]),
               h.make_node("Concat", ["i%d" % k for k in range(len(names))], ["cat"], axis=0)],
              [vi("x", [2, 3])] + [vi("i%d" % k, [s]) for k, s in enumerate(names)],
              [vi("n", None)])
    v, _ = run(m)
    expect(v["n"]["shape"][1] is None or v["n"]["shape"][1] not in names,
           "every NAME_k taken: %s" % v["n"]["shape"])


# ---- item 9: NonZero of a scalar ----

def nonzero_scalar():
    m = model([h.make_node("NonZero", ["x"], ["nz"])], [vi("x", [])], [vi("nz", None)])
    v, _ = run(m)
    want = np.array(np.nonzero(np.atleast_1d(np.float32(1)))).shape[0]
    expect(v["nz"]["shape"][0] == want, "NonZero of a scalar: [%d, n]: %s"
           % (want, v["nz"]["shape"]))


# ---- item 4: integer values in their type's arithmetic ----

def integer_wrap():
    types = {T.UINT8: np.uint8, T.INT8: np.int8, T.UINT16: np.uint16, T.INT16: np.int16,
             T.INT32: np.int32, T.UINT32: np.uint32, T.INT64: np.int64}
    pairs = [(200, 100), (65536, 65536), (100, 100), (3, 5), (127, 1), (46341, 46341),
             (2**31 - 1, 1), (40000, 3)]
    off = 2**40  # every wrapped value + off is a dim >= 0
    nodes, inits, want = [], [h.make_tensor("off", T.INT64, [1], [off])], {}
    for t, npt in types.items():
        info = np.iinfo(npt)
        for i, (a, b) in enumerate(pairs):
            if not (info.min <= a <= info.max and info.min <= b <= info.max):
                continue
            for op in ("Add", "Sub", "Mul"):
                name = "%s_%d_%s" % (npt.__name__, i, op)
                inits += [h.make_tensor(name + "_a", t, [1], [a]),
                          h.make_tensor(name + "_b", t, [1], [b])]
                nodes += [h.make_node(op, [name + "_a", name + "_b"], [name + "_r"]),
                          h.make_node("Cast", [name + "_r"], [name + "_i"], to=T.INT64),
                          h.make_node("Add", [name + "_i", "off"], [name + "_s"]),
                          h.make_node("ConstantOfShape", [name + "_s"], [name])]
                x, y = np.array([a], npt), np.array([b], npt)
                with np.errstate(over="ignore"):
                    r = {"Add": x + y, "Sub": x - y, "Mul": x * y}[op]
                want[name] = int(r[0]) + off
    v, _ = run(model(nodes, [], [vi(nodes[-1].output[0], None)], inits))
    bad = [(n, v[n]["shape"], w) for n, w in want.items() if v[n]["shape"] not in ([w], [None])]
    expect(not bad, "%d integer Add/Sub/Mul in 7 types: numpy's wrapped value or unknown: %s"
           % (len(want), bad[:4]))
    for name in ("uint8_0_Add", "int32_1_Mul"):
        expect(v[name]["shape"] == [want[name]], "%s is %d, as numpy (and ONNX Runtime) wrap it"
               % (name, want[name] - off))
    # Cast between integer types wraps as C does; a float outside the type is unknown
    m = model([h.make_node("Cast", ["big"], ["c8"], to=T.UINT8),
               h.make_node("Cast", ["c8"], ["c64"], to=T.INT64),
               h.make_node("ConstantOfShape", ["c64"], ["z"]),
               h.make_node("Cast", ["fbig"], ["f8"], to=T.UINT8),
               h.make_node("Cast", ["f8"], ["f64"], to=T.INT64),
               h.make_node("ConstantOfShape", ["f64"], ["zf"])], [], [vi("z", None)],
              inits=[h.make_tensor("big", T.INT64, [1], [300]),
                     h.make_tensor("fbig", T.FLOAT, [1], [300.0])])
    v, _ = run(m)
    w = int(np.array([300], np.int64).astype(np.uint8)[0])
    expect(v["z"]["shape"] == [w] and v["zf"]["shape"] == [None],
           "Cast int64 300 to uint8: %d; float 300 to uint8: unknown: %s %s"
           % (w, v["z"]["shape"], v["zf"]["shape"]))


# ---- item 5: Resize's floor(dim*scale) ----

def resize_float32():
    from fractions import Fraction
    dims = [7, 10, 999, 2**24 - 1, 2**24, 2**24 + 1, 16777217, 33554431, 2**28 + 3, 2**29 + 1]
    scales = [2.0, 0.5, 1.5, 0.7, 3.0, 0.25, 1.25, 4.0]
    nodes, inits, ins, want = [], [], [], {}
    for j, sc in enumerate(scales):
        inits.append(h.make_tensor("s%d" % j, T.FLOAT, [4], [1, 1, 1, sc]))
    for i, d in enumerate(dims):
        ins.append(vi("x%d" % i, [1, 1, 1, d]))
        for j, sc in enumerate(scales):
            name = "r_%d_%d" % (i, j)
            nodes.append(h.make_node("Resize", ["x%d" % i, "", "s%d" % j], [name]))
            f32 = int(np.floor(np.float32(d) * np.float32(sc)))  # ORT's kernel, onnx 1.12
            exact = int(np.floor(Fraction(d) * Fraction(float(np.float32(sc)))))  # ONNX's text
            want[name] = f32 if f32 == exact else None
    v, _ = run(model(nodes, ins, [vi(nodes[0].output[0], None)], inits))
    bad = [(n, v[n]["shape"][3], w) for n, w in want.items() if v[n]["shape"][3] not in (w, None)]
    expect(not bad, "Resize of %d dims up to 2^29: float32's and the exact floor agree, or "
           "unknown: %s" % (len(want), bad[:4]))
    i = dims.index(16777217)
    expect(v["r_%d_0" % i]["shape"][3] is None,
           "16777217 * 2.0: 33554432 in float32, 33554434 exactly: unknown (%s)"
           % v["r_%d_0" % i]["reason"])
    # symbolic: floor(d*m/2^k) equals float32's while d*m < 2^24
    m = model([h.make_node("Resize", ["x", "", "s%d" % j], ["r%d" % j])
               for j in range(len(scales))], [vi("x", [1, 1, 1, "D"])], [vi("r0", None)], inits)
    v, _ = run(m)
    bad = []
    for j, sc in enumerate(scales):
        e = v["r%d" % j]["shape"][3]
        for d in range(0, 2**24 // 8, 9973):  # every scale here has m <= 5
            if e is not None and evaluate(e, {"D": d}) != int(np.floor(np.float32(d) *
                                                                       np.float32(sc))):
                bad.append((sc, e, d))
    expect(not bad, "symbolic D times m/2^k, D below 2^21: float32's floor: %s" % bad[:3])


# ---- item 6: DFT-20 ----

def dft_opsets():
    shape = [2, 8, 6, 1]
    z = np.zeros(shape[:-1])
    cases = []
    for opset in (17, 20):
        for axis in (None, -2, -3, 0, 1, 2):
            for length in (None, 5):
                for onesided in (0, 1):
                    cases.append((opset, axis, length, onesided))
    bad = []
    for opset, axis, length, onesided in cases:
        ins, inits, attrs = ["x", "", ""], [], {"onesided": onesided}
        if length is not None:
            ins[1] = "len"
            inits.append(h.make_tensor("len", T.INT64, [], [length]))
        if axis is not None and opset >= 20:
            ins[2] = "axis"
            inits.append(h.make_tensor("axis", T.INT64, [], [axis]))
        elif axis is not None:
            attrs["axis"] = axis
        while ins and ins[-1] == "":
            ins.pop()
        m = model([h.make_node("DFT", ins, ["y"], **attrs)], [vi("x", shape)], [vi("y", None)],
                  inits, opset=opset)
        ax = axis if axis is not None else (-2 if opset >= 20 else 1)
        f = np.fft.rfft if onesided else np.fft.fft
        want = list(f(z, n=length, axis=ax if ax >= 0 else ax + 1).shape) + [2]
        got = run(m)[0]["y"]["shape"]
        if got != want:
            bad.append((opset, axis, length, onesided, got, want))
    expect(not bad, "DFT-17 (axis an attribute, default 1) and DFT-20 (an input, default -2): "
           "%d cases, numpy.fft's shapes: %s" % (len(cases), bad[:3]))


# ---- item 7: Loop(M, "") that its body's condition can stop ----

def loop_condition():
    def run_loop(cond_nodes, n_iter=6):
        body = h.make_graph(cond_nodes + [h.make_node("Cast", ["i"], ["i_f"], to=T.FLOAT)],
                            "body", [vi("i", [], T.INT64), vi("cond", [], T.BOOL)],
                            [vi("cond_out", [], T.BOOL), vi("i_f", None)])
        m = model([h.make_node("Loop", ["M", ""], ["rows"], body=body)], [], [vi("rows", None)],
                  inits=[h.make_tensor("M", T.INT64, [], [n_iter]),
                         h.make_tensor("three", T.INT64, [], [3])])
        return run(m)[0]["rows"]

    # the ONNX text: M rows whatever the body's condition; ONNX Runtime:
    # it stops once the condition is false (i < 3: 4 rows of 6)
    r = run_loop([h.make_node("Less", ["i", "three"], ["cond_out"])])
    expect(r["shape"] == [None] and "ONNX Runtime stops early" in (r["reason"] or ""),
           "Loop(M, \"\") whose body's condition can be false: rows unknown: %s" % r)
    r = run_loop([h.make_node("Identity", ["cond"], ["cond_out"])])
    expect(r["shape"] == [6], "a body that passes its condition on: M rows: %s" % r["shape"])
    r = run_loop([h.make_node("Constant", [], ["cond_out"],
                              value=h.make_tensor("t", T.BOOL, [], [True]))])
    expect(r["shape"] == [6], "a body whose condition is Constant true: M rows: %s" % r["shape"])
    r = run_loop([h.make_node("Not", ["cond"], ["cond_out"])])
    expect(r["shape"] == [None], "a body whose condition is Not(cond): unknown: %s" % r["shape"])


# ---- item 10: ConvTranspose, auto_pad SAME and output_padding ----

def convt_same():
    import onnx
    nodes, inits, want = [], [], {}
    for k in (1, 2, 3):
        inits.append(h.make_tensor("w%d" % k, T.FLOAT, [1, 1, k], [0.0] * k))
    for ap in ("SAME_UPPER", "SAME_LOWER"):
        for k in (1, 2, 3):
            for s in (1, 2, 3):
                for op in range(s):
                    name = "%s_%d_%d_%d" % (ap, k, s, op)
                    nodes.append(h.make_node("ConvTranspose", ["x", "w%d" % k], [name],
                                             auto_pad=ap, strides=[s], output_padding=[op]))
                    want[name] = 5 * s  # the ONNX text: in * stride
    m = model(nodes, [vi("x", [1, 1, 5])], [vi(nodes[0].output[0], None)], inits)
    inf = onnx.shape_inference.infer_shapes(m).graph
    ref = {o.name: o.type.tensor_type.shape.dim[2].dim_value
           for o in list(inf.value_info) + list(inf.output)}
    v, _ = run(m)
    bad = [(n, v[n]["shape"], w, ref.get(n)) for n, w in want.items()
           if v[n]["shape"][2] is not None and not (v[n]["shape"][2] == w == ref.get(n))]
    expect(not bad, "ConvTranspose SAME: a number only where the ONNX text and onnx agree "
           "(%d cases): %s" % (len(want), bad[:3]))
    r = v["SAME_UPPER_3_2_1"]
    expect(r["shape"][2] is None and "output_padding" in r["reason"],
           "in=5, k=3, s=2, output_padding=1 (onnx 11, ONNX Runtime 10): unknown: %s" % r["reason"])


# ---- item 12: a long symbol name; a symbol named a*b ----

def long_names():
    name = "q" * 100000
    nodes = [h.make_node("Shape", ["x"], ["s"]), h.make_node("Gather", ["s", "zero"], ["l"]),
             h.make_node("Unsqueeze", ["l", "zero1"], ["l1"])]
    prev = "l1"
    for k in range(6):  # L^2 ... L^7: the name k+2 times in one dim
        nodes += [h.make_node("Mul", [prev, "l1"], ["p%d" % k]),
                  h.make_node("ConstantOfShape", ["p%d" % k], ["c%d" % k])]
        prev = "p%d" % k
    nodes.append(h.make_node("MaxPool", ["x4"], ["mp"], kernel_shape=[2], strides=[2]))
    m = model(nodes, [vi("x", [name, 3]), vi("x4", [1, 1, name])], [vi("c5", None)],
              inits=[h.make_tensor("zero", T.INT64, [], [0]),
                     h.make_tensor("zero1", T.INT64, [1], [0])])
    path = write(m)
    try:
        out = subprocess.run([EXE, "scan", path], capture_output=True, text=True)
    finally:
        os.unlink(path)
    lines = out.stdout.splitlines()
    longest = max(len(l) for l in lines)
    recs = {r.get("name"): r for r in map(json.loads, lines)}
    expect(out.returncode in (0, 1) and longest < len(name) + 16384,
           "a 100 KB symbol name: the longest record is %d bytes (the name once, plus < 16 KB)"
           % longest)
    expect(recs["c5"]["shape"] == [None] and recs["mp"]["shape"][2] is None,
           "an expression past the print cap is unknown: %s %s"
           % (recs["c5"]["shape"], str(recs["mp"]["shape"])[:40]))
    # a symbol named a*b is quoted in an expression, never read as a product
    m = model([h.make_node("Concat", ["a", "a"], ["y"], axis=0),
               h.make_node("Concat", ["b", "b"], ["z"], axis=0)],
              [vi("a", ["a*b", 3]), vi("b", ["it's", 3])], [vi("y", None)])
    v, _ = run(m)
    expect(v["y"]["shape"][0] == "'a*b'*2" and v["z"]["shape"][0] == "'it\\'s'*2",
           "symbols a*b and it's in expressions: %s %s" % (v["y"]["shape"][0], v["z"]["shape"][0]))


# ---- misleading: a declared output without a shape; --shape on an activation ----

def scan_messages():
    m = model([h.make_node("NonZero", ["x"], ["y"]), h.make_node("Concat", ["y", "y"], ["z"],
                                                                 axis=1)],
              [vi("x", [2, 3])], [vi("z", None, T.INT64)])
    path = write(m)
    try:
        out = subprocess.run([EXE, "scan", path], capture_output=True, text=True)
        recs = {r.get("name"): r for r in map(json.loads, out.stdout.splitlines())}
        z = recs["z"]
        expect(z["shape"] == [2, "y*2"] and z["error"]["id"] != "shape_unknown",
               "a declared output without a shape takes what inference knows (%s, %s), not "
               "'rank unknown'" % (z["shape"], z["error"]["id"]))
        out = subprocess.run([EXE, "scan", "--shape", "y=2,5", path], capture_output=True,
                             text=True)
        recs = {r.get("name"): r for r in map(json.loads, out.stdout.splitlines())}
        expect(recs["y"]["shape"] == [2, 5] and recs["z"]["shape"] == [2, 10] and
               "no tensor" not in out.stderr,
               "--shape on an activation applies, without a 'no tensor' note: %s %s"
               % (recs["y"]["shape"], out.stderr.strip()[:120]))
    finally:
        os.unlink(path)


# ---- the disagreements the differential test (check_infer_ort.py) found ----

def runtime_disagreements():
    m = model([h.make_node("Slice", ["x", "s", "e", "a", "st"], ["sl"]),
               h.make_node("MaxPool", ["x4"], ["mp"], kernel_shape=[2, 2], strides=[1, 1],
                           dilations=[2, 2], auto_pad="SAME_UPPER"),
               h.make_node("ReduceSum", ["z", "neg"], ["rs"], keepdims=0),
               h.make_node("ReduceSum", ["z", "pos"], ["rp"], keepdims=0)],
              [vi("x", [3, 4]), vi("x4", [1, 1, 5, 5]), vi("z", [3, 0, 0, 1])], [vi("sl", None)],
              inits=[h.make_tensor("s", T.INT64, [1], [0]),
                     h.make_tensor("e", T.INT64, [1], [2**63 - 1]),
                     h.make_tensor("a", T.INT64, [1], [0]),
                     h.make_tensor("st", T.INT64, [1], [-1]),
                     h.make_tensor("neg", T.INT64, [1], [-3]),
                     h.make_tensor("pos", T.INT64, [1], [1])], opset=18)
    v, _ = run(m)
    # ONNX's text and numpy: x[0:INT64_MAX:-1] is empty; ONNX Runtime: 1 row
    expect(v["sl"]["shape"][0] is None and "INT_MAX" in v["sl"]["reason"],
           "Slice, negative step, end INT64_MAX: unknown: %s" % v["sl"]["reason"])
    expect(v["mp"]["shape"][2] is None, "MaxPool SAME with dilation 2: unknown: %s"
           % v["mp"]["reason"])
    want = list(np.zeros((3, 0, 0, 1)).sum(axis=1).shape)
    expect(v["rs"]["shape"] is None and v["rp"]["shape"] == want,
           "ReduceSum of an empty input: axis -3 unknown (ONNX Runtime keeps the shape), axis 1 "
           "numpy's %s: %s %s" % (want, v["rs"]["shape"], v["rp"]["shape"]))


# ---- item 8: pads past int64 ----

def pads_overflow():
    big = [2**63 - 1, 2**62, 2**31, 2**31 - 1, 7, 0, -1, -2**63]
    nodes, want = [], {}
    w = h.make_tensor("w", T.FLOAT, [1, 1, 3, 3], [0.0] * 9)
    for i, a in enumerate(big):
        for j, b in enumerate(big):
            name = "ct_%d_%d" % (i, j)
            nodes.append(h.make_node("ConvTranspose", ["x", "w"], [name], strides=[2, 2],
                                     pads=[a, a, b, b]))
            # the ONNX text: s*(in-1) + output_padding + ((k-1)*d+1) - pad_begin - pad_end, in
            # Python's integers; a dim below 0 is no tensor
            want[name] = [2 * 3 + 3 - a - b] * 2  # pads: [x1_begin, x2_begin, x1_end, x2_end]
            name = "up_%d_%d" % (i, j)
            nodes.append(h.make_node("MaxUnpool", ["x", "ix"], [name], kernel_shape=[2, 2],
                                     strides=[2, 2], pads=[a, b, a, b]))
            want[name] = [2 * 3 + 2 - a - a, 2 * 3 + 2 - b - b]
    m = model(nodes, [vi("x", [1, 1, 4, 4]), vi("ix", [1, 1, 4, 4], T.INT64)],
              [vi("ct_0_0", None)], inits=[w])
    v, _ = run(m)
    bad = []
    for name, dims in want.items():
        got = v[name]["shape"][2:] if v[name]["shape"] else [None, None]
        for g, d in zip(got, dims):
            if g is not None and (d < 0 or g != d):
                bad.append((name, got, dims))
    expect(not bad, "ConvTranspose and MaxUnpool with pads up to 2^63-1: each dim exact or "
           "unknown, never wrapped: %s" % bad[:4])
    expect((v["ct_0_0"]["shape"] or [None] * 3)[2] is None and "pad" in (v["ct_0_0"]["reason"] or ""),
           "pads of 2^63-1: not inferred, the reason says why: %s" % v["ct_0_0"]["reason"])


def main():
    global DUMP, EXE
    DUMP = os.path.abspath(sys.argv[1])
    EXE = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    only = sys.argv[3:]
    for case in (ceil_mode_pools, fresh_names, integer_wrap, resize_float32, dft_opsets, loop_condition, nonzero_scalar, pads_overflow, convt_same, long_names, scan_messages,
                 runtime_disagreements):
        if not only or case.__name__ in only:
            case()
    return 0


if __name__ == "__main__":
    sys.exit(main())
