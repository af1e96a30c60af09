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
import torch.nn.functional as F
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


class WindowBlock(torch.nn.Module):
    """What exporters make of windowed attention (Swin): F.pad to a multiple
    of the window with pads computed from the input's size, torch.roll,
    window partitioning with view(-1, ...), an attention mask from arange,
    a crop, interpolate(scale_factor=2). Height and width are dynamic."""

    def __init__(self, c=16, ws=4, shift=2):
        super().__init__()
        self.ws, self.shift = ws, shift
        self.proj = torch.nn.Conv2d(3, c, 3, padding=1)
        self.qkv = torch.nn.Linear(c, 3 * c)
        self.out = torch.nn.Conv2d(c, 3, 1)

    def forward(self, x):
        x = self.proj(x).permute(0, 2, 3, 1)
        b, h, w, c = x.shape
        ws, shift = self.ws, self.shift
        x = F.pad(x, (0, 0, 0, (ws - w % ws) % ws, 0, (ws - h % ws) % ws))
        hp, wp = x.shape[1], x.shape[2]
        x = torch.roll(x, shifts=(-shift, -shift), dims=(1, 2))
        rows = (torch.arange(hp) >= hp - shift).long()
        cols = (torch.arange(wp) >= wp - shift).long()
        region = rows[:, None] * 2 + cols[None, :]
        region = region.view(hp // ws, ws, wp // ws, ws).permute(0, 2, 1, 3).reshape(-1, ws * ws)
        mask = (region[:, :, None] != region[:, None, :]).float() * -100.0
        win = x.view(b, hp // ws, ws, wp // ws, ws, c).permute(0, 1, 3, 2, 4, 5)
        win = win.reshape(-1, ws * ws, c)
        q, k, v = self.qkv(win).chunk(3, dim=-1)
        a = (q @ k.transpose(-2, -1)) * c ** -0.5
        a = (a.view(b, -1, ws * ws, ws * ws) + mask).softmax(-1).view(-1, ws * ws, ws * ws)
        x = (a @ v).view(b, hp // ws, wp // ws, ws, ws, c).permute(0, 1, 3, 2, 4, 5)
        x = torch.roll(x.reshape(b, hp, wp, c), shifts=(shift, shift), dims=(1, 2))
        x = x[:, :h, :w, :].permute(0, 3, 1, 2)
        return self.out(F.interpolate(x, scale_factor=2.0, mode="nearest"))


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
    # the third item: the dynamic axes' names (True: batch and seq)
    "window": lambda: (WindowBlock(), torch.randn(1, 3, 14, 18), {0: "batch", 2: "height",
                                                                  3: "width"}),
    "swin_t": vision(torchvision.models.swin_t),
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
    axes = seq if isinstance(seq, dict) else {0: "batch", 1: "seq"} if seq else {0: "batch"}
    # (not under no_grad: the Transformer's fast path has no ONNX export)
    torch.onnx.export(model, example, dyn + ".tmp", opset_version=17, input_names=["input"],
                      output_names=["output"], dynamic_axes={"input": axes, "output": axes})
    big = (torch.randint(0, 1000, (BATCH, SEQ)) if seq is True
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
