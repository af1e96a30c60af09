#!/usr/bin/env python3
"""docs/architecture.md is the one list of the source files (ctest house/file_lists).

Under each heading `## src/DIR/`, the tables name files in backticks
(`cmd_*.c` is a pattern). Every .c and .h file under src/DIR must be named
there, every name there must exist, and every .c file must be in the
build's lists (src/DIR/sources.cmake, or infer.cmake for the inference),
and those lists name no file that is gone. Exit 1 with what differs.

usage: check_file_lists.py SOURCE_DIR
"""
import fnmatch
import os
import re
import sys

def doc_names(text):
    """{dir: set of names or patterns} from the architecture page."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"^## (src/[a-z]+)/\s*$", line)
        if m:
            cur = m.group(1)
            out.setdefault(cur, set())
            continue
        if line.startswith("## "):
            cur = None
        if cur and line.startswith("|"):
            first = line.split("|")[1]
            for name in re.findall(r"`([A-Za-z0-9_.*]+\.(?:c|h|def|cmake))`", first):
                out[cur].add(name)
    return out

def cmake_names(src, d):
    names = set()
    for f in os.listdir(os.path.join(src, d)):
        if f.endswith(".cmake"):
            text = open(os.path.join(src, d, f)).read()
            names |= {os.path.basename(p) for p in re.findall(r"(src/[a-z]+/[A-Za-z0-9_]+\.c)\b", text)}
    return names

def main():
    src = sys.argv[1]
    text = open(os.path.join(src, "docs", "architecture.md")).read()
    docs = doc_names(text)
    bad = []
    for d in sorted(os.listdir(os.path.join(src, "src"))):
        full = os.path.join(src, "src", d)
        files = {f for f in os.listdir(full) if f.endswith((".c", ".h"))}
        if not files:
            continue
        key = "src/" + d
        if key not in docs:
            bad.append(f"docs/architecture.md has no '## {key}/' section")
            continue
        names = docs[key]
        for f in sorted(files):
            if not any(fnmatch.fnmatchcase(f, n) for n in names):
                bad.append(f"{key}/{f}: not named in docs/architecture.md")
        for n in sorted(names):
            if "*" not in n and not os.path.exists(os.path.join(full, n)):
                bad.append(f"{key}/{n}: named in docs/architecture.md, not in the tree")
        built = cmake_names(src, "src/" + d)
        if built:
            for f in sorted(x for x in files if x.endswith(".c")):
                if f not in built and f != "main.c":
                    bad.append(f"{key}/{f}: in no {key}/*.cmake list")
            for f in sorted(built - files):
                bad.append(f"{key}/{f}: in a {key}/*.cmake list, not in the tree")
    if bad:
        print("\n".join(bad))
        print(f"{len(bad)} differences between the tree, the build lists and docs/architecture.md")
        sys.exit(1)
    print("every source file is named in docs/architecture.md and built")

if __name__ == "__main__":
    main()
