#!/usr/bin/env python3
"""check_parse_count.py DMLTENSOR DATA_DIR - a model is parsed once per command.

Issue 29 item 2: scan, plan and nodes each open one model session
(src/onnx/onnx_session.c), which passes over the model's bytes once: the
model reader (onnx_model.c) checks every message, gives the walk's records
(onnx_wire.c's pieces, called as it reads) and reads the model; the
commands render the session and never parse the bytes again. (scan used
to walk a model up to four times: the check, --shape, the text table's
widths, the records; plan walked it twice when its first unknown size is a
graph input; until 2026-11-27 every command walked once and then read.)

Under DMLT_DEBUG_PARSES the CLI prints, on stderr, how many times each
reader began on a model's bytes in the run (onnx__pb_count_pass, src/onnx/pb.c):
"dmltensor: parses: walk W, model M". Every command line below is run on
each model of DATA_DIR/onnx, from the file and from a pipe on -, and must
print walk 0, model 1, whatever its exit status (a model refused after it
was read, a graph cycle, an unknown size, a --shape the model contradicts).

Then the one case of a second walk: a model whose walk's records pass the
session's memory for them (8 MiB, or the model reader's cap where smaller:
1 MiB under DMLT_TEST_INPUT_CAP_SHIFT=10) lets them go and walks again for
each pass; its records must be the same as when they are kept.
"""
import os
import re
import subprocess
import sys
from protobuf_bytes import msg

LINE = re.compile(rb"^dmltensor: parses: walk (\d+), model (\d+)$", re.M)

COMMANDS = [
    ["scan"],
    ["scan", "--format", "text"],
    ["scan", "--no-infer"],
    ["scan", "--shape", "image=2,3,32,32", "--dim", "N=2"],
    ["scan", "--format", "text", "--shape", "x=4,8", "--top", "2"],
    ["plan"],
    ["plan", "--dim", "N=2"],
    ["plan", "--skip-unknown", "--format", "text"],
    ["plan", "--device", "dml", "--dim", "N=2"],
    ["scan", "--feature-level", "4_0"],
    ["nodes"],
    ["nodes", "--dim", "N=2", "--format", "text"],
]


def run(binary, argv, stdin_bytes):
    env = dict(os.environ, DMLT_DEBUG_PARSES="1")
    p = subprocess.run([binary] + argv, input=stdin_bytes, capture_output=True, env=env,
                       check=False)
    return p.returncode, p.stderr


def records_let_go(binary):
    """20,000 value_infos: about 4 MiB of records, past 1 MiB under the
    shifted caps: the same records (text and JSON Lines), walked again."""
    vis = b"".join(msg(13, msg(1, b"v%d" % i) + msg(2, msg(1, b"\x08\x01" + msg(2, msg(
        1, msg(2, b"s%d" % (i % 7))) + msg(1, b"\x08\x03"))))) for i in range(20000))
    model = b"\x08\x08" + msg(8, msg(1, b"") + b"\x10\x11") + msg(7, msg(2, b"g") + vis)
    ok = True
    for fmt in ("jsonl", "text"):
        outs = []
        for shift in (None, "10"):
            env = dict(os.environ, DMLT_DEBUG_PARSES="1")
            env.pop("DMLT_TEST_INPUT_CAP_SHIFT", None)
            if shift:
                env["DMLT_TEST_INPUT_CAP_SHIFT"] = shift
            p = subprocess.run([binary, "scan", "-", "--format", fmt, "--dim", "s1=2"],
                               input=model, capture_output=True, env=env, check=False)
            m = LINE.findall(p.stderr)
            outs.append((p.returncode, p.stdout, m))
        (s0, o0, m0), (s1, o1, m1) = outs
        walks = (int(m0[0][0]) if m0 else -1, int(m1[0][0]) if m1 else -1)
        if s0 != s1 or o0 != o1 or o0.count(b"\n") < 20000 or walks[0] != 0 or walks[1] < 1:
            print("FAIL records let go (%s): exit %d/%d, %d/%d lines, walks %s" %
                  (fmt, s0, s1, o0.count(b"\n"), o1.count(b"\n"), walks))
            ok = False
        else:
            print("records let go (%s): the same %d lines, walks %d kept, %d let go" %
                  (fmt, o0.count(b"\n"), walks[0], walks[1]))
    return ok


def main():
    binary, data = sys.argv[1], sys.argv[2]
    folder = os.path.join(data, "onnx")
    models = sorted(f for f in os.listdir(folder) if f.endswith(".onnx"))
    if not models:
        print("no model in %s" % folder)
        return 1
    failures = runs = 0
    for name in models:
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            data_bytes = f.read()
        for cmd in COMMANDS:
            for how, argv, stdin_bytes in (("file", [cmd[0], path] + cmd[1:], None),
                                           ("pipe", [cmd[0], "-"] + cmd[1:], data_bytes)):
                status, err = run(binary, argv, stdin_bytes)
                runs += 1
                m = LINE.findall(err)
                what = "%s %s (%s, exit %d)" % (" ".join(cmd), name, how, status)
                if len(m) != 1:
                    print("FAIL %s: no parse count on stderr: %r" % (what, err[-300:]))
                    failures += 1
                    continue
                walk, model = int(m[0][0]), int(m[0][1])
                if walk != 0 or model != 1:
                    print("FAIL %s: the model was parsed %d time(s) by the walk and %d by the "
                          "model reader, not once" % (what, walk, model))
                    failures += 1
    runs += 1
    if not records_let_go(binary):
        failures += 1
    print("%d passed, %d failed" % (runs - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
