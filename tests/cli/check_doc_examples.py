#!/usr/bin/env python3
"""Runs every ```console block of the given Markdown files and compares the
output with the text shown, so documentation cannot go stale.

In a block, lines starting with '$ ' are commands (run by bash, with the
dmltensor under test first on PATH); the lines up to the next command are
its expected stdout+stderr. Commands of one block run in one shell, in order,
so `bytes=$(...)` then `echo $bytes` works. Commands run in the directory of
the first file (README.md: the project's root), so examples can name files
such as tests/cli/data/dxdispatch_model.json.

Blocks fenced as ```console real-models run real models that no one here
wrote (tests/onnx/fetch_real_models.sh fetches them; they are never
committed): they are skipped unless --real-models DIR is given, and then
they are the only blocks run, with $M naming DIR's flat/ folder (a link to
each model by its file name).

--update writes the outputs got into the files instead of comparing (read
the diff before committing it).

Usage: check_doc_examples.py [--update] [--real-models DIR] DMLTENSOR FILE.md...
Prints 'N passed, N failed' (one per command) and exits 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile


def blocks(text, info):
    for m in re.finditer(r"^```" + re.escape(info) + r"\n(.*?)^```", text, re.S | re.M):
        cmds = []
        for line in m.group(1).splitlines(keepends=True):
            if line.startswith("$ "):
                cmds.append([line[2:].rstrip("\n"), ""])
            elif cmds:
                cmds[-1][1] += line
        yield m.span(1), cmds


def main():
    args = sys.argv[1:]
    info, models, update = "console", None, False
    if args[:1] == ["--update"]:
        update, args = True, args[1:]
    if args[:1] == ["--real-models"]:
        info, models, args = "console real-models", os.path.join(os.path.abspath(args[1]), "flat"), args[2:]
    binary = os.path.abspath(args[0])
    root = os.path.dirname(os.path.abspath(args[1]))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(binary, os.path.join(tmp, "dmltensor"))
        env = dict(os.environ, PATH=tmp + os.pathsep + os.environ["PATH"], LC_ALL="C")
        env.pop("NO_COLOR", None)
        if models:
            env["M"] = models
        for path in args[1:]:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            edits = []
            for span, cmds in blocks(text, info):
                # One shell per block; a marker line separates the outputs.
                marker = "@@dmltensor-doc-example@@"
                script = "".join(f"{c}\necho {marker}\n" for c, _ in cmds)
                p = subprocess.run(["bash", "-c", script], capture_output=False,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   env=env, timeout=120, cwd=root)
                outs = p.stdout.decode().split(marker + "\n")
                if update:
                    body = "".join(f"$ {c}\n{outs[i] if i < len(outs) else ''}"
                                   for i, (c, _) in enumerate(cmds))
                    edits.append((span, body))
                for i, (cmd, want) in enumerate(cmds):
                    got = outs[i] if i < len(outs) else "<no output>"
                    if got == want:
                        passed += 1
                    else:
                        failed += 1
                        print(f"FAIL {path}: $ {cmd}\n--- expected\n{want}--- got\n{got}")
            if update and edits:
                for (a, b), body in reversed(edits):
                    text = text[:a] + body + text[b:]
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
