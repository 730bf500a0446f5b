// Mode selection of ports, mode monitors and mode sources (mode_plane.hpp
// parse_mode_selection, filter_modes): `filter` keeps TE-like or TM-like modes of the
// 500 x 220 nm strip, `target_neff` moves the solver's shift; errors name the file and the
// field; ports carry both to their mode source and mode monitor (sparams.hpp).
#include <catch2/catch.hpp>

#include <cstdio>

#include "golightly/errors.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/sparams.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"

using namespace golightly;

namespace {

Project strip_project() {
    Project p = test::project_3d("strip", {4.0, 2.0, 1.6}, 0.04, 8, "sio2");
    p.materials = test::oxide_and_silicon();
    p.layers.push_back(test::strip_core_layer(5.0));
    p.extra["ports"] = Json::parse(R"([
        {"name": "in", "center": [0.8, 1.0, 0.8], "size": [0, 2.0, 1.6], "direction": "+x", "modes": [0]},
        {"name": "out", "center": [3.2, 1.0, 0.8], "size": [0, 2.0, 1.6], "direction": "-x"}])");
    return p;
}

std::string error_path(const Json& obj) {
    try {
        parse_mode_selection(obj, "monitors[2]", "strip.glproj");
    } catch (const ProjectError& e) {
        CHECK(e.file() == "strip.glproj");
        return e.json_path();
    }
    return "";
}

}  // namespace

TEST_CASE("mode selection: parse_mode_selection reads target_neff and filter, errors name the field",
          "[mode][mode_selection]") {
    const ModeSelection d = parse_mode_selection(Json::object(), "monitors[0]", "x");
    CHECK(d.target_neff == 0);
    CHECK(d.filter == ModeFilter::none);
    const ModeSelection s = parse_mode_selection(Json::parse(R"({"target_neff": 1.8, "filter": "tm"})"), "m", "x");
    CHECK(s.target_neff == 1.8);
    CHECK(s.filter == ModeFilter::tm);
    CHECK(parse_mode_selection(Json::parse(R"({"filter": "te"})"), "m", "x").filter == ModeFilter::te);
    CHECK(parse_mode_selection(Json::parse(R"({"filter": "none"})"), "m", "x").filter == ModeFilter::none);
    CHECK(error_path(Json::parse(R"({"filter": "TE0"})")) == "monitors[2].filter");
    CHECK(error_path(Json::parse(R"({"filter": 1})")) == "monitors[2].filter");
    CHECK(error_path(Json::parse(R"({"target_neff": -1})")) == "monitors[2].target_neff");
    CHECK(error_path(Json::parse(R"({"target_neff": "2"})")) == "monitors[2].target_neff");
}

TEST_CASE("mode selection: filter picks TE0 or TM0 of the strip as mode 0, target_neff finds the mode near it",
          "[modes2d][mode][mode_selection]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const Project p = strip_project();
    const CrossSection cs =
        sample_cross_section(p, {0.8, 1.0, 0.8}, {0.0, 2.0, 1.6}, false, "ports[0]", "strip.glproj", Json::object(), 1.55);
    ModeSolveOptions o;
    o.num_modes = modes_to_solve(1, ModeFilter::tm);
    const auto all = solve_modes_2d(cs.grid, cs.medium, 1.55, o);
    REQUIRE(all.size() >= 2);
    const auto te = filter_modes(cs, all, ModeFilter::te), tm = filter_modes(cs, all, ModeFilter::tm);
    REQUIRE(!te.empty());
    REQUIRE(!tm.empty());
    std::printf("strip: TE0 %.6f (TE fraction %.3f), TM0 %.6f (TE fraction %.3f)\n", te[0].n_eff,
                wafer_te_fraction(cs, te[0]), tm[0].n_eff, wafer_te_fraction(cs, tm[0]));
    // the unfiltered mode 0 is TE0 (E along y, the x-normal plane's u); TM0 is the next, lower
    CHECK(te[0].n_eff == all[0].n_eff);
    CHECK(wafer_te_fraction(cs, te[0]) > 0.9);
    CHECK(wafer_te_fraction(cs, tm[0]) < 0.1);
    CHECK(tm[0].n_eff < te[0].n_eff);
    CHECK(filter_modes(cs, all, ModeFilter::none).size() == all.size());
    // target_neff at TM0's index: the mode nearest it first among what the solver returns
    ModeSolveOptions ot;
    ot.num_modes = 1;
    ot.target_neff = tm[0].n_eff + 0.01;
    const auto near = solve_modes_2d(cs.grid, cs.medium, 1.55, ot);
    REQUIRE(near.size() == 1);
    CHECK(std::abs(near[0].n_eff - tm[0].n_eff) < 1e-9);
}

TEST_CASE("mode selection: ports carry target_neff and filter to their mode source and monitor, errors name the port",
          "[mode][mode_selection][sparams]") {
    Project p = strip_project();
    p.extra["ports"][0]["filter"] = "tm";
    p.extra["ports"][0]["target_neff"] = 1.7;
    const auto ports = parse_ports(p, "strip.glproj");
    REQUIRE(ports.size() == 2);
    CHECK(ports[0].filter == "tm");
    CHECK(ports[0].target_neff == 1.7);
    CHECK(ports[1].filter.empty());
    const Project q = port_mode_project(p, "strip.glproj", 0);
    REQUIRE(q.sources.size() == 1);
    CHECK(q.sources[0].extra["filter"] == "tm");
    CHECK(q.sources[0].extra["target_neff"] == 1.7);
    REQUIRE(q.monitors.size() >= 2);
    CHECK(q.monitors[0].extra["filter"] == "tm");
    CHECK(q.monitors[1].extra.contains("filter") == false);
    p.extra["ports"][1]["filter"] = "TE";
    try {
        parse_ports(p, "strip.glproj");
        FAIL("no error");
    } catch (const ProjectError& e) {
        CHECK(e.file() == "strip.glproj");
        CHECK(e.json_path() == "ports[1].filter");
    }
    p.extra["ports"][1]["filter"] = "te";
    p.extra["ports"][1]["target_neff"] = 0;
    try {
        parse_ports(p, "strip.glproj");
        FAIL("no error");
    } catch (const ProjectError& e) {
        CHECK(e.json_path() == "ports[1].target_neff");
    }
}

namespace {

// A synthetic mode on a cross-section of 2 E_u nodes (E_v, H_u: one node, zero): E_u =
// H~_v = (a, b), n_eff n.
VectorMode synthetic_mode(double a, double b, double n) {
    VectorMode m;
    m.n_eff = n;
    m.e[0] = {a, b};
    m.h[1] = {a, b};
    m.e[1] = {0.0};
    m.h[0] = {0.0};
    m.e[2] = m.h[2] = {0.0};
    return m;
}

}  // namespace

TEST_CASE("mode tracking: modes that cross in n_eff keep their identity, a low overlap warns",
          "[mode][mode_selection][mode_tracking]") {
    const VectorMode A0 = synthetic_mode(1, 0, 2.00), B0 = synthetic_mode(0, 1, 1.90);
    const VectorMode A1 = synthetic_mode(-1, 0, 1.94), B1 = synthetic_mode(0, 1, 1.95);  // crossed (A's sign flipped)
    const VectorMode A2 = synthetic_mode(1, 0, 1.88), B2 = synthetic_mode(0, 1, 2.00);
    CHECK(mode_overlap(A0, A1) == Approx(1.0).epsilon(1e-15));
    CHECK(mode_overlap(A0, B0) == 0.0);
    CHECK(mode_overlap(A0, VectorMode{}) == 0.0);
    const std::vector<double> freqs = {1e14, 2e14, 3e14};
    std::vector<std::string> warnings;
    // candidates sorted by n_eff at each frequency; indices counted at the centre (f = 1)
    const auto picked = track_modes({{A0, B0}, {B1, A1}, {B2, A2}}, {0, 1}, 1, freqs, "mode monitor 'm'", warnings);
    REQUIRE(picked.size() == 3);
    // mode 0 at the centre is B; it stays B on both sides, below A at f = 0
    CHECK(picked[0][0].n_eff == 1.90);
    CHECK(picked[1][0].n_eff == 1.95);
    CHECK(picked[2][0].n_eff == 2.00);
    CHECK(picked[0][1].n_eff == 2.00);
    CHECK(picked[2][1].n_eff == 1.88);
    CHECK(warnings.empty());
    // a candidate that is half of each: overlap 1/sqrt(2) < 0.9 warns, naming the monitor
    const VectorMode C2 = synthetic_mode(std::sqrt(0.5), std::sqrt(0.5), 1.99);
    const auto p2 = track_modes({{A0, B0}, {B1, A1}, {C2}}, {0}, 1, freqs, "mode monitor 'm'", warnings);
    CHECK(p2[2][0].n_eff == 1.99);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].find("mode monitor 'm': mode 0: overlap 0.707") == 0);
}
