// Projects shared by the CPU and GPU tests of far fields and resonances
// (tests/solver/test_far_field.cpp, test_resonances.cpp, tests/gpu/cuda_far_field.cpp).
// Header-only, namespace golightly::test.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "golightly/run.hpp"
#include "golightly/units.hpp"

namespace golightly::test {

/// An Ez point current at the centre of a 2 um vacuum cube (dx 0.05 um: 20 cells per
/// wavelength at 1 um) inside a 1 um flux box that projects its far field at 1 um
/// (91 x 36 directions); spectrum 0.9-1.1 um, 5 points.
inline std::string dipole_project_json(const std::string& precision, const std::string& backend) {
    return R"({"format": "golightly-project", "version": 1,
      "domain": {"dimensions": 3, "size": [2, 2, 2], "cell_size": 0.05},
      "sources": [{"type": "point", "at": [1, 1, 1], "component": "Ez",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.0, "wavelength_span": 0.4}}],
      "monitors": [{"name": "box", "type": "flux_box", "min": [0.5, 0.5, 0.5], "max": [1.5, 1.5, 1.5],
                    "kind": "flux", "far_field": {"wavelengths": [1.0], "theta_points": 91, "phi_points": 36}}],
      "run": {"spectrum": {"wavelength_min": 0.9, "wavelength_max": 1.1, "points": 5},
              "precision": ")" + precision + R"(", "backend": ")" + backend + R"(", "stop": {"decay_db": 60}}})";
}

/// A 24 x 20 x 16-cell PEC box (dx 0.05 um) excited by Ez and Ex point currents at a
/// generic point, an Ez probe with `resonances` over 1.1-1.7 um, float64, stopped by the
/// resonance rule (max 3000 fs).
inline std::string pec_box_project_json(const std::string& backend) {
    return R"({"format": "golightly-project", "version": 1,
      "domain": {"dimensions": 3, "size": [1.2, 1.0, 0.8], "cell_size": 0.05,
                 "boundaries": {"x": "pec", "y": "pec", "z": "pec"}},
      "sources": [{"type": "point", "at": [0.23, 0.31, 0.27], "component": "Ez",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.4, "wavelength_span": 0.8}},
                  {"type": "point", "at": [0.23, 0.31, 0.27], "component": "Ex",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.4, "wavelength_span": 0.8}}],
      "monitors": [{"name": "probe", "type": "time", "at": [0.87, 0.64, 0.52], "component": "Ez",
                    "resonances": {}}],
      "run": {"spectrum": {"wavelength_min": 1.1, "wavelength_max": 1.7, "points": 5},
              "precision": "float64", "backend": ")" + backend + R"(", "stop": {"resonances": true, "max_time_fs": 3000}}})";
}

/// The Yee scheme's frequency (Hz) of the rectangular PEC cavity mode m (one index per
/// axis) of `cells` cells per axis (walls on E nodes 0 and N), Courant number S = c dt / dx:
///   sin(pi f dt) = S sqrt(sum_i sin^2(m_i pi / (2 N_i)))
/// (Taflove & Hagness, 3rd ed., eq. 4.14 with k_i dx = m_i pi / N_i).
inline double yee_cavity_hz(const std::vector<int>& m, const std::vector<int>& cells, double S, double dt_s) {
    double sum = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
        const double s = std::sin(units::pi * m[i] / (2.0 * cells[i]));
        sum += s * s;
    }
    return std::asin(S * std::sqrt(sum)) / (units::pi * dt_s);
}

/// The relative distance from f_hz to the nearest mode of the 24 x 20 x 16-cell box of
/// pec_box_project_json (indices below 5, at most one of them 0).
inline double nearest_box_mode(double f_hz, double S, double dt_s) {
    double best = 1;
    for (int m = 0; m < 5; ++m)
        for (int n = 0; n < 5; ++n)
            for (int q = 0; q < 5; ++q) {
                if ((m == 0) + (n == 0) + (q == 0) > 1) continue;
                const double f = yee_cavity_hz({m, n, q}, {24, 20, 16}, S, dt_s);
                best = std::min(best, std::fabs(f_hz - f) / f);
            }
    return best;
}

/// Checks a run of pec_box_project_json: it stopped on the resonance rule, and every mode
/// found (above 1e-3 of the first one's amplitude: numerical dust below) lies within 1e-5
/// of a Yee box mode (the issue's figure) with |Q| above 1e8 (lossless), at least two of them.
/// Prints one line per mode, prefixed with `label`.
inline void check_pec_box_resonances(const RunResult& r, const char* label) {
    CHECK(r.stop_reason == StopReason::Resonances);
    REQUIRE(r.resonances.size() == 1);
    const auto& t = r.time_series.at(0).time_fs;
    const double dt_s = (t[1] - t[0]) * units::fs;
    const double S = units::c0 * dt_s / (0.05 * units::um);
    int matched = 0;
    for (const Resonance& x : r.resonances[0].modes) {
        if (x.amplitude < 1e-3 * r.resonances[0].modes.front().amplitude) continue;
        const double best = nearest_box_mode(x.frequency_hz, S, dt_s);
        std::printf("[resonances] %s mode at %.6f um: Q %.3g, relative distance to the Yee mode %.2e\n", label,
                    x.wavelength_um, x.q, best);
        INFO("mode at " << x.wavelength_um << " um, Q " << x.q);
        CHECK(best < 1e-5);
        CHECK(std::fabs(x.q) > 1e8);
        ++matched;
    }
    CHECK(matched >= 2);
}

}  // namespace golightly::test
