#!/usr/bin/env python3
"""The DirectML tables (tools/data/dml_*.tsv) against figures read off the
documentation pages and the provider's sources by hand, and dmltensor's
generated C tables (through `validate --operator ... --format json`)
against the text tables.

    check_dml_tables.py DMLTENSOR ROOT

1. Sample rows: each figure below was noted from the page named beside it
   when the page was read; the extracted table must say the same.
2. Counts: windows-ai-docs' pages, REDUCE's functions, rows per operator.
3. Introduced levels: the operators the "DirectML feature level history"
   page (windows-ai-docs docs/directml/dml-feature-level-history.md) says a
   level added must have that level as the one that introduced them.
4. The C tables: for every operator and tensor, at every level where a row
   starts, the level before it and the newest, `validate --operator` reports
   the dimension counts, data types, optional and introduced level of the
   row in force there (the newest row at or below the level), or null when
   none is.
5. The mapping: sample rows noted from the DmlOperator*.cpp files.
"""
import csv
import json
import os
import subprocess
import sys

LEVELS = ["1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2", "6_0", "6_1",
          "6_2", "6_3", "6_4"]

# (operator, tensor, level): (dimension counts, data types, optional), from the pages.
PAGE_FIGURES = {
    # sdk-api ns-directml-dml_gemm_operator_desc.md: 4 dims only at 1_0, 2 to 4 from 4_0
    ("GEMM", "ATensor", "1_0"): ("4", "FLOAT32,FLOAT16", "0"),
    ("GEMM", "ATensor", "4_0"): ("2-4", "FLOAT32,FLOAT16", "0"),
    ("GEMM", "CTensor", "4_0"): ("2-4", "FLOAT32,FLOAT16", "1"),
    # ns-directml-dml_convolution_operator_desc.md: 3 to 5 from 4_0
    ("CONVOLUTION", "FilterTensor", "1_0"): ("4-5", "FLOAT32,FLOAT16", "0"),
    ("CONVOLUTION", "BiasTensor", "4_0"): ("3-5", "FLOAT32,FLOAT16", "1"),
    # ns-directml-dml_element_wise_add_operator_desc.md: ten types from 5_1; 4 to 5 dims at 2_1
    ("ELEMENT_WISE_ADD", "ATensor", "5_1"):
        ("1-8", "FLOAT32,FLOAT16,INT64,INT32,INT16,INT8,UINT64,UINT32,UINT16,UINT8", "0"),
    ("ELEMENT_WISE_ADD", "BTensor", "2_1"): ("4-5", "FLOAT32,FLOAT16,INT32,UINT32", "0"),
    # ..._element_wise_subtract_...: 4 dims only (not 4 to 5) at 2_1
    ("ELEMENT_WISE_SUBTRACT", "OutputTensor", "2_1"): ("4", "FLOAT32,FLOAT16,INT32,UINT32", "0"),
    # ..._element_wise_divide_...: 64-bit integers from 6_0
    ("ELEMENT_WISE_DIVIDE", "ATensor", "6_0"):
        ("1-8", "FLOAT32,FLOAT16,INT64,INT32,INT16,INT8,UINT64,UINT32,UINT16,UINT8", "0"),
    # ..._element_wise_if_...: FLOAT16 only at 2_0; the condition UINT8
    ("ELEMENT_WISE_IF", "ATensor", "2_0"): ("4", "FLOAT16", "0"),
    ("ELEMENT_WISE_IF", "ConditionTensor", "5_0"): ("1-8", "UINT8", "0"),
    # ..._join_...: INT16/UINT16 but no INT8 at 1_0; an array of inputs
    ("JOIN", "InputTensors", "1_0"): ("4", "FLOAT32,FLOAT16,INT32,INT16,UINT32,UINT16", "0"),
    ("JOIN", "InputTensors", "3_0"): ("4-5", "FLOAT32,FLOAT16,INT32,INT16,INT8,UINT32,UINT16,UINT8",
                                      "0"),
    # ..._reduce_...: per function; ARGMAX writes UINT32 only before 3_0
    ("REDUCE:ARGMAX", "OutputTensor", "2_1"): ("4", "UINT32", "0"),
    ("REDUCE:SUM", "InputTensor", "5_0"): ("1-8", "FLOAT32,FLOAT16,INT64,INT32,UINT64,UINT32", "0"),
    ("REDUCE:AVERAGE", "InputTensor", "3_0"): ("1-8", "FLOAT32,FLOAT16", "0"),
    # ..._max_pooling2_...: the indices UINT64 from 5_0
    ("MAX_POOLING2", "OutputIndicesTensor", "5_0"): ("4-5", "UINT64,UINT32", "1"),
    # ..._average_pooling_...: one table, no level heading (applies from 1_0)
    ("AVERAGE_POOLING", "InputTensor", "1_0"): ("4-5", "FLOAT32,FLOAT16", "0"),
    # ..._resample1_...: 1 to 4 dims from 5_1, INT8/UINT8 from 6_2
    ("RESAMPLE1", "InputTensor", "6_2"): ("1-4", "FLOAT32,FLOAT16,INT8,UINT8", "0"),
    # ..._cast_...: 4 dims with 64-bit types at 3_0, 1 to 8 at 3_1
    ("CAST", "InputTensor", "3_0"):
        ("4", "FLOAT32,FLOAT16,INT64,INT32,INT16,INT8,UINT64,UINT32,UINT16,UINT8", "0"),
    # ..._mean_variance_normalization1_...: scale and bias optional
    ("MEAN_VARIANCE_NORMALIZATION1", "ScaleTensor", "2_1"): ("4", "FLOAT32,FLOAT16", "1"),
    # ..._element_wise_logical_equals_...: UINT8 output from 2_0
    ("ELEMENT_WISE_LOGICAL_EQUALS", "OutputTensor", "1_0"): ("4", "UINT32", "0"),
    ("ELEMENT_WISE_LOGICAL_EQUALS", "OutputTensor", "2_0"): ("4", "UINT32,UINT8", "0"),
    # windows-ai-docs ns-directml-dml_activation_gelu_operator_desc.md
    ("ACTIVATION_GELU", "InputTensor", "5_1"): ("1-8", "FLOAT32,FLOAT16", "0"),
    # windows-ai-docs ..._fold_...: the page lists no data types
    ("FOLD", "InputTensor", "6_4"): ("3-8", "", "0"),
    # windows-ai-docs ..._multihead_attention_...: stacked inputs are 5-D
    ("MULTIHEAD_ATTENTION", "StackedQueryKeyValueTensor", "6_1"): ("5", "FLOAT32,FLOAT16", "1"),
    ("MULTIHEAD_ATTENTION", "MaskTensor", "6_1"): ("1-5", "INT32", "1"),
    # windows-ai-docs ..._dequantize_...: 4-bit inputs
    ("DEQUANTIZE", "InputTensor", "6_3"): ("1-8", "INT8,INT4,UINT8,UINT4", "0"),
}

# From the pages' Availability sections.
INTRODUCED = {"GEMM": "1_0", "ELEMENT_WISE_ADD1": "2_0", "ELEMENT_WISE_ERF": "2_0",
              "MEAN_VARIANCE_NORMALIZATION1": "2_1", "MAX_POOLING2": "2_1", "SLICE1": "2_1",
              "ARGMAX": "3_0", "PADDING1": "5_0", "ELEMENT_WISE_NEGATE": "5_0",
              "ELEMENT_WISE_CLIP1": "5_0", "ACTIVATION_GELU": "5_1", "MULTIHEAD_ATTENTION": "6_1",
              "MEAN_VARIANCE_NORMALIZATION2": "6_3", "RESAMPLE3": "6_4", "FOLD": "6_4"}

# "Added the following operator types" in dml-feature-level-history.md, for
# the operators the tables hold (a subset of each level's list).
HISTORY_ADDED = {
    "6_4": ["RESAMPLE3", "FOLD", "UNFOLD"],
    "6_3": ["MEAN_VARIANCE_NORMALIZATION2", "MULTIHEAD_ATTENTION1", "QUANTIZE", "DEQUANTIZE"],
    "6_2": ["ACTIVATION_HARD_SWISH", "ACTIVATION_SWISH", "AVERAGE_POOLING1", "LP_POOLING1",
            "MATRIX_MULTIPLY_INTEGER_TO_FLOAT", "QUANTIZED_LINEAR_AVERAGE_POOLING"],
    "6_1": ["MULTIHEAD_ATTENTION"],
    "5_1": ["ACTIVATION_GELU", "ACTIVATION_SOFTMAX1", "ACTIVATION_LOG_SOFTMAX1",
            "ACTIVATION_HARDMAX1", "RESAMPLE2", "RESAMPLE_GRAD1", "DIAGONAL_MATRIX1"],
    "5_0": ["ELEMENT_WISE_CLIP1", "ELEMENT_WISE_NEGATE", "PADDING1"],
    "3_0": ["ARGMIN", "ARGMAX"],
    "2_1": ["GATHER_ELEMENTS", "GATHER_ND", "MAX_POOLING2", "SLICE1",
            "MEAN_VARIANCE_NORMALIZATION1", "RESAMPLE1"],
}

# Rows per operator, counted on the pages: tensors x levels with a table.
ROW_COUNTS = {
    "GEMM": 8,                          # 4 tensors at 1_0 and 4_0
    "ELEMENT_WISE_ADD": 15,             # 3 tensors x 5 levels
    "REDUCE:ARGMAX": 8,                 # 2 tensors x 4 levels
    "JOIN": 8,                          # 2 x 4
    "MULTIHEAD_ATTENTION": 14,          # 14 tensors, one table
    "MULTIHEAD_ATTENTION1": 15,         # and PastSequenceLengthsTensor
    "LSTM": 11,                         # 11 tensors, one table without a level
    "QUANTIZED_LINEAR_CONVOLUTION": 30, # 10 tensors x 3 levels
    "ELEMENT_WISE_QUANTIZE_LINEAR": 20, # 4 tensors x 5 levels
    "FOLD": 2,
}

# Sample mapping rows, noted from the provider's files (file:line of the desc).
MAPPING = [
    ("Conv", "CONVOLUTION", "InputTensor,FilterTensor,BiasTensor", "DmlOperatorConvolution.cpp:112"),
    ("Gemm", "GEMM", "ATensor,BTensor,CTensor", "DmlOperatorGemm.cpp:41"),
    ("MatMul", "GEMM", "ATensor,BTensor", "DmlOperatorMatMul.cpp:41"),
    ("BatchNormalization", "BATCH_NORMALIZATION",
     "InputTensor,ScaleTensor,BiasTensor,MeanTensor,VarianceTensor", "DmlOperatorBatchNormalization.cpp:54"),
    ("Reshape", "ELEMENT_WISE_IDENTITY", "InputTensor,-", "DmlOperatorCopy.cpp:37"),
    ("Slice", "SLICE1", "InputTensor,-,-,-,-", "DmlOperatorSlice.cpp:36"),
    ("ReduceMean", "REDUCE:AVERAGE", "InputTensor,-", "DmlOperatorReduce.cpp:103"),
    ("LayerNormalization", "MEAN_VARIANCE_NORMALIZATION2", "InputTensor,ScaleTensor,BiasTensor",
     "DmlOperatorLayerNormalization.cpp:132"),
    # registered at 12dfe2859c85 (read at b8c90beef2b1 and 12042a93876b, their files' last changes)
    ("SimplifiedLayerNormalization", "MEAN_VARIANCE_NORMALIZATION2", "InputTensor,ScaleTensor",
     "DmlOperatorLayerNormalization.cpp:132"),
    ("com.microsoft.FastGelu", "ELEMENT_WISE_ADD1", "ATensor,BTensor", "DmlOperatorBiasGelu.cpp:32"),
    ("com.microsoft.FastGelu", "ACTIVATION_GELU", "InputTensor", "DmlOperatorBiasGelu.cpp:42"),
]

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print("FAIL:", msg)


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        lines = [l for l in f if not l.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t"))


def key(level):
    return LEVELS.index(level)


def in_force(rows, op, tensor, level):
    cands = [r for r in rows if r["operator"] == op and r["tensor"] == tensor
             and key(r["level"]) <= key(level)]
    return max(cands, key=lambda r: key(r["level"])) if cands else None


def check_pages(rows):
    for (op, tensor, level), (dims, types, optional) in PAGE_FIGURES.items():
        r = [x for x in rows if (x["operator"], x["tensor"], x["level"]) == (op, tensor, level)]
        if len(r) != 1:
            fail(f"{op} {tensor} {level}: {len(r)} rows (want 1)")
        elif (r[0]["dimension_counts"], r[0]["data_types"], r[0]["optional"]) != (dims, types, optional):
            fail(f"{op} {tensor} {level}: {r[0]['dimension_counts']} {r[0]['data_types']} "
                 f"{r[0]['optional']} (the page: {dims} {types} {optional})")
    intro = {r["operator"]: r["introduced"] for r in rows}
    for op, level in INTRODUCED.items():
        if intro.get(op) != level:
            fail(f"{op}: introduced {intro.get(op)} (the page: {level})")
    for level, ops in HISTORY_ADDED.items():
        for op in ops:
            if op in intro and intro[op] != level:
                fail(f"{op}: introduced {intro[op]}, the feature level history says {level}")
            if op not in intro:
                fail(f"{op}: the history lists it at {level}; the tables do not hold it")


def check_counts(rows):
    pages = {(r["source"], r["commit"]) for r in rows}
    by_repo = {}
    for source, _ in pages:
        repo = source.split(":")[0]
        by_repo[repo] = by_repo.get(repo, 0) + 1
    if by_repo.get("MicrosoftDocs/windows-ai-docs") != 21:
        fail(f"windows-ai-docs pages: {by_repo.get('MicrosoftDocs/windows-ai-docs')} (docs/directml/api/ has 21)")
    reduce_fns = sorted({r["operator"] for r in rows if r["operator"].startswith("REDUCE:")})
    want = sorted("REDUCE:" + f for f in ["ARGMIN", "ARGMAX", "AVERAGE", "L2", "LOG_SUM",
                                           "LOG_SUM_EXP", "L1", "SUM_SQUARE", "MIN", "MAX",
                                           "MULTIPLY", "SUM"])
    if reduce_fns != want:
        fail(f"REDUCE's functions: {reduce_fns}")
    for op, n in ROW_COUNTS.items():
        got = len([r for r in rows if r["operator"] == op])
        if got != n:
            fail(f"{op}: {got} rows (the page: {n})")
    ops = {r["operator"] for r in rows}
    print(f"{len(ops)} operators, {len(rows)} rows, pages per repository {by_repo}")


def run_json(exe, args):
    p = subprocess.run([exe, "validate", "--format", "json"] + args, capture_output=True, text=True)
    if p.returncode not in (0, 1):
        fail(f"validate {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
        return None
    return json.loads(p.stdout)


def check_c_tables(exe, rows):
    pairs = sorted({(r["operator"], r["tensor"]) for r in rows})
    runs = 0
    for op, tensor in pairs:
        starts = {r["level"] for r in rows if (r["operator"], r["tensor"]) == (op, tensor)}
        levels = set(starts) | {LEVELS[-1]}
        levels |= {LEVELS[key(l) - 1] for l in starts if key(l) > 0}
        for level in sorted(levels, key=key):
            out = run_json(exe, ["--sizes", "2", "--operator", op, "--tensor", tensor,
                                 "--feature-level", level])
            runs += 1
            if out is None:
                continue
            got = out["operator"]
            r = in_force(rows, op, tensor, level)
            intro = next(x["introduced"] for x in rows if x["operator"] == op)
            want_dims = None
            want_types = None
            want_opt = None
            if r is not None:
                want_dims = []
                for part in r["dimension_counts"].split(","):
                    lo, _, hi = part.partition("-")
                    want_dims += list(range(int(lo), int(hi or lo) + 1))
                want_types = [t.lower() for t in r["data_types"].split(",")] if r["data_types"] else None
                want_opt = r["optional"] == "1"
            if got["dimension_counts"] != want_dims or got["optional"] != want_opt:
                fail(f"{op} {tensor} at {level}: dims {got['dimension_counts']} optional "
                     f"{got['optional']} (the table: {want_dims} {want_opt})")
            if got["data_types"] is not None:
                got["data_types"] = sorted(got["data_types"])
            if want_types is not None:
                want_types = sorted(want_types)
            if got["data_types"] != want_types:
                fail(f"{op} {tensor} at {level}: types {got['data_types']} (the table: {want_types})")
            if got["introduced"] != intro or got["feature_level"] != level:
                fail(f"{op} {tensor} at {level}: introduced {got['introduced']} level "
                     f"{got['feature_level']} (the table: {intro} {level})")
            fl = [c for c in out["checks"] if c["id"] == "operator_feature_level"][0]
            if (fl["status"] == "pass") != (key(intro) <= key(level)):
                fail(f"{op} at {level}: operator_feature_level {fl['status']} (introduced {intro})")
    print(f"{runs} validate runs against the table")


def check_mapping(rows, maps):
    for onnx, dml, inputs, source in MAPPING:
        r = [m for m in maps if m["onnx_op"] == onnx and m["dml_operator"] == dml]
        if len(r) != 1 or r[0]["inputs"] != inputs or r[0]["source"] != source:
            fail(f"mapping {onnx} -> {dml}: {r} (noted: {inputs} {source})")
    ops = {r["operator"] for r in rows}
    for m in maps:
        if m["dml_operator"] not in ops:
            fail(f"mapping {m['onnx_op']}: {m['dml_operator']} is not in the tensor table")
    print(f"{len(maps)} mapping rows")


def main(argv):
    exe, root = argv[1], argv[2]
    rows = read_tsv(os.path.join(root, "tools", "data", "dml_operator_tensors.tsv"))
    maps = read_tsv(os.path.join(root, "tools", "data", "dml_ep_operator_map.tsv"))
    check_pages(rows)
    check_counts(rows)
    check_mapping(rows, maps)
    check_c_tables(exe, rows)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        return 1
    print("all agree")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
