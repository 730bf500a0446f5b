// Projects and comparison helpers of the domain-decomposition tests (tests/solver/
// test_partition.cpp on CPU subdomains, tests/gpu/cuda_distributed.cpp on CUDA devices):
// 3D and 2D scenes that put cuts through the PML, dispersive cells, sub-pixel tensor
// couplings, a TF/SF box, sources and flux monitors. Header-only, namespace
// golightly::parttest.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/project.hpp"
#include "golightly/units.hpp"
#include "../solver/test_3d_projects.hpp"

namespace golightly::parttest {

using namespace golightly::test3d;


inline double omega_of_um(double wavelength_um) { return 2 * units::pi * units::c0 / (wavelength_um * 1e-6); }

/// eps_inf 3, a Lorentz pole (0.35 um, strength 1) and a Drude term: a lossy dispersive
/// dielectric (as test_dispersive3d.cpp).
inline Material drude_lorentz() {
    Material m;
    m.id = "dl";
    m.epsilon_inf = 3.0;
    const double w0 = omega_of_um(0.35);
    Pole l;
    l.kind = PoleKind::Lorentz;
    l.omega_0 = w0;
    l.omega_p = w0;
    l.gamma = 0.1 * w0;
    Pole d;
    d.kind = PoleKind::Drude;
    d.omega_p = 3.55e15;
    d.gamma = 5e14;
    m.poles = {l, d};
    return m;
}

inline Material dielectric(const std::string& id, double eps) {
    Material m;
    m.id = id;
    m.epsilon_inf = eps;
    return m;
}

inline Monitor time_probe(const std::string& name, Component c, double x, double y, double z, Reduce r) {
    Monitor t;
    t.name = name;
    t.type = MonitorType::Time;
    t.component = c;
    t.at = Vec2{x, y};
    t.at_z = z;
    t.reduce = r;
    return t;
}

/// 3D: a dispersive sphere and a dielectric box (tensor couplings at their sub-pixel
/// faces) in a TF/SF plane wave, a point dipole, scattering/absorption flux boxes, a plane
/// flux monitor, a time probe, a DFT field volume. `periodic_z`: z periodic (no PML along
/// the cut axis), the TF/SF box spanning x only.
inline Project project_3d(bool periodic_z) {
    const double a = 0.12, L = 0.8, c = L / 2;
    Project p = vacuum_project(L, L, L, 0.025, 8, 0.6, 1.0, 5);
    if (periodic_z) p.domain.boundaries[2] = BoundaryKind::Periodic;
    p.materials.push_back(drude_lorentz());
    p.materials.push_back(dielectric("hi", 6.0));
    Layer sphere;
    sphere.name = "sphere";
    sphere.material = "dl";
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = {c, c, c + 0.01};
    s.radius = a;
    sphere.shapes.push_back(s);
    p.layers.push_back(sphere);
    Layer box;
    box.name = "box";
    box.material = "hi";
    Shape b;
    b.type = ShapeType::Box;
    b.box_min = {c + 0.165, c - 0.265, c - 0.215};
    b.box_max = {c + 0.275, c - 0.135, c - 0.045};
    box.shapes.push_back(b);
    p.layers.push_back(box);
    const double tf = a + 0.12;
    p.sources.push_back(tfsf("pw", {c - tf, c - tf, c - tf}, {c + tf, c + tf, c + tf}, "+y", Component::Ez,
                             pulse_for(0.6, 1.0)));
    p.sources.push_back(point_dipole("dip", Component::Ex, c - 0.3, c + 0.27, c + 0.21, pulse_for(0.6, 1.0)));
    const double sc = a + 0.2, ab = a + 0.04;
    p.monitors.push_back(flux_box("sca", {c - sc, c - sc, c - sc}, {c + sc, c + sc, c + sc}, "scattering"));
    p.monitors.push_back(flux_box("abs", {c - ab, c - ab, c - ab}, {c + ab, c + ab, c + ab}, "absorption"));
    p.monitors.push_back(flux_plane("top", {c, c, c + 0.3}, {0.5, 0.4, 0}, "+z"));
    p.monitors.push_back(time_probe("probe", Component::Ez, c + 0.05, c - 0.1, c + 0.02, Reduce::Value));
    Monitor d;
    d.name = "vol";
    d.type = MonitorType::DftField;
    d.wavelengths = {0.8};
    p.monitors.push_back(d);
    return p;
}

/// 2D: a dispersive ellipse and a rotated dielectric rectangle in a TF/SF plane wave
/// travelling along y (the cut axis), a point source, flux lines (one crossing every cut),
/// a probe averaged over a region. `periodic_y`: y periodic, the TF/SF wave along x.
inline Project project_2d(Polarization pol, bool periodic_y) {
    Project p;
    p.name = "part2d";
    p.domain.dimensions = 2;
    p.domain.size = {2.0, 2.4, 0};
    p.domain.cell_size = 0.02;
    p.domain.polarization = pol;
    p.domain.boundaries = {BoundaryKind::Pml, periodic_y ? BoundaryKind::Periodic : BoundaryKind::Pml,
                           BoundaryKind::Pml};
    p.domain.pml.cells = 12;
    p.domain.background = "air";
    p.run.courant = 0.5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.spectrum.wavelength_min = 0.6;
    p.run.spectrum.wavelength_max = 1.0;
    p.run.spectrum.points = 5;
    p.run.stop.max_time_fs = 100;
    p.materials.push_back(drude_lorentz());
    p.materials.push_back(dielectric("hi", 8.0));
    Layer l1;
    l1.name = "ellipse";
    l1.material = "dl";
    Shape e;
    e.type = ShapeType::Ellipse;
    e.center = {1.0, 1.2};
    e.radii = {0.31, 0.23};
    l1.shapes.push_back(e);
    p.layers.push_back(l1);
    Layer l2;
    l2.name = "bar";
    l2.material = "hi";
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {0.3, 0.35};
    r.max = {0.8, 0.55};
    r.rotation_deg = 27;
    l2.shapes.push_back(r);
    p.layers.push_back(l2);
    const Component e_pol = pol == Polarization::TMz ? Component::Ez : (periodic_y ? Component::Ey : Component::Ex);
    if (periodic_y)
        p.sources.push_back(tfsf("pw", {0.5, -1.0, 0}, {1.5, 4.0, 0}, "+x", e_pol, pulse_for(0.6, 1.0)));
    else
        p.sources.push_back(tfsf("pw", {0.5, 0.6, 0}, {1.5, 1.8, 0}, "+y", e_pol, pulse_for(0.6, 1.0)));
    Source pt;
    pt.name = "pt";
    pt.type = SourceType::Point;
    pt.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    pt.at = {1.6, 0.4};
    pt.waveform = pulse_for(0.6, 1.0);
    p.sources.push_back(pt);
    Monitor f;
    f.name = "line";
    f.type = MonitorType::Flux;
    f.from = {1.85, 0.1};
    f.to = {1.85, 2.3};
    f.direction = "+x";
    p.monitors.push_back(f);
    Monitor g;
    g.name = "across";
    g.type = MonitorType::Flux;
    g.from = {0.1, 2.1};
    g.to = {1.9, 2.1};
    g.direction = "+y";
    p.monitors.push_back(g);
    Monitor t = time_probe("avg", pol == Polarization::TMz ? Component::Ez : Component::Hz, 0, 0, 0, Reduce::Rms);
    t.at.reset();
    Shape region;
    region.type = ShapeType::Rectangle;
    region.min = {0.9, 0.2};
    region.max = {1.3, 2.2};
    t.shape = region;
    p.monitors.push_back(t);
    return p;
}

inline double rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return INFINITY;
    double num = 0, den = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        num = std::max(num, std::abs(a[k] - b[k]));
        den = std::max(den, std::abs(b[k]));
    }
    return den > 0 ? num / den : num;
}

inline double rel_diff(const std::vector<std::complex<double>>& a, const std::vector<std::complex<double>>& b) {
    if (a.size() != b.size()) return INFINITY;
    double num = 0, den = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        num = std::max(num, std::abs(a[k] - b[k]));
        den = std::max(den, std::abs(b[k]));
    }
    return den > 0 ? num / den : num;
}

inline std::vector<Component> components_of(const Scene& s) {
    if (s.dimensions == 3) return {Component::Ex, Component::Ey, Component::Ez, Component::Hx, Component::Hy, Component::Hz};
    std::vector<Component> c = electric_components(s.polarization);
    for (Component h : magnetic_components(s.polarization)) c.push_back(h);
    return c;
}

/// The largest relative difference (rel_diff) between engine `many` and the reference `one`,
/// both stepped over `scene`: every field component over the whole grid, every DFT set, every
/// time probe, and the field energy. INFINITY where the comparison would prove nothing or
/// `many` failed: a reference field that is zero everywhere, a reference energy that is not
/// positive, or fields of `many` that are not finite.
inline double engines_difference(const Scene& scene, Engine& one, Engine& many) {
    double worst = 0;
    std::vector<double> a, b;
    for (Component c : components_of(scene)) {
        one.get_field(c, a);
        many.get_field(c, b);
        if (std::all_of(a.begin(), a.end(), [](double x) { return x == 0; })) return INFINITY;
        worst = std::max(worst, rel_diff(b, a));
    }
    for (std::size_t set = 0; set < scene.dft_sets.size(); ++set)
        worst = std::max(worst, rel_diff(many.dft(int(set)), one.dft(int(set))));
    for (std::size_t q = 0; q < scene.time_probes.size(); ++q)
        worst = std::max(worst, rel_diff(many.time_samples(int(q)), one.time_samples(int(q))));
    const double e1 = one.field_energy(), e2 = many.field_energy();
    if (!(e1 > 0) || !many.fields_finite()) return INFINITY;
    return std::max(worst, std::abs(e2 - e1) / e1);
}

/// The compiled project tests/data/mpi/`name` (the MPI tests' projects, also run in
/// process on several subdomains).
inline CompiledProject compile_mpi_data_project(const char* name) {
    const std::filesystem::path path = std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "tests" / "data" / "mpi" / name;
    return compile_project(load_project(path), path.string());
}

}  // namespace golightly::parttest
