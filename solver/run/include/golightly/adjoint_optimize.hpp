// GoLightly: gradient-based topology optimization of a design region (issue 53 item 5):
// the density rho (design variables, one per pixel, in [0, 1]) is filtered and projected
// (design_density.hpp map_density: a conic or Gaussian filter, then the tanh projection
// whose beta follows a schedule), the projected density rho^ sets the permittivity of the
// design region (adjoint.hpp), and NLopt's gradient methods (MMA: Svanberg, SIAM J. Optim.
// 12, 555 (2002); CCSA; L-BFGS) move rho with the adjoint gradient chained back through
// projection and filter (map_density_adjoint). As in Meep's and Tidy3D's inverse-design
// examples, each beta of the schedule is one NLopt run of `beta_every` evaluations started
// from the previous one's design (MMA's moving asymptotes restart with the new objective).
// Optional minimum length scale constraints (Hammond et al., Opt. Express 29, 23916 (2021):
// design_density.hpp constraint_solid / constraint_void <= epsilon) need MMA or CCSA; they
// apply once the design is nearly binary (by default the last two betas of the schedule),
// as in Meep's examples, since a grey design cannot satisfy them; their bound may start at
// the design's values and fall to epsilon in steps (constraint_relax_evaluations), a
// continuation instead of a hard switch. The reached length scale is measured on the
// binarized design by design::measure_length_scale.
//
// Worst-case objectives over wavelengths (OptimizerSettings::epigraph): the epigraph form of
// max_rho min_f F_f (Meep's inverse-design examples with NLopt inequality constraints,
// Hammond et al., Opt. Express 30, 4467 (2022)): the variables are the pixels and one more,
// t; NLopt maximizes t subject to t - F_f(rho) <= 0 for every frequency f (minimize: t
// subject to F_f(rho) - t <= 0), with d F_f / d rho from the same forward and adjoint runs
// (adjoint.hpp Problem::per_frequency). At each beta of the schedule t starts at the worst
// F_f of the start design: that evaluation is NLopt's first, so it costs nothing extra.
//
// A checkpoint (JSON) is written atomically after every evaluation: a run started with the
// same checkpoint path resumes from its last design and iteration count (the NLopt state
// restarts there, as at a beta step). Between two NLopt runs (a beta step, a step of the
// relaxed bound) it holds the design the next run starts from, with the objective's scale and
// the relaxed bound's schedule, so that a run resumed there repeats the uninterrupted one.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "golightly/adjoint.hpp"
#include "golightly/design_density.hpp"

namespace golightly::adjoint {

/// A design pixel held at a fixed density: NLopt's lower and upper bounds are both `rho`.
struct FixedPixel {
    std::size_t index = 0;  ///< into rho (x fastest, then y, then z)
    double rho = 0;         ///< in [0, 1]
};

struct OptimizerSettings {
    /// "mma" (NLOPT_LD_MMA, default), "ccsa" (NLOPT_LD_CCSAQ) or "lbfgs" (NLOPT_LD_LBFGS,
    /// no constraints).
    std::string algorithm = "mma";
    bool maximize = true;
    int max_iterations = 100;      ///< evaluations (one forward + adjoint runs each), in all
    /// Filter and projection; mapping.beta is the first beta of the schedule.
    design::DesignMapping mapping;
    double beta_max = 64;          ///< beta stops growing here (+infinity: the step)
    int beta_every = 20;           ///< evaluations per beta
    double beta_factor = 2;        ///< beta multiplier at each step of the schedule
    /// Non-empty: the betas of the schedule's steps, beta_every evaluations each, in order,
    /// the last repeated (mapping.beta, beta_max and beta_factor are then unused). Every
    /// entry positive and none below the one before; +infinity (the binary design) only as
    /// the last entry and with the smoothed projection (mapping.smoothed: the tanh
    /// projection's gradient vanishes there), as in the continuation of Hammond et al.,
    /// arXiv:2503.20189 (2025), that ends at beta = infinity.
    std::vector<double> betas;
    /// > 0: the minimum length scale constraints for solid and void features of this width
    /// (um), with eta_e from the filter radius (design_density.hpp eta_e_from_conic; needs a
    /// conic filter) and epsilon below.
    double min_length_um = 0;
    /// The constraints' bound epsilon (g_s, g_v <= epsilon; dimensionless, a mean over the
    /// pixels). 1e-6: on the 40 nm CPU bend (20 nm pixels, a 160 nm length scale) Meep's
    /// 1e-8 left MMA stuck at the bound with the transmission at 0.75, while 1e-6 kept it
    /// at -0.1 dB and raised the measured length scale from 140 / 40 nm (solid / void,
    /// unconstrained) to 180 / 140 nm (docs/inverse-design.md section 7). The constraints
    /// are means over the region's area, independent of the pixel size (design_density.hpp
    /// LengthScaleConstraint), so this bound means the same at any resolution; it lets
    /// features below min_length_um through (docs/inverse-design.md section 3, "Resolution":
    /// 55-75 nm of 80 nm in an 0.8 um study region at 20, 10 and 5 nm pixels; 1e-8 held
    /// 75 nm or more).
    double constraint_epsilon = 1e-6;
    /// The indicators' decay rate c in units of R^2 (c_um2 = constraint_c * radius_um^2,
    /// design_density.hpp LengthScaleConstraint): 64 makes c |grad rho~|^2 = 64 at the
    /// slope 1/R of a filtered edge, so that only the middles of features count.
    double constraint_c = 64;
    /// The constraints apply from this beta on; 0: from beta_max / beta_factor (the last two
    /// betas of the schedule).
    double constraint_beta = 0;
    /// > 0: a continuation in the constraints' bound instead of a hard switch. When the
    /// constraints join, each bound b starts at its constraint's value on the design of that
    /// moment (at least constraint_epsilon), so that the design is feasible as it stands, and
    /// falls geometrically to constraint_epsilon over this many evaluations
    /// (relaxed_constraint_bound at k = 0, n/4, n/2, 3n/4 and n evaluations after joining,
    /// n this value: four steps, each its own NLopt run, since a bound that moved between
    /// MMA's evaluations defeats its conservative approximations), then stays there; NLopt
    /// sees g / b - 1 <= 0 (of order 1). MMA then trades the features against the objective
    /// a step at a time instead of first making the design feasible at the objective's
    /// expense (docs/inverse-design.md section 7, the mode converter). The checkpoint keeps
    /// the schedule (the iteration at which the constraints joined, their start values), so a
    /// resumed run continues it; an older checkpoint without them restarts it at the resumed
    /// design. 0: the bound is constraint_epsilon from the start and NLopt sees
    /// g - epsilon <= 0.
    int constraint_relax_evaluations = 0;
    /// true: optimize the worst frequency's value F_f (Evaluation::objective_per_frequency,
    /// which the problem must give: Problem::per_frequency) in the epigraph form (header
    /// comment): max_rho min_f F_f, or min_rho max_f F_f with maximize false. Needs mma or
    /// ccsa. false: Problem::objective.
    bool epigraph = false;
    /// Robust (three-field) design (Wang, Lazarov and Sigmund, Struct. Multidisc. Optim.
    /// 43, 767 (2011); Zhou et al., Opt. Express 21, 22402 (2013)): the thresholds of
    /// further designs projected from the same filtered density, e.g. {eta_d, eta_e} =
    /// {1 - eta_e, eta_e} for a conic filter of radius R and a length scale L
    /// (design_density.hpp eta_e_from_conic): the dilated and eroded designs, which a
    /// fabrication that over- or under-etches by about the filter's edge width makes. Each
    /// costs a forward and an adjoint run per evaluation. Non-empty: the optimizer improves
    /// the worst of the designs (mapping.eta's, then these, in the epigraph form of the
    /// header comment; with `epigraph` the worst over designs and frequencies). Needs mma or
    /// ccsa; each threshold in (0, 1). Iteration::objective stays the nominal design's.
    std::vector<double> robust_etas;
    /// Pixels held at a fixed density (design_spec.hpp DesignFixedBox; each index once):
    /// the start density and a resumed checkpoint's density take these values, and the
    /// optimizer's bounds pin them there, so that every evaluation sees them exactly. A
    /// resumed run takes the fixed pixels of its own settings (boxes added while paused
    /// apply from the resumed iteration on).
    std::vector<FixedPixel> fixed;
    /// Empty: no checkpoint. Else the JSON file written after every evaluation and read at
    /// the start when it exists (its pixel count must match).
    std::filesystem::path checkpoint;
};

/// One evaluation of the optimization.
struct Iteration {
    int index = 0;                      ///< 0, 1, ... over the whole run (resumed runs continue)
    double beta = 0;
    double objective = 0;
    /// F_f per frequency (Problem::frequencies_hz order; empty without Problem::per_frequency)
    std::vector<double> objective_per_frequency;
    /// OptimizerSettings::robust_etas: the objective of each further design, in its order
    std::vector<double> objective_robust;
    std::vector<double> rho;            ///< design variables (pixels)
    std::vector<double> rho_projected;  ///< rho^ (what the permittivity interpolates)
    double gradient_norm = 0;           ///< |dF/drho|_2
    double constraint_solid = 0, constraint_void = 0;  ///< values (0 without constraints)
    /// the bounds the constraints had at this evaluation (constraint_epsilon, or the relaxed
    /// bound of OptimizerSettings::constraint_relax_evaluations); 0 while the constraints
    /// have not joined
    double bound_solid = 0, bound_void = 0;
    long long steps = 0;                ///< forward + adjoint time steps
    double wall_s = 0;
};

struct OptimizeResult {
    std::vector<Iteration> history;     ///< this call's evaluations (a resumed run: from the checkpoint on)
    std::vector<double> rho;            ///< the last design
    std::vector<double> rho_projected;
    std::string stop;                   ///< why it stopped
    int first_iteration = 0;            ///< index of history[0] (> 0 when resumed)
};

/// Called after each evaluation; return false to stop (NLopt's forced stop).
using IterationCallback = std::function<bool(const Iteration&)>;

/// The relaxed bound of the length scale constraints after k evaluations with the constraints
/// (OptimizerSettings::constraint_relax_evaluations): start (end / start)^(k / evaluations), a
/// geometric fall from `start` at k = 0 to `end` at k = evaluations, and `end` from there on,
/// when evaluations <= 0 or start <= end. Dimensionless like the constraints. Throws
/// std::invalid_argument when end is not positive, start is not finite or k < 0.
double relaxed_constraint_bound(double start, double end, int k, int evaluations);

/// The density grid of a design region: its pixels, their edge (um). A 3D region with one
/// pixel along z (extruded through its z extent) is a 2D grid (nz = 1). Throws
/// std::invalid_argument when the pixels are not square (cubic in 3D with nz > 1).
design::DensityGrid density_grid(const DesignRegion& region, int dimensions);

/// Optimizes `problem`'s objective over the design region's densities from `rho0`
/// (region.pixels() values in [0, 1]). Throws std::invalid_argument (bad settings, rho0,
/// a fixed pixel's index out of range or its rho outside [0, 1], an unknown algorithm,
/// constraints or the epigraph with L-BFGS, the epigraph without Problem::per_frequency, a
/// checkpoint of another problem),
/// std::runtime_error (no NLopt in this build), and what adjoint::evaluate_with_gradient
/// throws except Cancelled: problem.settings.cancel set ends the evaluation under way within
/// a chunk of steps and returns with stop "cancelled", rho the last completed evaluation's
/// design, as the checkpoint holds it (a run with the same checkpoint resumes there).
OptimizeResult optimize_density(const Problem& problem, const std::vector<double>& rho0,
                                const OptimizerSettings& settings, const IterationCallback& on_iteration = {});

}  // namespace golightly::adjoint
