// Shape parameters as adjoint design variables (adjoint_shape.hpp: the method, its
// discrete boundary formula and its limits).
#include "golightly/adjoint_shape.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"

#ifdef GOLIGHTLY_HAVE_NLOPT
#include <nlopt.h>
#endif

namespace golightly::adjoint {

namespace fs = std::filesystem;

namespace {

std::string param_path(std::size_t k) { return "design.shape_parameters[" + std::to_string(k) + "]"; }

std::vector<Component> e_components(const Scene& s) {
    if (s.dimensions == 3) return {Component::Ex, Component::Ey, Component::Ez};
    return electric_components(s.polarization);
}

/// The project as compiled for the permittivity only: no monitors, no design section, no
/// normalization run.
Scene geometry_scene(const Project& at, const std::string& file_label) {
    Project q = at;
    q.extra.erase("design");
    q.monitors.clear();
    q.run.normalization = Normalization{};
    q.run.stop.monitor.reset();
    return compile_project(q, file_label).scene;
}

double eps_of(const Scene& s, Component c, std::size_t cell) {
    return s.table[s.material_index[int(c)][cell]].eps_r;
}

/// `at` with the layers, materials and parameter bookkeeping of `base`: equal to `base`
/// when the parameters changed nothing else.
bool only_geometry_differs(const Project& base, Project at) {
    at.layers = base.layers;
    at.materials = base.materials;
    at.parameters = base.parameters;
    at.expressions = base.expressions;
    return at == base;
}

}  // namespace

Project project_at(const Project& project, const std::vector<std::string>& names, const std::vector<double>& values,
                   const std::string& file_label) {
    if (names.size() != values.size()) throw std::invalid_argument("project_at: one value per parameter name");
    ParameterOverrides o;
    for (std::size_t k = 0; k < names.size(); ++k) o.emplace_back(names[k], parameter_text(values[k]));
    return with_parameters(project, o, file_label);
}

ShapeSensitivity shape_sensitivity(const Project& project, const DesignSpec& spec, const std::vector<double>& values,
                                   const Scene& scene, const std::string& file_label) {
    const std::size_t np = spec.shape_parameters.size();
    if (values.size() != np) throw std::invalid_argument("shape sensitivity: one value per shape parameter");
    if (!project.run.subpixel_averaging)
        throw ProjectError(file_label, "run.subpixel_averaging",
                           "shape parameters need sub-pixel averaging (true): a staircased permittivity does not change "
                           "continuously with a boundary's position, so it has no useful derivative");
    std::vector<std::string> names;
    for (const auto& sp : spec.shape_parameters) names.push_back(sp.name);
    const Project base = project_at(project, names, values, file_label);
    const auto comps = e_components(scene);
    const std::size_t cells = scene.cells();
    // (component, cell) -> d eps / d p_k per parameter; ordered by component, then cell
    std::map<std::pair<int, CellIndex>, std::vector<double>> moved;
    ShapeSensitivity out;
    out.moved.assign(np, 0);
    for (std::size_t k = 0; k < np; ++k) {
        const DesignShapeParameter& sp = spec.shape_parameters[k];
        const double h = sp.step > 0 ? sp.step : 1e-4 * (sp.max - sp.min);
        std::vector<double> up = values, down = values;
        up[k] = std::min(values[k] + h, sp.max);
        down[k] = std::max(values[k] - h, sp.min);
        const double span = up[k] - down[k];
        const Project pu = project_at(project, names, up, file_label);
        const Project pd = project_at(project, names, down, file_label);
        for (const Project* side : {&pu, &pd})
            if (!only_geometry_differs(base, *side))
                throw ProjectError(file_label, param_path(k) + ".name",
                                   "parameter \"" + sp.name +
                                       "\" changes more than the layers and materials (a source, monitor, the domain or "
                                       "the run settings): only the permittivity's dependence on it is differentiated");
        const Scene su = geometry_scene(pu, file_label), sd = geometry_scene(pd, file_label);
        for (const Scene* s : {&su, &sd})
            if (s->nx != scene.nx || s->ny != scene.ny || s->nz != scene.nz)
                throw ProjectError(file_label, param_path(k) + ".name",
                                   "parameter \"" + sp.name + "\" changes the grid; a shape parameter may move shapes only");
        for (Component c : comps)
            for (std::size_t cell = 0; cell < cells; ++cell) {
                const double eu = eps_of(su, c, cell), ed = eps_of(sd, c, cell);
                if (eu == ed) continue;
                auto& row = moved[{int(c), CellIndex(cell)}];
                row.resize(np, 0.0);
                row[k] = (eu - ed) / span;
                ++out.moved[k];
            }
    }
    const std::int64_t n[3] = {scene.nx, scene.ny, scene.dimensions == 3 ? scene.nz : 1};
    for (int a = 0; a < 3; ++a) out.box_lo[std::size_t(a)] = n[a], out.box_hi[std::size_t(a)] = -1;
    for (const auto& [key, row] : moved) {
        out.sites.component.push_back(Component(key.first));
        out.sites.cell.push_back(key.second);
        out.d_eps.insert(out.d_eps.end(), row.begin(), row.end());
        const std::int64_t ijk[3] = {key.second % n[0], (key.second / n[0]) % n[1], key.second / (n[0] * n[1])};
        for (int a = 0; a < 3; ++a) {
            out.box_lo[std::size_t(a)] = std::min(out.box_lo[std::size_t(a)], ijk[a]);
            out.box_hi[std::size_t(a)] = std::max(out.box_hi[std::size_t(a)], ijk[a]);
        }
    }
    return out;
}

namespace {

struct ShapeAt {
    ProjectProblem pp;
    ShapeSensitivity sens;
};

/// The problem and (with the gradient) the sensitivity at `p`, checked: the objective's
/// E samples must not lie on moving sites.
ShapeAt shape_at(const ShapeProblem& sp, const std::vector<double>& p, bool with_gradient) {
    const std::size_t np = sp.names.size();
    if (p.size() != np)
        throw std::invalid_argument("shape parameters: " + std::to_string(p.size()) + " values for " + std::to_string(np) +
                                    " parameters");
    for (std::size_t k = 0; k < np; ++k)
        if (!(p[k] >= sp.lo[k] && p[k] <= sp.hi[k]))
            throw std::invalid_argument("shape parameters: " + sp.names[k] + " = " + parameter_text(p[k]) +
                                        " lies outside its bounds");
    ShapeAt at;
    const Project q = project_at(sp.project, sp.names, p, sp.file_label);
    at.pp = shape_problem_at(q, sp.file_label, sp.project_dir, sp.options, sp.normalization);
    if (!with_gradient) return at;
    at.sens = shape_sensitivity(sp.project, sp.spec, p, at.pp.problem.scene, sp.file_label);
    std::unordered_map<CellIndex, std::size_t> site_of[3];
    for (std::size_t s = 0; s < at.sens.sites.size(); ++s)
        site_of[component_axis(at.sens.sites.component[s])].emplace(at.sens.sites.cell[s], s);
    for (std::size_t t = 0; t < at.pp.problem.functionals.size(); ++t) {
        const FieldFunctional& fn = at.pp.problem.functionals[t];
        for (std::size_t q2 = 0; q2 < fn.cell.size(); ++q2) {
            if (!is_electric(fn.component[q2])) continue;
            const auto it = site_of[component_axis(fn.component[q2])].find(fn.cell[q2]);
            if (it == site_of[component_axis(fn.component[q2])].end()) continue;
            std::size_t k = 0;
            while (k + 1 < np && at.sens.d_eps[it->second * np + k] == 0.0) ++k;
            throw ProjectError(sp.file_label, param_path(k) + ".name",
                               "parameter \"" + sp.names[k] + "\" moves the permittivity where design.objective.terms[" +
                                   std::to_string(t) + "] samples the field (" + fn.name +
                                   "): a mode's or a point's dependence on it is not differentiated; move the monitor "
                                   "or point off the moving boundary");
        }
    }
    return at;
}

}  // namespace

ShapeProblem shape_problem_from_project(const Project& project, const std::string& file_label, const fs::path& project_dir,
                                        const ProjectProblemOptions& options) {
    const std::optional<DesignSpec> spec = design_spec(project, file_label);
    if (!spec) throw ProjectError(file_label, "design", "the project has no `design` section to optimize");
    if (spec->shape_parameters.empty())
        throw ProjectError(file_label, "design.shape_parameters", "the design has a density region, not shape parameters");
    ShapeProblem sp;
    sp.project = project;
    sp.file_label = file_label;
    sp.project_dir = project_dir;
    sp.spec = *spec;
    sp.options = options;
    for (const DesignShapeParameter& s : spec->shape_parameters) {
        sp.names.push_back(s.name);
        sp.lo.push_back(s.min);
        sp.hi.push_back(s.max);
        for (const Parameter& q : project.parameters)
            if (q.name == s.name) sp.p0.push_back(q.value);
    }
    // the normalization at the start values (run here once; every evaluation reuses it)
    ProjectProblem pp = shape_problem_at(project, file_label, project_dir, options);
    sp.normalization = pp.normalization;
    sp.wavelengths_um = pp.wavelengths_um;
    sp.warnings = pp.warnings;
    // the refusals of the sensitivity, before any run of the optimizer
    (void)shape_at(sp, sp.p0, true);
    return sp;
}

ShapeEvaluation evaluate_shape(const ShapeProblem& sp, const std::vector<double>& p, bool with_gradient) {
    const auto t0 = std::chrono::steady_clock::now();
    const ShapeAt at = shape_at(sp, p, with_gradient);
    const Evaluation ev = evaluate_sites(at.pp.problem, at.sens.sites, with_gradient);
    ShapeEvaluation out;
    out.objective = ev.objective;
    out.objective_per_frequency = ev.objective_per_frequency;
    out.sites = at.sens.sites.size();
    out.steps = ev.forward_steps + ev.adjoint_steps;
    out.warnings = ev.warnings;
    if (with_gradient) {
        const std::size_t np = sp.names.size();
        out.gradient.assign(np, 0.0);
        for (std::size_t s = 0; s < at.sens.sites.size(); ++s)
            for (std::size_t k = 0; k < np; ++k) out.gradient[k] += ev.d_eps[s] * at.sens.d_eps[s * np + k];
    }
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

#ifdef GOLIGHTLY_HAVE_NLOPT
namespace {

struct OptContext {
    const ShapeProblem* problem = nullptr;
    const std::function<bool(const ShapeIteration&)>* on_iteration = nullptr;
    ShapeOptimizeResult* result = nullptr;
    nlopt_opt opt = nullptr;
    bool maximize = true;
    /// NLopt sees F / |F(p0)|: MMA's tolerances are absolute, and F in DFT units may be
    /// 1e-29 (as optimize_density)
    double scale = 0;
    bool cancelled = false, stopped = false;
    std::exception_ptr error;
};

double shape_objective(unsigned n, const double* x, double* grad, void* data) {
    auto& c = *static_cast<OptContext*>(data);
    std::vector<double> p(x, x + n);
    // NLopt's moves stay within the bounds up to rounding
    for (std::size_t k = 0; k < n; ++k) p[k] = std::clamp(p[k], c.problem->lo[k], c.problem->hi[k]);
    ShapeEvaluation ev;
    try {
        ev = evaluate_shape(*c.problem, p, true);
    } catch (const Cancelled&) {
        c.cancelled = true;
        nlopt_force_stop(c.opt);
        return c.result->history.empty() ? 0.0 : c.result->history.back().objective * c.scale;
    } catch (...) {
        c.error = std::current_exception();
        nlopt_force_stop(c.opt);
        return 0.0;
    }
    if (c.scale == 0) c.scale = std::abs(ev.objective) > 0 ? 1.0 / std::abs(ev.objective) : 1.0;
    if (grad)
        for (std::size_t k = 0; k < n; ++k) grad[k] = ev.gradient[k] * c.scale;
    ShapeIteration it;
    it.index = int(c.result->history.size());
    it.objective = ev.objective;
    it.objective_per_frequency = ev.objective_per_frequency;
    it.p = p;
    it.gradient = ev.gradient;
    for (double g : ev.gradient) it.gradient_norm += g * g;
    it.gradient_norm = std::sqrt(it.gradient_norm);
    it.steps = ev.steps;
    it.wall_s = ev.wall_s;
    const bool better = c.result->history.empty() ||
                        (c.maximize ? ev.objective > c.result->objective : ev.objective < c.result->objective);
    if (better) c.result->p = p, c.result->objective = ev.objective;
    c.result->history.push_back(it);
    if (*c.on_iteration && !(*c.on_iteration)(it)) {
        c.stopped = true;
        nlopt_force_stop(c.opt);
    }
    return ev.objective * c.scale;
}

}  // namespace
#endif

ShapeOptimizeResult optimize_shape(const ShapeProblem& problem, int max_iterations,
                                   const std::function<bool(const ShapeIteration&)>& on_iteration) {
#ifndef GOLIGHTLY_HAVE_NLOPT
    (void)problem, (void)max_iterations, (void)on_iteration;
    throw std::runtime_error("this build has no optimizer (NLopt)");
#else
    const unsigned n = unsigned(problem.names.size());
    nlopt_algorithm alg;
    if (problem.spec.algorithm == "mma") alg = NLOPT_LD_MMA;
    else if (problem.spec.algorithm == "ccsa") alg = NLOPT_LD_CCSAQ;
    else if (problem.spec.algorithm == "lbfgs") alg = NLOPT_LD_LBFGS;
    else throw std::invalid_argument("optimize: unknown algorithm \"" + problem.spec.algorithm + "\" (mma, ccsa, lbfgs)");
    ShapeOptimizeResult result;
    result.p = problem.p0;
    OptContext c;
    c.problem = &problem;
    c.on_iteration = &on_iteration;
    c.result = &result;
    c.maximize = problem.spec.objective.maximize;
    c.opt = nlopt_create(alg, n);
    if (!c.opt) throw std::runtime_error("optimize: NLopt could not create the optimizer");
    nlopt_set_lower_bounds(c.opt, problem.lo.data());
    nlopt_set_upper_bounds(c.opt, problem.hi.data());
    if (c.maximize)
        nlopt_set_max_objective(c.opt, shape_objective, &c);
    else
        nlopt_set_min_objective(c.opt, shape_objective, &c);
    nlopt_set_maxeval(c.opt, max_iterations > 0 ? max_iterations : problem.spec.max_iterations);
    nlopt_set_xtol_rel(c.opt, 1e-6);
    std::vector<double> x = problem.p0;
    double f = 0;
    const nlopt_result r = nlopt_optimize(c.opt, x.data(), &f);
    nlopt_destroy(c.opt);
    if (c.error) std::rethrow_exception(c.error);
    if (c.cancelled) result.stop = "cancelled";
    else if (c.stopped) result.stop = "stopped by the caller";
    else if (r == NLOPT_MAXEVAL_REACHED) result.stop = "max_iterations reached";
    else if (r == NLOPT_XTOL_REACHED) result.stop = "converged (parameters change by less than 1e-6 relative)";
    else if (r == NLOPT_FTOL_REACHED || r == NLOPT_SUCCESS || r == NLOPT_STOPVAL_REACHED) result.stop = "converged";
    else if (r == NLOPT_ROUNDOFF_LIMITED) result.stop = "roundoff limited (NLopt)";
    else result.stop = "NLopt stopped (code " + std::to_string(int(r)) + ")";
    return result;
#endif
}

}  // namespace golightly::adjoint
