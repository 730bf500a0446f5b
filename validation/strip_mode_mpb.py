#!/usr/bin/env python3
"""Independent reference for the 2D cross-section mode solver (tests/solver/test_mode_solver2d.cpp):
n_eff of the two lowest modes (TE0, TM0) of a 500 x 220 nm silicon strip (n 3.476) in oxide
(n 1.444) at 1.55 um, from MPB (plane-wave eigen-solver with its own sub-pixel smoothing;
Johnson & Joannopoulos, Opt. Express 8, 173 (2001)) through python3-meep's `meep.mpb`,
`find_k` along x at a fixed frequency, on the C++ test's window (2.0 um x 1.6 um, periodic
here, PEC there: the TE0 field has decayed by e^-6 at the walls).

Writes validation/strip_mode_mpb_reference.csv: resolution_per_um,band,n_eff, plus the
Richardson extrapolation of the three finest resolutions (resolution_per_um = inf).
Usage: python3 validation/strip_mode_mpb.py [resolution ...]   (default 32 64 128)
Needs python3-meep and python3-h5py.
"""
import csv
import math
import os
import sys

import meep as mp
from meep import mpb

N_SI, N_OX, WL = 3.476, 1.444, 1.55
W, H = 0.5, 0.22
LY, LZ = 2.0, 1.6


def neffs(resolution):
    ms = mpb.ModeSolver(geometry_lattice=mp.Lattice(size=mp.Vector3(0, LY, LZ)),
                        geometry=[mp.Block(size=mp.Vector3(mp.inf, W, H), material=mp.Medium(index=N_SI))],
                        default_material=mp.Medium(index=N_OX), resolution=resolution, num_bands=2,
                        tolerance=1e-10)
    f = 1.0 / WL
    ks = ms.find_k(mp.NO_PARITY, f, 1, 2, mp.Vector3(1, 0, 0), 1e-9, 2.4 * f, 1.0 * f, N_SI * f)
    return [k / f for k in ks]


def main():
    res = sorted(int(a) for a in sys.argv[1:]) or [32, 64, 128]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "strip_mode_mpb_reference.csv")
    rows = []
    for r in res:
        for band, n in enumerate(neffs(r), start=1):
            print(f"resolution {r}/um band {band}: n_eff {n:.7f}", flush=True)
            rows.append((str(r), band, n))
    if len(res) >= 3 and res[-1] == 2 * res[-2] == 4 * res[-3]:
        for band in (1, 2):
            n0, n1, n2 = (next(x[2] for x in rows if x[0] == str(r) and x[1] == band) for r in res[-3:])
            ratio = (n1 - n0) / (n2 - n1)
            p = min(max(math.log2(abs(ratio)), 1.0), 2.0)
            rich = n2 + (n2 - n1) / (2 ** p - 1)
            print(f"band {band}: observed order {math.log2(abs(ratio)):.2f}, Richardson n_eff {rich:.7f}")
            rows.append(("inf", band, rich))
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["resolution_per_um", "band", "n_eff"])
        for r in rows:
            w.writerow([r[0], r[1], f"{r[2]:.7f}"])
    print("wrote", out)


if __name__ == "__main__":
    main()
