// GoLightly run driver (run.hpp): reference + main run, stop criteria, divergence,
// cancellation, flux spectra and normalization.
#include "golightly/run.hpp"
#include "golightly/symmetric_engine.hpp"
#include "golightly/run_phases.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <numeric>
#include <optional>
#include <sstream>
#include <thread>

#include "golightly/capabilities.hpp"
#include "golightly/compile.hpp"
#include "golightly/distributed.hpp"
#include "golightly/partition.hpp"
#include "golightly/mode_plane.hpp"
#include "golightly/errors.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"
#include "divergence.hpp"
#include "diffraction_run.hpp"
#include "far_field_run.hpp"
#include "resonance_run.hpp"

namespace golightly {

std::string to_string(StopReason reason) {
    switch (reason) {
        case StopReason::Decay: return "decay";
        case StopReason::MaxTime: return "max_time";
        case StopReason::MaxSteps: return "max_steps";
        case StopReason::Diverged: return "diverged";
        case StopReason::Cancelled: return "cancelled";
        case StopReason::Resonances: return "resonances";
    }
    return "unknown";
}

std::vector<std::complex<double>> waveform_dft(const CompiledWaveform& w, double delay_s, double dt_s,
                                               double time_offset, const std::vector<double>& frequencies_hz,
                                               std::int64_t steps) {
    std::vector<std::complex<double>> x(frequencies_hz.size());
    // A pulse is zero beyond 12 tau (CompiledWaveform::value): stop there.
    if (w.type == WaveformType::GaussianPulse) {
        const double t_end = delay_s + w.t0_s + 12.0 * w.tau_s;
        steps = std::min<std::int64_t>(steps, std::int64_t(std::ceil(t_end / dt_s - time_offset)) + 1);
    }
    std::vector<std::complex<double>> rot(frequencies_hz.size()), ph(frequencies_hz.size());
    for (std::size_t f = 0; f < frequencies_hz.size(); ++f) {
        const double w_dt = 2 * units::pi * frequencies_hz[f] * dt_s;
        rot[f] = std::polar(1.0, w_dt);
        ph[f] = std::polar(1.0, w_dt * time_offset);
    }
    for (std::int64_t n = 0; n < steps; ++n) {
        const double v = w.value((double(n) + time_offset) * dt_s - delay_s) * dt_s;
        for (std::size_t f = 0; f < x.size(); ++f) {
            x[f] += v * ph[f];
            ph[f] *= rot[f];
        }
        if ((n & 1023) == 1023)  // keep the phasors on the unit circle
            for (std::size_t f = 0; f < x.size(); ++f)
                ph[f] = std::polar(1.0, 2 * units::pi * frequencies_hz[f] * dt_s * (double(n + 1) + time_offset));
    }
    return x;
}

std::vector<double> tfsf_incident_intensity(const Scene& scene, const std::vector<double>& frequencies_hz,
                                            std::int64_t steps) {
    if (scene.tfsf.empty()) throw RunError("tfsf_incident_intensity: the scene has no tfsf source");
    const TfsfSource& t = scene.tfsf.front();
    const auto e_inc = waveform_dft(t.waveform, t.delay_s, scene.dt_s, 1.0, frequencies_hz, steps);
    double eps = 1.0;
    const auto& map = scene.material_index[static_cast<int>(t.e_component)];
    const std::size_t corner = std::size_t((t.lo[2] * scene.ny + t.lo[1]) * scene.nx + t.lo[0]);
    if (corner < map.size()) eps = scene.table.at(map[corner]).eps_r;
    std::vector<double> out(frequencies_hz.size());
    for (std::size_t f = 0; f < out.size(); ++f) out[f] = std::sqrt(eps) * std::norm(e_inc[f]) / (2 * units::eta0);
    return out;
}

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
    // A Bloch phase along the axis the distributed engine cuts runs on one device
    // (partition_scene): devices auto keeps it there; a selection naming several is refused.
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

namespace {

using Clock = std::chrono::steady_clock;
using cvec = std::vector<std::complex<double>>;

double seconds_since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// Outcome of stepping one compiled scene to a stop criterion.
struct PhaseOutcome {
    StopReason reason = StopReason::MaxTime;
    std::int64_t steps = 0;
    double step_wall_s = 0;  ///< wall time spent inside the stepping loop
    std::optional<DivergenceInfo> divergence;
    int live_edits = 0;                    ///< applied live edits that changed the materials
    std::vector<std::string> live_refusals;  ///< messages of refused live edits
    /// The far fields of the phase's last live snapshot, currents included, when it was
    /// taken at its last step (the result's far fields then; not projected again).
    std::optional<std::vector<FarFieldResult>> far_fields;
};

/// Live edit: applies a scene waiting in RunOptions::poll_material_update (engine.hpp,
/// Engine::update_materials) and reports the outcome.
void apply_live_edit(Engine& engine, const Scene& compiled_scene, const RunOptions& options,
                     std::shared_ptr<const Scene>& current, PhaseOutcome& out) {
    std::shared_ptr<const Scene> edited = options.poll_material_update();
    if (!edited) return;
    const auto t0 = std::chrono::steady_clock::now();
    MaterialUpdateOutcome o;
    o.step = engine.steps_done();
    o.time_fs = double(o.step) * compiled_scene.dt_s / units::fs;
    const Scene& now = current ? *current : compiled_scene;
    try {
        check_material_update(now, *edited);
        o.changed = !same_materials(now, *edited);
        if (o.changed) engine.update_materials(edited);  // the engine keeps this view
        o.applied = true;
        current = edited;
        if (o.changed) ++out.live_edits;
    } catch (const std::invalid_argument& e) {
        o.message = e.what();
    } catch (const RunError& e) {
        o.message = e.what();
    }
    if (!o.applied && (out.live_refusals.empty() || out.live_refusals.back() != o.message))
        out.live_refusals.push_back(o.message);
    o.apply_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (options.material_update_done) options.material_update_done(o);
}

/// What normalizes the main run's flux spectra (from the reference run; null: raw only).
struct SpectrumNormalization {
    const std::vector<double>* p_inc = nullptr;  ///< incident flux P_inc(f), W/m (> 0 where meaningful)
    /// Reference-run DFT sets subtracted from reflection and scattering monitors (may be null).
    const std::map<int, std::vector<std::complex<double>>>* ref_sets = nullptr;
    double l_inc_um = 0;  ///< length (2D, um) or area (3D, um^2) of the incident monitor (flux_box cross-sections)
};
/// Wall time of one term (surface sample x direction x wavelength) of the far-field
/// projection, for the estimate before the first one is measured: 44 ns measured on one
/// core of the 2-core build machine (5040 samples x 3276 directions in 0.73 s).
constexpr double kProjectionSecondsPerTerm = 50e-9;
/// The same on a CUDA engine, whose sums run on its GPU (far_field_run.hpp
/// radiation_vectors_on: 1.3e-11 s per term on an H200 for 60,000 samples x 65,160
/// directions; the surface DFTs' read-back dominates small surfaces): a bound, the first
/// projection's measured time replaces it.
constexpr double kProjectionSecondsPerTermGpu = 1e-10;

/// When the live far fields are projected (LiveMonitors::far_fields, kLiveFarFieldInterval):
/// once the phase has run 20 times the projection's cost (estimated from its terms before
/// the first, measured after) and kLiveFarFieldInterval since the last, so that it stays
/// below about 5 % of the run. Keeps the last projection whole (with the currents) for the
/// result when it was made at the phase's last step.
struct LiveFarFieldClock {
    Clock::time_point start = Clock::now();
    Clock::time_point last{};
    bool any = false;     ///< projected at least once
    double cost_s = 0;    ///< wall time of the last projection (before it: the estimate)
    bool fresh = false;   ///< the last snapshot carried far fields
    std::vector<FarFieldResult> full;  ///< the last projection, currents included
    std::int64_t full_step = -1;       ///< the step it was made at
    bool due(Clock::time_point now) const {
        const double run_s = std::chrono::duration<double>(now - start).count();
        const double since = std::chrono::duration<double>(now - last).count();
        return run_s >= 20 * cost_s && (!any || since >= std::max(kLiveFarFieldInterval, 20 * cost_s));
    }
};

/// The terms of the far-field projections of `compiled`'s monitors with `far_field`
/// (surface samples x directions x wavelengths x periods), for the first estimate.
double far_field_terms(const CompiledProject& compiled, const Project& project) {
    double terms = 0;
    for (const CompiledMonitor& m : compiled.monitors)
        for (const Monitor& pm : project.monitors) {
            if (pm.name != m.name || pm.type != m.type || !pm.far_field) continue;
            double samples = 0;
            for (const FluxTerm& t : m.flux_terms)
                samples += double(compiled.scene.dft_sets.at(std::size_t(t.e_set)).cell0.size());
            const FarFieldSettings& ff = *pm.far_field;
            const bool three = compiled.scene.dimensions == 3;
            const double dirs = double(three ? ff.theta_points : 1) * (ff.phi_points > 0 ? ff.phi_points : three ? 72 : 360);
            terms += samples * dirs * double(std::max<std::size_t>(1, ff.wavelengths.size())) *
                     double(std::max(1, ff.periods[0])) * double(std::max(1, ff.periods[1]));
        }
    return terms;
}
/// `far_clock` null: no far fields (the reference run); `force_far`: project whatever
/// the clock says (the phase's last snapshot).
void publish_live(Engine& engine, const Project& project, const CompiledProject& compiled, const RunOptions& options,
                  const std::string& phase, const SpectrumNormalization* norm, LiveFarFieldClock* far_clock = nullptr,
                  bool force_far = false);
/// The far field of monitor `m` when the project gives it one, as RunResult::far_fields
/// holds it (normalized with `norm` when given). Throws RunError as far_field_result.
std::optional<FarFieldResult> far_field_of(Engine& engine, const Project& project, const Scene& scene,
                                           const CompiledMonitor& m, const SpectrumNormalization* norm);
std::vector<ModeCoefficientsResult> mode_coefficients_result(Engine& engine, const CompiledMonitor& m,
                                                             const std::vector<double>* p_inc);

/// The level the decay stop watches (run.stop): the field energy, or, when run.stop.monitor
/// names a time monitor, the envelope of its samples (max |value| over about two periods
/// of the longest spectrum wavelength), and how far it has fallen below its peak.
class DecayLevel {
public:
    DecayLevel(const CompiledProject& compiled, const Project& project) {
        const auto& stop = project.run.stop;
        if (stop.monitor) {
            for (const auto& m : compiled.monitors)
                if (m.name == *stop.monitor && m.type == MonitorType::Time) stop_probe_ = m.time_probe;
        }
        // Envelope window: about two periods of the longest spectrum wavelength.
        const double longest_wl_um = std::max(project.run.spectrum.wavelength_max, project.run.spectrum.wavelength_min);
        window_steps_ = std::max<std::int64_t>(
            1, std::int64_t(std::ceil(2.0 * longest_wl_um * units::um / units::c0 / compiled.scene.dt_s)));
        decay_factor_ = std::pow(10.0, -stop.decay_db / db_per_decade());
    }

    /// The current level: field energy (J/m, Engine::field_energy) or the probe envelope
    /// (field units); non-finite when the fields diverged.
    double measure(Engine& engine) {
        double level = engine.field_energy();
        energy_ = level;
        if (stop_probe_ >= 0 && std::isfinite(level)) {
            const std::vector<double> samples = engine.time_samples(stop_probe_);
            for (std::size_t k = probe_read_; k < samples.size(); ++k) recent_abs_.push_back(std::abs(samples[k]));
            probe_read_ = samples.size();
            if (recent_abs_.size() > std::size_t(window_steps_))
                recent_abs_.erase(recent_abs_.begin(), recent_abs_.end() - window_steps_);
            level = recent_abs_.empty() ? 0.0 : *std::max_element(recent_abs_.begin(), recent_abs_.end());
        }
        return level;
    }

    /// Takes a finite level into the peak and returns how far it lies below the peak, dB
    /// (10 log10 for the energy, 20 log10 for a field envelope; 999 when zero).
    double db_below_peak(double level) {
        peak_ = std::max(peak_, level);
        const double ratio = peak_ > 0 ? level / peak_ : 0.0;
        return ratio > 0 ? -db_per_decade() * std::log10(ratio) : 999.0;
    }

    /// True when `level` has fallen run.stop.decay_db below the peak (or nothing ever rose).
    bool decayed(double level) const { return peak_ <= 0 || level <= peak_ * decay_factor_; }

    /// The field energy of the last measure() (J/m in 2D, J in 3D; non-finite when diverged).
    double energy() const { return energy_; }

private:
    double db_per_decade() const { return stop_probe_ >= 0 ? 20.0 : 10.0; }

    double energy_ = 0;              // field energy of the last measure()
    int stop_probe_ = -1;            // time probe of run.stop.monitor, -1: the energy
    std::int64_t window_steps_ = 1;  // envelope window
    double decay_factor_ = 0;        // level / peak at which the run has decayed
    double peak_ = 0;
    std::size_t probe_read_ = 0;      // samples of the stop probe already examined
    std::vector<double> recent_abs_;  // |value| of the probe over the last window_steps samples
};

/// RunOptions::progress reports of one phase, with the ETA from the step rate and, once
/// the sources are off and the level is decaying, from the smoothed decay rate (dB per
/// wall second).
class ProgressReporter {
public:
    ProgressReporter(const CompiledProject& compiled, const Project& project, const RunOptions& options,
                     const std::string& phase, std::int64_t limit_steps)
        : options_(options), phase_(phase), limit_steps_(limit_steps), cells_(double(compiled.scene.cells())),
          sources_end_s_(compiled.sources_end_s), decay_db_(project.run.stop.decay_db) {}

    /// Reports step `now_steps` at simulated time t_s (s), `db` below the peak, `wall` s
    /// after the phase started. No-op without RunOptions::progress.
    void report(std::int64_t now_steps, double t_s, double db, double wall, const std::string& stop_rule) {
        if (!options_.progress) return;
        ProgressInfo p;
        p.phase = phase_;
        p.stop_rule = stop_rule;
        p.step = now_steps;
        p.max_steps = limit_steps_;
        p.time_fs = t_s / units::fs;
        p.energy_db = std::max(0.0, std::min(db, 999.0));
        p.steps_per_s = wall > 0 ? double(now_steps) / wall : 0;
        p.mcells_per_s = p.steps_per_s * cells_ / 1e6;
        double eta = p.steps_per_s > 0 ? double(limit_steps_ - now_steps) / p.steps_per_s : -1;
        if (t_s > sources_end_s_ && db < decay_db_) {
            // Estimate from the recent decay rate (dB per wall second).
            const double dtw = wall - last_db_time_;
            if (dtw > 0 && last_db_time_ > 0) {
                const double rate = (db - last_db_) / dtw;
                db_rate_per_s_ = db_rate_per_s_ > 0 ? 0.7 * db_rate_per_s_ + 0.3 * rate : rate;
            }
            if (db_rate_per_s_ > 0) eta = std::min(eta, (decay_db_ - db) / db_rate_per_s_);
        }
        last_db_ = db;
        last_db_time_ = wall;
        p.eta_s = eta;
        options_.progress(p);
    }

private:
    const RunOptions& options_;
    const std::string& phase_;
    std::int64_t limit_steps_;
    double cells_, sources_end_s_, decay_db_;
    double last_db_ = 0;
    double db_rate_per_s_ = 0;  // smoothed dB/s decay rate for the ETA
    double last_db_time_ = 0;
};

/// True when RunOptions::cancel is set; waits (50 ms sleeps) while RunOptions::pause is
/// set and the run is not cancelled.
bool cancelled_after_pause(const RunOptions& options) {
    if (options.cancel && options.cancel->load()) return true;
    while (options.pause && options.pause->load() && !(options.cancel && options.cancel->load()))
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return options.cancel && options.cancel->load();
}

TimeSeriesResult time_series_result(Engine& engine, const Scene& scene, const CompiledMonitor& m);

/// Steps `engine` until a stop criterion holds (run.hpp, run_project): chunks of steps up
/// to the next check (every 50 steps) or frame; at each check the stop level
/// (DecayLevel), divergence, progress and live monitors, and, when given and active, the
/// resonance stop rule (resonance_run.hpp).
PhaseOutcome run_phase(Engine& engine, const CompiledProject& compiled, const Project& project,
                       const RunOptions& options, const std::string& phase,
                       std::int64_t limit_steps, bool limit_is_max_steps, bool send_frames,
                       const SpectrumNormalization* live_norm = nullptr, bool live_edit = false,
                       detail::ResonanceStop* resonance_stop = nullptr) {
    const Scene& scene = compiled.scene;
    const double dt_s = scene.dt_s;
    PhaseOutcome out;
    DecayLevel decay(compiled, project);
    detail::GrowthWatch growth;  // run.hpp run_project "Divergence"
    int live_edits_seen = 0;
    ProgressReporter progress(compiled, project, options, phase, limit_steps);

    // Checks (energy, finiteness, cancel, progress) every kCheckSteps steps; frames at
    // multiples of run.frames.every_steps in between.
    constexpr std::int64_t kCheckSteps = 50;
    const int every = std::max(1, project.run.frames.every_steps);
    const bool frames_on = send_frames && (bool(options.frame) || bool(options.frame_hook));
    std::int64_t next_check = kCheckSteps;
    std::int64_t next_live = options.live ? std::max<std::int64_t>(1, options.live_every_steps) : -1;
    std::int64_t last_live = -1;  // the step of the last live snapshot
    // far fields in the main run's snapshots only (the final result has them of it only)
    LiveFarFieldClock far_clock_state;
    const bool far_fields = std::any_of(project.monitors.begin(), project.monitors.end(),
                                        [](const Monitor& m) { return m.far_field.has_value(); });
    LiveFarFieldClock* far_clock = phase == "main" && far_fields ? &far_clock_state : nullptr;
    if (far_clock)
        far_clock->cost_s = (engine.backend() == "cuda" ? kProjectionSecondsPerTermGpu : kProjectionSecondsPerTerm) *
                            far_field_terms(compiled, project);
    auto last_frame_time = Clock::now();
    bool frame_sent = false;  // the first frame is never held back
    Engine::FrameRequest frame_request = options.frame_request;
    frame_request.component = project.run.frames.component;
    std::int64_t next_frame = every;
    const auto t0 = Clock::now();
    const bool edits_on = live_edit && bool(options.poll_material_update);
    std::shared_ptr<const Scene> edited_scene;  // the materials the engine runs on, when edited
    if (resonance_stop && !resonance_stop->active()) resonance_stop = nullptr;
    std::ostringstream decay_rule;
    decay_rule << "decay to " << project.run.stop.decay_db << " dB";

    while (true) {
        if (cancelled_after_pause(options)) {
            out.reason = StopReason::Cancelled;
            break;
        }
        const std::int64_t done = engine.steps_done();
        if (done >= limit_steps) {
            out.reason = limit_is_max_steps ? StopReason::MaxSteps : StopReason::MaxTime;
            break;
        }
        if (edits_on) apply_live_edit(engine, scene, options, edited_scene, out);
        std::int64_t target = std::min(next_check, limit_steps);
        if (frames_on) target = std::min(target, next_frame);
        engine.step(int(std::max<std::int64_t>(1, target - done)));
        const std::int64_t now_steps = engine.steps_done();
        const double t_s = double(now_steps) * dt_s;
        if (frames_on && now_steps >= next_frame) {
            const auto now = Clock::now();
            if (!frame_sent || options.frame_min_interval_s <= 0 ||
                std::chrono::duration<double>(now - last_frame_time).count() >= options.frame_min_interval_s) {
                last_frame_time = now;
                frame_sent = true;
                if (options.frame) options.frame(engine.frame(frame_request), now_steps, t_s / units::fs);
                if (options.frame_hook) options.frame_hook(engine, now_steps, t_s / units::fs);
            }
            while (next_frame <= now_steps) next_frame += every;
        }
        if (now_steps < next_check && now_steps < limit_steps) continue;
        while (next_check <= now_steps) next_check += kCheckSteps;

        const double level = decay.measure(engine);
        if (!std::isfinite(level) || !std::isfinite(decay.energy()) || !engine.fields_finite()) {
            out.reason = StopReason::Diverged;
            out.divergence = detail::locate_divergence(engine, scene, project, phase, phase == "reference");
            break;
        }
        if (out.live_edits != live_edits_seen) {  // new materials: the energy may step
            live_edits_seen = out.live_edits;
            growth.rebase(decay.energy());
        }
        if (growth.diverged(decay.energy(), t_s > compiled.sources_end_s)) {
            out.reason = StopReason::Diverged;
            out.divergence = detail::locate_divergence(engine, scene, project, phase, phase == "reference");
            out.divergence->detected_by = "growth";
            out.divergence->energy_growth = growth.growth();
            break;
        }
        const double db = decay.db_below_peak(level);
        bool resonances_converged = false;
        if (resonance_stop && t_s > compiled.sources_end_s)
            resonances_converged = resonance_stop->converged(
                [&](const CompiledMonitor& m) { return time_series_result(engine, scene, m); }, now_steps);
        progress.report(now_steps, t_s, db, seconds_since(t0),
                        resonance_stop ? decay_rule.str() + " or " + resonance_stop->status() : decay_rule.str());
        if (next_live > 0 && now_steps >= next_live) {
            publish_live(engine, project, compiled, options, phase, live_norm, far_clock);
            last_live = now_steps;
            while (next_live <= now_steps) next_live += std::max<std::int64_t>(1, options.live_every_steps);
        }
        if (t_s > compiled.sources_end_s && decay.decayed(level)) {
            out.reason = StopReason::Decay;
            break;
        }
        if (resonances_converged) {
            out.reason = StopReason::Resonances;
            break;
        }
    }
    // the values the phase ends with, unless the last snapshot already showed them
    // (again when that snapshot skipped the far fields)
    if (next_live > 0 && (last_live != engine.steps_done() || (far_clock && !far_clock->fresh)) &&
        out.reason != StopReason::Cancelled && out.reason != StopReason::Diverged)
        publish_live(engine, project, compiled, options, phase, live_norm, far_clock, true);
    out.steps = engine.steps_done();
    out.step_wall_s = seconds_since(t0);
    if (far_clock && far_clock->full_step == out.steps) out.far_fields = std::move(far_clock->full);
    return out;
}

/// Fetches the DFT sets a monitor's flux terms use.
void fetch_sets(Engine& engine, const CompiledMonitor& m, std::map<int, cvec>& sets) {
    for (const FluxTerm& t : m.flux_terms) {
        if (!sets.count(t.e_set)) sets[t.e_set] = engine.dft(t.e_set);
        if (!sets.count(t.h_set)) sets[t.h_set] = engine.dft(t.h_set);
    }
}

/// Flux spectrum of a monitor's terms (compile.hpp, FluxTerm):
///   P(f) = sum_terms sign * 0.5 / eta0 * Re sum_k E[k][f] conj(H~[k][f]) * ds_um * (1e-6)^ds_dims
/// (time-averaged Poynting flux 0.5 Re(E x H*), H = H~/eta0; W/m in 2D, W in 3D). `sets` holds the DFT
/// accumulators [k * n_freq + f]; `ref`, when given, is subtracted sample by sample first.
std::vector<double> flux_spectrum(const Scene& scene, const CompiledMonitor& m, std::size_t n_freq,
                                  const std::map<int, cvec>& sets, const std::map<int, cvec>* ref) {
    std::vector<double> p(n_freq, 0.0);
    for (const FluxTerm& t : m.flux_terms) {
        const cvec& e = sets.at(t.e_set);
        const cvec& h = sets.at(t.h_set);
        const cvec* er = ref ? &ref->at(t.e_set) : nullptr;
        const cvec* hr = ref ? &ref->at(t.h_set) : nullptr;
        const std::size_t nf_e = scene.dft_sets[t.e_set].frequencies_hz.size();
        const std::size_t nf_h = scene.dft_sets[t.h_set].frequencies_hz.size();
        if (nf_e != n_freq || nf_h != n_freq)
            throw RunError("monitor '" + m.name + "': DFT set frequencies do not match the run spectrum");
        const std::size_t ns = e.size() / n_freq;
        if (h.size() != e.size() || (er && (er->size() != e.size() || hr->size() != h.size())))
            throw RunError("monitor '" + m.name + "': DFT sample counts differ between E and H or between the "
                           "reference and the main run");
        const double scale = t.sign * 0.5 / units::eta0 * t.ds_um * std::pow(units::um, t.ds_dims);
        for (std::size_t k = 0; k < ns; ++k)
            for (std::size_t f = 0; f < n_freq; ++f) {
                std::complex<double> ev = e[k * n_freq + f], hv = h[k * n_freq + f];
                if (er) {
                    ev -= (*er)[k * n_freq + f];
                    hv -= (*hr)[k * n_freq + f];
                }
                p[f] += scale * (ev * std::conj(hv)).real();
            }
    }
    return p;
}

/// True for the monitors whose normalized value subtracts the reference run's fields
/// (flux "reflection", flux_box "scattering").
bool uses_reference_fields(const CompiledMonitor& m) {
    return (m.type == MonitorType::Flux && m.kind == "reflection") ||
           (m.type == MonitorType::FluxBox && m.kind == "scattering");
}

/// The spectrum of a flux or flux_box monitor from the DFTs the engine holds now: the raw
/// flux (W/m in 2D, W in 3D; flux_spectrum) and the normalized values
/// (FluxSpectrumResult::normalized):
/// - flux_box with a tfsf source in the scene (no reference run needed): the cross-section
///   sign * P / I_inc (um in 2D, um^2 in 3D), I_inc the TF/SF wave's intensity over the
///   steps done so far (tfsf_incident_intensity), P the raw net outward flux (outside the
///   TF box that is the scattered field's, inside the total field's);
/// - otherwise, when `norm` is given: flux monitors num / P_inc (dimensionless), flux boxes
///   the cross-section sign * num * L_inc / P_inc (L_inc the incident monitor's length or
///   area); num is the flux of the fields minus the reference run's (norm->ref_sets) for
///   reflection and scattering monitors, else the raw flux.
/// sign: +1 for scattering, -1 for absorption and flux (which count inward flux as
/// positive). `n_freq` is the run spectrum's length. Throws RunError (flux_spectrum).
FluxSpectrumResult flux_spectrum_result(Engine& engine, const Scene& scene, const CompiledMonitor& m,
                                        std::size_t n_freq, const SpectrumNormalization* norm) {
    FluxSpectrumResult s;
    s.name = m.name;
    s.type = m.type;
    s.kind = m.kind;
    std::map<int, cvec> sets;
    fetch_sets(engine, m, sets);
    s.flux = flux_spectrum(scene, m, n_freq, sets, nullptr);
    const double sign = m.kind == "scattering" ? 1.0 : -1.0;
    if (m.type == MonitorType::FluxBox && !scene.tfsf.empty()) {
        const std::vector<double>& freqs = scene.dft_sets.at(m.flux_terms.at(0).e_set).frequencies_hz;
        const std::vector<double> i_inc = tfsf_incident_intensity(scene, freqs, engine.steps_done());
        // W / (W/m^2) = m^2 (3D), (W/m) / (W/m^2) = m (2D); to um^2 / um
        const double to_um = scene.dimensions == 3 ? 1.0 / (units::um * units::um) : 1.0 / units::um;
        s.normalized.resize(n_freq);
        for (std::size_t f = 0; f < n_freq; ++f) s.normalized[f] = sign * s.flux[f] / i_inc[f] * to_um;
        return s;
    }
    if (!norm) return s;
    const std::vector<double>& p_inc = *norm->p_inc;
    const bool uses_ref = norm->ref_sets && uses_reference_fields(m);
    const std::vector<double> num = uses_ref ? flux_spectrum(scene, m, n_freq, sets, norm->ref_sets) : s.flux;
    s.normalized.resize(n_freq);
    for (std::size_t f = 0; f < n_freq; ++f) {
        if (m.type == MonitorType::Flux) {
            s.normalized[f] = num[f] / p_inc[f];
        } else {
            // cross-section (um, um^2): flux / (P_inc / L_inc)
            s.normalized[f] = sign * num[f] * norm->l_inc_um / p_inc[f];
        }
    }
    return s;
}

/// A time monitor's samples so far with their times (fs): E components are sampled at
/// (n + 1) dt, H components at (n + 1/2) dt (scene.hpp, step order).
TimeSeriesResult time_series_result(Engine& engine, const Scene& scene, const CompiledMonitor& m) {
    TimeSeriesResult ts;
    ts.name = m.name;
    ts.component = scene.time_probes.at(m.time_probe).component;
    ts.values = engine.time_samples(m.time_probe);
    const bool electric = ts.component == Component::Ex || ts.component == Component::Ey ||
                          ts.component == Component::Ez;
    ts.time_fs.resize(ts.values.size());
    for (std::size_t n = 0; n < ts.values.size(); ++n)
        ts.time_fs[n] = (double(n) + (electric ? 1.0 : 0.5)) * scene.dt_s / units::fs;
    return ts;
}

/// The Floquet orders of flux monitor `m` when the project declares it a diffraction
/// monitor (spectra normalized with `norm` when given, its reflected fields from the
/// reference run's), else nothing. Throws RunError as detail::diffraction_result.
std::optional<DiffractionResult> diffraction_of(Engine& engine, const Project& project, const CompiledProject& compiled,
                                                const CompiledMonitor& m, const SpectrumNormalization* norm,
                                                std::vector<std::string>& warnings) {
    if (m.type != MonitorType::Flux) return std::nullopt;
    const Scene& scene = compiled.scene;
    for (const Monitor& pm : project.monitors) {
        if (pm.name != m.name || pm.type != MonitorType::Flux || !pm.diffraction) continue;
        const bool ref = norm && norm->ref_sets && uses_reference_fields(m);
        // The run's in-plane Bloch k (rad/um along the plane's tangential axes t1 < t2):
        // bloch_phase = k L over the axis's period L = n dx (a periodic axis has no PML); 0
        // on plain periodic axes.
        std::array<double, 2> k_par{0.0, 0.0};
        if (!m.flux_terms.empty()) {
            const int normal = m.flux_terms.front().normal_axis;
            const int n_cells[3] = {scene.nx, scene.ny, scene.dimensions == 3 ? scene.nz : 1};
            int slot = 0;
            for (int a = 0; a < 3 && slot < 2; ++a) {
                if (a == normal) continue;
                k_par[std::size_t(slot++)] = scene.bloch_phase[a] / (double(n_cells[a]) * scene.dx_um);
            }
        }
        return detail::diffraction_result(engine, scene, m, *pm.diffraction, compiled.spectrum_hz,
                                          norm ? norm->p_inc : nullptr, ref ? norm->ref_sets : nullptr, k_par,
                                          warnings);
    }
    return std::nullopt;
}

std::optional<FarFieldResult> far_field_of(Engine& engine, const Project& project, const Scene& scene,
                                           const CompiledMonitor& m, const SpectrumNormalization* norm) {
    for (const Monitor& pm : project.monitors)
        if (pm.name == m.name && pm.type == m.type && pm.far_field && !m.flux_terms.empty()) {
            const auto& freqs = scene.dft_sets.at(std::size_t(m.flux_terms[0].e_set)).frequencies_hz;
            const std::vector<double> i_inc = scene.tfsf.empty()
                                                  ? std::vector<double>{}
                                                  : tfsf_incident_intensity(scene, freqs, engine.steps_done());
            const bool ref = norm && norm->ref_sets && uses_reference_fields(m);
            return detail::far_field_result(engine, scene, m, *pm.far_field, freqs, ref ? norm->ref_sets : nullptr,
                                            i_inc);
        }
    return std::nullopt;
}

void publish_live(Engine& engine, const Project& project, const CompiledProject& compiled, const RunOptions& options,
                  const std::string& phase, const SpectrumNormalization* norm, LiveFarFieldClock* far_clock,
                  bool force_far) {
    const Scene& scene = compiled.scene;
    LiveMonitors live;
    live.phase = phase;
    live.step = engine.steps_done();
    live.time_fs = double(live.step) * scene.dt_s / units::fs;
    live.frequency_hz = compiled.spectrum_hz;
    const std::size_t nf = compiled.spectrum_hz.size();
    live.normalized = norm && norm->p_inc && norm->p_inc->size() == nf;
    for (const CompiledMonitor& m : compiled.monitors) {
        if (m.type == MonitorType::Flux || m.type == MonitorType::FluxBox) {
            live.spectra.push_back(flux_spectrum_result(engine, scene, m, nf, live.normalized ? norm : nullptr));
            // the orders so far (their warnings come with the final result)
            std::vector<std::string> ignored;
            if (std::optional<DiffractionResult> d =
                    diffraction_of(engine, project, compiled, m, live.normalized ? norm : nullptr, ignored))
                live.diffraction.push_back(std::move(*d));
        } else if (m.type == MonitorType::Time)
            live.time_series.push_back(time_series_result(engine, scene, m));
        // mode amplitudes as gather_monitors computes them (the same P_inc once normalized)
        if (m.mode_plan)
            for (ModeCoefficientsResult& mc :
                 mode_coefficients_result(engine, m, live.normalized ? norm->p_inc : nullptr))
                live.mode_coefficients.push_back(std::move(mc));
    }
    // far fields from the surface DFTs so far, throttled (their cost grows with the surface
    // samples times the directions, which can rival a chunk of steps in 3D)
    const auto now = Clock::now();
    if (far_clock && (force_far || far_clock->due(now))) {
        for (const CompiledMonitor& m : compiled.monitors) {
            if (m.type != MonitorType::Flux && m.type != MonitorType::FluxBox) continue;
            if (std::optional<FarFieldResult> f = far_field_of(engine, project, scene, m, live.normalized ? norm : nullptr))
                live.far_fields.push_back(std::move(*f));
        }
        far_clock->full = live.far_fields;
        far_clock->full_step = live.step;
        for (FarFieldResult& f : live.far_fields) f.surfaces.clear();  // only the results folder needs them
        const auto done = Clock::now();
        far_clock->cost_s = std::chrono::duration<double>(done - now).count();
        far_clock->last = done;
        far_clock->any = true;
        far_clock->fresh = true;
    } else if (far_clock)
        far_clock->fresh = false;
    options.live(live);
}

}  // namespace

RunResult run_project(const Project& project, const std::string& file_label, const RunOptions& options) {
    const auto t_call = Clock::now();
    const CompiledPhases phases = compile_phases(project, file_label);
    const Precision precision = options.precision.value_or(project.run.precision);
    BackendChoice backend = options.backend.value_or(project.run.backend);
    const DeviceSelection devices = options.devices ? *options.devices : project_devices(project, file_label);
    std::vector<std::string> fallback_warnings;
    EngineFactory factory = [&](const Scene& scene, const std::string&) {
        auto engine = make_engine(scene, backend, precision, options.threads, devices, fallback_warnings);
        // After a fall-back keep the same backend for the next phase.
        backend = engine->backend() == "cuda" ? BackendChoice::Cuda : BackendChoice::Cpu;
        return engine;
    };
    RunResult result =
        run_compiled(project, phases.main, phases.reference_or_null(), options,
                     options.engine_factory ? options.engine_factory : factory);
    for (const std::string& w : fallback_warnings)  // once, though each phase makes its engine
        if (std::find(result.warnings.begin(), result.warnings.end(), w) == result.warnings.end())
            result.warnings.push_back(w);
    result.wall_s = seconds_since(t_call);
    return result;
}

int incident_monitor_index(const Project& project, const std::string& file_label) {
    const auto& norm = project.run.normalization;
    if (!norm.enabled) return -1;
    bool has_flux = false, has_plane = false, has_tfsf = false;
    for (const auto& m : project.monitors) {
        if (m.type == MonitorType::Flux || m.type == MonitorType::FluxBox) has_flux = true;
        if (m.type == MonitorType::Flux) has_plane = true;
    }
    for (const auto& s : project.sources) has_tfsf = has_tfsf || s.type == SourceType::Tfsf;
    if (!has_flux) return -1;
    // A tfsf source normalizes the flux boxes by its own intensity: no reference run unless
    // flux monitors need one.
    if (has_tfsf && !has_plane && !norm.incident_monitor) return -1;
    int incident = -1;
    if (norm.incident_monitor) {
        for (std::size_t k = 0; k < project.monitors.size(); ++k)
            if (project.monitors[k].name == *norm.incident_monitor) incident = int(k);
        if (incident < 0 || project.monitors[incident].type != MonitorType::Flux)
            throw ProjectError(file_label, "run.normalization.incident_monitor",
                               "'" + *norm.incident_monitor + "' is not a flux monitor");
        return incident;
    }
    for (const char* want : {"reflection", "transmission"})
        for (std::size_t k = 0; k < project.monitors.size(); ++k)
            if (project.monitors[k].type == MonitorType::Flux && project.monitors[k].kind == want) return int(k);
    throw ProjectError(file_label, "run.normalization",
                       "normalization needs a reflection or transmission flux monitor "
                       "(or run.normalization.incident_monitor)");
}

namespace {

/// The incident flux P_inc(f) (W/m) at the reference run's incident monitor, made
/// positive along the incident wave (its sign flipped when its sum is negative). Adds a
/// warning to `result` when it is zero or changes sign inside the spectrum, or when it is
/// below 0.1% of the largest flux any flux monitor sees (an incident monitor behind a
/// one-way source). Throws RunError (flux_spectrum).
std::vector<double> incident_flux(Engine& engine, const CompiledProject& ref, int incident, RunResult& result) {
    const std::size_t nf = ref.spectrum_hz.size();
    std::map<int, cvec> inc_sets;
    fetch_sets(engine, ref.monitors[incident], inc_sets);
    std::vector<double> p_inc = flux_spectrum(ref.scene, ref.monitors[incident], nf, inc_sets, nullptr);
    const double total = std::accumulate(p_inc.begin(), p_inc.end(), 0.0);
    if (total < 0)
        for (double& v : p_inc) v = -v;  // monitor direction against the incident wave
    bool sign_ok = true;
    for (double v : p_inc) sign_ok = sign_ok && v > 0;
    // Compare with the largest flux any flux monitor sees in the reference run: an
    // incident monitor behind a one-way source sees almost nothing.
    double largest = 0, incident_peak = 0;
    for (double v : p_inc) incident_peak = std::max(incident_peak, std::abs(v));
    for (const auto& m : ref.monitors) {
        if (m.type != MonitorType::Flux) continue;
        std::map<int, cvec> sets;
        fetch_sets(engine, m, sets);
        for (double v : flux_spectrum(ref.scene, m, nf, sets, nullptr)) largest = std::max(largest, std::abs(v));
    }
    if (!sign_ok)
        result.warnings.push_back("the incident flux at '" + result.incident_monitor +
                                  "' is zero or changes sign inside the spectrum: normalized values "
                                  "there are meaningless (does the source cover the spectrum?)");
    else if (incident_peak < 1e-3 * largest)
        result.warnings.push_back("the incident monitor '" + result.incident_monitor + "' sees less than 0.1% of the "
                                  "flux other monitors see in the normalization run: is it behind a one-way "
                                  "source? Place it between the source and the device");
    return p_inc;
}

/// What the reference (normalization) run leaves for the main run.
struct ReferenceFields {
    std::vector<double> p_inc;    ///< incident flux, W/m (incident_flux)
    std::map<int, cvec> ref_sets; ///< DFT sets of the reflection and scattering monitors
};

/// Runs the reference phase on `engine` and fills `out`; records its steps, wall time and
/// stop reason in `result`. Returns false when it diverged or was cancelled (then
/// result's stop reason, divergence and a warning say so and the main run must not run).
/// Throws RunError (flux_spectrum).
bool run_reference(Engine& engine, const CompiledProject& ref, int incident, const Project& project,
                   const RunOptions& options, const StepLimit& limit, RunResult& result, ReferenceFields& out) {
    const PhaseOutcome o =
        run_phase(engine, ref, project, options, "reference", limit.steps, limit.is_max_steps, false);
    result.reference_steps = o.steps;
    result.reference_wall_s = o.step_wall_s;
    result.reference_stop_reason = o.reason;
    if (o.reason == StopReason::Diverged || o.reason == StopReason::Cancelled) {
        result.stop_reason = o.reason;
        result.divergence = o.divergence;
        result.warnings.push_back("the normalization run " + to_string(o.reason) + " after " +
                                  std::to_string(o.steps) + " steps; the main run did not run");
        return false;
    }
    out.p_inc = incident_flux(engine, ref, incident, result);
    for (const CompiledMonitor& m : ref.monitors)
        if (uses_reference_fields(m)) fetch_sets(engine, m, out.ref_sets);
    result.incident_flux = out.p_inc;
    return true;
}

/// Records the main phase's outcome in `result`: stop reason, steps, simulated time (fs),
/// divergence, throughput (Mcells/s over the stepping wall time) and the live-edit
/// warnings.
void record_main_phase(const PhaseOutcome& o, const Scene& scene, RunResult& result) {
    result.stop_reason = o.reason;
    result.live_edits = o.live_edits;
    if (o.live_edits > 0)
        result.warnings.push_back("the structure was edited " + std::to_string(o.live_edits) +
                                  " time(s) during the main run (live edit): the spectra mix structures and are "
                                  "not comparable with a run of either project");
    for (const std::string& m : o.live_refusals) result.warnings.push_back("a live edit was not applied: " + m);
    result.steps = o.steps;
    result.time_fs = double(o.steps) * scene.dt_s / units::fs;
    result.divergence = o.divergence;
    result.mcells_per_s = o.step_wall_s > 0 ? double(result.cells) * double(o.steps) / o.step_wall_s / 1e6 : 0;
}

/// A dft_field monitor's complex field maps (DftFieldResult: values[c][f * nx*ny + s],
/// origin of sample 0 in um, wavelengths in um). Throws RunError when the engine's sample
/// count does not match the monitor's region.
DftFieldResult dft_field_result(Engine& engine, const Scene& scene, const CompiledMonitor& m) {
    DftFieldResult d;
    d.name = m.name;
    d.nx = m.region_nx;
    d.ny = m.region_ny;
    d.nz = m.region_nz;
    d.dimensions = scene.dimensions;
    d.dx_um = scene.dx_um;
    d.components = m.dft_field_components;
    for (std::size_t c = 0; c < m.dft_field_sets.size(); ++c) {
        const int set = m.dft_field_sets[c];
        const DftSet& ds = scene.dft_sets.at(set);
        const std::size_t nfd = ds.frequencies_hz.size();
        if (c == 0) {
            d.frequency_hz = ds.frequencies_hz;
            for (double f : d.frequency_hz) d.wavelength_um.push_back(units::hz_to_wavelength_um(f));
            if (!ds.cell0.empty()) {
                const std::int64_t c0 = ds.cell0[0];
                const int i0 = int(c0 % scene.nx), j0 = int((c0 / scene.nx) % scene.ny);
                const int k0 = int(c0 / (std::int64_t(scene.nx) * scene.ny));
                const Vec3 off = yee_offset(ds.component);
                d.origin_um = {scene.position_um(0, i0 + off.x), scene.position_um(1, j0 + off.y)};
                d.origin_z_um = scene.dimensions == 3 ? scene.position_um(2, k0 + off.z) : 0.0;
            }
        }
        const cvec raw = engine.dft(set);
        const std::size_t ns = std::size_t(d.nx) * std::size_t(d.ny) * std::size_t(d.nz);
        if (raw.size() != ns * nfd)
            throw RunError("dft_field monitor '" + m.name + "': sample count does not match its region");
        cvec v(raw.size());
        for (std::size_t s = 0; s < ns; ++s)
            for (std::size_t f = 0; f < nfd; ++f) v[f * ns + s] = raw[s * nfd + f];
        d.values.push_back(std::move(v));
    }
    return d;
}

/// A mode monitor's amplitudes (mode_plane.hpp mode_amplitudes), divided by sqrt(P_inc(f))
/// when `p_inc` is given.
std::vector<ModeCoefficientsResult> mode_coefficients_result(Engine& engine, const CompiledMonitor& m,
                                                             const std::vector<double>* p_inc) {
    const ModeMonitorPlan& plan = *m.mode_plan;
    auto fetch = [&engine](int set) { return set >= 0 ? engine.dft(set) : cvec{}; };
    const cvec eu = fetch(plan.set_e[0]), ev = fetch(plan.set_e[1]);
    const cvec hu = fetch(plan.set_h[0]), hv = fetch(plan.set_h[1]);
    const cvec* const sets[4] = {&eu, &ev, &hu, &hv};
    std::vector<ModeCoefficientsResult> out;
    for (ModeAmplitudes& a : mode_amplitudes(plan, sets)) {
        ModeCoefficientsResult r;
        r.name = m.name;
        r.mode_index = a.mode_index;
        r.fwd = std::move(a.fwd);
        r.bwd = std::move(a.bwd);
        r.n_eff = std::move(a.n_eff);
        r.n_eff_imag = std::move(a.n_eff_imag);
        if (p_inc)
            for (std::size_t f = 0; f < r.fwd.size() && f < p_inc->size(); ++f) {
                const double s = (*p_inc)[f] > 0 ? 1.0 / std::sqrt((*p_inc)[f]) : 0.0;
                r.fwd[f] *= s;
                r.bwd[f] *= s;
            }
        out.push_back(std::move(r));
    }
    return out;
}

/// Turns every monitor of the main run into its result (spectra normalized with `norm`
/// when given, time series and their resonances, dft_field maps), in the order of
/// main.monitors. Throws RunError (resonances in a build without Harminv).
void gather_monitors(Engine& engine, const Project& project, const CompiledProject& main,
                     const SpectrumNormalization* norm, RunResult& result,
                     std::optional<std::vector<FarFieldResult>> far_fields = std::nullopt) {
    if (far_fields) result.far_fields = std::move(*far_fields);  // the last live snapshot's, at this step
    const Scene& scene = main.scene;
    const std::size_t nf = main.spectrum_hz.size();
    for (const CompiledMonitor& m : main.monitors) {
        if (m.mode_plan) {
            for (ModeCoefficientsResult& mc : mode_coefficients_result(engine, m, norm ? norm->p_inc : nullptr))
                result.mode_coefficients.push_back(std::move(mc));
            for (const std::string& w : m.mode_plan->warnings) result.warnings.push_back(w);
        }
        if (m.type == MonitorType::Flux || m.type == MonitorType::FluxBox) {
            result.spectra.push_back(flux_spectrum_result(engine, scene, m, nf, norm));
            if (!far_fields)
                if (std::optional<FarFieldResult> f = far_field_of(engine, project, scene, m, norm))
                    result.far_fields.push_back(std::move(*f));
            if (std::optional<DiffractionResult> d = diffraction_of(engine, project, main, m, norm, result.warnings))
                result.diffraction.push_back(std::move(*d));
        } else if (m.type == MonitorType::Time) {
            result.time_series.push_back(time_series_result(engine, scene, m));
            for (const Monitor& pm : project.monitors)
                if (pm.name == m.name && pm.type == MonitorType::Time && pm.resonances)
                    result.resonances.push_back(detail::resonances_of(result.time_series.back(), *pm.resonances,
                                                                      project, main.sources_end_s, scene.dt_s,
                                                                      result.warnings));
        } else if (m.type == MonitorType::DftField)
            result.dft_fields.push_back(dft_field_result(engine, scene, m));
    }
}

/// The final frame of run.frames.component; a warning instead when the engine cannot
/// draw it (std::invalid_argument).
void take_final_frame(Engine& engine, const Project& project, const RunOptions& options, RunResult& result) {
    try {
        Engine::FrameRequest fr = options.frame_request;
        fr.component = project.run.frames.component;
        result.final_frame = engine.frame(fr);
    } catch (const std::invalid_argument& e) {
        result.warnings.push_back(std::string("no final frame: ") + e.what());
    }
}

}  // namespace

RunResult run_compiled(const Project& project, const CompiledProject& main, const CompiledProject* reference,
                       const RunOptions& options, const EngineFactory& factory) {
    const auto t_call = Clock::now();
    RunResult result;
    result.precision = options.precision.value_or(project.run.precision);
    const Scene& scene = main.scene;
    result.warnings = main.warnings;
    result.cells = std::int64_t(scene.cells());
    result.simulated_cells = result.cells;
    for (int a = 0; a < 3; ++a) result.symmetry[std::size_t(a)] = scene.symmetry[a];
    if (result.symmetry != std::array<int, 3>{0, 0, 0})
        result.simulated_cells = std::int64_t(double(result.cells) / mirror_map(scene).cell_ratio() + 0.5);
    result.dimensions = scene.dimensions;
    result.tfsf_cross_sections = !scene.tfsf.empty();
    result.frequency_hz = main.spectrum_hz;
    const StepLimit limit = step_limit(project, options, scene.dt_s);

    const auto& norm = project.run.normalization;
    const int incident = incident_monitor_index(project, "");
    const bool normalize = incident >= 0 && reference != nullptr;
    if (norm.enabled && incident < 0 && scene.tfsf.empty())
        result.warnings.push_back("normalization is enabled but the project has no flux monitor: skipped");
    else if (norm.enabled && !normalize)
        result.warnings.push_back("normalization is enabled but no reference run was compiled: skipped");
    if (normalize) result.incident_monitor = project.monitors[incident].name;

    auto build_engine = [&](const Scene& s, const std::string& phase) {
        auto engine = factory(s, phase);
        if (s.dimensions == 3) engine->set_frame_slice(main.frame_slice);
        result.backend = engine->backend();
        result.device = engine->device();
        result.kernel = engine->kernel();
        result.subdomains = engine->subdomains();
        result.devices.clear();
        for (const SubdomainInfo& sd : result.subdomains) result.devices.push_back(sd.device);
        const Engine::HaloExchangeInfo halo = engine->halo_exchange();
        result.halo_transport = halo.transport;
        result.halo_mode = halo.mode;
        return engine;
    };

    ReferenceFields ref_fields;
    if (normalize) {
        const CompiledProject& ref = *reference;
        if (ref.scene.nx != scene.nx || ref.scene.ny != scene.ny || ref.scene.nz != scene.nz ||
            ref.monitors.size() != main.monitors.size() ||
            ref.scene.dft_sets.size() != scene.dft_sets.size())
            throw RunError("the reference run's grid or monitors differ from the main run's");
        auto engine = build_engine(ref.scene, "reference");
        if (!run_reference(*engine, ref, incident, project, options, limit, result, ref_fields)) {
            result.wall_s = seconds_since(t_call);
            return result;
        }
    }

    auto engine = build_engine(scene, "main");
    // length (2D) or area (3D) of the incident monitor: the compiled extent, else (scenes
    // compiled elsewhere) the project line's length
    double l_inc_um = 0.0;
    if (normalize) {
        const Monitor& mi = project.monitors[std::size_t(incident)];
        l_inc_um = main.monitors[std::size_t(incident)].extent_um;
        if (!(l_inc_um > 0)) l_inc_um = std::hypot(mi.to.x - mi.from.x, mi.to.y - mi.from.y);
    }
    const SpectrumNormalization spectrum_norm{normalize ? &ref_fields.p_inc : nullptr,
                                              normalize ? &ref_fields.ref_sets : nullptr, l_inc_um};
    detail::ResonanceStop resonance_stop(main, project);
    const PhaseOutcome o = run_phase(*engine, main, project, options, "main", limit.steps, limit.is_max_steps, true,
                                     &spectrum_norm, true, &resonance_stop);
    record_main_phase(o, scene, result);
    result.normalized = normalize;
    gather_monitors(*engine, project, main, normalize ? &spectrum_norm : nullptr, result, o.far_fields);
    take_final_frame(*engine, project, options, result);
    result.wall_s = seconds_since(t_call);
    return result;
}

}  // namespace golightly
