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
    if (c.rho.size() != pixels)
        throw std::invalid_argument(file.string() + ": rho: " + std::to_string(c.rho.size()) + " values for a design of " +
                                    std::to_string(pixels) + " pixels (another problem's checkpoint?)");
    return c;
}

void write_checkpoint(const std::filesystem::path& file, int next_iteration, int epoch, int epoch_evaluations, double beta,
                      const std::vector<double>& rho, double objective) {
    Json j;
    j["format"] = "golightly-adjoint-checkpoint";
    j["next_iteration"] = next_iteration;
    j["epoch"] = epoch;
    j["epoch_evaluations"] = epoch_evaluations;
    j["beta"] = std::isfinite(beta) ? Json(beta) : Json("inf");
    j["objective"] = objective;
    j["rho"] = rho;
    detail::write_file_atomic(file, j.dump() + "\n");
}

}  // namespace

design::DensityGrid density_grid(const DesignRegion& region, int dimensions) {
    design::DensityGrid g;
    g.nx = region.n[0];
    g.ny = region.n[1];
    g.nz = dimensions == 3 ? region.n[2] : 1;
    g.dx_um = (region.hi_um.x - region.lo_um.x) / region.n[0];
    for (int a = 1; a < (dimensions == 3 ? 3 : 2); ++a) {
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
    if (constrained && (settings.mapping.kind != design::FilterKind::Conic || !(settings.mapping.radius_um > 0)))
        throw std::invalid_argument("optimize: the minimum length scale needs a conic filter (radius_um > 0)");
    if (constrained && (!(settings.constraint_epsilon > 0) || !(settings.constraint_c > 0) || settings.constraint_beta < 0))
        throw std::invalid_argument("optimize: constraint_epsilon and constraint_c must be positive, constraint_beta >= 0");

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
    if (!settings.checkpoint.empty() && std::filesystem::exists(settings.checkpoint)) {
        const Checkpoint c = read_checkpoint(settings.checkpoint, n);
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
        nlopt_opt opt = nullptr;  ///< the running optimizer, for nlopt_force_stop
    } ctx{&problem, &settings, &on_iteration, &grid, settings.mapping, &result, &iteration, &epoch, &epoch_evaluations, false, {}, 0.0, {}};

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
        try {
            const auto t0 = std::chrono::steady_clock::now();
            c.grid->rho.assign(x, x + nn);
            const std::vector<double> projected = design::map_density(*c.grid, c.mapping);
            const Evaluation ev = evaluate_with_gradient(*c.problem, projected);
            const std::vector<double> g = design::map_density_adjoint(*c.grid, c.mapping, ev.gradient);
            if (c.scale == 0) c.scale = std::abs(ev.objective) > 0 ? std::abs(ev.objective) : 1.0;
            if (grad)
                for (std::size_t k = 0; k < g.size(); ++k) grad[k] = g[k] / c.scale;
            Iteration it;
            it.index = (*c.iteration)++;
            ++*c.epoch_evaluations;
            it.beta = c.mapping.beta;
            it.objective = ev.objective;
            it.rho = c.grid->rho;
            it.rho_projected = projected;
            it.gradient_norm = norm2(g);
            it.steps = ev.forward_steps + ev.adjoint_steps;
            if (c.settings->min_length_um > 0) {
                design::LengthScaleConstraint ls = c.ls;
                ls.beta = c.mapping.beta;
                it.constraint_solid = design::constraint_solid(*c.grid, ls).value;
                it.constraint_void = design::constraint_void(*c.grid, ls).value;
            }
            it.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (!c.settings->checkpoint.empty())
                write_checkpoint(c.settings->checkpoint, *c.iteration, *c.epoch, *c.epoch_evaluations, it.beta, it.rho,
                                 it.objective);
            c.result->rho = it.rho;
            c.result->rho_projected = it.rho_projected;
            const bool go_on = !*c.callback || (*c.callback)(it);
            c.result->history.push_back(std::move(it));
            if (!go_on) {
                c.stopped = true;
                c.result->stop = "stopped by the caller";
                nlopt_force_stop(c.opt);  // else NLopt evaluates on to the beta's maxeval
            }
            return ev.objective / c.scale;
        } catch (const Cancelled&) {
            // RunSettings::cancel: a clean stop; the checkpoint keeps the last completed evaluation
            c.stopped = true;
            c.result->stop = "cancelled";
            nlopt_force_stop(c.opt);
            return std::nan("");
        } catch (const std::exception& e) {
            c.error = e.what();
            c.stopped = true;
            return std::nan("");
        }
    };
    // one trampoline for both length scale constraints: `data` is a Constraint
    struct Constraint {
        Context* ctx;
        design::ConstraintValue (*eval)(const design::DensityGrid&, const design::LengthScaleConstraint&);
    };
    auto constraint_fn = [](unsigned nn, const double* x, double* grad, void* data) -> double {
        const auto& k = *static_cast<Constraint*>(data);
        design::DensityGrid g = *k.ctx->grid;
        g.rho.assign(x, x + nn);
        design::LengthScaleConstraint ls = k.ctx->ls;
        ls.beta = k.ctx->mapping.beta;
        const design::ConstraintValue v = k.eval(g, ls);
        if (grad) std::copy(v.gradient.begin(), v.gradient.end(), grad);
        return v.value - k.ctx->settings->constraint_epsilon;
    };
    Constraint solid{&ctx, &design::constraint_solid}, voids{&ctx, &design::constraint_void};

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
        const int evals = std::min(settings.beta_every - epoch_evaluations,
                                   settings.max_iterations - (iteration - result.first_iteration));
        if (evals <= 0) {  // this beta's evaluations are done: the next one
            ++epoch, epoch_evaluations = 0;
            continue;
        }
        nlopt_opt opt = nlopt_create(alg, unsigned(n));
        ctx.opt = opt;
        std::vector<double> lo(n, 0.0), hi(n, 1.0);
        for (const FixedPixel& f : settings.fixed) lo[f.index] = hi[f.index] = f.rho;
        nlopt_set_lower_bounds(opt, lo.data());
        nlopt_set_upper_bounds(opt, hi.data());
        if (settings.maximize) nlopt_set_max_objective(opt, objective_fn, &ctx);
        else nlopt_set_min_objective(opt, objective_fn, &ctx);
        // The length scale constraints join once the design is nearly binary (by default the
        // last two betas of the schedule): on a grey design (a uniform 0.5 start gives g_s =
        // g_v = 1/32 whatever rho does at first order, and the two pull rho opposite ways)
        // MMA finds no feasible step and the design never moves (measured: 100 evaluations
        // at the start value); at the largest beta alone, 20 evaluations were too few to
        // repair the features without losing the transmission
        if (constrained && ctx.mapping.beta >= constraint_beta) {
            nlopt_add_inequality_constraint(opt, constraint_fn, &solid, 0.0);
            nlopt_add_inequality_constraint(opt, constraint_fn, &voids, 0.0);
        }
        nlopt_set_maxeval(opt, evals);
        double f = 0;
        const int before = iteration;
        const nlopt_result r = nlopt_optimize(opt, rho.data(), &f);
        nlopt_destroy(opt);
        if (!ctx.error.empty()) throw RunError("optimize: " + ctx.error);
        if (ctx.stopped) break;
        if (iteration == before) {
            result.stop = "the optimizer made no evaluation (NLopt result " + std::to_string(int(r)) + ")";
            break;
        }
        if (r != NLOPT_MAXEVAL_REACHED && ctx.mapping.beta >= beta_max) {
            result.stop = "converged at the largest beta";
            break;
        }
        // the beta's evaluations ran out, or it converged before: the next beta
        ++epoch, epoch_evaluations = 0;
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
