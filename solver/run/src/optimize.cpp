// GoLightly: derivative-free optimization over project parameters (sweep.hpp,
// run_optimize), with NLopt's C interface.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/objective.hpp"
#include "golightly/parameters.hpp"
#include "golightly/sweep.hpp"
#include "sweep_internal.hpp"

#ifdef GOLIGHTLY_HAVE_NLOPT
#include <nlopt.h>
#endif

namespace golightly {

namespace fs = std::filesystem;

namespace {

#ifdef GOLIGHTLY_HAVE_NLOPT
const std::map<std::string, nlopt_algorithm>& algorithm_table() {
    static const std::map<std::string, nlopt_algorithm> table = {
        {"bobyqa", NLOPT_LN_BOBYQA},  {"cobyla", NLOPT_LN_COBYLA}, {"neldermead", NLOPT_LN_NELDERMEAD},
        {"sbplx", NLOPT_LN_SBPLX},    {"direct", NLOPT_GN_DIRECT_L}, {"crs2", NLOPT_GN_CRS2_LM},
        {"esch", NLOPT_GN_ESCH},      {"isres", NLOPT_GN_ISRES}};
    return table;
}

std::string result_text(nlopt_result r) {
    switch (r) {
        case NLOPT_SUCCESS: return "success";
        case NLOPT_STOPVAL_REACHED: return "stopval reached";
        case NLOPT_FTOL_REACHED: return "ftol reached";
        case NLOPT_XTOL_REACHED: return "xtol reached";
        case NLOPT_MAXEVAL_REACHED: return "max evaluations reached";
        case NLOPT_MAXTIME_REACHED: return "max time reached";
        case NLOPT_FORCED_STOP: return "stopped (a design failed or the search was cancelled)";
        case NLOPT_ROUNDOFF_LIMITED: return "roundoff limited";
        case NLOPT_OUT_OF_MEMORY: return "out of memory";
        case NLOPT_INVALID_ARGS: return "invalid arguments";
        default: return "failure";
    }
}
#endif

std::vector<std::pair<std::string, double>> variables_of(const Project& p) {
    std::vector<std::pair<std::string, double>> v;
    for (const auto& prm : p.parameters) v.emplace_back(prm.name, prm.value);
    return v;
}

}  // namespace

std::vector<std::string> optimize_algorithms() {
    return {"bobyqa", "cobyla", "neldermead", "sbplx", "direct", "crs2", "esch", "isres"};
}

OptimizeReport run_optimize(const Project& project, const std::string& label, const std::vector<BoundParameter>& parameters,
                            const OptimizeOptions& options) {
    if (parameters.empty()) throw std::invalid_argument("optimize needs at least one --param NAME=LO..HI");
    if (options.objective.empty()) throw std::invalid_argument("--objective is required");
    if (options.max_evals < 1) throw std::invalid_argument("--max-evals must be at least 1");
    const auto algos = optimize_algorithms();
    if (std::find(algos.begin(), algos.end(), options.algorithm) == algos.end()) {
        std::string list;
        for (const auto& a : algos) list += (list.empty() ? "" : ", ") + a;
        throw std::invalid_argument("unknown --algorithm \"" + limits::cap_text(options.algorithm) + "\"; expected one of " + list);
    }
    const std::size_t n = parameters.size();
    std::vector<std::string> names;
    for (const auto& b : parameters) names.push_back(b.name);

    // Starting point: the project's values (an unknown name fails here, naming it).
    Project start = with_parameters(project, detail::overrides_of(names, [&] {
                                        std::vector<double> mid;
                                        for (const auto& b : parameters) mid.push_back(0.5 * (b.lo + b.hi));
                                        return mid;
                                    }()), label);
    std::vector<double> x0(n);
    for (std::size_t i = 0; i < n; ++i) {
        double v = 0.5 * (parameters[i].lo + parameters[i].hi);
        for (const auto& prm : project.parameters)
            if (prm.name == names[i] && prm.value >= parameters[i].lo && prm.value <= parameters[i].hi) v = prm.value;
        x0[i] = v;
    }

    // Syntax, unknown names and wavelengths outside the spectrum: before any run.
    ObjectiveSpec spec;
    std::vector<ObjectiveFunction> functions;
    try {
        spec = parse_objective(options.objective, variables_of(start));
        functions = objective_functions(project, spec.expression, label);
        check_objective(spec, functions, start, variables_of(start));
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("--" + std::string(e.what()));
    }

#ifndef GOLIGHTLY_HAVE_NLOPT
    (void)x0;
    throw std::runtime_error("this build of GoLightly has no optimizer (built without NLopt)");
#else
    OptimizeReport report;
    report.names = names;
    report.algorithm = options.algorithm;
    for (const auto& b : parameters) report.xtol.push_back(options.xtol > 0 ? options.xtol : 1e-3 * (b.hi - b.lo));

    fs::create_directories(options.out);
    const DesignRunner runner = options.runner ? options.runner : in_process_runner({});
    const int max_evals = options.max_evals;
    std::vector<std::vector<double>> xs;
    std::vector<double> objectives;
    std::vector<std::string> status;
    std::exception_ptr error;
    nlopt_opt opt = nullptr;

    auto write_csv = [&]() {
        std::ostringstream out;
        out << "evaluation";
        for (const auto& nm : names) out << ',' << detail::csv_field(nm);
        out << ",objective,status\n";
        for (std::size_t e = 0; e < xs.size(); ++e) {
            out << e;
            for (double v : xs[e]) out << ',' << detail::csv_number(v);
            out << ',' << detail::csv_number(objectives[e]) << ',' << detail::csv_field(status[e]) << '\n';
        }
        write_file_atomic(options.out / "optimize.csv", out.str());
    };

    struct Context {
        std::function<double(const double*)> fn;
    } ctx;
    ctx.fn = [&](const double* x) -> double {
        const std::size_t e = xs.size();
        std::vector<double> xv(x, x + n);
        xs.push_back(xv);
        objectives.push_back(std::nan(""));
        status.emplace_back();
        try {
            if (options.cancel && options.cancel->load()) throw RunError("cancelled");
            const ParameterOverrides overrides = detail::overrides_of(names, xv);
            const Project design = with_parameters(project, overrides, label);
            const fs::path dir = options.out / detail::folder_name("eval", e, std::size_t(max_evals));
            const bool reused = detail::prepare_design_folder(dir, design);
            if (!reused) runner(design, label, overrides, dir, 0);
            ObjectiveResults results(dir);
            objectives[e] = evaluate_objective(spec, functions, results, variables_of(design), false).value;
            status[e] = reused ? "reused" : "ok";
        } catch (const std::exception& ex) {
            status[e] = "failed: " + limits::cap_text(ex.what(), 300);
            if (!error) error = std::current_exception();
        }
        write_csv();
        const bool better = std::isfinite(objectives[e]) &&
                            (report.best_evaluation < 0 || (options.minimize ? objectives[e] < report.best_objective
                                                                             : objectives[e] > report.best_objective));
        if (better) {
            report.best_evaluation = int(e);
            report.best_objective = objectives[e];
            report.best = xv;
        }
        if (options.log) {
            std::string line = "evaluation " + std::to_string(e + 1) + ":";
            for (std::size_t i = 0; i < n; ++i) line += " " + names[i] + "=" + detail::csv_number(xv[i]);
            line += " objective=" + detail::csv_number(objectives[e]) + " (" + status[e] + ")";
            if (better) line += " best so far";
            options.log(line);
        }
        if (status[e].rfind("failed", 0) == 0) {
            nlopt_force_stop(opt);
            return options.minimize ? HUGE_VAL : -HUGE_VAL;
        }
        return objectives[e];
    };

    opt = nlopt_create(algorithm_table().at(options.algorithm), unsigned(n));
    if (!opt) throw std::runtime_error("NLopt could not create the optimizer");
    struct Destroy {
        nlopt_opt o;
        ~Destroy() { nlopt_destroy(o); }
    } destroy{opt};
    nlopt_srand(20261125);  // reproducible global searches (a re-run reuses the finished designs)
    std::vector<double> lo(n), hi(n), step(n);
    for (std::size_t i = 0; i < n; ++i) {
        lo[i] = parameters[i].lo;
        hi[i] = parameters[i].hi;
        step[i] = 0.25 * (hi[i] - lo[i]);
    }
    nlopt_set_lower_bounds(opt, lo.data());
    nlopt_set_upper_bounds(opt, hi.data());
    nlopt_set_xtol_abs(opt, report.xtol.data());
    nlopt_set_maxeval(opt, max_evals);
    nlopt_set_initial_step(opt, step.data());
    auto trampoline = [](unsigned, const double* x, double*, void* data) -> double {
        return static_cast<Context*>(data)->fn(x);
    };
    const nlopt_result r = options.minimize ? nlopt_set_min_objective(opt, trampoline, &ctx)
                                            : nlopt_set_max_objective(opt, trampoline, &ctx);
    if (r < 0) throw std::runtime_error("NLopt refused the objective");
    double fbest = 0;
    std::vector<double> x = x0;
    const nlopt_result result = nlopt_optimize(opt, x.data(), &fbest);
    report.stop = result_text(result);
    if (result == NLOPT_INVALID_ARGS)
        throw std::invalid_argument("NLopt's " + options.algorithm + " refused the problem (invalid arguments; " +
                                    "bobyqa needs at least 2 parameters in some NLopt versions: try cobyla or sbplx)");
    report.evaluations = int(xs.size());
    if (error && report.best_evaluation < 0) std::rethrow_exception(error);
    if (report.best_evaluation < 0) throw std::runtime_error("no evaluation gave a finite objective");

    Project best = with_parameters(project, detail::overrides_of(names, report.best), label);
    report.best_project = options.out / "best.glproj";
    save_project(best, report.best_project);
    return report;
#endif
}

}  // namespace golightly
