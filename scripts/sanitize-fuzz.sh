#!/usr/bin/env bash
# Issue 19: AddressSanitizer + UndefinedBehaviorSanitizer build (clang) of the solver, its
# tests and the libFuzzer targets of fuzz/; runs the solver tests under the sanitizers,
# then each fuzz target from its seed corpus with a fixed seed and a time budget. Fails
# on any sanitizer report, test failure, crash, input slower than 10 s or allocation
# over 2 GB. scripts/test.sh calls it after the ordinary build (CI).
# Usage: scripts/sanitize-fuzz.sh [--no-tests] [--no-fuzz] [--fuzz-seconds N] [--build DIR]
#   GOLIGHTLY_FUZZ_SECONDS (default 30) is the budget per target (5 targets).
set -euo pipefail
cd "$(dirname "$0")/.."
run_tests=1; run_fuzz=1; fuzz_seconds=${GOLIGHTLY_FUZZ_SECONDS:-30}; build=build-asan
while [ $# -gt 0 ]; do
  case "$1" in
    --no-tests) run_tests=0 ;;
    --no-fuzz) run_fuzz=0 ;;
    --fuzz-seconds) fuzz_seconds=$2; shift ;;
    --build) build=$2; shift ;;
    *) echo "sanitize-fuzz.sh: unknown option $1" >&2; exit 1 ;;
  esac
  shift
done
jobs=$(nproc)
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# The coverage instrumentation libFuzzer steers by (-fsanitize=fuzzer-no-link) goes only on the
# libraries the fuzz targets reach (fuzz/CMakeLists.txt): on the engine's stepping loops it
# made the sanitized solver suite several times slower (a 2D Yee loop under ASan+UBSan:
# 8.5 s plain, 34-47 s with it) for no fuzzing benefit.
# -gline-tables-only: the reports' stack traces keep their file:line, and the build does not
# write full debug info (test_project_io.cpp under ASan: 28.5 s against 36.2 s with -g).
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -gline-tables-only -DNDEBUG" \
  -DGOLIGHTLY_GUI=OFF -DGOLIGHTLY_CUDA=OFF -DGOLIGHTLY_FUZZ=ON "${launcher[@]}" \
  -DCMAKE_CXX_FLAGS="$san" -DCMAKE_C_FLAGS="$san" \
  -DCMAKE_EXE_LINKER_FLAGS="$san" >/dev/null
t0=$(date +%s)
cmake --build "$build" -j"$jobs" --target golightly_solver_tests golightly-cli fuzz_project fuzz_step fuzz_csv fuzz_png fuzz_gds
echo "sanitize-fuzz: build $(( $(date +%s) - t0 )) s"
# Leaks are not checked: OpenCASCADE and the caches keep process-lifetime objects.
export ASAN_OPTIONS=detect_leaks=0:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

if [ "$run_tests" = 1 ]; then
  t0=$(date +%s)
  # The solver suite (CLI end-to-end tests run the sanitized golightly-cli too), less the
  # [slow] physics convergence runs: they repeat the code paths of the short tests on finer
  # grids (the 3D Mie run alone is minutes in Release), and the Release ctest runs them;
  # and less the hidden [.] cases (benchmarks, convergence studies): a filter made only of
  # exclusions would select them in Catch2.
  # The cases are dealt round-robin (declaration order) to one process per core
  # (GOLIGHTLY_ASAN_SHARDS overrides): the Release ctest already runs them two at a time, and
  # most are single-threaded. Each shard's list must select exactly its names, or the stage fails.
  bin="$build/tests/golightly_solver_tests"
  filter="~[slow]~[.]"
  shards=${GOLIGHTLY_ASAN_SHARDS:-$jobs}
  tdir=$(mktemp -d)
  # (Catch2 2's --list-* commands exit with the number of cases listed.)
  { "$bin" --list-test-names-only "$filter" || true; } | sed '/^$/d' > "$tdir/names"
  total=$(wc -l < "$tdir/names")
  [ "$total" -ge "$shards" ] || { echo "sanitize-fuzz: $bin listed $total cases" >&2; exit 1; }
  for s in $(seq 0 $(( shards - 1 ))); do
    # -f reads test specs: commas, brackets, wildcards, quotes and backslashes are escaped.
    awk -v n="$shards" -v s="$s" 'NR % n == s' "$tdir/names" | sed 's/[][\\,*"~]/\\&/g' > "$tdir/shard$s"
    got=$({ "$bin" --list-test-names-only -f "$tdir/shard$s" || true; } | sed '/^$/d' | wc -l)
    if [ "$got" != "$(wc -l < "$tdir/shard$s")" ]; then
      echo "sanitize-fuzz: shard $s selects $got cases, not its $(wc -l < "$tdir/shard$s") names" >&2
      exit 1
    fi
  done
  for s in $(seq 0 $(( shards - 1 ))); do
    (set +e; "$bin" --order decl --durations yes -f "$tdir/shard$s" > "$tdir/log$s" 2>&1; echo $? > "$tdir/rc$s") &
  done
  wait
  fail=0
  for s in $(seq 0 $(( shards - 1 ))); do
    echo "== ASan+UBSan shard $s of $shards ($(wc -l < "$tdir/shard$s") of $total cases)"
    cat "$tdir/log$s"
    [ "$(cat "$tdir/rc$s")" = 0 ] || fail=1
  done
  rm -rf "$tdir"
  [ "$fail" = 0 ] || { echo "sanitize-fuzz: solver tests under ASan+UBSan failed" >&2; exit 1; }
  echo "sanitize-fuzz: solver tests under ASan+UBSan $(( $(date +%s) - t0 )) s ($total cases, $shards processes)"
fi

if [ "$run_fuzz" = 1 ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  for t in project step csv png gds; do
    mkdir -p "$work/$t/corpus" "$work/$t/seed" "$work/$t/artifacts"
    cp -r fuzz/corpus/"$t"/. "$work/$t/seed/" 2>/dev/null || true
    case $t in
      project)
        # 3D projects with mode sources, mode monitors or ports solve the 2D cross-section
        # mode problem at every spectrum point when they compile: under ASan that takes
        # longer than the 10 s a fuzz input may (seen: examples/strip_sparams_3d.glproj).
        # The Release and ASan test suites cover the mode solver; the fuzzer gets the rest.
        for f in examples/*.glproj tests/data/invalid/*.glproj; do
          if grep -q '"dimensions": *3' "$f" && grep -q '"mode"\|"ports"' "$f"; then continue; fi
          cp "$f" "$work/$t/seed/"
        done ;;
      step) cp examples/*.step "$work/$t/seed/" ;;
    esac
    t0=$(date +%s)
    if ! "$build/fuzz/fuzz_$t" -seed=1 -max_total_time="$fuzz_seconds" -timeout=10 -rss_limit_mb=2048 \
         -malloc_limit_mb=2048 -max_len=262144 -print_final_stats=1 -artifact_prefix="$work/$t/artifacts/" \
         "$work/$t/corpus" "$work/$t/seed" >"$work/$t/log" 2>&1; then
      tail -n 60 "$work/$t/log"
      for a in "$work/$t/artifacts"/*; do
        [ -e "$a" ] || continue
        mkdir -p fuzz-artifacts && cp "$a" fuzz-artifacts/
        echo "sanitize-fuzz: fuzz_$t failed; the input is kept in fuzz-artifacts/$(basename "$a")"
      done
      exit 1
    fi
    echo "sanitize-fuzz: fuzz_$t $(( $(date +%s) - t0 )) s: $(grep -E 'stat::number_of_executed_units' "$work/$t/log" | awk '{print $2}') inputs, no crash"
  done
fi
