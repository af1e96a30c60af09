#!/usr/bin/python3
"""`dmltensor view` against NumPy's views of the same strided array.

Usage: check_view_numpy.py DMLTENSOR [--cases N] [--seed S]

Run it with Debian's /usr/bin/python3, which has numpy (python3-numpy).

Each case is a random parent (every byte-sized data type, ranks 1..6,
layouts with padding and broadcast, or explicit strides, a random base
offset) and a random chain of one to four operations (dmlt_model.
random_view_ops: slices, selects, permutes, broadcast_to, reshapes and
splits, some of them meant to fail). All cases go through one `dmltensor
batch` as records {"command":"view",...,"ops":[...]}.

NumPy's side: the parent is np.lib.stride_tricks.as_strided over a buffer
whose element i holds i, so every element of a NumPy view holds the buffer
element it reads. The same operations on it (a[..., start:stop:step],
a[..., i], transpose, broadcast_to, `v.shape = new`, which refuses a reshape
that needs a copy, np.split) give the expected views. For each view:

  - the sizes are NumPy's shape;
  - every element's byte offset (Offset - base offset + coordinate . Strides
    x element size) is NumPy's buffer element x element size;
  - source is the parent coordinate of element 0 (the same operations on
    the parent's logical indices);
  - TotalTensorSizeInBytes = SizeInBytes is the minimum implied size of the
    view's sizes and strides, GuaranteedBaseOffsetAlignment the largest
    power of two dividing the view's byte offset (at most 16, or the
    parent's --alignment), base_offset_16 and binding_in_buffer say what the
    offsets say, and valid follows the error-level checks;

and a chain NumPy refuses is refused with the matching error (a reshape
that needs a copy: exit 1, "reshape_copy"; a negative step, an empty slice,
an index out of range, a split that does not divide: usage errors), while a
chain NumPy accepts is accepted. Prints 'N passed, M failed'.
"""
import json
import os
import random
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dmlt_model as m  # noqa: E402

BYTE_TYPES = [name for name, bits, _ in m.DTYPES if bits >= 8]


class Refused(Exception):
    """NumPy (or DirectML's rules) refuse the operation: the error id expected."""

    def __init__(self, error_id):
        super().__init__(error_id)
        self.error_id = error_id


def dim_of(text, rank):
    if rank <= 5 and len(text) == 1 and text in m.LETTERS[rank]:
        return m.LETTERS[rank].index(text)
    return int(text)


def apply(kind, text, a):
    """The operation on array a, as NumPy does it; Refused as dmltensor should."""
    rank = a.ndim
    if kind in ("slice", "select", "split"):
        dim_text, _, rest = text.partition("=")
        d = dim_of(dim_text, rank)
        pre = (slice(None),) * d
    if kind == "slice":
        parts = rest.split(":")
        start = int(parts[0]) if parts[0] else None
        stop = int(parts[1]) if parts[1] else None
        step = int(parts[2]) if len(parts) > 2 and parts[2] else 1
        if step < 0:
            raise Refused("negative_step")
        if step == 0:
            raise Refused("bad_step")
        v = a[pre + (slice(start, stop, step),)]
        if v.shape[d] == 0:
            raise Refused("empty_slice")
        return [v]
    if kind == "select":
        index = int(rest)
        if not -a.shape[d] <= index < a.shape[d]:
            raise Refused("index_range")
        if rank == 1:
            raise Refused("select_rank")
        return [a[pre + (index,)]]
    if kind == "permute":
        if rank <= 5 and text.isalpha():
            order = [m.LETTERS[rank].index(c) for c in text]
        else:
            order = [int(x) for x in text.split(",")]
        if sorted(order) != list(range(rank)):
            raise Refused("bad_order")
        return [a.transpose(order)]
    if kind == "broadcast_to":
        shape = tuple(int(x) for x in text.split(","))
        if len(shape) < rank:
            raise Refused("broadcast_rank")
        try:
            return [np.broadcast_to(a, shape)]
        except ValueError:
            raise Refused("broadcast_size") from None
    if kind == "reshape":
        shape = tuple(int(x) for x in text.split(","))
        v = a.view()
        try:
            v.shape = shape
        except AttributeError:  # "Incompatible shape for in-place modification"
            raise Refused("reshape_copy") from None
        except ValueError:  # another element count
            raise Refused("reshape_count") from None
        return [v]
    # split
    if "+" in rest:
        sizes = [int(x) for x in rest.split("+")]
        if sum(sizes) != a.shape[d]:
            raise Refused("split_sum")
        cuts = list(np.cumsum(sizes)[:-1])
        return np.split(a, cuts, axis=d)
    n = int(rest)
    if a.shape[d] % n:
        raise Refused("split_unequal")
    return np.split(a, n, axis=d)


def apply_all(ops, a):
    """Every view, in order; each part of a split goes through the rest of
    the operations before the next part (so the first refusal is the same
    as dmltensor's)."""
    if not ops:
        return [a]
    (kind, text), rest = ops[0], ops[1:]
    return [w for v in apply(kind, text, a) for w in apply_all(rest, v)]


def logical_chain(ops, sizes):
    """The same operations on the parent's logical indices (a copy allowed:
    only which parent element each view element is matters)."""
    views = [np.arange(m.product(sizes), dtype=np.int64).reshape(sizes)]
    for kind, text in ops:
        if kind == "reshape":
            shape = tuple(int(x) for x in text.split(","))
            views = [np.reshape(v, shape) for v in views]
        else:
            views = [w for v in views for w in apply(kind, text, v)]
    return views


def random_case(rng):
    rank = rng.choice([1, 2, 3, 3, 4, 4, 4, 5, 6])
    sizes = [rng.choice([1, 1, 2, 2, 3, 4]) if rng.random() < 0.9 else rng.randint(5, 7)
             for _ in range(rank)]
    dtype = rng.choice(BYTE_TYPES)
    rec = {"command": "view", "dtype": m.dtype_spelling(dtype, rng), "sizes": sizes}
    if rng.random() < 0.35:
        strides = m.small_strides(rng, sizes)
        rec["strides"] = strides
    else:
        largs, _, strides = m.random_layout(rng, sizes)
        keys = {"--layout": "layout", "--order": "order", "--broadcast": "broadcast",
                "--pad": "pad"}
        for opt, val in zip(largs[::2], largs[1::2]):
            rec[keys[opt]] = val
    if rng.random() < 0.4:
        rec["base_offset_bytes"] = rng.choice([16, 32, 48, 1 << 20, 8, 3])
    if rng.random() < 0.2:
        rec["guaranteed_base_offset_alignment"] = rng.choice([16, 32, 256])
    ops = m.random_view_ops(rng, list(sizes), rng.randint(1, 4))
    rec["ops"] = [{k: t} for k, t in ops]
    return {"dtype": dtype, "sizes": sizes, "strides": strides, "ops": ops, "rec": rec}


def expected(case):
    """(views, sources) NumPy gives, or Refused."""
    sizes, strides = case["sizes"], case["strides"]
    last = sum((s - 1) * st for s, st in zip(sizes, strides))
    buf = np.arange(last + 1, dtype=np.uint64)
    parent = np.lib.stride_tricks.as_strided(buf, shape=sizes,
                                             strides=[st * 8 for st in strides])
    views = apply_all(case["ops"], parent)
    logical = logical_chain(case["ops"], sizes)
    sources = [list(np.unravel_index(int(v.flat[0]), sizes)) for v in logical]
    return views, sources


def min_implied(sizes, strides, size):
    return m.round_up4((sum((s - 1) * st for s, st in zip(sizes, strides)) + 1) * size)


def check_case(case, got, fail):
    size = m.DTYPE_BITS[case["dtype"]] // 8
    base = case["rec"].get("base_offset_bytes", 0)
    align = case["rec"].get("guaranteed_base_offset_alignment", 0)
    try:
        views, sources = expected(case)
    except Refused as r:
        err = got.get("error", {}).get("id")
        if err != r.error_id:
            fail("refused by NumPy or the rules as %s; dmltensor: %s" % (
                r.error_id, json.dumps(got)[:300]))
        return
    if "error" in got:
        fail("NumPy gives %d views; dmltensor refuses: %s" % (len(views), got["error"]))
        return
    gv = got["views"]
    if len(gv) != len(views):
        fail("%d views, NumPy %d" % (len(gv), len(views)))
        return
    parent_total = got["parent"]["total_tensor_size_bytes"]
    buffer_size = got["parent"]["buffer_size_bytes"]
    if buffer_size != base + parent_total:
        fail("buffer size %d, not %d + %d" % (buffer_size, base, parent_total))
    all_valid = True
    for i, (v, src, g) in enumerate(zip(views, sources, gv)):
        desc, binding = g["desc"], g["binding"]
        if desc["Sizes"] != list(v.shape) or desc["DimensionCount"] != v.ndim:
            fail("view %d: sizes %s, NumPy %s" % (i, desc["Sizes"], list(v.shape)))
            continue
        st = np.array(desc["Strides"], dtype=np.int64)
        idx = np.indices(v.shape).reshape(v.ndim, -1)
        tool = (binding["offset_bytes"] - base) + (st @ idx) * size
        want = v.reshape(-1).astype(np.int64) * size
        if not np.array_equal(tool, want):
            bad = int(np.argmax(tool != want))
            fail("view %d: element %s at byte %d, NumPy %d (strides %s)" % (
                i, list(idx[:, bad]), int(tool[bad]), int(want[bad]), desc["Strides"]))
            continue
        if g["source"] != [int(x) for x in src]:
            fail("view %d: source %s, expected %s" % (i, g["source"], src))
        if g["element_offset"] * size != binding["offset_bytes"] - base:
            fail("view %d: element_offset %d and Offset %d disagree" % (
                i, g["element_offset"], binding["offset_bytes"]))
        total = min_implied(desc["Sizes"], desc["Strides"], size)
        if desc["TotalTensorSizeInBytes"] != total or binding["size_in_bytes"] != total:
            fail("view %d: TotalTensorSizeInBytes %d, SizeInBytes %d, expected %d" % (
                i, desc["TotalTensorSizeInBytes"], binding["size_in_bytes"], total))
        off = binding["offset_bytes"] - base
        cap = max(align, 16)
        low = off & -off if off else cap
        if desc["GuaranteedBaseOffsetAlignment"] != min(low, cap):
            fail("view %d: GuaranteedBaseOffsetAlignment %d, expected %d" % (
                i, desc["GuaranteedBaseOffsetAlignment"], min(low, cap)))
        checks = {c["id"]: c for c in g["checks"]}
        expect = {"base_offset_16": binding["offset_bytes"] % 16 == 0,
                  "binding_in_buffer": binding["offset_bytes"] + total <= buffer_size,
                  "view_offset_whole_byte": True}
        for cid, ok in expect.items():
            if (checks[cid]["status"] == "pass") != ok:
                fail("view %d: %s is %s" % (i, cid, checks[cid]["status"]))
        valid = all(c["status"] == "pass" for c in g["checks"] if c["level"] == "error")
        if g["valid"] != valid:
            fail("view %d: valid %s, checks say %s" % (i, g["valid"], valid))
        all_valid = all_valid and valid
    if got["valid"] != all_valid:
        fail("valid %s, views say %s" % (got["valid"], all_valid))


def main(argv):
    args = m.parse_args(argv, __doc__, 5000, 15)
    rng = random.Random(args.seed)
    cases = [random_case(rng) for _ in range(args.cases)]
    text = "".join(json.dumps(c["rec"]) + "\n" for c in cases)
    p = subprocess.run([args.dmltensor, "batch"], input=text.encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    lines = p.stdout.decode().splitlines()
    if len(lines) != len(cases):
        print("FAIL batch wrote %d lines for %d records (exit %d): %s" % (
            len(lines), len(cases), p.returncode, p.stderr.decode()[:500]))
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    kinds = {}
    for case, line in zip(cases, lines):
        problems = []
        check_case(case, json.loads(line), problems.append)
        for kind, _ in case["ops"]:
            kinds[kind] = kinds.get(kind, 0) + 1
        if problems:
            failed += 1
            if failed <= 20:
                print("FAIL %s\n  %s" % (json.dumps(case["rec"]), "\n  ".join(problems)))
        else:
            passed += 1
    print("operations: " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
