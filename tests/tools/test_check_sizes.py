#!/usr/bin/env python3
"""check_sizes.py can fail, and counts what it should: synthetic sources at
the limits and one line past them, with braces in comments, strings and
character constants, a long initializer (no function), a function
returning an enum, and an extern "C" block.

    test_check_sizes.py
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_sizes.py")

failures = 0


def function(name, lines, ret="static int"):
    """A definition of exactly `lines` lines, counted as check_sizes does."""
    body = [f"    x += {i}; /* {{ */" for i in range(lines - 5)]
    return "\n".join(
        [f"{ret} {name}(int x)", "{", '    const char *s = "}}{"; (void)s; (void)\'{\';'] + body
        + ["    return x;", "}"]
    )


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def expect(what, args, status, words):
    global failures
    proc = subprocess.run([sys.executable, CHECK] + args, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    missing = [w for w in words if w not in out]
    if proc.returncode != status or missing:
        failures += 1
        print(f"FAIL {what}: exit {proc.returncode} (want {status}), missing {missing}\n{out}")
    else:
        print(f"ok   {what}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        ok = os.path.join(tmp, "ok.c")
        table = "static const int table[] = {\n" + "    1,\n" * 200 + "};\n"
        write(ok, "#include <stdio.h>\n" + function("at_limit", 120) + "\n\n" + table
              + "// } a brace in a line comment\n"
              + function("an_enum", 30, "enum e") + "\n")
        expect("a function of 120 lines and a long initializer pass", [ok], 0,
               ["2 functions, none over"])
        expect("--top lists the function at the limit", ["--top", "1", ok], 0,
               ["  120 " + ok + ":2: at_limit"])

        long_fn = os.path.join(tmp, "long.c")
        write(long_fn, "\n" + function("too_long", 121) + "\n")
        expect("a function of 121 lines fails, named with its line", [long_fn], 1,
               [long_fn + ":2: too_long is 121 lines"])

        header = os.path.join(tmp, "extern.h")
        write(header, '#ifdef __cplusplus\nextern "C" {\n#endif\n'
              + function("in_extern_c", 121, "static inline int") + "\n"
              + '#ifdef __cplusplus\n}\n#endif\n')
        expect("a function inside extern \"C\" counts", [header], 1, ["in_extern_c is 121 lines"])

        at_limit = os.path.join(tmp, "lines900.h")
        write(at_limit, "/* x */\n" * 900)
        expect("a file of 900 lines passes", [at_limit], 0, ["none over"])
        too_big = os.path.join(tmp, "lines901.h")
        write(too_big, "/* x */\n" * 901)
        expect("a file of 901 lines fails", [too_big], 1, [too_big + ": 901 lines"])
        expect("a directory is every file in it", [tmp], 1,
               ["3 over the limits", "too_long", "in_extern_c", "901 lines"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
