// Near-to-far-field projection (golightly/far_field.hpp, flux_box `far_field`): a dipole
// in vacuum against sin^2(theta) and against its flux box's power; a 2D line source
// against isotropy; the projection formulas against a known current sheet.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "golightly/far_field.hpp"
#include "golightly/results.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "cli_runner.hpp"
#include "far_field_projects.hpp"

using namespace golightly;

namespace {

double max_intensity(const std::vector<FarFieldSample>& s) {
    double m = 0;
    for (const auto& x : s) m = std::max(m, x.intensity);
    return m;
}

}  // namespace

TEST_CASE("Far field of a point current equals the dipole formula", "[far_field]") {
    // A single z-directed current element I l at the origin: J ds = I l z.
    // Far field (Balanis eq. 4-26a with j -> -i): r E_theta e^{-ikr} = -i k eta0 I l sin(theta) / (4 pi),
    // U = eta0 k^2 |I l|^2 sin^2(theta) / (32 pi^2), P = eta0 k^2 |I l|^2 / (12 pi).
    SurfaceCurrents s;
    s.frequency_hz = 200e12;
    s.position_m = {Vec3{0, 0, 0}};
    s.j = {{0.0, 0.0, std::complex<double>(2e-3, 0)}};
    s.m = {{0.0, 0.0, 0.0}};
    s.ds = {1.0};
    const double k = 2 * units::pi * s.frequency_hz / units::c0;
    std::vector<std::array<double, 2>> dirs;
    const int nt = 181, np = 8;
    for (int i = 0; i < nt; ++i)
        for (int j = 0; j < np; ++j) dirs.push_back({units::pi * i / (nt - 1), 2 * units::pi * j / np});
    const auto ff = project_far_field(s, dirs);
    for (const auto& x : ff) {
        const double expect = units::eta0 * k * k * 4e-6 * std::pow(std::sin(x.theta_rad), 2) / (32 * units::pi * units::pi);
        CHECK(x.intensity == Approx(expect).margin(1e-12 * units::eta0 * k * k * 4e-6));
        CHECK(std::abs(x.e_phi) < 1e-12 * std::abs(units::eta0 * k * 2e-3));
    }
    const auto& eq = ff[std::size_t(90 * np)];  // theta = 90 degrees
    CHECK(eq.e_theta.real() == Approx(0).margin(1e-9 * std::abs(eq.e_theta)));
    CHECK(eq.e_theta.imag() == Approx(-k * units::eta0 * 2e-3 / (4 * units::pi)).epsilon(1e-12));
    // the trapezoid rule in theta with 1 degree steps: O(h^2) ~ 1e-4
    CHECK(radiated_power(ff, nt, np) == Approx(units::eta0 * k * k * 4e-6 / (12 * units::pi)).epsilon(2e-4));
}

TEST_CASE("A dipole in vacuum radiates sin^2(theta) with its flux box's power", "[far_field][3d][physics]") {
    // Ez point current at the centre of a 2 um cube (dx 0.05 um: 20 cells per wavelength at
    // 1 um), flux box 1 um wide around it, projected at 1 um.
    const Project p = parse_project(test::dipole_project_json("float64", "cpu"), "dipole.glproj");
    const RunResult r = run_project(p, "dipole.glproj");
    REQUIRE(r.far_fields.size() == 1);
    const FarFieldResult& f = r.far_fields[0];
    REQUIRE(f.wavelength_um.size() == 1);
    // the spectrum point nearest 1 um: 5 points uniform in frequency over 0.9-1.1 um put
    // the middle one at 2 / (1/0.9 + 1/1.1) = 0.99 um
    CHECK(f.wavelength_um[0] == Approx(0.99).epsilon(1e-9));
    const auto& s = f.samples[0];
    const double umax = max_intensity(s);
    double worst = 0;
    for (const auto& x : s) worst = std::max(worst, std::fabs(x.intensity / umax - std::pow(std::sin(x.theta_rad), 2)));
    INFO("worst |U/Umax - sin^2 theta| " << worst);
    CHECK(worst < 0.01);  // the issue's 1 %
    // the projected power against the box's own flux at that wavelength (spectrum point 2 of 5)
    const double flux = r.spectra.at(0).flux.at(2);
    INFO("projected " << f.power[0] << " flux box " << flux);
    CHECK(f.power[0] == Approx(flux).epsilon(0.005));  // the issue's 0.5 %
}

TEST_CASE("A 2D line current radiates isotropically", "[far_field][physics]") {
    for (const char* pol : {"TMz", "TEz"}) {
        const std::string comp = std::string(pol) == "TMz" ? "Ez" : "Hz";
        const Project p = parse_project(std::string(R"({"format": "golightly-project", "version": 1,
          "domain": {"size": [3, 3], "cell_size": 0.025, "polarization": ")") + pol + R"("},
          "sources": [{"type": "point", "at": [1.5, 1.5], "component": ")" + comp + R"(",
                       "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.0, "wavelength_span": 0.4}}],
          "monitors": [{"name": "box", "type": "flux_box", "min": [0.9, 0.9], "max": [2.1, 2.1],
                        "kind": "flux", "far_field": {"wavelengths": [1.0]}}],
          "run": {"spectrum": {"wavelength_min": 0.9, "wavelength_max": 1.1, "points": 5},
                  "precision": "float64", "stop": {"decay_db": 60}}})",
                                        "line.glproj");
        const RunResult r = run_project(p, "line.glproj");
        REQUIRE(r.far_fields.size() == 1);
        const auto& s = r.far_fields[0].samples[0];
        REQUIRE(s.size() == 360);
        double lo = 1e300, hi = 0;
        for (const auto& x : s) lo = std::min(lo, x.intensity), hi = std::max(hi, x.intensity);
        INFO(pol << ": intensity varies by " << (hi - lo) / hi);
        CHECK((hi - lo) / hi < 0.01);
        const double flux = r.spectra.at(0).flux.at(2);
        CHECK(r.far_fields[0].power[0] == Approx(flux).epsilon(0.005));
        if (std::string(pol) != "TMz") continue;
        // the results files and golightly-cli farfield: other directions from the saved currents
        namespace fs = std::filesystem;
        const fs::path dir = fs::temp_directory_path() / "golightly_test_far_field";
        fs::remove_all(dir);
        write_results(dir / "run", p, r, {});
        const Json summary = Json::parse(std::ifstream(dir / "run" / "summary.json"));
        REQUIRE(summary["far_field"].contains("box"));
        CHECK(summary["far_field"]["box"]["phi_points"] == 360);
        CHECK(summary["far_field"]["box"]["max_directivity"][0].get<double>() == Approx(1.0).epsilon(0.01));
        CHECK(fs::exists(dir / "run" / "far_field" / "box.csv"));
        const test::CliOut o = test::run_cli("farfield '" + (dir / "run").string() + "' --phi 0,45,90 --json", dir);
        INFO(o.err);
        REQUIRE(o.code == 0);
        const Json j = Json::parse(o.out);
        REQUIRE(j["directions"].size() == 3);
        // the CSV keeps 10 significant digits of the currents
        for (int q = 0; q < 3; ++q)
            CHECK(j["directions"][q]["intensity"].get<double>() == Approx(s[std::size_t(45 * q)].intensity).epsilon(1e-6));
        fs::remove_all(dir);
    }
}

TEST_CASE("Two line currents a wavelength apart: the array factor, and Meep's near2far at equal resolution",
          "[far_field][meep][physics]") {
    // validation/meep_near2far_array.glproj (dx 0.025 um, 40 cells per wavelength) against
    // the exact pattern of two in-phase isotropic line sources one wavelength apart,
    // cos^2(pi cos phi), and against Meep 1.25's near2far of the same set-up at resolution 40
    // (validation/meep_near2far_array.py, its CSV). Both within the issue's 2 % of the peak.
    // Seen: 0.46 % from the exact pattern (1.87 % at dx 0.05: second order, the grid's
    // phase error over the wavelength between the sources), 1.17 % from Meep (Meep itself
    // is 1.64 % from the exact pattern at resolution 40, 6.0 % at 20).
    const std::string dir = std::string(GOLIGHTLY_SOURCE_DIR) + "/validation/";
    const RunResult r = run_project(load_project(dir + "meep_near2far_array.glproj"), "array.glproj");
    REQUIRE(r.far_fields.size() == 1);
    const auto& s = r.far_fields[0].samples.at(0);
    REQUIRE(s.size() == 360);
    std::vector<double> meep;
    std::ifstream csv(dir + "meep_near2far_array_reference.csv");
    std::string line;
    std::getline(csv, line);
    while (std::getline(csv, line)) meep.push_back(std::stod(line.substr(line.find(',') + 1)));
    REQUIRE(meep.size() == 360);
    const double umax = max_intensity(s);
    double vs_exact = 0, vs_meep = 0;
    for (std::size_t j = 0; j < 360; ++j) {
        const double u = s[j].intensity / umax;
        vs_exact = std::max(vs_exact, std::fabs(u - std::pow(std::cos(units::pi * std::cos(s[j].phi_rad)), 2)));
        vs_meep = std::max(vs_meep, std::fabs(u - meep[j]));
    }
    INFO("worst difference from the exact pattern " << vs_exact << ", from Meep " << vs_meep);
    CHECK(vs_exact < 0.02);
    CHECK(vs_meep < 0.02);
}
