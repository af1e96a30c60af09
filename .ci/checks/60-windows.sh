#!/usr/bin/env bash
# Windows x64, cross-built with MinGW-w64 and run under Wine (docs/install.md,
# "Windows"). No Windows machine and no download but Debian's:
#  1. cJSON for Windows, built from Debian's own source package (apt-get
#     source cjson, with a deb-src entry for the archive apt already uses),
#     static, into build-win-deps/cjson;
#  2. dmltensor cross-built into build-win/ (preset mingw: the toolchain
#     file cmake/mingw-w64.cmake, warnings as errors);
#  3. its ctest suite under Wine (CMAKE_CROSSCOMPILING_EMULATOR): every unit
#     test, every golden CLI case with the same expected bytes as on Linux,
#     the Windows-only cases (tests/cli/windows/), and the Python property
#     checks driving dmltensor.exe (those named in tests/CMakeLists.txt);
#     then nodes, scan and plan on a set of models, byte for byte what the
#     Linux build prints (tests/cli/check_same_answer.py);
#  4. the zip (cpack -G ZIP): its files, the exe's imports (Windows' own DLLs
#     only), and the README example run from the unpacked zip, byte for byte
#     what the Linux build prints.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
start=$(date +%s)

. .ci/lib.sh
want gcc-mingw-w64-x86-64 x86_64-w64-mingw32-gcc
want wine64
want dpkg-dev dpkg-source
want mandoc mandoc # the man page as HTML in the zip
install_wanted 60-windows

fail() {
  echo "windows: FAIL: $*" >&2
  exit 1
}

# --- 1. cJSON for the target, from Debian's source --------------------------
deps=$root/build-win-deps
if [ ! -f "$deps/cjson/lib/cmake/cJSON/cJSONConfig.cmake" ]; then
  rm -rf "$deps/src" "$deps/cjson-build"
  mkdir -p "$deps/src"
  if ! (cd "$deps/src" && apt-get source -qq cjson >/dev/null 2>&1); then
    # No deb-src entry yet: one for the archive the machine's deb entry
    # names (deb822 or one-line form), then try again.
    list=/etc/apt/sources.list.d/dmltensor-deb-src.sources
    uri=$(grep -h -m1 -E '^URIs: .*debian' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' || true)
    suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
    [ -n "$uri" ] || uri=http://deb.debian.org/debian
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$uri" "$suite" >"$list"
    echo "windows: added $list ($uri $suite)" >&2
    apt-get update -qq
    (cd "$deps/src" && apt-get source -qq cjson >/dev/null 2>&1) || fail "apt-get source cjson"
  fi
  src=$(find "$deps/src" -maxdepth 1 -type d -name 'cjson-*' | head -n 1)
  [ -n "$src" ] || fail "no cjson-* source directory after apt-get source"
  echo "--- cJSON from $(basename "$src") (Debian's source, patches applied), static, for Windows"
  cmake -S "$src" -B "$deps/cjson-build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64.cmake" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$deps/cjson" -DBUILD_SHARED_LIBS=OFF \
    -DENABLE_CJSON_TEST=OFF -DENABLE_PUBLIC_SYMBOLS=OFF -DENABLE_HIDDEN_SYMBOLS=ON \
    -DENABLE_CUSTOM_COMPILER_FLAGS=OFF >/dev/null
  cmake --build "$deps/cjson-build" -j2 >/dev/null
  cmake --install "$deps/cjson-build" >/dev/null
fi

# --- 2. dmltensor for Windows -------------------------------------------------
echo "--- cross build into build-win/ (preset mingw)"
cmake --preset mingw >/dev/null
cmake --build --preset mingw
exe=$root/build-win/dmltensor.exe
imports=$(x86_64-w64-mingw32-objdump -p "$exe" | awk '/DLL Name:/ {print $3}' | sort -u | tr '\n' ' ')
echo "dmltensor.exe imports: $imports"
for dll in $imports; do
  case "$(echo "$dll" | tr '[:upper:]' '[:lower:]')" in
    kernel32.dll | msvcrt.dll | shell32.dll | ucrtbase.dll | api-ms-win-*) ;;
    *) fail "dmltensor.exe needs $dll, which Windows does not ship" ;;
  esac
done

# --- 3. the tests under Wine ----------------------------------------------------
export WINEDEBUG=-all                 # Wine's own notes would land in stderr goldens
export WINEDLLOVERRIDES="mscoree,mshtml=" # no Mono or Gecko prompt while the prefix is made
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
# One wineserver for the whole check, persistent, and Wine's services
# (services.exe, winedevice.exe, rpcss.exe...) started by a first run with
# its output to /dev/null. Otherwise the first test's wine starts them,
# they keep that test's stdout pipe open as long as they live, and the test
# waits for all the others (cli/scan_onnx_shape, a 0.2 s golden case, took
# 247 s; with only the server persistent, for ever).
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
"$wineserver" -k >/dev/null 2>&1 || true
"$wineserver" -p </dev/null >/dev/null 2>&1
"$wine" "$exe" --version </dev/null >/dev/null 2>&1 || true # makes the Wine prefix too
trap '"$wineserver" -k >/dev/null 2>&1 || true' EXIT
t0=$(date +%s)
ctest --preset mingw -LE once
t1=$(date +%s)
echo "windows: ctest under Wine took $((t1 - t0)) s"

# --- 3b. the same answer as Linux's, model by model ------------------------------
# nodes (every node's placement), scan (each record's placement and sizes)
# and plan --device dml on the test models and every 80th model of
# libonnx-testdata: the Windows build under Wine and the Linux build
# (build/dmltensor, the README's) must print the same bytes.
echo "--- nodes, scan and plan: dmltensor.exe under Wine against build/dmltensor"
[ -x build/dmltensor ] || fail "no build/dmltensor (the Linux build) to compare with"
t0=$(date +%s)
python3 tests/cli/check_same_answer.py "$wine $exe" build/dmltensor \
  --corpus /usr/share/libonnx-testdata --every 80 tests/cli/data/onnx/*.onnx ||
  fail "dmltensor.exe answers otherwise than the Linux build (above)"
echo "windows: the same-answer check took $(($(date +%s) - t0)) s"

# --- 4. the zip ------------------------------------------------------------------
echo "--- cpack -G ZIP"
(cd build-win && cpack -G ZIP >/dev/null)
zip=$(ls build-win/packages/dmltensor-*-win64.zip)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; "$wineserver" -k >/dev/null 2>&1 || true' EXIT
(cd "$tmp" && cmake -E tar xf "$root/$zip")
top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d)
echo "$zip:"
(cd "$top" && find . -type f | sort | sed 's/^/  /')
for f in bin/dmltensor.exe include/dmltensor.h lib/libdmltensor.a lib/libdmltensor.dll.a \
  bin/libdmltensor.dll lib/cmake/dmltensor/dmltensorConfig.cmake \
  share/doc/dmltensor/dmltensor.html README.md LICENSE; do
  [ -f "$top/$f" ] || fail "the zip has no $f"
done
grep -q '__int128' "$top/include/dmltensor.h" && fail "the installed header mentions __int128"
# The README example from the unpacked zip: the same bytes as on Linux.
cmd=$(grep -m1 -E '^sh \.ci/setup\.sh && build/dmltensor ' README.md)
args=${cmd#*build/dmltensor }
# shellcheck disable=SC2086 # the README's words
"$wine" "$top/bin/dmltensor.exe" $args >"$tmp/win.txt"
# shellcheck disable=SC2086
build/dmltensor $args >"$tmp/linux.txt"
cmp "$tmp/win.txt" "$tmp/linux.txt" || fail "the zip's dmltensor.exe prints other bytes than Linux's"
cat "$tmp/win.txt"
echo "windows: all passed in $(($(date +%s) - start)) s"
