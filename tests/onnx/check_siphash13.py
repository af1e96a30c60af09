#!/usr/bin/env python3
"""check_siphash13.py TEST_ONNX_HASH - the names' hash (src/onnx/onnx_hash.c)
is SipHash-1-3: `test_onnx_hash --print13` prints it under the zero key for
the bytes 00 01 .. of 1 to 64 bytes, and CPython's hash() of the same bytes
must agree: under PYTHONHASHSEED=0 CPython's key is zero, and since 3.11 its
bytes hash is SipHash-1-3 (Python/pyhash.c). An older Python (another
function) skips (77)."""
import os
import subprocess
import sys


def main():
    if sys.version_info < (3, 11):
        print("Python %d.%d hashes bytes with SipHash-2-4: skipped" % sys.version_info[:2])
        return 77
    ours = subprocess.run([sys.argv[1], "--print13"], capture_output=True, text=True,
                          check=True).stdout.split("\n")
    code = "for n in range(1, 65): print(n, hash(bytes(range(n))))"
    env = dict(os.environ, PYTHONHASHSEED="0")
    theirs = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            env=env, check=True).stdout.split("\n")
    bad = [(a, b) for a, b in zip(ours, theirs) if a != b]
    if bad or len(ours) != len(theirs) or len(ours) < 64:
        print("FAIL: %d of %d differ, first: ours %r, CPython's %r" %
              (len(bad), len(theirs), *(bad[0] if bad else ("", ""))))
        return 1
    print("SipHash-1-3 of 64 messages: the same as CPython's hash()")
    return 0


if __name__ == "__main__":
    sys.exit(main())
