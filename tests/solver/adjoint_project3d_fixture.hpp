// A tiny 3D inverse-design project shared by test_adjoint_project3d.cpp: a 220 x 440 nm
// silicon strip (eps 12) in oxide (eps 2.1) along x, staircased on 55 nm cells (4 x 8
// cells; run.subpixel_averaging false, so the mode planes cross no tensor couplings and the
// adjoint gradient is that of the staircased structure), 6 PML cells, 44 x 30 x 28 cells in
// all; a one-way TE0 mode source at x = 0.22 um, the input mode monitor at 0.44 um, a
// 0.33 x 0.55 x 0.22 um design region across the strip (0.11 um pixels: 3 x 5 x 2) and the
// output mode monitor at 1.43 um; one wavelength, two MMA iterations.
#pragma once

namespace golightly::test {

inline const char* kAdjointStrip3d = R"JSON({"format": "golightly-project", "version": 1, "name": "adjoint strip 3d",
  "domain": {"dimensions": 3, "size": [1.76, 0.99, 0.88], "cell_size": 0.055, "background": "sio2",
             "boundaries": {"x": "pml", "y": "pml", "z": "pml"}, "pml": {"cells": 6}},
  "materials": [{"id": "si", "epsilon_inf": 12.0}, {"id": "sio2", "epsilon_inf": 2.1}],
  "layers": [{"name": "core", "material": "si", "z": [0.33, 0.55],
              "shapes": [{"type": "rectangle", "min": [-1.0, 0.275], "max": [3.0, 0.715]}]}],
  "sources": [{"name": "in", "type": "plane", "center": [0.22, 0.495, 0.44], "size": [0.0, 0.99, 0.88],
               "profile": "mode", "mode_index": 0, "direction": "+x",
               "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.6}}],
  "monitors": [{"name": "input", "type": "flux", "kind": "mode", "center": [0.44, 0.495, 0.44], "size": [0.0, 0.99, 0.88],
                "direction": "+x"},
               {"name": "output", "type": "flux", "kind": "mode", "center": [1.43, 0.495, 0.44], "size": [0.0, 0.99, 0.88],
                "direction": "+x"}],
  "run": {"spectrum": {"wavelength_min": 1.5, "wavelength_max": 1.6, "points": 3}, "precision": "float64",
          "backend": "cpu", "subpixel_averaging": false, "stop": {"max_time_fs": 2000}},
  "design": {
    "regions": [{"name": "dr", "min": [0.66, 0.22, 0.33], "max": [0.99, 0.77, 0.55], "pixel_um": 0.11,
                 "materials": ["sio2", "si"], "rho": 0.5, "filter": {"kind": "conic", "radius_um": 0.12},
                 "projection": {"beta": 2, "eta": 0.5}}],
    "objective": {"terms": [{"monitor": "output", "mode": 0, "direction": "forward"}],
                  "wavelengths_um": [1.55], "normalize_by": "input", "goal": "maximize"},
    "optimizer": {"algorithm": "mma", "max_iterations": 2}
  }})JSON";

}  // namespace golightly::test
