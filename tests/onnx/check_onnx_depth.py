#!/usr/bin/env python3
"""check_onnx_depth.py DMLTENSOR DUMP_MODEL - the nesting limit (issue 19
item 5): every model python3-onnx reads is read, and past the limit the
refusal says it is this reader's limit, not damage.

If nested 1 to 40 deep (onnx.helper): where onnx.load reads the model (31
deep and less), `dmltensor scan` must give check_onnx_corpus.py's records
and onnx_model_read (dump_model) check_onnx_model.py's model; where it does
not (protobuf's limit: 100 levels of messages), both refuse it with a
message that names the limit and says "not damage" (scan: bad_onnx, exit
status 2). And a model nested 30,000 levels deep (written on the wire by
hand): the same refusal, no crash (the readers' recursion stops at the
limit, not at the end of the stack).

Needs Debian's python3-onnx (run with /usr/bin/python3). Exits 1 on any
failure.
"""
import json
import os
import subprocess
import sys
import tempfile

import onnx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_onnx_corpus  # noqa: E402
import check_onnx_model  # noqa: E402
from check_onnx_merge import field  # noqa: E402


def very_deep(levels):
    """graph { node { attribute { g { node { ... } } } } }, levels deep."""
    inner = b""
    for _ in range(levels // 3):
        inner = field(1, field(4, b"If") + field(5, field(1, b"then_branch") + field(6, inner)))
    return b"\x08\x07" + field(7, inner)  # ir_version 7, the graph


def refused(dmltensor, dump, path, what):
    bad = 0
    p = subprocess.run([dmltensor, "scan", "--no-infer", path], capture_output=True)
    err = p.stderr.decode(errors="replace")
    if p.returncode != 2:
        print(f"FAIL {what}: scan exit {p.returncode}, stderr {err[-300:]!r}")
        bad += 1
    elif "this reader's limit" not in err or "not damage" not in err:
        print(f"FAIL {what}: the message does not say it is a limit: {err[-300:]!r}")
        bad += 1
    d = json.loads(subprocess.run([dump, path], capture_output=True, check=True).stdout)
    if not d.get("limit") or "not damage" not in d.get("error", ""):
        print(f"FAIL {what}: onnx_model_read: {d!r:.300}")
        bad += 1
    return bad


def main():
    dmltensor, dump = sys.argv[1], sys.argv[2]
    bad = 0
    read, refused_depths = [], []
    with tempfile.TemporaryDirectory() as out:
        for depth in range(1, 41):
            path = os.path.join(out, f"if{depth}.onnx")
            with open(path, "wb") as f:
                f.write(check_onnx_model.nested_if(depth))
            try:
                onnx.load(path)
                read.append(path)
            except Exception:  # noqa: BLE001 - protobuf's limit
                refused_depths.append(depth)
                bad += refused(dmltensor, dump, path, f"If nested {depth} deep")
        if not set(range(21, 32)) <= {int(os.path.basename(p)[2:-5]) for p in read}:
            print("FAIL: python3-onnx does not read If nested 21..31 deep here")
            bad += 1
        if not refused_depths:
            print("FAIL: no depth past python3-onnx's limit")
            bad += 1
        bad += check_onnx_corpus.check(dmltensor, read)
        bad += check_onnx_model.check(dump, read)
        path = os.path.join(out, "very_deep.onnx")
        with open(path, "wb") as f:
            f.write(very_deep(30000))
        bad += refused(dmltensor, dump, path, "nested 30,000 deep")
    print(f"If nested {len(read)} depths read, {len(refused_depths)} past the limit refused "
          f"(from {refused_depths[0] if refused_depths else None} deep)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
