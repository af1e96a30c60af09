#!/usr/bin/env python3
"""export_torch.py OUTDIR [NAME...] - real architectures as ONNX models for
the inference's tests and benchmark, exported with Debian's python3-torch
and python3-torchvision: random weights, nothing downloaded.

Each NAME is written twice into OUTDIR (skipped when both files exist):
  NAME.onnx         dynamic batch (and seq for the Transformer encoder),
  NAME.static.onnx  the same at batch 8 (seq 128), every shape folded.
Default: every model below. Models are never committed: CI makes them into
the build tree (build/cache/torch)."""
import os
import sys

import torch
import torchvision

BATCH, SEQ = 8, 128


class Encoder(torch.nn.Module):
    """A Transformer encoder over token ids: embedding, 2 layers, a head."""

    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(1000, 256)
        layer = torch.nn.TransformerEncoderLayer(256, 8, 1024, batch_first=True)
        self.enc = torch.nn.TransformerEncoder(layer, 2)
        self.head = torch.nn.Linear(256, 10)

    def forward(self, tokens):
        return self.head(self.enc(self.emb(tokens)))


def vision(ctor, **kw):
    def make():
        return ctor(weights=None, **kw), torch.randn(1, 3, 224, 224), False
    return make


MODELS = {
    "squeezenet": vision(torchvision.models.squeezenet1_0),
    "mobilenet_v2": vision(torchvision.models.mobilenet_v2),
    "mobilenet_v3": vision(torchvision.models.mobilenet_v3_large),
    "shufflenet_v2": vision(torchvision.models.shufflenet_v2_x1_0),
    "transformer": lambda: (Encoder(), torch.randint(0, 1000, (1, 16)), True),
    "resnet50": vision(torchvision.models.resnet50),
    "efficientnet_b0": vision(torchvision.models.efficientnet_b0),
    "densenet121": vision(torchvision.models.densenet121),
    "regnet": vision(torchvision.models.regnet_y_400mf),
    "convnext_tiny": vision(torchvision.models.convnext_tiny),
    "googlenet": vision(torchvision.models.googlenet, aux_logits=False, init_weights=False),
    "fcn": vision(torchvision.models.segmentation.fcn_resnet50, weights_backbone=None,
                  aux_loss=False),
    "vit_b_16": vision(torchvision.models.vit_b_16),
}


class Plain(torch.nn.Module):
    """FCN returns a dict: its "out" tensor."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        y = self.m(x)
        return y["out"] if isinstance(y, dict) else y


def export(name, outdir):
    dyn = os.path.join(outdir, name + ".onnx")
    static = os.path.join(outdir, name + ".static.onnx")
    if os.path.exists(dyn) and os.path.exists(static):
        return
    torch.manual_seed(0)
    model, example, seq = MODELS[name]()
    model = Plain(model).eval()
    axes = {0: "batch", 1: "seq"} if seq else {0: "batch"}
    # (not under no_grad: the Transformer's fast path has no ONNX export)
    torch.onnx.export(model, example, dyn + ".tmp", opset_version=17, input_names=["input"],
                      output_names=["output"], dynamic_axes={"input": axes, "output": axes})
    big = (torch.randint(0, 1000, (BATCH, SEQ)) if seq
           else torch.randn(BATCH, *example.shape[1:]))
    torch.onnx.export(model, big, static + ".tmp", opset_version=17, input_names=["input"],
                      output_names=["output"])
    os.replace(dyn + ".tmp", dyn)
    os.replace(static + ".tmp", static)


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for name in sys.argv[2:] or list(MODELS):
        export(name, outdir)
        print("exported", name, flush=True)


if __name__ == "__main__":
    main()
