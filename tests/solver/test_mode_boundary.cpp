// The mode window's walls (mode_plane.hpp mode_window_boundaries, `mode_boundary` of ports,
// mode monitors and mode sources): a periodic domain axis gives a periodic window axis, so
// an infinite slab sampled from a 3D project (periodic along its invariant axis y) has the
// analytic slab modes; forcing PEC walls there removes the TM0 slab mode; errors name the
// JSON path.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "golightly/errors.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"

using namespace golightly;

namespace {

constexpr double kN1 = 3.476, kN2 = 1.444;

// Symmetric slab (thickness d, core n1, cladding n2), fundamental mode: TE (E parallel to
// the faces) kappa tan(kappa d/2) = gamma; TM: kappa tan(kappa d/2) = (n1^2/n2^2) gamma
// (Marcuse, Theory of Dielectric Optical Waveguides, ch. 1). Bisection in n_eff.
double slab_neff(double d, double n1, double n2, double wl, bool tm) {
    const double k0 = 2 * M_PI / wl;
    auto f = [&](double n) {
        const double kappa = k0 * std::sqrt(n1 * n1 - n * n), gamma = k0 * std::sqrt(n * n - n2 * n2);
        return kappa * std::tan(kappa * d / 2) - (tm ? (n1 * n1) / (n2 * n2) : 1.0) * gamma;
    };
    double lo = std::max(n2, std::sqrt(std::max(n1 * n1 - std::pow(M_PI / (k0 * d), 2), 0.0))) + 1e-12, hi = n1 - 1e-12;
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        if ((f(lo) < 0) == (f(mid) < 0)) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

// A 0.3 um silicon slab in oxide, normal z (faces z = 1.3037, 1.6037: off the nodes),
// infinite in x and y; domain 0.4 x 0.2 x 3.0 um, periodic along y, PML along x and z;
// one port on the plane x = 0.2 spanning the whole y period.
Project slab_project(double dx) {
    Project p = test::project_3d("slab", {0.4, 0.2, 3.0}, dx, 8, "sio2",
                                 {BoundaryKind::Pml, BoundaryKind::Periodic, BoundaryKind::Pml});
    p.materials = test::oxide_and_silicon(kN2 * kN2, kN1 * kN1);
    p.layers.push_back(test::layer("slab", "si", {test::box({-1.0, -1.0, 1.3037}, {3.0, 1.2, 1.6037})}));
    p.run.spectrum.wavelength_min = 1.5;
    p.run.spectrum.wavelength_max = 1.6;
    p.run.spectrum.points = 3;
    p.extra["ports"] = Json::parse(R"([{"name": "a", "center": [0.2, 0.1, 1.5], "size": [0, 0.2, 3.0], "direction": "+x"}])");
    return p;
}

std::vector<VectorMode> port_modes_of(const Project& p, const Json& extra, CrossSection& cs) {
    cs = sample_cross_section(p, {0.2, 0.1, 1.5}, {0, 0.2, 3.0}, false, "ports[0]", "slab.glproj", extra);
    ModeSolveOptions o;
    o.num_modes = 2;
    return solve_modes_2d(cs.grid, cs.medium, 1.55, o);
}

}  // namespace

TEST_CASE("mode window: a periodic domain axis gives a periodic window (infinite slab vs analytic)",
          "[modes2d][mode_boundary]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double te = slab_neff(0.3, kN1, kN2, 1.55, false), tm = slab_neff(0.3, kN1, kN2, 1.55, true);
    for (double dx : {0.02, 0.01}) {
        const Project p = slab_project(dx);
        CrossSection cs;
        const auto modes = port_modes_of(p, Json::object(), cs);
        CHECK(cs.axis_u == 1);  // x-normal plane: u = y (periodic), v = z
        CHECK(cs.grid.boundary_u == ModeBoundary::periodic);
        CHECK(cs.grid.boundary_v == ModeBoundary::pec);
        REQUIRE(modes.size() == 2);
        std::printf("periodic slab dx %.3f: TE0 %.6f (analytic %.6f, %+.2e) TM0 %.6f (analytic %.6f, %+.2e)\n", dx,
                    modes[0].n_eff, te, modes[0].n_eff - te, modes[1].n_eff, tm, modes[1].n_eff - tm);
        // TE0: E along y (u), uniform along the period; TM0: E along z
        CHECK(modes[0].te_fraction > 0.999999);
        CHECK(modes[1].te_fraction < 1e-6);
        // second order in dx: 0.02 um: |err| < 2e-3, 0.01 um: < 5e-4 (measured below)
        const double tol = dx > 0.015 ? 2e-3 : 5e-4;
        CHECK(std::abs(modes[0].n_eff - te) < tol);
        CHECK(std::abs(modes[1].n_eff - tm) < tol);

        // the same window with PEC walls (mode_boundary "pec"): E_z must vanish on the
        // y walls 0.2 um apart, so no mode near TM0's index remains
        CrossSection cs_pec;
        const auto pec = port_modes_of(p, Json::parse(R"({"mode_boundary": "pec"})"), cs_pec);
        CHECK(cs_pec.grid.boundary_u == ModeBoundary::pec);
        REQUIRE(!pec.empty());
        CHECK(std::abs(pec[0].n_eff - te) < tol);  // TE0 (E normal to the walls) survives
        for (std::size_t k = 1; k < pec.size(); ++k) {
            std::printf("  PEC walls: mode %zu n_eff %.6f (TM0 %.6f)\n", k, pec[k].n_eff, tm);
            CHECK(std::abs(pec[k].n_eff - tm) > 0.05);
        }
    }
}

TEST_CASE("mode window: mode_boundary of ports, per axis, and its errors", "[mode_boundary][sparams]") {
    Project p = slab_project(0.02);
    // per axis [x, y, z]: the entry along the normal (x) is ignored
    auto b = mode_window_boundaries(p, 0, {0, 0.2, 3.0}, Json::parse(R"(["periodic", "pmc", "periodic"])"), "ports[0]",
                                    "slab.glproj");
    CHECK(b[0] == ModeBoundary::pmc);
    CHECK(b[1] == ModeBoundary::periodic);
    // default: the domain's periodic y, PEC along the PML axis z
    b = mode_window_boundaries(p, 0, {0, 0.2, 3.0}, Json(), "ports[0]", "slab.glproj");
    CHECK(b[0] == ModeBoundary::periodic);
    CHECK(b[1] == ModeBoundary::pec);
    // a window narrower than the periodic domain keeps PEC walls unless asked, and may not be periodic
    b = mode_window_boundaries(p, 0, {0, 0.1, 3.0}, Json(), "ports[0]", "slab.glproj");
    CHECK(b[0] == ModeBoundary::pec);
    auto path_of = [&](const Json& mb, const Vec3& size) {
        try {
            mode_window_boundaries(p, 0, size, mb, "ports[0]", "slab.glproj");
        } catch (const ProjectError& e) {
            return e.json_path();
        }
        return std::string("no error");
    };
    CHECK(path_of(Json("periodic"), {0, 0.1, 3.0}) == "ports[0].mode_boundary");
    CHECK(path_of(Json("open"), {0, 0.2, 3.0}) == "ports[0].mode_boundary");
    CHECK(path_of(Json::parse(R"(["pec", "wall", "pec"])"), {0, 0.2, 3.0}) == "ports[0].mode_boundary[1]");
    CHECK(path_of(Json::parse(R"(["pec", "pec"])"), {0, 0.2, 3.0}) == "ports[0].mode_boundary");

    // ports carry it to their mode source and every port's mode monitor
    p.extra["ports"][0]["mode_boundary"] = "pmc";
    const auto ports = parse_ports(p, "slab.glproj");
    CHECK(ports[0].mode_boundary == Json("pmc"));
    const Project q = port_mode_project(p, "slab.glproj", 0);
    REQUIRE(q.sources.size() == 1);
    CHECK(q.sources[0].extra.at("mode_boundary") == Json("pmc"));
    REQUIRE(q.monitors.size() == 1);
    CHECK(q.monitors[0].extra.at("mode_boundary") == Json("pmc"));
    p.extra["ports"][0]["mode_boundary"] = Json::parse(R"(["pec", "bad", "pec"])");
    try {
        parse_ports(p, "slab.glproj");
        FAIL("no error");
    } catch (const ProjectError& e) {
        CHECK(e.json_path() == "ports[0].mode_boundary[1]");
    }
}

// The FDTD end of a periodic window: the slab's TM0 (E normal to the slab, uniform along
// the periodic y) launched by a mode source and measured by a mode monitor 1 um further:
// the monitor's forward power is the plane's flux (a pure mode), nothing goes backward, and
// both n_eff agree. Under PEC walls (the old window) TM0 is not a mode of the window at all.
TEST_CASE("mode window: a mode source and monitor on a periodic window carry the slab's TM0",
          "[mode_boundary][3d]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double dx = 0.04;
    Project p = slab_project(dx);
    p.domain.size = {2.0, 0.2, 3.0};
    p.domain.pml.cells = 10;
    p.run.courant = 0.5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.stop.decay_db = 40;
    p.run.stop.max_time_fs = 400;
    p.run.frames.component = Component::Ez;
    p.extra.erase("ports");
    Source s;
    s.name = "tm0";
    s.type = SourceType::Plane;
    s.profile = SourceProfile::Mode;
    s.mode_index = 1;  // TE0 first, TM0 second
    s.direction = "+x";
    s.center = {0.4, 0.1, 1.5};
    s.size = {0, 0.2, 3.0};
    s.component = Component::Ez;
    s.waveform.type = WaveformType::GaussianPulse;
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.3;
    p.sources = {s};
    Monitor m;
    m.name = "T";
    m.type = MonitorType::Flux;
    m.kind = "mode";
    m.direction = "+x";
    m.center = {1.4, 0.1, 1.5};
    m.size = {0, 0.2, 3.0};
    m.extra["modes"] = Json::array({1});
    p.monitors = {m};
    RunOptions o;
    o.threads = 2;
    const RunResult r = run_project(p, "slab.glproj", o);
    REQUIRE(r.mode_coefficients.size() == 1);
    REQUIRE(r.spectra.size() == 1);
    const double tm = slab_neff(0.3, kN1, kN2, 1.55, true);
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const auto& mc = r.mode_coefficients[0];
        const double fwd = std::norm(mc.fwd[f]), bwd = std::norm(mc.bwd[f]), flux = r.spectra[0].flux[f];
        std::printf("periodic TM0 run f %zu: n_eff %.5f (analytic at 1.55 um %.5f), |a+|^2 / flux %.5f, |a-|^2 / |a+|^2 %.1e\n", f,
                    mc.n_eff[f], tm, fwd / flux, bwd / fwd);
        CHECK(fwd / flux == Approx(1.0).margin(0.002));  // measured 0.99955 - 1.00000
        CHECK(bwd / fwd < 1e-6);                          // 7e-9
        CHECK(std::abs(mc.n_eff[f] - tm) < 0.1);  // TM0, not a y-varying PEC-window mode (n_eff 1.69)
    }
}
