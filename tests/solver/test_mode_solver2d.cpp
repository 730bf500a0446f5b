// The full-vector cross-section mode solver (mode_solver2d.hpp, mode_plane.hpp): a slab
// (invariant along one axis of the cross-section) against the analytic TE/TM dispersion
// relation, with the convergence order in dx; the 500 x 220 nm silicon strip in oxide
// sampled from a 3D project (the FDTD's sub-pixel averaging) against its own Richardson
// extrapolation and an independent reference; the group index against n - lambda dn/dlambda.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"

using namespace golightly;


namespace {

constexpr double kNSi = 3.476, kNOx = 1.444;

// Symmetric slab (thickness d, core n1, cladding n2), fundamental even mode: TE (E
// parallel to the interfaces): kappa tan(kappa d/2) = gamma; TM (E normal to them):
// kappa tan(kappa d/2) = (n1^2/n2^2) gamma (Marcuse, Theory of Dielectric Optical
// Waveguides, ch. 1; Okamoto ch. 2). Bisection in n_eff over (n2, n1).
double slab_neff_analytic(double d, double n1, double n2, double wl, bool tm) {
    const double k0 = 2 * M_PI / wl;
    auto f = [&](double n) {
        const double kappa = k0 * std::sqrt(n1 * n1 - n * n), gamma = k0 * std::sqrt(n * n - n2 * n2);
        const double r = tm ? (n1 * n1) / (n2 * n2) : 1.0;
        return kappa * std::tan(kappa * d / 2) - r * gamma;
    };
    // the fundamental root: kappa d / 2 in (0, pi/2): n from sqrt(n1^2 - (pi/(k0 d))^2) up
    double lo = std::max(n2, std::sqrt(std::max(n1 * n1 - std::pow(M_PI / (k0 * d), 2), 0.0))) + 1e-12, hi = n1 - 1e-12;
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        if ((f(lo) < 0) == (f(mid) < 0)) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

// Fraction of the window [x - dx/2, x + dx/2] inside [a, b].
double frac(double x, double dx, double a, double b) {
    const double lo = std::max(x - dx / 2, a), hi = std::min(x + dx / 2, b);
    return std::max(hi - lo, 0.0) / dx;
}

// A slab [a, b] along `axis` (0 = u, 1 = v) of the cross-section, invariant along the other
// (periodic, one cell), sub-pixel averaged as the FDTD medium (Farjadpour et al. 2006):
// the component normal to the slab's faces sees the harmonic mean, the others the mean.
void slab_cross_section(int axis, double L, double dx, double a, double b, ModeGrid2D& g, ModeMedium2D& m) {
    const int n = static_cast<int>(std::lround(L / dx));
    g = ModeGrid2D{};
    g.dx_um = dx;
    if (axis == 0) {
        g.nu = n;
        g.nv = 1;
        g.boundary_u = ModeBoundary::pec;
        g.boundary_v = ModeBoundary::periodic;
    } else {
        g.nu = 1;
        g.nv = n;
        g.boundary_u = ModeBoundary::periodic;
        g.boundary_v = ModeBoundary::pec;
    }
    const double e1 = kNSi * kNSi, e2 = kNOx * kNOx;
    for (int d = 0; d < 3; ++d) {
        const auto s = mode_component_shape_e(g, d);
        m.eps[d].assign(static_cast<size_t>(s[0] * s[1]), e2);
        for (int j = 0; j < s[1]; ++j)
            for (int i = 0; i < s[0]; ++i) {
                const auto p = mode_node_position(g, d, false, i, j);
                const double f = frac(p[axis], dx, a, b);
                const double e = d == axis ? 1.0 / (f / e1 + (1 - f) / e2) : f * e1 + (1 - f) * e2;
                m.eps[d][static_cast<size_t>(j * s[0] + i)] = e;
            }
    }
}

// The 500 x 220 nm strip along x in a 3D project (background oxide): the plane x = 0.5,
// window [0, 2.0] um (y) x [0, 1.6] um (z) around the strip (y [0.75, 1.25], z [0.70, 0.92]).
Project strip_project(double dx) {
    Project p = test::project_3d("strip", {1.0, 2.0, 1.6}, dx, 8, "sio2");
    p.materials = test::oxide_and_silicon(kNOx * kNOx, kNSi * kNSi);
    p.layers.push_back(test::strip_core_layer(2.0));  // faces on nodes of every dx of the test
    return p;
}

std::vector<VectorMode> strip_modes(double dx, double wl = 1.55) {
    const Project p = strip_project(dx);
    const CrossSection cs = sample_cross_section(p, {0.5, 1.0, 0.8}, {0.0, 2.0, 1.6}, false, "ports[0]", "strip.glproj");
    ModeSolveOptions o;
    o.num_modes = 2;
    const auto modes = solve_modes_2d(cs.grid, cs.medium, wl, o);
    REQUIRE(modes.size() == 2);
    return modes;
}

VectorMode strip_te0(double dx, double wl = 1.55) { return strip_modes(dx, wl)[0]; }

}  // namespace

TEST_CASE("mode solver 2D: a slab in the cross-section against the analytic TE/TM dispersion relation",
          "[modes2d]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double wl = 1.55, d = 0.3, L = 3.0;
    const double a = 1.3037, b = a + d;  // faces off the grid nodes
    const double te = slab_neff_analytic(d, kNSi, kNOx, wl, false), tm = slab_neff_analytic(d, kNSi, kNOx, wl, true);
    std::printf("slab d = %.3f um: analytic n_eff TE0 %.6f TM0 %.6f\n", d, te, tm);
    for (int axis = 0; axis < 2; ++axis) {
        double err_te[3], err_tm[3];
        const double dxs[3] = {0.02, 0.01, 0.005};
        for (int r = 0; r < 3; ++r) {
            ModeGrid2D g;
            ModeMedium2D m;
            slab_cross_section(axis, L, dxs[r], a, b, g, m);
            ModeSolveOptions o;
            o.num_modes = 2;
            const auto modes = solve_modes_2d(g, m, wl, o);
            REQUIRE(modes.size() == 2);
            // TE0 (E parallel to the faces) first; its E lies along the invariant axis
            const double te_frac_expected = axis == 0 ? 0.0 : 1.0;
            CHECK(std::abs(modes[0].te_fraction - te_frac_expected) < 1e-9);
            CHECK(std::abs(modes[1].te_fraction - (1 - te_frac_expected)) < 1e-9);
            err_te[r] = modes[0].n_eff - te;
            err_tm[r] = modes[1].n_eff - tm;
            std::printf("slab normal to %c, dx %.3f: TE0 %.6f (err %+.2e)  TM0 %.6f (err %+.2e)\n", axis == 0 ? 'u' : 'v',
                        dxs[r], modes[0].n_eff, err_te[r], modes[1].n_eff, err_tm[r]);
        }
        const double order_te = std::log2(std::abs(err_te[1] / err_te[2]));
        const double order_tm = std::log2(std::abs(err_tm[1] / err_tm[2]));
        std::printf("slab normal to %c: convergence order TE0 %.2f TM0 %.2f\n", axis == 0 ? 'u' : 'v', order_te, order_tm);
        CHECK(std::abs(err_te[2]) < 2e-4);
        CHECK(std::abs(err_tm[2]) < 1e-3);
        CHECK(order_te > 1.7);
        CHECK(order_tm > 0.9);
    }
}

// Richardson extrapolation (dx 0.02, 0.01, 0.005 um) of this solver: 2.445390 (TE0);
// MPB (validation/strip_mode_mpb.py, validation/strip_mode_mpb_reference.csv): 2.446294
// (resolutions 32, 64, 128 /um: 2.435219, 2.442675, 2.445111, observed order 1.61); TM0
// 1.772721 (1.766233, 1.770520, 1.771975).
constexpr double kStripTe0Richardson = 2.445390;
constexpr double kStripTe0Mpb = 2.446294, kStripTm0Mpb = 1.772721;

TEST_CASE("mode solver 2D: 500 x 220 nm Si strip in SiO2 at 1.55 um, from a 3D project's plane",
          "[modes2d]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const auto t0 = std::chrono::steady_clock::now();
    const VectorMode m = strip_te0(0.02);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("strip TE0 dx 0.020: n_eff %.6f (Richardson %.6f: %+.2e; MPB %.6f: %+.2e) n_g %.4f TE fraction %.4f "
                "(%.2f s)\n",
                m.n_eff, kStripTe0Richardson, m.n_eff - kStripTe0Richardson, kStripTe0Mpb, m.n_eff - kStripTe0Mpb,
                m.n_group, m.te_fraction, s);
    CHECK(std::abs(m.n_eff - kStripTe0Richardson) < 3e-3);
    CHECK(std::abs(m.n_eff - kStripTe0Mpb) < 4e-3);
    CHECK(m.te_fraction > 0.95);
}

namespace {

/// The strip's TE0 and TM0 n_eff at three cell sizes dx[0] = 2 dx[1] = 4 dx[2]; returns the
/// observed orders and Richardson's extrapolations (order clamped to [1, 2]).
struct StripConvergence {
    double n[3], ntm[3], order, rich, order_tm, rich_tm;
};
StripConvergence strip_convergence(const double (&dxs)[3]) {
    StripConvergence c{};
    for (int r = 0; r < 3; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto ms = strip_modes(dxs[r]);
        const VectorMode& m = ms[0];
        c.ntm[r] = ms[1].n_eff;
        std::printf("strip TM0 dx %.3f: n_eff %.6f TE fraction %.4f\n", dxs[r], ms[1].n_eff, ms[1].te_fraction);
        CHECK(ms[1].te_fraction < 0.1);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        c.n[r] = m.n_eff;
        std::printf("strip TE0 dx %.3f: n_eff %.6f n_g %.4f TE fraction %.4f (%.2f s)\n", dxs[r], m.n_eff, m.n_group,
                    m.te_fraction, s);
        CHECK(m.te_fraction > 0.95);
    }
    c.order = std::log2((c.n[1] - c.n[0]) / (c.n[2] - c.n[1]));
    c.rich = c.n[2] + (c.n[2] - c.n[1]) / (std::pow(2.0, std::clamp(c.order, 1.0, 2.0)) - 1);
    c.order_tm = std::log2((c.ntm[1] - c.ntm[0]) / (c.ntm[2] - c.ntm[1]));
    c.rich_tm = c.ntm[2] + (c.ntm[2] - c.ntm[1]) / (std::pow(2.0, std::clamp(c.order_tm, 1.0, 2.0)) - 1);
    std::printf("strip TE0 (dx %.3f .. %.3f): observed order %.2f, Richardson n_eff %.6f (MPB extrapolated %.6f: %+.2e; "
                "this solver at dx 0.02 .. 0.005: %+.2e); dx %.3f differs by %.2e\n",
                dxs[0], dxs[2], c.order, c.rich, kStripTe0Mpb, c.rich - kStripTe0Mpb, c.rich - kStripTe0Richardson,
                dxs[2], c.n[2] - c.rich);
    std::printf("strip TM0 (dx %.3f .. %.3f): observed order %.2f, Richardson n_eff %.6f (MPB extrapolated %.6f: %+.2e)\n",
                dxs[0], dxs[2], c.order_tm, c.rich_tm, kStripTm0Mpb, c.rich_tm - kStripTm0Mpb);
    return c;
}

}  // namespace

// The full study (dx 0.005: a 400 x 320 window, most of the time in the sparse LU): 112 s on
// the 2-core machine at load 6-8 (147 s in a busy ctest), so hidden from CI;
// scripts/gpu-check.sh --cpu-studies runs it ("[cpu_study]", docs/hardening.md). CI runs the
// case below, on its two coarser grids.
TEST_CASE("mode solver 2D: the strip's n_eff converges (dx 0.02, 0.01, 0.005) to MPB's within 1e-3",
          "[.][modes2d][cpu_study]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const StripConvergence c = strip_convergence({0.02, 0.01, 0.005});
    CHECK(c.order > 1.5);
    CHECK(std::abs(c.rich - kStripTe0Richardson) < 1e-5);
    CHECK(std::abs(c.rich - kStripTe0Mpb) < 1e-3);
    CHECK(std::abs(c.n[2] - c.rich) < 2e-4);
    CHECK(std::abs(c.rich_tm - kStripTm0Mpb) < 2e-3);
}

// CI's variant: the study's two coarser grids, dx 0.02 and 0.01 um (10 s of the study's
// 112 s; dx 0.04 is not yet asymptotic: TE0 2.450205, 2.443095, 2.445014 at dx 0.04, 0.02,
// 0.01). Judged by what convergence at order p licenses without a third grid. The study's
// observed TE0 order is above 1.5 (seen 2.77) and sub-pixel averaging's is 2, so Richardson's
// n + (n - n_coarse) / (2^p - 1) must lie within the study's 1e-3 of MPB for p = 1.5 and 2,
// and the study's own extrapolation within the spread of those two of the order-2 value (the
// order's uncertainty). For any order >= 1 the error at dx 0.01 is at most the last change,
// which bounds TE0 and TM0 against MPB; the study's TM0 order is 2.00, so TM0's order-2
// extrapolation is held to the study's 2e-3. Seen: TE0 2.443095, 2.445014 (extrapolated
// 2.445654 .. 2.446064: MPB -6.4e-4 .. -2.3e-4; the study's 2.445390 2.6e-4 from the order-2
// value, the spread 4.1e-4), TM0 1.778088, 1.773028 (MPB 1.772721: 3.1e-4 at dx 0.01, the
// last change 5.1e-3; extrapolated 1.771341, -1.4e-3).
TEST_CASE("mode solver 2D: the strip's n_eff at dx 0.02 and 0.01 extrapolates to MPB's within 1e-3",
          "[modes2d][slow]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    double te[2], tm[2];
    const double dxs[2] = {0.02, 0.01};
    for (int r = 0; r < 2; ++r) {
        const auto ms = strip_modes(dxs[r]);
        te[r] = ms[0].n_eff;
        tm[r] = ms[1].n_eff;
        std::printf("strip dx %.3f: TE0 n_eff %.6f (TE fraction %.4f), TM0 %.6f (TE fraction %.4f)\n", dxs[r], te[r],
                    ms[0].te_fraction, tm[r], ms[1].te_fraction);
        CHECK(ms[0].te_fraction > 0.95);
        CHECK(ms[1].te_fraction < 0.1);
    }
    const double rich15 = te[1] + (te[1] - te[0]) / (std::pow(2.0, 1.5) - 1);
    const double rich2 = te[1] + (te[1] - te[0]) / 3;
    std::printf("strip TE0: Richardson at order 1.5 .. 2: %.6f .. %.6f (MPB %.6f: %+.2e .. %+.2e; the full study "
                "%.6f); TM0 at dx 0.01 %+.2e from MPB, last change %.2e\n",
                rich15, rich2, kStripTe0Mpb, rich15 - kStripTe0Mpb, rich2 - kStripTe0Mpb, kStripTe0Richardson,
                tm[1] - kStripTm0Mpb, tm[1] - tm[0]);
    CHECK(std::abs(rich15 - kStripTe0Mpb) < 1e-3);
    CHECK(std::abs(rich2 - kStripTe0Mpb) < 1e-3);
    CHECK(std::abs(rich2 - kStripTe0Richardson) <= std::abs(rich15 - rich2));
    CHECK(std::abs(te[1] - kStripTe0Mpb) <= std::abs(te[1] - te[0]));
    CHECK(std::abs(tm[1] - kStripTm0Mpb) <= std::abs(tm[1] - tm[0]));
    CHECK(std::abs(tm[1] + (tm[1] - tm[0]) / 3 - kStripTm0Mpb) < 2e-3);
}

TEST_CASE("mode solver 2D: group index against n_eff - lambda d n_eff / d lambda",
          "[modes2d]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double dx = 0.02, wl = 1.55, h = 0.005;
    const VectorMode m = strip_te0(dx, wl);
    const double np = strip_te0(dx, wl + h).n_eff, nm = strip_te0(dx, wl - h).n_eff;
    const double ng_fd = m.n_eff - wl * (np - nm) / (2 * h);
    std::printf("strip TE0 dx %.3f: n_g energy %.6f, finite difference %.6f\n", dx, m.n_group, ng_fd);
    CHECK(std::abs(m.n_group - ng_fd) < 2e-3);
    CHECK(m.n_group > m.n_eff);
}
