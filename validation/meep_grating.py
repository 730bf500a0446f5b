#!/usr/bin/python3
"""Meep reference for GoLightly's diffraction monitor (issue 51, validation: "a 1D binary
grating (Si on SiO2, period 1 um) at normal incidence: efficiency per order within 1 %
(absolute) of Meep at equal resolution").

Set-up (Meep units: a = 1 um, frequency in c/a = 1 / vacuum wavelength in um); GoLightly
coordinates (x_gl, y_gl) = (x_meep + 0.5, y_meep + 1.5), the interior of
validation/meep_grating.glproj:
  period 1 um along x (periodic, k_point 0), y from -2.5 to 2.5 with 1 um of PML inside the
  cell at both ends (GoLightly: interior y 0..3 um, PML outside it);
  SiO2 (eps 2.1025) for y_gl < 1.5125 (through the lower PML), a Si ridge (eps 12.11)
  x_gl 0.2625..0.7625 (width 0.5 um), y_gl 1.5125..1.8125 (height 0.3 um), air above;
  every interface lies halfway between two Ez nodes, so no Ez sample is cut and both codes
  hold the same discrete structure (averaging off in both: it would change nothing for Ez);
  source: Ez line current across the period at y_gl 0.5, Gaussian pulse with GoLightly's
  wavelength_center 0.85, wavelength_span 0.3 (carrier 1/0.85 c/um; Meep's fwidth
  = pi df / sqrt(2) with df the 1/e amplitude band, the same exp(-t^2 / 2 tau^2) envelope);
  reflection plane y_gl 1.0 (in SiO2), transmission plane y_gl 2.5 (in air);
  spectrum: 11 frequencies uniform from 1/0.95 to 1/0.75 c/um (GoLightly's run.spectrum
  0.75..0.95 um, 11 points): air carries orders 0, +-1 (1/lambda > 1), SiO2 0, +-1
  (1.45/lambda < 2), no Rayleigh anomaly inside the band;
  resolution 40 pixels/um (dx = 0.025 um), Courant 0.5, double precision.
Incident flux: a run with SiO2 everywhere (GoLightly: normalization with a reference-only
SiO2 layer over the whole domain). Per order m: Meep's mode decomposition on a
DiffractedPlanewave((m, 0, 0), x, s=1, p=0) (Ez is S-polarized for the plane spanned by k
and x): transmission |alpha_fwd|^2 / P_inc on the upper plane, reflection |alpha_bwd|^2 /
P_inc on the lower one (the incident wave is forward only, so no subtraction is needed).

Writes validation/meep_grating_reference.csv:
  wavelength_um,frequency_c_per_um,side,order,efficiency,flux_total
(side: transmission | reflection; flux_total: the plane's whole normalized flux, for the
sum check). tests/solver/test_diffraction.cpp compares.
--polarization TE: the same with an Ex current (Ex, Hz: GoLightly's TEz; P-polarized for
DiffractedPlanewave) and every interface moved to a quarter cell (y_gl 1.50625, 1.80625,
x_gl 0.25625..0.75625), where neither Ex nor Ey nodes lie, so that point sampling gives both
codes the same structure; writes meep_grating_te_reference.csv (validation/meep_grating_te.glproj).
--angle DEG (issue 51, "at normal and 20 degrees"): oblique incidence from the SiO2 side at
DEG degrees at the centre wavelength, Meep's fixed-k Bloch set-up (Meep tutorial "Mode
Decomposition", binary grating at oblique incidence): k_point = (k_x, 0) with
k_x = n_SiO2 sin(DEG) / wl_c (Meep's units, 2 pi left out; GoLightly's angle_deg on a line
source in SiO2 gives the same k_par = 2 pi k_x rad/um), the line current carries
exp(2 pi i k_x x); both runs (reference and grating) use it. At the spectrum wavelength
lambda the incident angle is asin(k_x lambda / n) and order m leaves with
k_x,m = k_x + m / period (propagating where |k_x,m| < n / lambda), so the orders are
asymmetric and their number changes across the band. The per-order Poynting figure takes
the Bloch phase exp(2 pi i k_x x) off the DFT fields before the Fourier transform.
Writes meep_grating_20deg_reference.csv (TE: meep_grating_te_20deg_reference.csv) for 20.
Run with the Debian Meep: /usr/bin/python3 validation/meep_grating.py [--polarization TE] [--angle 20]
"""
import argparse
import math
import os

import meep as mp
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--resolution", type=int, default=40)
ap.add_argument("--polarization", choices=("TM", "TE"), default="TM",
                help="TM: Ez (GoLightly TMz); TE: Ex, Hz (TEz) with the interfaces a quarter cell off the E nodes")
ap.add_argument("--angle", type=float, default=0.0,
                help="incidence angle in degrees in the SiO2 at the centre wavelength 0.85 um (fixed-k Bloch source)")
ap.add_argument("--out", help="default: validation/meep_grating_reference.csv (TM), meep_grating_te_reference.csv (TE)")
args = ap.parse_args()
te = args.polarization == "TE"
if args.out is None:
    suffix = "" if args.angle == 0 else "_%gdeg" % args.angle
    args.out = os.path.join(here, ("meep_grating_te%s_reference.csv" if te else "meep_grating%s_reference.csv") % suffix)

period, dpml, ly = 1.0, 1.0, 3.0
sx, sy = period, ly + 2 * dpml
shift_x, shift_y = 0.5, 0.5 * sy - dpml  # x_gl = x_meep + shift_x, y_gl = y_meep + shift_y
sio2 = mp.Medium(epsilon=2.1025)
si = mp.Medium(epsilon=12.11)
y_sub, ridge = 1.5125, (0.2625, 0.7625, 1.5125, 1.8125)
if te:
    # Ex sits at (i + 1/2, j) dx, Ey at (i, j + 1/2) dx: interfaces at a quarter cell miss both
    q = 0.25 / args.resolution
    y_sub, ridge = 1.5 + q, (0.25 + q, 0.75 + q, 1.5 + q, 1.8 + q)
e_comp, h_comp = (mp.Ex, mp.Hz) if te else (mp.Ez, mp.Hx)
y_src, y_refl, y_tran = 0.5, 1.0, 2.5

wl_c, wl_span = 0.85, 0.3
fcen = 1 / wl_c
df_pulse = 1 / (wl_c - wl_span / 2) - 1 / (wl_c + wl_span / 2)
fwidth = math.pi * df_pulse / math.sqrt(2)
f_lo, f_hi, nfreq = 1 / 0.95, 1 / 0.75, 11


# Bloch wave vector along x (Meep units: cycles per um, 2 pi left out), fixed across the band
n_sio2 = math.sqrt(2.1025)
kx = n_sio2 * math.sin(math.radians(args.angle)) / wl_c


def gl(y):
    return y - shift_y


sources = [mp.Source(mp.GaussianSource(fcen, fwidth=fwidth), component=e_comp,
                     center=mp.Vector3(0, gl(y_src)), size=mp.Vector3(sx, 0),
                     amp_func=lambda p: complex(math.cos(2 * math.pi * kx * p.x), math.sin(2 * math.pi * kx * p.x)))]
common = dict(cell_size=mp.Vector3(sx, sy), resolution=args.resolution, k_point=mp.Vector3(kx),
              boundary_layers=[mp.PML(dpml, direction=mp.Y)], sources=sources,
              eps_averaging=False, Courant=0.5)
decay_pt = mp.Vector3(0, gl(y_tran))


def run(sim, monitors):
    sim.run(until_after_sources=mp.stop_when_fields_decayed(20, e_comp, decay_pt, 1e-9))
    return monitors


# reference: SiO2 everywhere
ref = mp.Simulation(default_material=sio2, **common)
fc, dfr = 0.5 * (f_lo + f_hi), f_hi - f_lo
inc = ref.add_mode_monitor(fc, dfr, nfreq, mp.FluxRegion(center=mp.Vector3(0, gl(y_refl)), size=mp.Vector3(sx, 0)))
run(ref, None)
p_inc = np.array(mp.get_fluxes(inc))
freqs = np.array(mp.get_flux_freqs(inc))
inc_data = ref.get_flux_data(inc)

geometry = [
    mp.Block(material=sio2, center=mp.Vector3(0, 0.5 * (-0.5 * sy + gl(y_sub))),
             size=mp.Vector3(mp.inf, gl(y_sub) + 0.5 * sy, mp.inf)),
    mp.Block(material=si,
             center=mp.Vector3(0.5 * (ridge[0] + ridge[1]) - shift_x, gl(0.5 * (ridge[2] + ridge[3]))),
             size=mp.Vector3(ridge[1] - ridge[0], ridge[3] - ridge[2], mp.inf)),
]
sim = mp.Simulation(geometry=geometry, **common)
refl = sim.add_mode_monitor(fc, dfr, nfreq, mp.FluxRegion(center=mp.Vector3(0, gl(y_refl)), size=mp.Vector3(sx, 0)))
tran = sim.add_mode_monitor(fc, dfr, nfreq, mp.FluxRegion(center=mp.Vector3(0, gl(y_tran)), size=mp.Vector3(sx, 0)))
sim.load_minus_flux_data(refl, inc_data)  # the reflection plane sees the reflected fields only
run(sim, None)
t_flux = np.array(mp.get_fluxes(tran)) / p_inc
r_flux = -np.array(mp.get_fluxes(refl)) / p_inc



def poynting_orders(mon, k, sign):
    """Power per Floquet order (m -> P_m, Meep's flux units, positive along `sign` * y) of the
    DFT fields on a plane spanning the period: Meep returns them co-located on the cell
    centres, 42 points for 40 cells, the first and last the periodic images of the 40th and
    1st (weights 1/8 and 7/8 of a cell at both ends); points 1..40 are one period. Per order,
    P_m = a Re(conj(Ez_m) Hx_m) with S_y = Ez Hx (TE: -Ex Hz), Ez_m = 1/N sum_j Ez_j
    exp(-2 pi i k_x x_j) exp(-2 pi i m j / N) (Parseval: the orders sum to the discrete flux;
    x_j = j dx up to a constant, whose phase cancels in conj(Ez_m) Hx_m)."""
    ez = np.asarray(sim.get_dft_array(mon, e_comp, k))[1:-1]
    hx = np.asarray(sim.get_dft_array(mon, h_comp, k))[1:-1] * (-1 if te else 1)
    n_pts = len(ez)
    unbloch = np.exp(-2j * math.pi * kx * period * np.arange(n_pts) / n_pts)
    ez, hx = ez * unbloch, hx * unbloch
    e_m, h_m = np.fft.fft(ez) / n_pts, np.fft.fft(hx) / n_pts
    p = sign * period * np.real(np.conj(e_m) * h_m)
    return {int(m if m <= n_pts // 2 else m - n_pts): p[m] for m in range(n_pts)}


def poynting_incident(k):
    ez = np.asarray(ref.get_dft_array(inc, e_comp, k))[1:-1]
    hx = np.asarray(ref.get_dft_array(inc, h_comp, k))[1:-1] * (-1 if te else 1)
    return period * np.real(np.mean(np.conj(ez) * hx))


p_inc_poynting = np.array([poynting_incident(k) for k in range(nfreq)])
rows = []
for side, mon, n, direction in (("transmission", tran, 1.0, 0), ("reflection", refl, math.sqrt(2.1025), 1)):
    orders_poynting = [poynting_orders(mon, k, 1 if direction == 0 else -1) for k in range(nfreq)]
    m_lo = int(math.floor((-n * f_hi - kx) * period))
    m_hi = int(math.ceil((n * f_hi - kx) * period))
    for m in range(m_lo, m_hi + 1):
        res = sim.get_eigenmode_coefficients(mon, mp.DiffractedPlanewave((m, 0, 0), mp.Vector3(1, 0, 0), 0 if te else 1, 1 if te else 0))
        alpha = res.alpha[0, :, direction] if res is not None else np.zeros(nfreq)
        for k, f in enumerate(freqs):
            if abs(kx + m / period) >= n * f:  # evanescent at this frequency
                continue
            eff = abs(alpha[k]) ** 2 / p_inc[k]
            total = t_flux[k] if side == "transmission" else r_flux[k]
            rows.append((1 / f, f, side, m, eff, orders_poynting[k][m] / p_inc_poynting[k], total))

rows.sort(key=lambda r: (r[0], r[2], r[3]))
with open(args.out, "w") as out:
    out.write("wavelength_um,frequency_c_per_um,side,order,efficiency,efficiency_poynting,flux_total\n")
    for r in rows:
        out.write("%.10g,%.10g,%s,%d,%.8f,%.8f,%.8f\n" % r)
for k, f in enumerate(freqs):
    st = sum(r[4] for r in rows if r[1] == f and r[2] == "transmission")
    sr = sum(r[4] for r in rows if r[1] == f and r[2] == "reflection")
    pt = sum(r[5] for r in rows if r[1] == f and r[2] == "transmission")
    pr = sum(r[5] for r in rows if r[1] == f and r[2] == "reflection")
    print("lambda %.4f: T orders %.5f poynting %.5f flux %.5f | R orders %.5f poynting %.5f flux %.5f" %
          (1 / f, st, pt, t_flux[k], sr, pr, r_flux[k]))
print("wrote", args.out)
