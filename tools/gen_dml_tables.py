#!/usr/bin/env python3
"""gen_dml_tables.py - writes src/dml/dml_operator_table.c, src/dml/dml_mapping_table.c (and the list of
operators in docs/validation.md, between its "operators" markers) from the text tables
tools/data/dml_operator_tensors.tsv (DirectML's per-operator tensor support,
made by tools/extract_dml_docs.py) and tools/data/dml_ep_operator_map.tsv (how
ONNX Runtime's DirectML provider maps ONNX operators onto DirectML operator
descs). Deterministic: the same tables give the same bytes.

Usage: gen_dml_tables.py [--root DIR] [--check]
  --check  compare with the checked-in files instead of writing them; exit 1
           with a diff when they differ (ctest dml/tables_generated).
"""
import argparse
import difflib
import os
import sys

DTYPE_VALUE = {"FLOAT32": 1, "FLOAT16": 2, "UINT32": 3, "UINT16": 4, "UINT8": 5, "INT32": 6,
               "INT16": 7, "INT8": 8, "FLOAT64": 9, "UINT64": 10, "INT64": 11, "UINT4": 12,
               "INT4": 13}
TENSOR_COLUMNS = ["operator", "introduced", "tensor", "kind", "level", "dimension_counts",
                  "data_types", "optional", "source", "commit"]
MAP_COLUMNS = ["onnx_op", "dml_operator", "inputs", "outputs", "condition", "source", "commit"]


MAX_LINES = 900  # the house limit on a file in src/ (ctest house/sizes)


class TableError(Exception):
    pass


def read_tsv(path, columns):
    """Rows as dicts, and the '# key: value' comment lines as a dict."""
    rows, meta, header = [], {}, None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                key, sep, value = line[1:].partition(":")
                if sep and key.strip().isidentifier():
                    meta[key.strip()] = value.strip()
                continue
            if not line:
                continue
            cells = line.split("\t")
            if header is None:
                if cells != columns:
                    raise TableError(f"{path}:{n}: header {cells} (want {columns})")
                header = cells
                continue
            if len(cells) != len(columns):
                raise TableError(f"{path}:{n}: {len(cells)} columns (want {len(columns)})")
            row = dict(zip(columns, cells))
            row["_where"] = f"{path}:{n}"
            rows.append(row)
    if header is None:
        raise TableError(f"{path}: no header line")
    return rows, meta


def level_code(text, where):
    parts = text.split("_")
    if len(parts) != 2 or not all(p.isdigit() and len(p) == 1 for p in parts) or parts[0] == "0":
        raise TableError(f"{where}: feature level {text!r} is not M_m")
    return (int(parts[0]) << 12) | (int(parts[1]) << 8)


def dim_bits(text, where):
    bits = 0
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        lo, hi = int(lo), int(hi or lo)
        if not 1 <= lo <= hi <= 8:
            raise TableError(f"{where}: dimension counts {text!r} out of 1..8")
        for n in range(lo, hi + 1):
            bits |= 1 << n
    return bits


def dtype_bits(text, where):
    bits = 0
    for name in filter(None, text.split(",")):
        if name not in DTYPE_VALUE:
            raise TableError(f"{where}: unknown data type {name!r}")
        bits |= 1 << DTYPE_VALUE[name]
    return bits


def c_string(s):
    if any(c in s for c in '"\\\n') or not s.isprintable():
        raise TableError(f"{s!r}: not a plain string")
    return '"' + s + '"'


def build_operators(rows):
    ops = {}
    for r in rows:
        w = r["_where"]
        op = ops.setdefault(r["operator"], {"introduced": r["introduced"], "rules": [],
                                            "source": short_source(r)})
        if op["introduced"] != r["introduced"]:
            raise TableError(f"{w}: {r['operator']} introduced at {r['introduced']} and {op['introduced']}")
        if r["optional"] not in ("0", "1"):
            raise TableError(f"{w}: optional is {r['optional']!r} (want 0 or 1)")
        op["rules"].append((r["tensor"], level_code(r["level"], w),
                            dim_bits(r["dimension_counts"], w),
                            dtype_bits(r["data_types"], w), int(r["optional"])))
        level_code(r["introduced"], w)
    for name, op in ops.items():
        keys = [(t, lv) for t, lv, _, _, _ in op["rules"]]
        if len(set(keys)) != len(keys):
            raise TableError(f"{name}: a tensor is given twice at one level")
        op["rules"].sort(key=lambda x: (x[0], x[1]))
    return ops


def check_mapping(maps, ops):
    """Every DirectML operator the mapping names is in the tensor table, and
    every desc field it names is one of that operator's tensors; rows for one
    ONNX operator are contiguous."""
    seen, last = set(), None
    for m in maps:
        w = m["_where"]
        if m["onnx_op"] != last:
            if m["onnx_op"] in seen:
                raise TableError(f"{w}: rows for {m['onnx_op']} are not contiguous")
            seen.add(m["onnx_op"])
            last = m["onnx_op"]
        op = ops.get(m["dml_operator"])
        if op is None:
            raise TableError(f"{w}: DirectML operator {m['dml_operator']} is not in the tensor table")
        tensors = {t for t, _, _, _, _ in op["rules"]}
        for field in (m["inputs"] + "," + m["outputs"]).split(","):
            field = field[:-1] if field.endswith("*") else field
            if field not in ("-", "") and field not in tensors:
                raise TableError(f"{w}: {m['dml_operator']} has no tensor {field!r} "
                                 f"(it has {', '.join(sorted(tensors))})")


def short_source(r):
    """ "sdk-api:ns-directml-dml_gemm_operator_desc.md@2cd469d9bd0f": the page and its commit."""
    repo, _, path = r["source"].partition(":")
    return f"{repo.split('/')[-1]}:{os.path.basename(path)}@{r['commit'][:12]}"


def packed(items, indent="    ", width=100):
    """C initializers, as many to a line as fit in WIDTH columns."""
    lines, line = [], indent
    for item in items:
        if line.strip() and len(line) + len(item) + 1 > width:
            lines.append(line.rstrip())
            line = indent
        line += item + ","
    if line.strip():
        lines.append(line)
    return lines


def render_mapping(maps):
    out = ["/* dml_mapping_table.c - GENERATED by tools/gen_dml_tables.py from",
           " * tools/data/dml_ep_operator_map.tsv: how ONNX Runtime's DirectML provider maps",
           " * ONNX operators onto DirectML operator descs. Do not edit: change the table and",
           " * run `cmake --build build --target regen-dml-tables`. */",
           '#include "dml_operator_table.h"', "", "/* clang-format off */"]
    n = max(len(maps), 1)
    out.append(f"const struct dmlt_dml_mapping dmlt_dml_mapping_table[{n}] = {{")
    for m in maps:
        condition = "NULL" if m["condition"] == "-" else c_string(m["condition"])
        out.append(f"    {{{c_string(m['onnx_op'])},{c_string(m['dml_operator'])},"
                   f"{c_string(m['inputs'])},{c_string(m['outputs'])},{c_string(m['source'])},"
                   f"{condition}}},")
    if not maps:
        out.append('    {"", "", "", "", "", NULL},')
    out.append("};")
    out.append(f"const unsigned dmlt_dml_mapping_count = {len(maps)};")
    out.append("/* clang-format on */")
    return checked_lines("src/dml/dml_mapping_table.c", "\n".join(out) + "\n")


def checked_lines(name, text):
    if text.count("\n") > MAX_LINES:
        raise TableError(f"{name} would have {text.count(chr(10))} lines, over the house limit of "
                         f"{MAX_LINES} (tests/tools/check_sizes.py): split it")
    return text


def render(ops, revision):
    out = ["/* dml_operator_table.c - GENERATED by tools/gen_dml_tables.py from",
           " * tools/data/dml_operator_tensors.tsv (DirectML's operators' tensor support);",
           " * do not edit: change the tables and run `cmake --build build --target regen-dml-tables`.",
           " * A rule is {tensor, level, dimension-count bits, data-type bits, optional}. */",
           '#include "dml_operator_table.h"', "", "/* clang-format off */"]
    names = sorted(ops)
    items, first = [], {}
    for name in names:
        first[name] = len(items)
        items.extend(f"{{{c_string(t)},0x{lv:04x},0x{dims:x},0x{dts:x},{opt}}}"
                     for t, lv, dims, dts, opt in ops[name]["rules"])
    out.append("/* Every operator's rules, in the operator table's order (sorted by name). */")
    out.append(f"static const struct dmlt_dml_tensor_rule rules[{len(items)}] = {{")
    out.extend(packed(items))
    out.append("};")
    out.append("")
    out.append(f"const struct dmlt_dml_operator dmlt_dml_operator_table[{len(names)}] = {{")
    for name in names:
        op = ops[name]
        intro = level_code(op["introduced"], name)
        out.append(f"    {{{c_string(name)},0x{intro:04x},rules+{first[name]},{len(op['rules'])},"
                   f"{c_string(op['source'])}}},")
    out.append("};")
    out.append(f"const unsigned dmlt_dml_operator_count = {len(names)};")
    newest = max(lv for op in ops.values() for _, lv, _, _, _ in op["rules"])
    newest = max([newest] + [level_code(op["introduced"], "") for op in ops.values()])
    out.append(f"const unsigned dmlt_dml_tables_newest_level = 0x{newest:04x};")
    out.append(f"const char dmlt_dml_tables_revision[] =\n    {c_string(revision)};")
    out.append("")
    out.append("/* clang-format on */")
    return checked_lines("src/dml/dml_operator_table.c", "\n".join(out) + "\n")


DOC = os.path.join("docs", "validation.md")
DOC_BEGIN = "<!-- operators: written by tools/gen_dml_tables.py -->\n"
DOC_END = "<!-- end of operators -->\n"


def render_doc_list(ops, old):
    """docs/validation.md with the operator list between its markers remade."""
    begin, end = old.find(DOC_BEGIN), old.find(DOC_END)
    if begin < 0 or end < begin:
        raise TableError(f"{DOC}: no '{DOC_BEGIN.strip()}' ... '{DOC_END.strip()}' markers")
    items = [f"`{name}` ({ops[name]['introduced']})" for name in sorted(ops)]
    lines, line = [], ""
    for item in items:
        if line and len(line) + len(item) + 2 > 76:
            lines.append(line + ",")
            line = ""
        line = f"{line}, {item}" if line else item
    lines.append(line + ".")
    return old[:begin + len(DOC_BEGIN)] + "\n".join(lines) + "\n" + old[end:]


def generate(root):
    data = os.path.join(root, "tools", "data")
    rows, meta = read_tsv(os.path.join(data, "dml_operator_tensors.tsv"), TENSOR_COLUMNS)
    maps, map_meta = read_tsv(os.path.join(data, "dml_ep_operator_map.tsv"), MAP_COLUMNS)
    if "revision" not in meta:
        raise TableError("dml_operator_tensors.tsv: no '# revision: ...' line")
    ops = build_operators(rows)
    check_mapping(maps, ops)
    revision = meta["revision"]
    if "revision" in map_meta:
        revision += "; " + map_meta["revision"]
    with open(os.path.join(root, DOC), encoding="utf-8") as f:
        doc = render_doc_list(ops, f.read())
    return {os.path.join("src", "dml", "dml_operator_table.c"): render(ops, revision),
            os.path.join("src", "dml", "dml_mapping_table.c"): render_mapping(maps), DOC: doc}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv[1:])
    try:
        files = generate(args.root)
    except (TableError, OSError) as e:
        sys.stderr.write(f"gen_dml_tables.py: {e}\n")
        return 2
    stale = 0
    for rel, text in sorted(files.items()):
        target = os.path.join(args.root, rel)
        if args.check:
            with open(target, encoding="utf-8") as f:
                old = f.read()
            if old != text:
                stale += 1
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                                           rel, "generated"))
                sys.stderr.write(f"gen_dml_tables.py: {rel} is stale: "
                                 "run `cmake --build build --target regen-dml-tables`\n")
            continue
        with open(target, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
