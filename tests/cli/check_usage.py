#!/usr/bin/env python3
"""Each command's usage line agrees with the option table (ctest docs/usage).

The usage lines are written by hand (they show what is required and how
options combine), so they are checked instead of generated: from the
tables dmlt_dump_tables prints,
  - every `--option` a usage names is an option of that command, and its
    argument is written as the table's metavar;
  - a value list (`--format jsonl|json|text`, `--checks all|failed|none`)
    is every value the option takes and only those (--format: the formats
    the command prints; the others: tools/gen_docs.py's FIXED_VALUES, what
    the completions offer), and a single value (`--format json`) is one
    of them;
  - an option that may be given again is shown with `...` after it
    (`[--dim NAME=VALUE]...`), and only such an option;
  - a usage without `[OPTIONS]` names every option of its command but
    --help.
usage: check_usage.py DUMP_TABLES_EXE
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from gen_docs import FIXED_VALUES  # noqa: E402  (the values no table holds)

OPTION = re.compile(r"(--[a-z][a-z0-9-]*)(?:[ =]([A-Z](?:[A-Z0-9_=.,|]*[A-Z0-9])?"
                    r"|[a-z0-9_]+(?:\|[a-z0-9_]+)*))?((?:,\.\.)?\]?)(\.\.\.)?")


def values_of(cmd, opt):
    """The values opt takes with cmd, where a list of them is known."""
    if opt == "--format":
        return cmd["formats"]
    return FIXED_VALUES.get(opt)


def check_command(c, opts):
    """The problems of command c's usage line; opts: {name: entry} of its options."""
    name, usage = c["name"], c["usage"]
    bad = []
    for m in OPTION.finditer(usage):
        opt, arg, repeat = m.group(1), m.group(2), m.group(4) is not None
        if opt not in opts:
            bad.append(f"{name}: usage names {opt}, which {name} does not take")
            continue
        o = opts[opt]
        if repeat != o["repeatable"]:
            bad.append(f"{name}: usage shows {opt} " +
                       ("with '...': it is not repeatable" if repeat else
                        "without '...' after it: it may be given again"))
        meta = o["metavar"]
        if meta is None:
            if arg and arg.isupper():
                bad.append(f"{name}: usage gives {opt} an argument ({arg}); it is a flag")
            continue
        if arg is None:
            bad.append(f"{name}: usage shows {opt} without its argument {meta}")
        elif arg.islower() or arg.isdigit():  # a value, or a list of values
            known = values_of(c, opt)
            given = arg.split("|")
            if known is None:
                bad.append(f"{name}: usage gives {opt} the value {arg}, which no table lists "
                           "(tools/gen_docs.py's FIXED_VALUES)")
            elif len(given) > 1 and sorted(given) != sorted(known):
                bad.append(f"{name}: usage lists {opt} {arg}; it takes {'|'.join(known)}")
            elif any(g not in known for g in given):
                bad.append(f"{name}: usage gives {opt} {arg}; it takes {'|'.join(known)}")
        elif arg != meta and not meta.startswith(arg):
            bad.append(f"{name}: usage writes {opt} {arg}; the option table says {opt} {meta}")
    if "[OPTIONS]" not in usage:
        for opt in sorted(opts):
            if opt != "--help" and not re.search(re.escape(opt) + r"\b(?!-)", usage):
                bad.append(f"{name}: usage has no [OPTIONS] and does not name {opt}")
    return bad


def main():
    tables = json.loads(subprocess.run([sys.argv[1]], capture_output=True, check=True).stdout)
    by_cmd = {}
    for o in tables["options"]:
        for c in o["commands"]:
            by_cmd.setdefault(c, {})[o["name"]] = o
    bad = []
    for c in tables["commands"]:
        bad += check_command(c, by_cmd.get(c["name"], {}))
    if bad:
        print("\n".join(bad))
        sys.exit(1)
    print(f"{len(tables['commands'])} usage lines agree with the option table")


if __name__ == "__main__":
    main()
