// GoLightly: 1D Bloch eigenmodes of a periodic 2D cross-section (a line spanning one period
// of a Bloch-periodic axis) on the Yee grid, for mode sources and mode monitors along a
// Bloch axis (compile_sources_2d.cpp, compile_monitors_2d.cpp) and for tests.
#pragma once

#include <complex>
#include <vector>

#include "golightly/project.hpp"

namespace golightly {

/// One Bloch mode of a periodic 1D cross-section.
struct BlochSlabMode {
    /// Eigenvalue root beta~ = sqrt(lambda) (1/um): the propagation constant along the
    /// line's normal of the 3-point discretization of the transverse operator (continuous
    /// interpretation, as SlabMode::beta_per_um; the lattice wavenumber is
    /// (2/dx) asin(beta~ dx/2)).
    double beta_per_um = 0;
    double n_eff = 0;  ///< beta_per_um / k0, k0 = 2 pi / wavelength_um
    /// Mode profile at the n nodes (complex): TMz: Ez; TEz: Hz. Divided by its value at the
    /// peak of |.|, so the peak is 1 (real). Bloch-periodic: extended past the line by
    /// E[j + n] = exp(i k L) E[j], L = n dx.
    std::vector<std::complex<double>> profile;
};

/// Solves the 1D eigenproblem of one period of a periodic cross-section sampled at n nodes
/// x_j = x_0 + j dx (j = 0..n-1; period L = n dx) with the Bloch condition
/// E[j + n] = exp(i k L) E[j] (the Bloch theorem F(x + L) = exp(+i k L) F(x), the time
/// convention exp(-i w t) of scene.hpp "Bloch-periodic axes") closing the 3-point stencil
/// at both ends: E[n] = exp(i k L) E[0], E[-1] = exp(-i k L) E[n-1].
///   TMz (field Ez, eps_r at the nodes):
///     (E[j+1] - 2 E[j] + E[j-1]) / dx^2 + k0^2 eps[j] E[j] = beta^2 E[j]
///   TEz (field Hz at the nodes, eps_r at the nodes; m = 1 / eps_mid with eps_mid[j] between
///   nodes j-1 and j, j = 0..n-1, eps_mid[0] between node n-1 of the previous period and
///   node 0; default: the mean of eps of the two neighbours, periodically):
///     (m[j+1] (H[j+1] - H[j]) - m[j] (H[j] - H[j-1])) / dx^2 + k0^2 H[j] = beta^2 H[j] / eps[j],
///   with m[n] = m[0], symmetrized with H = diag(sqrt(eps)) g as solve_slab_modes.
/// Both are n x n complex Hermitian, cyclic tridiagonal (the corner entries exp(-+i k L)
/// times the coupling). Solved in O(n) memory and O(n) time per mode: the eigenvalues by
/// bisection on the inertia of C - sigma I (Sylvester's law: the negative pivots of its
/// LDL^H factorization, a tridiagonal Sturm sequence bordered by the last node: the
/// bisection method for symmetric tridiagonal matrices of Golub & Van Loan, Matrix
/// Computations), about 55 bisections each; the eigenvectors by inverse iteration with a
/// banded LU with partial pivoting (the nodes ordered 0, n-1, 1, n-2, ... make the cyclic
/// matrix pentadiagonal), Gram-Schmidt within clusters of close eigenvalues (LAPACK
/// zstein's scheme); the returned eigenvalue is each vector's Rayleigh quotient, written as
/// k0^2 dx^2 sum eps |g|^2 minus a sum of squared differences so that its rounding is
/// relative to beta^2 dx^2 (bisection alone loses digits at a multiple eigenvalue).
/// Measured (Release, a loaded 2-core machine, 2 modes, TMz, the test "the structured solver
/// gives the dense solver's modes", and a stand-alone loop): 1-2 ms at 1000 nodes, 0.02 s at
/// 10000, 0.23 s at 100000 nodes per solve; the dense Eigen::SelfAdjointEigenSolver it
/// replaced took 3.4-4.2 s at 1000 nodes (solve_bloch_slab_modes_dense below). Against the
/// dense solver over 3000 random periods (3 to 152 nodes, random, uniform and layered eps,
/// TMz and TEz, k from 0 to the zone edge, 1 to 6 modes): n_eff within 3.3e-12, the
/// non-degenerate profiles equal up to a phase within 2e-15. The eigenvalues agree with the dense solver's to
/// its rounding (absolute ~ 1e-15 |C|, |C| ~ 4; tests/solver/test_bloch_mode_source.cpp
/// compares n_eff to 1e-9 and the profiles up to a phase). At k = 0 the modes are the periodic ones (not the
/// Dirichlet modes of solve_slab_modes) and real (a real start vector on a real operator).
/// Inputs: eps_r [n] (relative permittivity at the nodes), dx_um (um), wavelength_um (vacuum
/// wavelength, um), bloch_k_per_um: the Bloch wavenumber along the line in rad/um (the
/// project's domain.bloch_k in "1/um" directly; in "2pi/a" units, k = 2 pi v / L with L the
/// domain's period along the axis), eps_r_midpoints: empty or [n] (TEz only; see above).
/// Returns up to max_modes modes in order of decreasing beta (index 0 = fundamental);
/// eigenvalues <= 0 (evanescent along the normal) are not returned. Every returned mode is
/// a propagating Bloch mode of the periodic structure (no cladding test: the line is the
/// whole period). Orthogonality (Hermitian): TMz sum_j conj(E_m) E_n = 0; TEz
/// sum_j conj(H_m) H_n / eps_j = 0 (m != n, distinct beta).
/// Throws std::invalid_argument for fewer than 1 node, dx <= 0, wavelength <= 0, a
/// non-finite k, eps_r <= 0 or eps_r_midpoints of another size than n; std::runtime_error
/// if the inverse iteration does not reach a residual near rounding (not seen in the tests).
std::vector<BlochSlabMode> solve_bloch_slab_modes(const std::vector<double>& eps_r, double dx_um,
                                                  double wavelength_um, Polarization pol, int max_modes,
                                                  double bloch_k_per_um,
                                                  const std::vector<double>& eps_r_midpoints = {});

/// The same modes by the dense n x n Hermitian eigen-solver (Eigen::SelfAdjointEigenSolver:
/// Householder tridiagonalization and implicit QR, O(n^3) time, O(n^2) memory; 3.4 s at
/// 1000 nodes): the reference solve_bloch_slab_modes is tested against, and what it uses
/// below 3 nodes (where the corner and the neighbour coincide). Same arguments, results
/// (up to each profile's phase for degenerate eigenvalues) and errors.
std::vector<BlochSlabMode> solve_bloch_slab_modes_dense(const std::vector<double>& eps_r, double dx_um,
                                                        double wavelength_um, Polarization pol, int max_modes,
                                                        double bloch_k_per_um,
                                                        const std::vector<double>& eps_r_midpoints = {});

}  // namespace golightly
