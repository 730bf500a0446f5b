// The 2D waveguide bend of the inverse-design benchmarks (Schubert et al., ACS Photonics 9,
// 2327 (2022), the ceviche challenges: a 90-degree bend through a 1.6 x 1.6 um design
// region between two silicon waveguides, TMz), as an adjoint::Problem: the objective is the
// mean over three wavelengths of the output guide's forward fundamental-mode power over the
// input guide's (the input monitor's forward |a|^2 at the first evaluation: the one-way
// mode source launches it whatever the design), i.e. the bend's transmission. Shared by the
// CPU slow test (tests/solver/test_adjoint_bend.cpp) and the GPU test
// (tests/gpu/cuda_adjoint.cpp). Header-only, namespace golightly::test.
#pragma once

#include <cmath>
#include <complex>
#include <memory>
#include <vector>

#include "golightly/adjoint.hpp"
#include "golightly/compile.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/project.hpp"
#include "adjoint_transmission.hpp"
#include "project_builders.hpp"

namespace golightly::test {

/// The bend project: interior 3.2 x 3.2 um, cell dx_um, 12 PML cells; silicon (eps 12)
/// guides 0.4 um wide: the input along x at y = 1.6 um, the output along y at x = 1.6 um;
/// the design box [0.8, 2.4]^2 um; a one-way mode source at x = 0.4 um; mode monitors "in"
/// (x = 0.6 um, +x) and "out" (y = 2.8 um, +y); spectrum 1.5, 1.55, 1.6 um.
inline Project bend_project(double dx_um, BackendChoice backend, Precision precision = Precision::Float64) {
    Project p;
    p.name = "bend";
    p.domain.size = {3.2, 3.2, 0};
    p.domain.cell_size = dx_um;
    p.domain.polarization = Polarization::TMz;
    p.domain.pml.cells = 12;
    p.materials = {material("si", 12.0)};
    p.layers = {layer("guides", "si", {rectangle({-1.0, 1.4}, {0.8, 1.8}), rectangle({1.4, 2.4}, {1.8, 4.2})})};
    p.sources = {mode_line_source("src", {0.4, 0.6}, {0.4, 2.6}, "+x")};
    p.monitors = {mode_line_monitor("in", {0.6, 0.6}, {0.6, 2.6}, "+x"),
                  mode_line_monitor("out", {0.6, 2.8}, {2.6, 2.8}, "+y")};
    p.run.spectrum.wavelength_min = 1.5;
    p.run.spectrum.wavelength_max = 1.6;
    p.run.spectrum.points = 3;
    p.run.precision = precision;
    p.run.backend = backend;
    return p;
}

/// The bend as an adjoint problem. Functionals: 0 the output's forward mode amplitude, 1
/// the input's forward one (normalization), 2 the input's backward one (reflection; not in
/// the objective). The objective T = mean_f |a0_f|^2 / P_f with P_f = |a1_f|^2 of the first
/// evaluation (shared by every copy of the problem). `pixel_um`: the density pixel edge.
inline adjoint::Problem bend_problem(double dx_um, double pixel_um, BackendChoice backend,
                                     Precision precision = Precision::Float64) {
    const CompiledProject cp = compile_project(bend_project(dx_um, backend, precision), "bend.glproj");
    const ModeMonitorPlan& pin = *cp.monitors.at(0).mode_plan;
    const ModeMonitorPlan& pout = *cp.monitors.at(1).mode_plan;
    const std::vector<std::size_t> fi = {0, 1, 2};
    return transmission_problem(cp, pin.frequencies_hz, 0.8, 2.4, pixel_um, 1.0, 12.0,
                                {adjoint::mode_functional(cp.scene, pout, 0, true, fi, "out+"),
                                 adjoint::mode_functional(cp.scene, pin, 0, true, fi, "in+"),
                                 adjoint::mode_functional(cp.scene, pin, 0, false, fi, "in-")},
                                backend, precision);
}

/// Transmission and reflection per frequency of an evaluation of bend_problem.
struct BendSpectra {
    std::vector<double> T, R;
};
inline BendSpectra bend_spectra(const adjoint::Evaluation& ev) {
    BendSpectra s;
    for (std::size_t f = 0; f < ev.amplitudes[0].size(); ++f) {
        const double inc = std::norm(ev.amplitudes[1][f]);
        s.T.push_back(std::norm(ev.amplitudes[0][f]) / inc);
        s.R.push_back(std::norm(ev.amplitudes[2][f]) / inc);
    }
    return s;
}

}  // namespace golightly::test
