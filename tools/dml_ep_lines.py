#!/usr/bin/env python3
"""dml_ep_lines.py - where each row of tools/data/dml_ep_registrations.txt
stands in ONNX Runtime's source: fills or checks the rows' `at` column
(FILE:LINE) from a copy of the DML EP's Operators directory.

Usage: tools/dml_ep_lines.py [--write] [--revision COMMIT] [--data FILE] SOURCE_DIR

SOURCE_DIR holds microsoft/onnxruntime's
onnxruntime/core/providers/dml/DmlExecutionProvider/src/Operators/
OperatorRegistration.cpp and the headers of the factory kernels (DmlDFT.h,
DmlSTFT.h, DmlGridSample.h); from a clone:

    git -C ORT show COMMIT:PATH/OperatorRegistration.cpp > DIR/OperatorRegistration.cpp

Each row must stand where the source has it, in the data file's order:
  REG_INFO*   the table's lines `{REG_INFO...(opset, Op, ...)` of
              operatorRegistrationInformationTable, one to one and in order;
              macro, op and opset as the line writes them, and its
              supportedTypeList, DmlGraphSupport and support query
  ORT_KERNEL  the `ONNX_OPERATOR_KERNEL_EX(` lines (the kernels'
              definitions; RegisterCpuOperatorsAsDml's function_table lists
              the same kernels), one to one and in order; op and version
  FACTORY     a header's `kernelDescription.name = "Op";` line whose
              minimumOperatorSetVersion is the row's version (or, where it is
              the function's `version` argument, a version
              OperatorRegistration.cpp passes: RegisterDFTKernel(registry, 20))

Without --write: prints each row whose `at` differs from the source (or a
row the source does not have) and exits 1 on any; 0 when all agree.
With --write: rewrites the data file's `at` column (a row without one gets
it) and its `# blob` lines (each source file's git blob hash, which names
the copy exactly); --revision COMMIT also sets the `# revision:` line
(the commit the copy is from: `git log -1 --format=%H COMMIT -- PATH`).
Nothing is written when a row does not match the source.
"""
import argparse
import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, 'tools', 'data', 'dml_ep_registrations.txt')
TABLE_FILE = 'OperatorRegistration.cpp'
FIELDS = 10  # macro op opset labels types graph cpu count query at

TABLE_START = re.compile(r'operatorRegistrationInformationTable\s*\[\s*\]\s*=')
TABLE_ROW = re.compile(r'^\s*\{\s*(REG_INFO\w*)\(\s*(\d+)\s*,\s*(\w+)\s*,(.*)$')
KERNEL_EX = re.compile(r'^\s*ONNX_OPERATOR_KERNEL_EX\(\s*$')
KERNEL_CLASS = re.compile(r'BuildKernelCreateInfo<ONNX_OPERATOR_KERNEL_CLASS_NAME\('
                          r'\s*\w+\s*,\s*\w+\s*,\s*(\d+)\s*,\s*(\w+)\s*\)>')
FACTORY_NAME = re.compile(r'kernelDescription\.name\s*=\s*"(\w+)"\s*;')
FACTORY_VER = re.compile(r'kernelDescription\.minimumOperatorSetVersion\s*=\s*(\w+)\s*;')
FACTORY_FN = re.compile(r'static\s+void\s+(Register\w+Kernel)\s*\(')
FACTORY_CALL = re.compile(r'::(Register\w+Kernel)\(\s*registry\s*,\s*(\d+)\s*\)')


def blob_hash(data):
    """git's object name of a file's bytes (`git hash-object FILE`)."""
    return hashlib.sha1(b'blob %d\0' % len(data) + data).hexdigest()


def table_entries(lines):
    """[(line, macro, op, opset, rest of the line)] of the registration table."""
    out, inside = [], False
    for n, text in enumerate(lines, 1):
        if not inside:
            inside = bool(TABLE_START.search(text))
            continue
        if text.strip() == '};':
            return out
        m = TABLE_ROW.match(text)
        if m:
            out.append((n, m.group(1), m.group(3), int(m.group(2)), m.group(4)))
        elif 'REG_INFO' in text and not text.lstrip().startswith('//'):
            raise SystemExit(f'{TABLE_FILE}:{n}: a registration this tool does not read: '
                             f'{text.strip()[:80]}')
    raise SystemExit(f'{TABLE_FILE}: no operatorRegistrationInformationTable')


def kernel_entries(lines):
    """[(line, op, version)] of each ONNX_OPERATOR_KERNEL_EX( (op, domain, version follow)."""
    out = []
    for n, text in enumerate(lines, 1):
        if KERNEL_EX.match(text):
            args = [a.strip().rstrip(',') for a in lines[n:n + 3]]
            if len(args) < 3 or not args[2].isdigit():
                raise SystemExit(f'{TABLE_FILE}:{n}: ONNX_OPERATOR_KERNEL_EX( not followed by '
                                 'op, domain and version on their own lines')
            out.append((n, args[0], int(args[2])))
    listed = [(m.group(2), int(m.group(1))) for t in lines for m in [KERNEL_CLASS.search(t)] if m]
    if listed != [(op, v) for _, op, v in out]:
        raise SystemExit(f'{TABLE_FILE}: RegisterCpuOperatorsAsDml lists {listed}, the '
                         f'ONNX_OPERATOR_KERNEL_EX definitions are {[(o, v) for _, o, v in out]}')
    return out


def factory_versions(source_dir, fn):
    """The versions OperatorRegistration.cpp passes a factory's Register*Kernel(registry, N)."""
    with open(os.path.join(source_dir, TABLE_FILE), encoding='utf-8') as f:
        return [int(m.group(2)) for m in FACTORY_CALL.finditer(f.read()) if m.group(1) == fn]


def factory_entries(source_dir):
    """{(op, version): 'File.h:line'} of the factory kernels' headers: the version written in
    the description, or (`= version;`) each one RegisterCpuOperatorsAsDml's calls pass."""
    out = {}
    for name in sorted(os.listdir(source_dir)):
        if not name.endswith('.h'):
            continue
        with open(os.path.join(source_dir, name), encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
        for n, text in enumerate(lines, 1):
            m = FACTORY_NAME.search(text)
            if not m:
                continue
            for later in lines[n:n + 4]:
                v = FACTORY_VER.search(later)
                if v and v.group(1).isdigit():
                    out[(m.group(1), int(v.group(1)))] = f'{name}:{n}'
                elif v:
                    fn = [f.group(1) for t in lines[:n] for f in [FACTORY_FN.search(t)] if f]
                    for ver in factory_versions(source_dir, fn[-1]) if fn else []:
                        out[(m.group(1), ver)] = f'{name}:{n}'
                if v:
                    break
    return out


def reg_mismatch(row, entry):
    """Why a REG_INFO* row differs from its table line; None when it agrees."""
    macro, op, opset, _, types, graph, _, _, query = row[:9]
    _, e_macro, e_op, e_opset, rest = entry
    if (macro, op, int(opset)) != (e_macro, e_op, e_opset):
        return f'the source has {e_macro}({e_opset}, {e_op})'
    if not re.search(r'\bsupportedTypeList' + re.escape(types) + r'\b', rest):
        return f'the source line does not name supportedTypeList{types}'
    support = re.findall(r'DmlGraphSupport::(\w+)', rest) or ['Supported']  # 0 when not given
    if support != ['NotSupported' if graph == 'N' else 'Supported']:
        return f'the source line is DmlGraphSupport::{"|".join(support)}'
    queries = set(re.findall(r'\b(Query\w+)\b', rest))
    if queries != (set() if query == '-' else {query}):
        return f'the source line names the queries {sorted(queries) or "none"}'
    return None


def locate(rows, source_dir):
    """[(at, problem)] for each data row: its FILE:LINE in the source, and why it does not
    match (None when it does)."""
    path = os.path.join(source_dir, TABLE_FILE)
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    table = iter(table_entries(lines))
    kernels = iter(kernel_entries(lines))
    factories = factory_entries(source_dir)
    out = []
    for row in rows:
        macro, op, opset = row[0], row[1], int(row[2])
        if macro.startswith('REG_INFO'):
            e = next(table, None)
            out.append((f'{TABLE_FILE}:{e[0]}', reg_mismatch(row, e)) if e else
                       ('-', 'the source table has no more rows'))
        elif macro == 'ORT_KERNEL':
            e = next(kernels, None)
            out.append((f'{TABLE_FILE}:{e[0]}',
                        None if (e[1], e[2]) == (op, opset) else f'the source has {e[1]}-{e[2]}')
                       if e else ('-', 'the source defines no more ORT kernels'))
        elif macro == 'FACTORY':
            at = factories.get((op, opset))
            out.append((at, None) if at else ('-', f'no header of {source_dir} registers '
                                                   f'{op} at version {opset}'))
        else:
            out.append(('-', f'unknown macro {macro}'))
    rest = [e for e in table] + [e for e in kernels]
    if rest:
        out.append(('-', f'the source has {len(rest)} registrations more than the data file, '
                         f'the first at {TABLE_FILE}:{rest[0][0]}'))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('source_dir')
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--revision')
    ap.add_argument('--data', default=DATA)
    a = ap.parse_args(argv)
    if a.revision is not None and not re.fullmatch(r'[0-9a-f]{40}', a.revision):
        raise SystemExit(f'--revision {a.revision}: not a 40-hex-digit commit')
    with open(a.data, encoding='utf-8') as f:
        text = f.read().split('\n')
    rows = [(i, t.split()) for i, t in enumerate(text) if t.strip() and not t.startswith('#')]
    for i, r in rows:
        if len(r) not in (FIELDS - 1, FIELDS):
            raise SystemExit(f'{a.data}:{i + 1}: {len(r)} fields, not {FIELDS}')
    found = locate([r for _, r in rows], a.source_dir)
    bad = 0
    for k, (at, problem) in enumerate(found):
        i, r = rows[k] if k < len(rows) else (None, None)
        where = f'{a.data}:{i + 1}' if i is not None else a.data
        have = r[FIELDS - 1] if r and len(r) == FIELDS else '-'
        if problem:
            print(f'{where}: {" ".join(r[:3]) if r else ""}: {problem}')
            bad += 1
        elif not a.write and have != at:
            print(f'{where}: {" ".join(r[:3])}: at {have}, the source has it at {at}')
            bad += 1
    if bad or not a.write:
        print(f'{bad} rows differ from the source' if bad else
              f'{len(rows)} rows agree with the source')
        return 1 if bad else 0
    for k, (i, r) in enumerate(rows):
        line = text[i].rstrip()
        if len(r) == FIELDS:
            line = line[:line.rstrip().rfind(r[-1])].rstrip()
        text[i] = f'{line} {found[k][0]}'
    text = [t for t in text if not t.startswith('# blob ')]
    head = next((i for i, t in enumerate(text) if t.startswith('# revision:')), None)
    if head is None:
        raise SystemExit(f'{a.data}: no "# revision: microsoft/onnxruntime@COMMIT" line')
    if a.revision:
        text[head] = f'# revision: microsoft/onnxruntime@{a.revision}'
    files = sorted({at.split(':')[0] for at, _ in found})
    for j, name in enumerate(files, 1):
        with open(os.path.join(a.source_dir, name), 'rb') as f:
            text.insert(head + j, f'# blob {name} {blob_hash(f.read())}')
    with open(a.data, 'w', encoding='utf-8') as f:
        f.write('\n'.join(text))
    print(f'{len(rows)} rows written')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
