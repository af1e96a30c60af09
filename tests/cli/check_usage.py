#!/usr/bin/env python3
"""Each command's usage line agrees with the option table (ctest docs/usage).

The usage lines are written by hand (they show what is required and how
options combine), so they are checked instead of generated: from the
tables dmlt_dump_tables prints,
  - every `--option` a usage names is an option of that command, and its
    argument is written as the table's metavar (or as the values `--format`
    or `--checks` take, `a|b|c`, all of them and only those);
  - a usage without `[OPTIONS]` names every option of its command but
    --help.
usage: check_usage.py DUMP_TABLES_EXE
"""
import json
import re
import subprocess
import sys

def main():
    tables = json.loads(subprocess.run([sys.argv[1]], capture_output=True, check=True).stdout)
    by_cmd = {}
    for o in tables["options"]:
        for c in o["commands"]:
            by_cmd.setdefault(c, {})[o["name"]] = o
    bad = []
    for c in tables["commands"]:
        name, usage = c["name"], c["usage"]
        opts = by_cmd.get(name, {})
        for m in re.finditer(r"(--[a-z][a-z0-9-]*)(?:[ =]([A-Z](?:[A-Z0-9_=.,|]*[A-Z0-9])?|[a-z0-9]+(?:\|[a-z0-9]+)*))?", usage):
            opt, arg = m.group(1), m.group(2)
            if opt not in opts:
                bad.append(f"{name}: usage names {opt}, which {name} does not take")
                continue
            meta = opts[opt]["metavar"]
            if meta is None:
                if arg and arg.isupper():
                    bad.append(f"{name}: usage gives {opt} an argument ({arg}); it is a flag")
                continue
            if arg is None:
                bad.append(f"{name}: usage shows {opt} without its argument {meta}")
            elif arg.islower():
                continue  # a value or a list of values: the command's own check (help goldens)
            elif arg != meta and not meta.startswith(arg):
                bad.append(f"{name}: usage writes {opt} {arg}; the option table says {opt} {meta}")
        if "[OPTIONS]" not in usage:
            for opt in sorted(opts):
                if opt != "--help" and not re.search(re.escape(opt) + r"\b(?!-)", usage):
                    bad.append(f"{name}: usage has no [OPTIONS] and does not name {opt}")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print(f"{len(tables['commands'])} usage lines agree with the option table")

if __name__ == "__main__":
    main()
