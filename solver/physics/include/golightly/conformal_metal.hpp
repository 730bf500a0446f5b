// GoLightly: the exact ADE of a Yee E component in a cell cut by a dispersive metal and
// non-dispersive dielectrics (run.subpixel_metal "conformal"; docs/user-guide.md "Metals at
// cut cells").
//
// Sub-pixel averaging gives a cut cell the inverse permittivity tensor of Farjadpour et
// al., Opt. Lett. 31, 2972 (2006), eq. 1: eps^-1 = P <1/eps> + (1 - P) <eps>^-1, P = n n^T.
// Evaluated with the full eps(omega) of the metal instead of its eps_inf, the diagonal entry
// of component d (p = n_d^2, f the metal's fraction of the cell, eps_m(s) the metal):
//
//   1 / eps_dd(s) = p (f / eps_m(s) + h) + (1 - p) / (f eps_m(s) + a),                 (1)
//
// h = sum_k f_k / eps_k and a = sum_k f_k eps_k over the cell's other (non-dispersive)
// materials, s = -i omega (time convention exp(-i omega t)). For the normal component
// (p = 1) of a single Drude pole against eps_d this is the harmonic mean
// eps_d eps_m / (f eps_d + (1 - f) eps_m) = eps_inf' + wp'^2 / (w0'^2 + s^2 + g s) with
// A = f eps_d + (1 - f) eps_inf, w0'^2 = (1 - f) wp^2 / A, wp'^2 = f eps_d^2 wp^2 / A^2
// and the same g: a Lorentz pole with w0'^2 >= 0, wp'^2 >= 0, g >= 0, so passive (Mohammadi,
// Jalali and Agio, Opt. Express 16, 21131 (2008), who derive the same effective pole for
// contour-path FDTD; Liu, Brio and Moloney, Opt. Lett. 37, 3582 (2012)). In general (1) is
// a real rational function of s of degree 4N over 4N for a metal of N poles (2N for p = 0
// or 1). It is passive whatever p, f, h, a: Im eps_m >= 0 gives Im(1/eps_m) <= 0 and
// Im(1/(f eps_m + a)) <= 0, a sum of such terms with non-negative weights keeps the sign,
// and its inverse has Im >= 0 (for omega > 0). Its poles (the zeros of 1/eps_dd) therefore
// lie in the left half s-plane, and its partial fractions, paired into conjugate (or two
// real) roots, are terms (b0 + b1 s) / (s^2 + g s + w0^2) with g > 0, w0^2 > 0; b1 != 0
// where the roots' residues are complex (several poles of different damping).
//
// Computation: state-space realizations (each pole c / (s^2 + g s + w0^2) a 2-state block),
// inverted and summed as in (1), give 1/eps_dd as a 4N-state system; its inverse's state
// matrix has the poles of eps_dd as eigenvalues, and the residues follow from the
// eigenvectors (no polynomial roots: a degree-24 polynomial for B-CALM's 6-pole gold would
// lose them). Frequencies are scaled by the largest pole parameter first.
//
// Discretization of one term (b0 + b1 s) / (s^2 + g s + w0^2), to second order like the
// engines' ordinary poles (scene.hpp PoleCoeffs): Q~ follows the ordinary recursion of
// (g, w0) with c3 = sigma dt^2 / (1 + g dt/2), and P = m0 Q~ + m1 (Q~^{n+1} - Q~^n). Its
// z-transform is sigma (m0 + m1 (1 - e^{i w dt})) / (w0^2 - W^2 + g s_d),
// W = (2/dt) sin(w dt/2), s_d = -i sin(w dt)/dt; with 1 - e^{i w dt} = dt s_d + (dt^2/2) W^2
// and W^2 = w0^2 + g s_d - (w0^2 - W^2 + g s_d) this is
//   sigma [(m0 + m1 dt^2 w0^2 / 2) + m1 dt (1 + g dt/2) s_d] / (w0^2 - W^2 + g s_d) - sigma m1 dt^2 / 2,
// so m1 = b1 / (sigma dt (1 + g dt/2)), m0 = b0 / sigma - m1 dt^2 w0^2 / 2, and the constant
// -sigma m1 dt^2 / 2 is cancelled by adding delta = sigma m1 dt^2 / 2 to the cell's eps_inf:
// the discrete response is (b0 + b1 s_d) / (w0^2 - W^2 + g s_d), i.e. the term with s and
// s^2 replaced by the same second-order discrete operators as the ordinary poles.
// sigma = sqrt(b0^2 + (b1 w0)^2) keeps m0 and m1 dt w0 of order 1 (float32 state).
#pragma once

#include <complex>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/scene.hpp"

namespace golightly {

/// One term (b0 + b1 s) / (s^2 + gamma s + omega_0^2) of a partial-fraction expansion in
/// s = -i omega. b0 in rad^2/s^2, b1 in rad/s, gamma in rad/s, omega_0_sq in rad^2/s^2.
struct GeneralizedPole {
    double b0 = 0, b1 = 0, gamma = 0, omega_0_sq = 0;
};

/// The partial fractions of eps_dd(s) of (1) (header comment): eps_dd = epsilon_inf +
/// sum_terms (b0 + b1 s) / (s^2 + gamma s + omega_0^2).
struct CutCellResponse {
    double epsilon_inf = 1;              ///< eps_dd at s -> infinity: (1) with eps_m = its eps_inf
    std::vector<GeneralizedPole> terms;  ///< gamma > 0 and omega_0_sq > 0 each
};

/// The partial fractions of (1) for a cell: `metal` (its epsilon_inf and poles; a nonzero
/// conductivity is refused), its fraction f in (0, 1), p = n_d^2 in [0, 1] the squared
/// component of the interface normal along the E component, h = sum f_k / eps_k and
/// a = sum f_k eps_k over the other (non-dispersive) materials of the cell (their
/// fractions summing to 1 - f). p <= 1e-12 gives the metal's poles weighted by f
/// (b1 = 0), p >= 1 - 1e-12 the harmonic part alone.
/// Errors: std::invalid_argument for f or p out of range, h or a not positive when
/// f < 1, a metal with conductivity or without poles; std::runtime_error when a term
/// comes out unstable (Re s >= 0: cannot happen for passive input, header comment).
CutCellResponse cut_cell_response(const Material& metal, double f, double p, double h, double a);

/// eps_dd(omega) of a CutCellResponse (omega in rad/s, time convention exp(-i omega t)).
std::complex<double> evaluate(const CutCellResponse& r, double omega_rad_s);

/// The engine poles of a CutCellResponse at time step dt_s (header comment,
/// "Discretization"): one PoleCoeffs per term (m1 = 0 and m0 = 1 for b1 = 0), and
/// `eps_inf_shift` = sum of the terms' delta, to be added to the cell's eps_inf.
struct CutCellPoles {
    PoleSet poles;
    double eps_inf_shift = 0;
};
CutCellPoles cut_cell_poles(const CutCellResponse& r, double dt_s);

}  // namespace golightly
