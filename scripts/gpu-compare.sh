#!/usr/bin/env bash
# Before/after in one GPU-server run: builds an earlier tree (BASE_SRC) and this tree with
# the same flags, then
#   1. interleaves `golightly-cli bench` runs of the two builds (A B A B A B) on CUDA and on
#      the CPU and prints the median cell-update rate of each with the copy bandwidth
#      measured in the same run, and the ratio new / old;
#   2. runs every example with both builds on both backends and compares the spectra and
#      monitor CSVs byte for byte (identical is the expectation of a refactoring).
# The new tree's build is left in $BUILD_DIR (default build-gpu), where scripts/gpu-check.sh
# finds it, so `gpu-compare.sh && gpu-check.sh --tests-only` builds once.
#
# Usage (repository root on the GPU server):
#   DEVDEPS=.devdeps BASE_SRC=/path/to/old/tree bash scripts/gpu-compare.sh [--reps N]
# COMPARE_BACKENDS (default "cuda cpu"): the backends of the bench cases and the examples'
# runs ("cuda" alone keeps a call short: the 3D examples take minutes on the CPU).
# COMPARE_CUDA=OFF builds both trees without CUDA (a CPU-only before/after on any machine,
# with COMPARE_BACKENDS=cpu). A case's polarization "-"
# leaves --polarization out (3D).
# COMPARE_CASES=quick: only the 2D float32 cases and the three 512^3 float32/float64/Au
# cases (a call with little device time left). COMPARE_TESTS=1: the new build's GPU test
# binary runs right after the builds (before the bench), its log in $LOG/gpu_tests.log.
# COMPARE_RUN_TIMEOUT (default 150 s) limits each example run; COMPARE_SKIP (default
# gold_nanosphere_bcalm_3d_fine, minutes per run) names examples left out.
# COMPARE_BENCH=0 skips the bench (a call that only compares the examples' CSVs);
# COMPARE_EXAMPLES (a space-separated list of names) limits the examples compared.
# Everything printed also goes to $LOG/summary.txt, so a call cut by a time limit keeps it.
# BASE_SRC can be made from a commit with `git archive COMMIT | tar -x -C DIR`.
set -uo pipefail
cd "$(dirname "$0")/.."
DEVDEPS=${DEVDEPS:-$PWD/.devdeps}
. scripts/gpu-devdeps-json.sh
gpu_devdeps_json "$DEVDEPS"
LOG=${LOG_DIR:-${OUT:-$PWD/gpu-check-out}}   # many files: set LOG_DIR to keep them out of a small $OUT
BUILD=${BUILD_DIR:-build-gpu}
BASE_BUILD=${BASE_BUILD_DIR:-build-gpu-base}
REPS=3
[ "${1:-}" = "--reps" ] && REPS=$2
[ -n "${BASE_SRC:-}" ] && [ -d "$BASE_SRC" ] || { echo "BASE_SRC: no such tree"; exit 1; }
mkdir -p "$LOG"
exec > >(tee -a "$LOG/summary.txt") 2>&1
LIB=$DEVDEPS/usr/lib/x86_64-linux-gnu
t0=$(date +%s)
# Harminv from DEVDEPS needs LAPACK, BLAS and gfortran from Debian's alternatives folders at
# link and run time (as in gpu-check.sh)
HARMINV_ARGS=()
if [ -f "$DEVDEPS/usr/lib/libharminv.so" ]; then
  deps="$LIB/lapack:$LIB/blas:$LIB"
  export LD_LIBRARY_PATH="$DEVDEPS/usr/lib:$deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  HARMINV_ARGS=(-DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$deps")
fi
configure() {  # src build
  cmake -S "$1" -B "$2" -G Ninja -DGOLIGHTLY_GUI=OFF -DCMAKE_BUILD_TYPE=Release -DGOLIGHTLY_CUDA=${COMPARE_CUDA:-ON} "${HARMINV_ARGS[@]}" \
    -DCMAKE_PREFIX_PATH="$DEVDEPS/usr" -DCMAKE_INCLUDE_PATH="$DEVDEPS/usr/include" \
    -DPNG_LIBRARY="$LIB/libpng16.a" -DPNG_PNG_INCLUDE_DIR="$DEVDEPS/usr/include" \
    -DZLIB_LIBRARY="$LIB/libz.a" -DZLIB_INCLUDE_DIR="$DEVDEPS/usr/include"
}
echo "== build old ($BASE_SRC) and new, in parallel"
( configure "$BASE_SRC" "$BASE_BUILD" && ninja -C "$BASE_BUILD" golightly-cli ) > "$LOG/build_base.log" 2>&1 &
pid=$!
new_targets=(golightly-cli); [ "${COMPARE_CUDA:-ON}" = ON ] && new_targets+=(golightly_gpu_tests)
( configure . "$BUILD" && ninja -C "$BUILD" "${new_targets[@]}" ) > "$LOG/build_new.log" 2>&1
rc_new=$?
wait $pid; rc_old=$?
echo "build: old rc=$rc_old new rc=$rc_new ($(( $(date +%s) - t0 )) s)"
[ $rc_old = 0 ] && [ $rc_new = 0 ] || { tail -30 "$LOG/build_base.log" "$LOG/build_new.log"; exit 1; }
OLD=$BASE_BUILD/solver/golightly-cli
NEW=$BUILD/solver/golightly-cli

echo "== bench, interleaved old/new, $REPS rounds"
: > "$LOG/compare.jsonl"
cases=(
  "cuda 8192,8192 400 float32 TMz"
  "cuda 8192,8192 400 float32 TEz"
  "cuda 1024,1024 20000 float32 TMz"
  "cuda 8192,8192 200 float64 TMz"
  "cuda 8192,8192 200 float32 TMz --dispersive-material Au --dispersive-fraction 0.1"
  "cuda 512,512,512 400 float32 - --dims 3"
  "cuda 512,512,512 200 float32 - --dims 3 --dispersive-material Au --dispersive-fraction 0.1"
  "cpu 4096,4096 100 float32 TMz"
  "cpu 4096,4096 100 float32 TEz"
  "cpu 4096,4096 40 float32 TMz --dispersive-material Au --dispersive-fraction 0.1"
  "cpu 256,256,256 20 float32 - --dims 3"
)
if [ "${COMPARE_CASES:-}" = quick ]; then
  cases=(
    "cuda 8192,8192 400 float32 TMz"
    "cuda 8192,8192 400 float32 TEz"
    "cuda 512,512,512 400 float32 - --dims 3"
    "cuda 512,512,512 200 float64 - --dims 3"
    "cuda 512,512,512 200 float32 - --dims 3 --dispersive-material Au --dispersive-fraction 0.1"
  )
fi
if [ "${COMPARE_TESTS:-0}" = 1 ]; then
  echo "== GPU tests (new build)"
  if "$BUILD/tests/golightly_gpu_tests" --durations yes > "$LOG/gpu_tests.log" 2>&1; then echo "GPU tests: PASS"; else echo "GPU tests: FAIL"; fi
  grep -E "^(All tests|test cases|assertions)|FAILED|with expansion" "$LOG/gpu_tests.log" | head -30
fi
[ "${COMPARE_BENCH:-1}" = 0 ] && REPS=0
for r in $(seq "$REPS"); do
  for c in "${cases[@]}"; do
    set -- $c
    [[ " ${COMPARE_BACKENDS:-cuda cpu} " == *" $1 "* ]] || continue
    for which in old new; do
      bin=$OLD; [ $which = new ] && bin=$NEW
      pol=(--polarization "$5"); [ "$5" = - ] && pol=()
      out=$("$bin" bench --backend "$1" --size "$2" --steps "$3" --precision "$4" "${pol[@]}" "${@:6}" --json 2>&1 | tail -1)
      echo "{\"which\": \"$which\", \"case\": \"$c\", \"r\": $out}" >> "$LOG/compare.jsonl"
    done
  done
done
[ "$REPS" -gt 0 ] && python3 - "$LOG/compare.jsonl" <<'PY'
import json, sys, statistics as st
rows = {}
for line in open(sys.argv[1]):
    try: d = json.loads(line)
    except Exception: print("  (unparsed) " + line[:140].strip()); continue
    rows.setdefault(d["case"], {}).setdefault(d["which"], []).append(d["r"])
print(f"{'case':<72} {'old Gcell/s':>11} {'new Gcell/s':>11} {'new/old':>7} {'copy GB/s':>9} {'frac new':>8}")
dev = ""
for case, w in rows.items():
    o = [r["cells_per_s"] for r in w.get("old", [])]; n = [r["cells_per_s"] for r in w.get("new", [])]
    if not o or not n: continue
    mo, mn = st.median(o), st.median(n)
    last = w["new"][-1]; dev = last.get("device", dev)
    print(f"{case:<72} {mo/1e9:11.3f} {mn/1e9:11.3f} {mn/mo:7.3f} {last['copy_bandwidth_gbs']:9.0f} {last['fraction_of_copy']:8.2f}")
print("device:", dev)
PY

echo "== examples: old vs new spectra, byte for byte"
# A run that is not byte-identical is repeated with the old build: the old/old difference is
# the run-to-run rounding (CUDA sources and TF/SF cells add with atomics, so the order of
# additions into one cell varies), the old/new difference must not exceed it by much.
RUN_LIMIT=${COMPARE_RUN_TIMEOUT:-150}
SKIP=${COMPARE_SKIP-gold_nanosphere_bcalm_3d_fine}
for ex in examples/*.glproj; do
  name=$(basename "$ex" .glproj)
  if [ -n "${COMPARE_EXAMPLES:-}" ] && ! [[ " $COMPARE_EXAMPLES " == *" $name "* ]]; then continue; fi
  if [[ " $SKIP " == *" $name "* ]]; then echo "example $name: skipped (COMPARE_SKIP)"; continue; fi
  te=$(date +%s)
  "$NEW" check "$ex" > /dev/null 2>&1 || { echo "example $name: skipped (check fails here, e.g. no OpenCASCADE)"; continue; }
  for be in ${COMPARE_BACKENDS:-cuda cpu}; do
    o=$LOG/cmp_old_${be}_$name n=$LOG/cmp_new_${be}_$name
    timeout "$RUN_LIMIT" "$OLD" run "$ex" --backend $be --out "$o" > /dev/null 2>&1; a=$?
    timeout "$RUN_LIMIT" "$NEW" run "$ex" --backend $be --out "$n" > /dev/null 2>&1; b=$?
    same=0; differ=0
    for f in $(cd "$o" 2>/dev/null && find . -name '*.csv'); do
      if cmp -s "$o/$f" "$n/$f"; then same=$((same+1)); else differ=$((differ+1)); fi
    done
    msg="example $name ($be): rc old $a new $b, CSVs identical $same, different $differ"
    if [ $differ -gt 0 ] && [ $a = 0 ]; then
      timeout "$RUN_LIMIT" "$OLD" run "$ex" --backend $be --out "${o}_again" > /dev/null 2>&1
      msg="$msg; old/old: $(python3 scripts/csv-maxdiff.py "$o" "${o}_again"); old/new: $(python3 scripts/csv-maxdiff.py "$o" "$n")"
    fi
    echo "$msg ($(( $(date +%s) - te )) s)"
  done
done
echo "gpu-compare done ($(( $(date +%s) - t0 )) s)"
