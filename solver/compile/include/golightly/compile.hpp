// GoLightly: compile a Project into a Scene (scene.hpp) plus the bookkeeping the run
// driver needs to turn engine accumulators into monitor results.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "golightly/project.hpp"
#include "golightly/scene.hpp"

namespace golightly {

struct CompileOptions {
    /// Build the normalization (reference) run: only the layers named in
    /// run.normalization.reference_layers (plus the background); otherwise the main run:
    /// every visible layer that is not reference_only.
    bool reference_run = false;
    /// Overrides run.subpixel_averaging when set.
    std::optional<bool> subpixel_averaging;
};

/// One term of a flux: sign * 0.5 / eta0 * Re sum_k E[k] conj(H[k]) * ds_um * (1e-6)^ds_dims,
/// with E = dft_sets[e_set], H = dft_sets[h_set] (already co-located by the set weights).
/// A flux monitor's spectrum is the sum of its terms: W/m per (V/m s)^2 of DFT units in
/// 2D (ds_dims = 1, per metre along z), W per (V/m s)^2 in 3D (ds_dims = 2).
struct FluxTerm {
    int e_set = -1;
    int h_set = -1;
    double sign = 1.0;
    double ds_um = 0.0;  ///< length (2D, um) or area (3D, um^2) each sample stands for
    int ds_dims = 1;     ///< 1: ds_um is a length (2D); 2: an area (3D)
    /// The line's or plane's normal axis (0 x, 1 y, 2 z) and the monitor's positive flux
    /// direction along it (+1 / -1; outward on a flux_box's faces). The E sample k sits on
    /// the E node e_set.cell0[k]; h_set's sample k is H~ averaged onto that node.
    int normal_axis = -1;
    int direction = 0;
};

struct ModeMonitorPlan;  // mode_plane.hpp

struct CompiledMonitor {
    std::string name;
    MonitorType type = MonitorType::Flux;
    std::string kind;                 ///< transmission | reflection | flux | absorption | ...
    std::vector<FluxTerm> flux_terms; ///< flux, flux_box
    int time_probe = -1;              ///< time: index into scene.time_probes
    /// dft_field: one DFT set per component, each sample one cell of the region
    std::vector<int> dft_field_sets;
    std::vector<Component> dft_field_components;
    /// dft_field: the sampled region (samples x fastest, then y, then z; region_nz = 1 in 2D)
    int region_nx = 0, region_ny = 0, region_nz = 1;
    /// flux: the monitor's length (2D, um) or area (3D, um^2), the I_inc = P_inc / extent
    /// of flux_box cross-sections when it is the incident monitor
    double extent_um = 0;
    /// flux monitors with kind "mode" (3D): the cross-section, its modes per frequency and
    /// the DFT sets of the tangential fields (mode_plane.hpp); null otherwise
    std::shared_ptr<const ModeMonitorPlan> mode_plan;
};

/// Time steps of dt_s (s) to reach max_time_fs (fs): the ceiling of their ratio (a ratio
/// within 1e-9 of an integer counts as that integer), saturating at LLONG_MAX. The one
/// formula behind CompiledProject::max_steps and the run driver's step limit (run_phases.hpp).
long long steps_for_time(double max_time_fs, double dt_s);

struct CompiledProject {
    Scene scene;
    std::vector<double> spectrum_hz;  ///< run spectrum, increasing frequency... as spec: uniform in frequency
    std::vector<CompiledMonitor> monitors;  ///< same order as project.monitors
    /// Time after which every source is off (for the decay stop), s.
    double sources_end_s = 0;
    /// Steps to reach run.stop.max_time_fs (or max_steps, whichever is smaller):
    /// steps_for_time, then run.stop.max_steps.
    long long max_steps = 0;
    /// Interior area (um^2) filled by each material id after sub-pixel averaging (2D; empty
    /// in 3D, where `golightly-cli check` reports material_volumes_um3).
    std::map<std::string, double> material_area_um2;
    /// Bytes the engine state needs, an upper bound for both backends (engine_state_bytes,
    /// scene.hpp, with the time probes recording max_steps samples), plus
    /// mode_solver_peak_bytes and design_dft_bytes below.
    std::size_t memory_bytes = 0;
    /// The peak memory of the largest mode solve of the compile (3D mode sources, mode
    /// monitors and ports; mode_cache.hpp mode_solve_peak_bytes), 0 without one. Counted in
    /// memory_bytes: the solves run while the scene is built, so the run needs both at once.
    std::uint64_t mode_solver_peak_bytes = 0;
    /// A project with a `design` section (design_spec.hpp): what an adjoint gradient of
    /// `golightly-cli optimize --adjoint` adds to the run, 0 without one. Counted in
    /// memory_bytes (the runs themselves ignore the section; the estimate is the project's).
    /// Per E Yee site inside the design region's box (every E component of the scene) and N_w
    /// the objective's distinct wavelengths (at least 1; the spectrum points the terms are
    /// read at, at most that many), complex double DFT values (16 B) of: the forward run's
    /// fields, kept on the host through each adjoint run (16 N_w), the adjoint run's
    /// accumulators in its engine with the DFT set's per-sample overhead as
    /// engine_state_bytes counts it (16 N_w + two cell indices, two weights, the 16-double
    /// CUDA ring: 160 B) and the adjoint fields copied out at its end (16 N_w):
    /// sites * (48 N_w + 160) bytes; plus what adjoint.cpp apply_design gives each site in
    /// the runs' scene, with engine_state_bytes' terms (R = 4 or 8 B by run.precision): a
    /// table entry (sizeof(EUpdateCoeffs) + 2 R + 8 B; at most the table's free entries)
    /// and, when the design's two materials have P > 0 poles together, a pole set (P (5 x 8
    /// + 5 R) + 8 B) and a dispersive row (20 B + (2 + 2 P_max) R of polarization state,
    /// P_max the largest pole set of the scene and the design), with the scene's own
    /// dispersive cells' growth 2 (P_max - P_scene) R each when P exceeds the scene's largest.
    std::size_t design_dft_bytes = 0;
    /// 3D: the slice frames show (run.frames.plane / position: the normal axis and the
    /// nearest node index along it, PML included); 2D: the default, unused.
    FrameSlice frame_slice;
    /// Stability and setup warnings (human readable, one line each).
    std::vector<std::string> warnings;
};

/// Compiles the project. Throws ProjectError (file_label, JSON path) for what validation
/// cannot see before compiling (e.g. a mode source with no guided mode, a monitor
/// outside the domain). Dispersive materials fill Scene::dispersive / pole_sets (mixing
/// rules and stability warnings: top of compile_project.cpp).
/// Conventions (documented in full at the top of solver/compile/src/compile_project.cpp): a
/// source's `amplitude` is the field amplitude a uniform line radiates in vacuum (point:
/// per 1 um of line); mode sources and uniform/gaussian lines that give a `direction` are
/// one-way (TF/SF plane); flux E samples carry the covered fraction of their cell in w0.
/// A `tfsf` source (2D and 3D) fills Scene::tfsf. 3D projects (domain.dimensions = 3) are
/// compiled by compile_3d.cpp (its top comment: point dipole current convention, plane
/// sheets, one-way plane sources, flux planes and boxes, dft_field volumes, frame slice);
/// 3D refuses region and line sources (ProjectError); its mode plane sources and mode
/// monitors use the cross-section mode solver (mode_plane.hpp).
CompiledProject compile_project(const Project& project, const std::string& file_label,
                                const CompileOptions& options = {});

}  // namespace golightly
