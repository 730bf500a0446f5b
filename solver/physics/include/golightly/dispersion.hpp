// GoLightly dispersive media: the multi-pole Lorentz/Drude model of the project format,
// its auxiliary-differential-equation (ADE) discretization (scene.hpp header comment:
// "Dispersive cells") and the tools to check it: the analytic and the discrete eps(w),
// and the amplification factor of the discrete update in a uniform medium.
//
// Units: angular frequencies in rad/s, dt in s, conductivity in S/m. Time convention
// exp(-i w t): a lossy medium has Im eps > 0.
#pragma once

#include <complex>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/scene.hpp"

namespace golightly {

/// Analytic eps(w) = eps_inf + i sigma / (eps0 w) + sum_m wp^2 / (w0^2 - w^2 - i w g)
/// (B-CALM, Wahl et al., PIER 138 (2013), eq. 1). omega_rad_s > 0.
std::complex<double> analytic_epsilon(const Material& material, double omega_rad_s);

/// ADE coefficients of one pole for time step dt_s, its wp^2 scaled by `weight`
/// (scene.hpp: c1 = (2 - w0^2 dt^2)/(1 + g dt/2), c2 = -(1 - g dt/2)/(1 + g dt/2),
/// c3 = weight wp^2 dt^2 / (1 + g dt/2); Taflove & Hagness 3rd ed. sec. 9.4, Meep's
/// Lorentzian update).
PoleCoeffs pole_coefficients(const Pole& pole, double dt_s, double weight = 1.0);

/// The eps(w) the discrete update realizes, from the ADE coefficients themselves:
///   eps_d = eps_inf + weight * sum_m c3_m (m0_m + m1_m (1 - e^{i w dt}))
///                                 / (e^{-i w dt} - c1_m - c2_m e^{+i w dt})
///           + i (sigma dt / (2 eps0)) cot(w dt / 2)
/// (z-transform of P^{n+1} = c1 P^n + c2 P^{n-1} + c3 E^n and of the semi-implicit
/// conductivity term, referred to the Yee time difference e^{-i w dt} - 1). Equals
/// analytic_epsilon + O((w dt)^2).
std::complex<double> discrete_epsilon(double epsilon_inf, double sigma_s_per_m, const PoleSet& poles,
                                      double weight, double omega_rad_s, double dt_s);

/// The pole susceptibility the FDTD realizes in one E cell of a compiled scene at omega:
/// weight * sum over its pole set of the discrete susceptibility (discrete_epsilon with
/// eps_inf 0 and no conductivity, the scene's dt_s); 0 for a cell that is not dispersive
/// (Scene::dispersive[e] has no entry for it). Add it to the cell's averaged eps_inf to
/// get the cell's eps(omega) without conductivity. e: Ex, Ey or Ez; cell: flat index.
std::complex<double> cell_pole_susceptibility(const Scene& scene, Component e, CellIndex cell, double omega_rad_s);

/// Largest modulus of the eigenvalues of the one-step transition matrix of the discrete
/// update (scene.hpp) in a uniform medium, maximized over the spatial frequencies of a
/// `dimensions`-D Yee grid at Courant number S (kappa = (c dt) k~ in [0, 2 S sqrt(dims)],
/// 65 samples). State (E^n, H^{n-1/2}, P_m^n, P_m^{n-1}); the scheme is stable when the
/// result is <= 1 (to rounding: 1 + 1e-6). weight scales every c3.
double amplification_factor(double epsilon_inf, double sigma_s_per_m, const PoleSet& poles, double weight,
                            double courant, int dimensions, double dt_s);

}  // namespace golightly
