#!/usr/bin/env python3
"""check_lists.py DMLTENSOR - `layouts` and `dtypes` say the same in every
form, and what they list is accepted.

layouts: for each rank 1..8 the text table's named column, the JSON list's
"named", and the names in `layouts --rank R` (text and JSON) agree; every
listed name, and every permutation of the letters, is taken by
`size --layout` at that rank, and the default is what `size` uses without
--layout. dtypes: the text table and the JSON list name the same types,
and each is taken by `size --dtype` with the listed element size.
"""
import itertools
import json
import subprocess
import sys

failures = 0


def run(binary, *args):
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def main():
    binary = sys.argv[1]
    rc, text, _ = run(binary, "layouts")
    check(rc == 0, "layouts exits 0")
    rc, js, _ = run(binary, "layouts", "--format", "json")
    check(rc == 0, "layouts --format json exits 0")
    entries = json.loads(js)
    rows = [line for line in text.splitlines() if line[:1].isdigit()]
    check(len(rows) == 8 and len(entries) == 8, "8 ranks in text and JSON")
    checked = 0
    for row, entry in zip(rows, entries):
        r = entry["rank"]
        # Columns: rank, letters, default, then the named column up to the
        # "other orders" column (fixed positions, as the header shows).
        header = text.splitlines()[0]
        start, end = header.index("named layouts"), header.index("other orders")
        named_text = row[start:end].split()
        check(row.split()[0] == str(r), f"rank {r}: row order")
        check(named_text == entry["named"], f"rank {r}: text named {named_text} != JSON {entry['named']}")
        letters = entry["letters"]
        check((row.split()[1] == "-") == (letters is None), f"rank {r}: letters column")
        rc, one, _ = run(binary, "layouts", "--rank", str(r))
        rc2, one_js, _ = run(binary, "layouts", "--rank", str(r), "--format", "json")
        listed = [l for l in one.splitlines() if l and not l.startswith("(")]
        obj = json.loads(one_js)
        check(listed == obj["layouts"], f"rank {r}: --rank text and JSON differ")
        check(set(entry["named"]) <= set(listed), f"rank {r}: named not all in --rank list")
        perms = ["".join(p) for p in itertools.permutations(letters)] if letters else []
        check(set(perms) <= set(listed), f"rank {r}: permutations missing from --rank list")
        sizes = ",".join(str(2 + i) for i in range(r))
        for name in listed:
            rc, out, err = run(binary, "size", "--sizes", sizes, "--layout", name, "--format", "json")
            check(rc == 0, f"rank {r}: size --layout {name} refused: {err.strip()}")
            checked += 1
        rc, out, _ = run(binary, "size", "--sizes", sizes, "--format", "json")
        check(rc == 0 and json.loads(out)["layout"] == entry["default"],
              f"rank {r}: default layout is not {entry['default']}")

    rc, text, _ = run(binary, "dtypes")
    rc2, js, _ = run(binary, "dtypes", "--format", "json")
    check(rc == 0 and rc2 == 0, "dtypes exits 0")
    types = json.loads(js)
    for t in types:
        name = t["name"] if "name" in t else t["dtype"]
        check(any(line.split()[:1] == [name] for line in text.splitlines()),
              f"dtype {name} missing from the text table")
        rc, out, err = run(binary, "size", "--dtype", name, "--sizes", "2", "--format", "json")
        check(rc == 0, f"size --dtype {name} refused: {err.strip()}")
        if rc == 0:
            got = json.loads(out)["element_size_bits"]
            want = t.get("element_size_bits", t.get("bits"))
            check(got == want, f"dtype {name}: size says {got} bits, dtypes says {want}")
        checked += 1
    print(f"check_lists: {checked} names checked, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
