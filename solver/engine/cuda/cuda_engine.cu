// GoLightly CUDA backend: steps a 2D Scene on one GPU exactly as scene.hpp specifies.
//
// Layout (device): every field component is one array of nx*ny values of T (float or
// double), index j*nx+i. Materials: a uint16 index per cell and E component into a
// table of {ca, cb} (scene.material_index / scene.table). CPML psi arrays exist only in
// the PML slabs: an x-derivative psi is (lo_x+hi_x) x ny values, index
// j*(lo_x+hi_x)+slab_i; a y-derivative psi is (lo_y+hi_y) x nx values, index slab_j*nx+i.
//
// One time step (n -> n+1) is a fixed sequence of kernels on the engine's stream; no host
// synchronization happens inside step(): the step number lives on the device (d_step), the
// source waveforms are evaluated on the device from the CompiledWaveform parameters, and
// runs of kGraphSteps steps are replayed from a CUDA graph so small grids are not bound by
// launch latency.
//   1. h_update      H from E^n (curl, CPML psi, pmc zeroing)          bytes/cell below
//   2. h_sources     H sources at t = n dt (cells on pmc walls dropped: zeroing wins)
//   3. mur_save      E^n on the two outermost e lines per Mur wall (only with Mur)
//   4. e_update      E from H^{n+1/2} (material table, CPML psi, pec zeroing)
//   5. e_sources     E sources at t = (n+1/2) dt (cells on pec walls dropped)
//   6. mur_apply     Mur (1981) first order on the outermost e lines (only with Mur)
//   6b. aniso_delta, aniso_couple: TEz tensor coupling (only with Scene::anisotropic;
//       aniso_save of E^n runs before e_update)
//   7. monitors      DFT accumulation (gathers only the sample cells) + time probes
//   (8. advance      d_step += steps, once per launched run of steps)
//
// Memory traffic per cell and step of the two bulk kernels (each value read or written
// once from DRAM; neighbour values come from L1/L2; s = sizeof(T)):
//   TMz h_update: read Ez, Hx, Hy, write Hx, Hy            = 5 s        (20 B float)
//   TMz e_update: read Hx, Hy, Ez, mat index, write Ez      = 4 s + 2    (18 B float)
//   TEz h_update: read Ex, Ey, Hz, write Hz                 = 4 s        (16 B float)
//   TEz e_update: read Hz, Ex, Ey, 2 mat indices, write Ex, Ey = 5 s + 4 (24 B float)
// plus, per PML-slab cell, 2 s per psi (read + write), and per DFT accumulator 32 B per
// step (double2 read + write). bytes_per_cell_update() gives the exact model; Nsight
// Compute DRAM counters agree within 3 % (docs/performance.md). When nx is a multiple of
// 16 / sizeof(T) the bulk kernels use 16-byte vector accesses (the *_vec kernels).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.cuh"
#include "golightly/scene.hpp"
#include "golightly/colormap.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"

namespace golightly {
namespace {

constexpr int kGraphSteps = 32;     // steps captured per CUDA graph
constexpr int kBlockX = 128;        // threads per block along x in the bulk kernels
constexpr int kRowsPerThread = 4;   // rows each bulk thread walks along y
constexpr int kDftChunk = 64;       // samples per DFT block
constexpr int kMonitorThreads = 128;

template <class T> struct Coef2 { T ca, cb; };

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
};

__device__ __forceinline__ bool in_slab(int p, int lo, int hi, int n) { return p < lo || p >= n - hi; }
__device__ __forceinline__ int slab_index(int p, int lo, int hi, int n) { return p < lo ? p : p - (n - hi) + lo; }

// ---------------------------------------------------------------------------------------
// TMz. Hx(i,j) -= S [dEz/dy * ikh_y + psi_hx_y], Hy(i,j) += S [dEz/dx * ikh_x + psi_hy_x]
// Traffic: read Ez, Hx, Hy; write Hx, Hy (5 s per cell).
template <class T>
__global__ void __launch_bounds__(kBlockX) tmz_h_update(DevGrid<T> g) {
    const int i = blockIdx.x * kBlockX + threadIdx.x;
    if (i >= g.nx) return;
    const int j0 = blockIdx.y * kRowsPerThread;
    const T* __restrict__ Ez = g.f0;
    T* __restrict__ Hx = g.f1;
    T* __restrict__ Hy = g.f2;
    const int nx = g.nx, ny = g.ny;
    const bool xslab = in_slab(i, g.lo_x, g.hi_x, nx);
    const int sx = xslab ? slab_index(i, g.lo_x, g.hi_x, nx) : 0;
    const int wx = g.lo_x + g.hi_x;
    const T ikh_x = g.ikh_x[i], bh_x = g.bh_x[i], ch_x = g.ch_x[i];
    T ez = Ez[std::size_t(j0) * nx + i];
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i;
        T ez_up;
        if (j + 1 < ny) ez_up = Ez[id + nx];
        else ez_up = g.periodic_y ? Ez[i] : T(0);
        T ez_right;
        if (i + 1 < nx) ez_right = Ez[id + 1];
        else ez_right = g.periodic_x ? Ez[std::size_t(j) * nx] : T(0);
        // Hx
        const T dy = ez_up - ez;
        T ty = dy * g.ikh_y[j];
        if (in_slab(j, g.lo_y, g.hi_y, ny)) {
            T* p = g.psiH_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
            const T psi = g.bh_y[j] * *p + g.ch_y[j] * dy;
            *p = psi;
            ty += psi;
        }
        T hx = Hx[id] - g.S * ty;
        if (g.pmc_y && j == ny - 1) hx = T(0);
        Hx[id] = hx;
        // Hy
        const T dx = ez_right - ez;
        T tx = dx * ikh_x;
        if (xslab) {
            T* p = g.psiH_x + std::size_t(j) * wx + sx;
            const T psi = bh_x * *p + ch_x * dx;
            *p = psi;
            tx += psi;
        }
        T hy = Hy[id] + g.S * tx;
        if (g.pmc_x && i == nx - 1) hy = T(0);
        Hy[id] = hy;
        ez = ez_up;
    }
}

// TMz. Ez = ca Ez + cb [dHy/dx * ike_x + psi_ez_x - dHx/dy * ike_y - psi_ez_y]
// Traffic: read Hx, Hy, Ez, material index; write Ez (4 s + 2 per cell).
template <class T>
__global__ void __launch_bounds__(kBlockX) tmz_e_update(DevGrid<T> g) {
    const int i = blockIdx.x * kBlockX + threadIdx.x;
    if (i >= g.nx) return;
    const int j0 = blockIdx.y * kRowsPerThread;
    T* __restrict__ Ez = g.f0;
    const T* __restrict__ Hx = g.f1;
    const T* __restrict__ Hy = g.f2;
    const int nx = g.nx, ny = g.ny;
    const bool xslab = in_slab(i, g.lo_x, g.hi_x, nx);
    const int sx = xslab ? slab_index(i, g.lo_x, g.hi_x, nx) : 0;
    const int wx = g.lo_x + g.hi_x;
    const T ike_x = g.ike_x[i], be_x = g.be_x[i], ce_x = g.ce_x[i];
    T hx_below;
    if (j0 > 0) hx_below = Hx[std::size_t(j0 - 1) * nx + i];
    else hx_below = g.periodic_y ? Hx[std::size_t(ny - 1) * nx + i] : T(0);
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i;
        const T hx = Hx[id];
        const T hy = Hy[id];
        T hy_left;
        if (i > 0) hy_left = Hy[id - 1];
        else hy_left = g.periodic_x ? Hy[id + nx - 1] : T(0);
        const T dx = hy - hy_left;
        T tx = dx * ike_x;
        if (xslab) {
            T* p = g.psiE_x + std::size_t(j) * wx + sx;
            const T psi = be_x * *p + ce_x * dx;
            *p = psi;
            tx += psi;
        }
        const T dy = hx - hx_below;
        T ty = dy * g.ike_y[j];
        if (in_slab(j, g.lo_y, g.hi_y, ny)) {
            T* p = g.psiE_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
            const T psi = g.be_y[j] * *p + g.ce_y[j] * dy;
            *p = psi;
            ty += psi;
        }
        const Coef2<T> m = g.table[g.mat_a[id]];
        T ez = m.ca * Ez[id] + m.cb * (tx - ty);
        if ((g.pec_x && i == 0) || (g.pec_y && j == 0)) ez = T(0);
        Ez[id] = ez;
        hx_below = hx;
    }
}

// TEz. Hz -= S [dEy/dx * ikh_x + psi_hz_x - dEx/dy * ikh_y - psi_hz_y]
// Traffic: read Ex, Ey, Hz; write Hz (4 s per cell).
template <class T>
__global__ void __launch_bounds__(kBlockX) tez_h_update(DevGrid<T> g) {
    const int i = blockIdx.x * kBlockX + threadIdx.x;
    if (i >= g.nx) return;
    const int j0 = blockIdx.y * kRowsPerThread;
    T* __restrict__ Hz = g.f0;
    const T* __restrict__ Ex = g.f1;
    const T* __restrict__ Ey = g.f2;
    const int nx = g.nx, ny = g.ny;
    const bool xslab = in_slab(i, g.lo_x, g.hi_x, nx);
    const int sx = xslab ? slab_index(i, g.lo_x, g.hi_x, nx) : 0;
    const int wx = g.lo_x + g.hi_x;
    const T ikh_x = g.ikh_x[i], bh_x = g.bh_x[i], ch_x = g.ch_x[i];
    T ex = Ex[std::size_t(j0) * nx + i];
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i;
        const T ey = Ey[id];
        T ey_right;
        if (i + 1 < nx) ey_right = Ey[id + 1];
        else ey_right = g.periodic_x ? Ey[std::size_t(j) * nx] : T(0);
        T ex_up;
        if (j + 1 < ny) ex_up = Ex[id + nx];
        else ex_up = g.periodic_y ? Ex[i] : T(0);
        const T dx = ey_right - ey;
        T tx = dx * ikh_x;
        if (xslab) {
            T* p = g.psiH_x + std::size_t(j) * wx + sx;
            const T psi = bh_x * *p + ch_x * dx;
            *p = psi;
            tx += psi;
        }
        const T dy = ex_up - ex;
        T ty = dy * g.ikh_y[j];
        if (in_slab(j, g.lo_y, g.hi_y, ny)) {
            T* p = g.psiH_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
            const T psi = g.bh_y[j] * *p + g.ch_y[j] * dy;
            *p = psi;
            ty += psi;
        }
        T hz = Hz[id] - g.S * (tx - ty);
        if ((g.pmc_x && i == nx - 1) || (g.pmc_y && j == ny - 1)) hz = T(0);
        Hz[id] = hz;
        ex = ex_up;
    }
}

// TEz. Ex = ca Ex + cb [dHz/dy * ike_y + psi_ex_y];  Ey = ca Ey - cb [dHz/dx * ike_x + psi_ey_x]
// Traffic: read Hz, Ex, Ey, two material indices; write Ex, Ey (5 s + 4 per cell).
template <class T>
__global__ void __launch_bounds__(kBlockX) tez_e_update(DevGrid<T> g) {
    const int i = blockIdx.x * kBlockX + threadIdx.x;
    if (i >= g.nx) return;
    const int j0 = blockIdx.y * kRowsPerThread;
    const T* __restrict__ Hz = g.f0;
    T* __restrict__ Ex = g.f1;
    T* __restrict__ Ey = g.f2;
    const int nx = g.nx, ny = g.ny;
    const bool xslab = in_slab(i, g.lo_x, g.hi_x, nx);
    const int sx = xslab ? slab_index(i, g.lo_x, g.hi_x, nx) : 0;
    const int wx = g.lo_x + g.hi_x;
    const T ike_x = g.ike_x[i], be_x = g.be_x[i], ce_x = g.ce_x[i];
    T hz_below;
    if (j0 > 0) hz_below = Hz[std::size_t(j0 - 1) * nx + i];
    else hz_below = g.periodic_y ? Hz[std::size_t(ny - 1) * nx + i] : T(0);
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i;
        const T hz = Hz[id];
        T hz_left;
        if (i > 0) hz_left = Hz[id - 1];
        else hz_left = g.periodic_x ? Hz[id + nx - 1] : T(0);
        // Ex
        const T dy = hz - hz_below;
        T ty = dy * g.ike_y[j];
        if (in_slab(j, g.lo_y, g.hi_y, ny)) {
            T* p = g.psiE_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
            const T psi = g.be_y[j] * *p + g.ce_y[j] * dy;
            *p = psi;
            ty += psi;
        }
        const Coef2<T> ma = g.table[g.mat_a[id]];
        T ex = ma.ca * Ex[id] + ma.cb * ty;
        if (g.pec_y && j == 0) ex = T(0);
        Ex[id] = ex;
        // Ey
        const T dx = hz - hz_left;
        T tx = dx * ike_x;
        if (xslab) {
            T* p = g.psiE_x + std::size_t(j) * wx + sx;
            const T psi = be_x * *p + ce_x * dx;
            *p = psi;
            tx += psi;
        }
        const Coef2<T> mb = g.table[g.mat_b[id]];
        T ey = mb.ca * Ey[id] - mb.cb * tx;
        if (g.pec_x && i == 0) ey = T(0);
        Ey[id] = ey;
        hz_below = hz;
    }
}

// ---------------------------------------------------------------------------------------
// Vectorized bulk kernels (used when nx is a multiple of W = 16 / sizeof(T)): each thread
// updates W consecutive cells of R rows with 16-byte loads and stores of every field (and
// 2W-byte loads of the material indices), coalesced across the warp (Livesey et al.,
// "Accelerating FDTD on GPUs", 16-byte stream-ordered access). The neighbour one past the
// vector (Ez(i0+W) / Hy(i0-1) ...) is a scalar load that hits L1 (the neighbouring thread
// loaded the same line), so DRAM traffic is the model above. Same arithmetic, element by
// element, as the scalar kernels.
template <class T> struct alignas(16) Vec16 { T v[16 / sizeof(T)]; };
template <class T> struct alignas(32 / sizeof(T)) IdxVec { std::uint16_t v[16 / sizeof(T)]; };

template <class T> __device__ __forceinline__ Vec16<T> ldv(const T* p) { return *reinterpret_cast<const Vec16<T>*>(p); }
template <class T> __device__ __forceinline__ void stv(T* p, const Vec16<T>& v) { *reinterpret_cast<Vec16<T>*>(p) = v; }
template <class T> __device__ __forceinline__ Vec16<T> zerov() { Vec16<T> z; for (int e = 0; e < int(16 / sizeof(T)); ++e) z.v[e] = T(0); return z; }

template <class T, int R>
__global__ void __launch_bounds__(kBlockX) tmz_h_update_vec(DevGrid<T> g) {
    constexpr int W = 16 / sizeof(T);
    const int i0 = (blockIdx.x * kBlockX + threadIdx.x) * W;
    if (i0 >= g.nx) return;
    const int j0 = blockIdx.y * R;
    const T* __restrict__ Ez = g.f0;
    T* __restrict__ Hx = g.f1;
    T* __restrict__ Hy = g.f2;
    const int nx = g.nx, ny = g.ny;
    const bool xslab = i0 < g.lo_x || i0 + W - 1 >= nx - g.hi_x;
    const int wx = g.lo_x + g.hi_x;
    T ikh_x[W];
#pragma unroll
    for (int e = 0; e < W; ++e) ikh_x[e] = g.ikh_x[i0 + e];
    Vec16<T> ez = ldv(Ez + std::size_t(j0) * nx + i0);
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i0;
        Vec16<T> ez_up;
        if (j + 1 < ny) ez_up = ldv(Ez + id + nx);
        else ez_up = g.periodic_y ? ldv(Ez + i0) : zerov<T>();
        T ez_next;
        if (i0 + W < nx) ez_next = Ez[id + W];
        else ez_next = g.periodic_x ? Ez[std::size_t(j) * nx] : T(0);
        Vec16<T> hx = ldv(Hx + id), hy = ldv(Hy + id);
        const T ikh_y = g.ikh_y[j];
        const bool yslab = in_slab(j, g.lo_y, g.hi_y, ny);
#pragma unroll
        for (int e = 0; e < W; ++e) {
            const int i = i0 + e;
            const T dy = ez_up.v[e] - ez.v[e];
            T ty = dy * ikh_y;
            if (yslab) {
                T* p = g.psiH_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
                const T psi = g.bh_y[j] * *p + g.ch_y[j] * dy;
                *p = psi;
                ty += psi;
            }
            T h = hx.v[e] - g.S * ty;
            if (g.pmc_y && j == ny - 1) h = T(0);
            hx.v[e] = h;
            const T dx = (e + 1 < W ? ez.v[e + 1] : ez_next) - ez.v[e];
            T tx = dx * ikh_x[e];
            if (xslab && in_slab(i, g.lo_x, g.hi_x, nx)) {
                T* p = g.psiH_x + std::size_t(j) * wx + slab_index(i, g.lo_x, g.hi_x, nx);
                const T psi = g.bh_x[i] * *p + g.ch_x[i] * dx;
                *p = psi;
                tx += psi;
            }
            T hh = hy.v[e] + g.S * tx;
            if (g.pmc_x && i == nx - 1) hh = T(0);
            hy.v[e] = hh;
        }
        stv(Hx + id, hx);
        stv(Hy + id, hy);
        ez = ez_up;
    }
}

template <class T, int R>
__global__ void __launch_bounds__(kBlockX) tmz_e_update_vec(DevGrid<T> g) {
    constexpr int W = 16 / sizeof(T);
    const int i0 = (blockIdx.x * kBlockX + threadIdx.x) * W;
    if (i0 >= g.nx) return;
    const int j0 = blockIdx.y * R;
    T* __restrict__ Ez = g.f0;
    const T* __restrict__ Hx = g.f1;
    const T* __restrict__ Hy = g.f2;
    const int nx = g.nx, ny = g.ny;
    const bool xslab = i0 < g.lo_x || i0 + W - 1 >= nx - g.hi_x;
    const int wx = g.lo_x + g.hi_x;
    T ike_x[W];
#pragma unroll
    for (int e = 0; e < W; ++e) ike_x[e] = g.ike_x[i0 + e];
    Vec16<T> hx_below;
    if (j0 > 0) hx_below = ldv(Hx + std::size_t(j0 - 1) * nx + i0);
    else hx_below = g.periodic_y ? ldv(Hx + std::size_t(ny - 1) * nx + i0) : zerov<T>();
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i0;
        const Vec16<T> hx = ldv(Hx + id), hy = ldv(Hy + id);
        Vec16<T> ez = ldv(Ez + id);
        const IdxVec<T> mi = *reinterpret_cast<const IdxVec<T>*>(g.mat_a + id);
        T hy_prev;
        if (i0 > 0) hy_prev = Hy[id - 1];
        else hy_prev = g.periodic_x ? Hy[id + nx - 1] : T(0);
        const T ike_y = g.ike_y[j];
        const bool yslab = in_slab(j, g.lo_y, g.hi_y, ny);
#pragma unroll
        for (int e = 0; e < W; ++e) {
            const int i = i0 + e;
            const T dx = hy.v[e] - (e > 0 ? hy.v[e - 1] : hy_prev);
            T tx = dx * ike_x[e];
            if (xslab && in_slab(i, g.lo_x, g.hi_x, nx)) {
                T* p = g.psiE_x + std::size_t(j) * wx + slab_index(i, g.lo_x, g.hi_x, nx);
                const T psi = g.be_x[i] * *p + g.ce_x[i] * dx;
                *p = psi;
                tx += psi;
            }
            const T dy = hx.v[e] - hx_below.v[e];
            T ty = dy * ike_y;
            if (yslab) {
                T* p = g.psiE_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
                const T psi = g.be_y[j] * *p + g.ce_y[j] * dy;
                *p = psi;
                ty += psi;
            }
            const Coef2<T> m = g.table[mi.v[e]];
            T v = m.ca * ez.v[e] + m.cb * (tx - ty);
            if ((g.pec_x && i == 0) || (g.pec_y && j == 0)) v = T(0);
            ez.v[e] = v;
        }
        stv(Ez + id, ez);
        hx_below = hx;
    }
}

template <class T, int R>
__global__ void __launch_bounds__(kBlockX) tez_h_update_vec(DevGrid<T> g) {
    constexpr int W = 16 / sizeof(T);
    const int i0 = (blockIdx.x * kBlockX + threadIdx.x) * W;
    if (i0 >= g.nx) return;
    const int j0 = blockIdx.y * R;
    T* __restrict__ Hz = g.f0;
    const T* __restrict__ Ex = g.f1;
    const T* __restrict__ Ey = g.f2;
    const int nx = g.nx, ny = g.ny;
    const bool xslab = i0 < g.lo_x || i0 + W - 1 >= nx - g.hi_x;
    const int wx = g.lo_x + g.hi_x;
    T ikh_x[W];
#pragma unroll
    for (int e = 0; e < W; ++e) ikh_x[e] = g.ikh_x[i0 + e];
    Vec16<T> ex = ldv(Ex + std::size_t(j0) * nx + i0);
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i0;
        const Vec16<T> ey = ldv(Ey + id);
        T ey_next;
        if (i0 + W < nx) ey_next = Ey[id + W];
        else ey_next = g.periodic_x ? Ey[std::size_t(j) * nx] : T(0);
        Vec16<T> ex_up;
        if (j + 1 < ny) ex_up = ldv(Ex + id + nx);
        else ex_up = g.periodic_y ? ldv(Ex + i0) : zerov<T>();
        Vec16<T> hz = ldv(Hz + id);
        const T ikh_y = g.ikh_y[j];
        const bool yslab = in_slab(j, g.lo_y, g.hi_y, ny);
#pragma unroll
        for (int e = 0; e < W; ++e) {
            const int i = i0 + e;
            const T dx = (e + 1 < W ? ey.v[e + 1] : ey_next) - ey.v[e];
            T tx = dx * ikh_x[e];
            if (xslab && in_slab(i, g.lo_x, g.hi_x, nx)) {
                T* p = g.psiH_x + std::size_t(j) * wx + slab_index(i, g.lo_x, g.hi_x, nx);
                const T psi = g.bh_x[i] * *p + g.ch_x[i] * dx;
                *p = psi;
                tx += psi;
            }
            const T dy = ex_up.v[e] - ex.v[e];
            T ty = dy * ikh_y;
            if (yslab) {
                T* p = g.psiH_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
                const T psi = g.bh_y[j] * *p + g.ch_y[j] * dy;
                *p = psi;
                ty += psi;
            }
            T h = hz.v[e] - g.S * (tx - ty);
            if ((g.pmc_x && i == nx - 1) || (g.pmc_y && j == ny - 1)) h = T(0);
            hz.v[e] = h;
        }
        stv(Hz + id, hz);
        ex = ex_up;
    }
}

template <class T, int R>
__global__ void __launch_bounds__(kBlockX) tez_e_update_vec(DevGrid<T> g) {
    constexpr int W = 16 / sizeof(T);
    const int i0 = (blockIdx.x * kBlockX + threadIdx.x) * W;
    if (i0 >= g.nx) return;
    const int j0 = blockIdx.y * R;
    const T* __restrict__ Hz = g.f0;
    T* __restrict__ Ex = g.f1;
    T* __restrict__ Ey = g.f2;
    const int nx = g.nx, ny = g.ny;
    const bool xslab = i0 < g.lo_x || i0 + W - 1 >= nx - g.hi_x;
    const int wx = g.lo_x + g.hi_x;
    T ike_x[W];
#pragma unroll
    for (int e = 0; e < W; ++e) ike_x[e] = g.ike_x[i0 + e];
    Vec16<T> hz_below;
    if (j0 > 0) hz_below = ldv(Hz + std::size_t(j0 - 1) * nx + i0);
    else hz_below = g.periodic_y ? ldv(Hz + std::size_t(ny - 1) * nx + i0) : zerov<T>();
#pragma unroll
    for (int r = 0; r < R; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i0;
        const Vec16<T> hz = ldv(Hz + id);
        Vec16<T> ex = ldv(Ex + id), ey = ldv(Ey + id);
        const IdxVec<T> ma = *reinterpret_cast<const IdxVec<T>*>(g.mat_a + id);
        const IdxVec<T> mb = *reinterpret_cast<const IdxVec<T>*>(g.mat_b + id);
        T hz_prev;
        if (i0 > 0) hz_prev = Hz[id - 1];
        else hz_prev = g.periodic_x ? Hz[id + nx - 1] : T(0);
        const T ike_y = g.ike_y[j];
        const bool yslab = in_slab(j, g.lo_y, g.hi_y, ny);
#pragma unroll
        for (int e = 0; e < W; ++e) {
            const int i = i0 + e;
            const T dy = hz.v[e] - hz_below.v[e];
            T ty = dy * ike_y;
            if (yslab) {
                T* p = g.psiE_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
                const T psi = g.be_y[j] * *p + g.ce_y[j] * dy;
                *p = psi;
                ty += psi;
            }
            const Coef2<T> ca = g.table[ma.v[e]];
            T vx = ca.ca * ex.v[e] + ca.cb * ty;
            if (g.pec_y && j == 0) vx = T(0);
            ex.v[e] = vx;
            const T dx = hz.v[e] - (e > 0 ? hz.v[e - 1] : hz_prev);
            T tx = dx * ike_x[e];
            if (xslab && in_slab(i, g.lo_x, g.hi_x, nx)) {
                T* p = g.psiE_x + std::size_t(j) * wx + slab_index(i, g.lo_x, g.hi_x, nx);
                const T psi = g.be_x[i] * *p + g.ce_x[i] * dx;
                *p = psi;
                tx += psi;
            }
            const Coef2<T> cbm = g.table[mb.v[e]];
            T vy = cbm.ca * ey.v[e] - cbm.cb * tx;
            if (g.pec_x && i == 0) vy = T(0);
            ey.v[e] = vy;
        }
        stv(Ex + id, ex);
        stv(Ey + id, ey);
        hz_below = hz;
    }
}

// ---------------------------------------------------------------------------------------
// Sources: F[cell] += weight * waveform(t - delay), waveform evaluated on the device.
struct DevWaveform {
    int type;  // 0 gaussian pulse, 1 cw
    double omega, t0, tau, ramp, amplitude, phase, delay;
};

__device__ double waveform_value(const DevWaveform& w, double t) {
    t -= w.delay;
    if (w.type == 0) {
        const double u = (t - w.t0) / w.tau;
        if (fabs(u) > 12.0) return 0.0;
        return w.amplitude * exp(-0.5 * u * u) * cos(w.omega * (t - w.t0) + w.phase);
    }
    if (t <= 0) return 0.0;
    const double r = (t >= w.ramp || w.ramp <= 0) ? 1.0 : 0.5 * (1.0 - cos(3.14159265358979323846 * t / w.ramp));
    return w.amplitude * r * sin(w.omega * t + w.phase);
}

template <class T> struct SourceBatch {
    int count;
    const int* cell;
    const double* weight;
    const int* field;   // 0, 1, 2: f0, f1, f2 of DevGrid
    const int* source;  // index into waveforms
    const DevWaveform* waveforms;
    T* f[3];
    double half;        // 0 for H sources (t = n dt), 0.5 for E sources
    double dt;
};

template <class T>
__global__ void apply_sources(SourceBatch<T> b, const long long* d_step, int step_offset) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= b.count) return;
    const double t = (double(*d_step + step_offset) + b.half) * b.dt;
    const double v = b.weight[k] * waveform_value(b.waveforms[b.source[k]], t);
    atomicAdd(b.f[b.field[k]] + b.cell[k], T(v));
}

// Mur (1981) first order. Lines: per wall, the outermost e line (index 0 or n-1) and its
// inner neighbour. saved[wall][2][len]: E^n on outer and inner line, written before the E
// update, read after the E sources.
template <class T> struct MurWall {
    T* field;
    int outer_stride;  // offset of cell k along the wall: k * stride + base
    int base_outer, base_inner, stride, len;
};

template <class T>
__global__ void mur_save(MurWall<T> w, T* saved) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= w.len) return;
    saved[k] = w.field[std::size_t(w.base_outer) + std::size_t(k) * w.stride];
    saved[w.len + k] = w.field[std::size_t(w.base_inner) + std::size_t(k) * w.stride];
}

template <class T>
__global__ void mur_apply(MurWall<T> w, const T* saved, T coeff) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= w.len) return;
    const T e0_old = saved[k], e1_old = saved[w.len + k];
    const T e1_new = w.field[std::size_t(w.base_inner) + std::size_t(k) * w.stride];
    w.field[std::size_t(w.base_outer) + std::size_t(k) * w.stride] = e1_old + coeff * (e1_new - e0_old);
}

// ---------------------------------------------------------------------------------------
// Monitors. DFT blocks: one (set, chunk of <= kDftChunk samples) per block; the samples of
// the chunk are gathered once into shared memory, then each thread owns frequencies
// f = threadIdx.x + m*blockDim.x and adds sample * exp(+i 2 pi f t) dt to X[k][f] for the
// chunk (coalesced over f). Traffic: the sample cells (2 gathers) + 32 B per accumulator.
// Probe blocks: one probe per block, a block reduction of sum w F and sum w F^2.
template <class T> struct DftSetDev {
    int field;        // 0..2
    int is_h;         // sample time (n+1/2) dt instead of (n+1) dt
    int n_samples, n_freq;
    const int* cell0; const int* cell1;
    const double* w0; const double* w1;
    const double* freq;
    double2* acc;
};
struct DftBlock { int set, k_begin, k_end; };
struct ProbeDev {
    int field, n_cells, reduce;  // reduce: 0 value, 1 mean, 2 rms, 3 sum_squares
    double weight_sum;
    const int* cell; const double* w;
    double* samples;  // capacity values
};

template <class T> struct MonitorArgs {
    T* f[3];
    const DftSetDev<T>* sets;
    const DftBlock* blocks;
    int n_dft_blocks;
    const ProbeDev* probes;
    int n_probes;
    double dt;
};

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

template <class T>
__global__ void __launch_bounds__(kMonitorThreads) monitors(MonitorArgs<T> a, const long long* d_step, int step_offset) {
    __shared__ double sample[kDftChunk];
    __shared__ double scratch[32];
    const long long n = *d_step + step_offset;
    if (int(blockIdx.x) < a.n_dft_blocks) {
        const DftBlock blk = a.blocks[blockIdx.x];
        const DftSetDev<T> s = a.sets[blk.set];
        const T* F = a.f[s.field];
        const int m = blk.k_end - blk.k_begin;
        for (int k = threadIdx.x; k < m; k += blockDim.x) {
            const int kk = blk.k_begin + k;
            double v = s.w0[kk] * double(F[s.cell0[kk]]);
            if (s.cell1[kk] >= 0) v += s.w1[kk] * double(F[s.cell1[kk]]);
            sample[k] = v * a.dt;
        }
        __syncthreads();
        const double t = (double(n) + (s.is_h ? 0.5 : 1.0)) * a.dt;
        for (int f = threadIdx.x; f < s.n_freq; f += blockDim.x) {
            double sn, cs;
            sincospi(2.0 * s.freq[f] * t, &sn, &cs);
            double2* acc = s.acc + std::size_t(blk.k_begin) * s.n_freq + f;
            for (int k = 0; k < m; ++k) {
                double2 x = acc[std::size_t(k) * s.n_freq];
                x.x += sample[k] * cs;
                x.y += sample[k] * sn;
                acc[std::size_t(k) * s.n_freq] = x;
            }
        }
        return;
    }
    const int p = int(blockIdx.x) - a.n_dft_blocks;
    if (p >= a.n_probes) return;
    const ProbeDev pr = a.probes[p];
    const T* F = a.f[pr.field];
    double s1 = 0, s2 = 0;
    for (int k = threadIdx.x; k < pr.n_cells; k += blockDim.x) {
        const double v = double(F[pr.cell[k]]);
        s1 += pr.w[k] * v;
        s2 += pr.w[k] * v * v;
    }
    s1 = block_sum(s1, scratch);
    s2 = block_sum(s2, scratch);
    if (threadIdx.x == 0) {
        double r = s1;
        if (pr.reduce == 1) r = s1 / pr.weight_sum;
        else if (pr.reduce == 2) r = sqrt(s2 / pr.weight_sum);
        else if (pr.reduce == 3) r = s2;
        pr.samples[n] = r;
    }
}

__global__ void advance_step(long long* d_step, int steps) { *d_step += steps; }

// ---------------------------------------------------------------------------------------
// Dispersive cells (scene.hpp, "Dispersive cells"): one thread per listed cell of one E
// component. disp_advance runs before the E bulk update and reads E^n:
//   P~_q^{n+1} = c1 P~_q^n + c2 P~_q^{n-1} + c3 E^n,  dP = sum_q (P~_q^{n+1} - P~_q^n);
// disp_correct runs after it, before the E sources: E -= coef * dP, coef = weight cb / S.
// State is pole-major (P[q * n + k]) so each pole's loads coalesce across the warp.
// Traffic per dispersive cell and step (s = sizeof(T), N poles): advance reads cell index,
// pole-set id, E, and 2N s state, writes 2N s state and dP; correct reads index, coef, dP, E
// and writes E: (4N + 5) s + 10 B (6 poles, float32: 126 B), on top of the bulk update.
template <class T> struct DispDev {
    T* E;
    const int* cells;
    const std::uint16_t* set;
    const T* coef;
    const int* set_first;   // first pole of each pole set in coeffs
    const int* set_count;   // poles of each pole set
    const T* coeffs;        // c1, c2, c3 per pole
    T* P;                   // P~^n,     max_poles x n (pole-major)
    T* P_old;               // P~^{n-1}, same layout
    T* dP;                  // n
    int n, max_poles;
};

template <class T>
__global__ void disp_advance(DispDev<T> d) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= d.n) return;
    const T e = d.E[d.cells[k]];
    const int s = d.set[k];
    const int first = d.set_first[s], np = d.set_count[s];
    T dp = T(0);
    for (int q = 0; q < np; ++q) {
        const T c1 = d.coeffs[3 * (first + q)], c2 = d.coeffs[3 * (first + q) + 1], c3 = d.coeffs[3 * (first + q) + 2];
        const std::size_t at = std::size_t(q) * d.n + k;
        const T pn = d.P[at], po = d.P_old[at];
        const T nw = c1 * pn + c2 * po + c3 * e;
        dp += nw - pn;
        d.P_old[at] = pn;
        d.P[at] = nw;
    }
    d.dP[k] = dp;
}

template <class T>
__global__ void disp_correct(DispDev<T> d) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= d.n) return;
    d.E[d.cells[k]] -= d.coef[k] * d.dP[k];
}

// ---------------------------------------------------------------------------------------
// Anisotropic cells (scene.hpp, "Anisotropic cells"; TEz sub-pixel tensor): one thread per
// listed site of Ex (k < n[0]) or Ey (k - n[0]). aniso_save keeps E^n before the E update;
// after the whole E half step aniso_delta turns it into dE = E - E^n, and aniso_couple adds
// sum_m w[4k+m] dE(other component, nb[4k+m]). Three small kernels over the lists only.
template <class T> struct AnisoDev {
    T* E[2];
    const int* cells[2];
    const int* nb[2];   // 4 per site, -1: none
    const T* w[2];      // 4 per site
    T* d[2];            // per site: E^n, then dE
    int n[2];
};

template <class T>
__global__ void aniso_save(AnisoDev<T> a) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = k < a.n[0] ? 0 : 1;
    if (c == 1) k -= a.n[0];
    if (k >= a.n[c]) return;
    a.d[c][k] = a.E[c][a.cells[c][k]];
}

template <class T>
__global__ void aniso_delta(AnisoDev<T> a) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = k < a.n[0] ? 0 : 1;
    if (c == 1) k -= a.n[0];
    if (k >= a.n[c]) return;
    a.d[c][k] = a.E[c][a.cells[c][k]] - a.d[c][k];
}

template <class T>
__global__ void aniso_couple(AnisoDev<T> a) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = k < a.n[0] ? 0 : 1;
    if (c == 1) k -= a.n[0];
    if (k >= a.n[c]) return;
    const T* de = a.d[1 - c];
    T s = T(0);
    for (int m = 0; m < 4; ++m) {
        const int b = a.nb[c][4 * k + m];
        if (b >= 0) s += a.w[c][4 * k + m] * de[b];
    }
    a.E[c][a.cells[c][k]] += s;
}

// ---------------------------------------------------------------------------------------
// Reductions: energy (sum eps_r E^2 + H^2) and finiteness.
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

// ---------------------------------------------------------------------------------------
// Copy roofline kernel: each thread moves 4 x 16 bytes, all four loads issued before the
// stores (bytes in flight), one pass, no grid-stride loop.
__global__ void __launch_bounds__(256) copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
    const std::size_t base = (blockIdx.x * std::size_t(blockDim.x)) * 4 + threadIdx.x;
    float4 v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        const std::size_t k = base + std::size_t(u) * blockDim.x;
        if (k < n) v[u] = in[k];
    }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
        const std::size_t k = base + std::size_t(u) * blockDim.x;
        if (k < n) out[k] = v[u];
    }
}

// ---------------------------------------------------------------------------------------
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

bool is_magnetic(Component c) { return c == Component::Hx || c == Component::Hy || c == Component::Hz; }

// ---------------------------------------------------------------------------------------
template <class T>
class CudaEngine final : public Engine {
public:
    CudaEngine(const Scene& scene, Precision precision) : sc_(scene), precision_(precision) {
        if (sc_.nx < 2 || sc_.ny < 2) throw RunError("CUDA engine: the grid needs at least 2 x 2 cells");
        CUDA_CHECK(cudaGetDevice(&device_));
        check_memory();
        // Rows go to blockIdx.y (at most 65535 blocks of 4 rows).
        if (sc_.ny > 4 * 65535)
            throw RunError("CUDA engine: at most " + std::to_string(4 * 65535) + " cells along y (got " +
                           std::to_string(sc_.ny) + "); rotate the domain so that the long axis is x");
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        try {
            allocate();
        } catch (...) {
            release();
            throw;
        }
    }
    ~CudaEngine() override { release(); }

    std::string backend() const override { return "cuda"; }
    std::string device() const override { return device_name(device_); }
    Precision precision() const override { return precision_; }
    std::int64_t steps_done() const override { return steps_done_; }

    void step(int n_steps) override {
        if (n_steps <= 0) return;
        ensure_probe_capacity(steps_done_ + n_steps);
        int left = n_steps;
        if (left >= kGraphSteps) {
            if (!graph_exec_) build_graph();
            while (left >= kGraphSteps) {
                CUDA_CHECK(cudaGraphLaunch(graph_exec_, stream_));
                left -= kGraphSteps;
            }
        }
        if (left > 0) enqueue_steps(left);
        steps_done_ += n_steps;
    }

    double field_energy() override {
        reduce();
        return 0.5 * units::eps0 * (sc_.dx_um * 1e-6) * (sc_.dx_um * 1e-6) * host_energy_;
    }
    bool fields_finite() override {
        reduce();
        return !host_nonfinite_;
    }

    void get_field(Component c, std::vector<double>& out) override {
        const int slot = checked_slot(c);
        std::vector<T> tmp(sc_.cells());
        CUDA_CHECK(cudaMemcpyAsync(tmp.data(), fields_[slot].template as<T>(), tmp.size() * sizeof(T), cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        out.assign(tmp.begin(), tmp.end());
    }
    void set_field(Component c, const std::vector<double>& values) override {
        const int slot = checked_slot(c);
        if (values.size() != sc_.cells())
            throw std::invalid_argument("set_field: expected nx*ny = " + std::to_string(sc_.cells()) + " values");
        std::vector<T> tmp(values.begin(), values.end());
        CUDA_CHECK(cudaMemcpyAsync(fields_[slot].template as<T>(), tmp.data(), tmp.size() * sizeof(T), cudaMemcpyHostToDevice, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    std::vector<std::complex<double>> dft(int set) override {
        if (set < 0 || set >= int(sc_.dft_sets.size())) throw std::out_of_range("dft: no DFT set " + std::to_string(set));
        const DftSet& s = sc_.dft_sets[set];
        std::vector<std::complex<double>> out(s.cell0.size() * s.frequencies_hz.size());
        static_assert(sizeof(std::complex<double>) == sizeof(double2));
        if (!out.empty())
            CUDA_CHECK(cudaMemcpyAsync(out.data(), dft_acc_.template as<double2>() + dft_offset_[set], out.size() * sizeof(double2),
                                       cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return out;
    }
    std::vector<double> time_samples(int probe) override {
        if (probe < 0 || probe >= int(sc_.time_probes.size()))
            throw std::out_of_range("time_samples: no time probe " + std::to_string(probe));
        std::vector<double> out(static_cast<std::size_t>(steps_done_));
        if (!out.empty())
            CUDA_CHECK(cudaMemcpyAsync(out.data(), probe_samples_.template as<double>() + std::size_t(probe) * probe_capacity_,
                                       out.size() * sizeof(double), cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return out;
    }

    Image8 frame(const FrameRequest& req) override {
        int w = 0, h = 0;
        const std::uint8_t* rgba = render_frame(req, nullptr, 0, w, h);
        Image8 img;
        img.width = w; img.height = h; img.channels = 4;
        img.pixels.resize(std::size_t(w) * h * 4);
        CUDA_CHECK(cudaMemcpyAsync(img.pixels.data(), rgba, img.pixels.size(), cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return img;
    }

    void synchronize() override { CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    bool frame_to_device(const FrameRequest& req, void* device_rgba, std::size_t capacity, int& width,
                         int& height) override {
        const int f = frame_factor(sc_.nx, sc_.ny, req.max_width, req.max_height);
        width = (sc_.nx + f - 1) / f;
        height = (sc_.ny + f - 1) / f;
        if (!device_rgba || capacity < std::size_t(width) * height * 4) return false;
        render_frame(req, static_cast<std::uint8_t*>(device_rgba), capacity, width, height);
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return true;
    }

    // Box averages on the device: w*h floats (a few KB to MB) cross to the host, never the grid.
    FieldSamples sample_field(Component c, int max_width, int max_height, bool squared) override {
        const int slot = checked_slot(c);
        FieldSamples out;
        const int f = frame_factor(sc_.nx, sc_.ny, max_width, max_height);
        out.factor = f;
        out.width = (sc_.nx + f - 1) / f;
        out.height = (sc_.ny + f - 1) / f;
        const std::size_t n = std::size_t(out.width) * out.height;
        const std::size_t need = n * sizeof(float) + 16;
        if (frame_buf_.bytes() < need) frame_buf_.alloc(need);
        unsigned* max_bits = frame_buf_.template as<unsigned>();
        float* avg = reinterpret_cast<float*>(frame_buf_.template as<char>() + 16);
        const dim3 blk(32, 8), grd((out.width + 31) / 32, (out.height + 7) / 8);
        if (squared)
            frame_average<T, true><<<grd, blk, 0, stream_>>>(fields_[slot].template as<T>(), sc_.nx, sc_.ny, f,
                                                             out.width, out.height, avg, max_bits);
        else
            frame_average<T, false><<<grd, blk, 0, stream_>>>(fields_[slot].template as<T>(), sc_.nx, sc_.ny, f,
                                                              out.width, out.height, avg, max_bits);
        CUDA_CHECK_LAUNCH();
        out.values.resize(n);
        CUDA_CHECK(cudaMemcpyAsync(out.values.data(), avg, n * sizeof(float), cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        return out;
    }

    /// Bytes moved per cell update by the kernels of one step (model in the file header).
    double bytes_per_cell_update() const override {
        const double s = sizeof(T);
        const double cells = double(sc_.cells());
        double bulk = sc_.polarization == Polarization::TMz ? (5 * s) + (4 * s + 2) : (4 * s) + (5 * s + 4);
        const double psi_cells = double(psi_x_len_) * 2 + double(psi_y_len_) * 2;  // psi values updated per step
        double extra = psi_cells * 2 * s;
        extra += double(dft_total_) * 32.0;
        // Dispersive pass (disp_advance + disp_correct, traffic comment there): per listed
        // cell (4 N + 5) s + 10 bytes for its pole set's N poles.
        for (const DispersiveCells& d : sc_.dispersive)
            for (std::size_t k = 0; k < d.cells.size(); ++k)
                extra += (4.0 * double(sc_.pole_sets[d.pole_set[k]].poles.size()) + 5.0) * s + 10.0;
        return bulk + extra / cells;
    }

private:
    /// Averages and colour-maps one component into `dst` (a device buffer of capacity
    /// bytes) or, when dst is null, into the engine's frame buffer; returns the RGBA8
    /// pointer (rows top first). Asynchronous on stream_.
    const std::uint8_t* render_frame(const FrameRequest& req, std::uint8_t* dst, std::size_t capacity, int& w, int& h) {
        const int slot = checked_slot(req.component);
        const int factor = frame_factor(sc_.nx, sc_.ny, req.max_width, req.max_height);
        w = (sc_.nx + factor - 1) / factor;
        h = (sc_.ny + factor - 1) / factor;
        const std::size_t need = std::size_t(w) * h * (sizeof(float) + (dst ? 0 : 4)) + 16;
        if (frame_buf_.bytes() < need) frame_buf_.alloc(need);
        unsigned* max_bits = frame_buf_.template as<unsigned>();
        float* avg = reinterpret_cast<float*>(frame_buf_.template as<char>() + 16);
        std::uint8_t* rgba = dst ? dst : reinterpret_cast<std::uint8_t*>(avg + std::size_t(w) * h);
        (void)capacity;
        CUDA_CHECK(cudaMemsetAsync(max_bits, 0, sizeof(unsigned), stream_));
        const dim3 blk(32, 8), grd((w + 31) / 32, (h + 7) / 8);
        frame_average<T><<<grd, blk, 0, stream_>>>(fields_[slot].template as<T>(), sc_.nx, sc_.ny, factor, w, h, avg, max_bits);
        CUDA_CHECK_LAUNCH();
        frame_colour<<<grd, blk, 0, stream_>>>(avg, w, h, max_bits, float(req.scale), rgba, req.viewport_alpha);
        CUDA_CHECK_LAUNCH();
        return rgba;
    }

    int checked_slot(Component c) const {
        const int slot = field_slot(sc_.polarization, c);
        if (slot < 0) throw std::invalid_argument("component not present in this polarization");
        return slot;
    }

    std::size_t planned_bytes() const {
        return engine_state_bytes(sc_, sizeof(T) == 4 ? Precision::Float32 : Precision::Float64);
    }

    void check_memory() {
        std::size_t free_b = 0, total_b = 0;
        CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        // GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES caps what this engine may use (a GPU shared with
        // other work; the out-of-memory fall-back test).
        if (const char* cap = std::getenv("GOLIGHTLY_CUDA_MEMORY_LIMIT_BYTES"))
            free_b = std::min<std::size_t>(free_b, std::strtoull(cap, nullptr, 10));
        const std::size_t need = planned_bytes();
        if (need + (64u << 20) > free_b) {
            std::ostringstream os;
            os << "CUDA engine: the grid state needs " << need << " bytes (" << need / double(1 << 20)
               << " MiB) but only " << free_b << " bytes (" << free_b / double(1 << 20) << " MiB) are free on "
               << device_name(device_);
            throw OutOfMemoryError(os.str(), need, free_b);
        }
    }

    void allocate() {
        const Scene& s = sc_;
        const std::size_t cells = s.cells();
        const bool tmz = s.polarization == Polarization::TMz;
        for (auto& f : fields_) {
            f.alloc(cells * sizeof(T));
            CUDA_CHECK(cudaMemsetAsync(f.template as<void>(), 0, cells * sizeof(T), stream_));
        }
        // Material maps.
        const int ia = tmz ? 2 : 0;
        auto upload_map = [&](DevBuf& b, int comp) {
            const auto& m = s.material_index[comp];
            if (m.size() != cells)
                throw RunError("CUDA engine: scene.material_index[" + std::to_string(comp) + "] has " +
                               std::to_string(m.size()) + " entries, expected nx*ny = " + std::to_string(cells));
            for (std::uint16_t v : m)
                if (v >= s.table.size()) throw RunError("CUDA engine: material index beyond the coefficient table");
            upload(b, m, stream_);
        };
        upload_map(mat_a_, ia);
        if (!tmz) upload_map(mat_b_, 1);
        if (s.table.empty()) throw RunError("CUDA engine: empty material table");
        std::vector<Coef2<T>> tab;
        std::vector<double> eps;
        for (const auto& e : s.table) { tab.push_back({T(e.ca), T(e.cb)}); eps.push_back(e.eps_r); }
        upload(table_, tab, stream_);
        upload(eps_, eps, stream_);
        // CPML profiles.
        const int n[2] = {s.nx, s.ny};
        for (int a = 0; a < 2; ++a) {
            const CpmlAxis& c = s.cpml[a];
            auto prof = [&](const std::vector<double>& v, double dflt) {
                std::vector<T> out(n[a], T(dflt));
                if (!v.empty()) {
                    if (int(v.size()) != n[a]) throw RunError("CUDA engine: CPML profile length differs from the grid");
                    for (int k = 0; k < n[a]; ++k) out[k] = T(v[k]);
                }
                return out;
            };
            upload(cpml_[a][0], prof(c.b_e, 0), stream_);
            upload(cpml_[a][1], prof(c.c_e, 0), stream_);
            upload(cpml_[a][2], prof(c.inv_kappa_e, 1), stream_);
            upload(cpml_[a][3], prof(c.b_h, 0), stream_);
            upload(cpml_[a][4], prof(c.c_h, 0), stream_);
            upload(cpml_[a][5], prof(c.inv_kappa_h, 1), stream_);
            if (s.pml_lo[a] < 0 || s.pml_hi[a] < 0 || s.pml_lo[a] + s.pml_hi[a] > n[a])
                throw RunError("CUDA engine: PML thickness out of range");
        }
        const int wx = s.pml_lo[0] + s.pml_hi[0], wy = s.pml_lo[1] + s.pml_hi[1];
        psi_x_len_ = std::size_t(wx) * s.ny;
        psi_y_len_ = std::size_t(wy) * s.nx;
        for (int k = 0; k < 2; ++k) {
            psi_x_[k].alloc(std::max<std::size_t>(1, psi_x_len_) * sizeof(T));
            psi_y_[k].alloc(std::max<std::size_t>(1, psi_y_len_) * sizeof(T));
            CUDA_CHECK(cudaMemsetAsync(psi_x_[k].template as<void>(), 0, psi_x_[k].bytes(), stream_));
            CUDA_CHECK(cudaMemsetAsync(psi_y_[k].template as<void>(), 0, psi_y_[k].bytes(), stream_));
        }
        CUDA_CHECK(cudaMalloc(&d_step_, sizeof(long long)));
        CUDA_CHECK(cudaMemsetAsync(d_step_, 0, sizeof(long long), stream_));
        CUDA_CHECK(cudaMalloc(&d_reduce_, 2 * sizeof(double)));

        // Grid parameters.
        DevGrid<T>& g = grid_;
        g.nx = s.nx; g.ny = s.ny;
        g.lo_x = s.pml_lo[0]; g.hi_x = s.pml_hi[0]; g.lo_y = s.pml_lo[1]; g.hi_y = s.pml_hi[1];
        g.periodic_x = s.boundary[0] == BoundaryKind::Periodic;
        g.periodic_y = s.boundary[1] == BoundaryKind::Periodic;
        g.pec_x = s.boundary[0] == BoundaryKind::Pec; g.pec_y = s.boundary[1] == BoundaryKind::Pec;
        g.pmc_x = s.boundary[0] == BoundaryKind::Pmc; g.pmc_y = s.boundary[1] == BoundaryKind::Pmc;
        g.S = T(s.courant);
        g.f0 = fields_[0].template as<T>(); g.f1 = fields_[1].template as<T>(); g.f2 = fields_[2].template as<T>();
        g.mat_a = mat_a_.template as<std::uint16_t>();
        g.mat_b = tmz ? nullptr : mat_b_.template as<std::uint16_t>();
        g.table = table_.template as<Coef2<T>>();
        g.be_x = cpml_[0][0].template as<T>(); g.ce_x = cpml_[0][1].template as<T>(); g.ike_x = cpml_[0][2].template as<T>();
        g.bh_x = cpml_[0][3].template as<T>(); g.ch_x = cpml_[0][4].template as<T>(); g.ikh_x = cpml_[0][5].template as<T>();
        g.be_y = cpml_[1][0].template as<T>(); g.ce_y = cpml_[1][1].template as<T>(); g.ike_y = cpml_[1][2].template as<T>();
        g.bh_y = cpml_[1][3].template as<T>(); g.ch_y = cpml_[1][4].template as<T>(); g.ikh_y = cpml_[1][5].template as<T>();
        g.psiH_x = psi_x_[0].template as<T>(); g.psiE_x = psi_x_[1].template as<T>();
        g.psiH_y = psi_y_[0].template as<T>(); g.psiE_y = psi_y_[1].template as<T>();

        setup_sources();
        setup_mur();
        setup_monitors();
        setup_dispersive();
        setup_anisotropic();
        CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    /// Live edit (engine.hpp, update_materials): copies the edited uint16 material map(s),
    /// the coefficient table and the energy's eps table to the device on the engine's
    /// stream, ordered after the steps already enqueued and before the next ones. The map
    /// buffers keep their size and address; a table that outgrows its buffer is
    /// reallocated, and then the captured step graph (which holds the table's address) is
    /// rebuilt. Unchanged dispersive cells get their coefficient weight * cb / S anew.
    void update_materials(SceneView edited_view) override {
        const Scene& edited = *edited_view;
        check_material_update(sc_, edited);
        const bool tmz = sc_.polarization == Polarization::TMz;
        // Host staging copies must outlive the asynchronous copies: synchronize at the end.
        std::vector<Coef2<T>> tab;
        std::vector<double> eps;
        for (const auto& e : edited.table) { tab.push_back({T(e.ca), T(e.cb)}); eps.push_back(e.eps_r); }
        const int ia = tmz ? 2 : 0;
        CUDA_CHECK(cudaMemcpyAsync(mat_a_.template as<void>(), edited.material_index[ia].data(),
                                   sc_.cells() * sizeof(std::uint16_t), cudaMemcpyHostToDevice, stream_));
        if (!tmz)
            CUDA_CHECK(cudaMemcpyAsync(mat_b_.template as<void>(), edited.material_index[1].data(),
                                       sc_.cells() * sizeof(std::uint16_t), cudaMemcpyHostToDevice, stream_));
        if (tab.size() * sizeof(Coef2<T>) > table_.bytes() || eps.size() * sizeof(double) > eps_.bytes()) {
            CUDA_CHECK(cudaStreamSynchronize(stream_));  // the old table may still be read
            upload(table_, tab, stream_);
            upload(eps_, eps, stream_);
            grid_.table = table_.template as<Coef2<T>>();
            destroy_graph();  // rebuilt with the new address on the next step()
        } else {
            CUDA_CHECK(cudaMemcpyAsync(table_.template as<void>(), tab.data(), tab.size() * sizeof(Coef2<T>),
                                       cudaMemcpyHostToDevice, stream_));
            CUDA_CHECK(cudaMemcpyAsync(eps_.template as<void>(), eps.data(), eps.size() * sizeof(double),
                                       cudaMemcpyHostToDevice, stream_));
        }
        std::vector<std::vector<T>> coefs(3);
        for (int c = 0; c < 3; ++c) {
            const DispersiveCells& d = sc_.dispersive[c];
            if (d.cells.empty()) continue;
            const auto& map = edited.material_index[c];
            coefs[c].resize(d.cells.size());
            for (std::size_t k = 0; k < d.cells.size(); ++k)
                coefs[c][k] = T(d.weight[k] * edited.table[map[d.cells[k]]].cb / sc_.courant);
            CUDA_CHECK(cudaMemcpyAsync(disp_[c].coef.template as<void>(), coefs[c].data(), coefs[c].size() * sizeof(T),
                                       cudaMemcpyHostToDevice, stream_));
        }
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        sc_.table = edited.table;
        for (int c = 0; c < 3; ++c)
            if (!sc_.material_index[c].empty()) sc_.material_index[c] = edited.material_index[c];
        // TEz sub-pixel tensor couplings follow the edited interfaces (their per-step state
        // is transient, so the lists can be replaced between steps); the captured graph
        // holds the old list's arguments.
        if (!same_anisotropic(sc_.anisotropic, edited.anisotropic)) {
            sc_.anisotropic = edited.anisotropic;
            aniso_args_ = AnisoDev<T>{};
            any_aniso_ = false;
            setup_anisotropic();
            CUDA_CHECK(cudaStreamSynchronize(stream_));
            destroy_graph();
        }
    }

    /// Uploads Scene::anisotropic (scene.hpp "Anisotropic cells").
    void setup_anisotropic() {
        const AnisotropicCells& an = sc_.anisotropic;
        if (an.empty()) return;
        if (sc_.polarization != Polarization::TEz) throw RunError("CUDA engine: anisotropic cells need the TEz polarization");
        const Component comp[2] = {Component::Ex, Component::Ey};
        for (int c = 0; c < 2; ++c) {
            const std::size_t m = an.cells[c].size();
            if (an.neighbour[c].size() != 4 * m || an.weight[c].size() != 4 * m)
                throw RunError("CUDA engine: anisotropic neighbour/weight arrays must hold 4 entries per cell");
            for (std::size_t k = 0; k < m; ++k)
                if (an.cells[c][k] < 0 || std::size_t(an.cells[c][k]) >= sc_.cells())
                    throw RunError("CUDA engine: anisotropic cell index outside the grid");
            for (std::int32_t b : an.neighbour[c])
                if (b >= 0 && std::size_t(b) >= an.cells[1 - c].size())
                    throw RunError("CUDA engine: anisotropic neighbour index out of range");
            std::vector<T> w(an.weight[c].begin(), an.weight[c].end());
            AnisoBufs& B = aniso_[c];
            upload(B.cells, an.cells[c], stream_);
            upload(B.nb, an.neighbour[c], stream_);
            upload(B.w, w, stream_);
            B.d.alloc(std::max<std::size_t>(1, m) * sizeof(T));
            aniso_args_.E[c] = fields_[field_slot(sc_.polarization, comp[c])].template as<T>();
            aniso_args_.cells[c] = B.cells.template as<int>();
            aniso_args_.nb[c] = B.nb.template as<int>();
            aniso_args_.w[c] = B.w.template as<T>();
            aniso_args_.d[c] = B.d.template as<T>();
            aniso_args_.n[c] = int(m);
        }
        any_aniso_ = true;
    }

    /// kind 0: save E^n, 1: dE = E - E^n, 2: couple.
    void launch_anisotropic(int kind) {
        if (!any_aniso_) return;
        const int total = aniso_args_.n[0] + aniso_args_.n[1];
        const int blocks = (total + 255) / 256;
        if (kind == 0) aniso_save<T><<<blocks, 256, 0, stream_>>>(aniso_args_);
        else if (kind == 1) aniso_delta<T><<<blocks, 256, 0, stream_>>>(aniso_args_);
        else aniso_couple<T><<<blocks, 256, 0, stream_>>>(aniso_args_);
        CUDA_CHECK_LAUNCH();
    }

    /// Uploads the compact dispersive-cell lists (scene.hpp) of each E component.
    void setup_dispersive() {
        const Scene& s = sc_;
        if (!s.is_dispersive()) return;
        std::vector<int> first, count;
        std::vector<T> coeffs;
        int max_poles = 0;
        for (const PoleSet& ps : s.pole_sets) {
            first.push_back(int(coeffs.size() / 3));
            count.push_back(int(ps.poles.size()));
            max_poles = std::max(max_poles, int(ps.poles.size()));
            for (const PoleCoeffs& c : ps.poles) { coeffs.push_back(T(c.c1)); coeffs.push_back(T(c.c2)); coeffs.push_back(T(c.c3)); }
        }
        upload(pole_first_, first, stream_);
        upload(pole_count_, count, stream_);
        upload(pole_coeffs_, coeffs, stream_);
        const bool tmz = s.polarization == Polarization::TMz;
        for (int c = 0; c < 3; ++c) {
            const DispersiveCells& d = s.dispersive[c];
            if (d.cells.empty()) continue;
            const Component comp = Component(c);
            const int slot = field_slot(s.polarization, comp);
            if (slot < 0 || (tmz ? comp != Component::Ez : comp == Component::Ez))
                throw RunError("CUDA engine: dispersive cells on a component the polarization lacks");
            const std::size_t n = d.cells.size();
            if (d.pole_set.size() != n || d.weight.size() != n)
                throw RunError("CUDA engine: dispersive cell arrays differ in length");
            const auto& map = s.material_index[c];
            std::vector<T> coef(n);
            for (std::size_t k = 0; k < n; ++k) {
                if (d.cells[k] < 0 || std::size_t(d.cells[k]) >= s.cells())
                    throw RunError("CUDA engine: dispersive cell index outside the grid");
                if (d.pole_set[k] >= s.pole_sets.size()) throw RunError("CUDA engine: dispersive pole-set index out of range");
                coef[k] = T(d.weight[k] * s.table[map[d.cells[k]]].cb / s.courant);
            }
            DispBufs& B = disp_[c];
            upload(B.cells, d.cells, stream_);
            upload(B.set, d.pole_set, stream_);
            upload(B.coef, coef, stream_);
            const std::size_t state = std::max<std::size_t>(1, n * std::size_t(max_poles)) * sizeof(T);
            B.P.alloc(state);
            B.P_old.alloc(state);
            B.dP.alloc(n * sizeof(T));
            CUDA_CHECK(cudaMemsetAsync(B.P.template as<void>(), 0, state, stream_));
            CUDA_CHECK(cudaMemsetAsync(B.P_old.template as<void>(), 0, state, stream_));
            DispDev<T> a{};
            a.E = fields_[slot].template as<T>();
            a.cells = B.cells.template as<int>();
            a.set = B.set.template as<std::uint16_t>();
            a.coef = B.coef.template as<T>();
            a.set_first = pole_first_.template as<int>();
            a.set_count = pole_count_.template as<int>();
            a.coeffs = pole_coeffs_.template as<T>();
            a.P = B.P.template as<T>();
            a.P_old = B.P_old.template as<T>();
            a.dP = B.dP.template as<T>();
            a.n = int(n);
            a.max_poles = max_poles;
            disp_args_.push_back(a);
        }
    }

    void launch_dispersive(bool correct) {
        for (const DispDev<T>& a : disp_args_) {
            const int blocks = (a.n + 255) / 256;
            if (correct) disp_correct<T><<<blocks, 256, 0, stream_>>>(a);
            else disp_advance<T><<<blocks, 256, 0, stream_>>>(a);
            CUDA_CHECK_LAUNCH();
        }
    }

    void setup_sources() {
        std::vector<DevWaveform> wf;
        for (const auto& src : sc_.sources) {
            const auto& w = src.waveform;
            wf.push_back({w.type == WaveformType::GaussianPulse ? 0 : 1, w.omega, w.t0_s, w.tau_s, w.ramp_s,
                          w.amplitude, w.phase_rad, src.delay_s});
        }
        upload(waveforms_, wf, stream_);
        for (int h = 0; h < 2; ++h) {  // h = 1: magnetic sources
            std::vector<int> cell, field, source;
            std::vector<double> weight;
            for (std::size_t q = 0; q < sc_.sources.size(); ++q) {
                const SourceTerm& src = sc_.sources[q];
                if (int(is_magnetic(src.component)) != h) continue;
                const int slot = field_slot(sc_.polarization, src.component);
                if (slot < 0) throw RunError("CUDA engine: a source on a component this polarization lacks");
                if (src.cells.size() != src.weights.size()) throw RunError("CUDA engine: source cells/weights differ in length");
                for (std::size_t k = 0; k < src.cells.size(); ++k) {
                    const int c = src.cells[k];
                    if (c < 0 || std::size_t(c) >= sc_.cells()) throw RunError("CUDA engine: source cell out of range");
                    if (zeroed_cell(src.component, c)) continue;  // zeroing after the source wins
                    cell.push_back(c); field.push_back(slot); source.push_back(int(q)); weight.push_back(src.weights[k]);
                }
            }
            SrcSet& ss = src_[h];
            ss.count = int(cell.size());
            upload(ss.cell, cell, stream_); upload(ss.field, field, stream_);
            upload(ss.source, source, stream_); upload(ss.weight, weight, stream_);
        }
    }

    /// True where pec/pmc zeroing holds the component at 0 after the sources.
    bool zeroed_cell(Component c, int cell) const {
        const int i = cell % sc_.nx, j = cell / sc_.nx;
        const bool pec_x = sc_.boundary[0] == BoundaryKind::Pec, pec_y = sc_.boundary[1] == BoundaryKind::Pec;
        const bool pmc_x = sc_.boundary[0] == BoundaryKind::Pmc, pmc_y = sc_.boundary[1] == BoundaryKind::Pmc;
        if (sc_.polarization == Polarization::TMz) {
            if (c == Component::Ez) return (pec_x && i == 0) || (pec_y && j == 0);
            if (c == Component::Hy) return pmc_x && i == sc_.nx - 1;
            if (c == Component::Hx) return pmc_y && j == sc_.ny - 1;
        } else {
            if (c == Component::Ey) return pec_x && i == 0;
            if (c == Component::Ex) return pec_y && j == 0;
            if (c == Component::Hz) return (pmc_x && i == sc_.nx - 1) || (pmc_y && j == sc_.ny - 1);
        }
        return false;
    }

    void setup_mur() {
        const bool tmz = sc_.polarization == Polarization::TMz;
        const int nx = sc_.nx, ny = sc_.ny;
        std::size_t total = 0;
        if (sc_.boundary[0] == BoundaryKind::Mur) {
            T* f = tmz ? grid_.f0 : grid_.f2;  // Ez or Ey
            mur_walls_.push_back({f, 0, 0, 1, nx, ny});
            mur_walls_.push_back({f, 0, nx - 1, nx - 2, nx, ny});
        }
        if (sc_.boundary[1] == BoundaryKind::Mur) {
            T* f = tmz ? grid_.f0 : grid_.f1;  // Ez or Ex
            mur_walls_.push_back({f, 0, 0, nx, 1, nx});
            mur_walls_.push_back({f, 0, (ny - 1) * nx, (ny - 2) * nx, 1, nx});
        }
        for (const auto& w : mur_walls_) total += 2 * std::size_t(w.len);
        mur_saved_.alloc(std::max<std::size_t>(1, total) * sizeof(T));
        mur_coeff_ = T((sc_.courant - 1.0) / (sc_.courant + 1.0));
    }

    void setup_monitors() {
        // DFT sets.
        std::vector<int> c0, c1;
        std::vector<double> w0, w1, fr;
        std::vector<std::size_t> off_k, off_f;
        dft_total_ = 0;
        for (const auto& s : sc_.dft_sets) {
            // cell1 / w1 may be empty: single-cell samples.
            const bool two = !s.cell1.empty();
            if (s.w0.size() != s.cell0.size() || (two && (s.cell1.size() != s.cell0.size() || s.w1.size() != s.cell0.size())))
                throw RunError("CUDA engine: DFT set arrays differ in length");
            if (field_slot(sc_.polarization, s.component) < 0)
                throw RunError("CUDA engine: DFT set of a component the polarization lacks");
            off_k.push_back(c0.size());
            off_f.push_back(fr.size());
            dft_offset_.push_back(dft_total_);
            for (std::size_t k = 0; k < s.cell0.size(); ++k) {
                const std::int32_t second = two ? s.cell1[k] : -1;
                if (s.cell0[k] < 0 || std::size_t(s.cell0[k]) >= sc_.cells() || std::size_t(std::max(0, second)) >= sc_.cells())
                    throw RunError("CUDA engine: DFT sample cell out of range");
                c0.push_back(s.cell0[k]); c1.push_back(second); w0.push_back(s.w0[k]); w1.push_back(two ? s.w1[k] : 0.0);
            }
            fr.insert(fr.end(), s.frequencies_hz.begin(), s.frequencies_hz.end());
            dft_total_ += s.cell0.size() * s.frequencies_hz.size();
        }
        upload(dft_c0_, c0, stream_); upload(dft_c1_, c1, stream_);
        upload(dft_w0_, w0, stream_); upload(dft_w1_, w1, stream_); upload(dft_f_, fr, stream_);
        dft_acc_.alloc(std::max<std::size_t>(1, dft_total_) * sizeof(double2));
        CUDA_CHECK(cudaMemsetAsync(dft_acc_.template as<void>(), 0, dft_acc_.bytes(), stream_));
        std::vector<DftSetDev<T>> sets;
        std::vector<DftBlock> blocks;
        for (std::size_t q = 0; q < sc_.dft_sets.size(); ++q) {
            const auto& s = sc_.dft_sets[q];
            DftSetDev<T> d{};
            d.field = field_slot(sc_.polarization, s.component);
            d.is_h = is_magnetic(s.component);
            d.n_samples = int(s.cell0.size());
            d.n_freq = int(s.frequencies_hz.size());
            d.cell0 = dft_c0_.template as<int>() + off_k[q]; d.cell1 = dft_c1_.template as<int>() + off_k[q];
            d.w0 = dft_w0_.template as<double>() + off_k[q]; d.w1 = dft_w1_.template as<double>() + off_k[q];
            d.freq = dft_f_.template as<double>() + off_f[q];
            d.acc = dft_acc_.template as<double2>() + dft_offset_[q];
            sets.push_back(d);
            if (d.n_freq > 0)
                for (int k = 0; k < d.n_samples; k += kDftChunk)
                    blocks.push_back({int(q), k, std::min(d.n_samples, k + kDftChunk)});
        }
        upload(dft_sets_, sets, stream_);
        upload(dft_blocks_, blocks, stream_);
        n_dft_blocks_ = int(blocks.size());
        // Time probes (sample storage allocated by ensure_probe_capacity).
        std::vector<int> pc;
        std::vector<double> pw;
        std::vector<std::size_t> off;
        for (const auto& p : sc_.time_probes) {
            if (p.cells.size() != p.weights.size()) throw RunError("CUDA engine: probe cells/weights differ in length");
            if (field_slot(sc_.polarization, p.component) < 0)
                throw RunError("CUDA engine: time probe of a component the polarization lacks");
            off.push_back(pc.size());
            for (std::size_t k = 0; k < p.cells.size(); ++k) {
                if (p.cells[k] < 0 || std::size_t(p.cells[k]) >= sc_.cells()) throw RunError("CUDA engine: probe cell out of range");
                pc.push_back(p.cells[k]); pw.push_back(p.weights[k]);
            }
        }
        upload(probe_cells_, pc, stream_); upload(probe_w_, pw, stream_);
        probe_off_ = off;
    }

    void ensure_probe_capacity(std::int64_t steps) {
        if (sc_.time_probes.empty() || std::size_t(steps) <= probe_capacity_) return;
        std::size_t cap = std::max<std::size_t>(4096, probe_capacity_ * 2);
        while (cap < std::size_t(steps)) cap *= 2;
        const std::size_t np = sc_.time_probes.size();
        DevBuf fresh;
        fresh.alloc(np * cap * sizeof(double));
        CUDA_CHECK(cudaMemsetAsync(fresh.template as<void>(), 0, fresh.bytes(), stream_));
        if (probe_capacity_ > 0)
            CUDA_CHECK(cudaMemcpy2DAsync(fresh.template as<void>(), cap * sizeof(double), probe_samples_.template as<void>(),
                                         probe_capacity_ * sizeof(double), probe_capacity_ * sizeof(double), np,
                                         cudaMemcpyDeviceToDevice, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        fresh.swap(probe_samples_);
        probe_capacity_ = cap;
        std::vector<ProbeDev> pd;
        for (std::size_t q = 0; q < np; ++q) {
            const auto& p = sc_.time_probes[q];
            ProbeDev d{};
            d.field = field_slot(sc_.polarization, p.component);
            d.n_cells = int(p.cells.size());
            d.reduce = p.reduce == Reduce::Value ? 0 : p.reduce == Reduce::Mean ? 1 : p.reduce == Reduce::Rms ? 2 : 3;
            d.weight_sum = 0;
            for (double w : p.weights) d.weight_sum += w;
            d.cell = probe_cells_.template as<int>() + probe_off_[q];
            d.w = probe_w_.template as<double>() + probe_off_[q];
            d.samples = probe_samples_.template as<double>() + q * cap;
            pd.push_back(d);
        }
        upload(probes_, pd, stream_);
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        destroy_graph();  // kernel arguments changed
    }

    /// Enqueues `steps` time steps on stream_ (also used inside graph capture).
    void enqueue_steps(int steps) {
        for (int k = 0; k < steps; ++k) {
            launch_bulk(false);
            launch_sources(1, k);
            std::size_t off = 0;
            for (const auto& w : mur_walls_) {
                mur_save<T><<<(w.len + 127) / 128, 128, 0, stream_>>>(w, mur_saved_.template as<T>() + off);
                CUDA_CHECK_LAUNCH();
                off += 2 * std::size_t(w.len);
            }
            launch_dispersive(false);  // poles advance from E^n
            launch_anisotropic(0);     // E^n of the tensor-coupled sites
            launch_bulk(true);
            launch_dispersive(true);   // E -= weight cb / S dP, before the E sources
            launch_sources(0, k);
            off = 0;
            for (const auto& w : mur_walls_) {
                mur_apply<T><<<(w.len + 127) / 128, 128, 0, stream_>>>(w, mur_saved_.template as<T>() + off, mur_coeff_);
                CUDA_CHECK_LAUNCH();
                off += 2 * std::size_t(w.len);
            }
            launch_anisotropic(1);  // dE at every listed site, then the couplings
            launch_anisotropic(2);
            const int nblocks = n_dft_blocks_ + int(sc_.time_probes.size());
            if (nblocks > 0) {
                MonitorArgs<T> a{};
                a.f[0] = grid_.f0; a.f[1] = grid_.f1; a.f[2] = grid_.f2;
                a.sets = dft_sets_.template as<DftSetDev<T>>();
                a.blocks = dft_blocks_.template as<DftBlock>();
                a.n_dft_blocks = n_dft_blocks_;
                a.probes = probes_.template as<ProbeDev>();
                a.n_probes = int(sc_.time_probes.size());
                a.dt = sc_.dt_s;
                monitors<T><<<nblocks, kMonitorThreads, 0, stream_>>>(a, d_step_, k);
                CUDA_CHECK_LAUNCH();
            }
        }
        advance_step<<<1, 1, 0, stream_>>>(d_step_, steps);
        CUDA_CHECK_LAUNCH();
    }

    /// The H (electric = false) or E bulk update: vectorized when rows are 16-byte aligned
    /// (nx a multiple of 16 / sizeof(T)); R = 4 rows per thread on large grids, 1 on small
    /// ones (more threads in flight where the grid lives in L2).
    void launch_bulk(bool electric) {
        const bool tmz = sc_.polarization == Polarization::TMz;
        constexpr int W = 16 / sizeof(T);
        const dim3 blk(kBlockX);
        if (sc_.nx % W == 0) {
            const int cols = sc_.nx / W;
            if (sc_.cells() >= (std::size_t(1) << 22) || sc_.ny > 65535) {
                const dim3 grd((cols + kBlockX - 1) / kBlockX, (sc_.ny + 3) / 4);
                if (tmz) { if (electric) tmz_e_update_vec<T, 4><<<grd, blk, 0, stream_>>>(grid_); else tmz_h_update_vec<T, 4><<<grd, blk, 0, stream_>>>(grid_); }
                else { if (electric) tez_e_update_vec<T, 4><<<grd, blk, 0, stream_>>>(grid_); else tez_h_update_vec<T, 4><<<grd, blk, 0, stream_>>>(grid_); }
            } else {
                const dim3 grd((cols + kBlockX - 1) / kBlockX, sc_.ny);
                if (tmz) { if (electric) tmz_e_update_vec<T, 1><<<grd, blk, 0, stream_>>>(grid_); else tmz_h_update_vec<T, 1><<<grd, blk, 0, stream_>>>(grid_); }
                else { if (electric) tez_e_update_vec<T, 1><<<grd, blk, 0, stream_>>>(grid_); else tez_h_update_vec<T, 1><<<grd, blk, 0, stream_>>>(grid_); }
            }
        } else {
            const dim3 grd((sc_.nx + kBlockX - 1) / kBlockX, (sc_.ny + kRowsPerThread - 1) / kRowsPerThread);
            if (tmz) { if (electric) tmz_e_update<T><<<grd, blk, 0, stream_>>>(grid_); else tmz_h_update<T><<<grd, blk, 0, stream_>>>(grid_); }
            else { if (electric) tez_e_update<T><<<grd, blk, 0, stream_>>>(grid_); else tez_h_update<T><<<grd, blk, 0, stream_>>>(grid_); }
        }
        CUDA_CHECK_LAUNCH();
    }

    void launch_sources(int magnetic, int k) {
        const SrcSet& ss = src_[magnetic];
        if (ss.count == 0) return;
        SourceBatch<T> b{};
        b.count = ss.count;
        b.cell = ss.cell.template as<int>(); b.weight = ss.weight.template as<double>();
        b.field = ss.field.template as<int>(); b.source = ss.source.template as<int>();
        b.waveforms = waveforms_.template as<DevWaveform>();
        b.f[0] = grid_.f0; b.f[1] = grid_.f1; b.f[2] = grid_.f2;
        b.half = magnetic ? 0.0 : 0.5;
        b.dt = sc_.dt_s;
        apply_sources<T><<<(ss.count + 127) / 128, 128, 0, stream_>>>(b, d_step_, k);
        CUDA_CHECK_LAUNCH();
    }

    void build_graph() {
        destroy_graph();
        cudaGraph_t graph = nullptr;
        CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
        try {
            enqueue_steps(kGraphSteps);
        } catch (...) {
            cudaStreamEndCapture(stream_, &graph);
            if (graph) cudaGraphDestroy(graph);
            throw;
        }
        CUDA_CHECK(cudaStreamEndCapture(stream_, &graph));
        const cudaError_t e = cudaGraphInstantiate(&graph_exec_, graph, 0);
        cudaGraphDestroy(graph);
        CUDA_CHECK(e);
    }
    void destroy_graph() {
        if (graph_exec_) cudaGraphExecDestroy(graph_exec_);
        graph_exec_ = nullptr;
    }

    void reduce() {
        CUDA_CHECK(cudaMemsetAsync(d_reduce_, 0, 2 * sizeof(double), stream_));
        int* flag = reinterpret_cast<int*>(d_reduce_ + 1);
        const int blocks = int(std::min<std::size_t>(4096, (sc_.cells() + 255) / 256));
        energy_kernel<T><<<blocks, 256, 0, stream_>>>(grid_, eps_.template as<double>(), sc_.polarization == Polarization::TEz,
                                                       d_reduce_, flag);
        CUDA_CHECK_LAUNCH();
        double h[2];
        CUDA_CHECK(cudaMemcpyAsync(h, d_reduce_, sizeof(h), cudaMemcpyDeviceToHost, stream_));
        CUDA_CHECK(cudaStreamSynchronize(stream_));
        host_energy_ = h[0];
        int f;
        std::memcpy(&f, &h[1], sizeof(int));
        host_nonfinite_ = f != 0;
    }

    void release() {
        if (stream_) cudaStreamSynchronize(stream_);
        destroy_graph();
        if (d_step_) cudaFree(d_step_);
        if (d_reduce_) cudaFree(d_reduce_);
        d_step_ = nullptr; d_reduce_ = nullptr;
        if (stream_) cudaStreamDestroy(stream_);
        stream_ = nullptr;
    }

    struct SrcSet {
        int count = 0;
        DevBuf cell, weight, field, source;
    };

    Scene sc_;
    Precision precision_;
    int device_ = 0;
    cudaStream_t stream_ = nullptr;
    cudaGraphExec_t graph_exec_ = nullptr;
    std::int64_t steps_done_ = 0;
    DevGrid<T> grid_{};
    DevBuf fields_[3], mat_a_, mat_b_, table_, eps_, cpml_[2][6], psi_x_[2], psi_y_[2];
    std::size_t psi_x_len_ = 0, psi_y_len_ = 0;
    DevBuf waveforms_;
    SrcSet src_[2];
    std::vector<MurWall<T>> mur_walls_;
    DevBuf mur_saved_;
    T mur_coeff_ = 0;
    DevBuf dft_c0_, dft_c1_, dft_w0_, dft_w1_, dft_f_, dft_acc_, dft_sets_, dft_blocks_;
    std::vector<std::size_t> dft_offset_;
    std::size_t dft_total_ = 0;
    int n_dft_blocks_ = 0;
    DevBuf probe_cells_, probe_w_, probe_samples_, probes_;
    std::vector<std::size_t> probe_off_;
    std::size_t probe_capacity_ = 0;
    long long* d_step_ = nullptr;
    double* d_reduce_ = nullptr;
    double host_energy_ = 0;
    bool host_nonfinite_ = false;
    DevBuf frame_buf_;
    struct DispBufs { DevBuf cells, set, coef, P, P_old, dP; };
    DispBufs disp_[3];                     // per E component (Scene::dispersive index)
    DevBuf pole_first_, pole_count_, pole_coeffs_;
    std::vector<DispDev<T>> disp_args_;
    struct AnisoBufs { DevBuf cells, nb, w, d; };
    AnisoBufs aniso_[2];                   // Ex, Ey (Scene::anisotropic index)
    AnisoDev<T> aniso_args_{};
    bool any_aniso_ = false;
};

}  // namespace

bool cuda_available() {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return n > 0;
}

std::string cuda_device_description() {
    int n = 0;
    const cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return std::string("no usable CUDA device: ") + cudaGetErrorString(e);
    }
    if (n == 0) return "no CUDA device present";
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess) return "CUDA device " + std::to_string(dev) + " (properties unavailable)";
    std::ostringstream os;
    os << p.name << " (compute " << p.major << "." << p.minor << ", " << p.multiProcessorCount << " SMs, "
       << p.totalGlobalMem / (1024.0 * 1024.0 * 1024.0) << " GiB)";
    return os.str();
}

bool cuda_supports_dispersion() { return true; }

std::unique_ptr<Engine> make_cuda_engine(SceneView scene, Precision precision) {
    if (!cuda_available()) throw RunError("CUDA backend: " + cuda_device_description());
    if (precision == Precision::Float64) return std::make_unique<CudaEngine<double>>(*scene, precision);
    return std::make_unique<CudaEngine<float>>(*scene, precision);
}

double cuda_copy_bandwidth_gbs(std::size_t bytes) {
    if (!cuda_available()) throw RunError("CUDA backend: " + cuda_device_description());
    const std::size_t n = std::max<std::size_t>(1, bytes / sizeof(float4));
    float4 *a = nullptr, *b = nullptr;
    CUDA_CHECK(cudaMalloc(&a, n * sizeof(float4)));
    cudaError_t e = cudaMalloc(&b, n * sizeof(float4));
    if (e != cudaSuccess) { cudaFree(a); CUDA_CHECK(e); }
    double best = 0;
    try {
        CUDA_CHECK(cudaMemset(a, 0x3f, n * sizeof(float4)));  // non-zero data
        // The better of the copy kernel and cudaMemcpy device-to-device, median of 20 each.
        const unsigned blocks = unsigned((n + 1023) / 1024);
        cudaEvent_t t0, t1;
        CUDA_CHECK(cudaEventCreate(&t0));
        CUDA_CHECK(cudaEventCreate(&t1));
        for (int variant = 0; variant < 2; ++variant) {
            std::vector<float> ms;
            for (int r = 0; r < 23; ++r) {
                float4* src = r % 2 ? b : a;
                float4* dst = r % 2 ? a : b;
                CUDA_CHECK(cudaEventRecord(t0));
                if (variant == 0) {
                    copy_kernel<<<blocks, 256>>>(src, dst, n);
                    CUDA_CHECK_LAUNCH();
                } else {
                    CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(float4), cudaMemcpyDeviceToDevice));
                }
                CUDA_CHECK(cudaEventRecord(t1));
                CUDA_CHECK(cudaEventSynchronize(t1));
                float m = 0;
                CUDA_CHECK(cudaEventElapsedTime(&m, t0, t1));
                if (r >= 3) ms.push_back(m);  // warm-up excluded
            }
            std::sort(ms.begin(), ms.end());
            const double med = ms[ms.size() / 2] * 1e-3;
            best = std::max(best, 2.0 * double(n * sizeof(float4)) / med / 1e9);
        }
        cudaEventDestroy(t0);
        cudaEventDestroy(t1);
    } catch (...) {
        cudaFree(a); cudaFree(b);
        throw;
    }
    cudaFree(a);
    cudaFree(b);
    return best;
}

}  // namespace golightly
