#!/usr/bin/env python3
"""Hostile input: hundreds of malformed invocations, generated systematically.

Usage: check_hostile.py DMLTENSOR [--tables=DUMP] [--lenient] [--list] [--every=N]

For each command (every command of the tables tools/dump_tables.c prints:
DUMP, default dmlt_dump_tables beside DMLTENSOR) it takes a valid
invocation and breaks one thing: a bad number in each numeric option
("-1", "+1", "1e3", "0x10", " 1", "", "1,,2", 2^32, 2^64, "１", "٣",
control bytes, ...), a list of 65,536 items (the longest one argv word can
hold), a number of 10^5 digits, 9 dimensions, an empty field, an
unknown or misplaced option, a missing value, conflicting options, each
option that is not repeatable given twice (a flag too: the error is
duplicate_option, naming it), an unknown data type or layout, a malformed or refused
view operation, ... Every one must:

  - exit with status 2 (usage error),
  - print a message on stderr that starts with "dmltensor: ",
  - print nothing on stdout;

and again with --format json: stdout is exactly one line, a JSON object
with an "error" key, and the message is still on stderr.

It also checks the I/O contract: stdout on /dev/full is exit 3 with a
message; a reader that goes away (`| head -c1`) ends a long output quietly
with status 0.

It also fails when stderr holds control bytes other than newline (user
text in messages is escaped); --lenient turns that check off.
--list prints the invocations; --every=N runs every Nth (for slow runs,
such as under valgrind). DMLT_WRAPPER (e.g. "valgrind -q
--error-exitcode=99") is put in front of each command, as run_golden.py does.
"""
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

U32 = 2**32 - 1
U64 = 2**64 - 1

# Texts that are never a decimal number (nor a list of them).
NOT_NUMBERS = ["-1", "+1", "1e3", "0x10", " 1", "1 ", "", "1.5", "1_000", "0b1", "NaN", "inf",
               "\uff11", "\u0663", "\u0661\u0662", "1\x01", "\x7f", "1\t", "\x1b[31m", "--1",
               "1;2", "1/2", "1\u00a0"]
# ... and list texts that are malformed as lists.
BAD_LISTS = ["1,,2", "1,", ",1", ",", "1,,", "1, 2", "1 ,2", "1;2", "[1,2]", "1,-2", "1,2,"]
# The longest list one argv word can hold (Linux: 128 KiB a word): 65,536
# items. 10^5 items ("1,1,...", 200 KB) would be refused by execve itself.
LONG_LIST = ",".join(["1"] * 65536)
LONG_NUMBER = "1" * 100000
MAX_WORD = 131071  # the longest argv word (Linux: 128 KiB with its NUL)
# The longest number one argv word holds (Linux: 128 KiB a word, the NUL
# and a "w=" included): a megabyte of digits cannot be an argument.
HUGE_NUMBER = "9" * 131000
NINE = ",".join(["1"] * 9)
# The bad numbers every numeric option gets, with the others by kind.
ALWAYS_BAD = ["", "-1", "1e3", "0x10", " 5", "5x", HUGE_NUMBER]


def over(limit):
    """Numbers just past `limit` and far past it (2^63, 2^64, 10^5 digits)."""
    past = [str(limit + 1)] + [str(n) for n in (2**63, 2**64) if n > limit + 1]
    return past + ["99999999999999999999999", LONG_NUMBER]


def under(low):
    """The number just below `low`, when there is one (-1 is never a number)."""
    return [str(low - 1)] if low > 0 else []


# The commands and their options come from the tables (tools/dump_tables.c,
# load_tables()): every command, and every option a command takes, is
# tested, a new one too. What the tables cannot say is here.

# The smallest valid invocation of a command; one not listed takes
# `NAME --sizes 2,3` when it takes --sizes, else `NAME`. A command that reads
# a FILE reads a real one, which it reads whole without the broken option
# (an option it did not check would not fail on an empty input only).
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
MODEL = os.path.join(DATA, "onnx", "convnet.onnx")
BASE = {
    "offset": ["offset", "--sizes", "2,3", "--coord", "1,2"],
    "locate": ["locate", "--sizes", "2,3", "--offset", "1"],
    "view": ["view", "--sizes", "2,3", "--slice", "h=0:1"],
    "scan": ["scan", MODEL],
    "plan": ["plan", MODEL, "--dim", "N=2"],
    "nodes": ["nodes", MODEL],
    "batch": ["batch", os.path.join(DATA, "batch_mixed.jsonl")],
}
# An option that its command's base invocation would conflict with: its own.
BASE_FOR = {("locate", "--byte-offset"): ["locate", "--sizes", "2,3"]}
# A valid value for an option given twice (any other takes "1": the second
# is refused before any value is read).
GOOD = {"--dtype": "float16", "--sizes": "2,3", "--strides": "3,1", "--layout": "hw",
        "--order": "0,1", "--rank": "2", "--row-pitch-align": "256", "--total-size": "64",
        "--field": "strides", "--format": "text", "--base-offset": "16", "--offset": "1",
        "--byte-offset": "4", "--limit": "2", "--alignment": "16", "--flags": "none",
        "--binding-size": "64", "--buffer-size": "4096", "--name": "input"}


class Tables:
    """The command and option tables, as tools/dump_tables.c prints them."""

    def __init__(self, doc):
        self.commands = {c["name"]: c for c in doc["commands"]}
        self.options = doc["options"]

    def options_of(self, cmd):
        """{name: entry} of the options cmd takes."""
        return {o["name"]: o for o in self.options if cmd in o["commands"]}

    def base(self, cmd):
        if cmd in BASE:
            return BASE[cmd]
        if self.commands[cmd]["args"] != "none":
            return [cmd, "-"]
        return [cmd, "--sizes", "2,3"] if "--sizes" in self.options_of(cmd) else [cmd]

    def json_errors(self, argv):
        """Whether an error of this invocation is JSON too with --format
        json: not for a command that has no --format, nor for one whose
        errors go to stderr alone, whatever its --format (scan)."""
        c = self.commands.get(argv[0] if argv else None)
        return c is None or ("json" in c["formats"] and not c["text_errors"])

    def json_by_default(self, argv):
        """Whether, without --format, this command's errors are JSON too: its
        default format is json or jsonl (plan)."""
        c = self.commands.get(argv[0] if argv else None)
        asked = any(a.startswith("--format=") for a in argv) or \
            any(a == "--format" for a in argv[:-1])  # a --format with its value
        return bool(c) and not asked and not c["text_errors"] and \
            any(f in ("json", "jsonl") for f in c.get("default_format", []))

    def misplaced(self, cmd):
        """An option of another command, not of cmd."""
        mine = self.options_of(cmd)
        return next(o["name"] for o in self.options if o["name"] not in mine)


def load_tables(binary, tables=None):
    """The tables from the dump program: `tables`, else dmlt_dump_tables
    beside the binary."""
    if tables is None:
        d = os.path.dirname(os.path.abspath(binary))
        tables = os.path.join(d, "dmlt_dump_tables" + (".exe" if binary.endswith(".exe") else ""))
    out = subprocess.run([tables], stdout=subprocess.PIPE, check=True).stdout
    return Tables(json.loads(out.decode("utf-8")))


def bad_texts(kind, low, high, rank_list):
    """(value, its bad part) of an option whose numbers are `kind`
    (dmlt_dump_tables' "number"), each low..high."""
    signed = kind in ("signed_list", "named_signed")
    words = [b for b in ALWAYS_BAD + NOT_NUMBERS if not (signed and b == "-1")]
    words = list(dict.fromkeys(words))  # once each, in order
    if kind == "named_signed":  # an index of a dim: only its syntax and size
        return [(w, w) for w in words + over(U64)]
    if kind == "dims":  # dimension indices (or letters): below the rank, repeats allowed
        return [(w, w) for w in words + BAD_LISTS + over(U64)]
    limits = over(high) + under(low)
    if rank_list:  # layouts --rank (scan's too): a rank, not a list of them
        return [(b, b) for b in words + BAD_LISTS + ["0", "9", "1,2"] + limits]
    if kind in ("one", "named"):
        return [(b, b) for b in words + ["1,2"] + limits]
    bad = [(b, b) for b in words + BAD_LISTS + limits + [LONG_LIST]]
    if kind == "list":  # a DirectML tensor's: 8 dims at most (--shape's ONNX: more)
        bad.append((NINE, NINE))
    return bad + [("2," + b, b) for b in words + limits if b]


def bad_numbers(cmd, base, opt, number, rank_list):
    """Yields the cases of one numeric option of cmd: each bad text, alone
    and glued with '='; each must be a usage error naming opt, quoting the
    value as given and, past the largest, giving the largest."""
    others = list(BASE_FOR.get((cmd, opt), base))
    if opt in others:  # replace the option's value
        i = others.index(opt)
        del others[i:i + 2]
    kind, low, high = number["kind"], int(number["min"]), int(number["max"])
    prefix = "w=" if kind.startswith("named") else ""  # a dim of 2,3, or a symbol
    bad = bad_texts(kind, low, high, rank_list and opt == "--rank")
    if opt == "--flags":
        bad += [(b, b) for b in ["fast", "owned", "DML_TENSOR_FLAG_"]]
    if opt == "--sizes":
        bad += [(b, None) for b in ["1,0,3", "2,4294967295,4294967295"]]
    for j, (value, part) in enumerate(bad):
        if len(prefix + value) > MAX_WORD:  # 65,535 items after "w=", not 65,536
            value = value[len(prefix):]
        past = part in over(high) and kind not in ("named_signed", "dims")  # an index
        yield (f"{cmd} {opt} bad#{j}", others + [opt, prefix + value], True,
               (None, opt, (prefix + value, value), high if past else None))
    yield (f"{cmd} {opt}= empty", others + [opt + "=" + prefix], True,
           (None, opt, (prefix, ""), None))
    yield (f"{cmd} {opt}=5x", others + [opt + "=" + prefix + "5x"], True,
           (None, opt, (prefix + "5x", "5x"), None))


def generate(tables):
    """Yields (name, argv words, json_variant_ok, expected): expected is
    None, or (error id or None, option, (value as given, its bad part) or
    None, largest or None): the error must be about that option (with that
    id), quote the value or its bad part, and give the option's largest
    value when the text is past it."""
    for cmd in tables.commands:
        base = tables.base(cmd)
        opts = tables.options_of(cmd)
        files = tables.commands[cmd]["args"] != "none"
        # A bad value for each numeric option: the table says which are,
        # and their bounds.
        for opt, o in opts.items():
            if o["number"] is not None:
                yield from bad_numbers(cmd, base, opt, o["number"], "--sizes" not in opts)

        # A value missing at the end; each option that is not repeatable
        # given twice (a flag too) is duplicate_option, naming it.
        for opt, o in opts.items():
            if o["metavar"] is not None:
                yield f"{cmd} {opt} missing", base + [opt], opt != "--format", None
            if o["repeatable"]:
                continue
            once = [opt] if o["metavar"] is None else [opt, GOOD.get(opt, "1")]
            argv = base + once if opt in base else base + once + once
            yield f"{cmd} {opt} twice", argv, True, ("duplicate_option", opt)

        # Unknown, misplaced and malformed options; stray arguments (not
        # for a command that reads files: they would be its files).
        junks = ["--sizez", "--foo", "-x", "-", "--", "---sizes", "--SIZES", "--help=yes",
                 "--Sizes", "--\x01", "--sizes\u00a0", "extra", "1,3", "\uff0d\uff0dsizes"]
        for j, junk in enumerate(junks):
            if not files or junk.startswith("--"):
                yield f"{cmd} junk#{j}", base + [junk], True, None
        misplaced = tables.misplaced(cmd)
        yield f"{cmd} misplaced {misplaced}", base + [misplaced, "1"], True, None
        if files:
            continue
        if "--sizes" not in opts:
            for j, fmt in enumerate(["yaml", "JSON", "", "env", "json ", "text,json"]):
                if fmt not in tables.commands[cmd]["formats"]:
                    yield f"{cmd} --format bad#{j}", base + ["--format", fmt], False, None
            continue

        # Tensor commands: data types, layouts and their modifiers.
        for j, dt in enumerate(["float17", "", "FLOAT33", "DML_TENSOR_DATA_TYPE_", "int3",
                                "\uff46\uff4c\uff4f\uff41\uff54", "float16 ", "f\x01", "bfloat16",
                                "DML_TENSOR_DATA_TYPE_FLOAT16X", "x" * 100000]):
            yield f"{cmd} --dtype bad#{j}", base + ["--dtype", dt], True
        for j, lay in enumerate(["nhwc", "hwx", "hhw", "", "h", "0,1,1", "0,2", "0,1,2",
                                 "row", "col", "row-major ", "1,0,", ",1,0", "0x1,0",
                                 "\u0127w", "-1,0"]):
            yield f"{cmd} --layout bad#{j}", base + ["--layout", lay], True
        for j, order in enumerate(["0,0", "1", "0,1,2", "", "a,b", "0,,1", "2,0", "-0,1"]):
            yield f"{cmd} --order bad#{j}", base + ["--order", order], True
        for j, bc in enumerate(["x", "", "9", "2", "h,", ",h", "h,,w", "-1", "n", "hw2",
                                "\x01"]):
            yield f"{cmd} --broadcast bad#{j}", base + ["--broadcast", bc], True
        for j, pad in enumerate(["w", "w=", "=2", "w=-1", "q=1", "w=4294967296", "h=1",
                                 "w=1,", "w=1,,h=1", "", "w==1", "w=1=2", "2=1", "w=0x1",
                                 "w=4294967295,w=1"]):
            yield f"{cmd} --pad bad#{j}", base + ["--pad", pad], True
        yield f"{cmd} broadcast x17", base + ["--broadcast", "w"] * 17, True
        yield f"{cmd} pad x17", base + ["--pad", "w=1"] * 17, True
        for j, rp in enumerate(["6", "3", "1"]):  # not whole float32 elements
            yield f"{cmd} --row-pitch-align bad#{j}", base + ["--row-pitch-align", rp], True
        # Conflicts.
        yield f"{cmd} strides+layout", base + ["--strides", "3,1", "--layout", "hw"], True
        yield f"{cmd} strides+order", base + ["--strides", "3,1", "--order", "0,1"], True
        yield f"{cmd} layout+order", base + ["--layout", "hw", "--order", "0,1"], True
        yield f"{cmd} strides+broadcast", base + ["--strides", "3,1", "--broadcast", "h"], True
        yield f"{cmd} strides+pad", base + ["--strides", "3,1", "--pad", "w=1"], True
        yield f"{cmd} strides+pitch", base + ["--strides", "3,1", "--row-pitch-align", "256"], True
        # Shapes that cannot be.
        yield f"{cmd} strides count", base + ["--strides", "1"], True
        yield f"{cmd} strides 9", base + ["--strides", NINE], True
        yield f"{cmd} rank smaller", base + ["--rank", "1"], True
        yield f"{cmd} stride range", base[:1] + ["--sizes", "2,65536,65536"] + base[3:], True
        yield f"{cmd} rank stride range", base[:1] + ["--sizes", "65536,65536", "--strides",
                                                      "65536,1", "--rank", "4"] + base[3:], True
        yield f"{cmd} pad outermost", base + ["--pad", "h=1"], True
        yield f"{cmd} pitch rank1", base[:1] + ["--sizes", "3", "--row-pitch-align",
                                                "256"] + base[3:], True

    # Per-command extras.
    yield "size --field unknown", ["size", "--sizes", "2,3", "--field", "nope"], True
    yield "size --field empty", ["size", "--sizes", "2,3", "--field", ""], True
    yield "size --field+json", ["size", "--sizes", "2,3", "--field", "strides", "--format",
                                "json"], False
    yield "size --format env+field", ["size", "--sizes", "2,3", "--field", "strides",
                                      "--format", "env"], False
    for j, fmt in enumerate(["yaml", "JSON", "", "csv", "json ", "text,json"]):
        yield f"size --format bad#{j}", ["size", "--sizes", "2,3", "--format", fmt], False
    yield "offset --format env", ["offset", "--sizes", "2", "--coord", "1", "--format", "env"], False
    yield "offset no coord", ["offset", "--sizes", "2,3"], True
    yield "offset coord count", ["offset", "--sizes", "2,3", "--coord", "1,1,1"], True
    yield "offset coord 9", ["offset", "--sizes", "2,3", "--coord", NINE], True
    yield "offset coord long", ["offset", "--sizes", "2,3", "--coord", LONG_LIST], True
    yield "locate none", ["locate", "--sizes", "2,3"], True
    yield "locate both", ["locate", "--sizes", "2,3", "--offset", "1", "--byte-offset", "4"], True
    yield "locate limit 0", ["locate", "--sizes", "2,3", "--offset", "1", "--limit", "0"], True
    yield "validate flags name", ["validate", "--sizes", "2", "--flags", "DML_TENSOR_FLAG_X"], True
    # view: each operation's malformed and refused texts (on sizes 2,3).
    view_bad = {
        "--slice": ["", "h", "h=", "h=1", "x=0:1", "2=0:1", "=0:1", "h=a:b", "h=1.5:", "h=+1:",
                    "h=0:1:0", "h=::-1", "h=0:1:-2", "h=2:1", "h=5:", "h=:-9", "h=0:1:1:1",
                    "h=0x1:", "h=\x01:", "h=" + "9" * 100 + ":" + "9" * 100, "h=0:1:" + "9" * 40 + "x",
                    "h= 0:1", "\uff48=0:1"],
        "--select": ["", "h", "h=", "h=2", "h=-3", "h=1.0", "h=+1", "q=0", "h=0=1",
                     "h=" + "9" * 100, "h=-" + "9" * 100],
        "--permute": ["", "h", "hh", "0,0", "0,1,2", "1,0,", "2,0", "x,y", "-1,0", "hwx"],
        "--broadcast-to": ["3", "4,4", "2,4", "0,3", "1,2,3,4,5,6,7,8,9", "-1,3"],
        "--reshape": ["", "0", "4", "-1,-1", "7,-1", "-2,3", "1.5,4", "2,3,", "4294967296,1",
                      "1,1,1,1,1,1,1,1,6", "6,-1," , "+6"],
        "--split": ["", "h", "h=", "h=0", "h=3", "h=1+2", "h=1+", "h=+1", "h=1++1", "h=-1",
                    "h=2+0", "h=4097", "q=2", "w=2"],
    }
    for opt, values in view_bad.items():
        for j, value in enumerate(values):
            yield f"view {opt} bad#{j}", ["view", "--sizes", "2,3", opt, value], True
    yield "view ops x17", ["view", "--sizes", "2,3"] + ["--slice", "h=:"] * 17, True
    yield "view select rank1", ["view", "--sizes", "2", "--select", "w=0"], True
    yield "view too many views", ["view", "--sizes", "4097", "--split", "w=4097"], True
    for j, cmd in enumerate(["sise", "", "SIZE", "--sizes", "Size", "size ", "\x01",
                             "dtype", "layout", "-", "--", "--versions", "--help=1"]):
        yield f"command bad#{j}", [cmd, "--sizes", "1"], True
    yield "command only option", ["--sizes"], True


def wrapper():
    return shlex.split(os.environ.get("DMLT_WRAPPER", ""))


def run(binary, argv, stdout=subprocess.PIPE):
    env = dict(os.environ, LC_ALL="C")
    env.pop("NO_COLOR", None)
    p = subprocess.run(wrapper() + [binary] + argv, stdout=stdout, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, env=env, timeout=120)
    return p.returncode, p.stdout or b"", p.stderr


def json_asked(argv):
    """Whether the words ask for JSON, as dmltensor reads them before it has
    parsed the command line (so even when --format is what is wrong)."""
    return "--format=json" in argv or any(
        a == "--format" and b == "json" for a, b in zip(argv, argv[1:]))


def with_json(argv, commands):
    """The invocation with --format json right after the command (at the
    end when the command itself is what is wrong)."""
    if argv and argv[0] in commands:
        return argv[:1] + ["--format", "json"] + argv[1:]
    return argv + ["--format", "json"]


def quotable(text):
    """Whether a message can be asked to quote text as given: short,
    printable ASCII (other text is escaped or cut)."""
    return len(text) <= 64 and all(" " <= c <= "~" for c in text)


def check_usage(binary, argv, json_mode, strict, expected=None):
    """Problems of a usage error; expected: None, or (error id or None,
    option, bad text or None, largest or None) as generate() gives it."""
    code, out, err = run(binary, argv)
    problems = []
    want_id, opt, text, largest = (tuple(expected or ()) + (None,) * 4)[:4]
    if opt and not json_mode and not err.startswith(f"dmltensor: {opt}: ".encode()):
        problems.append(f"stderr does not name {opt} first: {err[:200]!r}")
    # text: (the value as given, its bad part): the message quotes either
    # (--shape x=5x: "5x"), unless the text is too long or unprintable.
    quoted = [t for t in text or () if t is not None and quotable(t)]
    if len(quoted) == len(text or ()) and quoted and \
            not any(f'"{t}"'.encode() in err for t in quoted):
        problems.append(f"stderr does not quote the bad text {text[0]!r}: {err[:200]!r}")
    if largest is not None and str(largest).encode() not in err:
        problems.append(f"stderr does not give {opt}'s largest value {largest}: {err[:200]!r}")
    if code != 2:
        problems.append(f"exit status {code}, expected 2")
    if not err.startswith(b"dmltensor: "):
        problems.append(f"stderr does not start with 'dmltensor: ': {err[:200]!r}")
    if len(err) > 4000:
        problems.append(f"stderr is {len(err)} bytes: long input should be cut")
    if strict and any((c < 0x20 and c != 0x0A) or c == 0x7F for c in err):
        problems.append(f"stderr holds control bytes: {err[:300]!r}")
    if not json_mode:
        if out:
            problems.append(f"stdout is not empty: {out[:200]!r}")
    else:
        lines = out.split(b"\n")
        if len(lines) != 2 or lines[1] != b"":
            problems.append(f"stdout is not exactly one line: {out[:200]!r}")
        else:
            try:
                obj = json.loads(lines[0])
                if not isinstance(obj, dict) or set(obj) != {"error"} or \
                        not isinstance(obj["error"], dict):
                    problems.append(f"stdout is not an error object: {out[:200]!r}")
                elif opt and (obj["error"].get("option") != opt or
                              (want_id and obj["error"].get("id") != want_id)):
                    problems.append(f"not the error {want_id or 'any'} of {opt}: {out[:200]!r}")
            except ValueError as ex:
                problems.append(f"stdout is not JSON ({ex}): {out[:200]!r}")
    return problems


def check_undeclared(binary, tables):
    """(name, problems) for each option with a value that the table does
    not call numeric: if it refuses 5x as no decimal number, naming itself,
    it reads a number, and the table must say so (or its bad numbers go
    untested)."""
    results = []
    for cmd in tables.commands:
        base = tables.base(cmd)
        for opt, o in tables.options_of(cmd).items():
            if o["metavar"] is None or o["number"] is not None or opt == "--format":
                continue
            others = list(BASE_FOR.get((cmd, opt), base))
            if opt in others:
                i = others.index(opt)
                del others[i:i + 2]
            code, _, err = run(binary, others + [opt, "5x"])
            problems = []
            # parse.c words a text that is no number "... is not a decimal number"
            if code == 2 and err.startswith(f"dmltensor: {opt}: ".encode()) and \
                    b"decimal" in err:
                problems.append(f"{opt} reads a number ({err.decode(errors='replace').strip()})"
                                ": the option table (options.c) should give its numbers "
                                "(NUMBER(min, max), ...)")
            results.append((f"{cmd} {opt}: a number or not", problems))
    return results


def check_io(binary):
    """(name, problems) for the /dev/full and closed-pipe contracts."""
    results = []
    full = [["size", "--sizes", "1,3,224,224"], ["size", "--sizes", "2,3", "--format", "json"],
            ["size", "--sizes", "2,3", "--format", "env"], ["offset", "--sizes", "2,3", "--coord", "1,1"],
            ["locate", "--sizes", "2,3", "--offset", "1"], ["validate", "--sizes", "2,3"],
            ["validate", "--sizes", "1,1,2,4", "--total-size", "3"], ["dtypes"],
            ["layouts", "--rank", "5"], ["--help"], ["--version"], ["size", "--help"],
            ["locate", "--sizes", "1000000,3", "--broadcast", "h", "--offset", "1"],
            ["size", "--sizes", "0", "--format", "json"]]
    for argv in full:
        with open("/dev/full", "wb") as f:
            code, _, err = run(binary, argv, stdout=f)
        problems = []
        if code != 3:
            problems.append(f"exit status {code}, expected 3")
        if not err.startswith(b"dmltensor: ") or b"write error" not in err:
            problems.append(f"no write error message on stderr: {err[:200]!r}")
        results.append((f"> /dev/full: {shlex.join(argv)}", problems))

    for argv in (["locate", "--sizes", "1000000,3", "--broadcast", "h", "--offset", "1"],
                 ["locate", "--sizes", "1000000,3", "--broadcast", "h", "--offset", "1",
                  "--format", "json"]):
        env = dict(os.environ, LC_ALL="C")
        p = subprocess.Popen(wrapper() + [binary] + argv, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)
        first = p.stdout.read(1)  # `| head -c1`
        p.stdout.close()
        err = p.stderr.read()
        code = p.wait(timeout=120)
        problems = []
        if len(first) != 1:
            problems.append("no output")
        if code != 0:
            problems.append(f"exit status {code}, expected 0 (quiet end on a closed pipe)")
        if err:
            problems.append(f"stderr is not empty: {err[:200]!r}")
        results.append((f"| head -c1: {shlex.join(argv)}", problems))
    results += check_model_to_full(binary)
    return results


def check_model_to_full(binary):
    """(name, problems): scan, plan and nodes of a model whose output is
    written out as it grows (a chain of 2,000 Relu nodes: more than one
    chunk), into /dev/full, in JSON and text: exit 3 and the write error
    said once (in JSON the error object could not be written either)."""
    from protobuf_bytes import msg
    import tempfile
    nodes = b"".join(msg(1, msg(1, b"r%d" % (i - 1) if i else b"x") + msg(2, b"r%d" % i) +
                            msg(4, b"Relu")) for i in range(2000))
    x = msg(11, msg(1, b"x") + msg(2, msg(1, b"\x08\x01" + msg(2, msg(1, b"\x08\x01") +
                                                               msg(1, b"\x08\x08")))))
    y = msg(12, msg(1, b"r1999"))
    model = b"\x08\x08" + msg(8, b"\x10\x11") + msg(7, nodes + msg(2, b"g") + x + y)
    results = []
    with tempfile.NamedTemporaryFile(suffix=".onnx") as f:
        f.write(model)
        f.flush()
        for argv in (["scan", f.name], ["plan", f.name], ["nodes", f.name],
                     ["nodes", f.name, "--format", "csv"], ["plan", f.name, "--format", "text"]):
            with open("/dev/full", "wb") as out:
                code, _, err = run(binary, argv, stdout=out)
            problems = []
            if code != 3:
                problems.append(f"exit status {code}, expected 3")
            if err.count(b"write error") != 1:
                problems.append(f"the write error said {err.count(b'write error')} times: "
                                f"{err[:300]!r}")
            results.append((f"> /dev/full: {argv[0]} (a 2,000-node model) {shlex.join(argv[2:])}",
                            problems))
    return results


def check_record_limits(binary):
    """(name, problems): a batch record of exactly 1 MiB is read, one byte
    more is record_too_long and ends the reading at once (exit 2: the rest
    of an endless line is never read); a CRLF line end and an array element
    alike."""
    results = []
    limit = 1 << 20
    rec = b'{"sizes":[1]}'
    for size, end, form in ((limit, b"\n", "lines"), (limit, b"\r\n", "lines"),
                            (limit + 1, b"\n", "lines"), (limit + 1, b"\r\n", "lines"),
                            (limit, b"", "array"), (limit + 1, b"", "array")):
        body = rec + b" " * (size - len(rec))
        data = body + end if form == "lines" else b"[" + body + b"]"
        data += b'{"id":2,"sizes":[2]}\n'  # read after a record within the cap
        p = subprocess.run(wrapper() + [binary, "batch", "-"], input=data, capture_output=True)
        lines = p.stdout.decode("utf-8", "replace").splitlines()
        want_error = size > limit
        problems = []
        if len(lines) != (1 if want_error else 2):
            problems.append(f"{len(lines)} output lines, expected {1 if want_error else 2}")
        elif want_error != ('"error":{"id":"record_too_long"' in lines[0]):
            problems.append(f"first record: {lines[0][:200]}")
        elif not want_error and ('"id":2' not in lines[1] or '"error"' in lines[1]):
            problems.append(f"second record: {lines[1][:200]}")
        elif want_error and b"line 1: the record is longer than 1048576 bytes" not in p.stderr:
            problems.append(f"stderr: {p.stderr[:200]!r}")
        if p.returncode != (2 if want_error else 0):
            problems.append(f"exit status {p.returncode}")
        crlf = " + CRLF" if end == b"\r\n" else ""
        results.append((f"batch: a {form} record of {size} bytes{crlf}", problems))
    return results


def quote(word):
    """A shell word; $'...' with escapes when it holds unprintable bytes."""
    if word.isprintable():
        return shlex.quote(word)
    esc = "".join(c if c.isprintable() and c not in "'\\" else
                  (f"\\x{ord(c):02x}" if ord(c) < 0x80 else c) for c in word)
    return "$'" + esc + "'"


def show(argv):
    text = " ".join(quote(a) for a in argv)
    return text if len(text) < 200 else text[:200] + f"... ({len(text)} chars)"


def cases(tables):
    """[(name, argv, json_ok, expected)] of generate(), each with its
    expectation (None when it has none)."""
    return [tuple(c) + (None,) * (4 - len(c)) for c in generate(tables)]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    strict = "--lenient" not in sys.argv
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    binary = args[0]
    tables = load_tables(binary, next((a[len("--tables="):] for a in sys.argv[1:]
                                       if a.startswith("--tables=")), None))
    all_cases = cases(tables)
    if "--list" in sys.argv:
        for name, argv, _, _ in all_cases:
            print(f"{name}: {show(argv)}")
        return 0
    failed = total = 0
    for cmd in tables.commands:  # each base invocation is valid
        if tables.commands[cmd]["args"] != "none" and cmd not in BASE:
            continue  # reads standard input: only its options are tested
        total += 1
        code, _, err = run(binary, tables.base(cmd))
        if code not in (0, 1):
            failed += 1
            print(f"FAIL the base invocation of {cmd}: dmltensor {show(tables.base(cmd))}: "
                  f"exit status {code} (add a valid one to BASE): {err[:200]!r}")
    every = 1
    for a in sys.argv[1:]:
        if a.startswith("--every="):
            every = max(1, int(a[len("--every="):]))
    runs = []
    for name, argv, json_ok, expected in all_cases[::every]:
        runs.append((name, argv, json_asked(argv) or tables.json_by_default(argv), expected))
        if json_ok and tables.json_errors(argv):
            runs.append((name, with_json(argv, tables.commands), True, expected))
    # Two at a time: each invocation waits on its own process.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda r: check_usage(binary, r[1], r[2], strict, r[3]), runs)
        for (name, v, json_mode, _), problems in zip(runs, results):
            total += 1
            if problems:
                failed += 1
                print(f"FAIL {name}{' (json)' if json_mode else ''}: dmltensor {show(v)}")
                for p in problems:
                    print("  " + p)
    for name, problems in check_io(binary) + check_record_limits(binary) + \
            check_undeclared(binary, tables):
        total += 1
        if problems:
            failed += 1
            print(f"FAIL {name}")
            for p in problems:
                print("  " + p)
    print(f"{total - failed} passed, {failed} failed ({len(all_cases[::every])} malformed "
          f"invocations, with and without --format json, and the I/O checks)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
