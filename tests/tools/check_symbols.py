#!/usr/bin/env python3
"""Every external symbol carries its layer's prefix, read from the objects.

An external symbol is one nm lists as defined and global (T, D, B, R, ...).
Each layer's prefixes are its row of the table under "## Symbol prefixes"
in docs/architecture.md (the one place they are written): each name in
backquotes there that ends in _ is a prefix, one that does not a whole
name (`main`); a row that says "public API" also takes every function
src/include/dmltensor.h declares DMLT_API. A symbol of a layer that starts
with none of its prefixes and is no name its row takes fails the check,
named with its object file. Names that begin with two underscores are the
compiler's (C reserves them: sanitizers, coverage) and those that begin
with a dot the toolchain's (MinGW's .refptr.NAME beside a data reference):
both are left out.

    check_symbols.py --nm=NM --docs ARCHITECTURE.md --api DMLTENSOR.H
                     --layer=LAYER OBJECT... [--layer=LAYER OBJECT...]...

LAYER is a directory as the table names it (src/lib/). Exit 0 when every
symbol has its prefix, 1 when one does not, 2 when the table or an object
cannot be read, 77 (ctest's skip) when there is no nm (MSVC's build).
"""

import argparse
import os
import re
import subprocess
import sys

# nm's types for a symbol an object defines (global ones are upper case).
DEFINED = set("ABCDGIRSTVW")
SKIP = 77


def read_table(path):
    """{layer: [prefix, ...]} and the layers that also hold the public API."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    section = re.search(r"^## Symbol prefixes\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not section:
        raise ValueError(f'{path}: no "## Symbol prefixes" section')
    table, api_layers = {}, set()
    for line in section.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("`src/"):
            continue
        layer = cells[0].strip("`")
        table[layer] = re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", cells[1])
        if "public API" in cells[1]:
            api_layers.add(layer)
        if not table[layer] and layer not in api_layers:
            raise ValueError(f"{path}: the row of {layer} names no prefix")
    if not table:
        raise ValueError(f'{path}: "## Symbol prefixes" has no row')
    return table, api_layers


def read_api(path):
    """The functions the public header declares DMLT_API."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"^\s*#.*?(?<!\\)$", " ", text, flags=re.M | re.S)
    api = set(re.findall(r"\bDMLT_API\b[^;{}]*?\b([A-Za-z_]\w*)\s*\(", text))
    if not api:
        raise ValueError(f"{path}: no DMLT_API function")
    return api


def external_symbols(nm, path, strip_underscore):
    proc = subprocess.run([nm, "-P", path], capture_output=True, text=True)
    if proc.returncode != 0:
        raise OSError(f"{nm} -P {path}: {proc.stderr.strip()}")
    found = []
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2 or parts[1] not in DEFINED:
            continue
        name = parts[0]
        if strip_underscore and name.startswith("_"):
            name = name[1:]
        if not name.startswith(("__", ".")):
            found.append(name)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nm", default="")
    parser.add_argument("--docs", required=True)
    parser.add_argument("--api", required=True)
    parser.add_argument("--strip-underscore", action="store_true",
                        help="symbols carry a leading _ (Mach-O, 32-bit Windows)")
    argv = sys.argv[1:]
    first = next((i for i, a in enumerate(argv) if a.startswith("--layer=")), len(argv))
    args = parser.parse_args(argv[:first])
    if not args.nm:
        print("skipped: no nm in this build (MSVC); the symbols are checked where nm exists")
        return SKIP
    try:
        table, api_layers = read_table(args.docs)
        api = read_api(args.api)
    except (OSError, ValueError) as e:
        print(f"check_symbols: {e}", file=sys.stderr)
        return 2

    groups = []
    for word in argv[first:]:
        if word.startswith("--layer="):
            groups.append((word[len("--layer="):], []))
        else:
            groups[-1][1].append(word)
    if not groups:
        print("check_symbols: no --layer=LAYER OBJECT... given", file=sys.stderr)
        return 2

    bad, counted = [], 0
    for layer, objects in groups:
        if layer not in table:
            print(f"check_symbols: {layer} has no row under \"## Symbol prefixes\" in "
                  f"{args.docs}", file=sys.stderr)
            return 2
        if not objects:
            print(f"check_symbols: {layer}: no object file given", file=sys.stderr)
            return 2
        prefixes = tuple(p for p in table[layer] if p.endswith("_"))
        exact = {p for p in table[layer] if not p.endswith("_")}
        for obj in objects:
            try:
                names = external_symbols(args.nm, obj, args.strip_underscore)
            except OSError as e:
                print(f"check_symbols: {e}", file=sys.stderr)
                return 2
            for name in names:
                counted += 1
                if name in exact or (prefixes and name.startswith(prefixes)):
                    continue
                if layer in api_layers and name in api:
                    continue
                bad.append((layer, name, os.path.basename(obj), tuple(table[layer])))
    if bad:
        for layer, name, obj, prefixes in sorted(bad):
            want = ", ".join(prefixes)
            also = " or the public API" if layer in api_layers else ""
            print(f"{layer}: {name} ({obj}) is external without the layer's prefix "
                  f"({want}{also})")
        print(f"{len(bad)} of {counted} external symbols lack their layer's prefix "
              f"(docs/architecture.md, \"Symbol prefixes\")")
        return 1
    print(f"{counted} external symbols in {len(groups)} layers, each with its layer's prefix")
    return 0


if __name__ == "__main__":
    sys.exit(main())
