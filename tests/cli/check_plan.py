#!/usr/bin/env python3
"""`plan` against an independent checker, in every format.

Usage: check_plan.py DMLTENSOR --cc CC --cxx CXX [--cases N] [--seed S]

For N random inputs (1..300 tensors; sizes from 1 byte to past 2^53, some
given as a descriptor, dtype and sizes, whose TotalTensorSizeInBytes this
script computes itself; lifetimes short and long; alignments 16..2^20) it
runs `dmltensor plan` and checks, in Python's exact integers:
  - one record per tensor in input order, echoing name, op, path, first,
    last, dtype and sizes, size_in_bytes the given size or the computed one;
  - every offset a multiple of the alignment; no two tensors alive at a
    common step share a byte (every pair);
  - the summary: tensors, steps (last step + 1), alignment, arena_bytes =
    max(offset + size), lower_bound_bytes = the most bytes alive at one
    step, peak_step the first step with it, sum_bytes, ratio (4 decimals,
    rounded half up), weight_bytes and io_bytes null;
  - the same input gives the same bytes twice; --format text has each
    record's numbers and name on its row; --format c compiles as C11 and
    C++ (-Wall -Wextra -Wpedantic -Werror) and the program prints exactly
    the names, offsets, sizes, count and arena of the JSON Lines;
  - --format svg is well-formed XML, valid against the SVG 1.1 DTD of
    Debian's w3c-sgml-lib (xmllint --dtdvalid --nonet: no network), with a <rect> per
    tensor of nonzero size at the x, y, width and height docs/plan.md
    defines (check_plan_geometry.py: idle steps compressed), whose <title>
    names it.
Exits 1 on any failure.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_plan_geometry import Geometry  # noqa: E402

SVG_DTD = "/usr/share/xml/w3c-sgml-lib/schema/dtd/REC-SVG11-20110816/svg11.dtd"
BITS = {"float32": 32, "float16": 16, "int8": 8, "uint8": 8, "int64": 64, "float64": 64,
        "int4": 4, "uint16": 16}
failures = []


def fail(where, what):
    failures.append(f"{where}: {what}")
    if len(failures) <= 30:
        print(f"FAIL {where}: {what}", file=sys.stderr)


def random_input(rng):
    n = rng.choice([1, 2, 3, 5, 10, 40, 150, 300])
    steps = rng.choice([1, 3, 10, 50, 400, 2**40])
    recs, want = [], []
    for i in range(n):
        first = rng.randrange(steps)
        last = first + rng.choice([0, 0, 1, 2, 5, rng.randrange(steps)])
        rec = {"name": rng.choice([f"t{i}", f"act {i}", f"n\u00e9{i}", f"q\"<&>{i}"]),
               "first": first, "last": last}
        if rng.random() < 0.3:
            rec["op"] = rng.choice(["Conv", "Relu", "Add", "MatMul"])
        if rng.random() < 0.2:
            rec["path"] = f"graph.node[{i}]"
        if rng.random() < 0.3:
            dtype = rng.choice(sorted(BITS))
            sizes = [rng.randint(1, 64) for _ in range(rng.randint(1, 4))]
            rec["dtype"], rec["sizes"] = dtype, sizes
            count = 1
            for s in sizes:
                count *= s
            size = (count * BITS[dtype] + 7) // 8
            size = (size + 3) // 4 * 4
        else:
            size = rng.choice([0, 1, 4, 100, 4096, 1 << 20, rng.randrange(1, 1 << 40),
                               (1 << 53) + rng.randrange(1000)])
            if size == 0 and rng.random() < 0.5:
                size = 16
            rec["size_in_bytes"] = size
        recs.append(rec)
        want.append(size)
    return recs, want


def check_plan(where, recs, sizes, align, out):
    lines = out.decode().splitlines()
    if len(lines) != len(recs) + 1:
        fail(where, f"{len(lines)} lines for {len(recs)} records")
        return None
    got = [json.loads(line) for line in lines[:-1]]
    summary = json.loads(lines[-1]).get("summary")
    for i, (r, g, size) in enumerate(zip(recs, got, sizes)):
        for key in ("name", "first", "last"):
            if g[key] != r[key]:
                fail(where, f"record {i}: {key} {g[key]!r}, expected {r[key]!r}")
        for key in ("op", "path", "dtype", "sizes"):
            if g[key] != r.get(key):
                fail(where, f"record {i}: {key} {g[key]!r}, expected {r.get(key)!r}")
        if g["size_in_bytes"] != size:
            fail(where, f"record {i}: size_in_bytes {g['size_in_bytes']}, expected {size}")
        if g["offset"] % align:
            fail(where, f"record {i}: offset {g['offset']} not a multiple of {align}")
    live = [(g["first"], g["last"], g["offset"], g["size_in_bytes"]) for g in got]
    for i in range(len(live)):
        fi, li, oi, si = live[i]
        if si == 0:
            continue
        for j in range(i):
            fj, lj, oj, sj = live[j]
            if sj and fi <= lj and fj <= li and oi < oj + sj and oj < oi + si:
                fail(where, f"records {j} and {i} are alive together and share bytes")
    arena = max([o + s for _, _, o, s in live if s] or [0])
    lb, peak = 0, 0
    for step in sorted({f for f, _, _, _ in live}):
        total = sum(s for f, last, _, s in live if f <= step <= last)
        if total > lb:
            lb, peak = total, step
    expect = {"tensors": len(recs), "steps": max(r["last"] for r in recs) + 1 if recs else 0,
              "alignment": align, "arena_bytes": arena, "lower_bound_bytes": lb,
              "peak_step": peak, "sum_bytes": sum(sizes), "weight_bytes": None, "io_bytes": None}
    for key, value in expect.items():
        if summary.get(key) != value:
            fail(where, f"summary {key} {summary.get(key)!r}, expected {value!r}")
    ratio_text = re.search(rb'"ratio":([0-9.]+|null)', out.splitlines()[-1]).group(1).decode()
    want_ratio = "null" if lb == 0 else \
        f"{(arena * 10000 + lb // 2) // lb // 10000}.{(arena * 10000 + lb // 2) // lb % 10000:04d}"
    if ratio_text != want_ratio:
        fail(where, f"ratio {ratio_text}, expected {want_ratio}")
    return got, summary


def check_text(where, got, out):
    rows = out.decode().splitlines()
    for i, g in enumerate(got):
        cols = rows[i + 1].split(None, 4)
        nums = [int(c) for c in cols[:4]]
        if nums != [g["offset"], g["size_in_bytes"], g["first"], g["last"]]:
            fail(where, f"text row {i}: {rows[i + 1]!r}")


def check_svg(where, got, summary, out, tmp):
    try:
        root = ET.fromstring(out)
    except ET.ParseError as e:
        fail(where, f"svg is not XML: {e}")
        return
    if not os.path.exists(SVG_DTD) or not shutil.which("xmllint"):
        fail(where, f"no {SVG_DTD} or xmllint: .ci/setup-tests.sh installs w3c-sgml-lib and "
                    "libxml2-utils")
    else:
        path = os.path.join(tmp, "plan.svg")
        with open(path, "wb") as f:
            f.write(out)
        r = subprocess.run(["xmllint", "--noout", "--nonet", "--dtdvalid", SVG_DTD, path],
                           capture_output=True)
        if r.returncode != 0:
            fail(where, f"svg not valid SVG 1.1: {r.stderr.decode()[:400]}")
    ns = "{http://www.w3.org/2000/svg}"
    rects = [r for r in root.iter(ns + "rect") if r.find(ns + "title") is not None]
    shown = [g for g in got if g["size_in_bytes"]]
    if len(rects) != len(shown):
        fail(where, f"{len(rects)} tensor rectangles for {len(shown)} tensors")
        return
    geo = Geometry(got, summary["steps"], summary["arena_bytes"])
    for rect, g in zip(rects, shown):
        want = geo.box(g)
        have = [round(float(rect.get(k)) * 1000) for k in ("x", "y", "width", "height")]
        if have != want:
            fail(where, f"rect of {g['name']!r}: {have}, expected {want} (thousandths)")
        title = rect.find(ns + "title").text
        if not title.startswith(g["name"]):
            fail(where, f"title {title!r} does not start with {g['name']!r}")


C_HARNESS = """
#include <stdio.h>
int main(void)
{
    printf("%llu %llu\\n", planArenaBytes, planTensorCount);
    for (unsigned long long i = 0; i < planTensorCount; i++)
        printf("%s %llu %llu\\n", planTensors[i].name, planTensors[i].offset, planTensors[i].size);
    return 0;
}
"""


def check_c(where, got, summary, out, tmp, cc, cxx):
    src = os.path.join(tmp, "plan_c.c")
    with open(src, "wb") as f:
        f.write(out + C_HARNESS.encode())
    want = f"{summary['arena_bytes']} {len(got)}\n" + "".join(
        f"{g['name']} {g['offset']} {g['size_in_bytes']}\n" for g in got)
    for compiler, std in ((cc, ["-std=c11", "-x", "c"]), (cxx, ["-std=c++11", "-x", "c++"])):
        exe = os.path.join(tmp, "plan_c")
        r = subprocess.run([compiler, *std, "-Wall", "-Wextra", "-Wpedantic", "-Werror", src,
                            "-o", exe], capture_output=True)
        if r.returncode != 0:
            fail(where, f"{compiler} refuses --format c: {r.stderr.decode()[:600]}")
            continue
        run = subprocess.run([exe], capture_output=True)
        if run.stdout.decode("utf-8", "replace") != want:
            fail(where, f"{compiler}: the table holds {run.stdout[:300]!r}, expected {want[:300]!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dmltensor")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cxx", default="c++")
    ap.add_argument("--cases", type=int, default=150)
    ap.add_argument("--seed", type=int, default=23)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        for case in range(args.cases):
            recs, sizes = random_input(rng)
            align = rng.choice([16, 256, 256, 4096, 1 << 20])
            text = "".join(json.dumps(r) + "\n" for r in recs).encode()
            where = f"case {case} ({len(recs)} tensors, --alignment {align})"
            base = [args.dmltensor, "plan", "--alignment", str(align)]
            r = subprocess.run(base, input=text, capture_output=True)
            if r.returncode != 0:
                fail(where, f"exit {r.returncode}: {r.stderr.decode()[:300]}")
                continue
            checked = check_plan(where, recs, sizes, align, r.stdout)
            if checked is None:
                continue
            got, summary = checked
            if subprocess.run(base, input=text, capture_output=True).stdout != r.stdout:
                fail(where, "a second run printed other bytes")
            if case % 3 == 0:
                t = subprocess.run(base + ["--format", "text"], input=text, capture_output=True)
                check_text(where + " text", got, t.stdout)
            if case % 5 == 0:
                s = subprocess.run(base + ["--format", "svg"], input=text, capture_output=True)
                check_svg(where + " svg", got, summary, s.stdout, tmp)
                again = subprocess.run(base + ["--format", "svg"], input=text, capture_output=True)
                if again.stdout != s.stdout:
                    fail(where + " svg", "a second run drew other bytes")
            if case % 10 == 0 and all("\\" not in g["name"] for g in got):
                c = subprocess.run(base + ["--format", "c"], input=text, capture_output=True)
                check_c(where + " c", got, summary, c.stdout, tmp, args.cc, args.cxx)
    print(f"check_plan: {args.cases} inputs, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
