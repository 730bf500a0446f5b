#!/usr/bin/python3
"""The `golightly-cli bench` problem in MIT Meep, for a side-by-side speed comparison.

Same grid: NX x NY (x NZ) Yee cells in total, PML of PML cells on every side (inside the
total, as in golightly-cli bench), Courant number 0.5, the same kind of material pattern
(8-cell blobs, half vacuum, the rest eps 2.1, 4 or 12; no sub-pixel averaging, as in the
bench scene), one line (2D, TMz) or plane (3D, Ez polarized) source, two flux monitors with
101 frequencies, STEPS time steps, one process. Prints one JSON object with
cells_per_s (cell updates per second of the stepping loop, initialisation excluded).

Usage: /usr/bin/python3 scripts/bench-meep.py [--size 2048,2048 | --size 128,128,128]
       [--steps 200] [--pml 16]
Needs Debian's python3-meep (scripts/setup-deps.sh --with-meep); it is not a dependency
of GoLightly.
"""
import argparse
import json
import time

import meep as mp
import numpy as np

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("--size", default="2048,2048")
ap.add_argument("--steps", type=int, default=200)
ap.add_argument("--pml", type=int, default=16)
args = ap.parse_args()
dims_n = [int(v) for v in args.size.split(",")]
dims = len(dims_n)
if dims not in (2, 3):
    raise SystemExit("--size takes NX,NY or NX,NY,NZ")
nx, ny = dims_n[0], dims_n[1]
nz = dims_n[2] if dims == 3 else 0

mp.verbosity(0)
# resolution 1: one Meep unit per cell; Meep's default Courant number is 0.5.
cell = mp.Vector3(nx, ny, nz)
fcen, df = 0.05, 0.04   # 20 cells per wavelength at the centre, in Meep units (c = 1)
src = [mp.Source(mp.GaussianSource(fcen, fwidth=df), component=mp.Ez,
                 center=mp.Vector3(-nx / 2 + args.pml + 8, 0),
                 size=mp.Vector3(0, ny - 2 * args.pml, max(nz - 2 * args.pml, 0)))]
rng = np.random.default_rng(1)
kind = rng.integers(0, 10, size=(nx // 8 + 1, ny // 8 + 1, nz // 8 + 1))
media = [mp.Medium(epsilon=e) for e in (2.1, 4.0, 12.0, 2.1)]
vacuum = mp.Medium(epsilon=1.0)


def blob_material(p):
    k = kind[int((p.x + nx / 2) // 8), int((p.y + ny / 2) // 8), int((p.z + nz / 2) // 8)]
    return vacuum if k < 5 else media[k % 4]


sim = mp.Simulation(cell_size=cell, resolution=1, boundary_layers=[mp.PML(args.pml)], sources=src,
                    default_material=blob_material, eps_averaging=False, force_complex_fields=False)
span = mp.Vector3(0, ny - 2 * args.pml, max(nz - 2 * args.pml, 0))
sim.add_flux(fcen, df, 101, mp.FluxRegion(center=mp.Vector3(-nx / 2 + args.pml + 4, 0), size=span))
sim.add_flux(fcen, df, 101, mp.FluxRegion(center=mp.Vector3(nx / 2 - args.pml - 4, 0), size=span))
sim.init_sim()
sim.run(until=5 * 0.5)  # warm-up: 5 steps
t0 = time.perf_counter()
steps0 = sim.meep_time() / sim.fields.dt
sim.run(until=args.steps * 0.5)
wall = time.perf_counter() - t0
steps = round(sim.meep_time() / sim.fields.dt - steps0)
print(json.dumps({"backend": "meep", "version": mp.__version__, "dims": dims, "size": dims_n,
                  "steps": steps, "wall_s": wall, "cells_per_s": nx * ny * max(nz, 1) * steps / wall}))
