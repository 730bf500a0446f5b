// GoLightly geometry compile: shapes -> outlines -> exact per-cell coverage -> averaged
// permittivity on each Yee component's sample points.
//
// Units: um. Arrays: row-major, x fastest, index j * nx + i.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "golightly/project.hpp"

namespace golightly {

/// Sample points (i, j) at (x0_um + i*dx_um, y0_um + j*dx_um). Each sample's averaging
/// window is the dx_um x dx_um square centred on it.
struct SampleGrid {
    int nx = 0, ny = 0;
    double x0_um = 0, y0_um = 0;
    double dx_um = 0;
};

/// Closed polygons (rings of vertices, implicit closing edge). A shape's filled region is
/// the nonzero-winding union of its rings with their orientation: outer boundaries CCW,
/// holes CW (e.g. a ring = outer circle CCW + inner circle CW).
using Outline = std::vector<std::vector<Vec2>>;

/// The outline of a vector shape (rectangle, polygon, ellipse, ring, path), curves
/// discretized so that the sagitta error is below tolerance_um. Throws ProjectError-free
/// std::invalid_argument for raster and step shapes (they have no outline here).
Outline shape_outline(const Shape& shape, double tolerance_um);

/// The cut of a shape by the plane z = z_um: shape_outline for 2D shapes (z ignored), the
/// area-exact disc polygon of a sphere (empty when the plane misses it), the rectangle of a
/// box (empty outside [min z, max z]). For drawing a 2D slice (editor) and 2D coverage.
/// Throws std::invalid_argument as shape_outline (raster, step; sphere radius <= 0).
Outline shape_outline_at(const Shape& shape, double z_um, double tolerance_um);

/// Layers that take part in a run, in drawing order: the main run takes every visible
/// layer that is not reference_only; the reference run only the layers named in
/// run.normalization.reference_layers. A layer whose z range excludes domain.slice_z is
/// left out (2D).
std::vector<const Layer*> select_layers(const Project& project, bool reference_run);

/// Fraction of each sample window covered by each material, layers composited in order: a
/// later layer covers an earlier one, and a window's fractions are the exact areas of what
/// each layer leaves visible (detail::Compositor::composite_exact: the union of the layers
/// from the top down), so a film on a substrate or two abutting shapes of two materials in
/// one window get their true shares. A section with a raster layer composites as f <- f
/// (1 - c) instead (a raster has no outline; its coverage c replaces that share of what
/// lies below).
/// A layer's region is the union of its shapes (overlapping shapes of one layer count
/// once; rasters add to it, clamped to 1). The background material fills what no layer
/// covers. Exact for polygons (analytic area), to the discretization tolerance for curves,
/// area-weighted for rasters; `step` shapes contribute their solids' sections at
/// domain.slice_z (step_import.hpp; curved edges to 1e-3 of a cell); `sphere` and `box`
/// their cuts at slice_z (an area-exact disc polygon, a rectangle); a layer with
/// `sidewall_angle_deg` and a z range its outlines moved inward by (slice_z - z0)
/// tan(angle). Errors: ProjectError naming layers[i].shapes[k].
struct Coverage {
    std::vector<std::string> material_ids;       ///< background first
    std::vector<std::vector<float>> fraction;    ///< [material][j*nx+i], sums to 1 per sample
};
Coverage compute_coverage(const Project& project, const SampleGrid& grid, bool reference_run);

/// Averaged medium seen by a field component at each sample point.
struct AveragedMedium {
    std::vector<double> eps_r;  ///< relative permittivity (epsilon_inf of the materials)
    std::vector<double> sigma;  ///< conductivity, S/m
    /// TEz with subpixel = true only (else empty): the off-diagonal entry of the inverse
    /// permittivity tensor, (eps^-1)_xy = nx ny (<1/eps> - 1/<eps>), at each sample (0 in
    /// uniform windows). eps_r holds 1 / (eps^-1)_dd, d the component's own axis.
    std::vector<double> inv_eps_offdiag;
    /// One sample of a 3D medium whose tensor row has a nonzero off-diagonal entry.
    struct OffDiagonal3 {
        std::size_t sample = 0;  ///< index (k * ny + j) * nx + i on the SampleGrid3
        /// (eps^-1)_{d,e} for e the lower, then the higher of the two axes other than the
        /// component's axis d: n_d n_e (<1/eps> - 1/<eps>)
        double off[2] = {0, 0};
    };
    /// 3D with subpixel = true only (else empty): the samples with a nonzero off-diagonal
    /// entry in the component's row, sorted by sample index (cut cubes at interfaces
    /// oblique to the component's axis; uniform cubes have none).
    std::vector<OffDiagonal3> inv_eps_offdiag_3d;
    /// subpixel = true only (else empty): p = n_d^2, the squared component along the E
    /// component's axis d of the interface normal the average used, at every sample whose
    /// window holds more than one material and was averaged (not staircased), sorted by
    /// sample index (2D j*nx+i, 3D (k*ny+j)*nx+i). p = 0 where eps_r is the plain mean (Ez
    /// in 2D, no resolvable normal). run.subpixel_metal "conformal" averages the full
    /// eps(omega) with the same p (conformal_metal.hpp), so that its eps at infinite
    /// frequency is eps_r.
    std::vector<std::pair<std::size_t, float>> cut_normal_sq;
};

/// The permittivity for one E component (Ez for TMz; Ex or Ey for TEz) on `grid`.
/// subpixel = true: the inverse tensor of Farjadpour et al., Opt. Lett. 31, 2972 (2006),
/// eq. 1, eps^-1 = P <1/eps> + (1 - P) / <eps>, P = n n^T (window means of the materials'
/// epsilon_inf); eps_r = 1 / its diagonal entry for the component, inv_eps_offdiag its xy
/// entry (TEz). The normal n: the window integral of grad eps, exact from the outlines of
/// vector shapes and step sections (sum over the outline pieces inside the window of
/// normal * length, layers composited: a later layer's coverage c scales what lies below
/// by 1 - c), from the coverage gradient (central differences) for layers holding a
/// raster. Ez in 2D is always parallel: plain mean. Uniform windows: the material's
/// values exactly. subpixel = false: staircase (the material with the largest fraction).
/// staircase_materials (ids): with subpixel = true, a sample that one of them covers only
/// in part (0 < f < 1) is staircased as with subpixel = false (run.subpixel_metal
/// "staircase" for dispersive materials); no off-diagonal entry there.
AveragedMedium average_medium(const Project& project, const SampleGrid& grid, Component e_component,
                              bool subpixel, bool reference_run,
                              const std::vector<std::string>& staircase_materials = {});

/// Decodes a raster shape's PNG into coverage values in [0, 1], row 0 = top (max y).
/// Throws std::runtime_error when the data is not a PNG of width_px x height_px.
std::vector<float> decode_raster_coverage(const Shape& raster);

/// Exact coverage of rings on `grid`, in double precision: for every sample (i, j) the
/// fraction of its dx x dx window covered by the nonzero-winding region of all `outlines`
/// together (winding numbers of the outlines add, i.e. overlapping shapes sum), clamped to
/// [0, 1]. Analytic signed-area accumulation (each edge deposits area and cover into the
/// cells it crosses, then a prefix sum along each row, as in scanline font rasterizers);
/// cost O(edge length in cells + cells of the grid). Index j * nx + i.
std::vector<double> outline_coverage(const std::vector<Outline>& outlines, const SampleGrid& grid);

/// Area-weighted box resampling of a raster shape onto `grid`: the fraction of each
/// sample window covered, sum over pixels of coverage * overlap area / dx^2, in [0, 1].
/// Throws std::runtime_error as decode_raster_coverage. Index j * nx + i.
std::vector<double> raster_coverage(const Shape& raster, const SampleGrid& grid);

/// Interior area (um^2) covered by each material (background included) for the `check`
/// command: coverage on the interior cell grid (samples at cell centres, windows = cells,
/// domain [0, Lx] x [0, Ly]), sum of fraction * cell area.
std::map<std::string, double> material_areas_um2(const Project& project, double cell_um, bool reference_run);

// ---------------------------------------------------------------- 3D (spec "3D projects")

/// 3D sample points (i, j, k) at (x0_um + i dx_um, y0_um + j dx_um, z0_um + k dx_um); each
/// sample's averaging window is the dx_um cube centred on it. Arrays over a SampleGrid3
/// are indexed (k * ny + j) * nx + i (x fastest).
struct SampleGrid3 {
    int nx = 0, ny = 0, nz = 0;
    double x0_um = 0, y0_um = 0, z0_um = 0;
    double dx_um = 0;
};

/// compute_coverage in 3D: the fraction of each sample cube covered by each material,
/// layers composited in order as in 2D. Layers extrude their 2D shapes over their z range
/// (unbounded when absent) with `sidewall_angle_deg` (each edge moved inward by
/// (z - z0) tan(angle), z0 the lower end of the layer's z, 0 when absent; miter joins,
/// rings that collapse vanish; rasters stay vertical); `sphere` and `box` shapes and `step`
/// solids carry their own z and ignore the layer's range.
/// Method (geometry_3d.cpp): f(cube) = (1/dx) integral over the cube's z of the 2D
/// fractions of the z-section (compute_coverage's exact areas and layer rules), the z
/// range split where a section jumps (layer limits, box faces, sphere poles, solid
/// limits, sidewall edges parallel to x or y passing a window side); one evaluation where every section is constant, else 2 x 4-point
/// Gauss-Legendre (sqrt-substitution at sphere poles). Volumes are exact for boxes,
/// vertical extrusions, spheres and sidewall prisms (section areas polynomial in z); a
/// single cut cube of a curved object to the quadrature error of its kinked z profile
/// (< 3e-2 next to sphere poles, about 4e-4 on average). `step` solids: their BRepMesh triangle mesh (step_mesh,
/// chordal deflection 2 % of a cell), sectioned per z. A z-invariant stack gives exactly
/// compute_coverage's fractions on every k. Runs on all hardware threads (split in k).
/// Returns fraction[material][(k * ny + j) * nx + i] (float). Memory: 4 bytes per sample
/// per material present. Errors: ProjectError naming layers[i].shapes[k] (bad sphere,
/// STEP errors) or layers[i].material; std::invalid_argument for an empty grid.
Coverage compute_coverage_3d(const Project& project, const SampleGrid3& grid, bool reference_run);

/// average_medium in 3D for one E component (Ex, Ey or Ez) sampled on `grid` (the
/// caller places the grid at that component's Yee positions). subpixel = true: eps_r = 1 /
/// (eps^-1)_dd, the diagonal entry of the inverse tensor of Farjadpour et al. (2006) eq. 1
/// for the component's axis d, with the interface normal n of the sample cube (the cube
/// integral of grad eps_inf), and the row's off-diagonal entries n_d n_e (<1/eps> - 1/<eps>)
/// in inv_eps_offdiag_3d where they are nonzero (inv_eps_offdiag stays empty). subpixel =
/// false: staircase.
/// The normal in cell units: x, y the z-means of the 2D section normals (exact outline
/// pieces, as average_medium), z exactly <eps>(top face) - <eps>(bottom face) (window means
/// of the composited sections); x, y the z quadrature of the 2D normals: exact for
/// vertical walls and for sidewall edges parallel to x or y (the z where such an edge
/// passes a window side, and the 2D normal steps, are breaks of the quadrature), to the
/// quadrature error of a kinked profile for other slanted or curved interfaces (STEP
/// facets parallel to an axis may step inside a piece). Uniform cubes: the material's values. Ez where the normal
/// has no z part: the plain mean (the 2D rule), so a z-invariant stack gives average_medium's
/// Ex, Ey (TEz) and Ez (TMz) values bit for bit on every k. Arrays indexed (k * ny + j) * nx
/// + i. staircase_materials: as average_medium. Errors: as compute_coverage_3d;
/// std::invalid_argument for a component not Ex/Ey/Ez.
AveragedMedium average_medium_3d(const Project& project, const SampleGrid3& grid, Component e_component,
                                 bool subpixel, bool reference_run,
                                 const std::vector<std::string>& staircase_materials = {});

/// Interior volume (um^3) filled by each material (background included) for `check`:
/// coverage on the interior cell grid (samples at cell centres, windows = cells, domain
/// [0, Lx] x [0, Ly] x [0, Lz]), sum of fraction * dx^3.
std::map<std::string, double> material_volumes_um3(const Project& project, double cell_um, bool reference_run);

}  // namespace golightly
