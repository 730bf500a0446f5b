#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds everything and runs all tests.
# This is the README's test command; .ci/run calls exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-deps.sh
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$jobs"
# GPU tests report SKIPPED where no CUDA device is present.
ctest --test-dir build --output-on-failure -j"$jobs" --timeout 1800
