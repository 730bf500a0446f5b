// GoLightly dispersive media: coefficients, analytic and discrete eps(w), stability.
// Formulas: see dispersion.hpp and the scene.hpp header comment.
#include "golightly/dispersion.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "golightly/units.hpp"

namespace golightly {

std::complex<double> analytic_epsilon(const Material& m, double w) {
    const std::complex<double> I(0, 1);
    std::complex<double> eps = m.epsilon_inf + I * m.conductivity / (units::eps0 * w);
    for (const Pole& p : m.poles) {
        const double w0 = p.kind == PoleKind::Drude ? 0.0 : p.omega_0;
        eps += p.omega_p * p.omega_p / (w0 * w0 - w * w - I * w * p.gamma);
    }
    return eps;
}

PoleCoeffs pole_coefficients(const Pole& p, double dt, double weight) {
    const double w0 = p.kind == PoleKind::Drude ? 0.0 : p.omega_0;
    const double den = 1.0 + 0.5 * p.gamma * dt;
    PoleCoeffs c;
    c.c1 = (2.0 - w0 * w0 * dt * dt) / den;
    c.c2 = -(1.0 - 0.5 * p.gamma * dt) / den;
    c.c3 = weight * p.omega_p * p.omega_p * dt * dt / den;
    return c;
}

std::complex<double> discrete_epsilon(double eps_inf, double sigma, const PoleSet& ps, double weight, double w,
                                      double dt) {
    const std::complex<double> I(0, 1);
    const std::complex<double> zm = std::exp(-I * w * dt), zp = std::exp(I * w * dt);
    std::complex<double> eps = eps_inf;
    // a generalized pole's P = m0 P~ + m1 (P~ - P~ one step earlier): the factor m0 + m1 (1 - e^{i w dt})
    for (const PoleCoeffs& c : ps.poles)
        eps += weight * c.c3 / (zm - c.c1 - c.c2 * zp) * (c.m0 + c.m1 * (1.0 - zp));
    eps += I * (sigma * dt / (2.0 * units::eps0)) / std::tan(0.5 * w * dt);
    return eps;
}

std::complex<double> cell_pole_susceptibility(const Scene& scene, Component e, CellIndex cell, double w) {
    const int c = static_cast<int>(e);
    if (c < 0 || c > 2) return 0.0;
    const DispersiveCells& dc = scene.dispersive[c];
    const auto it = std::lower_bound(dc.cells.begin(), dc.cells.end(), cell);
    if (it == dc.cells.end() || *it != cell) return 0.0;
    const std::size_t k = static_cast<std::size_t>(it - dc.cells.begin());
    return discrete_epsilon(0.0, 0.0, scene.pole_sets[dc.pole_set[k]], dc.weight[k], w, scene.dt_s);
}

double amplification_factor(double eps_inf, double sigma, const PoleSet& ps, double weight, double courant,
                            int dims, double dt) {
    const int N = int(ps.poles.size());
    const int n = 2 + 2 * N;
    const double s = sigma * dt / units::eps0;
    const double kmax = 2.0 * courant * std::sqrt(double(std::max(1, dims)));
    double worst = 0;
    // x = (E^n, H^{n-1/2}, P_m^n, P_m^{n-1}); H^{n+1/2} = H - kappa E^n; S curl = kappa H^{n+1/2}.
    for (int q = 0; q <= 64; ++q) {
        const double kappa = kmax * q / 64.0;
        Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
        // H row: H' = -kappa E + H
        M(1, 0) = -kappa;
        M(1, 1) = 1.0;
        const double inv = 1.0 / (eps_inf + 0.5 * s);
        // E' = [(eps_inf - s/2) E + kappa (H - kappa E) - sum (P'_m - P_m)] * inv
        M(0, 0) = (eps_inf - 0.5 * s - kappa * kappa) * inv;
        M(0, 1) = kappa * inv;
        for (int m = 0; m < N; ++m) {
            const PoleCoeffs& c = ps.poles[m];
            const int ip = 2 + m, io = 2 + N + m;
            // P'_m = c1 P_m + c2 Pold_m + w c3 E
            M(ip, ip) = c.c1;
            M(ip, io) = c.c2;
            M(ip, 0) = weight * c.c3;
            M(io, ip) = 1.0;  // Pold' = P
            // E row: -(Pt'_m - Pt_m) * inv with Pt = m0 P + m1 (P - Pold) (scene.hpp
            // PoleCoeffs): Pt' - Pt = (m0 + m1) (P' - P) - m1 (P - Pold)
            const double a = c.m0 + c.m1;
            M(0, ip) += -(a * (c.c1 - 1.0) - c.m1) * inv;
            M(0, io) += -(a * c.c2 + c.m1) * inv;
            M(0, 0) += -a * weight * c.c3 * inv;
        }
        Eigen::EigenSolver<Eigen::MatrixXd> es(M, false);
        for (int k = 0; k < n; ++k) worst = std::max(worst, std::abs(es.eigenvalues()[k]));
    }
    return worst;
}

}  // namespace golightly
