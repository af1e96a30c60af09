#!/usr/bin/env python3
"""Every field of a descriptor is given once, whatever its spelling.

Usage: check_batch_fields.py DMLTENSOR_PATH BATCH_MD

The fields and their spellings come from the key table of docs/batch.md
(snake_case, DirectML's name, singular and plural: `coord`, `coords`), and
the keys `size --format json` prints that batch ignores. For every ordered
pair of spellings (a, b) of one field, a itself included, the record
{..., a: value, b: value} must be a duplicate_key error naming b, whose
message names a; in `batch` (both orders are pairs) and, for DirectML's
names, in `scan`. For every pair of different fields, the record must not
be a duplicate_key error.

Prints one FAIL line per mismatch and "N passed, M failed".
"""

import json
import re
import subprocess
import sys

# A value each key takes, so that the first of a pair is read without fault.
VALUES = {
    "dtype": '"float32"', "DataType": '"FLOAT32"', "sizes": "[2,3]", "Sizes": "[2,3]",
    "strides": "[3,1]", "Strides": "[3,1]", "layout": '"hw"', "order": "[0,1]",
    "broadcast": '"h"', "pad": '"w=1"', "rank": "2", "row_pitch_align": "4",
    "total_tensor_size_bytes": "24", "TotalTensorSizeInBytes": "24",
    "guaranteed_base_offset_alignment": "16", "GuaranteedBaseOffsetAlignment": "16",
    "base_offset_bytes": "0", "flags": "0", "Flags": "0", "DimensionCount": "2",
    "command": '"size"', "coord": "[0,1]", "coords": "[[0,1]]", "id": "1", "ops": "[]",
}


def fields_from_doc(path):
    """The key table's rows: each a list of spellings."""
    fields = []
    in_table = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("| key | DirectML name |"):
            in_table = True
            continue
        if in_table:
            if not line.startswith("|"):
                break
            if line.startswith("|---"):
                continue
            cells = line.split("|")[1:3]
            names = [n for cell in cells for n in re.findall(r"`([A-Za-z_]+)`", cell)]
            if names:
                fields.append(names)
    return fields


def run(binary, cmd, text):
    p = subprocess.run([binary, cmd, "-"], input=text.encode(), capture_output=True)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def main():
    binary, doc = sys.argv[1], sys.argv[2]
    fields = fields_from_doc(doc)
    if len(fields) < 15:
        print("FAIL the key table of %s: only %d rows read" % (doc, len(fields)))
        return 1
    # The keys size prints that are not in the table: batch ignores them,
    # once each.
    _, out, _ = run(binary, "batch", '{"sizes":[2,3]}\n')
    known = {n for f in fields for n in f}
    ignored = [k for k in json.loads(out) if k not in known]
    fields += [[k] for k in ignored]
    for f in fields:
        for name in f:
            VALUES.setdefault(name, "0")
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL " + what)

    def record(a, b, directml):
        base = [] if "sizes" in (a.lower(), b.lower()) else \
            (['"DataType":"FLOAT32"', '"Sizes":[2,3]'] if directml else ['"sizes":[2,3]'])
        if directml and a == "DataType":
            base = ['"Sizes":[2,3]']
        if directml and a == "Sizes":
            base = ['"DataType":"FLOAT32"']
        value = dict(VALUES)
        if a in ("coord", "coords") or b in ("coord", "coords"):
            if "command" in (a, b):
                value["command"] = '"offset"'
            else:
                base.append('"command":"offset"')
        return "{" + ",".join(base + ['"%s":%s' % (a, value[a]), '"%s":%s' % (b, value[b])]) + "}"

    # Same field: a duplicate, in both orders.
    batch_in, scan_in, want = [], [], []
    for f in fields:
        for a in f:
            for b in f:
                batch_in.append(record(a, b, False))
                want.append((a, b))
    _, out, _ = run(binary, "batch", "\n".join(batch_in) + "\n")
    lines = out.splitlines()
    check(len(lines) == len(batch_in), "batch: %d lines for %d records" % (len(lines), len(batch_in)))
    for (a, b), rec, line in zip(want, batch_in, lines):
        e = json.loads(line).get("error") or {}
        check(e.get("id") == "duplicate_key" and e.get("key") == b
              and e.get("message") == 'given twice (also as "%s")' % a,
              "batch: %s -> %s" % (rec, line[:200]))
    # scan: DirectML's names (scan reads no others).
    directml = [n for f in fields for n in f if n[0].isupper()]
    docs = [record(n, n, True) for n in directml]
    _, out, _ = run(binary, "scan", "[" + ",".join(docs) + "]")
    lines = out.splitlines()
    check(len(lines) == len(docs), "scan: %d lines for %d descriptions" % (len(lines), len(docs)))
    for n, rec, line in zip(directml, docs, lines):
        e = json.loads(line).get("error") or {}
        check(e.get("id") == "duplicate_key" and e.get("key") == n, "scan: %s -> %s" % (rec, line[:200]))

    # Different fields: never a duplicate.
    names = [n for f in fields for n in f]
    field_of = {n: i for i, f in enumerate(fields) for n in f}
    pairs = [(a, b) for a in names for b in names if field_of[a] != field_of[b]]
    batch_in = [record(a, b, False) for a, b in pairs]
    _, out, _ = run(binary, "batch", "\n".join(batch_in) + "\n")
    lines = out.splitlines()
    check(len(lines) == len(batch_in), "batch: %d lines for %d records" % (len(lines), len(batch_in)))
    for rec, line in zip(batch_in, lines):
        e = json.loads(line).get("error") or {}
        check(e.get("id") != "duplicate_key", "batch, different fields: %s -> %s" % (rec, line[:200]))

    print("fields: %d (%d spellings, %d of them ignored keys of size's output)"
          % (len(fields), len(names), len(ignored)))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
