// Test helper: how far one engine's fields are from another's, field by field.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "golightly/engine.hpp"
#include "golightly/scene.hpp"
#include "partition_projects.hpp"

namespace golightly::test {

/// max over E and H of (max_k |b_c[k] - a_c[k]| over the field's components c) / (max_k
/// |a_c[k]|, likewise): the fields of `b` against those of the reference `a`, each relative
/// to the largest value of its field (E or H) in `a`, so that a component that is zero but
/// for rounding (an s-polarized wave has no Ex, Ez, Hy) is compared at its field's scale.
/// Every component of parttest::components_of(scene), the whole grid (Engine::get_field order).
/// `before_read_a` runs before each read of `a` (e.g. making a CUDA engine's device
/// current again). REQUIREs equal sizes and a non-zero scale of each field.
inline double field_deviation(Engine& a, Engine& b, const Scene& scene,
                              const std::function<void()>& before_read_a = {}) {
    double scale[2] = {0, 0}, diff[2] = {0, 0};
    std::vector<double> va, vb;
    for (Component c : parttest::components_of(scene)) {
        if (before_read_a) before_read_a();
        a.get_field(c, va);
        b.get_field(c, vb);
        REQUIRE(va.size() == vb.size());
        const int h = int(c) >= 3 ? 1 : 0;
        for (std::size_t k = 0; k < va.size(); ++k) {
            scale[h] = std::max(scale[h], std::abs(va[k]));
            diff[h] = std::max(diff[h], std::abs(vb[k] - va[k]));
        }
    }
    double worst = 0;
    for (int h = 0; h < 2; ++h) {
        REQUIRE(scale[h] > 0);
        worst = std::max(worst, diff[h] / scale[h]);
    }
    return worst;
}

/// The DFT sets of `b` against those of `a` as field_deviation compares the fields: max
/// over E and H sets of the largest |difference| over the largest |value| of `a`'s sets of
/// that field; a field without non-zero sets counts 0. Every set of scene.dft_sets.
/// `before_read_a` as in field_deviation.
inline double dft_deviation(Engine& a, Engine& b, const Scene& scene, const std::function<void()>& before_read_a = {}) {
    double scale[2] = {0, 0}, diff[2] = {0, 0};
    for (std::size_t set = 0; set < scene.dft_sets.size(); ++set) {
        if (before_read_a) before_read_a();
        const auto x = a.dft(int(set));
        const auto y = b.dft(int(set));
        REQUIRE(x.size() == y.size());
        const int h = int(scene.dft_sets[set].component) >= 3 ? 1 : 0;
        for (std::size_t k = 0; k < x.size(); ++k) {
            scale[h] = std::max(scale[h], std::abs(x[k]));
            diff[h] = std::max(diff[h], std::abs(y[k] - x[k]));
        }
    }
    double worst = 0;
    for (int h = 0; h < 2; ++h)
        if (scale[h] > 0) worst = std::max(worst, diff[h] / scale[h]);
    return worst;
}

}  // namespace golightly::test
