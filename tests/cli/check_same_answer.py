#!/usr/bin/env python3
"""The same answer for the same model from two builds of dmltensor: the
Windows one under Wine and the Linux one (.ci/checks/60-windows.sh runs it
after the Windows ctest).

For each model, both commands run from the same directory with the model's
path as given (relative, so no path needs normalising), and their stdout,
stderr and exit status must be equal byte for byte:

  scan MODEL... --checks failed     (each record's placement, sizes, checks)
  scan MODEL... BINDINGS --checks failed
  nodes MODEL                       (JSON Lines: every node's placement)
  nodes MODEL BINDINGS
  plan MODEL BINDINGS --device dml --skip-unknown

BINDINGS binds the symbols the test models and the PyTorch exports use
(--dim N=2 ...); a --dim that names nothing is a note on stderr, the same
note from both. --corpus DIR adds every K-th model of DIR (sorted, K from
--every, default 80), as /usr/share/libonnx-testdata's 1072 models make 14.
Two scans take every model at once; nodes and plan run per model. A
command whose answers differ runs once more (as the Windows ctest repeats
a failed test: Wine crashes now and then under load); a difference the
second run keeps is reported.

Usage: check_same_answer.py 'CMD_A' 'CMD_B' [--corpus DIR] [--every K] MODEL...
(each CMD is split as a shell would: 'wine64 build-win/dmltensor.exe').
Prints one line per difference and a total; exit 1 on any difference.
"""
import os
import shlex
import subprocess
import sys

BINDINGS = ["--dim", "N=2", "--dim", "B=2", "--dim", "T=3", "--dim", "batch=2", "--dim",
            "seq=16", "--dim", "height=14", "--dim", "width=14"]


def invocations(models):
    """scan takes every model in one run (each record says its file)."""
    yield ["scan", "--checks", "failed"] + models
    yield ["scan", "--checks", "failed"] + models + BINDINGS
    for model in models:
        yield ["nodes", model]
        yield ["nodes", model] + BINDINGS
        yield ["plan", model, "--device", "dml", "--skip-unknown"] + BINDINGS


def differences(cmd_a, cmd_b, inv):
    a = subprocess.run(cmd_a + inv, capture_output=True)
    b = subprocess.run(cmd_b + inv, capture_output=True)
    return [(what, x, y) for what, x, y in (
        ("exit status", str(a.returncode).encode(), str(b.returncode).encode()),
        ("stdout", a.stdout, b.stdout), ("stderr", a.stderr, b.stderr)) if x != y]


def first_difference(a, b):
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f"line {i + 1}:\n    A: {x[:300]!r}\n    B: {y[:300]!r}"
    return f"A has {len(la)} lines, B {len(lb)}"


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    cmd_a, cmd_b = shlex.split(args[0]), shlex.split(args[1])
    rest, models, corpus, every = args[2:], [], None, 80
    while rest:
        a = rest.pop(0)
        if a == "--corpus":
            corpus = rest.pop(0)
        elif a == "--every":
            every = int(rest.pop(0))
        else:
            models.append(a)
    if corpus and os.path.isdir(corpus):
        found = sorted(os.path.relpath(os.path.join(d, f))
                       for d, _, fs in os.walk(corpus) for f in fs if f.endswith(".onnx"))
        models += found[::every]
    elif corpus:
        print(f"note: no {corpus}: its models are not compared")
    diffs = runs = retried = 0
    for inv in invocations(models):
        runs += 1
        found = differences(cmd_a, cmd_b, inv)
        if found:  # once more, as the Windows ctest repeats a failure (Wine is flaky under load)
            retried += 1
            print(f"note: {' '.join(inv[:2])}: differs, run again")
            found = differences(cmd_a, cmd_b, inv)
        for what, x, y in found:
            diffs += 1
            print(f"DIFF {' '.join(inv)}: {what}: {first_difference(x, y)}")
    print(f"{len(models)} models, {runs} commands ({retried} run twice): "
          f"{'the same bytes from both' if not diffs else f'{diffs} differences'}")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
