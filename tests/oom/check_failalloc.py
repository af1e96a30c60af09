#!/usr/bin/env python3
"""Allocation-failure injection over the commands (SQLite's method).

For each command line below, run build/dmltensor_failalloc once to count
its allocations (K), then again failing the Nth allocation for every N in
1..K (a sample of at most --max-points when K is larger, always including
the first and last 20), once failing only that call and once failing every
call from it on. Each run must end in one of two ways:
  - as the normal run did (same exit status, same stdout): the failure was
    absorbed (e.g. a cache that is only an optimisation), or
  - exit 2 with "out of memory" on stderr and NOTHING on stdout (in JSON
    formats, the error object alone), or, for a streamed result whose
    output had begun, the normal output's beginning and no more.
Anything else fails the test: a crash or sanitizer report, another exit
status, a message that is not about memory, or output half-printed.

usage: check_failalloc.py BUILD_DIR SOURCE_DIR [--max-points N]
"""
import os
import subprocess
import sys
import tempfile

# With --format json or jsonl an error is also an object on stdout.
JSON_OOM = b'{"error":{"id":"out_of_memory","message":"out of memory"}}\n'

def commands(src):
    data = os.path.join(src, "tests", "cli", "data")
    onnx = os.path.join(data, "onnx")
    return [
        ["size", "--dtype", "float16", "--sizes", "1,3,224,224", "--layout", "nhwc"],
        ["size", "--dtype", "float32", "--sizes", "2,3,4", "--format", "json"],
        ["validate", "--dtype", "float32", "--sizes", "2,3", "--strides", "5,1", "--total-size", "16"],
        ["offset", "--dtype", "float16", "--sizes", "1,3,4,4", "--coord", "0,1,2,3"],
        ["locate", "--dtype", "float16", "--sizes", "1,3,4,4", "--byte-offset", "10"],
        ["map", "--dtype", "float32", "--sizes", "2,3,4"],
        ["map", "--dtype", "float32", "--sizes", "64,64,64", "--format", "jsonl"],  # streamed
        ["batch", os.path.join(data, "batch_mixed.jsonl")],
        ["scan", os.path.join(data, "dxdispatch_model.json")],
        ["scan", os.path.join(onnx, "convnet.onnx")],
        ["scan", os.path.join(onnx, "zoo.onnx"), "--format", "text"],
        # --top keeps records in memory: a record it cannot keep fails the
        # run (it once ended the walk early, then wrote the summary: exit 0)
        ["scan", os.path.join(onnx, "convnet.onnx"), "--top", "2"],
        ["scan", os.path.join(onnx, "zoo.onnx"), "--top", "3", "--format", "text"],
        ["plan", os.path.join(onnx, "convnet.onnx"), "--dim", "N=2"],
        ["plan", os.path.join(data, "plan_small.jsonl"), "--format", "svg"],
    ]

def run(exe, argv, env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    # ASan's own allocations are not ours; keep its reports loud.
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0")
    try:
        p = subprocess.run([exe] + argv, capture_output=True, env=env, timeout=30)
    except subprocess.TimeoutExpired as t:
        return "timeout (30 s)", t.stdout or b"", t.stderr or b""
    return p.returncode, p.stdout, p.stderr

def points(k, max_points):
    if k <= max_points:
        return list(range(1, k + 1))
    edge = list(range(1, 21)) + list(range(k - 19, k + 1))
    step = max(1, k // (max_points - 40))
    return sorted(set(edge + list(range(21, k - 19, step))))

def main():
    build, src = sys.argv[1], sys.argv[2]
    max_points = 200
    if "--max-points" in sys.argv:
        max_points = int(sys.argv[sys.argv.index("--max-points") + 1])
    exe = os.path.join(build, "dmltensor_failalloc")
    bad = []
    total_runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        countf = os.path.join(tmp, "count")
        for argv in commands(src):
            status0, out0, err0 = run(exe, argv, {"DMLT_ALLOC_COUNT_FILE": countf})
            if status0 not in (0, 1):
                bad.append(f"{argv}: the normal run exits {status0}: {err0[:200]!r}")
                continue
            k = int(open(countf).read())
            if k == 0:
                bad.append(f"{argv}: no allocation counted: is the binary wrapped?")
                continue
            for n in points(k, max_points):
                for persist in ("0", "1"):
                    total_runs += 1
                    st, out, err = run(exe, argv, {"DMLT_FAIL_ALLOC": str(n),
                                                   "DMLT_FAIL_ALLOC_PERSIST": persist})
                    what = f"{' '.join(argv[:2])} ... failing allocation {n}/{k}" + \
                           (" and later" if persist == "1" else "")
                    if st == status0 and out == out0:
                        continue
                    if st == 2 and b"out of memory" in err and out in (b"", JSON_OOM):
                        continue
                    # A streamed result (SPEC 4: "a failure before output
                    # begins prints no partial result") may have begun: then
                    # what was written is the normal output's beginning.
                    if st == 2 and b"out of memory" in err and out0.startswith(out):
                        continue
                    bad.append(f"{what}: exit {st}, stdout {len(out)} bytes, "
                               f"stderr {err[-300:]!r}")
            print(f"{argv[0]} {os.path.basename(argv[1]) if len(argv) > 1 else ''}: "
                  f"{k} allocations, {len(points(k, max_points))} points")
    print(f"{total_runs} runs with a failed allocation")
    if bad:
        print(f"{len(bad)} bad outcomes; the first 30:")
        for b in bad[:30]:
            print("  " + b)
        sys.exit(1)

if __name__ == "__main__":
    main()
