// 2D mode sources and mode monitors along a Bloch-periodic axis (issue 51): the Bloch slab
// solver (mode_solver_bloch.hpp) against the continuum transfer-matrix (Kronig-Penney)
// dispersion of a periodic slab array, the Bloch closure of its profiles, and FDTD runs
// (TMz, TEz) of the array's Bloch supermode launched by the one-way mode source and
// measured by a mode monitor (conjugated projection, mode_plane.hpp
// mode_amplitudes_bloch_line).
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <complex>
#include <cstdio>
#include <string>

#include "bloch_array_project.hpp"
#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/mode_solver.hpp"
#include "golightly/mode_solver_bloch.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

using namespace golightly;
using cd = std::complex<double>;

namespace {

// One period L = 1 um of the array: a slab of eps 12 on [0.3, 0.7] um in eps 2.25.
constexpr double kL = 1.0, kA = 0.3, kB = 0.7, kEpsCore = 12.0, kEpsClad = 2.25, kWl = 1.55;

/// (1/2) tr M(beta) of one period (Yariv & Yeh, Optical Waves in Crystals, ch. 6; Kronig &
/// Penney 1931): in a uniform layer the field obeys F'' = -(k0^2 eps - beta^2) F; the
/// transfer matrix of (F, F'/p) over a layer of thickness d, q^2 = k0^2 eps - beta^2, is
/// [[cos qd, p sin(qd)/q], [-q sin(qd)/p, cos qd]] with p = 1 (TMz: Ez and Ez' continuous)
/// or p = eps (TEz: Hz and Hz'/eps continuous). Bloch modes of wavenumber k satisfy
/// cos(k L) = (1/2) tr M. Complex q covers the evanescent layers (the entries are even in q).
double half_trace(double beta, double k0, bool tez) {
    struct Layer {
        double d, eps;
    };
    const Layer layers[3] = {{kA, kEpsClad}, {kB - kA, kEpsCore}, {kL - kB, kEpsClad}};
    cd M[2][2] = {{1, 0}, {0, 1}};
    for (const Layer& l : layers) {
        const cd q = std::sqrt(cd(k0 * k0 * l.eps - beta * beta));
        const double p = tez ? l.eps : 1.0;
        const cd c = std::cos(q * l.d);
        const cd s_over_q = std::abs(q) > 1e-12 ? std::sin(q * l.d) / q : cd(l.d);
        const cd q_s = q * std::sin(q * l.d);
        const cd T[2][2] = {{c, p * s_over_q}, {-q_s / p, c}};
        cd R[2][2];
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) R[i][j] = T[i][0] * M[0][j] + T[i][1] * M[1][j];
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) M[i][j] = R[i][j];
    }
    return 0.5 * (M[0][0] + M[1][1]).real();
}

/// The continuum beta (1/um) of the band nearest `guess`: a sign change of
/// (1/2) tr M - cos kL bracketed within +-3 % of the guess, then bisection. 0 when none.
double continuum_beta(double guess, double k, double k0, bool tez) {
    auto f = [&](double b) { return half_trace(b, k0, tez) - std::cos(k * kL); };
    // scan outwards from the guess so that the nearest root is taken
    const int steps = 600;
    const double span = 0.03 * guess;
    for (int i = 1; i <= steps; ++i) {
        for (int side : {-1, 1}) {
            const double b0 = guess + side * span * (i - 1) / steps, b1 = guess + side * span * i / steps;
            if (f(b0) * f(b1) > 0) continue;
            double lo = std::min(b0, b1), hi = std::max(b0, b1);
            const double flo = f(lo);
            for (int it = 0; it < 200; ++it) {
                const double mid = 0.5 * (lo + hi);
                ((f(mid) > 0) == (flo > 0) ? lo : hi) = mid;
            }
            return 0.5 * (lo + hi);
        }
    }
    return 0;
}

/// eps at the nodes x_j = (j + 1/2) dx of one period with n nodes: the interfaces at 0.3 and
/// 0.7 um fall halfway between nodes (n a multiple of 10), where the 3-point scheme is
/// second order.
std::vector<double> period_eps(int n) {
    const double dx = kL / n;
    std::vector<double> eps(n);
    for (int j = 0; j < n; ++j) {
        const double x = (j + 0.5) * dx;
        eps[j] = x > kA && x < kB ? kEpsCore : kEpsClad;
    }
    return eps;
}

/// Largest residual of the 3-point equation of mode_solver_bloch.hpp at every node, the
/// neighbours past the ends taken by the closure E[-1] = c* E[n-1], E[n] = c E[0] with
/// c = exp(i phase), relative to max |E|; everything scaled by dx^2.
double stencil_residual(const std::vector<double>& eps, const BlochSlabMode& m, double dx, bool tez, double phase) {
    const int n = int(eps.size());
    const double k0dx = 2 * units::pi / kWl * dx, lam = std::pow(m.beta_per_um * dx, 2);
    const cd c = std::polar(1.0, phase);
    auto at = [&](int j) { return j < 0 ? std::conj(c) * m.profile[n - 1] : j >= n ? c * m.profile[0] : m.profile[j]; };
    auto mid = [&](int j) { return 1.0 / (0.5 * (eps[(j + n - 1) % n] + eps[j % n])); };  // between j-1 and j
    double worst = 0, mx = 0;
    for (int j = 0; j < n; ++j) {
        cd r;
        if (!tez)
            r = at(j + 1) - 2.0 * at(j) + at(j - 1) + (k0dx * k0dx * eps[j] - lam) * at(j);
        else
            r = mid(j + 1) * (at(j + 1) - at(j)) - mid(j) * (at(j) - at(j - 1)) + (k0dx * k0dx - lam / eps[j]) * at(j);
        worst = std::max(worst, std::abs(r));
        mx = std::max(mx, std::abs(at(j)));
    }
    return worst / mx;
}

}  // namespace

TEST_CASE("Bloch slab modes match the Kronig-Penney dispersion at second order (TMz and TEz)", "[bloch][mode]") {
    const double k0 = 2 * units::pi / kWl;
    for (bool tez : {false, true}) {
        for (double kfrac : {0.0, 0.2, 0.37, 0.5}) {  // k in 2 pi / L: 0.5 is the zone edge pi / L
            const double k = 2 * units::pi * kfrac / kL;
            for (int mode : {0, 1}) {
                double err[2] = {0, 0}, beta[2] = {0, 0}, beta_c = 0;
                const int ns[2] = {40, 80};
                for (int r = 0; r < 2; ++r) {
                    const int n = ns[r];
                    const double dx = kL / n;
                    const auto eps = period_eps(n);
                    const auto modes =
                        solve_bloch_slab_modes(eps, dx, kWl, tez ? Polarization::TEz : Polarization::TMz, 2, k);
                    REQUIRE(modes.size() == 2);
                    const BlochSlabMode& m = modes[std::size_t(mode)];
                    const double bc = continuum_beta(m.beta_per_um, k, k0, tez);
                    REQUIRE(bc > 0);
                    err[r] = std::abs(m.beta_per_um - bc) / bc;
                    beta[r] = m.beta_per_um;
                    beta_c = bc;
                    // The profile closes the stencil with the Bloch phase exp(i k L) (to
                    // rounding), and not with another phase (a test that can fail).
                    const double res = stencil_residual(eps, m, dx, tez, k * kL);
                    CHECK(res < 1e-12);
                    CHECK(stencil_residual(eps, m, dx, tez, k * kL + units::pi / 2) > 1e-4);
                    // n_eff is beta / k0; the peak is 1
                    CHECK(m.n_eff == Approx(m.beta_per_um / k0).epsilon(1e-14));
                    double pk = 0;
                    for (const cd& v : m.profile) pk = std::max(pk, std::abs(v));
                    CHECK(pk == Approx(1.0).epsilon(1e-14));
                    if (kfrac == 0.0) {  // k = 0: a real (periodic) mode
                        double im = 0;
                        for (const cd& v : m.profile) im = std::max(im, std::abs(v.imag()));
                        CHECK(im < 1e-12);
                    }
                }
                // The 3-point scheme is second order (interfaces halfway between nodes): the
                // error falls 4x per halving of dx, and Richardson's extrapolation
                // (4 beta_fine - beta_coarse) / 3 removes the dx^2 term, leaving O(dx^4), far
                // below the fine grid's error, if and only if the continuum root is the
                // limit of the discrete one (a wrong Bloch phase or dispersion relation
                // leaves an O(1) residue there).
                const double order = std::log2(err[0] / err[1]);
                const double extrap = std::abs((4 * beta[1] - beta[0]) / 3 - beta_c) / beta_c;
                std::printf("Bloch slab %s k = %.2f (2pi/L) mode %d: beta %.6f 1/um, rel. error %.2e (n = 40) "
                            "%.2e (n = 80), order %.3f, extrapolated %.1e\n",
                            tez ? "TEz" : "TMz", kfrac, mode, beta_c, err[0], err[1], order, extrap);
                CHECK(order > 1.8);
                CHECK(order < 2.2);
                CHECK(extrap < 0.1 * err[1]);
            }
        }
    }
}

TEST_CASE("Bloch slab modes: k = 0 differs from the Dirichlet line, k and k + 2 pi / L agree", "[bloch][mode]") {
    const int n = 40;
    const double dx = kL / n;
    const auto eps = period_eps(n);
    const auto periodic = solve_bloch_slab_modes(eps, dx, kWl, Polarization::TMz, 2, 0.0);
    const auto dirichlet = solve_slab_modes(eps, dx, kWl, Polarization::TMz, 2);
    REQUIRE(periodic.size() == 2);
    REQUIRE(dirichlet.size() == 2);
    // the Dirichlet line pins the cladding field at the period's ends (a few % of the
    // peak for the fundamental) to zero, lowering beta by ~2e-4; the periodic k = 0
    // supermode is not pinned (the Kronig-Penney case above: it is the array's mode)
    CHECK(periodic[0].beta_per_um > dirichlet[0].beta_per_um * (1 + 1e-5));
    const double k = 0.3 * 2 * units::pi;
    const auto a = solve_bloch_slab_modes(eps, dx, kWl, Polarization::TEz, 2, k);
    const auto b = solve_bloch_slab_modes(eps, dx, kWl, Polarization::TEz, 2, k + 2 * units::pi / kL);
    REQUIRE(a.size() == 2);
    REQUIRE(b.size() == 2);
    CHECK(a[0].beta_per_um == Approx(b[0].beta_per_um).epsilon(1e-12));
    CHECK_THROWS_AS(solve_bloch_slab_modes({}, dx, kWl, Polarization::TMz, 1, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(solve_bloch_slab_modes(eps, dx, kWl, Polarization::TEz, 1, 0.0, std::vector<double>(n + 1, 2.0)),
                    std::invalid_argument);
}

// The structured solver (bisection on the inertia, inverse iteration with a banded LU)
// against the dense Hermitian eigen-solver it replaced: n_eff to 1e-9 and each
// non-degenerate profile equal up to a phase (|<p_dense, p>| = |p_dense| |p| to 1e-9); the
// degenerate pairs of a uniform line (k = 0 and the zone edge: cos and sin, any basis)
// solve the stencil with the Bloch closure to rounding and are orthogonal. Periods of the
// slab array and of random layers, TMz and TEz, k from 0 to the zone edge.
TEST_CASE("Bloch slab modes: the structured solver gives the dense solver's modes", "[bloch][mode]") {
    std::uint64_t seed = 12345;
    auto uniform01 = [&] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return double(seed >> 11) / double(1ull << 53);
    };
    struct Case {
        std::string name;
        std::vector<double> eps;
    };
    std::vector<Case> cases = {{"array n 40", period_eps(40)}, {"array n 200", period_eps(200)},
                               {"array n 500", period_eps(500)}};
    for (int r = 0; r < 3; ++r) {
        std::vector<double> eps(60 + 17 * r);
        for (double& e : eps) e = 1.0 + 11.0 * uniform01();
        cases.push_back({"random n " + std::to_string(eps.size()), eps});
    }
    for (const Case& c : cases)
        for (bool tez : {false, true})
            for (double kfrac : {0.0, 0.2, 0.37, 0.5}) {
                const int n = int(c.eps.size());
                const double dx = kL / n, k = 2 * units::pi * kfrac / kL;
                const Polarization pol = tez ? Polarization::TEz : Polarization::TMz;
                const auto dense = solve_bloch_slab_modes_dense(c.eps, dx, kWl, pol, 4, k);
                const auto fast = solve_bloch_slab_modes(c.eps, dx, kWl, pol, 4, k);
                INFO(c.name << (tez ? " TEz" : " TMz") << " k " << kfrac);
                REQUIRE(fast.size() == dense.size());
                REQUIRE(!fast.empty());
                double worst_neff = 0, worst_profile = 0;
                for (std::size_t m = 0; m < fast.size(); ++m) {
                    worst_neff = std::max(worst_neff, std::abs(fast[m].n_eff - dense[m].n_eff));
                    cd dot = 0;
                    double na = 0, nb = 0;
                    for (std::size_t j = 0; j < fast[m].profile.size(); ++j) {
                        dot += std::conj(dense[m].profile[j]) * fast[m].profile[j];
                        na += std::norm(dense[m].profile[j]);
                        nb += std::norm(fast[m].profile[j]);
                    }
                    worst_profile = std::max(worst_profile, 1 - std::abs(dot) / std::sqrt(na * nb));
                }
                CHECK(worst_neff < 1e-9);
                CHECK(worst_profile < 1e-9);
            }
    // a uniform line: degenerate pairs (cos, sin) at k = 0 and at the zone edge
    for (double kfrac : {0.0, 0.5}) {
        const int n = 50;
        const std::vector<double> eps(n, 20.0);  // n L / wl = 2.9: five propagating modes or more
        const double dx = kL / n, k = 2 * units::pi * kfrac / kL;
        const auto dense = solve_bloch_slab_modes_dense(eps, dx, kWl, Polarization::TMz, 5, k);
        const auto fast = solve_bloch_slab_modes(eps, dx, kWl, Polarization::TMz, 5, k);
        REQUIRE(fast.size() == 5);
        REQUIRE(dense.size() == 5);
        INFO("uniform k " << kfrac);
        // k = 0: 0, then the pairs (1, 2), (3, 4); zone edge: pairs (0, 1), (2, 3)
        if (kfrac == 0.0) CHECK(std::abs(fast[1].n_eff - fast[2].n_eff) < 1e-12);
        else CHECK(std::abs(fast[0].n_eff - fast[1].n_eff) < 1e-12);
        for (std::size_t m = 0; m < 5; ++m) {
            CHECK(std::abs(fast[m].n_eff - dense[m].n_eff) < 1e-9);
            CHECK(stencil_residual(eps, fast[m], dx, false, k * kL) < 1e-12);
            for (std::size_t q = 0; q < m; ++q) {
                cd dot = 0;
                double na = 0, nb = 0;
                for (std::size_t j = 0; j < std::size_t(n); ++j) {
                    dot += std::conj(fast[q].profile[j]) * fast[m].profile[j];
                    na += std::norm(fast[q].profile[j]);
                    nb += std::norm(fast[m].profile[j]);
                }
                CHECK(std::abs(dot) / std::sqrt(na * nb) < 1e-9);
            }
        }
    }
    // the cost (the docstring's figures): one period of the slab array, 2 modes
    for (int n : {1000, 10000}) {
        const auto eps = period_eps(n);
        const auto t0 = std::chrono::steady_clock::now();
        const auto modes = solve_bloch_slab_modes(eps, kL / n, kWl, Polarization::TMz, 2, 0.37 * 2 * units::pi / kL);
        const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        REQUIRE(modes.size() == 2);
        CHECK(stencil_residual(eps, modes[0], kL / n, false, 0.37 * 2 * units::pi) < 1e-12);
        std::printf("Bloch slab solver, %d nodes, 2 modes: %.4f s (n_eff %.9f %.9f)\n", n, sec, modes[0].n_eff,
                    modes[1].n_eff);
    }
}

namespace {

/// The array in FDTD: Bloch-periodic along x (period 1 um, bloch_k = 0.25 in 2 pi / a, so
/// k L = pi / 2), PML along y (domain 1 x 4 um); the guide of eps_core on x in
/// [0.5 - half_width, 0.5 + half_width] um (default eps 12 on [0.3, 0.7]) along y in eps 2.25; a mode source across the period at y = 1.2 going +y; a mode
/// monitor at y = 2.6 (+y; its spectrum is the line's flux), a flux line at y = 0.6 (-y)
/// behind the source.
Project bloch_array(Polarization pol, double dx, double eps_core = kEpsCore, double half_width = 0.5 * (kB - kA),
                    int mode_index = 0) {
    static_assert(kL == 1.0 && kEpsClad == 2.25, "the shared array project has a 1 um period in eps 2.25");
    Project p = test::bloch_coupled_array(2, pol, dx, 0.0, eps_core, half_width);
    p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Pml, BoundaryKind::Pml};
    Source s;
    s.name = "in";
    s.type = SourceType::Line;
    s.from = {0.0, 1.2};
    s.to = {kL, 1.2};
    s.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    s.profile = SourceProfile::Mode;
    s.mode_index = mode_index;
    s.direction = "+y";
    s.waveform.wavelength_center = kWl;
    s.waveform.wavelength_span = 0.2;
    p.sources = {s};
    Monitor t;
    t.name = "T";
    t.type = MonitorType::Flux;
    t.kind = "mode";
    t.from = {0.0, 2.6};
    t.to = {kL, 2.6};
    t.direction = "+y";
    t.extra["modes"] = Json::array({0, 1});
    Monitor b = t;
    b.name = "B flux";
    b.kind = "flux";
    b.extra = Json::object();
    b.from = {0.0, 0.6};
    b.to = {kL, 0.6};
    b.direction = "-y";
    p.monitors = {t, b};
    p.run.normalization.enabled = false;
    p.run.stop.max_time_fs = 800;
    return p;
}

}  // namespace

TEST_CASE("Bloch mode source and monitor: the array supermode goes forward one way (TMz and TEz)", "[bloch][mode]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Project p = bloch_array(pol, 0.025);
        RunOptions o;
        o.threads = 2;
        const RunResult r = run_project(p, "bloch_array.glproj", o);
        REQUIRE(r.mode_coefficients.size() == 2);
        REQUIRE(r.spectra.size() == 2);
        const auto &a0 = r.mode_coefficients[0], &a1 = r.mode_coefficients[1];
        const auto &ft = r.spectra[0], &fb = r.spectra[1];
        for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
            const double pf = std::norm(a0.fwd[f]);
            std::printf("Bloch array %s wl %.4f: n_eff %.5f | |a+|^2 / flux %.6f | |a-|^2 / |a+|^2 %.2e | mode 1 "
                        "%.2e | flux behind / ahead %.2e\n",
                        pol == Polarization::TMz ? "TMz" : "TEz", units::hz_to_wavelength_um(r.frequency_hz[f]),
                        a0.n_eff[f], pf / ft.flux[f], std::norm(a0.bwd[f]) / pf, std::norm(a1.fwd[f]) / pf,
                        fb.flux[f] / ft.flux[f]);
            CHECK(ft.flux[f] > 0);
            CHECK(pf / ft.flux[f] > 0.99);
            CHECK(pf / ft.flux[f] < 1.01);
            CHECK(std::norm(a0.bwd[f]) / pf < 1e-3);
            CHECK(std::norm(a1.fwd[f]) / pf < 1e-3);
            CHECK(std::abs(fb.flux[f]) / ft.flux[f] < 1e-3);
        }
    }
}

// A strongly coupled array (eps 4, 0.7 um of each 1 um period): its Bloch modes' phase
// varies across the period, so the unconjugated product of mode_amplitudes' real lines
// would mix them (|sum e0 e1|^2 / |sum e0 e0 sum e1 e1| = 0.2 here, 2e-5 for the eps 12
// array above); the conjugated projection keeps the second supermode, launched alone, out
// of the fundamental's amplitude.
TEST_CASE("Bloch mode monitor: the second supermode of a coupled array projects on itself only (TMz and TEz)",
          "[bloch][mode]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Project p = bloch_array(pol, 0.025, 4.0, 0.35, 1);
        RunOptions o;
        o.threads = 2;
        const RunResult r = run_project(p, "bloch_array_coupled.glproj", o);
        REQUIRE(r.mode_coefficients.size() == 2);
        const auto &a0 = r.mode_coefficients[0], &a1 = r.mode_coefficients[1];
        const auto& ft = r.spectra[0];
        for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
            const double p1 = std::norm(a1.fwd[f]);
            std::printf("coupled Bloch array %s wl %.4f: n_eff %.5f %.5f | |a1+|^2 / flux %.6f | |a0+|^2 / |a1+|^2 "
                        "%.2e | |a1-|^2 / |a1+|^2 %.2e\n",
                        pol == Polarization::TMz ? "TMz" : "TEz", units::hz_to_wavelength_um(r.frequency_hz[f]),
                        a0.n_eff[f], a1.n_eff[f], p1 / ft.flux[f], std::norm(a0.fwd[f]) / p1,
                        std::norm(a1.bwd[f]) / p1);
            CHECK(p1 / ft.flux[f] > 0.99);
            CHECK(p1 / ft.flux[f] < 1.01);
            CHECK(std::norm(a0.fwd[f]) / p1 < 1e-3);
            CHECK(std::norm(a1.bwd[f]) / p1 < 1e-3);
        }
    }
}

TEST_CASE("Bloch mode lines that do not span the period are refused, naming the field", "[bloch][mode]") {
    Project p = bloch_array(Polarization::TMz, 0.05);
    p.sources[0].from = {0.2, 1.2};
    p.sources[0].to = {0.8, 1.2};
    try {
        (void)compile_project(p, "short.glproj", CompileOptions{});
        FAIL("a short mode line along the Bloch axis compiled");
    } catch (const ProjectError& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("sources[0].to") != std::string::npos);
        CHECK(msg.find("must span the whole period") != std::string::npos);
        CHECK(msg.find("mode source along the Bloch axis x") != std::string::npos);
        CHECK(msg.find(" of the 20 grid nodes along x") != std::string::npos);
    }
    p = bloch_array(Polarization::TMz, 0.05);
    p.monitors[0].from = {0.0, 2.6};
    p.monitors[0].to = {0.5, 2.6};
    try {
        (void)compile_project(p, "short.glproj", CompileOptions{});
        FAIL("a short mode monitor along the Bloch axis compiled");
    } catch (const ProjectError& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("monitors[0].to") != std::string::npos);
        CHECK(msg.find("mode monitor along the Bloch axis x with nonzero k must span the whole period") !=
              std::string::npos);
    }
}
