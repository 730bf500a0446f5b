// Comparing the compiled metals of two scenes (run.subpixel_metal schemes; issue 49):
// tests/solver/test_metal_long_run.cpp runs a scheme once where two compile to the same
// scene, tests/solver/test_metal_subpixel.cpp's studies reuse its cross-sections.
#pragma once

#include <cstddef>

#include "golightly/engine.hpp"
#include "golightly/scene.hpp"

namespace golightly::metal_scenes {

/// True when `a` and `b` give an engine the same materials: every E cell's table entry
/// and the tensor couplings (engine.hpp same_materials), and per E component the same
/// dispersive cells, weights and pole-set coefficients (c1, c2, c3, m0, m1; bit-exact).
/// Grids, sources and monitors are not compared (the callers compile one project with
/// only run.subpixel_metal changed).
inline bool same_metal_scene(const Scene& a, const Scene& b) {
    if (!same_materials(a, b)) return false;
    for (int c = 0; c < 3; ++c) {
        const DispersiveCells &da = a.dispersive[c], &db = b.dispersive[c];
        if (da.cells != db.cells || da.weight != db.weight) return false;
        for (std::size_t k = 0; k < da.cells.size(); ++k) {
            const PoleSet &pa = a.pole_sets[da.pole_set[k]], &pb = b.pole_sets[db.pole_set[k]];
            if (pa.poles.size() != pb.poles.size()) return false;
            for (std::size_t m = 0; m < pa.poles.size(); ++m) {
                const PoleCoeffs &x = pa.poles[m], &y = pb.poles[m];
                if (x.c1 != y.c1 || x.c2 != y.c2 || x.c3 != y.c3 || x.m0 != y.m0 || x.m1 != y.m1) return false;
            }
        }
    }
    return true;
}

}  // namespace golightly::metal_scenes
