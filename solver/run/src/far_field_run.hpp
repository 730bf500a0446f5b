#pragma once
// A flux_box's far field within a run (project-format.md "Far fields"): the box's face
// DFTs (FluxTerm: E on its nodes, H~ averaged onto them) turned into equivalent currents
// and projected (golightly/far_field.hpp).
#include <array>
#include <complex>
#include <map>
#include <optional>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/run.hpp"

namespace golightly::detail {

/// The equivalent currents J = n x H, M = -n x E of a flux_box's faces at spectrum point
/// `f` (index into the monitor's DFT frequencies), from the DFT sets in `sets` (set index
/// -> [sample * columns + column]: point f's values in column `column` of `columns`, as
/// dft_on_root gives them); `ref` (set index -> [sample * n_freq + f], Engine::dft's
/// layout), when given, is subtracted first (the scattered fields of a normalized run).
/// H = H~ / eta0.
SurfaceCurrents surface_currents(const Scene& scene, const CompiledMonitor& m, std::size_t f,
                                 const std::map<int, std::vector<std::complex<double>>>& sets, std::size_t column,
                                 std::size_t columns, const std::map<int, std::vector<std::complex<double>>>* ref);

/// Copies of the currents `s` of a flux line or plane (normal along `normal_axis`) over
/// periods[slot] periods of each tangential axis (slot 0, 1: the tangential axes in x, y, z
/// order), each shifted by whole periods (the axis's n cells times dx) around the simulated
/// one and multiplied by the Bloch phase exp(i shift bloch_phase[a]) (Meep's near2far
/// `nperiods`): the surface of a finite array of `periods` cells of the periodic
/// structure, as far as its near field is the infinite array's. Periods of 1 leave `s` as
/// it is.
void replicate_periods(SurfaceCurrents& s, const Scene& scene, int normal_axis, const std::array<int, 2>& periods);

/// The projection's sums on the engine's device: the CUDA engine's GPU
/// (golightly/cuda_far_field.hpp); an empty function (the CPU loop of project_far_field)
/// for the CPU engine.
RadiationVectorsFn radiation_vectors_on(const Engine& engine);

/// The far field of flux_box (or flux line / plane) `m` with settings `ff` from the
/// engine's DFTs now (periods > 1: replicate_periods).
/// `i_inc` (TF/SF runs: incident intensity per spectrum point) may be empty.
/// The surface samples of the projected spectrum points alone, every set of the monitor at
/// once, are collected on rank 0 (dft_on_root, distributed.hpp), which projects: under MPI
/// the other ranks take part in that one gather and return nullopt (rank 0 writes the
/// results); a run in one process always gets the result. Collective: every rank calls it
/// for the same monitor. Throws RunError (engine reads).
std::optional<FarFieldResult> far_field_result(Engine& engine, const Scene& scene, const CompiledMonitor& m,
                                               const FarFieldSettings& ff, const std::vector<double>& spectrum_hz,
                                               const std::map<int, std::vector<std::complex<double>>>* ref,
                                               const std::vector<double>& i_inc);

}  // namespace golightly::detail
