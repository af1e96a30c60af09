#!/usr/bin/env python3
"""check_cycles.py can fail: three tiny modules compiled here, a and b in
a cycle (a calls b, b reads a's table: a data reference), c using a.

    test_check_cycles.py CC NM
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_cycles.py")

SOURCES = {
    "a.c": "int b_func(void);\n"
    "const int a_table[2] = {1, 2};\n"
    "int a_func(void);\n"
    "int a_func(void) { return b_func(); }\n",
    "b.c": "extern const int a_table[2];\n"
    "int b_func(void);\n"
    "int b_func(void) { return a_table[1]; }\n",
    "c.c": "int a_func(void);\n"
    "int c_func(void);\n"
    "int c_func(void) { return a_func(); }\n",
}

failures = 0


def expect(what, nm, objects, status, words, allow=None):
    global failures
    cmd = [sys.executable, CHECK, "--nm", nm]
    if allow is not None:
        cmd += ["--allow", allow]
    proc = subprocess.run(cmd + objects, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    missing = [w for w in words if w not in out]
    if proc.returncode != status or missing:
        failures += 1
        print(f"FAIL {what}: exit {proc.returncode} (want {status}), missing {missing}\n{out}")
    else:
        print(f"ok   {what}")


def main():
    cc, nm = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        mod = os.path.join(tmp, "mod")
        os.mkdir(mod)
        obj = {}
        for name, text in SOURCES.items():
            src = os.path.join(tmp, name)
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)
            obj[name[0]] = os.path.join(mod, name[0] + ".o")
            subprocess.run([cc, "-c", src, "-o", obj[name[0]]], check=True)
        a, b, c = obj["a"], obj["b"], obj["c"]

        expect("a and b in a cycle, named with the symbols", nm, [a, b, c], 1,
               ["cycle of 2 modules: mod/a, mod/b", "(b_func)", "(a_table)"])
        expect("the cycle found from a directory too", nm, [mod], 1, ["mod/a, mod/b"])
        expect("no cycle without a", nm, [b, c], 0, ["no cycle"])
        expect("no cycle without b", nm, [a, c], 0, ["no cycle"])

        allow = os.path.join(tmp, "allow.txt")
        with open(allow, "w", encoding="utf-8") as f:
            f.write("# known\nmod/b -> mod/a  # b reads a's table\n")
        expect("a known use leaves the cycle out", nm, [a, b, c], 0, ["leaving out 1 known"],
               allow)
        with open(allow, "w", encoding="utf-8") as f:
            f.write("mod/b -> mod/a\nmod/c -> mod/b\n")
        expect("a stale known use fails", nm, [a, b, c], 1,
               ["allow.txt:2: mod/c no longer uses mod/b: delete the line"], allow)
        expect("no objects is an error", nm, [tmp + "/none"], 2, [])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
