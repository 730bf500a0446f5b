#pragma once
// Helpers shared by the adjoint's density files (adjoint.cpp, adjoint_design_sites.cpp,
// adjoint_functionals.cpp); not a public header.
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "golightly/adjoint.hpp"

namespace golightly::adjoint::internal {

/// build_material_table's bound on table entries (uint16 index maps).
constexpr std::size_t kTableLimit = 65535;

/// An error about the design region, its message prefixed "design region: ".
inline std::invalid_argument design_error(const std::string& what) {
    return std::invalid_argument("design region: " + what);
}

/// The E components the scene steps (all three in 3D).
inline std::vector<Component> scene_e_components(const Scene& scene) {
    if (scene.dimensions == 3) return {Component::Ex, Component::Ey, Component::Ez};
    return electric_components(scene.polarization);
}

/// The grid's cell counts {nx, ny, nz}.
inline std::array<std::int64_t, 3> grid_n(const Scene& s) { return {s.nx, s.ny, s.nz}; }

/// Throws std::invalid_argument for what the adjoint does not support: mirror symmetry,
/// Bloch (complex) fields, continuous-wave sources.
void check_scene(const Scene& scene);

/// TF/SF faces: their corrections scale with the site's cb, which the design changes.
/// `what` starts the message ("design region: it"). Throws std::invalid_argument.
void check_tfsf_faces(const Scene& scene, const DesignSites& sites, const std::string& what);

}  // namespace golightly::adjoint::internal
