// Tests of the 1D slab mode solver against the analytic symmetric slab.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "golightly/mode_solver.hpp"
#include "golightly/units.hpp"

using namespace golightly;

namespace {

/// Effective index of mode m (0: fundamental, 1: first odd) of a symmetric slab of
/// width d_um, core index n1, cladding n2 (Marcuse; Snyder & Love ch. 12): with
/// u = kappa d/2, V = k0 d/2 sqrt(n1^2 - n2^2), w = sqrt(V^2 - u^2):
///   even: u tan u = r w,  odd: -u cot u = r w,   r = 1 (TE: E parallel to the slab),
///   r = n1^2/n2^2 (TM: H parallel to the slab).
double analytic_slab_neff(double n1, double n2, double d_um, double wavelength_um, bool tm, int m) {
    const double k0 = 2 * units::pi / wavelength_um;
    const double V = k0 * d_um / 2 * std::sqrt(n1 * n1 - n2 * n2);
    const double r = tm ? n1 * n1 / (n2 * n2) : 1.0;
    auto F = [&](double u) {
        const double w = std::sqrt(std::max(V * V - u * u, 0.0));
        return m == 0 ? u * std::tan(u) - r * w : -u / std::tan(u) - r * w;
    };
    double lo = m * units::pi / 2 + 1e-12, hi = std::min(V, (m + 1) * units::pi / 2) - 1e-12;
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        (F(mid) > 0 ? hi : lo) = mid;
    }
    const double u = 0.5 * (lo + hi);
    const double kappa = 2 * u / d_um;
    return std::sqrt(n1 * n1 - kappa * kappa / (k0 * k0));
}

/// eps at nodes j dx of a slab centred in [0, (n-1) dx] with core_nodes nodes inside.
std::vector<double> slab_eps(int n, int core_nodes, double eps_core, double eps_clad) {
    std::vector<double> eps(n, eps_clad);
    const int j0 = (n - core_nodes) / 2;
    for (int j = j0; j < j0 + core_nodes; ++j) eps[j] = eps_core;
    return eps;
}

}  // namespace

TEST_CASE("slab modes match the analytic symmetric slab (TE and TM)", "[compile][physics][mode]") {
    const double n1 = std::sqrt(12.0), n2 = 1.444, wl = 1.55, d = 0.3;
    for (double dx : {0.01, 0.0075}) {
        const int core = static_cast<int>(std::lround(d / dx));
        const int n = core + 2 * static_cast<int>(std::lround(1.5 / dx));
        const auto eps = slab_eps(n, core, n1 * n1, n2 * n2);
        INFO("dx = " << dx << " um, cells per wavelength in the core = " << wl / n1 / dx);
        for (bool tm : {false, true}) {
            const auto modes = solve_slab_modes(eps, dx, wl, tm ? Polarization::TEz : Polarization::TMz, 3);
            REQUIRE(modes.size() == 3);
            const double ne0 = analytic_slab_neff(n1, n2, d, wl, tm, 0);
            const double ne1 = analytic_slab_neff(n1, n2, d, wl, tm, 1);
            INFO((tm ? "TM (TEz, Hz)" : "TE (TMz, Ez)") << ": n_eff " << modes[0].n_eff << " vs " << ne0
                                                          << ", " << modes[1].n_eff << " vs " << ne1);
            CHECK(std::abs(modes[0].n_eff - ne0) < 1e-3);
            // TM1 is close to cut-off here (its tail reaches the box ends): TE1 only.
            if (!tm) CHECK(std::abs(modes[1].n_eff - ne1) < 2e-3);
            // The third is a radiation (box) mode below the cladding index.
            CHECK(modes[2].n_eff < n2);
            // Fundamental: even, positive, peak 1 at the centre; first mode odd.
            const auto& p0 = modes[0].profile;
            CHECK(p0[n / 2] == Approx(1.0).epsilon(0.02));
            for (double v : p0) CHECK(v > -1e-9);
            const auto& p1 = modes[1].profile;
            CHECK(p1[n / 2 - core / 4] * p1[n / 2 + core / 4 + 1] < 0);
            // Orthogonality (TMz: plain; TEz: weighted by 1/eps) and normalization.
            for (int a = 0; a < 3; ++a)
                for (int b = a + 1; b < 3; ++b) {
                    double dot = 0, na = 0, nb = 0;
                    for (int j = 0; j < n; ++j) {
                        const double w = tm ? 1.0 / eps[j] : 1.0;
                        dot += w * modes[a].profile[j] * modes[b].profile[j];
                        na += w * modes[a].profile[j] * modes[a].profile[j];
                        nb += w * modes[b].profile[j] * modes[b].profile[j];
                    }
                    CHECK(std::abs(dot) / std::sqrt(na * nb) < 1e-8);
                }
            double pmax = 0;
            for (double v : modes[0].profile) pmax = std::max(pmax, std::abs(v));
            CHECK(pmax == Approx(1.0));
        }
    }
}

TEST_CASE("slab mode solver: TM differs from TE, and a uniform medium has no guided mode",
          "[compile][mode]") {
    const double dx = 0.01;
    const auto eps = slab_eps(400, 30, 12.0, 2.085);
    const auto te = solve_slab_modes(eps, dx, 1.55, Polarization::TMz, 1);
    const auto tm = solve_slab_modes(eps, dx, 1.55, Polarization::TEz, 1);
    REQUIRE(te.size() == 1);
    REQUIRE(tm.size() == 1);
    CHECK(te[0].n_eff > tm[0].n_eff + 0.1);  // TM of a high-contrast slab is much less confined
    const auto uni = solve_slab_modes(std::vector<double>(4000, 2.25), dx, 1.55, Polarization::TMz, 1);
    REQUIRE(uni.size() == 1);
    CHECK(uni[0].n_eff < 1.5);
    CHECK(uni[0].n_eff > 1.49);
    CHECK_THROWS_AS(solve_slab_modes({}, dx, 1.55, Polarization::TMz, 1), std::invalid_argument);
}
