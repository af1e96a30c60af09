#!/usr/bin/env python3
"""check_ep_tables.py SOURCE_DIR - the tables behind `nodes`:

- src/dml/dml_ep_table.c is what tools/gen_dml_ep_table.py writes from
  tools/data/ (regenerated here and compared);
- tools/data/dml_ep_registrations.txt has the source's row count (358 rows
  of operatorRegistrationInformationTable in OperatorRegistration.cpp, 15
  ORT kernels of RegisterCpuOperatorsAsDml, 3 factory kernels) and sample
  rows as the source writes them;
- the since versions derived for REG_INFO rows are OperatorVersions.h's
  (samples: OnnxOperatorSet7::sc_sinceVer_Relu is 6, ..._Affine is 1);
- tools/data/onnx_schemas.tsv holds every schema python3-onnx's onnx.defs
  knows (its opsets), each with the same since version.
Prints one line per failure; exit 1 on any."""
import os
import subprocess
import sys

FAIL = []


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
    want = {"REG": 358, "ORT_KERNEL": 15, "FACTORY": 3}
    if kinds != want:
        FAIL.append(f"row counts {kinds}, the source has {want}")
    by = {(r["domain"], r["op"], r["opset"]): r for r in regs}
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
    }
    for key, w in samples.items():
        r = by.get(key)
        got = r and (r["since"], r["typelist"], r["graph"], r["cpu"], r["count"], r["query"])
        if got != w:
            FAIL.append(f"row {key}: {got}, the source says {w}")
    if gen.flags_mask("Float16to32|Ints8Bit|Ints16Bit|Ints32Bit|Ints64Bit") != sum(1 << t for t in (10, 1, 2, 3, 4, 5, 12, 6, 13, 7)):
        FAIL.append("Float16to32Ints8to64's ONNX types")
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
