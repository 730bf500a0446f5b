// Small adjoint problems (adjoint.hpp) shared by the CPU tests (tests/solver/test_adjoint.cpp)
// and the CUDA tests (tests/gpu/cuda_adjoint.cpp): a 2D TMz point source beside a 4 x 4
// pixel design region with a dielectric strip, a 2D TEz one with complex functional
// weights, a 3D dipole one; random densities and the finite-difference directional
// derivative. Header-only, namespace golightly::test.
#pragma once

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "engine3d_scenes.hpp"
#include "golightly/adjoint.hpp"
#include "golightly/units.hpp"
#include "test_scenes.hpp"

namespace golightly::test {

using adjoint::Problem;

constexpr double kLambdaUm = 1.55;

inline double freq_hz(double lambda_um) { return units::c0 / (lambda_um * units::um); }

inline std::vector<double> random_density(std::size_t n, unsigned seed, double lo = 0.2, double hi = 0.8) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (double& x : v) x = u(rng);
    return v;
}

/// Directional derivative by central differences and by the adjoint along `dir`.
struct Check {
    double fd = 0, adj = 0, F = 0;
};

inline Check directional(const Problem& p, const std::vector<double>& rho, const std::vector<double>& gradient,
                         const std::vector<double>& dir, double h = 1e-3) {
    std::vector<double> plus = rho, minus = rho;
    for (std::size_t k = 0; k < rho.size(); ++k) plus[k] += h * dir[k], minus[k] -= h * dir[k];
    Check c;
    c.fd = (adjoint::evaluate(p, plus).objective - adjoint::evaluate(p, minus).objective) / (2 * h);
    for (std::size_t k = 0; k < rho.size(); ++k) c.adj += gradient[k] * dir[k];
    return c;
}

/// 2D TMz: an Ez point source, a glass strip (eps 2.25) across the domain, a 4 x 4 pixel
/// region (eps 1..4), |Ez|^2 at a probe at 1.5 and 1.6 um (weights 1 and 0.5).
inline Problem tmz_problem(BackendChoice backend = BackendChoice::Cpu) {
    SceneSpec spec;
    spec.nx = spec.ny = 70;
    spec.pml_cells = 12;
    spec.dx_um = 0.05;
    spec.polarization = Polarization::TMz;
    // a dielectric background strip outside the design region, so the structure is not vacuum
    spec.eps_r = [](Component, int, int j) { return (j >= 30 && j < 36) ? 2.25 : 1.0; };
    Problem p;
    p.scene = make_scene(spec);
    const double f0 = freq_hz(kLambdaUm);
    add_point_source(p.scene, Component::Ez, 12 + 8, 33, gaussian_pulse(f0, 4.0 / (2 * units::pi * 0.2 * f0)));
    p.region.lo_um = {0.9, 0.8, 0};
    p.region.hi_um = {1.5, 1.4, 0};
    p.region.n = {4, 4, 1};
    p.region.eps_min = 1.0;
    p.region.eps_max = 4.0;
    p.functionals = {adjoint::point_functional(p.scene, Component::Ez, {1.95, 1.05, 0}, "probe")};
    p.frequencies_hz = {freq_hz(1.5), freq_hz(1.6)};
    p.objective = adjoint::intensity_objective({{1.0, 0.5}});
    p.settings.backend = backend;
    return p;
}


/// 2D TEz: an Ey point source, a 3 x 5 pixel region (eps 2..6), the functional
/// Ey(p1) + (0.3 - 0.6 i) Ex(p2) at 1.55 um (complex weights: a complex adjoint run).
/// tmz_problem with 6 x 6 density pixels (0.1 um) and runs to 1e-8 of the peak energy: the
/// optimizer tests' problem, a few MMA evaluations in seconds.
inline Problem small_tmz_problem() {
    Problem p = tmz_problem();
    p.region.n = {6, 6, 1};
    p.settings.decay = 1e-8;
    return p;
}

inline Problem tez_problem(BackendChoice backend = BackendChoice::Cpu) {
    SceneSpec spec;
    spec.nx = spec.ny = 64;
    spec.pml_cells = 12;
    spec.dx_um = 0.05;
    spec.polarization = Polarization::TEz;
    Problem p;
    p.scene = make_scene(spec);
    const double f0 = freq_hz(kLambdaUm);
    add_point_source(p.scene, Component::Ey, 20, 32, gaussian_pulse(f0, 4.0 / (2 * units::pi * 0.2 * f0)));
    p.region.lo_um = {0.8, 0.6, 0};
    p.region.hi_um = {1.3, 1.4, 0};
    p.region.n = {3, 5, 1};
    p.region.eps_min = 2.0;
    p.region.eps_max = 6.0;
    // a = Ey(p1) + (0.3 - 0.6 i) Ex(p2): complex weights make the adjoint run complex
    adjoint::FieldFunctional f = adjoint::point_functional(p.scene, Component::Ey, {1.7, 1.0, 0}, "mix");
    const adjoint::FieldFunctional fx = adjoint::point_functional(p.scene, Component::Ex, {1.7, 1.3, 0});
    f.component.push_back(fx.component[0]);
    f.cell.push_back(fx.cell[0]);
    f.weights.push_back({0.3, -0.6});
    p.functionals = {f};
    p.frequencies_hz = {freq_hz(1.55)};
    p.objective = adjoint::intensity_objective();
    p.settings.backend = backend;
    return p;
}

/// 3D: an Ez dipole beside a 2 x 2 x 2 pixel region (eps 1..3) in a 24^3 box (6 PML cells),
/// |Ez|^2 at a point at 1.55 um.
inline Problem problem3d(BackendChoice backend = BackendChoice::Cpu) {
    Spec3 spec;
    spec.nx = spec.ny = spec.nz = 24;
    spec.pml = 6;
    spec.dx_um = 0.06;
    Problem p;
    p.scene = make3(spec);
    const double f0 = freq_hz(kLambdaUm);
    add_point_sources(p.scene, {Component::Ez}, cell3(p.scene, 8, 12, 12),
                      gaussian_pulse(f0, 4.0 / (2 * units::pi * 0.2 * f0)));
    p.region.lo_um = {0.24, 0.18, 0.18};
    p.region.hi_um = {0.48, 0.42, 0.42};
    p.region.n = {2, 2, 2};
    p.region.eps_min = 1.0;
    p.region.eps_max = 3.0;
    p.functionals = {adjoint::point_functional(p.scene, Component::Ez, {0.6, 0.36, 0.36}, "probe")};
    p.frequencies_hz = {freq_hz(1.55)};
    p.objective = adjoint::intensity_objective();
    p.settings.backend = backend;
    return p;
}

}  // namespace golightly::test
