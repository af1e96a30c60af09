#!/usr/bin/env python3
"""gen_docs.py - writes what the docs and the shell completions repeat of the
command line's tables: the option table (src/cli/options.c) and the command
table (the struct command of each src/cli/cmd_*.c, listed in commands.c).

Usage:
  gen_docs.py TABLES [--root DIR] [--check]

TABLES is the program tools/dump_tables.c builds (build/dmlt_dump_tables),
which prints both tables as JSON, or a file holding that JSON. The script
rewrites, in place, only the regions between its marker comments:

  man/dmltensor.1                the COMMANDS list and the OPTIONS entries
  man/dmltensor.1                (and the SYNOPSIS, from each usage)
  docs/cli.md                    the commands table, the global options
                                 table, each command's usage, about,
                                 examples and option table, and the
                                 output formats table
  docs/batch.md                  the commands a record may name
  src/completions/dmltensor.bash the command names, options and values
  src/completions/_dmltensor     (zsh) the same, as _arguments specs
  src/completions/dmltensor.fish the same, as complete lines

A region starts at a line holding "generated: KEY (" and ends at the line
holding "end generated: KEY", each in the file's own comment syntax. The
man page's headings (option, argument, group, the commands that take it)
come from the tables; the paragraphs under them come from
man/descriptions.troff, else from the table's one-line help.

With --check nothing is written: each file is regenerated into a temporary
copy and compared with the file; a stale file is shown as a diff and the
exit status is 1. Standard library only.
"""
import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import textwrap

# Values the tables do not hold, each where the code that accepts it is.
# The completions offer them.
FIXED_VALUES = {
    # describe.c, parse_flags()
    "--flags": ["none", "owned_by_dml"],
    # cmd_map.c: --color and --view
    "--color": ["auto", "always", "never"],
    # cmd_scan.c: --checks
    "--checks": ["all", "failed", "none"],
    # cmd_nodes.c: --require; plan_model.c: --device
    "--require": ["dml"],
    "--device": ["dml"],
    "--view": ["memory", "grid"],
    # cmd_size.c's field table: the keys of `size --format json`, a
    # property also as properties.NAME
    "--field": [
        "dtype", "dml_data_type", "dml_data_type_value", "element_size_bits", "rank",
        "sizes", "layout", "strides", "byte_strides", "broadcast", "element_count",
        "index_of_last_element", "packed_size_bytes", "minimum_implied_size_bytes",
        "padded_size_bytes", "total_tensor_size_bytes", "properties.packed",
        "properties.padded", "properties.broadcast", "properties.overlapping",
        "valid", "diagnostics",
    ],
}
# Options of one command that exclude each other (zsh says so).
EXCLUSIVE = [("--offset", "--byte-offset")]

MAN = "man/dmltensor.1"
DESCRIPTIONS = "man/descriptions.troff"
CLI_MD = "docs/cli.md"
BATCH_MD = "docs/batch.md"
# In man/descriptions.troff, a line '.\" {batch commands} ;' stands for the
# commands batch records may name, the last followed by the punctuation
# given (the same token in a command's about: CLI_BATCH_COMMANDS in
# src/cli/cli.h).
BATCH_COMMANDS = "{batch commands}"
BASH = "src/completions/dmltensor.bash"
ZSH = "src/completions/_dmltensor"
FISH = "src/completions/dmltensor.fish"


class Error(Exception):
    pass


# ---------------------------------------------------------------- the tables

class Tables:
    def __init__(self, doc):
        self.commands = doc["commands"]
        self.options = doc["options"]
        self.groups = doc["groups"]
        self.dtypes = doc["dtypes"]
        self.layouts_by_rank = doc["layouts"]
        self.main_help = doc["main_help"]
        self.formats = doc["formats"]
        self.command_names = [c["name"] for c in self.commands]
        for o in self.options:  # the parser reads the kind, --help the argument
            if (o["kind"] == "flag") != (o["metavar"] is None):
                raise Error(f"{o['name']}: a flag has no argument, any other kind has one")
        # The commands that describe a tensor: those that take --sizes.
        self.tensor_commands = set()
        for o in self.options:
            if o["name"] == "--sizes":
                self.tensor_commands |= set(o["commands"])

    def repeatable(self):
        """The names of the options that may be given more than once."""
        return list(dict.fromkeys(o["name"] for o in self.options if o["repeatable"]))

    def batch_commands(self):
        """The commands a batch record may name, in help order."""
        return [c["name"] for c in self.commands if c["batch"]]

    def check_formats(self):
        """Each command's --format help names exactly the formats it prints."""
        for c in self.commands:
            if not c["formats"]:
                continue
            said = {f for f in self.formats if re.search(r"\b" + re.escape(f) + r"\b",
                                                         c["format_help"])}
            if said != set(c["formats"]):
                raise Error(f"{c['name']}: --format's help names {sorted(said)}, but the "
                            f"command prints {c['formats']} (its format_help and formats)")

    def group_name(self, g):
        """The group's title without its parenthesis: "Layout"."""
        return self.groups[g].split(" (")[0]

    def options_of(self, command):
        """The options of a command, in the order its --help lists them."""
        return [o for g in range(len(self.groups)) for o in self.options
                if o["group"] == g and command in o["commands"]]

    def command(self, name):
        return next(c for c in self.commands if c["name"] == name)

    def global_options(self):
        """[(head, help)] of `dmltensor --help`'s Options: ("-h, --help", ...)."""
        out, inside = [], False
        for line in self.main_help.splitlines():
            if line == "Options:":
                inside = True
            elif not line.strip():
                inside = False
            elif inside:
                m = re.match(r"^  (-\S.*?)\s{2,}(.*)$", line)
                if not m:
                    raise Error(f"cannot read the main help's option line {line!r}")
                out.append((m.group(1), m.group(2)))
        if not out:
            raise Error("no Options: in the main help")
        return out

    def layouts(self):
        """The named layouts: each rank's own, then those every rank has."""
        every = set.intersection(*(set(r) for r in self.layouts_by_rank))
        own = [n for r in self.layouts_by_rank for n in r if n not in every]
        common = [n for n in self.layouts_by_rank[0] if n in every]
        return list(dict.fromkeys(own)) + common

    def values(self, option, command):
        """The values to offer for an option of a command, or None."""
        name = option["name"]
        if name == "--format":
            return self.command(command)["formats"]
        if name == "--dtype":
            return self.dtypes
        if name == "--layout":
            return self.layouts()
        if name == "--rank":  # `layouts` lists every rank, 1 to the most
            return [str(r) for r in range(1, len(self.layouts_by_rank) + 1)]
        return FIXED_VALUES.get(name)

    def file_commands(self):
        """Commands that take FILE arguments."""
        return [c["name"] for c in self.commands if c["args"] != "none"]

    def flags(self):
        """Every option that takes no value, the global ones first."""
        names = [n for head, _ in self.global_options() for n in head.split(", ")]
        for o in self.options:
            if o["metavar"] is None and o["name"] not in names:
                names.append(o["name"])
        return names


def load_tables(source):
    if source.endswith(".json") or not os.access(source, os.X_OK):
        with open(source, encoding="utf-8") as f:
            return Tables(json.load(f))
    out = subprocess.run([source], stdout=subprocess.PIPE, check=True).stdout
    return Tables(json.loads(out.decode("utf-8")))


def value_groups(tables, option):
    """[(commands, values)]: an option's commands, split where the values
    offered differ (--format's are each command's formats)."""
    out = []
    for c in option["commands"]:
        v = tables.values(option, c)
        for cmds, vals in out:
            if vals == v:
                cmds.append(c)
                break
        else:
            out.append(([c], v))
    return out


def var_name(option_name):
    """The shell variable for a long list of values: --dtype -> dtypes."""
    return option_name.lstrip("-").replace("-", "_") + "s"


def long_lists(tables):
    """{option name: values} of the value lists long enough for a variable."""
    out = {}
    for o in tables.options:
        for _, vals in value_groups(tables, o):
            if vals and len(vals) > 4 and o["name"] != "--format":
                if out.setdefault(o["name"], vals) != vals:
                    raise Error(f"{o['name']} offers different values to different commands")
    return out


# ------------------------------------------------------------------- regions

BEGIN = re.compile(r"generated: (.+?) \(")
END = re.compile(r"end generated: (.+?)(?: -->)?\s*$")


def replace_regions(path, text, regions):
    """text with the lines between each region's markers replaced by
    regions[key] (a string of whole lines)."""
    lines = text.splitlines(keepends=True)
    eol = "\r\n" if text.endswith("\r\n") else "\n"  # a checkout with CRLF keeps them
    out, seen, i = [], set(), 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        m = BEGIN.search(line)
        if not m or "end generated:" in line:
            continue
        key = m.group(1)
        if key not in regions:
            raise Error(f"{path}:{i}: a region '{key}' that gen_docs.py does not write")
        if key in seen:
            raise Error(f"{path}:{i}: the region '{key}' twice")
        seen.add(key)
        while i < len(lines) and not (END.search(lines[i]) and
                                      END.search(lines[i]).group(1) == key):
            i += 1
        if i == len(lines):
            raise Error(f"{path}: the region '{key}' has no line 'end generated: {key}'")
        out.append(regions[key].replace("\n", eol))
    missing = [k for k in regions if k not in seen]
    if missing:
        raise Error(f"{path}: no region for " + ", ".join(repr(k) for k in missing) +
                    " (add its two marker comments where it belongs)")
    return "".join(out)


# ------------------------------------------------------------------ man page

def roff_text(text):
    """Plain text as man page text: dashes of options escaped, filled."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"--", r"\\-\\-", text)
    text = re.sub(r"(?<![\w\\])-(?=\d)", r"\\-", text)
    lines = textwrap.wrap(text, 78, break_on_hyphens=False, break_long_words=False)
    return "".join(("\\&" + l if l[:1] in ".'" else l) + "\n" for l in lines)


def sentence(help_text):
    t = help_text[:1].upper() + help_text[1:]
    return t if t.endswith(".") else t + "."


def roff_option(name):
    return name.replace("-", "\\-")


def read_descriptions(path):
    """{('command', NAME) | ('group', GROUP) | ('option', GROUP, --NAME) |
    ('examples', NAME): text}."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out, key, body = {}, None, []

    def flush():
        if key is not None:
            if key in out:
                raise Error(f"{path}: '{' '.join(key)}' twice")
            while body and not body[-1].strip():
                body.pop()
            out[key] = "".join(body)

    for n, line in enumerate(text.splitlines(keepends=True), 1):
        m = re.match(r'^\.\\" @(command|group|option|examples) (.+?)\s*$', line)
        if m:
            flush()
            key, body = (m.group(1), *m.group(2).split(" ")), []
            if (m.group(1) == "option") != (len(key) == 3) or len(key) > 3:
                raise Error(f"{path}:{n}: not '@command NAME', '@group GROUP', "
                            "'@option GROUP --NAME' or '@examples NAME'")
        elif key is not None:
            body.append(line)
    flush()
    return out


def man_entries(tables):
    """[(group, [entry])]: the man page's option entries, one per name in
    each group (the commands of a name's table entries merged), in the
    order --help lists them; the global options of the main help in Other."""
    out = []
    heads = {head.split(", ")[-1]: head for head, _ in tables.global_options()}
    for g in range(len(tables.groups)):
        entries = {}
        for o in tables.options:
            if o["group"] != g:
                continue
            e = entries.setdefault(o["name"], {
                "name": o["name"], "head": heads.pop(o["name"], o["name"]),
                "metavar": o["metavar"], "commands": [], "help": o["help"]})
            if e["metavar"] != o["metavar"]:
                raise Error(f"{o['name']}: two arguments in group {tables.groups[g]!r}")
            e["commands"] += [c for c in o["commands"] if c not in e["commands"]]
        out.append((tables.group_name(g), list(entries.values())))
    # What only the main help has (--version) goes last in Other.
    for name, head in heads.items():
        help_text = dict(tables.global_options())[head]
        out[-1][1].append({"name": name, "head": head, "metavar": None, "commands": None,
                           "help": help_text})
    for _, entries in out:
        for e in entries:
            if e["commands"] is not None:
                e["commands"].sort(key=tables.command_names.index)
    return [(g, es) for g, es in out if es]


def man_commands_note(commands):
    """.RB ( size ", " validate ) """
    parts = []
    for i, c in enumerate(commands):
        parts.append(c)
        if i + 1 < len(commands):
            parts.append('", "')
    return ".RB ( " + " ".join(parts) + " )\n"


def man_regions(tables, desc):
    used = set()

    def body(key, fallback):
        if key in desc:
            used.add(key)
            return desc[key]
        return fallback

    cmds = []
    def batch_list(m):
        """The commands batch runs, as roff lines, the last followed by m's
        punctuation: .BR size , / .B validate / or / .BR view ;"""
        names = tables.batch_commands()
        out = []
        for i, n in enumerate(names):
            if i + 1 == len(names):
                out.append((".BR " + n + " " + m.group(1) if m.group(1) else ".B " + n) + "\n")
            elif i + 2 == len(names):
                out.append(".B " + n + "\nor\n")
            else:
                out.append(".BR " + n + " ,\n")
        return "".join(out)

    token = re.compile(r'^\.\\" ' + re.escape(BATCH_COMMANDS) + r'(?: (\S+))?\n', re.M)
    for c in tables.commands:
        about = " ".join(c["about"].split())
        text = body(("command", c["name"]), roff_text(about))
        cmds.append(".TP\n.B " + c["name"] + "\n" + token.sub(batch_list, text))
    opts = []
    for group, entries in man_entries(tables):
        def narrow(e):
            return e["commands"] is not None and not tables.tensor_commands <= set(e["commands"])
        notes = {tuple(e["commands"]) for e in entries if narrow(e)}
        whole = len(notes) == 1 and all(narrow(e) for e in entries)
        title = group + (" (" + ", ".join(next(iter(notes))) + ")" if whole else "")
        opts.append(".SS " + title + "\n" + body(("group", group), ""))
        for e in entries:
            names = e["head"].split(", ")
            if len(names) > 1:
                head = ".BR " + ' ", " '.join(roff_option(n) for n in names)
            elif e["metavar"]:
                head = ".BI " + roff_option(e["name"]) + ' " ' + e["metavar"] + '"'
            else:
                head = ".B " + roff_option(e["name"])
            note = man_commands_note(e["commands"]) if narrow(e) and not whole else ""
            opts.append(".TP\n" + head + "\n" + note +
                        body(("option", group, e["name"]), roff_text(sentence(e["help"]))))
    examples = []  # each command's --help examples, then its own in the man page
    for c in tables.commands:
        examples += [roff_example(line[2:]) for line in c["examples"].splitlines()]
        examples.append(body(("examples", c["name"]), ""))
    unused = [" ".join(k) for k in desc if k not in used]
    if unused:
        raise Error(f"{DESCRIPTIONS}: no such command, group or option: " + ", ".join(unused))
    rep = tables.repeatable()
    repeatable = ("Each option may be given once, a flag too: a second is a usage error (exit\n"
                  "status 2) naming it. These may be repeated:\n" +
                  "".join(".BR " + roff_option(n) + (" .\n" if i + 1 == len(rep) else " ,\n")
                          for i, n in enumerate(rep)))
    synopsis = []
    for c in tables.commands:
        synopsis.append(".B dmltensor " + c["name"] + "\n" +
                        roff_usage(" ".join(c["usage"].split()[2:])) + ".br\n")
    synopsis.append(".B dmltensor\n" + roff_usage("[--help|--version]"))
    return {"commands": "".join(cmds), "options": "".join(opts), "synopsis": "".join(synopsis),
            "repeatable": repeatable, "examples": "".join(examples)}


def roff_example(line):
    """A line of an example, as the man page's EXAMPLES (in .nf) shows it."""
    return line.replace("\\", "\\e").replace("-", "\\-") + "\n"


def roff_usage(text):
    """A usage line's words after the command, in roman with options bold
    and argument names in italics."""
    out = []
    for tok in re.findall(r"--[a-z][a-z-]*|[A-Z][A-Z0-9]*|[^A-Z-]+|-", text):
        esc = tok.replace("\\", "\\e").replace("-", "\\-")
        if tok.startswith("--"):
            out.append("\\fB" + esc + "\\fR")
        elif tok[0].isupper():
            out.append("\\fI" + esc + "\\fR")
        else:
            out.append(esc)
    line = "".join(out)
    return ("\\&" if line[:1] in ".'" else "") + line + "\n"


# ---------------------------------------------------------------- docs/cli.md

def md_cell(text):
    return text.replace("|", "\\|")


def md_regions(tables):
    rows = ["| command | what it does |\n", "|---|---|\n"]
    for c in tables.commands:
        rows.append(f"| [`{c['name']}`](#dmltensor-{c['name']}) | {md_cell(c['summary'])} |\n")
    regions = {"commands": "".join(rows)}
    head = ["| group | option | description |\n", "|---|---|---|\n"]
    regions["global options"] = "".join(
        head + [f"| Options | `{md_cell(h)}` | {md_cell(t)} |\n"
                for h, t in tables.global_options()])
    for c in tables.commands:
        regions["about of " + c["name"]] = "```\n" + c["usage"] + "\n```\n\n" + c["about"]
        examples = "".join(line[2:] + "\n" for line in c["examples"].splitlines())
        regions["examples of " + c["name"]] = ("Examples (from `--help`):\n\n```sh\n" +
                                              examples + "```\n")
        rows = list(head)
        for o in tables.options_of(c["name"]):
            opt = o["name"] + (" " + o["metavar"] if o["metavar"] else "")
            rows.append(f"| {tables.group_name(o['group'])} | `{md_cell(opt)}` | "
                        f"{md_cell(o['help'])} |\n")
        regions["options of " + c["name"]] = "".join(rows)
    rows = ["| command | `--format` | what each prints |\n", "|---|---|---|\n"]
    for c in tables.commands:
        if c["formats"]:
            names = ", ".join(f"`{f}`" for f in c["formats"])
            rows.append(f"| `{c['name']}` | {names} | {md_cell(c['format_help'])} |\n")
    none = [f"`{c['name']}`" for c in tables.commands if not c["formats"]]
    if none:
        rows.append("| " + ", ".join(none) + " | (no `--format`: JSON Lines) | |\n")
    regions["formats"] = "".join(rows)
    regions["repeatable"] = ("Each option may be given once, a flag too: a second is a usage "
                             "error (`duplicate_option`, exit status 2) naming it. These may "
                             "be repeated: " + ", ".join(f"`{n}`" for n in tables.repeatable()) +
                             ".\n")
    return regions


def batch_md_regions(tables):
    names = [f'`"{n}"`' for n in tables.batch_commands()]
    return {"batch commands": "`command` names the command a record runs: " +
            (", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]) +
            ".\n"}


# ---------------------------------------------------------------- completions

def sh_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def sh_words(indent, first, words, last="", width=100):
    """`first 'w1 w2 ...'last`, the words split over lines of at most width
    columns as several quoted arguments."""
    lines, cur = [], []
    for w in words:
        if cur and len(indent) + len(first) + len(" ".join(cur + [w])) + 6 > width:
            lines.append(cur)
            cur = []
        cur.append(w)
    lines.append(cur)
    out = []
    for i, ws in enumerate(lines):
        lead = indent + first if i == 0 else indent + " " * len(first)
        tail = last if i + 1 == len(lines) else " \\"
        out.append(lead + sh_quote(" ".join(ws)) + tail + "\n")
    return "".join(out)


def fill_words(first, words, indent, cont, width=100):
    """first and the words, continued on lines starting with indent, each
    line but the last ending with cont, none over width columns."""
    lines, cur = [], first
    for i, w in enumerate(words):
        if i and len(cur) + 1 + len(w) + len(cont) > width:
            lines.append(cur + cont)
            cur = indent + w
        else:
            cur += (" " if i else "") + w
    return "\n".join(lines + [cur]) + "\n"


def bash_region(tables):
    out = [f"_dmltensor_commands={sh_quote(' '.join(tables.command_names))}\n",
           "\n",
           "# Options that take no value; every other option takes one.\n",
           f"_dmltensor_flags={sh_quote(' '.join(tables.flags()))}\n",
           "# Commands whose arguments (other than options) are files.\n",
           f"_dmltensor_file_commands={sh_quote(' '.join(tables.file_commands()))}\n",
           "\n",
           "# _dmltensor_options COMMAND: the options COMMAND takes, as its --help\n",
           "# lists them.\n",
           "_dmltensor_options()\n", "{\n", "    case $1 in\n"]
    for c in tables.command_names:
        names = list(dict.fromkeys(o["name"] for o in tables.options_of(c)))
        out.append(f"    {c})\n")
        out.append(sh_words("        ", "echo ", names, " ;;"))
    globals_ = [n for head, _ in tables.global_options() for n in head.split(", ")]
    out.append("    '')\n" + sh_words("        ", "echo ", globals_, " ;;"))
    out += ["    esac\n", "}\n", "\n",
            "# _dmltensor_values COMMAND OPTION: the values to offer for OPTION.\n",
            "_dmltensor_values()\n", "{\n", "    case $2 in\n"]
    for name in dict.fromkeys(o["name"] for o in tables.options):
        groups = [(cmds, vals) for o in tables.options if o["name"] == name
                  for cmds, vals in value_groups(tables, o) if vals]
        if not groups:
            continue
        merged = []
        for cmds, vals in groups:
            for m in merged:
                if m[1] == vals:
                    m[0].extend(cmds)
                    break
            else:
                merged.append((list(cmds), vals))
        if len(merged) == 1:
            out.append(sh_words("    ", f"{name}) echo ", merged[0][1], " ;;"))
            continue
        out.append(f"    {name})\n        case $1 in\n")
        for cmds, vals in merged:
            out.append(sh_words("        ", f"{' | '.join(cmds)}) echo ", vals, " ;;"))
        out.append("        esac\n        ;;\n")
    out += ["    esac\n", "}\n"]
    return {"data": "".join(out)}


def zsh_dq(text):
    """Text for a double-quoted zsh word."""
    if "\\" in text:
        raise Error(f"a backslash in {text!r}: zsh quoting not written for it")
    return re.sub(r'([$`"])', r"\\\1", text)


def zsh_explanation(text):
    return zsh_dq(text).replace("[", "\\[").replace("]", "\\]")


def zsh_spec(tables, option, command, lists):
    name = option["name"]
    spec = ""
    others = [b if a == name else a for a, b in EXCLUSIVE if name in (a, b)]
    others = [x for x in others if any(x == o["name"] for o in tables.options_of(command))]
    if name == "--help":
        spec = "(- *)"
    elif others:
        spec = "(" + " ".join(others) + ")"
    elif option["repeatable"]:
        spec = "*"
    expl = "[" + zsh_explanation(option["help"]) + "]"
    if option["metavar"] is None:
        return '"' + spec + name + expl + '"'
    vals = tables.values(option, command)
    if vals is None:
        action = ""
    elif name in lists:
        action = "($" + var_name(name) + ")"
    else:
        action = "(" + " ".join(vals) + ")"
    message = zsh_dq(option["metavar"]).replace(":", "\\:")
    return '"' + spec + name + "=" + expl + ":" + message + ":" + action + '"'


def zsh_regions(tables):
    lists = long_lists(tables)
    data = ["  local -a commands globals " + " ".join(var_name(n) for n in lists) + "\n",
            "  commands=(\n"]
    for c in tables.commands:
        data.append("    " + sh_quote(c["name"] + ":" + c["summary"]) + "\n")
    data.append("  )\n")
    for name, vals in lists.items():
        data.append(fill_words("  " + var_name(name) + "=(", vals, "    ", " \\")[:-1] + ")\n")
    data.append("  globals=(\n")
    for head, text in tables.global_options():
        names = head.split(", ")
        expl = "[" + zsh_explanation(text) + "]"
        if len(names) > 1:
            data.append("    '(- *)'{" + ",".join(names) + '}"' + expl + '"\n')
        else:
            data.append("    '(- *)'" + names[0] + '"' + expl + '"\n')
    data.append("  )\n")
    files = tables.file_commands()
    cases = []
    for c in tables.command_names:
        specs = [zsh_spec(tables, o, c, lists) for o in tables.options_of(c)]
        if c in files:
            specs.append("'1:file (- for stdin):_files'")
        cases.append(f"    {c})\n      _arguments \\\n")
        cases += [f"        {s} \\\n" for s in specs]
        cases.append("        && ret=0\n      ;;\n")
    return {"data": "".join(data), "options": "".join(cases)}


def fish_quote(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish_regions(tables):
    lists = long_lists(tables)
    data = [f"set -g __dmltensor_commands {' '.join(tables.command_names)}\n"]
    for name, vals in lists.items():
        data.append(fill_words(f"set -l {var_name(name)} ", vals, "    ", " \\"))
    data.append("\n# Commands, before there is one.\n")
    data.append('set -l no_cmd "not __fish_seen_subcommand_from $__dmltensor_commands"\n')
    for c in tables.commands:
        data.append(f"complete -c dmltensor -n $no_cmd -a {c['name']} -d "
                    f"{fish_quote(c['summary'])}\n")
    for head, text in tables.global_options():
        flags = " ".join(("-s " + n[1:]) if not n.startswith("--") else ("-l " + n[2:])
                         for n in head.split(", "))
        data.append(f"complete -c dmltensor -n $no_cmd {flags} -d {fish_quote(text)}\n")
    opts = []
    for g in range(len(tables.groups)):
        lines = []
        for o in tables.options:
            if o["group"] != g:
                continue
            for cmds, vals in value_groups(tables, o):
                line = f"__dmltensor_opt {fish_quote(' '.join(cmds))} {o['name']} " \
                       f"{fish_quote(o['help'])}"
                if o["metavar"] is None:
                    line += " -"
                elif o["name"] in lists:
                    line += " $" + var_name(o["name"])
                elif vals:
                    line += " " + " ".join(vals)
                lines.append(line + "\n")
        if lines:
            opts.append(f"# {tables.group_name(g)}\n")
            opts += lines
    opts.append("\n# File arguments (- is stdin).\n")
    opts.append("complete -c dmltensor -n " +
                fish_quote("__fish_seen_subcommand_from " + " ".join(tables.file_commands())) +
                " -F\n")
    return {"data": "".join(data), "options": "".join(opts)}


# ---------------------------------------------------------------------- main

def generate(tables, root):
    """{path: new text} of every file the script writes."""
    def read(rel):
        with open(os.path.join(root, rel), encoding="utf-8", newline="") as f:
            return f.read()

    desc = read_descriptions(os.path.join(root, DESCRIPTIONS))
    tables.check_formats()
    todo = [(MAN, man_regions(tables, desc)), (CLI_MD, md_regions(tables)),
            (BATCH_MD, batch_md_regions(tables)),
            (BASH, bash_region(tables)), (ZSH, zsh_regions(tables)),
            (FISH, fish_regions(tables))]
    return {rel: replace_regions(rel, read(rel), regions) for rel, regions in todo}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tables", help="build/dmlt_dump_tables, or a JSON file of its output")
    p.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."),
                   help="the source tree (default: this script's parent directory)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; show the differences and exit 1 if any")
    args = p.parse_args(argv)
    try:
        files = generate(load_tables(args.tables), args.root)
    except (Error, OSError, ValueError, KeyError, subprocess.CalledProcessError) as e:
        print(f"gen_docs.py: {e}", file=sys.stderr)
        return 2
    stale = 0
    for rel, text in files.items():
        path = os.path.join(args.root, rel)
        with open(path, encoding="utf-8", newline="") as f:
            old = f.read()
        if old == text:
            continue
        stale += 1
        if args.check:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(keepends=True), text.splitlines(keepends=True),
                f"a/{rel}", f"b/{rel} (regenerated)"))
        else:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            print(f"gen_docs.py: wrote {rel}")
    if args.check:
        if stale:
            print(f"\n{stale} file(s) stale: regenerate them with\n"
                  "  cmake --build build --target regen-docs\n"
                  "(or python3 tools/gen_docs.py build/dmlt_dump_tables) and commit the result;\n"
                  "a description of the man page goes in " + DESCRIPTIONS + ", the rest in "
                  "src/cli/options.c or the command's cmd_*.c.")
            return 1
        print(f"{len(files)} files up to date with the tables")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
