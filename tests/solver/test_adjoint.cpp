// Adjoint gradients (adjoint.hpp, issue 53 item 4): the gradient of a figure of merit with
// respect to a design region's density, checked against central finite differences of the
// same forward runs along random directions (float64), in 2D TMz, 2D TEz (complex
// functional weights: a complex adjoint run) and 3D; the interpolation's transpose; and
// the design region's refusals.
//
// Tolerance: the 1e-2 relative. The method's own errors are far smaller: the
// finite difference's O(h^2) truncation (h = 1e-3 of a density in [0, 1]: ~1e-6 relative),
// the runs' decay to 1e-10 of the peak energy (~1e-5 in the DFT amplitudes) and the CPML's
// departure from reciprocity (waves it reflects, R = 1e-8 at normal incidence). A missing
// factor (the (1 - exp(i w dt)) of the E increment: ~w dt = 0.1 here, a sign, the source
// spectrum, a conjugate) changes the result by O(1), far beyond it.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "adjoint_problems.hpp"
#include "project_builders.hpp"
#include "golightly/adjoint.hpp"
#include "golightly/compile.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"

#include <map>
#include "golightly/units.hpp"
#include "optional_features.hpp"
#include "test_3d_projects.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::adjoint;

using namespace golightly::test;


TEST_CASE("adjoint: design sites, interpolation and its transpose", "[adjoint]") {
    Problem p = tmz_problem();
    const DesignSites sites = map_design(p.scene, p.region);
    // 0.6 um / 0.05 um = 12 Ez sites per axis inside [lo, hi)
    CHECK(sites.size() == 144);
    // a uniform density gives every site the same eps_r
    const auto eps = site_permittivity(sites, p.region, std::vector<double>(16, 0.25));
    for (double e : eps) CHECK(e == Approx(1.75).epsilon(1e-14));
    // <interp(rho), y> = <rho, interp^T y>: pixel_gradient is the exact transpose (times the span)
    const auto rho = random_density(16, 3, 0.0, 1.0);
    const auto y = test::random_vector(sites.size(), 4);
    const auto e = site_permittivity(sites, p.region, rho);
    const auto gt = pixel_gradient(sites, p.region, y);
    double lhs = 0, rhs = 0;
    for (std::size_t s = 0; s < sites.size(); ++s) lhs += (e[s] - p.region.eps_min) * y[s];
    for (std::size_t k = 0; k < rho.size(); ++k) rhs += rho[k] * gt[k];
    CHECK(lhs == Approx(rhs).epsilon(1e-12));
}

TEST_CASE("adjoint: refusals name the design region's problem", "[adjoint]") {
    Problem p = tmz_problem();
    DesignRegion r = p.region;
    r.lo_um = {-0.4, 0.8, 0};  // into the PML
    CHECK_THROWS_WITH(map_design(p.scene, r), Catch::Contains("design region: the box reaches into the PML"));
    r = p.region;
    r.lo_um = {0.2, 0.8, 0};  // over the source at x = 0.4 um
    r.hi_um = {0.6, 1.8, 0};
    CHECK_THROWS_WITH(map_design(p.scene, r), Catch::Contains("a source lies inside it"));
    r = p.region;
    r.hi_um = r.lo_um;
    CHECK_THROWS_WITH(map_design(p.scene, r), Catch::Contains("empty or inverted"));
    CHECK_THROWS_WITH(site_permittivity(map_design(p.scene, p.region), p.region, std::vector<double>(3, 0.5)),
                      Catch::Contains("3 density values for 16 pixels"));
}

TEST_CASE("adjoint: 2D TMz gradient matches finite differences", "[adjoint]") {
    Problem p = tmz_problem();
    const auto rho = random_density(p.region.pixels(), 11);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    REQUIRE(ev.gradient.size() == p.region.pixels());
    CHECK(ev.objective > 0);
    for (unsigned seed : {21u, 22u}) {
        const Check c = directional(p, rho, ev.gradient, test::random_vector(rho.size(), seed));
        INFO("F " << ev.objective << " fd " << c.fd << " adjoint " << c.adj);
        REQUIRE(std::abs(c.fd) > 1e-3 * ev.objective);  // the direction matters
        CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
    }
}

TEST_CASE("adjoint: 2D TEz gradient with complex functional weights matches finite differences", "[adjoint]") {
    Problem p = tez_problem();
    const auto rho = random_density(p.region.pixels(), 5);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    const Check c = directional(p, rho, ev.gradient, test::random_vector(rho.size(), 6));
    INFO("F " << ev.objective << " fd " << c.fd << " adjoint " << c.adj);
    REQUIRE(std::abs(c.fd) > 1e-3 * ev.objective);
    CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
}

TEST_CASE("adjoint: 3D gradient matches finite differences", "[adjoint]") {
    Problem p = problem3d();
    const auto rho = random_density(p.region.pixels(), 8);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    const Check c = directional(p, rho, ev.gradient, test::random_vector(rho.size(), 9));
    INFO("steps " << ev.forward_steps << " " << ev.adjoint_steps << " s " << ev.forward_s << " " << ev.adjoint_s);
    INFO("F " << ev.objective << " fd " << c.fd << " adjoint " << c.adj);
    REQUIRE(std::abs(c.fd) > 1e-3 * ev.objective);
    CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
}

TEST_CASE("adjoint: H terms of a functional (2D TMz, mode-overlap-like E and H weights)", "[adjoint]") {
    Problem p = tmz_problem();
    // a = Hy(p1) alone, then Ez(p2) - 0.8 Hx(p3): H samples take an H source in the adjoint run
    const Vec3 p1{1.95, 1.05, 0}, p3{1.95, 1.2, 0};
    FieldFunctional h;
    h.name = "hy";
    {
        const FieldFunctional ez = point_functional(p.scene, Component::Ez, p1);
        h.component = {Component::Hy};
        h.cell = ez.cell;  // Hy (i+1/2, j): the node of the Ez cell, half a cell along x
        h.weights = {1.0};
    }
    FieldFunctional mix = point_functional(p.scene, Component::Ez, {1.95, 0.9, 0}, "mix");
    mix.component.push_back(Component::Hx);
    mix.cell.push_back(point_functional(p.scene, Component::Ez, p3).cell[0]);
    mix.weights.push_back(-0.8);
    p.functionals = {h, mix};
    p.objective = intensity_objective({{1.0, 0.5}, {0.7, 1.0}});
    const auto rho = random_density(p.region.pixels(), 31);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    for (unsigned seed : {41u, 42u}) {
        const Check c = directional(p, rho, ev.gradient, test::random_vector(rho.size(), seed));
        INFO("F " << ev.objective << " fd " << c.fd << " adjoint " << c.adj);
        REQUIRE(std::abs(c.fd) > 1e-3 * ev.objective);
        CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
    }
}


TEST_CASE("adjoint: 2D TMz gradient with a dispersive lossy background matches finite differences", "[adjoint]") {
    Problem p = tmz_problem();
    // a lossy Lorentz block (eps(1.55 um) ~ 2.6 + 0.3 i) between the design region and the probe
    Pole pole;
    pole.kind = PoleKind::Lorentz;
    const double w = 2 * units::pi * freq_hz(kLambdaUm);
    pole.omega_0 = 1.6 * w;
    pole.omega_p = 1.9 * w;
    pole.gamma = 0.3 * w;
    p.scene.pole_sets.push_back(PoleSet{{pole_coefficients(pole, p.scene.dt_s)}});
    DispersiveCells& d = p.scene.dispersive[int(Component::Ez)];
    for (int j = 26; j < 40; ++j)
        for (int i = 44; i < 48; ++i) {
            d.cells.push_back(test::cell(p.scene, i, j));
            d.pole_set.push_back(0);
            d.weight.push_back(1.0);
        }
    std::sort(d.cells.begin(), d.cells.end());
    const auto rho = random_density(p.region.pixels(), 17);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    const Check c = directional(p, rho, ev.gradient, test::random_vector(rho.size(), 18));
    INFO("F " << ev.objective << " fd " << c.fd << " adjoint " << c.adj);
    REQUIRE(std::abs(c.fd) > 1e-3 * ev.objective);
    CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
    // the block is there: the same design without it gives another objective
    Problem plain = tmz_problem();
    CHECK(std::abs(evaluate(plain, rho).objective - ev.objective) > 0.05 * ev.objective);
}

TEST_CASE("adjoint: frequency-dependent functional weights (delayed copies of the adjoint pulse) match finite differences",
          "[adjoint]") {
    Problem p = tmz_problem();
    // a_f = w_f Ez(p1) + v_f Hx(p2) at three wavelengths, as a mode overlap with a mode
    // profile that changes with the frequency
    FieldFunctional fn = point_functional(p.scene, Component::Ez, {1.95, 1.05, 0}, "overlap");
    fn.component.push_back(Component::Hx);
    fn.cell.push_back(point_functional(p.scene, Component::Ez, {1.95, 1.2, 0}).cell[0]);
    fn.weights.push_back(0.0);
    p.frequencies_hz = {freq_hz(1.5), freq_hz(1.55), freq_hz(1.6)};
    fn.weights_per_frequency = {{{1.0, 0.0}, {0.2, 0.4}}, {{0.0, 0.5}, {1.0, 0.0}}, {{-0.7, 0.1}, {0.3, -0.2}}};
    p.functionals = {fn};
    p.objective = intensity_objective({{1.0, 0.6, 0.8}});
    const auto rho = random_density(p.region.pixels(), 51);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    INFO("steps forward " << ev.forward_steps << " adjoint " << ev.adjoint_steps);
    for (unsigned seed : {52u, 53u}) {
        const Check c = directional(p, rho, ev.gradient, random_vector(rho.size(), seed));
        INFO("F " << ev.objective << " fd " << c.fd << " adjoint " << c.adj);
        REQUIRE(std::abs(c.fd) > 1e-3 * ev.objective);
        CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
    }
}

namespace {

/// A silicon slab guide (eps 12, 0.3 um) along x with a one-way mode source at x = 1 um,
/// a design region across the guide at x 1.5 .. 2.1 um and a mode monitor at x = 2.7 um.
Project guide_with_design() {
    Project p;
    p.name = "adjoint-guide";
    p.domain.size = {3.6, 2.4, 0};
    p.domain.cell_size = 0.05;
    p.domain.polarization = Polarization::TMz;
    p.domain.pml.cells = 12;
    p.materials = {test::material("si", 12.0)};
    p.layers = {test::layer("wg", "si", {test::rectangle({-1.0, 1.05}, {5.0, 1.35})})};
    p.sources = {test::mode_line_source("in", {0.8, 0.2}, {0.8, 2.2}, "+x")};
    p.monitors = {test::mode_line_monitor("out", {2.7, 0.2}, {2.7, 2.2}, "+x")};
    p.run.spectrum.wavelength_min = 1.45;
    p.run.spectrum.wavelength_max = 1.65;
    p.run.spectrum.points = 5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    return p;
}

}  // namespace

TEST_CASE("adjoint: mode-monitor amplitude functional equals mode_amplitudes and its gradient matches finite differences",
          "[adjoint]") {
    const CompiledProject cp = compile_project(guide_with_design(), "adjoint-guide.glproj");
    const ModeMonitorPlan& plan = *cp.monitors.at(0).mode_plan;
    const std::vector<std::size_t> fi = {1, 3};
    const FieldFunctional fwd = mode_functional(cp.scene, plan, 0, true, fi, "out+");
    const FieldFunctional bwd = mode_functional(cp.scene, plan, 0, false, fi, "out-");
    // the functional reproduces mode_amplitudes on arbitrary DFT data
    {
        const std::size_t nf = plan.frequencies_hz.size();
        const DftSet& es = cp.scene.dft_sets[std::size_t(plan.set_e[0])];
        const DftSet& hs = cp.scene.dft_sets[std::size_t(plan.set_h[0])];
        std::mt19937 rng(5);
        std::uniform_real_distribution<double> u(-1, 1);
        std::map<std::pair<int, CellIndex>, std::vector<std::complex<double>>> field;  // (component, cell) -> per f
        auto value = [&](Component c, CellIndex cell) -> std::vector<std::complex<double>>& {
            auto& v = field[{int(c), cell}];
            if (v.empty())
                for (std::size_t f = 0; f < nf; ++f) v.emplace_back(u(rng), u(rng));
            return v;
        };
        std::vector<std::complex<double>> e_set(es.cell0.size() * nf), h_set(hs.cell0.size() * nf);
        for (std::size_t k = 0; k < es.cell0.size(); ++k)
            for (std::size_t f = 0; f < nf; ++f) {
                e_set[k * nf + f] = es.w0[k] * value(es.component, es.cell0[k])[f] +
                                    (es.cell1[k] >= 0 ? es.w1[k] * value(es.component, es.cell1[k])[f] : 0.0);
                h_set[k * nf + f] = hs.w0[k] * value(hs.component, hs.cell0[k])[f] +
                                    (hs.cell1[k] >= 0 ? hs.w1[k] * value(hs.component, hs.cell1[k])[f] : 0.0);
            }
        const std::vector<std::complex<double>>* sets[4] = {&e_set, &e_set, &h_set, &h_set};
        const auto amps = mode_amplitudes(plan, sets);
        for (std::size_t r = 0; r < fi.size(); ++r) {
            std::complex<double> af = 0, ab = 0;
            for (std::size_t q = 0; q < fwd.cell.size(); ++q) {
                af += fwd.weights_per_frequency[r][q] * value(fwd.component[q], fwd.cell[q])[fi[r]];
                ab += bwd.weights_per_frequency[r][q] * value(bwd.component[q], bwd.cell[q])[fi[r]];
            }
            CHECK(std::abs(af - amps[0].fwd[fi[r]]) < 1e-12 * std::abs(amps[0].fwd[fi[r]]));
            CHECK(std::abs(ab - amps[0].bwd[fi[r]]) < 1e-12 * std::abs(amps[0].bwd[fi[r]]));
        }
    }
    Problem p;
    p.scene = cp.scene;
    p.region.lo_um = {1.5, 0.9, 0};
    p.region.hi_um = {2.1, 1.5, 0};
    p.region.n = {6, 6, 1};
    p.region.eps_min = 1.0;
    p.region.eps_max = 12.0;
    p.functionals = {fwd, bwd};
    p.frequencies_hz = {plan.frequencies_hz[fi[0]], plan.frequencies_hz[fi[1]]};
    // transmission into the fundamental, minus a little of the backward one
    p.objective = [](const Amplitudes& a, Amplitudes* g) {
        double F = 0;
        if (g) *g = a;
        for (std::size_t f = 0; f < 2; ++f) {
            F += std::norm(a[0][f]) - 0.3 * std::norm(a[1][f]);
            if (g) (*g)[0][f] = 2.0 * a[0][f], (*g)[1][f] = -0.6 * a[1][f];
        }
        return F;
    };
    p.settings.decay = 1e-9;
    const auto rho = random_density(p.region.pixels(), 61, 0.3, 0.9);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    INFO("steps forward " << ev.forward_steps << " adjoint " << ev.adjoint_steps << "; F " << ev.objective);
    const Check c = directional(p, rho, ev.gradient, random_vector(rho.size(), 62));
    INFO("fd " << c.fd << " adjoint " << c.adj);
    REQUIRE(std::abs(c.fd) > 1e-3 * std::abs(ev.objective));
    CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
}

namespace {

/// A 3D silicon strip (eps 12, 0.48 x 0.24 um) in oxide (eps 2.1) along x, cells 0.06 um, 6
/// PML cells, staircased (no sub-pixel tensor couplings: the design box cuts the strip), a
/// one-way mode source (TE0, +x, a broad pulse: a short run) at x = 0.24 um, a design box
/// across the strip at x 0.48 .. 0.84 um and a mode monitor (modes [0, 1]) at x = 1.14 um.
Project strip_with_design() {
    Project p = test3d::vacuum_project(1.44, 0.96, 0.84, 0.06, 6, 1.5, 1.6, 3);
    p.name = "adjoint-strip";
    p.domain.background = "sio2";
    p.materials = {test::material("si", 12.0), test::material("sio2", 2.1)};
    Layer core;
    core.name = "core";
    core.material = "si";
    Shape b;
    b.type = ShapeType::Box;
    b.box_min = {-1.0, 0.24, 0.30};
    b.box_max = {3.0, 0.72, 0.54};
    core.shapes.push_back(b);
    p.layers = {core};
    Source s;
    s.name = "in";
    s.type = SourceType::Plane;
    s.profile = SourceProfile::Mode;
    s.mode_index = 0;
    s.direction = "+x";
    s.center = {0.24, 0.48, 0.42};
    s.size = {0.0, 0.84, 0.72};
    s.waveform.type = WaveformType::GaussianPulse;
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.6;
    p.sources = {s};
    Monitor m = test3d::flux_plane("out", {1.14, 0.48, 0.42}, {0.0, 0.84, 0.72}, "+x", "mode");
    m.extra["modes"] = Json::array({0, 1});
    p.monitors = {m};
    p.run.subpixel_averaging = false;
    return p;
}

}  // namespace

TEST_CASE("adjoint: 3D mode-plane amplitude functional equals mode_amplitudes and its gradient matches finite "
          "differences",
          "[adjoint][3d]" GOLIGHTLY_NEEDS_SPECTRA) {
    const CompiledProject cp = compile_project(strip_with_design(), "adjoint-strip.glproj");
    const ModeMonitorPlan& plan = *cp.monitors.at(0).mode_plan;
    REQUIRE(plan.dims == 3);
    const std::vector<std::size_t> fi = {1};
    const FieldFunctional fwd = mode_functional(cp.scene, plan, 0, true, fi, "out+");
    // the functional reproduces mode_amplitudes on arbitrary DFT data, both directions and
    // both mode slots (the strip's TE0 and its TM0 / next mode)
    {
        const std::size_t nf = plan.frequencies_hz.size();
        std::mt19937 rng(7);
        std::uniform_real_distribution<double> u(-1, 1);
        std::map<std::pair<int, CellIndex>, std::vector<std::complex<double>>> field;
        auto value = [&](Component c, CellIndex cell) -> std::vector<std::complex<double>>& {
            auto& v = field[{int(c), cell}];
            if (v.empty())
                for (std::size_t f = 0; f < nf; ++f) v.emplace_back(u(rng), u(rng));
            return v;
        };
        std::vector<std::complex<double>> data[4];
        const int ids[4] = {plan.set_e[0], plan.set_e[1], plan.set_h[0], plan.set_h[1]};
        for (int r = 0; r < 4; ++r) {
            const DftSet& s = cp.scene.dft_sets.at(std::size_t(ids[r]));
            data[r].resize(s.cell0.size() * nf);
            for (std::size_t k = 0; k < s.cell0.size(); ++k)
                for (std::size_t f = 0; f < nf; ++f)
                    data[r][k * nf + f] = s.w0[k] * value(s.component, s.cell0[k])[f] +
                                          (s.cell1[k] >= 0 ? s.w1[k] * value(s.component, s.cell1[k])[f] : 0.0);
        }
        const std::vector<std::complex<double>>* sets[4] = {&data[0], &data[1], &data[2], &data[3]};
        const auto amps = mode_amplitudes(plan, sets);
        const std::vector<std::size_t> all = {0, 1, 2};
        for (std::size_t slot : {0u, 1u})
            for (bool forward : {true, false}) {
                const FieldFunctional fn = mode_functional(cp.scene, plan, slot, forward, all, "x");
                for (std::size_t f : all) {
                    std::complex<double> a = 0;
                    for (std::size_t q = 0; q < fn.cell.size(); ++q)
                        a += fn.weights_per_frequency[f][q] * value(fn.component[q], fn.cell[q])[f];
                    const std::complex<double> ref = forward ? amps[slot].fwd[f] : amps[slot].bwd[f];
                    INFO("slot " << slot << (forward ? " forward" : " backward") << " frequency " << f);
                    REQUIRE(std::abs(ref) > 0);
                    CHECK(std::abs(a - ref) < 1e-12 * std::abs(ref));
                }
            }
    }
    // and the run's own report of the monitor: the same forward run with a design box in
    // the oxide above the strip whose two materials are both the oxide (so the scene is the
    // project's), the functional of its DFTs against run_project's mode coefficient; both
    // runs stop once the energy has decayed to 1e-6 of its peak (60 dB), but at different
    // steps (the checks fall differently), so they agree to the field left then, sqrt(1e-6)
    // = 1e-3 of the amplitude at most (measured: 3e-6), not to rounding
    {
        Project pr = strip_with_design();
        pr.run.stop.decay_db = 60;
        pr.run.stop.max_time_fs = 2000;
        const RunResult run = run_project(pr, "adjoint-strip.glproj");
        REQUIRE(run.mode_coefficients.size() == 2);
        Problem same;
        same.scene = cp.scene;
        same.region.lo_um = {0.48, 0.24, 0.66};
        same.region.hi_um = {0.84, 0.72, 0.78};
        same.region.n = {1, 1, 1};
        same.region.eps_min = same.region.eps_max = 2.1;
        same.functionals = {mode_functional(cp.scene, plan, 0, true, {0, 1, 2}, "out+"),
                            mode_functional(cp.scene, plan, 0, false, {0, 1, 2}, "out-")};
        same.frequencies_hz = plan.frequencies_hz;
        same.objective = intensity_objective();
        same.settings.decay = 1e-6;
        const Evaluation ev = evaluate(same, {0.5});
        for (std::size_t f = 0; f < 3; ++f) {
            const std::complex<double> ref = run.mode_coefficients[0].fwd[f];
            INFO("frequency " << f << ": functional " << ev.amplitudes[0][f] << " run " << ref << " (backward "
                              << ev.amplitudes[1][f] << " / " << run.mode_coefficients[0].bwd[f] << ")");
            CHECK(std::abs(ev.amplitudes[0][f] - ref) < 1e-3 * std::abs(ref));
            CHECK(std::abs(ev.amplitudes[1][f] - run.mode_coefficients[0].bwd[f]) < 1e-3 * std::abs(ref));
        }
    }
    Problem p;
    p.scene = cp.scene;
    p.region.lo_um = {0.48, 0.24, 0.30};
    p.region.hi_um = {0.84, 0.72, 0.54};
    p.region.n = {2, 3, 1};
    p.region.eps_min = 2.1;
    p.region.eps_max = 12.0;
    p.functionals = {fwd};
    p.frequencies_hz = {plan.frequencies_hz[fi[0]]};
    p.objective = intensity_objective();
    p.settings.decay = 1e-9;
    const auto rho = random_density(p.region.pixels(), 71, 0.3, 0.9);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    INFO("steps forward " << ev.forward_steps << " adjoint " << ev.adjoint_steps << " (" << ev.forward_s << " + "
                          << ev.adjoint_s << " s); F " << ev.objective);
    const Check c = directional(p, rho, ev.gradient, random_vector(rho.size(), 72));
    INFO("fd " << c.fd << " adjoint " << c.adj);
    REQUIRE(std::abs(c.fd) > 1e-3 * std::abs(ev.objective));
    CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
}
