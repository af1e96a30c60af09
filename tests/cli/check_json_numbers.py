#!/usr/bin/env python3
"""JSON numbers are read exactly from their text, in every JSON path.

Usage: check_json_numbers.py DMLTENSOR_PATH [--cases N] [--seed S]

N random number texts (default 3,000, fixed seed): integers of 1 to 40
digits (often near 2^32, 2^53 and 2^64), with and without a sign, leading
zeros, a fraction part and an exponent part, which denote an integer or not
(1.50e1 is 15, 1.5e0 is not), and texts that are not JSON numbers at all
(01, 1., .5, +1, 1e, --1). Python reads each one exactly (decimal.Decimal,
fractions.Fraction); dmltensor must agree, through each JSON path:

  plain     batch, {"id":T,"sizes":[2],"total_tensor_size_bytes":T}: records
            whose numbers are all digits take batch's plain path (no tree);
  general   batch, the same with "layout":null, which the plain path never
            takes: the parser and the tree;
  list      batch, {"id":T,"sizes":[T]} (a 32-bit size in a list);
  scan      scan of one document holding, for each text,
            {"DataType":"UINT8","Sizes":[4],"TotalTensorSizeInBytes":T}.

What must come back:
  * not a JSON number: the record is bad_json (batch), the document is
    refused with exit 2 (scan, run on its own for a sample of such texts);
  * a whole number of at least 0 (-0, 1e2, 10E-1 included) within the
    key's range: read exactly (total_tensor_size_bytes in the result, the
    scan's TotalTensorSizeInBytes message, sizes[0]);
  * a whole number past the range (2^64 - 1 for the total, 2^32 - 1 and at
    least 1 for a size): out_of_range (zero_size for a size of 0);
  * a fraction or a negative number: bad_number, the text quoted as written
    (in the error's "text", and its first 40 characters in the message);
  * the id: echoed as written, byte for byte, whatever the number.

And size's own JSON fed back (docs/batch.md promises it can be): for about
300 random tensors (broadcast, padding, explicit strides, sizes up to
2^32 - 1, totals past 2^53), batch takes each line size prints and answers
with the same object (but "layout", named from the strides then).

Prints one FAIL line per mismatch and ends with "N passed, M failed".
Standard library only.
"""

import argparse
import json
import random
import re
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction

import dmlt_model as m

U32_MAX = (1 << 32) - 1
U64_MAX = (1 << 64) - 1
NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?\Z")


def exact(text):
    """None if text is not a JSON number, else its exact value (a Fraction)."""
    if not NUMBER.match(text):
        return None
    return Fraction(Decimal(text))


def random_digits(rng):
    r = rng.random()
    if r < 0.25:  # near a boundary
        base = rng.choice([1 << 32, 1 << 53, 1 << 64, 10 ** 15, 10 ** 17, 10 ** 20])
        return str(max(0, base + rng.randint(-3, 3)))
    if r < 0.3:
        return "0"
    n = rng.randint(1, 40)
    return str(rng.randint(1, 9)) + "".join(rng.choice("0123456789") for _ in range(n - 1))


def random_text(rng):
    """A number text: mostly valid JSON, some not."""
    digits = random_digits(rng)
    sign = "-" if rng.random() < 0.12 else ""
    frac = ""
    if rng.random() < 0.3:
        frac = "." + rng.choice(["0", "00", "5", "50", "0000000000000001", "9999999999999999",
                                 "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 25)))])
    exp = ""
    if rng.random() < 0.3:
        e = rng.choice([0, 1, 2, 3, 16, 20, -1, -2, -3, -16, -20, 400, -400,
                        rng.randint(-45, 45)])
        exp = rng.choice("eE") + (rng.choice(["", "+"]) if e >= 0 else "-") + str(abs(e))
        if e == 0 and rng.random() < 0.3:
            exp = "e-0"
    text = sign + digits + frac + exp
    r = rng.random()
    if r < 0.04:
        text = "0" + text.lstrip("-")  # a leading zero (valid only when it stays "0...")
    elif r < 0.06:
        text = text + "."
    elif r < 0.07:
        text = "+" + text.lstrip("-")
    elif r < 0.08:
        text = "." + text.lstrip("-")
    elif r < 0.09:
        text = text + "e"
    elif r < 0.10:
        text = "-" + text
    elif r < 0.11:
        text = text + "e+"
    return text


def expect(text, lo, hi):
    """What reading text for a key of range lo..hi must give:
    ("bad_json",), ("value", v), or ("error", id)."""
    v = exact(text)
    if v is None:
        return ("bad_json",)
    if v.denominator != 1 or v < 0:
        return ("error", "bad_number")
    v = int(v)
    if v > hi:
        return ("error", "out_of_range")
    if v < lo:
        return ("error", "zero_size" if lo == 1 else "out_of_range")
    return ("value", v)


def random_size_args(rng):
    """A random tensor as `size` options: dmlt_model's layouts, broadcast,
    pad and explicit strides, some sizes at 65536 and 2^32 - 1, sometimes a
    total past 2^53 or 2^64 - 1."""
    rank = rng.randint(1, 6)
    sizes = [rng.choice([1, 2, 3, 65536, U32_MAX]) if rng.random() < 0.3 else rng.randint(1, 9)
             for _ in range(rank)]
    args = m.random_tensor(rng, sizes)["args"]
    if rng.random() < 0.3:
        args = args + ["--total-size", str(rng.choice([(1 << 53) + 1, U64_MAX, 12345]))]
    return args


def run(binary, args, stdin):
    p = subprocess.run([binary] + args, input=stdin.encode(), capture_output=True)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8", "replace")


def raw_id(line):
    """The id's text as written in an output line: the first value."""
    assert line.startswith('{"id":'), line
    rest = line[6:]
    m = re.match(r'-?[0-9][0-9.eE+-]*|null|"', rest)
    assert m, line
    return m.group(0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    texts = [random_text(rng) for _ in range(args.cases)]
    # Fixed cases: the and the edges.
    texts += ["9007199254740993", "100000000000000010", "99999999999999999",
              "2.9999999999999999", "-1e-400", "1.0000000000000001", "1E400", "-0", "-0.0e5",
              "18446744073709551615", "18446744073709551616", "4294967295", "4294967296",
              "1e19", "1.8446744073709551615e19", "184467440737095516150e-1", "0e99999",
              "1" + "0" * 63, "1" + "0" * 64, "1e63", "1e64", "01", "00", "-", "1.e1"]
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL " + what)

    # ---- batch, plain and general paths ----
    for path in ("plain", "general", "list"):
        records = []
        for t in texts:
            if path == "list":
                records.append('{"id":%s,"sizes":[%s]}' % (t, t))
            else:
                extra = ',"layout":null' if path == "general" else ""
                records.append('{"id":%s,"sizes":[2],"total_tensor_size_bytes":%s%s}' % (t, t, extra))
        rc, out, err = run(args.binary, ["batch", "-"], "\n".join(records) + "\n")
        lines = out.splitlines()
        check(len(lines) == len(texts), "%s: %d output lines for %d records" % (path, len(lines), len(texts)))
        for t, rec, line in zip(texts, records, lines):
            lo, hi = (1, U32_MAX) if path == "list" else (0, U64_MAX)
            want = expect(t, lo, hi)
            doc = json.loads(line)
            err = doc.get("error")
            what = "%s: %s -> %s" % (path, rec, line[:300])
            if want[0] == "bad_json":
                check(err is not None and err["id"] == "bad_json" and doc["id"] is None, what)
                continue
            # A JSON number: the id is echoed as written.
            check(raw_id(line) == t, what + " (id not echoed as written)")
            if want[0] == "value":
                got = doc.get("sizes", [None])[0] if path == "list" else doc.get("total_tensor_size_bytes")
                check(err is None and got == want[1], what + " (expected %d)" % want[1])
            else:
                check(err is not None and err["id"] == want[1], what + " (expected %s)" % want[1])
                if err is not None and err["id"] == "bad_number":
                    check(t in err.get("text", "").split(",") and t[:40] in err["message"],
                          what + " (the text not quoted as written)")

    # ---- scan ----
    valid = [t for t in texts if exact(t) is not None]
    doc = "[" + ",\n".join('{"DataType":"UINT8","Sizes":[4],"TotalTensorSizeInBytes":%s}' % t
                           for t in valid) + "]"
    rc, out, err = run(args.binary, ["scan", "-"], doc)
    lines = out.splitlines()
    check(len(lines) == len(valid), "scan: %d output lines for %d descriptions" % (len(lines), len(valid)))
    for t, line in zip(valid, lines):
        want = expect(t, 0, U64_MAX)
        d = json.loads(line)
        what = "scan: TotalTensorSizeInBytes %s -> %s" % (t, line[:300])
        if want[0] == "value":
            msgs = [c["message"] for c in d.get("checks", []) if c["id"] == "total_size_minimum"]
            m = re.match(r"TotalTensorSizeInBytes (\d+) ", msgs[0]) if msgs else None
            check(m is not None and int(m.group(1)) == want[1], what + " (expected %d)" % want[1])
        else:
            e = d.get("error")
            check(e is not None and e["id"] == want[1], what + " (expected %s)" % want[1])
    # A document holding a text that is not a JSON number is refused whole.
    invalid = [t for t in texts if exact(t) is None]
    for t in invalid[:40]:
        rc, out, err = run(args.binary, ["scan", "-"],
                           '{"DataType":"UINT8","Sizes":[4],"TotalTensorSizeInBytes":%s}' % t)
        check(rc == 2 and out == "" and "JSON" in err, "scan: %r: exit %d, %r" % (t, rc, err))

    # ---- size's own JSON, fed back ----
    # Random tensors (layouts with broadcast and pad, explicit strides, sizes
    # up to 2^32 - 1, totals past 2^53 and 2^64 - 1): every line size prints
    # is a descriptor batch takes, and answers with the same object (but
    # "layout", named from the strides then: null for strides no packed
    # layout has).
    cmds, outs = [], []
    for args_ in [["--dtype", "uint8", "--sizes", "2,65536,65536", "--broadcast", "h"],
                  ["--dtype", "float64", "--sizes", "4294967295,4294967295,3", "--strides",
                   "1,4294967295,0", "--total-size", str(U64_MAX)]] + \
            [random_size_args(rng) for _ in range(300)]:
        p = subprocess.run([args.binary, "size"] + args_ + ["--format", "json"], capture_output=True)
        if p.returncode == 0:
            cmds.append(args_)
            outs.append(p.stdout.decode().strip())
    check(len(outs) > 200, "feedback: only %d of the random tensors were valid" % len(outs))
    rc, out, err = run(args.binary, ["batch", "-"], "\n".join(outs) + "\n")
    lines = out.splitlines()
    check(len(lines) == len(outs), "feedback: %d lines for %d records" % (len(lines), len(outs)))
    for a_, given, line in zip(cmds, outs, lines):
        want, got = json.loads(given), json.loads(line)
        diff = sorted(k for k in set(want) | set(got) if k != "layout" and want.get(k) != got.get(k))
        check(not diff, "feedback: size %s -> batch differs in %s: %s" % (" ".join(a_), diff, line[:300]))

    kinds = {}
    for t in texts:
        k = expect(t, 0, U64_MAX)
        key = k[0] if k[0] != "error" else k[1]
        kinds[key] = kinds.get(key, 0) + 1
    print("texts: %d (%s)" % (len(texts), ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
