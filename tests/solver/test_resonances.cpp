// The resonance finder (Harminv, golightly/resonance_finder.hpp): synthetic signals with
// known modes, PEC cavities run as projects against the Yee scheme's own mode frequencies,
// the "resonances" stop rule, the results files and `golightly-cli resonances`.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/resonance_finder.hpp"
#include "golightly/results.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "cli_runner.hpp"
#include "far_field_projects.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

namespace fs = std::filesystem;
using namespace golightly;
using golightly::test::yee_cavity_hz;


namespace {

constexpr double kPi = units::pi;

struct Sinusoid {
    double f_hz, q, amplitude, phase;
};

std::vector<double> damped_sum(const std::vector<Sinusoid>& modes, double dt, int n) {
    std::vector<double> s(std::size_t(n), 0.0);
    for (const Sinusoid& m : modes) {
        const double alpha = kPi * m.f_hz / m.q;
        for (int i = 0; i < n; ++i) {
            const double t = i * dt;
            s[std::size_t(i)] += m.amplitude * std::cos(2 * kPi * m.f_hz * t + m.phase) * std::exp(-alpha * t);
        }
    }
    return s;
}

/// A 2D PEC cavity of 40 x 30 cells (2.0 x 1.5 um, dx 0.05 um) in TMz, excited by a point
/// pulse off every nodal line of the lowest modes, with a resonance-finding time monitor.
std::string cavity_2d_json(const std::string& stop) {
    return R"({"format": "golightly-project", "version": 1,
      "domain": {"size": [2.0, 1.5], "cell_size": 0.05, "polarization": "TMz",
                 "boundaries": {"x": "pec", "y": "pec"}},
      "sources": [{"type": "point", "at": [0.33, 0.41], "component": "Ez",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.8, "wavelength_span": 1.2}}],
      "monitors": [{"name": "probe", "type": "time", "at": [1.52, 1.13], "component": "Ez",
                    "resonances": {"band": [1.3, 2.6]}}],
      "run": {"spectrum": {"wavelength_min": 1.3, "wavelength_max": 2.6, "points": 11},
              "precision": "float64", "stop": )" +
           stop + "}}";
}

}  // namespace

TEST_CASE("find_resonances recovers the frequency, Q, amplitude and phase of damped sinusoids",
          "[resonances]" GOLIGHTLY_NEEDS_HARMINV) {
    REQUIRE(resonance_finder_available());
    // Two modes 30 THz apart (12 resolution elements of the 400 fs record), one lossy
    // (Q 1000), one nearly lossless (Q 1e6: it decays by 3e-4 over the record, so its Q is
    // only determined to a few per cent; its frequency still to round-off).
    const double dt = 0.02e-15;
    const std::vector<Sinusoid> modes{{200e12, 1000, 1.0, 0.3}, {230e12, 1e6, 0.2, -1.1}};
    ResonanceOptions o;
    o.f_min_hz = 150e12;
    o.f_max_hz = 300e12;
    const auto found = find_resonances(damped_sum(modes, dt, 20000), dt, o);
    REQUIRE(found.size() == 2);
    // Noise-free data: filter diagonalization is exact up to round-off and the conditioning
    // of its basis; 1e-7 is far above that and far below any wrong factor or unit.
    CHECK(found[0].frequency_hz == Approx(200e12).epsilon(1e-7));
    CHECK(found[1].frequency_hz == Approx(230e12).epsilon(1e-7));
    CHECK(found[0].q == Approx(1000).epsilon(1e-4));
    CHECK(found[0].decay_per_s == Approx(kPi * 200e12 / 1000).epsilon(1e-4));
    CHECK(found[1].q > 5e5);
    CHECK(found[0].amplitude == Approx(1.0).epsilon(1e-5));
    CHECK(found[1].amplitude == Approx(0.2).epsilon(1e-5));
    CHECK(found[0].phase_rad == Approx(0.3).margin(1e-5));
    CHECK(found[1].phase_rad == Approx(-1.1).margin(1e-5));
    CHECK(found[0].wavelength_um == Approx(units::c0 / 200e12 / units::um).epsilon(1e-7));
    CHECK(found[0].error < 1e-6);

    SECTION("a mode outside the window is not reported") {
        o.f_min_hz = 210e12;
        const auto only = find_resonances(damped_sum(modes, dt, 20000), dt, o);
        REQUIRE(only.size() == 1);
        CHECK(only[0].frequency_hz == Approx(230e12).epsilon(1e-7));
    }
    SECTION("a mode at or below q_min is dropped") {
        o.q_min = 2000;
        const auto only = find_resonances(damped_sum(modes, dt, 20000), dt, o);
        REQUIRE(only.size() == 1);
        CHECK(only[0].frequency_hz == Approx(230e12).epsilon(1e-7));
    }
    SECTION("no modes in silence") {
        CHECK(find_resonances(std::vector<double>(1000, 0.0), dt, o).empty());
        CHECK(find_resonances(std::vector<double>(5, 1.0), dt, o).empty());
    }
    SECTION("bad windows and samples are refused") {
        ResonanceOptions bad = o;
        bad.f_max_hz = 100e12;  // below f_min
        CHECK_THROWS_AS(find_resonances(damped_sum(modes, dt, 100), dt, bad), std::invalid_argument);
        bad = o;
        bad.f_max_hz = 0.6 / dt;  // past Nyquist
        CHECK_THROWS_AS(find_resonances(damped_sum(modes, dt, 100), dt, bad), std::invalid_argument);
        std::vector<double> nan_signal(100, 0.0);
        nan_signal[7] = std::nan("");
        CHECK_THROWS_AS(find_resonances(nan_signal, dt, o), std::invalid_argument);
        CHECK_THROWS_AS(find_resonances(nan_signal, 0.0, o), std::invalid_argument);
    }
}

TEST_CASE("Time monitor resonances and the resonance stop rule read and write", "[resonances][project]") {
    const Project p = parse_project(cavity_2d_json(R"({"resonances": true, "max_time_fs": 3000})"), "cavity.glproj");
    REQUIRE(p.monitors.at(0).resonances);
    const ResonanceSettings& rs = *p.monitors[0].resonances;
    CHECK(rs.wavelength_min == 1.3);
    CHECK(rs.wavelength_max == 2.6);
    CHECK(rs.after_source);
    CHECK(rs.q_min == 50);
    CHECK(p.run.stop.resonances);
    const Project again = parse_project(project_to_json(p).dump(), "again.glproj");
    CHECK(again == p);

    // defaults: an empty object searches run.spectrum after the sources
    const Project d = parse_project(R"({"format": "golightly-project", "version": 1,
        "domain": {"size": [2, 1], "cell_size": 0.05},
        "monitors": [{"name": "m", "type": "time", "at": [1, 0.5], "resonances": {}}]})",
                                    "d.glproj");
    REQUIRE(d.monitors[0].resonances);
    CHECK_FALSE(d.monitors[0].resonances->wavelength_min);
    CHECK_FALSE(d.run.stop.resonances);

    auto error_path = [](const std::string& text) {
        try {
            parse_project(text, "bad.glproj");
        } catch (const ProjectError& e) {
            return e.json_path();
        }
        return std::string("(accepted)");
    };
    const std::string head = R"({"format": "golightly-project", "version": 1,
        "domain": {"size": [2, 1], "cell_size": 0.05},
        "monitors": [{"name": "m", "type": "time", "at": [1, 0.5])";
    CHECK(error_path(head + R"(, "resonances": {"band": [1.8, 1.3]}}]})") == "monitors[0].resonances.band[1]");
    CHECK(error_path(head + R"(, "resonances": {"band": [1.3]}}]})") == "monitors[0].resonances.band");
    CHECK(error_path(head + R"(, "resonances": {"q_min": -1}}]})") == "monitors[0].resonances.q_min");
    CHECK(error_path(head + R"(}], "run": {"stop": {"resonances": true}}})") == "run.stop.resonances");
}

TEST_CASE("A 2D PEC cavity's resonances equal the Yee scheme's mode frequencies", "[resonances][physics][cavity]"
          GOLIGHTLY_NEEDS_HARMINV) {
    REQUIRE(resonance_finder_available());
    const Project p = parse_project(cavity_2d_json(R"({"resonances": true, "max_time_fs": 4000})"), "cavity.glproj");
    std::string last_rule;
    RunOptions opts;
    opts.progress = [&](const ProgressInfo& pi) { last_rule = pi.stop_rule; };
    const RunResult r = run_project(p, "cavity.glproj", opts);
    // the progress bar names the rule and how far it is
    CHECK(last_rule.find("decay to 40 dB or resonances: 3 modes, df/f") == 0);
    // the stop rule ends the run long before max_time: a lossless cavity never decays
    CHECK(r.stop_reason == StopReason::Resonances);
    CHECK(r.time_fs < 2000);
    REQUIRE(r.resonances.size() == 1);
    const ResonanceResult& rr = r.resonances[0];
    CHECK(rr.name == "probe");
    CHECK(rr.wavelength_min_um == 1.3);
    CHECK(rr.samples > 1000);
    const auto& t = r.time_series.at(0).time_fs;
    const double dt_s = (t[1] - t[0]) * units::fs;
    const double S = units::c0 * dt_s / (0.05 * units::um);
    CHECK(S == Approx(0.5).epsilon(1e-9));  // run.courant's default
    // TMz modes (m, n) of 40 x 30 cells with vacuum wavelength in [1.3, 2.6] um
    int expected = 0;
    for (int m = 1; m < 6; ++m)
        for (int n = 1; n < 6; ++n) {
            const double f = yee_cavity_hz({m, n}, {40, 30}, S, dt_s);
            const double wl = units::c0 / f / units::um;
            if (wl < 1.32 || wl > 2.58) continue;  // clear of the band edges
            ++expected;
            const Resonance* best = nullptr;
            for (const Resonance& x : rr.modes)
                if (!best || std::fabs(x.frequency_hz - f) < std::fabs(best->frequency_hz - f)) best = &x;
            INFO("mode (" << m << "," << n << ") at " << wl << " um");
            REQUIRE(best);
            // The issue's 1e-5; Harminv on a lossless float64 record does far better.
            CHECK(std::fabs(best->frequency_hz - f) / f < 1e-5);
            // lossless: Q above 1e8 (or a non-decaying fit, |Q| huge either sign)
            CHECK(std::fabs(best->q) > 1e8);
        }
    CHECK(expected >= 3);
    CHECK(int(rr.modes.size()) >= expected);

    SECTION("results files and golightly-cli resonances") {
        const test::Scratch scratch("test", "resonances");  // its own folder: the Release and ASan suites may run at once
        const fs::path dir = scratch.path;
        write_results(dir / "run", p, r, {});
        const Json summary = Json::parse(std::ifstream(dir / "run" / "summary.json"));
        CHECK(summary["stop_reason"] == "resonances");
        REQUIRE(summary["resonances"].contains("probe"));
        CHECK(summary["resonances"]["probe"]["modes"].size() == rr.modes.size());
        std::ifstream csv(dir / "run" / "resonances" / "probe.csv");
        std::string header;
        std::getline(csv, header);
        CHECK(header == "frequency_thz,wavelength_um,q,decay_per_fs,amplitude,phase_rad,error");
        // the CLI on the written monitor CSV (10 significant digits) finds the same modes
        const test::CliOut o = test::run_cli("resonances '" + (dir / "run").string() + "' --json", dir);
        INFO(o.err);
        REQUIRE(o.code == 0);
        const Json j = Json::parse(o.out);
        REQUIRE(j["probe"]["modes"].size() == rr.modes.size());
        for (std::size_t k = 0; k < rr.modes.size(); ++k)
            CHECK(j["probe"]["modes"][k]["frequency_thz"].get<double>() ==
                  Approx(rr.modes[k].frequency_hz * 1e-12).epsilon(1e-7));
        CHECK(j["probe"]["samples"].get<std::int64_t>() == rr.samples);
        const test::CliOut table = test::run_cli("resonances '" + (dir / "run").string() + "' --monitor probe --band 1.3:2.6", dir);
        CHECK(table.code == 0);
        CHECK(table.out.find("THz") != std::string::npos);
        CHECK(test::run_cli("resonances '" + (dir / "run").string() + "' --monitor nope", dir).code == 1);
        CHECK(test::run_cli("resonances '" + (dir / "run").string() + "' --band 2:1", dir).code == 1);
    }
}

TEST_CASE("A 3D PEC box's resonances equal the Yee scheme's mode frequencies", "[resonances][physics][cavity][3d]"
          GOLIGHTLY_NEEDS_HARMINV) {
    REQUIRE(resonance_finder_available());
    // 24 x 20 x 16 cells of 0.05 um: TE/TM box modes (m, n, p) with at most one index 0
    // (Pozar eq. 6.42); an Ex/Ey/Ez-tilted point source at a generic point excites both.
    const Project p = parse_project(test::pec_box_project_json("cpu"), "box.glproj");
    test::check_pec_box_resonances(run_project(p, "box.glproj"), "CPU");
}
