#!/usr/bin/env python3
"""check_plan_model.py DMLTENSOR MODEL [--dim NAME=VALUE]... - `plan MODEL.onnx`
checked independently of the program:

- the tensors are the main graph's activations (node outputs that are no
  graph output and no Constant's), with their lifetimes recomputed here from
  onnx.load by SPEC section 10's rule (a read inside a node's subgraph, at any
  depth, is that node's; a value never read lives at its producer's step);
- each tensor's size_in_bytes is its activation record's
  total_tensor_size_bytes in `dmltensor scan` at the same --dim values;
- no two tensors alive at one step share a byte, every offset is a multiple
  of the alignment, arena_bytes is max(offset + size) and lower_bound_bytes
  is the most bytes alive at one step.

Prints one line per failure and "N tensors agree"; exits 1 on any failure.
Needs Debian's python3-onnx (run with /usr/bin/python3).
"""
import json
import subprocess
import sys

import onnx


def reads_of(graph):
    """Every name a graph reads, its subgraphs' reads included (less what
    they define themselves)."""
    names = set()
    for n in graph.node:
        names.update(i for i in n.input if i)
        for a in n.attribute:
            subs = ([a.g] if a.HasField("g") else []) + list(a.graphs)
            for g in subs:
                defined = {i.name for i in g.input} | {t.name for t in g.initializer}
                defined |= {o for m in g.node for o in m.output}
                names |= reads_of(g) - defined
    return names


def lifetimes(model):
    g = model.graph
    outputs = {o.name for o in g.output}
    last = {}
    for step, n in enumerate(g.node):
        reads = {i for i in n.input if i}
        for a in n.attribute:
            subs = ([a.g] if a.HasField("g") else []) + list(a.graphs)
            for sub in subs:
                defined = {i.name for i in sub.input} | {t.name for t in sub.initializer}
                defined |= {o for m in sub.node for o in m.output}
                reads |= reads_of(sub) - defined
        for r in reads:
            last[r] = step
    out = {}
    for step, n in enumerate(g.node):
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            continue
        for o in n.output:
            if o and o not in outputs:
                out[o] = (step, max(step, last.get(o, step)))
    return out


def main():
    binary, model_path, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    import os
    if not os.path.exists(model_path):  # an export onnx/infer_torch makes
        print(f"skipped: no {model_path}")
        return 77
    plan = subprocess.run([binary, "plan", model_path] + rest, capture_output=True, text=True)
    scan = subprocess.run([binary, "scan", model_path] + rest, capture_output=True, text=True)
    if plan.returncode != 0 or scan.returncode not in (0, 1):
        print(f"FAIL plan exit {plan.returncode}, scan exit {scan.returncode}: "
              f"{plan.stderr[-500:]}{scan.stderr[-500:]}")
        return 1
    recs = [json.loads(line) for line in plan.stdout.splitlines()]
    summary = recs.pop()["summary"]
    recs = [r for r in recs if r.get("graph", "") == ""]  # the main arena (subgraphs: cli/plan_subgraphs)
    sizes = {r["name"]: int(r["total_tensor_size_bytes"]) for r in
             map(json.loads, scan.stdout.splitlines())
             if r.get("kind") == "activation" and "total_tensor_size_bytes" in r}
    want = lifetimes(onnx.load(model_path, load_external_data=False))
    bad = []
    if {r["name"] for r in recs} != set(want):
        bad.append(f"tensors {len(recs)}, the graph has {len(want)} activations")
    align = summary["alignment"]
    steps = {}
    for r in recs:
        name = r["name"]
        if name in want and (r["first"], r["last"]) != want[name]:
            bad.append(f"{name}: lives {r['first']}..{r['last']}, the graph says {want[name]}")
        if sizes.get(name) != r["size_in_bytes"]:
            bad.append(f"{name}: size {r['size_in_bytes']}, scan says {sizes.get(name)}")
        if r["offset"] % align:
            bad.append(f"{name}: offset {r['offset']} is no multiple of {align}")
        for s in range(r["first"], r["last"] + 1):
            steps.setdefault(s, []).append(r)
    peak = 0
    for s, live in steps.items():
        live = sorted(live, key=lambda r: r["offset"])
        peak = max(peak, sum(r["size_in_bytes"] for r in live))
        for a, b in zip(live, live[1:]):
            if a["offset"] + a["size_in_bytes"] > b["offset"]:
                bad.append(f"step {s}: {a['name']} and {b['name']} share bytes")
    arena = max((r["offset"] + r["size_in_bytes"] for r in recs), default=0)
    if summary["arena_bytes"] != arena:
        bad.append(f"arena_bytes {summary['arena_bytes']}, the records say {arena}")
    if summary["lower_bound_bytes"] != peak:
        bad.append(f"lower_bound_bytes {summary['lower_bound_bytes']}, the steps say {peak}")
    for b in bad[:20]:
        print("FAIL", model_path, b)
    if not bad:
        print(f"{len(recs)} tensors agree: {model_path} {' '.join(rest)} "
              f"(arena {arena}, lower bound {peak})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
