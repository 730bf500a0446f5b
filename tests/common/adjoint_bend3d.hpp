// The 3D validation problem of issue 53: a 90-degree bend between two silicon strip guides
// of 220 nm SOI (500 x 220 nm cores, eps 12.1, in oxide, eps 2.085, above and below: an
// oxide top cladding), through a 2.2 x 2.2 um design region as thick as the core, optimized
// for the mean forward TE0 transmission over 1.50, 1.55 and 1.60 um. The set-up is ours: the
// 2D bend of Schubert et al., ACS Photonics 9, 2327 (2022) (tests/common/adjoint_bend.hpp)
// lifted to the strip geometry of Meep's and Tidy3D's 3D SOI inverse-design examples (a
// 220 nm device layer, TE0 in and out, the design region spanning the device layer only),
// with our own dimensions. Shared by the CPU tests (tests/solver/test_adjoint_bend3d.cpp) and
// the GPU optimization (tests/gpu/cuda_adjoint_bend3d.cpp). Header-only, namespace
// golightly::test.
//
// Geometry (um, interior coordinates; PML cells outside): interior 3.8 x 3.8 x 1.5; core
// z in [0.64, 0.86]; the input strip along x, |y - 1.9| < 0.25, from x = -1 to 0.9; the
// output strip along y, |x - 1.9| < 0.25, from y = 2.9 to 4.8 (both reach 0.1 um into the
// design box, where the design replaces them, as in adjoint_converter.hpp); the design box
// x, y in [0.8, 3.0], z the core's. A one-way TE0 mode source (a plane at x = 0.3, +x), the
// mode monitors "in" (x = 0.5, +x) and "out" (y = 3.3, +y); their windows 2.0 um wide
// across the strip and z in [0.1, 1.4] (PEC walls 0.54 um from the core, where the TE0
// field has decayed to ~1e-2 of its peak; the same window everywhere, so the modes of all
// planes are the same). Staircased (run.subpixel_averaging false): no sub-pixel tensor
// couplings cross the mode planes, so the adjoint gradient is exact (adjoint.hpp
// mode_functional's 3D caveat).
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "adjoint_bend.hpp"
#include "golightly/adjoint.hpp"
#include "golightly/adjoint_optimize.hpp"
#include "golightly/design_density.hpp"
#include "golightly/compile.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/project.hpp"
#include "adjoint_transmission.hpp"
#include "project_builders.hpp"

namespace golightly::test {

constexpr double kBend3dEpsSi = 12.1;     ///< silicon at 1.55 um (n = 3.48)
constexpr double kBend3dEpsOx = 2.085;    ///< oxide at 1.55 um (n = 1.444)
constexpr double kBend3dBoxLo = 0.8;      ///< design box, x and y, um
constexpr double kBend3dBoxHi = 3.0;
constexpr double kBend3dGuide = 1.9;      ///< the input strip's y and the output strip's x, um
constexpr double kBend3dZ0 = 0.64;        ///< the core's z range, um
constexpr double kBend3dZ1 = 0.86;

/// The bend project (header comment) with cell dx_um and `pml_cells` CPML cells, spectrum
/// 1.50, 1.55, 1.60 um, stopped at 80 dB or 3000 fs. `straight`: the reference instead: the
/// input strip continues straight along x through the whole domain (no output strip) and
/// the "out" monitor is the plane x = 3.3 (+x), 2.8 um after "in", as the bend's is along
/// the guide's axis.
inline Project bend3d_project(double dx_um, BackendChoice backend, Precision precision, int pml_cells = 12,
                              bool straight = false) {
    const double g = kBend3dGuide, w = 0.25, zc = 0.75;
    Project p;
    p.name = straight ? "bend3d straight" : "bend3d";
    p.domain.dimensions = 3;
    p.domain.size = {3.8, 3.8, 1.5};
    p.domain.cell_size = dx_um;
    p.domain.pml.cells = pml_cells;
    p.domain.background = "sio2";
    p.materials = {material("si", kBend3dEpsSi), material("sio2", kBend3dEpsOx)};
    if (straight)
        p.layers = {layer("core", "si", {box({-1.0, g - w, kBend3dZ0}, {4.8, g + w, kBend3dZ1})})};
    else
        p.layers = {layer("core", "si",
                          {box({-1.0, g - w, kBend3dZ0}, {kBend3dBoxLo + 0.1, g + w, kBend3dZ1}),
                           box({g - w, kBend3dBoxHi - 0.1, kBend3dZ0}, {g + w, 4.8, kBend3dZ1})})};
    Source s;
    s.name = "src";
    s.type = SourceType::Plane;
    s.profile = SourceProfile::Mode;
    s.mode_index = 0;
    s.direction = "+x";
    s.center = {0.3, g, zc};
    s.size = {0.0, 2.0, 1.3};
    s.waveform.type = WaveformType::GaussianPulse;
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.3;
    p.sources = {s};
    auto plane = [](const std::string& name, Vec3 c, Vec3 size, const std::string& dir) {
        Monitor m;
        m.name = name;
        m.type = MonitorType::Flux;
        m.kind = "mode";
        m.center = c;
        m.size = size;
        m.direction = dir;
        return m;
    };
    p.monitors = {plane("in", {0.5, g, zc}, {0.0, 2.0, 1.3}, "+x"),
                  straight ? plane("out", {3.3, g, zc}, {0.0, 2.0, 1.3}, "+x")
                           : plane("out", {g, 3.3, zc}, {2.0, 0.0, 1.3}, "+y")};
    p.run.spectrum.wavelength_min = 1.5;
    p.run.spectrum.wavelength_max = 1.6;
    p.run.spectrum.points = 3;
    p.run.precision = precision;
    p.run.backend = backend;
    p.run.subpixel_averaging = false;
    p.run.stop.decay_db = 80;
    p.run.stop.max_time_fs = 3000;
    return p;
}

/// The bend as an adjoint problem over the design box, pixels of edge pixel_um in x and y.
/// `extruded` true: one pixel through the core's 220 nm (n[2] = 1, the density the same at
/// every z: the fabricable design; adjoint::evaluate and evaluate_with_gradient take it);
/// false: cubic pixels (n[2] = 0.22 / pixel_um, which must be a whole number), what
/// adjoint::optimize_density needs (its density_grid refuses non-cubic pixels, so it cannot
/// optimize an extruded 3D design). `fi`: the spectrum's frequencies in the objective
/// (indices into 1.50, 1.55, 1.60 um; all three by default). Functionals: 0 the output's
/// forward TE0 amplitude, 1 the input's forward TE0 (normalization), 2 the input's backward
/// TE0 (reflection; not in the objective). T = mean_f |a0_f|^2 / P_f, P_f = |a1_f|^2 of the
/// first evaluation (adjoint_transmission.hpp). Throws std::invalid_argument (from
/// compile or map_design) for a grid that leaves the box without sites.
inline adjoint::Problem bend3d_problem(double dx_um, double pixel_um, BackendChoice backend, Precision precision,
                                       bool extruded, std::vector<std::size_t> fi = {0, 1, 2}, int pml_cells = 12) {
    const CompiledProject cp = compile_project(bend3d_project(dx_um, backend, precision, pml_cells), "bend3d.glproj");
    const ModeMonitorPlan& pin = *cp.monitors.at(0).mode_plan;
    const ModeMonitorPlan& pout = *cp.monitors.at(1).mode_plan;
    std::vector<double> freqs;
    for (std::size_t f : fi) freqs.push_back(pin.frequencies_hz.at(f));
    adjoint::Problem p = transmission_problem(cp, freqs, kBend3dBoxLo, kBend3dBoxHi, pixel_um, kBend3dEpsOx,
                                              kBend3dEpsSi,
                                              {adjoint::mode_functional(cp.scene, pout, 0, true, fi, "out+ TE0"),
                                               adjoint::mode_functional(cp.scene, pin, 0, true, fi, "in+ TE0"),
                                               adjoint::mode_functional(cp.scene, pin, 0, false, fi, "in- TE0")},
                                              backend, precision);
    p.region.lo_um[2] = kBend3dZ0;
    p.region.hi_um[2] = kBend3dZ1;
    p.region.n[2] = extruded ? 1 : int(std::lround((kBend3dZ1 - kBend3dZ0) / pixel_um));
    return p;
}

/// Transmission (TE0 out over TE0 in) and reflection (TE0 back into the input) per
/// frequency of an evaluation of bend3d_problem, over the input's forward TE0 power of that
/// evaluation.
/// Its functionals are laid out as the 2D bend's (transmission_problem: 0 the transmitted
/// amplitude, 1 the incident one, 2 the reflected one), so bend_spectra reads it.
using Bend3dSpectra = BendSpectra;
inline Bend3dSpectra bend3d_spectra(const adjoint::Evaluation& ev) { return bend_spectra(ev); }

/// What optimize_bend3d found: the optimizer's history and final variables, and the
/// verifying forward runs of three designs made from them (T and R per frequency): the
/// density projected at beta = infinity (as the optimizer saw it at the end of an
/// infinity step), that projection thresholded at 1/2 (0/1 pixels), and the thresholded
/// design made uniform in z (each (x, y) column's majority, one pixel through the core:
/// the extruded, fabricable design; for an extruded optimization the thresholded design
/// itself). `mixed_columns`: the columns whose thresholded pixels differ along z.
struct Bend3dOptimization {
    adjoint::OptimizeResult result;
    Bend3dSpectra projected, binary, extruded;
    std::size_t mixed_columns = 0, columns = 0;
    double total_s = 0;     ///< the evaluations' wall time, s
    long long steps = 0;    ///< their forward + adjoint steps
    /// true: stopped at `stop_after_s` before the last iteration, so the verifying runs were
    /// not made (projected, binary and extruded are empty); the checkpoint of the settings
    /// (OptimizerSettings::checkpoint) resumes it
    bool paused = false;
    int next_iteration = 0;  ///< the index the next evaluation would have (over resumed calls)
};

/// Optimizes bend3d_problem(dx_um, pixel_um, backend, precision, extruded, all three
/// wavelengths, pml_cells) from rho = 0.5 with `settings` (extruded: one pixel through the
/// core, a 2D density filtered in x and y; else cubic pixels, a 3D density; pixel_um must
/// divide the box's 2.2 um, and the core's 0.22 um when not extruded), the runs stopped at
/// `decay` of the peak energy, printing each iteration under `tag`; then the verifying runs
/// of Bend3dOptimization at decay 1e-8. With settings.checkpoint set, a call resumes where
/// the checkpoint left off and ends after the evaluation of index settings.max_iterations - 1
/// counted over all calls, or, with
/// stop_after_s > 0, after the first evaluation that ends past that many seconds of this
/// call's evaluations (Bend3dOptimization::paused: a run longer than one time-limited process
/// goes on in the next). Throws what optimize_density and evaluate throw (std::runtime_error
/// without NLopt).
inline Bend3dOptimization optimize_bend3d(const char* tag, double dx_um, double pixel_um, BackendChoice backend,
                                          Precision precision,
                                          const adjoint::OptimizerSettings& settings, int pml_cells = 12,
                                          double decay = 1e-8, bool extruded = true, double stop_after_s = 0) {
    adjoint::Problem p = bend3d_problem(dx_um, pixel_um, backend, precision, extruded, {0, 1, 2}, pml_cells);
    p.settings.decay = decay;
    Bend3dOptimization o;
    // A resumed call does the evaluations left of max_iterations (the optimizer's limit
    // counts one call's); ended by that limit rather than by the callback, NLopt returns its
    // best design of the last beta, as in one uninterrupted call.
    adjoint::OptimizerSettings call = settings;
    if (!settings.checkpoint.empty() && std::filesystem::exists(settings.checkpoint)) {
        std::ifstream in(settings.checkpoint);
        const int done = nlohmann::json::parse(in).at("next_iteration").get<int>();
        call.max_iterations = std::max(1, settings.max_iterations - done);
    }
    o.result = adjoint::optimize_density(p, std::vector<double>(p.region.pixels(), 0.5), call,
                                         [&](const adjoint::Iteration& it) {
                                             o.total_s += it.wall_s;
                                             o.steps += it.steps;
                                             o.next_iteration = it.index + 1;
                                             std::printf("%s iteration %d beta %g T %.4f (%.2f s, %lld steps)\n", tag,
                                                         it.index, it.beta, it.objective, it.wall_s, it.steps);
                                             std::fflush(stdout);
                                             o.paused = stop_after_s > 0 && o.total_s > stop_after_s &&
                                                        o.next_iteration < settings.max_iterations;
                                             return !o.paused;
                                         });
    const std::size_t n = o.result.history.size();
    std::printf("%s: %zu iterations in %.1f s (%.3f s per iteration, %lld steps)%s\n", tag, n, o.total_s,
                n ? o.total_s / double(n) : 0.0, o.steps, o.paused ? ", paused" : "");
    if (o.paused) return o;
    design::DesignMapping binary = settings.mapping;
    binary.beta = std::numeric_limits<double>::infinity();
    design::DensityGrid grid = adjoint::density_grid(p.region, 3);
    grid.rho = o.result.rho;
    const std::vector<double> projected = design::map_density(grid, binary);
    std::vector<double> hard(projected.size());
    for (std::size_t k = 0; k < hard.size(); ++k) hard[k] = projected[k] >= 0.5 ? 1.0 : 0.0;
    const int nz = p.region.n[2];
    o.columns = std::size_t(p.region.n[0]) * std::size_t(p.region.n[1]);
    std::vector<double> column(o.columns);
    for (std::size_t c = 0; c < o.columns; ++c) {
        int solid = 0;
        for (int k = 0; k < nz; ++k) solid += hard[std::size_t(k) * o.columns + c] > 0.5;
        column[c] = 2 * solid > nz ? 1.0 : 0.0;
        o.mixed_columns += solid != 0 && solid != nz;
    }
    p.settings.decay = 1e-8;
    o.projected = bend3d_spectra(adjoint::evaluate(p, projected));
    o.binary = bend3d_spectra(adjoint::evaluate(p, hard));
    if (extruded) {
        o.extruded = o.binary;  // one pixel along z: the thresholded design is the extruded one
    } else {
        adjoint::Problem ex = bend3d_problem(dx_um, pixel_um, backend, precision, true, {0, 1, 2}, pml_cells);
        ex.settings.decay = 1e-8;
        o.extruded = bend3d_spectra(adjoint::evaluate(ex, column));
    }
    std::printf("%s binarized: %zu of %zu columns not uniform in z\n", tag, o.mixed_columns, o.columns);
    for (std::size_t f = 0; f < o.binary.T.size(); ++f)
        std::printf("%s binarized: frequency %zu T %.4f R %.2e (beta=inf density T %.4f, extruded T %.4f R %.2e)\n",
                    tag, f, o.binary.T[f], o.binary.R[f], o.projected.T[f], o.extruded.T[f], o.extruded.R[f]);
    return o;
}

}  // namespace golightly::test
