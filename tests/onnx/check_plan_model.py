#!/usr/bin/env python3
"""check_plan_model.py DMLTENSOR MODEL [--dim NAME=VALUE]... - `plan MODEL.onnx`
checked independently of the program:

- the tensors are the main graph's activations (node outputs that are no
  graph output and no Constant's) less the folded ones (SPEC section 11,
  recomputed here: a deterministic default-domain node without subgraphs
  whose inputs are initializers, Constants' values or folded; Shape and Size
  of a value scan gives every dim of), which summary.skipped.folded counts
  and scan's records call kind "folded"; their lifetimes recomputed here
  from onnx.load by SPEC section 10's rule, a step being a node's place in
  the order a runtime sorts the nodes in (section 11: the file's where it is
  topological, else the lowest file index among the ready ones) (a read
  inside a node's subgraph, at any depth, is that node's; a value never read
  lives at its producer's step); weight_bytes is scan's;
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


def node_reads(n):
    reads = {i for i in n.input if i}
    for a in n.attribute:
        subs = ([a.g] if a.HasField("g") else []) + list(a.graphs)
        for sub in subs:
            defined = {i.name for i in sub.input} | {t.name for t in sub.initializer}
            defined |= {o for m in sub.node for o in m.output}
            reads |= reads_of(sub) - defined
    return reads


def run_order(g):
    """The nodes in the order a runtime runs them: at each step the lowest
    file index whose every read made here exists."""
    made = {}
    for k, n in enumerate(g.node):
        for o in n.output:
            made.setdefault(o, k)
    needs = [{made[r] for r in node_reads(n) if r in made} - {k} for k, n in enumerate(g.node)]
    done, order = set(), []
    while len(order) < len(g.node):
        k = next(k for k in range(len(g.node)) if k not in done and needs[k] <= done)
        done.add(k)
        order.append(k)
    return order


RANDOM = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
          "Multinomial", "Bernoulli"}


def folded_values(g, order, known):
    """SPEC section 11's folded values of the main graph; known: the names
    whose every dim scan gives."""
    inputs = {i.name for i in g.input}
    folded = {t.name for t in g.initializer if t.name not in inputs}
    for k in order:
        n = g.node[k]
        if n.domain not in ("", "ai.onnx") or n.op_type in RANDOM or \
                any(a.HasField("g") or len(a.graphs) for a in n.attribute):
            continue
        if (n.op_type in ("Shape", "Size") and n.input[0] in known) or \
                all(i in folded for i in n.input if i):
            folded.update(o for o in n.output if o)
    return folded


def lifetimes(model, known):
    g = model.graph
    outputs = {o.name for o in g.output}
    order = run_order(g)
    folded = folded_values(g, order, known)
    last = {}
    for step, k in enumerate(order):
        for r in node_reads(g.node[k]):
            last[r] = step
    out, skipped = {}, set()
    for step, k in enumerate(order):
        n = g.node[k]
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx"):
            continue
        for o in n.output:
            if o and o not in outputs:
                if o in folded:
                    skipped.add(o)
                else:
                    out[o] = (step, max(step, last.get(o, step)))
    return out, skipped


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
    scanned = [json.loads(line) for line in scan.stdout.splitlines()]
    scan_summary = scanned.pop()["summary"]
    sizes = {r["name"]: int(r["total_tensor_size_bytes"]) for r in scanned
             if r.get("kind") == "activation" and "total_tensor_size_bytes" in r}
    main_graph = [r for r in scanned if r["path"].startswith("graph.") and
                  r["path"].count(".node[") <= 1 and r["path"].count("(") <= 1]
    known = {r["name"] for r in main_graph if isinstance(r.get("shape"), list) and
             (all(isinstance(d, int) for d in r["shape"]) or
              len(r.get("sizes") or []) == len(r["shape"]))}
    want, skipped = lifetimes(onnx.load(model_path, load_external_data=False), known)
    bad = []
    if {r["name"] for r in recs} != set(want):
        bad.append(f"tensors {len(recs)}, the graph has {len(want)} activations")
    if summary.get("skipped", {}).get("folded") != len(skipped):
        bad.append(f"skipped {summary.get('skipped')}, the graph has {len(skipped)} folded")
    scan_folded = {r["name"] for r in main_graph if r.get("kind") == "folded"}
    if scan_folded != skipped:
        bad.append(f"scan's folded records differ: {sorted(scan_folded ^ skipped)[:5]}")
    if summary["weight_bytes"] != scan_summary["weight_bytes"]:
        bad.append(f"weight_bytes {summary['weight_bytes']}, scan says "
                   f"{scan_summary['weight_bytes']}")
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
