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
    rects = [r for r in ET.fromstring(svg).iter(NS + "rect") if r.find(NS + "title") is not None]
    shown = [r for r in recs if r["size_in_bytes"]]
    img = Image.open(png).convert("RGB")
    px = img.load()
    steps, arena = max(summary["steps"], 1), max(summary["arena_bytes"], 1)
    checked = 0
    # what is drawn over the rectangles: the peak step's outline, the lower bound's line
    overlay_x = [80 + summary["peak_step"] * 900 / steps, 80 + (summary["peak_step"] + 1) * 900 / steps]
    overlay_y = 50 + summary["lower_bound_bytes"] * 600 / arena
    for rec, rect in zip(shown, rects):
        x0 = 80 + rec["first"] * 900 / steps
        x1 = 80 + (rec["last"] + 1) * 900 / steps
        y0 = 50 + rec["offset"] * 600 / arena
        y1 = 50 + (rec["offset"] + rec["size_in_bytes"]) * 600 / arena
        if x1 - x0 < 8 or y1 - y0 < 8:
            continue
        want = hex_rgb(rect.get("fill"))
        points = [(x0 + fx * (x1 - x0), y0 + fy * (y1 - y0))
                  for fx in (0.1, 0.3, 0.5, 0.7, 0.9) for fy in (0.1, 0.3, 0.5, 0.7, 0.9)]
        points = [(x, y) for x, y in points
                  if min(abs(x - e) for e in overlay_x) > 3 and abs(y - overlay_y) > 3]
        hits = sum(close(px[int(x), int(y)], want) for x, y in points)
        if len(points) < 5 or hits < len(points):
            fail(where, f"{rec['name']}: {hits} of {len(points)} points inside "
                        f"({x0:.1f},{y0:.1f})-({x1:.1f},{y1:.1f}) have its colour {want}")
        checked += 1
    if not close(px[40, 200], (255, 255, 255)):
        fail(where, f"the page left of the plot is {px[40, 200]}, not white")
    if summary["lower_bound_bytes"]:
        y = round(50 + summary["lower_bound_bytes"] * 600 / arena)
        dark = sum(1 for x in range(80, 980)
                   if any(max(px[x, yy]) < 80 for yy in (y - 1, y, min(y + 1, img.size[1] - 1))))
        if dark < 200:
            fail(where, f"the lower bound's line at y={y} has {dark} dark pixels")
    return checked


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
        for where, text in inputs(rng):
            run = [args.dmltensor, "plan"]
            jsonl = subprocess.run(run, input=text.encode(), capture_output=True).stdout
            svg = subprocess.run(run + ["--format", "svg"], input=text.encode(),
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
    print(f"check_plan_render: {total} rectangles checked in chromium's pixels, "
          f"{len(failures)} failures")
    return 1 if failures or total == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
