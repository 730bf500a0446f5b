// The dielectric block of the shape-parameter adjoint tests (tests/solver/test_adjoint_shape*.cpp):
// one project text, which each test edits for its case. Header-only, namespace golightly::test.
#pragma once

namespace golightly::test {

// A dielectric block (eps 4) in air whose width w and centre height yc are the
// parameters, a point source and a point objective |Ez|^2 behind the block; PML all
// round. Edges sit between window edges (0.05 um cells) so that every difference below
// stays on one smooth piece of the averaged permittivity.
// Five MMA evaluations, one objective wavelength (1.55 um), maximized.
inline constexpr const char* kShapeBlockTMz = R"JSON({"format": "golightly-project", "version": 1, "name": "shape block",
  "parameters": {"w": 0.63, "yc": 1.52},
  "domain": {"size": [3.0, 3.0], "cell_size": 0.05, "polarization": "TMz", "pml": {"cells": 12}},
  "materials": [{"id": "d", "epsilon_inf": 4.0}],
  "layers": [{"name": "block", "material": "d",
              "shapes": [{"type": "rectangle", "min": ["1.5 - w / 2", "yc - 0.27"], "max": ["1.5 + w / 2", "yc + 0.27"]}]}],
  "sources": [{"name": "s", "type": "point", "at": [0.62, 1.43], "component": "Ez",
               "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.4}}],
  "monitors": [],
  "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 5}, "precision": "float64",
          "backend": "cpu", "stop": {"decay_db": 140}},
  "design": {
    "shape_parameters": [{"name": "w", "min": 0.3, "max": 1.0}, {"name": "yc", "min": 1.3, "max": 1.7}],
    "objective": {"terms": [{"point": [2.38, 1.61], "component": "Ez"}], "wavelengths_um": [1.55], "goal": "maximize"},
    "optimizer": {"algorithm": "mma", "max_iterations": 5}
  }})JSON";

}  // namespace golightly::test
