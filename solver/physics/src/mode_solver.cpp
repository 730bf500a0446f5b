// GoLightly: 1D slab eigenmodes on the Yee grid (see mode_solver.hpp).
#include "golightly/mode_solver.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Eigenvalues>

#include "golightly/units.hpp"

namespace golightly {
namespace {

/// Solves the tridiagonal system (sub dl, diag d, super du) x = b in place (b <- x) by
/// Gaussian elimination with partial pivoting (the algorithm of LAPACK dgtsv). Zero
/// pivots are replaced by a tiny number (inverse iteration wants the near-singular solve).
void solve_tridiagonal_pivoting(std::vector<double> dl, std::vector<double> d, std::vector<double> du,
                                std::vector<double>& b) {
    const int n = static_cast<int>(d.size());
    if (n == 1) {
        b[0] /= (d[0] != 0 ? d[0] : 1e-300);
        return;
    }
    std::vector<double> du2(n, 0.0);  // second superdiagonal created by row swaps
    for (int i = 0; i < n - 1; ++i) {
        if (std::abs(d[i]) >= std::abs(dl[i])) {
            if (d[i] == 0) d[i] = 1e-300;
            const double fact = dl[i] / d[i];
            d[i + 1] -= fact * du[i];
            b[i + 1] -= fact * b[i];
            du2[i] = 0;
        } else {
            const double fact = d[i] / dl[i];
            d[i] = dl[i];
            const double temp = d[i + 1];
            d[i + 1] = du[i] - fact * temp;
            if (i < n - 2) {
                du2[i] = du[i + 1];
                du[i + 1] = -fact * du2[i];
            }
            du[i] = temp;
            const double tb = b[i];
            b[i] = b[i + 1];
            b[i + 1] = tb - fact * b[i + 1];
        }
    }
    if (d[n - 1] == 0) d[n - 1] = 1e-300;
    b[n - 1] /= d[n - 1];
    b[n - 2] = (b[n - 2] - du[n - 2] * b[n - 1]) / d[n - 2];
    for (int i = n - 3; i >= 0; --i) b[i] = (b[i] - du[i] * b[i + 1] - du2[i] * b[i + 2]) / d[i];
}

}  // namespace

std::vector<SlabMode> solve_slab_modes(const std::vector<double>& eps_r, double dx_um, double wavelength_um,
                                       Polarization pol, int max_modes,
                                       const std::vector<double>& eps_r_midpoints) {
    const int n = static_cast<int>(eps_r.size());
    if (n == 0) throw std::invalid_argument("solve_slab_modes: empty cross-section");
    if (!(dx_um > 0) || !(wavelength_um > 0))
        throw std::invalid_argument("solve_slab_modes: dx and wavelength must be > 0");
    if (!eps_r_midpoints.empty() && static_cast<int>(eps_r_midpoints.size()) != n + 1)
        throw std::invalid_argument("solve_slab_modes: eps_r_midpoints must have n + 1 entries");
    const double k0dx = 2.0 * units::pi / wavelength_um * dx_um;
    const double k0dx2 = k0dx * k0dx;

    // Symmetric tridiagonal matrix C scaled by dx^2: eigenvalues lambda = beta^2 dx^2.
    Eigen::VectorXd diag(n), sub(std::max(n - 1, 0));
    std::vector<double> sqrt_eps(n, 1.0);
    if (pol == Polarization::TMz) {
        for (int j = 0; j < n; ++j) diag[j] = -2.0 + k0dx2 * eps_r[j];
        for (int j = 0; j + 1 < n; ++j) sub[j] = 1.0;
    } else {
        // m[k] = 1 / eps at the midpoint between nodes k-1 and k.
        std::vector<double> m(n + 1);
        for (int k = 0; k <= n; ++k) {
            if (!eps_r_midpoints.empty()) {
                m[k] = 1.0 / eps_r_midpoints[k];
            } else {
                const double a = eps_r[std::max(k - 1, 0)], b = eps_r[std::min(k, n - 1)];
                m[k] = 1.0 / (0.5 * (a + b));
            }
        }
        for (int j = 0; j < n; ++j) sqrt_eps[j] = std::sqrt(eps_r[j]);
        // A: diag -(m[j] + m[j+1]) + k0^2 dx^2, off m[j+1]; C = diag(sqrt eps) A diag(sqrt eps).
        for (int j = 0; j < n; ++j) diag[j] = eps_r[j] * (-(m[j] + m[j + 1]) + k0dx2);
        for (int j = 0; j + 1 < n; ++j) sub[j] = sqrt_eps[j] * sqrt_eps[j + 1] * m[j + 1];
    }

    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver;
    solver.computeFromTridiagonal(diag, sub, Eigen::EigenvaluesOnly);
    if (solver.info() != Eigen::Success) throw std::runtime_error("solve_slab_modes: eigenvalue iteration failed");
    const Eigen::VectorXd& lambda = solver.eigenvalues();  // increasing

    std::vector<SlabMode> modes;
    std::vector<std::vector<double>> found;  // normalized g vectors, for Gram-Schmidt
    const double scale = diag.cwiseAbs().maxCoeff() + 2.0 * (n > 1 ? sub.cwiseAbs().maxCoeff() : 0.0);
    for (int idx = n - 1; idx >= 0 && static_cast<int>(modes.size()) < max_modes; --idx) {
        const double lam = lambda[idx];
        if (!(lam > 0)) break;
        // Inverse iteration on (C - lam I).
        const double shift = lam + 1e-13 * scale;
        std::vector<double> dl(std::max(n - 1, 0)), d(n), du(std::max(n - 1, 0));
        for (int j = 0; j < n; ++j) d[j] = diag[j] - shift;
        for (int j = 0; j + 1 < n; ++j) dl[j] = du[j] = sub[j];
        std::vector<double> g(n);
        for (int j = 0; j < n; ++j) g[j] = 1.0 + 0.1 * std::sin(0.7 * j + 0.3 * idx);
        for (int it = 0; it < 4; ++it) {
            solve_tridiagonal_pivoting(dl, d, du, g);
            for (const auto& f : found) {
                double dot = 0;
                for (int j = 0; j < n; ++j) dot += f[j] * g[j];
                for (int j = 0; j < n; ++j) g[j] -= dot * f[j];
            }
            double norm = 0;
            for (double v : g) norm += v * v;
            norm = std::sqrt(norm);
            if (!(norm > 0)) break;
            for (double& v : g) v /= norm;
        }
        found.push_back(g);
        SlabMode mode;
        mode.beta_per_um = std::sqrt(lam) / dx_um;
        mode.n_eff = std::sqrt(lam) / k0dx;
        mode.profile.resize(n);
        for (int j = 0; j < n; ++j) mode.profile[j] = g[j] * sqrt_eps[j];
        int peak = 0;
        for (int j = 0; j < n; ++j)
            if (std::abs(mode.profile[j]) > std::abs(mode.profile[peak])) peak = j;
        const double p = mode.profile[peak];
        if (p != 0)
            for (double& v : mode.profile) v /= p;
        modes.push_back(std::move(mode));
    }
    return modes;
}

}  // namespace golightly
