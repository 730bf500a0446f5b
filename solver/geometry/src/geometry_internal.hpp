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

private:
    void add_edge(double u0, double v0, double u1, double v1);
    void deposit(int j, double u_lo, double u_hi, double dv, double gx, double gy);
    SampleGrid grid_;
    std::vector<std::vector<std::pair<int, double>>> rows_;
    struct NormalPiece {
        int k;
        double gx, gy;
    };
    std::vector<std::vector<NormalPiece>> normals_;  ///< per row, sparse
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

/// Curve discretization tolerance used for coverage on a grid of cell dx_um.
double coverage_tolerance_um(double dx_um);

}  // namespace golightly::detail
