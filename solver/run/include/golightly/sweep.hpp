// GoLightly: parameter sweeps and derivative-free optimization over project parameters
// (issue 23; spec/cli.md "sweep" and "optimize"; project-format.md "Parameters and
// expressions").
//
// A design is the project with some parameters overridden (with_parameters,
// parameters.hpp); each design runs into its own folder (design.glproj, then the results
// of run_project: spectra.csv, summary.json, ...). A design whose folder holds a
// summary.json of a finished run (stop_reason decay, max_time or max_steps) next to a
// design.glproj equal to the one it would write now is not run again: a sweep or an
// optimization re-run with the same output folder resumes where it stopped.
#pragma once

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

namespace golightly {

/// One swept parameter and its values.
struct SweepParameter {
    std::string name;
    std::vector<double> values;
};

/// Name -> value of each project parameter (Project::parameters, base units), the
/// variables of --param values.
std::vector<std::pair<std::string, double>> parameter_values(const Project& project);

/// Parses "NAME=LO:HI:N" (N >= 1 evenly spaced values from LO to HI inclusive; N = 1: LO)
/// or "NAME=V1,V2,..." (a list). Each of LO, HI, N and Vi is a number or, in a build with
/// muparser, an expression with units over `variables` (parameter_values of the project:
/// the project's values, not the swept ones): "w=400nm:600nm:11", "d=0:lambda/4:5",
/// "g=100nm,min(a,b)". Values are in the parameter's base unit (um, fs, or dimensionless).
/// Separators inside parentheses (and a ternary's ':') do not split. Throws
/// std::invalid_argument naming the argument and the bad value.
SweepParameter parse_sweep_parameter(const std::string& arg,
                                     const std::vector<std::pair<std::string, double>>& variables = {});

/// One optimized parameter and its bounds.
struct BoundParameter {
    std::string name;
    double lo = 0, hi = 0;  ///< lo < hi
};

/// Parses "NAME=LO..HI"; LO and HI as in parse_sweep_parameter ("d=0.1..lambda/4",
/// "w=300nm..0.7um"; the first ".." outside parentheses separates them). Throws
/// std::invalid_argument naming the argument.
BoundParameter parse_bound_parameter(const std::string& arg,
                                     const std::vector<std::pair<std::string, double>>& variables = {});

/// The designs of a sweep: the Cartesian product of the parameters' values, the last
/// parameter varying fastest. designs[d][p] is parameter p's value in design d.
/// Throws std::invalid_argument when there would be more than 100000 designs.
std::vector<std::vector<double>> sweep_grid(const std::vector<SweepParameter>& parameters);

/// Runs jobs 0..jobs-1 on `workers` worker threads (one per CUDA device, or one for the
/// CPU): a worker takes the next job when its previous one is done, so each worker runs
/// one job at a time and the jobs are spread over all workers. run_job(job, worker) is
/// called with worker in [0, workers). A job that throws is the job's own business
/// (run_job must catch what it wants to record); an exception escaping run_job stops the
/// queue (no new jobs start) and is rethrown after the running jobs finish. `cancel`:
/// when set, no new job starts.
void run_job_queue(std::size_t jobs, int workers, const std::function<void(std::size_t job, int worker)>& run_job,
                   const std::atomic<bool>* cancel = nullptr);

/// How a sweep spreads its designs over workers (`sweep --devices`).
struct DevicePlan {
    /// CUDA workers: one entry per worker, the CUDA_VISIBLE_DEVICES value of its child run
    /// (the parent's entry for that device, e.g. "3" or "GPU-8f6c...", or the ordinal when
    /// the parent has no CUDA_VISIBLE_DEVICES). Empty for CPU workers.
    std::vector<std::string> devices;
    std::vector<int> ordinals;   ///< CUDA workers: the device ordinals as this process sees them
    int cpu_workers = 0;         ///< CPU workers (0 when the workers are CUDA devices)
    int threads_per_worker = 0;  ///< CPU workers: threads of each run (0: all cores)
    /// CUDA runs at a time on each device (--concurrent): above 1 the runs are threads of
    /// this process, each engine on its own stream (engine.hpp), so that the kernels of
    /// small runs overlap on the device (processes would only time-slice it).
    int concurrent = 1;
    int workers() const {
        return devices.empty() ? std::max(1, cpu_workers) : int(devices.size()) * std::max(1, concurrent);
    }
    /// True when several CUDA runs share each device as threads of this process.
    bool threaded() const { return !devices.empty() && concurrent > 1; }
    /// The device ordinal (as this process sees it) of queue worker `worker` of a threaded plan.
    int ordinal_of(int worker) const { return ordinals[std::size_t(worker) % ordinals.size()]; }
    /// True when the sweep can run in this process (one worker that needs no other device
    /// mask, or a threaded plan).
    bool in_process() const { return threaded() || (workers() == 1 && (devices.empty() || ordinals[0] == 0)); }
};

/// Parses `--concurrent N|auto`: N (1..64), or 0 for auto. Throws std::invalid_argument
/// naming --concurrent.
int parse_concurrent(const std::string& spec);

/// Runs per device for `--concurrent auto`: as many runs of `run_bytes` of device state
/// (engine_state_bytes) plus a CUDA context's `context_bytes` as fit in 80 % of
/// `free_bytes`, at most 8 (beyond that the small runs it is meant for no longer gain:
/// docs/performance.md "Several runs on one GPU") and at most `host_cores` (each run's host
/// side is a thread), at least 1.
int auto_concurrency(std::size_t run_bytes, std::size_t free_bytes, int host_cores,
                     std::size_t context_bytes = std::size_t(64) << 20);

/// Parses `--devices SPEC` into a plan. SPEC: "auto" (default): every visible CUDA device
/// when the runs use CUDA, else one CPU worker; "all": every visible CUDA device (error
/// when the runs do not use CUDA or none is visible); "N": N workers, the first N CUDA
/// devices (error when fewer are visible) or, for CPU runs, N CPU workers sharing the
/// threads; "I,J,...": those CUDA device ordinals (as this process sees them, 0-based).
/// `visible`: CUDA devices this process sees (cuda_device_count); `parent_mask`: this
/// process's CUDA_VISIBLE_DEVICES (nullptr: unset), whose entries the children get;
/// `use_cuda`: the runs use the CUDA backend; `cpu_threads`: threads of all CPU workers
/// together (0: std::thread::hardware_concurrency()); each of N CPU workers gets
/// max(1, cpu_threads / N). Throws std::invalid_argument naming --devices.
DevicePlan plan_devices(const std::string& spec, int visible, const char* parent_mask, bool use_cuda,
                        int cpu_threads);

/// The environment ("NAME=VALUE" strings) of worker `worker`'s child run: `parent`
/// without CUDA_VISIBLE_DEVICES, then CUDA_VISIBLE_DEVICES=plan.devices[worker] for a CUDA
/// worker; a CPU worker keeps the parent's entries unchanged.
std::vector<std::string> child_environment(const std::vector<std::string>& parent, const DevicePlan& plan, int worker);

/// Runs one design and writes its results into `dir` (results.hpp layout; at least
/// spectra.csv and summary.json). `design` is the project read from `label` (the original
/// project file, which relative file references resolve against) with `overrides`
/// applied. `worker` is the queue's worker index (the CUDA device when several are used).
/// Throws on failure (the runner writes a failure summary first).
using DesignRunner = std::function<void(const Project& design, const std::string& label,
                                        const ParameterOverrides& overrides, const std::filesystem::path& dir,
                                        int worker)>;

/// One RunOptions per device of `plan` (plan.ordinals order): `options` with `devices` set
/// to that one ordinal (DeviceSelection list), so that a thread running on queue worker w
/// uses result[w % result.size()]. A plan without devices gives {options}.
std::vector<RunOptions> per_device_options(const RunOptions& options, const DevicePlan& plan);

/// The runner that calls run_project with `options` in this process and write_results
/// (write_failure_summary and rethrow on an exception; a diverged or cancelled run
/// throws RunError after its results are written).
DesignRunner in_process_runner(const RunOptions& options);
/// in_process_runner for a threaded plan (DevicePlan::threaded): worker w's runs select
/// CUDA device plan.ordinal_of(w) (RunOptions::devices, a list of one), on their own thread.
DesignRunner in_process_runner(const RunOptions& options, const DevicePlan& plan);

/// A run's spectra.csv (results.hpp): the normalized (or raw, when not normalized)
/// column of each flux / flux_box monitor.
struct SpectraTable {
    std::vector<std::string> monitors;          ///< monitor names, project order
    std::vector<double> wavelength_um;          ///< one per row (decreasing: rows go by increasing frequency)
    std::vector<std::vector<double>> values;    ///< values[m][row]
    /// Monitor `name` at `wavelength_um`, linearly interpolated in wavelength between the
    /// two nearest rows. Throws std::invalid_argument for an unknown monitor or a
    /// wavelength outside the rows' range.
    double at(const std::string& name, double wavelength_um) const;
};
/// Reads a spectra.csv. Throws std::runtime_error naming the file.
SpectraTable read_spectra_csv(const std::filesystem::path& file);

/// True when `dir` holds a finished run of `design`: summary.json with stop_reason decay,
/// max_time or max_steps, spectra.csv, and a design.glproj equal to the design's text.
bool design_complete(const std::filesystem::path& dir, const Project& design);

struct SweepOptions {
    std::filesystem::path out;      ///< DIR: DIR/sweep.csv and DIR/design_NNNN/
    /// Wavelengths (um) at which each monitor is reported; empty: the spectrum's centre
    /// (wavelength_min + wavelength_max) / 2.
    std::vector<double> at_um;
    /// Objectives (objective.hpp, spec/cli.md "Objectives"), each a sweep.csv column after
    /// the monitors' (its header: the objective's text), evaluated over each design's results
    /// with the design's parameter values as variables.
    std::vector<std::string> objectives;
    int workers = 1;                ///< run_job_queue workers (devices)
    DesignRunner runner;            ///< null: in_process_runner({})
    std::function<void(const std::string& line)> log;  ///< one line per design (null: quiet)
    const std::atomic<bool>* cancel = nullptr;
};

struct SweepReport {
    std::size_t designs = 0, ran = 0, skipped = 0, failed = 0;
    std::vector<std::string> columns;  ///< sweep.csv's header
    /// One row per design in design order: the parameter values then each monitor at
    /// each wavelength (NaN for a failed or not-run design).
    std::vector<std::vector<double>> rows;
    bool cancelled = false;
};

/// Runs the sweep. DIR/sweep.csv (rewritten after every design, atomically): header
///   design,<param>...,<monitor>@<wavelength>...,<objective>...,status
/// (<wavelength> in um as "%g", e.g. T@1.55; monitors in project order, then
/// wavelengths in --at order; then one column per SweepOptions::objectives entry, headed by
/// its text), one row per design finished so far, in design order;
/// status "ok", "reused" (resumed) or "failed: MESSAGE". Design folders are
/// DIR/design_NNNN (at least four digits, design index from 0).
/// An objective whose results file is missing (e.g. S-parameters of a plain run) leaves
/// the value nan and fails the design ("failed: MESSAGE" naming the file).
/// Throws ProjectError (a design that is not a valid project, e.g. an unknown parameter),
/// std::invalid_argument (a wavelength outside the spectrum, a bad objective, before any
/// run), std::runtime_error (I/O).
SweepReport run_sweep(const Project& project, const std::string& label, const std::vector<SweepParameter>& parameters,
                      const SweepOptions& options);

struct OptimizeOptions {
    std::filesystem::path out;      ///< DIR: optimize.csv, best.glproj, eval_NNNN/
    /// Expression over the monitors at wavelengths, e.g. "T(1.55)" or "T(1.55) - R(1.31)":
    /// each flux / flux_box monitor whose name is a valid parameter name is a function of
    /// the wavelength (um) giving its normalized value there (SpectraTable::at); the
    /// parameters are variables too.
    std::string objective;
    bool minimize = false;          ///< default: maximize
    int max_evals = 40;
    /// bobyqa, cobyla, neldermead, sbplx (local, derivative-free), direct (DIRECT-L),
    /// crs2 (controlled random search), esch (evolutionary), isres (global); see
    /// optimize_algorithms().
    std::string algorithm = "bobyqa";
    /// Absolute tolerance on each parameter (stop when a step changes every parameter by
    /// less); <= 0: 1e-3 of its range.
    double xtol = 0;
    DesignRunner runner;            ///< null: in_process_runner({})
    std::function<void(const std::string& line)> log;
    const std::atomic<bool>* cancel = nullptr;
};

struct OptimizeReport {
    std::vector<std::string> names;     ///< parameter names
    std::vector<double> best;           ///< best design's parameter values
    double best_objective = 0;
    int best_evaluation = -1;
    int evaluations = 0;
    std::vector<double> xtol;           ///< the absolute tolerance used per parameter
    std::string algorithm;              ///< as given
    std::string stop;                   ///< why it stopped (NLopt result), e.g. "xtol reached"
    std::filesystem::path best_project; ///< DIR/best.glproj
};

/// The algorithm names run_optimize accepts.
std::vector<std::string> optimize_algorithms();

/// Derivative-free optimization (NLopt: S. G. Johnson, The NLopt nonlinear-optimization
/// package; BOBYQA: M. J. D. Powell, Cambridge report NA2009/06) of the objective over the
/// bounded parameters, starting from the project's values (clamped into the bounds; the
/// middle when a value lies outside). Each evaluation runs a design into DIR/eval_NNNN
/// (reused when complete, see design_complete). DIR/optimize.csv (rewritten after every
/// evaluation): evaluation,<param>...,objective,status. DIR/best.glproj: the project with
/// the best parameter values (its expressions kept). A failed design stops the search
/// (status "failed: MESSAGE"). Throws std::invalid_argument (bad objective, unknown
/// algorithm, bad bounds), ProjectError, std::runtime_error (no NLopt in this build, I/O).
OptimizeReport run_optimize(const Project& project, const std::string& label, const std::vector<BoundParameter>& parameters,
                            const OptimizeOptions& options);

}  // namespace golightly
