#!/usr/bin/env python3
"""check_scan_table.py DMLTENSOR - scan's text table: the NAME column fits the names present.

Issue 21 point 12: names of 60 to 110 characters (Silero's) broke the
columns. For random models (seeded) of 1 to 12 tensors whose names are 1 to
130 characters long, ASCII or not (2- to 4-byte UTF-8, some with a control
or format character), every row of `scan --format text` must have:
  - the NAME column as wide as the widest label present (its characters
    after escaping), at least 4 ("NAME"), at most 32: KIND, TYPE and SIZES
    start where the header has them, in characters, in every row;
  - each label as itself when it fits, else shortened in the middle: its
    first 14 characters, "...", its last 15 (32 in all: issue 28, a row
    fits 100 columns);
and the JSON record keeps the whole name. Escapes are computed here: C0
and DEL as \\xNN, U+202E and U+0085 as \\uXXXX (the characters used).
"""
import json
import os
import random
import subprocess
import sys
import tempfile
from protobuf_bytes import msg

ALPHABET = list("abcdefghijklmnopqrstuvwxyz_0123456789.:/") + ["é", "中", "😀", "ж"]
SPECIAL = {"\x1b": "\\x1b", "\x7f": "\\x7f", "\u202e": "\\u202e", "\u0085": "\\u0085"}


def model(names):
    vis = b"".join(msg(13, msg(1, n.encode()) + msg(2, msg(1, b"\x08\x01" + msg(2, msg(1, b"\x08\x02")))))
                   for n in names)
    return b"\x08\x08" + msg(8, msg(1, b"") + b"\x10\x11") + msg(7, msg(2, b"g") + vis)


def escaped(name):
    return "".join(SPECIAL.get(ch, ch) for ch in name)


def shown(name):
    e = escaped(name)
    return e if len(e) <= 32 else e[:14] + "..." + e[-15:]


def main():
    binary = sys.argv[1]
    rng = random.Random(21)
    failures = checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.onnx")
        for run in range(150):
            names = []
            for _ in range(rng.randint(1, 12)):
                n = rng.choice([1, 3, 10, 27, 31, 32, 33, 46, 49, 60, 110, 130,
                                rng.randint(1, 130)])
                chars = [rng.choice(ALPHABET) for _ in range(n)]
                if rng.random() < 0.3:
                    chars[rng.randrange(n)] = rng.choice(list(SPECIAL))
                names.append("".join(chars))
            names = list(dict.fromkeys(names))
            with open(path, "wb") as f:
                f.write(model(names))
            out = subprocess.run([binary, "scan", path, "--format", "text"], capture_output=True,
                                 check=False).stdout.decode()
            lines = out.splitlines()
            header, rows = lines[1], lines[2:2 + len(names)]
            width = max(4, min(32, max(len(escaped(n)) for n in names)))
            want_cols = [width + 2, width + 14, width + 26]
            got_cols = [header.index(w) for w in ("KIND", "TYPE", "SIZES")]
            checks += 1
            if got_cols != want_cols:
                failures += 1
                print("FAIL: run %d: header columns %r, want %r: %r" % (run, got_cols, want_cols,
                                                                         header))
            for name, row in zip(names, rows):
                checks += 1
                label = shown(name)
                ok = row.startswith(label + " ") and row[want_cols[0]:].startswith("value_info ")
                ok = ok and row[want_cols[1]:].startswith("FLOAT ")
                ok = ok and len(row) <= 100
                ok = ok and row[want_cols[2]:].startswith("2 ")
                if not ok:
                    failures += 1
                    print("FAIL: run %d: name %r: want %r then columns %r: %r"
                          % (run, name, label, want_cols, row))
            records = subprocess.run([binary, "scan", path], capture_output=True,
                                     check=False).stdout.decode().split("\n")[:-1]
            checks += 1
            if [json.loads(r)["name"] for r in records[:-1]] != names:
                failures += 1
                print("FAIL: run %d: the JSON records do not hold the whole names" % run)
    print("%d checks, %d failures" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
