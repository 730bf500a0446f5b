// golightly-cli sparams PROJECT --out DIR (spec cli.md): the sub-command's options and body.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

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

}  // namespace golightly::cli
