#!/usr/bin/env bash
# MPI ranks (issue 18): `mpirun -np N golightly-cli run PROJECT` against a one-process run.
#
#   mpi_run_test.sh compare CLI MPIEXEC PROJECT N WORKDIR
#       runs PROJECT in one process and on N CPU ranks (one thread each) and compares
#       spectra.csv and every monitors/*.csv value by value: |mpi - one| <= 1e-10 * (the
#       column's largest |one|) + one unit in the 10th significant digit of `one` (the
#       CSVs print 10 digits, so two numbers equal to 1e-16 can still print one unit
#       apart); the headers, steps and stop reason must be equal, and summary.json must
#       list N subdomains with ranks 0..N-1 that tile the cut axis. A project with far
#       fields (`"far_field"` in it) must write far_field/*.csv in both runs, and each
#       (the projected grid and the equivalent currents of <monitor>_surface.csv) is
#       compared the same way; `golightly-cli farfield FOLDER --monitor M` on both
#       folders (its default directions, and a --theta/--phi grid) must agree to one
#       unit in the 7th significant digit it prints, plus 1e-10 of the column maximum.
#   mpi_run_test.sh fail CLI MPIEXEC PROJECT N WORKDIR
#       GOLIGHTLY_MPI_FAIL_RANK=1 makes rank 1 throw while it builds its engine: every
#       rank must end, mpirun must exit 3 and stderr must name "rank 1".
#
# Extra run arguments (default --threads 1 for both; GPU machines, see docs/cluster.md):
#   GOLIGHTLY_TEST_ONE_ARGS   of the one-process run, e.g. "--backend cuda --devices 2"
#   GOLIGHTLY_TEST_RANK_ARGS  of every rank, e.g. "--backend cuda"
#   GOLIGHTLY_TEST_HALO_MODE  the halo_exchange mode summary.json must name (default overlap)
#
# The Open MPI flags: mpi_flags.sh.
set -euo pipefail
mode=$1 cli=$2 mpiexec=$3 project=$4 np=$5 work=$6
rm -rf "$work"
mkdir -p "$work"

source "$(dirname "$0")/mpi_flags.sh"

fail() { echo "FAIL: $*" >&2; exit 1; }
read -r -a one_args <<< "${GOLIGHTLY_TEST_ONE_ARGS:---threads 1}"
read -r -a rank_args <<< "${GOLIGHTLY_TEST_RANK_ARGS:---threads 1}"

if [ "$mode" = fail ]; then
  set +e
  GOLIGHTLY_MPI_FAIL_RANK=1 timeout 120 "$mpiexec" "${mpi_flags[@]}" -np "$np" "$cli" run "$project" \
    --out "$work/out" --threads 1 >"$work/stdout.txt" 2>"$work/stderr.txt"
  rc=$?
  set -e
  cat "$work/stderr.txt" >&2
  [ "$rc" = 124 ] && fail "mpirun did not end within 120 s after rank 1 failed (the other ranks hang)"
  [ "$rc" = 3 ] || fail "mpirun exited $rc, expected 3 (run failed)"
  grep -q "rank 1: .*GOLIGHTLY_MPI_FAIL_RANK" "$work/stderr.txt" || fail "stderr does not name rank 1 and the reason"
  echo "PASS: rank 1's failure ended all $np ranks with exit 3"
  exit 0
fi

[ "$mode" = compare ] || fail "unknown mode $mode"
export GOLIGHTLY_MPI_FAIL_RANK=   # empty: no rank fails
t0=$(date +%s.%N)
"$cli" run "$project" --out "$work/one" "${one_args[@]}" >"$work/one.log" 2>&1 || { cat "$work/one.log" >&2; fail "the one-process run failed"; }
t1=$(date +%s.%N)
set +e
timeout 600 "$mpiexec" "${mpi_flags[@]}" -np "$np" "$cli" run "$project" --out "$work/mpi" "${rank_args[@]}" \
  >"$work/mpi.log" 2>&1
rc=$?
set -e
t2=$(date +%s.%N)
if [ "$rc" != 0 ]; then
  cat "$work/mpi.log" >&2
  fail "mpirun -np $np golightly-cli run exited $rc"
fi
awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$np" 'BEGIN { printf "one process %.1f s, %d ranks %.1f s\n", b - a, n, c - b }'
grep -h "after .* steps" "$work/one.log" "$work/mpi.log" || true   # the result lines: device, Mcells/s

# summary.json: steps, stop reason, subdomains
field() { grep -o "\"$2\": *[^,}]*" "$1" | head -1 | sed 's/^[^:]*: *//'; }
for f in steps stop_reason; do
  a=$(field "$work/one/summary.json" $f); b=$(field "$work/mpi/summary.json" $f)
  [ "$a" = "$b" ] || fail "summary.json $f: one process $a, $np ranks $b"
done
ranks=$(grep -o '"rank": *[0-9]*' "$work/mpi/summary.json" | sed 's/.*: *//' | tr '\n' ' ')
expect=$(seq 0 $((np - 1)) | tr '\n' ' ')
[ "$ranks" = "$expect" ] || fail "summary.json subdomains ranks '$ranks', expected '$expect'"
grep -q '"devices"' "$work/mpi/summary.json" || fail "summary.json has no devices list"
# The halos travel by MPI while the interior is updated (CPU ranks in 2D and 3D, GPU ranks in
# 3D: the "overlap" mode; GOLIGHTLY_TEST_HALO_MODE names another expectation).
halo=$(tr -d ' \n' < "$work/mpi/summary.json" | grep -o '"halo_exchange":{[^}]*}' || true)
echo "summary.json $halo"
[[ "$halo" == *'"transport":"mpi'* ]] || fail "summary.json halo_exchange transport is not mpi: '$halo'"
[[ "$halo" == *"\"mode\":\"${GOLIGHTLY_TEST_HALO_MODE:-overlap}\""* ]] ||
  fail "summary.json halo_exchange mode is not ${GOLIGHTLY_TEST_HALO_MODE:-overlap}: '$halo'"

# compare_csv ONE MPI [DIGITS [FS]]: the tolerance of the header comment, DIGITS the
# significant digits the file prints (default 10), FS its field separator (default ",";
# " " splits at runs of blanks).
compare_csv() {
  awk -F"${4:-,}" -v tol=1e-10 -v digits="${3:-10}" -v name="$(basename "$1")" '
    function abs(x) { return x < 0 ? -x : x }
    function unit10(x,   e) { x = abs(x); if (x == 0) return 0; e = int(log(x) / log(10)); if (10^e > x) e--; return 10^(e - digits + 1) }
    NR == FNR {
      n1 = FNR; w[FNR] = NF
      for (i = 1; i <= NF; i++) { ref[FNR, i] = $i; if (FNR > 1 && abs($i + 0) > colmax[i]) colmax[i] = abs($i + 0) }
      next
    }
    {
      n2 = FNR
      if (NF != w[FNR]) { printf "%s line %d: %d fields, expected %d\n", name, FNR, NF, w[FNR]; bad = 1; next }
      for (i = 1; i <= NF; i++) {
        if (FNR == 1 || ref[FNR, i] == $i) { if (ref[FNR, i] != $i) { printf "%s header differs: %s vs %s\n", name, $i, ref[FNR, i]; bad = 1 } continue }
        d = abs($i - ref[FNR, i]); lim = tol * colmax[i] + unit10(ref[FNR, i])
        if (d > lim) { printf "%s line %d column %d: %s vs %s (difference %.3g > %.3g)\n", name, FNR, i, $i, ref[FNR, i], d, lim; bad = 1 }
        if (colmax[i] > 0 && d / colmax[i] > worst) worst = d / colmax[i]
      }
    }
    END {
      if (n1 != n2) { printf "%s: %d lines, expected %d\n", name, n2, n1; bad = 1 }
      printf "%s: %d lines, largest difference %.3g of the column maximum\n", name, n2, worst
      exit bad
    }' "$1" "$2"
}
ok=1
compare_csv "$work/one/spectra.csv" "$work/mpi/spectra.csv" || ok=0
n_mon=0
for f in "$work/one/monitors/"*.csv; do
  [ -e "$f" ] || continue
  n_mon=$((n_mon + 1))
  [ -e "$work/mpi/monitors/$(basename "$f")" ] || { echo "missing monitors/$(basename "$f")"; ok=0; continue; }
  compare_csv "$f" "$work/mpi/monitors/$(basename "$f")" || ok=0
done
[ "$n_mon" -gt 0 ] || fail "the project wrote no time-monitor CSV"
# Far fields (issue 52): rank 0 projects the surface DFTs gathered from every rank.
n_ff=0
if grep -q '"far_field"' "$project"; then
  for f in "$work/one/far_field/"*.csv; do
    [ -e "$f" ] || continue
    n_ff=$((n_ff + 1))
    [ -e "$work/mpi/far_field/$(basename "$f")" ] || { echo "missing far_field/$(basename "$f")"; ok=0; continue; }
    compare_csv "$f" "$work/mpi/far_field/$(basename "$f")" || ok=0
  done
  [ "$n_ff" -gt 0 ] || fail "the project has far fields but the one-process run wrote no far_field/*.csv"
  grep -q '"far_field"' "$work/mpi/summary.json" || { echo "the $np-rank summary.json has no far_field"; ok=0; }
  # golightly-cli farfield RESULTS --monitor M on both folders: its default directions and
  # a grid of others (3D: theta x phi; 2D: phi); 8 numbers a line, 7 significant digits
  for f in "$work/one/far_field/"*_surface.csv; do
    [ -e "$f" ] || continue
    stem=$(basename "$f" _surface.csv)
    [ -e "$work/mpi/far_field/$(basename "$f")" ] || continue
    for grid in default "--theta 0:180:13 --phi 0:350:36"; do
      extra=(); [ "$grid" = default ] || read -r -a extra <<< "$grid"
      for side in one mpi; do
        { echo "wavelength theta phi intensity e_theta_re e_theta_im e_phi_re e_phi_im"
          "$cli" farfield "$work/$side" --monitor "$stem" "${extra[@]}" --backend cpu; } >"$work/farfield_$side.txt" ||
          fail "golightly-cli farfield $work/$side --monitor $stem ${extra[*]} failed"
      done
      [ "$(wc -l <"$work/farfield_one.txt")" -gt 1 ] || fail "golightly-cli farfield $f printed no direction"
      echo -n "farfield $(basename "$f") ($grid): "
      compare_csv "$work/farfield_one.txt" "$work/farfield_mpi.txt" 7 " " || ok=0
    done
  done
fi
[ "$ok" = 1 ] || fail "$np ranks differ from one process"
echo "PASS: $np ranks equal one process (spectra.csv, $n_mon time monitors and $n_ff far-field CSVs)"
