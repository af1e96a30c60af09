#!/usr/bin/env python3
"""Runs every ```console block of the given Markdown files and compares the
output with the text shown, so documentation cannot go stale.

In a block, lines starting with '$ ' are commands (run by bash, with the
dmltensor under test first on PATH); the lines up to the next command are
its expected stdout+stderr. Commands of one block run in one shell, in order,
so `bytes=$(...)` then `echo $bytes` works. Commands run in the directory of
the first file (README.md: the project's root), so examples can name files
such as tests/cli/data/dxdispatch_model.json.

Usage: check_doc_examples.py DMLTENSOR FILE.md...
Prints 'N passed, N failed' (one per command) and exits 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile


def blocks(text):
    for m in re.finditer(r"^```console\n(.*?)^```", text, re.S | re.M):
        cmds = []
        for line in m.group(1).splitlines(keepends=True):
            if line.startswith("$ "):
                cmds.append([line[2:].rstrip("\n"), ""])
            elif cmds:
                cmds[-1][1] += line
        yield cmds


def main():
    binary = os.path.abspath(sys.argv[1])
    root = os.path.dirname(os.path.abspath(sys.argv[2]))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(binary, os.path.join(tmp, "dmltensor"))
        env = dict(os.environ, PATH=tmp + os.pathsep + os.environ["PATH"], LC_ALL="C")
        env.pop("NO_COLOR", None)
        for path in sys.argv[2:]:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for cmds in blocks(text):
                # One shell per block; a marker line separates the outputs.
                marker = "@@dmltensor-doc-example@@"
                script = "".join(f"{c}\necho {marker}\n" for c, _ in cmds)
                p = subprocess.run(["bash", "-c", script], capture_output=False,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   env=env, timeout=120, cwd=root)
                outs = p.stdout.decode().split(marker + "\n")
                for i, (cmd, want) in enumerate(cmds):
                    got = outs[i] if i < len(outs) else "<no output>"
                    if got == want:
                        passed += 1
                    else:
                        failed += 1
                        print(f"FAIL {path}: $ {cmd}\n--- expected\n{want}--- got\n{got}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
