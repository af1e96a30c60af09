#!/usr/bin/env python3
"""No call cycle between modules, read from the object files.

A module is one object file (src/cli/results.c.o is `cli/results`). Module A
uses module B when A leaves a symbol undefined that B defines: a function it
calls or data it reads (a command's `struct command`, a table). `nm -P`
lists both, so data references count as calls do. Any strongly connected
set of two or more modules is a cycle: the check names its modules and one
cycle through them, with the symbol behind each step, and fails.

    check_cycles.py [--nm NM] [--allow FILE] OBJECT_OR_DIRECTORY...

A directory stands for every *.o / *.obj below it. --allow names a file of
uses known to close a cycle that is not fixed yet, one a line:
`cli/options -> cli/commands  # why`; the check leaves those uses out, and
fails when one no longer exists (the line is stale: delete it). Exit 0 with
no cycle, 1 with one (or a stale line), 2 when the objects cannot be read.
"""

import argparse
import os
import subprocess
import sys

OBJECT_SUFFIXES = (".o", ".obj")
# nm's types for a symbol an object defines (global ones are upper case);
# U is undefined, w/v weak undefined.
DEFINED = set("ABCDGRSTVW")


def objects_of(paths):
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, _dirs, files in os.walk(path):
                found.extend(os.path.join(root, f) for f in files if f.endswith(OBJECT_SUFFIXES))
        else:
            found.append(path)
    return sorted(found)


def module_name(path):
    """src/cli/results.c.o -> cli/results: the source's directory and stem."""
    base = os.path.basename(path)
    for suffix in OBJECT_SUFFIXES:
        if base.endswith(suffix):
            base = base[: -len(suffix)]
    stem = os.path.splitext(base)[0] if base.endswith((".c", ".cpp")) else base
    parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
    return f"{parent}/{stem}"


def read_symbols(nm, path):
    """(defined, undefined) global symbols of one object file."""
    proc = subprocess.run([nm, "-P", path], capture_output=True, text=True)
    if proc.returncode != 0:
        raise OSError(f"{nm} -P {path}: {proc.stderr.strip()}")
    defined, undefined = set(), set()
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind in ("U", "w", "v"):
            undefined.add(name)
        elif kind in DEFINED:
            defined.add(name)
    return defined, undefined


def build_graph(modules):
    """modules: {name: (defined, undefined)} -> {name: {used: symbol}}."""
    owner = {}
    for name, (defined, _undefined) in modules.items():
        for symbol in defined:
            owner.setdefault(symbol, name)
    graph = {name: {} for name in modules}
    for name, (_defined, undefined) in modules.items():
        for symbol in sorted(undefined):
            used = owner.get(symbol)
            if used is not None and used != name:
                graph[name].setdefault(used, symbol)
    return graph


def strongly_connected(graph):
    """Tarjan's components, iteratively (no recursion limit to reach)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            advanced = False
            for succ in edges:
                if succ not in index:
                    index[succ] = low[succ] = counter
                    counter += 1
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    advanced = True
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(sorted(component))
    return found


def one_cycle(graph, component):
    """A shortest cycle through the component's first module, as a path."""
    members = set(component)
    start = component[0]
    previous = {start: None}
    queue = [start]
    for node in queue:
        for succ in sorted(graph[node]):
            if succ not in members:
                continue
            if succ == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                path.reverse()
                return path + [start]
            if succ not in previous:
                previous[succ] = node
                queue.append(succ)
    return component + [start]


def read_allowed(path):
    """{(from, to): line number} from an --allow file."""
    allowed = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            parts = [p.strip() for p in text.split("->")]
            if len(parts) != 2 or not all(parts):
                raise ValueError(f"{path}:{number}: not `module -> module`: {line.strip()}")
            allowed[(parts[0], parts[1])] = number
    return allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--allow", help="uses known to close a cycle, one a line")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()

    objects = objects_of(args.paths)
    if not objects:
        print("check_cycles: no object files in " + " ".join(args.paths), file=sys.stderr)
        return 2
    modules = {}
    try:
        for path in objects:
            name = module_name(path)
            if name in modules:
                print(f"check_cycles: two objects are module {name}", file=sys.stderr)
                return 2
            modules[name] = read_symbols(args.nm, path)
    except OSError as e:
        print(f"check_cycles: {e}", file=sys.stderr)
        return 2

    try:
        allowed = read_allowed(args.allow) if args.allow else {}
    except (OSError, ValueError) as e:
        print(f"check_cycles: {e}", file=sys.stderr)
        return 2

    graph = build_graph(modules)
    stale = 0
    for (user, used), number in sorted(allowed.items(), key=lambda kv: kv[1]):
        if used in graph.get(user, {}):
            del graph[user][used]
        else:
            print(f"{args.allow}:{number}: {user} no longer uses {used}: delete the line")
            stale += 1
    cycles = [c for c in strongly_connected(graph) if len(c) > 1]
    edges = sum(len(used) for used in graph.values())
    if not cycles:
        known = f" (leaving out {len(allowed)} known)" if allowed else ""
        print(f"check_cycles: {len(modules)} modules, {edges} uses{known}, no cycle")
        return 1 if stale else 0
    for component in cycles:
        path = one_cycle(graph, component)
        steps = " -> ".join(
            f"{a} ({graph[a][b]})" for a, b in zip(path, path[1:])
        )
        print(f"cycle of {len(component)} modules: {', '.join(component)}")
        print(f"  for example: {steps} -> {path[-1]}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
