// golightly-cli sparams PROJECT --out DIR (spec cli.md): the sub-command's options and body.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

namespace golightly::cli {

/// How the port-mode runs are spread: over `devices` ("auto", "all", a count N or a list
/// of CUDA device ordinals "0,2"), each run beyond a single worker a child process
/// `golightly-cli sparams PROJECT --port-mode J --port-mode-result FILE` with the same
/// project arguments (`params`, `backend`, `precision`, `threads`, `max_steps`).
struct SparamsLaunch {
    std::string devices = "auto";
    std::vector<std::string> params;  ///< --param NAME=VALUE
    std::string backend, precision;
    int threads = 0;
    long long max_steps = -1;
    /// --concurrent N|auto: CUDA port-mode runs at a time on each device, as threads of
    /// this process (sparams.hpp in_process_port_mode_runner); "1": one per device, each a
    /// child process when there are several devices
    std::string concurrent = "1";
};

struct SparamsCommand {
    CLI::App* sub = nullptr;
    std::string project, out;
    SparamsLaunch launch;
    int port_mode = -1;            ///< hidden: run only this port-mode (a child process)
    std::string port_mode_result;  ///< hidden: where the child writes its run (JSON)
};

/// Adds the `sparams` sub-command to `app`; the returned object lives as long as the program.
SparamsCommand* add_sparams_command(CLI::App& app);

/// Runs it: one simulation per port-mode (sparams.hpp run_sparameters), writes
/// DIR/sparams.sNp (Touchstone) and DIR/sparams.csv, prints the warnings (reciprocity,
/// passivity) on stderr. Returns 0, 1 for a bad --devices, or 3 when a run fails;
/// ProjectError propagates (exit 2).
int run_sparams_command(const SparamsCommand& c);

/// The launch of `golightly-cli run` with run.sparameters: its arguments, and the
/// project's `run.devices` ("auto" when absent; a count or a list [0, 1] as for --devices).
SparamsLaunch sparams_launch_of_run(const Project& project, const std::vector<std::string>& params,
                                    const std::string& backend, const std::string& precision, int threads,
                                    long long max_steps);

/// True when the project asks `golightly-cli run` for S-parameters (`run.sparameters: true`).
bool sparameters_requested(const Project& project);

/// The workers and the CUDA_VISIBLE_DEVICES value of each: "auto" and "all": every
/// visible CUDA device (the entries of CUDA_VISIBLE_DEVICES when set, else the
/// /dev/nvidia<N> device files), one worker when none is visible or `cpu_backend`;
/// N: N workers (device k of the visible list, or ordinal k beyond it); "a,b,...": those
/// device ordinals (indices into the visible list when CUDA_VISIBLE_DEVICES is set).
/// At most `jobs` workers. Throws std::invalid_argument naming the value.
std::vector<std::string> sparams_workers(const std::string& devices, bool cpu_backend, std::size_t jobs);

/// The body shared by `sparams` and `run` with run.sparameters: runs (spread over the
/// devices of `launch`; `run` passes the project's `run.devices`, default "auto"),
/// writes out/sparams.s<N>p and out/sparams.csv (children's logs and runs in
/// out/port_<k>.log and out/port_<k>.json, k = 1..N), prints a summary and the warnings.
/// Returns 0, 1 (bad devices) or 3 (run or write failure); ProjectError propagates.
int run_sparams_project(const Project& project, const std::string& label, const std::filesystem::path& out,
                        const RunOptions& options, const SparamsLaunch& launch = {});

}  // namespace golightly::cli
