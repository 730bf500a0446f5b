// golightly-cli sparams (cmd_sparams.hpp).
#include "cmd_sparams.hpp"


#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <regex>
#include <sstream>
#include <thread>

#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "golightly/sparams.hpp"
#include "golightly/sweep.hpp"
#include "golightly/units.hpp"
#include "child_process.hpp"
#include "cli_run_options.hpp"
#include "cmd_sweep.hpp"
#include "out_folder.hpp"


namespace fs = std::filesystem;

namespace golightly::cli {

namespace {

constexpr int kExitOk = 0, kExitUsage = 1, kExitRun = 3;

RunOptions options_of(const SparamsLaunch& l) {
    return run_options_from_flags(l.backend, l.precision, l.threads, l.max_steps);
}

std::vector<std::string> split_commas(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}

/// The visible CUDA devices: CUDA_VISIBLE_DEVICES's entries when set, else /dev/nvidia<N>.
std::vector<std::string> visible_devices() {
    if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) return split_commas(v);
    std::vector<std::string> out;
    std::error_code ec;
    const std::regex dev("nvidia([0-9]+)");
    std::vector<int> ids;
    for (const auto& e : fs::directory_iterator("/dev", ec)) {
        std::smatch m;
        const std::string name = e.path().filename().string();
        if (std::regex_match(name, m, dev)) ids.push_back(std::stoi(m[1].str()));
    }
    std::sort(ids.begin(), ids.end());
    for (std::size_t k = 0; k < ids.size(); ++k) out.push_back(std::to_string(k));  // ordinals 0..n-1
    return out;
}

/// One port-mode run as a child `golightly-cli sparams LABEL --port-mode J ...` on device
/// `device` (CUDA_VISIBLE_DEVICES), output to out/port_<J+1>.log, its run to .json.
RunResult child_run(const std::string& self, const std::string& label, const SparamsLaunch& l, const fs::path& out,
                    std::size_t j, const std::string& device, int threads) {
    const fs::path result = out / ("port_" + std::to_string(j + 1) + ".json");
    const std::string log = (out / ("port_" + std::to_string(j + 1) + ".log")).string();
    std::error_code ec;
    fs::remove(result, ec);
    std::vector<std::string> args = {self, "sparams", label, "--port-mode", std::to_string(j), "--port-mode-result",
                                     result.string()};
    for (const auto& p : l.params) args.insert(args.end(), {"--param", p});
    if (!l.backend.empty()) args.insert(args.end(), {"--backend", l.backend});
    if (!l.precision.empty()) args.insert(args.end(), {"--precision", l.precision});
    if (threads > 0) args.insert(args.end(), {"--threads", std::to_string(threads)});
    if (l.max_steps >= 0) args.insert(args.end(), {"--max-steps", std::to_string(l.max_steps)});
    std::vector<std::string> env = current_environment({"CUDA_VISIBLE_DEVICES"});
    env.push_back("CUDA_VISIBLE_DEVICES=" + device);
    const std::string what = "the run of port-mode " + std::to_string(j + 1);
    const int code = run_child_process(args, env, log, what);
    if (code != 0) throw RunError(what + " exited with code " + std::to_string(code) + " (see " + log + ")");
    std::ifstream f(result);
    if (!f) throw RunError("the run of port-mode " + std::to_string(j + 1) + " left no " + result.string());
    try {
        return port_mode_run_from_json(Json::parse(f));
    } catch (const std::exception& e) {
        throw RunError(result.string() + ": " + e.what());
    }
}

/// The hidden child mode: run port-mode J and write it as JSON.
int run_port_mode_child(const SparamsCommand& c) {
    const Project project = load_project_with(fs::path(c.project), parse_parameter_assignments(c.launch.params));
    RunOptions o = options_of(c.launch);
    const RunResult r = run_port_mode(project, c.project, o, std::size_t(c.port_mode));
    std::ofstream f(c.port_mode_result);
    f << port_mode_run_to_json(r).dump() << "\n";
    if (!f) {
        std::fprintf(stderr, "error: cannot write %s\n", c.port_mode_result.c_str());
        return kExitRun;
    }
    std::printf("port-mode %d: %s after %lld steps, %.1f s\n", c.port_mode + 1, to_string(r.stop_reason).c_str(),
                (long long)r.steps, r.wall_s);
    return kExitOk;
}

}  // namespace

SparamsCommand* add_sparams_command(CLI::App& app) {
    static SparamsCommand c;
    c.sub = app.add_subcommand("sparams", "One run per port and mode; writes sparams.sNp (Touchstone) and sparams.csv");
    c.sub->add_option("PROJECT", c.project, "Project file (.glproj) with top-level \"ports\"")->required();
    c.sub->add_option("--out", c.out, "Results folder (default: <project stem>_sparams next to the project)");
    c.sub->add_option("--backend", c.launch.backend, "Backend: auto, cpu or cuda (default: the project's run.backend)")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
    c.sub->add_option("--precision", c.launch.precision, "float32 or float64 (default: the project's run.precision)")
        ->check(CLI::IsMember({"float32", "float64"}));
    c.sub->add_option("--threads", c.launch.threads, "CPU threads per run (0: all cores)")->check(CLI::NonNegativeNumber);
    c.sub->add_option("--max-steps", c.launch.max_steps, "Stop every run after at most N steps")
        ->check(CLI::NonNegativeNumber);
    c.sub->add_option("--param", c.launch.params, "NAME=VALUE: override a project parameter (repeatable)")
        ->check(parameter_assignment_check());
    c.sub->add_option("--devices", c.launch.devices,
                      "Port-mode runs at a time, one per CUDA device: auto or all (every visible device; 1 on the "
                      "CPU), N, or a list of device ordinals 0,1 (default auto)");
    c.sub->add_option("--concurrent", c.launch.concurrent,
                      "CUDA port-mode runs at a time on each device, as threads of this process: N (1-64) or "
                      "auto (as many as fit in the free device memory, at most 8; default 1)");
    c.sub->add_option("--port-mode", c.port_mode)->group("")->check(CLI::NonNegativeNumber);
    c.sub->add_option("--port-mode-result", c.port_mode_result)->group("");
    return &c;
}

std::vector<std::string> sparams_workers(const std::string& devices, bool cpu_backend, std::size_t jobs) {
    const std::vector<std::string> visible = visible_devices();
    std::vector<std::string> out;
    const std::string d = devices.empty() ? "auto" : devices;
    if (d == "auto" || d == "all") {
        if (!cpu_backend) out = visible;
    } else if (d.find(',') == std::string::npos) {
        std::size_t used = 0;
        int n = 0;
        try {
            n = std::stoi(d, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != d.size() || n < 1 || n > 64)
            throw std::invalid_argument("--devices " + d + ": expected auto, all, a count 1..64 or a list of device ordinals");
        for (int k = 0; k < n; ++k) out.push_back(std::size_t(k) < visible.size() ? visible[std::size_t(k)] : std::to_string(k));
    } else {
        const bool mapped = std::getenv("CUDA_VISIBLE_DEVICES") != nullptr;
        for (const std::string& item : split_commas(d)) {
            std::size_t used = 0;
            int k = -1;
            try {
                k = std::stoi(item, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != item.size() || k < 0 || k > 63)
                throw std::invalid_argument("--devices " + d + ": \"" + item + "\" is not a device ordinal");
            if (mapped && std::size_t(k) >= visible.size())
                throw std::invalid_argument("--devices " + d + ": device " + item + " is not visible (CUDA_VISIBLE_DEVICES)");
            out.push_back(mapped ? visible[std::size_t(k)] : std::to_string(k));
        }
    }
    if (out.empty()) out.push_back(visible.empty() ? "0" : visible[0]);
    if (out.size() > std::max<std::size_t>(jobs, 1)) out.resize(std::max<std::size_t>(jobs, 1));
    return out;
}

int run_sparams_command(const SparamsCommand& c) {
    if (c.port_mode >= 0) return run_port_mode_child(c);
    const fs::path file(c.project);
    Project project = load_project_with(file, parse_parameter_assignments(c.launch.params));  // ProjectError -> exit 2
    if (c.launch.backend == "auto") project.run.backend = BackendChoice::Auto;
    if (c.launch.backend == "cpu") project.run.backend = BackendChoice::Cpu;
    if (c.launch.backend == "cuda") project.run.backend = BackendChoice::Cuda;
    check_runnable(project, c.project);
    parse_ports(project, c.project);  // ProjectError before any run
    const fs::path out = c.out.empty() ? file.parent_path() / (file.stem().string() + "_sparams") : fs::path(c.out);
    if (!results_folder_writable(out)) return 2;  // as an invalid project, before any run
    return run_sparams_project(project, c.project, out, options_of(c.launch), c.launch);
}

SparamsLaunch sparams_launch_of_run(const Project& project, const std::vector<std::string>& params,
                                    const std::string& backend, const std::string& precision, int threads,
                                    long long max_steps) {
    SparamsLaunch l{"auto", params, backend, precision, threads, max_steps};
    if (const auto d = project.run.extra.find("devices"); d != project.run.extra.end()) {
        if (d->is_string()) {
            l.devices = d->get<std::string>();
        } else if (d->is_number_integer()) {
            l.devices = std::to_string(d->get<long long>());
        } else if (d->is_array()) {
            l.devices.clear();
            for (const Json& k : *d) l.devices += (l.devices.empty() ? "" : ",") + (k.is_number_integer() ? k.dump() : "?");
            if (d->size() == 1) l.devices += ",";  // one ordinal: a list, not a count
        }
    }
    return l;
}

bool sparameters_requested(const Project& project) {
    const auto it = project.run.extra.find("sparameters");
    return it != project.run.extra.end() && it->is_boolean() && it->get<bool>();
}

int run_sparams_project(const Project& project, const std::string& label, const fs::path& out,
                        const RunOptions& opts, const SparamsLaunch& launch) {
    const std::size_t jobs = port_modes(parse_ports(project, label)).size();
    const BackendChoice backend = opts.backend ? *opts.backend : project.run.backend;
    std::vector<std::string> workers;
    try {
        workers = sparams_workers(launch.devices, backend == BackendChoice::Cpu || !cuda_available(), jobs);
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
    }
    // --concurrent: several port-mode runs share each CUDA device as threads of this process
    DevicePlan plan;
    try {
        const int concurrent = parse_concurrent(launch.concurrent);
        const bool cuda = backend != BackendChoice::Cpu && cuda_available();
        if (concurrent != 1 && !cuda) {
            std::fprintf(stderr,
                         "warning: --concurrent applies to CUDA runs; CPU runs share the cores by --devices N\n");
        } else if (concurrent != 1) {
            plan = plan_devices(launch.devices, cuda_device_count(), std::getenv("CUDA_VISIBLE_DEVICES"), true,
                                launch.threads);
            if (concurrent > 0) {
                plan.concurrent = concurrent;
            } else {
                const Precision precision = opts.precision ? *opts.precision : project.run.precision;
                std::size_t free_b = std::numeric_limits<std::size_t>::max();
                for (int k : plan.ordinals) free_b = std::min(free_b, cuda_memory_free(k));
                plan.concurrent = auto_concurrency(port_mode_state_bytes(project, label, precision), free_b,
                                                   int(std::max(1u, std::thread::hardware_concurrency())));
            }
        }
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return kExitUsage;
    }
    SParameters s;
    try {
        fs::create_directories(out);
        PortModeRunner runner;
        if (plan.threaded()) {
            const std::size_t n = std::min<std::size_t>(std::size_t(plan.workers()), std::max<std::size_t>(jobs, 1));
            workers.assign(n, std::string());
            for (std::size_t w = 0; w < workers.size(); ++w) workers[w] = std::to_string(plan.ordinal_of(int(w)));
            std::printf("sparams: %zu port-mode runs, %d at a time on each CUDA device (threads of this process)\n",
                        jobs, plan.concurrent);
            std::fflush(stdout);
            runner = in_process_port_mode_runner(project, label, opts, plan);
        } else if (workers.size() > 1) {
            const std::string self = fs::read_symlink("/proc/self/exe").string();
            int threads = launch.threads;
            if (threads <= 0 && (backend == BackendChoice::Cpu || !cuda_available()))
                threads = std::max(1, int(std::thread::hardware_concurrency() / workers.size()));
            runner = [&, self, threads](std::size_t j, int w) {
                std::printf("port-mode %zu/%zu on device %s\n", j + 1, jobs, workers[std::size_t(w)].c_str());
                std::fflush(stdout);
                return child_run(self, label, launch, out, j, workers[std::size_t(w)], threads);
            };
        }
        s = run_sparameters(project, label, opts, 0.02, 0.02, runner, int(workers.size()));
    } catch (const ProjectError&) {
        throw;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s: S-parameter run failed: %s\n", label.c_str(), e.what());
        return kExitRun;
    }
    try {
        const fs::path snp = out / ("sparams.s" + std::to_string(s.labels.size()) + "p");
        write_touchstone(snp, s);
        write_sparams_csv(out / "sparams.csv", s);
        std::printf("%s: %zu port-modes, %zu runs on %zu worker(s); wrote %s and %s\n", label.c_str(), s.labels.size(),
                    s.runs.size(), workers.size(), snp.string().c_str(), (out / "sparams.csv").string().c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "error: %s: cannot write the S-parameters: %s\n", out.string().c_str(), e.what());
        return kExitRun;
    }
    for (const auto& w : s.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    return kExitOk;
}

}  // namespace golightly::cli
