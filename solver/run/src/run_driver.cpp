// GoLightly run driver (run.hpp): the reference and main phases in order, the
// normalization the reference run leaves for the main run, and the result. A phase's
// stepping is in run_phase.cpp, the monitors' results in run_monitors.cpp, the backend
// chooser in run_engines.cpp.
#include "golightly/run.hpp"
#include "golightly/symmetric_engine.hpp"
#include "golightly/run_phases.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "golightly/compile.hpp"
#include "golightly/errors.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"
#include "run_driver_internal.hpp"

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

// the phase and monitor pieces (run_driver_internal.hpp)
using namespace driver;

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

/// The final frame of run.frames.component; a warning instead when the engine cannot
/// draw it (std::invalid_argument).
void take_final_frame(Engine& engine, const Project& project, const RunOptions& options, RunResult& result) {
    try {
        FrameRequest fr = options.frame_request;
        fr.component = project.run.frames.component;
        result.final_frame = engine.frames().frame(fr);
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
        if (s.dimensions == 3) engine->frames().set_frame_slice(main.frame_slice);
        result.backend = engine->backend();
        result.device = engine->device();
        result.kernel = engine->kernel();
        DistributionInfo dist = engine->distribution();
        result.subdomains = std::move(dist.subdomains);
        result.devices.clear();
        for (const SubdomainInfo& sd : result.subdomains) result.devices.push_back(sd.device);
        result.halo_transport = dist.transport;
        result.halo_mode = dist.mode;
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
    if (options.live && std::any_of(project.monitors.begin(), project.monitors.end(),
                                    [](const Monitor& m) { return m.far_field.has_value(); }) &&
        std::any_of(result.subdomains.begin(), result.subdomains.end(), [](const SubdomainInfo& s) { return s.rank != 0; }))
        result.warnings.push_back("the live snapshots carried no far fields: the grid is spread over MPI ranks, which "
                                  "project once, at the end (docs/cluster.md)");
    take_final_frame(*engine, project, options, result);
    result.wall_s = seconds_since(t_call);
    return result;
}

}  // namespace golightly
