#!/usr/bin/python3
"""Oblique Fresnel reflectance in Meep with a Bloch k_point (issue #51 cross-check).

The set-up of Meep's tutorial "Angular Reflectance Spectrum of a Planar Interface"
(Meep documentation, Python Tutorials, Basics): a cell along z (3D, zero size along x, y) with PML at both ends,
a planewave line current with the phase exp(i k_par x), k_point = k_par x (fixed across
the band), a half-space of index n2, the reflected flux from the difference of the
DFT fields of an empty run and the run with the interface. It prints, per wavelength,
the angle asin(k_par lambda / (2 pi)), Meep's R and Fresnel's, for s (E
normal to the plane of incidence) or p (E in the plane), as the GoLightly test
tests/solver/test_bloch.cpp does for the same half-space (eps 2.25, 30 and 60 degrees at
lambda_c = 1 um, band 0.95-1.05 um).

Usage: /usr/bin/python3 validation/meep_oblique_fresnel.py [--angle 30] [--pol s|p]
       [--resolution 100] [--csv FILE]
"""
import argparse
import math
import sys

import meep as mp
import numpy as np


def fresnel_r(pol, sin_t, n2):
    ci = math.sqrt(1 - sin_t**2)
    ct = math.sqrt(1 - (sin_t / n2) ** 2)
    r = (ci - n2 * ct) / (ci + n2 * ct) if pol == "s" else (n2 * ci - ct) / (n2 * ci + ct)
    return r * r


def run(angle_deg, pol, resolution, n2=1.5, wl_min=0.95, wl_max=1.05, nfreq=11, wl_c=1.0):
    dpml, sz = 1.0, 10.0
    cell = mp.Vector3(0, 0, sz + 2 * dpml)
    fmin, fmax = 1 / wl_max, 1 / wl_min
    fcen, df = 1 / wl_c, fmax - fmin
    # k_par at the centre wavelength, along x (Meep's units: 2 pi / a with a = 1 um)
    # the tutorial's oblique set-up: a 3D cell of zero size along x and y (dimensions = 3),
    # k_par along x (plane of incidence xz); s: E along y, p: E along x
    kp = math.sin(math.radians(angle_deg)) * fcen
    k = mp.Vector3(kp, 0, 0)
    comp = mp.Ey if pol == "s" else mp.Ex

    def pw_amp(x):
        return np.exp(1j * 2 * math.pi * k.dot(x))

    def sim_for(with_interface):
        geometry = []
        if with_interface:
            geometry = [mp.Block(mp.Vector3(mp.inf, mp.inf, 0.5 * sz + dpml), center=mp.Vector3(0, 0, 0.25 * sz + 0.5 * dpml),
                                 material=mp.Medium(index=n2))]
        src = [mp.Source(mp.GaussianSource(fcen, fwidth=2.5 * df), component=comp, center=mp.Vector3(0, 0, -0.5 * sz + 1),
                         amp_func=pw_amp)]
        sim = mp.Simulation(cell_size=cell, boundary_layers=[mp.PML(dpml)], sources=src, geometry=geometry,
                            k_point=k, dimensions=3, resolution=resolution)
        refl = sim.add_flux(0.5 * (fmin + fmax), fmax - fmin, nfreq,
                            mp.FluxRegion(center=mp.Vector3(0, 0, -0.25 * sz)))
        return sim, refl

    sim, refl = sim_for(False)
    sim.run(until_after_sources=mp.stop_when_fields_decayed(50, comp, mp.Vector3(0, 0, -0.25 * sz), 1e-9))
    empty_flux = mp.get_fluxes(refl)
    empty_data = sim.get_flux_data(refl)
    sim.reset_meep()
    sim, refl = sim_for(True)
    sim.load_minus_flux_data(refl, empty_data)
    sim.run(until_after_sources=mp.stop_when_fields_decayed(50, comp, mp.Vector3(0, 0, -0.25 * sz), 1e-9))
    refl_flux = mp.get_fluxes(refl)
    freqs = mp.get_flux_freqs(refl)
    rows = []
    for f, e, r in zip(freqs, empty_flux, refl_flux):
        wl = 1 / f
        sin_t = kp / f
        rows.append((wl, math.degrees(math.asin(sin_t)), -r / e, fresnel_r(pol, sin_t, n2)))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--angle", type=float, default=30.0)
    ap.add_argument("--pol", choices=["s", "p"], default="s")
    ap.add_argument("--resolution", type=int, default=100)
    ap.add_argument("--csv")
    a = ap.parse_args()
    rows = run(a.angle, a.pol, a.resolution)
    worst = max(abs(r[2] - r[3]) for r in rows)
    lines = ["wavelength_um,angle_deg,R_meep,R_fresnel"] + [f"{w:.6f},{t:.4f},{r:.6f},{fr:.6f}" for w, t, r, fr in rows]
    print("\n".join(lines))
    print(f"# {a.pol} at {a.angle} deg, resolution {a.resolution}: max |R_meep - R_fresnel| = {worst:.2e}", file=sys.stderr)
    if a.csv:
        with open(a.csv, "w") as fh:
            fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
