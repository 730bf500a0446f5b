#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and runs the bundled example.
# With a display and the IDE built, it opens the IDE on the example and starts a run
# (golightly --run); without a display
# (or before the IDE exists) it runs the example headless with golightly-cli and writes
# the results outside the source tree's examples: results/<name>/ (git-ignored) unless
# --out is given, so that running it leaves the working tree clean.
# Usage: scripts/run-example.sh [PROJECT] [golightly-cli run options...]
set -euo pipefail
cd "$(dirname "$0")/.."
project=${1:-examples/quickstart.glproj}
shift || true
bash scripts/setup-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
# Only what it runs: the IDE (when the GUI is configured) and golightly-cli, not the tests
# and GPU probes of a full build (`cmake --build build` or scripts/test.sh build those).
targets=(golightly-cli)
grep -q '^GOLIGHTLY_GUI:BOOL=ON' build/CMakeCache.txt && targets+=(golightly)
cmake --build build -j"$(nproc)" --target "${targets[@]}"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/app/golightly ]; then
  exec build/app/golightly --run "$project"
fi
echo "run-example: no display (or no IDE build): running $project headless with golightly-cli" >&2
out="results/$(basename "${project%.glproj}")"
for arg in "$@"; do
  if [ "$arg" = "--out" ] || [ "${arg#--out=}" != "$arg" ]; then out=""; fi
done
if [ -n "$out" ]; then
  build/solver/golightly-cli run "$project" --out "$out" "$@"
else
  build/solver/golightly-cli run "$project" "$@"
  out="(the --out folder)"
fi
echo "run-example: results in $out (spectra.csv, summary.json, monitors/, fields/)" >&2
