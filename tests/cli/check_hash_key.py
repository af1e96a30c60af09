#!/usr/bin/env python3
"""check_hash_key.py DMLTENSOR DATA_DIR - no output depends on the names' hash key.

dmltensor hashes a model's names with SipHash-1-3 under a key drawn at
random for each run (src/cli/main.c; hash flooding: names crafted to collide
under a key they know would make every table's probing quadratic), so the
tables it builds put names in other slots each run. Every command line
below is run on each model of DATA_DIR/onnx under DMLT_TEST_HASH_KEY=1, 2
and 3 (which fix the key) and without it (a random key): the exit status,
standard output and standard error must be the same bytes each time.
"""
import os
import subprocess
import sys

COMMANDS = [
    ["scan"],
    ["scan", "--format", "text"],
    ["plan"],
    ["plan", "--device", "dml", "--dim", "N=2"],
    ["plan", "--format", "text", "--skip-unknown"],
    ["nodes"],
    ["nodes", "--format", "text", "--dim", "N=2"],
]


def run(binary, argv, key):
    env = dict(os.environ)
    env.pop("DMLT_TEST_HASH_KEY", None)
    if key is not None:
        env["DMLT_TEST_HASH_KEY"] = key
    p = subprocess.run([binary] + argv, capture_output=True, env=env, check=False)
    return p.returncode, p.stdout, p.stderr


def main():
    binary, data = sys.argv[1], sys.argv[2]
    folder = os.path.join(data, "onnx")
    models = sorted(f for f in os.listdir(folder) if f.endswith(".onnx"))
    runs = failures = 0
    for name in models:
        for cmd in COMMANDS:
            argv = [cmd[0], os.path.join(folder, name)] + cmd[1:]
            first = run(binary, argv, "1")
            for key in ("2", "3", None):
                runs += 1
                got = run(binary, argv, key)
                if got != first:
                    failures += 1
                    print("FAIL %s %s: key %s differs from key 1 (exit %d/%d)" %
                          (" ".join(cmd), name, key or "random", first[0], got[0]))
    print("%d runs under other keys, %d differ" % (runs, failures))
    return 1 if failures or not runs else 0


if __name__ == "__main__":
    sys.exit(main())
