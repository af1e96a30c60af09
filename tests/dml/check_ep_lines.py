#!/usr/bin/env python3
"""check_ep_lines.py SOURCE_DIR WORKDIR - tools/dml_ep_lines.py, which fills
and checks the `at` column of tools/data/dml_ep_registrations.txt from a copy
of ONNX Runtime's DML Operators directory, run on a synthetic copy written
here (a few lines in the source's forms, at lines this script places them)
and a five-row data file: it fills each row's FILE:LINE where the row was
placed, checks a copy that agrees, and reports a moved line, a renamed
operator, a different DmlGraphSupport, a row the source has more of and a
factory version the headers do not register (writing nothing then); and
12dfe2859c85's forms: a factory whose version is its Register*Kernel call's
argument (DFT at 17 and 20), a table row under #if. The
real data against the real source is dml/ep_tables' (sample lines) and the
tool's own (it needs a copy of the source, which is not in the repository).
Prints one line per failure; exit 1 on any."""
import hashlib
import os
import shutil
import subprocess
import sys

FAIL = []
REV = "0123456789abcdef0123456789abcdef01234567"

# (text, the data row it stands for or None)
SOURCE = [
    ("// synthetic, in the forms of OperatorRegistration.cpp", None),
    ("ONNX_OPERATOR_KERNEL_EX(", "If"),
    ("    If,", None),
    ("    kOnnxDomain,", None),
    ("    7,", None),
    ("    kDmlExecutionProvider,", None),
    ("    If);", None),
    ("constexpr static OperatorRegistrationInformation operatorRegistrationInformationTable[] =", None),
    ("{", None),
    ("    {REG_INFO(      7,  Conv,       typeNameListDefault, supportedTypeListFloat16to32, "
     "DmlGraphSupport::Supported)},", "Conv"),
    ("    // a comment between rows", None),
    ("    {REG_INFO_MS(   1,  Gelu,       typeNameListDefault, supportedTypeListFloat16to32, "
     "DmlGraphSupport::Supported)},", "Gelu"),
    ("    {REG_INFO(      7,  MemcpyToHost, typeNameListDefault, supportedTypeListAll)},",
     "MemcpyToHost"),
    ("};", None),
    ("static const BuildKernelCreateInfoFn function_table[] = {", None),
    ("    BuildKernelCreateInfo<ONNX_OPERATOR_KERNEL_CLASS_NAME(kDmlExecutionProvider, "
     "kOnnxDomain, 7, If)>,", None),
    ("};", None),
]
HEADER = [
    ("// synthetic, in the form of DmlDFT.h's factory", None),
    ('        kernelDescription.domain = "";', None),
    ('        kernelDescription.name = "DFT";', "DFT"),
    ("        kernelDescription.minimumOperatorSetVersion = 17;", None),
]
DATA = """# synthetic registrations
# revision: microsoft/onnxruntime@0000000000000000000000000000000000000000
# macro op opset labels types graph cpu count query at
REG_INFO \tConv 7 T Float16to32 S - - -
REG_INFO_MS \tGelu 1 T Float16to32 S - - -
REG_INFO \tMemcpyToHost 7 T All S - - -
ORT_KERNEL \tIf 7 B Bool N 0 - -
FACTORY \tDFT 17 T1 Float16to32 N - - -
"""


def where(lines, name, op):
    """FILE:LINE of op as this script placed it."""
    return f"{name}:{[o for _, o in lines].index(op) + 1}"


def write_copy(d, source, header):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for name, lines in (("OperatorRegistration.cpp", source), ("DmlDFT.h", header)):
        with open(os.path.join(d, name), "w") as f:
            f.write("\n".join(t for t, _ in lines) + "\n")


def tool(root, src, data, *args):
    p = subprocess.run([sys.executable, os.path.join(root, "tools", "dml_ep_lines.py"),
                        "--data", data, *args, src], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def rows(data):
    with open(data) as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]


def expect_fail(case, root, src, data, words):
    """The check fails naming words, and --write leaves the data file as it was (a row the
    source does not have)."""
    with open(data) as f:
        before = f.read()
    rc, out = tool(root, src, data)
    if rc != 1 or words not in out:
        FAIL.append(f"{case}: exit {rc}, expected 1 with {words!r}: {out.strip()}")
    rc, out = tool(root, src, data, "--write")
    with open(data) as f:
        if rc == 0 or f.read() != before:
            FAIL.append(f"{case}: --write exit {rc}, or it changed the data file")


def factory_argument(root, wd):
    """12dfe2859c85's forms: a factory registering the version its Register*Kernel call
    passes (DFT at 17 and 20, one header line), a table row under #if."""
    src, data = os.path.join(wd, "src_arg"), os.path.join(wd, "regs_arg.txt")
    source = SOURCE[:12] + [("#if DML_TARGET_VERSION >= 0x6400", None)] + SOURCE[12:13] + \
        [("#endif", None)] + SOURCE[13:] + [
            ("    GpuDFTOperatorFactory::RegisterDFTKernel(registry, 17);", None),
            ("    GpuDFTOperatorFactory::RegisterDFTKernel(registry, 20);", None)]
    header = [("    static void RegisterDFTKernel(IMLOperatorRegistry* registry, int32_t version)",
               None), ("    {", None)] + HEADER[1:3] + [
        ("        kernelDescription.minimumOperatorSetVersion = version;", None)]
    write_copy(src, source, header)
    with open(data, "w") as f:
        f.write(DATA.replace("FACTORY \tDFT 17 T1 Float16to32 N - - -\n",
                             "FACTORY \tDFT 17 T1 Float16to32 N - - -\n"
                             "FACTORY \tDFT 20 T1 Float16to32 N - - -\n"))
    rc, out = tool(root, src, data, "--write")
    got = [(r[1], r[2], r[-1]) for r in rows(data)]
    dft = where(header, "DmlDFT.h", "DFT")
    want = [("Conv", "7", where(source, "OperatorRegistration.cpp", "Conv")),
            ("Gelu", "1", where(source, "OperatorRegistration.cpp", "Gelu")),
            ("MemcpyToHost", "7", where(source, "OperatorRegistration.cpp", "MemcpyToHost")),
            ("If", "7", where(source, "OperatorRegistration.cpp", "If")),
            ("DFT", "17", dft), ("DFT", "20", dft)]
    if rc != 0 or got != want:
        FAIL.append(f"a factory's version argument, a row under #if: exit {rc}, at {got}, "
                    f"placed at {want}: {out.strip()}")
    write_copy(src, [(x.replace("registry, 20", "registry, 19"), o) for x, o in source], header)
    expect_fail("a factory called with another version", root, src, data,
                "registers DFT at version 20")


def main():
    root, wd = sys.argv[1], sys.argv[2]
    src, data = os.path.join(wd, "src"), os.path.join(wd, "regs.txt")
    os.makedirs(wd, exist_ok=True)
    write_copy(src, SOURCE, HEADER)
    with open(data, "w") as f:
        f.write(DATA)
    rc, out = tool(root, src, data)
    if rc != 1 or "5 rows differ" not in out:
        FAIL.append(f"rows without `at`: exit {rc}: {out.strip()}")
    rc, out = tool(root, src, data, "--write", "--revision", REV)
    want = {"Conv": where(SOURCE, "OperatorRegistration.cpp", "Conv"),
            "Gelu": where(SOURCE, "OperatorRegistration.cpp", "Gelu"),
            "MemcpyToHost": where(SOURCE, "OperatorRegistration.cpp", "MemcpyToHost"),
            "If": where(SOURCE, "OperatorRegistration.cpp", "If"),
            "DFT": where(HEADER, "DmlDFT.h", "DFT")}
    got = {r[1]: r[-1] for r in rows(data)}
    if rc != 0 or got != want:
        FAIL.append(f"--write: exit {rc}, at {got}, placed at {want}: {out.strip()}")
    with open(data) as f:
        text = f.read()
    if f"# revision: microsoft/onnxruntime@{REV}\n" not in text:
        FAIL.append("--revision: the header does not name it")
    for name in ("OperatorRegistration.cpp", "DmlDFT.h"):
        with open(os.path.join(src, name), "rb") as f:
            b = f.read()
        blob = hashlib.sha1(b"blob %d\0" % len(b) + b).hexdigest()
        if f"# blob {name} {blob}\n" not in text:
            FAIL.append(f"--write: no '# blob {name} {blob}' line")
    rc, out = tool(root, src, data)
    if rc != 0 or "5 rows agree" not in out:
        FAIL.append(f"a copy that agrees: exit {rc}: {out.strip()}")
    # each change of the source is reported; a moved line, --write follows
    with open(data) as f:
        before = f.read()
    write_copy(src, [("", None)] + SOURCE, HEADER)
    rc, out = tool(root, src, data)
    if rc != 1 or f"at {want['Conv']}, the source has it at OperatorRegistration.cpp:11" not in out:
        FAIL.append(f"a line added above: exit {rc}: {out.strip()}")
    rc, out = tool(root, src, data, "--write")
    got = {r[1]: r[-1] for r in rows(data)}
    moved = dict(want, **{op: where([("", None)] + SOURCE, "OperatorRegistration.cpp", op)
                          for op in ("Conv", "Gelu", "MemcpyToHost", "If")})
    if rc != 0 or got != moved:
        FAIL.append(f"a line added above, --write: exit {rc}, at {got}, placed at {moved}")
    with open(data, "w") as f:
        f.write(before)
    renamed = [(t.replace("Gelu", "FastGelu"), o) for t, o in SOURCE]
    write_copy(src, renamed, HEADER)
    expect_fail("an operator renamed", root, src, data, "the source has REG_INFO_MS(1, FastGelu)")
    unsupported = [(t.replace("::Supported)},", "::NotSupported)},", 1) if o == "Conv" else t, o)
                   for t, o in SOURCE]
    write_copy(src, unsupported, HEADER)
    expect_fail("DmlGraphSupport", root, src, data, "the source line is DmlGraphSupport::NotSupported")
    extra = SOURCE[:13] + [(SOURCE[12][0].replace("MemcpyToHost", "MemcpyFromHost"), None)] + SOURCE[13:]
    write_copy(src, extra, HEADER)
    expect_fail("a table row more", root, src, data, "1 registrations more than the data file")
    write_copy(src, SOURCE, [(t.replace("17", "20"), o) for t, o in HEADER])
    expect_fail("a factory's version", root, src, data, "registers DFT at version 17")
    factory_argument(root, wd)
    for f in FAIL:
        print(f)
    print("dml_ep_lines.py agrees with the synthetic source" if not FAIL else f"{len(FAIL)} failures")
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
