// golightly-cli optimize --adjoint (cmd_optimize_adjoint.hpp; spec/cli.md).
#include "cmd_optimize_adjoint.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <CLI/CLI.hpp>

#include "golightly/adjoint_optimize.hpp"
#include "golightly/atomic_file.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_shape.hpp"
#include "golightly/design_density.hpp"
#include "golightly/distributed.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/gds.hpp"
#include "golightly/limits.hpp"
#include "golightly/project.hpp"
#include "cli_run_options.hpp"
#include "out_folder.hpp"

namespace golightly::cli {

namespace fs = std::filesystem;

namespace {

constexpr int kExitOk = 0, kExitUsage = 1, kExitProject = 2, kExitRun = 3;

std::atomic<bool> g_adjoint_cancel{false};
extern "C" void on_adjoint_sigint(int) { g_adjoint_cancel.store(true); }

/// The history's fixed columns; one `objective@<wavelength um>` column per wavelength follows
/// (the value F_f at that wavelength, spec/cli.md).
constexpr const char* kHistoryHeader = "iteration,beta,objective,gradient_norm,constraint_solid,constraint_void,steps,wall_s";

/// The rows of an earlier history.csv (resumed runs keep them), by iteration.
std::vector<std::pair<int, std::string>> read_history(const fs::path& file) {
    std::vector<std::pair<int, std::string>> rows;
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line.rfind("iteration", 0) == 0) continue;
        try {
            rows.emplace_back(std::stoi(line), line);
        } catch (const std::exception&) {
        }
    }
    return rows;
}

/// Under MPI (AdjointRanks): rank 0's `code` on every rank, so that all ranks stop or go
/// on together after the checks only rank 0 makes (the output folder, the checkpoint).
/// Without MPI: `code`.
int agreed(const AdjointRanks* ranks, int code) {
    if (!ranks) return code;
    std::vector<double> v{double(code)};
    ranks->comm->broadcast(v, 0);
    return int(v.at(0));
}

/// The checkpoint file each rank's optimizer reads and rewrites: OUT/checkpoint.json on rank
/// 0 (and in one process); on every other rank a copy of rank 0's file, sent over the
/// communicator (the ranks need not share OUT), in a private temporary folder that is
/// removed at the end. So every rank resumes from the same state and takes the same steps,
/// while only rank 0 writes into OUT. Collective under MPI.
class RankCheckpoint {
public:
    RankCheckpoint(const AdjointRanks* ranks, const fs::path& checkpoint) : path_(checkpoint) {
        if (!ranks) return;
        const bool root = ranks->comm->rank() == 0;
        std::string text;  // "0": no checkpoint; "1" + its bytes
        if (root) {
            text = "0";
            if (fs::exists(checkpoint)) {
                std::ifstream in(checkpoint, std::ios::binary);
                std::ostringstream bytes;
                bytes << in.rdbuf();
                text = "1" + bytes.str();
            }
        }
        const std::vector<std::string> all = ranks->comm->gather(text);
        if (root) return;
        folder_ = fs::temp_directory_path() / ("golightly-optimize-rank" + std::to_string(ranks->comm->rank()) + "-" +
                                               std::to_string(::getpid()));
        fs::create_directories(folder_);
        path_ = folder_ / checkpoint.filename();
        if (!all.at(0).empty() && all[0][0] == '1') write_file_atomic(path_, std::string_view(all[0]).substr(1));
    }
    ~RankCheckpoint() {
        std::error_code ec;
        if (!folder_.empty()) fs::remove_all(folder_, ec);
    }
    RankCheckpoint(const RankCheckpoint&) = delete;
    RankCheckpoint& operator=(const RankCheckpoint&) = delete;
    /// The file this rank's optimizer uses.
    const fs::path& path() const { return path_; }

private:
    fs::path path_, folder_;
};

/// The line that says how the first run's grid is cut among the MPI ranks (Engine::distribution):
/// "subdomains: cut along y: rank 0 cells 0..35 (cpu ...), rank 1 cells 36..71 (...)", the
/// cells along the cut axis, inclusive; empty for one domain.
std::string subdomains_line(const DistributionInfo& d) {
    if (d.subdomains.size() < 2) return {};
    int axis = 0;
    for (int a = 0; a < 3; ++a)
        if (d.subdomains[0].min_cell[a] != d.subdomains[1].min_cell[a]) axis = a;
    std::string line = std::string("subdomains: cut along ") + char('x' + axis) + ":";
    for (std::size_t s = 0; s < d.subdomains.size(); ++s) {
        const SubdomainInfo& i = d.subdomains[s];
        line += (s ? ", rank " : " rank ") + std::to_string(i.rank) + " cells " + std::to_string(i.min_cell[axis]) + ".." +
                std::to_string(i.max_cell[axis]) + " (" + i.device + ")";
    }
    return line + " (transport " + d.transport + ", " + d.mode + ")";
}

/// optimize --adjoint on a design of shape parameters (adjoint_shape.hpp; spec/cli.md):
/// history.csv with one column per parameter and per gradient entry, final.glproj with
/// the best parameter values, checkpoint.json with every evaluation (a resumed run replays
/// them into the optimizer and rewrites history.csv whole: adjoint_shape.hpp
/// optimize_shape).
/// `root`: this process prints and writes (false on the MPI ranks but 0); `checkpoint`: the
/// file its optimizer uses (RankCheckpoint).
int run_shape_optimize(const Project& project, const std::string& project_file, const fs::path& out,
                       const adjoint::ProjectProblemOptions& o, int max_iterations, bool root,
                       const fs::path& checkpoint) {
    const fs::path history_file = out / "history.csv";
    const adjoint::ShapeProblem sp =
        adjoint::shape_problem_from_project(project, project_file, fs::absolute(fs::path(project_file)).parent_path(), o);
    if (root)
        for (const auto& w : sp.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    std::string names, header = "iteration,objective,gradient_norm,steps,wall_s";
    for (std::size_t k = 0; k < sp.names.size(); ++k) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s%s = %.6g in [%.6g, %.6g]", k ? ", " : "", sp.names[k].c_str(), sp.p0[k], sp.lo[k],
                      sp.hi[k]);
        names += buf;
        header += "," + sp.names[k];
    }
    for (const auto& n : sp.names) header += ",dF/d" + n;
    for (double w : sp.wavelengths_um) {
        char buf[48];
        std::snprintf(buf, sizeof buf, ",objective@%.6g", w);
        header += buf;
    }
    if (root)
        std::printf("shape parameters: %s; %zu term(s); %s, %s%s\n", names.c_str(), sp.spec.objective.terms.size(),
                    sp.spec.algorithm.c_str(), sp.spec.objective.maximize ? "maximize" : "minimize",
                    sp.spec.objective.combine == "min" ? " the worst wavelength (epigraph form)" : "");
    std::fflush(stdout);
    std::string text = header + "\n";
    // (resumed: rewritten from the replay)
    if (root && !fs::exists(checkpoint)) write_file_atomic(history_file, text);
    int replayed = 0;
    const auto on_iteration = [&](const adjoint::ShapeIteration& it) {
        if (!root) return true;  // the other MPI ranks: the same iterations, nothing written
        char buf[160];
        std::snprintf(buf, sizeof buf, "%d,%.17g,%.17g,%lld,%.6g", it.index, it.objective, it.gradient_norm, it.steps, it.wall_s);
        std::string row = buf;
        for (const std::vector<double>* v : {&it.p, &it.gradient, &it.objective_per_frequency})
            for (double x : *v) {
                std::snprintf(buf, sizeof buf, ",%.17g", x);
                row += buf;
            }
        text += row + "\n";
        write_file_atomic(history_file, text);
        if (it.replayed) {
            ++replayed;
            return true;
        }
        std::printf("iteration %d: objective %.6g, |grad| %.4g, %lld steps, %.3g s\n", it.index, it.objective,
                    it.gradient_norm, it.steps, it.wall_s);
        std::fflush(stdout);
        return true;
    };
    const adjoint::ShapeOptimizeResult r = adjoint::optimize_shape(sp, max_iterations, on_iteration, checkpoint);
    if (!root) return kExitOk;
    if (replayed > 0) std::printf("resumed: %d iteration(s) replayed from checkpoint.json\n", replayed);
    save_project(adjoint::project_at(project, sp.names, r.p, project_file), out / "final.glproj");
    std::string best;
    for (std::size_t k = 0; k < sp.names.size(); ++k) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s%s = %.9g", k ? ", " : "", sp.names[k].c_str(), r.p[k]);
        best += buf;
    }
    const double f0 = r.history.empty() ? 0 : r.history.front().objective;
    std::printf("done: %zu iteration(s), objective %.6g -> %.6g at %s (%s); wrote history.csv, checkpoint.json, "
                "final.glproj in %s\n",
                r.history.size(), f0, r.objective, best.c_str(), r.stop.c_str(), limits::cap_text(out.string()).c_str());
    return g_adjoint_cancel.load() ? kExitRun : kExitOk;
}

/// What optimize --adjoint prints for a selection of several devices (RunSettings::devices:
/// each forward and adjoint run's grid cut into subdomains); empty for one device or auto.
std::string devices_line(const DeviceSelection& d, BackendChoice backend) {
    std::string where;
    if (d.kind == DeviceSelection::Kind::List && d.ordinals.size() > 1) {
        for (int k : d.ordinals) where += (where.empty() ? "" : ",") + std::to_string(k);
        where = "CUDA devices " + where;
    } else if (d.kind == DeviceSelection::Kind::Count && d.count > 1) {
        where = "CUDA devices 0.." + std::to_string(d.count - 1);
    } else {
        return {};
    }
    const std::string n = std::to_string(d.kind == DeviceSelection::Kind::List ? int(d.ordinals.size()) : d.count);
    if (backend == BackendChoice::Cpu)
        return "devices: every forward and adjoint run cut into " + n +
               " CPU subdomains in this process (checks the decomposition; no speed-up)";
    return "devices: every forward and adjoint run cut into " + n + " subdomains on " + where +
           (backend == BackendChoice::Auto ? " (on the CPU backend: " + n + " subdomains in this process)" : "");
}

}  // namespace

namespace {

/// Reports a failure and returns its exit code. Under MPI, before the ranks have begun to
/// talk (`collective` false) every rank fails alike (the project's checks) and rank 0
/// alone prints; after that the failure may be this rank's alone: it prints with its rank
/// and ends every rank with `code` (AdjointRanks::abort; mpirun exits with it), as `run`
/// does.
int failed(const AdjointRanks* ranks, bool collective, int code, const std::string& message) {
    const std::string text = limits::cap_text(message, limits::kMaxMessageChars);
    if (!ranks) {
        std::fprintf(stderr, "error: %s\n", text.c_str());
        return code;
    }
    if (!collective) {
        if (ranks->comm->rank() == 0) std::fprintf(stderr, "error: %s\n", text.c_str());
        return code;
    }
    std::fprintf(stderr, "rank %d: error: %s\n", ranks->comm->rank(), text.c_str());
    ranks->abort(code);
    return code;  // (abort does not return)
}

}  // namespace

bool is_adjoint_optimize(int argc, char** argv) {
    if (argc < 2 || std::strcmp(argv[1], "optimize") != 0) return false;
    for (int i = 2; i < argc; ++i)
        if (std::strcmp(argv[i], "--adjoint") == 0) return true;
    return false;
}

int run_optimize_adjoint(int argc, char** argv, const AdjointRanks* ranks) {
    const bool root = !ranks || ranks->comm->rank() == 0;  // prints and writes
    CLI::App app{"Gradient-based topology optimization of the project's design region (adjoint method, NLopt MMA/CCSA/L-BFGS)"};
    app.name("golightly-cli optimize --adjoint");
    std::string project_file, out_dir, backend, precision, devices;
    int max_iterations = 0, threads = 0;
    bool adjoint = false, resume = false;
    app.add_flag("--adjoint", adjoint, "Optimize the project's `design` region with adjoint gradients")->required();
    app.add_option("PROJECT", project_file, "Project file (.glproj) with a `design` section")->required();
    app.add_option("--out", out_dir, "Output folder (history.csv, checkpoint.json, density, final.gds, final.glproj)")->required();
    app.add_option("--max-iterations", max_iterations, "Evaluations in this call (default: design.optimizer.max_iterations)")
        ->check(CLI::PositiveNumber);
    app.add_option("--backend", backend, "auto, cpu or cuda (default: run.backend)")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    app.add_option("--precision", precision, "float32 or float64 (default: run.precision)")
        ->check(CLI::IsMember({"float32", "float64"}));
    app.add_option("--threads", threads, "CPU threads (0: all cores)")->check(CLI::NonNegativeNumber);
    app.add_option("--devices", devices,
                   "Each forward and adjoint run's grid over several GPUs: auto, all, a count N or a list of ordinals "
                   "0,1 (default: the project's run.devices); on the CPU backend N subdomains in one process")
        ->check([](const std::string& v) -> std::string {
            try {
                parse_device_selection(v);
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return {};
        });
    app.add_flag("--resume", resume, "Continue from OUT/checkpoint.json (its design, beta and iteration count)");
    std::vector<char*> args = {argv[0]};
    for (int i = 2; i < argc; ++i) args.push_back(argv[i]);  // without "optimize"
    try {
        app.parse(int(args.size()), args.data());
    } catch (const CLI::ParseError& e) {
        if (!root) return e.get_exit_code() == 0 ? kExitOk : kExitUsage;  // every rank parses the same line
        const int rc = app.exit(e);
        return rc == 0 ? kExitOk : kExitUsage;
    }

    const fs::path out(out_dir);
    const fs::path checkpoint = out / "checkpoint.json", history_file = out / "history.csv";
    adjoint::ProjectProblem pp;
    // Under MPI: set once the ranks have begun to talk; a failure after that point may be
    // one rank's alone (its partners wait for it), so it ends every rank (AdjointRanks::abort)
    bool collective = false;
    try {
        // every rank reads and checks the project alike (the same refusals, before any message
        // between the ranks); rank 0 alone touches OUT
        const Project project = load_project(fs::path(project_file));
        check_runnable(project, project_file);
        const auto spec0 = design_spec(project, project_file);
        int code = kExitOk;
        if (root) {
            if (!results_folder_writable(out)) {
                code = kExitProject;
            } else if (resume && !fs::exists(checkpoint)) {
                std::fprintf(stderr, "error: --resume: %s does not exist (nothing to resume)\n",
                             limits::cap_text(checkpoint.string()).c_str());
                code = kExitProject;
            } else if (!resume) {  // a fresh start: an old checkpoint would otherwise be resumed
                std::error_code ec;
                fs::remove(checkpoint, ec);
                fs::remove(history_file, ec);
            }
        }
        collective = ranks != nullptr;
        if (const int c = agreed(ranks, code); c != kExitOk) return c;
        const RankCheckpoint rank_checkpoint(ranks, checkpoint);
        // the shared flag parser; a flag not given keeps the project's run.backend / run.precision
        const RunOptions flags = run_options_from_flags(backend, precision, threads, -1);
        adjoint::ProjectProblemOptions o;
        if (!backend.empty()) o.backend = flags.backend;
        if (!precision.empty()) o.precision = flags.precision;
        o.threads = flags.threads;
        if (!devices.empty()) o.devices = parse_device_selection(devices);
        const DeviceSelection selected = o.devices ? *o.devices : project_devices(project, project_file);
        if (ranks) {
            // one subdomain of every run per rank (golightly/mpi.hpp make_rank_engine). Ctrl-C:
            // mpirun ends every rank (a per-rank cancel flag would split them); the checkpoint
            // keeps the last completed iteration, as after a cancel.
            const BackendChoice b = o.backend.value_or(project.run.backend);
            const Precision prec = o.precision.value_or(project.run.precision);
            const int th = o.threads;
            const auto make = ranks->rank_engine;
            const auto shown = std::make_shared<bool>(!root);  // rank 0 says once how the grid is cut
            o.engine_factory = [make, b, prec, th, shown](const Scene& scene, const char*) {
                std::unique_ptr<Engine> engine = make(scene, b, prec, th);
                if (!*shown && engine) {
                    *shown = true;
                    if (const std::string line = subdomains_line(engine->distribution()); !line.empty())
                        std::printf("%s\n", line.c_str());
                    std::fflush(stdout);
                }
                return engine;
            };
            if (root) {
                std::printf("ranks: %d MPI ranks, each stepping one subdomain of every forward and adjoint run; rank 0 "
                            "writes\n", ranks->comm->size());
                if ((selected.kind == DeviceSelection::Kind::Count && selected.count > 1) ||
                    (selected.kind == DeviceSelection::Kind::List && selected.ordinals.size() > 1))
                    std::fprintf(stderr, "warning: run.devices / --devices is ignored under mpirun: one subdomain per "
                                 "rank (%d ranks)\n", ranks->comm->size());
            }
        } else {
            // Ctrl-C: the run under way (the normalization run too) ends within a chunk of steps
            // (the solver's cancel flag); the checkpoint keeps the last completed iteration
            std::signal(SIGINT, on_adjoint_sigint);
            o.cancel = &g_adjoint_cancel;
            if (const std::string line = devices_line(selected, o.backend.value_or(project.run.backend)); !line.empty())
                std::printf("%s\n", line.c_str());
        }
        if (spec0 && !spec0->shape_parameters.empty())
            return run_shape_optimize(project, project_file, out, o, max_iterations, root, rank_checkpoint.path());
        pp = adjoint::problem_from_project(project, project_file, fs::absolute(fs::path(project_file)).parent_path(), o);
        if (root)
            for (const auto& w : pp.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
        pp.settings.checkpoint = rank_checkpoint.path();
        if (max_iterations > 0) pp.settings.max_iterations = max_iterations;

        std::string wl;
        for (std::size_t f = 0; f < pp.wavelengths_um.size(); ++f) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "%s%.6g um (N = %.6g)", f ? ", " : "", pp.wavelengths_um[f], pp.normalization[f]);
            wl += buf;
        }
        const auto& n = pp.problem.region.n;
        if (root)
            std::printf("design region '%s': %d x %d x %d pixels, eps %.6g .. %.6g%s; %zu term(s) at %s; %s, %s%s%s\n",
                    pp.spec.regions[0].name.c_str(), n[0], n[1], n[2], pp.problem.region.eps_min, pp.problem.region.eps_max,
                    pp.problem.region.lossless() ? "" : " (eps_inf; the conductivities and poles interpolated too)",
                    pp.spec.objective.terms.size(), wl.c_str(), pp.settings.algorithm.c_str(),
                    pp.settings.maximize ? "maximize" : "minimize",
                    pp.settings.epigraph ? " the worst wavelength (epigraph form)" : "",
                    pp.settings.robust_etas.empty() ? "" : ", robust (the worst of the dilated, nominal and eroded designs)");
        std::fflush(stdout);
        if (root && pp.problem.settings.precision == Precision::Float32)
            std::fprintf(stderr, "note: float32 runs: the adjoint gradient is only as accurate as the fields' small "
                                 "changes; --precision float64 is recommended\n");

        std::vector<std::pair<int, std::string>> rows = resume && root ? read_history(history_file) : decltype(rows){};
        std::string header = kHistoryHeader;
        for (double w : pp.wavelengths_um) {
            char buf[48];
            std::snprintf(buf, sizeof buf, ",objective@%.6g", w);
            header += buf;
        }
        if (!pp.settings.robust_etas.empty()) header += ",objective_dilated,objective_eroded";
        bool first = true;
        pp.problem.settings.cancel = o.cancel;  // (problem_from_project sets it too)
        const auto on_iteration = [&](const adjoint::Iteration& it) {
            if (!root) return true;  // the other MPI ranks: the same iterations, nothing written
            if (first) {  // rows from an earlier call that this one repeats are replaced
                std::erase_if(rows, [&](const auto& r) { return r.first >= it.index; });
                first = false;
            }
            char buf[320];
            std::snprintf(buf, sizeof buf, "%d,%.17g,%.17g,%.17g,%.17g,%.17g,%lld,%.6g", it.index, it.beta, it.objective,
                          it.gradient_norm, it.constraint_solid, it.constraint_void, it.steps, it.wall_s);
            std::string row = buf;
            for (double v : it.objective_per_frequency) {
                std::snprintf(buf, sizeof buf, ",%.17g", v);
                row += buf;
            }
            for (double v : it.objective_robust) {  // dilated, eroded (OptimizerSettings::robust_etas' order)
                std::snprintf(buf, sizeof buf, ",%.17g", v);
                row += buf;
            }
            rows.emplace_back(it.index, row);
            std::string text = header + "\n";
            for (const auto& r : rows) text += r.second + "\n";
            write_file_atomic(history_file, text);
            std::printf("iteration %d: objective %.6g, beta %.4g, |grad| %.4g, %lld steps, %.3g s\n", it.index, it.objective,
                        it.beta, it.gradient_norm, it.steps, it.wall_s);
            std::fflush(stdout);
            // no stop here: a Ctrl-C during this callback ends the next run at its first
            // chunk (the cancel flag), so every Ctrl-C stops the same way ("cancelled")
            return true;
        };
        const adjoint::OptimizeResult r = adjoint::optimize_density(pp.problem, pp.rho0, pp.settings, on_iteration);
        if (!root) return kExitOk;

        // the densities, the final design as GDS and as a project of plain shapes
        const double pixel = pp.spec.regions[0].pixel_um;
        adjoint::write_density_csv(out / "density.csv", pp.problem.region, pixel, r.rho, r.rho_projected);
        const bool h5 = adjoint::write_density_h5(out / "density.h5", pp.problem.region, pixel, r.rho, r.rho_projected);
        std::string finals;
        if (pp.dimensions == 2) {
            const Project final_project = adjoint::project_with_design_shapes(project, pp, r.rho);
            const adjoint::DesignGds gds = adjoint::design_gds(project, pp, r.rho);
            write_file_atomic(out / "final.gds", std::string_view(reinterpret_cast<const char*>(gds.bytes.data()), gds.bytes.size()));
            save_project(final_project, out / "final.glproj");
            char buf[200];
            std::snprintf(buf, sizeof buf, "; final.gds (layer %d/%d, %zu polygon(s), %zu hole(s)%s), final.glproj",
                          gds.layer[0], gds.layer[1], gds.polygons, gds.holes,
                          gds.holes == 0       ? ""
                          : gds.holes_separate ? (" on datatype " + std::to_string(gds.layer[1] + 1)).c_str()
                                               : " cut in");
            finals = buf;
            // the binarized design's length scales as the benchmarks measure them
            design::DensityGrid g = adjoint::density_grid(pp.problem.region, 2);
            g.rho = r.rho_projected;
            const design::MeasuredLengthScale ml = design::measure_length_scale(g);
            std::snprintf(buf, sizeof buf, "; minimum length scale of the binarized design: solid %.4g um, void %.4g um",
                          ml.solid_um, ml.void_um);
            finals += buf;
        } else {
            // the 3D design's export (contours per z layer) does not exist yet: say what is missing
            finals = "; not written for a 3D design: final.gds and final.glproj (no 3D contour export yet; the "
                     "design is the density file(s), x fastest, then y, then z)";
        }
        const double f0 = r.history.empty() ? 0 : r.history.front().objective;
        const double f1 = r.history.empty() ? 0 : r.history.back().objective;
        std::printf("done: %zu iteration(s) from %d, objective %.6g -> %.6g (%s); wrote history.csv, checkpoint.json, "
                    "density.csv%s%s in %s\n",
                    r.history.size(), r.first_iteration, f0, f1, r.stop.c_str(), h5 ? ", density.h5" : "", finals.c_str(),
                    limits::cap_text(out.string()).c_str());
        return g_adjoint_cancel.load() ? kExitRun : kExitOk;
    } catch (const ProjectError& e) {
        return failed(ranks, collective, kExitProject, e.what());
    } catch (const adjoint::Cancelled& e) {  // Ctrl-C before the first iteration (the normalization run)
        std::fprintf(stderr, "cancelled: the %s run stopped after %lld steps, before the first iteration; nothing "
                             "written\n", e.run.c_str(), e.steps);
        return kExitRun;
    } catch (const std::invalid_argument& e) {  // the design region's or the optimizer's refusals
        return failed(ranks, collective, kExitProject, limits::cap_text(project_file) + ": " + e.what());
    } catch (const std::exception& e) {
        return failed(ranks, collective, kExitRun, e.what());
    }
}

}  // namespace golightly::cli
