// Scenes of the tests of the distributed engine's pairs (two steps between halo exchanges,
// distributed.hpp "Two steps per pass"): tests/solver/test_distributed_pairs.cpp on CPU
// subdomains, tests/gpu/cuda_distributed_two_step.cpp on CUDA ones. Header-only.
#pragma once

#include <string>

#include "golightly/compile.hpp"
#include "golightly/project.hpp"
#include "partition_projects.hpp"

namespace golightly::parttest {

/// A scene whose halo planes hold no per-cell state (pair_state_refusal ""): a box with PEC
/// walls across x and y (not periodic: the 3D CUDA engine's two steps per pass need
/// update_he3_tma, which does not run with x or y periodic) and a z PML (8 cells, off the
/// cuts), so a waveguide-like column open along z; a dispersive
/// sphere (Drude-Lorentz) low in z and a dielectric box high in z, both off the planes next
/// to the cuts that `weights` of pair_weights() make; a point dipole, a flux plane, a flux
/// box around the sphere, a time probe and a DFT volume. No sub-pixel averaging (no tensor
/// couplings: halos of 2 planes). 0.8 um cube at 0.025 um cells plus the PML. `periodic_z`:
/// z periodic instead (32 planes, no PML; 2 equal pieces keep the wrap and the cut off the
/// sphere and the box). `pml_xy`: PML across x and y instead of the walls (CPML psi on every
/// halo plane, which the pairs move with the fields where the transport can).
inline CompiledProject walled_project(bool periodic_z = false, bool pml_xy = false) {
    const double L = 0.8, c = L / 2;
    Project p = test3d::vacuum_project(L, L, L, 0.025, 8, 0.6, 1.0, 5);
    if (!pml_xy) p.domain.boundaries[0] = p.domain.boundaries[1] = BoundaryKind::Pec;
    if (periodic_z) p.domain.boundaries[2] = BoundaryKind::Periodic;
    p.run.subpixel_averaging = false;
    p.materials.push_back(drude_lorentz());
    p.materials.push_back(dielectric("hi", 6.0));
    Layer sphere;
    sphere.name = "sphere";
    sphere.material = "dl";
    Shape s;
    s.type = ShapeType::Sphere;
    s.center_3d = {c, c + 0.05, 0.17};
    s.radius = 0.1;
    sphere.shapes.push_back(s);
    p.layers.push_back(sphere);
    Layer box;
    box.name = "box";
    box.material = "hi";
    Shape b;
    b.type = ShapeType::Box;
    b.box_min = {c - 0.2, c - 0.1, 0.6};
    b.box_max = {c + 0.1, c + 0.2, 0.7};
    box.shapes.push_back(b);
    p.layers.push_back(box);
    p.sources.push_back(test3d::point_dipole("dip", Component::Ex, c - 0.1, c + 0.12, 0.45, test3d::pulse_for(0.6, 1.0)));
    p.monitors.push_back(test3d::flux_box("around", {c - 0.15, c - 0.1, 0.05}, {c + 0.15, c + 0.2, 0.3}, "absorption"));
    p.monitors.push_back(test3d::flux_plane("top", {c, c, 0.75}, {0.8, 0.8, 0}, "+z"));
    p.monitors.push_back(time_probe("probe", Component::Ez, c + 0.05, c - 0.1, 0.5, Reduce::Value));
    Monitor d;
    d.name = "vol";
    d.type = MonitorType::DftField;
    d.wavelengths = {0.8};
    p.monitors.push_back(d);
    return compile_project(p, std::string(pml_xy ? "pml_" : "") + (periodic_z ? "pairs_walled_periodic.glproj" : "pairs_walled.glproj"));
}

}  // namespace golightly::parttest
