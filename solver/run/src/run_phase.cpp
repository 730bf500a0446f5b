// GoLightly run driver: one phase stepped to its stop criterion (run_phase): the decay
// level, divergence, cancellation and pause, progress with its ETA, live edits and the
// live monitor snapshots (with throttled far fields).
#include "run_driver_internal.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "golightly/errors.hpp"
#include "golightly/scene.hpp"
#include "golightly/units.hpp"
#include "divergence.hpp"
#include "resonance_run.hpp"

namespace golightly::driver {

namespace {

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

}  // namespace

/// Steps `engine` until a stop criterion holds (run.hpp, run_project): chunks of steps up
/// to the next check (every 50 steps) or frame; at each check the stop level
/// (DecayLevel), divergence, progress and live monitors, and, when given and active, the
/// resonance stop rule (resonance_run.hpp).
PhaseOutcome run_phase(Engine& engine, const CompiledProject& compiled, const Project& project,
                       const RunOptions& options, const std::string& phase,
                       std::int64_t limit_steps, bool limit_is_max_steps, bool send_frames,
                       const SpectrumNormalization* live_norm, bool live_edit,
                       detail::ResonanceStop* resonance_stop) {
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
    // A grid spread over MPI ranks: each rank's clock would decide alone when a snapshot
    // projects, and the projection gathers from every rank, so they would wait on each
    // other; there the snapshots carry no far fields (run_project warns) and the result
    // projects them once (gather_monitors).
    const DistributionInfo dist = engine.distribution();
    const bool over_ranks = std::any_of(dist.subdomains.begin(), dist.subdomains.end(),
                                        [](const SubdomainInfo& s) { return s.rank != 0; });
    LiveFarFieldClock* far_clock = phase == "main" && far_fields && !over_ranks ? &far_clock_state : nullptr;
    if (far_clock)
        far_clock->cost_s = (engine.backend() == "cuda" ? kProjectionSecondsPerTermGpu : kProjectionSecondsPerTerm) *
                            far_field_terms(compiled, project);
    auto last_frame_time = Clock::now();
    bool frame_sent = false;  // the first frame is never held back
    FrameRequest frame_request = options.frame_request;
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
                if (options.frame) options.frame(engine.frames().frame(frame_request), now_steps, t_s / units::fs);
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

namespace {

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

}  // namespace golightly::driver
