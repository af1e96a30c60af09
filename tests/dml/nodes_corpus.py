#!/usr/bin/env python3
"""nodes_corpus.py DMLTENSOR [--dim NAME=VALUE]... MODEL_OR_DIR... - `nodes`
over many models: every .onnx file named or found below a directory.
Reports each crash (a signal, exit status 3 or more) and each model refused
(exit status 2, with its message), then the placements summed over the
models and the unknowns grouped by the reasons that leave them unknown
(those whose message says something is not known or not modelled; else the
first) with their id totals, then by operator, ids and the first words of
the last such message (what decides them), so docs/nodes.md's figures can be made again.
Exit 1 when a run crashed."""
import collections
import json
import os
import subprocess
import sys


def files_of(args):
    for a in args:
        if os.path.isdir(a):
            for root, _d, fs in sorted(os.walk(a)):
                for f in sorted(fs):
                    if f.endswith(".onnx"):
                        yield os.path.join(root, f)
        else:
            yield a


def deciding(reasons):
    """What leaves a node unknown: the reasons that say a value is not known
    or that something is not modelled (else the first), as one id
    ("dynamic_shape+rank_too_large") and the last such message."""
    found = [r for r in reasons if any(w in r["message"] for w in
                                       ("not known", "not modelled", "unknown"))]
    found = found or reasons[:1] or [{"id": "?", "message": ""}]
    ids = "+".join(dict.fromkeys(r["id"] for r in found))
    return {"id": ids, "message": found[-1]["message"]}


def main():
    exe = sys.argv[1]
    dims, paths = [], []
    args = sys.argv[2:]
    while args:
        a = args.pop(0)
        if a == "--dim":
            dims += ["--dim", args.pop(0)]
        else:
            paths.append(a)
    total = collections.Counter()
    unknown = collections.Counter()
    by_id = collections.Counter()
    crashes = refused = models = 0
    for f in files_of(paths):
        models += 1
        p = subprocess.run([exe, "nodes", f, *dims], capture_output=True, text=True)
        if p.returncode < 0 or p.returncode >= 3:
            crashes += 1
            print(f"CRASH {p.returncode} {f}: {p.stderr.strip()[:200]}")
            continue
        if p.returncode == 2:
            refused += 1
            print(f"refused {f}: {p.stderr.strip().splitlines()[0] if p.stderr.strip() else ''}")
            continue
        for line in p.stdout.splitlines():
            r = json.loads(line)
            if "summary" in r:
                total.update(r["summary"]["placements"])
            elif r["placement"] == "unknown":
                why = deciding(r["reasons"])
                unknown[(r["op"], why["id"], why["message"][:70])] += 1
                by_id[why["id"]] += 1
    print(f"models: {models}, crashes: {crashes}, refused (exit 2): {refused}")
    print("placements:", json.dumps(dict(total)))
    print("unknown by reason:", json.dumps(dict(by_id.most_common())))
    for (op, rid, msg), n in unknown.most_common(25):
        print(f"  unknown {n:5d}  {op}  {rid}: {msg}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
