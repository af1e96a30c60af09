#!/usr/bin/env python3
"""Brute-force end-to-end check of `dmltensor map` in every --format.

Usage: check_map_bruteforce.py DMLTENSOR_PATH [--cases N] [--seed S]

Random small tensors (ranks 1..8, mostly 1..5, sizes 1..5, every data type
including int4/uint4; explicit strides 0..12, sometimes near 2^32, giving
broadcast, padded and overlapping tensors, or a --layout/--order with
--broadcast/--pad modifiers; an optional --base-offset up to 2^64-1) are
listed by the tool and compared with the full enumeration done here: every
coordinate in logical row-major order (the last dim fastest) with

  offset       dot(coord, strides)
  byte_offset  base + offset * bits // 8
  nibble       4-bit types only: "low" for an even offset, else "high"

Each of --format text, csv, jsonl and json is parsed back (text: the header
line, then right-aligned offset columns under their headings; csv: a header
of the dimension letters or d0..d7; jsonl: an object per line; json: one
array of those objects) and must equal that list exactly, with exit status 0
and nothing on stderr.  --limit N must give the first N rows (text adds
"... K more elements (raise --limit)" when it left K out).  A few fixed
cases check exact integers past 2^64 and the first rows of huge tensors.

Prints one line per failure and ends with "N passed, M failed" (one per
case).  Exit status 1 if anything failed, else 0.  Standard library only.
"""

import itertools
import json
import random
import re
import sys

import dmlt_model as m
from dmlt_model import U32_MAX, U64_MAX, Case

FORMATS = ("text", "csv", "jsonl", "json")
NUMBER = re.compile(r"0|[1-9][0-9]*")  # a decimal integer as the tool writes it


# ---------------------------------------------------------------- expectation

def expected_rows(t, base, limit=None):
    """The rows of `map`: (coord, offset, byte_offset[, nibble]) in logical
    row-major order, the first `limit` of them (all if None)."""
    rows = []
    bits, strides = t["bits"], t["strides"]
    for coord in itertools.islice(m.all_coords(t["sizes"]), limit):
        off = m.dot(coord, strides)
        row = (list(coord), off, base + off * bits // 8)
        if bits == 4:
            row += ("low" if off % 2 == 0 else "high",)
        rows.append(row)
    return rows


# ---------------------------------------------------------------- parsing

class ParseError(Exception):
    pass


def number(text, what):
    if not NUMBER.fullmatch(text):
        raise ParseError("%s: not a decimal integer: %r" % (what, text))
    return int(text)


def coord_list(text, rank, what):
    parts = text.split(",")
    if len(parts) != rank:
        raise ParseError("%s: expected %d coordinates, got %r" % (what, rank, text))
    return [number(p, what) for p in parts]


def lines_of(out):
    if not out.endswith("\n"):
        raise ParseError("stdout does not end with a newline: %r" % out[-80:])
    return out[:-1].split("\n")


TEXT_HEADER = re.compile(r"coordinate( {2,})offset( {2,})byte offset(?:( {2,})nibble)?")
TEXT_ROW = re.compile(r"(?P<coord>[0-9,]+)( {2,})(?P<off>[0-9]+)( {2,})(?P<byte>[0-9]+)"
                      r"(?:( {2,})(?P<nib>low|high))?")
TEXT_MORE = re.compile(r"\.\.\. (?P<n>[0-9]+) more elements \(raise --limit\)")


def parse_text(out, rank, four_bit):
    """Returns (rows, K of the "... K more elements" line or None)."""
    lines = lines_of(out)
    hm = TEXT_HEADER.fullmatch(lines[0])
    if not hm or (hm.group(3) is not None) != four_bit:
        raise ParseError("header: expected 'coordinate  offset  byte offset%s', got %r"
                         % ("  nibble" if four_bit else "", lines[0]))
    off_end = hm.end(1) + len("offset")
    byte_end = hm.end(2) + len("byte offset")
    nib_start = hm.start(3) + len(hm.group(3)) if four_bit else None
    more = None
    body = lines[1:]
    if body and body[-1].startswith("..."):
        mm = TEXT_MORE.fullmatch(body[-1])
        if not mm:
            raise ParseError("last line: %r" % body[-1])
        more = number(mm.group("n"), "the more-elements count")
        body = body[:-1]
    rows = []
    for i, line in enumerate(body, 2):
        rm = TEXT_ROW.fullmatch(line)
        if not rm or (rm.group("nib") is not None) != four_bit:
            raise ParseError("line %d: not a row: %r" % (i, line))
        # aligned: numbers right-aligned under their headings, the nibble
        # left-aligned under its own
        if rm.end("off") != off_end or rm.end("byte") != byte_end or (
                four_bit and rm.start("nib") != nib_start):
            raise ParseError("line %d: not aligned with the header %r: %r" % (i, lines[0], line))
        row = (coord_list(rm.group("coord"), rank, "line %d" % i),
               number(rm.group("off"), "line %d offset" % i),
               number(rm.group("byte"), "line %d byte offset" % i))
        if four_bit:
            row += (rm.group("nib"),)
        rows.append(row)
    return rows, more


def parse_csv(out, rank, four_bit):
    lines = lines_of(out)
    header = ",".join(m.dim_names(rank) + ["offset", "byte_offset"]
                      + (["nibble"] if four_bit else []))
    if lines[0] != header:
        raise ParseError("header: expected %r, got %r" % (header, lines[0]))
    rows = []
    for i, line in enumerate(lines[1:], 2):
        f = line.split(",")
        if len(f) != rank + 2 + four_bit:
            raise ParseError("line %d: expected %d fields: %r" % (i, rank + 2 + four_bit, line))
        what = "line %d" % i
        row = ([number(x, what) for x in f[:rank]], number(f[rank], what),
               number(f[rank + 1], what))
        if four_bit:
            if f[rank + 2] not in ("low", "high"):
                raise ParseError("%s: nibble %r" % (what, f[rank + 2]))
            row += (f[rank + 2],)
        rows.append(row)
    return rows


def no_duplicate_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ParseError("duplicate keys: %r" % keys)
    return dict(pairs)


def json_value(text, what):
    try:
        return json.loads(text, object_pairs_hook=no_duplicate_keys)
    except ValueError as e:
        raise ParseError("%s: not JSON (%s): %r" % (what, e, text[:200]))


def is_int(x):
    return type(x) is int  # not bool, not float


def object_row(o, rank, four_bit, what):
    keys = {"coord", "offset", "byte_offset"} | ({"nibble"} if four_bit else set())
    if not isinstance(o, dict) or set(o) != keys:
        raise ParseError("%s: expected an object with keys %s, got %s"
                         % (what, sorted(keys), json.dumps(o)[:200]))
    coord = o["coord"]
    if not (isinstance(coord, list) and len(coord) == rank and all(map(is_int, coord))
            and is_int(o["offset"]) and is_int(o["byte_offset"])):
        raise ParseError("%s: bad types or coordinate count: %s" % (what, json.dumps(o)))
    row = (coord, o["offset"], o["byte_offset"])
    if four_bit:
        if o["nibble"] not in ("low", "high"):
            raise ParseError("%s: nibble %r" % (what, o["nibble"]))
        row += (o["nibble"],)
    return row


def parse_jsonl(out, rank, four_bit):
    return [object_row(json_value(line, "line %d" % i), rank, four_bit, "line %d" % i)
            for i, line in enumerate(lines_of(out), 1)]


def parse_json(out, rank, four_bit):
    doc = json_value(out, "stdout")
    if not isinstance(doc, list):
        raise ParseError("stdout is not a JSON array: %r" % out[:200])
    return [object_row(o, rank, four_bit, "[%d]" % i) for i, o in enumerate(doc)]


PARSERS = {"csv": parse_csv, "jsonl": parse_jsonl, "json": parse_json}


# ---------------------------------------------------------------- checking

def compare_rows(c, text, expected, actual):
    if actual == expected:
        return
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e != a:
            c.fail(text, "row %d (of %d)" % (i, len(expected)), e, a)
            return
    c.fail(text, "row count", len(expected), len(actual),
           "first extra row %s" % json.dumps(actual[len(expected)]) if len(actual) > len(expected)
           else "first missing row %s" % json.dumps(expected[len(actual)]))


def run_map(c, t, fmt, extra, base, limit, count):
    """One `map` run in one format: exit 0, empty stderr, the expected rows."""
    args = list(t["args"]) + extra
    if limit is not None:
        args += ["--limit", str(limit)]
    if fmt != "text" or t.get("spell_text", True):
        args += ["--format", fmt]
    text, rc, out, err = c.run("map", args)
    if rc is None:
        return
    if rc != 0:
        c.fail(text, "exit status", 0, rc, err.strip()[:300])
        return
    if err:
        c.fail(text, "stderr", "", err[:300])
    four_bit = t["bits"] == 4
    rank = len(t["sizes"])
    try:
        if fmt == "text":
            rows, more = parse_text(out, rank, four_bit)
            left = count - limit if limit is not None and count > limit else None
            c.same(text, "the '... K more elements' line (K)", left, more)
        else:
            rows = PARSERS[fmt](out, rank, four_bit)
    except ParseError as e:
        c.fails.append("%s: %s" % (text, e))
        return
    compare_rows(c, text, expected_rows(t, base, limit), rows)


def random_sizes(rng):
    if rng.random() < 0.1:
        # ranks 6..8: mostly 1s and 2s, one dim up to 5 (at most 640 elements)
        rank = rng.randint(6, 8)
        sizes = [rng.choice([1, 1, 2, 2, 3]) if rank == 6 else rng.choice([1, 1, 2])
                 for _ in range(rank)]
        sizes[rng.randrange(rank)] = rng.randint(1, 5)
        return sizes
    return [rng.randint(1, 5) for _ in range(rng.randint(1, 5))]


def map_strides(rng, sizes):
    """Explicit strides: mostly 0..12 (broadcast, padded, overlapping); else
    some near 2^32, for offsets and byte offsets past 2^32 and 2^64."""
    if rng.random() < 0.85:
        return m.small_strides(rng, sizes)
    return [rng.choice([0, 1, rng.randint(2, 12), 1 << 31, U32_MAX - 1, U32_MAX,
                        rng.randint(0, U32_MAX)]) for _ in sizes]


def random_base(rng):
    r = rng.random()
    if r < 0.35:
        return None
    if r < 0.65:
        return 16 * rng.randint(0, 64)
    if r < 0.85:
        return rng.randint(0, 5000)
    return rng.choice([U64_MAX, U64_MAX - rng.randint(0, 100), rng.randint(0, U64_MAX)])


def check_case(tool, rng):
    t = m.random_tensor(rng, random_sizes(rng), explicit_p=0.5, explicit_strides=map_strides)
    t["spell_text"] = rng.random() < 0.5  # text is the default format
    sizes = t["sizes"]
    count = m.product(sizes)
    extra = []
    base = random_base(rng)
    if base is not None:
        extra += ["--base-offset", str(base)]
    if rng.random() < 0.1:
        # TotalTensorSizeInBytes changes nothing in the rows
        last = sum((s - 1) * st for s, st in zip(sizes, t["strides"]))
        extra += ["--total-size", str(m.bytes_for(last + 1, t["bits"]) + 4 * rng.randint(0, 8))]
    base = base or 0
    c = Case(tool)
    for fmt in FORMATS:
        run_map(c, t, fmt, extra, base, None, count)
    # --limit: the first N rows; text says how many it left out
    limit = rng.choice([1, rng.randint(1, count), count, count + 1, count + 100])
    run_map(c, t, "text", extra, base, limit, count)
    run_map(c, t, rng.choice(FORMATS[1:]), extra, base, limit, count)
    return c.fails


def fixed_cases():
    """Exact integers past 2^64, and the first rows of tensors too big to list."""
    M, B = U32_MAX, U64_MAX
    cases = []

    def add(dtype, sizes, strides, args, base=None, limit=None):
        t = {"dtype": dtype, "bits": m.DTYPE_BITS[dtype], "sizes": sizes, "strides": strides,
             "args": ["--dtype", dtype, "--sizes", ",".join(map(str, sizes))] + args}
        cases.append((t, base, limit))

    def s(*strides):
        return ["--strides", ",".join(map(str, strides))]

    # byte offsets above 2^64: 2^64-1 + 8 x (2^33-2)
    add("float64", [2, 2], [M, M], s(M, M), base=B)
    add("int64", [2, 2, 2, 2, 2, 2, 2, 2], [M] * 8, s(*[M] * 8), base=B - 7)
    # 4-bit: odd offsets past 2^32 are high nibbles, byte = base + offset // 2
    add("uint4", [2, 3], [M, M - 1], s(M, M - 1), base=B)
    add("int4", [M], [M], s(M), base=B, limit=5)
    # huge tensors: the first rows only, and an exact count of the rest
    add("float64", [M, M], [M, 1], [], limit=7)
    add("float16", [M, M], [1, M], ["--layout", "col-major"], base=B, limit=5)
    add("uint8", [M, M, M, 65536], [1, 1, 1, 1], s(1, 1, 1, 1), base=B, limit=3)
    # rank 8 with a 10-digit last size: wide text coordinates, d0..d7 in csv
    add("float32", [1, 1, 1, 1, 1, 1, 1, M], [M] * 8, s(*[M] * 8), base=B, limit=4)
    return cases


def check_fixed(tool, t, base, limit):
    count = m.product(t["sizes"])
    extra = [] if base is None else ["--base-offset", str(base)]
    c = Case(tool)
    for fmt in FORMATS:
        run_map(c, t, fmt, extra, base or 0, limit, count)
    return c.fails


def self_check():
    """The expectation itself, on a case worked by hand."""
    t = {"bits": 64, "sizes": [2, 2], "strides": [U32_MAX, U32_MAX]}
    got = expected_rows(t, U64_MAX)
    want = [([0, 0], 0, 18446744073709551615),
            ([0, 1], 4294967295, 18446744108069289975),
            ([1, 0], 4294967295, 18446744108069289975),
            ([1, 1], 8589934590, 18446744142429028335)]
    assert got == want, got
    t = {"bits": 4, "sizes": [3], "strides": [3]}
    assert expected_rows(t, 10) == [([0], 0, 10, "low"), ([1], 3, 11, "high"),
                                    ([2], 6, 13, "low")]


def main(argv):
    opts = m.parse_args(argv, __doc__, cases=300, seed=2718)
    self_check()
    rng = random.Random(opts.seed)
    results = itertools.chain(
        (check_case(opts.dmltensor, rng) for _ in range(opts.cases)),
        (check_fixed(opts.dmltensor, *case) for case in fixed_cases()))
    return m.summarize(results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
