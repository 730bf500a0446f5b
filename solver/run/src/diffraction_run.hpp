#pragma once
// A diffraction monitor within a run (project-format.md "Diffraction monitors"): the flux
// line's or plane's DFT sets (FluxTerm: E on its nodes, H~ averaged onto them) arranged
// as one period of tangential fields and decomposed into Floquet orders
// (golightly/diffraction.hpp).
#include <array>
#include <complex>
#include <map>
#include <string>
#include <vector>

#include "golightly/compile.hpp"
#include "golightly/run.hpp"

namespace golightly::detail {

/// The tangential fields of flux monitor `m` at spectrum point `f` on one period, from the
/// DFT sets in `sets` (set index -> [sample * n_freq + f]); `ref`, when given, is
/// subtracted first (the reflected fields of a normalized run). Throws RunError when the
/// samples are not one whole period of a periodic plane (every node once, weight 1).
FloquetPlaneFields floquet_plane_fields(const Scene& scene, const CompiledMonitor& m, std::size_t f,
                                        const std::map<int, std::vector<std::complex<double>>>& sets,
                                        const std::map<int, std::vector<std::complex<double>>>* ref);

/// The refractive index at monitor `m`: the square root of the mean compiled eps_r of its
/// E samples. Adds a warning to `warnings` when eps_r varies along the monitor or a sample
/// is dispersive (then eps_inf is used).
double monitor_index(const Scene& scene, const CompiledMonitor& m, std::vector<std::string>& warnings);

/// The Floquet orders of diffraction monitor `m` (project settings `ds`) at every spectrum
/// point. `p_inc` (normalized runs) divides the powers; else the plane's whole flux does.
/// `ref` (kind reflection in a normalized run) is subtracted first. `k_bloch_per_um`: the
/// Bloch wave vector along the plane's tangential axes t1 < t2 (rad/um; zero for periodic
/// boundaries with real fields). Throws RunError (engine reads, sample layout).
DiffractionResult diffraction_result(Engine& engine, const Scene& scene, const CompiledMonitor& m,
                                     const DiffractionSettings& ds, const std::vector<double>& spectrum_hz,
                                     const std::vector<double>* p_inc,
                                     const std::map<int, std::vector<std::complex<double>>>* ref,
                                     std::array<double, 2> k_bloch_per_um, std::vector<std::string>& warnings);

}  // namespace golightly::detail
