// GoLightly run driver: the devices a run asks for and the one backend chooser
// (make_engine, run.hpp; docs/architecture.md "Choosing a backend").
#include "golightly/cuda_device.hpp"
#include "golightly/run.hpp"
#include "golightly/symmetric_engine.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "golightly/capabilities.hpp"
#include "golightly/distributed.hpp"
#include "golightly/errors.hpp"
#include "golightly/partition.hpp"
#include "golightly/scene.hpp"

namespace golightly {

DeviceSelection parse_device_selection(const std::string& text) {
    DeviceSelection d;
    if (text == "auto") return d;
    if (text == "all") {
        d.kind = DeviceSelection::Kind::All;
        return d;
    }
    if (text.empty()) throw std::invalid_argument("expected auto, all, a device count or a list such as 0,1");
    if (text.find(',') == std::string::npos) {
        std::size_t used = 0;
        int n = 0;
        try {
            n = std::stoi(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != text.size() || n < 1 || n > 4096)
            throw std::invalid_argument("'" + text + "' is not auto, all, a device count (1..4096) or a list such as 0,1");
        d.kind = DeviceSelection::Kind::Count;
        d.count = n;
        return d;
    }
    d.kind = DeviceSelection::Kind::List;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        std::size_t used = 0;
        int v = -1;
        try {
            v = std::stoi(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (item.empty() || used != item.size() || v < 0 || v > 4095)
            throw std::invalid_argument("'" + item + "' in the device list '" + text + "' is not a device ordinal");
        if (std::find(d.ordinals.begin(), d.ordinals.end(), v) != d.ordinals.end())
            throw std::invalid_argument("device " + item + " appears twice in '" + text + "'");
        d.ordinals.push_back(v);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    d.count = int(d.ordinals.size());
    return d;
}

DeviceSelection project_devices(const Project& project, const std::string& file_label) {
    const auto it = project.run.extra.find("devices");
    if (it == project.run.extra.end() || it->is_null()) return {};
    const Json& v = *it;
    try {
        if (v.is_string()) return parse_device_selection(v.get<std::string>());
        if (v.is_number_integer()) return parse_device_selection(std::to_string(v.get<long long>()));
        if (v.is_array()) {
            std::string list;
            for (const Json& x : v) {
                if (!x.is_number_integer()) throw std::invalid_argument("a device list holds integer ordinals");
                list += (list.empty() ? "" : ",") + std::to_string(x.get<long long>());
            }
            if (list.empty()) throw std::invalid_argument("the device list is empty");
            if (list.find(',') == std::string::npos) list += ",";  // one ordinal: still a list
            DeviceSelection d = parse_device_selection(list.back() == ',' ? list.substr(0, list.size() - 1) : list);
            if (d.kind == DeviceSelection::Kind::Count) {  // "[1]": device 1, not one device
                d.kind = DeviceSelection::Kind::List;
                d.ordinals = {d.count};
                d.count = 1;
            }
            return d;
        }
        throw std::invalid_argument("expected \"auto\", \"all\", a device count or a list of device ordinals");
    } catch (const std::invalid_argument& e) {
        throw ProjectError(file_label, "run.devices", e.what());
    }
}

namespace {

/// The CUDA ordinals of a selection on this machine (RunError when it asks for more than
/// there is). auto: one device per kAutoCellsPerDevice cells, at most all.
std::vector<int> cuda_ordinals(const DeviceSelection& d, std::int64_t cells) {
    const int visible = cuda_device_count();
    std::vector<int> out;
    switch (d.kind) {
        case DeviceSelection::Kind::Auto: {
            const std::int64_t want = std::max<std::int64_t>(1, cells / kAutoCellsPerDevice);
            for (int k = 0; k < std::min<std::int64_t>(want, std::max(1, visible)); ++k) out.push_back(k);
            break;
        }
        case DeviceSelection::Kind::All:
            for (int k = 0; k < std::max(1, visible); ++k) out.push_back(k);
            break;
        case DeviceSelection::Kind::Count:
            if (d.count > visible)
                throw RunError("run.devices asks for " + std::to_string(d.count) + " CUDA devices but " +
                               std::to_string(visible) + " are visible");
            for (int k = 0; k < d.count; ++k) out.push_back(k);
            break;
        case DeviceSelection::Kind::List:
            for (int k : d.ordinals) {
                if (k >= visible)
                    throw RunError("run.devices names CUDA device " + std::to_string(k) + " but " +
                                   std::to_string(visible) + " are visible (ordinals 0.." +
                                   std::to_string(visible - 1) + ")");
                out.push_back(k);
            }
            break;
    }
    return out;
}

std::unique_ptr<Engine> make_cuda_on(const SceneView& scene, Precision precision, const std::vector<int>& ordinals) {
    if (ordinals.size() == 1) return make_cuda_engine(scene, precision, ordinals[0]);
    std::vector<SubdomainDevice> devs;
    for (int k : ordinals) {
        SubdomainDevice d;
        d.cuda = true;
        d.ordinal = k;
        devs.push_back(d);
    }
    return make_distributed_engine(scene, precision, devs);
}

bool several_devices(const DeviceSelection& d) {
    return (d.kind == DeviceSelection::Kind::Count && d.count > 1) ||
           (d.kind == DeviceSelection::Kind::List && d.ordinals.size() > 1);
}

/// The CUDA engine(s) of a selection: one device unless it names several.
std::unique_ptr<Engine> make_cuda_engines(const SceneView& scene, Precision precision, const DeviceSelection& devices) {
    std::vector<int> ordinals = cuda_ordinals(devices, std::int64_t(scene->cells()));
    // A Bloch phase along the axis the distributed engine cuts: devices auto keeps it on one
    // device (its complex halos travel between steps, not behind them, and no multi-GPU
    // timing of it exists); a selection naming several splits it (the wrap halos rotated).
    if (scene->complex_fields && scene->bloch_phase[partition_axis(*scene)] != 0 &&
        devices.kind == DeviceSelection::Kind::Auto)
        ordinals.resize(1);
    // Device 0 picked by count or auto rather than named: the current device, as
    // make_cuda_engine(scene, precision) takes it (a list's "0" selects device 0).
    if (ordinals.size() == 1 && ordinals[0] == 0 && devices.kind != DeviceSelection::Kind::List)
        return make_cuda_engine(scene, precision);
    return make_cuda_on(scene, precision, ordinals);
}

/// The CPU engine of a selection: one engine, or for several devices that many subdomains
/// in this process (which checks a decomposition without a GPU; it is no faster).
std::unique_ptr<Engine> make_cpu_engines(const SceneView& scene, Precision precision, int threads,
                                         const DeviceSelection& devices, std::vector<std::string>& warnings) {
    if (!several_devices(devices)) return make_cpu_engine(scene, precision, threads);
    const int n = devices.count;
    warnings.push_back("run.devices " + std::to_string(n) + " on the CPU backend: " + std::to_string(n) +
                       " subdomains stepped in one process (checks the decomposition; no speed-up)");
    std::vector<SubdomainDevice> devs(static_cast<std::size_t>(n));
    for (auto& d : devs) d.threads = threads > 0 ? threads : 0;
    return make_distributed_engine(scene, precision, devs);
}

/// The backends a choice may run on, most preferred first.
std::vector<EngineBackend> backend_order(BackendChoice backend) {
    switch (backend) {
        case BackendChoice::Cpu: return {EngineBackend::Cpu};
        case BackendChoice::Cuda: return {EngineBackend::Cuda};
        case BackendChoice::Auto: break;
    }
    return {EngineBackend::Cuda, EngineBackend::Cpu};
}

}  // namespace

// The one backend chooser (docs/architecture.md "Choosing a backend"): walk the choice's
// backends in order, skip those whose capabilities (capabilities.hpp) refuse the scene,
// make the first that accepts it. An explicit backend that refuses is an error naming the
// reason; auto says in a warning why it passed a backend over. A grid that does not fit in
// GPU memory moves auto on to the next backend once, on one device.
namespace {

std::unique_ptr<Engine> make_engine_for(const Scene& compiled, BackendChoice backend, Precision precision,
                                        int threads, const DeviceSelection& devices,
                                        std::vector<std::string>& warnings) {
    const SceneView scene = view_of(compiled);  // engines view the compiled scene, no copy
    const std::vector<EngineBackend> order = backend_order(backend);
    const bool explicit_choice = backend != BackendChoice::Auto;
    std::vector<Unsupported> passed_over;     // auto's reasons, warned once a backend runs
    std::optional<std::string> out_of_memory;  // the OutOfMemoryError auto moved on from
    DeviceSelection selection = devices;
    for (const EngineBackend b : order) {
        if (std::optional<Unsupported> why = backend_cannot_run(b, compiled, precision)) {
            if (explicit_choice) throw RunError(why->refusal());
            passed_over.push_back(std::move(*why));
            continue;
        }
        for (const Unsupported& u : passed_over)
            if (std::string w = u.fallback_warning(b); !w.empty()) warnings.push_back(std::move(w));
        if (out_of_memory)
            warnings.push_back("the grid does not fit in GPU memory (" + *out_of_memory + "); ran on the " +
                               backend_title(b) + " instead");
        if (b == EngineBackend::Cpu) return make_cpu_engines(scene, precision, threads, selection, warnings);
        // An explicit cuda reports the OutOfMemoryError (the sizes) instead of running elsewhere.
        if (explicit_choice) return make_cuda_engines(scene, precision, selection);
        try {
            return make_cuda_engines(scene, precision, selection);
        } catch (const OutOfMemoryError& e) {
            out_of_memory = e.what();
            // One engine from here on: subdomains in one process would make a CPU run no faster.
            selection = DeviceSelection{};
        }
    }
    // Not reached while auto ends with the CPU, which runs every scene; said in full in case.
    std::string reasons;
    for (const Unsupported& u : passed_over) reasons += (reasons.empty() ? "" : "; ") + u.refusal();
    throw RunError("no backend runs this scene: " + reasons);
}

}  // namespace

// A scene with mirror symmetry planes runs reduced (symmetry.hpp) on whatever engine the
// chooser picks for the reduced scene; SymmetricEngine answers for the whole domain.
std::unique_ptr<Engine> make_engine(const Scene& compiled, BackendChoice backend, Precision precision,
                                    int threads, const DeviceSelection& devices, std::vector<std::string>& warnings) {
    return make_symmetric_engine(compiled, [&](const Scene& s) {
        return make_engine_for(s, backend, precision, threads, devices, warnings);
    });
}

std::unique_ptr<Engine> make_engine(const Scene& compiled, BackendChoice backend, Precision precision,
                                    int threads, std::vector<std::string>& warnings) {
    DeviceSelection one;  // one device: the current CUDA device, or one CPU engine
    one.kind = DeviceSelection::Kind::Count;
    one.count = 1;
    return make_engine(compiled, backend, precision, threads, one, warnings);
}

}  // namespace golightly
