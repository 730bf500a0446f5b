// GoLightly geometry: internal helpers shared by geometry_coverage.cpp and
// geometry_medium.cpp (not part of the public contract).
#pragma once

#include <utility>
#include <vector>

#include "golightly/geometry.hpp"

namespace golightly::detail {

/// Signed-area deposits of outline edges, per sample row (the accumulation buffer of a
/// scanline area rasterizer, stored sparsely). Cell coordinates: u = (x - x0)/dx + 0.5,
/// v = (y - y0)/dx + 0.5, so sample (i, j)'s window is [i, i+1] x [j, j+1].
class AreaAccumulator {
public:
    explicit AreaAccumulator(const SampleGrid& grid);
    /// Adds every edge of every ring (winding numbers add).
    void add_outline(const Outline& outline);
    bool row_empty(int j) const { return rows_[j].empty(); }
    /// Coverage of row j: out[i] = clamp(|prefix sum|, 0, 1) for i in [lo, hi); zero outside
    /// (out is not written there). Returns {lo, hi}. scratch must hold nx + 2 doubles.
    std::pair<int, int> row_coverage(int j, double* out, double* scratch) const;
    /// Interface normals of row j: adds into gx[i], gy[i] (cell units) the window integral
    /// of grad chi of the region, i.e. the sum over the outline pieces inside window (i, j)
    /// of -(outward unit normal) * length / dx (divergence theorem; pieces lying exactly on
    /// a window edge go to one side). Winding numbers add, as for the coverage, so edges
    /// hidden inside overlapping shapes of one accumulator count too. Pieces left or right
    /// of the grid are dropped.
    void add_row_normals(int j, double* gx, double* gy) const;
    /// One directed edge in cell coordinates (u, v) (add_outline's edges; winding numbers add).
    void add_edge(double u0, double v0, double u1, double v1);

private:
    void deposit(int j, double u_lo, double u_hi, double dv, double gx, double gy);
    SampleGrid grid_;
    std::vector<std::vector<std::pair<int, double>>> rows_;
    struct NormalPiece {
        int k;
        double gx, gy;
    };
    std::vector<std::vector<NormalPiece>> normals_;  ///< per row, sparse
};

/// The region of one layer: the nonzero-winding union of its shapes. Each shape (or STEP
/// solid section) is a "group" whose own winding number is 0 or 1 (simple rings, holes CW);
/// two shapes of one layer that overlap must count once, not twice (a partial cell covered
/// by both gets the area of their union). Edges are kept per sample row (cell coordinates
/// as AreaAccumulator); deposit() passes the rows where no two groups overlap straight to the
/// accumulator, and in the other rows replaces the edges by the boundary of the union:
/// the row is cut into horizontal strips at every vertex and every crossing of two edges,
/// inside a strip the edges are ordered by abscissa and swept, and the stretches of nonzero
/// winding become trapezoids (left side downward, right side upward, horizontal sides at
/// inner strip limits), deposited as outline edges. Exact up to rounding; cost per union
/// row O(m log m + strips * m), m its edge pieces.
class UnionBuilder {
public:
    explicit UnionBuilder(const SampleGrid& grid);
    /// Adds every ring of `outline` (um) as part of `group`.
    void add_outline(const Outline& outline, int group);
    /// Adds one directed edge a -> b (um; interior on its left) as part of `group`.
    void add_segment(Vec2 a, Vec2 b, int group);
    /// Deposits the union into `acc` (which has the same grid).
    void deposit(AreaAccumulator& acc) const;
    bool empty() const { return empty_; }
    /// One more than the largest group added (0 when none): a group number free for the
    /// next shape, e.g. append()'s offset.
    int groups() const { return groups_; }
    /// Adds every piece of `other` (same grid) with its group increased by `group_offset`,
    /// so that this builder's union then covers both regions (Compositor::composite_exact).
    void append(const UnionBuilder& other, int group_offset);

private:
    struct Piece {
        double u0, v0, u1, v1;  ///< directed, cell coordinates, within one row
        int group;
    };
    void add_edge(double u0, double v0, double u1, double v1, int group);
    void deposit_union_row(int j, const std::vector<Piece>& pieces, AreaAccumulator& acc) const;
    SampleGrid grid_;
    std::vector<std::vector<Piece>> rows_;
    bool empty_ = true;
    int groups_ = 0;
};

/// Area-weighted box resampling of a raster shape onto sample windows, row by row.
class RasterResampler {
public:
    RasterResampler(const Shape& raster, const SampleGrid& grid);
    /// Adds the raster's coverage of sample row j into out[i]; returns the column range
    /// {lo, hi} touched (lo == hi when none).
    std::pair<int, int> add_row(int j, double* out) const;
    int j_begin() const { return j0_; }
    int j_end() const { return j1_; }

private:
    SampleGrid grid_;
    int width_px_ = 0, height_px_ = 0;
    double origin_x_ = 0, origin_y_ = 0, pixel_ = 0;
    std::vector<float> coverage_bottom_up_;  ///< [r * width + p], r = 0 at the bottom
    int i0_ = 0, i1_ = 0, j0_ = 0, j1_ = 0;
    std::vector<int> x_start_;      ///< CSR offsets per column i - i0 into x_pixel_/x_weight_
    std::vector<int> x_pixel_;
    std::vector<double> x_weight_;  ///< overlap length / dx
};

/// compute_coverage, plus (when normal_x and normal_y are given) per sample the window
/// integral of grad eps_inf in cell units (index j * nx + i), the interface normal up to
/// length and sign: exact from the outline pieces for vector and step shapes, central
/// differences of the layer coverage for layers holding a raster; layers composited as
/// the fractions are (comment in geometry_medium.cpp).
Coverage coverage_with_normals(const Project& project, const SampleGrid& grid, bool reference_run,
                               std::vector<float>* normal_x, std::vector<float>* normal_y);

/// Layer compositing of one 2D section (the rules of compute_coverage): material m's
/// fraction array frac[m] (index j * nx + i, empty until the material covers something;
/// frac[0] the background). composite_exact takes all layers at once and is exact;
/// add_layer, one layer at a time, is used where a layer holds a raster: a layer's
/// coverage c replaces that share of what lies below, f <- f (1 - c), and with normals
/// (per sample the window integral of grad eps_inf in cell units) g <- (1 - c) g +
/// (eps_L - <eps>_below) G_L (comment in geometry_medium.cpp).
class Compositor {
public:
    /// eps_of: epsilon_inf per material index (background first).
    Compositor(const SampleGrid& grid, std::vector<double> eps_of, bool normals);
    /// Composites one layer of material m: its outline region (acc, already deposited) and
    /// its rasters (added to the outline coverage, clamped to 1).
    void add_layer(int m, const AreaAccumulator& acc, const std::vector<RasterResampler>& rasters);
    /// Composites all layers of a section at once, exactly, where no layer holds a raster:
    /// layers[k] = {material index, the layer's region}, in drawing order (a later layer
    /// covers an earlier one). Replaces the fractions and normals (call it on a fresh
    /// Compositor, instead of add_layer). From the top layer down, U_k is the union of
    /// layers k..last and the visible part of layer k is U_k minus U_(k+1), so
    ///     frac[m_k] += A(U_k) - A(U_(k+1)),   frac[0] = 1 - A(U_first),
    ///     g = sum_k eps_k (G(U_k) - G(U_(k+1))) - eps_background G(U_first),
    /// A the window area fraction and G the window integral of grad chi (cell units). Unlike
    /// add_layer's f <- f (1 - c), which takes the two layers' parts of a window as
    /// independent, this is exact where the edges of two layers share a window (a film on a
    /// substrate, abutting shapes of two materials): there add_layer is off by a fraction of
    /// a cell (a first-order error; docs/user-guide.md, sub-pixel averaging). Cost: one union
    /// deposit per layer, of the layers above it and itself.
    void composite_exact(const std::vector<std::pair<int, const UnionBuilder*>>& layers);
    std::vector<std::vector<float>> frac;
    std::vector<float> normal_x, normal_y;  ///< empty without normals

private:
    SampleGrid grid_;
    std::vector<double> eps_of_;
    std::vector<int> allocated_;
    bool normals_;
    std::vector<double> row_, scratch_, gx_row_, gy_row_, layer_cov_;
};

/// The materials a run's layers use: ids (background first, then in order of first use)
/// and epsilon_inf. Throws ProjectError naming domain.background or layers[i].material.
struct MaterialIndex {
    std::vector<std::string> ids;
    std::vector<double> eps;
    std::vector<int> layer_material;  ///< per selected layer: index into ids
};
MaterialIndex index_materials(const Project& project, const std::vector<const Layer*>& layers);

/// Per material id of `ids`: 1 where it is one of `staircase` (average_medium's
/// staircase_materials), else 0.
std::vector<char> staircase_flags(const std::vector<std::string>& ids, const std::vector<std::string>& staircase);

/// "layers[i]" for a selected layer.
std::string layer_path(const Project& project, const Layer* layer);

/// Ring offset for sidewalls: every edge of every ring moved by d (um) towards the filled
/// side (d < 0: away from it), vertices at the intersections of adjacent offset edges
/// (miter joins). Rings whose signed area changes sign or vanishes (d beyond the inradius)
/// are dropped. Exact for convex rings; for concave rings exact while no edge collapses.
Outline offset_outline(const Outline& outline, double d_um);

/// The cut at z_um of a layer's shape with 3D meaning: sphere -> disc, box -> rectangle
/// (empty outline when the plane misses it); the layer's sidewall offset for extruded 2D
/// shapes is applied by the caller (offset_outline).
Outline solid_section_outline(const Shape& shape, double z_um, double tolerance_um);

/// Curve discretization tolerance used for coverage on a grid of cell dx_um.
double coverage_tolerance_um(double dx_um);

}  // namespace golightly::detail
