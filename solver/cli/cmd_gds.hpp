// golightly-cli export-gds (spec/cli.md): the command's options and body (cmd_gds.cpp).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace golightly::cli {

/// The options of `export-gds PROJECT --out FILE.gds [--cell NAME]`.
struct ExportGdsCommand {
    CLI::App* sub = nullptr;
    std::string project, out, cell = "TOP";
};

/// Registers the sub-command on `app`; the returned object receives the parsed options.
/// Keep it alive until parsing is done (CLI11 writes into it).
void add_export_gds_command(CLI::App& app, ExportGdsCommand& cmd);

/// Runs it: loads the project, writes the GDSII file (export_gds, gds.hpp), prints what it
/// wrote on stdout and the warnings on stderr. Returns 0, or 3 when the file cannot be
/// written; throws ProjectError (exit 2 in main) for an invalid project.
int run_export_gds(const ExportGdsCommand& cmd);

}  // namespace golightly::cli
