// golightly-cli sweep / optimize (spec/cli.md): parameter sweeps over a grid of designs and
// derivative-free optimization (sweep.hpp).
#include "cmd_sweep.hpp"
#include "child_process.hpp"
#include "cli_run_options.hpp"


#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <thread>

#include "golightly/compile.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/sweep.hpp"
#include "out_folder.hpp"


namespace golightly::cli {

namespace fs = std::filesystem;

namespace {

constexpr int kExitOk = 0, kExitUsage = 1, kExitRun = 3;

std::atomic<bool> g_sweep_cancel{false};
extern "C" void on_sweep_sigint(int) { g_sweep_cancel.store(true); }

RunOptions run_options(const SweepCommands& c) {
    RunOptions o = run_options_from_flags(c.backend, c.precision, c.threads, c.max_steps);
    o.cancel = &g_sweep_cancel;
    return o;
}

/// Several workers: each design runs as a child `golightly-cli run PROJECT --param
/// NAME=VALUE ... --out DIR` whose environment child_environment() builds (a CUDA worker
/// sees its one device); CPU workers get plan.threads_per_worker threads each. Its output
/// goes to DIR/run.log.
DesignRunner child_process_runner(const SweepCommands& c, const DevicePlan& plan) {
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const std::vector<std::string> parent_env = current_environment();
    return [self, c, plan, parent_env](const Project&, const std::string& label, const ParameterOverrides& overrides,
                                       const fs::path& dir, int worker) {
        std::vector<std::string> args = {self, "run", label, "--out", dir.string()};
        for (const auto& [name, value] : overrides) args.insert(args.end(), {"--param", name + "=" + value});
        if (!c.backend.empty()) args.insert(args.end(), {"--backend", c.backend});
        if (!c.precision.empty()) args.insert(args.end(), {"--precision", c.precision});
        const int threads = plan.cpu_workers > 0 ? plan.threads_per_worker : c.threads;
        if (threads > 0) args.insert(args.end(), {"--threads", std::to_string(threads)});
        if (c.max_steps >= 0) args.insert(args.end(), {"--max-steps", std::to_string(c.max_steps)});
        const std::string log = (dir / "run.log").string();
        const int code = run_child_process(args, child_environment(parent_env, plan, worker), log,
                                           "the child run of " + label);
        if (code != 0)
            throw RunError("golightly-cli run exited with code " + std::to_string(code) + " (see " + log + ")");
    };
}

/// True when the runs use the CUDA backend: --backend, else the project's run.backend
/// (auto: when a CUDA device is present).
bool runs_use_cuda(const SweepCommands& c, const Project& project) {
    BackendChoice b = project.run.backend;
    if (c.backend == "auto") b = BackendChoice::Auto;
    if (c.backend == "cpu") b = BackendChoice::Cpu;
    if (c.backend == "cuda") b = BackendChoice::Cuda;
    if (b == BackendChoice::Cpu) return false;
    return b == BackendChoice::Cuda || cuda_available();
}

std::vector<double> parse_at(const std::string& s) {
    std::vector<double> out;
    if (s.empty()) return out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const auto comma = s.find(',', start);
        const std::string item = s.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        std::size_t used = 0;
        double v = 0;
        try {
            v = std::stod(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != item.size() || !(v > 0) || !std::isfinite(v))
            throw std::invalid_argument("--at: \"" + limits::cap_text(item) + "\" is not a positive wavelength in um");
        out.push_back(v);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

/// --concurrent auto: runs per device from the design's device state (the base project's
/// compiled scene, engine_state_bytes at the runs' precision) and the least free memory of
/// the plan's devices (sweep.hpp auto_concurrency).
int auto_runs_per_device(const Project& project, const std::string& label, const SweepCommands& c,
                         const DevicePlan& plan) {
    const CompiledProject cp = compile_project(project, label);
    Precision precision = project.run.precision;
    if (c.precision == "float32") precision = Precision::Float32;
    if (c.precision == "float64") precision = Precision::Float64;
    const std::size_t run_bytes = engine_state_bytes(cp.scene, precision);
    std::size_t free_b = std::numeric_limits<std::size_t>::max();
    for (int k : plan.ordinals) free_b = std::min(free_b, cuda_memory_free(k));
    return auto_concurrency(run_bytes, free_b, int(std::max(1u, std::thread::hardware_concurrency())));
}

fs::path default_out(const std::string& project, const std::string& suffix) {
    const fs::path file(project);
    return file.parent_path() / (file.stem().string() + suffix);
}

int cmd_sweep(const SweepCommands& c) {
    const Project project = load_project(fs::path(c.project));
    check_runnable(project, c.project);
    std::vector<SweepParameter> params;
    SweepOptions o;
    DevicePlan plan;
    try {
        const auto variables = parameter_values(project);
        for (const auto& p : c.params) params.push_back(parse_sweep_parameter(p, variables));
        o.at_um = parse_at(c.at);
        o.objectives = c.objectives;
        const bool cuda = runs_use_cuda(c, project);
        plan = plan_devices(c.devices, cuda ? cuda_device_count() : 0, std::getenv("CUDA_VISIBLE_DEVICES"), cuda,
                            c.threads);
        const int concurrent = parse_concurrent(c.concurrent);
        if (!plan.devices.empty())
            plan.concurrent = concurrent > 0 ? concurrent : auto_runs_per_device(project, c.project, c, plan);
        else if (concurrent > 1)
            std::fprintf(stderr, "warning: --concurrent applies to CUDA runs; CPU runs share the cores by --devices N\n");
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
    }
    o.out = c.out.empty() ? default_out(c.project, "_sweep") : fs::path(c.out);
    if (!results_folder_writable(o.out)) return 2;  // as an invalid project, before any run
    o.workers = plan.workers();
    o.runner = plan.in_process() ? in_process_runner(run_options(c), plan) : child_process_runner(c, plan);
    if (plan.threaded()) {
        std::string list;
        for (int k : plan.ordinals) list += (list.empty() ? "" : ", ") + std::to_string(k);
        std::printf("sweep: %d workers, %d runs at a time on each CUDA device %s (threads of this process)\n",
                    o.workers, plan.concurrent, list.c_str());
    } else if (!plan.devices.empty()) {
        std::string list;
        for (const auto& d : plan.devices) list += (list.empty() ? "" : ", ") + d;
        std::printf("sweep: %d worker%s on CUDA device%s %s (CUDA_VISIBLE_DEVICES of the runs)\n", o.workers,
                    o.workers == 1 ? "" : "s", o.workers == 1 ? "" : "s", list.c_str());
    } else if (plan.cpu_workers > 1) {
        std::printf("sweep: %d CPU workers, %d thread%s each\n", plan.cpu_workers, plan.threads_per_worker,
                    plan.threads_per_worker == 1 ? "" : "s");
    }
    o.log = [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    };
    o.cancel = &g_sweep_cancel;
    std::signal(SIGINT, on_sweep_sigint);
    SweepReport r;
    try {
        r = run_sweep(project, c.project, params, o);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
    }
    std::printf("sweep: %zu designs: %zu run, %zu reused, %zu failed%s\n", r.designs, r.ran, r.skipped, r.failed,
                r.cancelled ? ", the rest not run (interrupted: run the same command again to resume)" : "");
    std::printf("results: %s\n", (o.out / "sweep.csv").string().c_str());
    return r.failed > 0 || r.cancelled ? kExitRun : kExitOk;
}

int cmd_optimize(const SweepCommands& c) {
    const Project project = load_project(fs::path(c.project));
    check_runnable(project, c.project);
    std::vector<BoundParameter> params;
    try {
        const auto variables = parameter_values(project);
        for (const auto& p : c.params) params.push_back(parse_bound_parameter(p, variables));
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
    }
    OptimizeOptions o;
    o.out = c.out.empty() ? default_out(c.project, "_optimize") : fs::path(c.out);
    if (!results_folder_writable(o.out)) return 2;  // as an invalid project, before any run
    o.objective = c.objective;
    o.minimize = c.minimize;
    o.max_evals = c.max_evals;
    o.algorithm = c.algorithm;
    o.xtol = c.xtol;
    o.runner = in_process_runner(run_options(c));
    o.log = [](const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
    };
    o.cancel = &g_sweep_cancel;
    std::signal(SIGINT, on_sweep_sigint);
    OptimizeReport r;
    try {
        r = run_optimize(project, c.project, params, o);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
    }
    std::string best;
    for (std::size_t i = 0; i < r.names.size(); ++i) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "%s%s=%.6g (tolerance %.3g)", i ? ", " : "", r.names[i].c_str(), r.best[i],
                      r.xtol[i]);
        best += buf;
    }
    std::printf("best: %s; objective %s = %.6g at evaluation %d of %d (%s, %s)\n", best.c_str(), c.objective.c_str(),
                r.best_objective, r.best_evaluation + 1, r.evaluations, r.algorithm.c_str(), r.stop.c_str());
    std::printf("best design: %s\n", r.best_project.string().c_str());
    return g_sweep_cancel.load() ? kExitRun : kExitOk;
}

}  // namespace

CLI::Validator parameter_assignment_check() {
    return CLI::Validator(
        [](std::string& s) -> std::string {
            try {
                parse_parameter_assignments({s});
                return {};
            } catch (const std::exception& e) {
                return e.what();
            }
        },
        "NAME=VALUE");
}

void add_sweep_commands(CLI::App& app, SweepCommands& c) {
    auto common = [&c](CLI::App* cmd) {
        cmd->add_option("PROJECT", c.project, "Project file (.glproj) with a `parameters` section")->required();
        cmd->add_option("--backend", c.backend, "Backend of every run: auto, cpu or cuda (default: run.backend)")
            ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
        cmd->add_option("--precision", c.precision, "float32 or float64 (default: run.precision)")
            ->check(CLI::IsMember({"float32", "float64"}));
        cmd->add_option("--threads", c.threads, "CPU threads per run (0: all cores)")->check(CLI::NonNegativeNumber);
        cmd->add_option("--max-steps", c.max_steps, "Stop every run after at most N steps")->check(CLI::NonNegativeNumber);
    };
    c.sweep = app.add_subcommand("sweep", "Run a grid of designs over the project's parameters (resumable); writes sweep.csv");
    common(c.sweep);
    c.sweep->add_option("--param", c.params,
                        "NAME=LO:HI:N (N values, LO and HI included) or NAME=V1,V2,...; values may have units and use the "
                        "project's parameters (w=400nm:600nm:11); repeat for a grid")
        ->required();
    c.sweep->add_option("--out", c.out, "Output folder (default: <project stem>_sweep next to the project)");
    c.sweep->add_option("--at", c.at, "Wavelengths (um), comma-separated, where each monitor is reported (default: the spectrum's centre)");
    c.sweep->add_option("--objective", c.objectives,
                        "Objective (as optimize's: \"T(1.55)\", \"out_m0_fwd_power(1.55)\", "
                        "\"min(T(wl), wl=1.5:1.6:5)\"): a sweep.csv column per objective; repeatable")
        ->allow_extra_args(false);
    c.sweep->add_option("--devices", c.devices,
                        "auto (default: every visible CUDA device, one worker on the CPU), all, N (N workers: the first "
                        "N CUDA devices, or N CPU workers sharing --threads) or CUDA device ordinals such as 0,2");
    c.sweep->add_option("--concurrent", c.concurrent,
                        "CUDA runs at a time on each device, as threads of this process (default 1; auto: as many as "
                        "fit in the device's memory, at most 8)");

    c.optimize = app.add_subcommand("optimize", "Derivative-free optimization of the project's parameters (NLopt)");
    common(c.optimize);
    c.optimize->add_option("--objective", c.objective,
                           "Expression over the run's results at wavelengths (um), e.g. \"T(1.55)\", "
                           "\"out_m0_fwd_power(1.55)\", \"S21(1.55)\", \"mean(T(wl), wl=1.5:1.6:5)\" (spec/cli.md Objectives)")
        ->required();
    c.optimize->add_option("--param", c.params,
                           "NAME=LO..HI bounds of an optimized parameter (units and the project's parameters allowed: "
                           "d=0.1..lambda/4); repeat for several")
        ->required();
    c.optimize->add_flag("--minimize", c.minimize, "Minimize the objective (default: maximize)");
    c.optimize->add_option("--max-evals", c.max_evals, "At most N runs (default 40)")->check(CLI::PositiveNumber);
    c.optimize->add_option("--algorithm", c.algorithm, "bobyqa (default), cobyla, neldermead, sbplx, direct, crs2, esch, isres")
        ->check(CLI::IsMember(optimize_algorithms()));
    c.optimize->add_option("--xtol", c.xtol, "Stop when a step changes every parameter by less than this (default: 1e-3 of its range)")
        ->check(CLI::NonNegativeNumber);
    c.optimize->add_option("--out", c.out, "Output folder (default: <project stem>_optimize next to the project)");
}

int run_sweep_commands(const SweepCommands& c) {
    if (c.sweep && *c.sweep) return cmd_sweep(c);
    if (c.optimize && *c.optimize) return cmd_optimize(c);
    return -1;
}

}  // namespace golightly::cli
