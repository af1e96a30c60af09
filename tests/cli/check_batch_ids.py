#!/usr/bin/env python3
"""check_batch_ids.py DMLTENSOR - batch echoes each id exactly as it was written.

docs/batch.md: an id is echoed exactly as written; only white space between
tokens is left out (the result is one line). For ids of every kind (strings
with each JSON escape, \\u escapes of ASCII, of Latin-1, of control
characters, surrogate pairs in either case of hex, "\\/", raw UTF-8;
numbers as written; literals; lists and objects with white space and
escaped keys), each in a record batch takes on its fast path where it can
(a plain record) and in records only the general path takes (an escaped
key, a bad value: an error record), as JSON Lines and as one JSON array:
the echoed id must be the input's text less its white space outside
strings (computed here by a tokenizer of this script), and must decode to
the same value (json.loads). A key written "\\u0069d" is the id too. Lone
surrogates are refused (bad_json) with the id null.
"""
import json
import subprocess
import sys

IDS = [
    '"plain"', '7', '-0', '1E400', '0.10', 'true', 'null',
    '"\\ud83d\\ude00"', '"\\uD83D\\uDE00"', '"x\\ud834\\udd1ey"', '"\\u0041"', '"\\u00e9"',
    '"a\\/b"', '"\\"q\\""', '"back\\\\slash"', '"\\b\\f\\n\\r\\t"', '"\\u001f\\u007f"',
    '"\\u202e\\u009b"', '"é😀"', '"tab\\tand space"', '"\\u2028"',
    '[1, 2.50 ,"\\u0041"]', '{ "k" : "\\ud83d\\ude00" , "\\u0069d" : [ ] }', '[ ]', '{}',
    '"  spaces  inside  "',
]
LONE = ['"\\ud83d"', '"\\ude00"', '"a\\ud83dx"', '"\\ude00\\ud83d"']


def squeeze(text):
    """JSON text less the white space outside strings."""
    out, in_string, i = [], False, 0
    while i < len(text):
        ch = text[i]
        if in_string and ch == "\\":
            out.append(text[i:i + 2])
            i += 2
            continue
        if ch == '"':
            in_string = not in_string
        if in_string or ch not in " \t\n\r":
            out.append(ch)
        i += 1
    return "".join(out)


def spread(text):
    """JSON text with a newline after each , : [ { outside strings."""
    out, in_string, i = [], False, 0
    while i < len(text):
        ch = text[i]
        if in_string and ch == "\\":
            out.append(text[i:i + 2])
            i += 2
            continue
        if ch == '"':
            in_string = not in_string
        out.append(ch + ("\n" if not in_string and ch in ",:[{" else ""))
        i += 1
    return "".join(out)


def id_text(line):
    """The raw text of the "id" member that starts a result line."""
    assert line.startswith('{"id":'), line
    rest = line[len('{"id":'):]
    dec = json.JSONDecoder()
    _, end = dec.raw_decode(rest)
    return rest[:end]


def records(id_json, nl=" "):
    """Records carrying the id: the plain path, the general path (escaped key), an error
    (nl: the white space around it, a newline only inside a JSON array)."""
    return [
        '{"id":%s,"sizes":[2,3]}' % id_json,
        '{"\\u0069d" : %s , "dtype":"float16","sizes":[2]}' % id_json,
        '{"id":%s\t%s ,%s "sizes":[1,0]}' % (nl, id_json, nl),
    ]


def run(binary, text):
    p = subprocess.run([binary, "batch", "-"], input=text.encode(), capture_output=True,
                       check=False)
    return p.stdout.decode().split("\n")[:-1]  # JSON Lines end in \n; U+2028 is no line end


def main():
    binary = sys.argv[1]
    failures = checks = 0
    recs = [(i, r) for i in IDS for r in records(i)]
    array_recs = [(i, r) for i in IDS for r in records(spread(i), "\n")]
    lines_jsonl = run(binary, "\n".join(r for _, r in recs) + "\n")
    lines_array = run(binary, "[\n" + ",\n".join(r for _, r in array_recs) + "\n]\n")
    for form, lines, recs in (("JSON Lines", lines_jsonl, recs),
                              ("array", lines_array, array_recs)):
        if len(lines) != len(recs):
            print("FAIL: %s: %d results for %d records" % (form, len(lines), len(recs)))
            return 1
        for (want, rec), line in zip(recs, lines):
            checks += 1
            got = id_text(line)
            if got != squeeze(want) or json.loads(got) != json.loads(want):
                failures += 1
                print("FAIL: %s: record %r: id echoed %r, want %r" % (form, rec, got, squeeze(want)))
    for lone in LONE:
        for rec in records(lone):
            checks += 1
            out = run(binary, rec + "\n")
            ok = len(out) == 1 and json.loads(out[0]).get("id", 0) is None and \
                json.loads(out[0])["error"]["id"] == "bad_json"
            if not ok:
                failures += 1
                print("FAIL: lone surrogate %r: %r" % (rec, out))
    print("%d ids, %d checks, %d failures" % (len(IDS) + len(LONE), checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
