#!/usr/bin/env python3
"""check_scan_checks.py DMLTENSOR DATA_DIR - scan --checks all|failed|none.

Issue 21 point 9: records repeated all 15 checks (about 3 KB each). For
every ONNX model and DxDispatch document of DATA_DIR (tensor records and
binding records), at dims that make some tensors invalid, the records of
--checks failed and --checks none must be those of the default (and of
--checks all) with "checks" holding only the failed checks, in the same
order, or none; every other key the same, the exit status the same. A value
that is none of the three is bad_checks (exit 2, nothing on stdout).
"""
import glob
import json
import os
import subprocess
import sys


def scan(binary, args):
    p = subprocess.run([binary, "scan"] + args, capture_output=True, check=False)
    return p.returncode, [json.loads(x) for x in p.stdout.decode().split("\n")[:-1]]


def main():
    binary, data = sys.argv[1], sys.argv[2]
    inputs = sorted(glob.glob(os.path.join(data, "onnx", "*.onnx")))
    inputs += sorted(glob.glob(os.path.join(data, "dxdispatch_*.json")))
    failures = checks = listed = 0
    for path in inputs:
        for dims in (["--dim", "B=8", "--dim", "N=8", "--dim", "T=128"],
                     ["--dim", "B=3000000000", "--dim", "N=2", "--dim", "T=3000000000"]):
            args = [path] + (dims if path.endswith(".onnx") else [])
            status, default = scan(binary, args)
            for which in ("all", "failed", "none"):
                st, got = scan(binary, args + ["--checks", which])
                want = []
                for r in default:
                    r = dict(r)
                    if "checks" in r:
                        listed += len(r["checks"])
                        r["checks"] = [c for c in r["checks"] if which == "all" or
                                       (which == "failed" and c["status"] == "fail")]
                    want.append(r)
                checks += 1
                if st != status or got != want:
                    failures += 1
                    print("FAIL: %s %s --checks %s: exit %d (want %d), %d records (want %d)"
                          % (path, " ".join(dims), which, st, status, len(got), len(want)))
    p = subprocess.run([binary, "scan", inputs[0], "--checks", "some"], capture_output=True,
                       check=False)
    checks += 1
    if p.returncode != 2 or p.stdout or b"--checks" not in p.stderr:
        failures += 1
        print("FAIL: --checks some: exit %d, %r" % (p.returncode, p.stderr))
    print("%d inputs, %d checks (%d checks listed by default), %d failures"
          % (len(inputs), checks, listed, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
