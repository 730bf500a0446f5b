// GoLightly CUDA backend, shared pieces of the one translation unit cuda_engine.cu (which
// #includes every cuda_*.cuh, so no relocatable device code is needed): the device-side
// grid description handed to the bulk kernels (DevGrid), device buffers (DevBuf, upload),
// the field-slot convention, the per-launch step context of the extensions (StepLaunch)
// and a block reduction used by the monitors and the energy.
//
// Field slots: TMz f0 = Ez, f1 = Hx, f2 = Hy; TEz f0 = Hz, f1 = Ex, f2 = Ey. Every field
// array holds nx*ny values of T, index j*nx+i (scene.hpp "Grid and index order").
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuda_check.cuh"
#include "golightly/engine.hpp"
#include "golightly/partition.hpp"
#include "golightly/scene.hpp"

namespace golightly::cuda {
namespace {

template <class T> struct alignas(2 * sizeof(T)) Coef2 { T ca, cb; };  // aligned: one 8- or 16-byte load

/// Everything the bulk kernels need, passed by value.
template <class T> struct DevGrid {
    int nx, ny;
    int lo_x, hi_x, lo_y, hi_y;
    int periodic_x, periodic_y, pec_x, pec_y, pmc_x, pmc_y;
    T S;
    // TMz: f0 = Ez, f1 = Hx, f2 = Hy.   TEz: f0 = Hz, f1 = Ex, f2 = Ey.
    T* f0; T* f1; T* f2;
    const std::uint16_t* mat_a;  // TMz: Ez; TEz: Ex
    const std::uint16_t* mat_b;  // TEz: Ey
    const Coef2<T>* table;
    const T *be_x, *ce_x, *ike_x, *bh_x, *ch_x, *ikh_x;  // length nx
    const T *be_y, *ce_y, *ike_y, *bh_y, *ch_y, *ikh_y;  // length ny
    T* psiH_x; T* psiH_y; T* psiE_x; T* psiE_y;
    // Complex fields (scene.hpp "Bloch-periodic axes"): a run steps two copies (real and
    // imaginary parts). A neighbour read across the wrap of a Bloch axis a (bloch[a] != 0)
    // is rotated by the Bloch phase with the other copy's value there:
    //   beyond the upper end: bc[a] v + bs[a] o,   beyond the lower end: bc[a] v - bs[a] o,
    // with bc = cos(phi), bs = -sin(phi) for the real copy and +sin(phi) for the imaginary
    // one (Re / Im of exp(+-i phi)(re + i im), cpu_bloch.hpp BlochRotation). o0..o2 are the
    // other copy's f0..f2 (this copy's own arrays in a real run, never read there).
    int bloch[2];
    T bc[2], bs[2];
    const T* o0; const T* o1; const T* o2;
};

/// The neighbour beyond the upper end of a Bloch axis (DevGrid, complex fields): v from this
/// copy's wrapped site, o from the other copy's; v itself on a plain periodic axis.
template <class T> __device__ __forceinline__ T bloch_hi(int bloch, T c, T s, T v, T o) { return bloch ? c * v + s * o : v; }
/// The neighbour beyond the lower end: the conjugate rotation.
template <class T> __device__ __forceinline__ T bloch_lo(int bloch, T c, T s, T v, T o) { return bloch ? c * v - s * o : v; }

/// What a phase method of an extension needs to enqueue its kernels for step k of a run
/// of steps: the engine's stream and the device step counter (the step in progress is
/// *d_step + k; d_step advances once per run, see advance_step).
struct StepLaunch {
    cudaStream_t stream;
    const long long* d_step;
    int k;
};

/// Field array of slot 0..2 (f0, f1, f2) of the grid.
template <class T> T* field_of(const DevGrid<T>& g, int slot) { return slot == 0 ? g.f0 : slot == 1 ? g.f1 : g.f2; }

/// A device buffer freed on destruction.
class DevBuf {
public:
    DevBuf() = default;
    DevBuf(const DevBuf&) = delete;
    DevBuf& operator=(const DevBuf&) = delete;
    ~DevBuf() { if (p_) cudaFree(p_); }
    void alloc(std::size_t bytes) {
        if (p_) { CUDA_CHECK(cudaFree(p_)); p_ = nullptr; }
        bytes_ = bytes;
        if (bytes) CUDA_CHECK(cudaMalloc(&p_, bytes));
    }
    template <class U> U* as() const { return static_cast<U*>(p_); }
    void swap(DevBuf& o) noexcept { std::swap(p_, o.p_); std::swap(bytes_, o.bytes_); }
    std::size_t bytes() const { return bytes_; }
private:
    void* p_ = nullptr;
    std::size_t bytes_ = 0;
};

template <class U> void upload(DevBuf& b, const std::vector<U>& v, cudaStream_t s) {
    b.alloc(v.size() * sizeof(U));
    if (!v.empty()) CUDA_CHECK(cudaMemcpyAsync(b.template as<void>(), v.data(), v.size() * sizeof(U), cudaMemcpyHostToDevice, s));
}

/// Largest grid (cells) of the CUDA engine: the device cell lists hold int32 flat indices
/// (half the index traffic of the scene's 64-bit CellIndex), so CudaEngine refuses a grid
/// of more than 2^31 - 1 cells (RunError) and every valid flat index fits.
constexpr std::size_t kMaxDeviceCells = 2147483647;

/// A scene cell list re-indexed to the device's int32: entries already checked to lie in
/// the grid (< kMaxDeviceCells), or -1 where the list allows it (DftSet::cell1).
std::vector<std::int32_t> device_cells(const std::vector<CellIndex>& v) {
    std::vector<std::int32_t> out(v.size());
    for (std::size_t k = 0; k < v.size(); ++k) out[k] = static_cast<std::int32_t>(v[k]);
    return out;
}

/// Device rows start on 128-byte lines: both engines run pad_scene_x(scene, 32)
/// (partition.hpp), whose dead columns i in [nx, nx_padded) stay zero, when nx is not a
/// multiple of 32 and the x boundary allows it (pml, pec; a subdomain only with window.row_padding,
/// which the distributed engine sets when all its subdomains are CUDA). Unpadded, such
/// grids ran at 0.57 of copy against 0.79 in 3D and at 0.45-0.83 against 0.97 in 2D (H200,
/// docs/performance.md). `pad` false (GOLIGHTLY_CUDA_PAD=0 / GOLIGHTLY_CUDA3D_PAD=0,
/// tuning.hpp) turns it off.
inline SceneView padded_scene_view(SceneView scene, bool pad) {
    if (!pad || padded_nx(*scene, 32) == scene->nx) return scene;
    return std::make_shared<const Scene>(pad_scene_x(*scene, 32));
}

/// Live edit of an engine that runs `running_nx` columns for a scene of `user_nx`:
/// `edited` (the scene's own layout) padded as the running scene was. Throws
/// std::invalid_argument for another nx (the grid cannot change live).
inline SceneView padded_edit(SceneView edited, int user_nx, int running_nx) {
    if (edited->nx != user_nx)
        throw std::invalid_argument("live edit: the edit changes the grid (nx " + std::to_string(user_nx) + " -> " +
                                    std::to_string(edited->nx) + "): restart the run");
    if (running_nx == user_nx) return edited;
    return std::make_shared<const Scene>(pad_scene_x(*edited, 32));
}

std::string device_name(int dev) {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) return "unknown CUDA device";
    return prop.name;
}

int field_slot(Polarization pol, Component c) {
    if (pol == Polarization::TMz) {
        if (c == Component::Ez) return 0;
        if (c == Component::Hx) return 1;
        if (c == Component::Hy) return 2;
    } else {
        if (c == Component::Hz) return 0;
        if (c == Component::Ex) return 1;
        if (c == Component::Ey) return 2;
    }
    return -1;
}

/// The field arrays the extensions (sources, dispersion, monitors) read and write, by
/// slot: 2D slots 0..2 are f0, f1, f2 of DevGrid (field_slot above), 3D slots 0..5 the six
/// components in Component order (Ex, Ey, Ez, Hx, Hy, Hz), each nx*ny*nz values of T at
/// the flat index (k * ny + j) * nx + i (scene.hpp "3D scenes").
template <class T> struct FieldArrays { T* f[6]; };
template <class T> FieldArrays<T> fields_of(const DevGrid<T>& g) { return {{g.f0, g.f1, g.f2, nullptr, nullptr, nullptr}}; }
/// Slot of component c in the scene's FieldArrays, -1 when absent: 2D
/// field_slot(polarization, c), 3D int(c).
int field_slot(const Scene& sc, Component c) { return sc.dimensions == 3 ? int(c) : field_slot(sc.polarization, c); }

bool is_magnetic(Component c) { return c == Component::Hx || c == Component::Hy || c == Component::Hz; }

/// Block-wide sum of one double per thread (warp shuffles, then one value per warp).
__device__ double block_sum(double v, double* scratch) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) scratch[warp] = v;
    __syncthreads();
    double s = 0;
    if (threadIdx.x == 0)
        for (int w = 0; w < int(blockDim.x + 31) / 32; ++w) s += scratch[w];
    return s;  // valid in thread 0
}

}  // namespace
}  // namespace golightly::cuda
