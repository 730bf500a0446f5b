#!/usr/bin/env bash
# Builds the Debian package with cpack from an existing build, checks its contents and
# control fields, and - as root with apt - installs it, runs an installed example with
# golightly-cli in a clean directory, checks the results and removes the package.
# Without root/apt the install step is skipped: exit 77 (SKIPPED in CTest).
# Usage: test_deb.sh BUILD_DIR VERSION
set -euo pipefail
build=$1; version=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

echo "== cpack"
(cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) || { cat "$tmp/cpack.log"; fail "cpack failed"; }
deb=$(ls "$tmp"/pkg/golightly_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { cat "$tmp/cpack.log"; fail "no golightly_*.deb produced"; }
arch=$(dpkg --print-architecture)
[ "$(basename "$deb")" = "golightly_${version}_${arch}.deb" ] || fail "unexpected name $(basename "$deb")"
echo "$(basename "$deb"): $(du -h "$deb" | cut -f1)"

echo "== control"
dpkg-deb -f "$deb" Package Version Architecture Depends Recommends
depends=$(dpkg-deb -f "$deb" Depends)
[ -n "$depends" ] || fail "the package declares no dependencies"
for lib in libc6 libstdc++6 libpng16-16; do
  echo "$depends" | grep -q "$lib" || fail "Depends lacks $lib"
done
if echo "$depends" | grep -qi 'cuda\|cudart\|nvidia'; then fail "Depends names the CUDA runtime (it must be linked statically)"; fi

echo "== contents"
dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|' >"$tmp/contents"
need=(/usr/bin/golightly-cli /usr/share/golightly/examples/fresnel_slab.glproj
      /usr/share/golightly/examples/quickstart.glproj /usr/share/doc/golightly/THIRD_PARTY_LICENSES.txt
      /usr/share/doc/golightly/user-guide.md /usr/share/doc/golightly/screenshots/start-page.png)
if grep -q '^/usr/bin/golightly$' "$tmp/contents" || [ -f "$build/app/golightly" ]; then
  need+=(/usr/bin/golightly /usr/share/applications/golightly.desktop /usr/share/mime/packages/golightly.xml
         /usr/share/icons/hicolor/scalable/apps/golightly.svg)
  for s in 16 22 24 32 48 64 128 256; do need+=(/usr/share/icons/hicolor/${s}x${s}/apps/golightly.png); done
fi
[ -f "$src/resources/materials/library.json" ] && need+=(/usr/share/golightly/materials/library.json)
[ -f "$src/examples/step_ring.step" ] && need+=(/usr/share/golightly/examples/step_ring.step)
for f in "${need[@]}"; do grep -qx "$f" "$tmp/contents" || fail "package lacks $f"; done
echo "all ${#need[@]} expected files present ($(wc -l <"$tmp/contents") entries)"

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
  echo "SKIP: install test needs root and apt-get"; exit 77
fi
if dpkg -s golightly >/dev/null 2>&1; then
  echo "SKIP: a golightly package is already installed here; not touching it"; exit 77
fi

echo "== apt-get install"
cp "$deb" "$tmp/clean/" 2>/dev/null || { mkdir -p "$tmp/clean"; cp "$deb" "$tmp/clean/"; }
cd "$tmp/clean"
export DEBIAN_FRONTEND=noninteractive
cleanup() { apt-get remove -y -qq golightly >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
if ! apt-get install -y -qq --no-install-recommends ./golightly_*.deb >"$tmp/apt.log" 2>&1; then
  apt-get update -qq >/dev/null 2>&1 || true
  apt-get install -y -qq --no-install-recommends ./golightly_*.deb >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; fail "apt-get install failed"; }
fi
dpkg -s golightly | grep -E '^(Status|Version):'
/usr/bin/golightly-cli --version
if [ -x /usr/bin/golightly ]; then /usr/bin/golightly --version; fi

echo "== golightly-cli run (installed example)"
start=$(date +%s)
/usr/bin/golightly-cli run /usr/share/golightly/examples/fresnel_slab.glproj --out "$tmp/clean/out" --backend auto \
  </dev/null 2>"$tmp/run.log" || { cat "$tmp/run.log"; fail "golightly-cli run failed"; }
echo "ran in $(( $(date +%s) - start )) s"
[ -s out/spectra.csv ] || fail "no spectra.csv"
[ -s out/summary.json ] || fail "no summary.json"
head -c 400 out/summary.json; echo
head -3 out/spectra.csv
# Fresnel at eps = 9: R = 0.25, T = 0.75 (first spectrum row)
awk -F, 'NR == 2 { ok = ($3 > 0.23 && $3 < 0.27 && $4 > 0.73 && $4 < 0.77) } END { exit ok ? 0 : 1 }' out/spectra.csv \
  || fail "spectra.csv: R, T not near 0.25, 0.75"
if [ -f "$src/resources/materials/library.json" ]; then
  echo "== golightly-cli materials (installed library)"
  /usr/bin/golightly-cli materials >"$tmp/materials.log" 2>&1 || { cat "$tmp/materials.log"; fail "golightly-cli materials failed"; }
  head -3 "$tmp/materials.log"
  grep -q /usr/share/golightly/materials/library.json "$tmp/materials.log" || fail "golightly-cli does not find the installed material library"
fi

echo "== apt-get remove"
apt-get remove -y -qq golightly >/dev/null
! dpkg -s golightly 2>/dev/null | grep -q 'install ok installed' || fail "package still installed"
[ ! -e /usr/bin/golightly-cli ] || fail "/usr/bin/golightly-cli left behind"
echo "PASS"
