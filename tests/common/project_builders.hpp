// Builders of the parts of a Project that many tests write out: shapes, materials and
// layers with the fields a test sets, every other field at its model default
// (project.hpp). Header-only, namespace golightly::test.
#pragma once

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/units.hpp"

namespace golightly::test {

/// A rectangle from corner `lo` to corner `hi` (um), turned by `rot` degrees.
inline Shape rectangle(Vec2 lo, Vec2 hi, double rot = 0) {
    Shape s;
    s.type = ShapeType::Rectangle;
    s.min = lo;
    s.max = hi;
    s.rotation_deg = rot;
    return s;
}

/// A polygon through `pts` (um).
inline Shape polygon(std::vector<Vec2> pts) {
    Shape s;
    s.type = ShapeType::Polygon;
    s.points = std::move(pts);
    return s;
}

/// An ellipse at `c` with radii `rx`, `ry` (um), turned by `rot` degrees.
inline Shape ellipse(Vec2 c, double rx, double ry, double rot = 0) {
    Shape s;
    s.type = ShapeType::Ellipse;
    s.center = c;
    s.radii = {rx, ry};
    s.rotation_deg = rot;
    return s;
}

/// A ring at `c` between radii `r_in` and `r_out` (um).
inline Shape ring(Vec2 c, double r_in, double r_out) {
    Shape s;
    s.type = ShapeType::Ring;
    s.center = c;
    s.inner_radius = r_in;
    s.outer_radius = r_out;
    return s;
}

/// A non-dispersive material `id` (also its name): eps_inf `eps`, conductivity `sigma` (S/m).
inline Material material(const std::string& id, double eps, double sigma = 0) {
    Material m;
    m.id = id;
    m.name = id;
    m.epsilon_inf = eps;
    m.conductivity = sigma;
    return m;
}

/// A layer `name` of material id `mat` holding `shapes`.
inline Layer layer(const std::string& name, const std::string& mat, std::vector<Shape> shapes) {
    Layer l;
    l.name = name;
    l.material = mat;
    l.shapes = std::move(shapes);
    return l;
}

/// A one-way mode line source `name` (2D) from `from` to `to` (um) injecting `direction`
/// ("+x" ...), mode `mode_index`, component Ez (TMz) or Hz (TEz), a pulse centred at
/// 1.55 um spanning 0.3 um.
inline Source mode_line_source(const std::string& name, Vec2 from, Vec2 to, const std::string& direction,
                               Component component = Component::Ez, int mode_index = 0) {
    Source s;
    s.name = name;
    s.type = SourceType::Line;
    s.from = from;
    s.to = to;
    s.component = component;
    s.profile = SourceProfile::Mode;
    s.direction = direction;
    s.mode_index = mode_index;
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.3;
    return s;
}

/// A 2D flux monitor `name` on the line from `from` to `to` (um), positive along `dir`
/// ("+x" ...), its kind the model default.
inline Monitor flux_line(const std::string& name, Vec2 from, Vec2 to, const std::string& dir) {
    Monitor m;
    m.name = name;
    m.type = MonitorType::Flux;
    m.from = from;
    m.to = to;
    m.direction = dir;
    return m;
}

/// A 2D mode monitor `name` (a flux line with kind "mode", its default modes [0]) from
/// `from` to `to` (um), positive along `direction`.
inline Monitor mode_line_monitor(const std::string& name, Vec2 from, Vec2 to, const std::string& direction) {
    Monitor m = flux_line(name, from, to, direction);
    m.kind = "mode";
    return m;
}

/// A 2D silicon slab waveguide (eps_inf 12) along x through an lx x ly um domain, its core
/// over y in [y0, y1] um and past both x ends; cell dx um, `pml_cells` CPML cells, on the
/// CPU in float64, 3 wavelengths over 1.45-1.65 um, stopped at `decay_db` dB or
/// `max_time_fs` fs. No ports: the caller adds them.
inline Project slab_guide_2d(double lx, double ly, double dx, Polarization pol, int pml_cells, double y0, double y1,
                             double decay_db, double max_time_fs) {
    Project p;
    p.name = "slab2d";
    p.domain.size = {lx, ly, 0};
    p.domain.cell_size = dx;
    p.domain.polarization = pol;
    p.domain.pml.cells = pml_cells;
    p.materials = {material("si", 12.0)};
    p.layers = {layer("wg", "si", {rectangle({-1.0, y0}, {lx + 1.0, y1})})};
    p.run.spectrum.wavelength_min = 1.45;
    p.run.spectrum.wavelength_max = 1.65;
    p.run.spectrum.points = 3;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.stop.decay_db = decay_db;
    p.run.stop.max_time_fs = max_time_fs;
    return p;
}

/// The core layer of the 3D test strips: a 500 x 220 nm box of `material` along x from
/// x = -1 um to `x_max` um, across y 0.75 .. 1.25 and z 0.70 .. 0.92 um (the strip centred
/// in a 2 x 1.6 um cross-section).
inline Layer strip_core_layer(double x_max, const std::string& material = "si") {
    Layer l;
    l.name = "core";
    l.material = material;
    Shape b;
    b.type = ShapeType::Box;
    b.box_min = {-1.0, 0.75, 0.70};
    b.box_max = {x_max, 1.25, 0.92};
    l.shapes.push_back(b);
    return l;
}

/// A box from corner `lo` to corner `hi` (um, 3D).
inline Shape box(Vec3 lo, Vec3 hi) {
    Shape b;
    b.type = ShapeType::Box;
    b.box_min = lo;
    b.box_max = hi;
    return b;
}

/// A 3D project `name`: an `size` um domain of cell dx um, `pml_cells` CPML cells, faces
/// `boundaries`, background material id `background`; no materials, layers, sources or
/// monitors yet, the run at its defaults.
inline Project project_3d(const std::string& name, std::array<double, 3> size, double dx, int pml_cells,
                          const std::string& background,
                          std::array<BoundaryKind, 3> boundaries = {BoundaryKind::Pml, BoundaryKind::Pml,
                                                                    BoundaryKind::Pml}) {
    Project p;
    p.name = name;
    p.domain.dimensions = 3;
    p.domain.size = size;
    p.domain.cell_size = dx;
    p.domain.boundaries = boundaries;
    p.domain.pml.cells = pml_cells;
    p.domain.background = background;
    return p;
}

/// The oxide "sio2" (eps_inf `eps_ox`) and silicon "si" (eps_inf `eps_si`) of the strip and
/// slab waveguide tests, in that order; ids only, no names (the defaults: 1.444^2, 3.476^2).
inline std::vector<Material> oxide_and_silicon(double eps_ox = 1.444 * 1.444, double eps_si = 3.476 * 3.476) {
    Material ox;
    ox.id = "sio2";
    ox.epsilon_inf = eps_ox;
    Material si;
    si.id = "si";
    si.epsilon_inf = eps_si;
    return {ox, si};
}

/// A lossless Lorentz material `id` (epsilon_inf 1, one pole at 0.3 um, gamma 0) whose eps
/// at wl_um is eps_target: eps(w) = 1 + wp^2 / (w0^2 - w^2) (dispersion.hpp).
inline Material lorentz_material(const std::string& id, double eps_target, double wl_um) {
    auto omega_of = [](double wl) { return 2 * M_PI * units::wavelength_um_to_hz(wl); };
    Material m;
    m.id = id;
    m.epsilon_inf = 1.0;
    Pole p;
    p.kind = PoleKind::Lorentz;
    p.omega_0 = omega_of(0.3);
    const double w = omega_of(wl_um);
    p.omega_p = std::sqrt((eps_target - 1.0) * (p.omega_0 * p.omega_0 - w * w));
    p.gamma = 0;
    m.poles.push_back(p);
    return m;
}

}  // namespace golightly::test
