#!/usr/bin/env python3
"""What only a Windows build can show (src/cli/platform.c), checked on the
Windows build: under Wine in CI, or on Windows itself.

Usage: check_windows.py DMLTENSOR

- stdout is binary: no CR in any output, text or JSON, even of many lines;
- CRLF input is still accepted: batch gives the same bytes for CRLF lines;
- file names are UTF-8 and open through the wide API: batch and scan read a
  file whose name is not ASCII, and a missing one is named in UTF-8;
- colour is off into a pipe (and NO_COLOR wins over a terminal), on with
  --color always;
- a reader that goes away (a closed pipe) ends the output quietly, status 0.

Prints one FAIL line per mismatch and "N passed, M failed".
"""

import os
import shlex
import subprocess
import sys
import tempfile

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what)


def run(binary, args, stdin=b"", cwd=None, env=None):
    argv = shlex.split(binary) + args
    e = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    e.update(env or {})
    return subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, env=e, timeout=120)


def main():
    binary = sys.argv[1]
    if os.path.exists(binary):  # the tests below run in other directories
        binary = shlex.quote(os.path.abspath(binary))

    # Binary stdout: LF only, in every format of many lines.
    for args in (["size", "--dtype", "float16", "--sizes", "1,3,224,224", "--layout", "nhwc"],
                 ["map", "--dtype", "uint8", "--sizes", "2,3", "--pad", "w=2", "--view", "memory"],
                 ["map", "--dtype", "uint8", "--sizes", "4,5", "--format", "csv"],
                 ["size", "--sizes", "2,3", "--format", "json"],
                 ["layouts"], ["--help"]):
        p = run(binary, args)
        check(p.returncode == 0 and p.stdout.count(b"\n") >= 1 and b"\r" not in p.stdout,
              "%s: exit %d, %d CR in stdout" % (" ".join(args), p.returncode, p.stdout.count(b"\r")))
    p = run(binary, ["size", "--sizes", "0"])
    check(p.returncode == 2 and b"\r" not in p.stderr and p.stderr.endswith(b"\n"),
          "an error's stderr has no CR: exit %d, %r" % (p.returncode, p.stderr))

    # CRLF input: the same records as with LF.
    records = ['{"id":%d,"sizes":[%d,3],"dtype":"float16"}' % (i, i + 1) for i in range(50)]
    lf = run(binary, ["batch", "-"], ("\n".join(records) + "\n").encode())
    crlf = run(binary, ["batch", "-"], ("\r\n".join(records) + "\r\n").encode())
    check(lf.returncode == 0 and lf.stdout == crlf.stdout and lf.stdout.count(b"\n") == 50
          and b"\r" not in lf.stdout, "batch: CRLF lines give LF's output")

    # Non-ASCII file names, through the wide API.
    with tempfile.TemporaryDirectory() as d:
        name = "tensörs-日本語-Ω.jsonl"
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write('{"id":"ü","sizes":[2,3]}\n')
        p = run(binary, ["batch", name], cwd=d)
        check(p.returncode == 0 and p.stdout.startswith('{"id":"ü",'.encode()),
              "batch %s: exit %d, %r %r" % (name, p.returncode, p.stdout[:80], p.stderr[:200]))
        model = "modèle-ß.json"
        with open(os.path.join(d, model), "w", encoding="utf-8") as f:
            f.write('[{"DataType":"FLOAT16","Sizes":[1,3,4,4]}]')
        p = run(binary, ["scan", model], cwd=d)
        check(p.returncode == 0 and p.stdout.startswith(b'{"path":"$[0]","dtype":"float16"'),
              "scan %s: exit %d, %r %r" % (model, p.returncode, p.stdout[:80], p.stderr[:200]))
        p = run(binary, ["batch", "fehlt-ä.jsonl"], cwd=d)
        check(p.returncode == 2 and "fehlt-ä.jsonl".encode() in p.stderr
              and b"No such file" in p.stderr, "a missing non-ASCII name: %r" % p.stderr[:200])
        os.mkdir(os.path.join(d, "verzeichnis-ö"))
        p = run(binary, ["batch", "verzeichnis-ö"], cwd=d)
        check(p.returncode == 2 and b"it is a directory" in p.stderr,
              "a directory is said to be one: %r" % p.stderr[:200])

    # Colour: never into a pipe; --color always writes escapes; NO_COLOR.
    view = ["map", "--dtype", "uint8", "--sizes", "2,3", "--pad", "w=2", "--view", "memory"]
    p = run(binary, view)
    check(p.returncode == 0 and b"\x1b" not in p.stdout, "colour off into a pipe")
    p = run(binary, view + ["--color", "always"])
    check(p.returncode == 0 and b"\x1b[" in p.stdout, "--color always: escapes")
    p = run(binary, view + ["--color", "always"], env={"NO_COLOR": "1"})
    check(p.returncode == 0 and b"\x1b[" in p.stdout, "--color always beats NO_COLOR")

    # A closed pipe: the reader takes one line and goes; dmltensor says
    # nothing and ends with status 0.
    argv = shlex.split(binary) + ["map", "--dtype", "uint8", "--sizes", "64,64,64", "--format", "csv"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    status = proc.wait(timeout=120)
    check(first.startswith(b"n,c,h,w") or first.startswith(b"c,h,w") or first[:1].isalpha(),
          "map csv's first line: %r" % first)
    check(status == 0 and err == b"", "closed pipe: exit %d, stderr %r" % (status, err[:200]))

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
