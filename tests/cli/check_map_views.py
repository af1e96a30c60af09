#!/usr/bin/env python3
"""`map --view memory|grid` never guesses: every cell drawn is right, or
marked unknown (`?`).

Usage: check_map_views.py DMLTENSOR_PATH [--cases N] [--seed S]

The tensors are built so that the search for who is at a cell hits the
view's work limit: huge sizes with small strides (billions of coordinates
and more, so brute force cannot enumerate them), the issue's own
2,1000,1000,1000,1000,1000,1000,2 with strides 101,2,2,2,2,2,2,1000003, and
random ones like it; and, as a control, cheap tensors (packed, padded,
broadcast, small overlaps) on which no cell may be unknown.

The truth comes from dynamic programming over the dimensions instead of
enumeration: for every offset k up to the largest drawn, the number of
coordinates at k (0, 1 or "at least 2"), dimension by dimension
(numpy, windowed sums per residue of the stride); and the first coordinate
at k in row-major order from the same tables taken from the inner
dimensions out. Then:

  memory view  `x` only where no coordinate is; a name (a letter, or a
               coordinate) only where exactly that one is; `name*` only
               where at least two are and name is the first; `name?` only
               where name is the first (there may be more); `?` anywhere;
               the footer's counts are the cells'; the coordinates listed
               under the picture are at their offsets, in order;
  grid view    every cell shows its coordinate's offset; `*` only where at
               least two coordinates share it, no mark only where one does,
               `?` anywhere (unknown); no more cells than --limit.

With --limit the largest a view takes (100,000), on cheap tensors: no cell
unknown. Prints "N passed, M failed". Needs numpy (Debian's python3).
"""

import argparse
import random
import re
import subprocess
import sys

import numpy as np

LETTERS = {1: "w", 2: "hw", 3: "dhw", 4: "nchw", 5: "ncdhw"}
VIEW_MAX = 100000


def run(binary, sizes, strides, view, limit, width=200):
    args = [binary, "map", "--dtype", "uint8", "--sizes", ",".join(map(str, sizes)),
            "--strides", ",".join(map(str, strides)), "--view", view, "--limit", str(limit),
            "--width", str(width)]
    try:
        p = subprocess.run(args, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return -1, "", "did not end within 60 s", " ".join(args[1:])
    return p.returncode, p.stdout.decode(), p.stderr.decode(), " ".join(args[1:])


class Truth:
    """Counts (capped at 2) of coordinates at each offset 0..top, and the
    first coordinate in row-major order."""

    def __init__(self, sizes, strides, top):
        self.sizes, self.strides, self.top = sizes, strides, top
        rank = len(sizes)
        # reach[j][k]: coordinates of dims j.. with offset k (capped at 2)
        self.reach = [None] * (rank + 1)
        r = np.zeros(top + 1, dtype=np.int64)
        r[0] = 1
        self.reach[rank] = r
        for j in range(rank - 1, -1, -1):
            r = self.conv(r, sizes[j], strides[j])
            self.reach[j] = r
        # bytes: fast to index from Python, one at a time
        self.reach = [x.astype(np.uint8).tobytes() for x in self.reach]

    def conv(self, r, n, s):
        if s == 0:
            return np.minimum(r * n, 2)
        m = len(r)
        rows = -(-m // s)
        a = np.zeros(rows * s, dtype=np.int64)
        a[:m] = r
        a = a.reshape(rows, s)  # a[i, c] = r[i*s + c]
        cs = np.cumsum(a, axis=0)
        out = cs.copy()
        if n < rows:
            out[n:] -= cs[:-n]
        return np.minimum(out.reshape(-1)[:m], 2)

    def count(self, k):
        return self.reach[0][k] if 0 <= k <= self.top else None

    def first(self, k):
        coord = []
        for j, (n, s) in enumerate(zip(self.sizes, self.strides)):
            nxt = self.reach[j + 1]
            if s == 0:
                coord.append(0)
                continue
            for v in range(n):
                rem = k - v * s
                if rem < 0:
                    return None
                if nxt[rem] > 0:
                    coord.append(v)
                    k = rem
                    break
            else:
                return None
        return coord


def name_of(coord, sizes, letters):
    if letters:
        idx = 0
        for c, n in zip(coord, sizes):
            idx = idx * n + c
        return chr(ord("A") + idx)
    return ",".join(map(str, coord))


def element_count(sizes):
    n = 1
    for s in sizes:
        n *= s
    return n


def check_memory(binary, sizes, strides, limit, check, allow_unknown):
    rc, out, err, cmd = run(binary, sizes, strides, "memory", limit)
    if not check(rc == 0 and err == "", "%s: exit %d %s" % (cmd, rc, err)):
        return 0
    lines = out.splitlines()
    letters = element_count(sizes) <= 26
    cells = {}
    offsets = None
    for line in lines:
        if line.startswith("offset ") and ":" not in line:
            offsets = [int(x) for x in line.split()[1:]]
        elif line.startswith("element") and offsets is not None:
            labels = line.split()[1:]
            check(len(labels) == len(offsets), "%s: a row of %d offsets and %d labels" % (cmd, len(offsets), len(labels)))
            cells.update(zip(offsets, labels))
            offsets = None
    # The cells drawn: the buffer's extent (to the last element, or the end
    # of the last padded row, and its DWORD), or --limit of them.
    last = sum((n - 1) * s for n, s in zip(sizes, strides))
    span = max([last + 1] + [n * s for n, s in zip(sizes, strides)])
    m = re.search(r"^(\d+) cells?: ", out, re.M)
    extent = int(m.group(1)) if m else 0
    check(last + 1 <= extent <= span + 4, "%s: %d cells for the last element at %d" % (cmd, extent, last))
    shown = min(extent, limit)
    check(sorted(cells) == list(range(shown)), "%s: cells drawn are not offsets 0..%d" % (cmd, shown - 1))
    truth = Truth(sizes, strides, shown)
    unknown = padding = shared = 0
    for k, label in sorted(cells.items()):
        n = truth.count(k)
        first = truth.first(k) if n else None
        fname = name_of(first, sizes, letters) if first else None
        what = "%s: offset %d drawn %r, truth %s coordinate(s), the first %s" % (cmd, k, label, n if n < 2 else ">=2", fname)
        if label == "?":
            unknown += 1
        elif label == "x":
            padding += 1
            check(n == 0, what)
        elif label.endswith("?"):
            unknown += 1
            check(n >= 1 and label[:-1] == fname, what)
        elif label.endswith("*"):
            shared += 1
            check(n >= 2 and label[:-1] == fname, what)
        else:
            check(n == 1 and label == fname, what)
    if not allow_unknown:
        check(unknown == 0, "%s: %d unknown cells on a tensor whose searches are cheap" % (cmd, unknown))
    if shown == extent:
        m = re.search(r"^(\d+) padding cells?, (\d+) shared cells?(?:, (\d+) unknown cells?)?$", out, re.M)
        check(m is not None and int(m.group(1)) == padding and int(m.group(2)) == shared
              and int(m.group(3) or 0) == unknown, "%s: footer counts (padding %d, shared %d, unknown %d)"
              % (cmd, padding, shared, unknown))
    check(("? unknown" in out) == (unknown > 0), "%s: the legend of ? and %d unknown cells" % (cmd, unknown))
    # The shared cells listed: their coordinates are at that offset.
    for m in re.finditer(r"^offset (\d+): (.*)$", out, re.M):
        k = int(m.group(1))
        names = [x for x in m.group(2).split() if x != "..."]
        check(cells.get(k, "").endswith("*"), "%s: offset %d listed but not drawn shared" % (cmd, k))
        for nm in names:
            if letters:
                idx = ord(nm) - ord("A")
                coord = []
                for n in reversed(sizes):
                    coord.append(idx % n)
                    idx //= n
                coord.reverse()
            else:
                coord = [int(x) for x in nm.split(",")]
            check(sum(c * s for c, s in zip(coord, strides)) == k, "%s: listed %s not at offset %d" % (cmd, nm, k))
        if names:
            check(names[0] == cells[k][:-1], "%s: offset %d: the first listed is not the one drawn" % (cmd, k))
    return unknown


def check_grid(binary, sizes, strides, limit, check, allow_unknown):
    rc, out, err, cmd = run(binary, sizes, strides, "grid", limit)
    if not check(rc == 0 and err == "", "%s: exit %d %s" % (cmd, rc, err)):
        return 0
    rank = len(sizes)
    outer = {}
    drawn = []  # (coord, offset, mark)
    lines = out.splitlines()
    if rank == 1:  # one row, without a label: the line after the column numbers
        lines = ["w=0 " + lines[4]]
    for line in lines:
        m = re.match(r"^((?:d?[a-z0-9]+=\d+, )*d?[a-z0-9]+=\d+):$", line)
        if m:
            outer = [int(x.split("=")[1]) for x in m.group(1).split(", ")]
            continue
        m = re.match(r"^d?[a-z0-9]+=(\d+) +(.*)$", line)
        if not m:
            continue
        r = int(m.group(1))
        toks = [t for t in m.group(2).split() if t != "..."]
        for c, tok in enumerate(toks):
            tm = re.match(r"^(\d+)([*?]?)$", tok)
            if not check(tm is not None, "%s: cell %r" % (cmd, tok)):
                continue
            coord = [c] if rank == 1 else list(outer) + [r, c]
            drawn.append((coord, int(tm.group(1)), tm.group(2)))
    check(0 < len(drawn) <= limit, "%s: %d cells drawn for --limit %d" % (cmd, len(drawn), limit))
    top = max(off for _, off, _ in drawn)
    truth = Truth(sizes, strides, top) if "(* where" in out else None
    unknown = 0
    for coord, off, mark in drawn:
        want = sum(c * s for c, s in zip(coord, strides))
        check(off == want, "%s: coordinate %s drawn at %d, is at %d" % (cmd, coord, off, want))
        if truth is None:
            check(mark == "", "%s: a mark on a tensor that does not overlap" % cmd)
            continue
        n = truth.count(off)
        what = "%s: coordinate %s at %d drawn %r, truth %s coordinates" % (cmd, coord, off, mark, n if n < 2 else ">=2")
        if mark == "?":
            unknown += 1
        elif mark == "*":
            check(n >= 2, what)
        else:
            check(n == 1, what)
    if not allow_unknown:
        check(unknown == 0, "%s: %d unknown cells on a tensor whose searches are cheap" % (cmd, unknown))
    m = re.search(r"^\(\? marks (\d+) cells?", out, re.M)
    check((int(m.group(1)) if m else 0) == unknown, "%s: the note on ? says %s, %d drawn" % (cmd, m and m.group(1), unknown))
    return unknown


def hard_tensor(rng):
    """Many coordinates on few offsets: searches that run out of work."""
    rank = rng.randint(5, 8)
    sizes, strides = [], []
    for _ in range(rank):
        if rng.random() < 0.7:
            sizes.append(rng.choice([100, 500, 1000, 4096, 65536, 1 << 20]))
            strides.append(rng.choice([1, 2, 2, 3, 4, 6, 10]))
        else:
            sizes.append(rng.choice([2, 3]))
            strides.append(rng.choice([101, 997, 100003, 1000003]))
    return sizes, strides


def cheap_tensor(rng):
    rank = rng.randint(1, 6)
    sizes = [rng.randint(1, 9) for _ in range(rank)]
    strides, extent = [0] * rank, 1
    for d in reversed(range(rank)):  # packed or padded, some broadcast
        if rng.random() < 0.15:
            strides[d] = 0
            continue
        strides[d] = extent
        extent = extent * sizes[d] + (rng.randint(0, 3) if rng.random() < 0.3 else 0)
    if rng.random() < 0.2:  # a small overlap
        strides = [rng.randint(0, 4) for _ in range(rank)]
    return sizes, strides


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--cases", type=int, default=30)
    ap.add_argument("--seed", type=int, default=2)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL " + what)
        return ok

    unknown_total = 0
    issue = ([2, 1000, 1000, 1000, 1000, 1000, 1000, 2], [101, 2, 2, 2, 2, 2, 2, 1000003])
    for limit in (104, 256, 5000):
        unknown_total += check_memory(args.binary, *issue, limit, check, True)
        unknown_total += check_grid(args.binary, *issue, limit, check, True)
    for _ in range(args.cases):
        sizes, strides = hard_tensor(rng)
        unknown_total += check_memory(args.binary, sizes, strides, rng.choice([64, 256, 2000]), check, True)
        unknown_total += check_grid(args.binary, sizes, strides, rng.choice([64, 256, 1000]), check, True)
    check(unknown_total > 0, "no cell was unknown: the hard tensors are not hard (the test tests nothing)")
    for _ in range(args.cases):
        sizes, strides = cheap_tensor(rng)
        check_memory(args.binary, sizes, strides, 256, check, False)
        check_grid(args.binary, sizes, strides, 256, check, False)
    # The largest --limit, drawn in full without an unknown cell.
    check_memory(args.binary, [2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 6, 24, 120, 720, 5040, 40320],
                 VIEW_MAX, check, False)
    check_grid(args.binary, [4] * 8, [4 ** (7 - d) for d in range(8)], VIEW_MAX, check, False)
    check_grid(args.binary, [400, 250], [1, 1], VIEW_MAX, check, False)
    print("unknown cells drawn on the hard tensors: %d" % unknown_total)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
