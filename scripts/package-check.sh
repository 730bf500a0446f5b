#!/usr/bin/env bash
# The installed package, as a user gets it, without installing it (no root, no apt): builds
# the .deb with cpack from an existing build, unpacks it with `dpkg-deb -x` into a
# temporary root, makes that tree read-only and runs from there:
#   - the installed golightly-cli on an installed example (results into a temporary
#     folder), checking the spectra; and its installed material library;
#   - the user guide and every picture it shows are in the package (the IDE renders them:
#     Help > User Guide);
#   - the installed IDE headless (QT_QPA_PLATFORM=offscreen, `golightly --screenshot`) on an
#     installed example, when the package has the IDE.
# scripts/test.sh runs it as its "package" stage (CI); it takes well under a minute.
# Usage: scripts/package-check.sh [BUILD_DIR]     (default: build)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
tmp=$(mktemp -d)
cleanup() { chmod -R u+w "$tmp" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "package-check: FAIL: $*" >&2; exit 1; }
say() { echo "package-check: $*"; }
t0=$(date +%s)

(cd "$build" && cpack -G DEB -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1) || { tail -40 "$tmp/cpack.log"; fail "cpack -G DEB failed in $build"; }
deb=$(ls "$tmp"/pkg/golightly_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { tail -40 "$tmp/cpack.log"; fail "cpack made no golightly_*.deb"; }
say "$(basename "$deb") ($(du -h "$deb" | cut -f1)) built in $(( $(date +%s) - t0 )) s"

root="$tmp/root"
dpkg-deb -x "$deb" "$root"
usr="$root/usr"
for f in bin/golightly-cli share/golightly/examples/fresnel_slab.glproj share/doc/golightly/user-guide.md \
         share/doc/golightly/THIRD_PARTY_LICENSES.txt; do
  [ -e "$usr/$f" ] || fail "the package lacks /usr/$f"
done
# every picture the guide links (relative to the guide) is installed next to it
pictures=0
while read -r rel; do
  [ -f "$usr/share/doc/golightly/$rel" ] || fail "the user guide shows $rel, which the package lacks (/usr/share/doc/golightly/$rel)"
  pictures=$((pictures + 1))
done < <(grep -o '](screenshots/[^)]*)' "$usr/share/doc/golightly/user-guide.md" | sed 's/^](//; s/)$//' | sort -u)
[ "$pictures" -gt 0 ] || fail "the installed user guide shows no pictures (docs/user-guide.md links screenshots/*.png)"
say "user guide and its $pictures pictures installed"

# as installed: nothing of the package is writable (a user's /usr; root ignores the mode,
# so the run below also names its --out folder outside the tree)
chmod -R a-w "$usr"
home="$tmp/home"; mkdir -p "$home"
cli="$usr/bin/golightly-cli"
"$cli" --version
t1=$(date +%s)
HOME="$home" "$cli" run "$usr/share/golightly/examples/fresnel_slab.glproj" --out "$tmp/out" --backend cpu \
  </dev/null >"$tmp/run.log" 2>&1 || { tail -30 "$tmp/run.log"; fail "the installed golightly-cli could not run the installed fresnel_slab example"; }
[ -s "$tmp/out/spectra.csv" ] && [ -s "$tmp/out/summary.json" ] || fail "no spectra.csv / summary.json in the --out folder"
# Fresnel at eps = 9: R = 0.25, T = 0.75 (first spectrum row; the example's own tolerance band)
awk -F, 'NR == 2 { ok = ($3 > 0.23 && $3 < 0.27 && $4 > 0.73 && $4 < 0.77) } END { exit ok ? 0 : 1 }' "$tmp/out/spectra.csv" \
  || { head -3 "$tmp/out/spectra.csv"; fail "spectra.csv of the installed run: R, T not near 0.25, 0.75"; }
[ ! -e "$usr/share/golightly/examples/fresnel_slab_results" ] || fail "the run wrote into the installed examples folder"
say "installed golightly-cli ran the installed fresnel_slab example in $(( $(date +%s) - t1 )) s (R, T = $(awk -F, 'NR == 2 { print $3 ", " $4 }' "$tmp/out/spectra.csv"))"
if [ -d "$usr/share/golightly/materials" ]; then
  HOME="$home" "$cli" materials >"$tmp/materials.log" 2>&1 || { cat "$tmp/materials.log"; fail "golightly-cli materials failed"; }
  grep -q "$usr/share/golightly/materials/library.json" "$tmp/materials.log" \
    || { head -5 "$tmp/materials.log"; fail "the installed golightly-cli does not read the installed material library"; }
  say "installed golightly-cli reads the installed material library"
fi

if [ -x "$usr/bin/golightly" ]; then
  t2=$(date +%s)
  # a home of its own: no recovery offers, no settings of the user's
  HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" XDG_RUNTIME_DIR="$tmp/xdg" \
    QT_QPA_PLATFORM=offscreen "$usr/bin/golightly" --screenshot "$tmp/ide.png" \
    "$usr/share/golightly/examples/quickstart.glproj" </dev/null >"$tmp/ide.log" 2>&1 \
    || { tail -20 "$tmp/ide.log"; fail "the installed IDE (golightly --screenshot, offscreen) failed on the installed quickstart example"; }
  [ -s "$tmp/ide.png" ] || fail "the installed IDE wrote no picture"
  say "installed IDE opened the installed quickstart example headless in $(( $(date +%s) - t2 )) s ($(du -h "$tmp/ide.png" | cut -f1) picture)"
fi
say "PASS in $(( $(date +%s) - t0 )) s"
