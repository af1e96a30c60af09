#!/usr/bin/env python3
"""gen_onnx_schemas.py - ONNX's operator schemas as `nodes` needs them.

Reads ONNX's docs/Changelog.md and docs/Changelog-ml.md (every version of
every operator of the default and ai.onnx.ml domains, with its formal inputs
and outputs and their type labels) and writes tools/data/onnx_schemas.tsv:

    domain  op  since_version  inputs  outputs

where inputs/outputs are comma-separated type strings of the formal
parameters in order ("T", "tensor(int64)", ...), each with '?' when optional
and '*' when variadic. ONNX Runtime finds a node's kernel by the schema's
since-version in force at the model's opset (the largest since_version <=
the opset), so this table is what decides which registration a node can use.

Usage:
  tools/gen_onnx_schemas.py --changelog DIR_OR_GIT --revision REV > tools/data/onnx_schemas.tsv
  tools/gen_onnx_schemas.py --git /work/.mirror/onnx+onnx/repo   (reads HEAD's docs)

The table is committed; regenerate only to move to a newer ONNX.
"""
import argparse
import html
import re
import subprocess
import sys

DOMAIN_HEAD = re.compile(r'^# (\S+)')
OP_HEAD = re.compile(r'^### <a name="([^"]+)-(\d+)"></a>')
DT = re.compile(r'^<dt><tt>([^<]*)</tt>( \(([^)]*)\))? : (.*)</dt>')


def parse(text, default_domain):
    """Yields (domain, op, since, inputs, outputs)."""
    domain = default_domain
    cur = None
    section = None
    for line in text.splitlines():
        m = DOMAIN_HEAD.match(line)
        if m and not line.startswith('## '):
            name = m.group(1)
            domain = '' if name in ('ai.onnx', 'ai.onnx(default)') else name
            continue
        m = OP_HEAD.match(line)
        if m:
            if cur:
                yield cur
            op = m.group(1)
            if '.' in op:  # ai.onnx.ml anchors are "ai.onnx.ml.Foo"
                op = op.rsplit('.', 1)[1]
            cur = [domain, op, int(m.group(2)), [], []]
            section = None
            continue
        if cur is None:
            continue
        if line.startswith('#### Inputs'):
            section = 3
        elif line.startswith('#### Outputs'):
            section = 4
        elif line.startswith('#### '):
            section = None
        elif section is not None:
            m = DT.match(line)
            if m:
                flags = m.group(3) or ''
                typ = html.unescape(m.group(4)).strip().replace(' ', '')
                if 'optional' in flags:
                    typ += '?'
                if 'variadic' in flags:
                    typ += '*'
                cur[section].append(typ)
    if cur:
        yield cur


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--git', required=True, help="onnx/onnx's git directory")
    ap.add_argument('--rev', default='HEAD')
    a = ap.parse_args()
    rev = subprocess.run(['git', '--git-dir', a.git, 'rev-parse', a.rev], check=True,
                         capture_output=True, text=True).stdout.strip()
    rows = []
    for path, dom in (('docs/Changelog.md', ''), ('docs/Changelog-ml.md', 'ai.onnx.ml')):
        text = subprocess.run(['git', '--git-dir', a.git, 'show', f'{rev}:{path}'], check=True,
                              capture_output=True, text=True).stdout
        for d, op, since, ins, outs in parse(text, dom):
            if path.endswith('-ml.md'):
                d = 'ai.onnx.ml'
            rows.append((d, op, since, ','.join(ins) or '-', ','.join(outs) or '-'))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    out = sys.stdout
    out.write(f'# onnx/onnx {rev} docs/Changelog.md, docs/Changelog-ml.md (tools/gen_onnx_schemas.py)\n')
    out.write('# domain\top\tsince_version\tinputs\toutputs\n')
    for r in rows:
        out.write('\t'.join(str(x) for x in r) + '\n')


if __name__ == '__main__':
    main()
