#!/usr/bin/env python3
"""check_text_escapes.py DMLTENSOR - every character class through every text output.

SPEC section 8: text output escapes every C0 and C1 control character and
the Unicode format characters of a name, and a backslash (so that the
literal text `a\\x1b` never reads as ESC); columns count characters, not
bytes. One function (quote_text in outbuf.c: cli_ob_quoted_text, and
cli_ob_xml_text for SVG) does it for every text that shows input; this sweep
checks each place where input reaches text:

  - scan --format text: a tensor name (a row), a file name (the header),
    a file that cannot be scanned (its line), --dim in the totals;
  - messages on stderr: an option's text (size --sizes), a JSON key (batch's
    summary of the first failure), scan's note on an unused --dim, a file
    that cannot be opened;
  - plan --format svg: each rectangle's title (bidi overrides and
    invisible characters reached the tooltip raw);
  - --name's hint lists variables that the command's --format c declares.

The samples: every C0 control, DEL, every C1 control (U+0080..U+009F),
every character Python's unicodedata calls Cf, Zl or Zp, a spread of every
other category (letters, marks, numbers, punctuation, symbols, spaces,
private use, unassigned; wide CJK too), and bytes that are not UTF-8 (raw
0x9B, a lone continuation byte, overlong forms, encoded surrogates, past
U+10FFFF, a sequence cut short). The expected text is computed here
independently: bytes that are not UTF-8 (as Python's decoder splits them),
C0 and DEL as \\xNN; Cc, Cf, Zl, Zp as \\uXXXX or \\UXXXXXXXX; an unassigned
code point may be either; anything else as itself. In the table, the KIND
column must start in each row at the character where the header has it.
"""
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
import xml.etree.ElementTree as ET
from protobuf_bytes import msg

HIDDEN = ("Cc", "Cf", "Zl", "Zp")


def samples():
    """(label, bytes) for each sample, each put between "a" and "b"."""
    out = []
    for c in list(range(0x20)) + [0x7F]:
        out.append(("C0/DEL U+%04X" % c, bytes([c])))
    by_cat = {}
    for c in range(0x80, 0x110000):
        if 0xD800 <= c <= 0xDFFF:
            continue
        by_cat.setdefault(unicodedata.category(chr(c)), []).append(c)
    for cat, cs in sorted(by_cat.items()):
        if cat in HIDDEN:
            chosen = cs  # every one
        else:  # a spread: the first, the last and 18 between
            step = max(1, len(cs) // 18)
            chosen = sorted(set(cs[::step] + [cs[0], cs[-1]]))
        for c in chosen:
            out.append(("%s U+%04X" % (cat, c), chr(c).encode()))
    for extra in (0x4E2D, 0xFF21, 0x1F600, 0x0301, 0x00A0, 0x3000):  # wide, emoji, combining
        out.append(("U+%04X" % extra, chr(extra).encode()))
    for raw in (b"\\", b"\\x1b", b"\\u202e", b"\\\\"):  # a literal backslash: never read as an escape
        out.append(("backslash %r" % raw, raw))
    for raw in (b"\x9b", b"\x9b2J", b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80",
                b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf5", b"\xff",
                b"\xe2\x80", b"\xf0\x9f\x98", b"\xc2"):
        out.append(("not UTF-8 %s" % raw.hex(), raw))
    seen = set()
    return [(label, raw) for label, raw in out if not (raw in seen or seen.add(raw))]


def expected(raw, xml=False):
    """The escaped texts allowed for raw bytes: a set (unassigned code points either way).
    xml: in an SVG title, where U+FFFE and U+FFFF (no XML characters) are escaped too."""
    texts = [""]
    for ch in raw.decode("utf-8", "surrogateescape"):
        c = ord(ch)
        if 0xDC80 <= c <= 0xDCFF:  # a byte that is not UTF-8
            alts = ["\\x%02x" % (c - 0xDC00)]
        elif c < 0x20 or c == 0x7F:
            alts = ["\\x%02x" % c]
        elif ch == "\\":
            alts = ["\\\\"]
        elif xml and c in (0xFFFE, 0xFFFF):
            alts = ["\\u%04x" % c]
        else:
            esc = "\\u%04x" % c if c <= 0xFFFF else "\\U%08x" % c
            cat = unicodedata.category(ch)
            alts = [esc] if cat in HIDDEN else [ch, esc] if cat == "Cn" else [ch]
        texts = [t + a for t in texts for a in alts]
    return set(texts)


def model(names):
    vis = b"".join(msg(13, msg(1, n) + msg(2, msg(1, b"\x08\x01" + msg(2, msg(1, b"\x08\x02")))))
                   for n in names)
    return b"\x08\x08" + msg(8, msg(1, b"") + b"\x10\x11") + msg(7, msg(2, b"g") + vis)


def run(args, stdin=None):
    p = subprocess.run(args, input=stdin, capture_output=True, check=False)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


class Sweep:
    def __init__(self):
        self.failures = 0
        self.checks = 0

    def contains(self, where, label, text, raw, before, after):
        """text holds before + one of expected(a raw b) + after."""
        self.checks += 1
        for e in expected(b"a" + raw + b"b"):
            if before + e + after in text:
                return True
        self.failures += 1
        if self.failures <= 20:
            print("FAIL: %s, %s: want %r in %r" % (where, label, sorted(expected(b"a" + raw + b"b")),
                                                   text[:300]))
        return False


def check_svg_titles(binary, items, sw, tmp):
    """plan --format svg: every sample as a tensor name; each rectangle's
    title holds it escaped as text output escapes it (issue 27: bidi
    overrides and invisible characters reached the tooltip raw)."""
    recs = []
    for i, (label, raw) in enumerate(items):
        if b"\0" in raw or b'"' in raw:
            continue
        name = b"a" + raw.replace(b"\\", b"\\\\") + b"b"
        for c in range(0x20):  # JSON escapes its controls
            name = name.replace(bytes([c]), b"\\u%04x" % c)
        recs.append((label, raw, b'{"name":"%s","first":%d,"last":%d,"size_in_bytes":16}'
                     % (name, i, i)))
    path = os.path.join(tmp, "names.jsonl")
    with open(path, "wb") as f:
        f.write(b"\n".join(r for _, _, r in recs) + b"\n")
    rc, out, err = run([binary, "plan", path, "--format", "svg"])
    if rc != 0:
        sw.failures += 1
        print("FAIL: plan --format svg: exit %d: %s" % (rc, err[:300]))
        return
    root = ET.fromstring(out.encode("utf-8"))
    titles = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}title")]
    for label, raw, _ in recs:
        sw.checks += 1
        want = expected(b"a" + raw + b"b", xml=True)
        if not any(t.startswith(w + " ") or t.startswith(w + ":") or t == w
                   for t in titles for w in want):
            sw.failures += 1
            if sw.failures <= 20:
                print("FAIL: svg title, %s: want one of %r" % (label, sorted(want)[:3]))


def check_c_name_hints(binary, sw):
    """--name's hint names the variables the command's --format c declares
    (plan's hint listed size's)."""
    for args in (["size", "--sizes", "2,3"], ["validate", "--sizes", "2,3"],
                 ["view", "--sizes", "2,3", "--slice", "h=0:1"], ["plan", "-"]):
        stdin = b'{"name":"t","first":0,"last":0,"size_in_bytes":16}\n'
        _, _, err = run([binary] + args + ["--format", "c", "--name", "_bad"], stdin=stdin)
        _, out, _ = run([binary] + args + ["--format", "c", "--name", "input"], stdin=stdin)
        hint = [ln for ln in err.splitlines() if "hint:" in ln]
        names = re.findall(r"\binput\w+", hint[0]) if hint else []
        sw.checks += 1
        missing = [n for n in names if not re.search(r"\b%s\b" % n, out)]
        if not names or missing:
            sw.failures += 1
            print("FAIL: %s --name hint %r: not declared by --format c: %r"
                  % (args[0], hint, missing or "no names"))


def main():
    binary = sys.argv[1]
    sw = Sweep()
    items = samples()
    with tempfile.TemporaryDirectory() as tmp:
        # scan --format text: every sample as a tensor name, in one model.
        path = os.path.join(tmp, "names.onnx")
        with open(path, "wb") as f:
            f.write(model([b"a" + raw + b"b" for _, raw in items]))
        _, out, _ = run([binary, "scan", path, "--format", "text"])
        lines = out.splitlines()
        kind_col = lines[1].index("KIND")  # the NAME column is as wide as the names (capped)
        rows = lines[2:2 + len(items)]
        for (label, raw), row in zip(items, rows):
            if raw == b"\0":
                continue  # a name is text up to a NUL (the JSON record has the same)
            if sw.contains("scan text name", label, row, raw, "", " "):
                sw.checks += 1
                if row.find(" value_info") + 1 != kind_col:
                    sw.failures += 1
                    print("FAIL: column of %s: KIND at character %d, not %d: %r"
                          % (label, row.find(" value_info") + 1, kind_col, row))
        # File names (any byte but / and NUL): headers of scan --format text,
        # a line per file that cannot be scanned, and cannot_open messages.
        names = []
        for i, (label, raw) in enumerate(items):
            if b"/" in raw or b"\0" in raw:
                continue
            fname = os.path.join(tmp.encode(), b"a" + raw + b"b")
            with open(fname, "wb") as f:
                f.write(model([b"x"]))
            names.append((label, raw, fname))
        args = [binary.encode(), b"scan", b"--format", b"text"] + [n for _, _, n in names]
        _, out, _ = run(args)
        for label, raw, _ in names:
            sw.contains("scan text file header", label, out, raw, "/", " (ONNX model)")
        for label, raw, fname in names[:len(names) // 4]:
            os.unlink(fname)
        _, out, err = run(args)
        for label, raw, _ in names[:len(names) // 4]:
            sw.contains("scan text: not scanned", label, out, raw, "/", ": not scanned")
            sw.contains("cannot_open message", label, err, raw, "/", "\": cannot open")
        # Messages: an option's text, a JSON key, an unused --dim.
        for label, raw in items:
            if b"\0" in raw:
                continue
            _, _, err = run([binary.encode(), b"size", b"--dtype", b"float32",
                             b"--sizes", b"a" + raw + b"b"])
            sw.contains("size --sizes message", label, err, raw, "\"", "\"")
            key = raw.decode("utf-8", "surrogateescape")
            if all(0x20 <= ord(c) and c not in "\"\\" and not 0xDC80 <= ord(c) <= 0xDCFF
                   for c in key):  # a JSON key holds valid UTF-8, no raw control
                rec = b'{"dtype":"float32","sizes":[2],"a' + raw + b'b":1}\n'
                _, _, err = run([binary, "batch", "-"], stdin=rec)
                sw.contains("batch summary message", label, err, raw, "the first, at line 1: ",
                            ": not a descriptor key")
        dimmed = [(label, raw) for label, raw in items if b"\0" not in raw and b"=" not in raw]
        for k in range(0, len(dimmed), 16):  # 16 --dim a run
            part = dimmed[k:k + 16]
            _, _, err = run([binary.encode(), b"scan", path.encode()] +
                            [b"--dim=a" + raw + b"b=2" for _, raw in part])
            for label, raw in part:
                sw.contains("scan --dim note", label, err, raw,
                            "no tensor has the symbolic dim \"", "\"")
        check_svg_titles(binary, items, sw, tmp)
    check_c_name_hints(binary, sw)
    print("%d samples, %d checks, %d failures" % (len(items), sw.checks, sw.failures))
    return 1 if sw.failures else 0


if __name__ == "__main__":
    sys.exit(main())
