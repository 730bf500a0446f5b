// GoLightly CUDA backend: the bulk Yee update of a 2D grid (scene.hpp, the TMz/TEz update
// equations) with its CPML psi and the PEC/PMC zeroing fused in, and Bulk<T>, which owns
// the field arrays, the material maps and coefficient table, the CPML profiles and the
// psi arrays, and launches the H and E updates of one step.
//
// Layout (device): every field component is one array of nx*ny values of T (float or
// double), index j*nx+i. Materials: a uint16 index per cell and E component into a table
// of {ca, cb} (scene.material_index / scene.table). CPML psi arrays exist only in the PML
// slabs: an x-derivative psi is (lo_x+hi_x) x ny values, index j*(lo_x+hi_x)+slab_i; a
// y-derivative psi is (lo_y+hi_y) x nx values, index slab_j*nx+i.
//
// Memory traffic per cell and step of the two bulk kernels (each value read or written
// once from DRAM; neighbour values come from L1/L2; s = sizeof(T)):
//   TMz h_update: read Ez, Hx, Hy, write Hx, Hy            = 5 s        (20 B float)
//   TMz e_update: read Hx, Hy, Ez, mat index, write Ez      = 4 s + 2    (18 B float)
//   TEz h_update: read Ex, Ey, Hz, write Hz                 = 4 s        (16 B float)
//   TEz e_update: read Hz, Ex, Ey, 2 mat indices, write Ex, Ey = 5 s + 4 (24 B float)
// plus, per PML-slab cell, 2 s per psi (read + write). When nx is a multiple of
// 16 / sizeof(T) the bulk kernels use 16-byte vector accesses (the *_vec kernels); the
// scalar and vector kernels are kept apart on purpose (same arithmetic, different access):
// the vector form instantiated at width 1 does not compile to the scalar kernel (it loads
// the x CPML coefficients per row inside the slab branch instead of once per thread, and
// all loads of a row before the arithmetic), e.g. TMz H float 34 vs 32 registers and 715
// vs 699 PTX instructions, double 48 vs 40 and 793 vs 748 (nvcc 13, sm_90), so one
// template would change the code of the scalar path.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_common.cuh"

namespace golightly::cuda {
namespace {

constexpr int kBlockX = 128;        // threads per block along x in the bulk kernels
constexpr int kRowsPerThread = 4;   // rows each bulk thread walks along y

__device__ __forceinline__ bool in_slab(int p, int lo, int hi, int n) { return p < lo || p >= n - hi; }
__device__ __forceinline__ int slab_index(int p, int lo, int hi, int n) { return p < lo ? p : p - (n - hi) + lo; }

// One CPML auxiliary update, psi <- b psi + c d (d the field difference of the derivative
// it corrects), stored in place and returned for the caller to add to its curl term. Every
// 2D kernel (scalar and vector, TMz and TEz, H and E) calls it once per slab axis. Inlined,
// it compiles to the expression written out. b and c come as values where the kernel holds
// them in registers, else as the profile arrays (references to the kernel argument's
// pointers) and the index k, read in the expression's order (b[k], psi, c[k]): reading them
// before psi, as value arguments would, reorders the loads and changed the registers of the
// 2D kernels (e.g. TMz H float 32 -> 37, nvcc 13, sm_90).
template <class T>
__device__ __forceinline__ T cpml_psi(T* p, T b, T c, T d) {
    const T psi = b * *p + c * d;
    *p = psi;
    return psi;
}
template <class T>
__device__ __forceinline__ T cpml_psi(T* p, const T* const& b, const T* const& c, int k, T d) {
    const T psi = b[k] * *p + c[k] * d;
    *p = psi;
    return psi;
}

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
        else ez_up = g.periodic_y ? bloch_hi(g.bloch[1], g.bc[1], g.bs[1], Ez[i], g.o0[i]) : T(0);
        T ez_right;
        if (i + 1 < nx) ez_right = Ez[id + 1];
        else ez_right = g.periodic_x ? bloch_hi(g.bloch[0], g.bc[0], g.bs[0], Ez[std::size_t(j) * nx], g.o0[std::size_t(j) * nx]) : T(0);
        // Hx
        const T dy = ez_up - ez;
        T ty = dy * g.ikh_y[j];
        if (in_slab(j, g.lo_y, g.hi_y, ny)) {
            ty += cpml_psi(g.psiH_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i, g.bh_y, g.ch_y, j, dy);
        }
        T hx = Hx[id] - g.S * ty;
        if (g.pmc_y && j == ny - 1) hx = T(0);
        Hx[id] = hx;
        // Hy
        const T dx = ez_right - ez;
        T tx = dx * ikh_x;
        if (xslab) {
            tx += cpml_psi(g.psiH_x + std::size_t(j) * wx + sx, bh_x, ch_x, dx);
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
    else hx_below = g.periodic_y ? bloch_lo(g.bloch[1], g.bc[1], g.bs[1], Hx[std::size_t(ny - 1) * nx + i], g.o1[std::size_t(ny - 1) * nx + i]) : T(0);
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i;
        const T hx = Hx[id];
        const T hy = Hy[id];
        T hy_left;
        if (i > 0) hy_left = Hy[id - 1];
        else hy_left = g.periodic_x ? bloch_lo(g.bloch[0], g.bc[0], g.bs[0], Hy[id + nx - 1], g.o2[id + nx - 1]) : T(0);
        const T dx = hy - hy_left;
        T tx = dx * ike_x;
        if (xslab) {
            tx += cpml_psi(g.psiE_x + std::size_t(j) * wx + sx, be_x, ce_x, dx);
        }
        const T dy = hx - hx_below;
        T ty = dy * g.ike_y[j];
        if (in_slab(j, g.lo_y, g.hi_y, ny)) {
            ty += cpml_psi(g.psiE_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i, g.be_y, g.ce_y, j, dy);
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
        else ey_right = g.periodic_x ? bloch_hi(g.bloch[0], g.bc[0], g.bs[0], Ey[std::size_t(j) * nx], g.o2[std::size_t(j) * nx]) : T(0);
        T ex_up;
        if (j + 1 < ny) ex_up = Ex[id + nx];
        else ex_up = g.periodic_y ? bloch_hi(g.bloch[1], g.bc[1], g.bs[1], Ex[i], g.o1[i]) : T(0);
        const T dx = ey_right - ey;
        T tx = dx * ikh_x;
        if (xslab) {
            tx += cpml_psi(g.psiH_x + std::size_t(j) * wx + sx, bh_x, ch_x, dx);
        }
        const T dy = ex_up - ex;
        T ty = dy * g.ikh_y[j];
        if (in_slab(j, g.lo_y, g.hi_y, ny)) {
            ty += cpml_psi(g.psiH_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i, g.bh_y, g.ch_y, j, dy);
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
    else hz_below = g.periodic_y ? bloch_lo(g.bloch[1], g.bc[1], g.bs[1], Hz[std::size_t(ny - 1) * nx + i], g.o0[std::size_t(ny - 1) * nx + i]) : T(0);
#pragma unroll
    for (int r = 0; r < kRowsPerThread; ++r) {
        const int j = j0 + r;
        if (j >= ny) break;
        const std::size_t id = std::size_t(j) * nx + i;
        const T hz = Hz[id];
        T hz_left;
        if (i > 0) hz_left = Hz[id - 1];
        else hz_left = g.periodic_x ? bloch_lo(g.bloch[0], g.bc[0], g.bs[0], Hz[id + nx - 1], g.o0[id + nx - 1]) : T(0);
        // Ex
        const T dy = hz - hz_below;
        T ty = dy * g.ike_y[j];
        if (in_slab(j, g.lo_y, g.hi_y, ny)) {
            ty += cpml_psi(g.psiE_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i, g.be_y, g.ce_y, j, dy);
        }
        const Coef2<T> ma = g.table[g.mat_a[id]];
        T ex = ma.ca * Ex[id] + ma.cb * ty;
        if (g.pec_y && j == 0) ex = T(0);
        Ex[id] = ex;
        // Ey
        const T dx = hz - hz_left;
        T tx = dx * ike_x;
        if (xslab) {
            tx += cpml_psi(g.psiE_x + std::size_t(j) * wx + sx, be_x, ce_x, dx);
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
/// bloch_hi / bloch_lo (cuda_common.cuh) of a whole vector: v this copy's wrapped row, o
/// the other copy's same sites (read only on a Bloch axis).
template <class T> __device__ __forceinline__ Vec16<T> bloch_hi_v(int bloch, T c, T s, Vec16<T> v, const T* o) {
    if (bloch) {
        const Vec16<T> w = ldv(o);
        for (int e = 0; e < int(16 / sizeof(T)); ++e) v.v[e] = c * v.v[e] + s * w.v[e];
    }
    return v;
}
template <class T> __device__ __forceinline__ Vec16<T> bloch_lo_v(int bloch, T c, T s, Vec16<T> v, const T* o) {
    return bloch_hi_v(bloch, c, T(-s), v, o);
}

// Traffic as tmz_h_update: 5 s per cell, in 16-byte accesses.
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
        else ez_up = g.periodic_y ? bloch_hi_v(g.bloch[1], g.bc[1], g.bs[1], ldv(Ez + i0), g.o0 + i0) : zerov<T>();
        T ez_next;
        if (i0 + W < nx) ez_next = Ez[id + W];
        else ez_next = g.periodic_x ? bloch_hi(g.bloch[0], g.bc[0], g.bs[0], Ez[std::size_t(j) * nx], g.o0[std::size_t(j) * nx]) : T(0);
        Vec16<T> hx = ldv(Hx + id), hy = ldv(Hy + id);
        const T ikh_y = g.ikh_y[j];
        const bool yslab = in_slab(j, g.lo_y, g.hi_y, ny);
#pragma unroll
        for (int e = 0; e < W; ++e) {
            const int i = i0 + e;
            const T dy = ez_up.v[e] - ez.v[e];
            T ty = dy * ikh_y;
            if (yslab) {
                ty += cpml_psi(g.psiH_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i, g.bh_y, g.ch_y, j, dy);
            }
            T h = hx.v[e] - g.S * ty;
            if (g.pmc_y && j == ny - 1) h = T(0);
            hx.v[e] = h;
            const T dx = (e + 1 < W ? ez.v[e + 1] : ez_next) - ez.v[e];
            T tx = dx * ikh_x[e];
            if (xslab && in_slab(i, g.lo_x, g.hi_x, nx)) {
                tx += cpml_psi(g.psiH_x + std::size_t(j) * wx + slab_index(i, g.lo_x, g.hi_x, nx), g.bh_x, g.ch_x, i, dx);
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

// Traffic as tmz_e_update: 4 s + 2 per cell, in 16-byte (indices 2W-byte) accesses.
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
    else hx_below = g.periodic_y ? bloch_lo_v(g.bloch[1], g.bc[1], g.bs[1], ldv(Hx + std::size_t(ny - 1) * nx + i0), g.o1 + std::size_t(ny - 1) * nx + i0) : zerov<T>();
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
        else hy_prev = g.periodic_x ? bloch_lo(g.bloch[0], g.bc[0], g.bs[0], Hy[id + nx - 1], g.o2[id + nx - 1]) : T(0);
        const T ike_y = g.ike_y[j];
        const bool yslab = in_slab(j, g.lo_y, g.hi_y, ny);
#pragma unroll
        for (int e = 0; e < W; ++e) {
            const int i = i0 + e;
            const T dx = hy.v[e] - (e > 0 ? hy.v[e - 1] : hy_prev);
            T tx = dx * ike_x[e];
            if (xslab && in_slab(i, g.lo_x, g.hi_x, nx)) {
                tx += cpml_psi(g.psiE_x + std::size_t(j) * wx + slab_index(i, g.lo_x, g.hi_x, nx), g.be_x, g.ce_x, i, dx);
            }
            const T dy = hx.v[e] - hx_below.v[e];
            T ty = dy * ike_y;
            if (yslab) {
                ty += cpml_psi(g.psiE_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i, g.be_y, g.ce_y, j, dy);
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

// Traffic as tez_h_update: 4 s per cell, in 16-byte accesses.
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
        else ey_next = g.periodic_x ? bloch_hi(g.bloch[0], g.bc[0], g.bs[0], Ey[std::size_t(j) * nx], g.o2[std::size_t(j) * nx]) : T(0);
        Vec16<T> ex_up;
        if (j + 1 < ny) ex_up = ldv(Ex + id + nx);
        else ex_up = g.periodic_y ? bloch_hi_v(g.bloch[1], g.bc[1], g.bs[1], ldv(Ex + i0), g.o1 + i0) : zerov<T>();
        Vec16<T> hz = ldv(Hz + id);
        const T ikh_y = g.ikh_y[j];
        const bool yslab = in_slab(j, g.lo_y, g.hi_y, ny);
#pragma unroll
        for (int e = 0; e < W; ++e) {
            const int i = i0 + e;
            const T dx = (e + 1 < W ? ey.v[e + 1] : ey_next) - ey.v[e];
            T tx = dx * ikh_x[e];
            if (xslab && in_slab(i, g.lo_x, g.hi_x, nx)) {
                tx += cpml_psi(g.psiH_x + std::size_t(j) * wx + slab_index(i, g.lo_x, g.hi_x, nx), g.bh_x, g.ch_x, i, dx);
            }
            const T dy = ex_up.v[e] - ex.v[e];
            T ty = dy * ikh_y;
            if (yslab) {
                ty += cpml_psi(g.psiH_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i, g.bh_y, g.ch_y, j, dy);
            }
            T h = hz.v[e] - g.S * (tx - ty);
            if ((g.pmc_x && i == nx - 1) || (g.pmc_y && j == ny - 1)) h = T(0);
            hz.v[e] = h;
        }
        stv(Hz + id, hz);
        ex = ex_up;
    }
}

// Traffic as tez_e_update: 5 s + 4 per cell, in 16-byte (indices 2W-byte) accesses.
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
    else hz_below = g.periodic_y ? bloch_lo_v(g.bloch[1], g.bc[1], g.bs[1], ldv(Hz + std::size_t(ny - 1) * nx + i0), g.o0 + std::size_t(ny - 1) * nx + i0) : zerov<T>();
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
        else hz_prev = g.periodic_x ? bloch_lo(g.bloch[0], g.bc[0], g.bs[0], Hz[id + nx - 1], g.o0[id + nx - 1]) : T(0);
        const T ike_y = g.ike_y[j];
        const bool yslab = in_slab(j, g.lo_y, g.hi_y, ny);
#pragma unroll
        for (int e = 0; e < W; ++e) {
            const int i = i0 + e;
            const T dy = hz.v[e] - hz_below.v[e];
            T ty = dy * ike_y;
            if (yslab) {
                ty += cpml_psi(g.psiE_y + std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i, g.be_y, g.ce_y, j, dy);
            }
            const Coef2<T> ca = g.table[ma.v[e]];
            T vx = ca.ca * ex.v[e] + ca.cb * ty;
            if (g.pec_y && j == 0) vx = T(0);
            ex.v[e] = vx;
            const T dx = hz.v[e] - (e > 0 ? hz.v[e - 1] : hz_prev);
            T tx = dx * ike_x[e];
            if (xslab && in_slab(i, g.lo_x, g.hi_x, nx)) {
                tx += cpml_psi(g.psiE_x + std::size_t(j) * wx + slab_index(i, g.lo_x, g.hi_x, nx), g.be_x, g.ce_x, i, dx);
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
/// The bulk update: owns fields, material maps, coefficient (and eps) table, CPML profiles
/// and psi arrays, and the DevGrid that points into them.
template <class T>
class Bulk {
public:
    /// Allocates and uploads the grid state (fields zero) on `stream`, asynchronously.
    void setup(const Scene& s, cudaStream_t stream) {
        const std::size_t cells = s.cells();
        const bool tmz = s.polarization == Polarization::TMz;
        tmz_ = tmz;
        nx_ = s.nx; ny_ = s.ny;
        for (auto& f : fields_) {
            f.alloc(cells * sizeof(T));
            CUDA_CHECK(cudaMemsetAsync(f.template as<void>(), 0, cells * sizeof(T), stream));
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
            upload(b, m, stream);
        };
        upload_map(mat_a_, ia);
        if (!tmz) upload_map(mat_b_, 1);
        if (s.table.empty()) throw RunError("CUDA engine: empty material table");
        std::vector<Coef2<T>> tab;
        std::vector<double> eps;
        for (const auto& e : s.table) { tab.push_back({T(e.ca), T(e.cb)}); eps.push_back(e.eps_r); }
        upload(table_, tab, stream);
        upload(eps_, eps, stream);
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
            upload(cpml_[a][0], prof(c.b_e, 0), stream);
            upload(cpml_[a][1], prof(c.c_e, 0), stream);
            upload(cpml_[a][2], prof(c.inv_kappa_e, 1), stream);
            upload(cpml_[a][3], prof(c.b_h, 0), stream);
            upload(cpml_[a][4], prof(c.c_h, 0), stream);
            upload(cpml_[a][5], prof(c.inv_kappa_h, 1), stream);
            if (s.pml_lo[a] < 0 || s.pml_hi[a] < 0 || s.pml_lo[a] + s.pml_hi[a] > n[a])
                throw RunError("CUDA engine: PML thickness out of range");
        }
        const int wx = s.pml_lo[0] + s.pml_hi[0], wy = s.pml_lo[1] + s.pml_hi[1];
        psi_x_len_ = std::size_t(wx) * s.ny;
        psi_y_len_ = std::size_t(wy) * s.nx;
        for (int k = 0; k < 2; ++k) {
            psi_x_[k].alloc(std::max<std::size_t>(1, psi_x_len_) * sizeof(T));
            psi_y_[k].alloc(std::max<std::size_t>(1, psi_y_len_) * sizeof(T));
            CUDA_CHECK(cudaMemsetAsync(psi_x_[k].template as<void>(), 0, psi_x_[k].bytes(), stream));
            CUDA_CHECK(cudaMemsetAsync(psi_y_[k].template as<void>(), 0, psi_y_[k].bytes(), stream));
        }

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
        for (int a = 0; a < 2; ++a) { g.bloch[a] = 0; g.bc[a] = T(1); g.bs[a] = T(0); }
        g.o0 = g.f0; g.o1 = g.f1; g.o2 = g.f2;
    }

    /// Complex fields (DevGrid "Complex fields"): this bulk steps copy `self` (0 real, 1
    /// imaginary) and reads `other`'s fields across the wraps of the axes with a Bloch
    /// phase (phase[a] = Scene::bloch_phase, radians). Call after both copies' setup().
    void set_bloch_partner(const Bulk& other, const double phase[2], int self) {
        DevGrid<T>& g = grid_;
        const double sg = self == 0 ? -1.0 : 1.0;
        for (int a = 0; a < 2; ++a) {
            g.bloch[a] = phase[a] != 0 ? 1 : 0;
            g.bc[a] = T(std::cos(phase[a]));
            g.bs[a] = T(sg * std::sin(phase[a]));
        }
        g.o0 = other.field(0); g.o1 = other.field(1); g.o2 = other.field(2);
    }

    const DevGrid<T>& grid() const { return grid_; }
    T* field(int slot) const { return fields_[slot].template as<T>(); }

    /// Two steps per pass (cuda_twostep2d.cuh): a second set of fields and CPML psi, zeroed;
    /// a pass reads the current set (grid()) and writes the other (output_grid()), then
    /// flip() makes that the current one. Real fields only (no Bloch partner).
    void setup_second_set(cudaStream_t stream) {
        const std::size_t cells = std::size_t(nx_) * ny_;
        for (auto& f : alt_fields_) {
            f.alloc(cells * sizeof(T));
            CUDA_CHECK(cudaMemsetAsync(f.template as<void>(), 0, cells * sizeof(T), stream));
        }
        for (int k = 0; k < 2; ++k) {
            alt_psi_x_[k].alloc(psi_x_[k].bytes());
            alt_psi_y_[k].alloc(psi_y_[k].bytes());
            CUDA_CHECK(cudaMemsetAsync(alt_psi_x_[k].template as<void>(), 0, alt_psi_x_[k].bytes(), stream));
            CUDA_CHECK(cudaMemsetAsync(alt_psi_y_[k].template as<void>(), 0, alt_psi_y_[k].bytes(), stream));
        }
        output_ = grid_;
        point(output_, alt_fields_, alt_psi_x_, alt_psi_y_);
    }
    /// Device bytes setup_second_set allocates.
    std::size_t second_set_bytes() const {
        return 3 * std::size_t(nx_) * ny_ * sizeof(T) + 2 * (psi_x_[0].bytes() + psi_y_[0].bytes());
    }
    /// The other set's grid (setup_second_set): a pass's output.
    const DevGrid<T>& output_grid() const { return output_; }
    /// Swaps the current and the other set (grid(), field() follow).
    void flip() {
        for (int c = 0; c < 3; ++c) fields_[c].swap(alt_fields_[c]);
        for (int k = 0; k < 2; ++k) {
            psi_x_[k].swap(alt_psi_x_[k]);
            psi_y_[k].swap(alt_psi_y_[k]);
        }
        point(grid_, fields_, psi_x_, psi_y_);
        point(output_, alt_fields_, alt_psi_x_, alt_psi_y_);
        parity_ ^= 1;
    }
    /// Which set is current (0: the first), for the step graphs.
    int parity() const { return parity_; }
    /// CPML psi values of the grid (both arrays of both axes), for the traffic model.
    double psi_values() const { return double(psi_x_len_) * 2 + double(psi_y_len_) * 2; }
    /// eps_r per table entry (the energy's weights).
    const double* eps_table() const { return eps_.template as<double>(); }

    /// Step phase 1: H from E^n (CPML psi, PMC zeroing).
    void update_h(cudaStream_t stream) const { launch(false, stream); }
    /// Step phase 2: E from H^{n+1/2} (material table, CPML psi, PEC zeroing).
    void update_e(cudaStream_t stream) const { launch(true, stream); }

    /// The bulk traffic model per cell update (file header), CPML psi excluded.
    double bytes_per_cell() const {
        const double s = sizeof(T);
        return tmz_ ? (5 * s) + (4 * s + 2) : (4 * s) + (5 * s + 4);
    }
    /// CPML traffic per step: 2 s (read + write) per psi value updated.
    double cpml_bytes_per_step() const {
        const double s = sizeof(T);
        const double psi_cells = double(psi_x_len_) * 2 + double(psi_y_len_) * 2;  // psi values updated per step
        return psi_cells * 2 * s;
    }

    /// Live edit: copies the edited uint16 material map(s), the coefficient table and the
    /// eps table to the device on `stream` (the host staging copies live in this object
    /// until the next edit, so the caller need not wait here). The map buffers keep their
    /// size and address; a table that outgrows its buffer is reallocated. Returns true when
    /// the table moved (the captured step graph holds its address).
    bool materials_changed(const Scene& edited, cudaStream_t stream) {
        std::vector<Coef2<T>>& tab = tab_staging_;
        std::vector<double>& eps = eps_staging_;
        tab.clear();
        eps.clear();
        for (const auto& e : edited.table) { tab.push_back({T(e.ca), T(e.cb)}); eps.push_back(e.eps_r); }
        const int ia = tmz_ ? 2 : 0;
        const std::size_t cells = std::size_t(nx_) * ny_;
        CUDA_CHECK(cudaMemcpyAsync(mat_a_.template as<void>(), edited.material_index[ia].data(),
                                   cells * sizeof(std::uint16_t), cudaMemcpyHostToDevice, stream));
        if (!tmz_)
            CUDA_CHECK(cudaMemcpyAsync(mat_b_.template as<void>(), edited.material_index[1].data(),
                                       cells * sizeof(std::uint16_t), cudaMemcpyHostToDevice, stream));
        if (tab.size() * sizeof(Coef2<T>) > table_.bytes() || eps.size() * sizeof(double) > eps_.bytes()) {
            CUDA_CHECK(cudaStreamSynchronize(stream));  // the old table may still be read
            upload(table_, tab, stream);
            upload(eps_, eps, stream);
            grid_.table = table_.template as<Coef2<T>>();
            output_.table = grid_.table;
            return true;
        }
        CUDA_CHECK(cudaMemcpyAsync(table_.template as<void>(), tab.data(), tab.size() * sizeof(Coef2<T>),
                                   cudaMemcpyHostToDevice, stream));
        CUDA_CHECK(cudaMemcpyAsync(eps_.template as<void>(), eps.data(), eps.size() * sizeof(double),
                                   cudaMemcpyHostToDevice, stream));
        return false;
    }

private:
    /// The H (electric = false) or E bulk update: vectorized when rows are 16-byte aligned
    /// (nx a multiple of 16 / sizeof(T)); R = 4 rows per thread on large grids, 1 on small
    /// ones (more threads in flight where the grid lives in L2).
    void launch(bool electric, cudaStream_t stream) const {
        const bool tmz = tmz_;
        const int nx = nx_, ny = ny_;
        const std::size_t cells = std::size_t(nx) * ny;
        constexpr int W = 16 / sizeof(T);
        const dim3 blk(kBlockX);
        if (nx % W == 0) {
            const int cols = nx / W;
            if (cells >= (std::size_t(1) << 22) || ny > 65535) {
                const dim3 grd((cols + kBlockX - 1) / kBlockX, (ny + 3) / 4);
                if (tmz) { if (electric) tmz_e_update_vec<T, 4><<<grd, blk, 0, stream>>>(grid_); else tmz_h_update_vec<T, 4><<<grd, blk, 0, stream>>>(grid_); }
                else { if (electric) tez_e_update_vec<T, 4><<<grd, blk, 0, stream>>>(grid_); else tez_h_update_vec<T, 4><<<grd, blk, 0, stream>>>(grid_); }
            } else {
                const dim3 grd((cols + kBlockX - 1) / kBlockX, ny);
                if (tmz) { if (electric) tmz_e_update_vec<T, 1><<<grd, blk, 0, stream>>>(grid_); else tmz_h_update_vec<T, 1><<<grd, blk, 0, stream>>>(grid_); }
                else { if (electric) tez_e_update_vec<T, 1><<<grd, blk, 0, stream>>>(grid_); else tez_h_update_vec<T, 1><<<grd, blk, 0, stream>>>(grid_); }
            }
        } else {
            const dim3 grd((nx + kBlockX - 1) / kBlockX, (ny + kRowsPerThread - 1) / kRowsPerThread);
            if (tmz) { if (electric) tmz_e_update<T><<<grd, blk, 0, stream>>>(grid_); else tmz_h_update<T><<<grd, blk, 0, stream>>>(grid_); }
            else { if (electric) tez_e_update<T><<<grd, blk, 0, stream>>>(grid_); else tez_h_update<T><<<grd, blk, 0, stream>>>(grid_); }
        }
        CUDA_CHECK_LAUNCH();
    }

    static void point(DevGrid<T>& g, const DevBuf* f, const DevBuf* px, const DevBuf* py) {
        g.f0 = f[0].template as<T>(); g.f1 = f[1].template as<T>(); g.f2 = f[2].template as<T>();
        g.psiH_x = px[0].template as<T>(); g.psiE_x = px[1].template as<T>();
        g.psiH_y = py[0].template as<T>(); g.psiE_y = py[1].template as<T>();
        g.o0 = g.f0; g.o1 = g.f1; g.o2 = g.f2;
    }

    bool tmz_ = true;
    int nx_ = 0, ny_ = 0;
    int parity_ = 0;
    DevGrid<T> grid_{}, output_{};
    DevBuf alt_fields_[3], alt_psi_x_[2], alt_psi_y_[2];
    DevBuf fields_[3], mat_a_, mat_b_, table_, eps_, cpml_[2][6], psi_x_[2], psi_y_[2];
    std::size_t psi_x_len_ = 0, psi_y_len_ = 0;
    std::vector<Coef2<T>> tab_staging_;
    std::vector<double> eps_staging_;
};

}  // namespace
}  // namespace golightly::cuda
