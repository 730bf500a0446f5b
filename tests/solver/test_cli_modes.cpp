// golightly-cli modes (cmd_modes.cpp): the ports' modes of examples/strip_sparams_3d.glproj
// written as CSV, JSON and PNG; the values equal the solver's (sample_cross_section +
// solve_modes_2d of the same port); usage and project errors.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "golightly/image_io.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/mode_solver2d.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "cli_runner.hpp"
#include "optional_features.hpp"

namespace fs = std::filesystem;
using namespace golightly;

namespace {

using Out = test::CliOut;
Out cli(const std::string& args, const fs::path& dir) { return test::run_cli(args, dir); }

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

std::vector<std::uint8_t> read_bytes(const fs::path& f) {
    std::ifstream in(f, std::ios::binary);
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("cli: modes writes each port's n_eff, n_group, TE fraction and field maps", "[cli][modes]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_modes_" + std::to_string(rd()));
    fs::create_directories(dir);
    const fs::path example = fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "strip_sparams_3d.glproj";
    const fs::path out = dir / "m";
    Out o = cli("modes '" + example.string() + "' --count 2 --wavelength 1.55 --out '" + out.string() + "'", dir);
    INFO(o.err);
    REQUIRE(o.code == 0);

    // the solver's own values for the same ports
    const Project p = load_project(example);
    const auto ports = parse_ports(p, "x");
    REQUIRE(ports.size() == 2);
    const auto rows = read_csv(out / "modes.csv");
    REQUIRE(rows.size() == 5);
    CHECK(rows[0] == std::vector<std::string>{"port", "mode", "wavelength_um", "n_eff", "n_group", "te_fraction", "dominant",
                                               "n_eff_imag", "loss_db_per_cm", "bend_radius_um", "loss_db_per_90deg"});
    std::ifstream js(out / "modes.json");
    const Json doc = Json::parse(js);
    CHECK(doc["wavelength_um"].get<double>() == 1.55);
    REQUIRE(doc["ports"].size() == 2);
    for (std::size_t pi = 0; pi < 2; ++pi) {
        const CrossSection cs = sample_cross_section(p, ports[pi].center, ports[pi].size, false, "ports", "x", Json::object(), 1.55);
        ModeSolveOptions so;
        so.num_modes = 2;
        const auto modes = solve_modes_2d(cs.grid, cs.medium, 1.55, so);
        REQUIRE(modes.size() == 2);
        const Json& jp = doc["ports"][pi];
        CHECK(jp["name"] == ports[pi].name);
        CHECK(jp["normal"] == "x");
        CHECK(jp["axes"] == Json::array({"y", "z"}));
        CHECK(jp["window"]["cells"] == Json::array({cs.grid.nu, cs.grid.nv}));
        CHECK(jp["window"]["boundary"] == Json::array({"pec", "pec"}));
        for (std::size_t k = 0; k < 2; ++k) {
            const auto& r = rows[1 + 2 * pi + k];
            const Json& jm = jp["modes"][k];
            CHECK(r[0] == ports[pi].name);
            CHECK(r[1] == std::to_string(k));
            // CSV: 10 significant digits; JSON: exact
            CHECK(std::stod(r[3]) == Approx(modes[k].n_eff).epsilon(1e-9));
            CHECK(std::stod(r[4]) == Approx(modes[k].n_group).epsilon(1e-9));
            CHECK(std::stod(r[5]) == Approx(modes[k].te_fraction).epsilon(1e-9).margin(1e-12));
            CHECK(jm["n_eff"].get<double>() == modes[k].n_eff);
            CHECK(jm["n_group"].get<double>() == modes[k].n_group);
            CHECK(jm["te_fraction"].get<double>() == modes[k].te_fraction);  // x-normal: TE = E along y = u
            // TE0 (E along y) then TM0 (E along z) of the 500 x 220 nm strip
            CHECK(r[6] == (k == 0 ? "Ey" : "Ez"));
            CHECK(jm["dominant"] == r[6]);
            // the field map: one row per cell of the window, |E| peaks at 1 inside the core
            const auto f = read_csv(out / jm["csv"].get<std::string>());
            REQUIRE(f.size() == std::size_t(cs.grid.nu * cs.grid.nv + 1));
            CHECK(f[0] == std::vector<std::string>{"y_um", "z_um", "abs_E", "Ex", "Ey", "Ez"});
            double peak = 0, py = 0, pz = 0, dom_peak = 0;
            const int dcol = k == 0 ? 4 : 5;
            for (std::size_t q = 1; q < f.size(); ++q) {
                REQUIRE(f[q].size() == 6);
                const double a = std::stod(f[q][2]);
                const double ex = std::stod(f[q][3]), ey = std::stod(f[q][4]), ez = std::stod(f[q][5]);
                CHECK(a == Approx(std::sqrt(ex * ex + ey * ey + ez * ez)).margin(1e-8));
                dom_peak = std::max(dom_peak, std::abs(std::stod(f[q][std::size_t(dcol)])));
                if (a > peak) peak = a, py = std::stod(f[q][0]), pz = std::stod(f[q][1]);
            }
            CHECK(peak == Approx(1.0).epsilon(1e-9));
            CHECK(dom_peak > 0.7);  // TM0: |E| also holds E_y at the core corners and E_x
            CHECK(std::abs(py - 1.0) < 0.3);   // the core: y 0.75..1.25
            CHECK(std::abs(pz - 0.81) < 0.2);  // z 0.70..0.92
            for (const char* key : {"png_abs", "png_dominant"}) {
                const Image8 img = decode_png(read_bytes(out / jm[key].get<std::string>()));
                CHECK(img.width % cs.grid.nu == 0);
                CHECK(img.height % cs.grid.nv == 0);
                CHECK(img.width / cs.grid.nu == img.height / cs.grid.nv);
                CHECK(img.width >= 200);
            }
        }
    }
    CHECK(o.out.find("port in mode 0: n_eff ") != std::string::npos);

    // --port: one port only; an unknown one exits 1 naming the ports
    o = cli("modes '" + example.string() + "' --port out --out '" + (dir / "m2").string() + "'", dir);
    CHECK(o.code == 0);
    CHECK(read_csv(dir / "m2" / "modes.csv").size() == 2);  // header + out:0 (count: max mode + 1)
    o = cli("modes '" + example.string() + "' --port nowhere --out '" + (dir / "m3").string() + "'", dir);
    CHECK(o.code == 1);
    CHECK(o.err.find("ports: in, out") != std::string::npos);
    fs::remove_all(dir);
}

// A 2D project (issue 50, item 6): the port lines' slab modes, as the mode source and the
// S-parameter runs see them (the same compile of the line as a mode monitor: n_eff equal
// to the plan's), and the analytic slab's n_eff within the 25-cells-per-wavelength grid's
// error (second order: (k dx)^2 / 24 relative, below 5e-3 here).
TEST_CASE("cli: modes on a 2D project writes the port lines' slab modes", "[cli][modes]") {
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_modes2d_" + std::to_string(rd()));
    fs::create_directories(dir);
    const std::string text = R"({"format": "golightly-project", "version": 1, "name": "slab",
      "domain": {"dimensions": 2, "size": [3.0, 2.0, 0.0], "cell_size": 0.04, "polarization": "TMz",
                 "boundaries": {"x": "pml", "y": "pml", "z": "pml"}, "pml": {"cells": 10}, "background": "air"},
      "materials": [{"id": "core", "epsilon_inf": 12.0}],
      "layers": [{"name": "waveguide", "material": "core",
                  "shapes": [{"type": "rectangle", "min": [-1.0, 0.85], "max": [4.0, 1.15]}]}],
      "ports": [{"name": "a", "center": [0.45, 1.0], "size": [0, 1.6], "direction": "+x", "modes": [0, 1]}],
      "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 5}}})";
    std::ofstream(dir / "slab.glproj") << text;
    const Out o = cli("modes '" + (dir / "slab.glproj").string() + "' --wavelength 1.55 --out '" + (dir / "m").string() + "'", dir);
    INFO(o.out << o.err);
    REQUIRE(o.code == 0);
    CHECK(o.out.find("port a mode 0: n_eff ") != std::string::npos);
    const auto rows = read_csv(dir / "m" / "modes.csv");
    REQUIRE(rows.size() >= 2);
    CHECK(rows[1][0] == "a");
    CHECK(rows[1][6] == "Ez");
    const double neff = std::stod(rows[1][3]), ng = std::stod(rows[1][4]);
    // symmetric slab, field parallel to the faces: kx tan(kx d / 2) = gamma
    const double n1 = std::sqrt(12.0), n2 = 1.0, d = 0.3, k0 = 2 * M_PI / 1.55;
    // the TM0 branch: kx d / 2 in (0, pi / 2)
    double lo = std::sqrt(n1 * n1 - std::pow(M_PI / (d * k0), 2)) + 1e-12, hi = n1 - 1e-12;
    for (int it = 0; it < 200; ++it) {
        const double n = 0.5 * (lo + hi);
        const double kx = k0 * std::sqrt(n1 * n1 - n * n), g = k0 * std::sqrt(n * n - n2 * n2);
        (kx * std::tan(kx * d / 2) - g > 0 ? lo : hi) = n;  // f decreases with n on the TM0 branch
    }
    const double exact = 0.5 * (lo + hi);
    CHECK(std::abs(neff - exact) < 5e-3);
    CHECK(ng > neff);  // a dielectric slab's group index exceeds its phase index
    std::ifstream jf(dir / "m" / "modes.json");
    const Json j = Json::parse(jf);
    CHECK(j.at("dimensions") == 2);
    CHECK(j.at("polarization") == "TMz");
    const Json& jm = j.at("ports").at(0).at("modes").at(0);
    CHECK(jm.at("n_eff").get<double>() == Approx(neff).epsilon(1e-9));
    // the profile: Ez along y, peak in the core (y 0.85..1.15)
    const auto prof = read_csv(dir / "m" / jm.at("csv").get<std::string>());
    REQUIRE(prof.size() > 30);
    CHECK(prof[0][0] == "y_um");
    CHECK(prof[0][1] == "Ez");
    double peak = 0, py = 0;
    for (std::size_t r = 1; r < prof.size(); ++r)
        if (std::abs(std::stod(prof[r][1])) > peak) peak = std::abs(std::stod(prof[r][1])), py = std::stod(prof[r][0]);
    CHECK(std::abs(py - 1.0) < 0.1);
    fs::remove_all(dir);
}

// A bent port: `modes` solves it with the bend (the same options as the port's mode source
// and monitor get: apply_mode_selection), prints the bend loss per 90 degrees and writes the
// bend_radius_um and loss_db_per_90deg columns (0 for the straight port).
TEST_CASE("cli: modes prints and writes the bend loss of a bent port", "[cli][modes][bend]" GOLIGHTLY_NEEDS_SPECTRA) {
    REQUIRE(have_mode_solver_2d());
    std::random_device rd;
    const fs::path dir = fs::temp_directory_path() / ("golightly_cli_modes_bend_" + std::to_string(rd()));
    fs::create_directories(dir);
    const fs::path example = fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "strip_sparams_3d.glproj";
    std::ifstream in(example);
    Json doc = Json::parse(in);
    doc["ports"][0]["bend_radius"] = 2.0;  // centre of curvature at y = 1 - 2 um: outside towards +y
    doc["ports"][0]["bend_axis"] = "y";
    doc["ports"][0]["target_neff"] = 2.45;
    const fs::path proj = dir / "bent.glproj";
    std::ofstream(proj) << doc.dump(2);
    const fs::path out = dir / "m";
    const Out o = cli("modes '" + proj.string() + "' --count 1 --wavelength 1.55 --out '" + out.string() + "'", dir);
    INFO(o.err << o.out);
    REQUIRE(o.code == 0);
    CHECK(o.out.find("port in mode 0: bend radius 2 um:") != std::string::npos);
    CHECK(o.out.find("dB/90deg") != std::string::npos);
    const auto rows = read_csv(out / "modes.csv");
    REQUIRE(rows.size() == 3);
    REQUIRE(rows[0].size() == 11);
    CHECK(rows[0][9] == "bend_radius_um");
    CHECK(rows[0][10] == "loss_db_per_90deg");
    CHECK(std::stod(rows[1][9]) == 2.0);
    // n_eff_imag: complex with the PML (this 2 um window is too narrow to resolve the
    // bend's true loss, ~1e-6 in n_eff_imag at R = 2 um: test_mode_bend.cpp does that)
    CHECK(std::stod(rows[1][7]) != 0);
    CHECK(std::stod(rows[1][10]) == Approx(20 / std::log(10.0) * std::stod(rows[1][7]) * 2 * M_PI / 1.55 * M_PI).epsilon(1e-5));
    CHECK(std::stod(rows[2][9]) == 0.0);  // port "out" is straight
    CHECK(std::stod(rows[2][10]) == 0.0);
    fs::remove_all(dir);
}
