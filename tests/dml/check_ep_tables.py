#!/usr/bin/env python3
"""check_ep_tables.py SOURCE_DIR - the tables behind `nodes`:

- src/dml/dml_ep_table.c is what tools/gen_dml_ep_table.py writes from
  tools/data/ (regenerated here and compared);
- tools/data/dml_ep_registrations.txt has the source's row count (404 rows
  of operatorRegistrationInformationTable in OperatorRegistration.cpp at
  12dfe2859c85, the four under `#if DML_TARGET_VERSION >= 0x6400` with
  them; 15 ORT kernels of RegisterCpuOperatorsAsDml; 4 factory kernels,
  DFT twice) and sample rows as the source writes them;
- each row's `at` (FILE:LINE at the data's `# revision:`): sample rows at
  the lines the source has them (read from the file at that commit), the
  table's rows on strictly increasing lines of OperatorRegistration.cpp,
  after the ORT kernels' definitions, the factories in their headers
  (tools/dml_ep_lines.py checks every row against a copy of the source);
- the since versions derived for REG_INFO rows are OperatorVersions.h's
  (samples: OnnxOperatorSet7::sc_sinceVer_Relu is 6, ..._Affine is 1,
  OnnxOperatorSet13::sc_sinceVer_Scatter 13, OnnxOperatorSet21::
  sc_sinceVer_GroupNorm 21, OnnxOperatorSet19::sc_sinceVer_Pad 19);
- tools/data/onnx_schemas.tsv holds every schema python3-onnx's onnx.defs
  knows (its opsets), each with the same since version.
Prints one line per failure; exit 1 on any."""
import os
import subprocess
import sys

FAIL = []


# (domain, op, opset) -> where microsoft/onnxruntime@12dfe2859c85 has it,
# read from the files at that commit (OperatorRegistration.cpp blob b0b37d01370b)
LINES = {
    ("", "Conv", 7): ("OperatorRegistration.cpp", 746),  # the table's first row
    ("com.microsoft", "NhwcConv", 1): ("OperatorRegistration.cpp", 748),
    ("", "Pad", 19): ("OperatorRegistration.cpp", 813),  # under #if DML_TARGET_VERSION
    ("", "QuantizeLinear", 21): ("OperatorRegistration.cpp", 936),
    ("", "Resize", 19): ("OperatorRegistration.cpp", 1049),
    ("", "Relu", 14): ("OperatorRegistration.cpp", 1060),
    ("com.microsoft.dml", "DmlFusedConv", 1): ("OperatorRegistration.cpp", 1118),
    ("com.microsoft", "QAttention", 1): ("OperatorRegistration.cpp", 1136),
    ("com.microsoft", "MatMulNBits", 1): ("OperatorRegistration.cpp", 1176),
    ("com.microsoft", "GroupQueryAttention", 1): ("OperatorRegistration.cpp", 1179),  # the last
    ("", "SequenceAt", 11): ("OperatorRegistration.cpp", 49),  # ONNX_OPERATOR_KERNEL_EX(
    ("", "If", 19): ("OperatorRegistration.cpp", 213),
    ("", "DFT", 17): ("DmlDFT.h", 1114),  # kernelDescription.name = "DFT";
    ("", "DFT", 20): ("DmlDFT.h", 1114),  # the same function, called with 20
    ("", "GridSample", 16): ("DmlGridSample.h", 764),
}


def check_lines(gen, regs, by):
    rev = gen.ort_revision()
    if rev != "microsoft/onnxruntime@12dfe2859c8517fb492915aaa152716fe7e1fc67":
        FAIL.append(f"the registrations' revision is {rev}: the sample lines below are "
                    "12dfe2859c85's (a new revision: read them again from its files)")
    for key, want in LINES.items():
        r = by.get(key)
        got = r and (r["file"], r["line"])
        if got != want:
            FAIL.append(f"row {key}: at {got}, the source has it at {want}")
    table = [r for r in regs if r["macro"].startswith("REG_INFO")]
    kernels = [r for r in regs if r["macro"] == "ORT_KERNEL"]
    for kind, rows in (("table", table), ("ORT kernel", kernels)):
        for a, b in zip(rows, rows[1:]):
            if a["file"] != "OperatorRegistration.cpp" or b["line"] <= a["line"]:
                FAIL.append(f"{kind} rows {a['row']} and {b['row']}: at {a['file']}:{a['line']}"
                            f" then {b['file']}:{b['line']}, not on increasing lines of "
                            "OperatorRegistration.cpp")
    if kernels and table and kernels[-1]["line"] >= table[0]["line"]:
        FAIL.append("the ORT kernels' definitions stand after the table's first row")
    for r in regs:
        if r["macro"] == "FACTORY" and r["file"] != f"Dml{r['op']}.h":
            FAIL.append(f"factory {r['op']}: at {r['file']}, not Dml{r['op']}.h")


def main():
    root = sys.argv[1]
    sys.path.insert(0, os.path.join(root, "tools"))
    import gen_dml_ep_table as gen
    schemas, rev, regs = gen.load()
    for name, text in zip(("dml_onnx_schema_table.c", "dml_ep_table.c"),
                          gen.render(schemas, rev, regs)):
        with open(os.path.join(root, "src", "dml", name)) as f:
            if f.read() != text:
                FAIL.append(f"src/dml/{name} is stale: run tools/gen_dml_ep_table.py")
    kinds = {}
    for r in regs:
        kinds[r["macro"].split("_")[0] if r["macro"].startswith("REG") else r["macro"]] = \
            kinds.get(r["macro"].split("_")[0] if r["macro"].startswith("REG") else r["macro"], 0) + 1
    want = {"REG": 404, "ORT_KERNEL": 15, "FACTORY": 4}
    if kinds != want:
        FAIL.append(f"row counts {kinds}, the source has {want}")
    by = {(r["domain"], r["op"], r["opset"]): r for r in regs}
    check_lines(gen, regs, by)
    # (domain, op, opset) -> (since, types, graph, cpu inputs, input count, query), as written
    samples = {
        ("", "Conv", 7): (1, "Float16to32", True, 0, 0, 0),
        ("", "Conv", 11): (11, "Float16to32", True, 0, 0, 0),
        ("", "Relu", 7): (6, "Float16to32", True, 0, 0, 0),
        ("", "Relu", 14): (14, "Float16to32SignedInts8to32", True, 0, 0, 0),
        ("", "Slice", 13): (13, "Slice10", True, 0b11110, 0, gen.QUERIES.index("QuerySlice")),
        ("", "Sum", 13): (13, "Float16to32", True, 0, 2, 0),
        ("", "Resize", 13): (13, "Resize13", True, 0b1110, 0, gen.QUERIES.index("QueryResize")),
        ("", "Shape", 15): (15, "Shape", False, 0, 0, 0),
        ("", "ConstantOfShape", 9): (9, "ConstantOfShape", True, 1, 0, 0),
        ("", "Affine", 7): (1, "Float16to32", True, 0, 0, 0),
        ("", "LayerNormalization", 7): (1, "LayerNormalizationContrib", True, 0, 0,
                                        gen.QUERIES.index("QueryLayerNormalization")),
        ("", "If", 7): (7, "Bool", False, 1, 0, 0),
        ("com.microsoft", "QuickGelu", 1): (1, "Float16to32", True, 0, 0, 0),
        ("com.microsoft.dml", "DmlFusedSum", 1): (1, "Float16to32", True, 0, 2, 0),
        ("", "Dropout", 7): (7, "Float16to32", True, 0, 0, 0),
        ("", "Upsample", 10): (10, "Float16to32", True, 0b10, 0, 0),
        ("", "Scatter", 13): (13, "ScatterGather", True, 0, 0, 0),
        ("", "GroupNorm", 21): (21, "GroupNorm", True, 0, 0, 0),
        ("", "Pad", 19): (19, "AllScalars", True, 0b1110, 0, 0),
        ("", "Resize", 18): (18, "Resize18", True, 0b1110, 0, gen.QUERIES.index("QueryResize")),
        ("", "QuantizeLinear", 21): (21, "QuantizeLinear21", True, 0, 0, 0),
        ("", "ReduceMax", 20): (20, "AllScalars", True, 0b10, 0, 0),
        ("", "SimplifiedLayerNormalization", 7): (1, "LayerNormalizationContrib", True, 0, 0,
                                                  gen.QUERIES.index("QueryLayerNormalization")),
        ("com.microsoft", "QAttention", 1): (1, "QAttention", True, 0, 0,
                                            gen.QUERIES.index("QueryQAttention")),
        ("com.microsoft", "MatMulNBits", 1): (1, "MatMulNBits", True, 0, 0,
                                             gen.QUERIES.index("QueryMatMulNBits")),
        ("com.microsoft", "GroupQueryAttention", 1): (1, "Attention", True, 0b1000000, 0, 0),
        ("com.microsoft", "DynamicQuantizeMatMul", 1): (1, "DynamicQuantizeLinear", True, 0, 0, 0),
        ("", "DFT", 20): (20, "FactoryDFT", False, 0b110, 0, 0),
        ("", "STFT", 17): (17, "FactorySTFT", False, 0b1010, 0, 0),
    }
    lab = by.get(("", "LayerNormalization", 7))
    if lab is None or lab["labels"] != ["T", "U", "V"]:
        FAIL.append("LayerNormalization-7's labels: typeNameListLayerNormContrib is T, U, V")
    for key, w in samples.items():
        r = by.get(key)
        got = r and (r["since"], r["typelist"], r["graph"], r["cpu"], r["count"], r["query"])
        if got != w:
            FAIL.append(f"row {key}: {got}, the source says {w}")
    if gen.flags_mask("Float16to32|Ints8Bit|Ints16Bit|Ints32Bit|Ints64Bit") != sum(1 << t for t in (10, 1, 2, 3, 4, 5, 12, 6, 13, 7)):
        FAIL.append("Float16to32Ints8to64's ONNX types")
    # UInt4 and Int4 (MLUInt4x2, MLInt4x2): ONNX's UINT4 21 and INT4 22; All takes them
    if gen.flags_mask("UInt4|Int4") != (1 << 21) | (1 << 22) or \
            not gen.flags_mask("All") & (1 << 21) or gen.flags_mask("AllScalars") & (1 << 22):
        FAIL.append("UInt4/Int4's ONNX types (21, 22), in All and not AllScalars")
    try:
        import onnx.defs as d
    except ImportError:
        print("check_ep_tables: no python3-onnx: the schema comparison is skipped")
        d = None
    if d is not None:
        mine = {(s[0], s[1], s[2]) for s in schemas}
        ref = {(x.domain, x.name, x.since_version) for x in d.get_all_schemas_with_history()
               if x.domain in ("", "ai.onnx.ml")}
        for miss in sorted(ref - mine):
            FAIL.append(f"onnx.defs has {miss}, onnx_schemas.tsv not")
    for f in FAIL:
        print(f)
    print("tables agree with their sources" if not FAIL else f"{len(FAIL)} failures")
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
