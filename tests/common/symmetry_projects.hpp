// Projects and the whole-vs-reduced comparison of the symmetry tests (#51 item 1), shared
// by the CPU suite (tests/solver/test_symmetry.cpp) and the GPU suite
// (tests/gpu/cuda_symmetry.cpp). Why the tolerance is 1e-6: test_symmetry.cpp's top comment.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <string>

#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "project_builders.hpp"
#include "../solver/test_3d_projects.hpp"

namespace golightly::test {


constexpr double kSymmetryTol = 1e-6;

inline Monitor probe(const std::string& name, Vec2 at, Component c, std::optional<double> z = std::nullopt) {
    Monitor m;
    m.name = name;
    m.type = MonitorType::Time;
    m.at = at;
    m.at_z = z;
    m.component = c;
    return m;
}

/// max |a - b| over max |b| of two equal-length series.
template <typename T>
inline double rel_diff(const std::vector<T>& a, const std::vector<T>& b) {
    REQUIRE(a.size() == b.size());
    REQUIRE(!a.empty());
    double d = 0, m = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        d = std::max(d, double(std::abs(a[i] - b[i])));
        m = std::max(m, double(std::abs(b[i])));
    }
    REQUIRE(m > 0);
    return d / m;
}

/// Runs `p` whole and with `sym`, and compares every flux spectrum, time series and DFT
/// field map; returns the largest relative difference seen.
inline double whole_vs_reduced(Project p, std::array<int, 3> sym, RunResult* reduced_out = nullptr,
                               BackendChoice backend = BackendChoice::Cpu, Precision precision = Precision::Float64,
                               double tol = kSymmetryTol) {
    p.run.precision = precision;
    p.run.backend = backend;
    RunOptions o;
    o.threads = 2;
    const RunResult whole = run_project(p, "whole.glproj", o);
    p.domain.symmetry = sym;
    const RunResult half = run_project(p, "half.glproj", o);
    REQUIRE(half.steps == whole.steps);
    double worst = 0;
    REQUIRE(half.spectra.size() == whole.spectra.size());
    for (std::size_t k = 0; k < whole.spectra.size(); ++k) {
        const double d = rel_diff(half.spectra[k].flux, whole.spectra[k].flux);
        INFO("flux monitor " << whole.spectra[k].name << ": " << d);
        CHECK(d < tol);
        worst = std::max(worst, d);
    }
    REQUIRE(half.time_series.size() == whole.time_series.size());
    for (std::size_t k = 0; k < whole.time_series.size(); ++k) {
        const double d = rel_diff(half.time_series[k].values, whole.time_series[k].values);
        INFO("time monitor " << whole.time_series[k].name << ": " << d);
        CHECK(d < tol);
        worst = std::max(worst, d);
    }
    REQUIRE(half.dft_fields.size() == whole.dft_fields.size());
    for (std::size_t k = 0; k < whole.dft_fields.size(); ++k)
        for (std::size_t c = 0; c < whole.dft_fields[k].values.size(); ++c) {
            const double d = rel_diff(half.dft_fields[k].values[c], whole.dft_fields[k].values[c]);
            INFO("dft_field " << whole.dft_fields[k].name << " component " << c << ": " << d);
            CHECK(d < tol);
            worst = std::max(worst, d);
        }
    if (reduced_out) *reduced_out = half;
    return worst;
}

/// A 2D slab guide along x (eps 12, 0.3 um wide) centred in y, fed by its one-way mode
/// source; flux lines across the whole guide, across its upper and its lower half only,
/// and probes on both sides of the plane; a DFT field map of a corner region below the
/// plane. Ly = 2.05 um (41 cells, odd: the plane on H nodes) for TMz, 2.0 um (40) for TEz.
inline Project slab_2d(Polarization pol) {
    const double dx = 0.05, Lx = 3.0, Ly = pol == Polarization::TMz ? 2.05 : 2.0, yc = Ly / 2;
    Project p;
    p.name = "slab";
    p.domain.dimensions = 2;
    p.domain.size = {Lx, Ly, 0};
    p.domain.cell_size = dx;
    p.domain.polarization = pol;
    p.domain.pml.cells = 12;
    p.materials.push_back(material("si", 12.0));
    Layer l;
    l.name = "guide";
    l.material = "si";
    l.shapes.push_back(rectangle({-1, yc - 0.15}, {Lx + 1, yc + 0.15}));
    p.layers.push_back(l);
    Source s;
    s.name = "mode";
    s.type = SourceType::Line;
    s.profile = SourceProfile::Mode;
    s.from = {0.6, yc - 0.8};
    s.to = {0.6, yc + 0.8};
    s.direction = "+x";
    s.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    s.waveform = test3d::pulse_for(1.3, 1.8);
    p.sources.push_back(s);
    p.monitors.push_back(flux_line("through", {2.4, yc - 0.8}, {2.4, yc + 0.8}, "+x"));
    p.monitors.push_back(flux_line("upper", {1.8, yc + 0.05}, {1.8, yc + 0.7}, "+x"));
    p.monitors.push_back(flux_line("lower", {1.8, yc - 0.7}, {1.8, yc - 0.05}, "+x"));
    const Component pc = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    p.monitors.push_back(probe("below", {2.0, yc - 0.33}, pc));
    p.monitors.push_back(probe("above", {2.0, yc + 0.33}, pc));
    Monitor f;
    f.name = "map";
    f.type = MonitorType::DftField;
    f.min = Vec2{1.0, 0.2};
    f.max = Vec2{2.0, yc + 0.3};
    f.wavelengths = {1.55};
    f.components = pol == Polarization::TMz ? std::vector<Component>{Component::Ez, Component::Hx, Component::Hy}
                                            : std::vector<Component>{Component::Hz, Component::Ex, Component::Ey};
    p.monitors.push_back(f);
    p.run.spectrum = {1.3, 1.8, 21};
    p.run.stop.decay_db = 40;
    p.run.stop.max_time_fs = 300;
    return p;
}


/// A layer "sphere" of material `mat`: one sphere of radius r (um) centred at c.
inline Layer sphere_layer(const Vec3& c, double r, const std::string& mat) {
    Layer l;
    l.name = "sphere";
    l.material = mat;
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = c;
    s.radius = r;
    l.shapes.push_back(s);
    return l;
}

/// A z dipole at the centre of a dielectric sphere (eps 4, r 0.3 um) in a 1.45 x 1.45 x 1.5
/// um vacuum box at 0.05 um: 29, 29 (odd: H-node planes for +1) and 30 (even: an E-node
/// plane for -1) interior cells, so x = +1, y = +1, z = -1 fit. The dipole sits on all
/// three planes between Ez nodes, so it is given as the 8 Ez nodes around the centre
/// (point sources at +-dx/2, amplitude 1/8 each). Monitors: a flux box round the sphere, a
/// flux plane off every plane, Ez and Hx probes in the corner octant that is not simulated.
inline Project sphere_three_planes() {
    const double dx = 0.05, L = 1.45, Lz = 1.5;
    Project p = test3d::vacuum_project(L, L, Lz, dx, 10, 0.8, 1.6, 11);
    const Vec3 c{L / 2, L / 2, Lz / 2};
    p.materials.push_back(material("d", 4.0));
    p.layers.push_back(sphere_layer(c, 0.3, "d"));
    const Waveform w = test3d::pulse_for(0.8, 1.6);
    for (int k = 0; k < 8; ++k) {
        Source d = test3d::point_dipole("p" + std::to_string(k), Component::Ez, c.x + ((k & 1) ? dx : -dx) / 2,
                                        c.y + ((k & 2) ? dx : -dx) / 2, c.z + ((k & 4) ? dx : -dx) / 2, w);
        d.amplitude = 0.125;
        p.sources.push_back(d);
    }
    p.monitors.push_back(test3d::flux_box("box", {c.x - 0.5, c.y - 0.5, c.z - 0.5}, {c.x + 0.5, c.y + 0.5, c.z + 0.5},
                                          "flux"));
    p.monitors.push_back(test3d::flux_plane("side", {c.x - 0.2, c.y + 0.55, c.z - 0.2}, {0.3, 0, 0.3}, "+y"));
    p.monitors.push_back(probe("corner", {c.x - 0.4, c.y - 0.3}, Component::Ez, c.z - 0.35));
    p.monitors.push_back(probe("corner_hx", {c.x - 0.4, c.y - 0.3}, Component::Hx, c.z - 0.35));
    p.run.stop.max_time_fs = 40;
    return p;
}

/// A TF/SF plane wave (+y, E along z) on a dielectric sphere (eps 4, r = 0.3 um): mirror
/// planes x = +1 (Ez tangential) and z = -1 (Ez normal) keep it; y is the propagation axis.
/// Interior x 1.15 um (23 cells, odd), y and z 1.1 um (22, even). The TF/SF box's faces sit
/// on integer positions symmetric about both planes (half-widths 8.5 cells in x, 8 in z);
/// flux boxes for scattering (outside the TF/SF box) and absorption (inside), probes in the
/// part that is not simulated.
inline Project tfsf_sphere_two_planes() {
    const double dx = 0.05, Lx = 1.15, L = 1.1;
    Project p = test3d::vacuum_project(Lx, L, L, dx, 10, 0.8, 1.6, 11);
    const Vec3 c{Lx / 2, L / 2, L / 2};
    p.materials.push_back(material("d", 4.0));
    p.layers.push_back(sphere_layer(c, 0.3, "d"));
    p.sources.push_back(test3d::tfsf("pw", {c.x - 0.425, c.y - 0.4, c.z - 0.4}, {c.x + 0.425, c.y + 0.4, c.z + 0.4},
                                     "+y", Component::Ez, test3d::pulse_for(0.8, 1.6)));
    p.monitors.push_back(
        test3d::flux_box("sca", {c.x - 0.5, c.y - 0.475, c.z - 0.475}, {c.x + 0.5, c.y + 0.475, c.z + 0.475}, "scattering"));
    p.monitors.push_back(
        test3d::flux_box("abs", {c.x - 0.35, c.y - 0.35, c.z - 0.35}, {c.x + 0.35, c.y + 0.35, c.z + 0.35}, "absorption"));
    p.monitors.push_back(probe("low", {c.x - 0.2, c.y + 0.1}, Component::Ez, c.z - 0.15));
    p.monitors.push_back(probe("low_hx", {c.x - 0.2, c.y + 0.1}, Component::Hx, c.z - 0.15));
    p.run.stop.max_time_fs = 40;
    return p;
}

/// A strip (eps 12, 0.4 x 0.22 um) along y in air, fed by its TE0 mode (Ex dominant: even
/// Ex under x, so E_t odd: -1; under z E_t = Ex is even: +1). Interior x 1.6 um (32 cells,
/// even), z 1.25 um (25, odd), y 2.0 um. Monitors: the whole cross-section, one off-centre
/// quadrant, and an Ex probe in the quadrant that is not simulated.
inline Project strip_two_planes() {
    const double dx = 0.05, Lx = 1.6, Ly = 2.0, Lz = 1.25, xc = Lx / 2, zc = Lz / 2;
    Project p = test3d::vacuum_project(Lx, Ly, Lz, dx, 10, 1.4, 1.7, 7);
    p.materials.push_back(material("si", 12.0));
    Layer l;
    l.name = "strip";
    l.material = "si";
    l.z = std::array<double, 2>{zc - 0.11, zc + 0.11};
    l.shapes.push_back(rectangle({xc - 0.2, -1}, {xc + 0.2, Ly + 1}));
    p.layers.push_back(l);
    Source s;
    s.name = "te0";
    s.type = SourceType::Plane;
    s.profile = SourceProfile::Mode;
    s.center = {xc, 0.4, zc};
    s.size = {1.2, 0, 0.95};  // 24 x 19 cells: the mode window centred on both planes
    s.direction = "+y";
    s.component = Component::Ex;
    s.waveform = test3d::pulse_for(1.4, 1.7);
    p.sources.push_back(s);
    p.monitors.push_back(test3d::flux_plane("out", {xc, 1.6, zc}, {1.2, 0, 0.9}, "+y"));
    p.monitors.push_back(test3d::flux_plane("quadrant", {xc - 0.3, 1.2, zc - 0.2}, {0.6, 0, 0.4}, "+y"));
    p.monitors.push_back(probe("low_left", {xc - 0.15, 1.0}, Component::Ex, zc - 0.05));
    p.run.stop.max_time_fs = 40;
    return p;
}

/// A directional coupler: two strips (eps 12, 0.4 x 0.22 um, 0.2 um apart) along y in air,
/// guide 1 fed by its TE0 mode, so the only symmetry is the vertical one, z = +1 (25
/// interior cells); the monitors see each guide (the coupled power) separately.
inline Project coupler_one_plane() {
    const double dx = 0.05, Lx = 2.0, Ly = 2.0, Lz = 1.25, xc = Lx / 2, zc = Lz / 2;
    Project p = test3d::vacuum_project(Lx, Ly, Lz, dx, 10, 1.4, 1.7, 7);
    p.materials.push_back(material("si", 12.0));
    Layer l;
    l.name = "guides";
    l.material = "si";
    l.z = std::array<double, 2>{zc - 0.11, zc + 0.11};
    l.shapes.push_back(rectangle({xc - 0.5, -1}, {xc - 0.1, Ly + 1}));
    l.shapes.push_back(rectangle({xc + 0.1, -1}, {xc + 0.5, Ly + 1}));
    p.layers.push_back(l);
    Source s;
    s.name = "pair";
    s.type = SourceType::Plane;
    s.profile = SourceProfile::Mode;
    s.center = {xc - 0.3, 0.4, zc};  // guide 1 only: breaks x, keeps z
    s.size = {0.7, 0, 0.95};  // 19 cells in z: centred on the plane
    s.direction = "+y";
    s.component = Component::Ex;
    s.waveform = test3d::pulse_for(1.4, 1.7);
    p.sources.push_back(s);
    p.monitors.push_back(test3d::flux_plane("guide1", {xc - 0.3, 1.6, zc}, {0.6, 0, 0.9}, "+y"));
    p.monitors.push_back(test3d::flux_plane("guide2", {xc + 0.3, 1.6, zc}, {0.6, 0, 0.9}, "+y"));
    p.monitors.push_back(probe("below", {xc + 0.3, 1.2}, Component::Ex, zc - 0.3));
    p.run.stop.max_time_fs = 40;
    return p;
}

}  // namespace golightly::test
