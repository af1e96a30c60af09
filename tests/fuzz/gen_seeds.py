#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/<target>/.

  tests/fuzz/gen_seeds.py            # rewrite the seeds (other files are kept)

cli:   every invocation of the golden cases (tests/cli/cases/*.case), the
       console examples of README.md and docs/*.md, the examples of each
       --help, and malformed variants; one argv word per line, then two
       NULs and standard input when the case has one (batch, scan).
parse: for each parser (byte 0) a few parameters (byte 1) and texts: good
       and bad numbers, lists, dimensions, data type and layout names.
core:  tensors encoded as fuzz_core.c reads them: documented examples and
       deterministic pseudo-random bytes.
view:  parents and chains of operations as fuzz_view.c reads them: the
       examples of docs/views.md and deterministic pseudo-random bytes.
Seeds are small and named for what they hold; libFuzzer's own finds go to a
scratch directory (see .ci/checks/30-fuzz.sh), not here.
"""
import glob
import os
import random
import re
import shlex
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
sys.dont_write_bytecode = True
import run_golden  # noqa: E402  (parse_case)


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", name)[:60]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def argv_seed(words):
    return "".join(w + "\n" for w in words).encode("utf-8", "surrogateescape")


def cli_seeds():
    seen = set()

    def add(name, words, stdin=b""):
        data = argv_seed(words) + (b"\0\0" + stdin if stdin else b"")
        if data not in seen:
            seen.add(data)
            write("cli", name, data)

    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "cli", "cases", "*.case"))):
        meta, _ = run_golden.parse_case(path)
        if "args-esc" in meta:
            words = [a.encode("latin-1").decode("unicode_escape")
                     for a in shlex.split(meta["args-esc"])]
        else:
            words = shlex.split(meta.get("args", ""))
        # Standard input follows two NULs. fuzz_cli skips words with '/', so
        # a file argument (batch data/x.jsonl) becomes "-" with the file as
        # standard input.
        stdin = b""
        case_dir = os.path.dirname(path)
        if "stdin" in meta:
            with open(os.path.join(case_dir, meta["stdin"]), "rb") as f:
                stdin = f.read()
        elif "stdin-esc" in meta:
            stdin = meta["stdin-esc"].encode("latin-1").decode("unicode_escape").encode("latin-1")
        for i, w in enumerate(words):
            if "/" in w and os.path.isfile(os.path.join(case_dir, w)):
                with open(os.path.join(case_dir, w), "rb") as f:
                    stdin = f.read()
                words[i] = "-"
                break
        if any("/" in w for w in words):
            continue
        add("case-" + os.path.basename(path)[:-5], words, stdin[:4096])

    # Console examples: "$ dmltensor ...", up to a pipe or the end of $(...).
    pages = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    n = 0
    for page in pages:
        with open(page, encoding="utf-8") as f:
            for line in f:
                for m in re.finditer(r"dmltensor ((?:[^|;)`$#\\\n])+)", line):
                    try:
                        words = shlex.split(m.group(1))
                    except ValueError:
                        continue
                    if words and words[0][0].isalpha() and not words[0].endswith(".md"):
                        n += 1
                        add(f"doc-{os.path.basename(page)[:-3]}-{n}", words)

    # The examples each --help shows.
    with open(os.path.join(ROOT, "src", "cli", "options.c"), encoding="utf-8") as f:
        src = f.read()
    for i, m in enumerate(re.finditer(r'"  dmltensor ([^"#\\|]*)', src)):
        words = shlex.split(m.group(1))
        if words:
            add(f"help-{i}", words)

    # Malformed and edge invocations.
    hostile = [
        ["size", "--sizes", "-1"], ["size", "--sizes", "+1"], ["size", "--sizes", "1e3"],
        ["size", "--sizes", " 1"], ["size", "--sizes", "1,,2"], ["size", "--sizes", ",1"],
        ["size", "--sizes", "\uff11"], ["size", "--sizes", "\u0663"],
        ["size", "--sizes", "18446744073709551616"], ["size", "--sizes", "1,2,3,4,5,6,7,8,9"],
        ["size", "--sizes", "1,3,224,224", "--strides", "1,1,1,1", "--layout", "nchw"],
        ["size", "--sizes", "4294967295,4294967295,4294967295,4294967295", "--strides",
         "1,4294967295,1,4294967295"],
        ["size", "--sizes", "7,11,13", "--strides", "143,13,1", "--total-size", "18446744073709551615"],
        ["size", "--sizes", "6,10,15", "--strides", "15,6,10"],
        ["size", "--sizes", "2,3,4,5,6", "--layout", "ndhwc", "--pad", "w=3,c=1", "--row-pitch-align", "256",
         "--broadcast", "d", "--format", "env"],
        ["size", "--sizes", "1,2,3,4,5,6,7,8", "--order", "7,6,5,4,3,2,1,0", "--format", "json"],
        ["size", "--sizes", "3,5", "--rank", "8", "--layout", "col-major", "--dtype", "int4"],
        ["size", "--format=json", "--sizes=1,0"],
        ["offset", "--sizes", "2,3", "--coord", "1,2", "--coord", "0,0", "--coord", "9,9"],
        ["offset", "--dtype", "uint4", "--sizes", "4294967295,4294967295", "--strides",
         "4294967295,4294967295", "--coord", "4294967294,4294967294", "--base-offset",
         "18446744073709551615", "--format", "json"],
        ["locate", "--sizes", "1000000,3", "--broadcast", "h", "--offset", "1"],
        ["locate", "--sizes", "1000000,3", "--broadcast", "h", "--offset", "1", "--format", "json"],
        ["locate", "--sizes", "5,7,9", "--strides", "3,5,7", "--offset", "40", "--limit", "3"],
        ["locate", "--dtype", "int4", "--sizes", "16,16", "--byte-offset", "100", "--base-offset", "64"],
        ["locate", "--sizes", "2,3", "--offset", "18446744073709551615", "--total-size",
         "18446744073709551615"],
        ["validate", "--sizes", "1,1,2,4", "--alignment", "4294967295", "--base-offset",
         "18446744073709551615", "--flags", "4294967295", "--total-size", "18446744073709551615"],
        ["validate", "--dtype", "float64", "--sizes", "4294967295,4294967295,4294967295,4294967295,"
         "4294967295,4294967295,4294967295,4294967295"],
        ["layouts", "--rank", "5", "--format", "json"], ["layouts", "--rank", "8"],
        ["dtypes", "--format", "json", "--format", "json"], ["size", "--sizes"], ["size", "--help"],
        ["--version"], ["help"], ["-h"], ["size", "--sizes", "1", "--field", "strides", "--format", "json"],
        ["size", "--sizes", "\x1b[31m"], ["size", "--sizes", "1", "--dtype", "\x01"],
        [""], ["size", ""], ["size", "--", "--sizes", "1"],
    ]
    for i, words in enumerate(hostile):
        add(f"edge-{i}", words)


def parse_seeds():
    texts = [b"0", b"1", b"007", b"8", b"4294967295", b"4294967296", b"18446744073709551615",
             b"18446744073709551616", b"99999999999999999999999", b"", b" 1", b"1 ", b"-1", b"+1",
             b"1e3", b"0x10", "\uff11".encode(), "\u0663".encode(), b"1\x002", b"\x01",
             b"1,3,224,224", b"1,,2", b"1,", b",1", b"1,2,3,4,5,6,7,8,9", b"0,0,0",
             b"n", b"W", b"hw", b"h,w", b"0,2", b"12", b"c,h", b"x", b"a1", b"1a",
             b"float16", b"FLOAT16", b"DML_TENSOR_DATA_TYPE_FLOAT16", b"fp16", b"int4", b"half",
             b"DML_TENSOR_DATA_TYPE_", b"float17", b"nhwc", b"NCHW", b"ncdhw", b"ndhwc", b"wh",
             b"row-major", b"COL-MAJOR", b"column-major", b"0,2,3,1", b"7,6,5,4,3,2,1,0", b"0,1,1",
             b"sise", b"--sizez", b"valdate", b"\xff\xfe\x80"]
    n = 0
    for which in range(8):
        for i, t in enumerate(texts):
            params = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x83, 0x31, 0x75] if which in (0, 1) else [0, 1, 3, 4, 5, 7, 8]
            p = params[i % len(params)]
            if which in (2, 3, 6):
                p = [1, 2, 3, 4, 5, 6, 8, 9][i % 8]
            n += 1
            write("parse", f"p{which}-{i:02d}", bytes([which, p]) + t)


def core_seeds():
    # fuzz_core.c's encoding: header (dtype | mode << 4), rank byte, sizes, ...
    def size(v):  # read_size: <192 small, <240 one byte, <250 two bytes, <254 four bytes
        if 1 <= v <= 8:
            return bytes([v - 1])
        if v <= 256:
            return bytes([200, v - 1])
        if v <= 65536:
            return bytes([245]) + struct.pack(">H", v - 1)
        return bytes([252]) + struct.pack(">I", v)

    def stride(v):
        if v < 16:
            return bytes([v])
        if v < 65536:
            return bytes([200]) + struct.pack(">H", v)
        return bytes([240]) + struct.pack(">I", v)

    def explicit(dtype, sizes, strides, tail=b""):
        return (bytes([dtype, len(sizes) - 1]) + b"".join(size(s) for s in sizes) +
                b"".join(stride(s) for s in strides) + tail)

    tail = bytes([0x03, 0, 0, 0, 0x10, 0, 0x10, 3, 0, 1, 1, 0, 1, 5, 0, 0, 0, 7, 7, 7, 7, 7, 7, 7, 7, 1])
    write("core", "nhwc-f16", explicit(2, [1, 3, 224, 224], [150528, 1, 672, 3], tail))
    write("core", "padded-2x3", explicit(5, [2, 3], [5, 1], tail))
    write("core", "broadcast-h", explicit(5, [2, 3], [0, 1], tail))
    write("core", "overlap-3x3", explicit(1, [3, 3], [1, 1], tail))
    write("core", "dhw", explicit(5, [2, 2, 3], [6, 3, 1], tail))
    write("core", "int4", explicit(13, [3, 5], [5, 1], tail))
    write("core", "wrap", explicit(5, [2, 4294967295], [2, 1], tail))
    write("core", "f64-huge", explicit(9, [4294967295, 4294967295], [4294967295, 1], tail))
    write("core", "sparse-overlap", explicit(1, [6, 10, 15], [15, 6, 10], tail))
    write("core", "rank8", explicit(3, [2] * 8, [1, 2, 4, 8, 16, 32, 64, 128], tail))
    # packed (mode 1) and layout (mode 2) headers with a shuffled order
    write("core", "packed-nhwc", bytes([0x12, 3]) + size(1) + size(3) + size(8) + size(8) +
          bytes([1, 2, 0]) + tail)
    write("core", "layout-mods", bytes([0x21, 3]) + size(2) + size(3) + size(4) + size(5) +
          bytes([0, 1, 2, 0x07]) + bytes([200, 0, 10, 130, 0, 140, 99, 5]) + bytes([8]) + tail)
    write("core", "layout-pitch", bytes([0x25, 1]) + size(3) + size(5) + bytes([0, 0x04, 8]) + tail)
    write("core", "bad-rank", bytes([0x01, 254]) + tail)
    write("core", "bad-dtype", bytes([0x0f, 2]) + size(2) + size(2) + size(2) + tail)
    write("core", "zero-size", bytes([0x01, 2]) + bytes([1, 255, 1]) + tail)
    rng = random.Random(6)
    for i in range(24):
        write("core", f"random-{i:02d}", bytes(rng.randrange(256) for _ in range(rng.randrange(16, 96))))


def view_seeds():
    # fuzz_view.c's encoding: dtype, rank, sizes (byte < 200: b % 6 + 1;
    # < 250: 2 bytes + 1; else 4 bytes), strides (< 200: b % 16; else 4
    # bytes), then operations: kind byte % 7 (slice, select, permute,
    # broadcast_to, reshape, split, narrow) and its bytes.
    def size(v):
        return bytes([v - 1]) if 1 <= v <= 6 else bytes([249]) + struct.pack(">H", v - 1)

    def stride(v):
        return bytes([v]) if v < 16 else bytes([255]) + struct.pack(">I", v)

    def parent(dtype, sizes, strides):
        return (bytes([dtype - 1, len(sizes) - 1]) + b"".join(size(v) for v in sizes) +
                b"".join(stride(v) for v in strides))

    align = b"\0\0\0\x10"  # the parent alignment each check reads
    # float16 4x3, rows 1:3 (slice: dim 0, start and stop given, step 1)
    write("view", "rows-f16", parent(2, [4, 3], [3, 1]) + align +
          bytes([0, 0, 3, 13, 14]) + align)
    # QKV: 1x128x2304 narrowed along w
    write("view", "qkv", parent(2, [1, 128, 2304], [294912, 2304, 1]) + align +
          bytes([6, 2, 0, 3, 0]) + align + bytes([5, 2, 2, 1, 0, 0, 0]) + align)
    # a bias: 64 -> reshape 1,64,1,1 -> broadcast 2,64,7,7
    write("view", "bias", parent(1, [64], [1]) + align +
          bytes([4, 210, 4, 32 + 1, 200, 0, 64, 1, 1]) + align + bytes([3, 0] + [1, 0, 6, 6]) + align)
    # transpose, then a reshape that needs a copy
    write("view", "copy", parent(1, [2, 3, 4], [12, 4, 1]) + align +
          bytes([2, 1, 0, 200]) + align + bytes([4, 210, 1, 250, 0, 0, 0, 0, 0, 0, 0, 24]))
    rng = random.Random(9)
    for i in range(24):
        write("view", f"random-{i:02d}", bytes(rng.randrange(256) for _ in range(rng.randrange(8, 120))))


def main():
    cli_seeds()
    parse_seeds()
    core_seeds()
    view_seeds()
    for t in ("cli", "parse", "core", "view"):
        print(t, len(os.listdir(os.path.join(HERE, "corpus", t))), "seeds")


if __name__ == "__main__":
    main()
