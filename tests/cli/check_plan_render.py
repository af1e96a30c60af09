#!/usr/bin/env python3
"""`plan --format svg` drawn by a real browser: the rectangles are where the
records say.

Usage: check_plan_render.py DMLTENSOR [--chromium PATH]

Plans a few inputs (a small network, random ones), renders each picture with
Debian's chromium (headless, no network, a fresh profile, scale factor 1)
to a PNG, and reads its pixels with PIL. For every tensor whose rectangle
is at least 8 pixels each way, the box comes from its JSON Lines record
and the summary by docs/plan.md's mapping
    x = 80 + step x 900 / steps,  y = 50 + offset x 600 / arena_bytes
(the record's first step to its last + 1, its offset to offset + size);
every one of 25 points spread inside the box, less those within 3 pixels
of the peak step's outline or the lower bound's line drawn over it (at
least 5 left), must have the rectangle's fill colour, and a point
left of the plot must be the white page. The lower bound's dashed line
must darken its row. Exits 1 on any failure; 77 (skipped) when chromium or
PIL is missing.

Also, on the inputs above and on an ONNX model of 28 op types (built here
with python3-onnx): the legend names every op drawn, each in the fill its
tensors have and chromium paints; no two legend colours alike; the same op
the same colour in every picture (MatMul, Softmax and Conv apart); offset
ticks in B/KiB/MiB/GiB, step ticks naming a tensor that starts there; the
peak's tensors named. The x mapping compresses steps that allocate
nothing (check_plan_geometry.py, docs/plan.md).
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_plan_geometry import Geometry  # noqa: E402

try:
    from PIL import Image
except ImportError:
    Image = None

NS = "{http://www.w3.org/2000/svg}"
failures = []


def fail(where, what):
    failures.append(what)
    print(f"FAIL {where}: {what}", file=sys.stderr)


def inputs(rng):
    small = open(os.path.join(os.path.dirname(__file__), "data", "plan_small.jsonl")).read()
    yield "plan_small.jsonl", small
    for case in range(4):
        recs = []
        for i in range(rng.randint(4, 14)):
            first = rng.randrange(8)
            recs.append({"name": f"t{i}", "op": rng.choice(["Conv", "Relu", "Add", "Gemm", None]),
                         "first": first, "last": first + rng.randrange(3),
                         "size_in_bytes": rng.choice([1, 2, 3, 4, 6]) * 65536})
        yield f"random {case}", "".join(json.dumps(r) + "\n" for r in recs)


def render(chromium, svg_path, png_path, height, tmp):
    profile = tempfile.mkdtemp(dir=tmp)
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", f"--user-data-dir={profile}", "--hide-scrollbars",
           "--force-device-scale-factor=1", f"--window-size=1000,{height}",
           f"--screenshot={png_path}", "file://" + svg_path]
    r = subprocess.run(cmd, capture_output=True, timeout=120)
    return r.returncode == 0 and os.path.exists(png_path)


def close(a, b):
    return all(abs(x - y) <= 4 for x, y in zip(a[:3], b[:3]))


def hex_rgb(h):
    return tuple(int(h[i:i + 2], 16) for i in (1, 3, 5))


def check(where, jsonl, svg, png):
    lines = [json.loads(line) for line in jsonl.decode().splitlines()]
    recs, summary = lines[:-1], lines[-1]["summary"]
    recs = [r for r in recs if r.get("graph", "") == ""]  # the main arena is drawn
    rects = [r for r in ET.fromstring(svg).iter(NS + "rect") if r.find(NS + "title") is not None]
    shown = [r for r in recs if r["size_in_bytes"]]
    img = Image.open(png).convert("RGB")
    px = img.load()
    geo = Geometry(recs, summary["steps"], summary["arena_bytes"])
    checked = 0
    peak = summary["peak_step"]
    # what is drawn over the rectangles: the peak step's outline, the lower
    # bound's line, the outlines of the peak's tensors
    overlay_x = [geo.x(peak) / 1000, geo.x(min(peak + 1, geo.span)) / 1000]
    overlay_y = geo.y(summary["lower_bound_bytes"]) / 1000
    for rec, rect in zip(shown, rects):
        x0, y0, w, h = (v / 1000 for v in geo.box(rec))
        x1, y1 = x0 + w, y0 + h
        if w < 8 or h < 8:
            continue
        want = hex_rgb(rect.get("fill"))
        points = [(x0 + fx * w, y0 + fy * h)
                  for fx in (0.1, 0.3, 0.5, 0.7, 0.9) for fy in (0.1, 0.3, 0.5, 0.7, 0.9)]
        points = [(x, y) for x, y in points
                  if min(abs(x - e) for e in overlay_x) > 3 and abs(y - overlay_y) > 3]
        if rec["first"] <= peak <= rec["last"]:  # outlined in red: away from its edges
            points = [(x, y) for x, y in points
                      if min(x - x0, x1 - x, y - y0, y1 - y) > 3]
        hits = sum(close(px[int(x), int(y)], want) for x, y in points)
        if len(points) < 5 or hits < len(points):
            fail(where, f"{rec['name']}: {hits} of {len(points)} points inside "
                        f"({x0:.1f},{y0:.1f})-({x1:.1f},{y1:.1f}) have its colour {want}")
        checked += 1
    if not close(px[40, 200], (255, 255, 255)):
        fail(where, f"the page left of the plot is {px[40, 200]}, not white")
    if summary["lower_bound_bytes"]:
        y = round(overlay_y)
        dark = sum(1 for x in range(80, 980)
                   if any(max(px[x, yy]) < 80 for yy in (y - 1, y, min(y + 1, img.size[1] - 1))))
        if dark < 200:
            fail(where, f"the lower bound's line at y={y} has {dark} dark pixels")
    check_picture(where, recs, summary, ET.fromstring(svg), px)
    return checked


def legend_of(root):
    """{op: fill} of the legend's swatches (a rect without a title followed
    by its text), and the texts of the axes' ticks."""
    legend, ticks = {}, []
    for g in root.iter(NS + "g"):
        kids = list(g)
        for a, b in zip(kids, kids[1:]):
            if a.tag == NS + "rect" and b.tag == NS + "text" and a.get("fill") not in (None, "none"):
                legend[(b.text or "").strip()] = (a.get("fill"), a)
        ticks += ["".join(t.itertext()) for t in g.iter(NS + "text")
                  if t.get("transform", "").startswith("rotate(90")]
    return legend, ticks


def check_picture(where, recs, summary, root, px):
    """The legend names every op drawn in its own colour (the tensors' fill),
    colours stay apart across families, the axes have ticks, the peak's
    tensors are named; chromium paints each swatch in its colour."""
    legend, ticks = legend_of(root)
    legend.pop("no op", None)
    ops = {r["op"] for r in recs if r["op"] and r["size_in_bytes"]}
    other = any(k.startswith("other:") for k in legend)
    if not other and set(legend) != ops:
        fail(where, f"legend {sorted(legend)} != the ops drawn {sorted(ops)}")
    fills = {}
    for rect in root.iter(NS + "rect"):
        title = rect.find(NS + "title")
        if title is not None:
            fills.setdefault(title.text.split(" (")[1].split(")")[0] if " (" in title.text
                             else None, set()).add(rect.get("fill"))
    for op, seen in fills.items():
        if op in legend and seen != {legend[op][0]}:
            fail(where, f"{op}: drawn {seen}, its legend says {legend[op][0]}")
    colours = [v[0] for k, v in legend.items()]
    if len(set(colours)) != len(colours):
        fail(where, f"legend colours repeat: {sorted(colours)}")
    for op, (fill, rect) in legend.items():
        x, y = int(float(rect.get("x"))) + 12, int(float(rect.get("y"))) + 6
        if not close(px[x, y], hex_rgb(fill)):
            fail(where, f"legend swatch of {op} painted {px[x, y]}, not {fill}")
    for op in ops & set(legend):
        COLOURS.setdefault(op, set()).add(legend[op][0])
    units = [t for t in root.iter(NS + "text") if t.get("text-anchor") is None and
             (t.text or "").split(" ")[-1] in ("B", "KiB", "MiB", "GiB", "TiB")]
    yt = [(t.text or "") for g in root.iter(NS + "g") if g.get("text-anchor") == "end"
          for t in g.iter(NS + "text")]
    if len(yt) < 3 or not all(v.split(" ")[-1] in ("B", "KiB", "MiB", "GiB", "TiB") for v in yt):
        fail(where, f"offset ticks {yt}: want 3 or more, each in B, KiB, MiB or GiB")
    del units
    starts = {}
    for r in recs:
        if r["size_in_bytes"]:
            starts.setdefault(r["first"], []).append(r["name"])
    for t in ticks:
        step, _, label = t.partition(" ")
        names = starts.get(int(step), [])
        if not any(label.startswith(n[:8]) and (len(n) <= 20 or n[-9:] + " " in label + " ")
                   for n in names):
            fail(where, f"step tick {t!r}: step {step} starts none of that name ({names[:3]})")
    if len(ticks) < min(3, len(starts)):
        fail(where, f"{len(ticks)} step ticks for {len(starts)} allocating steps")
    text = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
    for name in summary.get("peak_tensors", [])[:10]:
        if name[:24] not in text:
            fail(where, f"peak tensor {name!r} is not named in the picture")


COLOURS = {}


def op_model(tmp):
    """An ONNX model with 28 op types in one chain, planned at N=64."""
    try:
        import onnx
        from onnx import TensorProto, helper
    except ImportError:
        return None
    unary = ["Relu", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Abs", "Neg", "Exp", "Erf",
             "Elu", "LeakyRelu", "Softplus", "HardSigmoid", "Identity"]
    nodes, prev, inits = [], "x", []
    for k, op in enumerate(unary):
        nodes.append(helper.make_node(op, [prev], [f"{op.lower()}_{k}"]))
        prev = nodes[-1].output[0]
    W = helper.make_tensor("W", TensorProto.FLOAT, [64, 64], [0.0] * 4096)
    B = helper.make_tensor("B", TensorProto.FLOAT, [64], [0.0] * 64)
    shape = helper.make_tensor("shape4", TensorProto.INT64, [4], [-1, 1, 8, 8])
    cw = helper.make_tensor("CW", TensorProto.FLOAT, [4, 1, 3, 3], [0.0] * 36)
    bn = [helper.make_tensor(n, TensorProto.FLOAT, [4], [1.0] * 4) for n in ("s", "b", "m", "v")]
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
    inits += [W, B, shape, cw, axes] + bn
    more = [("MatMul", [prev, "W"], {}), ("Gemm", ["@", "W"], {}), ("Add", ["@", "@"], {}),
            ("Mul", ["@", "@"], {}), ("Sub", ["@", "@"], {}),
            ("LayerNormalization", ["@", "B", "B"], {}), ("Reshape", ["@", "shape4"], {}),
            ("Conv", ["@", "CW"], {"pads": [1, 1, 1, 1]}),
            ("BatchNormalization", ["@", "s", "b", "m", "v"], {}),
            ("MaxPool", ["@"], {"kernel_shape": [2, 2]}),
            ("AveragePool", ["@"], {"kernel_shape": [1, 1]}),
            ("GlobalAveragePool", ["@"], {}), ("Flatten", ["@"], {}),
            ("ReduceSum", ["@", "axes"], {"keepdims": 1}), ("Concat", ["@", "@"], {"axis": 1})]
    for k, (op, ins, attrs) in enumerate(more):
        ins = [prev if i == "@" else i for i in ins]
        nodes.append(helper.make_node(op, ins, [f"{op.lower()}_{k}"], **attrs))
        prev = nodes[-1].output[0]
    nodes.append(helper.make_node("Relu", [prev], ["y"]))
    g = helper.make_graph(nodes, "ops", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, ["N", 64])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, None)], inits)
    path = os.path.join(tmp, "ops.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dmltensor")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    args = ap.parse_args()
    if Image is None or not shutil.which(args.chromium):
        print("check_plan_render: skipped (needs chromium and python3-pil: .ci/setup-tests.sh)")
        return 77
    rng = random.Random(23)
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        model = op_model(tmp)
        if model is None:
            fail("ops.onnx", "no python3-onnx to build the model of 28 op types")
        runs = [(w, [], t.encode()) for w, t in inputs(rng)]
        if model:
            runs.append(("28 op types", [model, "--dim", "N=64"], None))
        for where, extra, text in runs:
            run = [args.dmltensor, "plan"] + extra
            jsonl = subprocess.run(run, input=text, capture_output=True).stdout
            svg = subprocess.run(run + ["--format", "svg"], input=text,
                                 capture_output=True).stdout
            svg_path, png_path = os.path.join(tmp, "plan.svg"), os.path.join(tmp, "plan.png")
            with open(svg_path, "wb") as f:
                f.write(svg)
            height = int(ET.fromstring(svg).get("height"))
            if os.path.exists(png_path):
                os.remove(png_path)
            if not render(args.chromium, svg_path, png_path, height, tmp):
                fail(where, "chromium wrote no screenshot")
                continue
            total += check(where, jsonl, svg, png_path)
            if extra:
                ops = {json.loads(line).get("op") for line in jsonl.decode().splitlines()[:-1]}
                if len(ops - {None}) < 25:
                    fail(where, f"{len(ops - {None})} op types planned, want 25 or more")
        for op, seen in COLOURS.items():  # the same op, the same colour in every picture
            if len(seen) != 1:
                fail("colours", f"{op} drawn in {sorted(seen)} in different pictures")
        apart = {COLOURS.get(op, {None}).pop() if COLOURS.get(op) else None
                 for op in ("MatMul", "Softmax", "Conv")}
        if model and len(apart) != 3:
            fail("colours", f"MatMul, Softmax and Conv share colours: {apart}")
    print(f"check_plan_render: {total} rectangles checked in chromium's pixels, "
          f"{len(failures)} failures")
    return 1 if failures or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
