#!/usr/bin/env python3
"""Brute-force end-to-end check of `dmltensor size --format json`.

Usage: check_size_bruteforce.py DMLTENSOR_PATH [--cases N] [--seed S]

An independent re-implementation of the definitions in docs/concepts.md and docs/size.md:
random small tensors (explicit strides, or a layout with broadcast/pad
modifiers) are run through the tool and every JSON field is compared with
values computed here, the overlap property by enumerating every coordinate
and the layout detection by trying every permutation.  A few fixed large
cases check exact big-integer arithmetic and the 32-bit helper diagnostic.

Also the text form's human size, "(1.5 KiB)", at and around each unit's
boundary: the largest unit, never "1024.0 KiB", within rounding.

Prints one line per failure and ends with "N passed, M failed".
Exit status 1 if anything failed, else 0.  Standard library only.
"""

import json
import random
import re
import subprocess
import sys

import dmlt_model as m
from dmlt_model import (DTYPE_BITS, DTYPE_VALUE, U32_MAX, bytes_for, layout_strides,
                        order_name, parse_order_name, product, round_up4, shell_words)

CHECKED_DIAGNOSTICS = ("helper_overflow", "rank_not_4_or_5", "helper_unsupported_dtype")


# ---------------------------------------------------------------- definitions

def brute_overlap(sizes, strides):
    """True iff two different coordinates share an offset (full enumeration)."""
    seen = set()
    for coord in m.all_coords(sizes):
        off = m.dot(coord, strides)
        if off in seen:
            return True
        seen.add(off)
    return False


def helper_size(sizes, strides, bits):
    """What DMLCalcBufferTensorSize returns: the strided index summed in 32 bits."""
    idx32 = sum((s - 1) * st for s, st in zip(sizes, strides)) % (1 << 32)
    return round_up4((idx32 + 1) * (bits // 8))


def expected_report(dtype, sizes, strides, total=None, overlap=None):
    """All fields of `size --format json` except `layout` (checked separately).

    overlap: None to brute-force it, else the known answer for a large shape.
    """
    bits = DTYPE_BITS[dtype]
    rank = len(sizes)
    n = product(sizes)
    last = sum((s - 1) * st for s, st in zip(sizes, strides))
    minimum = bytes_for(last + 1, bits)
    spans = [s * st for s, st in zip(sizes, strides) if s > 1 and st > 0]
    span = max(spans) if spans else 1
    padded = max(minimum, bytes_for(span, bits))
    bcast = [s > 1 and st == 0 for s, st in zip(sizes, strides)]
    if overlap is None:
        overlap = brute_overlap(sizes, strides)
    exp = {
        "dtype": dtype,
        "dml_data_type": "DML_TENSOR_DATA_TYPE_" + dtype.upper(),
        "dml_data_type_value": DTYPE_VALUE[dtype],
        "element_size_bits": bits,
        "rank": rank,
        "sizes": list(sizes),
        "strides": list(strides),
        "byte_strides": None if bits == 4 else [st * bits // 8 for st in strides],
        "broadcast": bcast,
        "element_count": n,
        "index_of_last_element": last,
        "packed_size_bytes": bytes_for(n, bits),
        "minimum_implied_size_bytes": minimum,
        "padded_size_bytes": padded,
        "total_tensor_size_bytes": minimum if total is None else total,
        "properties": {
            "packed": (not overlap) and last + 1 == n,
            "padded": (not overlap) and last + 1 > n,
            "broadcast": any(bcast),
            "overlapping": overlap,
        },
    }
    diags = {
        # The published helper has no case for 4-bit types (returns 0 before
        # summing anything), so a 4-bit tensor gets helper_unsupported_dtype
        # instead of helper_overflow.
        "helper_overflow": last > U32_MAX and bits != 4,
        "rank_not_4_or_5": rank not in (4, 5),
        "helper_unsupported_dtype": bits == 4,
    }
    helper = helper_size(sizes, strides, bits) if diags["helper_overflow"] else None
    return exp, diags, helper


# ---------------------------------------------------------------- case generation

def order_kinds(rank):
    """How a memory order is asked for (see dmlt_model.ORDER_KINDS): ranks 6..8
    have no letters, so --order or a named major order."""
    if rank <= 5:
        return [(0.70, "layout"), (0.82, "order"), (0.88, "row-major"),
                (0.94, "col-major"), (1.0, "default")]
    return [(0.85, "order"), (0.92, "row-major"), (1.0, "col-major")]


def explicit_strides(rng, sizes):
    """Packed strides of some permutation (layout detection positives),
    sometimes with one stride nudged; else random strides 0..12."""
    rank = len(sizes)
    if rng.random() < 0.3:
        strides = layout_strides(sizes, rng.sample(range(rank), rank))
        if rng.random() < 0.3:
            d = rng.randrange(rank)
            strides[d] = rng.randint(0, 12)
        elif rng.random() < 0.4:
            # A size-1 dim's stride moves no element: any value still fits.
            for d in range(rank):
                if sizes[d] == 1 and rng.random() < 0.6:
                    strides[d] = rng.choice([0, 1, rng.randint(0, 40)])
        return strides
    return [rng.randint(0, 12) for _ in range(rank)]


def make_random_case(rng):
    """Returns a case dict: args, dtype, sizes, strides, layout expectation, total."""
    if rng.random() < 0.12:
        rank = rng.randint(6, 8)
        sizes = [rng.choice([1, 1, 2, 2, 2, 3]) if rank == 6 else rng.choice([1, 2])
                 for _ in range(rank)]
    else:
        rank = rng.randint(1, 5)
        sizes = [rng.randint(1, 4) if rng.random() < 0.9 else rng.randint(5, 7)
                 for _ in range(rank)]
    # (a) explicit strides, or (b) layout / order, with optional broadcast and pad
    t = m.random_tensor(rng, sizes, explicit_p=0.45, explicit_strides=explicit_strides,
                        kinds=order_kinds, pad_p=0.35)
    args = t["args"]
    case = {"dtype": t["dtype"], "sizes": sizes, "strides": t["strides"]}
    if t["order"] is None:
        case["layout_detect"] = m.detect_layout(sizes, t["strides"])
    else:
        case["layout_echo"] = order_name(t["order"])

    if rng.random() < 0.15:
        exp, _, _ = expected_report(t["dtype"], sizes, case["strides"], overlap=False)
        r = rng.random()
        if r < 0.6:
            total = exp["minimum_implied_size_bytes"] + 4 * rng.randint(0, 16)
        elif r < 0.85:
            total = rng.randint(1, 100000)
        else:
            total = rng.randint(U32_MAX, (1 << 64) - 1)  # UINT64 TotalTensorSizeInBytes
        args += ["--total-size", str(total)]
        case["total"] = total
    case["args"] = args
    return case


def fixed_cases():
    M = U32_MAX
    cases = []

    def add(dtype, sizes, strides, args, overlap, layout_echo=None, literal=None):
        c = {"dtype": dtype, "sizes": sizes, "strides": strides, "args": args,
             "overlap": overlap, "literal": literal or {}}
        if layout_echo is not None:
            c["layout_echo"] = layout_echo
        else:
            c["layout_detect"] = m.detect_layout(sizes, strides)
        cases.append(c)

    # The brief's headline: 2^64-scale element count, 2^67-scale bytes, helper wraps to 8.
    add("float64", [M, M], [M, 1], ["--dtype", "float64", "--sizes", "%d,%d" % (M, M)],
        False, "hw",
        {"element_count": 18446744065119617025,
         "minimum_implied_size_bytes": 147573952520956936200,
         "packed_size_bytes": 147573952520956936200,
         "helper_size_bytes": 8})
    # Strides near 2^32 from a col-major layout.
    add("float32", [65536, 65535, 2], [1, 65536, 65536 * 65535],
        ["--sizes", "65536,65535,2", "--layout", "col-major"], False, "whd")
    add("float16", [2, 65535, 65536], [1, 2, 131070],
        ["--dtype", "float16", "--sizes", "2,65535,65536", "--layout", "col-major"],
        False, "whd")
    add("uint8", [1, 2, 32767, 65536], [4294836224, 1, 2, 65534],
        ["--dtype", "uint8", "--sizes", "1,2,32767,65536", "--layout", "nwhc"], False, "nwhc")
    # Explicit maximal strides: index beyond 2^64.
    add("uint64", [M, M], [M, M],
        ["--dtype", "uint64", "--sizes", "%d,%d" % (M, M), "--strides", "%d,%d" % (M, M)],
        True)
    add("int64", [M, 2, 3], [M, 0, 1],
        ["--dtype", "int64", "--sizes", "%d,2,3" % M, "--strides", "%d,0,1" % M], True)
    add("float32", [M], [M],
        ["--sizes", str(M), "--strides", str(M)], False)
    add("int8", [3, M, 5, 7], [M, 1, 0, M - 1],
        ["--dtype", "int8", "--sizes", "3,%d,5,7" % M, "--strides", "%d,1,0,%d" % (M, M - 1)],
        True)
    # Exact 128-bit-scale sizes (count * bits still below 2^128).
    add("uint8", [M, M, M, 65536], [1, 1, 1, 1],
        ["--dtype", "uint8", "--sizes", "%d,%d,%d,65536" % (M, M, M), "--strides", "1,1,1,1"],
        True)
    # 4-bit types at large sizes (no helper_overflow: the helper does not support them).
    add("int4", [M, 3], [3, 1], ["--dtype", "int4", "--sizes", "%d,3" % M], False, "hw")
    add("uint4", [M, 2, 2], [1, 0, 0],
        ["--dtype", "uint4", "--sizes", "%d,2,2" % M, "--strides", "1,0,0"], True)
    # The spec's own examples.
    add("float16", [1, 3, 224, 224], [150528, 1, 672, 3],
        ["--dtype", "float16", "--sizes", "1,3,224,224", "--layout", "nhwc"], False, "nhwc",
        {"minimum_implied_size_bytes": 301056})
    add("float32", [2, 3], [5, 1], ["--sizes", "2,3", "--strides", "5,1"], None, None,
        {"minimum_implied_size_bytes": 32, "padded_size_bytes": 40})
    add("float32", [2, 3], [5, 1], ["--sizes", "2,3", "--pad", "w=2"], None, "hw",
        {"padded_size_bytes": 40})
    # Rank 8 near the 32-bit stride limit.
    s8 = [2, 2, 2, 2, 2, 2, 2, 2]
    add("float64", s8[1:] + [M], layout_strides(s8[1:] + [M], list(range(7, -1, -1))),
        ["--dtype", "float64", "--sizes", ",".join(map(str, s8[1:] + [M])),
         "--layout", "col-major"], False, "col-major")
    add("int16", s8[1:] + [33554431], [2147483584, 1073741792, 536870896, 268435448,
                                       134217724, 67108862, 33554431, 1],
        ["--dtype", "int16", "--sizes", ",".join(map(str, s8[1:] + [33554431]))],
        False, "row-major")
    # The largest TotalTensorSizeInBytes (UINT64) is echoed exactly.
    add("float32", [2, 3], [3, 1],
        ["--sizes", "2,3", "--total-size", str((1 << 64) - 1)], False, "hw")
    cases[-1]["total"] = (1 << 64) - 1
    # Expected errors: a stride over 2^32-1, an element count over 128 bits.
    cases.append({"args": ["--sizes", "65536,65536,2", "--layout", "col-major"], "error": True})
    cases.append({"args": ["--sizes", ",".join([str(M)] * 8), "--strides",
                           ",".join([str(M)] * 8), "--dtype", "float64"], "error": True})
    cases.append({"args": ["--sizes", "2,3,4,5", "--layout", "nhwc", "--pad", "n=1"],
                  "error": True})
    cases.append({"args": ["--sizes", "2,3", "--total-size", str(1 << 64)], "error": True})
    return cases


# ---------------------------------------------------------------- running and comparing

def run_tool(tool, args):
    cmd = [tool, "size"] + args + ["--format", "json"]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return cmd, proc


def check_case(tool, case):
    """Returns a list of failure strings (empty if the case passed)."""
    try:
        cmd, proc = run_tool(tool, case["args"])
    except OSError as e:
        return ["%s size %s: cannot run: %s" % (tool, shell_words(case["args"]), e)]
    text = shell_words(cmd)
    out = proc.stdout.decode("utf-8", "replace")

    if case.get("error"):
        fails = []
        if proc.returncode != 2:
            fails.append("%s: exit status: expected 2, actual %d" % (text, proc.returncode))
        try:
            doc = json.loads(out)
            if not isinstance(doc, dict) or not isinstance(doc.get("error"), dict):
                fails.append("%s: stdout: expected an {\"error\":...} object, actual %r"
                             % (text, out[:200]))
        except ValueError:
            fails.append("%s: stdout is not JSON: %r" % (text, out[:200]))
        return fails

    if proc.returncode != 0:
        return ["%s: exit status: expected 0, actual %d (%s)"
                % (text, proc.returncode, proc.stderr.decode("utf-8", "replace").strip()[:300])]
    try:
        got = json.loads(out)
    except ValueError as e:
        return ["%s: stdout is not JSON (%s): %r" % (text, e, out[:200])]
    if not isinstance(got, dict):
        return ["%s: stdout is not a JSON object: %r" % (text, out[:200])]

    exp, diags, helper = expected_report(case["dtype"], case["sizes"], case["strides"],
                                         case.get("total"), case.get("overlap"))
    fails = []

    def differ(field, e, a):
        fails.append("%s: %s: expected %s, actual %s"
                     % (text, field, json.dumps(e), json.dumps(a)))

    for key, e in exp.items():
        if key not in got:
            fails.append("%s: %s: missing" % (text, key))
            continue
        a = got[key]
        if key == "properties":
            if not isinstance(a, dict):
                differ(key, e, a)
                continue
            for pk, pe in e.items():
                pa = a.get(pk, "<missing>")
                # bool is a subclass of int in python: compare types too
                if pa is not pe and not (type(pa) is type(pe) and pa == pe):
                    differ("properties." + pk, pe, pa)
        elif type(a) is not type(e) or a != e or (
                isinstance(e, list) and any(type(x) is not type(y) for x, y in zip(e, a))):
            differ(key, e, a)

    for key, value in case.get("literal", {}).items():
        if key == "helper_size_bytes":
            if helper != value:
                differ("(self-check) helper_size_bytes", value, helper)
        elif exp.get(key) != value:
            differ("(self-check) " + key, value, exp.get(key))

    # layout
    layout = got.get("layout", "<missing>")
    if "layout_echo" in case:
        if layout != case["layout_echo"]:
            differ("layout", case["layout_echo"], layout)
    else:
        want = case["layout_detect"]
        if want is None:
            if layout is not None:
                differ("layout", None, layout)
        elif parse_order_name(layout, len(case["sizes"])) != want:
            differ("layout", order_name(want), layout)

    # diagnostics
    dl = got.get("diagnostics")
    if not isinstance(dl, list):
        differ("diagnostics", "a list", dl)
    else:
        ids = [d.get("id") for d in dl if isinstance(d, dict)]
        for did in CHECKED_DIAGNOSTICS:
            present = did in ids
            if present != diags[did]:
                differ("diagnostics." + did, "present" if diags[did] else "absent",
                       "present" if present else "absent")
        if diags["helper_overflow"] and "helper_overflow" in ids:
            d = dl[ids.index("helper_overflow")]
            a = d.get("helper_size_bytes", "<missing>")
            if type(a) is not int or a != helper:
                differ("diagnostics.helper_overflow.helper_size_bytes", helper, a)
    return fails


UNITS = ["KiB", "MiB", "GiB", "TiB"]


def check_human_size(binary, n):
    """The text form's "(X unit)" after a byte count: the unit is the largest
    that X stays at least 1 in, X is below 1024 as printed (never 1024.0),
    and within rounding of the bytes (whole: exact; else one decimal)."""
    cmd = [binary, "size", "--dtype", "uint8", "--sizes", str(n)]
    out = subprocess.run(cmd, capture_output=True).stdout.decode()
    line = next((x for x in out.splitlines() if x.startswith("packed size")), "")
    nbytes = round_up4(n)
    text = shell_words(cmd)
    mm = re.match(r"^packed size +(\d+) bytes?(?: \(([0-9.]+) (\w+)\))?$", line)
    if not mm or int(mm.group(1)) != nbytes:
        return ["%s: packed size line %r" % (text, line)]
    if nbytes < 1024:
        return [] if mm.group(2) is None else ["%s: a unit under 1 KiB: %r" % (text, line)]
    x, unit = mm.group(2), mm.group(3)
    if unit not in UNITS:
        return ["%s: unit %r" % (text, unit)]
    scale = 1024 ** (UNITS.index(unit) + 1)
    exact = nbytes / scale
    fails = []
    if float(x) >= 1024 or float(x) < 0.95:
        fails.append("%s: %r: not the largest unit it is at least 1 of" % (text, line))
    if "." in x:
        if abs(float(x) - exact) > 0.05 + 1e-9:
            fails.append("%s: %r: %s is not %.4f to one decimal" % (text, line, x, exact))
    elif int(x) * scale != nbytes:
        fails.append("%s: %r: %s %s is not exactly %d bytes" % (text, line, x, unit, nbytes))
    return fails


def human_size_cases(rng):
    """Byte counts at and around each unit's 1024 boundary, and random ones."""
    ns = set()
    for k in (1, 2, 3):
        for d in (0, 1, 2, 3, 4, 5, 8, 52, 53, 100, 1024 ** (k - 1) // 20 + 4):
            ns.update({1024 ** k - d, 1024 ** k + d})
    ns.update(rng.randint(1, U32_MAX) for _ in range(40))
    return sorted(x for x in ns if 1 <= x <= U32_MAX)


def main(argv):
    opts = m.parse_args(argv, __doc__, cases=400, seed=1234)
    rng = random.Random(opts.seed)
    cases = [make_random_case(rng) for _ in range(opts.cases)] + fixed_cases()
    results = [check_case(opts.dmltensor, case) for case in cases]
    results += [check_human_size(opts.dmltensor, n) for n in human_size_cases(rng)]
    return m.summarize(results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
