// The far-field projection's radiation vectors on the CUDA device (golightly/cuda_far_field.hpp).
// One thread per direction accumulates N and L (12 doubles in registers) over every surface
// sample; a block's threads load the samples in tiles of kTile into shared memory, so each
// sample (16 doubles, 128 B) is read from global memory once per block of kBlock directions.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "cuda_check.cuh"
#include "golightly/cuda_device.hpp"
#include "golightly/cuda_far_field.hpp"
#include "golightly/engine.hpp"

namespace golightly {
namespace {

constexpr int kBlock = 128;  // directions per block
constexpr int kTile = 64;    // samples per shared-memory tile (8 KiB)

/// One surface sample: position (m), ds, J and M as (re, im) pairs of x, y, z.
struct FarSample {
    double x, y, z, ds;
    double j[6], m[6];
};

__global__ void radiation_vectors_kernel(const FarSample* __restrict__ samples, long long n,
                                         const double* __restrict__ dirs, long long nd, double k, int two_d,
                                         double* __restrict__ out) {
    __shared__ FarSample tile[kTile];
    const long long d = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    double ux = 0, uy = 0, uz = 0;
    if (d < nd) {
        ux = dirs[3 * d];
        uy = dirs[3 * d + 1];
        uz = two_d ? 0.0 : dirs[3 * d + 2];
    }
    double acc[12];
#pragma unroll
    for (int a = 0; a < 12; ++a) acc[a] = 0;
    for (long long base = 0; base < n; base += kTile) {
        const int count = int(n - base < kTile ? n - base : kTile);
        for (int t = threadIdx.x; t < count; t += blockDim.x) tile[t] = samples[base + t];
        __syncthreads();
        if (d < nd) {
            for (int q = 0; q < count; ++q) {
                const FarSample& p = tile[q];
                const double phase = -k * (ux * p.x + uy * p.y + uz * p.z);
                double s, c;
                sincos(phase, &s, &c);
                const double wr = p.ds * c, wi = p.ds * s;
#pragma unroll
                for (int a = 0; a < 3; ++a) {
                    acc[2 * a] += p.j[2 * a] * wr - p.j[2 * a + 1] * wi;
                    acc[2 * a + 1] += p.j[2 * a] * wi + p.j[2 * a + 1] * wr;
                    acc[6 + 2 * a] += p.m[2 * a] * wr - p.m[2 * a + 1] * wi;
                    acc[6 + 2 * a + 1] += p.m[2 * a] * wi + p.m[2 * a + 1] * wr;
                }
            }
        }
        __syncthreads();
    }
    if (d < nd)
#pragma unroll
        for (int a = 0; a < 12; ++a) out[12 * d + a] = acc[a];
}

/// Device buffer freed on every path (a CUDA failure throws).
struct DeviceBuffer {
    void* p = nullptr;
    explicit DeviceBuffer(std::size_t bytes) { CUDA_CHECK(cudaMalloc(&p, bytes ? bytes : 1)); }
    ~DeviceBuffer() { cudaFree(p); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

}  // namespace

std::vector<std::array<std::complex<double>, 6>> cuda_radiation_vectors(
    double k_per_m, bool two_d, const std::vector<Vec3>& position_m,
    const std::vector<std::array<std::complex<double>, 3>>& j,
    const std::vector<std::array<std::complex<double>, 3>>& m, const std::vector<double>& ds,
    const std::vector<std::array<double, 3>>& unit_directions) {
    const std::size_t n = position_m.size(), nd = unit_directions.size();
    if (j.size() != n || m.size() != n || ds.size() != n)
        throw std::invalid_argument("cuda_radiation_vectors: positions, currents and ds differ in length");
    if (!cuda_available()) return {};
    std::vector<std::array<std::complex<double>, 6>> result(nd);
    if (nd == 0) return result;
    std::vector<FarSample> host(n);
    for (std::size_t q = 0; q < n; ++q) {
        FarSample& s = host[q];
        s.x = position_m[q].x;
        s.y = position_m[q].y;
        s.z = two_d ? 0.0 : position_m[q].z;
        s.ds = ds[q];
        for (int a = 0; a < 3; ++a) {
            s.j[2 * a] = j[q][std::size_t(a)].real();
            s.j[2 * a + 1] = j[q][std::size_t(a)].imag();
            s.m[2 * a] = m[q][std::size_t(a)].real();
            s.m[2 * a + 1] = m[q][std::size_t(a)].imag();
        }
    }
    std::vector<double> dirs(3 * nd);
    for (std::size_t d = 0; d < nd; ++d)
        for (int a = 0; a < 3; ++a) dirs[3 * d + std::size_t(a)] = unit_directions[d][std::size_t(a)];
    DeviceBuffer d_samples(n * sizeof(FarSample)), d_dirs(dirs.size() * sizeof(double)),
        d_out(12 * nd * sizeof(double));
    if (n) CUDA_CHECK(cudaMemcpy(d_samples.p, host.data(), n * sizeof(FarSample), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_dirs.p, dirs.data(), dirs.size() * sizeof(double), cudaMemcpyHostToDevice));
    const unsigned blocks = unsigned((nd + kBlock - 1) / kBlock);
    radiation_vectors_kernel<<<blocks, kBlock>>>(static_cast<const FarSample*>(d_samples.p), (long long)n,
                                                 static_cast<const double*>(d_dirs.p), (long long)nd, k_per_m,
                                                 two_d ? 1 : 0, static_cast<double*>(d_out.p));
    CUDA_CHECK_LAUNCH();
    std::vector<double> out(12 * nd);
    CUDA_CHECK(cudaMemcpy(out.data(), d_out.p, out.size() * sizeof(double), cudaMemcpyDeviceToHost));
    for (std::size_t d = 0; d < nd; ++d)
        for (int a = 0; a < 6; ++a) result[d][std::size_t(a)] = {out[12 * d + 2 * a], out[12 * d + 2 * a + 1]};
    return result;
}

}  // namespace golightly
