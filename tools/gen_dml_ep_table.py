#!/usr/bin/env python3
"""gen_dml_ep_table.py - writes src/dml/dml_ep_table.c from the text tables:

  tools/data/onnx_schemas.tsv           ONNX's schemas (tools/gen_onnx_schemas.py)
  tools/data/dml_ep_registrations.txt   the DML EP's kernel registrations, one row each
  tools/data/dml_ep_typelists.txt       their supported type lists

Each registration's since version is what ONNX Runtime registers it with:
REG_INFO(opset, Op) uses OnnxOperatorSet<opset>::sc_sinceVer_<Op>
(OperatorAuthorHelper/OperatorVersions.h), which is ONNX's schema
since-version in force at that opset; an operator ONNX no longer has
(Affine, Crop, ImageScaler, ParametricSoftplus, ScaledTanh) and ORT's own
ONNX-domain LayerNormalization-1 are 1 there, as OperatorVersions.h says
(but SINCE_FROM_ORT: Scatter-13, ORT's ONNX-domain GroupNorm-21).
MS and MSDML rows are MsftOperatorSet1 (1); ORT kernels and the factory
kernels give the version directly. Each row carries where it stands in
the source (its `at` column, FILE:LINE at the data file's `# revision:`,
which tools/dml_ep_lines.py fills and checks from a copy of the source).

Usage: tools/gen_dml_ep_table.py [--check]   (--check: fail if a .c differs)

Writes src/dml/dml_onnx_schema_table.c (the schemas) and src/dml/dml_ep_table.c.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, 'tools', 'data')
OUT = os.path.join(ROOT, 'src', 'dml', 'dml_ep_table.c')
OUT_SCHEMAS = os.path.join(ROOT, 'src', 'dml', 'dml_onnx_schema_table.c')

# SupportedTensorDataTypes flag -> ONNX TensorProto.DataType values
# (UInt4, Int4: the flags 12dfe2859c85 adds, edges MLUInt4x2 and MLInt4x2: ONNX's UINT4 and INT4)
BASE = {'Float32': [1], 'UInt8': [2], 'Int8': [3], 'UInt16': [4], 'Int16': [5], 'Int32': [6],
        'Int64': [7], 'Bool': [9], 'Float16': [10], 'Float64': [11], 'UInt32': [12], 'UInt64': [13],
        'UInt4': [21], 'Int4': [22]}
GROUPS = {
    'Ints8to32': 'UInt8|Int8|UInt16|Int16|UInt32|Int32',
    'Ints32to64': 'UInt32|Int32|UInt64|Int64',
    'Ints8to64': 'UInt8|Int8|UInt16|Int16|UInt32|Int32|UInt64|Int64',
    'UInt8to64': 'UInt8|UInt16|UInt32|UInt64',
    'Float16to32': 'Float16|Float32',
    'Float16to64': 'Float16|Float32|Float64',
    'NumericDefault': 'Ints8to32|Float16to32',
    'Scalars8to32': 'UInt8|Int8|UInt16|Int16|UInt32|Int32|Float16to32|Bool',
    'AllScalars': 'UInt8|Int8|UInt16|Int16|UInt32|Int32|UInt64|Int64|Float16|Float32|Float64|Bool',
    'Ints8Bit': 'UInt8|Int8', 'Ints16Bit': 'UInt16|Int16', 'Ints32Bit': 'UInt32|Int32',
    'Ints64Bit': 'UInt64|Int64',
}
SEQ_BIT = 31
DOMAINS = {'REG_INFO': '', 'REG_INFO_VER': '', 'REG_INFO_COPY': '', 'REG_INFO_DYNAMIC_OUTPUTS': '',
           'REG_INFO_MS': 'com.microsoft', 'REG_INFO_MS_ALIAS': 'com.microsoft',
           'REG_INFO_MSDML': 'com.microsoft.dml',
           'ORT_KERNEL': '', 'FACTORY': ''}
QUERIES = ['-', 'QueryMaxPool', 'QuerySlice', 'QueryResize', 'QueryScatter', 'QueryEinSum',
           'QueryRecurrentNeuralNetwork', 'QueryBatchNormalization', 'QueryPad',
           'QueryLayerNormalization', 'QuerySkipLayerNormalization', 'QueryQLinearSigmoid',
           'QueryAttention', 'QueryQAttention', 'QueryMatMulNBits']
# Where OperatorVersions.h's OnnxOperatorSet<opset>::sc_sinceVer_<op> is not ONNX's schema
# since-version in force at that opset (OperatorVersions.h at 12dfe2859c85; every other REG_INFO
# row agrees with it): Scatter at opset 13 is 13 there (:326), though ONNX's Scatter ends at 11;
# ORT's ONNX-domain GroupNorm at opset 21 is 21 (:457; no ONNX schema, and no model names it:
# ONNX's operator is GroupNormalization, which the EP does not register).
SINCE_FROM_ORT = {('Scatter', 13): 13, ('GroupNorm', 21): 21}


def flags_mask(text):
    mask = 0
    for f in text.split('|'):
        if f == 'All':
            for v in BASE.values():
                mask |= 1 << v[0]
            mask |= 1 << SEQ_BIT
        elif f == 'AllSequences':
            mask |= 1 << SEQ_BIT
        elif f in GROUPS:
            mask |= flags_mask(GROUPS[f])
        elif f in BASE:
            mask |= 1 << BASE[f][0]
        else:
            raise SystemExit(f'unknown type flag {f}')
    return mask


def read_rows(name):
    with open(os.path.join(DATA, name)) as f:
        for line in f:
            line = line.rstrip('\n')
            if line and not line.startswith('#'):
                yield line


def c_str(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def ort_revision():
    """The registrations' source commit, microsoft/onnxruntime@COMMIT (the data's header)."""
    with open(os.path.join(DATA, 'dml_ep_registrations.txt')) as f:
        for line in f:
            if line.startswith('# revision: '):
                rev = line.split()[2]
                if re.fullmatch(r'microsoft/onnxruntime@[0-9a-f]{40}', rev):
                    return rev
    raise SystemExit('dml_ep_registrations.txt: no "# revision: microsoft/onnxruntime@COMMIT"')


def load():
    schemas = []
    with open(os.path.join(DATA, 'onnx_schemas.tsv')) as f:
        first = f.readline()
        schema_revision = first.split()[2]
        for line in f:
            if line.startswith('#'):
                continue
            d, op, since, ins, outs = line.rstrip('\n').split('\t')
            schemas.append((d, op, int(since), ins, outs))
    typelists = {}
    for line in read_rows('dml_ep_typelists.txt'):
        name, sets = line.split('\t')
        typelists[name] = [flags_mask(s) for s in sets.split(';')]
    since_of = {}
    for d, op, since, _, _ in schemas:
        since_of.setdefault((d, op), []).append(since)
    regs = []
    for row, line in enumerate(read_rows('dml_ep_registrations.txt'), 1):
        macro, op, opset, labels, types, graph, cpu, count, query, at = line.split()
        m = re.fullmatch(r'(\w+\.(?:cpp|h)):([1-9][0-9]*)', at)
        if m is None:
            raise SystemExit(f'row {row}: at {at!r} is not FILE:LINE')
        if (m.group(1) == 'OperatorRegistration.cpp') == (macro == 'FACTORY'):
            raise SystemExit(f'row {row}: {macro} at {at}: a factory stands in its own header, '
                             'the rest in OperatorRegistration.cpp')
        opset = int(opset)
        domain = DOMAINS[macro]
        if macro.startswith('REG_INFO') and domain == '':
            known = [s for s in since_of.get(('', op), []) if s <= opset]
            since = SINCE_FROM_ORT.get((op, opset), max(known) if known else 1)
        else:
            since = opset
        labels = [] if labels == '-' else labels.split(',')
        masks = typelists[types]
        if labels and len(masks) != len(labels):
            raise SystemExit(f'row {row}: {len(labels)} labels, {len(masks)} type sets')
        cpu_mask = 0
        if cpu != '-':
            for i in cpu.split(','):
                cpu_mask |= 1 << int(i)
        regs.append(dict(row=row, macro=macro, domain=domain, op=op, opset=opset, since=since,
                         labels=labels, masks=masks if labels else [], graph=graph == 'S',
                         cpu=cpu_mask, count=0 if count == '-' else int(count),
                         query=QUERIES.index(query), typelist=types,
                         file=m.group(1), line=int(m.group(2))))
    return schemas, schema_revision, regs


def render(schemas, revision, regs):
    """The two generated files' texts: (schemas, registrations)."""
    regs = sorted(regs, key=lambda r: (r['domain'], r['op'], r['since'], r['row']))
    seen = set()
    sch = ['/* dml_onnx_schema_table.c - GENERATED by tools/gen_dml_ep_table.py from',
           ' * tools/data/onnx_schemas.tsv (onnx/onnx ' + revision,
           ' * docs/Changelog*.md): do not edit. */',
           '#include "dml_ep_table.h"', '',
           'const char dmlt_ep_onnx_schema_revision[] = ' + c_str('onnx/onnx@' + revision[:12]) + ';', '',
           '/* clang-format off */',
           'const struct dmlt_onnx_schema dmlt_ep_onnx_schema_table[] = {']
    for d, op, since, ins, outs in schemas:
        sch.append(f'    {{{c_str(d)}, {c_str(op)}, {since}, {c_str(ins)}, {c_str(outs)}}},')
    sch += ['};', '/* clang-format on */',
            f'const unsigned dmlt_ep_onnx_schema_count = {len(schemas)};', '']
    ort = ort_revision()
    out = ['/* dml_ep_table.c - GENERATED by tools/gen_dml_ep_table.py from tools/data/: do not edit.',
           ' * The DML EP\'s kernel registrations: ' + ort,
           ' * OperatorRegistration.cpp (see tools/data/dml_ep_registrations.txt). */',
           '#include "dml_ep_table.h"', '',
           'const char dmlt_ep_reg_source[] = ' + c_str(ort[:ort.index('@') + 13] +
                                                        ' OperatorRegistration.cpp') + ';', '',
           '/* clang-format off */',
           'const struct dmlt_ep_reg dmlt_ep_reg_table[] = {']
    for r in regs:
        key = (r['domain'], r['op'], r['since'])
        dup = key in seen
        seen.add(key)
        labels = ', '.join(c_str(x) for x in r['labels']) or 'NULL'
        masks = ', '.join('0x%08xu' % m for m in r['masks']) or '0'
        out.append(f'    {{{c_str(r["domain"])}, {c_str(r["op"])}, {r["since"]}, {r["opset"]}, '
                   f'{len(r["labels"])}, {{{labels}}}, {{{masks}}}, {int(r["graph"])}, '
                   f'0x{r["cpu"]:02x}u, {r["count"]}, {r["query"]}, {int(dup)}, '
                   f'{c_str(r["macro"])}, {c_str(r["typelist"])}, {c_str(r["file"])}, {r["line"]}}},')
    out += ['};', '/* clang-format on */', f'const unsigned dmlt_ep_reg_count = {len(regs)};', '']
    return '\n'.join(sch), '\n'.join(out)


def main():
    schemas, revision, regs = load()
    texts = render(schemas, revision, regs)
    for path, text in zip((OUT_SCHEMAS, OUT), texts):
        if '--check' in sys.argv:
            with open(path) as f:
                if f.read() != text:
                    sys.exit(f'{path} is stale: run tools/gen_dml_ep_table.py')
            continue
        with open(path, 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
