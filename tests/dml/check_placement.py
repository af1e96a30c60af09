#!/usr/bin/env python3
"""scan, plan and nodes give one answer to "where does this value live"
(SPEC section 12; docs/onnx.md "Where each value lives", docs/plan.md
"--device dml").

For each model, unbound and with its symbols bound:

- scan: every record of the model carries `placement`; a graph input's is
  "input", an initializer's "initializer"; any other record's is the
  placement `nodes` gives the node that makes the value, found here
  independently from onnx.load (the value's graph, then the enclosing
  graphs: a node output, else an initializer, else a graph input), or null
  when nothing makes it. With --no-infer every value a node makes is null
  (inputs and initializers keep theirs).
- plan --device dml --skip-unknown: its tensors are exactly the tensors of
  plan --skip-unknown (every activation) whose producer nodes places `dml`
  or `dml_kernel`, Shape's and Size's excepted (CPU memory); what it leaves
  out adds up (tensors + skipped cpu, fails, placement_unknown, unknown ==
  every activation's tensors + skipped unknown); skipped.cpu,
  skipped.fails and skipped.placement_unknown equal the counts of the
  activations whose producer is on the CPU, fails or is unknown, among
  those of known size; `copies` is nodes' summary's; `complete` is false
  exactly when a fails, unknown placement or unknown size was left out.

Usage: check_placement.py DMLTENSOR MODEL.onnx... (a missing model is
skipped with a note; none found: exit 77).
"""
import json
import os
import re
import subprocess
import sys

import onnx

BINDINGS = ["--dim", "N=2", "--dim", "B=2", "--dim", "T=3", "--dim", "batch=2", "--dim",
            "seq=16", "--dim", "height=14", "--dim", "width=14"]
DML = {"dml", "dml_kernel"}
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def run(exe, args):
    p = subprocess.run(exe + args, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(args)}: exit {p.returncode}: {p.stderr[-400:]}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.strip()]


def graphs(model):
    """Every graph by the path scan and nodes give it: {path: (graph, parent path)}."""
    out = {}

    def walk(g, path, parent):
        out[path] = (g, parent)
        for k, n in enumerate(g.node):
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    walk(a.g, f"{path}.node[{k}] ({n.op_type}).{a.name}", path)
                elif a.type == onnx.AttributeProto.GRAPHS and len(a.graphs):
                    raise RuntimeError(f"{path}.node[{k}]: a graphs list (not handled here)")

    walk(model.graph, "graph", None)
    return out


def expected_placement(gs, placements, gpath, name):
    """The placement of the value `name` as graph gpath sees it."""
    while gpath is not None:
        g, parent = gs[gpath]
        for k, n in enumerate(g.node):
            if name in n.output:
                return placements.get(f"{gpath}.node[{k}]", "missing")
        if any(t.name == name for t in g.initializer) or any(
                t.values.name == name for t in g.sparse_initializer):
            return "initializer"
        if any(v.name == name for v in g.input):
            return "input"
        gpath = parent
    return None


DECLARED = re.compile(r"^(.*)\.(input|output|initializer|sparse_initializer|value_info)\[\d+\]$")
NODE_VALUE = re.compile(r"^(.*)\.node\[(\d+)\] \((.*)\)\.(output\[\d+\]|value\w*)$")


def graph_of(path):
    m = NODE_VALUE.match(path) or DECLARED.match(path)
    return m.group(1) if m else None


def producer(path):
    m = NODE_VALUE.match(path)
    return f"{m.group(1)}.node[{m.group(2)}]" if m else None


def check_scan(exe, model_path, gs, placements, extra, tag):
    records = [r for r in run(exe, ["scan", model_path] + extra) if "path" in r]
    n = 0
    for r in records:
        where = f"{tag}: scan {r['path']}"
        if "placement" not in r:
            fail(f"{where}: no placement")
            continue
        got = r["placement"]
        if r["kind"] in ("input",):
            want = "input"
        elif r["kind"] in ("initializer", "sparse_initializer"):
            want = "initializer"
        elif r["name"] is None:
            want = None
        else:
            gpath = graph_of(r["path"])
            if gpath not in gs:
                fail(f"{where}: no graph {gpath!r} in the model")
                continue
            want = expected_placement(gs, placements, gpath, r["name"])
        if r["kind"] in ("activation", "folded"):  # nodes' record of its own node, directly
            want_node = placements.get(producer(r["path"]), "missing")
            if want_node != want:
                fail(f"{where}: the producer by name is {want}, by path {want_node}")
            if (r["kind"] == "folded") != (got == "folded"):
                fail(f"{where}: kind {r['kind']} with placement {got}")
        if got != want:
            fail(f"{where}: placement {got!r}, nodes says {want!r}")
        n += 1
    return n


def check_no_infer(exe, model_path, tag):
    for r in run(exe, ["scan", model_path, "--no-infer"]):
        if "path" not in r:
            continue
        want = ("input" if r["kind"] == "input" else
                "initializer" if r["kind"] in ("initializer", "sparse_initializer") else None)
        if r.get("placement", "absent") != want:
            fail(f"{tag}: scan --no-infer {r['path']}: placement {r.get('placement', 'absent')!r}, "
                 f"want {want!r}")


def check_plan(exe, model_path, placements, ops, summary_nodes, extra, tag):
    every = run(exe, ["plan", model_path, "--skip-unknown"] + extra)
    dml = run(exe, ["plan", model_path, "--skip-unknown", "--device", "dml"] + extra)
    s_all, s_dml = every[-1]["summary"], dml[-1]["summary"]
    t_all = [t for t in every if "summary" not in t]
    t_dml = [t for t in dml if "summary" not in t]
    want = set()
    counts = {"cpu": 0, "fails": 0, "placement_unknown": 0}
    for t in t_all:
        node = producer(t["path"]) if t["path"] else None
        if node is None:  # a graph input (--io only)
            want.add((t["graph"], t["name"]))
            continue
        place = placements.get(node, "missing")
        if place in DML and ops.get(node) not in ("Shape", "Size"):
            want.add((t["graph"], t["name"]))
        elif place in DML or place == "cpu":
            counts["cpu"] += 1
        elif place == "fails":
            counts["fails"] += 1
        elif place == "unknown":
            counts["placement_unknown"] += 1
        else:
            fail(f"{tag}: plan {t['path']}: its node is {place} in nodes")
    got = {(t["graph"], t["name"]) for t in t_dml}
    for g, name in sorted(want - got):
        fail(f"{tag}: plan --device dml leaves out {name!r} (graph {g!r}), in DirectML memory")
    for g, name in sorted(got - want):
        fail(f"{tag}: plan --device dml plans {name!r} (graph {g!r}), not in DirectML memory")
    sk = s_dml["skipped"]
    for key, n in counts.items():
        if sk[key] < n:
            fail(f"{tag}: skipped.{key} {sk[key]}, at least {n} activations of known size")
    left = sk["cpu"] + sk["fails"] + sk["placement_unknown"] + sk["unknown"]
    if s_dml["tensors"] + left != s_all["tensors"] + s_all["skipped"]["unknown"]:
        fail(f"{tag}: {s_dml['tensors']} planned + {left} left out != "
             f"{s_all['tensors']} + {s_all['skipped']['unknown']} activations")
    if s_dml["skipped"]["folded"] != s_all["skipped"]["folded"]:
        fail(f"{tag}: folded {s_dml['skipped']['folded']} != {s_all['skipped']['folded']}")
    if s_dml["device"] != "dml" or s_all["device"] is not None or s_all["copies"] is not None:
        fail(f"{tag}: device {s_dml['device']!r} / {s_all['device']!r}")
    if s_dml["copies"] != summary_nodes["copies"]:
        fail(f"{tag}: copies {s_dml['copies']}, nodes says {summary_nodes['copies']}")
    incomplete = bool(sk["fails"] or sk["placement_unknown"] or sk["unknown"])
    if s_dml["complete"] == incomplete:
        fail(f"{tag}: complete {s_dml['complete']} with skipped {sk}")
    return len(t_dml), len(t_all)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    exe = [sys.argv[1]]
    models = [m for m in sys.argv[2:] if os.path.exists(m)]
    for m in sys.argv[2:]:
        if not os.path.exists(m):
            print(f"note: no {m}: skipped")
    if not models:
        print("no model found")
        sys.exit(77)
    records = planned = every = 0
    for model_path in models:
        model = onnx.load(model_path, load_external_data=False)
        gs = graphs(model)
        for extra in ([], BINDINGS):
            tag = f"{os.path.basename(model_path)}{' bound' if extra else ''}"
            nodes = run(exe, ["nodes", model_path] + extra)
            placements = {r["path"]: r["placement"] for r in nodes if "path" in r}
            ops = {r["path"]: r["op"] for r in nodes if "path" in r}
            records += check_scan(exe, model_path, gs, placements, extra, tag)
            cyc = subprocess.run(exe + ["plan", model_path] + extra, capture_output=True, text=True)
            if "graph_cycle" in cyc.stdout + cyc.stderr:
                continue  # plan refuses a cycle (SPEC section 11)
            a, b = check_plan(exe, model_path, placements, ops, nodes[-1]["summary"], extra, tag)
            planned += a
            every += b
        check_no_infer(exe, model_path, os.path.basename(model_path))
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    print(f"{len(models)} models: {records} scan records' placement agree with nodes; "
          f"plan --device dml planned {planned} of {every} activations, exactly the DirectML ones")


if __name__ == "__main__":
    main()
