// GoLightly: parameter sweeps (sweep.hpp): the design grid, the device queue, the
// per-design folders, resuming, and sweep.csv.
#include "golightly/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "golightly/errors.hpp"
#include "golightly/limits.hpp"
#include "golightly/objective.hpp"
#include "golightly/parameters.hpp"
#include "golightly/results.hpp"
#include "golightly/safe_read.hpp"
#include "sweep_internal.hpp"

namespace golightly {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxDesigns = 100000;

std::string trim(const std::string& s) {
    const auto a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return {};
    const auto b = s.find_last_not_of(" \t");
    return s.substr(a, b - a + 1);
}

/// A --param value: a plain number, else an expression with units over `variables`.
double parse_value(const std::string& text, const std::string& arg,
                   const std::vector<std::pair<std::string, double>>& variables) {
    const std::string s = trim(text);
    std::size_t used = 0;
    double v = 0;
    try {
        v = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used > 0 && used == s.size() && std::isfinite(v)) return v;
    if (s.empty())
        throw std::invalid_argument("--param " + limits::cap_text(arg) + ": a value is empty");
    if (!expressions_available())
        throw std::invalid_argument("--param " + limits::cap_text(arg) + ": \"" + limits::cap_text(s) +
                                    "\" is not a number (units and expressions need a build with muparser)");
    try {
        return evaluate_expression(s, variables);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("--param " + limits::cap_text(arg) + ": \"" + limits::cap_text(s) + "\": " + e.what());
    }
}

std::pair<std::string, std::string> split_assignment(const std::string& arg) {
    const auto eq = arg.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("--param " + limits::cap_text(arg) + ": expected NAME=...");
    std::string name = trim(arg.substr(0, eq));
    if (!valid_parameter_name(name))
        throw std::invalid_argument("--param " + limits::cap_text(arg) + ": \"" + limits::cap_text(name) +
                                    "\" is not a valid parameter name");
    return {name, arg.substr(eq + 1)};
}

/// Splits `s` at `sep` outside parentheses; for ':' a separator that closes a ternary
/// "c ? a : b" at the same depth does not split.
std::vector<std::string> split_top(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0, pending_ternary = 0;
    for (char c : s) {
        if (c == '(') ++depth;
        if (c == ')') depth = std::max(0, depth - 1);
        if (depth == 0 && c == '?') ++pending_ternary;
        if (depth == 0 && c == sep) {
            if (sep == ':' && pending_ternary > 0) {
                --pending_ternary;
            } else {
                out.push_back(cur);
                cur.clear();
                continue;
            }
        }
        cur += c;
    }
    out.push_back(cur);
    return out;
}

/// The position of the first ".." outside parentheses, npos when none.
std::size_t find_top_dots(const std::string& s) {
    int depth = 0;
    for (std::size_t i = 0; i + 1 < s.size(); ++i) {
        if (s[i] == '(') ++depth;
        if (s[i] == ')') depth = std::max(0, depth - 1);
        if (depth == 0 && s[i] == '.' && s[i + 1] == '.') return i;
    }
    return std::string::npos;
}

std::string stop_reason_of(const fs::path& summary) {
    try {
        const std::string text = read_regular_file(summary, 16u << 20);
        const Json j = Json::parse(text);
        return j.value("stop_reason", std::string());
    } catch (const std::exception&) {
        return {};
    }
}

}  // namespace

namespace detail {

std::vector<std::string> csv_split(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cur += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r') {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c == '\n' || c == '\r' ? ' ' : c;
    }
    return q + "\"";
}

std::string csv_number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

std::string design_text(const Project& design) { return project_to_json(design).dump(2) + "\n"; }

std::string folder_name(const std::string& prefix, std::size_t index, std::size_t count) {
    int digits = 4;
    for (std::size_t n = 10000; n < count; n *= 10) ++digits;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%s_%0*zu", prefix.c_str(), digits, index);
    return buf;
}

bool prepare_design_folder(const fs::path& dir, const Project& design) {
    if (design_complete(dir, design)) return true;
    fs::create_directories(dir);
    std::error_code ec;
    fs::remove(dir / "summary.json", ec);  // a stale summary must not mark this design complete
    write_file_atomic(dir / "design.glproj", design_text(design));
    return false;
}

ParameterOverrides overrides_of(const std::vector<std::string>& names, const std::vector<double>& values) {
    ParameterOverrides o;
    for (std::size_t i = 0; i < names.size(); ++i) o.emplace_back(names[i], parameter_text(values[i]));
    return o;
}

}  // namespace detail

std::vector<std::pair<std::string, double>> parameter_values(const Project& project) {
    std::vector<std::pair<std::string, double>> v;
    for (const auto& p : project.parameters) v.emplace_back(p.name, p.value);
    return v;
}

SweepParameter parse_sweep_parameter(const std::string& arg, const std::vector<std::pair<std::string, double>>& variables) {
    auto [name, spec] = split_assignment(arg);
    SweepParameter p;
    p.name = name;
    const auto range = split_top(spec, ':');
    if (range.size() > 1) {
        if (range.size() != 3)
            throw std::invalid_argument("--param " + limits::cap_text(arg) + ": expected NAME=LO:HI:N");
        const double lo = parse_value(range[0], arg, variables), hi = parse_value(range[1], arg, variables);
        const double n = parse_value(range[2], arg, variables);
        if (n < 1 || n != std::floor(n) || n > double(kMaxDesigns))
            throw std::invalid_argument("--param " + limits::cap_text(arg) + ": N must be an integer from 1 to " +
                                        std::to_string(kMaxDesigns));
        const auto count = static_cast<std::size_t>(n);
        for (std::size_t i = 0; i < count; ++i)
            p.values.push_back(count == 1 ? lo : lo + (hi - lo) * double(i) / double(count - 1));
        if (count > 1) p.values.back() = hi;
    } else {
        for (const auto& v : split_top(spec, ',')) p.values.push_back(parse_value(v, arg, variables));
    }
    return p;
}

BoundParameter parse_bound_parameter(const std::string& arg, const std::vector<std::pair<std::string, double>>& variables) {
    auto [name, spec] = split_assignment(arg);
    const auto dots = find_top_dots(spec);
    if (dots == std::string::npos) throw std::invalid_argument("--param " + limits::cap_text(arg) + ": expected NAME=LO..HI");
    BoundParameter b;
    b.name = name;
    b.lo = parse_value(spec.substr(0, dots), arg, variables);
    b.hi = parse_value(spec.substr(dots + 2), arg, variables);
    if (!(b.lo < b.hi)) throw std::invalid_argument("--param " + limits::cap_text(arg) + ": LO must be below HI");
    return b;
}

std::vector<std::vector<double>> sweep_grid(const std::vector<SweepParameter>& parameters) {
    std::size_t count = 1;
    for (const auto& p : parameters) {
        if (p.values.empty()) throw std::invalid_argument("parameter " + p.name + " has no values");
        count *= p.values.size();
        if (count > kMaxDesigns)
            throw std::invalid_argument("the sweep has more than " + std::to_string(kMaxDesigns) + " designs");
    }
    std::vector<std::vector<double>> designs;
    if (parameters.empty()) return designs;
    designs.reserve(count);
    for (std::size_t d = 0; d < count; ++d) {
        std::vector<double> row(parameters.size());
        std::size_t rest = d;
        for (std::size_t p = parameters.size(); p-- > 0;) {  // last parameter fastest
            row[p] = parameters[p].values[rest % parameters[p].values.size()];
            rest /= parameters[p].values.size();
        }
        designs.push_back(std::move(row));
    }
    return designs;
}

void run_job_queue(std::size_t jobs, int workers, const std::function<void(std::size_t job, int worker)>& run_job,
                   const std::atomic<bool>* cancel) {
    workers = std::max(1, workers);
    std::mutex mutex;
    std::size_t next = 0;
    std::exception_ptr error;
    auto worker_loop = [&](int w) {
        while (true) {
            std::size_t job = 0;
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (error || next >= jobs || (cancel && cancel->load())) return;
                job = next++;
            }
            try {
                run_job(job, w);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex);
                if (!error) error = std::current_exception();
                return;
            }
        }
    };
    if (workers == 1) {
        worker_loop(0);
    } else {
        std::vector<std::thread> threads;
        for (int w = 0; w < workers; ++w) threads.emplace_back(worker_loop, w);
        for (auto& t : threads) t.join();
    }
    if (error) std::rethrow_exception(error);
}

DevicePlan plan_devices(const std::string& spec_in, int visible, const char* parent_mask, bool use_cuda,
                        int cpu_threads) {
    const std::string spec = trim(spec_in);
    const std::string opt = "--devices " + limits::cap_text(spec) + ": ";
    visible = std::max(0, visible);
    if (cpu_threads <= 0) cpu_threads = int(std::max(1u, std::thread::hardware_concurrency()));
    DevicePlan plan;
    std::vector<std::string> mask;
    if (parent_mask) {
        for (auto& e : split_top(parent_mask, ',')) mask.push_back(trim(e));
    }
    auto add_device = [&](int k) {
        if (parent_mask && std::size_t(k) >= mask.size())
            throw std::invalid_argument(opt + "device " + std::to_string(k) + " is not in CUDA_VISIBLE_DEVICES=" +
                                        limits::cap_text(parent_mask));
        plan.ordinals.push_back(k);
        plan.devices.push_back(parent_mask ? mask[std::size_t(k)] : std::to_string(k));
    };
    const std::string none = visible == 0 ? "no CUDA device is visible" : "the runs use the CPU backend";
    if (spec.empty() || spec == "auto" || spec == "all") {
        if (use_cuda && visible > 0) {
            for (int k = 0; k < visible; ++k) add_device(k);
        } else if (spec == "all") {
            throw std::invalid_argument(opt + none + " (use a number of CPU workers, e.g. --devices 2)");
        } else {
            plan.cpu_workers = 1;
            plan.threads_per_worker = cpu_threads;
        }
        return plan;
    }
    const bool list = spec.find(',') != std::string::npos;
    std::vector<int> numbers;
    for (const auto& item : split_top(spec, ',')) {
        const std::string t = trim(item);
        if (t.empty() && list) continue;  // "2," names device 2 alone
        if (t.empty() || t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos)
            throw std::invalid_argument(opt + "expected auto, all, a number of workers or device ordinals such as 0,2");
        numbers.push_back(std::stoi(t));
    }
    if (numbers.empty()) throw std::invalid_argument(opt + "no device ordinal given");
    if (!list) {
        const int n = numbers[0];
        if (n < 1 || n > 64) throw std::invalid_argument(opt + "the number of workers must be 1 to 64");
        if (use_cuda && visible > 0) {
            if (n > visible)
                throw std::invalid_argument(opt + "only " + std::to_string(visible) + " CUDA device" +
                                            (visible == 1 ? " is" : "s are") + " visible");
            for (int k = 0; k < n; ++k) add_device(k);
        } else {
            plan.cpu_workers = n;
            plan.threads_per_worker = std::max(1, cpu_threads / n);
        }
        return plan;
    }
    if (!use_cuda || visible == 0)
        throw std::invalid_argument(opt + "names CUDA devices, but " + none);
    for (int k : numbers) {
        if (k >= visible)
            throw std::invalid_argument(opt + "device " + std::to_string(k) + " does not exist (" +
                                        std::to_string(visible) + " visible: 0 to " + std::to_string(visible - 1) + ")");
        if (std::find(plan.ordinals.begin(), plan.ordinals.end(), k) != plan.ordinals.end())
            throw std::invalid_argument(opt + "device " + std::to_string(k) + " is named twice");
        add_device(k);
    }
    return plan;
}

std::vector<std::string> child_environment(const std::vector<std::string>& parent, const DevicePlan& plan, int worker) {
    std::vector<std::string> env;
    const bool cuda = !plan.devices.empty();
    for (const auto& e : parent)
        if (!cuda || e.rfind("CUDA_VISIBLE_DEVICES=", 0) != 0) env.push_back(e);
    if (cuda) {
        if (worker < 0 || std::size_t(worker) >= plan.devices.size())
            throw std::invalid_argument("child_environment: worker " + std::to_string(worker) + " out of range");
        env.push_back("CUDA_VISIBLE_DEVICES=" + plan.devices[std::size_t(worker)]);
    }
    return env;
}

int parse_concurrent(const std::string& spec_in) {
    const std::string spec = trim(spec_in);
    if (spec.empty() || spec == "auto") return 0;
    if (spec.size() > 3 || spec.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("--concurrent " + limits::cap_text(spec) + ": expected auto or a number of runs per device");
    const int n = std::stoi(spec);
    if (n < 1 || n > 64)
        throw std::invalid_argument("--concurrent " + spec + ": the number of runs per device must be 1 to 64");
    return n;
}

int auto_concurrency(std::size_t run_bytes, std::size_t free_bytes, int host_cores, std::size_t context_bytes) {
    const double per_run = double(run_bytes) + double(context_bytes);
    const int by_memory = int(std::floor(0.8 * double(free_bytes) / std::max(1.0, per_run)));
    return std::max(1, std::min({8, by_memory, std::max(1, host_cores)}));
}

std::vector<RunOptions> per_device_options(const RunOptions& options, const DevicePlan& plan) {
    std::vector<RunOptions> out;
    for (int k : plan.ordinals) {
        RunOptions o = options;
        DeviceSelection d;
        d.kind = DeviceSelection::Kind::List;
        d.ordinals = {k};
        o.devices = d;
        out.push_back(std::move(o));
    }
    if (out.empty()) out.push_back(options);
    return out;
}

DesignRunner in_process_runner(const RunOptions& options, const DevicePlan& plan) {
    if (!plan.threaded()) return in_process_runner(options);
    std::vector<DesignRunner> per_device;
    for (const RunOptions& o : per_device_options(options, plan)) per_device.push_back(in_process_runner(o));
    return [per_device](const Project& design, const std::string& label, const ParameterOverrides& overrides,
                        const fs::path& dir, int worker) {
        per_device[std::size_t(worker) % per_device.size()](design, label, overrides, dir, worker);
    };
}

DesignRunner in_process_runner(const RunOptions& options) {
    return [options](const Project& design, const std::string& label, const ParameterOverrides&, const fs::path& dir,
                     int) {
        RunResult result;
        try {
            result = run_project(design, label, options);
        } catch (const ProjectError&) {
            throw;
        } catch (const std::exception& e) {
            try {
                write_failure_summary(dir, design, e.what(), {});
            } catch (...) {
            }
            throw;
        }
        write_results(dir, design, result);
        if (result.stop_reason == StopReason::Diverged)
            throw RunError(result.divergence ? divergence_message(*result.divergence, result.dimensions)
                                             : std::string("the fields diverged"));
        if (result.stop_reason == StopReason::Cancelled) throw RunError("cancelled");
    };
}

double SpectraTable::at(const std::string& name, double wl) const {
    std::size_t m = 0;
    while (m < monitors.size() && monitors[m] != name) ++m;
    if (m == monitors.size()) throw std::invalid_argument("no flux or flux_box monitor named \"" + limits::cap_text(name) + "\"");
    const auto& v = values[m];
    const std::size_t n = wavelength_um.size();
    if (n == 0) throw std::invalid_argument("the spectrum is empty");
    double lo = wavelength_um[0], hi = wavelength_um[0];
    for (double w : wavelength_um) {
        lo = std::min(lo, w);
        hi = std::max(hi, w);
    }
    const double eps = 1e-9 * hi;
    if (wl < lo - eps || wl > hi + eps) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%g um is outside the run's spectrum (%g to %g um)", wl, lo, hi);
        throw std::invalid_argument(buf);
    }
    if (n == 1) return v[0];
    // Rows are in increasing frequency: wavelengths decrease; find the bracketing pair.
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const double a = wavelength_um[i], b = wavelength_um[i + 1];
        if ((wl <= a + eps && wl >= b - eps) || (wl >= a - eps && wl <= b + eps)) {
            if (a == b) return v[i];
            const double t = std::clamp((wl - a) / (b - a), 0.0, 1.0);
            return v[i] + t * (v[i + 1] - v[i]);
        }
    }
    return v[n - 1];
}

SpectraTable read_spectra_csv(const fs::path& file) {
    std::string text;
    try {
        text = read_regular_file(file, limits::kMaxProjectFileBytes);
    } catch (const std::exception& e) {
        throw std::runtime_error(file.string() + ": " + e.what());
    }
    std::istringstream in(text);
    std::string line;
    if (!std::getline(in, line)) throw std::runtime_error(file.string() + ": empty");
    const auto header = detail::csv_split(line);
    if (header.size() < 2 || header[0] != "wavelength_um" || (header.size() - 2) % 2 != 0)
        throw std::runtime_error(file.string() + ": not a GoLightly spectra.csv (header)");
    SpectraTable t;
    const std::size_t m = (header.size() - 2) / 2;
    t.monitors.assign(header.begin() + 2, header.begin() + 2 + std::ptrdiff_t(m));
    t.values.resize(m);
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto cells = detail::csv_split(line);
        if (cells.size() != header.size()) throw std::runtime_error(file.string() + ": a row has the wrong number of columns");
        auto num = [&](const std::string& s) {
            if (s == "nan") return std::nan("");
            try {
                return std::stod(s);
            } catch (const std::exception&) {
                throw std::runtime_error(file.string() + ": \"" + limits::cap_text(s) + "\" is not a number");
            }
        };
        t.wavelength_um.push_back(num(cells[0]));
        for (std::size_t k = 0; k < m; ++k) t.values[k].push_back(num(cells[2 + k]));
    }
    return t;
}

bool design_complete(const fs::path& dir, const Project& design) {
    std::error_code ec;
    if (!fs::is_regular_file(dir / "summary.json", ec) || !fs::is_regular_file(dir / "spectra.csv", ec)) return false;
    const std::string reason = stop_reason_of(dir / "summary.json");
    if (reason != "decay" && reason != "max_time" && reason != "max_steps") return false;
    try {
        return read_regular_file(dir / "design.glproj", limits::kMaxProjectFileBytes) == detail::design_text(design);
    } catch (const std::exception&) {
        return false;
    }
}

SweepReport run_sweep(const Project& project, const std::string& label, const std::vector<SweepParameter>& parameters,
                      const SweepOptions& options) {
    if (parameters.empty()) throw std::invalid_argument("a sweep needs at least one --param NAME=LO:HI:N");
    const auto designs = sweep_grid(parameters);
    std::vector<std::string> names;
    for (const auto& p : parameters) names.push_back(p.name);

    std::vector<double> at = options.at_um;
    if (at.empty()) at.push_back(0.5 * (project.run.spectrum.wavelength_min + project.run.spectrum.wavelength_max));
    std::vector<std::string> monitors;
    for (const auto& m : project.monitors)
        if (m.type == MonitorType::Flux || m.type == MonitorType::FluxBox) monitors.push_back(m.name);

    // Every design is built (and validated) before any runs: a bad value fails at once.
    std::vector<Project> projects;
    projects.reserve(designs.size());
    for (const auto& d : designs) projects.push_back(with_parameters(project, detail::overrides_of(names, d), label));

    // Objectives: parsed and checked (names, syntax, wavelengths) before any run.
    std::vector<ObjectiveSpec> specs;
    std::vector<std::vector<ObjectiveFunction>> functions;
    for (const auto& text : options.objectives) {
        const auto variables = parameter_values(projects.front());
        try {
            specs.push_back(parse_objective(text, variables));
            functions.push_back(objective_functions(project, specs.back().expression, label));
            check_objective(specs.back(), functions.back(), projects.front(), variables);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument("--" + std::string(e.what()));
        }
    }

    SweepReport report;
    report.designs = designs.size();
    report.columns.push_back("design");
    for (const auto& n : names) report.columns.push_back(n);
    for (const auto& m : monitors)
        for (double w : at) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", w);
            report.columns.push_back(m + "@" + buf);
        }
    for (const auto& text : options.objectives) report.columns.push_back(text);
    report.columns.push_back("status");
    const std::size_t nvalues = monitors.size() * at.size() + options.objectives.size();
    report.rows.assign(designs.size(), std::vector<double>());
    std::vector<std::string> status(designs.size());

    fs::create_directories(options.out);
    const DesignRunner runner = options.runner ? options.runner : in_process_runner({});
    std::mutex mutex;

    auto write_csv = [&]() {  // under `mutex`
        std::ostringstream out;
        for (std::size_t c = 0; c < report.columns.size(); ++c)
            out << (c ? "," : "") << detail::csv_field(report.columns[c]);
        out << '\n';
        for (std::size_t d = 0; d < designs.size(); ++d) {
            if (status[d].empty()) continue;
            out << d;
            for (double v : designs[d]) out << ',' << detail::csv_number(v);
            for (double v : report.rows[d]) out << ',' << detail::csv_number(v);
            out << ',' << detail::csv_field(status[d]) << '\n';
        }
        write_file_atomic(options.out / "sweep.csv", out.str());
    };

    // Fills `v` (nvalues entries, nan when not read) in column order; throws what the
    // first value that cannot be read throws.
    auto values_of = [&](const fs::path& dir, std::size_t d, std::vector<double>& v) {
        const SpectraTable t = read_spectra_csv(dir / "spectra.csv");
        std::size_t k = 0;
        for (const auto& m : monitors)
            for (double w : at) v[k++] = t.at(m, w);
        ObjectiveResults results(dir);
        for (std::size_t o = 0; o < specs.size(); ++o) {
            try {
                v[k++] = evaluate_objective(specs[o], functions[o], results, parameter_values(projects[d]), false).value;
            } catch (const std::invalid_argument& e) {  // this design's values (e.g. 1 / 0): its own failure
                throw std::runtime_error("objective \"" + limits::cap_text(options.objectives[o]) + "\": " + e.what());
            }
        }
    };

    run_job_queue(
        designs.size(), options.workers,
        [&](std::size_t d, int worker) {
            const fs::path dir = options.out / detail::folder_name("design", d, designs.size());
            const bool reused = detail::prepare_design_folder(dir, projects[d]);
            std::string st = reused ? "reused" : "ok";
            std::vector<double> values(nvalues, std::nan(""));
            try {
                if (!reused) runner(projects[d], label, detail::overrides_of(names, designs[d]), dir, worker);
                values_of(dir, d, values);
            } catch (const std::invalid_argument&) {
                throw;  // a wavelength outside the spectrum: the same for every design
            } catch (const std::exception& e) {
                st = "failed: " + limits::cap_text(e.what(), 300);
            }
            std::lock_guard<std::mutex> lock(mutex);
            report.rows[d] = values;
            status[d] = st;
            if (reused) ++report.skipped;
            else if (st == "ok") ++report.ran;
            else ++report.failed;
            write_csv();
            if (options.log) {
                std::string line = "design " + std::to_string(d + 1) + "/" + std::to_string(designs.size()) + ":";
                for (std::size_t p = 0; p < names.size(); ++p) line += " " + names[p] + "=" + detail::csv_number(designs[d][p]);
                for (std::size_t k = 0; k < nvalues; ++k)
                    line += " " + report.columns[1 + names.size() + k] + "=" + detail::csv_number(values[k]);
                line += " (" + st + ")";
                options.log(line);
            }
        },
        options.cancel);
    for (std::size_t d = 0; d < designs.size(); ++d)
        if (status[d].empty()) {
            report.cancelled = true;
            report.rows[d].assign(nvalues, std::nan(""));
        }
    return report;
}

}  // namespace golightly
