#!/usr/bin/env python3
"""check_bounded_input.py DMLTENSOR TINY_ONNX - every command's input is read once, within its caps, every way.

SPEC section 8: every way input comes in (a regular file, standard input
from a file or a pipe, a device, a FIFO, `<(...)`, a file that grows while
it is read) goes through one bounded path. A regular file is mapped (no
memory grows with it); anything else is read, up to 256 MiB for a JSON
document and 2 GiB (protobuf's limit) for a model, and refused with
`input_too_large`, exit status 2, nothing on stdout, before memory grows
past the cap.

The matrix runs with DMLT_TEST_INPUT_CAP_SHIFT=10 (a test-only variable,
docs/testing.md: both caps 1024 times smaller, 256 KiB and 2 MiB), so that
each cap is reached with little data. For each way it feeds:
  - a JSON document of exactly the cap (accepted) and one byte more (refused);
  - a model (TINY_ONNX padded with a doc_string) of exactly the model cap
    (accepted) and one byte more (refused when read; accepted when mapped);
  - 64 MiB of zeros (JSON by its first byte) and 64 MiB that start as a
    model: refused, and the peak RSS (GNU time's %M) stays within the cap.
Then, with the real caps, `scan <(a GB of spaces)` refused within 256 MiB,
and the matrix of issue 27 for every command that reads input (scan,
plan, batch): the same bytes give the same output by name, `- < file`, a
pipe on `-` and on /dev/stdin, `<(...)` and a FIFO (plan lost the 4 KiB its
sniff read); /dev/zero, /dev/urandom and `- < /dev/zero` refused at once
(a pipe holding 64 KiB of zeros, random bytes or a PNG and kept open is
refused without waiting for more); a line over 1 MiB stops plan and batch
at once; endless valid records stop plan at its caps (records, bytes;
`yes RECORD | plan -`), while batch answers 4 Mi records, or 64 MiB of
random bytes line by line, in constant memory.

A peak is allowed the run's baseline (a scan of TINY_ONNX), twice the cap
(a realloc may copy) and 8 MiB; under ASan four times the cap (its realloc
always copies, and keeps the freed buffers in quarantine).
"""
import os
import random
import resource
import shlex
import subprocess
import sys
import tempfile
import threading
from protobuf_bytes import msg, varint

SHIFT = 10
JSON_CAP = (256 << 20) >> SHIFT
MODEL_CAP = (2 << 30) >> SHIFT
ENDLESS = 64 << 20  # "endless" input: far past either shifted cap
MIB = 1 << 20
TIME = "/usr/bin/time"  # GNU time (Debian: time), for the peak RSS

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what, file=sys.stderr)


def padded_model(tiny, size):
    """TINY_ONNX with a ModelProto.doc_string (field 6) appended: exactly size bytes."""
    pad = size - len(tiny) - 2
    while len(tiny) + 1 + len(varint(pad)) + pad != size:
        pad -= 1
    return tiny + b"\x32" + varint(pad) + b"d" * pad


def json_doc(size):
    return b"[" + b" " * (size - 2) + b"]"


def chunks(data, endless_prefix=None):
    """The bytes to feed, in 1 MiB chunks: data, or a prefix then zeros up to ENDLESS."""
    if endless_prefix is None:
        for i in range(0, len(data), MIB):
            yield data[i:i + MIB]
        return
    yield endless_prefix
    zeros = bytes(MIB)
    for _ in range(ENDLESS // MIB):
        yield zeros


def feed(fileobj, parts):
    try:
        for p in parts:
            fileobj.write(p)
    except (BrokenPipeError, OSError):
        pass  # scan stopped reading: what a cap does
    finally:
        try:
            fileobj.close()
        except OSError:
            pass


def run(argv, env, stdin=None, writer=None, pass_fds=(), as_limit=None):
    """Runs argv under /usr/bin/time; returns (exit status, stdout, stderr, peak RSS in bytes).
    (Not wait4's: a child's peak starts from the forking Python's.)"""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile() as rss:
        p = subprocess.Popen([TIME, "-q", "-f", "%M", "-o", rss.name] + argv, stdin=stdin,
                             stdout=out, stderr=err, env=env, pass_fds=pass_fds,
                             preexec_fn=(lambda: resource.setrlimit(resource.RLIMIT_AS, (
                                 as_limit, as_limit))) if as_limit else None)
        t = None
        if writer is not None:
            t = threading.Thread(target=feed, args=(p.stdin, writer))
            t.start()
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a reader without a cap waits for endless input
            p.kill()
            p.wait()
            check(False, "%s: still reading after 60 s" % " ".join(argv[:3]))
        if t:
            t.join()
        out.seek(0)
        err.seek(0)
        words = rss.read().split()
        peak = int(words[-1]) * 1024 if words and words[-1].isdigit() else 0
        return p.returncode, out.read(), err.read().decode("utf-8", "replace"), peak


SLACK = 2  # a realloc may copy; ASan's keeps the freed buffers in quarantine: 4
# Under ASan, what a long streaming run frees stays in its quarantine (256
# MiB by default) and its allocator's caches: bounds of a whole run get that
# much more there (the default build holds the run to the bound itself).
ASAN_EXTRA = 0


def expect(what, result, refused, baseline, cap):
    status, out, err, rss = result
    if refused:
        check(status == 2 and out == b"" and "larger than" in err,
              "%s: want input_too_large (exit 2, no stdout), got %d, stdout %r, stderr %r"
              % (what, status, out[:80], err[:200]))
    else:
        check(status in (0, 1) and "larger than" not in err,
              "%s: want it read, got %d, stderr %r" % (what, status, err[:200]))
    limit = baseline + SLACK * cap + 8 * MIB
    check(rss <= limit, "%s: peak RSS %d KiB over %d KiB" % (what, rss >> 10, limit >> 10))
    print("%-58s exit %d  peak %6d KiB" % (what, status, rss >> 10))


def ways(binary, tmp, env, args, name, data, prefix):
    """(way, result) for each way the bytes can come in; data None: endless after prefix."""
    regular = data is not None
    if regular:
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        yield "regular file", run([binary, "scan", path] + args, env)
        with open(path, "rb") as f:
            yield "stdin < regular file", run([binary, "scan", "-"] + args, env, stdin=f)
    yield "stdin pipe", run([binary, "scan", "-"] + args, env, stdin=subprocess.PIPE,
                            writer=chunks(data, prefix))
    fifo = os.path.join(tmp, name + ".fifo")
    os.mkfifo(fifo)
    parts = list(chunks(data, prefix)) if regular else chunks(data, prefix)

    def fifo_writer():
        try:
            fd = os.open(fifo, os.O_WRONLY)
        except OSError:
            return
        feed(os.fdopen(fd, "wb"), parts)

    t = threading.Thread(target=fifo_writer)
    t.start()
    yield "FIFO", run([binary, "scan", fifo] + args, env)
    t.join()
    os.unlink(fifo)
    r, w = os.pipe()  # <(...): the shell passes /dev/fd/N, a pipe
    wf = os.fdopen(w, "wb")
    t = threading.Thread(target=feed, args=(wf, chunks(data, prefix)))
    t.start()
    yield "<(...) as /dev/fd/N", run([binary, "scan", "/dev/fd/%d" % r] + args, env, pass_fds=(r,))
    os.close(r)
    t.join()


def refused_at_once(what, result, words, peak=64 * MIB):
    """Exit 2 at once (no stdout but one error: plan's {"error":...}, or
    batch's error record for the line it stopped at), stderr naming words."""
    status, out, err, rss = result
    lines = out.splitlines()
    clean = not lines or (len(lines) == 1 and b'"error":{' in lines[0])
    check(status == 2 and clean and any(w in err for w in words),
          "%s: want exit 2, no partial output, stderr with %r; got %d, stdout %r, stderr %r"
          % (what, words, status, out[:120], err[:300]))
    check(rss <= peak, "%s: peak RSS %d KiB" % (what, rss >> 10))
    print("%-58s exit %d  peak %6d KiB" % (what, status, rss >> 10))


def held_pipe(binary, argv, head, env):
    """argv with head on stdin and the pipe then kept open: a command that
    refuses head at once exits without waiting for more (or an end)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([binary] + argv, stdin=subprocess.PIPE, stdout=out, stderr=err,
                             env=env)
        try:
            p.stdin.write(head)
            p.stdin.flush()
        except BrokenPipeError:
            pass
        try:
            p.wait(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            return None
        finally:
            try:
                p.stdin.close()
            except BrokenPipeError:
                pass
        err.seek(0)
        return p.returncode, err.read().decode("utf-8", "replace")


def same_by_every_way(binary, tmp, name, data, args):
    """The output of `CMD FILE` equals that of every way the same bytes come
    in (issue 27 #1: plan lost the bytes its sniff read from a pipe by path)."""
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(data)
    want = subprocess.run(args(path), capture_output=True)
    check(want.returncode in (0, 1) and want.stdout,
          "%s by name: exit %d, %r" % (name, want.returncode, want.stderr[:200]))
    q = shlex.quote
    ways = {
        "- < file": "%s < %s" % (" ".join(q(a) for a in args("-")), q(path)),
        "cat | -": "cat %s | %s" % (q(path), " ".join(q(a) for a in args("-"))),
        "cat | /dev/stdin": "cat %s | %s" % (q(path), " ".join(q(a) for a in args("/dev/stdin"))),
        "<(cat)": "%s" % " ".join(q(a) for a in args("<(cat %s)" % q(path))).replace(
            q("<(cat %s)" % q(path)), "<(cat %s)" % q(path)),
        "FIFO": "mkfifo {f} && (cat {p} > {f} &) && {cmd}; rm -f {f}".format(
            f=q(path + ".fifo"), p=q(path),
            cmd="timeout 150 " + " ".join(q(a) for a in args(path + ".fifo"))),
    }
    for way, cmd in ways.items():
        try:
            # A hang, not slowness: a sanitizer build on a loaded machine
            # once took 30 s for what takes 1 s of CPU.
            got = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=180)
        except subprocess.TimeoutExpired:  # a second open of a FIFO waits for a writer
            check(False, "%s by %s: still running after 180 s" % (name, way))
            continue
        check(got.returncode == want.returncode and got.stdout == want.stdout,
              "%s by %s: exit %d (by name %d), output %s" % (
                  name, way, got.returncode, want.returncode,
                  "the same" if got.stdout == want.stdout else "differs: %r" % got.stdout[-200:]))
    print("%-58s the same every way" % name)


def matrix(binary, tiny, baseline, env, real_env, limit):
    """The bounded-input matrix (issue 27): every command that reads input
    (scan, plan, batch, nodes; no other takes a FILE), over every way and kind of
    hostile input: bounded time and memory, a clear error, no partial output."""
    commands = ["scan", "plan", "batch", "nodes"]
    with tempfile.TemporaryDirectory() as tmp:
        # The same bytes give the same output by every way (item 1).
        recs = b"".join(b'{"name":"t%d","first":%d,"last":%d,"size_in_bytes":%d,"path":"%s"}\n'
                        % (i, i, i + 3, 1000 + i, b"x" * 20) for i in range(200))
        same_by_every_way(binary, tmp, "plan of 200 records", recs,
                          lambda f: [binary, "plan", f])
        same_by_every_way(binary, tmp, "plan of a model", tiny,
                          lambda f: [binary, "plan", f, "--dim", "B=8", "--skip-unknown"])
        same_by_every_way(binary, tmp, "scan of a model", tiny,
                          lambda f: [binary, "scan", f, "--dim", "B=8"])
        same_by_every_way(binary, tmp, "nodes of a model", tiny,
                          lambda f: [binary, "nodes", f, "--dim", "B=8"])
        same_by_every_way(binary, tmp, "batch of 200 records",
                          b'{"sizes":[2,3]}\n' * 200, lambda f: [binary, "batch", f])
        # plan reads its own output, the summary line skipped.
        own = subprocess.run([binary, "plan", "-"], input=recs, capture_output=True).stdout
        again = subprocess.run([binary, "plan", "-"], input=own, capture_output=True)
        check(again.returncode == 0 and again.stdout == own,
              "plan of its own output: exit %d, %s" % (again.returncode, again.stderr[:200]))
    random_head = random.Random(27).randbytes(64 << 10)
    for cmd in commands:
        # Devices: endless zeros, endless random bytes.
        for dev in ("/dev/zero", "/dev/urandom"):
            if cmd == "batch" and dev == "/dev/urandom":
                continue  # records, answered one by one: below
            words = ["record is longer than"] if cmd == "batch" else [
                "starts no JSON value", "damaged ONNX model", "malformed JSON",
                "not an ONNX model"]
            if dev == "/dev/urandom":
                # Random bytes are refused at the line where they stop being
                # JSON; which message depends on the bytes (a digit first:
                # "text after the JSON value", '{': a record error), and a
                # newline first moves the line on. Every one names its line.
                words = words + ["at line ", "dmltensor: line "]
                # Bytes that start like a model are read whole up to the
                # model cap (2 GiB; a device is no regular file), so they
                # run with the caps shifted down: a draw whose first field
                # declared tens of MiB took plan to 69 MiB under coverage
                words = words + ["larger than"]
            refused_at_once("%s %s" % (cmd, dev),
                            run([binary, cmd, dev], env if dev == "/dev/urandom" else real_env,
                                as_limit=limit), words)
        res = run([binary, cmd, "-"], real_env, stdin=open("/dev/zero", "rb"), as_limit=limit)
        refused_at_once("%s - < /dev/zero" % cmd, res,
                        ["record is longer than"] if cmd == "batch" else
                        ["starts no JSON value", "not an ONNX model"])
        # Refused from the first bytes: the pipe held open after 64 KiB.
        if cmd != "batch":
            for what, head in (("zeros", bytes(64 << 10)), ("random bytes", random_head),
                               ("a PNG", b"\x89PNG\r\n\x1a\n" + bytes(64 << 10))):
                got = held_pipe(binary, [cmd, "-"], head, real_env)
                check(got is not None and got[0] == 2,
                      "%s - with 64 KiB of %s and the pipe held open: %s" % (
                          cmd, what, "still reading after 120 s" if got is None else got))
                print("%-58s %s" % ("%s: 64 KiB of %s, pipe held" % (cmd, what),
                                     "refused" if got and got[0] == 2 else "NOT refused"))
        # An over-long line: plan and batch stop at it, not at its end.
        if cmd in ("plan", "batch"):  # (scan and nodes: above, refused from the head)
            line = b'{"name":"' + b"x" * (2 << 20)
            got = held_pipe(binary, [cmd, "-"], line, real_env)
            check(got is not None and got[0] == 2 and "line 1: the record is longer than 1048576"
                  in got[1], "%s: a line over 1 MiB, pipe held: %s" % (cmd, got))
            print("%-58s %s" % ("%s: a 2 MiB line, pipe held" % cmd,
                                 "refused" if got and got[0] == 2 else "NOT refused"))
    # A graph-only model whose reading passes the model reader's memory cap
    # (16 MiB + 32 x its size, 1024 times lower here): refused, exit 2.
    node = lambda i: msg(1, msg(1, b"x" if i == 0 else b"v%d" % (i - 1)) + msg(2, b"v%d" % i)
                         + msg(4, b"Relu"))
    graph = b"".join(node(i) for i in range(20000)) + msg(2, b"g")
    chain = b"\x08\x08" + msg(7, graph) + msg(8, msg(1, b"") + b"\x10\x11")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "chain.onnx")
        with open(path, "wb") as f:
            f.write(chain)
        for cmd in ("scan", "plan"):
            refused_at_once("%s: a 20000-node graph past the reader's cap" % cmd,
                            run([binary, cmd, path], env), ["past this reader's limit"])
    # A huge valid-looking stream: plan stops at its cap (bytes, records);
    # batch answers it in constant memory; scan stops at JSON's cap.
    rec = b'{"name":"t","first":0,"last":0,"size_in_bytes":1}\n'
    res = run([binary, "plan", "-"], env, stdin=subprocess.PIPE,
              writer=(rec * 20000 for _ in range(64)))
    refused_at_once("plan: endless valid records (caps shifted)", res, ["the most plan"])
    res = run([binary, "plan", "-"], env, stdin=subprocess.PIPE,
              writer=((b'{"name":"' + b"n" * 900 + b'","first":0,"last":0,"size_in_bytes":1}\n')
                      * 1000 for _ in range(64)))
    refused_at_once("plan: endless long valid records (caps shifted)", res,
                    ["bytes of records, the most plan reads"])
    res = run(["bash", "-c", 'yes \'%s\' | exec "$0" plan -' % rec.decode().strip(), binary],
              real_env, as_limit=limit)
    # 2^22 records of about 70 bytes each: within 512 MiB (it grew past 2.3 GB).
    refused_at_once("plan: yes RECORD | plan - (real caps)", res, ["the most plan"],
                    512 * MIB + ASAN_EXTRA)
    res = run([binary, "batch", "-"], real_env, stdin=subprocess.PIPE,
              writer=(b'{"sizes":[2,3]}\n' * 65536 for _ in range(16)))
    status, out, err, rss = res
    check(status == 0 and out.count(b"\n") == 65536 * 16 and rss <= baseline + 16 * MIB + ASAN_EXTRA,
          "batch of 1 Mi records: exit %d, %d lines, peak %d KiB" % (status, out.count(b"\n"),
                                                                     rss >> 10))
    print("%-58s exit %d  peak %6d KiB" % ("batch: 1 Mi records, constant memory", status,
                                            rss >> 10))
    res = run([binary, "batch", "-"], real_env, stdin=subprocess.PIPE,
              writer=(random.Random(i).randbytes(MIB) for i in range(64)))
    status, out, err, rss = res
    check(status in (1, 2) and rss <= baseline + 16 * MIB + ASAN_EXTRA,
          "batch of 64 MiB of random bytes: exit %d, peak %d KiB" % (status, rss >> 10))
    print("%-58s exit %d  peak %6d KiB" % ("batch: 64 MiB of random bytes, line by line", status,
                                            rss >> 10))


def main():
    global SLACK, ASAN_EXTRA
    binary, tiny_path = sys.argv[1], sys.argv[2]
    with open(binary, "rb") as f:
        asan = b"__asan_init" in f.read()
    SLACK = 4 if asan else 2
    ASAN_EXTRA = 512 * MIB if asan else 0
    with open(tiny_path, "rb") as f:
        tiny = f.read()
    env = dict(os.environ, DMLT_TEST_INPUT_CAP_SHIFT=str(SHIFT))
    real_env = {k: v for k, v in os.environ.items() if k != "DMLT_TEST_INPUT_CAP_SHIFT"}
    baseline = run([binary, "scan", tiny_path, "--dim", "B=8"], real_env)[3]
    print("baseline (scan of %s): peak %d KiB" % (os.path.basename(tiny_path), baseline >> 10))
    model_args = ["--dim", "B=8"]
    cases = [  # name, bytes (None: endless), prefix of the endless, args, refused when read
        ("json at the cap", json_doc(JSON_CAP), None, [], False, JSON_CAP),
        ("json a byte over", json_doc(JSON_CAP + 1), None, [], True, JSON_CAP),
        ("model at the cap", padded_model(tiny, MODEL_CAP), None, model_args, False, MODEL_CAP),
        ("model a byte over", padded_model(tiny, MODEL_CAP + 1), None, model_args, True, MODEL_CAP),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, data, prefix, args, refused_read, cap) in enumerate(cases):
            for way, result in ways(binary, tmp, env, args, "case%d" % i, data, prefix):
                mapped = "regular" in way
                # A mapped model has no cap; a mapped JSON document has its own.
                refused = refused_read and not (mapped and cap == MODEL_CAP)
                expect("%s, %s" % (name, way), result, refused, baseline,
                       0 if mapped else cap)
        # A file that grows while it is read: `tail -f` of a file that keeps
        # growing is endless; scan stops at the cap.
        grow = os.path.join(tmp, "growing.json")
        with open(grow, "wb") as f:
            f.write(b"[")
        stop = threading.Event()

        def grower():
            with open(grow, "ab") as f:
                while not stop.is_set() and f.tell() < ENDLESS:
                    f.write(b" " * 65536)
                    f.flush()

        g = threading.Thread(target=grower)
        g.start()
        tail = subprocess.Popen(["tail", "-c", "+1", "-f", grow], stdout=subprocess.PIPE)
        res = run([binary, "scan", "-"], env, stdin=tail.stdout)
        tail.stdout.close()
        tail.kill()
        tail.wait()
        expect("a file growing while read, through tail -f", res, True, baseline, JSON_CAP)
        # ... and by its name, while it grows: mapped at its size when opened.
        res = run([binary, "scan", grow], env)
        stop.set()
        g.join()
        status, out, err, rss = res
        check(status == 2 and out == b"" and ("larger than" in err or "bad_json" in err
                                              or "unexpected end" in err or "line" in err),
              "growing file by name: exit %d, stderr %r" % (status, err[:200]))
        check(rss <= baseline + 8 * MIB, "growing file by name: peak %d KiB" % (rss >> 10))
        print("%-58s exit %d  peak %6d KiB" % ("a file growing while read, by its name", status,
                                                rss >> 10))
    # The real caps, no test variable: an endless device, and the case.
    # An address-space limit keeps a reader without a cap from taking the
    # machine (it fails with out of memory instead); not under ASan, whose
    # shadow memory needs terabytes of address space.
    real_cap = 256 << 20
    limit = None if asan else 1536 * MIB
    res = run(["bash", "-c", 'exec "$0" scan <(head -c 1000000000 /dev/zero | tr "\\0" " ")',
               binary], real_env, as_limit=limit)
    expect("real cap: <(head -c 1000000000 of spaces)", res, True, baseline, real_cap)
    matrix(binary, tiny, baseline, env, real_env, limit)
    status, out, err, _ = run([binary, "scan", "/dev/null"], real_env)
    check(status == 2 and out == b"",
          "/dev/null: an empty document is bad JSON, exit 2 (got %d)" % status)
    if failures:
        print("%d failures" % len(failures), file=sys.stderr)
        return 1
    print("bounded input: all ways within their caps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
