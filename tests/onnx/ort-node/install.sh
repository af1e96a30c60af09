#!/bin/sh
# install.sh SRC_DIR DEST_DIR - installs the npm package onnxruntime-node
# (ONNX Runtime's CPU build for Node), pinned by SRC_DIR's package.json and
# package-lock.json, into DEST_DIR/node_modules (a build tree), unless that
# very version is there already; --ignore-scripts: the CPU binaries ship in
# the package (its install script only fetches GPU ones). ctest runs it
# before onnx/infer_ort. Without npm or the registry it says so and exits 0:
# onnx/infer_ort then skips with that message.
set -u
src=$1
dest=$2
mod="$dest/node_modules/onnxruntime-node/package.json"
if [ -f "$mod" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
    echo "onnxruntime-node: already installed in $dest"
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "install.sh: npm not found: onnx/infer_ort will skip (Debian: apt-get install npm)"
    exit 0
fi
mkdir -p "$dest"
cp "$src/package.json" "$src/package-lock.json" "$dest/"
cd "$dest" || exit 0
if ! npm ci --ignore-scripts --no-audit --no-fund --loglevel=error; then
    echo "install.sh: npm ci failed (offline?): onnx/infer_ort will skip"
    rm -f "$dest/package-lock.json"
    exit 0
fi
echo "onnxruntime-node: installed in $dest"
