#!/bin/sh
# install.sh SRC_DIR DEST_DIR - installs onnxruntime-node (its Linux CPU
# binary is in the npm package: no install script runs), pinned by SRC_DIR's
# package.json and package-lock.json, into DEST_DIR/node_modules (a build
# tree), unless that very version is there already. ctest runs it before
# onnx/ort_oracle. Without npm or the registry it says so and exits 0: the
# oracle then skips, saying why.
set -u
src=$1
dest=$2
module="$dest/node_modules/onnxruntime-node/package.json"
if [ -f "$module" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
    echo "onnxruntime-node: already installed in $dest"
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "install.sh: npm not found: the ONNX Runtime oracle will be skipped" >&2
    exit 0
fi
mkdir -p "$dest"
cp "$src/package.json" "$src/package-lock.json" "$dest/"
cd "$dest" || exit 1
if ! npm ci --ignore-scripts --no-audit --no-fund --loglevel=error; then
    echo "install.sh: npm ci failed (offline?): the ONNX Runtime oracle will be skipped" >&2
    rm -rf "$dest/node_modules"
    exit 0
fi
echo "onnxruntime-node: installed in $dest"
