#!/usr/bin/env python3
"""`dmltensor batch` gives, record for record, what the single commands give.

Usage: check_batch_equivalence.py DMLTENSOR_PATH [--cases N] [--seed S] [--keep DIR]

N random descriptors (default 400, fixed seed) are written twice: as one
JSON Lines file (with blank lines, whitespace-only lines and CRLF line ends
mixed in) and as one JSON array file (some elements pretty-printed over
several lines, some sharing a line).  Each file is run through
`dmltensor batch FILE`.  The descriptors cover:

  dtype       all 13 types, as names, upper case, DML_TENSOR_DATA_TYPE_*
              spellings, aliases (fp16, double, ...), \\u-escaped strings and
              DirectML's numeric DataType 1..13, under "dtype" or "DataType";
  sizes       JSON lists, lists of digit strings and "2,3" strings, under
              "sizes" or "Sizes" (sometimes with a matching DimensionCount);
              ranks 1..8, sizes up to 4294967295;
  layout      explicit strides (lists or strings, "strides" or "Strides"),
              layout names, orders (lists or strings), with broadcast as a
              string, a list of letters, a list of indices or per-dim
              booleans, and pad as a string, a list or an object {"w":2};
              rank; row_pitch_align;
  buffer      total_tensor_size_bytes / TotalTensorSizeInBytes as numbers
              and as strings, past 2^53 and up to 2^64-1 in both forms,
              guaranteed_base_offset_alignment, base_offset_bytes, flags,
              binding_size_bytes, buffer_size_bytes;
  commands    size (by default or named), validate, offset with coord or
              coords, view with "ops" (random chains of operations, some
              refused, texts or lists) and buffer_size_bytes; an "id"
              (number or string; sometimes none, sometimes not the first
              key).

About 15% are deliberately bad: zero size, unknown key, malformed JSON,
negative number, fraction, 9 dims, bad dtype, coordinate out of range, and
a few more (size past 2^32, total past 2^64, stride count, pad on the
outermost dim, conflicting keys, a record that is not an object). Some
records give a number past 2^53 as a JSON number, read exactly as the
option reads its digits (in range or not).

For every record the equivalent single command is run (`dmltensor
size|validate|offset ... --format json`, the record's keys as options).
Batch must give, on the record's output line:

  * for a good record: the single command's stdout line exactly, with
    "id":ID, first when the record has an id;
  * for a bad record: {"id":ID,"line":N,"error":{...}} with the record's line
    in that file, and the same error "id" (and, where both have one, the
    same "message") as the single command's {"error":{...}};
  * for a record whose fault the command line cannot express (malformed
    JSON, non-object, unknown key, a fraction, a numeric DataType outside
    1..13, a NUL inside a string, missing sizes): the error id expected
    here (bad_json, bad_record, unknown_key, bad_number, bad_dtype,
    missing_key) and the
    line; "id" is null when the record could not be read as an object.

Keys the single command does not take (base_offset_bytes, flags,
binding_size_bytes, buffer_size_bytes and guaranteed_base_offset_alignment
for size; total_tensor_size_bytes, flags
and the alignment for offset) are part of a descriptor: batch reads them
and ignores them, so the single command is run without them.

Also: one output line per record, in order; the JSON Lines and array files
give the same output but for line numbers, and stdin gives what the file
gives; the stderr summary counts the failed and invalid records; the exit
status is 1 exactly when a record failed or a size, validate or view record
is invalid ("valid":false),
else 0 (checked on the whole files, on chunks of 10 records and on a file of
only clean records).

Prints one "FAIL ..." block per mismatch (the record, batch's line and the
single command's line) and ends with "N passed, M failed" (one per record,
plus one per file-level check).  Exit status 1 if anything failed, else 0.
Standard library only.
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import dmlt_model as m
from dmlt_model import LETTERS, U32_MAX, U64_MAX

MAX_SAFE = (1 << 53) - 1  # larger JSON numbers are exact in few parsers: not in dmltensor's

# Options each single command takes (of those a descriptor can set).
TAKES = {
    "size": {"--dtype", "--sizes", "--strides", "--layout", "--order", "--broadcast",
             "--pad", "--rank", "--row-pitch-align", "--total-size"},
    "validate": {"--dtype", "--sizes", "--strides", "--layout", "--order", "--broadcast",
                 "--pad", "--rank", "--row-pitch-align", "--total-size", "--alignment",
                 "--base-offset", "--flags", "--binding-size", "--buffer-size"},
    "offset": {"--dtype", "--sizes", "--strides", "--layout", "--order", "--broadcast",
               "--pad", "--rank", "--row-pitch-align", "--base-offset", "--coord"},
    "view": {"--dtype", "--sizes", "--strides", "--layout", "--order", "--broadcast",
             "--pad", "--rank", "--row-pitch-align", "--total-size", "--alignment",
             "--base-offset", "--buffer-size"},
}

ALIASES = {"float16": ["fp16", "half", "Float16"], "float32": ["f32", "fp32", "single"],
           "float64": ["double", "f64"], "uint8": ["u8"], "int64": ["i64"],
           "int8": ["i8"], "uint32": ["u32"]}


# ---------------------------------------------------------------- JSON text

class Raw:
    """JSON text written exactly as given (bad numbers, odd escapes)."""

    def __init__(self, text):
        self.text = text


class Esc(str):
    """A string written with every letter or digit as a \\u escape."""


def dump(v):
    """Compact JSON like json.dumps, with Raw and Esc; ints exactly."""
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, Esc):
        return '"' + "".join("\\u%04x" % ord(c) if c.isalnum() else c for c in v) + '"'
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(x) for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(dump(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def dump_record(fields, style):
    """fields: list of (key, value). style: compact, spaced or pretty."""
    if style == "compact":
        return "{" + ",".join(json.dumps(k) + ":" + dump(v) for k, v in fields) + "}"
    if style == "spaced":
        return "{" + ", ".join(json.dumps(k) + ": " + dump(v) for k, v in fields) + "}"
    return "{\n" + ",\n".join("    " + json.dumps(k) + ": " + dump(v)
                              for k, v in fields) + "\n  }"


# ---------------------------------------------------------------- records

class Record:
    def __init__(self):
        self.fields = []       # (key, value), in the record's order
        self.raw = None        # the record's text, when not built from fields
        self.cmd = "size"
        self.cli = []          # single-command options (None: no equivalent)
        self.expect = None     # JSON-only fault: the error id batch must give
        self.id_given = False
        self.id = None
        self.kind = "good"     # what the generator meant (for messages)
        self.pretty_ok = True

    def set(self, key, value):
        for i, (k, _) in enumerate(self.fields):
            if k == key:
                self.fields[i] = (key, value)
                return
        self.fields.append((key, value))

    def get(self, key):
        return next((v for k, v in self.fields if k == key), None)

    def opt(self, name, value):
        self.cli = [a for i, a in enumerate(self.cli)
                    if not (a == name or (i > 0 and self.cli[i - 1] == name))]
        self.cli += [name, value]

    def text(self, style):
        if self.raw is not None:
            return self.raw
        return dump_record(self.fields, style)

    def echoed_id(self):
        """The "id" an error record must carry."""
        return self.id if self.id_given and self.kind not in ("malformed", "non_object", "nul_in_string") else None


def digits(values):
    return ",".join(str(v) for v in values)


def list_form(rng, values, string_p=0.35):
    """A list of numbers as a JSON list, a "1,2" string, or a list of strings."""
    r = rng.random()
    if r < string_p:
        return digits(values)
    if r < string_p + 0.05:
        return [str(v) for v in values]
    return list(values)


def number_form(rng, value, string_p=0.4):
    """A number as a JSON number (read exactly at any size) or a string."""
    if rng.random() < string_p:
        return str(value)
    return value


def random_sizes(rng, cmd):
    if rng.random() < 0.15:
        rank = rng.randint(6, 8)
        return [rng.choice([1, 1, 2, 2, 3]) for _ in range(rank)]
    rank = rng.randint(1, 5)
    sizes = []
    for _ in range(rank):
        r = rng.random()
        if cmd in ("offset", "view") or r < 0.7:
            sizes.append(rng.randint(1, 8))
        elif r < 0.95:
            sizes.append(rng.randint(1, 300))
        else:
            sizes.append(rng.randint(1, U32_MAX))
    return sizes


def explicit_strides(rng, sizes):
    if rng.random() < 0.8:
        return m.small_strides(rng, sizes)
    return [rng.choice([0, rng.randint(1, 1 << 16), rng.randint(1, U32_MAX)]) for _ in sizes]


def dims_of(text, rank):
    """--broadcast text (letters or indices) -> dim indices."""
    if text.replace(",", "").isdigit():
        return [int(x) for x in text.split(",")]
    return [LETTERS[rank].index(c) for c in text.replace(",", "")]


def good_record(rng, n):
    """A well-formed descriptor with its single-command equivalent."""
    rec = Record()
    r = rng.random()
    rec.cmd = ("size" if r < 0.45 else "validate" if r < 0.68 else "offset" if r < 0.9
               else "view")
    sizes = random_sizes(rng, rec.cmd)
    rank = len(sizes)
    t = m.random_tensor(rng, sizes, explicit_p=0.35, explicit_strides=explicit_strides,
                        pad_p=0.3)
    opts = dict(zip(t["args"][0::2], t["args"][1::2]))

    # id: usually first, sometimes elsewhere or missing
    r = rng.random()
    if r < 0.88:
        rec.id_given, rec.id = True, n
    elif r < 0.95:
        rec.id_given, rec.id = True, "rec-%d" % n
    id_last = rng.random() < 0.3

    if rec.id_given and not id_last:
        rec.set("id", rec.id)

    # dtype
    dtype = t["dtype"]
    if not (dtype == "float32" and rng.random() < 0.3):
        key = "DataType" if rng.random() < 0.3 else "dtype"
        r = rng.random()
        if r < 0.2:
            rec.set(key, m.DTYPE_VALUE[dtype])
            rec.opt("--dtype", dtype)
        elif r < 0.3 and dtype in ALIASES:
            alias = rng.choice(ALIASES[dtype])
            rec.set(key, alias)
            rec.opt("--dtype", alias)
        elif r < 0.35 and rng.random() < 0.3:
            rec.set(key, Esc(opts["--dtype"]))
            rec.opt("--dtype", opts["--dtype"])
        else:
            rec.set(key, opts["--dtype"])
            rec.opt("--dtype", opts["--dtype"])

    # sizes
    skey = "Sizes" if rng.random() < 0.3 else "sizes"
    rec.set(skey, list_form(rng, sizes))
    rec.opt("--sizes", digits(sizes))
    if skey == "Sizes" and isinstance(rec.get(skey), list) and rng.random() < 0.3:
        rec.set("DimensionCount", rank)

    # strides, layout, order, broadcast, pad
    if "--strides" in opts:
        rec.set("Strides" if rng.random() < 0.3 else "strides", list_form(rng, t["strides"]))
        rec.opt("--strides", opts["--strides"])
    if "--layout" in opts:
        rec.set("layout", Esc(opts["--layout"]) if rng.random() < 0.05 else opts["--layout"])
        rec.opt("--layout", opts["--layout"])
    if "--order" in opts:
        rec.set("order", list_form(rng, [int(x) for x in opts["--order"].split(",")], 0.5))
        rec.opt("--order", opts["--order"])
    if "--broadcast" in opts:
        text = opts["--broadcast"]
        dims = dims_of(text, rank)
        r = rng.random()
        if r < 0.3:
            value = text
        elif r < 0.55 and rank <= 5:
            value = [LETTERS[rank][d] for d in dims]
        elif r < 0.8:
            value = dims
        else:
            value = [d in dims for d in range(rank)]
        rec.set("broadcast", value)
        rec.opt("--broadcast", text)
    if "--pad" in opts:
        text = opts["--pad"]
        r = rng.random()
        if r < 0.35:
            value = text
        elif r < 0.6:
            value = text.split(",")
        else:
            value = {k: int(v) for k, v in (p.split("=") for p in text.split(","))}
        rec.set("pad", value)
        rec.opt("--pad", text)
    layout_given = any(o in opts for o in ("--layout", "--order", "--broadcast", "--pad"))
    if layout_given and rank >= 2 and rng.random() < 0.04:
        align = rng.choice([16, 64, 256])
        rec.set("row_pitch_align", number_form(rng, align))
        rec.opt("--row-pitch-align", str(align))

    # rank: adds leading 1s (not with a layout, which is of the given rank)
    full_sizes = sizes
    if not layout_given and rank < 8 and rng.random() < 0.15:
        r_to = rng.randint(rank, 8)
        rec.set("rank", number_form(rng, r_to, 0.3))
        rec.opt("--rank", str(r_to))
        full_sizes = [1] * (r_to - rank) + sizes

    # buffer fields
    last = sum((s - 1) * st for s, st in zip(sizes, t["strides"]))
    minimum = m.bytes_for(last + 1, t["bits"])

    def total():
        choice = rng.choice(["min", "min", "more", "less", "odd", "big", "huge", "max"])
        return {"min": minimum, "more": minimum + 4 * rng.randint(1, 100),
                "less": max(minimum - 4, 0), "odd": minimum + 1,
                "big": rng.randint(1 << 32, MAX_SAFE),
                "huge": rng.randint(MAX_SAFE + 1, U64_MAX), "max": U64_MAX}[choice]

    buffer = {
        "--total-size": (("TotalTensorSizeInBytes", "total_tensor_size_bytes"), total),
        "--alignment": (("GuaranteedBaseOffsetAlignment", "guaranteed_base_offset_alignment"),
                        lambda: rng.choice([0, 1, 2, 4, 8, 16, 32, 64, 256, 4096, 3, 24])),
        "--base-offset": (("base_offset_bytes", "base_offset_bytes"),
                          lambda: rng.choice([0, 16, 32, 48, 256, 4096, 8, 4, 100,
                                              1 << 40, U64_MAX])),
        "--binding-size": (("binding_size_bytes", "binding_size_bytes"),
                           lambda: rng.choice([minimum, minimum + 1, max(minimum - 1, 0), 0,
                                               1 << 40, U64_MAX])),
        "--buffer-size": (("buffer_size_bytes", "buffer_size_bytes"),
                          lambda: rng.choice([minimum, minimum + 16, 4096, 1 << 40, U64_MAX])),
        "--flags": (("Flags", "flags"),
                    lambda: rng.choice(["none", "owned_by_dml", "DML_TENSOR_FLAG_OWNED_BY_DML",
                                        "DML_TENSOR_FLAG_NONE", 0, 1, 2, "0", "1"])),
    }
    want = {"size": {"--total-size": 0.35},
            "validate": {"--total-size": 0.5, "--alignment": 0.4, "--base-offset": 0.3,
                         "--flags": 0.3, "--binding-size": 0.3, "--buffer-size": 0.3},
            "offset": {"--base-offset": 0.3},
            "view": {"--total-size": 0.2, "--alignment": 0.3, "--base-offset": 0.4,
                     "--buffer-size": 0.2}}[rec.cmd]
    # a field the command does not take, now and then: read, then ignored
    if rec.cmd not in ("validate", "view") and rng.random() < 0.08:
        other = [o for o in buffer if o not in TAKES[rec.cmd]]
        want = dict(want, **{rng.choice(other): 1.0})
    for option, p in want.items():
        if rng.random() >= p:
            continue
        keys, make = buffer[option]
        value = make()
        key = keys[0] if rng.random() < 0.3 else keys[1]
        rec.set(key, number_form(rng, value) if isinstance(value, int) else value)
        if option in TAKES[rec.cmd]:
            rec.opt(option, str(value))

    # the command
    if rec.cmd != "size" or rng.random() < 0.4:
        rec.set("command", rec.cmd)
    if rec.cmd == "offset":
        k = rng.randint(1, 4)
        coords = []
        for _ in range(k):
            c = [rng.randrange(s) for s in full_sizes]
            if len(full_sizes) > rank and rng.random() < 0.5:
                c = c[len(full_sizes) - rank:]  # the added leading dims may be left out
            coords.append(c)
        if k == 1 and rng.random() < 0.5:
            rec.set("coord", list_form(rng, coords[0], 0.4))
        else:
            rec.set("coords", [list_form(rng, c, 0.3) for c in coords])
        for c in coords:
            rec.cli += ["--coord", digits(c)]

    if rec.cmd == "view":
        ops = []
        for kind, text in m.random_view_ops(rng, list(full_sizes), rng.randint(0, 3)):
            value = text
            if kind in ("reshape", "broadcast_to") and rng.random() < 0.5:
                value = [int(x) for x in text.split(",") if x.lstrip("-").isdigit()]
                if ",".join(map(str, value)) != text:
                    value = text
            elif kind == "permute" and text[0].isdigit() and rng.random() < 0.5:
                value = [int(x) for x in text.split(",")]
            ops.append({kind: value})
            rec.cli += ["--" + kind.replace("_", "-"), text]
        rec.set("ops", ops)

    if rec.id_given and id_last:
        rec.set("id", rec.id)
    if rng.random() < 0.2:  # key order does not matter
        rng.shuffle(rec.fields)
    return rec


# ---------------------------------------------------------------- bad records

MALFORMED = [
    '{"id":%d "sizes":[2,3]}',                 # missing comma
    '{"id":%d,"sizes":[2,3],}',                # trailing comma
    "{'id':%d,'sizes':[2]}",                   # single quotes
    '{"id":%d,"sizes":[2,,3]}',                # empty list item
    '{"id":%d,"sizes":tru}',                   # bad literal
    '{"id":%d,"sizes":[2],"dtype":"f\\q"}',    # bad escape
    '{"id":%d,"sizes":[2]} {"id":0}',          # text after the object
    '{"id":%d,"sizes":[2]}}',                  # a stray closing brace
    '{"id":%d,"sizes":[02]}',                  # a leading zero is not JSON
    '{"id":%d,"sizes":[2],"dtype":"float16\\u0000"}',  # valid JSON: a NUL in a string
]

NON_OBJECTS = ["[1,2]", "42", '"sizes"', "null", "true"]

UNKNOWN_KEYS = ["layuot", "stride", "note", "Size", "datatype", "total_size", "alignment",
                "base_offset", "flag", "coordinate", "", "DIMENSIONCOUNT"]


def minimal_record(rng, n, cmd="size"):
    """A small good record: id, sizes (and dtype), the command."""
    rec = Record()
    rec.cmd = cmd
    rec.id_given, rec.id = True, n
    rec.set("id", n)
    rank = rng.randint(1, 5)
    sizes = [rng.randint(1, 6) for _ in range(rank)]
    dtype = rng.choice(m.DTYPE_NAMES)
    rec.set("dtype", dtype)
    rec.opt("--dtype", dtype)
    rec.set("sizes", list_form(rng, sizes))
    rec.opt("--sizes", digits(sizes))
    if cmd != "size":
        rec.set("command", cmd)
    return rec, sizes


def set_list(rec, key, option, values, as_string):
    """values: items that are ints or Raw; the option gets their text."""
    texts = [v.text if isinstance(v, Raw) else str(v) for v in values]
    rec.set(key, ",".join(texts) if as_string else values)
    rec.opt(option, ",".join(texts))


BAD_KINDS = [
    # (weight, kind)
    (3, "zero_size"), (3, "unknown_key"), (4, "malformed"), (3, "negative"), (2, "fraction"),
    (2, "nine_dims"), (3, "big_number"), (3, "bad_dtype"), (3, "coord_out_of_range"),
    (1, "size_too_big"), (1, "total_too_big"), (1, "stride_count"), (1, "pad_outermost"),
    (1, "conflict"), (1, "non_object"), (1, "missing_sizes"),
]


def bad_record(rng, n, kind=None, template=None):
    """A record with one fault: kind (else a random one); template: the
    malformed text (else a random one)."""
    if kind is None:
        kind = rng.choice([k for w, k in BAD_KINDS for _ in range(w)])
    if kind == "coord_out_of_range":
        rec, sizes = minimal_record(rng, n, "offset")
    else:
        rec, sizes = minimal_record(rng, n, rng.choice(["size", "size", "validate"]))
    rec.kind = kind
    rank = len(sizes)
    as_string = rng.random() < 0.3
    if kind == "zero_size":
        sizes[rng.randrange(rank)] = 0
        set_list(rec, "sizes", "--sizes", sizes, as_string)
    elif kind == "unknown_key":
        rec.set(rng.choice(UNKNOWN_KEYS), rng.choice([1, "x", [1, 2], None]))
        rec.cli, rec.expect = None, "unknown_key"
    elif kind == "malformed":
        template = template or rng.choice(MALFORMED)
        rec.raw = template % n
        rec.cmd = "size"
        if "\\u0000" in template:
            # valid JSON, but a C string would end at the NUL (and no
            # command line can carry one): batch refuses the record as
            # JSON it cannot pass on
            rec.kind = "nul_in_string"
            rec.cli, rec.expect = None, "bad_json"
        else:
            rec.cli, rec.expect = None, "bad_json"
        rec.pretty_ok = False
    elif kind == "non_object":
        rec.raw = rng.choice(NON_OBJECTS)
        rec.cli, rec.expect = None, "bad_record"
        rec.pretty_ok = False
    elif kind == "negative":
        where = rng.choice(["sizes", "sizes", "strides", "total"])
        if where == "total":
            v = -4 * rng.randint(1, 100)
            rec.set("total_tensor_size_bytes", v)
            rec.opt("--total-size", str(v))
        elif where == "strides":
            strides = [rng.randint(0, 9) for _ in sizes]
            strides[rng.randrange(rank)] = -rng.randint(1, 9)
            set_list(rec, "strides", "--strides", strides, False)
        else:
            sizes[rng.randrange(rank)] = -rng.randint(1, 9)
            set_list(rec, "sizes", "--sizes", sizes, False)
    elif kind == "fraction":
        frac = Raw(rng.choice(["1.5", "2.25", "0.5", "1e-3", "3.0000001"]))
        where = rng.choice(["sizes", "strides", "total", "rank"])
        if where == "sizes":
            rec.set("sizes", sizes[:-1] + [frac])
        elif where == "strides":
            rec.set("strides", [1] * (rank - 1) + [frac])
        elif where == "total":
            rec.set("total_tensor_size_bytes", frac)
        else:
            rec.set("rank", frac)
        rec.cli, rec.expect = None, "bad_number"
    elif kind == "nine_dims":
        set_list(rec, "sizes", "--sizes", [rng.randint(1, 3) for _ in range(9)], as_string)
    elif kind == "big_number":
        # Past 2^53 as a JSON number: read exactly, as the option reads
        # its digits (out of range for sizes, strides and the alignment).
        big = rng.choice([MAX_SAFE + 1, MAX_SAFE + 2, 1 << 60, U64_MAX, U64_MAX + 1,
                          rng.randint(MAX_SAFE + 1, U64_MAX)])
        where = rng.choice(["total", "total", "sizes", "strides", "base", "alignment"])
        key, option = {"total": ("total_tensor_size_bytes", "--total-size"),
                       "sizes": ("sizes", "--sizes"), "strides": ("strides", "--strides"),
                       "base": ("base_offset_bytes", "--base-offset"),
                       "alignment": ("guaranteed_base_offset_alignment", "--alignment")}[where]
        if where in ("base", "alignment") and rec.cmd == "size":
            rec.cmd = "validate"
            rec.set("command", "validate")
        if where in ("sizes", "strides"):
            set_list(rec, key, option, [1] * (rank - 1) + [big], False)
        else:
            rec.set(key, Raw(str(big)))
            rec.opt(option, str(big))
    elif kind == "bad_dtype":
        key = rng.choice(["dtype", "DataType"])
        rec.fields = [(k, v) for k, v in rec.fields if k != "dtype"]
        if rng.random() < 0.4:
            rec.set(key, Raw(rng.choice(["0", "14", "2.5", "-1", "99"])))
            rec.cli, rec.expect = None, "bad_dtype"
            rec.cli = None
        else:
            name = rng.choice(["floaty", "float8", "int128", "bfloat16",
                               "DML_TENSOR_DATA_TYPE_UNKNOWN", "float 16", "uint"])
            rec.set(key, name)
            rec.opt("--dtype", name)
    elif kind == "coord_out_of_range":
        coord = [rng.randrange(s) for s in sizes]
        d = rng.randrange(rank)
        coord[d] = sizes[d] + rng.randint(0, 3)
        good = [rng.randrange(s) for s in sizes]
        coords = [good, coord] if rng.random() < 0.5 else [coord]
        if len(coords) == 1 and rng.random() < 0.5:
            rec.set("coord", list_form(rng, coord))
        else:
            rec.set("coords", [list_form(rng, c) for c in coords])
        for c in coords:
            rec.cli += ["--coord", digits(c)]
    elif kind == "size_too_big":
        sizes[rng.randrange(rank)] = rng.choice([U32_MAX + 1, 1 << 40])
        set_list(rec, "sizes", "--sizes", sizes, as_string)
    elif kind == "total_too_big":
        v = rng.choice([U64_MAX + 1, 10 ** 30])
        rec.set("TotalTensorSizeInBytes", str(v))
        rec.opt("--total-size", str(v))
    elif kind == "stride_count":
        strides = [rng.randint(0, 5) for _ in range(rank + rng.choice([-1, 1]))] or [1, 1]
        if len(strides) == rank:
            strides.append(1)
        set_list(rec, "Strides", "--strides", strides, as_string)
    elif kind == "pad_outermost":
        if rank == 1:
            sizes.append(2)
            rank = 2
            set_list(rec, "sizes", "--sizes", sizes, False)
        order = rng.sample(range(rank), rank)
        layout = m.order_arg(order)
        rec.set("layout", layout)
        rec.opt("--layout", layout)
        pad = "%s=%d" % (LETTERS[rank][order[0]], rng.randint(1, 3))
        rec.set("pad", pad)
        rec.opt("--pad", pad)
    elif kind == "conflict":
        layout = "row-major"
        order = list(range(rank))
        rec.set("layout", layout)
        rec.opt("--layout", layout)
        rec.set("order", order)
        rec.opt("--order", digits(order))
    elif kind == "missing_sizes":
        rec.fields = [(k, v) for k, v in rec.fields if k != "sizes"]
        rec.cli, rec.expect = None, "missing_key"
    return rec


def generate(rng, count):
    """About 15% bad records: every kind and every malformed text at least
    once (when count allows), in random places, then random ones."""
    forced = [(k, None) for _, k in BAD_KINDS if k != "malformed"] + \
        [("malformed", t) for t in MALFORMED]
    rng.shuffle(forced)
    recs = []
    for n in range(1, count + 1):
        # (not the first: a JSON Lines file whose first line is a JSON
        # array, like [1,2], is read as one JSON array)
        if n > 1 and rng.random() < 0.15:
            kind, template = forced.pop() if forced else (None, None)
            recs.append(bad_record(rng, n, kind, template))
        else:
            recs.append(good_record(rng, n))
    return recs


# ---------------------------------------------------------------- files

def write_jsonl(rng, recs, path):
    """Returns the line of each record."""
    out, lines = [], []
    line = 1
    for rec in recs:
        while rng.random() < 0.06:
            out.append(rng.choice(["\n", "\r\n", "   \n", "\t\r\n"]))
            line += 1
        lines.append(line)
        style = "spaced" if rng.random() < 0.2 else "compact"
        out.append(rec.text(style) + ("\r\n" if rng.random() < 0.1 else "\n"))
        line += 1
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(out))
    return lines


def write_array(rng, recs, path):
    """One JSON array: some elements pretty-printed, some on one line."""
    text = "[\n"
    lines = []
    for i, rec in enumerate(recs):
        if i:
            text += rng.choice([",\n", ",\n", ",\n", ",\r\n", ", ", ",\n\n"])
        text += "  "
        lines.append(text.count("\n") + 1)
        style = "pretty" if rec.pretty_ok and rng.random() < 0.15 else "compact"
        text += rec.text(style)
    text += "\n]\n"
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)
    return lines


# ---------------------------------------------------------------- running

def run(cmd, stdin=None):
    p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def single(tool, rec):
    """The single command's result: (shell text, exit status, stdout line)."""
    cmd = [tool, rec.cmd] + rec.cli + ["--format", "json"]
    rc, out, err = run(cmd)
    return m.shell_words(cmd), rc, out, err


def split_lines(out):
    if out == "":
        return []
    lines = out.split("\n")
    if lines[-1] != "":
        lines.append("<no newline at the end>")
    return lines[:-1]


def strip_id(line):
    """'{"id":X,...}' -> (X, '{...}'), or (missing, line) without an id."""
    if not line.startswith('{"id":'):
        return MISSING, line
    try:
        value, end = json.JSONDecoder().raw_decode(line, 6)
    except ValueError:
        return MISSING, line
    if line[end:end + 1] != ",":
        return MISSING, line
    return value, "{" + line[end + 1:]


MISSING = object()
LINE_KEY = re.compile(r',"line":[0-9]+,"error":')


def without_line(line):
    return LINE_KEY.sub(',"line":_,"error":', line, count=1)


def expected_outcome(rec, expected):
    """(an error record?, an invalid validate result?) as the single command
    (or, for a JSON-only fault, the fault) says."""
    if expected is None:
        return True, False
    try:
        sdoc = json.loads(expected[2])
    except ValueError:
        return True, False
    if not isinstance(sdoc, dict) or "error" in sdoc:
        return True, False
    return False, rec.cmd in ("size", "validate", "view") and sdoc.get("valid") is False


def check_record(rec, text, line_no, got, expected):
    """expected: (shell text, rc, stdout, stderr) of the single command, or
    None for a JSON-only fault.  Returns the failure lines."""
    fails = []

    def fail(what):
        fails.append(what)

    def show():
        s = ["  record (line %d): %s" % (line_no, text.replace("\r", "\\r").replace("\n", "\\n")),
             "  batch:  %s" % got]
        if expected is not None:
            s.append("  single: %s  -> exit %d" % (expected[0], expected[1]))
            s.append("          %s" % expected[2].rstrip("\n"))
        return s

    try:
        doc = json.loads(got)
    except ValueError:
        doc = None
    if not isinstance(doc, dict):
        fail("batch's line is not a JSON object")
        return fails + show()
    is_error = "error" in doc and "line" in doc and list(doc)[:3] == ["id", "line", "error"]

    if expected is None:
        # a fault only JSON has: the error id expected here
        if not is_error:
            fail("expected an error record %s, got a result" % rec.expect)
        else:
            if doc["error"].get("id") != rec.expect:
                fail("error id: expected %s, got %s" % (rec.expect, doc["error"].get("id")))
            if doc["line"] != line_no:
                fail("line: expected %d, got %s" % (line_no, doc["line"]))
            if doc["id"] != rec.echoed_id() or type(doc["id"]) is not type(rec.echoed_id()):
                fail("id: expected %s, got %s" % (json.dumps(rec.echoed_id()), json.dumps(doc["id"])))
        return fails + show() if fails else []

    _, rc, out, _ = expected
    single_line = out.rstrip("\n")
    try:
        sdoc = json.loads(single_line)
    except ValueError:
        sdoc = None
    if not isinstance(sdoc, dict) or "\n" in single_line:
        fail("the single command's stdout is not one JSON object")
        return fails + show()
    if "error" in sdoc:
        serr = sdoc["error"]
        # (a "good" record may still fail: a layout's stride past 2^32...)
        if not is_error:
            fail("the single command fails (%s), batch gives a result" % serr.get("id"))
            return fails + show()
        berr = doc["error"]
        if berr.get("id") != serr.get("id"):
            fail("error id: single %s, batch %s" % (serr.get("id"), berr.get("id")))
        if "message" in berr and "message" in serr and berr["message"] != serr["message"]:
            fail("error message differs")
        if doc["line"] != line_no:
            fail("line: expected %d, got %s" % (line_no, doc["line"]))
        if doc["id"] != rec.echoed_id() or type(doc["id"]) is not type(rec.echoed_id()):
            fail("id: expected %s, got %s" % (json.dumps(rec.echoed_id()), json.dumps(doc["id"])))
        if rc not in (1, 2):
            fail("single command: exit %d with an error object" % rc)
        return fails + show() if fails else []

    # a result
    if rec.kind not in ("good", "big_number"):  # a big total or base offset is in range
        fail("meant as a bad record (%s), but the single command succeeds" % rec.kind)
    invalid = rec.cmd in ("size", "validate", "view") and sdoc.get("valid") is False
    want_rc = 1 if invalid else 0
    if rc != want_rc:
        fail("single command: exit %d, expected %d" % (rc, want_rc))
    if is_error:
        fail("batch gives an error record, the single command a result")
        return fails + show()
    value, rest = strip_id(got)
    if rec.id_given:
        if value is MISSING:
            fail('batch\'s line does not start with "id":%s,' % json.dumps(rec.id))
        elif value != rec.id or type(value) is not type(rec.id):
            fail("id: expected %s, got %s" % (json.dumps(rec.id), json.dumps(value)))
    if (rest if rec.id_given else got) != single_line:
        fail("batch's line (without the id) differs from the single command's stdout")
    return fails + show() if fails else []


def summary_counts(err):
    failed = re.search(r"batch: (\d+) of (\d+) records failed; the first, at line (\d+)", err)
    broken = re.search(r"batch: (\d+) of (\d+) records break a DirectML rule", err)
    return ((int(failed.group(1)), int(failed.group(2)), int(failed.group(3))) if failed else None,
            (int(broken.group(1)), int(broken.group(2))) if broken else None)


def check_file(tool, path, name, recs, lines, texts, singles, outcome, results):
    """Runs batch on one file; appends one failure list per record, returns
    batch's output lines."""
    rc, out, err = run([tool, "batch", path])
    got = split_lines(out)
    file_fails = []
    if len(got) != len(recs):
        file_fails.append("%s: %d output lines for %d records" % (name, len(got), len(recs)))
    for i, rec in enumerate(recs):
        line = got[i] if i < len(got) else "<missing>"
        f = check_record(rec, texts[i], lines[i], line, singles[i])
        outcome[i] = expected_outcome(rec, singles[i])
        results.append(["%s: record %d (%s, %s):" % (name, i + 1, rec.kind, rec.cmd)] + f
                       if f else [])
    want_rc = 1 if any(a or b for a, b in outcome) else 0
    if rc != want_rc:
        file_fails.append("%s: batch exit status %d, expected %d" % (name, rc, want_rc))
    # the stderr summary counts what batch wrote: its error records and its
    # "valid":false results
    docs = []
    for text in got:
        try:
            docs.append(json.loads(text))
        except ValueError:
            docs.append(None)
    err_at = [d["line"] for d in docs if isinstance(d, dict) and "error" in d and "line" in d]
    n_failed = len(err_at)
    n_invalid = sum(1 for d in docs if isinstance(d, dict) and d.get("valid") is False)
    failed, broken = summary_counts(err)
    if n_failed:
        first = err_at[0]
        if failed != (n_failed, len(recs), first):
            file_fails.append("%s: stderr should say %d of %d records failed, first at line %d: %r"
                              % (name, n_failed, len(recs), first, err[:300]))
    elif failed:
        file_fails.append("%s: stderr reports failures: %r" % (name, err[:300]))
    if (broken or (0, 0))[0] != n_invalid:
        file_fails.append("%s: stderr should count %d invalid records: %r"
                          % (name, n_invalid, err[:300]))
    results.append(file_fails)
    return got, rc


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dmltensor", help="path to the dmltensor binary")
    ap.add_argument("--cases", type=int, default=400, help="records (default 400)")
    ap.add_argument("--seed", type=int, default=4242, help="random seed (default 4242)")
    ap.add_argument("--keep", metavar="DIR", help="write the files here and keep them")
    opts = ap.parse_args(argv)
    tool = os.path.abspath(opts.dmltensor)
    rng = random.Random(opts.seed)
    recs = generate(rng, opts.cases)

    tmp = opts.keep or tempfile.mkdtemp(prefix="dmlt_batch_eq.")
    os.makedirs(tmp, exist_ok=True)
    try:
        jsonl = os.path.join(tmp, "records.jsonl")
        array = os.path.join(tmp, "records.json")
        jsonl_lines = write_jsonl(rng, recs, jsonl)
        array_lines = write_array(rng, recs, array)
        with open(jsonl, encoding="utf-8", newline="") as f:
            jsonl_texts = [t for t in f.read().split("\n") if t.strip()]
        jsonl_texts = [t.rstrip("\r") for t in jsonl_texts]
        array_texts = [rec.text("compact") for rec in recs]

        singles = [single(tool, rec) if rec.cli is not None else None for rec in recs]
        results = []
        outcome = [None] * len(recs)
        got_l, _ = check_file(tool, jsonl, "jsonl", recs, jsonl_lines, jsonl_texts, singles,
                              outcome, results)
        outcome_a = [None] * len(recs)
        got_a, _ = check_file(tool, array, "array", recs, array_lines, array_texts, singles,
                              outcome_a, results)

        # the two files: the same output but for line numbers
        fails = []
        for i, (a, b) in enumerate(zip(got_l, got_a)):
            if without_line(a) != without_line(b):
                fails.append("jsonl vs array: record %d differs:\n  jsonl: %s\n  array: %s"
                             % (i + 1, a, b))
        results.append(fails)

        # stdin gives what the file gives
        with open(jsonl, "rb") as f:
            rc_in, out_in, _ = run([tool, "batch", "-"], stdin=f)
        results.append([] if split_lines(out_in) == got_l else
                        ["batch - (stdin) differs from batch FILE"])

        # exit status on chunks of 10 records, and on a file of clean records
        fails = []
        for start in range(0, len(recs), 10):
            chunk = recs[start:start + 10]
            path = os.path.join(tmp, "chunk.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                f.write("".join(rec.text("compact") + "\n" for rec in chunk))
            rc, out, _ = run([tool, "batch", path])
            want = 1 if any(a or b for a, b in outcome[start:start + 10]) else 0
            if rc != want:
                fails.append("records %d..%d: batch exit status %d, expected %d"
                             % (start + 1, start + len(chunk), rc, want))
            if [without_line(x) for x in split_lines(out)] != \
                    [without_line(x) for x in got_l[start:start + 10]]:
                fails.append("records %d..%d: output differs from the whole file's"
                             % (start + 1, start + len(chunk)))
        clean = [rec for rec, (a, b) in zip(recs, outcome) if not a and not b]
        path = os.path.join(tmp, "clean.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(rec.text("compact") + "\n" for rec in clean))
        rc, out, err = run([tool, "batch", path])
        if rc != 0 or err:
            fails.append("%d clean records: batch exit status %d (expected 0), stderr %r"
                         % (len(clean), rc, err[:300]))
        results.append(fails)

        kinds = {}
        for rec in recs:
            kinds[rec.kind] = kinds.get(rec.kind, 0) + 1
        print("records: %d (%s); failed %d, invalid %d"
              % (len(recs), ", ".join("%s %d" % kv for kv in sorted(kinds.items())),
                 sum(1 for a, _ in outcome if a), sum(1 for _, b in outcome if b)))
        return m.summarize(results)
    finally:
        if not opts.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
