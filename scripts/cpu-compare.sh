#!/usr/bin/env bash
# Before/after of a refactoring on the CPU, with two builds already made (no GPU needed):
#   1. runs each example with both golightly-cli builds on the CPU backend and compares every
#      CSV they write byte for byte (identical is the expectation of a refactoring);
#   2. interleaves `golightly-cli bench` runs of the two builds (old new old new ...) on 2D and
#      3D CPU grids and prints the median cell-update rate of each and the ratio new / old.
# scripts/gpu-compare.sh does the same with CUDA on a GPU server (and builds both trees).
#
# Usage: scripts/cpu-compare.sh OLD_CLI NEW_CLI [--reps N] [--max-steps N] [--bench-only|--examples-only]
#   OLD_CLI, NEW_CLI: the two golightly-cli binaries (e.g. a build of the base commit made
#   from `git worktree add DIR BASE`, and this tree's build/solver/golightly-cli).
#   --max-steps N: examples are run with `--max-steps N` (default 0: to their own stop);
#   the 3D examples named in SLOW_EXAMPLES (NAME=STEPS) always get their step limit, so
#   that the whole compare takes minutes on a laptop (gold_nanosphere_bcalm_3d_fine: 12 GB,
#   3 s a step on 2 cores). Results go to $LOG_DIR (default /tmp/cpu-compare).
#   BENCH_THREADS=N: bench with N threads (default 0: all cores; 1 is steadier on a busy machine).
set -uo pipefail
cd "$(dirname "$0")/.."
OLD=$1
NEW=$2
shift 2
REPS=3
MAX_STEPS=0
SLOW_EXAMPLES=${SLOW_EXAMPLES:-"dipole_ground_plane_3d=300 gold_nanosphere_3d=300 gold_nanosphere_bcalm_3d=300 gold_nanosphere_bcalm_3d_fine=20"}
DO_EXAMPLES=1
DO_BENCH=1
while [ $# -gt 0 ]; do
  case $1 in
    --reps) REPS=$2; shift 2 ;;
    --max-steps) MAX_STEPS=$2; shift 2 ;;
    --bench-only) DO_EXAMPLES=0; shift ;;
    --examples-only) DO_BENCH=0; shift ;;
    *) echo "unknown option $1"; exit 2 ;;
  esac
done
LOG=${LOG_DIR:-/tmp/cpu-compare}
mkdir -p "$LOG"
fail=0

if [ $DO_EXAMPLES = 1 ]; then
  echo "== examples: old vs new CSVs on the CPU, byte for byte"
  for ex in examples/*.glproj; do
    name=$(basename "$ex" .glproj)
    "$NEW" check "$ex" > /dev/null 2>&1 || { echo "example $name: not compared (check fails here, e.g. no OpenCASCADE)"; continue; }
    steps=$MAX_STEPS
    for e in $SLOW_EXAMPLES; do [ "${e%%=*}" = "$name" ] && steps=${e#*=}; done
    opt=()
    [ "$steps" -gt 0 ] && opt=(--max-steps "$steps")
    rm -rf "$LOG/old_$name" "$LOG/new_$name"
    "$OLD" run "$ex" --backend cpu "${opt[@]}" --out "$LOG/old_$name" > "$LOG/old_$name.log" 2>&1; a=$?
    "$NEW" run "$ex" --backend cpu "${opt[@]}" --out "$LOG/new_$name" > "$LOG/new_$name.log" 2>&1; b=$?
    same=0; differ=0; missing=0
    for f in $(cd "$LOG/old_$name" 2>/dev/null && find . -name '*.csv' | sort); do
      if [ ! -f "$LOG/new_$name/$f" ]; then missing=$((missing + 1))
      elif cmp -s "$LOG/old_$name/$f" "$LOG/new_$name/$f"; then same=$((same + 1))
      else differ=$((differ + 1)); echo "  differs: $name/$f"; fi
    done
    extra=$(cd "$LOG/new_$name" 2>/dev/null && find . -name '*.csv' | while read -r f; do [ -f "$LOG/old_$name/$f" ] || echo "$f"; done | wc -l)
    echo "example $name${opt[*]:+ (${opt[*]})}: rc old $a new $b, CSVs identical $same, different $differ, only old $missing, only new $extra"
    { [ $a = $b ] && [ $differ = 0 ] && [ $missing = 0 ] && [ "$extra" = 0 ] && [ $same -gt 0 ]; } || fail=1
  done
fi

if [ $DO_BENCH = 1 ]; then
  echo "== bench on the CPU, interleaved old/new, $REPS rounds"
  : > "$LOG/bench.jsonl"
  cases=(
    "--dims 2 --size 2048,2048 --steps 100 --precision float32 --polarization TMz"
    "--dims 2 --size 2048,2048 --steps 100 --precision float32 --polarization TEz"
    "--dims 3 --size 160,160,160 --steps 20 --precision float32"
  )
  for r in $(seq "$REPS"); do
    for c in "${cases[@]}"; do
      for which in old new; do
        bin=$OLD; [ $which = new ] && bin=$NEW
        # shellcheck disable=SC2086
        out=$("$bin" bench --backend cpu $c --threads "${BENCH_THREADS:-0}" --json 2>&1 | tail -1)
        echo "{\"which\": \"$which\", \"case\": \"$c\", \"r\": $out}" >> "$LOG/bench.jsonl"
      done
    done
  done
  python3 - "$LOG/bench.jsonl" <<'PY'
import json, sys, statistics as st
rows = {}
for line in open(sys.argv[1]):
    try: d = json.loads(line)
    except Exception: print("  (unparsed) " + line[:160].strip()); continue
    rows.setdefault(d["case"], {}).setdefault(d["which"], []).append(d["r"]["cells_per_s"])
print(f"{'case':<78} {'old Mcell/s':>11} {'new Mcell/s':>11} {'new/old':>7}  runs old / new")
for case, w in rows.items():
    o, n = w.get("old", []), w.get("new", [])
    if not o or not n: continue
    print(f"{case:<78} {st.median(o)/1e6:11.1f} {st.median(n)/1e6:11.1f} {st.median(n)/st.median(o):7.3f}  "
          + " ".join(f"{x/1e6:.0f}" for x in o) + " / " + " ".join(f"{x/1e6:.0f}" for x in n))
PY
fi
exit $fail
