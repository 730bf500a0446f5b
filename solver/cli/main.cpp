// golightly-cli: the headless runner (spec/cli.md).
//
//   golightly-cli run PROJECT [--out DIR] [--backend auto|cpu|cuda] [--precision float32|float64]
//                             [--threads N] [--max-steps N] [--devices auto|all|N|0,1]
//   golightly-cli check PROJECT [--json]
//   golightly-cli bench [--backend cpu|cuda] [--dims 2|3] [--size NX,NY[,NZ]] [--steps N]
//                       [--precision ..] [--poles P] [--json]
//   golightly-cli materials [--json]
//   golightly-cli sparams PROJECT [--out DIR] [--backend ..] [--threads N]   (cmd_sparams.cpp)
//   golightly-cli modes PROJECT [--port NAME] [--wavelength UM] [--count N] [--out DIR]   (cmd_modes.cpp)
//   golightly-cli materials fit FILE.csv [--poles N] [--no-drude] [--band LO:HI] [--id ID] [--name NAME] [--json]
//   golightly-cli sweep PROJECT --param NAME=LO:HI:N ... / optimize PROJECT --objective EXPR --param NAME=LO..HI ...
//                       (cmd_sweep.cpp)
//   golightly-cli optimize --adjoint PROJECT --out DIR [--max-iterations N] [--resume]   (cmd_optimize_adjoint.cpp;
//                       under mpirun one subdomain per rank, as `run`)
//   golightly-cli export-gds PROJECT --out FILE.gds [--cell NAME]   (cmd_gds.cpp)
//   golightly-cli farfield RESULTS [--monitor NAME] [--theta LIST] [--phi LIST] [--json]   (cmd_farfield.cpp)
//   golightly-cli diffraction RESULTS [--monitor NAME] [--wavelength UM] [--json]   (cmd_diffraction.cpp)
//   golightly-cli resonances RESULTS [--monitor NAME] [--band MIN:MAX] [--after FS] [--json]   (cmd_resonances.cpp)
//   golightly-cli --version
//
// Exit codes: 0 success; 1 usage; 2 invalid project; 3 run failed (results so far written).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cmd_check_bloch.hpp"
#include "cmd_gds.hpp"
#include "cmd_farfield.hpp"
#include "cmd_diffraction.hpp"
#include "cmd_modes.hpp"
#include "cmd_optimize_adjoint.hpp"
#include "cmd_resonances.hpp"
#include "cmd_sparams.hpp"
#include "out_folder.hpp"
#include "golightly/bench.hpp"
#include "golightly/compile.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/geometry.hpp"
#include "golightly/limits.hpp"
#include "golightly/material_library.hpp"
#include "golightly/mode_cache.hpp"
#include "golightly/pole_fit.hpp"
#include "golightly/project.hpp"
#include "golightly/reference_structure.hpp"
#include "golightly/results.hpp"
#include "golightly/run.hpp"
#include "golightly/sparams.hpp"
#include "golightly/symmetric_engine.hpp"
#include "golightly/step_import.hpp"
#include "golightly/version_info.hpp"
#include "cmd_sweep.hpp"
#ifdef GOLIGHTLY_HAVE_MPI
#include "golightly/mpi.hpp"
#endif

namespace fs = std::filesystem;
using namespace golightly;

namespace {

constexpr int kExitOk = 0, kExitUsage = 1, kExitProject = 2, kExitRun = 3;

std::atomic<bool> g_cancel{false};
extern "C" void on_sigint(int) { g_cancel.store(true); }

#ifdef GOLIGHTLY_HAVE_MPI
/// Under mpirun / srun (main): MPI is initialized, `run` and `optimize --adjoint` step one
/// subdomain per rank and rank 0 alone prints progress and writes the results
/// (golightly/mpi.hpp, issue 18).
std::unique_ptr<mpi::Session> g_mpi;
#endif
/// This process's MPI rank (0 without MPI).
int mpi_rank() {
#ifdef GOLIGHTLY_HAVE_MPI
    if (g_mpi) return g_mpi->rank();
#endif
    return 0;
}
/// "rank K: " under MPI (stderr messages name the failing rank), else "".
std::string rank_prefix() {
#ifdef GOLIGHTLY_HAVE_MPI
    if (g_mpi) return "rank " + std::to_string(g_mpi->rank()) + ": ";
#endif
    return "";
}
/// Under MPI: a failure on this rank ends every rank with `code` (MPI_Abort; the others
/// may be waiting for this one's halo planes). Without MPI: returns.
void end_all_ranks(int code) {
#ifdef GOLIGHTLY_HAVE_MPI
    if (g_mpi) {
        std::fflush(stdout);
        std::fflush(stderr);
        g_mpi->abort(code);
    }
#endif
    (void)code;
}

#ifdef GOLIGHTLY_HAVE_MPI
/// run.backend / --backend as the rank engine takes it (golightly/mpi.hpp).
mpi::RankBackend rank_backend(BackendChoice b) {
    return b == BackendChoice::Cpu ? mpi::RankBackend::Cpu : b == BackendChoice::Cuda ? mpi::RankBackend::Cuda
                                                                                      : mpi::RankBackend::Auto;
}
#endif

/// `optimize --adjoint` (cmd_optimize_adjoint.cpp); under mpirun with the ranks' engine,
/// reductions and abort (cli::AdjointRanks).
int cmd_optimize_adjoint(int argc, char** argv) {
#ifdef GOLIGHTLY_HAVE_MPI
    if (g_mpi) {
        cli::AdjointRanks ranks;
        ranks.comm = g_mpi->communicator();
        ranks.rank_engine = [](const Scene& scene, BackendChoice backend, Precision precision, int threads) {
            return mpi::make_rank_engine(scene, rank_backend(backend), precision, threads, *g_mpi);
        };
        ranks.abort = [](int code) { end_all_ranks(code); };
        return cli::run_optimize_adjoint(argc, argv, &ranks);
    }
#endif
    return cli::run_optimize_adjoint(argc, argv);
}

std::string format_seconds(double s) {
    if (s < 0 || !std::isfinite(s)) return "?";
    char buf[32];
    if (s < 60) std::snprintf(buf, sizeof buf, "%.0f s", s);
    else if (s < 3600) std::snprintf(buf, sizeof buf, "%d min %02d s", int(s) / 60, int(s) % 60);
    else std::snprintf(buf, sizeof buf, "%d h %02d min", int(s) / 3600, (int(s) % 3600) / 60);
    return buf;
}

/// Progress on stderr: a one-line bar redrawn in place on a terminal, otherwise a line
/// at each tenth of the step limit (and at most every 30 s otherwise).
class ProgressPrinter {
public:
    ProgressPrinter() : tty_(isatty(STDERR_FILENO) == 1) {}
    void operator()(const ProgressInfo& p) {
        const auto now = std::chrono::steady_clock::now();
        const double frac = p.max_steps > 0 ? double(p.step) / double(p.max_steps) : 0.0;
        if (p.phase != phase_) {
            finish_line();
            phase_ = p.phase;
            next_tenth_ = 1;
            last_plain_ = now;
            if (!tty_) std::fprintf(stderr, "%s run: up to %lld steps\n", p.phase.c_str(), (long long)p.max_steps);
        }
        if (tty_) {
            if (now - last_draw_ < std::chrono::milliseconds(100)) return;
            last_draw_ = now;
            const int width = 24;
            const int filled = int(frac * width + 0.5);
            std::string bar(std::size_t(std::clamp(filled, 0, width)), '#');
            bar.resize(width, '.');
            std::fprintf(stderr, "\r%-9s [%s] %3.0f%%  step %lld/%lld  %.1f fs  %.1f dB down  %.1f Mcells/s  ETA %s   ",
                         p.phase.c_str(), bar.c_str(), 100 * frac, (long long)p.step, (long long)p.max_steps,
                         p.time_fs, p.energy_db, p.mcells_per_s, format_seconds(p.eta_s).c_str());
            std::fflush(stderr);
            dirty_ = true;
        } else {
            const bool tenth = frac * 10 >= next_tenth_;
            const bool late = now - last_plain_ > std::chrono::seconds(30);
            if (!tenth && !late) return;
            while (frac * 10 >= next_tenth_) ++next_tenth_;
            last_plain_ = now;
            std::fprintf(stderr, "%s: step %lld/%lld, %.1f fs, %.1f dB below peak, %.1f Mcells/s, ETA %s\n",
                         p.phase.c_str(), (long long)p.step, (long long)p.max_steps, p.time_fs, p.energy_db,
                         p.mcells_per_s, format_seconds(p.eta_s).c_str());
        }
    }
    void finish_line() {
        if (dirty_) std::fputc('\n', stderr);
        dirty_ = false;
    }

private:
    bool tty_;
    bool dirty_ = false;
    std::string phase_;
    int next_tenth_ = 1;
    std::chrono::steady_clock::time_point last_draw_{}, last_plain_{};
};

int report_project_error(const ProjectError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return kExitProject;
}

/// A message for stderr, at most limits::kMaxMessageChars (never a whole payload).
std::string capped(const std::string& s) { return limits::cap_text(s, limits::kMaxMessageChars); }

/// The embedded STEP files of the layers, decoded and translated once before compiling:
/// bad base64, a truncated or unparsable file, a translator that crashes are faults of
/// the project (exit 2, naming the file and `layers[i].shapes[k].data`), not run failures.
/// Only some compile paths (2D sections) named the shape; the 3D ones let the reader's
/// error through as a run failure (exit 3). The translation is cached: compile reuses it.
void check_embedded_step(const Project& project, const std::string& label) {
    for (std::size_t l = 0; l < project.layers.size(); ++l)
        for (std::size_t k = 0; k < project.layers[l].shapes.size(); ++k) {
            const Shape& s = project.layers[l].shapes[k];
            if (s.type != ShapeType::Step || !step_import_available()) continue;
            try {
                (void)step_shape_model(s);
            } catch (const std::bad_alloc&) {
                throw;
            } catch (const std::exception& e) {
                throw ProjectError(label, "layers[" + std::to_string(l) + "].shapes[" + std::to_string(k) + "].data",
                                   capped(e.what()));
            }
        }
}

std::optional<Precision> parse_precision(const std::string& s) {
    if (s == "float32") return Precision::Float32;
    if (s == "float64") return Precision::Float64;
    return std::nullopt;
}

// ------------------------------------------------------------------ run
struct RunArgs {
    std::string project;
    std::string out;
    std::string backend;
    std::string precision;
    int threads = 0;
    long long max_steps = -1;
    std::vector<std::string> params;  ///< --param NAME=VALUE (parameters.hpp)
    std::string devices;              ///< --devices (run.hpp DeviceSelection)
};

int cmd_run(const RunArgs& a) {
    const fs::path file(a.project);
    const std::string label = a.project;
    Project project = load_project_with(file, parse_parameter_assignments(a.params));  // ProjectError -> 2 (caller)
    {  // what this build cannot run (3D limits), with the command line's backend applied
        Project as_run = project;
        if (a.backend == "auto") as_run.run.backend = BackendChoice::Auto;
        if (a.backend == "cpu") as_run.run.backend = BackendChoice::Cpu;
        if (a.backend == "cuda") as_run.run.backend = BackendChoice::Cuda;
        check_runnable(as_run, label);  // ProjectError -> 2
    }
    check_embedded_step(project, label);  // ProjectError -> 2

    fs::path out = a.out.empty() ? file.parent_path() / (file.stem().string() + "_results") : fs::path(a.out);
    if (!golightly::cli::results_folder_writable(out)) return kExitProject;  // before compiling: no run time lost
    RunOptions opts;
    if (a.backend == "auto") opts.backend = BackendChoice::Auto;
    if (a.backend == "cpu") opts.backend = BackendChoice::Cpu;
    if (a.backend == "cuda") opts.backend = BackendChoice::Cuda;
    if (!a.precision.empty()) opts.precision = parse_precision(a.precision);
    opts.threads = a.threads;
    if (a.max_steps >= 0) opts.max_steps = a.max_steps;
    if (!a.devices.empty()) opts.devices = parse_device_selection(a.devices);
    else project_devices(project, label);  // a bad run.devices is an invalid project (exit 2)
    opts.cancel = &g_cancel;
    ProgressPrinter printer;
    opts.progress = [&printer](const ProgressInfo& p) { printer(p); };
    std::vector<std::string> rank_warnings;
#ifdef GOLIGHTLY_HAVE_MPI
    if (g_mpi) {  // one subdomain per rank (golightly/mpi.hpp); rank 0 reports and writes
        if (golightly::cli::sparameters_requested(project)) {
            if (g_mpi->rank() == 0)
                std::fprintf(stderr, "error: %s: run.sparameters is not supported under mpirun: run it in one "
                             "process (golightly-cli sparams)\n", label.c_str());
            return kExitRun;
        }
        const mpi::RankBackend rb = rank_backend(opts.backend.value_or(project.run.backend));
        const Precision precision = opts.precision.value_or(project.run.precision);
        const int threads = opts.threads;
        opts.engine_factory = [rb, precision, threads](const Scene& scene, const std::string&) {
            // Symmetry planes reduce the scene before it is cut into the ranks' subdomains.
            return make_symmetric_engine(scene, [&](const Scene& s) {
                return mpi::make_rank_engine(s, rb, precision, threads, *g_mpi);
            });
        };
        opts.cancel = nullptr;  // Ctrl-C: mpirun ends every rank (a per-rank flag would split them)
        if (g_mpi->rank() != 0) opts.progress = nullptr;
        const DeviceSelection d = opts.devices ? *opts.devices : project_devices(project, label);
        if ((d.kind == DeviceSelection::Kind::Count && d.count > 1) ||
            (d.kind == DeviceSelection::Kind::List && d.ordinals.size() > 1))
            rank_warnings.push_back("run.devices / --devices is ignored under mpirun: one subdomain per rank (" +
                                    std::to_string(g_mpi->size()) + " ranks)");
    }
#endif
    if (opts.cancel) std::signal(SIGINT, on_sigint);
    if (golightly::cli::sparameters_requested(project))  // run.sparameters: cmd_sparams.cpp
        return golightly::cli::run_sparams_project(
            project, label, out, opts,
            golightly::cli::sparams_launch_of_run(project, a.params, a.backend, a.precision, a.threads, a.max_steps));

    RunResult result;
    try {
        result = run_project(project, label, opts);
    } catch (const ProjectError&) {
        printer.finish_line();
        throw;
    } catch (const std::bad_alloc&) {
        printer.finish_line();
        const std::string msg = "out of host memory";
        std::fprintf(stderr, "%serror: %s: run failed: %s\n", rank_prefix().c_str(), label.c_str(), msg.c_str());
        if (mpi_rank() == 0) try { write_failure_summary(out, project, msg, {}); } catch (...) {}
        end_all_ranks(kExitRun);
        return kExitRun;
    } catch (const std::exception& e) {
        printer.finish_line();
        std::fprintf(stderr, "%serror: %s: run failed: %s\n", rank_prefix().c_str(), label.c_str(),
                     capped(e.what()).c_str());
        if (mpi_rank() == 0) try { write_failure_summary(out, project, capped(e.what()), {}); } catch (...) {}
        end_all_ranks(kExitRun);
        return kExitRun;
    }
    printer.finish_line();
    if (mpi_rank() != 0)  // rank 0 writes and reports; the others took the same decisions
        return result.stop_reason == StopReason::Diverged || result.stop_reason == StopReason::Cancelled ? kExitRun
                                                                                                         : kExitOk;
    for (const std::string& w : rank_warnings) result.warnings.push_back(w);

    std::vector<std::string> writer_warnings;
    try {
        writer_warnings = write_results(out, project, result);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s: cannot write the results: %s\n", out.string().c_str(), capped(e.what()).c_str());
        return kExitRun;
    }
    for (const auto& w : result.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    for (const auto& w : writer_warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());

    std::printf("%s: %s after %lld steps (%.1f fs), %.1f s wall, %.1f Mcells/s on %s (%s, %s)\n", label.c_str(),
                to_string(result.stop_reason).c_str(), (long long)result.steps, result.time_fs, result.wall_s,
                result.mcells_per_s, result.backend.c_str(), result.device.c_str(),
                to_string(result.precision).c_str());
    std::printf("results: %s\n", out.string().c_str());
    if (result.stop_reason == StopReason::Diverged) {
        if (result.divergence) {
            const auto& d = *result.divergence;
            std::fprintf(stderr, "error: %s: %s\n", label.c_str(), divergence_message(d, result.dimensions).c_str());
        } else {
            std::fprintf(stderr, "error: %s: the fields diverged\n", label.c_str());
        }
        return kExitRun;
    }
    if (result.stop_reason == StopReason::Cancelled) {
        std::fprintf(stderr, "error: %s: run cancelled (interrupted); partial results written\n", label.c_str());
        return kExitRun;
    }
    return kExitOk;
}

// ------------------------------------------------------------------ check
/// Validates, refuses what this build cannot run (check_runnable), compiles (and the
/// normalization run's scene), validates the ports of a project with `ports` as run and
/// sparams do (sparams.hpp validate_ports) and prints the grid, time step, step limit, memory estimate,
/// material areas (2D, um^2) or volumes (3D, um^3) and warnings. --json: spec/cli.md.
int cmd_check(const std::string& project_path, bool json, const std::vector<std::string>& params) {
    const Project project = load_project_with(fs::path(project_path), parse_parameter_assignments(params));
    check_runnable(project, project_path);
    check_embedded_step(project, project_path);
    const CompiledProject c = compile_project(project, project_path);
    std::vector<std::string> reference_notes;
    // `run` also compiles the normalization run (the reference layers, reference-only ones
    // included): check covers every layer that run compiles.
    // Mode sources get their reference structure as run derives it (reference_structure.hpp).
    if (incident_monitor_index(project, project_path) >= 0) {
        CompileOptions ref;
        ref.reference_run = true;
        std::vector<std::string> notes;
        const Project ref_project = reference_run_project(project, project_path, &notes);
        try {
            compile_project(ref_project, project_path, ref);
        } catch (const ProjectError& e) {
            throw ProjectError(e.file(), e.json_path(), "the reference (normalization) run: " + e.message());
        }
        reference_notes = std::move(notes);
    }
    // ports (S-parameters): the refusals of run / sparams, in the same words (sparams.hpp)
    if (project.extra.contains("ports")) validate_ports(project, project_path);
    const Scene& s = c.scene;
    const bool three_d = project.domain.dimensions == 3;
    std::vector<std::string> warnings = c.warnings;
    warnings.insert(warnings.end(), reference_notes.begin(), reference_notes.end());
    // 3D: volume (um^3) per material on the interior cell grid (geometry.hpp).
    std::map<std::string, double> volumes;
    if (three_d) {
        try {
            volumes = material_volumes_um3(project, s.dx_um, false);
        } catch (const ProjectError&) {
            throw;
        } catch (const std::exception& e) {
            warnings.push_back("material volumes not computed: " + capped(e.what()));
        }
    }
    if (json) {
        Json j = Json::object();
        j["dimensions"] = project.domain.dimensions;
        j["cells"] = {s.nx, s.ny, s.nz};
        j["dt_fs"] = s.dt_s / 1e-15;
        j["courant"] = s.courant;
        Json mats = Json::object();
        if (three_d) {
            for (const auto& [id, volume] : volumes) mats[id] = {{"volume_um3", volume}};
        } else {
            for (const auto& [id, area] : c.material_area_um2) mats[id] = {{"area_um2", area}};
        }
        j["materials"] = mats;
        j["memory_bytes"] = c.memory_bytes;
        j["mode_solver_bytes"] = c.mode_solver_peak_bytes;  // counted in memory_bytes
        if (c.design_dft_bytes > 0) j["design_dft_bytes"] = c.design_dft_bytes;  // counted in memory_bytes
        if (s.symmetry[0] != 0 || s.symmetry[1] != 0 || s.symmetry[2] != 0) {
            j["symmetry"] = {s.symmetry[0], s.symmetry[1], s.symmetry[2]};
            j["simulated_cells"] = std::int64_t(double(s.cells()) / mirror_map(s).cell_ratio() + 0.5);
        }
        if (Json b = cli::check_bloch_json(project, s); !b.is_null()) j["bloch"] = b;  // issue 51
        Json w = Json::array();
        for (const auto& line : warnings) w.push_back(line);
        j["warnings"] = w;
        std::printf("%s\n", j.dump().c_str());
        return kExitOk;
    }
    std::printf("%s: %s\n", project_path.c_str(), project.name.c_str());
    if (three_d) {
        std::printf("grid: %d x %d x %d Yee cells = %zu cells (PML included: x %d+%d, y %d+%d, z %d+%d), cell %.6g um, 3D\n",
                    s.nx, s.ny, s.nz, s.cells(), s.pml_lo[0], s.pml_hi[0], s.pml_lo[1], s.pml_hi[1], s.pml_lo[2],
                    s.pml_hi[2], s.dx_um);
    } else {
        std::printf("grid: %d x %d Yee cells (PML included: x %d+%d, y %d+%d), cell %.6g um, %s\n", s.nx, s.ny,
                    s.pml_lo[0], s.pml_hi[0], s.pml_lo[1], s.pml_hi[1], s.dx_um, to_string(s.polarization).c_str());
    }
    std::printf("dt: %.6g fs, Courant number %.4g\n", s.dt_s / 1e-15, s.courant);
    std::printf("steps to the stop limit: %lld (%.6g fs)\n", (long long)c.max_steps, double(c.max_steps) * s.dt_s / 1e-15);
    std::printf("memory estimate: %.1f MiB\n", double(c.memory_bytes) / (1024.0 * 1024.0));
    if (c.mode_solver_peak_bytes > 0)  // counted in the estimate above (mode_cache.hpp mode_solve_peak_bytes)
        std::printf("  of which the largest mode solve: %.1f MiB\n", double(c.mode_solver_peak_bytes) / (1024.0 * 1024.0));
    if (c.design_dft_bytes > 0)  // counted in the estimate above (compile.hpp design_dft_bytes)
        std::printf("  of which the design region's DFT fields (optimize --adjoint): %.1f MiB\n",
                    double(c.design_dft_bytes) / (1024.0 * 1024.0));
    cli::print_check_bloch(cli::check_bloch_json(project, s));  // issue 51: the Bloch k
    if (s.symmetry[0] != 0 || s.symmetry[1] != 0 || s.symmetry[2] != 0) {
        const double ratio = mirror_map(s).cell_ratio();
        std::printf("symmetry: x %+d, y %+d, z %+d: %.0f cells simulated (1/%g of the grid)\n", s.symmetry[0],
                    s.symmetry[1], s.symmetry[2], double(s.cells()) / ratio, ratio);
    }
    if (three_d) {
        std::printf("materials (volume after sub-pixel averaging):\n");
        for (const auto& [id, volume] : volumes) std::printf("  %-16s %.6g um^3\n", id.c_str(), volume);
    } else {
        std::printf("materials (area after sub-pixel averaging):\n");
        for (const auto& [id, area] : c.material_area_um2) std::printf("  %-16s %.6g um^2\n", id.c_str(), area);
    }
    if (warnings.empty()) std::printf("no warnings\n");
    for (const auto& line : warnings) std::printf("warning: %s\n", line.c_str());
    return kExitOk;
}

// ------------------------------------------------------------------ materials
/// Lists the material library (bundled + personal, material_library.hpp). --json: one
/// object {"bundled": path, "personal": path, "materials": [MATERIAL + "source",
/// "personal", ...]}.
int cmd_materials(bool json) {
    const auto lib = material_library();
    if (json) {
        Json j = Json::object();
        j["bundled"] = bundled_material_library_path().string();
        j["personal"] = personal_material_library_path().string();
        Json list = Json::array();
        for (const LibraryMaterial& lm : lib) {
            Json m = material_to_json(lm.material);
            m["source"] = lm.source;
            m["personal"] = lm.personal;
            list.push_back(m);
        }
        j["materials"] = list;
        std::printf("%s\n", j.dump().c_str());
        return kExitOk;
    }
    std::printf("bundled library: %s\npersonal library: %s\n", bundled_material_library_path().string().c_str(),
                personal_material_library_path().string().c_str());
    for (const LibraryMaterial& lm : lib) {
        const Material& m = lm.material;
        std::printf("%-8s %-46s eps_inf %-8.6g %zu pole%s%s\n", m.id.c_str(), m.name.c_str(), m.epsilon_inf,
                    m.poles.size(), m.poles.size() == 1 ? "" : "s", lm.personal ? "  [personal]" : "");
        if (!lm.source.empty()) std::printf("         source: %s\n", lm.source.c_str());
    }
    return kExitOk;
}

// ------------------------------------------------------------------ materials fit
struct FitArgs {
    std::string file, band, id = "fitted", name;
    int poles = 4;
    bool no_drude = false;
    bool json = false;
};

/// Fits a passive pole model to a refractiveindex.info CSV (pole_fit.hpp) and prints the
/// material: --json one project-format material object plus "fit": {"rms_relative_error",
/// "max_relative_error", "samples", "band_um"}; else a summary and the material JSON.
int cmd_materials_fit(const FitArgs& a) {
    PoleFitOptions o;
    o.poles = a.poles;
    o.drude = !a.no_drude;
    if (!a.band.empty()) {
        const auto colon = a.band.find(':');
        double lo = 0, hi = 0;
        bool ok = colon != std::string::npos;
        if (ok) {
            try {
                size_t p1 = 0, p2 = 0;
                lo = std::stod(a.band.substr(0, colon), &p1);
                hi = std::stod(a.band.substr(colon + 1), &p2);
                ok = p1 == colon && p2 == a.band.size() - colon - 1 && lo > 0 && hi > lo;
            } catch (...) {
                ok = false;
            }
        }
        if (!ok) {
            std::fprintf(stderr, "error: --band: expected LO:HI in um with 0 < LO < HI, got '%s'\n",
                         limits::cap_text(a.band).c_str());
            return kExitUsage;
        }
        o.wavelength_min_um = lo;
        o.wavelength_max_um = hi;
    }
    const OpticalData data = read_refractive_index_csv(a.file);  // ProjectError(file, "line N") -> 2
    PoleFitResult fit;
    try {
        fit = fit_poles(data.samples, o);
    } catch (const ProjectError& e) {  // fit_poles does not know the file: name it
        throw ProjectError(a.file, e.json_path(), e.message());
    }
    const std::string name = a.name.empty() ? "fit of " + std::filesystem::path(a.file).filename().string() : a.name;
    Json m = material_to_json(material_from_fit(fit, a.id, name));
    Json info = Json::object();
    info["rms_relative_error"] = fit.rms_relative_error;
    info["max_relative_error"] = fit.max_relative_error;
    info["samples"] = fit.samples_used;
    info["band_um"] = Json::array({o.wavelength_max_um > 0 ? o.wavelength_min_um : data.samples.front().wavelength_um,
                                   o.wavelength_max_um > 0 ? o.wavelength_max_um : data.samples.back().wavelength_um});
    m["fit"] = info;
    if (a.json) {
        std::printf("%s\n", m.dump().c_str());
        return kExitOk;
    }
    std::printf("%d samples, eps_inf %.6g, %zu poles; relative error of eps: RMS %.3g, max %.3g\n", fit.samples_used,
                fit.epsilon_inf, fit.poles.size(), fit.rms_relative_error, fit.max_relative_error);
    std::printf("%s\n", m.dump(1).c_str());
    return kExitOk;
}

// ------------------------------------------------------------------ bench
int cmd_bench(const BenchOptions& options, bool json) {
    const BenchReport r = run_bench(options);
    if (json) {
        std::printf("%s\n", bench_report_json(r).c_str());
        return kExitOk;
    }
    if (r.dims == 3)
        std::printf("backend %s (%s), 3D, %d x %d x %d cells, %d steps, %s\n", r.backend.c_str(), r.device.c_str(),
                    r.nx, r.ny, r.nz, r.steps, r.precision.c_str());
    else
        std::printf("backend %s (%s), %dD %s, %d x %d cells, %d steps, %s\n", r.backend.c_str(), r.device.c_str(),
                    r.dims, r.polarization.c_str(), r.nx, r.ny, r.steps, r.precision.c_str());
    if (r.poles > 0)
        std::printf("dispersive:               %s, %d poles, %.3g of the E sites, dx %.4g um\n",
                    r.dispersive_material.empty() ? "synthetic Lorentz" : r.dispersive_material.c_str(), r.poles,
                    r.dispersive_cell_fraction, r.dx_um);
    if (!r.kernel.empty()) std::printf("kernel:                   %s\n", r.kernel.c_str());
    std::printf("cell updates per second:  %.4g (%.4g steps/s)\n", r.cells_per_s, r.steps_per_s);
    if (r.symmetry != std::array<int, 3>{0, 0, 0})
        std::printf("symmetry:                 %d,%d,%d: whole-domain rate above; %.4g cells stepped, %.4g updates/s\n",
                    r.symmetry[0], r.symmetry[1], r.symmetry[2], r.simulated_cells, r.simulated_cells_per_s);
    if (r.frames_per_s > 0)
        std::printf("frames:                   %.1f per s, %.3f ms each, %.1f %% of the run\n", r.frames_per_s,
                    r.frame_ms, 100 * r.frame_time_fraction);
    std::printf("bytes per cell update:    %.4g\n", r.bytes_per_cell_update);
    std::printf("memory per cell:          %.4g B (%s)\n", r.state_bytes_per_cell,
                r.backend == "cuda" ? "device memory the engine allocated" : "memory model");
    std::printf("achieved bandwidth:       %.4g GB/s\n", r.bandwidth_gbs);
    std::printf("copy kernel bandwidth:    %.4g GB/s\n", r.copy_bandwidth_gbs);
    std::printf("fraction of copy:         %.3f\n", r.fraction_of_copy);
    if (r.devices > 1) {
        std::printf("devices:                  %d, halo exchange %s, %.4g MB per step\n", r.devices,
                    r.transport.c_str(), r.exchange_bytes_per_step / 1e6);
        std::printf("step / compute alone:     %.4g ms / %.4g ms\n", 1e3 / r.steps_per_s, 1e3 * r.compute_s_per_step);
        std::printf("exchange alone:           %.4g ms (hidden %.4g ms, exposed %.4g ms per step)\n",
                    1e3 * r.exchange_s, 1e3 * r.exchange_hidden_s, 1e3 * r.exchange_exposed_s);
    }
    return kExitOk;
}

/// NX,NY or NX,NY,NZ (positive integers); nz is left alone when absent.
bool parse_size(const std::string& text, int& nx, int& ny, int* nz = nullptr, bool* has_nz = nullptr) {
    int a = 0, b = 0, c = 0;
    char comma = 0;
    std::istringstream in(text);
    if (!(in >> a >> comma >> b) || comma != ',' || a <= 0 || b <= 0) return false;
    in >> std::ws;
    bool third = false;
    if (!in.eof() && nz) {
        if (!(in >> comma >> c) || comma != ',' || c <= 0) return false;
        in >> std::ws;
        third = true;
    }
    if (!in.eof()) return false;
    nx = a;
    ny = b;
    if (third) *nz = c;
    if (has_nz) *has_nz = third;
    return true;
}

int real_main(int argc, char** argv) {
    // `optimize --adjoint` has options of its own (cmd_optimize_adjoint.cpp)
    if (cli::is_adjoint_optimize(argc, argv)) return cmd_optimize_adjoint(argc, argv);
    CLI::App app{"golightly-cli: the headless GoLightly FDTD runner"};
    app.name("golightly-cli");
    bool version = false;
    app.add_flag("--version", version, "Print the version and CUDA status, then exit");
    app.require_subcommand(0, 1);

    RunArgs run_args;
    CLI::App* run = app.add_subcommand("run", "Run a project (and its normalization run) and write the results");
    run->add_option("PROJECT", run_args.project, "Project file (.glproj)")->required();
    run->add_option("--out", run_args.out, "Results folder (default: <project stem>_results next to the project)");
    run->add_option("--backend", run_args.backend, "Backend: auto, cpu or cuda (default: the project's run.backend)")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    run->add_option("--precision", run_args.precision, "float32 or float64 (default: the project's run.precision)")
        ->check(CLI::IsMember({"float32", "float64"}));
    run->add_option("--threads", run_args.threads, "CPU threads (0: all cores)")->check(CLI::NonNegativeNumber);
    run->add_option("--max-steps", run_args.max_steps, "Stop after at most N steps")->check(CLI::NonNegativeNumber);
    run->add_option("--devices", run_args.devices,
                    "One grid over several GPUs: auto, all, a count N or a list of ordinals 0,1 (default: the "
                    "project's run.devices); on the CPU backend N subdomains in one process")
        ->check([](const std::string& v) -> std::string {
            try {
                parse_device_selection(v);
            } catch (const std::invalid_argument& e) {
                return e.what();
            }
            return "";
        });
    run->add_option("--param", run_args.params, "NAME=VALUE: override a project parameter (repeatable)")
        ->check(cli::parameter_assignment_check());

    std::string check_project;
    bool check_json = false;
    CLI::App* check = app.add_subcommand("check", "Validate and compile a project without running it");
    check->add_option("PROJECT", check_project, "Project file (.glproj)")->required();
    check->add_flag("--json", check_json, "Print one JSON object");
    std::vector<std::string> check_params;
    check->add_option("--param", check_params, "NAME=VALUE: override a project parameter (repeatable)")
        ->check(cli::parameter_assignment_check());
    cli::SweepCommands sweep_commands;
    cli::add_sweep_commands(app, sweep_commands);

    bool materials_json = false;
    CLI::App* materials = app.add_subcommand("materials", "List the material library (bundled and personal)");
    materials->add_flag("--json", materials_json, "Print one JSON object");
    materials->require_subcommand(0, 1);
    FitArgs fit_args;
    CLI::App* fit = materials->add_subcommand("fit", "Fit a passive Lorentz/Drude pole model to a refractiveindex.info CSV (wl um, n, k)");
    fit->add_option("FILE", fit_args.file, "CSV file: wl,n,k rows, or a wl,n block and a wl,k block")->required();
    fit->add_option("--poles", fit_args.poles, "Number of poles, Drude included (default 4)")->check(CLI::Range(1, 12));
    fit->add_flag("--no-drude", fit_args.no_drude, "Lorentz poles only (dielectrics)");
    fit->add_option("--band", fit_args.band, "Wavelength band LO:HI in um (default: all the data)");
    fit->add_option("--id", fit_args.id, "Material id (default fitted)");
    fit->add_option("--name", fit_args.name, "Material name");
    fit->add_flag("--json", fit_args.json, "Print one JSON object");

    BenchOptions bench_req;
    bench_req.nx = bench_req.ny = 4096;
    bench_req.steps = 200;
    int bench_poles = 0;
    std::string bench_backend, bench_size = "4096,4096", bench_precision = "float32", bench_polarization = "TMz";
    bool bench_json = false;
    CLI::App* bench = app.add_subcommand("bench", "Time the update loop on a synthetic domain with CPML on every face");
    bench->add_option("--backend", bench_backend, "cpu or cuda (default: cuda when available)")
        ->check(CLI::IsMember({"cpu", "cuda"}));
    bench->add_option("--dims", bench_req.dims, "2 or 3 (3D: CPU or CUDA backend)")->check(CLI::IsMember({2, 3}));
    bench->add_option("--size", bench_size, "NX,NY cells (default 4096,4096); 3D: NX,NY,NZ (default 128,128,128)");
    bench->add_option("--steps", bench_req.steps, "Time steps to time (default 200)")->check(CLI::PositiveNumber);
    bench->add_option("--precision", bench_precision, "float32 or float64")->check(CLI::IsMember({"float32", "float64"}));
    bench->add_option("--polarization", bench_polarization, "TMz or TEz (default TMz)")->check(CLI::IsMember({"TMz", "TEz"}));
    bench->add_option("--threads", bench_req.threads, "CPU backend threads (0: all cores)")->check(CLI::NonNegativeNumber);
    bench->add_option("--poles", bench_poles, "Synthetic Lorentz poles per dispersive cell (0)")->check(CLI::NonNegativeNumber);
    bench->add_option("--dispersive-material", bench_req.dispersive_material,
                      "Library material (e.g. Au) filling the dispersive cells, instead of --poles");
    bench->add_option("--dispersive-fraction", bench_req.dispersive_fraction,
                      "Fraction of the cells (8x8 blobs) that are dispersive (default 1)")
        ->check(CLI::Range(0.0, 1.0));
    bench->add_option("--frames", bench_req.frames_per_s,
                      "Publish viewport frames (sample_field) at this rate during the timed steps, as the IDE does (0: none)")
        ->check(CLI::NonNegativeNumber);
    bench->add_option("--frame-size", bench_req.frame_size, "Frame samples per side (default 512)")
        ->check(CLI::PositiveNumber);
    bench->add_option("--devices", bench_req.devices,
                      "One grid over N devices (CUDA devices 0..N-1, or N CPU subdomains); default 1")
        ->check(CLI::PositiveNumber);
    bench->add_flag("--same-device", bench_req.same_device,
                    "With --devices N on CUDA: all N slabs on device 0 (the split's and the exchange's cost on one GPU)");
    std::string bench_symmetry;
    bench->add_option("--symmetry", bench_symmetry,
                      "SX,SY[,SZ] mirror planes (-1, 0, 1): step the reduced domain (-1: even interior cells, "
                      "1: odd; interior = size - 32)");
    bool bench_no_monitors = false;
    bench->add_flag("--no-monitors", bench_no_monitors,
                    "Leave out the synthetic scene's flux plane and flux box (the bulk update alone)");
    bench->add_flag("--json", bench_json, "Print one JSON object");

    cli::ExportGdsCommand export_gds_cmd;  // export-gds (cmd_gds.cpp)
    cli::add_export_gds_command(app, export_gds_cmd);
    golightly::cli::SparamsCommand* sparams_cmd = golightly::cli::add_sparams_command(app);  // cmd_sparams.cpp
    golightly::cli::ModesCommand* modes_cmd = golightly::cli::add_modes_command(app);  // cmd_modes.cpp
    golightly::cli::FarFieldCommand* farfield_cmd = golightly::cli::add_farfield_command(app);  // cmd_farfield.cpp
    golightly::cli::ResonancesCommand* resonances_cmd = golightly::cli::add_resonances_command(app);  // cmd_resonances.cpp
    golightly::cli::DiffractionCommand* diffraction_cmd = golightly::cli::add_diffraction_command(app);  // cmd_diffraction.cpp

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);  // prints help (rc 0) or the error and usage
        return rc == 0 ? kExitOk : kExitUsage;
    }

    if (version) {
        std::printf("%s\n", version_banner("golightly-cli").c_str());
        std::printf("CUDA device: %s\n", cuda_available() ? cuda_device_description().c_str()
                                                          : ("none (" + cuda_device_description() + ")").c_str());
        return kExitOk;
    }

    try {
        if (*run) return cmd_run(run_args);
        if (*check) return cmd_check(check_project, check_json, check_params);
        if (const int rc = cli::run_sweep_commands(sweep_commands); rc >= 0) return rc;
        if (*sparams_cmd->sub) return golightly::cli::run_sparams_command(*sparams_cmd);
        if (*modes_cmd->sub) return golightly::cli::run_modes_command(*modes_cmd);
        if (*farfield_cmd->sub) return golightly::cli::run_farfield_command(*farfield_cmd);
        if (*resonances_cmd->sub) return golightly::cli::run_resonances_command(*resonances_cmd);
        if (*diffraction_cmd->sub) return golightly::cli::run_diffraction_command(*diffraction_cmd);
        if (*fit) return cmd_materials_fit(fit_args);
        if (*materials) return cmd_materials(materials_json);
        if (*export_gds_cmd.sub) return cli::run_export_gds(export_gds_cmd);
        if (*bench) {
            const bool three = bench_req.dims == 3;
            if (three && bench->count("--size") == 0) bench_size = "128,128,128";
            bool has_nz = false;
            if (!parse_size(bench_size, bench_req.nx, bench_req.ny, three ? &bench_req.nz : nullptr, &has_nz) ||
                (three && !has_nz)) {
                std::fprintf(stderr, "error: --size: expected %s with positive integers, got '%s'\n",
                             three ? "NX,NY,NZ" : "NX,NY", limits::cap_text(bench_size).c_str());
                return kExitUsage;
            }
            if (!bench_symmetry.empty()) {
                std::istringstream in(bench_symmetry);
                std::string tok;
                int a = 0;
                while (std::getline(in, tok, ',')) {
                    if (a > 2 || (tok != "-1" && tok != "0" && tok != "1")) {
                        std::fprintf(stderr, "error: --symmetry: expected SX,SY[,SZ] of -1, 0, 1, got '%s'\n",
                                     limits::cap_text(bench_symmetry).c_str());
                        return kExitUsage;
                    }
                    bench_req.symmetry[std::size_t(a++)] = std::stoi(tok);
                }
            }
            bench_req.poles = bench_poles;
            bench_req.monitors = !bench_no_monitors;
            bench_req.backend = !bench_backend.empty() ? bench_backend : (cuda_available() ? "cuda" : "cpu");
            bench_req.precision = *parse_precision(bench_precision);
            bench_req.polarization = bench_polarization == "TEz" ? Polarization::TEz : Polarization::TMz;
            return cmd_bench(bench_req, bench_json);
        }
    } catch (const ProjectError& e) {
        return report_project_error(e);
    }  // any other failure: main() reports it (exit 3)
    std::fprintf(stderr, "%s", app.help().c_str());
    std::fprintf(stderr, "error: a command is required (run, check, sweep, optimize, materials or bench)\n");
    return kExitUsage;
}

/// real_main(); an exception that escapes it exits 3 (under MPI: ends every rank).
int guarded_main(int argc, char** argv) {
    try {
        return real_main(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "%serror: out of host memory\n", rank_prefix().c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%serror: %s\n", rank_prefix().c_str(), capped(e.what()).c_str());
    } catch (...) {
        std::fprintf(stderr, "%serror: unknown failure\n", rank_prefix().c_str());
    }
    end_all_ranks(kExitRun);
    return kExitRun;
}

}  // namespace

int main(int argc, char** argv) {
    // --no-mode-cache (anywhere on the line): no mode cache in this process nor in the
    // sparams / sweep children it starts (they inherit the environment); else the mode
    // solves are cached in memory and on disk (mode_cache.hpp, docs/modes-cache.md)
    {
        int kept = 1;
        for (int i = 1; i < argc; ++i) {
            if (std::string(argv[i]) == "--no-mode-cache") {
                ::setenv("GOLIGHTLY_MODE_CACHE", "off", 1);
                continue;
            }
            argv[kept++] = argv[i];
        }
        argc = kept;
        argv[argc] = nullptr;
    }
    set_mode_cache_settings(mode_cache_settings_from_environment());
#ifdef GOLIGHTLY_HAVE_MPI
    // `run` and `optimize --adjoint` under mpirun / srun only: a plain run never initializes
    // MPI, nor do the other commands (sweep and sparams children must not join the MPI job)
    if (mpi::launched_by_mpi() && argc > 1 && (std::string(argv[1]) == "run" || cli::is_adjoint_optimize(argc, argv))) {
        try {
            g_mpi = std::make_unique<mpi::Session>(&argc, &argv);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: %s\n", e.what());
            return kExitRun;
        }
    }
    const int rc = guarded_main(argc, argv);
    g_mpi.reset();  // MPI_Finalize
    return rc;
#else
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
        if (const char* n = std::getenv(v); n && std::atoi(n) > 1) {
            std::fprintf(stderr, "warning: started by an MPI launcher (%s=%s) but this golightly-cli was built "
                         "without MPI: every process runs the whole project (docs/cluster.md)\n", v, n);
            break;
        }
    return guarded_main(argc, argv);
#endif
}
