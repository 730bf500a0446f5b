// A tiny 2D inverse-design project shared by test_adjoint_project.cpp and
// test_cli_adjoint.cpp: a silicon slab guide (eps 12, 0.3 um) along x with a one-way mode
// source, an input and an output mode monitor and a 0.6 x 0.6 um design region across the
// guide (0.1 um pixels, 6 x 6), 0.05 um cells, one wavelength.
#pragma once

#include <functional>
#include <string>

#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"

namespace golightly::test {

inline const char* kAdjointGuide = R"JSON({"format": "golightly-project", "version": 1, "name": "adjoint guide",
  "domain": {"size": [3.6, 2.4], "cell_size": 0.05, "polarization": "TMz", "pml": {"cells": 12}},
  "materials": [{"id": "si", "epsilon_inf": 12.0},
                {"id": "drude", "epsilon_inf": 1.0, "poles": [{"kind": "drude", "omega_p": 1e15, "gamma": 1e13}]}],
  "layers": [{"name": "wg", "material": "si", "shapes": [{"type": "rectangle", "min": [-1.0, 1.05], "max": [5.0, 1.35]}]}],
  "sources": [{"name": "in", "type": "line", "from": [0.8, 0.2], "to": [0.8, 2.2], "component": "Ez", "profile": "mode",
               "direction": "+x", "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.3}}],
  "monitors": [{"name": "input", "type": "flux", "kind": "mode", "from": [1.2, 0.2], "to": [1.2, 2.2], "direction": "+x"},
               {"name": "output", "type": "flux", "kind": "mode", "from": [2.7, 0.2], "to": [2.7, 2.2], "direction": "+x"},
               {"name": "T", "type": "flux", "from": [3.0, 0.2], "to": [3.0, 2.2], "direction": "+x", "kind": "transmission"}],
  "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 5}, "precision": "float64", "backend": "cpu"},
  "design": {
    "regions": [{"name": "dr", "min": [1.5, 0.9], "max": [2.1, 1.5], "pixel_um": 0.1, "materials": ["air", "si"], "rho": 0.5,
                 "filter": {"kind": "conic", "radius_um": 0.15},
                 "projection": {"beta": 2, "eta": 0.5, "beta_max": 16, "beta_every": 10, "beta_factor": 2},
                 "future_member": {"kept": true}}],
    "objective": {"terms": [{"monitor": "output", "mode": 0, "direction": "forward", "weight": 1}],
                  "wavelengths_um": [1.55], "normalize_by": "input", "goal": "maximize"},
    "optimizer": {"algorithm": "mma", "max_iterations": 3}
  }})JSON";

/// kAdjointGuide with `edit` applied to its JSON, parsed as the file `label`.
inline Project edited_guide(const std::function<void(Json&)>& edit, const std::string& label = "edited.glproj") {
    Json j = Json::parse(kAdjointGuide);
    edit(j);
    return parse_project(j.dump(), label);
}

/// What reading the design section of edited_guide(edit) with its references throws
/// (design_spec, as optimize --adjoint reads it; parse_project's errors too) as
/// "json_path: message [file]", or "no error".
inline std::string design_error(const std::function<void(Json&)>& edit, const std::string& label = "edited.glproj") {
    try {
        (void)design_spec(edited_guide(edit, label), label);
    } catch (const ProjectError& e) {
        return e.json_path() + ": " + e.message() + " [" + e.file() + "]";
    }
    return "no error";
}

}  // namespace golightly::test
