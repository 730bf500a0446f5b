#pragma once
// Design densities for topology optimization (issue 53 item 3): the density grid of a design
// region, its filters (with their exact transposes, for chaining adjoint gradients), the tanh
// projection and its beta schedule, the minimum length scale constraints of Hammond et al.,
// the morphological check of a binarized design and the contours of a 2D design for GDS.
// docs/inverse-design.md states the mathematics with its references.
//
// Layout, everywhere in this header: a grid of nx x ny x nz cells (nz = 1 in 2D) stored
// row-major with x fastest, the cell (i, j, k) at index (k * ny + j) * nx + i (in 2D
// j * nx + i); every per-cell array (densities, filtered densities, gradients) has
// nx * ny * nz doubles in that order. Cells are cubes of edge dx_um (micrometres); the
// center of cell (i, j, k) lies at ((i + 1/2) dx, (j + 1/2) dx, (k + 1/2) dx) from the
// region's lower corner. Densities are dimensionless, 0 = the background material, 1 = the
// design material.
//
// Axes with a single cell (nz = 1 in 2D; also ny = 1) are not filtered, not differentiated
// and not eroded along: a 2D grid is treated as 2D, not as a one-cell-thick 3D slab.
#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <vector>

namespace golightly::design {

/// A density grid: nx * ny * nz values rho in [0, 1] (row-major, x fastest: index
/// (k * ny + j) * nx + i), cells of edge dx_um micrometres. nz = 1 for a 2D design.
struct DensityGrid {
    int nx = 1, ny = 1, nz = 1;
    double dx_um = 0;            ///< cell edge, um (the same along every axis)
    std::vector<double> rho;     ///< nx * ny * nz densities, dimensionless in [0, 1]

    std::size_t size() const { return static_cast<std::size_t>(nx) * ny * nz; }
};

/// Throws std::invalid_argument naming the problem when `grid` is not usable: a dimension
/// below 1, dx_um not positive and finite, or rho not of nx * ny * nz finite values.
void validate(const DensityGrid& grid);

// ---------------------------------------------------------------------------------------
// 1. Filters (the density filter of Bourdin, Int. J. Numer. Meth. Eng. 50, 2143 (2001) and
//    Bruns & Tortorelli, Comput. Methods Appl. Mech. Eng. 190, 3443 (2001); reviewed with
//    its PDE form by Lazarov & Sigmund, Int. J. Numer. Meth. Eng. 86, 765 (2011); as used by
//    Hammond et al., Opt. Express 29, 23916 (2021), and Meep's mpa.conic_filter /
//    mpa.gaussian_filter).
// ---------------------------------------------------------------------------------------

enum class FilterKind {
    /// The linear "hat": w(r) = max(0, 1 - r / R), R the radius in um (Lazarov, Wang &
    /// Sigmund, Arch. Appl. Mech. 86, 189 (2016); Meep's conic_filter).
    Conic,
    /// The Gaussian of Meep's gaussian_filter: w(r) = exp(-r^2 / sigma^2), sigma in um
    /// (note: no factor 2 in the denominator, as Meep), truncated to the box |offset| <=
    /// 3 sigma along each axis (w <= 1.2e-4 beyond; Meep's kernel is truncated by its
    /// box too), so that it runs as one 1D pass per axis.
    Gaussian,
};

/// The filtered density rho~ = A rho: rho~_p = sum_q w(|x_p - x_q|) rho_{clamp(q)} /
/// sum_q w(|x_p - x_q|), the sum over every offset q within the kernel's reach (the ball
/// of radius R for Conic, the box of half-width 3 sigma for Gaussian) along the axes with
/// more than one cell.
/// Boundary treatment: the density is extended beyond the grid by its nearest edge cell
/// (edge replication, "clamp"), as Meep's edge padding (convolve_design_weights_and_kernel
/// pads each side by the whole region with the edge values); features touching the region's
/// edge (the waveguides entering it) are therefore not eroded by the filter. The weights are
/// normalized by the full kernel's sum, so a uniform density stays uniform.
/// `radius_um`: R (Conic) or sigma (Gaussian), um, > 0; R <= dx_um (3 sigma < dx_um) gives
/// the identity. Returns nx * ny * nz values in the grid's layout (x fastest).
/// Cost: cells x kernel cells (direct convolution) for Conic, cells x (6 sigma / dx_um + 1)
/// per axis for Gaussian.
/// Throws std::invalid_argument (validate(grid); radius not positive and finite).
std::vector<double> filter(const DensityGrid& grid, FilterKind kind, double radius_um);

/// The exact transpose of filter(): dF/drho = A^T dF/drho~ (the clamped offsets are summed
/// back onto the edge cells they replicate), so that <A x, y> = <x, A^T y> to round-off.
/// `dF_dfiltered`: nx * ny * nz values (layout as grid.rho; grid.rho itself is not read).
/// Returns dF/drho, nx * ny * nz values in the same layout.
/// Throws std::invalid_argument (as filter(); dF_dfiltered of the wrong size).
std::vector<double> filter_adjoint(const DensityGrid& grid, FilterKind kind, double radius_um,
                                   const std::vector<double>& dF_dfiltered);

// ---------------------------------------------------------------------------------------
// 2. Projection (Wang, Lazarov & Sigmund, Struct. Multidisc. Optim. 43, 767 (2011), sec. 2,
//    the tanh (smoothed Heaviside) projection; Meep's mpa.tanh_projection).
// ---------------------------------------------------------------------------------------

/// The projected density of one filtered density x (dimensionless):
///     P(x; beta, eta) = [tanh(beta eta) + tanh(beta (x - eta))]
///                       / [tanh(beta eta) + tanh(beta (1 - eta))],
/// so P(0) = 0, P(1) = 1 and P(eta) = tanh(beta eta) / [tanh(beta eta) + tanh(beta (1 - eta))].
/// beta >= 0 the steepness (beta = 0: the identity, the limit of the formula);
/// beta = +infinity: the Heaviside step, 1 where x > eta, else 0 (as Meep); eta in [0, 1]
/// the threshold. Throws std::invalid_argument (beta negative or NaN, eta outside [0, 1]).
double project_tanh(double x, double beta, double eta);

/// dP/dx = beta sech^2(beta (x - eta)) / [tanh(beta eta) + tanh(beta (1 - eta))]; 1 for
/// beta = 0; for beta = +infinity 0 everywhere (the step's derivative away from eta; at
/// x = eta exactly also 0: the gradient of a Heaviside is not usable there). 1/(unit of x).
/// Throws as project_tanh.
double project_tanh_derivative(double x, double beta, double eta);

/// project_tanh of each value (any layout; the result has the same layout, e.g. nx * ny * nz
/// values x fastest for a density grid).
std::vector<double> project_tanh(const std::vector<double>& x, double beta, double eta);

/// The chain rule through the projection: dF/dx_p = dF/dP_p * P'(x_p) (elementwise; `x`
/// the filtered densities, `dF_dprojected` the gradient with respect to the projected ones,
/// both in the same layout). Throws std::invalid_argument (sizes differ).
std::vector<double> project_tanh_adjoint(const std::vector<double>& x, double beta, double eta,
                                         const std::vector<double>& dF_dprojected);

/// The beta continuation of Meep's examples: beta0 for the first `every` iterations, then
/// multiplied by `factor` after each further `every` iterations, capped at beta_max:
///     beta(n) = min(beta0 * factor^floor(n / every), beta_max),   n = 0, 1, 2, ...
/// beta_max may be +infinity (the step, for the final binarized design). Throws
/// std::invalid_argument (iteration < 0, every < 1, beta0 not positive and finite,
/// factor < 1, beta_max < beta0).
double beta_schedule(int iteration, double beta0, double beta_max, int every, double factor = 2.0);

/// The subpixel-smoothed projection (Hammond, Oskooi, I. M. Hammond, Chen, Ralph & Johnson,
/// "Unifying and accelerating level-set and density-based topology optimization by
/// subpixel-smoothed projection", arXiv:2503.20189 (2025); Meep's mpa.smoothed_projection),
/// which keeps a gradient up to beta = +infinity. `filtered` holds the filtered densities
/// rho~ (nx * ny * nz values, x fastest; they must be smooth, i.e. filtered). Per cell, with
/// the gradient |grad rho~| (1/um; numpy.gradient differences as the length scale
/// constraints), the distance to the eta level d = (eta - rho~) / |grad rho~| (um) and the
/// smoothing radius R_s = 0.55 dx_um: where |grad rho~| = 0 or |d| >= R_s, P(rho~) as
/// project_tanh; else, with u = d / R_s, the fill fraction
///     F = 1/2 - (15/16) u + (5/8) u^3 - (3/16) u^5
/// (the integral of the kernel (15/16)(1 - x^2)^2 from u to 1) and the extremes
/// rho- = rho~ - R_s |grad rho~| F, rho+ = rho~ + R_s |grad rho~| (1 - F), the value
///     (1 - F) P(rho-) + F P(rho+).
/// At beta = +infinity that is F at an interface and 0 or 1 elsewhere. Returns nx * ny * nz
/// values in [0, 1], x fastest. Throws std::invalid_argument (validate(filtered); beta, eta
/// as project_tanh).
std::vector<double> project_smoothed(const DensityGrid& filtered, double beta, double eta);

/// The transpose-chained gradient of project_smoothed: dF/drho~ from dF/drho^ (both
/// nx * ny * nz values, x fastest), through each cell's own rho~ and, by the transposes of
/// the difference operators, its neighbours' (the gradient norm). Throws as
/// project_smoothed, and when dF_dprojected has the wrong size.
std::vector<double> project_smoothed_adjoint(const DensityGrid& filtered, double beta, double eta,
                                             const std::vector<double>& dF_dprojected);

/// The density mapping the adjoint gradient is chained through: the design densities rho,
/// filtered, rho~ = filter(rho), then projected, rho^ = project_tanh(rho~, beta, eta) (or
/// project_smoothed); rho^ is what the permittivity interpolates
/// (eps = eps_0 + rho^ (eps_1 - eps_0)).
struct DesignMapping {
    FilterKind kind = FilterKind::Conic;
    double radius_um = 0;  ///< filter radius R or sigma, um; 0: no filter (rho~ = rho)
    double beta = 8;       ///< projection steepness, >= 0, +infinity allowed
    double eta = 0.5;      ///< projection threshold in [0, 1]
    bool smoothed = false; ///< project_smoothed instead of project_tanh
};

/// rho^ of `grid` (nx * ny * nz values, x fastest, dimensionless in [0, 1]).
/// Throws std::invalid_argument (as filter() and project_tanh(); radius_um negative).
std::vector<double> map_density(const DensityGrid& grid, const DesignMapping& mapping);

/// The chain rule of map_density: dF/drho = A^T [P'(rho~) dF/drho^] (A the filter, P' the
/// projection's derivative at the filtered densities of grid.rho; for the smoothed
/// projection A^T project_smoothed_adjoint). `dF_dprojected` and the
/// result: nx * ny * nz values, x fastest; units those of F (per unit density).
/// Throws std::invalid_argument (as map_density; dF_dprojected of the wrong size).
std::vector<double> map_density_adjoint(const DensityGrid& grid, const DesignMapping& mapping,
                                        const std::vector<double>& dF_dprojected);

// ---------------------------------------------------------------------------------------
// 3. Minimum length scale constraints (Hammond, Oskooi, Johnson & Ralph, Opt. Express 29,
//    23916 (2021), sec. 2, the linewidth and linespacing constraints, after Zhou, Lazarov,
//    Wang & Sigmund, Comput. Methods Appl. Mech. Eng. 293, 266 (2015); Meep's
//    mpa.constraint_solid / mpa.constraint_void with mpa.tanh_projection as threshold).
// ---------------------------------------------------------------------------------------

/// The parameters of the length scale constraints. With rho~ = filter(rho) (kind, radius_um),
/// rho^ = project_tanh(rho~, beta, eta_i) and |grad rho~|^2 the squared gradient of the
/// filtered density (1/um^2; central differences inside, one-sided first-order differences
/// on the first and last cell of each axis, as numpy.gradient, which Meep uses; axes with a
/// single cell contribute nothing), the indicators
///     I_s = rho^ exp(-c |grad rho~|^2),        I_v = (1 - rho^) exp(-c |grad rho~|^2)
/// pick the inflection regions (the middle of solid and of void features) and the constraints
///     g_s = (1/N) sum_p I_s,p min(rho~_p - eta_e, 0)^2,
///     g_v = (1/N) sum_p I_v,p min(eta_d - rho~_p, 0)^2
/// (N = nx * ny * nz) vanish when every solid feature's middle reaches eta_e and every void
/// feature's middle falls to eta_d, i.e. when solid and void features are at least the
/// length scale b wide (with eta_e from eta_e_from_conic(b, R), or R from
/// conic_radius_from_eta_e(b, eta_e)). An optimizer imposes g_s <= epsilon, g_v <= epsilon
/// (Meep's examples: epsilon = 1e-8).
/// Resolution: with c_um2 in um^2 (a fixed multiple of R^2, not of dx^2) the indicators pick a
/// band of physical width around a feature's middle, set by the filter, so that
/// (1/N) sum_p = (1/A) sum_p dx^2 (A the region's area, um^2) is the midpoint rule for
/// (1/A) times the integral of I h over the region: g converges as dx -> 0 and the same bound
/// holds the same physical features at any pixel size (tests/solver/
/// test_length_scale_resolution.cpp: a violating bar gives g within 2 % at 20, 10 and 5 nm).
/// g is a mean over the region's area, so one violating feature weighs less in a larger
/// region: epsilon is a fraction of the area, not a per-feature tolerance.
struct LengthScaleConstraint {
    FilterKind kind = FilterKind::Conic;
    double radius_um = 0;  ///< filter radius R (Conic) or sigma (Gaussian), um
    double beta = 8;       ///< projection steepness (+infinity allowed: then d rho^ / d rho~ = 0)
    double eta_i = 0.5;    ///< projection threshold of the design
    double eta_e = 0.75;   ///< eroded threshold (solid constraint)
    double eta_d = 0.25;   ///< dilated threshold (void constraint); 1 - eta_e as Meep
    /// Decay rate c of the indicators, um^2. Meep's examples pass the gradient per design
    /// pixel (resolution 1), i.e. c_pixels = c_um2 / dx_um^2.
    double c_um2 = 0;
};

/// A constraint's value (dimensionless) and its gradient with respect to the design
/// densities rho (nx * ny * nz values, x fastest, as grid.rho), through the projection and
/// the filter.
struct ConstraintValue {
    double value = 0;
    std::vector<double> gradient;
};

/// g_s of LengthScaleConstraint and dg_s / drho. Throws std::invalid_argument (validate(grid);
/// a parameter out of range: radius not positive, beta negative, an eta outside [0, 1],
/// c_um2 negative).
ConstraintValue constraint_solid(const DensityGrid& grid, const LengthScaleConstraint& params);

/// g_v of LengthScaleConstraint and dg_v / drho (the same layout and errors).
ConstraintValue constraint_void(const DensityGrid& grid, const LengthScaleConstraint& params);

/// The conic filter radius R (um) that gives the minimum length scale b = length_um at the
/// eroded threshold eta_e (Qian & Sigmund, Comput. Methods Appl. Mech. Eng. 253, 237 (2013);
/// Meep's get_conic_radius_from_eta_e): R = b / (2 sqrt(eta_e - 1/2)) for eta_e in
/// (1/2, 3/4), R = b / (2 - 2 sqrt(1 - eta_e)) for eta_e in [3/4, 1]. Throws
/// std::invalid_argument (length not positive, eta_e outside (1/2, 1]: at 1/2, R is infinite).
double conic_radius_from_eta_e(double length_um, double eta_e);

/// The inverse: the eroded threshold for length scale b and conic radius R (um):
/// eta_e = b^2 / (4 R^2) + 1/2 for b / R < 1, b / R - b^2 / (4 R^2) for 1 <= b / R < 2,
/// else 1 (Meep's get_eta_from_conic). Throws std::invalid_argument (b < 0, R <= 0).
double eta_e_from_conic(double length_um, double radius_um);

// ---------------------------------------------------------------------------------------
// 4. Morphological check of a binarized design (Serra, Image Analysis and Mathematical
//    Morphology, 1982; the length scale definition of Hammond et al. 2021, sec. 2: a design
//    has minimum length scale L when opening and closing with a disc of diameter L leave it
//    unchanged; used by the validation of final designs).
// ---------------------------------------------------------------------------------------

/// Whether the binarized design (solid where rho >= 1/2) passes length scale length_um on
/// its solid phase: the opening (erosion then dilation) with a disc (2D) or ball (3D) of
/// diameter length_um leaves it unchanged. The disc of diameter n cells (n = round(length_um
/// / dx_um)) is the set of cell offsets whose centers lie within n/2 cells of its center,
/// itself a cell center for odd n and a cell corner for even n, so a straight line of w
/// cells passes exactly the n <= w. Outside the grid the design continues as its nearest
/// edge cell (as the filters), so features running into the region's edge are not cut.
/// Axes with one cell are not eroded along. Cost: cells x disc rows (n in 2D, ~n^2 in 3D).
/// Throws std::invalid_argument (validate(grid); length not positive and finite).
bool solid_passes_length_scale(const DensityGrid& grid, double length_um);

/// The same for the void phase: the closing (dilation then erosion) leaves it unchanged.
bool void_passes_length_scale(const DensityGrid& grid, double length_um);

/// The smallest solid feature, um: the largest n dx_um such that the solid phase passes
/// every length scale m dx_um, 1 <= m <= n (m = 1 always passes); +infinity when it passes
/// every m dx_um up to search_up_to_um (by default up to the grid's largest dimension plus
/// one cell: no solid, or only solid running off the edges). Cost: cells x n^2 in 2D (one
/// opening per m), so a validation against a length scale L searches up to a few L only.
double minimum_solid_feature_um(const DensityGrid& grid,
                                double search_up_to_um = std::numeric_limits<double>::infinity());

/// The smallest void feature (gap), um, as minimum_solid_feature_um for the void phase.
double minimum_void_feature_um(const DensityGrid& grid,
                               double search_up_to_um = std::numeric_limits<double>::infinity());

/// min(minimum_solid_feature_um, minimum_void_feature_um): the design passes length scale L
/// (opening and closing unchanged) for every L up to it, in steps of dx_um.
double minimum_feature_um(const DensityGrid& grid,
                          double search_up_to_um = std::numeric_limits<double>::infinity());

/// Measured minimum length scales of a binarized 2D design, um.
struct MeasuredLengthScale {
    double solid_um = 0;
    double void_um = 0;
    double min_um() const { return std::min(solid_um, void_um); }
};

/// The minimum length scale of the solid and of the void phase of a binarized 2D design
/// (solid where rho >= 1/2), as the "imageruler" of Chen, Hammond, Mann, Wang, ... & Johnson,
/// J. Opt. Soc. Am. B 41, A161 (2024), sec. 2 (the benchmark measure of the inverse-design
/// community): the largest brush (a pixelated disc of diameter n pixels, opened by the
/// 3-pixel plus for n > 2) whose opening leaves every solid pixel in place, with outside
/// the grid counted as the phase measured (features running off the region are not cut),
/// pixel steps on the edges of large features ignored (its "large feature edges, strict"
/// scheme: a digitized boundary of a wide feature fails any disc at its corners), and a
/// pixel counted as a violation only if it fails every brush from n to n + 9 (its
/// feasibility gap allowance: a feature drawable with a larger brush is not too small).
/// The result is n dx_um per phase (a phase that is absent or fills the grid: the grid's
/// largest dimension). The strict opening/closing test above counts every corner pixel;
/// this is the figure to compare with published designs. 1D grids (nx or ny = 1): the
/// shortest interior run of each phase. Cost: O(cells x n x 10) per tried n, a few tens of
/// n. Throws std::invalid_argument (validate(grid); nz > 1).
MeasuredLengthScale measure_length_scale(const DensityGrid& grid);


// ---------------------------------------------------------------------------------------
// 5. Contours of a 2D design for GDS (marching squares: Lorensen & Cline, Comput. Graph.
//    21(4), 163 (1987), in its 2D form; saddle cells decided by the cell's mean value, the
//    simplest of the deciders that keep the loops closed and consistent).
// ---------------------------------------------------------------------------------------

/// One closed polygon: vertices (x, y) in um, the edge from the last vertex back to the
/// first closing it (the first vertex is not repeated).
struct ContourLoop {
    std::vector<std::array<double, 2>> xy_um;
    /// true for a hole (clockwise, solid on its outside), false for an outer boundary
    /// (counter-clockwise); solid lies on the left of every loop's direction.
    bool hole = false;
};

/// The contours at `level` (default 1/2) of a 2D density grid (nz = 1): the density sampled
/// at the cell centers, x = origin_x_um + (i + 1/2) dx_um, y = origin_y_um + (j + 1/2) dx_um
/// (origin = the region's lower-left corner, um), solid where rho >= level, the crossing on
/// each edge between two samples by linear interpolation of the level (the level set of the
/// filtered density at eta is the design that a projection at beta = infinity makes, with
/// its interfaces between the pixels). Outside the grid the density is 0 (beside a solid edge
/// sample v: 2 level - v, which puts the crossing on the region's edge),
/// so every loop closes: solid touching the region's edge is bounded by that edge (its
/// corners cut by half a cell's diagonal). Saddle cells join the solid diagonals when the
/// cell's mean is >= level. Outer boundaries run counter-clockwise, holes clockwise, as
/// separate loops (GDS needs holes cut into their outer boundary by the writer). Vertices
/// on straight runs (a collinear middle vertex) are dropped. Loops come in the order of their
/// first crossing in the grid (x fastest), which makes the result deterministic.
/// Throws std::invalid_argument (validate(grid); nz != 1; level not in (0, 1)).
std::vector<ContourLoop> density_contours(const DensityGrid& grid, double origin_x_um, double origin_y_um,
                                          double level = 0.5);

/// The signed area of a loop, um^2 (shoelace formula): positive counter-clockwise.
/// The solid area of a design is the sum over its loops (holes count negative).
double signed_area_um2(const ContourLoop& loop);

}  // namespace golightly::design
