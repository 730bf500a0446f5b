// GoLightly editor: switching a project between 2D and 3D (issue 16), and the 3D helpers
// the layer stack and the inspector share.
//
// The switch is one undoable edit (EditorDocument::editProject) that keeps every 2D
// drawing: layers keep their shapes and become extrusions (a layer without a z range spans
// the whole domain in z, project-format.md "3D projects"), and the objects that have no 3D
// form get the one the format asks for, so that the switched project validates.
#pragma once

#include <optional>

#include "editor_document.hpp"
#include "golightly/project.hpp"

namespace golightly::editor {

/// Default z size (um) given to a 2D project switched to 3D when its domain has none.
inline constexpr double kDefault3dDepthUm = 2.0;

/// The project in 3D (domain.dimensions 3). `depth_um` > 0 sets domain.size[2] when the
/// domain has no z size yet (<= 0: kDefault3dDepthUm). Conversions (z centre zc = Lz / 2):
///   - layers: unchanged (no z range = the whole domain in z);
///   - point sources and time monitors without a z: at zc;
///   - line sources and flux lines: planes through the line, normal to the axis along which
///     the line is shortest, spanning the domain in z (size [.., .., Lz], centre z zc); an
///     H or out-of-plane component of a uniform/gaussian source becomes Ez (x/y normal);
///   - flux_box, dft_field regions and TF/SF boxes without a z extent: [0, Lz];
///   - run.courant at or above the 3D limit 1/sqrt(3): 0.5; run.frames: the xy plane at zc.
/// A project already in 3D is returned unchanged.
Project to_3d(const Project& project, double depth_um = 0);

/// The project in 2D (domain.dimensions 2): plane sources and flux planes normal to x or
/// y become lines (their footprint in the xy plane); the rest (3D shapes, z entries) is
/// kept, so that switching back restores it; solids are cut at domain.slice_z in 2D.
/// A 2D project is returned unchanged.
Project to_2d(const Project& project);

/// A new source or monitor drawn in the xy editor of a 3D project (lz = domain z size),
/// given its 3D form as to_3d does: points and time probes at z = lz / 2, lines become
/// planes spanning [0, lz], regions (flux box, DFT field, TF/SF box) get z [0, lz].
void source_to_3d(Source& source, double lz);
void monitor_to_3d(Monitor& monitor, double lz);

/// The xy footprint of a plane (centre, size with one zero entry): true and the segment
/// a-b when the plane is normal to x or y; false and the rectangle's corners a, b when it
/// is normal to z.
bool plane_footprint(const Vec3& center, const Vec3& size, Vec2& a, Vec2& b);

/// The normal axis of a plane's `size` (the one zero entry): 0, 1, 2; -1 when there is none.
int plane_normal(const Vec3& size);
/// Turns a plane (a plane source, a flux plane) to be normal to `axis` (0 x, 1 y, 2 z), as
/// the inspector's Normal choice does: the size along the old normal takes the size along
/// the new one, which becomes 0 (the plane keeps its centre and area); a one-way
/// `direction` (a flux plane's, a plane source's, a mode source's) keeps its sign on the
/// new axis; a plane source's E component along the new normal becomes the one along the
/// old normal (the format wants the polarization in the plane). Returns false (nothing
/// changed) when the item is not a plane or already normal to `axis`.
bool set_plane_normal(Source& source, int axis);
bool set_plane_normal(Monitor& monitor, int axis);

/// The z extent [z0, z1] of an item that has its own (a sphere, a box; in 3D a plane
/// source or flux plane, a TF/SF box, a flux box or DFT region, a point source or time
/// probe (z0 = z1)); nullopt for other items (2D shapes: their layer's range applies).
std::optional<std::array<double, 2>> item_z_extent(const Project& project, const ItemRef& item);
/// Sets that extent: a sphere's centre z and radius ((z1 - z0) / 2), a box's or TF/SF
/// box's min/max z, a plane's centre z and size z, a region's min_z/max_z, a point's z
/// (z0; z1 ignored). Returns false when the item has no z extent of its own or z1 < z0
/// (z1 == z0 only for points and planes normal to z).
bool set_item_z_extent(Project& project, const ItemRef& item, double z0, double z1);

/// The z range [z0, z1] a layer occupies: its `z`, else the whole domain [0, Lz].
std::array<double, 2> layer_z_range(const Project& project, const Layer& layer);

/// True when every shape of the layer is a sphere or a box (3D solids carry their own z
/// and ignore the layer's range); then `range` gets their z extent. False for an empty
/// layer or one with 2D or STEP shapes.
bool solids_only(const Layer& layer, std::array<double, 2>& range);

}  // namespace golightly::editor
