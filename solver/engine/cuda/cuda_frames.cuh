// GoLightly CUDA backend: what is read back from the grid outside the time step. The
// energy/finiteness reduction, and frames: box averages of one component (to the host as
// floats, or colour-mapped to RGBA8 in a device buffer, e.g. an OpenGL pixel buffer
// mapped by gl_interop.cu). Frames<T> owns the scratch buffer of the frame kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda_common.cuh"
#include "golightly/colormap.hpp"
#include "golightly/engine.hpp"

namespace golightly::cuda {
namespace {

// Reductions: energy (sum eps_r E^2 + H^2) and finiteness.
// Traffic per cell: the three fields and the material index (or two), read once.
template <class T>
__global__ void energy_kernel(DevGrid<T> g, const double* eps_table, int tez, double* out, int* nonfinite) {
    __shared__ double scratch[32];
    const std::size_t cells = std::size_t(g.nx) * g.ny;
    double s = 0;
    int bad = 0;
    for (std::size_t id = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; id < cells;
         id += std::size_t(gridDim.x) * blockDim.x) {
        const double a = g.f0[id], b = g.f1[id], c = g.f2[id];
        if (!isfinite(a) || !isfinite(b) || !isfinite(c)) bad = 1;
        if (!tez) s += eps_table[g.mat_a[id]] * a * a + b * b + c * c;
        else s += a * a + eps_table[g.mat_a[id]] * b * b + eps_table[g.mat_b[id]] * c * c;
    }
    if (bad) atomicOr(nonfinite, 1);
    s = block_sum(s, scratch);
    if (threadIdx.x == 0) atomicAdd(out, s);
}

// Frames: pixel (px, py) of a w x h frame averages cells [px f, min(px f + f, nx)) x
// [py f, min(py f + f, ny)); output row r shows py = h-1-r (top = max y).
// squared: the mean of F^2 (|E|^2 sums of sample_field).
// Traffic: every cell of the component read once (f^2 cells per pixel), one float out.
template <class T, bool squared = false>
__global__ void frame_average(const T* F, int nx, int ny, int factor, int w, int h, float* out, unsigned* max_bits) {
    const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h) return;
    const int i0 = px * factor, j0 = py * factor;
    const int i1 = min(i0 + factor, nx), j1 = min(j0 + factor, ny);
    double s = 0;
    for (int j = j0; j < j1; ++j)
        for (int i = i0; i < i1; ++i) {
            const double v = double(F[std::size_t(j) * nx + i]);
            s += squared ? v * v : v;
        }
    const float v = float(s / double((i1 - i0) * (j1 - j0)));
    out[std::size_t(py) * w + px] = v;
    const float a = fabsf(v);
    if (isfinite(a)) atomicMax(max_bits, __float_as_uint(a));
}

// Traffic: per pixel one float in, 4 bytes out.
__global__ void frame_colour(const float* in, int w, int h, const unsigned* max_bits, float scale_in,
                             std::uint8_t* rgba, bool viewport_alpha) {
    const int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h) return;
    float scale = scale_in;
    if (!(scale > 0.f)) {
        scale = __uint_as_float(*max_bits);
        if (!(scale > 0.f)) scale = 1.f;
    }
    float v = in[std::size_t(py) * w + px];
    if (!isfinite(v)) v = 0.f;  // as the CPU frame: non-finite pixels show as zero
    const float inv = float(1.0 / double(scale));
    std::uint8_t r, g, b;
    diverging_rgb(v * inv, r, g, b);
    std::uint8_t* o = rgba + (std::size_t(h - 1 - py) * w + px) * 4;
    o[0] = r; o[1] = g; o[2] = b; o[3] = viewport_alpha ? viewport_alpha_byte(v * inv) : std::uint8_t(255);
}

/// Frames of one grid: the scratch buffer (max |v| bits, averages, and the RGBA8 image
/// when no destination is given) and the launches of frame_average / frame_colour.
template <class T>
class Frames {
public:
    /// Averages and colour-maps field F (nx x ny) into `dst` (a device buffer) or, when
    /// dst is null, into the scratch buffer; returns the RGBA8 pointer (rows top first).
    /// Asynchronous on `stream`.
    const std::uint8_t* render(const T* F, int nx, int ny, const FrameRequest& req, std::uint8_t* dst, int& w, int& h,
                               cudaStream_t stream) {
        const int factor = frame_factor(nx, ny, req.max_width, req.max_height);
        w = (nx + factor - 1) / factor;
        h = (ny + factor - 1) / factor;
        const std::size_t need = std::size_t(w) * h * (sizeof(float) + (dst ? 0 : 4)) + 16;
        if (frame_buf_.bytes() < need) frame_buf_.alloc(need);
        unsigned* max_bits = frame_buf_.template as<unsigned>();
        float* avg = reinterpret_cast<float*>(frame_buf_.template as<char>() + 16);
        std::uint8_t* rgba = dst ? dst : reinterpret_cast<std::uint8_t*>(avg + std::size_t(w) * h);
        CUDA_CHECK(cudaMemsetAsync(max_bits, 0, sizeof(unsigned), stream));
        const dim3 blk(32, 8), grd((w + 31) / 32, (h + 7) / 8);
        frame_average<T><<<grd, blk, 0, stream>>>(F, nx, ny, factor, w, h, avg, max_bits);
        CUDA_CHECK_LAUNCH();
        frame_colour<<<grd, blk, 0, stream>>>(avg, w, h, max_bits, float(req.scale), rgba, req.viewport_alpha);
        CUDA_CHECK_LAUNCH();
        return rgba;
    }

    /// Box averages (of F^2 when squared) of field F on the device; w*h floats (a few KB
    /// to MB) cross to the host, never the grid. Synchronizes `stream`.
    FieldSamples sample(const T* F, int nx, int ny, int max_width, int max_height, bool squared, cudaStream_t stream) {
        FieldSamples out;
        const int f = frame_factor(nx, ny, max_width, max_height);
        out.factor = f;
        out.width = (nx + f - 1) / f;
        out.height = (ny + f - 1) / f;
        const std::size_t n = std::size_t(out.width) * out.height;
        const std::size_t need = n * sizeof(float) + 16;
        if (frame_buf_.bytes() < need) frame_buf_.alloc(need);
        unsigned* max_bits = frame_buf_.template as<unsigned>();
        float* avg = reinterpret_cast<float*>(frame_buf_.template as<char>() + 16);
        const dim3 blk(32, 8), grd((out.width + 31) / 32, (out.height + 7) / 8);
        if (squared)
            frame_average<T, true><<<grd, blk, 0, stream>>>(F, nx, ny, f, out.width, out.height, avg, max_bits);
        else
            frame_average<T, false><<<grd, blk, 0, stream>>>(F, nx, ny, f, out.width, out.height, avg, max_bits);
        CUDA_CHECK_LAUNCH();
        out.values.resize(n);
        CUDA_CHECK(cudaMemcpyAsync(out.values.data(), avg, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return out;
    }

private:
    DevBuf frame_buf_;
};

}  // namespace
}  // namespace golightly::cuda
