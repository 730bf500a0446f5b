// golightly-cli sparams (cmd_sparams.hpp).
#include "cmd_sparams.hpp"

#include <cstdio>
#include <filesystem>
#include <memory>

#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "golightly/units.hpp"

namespace fs = std::filesystem;

namespace golightly::cli {

SparamsCommand* add_sparams_command(CLI::App& app) {
    static SparamsCommand c;
    c.sub = app.add_subcommand("sparams", "One run per port and mode; writes sparams.sNp (Touchstone) and sparams.csv");
    c.sub->add_option("PROJECT", c.project, "Project file (.glproj) with top-level \"ports\"")->required();
    c.sub->add_option("--out", c.out, "Results folder (default: <project stem>_sparams next to the project)");
    c.sub->add_option("--backend", c.backend, "Backend: auto, cpu or cuda (default: the project's run.backend)")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    c.sub->add_option("--threads", c.threads, "CPU threads (0: all cores)")->check(CLI::NonNegativeNumber);
    return &c;
}

int run_sparams_command(const SparamsCommand& c) {
    const fs::path file(c.project);
    Project project = load_project(file);  // ProjectError -> exit 2 (caller)
    if (c.backend == "auto") project.run.backend = BackendChoice::Auto;
    if (c.backend == "cpu") project.run.backend = BackendChoice::Cpu;
    if (c.backend == "cuda") project.run.backend = BackendChoice::Cuda;
    check_runnable(project, c.project);
    parse_ports(project, c.project);  // ProjectError before any run
    const fs::path out = c.out.empty() ? file.parent_path() / (file.stem().string() + "_sparams") : fs::path(c.out);
    RunOptions opts;
    opts.threads = c.threads;
    return run_sparams_project(project, c.project, out, opts);
}

bool sparameters_requested(const Project& project) {
    const auto it = project.run.extra.find("sparameters");
    return it != project.run.extra.end() && it->is_boolean() && it->get<bool>();
}

int run_sparams_project(const Project& project, const std::string& label, const fs::path& out,
                        const RunOptions& opts) {
    SParameters s;
    try {
        s = run_sparameters(project, label, opts);
    } catch (const ProjectError&) {
        throw;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s: S-parameter run failed: %s\n", label.c_str(), e.what());
        return 3;
    }
    try {
        fs::create_directories(out);
        const fs::path snp = out / ("sparams.s" + std::to_string(s.labels.size()) + "p");
        write_touchstone(snp, s);
        write_sparams_csv(out / "sparams.csv", s);
        std::printf("%s: %zu port-modes, %zu runs; wrote %s and %s\n", label.c_str(), s.labels.size(), s.runs.size(),
                    snp.string().c_str(), (out / "sparams.csv").string().c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s: cannot write the S-parameters: %s\n", out.string().c_str(), e.what());
        return 3;
    }
    for (const auto& w : s.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    return 0;
}

}  // namespace golightly::cli
