#!/usr/bin/env python3
"""check_scan_dims.py DMLTENSOR - scan --dim any number of times.

Issue 21 point 1: --dim stopped at 16; IS-Net declares 189 symbols. A model
of N value_infos, the i-th of symbolic dims [s_i, t_i] (N = 1, 16, 17, 189,
1000), scanned with --dim s_i=i+1 and t_i=2 for every i: every record's
sizes must be [i+1, 2] (exit 0); with one --dim left out, exactly that
value_info is dim_unbound (unknown: counted, exit 0 without --strict); with 10 more --dim than symbols, each extra one
gets its note on stderr; a symbol bound twice is duplicate_option (exit 2).
"""
import json
import os
import subprocess
import sys
import tempfile
from protobuf_bytes import msg


def model(n):
    vis = b""
    for i in range(n):
        shape = msg(2, msg(1, msg(2, b"s%d" % i)) + msg(1, msg(2, b"t%d" % i)))
        vis += msg(13, msg(1, b"v%d" % i) + msg(2, msg(1, b"\x08\x01" + shape)))
    return b"\x08\x08" + msg(8, msg(1, b"") + b"\x10\x11") + msg(7, msg(2, b"g") + vis)


def scan(binary, path, dims):
    p = subprocess.run([binary, "scan", path] + dims, capture_output=True, check=False)
    lines = [json.loads(x) for x in p.stdout.decode().split("\n")[:-1]]
    return p.returncode, lines, p.stderr.decode()


def main():
    binary = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n in (1, 16, 17, 189, 1000):
            path = os.path.join(tmp, "m%d.onnx" % n)
            with open(path, "wb") as f:
                f.write(model(n))
            dims = []
            for i in range(n):
                dims += ["--dim", "s%d=%d" % (i, i + 1), "--dim", "t%d=2" % i]
            status, lines, err = scan(binary, path, dims)
            sizes = [r.get("sizes") for r in lines[:-1]]
            if status != 0 or sizes != [[i + 1, 2] for i in range(n)]:
                failures += 1
                print("FAIL: %d symbols bound: exit %d, %r" % (n, status, err[:200]))
            gone = n // 2
            status, lines, err = scan(binary, path, dims[:4 * gone] + dims[4 * gone + 2:])
            unbound = [r["name"] for r in lines[:-1] if "error" in r]
            if status != 0 or unbound != ["v%d" % gone]:  # unknown: counted, exit 0
                failures += 1
                print("FAIL: %d symbols, s%d left out: exit %d, unbound %r" % (n, gone, status,
                                                                             unbound[:5]))
            extra = []
            for k in range(10):
                extra += ["--dim", "x%d=3" % k]
            status, lines, err = scan(binary, path, dims + extra)
            notes = [ln for ln in err.splitlines() if "no tensor has the symbolic dim" in ln]
            if status != 0 or len(notes) != 10:
                failures += 1
                print("FAIL: %d symbols and 10 extra: exit %d, %d notes" % (n, status, len(notes)))
            status, lines, err = scan(binary, path, dims + ["--dim", "s0=5"])
            if status != 2 or lines or "a second time" not in err:
                failures += 1
                print("FAIL: %d symbols, s0 twice: exit %d, %r" % (n, status, err[:200]))
    print("%d failures" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
