// golightly-cli export-gds (spec/cli.md): the command's options and body (cmd_gds.cpp).
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace golightly::cli {

/// The options of `export-gds PROJECT --out FILE.gds [--cell NAME] [--db-unit LENGTH]`.
struct ExportGdsCommand {
    CLI::App* sub = nullptr;
    std::string project, out, cell = "TOP", db_unit;
};

/// Registers the sub-command on `app`; the returned object receives the parsed options.
/// Keep it alive until parsing is done (CLI11 writes into it).
void add_export_gds_command(CLI::App& app, ExportGdsCommand& cmd);

/// Parses --db-unit: a number with an optional unit nm, um or pm (no unit: um), e.g. "1nm",
/// "0.25 nm", "0.001". Returns the unit in um, or nullopt when it is not a length from
/// 1 pm (1e-6 um) to 1 um.
std::optional<double> parse_db_unit(const std::string& text);

/// Runs it: loads the project, writes the GDSII file (export_gds, gds.hpp), prints what it
/// wrote on stdout and the warnings on stderr. Returns 0, or 3 when the file cannot be
/// written; throws ProjectError (exit 2 in main) for an invalid project.
int run_export_gds(const ExportGdsCommand& cmd);

}  // namespace golightly::cli
