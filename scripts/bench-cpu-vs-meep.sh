#!/usr/bin/env bash
# Side-by-side CPU speed: golightly-cli bench (CPU backend) and the same problem in Meep
# (scripts/bench-meep.py), interleaved ROUNDS times on this machine; prints each run and
# the medians. Usage: scripts/bench-cpu-vs-meep.sh [BUILD_DIR] [SIZE] [STEPS] [ROUNDS]
# SIZE is NX,NY (2D, TMz) or NX,NY,NZ (3D), e.g. 128,128,128 for the 3D figure.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}; size=${2:-2048,2048}; steps=${3:-200}; rounds=${4:-3}
cli="$build/solver/golightly-cli"
dims=$(awk -F, '{print NF}' <<<"$size")
gl=(); mp=()
for r in $(seq "$rounds"); do
  g=$("$cli" bench --backend cpu --dims "$dims" --size "$size" --steps "$steps" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["cells_per_s"])')
  m=$(/usr/bin/python3 scripts/bench-meep.py --size "$size" --steps "$steps" 2>/dev/null | grep '"backend"' | python3 -c 'import json,sys; print(json.load(sys.stdin)["cells_per_s"])')
  echo "round $r: golightly cpu $(python3 -c "print(f'{$g/1e6:.0f}')") Mcells/s, meep $(python3 -c "print(f'{$m/1e6:.0f}')") Mcells/s"
  gl+=("$g"); mp+=("$m")
done
python3 - "${gl[*]}" "${mp[*]}" <<'PY'
import statistics, sys
g = [float(v) for v in sys.argv[1].split()]; m = [float(v) for v in sys.argv[2].split()]
gm, mm = statistics.median(g), statistics.median(m)
print(f"median: golightly cpu {gm/1e6:.0f} Mcells/s, meep {mm/1e6:.0f} Mcells/s, ratio {gm/mm:.2f}x")
PY
