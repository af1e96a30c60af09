#!/usr/bin/env python3
"""check_onnx_damage.py DMLTENSOR MODEL... - damaged models through `scan`.

For each model: the model cut at every byte (each prefix), and FLIPS copies
with random bytes changed (1 to 4 each, seeded: the same run every time).
Each run must end with exit status 0, 1 or 2 (never a signal, never 3); a
run that prints records must end them with a summary line (a damaged model
prints none: it is checked whole first); exit 2 must come with a message
naming the byte. With DMLT_WRAPPER in the environment (e.g. "valgrind -q
--error-exitcode=99"), each run goes under it; an ASan build aborts by
itself. Prints the counts; exits 1 on any failure.
"""
import os
import random
import shlex
import subprocess
import sys
import tempfile

FLIPS = int(os.environ.get("DMLT_ONNX_FLIPS", "300"))


def main():
    binary, models = sys.argv[1], sys.argv[2:]
    wrapper = shlex.split(os.environ.get("DMLT_WRAPPER", ""))
    rng = random.Random(16)
    runs = failures = 0
    by_status = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "damaged.onnx")
        for model in models:
            with open(model, "rb") as f:
                data = f.read()
            cases = [("cut at %d" % n, data[:n]) for n in range(len(data))]
            for k in range(FLIPS):
                b = bytearray(data)
                for _ in range(rng.randint(1, 4)):
                    b[rng.randrange(len(b))] = rng.randrange(256)
                cases.append(("flips #%d" % k, bytes(b)))
            for what, blob in cases:
                with open(path, "wb") as f:
                    f.write(blob)
                p = subprocess.run(wrapper + [binary, "scan", path, "--dim", "N=2", "--dim", "B=3"],
                                   capture_output=True, timeout=60)
                runs += 1
                by_status[p.returncode] = by_status.get(p.returncode, 0) + 1
                out = p.stdout.decode("utf-8", "replace")
                err = p.stderr.decode("utf-8", "replace")
                bad = None
                if p.returncode not in (0, 1, 2):
                    bad = "exit status %d: %s" % (p.returncode, err[-500:])
                elif p.returncode == 2 and "byte" not in err and "JSON" not in err:
                    bad = "exit 2 without a byte offset: %r" % err[-300:]
                elif out and not out.splitlines()[-1].startswith('{"summary":'):
                    bad = "records without a summary line"
                if bad:
                    failures += 1
                    if failures <= 10:
                        print("FAIL %s (%s): %s" % (model, what, bad))
    print("%d damaged models scanned (%s), %d failures" % (
        runs, ", ".join("exit %d: %d" % kv for kv in sorted(by_status.items())), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
