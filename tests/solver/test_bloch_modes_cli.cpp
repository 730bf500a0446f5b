// golightly-cli modes on a 2D port line spanning a Bloch axis with nonzero k (issue 51): the
// complex Bloch supermode written whole (Re, Im, |E|, arg E), equal to the mode the port's
// source and monitor use (compile_line_port_modes), and the mirror symmetry of the array's
// period that fixes its phase: E(L - x) = conj(E(x)) and, with the Bloch condition
// E(x + L) = exp(i k L) E(x), arg E(0) = -k L / 2 (mod pi).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "golightly/line_port_modes.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "cli_runner.hpp"

namespace fs = std::filesystem;
using namespace golightly;

namespace {

std::vector<std::vector<std::string>> read_csv(const fs::path& f) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream in(f);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string c;
        while (std::getline(ss, c, ',')) cells.push_back(c);
        rows.push_back(cells);
    }
    return rows;
}

/// One 1 um period of a strongly coupled slab array (eps 4 on x in [0.15, 0.85] um in eps
/// 2.25: the cladding's field is large, so its phase shows), Bloch along x
/// with k = 0.25 (2 pi / a): k L = pi / 2; a port across the period at y = 1 going +y.
std::string bloch_array_project(const char* pol) {
    return std::string(R"({"format": "golightly-project", "version": 1, "name": "bloch array",
      "domain": {"dimensions": 2, "size": [1.0, 3.0, 0.0], "cell_size": 0.025, "polarization": ")") +
           pol + R"(",
                 "boundaries": {"x": "bloch", "y": "pml"}, "bloch_k": [0.25, 0], "pml": {"cells": 10},
                 "background": "clad"},
      "materials": [{"id": "clad", "epsilon_inf": 2.25}, {"id": "core", "epsilon_inf": 4.0}],
      "layers": [{"name": "guide", "material": "core",
                  "shapes": [{"type": "rectangle", "min": [0.15, -1.0], "max": [0.85, 4.0]}]}],
      "ports": [{"name": "a", "center": [0.5, 1.0], "size": [1.0, 0], "direction": "+y", "modes": [0, 1]}],
      "run": {"spectrum": {"wavelength_min": 1.5, "wavelength_max": 1.6, "points": 3}}})";
}

}  // namespace

TEST_CASE("cli: modes on a Bloch port line writes the complex supermode: Re Im abs and arg", "[cli][modes][bloch]") {
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_modes_bloch_" + std::to_string(rd()));
    fs::create_directories(dir);
    for (const char* pol : {"TMz", "TEz"}) {
        const bool tm = std::string(pol) == "TMz";
        const fs::path proj = dir / (std::string("array_") + pol + ".glproj");
        std::ofstream(proj) << bloch_array_project(pol);
        const fs::path out = dir / (std::string("m_") + pol);
        const test::CliOut o = test::run_cli("modes '" + proj.string() + "' --wavelength 1.55 --out '" + out.string() + "'", dir);
        INFO(o.out << o.err);
        REQUIRE(o.code == 0);
        CHECK(o.out.find("port a mode 0: n_eff ") != std::string::npos);
        CHECK(o.out.find("Bloch supermode of the port line across the period") != std::string::npos);

        std::ifstream jf(out / "modes.json");
        const Json j = Json::parse(jf);
        const Json& jp = j.at("ports").at(0);
        const double k = 2 * M_PI * 0.25 / 1.0;  // rad/um
        CHECK(jp.at("bloch_k_per_um").get<double>() == Approx(k).epsilon(1e-12));
        REQUIRE(jp.at("modes").size() == 2);
        const Json& jm = jp.at("modes").at(0);
        CHECK(jm.at("complex").get<bool>());

        // the mode the port's source and monitor use: the same compile of the line
        const Project p = load_project(proj);
        const std::vector<Port> ports = parse_ports(p, proj.string());
        const CompiledProject cp = compile_line_port_modes(p, proj.string(), ports[0], 1.55, 2);
        const ModeMonitorPlan& plan = *cp.monitors[0].mode_plan;
        REQUIRE(plan.line_e_im.size() == 3);
        const auto& re = plan.line_e[1][0];
        const auto& im = plan.line_e_im[1][0];
        const auto& hre = plan.line_h[1][0];
        const auto& him = plan.line_h_im[1][0];
        CHECK(jm.at("n_eff").get<double>() == Approx(plan.line_neff[1][0]).epsilon(1e-9));

        const auto rows = read_csv(out / jm.at("csv").get<std::string>());
        const std::string e = tm ? "Ez" : "Ex", h = tm ? "eta0_Hx" : "eta0_Hz";
        REQUIRE(rows.size() == 41);  // header + 40 nodes of the 1 um period at 0.025 um
        CHECK(rows[0] == std::vector<std::string>{"x_um", e, h, e + "_im", h + "_im", "abs_" + e, "arg_" + e + "_rad"});
        double peak = 0, max_im = 0;
        std::vector<std::complex<double>> ez;
        for (std::size_t q = 0; q < 40; ++q) {
            const auto& r = rows[q + 1];
            REQUIRE(r.size() == 7);
            const double er = std::stod(r[1]), hr = std::stod(r[2]), ei = std::stod(r[3]), hi = std::stod(r[4]);
            // %.10g: 1e-9 relative to the unit peak
            CHECK(std::abs(er - re[q]) < 1e-9);
            CHECK(std::abs(ei - im[q]) < 1e-9);
            CHECK(std::abs(hr - hre[q]) < 1e-9 * std::max(1.0, std::abs(hre[q])));
            CHECK(std::abs(hi - him[q]) < 1e-9 * std::max(1.0, std::abs(him[q])));
            const std::complex<double> v(er, ei);
            CHECK(std::stod(r[5]) == Approx(std::abs(v)).epsilon(1e-8));
            CHECK(std::abs(std::stod(r[6]) - std::arg(v)) < 1e-8);
            peak = std::max(peak, std::abs(v));
            max_im = std::max(max_im, std::abs(ei));
            ez.push_back(v);
        }
        // complex indeed: the cladding's field leads and lags the core's by up to k L / 2
        CHECK(max_im > 0.1 * peak);
        if (tm) {
            // Ez nodes at x = j dx (j = 0..39), the period mirror-symmetric about node 20 and
            // the peak there real: the supermode obeys E[40 - j] = conj(E[j]) and, closing
            // with E[40] = exp(i k L) E[0], arg E[0] = -k L / 2 (mod pi). A profile without
            // the Bloch phase (or its real part alone) fails the second.
            CHECK(std::abs(ez[20].imag()) < 1e-9);
            for (int jj = 1; jj < 40; ++jj) CHECK(std::abs(ez[std::size_t(40 - jj)] - std::conj(ez[std::size_t(jj)])) < 1e-8);
            CHECK(std::abs(std::sin(std::arg(ez[0]) + 0.5 * k * 1.0)) < 1e-8);
        }
    }
    fs::remove_all(dir);
}

namespace {

/// The TMz Bloch array of tests/common/bloch_array_project.hpp as a 3D period: 1 x 3 x 0.1 um,
/// Bloch-periodic along x (k = 0.25 in 2 pi / a units), periodic along z, its port a plane
/// across the whole period at y = 1 um.
Json bloch_array_3d() {
    Json j3 = Json::parse(bloch_array_project("TMz"));
    j3["domain"]["dimensions"] = 3;
    j3["domain"]["size"] = Json::array({1.0, 3.0, 0.1});
    j3["domain"]["boundaries"] = Json::parse(R"({"x": "bloch", "y": "pml", "z": "periodic"})");
    j3["domain"]["bloch_k"] = Json::array({0.25, 0, 0});
    j3["ports"][0]["center"] = Json::array({0.5, 1.0, 0.05});
    j3["ports"][0]["size"] = Json::array({1.0, 0, 0.1});
    return j3;
}

/// `golightly-cli modes` on bloch_array_3d() at 1.55 um, in a fresh temporary folder named
/// after `tag`: the folder, the output folder and what the CLI printed.
struct Modes3d {
    fs::path dir, out;
    test::CliOut o;
};
Modes3d run_modes_3d(const std::string& tag) {
    std::random_device rd;
    Modes3d r;
    r.dir = fs::temp_directory_path() / ("golightly_cli_modes_" + tag + "_" + std::to_string(rd()));
    fs::create_directories(r.dir);
    const fs::path proj = r.dir / "array3d.glproj";
    std::ofstream(proj) << bloch_array_3d().dump(1);
    r.out = r.dir / "m3d";
    r.o = test::run_cli("modes '" + proj.string() + "' --wavelength 1.55 --out '" + r.out.string() + "'", r.dir);
    return r;
}

}  // namespace

// A 3D port across the Bloch axis (the same array, z-invariant over 4 periodic cells): its
// modes must be the period's Bloch modes, as its runs use them (apply_bloch_window), not the
// k = 0 modes of the cross-section (0.03 higher in n_eff here). Reference: the 2D port line's
// Bloch supermode of the same array (compile_line_port_modes, TMz: the Ez-dominant 3D mode).
// The line is solved at the Yee scheme's numerical k0 and the CLI's plane at the vacuum k0,
// which differ by (omega dt)^2 / 24 = 1.1e-4 relative at 25 nm cells and S = 0.5, so the
// bound is 3e-4 in n_eff.
TEST_CASE("cli: modes on a 3D port across a Bloch axis gives the period's Bloch modes, not k = 0",
          "[cli][modes][bloch]") {
    const Modes3d run = run_modes_3d("bloch3d");
    const fs::path& dir = run.dir;
    const fs::path& out = run.out;
    const test::CliOut& o = run.o;
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    CHECK(o.err.find("spans a Bloch axis") != std::string::npos);
    std::ifstream jf(out / "modes.json");
    const Json j = Json::parse(jf);
    const Json& jp = j.at("ports").at(0);
    REQUIRE(jp.at("axes").size() == 2);
    const int vx = jp.at("axes").at(0).get<std::string>() == "x" ? 0 : 1;  // which window axis is x
    CHECK(jp.at("bloch_k_per_um").at(vx).get<double>() == Approx(2 * M_PI * 0.25).epsilon(1e-12));
    CHECK(jp.at("bloch_k_per_um").at(1 - vx).get<double>() == 0.0);
    double n3 = 0;
    for (const Json& m : jp.at("modes"))
        if (m.at("dominant").get<std::string>() == "Ez") n3 = std::max(n3, m.at("n_eff").get<double>());
    REQUIRE(n3 > 0);
    const fs::path proj2 = dir / "array2d.glproj";
    std::ofstream(proj2) << bloch_array_project("TMz");
    const Project p2 = load_project(proj2);
    const CompiledProject cp = compile_line_port_modes(p2, proj2.string(), parse_ports(p2, proj2.string())[0], 1.55, 2);
    const double n2 = cp.monitors[0].mode_plan->line_neff[1][0];
    std::printf("3D port across the Bloch axis: n_eff %.6f; the 2D line's Bloch supermode %.6f\n", n3, n2);
    CHECK(std::abs(n3 - n2) < 3e-4);
    fs::remove_all(dir);
}

// The 3D port across the Bloch axis writes its Bloch mode complex, as the 2D line does: the
// per-mode CSV adds Ex_re .. Ez_im and the dominant component's arg, abs_E is abs(E) of the
// complex field. The same z-invariant array: the Ez-dominant mode at the cell centres is the
// 2D line's supermode (nodes x = j dx) averaged over neighbouring nodes, the average across
// the period's edge taking the Bloch phase (E(40) = exp(i k L) E(0)). Both solvers make the
// peak node (x = 0.5 um, the mirror plane) real positive, so the profiles agree without any
// phase fit; they differ by the two solves' k0 (vacuum for the plane, the Yee scheme's
// numerical k0 for the line: 1.1e-4 relative, as in n_eff above), so 1e-3 of the peak bounds
// them. Exact to the solver, the mirror symmetry of the period gives c(L - x) = conj(c(x))
// for the centre values, including the pair at the two edges (c[39] = conj(c[0])), which
// holds only with the Bloch phase in the edge average.
TEST_CASE("cli: modes on a 3D port across a Bloch axis writes the complex Bloch mode, equal to the 2D line's",
          "[cli][modes][bloch]") {
    const Modes3d run = run_modes_3d("bloch3dc");
    const fs::path& dir = run.dir;
    const fs::path& out = run.out;
    const test::CliOut& o = run.o;
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    CHECK(o.err.find("complex: the per-mode CSV adds Ex_re .. Ez_im") != std::string::npos);
    std::ifstream jf(out / "modes.json");
    const Json j = Json::parse(jf);
    const Json& jp = j.at("ports").at(0);
    const Json* ez_mode = nullptr;
    for (const Json& m : jp.at("modes")) {
        CHECK(m.at("complex").get<bool>());
        if (m.at("dominant").get<std::string>() == "Ez" &&
            (!ez_mode || m.at("n_eff").get<double>() > ez_mode->at("n_eff").get<double>()))
            ez_mode = &m;
    }
    REQUIRE(ez_mode);
    const auto rows = read_csv(out / ez_mode->at("csv").get<std::string>());
    REQUIRE(rows.size() > 1);
    const std::vector<std::string>& head = rows[0];
    auto col = [&](const std::string& name) {
        const auto it = std::find(head.begin(), head.end(), name);
        REQUIRE(it != head.end());
        return std::size_t(it - head.begin());
    };
    // the old columns first, unchanged in name and order; the complex ones after them
    REQUIRE(head.size() == 13);
    CHECK(std::vector<std::string>(head.begin() + 2, head.begin() + 6) ==
          std::vector<std::string>{"abs_E", "Ex", "Ey", "Ez"});
    const std::size_t cz = col("z_um"), cabs = col("abs_E"), arg = col("arg_Ez_rad");
    std::size_t re[3], im[3], old[3];
    for (int a = 0; a < 3; ++a) {
        const std::string n = std::string("E") + "xyz"[a];
        re[a] = col(n + "_re");
        im[a] = col(n + "_im");
        old[a] = col(n);
    }
    // %.10g: 1e-9 of the unit peak
    double peak = 0, max_im = 0;
    std::vector<std::complex<double>> c3;  // Ez on the first z row, x = (j + 1/2) dx
    const std::string z0 = rows[1][cz];
    for (std::size_t r = 1; r < rows.size(); ++r) {
        const auto& v = rows[r];
        REQUIRE(v.size() == head.size());
        double sum = 0;
        for (int a = 0; a < 3; ++a) sum += std::norm(std::complex<double>(std::stod(v[re[a]]), std::stod(v[im[a]])));
        CHECK(std::abs(std::stod(v[cabs]) - std::sqrt(sum)) < 2e-9);
        // Ex, Ez transverse (the port's normal is y): their real parts; Ey its imaginary part
        CHECK(std::abs(std::stod(v[old[0]]) - std::stod(v[re[0]])) < 1e-9);
        CHECK(std::abs(std::stod(v[old[2]]) - std::stod(v[re[2]])) < 1e-9);
        CHECK(std::abs(std::stod(v[old[1]]) - std::stod(v[im[1]])) < 1e-9);
        const std::complex<double> ez(std::stod(v[re[2]]), std::stod(v[im[2]]));
        CHECK(std::abs(std::stod(v[arg]) - std::arg(ez)) < 1e-8);
        peak = std::max(peak, std::stod(v[cabs]));
        max_im = std::max(max_im, std::abs(ez.imag()));
        if (v[cz] == z0) c3.push_back(ez);
    }
    CHECK(peak == Approx(1.0).epsilon(1e-9));
    CHECK(max_im > 0.1);  // complex indeed
    REQUIRE(c3.size() == 40);
    double sym = 0;
    for (std::size_t q = 0; q < 40; ++q) sym = std::max(sym, std::abs(c3[39 - q] - std::conj(c3[q])));
    CHECK(sym < 1e-7);

    // the 2D line's supermode (nodes), averaged to the centres across the Bloch edge
    const fs::path proj2 = dir / "array2d.glproj";
    std::ofstream(proj2) << bloch_array_project("TMz");
    const Project p2 = load_project(proj2);
    const CompiledProject cp = compile_line_port_modes(p2, proj2.string(), parse_ports(p2, proj2.string())[0], 1.55, 2);
    const ModeMonitorPlan& plan = *cp.monitors[0].mode_plan;
    const double kL = 2 * M_PI * 0.25;
    std::vector<std::complex<double>> node(41);
    for (std::size_t q = 0; q < 40; ++q) node[q] = {plan.line_e[1][0][q], plan.line_e_im[1][0][q]};
    node[40] = std::polar(1.0, kL) * node[0];
    std::vector<std::complex<double>> c2(40);
    double m2 = 0, m3 = 0;
    for (std::size_t q = 0; q < 40; ++q) {
        c2[q] = 0.5 * (node[q] + node[q + 1]);
        m2 = std::max(m2, std::abs(c2[q]));
        m3 = std::max(m3, std::abs(c3[q]));
    }
    double diff = 0, diff_re = 0;
    for (std::size_t q = 0; q < 40; ++q) {
        diff = std::max(diff, std::abs(c3[q] / m3 - c2[q] / m2));
        diff_re = std::max(diff_re, std::abs(c3[q].real() / m3 - c2[q] / m2));  // the real part alone
    }
    std::printf("3D Bloch port, complex Ez at the centres: %.3g from the 2D line's supermode (real part alone: "
                "%.3g), mirror symmetry %.3g\n",
                diff, diff_re, sym);
    CHECK(diff < 1e-3);
    CHECK(diff_re > 0.1);
    fs::remove_all(dir);
}
