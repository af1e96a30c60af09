#!/usr/bin/env python3
"""Runs every example of `dmltensor --help`, of `dmltensor COMMAND --help`
for each command the main help lists, and of the man page's EXAMPLES, and
checks that every --help example is also in the man page, so neither can go
stale (check_doc_examples.py does the same for the Markdown pages).

Where the examples are:
- --help: the lines after "Examples:" (or "Example:") up to a blank line,
  indented; a line ending in a backslash goes on on the next one.
- the man page: the lines between .nf and .fi in the EXAMPLES section, with
  the troff escapes undone (\\- is -, \\e is a backslash, ...); request lines
  (a leading dot) are skipped.

Two examples are the same when they are the same command: the text with its
trailing `# comment` left out, continuation lines joined and runs of white
space made one space. Each distinct example runs once, by bash (`set -o
pipefail`, so a pipeline's status is dmltensor's, not jq's or head's), in a
fresh temporary directory holding the FIXTURES, with `dmltensor` on PATH the
dmltensor under test (a symlink to it: in a cross build that is the Wine
wrapper). Each one must:
- exit with 0, or with the status EXPECT_EXIT gives it (1 where the example
  shows a DirectML rule being broken, with the reason);
- print nothing on stderr when it exits 0;
- produce something: its stdout, the shell variables it sets (`bytes=$(...)`,
  `eval "$(...)"`) or the files it writes (`> results.jsonl`) are not all
  empty;
- when it has a comment (`# row stride 5`), which states a result, show that
  result: CLAIMS holds a regular expression for each comment, searched in
  what the example produced. A comment with no entry in CLAIMS fails, so a
  new claim cannot go unchecked.
And every --help example must be in the man page's EXAMPLES (NOT_IN_MAN lists
any that need not be, with the reason; it is empty). An entry of
EXPECT_EXIT, CLAIMS, FIXTURE_VARIANTS or NOT_IN_MAN that matches no example
fails too, so the tables cannot outlive the examples.

Usage: check_help_examples.py DMLTENSOR MANPAGE
Prints a line per failure (FAIL ...), then 'N passed, M failed', counting one
check per distinct example run and one per --help example looked up in the
man page (plus one failure per stale table entry); exits 1 on any failure.
"""
import os
import re
import subprocess
import sys
import tempfile

# The files examples name, created in each example's directory. Small, and
# such that the example shows what it is about.
FIXTURES = {
    # batch: JSON Lines, one descriptor per line: a size (the default
    # command), a padded one (pad as the option's text), a validate and an
    # offset; all valid, so a plain `batch` run exits 0.
    "descriptors.jsonl": (
        '{"id":"input","dtype":"float16","sizes":[1,3,224,224],"layout":"nhwc"}\n'
        '{"id":"padded","sizes":[2,3],"pad":"w=2"}\n'
        '{"id":"checked","command":"validate","sizes":[1,3,8,8],'
        '"total_tensor_size_bytes":768,"guaranteed_base_offset_alignment":256}\n'
        '{"id":"pixel","command":"offset","sizes":[2,2,3],"coord":[1,0,1]}\n'
    ),
    # plan: four activations of a small network, a size or a descriptor each.
    "tensors.jsonl": (
        '{"name":"conv1","op":"Conv","first":0,"last":1,"dtype":"float16","sizes":[1,64,56,56]}\n'
        '{"name":"relu1","op":"Relu","first":1,"last":2,"size_in_bytes":401408}\n'
        '{"name":"conv2","op":"Conv","first":2,"last":3,"size_in_bytes":802816}\n'
        '{"name":"add","op":"Add","first":3,"last":3,"size_in_bytes":802816}\n'
    ),
    # scan: a DxDispatch model (resources, dispatchables, commands) with one
    # operator whose OutputTensor is NHWC float16 1,3,4,4 (96 bytes) but
    # declares TotalTensorSizeInBytes 64: that tensor and its binding are
    # what `select(.valid == false)` picks out.
    "model.json": """{
  "resources": {
    "input": {"initialValuesDataType": "FLOAT16", "initialValues": {"valueCount": 48, "value": 0}},
    "output": {"initialValuesDataType": "FLOAT16", "initialValues": {"valueCount": 48, "value": 0}}
  },
  "dispatchables": {
    "relu": {
      "type": "DML_OPERATOR_ACTIVATION_RELU",
      "desc": {
        "InputTensor": {"DataType": "FLOAT16", "Sizes": [1, 3, 4, 4]},
        "OutputTensor": {"DataType": "FLOAT16", "Sizes": [1, 3, 4, 4],
                         "Strides": [48, 1, 12, 3], "TotalTensorSizeInBytes": 64}
      }
    }
  },
  "commands": [
    {"type": "dispatch", "dispatchable": "relu",
     "bindings": {"InputTensor": "input", "OutputTensor": "output"}}
  ]
}
""",
    # scan: an ONNX model (made with onnx.helper; bytes, written as they
    # are): input image FLOAT [batch,3,8,8], output scores FLOAT [batch,10]
    # and an initializer scale of BFLOAT16, which DirectML has not: that
    # one is what the example picks out at batch 8.
    "model.onnx": (
        b'\x08\x08\x12\x11dmltensor-example:\x86\x01\n\x19\n\x05image\x12\x06scores"'
        b'\x08Identity\x12\x01g*!\x08\n\x10\x10*\x14' + b'\x80\x7f' * 10 +
        b'B\x05scaleZ$\n\x05image\x12\x1b\n\x19\x08\x01\x12\x15\n\x07\x12\x05batch'
        b'\n\x02\x08\x03\n\x02\x08\x08\n\x02\x08\x08b\x1d\n\x06scores\x12\x13\n\x11'
        b'\x08\x01\x12\r\n\x07\x12\x05batch\n\x02\x08\nB\x02\x10\x11'
    ),
}

# Examples that need other content in a fixture, by example (the command
# without its comment, white space made single).
FIXTURE_VARIANTS = {
    # It picks out the records batch could not read: give it one (a
    # misspelt key).
    "dmltensor batch descriptors.jsonl | jq -c 'select(.error)'": {
        "descriptors.jsonl": FIXTURES["descriptors.jsonl"]
        + '{"id":"typo","sizes":[2,3],"layuot":"nchw"}\n',
    },
}

# Examples that show a DirectML rule being broken (or, for batch, a record
# that fails): their exit status, and why.
EXPECT_EXIT = {
    "dmltensor validate --sizes 2,3 --strides 5,1 --total-size 24 --format json": (
        1, "the padded 2x3 float32 needs 32 bytes: TotalTensorSizeInBytes 24 fails "
           "total_size_minimum"),
    "dmltensor view --dtype float16 --sizes 4,3 --slice h=1:3": (
        1, "row 1 of a float16 4x3 starts 6 bytes in, off the 16-byte base offset "
           "alignment; the output shows the fix (--pad or --row-pitch-align)"),
    "dmltensor scan model.json | jq -r 'select(.valid == false) | .path'": (
        1, "it lists the descriptions that break a rule: model.json's OutputTensor "
           "(and its binding) declares 64 bytes of the 96 it needs"),
    "dmltensor scan model.onnx --dim batch=8 | jq -r 'select(.error or .valid == false) | .path'": (
        1, "it lists the tensors that cannot be DirectML buffer tensors: model.onnx's "
           "initializer is BFLOAT16 (dtype_unsupported)"),
    "dmltensor scan model.onnx --dim batch=8 --format text": (
        1, "the same scan as a table: model.onnx's BFLOAT16 initializer is an error "
           "row (dtype_unsupported) and counted as failed"),
    "dmltensor nodes model.onnx --dim batch=1 --require dml --format csv": (
        1, "model.onnx's Identity declares its output [batch,10] while it computes "
           "[batch,3,8,8]: its shape, which decides graph fusion, is unknown, so the node is "
           "not known to be in a fused graph"),
    "dmltensor batch descriptors.jsonl | jq -c 'select(.error)'": (
        1, "it lists the records that failed: its descriptors.jsonl has one with a "
           "misspelt key, and batch exits 1 when a record failed"),
}

# The result each example's comment states, as a regular expression (multiline)
# searched in what the example produced. By the example with its comment.
CLAIMS = {
    "dmltensor size --sizes 2,3 --pad w=2 # row stride 5":
        r"^strides +5,1$",
    "dmltensor offset --sizes 2,2,3 --coord 1,0,1 # 7":
        r"^1,0,1 +7 +28$",
    "dmltensor locate --sizes 2,3 --pad w=2 --offset 6 # 1,1":
        r"^offset 6, byte 24: 1 coordinate\n  1,1$",
    "dmltensor locate --sizes 2,3 --pad w=2 --offset 3 # padding":
        r"^offset 3, byte 12: padding",
}

# --help examples that need not be in the man page's EXAMPLES, with the
# reason. None: the man page holds every one.
NOT_IN_MAN = {}


def split_comment(text):
    """(command, comment): a '#' that starts a shell word outside quotes
    starts the comment."""
    quote, i = None, 0
    while i < len(text):
        c = text[i]
        if c == "\\" and quote != "'":
            i += 1  # the next character is escaped
        elif quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i].rstrip(), text[i + 1:].strip()
        i += 1
    return text.rstrip(), ""


def join_lines(lines):
    """Joins continuation lines (a trailing backslash) into one line."""
    out = []
    for line in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1].rstrip() + " " + line.strip()
        else:
            out.append(line.strip())
    return out


def key(text, with_comment=False):
    cmd, comment = split_comment(text)
    k = " ".join(cmd.split())
    return f"{k} # {comment}" if with_comment and comment else k


def help_text(exe, args):
    p = subprocess.run([exe, *args, "--help"], capture_output=True, timeout=120)
    if p.returncode != 0 or p.stderr:
        raise SystemExit(f"dmltensor {' '.join(args + ['--help'])}: exit {p.returncode}, "
                         f"stderr {p.stderr.decode(errors='replace')!r}")
    return p.stdout.decode()


def help_examples(text):
    lines, inside = [], False
    for line in text.splitlines():
        if re.fullmatch(r"Examples?:\s*", line):
            inside = True
        elif inside:
            if not line.strip() or not line[0].isspace():
                break
            lines.append(line)
    return join_lines(lines)


TROFF_ESCAPES = {"\\-": "-", "\\e": "\\", "\\\\": "\\", "\\(aq": "'", "\\(dq": '"',
                 "\\&": "", "\\ ": " ", "\\fB": "", "\\fI": "", "\\fR": "", "\\fP": ""}


def untroff(line):
    pattern = "|".join(re.escape(e) for e in sorted(TROFF_ESCAPES, key=len, reverse=True))
    return re.sub(pattern, lambda m: TROFF_ESCAPES[m.group(0)], line)


def man_examples(text):
    lines, section, nofill = [], False, False
    for line in text.splitlines():
        if line.startswith(".SH"):
            section = line.split(None, 1)[1:] == ["EXAMPLES"]
        elif not section:
            continue
        elif line.startswith(".nf"):
            nofill = True
        elif line.startswith(".fi"):
            nofill = False
        elif nofill and line.strip() and not line.startswith((".", "'")):
            lines.append(untroff(line))
    return join_lines(lines)


# Runs the example, then writes the shell variables it set to a file (the
# status stays the example's).
PROBE = """\
__dmlt_before=$(compgen -v | sort)
{example}
__dmlt_status=$?
compgen -v | sort | comm -13 <(printf '%s\\n' "$__dmlt_before") - \\
  | grep -v -e '^__dmlt_' -e '^_$' -e '^BASH' -e '^PIPESTATUS$' \\
  | while read -r __dmlt_v; do printf '%s=%s\\n' "$__dmlt_v" "${{!__dmlt_v}}"; done \\
  > "$DMLT_VARS_FILE"
exit $__dmlt_status
"""


def run(example, k, env, tmp, n):
    cwd = os.path.join(tmp, f"example{n}")
    os.mkdir(cwd)
    fixtures = dict(FIXTURES, **FIXTURE_VARIANTS.get(k, {}))
    for name, content in fixtures.items():
        if isinstance(content, bytes):  # a binary fixture (model.onnx)
            with open(os.path.join(cwd, name), "wb") as f:
                f.write(content)
            continue
        with open(os.path.join(cwd, name), "w", encoding="utf-8") as f:
            f.write(content)
    vars_file = os.path.join(tmp, f"vars{n}")
    p = subprocess.run(["bash", "-o", "pipefail", "-c", PROBE.format(example=example)],
                       capture_output=True, cwd=cwd, timeout=120,
                       env=dict(env, DMLT_VARS_FILE=vars_file))
    with open(vars_file, encoding="utf-8", errors="replace") as f:
        variables = f.read()
    written = ""
    for name in sorted(os.listdir(cwd)):
        if name not in fixtures:
            with open(os.path.join(cwd, name), encoding="utf-8", errors="replace") as f:
                written += f"{name}:\n{f.read()}"
    return (p.returncode, p.stdout.decode(errors="replace"),
            p.stderr.decode(errors="replace"), variables, written)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_help_examples.py DMLTENSOR MANPAGE")
    exe = os.path.abspath(sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        man = man_examples(f.read())
    passed = failed = 0

    def fail(msg):
        nonlocal failed
        failed += 1
        print(f"FAIL {msg}")

    # The sources, in order: the main help, each command's, the man page.
    main_help = help_text(exe, [])
    m = re.search(r"^Commands:\n(.*?)^$", main_help, re.S | re.M)
    rows = m.group(1).splitlines() if m else []
    commands = [row.split()[0] for row in rows if len(row.split()) > 1]
    if not commands:
        sys.exit("no commands found in 'dmltensor --help'")
    sources = [("dmltensor --help", help_examples(main_help))]
    for cmd in commands:
        sources.append((f"dmltensor {cmd} --help", help_examples(help_text(exe, [cmd]))))
    sources.append((f"{sys.argv[2]} EXAMPLES", man))
    for name, examples in sources:
        print(f"{name}: {len(examples)} examples")
        if not examples:
            fail(f"{name}: no examples found")

    # Every --help example is in the man page.
    man_keys = {key(e) for e in man}
    help_keys = set()
    for name, examples in sources[:-1]:
        for e in examples:
            help_keys.add(key(e))
            if key(e) in man_keys or key(e) in NOT_IN_MAN:
                passed += 1
            else:
                fail(f"{name}: not in the man page's EXAMPLES: {e}")
    for k in NOT_IN_MAN:
        if k not in help_keys:
            fail(f"NOT_IN_MAN: {k!r} is no --help example")
        elif k in man_keys:
            fail(f"NOT_IN_MAN: {k!r} is in the man page after all")

    # Run each distinct example once; its comments come from every source.
    distinct = {}
    for name, examples in sources:
        for e in examples:
            d = distinct.setdefault(key(e), {"text": e, "sources": [], "claims": set()})
            d["sources"].append(name)
            if split_comment(e)[1]:
                d["claims"].add(key(e, with_comment=True))
    print(f"{len(distinct)} distinct examples to run")
    used_claims = set()
    with tempfile.TemporaryDirectory() as tmp:
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        os.symlink(exe, os.path.join(bindir, "dmltensor"))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], LC_ALL="C")
        for var in ("NO_COLOR", "COLUMNS"):
            env.pop(var, None)
        for n, (k, d) in enumerate(distinct.items()):
            where = f"{d['sources'][0]}: {d['text']}"
            status, out, err, variables, written = run(d["text"], k, env, tmp, n)
            produced = out + variables + written
            problems = []
            want = EXPECT_EXIT.get(k, (0, ""))[0]
            if status != want:
                problems.append(f"exit status {status}, expected {want}")
            if status == 0 and err:
                problems.append("stderr is not empty")
            if not produced.strip():
                problems.append("no output (stdout, variables set, files written)")
            for claim in sorted(d["claims"]):
                used_claims.add(claim)
                if claim not in CLAIMS:
                    problems.append(f"its comment states a result no CLAIMS entry checks: {claim!r}")
                elif not re.search(CLAIMS[claim], produced, re.M):
                    problems.append(f"its comment does not hold: /{CLAIMS[claim]}/ not in the output")
            if problems:
                fail(f"{where}\n  " + "\n  ".join(problems)
                     + f"\n--- stdout\n{out}--- stderr\n{err}"
                     + (f"--- variables set\n{variables}" if variables else "")
                     + (f"--- files written\n{written}" if written else ""))
            else:
                passed += 1

    # Table entries that name no example.
    for table, keys in (("EXPECT_EXIT", EXPECT_EXIT), ("FIXTURE_VARIANTS", FIXTURE_VARIANTS)):
        for k in keys:
            if k not in distinct:
                fail(f"{table}: {k!r} is no example")
    for k in CLAIMS:
        if k not in used_claims:
            fail(f"CLAIMS: {k!r} is no example with that comment")

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
