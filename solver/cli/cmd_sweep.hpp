// golightly-cli: the `sweep` and `optimize` commands (spec/cli.md; sweep.hpp) and the
// `--param NAME=VALUE` option of `run` and `check` (parameters.hpp).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace golightly::cli {

struct SweepCommands {
    CLI::App* sweep = nullptr;
    CLI::App* optimize = nullptr;
    std::string project, out, backend, precision, objective, algorithm = "bobyqa", at, devices = "auto";
    std::string concurrent = "1";  ///< sweep --concurrent N|auto (sweep.hpp DevicePlan::concurrent)
    std::vector<std::string> params;
    std::vector<std::string> objectives;  ///< sweep --objective EXPR (repeatable; objective.hpp)
    int threads = 0, max_evals = 40;
    long long max_steps = -1;
    bool minimize = false;
    double xtol = 0;
};

/// Adds the `sweep` and `optimize` sub-commands to `app`; their arguments land in `c`.
void add_sweep_commands(CLI::App& app, SweepCommands& c);

/// Runs the sub-command that was given: its exit code, or -1 when neither was given.
/// Throws ProjectError (the caller exits 2).
int run_sweep_commands(const SweepCommands& c);

/// A CLI11 check for `--param NAME=VALUE` (valid name, non-empty value).
CLI::Validator parameter_assignment_check();

}  // namespace golightly::cli
