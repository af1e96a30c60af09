#!/usr/bin/env python3
"""check_plan_tables.py DMLTENSOR DOCS_DIR... - issue 28's tables for people
and --top:

- every table row of `scan --format text` and `plan --format text` fits 100
  columns (characters): for each such example in README.md and docs/*.md,
  for the test models in tests/cli/data/onnx, and for plans of names up to
  200 characters long, whose row keeps the name's head and tail around
  "..." (the middle elided, where names that share a prefix differ);
- `--top N` gives the N largest tensors by bytes, the largest first (input
  order among equals), in every format: scan's JSON Lines and table, plan's
  JSON Lines, table, C table and picture; the summary still counts all.
Exits 1 on any failure.
"""
import glob
import json
import os
import random
import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET

failures = []
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def fail(what):
    failures.append(what)
    print("FAIL", what, file=sys.stderr)


def rows_of(text):
    """The table rows of a text output: from each header (NAME or OFFSET)
    to the blank line after it."""
    rows, inside = [], False
    for line in text.splitlines():
        if re.match(r"^\s*(NAME|OFFSET)\b", line):
            inside = True
        elif inside and not line.strip():
            inside = False
        if inside:
            rows.append(line)
    return rows


def check_width(where, text):
    rows = rows_of(text)
    for row in rows:
        if len(row) > 100:
            fail(f"{where}: a row of {len(row)} columns: {row!r}")
    return len(rows)


def run(binary, args, stdin=None):
    return subprocess.run([binary] + args, input=stdin, capture_output=True, cwd=ROOT)


def doc_examples(binary):
    n = 0
    for path in [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md"))):
        for line in open(path, encoding="utf-8"):
            m = re.match(r"^\$ dmltensor ((scan|plan) .*--format text[^|]*)", line)
            if not m or "$M" in line:
                continue
            args = shlex.split(m.group(1).split(" 2>")[0])
            n += check_width(f"{os.path.basename(path)}: {m.group(1)}",
                             run(binary, args).stdout.decode())
    return n


def long_names(binary):
    rng = random.Random(28)
    recs = []
    for i in range(40):
        n = rng.choice([5, 40, 90, 150, 200])
        name = "encoder.layers." + str(i) + "." + "x" * max(0, n - 40) + ".self_attention.out_" + str(i)
        recs.append({"name": name, "op": rng.choice(["MatMul", "LayerNormalization", None]),
                     "first": i, "last": i + rng.randrange(4),
                     "size_in_bytes": rng.randrange(1, 1 << 40)})
    text = "".join(json.dumps(r) + "\n" for r in recs).encode()
    out = run(binary, ["plan", "--format", "text"], text).stdout.decode()
    check_width("plan of long names", out)
    for rec, row in zip(recs, out.splitlines()[1:]):
        name = rec["name"]
        if name not in row and not (name[:10] in row and name[-10:] in row and "..." in row):
            fail(f"plan text: {name[:30]}...: neither whole nor head and tail in {row!r}")


def largest(recs, n):
    order = sorted(range(len(recs)), key=lambda i: (-recs[i]["size_in_bytes"], i))
    return [recs[i]["name"] for i in order[:n]]


def top(binary):
    rng = random.Random(6)
    recs = [{"name": f"t{i}", "op": "Conv", "first": i % 9, "last": i % 9 + rng.randrange(3),
             "size_in_bytes": rng.choice([256, 512, 1024, 4096, 65536])} for i in range(30)]
    text = "".join(json.dumps(r) + "\n" for r in recs).encode()
    for n in (1, 5, 30, 100):
        want = largest(recs, n)
        out = run(binary, ["plan", "--top", str(n)], text).stdout.decode().splitlines()
        got = [json.loads(line)["name"] for line in out[:-1]]
        if got != want:
            fail(f"plan --top {n}: {got}, want {want}")
        if json.loads(out[-1])["summary"]["tensors"] != len(recs):
            fail(f"plan --top {n}: the summary does not count every tensor")
        rows = run(binary, ["plan", "--top", str(n), "--format", "text"], text).stdout.decode()
        names = [r.split()[4] for r in rows_of(rows)[1:]]
        if names != want:
            fail(f"plan --top {n} --format text: {names}, want {want}")
        c = run(binary, ["plan", "--top", str(n), "--format", "c"], text).stdout.decode()
        cnames = re.findall(r'^\s+\{"([^"]*)"', c, re.M)
        if cnames != want:
            fail(f"plan --top {n} --format c: {cnames}, want {want}")
        svg = run(binary, ["plan", "--top", str(n), "--format", "svg"], text).stdout
        ns = "{http://www.w3.org/2000/svg}"
        titles = [r.find(ns + "title").text.split(" (")[0] for r in ET.fromstring(svg).iter(ns + "rect")
                  if r.find(ns + "title") is not None]
        if titles != want:
            fail(f"plan --top {n} --format svg: {titles}, want {want}")
    model = os.path.join(HERE, "data", "onnx", "convnet.onnx")
    full = [json.loads(line) for line in run(binary, ["scan", model, "--dim", "N=8"]).stdout.decode().splitlines()]
    recs = [r for r in full if "summary" not in r]
    sized = sorted(range(len(recs)), key=lambda i: (-(recs[i].get("total_tensor_size_bytes") or -1), i))
    for n in (1, 3, 13):
        got = [json.loads(line) for line in run(binary, ["scan", model, "--dim", "N=8", "--top", str(n)]).stdout.decode().splitlines()]
        if [g["path"] for g in got[:-1]] != [recs[i]["path"] for i in sized[:n]]:
            fail(f"scan --top {n}: {[g['path'] for g in got[:-1]]}")
        if got[-1] != full[-1]:
            fail(f"scan --top {n}: the summary differs from the whole scan's")
        rows = rows_of(run(binary, ["scan", model, "--dim", "N=8", "--top", str(n), "--format", "text"]).stdout.decode())
        if [r.split()[0] for r in rows[1:]] != [recs[i]["name"] for i in sized[:n]]:
            fail(f"scan --top {n} --format text: {[r.split()[0] for r in rows[1:]]}")


def main():
    binary = os.path.abspath(sys.argv[1])
    n = doc_examples(binary)
    for model in sorted(glob.glob(os.path.join(HERE, "data", "onnx", "*.onnx"))):
        for dims in ([], ["--dim", "N=8", "--dim", "B=8", "--dim", "T=128"]):
            n += check_width(os.path.basename(model),
                             run(binary, ["scan", model, "--format", "text"] + dims).stdout.decode())
            n += check_width(os.path.basename(model), run(
                binary, ["plan", model, "--format", "text", "--skip-unknown"] + dims).stdout.decode())
    long_names(binary)
    try:
        top(binary)
    except (ValueError, KeyError, IndexError, ET.ParseError) as e:
        fail(f"--top: unreadable output ({e!r})")
    if not failures:
        print(f"check_plan_tables: {n} rows within 100 columns; --top in every format")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
