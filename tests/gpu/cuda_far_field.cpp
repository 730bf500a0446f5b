// Far fields and resonances on the CUDA backend (issue 52: "CPU and CUDA, 2D and 3D"):
// the surface DFTs and time samples a CUDA run hands back give the same projection and
// resonances as on the CPU. The physics bounds are those of the CPU tests
// (tests/solver/test_far_field.cpp, test_resonances.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "golightly/project.hpp"
#include "golightly/resonance_finder.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

using namespace golightly;

TEST_CASE("CUDA: a dipole's far field is sin^2(theta) with its flux box's power", "[gpu][cuda][far_field]") {
    for (const char* precision : {"float32", "float64"}) {
        const Project p = parse_project(std::string(R"({"format": "golightly-project", "version": 1,
          "domain": {"dimensions": 3, "size": [2, 2, 2], "cell_size": 0.05},
          "sources": [{"type": "point", "at": [1, 1, 1], "component": "Ez",
                       "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.0, "wavelength_span": 0.4}}],
          "monitors": [{"name": "box", "type": "flux_box", "min": [0.5, 0.5, 0.5], "max": [1.5, 1.5, 1.5],
                        "kind": "flux", "far_field": {"wavelengths": [1.0], "theta_points": 91, "phi_points": 36}}],
          "run": {"spectrum": {"wavelength_min": 0.9, "wavelength_max": 1.1, "points": 5},
                  "precision": ")") + precision + R"(", "backend": "cuda", "stop": {"decay_db": 60}}})",
                                        "dipole.glproj");
        const RunResult r = run_project(p, "dipole.glproj");
        CHECK(r.backend == "cuda");
        REQUIRE(r.far_fields.size() == 1);
        const auto& s = r.far_fields[0].samples.at(0);
        double umax = 0, worst = 0;
        for (const auto& x : s) umax = std::max(umax, x.intensity);
        for (const auto& x : s) worst = std::max(worst, std::fabs(x.intensity / umax - std::pow(std::sin(x.theta_rad), 2)));
        const double flux = r.spectra.at(0).flux.at(2);
        std::printf("[far field] CUDA %s: worst |U/Umax - sin^2| %.4f, projected / flux-box power %.5f\n", precision, worst,
                    r.far_fields[0].power[0] / flux);
        CHECK(worst < 0.01);
        CHECK(r.far_fields[0].power[0] == Approx(flux).epsilon(0.005));
    }
}

TEST_CASE("CUDA: a 3D PEC box's resonances equal the Yee mode frequencies", "[gpu][cuda][resonances]") {
    if (!resonance_finder_available()) {
        // a build without Harminv (the GPU script's device packages lack it) cannot run this
        // case: fail rather than pass silently, unless the script says it knows
        FAIL("this build has no Harminv (libharminv-dev): the resonance finder cannot be tested");
    }
    const Project p = parse_project(R"({"format": "golightly-project", "version": 1,
      "domain": {"dimensions": 3, "size": [1.2, 1.0, 0.8], "cell_size": 0.05,
                 "boundaries": {"x": "pec", "y": "pec", "z": "pec"}},
      "sources": [{"type": "point", "at": [0.23, 0.31, 0.27], "component": "Ez",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.4, "wavelength_span": 0.8}},
                  {"type": "point", "at": [0.23, 0.31, 0.27], "component": "Ex",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.4, "wavelength_span": 0.8}}],
      "monitors": [{"name": "probe", "type": "time", "at": [0.87, 0.64, 0.52], "component": "Ez", "resonances": {}}],
      "run": {"spectrum": {"wavelength_min": 1.1, "wavelength_max": 1.7, "points": 5},
              "precision": "float64", "backend": "cuda", "stop": {"resonances": true, "max_time_fs": 3000}}})",
                                    "box.glproj");
    const RunResult r = run_project(p, "box.glproj");
    CHECK(r.backend == "cuda");
    CHECK(r.stop_reason == StopReason::Resonances);
    REQUIRE(r.resonances.size() == 1);
    const auto& t = r.time_series.at(0).time_fs;
    const double dt_s = (t[1] - t[0]) * units::fs;
    const double S = units::c0 * dt_s / (0.05 * units::um);
    int matched = 0;
    for (const Resonance& x : r.resonances[0].modes) {
        if (x.amplitude < 1e-3 * r.resonances[0].modes.front().amplitude) continue;
        double best = 1;
        for (int m = 0; m < 5; ++m)
            for (int n = 0; n < 5; ++n)
                for (int q = 0; q < 5; ++q) {
                    if ((m == 0) + (n == 0) + (q == 0) > 1) continue;
                    const double s2 = std::pow(std::sin(units::pi * m / 48.0), 2) + std::pow(std::sin(units::pi * n / 40.0), 2) +
                                      std::pow(std::sin(units::pi * q / 32.0), 2);
                    const double f = std::asin(S * std::sqrt(s2)) / (units::pi * dt_s);
                    best = std::min(best, std::fabs(x.frequency_hz - f) / f);
                }
        std::printf("[resonances] CUDA mode at %.6f um: Q %.3g, relative distance to the Yee mode %.2e\n", x.wavelength_um,
                    x.q, best);
        CHECK(best < 1e-5);
        CHECK(std::fabs(x.q) > 1e8);
        ++matched;
    }
    CHECK(matched >= 2);
}
