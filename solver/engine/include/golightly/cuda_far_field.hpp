#pragma once
// The near-to-far-field projection's sums on the CUDA device (issue 52 item 1: "computed on
// the device where the run is, any number of directions"): the radiation vectors
//     N(r) = sum_q J_q exp(-i k r.r_q) ds_q,   L(r) = sum_q M_q exp(-i k r.r_q) ds_q
// (Balanis, Antenna Theory, 4th ed., eq. 12-12a,b; golightly/far_field.hpp gives the rest
// of the projection) for every direction r at once: one thread per direction, the surface
// samples streamed through shared memory in tiles, float64 throughout (the sums cancel to
// many digits in directions of weak radiation). Cost: samples x directions complex
// exponentials, 12 fused multiply-adds each; traffic: the samples (16 doubles each) read
// once per block of directions.
#include <array>
#include <complex>
#include <cstddef>
#include <vector>

#include "golightly/types.hpp"

namespace golightly {

/// N and L of `n` surface samples for each unit direction.
/// - `position_m` [q]: sample positions, m (z ignored when `two_d`);
/// - `j`, `m` [q][x, y, z]: the equivalent electric and magnetic currents;
/// - `ds` [q]: the length (2D) or area (3D) each sample stands for;
/// - `unit_directions` [d] = (x, y, z): unit vectors (2D: z = 0);
/// - `k_per_m`: the free-space wavenumber 2 pi f / c0.
/// Returns [d][0..2] = N (x, y, z), [d][3..5] = L, on the current CUDA device; an empty
/// vector where CUDA is not compiled in or no device is present (the caller sums on the
/// CPU). Throws std::invalid_argument for arrays of different lengths, RunError for a CUDA
/// failure (out of device memory included).
std::vector<std::array<std::complex<double>, 6>> cuda_radiation_vectors(
    double k_per_m, bool two_d, const std::vector<Vec3>& position_m,
    const std::vector<std::array<std::complex<double>, 3>>& j,
    const std::vector<std::array<std::complex<double>, 3>>& m, const std::vector<double>& ds,
    const std::vector<std::array<double, 3>>& unit_directions);

}  // namespace golightly
