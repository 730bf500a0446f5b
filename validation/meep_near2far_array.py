#!/usr/bin/python3
"""Meep reference for GoLightly's 2D far field (issue 52: "a 2D grating or antenna array:
the far field equals Meep's near2far at equal resolution within 2 %").

Two in-phase Ez line currents one wavelength apart (x = -0.5 and +0.5 um) in vacuum, a
6 x 6 um cell with 1 um PML, GaussianSource(fcen = 1 c/um, fwidth = 0.4), a closed
near2far box of four regions at +-1.5 um, far field at R = 1000 um for phi = 0..359
degrees at f = 1 c/um (wavelength 1 um). Writes validation/meep_near2far_array_reference.csv:
phi_deg,ez2_normalized (|Ez|^2 over its maximum). Exact (continuum) array factor:
cos^2(pi cos phi). GoLightly's project: validation/meep_near2far_array.glproj;
tests/solver/test_far_field.cpp compares.
Run with the Debian Meep: /usr/bin/python3 validation/meep_near2far_array.py [--resolution 40]
"""
import argparse
import math
import os

import meep as mp

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--resolution", type=int, default=40)
ap.add_argument("--out", default=os.path.join(here, "meep_near2far_array_reference.csv"))
args = ap.parse_args()

dpml, L, fcen = 1.0, 4.0, 1.0
s = L + 2 * dpml
sources = [mp.Source(mp.GaussianSource(fcen, fwidth=0.4), mp.Ez, mp.Vector3(x, 0)) for x in (-0.5, 0.5)]
sim = mp.Simulation(cell_size=mp.Vector3(s, s), resolution=args.resolution, sources=sources,
                    boundary_layers=[mp.PML(dpml)])
b = 1.5
n2f = sim.add_near2far(fcen, 0, 1,
                       mp.Near2FarRegion(center=mp.Vector3(0, b), size=mp.Vector3(2 * b, 0), weight=1),
                       mp.Near2FarRegion(center=mp.Vector3(0, -b), size=mp.Vector3(2 * b, 0), weight=-1),
                       mp.Near2FarRegion(center=mp.Vector3(b, 0), size=mp.Vector3(0, 2 * b), weight=1),
                       mp.Near2FarRegion(center=mp.Vector3(-b, 0), size=mp.Vector3(0, 2 * b), weight=-1))
sim.run(until_after_sources=mp.stop_when_fields_decayed(20, mp.Ez, mp.Vector3(1, 1), 1e-8))
R = 1000
ez2 = []
for j in range(360):
    p = 2 * math.pi * j / 360
    ez2.append(abs(sim.get_farfield(n2f, mp.Vector3(R * math.cos(p), R * math.sin(p)))[2]) ** 2)
top = max(ez2)
with open(args.out, "w") as f:
    f.write("phi_deg,ez2_normalized\n")
    for j, v in enumerate(ez2):
        f.write("%d,%.8f\n" % (j, v / top))
print("wrote", args.out)
