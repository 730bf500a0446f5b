// golightly-cli check: the Bloch wave vector of a project with "bloch" boundaries (cli.md
// "check", project-format.md "Bloch-periodic boundaries"). Private to golightly-cli.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "golightly/project.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"

namespace golightly::cli {

/// The compiled scene's Bloch k per axis x, y, z: k_a = phi_a / L_a in rad/um (phi_a =
/// Scene::bloch_phase, the phase over one period; L_a = the interior cells along a times
/// dx, the period the engine wraps) and k_a L_a / (2 pi) in units of 2 pi / L_a (0.5: the
/// zone edge); the periods in um; whether the run steps complex fields; and for the first
/// source with `angle_deg` (all of a run share one k) its angle and azimuth at its centre
/// wavelength, with that wavelength (the angle at vacuum wavelength lambda is then
/// asin(sin(angle) lambda / lambda_c), k being fixed). Null when no axis is "bloch".
inline Json check_bloch_json(const Project& project, const Scene& s) {
    const Domain& d = project.domain;
    const int dims = d.dimensions == 3 ? 3 : 2;
    bool any = false;
    for (int a = 0; a < dims; ++a) any = any || d.is_bloch(a);
    if (!any) return Json(nullptr);
    const int n[3] = {s.nx, s.ny, s.nz};
    Json axes = Json::array(), k_um = Json::array(), k_2pi = Json::array(), period = Json::array();
    for (int a = 0; a < dims; ++a) {
        const double len = double(n[a] - s.pml_lo[a] - s.pml_hi[a]) * s.dx_um;
        const bool bloch = d.is_bloch(a);
        if (bloch) axes.push_back(std::string(1, "xyz"[a]));
        k_um.push_back(bloch ? s.bloch_phase[a] / len : 0.0);
        k_2pi.push_back(bloch ? s.bloch_phase[a] / (2 * units::pi) : 0.0);
        period.push_back(bloch ? Json(len) : Json(nullptr));
    }
    Json b = Json::object();
    b["axes"] = axes;
    b["k_per_um"] = k_um;
    b["k_2pi_per_a"] = k_2pi;
    b["period_um"] = period;
    b["complex_fields"] = s.complex_fields;
    for (const Source& src : project.sources) {
        if (src.angle_deg == 0 && src.azimuth_deg == 0) continue;
        b["source"] = src.name;
        b["angle_deg_at_center"] = src.angle_deg;
        if (dims == 3) b["azimuth_deg"] = src.azimuth_deg;
        b["wavelength_center_um"] = src.waveform.type == WaveformType::GaussianPulse ? src.waveform.wavelength_center
                                                                                     : src.waveform.wavelength;
        break;
    }
    return b;
}

/// check's text lines for check_bloch_json's object `b` (nothing for null):
///   Bloch k: x 2.1453 rad/um (0.34144 2pi/a, a = 1 um), y 0 rad/um (0 2pi/a, a = 3 um); complex fields
///   Bloch source "plane wave": angle 20 deg at its centre wavelength 0.85 um
inline void print_check_bloch(const Json& b) {
    if (b.is_null()) return;
    std::string line = "Bloch k:";
    for (std::size_t a = 0; a < b["k_per_um"].size(); ++a) {
        if (b["period_um"][a].is_null()) continue;
        char part[160];
        std::snprintf(part, sizeof part, "%s %c %.6g rad/um (%.6g 2pi/a, a = %.6g um)", line.size() > 8 ? "," : "",
                      "xyz"[a], b["k_per_um"][a].get<double>(), b["k_2pi_per_a"][a].get<double>(),
                      b["period_um"][a].get<double>());
        line += part;
    }
    line += b["complex_fields"].get<bool>() ? "; complex fields" : "; real fields (k = 0: periodic)";
    std::printf("%s\n", line.c_str());
    if (b.contains("source")) {
        std::printf("Bloch source \"%s\": angle %.6g deg", b["source"].get<std::string>().c_str(),
                    b["angle_deg_at_center"].get<double>());
        if (b.contains("azimuth_deg")) std::printf(", azimuth %.6g deg", b["azimuth_deg"].get<double>());
        std::printf(" at its centre wavelength %.6g um\n", b["wavelength_center_um"].get<double>());
    }
}

}  // namespace golightly::cli
