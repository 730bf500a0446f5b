// GoLightly: 1D eigenmodes of a 2D cross-section (slab modes) on the Yee grid, for the
// mode source (compile_project) and for tests.
#pragma once

#include <vector>

#include "golightly/project.hpp"

namespace golightly {

/// One guided (or box) mode of a 1D cross-section.
struct SlabMode {
    /// Eigenvalue root: beta~ = sqrt(lambda) (1/um). This is the propagation constant of
    /// the 3-point (Yee) discretization of the transverse operator, with the longitudinal
    /// derivative taken exactly (continuous interpretation); on a Yee grid with cell dx
    /// the lattice wavenumber is beta = (2/dx) asin(beta~ dx/2) (compile_project does this).
    double beta_per_um = 0;
    double n_eff = 0;  ///< beta_per_um / k0, k0 = 2 pi / wavelength_um
    /// Mode profile at the nodes: TMz: Ez; TEz: Hz. Normalized to max |.| = 1, positive at
    /// the peak.
    std::vector<double> profile;
};

/// Solves the 1D eigenproblem of a cross-section sampled at n nodes x_j = j dx (Dirichlet:
/// the field is zero at the virtual nodes -1 and n), 3-point differences:
///   TMz (field Ez, eps_r at the nodes):
///     (E[j+1] - 2 E[j] + E[j-1]) / dx^2 + k0^2 eps[j] E[j] = beta^2 E[j]
///   TEz (field Hz at the nodes, eps_r at the nodes = the tangential E positions; the
///   derivative coefficient 1/eps at the midpoints, eps_r_midpoints[k] between nodes k-1
///   and k, k = 0..n; default: the mean of eps of the two neighbours, which is right for
///   the longitudinal E that lives there, tangential to the slab's interfaces):
///     (m[j+1] (H[j+1] - H[j]) - m[j] (H[j] - H[j-1])) / dx^2 + k0^2 H[j] = beta^2 H[j] / eps[j],
///     m = 1 / eps_mid, symmetrized with H = diag(sqrt(eps)) g.
/// Both are symmetric tridiagonal problems (Eigen::SelfAdjointEigenSolver::
/// computeFromTridiagonal for the eigenvalues, inverse iteration for the vectors).
/// Returns up to max_modes modes in order of decreasing beta (index 0 = fundamental),
/// including unguided (box) modes; the caller decides which are guided (n_eff above the
/// cladding index). Eigenvalues <= 0 (evanescent) are not returned.
/// Orthogonality: TMz sum_j E_m E_n = 0; TEz sum_j H_m H_n / eps_j = 0 (m != n).
/// Throws std::invalid_argument for empty input, dx <= 0 or wavelength <= 0.
std::vector<SlabMode> solve_slab_modes(const std::vector<double>& eps_r, double dx_um, double wavelength_um,
                                       Polarization pol, int max_modes,
                                       const std::vector<double>& eps_r_midpoints = {});

}  // namespace golightly
