#!/usr/bin/env python3
"""plan_model_table.py DMLTENSOR MODELS_DIR [--update docs/plan.md] -
docs/plan.md's table of `plan MODEL.onnx` on the exports of
tests/onnx/export_torch.py (MODELS_DIR holds NAME.onnx, as CI's
build/cache/torch), at --dim batch=1 and --dim batch=8 (--dim seq=128 for
the Transformer), alignment 256: the activations planned, the arena and its
ratio to the lower bound, and what a model needs with its subgraphs.

Prints the table; with --check FILE, checks that each row of a model
MODELS_DIR holds is FILE's (the others are not checked; exit 77 when none
is there: ctest docs/plan_models); with --update FILE, writes it between FILE's lines
`<!-- generated: plan models (tools/plan_model_table.py) -->` and
`<!-- end generated: plan models -->` (the table went stale by hand once).
A model missing from MODELS_DIR is an error: export it first
(python3 tests/onnx/export_torch.py MODELS_DIR).
"""
import json
import os
import re
import subprocess
import sys

MODELS = [("convnext_tiny", "ConvNeXt-Tiny"), ("densenet121", "DenseNet-121"),
          ("efficientnet_b0", "EfficientNet-B0"), ("fcn", "FCN (ResNet-50)"),
          ("googlenet", "GoogLeNet"), ("mobilenet_v2", "MobileNet v2"),
          ("mobilenet_v3", "MobileNet v3 (large)"), ("regnet", "RegNet"),
          ("resnet50", "ResNet-50"), ("shufflenet_v2", "ShuffleNet v2"),
          ("squeezenet", "SqueezeNet"), ("transformer", "Transformer encoder (seq 128)"),
          ("vit_b_16", "ViT-B/16")]
BEGIN = "<!-- generated: plan models (tools/plan_model_table.py) -->"
END = "<!-- end generated: plan models -->"


def plan(binary, path, batch):
    args = [binary, "plan", path, "--dim", f"batch={batch}", "--dim", "seq=128"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    last = p.stdout.splitlines()[-1]
    summary = json.loads(last)["summary"]
    summary["ratio_text"] = re.search(r'"ratio":([0-9.]+|null)', last).group(1)
    return summary


def row(binary, path, title):
    one, eight = plan(binary, path, 1), plan(binary, path, 8)
    left = sum(one["skipped"].values()) + sum(eight["skipped"].values())
    return (f"| {title} | {one['tensors']} | {one['total_arena_bytes']:,} | "
            f"{one['ratio_text']} | {eight['total_arena_bytes']:,} | "
            f"{eight['ratio_text']} | {left} |")


def check(binary, models_dir, doc):
    text = open(doc, encoding="utf-8").read()
    text = text.split(BEGIN, 1)[1].split(END, 1)[0] if BEGIN in text else ""
    checked = bad = 0
    for name, title in MODELS:
        path = os.path.join(models_dir, name + ".onnx")
        if not os.path.exists(path):
            continue
        want = row(binary, path, title)
        checked += 1
        if want not in text.splitlines():
            bad += 1
            print(f"stale: {doc}'s row of {title}; now:\n{want}\n"
                  f"(python3 tools/plan_model_table.py DMLTENSOR {models_dir} --update {doc})")
    if checked == 0:
        print(f"skipped: no exported model in {models_dir}")
        return 77
    print(f"{checked} rows checked, {bad} stale")
    return 1 if bad else 0


def table(binary, models_dir):
    lines = ["| model | activations | batch 1: arena (bytes) | ratio | batch 8: arena (bytes) "
             "| ratio | left out |",
             "|---|---|---|---|---|---|---|"]
    for name, title in MODELS:
        path = os.path.join(models_dir, name + ".onnx")
        if not os.path.exists(path):
            raise SystemExit(f"no {path}: python3 tests/onnx/export_torch.py {models_dir} {name}")
        lines.append(row(binary, path, title))
    return "\n".join(lines) + "\n"


def main():
    args = sys.argv[1:]
    update = None
    if "--check" in args:
        i = args.index("--check")
        doc = args[i + 1]
        del args[i:i + 2]
        return check(args[0], args[1], doc)
    if "--update" in args:
        i = args.index("--update")
        update = args[i + 1]
        del args[i:i + 2]
    binary, models_dir = args
    text = table(binary, models_dir)
    if update is None:
        sys.stdout.write(text)
        return 0
    doc = open(update, encoding="utf-8").read()
    if BEGIN not in doc or END not in doc:
        raise SystemExit(f"{update}: no {BEGIN} ... {END}")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(update, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + text + END + tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
