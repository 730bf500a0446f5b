#!/usr/bin/python3
"""Meep reference for the 90-degree waveguide bend (Meep tutorial "Basics",
section "Transmittance Spectrum of a Waveguide Bend").

Setup (Meep units: a = 1 um, frequency in c/a, i.e. f = 1 / wavelength_um):
  cell 16 x 32 um with 1 um of PML inside it on every side, resolution 10 pixels/um
  (dx = 0.1 um), Courant 0.5 (Meep's default), double precision;
  waveguide: eps = 12, width 1 um; the straight run has one infinite horizontal block
  centred at y = -11.5; the bend run has a horizontal block x in [-8, 4] and a vertical
  block x in [3, 4], y in [-12, 16] (an L, overlapping in the corner square);
  source: an Ez line current of length 1 um across the waveguide at x = -7 (the PML edge),
  GaussianSource(fcen = 0.15, fwidth = 0.1);
  flux planes (2 um wide, centred on the guide), 100 frequencies in [0.1, 0.2] c/um:
    reflection at x = -6.5, transmission at x = 7 (straight run, the incident power)
    and at y = 14.5 (bend run);
  stop: stop_when_fields_decayed(50, Ez, pt, 1e-3) after the sources, pt 0.5 um before the
  output PML on the guide axis.
  T = bend transmitted flux / straight flux at x = 7,
  R = -(flux of (bend fields - straight fields) at x = -6.5) / straight flux at x = 7.

Writes validation/meep_bend_reference.csv: wavelength_um,frequency_c_per_um,T,R in
increasing wavelength. Run with the Debian Meep: /usr/bin/python3 validation/meep_bend.py
"""
import argparse
import os
import sys

import meep as mp

RESOLUTION = 10      # pixels per um
SX, SY = 16.0, 32.0  # cell (um), PML included
DPML = 1.0           # PML thickness (um)
PAD = 4.0            # distance between the waveguide and the cell edge (um)
W = 1.0              # waveguide width (um)
EPS = 12.0
FCEN, DF = 0.15, 0.1  # pulse centre frequency and width (c/um)
NFREQ = 100

XCEN = 0.5 * (SX - W - 2 * PAD)   # x of the vertical guide's axis:    3.5
YCEN = -0.5 * (SY - W - 2 * PAD)  # y of the horizontal guide's axis: -11.5


def simulation(geometry, resolution):
    src = mp.Source(mp.GaussianSource(FCEN, fwidth=DF), component=mp.Ez,
                    center=mp.Vector3(-0.5 * SX + DPML, YCEN), size=mp.Vector3(0, W))
    return mp.Simulation(cell_size=mp.Vector3(SX, SY), boundary_layers=[mp.PML(DPML)],
                         geometry=geometry, sources=[src], resolution=resolution)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "meep_bend_reference.csv"))
    ap.add_argument("--resolution", type=int, default=RESOLUTION,
                    help="pixels per um (default 10, the tutorial's; the committed CSV uses 10)")
    args = ap.parse_args()
    core = mp.Medium(epsilon=EPS)
    refl_region = mp.FluxRegion(center=mp.Vector3(-0.5 * SX + DPML + 0.5, YCEN), size=mp.Vector3(0, 2 * W))

    # 1. straight waveguide: incident power and the incident fields on the reflection plane
    straight = simulation([mp.Block(size=mp.Vector3(mp.inf, W, mp.inf), center=mp.Vector3(0, YCEN),
                                    material=core)], args.resolution)
    refl = straight.add_flux(FCEN, DF, NFREQ, refl_region)
    out = straight.add_flux(FCEN, DF, NFREQ,
                            mp.FluxRegion(center=mp.Vector3(0.5 * SX - DPML, YCEN), size=mp.Vector3(0, 2 * W)))
    straight.run(until_after_sources=mp.stop_when_fields_decayed(
        50, mp.Ez, mp.Vector3(0.5 * SX - DPML - 0.5, YCEN), 1e-3))
    incident_fields = straight.get_flux_data(refl)
    incident = mp.get_fluxes(out)
    straight.reset_meep()

    # 2. the bend
    bend = simulation([
        mp.Block(size=mp.Vector3(SX - PAD, W, mp.inf), center=mp.Vector3(-0.5 * PAD, YCEN), material=core),
        mp.Block(size=mp.Vector3(W, SY - PAD, mp.inf), center=mp.Vector3(XCEN, 0.5 * PAD), material=core)],
        args.resolution)
    refl = bend.add_flux(FCEN, DF, NFREQ, refl_region)
    tran = bend.add_flux(FCEN, DF, NFREQ,
                         mp.FluxRegion(center=mp.Vector3(XCEN, 0.5 * SY - DPML - 0.5), size=mp.Vector3(2 * W, 0)))
    bend.load_minus_flux_data(refl, incident_fields)
    bend.run(until_after_sources=mp.stop_when_fields_decayed(
        50, mp.Ez, mp.Vector3(XCEN, 0.5 * SY - DPML - 0.5), 1e-3))
    reflected = mp.get_fluxes(refl)
    transmitted = mp.get_fluxes(tran)
    freqs = mp.get_flux_freqs(refl)

    rows = sorted((1.0 / f, f, t / p, -r / p) for f, t, r, p in zip(freqs, transmitted, reflected, incident))
    with open(args.out, "w") as fh:
        fh.write("wavelength_um,frequency_c_per_um,T,R\n")
        for wl, f, t, r in rows:
            fh.write(f"{wl:.9g},{f:.9g},{t:.9g},{r:.9g}\n")
    print(f"wrote {args.out}: {len(rows)} rows, T in [{min(r[2] for r in rows):.4f}, "
          f"{max(r[2] for r in rows):.4f}], R in [{min(r[3] for r in rows):.4f}, {max(r[3] for r in rows):.4f}]",
          file=sys.stderr)


if __name__ == "__main__":
    main()
