#!/usr/bin/env python3
"""Golden tests of the command line, in the manner of zstd's cli-tests.

Each tests/cli/cases/NAME.case holds one invocation and what it must print:

    # what the case checks
    args: size --sizes 1,0,3        (shell words, split with shlex)
    args-esc: size --dtype 'f\x01'  (the same, then backslash escapes decoded)
    env: NO_COLOR=1                 (optional, repeatable)
    stdin: data/records.jsonl       (optional: a file to read as stdin)
    stdin-esc: {"sizes":[2]}\n      (optional: stdin text, backslash escapes decoded)
    stdout-to: /dev/full            (optional: where stdout goes)
    exit: 2
    --- stdout
    ...exact bytes...
    --- stderr
    ...exact bytes...

Usage: run_golden.py DMLTENSOR CASE... [--update]
With DMLT_WRAPPER in the environment (e.g. "valgrind -q --error-exitcode=99"),
each invocation runs under that command.
--update rewrites the exit status and both streams from the current binary.
Prints one line per case and 'N passed, N failed'; exits 1 on any failure.
"""
import os
import shlex
import subprocess
import sys


def parse_case(path):
    meta = {"env": []}
    sections = {}
    current = None
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines(keepends=True):
            if line.startswith("--- "):
                current = line[4:].strip()
                sections[current] = ""
            elif current is not None:
                sections[current] += line
            elif line.startswith("#") or not line.strip():
                continue
            else:
                key, _, value = line.partition(":")
                value = value.strip()
                if key == "env":
                    meta["env"].append(value)
                else:
                    meta[key] = value
    return meta, sections


def run(binary, meta, case_dir):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    env["LC_ALL"] = "C"
    for item in meta["env"]:
        k, _, v = item.partition("=")
        env[k] = v
    if "args-esc" in meta:  # backslash escapes, for bytes a shell word cannot show
        argv = [binary] + [a.encode("latin-1").decode("unicode_escape")
                           for a in shlex.split(meta["args-esc"])]
    else:
        argv = [binary] + shlex.split(meta.get("args", ""))
    # DMLT_WRAPPER runs each case under a tool (.ci/checks/25-valgrind.sh).
    argv = shlex.split(os.environ.get("DMLT_WRAPPER", "")) + argv
    # Paths in a case (files to read) are relative to the case's directory.
    stdin = b""
    if "stdin" in meta:
        with open(os.path.join(case_dir, meta["stdin"]), "rb") as f:
            stdin = f.read()
    elif "stdin-esc" in meta:
        stdin = meta["stdin-esc"].encode("latin-1").decode("unicode_escape").encode("latin-1")
    target = meta.get("stdout-to")
    if target:
        with open(target, "wb") as out:
            p = subprocess.run(argv, stdout=out, stderr=subprocess.PIPE, env=env,
                               input=stdin, timeout=60, cwd=case_dir)
        return p.returncode, b"", p.stderr
    p = subprocess.run(argv, capture_output=True, env=env, input=stdin, timeout=60,
                       cwd=case_dir)
    return p.returncode, p.stdout, p.stderr


def write_case(path, meta, code, out, err):
    with open(path, encoding="utf-8") as f:
        head = []
        for line in f.read().splitlines(keepends=True):
            if line.startswith("--- "):
                break
            if not line.startswith("exit:"):
                head.append(line)
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join(head).rstrip("\n") + "\n")
        f.write(f"exit: {code}\n--- stdout\n{out.decode()}--- stderr\n{err.decode()}")


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    update = "--update" in sys.argv
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    binary, cases = os.path.abspath(args[0]), args[1:]
    passed = failed = 0
    for path in cases:
        name = os.path.basename(path)[:-5]
        meta, sections = parse_case(path)
        code, out, err = run(binary, meta, os.path.dirname(os.path.abspath(path)))
        if update:
            write_case(path, meta, code, out, err)
            print(f"updated {name}")
            passed += 1
            continue
        problems = []
        if str(code) != meta.get("exit"):
            problems.append(f"exit status {code}, expected {meta.get('exit')}")
        for stream, got in (("stdout", out), ("stderr", err)):
            want = sections.get(stream, "").encode()
            if got != want:
                problems.append(f"{stream} differs:\n--- expected\n{want.decode(errors='replace')}"
                                f"--- got\n{got.decode(errors='replace')}")
        if problems:
            failed += 1
            print(f"FAIL {name}: {meta.get('args', meta.get('args-esc'))}")
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
        else:
            passed += 1
            print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
