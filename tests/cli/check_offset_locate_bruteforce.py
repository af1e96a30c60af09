#!/usr/bin/env python3
"""Brute-force end-to-end check of `dmltensor offset`, `locate` and `validate`.

Usage: check_offset_locate_bruteforce.py DMLTENSOR_PATH [--cases N] [--seed S]

Random small tensors (explicit strides 0..12, giving broadcast, padded and
overlapping tensors, or a layout with --broadcast/--pad modifiers) are run
through the tool and compared with an independent re-implementation of
docs/offsets.md and docs/validation.md:

  offset    every --coord's offset == dot(coord, strides), byte offset,
            nibble for 4-bit types; an out-of-range coordinate is exit 1;
  locate    for every element offset inside the buffer, the coordinates equal
            the full enumeration of the tensor (so locate(offset(c)) holds c),
            padding where none; the first offset past the buffer's end is
            exit 1; --limit; --byte-offset (two nibbles for 4-bit types);
  validate  every check of docs/validation.md recomputed by id, `valid` and the
            exit status; strides_overlap by enumeration, and the strides a
            message says were meant (strides in memory order or in bytes,
            also made on purpose from random layouts) checked to be the
            given ones reordered or divided, with no overlap.

Prints one line per failure and ends with "N passed, M failed" (one per
case).  Exit status 1 if anything failed, else 0.  Standard library only.
"""

import json
import random
import re
import sys

import dmlt_model as m
from dmlt_model import U32_MAX, Case, dot


ERROR_CHECKS = ("total_size_minimum", "total_size_dword", "total_size_elements",
                "alignment_power_of_two", "base_offset_16", "base_offset_alignment",
                "flags_known")
WARNING_CHECKS = ("rank_4_or_5", "alignment_32", "strides_overlap")
# Not run without their option (never given here): status "skipped".
SKIPPED_CHECKS = ("binding_size", "binding_in_buffer")
# Always pass for the well-formed tensors generated here.
PASSING_ERROR_CHECKS = ("rank", "sizes_nonzero", "strides_count")


# ---------------------------------------------------------------- definitions

def offset_map(sizes, strides):
    """offset -> every coordinate with that offset, in row-major order."""
    found = {}
    for coord in m.all_coords(sizes):
        found.setdefault(dot(coord, strides), []).append(list(coord))
    return found


def overlaps_outside_broadcast(sizes, strides):
    """Two different coordinates at one offset, a broadcast dim (size > 1,
    stride 0) held at 0: by enumerating every coordinate."""
    kept = [1 if s > 1 and st == 0 else s for s, st in zip(sizes, strides)]
    seen = set()
    for coord in m.all_coords(kept):
        o = dot(coord, strides)
        if o in seen:
            return True
        seen.add(o)
    return False


def check_meant_strides(c, text, t, cid, message):
    """A message naming the strides meant (--strides X, for strides in bytes
    or in memory order): X is the given strides divided by the element size
    and/or reordered (broadcast dims keep 0), and no two elements of X share
    an offset outside broadcast dims (brute force)."""
    m_ = re.search(r"--strides ([0-9]+(?:,[0-9]+)*)", message)
    if not m_:
        return
    meant = [int(x) for x in m_.group(1).split(",")]
    sizes, given = t["sizes"], t["strides"]
    if len(meant) != len(sizes):
        c.fail(text, "checks.%s: strides meant" % cid, "%d strides" % len(sizes), meant)
        return
    scale = t["bits"] // 8 if "byte strides" in message else 1
    moving = [d for d in range(len(sizes)) if not (sizes[d] > 1 and given[d] == 0)]
    want = [given[d] // scale for d in moving if sizes[d] > 1]
    got = [meant[d] for d in moving if sizes[d] > 1]
    if "memory order" in message:
        # every size > 1 dim's stride meant is one of the given ones, each used once
        pool = [given[d] // scale if given[d] % scale == 0 else 0 for d in moving]
        for x in got:
            if x in pool:
                pool.remove(x)
            else:
                c.fail(text, "checks.%s: strides meant" % cid, "a reordering of %s" % given, meant)
                return
    elif got != want:
        c.fail(text, "checks.%s: strides meant" % cid, "%s divided by %d" % (given, scale), meant)
        return
    if any(sizes[d] > 1 and given[d] == 0 and meant[d] != 0 for d in range(len(sizes))):
        c.fail(text, "checks.%s: strides meant" % cid, "broadcast dims kept at 0", meant)
    if overlaps_outside_broadcast(sizes, meant):
        c.fail(text, "checks.%s: strides meant" % cid, "no overlap (brute force)", meant)


def is_pow2(n):
    return n > 0 and n & (n - 1) == 0


# ---------------------------------------------------------------- case generation

def make_tensor(rng):
    """A random tensor: dict with dtype, bits, sizes, strides, args (the tensor
    flags), layout (asked for by a memory order), last, end and map."""
    if rng.random() < 0.1:
        rank = rng.randint(6, 8)
        sizes = [rng.choice([1, 1, 2, 2, 3]) if rank == 6 else rng.choice([1, 1, 2])
                 for _ in range(rank)]
    else:
        rank = rng.randint(1, 5)
        sizes = [rng.randint(1, 4) for _ in range(rank)]
    # explicit strides 0..12 (broadcast, padded, overlapping, any order), or a
    # layout/order with --broadcast/--pad modifiers
    t = m.random_tensor(rng, sizes, explicit_p=0.5, pad_p=0.4)
    t["layout"] = t["order"] is not None
    t["last"] = sum((s - 1) * st for s, st in zip(sizes, t["strides"]))
    t["end"] = m.bytes_for(t["last"] + 1, t["bits"])  # minimum implied size in bytes
    t["map"] = offset_map(sizes, t["strides"])
    return t


def random_base(rng):
    r = rng.random()
    if r < 0.4:
        return None
    if r < 0.75:
        return 16 * rng.randint(0, 64)
    return rng.randint(0, 5000)


# ---------------------------------------------------------------- 1. offset

def check_offset(c, t, rng):
    sizes, strides, bits = t["sizes"], t["strides"], t["bits"]
    coords = [[rng.randrange(s) for s in sizes] for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.3:
        coords.append([s - 1 for s in sizes])  # the last element
    args = list(t["args"])
    for co in coords:
        args += ["--coord", ",".join(map(str, co))]
    base = random_base(rng)
    if base is not None:
        args += ["--base-offset", str(base)]
    text, doc = c.run_json("offset", args)
    if doc is None:
        return
    base = base or 0
    c.same(text, "dtype", t["dtype"], doc.get("dtype", "<missing>"))
    c.same(text, "sizes", sizes, doc.get("sizes", "<missing>"))
    got_strides = doc.get("strides", "<missing>")
    c.same(text, "strides", strides, got_strides)
    if not (isinstance(got_strides, list) and len(got_strides) == len(sizes)
            and all(type(x) is int for x in got_strides)):
        return
    c.same(text, "base_offset_bytes", base, doc.get("base_offset_bytes", "<missing>"))
    entries = doc.get("offsets")
    if not isinstance(entries, list) or len(entries) != len(coords):
        c.fail(text, "offsets", "a list of %d entries" % len(coords), entries)
        return
    for i, (co, e) in enumerate(zip(coords, entries)):
        if not isinstance(e, dict):
            c.fail(text, "offsets[%d]" % i, "an object", e)
            continue
        c.same(text, "offsets[%d].coord" % i, co, e.get("coord", "<missing>"))
        # the offset from the tool's own strides, and from ours (checked equal above)
        off = dot(co, got_strides)
        c.same(text, "offsets[%d].offset" % i, off, e.get("offset", "<missing>"))
        c.same(text, "offsets[%d].byte_offset" % i, base + off * bits // 8,
               e.get("byte_offset", "<missing>"))
        if bits == 4:
            c.same(text, "offsets[%d].nibble" % i, "low" if off % 2 == 0 else "high",
                   e.get("nibble", "<missing>"))
        elif "nibble" in e:
            c.fail(text, "offsets[%d].nibble" % i, "absent", e["nibble"])
    # The text form: each value starts under its heading, after two spaces.
    text, rc, out, err = c.run("offset", args)
    lines = out.splitlines()
    headings = ["coordinate", "offset", "byte offset"] + (["nibble"] if bits == 4 else [])
    if rc != 0 or len(lines) != len(coords) + 1 or any(h not in lines[0] for h in headings):
        c.fail(text, "text output", "a heading line and %d rows" % len(coords), out[:300])
        return
    starts = [lines[0].index(h) for h in headings]
    for co, line in zip(coords, lines[1:]):
        off = dot(co, got_strides)
        values = [",".join(map(str, co)), str(off), str(base + off * bits // 8)]
        if bits == 4:
            values.append("low" if off % 2 == 0 else "high")
        for col, v in zip(starts, values):
            if line[col:col + len(v)] != v or (col and line[col - 2:col] != "  ") or \
                    line[col + len(v):col + len(v) + 1] not in ("", " "):
                c.fail(text, "text row", "%r at column %d" % (v, col), line)


def check_offset_out_of_range(c, t, rng):
    sizes = t["sizes"]
    d = rng.randrange(len(sizes))
    co = [rng.randrange(s) for s in sizes]
    co[d] = sizes[d]
    text, rc, out, err = c.run("offset", t["args"] + ["--coord", ",".join(map(str, co))])
    if rc is None:
        return
    if rc != 1:
        c.fail(text, "exit status", 1, rc)
    if out != "":
        c.fail(text, "stdout", "", out[:200])
    if not re.search(r"\bdimension %d\b" % d, err):
        c.fail(text, "stderr", "a message naming dimension %d" % d, err.strip()[:300])


# ---------------------------------------------------------------- 2..4. locate

def check_element(c, text, field, e, k, coords, base, bits, limit=None):
    """One entry of locate's `elements` for element offset k."""
    if not isinstance(e, dict):
        c.fail(text, field, "an object", e)
        return
    c.same(text, field + ".offset", k, e.get("offset", "<missing>"))
    c.same(text, field + ".byte_offset", base + k * bits // 8, e.get("byte_offset", "<missing>"))
    if bits == 4:
        c.same(text, field + ".nibble", "low" if k % 2 == 0 else "high",
               e.get("nibble", "<missing>"))
    elif "nibble" in e:
        c.fail(text, field + ".nibble", "absent", e["nibble"])
    listed = coords if limit is None else coords[:limit]
    c.same(text, field + ".coords", listed, e.get("coords", "<missing>"))
    c.same(text, field + ".count", len(listed), e.get("count", "<missing>"))
    c.same(text, field + ".padding", not coords, e.get("padding", "<missing>"))
    c.same(text, field + ".truncated", len(listed) < len(coords), e.get("truncated", "<missing>"))
    c.same(text, field + ".search_complete", True, e.get("search_complete", "<missing>"))


def inside(t, k):
    return k * t["bits"] // 8 < t["end"]


def check_locate_offsets(c, t, rng):
    base = random_base(rng) if rng.random() < 0.3 else None
    extra = [] if base is None else ["--base-offset", str(base)]
    base = base or 0
    k = 0
    while inside(t, k):
        coords = t["map"].get(k, [])
        text, doc = c.run_json("locate", t["args"] + extra + ["--offset", str(k)])
        if doc is not None:
            c.same(text, "query", {"offset": k}, doc.get("query", "<missing>"))
            elems = doc.get("elements")
            if not isinstance(elems, list) or len(elems) != 1:
                c.fail(text, "elements", "a list of 1 entry", elems)
            else:
                check_element(c, text, "elements[0]", elems[0], k, coords, base, t["bits"])
        k += 1
        if len(c.fails) > 20:
            return
    # k is now the first element offset past the buffer's end
    args = t["args"] + extra + ["--offset", str(k)]
    text, rc, out, err = c.run("locate", args)
    if rc is not None:
        if rc != 1:
            c.fail(text, "exit status", 1, rc)
        if out != "":
            c.fail(text, "stdout", "", out[:200])
        if not err.strip():
            c.fail(text, "stderr", "a message", err)
    text, rc, out, err = c.run("locate", args + ["--format", "json"])
    if rc is not None:
        if rc != 1:
            c.fail(text, "exit status", 1, rc)
        try:
            doc = json.loads(out)
            if not (isinstance(doc, dict) and isinstance(doc.get("error"), dict)):
                c.fail(text, "stdout", "an {\"error\":...} object", out[:200])
        except ValueError:
            c.fail(text, "stdout", "an {\"error\":...} object", out[:200])
        if not err.strip():
            c.fail(text, "stderr", "a message", err)


def check_locate_limit(c, t, rng):
    multi = [k for k, v in t["map"].items() if len(v) > 1]
    if multi:
        k = rng.choice(sorted(multi))
    else:
        k = rng.choice(sorted(t["map"]))
    limit = rng.randint(1, 3)
    text, doc = c.run_json("locate", t["args"] + ["--offset", str(k), "--limit", str(limit)])
    if doc is None:
        return
    elems = doc.get("elements")
    if not isinstance(elems, list) or len(elems) != 1:
        c.fail(text, "elements", "a list of 1 entry", elems)
        return
    check_element(c, text, "elements[0]", elems[0], k, t["map"][k], 0, t["bits"], limit)


def check_locate_byte(c, t, rng):
    bits = t["bits"]
    b = rng.randrange(t["end"])  # relative to the base
    base = random_base(rng) if rng.random() < 0.3 else None
    extra = [] if base is None else ["--base-offset", str(base)]
    base = base or 0
    text, doc = c.run_json("locate", t["args"] + extra + ["--byte-offset", str(base + b)])
    if doc is None:
        return
    c.same(text, "query", {"byte_offset": base + b}, doc.get("query", "<missing>"))
    elems = doc.get("elements")
    if bits == 4:
        ks = [2 * b, 2 * b + 1]
        if "byte_in_element" in doc:
            c.fail(text, "byte_in_element", "absent", doc["byte_in_element"])
    else:
        esize = bits // 8
        ks = [b // esize]
        c.same(text, "byte_in_element", b % esize, doc.get("byte_in_element", "<missing>"))
    if not isinstance(elems, list) or len(elems) != len(ks):
        c.fail(text, "elements", "a list of %d entries" % len(ks), elems)
        return
    for i, (k, e) in enumerate(zip(ks, elems)):
        check_element(c, text, "elements[%d]" % i, e, k, t["map"].get(k, []), base, bits)


# ---------------------------------------------------------------- 6. validate

def check_validate(c, t, rng):
    bits, minimum = t["bits"], t["end"]
    elem_limit = U32_MAX * bits // 8  # largest total with total*8 <= (2^32-1)*bits
    args = list(t["args"])

    r = rng.random()
    if r < 0.2:
        total = None  # default: the minimum implied size
    elif r < 0.4:
        total = minimum
    elif r < 0.75:
        total = max(1, minimum + rng.randint(-6, 9))
    elif r < 0.85:
        total = rng.randint(1, 300)
    else:
        total = elem_limit + rng.randint(-5, 5)
    if total is not None:
        args += ["--total-size", str(total)]

    r = rng.random()
    if r < 0.25:
        align = None
    elif r < 0.35:
        align = 0
    elif r < 0.8:
        align = 1 << rng.randint(0, 9)
    else:
        align = rng.choice([3, 5, 6, 12, 24, 48, 96, 100, 384, 1000])
    if align is not None:
        args += ["--alignment", str(align)]

    r = rng.random()
    if r < 0.3:
        base = None
    elif r < 0.6:
        base = 16 * rng.randint(0, 64)
    elif r < 0.75 and align:
        base = align * rng.randint(0, 8)
    else:
        base = rng.randint(0, 3000)
    if base is not None:
        args += ["--base-offset", str(base)]

    flags = rng.choice([None, None, 0, 1, 1, 2, 3])
    if flags is not None:
        spelled = {0: ["0", "none"], 1: ["1", "owned_by_dml"]}.get(flags, [str(flags)])
        args += ["--flags", rng.choice(spelled)]

    total = minimum if total is None else total
    align = align or 0
    base = base or 0
    flags = flags or 0
    esize = max(1, bits // 8)
    rank = len(t["sizes"])
    expect = {
        "total_size_minimum": total >= minimum,
        "total_size_dword": total % 4 == 0,
        "total_size_elements": total * 8 <= U32_MAX * bits,
        "alignment_power_of_two": align == 0 or (is_pow2(align) and align >= esize),
        "base_offset_16": base % 16 == 0,
        "base_offset_alignment": align == 0 or base % align == 0,
        "flags_known": flags & ~1 == 0,
        "rank_4_or_5": rank in (4, 5),
        "alignment_32": align >= 32,
        "strides_overlap": not overlaps_outside_broadcast(t["sizes"], t["strides"]),
    }
    for cid in PASSING_ERROR_CHECKS:
        expect[cid] = True
    valid = all(expect[cid] for cid in ERROR_CHECKS + PASSING_ERROR_CHECKS)

    text, rc, out, err = c.run("validate", args + ["--format", "json"])
    if rc is None:
        return
    if rc != (0 if valid else 1):
        c.fail(text, "exit status", 0 if valid else 1, rc, err.strip()[:200])
    try:
        doc = json.loads(out)
    except ValueError as e:
        c.fails.append("%s: stdout is not JSON (%s): %r" % (text, e, out[:200]))
        return
    if not isinstance(doc, dict):
        c.fail(text, "stdout", "an object", doc)
        return
    c.same(text, "valid", valid, doc.get("valid", "<missing>"))
    checks = doc.get("checks")
    if not isinstance(checks, list):
        c.fail(text, "checks", "a list", checks)
        return
    by_id = {}
    errors = warnings = 0
    for i, ch in enumerate(checks):
        if not isinstance(ch, dict):
            c.fail(text, "checks[%d]" % i, "an object", ch)
            continue
        for key in ("id", "message", "rule"):
            if not isinstance(ch.get(key), str) or not ch.get(key):
                c.fail(text, "checks[%d].%s" % (i, key), "a non-empty string",
                       ch.get(key, "<missing>"))
        if ch.get("level") not in ("error", "warning"):
            c.fail(text, "checks[%d].level" % i, "error|warning", ch.get("level", "<missing>"))
        if ch.get("status") not in ("pass", "fail", "skipped"):
            c.fail(text, "checks[%d].status" % i, "pass|fail|skipped",
                   ch.get("status", "<missing>"))
        if isinstance(ch.get("message"), str):
            check_meant_strides(c, text, t, ch.get("id"), ch["message"])
        if ch.get("id") in by_id:
            c.fail(text, "checks[%d].id" % i, "unique", ch.get("id"))
        by_id[ch.get("id")] = ch
        if ch.get("status") == "fail":
            if ch.get("level") == "error":
                errors += 1
            elif ch.get("level") == "warning":
                warnings += 1
    c.same(text, "errors (failed error checks listed)", errors, doc.get("errors", "<missing>"))
    c.same(text, "warnings (failed warning checks listed)", warnings,
           doc.get("warnings", "<missing>"))
    for cid, ok in expect.items():
        ch = by_id.get(cid)
        if ch is None:
            c.fail(text, "checks." + cid, "present", "missing")
            continue
        level = "warning" if cid in WARNING_CHECKS else "error"
        c.same(text, "checks.%s.level" % cid, level, ch.get("level", "<missing>"))
        c.same(text, "checks.%s.status" % cid, "pass" if ok else "fail",
               ch.get("status", "<missing>"))
    for cid in SKIPPED_CHECKS:
        ch = by_id.get(cid) or {}
        c.same(text, "checks.%s.status" % cid, "skipped", ch.get("status", "<missing>"))
    # valid must also agree with the tool's own list
    tool_valid = not any(ch.get("level") == "error" and ch.get("status") == "fail"
                         for ch in checks if isinstance(ch, dict))
    c.same(text, "valid (from the listed checks)", tool_valid, doc.get("valid", "<missing>"))


# ---------------------------------------------------------------- main

def check_stride_mistakes(c, rng):
    """The classic mistakes, made on purpose: a random layout's strides (with
    padding now and then) listed in memory order, or in bytes, or both.
    strides_overlap must agree with brute force, and when the mistake makes
    elements meet (memory order) or leaves the total too small (bytes) the
    message must name strides meant, which check_meant_strides verifies."""
    rank = rng.randint(2, 5)
    sizes = [rng.randint(1, 4) for _ in range(rank)]
    dtype = rng.choice([d for d in m.DTYPE_NAMES if m.DTYPE_BITS[d] >= 16])
    bits = m.DTYPE_BITS[dtype]
    order = list(range(rank))
    rng.shuffle(order)
    pad = {order[k]: rng.randint(1, 2) for k in range(1, rank) if rng.random() < 0.2}
    true = m.layout_strides(sizes, order, pad=pad)
    mistake = rng.choice(["order", "bytes", "both"])
    given = list(true)
    if mistake in ("order", "both"):
        given = [true[d] for d in order]  # outermost first, as memory lists them
    if mistake in ("bytes", "both"):
        given = [x * bits // 8 for x in given]
    t = {"sizes": sizes, "strides": given, "bits": bits}
    minimum = m.bytes_for(sum((s - 1) * st for s, st in zip(sizes, true)) + 1, bits)
    args = ["--dtype", dtype, "--sizes", ",".join(map(str, sizes)),
            "--strides", ",".join(map(str, given)), "--total-size", str(minimum),
            "--format", "json"]
    text, rc, out, err = c.run("validate", args)
    if rc is None:
        return
    try:
        checks = {ch["id"]: ch for ch in json.loads(out)["checks"]}
    except (ValueError, KeyError, TypeError) as e:
        c.fails.append("%s: no checks (%s): %r" % (text, e, out[:200]))
        return
    overlap = overlaps_outside_broadcast(sizes, given)
    ch = checks.get("strides_overlap", {})
    c.same(text, "checks.strides_overlap.status", "fail" if overlap else "pass",
           ch.get("status", "<missing>"))
    for cid in ("strides_overlap", "total_size_minimum"):
        check_meant_strides(c, text, t, cid, checks.get(cid, {}).get("message", ""))
    # A hint is owed: memory order that overlaps (its true order is a way
    # out), and byte strides whose total is too small.
    owed = [cid for cid, due in (
        ("strides_overlap", overlap),
        ("total_size_minimum", mistake == "bytes"
         and checks.get("total_size_minimum", {}).get("status") == "fail"))
        if due and "--strides " not in checks.get(cid, {}).get("message", "")]
    for cid in owed:
        c.fail(text, "checks.%s.message" % cid, "the strides meant",
               checks[cid].get("message", "<missing>"))


def check_case(tool, rng):
    t = make_tensor(rng)
    c = Case(tool)
    check_offset(c, t, rng)
    check_offset_out_of_range(c, t, rng)
    check_locate_offsets(c, t, rng)
    if any(len(v) > 1 for v in t["map"].values()) or rng.random() < 0.2:
        check_locate_limit(c, t, rng)
    check_locate_byte(c, t, rng)
    check_validate(c, t, rng)
    check_stride_mistakes(c, rng)
    return c.fails


def main(argv):
    opts = m.parse_args(argv, __doc__, cases=300, seed=4321)
    rng = random.Random(opts.seed)
    return m.summarize(check_case(opts.dmltensor, rng) for _ in range(opts.cases))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
