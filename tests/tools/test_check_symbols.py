#!/usr/bin/env python3
"""check_symbols.py can fail: tiny objects compiled here, with a prefix
table and a public header of their own, some with every external symbol
prefixed and some with one that is not (a function, initialised data,
read-only data, zeroed data, a near miss of a whole name), and the
toolchain's names through a fake nm.

    test_check_symbols.py CC --nm=NM [--strip-underscore]
"""

import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_symbols.py")

DOCS = """# Where things go

## Symbol prefixes

| layer | prefixes | what they are |
|---|---|---|
| `src/lib/` | the public API, `dmlt__` | the API, and `dmlt__` |
| `src/onnx/` | `onnx_` | `onnx_`, `onnx__` |
| `src/cli/` | `cli_`, `main` | the command |

## src/onnx/

| `src/other/` | `x_` | a table of another section is not read |
"""

API = """#define DMLT_API
/* DMLT_API int dmlt_in_a_comment(void); */
DMLT_API int dmlt_api_call(int x);
"""

SOURCES = {
    "lib_ok.c": "int dmlt_api_call(int x);\n"
    "int dmlt_api_call(int x) { return x + 1; }\n"
    "int dmlt__shared(int x);\n"
    "int dmlt__shared(int x) { return x; }\n"
    "static int helper(int x) { return x; }\n"
    "int dmlt__uses(int x);\n"
    "int dmlt__uses(int x) { return helper(x); }\n",
    "lib_bad.c": "int dmlt_in_a_comment(void);\n"
    "int dmlt_in_a_comment(void) { return 0; }\n",
    "onnx_ok.c": "int onnx__fail(int x);\n"
    "int onnx__fail(int x) { return x; }\n"
    "const int onnx_table[2] = {1, 2};\n"
    "int onnx__count = 0;\n",
    "onnx_fn.c": "int fail(int x);\n"
    "int fail(int x) { return x; }\n",
    "onnx_data.c": "int counter = 3;\n"
    "const int table[2] = {1, 2};\n"
    "int zeroed;\n",
    "cli_main.c": "int cli_run(void);\n"
    "int cli_run(void) { return 0; }\n"
    "int main(void) { return cli_run(); }\n",
    "cli_near.c": "int mainly(void);\n"
    "int mainly(void) { return 0; }\n",
}

failures = 0


def expect(what, args, status, words, absent=()):
    global failures
    proc = subprocess.run([sys.executable, CHECK] + args, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    missing = [w for w in words if w not in out]
    present = [w for w in absent if w in out]
    if proc.returncode != status or missing or present:
        failures += 1
        print(f"FAIL {what}: exit {proc.returncode} (want {status}), missing {missing}, "
              f"unwanted {present}\n{out}")
    else:
        print(f"ok   {what}")


def main():
    cc = sys.argv[1]
    flags = sys.argv[2:]
    nm = next((f[len("--nm="):] for f in flags if f.startswith("--nm=")), "")
    if not nm:
        print("skipped: no nm in this build (MSVC); check_symbols.py is tested where nm exists")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        docs = os.path.join(tmp, "architecture.md")
        api = os.path.join(tmp, "dmltensor.h")
        with open(docs, "w", encoding="utf-8") as f:
            f.write(DOCS)
        with open(api, "w", encoding="utf-8") as f:
            f.write(API)
        obj = {}
        for name, text in SOURCES.items():
            src = os.path.join(tmp, name)
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)
            obj[name[:-2]] = os.path.join(tmp, name[:-2] + ".o")
            subprocess.run([cc, "-c", src, "-o", obj[name[:-2]]], check=True)
        base = flags + ["--docs", docs, "--api", api]

        def layers(lib, onnx, cli):
            return (["--layer=src/lib/"] + [obj[o] for o in lib] + ["--layer=src/onnx/"] +
                    [obj[o] for o in onnx] + ["--layer=src/cli/"] + [obj[o] for o in cli])

        expect("every symbol prefixed, the API, main", base +
               layers(["lib_ok"], ["onnx_ok"], ["cli_main"]), 0,
               ["external symbols in 3 layers, each with its layer's prefix"])
        expect("an unprefixed function", base +
               layers(["lib_ok"], ["onnx_ok", "onnx_fn"], ["cli_main"]), 1,
               ["src/onnx/: fail (onnx_fn.o)", "1 of "], ["onnx__fail"])
        expect("unprefixed data: initialised, read-only, zeroed", base +
               layers(["lib_ok"], ["onnx_data"], ["cli_main"]), 1,
               ["src/onnx/: counter (onnx_data.o)", "src/onnx/: table (onnx_data.o)",
                "src/onnx/: zeroed (onnx_data.o)", "3 of "])
        expect("the API prefix alone, not in the header (a comment does not declare)",
               base + layers(["lib_ok", "lib_bad"], ["onnx_ok"], ["cli_main"]), 1,
               ["src/lib/: dmlt_in_a_comment (lib_bad.o)", "or the public API"])
        expect("a whole name is not a prefix", base +
               layers(["lib_ok"], ["onnx_ok"], ["cli_main", "cli_near"]), 1,
               ["src/cli/: mainly (cli_near.o)"])
        expect("the API only where the row says so", base +
               ["--layer=src/onnx/", obj["lib_ok"]], 1, ["src/onnx/: dmlt_api_call"])
        expect("a layer without a row", base + ["--layer=src/other/", obj["onnx_ok"]], 2,
               ["src/other/ has no row"])
        # MinGW's nm lists a .refptr.NAME the toolchain makes beside a data
        # reference (defined, global): not the code's, left out.
        fake = os.path.join(tmp, "fake_nm.py")
        with open(fake, "w", encoding="utf-8") as f:
            f.write("import sys\nprint('.refptr.onnx_table R 0')\nprint('.text t 0')\n"
                    "print('onnx__ok T 0')\nprint('leaked T 10')\n")
        fake_nm = os.path.join(tmp, "fake_nm")
        with open(fake_nm, "w", encoding="utf-8") as f:
            f.write(f"#!/bin/sh\nexec {sys.executable} {fake} \"$@\"\n")
        os.chmod(fake_nm, 0o755)
        expect("toolchain names (.refptr) left out, the code's checked",
               [f"--nm={fake_nm}", "--docs", docs, "--api", api, "--layer=src/onnx/",
                obj["onnx_ok"]], 1, ["src/onnx/: leaked (onnx_ok.o)", "1 of 2 "],
               [".refptr"])
        expect("no nm: skipped", ["--nm=", "--docs", docs, "--api", api, "--layer=src/lib/",
                                  obj["lib_ok"]], 77, ["skipped: no nm"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
