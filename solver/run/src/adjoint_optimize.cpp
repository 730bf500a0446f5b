// GoLightly: topology optimization with adjoint gradients (adjoint_optimize.hpp), with
// NLopt's C interface.
#include "golightly/adjoint_optimize.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "sweep_internal.hpp"

#ifdef GOLIGHTLY_HAVE_NLOPT
#include <nlopt.h>
#endif

namespace golightly::adjoint {

namespace {

double norm2(const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x * x;
    return std::sqrt(s);
}

struct Checkpoint {
    int next_iteration = 0;
    int epoch = 0;             ///< the beta step of the next evaluation
    int epoch_evaluations = 0; ///< evaluations already made at that beta
    std::vector<double> rho;
    /// NLopt's objective scale (Context::scale); 0: none recorded (an older checkpoint), the
    /// resumed run takes its own first evaluation's
    double scale = 0;
    /// The length scale constraints' relaxed bound (constraint_relax_evaluations): the
    /// iteration at which they joined and their values there, the schedule's start; -1: not
    /// joined, or an older checkpoint (the resumed run then starts the schedule afresh)
    int join_iteration = -1;
    double start_solid = 0, start_void = 0;
};

Checkpoint read_checkpoint(const std::filesystem::path& file, std::size_t pixels) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    Json j;
    try {
        j = Json::parse(ss.str());
    } catch (const std::exception& e) {
        throw std::invalid_argument(file.string() + ": not a GoLightly optimization checkpoint (" + e.what() + ")");
    }
    if (!j.is_object() || j.value("format", "") != "golightly-adjoint-checkpoint" || !j.contains("rho") ||
        !j["rho"].is_array() || !j.contains("next_iteration"))
        throw std::invalid_argument(file.string() + ": not a GoLightly optimization checkpoint");
    Checkpoint c;
    c.next_iteration = j["next_iteration"].get<int>();
    c.epoch = j.value("epoch", 0);
    c.epoch_evaluations = j.value("epoch_evaluations", 0);
    c.rho = j["rho"].get<std::vector<double>>();
    // additive fields (an older checkpoint has none of them and resumes as it did)
    c.scale = j.value("objective_scale", 0.0);
    if (j.contains("constraints_joined_iteration")) {
        c.join_iteration = j["constraints_joined_iteration"].get<int>();
        c.start_solid = j.value("constraint_start_solid", 0.0);
        c.start_void = j.value("constraint_start_void", 0.0);
        if (c.join_iteration < 0 || c.join_iteration > c.next_iteration || !(c.start_solid > 0) || !(c.start_void > 0))
            throw std::invalid_argument(file.string() +
                                        ": constraints_joined_iteration must lie in [0, next_iteration] and "
                                        "constraint_start_solid, constraint_start_void must be positive");
    }
    if (!(c.scale >= 0) || !std::isfinite(c.scale))
        throw std::invalid_argument(file.string() + ": objective_scale must be a finite number >= 0");
    if (c.rho.size() != pixels)
        throw std::invalid_argument(file.string() + ": rho: " + std::to_string(c.rho.size()) + " values for a design of " +
                                    std::to_string(pixels) + " pixels (another problem's checkpoint?)");
    return c;
}

/// `state`: the counters and design of the next evaluation, the objective scale and the
/// relaxed bounds' start (Checkpoint's fields; join_iteration < 0: not written).
void write_checkpoint(const std::filesystem::path& file, const Checkpoint& state, double beta, double objective) {
    Json j;
    j["format"] = "golightly-adjoint-checkpoint";
    j["next_iteration"] = state.next_iteration;
    j["epoch"] = state.epoch;
    j["epoch_evaluations"] = state.epoch_evaluations;
    j["beta"] = std::isfinite(beta) ? Json(beta) : Json("inf");
    j["objective"] = objective;
    if (state.scale > 0) j["objective_scale"] = state.scale;
    if (state.join_iteration >= 0) {
        j["constraints_joined_iteration"] = state.join_iteration;
        j["constraint_start_solid"] = state.start_solid;
        j["constraint_start_void"] = state.start_void;
    }
    j["rho"] = state.rho;
    write_file_atomic(file, j.dump() + "\n");
}

}  // namespace

double relaxed_constraint_bound(double start, double end, int k, int evaluations) {
    if (!(end > 0) || !std::isfinite(start) || k < 0)
        throw std::invalid_argument("relaxed_constraint_bound: the final bound must be positive, the start finite and "
                                    "the evaluation count k >= 0");
    if (evaluations <= 0 || k >= evaluations || start <= end) return end;
    return start * std::pow(end / start, double(k) / double(evaluations));
}

design::DensityGrid density_grid(const DesignRegion& region, int dimensions) {
    design::DensityGrid g;
    g.nx = region.n[0];
    g.ny = region.n[1];
    // One pixel along z in 3D is a design extruded through the slab (docs/inverse-design.md
    // "The density grid"): a 2D grid, filtered and constrained in x and y only, whatever the
    // slab's thickness.
    const bool volumetric = dimensions == 3 && region.n[2] > 1;
    g.nz = volumetric ? region.n[2] : 1;
    g.dx_um = (region.hi_um.x - region.lo_um.x) / region.n[0];
    for (int a = 1; a < (volumetric ? 3 : 2); ++a) {
        const double h = (region.hi_um[a] - region.lo_um[a]) / region.n[a];
        if (std::abs(h - g.dx_um) > 1e-6 * g.dx_um)
            throw std::invalid_argument("design region: the density pixels are not square (" + std::to_string(g.dx_um) +
                                        " um along x, " + std::to_string(h) + " um along " + std::string(1, char('x' + a)) +
                                        "); choose the pixel counts in proportion to the box");
    }
    return g;
}

OptimizeResult optimize_density(const Problem& problem, const std::vector<double>& rho0,
                                const OptimizerSettings& settings, const IterationCallback& on_iteration) {
#ifndef GOLIGHTLY_HAVE_NLOPT
    (void)problem, (void)rho0, (void)settings, (void)on_iteration;
    throw std::runtime_error("this build has no optimizer (NLopt)");
#else
    const int dims = problem.scene.dimensions == 3 ? 3 : 2;
    design::DensityGrid grid = density_grid(problem.region, dims);
    const std::size_t n = grid.size();
    if (rho0.size() != n)
        throw std::invalid_argument("optimize: " + std::to_string(rho0.size()) + " initial densities for " +
                                    std::to_string(n) + " pixels");
    if (settings.max_iterations < 1 || settings.beta_every < 1)
        throw std::invalid_argument("optimize: max_iterations and beta_every must be at least 1");
    nlopt_algorithm alg;
    if (settings.algorithm == "mma") alg = NLOPT_LD_MMA;
    else if (settings.algorithm == "ccsa") alg = NLOPT_LD_CCSAQ;
    else if (settings.algorithm == "lbfgs") alg = NLOPT_LD_LBFGS;
    else throw std::invalid_argument("optimize: unknown algorithm \"" + settings.algorithm + "\" (mma, ccsa, lbfgs)");
    const bool constrained = settings.min_length_um > 0;
    if (constrained && alg == NLOPT_LD_LBFGS)
        throw std::invalid_argument("optimize: the minimum length scale constraints need mma or ccsa");
    if (settings.epigraph && alg == NLOPT_LD_LBFGS)
        throw std::invalid_argument("optimize: the worst-wavelength objective (epigraph form: one constraint per "
                                    "wavelength) needs mma or ccsa");
    if (settings.epigraph && !problem.per_frequency)
        throw std::invalid_argument("optimize: the worst-wavelength objective needs the problem's per-frequency values "
                                    "(Problem::per_frequency)");
    if (!settings.robust_etas.empty() && alg == NLOPT_LD_LBFGS)
        throw std::invalid_argument("optimize: the robust design (the worst of the eroded, nominal and dilated "
                                    "designs, in the epigraph form) needs mma or ccsa");
    for (double e : settings.robust_etas)
        if (!(e > 0 && e < 1))
            throw std::invalid_argument("optimize: robust_etas: each threshold must lie in (0, 1), got " +
                                        std::to_string(e));
    if (constrained && (settings.mapping.kind != design::FilterKind::Conic || !(settings.mapping.radius_um > 0)))
        throw std::invalid_argument("optimize: the minimum length scale needs a conic filter (radius_um > 0)");
    if (constrained && (!(settings.constraint_epsilon > 0) || !(settings.constraint_c > 0) || settings.constraint_beta < 0))
        throw std::invalid_argument("optimize: constraint_epsilon and constraint_c must be positive, constraint_beta >= 0");
    if (settings.constraint_relax_evaluations < 0)
        throw std::invalid_argument("optimize: constraint_relax_evaluations must be >= 0, got " +
                                    std::to_string(settings.constraint_relax_evaluations));

    for (std::size_t k = 0; k < settings.betas.size(); ++k) {
        const double b = settings.betas[k];
        const std::string at = "optimize: betas[" + std::to_string(k) + "] ";
        if (!(b > 0)) throw std::invalid_argument(at + "must be positive");
        if (k > 0 && b < settings.betas[k - 1]) throw std::invalid_argument(at + "is below the beta before it");
        if (std::isinf(b) && k + 1 != settings.betas.size())
            throw std::invalid_argument(at + "is infinite but not the last beta");
        if (std::isinf(b) && !settings.mapping.smoothed)
            throw std::invalid_argument(at + "is infinite: that needs the smoothed projection (the tanh projection has "
                                             "no gradient at beta = infinity)");
    }

    for (const FixedPixel& f : settings.fixed)
        if (f.index >= n || !(f.rho >= 0 && f.rho <= 1))
            throw std::invalid_argument("optimize: fixed pixel " + std::to_string(f.index) + " (rho " +
                                        std::to_string(f.rho) + "): the index must be below " + std::to_string(n) +
                                        " and rho in [0, 1]");

    OptimizeResult result;
    std::vector<double> rho(rho0);
    for (double& r : rho) r = std::clamp(r, 0.0, 1.0);
    int iteration = 0, epoch = 0, epoch_evaluations = 0;
    Checkpoint resumed;  // the checkpoint's scale and relaxed bounds, restored into the context below
    if (!settings.checkpoint.empty() && std::filesystem::exists(settings.checkpoint)) {
        const Checkpoint c = read_checkpoint(settings.checkpoint, n);
        resumed = c;
        rho = c.rho;
        iteration = c.next_iteration;
        epoch = c.epoch;
        epoch_evaluations = c.epoch_evaluations;
    }
    // the fixed pixels start at their values, also in a resumed checkpoint's design (a box
    // added while paused takes effect here)
    for (const FixedPixel& f : settings.fixed) rho[f.index] = f.rho;
    result.first_iteration = iteration;

    struct Context {
        const Problem* problem;
        const OptimizerSettings* settings;
        const IterationCallback* callback;
        design::DensityGrid* grid;
        design::DesignMapping mapping;
        OptimizeResult* result;
        int* iteration;
        int* epoch;
        int* epoch_evaluations;
        bool stopped = false;
        std::string error;
        /// NLopt sees F / scale (|F| of the first evaluation of this call): MMA's dual
        /// solve and moving asymptotes use absolute tolerances, so an objective of 1e-29
        /// (DFT units) would not move at all
        double scale = 0;
        design::LengthScaleConstraint ls;
        /// The constraints' bounds: -1 until they join, then the iteration index at which
        /// they joined and the relaxed schedule's start values (constraint_relax_evaluations)
        int join_iteration = -1;
        double start_solid = 0, start_void = 0;
        /// whether the NLopt run under way has the constraints, and their bounds in it (held
        /// for the whole run: a bound that moved between MMA's evaluations would make its
        /// conservative approximations fail at every check, and the step then shrinks to
        /// nothing; measured on the 20 nm converter: the design froze)
        bool constraints_on = false;
        double bound_solid = 0, bound_void = 0;
        nlopt_opt opt = nullptr;  ///< the running optimizer, for nlopt_force_stop
        std::size_t pixels = 0;   ///< NLopt's variables: the pixels, then t (epigraph)
        /// The worst-case (epigraph) form: over frequencies (settings->epigraph), over the
        /// robust designs (settings->robust_etas), or both
        bool worst = false;
        /// The last evaluation (epigraph: the constraints read the one the objective made
        /// at the same point; NLopt's MMA and CCSA call the objective first). `generation`
        /// counts the NLopt runs: a cached evaluation is of one beta.
        int generation = 0;
        struct Cached {
            int generation = -1;
            std::vector<double> x;
            bool ok = false;
            std::vector<double> values;                   ///< F_f
            std::vector<std::vector<double>> gradients;   ///< d F_f / d rho, through the mapping
        } cache{};

        /// What a checkpoint holds for the next evaluation from design `x`
        Checkpoint state(const std::vector<double>& x) const {
            Checkpoint c;
            c.next_iteration = *iteration;
            c.epoch = *epoch;
            c.epoch_evaluations = *epoch_evaluations;
            c.rho = x;
            c.scale = scale;
            c.join_iteration = join_iteration;
            c.start_solid = start_solid;
            c.start_void = start_void;
            return c;
        }

        /// Evaluates the design x[0 .. pixels) at the current beta (epigraph: unless the
        /// cache holds it), records the iteration, writes the checkpoint and calls the
        /// callback. False when the evaluation failed or was cancelled (NLopt then gets NaN).
        bool evaluate(const double* x, Evaluation* out, std::vector<double>* mapped_gradient) {
            if (worst && cache.generation == generation && std::equal(x, x + pixels, cache.x.begin()))
                return cache.ok;
            cache.generation = generation;
            cache.x.assign(x, x + pixels);
            cache.ok = false;
            try {
                const auto t0 = std::chrono::steady_clock::now();
                grid->rho.assign(x, x + pixels);
                const std::vector<double> projected = design::map_density(*grid, mapping);
                const Evaluation ev = evaluate_with_gradient(*problem, projected);
                const std::vector<double> g = design::map_density_adjoint(*grid, mapping, ev.gradient);
                long long steps = ev.forward_steps + ev.adjoint_steps;
                // the worst-case form's values and gradients: per frequency (epigraph) or the
                // objective, of the nominal design, then of each robust design
                std::vector<double> robust_objectives;
                if (worst) {
                    cache.values.clear();
                    cache.gradients.clear();
                    auto add = [&](const Evaluation& e, const design::DesignMapping& m, const std::vector<double>& gm) {
                        if (!settings->epigraph) {
                            cache.values.push_back(e.objective);
                            cache.gradients.push_back(gm);
                            return;
                        }
                        if (e.gradient_per_frequency.size() != e.objective_per_frequency.size() ||
                            e.objective_per_frequency.empty())
                            throw std::invalid_argument("the per-frequency values or gradients are missing");
                        for (std::size_t f = 0; f < e.objective_per_frequency.size(); ++f) {
                            cache.values.push_back(e.objective_per_frequency[f]);
                            cache.gradients.push_back(design::map_density_adjoint(*grid, m, e.gradient_per_frequency[f]));
                        }
                    };
                    add(ev, mapping, g);
                    for (double eta : settings->robust_etas) {
                        design::DesignMapping m = mapping;
                        m.eta = eta;
                        const Evaluation er = evaluate_with_gradient(*problem, design::map_density(*grid, m));
                        steps += er.forward_steps + er.adjoint_steps;
                        robust_objectives.push_back(er.objective);
                        add(er, m, settings->epigraph ? std::vector<double>{} : design::map_density_adjoint(*grid, m, er.gradient));
                    }
                }
                if (scale == 0) {
                    double s = std::abs(ev.objective);
                    for (double v : cache.values) s = std::max(s, std::abs(v));  // every constraint of order 1
                    scale = s > 0 ? s : 1.0;
                }
                Iteration it;
                it.index = (*iteration)++;
                ++*epoch_evaluations;
                it.beta = mapping.beta;
                it.objective = ev.objective;
                it.objective_per_frequency = ev.objective_per_frequency;
                it.objective_robust = robust_objectives;
                it.rho = grid->rho;
                it.rho_projected = projected;
                it.gradient_norm = norm2(g);
                it.steps = steps;
                if (settings->min_length_um > 0) {
                    design::LengthScaleConstraint l = ls;
                    l.beta = mapping.beta;
                    it.constraint_solid = design::constraint_solid(*grid, l).value;
                    it.constraint_void = design::constraint_void(*grid, l).value;
                    if (constraints_on) {
                        it.bound_solid = bound_solid;
                        it.bound_void = bound_void;
                    }
                }
                it.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                if (!settings->checkpoint.empty())
                    write_checkpoint(settings->checkpoint, state(it.rho), it.beta, it.objective);
                result->rho = it.rho;
                result->rho_projected = it.rho_projected;
                const bool go_on = !*callback || (*callback)(it);
                result->history.push_back(std::move(it));
                if (!go_on) {
                    stopped = true;
                    result->stop = "stopped by the caller";
                    if (opt) nlopt_force_stop(opt);  // else NLopt evaluates on to the beta's maxeval
                }
                if (out) *out = ev;
                if (mapped_gradient) *mapped_gradient = g;
                cache.ok = true;
                return true;
            } catch (const Cancelled&) {
                // RunSettings::cancel: a clean stop; the checkpoint keeps the last completed evaluation
                stopped = true;
                result->stop = "cancelled";
                if (opt) nlopt_force_stop(opt);
                return false;
            } catch (const std::exception& e) {
                error = e.what();
                stopped = true;
                if (opt) nlopt_force_stop(opt);
                return false;
            }
        }
    } ctx{&problem, &settings, &on_iteration, &grid, settings.mapping, &result, &iteration, &epoch, &epoch_evaluations, false, {}, 0.0, {}};
    ctx.pixels = n;
    // a resumed run keeps the objective's scale and the relaxed bounds' schedule of the run
    // it continues, so that it makes the iterates an uninterrupted run makes from a step's
    // start (an older checkpoint without them: the first evaluation's scale, and the
    // schedule restarts where the constraints are on)
    ctx.scale = resumed.scale;
    ctx.join_iteration = resumed.join_iteration;
    ctx.start_solid = resumed.start_solid;
    ctx.start_void = resumed.start_void;
    ctx.worst = settings.epigraph || !settings.robust_etas.empty();
    // the worst-case form's constraints: per design, per frequency (epigraph) or one
    const unsigned worst_constraints =
        unsigned((1 + settings.robust_etas.size()) * (settings.epigraph ? problem.frequencies_hz.size() : 1));

    if (constrained) {
        ctx.ls.kind = design::FilterKind::Conic;
        ctx.ls.radius_um = settings.mapping.radius_um;
        ctx.ls.eta_i = settings.mapping.eta;
        ctx.ls.eta_e = design::eta_e_from_conic(settings.min_length_um, settings.mapping.radius_um);
        ctx.ls.eta_d = 1.0 - ctx.ls.eta_e;
        // c |grad rho~|^2 = 64 at the slope 1/R of a filtered edge: the indicators vanish on
        // the edges of features and count only their middles, as Zhou et al. intend (c must
        // scale as R^2; 64 dx^2, a pixel-based value, left the edges in and made the
        // constraints fight every boundary: measured on the 40 nm bend, T fell to 0.48)
        ctx.ls.c_um2 = settings.constraint_c * settings.mapping.radius_um * settings.mapping.radius_um;
    }

    auto objective_fn = [](unsigned nn, const double* x, double* grad, void* data) -> double {
        auto& c = *static_cast<Context*>(data);
        Evaluation ev;
        std::vector<double> g;
        if (!c.evaluate(x, &ev, &g)) return std::nan("");
        if (grad)
            for (std::size_t k = 0; k < nn; ++k) grad[k] = g[k] / c.scale;
        return ev.objective / c.scale;
    };
    // the epigraph form: the objective is t (the last variable); the design's evaluation is
    // made here, where MMA and CCSA look first, and read from the cache by the constraints
    auto epigraph_fn = [](unsigned nn, const double* x, double* grad, void* data) -> double {
        auto& c = *static_cast<Context*>(data);
        if (!c.evaluate(x, nullptr, nullptr)) return std::nan("");
        if (grad) {
            std::fill(grad, grad + nn, 0.0);
            grad[nn - 1] = 1.0;
        }
        return x[nn - 1];
    };
    // one constraint per frequency: t - F_f / scale <= 0 (maximize), F_f / scale - t <= 0
    // (minimize); gradient row f of m x nn, row-major (NLopt's mconstraint layout)
    auto worst_fn = [](unsigned m, double* out, unsigned nn, const double* x, double* grad, void* data) {
        auto& c = *static_cast<Context*>(data);
        if (!c.evaluate(x, nullptr, nullptr)) {
            std::fill(out, out + m, std::nan(""));
            return;
        }
        const double sign = c.settings->maximize ? 1.0 : -1.0, t = x[nn - 1];
        for (unsigned f = 0; f < m; ++f) {
            out[f] = sign * (t - c.cache.values[f] / c.scale);
            if (!grad) continue;
            double* row = grad + std::size_t(f) * nn;
            for (std::size_t k = 0; k + 1 < nn; ++k) row[k] = -sign * c.cache.gradients[f][k] / c.scale;
            row[nn - 1] = sign;
        }
    };
    // one trampoline for both length scale constraints: `data` is a Constraint
    struct Constraint {
        Context* ctx;
        design::ConstraintValue (*eval)(const design::DensityGrid&, const design::LengthScaleConstraint&);
        const double* bound;  ///< its bound in this NLopt run (Context::bound_solid or bound_void)
    };
    auto constraint_fn = [](unsigned nn, const double* x, double* grad, void* data) -> double {
        const auto& k = *static_cast<Constraint*>(data);
        design::DensityGrid g = *k.ctx->grid;
        g.rho.assign(x, x + k.ctx->pixels);
        design::LengthScaleConstraint ls = k.ctx->ls;
        ls.beta = k.ctx->mapping.beta;
        const design::ConstraintValue v = k.eval(g, ls);
        // relaxed bounds: the constraint divided by its bound, g / b - 1 <= 0, of order 1 as
        // MMA's conservative terms (which start at 1) expect; the hard bound keeps g - epsilon
        const double b = *k.bound, unit = k.ctx->settings->constraint_relax_evaluations > 0 ? b : 1.0;
        if (grad) {
            for (std::size_t q = 0; q < k.ctx->pixels; ++q) grad[q] = v.gradient[q] / unit;
            std::fill(grad + k.ctx->pixels, grad + nn, 0.0);  // t (epigraph) does not enter
        }
        return (v.value - b) / unit;
    };
    Constraint solid{&ctx, &design::constraint_solid, &ctx.bound_solid},
        voids{&ctx, &design::constraint_void, &ctx.bound_void};

    const std::vector<double>& betas = settings.betas;
    const double beta_max = betas.empty() ? std::max(settings.beta_max, settings.mapping.beta) : betas.back();
    // by default the constraints join for the last two betas of the schedule
    double constraint_beta = settings.constraint_beta;
    if (!(constraint_beta > 0))
        constraint_beta = betas.empty() ? std::max(settings.mapping.beta, beta_max / std::max(settings.beta_factor, 1.0))
                                        : betas[betas.size() >= 2 ? betas.size() - 2 : 0];
    auto beta_of = [&](int e) {
        if (!betas.empty()) return betas[std::min<std::size_t>(std::size_t(e), betas.size() - 1)];
        return design::beta_schedule(e * settings.beta_every, settings.mapping.beta, beta_max, settings.beta_every,
                                     settings.beta_factor);
    };
    while (iteration - result.first_iteration < settings.max_iterations && !ctx.stopped) {
        ctx.mapping.beta = beta_of(epoch);
        int evals = std::min(settings.beta_every - epoch_evaluations,
                             settings.max_iterations - (iteration - result.first_iteration));
        if (evals <= 0) {  // this beta's evaluations are done: the next one
            ++epoch, epoch_evaluations = 0;
            continue;
        }
        // The length scale constraints join once the design is nearly binary (by default the
        // last two betas of the schedule): on a grey design (a uniform 0.5 start gives g_s =
        // g_v = 1/32 whatever rho does at first order, and the two pull rho opposite ways)
        // MMA finds no feasible step and the design never moves (measured: 100 evaluations
        // at the start value); at the largest beta alone, 20 evaluations were too few to
        // repair the features without losing the transmission
        ctx.constraints_on = constrained && ctx.mapping.beta >= constraint_beta;
        bool relaxing = false;  // this run is a step of the relaxed bounds (not their last)
        if (ctx.constraints_on) {
            if (ctx.join_iteration < 0) {
                // the relaxed bounds start at the values of the design as it stands (at this
                // beta), so that it is feasible at first (constraint_relax_evaluations)
                ctx.join_iteration = iteration;
                design::DensityGrid g = grid;
                g.rho = rho;
                design::LengthScaleConstraint l = ctx.ls;
                l.beta = ctx.mapping.beta;
                ctx.start_solid = std::max(design::constraint_solid(g, l).value, settings.constraint_epsilon);
                ctx.start_void = std::max(design::constraint_void(g, l).value, settings.constraint_epsilon);
            }
            // while relaxing, the bounds step down every quarter of the relaxation, each step
            // its own NLopt run
            const int relax = settings.constraint_relax_evaluations, k = iteration - ctx.join_iteration;
            ctx.bound_solid = relaxed_constraint_bound(ctx.start_solid, settings.constraint_epsilon, k, relax);
            ctx.bound_void = relaxed_constraint_bound(ctx.start_void, settings.constraint_epsilon, k, relax);
            if (k < relax) {
                relaxing = true;
                evals = std::min(evals, std::min(relax - k, std::max(1, (relax + 3) / 4)));
            }
        }
        const int before = iteration;
        ++ctx.generation;
        // the epigraph: t starts at the worst F_f of this beta's start design; that
        // evaluation is the cached first one of the NLopt run
        std::vector<double> x = rho;
        if (ctx.worst) {
            ctx.opt = nullptr;
            if (!ctx.evaluate(rho.data(), nullptr, nullptr) && !ctx.error.empty())
                throw RunError("optimize: " + ctx.error);
            if (ctx.stopped) break;  // cancelled, or the callback's stop
            const auto& v = ctx.cache.values;
            x.push_back((settings.maximize ? *std::min_element(v.begin(), v.end()) : *std::max_element(v.begin(), v.end())) /
                        ctx.scale);
        }
        nlopt_opt opt = nlopt_create(alg, unsigned(x.size()));
        ctx.opt = opt;
        std::vector<double> lo(n, 0.0), hi(n, 1.0);
        for (const FixedPixel& f : settings.fixed) lo[f.index] = hi[f.index] = f.rho;
        if (ctx.worst) lo.push_back(-HUGE_VAL), hi.push_back(HUGE_VAL);  // t
        nlopt_set_lower_bounds(opt, lo.data());
        nlopt_set_upper_bounds(opt, hi.data());
        const nlopt_func fn = ctx.worst ? nlopt_func(epigraph_fn) : nlopt_func(objective_fn);
        if (settings.maximize) nlopt_set_max_objective(opt, fn, &ctx);
        else nlopt_set_min_objective(opt, fn, &ctx);
        if (ctx.worst) nlopt_add_inequality_mconstraint(opt, worst_constraints, worst_fn, &ctx, nullptr);
        if (ctx.constraints_on) {
            nlopt_add_inequality_constraint(opt, constraint_fn, &solid, 0.0);
            nlopt_add_inequality_constraint(opt, constraint_fn, &voids, 0.0);
        }
        nlopt_set_maxeval(opt, evals);
        double f = 0;
        const nlopt_result r = nlopt_optimize(opt, x.data(), &f);
        nlopt_destroy(opt);
        ctx.opt = nullptr;
        rho.assign(x.begin(), x.begin() + std::ptrdiff_t(n));
        if (!ctx.error.empty()) throw RunError("optimize: " + ctx.error);
        if (ctx.stopped) break;
        if (iteration == before) {
            result.stop = "the optimizer made no evaluation (NLopt result " + std::to_string(int(r)) + ")";
            break;
        }
        if (r != NLOPT_MAXEVAL_REACHED && ctx.mapping.beta >= beta_max && !relaxing) {
            result.stop = "converged at the largest beta";
            break;
        }
        // a step of the relaxed bounds ended inside the beta's evaluations: the same beta;
        // else the beta's evaluations ran out, or it converged before: the next beta
        if (!relaxing || epoch_evaluations >= settings.beta_every) ++epoch, epoch_evaluations = 0;
        // between two NLopt runs the checkpoint holds the design the next run starts from
        // (NLopt's result, its best point, which need not be the last one evaluated) and the
        // counters of that run, so that a run resumed here repeats the uninterrupted one
        if (!settings.checkpoint.empty() && !result.history.empty())
            write_checkpoint(settings.checkpoint, ctx.state(rho), beta_of(epoch), result.history.back().objective);
    }
    if (result.stop.empty()) result.stop = "max iterations reached";
    if (result.stop == "cancelled" && !result.history.empty()) {  // the last completed design, as the checkpoint's
        result.rho = result.history.back().rho;
        result.rho_projected = result.history.back().rho_projected;
        return result;
    }
    // the design NLopt returned (its best at the last beta), projected at that beta
    grid.rho = rho;
    result.rho = rho;
    result.rho_projected = design::map_density(grid, ctx.mapping);
    return result;
#endif
}

}  // namespace golightly::adjoint
