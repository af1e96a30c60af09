#!/usr/bin/env bash
# Install and packaging (cmake/install.cmake, docs/install.md): the build
# the other checks use (build/, the ci preset; DMLT_BUILD_DIR) is installed
# into a scratch prefix; the consumer
# example (tests/consumer/) is built against the installed tree with
# pkg-config and with find_package(dmltensor) and run on the installed
# shared library; the installed man page is linted and the completions
# load; then `cpack -G DEB` builds the .deb, which is inspected.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)

# What this check needs beyond .ci/setup-tests.sh: pkg-config, mandoc (lint),
# dpkg-shlibdeps (the .deb's Depends), make (the pkg-config consumer), and
# zsh and fish, whose completions are tested for real only where installed.
. .ci/lib.sh
want pkg-config pkg-config
want mandoc mandoc
want dpkg-dev dpkg-shlibdeps
want make make
want binutils readelf
want zsh zsh
want fish fish
install_wanted 40-install

fail() {
  echo "install: FAIL: $*" >&2
  exit 1
}
# grep -q's test with the whole input read: `cmd | grep -q` stops reading at
# its first match, and under pipefail the SIGPIPE that cmd may get then
# fails the pipeline (the CMake consumer's ldd check failed so once, under
# load, and passed when run again)
has() {
  grep "$@" >/dev/null
}

build=${DMLT_BUILD_DIR:-$root/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

echo "--- install $build into $prefix"
# Configured for /usr/local and installed elsewhere: the installed files
# must not depend on the configured prefix. One build for every check
# (CI's time): the tests' own targets are not installed.
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake --preset ci -B "$build" >/dev/null
fi
cmake --build "$build" -j2 >/dev/null
cmake --install "$build" --prefix "$prefix"
version=$("$build/dmltensor" --version | awk 'NR == 1 { print $2 }')
major=${version%%.*}

echo "--- installed files"
(cd "$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) | tee "$tmp/files"
for f in bin/dmltensor include/dmltensor.h lib/libdmltensor.a lib/libdmltensor.so \
  "lib/libdmltensor.so.$major" "lib/libdmltensor.so.$version" lib/pkgconfig/dmltensor.pc \
  lib/cmake/dmltensor/dmltensorConfig.cmake lib/cmake/dmltensor/dmltensorConfigVersion.cmake \
  lib/cmake/dmltensor/dmltensorTargets.cmake share/man/man1/dmltensor.1 \
  share/bash-completion/completions/dmltensor share/zsh/site-functions/_dmltensor \
  share/fish/vendor_completions.d/dmltensor.fish share/doc/dmltensor/copyright; do
  grep -qx "$f" "$tmp/files" || fail "not installed: $f"
done

echo "--- the library and the command"
readelf -d "$prefix/lib/libdmltensor.so" | has "(SONAME).*\[libdmltensor.so.$major\]" ||
  fail "SONAME of libdmltensor.so is not libdmltensor.so.$major"
readelf -d "$prefix/bin/dmltensor" | has 'NEEDED.*libdmltensor' &&
  fail "bin/dmltensor needs libdmltensor.so: the CLI must link the core statically"
sh tests/consumer/check_exports.sh "$prefix/lib/libdmltensor.so" "$prefix/include/dmltensor.h"
"$prefix/bin/dmltensor" --version
"$prefix/bin/dmltensor" size --dtype float16 --sizes 1,3,224,224 --layout nhwc \
  --field minimum_implied_size_bytes | has -x 301056 || fail "installed dmltensor: wrong size"

echo "--- consumer with pkg-config"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion dmltensor)" = "$version" ] || fail "pkg-config --modversion"
echo "cflags: $(pkg-config --cflags dmltensor)  libs: $(pkg-config --libs dmltensor)"
make -C tests/consumer O="$tmp/pc"
LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/pc/consumer" | grep libdmltensor
LD_LIBRARY_PATH=$prefix/lib ldd "$tmp/pc/consumer" |
  has "libdmltensor.so.$major => $prefix/lib/libdmltensor.so.$major" ||
  fail "the pkg-config consumer does not load the installed libdmltensor.so"
LD_LIBRARY_PATH=$prefix/lib "$tmp/pc/consumer"
unset PKG_CONFIG_PATH

echo "--- consumer with find_package(dmltensor)"
cmake -S tests/consumer -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cm.log"
grep 'dmltensor .* in ' "$tmp/cm.log"
cmake --build "$tmp/cm"
if ! ldd "$tmp/cm/consumer" | has "libdmltensor.so.$major => $prefix/lib/libdmltensor.so.$major"; then
  # what it loads instead, and where find_package found the package
  ldd "$tmp/cm/consumer" >&2 || true
  readelf -d "$tmp/cm/consumer" | grep -i 'path' >&2 || true
  grep -i 'dmltensor_DIR' "$tmp/cm/CMakeCache.txt" >&2 || true
  fail "the CMake consumer does not load the installed libdmltensor.so"
fi
"$tmp/cm/consumer"
readelf -d "$tmp/cm/consumer_static" | has 'NEEDED.*libdmltensor' &&
  fail "consumer_static needs libdmltensor.so"
"$tmp/cm/consumer_static"

echo "--- man page and completions"
mandoc -T lint -W warning "$prefix/share/man/man1/dmltensor.1"
echo "mandoc -T lint: clean"
bash --norc --noprofile -c "source '$prefix/share/bash-completion/completions/dmltensor' &&
  complete -p dmltensor"
zsh -n "$prefix/share/zsh/site-functions/_dmltensor"
fish -n "$prefix/share/fish/vendor_completions.d/dmltensor.fish"
# The ctest cli/completions, in all three shells, with the installed command.
mkdir "$tmp/completions"
cp "$prefix/share/bash-completion/completions/dmltensor" "$tmp/completions/dmltensor.bash"
cp "$prefix/share/zsh/site-functions/_dmltensor" "$prefix/share/fish/vendor_completions.d/dmltensor.fish" \
  "$tmp/completions/"
sh tests/cli/check_completions.sh "$prefix/bin/dmltensor" "$tmp/completions"

echo "--- .deb"
(cd "$build" && cpack -G DEB)
deb=$build/packages/dmltensor_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || fail "no $deb"
dpkg-deb -I "$deb"
dpkg-deb -c "$deb" | tee "$tmp/contents"
depends=$(dpkg-deb -f "$deb" Depends)
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "package version is not $version"
for f in ./usr/bin/dmltensor ./usr/include/dmltensor.h ./usr/lib/libdmltensor.a \
  "./usr/lib/libdmltensor.so.$version" ./usr/lib/pkgconfig/dmltensor.pc \
  ./usr/lib/cmake/dmltensor/dmltensorConfig.cmake ./usr/share/man/man1/dmltensor.1 \
  ./usr/share/bash-completion/completions/dmltensor ./usr/share/zsh/vendor-completions/_dmltensor \
  ./usr/share/fish/vendor_completions.d/dmltensor.fish ./usr/share/doc/dmltensor/copyright; do
  grep -q " $f\( ->.*\)\?$" "$tmp/contents" || fail "not in the .deb: $f"
done
dpkg-deb -x "$deb" "$tmp/deb"
"$tmp/deb/usr/bin/dmltensor" --version >/dev/null
# Depends names the package of every shared library the command needs:
# libc6, and libcjson1 once the command calls cJSON (the linker drops an
# unused libcjson.so.1, and dpkg-shlibdeps with it).
for soname in $(readelf -d "$tmp/deb/usr/bin/dmltensor" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
  pkg=$(dpkg -S "*/$soname" 2>/dev/null | head -n1 | cut -d: -f1)
  [ -n "$pkg" ] || fail "no installed package holds $soname, which dmltensor needs"
  grep -qE "(^|, )$pkg( |,|\$)" <<<"$depends" || fail "Depends ($depends) lacks $pkg ($soname)"
  echo "dmltensor needs $soname: $pkg is in Depends"
done
if nm -D --undefined-only "$tmp/deb/usr/bin/dmltensor" | has ' cJSON_'; then
  grep -q 'libcjson1' <<<"$depends" || fail "dmltensor calls cJSON but Depends ($depends) lacks libcjson1"
fi
echo "install: $(basename "$deb"), Depends: $depends"
echo "install: all checks passed"
