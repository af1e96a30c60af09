#!/usr/bin/env python3
"""check_plan_honest.py DMLTENSOR - SPEC section 11's "Honest totals" for scan
and plan, on models built here with onnx.helper:

- plan --skip-unknown counts every tensor it leaves out: summary `skipped`
  {"unknown": the activations scan records with an unknown size, "folded":
  ...}, `complete` false, and a note on stderr naming the count; `tensors`
  plus the skipped unknowns is every activation scan records;
- `first_unknown` {path, op, reason} names the first value of unknown size in
  execution order (the node with no shape function, here), the same in scan's
  and plan's summaries; a later activation's message names the input it
  waits on and that first unknown;
- scan's `unbound` lists only the symbols that still decide a size: a
  declared output's symbol that inference resolves to a number is not one;
- every summary of a multi-file scan carries its `file`.
Exits 1 on any failure.
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


def run(binary, *args):
    p = subprocess.run([binary] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def opaque_model():
    """X[N,16] -> Relu -> custom.Opaque (no shape function) -> Relu -> Add ->
    MatMul; output y declared [N, "resolved_dim"] (inference gives 16)."""
    nodes = [helper.make_node("Relu", ["x"], ["a"]),
             helper.make_node("Opaque", ["a"], ["b"], domain="custom"),
             helper.make_node("Relu", ["b"], ["c"]),
             helper.make_node("Add", ["c", "a"], ["d"]),
             helper.make_node("MatMul", ["d", "W"], ["e"]),
             helper.make_node("Relu", ["a"], ["f"]),
             helper.make_node("Add", ["f", "a"], ["y"])]
    g = helper.make_graph(nodes, "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                                         ["N", "resolved_dim"]),
                           helper.make_tensor_value_info("e", TensorProto.FLOAT, None)],
                          [helper.make_tensor("W", TensorProto.FLOAT, [16, 16], [0.0] * 256)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                               helper.make_opsetid("custom", 1)])


def lines(text):
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "opaque.onnx")
        onnx.save(opaque_model(), path)

        # scan: first_unknown, dependencies, unbound
        code, out, err = run(binary, "scan", path, "--dim", "N=2")
        recs = lines(out)
        summary = recs.pop()["summary"]
        acts = [r for r in recs if r.get("kind") == "activation"]
        unknown_acts = [r for r in acts if "error" in r]
        want_first = "graph.node[1] (custom.Opaque).output[0]"
        fu = summary.get("first_unknown")
        if not fu or fu.get("path") != "graph.node[1] (Opaque).output[0]" or fu.get("op") != "Opaque":
            fail(f"scan first_unknown {fu}, want the Opaque node ({want_first})")
        for r in unknown_acts:
            if r["name"] == "b":
                continue
            msg = r["error"]["message"]
            if "it reads" not in msg or "graph.node[1] (Opaque)" not in msg:
                fail(f"scan {r['path']}: message {msg!r} names neither its unknown input "
                     f"nor the first unknown")
        if "the first: graph.node[1] (Opaque)" not in err:
            fail(f"scan's note on stderr does not name the first unknown: {err!r}")
        code, out, err = run(binary, "scan", path)
        summary = lines(out)[-1]["summary"]
        if summary.get("unbound") != ["N"]:
            fail(f"scan unbound {summary.get('unbound')}: want ['N'] (resolved_dim is 16 "
                 f"by inference)")

        # plan --skip-unknown: every tensor left out counted, noted
        code, out, err = run(binary, "plan", path, "--dim", "N=2", "--skip-unknown")
        precs = lines(out)
        psum = precs.pop()["summary"]
        n_unknown = len(unknown_acts)
        sk = psum.get("skipped") or {}
        if sk.get("unknown") != n_unknown:
            fail(f"plan skipped {sk}, scan has {n_unknown} activations of unknown size")
        if psum.get("complete") is not False:
            fail(f"plan complete {psum.get('complete')} with {n_unknown} left out")
        # y is a graph output (not planned without --io), e is a declared output
        planned_names = {r["name"] for r in precs}
        want_planned = {r["name"] for r in acts if "error" not in r}
        if planned_names != want_planned:
            fail(f"plan planned {sorted(planned_names)}, scan's known activations "
                 f"{sorted(want_planned)}")
        if psum.get("first_unknown") != fu:
            fail(f"plan first_unknown {psum.get('first_unknown')}, scan's {fu}")
        if f"{n_unknown} tensors of unknown size left out" not in err:
            fail(f"plan --skip-unknown note on stderr: {err!r}")
        code, out, err = run(binary, "plan", path, "--dim", "N=2")
        if code != 2 or "Opaque" not in err:
            fail(f"plan without --skip-unknown: exit {code}, {err!r}")

        # multi-file scan: every summary carries its file
        code, out, err = run(binary, "scan", path, path, "--dim", "N=2")
        sums = [r for r in lines(out) if "summary" in r]
        if len(sums) != 2 or any(s["summary"].get("file") != path for s in sums):
            fail(f"multi-file scan summaries {[(s['summary'].get('file')) for s in sums]}")
    if not failures:
        print("honest totals: skipped, complete, first_unknown, dependencies, unbound, file agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
