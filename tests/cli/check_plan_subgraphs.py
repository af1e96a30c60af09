#!/usr/bin/env python3
"""check_plan_subgraphs.py DMLTENSOR - `plan MODEL.onnx` on models whose work
is inside If branches and Loop bodies (SPEC section 11, "Subgraphs in plan"),
checked independently of the program:

- every graph (the main one, each If branch and Loop body, nested) is an
  arena of its own: its records carry `graph` (the subgraph's path as scan
  writes it; "" for the main graph), their steps are that graph's nodes,
  their lifetimes are recomputed here from onnx.load by section 10's rule
  applied to that graph, and their sizes are scan's activation records of
  the same paths;
- in each arena no two tensors alive at one step share a byte; the summary's
  `subgraphs` list each with its tensors, arena (max offset + size) and
  lower bound (the most bytes alive at one step);
- `total_arena_bytes` is the main arena plus, recursively, the most one
  child graph needs (If branches never run together; a body's arena serves
  every iteration), computed here from the records.
Before SPEC section 11 a model whose work is inside an If planned only the
main graph: a 4-byte arena. Exits 1 on any failure.
`check_plan_subgraphs.py --write PATH` writes the If model (the golden
cases' tests/cli/data/onnx/branches.onnx).
"""
import json
import os
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto, helper

failures = []


def fail(what):
    failures.append(what)
    print("FAIL", what, file=sys.stderr)


def branch(name, ops, x="X", n=64):
    """A graph of a chain of unary/binary ops over the outer X, output Y."""
    nodes, prev = [], x
    for k, op in enumerate(ops):
        out = f"{name}_{k}"
        if op == "MatMul":
            nodes.append(helper.make_node("MatMul", [prev, "W"], [out]))
        elif op == "Add":
            nodes.append(helper.make_node("Add", [prev, x], [out]))
        else:
            nodes.append(helper.make_node(op, [prev], [out]))
        prev = out
    nodes.append(helper.make_node("Identity", [prev], [f"{name}_y"]))
    return helper.make_graph(nodes, name, [], [helper.make_tensor_value_info(
        f"{name}_y", TensorProto.FLOAT, ["N", n])])


def if_model():
    """Main: Cast -> If(cond) whose branches hold the work; then_branch
    holds a nested If; the main graph's own work is one Relu."""
    inner = helper.make_node("If", ["c"], ["inner_y"],
                             then_branch=branch("inner_then", ["Relu", "Sigmoid", "Add"]),
                             else_branch=branch("inner_else", ["Tanh"]))
    then_g = branch("then", ["MatMul", "Relu", "MatMul", "Add", "Softmax"])
    then_g.node.insert(len(then_g.node) - 1, inner)
    then_g.node[-1].input[0] = "inner_y"
    else_g = branch("else", ["Sigmoid", "MatMul"])
    nodes = [helper.make_node("Relu", ["X0"], ["X"]),
             helper.make_node("If", ["c"], ["Z"], then_branch=then_g, else_branch=else_g),
             helper.make_node("Neg", ["Z"], ["out"])]
    g = helper.make_graph(nodes, "main",
                          [helper.make_tensor_value_info("X0", TensorProto.FLOAT, ["N", 64]),
                           helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["N", 64])],
                          [helper.make_tensor("W", TensorProto.FLOAT, [64, 64], [0.0] * 4096)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def loop_model():
    """Main: a Loop whose body does the work on a loop-carried value."""
    body = helper.make_graph(
        [helper.make_node("MatMul", ["v_in", "W"], ["m"]),
         helper.make_node("Relu", ["m"], ["r"]),
         helper.make_node("Add", ["r", "v_in"], ["a"]),
         helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Identity", ["a"], ["v_out"])],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", TensorProto.FLOAT, ["N", 64])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, ["N", 64])])
    nodes = [helper.make_node("Relu", ["X0"], ["X"]),
             helper.make_node("Loop", ["trip", "c", "X"], ["V"], body=body),
             helper.make_node("Neg", ["V"], ["out"])]
    g = helper.make_graph(nodes, "main",
                          [helper.make_tensor_value_info("X0", TensorProto.FLOAT, ["N", 64]),
                           helper.make_tensor_value_info("trip", TensorProto.INT64, []),
                           helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
                          [helper.make_tensor_value_info("out", TensorProto.FLOAT, ["N", 64])],
                          [helper.make_tensor("W", TensorProto.FLOAT, [64, 64], [0.0] * 4096)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def graphs_of(g, path):
    """(path, graph) of g and every subgraph below it, pre-order, with the
    path scan gives a subgraph: graph.node[K] (Op).attr."""
    yield path, g
    for k, n in enumerate(g.node):
        for a in n.attribute:
            if a.HasField("g"):
                yield from graphs_of(a.g, f"{path or 'graph'}.node[{k}] ({n.op_type}).{a.name}")


def defines(g):
    d = {i.name for i in g.input} | {t.name for t in g.initializer}
    return d | {o for m in g.node for o in m.output}


def reads_of(g):
    names = {i for n in g.node for i in n.input if i} | {o.name for o in g.output}
    for n in g.node:
        for a in n.attribute:
            if a.HasField("g"):
                names |= reads_of(a.g) - defines(a.g)
    return names


def lifetimes(g):
    """Section 10's rule on graph g: node outputs that are no graph output
    and no Constant's, from the producer's step to the last reader's."""
    outputs = {o.name for o in g.output}
    last = {}
    for step, n in enumerate(g.node):
        reads = {i for i in n.input if i}
        for a in n.attribute:
            if a.HasField("g"):
                reads |= reads_of(a.g) - defines(a.g)
        for r in reads:
            last[r] = step
    out = {}
    for step, n in enumerate(g.node):
        for o in n.output:
            if o and o not in outputs and n.op_type != "Constant":
                out[o] = (step, max(step, last.get(o, step)))
    return out


def check(binary, model, tmp, label):
    path = os.path.join(tmp, label + ".onnx")
    onnx.save(model, path)
    dims = ["--dim", "N=8"]
    plan = subprocess.run([binary, "plan", path] + dims, capture_output=True, text=True)
    scan = subprocess.run([binary, "scan", path] + dims, capture_output=True, text=True)
    if plan.returncode != 0:
        fail(f"{label}: plan exit {plan.returncode}: {plan.stderr[-400:]}")
        return
    recs = [json.loads(line) for line in plan.stdout.splitlines()]
    summary = recs.pop()["summary"]
    sizes = {r["path"]: r.get("total_tensor_size_bytes") for r in
             map(json.loads, scan.stdout.splitlines()) if r.get("kind") == "activation"}
    graphs = list(graphs_of(model.graph, ""))
    need = {}
    arenas = {}
    for gpath, g in graphs:
        want = lifetimes(g)
        mine = [r for r in recs if r.get("graph") == gpath]
        if {r["name"] for r in mine} != set(want):
            fail(f"{label} {gpath!r}: tensors {sorted(r['name'] for r in mine)}, "
                 f"the graph has {sorted(want)}")
        steps = {}
        for r in mine:
            if r["name"] in want and (r["first"], r["last"]) != want[r["name"]]:
                fail(f"{label} {r['name']}: lives {r['first']}..{r['last']}, "
                     f"the graph says {want[r['name']]}")
            if sizes.get(r["path"]) != r["size_in_bytes"]:
                fail(f"{label} {r['path']}: size {r['size_in_bytes']}, scan {sizes.get(r['path'])}")
            if not r["path"].startswith((gpath or "graph") + ".node["):
                fail(f"{label} {r['path']}: not in graph {gpath!r}")
            for s in range(r["first"], r["last"] + 1):
                steps.setdefault(s, []).append(r)
        lb = 0
        for s, live in steps.items():
            live.sort(key=lambda r: r["offset"])
            lb = max(lb, sum(r["size_in_bytes"] for r in live))
            for a, b in zip(live, live[1:]):
                if a["offset"] + a["size_in_bytes"] > b["offset"]:
                    fail(f"{label} {gpath!r} step {s}: {a['name']} and {b['name']} share bytes")
        arena = max((r["offset"] + r["size_in_bytes"] for r in mine), default=0)
        arenas[gpath] = (len(mine), arena, lb)
    for gpath, _ in reversed(graphs):
        kids = [need[p] for p, _ in graphs if p != gpath and p.startswith((gpath or "graph") + ".node[")
                and p.count(".node[") == (gpath.count(".node[") + 1)]
        need[gpath] = arenas[gpath][1] + max(kids, default=0)
    if summary.get("arena_bytes") != arenas[""][1]:
        fail(f"{label}: arena_bytes {summary.get('arena_bytes')}, main records {arenas[''][1]}")
    want_subs = [{"path": p, "tensors": arenas[p][0], "arena_bytes": arenas[p][1],
                  "lower_bound_bytes": arenas[p][2]} for p, _ in graphs[1:]]
    if summary.get("subgraphs") != want_subs or summary.get("subgraphs_more") != 0:
        fail(f"{label}: subgraphs {summary.get('subgraphs')}, want {want_subs}")
    if summary.get("total_arena_bytes") != need[""]:
        fail(f"{label}: total_arena_bytes {summary.get('total_arena_bytes')}, want {need['']}")
    if need[""] <= 1024:
        fail(f"{label}: total arena {need['']}: the subgraphs' work is not planned")
    # its own records (less the summary) planned again: the same arenas
    again = subprocess.run([binary, "plan"], input="".join(
        line + "\n" for line in plan.stdout.splitlines()[:-1]), capture_output=True, text=True)
    lines = again.stdout.splitlines()
    if again.returncode != 0 or lines[:-1] != plan.stdout.splitlines()[:-1]:
        fail(f"{label}: its own records planned again differ: {again.stderr[-300:]}")
    else:
        resum = json.loads(lines[-1])["summary"]
        for key in ("steps", "arena_bytes", "total_arena_bytes", "subgraphs"):
            if resum[key] != summary[key]:
                fail(f"{label}: planned again, {key} {resum[key]}, first {summary[key]}")
    if not failures:
        print(f"{label}: {len(recs)} tensors in {len(graphs)} arenas agree "
              f"(total arena {need['']})")


def main():
    if sys.argv[1:2] == ["--write"]:  # the golden cases' model: data/onnx/branches.onnx
        onnx.save(if_model(), sys.argv[2])
        return 0
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        check(binary, if_model(), tmp, "if")
        check(binary, loop_model(), tmp, "loop")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
