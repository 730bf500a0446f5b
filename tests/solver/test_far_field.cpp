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

#include "golightly/cuda_device.hpp"
#include "golightly/far_field.hpp"
#include "golightly/results.hpp"
#include "golightly/project.hpp"
#include "golightly/engine.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "cli_runner.hpp"
#include "far_field_projects.hpp"
#include "mie_series.hpp"
#include "project_builders.hpp"
#include "test_files.hpp"
#include "test_3d_projects.hpp"

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
        // a folder of its own: the Release and sanitizer suites may run this case at once
        const test::Scratch scratch("far_field", "cli");
        const fs::path dir = scratch.path;
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
        // --backend: cpu gives the same numbers; cuda sums on the GPU (equal to rounding) or,
        // without a device, exits 1 saying why
        const test::CliOut on_cpu =
            test::run_cli("farfield '" + (dir / "run").string() + "' --phi 0,45,90 --json --backend cpu", dir);
        REQUIRE(on_cpu.code == 0);
        CHECK(on_cpu.out == o.out);
        const test::CliOut on_gpu =
            test::run_cli("farfield '" + (dir / "run").string() + "' --phi 0,45,90 --json --backend cuda", dir);
        if (cuda_available()) {
            REQUIRE(on_gpu.code == 0);
            const Json g = Json::parse(on_gpu.out);
            for (int q = 0; q < 3; ++q)
                CHECK(g["directions"][q]["intensity"].get<double>() ==
                      Approx(j["directions"][q]["intensity"].get<double>()).epsilon(1e-12));
        } else {
            CHECK(on_gpu.code == 1);
            CHECK(on_gpu.err.find("--backend cuda") != std::string::npos);
        }
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

// The 2D differential scattering width of a TF/SF run (issue 52): a dielectric cylinder
// (eps 4, radius 0.3 um) under a plane wave along +x, the far field of the scattering box
// against the cylinder series, d sigma / d phi = 2 / (pi k) |T(phi)|^2 (Bohren & Huffman
// ch. 8.4; TMz: case I, E along the axis; TEz: case II), phi from the forward direction
// (+x). At 0.01 um cells the wavelength inside spans >= 40 cells: the pattern within 3 %
// of its peak (the issue's figure for the sphere; the flux-box cross-sections of such runs
// are within 1-2 % of the series), and its integral over phi equal to the box's
// sigma_sca within 1 % (the same surface fields, as for the sphere).
TEST_CASE("2D TF/SF: a dielectric cylinder's differential scattering width against the cylinder series",
          "[far_field][physics][mie2d]") {
    const double a = 0.3, eps = 4.0, L = 1.2, dx = 0.01;
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        Project p;
        p.name = "cylinder far field";
        p.domain.dimensions = 2;
        p.domain.polarization = pol;
        p.domain.size = {L, L, 0};
        p.domain.cell_size = dx;
        p.domain.pml.cells = 16;
        p.materials = {test::material("d", eps)};
        Shape disc;
        disc.type = ShapeType::Ellipse;
        disc.center = {L / 2, L / 2};
        disc.radii = {a, a};
        p.layers = {test::layer("cylinder", "d", {disc})};
        const double c = L / 2, tf = a + 0.05, sc = a + 0.1;
        p.sources.push_back(test3d::tfsf("pw", {c - tf, c - tf, 0}, {c + tf, c + tf, 0}, "+x",
                                         pol == Polarization::TMz ? Component::Ez : Component::Ey,
                                         test3d::pulse_for(0.8, 1.2)));
        Monitor box;
        box.name = "sca";
        box.type = MonitorType::FluxBox;
        box.kind = "scattering";
        box.min = Vec2{c - sc, c - sc};
        box.max = Vec2{c + sc, c + sc};
        FarFieldSettings ff;
        ff.wavelengths = {0.8, 1.0, 1.2};
        ff.phi_points = 72;
        box.far_field = ff;
        p.monitors = {box};
        p.run.precision = Precision::Float64;
        p.run.backend = BackendChoice::Cpu;
        p.run.spectrum.wavelength_min = 0.8;
        p.run.spectrum.wavelength_max = 1.2;
        p.run.spectrum.points = 5;
        p.run.stop.decay_db = 60;
        p.run.stop.max_time_fs = 600;
        const RunResult r = run_project(p, "cylinder_far_field.glproj");
        REQUIRE(r.far_fields.size() == 1);
        const FarFieldResult& f = r.far_fields[0];
        REQUIRE(f.samples.size() == 3);
        REQUIRE(f.i_inc.size() == 3);
        const bool tm = pol == Polarization::TMz;
        for (std::size_t w = 0; w < f.samples.size(); ++w) {
            const double wl = f.wavelength_um[w], k = 2 * units::pi / wl, x = k * a;
            const std::complex<double> m(std::sqrt(eps), 0.0);
            // the series' own check: its pattern integrates to its sigma_sca
            double series_integral = 0, peak = 0, worst = 0;
            const std::size_t n = f.samples[w].size();
            for (const FarFieldSample& s : f.samples[w]) {
                const double exact = 2 / (units::pi * k) * std::norm(mie::cylinder_amplitude(x, m, tm, s.phi_rad));
                series_integral += exact * 2 * units::pi / double(n);
                peak = std::max(peak, exact);
            }
            const double sigma_series = mie::cylinder_efficiencies(x, m, tm).sca * 2 * a;
            CHECK(series_integral == Approx(sigma_series).epsilon(1e-6));
            for (const FarFieldSample& s : f.samples[w]) {
                const double exact = 2 / (units::pi * k) * std::norm(mie::cylinder_amplitude(x, m, tm, s.phi_rad));
                const double got = s.intensity / f.i_inc[w] * 1e6;  // m/rad -> um/rad
                worst = std::max(worst, std::abs(got - exact));
            }
            const double integral = f.power[w] / f.i_inc[w] * 1e6;
            std::size_t fi = 0;  // the spectrum point projected
            for (std::size_t q = 0; q < r.frequency_hz.size(); ++q)
                if (std::abs(r.frequency_hz[q] - f.frequency_hz[w]) < std::abs(r.frequency_hz[fi] - f.frequency_hz[w]))
                    fi = q;
            const double box_sigma = r.spectra[0].normalized[fi];
            std::printf("2D far field %s wl %.3f um: worst |dsigma/dphi - series| %.2f %% of the peak %.4f um/rad; "
                        "integral %.5f um, flux box %.5f um (%+.2f %%), series %.5f um\n",
                        tm ? "TMz" : "TEz", wl, 100 * worst / peak, peak, integral, box_sigma,
                        100 * (integral / box_sigma - 1), sigma_series);
            CHECK(worst < 0.03 * peak);
            CHECK(integral == Approx(box_sigma).epsilon(0.01));
        }
    }
}

// A far field from an open flux line over a Bloch-periodic cell (issue 52: "an open plane
// for periodic and Bloch domains"): the 20 degree grating example's transmission line,
// copied over N = 60 periods with the Bloch phase (far_field.periods, as Meep's near2far
// nperiods). The pattern of a 60-period array is a comb of lobes at the Floquet orders'
// angles; the share of the far-field power in the window around each order (bounded by the
// midpoints between neighbouring orders) must equal that order's share of the plane's
// power from the independent Floquet decomposition (diffraction monitor). The lobes of an
// N-cell array spill sinc^2 sidelobes beyond half the order spacing: about 4 / (pi^2 N) =
// 0.7 % of a lobe at N = 60, so 1.5 % (absolute) bounds the difference. Behind the line (a
// source-free side) the projected power is nothing but truncation and must stay below 2 %
// of the total, and the front power is N times the line's own flux within 3 % (edge
// diffraction of the truncated plane, O(1/N)).
TEST_CASE("Far field of an open flux line over N Bloch periods: power per lobe equals the Floquet orders",
          "[far_field][physics][bloch]") {
    Project p = load_project(std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "grating_20deg_2d.glproj");
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.spectrum.points = 3;  // 0.75, 0.85, 0.95 um
    const int N = 60;
    Monitor* T = nullptr;
    for (Monitor& m : p.monitors)
        if (m.name == "T") T = &m;
    REQUIRE(T);
    FarFieldSettings ff;
    ff.wavelengths = {0.85};
    ff.phi_points = 7200;  // 0.05 degrees: 4 samples across a lobe (about 0.8 degrees wide)
    ff.periods = {N, 1};
    T->far_field = ff;
    const RunResult r = run_project(p, "grating_far_field.glproj");
    REQUIRE(r.far_fields.size() == 1);
    REQUIRE(r.diffraction.size() == 2);
    const FarFieldResult& f = r.far_fields[0];
    REQUIRE(f.samples.size() == 1);
    CHECK(f.surfaces[0].position_m.size() == std::size_t(N) * 40);  // 40 cells per period
    const DiffractionResult& d = r.diffraction[1];
    REQUIRE(d.name == "T");
    std::size_t fi = 0;
    for (std::size_t q = 0; q < r.frequency_hz.size(); ++q)
        if (std::abs(r.frequency_hz[q] - f.frequency_hz[0]) < std::abs(r.frequency_hz[fi] - f.frequency_hz[0])) fi = q;
    const std::vector<FloquetOrder>& orders = d.orders[fi];
    REQUIRE(orders.size() >= 2);
    // the orders' directions as far-field azimuths (from +x): k_par along x, +y outwards
    std::vector<std::pair<double, double>> lobes;  // (phi, share of the plane's power)
    double order_sum = 0;
    for (const FloquetOrder& o : orders) order_sum += o.power;
    for (const FloquetOrder& o : orders) {
        const double kx = o.k_per_um[0], ky = o.k_per_um[1];
        lobes.push_back({std::atan2(ky, kx), o.power / order_sum});
    }
    std::sort(lobes.begin(), lobes.end());
    const auto& s = f.samples[0];
    const double dphi = 2 * units::pi / double(s.size());
    double front = 0, back = 0;
    std::vector<double> window(lobes.size(), 0.0);
    for (const FarFieldSample& x : s) {
        double phi = x.phi_rad;
        if (phi > units::pi) phi -= 2 * units::pi;  // (-pi, pi]
        if (phi <= 0) {
            back += x.intensity * dphi;
            continue;
        }
        front += x.intensity * dphi;
        std::size_t w = 0;
        while (w + 1 < lobes.size() && phi > 0.5 * (lobes[w].first + lobes[w + 1].first)) ++w;
        window[w] += x.intensity * dphi;
    }
    for (std::size_t w = 0; w < lobes.size(); ++w) {
        std::printf("open-plane far field, %d periods: lobe at %.2f deg: %.4f of the front power, Floquet order %.4f\n", N,
                    lobes[w].first * 180 / units::pi, window[w] / front, lobes[w].second);
        CHECK(std::abs(window[w] / front - lobes[w].second) < 0.015);
    }
    const double line_flux = r.spectra[1].flux[fi];  // the T line's raw flux (one period)
    std::printf("open-plane far field: back %.3g of the total; front %.5g = %.4f x N times the line's flux\n",
                back / (front + back), front, front / (N * line_flux));
    CHECK(back < 0.02 * (front + back));
    CHECK(front == Approx(N * line_flux).epsilon(0.03));
}
