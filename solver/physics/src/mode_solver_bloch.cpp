// GoLightly: 1D Bloch eigenmodes of one period on the Yee grid (see mode_solver_bloch.hpp).
#include "golightly/mode_solver_bloch.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "golightly/units.hpp"

namespace golightly {

std::vector<BlochSlabMode> solve_bloch_slab_modes(const std::vector<double>& eps_r, double dx_um,
                                                  double wavelength_um, Polarization pol, int max_modes,
                                                  double bloch_k_per_um,
                                                  const std::vector<double>& eps_r_midpoints) {
    using cd = std::complex<double>;
    const int n = static_cast<int>(eps_r.size());
    if (n == 0) throw std::invalid_argument("solve_bloch_slab_modes: empty cross-section");
    if (!(dx_um > 0) || !(wavelength_um > 0))
        throw std::invalid_argument("solve_bloch_slab_modes: dx and wavelength must be > 0");
    if (!std::isfinite(bloch_k_per_um))
        throw std::invalid_argument("solve_bloch_slab_modes: the Bloch k must be finite");
    if (!eps_r_midpoints.empty() && static_cast<int>(eps_r_midpoints.size()) != n)
        throw std::invalid_argument("solve_bloch_slab_modes: eps_r_midpoints must have n entries (one period)");
    for (double e : eps_r)
        if (!(e > 0)) throw std::invalid_argument("solve_bloch_slab_modes: eps_r must be > 0");
    const double k0dx = 2.0 * units::pi / wavelength_um * dx_um;
    const double k0dx2 = k0dx * k0dx;
    const cd bloch = std::polar(1.0, bloch_k_per_um * n * dx_um);  // exp(i k L)

    // C (scaled by dx^2, eigenvalues beta^2 dx^2): diagonal d[j], coupling c[j] between
    // nodes j and j+1 (c[n-1]: node n-1 to node n = exp(i k L) node 0).
    std::vector<double> d(n), c(n);
    std::vector<double> sqrt_eps(n, 1.0);
    if (pol == Polarization::TMz) {
        for (int j = 0; j < n; ++j) d[j] = -2.0 + k0dx2 * eps_r[j];
        std::fill(c.begin(), c.end(), 1.0);
    } else {
        std::vector<double> m(n);  // 1 / eps between nodes j-1 and j (periodic)
        for (int j = 0; j < n; ++j)
            m[j] = 1.0 / (eps_r_midpoints.empty() ? 0.5 * (eps_r[(j + n - 1) % n] + eps_r[j]) : eps_r_midpoints[j]);
        for (int j = 0; j < n; ++j) sqrt_eps[j] = std::sqrt(eps_r[j]);
        for (int j = 0; j < n; ++j) d[j] = eps_r[j] * (-(m[j] + m[(j + 1) % n]) + k0dx2);
        for (int j = 0; j < n; ++j) c[j] = sqrt_eps[j] * sqrt_eps[(j + 1) % n] * m[(j + 1) % n];
    }
    Eigen::MatrixXcd C = Eigen::MatrixXcd::Zero(n, n);
    for (int j = 0; j < n; ++j) {
        C(j, j) += d[j];
        // row j reads node j+1 (wrapping: exp(i k L) times node 0) and, by Hermitian
        // symmetry, row j+1 reads node j with the conjugate factor
        const int r = (j + 1) % n;
        const cd f = j + 1 == n ? bloch : cd(1.0);
        C(j, r) += c[j] * f;
        C(r, j) += c[j] * std::conj(f);
    }
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXcd> solver(C, Eigen::ComputeEigenvectors);
    if (solver.info() != Eigen::Success)
        throw std::runtime_error("solve_bloch_slab_modes: eigenvalue iteration failed");
    const Eigen::VectorXd& lambda = solver.eigenvalues();  // increasing
    std::vector<BlochSlabMode> modes;
    for (int idx = n - 1; idx >= 0 && static_cast<int>(modes.size()) < max_modes; --idx) {
        const double lam = lambda[idx];
        if (!(lam > 0)) break;
        BlochSlabMode mode;
        mode.beta_per_um = std::sqrt(lam) / dx_um;
        mode.n_eff = std::sqrt(lam) / k0dx;
        mode.profile.resize(n);
        for (int j = 0; j < n; ++j) mode.profile[j] = solver.eigenvectors()(j, idx) * sqrt_eps[j];
        int peak = 0;
        for (int j = 0; j < n; ++j)
            if (std::abs(mode.profile[j]) > std::abs(mode.profile[peak])) peak = j;
        const cd p = mode.profile[peak];
        if (p != cd(0))
            for (cd& v : mode.profile) v /= p;
        modes.push_back(std::move(mode));
    }
    return modes;
}

}  // namespace golightly
