// The run driver's pieces shared between its files (not installed): a phase's stepping
// (run_phase.cpp), the monitors' results (run_monitors.cpp) and the driver that runs the
// phases in order (run_driver.cpp).
#pragma once

#include <chrono>
#include <complex>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/run.hpp"
#include "divergence.hpp"
#include "resonance_run.hpp"

namespace golightly::driver {

using Clock = std::chrono::steady_clock;
using cvec = std::vector<std::complex<double>>;

inline double seconds_since(Clock::time_point t0) {
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

/// What normalizes the main run's flux spectra (from the reference run; null: raw only).
struct SpectrumNormalization {
    const std::vector<double>* p_inc = nullptr;  ///< incident flux P_inc(f), W/m (> 0 where meaningful)
    /// Reference-run DFT sets subtracted from reflection and scattering monitors (may be null).
    const std::map<int, std::vector<std::complex<double>>>* ref_sets = nullptr;
    double l_inc_um = 0;  ///< length (2D, um) or area (3D, um^2) of the incident monitor (flux_box cross-sections)
};

/// Steps `engine` until a stop criterion holds (run.hpp, run_project): chunks of steps up
/// to the next check (every 50 steps) or frame; at each check the stop level
/// (DecayLevel), divergence, progress and live monitors, and, when given and active, the
/// resonance stop rule (resonance_run.hpp).
PhaseOutcome run_phase(Engine& engine, const CompiledProject& compiled, const Project& project,
                       const RunOptions& options, const std::string& phase,
                       std::int64_t limit_steps, bool limit_is_max_steps, bool send_frames,
                       const SpectrumNormalization* live_norm = nullptr, bool live_edit = false,
                       detail::ResonanceStop* resonance_stop = nullptr);

/// Fetches the DFT sets a monitor's flux terms use.
void fetch_sets(Engine& engine, const CompiledMonitor& m, std::map<int, cvec>& sets);

/// Flux spectrum of a monitor's terms (compile.hpp, FluxTerm):
///   P(f) = sum_terms sign * 0.5 / eta0 * Re sum_k E[k][f] conj(H~[k][f]) * ds_um * (1e-6)^ds_dims
/// (time-averaged Poynting flux 0.5 Re(E x H*), H = H~/eta0; W/m in 2D, W in 3D). `sets` holds the DFT
/// accumulators [k * n_freq + f]; `ref`, when given, is subtracted sample by sample first.
std::vector<double> flux_spectrum(const Scene& scene, const CompiledMonitor& m, std::size_t n_freq,
                                  const std::map<int, cvec>& sets, const std::map<int, cvec>* ref);

/// True for the monitors whose normalized value subtracts the reference run's fields
/// (flux "reflection", flux_box "scattering").
bool uses_reference_fields(const CompiledMonitor& m);

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
                                        std::size_t n_freq, const SpectrumNormalization* norm);

/// A time monitor's samples so far with their times (fs): E components are sampled at
/// (n + 1) dt, H components at (n + 1/2) dt (scene.hpp, step order).
TimeSeriesResult time_series_result(Engine& engine, const Scene& scene, const CompiledMonitor& m);

/// The Floquet orders of flux monitor `m` when the project declares it a diffraction
/// monitor (spectra normalized with `norm` when given, its reflected fields from the
/// reference run's), else nothing. Throws RunError as detail::diffraction_result.
std::optional<DiffractionResult> diffraction_of(Engine& engine, const Project& project, const CompiledProject& compiled,
                                                const CompiledMonitor& m, const SpectrumNormalization* norm,
                                                std::vector<std::string>& warnings);

/// The far field of monitor `m` when the project gives it one, as RunResult::far_fields
/// holds it (normalized with `norm` when given); under MPI on rank 0 only (the other
/// ranks join the gather of far_field_result and get nullopt). Throws RunError as
/// far_field_result.
std::optional<FarFieldResult> far_field_of(Engine& engine, const Project& project, const Scene& scene,
                                           const CompiledMonitor& m, const SpectrumNormalization* norm);
std::vector<ModeCoefficientsResult> mode_coefficients_result(Engine& engine, const CompiledMonitor& m,
                                                             const std::vector<double>* p_inc);


/// A mode monitor's amplitudes (mode_plane.hpp mode_amplitudes), divided by sqrt(P_inc(f))
/// when `p_inc` is given.
std::vector<ModeCoefficientsResult> mode_coefficients_result(Engine& engine, const CompiledMonitor& m,
                                                             const std::vector<double>* p_inc);

/// Turns every monitor of the main run into its result (spectra normalized with `norm`
/// when given, time series and their resonances, dft_field maps), in the order of
/// main.monitors. Throws RunError (resonances in a build without Harminv).
void gather_monitors(Engine& engine, const Project& project, const CompiledProject& main,
                     const SpectrumNormalization* norm, RunResult& result,
                     std::optional<std::vector<FarFieldResult>> far_fields = std::nullopt);

}  // namespace golightly::driver
