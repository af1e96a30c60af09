#!/usr/bin/env python3
"""check_ort_oracle.py DMLTENSOR NODE_PATH MODEL... - scan against ONNX
Runtime itself (issue 30's oracle).

Each MODEL is copied with every node output of its main graph made a graph
output, and run with onnxruntime-node (CPU, tests/onnx/ort_run.js) at two
bindings of its symbols (BINDINGS below: batch 1 and 2, sizes that differ);
`dmltensor scan MODEL` at the same binding (--dim for named symbols,
--shape for an input with anonymous dims) must give every such value the
element type and shape ONNX Runtime computes: a record whose shape is all
numbers and differs is wrong; one with an unknown dim is unknown. The test
fails on any wrong record, on any value without a record, and on more
unknown records than UNKNOWN allows a model (values that depend on a
runtime input's data, which no inference can know). It prints, per model
and binding, records, wrong and unknown, and with --list each unknown
record with its reason.

NODE_PATH is a node_modules directory holding onnxruntime-node (ctest's
fixture onnx/ort_install puts it in the build tree, tests/onnx/ort/); when
it holds none (npm offline) the test skips (exit 77), saying so. A MODEL
that does not exist yet and is one of export_torch.py's is exported first
(python3-torch). Uses Debian's python3-onnx."""
import json
import os
import re
import subprocess
import sys
import tempfile

import onnx

ORT_TYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
             7: "int64", 9: "bool", 10: "float16", 11: "float64", 12: "uint32", 13: "uint64"}
ONNX_NAMES = {"float32": "FLOAT", "uint8": "UINT8", "int8": "INT8", "uint16": "UINT16",
              "int16": "INT16", "int32": "INT32", "int64": "INT64", "bool": "BOOL",
              "float16": "FLOAT16", "float64": "DOUBLE", "uint32": "UINT32",
              "uint64": "UINT64", "string": "STRING"}

# A symbol's value at each of the two bindings, by the first pattern its
# name matches.
BINDINGS = [
    (r"batch|DynamicDimension\.0$|^unk__", (1, 2)),
    (r"^seq$", (16, 7)),
    (r"^sequence$", (512, 1024)),
    (r"^samples$", (1280, 3200)),
    (r"^height$", (14, 9)),
    (r"^width$", (18, 21)),
    (r"DynamicDimension\.1$", (64, 96)),
    (r"DynamicDimension\.2$", (96, 160)),
]
# Inputs with anonymous dims: their whole shape at each binding.
SHAPES = {
    "silero_vad_v5": {"input": ([1, 512], [2, 512]), "state": ([2, 1, 128], [2, 2, 128])},
    "silero_vad_v6": {"input": ([1, 512], [2, 512]), "state": ([2, 1, 128], [2, 2, 128])},
}
# Integer inputs whose value matters (Silero's sample rate).
FILLS = {"sr": 16000}
# Unknown records a model may keep: values that depend on a runtime
# input's data. Any model not listed: none.
UNKNOWN = {"silero_vad_v5": 2, "silero_vad_v6": 2}


def symbol_value(name, b):
    for pattern, values in BINDINGS:
        if re.search(pattern, name):
            return values[b]
    return None


def model_key(path):
    return os.path.basename(path)[:-len(".onnx")]


def prepare(path, tmp):
    """The model with every main-graph node output a graph output; its
    inputs (name, elem_type, dims as given)."""
    m = onnx.load(path, load_external_data=False)
    g = m.graph
    have = {o.name for o in g.output}
    inits = {i.name for i in g.initializer}
    names = []
    for node in g.node:
        for o in node.output:
            if o and o not in have and o not in inits:
                have.add(o)
                names.append(o)
                g.output.append(onnx.ValueInfoProto(name=o))
    out = os.path.join(tmp, os.path.basename(path))
    onnx.save(m, out)
    inputs = []
    for i in g.input:
        if i.name in inits:
            continue
        t = i.type.tensor_type
        dims = [d.dim_param if d.dim_param else (d.dim_value if d.HasField("dim_value") else None)
                for d in t.shape.dim]
        inputs.append((i.name, t.elem_type, dims))
    return out, inputs, names


def binding(key, inputs, b):
    """ORT's inputs and scan's options at binding b, or None."""
    feeds, args, dims_seen = [], [], {}
    for name, elem, dims in inputs:
        given = SHAPES.get(key, {}).get(name)
        if given:
            shape = given[b]
            args += ["--shape", "%s=%s" % (name, ",".join(map(str, shape)))]
        else:
            shape = []
            for d in dims:
                if isinstance(d, str):
                    v = symbol_value(d, b)
                    if v is None:
                        return None
                    dims_seen[d] = v
                    shape.append(v)
                elif d is None:
                    return None
                else:
                    shape.append(d)
        feed = {"name": name, "type": ORT_TYPES[elem], "dims": shape}
        if name in FILLS:
            feed["fill"] = FILLS[name]
        elif elem not in (1, 10, 11):
            feed["fill"] = 0
        feeds.append(feed)
    for d, v in sorted(dims_seen.items()):
        args += ["--dim", "%s=%d" % (d, v)]
    return feeds, args


MAIN = re.compile(r"^graph\.(input|output|value_info|initializer)\[\d+\]$|"
                  r"^graph\.node\[\d+\] \([^)]*\)(\.output\[\d+\]|\.value\w*|\.attribute\[\d+\].*)?$")


def scan_records(exe, path, args):
    run = subprocess.run([exe, "scan", path, "--checks", "none"] + args, capture_output=True,
                         text=True)
    if run.returncode not in (0, 1):
        sys.exit("scan %s %s: exit %d\n%s" % (path, args, run.returncode, run.stderr))
    recs = {}
    for line in run.stdout.splitlines():
        r = json.loads(line)
        if "summary" in r or not MAIN.match(r.get("path", "")) or r.get("name") is None:
            continue
        recs.setdefault(r["name"], r)
    return recs


def compare(recs, outputs, names):
    wrong, unknown, missing = [], [], []
    for name in names:
        got = outputs.get(name)
        if got is None:
            continue
        r = recs.get(name)
        if r is None:
            missing.append(name)
            continue
        shape = r.get("shape")
        typ = r.get("onnx_type")
        if typ is not None and typ != ONNX_NAMES.get(got["type"]):
            wrong.append((name, "type %s, ORT %s" % (typ, got["type"])))
        elif shape is None or any(not isinstance(d, int) for d in shape):
            why = r.get("error", {}).get("message", "")
            unknown.append((name, r.get("op"), why))
        elif shape != got["dims"]:
            wrong.append((name, "shape %s, ORT %s" % (shape, got["dims"])))
    return wrong, unknown, missing


def main():
    argv = sys.argv[1:]
    listing = "--list" in argv
    argv = [a for a in argv if a != "--list"]
    exe, node_path, models = argv[0], argv[1], argv[2:]
    if not node_path or not os.path.isdir(os.path.join(node_path, "onnxruntime-node")):
        print("SKIP: onnxruntime-node is not installed (npm offline?): the ONNX Runtime "
              "oracle did not run")
        sys.exit(77)
    here = os.path.dirname(os.path.abspath(__file__))
    for path in models:
        if not os.path.exists(path):
            subprocess.run([sys.executable, os.path.join(here, "export_torch.py"),
                            os.path.dirname(path), model_key(path)], check=True,
                           capture_output=True)
    env = dict(os.environ, NODE_PATH=node_path)
    total = {"records": 0, "wrong": 0, "unknown": 0}
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        jobs, meta = [], []
        for path in models:
            key = model_key(path)
            copy, inputs, names = prepare(path, tmp)
            for b in (0, 1):
                got = binding(key, inputs, b)
                if got is None:
                    failed.append("%s: no binding for its inputs %s" % (key, inputs))
                    continue
                jobs.append({"model": copy, "inputs": got[0]})
                meta.append((path, key, b, got[1], names))
        with open(os.path.join(tmp, "jobs.json"), "w") as f:
            json.dump(jobs, f)
        run = subprocess.run(["node", os.path.join(here, "ort_run.js"),
                              os.path.join(tmp, "jobs.json")], capture_output=True, text=True,
                             env=env)
        if run.returncode:
            sys.exit("ort_run.js failed:\n" + run.stderr)
        for line in run.stdout.splitlines():
            res = json.loads(line)
            path, key, b, args, names = meta[res["job"]]
            if "error" in res:
                failed.append("%s at %s: ONNX Runtime: %s" % (key, args, res["error"][:300]))
                continue
            recs = scan_records(exe, path, args)
            wrong, unknown, missing = compare(recs, res["outputs"], names)
            n = sum(1 for x in names if x in res["outputs"])
            print("%-32s %-44s records %6d wrong %4d unknown %5d" %
                  (key, " ".join(args)[:44], n, len(wrong), len(unknown)))
            total["records"] += n
            total["wrong"] += len(wrong)
            total["unknown"] += len(unknown)
            for name, why in wrong[:20]:
                failed.append("%s %s: %s: %s" % (key, args, name, why))
            for name in missing[:5]:
                failed.append("%s %s: %s: no record" % (key, args, name))
            if len(unknown) > UNKNOWN.get(key, 0):
                failed.append("%s %s: %d unknown (at most %d): first %s" %
                              (key, args, len(unknown), UNKNOWN.get(key, 0), unknown[0]))
            if listing:
                for name, op, why in unknown:
                    print("    unknown %s (%s): %s" % (name, op, why))
    print("total: records %d wrong %d unknown %d" %
          (total["records"], total["wrong"], total["unknown"]))
    for f in failed:
        print("FAIL:", f)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
