// GoLightly editor: switching a project between 2D and 3D (issue 16), and the 3D helpers
// the layer stack and the inspector share.
//
// The switch is one undoable edit (EditorDocument::editProject) that keeps every 2D
// drawing: layers keep their shapes and become extrusions, and the objects that have no 3D
// form get the one the format asks for, so that the switched project validates. A layer
// without a z range would span the whole domain in z (project-format.md "3D projects"),
// which is rarely the device that was drawn: the switch gives such layers the z ranges of
// a 220 nm SOI stack (layer_roles), and ports a plane around the core. The IDE shows the
// cost of the 3D grid (estimate_grid) before it switches.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

#include "editor_document.hpp"
#include "golightly/project.hpp"

namespace golightly::editor {

/// Default z size (um) given to a 2D project switched to 3D when its domain has none.
inline constexpr double kDefault3dDepthUm = 2.0;

/// The core thickness of the stack a switched 2D project's layers get: a 220 nm SOI wafer
/// (silicon core on buried oxide).
inline constexpr double kSoiCoreThicknessUm = 0.22;
/// Port planes of a switched project span the core and this much above and below it
/// (clipped to the domain): room for the evanescent tail of a 220 nm strip's mode.
inline constexpr double kPortMarginUm = 0.8;

/// What a layer becomes in the SOI stack of a 2D -> 3D switch.
enum class LayerRole {
    Core,       ///< z [zc - t/2, zc + t/2], t = kSoiCoreThicknessUm, zc = Lz / 2
    Substrate,  ///< below the core, through the lower PML: z [core0 - Lz, core0]
    Cladding,   ///< above the core, through the upper PML: z [core1, core1 + Lz]
    Kept,       ///< unchanged: it has a z range, holds only solids (spheres, boxes) or
                ///< fills the whole domain in xy (a background layer): the whole height
};
/// The role of each layer of `project` (same order) in the switch: a layer whose material
/// has the highest epsilon_inf of the layers is core; a lower-index layer named as a
/// substrate ("substrate", "box", "buried", "bottom", "handle") is substrate, one named as
/// a cladding ("clad", "top", "cover", "upper") cladding; other lower-index layers (a
/// trench, a slot) are core too: they are drawn in the device plane.
std::vector<LayerRole> layer_roles(const Project& project);

/// How to_3d switches. depth_um > 0 sets domain.size[2] when the domain has none (<= 0:
/// kDefault3dDepthUm); cell_size_um > 0 replaces domain.cell_size; soi_stack false leaves
/// every layer at the whole height (the behaviour before the stack existed) and ports span
/// the domain in z.
struct Switch3dOptions {
    double depth_um = 0;
    double cell_size_um = 0;
    bool soi_stack = true;
};

/// The project in 3D (domain.dimensions 3), with the options above. Conversions (z centre
/// zc = Lz / 2):
///   - layers: the z range of their role (layer_roles) with soi_stack, else unchanged (no z
///     range = the whole domain in z);
///   - ports (2D lines): planes through the line, normal to x or y as before, spanning the
///     core's z range +- kPortMarginUm clipped to [0, Lz] (without the stack: [0, Lz]);
///   - point sources and time monitors without a z: at zc;
///   - line sources and flux lines: planes through the line, normal to the axis along which
///     the line is shortest, spanning the domain in z (size [.., .., Lz], centre z zc); an
///     H or out-of-plane component of a uniform/gaussian source becomes Ez (x/y normal);
///   - flux_box, dft_field regions and TF/SF boxes without a z extent: [0, Lz];
///   - run.courant at or above the 3D limit 1/sqrt(3): 0.5; run.frames: the xy plane at zc.
/// A project already in 3D is returned unchanged.
Project to_3d(const Project& project, const Switch3dOptions& options);
Project to_3d(const Project& project, double depth_um = 0);

/// The z range of the core after a switch (or of a 3D project): the range of the
/// highest-index layer that has one (reference-only layers last), else the SOI core
/// around Lz / 2. nullopt when no layer has a range and the project has no z size.
std::optional<std::array<double, 2>> core_z_range(const Project& project);

/// The project in 2D (domain.dimensions 2): plane sources, flux planes and ports normal to
/// x or y become lines (their footprint in the xy plane); domain.slice_z goes through the
/// middle of core_z_range (the highest-index layer), so that the layers the 3D project
/// had stay in the 2D cut; the rest (3D shapes, z entries) is kept, so that switching back
/// restores it; solids are cut at domain.slice_z in 2D. The polarization becomes the one
/// the sources' and probes' components belong to (Ex, Ey, Hz: TEz; Ez, Hx, Hy: TMz; a mix:
/// unchanged). A 2D project is returned unchanged.
Project to_2d(const Project& project);

/// The cost of a project's grid as a 3D run: what the IDE shows before a 2D -> 3D switch.
struct GridEstimate {
    std::array<long long, 3> n{0, 0, 0};  ///< cells per axis, PML included
    long long cells = 0;
    std::size_t state_bytes = 0;          ///< engine_state_bytes of the bare grid (fields,
                                          ///< material maps, CPML), run.precision
    std::size_t compile_bytes = 0;        ///< the compiler's peak: state + its per-cell
                                          ///< scratch (48 B a cell, compile_3d.cpp)
    double compile_s = 0;                 ///< kCompileSecondsPerCell3d * cells
    double step_s = 0;                    ///< one time step on `threads` CPU cores
    long long max_steps = 0;              ///< the run's step limit (run.stop)
};
/// Seconds the 3D compiler takes per cell on one core of the development machine: the
/// issue that asked for this estimate measured 30 s for 20 M cells.
inline constexpr double kCompileSecondsPerCell3d = 1.5e-6;
/// Cell updates per second and core of the 3D CPU engine (docs/performance.md: 167 M on
/// 2 cores at 128^3, float32).
inline constexpr double kCpuCellUpdatesPerCoreS = 80e6;
/// The estimate for `project` as it is (call it on the to_3d result); `threads` >= 1.
GridEstimate estimate_grid(const Project& project, int threads);

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
