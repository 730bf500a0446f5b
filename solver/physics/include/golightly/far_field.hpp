#pragma once
// Near-to-far-field projection by the surface equivalence principle (Love's form): a
// closed surface S around every source and scatterer, with the frequency-domain fields on
// it, radiates into free space outside it as the equivalent surface currents
//     J = n x H,   M = -n x E       (n the outward normal)
// (Balanis, Antenna Theory, 4th ed., sec. 12.2-12.3; Taflove & Hagness, Computational
// Electrodynamics, 3rd ed., ch. 8). Time convention exp(-i omega t), k = omega / c0, eta0
// the vacuum impedance.
//
// 3D: with the radiation vectors N = sum_k J_k exp(-i k r.r_k) ds_k and L (the same of M),
// r the unit direction (theta from +z, phi from +x towards +y),
//     r E_theta exp(-i k r) = i k / (4 pi) (eta0 N_theta + L_phi),
//     r E_phi   exp(-i k r) = i k / (4 pi) (eta0 N_phi   - L_theta)
// (Balanis eq. 12-10 with j -> -i), and the radiation intensity U = r^2 |E|^2 / (2 eta0)
// per steradian.
// 2D (a closed line in the xy plane; fields uniform in z), the Green's function
// (i/4) H0^(1)(k rho) taken in the far zone, sqrt(rho) exp(-i k rho) E equals
// i k g2 [eta0 N_perp - rho x L] with g2 = (i/4) sqrt(2 / (pi k)) exp(-i pi/4):
//     TMz: E_z = i k g2 [eta0 N_z - (cos phi L_y - sin phi L_x)],
//     TEz: E_phi = i k g2 [eta0 (-sin phi N_x + cos phi N_y) + L_z],
// and U = rho |E|^2 / (2 eta0) per radian.
// The free-space k is used (the Yee grid's own wavenumber differs by (k dx)^2 / 24).
#include <array>
#include <complex>
#include <functional>
#include <vector>

#include "golightly/types.hpp"

namespace golightly {

/// Equivalent currents on a closed surface at one frequency.
struct SurfaceCurrents {
    double frequency_hz = 0;
    int dimensions = 3;              ///< 2: a closed line in the xy plane (position z ignored)
    Polarization polarization = Polarization::TMz;  ///< 2D only
    std::vector<Vec3> position_m;    ///< sample positions, m
    /// Per sample: J = n x H (A/m, or the DFT's A/m s) and M = -n x E (V/m, or V/m s),
    /// components x, y, z.
    std::vector<std::array<std::complex<double>, 3>> j, m;
    std::vector<double> ds;          ///< the length (2D, m) or area (3D, m^2) each sample stands for
};

/// The far field in one direction.
struct FarFieldSample {
    double theta_rad = 0, phi_rad = 0;  ///< 2D: theta = pi/2
    /// 3D: r E_theta and r E_phi with the outgoing exp(i k r) removed (V, or V s for DFT
    /// fields). 2D: sqrt(rho) E with exp(i k rho) removed (V/m^0.5): TMz E_z in e_theta
    /// (e_phi 0), TEz E_phi in e_phi (e_theta 0).
    std::complex<double> e_theta, e_phi;
    /// Radiation intensity: W/sr (3D) or W/m per radian (2D); the squares of the DFT
    /// units for DFT fields (as the flux spectra).
    double intensity = 0;
};

/// The radiation vectors of `s` in one direction: [0..2] N = sum_q J_q exp(-i k r.r_q) ds_q
/// (x, y, z), [3..5] L, the same sum of M (Balanis eq. 12-12a,b; in 2D the positions' z is
/// not used and r lies in the xy plane).
using RadiationVectors = std::array<std::complex<double>, 6>;

/// The O(samples x directions) part of the projection, done elsewhere (the GPU:
/// golightly/cuda_far_field.hpp, wired by the run layer): given `s` and the unit direction
/// vectors r [d] = (x, y, z) (2D: z = 0), returns the radiation vectors [d], or an empty
/// vector to leave the sum to project_far_field's own loop.
using RadiationVectorsFn = std::function<std::vector<RadiationVectors>(
    const SurfaceCurrents& s, const std::vector<std::array<double, 3>>& unit_directions)>;

/// Projects `s` to each direction (theta, phi), radians; in 2D only phi counts. With
/// `radiation_vectors`, the sums N and L come from it (when it returns one entry per
/// direction), the rest (E_theta, E_phi, intensity) from here.
/// Throws std::invalid_argument (sizes of the sample arrays differ, frequency <= 0, a
/// radiation_vectors result of the wrong length).
std::vector<FarFieldSample> project_far_field(const SurfaceCurrents& s,
                                              const std::vector<std::array<double, 2>>& directions,
                                              const RadiationVectorsFn& radiation_vectors = {});

/// Total radiated power from intensities on a theta x phi grid (theta_i = i pi /
/// (n_theta - 1), phi_j = 2 pi j / n_phi; index i * n_phi + j): the trapezoid rule in
/// theta with sin(theta) and the rectangle rule in phi (exact for trigonometric
/// polynomials of degree below n_phi). 2D: n_theta = 1, the sum over phi times 2 pi / n_phi.
double radiated_power(const std::vector<FarFieldSample>& grid, int n_theta, int n_phi);

}  // namespace golightly
