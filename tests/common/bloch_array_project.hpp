// The strongly coupled waveguide array of the Bloch mode-side tests (test_bloch_sparams.cpp,
// test_bloch_mode_plane3d.cpp): one 1 um period with a guide of eps 4 on x in [0.15, 0.85]
// um (its edges on grid nodes at the tests' cells) in eps 2.25 ("clad", the background), Bloch
// k 0.25 (2 pi / a) along x, PML along y over a 4 um domain. Its Bloch supermodes' phase
// varies across the period, so that an unconjugated product of their real parts would mix
// modes 0 and 1 by 0.2 in power. Spectrum 1.5-1.6 um, 3 points; float64, CPU, 50 dB decay.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "golightly/project.hpp"

namespace golightly::test {

/// The array's project: `dims` 2 (the x-y plane, polarization `pol`) or 3 (z over z_um, z
/// periodic); `dx` the cell (um); the core's eps and half width (um; centred at x = 0.5 um)
/// for variants (test_bloch_mode_source.cpp). Callers add ports, sources, monitors and the
/// time limit.
inline Project bloch_coupled_array(int dims, Polarization pol, double dx, double z_um = 0.0, double eps_core = 4.0,
                                   double half_width = 0.35) {
    Project p;
    p.name = "bloch array";
    p.domain.dimensions = dims;
    p.domain.size = {1.0, 4.0, dims == 3 ? z_um : 0.0};
    p.domain.cell_size = dx;
    p.domain.polarization = pol;
    p.domain.pml.cells = 12;
    p.domain.boundaries = {BoundaryKind::Periodic, BoundaryKind::Pml, BoundaryKind::Periodic};
    p.domain.bloch = {true, false, false};
    p.domain.bloch_k = std::array<double, 3>{0.25, 0, 0};
    p.domain.background = "clad";
    Material clad, core;
    clad.id = clad.name = "clad";
    clad.epsilon_inf = 2.25;
    core.id = core.name = "core";
    core.epsilon_inf = eps_core;
    p.materials = {clad, core};
    Layer wg;
    wg.name = "guide";
    wg.material = "core";
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {0.5 - half_width, -1.0};
    r.max = {0.5 + half_width, 5.0};
    wg.shapes = {r};
    p.layers = {wg};
    p.run.spectrum.wavelength_min = 1.5;
    p.run.spectrum.wavelength_max = 1.6;
    p.run.spectrum.points = 3;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.stop.decay_db = 50;
    return p;
}

/// A plane (3D: normal y at `y_um`, across the period and the z extent z_um) or line (2D:
/// y = y_um from x = 0 to 1 um) mode monitor of the array, modes `modes`, direction `dir`
/// ("+y" / "-y").
inline Monitor bloch_array_mode_monitor(int dims, const std::string& name, double y_um, const std::string& dir,
                                        std::vector<int> modes, double z_um = 0.0) {
    Monitor m;
    m.name = name;
    m.type = MonitorType::Flux;
    m.kind = "mode";
    m.direction = dir;
    if (dims == 3) {
        m.center = {0.5, y_um, 0.5 * z_um};
        m.size = {1.0, 0.0, z_um};
    } else {
        m.from = {0.0, y_um};
        m.to = {1.0, y_um};
    }
    m.extra["modes"] = Json(modes);
    return m;
}

/// The array's 3D plane mode source at y = 1.2 um across the period and z extent z_um,
/// launching Bloch supermode `mode_index` (E_z) toward +y, centred at 1.55 um (0.2 um span).
inline Source bloch_array_mode_source(int mode_index, double z_um) {
    Source s;
    s.name = "in";
    s.type = SourceType::Plane;
    s.center = {0.5, 1.2, 0.5 * z_um};
    s.size = {1.0, 0.0, z_um};
    s.component = Component::Ez;
    s.profile = SourceProfile::Mode;
    s.mode_index = mode_index;
    s.direction = "+y";
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.2;
    return s;
}

}  // namespace golightly::test
