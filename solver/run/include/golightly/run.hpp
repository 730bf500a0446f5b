// GoLightly run driver: compiles a Project, runs the normalization (reference) run and
// the main run on a chosen backend, applies the stop criteria (decay, max time, max
// steps), watches for divergence and cancellation, and turns the engine's DFT
// accumulators and time probes into monitor results (project-format.md, "run").
//
// Qt-free; the IDE calls run_project() on its solver thread with callbacks, the CLI on
// its main thread.
#pragma once

#include <array>
#include <atomic>
#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "golightly/engine.hpp"
#include "golightly/diffraction.hpp"
#include "golightly/far_field.hpp"
#include "golightly/image_io.hpp"
#include "golightly/project.hpp"
#include "golightly/resonance_finder.hpp"

namespace golightly {

/// Why a run ended (summary.json "stop_reason").
enum class StopReason { Decay, MaxTime, MaxSteps, Diverged, Cancelled, Resonances };
/// "decay", "max_time", "max_steps", "diverged", "cancelled", "resonances".
std::string to_string(StopReason reason);

/// Progress of one phase, reported after every chunk of steps.
struct ProgressInfo {
    std::string phase;          ///< "reference" (normalization run) or "main"
    std::int64_t step = 0;      ///< steps done in this phase
    std::int64_t max_steps = 0; ///< step limit of this phase (max_time_fs / max_steps)
    double time_fs = 0;         ///< simulated time of this phase
    double energy_db = 0;       ///< how far the field energy (or the stop monitor's envelope) is below its peak, dB (>= 0)
    double steps_per_s = 0;
    double mcells_per_s = 0;    ///< cell updates per second / 1e6
    double eta_s = -1;          ///< estimated wall time left in this phase (s); < 0 unknown
    /// The stop rule that is in charge and how far it is, in words (e.g. "decay to 40 dB",
    /// "resonances: 3 modes, df/f 2.1e-05 (stops below 1e-06)"); shown in progress bars.
    std::string stop_rule;
};

struct LiveMonitors;
struct MaterialUpdateOutcome;

/// Which devices one grid runs on (project-format.md "Runs on several GPUs and hosts"):
/// `run.devices` and `golightly-cli run --devices`.
///   auto   every visible CUDA device when the grid is large enough to gain from it (one
///          device per kAutoCellsPerDevice cells), else one;
///   all    every visible CUDA device;
///   count  the first `count` devices;
///   list   the given device ordinals.
/// On the CPU backend a count above 1 (or a list of several) cuts the grid into that many
/// subdomains in one process (a check of the decomposition, no speed-up); auto and all
/// give one CPU engine.
struct DeviceSelection {
    enum class Kind { Auto, All, Count, List } kind = Kind::Auto;
    int count = 1;
    std::vector<int> ordinals;
};
/// Cells per device from which `auto` adds a device (about 2 GB of float32 state in 3D).
constexpr std::int64_t kAutoCellsPerDevice = std::int64_t(1) << 26;
/// Parses "auto", "all", a count ("2") or a list of ordinals ("0,1"). Throws
/// std::invalid_argument naming what is wrong.
DeviceSelection parse_device_selection(const std::string& text);
/// The project's `run.devices` (auto when absent): "auto", "all", a count or a list of
/// ordinals. Throws ProjectError naming `run.devices`.
DeviceSelection project_devices(const Project& project, const std::string& file_label);

struct RunOptions {
    std::optional<BackendChoice> backend;  ///< overrides run.backend
    std::optional<DeviceSelection> devices;  ///< overrides run.devices
    std::optional<Precision> precision;    ///< overrides run.precision
    int threads = 0;                       ///< CPU engine threads; <= 0: all cores
    std::optional<long long> max_steps;    ///< overrides run.stop.max_steps (max_time_fs still applies)
    /// Called after every chunk of steps (on the calling thread).
    std::function<void(const ProgressInfo&)> progress;
    /// Called every run.frames.every_steps steps of the main run with FrameSource::frame()
    /// of run.frames.component (size limits from frame_request). Null: no frames.
    std::function<void(const Image8& frame, std::int64_t step, double time_fs)> frame;
    FrameRequest frame_request;    ///< component is taken from run.frames
    /// Set to true (from any thread) to stop the run at the next chunk: stop_reason cancelled.
    std::atomic<bool>* cancel = nullptr;
    /// While true the driver sleeps between chunks (the engine state is kept).
    std::atomic<bool>* pause = nullptr;
    /// Makes each phase's engine (scene, "reference" or "main") instead of make_engine()
    /// with backend, devices, precision and threads (golightly-cli under mpirun: one
    /// subdomain per rank, golightly/mpi.hpp). Null: make_engine().
    std::function<std::unique_ptr<Engine>(const Scene& scene, const std::string& phase)> engine_factory;

    // ---- IDE additions (all optional; the callbacks run on the calling thread and must
    // only copy what they need: the solver never waits for a GUI)
    /// Called at the same points as `frame` (every run.frames.every_steps steps of the main
    /// run, subject to frame_min_interval_s) with the engine itself, so that a viewport can
    /// read the fields it needs (Engine::get_field) and downsample them. Null: not called.
    std::function<void(Engine& engine, std::int64_t step, double time_fs)> frame_hook;
    /// Frames (frame and frame_hook) closer than this in wall time to the previous one are
    /// skipped and not computed (e.g. 1/30 s for 30 frames/s). <= 0: every frame.
    double frame_min_interval_s = 0;
    /// Called about every live_every_steps steps of both phases (at the driver's check
    /// points) with the monitors' values so far: spectra from the DFTs accumulated so far
    /// (normalized in the main run when the reference run has completed) and time series.
    /// Also once at the end of a phase that stopped by its rule (decay, time or step limit,
    /// resonances; not cancelled or diverged) when the last call was at an earlier step, so
    /// that the main run's last snapshot holds the values the RunResult gets.
    std::function<void(const LiveMonitors&)> live;
    std::int64_t live_every_steps = 200;

    /// Live edit (IDE, issue 5; Engine::update_materials): polled before every chunk of
    /// steps of the main run (not the reference run), on the calling thread. Returns a
    /// scene compiled from the edited project (compile_project, main run) to apply, or
    /// null when there is none; the function must not block (a latest-wins mailbox). An
    /// edit waiting when the main run starts is applied before its first step. Null: the
    /// run keeps its snapshot.
    std::function<std::shared_ptr<const Scene>()> poll_material_update;
    /// Called after each polled scene with what became of it (on the calling thread).
    std::function<void(const MaterialUpdateOutcome&)> material_update_done;
};

/// What the run did with one live-edited scene (RunOptions::poll_material_update).
struct MaterialUpdateOutcome {
    bool applied = false;       ///< the engine runs on the edited materials now
    bool changed = false;       ///< the materials differ from the previous ones (counts as a live edit)
    std::string message;        ///< why it was refused (check_material_update), empty when applied
    std::int64_t step = 0;      ///< main-run step at which it was applied
    double time_fs = 0;
    double apply_ms = 0;        ///< wall time of the checks and Engine::update_materials
};

/// A flux or flux_box monitor's spectrum, one value per RunResult::frequency_hz entry.
struct FluxSpectrumResult {
    std::string name;
    MonitorType type = MonitorType::Flux;
    std::string kind;
    /// Raw Poynting flux of the main run along the monitor's direction (flux_box: net
    /// outward), W/m per (V/m s)^2 of DFT units (compile.hpp, FluxTerm).
    std::vector<double> flux;
    /// Normalized value: flux monitors (when the normalization run ran): transmission /
    /// reflection / flux: ratio to P_inc. flux_box (with a tfsf source always, else when
    /// the normalization run ran): cross-sections sigma(lambda) = P(lambda) / I_inc in um
    /// (2D, per unit length along z) or um^2 (3D): absorption (and flux): -net outward flux,
    /// scattering: net outward scattered flux; I_inc = n |E_inc(f)|^2 / (2 eta0) of the
    /// tfsf wave (tfsf_incident_intensity) or P_inc / (incident monitor length or area).
    /// Empty when neither applies.
    std::vector<double> normalized;
};

/// One mode of a mode monitor (a 3D flux monitor with kind "mode"; mode_plane.hpp,
/// mode_amplitudes): forward (along the monitor's direction) and backward complex
/// amplitudes per RunResult::frequency_hz entry, |a|^2 = the power in the mode (W per
/// (V/m s)^2 of DFT units), or, when the normalization run ran, divided by sqrt(P_inc)
/// so that |a|^2 is the power relative to the incident power; n_eff of the mode at each
/// frequency (0 where the cross-section has no such mode).
struct ModeCoefficientsResult {
    std::string name;  ///< the monitor's
    int mode_index = 0;
    std::vector<std::complex<double>> fwd, bwd;
    std::vector<double> n_eff;
    /// Im n_eff at each frequency (> 0: the mode decays along its direction; 0 for
    /// lossless cross-sections; empty for 2D lines)
    std::vector<double> n_eff_imag;
};

/// A time monitor's samples: values[n] at time_fs[n] (one per step).
struct TimeSeriesResult {
    std::string name;
    Component component = Component::Ez;
    std::vector<double> time_fs;
    std::vector<double> values;
};

/// A time monitor's resonances (Monitor::resonances; golightly/resonance_finder.hpp):
/// the modes Harminv finds in its signal, sorted by frequency.
struct ResonanceResult {
    std::string name;           ///< the monitor's
    double t0_fs = 0;           ///< time of the first sample analysed: amplitudes and phases refer to it
    std::int64_t samples = 0;   ///< samples analysed
    double wavelength_min_um = 0, wavelength_max_um = 0;  ///< the band searched (vacuum wavelengths)
    std::vector<Resonance> modes;
};

/// A flux_box's far field (Monitor::far_field; golightly/far_field.hpp), per wavelength on
/// a theta x phi grid.
struct FarFieldResult {
    std::string name;                   ///< the monitor's
    int dimensions = 3;
    Polarization polarization = Polarization::TMz;  ///< 2D
    std::vector<double> wavelength_um;  ///< the spectrum points projected (nearest the requested)
    std::vector<double> frequency_hz;
    int n_theta = 1, n_phi = 1;         ///< grid: theta_i = 180 i / (n_theta - 1) deg (2D: 90 only), phi_j = 360 j / n_phi deg
    /// samples[w][i * n_phi + j]
    std::vector<std::vector<FarFieldSample>> samples;
    std::vector<double> power;          ///< radiated power per wavelength: the intensity integrated over the grid
    /// TF/SF runs: the incident intensity per wavelength (W/m^2, DFT units), so that
    /// intensity / i_inc is the differential scattering cross-section (m^2/sr; m/rad in
    /// 2D); empty otherwise
    std::vector<double> i_inc;
    /// The equivalent currents per wavelength (for projecting to other directions later:
    /// results far_field/<name>_surface.csv, golightly-cli farfield)
    std::vector<SurfaceCurrents> surfaces;
};

/// A diffraction monitor's Floquet orders (Monitor::diffraction; golightly/diffraction.hpp,
/// project-format.md "Diffraction monitors"), per RunResult::frequency_hz entry.
struct DiffractionResult {
    std::string name;                   ///< the monitor's
    std::string kind;                   ///< transmission | reflection | flux
    int dimensions = 2;
    double index = 1;                   ///< medium index the angles and cut-off used
    std::vector<double> wavelength_um;  ///< vacuum, one per spectrum point
    /// orders[f]: the propagating orders at spectrum point f (evanescent ones omitted)
    std::vector<std::vector<FloquetOrder>> orders;
    /// Per spectrum point, the divisor of power_fraction: P_inc (normalized) or the
    /// plane's whole flux (sum over every order; not normalized). Flux units.
    std::vector<double> reference_power;
    bool normalized = false;            ///< reference_power is P_inc of the normalization run
    /// Whether the reference run's fields were subtracted first (kind reflection, normalized).
    bool reference_subtracted = false;
    /// order.power / reference_power[f]
    double power_fraction(std::size_t f, std::size_t o) const {
        return reference_power[f] != 0 ? orders[f][o].power / reference_power[f] : 0.0;
    }
};

/// A dft_field monitor's complex field maps.
struct DftFieldResult {
    std::string name;
    std::vector<double> frequency_hz;   ///< one per map
    std::vector<double> wavelength_um;  ///< vacuum wavelengths of frequency_hz
    std::vector<Component> components;
    int nx = 0, ny = 0;                 ///< samples per axis of the region
    int nz = 1;                         ///< 3D: samples along z (1 in 2D)
    int dimensions = 2;                 ///< of the run (3: HDF5 datasets [n_wl][nz][ny][nx])
    double dx_um = 0;
    Vec2 origin_um;                     ///< position of sample (0, 0) of the first component, um
    double origin_z_um = 0;             ///< 3D: z of sample (0, 0, 0), um
    /// values[c][((f * nz + k) * ny + j) * nx + i]: component c, frequency f, sample (i, j, k)
    /// (x fastest; k = 0 in 2D), DFT units V/m * s (scene.hpp, DftSet).
    std::vector<std::vector<std::complex<double>>> values;
};

/// Where the fields blew up, and the likely cause (run.hpp run_project "Divergence";
/// summary.json "divergence", project-format.md).
struct DivergenceInfo {
    std::string phase;         ///< "reference" or "main"
    std::int64_t step = 0;     ///< step count when the divergence was detected
    double time_fs = 0;
    /// How it was detected: "nonfinite" (a field value is NaN or Inf) or "growth" (after
    /// every source ended, the field energy rose more than kDivergenceGrowth times above
    /// the largest energy seen up to then).
    std::string detected_by = "nonfinite";
    /// Field energy at detection over the reference energy of the growth rule (the
    /// largest energy up to the first check after the sources ended); 0 when unknown
    /// (non-finite energy, or the sources still on).
    double energy_growth = 0;
    Component component = Component::Ez;  ///< component of the located cell
    int i = -1, j = -1;        ///< grid cell (PML included)
    int k = 0;                 ///< 3D: its z index
    double x_um = 0, y_um = 0; ///< its physical position (origin: interior lower-left corner)
    double z_um = 0;           ///< 3D: its z
    std::int64_t nonfinite_values = 0;  ///< NaN/Inf values over all components
    double max_abs_finite = 0; ///< largest finite |field| seen
    /// Cell box of the growing fields, inclusive grid indices (PML included; [2] = 0 in
    /// 2D): the cells where the largest |component| reaches kDivergenceBoxLevel of its
    /// maximum over the grid; when values are non-finite, the cells holding them, narrowed
    /// (classify_divergence) to the E cells of the media in it that are not passive or
    /// unstable at this time step, where there are any (non-finite values spread a cell
    /// per step from where they began).
    std::array<int, 3> box_min{0, 0, 0}, box_max{-1, -1, 0};
    /// The same box in um (origin: interior lower-left corner), from the lower faces of
    /// box_min's cells to the upper faces of box_max's: [x, y, z] (z 0 in 2D).
    std::array<double, 3> box_min_um{0, 0, 0}, box_max_um{0, 0, 0};
    /// Where the located cell lies: "pml" (region_name: the PML face(s), "x-low",
    /// "x-high", "y-low", "y-high", "z-low", "z-high", joined by ", " in a corner),
    /// "material" (region_name: the material id of the topmost layer shape there, `layer`
    /// that layer's name) or "background" (region_name: domain.background); "" unknown.
    std::string region_kind;
    std::string region_name;
    std::string layer;
    /// Material id at the located cell (also inside the PML; "" unknown).
    std::string material;
    /// Likely cause, from the scene's facts over the cell box:
    ///   "non_passive_pole"   a dispersive pole there amplifies (gamma < 0 or omega_p^2 < 0:
    ///                        PoleCoeffs c2 < -1 or c3 < 0);
    ///   "courant"            the update of a medium there is unstable at this time step
    ///                        (dispersion.hpp amplification_factor > 1, e.g. epsilon_inf
    ///                        below d S^2, or a pole with omega dt too large), or S is at
    ///                        or above 1 / sqrt(d) (d = 2 or 3);
    ///   "dispersive_in_pml"  the located cell lies in a PML slab that holds dispersive cells;
    ///   "unknown"            none of these.
    std::string cause = "unknown";
    std::string cause_text;    ///< one sentence in English saying the cause and what to change
};

/// The divergence in words, one line without a trailing period (the CLI's error message):
/// "the fields diverged in the <phase> run at step N (T fs; ...) near x = .. um, y = .. um
/// (<component>, cell i,j) in <region>, cells i0..i1 x j0..j1; likely cause: <cause_text>".
/// `dimensions` 2 or 3 (3 adds z).
std::string divergence_message(const DivergenceInfo& d, int dimensions);

/// Fills region_kind, region_name, layer, material, cause and cause_text of `info` from
/// its cell (i, j, k), position (x_um, y_um, z_um) and cell box (the run driver calls it
/// when a run diverges). The "bad" media of the box (E cells with a pole that is not
/// passive; else those whose update amplifies, amplification_factor > 1): the located cell
/// moves to the nearest bad cell, and with non-finite values the box shrinks to the bad
/// cells' box. Then the PML faces from the scene's PML cells; the material at the
/// position (the largest coverage of a one-cell window, geometry.hpp compute_coverage) and
/// the topmost run layer whose shape holds it (vector shapes, solids and rasters; STEP
/// shapes are not searched); the cause (DivergenceInfo::cause) from the pole sets, table
/// entries and PML slabs of the E cells in the box (amplification_factor of each distinct
/// medium, at most 256 of them; a box of more than 2e7 cells is sampled with an equal
/// stride per axis that leaves at most about 2e7). A scene without a material table (a test double's) leaves
/// the region's material fields "". Never throws for a geometry it cannot evaluate (those
/// fields stay "").
void classify_divergence(const Scene& scene, const Project& project, bool reference_run, DivergenceInfo& info);

/// Growth rule of the divergence watch (run_project "Divergence"): the field energy
/// exceeding this factor times its reference (40 dB).
constexpr double kDivergenceGrowth = 1e4;
/// The divergence cell box holds the cells whose largest |component| reaches this
/// fraction of the grid's maximum (20 dB below the peak).
constexpr double kDivergenceBoxLevel = 0.1;

/// Intermediate monitor values (RunOptions::live).
struct LiveMonitors {
    std::string phase;                        ///< "reference" or "main"
    std::int64_t step = 0;                    ///< steps done in this phase
    double time_fs = 0;
    bool normalized = false;                  ///< spectra[].normalized is filled
    std::vector<double> frequency_hz;         ///< run spectrum, increasing
    std::vector<FluxSpectrumResult> spectra;  ///< flux and flux_box monitors, project order
    std::vector<TimeSeriesResult> time_series;
    /// diffraction monitors' Floquet orders so far (as RunResult::diffraction; normalized
    /// once `normalized` is set)
    std::vector<DiffractionResult> diffraction;
    /// mode monitors' forward and backward mode amplitudes so far (as
    /// RunResult::mode_coefficients: project order, one entry per monitor and listed mode,
    /// divided by sqrt(P_inc(f)) once `normalized` is set)
    std::vector<ModeCoefficientsResult> mode_coefficients;
    /// Main run only: the far fields of monitors with `far_field` from the surface DFTs so
    /// far (as RunResult::far_fields, without the equivalent currents `surfaces`). The
    /// projection is throttled (kLiveFarFieldInterval): empty at snapshots that skip it
    /// (the last picture stands); always filled in the phase's last snapshot, which then
    /// equals RunResult::far_fields.
    std::vector<FarFieldResult> far_fields;
};

/// Live far fields (LiveMonitors::far_fields) are projected at most once per this many
/// seconds of wall time, and at most once per twenty times their own last cost, so that
/// the projection stays below about 5 % of the run.
constexpr double kLiveFarFieldInterval = 2.0;

struct RunResult {
    StopReason stop_reason = StopReason::MaxTime;
    std::int64_t steps = 0;      ///< main-run steps
    double time_fs = 0;          ///< main-run simulated time
    double wall_s = 0;           ///< wall time of the whole call (compile, reference and main run)
    std::int64_t cells = 0;      ///< Yee cells of the grid (PML included): nx * ny * nz
    /// domain.symmetry (summary.json "symmetry" when set) and the cells the engine stepped:
    /// cells / 2, 4 or 8 with symmetry planes (summary.json "simulated_cells"), else cells.
    std::array<int, 3> symmetry{0, 0, 0};
    std::int64_t simulated_cells = 0;
    int dimensions = 2;          ///< 2 or 3 (summary.json "dimensions")
    /// flux_box spectra are cross-sections normalized by the tfsf wave's intensity
    bool tfsf_cross_sections = false;
    double mcells_per_s = 0;     ///< cells * steps / (main-run stepping wall time) / 1e6
    std::string backend;         ///< "cpu" or "cuda"
    std::string device;
    /// The bulk kernel of the main run's engine (Engine::kernel; summary.json "kernel" when
    /// not empty).
    std::string kernel;
    /// Several devices or subdomains (summary.json "devices", "subdomains"); empty for a
    /// run on one device.
    std::vector<std::string> devices;
    std::vector<SubdomainInfo> subdomains;
    /// The halo exchange of a run on several subdomains (summary.json "halo_exchange"):
    /// DistributedEngine::transport() ("memcpy", "cuda-peer", "mpi") and mode() ("overlap":
    /// the transfers hidden behind the interior update, "events", "threads", "sync");
    /// empty for a run on one device.
    std::string halo_transport, halo_mode;
    Precision precision = Precision::Float32;
    std::vector<std::string> warnings;

    bool normalized = false;     ///< the reference run ran to completion and spectra were normalized
    std::int64_t reference_steps = 0;
    double reference_wall_s = 0;
    std::optional<StopReason> reference_stop_reason;
    std::string incident_monitor;  ///< name of the monitor that gave P_inc (normalized runs)
    std::vector<double> incident_flux;  ///< P_inc(f), W/m (DFT units), positive

    std::vector<double> frequency_hz;   ///< run spectrum, increasing
    std::vector<FluxSpectrumResult> spectra;  ///< flux and flux_box monitors, project order
    std::vector<TimeSeriesResult> time_series;
    /// time monitors with `resonances`, project order
    std::vector<ResonanceResult> resonances;
    /// flux_box monitors with `far_field`, project order
    std::vector<FarFieldResult> far_fields;
    /// flux monitors written as type "diffraction", project order
    std::vector<DiffractionResult> diffraction;
    std::vector<DftFieldResult> dft_fields;
    /// mode monitors, project order, one entry per monitor and listed mode
    std::vector<ModeCoefficientsResult> mode_coefficients;
    Image8 final_frame;                 ///< run.frames.component at the end (RGBA); empty if none
    std::optional<DivergenceInfo> divergence;
    /// Live edits applied to the main run that changed its materials
    /// (RunOptions::poll_material_update; summary.json "live_edits"). When > 0 the spectra
    /// mix structures and are not comparable with a run of either project.
    int live_edits = 0;
};

/// Runs the project: optional normalization run, then the main run.
///
/// Backend: auto = CUDA when cuda_available(), else CPU; an OutOfMemoryError from CUDA
/// with auto falls back to the CPU (a warning says so). Explicit cuda without a device
/// throws RunError.
///
/// With a tfsf source (2D and 3D) flux_box monitors are cross-sections normalized by the
/// TF/SF wave's intensity (FluxSpectrumResult::normalized), whatever run.normalization
/// says; no reference run is needed for them.
///
/// Normalization (run.normalization.enabled and at least one flux/flux_box monitor): a
/// reference run (compile_project with reference_run) with the same stop logic gives
/// P_inc(f) = flux at the incident monitor (default: first reflection monitor, else the
/// first transmission monitor), its sign chosen so that P_inc is positive, and the
/// reference DFT samples of every reflection monitor and scattering flux_box. Then
///   transmission / flux kind = flux / P_inc,
///   reflection = flux of (E - E_ref, H - H_ref) along the monitor direction / P_inc,
///   absorption = -net outward flux / I_inc, I_inc = P_inc / L_inc (L_inc: length of the
///   incident monitor, um, or its area in 3D, um^2), a cross-section in um (um^2 in 3D);
///   scattering = net outward flux of the
///   scattered fields / I_inc (Taflove & Hagness 3rd ed., sec. 5.10 / Meep's normalization).
///
/// Stop: the engine steps in chunks; after each, the field energy (or the envelope of
/// run.stop.monitor's |value| over about two periods of the longest spectrum wavelength)
/// is compared with its peak: decay when the time is past the end of every source and the
/// level has fallen run.stop.decay_db below the peak (energy: 10 log10, monitor value:
/// 20 log10); max_time / max_steps at the limits; diverged (below); cancelled on *cancel.
/// A diverged or cancelled reference run ends the whole run with that reason.
///
/// Divergence: at every check (every 50 steps) the run stops as diverged when a field
/// value is NaN or Inf, or when, after every source has ended, the field energy
/// (Engine::field_energy, computed at the check anyway) exceeds kDivergenceGrowth times its
/// reference: the largest energy seen up to the first check after the sources ended
/// (raised to the energy of the moment after a live edit changed the materials). A
/// passive scene cannot gain energy once its sources are off (the field energy leaves out
/// the polarization energy, so it may swing between field and medium, never by 40 dB), so
/// legitimate runs (high-Q cavities, ramped sources) never trigger; an unstable one with
/// energy growth rate r per step stops about ln(kDivergenceGrowth) / r steps, rounded up
/// to the next check, after its energy passes the reference. Nothing aborts:
/// RunResult::divergence says where (cell, cell box, PML face or material and layer) and
/// the likely cause (DivergenceInfo).
///
/// Throws ProjectError (compile), RunError / OutOfMemoryError (engine creation, device errors).
RunResult run_project(const Project& project, const std::string& file_label, const RunOptions& options = {});

struct CompiledProject;

/// Makes the engine of one phase ("reference" or "main") for a compiled scene.
using EngineFactory = std::function<std::unique_ptr<Engine>(const Scene& scene, const std::string& phase)>;

/// run_project() after compiling: runs `reference` (when not null and normalization
/// applies) and `main` on engines from `factory`, with the same stop, divergence and
/// normalization logic. Lets tests drive the run logic with a scripted engine.
/// RunResult::wall_s covers this call only.
RunResult run_compiled(const Project& project, const CompiledProject& main, const CompiledProject* reference,
                       const RunOptions& options, const EngineFactory& factory);

/// Index in project.monitors of the monitor that gives P_inc, or -1 when normalization
/// does not apply (disabled, or no flux / flux_box monitor). Throws ProjectError naming
/// run.normalization(.incident_monitor) when no suitable monitor exists.
int incident_monitor_index(const Project& project, const std::string& file_label);

/// DFT of a source waveform as the engine's DFT sets accumulate it (scene.hpp DftSet):
///   X(f) = sum_{n=0}^{steps-1} w.value(t_n - delay_s) exp(+i 2 pi f t_n) dt_s,
///   t_n = (n + time_offset) dt_s
/// (time_offset 1: E samples, and the TF/SF injection value; 1/2: H samples and the E
/// sources' times). Units: waveform units * s. A pulse's sum stops where value() is 0.
std::vector<std::complex<double>> waveform_dft(const CompiledWaveform& w, double delay_s, double dt_s,
                                               double time_offset, const std::vector<double>& frequencies_hz,
                                               std::int64_t steps);

/// Incident intensity of the scene's first TF/SF wave at each frequency (Hz), over the
/// first `steps` steps: I_inc(f) = n |E_inc(f)|^2 / (2 eta0), E_inc(f) = waveform_dft of
/// the injected E_inc (held at t = (n+1) dt, scene.hpp "TF/SF"; the 1D line is lossless,
/// so |E_inc(f)| is the same at the box), n = sqrt(eps_r) of e_component's table entry at
/// the box's lo corner (the background). Units: W/m^2 per (V/m s)^2 of DFT units. A
/// cross-section is sigma(f) = P(f) / I_inc(f): m^2 for a 3D flux P in W, m for a 2D flux
/// in W/m. Throws RunError when the scene has no tfsf source.
std::vector<double> tfsf_incident_intensity(const Scene& scene, const std::vector<double>& frequencies_hz,
                                            std::int64_t steps);

/// Picks the engine for a backend choice as run_project does, from what each backend
/// says it runs (capabilities.hpp: cpu_cannot_run, cuda_cannot_run):
///   cpu: the CPU engine;
///   cuda: the CUDA engine, or RunError naming the reason where the CUDA backend cannot
///     run the scene (3D Mur faces, no usable device, dispersion without support);
///     OutOfMemoryError (the sizes) where the grid does not fit;
///   auto: CUDA where it runs the scene, else the CPU with a warning line naming the reason
///     (none for a machine without a GPU); a grid that does not fit in GPU memory runs on
///     the CPU with a warning line.
/// Warning lines are appended to `warnings`. One device: the current CUDA device or one
/// CPU engine. The engine views `scene` (engine.hpp SceneView): the scene must outlive it.
/// The CPU engine throws OutOfMemoryError where the grid does not fit in host memory.
std::unique_ptr<Engine> make_engine(const Scene& scene, BackendChoice backend, Precision precision,
                                    int threads, std::vector<std::string>& warnings);
/// make_engine() on the devices of `devices` (DeviceSelection): one engine, or a
/// DistributedEngine (distributed.hpp) of one subdomain per device (on the CPU backend,
/// that many subdomains in this process, with a warning line). The same choice and errors
/// as above; besides, throws RunError for a count above the visible devices, an ordinal
/// that does not exist, or a grid that cannot be cut into that many pieces. After a grid
/// does not fit in GPU memory, auto runs one CPU engine.
std::unique_ptr<Engine> make_engine(const Scene& scene, BackendChoice backend, Precision precision,
                                    int threads, const DeviceSelection& devices, std::vector<std::string>& warnings);

}  // namespace golightly
