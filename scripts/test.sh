#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds everything and runs all tests.
# This is the README's test command; .ci/run calls exactly this.
# Prints the time of each stage at the end (also when a stage fails), so that CI's budget
# can be followed stage by stage.
set -euo pipefail
cd "$(dirname "$0")/.."
stages=()
stage_t0=$(date +%s)
stage_name=""
# stage NAME: ends the running stage (its time recorded) and starts NAME
stage() {
  local now; now=$(date +%s)
  [ -n "$stage_name" ] && stages+=("$(printf '%-10s %5d s' "$stage_name" $(( now - stage_t0 )))")
  stage_name=$1; stage_t0=$now
}
report() {
  local rc=$?
  stage ""
  [ "$rc" = 0 ] && echo "test.sh: stage times:" || echo "test.sh: stage times (failed, exit $rc):"
  printf '  %s\n' "${stages[@]}" "$(printf '%-10s %5d s' total $(( $(date +%s) - start )))"
}
trap report EXIT
start=$(date +%s)
stage deps
bash scripts/setup-deps.sh --with-sanitizers
jobs=$(nproc)
stage configure
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
stage build
cmake --build build -j"$jobs"
stage ctest
# GPU tests report SKIPPED where no CUDA device is present.
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 1800
# Issue 55: the .deb unpacked into a temporary root (dpkg-deb -x, read-only), its
# golightly-cli and IDE run headless on installed examples from there.
stage package
bash scripts/package-check.sh build
# Issue 19: the solver tests under ASan + UBSan (clang), then the fuzz targets from their
# seed corpus, a fixed seed and 45 s each (docs/hardening.md). GOLIGHTLY_SKIP_SANITIZE=1
# leaves this stage out (a quick local run).
if [ "${GOLIGHTLY_SKIP_SANITIZE:-0}" != 1 ]; then
  stage sanitize
  bash scripts/sanitize-fuzz.sh
fi
