// Shared by the design-region GUI tests (tst_design_fixed, tst_design_robust): a Json
// comparison macro for Qt Test and the guide project they draw their region on (a silicon
// slab guide along x with a one-way mode source and input / output mode monitors, 0.05 um
// cells, TMz; no design section), and the same with the tests' design region.
#pragma once

#include <QPointF>
#include <QString>
#include <QtTest>

#include <vector>

#include "design_region.hpp"
#include "golightly/project.hpp"

/// QCOMPARE does not take Json (its number overloads collide): compare and print both.
#define COMPARE_JSON(actual, expected)                                                        \
    do {                                                                                      \
        const Json a_ = (actual), e_ = (expected);                                            \
        QVERIFY2(a_ == e_, qPrintable(QString::fromStdString(a_.dump() + " != " + e_.dump()))); \
    } while (false)

namespace golightly::test {
inline const char* kDesignGuide = R"JSON({"format": "golightly-project", "version": 1, "name": "guide",
  "domain": {"size": [3.6, 2.4], "cell_size": 0.05, "polarization": "TMz", "pml": {"cells": 12}},
  "materials": [{"id": "si", "epsilon_inf": 12.0}],
  "layers": [{"name": "wg", "material": "si", "shapes": [{"type": "rectangle", "min": [-1.0, 1.05], "max": [5.0, 1.35]}]}],
  "sources": [{"name": "in", "type": "line", "from": [0.8, 0.2], "to": [0.8, 2.2], "component": "Ez", "profile": "mode",
               "direction": "+x", "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.3}}],
  "monitors": [{"name": "input", "type": "flux", "kind": "mode", "from": [1.2, 0.2], "to": [1.2, 2.2], "direction": "+x"},
               {"name": "output", "type": "flux", "kind": "mode", "from": [2.7, 0.2], "to": [2.7, 2.2], "direction": "+x"}],
  "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 5}, "precision": "float64", "backend": "cpu"}})JSON";

/// kDesignGuide with the design region 1.5 .. 2.1 x 0.9 .. 1.5 um (0.1 um pixels, conic
/// filter 0.15 um, beta 2), `iterations` iterations at the wavelengths `wl` (um).
inline Project design_guide_with_region(int iterations, const std::vector<double>& wl = {1.55}) {
    Project p = parse_project(kDesignGuide, "guide.glproj");
    editor::set_design_box(p, QPointF(1.5, 0.9), QPointF(2.1, 1.5));
    Json& r = editor::design_region_mut(p);
    r["pixel_um"] = 0.1;
    r["filter"]["radius_um"] = 0.15;
    r["projection"]["beta"] = 2;
    editor::design_objective_mut(p)["wavelengths_um"] = wl;
    editor::design_optimizer_mut(p)["max_iterations"] = iterations;
    return p;
}

}  // namespace golightly::test
