// Optical-constants CSV reader and passive pole fit (pole_fit.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "golightly/errors.hpp"
#include "golightly/material_library.hpp"
#include "golightly/pole_fit.hpp"
#include "test_files.hpp"

using namespace golightly;

namespace {

Material library_au() {
    for (const auto& m : material_library())
        if (m.material.id == "au" && !m.personal) return m.material;
    FAIL("no au in the bundled library");
    return {};
}

/// n, k samples of a model at `count` wavelengths evenly spaced in [lo, hi] um.
std::vector<OpticalSample> sample_model(double eps_inf, const std::vector<Pole>& poles, double lo, double hi, int count) {
    std::vector<OpticalSample> out;
    for (int i = 0; i < count; ++i) {
        const double wl = lo + (hi - lo) * i / (count - 1);
        const auto nk = nk_from_epsilon(model_epsilon(eps_inf, 0, poles, wavelength_um_to_omega(wl)));
        out.push_back({wl, nk.real(), nk.imag()});
    }
    return out;
}

double max_rel_error(const PoleFitResult& fit, double eps_inf, const std::vector<Pole>& poles, double lo, double hi) {
    double mx = 0;
    for (int i = 0; i <= 200; ++i) {
        const double w = wavelength_um_to_omega(lo + (hi - lo) * i / 200.0);
        const auto ref = model_epsilon(eps_inf, 0, poles, w);
        const auto got = model_epsilon(fit.epsilon_inf, 0, fit.poles, w);
        mx = std::max(mx, std::abs(got - ref) / std::abs(ref));
    }
    return mx;
}

}  // namespace

TEST_CASE("pole fit: eps from n,k uses exp(-i w t) (k > 0 -> Im eps > 0)", "[pole_fit]") {
    const auto e = epsilon_from_nk(0.2, 3.0);
    CHECK(e.real() == Approx(0.04 - 9.0));
    CHECK(e.imag() == Approx(1.2));
    const auto nk = nk_from_epsilon(e);
    CHECK(nk.real() == Approx(0.2));
    CHECK(nk.imag() == Approx(3.0));
    CHECK(wavelength_um_to_omega(1.0) == Approx(1.883651567e15).epsilon(1e-9));
}

TEST_CASE("pole fit: both refractiveindex.info CSV layouts parse", "[pole_fit]") {
    const auto a = parse_refractive_index_csv("wl,n,k\n0.5,0.97,1.87\n0.6,0.25,2.98\r\n\n0.7,0.16,3.95\n", "a.csv");
    REQUIRE(a.samples.size() == 3);
    CHECK(a.has_k);
    CHECK(a.samples[1].wavelength_um == 0.6);
    CHECK(a.samples[1].n == 0.25);
    CHECK(a.samples[1].k == 2.98);

    const auto b = parse_refractive_index_csv("wl,n\n0.5,0.97\n0.6,0.25\n0.7,0.16\nwl,k\n0.5,1.87\n0.7,3.95\n", "b.csv");
    REQUIRE(b.samples.size() == 3);
    CHECK(b.samples[1].k == Approx(0.5 * (1.87 + 3.95)));  // interpolated onto the n grid
    CHECK(b.samples[2].k == 3.95);

    const auto c = parse_refractive_index_csv("\"wl\",\"n\"\n1.0,1.45\n1.5,1.44\n", "c.csv");
    REQUIRE(c.samples.size() == 2);
    CHECK_FALSE(c.has_k);
    CHECK(c.samples[0].k == 0);

    const auto d = parse_refractive_index_csv("1.0\t3.5\t0.01\n1.2\t3.4\t0.0\n", "d.csv");  // no header
    REQUIRE(d.samples.size() == 2);
    CHECK(d.samples[0].k == 0.01);
}

TEST_CASE("pole fit: bad CSV lines are errors naming file and line", "[pole_fit]") {
    auto err = [](const std::string& text) {
        try {
            parse_refractive_index_csv(text, "bad.csv");
        } catch (const ProjectError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(err("wl,n,k\n0.5,0.97,1.87\n0.6,abc,2.98\n") == "bad.csv: line 3: \"abc\" is not a number");
    CHECK(err("wl,n,k\n0.5,0.97\n").find("line 2: expected 3 columns") != std::string::npos);
    CHECK(err("wl,n,k\n-0.5,0.97,1\n").find("line 2: the wavelength must be > 0") != std::string::npos);
    CHECK(err("wl,n,k\n0.5,0.97,-1\n").find("line 2: k must be >= 0") != std::string::npos);
    CHECK(err("wl,foo\n0.5,0.97\n").find("line 1:") != std::string::npos);
    CHECK(err("wl,n\n").find("no n data") != std::string::npos);
    CHECK_THROWS_AS(read_refractive_index_csv("/nonexistent/x.csv"), ProjectError);
}

TEST_CASE("pole fit: Drude + 2 Lorentz poles of gold are re-fitted exactly", "[pole_fit]") {
    const Material au = library_au();
    REQUIRE(au.poles.size() == 6);
    // truth: gold's Drude pole and its Lorentz poles at 2.97 and 4.30 eV, eps_inf = 3
    const std::vector<Pole> truth = {au.poles[0], au.poles[3], au.poles[4]};
    const double eps_inf = 3.0;
    const auto samples = sample_model(eps_inf, truth, 0.3, 1.0, 80);
    PoleFitOptions o;
    o.poles = 3;
    o.drude = true;
    const auto fit = fit_poles(samples, o);
    INFO("rms " << fit.rms_relative_error << " max " << fit.max_relative_error << " eps_inf " << fit.epsilon_inf);
    CHECK(fit.samples_used == 80);
    CHECK(fit.rms_relative_error < 1e-3);
    CHECK(max_rel_error(fit, eps_inf, truth, 0.3, 1.0) < 3e-3);
    REQUIRE(fit.poles.size() == 3);
    CHECK(fit.poles[0].kind == PoleKind::Drude);
    CHECK(fit.poles[0].omega_0 == 0);
    // the resonances come back within 2 %
    CHECK(fit.poles[1].omega_0 == Approx(truth[1].omega_0).epsilon(0.02));
    CHECK(fit.poles[2].omega_0 == Approx(truth[2].omega_0).epsilon(0.02));
    CHECK(fit.epsilon_inf == Approx(eps_inf).epsilon(0.05));
    // a wrong sign convention (fitting conj(eps)) would leave a large error: the data check
    auto conj = samples;
    for (auto& s : conj) s.k = -s.k;  // (n - ik)^2 = conj(eps): not representable by a passive model
    const auto bad = fit_poles(conj, o);
    CHECK(bad.rms_relative_error > 1e-2);
}

TEST_CASE("pole fit: every fit is passive (Im eps >= 0 for all w > 0)", "[pole_fit]") {
    // a lossless data set and a gain medium (k < 0) still give a passive model
    std::vector<OpticalSample> lossless, gain;
    for (int i = 0; i < 40; ++i) {
        const double wl = 0.5 + 0.02 * i;
        lossless.push_back({wl, 1.5 + 0.1 * std::sin(i * 0.3), 0.0});
        gain.push_back({wl, 1.5 + 0.1 * std::sin(i * 0.3), -0.05 - 0.02 * std::cos(wl * 20)});
    }
    PoleFitOptions o;
    o.poles = 3;
    o.drude = true;
    o.starts = 6;
    for (int flip = 0; flip < 2; ++flip) {
        const auto fit = fit_poles(flip ? gain : lossless, o);
        CHECK(fit.epsilon_inf >= 1.0);
        for (const auto& p : fit.poles) {
            CHECK(p.gamma >= 0);
            CHECK(p.omega_p >= 0);
        }
        for (int e = -2; e <= 3; ++e)
            for (double f : {1.0, 2.0, 5.0}) {
                const double w = f * std::pow(10.0, 14 + e);
                CHECK(model_epsilon(fit.epsilon_inf, 0, fit.poles, w).imag() >= 0);
            }
    }
}

TEST_CASE("pole fit: gold n,k on 0.4-1.0 um from a CSV, 4 poles", "[pole_fit]") {
    const Material au = library_au();
    const auto samples = sample_model(au.epsilon_inf, au.poles, 0.4, 1.0, 61);
    const test::Scratch scratch("test", "au_nk");  // its own folder: the Release and ASan suites may run at once
    const auto file = scratch.path / "au_nk.csv";
    {
        // two-block refractiveindex.info layout
        std::ofstream f(file);
        f << "wl,n\n";
        for (const auto& s : samples) f << s.wavelength_um << ',' << s.n << '\n';
        f << "wl,k\n";
        for (const auto& s : samples) f << s.wavelength_um << ',' << s.k << '\n';
    }
    const auto data = read_refractive_index_csv(file);
    REQUIRE(data.samples.size() == samples.size());
    PoleFitOptions o;
    o.poles = 4;
    o.drude = true;
    o.wavelength_min_um = 0.4;
    o.wavelength_max_um = 1.0;
    const auto fit = fit_poles(data.samples, o);
    INFO("rms " << fit.rms_relative_error << " max " << fit.max_relative_error);
    CHECK(fit.rms_relative_error < 5e-3);
    CHECK(fit.max_relative_error < 2e-2);
    CHECK(max_rel_error(fit, au.epsilon_inf, au.poles, 0.4, 1.0) < 2e-2);
    const Material m = material_from_fit(fit, "au_fit", "gold fit");
    CHECK(m.poles.size() == 4);
    CHECK(m.epsilon_inf == fit.epsilon_inf);
}

TEST_CASE("pole fit: too few samples for the parameters is an error", "[pole_fit]") {
    std::vector<OpticalSample> s = {{0.5, 1.5, 0}, {0.6, 1.5, 0}};
    PoleFitOptions o;
    o.poles = 3;
    CHECK_THROWS_AS(fit_poles(s, o), ProjectError);
    o.wavelength_min_um = 0.9;
    o.wavelength_max_um = 0.8;
    CHECK_THROWS_AS(fit_poles(s, o), ProjectError);
}

TEST_CASE("pole fit: golightly-cli materials fit", "[pole_fit][cli]") {
    const Material au = library_au();
    const auto dir = std::filesystem::temp_directory_path() / ("golightly_fit_cli_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    {
        std::ofstream f(dir / "au.csv");
        f << "wl,n,k\n";
        for (const auto& s : sample_model(au.epsilon_inf, au.poles, 0.35, 1.2, 60))
            f << s.wavelength_um << ',' << s.n << ',' << s.k << '\n';
        std::ofstream bad(dir / "bad.csv");
        bad << "wl,n,k\n0.5,1,0\n0.6,x,0\n";
    }
    auto run = [&](const std::string& args, std::string& out) {
        const auto o = dir / "out.txt";
        const std::string cmd = std::string("'") + GOLIGHTLY_CLI_PATH + "' materials fit " + args + " >'" + o.string() +
                                "' 2>&1 </dev/null";
        const int status = std::system(cmd.c_str());
        std::ifstream in(o);
        std::stringstream ss;
        ss << in.rdbuf();
        out = ss.str();
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    std::string out;
    REQUIRE(run("'" + (dir / "au.csv").string() + "' --poles 4 --band 0.4:1.0 --id au4 --json", out) == 0);
    const Json j = Json::parse(out);
    const Material m = material_from_json(j, "", "cli output");
    CHECK(m.id == "au4");
    CHECK(m.poles.size() == 4);
    CHECK(m.poles[0].kind == PoleKind::Drude);
    CHECK(j["fit"]["rms_relative_error"].get<double>() < 5e-3);
    CHECK(j["fit"]["band_um"][0].get<double>() == 0.4);
    CHECK(j["fit"]["samples"].get<int>() > 30);
    CHECK(run("'" + (dir / "au.csv").string() + "' --band 1.0:0.4", out) == 1);
    CHECK(run("'" + (dir / "bad.csv").string() + "'", out) == 2);
    CHECK(out.find("line 3") != std::string::npos);
    std::filesystem::remove_all(dir);
}

TEST_CASE("material library: save_to_personal_material_library adds and replaces", "[pole_fit][material_library]") {
    const auto dir = std::filesystem::temp_directory_path() / ("golightly_personal_" + std::to_string(::getpid()));
    const char* old = std::getenv("XDG_DATA_HOME");
    const std::string saved = old ? old : "";
    ::setenv("XDG_DATA_HOME", dir.string().c_str(), 1);
    Material m = library_au();
    m.id = "mygold";
    m.epsilon_inf = 1.7;
    const auto file = save_to_personal_material_library(m, "fitted by me");
    CHECK(file == dir / "golightly" / "materials.json");
    Material glass;
    glass.id = "glass";
    glass.epsilon_inf = 2.25;
    save_to_personal_material_library(glass, "");
    m.epsilon_inf = 1.9;  // replaces, keeps the order
    save_to_personal_material_library(m, "fitted again");
    const auto lib = load_material_library(file);
    REQUIRE(lib.size() == 2);
    CHECK(lib[0].material.id == "mygold");
    CHECK(lib[0].material.epsilon_inf == 1.9);
    CHECK(lib[0].source == "fitted again");
    CHECK(lib[0].material.poles == m.poles);
    CHECK(lib[1].material.id == "glass");
    bool found = false;
    for (const auto& x : material_library()) found |= x.personal && x.material.id == "glass";
    CHECK(found);
    // a broken personal file is reported, not overwritten
    { std::ofstream(file) << "{not json"; }
    CHECK_THROWS_AS(save_to_personal_material_library(glass, ""), ProjectError);
    if (old) ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
    else ::unsetenv("XDG_DATA_HOME");
    std::filesystem::remove_all(dir);
}
