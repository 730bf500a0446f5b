// golightly-cli sparams PROJECT --out DIR (spec cli.md): the sub-command's options and body.
#pragma once

#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

namespace golightly::cli {

struct SparamsCommand {
    CLI::App* sub = nullptr;
    std::string project, out, backend;
    int threads = 0;
};

/// Adds the `sparams` sub-command to `app`; the returned object lives as long as the program.
SparamsCommand* add_sparams_command(CLI::App& app);

/// Runs it: one simulation per port-mode (sparams.hpp run_sparameters), writes
/// DIR/sparams.sNp (Touchstone) and DIR/sparams.csv, prints the warnings (reciprocity,
/// passivity) on stderr. Returns 0, or 3 when a run fails; ProjectError propagates (exit 2).
int run_sparams_command(const SparamsCommand& c);

/// True when the project asks `golightly-cli run` for S-parameters (`run.sparameters: true`).
bool sparameters_requested(const Project& project);

/// The body shared by `sparams` and `run` with run.sparameters: runs, writes
/// out/sparams.s<N>p and out/sparams.csv, prints a summary and the warnings. Returns 0 or
/// 3 (run or write failure); ProjectError propagates.
int run_sparams_project(const Project& project, const std::string& label, const std::filesystem::path& out,
                        const RunOptions& options);

}  // namespace golightly::cli
