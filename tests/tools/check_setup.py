#!/usr/bin/env python3
"""check_setup.py ROOT - the README's two commands and what they install.

The first command (sh .ci/setup.sh && build/dmltensor ...) must install only
what the build needs: .ci/setup.sh's packages are exactly cmake, gcc,
libc6-dev (gcc alone may lack the C library's headers) and libcjson-dev,
and it builds the command alone (--target dmltensor). The
test command (sh .ci/setup-tests.sh && ctest ...) installs the rest: every
package setup-tests.sh asks for is a test's, none of the build's is asked
twice. .ci/run finds both commands in README.md with its own patterns (and
60-windows.sh the first): each pattern matches exactly one README line.
setup.sh is run with fake apt-get, dpkg-query and cmake first on PATH, as
on a machine where nothing is installed: what it asks apt-get for, and how
it calls cmake, are checked too. Exit 1 on any failure."""
import os
import re
import stat
import subprocess
import sys
import tempfile

BUILD = {"cmake", "gcc", "libc6-dev", "libcjson-dev"}


def wants(path):
    """The packages of every `want PACKAGE [COMMAND]` line."""
    return [line.split()[1] for line in open(path) if re.match(r"\s*want\s+\S", line)]


def fake(bindir, name, body):
    path = os.path.join(bindir, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, stat.S_IRWXU)


def main():
    root = sys.argv[1]
    fails = []
    got = wants(os.path.join(root, ".ci/setup.sh"))
    if set(got) != BUILD:
        fails.append("setup.sh wants %s, not only the build's %s" % (sorted(got), sorted(BUILD)))
    tests = wants(os.path.join(root, ".ci/setup-tests.sh"))
    if not tests or set(tests) & BUILD:
        fails.append("setup-tests.sh wants %s: the tests' packages, none of the build's" % tests)
    setup_tests = open(os.path.join(root, ".ci/setup-tests.sh")).read()
    if "sh .ci/setup.sh" not in setup_tests:
        fails.append("setup-tests.sh does not run setup.sh first")

    readme = open(os.path.join(root, "README.md")).read().splitlines()
    patterns = []
    for script in (".ci/run", ".ci/checks/60-windows.sh"):
        text = open(os.path.join(root, script)).read()
        patterns += [(script, p) for p in re.findall(r"grep -m1 -E '([^']+)' README\.md", text)]
    if len(patterns) < 3:
        fails.append("found %d README patterns in .ci/run and 60-windows.sh, want 3" % len(patterns))
    for script, p in patterns:
        lines = [line for line in readme if re.search(p, line)]
        if len(lines) != 1:
            fails.append("%s: %r matches %d README lines" % (script, p, len(lines)))
        elif "setup-tests.sh" in lines[0] and "ctest" not in lines[0]:
            fails.append("%s: %r matches %r" % (script, p, lines[0]))
    firsts = [line for line in readme if line.startswith("sh .ci/setup.sh && build/dmltensor ")]
    if len(firsts) != 1:
        fails.append("README.md has %d first commands (sh .ci/setup.sh && build/dmltensor ...)"
                     % len(firsts))

    # setup.sh on a machine with nothing installed: fakes first on PATH.
    with tempfile.TemporaryDirectory() as tmp:
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        log = os.path.join(tmp, "log")
        fake(bindir, "dpkg-query", "exit 1")
        fake(bindir, "id", "echo 0")
        # cmake comes with apt-get install, as on a fresh machine
        fake(os.path.join(tmp), "cmake", 'echo "cmake $*" >>%s' % log)
        fake(bindir, "apt-get", 'echo "apt-get $*" >>%s\ncase "$*" in *install*) cp %s %s ;; esac'
             % (log, os.path.join(tmp, "cmake"), os.path.join(bindir, "cmake")))
        for tool in ("dirname", "grep", "cat", "cp"):
            os.symlink(subprocess.run(["sh", "-c", "command -v " + tool], capture_output=True,
                                      text=True).stdout.strip(), os.path.join(bindir, tool))
        env = {"PATH": bindir, "HOME": tmp}
        p = subprocess.run(["/bin/sh", os.path.join(root, ".ci/setup.sh")], env=env,
                           capture_output=True, text=True)
        calls = open(log).read().splitlines() if os.path.exists(log) else []
        if p.returncode != 0:
            fails.append("setup.sh with fakes: exit %d: %s" % (p.returncode, p.stderr[-500:]))
        installs = [c for c in calls if c.startswith("apt-get ") and " install " in c]
        asked = set(w for c in installs for w in c.split()[1:] if not w.startswith("-")) - {"install"}
        if asked != BUILD:
            fails.append("setup.sh asks apt-get for %s, want %s" % (sorted(asked), sorted(BUILD)))
        builds = [c for c in calls if c.startswith("cmake --build")]
        if not builds or any("--target dmltensor" not in c for c in builds):
            fails.append("setup.sh builds %s, want only --target dmltensor" % builds)
    for f in fails:
        print("FAIL " + f)
    print("setup: %d failures" % len(fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
