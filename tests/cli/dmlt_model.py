"""Shared model and plumbing of the brute-force command-line checks.

Imported by check_size_bruteforce.py, check_offset_locate_bruteforce.py and
check_map_bruteforce.py (each script's directory is on sys.path when it is
run, so a plain `import dmlt_model` finds this file).  Standard library only.

  definitions   the data types, dimension letters, the arithmetic of docs/concepts.md
                (bytes_for, dot, layout_strides) and memory-order names;
  generation    the command-line spelling of a random tensor: data type
                spellings, a random memory order with --broadcast and --pad
                (random_layout), and a whole tensor (random_tensor);
  running       shell_words, the Case helper (run a command, compare exactly,
                collect failure lines), argument parsing and the final
                "N passed, M failed" summary shared by the scripts.

Every random choice here draws from the caller's random.Random in a fixed
order, so a script's cases depend only on its seed.
"""

import argparse
import itertools
import json
import subprocess

U32_MAX = 4294967295
U64_MAX = 18446744073709551615

# name, element bits, DML_TENSOR_DATA_TYPE value
DTYPES = [
    ("float32", 32, 1), ("float16", 16, 2), ("uint32", 32, 3), ("uint16", 16, 4),
    ("uint8", 8, 5), ("int32", 32, 6), ("int16", 16, 7), ("int8", 8, 8),
    ("float64", 64, 9), ("uint64", 64, 10), ("int64", 64, 11),
    ("uint4", 4, 12), ("int4", 4, 13),
]
DTYPE_NAMES = [name for name, _, _ in DTYPES]
DTYPE_BITS = {name: bits for name, bits, _ in DTYPES}
DTYPE_VALUE = {name: value for name, _, value in DTYPES}

# Dimension letters in logical order, ranks 1..5 (ranks 6..8 use indices).
LETTERS = {1: "w", 2: "hw", 3: "dhw", 4: "nchw", 5: "ncdhw"}


# ---------------------------------------------------------------- definitions

def ceil_div(a, b):
    return -(-a // b)


def round_up4(n):
    return (n + 3) // 4 * 4


def bytes_for(elements, bits):
    """round_up(ceil(elements * bits / 8), 4)"""
    return round_up4(ceil_div(elements * bits, 8))


def product(values):
    p = 1
    for v in values:
        p *= v
    return p


def dot(coord, strides):
    return sum(c * s for c, s in zip(coord, strides))


def all_coords(sizes):
    """Every coordinate (a tuple) in logical row-major order, the last dim
    fastest.  Lazy even for sizes near 2^32, to take only the first few."""
    if product(sizes) <= 1 << 20:
        return itertools.product(*[range(s) for s in sizes])  # fast, but stores each range
    return _odometer(sizes)


def _odometer(sizes):
    coord = [0] * len(sizes)
    while True:
        yield tuple(coord)
        d = len(sizes)
        while d > 0 and coord[d - 1] + 1 == sizes[d - 1]:
            d -= 1
            coord[d] = 0
        if d == 0:
            return
        coord[d - 1] += 1


def layout_strides(sizes, order, broadcast=(), pad=None):
    """Strides of a memory order (outermost first) with broadcast dims and pads."""
    pad = pad or {}
    strides = [0] * len(sizes)
    extent = 1
    for dim in reversed(order):  # innermost first
        if dim in broadcast:
            strides[dim] = 0
            extent = extent * 1 + pad.get(dim, 0)
        else:
            strides[dim] = extent
            extent = extent * sizes[dim] + pad.get(dim, 0)
    return strides


def packed_strides(sizes, order):
    """Packed strides of a memory order as dmltensor gives them: as
    layout_strides, except that a size-1 dim whose stride would pass
    4294967295 gets 0 (its coordinate is always 0)."""
    strides = [0] * len(sizes)
    extent = 1
    for dim in reversed(order):  # innermost first
        strides[dim] = 0 if sizes[dim] == 1 and extent > U32_MAX else extent
        extent *= sizes[dim]
    return strides


def detect_layout(sizes, strides, preferred=None):
    """The layout detection of docs/concepts.md, by trying every memory order in
    lexicographic order of the dims' indices (the order `layouts --rank R`
    lists them). An order fits when its packed strides equal the given ones
    on every dim of size > 1 (a size-1 dim moves no element). Of the orders
    that fit: `preferred` (the --layout given) if it is one, else the first
    whose packed strides match exactly, size-1 dims included, else the first.
    None when no order fits."""
    rank = len(sizes)
    first_fit = first_exact = None
    for perm in itertools.permutations(range(rank)):
        packed = packed_strides(sizes, perm)
        if any(packed[d] != strides[d] for d in range(rank) if sizes[d] > 1):
            continue
        if preferred is not None and tuple(preferred) == perm:
            return perm
        if first_fit is None:
            first_fit = perm
        if first_exact is None and packed == list(strides):
            first_exact = perm
    return first_exact if first_exact is not None else first_fit


def order_arg(order):
    """A memory order as a --layout value: letters (ranks 1..5) or indices."""
    rank = len(order)
    if rank <= 5:
        return "".join(LETTERS[rank][d] for d in order)
    return ",".join(str(d) for d in order)


def order_name(order):
    """The name the tool echoes for a requested memory order."""
    rank = len(order)
    if rank <= 5:
        return "".join(LETTERS[rank][d] for d in order)
    if list(order) == list(range(rank)):
        return "row-major"
    if list(order) == list(range(rank - 1, -1, -1)):
        return "col-major"
    return ",".join(str(d) for d in order)


def parse_order_name(name, rank):
    """Inverse of order_name (also accepts row-major/col-major and indices at any rank)."""
    if not isinstance(name, str):
        return None
    if name == "row-major":
        return tuple(range(rank))
    if name == "col-major":
        return tuple(range(rank - 1, -1, -1))
    if rank <= 5 and len(name) == rank and sorted(name) == sorted(LETTERS[rank]):
        return tuple(LETTERS[rank].index(c) for c in name)
    try:
        order = tuple(int(x) for x in name.split(","))
    except ValueError:
        return None
    if sorted(order) == list(range(rank)):
        return order
    return None


def dim_names(rank):
    """The column names of the dimensions: letters (ranks 1..5), else d0, d1, ..."""
    if rank <= 5:
        return list(LETTERS[rank])
    return ["d%d" % d for d in range(rank)]


# ---------------------------------------------------------------- generation

def dims_text(dims, rank, rng):
    """A set of dims as letters (ranks 1..5, sometimes) or comma-separated indices."""
    dims = sorted(dims)
    if rank <= 5 and rng.random() < 0.6:
        return "".join(LETTERS[rank][d] for d in dims)
    return ",".join(str(d) for d in dims)


def dim_text(dim, rank, rng):
    if rank <= 5 and rng.random() < 0.7:
        return LETTERS[rank][dim]
    return str(dim)


def dtype_spelling(dtype, rng):
    """float16, FLOAT16 or DML_TENSOR_DATA_TYPE_FLOAT16."""
    r = rng.random()
    if r < 0.08:
        return "DML_TENSOR_DATA_TYPE_" + dtype.upper()
    if r < 0.16:
        return dtype.upper()
    return dtype


# How a random memory order is asked for: (cumulative probability, kind),
# kind one of "layout" (--layout letters or indices), "order" (--order
# indices), "row-major", "col-major" (--layout by name; the order becomes
# that one) and "default" (no option: row-major).
ORDER_KINDS = [(0.6, "layout"), (0.8, "order"), (0.87, "row-major"),
               (0.94, "col-major"), (1.0, "default")]


def random_layout(rng, sizes, kinds=ORDER_KINDS, broadcast_p=0.35, pad_p=0.4):
    """A random memory order with optional --broadcast and --pad.

    Returns (args, order, strides): the options, the memory order (outermost
    first) and the strides they give.
    """
    rank = len(sizes)
    args = []
    order = rng.sample(range(rank), rank)
    r = rng.random()
    kind = next(k for p, k in kinds if r < p)
    if kind == "layout":
        args += ["--layout", order_arg(order)]
    elif kind == "order":
        args += ["--order", ",".join(map(str, order))]
    elif kind == "row-major":
        order = list(range(rank))
        args += ["--layout", "row-major"]
    elif kind == "col-major":
        order = list(range(rank - 1, -1, -1))
        args += ["--layout", "col-major"]
    else:
        order = list(range(rank))  # default: row-major
    broadcast = set()
    if rng.random() < broadcast_p:
        broadcast = set(rng.sample(range(rank), rng.randint(1, rank)))
        args += ["--broadcast", dims_text(broadcast, rank, rng)]
    pad = {}
    inner = order[1:]  # padding the outermost memory dim is an error by design
    if inner and rng.random() < pad_p:
        for d in rng.sample(inner, rng.randint(1, len(inner))):
            pad[d] = rng.randint(0, 3)
        args += ["--pad", ",".join("%s=%d" % (dim_text(d, rank, rng), n)
                                   for d, n in pad.items())]
    return args, order, layout_strides(sizes, order, broadcast, pad)


def small_strides(rng, sizes):
    """Explicit strides 0..12: broadcast (0), padded, overlapping, any order."""
    return [rng.randint(0, 12) for _ in sizes]


def random_tensor(rng, sizes, explicit_p=0.5, explicit_strides=small_strides,
                  kinds=ORDER_KINDS, pad_p=0.4):
    """A random tensor of these sizes, spelled as command-line options.

    With probability explicit_p the strides are explicit (--strides, from
    explicit_strides(rng, sizes)); otherwise a memory order from random_layout.
    kinds may be a function of the rank.  Returns a dict: dtype, bits, sizes,
    strides, order (None for explicit strides) and args (the tensor options).
    """
    rank = len(sizes)
    dtype = rng.choice(DTYPES)[0]
    args = ["--sizes", ",".join(map(str, sizes)), "--dtype", dtype_spelling(dtype, rng)]
    if rng.random() < explicit_p:
        strides = explicit_strides(rng, sizes)
        args += ["--strides", ",".join(map(str, strides))]
        order = None
    else:
        if callable(kinds):
            kinds = kinds(rank)
        largs, order, strides = random_layout(rng, sizes, kinds, pad_p=pad_p)
        args += largs
    return {"dtype": dtype, "bits": DTYPE_BITS[dtype], "sizes": list(sizes),
            "strides": strides, "order": order, "args": args}


# ---------------------------------------------------------------- running

def shell_words(cmd):
    return " ".join(a if a and all(c.isalnum() or c in "-_=,./" for c in a) else repr(a)
                    for a in cmd)


def same_json(e, a):
    """Exact comparison, also of types (True is not 1, 1 is not 1.0)."""
    if type(e) is not type(a):
        return False
    if isinstance(e, list):
        return len(e) == len(a) and all(same_json(x, y) for x, y in zip(e, a))
    if isinstance(e, dict):
        return e.keys() == a.keys() and all(same_json(e[k], a[k]) for k in e)
    return e == a


class Case:
    """Runs commands of one tool and collects failure lines."""

    def __init__(self, tool):
        self.tool = tool
        self.fails = []

    def run(self, command, args):
        """Returns (shell text, exit status or None, stdout, stderr)."""
        cmd = [self.tool, command] + args
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        except OSError as e:
            self.fails.append("%s: cannot run: %s" % (shell_words(cmd), e))
            return shell_words(cmd), None, "", ""
        return (shell_words(cmd), proc.returncode,
                proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace"))

    def run_json(self, command, args, status=0):
        """Runs with --format json; returns (text, parsed object or None)."""
        text, rc, out, err = self.run(command, args + ["--format", "json"])
        if rc is None:
            return text, None
        if rc != status:
            self.fail(text, "exit status", status, rc, err.strip()[:300])
            return text, None
        try:
            doc = json.loads(out)
        except ValueError as e:
            self.fails.append("%s: stdout is not JSON (%s): %r" % (text, e, out[:200]))
            return text, None
        if not isinstance(doc, dict):
            self.fails.append("%s: stdout is not a JSON object: %r" % (text, out[:200]))
            return text, None
        return text, doc

    def fail(self, text, field, expected, actual, note=None):
        line = "%s: %s: expected %s, actual %s" % (text, field, json.dumps(expected),
                                                   json.dumps(actual))
        if note:
            line += " (%s)" % note
        self.fails.append(line)

    def same(self, text, field, expected, actual):
        """Exact comparison, also of types (True is not 1, 1 is not 1.0)."""
        if not same_json(expected, actual):
            self.fail(text, field, expected, actual)
            return False
        return True


def parse_args(argv, doc, cases, seed):
    """The scripts' common command line: DMLTENSOR_PATH [--cases N] [--seed S]."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("dmltensor", help="path to the dmltensor binary")
    ap.add_argument("--cases", type=int, default=cases,
                    help="random cases (default %d)" % cases)
    ap.add_argument("--seed", type=int, default=seed, help="random seed (default %d)" % seed)
    return ap.parse_args(argv)


def summarize(results):
    """results: one list of failure lines per case (any iterable, consumed as
    it goes).  Prints "FAIL ..." lines and "N passed, M failed"; returns the
    exit status: 1 if any case failed, else 0."""
    passed = failed = 0
    for fails in results:
        if fails:
            failed += 1
            for line in fails:
                print("FAIL " + line, flush=True)
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


# ---------------------------------------------------------------- view operations

VIEW_OPS = ["slice", "select", "permute", "broadcast_to", "reshape", "split"]


def _random_factors(rng, count):
    """Random sizes whose product is count, with size-1 dims now and then."""
    sizes, left = [], count
    while left > 1 and len(sizes) < 6:
        f = rng.randint(2, 6)
        if left % f == 0:
            sizes.append(f)
            left //= f
        elif rng.random() < 0.25:
            sizes.append(left)
            left = 1
    if left > 1:
        sizes.append(left)
    while len(sizes) < 8 and (not sizes or rng.random() < 0.2):
        sizes.insert(rng.randint(0, len(sizes)), 1)
    return sizes


def random_view_op(rng, shape, max_elements=4096):
    """One random view operation on a view of this shape: (kind, text, shape
    after it, or None when the operation is meant to fail or the shape after
    it is not worth following). Most are valid; some are refused by design
    (an empty slice, a negative step, an index out of range, a reshape to
    another element count, ...). The text is what --KIND takes; DIM is a
    letter of the current rank (sometimes) or an index."""
    rank = len(shape)
    kind = rng.choice(VIEW_OPS)
    d = rng.randrange(rank)
    dt = dim_text(d, rank, rng)
    n = shape[d]
    if kind == "slice":
        def bound():
            r = rng.random()
            return "" if r < 0.25 else str(rng.randint(-n - 2, n + 2))
        start, stop = bound(), bound()
        r = rng.random()
        step = "" if r < 0.5 else str(rng.randint(1, 3)) if r < 0.95 else str(rng.randint(-2, 0))
        text = "%s=%s:%s" % (dt, start, stop) + (":" + step if step or rng.random() < 0.2 else "")
        st = int(step) if step else 1
        if st < 1:
            return kind, text, None
        k = len(range(n)[slice(int(start) if start else None, int(stop) if stop else None, st)])
        return kind, text, (shape[:d] + [k] + shape[d + 1:]) if k else None
    if kind == "select":
        index = rng.randint(-n - 1, n)
        ok = -n <= index < n and rank > 1
        return kind, "%s=%d" % (dt, index), (shape[:d] + shape[d + 1:]) if ok else None
    if kind == "permute":
        order = rng.sample(range(rank), rank)
        if rng.random() < 0.05:
            return kind, ",".join(str(x) for x in order[:-1] + [order[0]]), None
        if rank <= 5 and rng.random() < 0.5:
            text = "".join(LETTERS[rank][x] for x in order)
        else:
            text = ",".join(map(str, order))
        return kind, text, [shape[x] for x in order]
    if kind == "broadcast_to":
        lead = rng.randint(0, min(2, 8 - rank))
        new = [rng.randint(1, 3) for _ in range(lead)]
        new += [rng.randint(1, 3) if s == 1 else s for s in shape]
        ok = True
        if rng.random() < 0.08 and any(s > 1 for s in shape):
            i = lead + next(i for i, s in enumerate(shape) if s > 1)
            new[i] += 1
            ok = False
        if product(new) > max_elements:
            return kind, ",".join(map(str, shape)), shape
        return kind, ",".join(map(str, new)), new if ok else None
    if kind == "reshape":
        new = _random_factors(rng, product(shape))
        words = [str(s) for s in new]
        ok = True
        if rng.random() < 0.08:
            words[rng.randrange(len(words))] = str(new[0] + 1)
            ok = False
        elif rng.random() < 0.3:
            words[rng.randrange(len(words))] = "-1"
        return kind, ",".join(words), new if ok else None
    # split: N equal parts, or part sizes; the shape followed is the first part's
    divisors = [k for k in range(1, n + 1) if n % k == 0]
    if rng.random() < 0.5:
        parts = rng.choice(divisors) if rng.random() < 0.9 else rng.randint(1, n + 1)
        text = "%s=%d" % (dt, parts)
        first = n // parts if n % parts == 0 else None
    else:
        sizes, left = [], n
        while left > 0:
            s = rng.randint(1, left)
            sizes.append(s)
            left -= s
        if rng.random() < 0.08:
            sizes[-1] += 1
        text = "%s=%s" % (dt, "+".join(map(str, sizes)))
        first = sizes[0] if sum(sizes) == n else None
    return kind, text, (shape[:d] + [first] + shape[d + 1:]) if first else None


def random_view_ops(rng, shape, count):
    """Up to count operations, stopping after one meant to fail."""
    ops = []
    for _ in range(count):
        kind, text, shape = random_view_op(rng, shape)
        ops.append((kind, text))
        if shape is None:
            break
    return ops
