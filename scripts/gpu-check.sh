#!/usr/bin/env bash
# The one GPU check: configure + build (ninja), GPU tests, compute-sanitizer memcheck and
# racecheck on a subset of the GPU tests ([sanitize]: the bulk, graph, dispersive, tensor-coupling, live-edit, frame and out-of-memory cases), the benchmarks, and a short table printed LAST.
#
# Usage (repository root on the GPU server):
#   DEVDEPS=/path/to/.devdeps bash scripts/gpu-check.sh [--no-sanitize] [--bench-only] [--tests-only] [--no-bench] [--ncu]
#                                                       [--scaling] [--build-only] [--mpi] [--sanitize3d] [--no-examples]
#                                                       [--concurrent] [--inverse-design] [--inverse-converter]
#                                                       [--inverse-converter-ls] [--inverse-bend3d] [--cpu-studies]
# --inverse-design (issue 53): only the inverse-design benchmark, the hidden GPU test
# [bend10]: the 2D waveguide bend at 10 nm optimized with adjoint gradients in 100 MMA
# iterations (about 320 s on an H200), its iterations, wall time per iteration and the
# binarized design's T, R and length scales; needs NLopt in DEVDEPS (libnlopt-dev libnlopt0).
# --inverse-converter: the same for the TE0 -> TE1 mode converter ([converter10]); one per
# call keeps a call under the device's 10 minutes. --inverse-converter-ls: the converter with
# the 80 nm length scale constraints ([converter10ls]). --inverse-bend3d: the 3D SOI strip
# bend at 20 nm ([bend3d], tests/gpu/cuda_adjoint_bend3d.cpp; about 15 min on an H100, so it
# pauses after BEND3D_STOP_AFTER_S (400) s with its checkpoint in $LOG/bend3d-checkpoint.json:
# a paused call reports FAIL; pass that file back as BEND3D_CHECKPOINT=FILE to go on).
# --cpu-studies (issue 55): only the CPU test cases tagged [cpu_study] (golightly_solver_tests,
# hidden from CI: studies that take minutes on CI's 2 cores; docs/hardening.md lists them and
# the cheaper case of each that CI keeps), one process per case, CPU_STUDY_JOBS at a time
# (default: all at once; today they are single-threaded sparse eigen-solves), each
# case's verdict and wall time in the summary. The cases now need libspectra-dev in DEVDEPS.
# --concurrent: only the several-runs-on-one-GPU bench (16-design sweeps of a 1.3 M- and a
# 0.3 M-cell 2D bend and a 128^3 3D sphere, and the 4 port-mode runs of a 3D strip's
# S-parameters (CONCURRENT_SPARAMS; empty: none), one run at a time against --concurrent auto,
# interleaved; CONCURRENT_N, CONCURRENT_DESIGNS, CONCURRENT_PROJECTS).
# --no-examples leaves out the examples' CUDA-vs-CPU spectra (the CPU runs of the 3D examples
# take minutes). Every summary line also goes to $LOG/0-summary.txt as it is known (appended).
# --bench3d: only `golightly-cli bench --dims 3`, once per line of BENCH3D_CONFIGS (default: one
# empty line, the defaults), in that order; a line holds environment settings (NAME=value,
# e.g. GOLIGHTLY_CUDA3D_PSI_AHEAD=0) and the words AU (10 % gold), F64 (float64), S=n (n^3
# cells, default BENCH3D_SIZE or 512), G=nx,ny,nz (a grid that is not a cube), SYM=sx,sy,sz
# (`--symmetry`) and NOMON (`--no-monitors`); BENCH3D_STEPS (200) steps. One summary line per
# run: Gcells/s (whole domain and simulated), steps/s, fraction of copy, model bytes per cell,
# copy GB/s, kernel, device.
# --sanitize3d (issue 15): only compute-sanitizer memcheck and racecheck on every [cuda3d]
# GPU test, one process per case and tool (SANITIZE3D_CASE_SECONDS each, default 150; no case
# starts after a tool has used SANITIZE3D_SECONDS, default 270), each case's verdict listed
# (racecheck slows the kernels with shared memory: update_he3_tma, update_he3, the DFT sets).
# SANITIZE3D_TOOLS (default "memcheck racecheck") picks the tools; SANITIZE3D_FROM=N skips the
# first N cases (to go on where an earlier call ran out of time); SANITIZE3D_MATCH keeps the
# cases whose names match that extended regular expression; SANITIZE3D_JOBS runs that many
# cases at once (default 1; each is its own process on the same GPU).
# Under racecheck the tests run with GOLIGHTLY_TEST_STEP_DIVISOR=SANITIZE3D_RACE_STEP_DIVISOR
# (default 10): the distributed cases take a tenth of their steps (racecheck's host memory).
# --scaling (machines with several GPUs, issue 17): only the distributed GPU tests and the
# multi-device benches: strong scaling at 768^3 (1, 2 GPUs) and 1024^3 (1, 2, 4 GPUs when
# there are 4), weak scaling at 512^3 per GPU; at 768^3 the slabs' two steps per pass against
# GOLIGHTLY_DIST_TWO_STEP=0 (one step per pass), and on a machine of one GPU two slabs on it
# (bench --same-device); a scaling table is printed last (its "pass" column: steps per pass).
# --mpi (issue 18; on one GPU both ranks share it and the one-process run is unsplit): Open MPI from the Debian packages in $OMPI_DEBS
# (default .ompi/: openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libhwloc15
# libevent-core-2.1-7 libevent-pthreads-2.1-7 libevent-2.1-7 libmunge2, fetched with
# `apt-get download` where apt works), unpacked into /tmp; golightly-cli built with MPI in
# $BUILD-mpi; `mpirun -np 2` GPU ranks against the in-process `--devices 2` run of
# tests/data/mpi/mpi3d_gpu_bench.glproj (tests/mpi/mpi_run_test.sh compare: equal CSVs,
# both wall times and the Mcells/s of each), and the same for the far fields of
# tests/data/mpi/mpi3d_far_field.glproj (far_field/*.csv and `golightly-cli farfield`);
# then a Bloch phase along the cut axis (issue 51): mpirun -np 2 and 3 GPU ranks of
# tests/data/mpi/mpi{2d,3d}_bloch_cut.glproj against one CUDA engine (`--devices 1`), the
# wrap halos rotated on the device where they land (mpi_halo.cpp step 5; mode "events").
# --probes (issue 15): only the GPU probes of engine/cuda/probes: golightly-probe-l2-sides
# (which L2 partition each SM reads through) and golightly-probe-two-step-floor (the memory
# floor of a two-step pass for the tile shapes in PROBE_SHAPES, default the probe's own list;
# PROBE_SIZE cells per axis, default 512). One summary line per result.
# DEVDEPS: Debian packages unpacked by shared/device/prepare.sh (Catch2, nlohmann-json,
# Eigen, CLI11, libpng, zlib headers and static libraries; libspectra-dev too for the 2D
# mode solver, else the mode-source examples are skipped):
#   ../shared/device/prepare.sh catch2 nlohmann-json3-dev libcli11-dev libeigen3-dev \
#     libpng-dev libpng16-16 zlib1g-dev libspectra-dev \
#     libharminv-dev libharminv3 liblapack3 libblas3 libgfortran5 libquadmath0 \
#     libmuparser-dev libmuparser2v5 libnlopt-dev libnlopt0
# (harminv to libquadmath0: the resonance finder, whose GPU case fails without them;
# muparser: parameter expressions, which the --concurrent sweep and its GPU test use). Logs go to
# $OUT (if set) or ./gpu-check-out.
set -uo pipefail
cd "$(dirname "$0")/.."
DEVDEPS=${DEVDEPS:-$PWD/.devdeps}
. scripts/gpu-devdeps-json.sh
gpu_devdeps_json "$DEVDEPS"
LOG=${OUT:-$PWD/gpu-check-out}
BUILD=${BUILD_DIR:-build-gpu}
SANITIZE=1; TESTS=1; NCU=0; BENCH=1; SCALING=0; BUILD_ONLY=0; MPI_ONLY=0; SANITIZE3D=0; EXAMPLES=1; BENCH3D=0; PROBES=0
CONCURRENT=0; INVERSE=0; CPU_STUDIES=0
for a in "$@"; do
  case $a in
    --sanitize3d) SANITIZE3D=1; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --scaling) SCALING=1; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --build-only) BUILD_ONLY=1 ;;
    --mpi) MPI_ONLY=1; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --ncu) NCU=1 ;;
    --tests-only) SANITIZE=0; BENCH=0 ;;
    --no-bench) BENCH=0 ;;
    --no-examples) EXAMPLES=0 ;;
    --bench3d) BENCH3D=1; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --probes) PROBES=1; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --concurrent) CONCURRENT=1; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --inverse-design) INVERSE=1; INVERSE_CASE=bend10; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --inverse-converter) INVERSE=1; INVERSE_CASE=converter10; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --inverse-converter-ls) INVERSE=1; INVERSE_CASE=converter10ls; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --inverse-bend3d) INVERSE=1; INVERSE_CASE=bend3d; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --cpu-studies) CPU_STUDIES=1; SANITIZE=0; TESTS=0; BENCH=0 ;;
    --no-sanitize) SANITIZE=0 ;;
    --bench-only) SANITIZE=0; TESTS=0 ;;
  esac
done
mkdir -p "$LOG"
LIB=$DEVDEPS/usr/lib/x86_64-linux-gnu
summary=()
# Each summary line is also appended to $LOG/0-summary.txt as soon as it is known, so a call
# cut short by the device's time limit still brings back what finished (the name sorts first
# among the many logs). The file is appended to, never emptied: a wrapper script that writes
# its own lines there (and calls this script, even with --build-only) keeps them.
mkdir -p "$LOG"
echo "== gpu-check.sh $* ($(date -u +%FT%TZ))" >> "$LOG/0-summary.txt"
note() { summary+=("$1"); echo "$1" >> "$LOG/0-summary.txt"; }
t0=$(date +%s)

echo "== device"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv 2>&1 | tee "$LOG/device.txt"

# OpenGL for the CUDA-OpenGL interop check (tests/gl_interop): the GPU server has the NVIDIA
# driver's EGL/GL but no loaders or headers. Carry .gl/ (made once on a machine with apt,
# see docs/performance.md): runtime loaders unpack into / (the device README's way), the
# -dev packages (headers only) into $GLROOT.
GLROOT=${GLROOT:-/tmp/golightly-glroot}
GL_ARGS=()
if ls .gl/*.deb > /dev/null 2>&1; then
  mkdir -p "$GLROOT"
  for f in .gl/*.deb; do
    case $f in *-dev_*) dpkg -x "$f" "$GLROOT" ;; *) dpkg -x "$f" / ;; esac
  done
  ldconfig 2>/dev/null || true
  GL_ARGS=(-DGOLIGHTLY_GL_INCLUDE_DIR="$GLROOT/usr/include" -DGOLIGHTLY_EGL_INCLUDE_DIR="$GLROOT/usr/include")
  export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json}
  [ -f "$__EGL_VENDOR_LIBRARY_FILENAMES" ] || unset __EGL_VENDOR_LIBRARY_FILENAMES
fi

# Harminv from DEVDEPS: its shared library needs LAPACK, BLAS and gfortran, which Debian
# keeps in alternatives folders that dpkg -x does not link: name them to the linker and
# the loader.
HARMINV_ARGS=()
if [ -f "$DEVDEPS/usr/lib/libharminv.so" ]; then
  deps="$LIB/lapack:$LIB/blas:$LIB"
  export LD_LIBRARY_PATH="$DEVDEPS/usr/lib:$deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  HARMINV_ARGS=(-DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$deps")
fi

echo "== configure + build"
cmake -S . -B "$BUILD" -G Ninja -DGOLIGHTLY_GUI=OFF -DCMAKE_BUILD_TYPE=Release -DGOLIGHTLY_CUDA=ON "${GL_ARGS[@]}" "${HARMINV_ARGS[@]}" \
  -DCMAKE_PREFIX_PATH="$DEVDEPS/usr" -DCMAKE_INCLUDE_PATH="$DEVDEPS/usr/include" \
  -DPNG_LIBRARY="$LIB/libpng16.a" -DPNG_PNG_INCLUDE_DIR="$DEVDEPS/usr/include" \
  -DZLIB_LIBRARY="$LIB/libz.a" -DZLIB_INCLUDE_DIR="$DEVDEPS/usr/include" > "$LOG/configure.log" 2>&1 \
  || { tail -40 "$LOG/configure.log"; echo "CONFIGURE FAILED"; exit 1; }
if ! ninja -C "$BUILD" golightly_gpu_tests > "$LOG/build.log" 2>&1; then
  grep -E "error|Error" "$LOG/build.log" | head -40; echo "BUILD FAILED"; exit 1
fi
# golightly-cli bench (driver helper) when it builds; the GPU test binary's --bench otherwise.
ninja -C "$BUILD" golightly-cli >> "$LOG/build.log" 2>&1 || true
ninja -C "$BUILD" golightly_gl_interop_check >> "$LOG/build.log" 2>&1 || true
ninja -C "$BUILD" golightly-probe-l2-sides golightly-probe-two-step-floor >> "$LOG/build.log" 2>&1 || true
echo "build ok ($(( $(date +%s) - t0 )) s)"
[ $BUILD_ONLY = 1 ] && exit 0
T=$BUILD/tests/golightly_gpu_tests

if [ $CPU_STUDIES = 1 ]; then
  echo "== CPU studies hidden from CI ([cpu_study], golightly_solver_tests)"
  if ! ninja -C "$BUILD" golightly_solver_tests >> "$LOG/build.log" 2>&1; then
    grep -E "error|Error" "$LOG/build.log" | head -40; note "cpu studies: BUILD FAILED"; exit 1
  fi
  S=$BUILD/tests/golightly_solver_tests
  mapfile -t cases < <($S "[cpu_study]" --list-test-names-only 2>/dev/null | sed -e '/^$/d' -e 's/^ *//' || true)
  [ ${#cases[@]} -gt 0 ] || { note "cpu studies: no [cpu_study] case listed"; exit 1; }
  study() {  # index, name: its log, exit status and wall time under $LOG
    local esc s0
    esc=$(printf '%s' "$2" | sed 's/[][\\,*"~]/\\&/g')
    s0=$(date +%s)
    "$S" "$esc" --durations yes > "$LOG/cpu_study$1.log" 2>&1
    echo "$? $(( $(date +%s) - s0 ))" > "$LOG/cpu_study$1.rc"
  }
  for idx in "${!cases[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "${CPU_STUDY_JOBS:-${#cases[@]}}" ]; do wait -n; done
    study "$idx" "${cases[$idx]}" &
  done
  wait
  for idx in "${!cases[@]}"; do
    read -r rc secs < "$LOG/cpu_study$idx.rc"
    r=$([ "$rc" = 0 ] && echo PASS || echo "FAIL(rc=$rc)")
    grep -E "FAILED|with expansion" -A3 "$LOG/cpu_study$idx.log" | head -20
    note "cpu study: $r in $secs s: ${cases[$idx]}"
  done
  printf '%s\n' "${summary[@]}"
  exit 0
fi

if [ $TESTS = 1 ]; then
  echo "== GPU tests"
  if $T --durations yes > "$LOG/gpu_tests.log" 2>&1; then r=PASS; else r="FAIL(rc=$?)"; fi
  grep -E "passed|failed|FAILED|CHECK|REQUIRE|with expansion|^  [0-9.e+-]+ <|s: " "$LOG/gpu_tests.log" | head -60
  note "gpu tests: $r ($(tail -3 "$LOG/gpu_tests.log" | grep -E 'assertions|test cases' | tr -s ' ' | head -1))"
fi

if [ $INVERSE = 1 ]; then
  C=$INVERSE_CASE
  echo "== inverse design, 100 MMA iterations with adjoint gradients ([$C])"
  if [ "$C" = bend3d ]; then
    # 100 iterations take about 15 min on an H100: the checkpoint goes to $LOG (it comes
    # back with the call's files); BEND3D_CHECKPOINT names one to resume (copy it into the
    # tree so that it travels), BEND3D_STOP_AFTER_S (default 400) pauses the optimization.
    CK=$LOG/bend3d-checkpoint.json
    [ -n "${BEND3D_CHECKPOINT:-}" ] && cp "$BEND3D_CHECKPOINT" "$CK"
    export GOLIGHTLY_BEND3D_CHECKPOINT=$CK GOLIGHTLY_BEND3D_STOP_AFTER_S=${BEND3D_STOP_AFTER_S:-400}
  fi
  if $T "[$C]" --durations yes > "$LOG/$C.log" 2>&1; then r=PASS; else r="FAIL(rc=$?)"; fi
  grep -E "$C (iteration [0-9]*0 |binarized|shapes|beta=inf|[0-9]+ iterations)|FAILED|with expansion|paused after|s: CUDA" "$LOG/$C.log"
  note "inverse design ($C): $r; $(grep -E "^$C: " "$LOG/$C.log" | tail -1)"
fi

if [ $TESTS = 1 ] || [ "${INTEROP:-0}" = 1 ]; then
  echo "== CUDA-OpenGL interop through headless EGL (frames 1024^2 max, 30 frames/s)"
  G=$BUILD/tests/golightly_gl_interop_check
  if [ -x "$G" ]; then
    for n in 2048 8192; do
      "$G" $n $([ $n = 8192 ] && echo 3000 || echo 20000) 30 > "$LOG/gl_interop_$n.log" 2>&1; r=$?
      cat "$LOG/gl_interop_$n.log"
      note "gl interop ${n}^2: rc=$r ($(grep -E 'PASSED|FAILED|SKIPPED' "$LOG/gl_interop_$n.log" | tail -1))"
    done
  else
    note "gl interop: not built (no .gl/ carried: no GL/EGL headers)"
  fi
fi

if [ $SANITIZE3D = 1 ]; then
  # One process per test case and tool (2026-11-27: racecheck over all of [cuda3d] in one
  # process was killed, exit 9, before any output), each limited to SANITIZE3D_CASE_SECONDS
  # (default 150); no case starts once a tool has used SANITIZE3D_SECONDS (default 270).
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  # (the binary prints its "CUDA device: ..." banner before the names)
  mapfile -t cases < <($T "[cuda3d]" --list-test-names-only 2>/dev/null | sed -e '/^$/d' -e '/^CUDA device:/d' -e 's/^ *//' || true)
  cases=("${cases[@]:${SANITIZE3D_FROM:-0}}")
  if [ -n "${SANITIZE3D_MATCH:-}" ]; then
    mapfile -t cases < <(printf '%s\n' "${cases[@]}" | grep -E -- "$SANITIZE3D_MATCH" || true)
  fi
  for tool in ${SANITIZE3D_TOOLS:-memcheck racecheck}; do
    echo "== compute-sanitizer $tool on [cuda3d], one process per case (${#cases[@]} cases, ${SANITIZE3D_JOBS:-1} at a time)"
    t_tool=$(date +%s); clean=0; dirty=0; skipped=0
    : > "$LOG/${tool}3d.log"
    run_case() {  # index, name: its log and exit status under $LOG
      local esc
      esc=$(printf '%s' "$2" | sed 's/[][\\,*"~]/\\&/g')
      # racecheck's host memory grows with the run (the distributed cases: about 3 GB/s, killed
      # at 120 GB on a 128 GB machine): there the tests take a tenth of their steps
      # (GOLIGHTLY_TEST_STEP_DIVISOR, tests/gpu/cuda_distributed.cpp).
      local div=1
      [ "$tool" = racecheck ] && div=${SANITIZE3D_RACE_STEP_DIVISOR:-10}
      GOLIGHTLY_TEST_STEP_DIVISOR=$div timeout "${SANITIZE3D_CASE_SECONDS:-150}" $CS --tool $tool --error-exitcode 99 $T "$esc" > "$LOG/${tool}3d.case$1.log" 2>&1
      echo $? > "$LOG/${tool}3d.case$1.rc"
    }
    started=()
    for idx in "${!cases[@]}"; do
      if [ $(( $(date +%s) - t_tool )) -ge "${SANITIZE3D_SECONDS:-270}" ]; then skipped=$((skipped + 1)); continue; fi
      while [ "$(jobs -rp | wc -l)" -ge "${SANITIZE3D_JOBS:-1}" ]; do wait -n; done
      run_case "$idx" "${cases[$idx]}" &
      started+=("$idx")
    done
    wait
    for idx in "${started[@]}"; do
      r=$(cat "$LOG/${tool}3d.case$idx.rc" 2>/dev/null || echo "?")
      verdict="rc=$r $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOG/${tool}3d.case$idx.log" | tail -1 | sed 's/^=* *//')"
      echo "  $tool: ${cases[$idx]}: $verdict"
      cat "$LOG/${tool}3d.case$idx.log" >> "$LOG/${tool}3d.log"
      rm -f "$LOG/${tool}3d.case$idx.log" "$LOG/${tool}3d.case$idx.rc"
      if [ "$r" = 0 ]; then clean=$((clean + 1)); else dirty=$((dirty + 1)); fi
    done
    note "$tool [cuda3d]: $clean cases clean, $dirty not (rc != 0: errors, hazards, a failed check or the time limit), $skipped not run (time)"
  done
fi

if [ $SANITIZE = 1 ]; then
  CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  echo "== compute-sanitizer memcheck (subset: [sanitize] = TMz/TEz float32 cases + graph test; [sanitize64])"
  $CS --tool memcheck --leak-check full --error-exitcode 99 $T "[sanitize]" > "$LOG/memcheck.log" 2>&1
  r=$?; tail -4 "$LOG/memcheck.log"; note "memcheck [sanitize]: rc=$r, $(grep -E 'test case|No tests' "$LOG/memcheck.log" | tail -1), $(grep -E 'ERROR SUMMARY' "$LOG/memcheck.log" | tail -1)"
  $CS --tool memcheck --error-exitcode 99 $T "[sanitize64]" > "$LOG/memcheck2.log" 2>&1
  r=$?; note "memcheck [sanitize64]: rc=$r, $(grep -E 'test case|No tests' "$LOG/memcheck2.log" | tail -1), $(grep -E 'ERROR SUMMARY' "$LOG/memcheck2.log" | tail -1)"
  echo "== compute-sanitizer racecheck (subset [sanitize])"
  $CS --tool racecheck --error-exitcode 99 $T "[sanitize]" > "$LOG/racecheck.log" 2>&1
  r=$?; tail -3 "$LOG/racecheck.log"; note "racecheck [sanitize]: rc=$r, $(grep -E 'test case|No tests' "$LOG/racecheck.log" | tail -1), $(grep -E 'RACECHECK SUMMARY' "$LOG/racecheck.log" | tail -1)"
fi

if [ $NCU = 1 ]; then
  # DRAM bytes per cell of the bulk kernels (checks the bytes model of cuda_engine.cu).
  echo "== ncu: DRAM bytes of the bulk kernels, 8192x8192 float32 (67108864 cells)"
  for pol in TMz TEz; do
    ncu --clock-control none --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
        -k regex:update_vec -c 2 $T --bench 8192 8192 1 float32 $pol > "$LOG/ncu_$pol.log" 2>&1 || true
    grep -E "update_vec|dram__bytes|gpu__time" "$LOG/ncu_$pol.log" | sed -E 's/ +/ /g' | cut -c1-150
  done
fi

if [ $TESTS = 1 ] && [ $EXAMPLES = 1 ]; then
  # Issue requirement: every example's spectra from the CUDA backend match the CPU
  # backend's within 1e-4 (same precision). Dispersive examples compare too (the CUDA
  # backend has the ADE pass); STEP examples need OpenCASCADE (absent on the GPU server).
  echo "== examples: CUDA vs CPU spectra"
  CLI=$BUILD/solver/golightly-cli
  for ex in examples/*.glproj; do
    name=$(basename "$ex" .glproj)
    # Examples over 2^26 cells (the fine validation runs: about 8 min on two H200s, days on
    # the CPU) are left out; their GPU tests run them (e.g. [gold_bcalm_target]).
    cells=$(python3 -c 'import json, math, sys
d = json.load(open(sys.argv[1]))["domain"]
n = 1
for s in d["size"][: 3 if d.get("dimensions", 2) == 3 else 2]: n *= max(1, math.ceil(s / d["cell_size"] - 1e-9))
print(n)' "$ex" 2>/dev/null || echo 0)
    if [ "$cells" -gt 67108864 ]; then note "example $name: skipped ($cells cells: a validation run for its GPU test)"; continue; fi
    if ! "$CLI" check "$ex" > "$LOG/check_$name.log" 2>&1; then
      note "example $name: skipped ($(tail -1 "$LOG/check_$name.log" | cut -c1-90))"; continue
    fi
    "$CLI" run "$ex" --backend cpu --out "$LOG/ex_cpu_$name" > "$LOG/ex_cpu_$name.log" 2>&1
    rc_cpu=$?
    "$CLI" run "$ex" --backend cuda --out "$LOG/ex_cuda_$name" > "$LOG/ex_cuda_$name.log" 2>&1
    rc_cuda=$?
    if grep -q "does not support dispersive" "$LOG/ex_cuda_$name.log"; then
      note "example $name: CPU only (dispersive; the CUDA backend has no poles yet)"; continue
    fi
    if [ $rc_cuda = 2 ] && grep -q "not supported by the CUDA backend" "$LOG/ex_cuda_$name.log"; then
      note "example $name: CPU only ($(grep -o 'runs with [a-z]* [a-z]*' "$LOG/ex_cuda_$name.log" | head -1); refused by check_runnable)"; continue
    fi
    r=$(python3 - "$LOG/ex_cpu_$name/spectra.csv" "$LOG/ex_cuda_$name/spectra.csv" <<'PY'
import csv, re, sys
try:
    a = list(csv.DictReader(open(sys.argv[1]))); b = list(csv.DictReader(open(sys.argv[2])))
except Exception as e:
    print(f"FAIL (no spectra: {e})"); sys.exit()
cols = [c for c in a[0] if c not in ("wavelength_um", "frequency_thz")]
# Absolute differences, and differences relative to the scale of the column's monitor: the
# largest |value| among its flux columns (X, X_flux) or among its mode amplitudes
# (X_m<k>_fwd/bwd_re/im), since raw fluxes (SI spectral units, e.g. 1e-42) make an absolute
# 1e-4 vacuous and a mode at the noise level is judged against the monitor's main mode; n_eff
# columns against themselves.
def group(c):
    if c.endswith("_neff"): return c
    m = re.match(r"(.*)_m\d+_(fwd|bwd)_(re|im)$", c)
    return m.group(1) + " modes" if m else re.sub(r"_flux$", "", c)
scale = {}
for c in cols:
    scale[group(c)] = max(scale.get(group(c), 0.0), max(abs(float(x[c])) for x in a))
wa = max(((abs(float(x[c]) - float(y[c])), c) for x, y in zip(a, b) for c in cols), default=(0.0, "-"))
wr = max(((abs(float(x[c]) - float(y[c])) / (scale[group(c)] or 1.0), c) for x, y in zip(a, b) for c in cols), default=(0.0, "-"))
ok = wa[0] < 1e-4 and wr[0] < 1e-4 and len(a) == len(b)
print(("PASS" if ok else "FAIL") + f" max |cuda - cpu| = {wa[0]:.2e} ({wa[1]}), {wr[0]:.2e} of its monitor's scale ({wr[1]})")
PY
)
    note "example $name: $r (rc cpu $rc_cpu, cuda $rc_cuda)"
    echo "example $name: $r"
  done
fi
if [ $MPI_ONLY = 1 ]; then
  OMPI_DEBS=${OMPI_DEBS:-$PWD/.ompi}
  R=/tmp/golightly-ompi
  mkdir -p "$R"
  for d in "$OMPI_DEBS"/*.deb; do dpkg -x "$d" "$R"; done
  export OPAL_PREFIX=$R/usr PATH=$R/usr/bin:$PATH LD_LIBRARY_PATH=$R/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
  MB=$BUILD-mpi
  echo "== configure + build with MPI ($MB)"
  cmake -S . -B "$MB" -G Ninja -DGOLIGHTLY_GUI=OFF -DCMAKE_BUILD_TYPE=Release -DGOLIGHTLY_CUDA=ON -DGOLIGHTLY_MPI=ON \
    -DCMAKE_PREFIX_PATH="$DEVDEPS/usr" -DCMAKE_INCLUDE_PATH="$DEVDEPS/usr/include" \
    -DPNG_LIBRARY="$LIB/libpng16.a" -DPNG_PNG_INCLUDE_DIR="$DEVDEPS/usr/include" \
    -DZLIB_LIBRARY="$LIB/libz.a" -DZLIB_INCLUDE_DIR="$DEVDEPS/usr/include" \
    -DMPI_C_HEADER_DIR=$R/usr/lib/x86_64-linux-gnu/openmpi/include -DMPI_C_LIB_NAMES=mpi \
    -DMPI_mpi_LIBRARY=$R/usr/lib/x86_64-linux-gnu/openmpi/lib/libmpi.so \
    -DMPIEXEC_EXECUTABLE=$R/usr/bin/mpirun.openmpi > "$LOG/configure-mpi.log" 2>&1 \
    || { tail -30 "$LOG/configure-mpi.log"; echo "MPI CONFIGURE FAILED"; exit 1; }
  grep "MPI ranks" "$LOG/configure-mpi.log"
  ninja -C "$MB" golightly-cli > "$LOG/build-mpi.log" 2>&1 || { grep -E "error" "$LOG/build-mpi.log" | head -20; echo "MPI BUILD FAILED"; exit 1; }
  STEPS=${MPI_STEPS:-3000}
  # With one GPU both ranks share device 0 (ordinal local_rank % device count) and the
  # one-process run is unsplit: the ranks' exchange and gathers still run, but the unsplit
  # engine steps with its own kernel (two steps per pass or the fused one-step kernel), whose
  # float32 rounding differs from the subdomains' (4e-7 .. 1.6e-6 of a column's maximum over
  # 400 steps of mpi3d_gpu_bench, measured on an H100), so both runs are float64 there, where
  # the two kernels agree to the compare's 1e-10 (measured: difference 0).
  NGPU=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
  ONE_DEV=2; PREC=""; [ "${NGPU:-0}" -lt 2 ] && ONE_DEV=1 && PREC="--precision float64"
  export GOLIGHTLY_TEST_ONE_ARGS="--backend cuda --devices $ONE_DEV --max-steps $STEPS $PREC"
  export GOLIGHTLY_TEST_RANK_ARGS="--backend cuda --max-steps $STEPS $PREC"
  echo "== mpirun -np 2 GPU ranks ($NGPU GPU(s)) vs --devices $ONE_DEV in one process ($STEPS steps of mpi3d_gpu_bench)"
  bash tests/mpi/mpi_run_test.sh compare "$MB/solver/golightly-cli" $R/usr/bin/mpirun.openmpi \
    tests/data/mpi/mpi3d_gpu_bench.glproj 2 /tmp/golightly-mpi-gpu 2>&1 | tee "$LOG/mpi_gpu.log"
  echo "== far fields (issue 52): mpirun -np 2 GPU ranks vs --devices $ONE_DEV, rank 0 projecting on its GPU"
  bash tests/mpi/mpi_run_test.sh compare "$MB/solver/golightly-cli" $R/usr/bin/mpirun.openmpi \
    tests/data/mpi/mpi3d_far_field.glproj 2 /tmp/golightly-mpi-gpu-far-field 2>&1 | tee "$LOG/mpi_gpu_far_field.log"
  # A Bloch phase along the cut axis (issue 51): the halos across the wrap between the last
  # and the first rank carry exp(+-i phi); complex fields step whole, so the halos travel
  # between steps (mode "events"). The reference is one CUDA engine, unsplit.
  for bcase in 2d_bloch_cut:2 2d_bloch_cut:3 3d_bloch_cut:2 3d_bloch_cut:3; do
    bname=${bcase%%:*}; bnp=${bcase##*:}
    echo "== Bloch along the cut axis (issue 51): mpirun -np $bnp GPU ranks vs one GPU engine, mpi${bname}"
    GOLIGHTLY_TEST_ONE_ARGS="--backend cuda --devices 1" GOLIGHTLY_TEST_RANK_ARGS="--backend cuda" \
      GOLIGHTLY_TEST_HALO_MODE=events bash tests/mpi/mpi_run_test.sh compare "$MB/solver/golightly-cli" \
      $R/usr/bin/mpirun.openmpi tests/data/mpi/mpi${bname}.glproj "$bnp" /tmp/golightly-mpi-gpu-${bname}-np$bnp 2>&1 |
      tee "$LOG/mpi_gpu_${bname}_np$bnp.log"
  done
  exit 0
fi
if [ $CONCURRENT = 1 ]; then
  # Several runs on one GPU (issue 54 item 3): for each project of CONCURRENT_PROJECTS
  # (tests/data/bench/NAME.glproj, each with a parameter eps), the same sweep of
  # CONCURRENT_DESIGNS designs (default 16) one run at a time and with --concurrent
  # CONCURRENT_N (default auto), interleaved (1, N, 1, N), wall times from `date`; the two
  # sweep.csv files must be equal (status column aside; 3D runs to float32 rounding, as
  # two 3D runs one after another differ by the order of their atomic sums).
  ND=${CONCURRENT_DESIGNS:-16}; CN=${CONCURRENT_N:-auto}
  for name in ${CONCURRENT_PROJECTS:-bend_1m_cells bend_320k_cells sphere_128_cubed}; do
    P=tests/data/bench/$name.glproj
    case $name in bend*) R=11:12.5 ;; *) R=3:5 ;; esac  # the core's / the sphere's eps
    echo "== $ND designs of $P: --concurrent 1 vs $CN"
    for rep in 1 2; do
      for c in 1 "$CN"; do
        d=/tmp/golightly-conc-$name-$c-$rep; rm -rf "$d"
        t0=$(date +%s.%N)
        "$BUILD/solver/golightly-cli" sweep "$P" --param "eps=$R:$ND" --backend cuda --concurrent "$c" --out "$d" \
          > "$LOG/concurrent_${name}_${c}_$rep.log" 2>&1; rc=$?
        t1=$(date +%s.%N)
        w=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
        note "concurrent $name $c (pass $rep, rc=$rc): $ND designs in $w s ($(head -1 "$LOG/concurrent_${name}_${c}_$rep.log"))"
      done
    done
    same=$(python3 - "/tmp/golightly-conc-$name-1-1/sweep.csv" "/tmp/golightly-conc-$name-$CN-1/sweep.csv" <<'PY'
import csv, sys
def rows(f):
    r = list(csv.reader(open(f)))
    k = r[0].index("status")
    return r[0][:k], [[float(v) for v in row[:k]] for row in r[1:]]
(ha, a), (hb, b) = rows(sys.argv[1]), rows(sys.argv[2])
if ha != hb or len(a) != len(b):
    print("DIFFERENT (columns or rows)")
elif a == b:
    print("equal")
else:
    d = max(abs(x - y) / max(abs(x), 1e-30) for ra, rb in zip(a, b) for x, y in zip(ra, rb))
    # 3D CUDA runs are not bitwise reproducible even one after another (atomics); float32
    print("largest relative difference %.2g (%s)" % (d, "within float32 rounding" if d < 1e-6 else "TOO LARGE"))
PY
)
    note "concurrent $name: sweep.csv of --concurrent $CN vs one at a time: $same"
  done
  # S-parameter port-mode runs (sparams --concurrent): CONCURRENT_SPARAMS (default
  # tests/data/bench/strip_sparams_4runs.glproj, 4 port-mode runs), --concurrent 1 against
  # CONCURRENT_N, interleaved; the two sparams.csv files compared.
  SP=${CONCURRENT_SPARAMS:-tests/data/bench/strip_sparams_4runs.glproj}
  if [ -n "$SP" ]; then
    echo "== sparams of $SP: --concurrent 1 vs $CN"
    for rep in 1 2; do
      for c in 1 "$CN"; do
        d=/tmp/golightly-conc-sparams-$c-$rep; rm -rf "$d"
        t0=$(date +%s.%N)
        "$BUILD/solver/golightly-cli" sparams "$SP" --backend cuda --concurrent "$c" --out "$d" \
          > "$LOG/concurrent_sparams_${c}_$rep.log" 2>&1; rc=$?
        t1=$(date +%s.%N)
        w=$(python3 -c "print(f'{$t1 - $t0:.2f}')")
        note "concurrent sparams $c (pass $rep, rc=$rc): in $w s ($(tail -1 "$LOG/concurrent_sparams_${c}_$rep.log"))"
      done
    done
    same=$(python3 - /tmp/golightly-conc-sparams-1-1/sparams.csv "/tmp/golightly-conc-sparams-$CN-1/sparams.csv" <<'PY'
import csv, sys
a, b = (list(csv.reader(open(f))) for f in sys.argv[1:3])
if a[0] != b[0] or len(a) != len(b):
    print("DIFFERENT (columns or rows)")
elif a == b:
    print("equal")
else:
    # the 3D CUDA runs' atomic sums make even two runs one after another differ (float32)
    scale = max(abs(float(v)) for row in a[1:] for v in row[2:])
    d = max(abs(float(x) - float(y)) for ra, rb in zip(a[1:], b[1:]) for x, y in zip(ra[2:], rb[2:])) / scale
    print("largest difference %.2g of the largest |S| (%s)" % (d, "within float32 rounding" if d < 1e-5 else "TOO LARGE"))
PY
)
    note "concurrent sparams: sparams.csv of --concurrent $CN vs one at a time: $same"
  fi
  printf '%s\n' "${summary[@]}"
  exit 0
fi
if [ $PROBES = 1 ]; then
  echo "== GPU probes (engine/cuda/probes)"
  "$BUILD/solver/golightly-probe-l2-sides" > "$LOG/probe_l2_sides.txt" 2>&1; rc=$?
  note "probe l2-sides (rc=$rc): $(head -1 "$LOG/probe_l2_sides.txt")"
  # shellcheck disable=SC2086
  "$BUILD/solver/golightly-probe-two-step-floor" ${PROBE_SIZE:-512} ${PROBE_SHAPES:-} > "$LOG/probe_two_step_floor.txt" 2>&1; rc=$?
  note "probe two-step-floor (rc=$rc):"
  while IFS= read -r line; do note "  $line"; done < "$LOG/probe_two_step_floor.txt"
  cat "$LOG/probe_l2_sides.txt" "$LOG/probe_two_step_floor.txt"
  exit 0
fi
if [ $BENCH3D = 1 ]; then
  echo "== 3D benches over environment settings"
  while IFS= read -r cfg; do
    envs=(); extra=(); size=${BENCH3D_SIZE:-512}; grid=""
    for w in $cfg; do
      case $w in
        AU) extra+=(--dispersive-material Au --dispersive-fraction 0.1) ;;
        F64) extra+=(--precision float64) ;;
        S=*) size=${w#S=} ;;
        G=*) grid=${w#G=} ;;
        SYM=*) extra+=(--symmetry "${w#SYM=}") ;;
        NOMON) extra+=(--no-monitors) ;;
        *=*) envs+=("$w") ;;
        *) note "bench3d: unknown word '$w' in '$cfg'" ;;
      esac
    done
    out=$(env "${envs[@]}" "$BUILD/solver/golightly-cli" bench --backend cuda --dims 3 --size "${grid:-$size,$size,$size}" \
          --steps "${BENCH3D_STEPS:-200}" "${extra[@]}" --json 2>&1 | tail -1)
    echo "$out" >> "$LOG/bench3d.jsonl"
    label=${cfg:-(defaults)}; case " $cfg " in *" S="*|*" G="*) ;; *) label="$label S=$size" ;; esac
    line=$(python3 - "$label" "$out" 2>/dev/null <<'PY'
import json, sys
r = json.loads(sys.argv[2])
print("%s: %.2f Gcells/s (simulated %.2f), %.2f steps/s, %.3f of copy, %.1f B/cell, copy %.0f GB/s, %s, %s" % (
    sys.argv[1], r["cells_per_s"] / 1e9, r.get("simulated_cells_per_s", r["cells_per_s"]) / 1e9,
    r.get("steps_per_s", 0), r["fraction_of_copy"], r["bytes_per_cell_update"],
    r["copy_bandwidth_gbs"], r.get("kernel", ""), r.get("device", "")))
PY
) \
      || line="$label: bench failed: ${out:0:200}"
    echo "$line"; note "bench3d $line"
  done <<< "${BENCH3D_CONFIGS:-}"
  exit 0
fi
if [ $SCALING = 1 ]; then
  export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on the lent machines (we use peer copies, not NCCL)
  NG=$(nvidia-smi -L | wc -l)
  echo "== distributed GPU tests ($NG GPUs)"
  if [ "${SKIP_DIST_TESTS:-0}" = 1 ]; then r="skipped (SKIP_DIST_TESTS=1)"
  elif $T "[distributed]" > "$LOG/gpu_distributed.log" 2>&1; then r=PASS; else r="FAIL(rc=$?)"; fi
  grep -E "CUDA distributed|passed|failed|FAILED" "$LOG/gpu_distributed.log" | head -20
  note "distributed GPU tests: $r"
  nvidia-smi topo -m > "$LOG/topo.txt" 2>&1; head -8 "$LOG/topo.txt"
  : > "$LOG/scaling.jsonl"
  sbench() {  # devices nx ny nz steps [more bench options]
    "$BUILD/solver/golightly-cli" bench --backend cuda --dims 3 --size "$2,$3,$4" --steps "$5" --devices "$1" "${@:6}" --json 2>&1 \
      | tail -1 | tee -a "$LOG/scaling.jsonl"
  }
  # the slabs two steps per pass (the default) against one step per pass
  # (GOLIGHTLY_DIST_TWO_STEP=0, the old path), interleaved; the one-device rows are the
  # one-GPU engine's best kernel (two steps per pass)
  sbench 1 768 768 768 100
  [ "$NG" -ge 2 ] && sbench 2 768 768 768 100
  [ "$NG" -ge 2 ] && GOLIGHTLY_DIST_TWO_STEP=0 sbench 2 768 768 768 100
  # one GPU: two slabs on it (the split's and the exchange's own cost)
  [ "$NG" = 1 ] && sbench 2 768 768 768 100 --same-device
  [ "$NG" = 1 ] && GOLIGHTLY_DIST_TWO_STEP=0 sbench 2 768 768 768 100 --same-device
  sbench 1 512 512 512 200
  [ "$NG" -ge 2 ] && sbench 2 512 512 1024 200
  if [ "$NG" -ge 2 ] && [ "${HALO_MODES:-0}" = 1 ]; then  # the other ways of driving the subdomains
    GOLIGHTLY_HALO_MODE=threads sbench 2 768 768 768 100
    GOLIGHTLY_HALO_MODE=events sbench 2 768 768 768 100
    GOLIGHTLY_HALO_MODE=sync sbench 2 768 768 768 100
  fi
  if [ "$NG" -ge 4 ]; then
    sbench 4 512 512 2048 200
    sbench 1 1024 1024 1024 60
    sbench 2 1024 1024 1024 60
    sbench 4 1024 1024 1024 60
  fi
  echo
  echo "== summary ($(( $(date +%s) - t0 )) s)"
  for s in "${summary[@]}"; do echo "$s"; done
  python3 - "$LOG/scaling.jsonl" <<'PY'
import json, sys
rows = []
for line in open(sys.argv[1]):
    try: rows.append(json.loads(line))
    except Exception: print('  (bench failed) ' + line.strip()[:200])
base = {}
for r in rows:
    if r.get('devices', 1) == 1: base[tuple(r['size'])] = r['cells_per_s']
print(f"{'size':>16} {'dev':>3} {'mode':>16} {'pass':>4} {'Gcell/s':>8} {'x one':>6} {'frac':>5} {'step ms':>8} {'alone ms':>8} {'xchg ms':>8} {'exposed':>8} {'MB/step':>8}")
for r in rows:
    n = r.get('devices', 1); sz = tuple(r['size'])
    one = base.get(sz)
    if n > 1 and one is None:  # weak scaling: per-GPU size of one device
        per = (sz[0], sz[1], sz[2] // n); one = base.get(per)
    steps_per_pass = '2' if r.get('kernel', '').startswith('two steps per pass') else '1'
    print(f"{'x'.join(map(str, sz)):>16} {n:>3} {r.get('transport','-'):>16} {steps_per_pass:>4} {r['cells_per_s']/1e9:8.2f} {r['cells_per_s']/one if one else 0:6.2f} {r['fraction_of_copy']:5.2f} "
          f"{1e3/r['steps_per_s']:8.2f} {1e3*r.get('compute_s_per_step',0):8.2f} {1e3*r.get('exchange_s',0):8.3f} "
          f"{1e3*r.get('exchange_exposed_s',0):8.3f} {r.get('exchange_bytes_per_step',0)/1e6:8.1f}")
print('device:', rows[0]['device'] if rows else '?')
print("(x one: speed-up over one device at the same size (strong) or at the per-device size (weak))")
PY
  exit 0
fi
echo "== benchmarks"
: > "$LOG/bench.jsonl"
bench() {  # nx ny steps precision polarization [extra golightly-cli bench options]
  local out
  if [ -x "$BUILD/solver/golightly-cli" ] && "$BUILD/solver/golightly-cli" bench --help > /dev/null 2>&1 \
     && [ "${USE_CLI_BENCH:-1}" = 1 ]; then
    out=$("$BUILD/solver/golightly-cli" bench --backend cuda --size "$1,$2" --steps "$3" --precision "$4" --polarization "$5" "${@:6}" --json 2>&1)
  else
    out=$($T --bench "$1" "$2" "$3" "$4" "$5" 2>&1)
  fi
  echo "$out" | tail -1 | tee -a "$LOG/bench.jsonl"
}
if [ $BENCH = 1 ]; then
  # 2D two steps per pass (update_two2d, the default on grids beyond the L2 cache) and one
  # step per pass (GOLIGHTLY_CUDA_TWO_STEP=0) interleaved: the kernel column tells them apart.
  for rep in 1 2; do
    for pol in TMz TEz; do
      bench 8192 8192 400 float32 $pol
      GOLIGHTLY_CUDA_TWO_STEP=0 bench 8192 8192 400 float32 $pol
    done
  done
  bench 1024 1024 20000 float32 TMz
  bench 1024 1024 20000 float32 TEz
  bench 8192 8192 200 float64 TMz
  bench 8192 8192 200 float64 TEz
  bench 4096 4096 1000 float32 TMz
  # Dispersion (issue 6): 0 %, 10 %, 100 % of the cells Rakic gold (6 poles), 8192^2.
  for frac in 0 0.1 1; do
    bench 8192 8192 200 float32 TMz --dispersive-material Au --dispersive-fraction $frac
  done
  bench 8192 8192 200 float32 TEz --dispersive-material Au --dispersive-fraction 0.1
  # 3D (issue 15): 16-cell CPML on all faces, a plane source and a DFT flux plane.
  # 10 % of the cells with 6 synthetic Lorentz poles, and 10 % Rakic gold (Drude + 5 Lorentz);
  # 1024^3 float32 (issue 15: fits on one H200, and on an H100). The default bulk step is the
  # fused one fed by tensor copies where it runs (57 B per cell in the model column); the rows
  # marked "pair" set GOLIGHTLY_CUDA3D_FUSED=0 (the in-place pair, 81 B) for comparison.
  for cfg in "256 1000 float32" "512 400 float32" "512 200 float64" "512 200 float32 --poles 6 --dispersive-fraction 0.1" \
             "512 200 float32 --dispersive-material Au --dispersive-fraction 0.1" "1024 60 float32" \
             "pair 512 400 float32" "pair 512 200 float32 --dispersive-material Au --dispersive-fraction 0.1"; do
    set -- $cfg
    fused=""
    if [ "$1" = pair ]; then fused=0; shift; fi
    GOLIGHTLY_CUDA3D_FUSED=$fused "$BUILD/solver/golightly-cli" bench --backend cuda --dims 3 --size "$1,$1,$1" --steps "$2" \
      --precision "$3" "${@:4}" --json 2>&1 | tail -1 | tee -a "$LOG/bench.jsonl"
  done
fi

echo
echo "== summary ($(( $(date +%s) - t0 )) s)"
for s in "${summary[@]}"; do echo "$s"; done
python3 - "$LOG/bench.jsonl" <<'PY'
import json, sys
print(f"{'size':>11} {'kernel':>6} {'prec':>7} {'pol':>3} {'disp':>7} {'Gcell/s':>8} {'steps/s':>9} {'B/cell':>7} {'GB/s':>7} {'copy':>7} {'frac':>5}")
dev = ''
for line in open(sys.argv[1]):
    try: r = json.loads(line)
    except Exception: print('  (bench failed) ' + line.strip()[:120]); continue
    dev = r.get('device', dev)
    kernel = r.get('kernel', '')
    kernel = 'two' if kernel.startswith('two') else 'one' if kernel.startswith('one') else kernel[:6]
    print(f"{r['size'][0]:>5}x{r['size'][1]:<5} {kernel:>6} {r['precision']:>7} {r.get('polarization','?'):>3} "
          f"{(r.get('dispersive_material', 'poles') + ' ' + format(r['dispersive_cell_fraction'], '.0%')) if r.get('poles') else '-':>7} {r['cells_per_s']/1e9:8.2f} "
          f"{r.get('steps_per_s', 0):9.0f} {r['bytes_per_cell_update']:7.2f} {r['bandwidth_gbs']:7.0f} {r['copy_bandwidth_gbs']:7.0f} {r['fraction_of_copy']:5.2f}")
print('device:', dev)
PY
