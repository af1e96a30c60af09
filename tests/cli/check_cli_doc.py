#!/usr/bin/env python3
"""docs/cli.md says what --help says: every command, usage line and option.

Usage: check_cli_doc.py DMLTENSOR CLI_MD

For `dmltensor --help` and each `dmltensor COMMAND --help` it parses the
usage line and the options (name, argument and description, wrapped lines
joined), and requires, in the section of docs/cli.md headed
"## `dmltensor COMMAND`" (the global options: "## Global options"):

  - the usage line, as a line of a code block: `dmltensor size --sizes LIST [OPTIONS]`;
  - one table row per option, exactly `| group | `--name ARG` | description |`
    (the group as --help heads it, without its colon and parenthesis);
  - no table row for an option that --help does not list.

The commands table must list every command with --help's one-line summary.
The "JSON schemas" table must link every file of docs/schema/ (and no file
that is not there), and name every command that prints JSON: one whose
help lists json or jsonl for --format, or that has no --format (its output
is JSON Lines: batch, plan's records).
Prints a line per problem and 'N passed, N failed' (one per item checked);
exits 1 on any problem.
"""
import os
import re
import subprocess
import sys


def help_text(binary, *args):
    p = subprocess.run([binary, *args, "--help"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=True)
    return p.stdout.decode()


def parse_help(text):
    """(usage, [(group, option, argument, description)], [(command, summary)])."""
    lines = text.splitlines()
    usage = next(line[len("Usage: "):] for line in lines if line.startswith("Usage: "))
    options, commands = [], []
    group = None
    # The description column: where the descriptions of option lines start.
    starts = [m.end() for m in (re.match(r"^  -\S.*?\s{2,}", line) for line in lines) if m]
    col = min(starts) if starts else 0
    for line in lines:
        # A heading: a word, perhaps a parenthesis ("Operations (in order;
        # DIM: ...):"), and a colon.
        if re.match(r"^[A-Z]\S*( \(.*\))?:$", line):
            group = line[:-1]
            continue
        if not line.strip():
            continue
        if group == "Commands":
            m = re.match(r"^  (\S+)\s+(.*)$", line)
            if m:
                commands.append((m.group(1), m.group(2)))
            continue
        if group is None or group.startswith("Example"):
            continue
        if line.startswith("  -"):
            # An option and its argument too long for the column stand on
            # a line of their own, the description under them.
            if len(line) > col and line[col - 1] == " ":
                head, desc = line[:col].strip(), line[col:].strip()
            else:
                head, desc = line.strip(), ""
            m = re.match(r"^(-h, )?(--[a-z][a-z-]*)(?: (\S+))?$", head)
            if not m:
                raise ValueError(f"cannot read the option line: {line!r}")
            name = (m.group(1) or "") + m.group(2)
            options.append([group, name, m.group(3) or "", desc])
        elif line.startswith(" " * col) and options:
            options[-1][3] = (options[-1][3] + " " + line.strip()).strip()
    return usage, [tuple(o) for o in options], commands


def cell(text):
    return text.replace("|", "\\|")


def row(group, name, arg, desc):
    """The table row of an option. The group is --help's heading without
    its parenthesis: "Layout (give --strides, ...)" is "Layout"."""
    opt = f"{name} {arg}" if arg else name
    return f"| {cell(group.split(' (')[0])} | `{cell(opt)}` | {cell(desc)} |"


def sections(md):
    """{heading: text} of the '## ' sections."""
    out = {}
    for m in re.finditer(r"^## ([^\n]+)\n(.*?)(?=^## |\Z)", md, re.S | re.M):
        out[m.group(1).strip()] = m.group(2)
    return out


def main():
    binary, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        md = f.read()
    secs = sections(md)
    passed = failed = 0

    def check(ok, problem):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {path}: {problem}")

    usage, options, commands = parse_help(help_text(binary))
    check(bool(commands), "no commands found in 'dmltensor --help'")
    for name, summary in commands:
        check(f"| [`{name}`](#dmltensor-{name}) | {cell(summary)} |" in md,
              f"the commands table has no row for {name!r} with --help's summary {summary!r}")
    todo = [("Global options", [], usage, options)]
    for name, _ in commands:
        u, o, _ = parse_help(help_text(binary, name))
        todo.append((f"`dmltensor {name}`", [name], u, o))
    for heading, args, u, opts in todo:
        sec = secs.get(heading)
        check(sec is not None, f"no section '## {heading}'")
        if sec is None:
            continue
        check(re.search(r"^" + re.escape(u) + r"$", sec, re.M) is not None,
              f"section {heading}: no line with the usage {u!r}")
        rows = {r.replace("\\|", "|")
                for r in re.findall(r"^\| .* \| `(-[^`]*)` \| .*\|$", sec, re.M)}
        listed = set()
        for group, name, arg, desc in opts:
            want = row(group, name, arg, desc)
            listed.add(f"{name} {arg}" if arg else name)
            check(re.search(r"^" + re.escape(want) + r"$", sec, re.M) is not None,
                  f"section {heading}: no row\n  {want}\n  (from 'dmltensor {' '.join(args + ['--help'])}')")
        for extra in sorted(rows - listed):
            check(False, f"section {heading}: a row for {extra!r}, which --help does not list")
    check_schema_table(binary, path, md, commands, check)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def check_schema_table(binary, path, md, commands, check):
    """docs/cli.md's "JSON schemas" table against docs/schema/ and the
    commands that print JSON."""
    m = re.search(r"^## JSON schemas\n(.*?)(?=^## |\Z)", md, re.S | re.M)
    check(m is not None, "no section '## JSON schemas'")
    if m is None:
        return
    rows = re.findall(r"^\| (.*) \| \[[^]]*\]\(schema/([^)]*)\) \|$", m.group(1), re.M)
    linked = {f for _, f in rows}
    folder = os.path.join(os.path.dirname(os.path.abspath(path)), "schema")
    present = {f for f in os.listdir(folder) if f.endswith(".schema.json")}
    for f in sorted(present - linked):
        check(False, f"JSON schemas: no row links schema/{f}")
    for f in sorted(linked - present):
        check(False, f"JSON schemas: a row links schema/{f}, which does not exist")
    check(bool(linked) and linked <= present, "JSON schemas: the rows link the schemas")
    outputs = " ".join(o for o, _ in rows)
    for name, _ in commands:
        text = help_text(binary, name)
        fmt = re.search(r"^  --format FMT +(.*(?:\n {26}.*)*)", text, re.M)
        prints_json = fmt is None or re.search(r"\bjsonl?\b", fmt.group(1)) is not None
        if prints_json:
            check(re.search(r"`" + re.escape(name) + r"\b", outputs) is not None,
                  f"JSON schemas: no row for {name!r}, which prints JSON")


if __name__ == "__main__":
    sys.exit(main())
