// golightly-cli export-gds PROJECT --out FILE.gds [--cell NAME] [--db-unit LENGTH] (spec/cli.md).
#include "cmd_gds.hpp"

#include <cctype>
#include <cstdio>
#include <optional>
#include <utility>
#include <filesystem>
#include <fstream>

#include "golightly/atomic_file.hpp"
#include "golightly/gds.hpp"
#include "golightly/limits.hpp"
#include "golightly/project.hpp"

namespace golightly::cli {

std::optional<double> parse_db_unit(const std::string& text) {
    std::string s;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c))) s += c;
    double scale = 1;  // um
    for (const auto& [suffix, f] : {std::pair<const char*, double>{"nm", 1e-3}, {"um", 1.0}, {"pm", 1e-6}}) {
        const std::string suf = suffix;
        if (s.size() > suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0) {
            s.resize(s.size() - suf.size());
            scale = f;
            break;
        }
    }
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (used != s.size()) return std::nullopt;
    v *= scale;
    if (!(v >= 1e-6 && v <= 1.0)) return std::nullopt;
    return v;
}

void add_export_gds_command(CLI::App& app, ExportGdsCommand& cmd) {
    cmd.sub = app.add_subcommand("export-gds", "Write the layers' shapes as GDSII polygons/paths on their gds_layer (reference-only layers left out; a layer without gds_layer is refused)");
    cmd.sub->add_option("PROJECT", cmd.project, "Project file (.glproj)")->required();
    cmd.sub->add_option("--out", cmd.out, "GDSII file to write (.gds)")->required();
    cmd.sub->add_option("--cell", cmd.cell, "Name of the cell (default TOP)");
    cmd.sub->add_option("--db-unit", cmd.db_unit,
                        "Database unit: a length with a unit (1nm, 0.25nm, 0.001um) or a number in um (default: the "
                        "finest unit of the project's embedded GDS files, else 1nm)");
}

int run_export_gds(const ExportGdsCommand& cmd) {
    const Project project = load_project(cmd.project);  // ProjectError -> 2
    if (cmd.cell.empty() || cmd.cell.size() > 32000) {
        std::fprintf(stderr, "error: --cell: the cell name must have 1 to 32000 characters\n");
        return 1;
    }
    double db_unit_um = 0;
    if (!cmd.db_unit.empty()) {
        const auto parsed = parse_db_unit(cmd.db_unit);
        if (!parsed) {
            std::fprintf(stderr, "error: --db-unit %s: expected a length from 1 pm to 1 um such as 1nm, 0.25nm or 0.001 (um)\n",
                         limits::cap_text(cmd.db_unit).c_str());
            return 1;
        }
        db_unit_um = *parsed;
    }
    const GdsExport ex = export_gds(project, cmd.cell, cmd.project, db_unit_um);  // ProjectError -> 2
    for (const std::string& w : ex.warnings) std::fprintf(stderr, "warning: %s\n", limits::cap_text(w, 2000).c_str());
    try {
        write_file_atomic(cmd.out, std::string_view(reinterpret_cast<const char*>(ex.bytes.data()), ex.bytes.size()));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s\n", limits::cap_text(e.what()).c_str());
        return 3;
    }
    std::printf("wrote %s: cell %s, %d polygons, %d paths, %zu bytes, database unit %g um\n", cmd.out.c_str(),
                cmd.cell.c_str(), ex.polygons, ex.paths, ex.bytes.size(), ex.db_unit_um);
    return 0;
}

}  // namespace golightly::cli
