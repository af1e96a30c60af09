#!/usr/bin/env python3
"""extract_dml_docs.py - DirectML's per-operator "Tensor support" tables, from
the documentation pages, into tools/data/dml_operator_tensors.tsv.

Input: markdown pages of DML_*_OPERATOR_DESC structures, as MicrosoftDocs/sdk-api
(sdk-api-src/content/directml/ns-directml-dml_*_operator_desc.md) and
MicrosoftDocs/windows-ai-docs (docs/directml/api/) publish them, each saved with
a first line that says where it came from:

    <!-- source: OWNER/REPO PATH @ COMMIT -->

(a whole page, or the page's "Availability" and "Tensor support" sections:
nothing else is read). The pages themselves are not kept in the project; the
table is, with each row's page and commit.

What is read from a page:
- the operator: the page's file name, ns-directml-dml_NAME_operator_desc.md;
- "This operator was introduced in DML_FEATURE_LEVEL_X_Y" (Availability);
- under "## Tensor support" (or "## Tensor support according to function"):
  headings "DML_FEATURE_LEVEL_X_Y and above" start a level (a table with no
  such heading applies from the level that introduced the operator); any
  other heading names the variants the tables below it are for ("ARGMIN and
  ARGMAX": DML_OPERATOR_REDUCE's functions), written OPERATOR:VARIANT;
- each table row: Tensor, Kind, "Supported dimension counts" ("2 to 4", "4",
  "4, 5"), "Supported data types" (may be empty: the page lists none).

Usage: extract_dml_docs.py --revision TEXT PAGE_DIR... > tools/data/dml_operator_tensors.tsv
(TEXT: what was read, for the generated C table's dmlt_dml_tables_revision.)
Rows are sorted (operator, tensor, level), so the output does not depend on
the order pages are read in.
"""
import os
import re
import sys

COLUMNS = ["operator", "introduced", "tensor", "kind", "level", "dimension_counts",
           "data_types", "optional", "source", "commit"]

DTYPES = ["FLOAT32", "FLOAT16", "UINT32", "UINT16", "UINT8", "INT32", "INT16", "INT8",
          "FLOAT64", "UINT64", "INT64", "UINT4", "INT4"]

SOURCE_RE = re.compile(r"^<!-- source: (\S+) (\S+) @ ([0-9a-f]{40}) -->$")
NAME_RE = re.compile(r"ns-directml-dml_(\w+?)(?:_operator)?_desc\.md$")  # one page lacks "_operator"
INTRO_RE = re.compile(r"introduced in [`*]*DML_FEATURE_LEVEL_(\d)_(\d)")
LEVEL_RE = re.compile(r"^#+\s*DML_FEATURE_LEVEL_(\d)_(\d) and above\s*$")


class PageError(Exception):
    pass


def parse_dims(text, where):
    """"2 to 4" -> "2-4"; "4" -> "4"; "4, 5" -> "4,5"."""
    text = text.strip()
    m = re.fullmatch(r"(\d) to (\d)", text)
    if m:
        lo, hi = int(m.group(1)), int(m.group(2))
        if not 1 <= lo <= hi <= 8:
            raise PageError(f"{where}: dimension counts {text!r} out of 1..8")
        return f"{lo}-{hi}" if lo != hi else str(lo)
    parts = [p.strip() for p in re.split(r",|\bor\b", text) if p.strip()]
    if parts and all(re.fullmatch(r"[1-8]", p) for p in parts):
        return ",".join(parts)
    raise PageError(f"{where}: dimension counts {text!r} not understood")


def parse_types(text, where):
    names = [t.strip().upper() for t in text.split(",") if t.strip()]
    for n in names:
        if n not in DTYPES:
            raise PageError(f"{where}: data type {n!r} is not a DML_TENSOR_DATA_TYPE")
    return ",".join(names)


def variants_of(heading):
    """ "ARGMIN and ARGMAX" -> ["ARGMIN", "ARGMAX"]; "AVERAGE, L2, and LOG_SUM" -> 3."""
    words = re.split(r",\s*(?:and\s+)?|\s+and\s+", heading.strip())
    out = [w.strip() for w in words if w.strip()]
    for w in out:
        if not re.fullmatch(r"[A-Z0-9_]+", w):
            raise PageError(f"heading {heading!r}: {w!r} is not a variant name")
    return out


def split_row(line):
    cells = line.strip().strip("|").split("|")
    return [c.strip() for c in cells]


SECTION_RE = re.compile(r"^#{1,2} ")  # "## Availability"; one page has "# Tensor support"


def tensor_sections(lines, path):
    """The lines of the page's Tensor support section(s)."""
    out, inside = [], False
    for line in lines:
        if SECTION_RE.match(line):
            inside = bool(re.match(r"^#{1,2} Tensor support", line))
            continue
        if inside:
            out.append(line)
    if not out:
        raise PageError(f"{path}: no '## Tensor support' section")
    return out


def parse_page(path):
    with open(path, encoding="utf-8-sig") as f:
        lines = f.read().splitlines()
    m = SOURCE_RE.match(lines[0]) if lines else None
    if not m:
        raise PageError(f"{path}: first line is not '<!-- source: REPO PATH @ COMMIT -->'")
    repo, page, commit = m.groups()
    n = NAME_RE.search(page)
    if not n:
        raise PageError(f"{path}: {page} is not an ns-directml-dml_*_operator_desc.md page")
    op = n.group(1).upper()
    intro = [INTRO_RE.search(l) for l in lines]
    intro = [i for i in intro if i]
    if len(intro) != 1:
        raise PageError(f"{path}: {len(intro)} 'introduced in' sentences (want 1)")
    introduced = f"{intro[0].group(1)}_{intro[0].group(2)}"
    rows, level, variants, header = [], introduced, [None], None
    for line in tensor_sections(lines, path):
        where = f"{path}: {line.strip()!r}"
        lm = LEVEL_RE.match(line)
        if lm:
            level, header = f"{lm.group(1)}_{lm.group(2)}", None
            continue
        if line.startswith("#"):
            variants, level, header = variants_of(line.lstrip("#")), introduced, None
            continue
        if not line.startswith("|"):
            continue
        cells = split_row(line)
        if header is None:
            header = [c.lower() for c in cells]  # one page capitalizes "Dimension Counts"
            continue
        if all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue
        if len(cells) != len(header):
            raise PageError(f"{where}: {len(cells)} cells under a {len(header)}-column header")
        cell = dict(zip(header, cells))
        missing = {"tensor", "kind", "supported dimension counts", "supported data types"} - set(cell)
        if missing:
            raise PageError(f"{where}: the table has no {', '.join(sorted(missing))} column")
        kind = cell["kind"]
        for v in variants:
            rows.append({
                "operator": op if v is None else f"{op}:{v}",
                "introduced": introduced,
                "tensor": cell["tensor"],
                "kind": kind,
                "level": level,
                "dimension_counts": parse_dims(cell["supported dimension counts"], where),
                "data_types": parse_types(cell["supported data types"], where),
                "optional": "1" if kind.lower().startswith("optional") else "0",
                "source": f"{repo}:{page}",
                "commit": commit,
            })
    if not rows:
        raise PageError(f"{path}: no table rows under Tensor support")
    return rows


def level_key(level):
    major, minor = level.split("_")
    return (int(major), int(minor))


def main(argv):
    if len(argv) < 4 or argv[1] != "--revision":
        sys.stderr.write("usage: extract_dml_docs.py --revision TEXT PAGE_DIR... > dml_operator_tensors.tsv\n")
        return 2
    revision = argv[2]
    rows, seen = [], {}
    for d in argv[3:]:
        for name in sorted(os.listdir(d)):
            if not name.endswith(".md"):
                continue
            try:
                page_rows = parse_page(os.path.join(d, name))
            except PageError as e:
                sys.stderr.write(f"extract_dml_docs.py: {e}\n")
                return 1
            for r in page_rows:
                key = (r["operator"], r["tensor"], r["level"])
                if key in seen:
                    sys.stderr.write(f"extract_dml_docs.py: {key} given twice ({seen[key]}, {name})\n")
                    return 1
                seen[key] = name
            rows.extend(page_rows)
    rows.sort(key=lambda r: (r["operator"], r["tensor"], level_key(r["level"])))
    out = sys.stdout
    out.write("# DirectML operators' tensor support by feature level, from the \"Tensor support\"\n")
    out.write("# sections of the DML_*_OPERATOR_DESC pages (source: repository:path, commit).\n")
    out.write("# Written by tools/extract_dml_docs.py; read by tools/gen_dml_tables.py.\n")
    out.write(f"# revision: {revision}\n")
    out.write("\t".join(COLUMNS) + "\n")
    for r in rows:
        out.write("\t".join(r[c] for c in COLUMNS) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
