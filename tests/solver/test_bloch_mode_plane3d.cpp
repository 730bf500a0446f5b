// 3D mode planes along a Bloch-periodic axis (issue 51): a mode source, mode monitor or port
// whose plane spans a Bloch axis with nonzero k solves the complex Bloch modes of the
// period (mode_plane.hpp apply_bloch_window, ModeGrid2D::bloch_phase_u/v), injects the
// complex profile and projects with the conjugated product (mode_amplitudes, plan.bloch).
//
// The structure is a slab array, periodic along x with Bloch k (k L = pi / 2), uniform
// along z over a short periodic z axis of 4 cells (its z harmonics, k_z = 2 pi / 0.1 um,
// are evanescent far below the cut-off: only z-invariant fields propagate) and guiding
// along y. Its z-invariant fields split into the two 2D polarizations: E_z (parallel to
// the slabs) obeys the TMz line operator, E_x with H_z the TEz one, so the plane's modes
// are the 2D Bloch line modes (mode_solver_bloch.hpp) of both polarizations.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/mode_cache.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver_bloch.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/sparams.hpp"
#include "golightly/units.hpp"
#include "bloch_array_project.hpp"
#include "optional_features.hpp"

using namespace golightly;

namespace {

constexpr double kDx = 0.025, kWl = 1.55;
constexpr int kNz = 4;  // cells along the periodic z axis

/// One 1 um period of a strongly coupled array (a guide of eps 4 on x in [0.15, 0.85] um, its
/// edges on grid nodes, in eps 2.25; the array of test_bloch_sparams.cpp, whose supermodes'
/// phase varies across the period so that an unconjugated projection would mix them by 0.2
/// in power), Bloch k 0.25 (2 pi / a) along x, PML along y. dims 3: z periodic over kNz
/// cells; dims 2: the same in the x-y plane with polarization `pol`.
Project array_project(int dims, Polarization pol = Polarization::TMz) {
    Project p = test::bloch_coupled_array(dims, pol, kDx, kNz * kDx);
    p.run.normalization.enabled = false;
    p.run.stop.max_time_fs = 800;
    return p;
}

/// The array's plane (3D) or line (2D) mode monitor and its 3D mode source over kNz cells
/// of z (bloch_array_project.hpp).
Monitor mode_monitor(int dims, const std::string& name, double y, const std::string& dir, std::vector<int> modes) {
    return test::bloch_array_mode_monitor(dims, name, y, dir, std::move(modes), kNz * kDx);
}

Source mode_source(int mode_index) { return test::bloch_array_mode_source(mode_index, kNz * kDx); }

}  // namespace

// The plane's modes against the 1D Bloch line solver given the plane's own permittivities
// (the check that the scene's phase reaches the cross-section solver: a wrong or missing
// phase moves n_eff by ~1e-2, test_bloch_cross_section.cpp) and against the mode lines of
// the equivalent 2D projects (TMz and TEz: the whole 2D path). Tolerance 1e-8: the two
// discretizations are the same difference equations on the same permittivities (the
// sub-pixel average of a z-extruded interface is the 2D one), so they differ by the
// eigen-solvers' convergence (1e-12 relative residual; test_bloch_cross_section.cpp's bound).
TEST_CASE("Bloch 3D mode plane: a z-invariant slab array's plane modes are the 2D Bloch line modes",
          "[bloch][mode]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    Project p3 = array_project(3);
    p3.monitors = {mode_monitor(3, "M", 2.0, "+y", {0, 1, 2, 3})};
    const CompiledProject c3 = compile_project(p3, "array3d.glproj", CompileOptions{});
    REQUIRE(c3.monitors.size() == 1);
    REQUIRE(c3.monitors[0].mode_plan);
    const ModeMonitorPlan& plan = *c3.monitors[0].mode_plan;
    REQUIRE(plan.bloch);
    const CrossSection& cs = plan.cs;
    REQUIRE(cs.axis_u == 2);  // normal y: (u, v) = (z, x)
    REQUIRE(cs.axis_v == 0);
    REQUIRE(cs.grid.nu == kNz);
    const int nv = cs.grid.nv;
    REQUIRE(nv == 40);
    CHECK(cs.grid.bloch_phase_u == 0);
    CHECK(cs.grid.bloch_phase_v == Approx(2 * units::pi * 0.25).epsilon(1e-12));
    const double k = cs.grid.bloch_phase_v / (nv * kDx);
    // the line operators' permittivities from the plane's first row along x (u index 0):
    // E_z = E_u at (h, n): x integer nodes (TMz line); E_x = E_v at (n, h): x half nodes
    // (TEz line), E_y = E_w at (n, n): the midpoints between them
    std::vector<double> eps_tm(std::size_t(nv), 0.0), eps_te(std::size_t(nv), 0.0), mid_te(std::size_t(nv), 0.0);
    for (int j = 0; j < nv; ++j) {
        eps_tm[std::size_t(j)] = cs.medium.eps[0][std::size_t(j) * kNz];
        eps_te[std::size_t(j)] = cs.medium.eps[1][std::size_t(j) * kNz];
        mid_te[std::size_t(j)] = cs.medium.eps[2][std::size_t(j) * kNz];
    }
    // the equivalent 2D projects' mode lines
    std::vector<std::vector<double>> line_neff[2];
    for (int pol = 0; pol < 2; ++pol) {
        Project p2 = array_project(2, pol == 0 ? Polarization::TMz : Polarization::TEz);
        p2.monitors = {mode_monitor(2, "M", 2.0, "+y", {0, 1})};
        const CompiledProject c2 = compile_project(p2, "array2d.glproj", CompileOptions{});
        REQUIRE(c2.monitors[0].mode_plan);
        line_neff[pol] = c2.monitors[0].mode_plan->line_neff;
    }
    const double dt = c3.scene.dt_s;
    for (std::size_t f = 0; f < plan.frequencies_hz.size(); ++f) {
        const double w = 2 * units::pi * plan.frequencies_hz[f];
        const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
        const auto tm = solve_bloch_slab_modes(eps_tm, kDx, 2 * units::pi / k0n, Polarization::TMz, 2, k);
        const auto te = solve_bloch_slab_modes(eps_te, kDx, 2 * units::pi / k0n, Polarization::TEz, 2, k, mid_te);
        REQUIRE(tm.size() == 2);
        REQUIRE(te.size() == 2);
        for (int pol = 0; pol < 2; ++pol)
            for (std::size_t m = 0; m < 2; ++m) {
                const double n1 = (pol == 0 ? tm : te)[m].n_eff;
                double best = 1e9, frac = -1;
                for (const VectorMode& v : plan.modes[f])
                    if (std::abs(v.n_eff - n1) < best) best = std::abs(v.n_eff - n1), frac = v.te_fraction;
                const double n2d = line_neff[pol][f][m];
                std::printf("Bloch 3D plane wl %.4f %s mode %zu: line solver n_eff %.10f, plane within %.2e (E_z share "
                            "%.6f), 2D project line %.10f (%.2e)\n",
                            units::hz_to_wavelength_um(plan.frequencies_hz[f]), pol == 0 ? "TMz" : "TEz", m, n1, best,
                            frac, n2d, std::abs(n2d - n1));
                CHECK(best < 1e-8);
                // te_fraction: the share of |E_u|^2 = |E_z|^2
                if (pol == 0) CHECK(frac > 1 - 1e-6);
                else CHECK(frac < 1e-6);
                CHECK(std::abs(n2d - n1) < 1e-8);
            }
        for (const VectorMode& v : plan.modes[f]) CHECK(std::abs(v.n_eff_imag) < 1e-8);  // lossless
    }
}

// FDTD of the 3D array: the plane mode source launches the fundamental Bloch supermode
// with E along z (plane mode 0; the modes by decreasing n_eff are E_z 0, E_x 0, E_z 1,
// E_x 1, the first test) and the second one of the same polarization (plane mode 2, whose
// unconjugated product with mode 0 would mix them by 0.2 in power), each run measured by a
// plane mode monitor ahead (modes 0 to 3), a flux plane at the same place and a flux plane
// behind the source. Bounds, those of the 2D Bloch
// line test (test_bloch_mode_source.cpp), from the same method: the projection and the flux
// use the same E and H~ on the same nodes and the modes are power-orthogonal, so
// |a_m+|^2 = flux - (the other modes' power); the source injects the profile of its centre
// wavelength, so at the band's ends (+-3 %) a few 1e-4 of the other supermode enter (zero at
// the centre): the other mode's power < 1e-3 and |a+|^2 / flux within 1 % (the DFT of a run
// stopped at 50 dB and the PML's reflection, < 1e-3 in power, inside it). The one-way
// source's backward wave and the PML's reflection: |a-|^2 / |a+|^2 < 1e-3, flux behind /
// ahead < 1e-3.
TEST_CASE("Bloch 3D mode source and plane monitor: each array supermode goes forward one way",
          "[bloch][mode]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    for (int mode : {0, 2}) {
        Project p = array_project(3);
        p.sources = {mode_source(mode)};
        Monitor flux = mode_monitor(3, "T flux", 2.6, "+y", {});
        flux.kind = "flux";
        flux.extra = Json::object();
        Monitor back = mode_monitor(3, "B flux", 0.6, "-y", {});
        back.kind = "flux";
        back.extra = Json::object();
        p.monitors = {mode_monitor(3, "T", 2.6, "+y", {0, 1, 2, 3}), flux, back};
        RunOptions o;
        o.threads = 2;
        const RunResult r = run_project(p, "array3d.glproj", o);
        REQUIRE(r.mode_coefficients.size() == 4);
        REQUIRE(r.spectra.size() == 3);
        const auto& a = r.mode_coefficients[std::size_t(mode)];
        for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
            const double pf = std::norm(a.fwd[f]), ft = r.spectra[1].flux[f], fb = r.spectra[2].flux[f];
            double others = 0;  // the largest other mode's forward power
            for (std::size_t q = 0; q < 4; ++q)
                if (q != std::size_t(mode)) others = std::max(others, std::norm(r.mode_coefficients[q].fwd[f]));
            std::printf("Bloch 3D array mode %d wl %.4f: n_eff %.5f | |a+|^2 / flux %.6f | |a-|^2 / |a+|^2 %.2e | "
                        "other modes %.2e | flux behind / ahead %.2e\n",
                        mode, units::hz_to_wavelength_um(r.frequency_hz[f]), a.n_eff[f], pf / ft,
                        std::norm(a.bwd[f]) / pf, others / pf, fb / ft);
            CHECK(ft > 0);
            CHECK(pf / ft > 0.99);
            CHECK(pf / ft < 1.01);
            CHECK(std::norm(a.bwd[f]) / pf < 1e-3);
            CHECK(others / pf < 1e-3);
            CHECK(std::abs(fb) / ft < 1e-3);
        }
    }
}

TEST_CASE("Bloch 3D mode planes: what is not supported is refused, naming the field", "[bloch][mode]") {
    auto refused = [](const Project& p, const std::string& field, const std::string& words) {
        try {
            (void)compile_project(p, "refused.glproj", CompileOptions{});
            FAIL("compiled: " + field);
        } catch (const ProjectError& e) {
            const std::string msg = e.what();
            INFO(msg);
            CHECK(msg.find(field) != std::string::npos);
            CHECK(msg.find(words) != std::string::npos);
        }
    };
    // a plane that covers the Bloch axis in part
    Project p = array_project(3);
    p.sources = {mode_source(0)};
    p.sources[0].size.x = 0.5;
    p.sources[0].center.x = 0.5;
    refused(p, "sources[0].size", "must span the whole period");
    // a monitor whose wall along the Bloch axis is not periodic
    p = array_project(3);
    p.monitors = {mode_monitor(3, "M", 2.0, "+y", {0})};
    p.monitors[0].extra["mode_boundary"] = "pec";
    refused(p, "monitors[0].mode_boundary", "must be \"periodic\"");
    // a plane across a Bloch axis that also has k along the plane's normal
    p = array_project(3);
    p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Periodic, BoundaryKind::Periodic};
    p.domain.bloch = {true, true, false};
    p.domain.bloch_k = std::array<double, 3>{0.25, 0.1, 0};
    p.monitors = {mode_monitor(3, "M", 2.0, "+y", {0})};
    refused(p, "monitors[0].center", "zero Bloch k along its normal (y)");
}

// The band's modes from a few solves (run.mode_interpolation "auto", mode_cache.hpp
// solve_modes_band) on a Bloch plane: the node modes are aligned in phase and tracked by the
// conjugated overlap (the unconjugated one of complex Bloch modes is not their overlap), so
// the interpolation is accepted (it falls back to solving every frequency when its check
// fails) and gives the modes solved at each frequency within its own acceptance bounds
// (kModeInterpNeffTol in n_eff, kModeInterpFieldTol in the relative L2 distance of E_t up to
// a phase: the coarser interpolant's error at the check nodes bounds the finer one's).
TEST_CASE("Bloch 3D mode plane: the band's interpolated Bloch modes are the solved ones",
          "[bloch][mode]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    Project p = array_project(3);
    p.run.spectrum.points = 21;
    p.monitors = {mode_monitor(3, "M", 2.0, "+y", {0, 2})};
    const CompiledProject ca = compile_project(p, "band.glproj", CompileOptions{});
    p.run.extra["mode_interpolation"] = "exact";
    const CompiledProject ce = compile_project(p, "band.glproj", CompileOptions{});
    const ModeMonitorPlan &pa = *ca.monitors[0].mode_plan, &pe = *ce.monitors[0].mode_plan;
    CHECK(pa.interpolated);
    CHECK_FALSE(pe.interpolated);
    CHECK(pa.warnings.empty());
    CHECK(pe.warnings.empty());
    REQUIRE(pa.modes.size() == 21);
    double worst_n = 0, worst_e = 0;
    for (std::size_t f = 0; f < 21; ++f)
        for (std::size_t m = 0; m < 2; ++m) {
            const VectorMode &a = pa.modes[f][m], &e = pe.modes[f][m];
            REQUIRE(a.e[0].size() == e.e[0].size());
            worst_n = std::max(worst_n, std::abs(a.n_eff - e.n_eff));
            double aa = 0, ee = 0;
            std::complex<double> ae = 0;
            for (int d = 0; d < 2; ++d)
                for (std::size_t k = 0; k < a.e[std::size_t(d)].size(); ++k) {
                    aa += std::norm(a.e[std::size_t(d)][k]);
                    ee += std::norm(e.e[std::size_t(d)][k]);
                    ae += std::conj(a.e[std::size_t(d)][k]) * e.e[std::size_t(d)][k];
                }
            worst_e = std::max(worst_e, std::sqrt(std::max(0.0, aa + ee - 2 * std::abs(ae)) / ee));
        }
    std::printf("Bloch 3D plane band: %zu solves; interpolated against solved: n_eff %.2e, E_t %.2e\n",
                pa.solved_frequencies_hz.size(), worst_n, worst_e);
    CHECK(pa.solved_frequencies_hz.size() < 21);
    CHECK(worst_n < kModeInterpNeffTol);
    CHECK(worst_e < kModeInterpFieldTol);
}

// 3D ports across the period (S-parameters of the array's supermodes, as the 2D ports of
// test_bloch_sparams.cpp): a straight section transmits the fundamental, |S21| within 1 % of
// 1, reflections |S11|, |S22| < 1e-3, reciprocity to 1e-2 and the phase of S21 the lattice
// wavenumber times the port distance (1.4 um) within 1e-2 rad (the bounds of the 2D test).
TEST_CASE("Bloch 3D ports across the period: a straight section of the array", "[bloch][sparams]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    Project p = array_project(3);
    p.extra["ports"] = Json::parse(R"([
        {"name": "a", "center": [0.5, 1.2, 0.05], "size": [1.0, 0, 0.1], "direction": "+y"},
        {"name": "b", "center": [0.5, 2.6, 0.05], "size": [1.0, 0, 0.1], "direction": "-y"}])");
    RunOptions o;
    o.threads = 2;
    const SParameters s = run_sparameters(p, "ports3d.glproj", o);
    REQUIRE(s.labels.size() == 2);
    for (const auto& w : s.warnings) std::printf("warning: %s\n", w.c_str());
    CHECK(s.warnings.empty());
    const double dt = p.run.courant * kDx * units::um / units::c0;
    for (std::size_t f = 0; f < s.frequency_hz.size(); ++f) {
        const double w = 2 * units::pi * s.frequency_hz[f];
        const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
        const double n_eff = s.runs[0].mode_coefficients[0].n_eff[f];
        const double beta_l = 2.0 / kDx * std::asin(0.5 * n_eff * k0n * kDx);
        const auto s21 = s.s[1][0][f], s12 = s.s[0][1][f];
        const double dphi = std::arg(s21 * std::polar(1.0, -beta_l * 1.4));
        std::printf("Bloch 3D ports wl %.4f: n_eff %.5f |S11| %.2e |S22| %.2e |S21|^2 %.5f |S21-S12| %.2e phase - "
                    "beta_l L %+.2e rad\n",
                    units::hz_to_wavelength_um(s.frequency_hz[f]), n_eff, std::abs(s.s[0][0][f]),
                    std::abs(s.s[1][1][f]), std::norm(s21), std::abs(s21 - s12), dphi);
        CHECK(std::abs(s21) > 0.99);
        CHECK(std::abs(s21) < 1.01);
        CHECK(std::abs(s.s[0][0][f]) < 1e-3);
        CHECK(std::abs(s.s[1][1][f]) < 1e-3);
        CHECK(std::abs(s21 - s12) < 1e-2);
        CHECK(std::abs(dphi) < 1e-2);
    }
    // a port that covers part of the period is refused before any run, naming the port
    p.extra["ports"][1]["size"] = Json::parse("[0.5, 0, 0.1]");
    try {
        validate_ports(p, "ports3d.glproj");
        FAIL("a port covering half the period was accepted");
    } catch (const ProjectError& e) {
        const std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("ports[1].size") != std::string::npos);
        CHECK(msg.find("must span the whole period") != std::string::npos);
    }
}

// The mode cache's key holds the window's Bloch phases: a solve at one k must not answer for
// another, nor for the same phase on the other axis, nor for the k = 0 window.
TEST_CASE("Bloch 3D mode plane: the mode cache key holds the Bloch phases", "[bloch][mode]") {
    ModeGrid2D g;
    g.nu = 4;
    g.nv = 40;
    g.dx_um = kDx;
    g.boundary_u = g.boundary_v = ModeBoundary::periodic;
    ModeMedium2D m;
    for (int d = 0; d < 3; ++d) {
        const auto sh = mode_component_shape_e(g, d);
        m.eps[std::size_t(d)].assign(std::size_t(sh[0]) * std::size_t(sh[1]), 2.25);
    }
    ModeSolveOptions o;
    const std::string k0 = mode_solve_key(g, m, kWl, o);
    ModeGrid2D gv = g;
    gv.bloch_phase_v = 0.5 * units::pi;
    const std::string kv = mode_solve_key(gv, m, kWl, o);
    ModeGrid2D gv2 = g;
    gv2.bloch_phase_v = 0.5 * units::pi * (1 + 1e-15);
    ModeGrid2D gu = g;
    gu.bloch_phase_u = 0.5 * units::pi;
    CHECK(kv != k0);
    CHECK(mode_solve_key(gv2, m, kWl, o) != kv);
    CHECK(mode_solve_key(gu, m, kWl, o) != kv);  // the same phase on the other axis
    CHECK(mode_solve_key(gu, m, kWl, o) != k0);
}
