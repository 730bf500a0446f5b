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

}  // namespace golightly::test3d
