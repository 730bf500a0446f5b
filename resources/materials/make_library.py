#!/usr/bin/env python3
"""Writes library.json, GoLightly's bundled material library, from the published parameters.

Metals: Lorentz-Drude (LD) model of A. D. Rakic, A. B. Djurisic, J. M. Elazar and
M. L. Majewski, "Optical properties of metallic films for vertical-cavity optoelectronic
devices", Appl. Opt. 37, 5271-5283 (1998), LD parameters in eV:
  eps(w) = 1 - f0 wp^2 / (w^2 + i w G0) + sum_j f_j wp^2 / (w_j^2 - w^2 - i w G_j)
(exp(-i w t) convention). In the GoLightly format (project-format.md, B-CALM eq. 1):
drude pole omega_p = sqrt(f0) wp, gamma = G0; lorentz pole j omega_p = sqrt(f_j) wp,
omega_0 = w_j, gamma = G_j, all converted to rad/s with 1 eV / hbar = 1.519267e15 rad/s.
(The gold set reproduces B-CALM Table 1, Wahl et al., PIER 138 (2013).)
Dielectrics: constant refractive index at 1.55 um, epsilon_inf = n^2.
Run: python3 make_library.py > library.json
"""
import json, math

EV = 1.519267447e15  # rad/s per eV (e / hbar)
RAKIC = "A. D. Rakic et al., Appl. Opt. 37, 5271 (1998), Lorentz-Drude model parameters"
# id, name, colour, wp (eV), [(f, G, w0) ...] with j = 0 the Drude term (w0 = 0)
METALS = [
    ("au", "Gold (Rakic 1998, Lorentz-Drude)", "#d4af37", 9.03,
     [(0.760, 0.053, 0.0), (0.024, 0.241, 0.415), (0.010, 0.345, 0.830), (0.071, 0.870, 2.969),
      (0.601, 2.494, 4.304), (4.384, 2.214, 13.32)]),
    ("ag", "Silver (Rakic 1998, Lorentz-Drude)", "#c0c0c0", 9.01,
     [(0.845, 0.048, 0.0), (0.065, 3.886, 0.816), (0.124, 0.452, 4.481), (0.011, 0.065, 8.185),
      (0.840, 0.916, 9.083), (5.646, 2.419, 20.29)]),
    ("al", "Aluminium (Rakic 1998, Lorentz-Drude)", "#a8a9ad", 14.98,
     [(0.523, 0.047, 0.0), (0.227, 0.333, 0.162), (0.050, 0.312, 1.544), (0.166, 1.351, 1.808),
      (0.030, 3.382, 3.473)]),
    ("cu", "Copper (Rakic 1998, Lorentz-Drude)", "#b87333", 10.83,
     [(0.575, 0.030, 0.0), (0.061, 0.378, 0.291), (0.104, 1.056, 2.957), (0.723, 3.213, 5.300),
      (0.638, 4.305, 11.18)]),
    ("cr", "Chromium (Rakic 1998, Lorentz-Drude)", "#8a8d8f", 10.75,
     [(0.168, 0.047, 0.0), (0.151, 3.175, 0.121), (0.150, 1.305, 0.543), (1.149, 2.676, 1.970),
      (0.825, 1.335, 8.775)]),
]
DIELECTRICS = [
    ("si", "Silicon (n = 3.476 at 1.55 um)", "#6e7b8b", 3.476,
     "H. H. Li, J. Phys. Chem. Ref. Data 9, 561 (1980): n = 3.476 at 1.55 um, 293 K"),
    ("sio2", "Silica SiO2 (n = 1.444 at 1.55 um)", "#b0e0e6", 1.444,
     "I. H. Malitson, J. Opt. Soc. Am. 55, 1205 (1965): fused silica, n = 1.444 at 1.55 um"),
    ("si3n4", "Silicon nitride Si3N4 (n = 1.996 at 1.55 um)", "#8fbc8f", 1.996,
     "K. Luke et al., Opt. Lett. 40, 4823 (2015): stoichiometric LPCVD Si3N4, n = 1.996 at 1.55 um"),
    ("inp", "Indium phosphide InP (n = 3.167 at 1.55 um)", "#9370db", 3.167,
     "G. D. Pettit and W. J. Turner, J. Appl. Phys. 36, 2081 (1965): n = 3.167 at 1.55 um"),
    ("gaas", "Gallium arsenide GaAs (n = 3.374 at 1.55 um)", "#708090", 3.374,
     "T. Skauli et al., J. Appl. Phys. 94, 6447 (2003): n = 3.374 at 1.55 um, room temperature"),
]

out = {
    "format": "golightly-material-library",
    "version": 1,
    "units": "omega_p, omega_0, gamma in rad/s (1 eV = 1.519267e15 rad/s); conductivity in S/m",
    "materials": [],
}
for mid, name, color, wp, terms in METALS:
    poles = []
    for k, (f, g, w0) in enumerate(terms):
        p = {"kind": "drude" if k == 0 else "lorentz", "omega_p": float("%.6e" % (math.sqrt(f) * wp * EV))}
        if k:
            p["omega_0"] = float("%.6e" % (w0 * EV))
        p["gamma"] = float("%.6e" % (g * EV))
        poles.append(p)
    out["materials"].append({
        "id": mid, "name": name, "epsilon_inf": 1.0, "mu_r": 1.0, "conductivity": 0.0,
        "poles": poles, "color": color,
        "source": RAKIC + " (wp = %g eV; f_j, Gamma_j, omega_j as in the paper), converted to rad/s" % wp,
        "rakic_ld_ev": {"omega_p": wp, "terms": [{"f": f, "Gamma": g, "omega": w0} for f, g, w0 in terms]},
    })
for mid, name, color, n, src in DIELECTRICS:
    out["materials"].append({
        "id": mid, "name": name, "epsilon_inf": float("%.6f" % (n * n)), "mu_r": 1.0, "conductivity": 0.0,
        "poles": [], "color": color, "source": src + "; epsilon_inf = n^2, valid near 1.55 um only",
        "refractive_index": n, "wavelength_um": 1.55,
    })
print(json.dumps(out, indent=1))
