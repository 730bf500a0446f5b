#pragma once
// A flux_box's far field within a run (project-format.md "Far fields"): the box's face
// DFTs (FluxTerm: E on its nodes, H~ averaged onto them) turned into equivalent currents
// and projected (golightly/far_field.hpp).
#include <complex>
#include <map>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/run.hpp"

namespace golightly::detail {

/// The equivalent currents J = n x H, M = -n x E of a flux_box's faces at spectrum point
/// `f` (index into the monitor's DFT frequencies), from the DFT sets in `sets`
/// (set index -> [sample * n_freq + f]); `ref`, when given, is subtracted first (the
/// scattered fields of a normalized run). H = H~ / eta0.
SurfaceCurrents surface_currents(const Scene& scene, const CompiledMonitor& m, std::size_t f,
                                 const std::map<int, std::vector<std::complex<double>>>& sets,
                                 const std::map<int, std::vector<std::complex<double>>>* ref);

/// The far field of flux_box `m` with settings `ff` from the engine's DFTs now.
/// `i_inc` (TF/SF runs: incident intensity per spectrum point) may be empty.
/// Throws RunError (engine reads).
FarFieldResult far_field_result(Engine& engine, const Scene& scene, const CompiledMonitor& m,
                                const FarFieldSettings& ff, const std::vector<double>& spectrum_hz,
                                const std::map<int, std::vector<std::complex<double>>>* ref,
                                const std::vector<double>& i_inc);

}  // namespace golightly::detail
