// GoLightly: shape parameters as design variables of the adjoint optimizer (issue 53 item
// 3; docs/inverse-design.md "Shape parameters").
//
// A design of shape parameters (`design.shape_parameters`, design_spec.hpp) names project
// parameters p_k (top-level `parameters`; widths, positions, vertices, thicknesses and
// material indices may be expressions of them). The figure of merit F is the one of a
// density design (adjoint_project.hpp); its gradient is
//   dF/dp_k = sum_s dF/deps_r(s) * deps_r(s)/dp_k,
// where s runs over the E Yee sites (component, cell) and dF/deps_r(s) is the density
// adjoint's sensitivity, from the same one forward and one adjoint run per functional
// (adjoint.hpp evaluate_sites: the same code as the density gradient). deps_r(s)/dp_k
// comes from the compiled permittivity itself: the project is recompiled (no run; no
// monitors) at p_k +- h_k and the table eps_r of each E site differenced,
//   deps_r(s)/dp_k = (eps_r(s; p + h_k e_k) - eps_r(s; p - h_k e_k)) / (2 h_k).
// Lossy and dispersive sites: the site's discrete eps_d(s, w) (dispersion.hpp: eps_inf,
// conductivity, pole set and weight) is differenced at each objective frequency, complex,
// and dF/dp_k = sum_{s,f} Re(-(1 - e^{i w_f dt}) E_fwd lambda d eps_d(s, w_f) / dp_k)
// (adjoint.hpp Evaluation::site_forward, site_adjoint). Sub-pixel tensor-coupled sites (TEz,
// 3D): the engine steps E^{n+1} - E^n = K (S curl H~ + J') with K the inverse-permittivity
// tensor (scene.hpp "Anisotropic cells"), so dF/dp_k = sum_f Re((1 - e^{i w_f dt})
// D~_adj^T dK/dp_k D~_fwd) with D~ = K^-1 E solved over the coupled sites (their couplings
// and diagonals differenced like eps_r): the exact adjoint of the tensor update
// (docs/inverse-design.md section 8).
// With run.subpixel_averaging (required) the averaged eps_r of a site is a continuous,
// piecewise smooth function of the boundary's position: the window mean of eps over the
// site's cell (Ez in TMz, and components tangential to the boundary) or the inverse of
// the window mean of 1/eps (components normal to it); both are exact integrals of the
// shapes' outlines (geometry.hpp), so the difference quotient converges to the
// derivative. The sites whose eps_r changes are those whose cell window the moving
// boundary crosses; only they are sampled (their DFT fields stored), a subset of their
// bounding box.
//
// This is the discrete form of the shape derivative that Tidy3D's autograd uses for
// geometry (and Meep's sub-pixel smoothing rests on): the boundary perturbation formula
// of Johnson et al., Phys. Rev. E 65, 066611 (2002), the integral over the moving surface
// of the normal velocity v_n times
// Re[(eps_2 - eps_1) E_par,fwd . E_par,adj - (1/eps_2 - 1/eps_1) D_perp,fwd D_perp,adj]:
// for a boundary moved by v_n dp, the mean of eps over a window the boundary crosses
// changes by (eps_2 - eps_1) v_n dp L / dx^2 (L the boundary's length in the window), so
// sum_s dF/deps(s) deps(s)/dp is the boundary integral with the fields sampled at the
// Yee sites within a cell of the boundary; the normal components' harmonic mean gives the
// D_perp term (d(1/<1/eps>) = <1/eps>^-2 (1/eps_1 - 1/eps_2) v_n dp L / dx^2, and
// E_perp = D_perp / eps_avg). The two agree to O(dx): the fields vary by O(dx) relative
// over the cell in which they are sampled. Unlike the continuous formula, the discrete
// form is the exact derivative of what the engine computes (up to the O(h_k^2) of the
// difference and the table's 1e-7 rounding of eps_r), so it matches finite differences of
// forward runs (tests/solver/test_adjoint_shape.cpp).
//
// Limits (refused with messages naming the parameter): the parameter may change only the
// layers and the materials (not sources, monitors, the domain or run settings); the moving
// sites must hold no source, lie outside the PML and not touch a TF/SF face; the
// objective's samples (mode monitors, points) must not lie on sites the parameter moves
// (a mode's shape would change with it, which is not differentiated). Sites in the PML
// take the same sensitivity; there the CPML's near-symmetry limits the accuracy to its
// reflection level (adjoint.hpp). One kind of design per project: shape parameters or a
// density region, not both.
#pragma once

#include <array>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "golightly/adjoint.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_tensor.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/project.hpp"

namespace golightly::adjoint {

/// d eps / d p at the sites any parameter moves.
struct ShapeSensitivity {
    DesignSites sites;               ///< grouped by component (scene order), cells increasing; pixel, weight unused
    std::vector<double> d_eps;       ///< [s * np + k]: d eps_r(s) / d p_k (1 per parameter unit; the table's eps_r)
    /// [(s * np + k) * nf + f]: d eps_d(s, w_f) / d p_k, the discrete permittivity
    /// (dispersion.hpp discrete_epsilon: eps_inf, conductivity and poles) at the
    /// frequencies_hz; 0 for sites that are tensor-coupled at p (their change is in d_tensor).
    std::vector<std::complex<double>> d_eps_w;
    std::vector<double> frequencies_hz;  ///< nf frequencies of d_eps_w (empty: d_eps_w empty)
    /// per parameter k (TensorEntry: adjoint_tensor.hpp; indices into `sites`): d K(a, b) / d p_k, both orders of each off-diagonal pair, and the
    /// diagonal d (1 / eps_r) of the sites tensor-coupled at p
    std::vector<std::vector<TensorEntry>> d_tensor;
    /// K at p over the tensor-coupled sites that d_tensor reaches and every site coupled to
    /// them (closed under the couplings), both orders and the diagonal: D~ = K^-1 E there
    std::vector<TensorEntry> k_at;
    std::vector<char> coupled;       ///< per site: tensor-coupled at p (in k_at)
    std::vector<char> moving;        ///< per site: a parameter moves it (the others are in k_at only)
    std::vector<double> eps_at;      ///< per site: eps_r at p (the table's; D~ = eps_r E where not coupled)
    std::vector<std::size_t> moved;  ///< per parameter: the sites it moves
    std::array<std::int64_t, 3> box_lo{0, 0, 0}, box_hi{-1, -1, -1};  ///< the sites' bounding box (grid indices)
};

/// The project's parameters `names` set to `values` (with_parameters, parameter_text).
/// Throws ProjectError as with_parameters.
Project project_at(const Project& project, const std::vector<std::string>& names, const std::vector<double>& values,
                   const std::string& file_label);

/// The sensitivity of the compiled permittivity at the parameter values `values` (one per
/// spec.shape_parameters entry) by central differences of half step h_k (spec step, or
/// 1e-4 (max - min)); each side clamped into [min, max] (a one-sided difference at a
/// bound). `scene`: the scene compiled at `values` (grid and E components to compare
/// with). Throws ProjectError (file_label, "design.shape_parameters[k]") when a parameter
/// changes more than the layers and materials, or the grid; with run.subpixel_averaging
/// false (a staircased eps is not continuous in p). `frequencies_hz`: where d eps_d / d p
/// is wanted (d_eps_w; empty: not computed, and dispersive sites compared by their pole
/// sets' coefficients).
ShapeSensitivity shape_sensitivity(const Project& project, const DesignSpec& spec, const std::vector<double>& values,
                                   const Scene& scene, const std::string& file_label,
                                   const std::vector<double>& frequencies_hz = {});

/// The most cells (per E component) of ShapeFields' view box: 2^18, a 512 x 512 picture.
inline constexpr std::int64_t kShapeViewMaxCells = std::int64_t(1) << 18;
/// The least margin (cells) by which the view box grows the sites' bounding box.
inline constexpr std::int64_t kShapeViewMarginCells = 8;

/// The fields of one evaluation of a design of shape parameters (ShapeProblem::on_fields):
/// the live picture of an IDE. Two sets: (1) at the sites the sensitivity samples (the E
/// Yee sites whose permittivity a parameter moves, and the sites tensor-coupled to them;
/// sparse: for a block whose width moves, two columns along its side edges), and (2) over
/// a dense box around them (the "view"), every E Yee site of it, so that a picture shows
/// the field inside and around the shapes.
///
/// The view box: the sites' bounding box [box_lo, box_hi] grown on each side along x and
/// y by m_a = max(kShapeViewMarginCells, e_a / 4) cells (e_a = box_hi[a] - box_lo[a] + 1),
/// clipped to the grid outside the PML; in 3D only the middle z plane k = (box_lo[2] +
/// box_hi[2]) / 2 (a cap: a picture is a plane, and a 3D box would cost a DFT over a
/// volume). While the box touches the face of a TF/SF source (within a cell, as
/// adjoint.hpp evaluate_sites refuses) or holds more than kShapeViewMaxCells cells, its
/// margins shrink by one cell on every side; at margin 0 it is the sites' box (which
/// passed the same checks), and when that alone holds more than kShapeViewMaxCells cells
/// there is no view (view_hi < view_lo, the view arrays empty). A view site that holds an
/// E source of its component is not sampled (evaluate_sites refuses it): view_sampled 0,
/// its values 0.
struct ShapeFields {
    /// The sites (ShapeSensitivity::sites: grouped by component in the scene's order, cells
    /// increasing; cell = i + nx (j + ny k)); valid during the call only.
    const DesignSites* sites = nullptr;
    std::vector<char> moving;  ///< per site: a parameter moves it (ShapeSensitivity::moving)
    std::array<std::int64_t, 3> grid{0, 0, 1};  ///< nx, ny, nz of the scene (nz 1 in 2D): decodes a cell index
    /// the sites' bounding box in grid indices, inclusive (ShapeSensitivity::box_lo, box_hi)
    std::array<std::int64_t, 3> box_lo{0, 0, 0}, box_hi{-1, -1, -1};
    std::vector<double> p;               ///< the parameter values evaluated (ShapeProblem::names' order)
    std::vector<double> frequencies_hz;  ///< nf frequencies: the problem's (adjoint.hpp Problem::frequencies_hz), Hz
    /// The forward run's DFT of E at the sites (the engine's DFT units, Engine::dft, as
    /// adjoint.hpp DesignFields::forward): [s * nf + f], ns * nf values.
    std::vector<std::complex<double>> forward;
    /// The adjoint field of F at the sites (adjoint.hpp DesignFields::adjoint), [s * nf + f],
    /// so that dF/dp_k = sum_{s,f} Re(-(1 - exp(i w_f dt)) forward[s, f] adjoint[s, f]
    /// d eps_d(s, w_f) / d p_k) at the sites that are not tensor-coupled (adjoint_shape.hpp).
    std::vector<std::complex<double>> adjoint;
    /// The view box (struct comment), grid indices, inclusive; in 3D view_lo[2] == view_hi[2]
    /// (2D: both 0). Empty (view_hi < view_lo) when capped away.
    std::array<std::int64_t, 3> view_lo{0, 0, 0}, view_hi{-1, -1, -1};
    /// The components of the view arrays: the scene's E components in its order (TMz: Ez;
    /// TEz: Ex, Ey; 3D: Ex, Ey, Ez).
    std::vector<Component> view_components;
    /// The forward DFT of E (units as `forward`) at every view site: nc x vz x vy x vx x nf
    /// values, index (((c * vz + k) * vy + j) * vx + i) * nf + f, with c indexing
    /// view_components, (i, j, k) = the site's grid index - view_lo and v_a = view_hi[a] -
    /// view_lo[a] + 1. At a sensitivity site it equals `forward` there exactly (the same
    /// DFT sample).
    std::vector<std::complex<double>> view_forward;
    /// The adjoint field of F (as `adjoint`) at every view site, view_forward's layout.
    std::vector<std::complex<double>> view_adjoint;
    /// 1 where the view site was sampled, 0 where it holds an E source of its component
    /// (values 0 there): nc x vz x vy x vx, index ((c * vz + k) * vy + j) * vx + i.
    std::vector<char> view_sampled;
};

/// A design of shape parameters, ready to evaluate.
struct ShapeProblem {
    Project project;                 ///< as read (its parameter values: the start)
    std::string file_label;
    std::filesystem::path project_dir;
    DesignSpec spec;
    std::vector<std::string> names;  ///< spec.shape_parameters' names
    std::vector<double> p0, lo, hi;  ///< start values and bounds
    std::vector<double> normalization;  ///< N(f) at the start values (adjoint_project.hpp)
    std::vector<double> wavelengths_um;
    ProjectProblemOptions options;   ///< backend, precision, threads, cancel, progress
    std::vector<std::string> warnings;
    /// Called on the evaluating thread once after each complete evaluate_shape with the
    /// gradient (so after each new evaluation of optimize_shape; not after a replayed,
    /// cancelled or failed one, nor without the gradient: the sites are those of the
    /// sensitivity, not computed then) with the fields at the sensitivity's sites and over
    /// the view box (ShapeFields), before evaluate_shape returns. Copy what is needed and
    /// return. Null: not called, and nothing beyond the sensitivity's sites is sampled.
    ///
    /// Cost when set: the view's sites are sampled along with the sensitivity's in the same
    /// runs (adjoint.hpp evaluate_sites: their sensitivity is computed and not used). Each
    /// DFT sample is accumulated on its own, so F and dF/dp are those without on_fields, bit
    /// for bit (tested on the CPU in float64: tests/solver/test_adjoint_shape_fields.cpp,
    /// test_adjoint_shape.cpp for TEz and 3D). That adds (V - V_s) x nf complex DFT
    /// accumulations to every step of the forward run and of each adjoint run, V = nc x
    /// vx x vy the view's sites (nc E components; at most nc x kShapeViewMaxCells), V_s
    /// those of them the sensitivity samples anyway, nf the objective's frequencies; and at
    /// most about 7 x 16 bytes per view site and frequency while an evaluation runs (the
    /// forward run's DFT, an adjoint run's accumulators and DFT, the products' and the
    /// adjoint field's arrays of evaluate_sites, the copies handed out).
    std::function<void(const ShapeFields&)> on_fields;
};

/// Reads and checks the design (ProjectError naming file_label and the JSON path: no
/// shape parameters, a density design, the design_spec errors), runs the normalization at
/// the start values (options.normalize) and checks the first sensitivity.
ShapeProblem shape_problem_from_project(const Project& project, const std::string& file_label,
                                        const std::filesystem::path& project_dir, const ProjectProblemOptions& options = {});

struct ShapeEvaluation {
    double objective = 0;
    std::vector<double> objective_per_frequency;  ///< F_f per objective wavelength
    std::vector<double> gradient;                  ///< dF/dp_k (empty without the gradient)
    /// dF_f/dp_k as [f][k] (N_w rows of N_p values, F_f per parameter unit), from the same
    /// runs (adjoint.hpp Problem::per_frequency); empty without the gradient
    std::vector<std::vector<double>> gradient_per_frequency;
    std::size_t sites = 0;                         ///< sites sampled (the moving ones)
    long long steps = 0;                           ///< forward + adjoint steps
    double wall_s = 0;
    std::vector<std::string> warnings;
};

/// F (and with `with_gradient` dF/dp) at parameter values `p` (one per shape parameter,
/// within [lo, hi]): the project recompiled at p, one forward run (and the adjoint runs).
/// With the gradient and problem.on_fields set, calls it once with the sites' and the view
/// box's fields (ShapeFields; the view's sites sampled in the same runs) after the runs.
/// Throws std::invalid_argument for a wrong count or a value outside the bounds,
/// ProjectError (the refusals of the header comment, naming the parameter), RunError,
/// Cancelled.
ShapeEvaluation evaluate_shape(const ShapeProblem& problem, const std::vector<double>& p, bool with_gradient = true);

struct ShapeIteration {
    int index = 0;
    double objective = 0;
    std::vector<double> objective_per_frequency;
    std::vector<double> p;         ///< the parameter values evaluated
    std::vector<double> gradient;  ///< dF/dp
    std::vector<std::vector<double>> gradient_per_frequency;  ///< dF_f/dp_k, [f][k]
    double gradient_norm = 0;
    long long steps = 0;
    double wall_s = 0;
    /// true: read back from the checkpoint of an earlier call (no run made; steps and
    /// wall_s are that call's)
    bool replayed = false;
};

struct ShapeOptimizeResult {
    std::vector<ShapeIteration> history;
    std::vector<double> p;  ///< the best values found (NLopt's optimum)
    double objective = 0;   ///< F there
    std::string stop;
};

/// NLopt's MMA, CCSA or L-BFGS (spec.algorithm) over the parameters within their bounds
/// from p0, spec.objective.goal, at most `max_iterations` evaluations in this call (0:
/// spec's; evaluations replayed from a checkpoint not counted). Stops at max_iterations, at
/// a relative change of the parameters below 1e-6 (xtol_rel), or when `on_iteration`
/// returns false, or cancelled (options.cancel: stop "cancelled", p the best of the
/// completed evaluations). problem.on_fields is called after each new evaluation (before
/// on_iteration), not for the evaluations replayed from a checkpoint.
///
/// spec.objective.combine "min" (the worst wavelength): the epigraph form of
/// adjoint_optimize.hpp over the parameters and one more variable t, NLopt maximizing t
/// subject to t - F_f(p) <= 0 for every objective wavelength f (goal minimize: minimizing
/// t subject to F_f(p) - t <= 0), with dF_f/dp from ShapeEvaluation::gradient_per_frequency
/// (the same runs); t starts at the worst F_f of p0, which is NLopt's first evaluation.
/// mma or ccsa only (design_spec refuses lbfgs with "min").
///
/// `checkpoint` non-empty: after every evaluation the file (JSON) is rewritten atomically
/// with every evaluation so far (p, F, F_f, dF/dp, dF_f/dp, exactly: 17 significant
/// digits); when the file exists at the start, the run resumes: NLopt restarts from p0 and
/// the recorded evaluations are fed back to it in order instead of being run (NLopt's
/// methods are deterministic, so it asks for the same points and its state, MMA's
/// asymptotes included, is rebuilt exactly), after which new evaluations are run and
/// appended. The resumed history (result.history, replayed entries flagged) is then the
/// history of an uninterrupted run. Throws std::invalid_argument naming the file when it
/// is not a shape checkpoint, is of another problem (another project text, parameters,
/// bounds, algorithm, goal, combine or precision) or NLopt asks for another point than
/// recorded. Throws std::runtime_error without NLopt, and what evaluate_shape throws
/// except Cancelled.
ShapeOptimizeResult optimize_shape(const ShapeProblem& problem, int max_iterations = 0,
                                   const std::function<bool(const ShapeIteration&)>& on_iteration = {},
                                   const std::filesystem::path& checkpoint = {});

}  // namespace golightly::adjoint
