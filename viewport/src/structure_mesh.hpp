// GoLightly viewport: the triangle and line mesh of a 3D project for the 3D structure view
// (issue 16). Qt-free apart from nothing: plain structs, so that tests can check it.
//
// Coordinates: um, the project's (origin at the interior lower-left-bottom corner, z up).
// Layers: each visible layer's 2D shapes (shape_outline) extruded over the layer's z range
// (its `z`, else [0, Lz]); a sidewall angle a moves every edge of the top cap inward by
// (z1 - z0) tan(a) (mitred vertex offset), as the compiler's extrusion (project-format
// "3D projects"). Spheres: a UV sphere; boxes: six faces; STEP solids: their BRepMesh
// tessellation (step_mesh). Raster (painted) shapes are not meshed (their footprint is
// outlined). Lines: the interior domain, the PML band's outer box, sources and monitors
// (planes as rectangles, boxes as boxes, time probes as small crosses, point dipoles as an
// arrow along their component's axis with a label, magnetic ones with a ring around it),
// ports (cyan outlines of their planes), the slice plane.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "golightly/project.hpp"

namespace golightly::viewport {

struct MeshVertex {
    float p[3];  ///< position, um
    float n[3];  ///< normal (triangles), unit
    float c[4];  ///< RGBA, 0..1
};

/// What a pick in the 3D view can hit: kind 1 = shape (layer, index), 2 = source (index),
/// 3 = monitor (index), 4 = port (index in `ports`) (the editor's ItemRef::Kind order).
struct MeshPick {
    int kind = 0;
    int layer = -1;
    int index = -1;
    Box3 bounds;              ///< axis-aligned bounds, um
    bool sphere = false;      ///< exact sphere test: centre (bounds centre), radius
    double radius = 0;
};

/// A text placed at a 3D point (the views project it and draw it over the picture): the
/// component of a point dipole ("Ez", "Hx"...), next to its arrow's tip.
struct MeshLabel {
    float p[3];  ///< um
    std::string text;
    float c[4];  ///< RGBA, 0..1
};

struct StructureMesh {
    std::vector<MeshVertex> triangles;    ///< opaque, 3 vertices per triangle
    std::vector<MeshVertex> translucent;  ///< the slice plane, 3 per triangle
    std::vector<MeshVertex> lines;        ///< 2 vertices per segment
    std::vector<MeshPick> picks;
    std::vector<MeshLabel> labels;        ///< point dipoles' components
    Box3 bounds;                          ///< everything drawn (domain with PML at least)
    std::vector<std::string> warnings;    ///< shapes that could not be meshed, by name
};

struct StructureMeshOptions {
    /// Slice plane to show: normal axis 0/1/2 (yz/xz/xy), -1 none; position um.
    int slice_normal = -1;
    double slice_position = 0;
    /// Selected item (MeshPick kind/layer/index), drawn with a highlighted box; kind 0: none.
    int selected_kind = 0, selected_layer = -1, selected_index = -1;
    /// A region to mark with a red box outline (um; the cell box of a diverged run,
    /// RunResult::divergence); none when unset.
    std::optional<Box3> highlight;
};

StructureMesh build_structure_mesh(const Project& project, const StructureMeshOptions& options = {});

/// Ear-clipping triangulation of a filled outline (outer rings CCW, holes CW, as
/// shape_outline returns them): each hole is bridged into the ring that contains it.
/// Returns triangles as index triples into `points` (filled with the merged vertices).
std::vector<std::array<int, 3>> triangulate_outline(const std::vector<std::vector<Vec2>>& outline,
                                                     std::vector<Vec2>& points);

/// The colour of a material: its "#rrggbb", else a stable hue from its id (air light grey).
std::array<float, 3> material_rgb(const Project& project, const std::string& id);

}  // namespace golightly::viewport
