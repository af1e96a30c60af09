#!/usr/bin/env python3
"""Every JSON output of dmltensor is valid against its JSON Schema (docs/schema/).

Usage: check_schemas.py DMLTENSOR SCHEMA_DIR CASES_DIR [--cases N] [--seed S]

It runs real commands and validates each JSON object they print with
jsonschema's Draft202012Validator (format checking off; "integer" means a
JSON number without a fraction or exponent, as dmltensor writes them):

  cases      every tests/cli/cases/*.case whose arguments ask for --format
             json or jsonl, and every batch and scan case (but scan --format
             text), run as
             run_golden.py runs them;
  random     N random tensors (default 150, fixed seed), each through size,
             validate, offset (coordinates inside and outside), locate (by
             offset and by byte, inside, in padding and past the end), map
             (json and jsonl) with --format json, and random usage errors;
             dtypes and layouts of every rank;
  batch      check_batch_equivalence.py's random descriptors (about 15% bad),
             as JSON Lines and as an array, through `dmltensor batch`;
  scan       random JSON documents with tensor descriptions nested in them
             (some bad), through `dmltensor scan`;
  hostile    check_hostile.py's malformed invocations with --format json:
             each error object.

Which schema applies follows from the command and the exit status: a result
(size, offset, locate, map-row, validate, dtypes, layouts; a batch-record or
scan-record per line), or the error object (error.schema.json) when the
command failed. batch records with an "id" must also have it first.

Prints a line per invalid object and 'N passed, N failed' (one per object);
exits 1 on any invalid object, or when a schema is not itself valid.
"""
import argparse
import concurrent.futures
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.stderr.write("check_schemas.py: the Python module jsonschema is missing "
                     "(Debian: apt-get install python3-jsonschema)\n")
    sys.exit(1)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_batch_equivalence  # noqa: E402  (random batch descriptors)
import check_hostile  # noqa: E402  (malformed invocations)
import dmlt_model as m  # noqa: E402
import run_golden  # noqa: E402  (reading and running the .case files)

U32 = m.U32_MAX
U64 = m.U64_MAX

# The commands come from the tables (tools/dump_tables.c, through
# check_hostile.load_tables()): a command whose formats name json or jsonl,
# or that reads files (JSON Lines), prints JSON, validated against the
# schema SCHEMA_OF names (its own name when not listed: NAME.schema.json
# must exist, or the check fails). Its exit statuses that may come with a
# result (RESULT_STATUS; {0, 1} when not listed); any other comes with the
# error object (when JSON was asked for).
# scan: exit 2 with records when one of several files cannot be scanned.
RESULT_STATUS = {"size": {0, 1}, "offset": {0}, "locate": {0}, "map": {0},
                 "validate": {0, 1}, "dtypes": {0}, "layouts": {0},
                 "batch": {0, 1}, "scan": {0, 1, 2}, "view": {0, 1}, "plan": {0},
                 "nodes": {0, 1}}
SCHEMA_OF = {"map": "map-row", "batch": "batch-record", "scan": "scan-record",
             "plan": "plan-record",
             "nodes": "nodes-record"}


def json_commands(tables):
    """{command: its schema's name} of every command that prints JSON."""
    return {name: SCHEMA_OF.get(name, name) for name, c in tables.commands.items()
            if c["args"] != "none" or {"json", "jsonl"} & set(c["formats"])}


# ---------------------------------------------------------------- schemas

def strict_integer(checker, instance):
    """An int, never a bool or a float such as 1.0."""
    return isinstance(instance, int) and not isinstance(instance, bool)


Validator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", strict_integer))


def load_schemas(schema_dir):
    """{name: validator} for every NAME.schema.json; raises on a bad schema."""
    docs = {}
    for fname in sorted(os.listdir(schema_dir)):
        if fname.endswith(".schema.json"):
            with open(os.path.join(schema_dir, fname), encoding="utf-8") as f:
                doc = json.load(f)
            jsonschema.Draft202012Validator.check_schema(doc)
            if doc.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
                raise ValueError(f"{fname}: $schema is not draft 2020-12")
            if not doc.get("$id", "").endswith("/" + fname):
                raise ValueError(f"{fname}: $id does not end with /{fname}")
            docs[fname[:-len(".schema.json")]] = doc
    validators = {}
    try:  # jsonschema >= 4.18
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (d["$id"], Resource.from_contents(d)) for d in docs.values())
        for name, doc in docs.items():
            validators[name] = Validator(doc, registry=registry)
    except ImportError:  # older jsonschema (Debian 12 has 4.10)
        store = {d["$id"]: d for d in docs.values()}
        for name, doc in docs.items():
            resolver = jsonschema.RefResolver(doc["$id"], doc, store=store)
            validators[name] = Validator(doc, resolver=resolver)
    return validators


# ---------------------------------------------------------------- checking

class Checker:
    def __init__(self, validators, tables):
        self.v = validators
        self.schema_of = json_commands(tables)
        # Commands that read files print JSON Lines.
        self.line_commands = {n for n, c in tables.commands.items() if c["args"] != "none"}
        self.passed = 0
        self.failed = 0
        self.samples = {}  # schema: the first valid object, for the controls

    def bad(self, where, why):
        self.failed += 1
        print(f"FAIL {where}\n  {why}", flush=True)

    def object(self, schema, obj, where):
        errors = sorted(self.v[schema].iter_errors(obj), key=lambda e: list(e.absolute_path))
        if errors:
            best = jsonschema.exceptions.best_match(errors)
            path = "/".join(str(p) for p in best.absolute_path)
            self.bad(where, f"not valid against {schema}.schema.json at /{path}: "
                            f"{best.message[:400]}\n  object: {json.dumps(obj)[:600]}")
        else:
            self.passed += 1
            self.samples.setdefault(schema, obj)

    def controls(self):
        """Negative controls: each schema must refuse broken copies of an
        object it accepted (an unknown key, a missing key, a fraction where
        an integer goes, a string where a boolean goes)."""
        for schema, obj in sorted(self.samples.items()):
            for what, broken in mutations(obj):
                if self.v[schema].is_valid(broken):
                    self.bad(f"control: {schema}.schema.json",
                             f"accepts an object with {what}: {json.dumps(broken)[:400]}")
                else:
                    self.passed += 1

    def parse(self, text, where):
        try:
            return True, json.loads(text)
        except ValueError as e:
            self.bad(where, f"not JSON ({e}): {text[:300]!r}")
            return False, None

    def output(self, cmd, fmt, status, out, where):
        """Validates what one command printed on stdout."""
        text = out.decode("utf-8", "replace")
        if cmd not in self.schema_of or status not in RESULT_STATUS.get(cmd, {0, 1}):
            if text:  # a failure: the error object, one line
                ok, obj = self.parse(text, where)
                if ok:
                    self.object("error", obj, where)
                    if cmd != "plan" and isinstance(obj, dict) and \
                            isinstance(obj.get("error"), dict) and "key" in obj["error"]:
                        self.bad(where, "a command-line error names a JSON key")
            return
        schema = self.schema_of[cmd]
        if cmd in self.line_commands or fmt == "jsonl":
            if text and not text.endswith("\n"):
                self.bad(where, "the last line has no newline")
            for n, line in enumerate(text.splitlines(), 1):
                ok, obj = self.parse(line, f"{where} (line {n})")
                if not ok:
                    continue
                self.object(schema, obj, f"{where} (line {n})")
                if cmd == "batch" and isinstance(obj, dict) and "id" in obj \
                        and next(iter(obj)) != "id":
                    self.bad(f"{where} (line {n})", "\"id\" is not the first key")
            return
        if not text:
            self.bad(where, f"exit status {status} and nothing on stdout")
            return
        ok, doc = self.parse(text, where)
        if not ok:
            return
        if cmd == "view" and isinstance(doc, dict) and "error" in doc:
            if status != 1:  # a reshape that needs a copy: exit 1, an error
                self.bad(where, f"an error object with exit status {status}")
            self.object("error", doc, where)
            return
        if cmd == "map":  # --format json: an array of map rows
            if not isinstance(doc, list) or not doc:
                self.bad(where, f"not a non-empty array: {text[:200]!r}")
                return
            for i, row in enumerate(doc):
                self.object(schema, row, f"{where} [{i}]")
        else:
            self.object(schema, doc, where)


def mutations(obj):
    """(what, copy) of obj broken in one way each; an array (dtypes, layouts)
    is broken in its first element."""
    def first(o, test, path=()):
        """The path to the first value (depth first) for which test holds,
        never inside a batch "id" (any value goes there)."""
        items = o.items() if isinstance(o, dict) else enumerate(o) if isinstance(o, list) else ()
        for k, v in items:
            if isinstance(o, dict) and k == "id" and not path:
                continue
            if test(v):
                return path + (k,)
            found = first(v, test, path + (k,))
            if found:
                return found
        return None

    def changed(path, value):
        copy = json.loads(json.dumps(obj))
        o = copy
        for k in path[:-1]:
            o = o[k]
        if value is KeyError:
            del o[path[-1]]
        else:
            o[path[-1]] = value
        return copy

    top = (0,) if isinstance(obj, list) else ()
    target = obj[0] if top else obj
    copy = json.loads(json.dumps(obj))
    (copy[0] if top else copy)["zz_unknown"] = 1
    yield "an unknown key", copy
    key = next((k for k in target if k != "id"), None)
    if key is not None:
        yield f"no {key!r}", changed(top + (key,), KeyError)
    path = first(obj, lambda v: isinstance(v, int) and not isinstance(v, bool))
    if path:
        yield f"a fraction at {path}", changed(path, 1.5)
        yield f"a string of digits at {path}", changed(path, "1")
    path = first(obj, lambda v: isinstance(v, bool))
    if path:
        yield f"a string at {path}", changed(path, "true")


# ---------------------------------------------------------------- running

def run(binary, argv, stdin=b"", cwd=None):
    env = dict(os.environ, LC_ALL="C")
    env.pop("NO_COLOR", None)
    env.pop("COLUMNS", None)
    p = subprocess.run([binary] + argv, input=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, timeout=120, cwd=cwd)
    return p.returncode, p.stdout


def format_of(argv):
    """The --format value the words give (the first one), or None."""
    for i, a in enumerate(argv):
        if a == "--format" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--format="):
            return a[len("--format="):]
    return None


def json_wanted(cmd, argv):
    if cmd == "scan" and format_of(argv) == "text":  # scan --format text: a table
        return False
    if cmd == "plan":  # jsonl by default; text, svg and c are not JSON
        return format_of(argv) in (None, "json", "jsonl")
    return cmd in ("batch", "scan") or format_of(argv) in ("json", "jsonl")


def where_of(argv):
    text = "dmltensor " + shlex.join(argv)
    return text if len(text) < 300 else text[:300] + "..."


# ---------------------------------------------------------------- cases

def case_jobs(cases_dir):
    """(argv, meta, case_dir) of each case that asks for JSON."""
    jobs = []
    for fname in sorted(os.listdir(cases_dir)):
        if not fname.endswith(".case"):
            continue
        meta, _ = run_golden.parse_case(os.path.join(cases_dir, fname))
        if "args-esc" in meta:
            argv = [a.encode("latin-1").decode("unicode_escape")
                    for a in shlex.split(meta["args-esc"])]
        else:
            argv = shlex.split(meta.get("args", ""))
        cmd = argv[0] if argv else ""
        if "--help" in argv or meta.get("stdout-to") or not json_wanted(cmd, argv):
            continue
        jobs.append((fname, argv, meta))
    return jobs


def run_case(binary, cases_dir, job):
    fname, argv, meta = job
    status, out, _ = run_golden.run(binary, meta, cases_dir)
    return f"{fname}: {where_of(argv)}", argv, status, out


# ---------------------------------------------------------------- random

def random_sizes(rng):
    rank = rng.choice([1, 2, 3, 4, 4, 4, 5, 6, 7, 8])
    r = rng.random()
    if r < 0.75:  # small: every command, map in full
        return [rng.randint(1, 4) for _ in range(rank)]
    if r < 0.9:  # images
        return [rng.choice([1, 2, 3, 16, 64, 224, 256]) for _ in range(rank)]
    # huge: values past 2^32, 2^53 and 2^64
    return [rng.choice([1, 2, 65535, 65536, 1 << 20, U32]) for _ in range(rank)]


def big_strides(rng, sizes):
    return [rng.choice([0, 1, 2, 5, 12, 65536, U32 // 2, U32]) for _ in sizes]


def random_tensor(rng):
    sizes = random_sizes(rng)
    strides = m.small_strides if rng.random() < 0.8 else big_strides
    for _ in range(20):
        t = m.random_tensor(rng, sizes, explicit_strides=strides)
        # A layout's strides must fit 32 bits; dmltensor refuses the others.
        if max(t["strides"]) <= U32:
            return t
    return m.random_tensor(rng, sizes, explicit_p=1.0)


def maybe(rng, p, words):
    return words if rng.random() < p else []


def buffer_end(t):
    """The minimum implied size in bytes (what locate's buffer ends at)."""
    last = m.dot([s - 1 for s in t["sizes"]], t["strides"])
    return m.bytes_for(last + 1, t["bits"])


# A usage error in each of these ways, glued onto a random invocation.
BREAKAGES = [
    ["--sizes", "1,0,3"], ["--dtype", "float17"], ["--layout", "xyz"], ["--strides", "1,2,x"],
    ["--rank", "9"], ["--broadcast", "q"], ["--pad", "w=-1"], ["--total-size", "-1"],
    ["--total-size", "18446744073709551616"], ["--base-offset", "1e3"], ["--bogus", "1"],
    ["--sizes", "1,2,3,4,5,6,7,8,9"], ["--format", "yaml"], ["--coord"], ["stray"],
    ["--order", "0,0"], ["--row-pitch-align", "3"], ["--alignment", "x"], ["--flags", "nope"],
    ["--limit", "0"], ["--view", "grid"], ["--width", "5"], ["--color", "sometimes"],
]


def random_jobs(rng, count):
    """(where, argv) of random invocations asking for JSON."""
    jobs = []
    for _ in range(count):
        t = random_tensor(rng)
        targs = t["args"]
        sizes = t["sizes"]
        rank = len(sizes)
        fmt = ["--format", "json"]
        n = m.product(sizes)
        end = buffer_end(t)
        # size: with a total that is sometimes too small, --rank, a field list
        total = maybe(rng, 0.3, ["--total-size", str(rng.choice([0, 4, 64, end, U64]))])
        jobs.append(["size"] + targs + total + fmt)
        if rank < 8 and rng.random() < 0.2:
            jobs.append(["size"] + targs + ["--rank", str(rng.randint(rank, 8))] + fmt)
        # validate: alignment, base offset and flags, good and bad
        jobs.append(["validate"] + targs + total
                    + maybe(rng, 0.6, ["--alignment", str(rng.choice([0, 1, 3, 16, 32, 256,
                                                                       1 << 31]))])
                    + maybe(rng, 0.4, ["--base-offset", str(rng.choice([0, 8, 16, 256, U64]))])
                    + maybe(rng, 0.3, ["--flags", rng.choice(["none", "owned_by_dml", "1",
                                                             "2", "DML_TENSOR_FLAG_NONE"])])
                    + maybe(rng, 0.3, ["--binding-size", str(rng.choice([0, end - 1, end, U64]))])
                    + maybe(rng, 0.3, ["--buffer-size", str(rng.choice([0, end, 1 << 40, U64]))])
                    + fmt)
        # offset: one to three coordinates, sometimes one outside the tensor
        coords = []
        for _ in range(rng.randint(1, 3)):
            c = [rng.randrange(s) for s in sizes]
            if rng.random() < 0.1:
                d = rng.randrange(rank)
                c[d] = sizes[d]
            coords += ["--coord", ",".join(map(str, c))]
        jobs.append(["offset"] + targs + coords
                    + maybe(rng, 0.3, ["--base-offset", str(rng.choice([16, 1 << 40, U64]))])
                    + fmt)
        # locate: an element offset or a byte, inside, in padding or past the end
        bits = t["bits"]
        elems_in_buffer = end * 8 // bits
        k = rng.choice([0, rng.randrange(elems_in_buffer), elems_in_buffer - 1,
                        elems_in_buffer, elems_in_buffer + rng.randint(1, 100)])
        # (all the coordinates only of a small tensor: a broadcast one has many)
        limit = maybe(rng, 0.5 if n <= 4096 else 1, ["--limit", str(rng.choice([1, 2, 5]))])
        if rng.random() < 0.5:
            jobs.append(["locate"] + targs + ["--offset", str(k)] + limit + fmt)
        else:
            base = rng.choice([0, 0, 16, 1 << 33])
            b = base + rng.choice([0, rng.randrange(end), end - 1, end])
            jobs.append(["locate"] + targs + ["--byte-offset", str(b)] + limit
                        + (["--base-offset", str(base)] if base else []) + fmt)
        # map: json and jsonl, in full when small
        mlimit = [] if n <= 64 else ["--limit", str(rng.randint(1, 40))]
        jobs.append(["map"] + targs + mlimit
                    + maybe(rng, 0.3, ["--base-offset", str(rng.choice([4, U64 - 3]))])
                    + ["--format", rng.choice(["json", "jsonl"])])
        # view: random operations, sometimes refused; where it is bound
        if n <= 4096:
            ops = m.random_view_ops(rng, list(sizes), rng.randint(1, 4))
            jobs.append(["view"] + targs + [w for k, t in ops for w in ("--" + k.replace("_", "-"), t)]
                        + maybe(rng, 0.4, ["--base-offset", str(rng.choice([0, 8, 16, 4096]))])
                        + maybe(rng, 0.2, ["--alignment", str(rng.choice([0, 16, 256]))])
                        + maybe(rng, 0.2, ["--buffer-size", str(rng.choice([0, end, U64]))])
                        + fmt)
        # a usage error, with --format json
        cmd = rng.choice(["size", "offset", "locate", "map", "validate"])
        extra = {"offset": ["--coord", ",".join("0" * rank)], "locate": ["--offset", "0"]}
        jobs.append([cmd] + targs + extra.get(cmd, []) + rng.choice(BREAKAGES) + fmt)
    jobs.append(["dtypes", "--format", "json"])
    jobs.append(["layouts", "--format", "json"])
    for r in range(1, 9):
        jobs.append(["layouts", "--rank", str(r), "--format", "json"])
    # Fixed ones: values past 2^53 and 2^64, the published helper's wrap,
    # 4-bit types, the overlap search, a huge broadcast list, unknowns.
    jobs += [
        ["size", "--dtype", "uint8", "--sizes", "2,4294967295", "--strides", "2,1", "--format", "json"],
        ["size", "--dtype", "float64", "--sizes", "4294967295,4294967295,4294967295",
         "--strides", "4294967295,4294967295,4294967295", "--format", "json"],
        ["size", "--dtype", "int4", "--sizes", "3,5", "--total-size", "2", "--format", "json"],
        ["size", "--sizes", "2,3", "--strides", "3,2", "--format", "json"],
        ["validate", "--dtype", "uint8", "--sizes", "1,1,65536,65536", "--format", "json"],
        ["validate", "--dtype", "uint4", "--sizes", "1,1,2,4", "--alignment", "1", "--format", "json"],
        ["offset", "--dtype", "float64", "--sizes", "4294967295,4294967295", "--strides",
         "4294967295,4294967295", "--coord", "4294967294,4294967294",
         "--base-offset", "18446744073709551615", "--format", "json"],
        ["locate", "--sizes", "4096,4096", "--broadcast", "h,w", "--offset", "0", "--limit", "3",
         "--format", "json"],
        ["locate", "--dtype", "int4", "--sizes", "2,3", "--byte-offset", "1", "--format", "json"],
        ["locate", "--dtype", "uint4", "--sizes", "3", "--offset", "3", "--format", "json"],
        ["locate", "--sizes", "2,3", "--offset", "100", "--format", "json"],
        ["map", "--dtype", "uint4", "--sizes", "3", "--base-offset", "18446744073709551615",
         "--format", "jsonl"],
        ["map", "--sizes", "4294967295,4294967295", "--strides", "4294967295,1", "--limit", "3",
         "--format", "json"],
        ["map", "--sizes", "2,3", "--view", "memory", "--format", "json"],
        # view: a fix, a copy refused (exit 1, an error object), offsets past 2^32
        ["view", "--dtype", "float16", "--sizes", "4,3", "--slice", "h=1:3", "--format", "json"],
        ["view", "--sizes", "2,3", "--permute", "1,0", "--reshape", "6", "--format", "json"],
        ["view", "--dtype", "uint8", "--sizes", "65536,65536", "--select", "h=-1",
         "--base-offset", "18446744069414584320", "--format", "json"],
        ["view", "--dtype", "int4", "--sizes", "5", "--split", "w=1+4", "--format", "json"],
        # the overlap search stops at its work limit: packed, padded and
        # overlapping are null (test_limits.c's tensor)
        ["size", "--dtype", "uint8", "--sizes", "8,8,8,8,8,8,8,8", "--strides",
         "1290852541,3066988985,2717401112,1865455665,1182811308,2730087285,2385463286,"
         "1531287043", "--format", "json"],
    ]
    return [(where_of(a), a) for a in jobs]


# ---------------------------------------------------------------- batch, scan

def batch_jobs(rng, count, tmp):
    """batch of random descriptors: JSON Lines and array files, and stdin."""
    recs = check_batch_equivalence.generate(rng, count)
    jsonl = os.path.join(tmp, "records.jsonl")
    array = os.path.join(tmp, "records.json")
    check_batch_equivalence.write_jsonl(rng, recs, jsonl)
    check_batch_equivalence.write_array(rng, recs, array)
    with open(jsonl, "rb") as f:
        data = f.read()
    return [("dmltensor batch records.jsonl (%d random records)" % count, ["batch", jsonl], b""),
            ("dmltensor batch records.json (the same as an array)", ["batch", array], b""),
            ("dmltensor batch < records.jsonl", ["batch"], data),
            ("dmltensor batch --format json (not an option)", ["batch", "--format", "json"], b"")]


DATA_TYPES = ["FLOAT32", "FLOAT16", "UINT8", "INT4", "UINT64", "DML_TENSOR_DATA_TYPE_INT8",
              "float16", "NOT_A_TYPE", 5, "", None]


def random_description(rng):
    rank = rng.randint(1, 5)
    sizes = [rng.randint(1, 6) for _ in range(rank)]
    if rng.random() < 0.05:
        sizes[0] = 0  # bad
    d = {"DataType": rng.choice(DATA_TYPES[:7]) if rng.random() < 0.9 else rng.choice(DATA_TYPES),
         "Sizes": sizes}
    if rng.random() < 0.4:
        d["Strides"] = [rng.randint(0, 8) for _ in range(rank + (rng.random() < 0.05))]
    if rng.random() < 0.3:
        d["TotalTensorSizeInBytes"] = rng.choice([0, 4, 64, 1024, "18446744073709551615"])
    if rng.random() < 0.3:
        d["GuaranteedBaseOffsetAlignment"] = rng.choice([0, 3, 16, 256])
    if rng.random() < 0.2:
        d["Flags"] = rng.choice(["DML_TENSOR_FLAG_OWNED_BY_DML", "DML_TENSOR_FLAG_NONE", 1, 2])
    if rng.random() < 0.2:
        d["DimensionCount"] = rank + (rng.random() < 0.3)
    return d


def random_document(rng, depth=0):
    """A DxDispatch-like document with tensor descriptions at many depths."""
    if depth > 3 or rng.random() < 0.3:
        return random_description(rng) if rng.random() < 0.6 else rng.choice(
            [1, "x", None, True, [1, 2]])
    if rng.random() < 0.3:
        return [random_document(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["desc", "InputTensor", "OutputTensor", "odd key", "a.b", "\u00e9", "dispatchables"]
    return {rng.choice(keys) + str(i): random_document(rng, depth + 1)
            for i in range(rng.randint(0, 4))}


def scan_jobs(rng, count, tmp, model):
    jobs = [("dmltensor scan dxdispatch_model.json", ["scan", model], b"")]
    for i in range(count):
        doc = {"dispatchables": random_document(rng), "extra": random_description(rng)}
        path = os.path.join(tmp, "model%d.json" % i)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=rng.choice([None, 2]))
        jobs.append(("dmltensor scan model%d.json" % i, ["scan", path], b""))
    with open(jobs[-1][1][1], "rb") as f:
        jobs.append(("dmltensor scan - < model%d.json" % (count - 1), ["scan", "-"], f.read()))
    return jobs


# ---------------------------------------------------------------- main

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dmltensor")
    ap.add_argument("schema_dir")
    ap.add_argument("cases_dir")
    ap.add_argument("--cases", type=int, default=150, help="random tensors (default 150)")
    ap.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    args = ap.parse_args(argv)
    binary = os.path.abspath(args.dmltensor)
    try:
        validators = load_schemas(args.schema_dir)
    except (ValueError, jsonschema.exceptions.SchemaError) as e:
        print(f"FAIL a schema is not valid: {e}")
        print("0 passed, 1 failed")
        return 1
    tables = check_hostile.load_tables(binary)
    schema_of = json_commands(tables)
    missing = (set(schema_of.values()) | {"error"}) - set(validators)
    if missing:
        print(f"FAIL missing schemas: {sorted(missing)} (a command that prints JSON needs "
              "docs/schema/NAME.schema.json, or its line in SCHEMA_OF)")
        print("0 passed, 1 failed")
        return 1
    check = Checker(validators, tables)
    rng = random.Random(args.seed)

    def single(where, argv, stdin=b""):
        status, out = run(binary, argv, stdin)
        return where, argv, status, out

    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        cases = case_jobs(args.cases_dir)
        futures = [pool.submit(run_case, binary, args.cases_dir, job) for job in cases]
        rand = random_jobs(rng, args.cases)
        futures += [pool.submit(single, w, a) for w, a in rand]
        model = os.path.join(args.cases_dir, "..", "data", "dxdispatch_model.json")
        files = batch_jobs(rng, 300, tmp) + scan_jobs(rng, 25, tmp, model)
        futures += [pool.submit(single, w, a, i) for w, a, i in files]
        hostile = [check_hostile.with_json(words, tables.commands)
                   for _, words, json_ok, _ in check_hostile.cases(tables)
                   if json_ok and tables.json_errors(words)]
        futures += [pool.submit(single, f"hostile: {where_of(a)}", a) for a in hostile]
        print(f"running {len(cases)} cases, {len(rand)} random invocations, {len(files)} batch "
              f"and scan runs, {len(hostile)} malformed invocations", flush=True)
        for fut in futures:
            where, argv, status, out = fut.result()
            cmd = argv[0] if argv else ""
            check.output(cmd, format_of(argv), status, out, where)
    check.controls()

    print(f"{check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
