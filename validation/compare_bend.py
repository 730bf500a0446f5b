#!/usr/bin/env python3
"""Runs golightly-cli on examples/waveguide_bend.glproj and compares its bend
transmittance T and reflectance R with Meep's (validation/meep_bend_reference.csv,
written by validation/meep_bend.py).

Both are on the same grid (0.1 um cells, Courant 0.5) and the same 100 frequencies,
0.1 to 0.2 c/um (Meep units, a = 1 um: f = 1 / wavelength_um), i.e. 5 to 10 um. GoLightly's
columns are matched to Meep's rows by wavelength (linear interpolation, which is exact
here since the frequencies coincide). Prints max |dT| and max |dR| over the band and the
wavelengths where they occur; exits 1 when either exceeds --tolerance (absolute, default
0.01), 2 when the run or the files fail.

Usage: validation/compare_bend.py [--cli PATH] [--out DIR] [--backend cpu|cuda|auto]
       [--precision float32|float64] [--threads N] [--tolerance 0.01] [--csv FILE]
The CLI is taken from --cli, else $GOLIGHTLY_CLI, else golightly-cli on the PATH.
Standard library only.
"""
import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def read_columns(path, names):
    """Columns `names` of a CSV file with a header line, as lists of floats."""
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        raise ValueError(f"{path}: no data rows")
    missing = [n for n in names if n not in rows[0]]
    if missing:
        raise ValueError(f"{path}: missing column(s) {', '.join(missing)}")
    return [[float(r[n]) for r in rows] for n in names]


def interp(x, xs, ys):
    """Linear interpolation of (xs, ys) at x; xs increasing; x must lie in [xs[0], xs[-1]]."""
    if not xs[0] - 1e-9 <= x <= xs[-1] + 1e-9:
        raise ValueError(f"wavelength {x} um outside the GoLightly spectrum [{xs[0]}, {xs[-1]}]")
    lo, hi = 0, len(xs) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if xs[mid] <= x:
            lo = mid
        else:
            hi = mid
    if xs[hi] == xs[lo]:
        return ys[lo]
    t = min(max((x - xs[lo]) / (xs[hi] - xs[lo]), 0.0), 1.0)
    return ys[lo] + t * (ys[hi] - ys[lo])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default=os.environ.get("GOLIGHTLY_CLI") or shutil.which("golightly-cli"))
    ap.add_argument("--project", default=os.path.join(ROOT, "examples", "waveguide_bend.glproj"))
    ap.add_argument("--reference", default=os.path.join(HERE, "meep_bend_reference.csv"))
    ap.add_argument("--out", help="results folder (default: a temporary one)")
    ap.add_argument("--backend", choices=["auto", "cpu", "cuda"])
    ap.add_argument("--precision", choices=["float32", "float64"])
    ap.add_argument("--threads", type=int)
    ap.add_argument("--tolerance", type=float, default=0.01)
    ap.add_argument("--csv", help="also write wavelength_um,T_meep,T_golightly,R_meep,R_golightly here")
    args = ap.parse_args()
    if not args.cli:
        print("compare_bend.py: no golightly-cli (give --cli or set GOLIGHTLY_CLI)", file=sys.stderr)
        return 2

    out = args.out or tempfile.mkdtemp(prefix="golightly-bend-")
    cmd = [args.cli, "run", args.project, "--out", out]
    if args.backend:
        cmd += ["--backend", args.backend]
    if args.precision:
        cmd += ["--precision", args.precision]
    if args.threads:
        cmd += ["--threads", str(args.threads)]
    print("running:", " ".join(cmd), file=sys.stderr)
    rc = subprocess.run(cmd).returncode
    if rc != 0:
        print(f"compare_bend.py: golightly-cli exited with {rc}", file=sys.stderr)
        return 2

    try:
        wl_m, t_m, r_m = read_columns(args.reference, ["wavelength_um", "T", "R"])
        wl_g, t_g, r_g = read_columns(os.path.join(out, "spectra.csv"), ["wavelength_um", "T", "R"])
    except (OSError, ValueError) as e:
        print(f"compare_bend.py: {e}", file=sys.stderr)
        return 2
    order = sorted(range(len(wl_g)), key=lambda k: wl_g[k])
    wl_g, t_g, r_g = ([v[k] for k in order] for v in (wl_g, t_g, r_g))

    rows = [(wl, tm, interp(wl, wl_g, t_g), rm, interp(wl, wl_g, r_g)) for wl, tm, rm in zip(wl_m, t_m, r_m)]
    dt = max(rows, key=lambda r: abs(r[2] - r[1]))
    dr = max(rows, key=lambda r: abs(r[4] - r[3]))
    max_dt, max_dr = abs(dt[2] - dt[1]), abs(dr[4] - dr[3])
    if args.csv:
        with open(args.csv, "w") as fh:
            fh.write("wavelength_um,T_meep,T_golightly,R_meep,R_golightly\n")
            for r in rows:
                fh.write(",".join(f"{v:.9g}" for v in r) + "\n")
    print(f"{len(rows)} wavelengths {min(wl_m):g}-{max(wl_m):g} um; results in {out}")
    print(f"max |dT| = {max_dt:.4f} at {dt[0]:.3f} um (Meep {dt[1]:.4f}, GoLightly {dt[2]:.4f})")
    print(f"max |dR| = {max_dr:.4f} at {dr[0]:.3f} um (Meep {dr[3]:.4f}, GoLightly {dr[4]:.4f})")
    ok = max_dt <= args.tolerance and max_dr <= args.tolerance
    print(("PASS" if ok else "FAIL") + f" (tolerance {args.tolerance:g} absolute)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
