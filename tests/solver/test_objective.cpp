// Objectives over a results folder (objective.hpp): each quantity read from hand-written
// results files, the combinations over wavelengths, the terms and their derivatives, and
// the checks made before any run.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <fstream>
#include <string>

#include "golightly/objective.hpp"
#include "golightly/project.hpp"
#include "golightly/results.hpp"
#include "golightly/run.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using namespace golightly;

namespace {

/// Two rows (1.6 and 1.5 um, as a run writes them: increasing frequency) of two flux
/// monitors and one mode monitor's mode 0.
const char* kSpectra =
    "wavelength_um,frequency_thz,T,R,T_flux,R_flux,out_m0_fwd_re,out_m0_fwd_im,out_m0_bwd_re,out_m0_bwd_im,out_m0_neff\n"
    "1.6,187.37,0.5,0.1,0.005,0.001,0.6,0.8,0.1,0,2.5\n"
    "1.5,199.86,0.7,0.3,0.007,0.003,0,0.5,0,0.2,2.6\n";

const char* kSparams =
    "wavelength_um,frequency_thz,S11_re,S11_im,S12_re,S12_im,S21_re,S21_im,S22_re,S22_im\n"
    "1.6,187.37,0.1,0,0,0.9,0,0.9,0.2,0\n"
    "1.5,199.86,0.3,0,0,0.7,0,0.7,0.2,0\n";

void write(const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
}

ObjectiveFunction fn(const std::string& name, ObjectiveQuantity q, const std::string& monitor) {
    ObjectiveFunction f;
    f.name = name;
    f.quantity = q;
    f.monitor = monitor;
    return f;
}

/// The functions of a project with flux monitors T and R (project order T, R), mode
/// monitor `out` (modes 0 and 2) and far-field box `box`.
Project objective_project() {
    Project p;
    p.run.spectrum.wavelength_min = 1.3;
    p.run.spectrum.wavelength_max = 1.8;
    Monitor t;
    t.name = "T";
    p.monitors.push_back(t);
    Monitor r;
    r.name = "R";
    p.monitors.push_back(r);
    Monitor out;
    out.name = "out";
    out.kind = "mode";
    out.extra["modes"] = Json::array({0, 2});
    p.monitors.push_back(out);
    Monitor probe;
    probe.name = "probe";
    probe.type = MonitorType::DftField;
    p.monitors.push_back(probe);
    Monitor box;
    box.name = "box";
    box.type = MonitorType::FluxBox;
    box.far_field = FarFieldSettings{};
    p.monitors.push_back(box);
    Monitor bad;
    bad.name = "2bad";  // not a valid name: no function
    p.monitors.push_back(bad);
    return p;
}

const ObjectiveFunction* find(const std::vector<ObjectiveFunction>& list, const std::string& name) {
    for (const auto& f : list)
        if (f.name == name) return &f;
    return nullptr;
}

}  // namespace

TEST_CASE("objective: the functions a project offers", "[objective]") {
    const Project p = objective_project();
    const auto list = objective_functions(p, "box_U_10_20(1.55) + box_D_0_0(1.55) + xbox_U_1_1(1) + out_U_1_1(1)");
    REQUIRE(find(list, "T"));
    CHECK(find(list, "T")->quantity == ObjectiveQuantity::Flux);
    CHECK(find(list, "R_flux")->quantity == ObjectiveQuantity::FluxRaw);
    CHECK(list[0].name == "T");  // monitors in project order, the normalized values first
    CHECK(list[1].name == "R");
    const ObjectiveFunction* m = find(list, "out_m2_bwd_phase");
    REQUIRE(m);
    CHECK(m->mode == 2);
    CHECK_FALSE(m->forward);
    CHECK(m->quantity == ObjectiveQuantity::ModePhase);
    CHECK(find(list, "out_m0_fwd_power"));
    CHECK(find(list, "out_m0_neff"));
    CHECK_FALSE(find(list, "out_m1_fwd_power"));  // mode 1 is not listed
    CHECK(find(list, "probe_intensity"));
    CHECK(find(list, "probe_intensity_mean"));
    const ObjectiveFunction* u = find(list, "box_U_10_20");
    REQUIRE(u);
    CHECK(u->quantity == ObjectiveQuantity::FarFieldU);
    CHECK(u->theta_deg == 10);
    CHECK(u->phi_deg == 20);
    CHECK(find(list, "box_D_0_0"));
    CHECK_FALSE(find(list, "xbox_U_1_1"));  // no such monitor
    CHECK_FALSE(find(list, "out_U_1_1"));   // `out` has no far field
    for (const auto& f : list) CHECK(f.name.find("2bad") == std::string::npos);

    // Ports: |S_ij|^2 and the rest per pair of port-modes (2 ports, mode 0 each).
    const Project strip = load_project(fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "strip_sparams_3d.glproj");
    const auto s = objective_functions(strip);
    REQUIRE(find(s, "S21"));
    CHECK(find(s, "S21")->receive == 2);
    CHECK(find(s, "S21")->excite == 1);
    CHECK(find(s, "S12_dB")->quantity == ObjectiveQuantity::SdB);
    CHECK(find(s, "S22_phase"));
    CHECK_FALSE(find(s, "S31"));
}

TEST_CASE("objective: flux, mode and S-parameter quantities read from a results folder", "[objective]") {
    test::Scratch dir("objective", "read");
    write(dir.path / "spectra.csv", kSpectra);
    ObjectiveResults res(dir.path);
    const double eps = 1e-12;  // interpolation in double precision
    CHECK(res.read(fn("T", ObjectiveQuantity::Flux, "T"), 1.55) == Approx(0.6).epsilon(eps));
    CHECK(res.read(fn("T", ObjectiveQuantity::Flux, "T"), 1.6) == Approx(0.5).epsilon(eps));
    CHECK(res.read(fn("R", ObjectiveQuantity::Flux, "R"), 1.525) == Approx(0.25).epsilon(eps));
    CHECK(res.read(fn("T_flux", ObjectiveQuantity::FluxRaw, "T"), 1.5) == Approx(0.007).epsilon(eps));
    ObjectiveFunction power = fn("out_m0_fwd_power", ObjectiveQuantity::ModePower, "out");
    // |a|^2 is interpolated itself: (1.0 + 0.25) / 2
    CHECK(res.read(power, 1.55) == Approx(0.625).epsilon(eps));
    ObjectiveFunction phase = fn("out_m0_fwd_phase", ObjectiveQuantity::ModePhase, "out");
    CHECK(res.read(phase, 1.55) == Approx(std::atan2(0.65, 0.3)).epsilon(eps));  // arg of the mean amplitude
    ObjectiveFunction bwd = fn("out_m0_bwd_im", ObjectiveQuantity::ModeIm, "out");
    bwd.forward = false;
    CHECK(res.read(bwd, 1.5) == Approx(0.2).epsilon(eps));
    CHECK(res.read(fn("out_m0_neff", ObjectiveQuantity::ModeNeff, "out"), 1.55) == Approx(2.55).epsilon(eps));
    ObjectiveFunction mode2 = power;
    mode2.mode = 2;
    CHECK_THROWS_WITH(res.read(mode2, 1.55), Catch::Contains("out_m2_fwd_re") && Catch::Contains("mode 2"));

    // Outside the recorded wavelengths: the function, the wavelength, the file and the range.
    CHECK_THROWS_AS(res.read(fn("T", ObjectiveQuantity::Flux, "T"), 1.7), std::invalid_argument);
    CHECK_THROWS_WITH(res.read(fn("T", ObjectiveQuantity::Flux, "T"), 1.7),
                      Catch::Contains("T(1.7): 1.7 um is outside the wavelengths of") &&
                          Catch::Contains("spectra.csv (from 1.5 to 1.6 um)"));
    CHECK_THROWS_WITH(res.read(fn("Q", ObjectiveQuantity::Flux, "Q"), 1.55), Catch::Contains("no column for monitor \"Q\""));

    // S-parameters: no sparams.csv yet, then one.
    ObjectiveFunction s21 = fn("S21", ObjectiveQuantity::SPower, "S21");
    CHECK_THROWS_WITH(res.read(s21, 1.55), Catch::Contains("sparams.csv: missing"));
    write(dir.path / "sparams.csv", kSparams);
    ObjectiveResults res2(dir.path);
    CHECK(res2.read(s21, 1.6) == Approx(0.81).epsilon(eps));
    CHECK(res2.read(s21, 1.55) == Approx(0.5 * (0.81 + 0.49)).epsilon(eps));
    s21.quantity = ObjectiveQuantity::SPhase;
    CHECK(res2.read(s21, 1.55) == Approx(std::acos(0.0)).epsilon(eps));
    s21.quantity = ObjectiveQuantity::SdB;
    CHECK(res2.read(s21, 1.6) == Approx(10 * std::log10(0.81)).epsilon(eps));
    ObjectiveFunction s11 = fn("S11_abs", ObjectiveQuantity::SAbs, "S11");
    CHECK(res2.read(s11, 1.55) == Approx(0.2).epsilon(eps));
}

TEST_CASE("objective: far-field intensity and directivity between the grid's angles", "[objective]") {
    test::Scratch dir("objective", "far");
    write(dir.path / "spectra.csv", kSpectra);
    // 3D grid theta 0, 90, 180 x phi 0, 90, 180, 270 at 1.6 um: U = 1 + theta/90 + phi/90, D = 2 U.
    std::string csv = "wavelength_um,theta_deg,phi_deg,intensity,directivity,e_theta_re,e_theta_im,e_phi_re,e_phi_im\n";
    for (int t : {0, 90, 180})
        for (int p : {0, 90, 180, 270}) {
            const double u = 1 + t / 90.0 + p / 90.0;
            csv += "1.6," + std::to_string(t) + "," + std::to_string(p) + "," + std::to_string(u) + "," +
                   std::to_string(2 * u) + ",0,0,0,0\n";
        }
    write(dir.path / "far_field" / "box.csv", csv);
    write(dir.path / "far_field" / "line.csv",
          "wavelength_um,theta_deg,phi_deg,intensity,directivity,e_theta_re,e_theta_im,e_phi_re,e_phi_im\n"
          "1.6,90,0,1,1,0,0,0,0\n1.6,90,180,3,3,0,0,0,0\n");
    ObjectiveResults res(dir.path);
    ObjectiveFunction u = fn("box_U_45_45", ObjectiveQuantity::FarFieldU, "box");
    u.theta_deg = 45;
    u.phi_deg = 45;
    const double eps = 1e-9;  // the CSV's six decimals of exact values
    CHECK(res.read(u, 1.6) == Approx(2.0).epsilon(eps));
    u.phi_deg = 315;  // between 270 and 360 = 0: the mean of 4.5 and 1.5
    CHECK(res.read(u, 1.6) == Approx(3.0).epsilon(eps));
    u.quantity = ObjectiveQuantity::FarFieldD;
    u.theta_deg = 180;
    u.phi_deg = 90;
    CHECK(res.read(u, 1.6) == Approx(2 * 4.0).epsilon(eps));
    // 1.58 um: the nearest spectrum point is 1.6 um, where the far field was computed.
    CHECK(res.read(u, 1.58) == Approx(8.0).epsilon(eps));
    CHECK_THROWS_WITH(res.read(u, 1.52), Catch::Contains("at 1.6 um only"));
    ObjectiveFunction l = fn("line_U_90_90", ObjectiveQuantity::FarFieldU, "line");
    l.theta_deg = 90;
    l.phi_deg = 90;
    CHECK(res.read(l, 1.6) == Approx(2.0).epsilon(eps));
    l.theta_deg = 0;
    CHECK_THROWS_WITH(res.read(l, 1.6), Catch::Contains("theta = 90 degrees only"));
}

TEST_CASE("objective: DFT field intensity at the monitor's centre and its mean", "[objective]") {
    test::Scratch dir("objective", "dft");
    Project project;
    RunResult run;
    DftFieldResult d;
    d.name = "probe";
    d.wavelength_um = {1.5, 1.6};
    d.frequency_hz = {1.9986e14, 1.8737e14};
    d.components = {Component::Ez};
    d.nx = 3;
    d.ny = 2;
    d.dx_um = 0.1;
    d.origin_um = {1.0, 2.0};
    d.values.assign(1, std::vector<std::complex<double>>(12));
    for (int f = 0; f < 2; ++f)
        for (int j = 0; j < 2; ++j)
            for (int i = 0; i < 3; ++i) d.values[0][std::size_t((f * 2 + j) * 3 + i)] = {double(i + 10 * j + 100 * f), 1.0};
    run.dft_fields.push_back(d);
    write_results(dir.path, project, run);
    ObjectiveResults res(dir.path);
    ObjectiveFunction at = fn("probe_intensity", ObjectiveQuantity::Intensity, "probe");
    ObjectiveFunction mean = fn("probe_intensity_mean", ObjectiveQuantity::IntensityMean, "probe");
#ifdef GOLIGHTLY_TEST_HDF5
    // Centre: i = 1, between j = 0 and 1: E = (1 + 5 + 100 f) + i.
    const double eps = 1e-12;
    CHECK(res.read(at, 1.5) == Approx(37.0).epsilon(eps));
    CHECK(res.read(at, 1.55) == Approx(0.5 * (37.0 + 106.0 * 106.0 + 1)).epsilon(eps));
    at.at_point = true;
    at.x_um = 1.2;
    at.y_um = 2.0;
    CHECK(res.read(at, 1.6) == Approx(102.0 * 102.0 + 1).epsilon(eps));
    at.x_um = 1.5;  // beyond the last sample (1.2 um)
    CHECK_THROWS_WITH(res.read(at, 1.6), Catch::Contains("outside the maps"));
    double sum = 0;
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) sum += double(i + 10 * j) * double(i + 10 * j) + 1;
    CHECK(res.read(mean, 1.5) == Approx(sum / 6).epsilon(eps));
    CHECK_THROWS_WITH(res.read(mean, 1.4), Catch::Contains("probe_intensity_mean(1.4): 1.4 um is outside"));
#else
    CHECK_THROWS_WITH(res.read(at, 1.5), Catch::Contains("HDF5"));
#endif
}

TEST_CASE("objective: parsing the combined forms", "[objective]" GOLIGHTLY_NEEDS_MUPARSER) {
    const ObjectiveSpec plain = parse_objective("T(1.55)");
    CHECK(plain.combine == ObjectiveSpec::Combine::None);
    CHECK(plain.expression == "T(1.55)");
    const ObjectiveSpec own_min = parse_objective("min(T(1.5), T(1.6))");  // muparser's min
    CHECK(own_min.combine == ObjectiveSpec::Combine::None);
    const ObjectiveSpec mean = parse_objective(" mean(T(wl) + R(wl), wl=1.5:1.6:3) ");
    CHECK(mean.combine == ObjectiveSpec::Combine::Mean);
    CHECK(mean.expression == "T(wl) + R(wl)");
    CHECK(mean.variable == "wl");
    REQUIRE(mean.wavelengths_um.size() == 3);
    CHECK(mean.wavelengths_um[1] == Approx(1.55).epsilon(1e-15));
    const ObjectiveSpec list = parse_objective("min(T(x) > 0.5 ? 1 : 0, x = 1500nm, 1.6)", {{"d", 0.3}});
    CHECK(list.combine == ObjectiveSpec::Combine::Min);
    CHECK(list.variable == "x");
    REQUIRE(list.wavelengths_um.size() == 2);
    CHECK(list.wavelengths_um[0] == Approx(1.5).epsilon(1e-15));
    CHECK(parse_objective("max(T(wl)==1, wl=1.5)").combine == ObjectiveSpec::Combine::Max);
    CHECK(parse_objective("sum(T(wl), wl=1.5)").combine == ObjectiveSpec::Combine::Sum);
    CHECK_THROWS_WITH(parse_objective("mean(T(d), d=1.5:1.6:3)", {{"d", 0.3}}),
                      Catch::Contains("the wavelength variable \"d\" is a parameter of the project"));
    CHECK_THROWS_WITH(parse_objective("mean(T(wl), wl=-1,1.5)"), Catch::Contains("-1 is not a wavelength"));
    CHECK_THROWS_WITH(parse_objective("mean(T(wl), wl=1.5:1.6)"), Catch::Contains("expected NAME=LO:HI:N"));
    CHECK_THROWS_WITH(parse_objective("  "), Catch::Contains("the expression is empty"));
}

TEST_CASE("objective: combinations over wavelengths and the derivatives of each term", "[objective]" GOLIGHTLY_NEEDS_MUPARSER) {
    test::Scratch dir("objective", "combine");
    write(dir.path / "spectra.csv", kSpectra);
    const Project project = objective_project();
    const auto functions = objective_functions(project);
    ObjectiveResults res(dir.path);
    // Central differences with a step of 1e-6 of the term are exact for expressions linear
    // or quadratic in it up to rounding: (1e-16 of the value) / (1e-6 of the term) ~ 1e-10.
    const double tol = 1e-7;

    SECTION("a sum: d/dT = 1, d/dR = 2") {
        const auto ev = evaluate_objective(parse_objective("T(1.5) + 2 * R(1.6)"), functions, res, {});
        CHECK(ev.value == Approx(0.7 + 0.2).epsilon(1e-12));
        REQUIRE(ev.terms.size() == 2);
        CHECK(ev.terms[0].function.name == "T");
        CHECK(ev.terms[0].wavelength_um == 1.5);
        CHECK(ev.terms[0].value == Approx(0.7).epsilon(1e-12));
        CHECK(ev.terms[0].wavelength_index == -1);
        CHECK(ev.terms[0].derivative == Approx(1.0).epsilon(tol));
        CHECK(ev.terms[1].function.name == "R");
        CHECK(ev.terms[1].derivative == Approx(2.0).epsilon(tol));
    }
    SECTION("a product with a parameter: d/dT = k R, d/dR = k T; a term read twice is one term") {
        const auto ev = evaluate_objective(parse_objective("k * T(1.5) * R(1.6) + T(1.5)^2"), functions, res, {{"k", 3.0}});
        CHECK(ev.value == Approx(3 * 0.7 * 0.1 + 0.49).epsilon(1e-12));
        REQUIRE(ev.terms.size() == 2);
        CHECK(ev.terms[0].derivative == Approx(3 * 0.1 + 2 * 0.7).epsilon(tol));
        CHECK(ev.terms[1].derivative == Approx(3 * 0.7).epsilon(tol));
    }
    SECTION("a mode power") {
        const auto ev = evaluate_objective(parse_objective("1 - out_m0_fwd_power(1.55)"), functions, res, {});
        CHECK(ev.value == Approx(0.375).epsilon(1e-12));
        REQUIRE(ev.terms.size() == 1);
        CHECK(ev.terms[0].function.quantity == ObjectiveQuantity::ModePower);
        CHECK(ev.terms[0].derivative == Approx(-1.0).epsilon(tol));
    }
    SECTION("mean and sum: every f_k, each term weighted") {
        const auto ev = evaluate_objective(parse_objective("mean(T(wl) + R(wl), wl=1.5:1.6:3)"), functions, res, {});
        REQUIRE(ev.per_wavelength.size() == 3);
        CHECK(ev.per_wavelength[0] == Approx(1.0).epsilon(1e-12));
        CHECK(ev.per_wavelength[1] == Approx(0.8).epsilon(1e-12));
        CHECK(ev.per_wavelength[2] == Approx(0.6).epsilon(1e-12));
        CHECK(ev.value == Approx(0.8).epsilon(1e-12));
        REQUIRE(ev.terms.size() == 6);
        for (const auto& t : ev.terms) {
            CHECK(t.local_derivative == Approx(1.0).epsilon(tol));
            CHECK(t.derivative == Approx(1.0 / 3).epsilon(tol));
        }
        CHECK(ev.terms[2].wavelength_index == 1);
        CHECK(ev.terms[2].wavelength_um == Approx(1.55).epsilon(1e-15));
        const auto sum = evaluate_objective(parse_objective("sum(T(wl) + R(wl), wl=1.5:1.6:3)"), functions, res, {});
        CHECK(sum.value == Approx(2.4).epsilon(1e-12));
        CHECK(sum.terms[5].derivative == Approx(1.0).epsilon(tol));
    }
    SECTION("min and max: the active wavelength carries the derivative") {
        const auto mn = evaluate_objective(parse_objective("min(T(wl), wl=1.5,1.6)"), functions, res, {});
        CHECK(mn.value == Approx(0.5).epsilon(1e-12));
        CHECK(mn.active == 1);
        REQUIRE(mn.terms.size() == 2);
        CHECK(mn.terms[0].derivative == 0);
        CHECK(mn.terms[0].local_derivative == Approx(1.0).epsilon(tol));  // the epigraph's constraint t <= f_0
        CHECK(mn.terms[1].derivative == Approx(1.0).epsilon(tol));
        const auto mx = evaluate_objective(parse_objective("max(T(wl), wl=1.5,1.6)"), functions, res, {});
        CHECK(mx.value == Approx(0.7).epsilon(1e-12));
        CHECK(mx.active == 0);
    }
    SECTION("errors of one evaluation") {
        CHECK_THROWS_WITH(evaluate_objective(parse_objective("T(1.9)"), functions, res, {}),
                          Catch::Contains("T(1.9): 1.9 um is outside"));
        CHECK_THROWS_WITH(evaluate_objective(parse_objective("1 / (T(1.6) - 0.5)"), functions, res, {}),
                          Catch::Contains("infinite"));
    }
}

TEST_CASE("objective: checks before any run", "[objective]" GOLIGHTLY_NEEDS_MUPARSER) {
    const Project project = objective_project();
    const auto functions = objective_functions(project);
    CHECK_NOTHROW(check_objective(parse_objective("T(1.55) - R(1.31)"), functions, project, {}));
    CHECK_NOTHROW(check_objective(parse_objective("1 / (T(1.5) - R(1.5))"), functions, project, {}));  // placeholder values
    CHECK_NOTHROW(check_objective(parse_objective("mean(out_m2_fwd_power(wl), wl=1.3:1.8:6)"), functions, project, {}));
    CHECK_THROWS_WITH(check_objective(parse_objective("Q(1.55)"), functions, project, {}),
                      Catch::Contains("objective \"Q(1.55)\": ") && Catch::Contains("\"Q\"") &&
                          Catch::Contains("monitor functions: T, R, out, box, T_flux, R_flux, out_flux, box_flux, out_m0_fwd_power"));
    CHECK_THROWS_WITH(check_objective(parse_objective("T(1.9)"), functions, project, {}),
                      Catch::Contains("T(1.9): 1.9 um is outside the run's spectrum (1.3 to 1.8 um)"));
    CHECK_THROWS_WITH(check_objective(parse_objective("min(T(wl), wl=1.7:1.9:3)"), functions, project, {}),
                      Catch::Contains("T(1.9): 1.9 um is outside"));
    CHECK_THROWS_WITH(check_objective(parse_objective("T(1.55) +"), functions, project, {}),
                      Catch::Contains("objective \"T(1.55) +\""));

    // The terms an objective will read, before the run (the adjoint's monitors and wavelengths).
    const auto terms = objective_terms(parse_objective("max(out_m0_bwd_power(wl) + 0 * out_m0_bwd_power(wl), wl=1.5,1.6)"),
                                       functions, project, {});
    REQUIRE(terms.size() == 2);
    CHECK(terms[0].function.name == "out_m0_bwd_power");
    CHECK_FALSE(terms[0].function.forward);
    CHECK(terms[0].wavelength_um == 1.5);
    CHECK(terms[0].wavelength_index == 0);
    CHECK(terms[1].wavelength_um == 1.6);
    CHECK(terms[1].wavelength_index == 1);
}
