#!/usr/bin/env bash
# MPI ranks and the adjoint optimizer (issue 53 item 4): `mpirun -np N golightly-cli optimize
# --adjoint PROJECT` against the same optimization in one process.
#
#   mpi_optimize_test.sh compare CLI MPIEXEC PROJECT N WORKDIR ITERATIONS
#       optimizes PROJECT for ITERATIONS evaluations in one process and on N CPU ranks (one
#       thread each), then resumes both for one more (--resume: the ranks other than 0 take
#       rank 0's checkpoint over MPI), and compares what each wrote:
#         history.csv  the same header and rows; iteration, beta and steps equal; every
#                      other column but wall_s within the tolerance below;
#         density.csv  (density designs) rho and rho_projected within 1e-10 (they are in [0, 1]);
#         final.glproj, final.gds (2D density designs) byte for byte where the densities are
#                      byte for byte equal (otherwise said, not compared: the contours'
#                      rounding to the GDS grid may then differ);
#       the same files in both folders, each `iteration` line printed once (rank 0 alone
#       prints), and the "subdomains:" line naming N ranks.
#   mpi_optimize_test.sh differ CLI MPIEXEC PROJECT N WORKDIR ITERATIONS OTHER
#       the negative check: the one-process run of PROJECT against N ranks of OTHER (another
#       start density): the comparison above must fail on the objective.
#   mpi_optimize_test.sh fail CLI MPIEXEC PROJECT N WORKDIR
#       GOLIGHTLY_MPI_FAIL_RANK=1 makes rank 1 throw while it builds its first engine (the
#       normalization run): every rank must end, mpirun must exit 3, stderr must name rank 1
#       and no history.csv may be written.
#
# Tolerance. Every rank's run driver reads the same reductions (distributed.hpp: the DFTs
# gathered from the subdomains that own each sample, the field energy summed, rank 0's sum
# broadcast), so every rank computes the same objective and gradient and NLopt takes the same
# steps on each. Against one process, the subdomains update every owned cell with the one
# engine's operations and the halos are exact copies; what may differ is an FMA contracted
# in a vector loop of another length (tests/solver/test_adjoint_devices.cpp): 1.1e-16 relative
# per update, at most ~4000 steps * 1.1e-16 ~ 5e-13 of the fields after a run, ~1e-12 in the
# product of a forward and an adjoint field. MMA's step is a smooth function of the objective
# and gradient (moving asymptotes at a distance of order 1 from rho), which may amplify that
# by an order of magnitude or two over three evaluations: |mpi - one| <= 1e-10 of the column's
# largest |one|, far below what a decomposition error gives (a design sample read on the
# wrong rank, a halo plane missing: O(1) changes; adjoint2d_other.glproj's 10 % change of
# the start density moves the objective by ~1e-2).
#
# The Open MPI flags: mpi_flags.sh.
set -euo pipefail
mode=$1 cli=$2 mpiexec=$3 project=$4 np=$5 work=$6 iterations=${7:-2} other=${8:-}
rm -rf "$work"
mkdir -p "$work"

source "$(dirname "$0")/mpi_flags.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$mode" = fail ]; then
  set +e
  GOLIGHTLY_MPI_FAIL_RANK=1 timeout 120 "$mpiexec" "${mpi_flags[@]}" -np "$np" "$cli" optimize --adjoint "$project" \
    --out "$work/out" --threads 1 --max-iterations 2 >"$work/stdout.txt" 2>"$work/stderr.txt"
  rc=$?
  set -e
  cat "$work/stderr.txt" >&2
  [ "$rc" = 124 ] && fail "mpirun did not end within 120 s after rank 1 failed (the other ranks hang)"
  [ "$rc" = 3 ] || fail "mpirun exited $rc, expected 3 (run failed)"
  grep -q "rank 1: error: .*GOLIGHTLY_MPI_FAIL_RANK" "$work/stderr.txt" || fail "stderr does not name rank 1 and the reason"
  [ ! -e "$work/out/history.csv" ] || fail "history.csv was written although no iteration ran"
  echo "PASS: rank 1's failure ended all $np ranks with exit 3"
  exit 0
fi
[ "$mode" = compare ] || [ "$mode" = differ ] || fail "unknown mode $mode"
[ "$mode" = compare ] || [ -n "$other" ] || fail "differ needs OTHER"
export GOLIGHTLY_MPI_FAIL_RANK=   # empty: no rank fails
mpi_project=$project
[ "$mode" = differ ] && mpi_project=$other

# optimize SIDE [--resume]: one process (SIDE one) or N ranks (SIDE mpi), ITERATIONS evaluations
# (one more with --resume)
optimize() {
  local side=$1 n=$iterations log="$work/$1.log"; shift
  [ "${1:-}" = --resume ] && { n=1; log="$work/$side.resume.log"; }
  local -a cmd=("$cli" optimize --adjoint "$project" --out "$work/$side" --threads 1 --max-iterations "$n" "$@")
  if [ "$side" = mpi ]; then
    cmd=(timeout 300 "$mpiexec" "${mpi_flags[@]}" -np "$np" "$cli" optimize --adjoint "$mpi_project" --out "$work/$side"
         --threads 1 --max-iterations "$n" "$@")
  fi
  local rc=0
  "${cmd[@]}" >"$log" 2>&1 || rc=$?
  [ "$rc" = 0 ] || { cat "$log" >&2; fail "$side: ${cmd[*]} exited $rc"; }
  grep -E "^(subdomains|iteration|done)" "$log" | sed "s/^/$side: /"
}

# compare_csv ONE MPI: the tolerance of the header comment; exit 1 when they differ.
compare_csv() {
  awk -F, -v tol=1e-10 -v name="$(basename "$1")" '
    function abs(x) { return x < 0 ? -x : x }
    /^#/ { next }
    NR == FNR {
      n1++; w[n1] = NF
      for (i = 1; i <= NF; i++) { ref[n1, i] = $i; if (n1 > 1 && abs($i + 0) > colmax[i]) colmax[i] = abs($i + 0) }
      if (n1 == 1) for (i = 1; i <= NF; i++) head[i] = $i
      next
    }
    {
      n2++
      if (NF != w[n2]) { printf "%s line %d: %d fields, expected %d\n", name, n2, NF, w[n2]; bad = 1; next }
      for (i = 1; i <= NF; i++) {
        if (n2 == 1) { if ($i != ref[n2, i]) { printf "%s header differs: %s vs %s\n", name, $i, ref[n2, i]; bad = 1 } continue }
        if (head[i] == "wall_s") continue
        exact = head[i] == "iteration" || head[i] == "beta" || head[i] == "steps" || head[i] == "i" || head[i] == "j" || head[i] == "k"
        d = abs($i - ref[n2, i]); lim = exact ? 0 : (head[i] ~ /^rho/ ? tol : tol * colmax[i])
        if (d > lim) { printf "%s line %d %s: %s vs %s (difference %.3g > %.3g)\n", name, n2, head[i], $i, ref[n2, i], d, lim; bad = 1 }
        if (colmax[i] > 0 && d / colmax[i] > worst) worst = d / colmax[i]
      }
    }
    END {
      if (n1 != n2) { printf "%s: %d lines, expected %d\n", name, n2, n1; bad = 1 }
      printf "%s: %d lines, largest difference %.3g of the column maximum\n", name, n2, worst
      exit bad
    }' "$1" "$2"
}

# compare_folders: 0 when equal (the header comment), 1 otherwise
compare_folders() {
  local ok=1 f
  compare_csv "$work/one/history.csv" "$work/mpi/history.csv" || ok=0
  if [ -e "$work/one/density.csv" ]; then
    compare_csv "$work/one/density.csv" "$work/mpi/density.csv" || ok=0
    if cmp -s "$work/one/density.csv" "$work/mpi/density.csv"; then
      for f in final.glproj final.gds; do
        [ -e "$work/one/$f" ] || continue
        cmp -s "$work/one/$f" "$work/mpi/$f" || { echo "$f differs although the densities are equal"; ok=0; }
      done
    else
      echo "density.csv not byte for byte equal: final.glproj and final.gds not compared"
    fi
  fi
  [ "$ok" = 1 ]
}

optimize one
optimize mpi
if [ "$mode" = differ ]; then
  if compare_folders; then fail "the one-process run of $(basename "$project") equals $np ranks of $(basename "$other"): the comparison cannot fail"; fi
  grep -q "objective" <(compare_csv "$work/one/history.csv" "$work/mpi/history.csv" || true) ||
    fail "the comparison of $(basename "$project") with $(basename "$other") did not name the objective"
  echo "PASS: the comparison tells $(basename "$other") on $np ranks from $(basename "$project") in one process"
  exit 0
fi
grep -q "^subdomains: cut along .*rank $((np - 1)) cells" "$work/mpi.log" || fail "no subdomains line for $np ranks in mpi.log"
printed=$(grep -c "^iteration " "$work/mpi.log" || true)
[ "$printed" = "$iterations" ] || fail "$np ranks printed $printed iteration lines, expected $iterations (rank 0 alone prints)"
[ "$(cd "$work/one" && ls | sort)" = "$(cd "$work/mpi" && ls | sort)" ] ||
  fail "the folders hold other files: $(cd "$work/one" && ls | tr '\n' ' ') vs $(cd "$work/mpi" && ls | tr '\n' ' ')"
compare_folders || fail "$np ranks differ from one process"
optimize one --resume
optimize mpi --resume
compare_folders || fail "$np ranks differ from one process after --resume"
rows=$(grep -c "^[0-9]" "$work/mpi/history.csv" || true)
[ "$rows" = "$((iterations + 1))" ] || fail "history.csv has $rows rows after --resume, expected $((iterations + 1))"
echo "PASS: $np ranks equal one process ($iterations evaluations and one resumed)"
