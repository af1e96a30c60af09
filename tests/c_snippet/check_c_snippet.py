#!/usr/bin/env python3
"""`--format c` snippets compile as C11 and as C++, and hold the right values.

Usage: check_c_snippet.py DMLTENSOR --cc CC --cxx CXX [--cases N] [--seed S]

For N random tensors (every data type, ranks 1..8, layouts with padding and
broadcast, explicit strides, sizes and totals past 2^32 bytes) and a few
fixed extremes, it runs `dmltensor size` or `dmltensor validate` (with a
total, an alignment, flags, and sometimes a binding: --base-offset,
--binding-size, --buffer-size) with `--format c`, and the same command with
`--format json`. Every snippet goes into one translation unit, each in a
function of its own, as a programmer pastes it into a function body; some
functions hold two snippets of different --name, which must not clash. A
small harness after each snippet prints what the compiled objects hold.

The unit is compiled twice, by CC as C11 and by CXX as C++11, both with
-Wall -Wextra -Wpedantic -Werror, against directml_standin.h (DirectML's
documented struct layouts and enum values). Both programs must print the
same lines, and those lines must equal what --format json says: DataType's
enum value, Flags, DimensionCount, Sizes, Strides, TotalTensorSizeInBytes,
GuaranteedBaseOffsetAlignment; the DML_TENSOR_DESC pointing at the
DML_BUFFER_TENSOR_DESC; and, for validate with a binding, the
DML_BUFFER_BINDING's Offset and SizeInBytes (SizeInBytes defaults to
TotalTensorSizeInBytes) with a NULL Buffer. validate's snippet must carry
one comment per failed check, the ids --format json fails, and its exit
status must be json's. A total past 2^64-1 must be refused (exit 1, no
output) exactly when json's total is past it.

`dmltensor view --format c` is checked the same way against `view --format
json`: for fixed and random views (slices, selects, transposes, splits, a
broadcast and reshapes of random parents, with a base offset), each view's
snippet (NAME, or NAMEi for the parts of a split) holds that view's desc
and binding; a comment per failed check and the exit status are json's.

Prints a line per mismatch and 'N passed, M failed'; exits 1 on any failure.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "cli"))
sys.dont_write_bytecode = True
import dmlt_model as m  # noqa: E402

U32 = m.U32_MAX
U64 = m.U64_MAX

HARNESS = r"""
#include "directml_standin.h"

#include <stdio.h>

static void show_desc(const char *name, const DML_TENSOR_DESC *td,
                      const DML_BUFFER_TENSOR_DESC *d, const UINT *sizes, const UINT *strides,
                      unsigned long long sizes_len, unsigned long long strides_len)
{
    printf("%s desc type=%d same=%d dtype=%d flags=%u rank=%u arrays=%d,%d", name, (int)td->Type,
           td->Desc == (const void *)d, (int)d->DataType, (unsigned)d->Flags, d->DimensionCount,
           d->Sizes == sizes && d->Strides == strides,
           sizes_len == d->DimensionCount && strides_len == d->DimensionCount);
    printf(" sizes=");
    for (UINT i = 0; i < d->DimensionCount; i++)
        printf(i ? ",%u" : "%u", d->Sizes[i]);
    printf(" strides=");
    for (UINT i = 0; i < d->DimensionCount; i++)
        printf(i ? ",%u" : "%u", d->Strides[i]);
    printf(" total=%llu align=%u\n", (unsigned long long)d->TotalTensorSizeInBytes,
           d->GuaranteedBaseOffsetAlignment);
}

static void show_binding(const char *name, const DML_BINDING_DESC *bd,
                         const DML_BUFFER_BINDING *b)
{
    printf("%s binding type=%d same=%d null=%d offset=%llu size=%llu\n", name, (int)bd->Type,
           bd->Desc == (const void *)b, b->Buffer == NULL, (unsigned long long)b->Offset,
           (unsigned long long)b->SizeInBytes);
}
"""

FLAG_VALUES = {"none": 0, "owned_by_dml": 1, "DML_TENSOR_FLAG_NONE": 0,
               "DML_TENSOR_FLAG_OWNED_BY_DML": 1}


def random_sizes(rng):
    rank = rng.choice([1, 2, 3, 4, 4, 4, 5, 6, 7, 8])
    r = rng.random()
    if r < 0.6:
        return [rng.randint(1, 5) for _ in range(rank)]
    if r < 0.8:
        return [rng.choice([1, 2, 3, 16, 64, 224, 256]) for _ in range(rank)]
    # past 2^32 bytes: big dims, but a layout's strides must fit 32 bits
    return [rng.choice([1, 2, 3, 65535, 65536, 1 << 20, U32]) for _ in range(rank)]


def big_strides(rng, sizes):
    return [rng.choice([0, 1, 2, 7, 65536, U32 // 2, U32]) for _ in sizes]


def random_tensor(rng):
    sizes = random_sizes(rng)
    strides = m.small_strides if rng.random() < 0.7 else big_strides
    for _ in range(20):
        t = m.random_tensor(rng, sizes, explicit_strides=strides)
        if max(t["strides"]) <= U32:
            return t
    return m.random_tensor(rng, sizes, explicit_p=1.0)


def maybe(rng, p, words):
    return words if rng.random() < p else []


def random_job(rng, n):
    """(command, argv without --format) of one snippet."""
    t = random_tensor(rng)
    while m.product(t["sizes"]) * t["bits"] >= 1 << 120:  # size refuses past 2^128 bits
        t = random_tensor(rng)
    last = m.dot([s - 1 for s in t["sizes"]], t["strides"])
    minimum = m.bytes_for(last + 1, t["bits"])

    def pick(values):  # an option's value: at most UINT64
        return str(min(rng.choice(values), U64))

    args = list(t["args"])
    args += maybe(rng, 0.3, ["--total-size", pick([minimum, minimum + 4, 4, U32, U32 + 1,
                                                   1 << 40, U64])])
    if rng.random() < 0.4:
        return "size", args
    args += maybe(rng, 0.6, ["--alignment", str(rng.choice([0, 1, 3, 16, 32, 256, 1 << 31,
                                                            U32]))])
    args += maybe(rng, 0.4, ["--flags", rng.choice(["none", "owned_by_dml", "1", "2", U32,
                                                    "DML_TENSOR_FLAG_OWNED_BY_DML"])])
    if rng.random() < 0.6:  # a binding
        args += maybe(rng, 0.7, ["--base-offset", str(rng.choice([0, 16, 256, 8, U32,
                                                                 1 << 40, U64 - 15, U64]))])
        args += maybe(rng, 0.7, ["--binding-size", pick([0, minimum, minimum + 1,
                                                         max(minimum - 1, 0), U32, U32 + 1,
                                                         U64])])
        args += maybe(rng, 0.5, ["--buffer-size", pick([minimum, 4096, 1 << 40, U64])])
    return "validate", [str(a) for a in args]


FIXED = [
    ("size", ["--dtype", "float64", "--sizes", "4294967295,4294967295",
              "--strides", "4294967295,1"]),
    ("size", ["--dtype", "uint8", "--sizes", "1,1,65536,65536"]),
    ("size", ["--dtype", "int4", "--sizes", "3,5", "--total-size", "18446744073709551615"]),
    ("size", ["--dtype", "float64", "--sizes", "4294967295,4294967295,4294967295",
              "--strides", "4294967295,4294967295,4294967295"]),  # past UINT64: refused
    ("size", ["--sizes", "1,2,3,4,5,6,7,8", "--order", "7,6,5,4,3,2,1,0"]),
    ("size", ["--sizes", "2147483648,1", "--strides", "2147483648,2147483647"]),
    ("validate", ["--sizes", "1,1,2,4", "--alignment", "4294967295", "--base-offset",
                  "18446744073709551615", "--flags", "4294967295", "--total-size",
                  "18446744073709551615", "--binding-size", "18446744073709551615",
                  "--buffer-size", "18446744073709551615"]),
    ("validate", ["--dtype", "float16", "--sizes", "1,3,224,224", "--layout", "nhwc",
                  "--alignment", "256", "--base-offset", "4294967296", "--binding-size",
                  "301056", "--buffer-size", "4295268352"]),
    ("validate", ["--sizes", "1,1,3,5", "--base-offset", "2147483648"]),
]


def run(binary, argv):
    p = subprocess.run([binary] + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL " + what)
        return ok


def expected_lines(name, cmd, argv, size_json, validate_json):
    """The lines the harness must print for this snippet."""
    opts = {}
    for i, a in enumerate(argv):
        if a.startswith("--") and i + 1 < len(argv):
            opts[a] = argv[i + 1]
    total = size_json["total_tensor_size_bytes"]
    flags = 0
    if cmd == "validate" and "--flags" in opts:
        f = opts["--flags"]
        flags = FLAG_VALUES[f] if f in FLAG_VALUES else int(f)
    align = int(opts.get("--alignment", 0)) if cmd == "validate" else 0
    rank = size_json["rank"]
    lines = ["%s desc type=1 same=1 dtype=%d flags=%d rank=%d arrays=1,1 sizes=%s strides=%s "
             "total=%d align=%d" % (name, size_json["dml_data_type_value"], flags, rank,
                                    ",".join(map(str, size_json["sizes"])),
                                    ",".join(map(str, size_json["strides"])), total, align)]
    binding = cmd == "validate" and any(o in opts for o in ("--base-offset", "--binding-size",
                                                            "--buffer-size"))
    if binding:
        size = int(opts["--binding-size"]) if "--binding-size" in opts else total
        lines.append("%s binding type=1 same=1 null=1 offset=%d size=%d"
                     % (name, int(opts.get("--base-offset", 0)), size))
    return lines, binding


VIEW_FIXED = [
    ["--dtype", "float16", "--sizes", "4,3", "--slice", "h=1:3"],
    ["--dtype", "float16", "--sizes", "1,128,2304", "--split", "w=3"],
    ["--sizes", "2,3,4", "--permute", "2,0,1", "--base-offset", "256"],
    ["--dtype", "int4", "--sizes", "4,6", "--select", "h=1"],
    ["--sizes", "64", "--reshape", "1,64,1,1", "--broadcast-to", "2,64,7,7"],
    ["--dtype", "uint8", "--sizes", "8,8", "--split", "h=1+3+4", "--slice", "w=::2",
     "--buffer-size", "4096"],
]


def random_view(rng):
    """A view command's argv (without --format): a packed parent and one or
    two operations that always apply to it."""
    rank = rng.randint(1, 4)
    sizes = [rng.randint(1, 6) for _ in range(rank)]
    dtype = rng.choice(["float32", "float16", "uint8", "int64", "int4", "float64"])
    args = ["--dtype", dtype, "--sizes", ",".join(map(str, sizes))]
    args += maybe(rng, 0.3, ["--base-offset", str(rng.choice([0, 16, 32, 8, 1 << 32]))])
    dim = rng.randrange(rank)
    op = rng.choice(["slice", "select", "permute", "split"] if rank > 1 else ["slice", "split"])
    if op == "slice":
        start = rng.randrange(sizes[dim])
        args += ["--slice", "%d=%d:%d:%d" % (dim, start, rng.randint(start + 1, sizes[dim]),
                                             rng.randint(1, 3))]
    elif op == "select":
        args += ["--select", "%d=%d" % (dim, rng.randrange(sizes[dim]))]
    elif op == "permute":
        order = list(range(rank))
        rng.shuffle(order)
        args += ["--permute", ",".join(map(str, order))]
    else:
        parts = [n for n in range(1, sizes[dim] + 1) if sizes[dim] % n == 0]
        args += ["--split", "%d=%d" % (dim, rng.choice(parts))]
    return args


def view_jobs(binary, ck, rng, cases, dtype_values):
    """(C source of the functions, expected lines) for view snippets."""
    functions, expected = [], []
    for i, argv in enumerate(VIEW_FIXED + [random_view(rng) for _ in range(cases)]):
        where = "dmltensor view %s" % m.shell_words(argv)
        st, out, err = run(binary, ["view"] + argv + ["--format", "json"])
        if not ck.check(st in (0, 1), "%s --format json: exit %d %s" % (where, st, err)):
            continue
        views = json.loads(out)["views"]
        name = "v%d" % i
        cst, snippet, cerr = run(binary, ["view"] + argv + ["--format", "c", "--name", name])
        if not ck.check(cst == st and cerr == "", "%s --format c: exit %d (json's %d) %s"
                        % (where, cst, st, cerr)):
            continue
        failed = ["%s %s" % ("FAIL" if c["level"] == "error" else "warn", c["id"])
                  for v in views for c in v["checks"] if c["status"] == "fail"]
        said = re.findall(r"^/\* (FAIL|warn) ([a-z_0-9]+): ", snippet, re.M)
        ck.check(["%s %s" % s for s in said] == failed,
                 "%s: comments %s, failed checks %s" % (where, said, failed))
        numbered = "--split" in argv
        body = ["    /* %s */\n" % where.replace("*/", "* /")]
        body += ["    " + line + "\n" for line in snippet.splitlines()]
        for k, v in enumerate(views):
            var = name + (str(k) if numbered else "")
            d, b = v["desc"], v["binding"]
            expected.append("%s desc type=1 same=1 dtype=%d flags=0 rank=%d arrays=1,1 sizes=%s "
                            "strides=%s total=%d align=%d"
                            % (var, dtype_values[d["DataType"]], d["DimensionCount"],
                               ",".join(map(str, d["Sizes"])), ",".join(map(str, d["Strides"])),
                               d["TotalTensorSizeInBytes"], d["GuaranteedBaseOffsetAlignment"]))
            expected.append("%s binding type=1 same=1 null=1 offset=%d size=%d"
                            % (var, b["offset_bytes"], b["size_in_bytes"]))
            body.append("    show_desc(\"%s\", &%sDesc, &%sBufferDesc, %sSizes, %sStrides,\n"
                        "              sizeof %sSizes / sizeof %sSizes[0],\n"
                        "              sizeof %sStrides / sizeof %sStrides[0]);\n"
                        % ((var,) * 9))
            body.append("    show_binding(\"%s\", &%sBindingDesc, &%sBinding);\n" % (var, var, var))
        functions.append("static void view%d(void)\n{\n%s}\n" % (len(functions), "".join(body)))
    return functions, expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dmltensor")
    ap.add_argument("--cc", required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--cases", type=int, default=400)
    ap.add_argument("--seed", type=int, default=15)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    ck = Checker()

    jobs = list(FIXED) + [random_job(rng, i) for i in range(args.cases)]
    functions = []  # C source of each function
    expected = []   # the lines the program must print, in order
    calls = []
    for i, (cmd, argv) in enumerate(jobs):
        where = "dmltensor %s %s" % (cmd, m.shell_words(argv))
        # The values to expect: size's json always (sizes, strides, total),
        # validate's json for the checks and the exit status.
        size_argv = [a for a in argv]
        for opt in ("--alignment", "--flags", "--base-offset", "--binding-size", "--buffer-size"):
            while opt in size_argv:
                k = size_argv.index(opt)
                del size_argv[k:k + 2]
        st, out, err = run(args.dmltensor, ["size"] + size_argv + ["--format", "json"])
        if not ck.check(st in (0, 1), "%s: size --format json: exit %d %s" % (where, st, err)):
            continue
        size_json = json.loads(out)
        # SPEC section 4: exit 1 exactly when size says the descriptor is invalid.
        if not ck.check(st == (0 if size_json["valid"] else 1),
                        "%s: size --format json: exit %d, valid %s" % (where, st, size_json["valid"])):
            continue
        validate_json = None
        if cmd == "validate":
            vst, vout, _ = run(args.dmltensor, ["validate"] + argv + ["--format", "json"])
            validate_json = json.loads(vout)
        # Two snippets in one function now and then: names must not clash.
        names = ["t%d" % i] if rng.random() < 0.8 else ["a%d_x" % i, "B%d" % i]
        if i % 17 == 0:
            names = [None]  # the default name, "tensor"
        body = []
        for name in names:
            name_args = ["--name", name] if name else []
            st, snippet, err = run(args.dmltensor, [cmd] + argv + ["--format", "c"] + name_args)
            if size_json["total_tensor_size_bytes"] > U64:
                ck.check(st == 1 and snippet == "" and "past UINT64" in err,
                         "%s: a total past UINT64 must be refused: exit %d, %r" % (where, st, err))
                break
            valid = size_json["valid"] if cmd == "size" else validate_json["valid"]
            want_status = 0 if valid else 1
            if not ck.check(st == want_status and err == "",
                            "%s --format c: exit %d (want %d) %s" % (where, st, want_status, err)):
                break
            if validate_json:
                failed = ["%s %s" % ("FAIL" if c["level"] == "error" else "warn", c["id"])
                          for c in validate_json["checks"] if c["status"] == "fail"]
                said = re.findall(r"^/\* (FAIL|warn) ([a-z_0-9]+): ", snippet, re.M)
                ck.check(["%s %s" % s for s in said] == failed,
                         "%s: comments %s, failed checks %s" % (where, said, failed))
            else:  # size: its errors and warnings, in order
                said = re.findall(r"^/\* (FAIL|warn) ([a-z_0-9]+): ", snippet, re.M)
                diags = ["%s %s" % ("FAIL" if g["severity"] == "error" else "warn", g["id"])
                         for g in size_json["diagnostics"] if g["severity"] != "info"]
                ck.check(["%s %s" % s for s in said] == diags,
                         "%s: comments %s, diagnostics %s" % (where, said, diags))
            var = name or "tensor"
            lines, binding = expected_lines(var, cmd, argv, size_json, validate_json)
            expected += lines
            body.append("    /* %s */\n" % where.replace("*/", "* /"))
            body += ["    " + line + "\n" for line in snippet.splitlines()]
            body.append("    show_desc(\"%s\", &%sDesc, &%sBufferDesc, %sSizes, %sStrides,\n"
                        "              sizeof %sSizes / sizeof %sSizes[0],\n"
                        "              sizeof %sStrides / sizeof %sStrides[0]);\n"
                        % ((var,) * 9))
            if binding:
                body.append("    show_binding(\"%s\", &%sBindingDesc, &%sBinding);\n"
                            % (var, var, var))
        if body:
            functions.append("static void f%d(void)\n{\n%s}\n" % (i, "".join(body)))
            calls.append("    f%d();\n" % i)

    _, out, _ = run(args.dmltensor, ["dtypes", "--format", "json"])
    dtype_values = {t["dml_name"]: t["value"] for t in json.loads(out)}
    vfunctions, vexpected = view_jobs(args.dmltensor, ck, rng, max(args.cases // 8, 10),
                                      dtype_values)
    functions += vfunctions
    expected += vexpected
    calls += ["    view%d();\n" % i for i in range(len(vfunctions))]
    source = HARNESS + "\n".join(functions) + "\nint main(void)\n{\n%s    return 0;\n}\n" % (
        "".join(calls))
    with tempfile.TemporaryDirectory(prefix="dmlt_c_snippet_") as tmp:
        src = os.path.join(tmp, "snippets.c")
        with open(src, "w") as f:
            f.write(source)
        want = "".join(line + "\n" for line in expected)
        for compiler, std, lang in ((args.cc, "-std=c11", "c"), (args.cxx, "-std=c++11", "c++")):
            exe = os.path.join(tmp, "snippets_" + lang.replace("+", "x"))
            try:
                p = subprocess.run([compiler, "-x", lang, std, "-Wall", "-Wextra", "-Wpedantic",
                                    "-Werror", "-I", HERE, src, "-o", exe],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            except OSError as err:
                ck.check(False, "%s: cannot run the compiler: %s" % (compiler, err))
                continue
            if not ck.check(p.returncode == 0, "%s %s: does not compile:\n%s"
                            % (compiler, std, p.stdout.decode()[:4000])):
                continue
            got = subprocess.run([exe], stdout=subprocess.PIPE).stdout.decode()
            if got == want:
                ck.passed += len(expected)
                continue
            for g, w in zip(got.splitlines(), expected):
                ck.check(g == w, "%s %s: printed\n  %s\nwant\n  %s" % (compiler, std, g, w))
            ck.check(len(got.splitlines()) == len(expected),
                     "%s %s: %d lines, want %d" % (compiler, std, len(got.splitlines()),
                                                   len(expected)))
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main())
