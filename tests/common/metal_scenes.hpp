// Comparing the compiled metals of two scenes (run.subpixel_metal schemes; issue 49):
// tests/solver/test_metal_long_run.cpp runs a scheme once where two compile to the same
// scene, tests/solver/test_metal_subpixel.cpp's studies reuse its cross-sections.
#pragma once

#include <cmath>
#include <cstddef>

#include "golightly/engine.hpp"
#include "golightly/scene.hpp"

namespace golightly::metal_scenes {

/// True when `a` and `b` give an engine the same materials: every E cell's table entry (ca,
/// cb, eps_r, sigma: equal within `rel_tol` relative, 0 = bit-exact), the tensor couplings
/// (engine.hpp same_anisotropic, exact), and per E component the same dispersive cells,
/// weights and pole-set coefficients (c1, c2, c3, m0, m1; bit-exact). Grids, sources and
/// monitors are not compared (the callers compile one project with only
/// run.subpixel_metal changed). rel_tol exists for the coverage's float32 fractions: two
/// materials of eps 1 can average to 1 - 6e-8 in a cut cell under one scheme and to 1
/// (the material whole) under another.
inline bool same_metal_scene(const Scene& a, const Scene& b, double rel_tol = 0.0) {
    if (a.cells() != b.cells() || !same_anisotropic(a.anisotropic, b.anisotropic)) return false;
    auto close = [rel_tol](double x, double y) { return x == y || std::abs(x - y) <= rel_tol * std::abs(x); };
    for (int c = 0; c < 3; ++c) {
        if (a.material_index[c].size() != b.material_index[c].size()) return false;
        for (std::size_t k = 0; k < a.material_index[c].size(); ++k) {
            const EUpdateCoeffs &x = a.table[a.material_index[c][k]], &y = b.table[b.material_index[c][k]];
            if (!close(x.ca, y.ca) || !close(x.cb, y.cb) || !close(x.eps_r, y.eps_r) || !close(x.sigma, y.sigma))
                return false;
        }
    }
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
