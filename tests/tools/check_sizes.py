#!/usr/bin/env python3
"""No function over 120 lines and no file over 900 lines in src/.

    check_sizes.py [--max-function N] [--max-file N] [--top N] DIR_OR_FILE...

A directory stands for every .c and .h below it. A file's size is its
number of lines. A function's is from the line its definition starts on
(`static bool name(`) to the line of its closing brace, both counted: read
with comments, strings, character constants and preprocessor lines left
out, so braces in them do not count. --top N also lists the N longest
functions and files. Exit 1 when anything is over its limit.
"""

import argparse
import os
import re
import sys

SUFFIXES = (".c", ".h")
NOT_A_FUNCTION = re.compile(r"=")  # an initializer: `x = {`
EXTERN_C = re.compile(r'^\s*extern\s*"[^"]*"\s*$')
NAME = re.compile(r"([A-Za-z_][A-Za-z_0-9]*)\s*\(")


def sources_of(paths):
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, _dirs, files in os.walk(path):
                found.extend(os.path.join(root, f) for f in files if f.endswith(SUFFIXES))
        else:
            found.append(path)
    return sorted(found)


def code_only(text):
    """text with comments, literals and preprocessor lines blanked; every
    newline kept, so positions keep their line numbers."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
            continue
        if c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1 : j]) + c)
            i = j + 1
            line_start = False
            continue
        out.append(c)
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        i += 1
    return "".join(out)


def functions_of(text):
    """[(name, first line, last line)] of the function definitions in text."""
    code = code_only(text)
    found = []
    depth = 0
    segment_start = 0  # where the current top-level declaration began
    open_at = None
    for i, c in enumerate(code):
        if c == "{":
            if depth == 0 and EXTERN_C.search(code[segment_start:i]):
                segment_start = i + 1  # extern "C" { in a header: not a block
                continue
            if depth == 0:
                segment = code[segment_start:i]
                head = segment.strip()
                open_at = None
                if head.endswith(")") and not NOT_A_FUNCTION.search(head):
                    name = NAME.search(head)
                    first = segment_start + (len(segment) - len(segment.lstrip()))
                    if name:
                        open_at = (name.group(1), first)
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if open_at is not None:
                    name, first = open_at
                    found.append(
                        (name, code.count("\n", 0, first) + 1, code.count("\n", 0, i) + 1)
                    )
                    open_at = None
                segment_start = i + 1
            depth = max(depth, 0)
        elif c == ";" and depth == 0:
            segment_start = i + 1
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-function", type=int, default=120)
    parser.add_argument("--max-file", type=int, default=900)
    parser.add_argument("--top", type=int, default=0)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()

    files = sources_of(args.paths)
    if not files:
        print("check_sizes: no .c or .h file in " + " ".join(args.paths), file=sys.stderr)
        return 2
    over = []
    sizes, lengths = [], []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
        sizes.append((lines, path))
        if lines > args.max_file:
            over.append(f"{path}: {lines} lines (a file: at most {args.max_file})")
        for name, first, last in functions_of(text):
            length = last - first + 1
            lengths.append((length, f"{path}:{first}: {name}"))
            if length > args.max_function:
                over.append(
                    f"{path}:{first}: {name} is {length} lines (a function: at most "
                    f"{args.max_function})"
                )
    if args.top:
        print(f"longest functions ({len(lengths)} in all):")
        for length, where in sorted(lengths, reverse=True)[: args.top]:
            print(f"  {length:5} {where}")
        print(f"longest files ({len(sizes)} in all):")
        for lines, path in sorted(sizes, reverse=True)[: args.top]:
            print(f"  {lines:5} {path}")
    for line in over:
        print(line)
    if over:
        print(f"check_sizes: {len(over)} over the limits: split them by what the code does")
        return 1
    print(
        f"check_sizes: {len(files)} files, {len(lengths)} functions, none over "
        f"{args.max_function} lines a function or {args.max_file} a file"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
