#!/usr/bin/python3
"""Meep reference for the ring resonator of Meep's tutorial (Tutorial/Basics, "Modes of a
Ring Resonator"): the resonances Meep's Harminv finds, for GoLightly's resonance finder
(issue 52, "a 2D ring resonator: frequencies within 1e-4 and Q within 5 % of Meep's
Harminv on the same geometry and resolution").

Setup (Meep units: a = 1 um, frequency in c/a, i.e. f = 1 / wavelength_um):
  ring of index 3.4, inner radius 1 um, width 1 um, in air; cell 16 x 16 um with 2 um of
  PML inside it on every side; resolution 10 pixels/um (dx = 0.1 um), Courant 0.5,
  double precision, eps averaging on (Meep's default); mirror symmetry in y (the source
  lies on the axis);
  source: Ez point current at (r + 0.1, 0), GaussianSource(fcen = 0.15, fwidth = 0.1);
  Harminv of Ez at the source point over fcen +- df/2 = [0.1, 0.2] c/um, from the end
  of the source for RECORD time units (default 1000, 3336 fs).

Writes validation/meep_ring_reference.csv: frequency_c_per_um,wavelength_um,q,error
(Meep's Harminv error estimate) by increasing frequency. GoLightly's project is
validation/meep_ring.glproj; tests/solver/test_meep_ring.cpp compares.
Run with the Debian Meep: /usr/bin/python3 validation/meep_ring.py  (about 4 s)
"""
import argparse
import os

import meep as mp

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--resolution", type=int, default=10)
ap.add_argument("--record", type=float, default=1000, help="Harminv record after the source, Meep time units")
ap.add_argument("--out", default=os.path.join(here, "meep_ring_reference.csv"))
args = ap.parse_args()

n, w, r, pad, dpml = 3.4, 1.0, 1.0, 4.0, 2.0
sxy = 2 * (r + w + pad + dpml)
geometry = [mp.Cylinder(radius=r + w, material=mp.Medium(index=n)), mp.Cylinder(radius=r)]
fcen, df = 0.15, 0.1
sources = [mp.Source(mp.GaussianSource(fcen, fwidth=df), mp.Ez, mp.Vector3(r + 0.1))]
sim = mp.Simulation(cell_size=mp.Vector3(sxy, sxy), geometry=geometry, sources=sources,
                    resolution=args.resolution, symmetries=[mp.Mirror(mp.Y)],
                    boundary_layers=[mp.PML(dpml)])
h = mp.Harminv(mp.Ez, mp.Vector3(r + 0.1), fcen, df)
sim.run(mp.after_sources(h), until_after_sources=args.record)
with open(args.out, "w") as f:
    f.write("frequency_c_per_um,wavelength_um,q,error\n")
    for m in sorted(h.modes, key=lambda m: m.freq):
        f.write("%.10g,%.10g,%.8g,%.3g\n" % (m.freq, 1 / m.freq, m.Q, abs(m.err)))
print("wrote", args.out)
