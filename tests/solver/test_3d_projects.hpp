// Small 3D projects for the 3D compile / run tests (test_compile3d.cpp, test_dipole3d.cpp,
// test_mie3d.cpp), built in memory.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include "golightly/project.hpp"
#include "golightly/units.hpp"

namespace golightly::test3d {

/// A 3D vacuum project: interior size (um), cubic cells dx (um), `pml` CPML cells on every
/// face, Courant 0.5, float64, spectrum [wl_min, wl_max] with `points` points, decay stop
/// 50 dB, max 400 fs.
inline Project vacuum_project(double lx, double ly, double lz, double dx, int pml, double wl_min, double wl_max,
                              int points) {
    Project p;
    p.name = "test3d";
    p.domain.dimensions = 3;
    p.domain.size = {lx, ly, lz};
    p.domain.cell_size = dx;
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Pml, BoundaryKind::Pml};
    p.domain.pml.cells = pml;
    p.domain.background = "air";
    p.run.courant = 0.5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.spectrum.wavelength_min = wl_min;
    p.run.spectrum.wavelength_max = wl_max;
    p.run.spectrum.points = points;
    p.run.stop.decay_db = 50;
    p.run.stop.max_time_fs = 400;
    p.run.frames.component = Component::Ez;
    return p;
}

/// cos(k~ dx / 2) of a plane wave along a grid axis at frequency f (Hz): k~ the lattice
/// wavenumber, sin(k~ dx/2) = sin(omega dt/2) / S (Taflove & Hagness 3rd ed. eq. 4.12).
/// A flux plane averages H~ over the two h positions either side of its e position, so a
/// plane wave of amplitude E0 measures |E0|^2 cos(k~ dx/2) / (2 eta0) per unit area; a
/// sheet current of the compiler's convention (amplitude A) radiates E0 = A / cos(k~ dx/2).
inline double half_cell_cos(double f_hz, double dx_um, double courant) {
    const double dt = courant * dx_um * units::um / units::c0;
    const double s = std::sin(units::pi * f_hz * dt) / courant;
    return std::sqrt(1.0 - s * s);
}

/// A gaussian pulse covering [wl_min, wl_max] (centre in the middle of the frequencies,
/// span a bit wider than the band).
inline Waveform pulse_for(double wl_min, double wl_max) {
    Waveform w;
    w.type = WaveformType::GaussianPulse;
    const double f_lo = 1.0 / wl_max, f_hi = 1.0 / wl_min;
    const double fc = 0.5 * (f_lo + f_hi);
    w.wavelength_center = 1.0 / fc;
    // 1/e spectral amplitude at 1.2 x the band (the band edges at about half the peak),
    // span kept below twice the centre wavelength
    double half = 0.6 * (f_hi - f_lo);
    half = std::min(half, 0.45 * fc);
    w.wavelength_span = 1.0 / (fc - half) - 1.0 / (fc + half);
    return w;
}

inline Source point_dipole(const std::string& name, Component c, double x, double y, double z, const Waveform& w) {
    Source s;
    s.name = name;
    s.type = SourceType::Point;
    s.component = c;
    s.at = {x, y};
    s.at_z = z;
    s.waveform = w;
    return s;
}

inline Source tfsf(const std::string& name, const Vec3& lo, const Vec3& hi, const std::string& direction, Component e,
                   const Waveform& w) {
    Source s;
    s.name = name;
    s.type = SourceType::Tfsf;
    s.box_min = lo;
    s.box_max = hi;
    s.direction = direction;
    s.component = e;
    s.waveform = w;
    return s;
}

inline Monitor flux_box(const std::string& name, const Vec3& lo, const Vec3& hi, const std::string& kind) {
    Monitor m;
    m.name = name;
    m.type = MonitorType::FluxBox;
    m.kind = kind;
    m.min = Vec2{lo.x, lo.y};
    m.max = Vec2{hi.x, hi.y};
    m.min_z = lo.z;
    m.max_z = hi.z;
    return m;
}

inline Monitor flux_plane(const std::string& name, const Vec3& center, const Vec3& size, const std::string& direction,
                          const std::string& kind = "flux") {
    Monitor m;
    m.name = name;
    m.type = MonitorType::Flux;
    m.kind = kind;
    m.center = center;
    m.size = size;
    m.direction = direction;
    return m;
}

/// The TF/SF sphere of the 3D cross-section tests (test_mie3d.cpp "absorbing sphere",
/// test_dispersive3d.cpp): a sphere of `material` (radius a, um) at the centre of a vacuum
/// cube of side 2a + 0.5 um (cells dx, 10 PML cells), float32, 40 dB decay, max 200 fs; a
/// tfsf box a + 0.1 um around the centre (propagation +y, E along z, pulse_for the band),
/// monitors: 0 a scattering flux box at a + 0.175 um (outside the tfsf box), 1 an
/// absorption flux box at a + 0.05 um (inside it).
inline Project tfsf_sphere_project(const Material& material, double a, double dx, double wl_min, double wl_max,
                                   int points) {
    const double L = 2 * a + 0.5, c = L / 2;
    Project p = vacuum_project(L, L, L, dx, 10, wl_min, wl_max, points);
    p.run.precision = Precision::Float32;
    p.run.stop.decay_db = 40;
    p.run.stop.max_time_fs = 200;
    p.materials.push_back(material);
    Layer layer;
    layer.name = "sphere";
    layer.material = material.id;
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = {c, c, c};
    s.radius = a;
    layer.shapes.push_back(s);
    p.layers.push_back(layer);
    const double tf = a + 0.1, sc = a + 0.175, ab = a + 0.05;
    p.sources.push_back(
        tfsf("pw", {c - tf, c - tf, c - tf}, {c + tf, c + tf, c + tf}, "+y", Component::Ez, pulse_for(wl_min, wl_max)));
    p.monitors.push_back(flux_box("sca", {c - sc, c - sc, c - sc}, {c + sc, c + sc, c + sc}, "scattering"));
    p.monitors.push_back(flux_box("abs", {c - ab, c - ab, c - ab}, {c + ab, c + ab, c + ab}, "absorption"));
    return p;
}

}  // namespace golightly::test3d
