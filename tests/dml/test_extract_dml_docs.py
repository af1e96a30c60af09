#!/usr/bin/env python3
"""tools/extract_dml_docs.py on small pages written for the test, one for
each form the documentation pages take: level headings, a table with no
level heading, tables per REDUCE function under headings of any depth, a
"# Tensor support" heading and capitalized column names, the
Availability sentence in backticks or in bold, an empty data-type cell, a
"Dimensions" column; and pages it must refuse.

    test_extract_dml_docs.py ROOT
"""
import os
import subprocess
import sys
import tempfile

SRC = "<!-- source: MicrosoftDocs/sdk-api sdk-api-src/content/directml/ns-directml-dml_{}_operator_desc.md @ " + "a" * 40 + " -->\n"
HEAD = "| Tensor | Kind | Supported dimension counts | Supported data types |\n| --- | --- | --- | --- |\n"

PAGES = {
    "levels": SRC.format("toy") + "## Availability\nThis operator was introduced in `DML_FEATURE_LEVEL_2_1`.\n\n"
              "## Tensor constraints\nnothing\n\n## Tensor support\n### DML_FEATURE_LEVEL_3_0 and above\n"
              + HEAD + "| ATensor | Input | 1 to 8 | FLOAT32, INT8 |\n| OutputTensor | Optional output | 4, 5 | UINT4 |\n\n"
              "### DML_FEATURE_LEVEL_2_1 and above\n| Tensor | Kind | Dimensions | Supported dimension counts | Supported data types |\n"
              "| - | - | - | - | - |\n| ATensor | Input | { N, C } | 4 | FLOAT16 |\n\n## -see-also\n| Not | a | tensor | row |\n",
    "bare": SRC.format("bare") + "## Availability\nThis operator was introduced in **DML_FEATURE_LEVEL_5_0**.\n\n"
            "## Tensor support\n" + HEAD + "| InputTensor | Input | 3 to 8 |  |\n",
    "caps": SRC.format("caps") + "## Availability\nThis operator was introduced in `DML_FEATURE_LEVEL_3_0`.\n\n"
            "# Tensor support\n| Tensor | Kind | Supported Dimension Counts | Supported Data Types |\n| - | - | - | - |\n"
            "| InputTensor | Input | 1 to 8 | FLOAT32 |\n",
    "reduce": SRC.format("red") + "## Availability\nThis operator was introduced in `DML_FEATURE_LEVEL_1_0`.\n\n"
              "## Tensor support according to function\n### MIN and MAX\n##### DML_FEATURE_LEVEL_1_0 and above\n"
              + HEAD + "| InputTensor | Input | 4 | FLOAT32 |\n\n### AVERAGE, L2, and LOG_SUM\n"
              "#### DML_FEATURE_LEVEL_3_0 and above\n" + HEAD + "| InputTensor | Input | 1 to 8 | FLOAT16 |\n",
}

BAD = {
    "no_source": "## Availability\nintroduced in `DML_FEATURE_LEVEL_1_0`\n## Tensor support\n" + HEAD + "| A | Input | 4 | FLOAT32 |\n",
    "bad_type": SRC.format("t") + "introduced in `DML_FEATURE_LEVEL_1_0`\n## Tensor support\n" + HEAD + "| A | Input | 4 | FLOAT128 |\n",
    "bad_dims": SRC.format("t") + "introduced in `DML_FEATURE_LEVEL_1_0`\n## Tensor support\n" + HEAD + "| A | Input | 0 to 9 | FLOAT32 |\n",
    "no_intro": SRC.format("t") + "## Tensor support\n" + HEAD + "| A | Input | 4 | FLOAT32 |\n",
    "no_column": SRC.format("t") + "introduced in `DML_FEATURE_LEVEL_1_0`\n## Tensor support\n| Tensor | Kind | Types |\n| - | - | - |\n| A | Input | FLOAT32 |\n",
    "no_table": SRC.format("t") + "introduced in `DML_FEATURE_LEVEL_1_0`\n## Tensor support\nnone\n",
}

WANT = [
    "BARE\t5_0\tInputTensor\tInput\t5_0\t3-8\t\t0",
    "CAPS\t3_0\tInputTensor\tInput\t3_0\t1-8\tFLOAT32\t0",
    "RED:AVERAGE\t1_0\tInputTensor\tInput\t3_0\t1-8\tFLOAT16\t0",
    "RED:L2\t1_0\tInputTensor\tInput\t3_0\t1-8\tFLOAT16\t0",
    "RED:LOG_SUM\t1_0\tInputTensor\tInput\t3_0\t1-8\tFLOAT16\t0",
    "RED:MAX\t1_0\tInputTensor\tInput\t1_0\t4\tFLOAT32\t0",
    "RED:MIN\t1_0\tInputTensor\tInput\t1_0\t4\tFLOAT32\t0",
    "TOY\t2_1\tATensor\tInput\t2_1\t4\tFLOAT16\t0",
    "TOY\t2_1\tATensor\tInput\t3_0\t1-8\tFLOAT32,INT8\t0",
    "TOY\t2_1\tOutputTensor\tOptional output\t3_0\t4,5\tUINT4\t1",
]


def run(tool, d):
    return subprocess.run([sys.executable, tool, "--revision", "test", d], capture_output=True, text=True)


def main(argv):
    tool = os.path.join(argv[1], "tools", "extract_dml_docs.py")
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        for name, text in PAGES.items():
            with open(os.path.join(d, name + ".md"), "w") as f:
                f.write(text)
        p = run(tool, d)
        rows = [l for l in p.stdout.splitlines() if not l.startswith("#")][1:]
        got = ["\t".join(l.split("\t")[:8]) for l in rows]
        if p.returncode != 0 or got != WANT:
            failures += 1
            print(f"FAIL: exit {p.returncode} {p.stderr}\n got:  {got}\n want: {WANT}")
        if "# revision: test" not in p.stdout:
            failures += 1
            print("FAIL: no revision line")
    for name, text in BAD.items():
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, name + ".md"), "w") as f:
                f.write(text)
            p = run(tool, d)
            if p.returncode == 0 or not p.stderr.strip():
                failures += 1
                print(f"FAIL: {name}: accepted (exit {p.returncode})")
    print("extractor:", "ok" if failures == 0 else f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
