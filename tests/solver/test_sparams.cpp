// Ports and S-parameters (sparams.hpp, spec "Ports and S-parameters"): a straight 500 x
// 220 nm Si strip between two ports: |S21| > 0.99, |S11| < 1e-3, S12 = S21 (reciprocity),
// the phase of S21 the lattice wavenumber times the port distance; the Touchstone and CSV
// files; port errors name their JSON path.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "golightly/errors.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/sparams.hpp"
#include "golightly/units.hpp"
#include "optional_features.hpp"
#include "project_builders.hpp"
#include "test_3d_projects.hpp"
#include "test_files.hpp"

using namespace golightly;
using namespace golightly::test3d;

namespace {

/// Silicon (n 3.476) in a silica cladding (n 1.444, the background) at 1.55 um.
void silicon_in_silica(Project& p) {
    p.domain.background = "sio2";
    p.materials = {test::material("sio2", 1.444 * 1.444), test::material("si", 3.476 * 3.476)};
}

Project straight_strip(double dx) {
    Project p = vacuum_project(4.0, 2.0, 1.6, dx, 8, 1.5, 1.6, 3);
    silicon_in_silica(p);
    p.layers.push_back(test::strip_core_layer(5.0));
    p.run.stop.decay_db = 40;
    p.run.stop.max_time_fs = 600;
    p.extra["ports"] = Json::parse(R"([
        {"name": "in", "center": [0.8, 1.0, 0.8], "size": [0, 2.0, 1.6], "direction": "+x", "modes": [0]},
        {"name": "out", "center": [3.2, 1.0, 0.8], "size": [0, 2.0, 1.6], "direction": "-x"}])");
    return p;
}

}  // namespace

TEST_CASE("S-parameters: a straight strip waveguide between two ports", "[sparams][3d][slow]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    const double dx = 0.04;
    Project p = straight_strip(dx);
    // The strip and its TE0 mode (E_y even about y = 1.0 um, 50 cells: an E-node plane) are
    // mirror images through y = 1: -1 (PEC), so each port run steps half the cells (the
    // whole domain's S-matrix to rounding: the 2D half-domain case below and test_symmetry.cpp).
    p.domain.symmetry = {0, -1, 0};
    RunOptions o;
    o.threads = 2;
    const SParameters s = run_sparameters(p, "straight.glproj", o);
    REQUIRE(s.labels.size() == 2);
    CHECK(s.labels[0] == "in:0");
    CHECK(s.labels[1] == "out:0");
    REQUIRE(s.runs.size() == 2);
    for (const auto& w : s.warnings) std::printf("warning: %s\n", w.c_str());
    const double dt = p.run.courant * dx * units::um / units::c0;
    for (std::size_t f = 0; f < s.frequency_hz.size(); ++f) {
        const auto s11 = s.s[0][0][f], s21 = s.s[1][0][f], s12 = s.s[0][1][f], s22 = s.s[1][1][f];
        // S21 phase: the lattice wavenumber over the 2.4 um between the port planes
        const double n_eff = s.runs[0].mode_coefficients[0].n_eff[f];
        const double w = 2 * M_PI * s.frequency_hz[f];
        const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
        const double beta_l = 2.0 / dx * std::asin(0.5 * n_eff * k0n * dx);
        const double dphi = std::arg(s21 * std::polar(1.0, -beta_l * 2.4));
        std::printf("wl %.4f: |S11| %.2e |S21| %.5f |S12| %.5f |S22| %.2e | |S21-S12| %.2e | S21 phase - beta_l L %+.2e "
                    "rad\n",
                    units::hz_to_wavelength_um(s.frequency_hz[f]), std::abs(s11), std::abs(s21), std::abs(s12),
                    std::abs(s22), std::abs(s21 - s12), dphi);
        CHECK(std::abs(s21) > 0.99);
        CHECK(std::abs(s21) < 1.01);
        CHECK(std::abs(s11) < 1e-3);
        CHECK(std::abs(s22) < 1e-3);
        CHECK(std::abs(s21 - s12) < 1e-2);
        CHECK(std::abs(dphi) < 1e-2);
    }
    CHECK(s.warnings.empty());

    const test::Scratch scratch("sparams", "files");  // its own folder: the Release and ASan suites may run at once
    const auto dir = scratch.path;
    write_touchstone(dir / "sparams.s2p", s);
    write_sparams_csv(dir / "sparams.csv", s);
    std::ifstream ts(dir / "sparams.s2p");
    std::string line;
    int data = 0;
    bool option = false;
    while (std::getline(ts, line)) {
        if (line.rfind("# Hz S RI R 50", 0) == 0) option = true;
        if (line.empty() || line[0] == '!' || line[0] == '#') continue;
        std::istringstream ls(line);
        double fr, v[8];
        ls >> fr;
        for (double& x : v) ls >> x;
        REQUIRE(!ls.fail());
        CHECK(fr == Approx(s.frequency_hz[std::size_t(data)]).epsilon(1e-9));
        CHECK(v[2] == Approx(s.s[1][0][std::size_t(data)].real()).margin(1e-9));  // S21 second, as Touchstone 1.1 orders 2-ports
        ++data;
    }
    CHECK(option);
    CHECK(data == 3);
    std::ifstream csv(dir / "sparams.csv");
    std::getline(csv, line);
    CHECK(line == "wavelength_um,frequency_thz,S11_re,S11_im,S12_re,S12_im,S21_re,S21_im,S22_re,S22_im");
}

TEST_CASE("S-parameters: port errors name their JSON path", "[sparams]") {
    Project p = straight_strip(0.04);
    p.extra["ports"][1]["direction"] = "+y";
    try {
        parse_ports(p, "straight.glproj");
        FAIL("no error");
    } catch (const ProjectError& e) {
        CHECK(e.json_path() == "ports[1].direction");
    }
    p.extra["ports"][1]["direction"] = "-x";
    p.extra["ports"][0]["size"] = Json::array({0, 0, 1.6});
    try {
        parse_ports(p, "straight.glproj");
        FAIL("no error");
    } catch (const ProjectError& e) {
        CHECK(e.json_path() == "ports[0].size");
    }
    p.extra.erase("ports");
    CHECK_THROWS_AS(parse_ports(p, "straight.glproj"), ProjectError);
}

// The issue's validation: a 3D strip bend's S21 against the flux-based transmission. A 90
// degree bend of centre-line radius 1.4 um of the 500 x 220 nm Si strip in oxide (path shape
// with bend_radius), TE0 launched at port "in" 1.0 um before the arc; port "out" 2.08 um
// after the arc (its mode monitor 2.0 um after it, 0.6 um from the PML) carries modes 0
// (TE0) and 2 (TE1: the 500 nm strip guides a weak TE1, n_eff 1.48-1.54 over the band;
// mode 1 is TM0). One run (port-mode in:0; sparameter_column is the column run_sparameters
// builds from it), every transmission over the launched mode power |a_in|^2:
//   T_flux  = flux through the output monitor's plane (the port window, 1.8 x 1.6 um),
//   T_small = flux through a 1.2 x 1.0 um plane around the output arm at the same place,
//   |S21|^2 = TE0 out, |S31|^2 = TE1 out.
// Measured (0.04 um cells; an exploratory run with planes 0.5 - 2.5 um after the arc, not
// kept as a test): the bend converts 1.2 % (1.6 um) to 2.1 % (1.5 um) of the power into
// the guided TE1, which any flux plane around the guide counts and |S21|^2 (TE0) does not:
// |S21|^2 / T_flux = 0.978 - 0.987 wherever the plane is (0.5 - 2.5 um); the radiated light
// that still crosses the port window is 5e-4 of the power 2 um after the arc (1.5e-3 at
// 1.3 um, the earlier placement of this test). So the guided power |S21|^2 + |S31|^2
// matches T_flux within 8e-4 (asserted 0.5 %), and |S21|^2 / T_flux falls short of 1 by the
// TE1 share (asserted). The 1.2 x 1.0 um plane holds 99.95 - 99.98 % of TE0's power and
// 81 - 89 % of TE1's (mode solver, computed below); its flux equals f0 |S21|^2 + f2 |S31|^2
// within 5e-4 (asserted 0.5 %).
TEST_CASE("S-parameters: a 3D strip bend's S21 against the flux transmission", "[sparams][3d][slow]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    // The strip lies in the mid-plane z = zc of a 41-cell-high domain (1.64 um): TE0 and TE1
    // (E in the wafer plane) are even there, a PMC plane (1: an odd number of cells), so the
    // run steps half the cells (the whole domain's results to rounding: test_symmetry.cpp);
    // TM0 (mode 1), odd in z, is not excited and is outside what is checked. Seen: 101 s
    // against 438 s for the whole 40-cell-high domain (2-core machine at load 11), the guided
    // sum over T_flux 0.99928 .. 0.99958 (0.99924 .. 0.99954), |S31|^2 0.0119 .. 0.0204
    // (0.0120 .. 0.0209), T_small over the modes' share 1.00028 .. 1.00052 (1.00025 .. 1.00050).
    const double dx = 0.04, R = 1.4, x_arc = 1.4, xw = x_arc + R, y_out = 1.0 + R + 2.08, zc = 0.82;
    Project p = vacuum_project(xw + 1.0, y_out + 0.52, 2 * zc, dx, 8, 1.5, 1.6, 3);
    p.domain.symmetry = {0, 0, 1};
    silicon_in_silica(p);
    Layer l;
    l.name = "bend";
    l.material = "si";
    l.z = std::array<double, 2>{zc - 0.11, zc + 0.11};
    Shape b;
    b.type = ShapeType::Path;
    b.points = {{-1.0, 1.0}, {xw, 1.0}, {xw, y_out + 2.0}};
    b.width = 0.5;
    b.bend_radius = R;
    l.shapes.push_back(b);
    p.layers.push_back(l);
    p.run.stop.decay_db = 40;
    p.run.stop.max_time_fs = 800;
    p.extra["ports"] = Json::parse(R"([
        {"name": "in", "center": [0.4, 1.0, 0.82], "size": [0, 1.8, 1.6], "direction": "+x"},
        {"name": "out", "size": [1.8, 0, 1.6], "direction": "-y", "modes": [0, 2]}])");
    p.extra["ports"][1]["center"] = Json::array({xw, y_out, zc});
    const double y_mon = y_out - 2 * dx;  // the port's mode monitor
    Monitor small;  // a project flux plane: kept in the port runs
    small.name = "small";
    small.type = MonitorType::Flux;
    small.direction = "+y";
    small.center = {xw, y_mon, zc};
    small.size = {1.2, 0, 1.0};
    p.monitors.push_back(small);

    // the share of TE0's and TE1's power inside the small plane (mode solver, at each wavelength)
    const CrossSection cs = sample_cross_section(p, {xw, y_mon, zc}, {1.8, 0, 1.6}, false, "ports[1]", "bend.glproj");
    auto window_share = [&](const VectorMode& m) {
        double all = 0, in = 0;
        for (int d = 0; d < 2; ++d) {  // E_u with H_v, E_v with -H_u (u = z, v = x)
            const auto sh = mode_component_shape_e(cs.grid, d);
            for (int j = 0; j < sh[1]; ++j)
                for (int i = 0; i < sh[0]; ++i) {
                    const std::size_t k = std::size_t(j) * std::size_t(sh[0]) + std::size_t(i);
                    const double pw = (d == 0 ? 1 : -1) * (m.e[d][k] * std::conj(m.h[1 - d][k])).real();
                    const auto pos = mode_node_position(cs.grid, d, false, i, j);
                    all += pw;
                    if (std::abs(cs.u0_um + pos[0] - zc) <= 0.5 && std::abs(cs.v0_um + pos[1] - xw) <= 0.6) in += pw;
                }
        }
        return in / all;
    };

    RunOptions o;
    o.threads = 2;
    const RunResult r = run_port_mode(p, "bend.glproj", o, 0);
    const auto col = sparameter_column(p, "bend.glproj", r, 0);  // [in:0, out:0, out:2][f]
    REQUIRE(col.size() == 3);
    REQUIRE(r.spectra.size() == 3);  // port_in, port_out, small
    CHECK(r.spectra[2].name == "small");
    CHECK(r.stop_reason == StopReason::Decay);
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
        const double wl = units::hz_to_wavelength_um(r.frequency_hz[f]);
        ModeSolveOptions so;
        so.num_modes = 3;
        const auto modes = solve_modes_2d(cs.grid, cs.medium, wl, so);
        REQUIRE(modes.size() == 3);
        const double f0 = window_share(modes[0]), f2 = window_share(modes[2]);
        const double a_in = std::norm(r.mode_coefficients[0].fwd[f]);  // launched TE0 power
        const double t_flux = -r.spectra[1].flux[f] / a_in;              // out's direction points inward
        const double t_small = r.spectra[2].flux[f] / a_in;
        const double s21 = std::norm(col[1][f]), s31 = std::norm(col[2][f]);
        std::printf("bend wl %.4f: |S21|^2 %.5f |S31|^2 (TE1) %.5f, T_flux %.5f: |S21|^2/T %.5f, "
                    "(|S21|^2+|S31|^2)/T %.5f | T_small %.5f (TE0 share %.5f, TE1 %.3f): ratio %.5f | |S11| %.1e\n",
                    wl, s21, s31, t_flux, s21 / t_flux, (s21 + s31) / t_flux, t_small, f0, f2,
                    t_small / (f0 * s21 + f2 * s31), std::abs(col[0][f]));
        CHECK(f0 > 0.997);
        CHECK(std::abs((s21 + s31) / t_flux - 1) < 0.005);
        CHECK(std::abs(t_small / (f0 * s21 + f2 * s31) - 1) < 0.005);
        // TE0 alone: below the flux by the TE1 share (1.2 - 2.1 %), not more
        CHECK(s31 > 0.008);
        CHECK(s31 < 0.03);
        CHECK(s21 / t_flux < 1 - 0.6 * s31);
        CHECK(s21 / t_flux > 1 - 1.4 * s31 - 0.002);
        CHECK(s21 < 1.0);
        CHECK(std::abs(col[0][f]) < 0.01);
    }
}

// 2D ports (lines; the 1D slab modes of the `mode` line source): a straight slab (eps 12,
// 0.3 um, TMz and TEz) between two ports.
TEST_CASE("S-parameters: a straight 2D slab between two line ports", "[sparams][slow]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const double dx = 0.02;
        Project p = test::slab_guide_2d(4.0, 3.0, dx, pol, 12, 1.35, 1.65, 50, 1000);
        p.run.frames.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
        p.extra["ports"] = Json::parse(R"([
            {"name": "a", "center": [0.8, 1.5], "size": [0, 2.4], "direction": "+x"},
            {"name": "b", "center": [3.2, 1.5], "size": [0, 2.4], "direction": "-x"}])");
        RunOptions o;
        o.threads = 2;
        const SParameters s = run_sparameters(p, "slab2d.glproj", o);
        REQUIRE(s.labels.size() == 2);
        for (const auto& w : s.warnings) std::printf("warning: %s\n", w.c_str());
        const double dt = p.run.courant * dx * units::um / units::c0;
        for (std::size_t f = 0; f < s.frequency_hz.size(); ++f) {
            const auto s11 = s.s[0][0][f], s21 = s.s[1][0][f], s12 = s.s[0][1][f];
            const double n_eff = s.runs[0].mode_coefficients[0].n_eff[f];
            const double w = 2 * M_PI * s.frequency_hz[f];
            const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
            const double beta_l = 2.0 / dx * std::asin(0.5 * n_eff * k0n * dx);
            const double dphi = std::arg(s21 * std::polar(1.0, -beta_l * 2.4));
            std::printf("2D %s wl %.4f: |S11| %.2e |S21| %.5f |S21-S12| %.2e | S21 phase - beta_l L %+.2e rad\n",
                        pol == Polarization::TMz ? "TMz" : "TEz", units::hz_to_wavelength_um(s.frequency_hz[f]),
                        std::abs(s11), std::abs(s21), std::abs(s21 - s12), dphi);
            CHECK(std::abs(s21) > 0.99);
            CHECK(std::abs(s21) < 1.01);
            CHECK(std::abs(s11) < 1e-3);
            CHECK(std::abs(s21 - s12) < 1e-2);
            CHECK(std::abs(dphi) < 1e-2);
        }
        CHECK(s.warnings.empty());
    }
}

// The reciprocity and passivity checks (sparameter_warnings, used by run_sparameters):
// a synthetic 2-port-mode matrix over 3 frequencies, valid (lossy, reciprocal), then
// with S12 - S21 just above and just below the 0.02 tolerance, then with a column
// carrying 3 % more power than it was given (above 1 + 0.02) and 1 % more (below).
TEST_CASE("S-parameters: the reciprocity and passivity warnings fire beyond their tolerances", "[sparams]") {
    SParameters s;
    s.frequency_hz = {1.8e14, 1.9e14, 2.0e14};
    s.labels = {"a:0", "b:0"};
    const std::complex<double> t = std::polar(0.9, 0.7), r = std::polar(0.3, -1.1);  // |t|^2 + |r|^2 = 0.90
    s.s.assign(2, std::vector<std::vector<std::complex<double>>>(2, std::vector<std::complex<double>>(3)));
    for (std::size_t f = 0; f < 3; ++f) {
        s.s[0][0][f] = s.s[1][1][f] = r;
        s.s[1][0][f] = s.s[0][1][f] = t;
    }
    CHECK(sparameter_warnings(s, 0.02, 0.02).empty());

    SParameters nr = s;  // S12 differs from S21 at the middle frequency by 0.025 (then 0.015)
    nr.s[0][1][1] = t + std::polar(0.025, 0.3);
    auto w = sparameter_warnings(nr, 0.02, 0.02);
    REQUIRE(w.size() == 1);
    CHECK(w[0].rfind("reciprocity: |S12 - S21| = 0.025", 0) == 0);
    CHECK(w[0].find("um (tolerance 0.02)") != std::string::npos);
    CHECK(w[0].find(" at 1.57") != std::string::npos);  // c / 1.9e14 Hz = 1.5779 um
    nr.s[0][1][1] = t + std::polar(0.015, 0.3);
    CHECK(sparameter_warnings(nr, 0.02, 0.02).empty());
    CHECK(sparameter_warnings(nr, 0.01, 0.02).size() == 1);  // the tolerance is honoured

    SParameters act = s;  // column 2 (port b excited) gains power: 0.90 -> 1.03 (then 1.01)
    const double g3 = std::sqrt(1.03 / 0.90), g1 = std::sqrt(1.01 / 0.90);
    act.s[0][1][2] = t * g3;
    act.s[1][1][2] = r * g3;
    act.s[1][0][2] = act.s[0][1][2];  // still reciprocal
    w = sparameter_warnings(act, 0.02, 0.02);
    REQUIRE(w.size() == 1);
    CHECK(w[0].rfind("passivity: sum_i |S_i2|^2 = 1.03", 0) == 0);
    CHECK(w[0].find("(above 1 + 0.02)") != std::string::npos);
    act.s[0][1][2] = act.s[1][0][2] = t * g1;
    act.s[1][1][2] = r * g1;
    CHECK(sparameter_warnings(act, 0.02, 0.02).empty());

    // assemble_sparameters appends them after the runs' own warnings: a run list of the
    // wrong length is an error
    Project p = straight_strip(0.04);
    CHECK_THROWS_AS(assemble_sparameters(p, "x.glproj", {}), RunError);
}

// run_sparameters over two workers of the job queue (in this process, two threads) equals
// the sequential path exactly, and a port-mode run survives its JSON round trip (what a
// child process of golightly-cli sparams --devices hands back) bit for bit.
TEST_CASE("S-parameters: two workers give the sequential result, a run's JSON round trip is exact", "[sparams]") {
    Project p = test::slab_guide_2d(3.0, 2.0, 0.04, Polarization::TMz, 10, 0.85, 1.15, 40, 600);
    p.extra["ports"] = Json::parse(R"([
        {"name": "a", "center": [0.6, 1.0], "size": [0, 1.8], "direction": "+x"},
        {"name": "b", "center": [2.4, 1.0], "size": [0, 1.8], "direction": "-x"}])");
    RunOptions o;
    o.threads = 1;
    const SParameters seq = run_sparameters(p, "slab2d.glproj", o);
    const SParameters par = run_sparameters(p, "slab2d.glproj", o, 0.02, 0.02, {}, 2);
    REQUIRE(seq.s.size() == 2);
    CHECK(seq.labels == par.labels);
    CHECK(seq.frequency_hz == par.frequency_hz);
    CHECK(seq.s == par.s);
    CHECK(seq.warnings == par.warnings);
    CHECK(std::abs(seq.s[1][0][1]) > 0.98);
    // a runner (as the CLI's child processes) that hands back the JSON round trip
    std::atomic<int> calls{0};
    const SParameters via_json = run_sparameters(
        p, "slab2d.glproj", o, 0.02, 0.02,
        [&](std::size_t j, int) {
            ++calls;
            const Json doc = Json::parse(port_mode_run_to_json(run_port_mode(p, "slab2d.glproj", o, j)).dump());
            return port_mode_run_from_json(doc);
        },
        2);
    CHECK(calls == 2);
    CHECK(via_json.s == seq.s);
    CHECK(via_json.runs[1].spectra.size() == seq.runs[1].spectra.size());
    CHECK(via_json.runs[1].spectra[0].flux == seq.runs[1].spectra[0].flux);
    CHECK_THROWS_AS(port_mode_run_from_json(Json::parse(R"({"stop_reason": "decay"})")), std::runtime_error);
}

TEST_CASE("S-parameters: a symmetric 2D slab on half the domain gives the whole domain's S-matrix", "[sparams][symmetry]") {
    // #51 item 1 ("ports and S-parameters report whole-domain results"): the TEz slab of the
    // test above, its TE0 mode odd in E_t about y = 1.5 um (150 cells: an E-node plane, -1);
    // each port run goes through make_engine, so the job runs reduced. Float64: equal to
    // rounding (tests/solver/test_symmetry.cpp, top comment), bound 1e-6 of |S21|.
    const double dx = 0.02;
    Project p = test::slab_guide_2d(4.0, 3.0, dx, Polarization::TEz, 12, 1.35, 1.65, 50, 1000);
    p.run.precision = Precision::Float64;
    p.run.frames.component = Component::Hz;
    p.extra["ports"] = Json::parse(R"([
        {"name": "a", "center": [0.8, 1.5], "size": [0, 2.4], "direction": "+x"},
        {"name": "b", "center": [3.2, 1.5], "size": [0, 2.4], "direction": "-x"}])");
    RunOptions o;
    o.threads = 2;
    const SParameters whole = run_sparameters(p, "slab2d.glproj", o);
    p.domain.symmetry = {0, -1, 0};
    const SParameters half = run_sparameters(p, "slab2d_half.glproj", o);
    REQUIRE(half.s.size() == whole.s.size());
    for (std::size_t i = 0; i < whole.s.size(); ++i)
        for (std::size_t j = 0; j < whole.s[i].size(); ++j)
            for (std::size_t f = 0; f < whole.s[i][j].size(); ++f)
                CHECK(std::abs(half.s[i][j][f] - whole.s[i][j][f]) < 1e-6);
}
