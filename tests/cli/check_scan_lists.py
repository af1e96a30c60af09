#!/usr/bin/env python3
"""check_scan_lists.py DMLTENSOR - scan's summary lists hold at most 100 paths and count the rest.

SPEC section 8: lists in the summary (failed_paths, broken_paths) hold at
most 100 entries and say how many more (failed_paths_more,
broken_paths_more), so memory stays flat whatever the model. For models of
F failing tensors (no element type) and B broken ones (2^32 FLOAT elements:
"valid":false), F and B each in 0, 1, 99, 100, 101 and 257, interleaved, the
JSON Lines summary must list exactly the first min(n, 100) paths of the
records that failed (or broke), in record order, and give n - 100 (or 0) as
the rest; --format text names the first five and says "and n - 5 more".
The models are protobuf bytes written here (no python3-onnx needed).
"""
import json
import os
import subprocess
import sys
import tempfile
from protobuf_bytes import msg, varint


def vint(field, v):
    return varint(field << 3) + varint(v)


def value_info(name, elem, dims):
    shape = msg(2, b"".join(msg(1, vint(1, d)) for d in dims))
    tensor = (vint(1, elem) if elem else b"") + shape
    return msg(13, msg(1, name.encode()) + msg(2, msg(1, tensor)))


def model(failing, broken):
    vis, i, names = [], 0, []
    for k in range(max(failing, broken)):
        if k < failing:
            vis.append(value_info("f%d" % k, 0, [2]))
            names.append(("f%d" % k, "failed"))
        if k < broken:
            vis.append(value_info("b%d" % k, 1, [65536, 65536]))
            names.append(("b%d" % k, "broken"))
    vis.append(value_info("fine", 1, [2, 3]))
    graph = msg(2, b"lists") + b"".join(vis)
    return vint(1, 8) + msg(8, msg(1, b"") + vint(2, 17)) + msg(7, graph), names


def main():
    binary = sys.argv[1]
    failures = 0
    counts = [0, 1, 99, 100, 101, 257]
    with tempfile.TemporaryDirectory() as tmp:
        for failing in counts:
            for broken in counts:
                data, _ = model(failing, broken)
                path = os.path.join(tmp, "m.onnx")
                with open(path, "wb") as f:
                    f.write(data)
                out = subprocess.run([binary, "scan", path], capture_output=True, check=False)
                lines = [json.loads(x) for x in out.stdout.decode().splitlines()]
                records, summary = lines[:-1], lines[-1]["summary"]
                failed = [r["path"] for r in records if "error" in r]
                brk = [r["path"] for r in records if r.get("valid") is False]
                text = subprocess.run([binary, "scan", path, "--format", "text"],
                                      capture_output=True, check=False).stdout.decode()
                for key, paths, prefix in (("failed", failed, "f"), ("broken", brk, "b")):
                    n = len(paths)
                    want = {key: n, key + "_paths": paths[:100],
                            key + "_paths_more": max(n - 100, 0)}
                    got = {k: summary.get(k) for k in want}
                    names = ", ".join("%s%d" % (prefix, k) for k in range(min(n, 5)))
                    line = "%-18s %d" % (key, n) + (": " + names if n else "")
                    line += ", and %d more" % (n - 5) if n > 5 else ""
                    ok = got == want and n == (failing if key == "failed" else broken)
                    ok = ok and line in text.splitlines()
                    if not ok:
                        failures += 1
                        print("FAIL: %d failing, %d broken: %s: got %r, text %r" % (
                            failing, broken, key, {k: (v if not isinstance(v, list) else len(v))
                                                   for k, v in got.items()},
                            [x for x in text.splitlines() if x.startswith(key)]))
    runs = len(counts) ** 2
    print("%d models, %d failures" % (runs, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
