#!/usr/bin/env python3
"""scan's DxDispatch bindings against an independent model, on random models.

Usage: check_scan_bindings.py DMLTENSOR [--cases N] [--seed S]

Each case is a random DxDispatch model: resources (every data type
DxDispatch names, initial values as a list, a constant or a sequence with
valueCount, sometimes initialValuesOffsetInBytes, sizeInBytes as a number or a
string, values from a file, UNKNOWN with sizeInBytes), DirectML operator
dispatchables with single and list tensor fields (random dtypes, sizes,
strides, GuaranteedBaseOffsetAlignment, TotalTensorSizeInBytes), and dispatch
commands that bind them by name, by element range ({name, elementOffset,
elementCount, elementSizeInBytes}, values near 2^32 and 2^64, some as
strings) or by list; plus a dispatchable's own bindings and an HLSL
dispatchable whose bindings are not tensor fields. About one binding in ten
names a missing resource.

For every binding this script computes, from the model alone, the
DML_BUFFER_BINDING (docs/batch.md, "scan": the buffer's size, Offset, SizeInBytes;
or that the values pass 2^64-1) and the outcome of base_offset_16,
base_offset_alignment, binding_size and binding_in_buffer (docs/views.md, docs/validation.md),
with Python's unbounded integers, and requires scan's record at that binding's
path to say the same: base_offset_bytes, binding_size_bytes,
buffer_size_bytes, each check's status, or the error id (resource_missing,
out_of_range). It also requires one record per binding, nothing else at a
$.commands or $.dispatchables.*.bindings path, and exit status 1 exactly when
a record failed or broke a rule.

Prints a line per mismatch and 'N passed, M failed' (one per binding);
exits 1 on any failure. Standard library only.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import dmlt_model as m

U64 = m.U64_MAX

# DxDispatch's initialValuesDataType names and their element sizes in bits.
RES_TYPES = [("FLOAT32", 32), ("FLOAT16", 16), ("FLOAT64", 64), ("UINT8", 8), ("INT8", 8),
             ("UINT16", 16), ("INT16", 16), ("UINT32", 32), ("INT32", 32), ("UINT64", 64),
             ("INT64", 64), ("DML_TENSOR_DATA_TYPE_FLOAT16", 16)]
TENSOR_TYPES = [(n.upper(), b) for n, b, _ in m.DTYPES if b >= 8]


def number(rng, v):
    """v as a JSON number, or as a string of digits (always past 2^53)."""
    return str(v) if v > (1 << 53) - 1 or rng.random() < 0.15 else v


def random_resource(rng):
    """(JSON of the resource, its size in bytes or None, its element bits or 0)."""
    name, bits = rng.choice(RES_TYPES)
    r = rng.random()
    if r < 0.08:  # sized by a file: unknown
        return {"initialValuesDataType": name, "initialValues": {"sourcePath": "x.npy"}}, None, bits
    if r < 0.16:  # typed entries: only sizeInBytes says
        size = rng.choice([16, 256, 4096])
        return ({"initialValuesDataType": "UNKNOWN",
                 "initialValues": [{"name": "n", "type": "UINT32", "value": 1}],
                 "sizeInBytes": number(rng, size)}, size, 0)
    count = rng.choice([1, 3, 4, 16, 100, 128, 1000, rng.randint(1, 5000)])
    if rng.random() < 0.5:
        values = {"valueCount": number(rng, count), "value": 0}
    elif rng.random() < 0.5:
        values = {"valueCount": number(rng, count), "valueStart": 0, "valueDelta": 1}
    else:
        count = min(count, 64)
        values = list(range(count))
    res = {"initialValuesDataType": name, "initialValues": values}
    offset = 0
    if rng.random() < 0.3:
        offset = rng.choice([4, 16, 32, 100])
        res["initialValuesOffsetInBytes"] = number(rng, offset)
    size = (count * bits // 8 + offset + 3) // 4 * 4
    if rng.random() < 0.25:
        size = rng.choice([size, size + 16, max(size - 8, 1), 1 << 33, U64])
        res["sizeInBytes"] = number(rng, size)
    return res, size, bits


def random_tensor(rng):
    dtype, bits = rng.choice(TENSOR_TYPES)
    rank = rng.choice([1, 2, 4, 4])
    sizes = [rng.randint(1, 6) for _ in range(rank)]
    t = {"DataType": dtype, "Sizes": sizes}
    strides = None
    if rng.random() < 0.3:
        strides = [rng.randint(0, 40) for _ in range(rank)]
        t["Strides"] = strides
    last = m.dot([s - 1 for s in sizes], strides) if strides else m.product(sizes) - 1
    total = m.bytes_for(last + 1, bits)
    if rng.random() < 0.2:
        total += 4 * rng.randint(1, 8)
        t["TotalTensorSizeInBytes"] = total
    align = 0
    if rng.random() < 0.3:
        align = rng.choice([16, 32, 64, 256])
        t["GuaranteedBaseOffsetAlignment"] = align
    return t, {"bits": bits, "total": total, "align": align}


def random_source(rng, names):
    """(JSON of one binding source, its parts)."""
    name = rng.choice(names) if rng.random() > 0.1 else "nope"
    if rng.random() < 0.35:
        return name, {"name": name, "offset": 0, "count": 0, "esize": 0}
    src = {"name": name}
    parts = {"name": name, "offset": 0, "count": 0, "esize": 0}
    if rng.random() < 0.7:
        parts["offset"] = rng.choice([0, 1, 3, 4, 8, 16, 64, 100, 1 << 32, (1 << 61) + 1, U64])
        src["elementOffset"] = number(rng, parts["offset"])
    if rng.random() < 0.6:
        parts["count"] = rng.choice([1, 4, 8, 16, 64, 100, 1 << 32, U64])
        src["elementCount"] = number(rng, parts["count"])
    if rng.random() < 0.2:
        parts["esize"] = rng.choice([1, 2, 4, 16, 1 << 62])
        src["elementSizeInBytes"] = number(rng, parts["esize"])
    return src, parts


def expect(parts, resources, tensor):
    """What scan must say of one binding: ('error', id) or ('ok', fields)."""
    if parts["name"] not in resources:
        return ("error", "resource_missing")
    _, size, res_bits = resources[parts["name"]]
    if size is not None and size > U64:
        return ("error", "out_of_range")
    if parts["esize"] * 8 > U64:
        return ("error", "out_of_range")
    bits = parts["esize"] * 8 or res_bits or tensor["bits"]
    offset = parts["offset"] * bits // 8
    if offset > U64:
        return ("error", "out_of_range")
    if parts["count"]:
        bsize = parts["count"] * bits // 8
        if bsize > U64:
            return ("error", "out_of_range")
    elif size is not None:
        bsize = size - offset if offset <= size else 0
    else:
        bsize = None
    total = tensor["total"]
    checks = {
        "base_offset_16": offset % 16 == 0,
        "base_offset_alignment": tensor["align"] == 0 or offset % tensor["align"] == 0,
        # not checked (skipped) without the size it needs
        "binding_size": "skipped" if bsize is None else bsize >= total,
        "binding_in_buffer": "skipped" if size is None
        else offset + (total if bsize is None else bsize) <= size,
    }
    return ("ok", {"base_offset_bytes": offset, "binding_size_bytes": bsize,
                   "buffer_size_bytes": size, "checks": checks})


def random_model(rng):
    resources = {}
    for i in range(rng.randint(1, 5)):
        res, size, bits = random_resource(rng)
        resources["r%d" % i] = (res, size, bits)
    names = list(resources)
    dispatchables, tensors = {}, {}
    for i in range(rng.randint(1, 3)):
        desc = {"Axis": 0}
        for f in range(rng.randint(1, 3)):
            field = "T%dTensor" % f
            if rng.random() < 0.3:
                items = [random_tensor(rng) for _ in range(rng.randint(1, 3))]
                desc[field + "s"] = [t for t, _ in items]
                tensors[("op%d" % i, field + "s")] = [info for _, info in items]
            else:
                t, info = random_tensor(rng)
                desc[field] = t
                tensors[("op%d" % i, field)] = info
        dispatchables["op%d" % i] = {"type": "DML_OPERATOR_X", "desc": desc}
    dispatchables["shader"] = {"type": "hlsl", "sourcePath": "s.hlsl", "compiler": "dxc",
                               "compilerArgs": []}
    expected = {}  # binding path -> expectation

    def bindings_for(op, base):
        b = {}
        for (o, field), info in tensors.items():
            if o != op or rng.random() < 0.2:
                continue
            if isinstance(info, list):
                srcs = [random_source(rng, names) for _ in info]
                b[field] = [s for s, _ in srcs]
                for k, ((_, parts), ti) in enumerate(zip(srcs, info)):
                    expected["%s.%s[%d]" % (base, field, k)] = expect(parts, resources, ti)
            else:
                src, parts = random_source(rng, names)
                if rng.random() < 0.15:
                    src = [src]
                    expected["%s.%s[0]" % (base, field)] = expect(parts, resources, info)
                else:
                    expected["%s.%s" % (base, field)] = expect(parts, resources, info)
                b[field] = src
        return b

    for op in list(dispatchables):
        if op != "shader" and rng.random() < 0.3:
            dispatchables[op]["bindings"] = bindings_for(op, "$.dispatchables.%s.bindings" % op)
    commands = []
    for c in range(rng.randint(1, 4)):
        if rng.random() < 0.15:
            commands.append({"type": "print", "resource": names[0]})
            continue
        if rng.random() < 0.1:
            commands.append({"type": "dispatch", "dispatchable": "shader",
                             "bindings": {"input": names[0]}})
            continue
        op = rng.choice([d for d in dispatchables if d != "shader"])
        commands.append({"type": "dispatch", "dispatchable": op,
                         "bindings": bindings_for(op, "$.commands[%d].bindings" % c)})
    model = {"resources": {n: r for n, (r, _, _) in resources.items()},
             "dispatchables": dispatchables, "commands": commands}
    return model, expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dmltensor")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=6)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="dmlt_scan_bindings_") as tmp:
        path = os.path.join(tmp, "model.json")
        for case in range(args.cases):
            model, expected = random_model(rng)
            with open(path, "w") as f:
                json.dump(model, f)
            p = subprocess.run([args.dmltensor, "scan", path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            records = [json.loads(line) for line in p.stdout.decode().splitlines()]
            got = {r["path"]: r for r in records
                   if r["path"].startswith("$.commands") or ".bindings" in r["path"]}
            problems = []
            if set(got) != set(expected):
                problems.append("binding paths %s, want %s" % (sorted(got), sorted(expected)))
            for where, want in expected.items():
                r = got.get(where)
                if r is None:
                    continue
                if want[0] == "error":
                    if r.get("error", {}).get("id") != want[1]:
                        problems.append("%s: want error %s, got %s" % (where, want[1], r))
                    continue
                if "error" in r:
                    problems.append("%s: want %s, got error %s" % (where, want[1], r["error"]))
                    continue
                fields = want[1]
                for key in ("base_offset_bytes", "binding_size_bytes", "buffer_size_bytes"):
                    if r[key] != fields[key]:
                        problems.append("%s: %s %s, want %s" % (where, key, r[key], fields[key]))
                status = {c["id"]: c["status"] if c["status"] == "skipped" else c["status"] == "pass"
                          for c in r["checks"]}
                for cid, ok in fields["checks"].items():
                    if status[cid] != ok:
                        problems.append("%s: %s %s, want %s" % (where, cid, status[cid], ok))
            broken = any("error" in r or not r["valid"] for r in records)
            if p.returncode != (1 if broken else 0):
                problems.append("exit %d with broken=%s" % (p.returncode, broken))
            if problems:
                failed += 1
                print("FAIL case %d (seed %d):\n  %s\n  model: %s"
                      % (case, args.seed, "\n  ".join(problems[:6]), json.dumps(model)[:2000]))
            else:
                passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
