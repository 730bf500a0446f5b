// golightly-cli export-gds PROJECT --out FILE.gds [--cell NAME] (spec/cli.md).
#include "cmd_gds.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "golightly/gds.hpp"
#include "golightly/limits.hpp"
#include "golightly/project.hpp"

namespace golightly::cli {

void add_export_gds_command(CLI::App& app, ExportGdsCommand& cmd) {
    cmd.sub = app.add_subcommand("export-gds", "Write every layer's shapes as GDSII polygons/paths on its gds_layer");
    cmd.sub->add_option("PROJECT", cmd.project, "Project file (.glproj)")->required();
    cmd.sub->add_option("--out", cmd.out, "GDSII file to write (.gds)")->required();
    cmd.sub->add_option("--cell", cmd.cell, "Name of the cell (default TOP)");
}

int run_export_gds(const ExportGdsCommand& cmd) {
    const Project project = load_project(cmd.project);  // ProjectError -> 2
    if (cmd.cell.empty() || cmd.cell.size() > 32000) {
        std::fprintf(stderr, "error: --cell: the cell name must have 1 to 32000 characters\n");
        return 1;
    }
    const GdsExport ex = export_gds(project, cmd.cell, cmd.project);  // ProjectError -> 2
    for (const std::string& w : ex.warnings) std::fprintf(stderr, "warning: %s\n", limits::cap_text(w, 2000).c_str());
    const std::filesystem::path tmp = std::filesystem::path(cmd.out).string() + ".part";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(ex.bytes.data()), std::streamsize(ex.bytes.size()));
        if (!f) {
            std::fprintf(stderr, "error: cannot write %s\n", limits::cap_text(cmd.out).c_str());
            std::error_code ec;
            std::filesystem::remove(tmp, ec);
            return 3;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, cmd.out, ec);
    if (ec) {
        std::fprintf(stderr, "error: cannot write %s: %s\n", limits::cap_text(cmd.out).c_str(), ec.message().c_str());
        std::filesystem::remove(tmp, ec);
        return 3;
    }
    std::printf("wrote %s: cell %s, %d polygons, %d paths, %zu bytes\n", cmd.out.c_str(), cmd.cell.c_str(), ex.polygons,
                ex.paths, ex.bytes.size());
    return 0;
}

}  // namespace golightly::cli
