// Longer than 900 lines on purpose: the bulk kernels of every 3D step design live in this
// one header so that nvcc sees each kernel whole in the one translation unit that includes
// it (cuda_engine3d.cu) and inlines its device helpers under the kernel's
// __launch_bounds__ register budget; split into separate files (or separately compiled
// device code) the helpers become calls and the hot loops spill. Split only with a
// measured bench (docs/performance.md).
//
// GoLightly CUDA backend, 3D: the bulk Yee update of scene.hpp "3D scenes" (six components,
// flat index (k * ny + j) * nx + i, CPML psi only inside the slabs, PEC / PMC / periodic
// faces, a uint16 material index per E component into a (ca, cb) table). Included by
// cuda_engine3d.cu only (its own translation unit; the 2D engine is cuda_engine.cu).
//
// Four kernel designs, all 2.5D: one thread per (i, j) column, threads of a warp along x
// (coalesced rows), each thread walking its column along z over a chunk [k0, k1) of planes
// (gridDim.z chunks, so small grids still fill the device), the z-neighbour carried in
// registers or shared memory from one plane to the next. Which runs (Bulk3::setup, the
// engine's choice in cuda_engine3d.cu): design 4 where it applies (sm_90 or later, x and y
// not periodic, nx a multiple of 8; GOLIGHTLY_CUDA3D_FUSED=0 opts out), else design 2;
// design 1 only under GOLIGHTLY_CUDA3D_FUSED=1 where design 4 does not apply (or with
// GOLIGHTLY_CUDA3D_TMA=0); design 5 (two steps per pass) on top of design 4 where the engine
// enables it (CudaEngine3D::choose_step, cuda_step3d_two.cuh).
//
// 5. update_he3_two (cuda_twostep3d.cuh): two steps per pass, design 4's tensor copies with a
//    halo of 2; the engine runs it where it applies (float32 and float64, design 4's
//    conditions, z not periodic; TF/SF boxes, tensor couplings and dispersive cells between
//    or inside the pass's two steps) and design 4 for a remaining odd step. Traffic: (12 s + 2 B) / 2 per cell update. Measured (H200, bench 512^3 float32):
//    60.2-62.0 Gcells/s against design 4's 51.0-51.2 in the same calls; 1024^3 (chunks of 32): 69.7;
//    now 80.3 and 89.4 (cuda_twostep3d.cuh); float64 45.3 against design 4's 29.3.
// 4. update_he3_tma (the default where it applies; section "fused H + E kernel fed by the
//    Tensor Memory Accelerator" below): design 1's step with its planes brought into shared
//    memory by bulk tensor copies. Traffic: design 1's 12 s + 6 B (+ 2 B with one map).
//    Measured (H200, bench 512^3 float32): 48.8-50.3 Gcells/s (0.66-0.69 of copy through
//    the model) against design 2's 40.7 in the same calls; 1024^3: 56.3 against 43.8.
// 1. update_he3: H and E fused in one pass ("ping-pong"). The kernel reads E^n,
//    H^{n-1/2} and psi from one set of buffers and writes E^{n+1}, H^{n+1/2} and psi to the
//    other; the engine swaps the sets after each step (Bulk3::flip). A block of 32 x 8
//    threads owns 31 x 7 columns; at plane k every thread computes H^{n+1/2} of its column,
//    the first column and row being a neighbouring block's (recomputed from the unchanged
//    input buffers, psi read but not written: the owner writes it), puts it in shared
//    memory, and the owners update E of plane k from their x / y neighbours' H and from H
//    of plane k - 1 (registers). A chunk starts by recomputing H of plane k0 - 1. The
//    recomputed halo costs 15 % more H arithmetic and L2 reads, not DRAM bytes (the
//    neighbouring block reads the same lines). Because nothing is updated in place, blocks
//    need no order among each other, and any range of planes can be updated on its own
//    (update_fused(k_lo, k_hi): the distributed engine updates the planes next to a cut
//    apart from the interior).
//    Traffic per cell (s = sizeof(T)), DRAM bytes, the neighbours and the recomputed halo
//    from cache: reads Ex, Ey, Ez, Hx, Hy, Hz and the three
//    uint16 material indices, writes the six fields: 12 s + 6 B (54 B float32, 102 B
//    float64). It needs a second set of the six fields and of psi in device memory.
//    H sources and TF/SF H corrections, which in scene.hpp's order follow the H update and
//    precede the E update, are added to H^{n-1/2} before the kernel instead: the H update
//    is H^{n+1/2} = H^{n-1/2} + S (curl terms) with a coefficient of 1 on H^{n-1/2}, so the
//    sum is the same to rounding (a source on a PMC-zeroed cell is dropped at setup).
//    Measured (H200, 512^3 float32, bench): 29.7-31.0 Gcells/s, 0.42 of copy through this
//    model, against 40.6 for design 2: with one barrier per plane and the halo threads it is
//    bound by latency, not bandwidth (Nsight Compute: 50 % occupancy at 63 registers, 55 % of
//    the stall cycles waiting on L1TEX loads, 1.94 TB/s). Tried without gain (same bench): blocks of 32 x 16, 40 registers for 6 blocks per SM, prefetching plane
//    k+1's loads (27.5-28.9 Gcells/s), a register-blocked form without shared memory or
//    barriers (one warp walking 4 or 8 rows: 9.6-21.4), and the planes staged ahead in
//    shared memory by cp.async (4-byte copies, 2-6 planes ahead, 4-16 rows: 22.7-26.6).
//    Kept for the fused step where design 4 does not apply.
// 2. update_h3 + update_e3 (the default where design 4 does not apply): in place, H
//    first, then E. The H kernel loads Ex, Ey of plane k+1 once and reuses them as plane k
//    of the next iteration; the E kernel keeps Hx, Hy of plane k-1. Each iteration issues
//    all of its plane's DRAM loads before the CPML psi stores (which may alias, so the
//    compiler keeps later loads behind them), and z chunks are 16 planes (chunking()).
//    Measured (H200, bench, float32): 40.6 Gcells/s at 512^3, 43.9 at 1024^3.
//    Traffic per cell and step, DRAM bytes with the neighbours from cache:
//      update_h3: reads Ex, Ey, Ez, Hx, Hy, Hz, writes Hx, Hy, Hz:   6 R + 3 W = 9 s
//      update_e3: reads Hx, Hy, Hz, Ex, Ey, Ez, writes Ex, Ey, Ez,
//                 reads the three uint16 material indices:           9 s + 6 B
//      -> 18 s + 6 B per cell (78 B float32, 150 B float64).
// Both: the (ca, cb) table stays in L1; where the three material maps are equal (no
// sub-pixel averaging) one map is stored and read (2 B per cell instead of 6). CPML: inside the slab of axis a each of the four psi
// arrays of that axis (two H, two E components differentiate along a) is read and written
// once: 8 s per slab cell and axis (Bulk3<T>::cpml_bytes_per_step()); the 1D profiles are
// cached.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda.h>  // CUtensorMap (the type only; maps are encoded through cudaGetDriverEntryPointByVersion)
#include <cudaTypedefs.h>

#include "cuda_common.cuh"
#include "golightly/tuning.hpp"

namespace golightly::cuda {
namespace {

constexpr int kBulk3X = 32;  // threads along x per block (one warp)
constexpr int kBulk3Y = 8;   // rows (j) per block
// Blocks per SM the register budget must allow: 6 caps the float kernels at 40 registers (no
// spills with nvcc 13 for sm_90) for 1536 resident threads per SM; without the bound they
// took 70-80 registers (768 threads per SM), too few loads in flight to approach the copy
// bandwidth (H100: 17 Gcells/s at 512^3 float32, 54 % of copy). Double needs 4 (64
// registers): at 40 or 48 its hoisted loads spill.
template <class T>
constexpr int kBulk3MinBlocks = sizeof(T) == 4 ? 6 : 4;

/// Everything the 3D bulk kernels need, passed by value.
template <class T> struct DevGrid3 {
    int n[3];                  // nx, ny, nz
    int lo[3], hi[3];          // slab edges per axis: slab cells p < lo or p >= hi
    int w[3];                  // slab width per axis (pml_lo + pml_hi)
    int periodic[3], pec[3], pmc[3];
    int k_chunk;               // planes per z chunk (blockIdx.z)
    int k_lo, k_hi;            // planes the launch updates: [k_lo, k_hi) (update_he3; the others: all)
    int psi_ahead;             // update_he3_tma, update_he3_two: psi of plane k + psi_ahead prefetched into L2 at plane k (0: none)
    int two_step_skew;         // update_he3_two, skewed order (two barriers per plane): 0 none, 1 inner blocks, 2 also one-axis blocks
    T S;
    T* E[3];                   // Ex, Ey, Ez
    T* H[3];                   // Hx, Hy, Hz
    const std::uint16_t* mat[3];
    const Coef2<T>* table;
    const T* prof[3][6];       // per axis, length n[a]: b_e, c_e, inv_kappa_e, b_h, c_h, inv_kappa_h
    T* psi[6][3];              // [component Ex..Hz][derivative axis]: the slab arrays (nullptr: none)
    // update_he3 only: where E^{n+1}, H^{n+1/2} and psi go (the other buffer set).
    T* E_out[3];
    T* H_out[3];
    T* psi_out[6][3];
    // Complex fields, in place only (update_h3 / update_e3; scene.hpp "Bloch-periodic axes"):
    // a neighbour read across the wrap of a Bloch axis a (bloch[a] != 0) is rotated with the
    // other copy's value o there, bc[a] v + bs[a] o beyond the upper end, bc[a] v - bs[a] o
    // beyond the lower one (DevGrid "Complex fields", cuda_common.cuh). oE / oH: the other
    // copy's fields (this copy's own in a real run, never read there).
    int bloch[3];
    T bc[3], bs[3];
    const T* oE[3];
    const T* oH[3];
};

/// Index of cell (i, j, k) in the psi array of the slabs of `axis` (scene.hpp layout of
/// the CPU engine: x slabs [k][j][wx], y slabs [k][wy][i], z slabs [wz][j][i]).
template <class T>
__device__ __forceinline__ std::size_t psi_index(const DevGrid3<T>& g, int axis, int i, int j, int k) {
    if (axis == 0) {
        const int s = i < g.lo[0] ? i : g.lo[0] + i - g.hi[0];
        return (std::size_t(k) * g.n[1] + j) * g.w[0] + s;
    }
    if (axis == 1) {
        const int s = j < g.lo[1] ? j : g.lo[1] + j - g.hi[1];
        return (std::size_t(k) * g.w[1] + s) * g.n[0] + i;
    }
    const int s = k < g.lo[2] ? k : g.lo[2] + k - g.hi[2];
    return (std::size_t(s) * g.n[1] + j) * g.n[0] + i;
}

/// The CPML-corrected difference of one term (scene.hpp, "each psi is updated before use"):
/// d inside no slab; d * inv_kappa + psi, psi = b psi + c d, inside one.
template <class T>
__device__ __forceinline__ T cpml_term(const DevGrid3<T>& g, T d, bool in_slab, int comp, int axis, int pos, bool is_e,
                                       int i, int j, int k) {
    if (!in_slab) return d;
    const T* const* p = g.prof[axis];
    const T b = is_e ? p[0][pos] : p[3][pos], c = is_e ? p[1][pos] : p[4][pos], ik = is_e ? p[2][pos] : p[5][pos];
    T* ps = g.psi[comp][axis] + psi_index(g, axis, i, j, k);
    const T v = b * *ps + c * d;
    *ps = v;
    return d * ik + v;
}

// H half step (traffic: 9 s per cell, file comment):
//   Hx -= S [d_y Ez - d_z Ey]   Hy -= S [d_z Ex - d_x Ez]   Hz -= S [d_x Ey - d_y Ex]
// with d_a f = f(.. +1) - f(..), the neighbour beyond the array 0 or wrapped (periodic),
// then PMC zeroing of the tangential H on the h position n-1/2 of each pmc axis.
template <class T>
__global__ void __launch_bounds__(kBulk3X * kBulk3Y, kBulk3MinBlocks<T>) update_h3(DevGrid3<T> g) {
    const int i = blockIdx.x * kBulk3X + threadIdx.x, j = blockIdx.y * kBulk3Y + threadIdx.y;
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    if (i >= nx || j >= ny) return;
    const int k0 = g.k_lo + int(blockIdx.z) * g.k_chunk, k1 = min(g.k_hi, k0 + g.k_chunk);
    if (k0 >= k1) return;
    const std::size_t plane = std::size_t(nx) * ny;
    const bool has_ip = i + 1 < nx || g.periodic[0], has_jp = j + 1 < ny || g.periodic[1];
    const long long dip = i + 1 < nx ? 1 : -(long long)(nx - 1);
    const long long djp = j + 1 < ny ? (long long)nx : -(long long)(ny - 1) * nx;
    const bool sx = i < g.lo[0] || i >= g.hi[0], sy = j < g.lo[1] || j >= g.hi[1];
    const bool zero_x = g.pmc[0] && i == nx - 1, zero_y = g.pmc[1] && j == ny - 1;
    const T* __restrict__ Ex = g.E[0];
    const T* __restrict__ Ey = g.E[1];
    const T* __restrict__ Ez = g.E[2];
    T* __restrict__ Hx = g.H[0];
    T* __restrict__ Hy = g.H[1];
    T* __restrict__ Hz = g.H[2];
    std::size_t idx = std::size_t(k0) * plane + std::size_t(j) * nx + i;
    T ex = Ex[idx], ey = Ey[idx];
    for (int k = k0; k < k1; ++k, idx += plane) {
        // Every DRAM load of the plane first (E^n x, y at k+1; Ez, H at k), so that they are
        // in flight together: 37.5 against 33.8 Gcells/s with the H loads at their use
        // (H200, 512^3 float32, bench).
        const T hx0 = Hx[idx], hy0 = Hy[idx], hz0 = Hz[idx], ez = Ez[idx];
        T ex_kp = T(0), ey_kp = T(0);
        if (k + 1 < nz) {
            ex_kp = Ex[idx + plane];
            ey_kp = Ey[idx + plane];
        } else if (g.periodic[2]) {
            const std::size_t w = idx - std::size_t(nz - 1) * plane;
            ex_kp = Ex[w];
            ey_kp = Ey[w];
            if (g.bloch[2]) {
                ex_kp = g.bc[2] * ex_kp + g.bs[2] * g.oE[0][w];
                ey_kp = g.bc[2] * ey_kp + g.bs[2] * g.oE[1][w];
            }
        }
        T ez_ip = has_ip ? Ez[idx + dip] : T(0), ey_ip = has_ip ? Ey[idx + dip] : T(0);
        T ez_jp = has_jp ? Ez[idx + djp] : T(0), ex_jp = has_jp ? Ex[idx + djp] : T(0);
        if (g.bloch[0] && i + 1 == nx) {
            ez_ip = g.bc[0] * ez_ip + g.bs[0] * g.oE[2][idx + dip];
            ey_ip = g.bc[0] * ey_ip + g.bs[0] * g.oE[1][idx + dip];
        }
        if (g.bloch[1] && j + 1 == ny) {
            ez_jp = g.bc[1] * ez_jp + g.bs[1] * g.oE[2][idx + djp];
            ex_jp = g.bc[1] * ex_jp + g.bs[1] * g.oE[0][idx + djp];
        }
        const bool sz = k < g.lo[2] || k >= g.hi[2];
        // Hx: -S [Y - Z]
        const T hx_y = cpml_term(g, ez_jp - ez, sy, 3, 1, j, false, i, j, k);
        const T hx_z = cpml_term(g, ey_kp - ey, sz, 3, 2, k, false, i, j, k);
        // Hy: -S [Z - X]
        const T hy_x = cpml_term(g, ez_ip - ez, sx, 4, 0, i, false, i, j, k);
        const T hy_z = cpml_term(g, ex_kp - ex, sz, 4, 2, k, false, i, j, k);
        // Hz: -S [X - Y]
        const T hz_x = cpml_term(g, ey_ip - ey, sx, 5, 0, i, false, i, j, k);
        const T hz_y = cpml_term(g, ex_jp - ex, sy, 5, 1, j, false, i, j, k);
        const bool zero_z = g.pmc[2] && k == nz - 1;
        const T hx = hx0 + g.S * (-hx_y + hx_z);
        const T hy = hy0 + g.S * (hy_x - hy_z);
        const T hz = hz0 + g.S * (-hz_x + hz_y);
        Hx[idx] = (zero_y || zero_z) ? T(0) : hx;
        Hy[idx] = (zero_x || zero_z) ? T(0) : hy;
        Hz[idx] = (zero_x || zero_y) ? T(0) : hz;
        ex = ex_kp;
        ey = ey_kp;
    }
}

// E half step (traffic: 9 s + 6 B per cell, file comment):
//   Ex = ca Ex + cb [d_y Hz - d_z Hy]   Ey = ca Ey + cb [d_z Hx - d_x Hz]
//   Ez = ca Ez + cb [d_x Hy - d_y Hx]
// with d_a f = f(..) - f(.. -1), (ca, cb) = table[mat_c[cell]], then PEC zeroing of the
// tangential E on the e position 0 of each pec axis.
template <class T>
__global__ void __launch_bounds__(kBulk3X * kBulk3Y, kBulk3MinBlocks<T>) update_e3(DevGrid3<T> g) {
    const int i = blockIdx.x * kBulk3X + threadIdx.x, j = blockIdx.y * kBulk3Y + threadIdx.y;
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    if (i >= nx || j >= ny) return;
    const int k0 = g.k_lo + int(blockIdx.z) * g.k_chunk, k1 = min(g.k_hi, k0 + g.k_chunk);
    if (k0 >= k1) return;
    const std::size_t plane = std::size_t(nx) * ny;
    const bool has_im = i > 0 || g.periodic[0], has_jm = j > 0 || g.periodic[1];
    const long long dim = i > 0 ? 1 : -(long long)(nx - 1);
    const long long djm = j > 0 ? (long long)nx : -(long long)(ny - 1) * nx;
    const bool sx = i < g.lo[0] || i >= g.hi[0], sy = j < g.lo[1] || j >= g.hi[1];
    const bool zero_x = g.pec[0] && i == 0, zero_y = g.pec[1] && j == 0;
    const T* __restrict__ Hx = g.H[0];
    const T* __restrict__ Hy = g.H[1];
    const T* __restrict__ Hz = g.H[2];
    T* __restrict__ Ex = g.E[0];
    T* __restrict__ Ey = g.E[1];
    T* __restrict__ Ez = g.E[2];
    const Coef2<T>* __restrict__ table = g.table;
    std::size_t idx = std::size_t(k0) * plane + std::size_t(j) * nx + i;
    T hx_km = T(0), hy_km = T(0);
    if (k0 > 0) {
        hx_km = Hx[idx - plane];
        hy_km = Hy[idx - plane];
    } else if (g.periodic[2]) {
        const std::size_t w = idx + std::size_t(nz - 1) * plane;
        hx_km = Hx[w];
        hy_km = Hy[w];
        if (g.bloch[2]) {
            hx_km = g.bc[2] * hx_km - g.bs[2] * g.oH[0][w];
            hy_km = g.bc[2] * hy_km - g.bs[2] * g.oH[1][w];
        }
    }
    for (int k = k0; k < k1; ++k, idx += plane) {
        // Every DRAM load of the plane first (H^{n+1/2}, E^n, material indices), as in update_h3.
        const T hx = Hx[idx], hy = Hy[idx], hz = Hz[idx], ex0 = Ex[idx], ey0 = Ey[idx], ez0 = Ez[idx];
        const std::uint16_t m0 = g.mat[0][idx], m1 = g.mat[1][idx], m2 = g.mat[2][idx];
        T hz_im = has_im ? Hz[idx - dim] : T(0), hy_im = has_im ? Hy[idx - dim] : T(0);
        T hz_jm = has_jm ? Hz[idx - djm] : T(0), hx_jm = has_jm ? Hx[idx - djm] : T(0);
        if (g.bloch[0] && i == 0) {
            hz_im = g.bc[0] * hz_im - g.bs[0] * g.oH[2][idx - dim];
            hy_im = g.bc[0] * hy_im - g.bs[0] * g.oH[1][idx - dim];
        }
        if (g.bloch[1] && j == 0) {
            hz_jm = g.bc[1] * hz_jm - g.bs[1] * g.oH[2][idx - djm];
            hx_jm = g.bc[1] * hx_jm - g.bs[1] * g.oH[0][idx - djm];
        }
        const bool sz = k < g.lo[2] || k >= g.hi[2];
        // Ex: cb [Y - Z]
        const T ex_y = cpml_term(g, hz - hz_jm, sy, 0, 1, j, true, i, j, k);
        const T ex_z = cpml_term(g, hy - hy_km, sz, 0, 2, k, true, i, j, k);
        // Ey: cb [Z - X]
        const T ey_x = cpml_term(g, hz - hz_im, sx, 1, 0, i, true, i, j, k);
        const T ey_z = cpml_term(g, hx - hx_km, sz, 1, 2, k, true, i, j, k);
        // Ez: cb [X - Y]
        const T ez_x = cpml_term(g, hy - hy_im, sx, 2, 0, i, true, i, j, k);
        const T ez_y = cpml_term(g, hx - hx_jm, sy, 2, 1, j, true, i, j, k);
        const Coef2<T> cx = table[m0], cy = table[m1], cz = table[m2];
        const bool zero_z = g.pec[2] && k == 0;
        const T ex = cx.ca * ex0 + cx.cb * (ex_y - ex_z);
        const T ey = cy.ca * ey0 + cy.cb * (-ey_x + ey_z);
        const T ez = cz.ca * ez0 + cz.cb * (ez_x - ez_y);
        Ex[idx] = (zero_y || zero_z) ? T(0) : ex;
        Ey[idx] = (zero_x || zero_z) ? T(0) : ey;
        Ez[idx] = (zero_x || zero_y) ? T(0) : ez;
        hx_km = hx;
        hy_km = hy;
    }
}

// ---- fused H + E kernel (update_he3, file comment design 1) ----


/// A CPML-corrected difference as cpml_term, reading psi from the input set and, for the
/// owner of the cell (`own`), writing the new psi to the output set.
template <class T>
__device__ __forceinline__ T cpml_term_pp(const DevGrid3<T>& g, T d, bool in_slab, int comp, int axis, int pos, bool is_e,
                                          int i, int j, int k, bool own) {
    if (!in_slab) return d;
    const T* const* p = g.prof[axis];
    const T b = __ldg(is_e ? p[0] + pos : p[3] + pos), c = __ldg(is_e ? p[1] + pos : p[4] + pos);
    const T ik = __ldg(is_e ? p[2] + pos : p[5] + pos);
    const std::size_t q = psi_index(g, axis, i, j, k);
    const T v = b * __ldg(g.psi[comp][axis] + q) + c * d;
    if (own) g.psi_out[comp][axis][q] = v;
    return d * ik + v;
}

/// E^{n+1} of the owned cell (i, j, k), flat index idx, into the output set, psi written (same
/// arithmetic as update_e3): (ex, ey, ez) E^n of the cell (references: read where used, so a
/// shared-memory operand is loaded late); (hx, hy, hz) H^{n+1/2} of the cell,
/// h?_im / h?_jm / h?_km H^{n+1/2} of its -x / -y / -z neighbour; px, py, pz: the cell lies in
/// the CPML slab of that axis; zero_x / zero_y: PEC at i = 0 / j = 0 (the tangential E there
/// stays 0; zero_z is derived from k).
template <class T>
__device__ __forceinline__ void e_cell_pp(const DevGrid3<T>& g, int i, int j, int k, std::size_t idx, bool px, bool py,
                                          bool pz, bool zero_x, bool zero_y, const Coef2<T>& cx, const Coef2<T>& cy,
                                          const Coef2<T>& cz, const T& ex, const T& ey, const T& ez, T hx, T hy, T hz, T hx_jm,
                                          T hx_km, T hy_im, T hy_km, T hz_im, T hz_jm) {
    const T ex_y = cpml_term_pp(g, hz - hz_jm, py, 0, 1, j, true, i, j, k, true);
    const T ex_z = cpml_term_pp(g, hy - hy_km, pz, 0, 2, k, true, i, j, k, true);
    const T ey_x = cpml_term_pp(g, hz - hz_im, px, 1, 0, i, true, i, j, k, true);
    const T ey_z = cpml_term_pp(g, hx - hx_km, pz, 1, 2, k, true, i, j, k, true);
    const T ez_x = cpml_term_pp(g, hy - hy_im, px, 2, 0, i, true, i, j, k, true);
    const T ez_y = cpml_term_pp(g, hx - hx_jm, py, 2, 1, j, true, i, j, k, true);
    const bool zero_z = g.pec[2] && k == 0;
    g.E_out[0][idx] = (zero_y || zero_z) ? T(0) : cx.ca * ex + cx.cb * (ex_y - ex_z);
    g.E_out[1][idx] = (zero_x || zero_z) ? T(0) : cy.ca * ey + cy.cb * (-ey_x + ey_z);
    g.E_out[2][idx] = (zero_x || zero_y) ? T(0) : cz.ca * ez + cz.cb * (ez_x - ez_y);
}

/// H^{n+1/2} of cell (i, j, k), flat index idx, from the input set: (ex, ey, ez) E^n of the
/// cell, (ex_kp, ey_kp) E^n of the cell at k+1 (0 beyond a face that is not periodic),
/// (hx0, hy0, hz0) H^{n-1/2} of the cell.
/// Same arithmetic as update_h3. own: the caller owns the cell (psi written).
template <class T>
__device__ __forceinline__ void h_cell(const DevGrid3<T>& g, int i, int j, int k, std::size_t idx, T ex, T ey, T ez,
                                       T ex_kp, T ey_kp, T hx0, T hy0, T hz0, bool own, T& hx, T& hy, T& hz) {
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    const bool has_ip = i + 1 < nx || g.periodic[0], has_jp = j + 1 < ny || g.periodic[1];
    const long long dip = i + 1 < nx ? 1 : -(long long)(nx - 1);
    const long long djp = j + 1 < ny ? (long long)nx : -(long long)(ny - 1) * nx;
    // The input set is read-only during update_he3: __ldg lets loads move past the stores.
    const T ez_ip = has_ip ? __ldg(g.E[2] + idx + dip) : T(0), ey_ip = has_ip ? __ldg(g.E[1] + idx + dip) : T(0);
    const T ez_jp = has_jp ? __ldg(g.E[2] + idx + djp) : T(0), ex_jp = has_jp ? __ldg(g.E[0] + idx + djp) : T(0);
    const bool sx = i < g.lo[0] || i >= g.hi[0], sy = j < g.lo[1] || j >= g.hi[1], sz = k < g.lo[2] || k >= g.hi[2];
    const T hx_y = cpml_term_pp(g, ez_jp - ez, sy, 3, 1, j, false, i, j, k, own);
    const T hx_z = cpml_term_pp(g, ey_kp - ey, sz, 3, 2, k, false, i, j, k, own);
    const T hy_x = cpml_term_pp(g, ez_ip - ez, sx, 4, 0, i, false, i, j, k, own);
    const T hy_z = cpml_term_pp(g, ex_kp - ex, sz, 4, 2, k, false, i, j, k, own);
    const T hz_x = cpml_term_pp(g, ey_ip - ey, sx, 5, 0, i, false, i, j, k, own);
    const T hz_y = cpml_term_pp(g, ex_jp - ex, sy, 5, 1, j, false, i, j, k, own);
    const bool zero_x = g.pmc[0] && i == nx - 1, zero_y = g.pmc[1] && j == ny - 1, zero_z = g.pmc[2] && k == nz - 1;
    hx = (zero_y || zero_z) ? T(0) : hx0 + g.S * (-hx_y + hx_z);
    hy = (zero_x || zero_z) ? T(0) : hy0 + g.S * (hy_x - hy_z);
    hz = (zero_x || zero_y) ? T(0) : hz0 + g.S * (-hz_x + hz_y);
}

/// E^n (x and y) of the cell at k+1 of flat index idx: 0 beyond a face that is not
/// periodic, plane 0 beyond a periodic one (the H update's z neighbour).
template <class T>
__device__ __forceinline__ void e_at_kp(const DevGrid3<T>& g, std::size_t idx, int k, std::size_t plane, T& ex_kp,
                                        T& ey_kp) {
    ex_kp = ey_kp = T(0);
    if (k + 1 < g.n[2]) {
        ex_kp = __ldg(g.E[0] + idx + plane);
        ey_kp = __ldg(g.E[1] + idx + plane);
    } else if (g.periodic[2]) {
        const std::size_t w = idx - std::size_t(g.n[2] - 1) * plane;
        ex_kp = __ldg(g.E[0] + w);
        ey_kp = __ldg(g.E[1] + w);
    }
}

/// H^{n+1/2} of a cell another block (or chunk) owns: loads its E^n and E^n at k+1 itself.
template <class T>
__device__ __forceinline__ void h_cell_other(const DevGrid3<T>& g, int i, int j, int k, T& hx, T& hy, T& hz) {
    const std::size_t plane = std::size_t(g.n[0]) * g.n[1];
    const std::size_t idx = std::size_t(k) * plane + std::size_t(j) * g.n[0] + i;
    T ex_kp, ey_kp;
    e_at_kp(g, idx, k, plane, ex_kp, ey_kp);
    h_cell(g, i, j, k, idx, __ldg(g.E[0] + idx), __ldg(g.E[1] + idx), __ldg(g.E[2] + idx), ex_kp, ey_kp,
           __ldg(g.H[0] + idx), __ldg(g.H[1] + idx), __ldg(g.H[2] + idx), false, hx, hy, hz);
}

// One time step of the bulk, H then E, planes [k_lo, k_hi), input set -> output set (file
// comment design 1; traffic 12 s + 6 B per cell). Same arithmetic as update_h3 then
// update_e3. Block of 32 x ROWS threads over the columns i = bx * 31 - 1 + tx,
// j = by * (ROWS - 1) - 1 + ty: every thread computes H^{n+1/2} of its column, the threads of
// tx = 0 and ty = 0 for a column another block owns (the halo: psi read, not written, H not
// stored), so all warps do the same work and each plane needs one barrier; the others own
// their column and update its E from the H of their x and y neighbours (shared memory, two
// buffers by plane parity) and of plane k-1 (registers).
// MINB: blocks per SM the register budget must allow.
template <class T, int ROWS, int MINB>
__global__ void __launch_bounds__(32 * ROWS, MINB) update_he3(DevGrid3<T> g) {
    __shared__ T sH[2][3][ROWS][32];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    int i = int(blockIdx.x) * 31 - 1 + tx, j = int(blockIdx.y) * (ROWS - 1) - 1 + ty;
    // The halo column / row before the first one wraps (periodic) or reads H = 0.
    if (i < 0) i = g.periodic[0] ? nx - 1 : -1;
    if (j < 0) j = g.periodic[1] ? ny - 1 : -1;
    const bool cell = i >= 0 && i < nx && j >= 0 && j < ny;
    const bool own = cell && tx > 0 && ty > 0;
    const int k0 = g.k_lo + int(blockIdx.z) * g.k_chunk, k1 = min(g.k_hi, k0 + g.k_chunk);
    if (k0 >= k1) return;  // uniform over the block
    const std::size_t plane = std::size_t(nx) * ny;
    const bool sx = i < g.lo[0] || i >= g.hi[0], sy = j < g.lo[1] || j >= g.hi[1];
    const bool zero_x = g.pec[0] && i == 0, zero_y = g.pec[1] && j == 0;
    std::size_t idx = std::size_t(k0) * plane + (cell ? std::size_t(j) * nx + i : 0);
    T ex = T(0), ey = T(0), hx_km = T(0), hy_km = T(0);
    if (cell) {
        ex = __ldg(g.E[0] + idx);
        ey = __ldg(g.E[1] + idx);
    }
    if (own) {  // H^{n+1/2} of plane k0 - 1 (another chunk's, or none)
        const int kw = k0 > 0 ? k0 - 1 : (g.periodic[2] ? nz - 1 : -1);
        if (kw >= 0) {
            T hz_unused;
            h_cell_other(g, i, j, kw, hx_km, hy_km, hz_unused);
        }
    }
    for (int k = k0; k < k1; ++k, idx += plane) {
        const int buf = (k - k0) & 1;
        T hx = T(0), hy = T(0), hz = T(0), ez = T(0), ex_kp = T(0), ey_kp = T(0);
        Coef2<T> cx{}, cy{}, cz{};
        T h0 = T(0), h1 = T(0), h2 = T(0);
        if (own) {  // issued early: their latency overlaps the H update and the barrier
            cx = g.table[__ldg(g.mat[0] + idx)];
            cy = g.table[__ldg(g.mat[1] + idx)];
            cz = g.table[__ldg(g.mat[2] + idx)];
        }
        if (cell) {
            ez = __ldg(g.E[2] + idx);
            h0 = __ldg(g.H[0] + idx);
            h1 = __ldg(g.H[1] + idx);
            h2 = __ldg(g.H[2] + idx);
        }
        if (cell) {
            e_at_kp(g, idx, k, plane, ex_kp, ey_kp);
            h_cell(g, i, j, k, idx, ex, ey, ez, ex_kp, ey_kp, h0, h1, h2, own, hx, hy, hz);
            if (own) {
                g.H_out[0][idx] = hx;
                g.H_out[1][idx] = hy;
                g.H_out[2][idx] = hz;
            }
        }
        sH[buf][0][ty][tx] = hx;
        sH[buf][1][ty][tx] = hy;
        sH[buf][2][ty][tx] = hz;
        __syncthreads();  // (the other buffer is rewritten only after the next barrier)
        if (own) {
            const T hz_im = sH[buf][2][ty][tx - 1], hy_im = sH[buf][1][ty][tx - 1];
            const T hz_jm = sH[buf][2][ty - 1][tx], hx_jm = sH[buf][0][ty - 1][tx];
            const bool sz = k < g.lo[2] || k >= g.hi[2];
            e_cell_pp(g, i, j, k, idx, sx, sy, sz, zero_x, zero_y, cx, cy, cz, ex, ey, ez, hx, hy, hz, hx_jm, hx_km, hy_im,
                      hy_km, hz_im, hz_jm);
        }
        hx_km = hx;
        hy_km = hy;
        ex = ex_kp;
        ey = ey_kp;
    }
}

// ---- fused H + E kernel fed by the Tensor Memory Accelerator (update_he3_tma, design 4) ----
//
// Same step as update_he3 (input set -> output set, H then E of each plane, psi of owned
// cells written, halo H recomputed from the unchanged input), but the planes come into
// shared memory by Hopper bulk tensor copies (cp.async.bulk.tensor, one instruction per
// field and plane, completion counted in bytes by an mbarrier per stage), STAGES planes
// deep (STAGES = 4: the current plane, the next one, two in flight). A block owns 32 x ROWS
// columns (i0 = 32 bx, j0 = ROWS by; ROWS = 8 by default), aligned to whole 128-byte rows for
// the stores. Each stage holds one plane of the six fields, each over a box from
// (i0 - 4, j0 - 1) that covers what the block reads of that field (tma_box_w / tma_box_r):
// the owned cells, the halo column and row at i0 - 1, j0 - 1 whose new H the E update needs,
// and the +x / +y neighbours of E; and the uint16 material maps over the owned cells. (The
// boxes start at i0 - 4, not i0 - 1: a box's first x must lie on 16 bytes, or the copy faults
// with an illegal instruction, and a box's shared-memory address on 128 bytes, or it faults
// with a misaligned address; both seen on the H200 with a probe.) Outside the
// grid the tensor unit fills zeros, which is what a face that is not periodic reads, so the
// kernel runs only where x and y are not periodic (Bulk3::tma_refusal); a periodic z face
// wraps the plane coordinate. Warps 0 .. ROWS-1 own the rows; warp ROWS recomputes H of the
// halo row j0 - 1, warp ROWS + 1 (ROWS lanes) of the halo column i0 - 1. One barrier per
// plane: after it the new H is complete and every warp has left the previous plane, whose
// stage is then refilled (the new H is double-buffered). Blocks with no cell in a CPML slab
// run a loop without the slab tests. A chunk [k0, k1) streams planes k0 - 1 ... k1 (plane
// k0 - 1 for the H below the first E, plane k1 for E at k + 1 of the last H); chunks of 24.
// Traffic per cell, DRAM bytes: the fused model, 12 s + 6 B (+ 2 B with one material map);
// the halo and the two extra planes of a chunk come from L2 mostly. Nsight Compute (H200,
// 512^3 float32, one launch at base clocks): 8.4 GB of DRAM traffic per step (63 B per
// cell: the halos and extra planes partly miss L2), 15.7 GB of L2 traffic, 62 % of the issue
// slots used; the stalls are the barrier (29 % of the samples) and, in the blocks that hold
// CPML slabs (27 % of the cells, 48 % of the samples), the psi and profile loads. Launched
// apart, the tiles without slab cells ran at 61 Gcells/s of their own cells and
// 0.85 of copy, reading 34.8 B per cell against the model's 26 (halos from DRAM, at chunks of
// 24 and of 96 alike); those with slab cells at 33-35. Two launches were slower than one
// (45.9-47.9 against 49.1, even with psi loaded a plane ahead at 64 registers in the slab
// kernel): mixed on an SM, the bandwidth-bound tiles hide the latency-bound ones
// (docs/performance.md, "Where the fused kernel's time goes").
constexpr int kTmaTx = 32;    // owned columns of a block along x (one warp)
constexpr int kTmaBoxX = 40;  // row length of the block's new-H buffer (shared x coordinates 0..39)

/// The six tensor maps (Ex, Ey, Ez, Hx, Hy, Hz) of one buffer set: 3D, innermost x, box
/// tma_box_w(c) x tma_box_r(c) x 1, zero fill outside the grid.
struct TmaFieldMaps {
    CUtensorMap f[6];
    CUtensorMap mat[3];  // the uint16 material maps (Ex, Ey, Ez), box kTmaTx x ROWS from (i0, j0)
    int n_mat;           // 1 where the three maps are one (Bulk3::shared_materials), else 3
};

// Each field's box covers what the block reads of it, from (i0 - 4, j0 - 1): Ex the cells and
// +y (36 x (ROWS + 2)), Ey the cells and +x (40 x (ROWS + 1)), Ez both (40 x (ROWS + 2)), H the
// cells (36 x (ROWS + 1)); "the cells" include the halo column and row. L2 sectors per plane
// (32 x 8 owned): 299 against 360 with one 40 x 10 box for all.
__host__ __device__ constexpr int tma_box_w(int c) { return c == 1 || c == 2 ? 40 : 36; }
template <int ROWS>
__host__ __device__ constexpr int tma_box_r(int c) { return c == 0 || c == 2 ? ROWS + 2 : ROWS + 1; }
template <class T, int ROWS>
__host__ __device__ constexpr int tma_field_off(int c) {  // byte offset of field c in a stage (slots of 128 B multiples)
    int o = 0;
    for (int q = 0; q < c; ++q) o += (tma_box_w(q) * tma_box_r<ROWS>(q) * int(sizeof(T)) + 127) / 128 * 128;
    return o;
}
template <class T, int ROWS>
__host__ __device__ constexpr int tma_field_tx_bytes() {  // bytes the six boxes bring
    int o = 0;
    for (int q = 0; q < 6; ++q) o += tma_box_w(q) * tma_box_r<ROWS>(q) * int(sizeof(T));
    return o;
}
template <int ROWS>
__host__ __device__ constexpr int tma_mat_slot_bytes() {  // one material map's box (uint16), rounded to 128 B
    return (kTmaTx * ROWS * 2 + 127) / 128 * 128;
}
template <class T, int ROWS>
__host__ __device__ constexpr int tma_stage_bytes() {  // six fields and up to three material maps of one plane
    return tma_field_off<T, ROWS>(6) + 3 * tma_mat_slot_bytes<ROWS>();
}
template <class T, int ROWS, int STAGES>
__host__ __device__ constexpr int tma_barrier_offset() {  // after the stages and the block's new H (2 x 3 x (ROWS + 1) x kTmaBoxX)
    return STAGES * tma_stage_bytes<T, ROWS>() + (6 * (ROWS + 1) * kTmaBoxX * int(sizeof(T)) + 7) / 8 * 8;
}
template <class T, int ROWS, int STAGES>
__host__ __device__ constexpr int tma_smem_bytes() {  // dynamic shared memory of update_he3_tma
    return tma_barrier_offset<T, ROWS, STAGES>() + STAGES * 8;
}
template <class T, int ROWS, int STAGES>
constexpr int tma_min_blocks() {  // blocks per SM the shared memory allows (227 KB), at most 4 (48 registers at 320 threads)
    return std::max(1, std::min(4, (227 * 1024) / (tma_smem_bytes<T, ROWS, STAGES>() + 1024)));
}

__device__ __forceinline__ std::uint32_t smem_addr(const void* p) {
    return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}
/// The 32-byte sector holding *p into L2 (prefetch.global.L2): no registers held, no traffic
/// of its own (the same bytes, earlier). The CPML psi a plane ahead in update_he3_tma and
/// update_he3_two.
__device__ __forceinline__ void prefetch_l2(const void* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#endif
}
__device__ __forceinline__ void tma_wait(std::uint64_t* bar, std::uint32_t parity) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile(
        "{\n .reg .pred p;\n"
        "WAIT:\n"
        " mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
        " @!p bra WAIT;\n"
        "}\n" ::"r"(smem_addr(bar)),
        "r"(parity)
        : "memory");
#endif
}

/// Thread 0: the six boxes of plane `plane` (wrapped when z is periodic) into `stage`,
/// counted on `bar`. Coordinates may lie outside the grid (zero fill).
template <class T, int ROWS>
__device__ __forceinline__ void tma_issue(const TmaFieldMaps& maps, unsigned char* stage, std::uint64_t* bar, int x, int y,
                                          int plane) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const std::uint32_t bytes = tma_field_tx_bytes<T, ROWS>() + std::uint32_t(maps.n_mat) * kTmaTx * ROWS * 2u;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(bytes) : "memory");
    for (int c = 0; c < 6; ++c)
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
                smem_addr(stage + tma_field_off<T, ROWS>(c))),
            "l"(reinterpret_cast<std::uint64_t>(&maps.f[c])), "r"(x), "r"(y), "r"(plane), "r"(smem_addr(bar))
            : "memory");
    for (int c = 0; c < maps.n_mat; ++c)
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
                smem_addr(stage + tma_field_off<T, ROWS>(6) + c * tma_mat_slot_bytes<ROWS>())),
            "l"(reinterpret_cast<std::uint64_t>(&maps.mat[c])), "r"(x + 4), "r"(y + 1), "r"(plane), "r"(smem_addr(bar))
            : "memory");
#endif
}

// One time step of the bulk (file comment design 4; traffic 12 s + 6 B per cell). Block
// (32, 10): threadIdx.y < 8 own (i0 + tx, j0 + ty); y = 8 is the halo row (i0 + tx, j0 - 1),
// y = 9 with tx < 8 the halo column (i0 - 1, j0 + tx). Shared coordinates (a, b) = (i - i0 + 4,
// j - j0 + 1). Same arithmetic as update_h3 then update_e3.
template <class T, int ROWS, int STAGES>
__global__ void __launch_bounds__(kTmaTx * (ROWS + 2), tma_min_blocks<T, ROWS, STAGES>())
    update_he3_tma(DevGrid3<T> g, const __grid_constant__ TmaFieldMaps maps) {
    extern __shared__ __align__(128) unsigned char tma_smem[];
    constexpr int kOff[7] = {tma_field_off<T, ROWS>(0), tma_field_off<T, ROWS>(1), tma_field_off<T, ROWS>(2),
                             tma_field_off<T, ROWS>(3), tma_field_off<T, ROWS>(4), tma_field_off<T, ROWS>(5),
                             tma_field_off<T, ROWS>(6)};
    constexpr int kStage = tma_stage_bytes<T, ROWS>();
    // The new H of the block, two buffers by plane parity.
    T(*sHn2)[3][ROWS + 1][kTmaBoxX] = reinterpret_cast<T(*)[3][ROWS + 1][kTmaBoxX]>(tma_smem + STAGES * kStage);
    std::uint64_t* bar = reinterpret_cast<std::uint64_t*>(tma_smem + tma_barrier_offset<T, ROWS, STAGES>());
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    const int i0 = int(blockIdx.x) * kTmaTx, j0 = int(blockIdx.y) * ROWS;
    const int k0 = g.k_lo + int(blockIdx.z) * g.k_chunk, k1 = min(g.k_hi, k0 + g.k_chunk);
    if (k0 >= k1) return;  // uniform over the block
    // This thread's H cell, shared coordinates, and whether it owns the cell.
    int a, b, i, j;
    if (ty < ROWS) { a = tx + 4; b = ty + 1; i = i0 + tx; j = j0 + ty; }
    else if (ty == ROWS) { a = tx + 4; b = 0; i = i0 + tx; j = j0 - 1; }
    else { a = 3; b = tx + 1; i = i0 - 1; j = j0 + tx; }
    const bool cell = i >= 0 && i < nx && j >= 0 && j < ny && (ty <= ROWS || tx < ROWS);
    const bool own = cell && ty < ROWS;
    const int n_planes = k1 - k0 + 2;  // k0 - 1 ... k1
    auto plane_of = [&](int t) {       // plane coordinate of stage t (wrapped when z is periodic)
        int k = k0 - 1 + t;
        if (g.periodic[2]) k = (k % nz + nz) % nz;
        return k;
    };
    if (tx == 0 && ty == 0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        for (int s = 0; s < STAGES; ++s)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar + s)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
    }
    __syncthreads();
    if (tx == 0 && ty == 0)
        for (int t = 0; t < min(STAGES, n_planes); ++t)
            tma_issue<T, ROWS>(maps, tma_smem + t * kStage, bar + t, i0 - 4, j0 - 1, plane_of(t));
    const std::size_t plane = std::size_t(nx) * ny;
    const bool sx = i < g.lo[0] || i >= g.hi[0], sy = j < g.lo[1] || j >= g.hi[1];
    const bool zero_ex = g.pec[0] && i == 0, zero_ey = g.pec[1] && j == 0;
    const bool zero_hx = g.pmc[0] && i == nx - 1, zero_hy = g.pmc[1] && j == ny - 1;
    const std::size_t col = cell ? std::size_t(j) * nx + i : 0;
    // H^{n+1/2} of plane k from stage s (plane k) and s1 (plane k + 1); psi written when own.
    // pml false: the caller knows that no cell of the block lies in a CPML slab.
    auto h_of = [&](const unsigned char* st, const unsigned char* st1, int k, bool write_psi, bool pml, T& hx, T& hy,
                    T& hz) {
        const T(*E0)[36] = reinterpret_cast<const T(*)[36]>(st + kOff[0]);
        const T(*E1)[40] = reinterpret_cast<const T(*)[40]>(st + kOff[1]);
        const T(*E2)[40] = reinterpret_cast<const T(*)[40]>(st + kOff[2]);
        const T(*H0)[36] = reinterpret_cast<const T(*)[36]>(st + kOff[3]);
        const T(*H1)[36] = reinterpret_cast<const T(*)[36]>(st + kOff[4]);
        const T(*H2)[36] = reinterpret_cast<const T(*)[36]>(st + kOff[5]);
        const T(*N0)[36] = reinterpret_cast<const T(*)[36]>(st1 + kOff[0]);
        const T(*N1)[40] = reinterpret_cast<const T(*)[40]>(st1 + kOff[1]);
        const T ex = E0[b][a], ey = E1[b][a], ez = E2[b][a];
        const bool px = pml && sx, py = pml && sy, pz = pml && (k < g.lo[2] || k >= g.hi[2]);
        const T hx_y = cpml_term_pp(g, E2[b + 1][a] - ez, py, 3, 1, j, false, i, j, k, write_psi);
        const T hx_z = cpml_term_pp(g, N1[b][a] - ey, pz, 3, 2, k, false, i, j, k, write_psi);
        const T hy_x = cpml_term_pp(g, E2[b][a + 1] - ez, px, 4, 0, i, false, i, j, k, write_psi);
        const T hy_z = cpml_term_pp(g, N0[b][a] - ex, pz, 4, 2, k, false, i, j, k, write_psi);
        const T hz_x = cpml_term_pp(g, E1[b][a + 1] - ey, px, 5, 0, i, false, i, j, k, write_psi);
        const T hz_y = cpml_term_pp(g, E0[b + 1][a] - ex, py, 5, 1, j, false, i, j, k, write_psi);
        const bool zero_hz = g.pmc[2] && k == nz - 1;
        hx = (zero_hy || zero_hz) ? T(0) : H0[b][a] + g.S * (-hx_y + hx_z);
        hy = (zero_hx || zero_hz) ? T(0) : H1[b][a] + g.S * (hy_x - hy_z);
        hz = (zero_hx || zero_hy) ? T(0) : H2[b][a] + g.S * (-hz_x + hz_y);
    };
    // The (ca, cb) of the owned cell from the material indices of stage `st` (complete).
    auto coefs = [&](const unsigned char* st, Coef2<T>& cx, Coef2<T>& cy, Coef2<T>& cz) {
        const std::uint16_t(*M)[kTmaTx] = reinterpret_cast<const std::uint16_t(*)[kTmaTx]>(st + kOff[6]);
        constexpr int kMRows = tma_mat_slot_bytes<ROWS>() / 2 / kTmaTx;  // rows per material slot
        cx = g.table[M[ty][tx]];
        cy = maps.n_mat == 3 ? g.table[M[ty + kMRows][tx]] : cx;
        cz = maps.n_mat == 3 ? g.table[M[ty + 2 * kMRows][tx]] : cx;
    };
    // Stage 0: H^{n+1/2} of plane k0 - 1 for the owned columns (none below a face that is not
    // periodic).
    T hx_km = T(0), hy_km = T(0);
    tma_wait(bar + 0, 0);
    tma_wait(bar + 1 % STAGES, 0);
    if (own && (k0 > 0 || g.periodic[2])) {
        T hz_unused;
        h_of(tma_smem, tma_smem + (1 % STAGES) * kStage, plane_of(0), false, true, hx_km, hy_km, hz_unused);
    }
    // Blocks none of whose cells (halo included) lies in a CPML slab over [k0, k1) run the loop
    // without the slab tests (about 3/4 of the blocks at 512^3 with 16-cell slabs).
    const bool interior = max(i0 - 1, 0) >= g.lo[0] && min(i0 + kTmaTx - 1, nx - 1) < g.hi[0] &&
                          max(j0 - 1, 0) >= g.lo[1] && min(j0 + ROWS - 1, ny - 1) < g.hi[1] && k0 >= g.lo[2] &&
                          k1 <= g.hi[2];
    auto planes = [&](auto pml_c) {
    constexpr bool kPml = decltype(pml_c)::value;
    std::size_t idx = std::size_t(k0) * plane + col;
    for (int t = 1, k = k0; k < k1; ++t, ++k, idx += plane) {
        const int s = t % STAGES, s1 = (t + 1) % STAGES;
        const unsigned char* st = tma_smem + s * kStage;
        T(*sHn)[ROWS + 1][kTmaBoxX] = sHn2[t & 1];
        // The table loads (L1) go out first; they are used after the H update and the barrier.
        Coef2<T> cx{}, cy{}, cz{};
        if (own) coefs(st, cx, cy, cz);
        if constexpr (kPml) {
            // psi of plane k + psi_ahead (1; GOLIGHTLY_CUDA3D_PSI_AHEAD) into L2, no registers
            // held: its loads then wait on L2, not DRAM (the blocks with slab cells are bound by
            // that latency). No traffic of its own: the same bytes, earlier.
            const int kp = k + g.psi_ahead;
            if (g.psi_ahead > 0 && cell && kp < k1) {
                auto pre = [&](int comp, int axis) { prefetch_l2(g.psi[comp][axis] + psi_index(g, axis, i, j, kp)); };
                if (sx) { pre(4, 0); pre(5, 0); if (own) { pre(1, 0); pre(2, 0); } }
                if (sy) { pre(3, 1); pre(5, 1); if (own) { pre(0, 1); pre(2, 1); } }
                if (kp < g.lo[2] || kp >= g.hi[2]) { pre(3, 2); pre(4, 2); if (own) { pre(0, 2); pre(1, 2); } }
            }
        }
        tma_wait(bar + s1, std::uint32_t(((t + 1) / STAGES) & 1));
        T hx = T(0), hy = T(0), hz = T(0);
        if (cell) h_of(st, tma_smem + s1 * kStage, k, own, kPml, hx, hy, hz);
        if (own) {
            g.H_out[0][idx] = hx;
            g.H_out[1][idx] = hy;
            g.H_out[2][idx] = hz;
        }
        if (ty < ROWS || tx < ROWS || ty == ROWS) {
            sHn[0][b][a] = hx;
            sHn[1][b][a] = hy;
            sHn[2][b][a] = hz;
        }
        // One barrier per plane: the new H is complete, and every warp has finished iteration
        // t - 1, so stage t - 1 (its current plane) is free: refill it with plane t - 1 + STAGES.
        // (The other sHn buffer is rewritten only after the next barrier.)
        __syncthreads();
        if (tx == 0 && ty == 0 && t - 1 + STAGES < n_planes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
            const int r = t - 1 + STAGES;
            tma_issue<T, ROWS>(maps, tma_smem + (r % STAGES) * kStage, bar + r % STAGES, i0 - 4, j0 - 1, plane_of(r));
        }
        if (own) {
            const T(*E0)[36] = reinterpret_cast<const T(*)[36]>(st + kOff[0]);
            const T(*E1)[40] = reinterpret_cast<const T(*)[40]>(st + kOff[1]);
            const T(*E2)[40] = reinterpret_cast<const T(*)[40]>(st + kOff[2]);
            const T hz_im = sHn[2][b][a - 1], hy_im = sHn[1][b][a - 1];
            const T hz_jm = sHn[2][b - 1][a], hx_jm = sHn[0][b - 1][a];
            const bool px = kPml && sx, py = kPml && sy, pz = kPml && (k < g.lo[2] || k >= g.hi[2]);
            e_cell_pp(g, i, j, k, idx, px, py, pz, zero_ex, zero_ey, cx, cy, cz, E0[b][a], E1[b][a], E2[b][a], hx, hy, hz,
                      hx_jm, hx_km, hy_im, hy_km, hz_im, hz_jm);
        }
        hx_km = hx;
        hy_km = hy;
    }
    };
    if (interior) planes(std::false_type{});
    else planes(std::true_type{});
}

}  // namespace
}  // namespace golightly::cuda

#include "cuda_twostep3d.cuh"

namespace golightly::cuda {
namespace {

/// The 3D grid on the device: six fields, three uint16 material maps, the (ca, cb) table,
/// the CPML profiles and the slab psi arrays; launches update_he3 (fused, two buffer sets
/// that alternate: flip() after each step) or update_h3 / update_e3 (in place).
template <class T>
class Bulk3 {
public:
    /// Allocates and uploads everything on `stream`. fused: update_he3 with a second set of
    /// the fields and psi (else the in-place pair). `tune`: the engine's knobs (tuning.hpp:
    /// chunks, tiles, the tensor-copy and two-step switches). Throws RunError for
    /// inconsistent scene data (material maps of the wrong size, indices beyond the table,
    /// PML without a CPML profile).
    void setup(const Scene& sc, cudaStream_t stream, int sm_count, bool fused, const CudaTuning& tune) {
        fused_ = fused;
        for (int a = 0; a < 3; ++a) { g_.bloch[a] = 0; g_.bc[a] = T(1); g_.bs[a] = T(0); }
        tune_ = tune;
        forced_chunk_ = tune.chunk_3d;
        ts_ty_ = sizeof(T) == 4 ? tune.two_step_rows_f32 : 8;
        const std::size_t n = sc.cells();
        const int dims[3] = {sc.nx, sc.ny, sc.nz};
        for (int a = 0; a < 3; ++a) {
            g_.n[a] = dims[a];
            g_.lo[a] = sc.pml_lo[a];
            g_.hi[a] = dims[a] - sc.pml_hi[a];
            g_.w[a] = sc.pml_lo[a] + sc.pml_hi[a];
            if (sc.pml_lo[a] < 0 || sc.pml_hi[a] < 0 || g_.w[a] > dims[a])
                throw RunError(std::string("CUDA engine (3D): PML cells exceed the grid along ") + "xyz"[a]);
            g_.periodic[a] = sc.boundary[a] == BoundaryKind::Periodic;
            g_.pec[a] = sc.boundary[a] == BoundaryKind::Pec;
            g_.pmc[a] = sc.boundary[a] == BoundaryKind::Pmc;
        }
        g_.S = T(sc.courant);
        const int sets = fused_ ? 2 : 1;
        for (int p = 0; p < sets; ++p)
            for (int c = 0; c < 6; ++c) {
                field_[p][c].alloc(n * sizeof(T));
                CUDA_CHECK(cudaMemsetAsync(field_[p][c].template as<void>(), 0, n * sizeof(T), stream));
            }
        upload_materials(sc, stream);
        for (int a = 0; a < 3; ++a) {
            const CpmlAxis& ax = sc.cpml[a];
            const std::size_t na = std::size_t(dims[a]);
            if (g_.w[a] > 0 && (ax.b_e.size() != na || ax.b_h.size() != na))
                throw RunError(std::string("CUDA engine (3D): the ") + "xyz"[a] +
                               " axis has PML cells but no CPML profile (Scene::cpml, build_cpml)");
            const std::vector<double>* src[6] = {&ax.b_e, &ax.c_e, &ax.inv_kappa_e, &ax.b_h, &ax.c_h, &ax.inv_kappa_h};
            for (int q = 0; q < 6; ++q) {
                std::vector<T> v(na, q == 2 || q == 5 ? T(1) : T(0));
                if (src[q]->size() == na)
                    for (std::size_t p = 0; p < na; ++p) v[p] = T((*src[q])[p]);
                upload(prof_[a][q], v, stream);
                g_.prof[a][q] = prof_[a][q].template as<T>();
            }
        }
        // psi per (component, derivative axis) with a nonzero curl term, inside the slabs only.
        static constexpr int kTerm[6][3] = {{0, 1, 1}, {1, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 0}};
        const std::size_t slab[3] = {std::size_t(g_.w[0]) * sc.ny * sc.nz, std::size_t(g_.w[1]) * sc.nx * sc.nz,
                                     std::size_t(g_.w[2]) * sc.nx * sc.ny};
        psi_cells_ = 0;
        for (int c = 0; c < 6; ++c)
            for (int a = 0; a < 3; ++a) {
                if (!kTerm[c][a] || slab[a] == 0) continue;
                for (int p = 0; p < sets; ++p) {
                    psi_[p][c][a].alloc(slab[a] * sizeof(T));
                    CUDA_CHECK(cudaMemsetAsync(psi_[p][c][a].template as<void>(), 0, slab[a] * sizeof(T), stream));
                }
                psi_cells_ += double(slab[a]);
            }
        parity_ = 0;
        point_grid();
        for (int c = 0; c < 3; ++c) { g_.oE[c] = g_.E[c]; g_.oH[c] = g_.H[c]; }
        sm_count_ = std::max(1, sm_count);
        setup_tma();

        chunking(0, sc.nz, g_.k_chunk, chunks_);
        g_.k_lo = 0;
        g_.k_hi = sc.nz;
    }

    /// Uploads the three uint16 maps and the (ca, cb) table (setup and live edits; all
    /// maps are checked before anything is copied, so a refused edit leaves the device as
    /// it was). The buffers are allocated anew: a captured graph holding their addresses
    /// must be rebuilt afterwards. Synchronizes `stream`.
    void upload_materials(const Scene& sc, cudaStream_t stream) {
        const std::size_t n = sc.cells();
        if (sc.table.empty()) throw RunError("CUDA engine (3D): the scene has no material table");
        for (int c = 0; c < 3; ++c) {
            const auto& m = sc.material_index[c];
            if (m.size() != n)
                throw RunError(std::string("CUDA engine (3D): material_index of ") + component_name(Component(c)) +
                               " must hold nx*ny*nz = " + std::to_string(n) + " entries, has " + std::to_string(m.size()));
            for (std::size_t q = 0; q < n; ++q)
                if (m[q] >= sc.table.size())
                    throw RunError(std::string("CUDA engine (3D): material index of ") + component_name(Component(c)) +
                                   " at cell " + std::to_string(q) + " is beyond the table");
        }
        CUDA_CHECK(cudaStreamSynchronize(stream));  // no kernel of earlier steps still reads the old buffers
        // Equal maps (no sub-pixel averaging, or no interface it changed) are stored once:
        // the E kernel's three index loads then hit the same line, 2 B of DRAM per cell
        // instead of 6 (bytes_per_cell).
        shared_mat_ = sc.material_index[1] == sc.material_index[0] && sc.material_index[2] == sc.material_index[0];
        for (int c = 0; c < 3; ++c) {
            if (shared_mat_ && c > 0) {
                mat_[c].alloc(0);
                g_.mat[c] = g_.mat[0];
                continue;
            }
            upload(mat_[c], sc.material_index[c], stream);
            g_.mat[c] = mat_[c].template as<std::uint16_t>();
        }
        std::vector<Coef2<T>> table;
        std::vector<double> eps;
        for (const EUpdateCoeffs& e : sc.table) {
            table.push_back({T(e.ca), T(e.cb)});
            eps.push_back(e.eps_r);
        }
        upload(table_, table, stream);
        upload(eps_, eps, stream);
        g_.table = table_.template as<Coef2<T>>();
        if (tma_ && !encode_mat_maps()) throw RunError("CUDA engine (3D): cuTensorMapEncodeTiled refused a material map");
        // The host vectors must outlive the asynchronous copies: wait here (setup only).
        CUDA_CHECK(cudaStreamSynchronize(stream));
    }

    bool fused() const { return fused_; }
    int nz() const { return g_.n[2]; }  ///< planes along z (the scene's nz)
    std::int64_t plane_cells() const { return std::int64_t(g_.n[0]) * g_.n[1]; }  ///< cells of one z plane (nx ny)

    /// In-place pair (not fused): H of every plane, then E.
    void update_h(cudaStream_t stream) const {
        launch_range(false, stream, 0, g_.n[2]);
    }
    void update_e(cudaStream_t stream) const {
        launch_range(true, stream, 0, g_.n[2]);
    }
    /// In-place pair over the planes [k_lo, k_hi) only (split steps, CudaEngine3D).
    void update_h_range(cudaStream_t stream, int k_lo, int k_hi) const { launch_range(false, stream, k_lo, k_hi); }
    void update_e_range(cudaStream_t stream, int k_lo, int k_hi) const { launch_range(true, stream, k_lo, k_hi); }
    /// Fused: H and E of the planes [k_lo, k_hi) from the current set into the other one.
    /// The step is complete once every plane has been updated (any order, any streams);
    /// then flip().
    void update_fused(cudaStream_t stream, int k_lo, int k_hi) const {
        if (k_lo >= k_hi) return;
        DevGrid3<T> g = output_grid();
        g.k_lo = k_lo;
        g.k_hi = k_hi;
        int chunks = 1;
        chunking(k_lo, k_hi, g.k_chunk, chunks);
        if (tma_) {
            launch_tma(g, chunks, stream);
        } else {
            update_he3<T, 8, 4><<<fused_blocks(8, chunks), dim3(32, 8), 0, stream>>>(g);
        }
        CUDA_CHECK_LAUNCH();
    }
    /// Why update_he3_two (cuda_twostep3d.cuh) cannot run on this grid ("" when it can):
    /// GOLIGHTLY_CUDA3D_TWO_STEP=0, float64, update_he3_tma not running (tma_refusal), or z
    /// periodic. The engine adds its own conditions (device memory).
    std::string two_step_refusal() const {
        if (tune_.two_step_3d == KnobSwitch::Off) return "GOLIGHTLY_CUDA3D_TWO_STEP=0";
        if (!tma_) return "the tensor-copy kernel update_he3_tma does not run";
        if (g_.periodic[2]) return "z is periodic";
        return "";
    }
    /// Device bytes setup_two_step allocates: the capture set (six fields), with dispersive
    /// cells the three correction arrays, and the flags.
    std::size_t two_step_device_bytes(bool dispersive) const {
        const std::size_t n = std::size_t(g_.n[0]) * g_.n[1] * g_.n[2];
        return (dispersive ? 9 : 6) * n * sizeof(T) + std::size_t(ts_tiles_x()) * ts_tiles_y() * g_.n[2];
    }
    /// Sets up update_he3_two (call after setup, where two_step_refusal() is ""): its tensor
    /// maps, the capture set, and the tile-plane flags (set_captured_cells) of `sample_cells`
    /// (flat cell indices the monitors, the tensor couplings and the dispersive cells read
    /// from the capture set) and of `dispersive_cells` (flat cells of any E component with
    /// poles: the first step's correction, TwoStepCapture::corr, allocated here when there
    /// are any). Throws RunError where the driver refuses a tensor map.
    void setup_two_step(const std::vector<std::int64_t>& sample_cells, const std::vector<std::int64_t>& dispersive_cells,
                        cudaStream_t stream) {
        const std::size_t n = std::size_t(g_.n[0]) * g_.n[1] * g_.n[2];
        for (int c = 0; c < 6; ++c) {
            capture_[c].alloc(n * sizeof(T));
            CUDA_CHECK(cudaMemsetAsync(capture_[c].template as<void>(), 0, n * sizeof(T), stream));
        }
        for (DevBuf& c : corr_) {
            c.alloc(dispersive_cells.empty() ? 0 : n * sizeof(T));
            if (!dispersive_cells.empty()) CUDA_CHECK(cudaMemsetAsync(c.template as<void>(), 0, n * sizeof(T), stream));
        }
        set_captured_cells(sample_cells, dispersive_cells, stream);
        ts_chunk_ = tune_.two_step_chunk_3d;
        const cuuint64_t dims[3] = {cuuint64_t(g_.n[0]), cuuint64_t(g_.n[1]), cuuint64_t(g_.n[2])};
        const cuuint64_t strides[2] = {cuuint64_t(g_.n[0]) * sizeof(T), cuuint64_t(g_.n[0]) * g_.n[1] * sizeof(T)};
        const cuuint32_t unit[3] = {1, 1, 1};
        for (int p = 0; p < 2; ++p)
            for (int c = 0; c < 6; ++c)
                if (const cuuint32_t box[3] = {kTsW, cuuint32_t(ts_field_rows(c)), 1};
                    tma_encode_(&ts_maps_[p].f[c], sizeof(T) == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 3,
                                field_[p][c].template as<void>(), dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
                    throw RunError("CUDA engine (3D): cuTensorMapEncodeTiled refused a field's map for two steps per pass");
        ts_with_rows([&](auto ty_c) {
            constexpr int TY = decltype(ty_c)::value;
            for (auto* kernel : {update_he3_two<T, TY, kTsStages, false>, update_he3_two<T, TY, kTsStages, true>})
                CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                ts_smem_bytes<T, TY, kTsStages>()));
        });
        two_ = true;
        if (!encode_mat_maps()) {
            two_ = false;
            throw RunError("CUDA engine (3D): cuTensorMapEncodeTiled refused a material map for two steps per pass");
        }
        CUDA_CHECK(cudaStreamSynchronize(stream));  // the flags' host vector
    }
    /// The tile-plane flags of update_he3_two (TwoStepCapture): kTsCaptured (owned E1, H1
    /// into the capture set) where the tile-plane owns any of `cells`; kTsCapturedE (owned E1)
    /// where it owns any of `dispersive_cells`, and kTsDispersive (E1 -= corr in phase B) where
    /// its compute window (x from i0 - 1 to i0 + 32, y from j0 - 1 to j0 + TY, the cells whose
    /// E1 the pass forms) holds any of them (flat indices; others ignored). Called by
    /// setup_two_step and on a live edit that moves the tensor sites. Synchronizes `stream`
    /// (the flags' host vector).
    void set_captured_cells(const std::vector<std::int64_t>& cells, const std::vector<std::int64_t>& dispersive_cells,
                            cudaStream_t stream) {
        const std::size_t n = std::size_t(g_.n[0]) * g_.n[1] * g_.n[2];
        const int tx = ts_tiles_x(), ty = ts_tiles_y();
        std::vector<std::uint8_t> flags(std::size_t(tx) * ty * g_.n[2], 0);
        const std::size_t plane = std::size_t(g_.n[0]) * g_.n[1];
        auto mark = [&](std::int64_t c, std::uint8_t bit) {
            if (c < 0 || std::size_t(c) >= n) return;
            const std::size_t k = std::size_t(c) / plane, r = std::size_t(c) % plane;
            const int j = int(r / g_.n[0]), i = int(r % g_.n[0]);
            const bool window = bit == kTsDispersive;
            // Tiles (bx, by) whose window holds (i, j): i0 - 1 <= i <= i0 + 32, j0 - 1 <= j <= j0 + TY.
            const int bx_lo = window ? std::max(0, (i - 32 + kTsTx - 1) / kTsTx) : i / kTsTx;
            const int bx_hi = window ? std::min(tx - 1, (i + 1) / kTsTx) : i / kTsTx;
            const int by_lo = window ? std::max(0, (j - ts_ty_ + ts_ty_ - 1) / ts_ty_) : j / ts_ty_;
            const int by_hi = window ? std::min(ty - 1, (j + 1) / ts_ty_) : j / ts_ty_;
            for (int by = by_lo; by <= by_hi; ++by)
                for (int bx = bx_lo; bx <= bx_hi; ++bx) {
                    flags[(k * ty + std::size_t(by)) * tx + std::size_t(bx)] |= bit;
                }
        };
        for (const std::int64_t c : cells) mark(c, kTsCaptured);
        for (const std::int64_t c : dispersive_cells) {
            mark(c, kTsCapturedE);
            mark(c, kTsDispersive);
        }
        captured_tiles_ = 0;
        captured_e_tiles_ = 0;
        dispersive_tiles_ = 0;
        for (const std::uint8_t f : flags) {
            captured_tiles_ += (f & kTsCaptured) ? 1 : 0;
            captured_e_tiles_ += (f & kTsCapturedE) && !(f & kTsCaptured) ? 1 : 0;
            dispersive_tiles_ += (f & kTsDispersive) ? 1 : 0;
        }
        upload(capture_flags_, flags, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    bool two_step() const { return two_; }
    /// Back to one step per pass (split steps):
    /// frees the capture set.
    void drop_two_step() {
        two_ = false;
        for (DevBuf& c : capture_) c.alloc(0);
        for (DevBuf& c : corr_) c.alloc(0);
        capture_flags_.alloc(0);
        captured_tiles_ = 0;
        captured_e_tiles_ = 0;
        dispersive_tiles_ = 0;
    }
    /// Two steps of the bulk from the current set into the other one (update_he3_two), the
    /// owned E1, H1 of the flagged tile-planes into the capture set; then flip().
    void update_two(cudaStream_t stream) const {
        DevGrid3<T> g = output_grid();
        g.k_lo = 0;
        g.k_hi = g_.n[2];
        const TwoStepChunks chunks = ts_chunks();
        const dim3 grid(unsigned(ts_tiles_x()), unsigned(ts_tiles_y()), unsigned(chunks.first[3]));
        const TwoStepCapture<T> cap = capture();
        ts_with_rows([&](auto ty_c) {
            constexpr int TY = decltype(ty_c)::value;
            auto* kernel = cap.corr[0] ? update_he3_two<T, TY, kTsStages, true> : update_he3_two<T, TY, kTsStages, false>;
            kernel<<<grid, ts_threads<TY>(), ts_smem_bytes<T, TY, kTsStages>(), stream>>>(g, ts_maps_[parity_], cap, chunks);
            CUDA_CHECK_LAUNCH();
        });
    }
    /// update_he3_two's z chunks, at most kTsMaxChunk planes each (ts_chunk_, 48, or
    /// GOLIGHTLY_CUDA3D_CHUNK): the planes whose chunks can run the inner loop, [za, zb) with
    /// za = max(lo_z + 2, 3) and zb = min(hi_z - 1, nz - 2) (a chunk's halo planes k0 - 2 .. k1
    /// computed outside the CPML slabs and off the faces), form a segment of their own, where
    /// it holds at least 8 planes; the planes below and above it are split apart.
    /// (H200, 512^3 float32 with 16-cell CPML: 68.2 Gcells/s with this split and the capture mask
    /// by ballot, against 62.0 with even chunks from k = 0, whose first and last chunks sent
    /// every block of theirs to the general loop.)
    TwoStepChunks ts_chunks() const {
        const int nz = g_.n[2];
        const int chunk = std::max(1, std::min(kTsMaxChunk, forced_chunk_ > 0 ? forced_chunk_ : ts_chunk_));
        const int za = std::max(g_.lo[2] + 2, 3), zb = std::min(g_.hi[2] - 1, nz - 2);
        TwoStepChunks c{};
        if (zb - za >= 8) {
            c.edge[1] = za;
            c.edge[2] = zb;
        }
        c.edge[3] = nz;
        for (int s = 0; s < 3; ++s) c.first[s + 1] = c.first[s] + (c.edge[s + 1] - c.edge[s] + chunk - 1) / chunk;
        return c;
    }
    /// The current set as input and the other set as output (E_out, H_out, psi_out).
    DevGrid3<T> output_grid() const {
        DevGrid3<T> g = g_;
        const int q = parity_ ^ 1;
        for (int c = 0; c < 3; ++c) {
            g.E_out[c] = field_[q][c].template as<T>();
            g.H_out[c] = field_[q][c + 3].template as<T>();
        }
        for (int c = 0; c < 6; ++c)
            for (int a = 0; a < 3; ++a) g.psi_out[c][a] = psi_[q][c][a].template as<T>();
        return g;
    }
    /// Where update_two writes the fields after its first step (flags null before setup_two_step).
    TwoStepCapture<T> capture() const {
        TwoStepCapture<T> c{};
        for (int q = 0; q < 6; ++q) c.f[q] = capture_[q].template as<T>();
        T* corr[3];
        corrections(corr);
        for (int q = 0; q < 3; ++q) c.corr[q] = corr[q];
        c.flags = two_ ? capture_flags_.template as<std::uint8_t>() : nullptr;
        c.tiles_x = ts_tiles_x();
        c.tiles_y = ts_tiles_y();
        c.ty = ts_ty_;
        return c;
    }
    FieldArrays<T> capture_fields() const {
        FieldArrays<T> f{};
        for (int q = 0; q < 6; ++q) f.f[q] = capture_[q].template as<T>();
        return f;
    }
    /// The first step's dispersive corrections (disp_advance_corr writes them; null where the
    /// scene has no dispersive cells or two steps per pass do not run).
    void corrections(T* (&corr)[3]) const {
        for (int q = 0; q < 3; ++q) corr[q] = two_ && corr_[q].bytes() ? corr_[q].template as<T>() : nullptr;
    }
    /// Capture writes per step (6 s per captured cell per pass of two steps, 3 s where E1
    /// alone is captured) and the reads of the dispersive corrections (3 s per window cell,
    /// 34 x (TY + 2), of a kTsDispersive tile-plane per pass).
    double capture_bytes_per_step() const {
        if (!two_) return 0.0;
        return sizeof(T) * (3.0 * double(captured_tiles_) + 1.5 * double(captured_e_tiles_)) * kTsTx * ts_ty_ +
               1.5 * sizeof(T) * double(dispersive_tiles_) * 34.0 * (ts_ty_ + 2);
    }

    /// True when update_fused runs update_he3_tma (design 4).
    bool tma() const { return tma_; }
    /// Fused: the output set of the last step becomes the current one.
    void flip() {
        parity_ ^= 1;
        point_grid();
    }
    int parity() const { return parity_; }
    /// The CPML psi of (component c, derivative axis a) in the current set (nullptr: none)
    /// and its bytes (the halo exchange of the distributed engine's pairs, FieldStorage::psi).
    T* psi_current(int c, int a) const { return psi_[parity_][c][a].template as<T>(); }
    std::size_t psi_bytes(int c, int a) const { return psi_[parity_][c][a].bytes(); }

    /// The current set (E^n, H^{n-1/2} between steps).
    const DevGrid3<T>& grid() const { return g_; }
    /// Complex fields (DevGrid3 "Complex fields"; in place only): this bulk steps copy `self`
    /// (0 real, 1 imaginary) and reads `other`'s fields across the wraps of the axes with a
    /// Bloch phase (phase[a] = Scene::bloch_phase, radians). After both copies' setup().
    void set_bloch_partner(const Bulk3& other, const double phase[3], int self) {
        if (fused_ || other.fused_) throw RunError("CUDA engine (3D): complex fields need the in-place update");
        const double sg = self == 0 ? -1.0 : 1.0;
        for (int a = 0; a < 3; ++a) {
            g_.bloch[a] = phase[a] != 0 ? 1 : 0;
            g_.bc[a] = T(std::cos(phase[a]));
            g_.bs[a] = T(sg * std::sin(phase[a]));
        }
        for (int c = 0; c < 3; ++c) {
            g_.oE[c] = other.field(Component(c));
            g_.oH[c] = other.field(Component(c + 3));
        }
    }
    T* field(Component c) const { return field_[parity_][int(c)].template as<T>(); }
    const double* eps_table() const { return eps_.template as<double>(); }
    FieldArrays<T> fields() const { return fields_of_set(parity_); }
    /// Fused: the other set; right after flip() it holds the step's input (E^n, H^{n-1/2}),
    /// which nothing writes until the next update_fused.
    FieldArrays<T> previous_fields() const { return fields_of_set(parity_ ^ 1); }
    FieldArrays<T> fields_of_set(int p) const {
        FieldArrays<T> f{};
        for (int c = 0; c < 6; ++c) f.f[c] = field_[p][c].template as<T>();
        return f;
    }

    /// Model of the bulk kernels (file comment): 12 s + 6 B per cell fused, 18 s + 6 B in
    /// place; 4 B less when the three material maps are one (upload_materials).
    double bytes_per_cell() const {
        if (two_) return 6.0 * sizeof(T) + (shared_mat_ ? 1.0 : 3.0);  // two steps per pass: half of 12 s + 2 or 6 B
        return (fused_ ? 12.0 : 18.0) * sizeof(T) + (shared_mat_ ? 2.0 : 6.0);
    }
    /// True when Ex, Ey and Ez share one material map on the device.
    bool shared_materials() const { return shared_mat_; }
    /// CPML psi traffic per step: each psi value read and written once (2 s).
    double cpml_bytes_per_step() const { return (two_ ? 1.0 : 2.0) * sizeof(T) * psi_cells_; }  // two steps: once per pass

private:
    void launch_range(bool e, cudaStream_t stream, int k_lo, int k_hi) const {
        if (k_lo >= k_hi) return;
        DevGrid3<T> g = g_;
        g.k_lo = k_lo;
        g.k_hi = k_hi;
        int chunks = 1;
        chunking(k_lo, k_hi, g.k_chunk, chunks);
        if (e) update_e3<T><<<blocks(chunks), dim3(kBulk3X, kBulk3Y), 0, stream>>>(g);
        else update_h3<T><<<blocks(chunks), dim3(kBulk3X, kBulk3Y), 0, stream>>>(g);
        CUDA_CHECK_LAUNCH();
    }
public:
    /// Why update_he3_tma cannot run for a grid of nx cells per row with these x / y faces on
    /// the current device ("" when it can; fn receives cuTensorMapEncodeTiled): a compute
    /// capability below 9.0, x or y periodic (the tensor unit fills zeros outside the grid, it
    /// does not wrap), nx not a multiple of 8 (tensor map rows of 16 bytes, uint16 maps
    /// included), a driver without cuTensorMapEncodeTiled, or GOLIGHTLY_CUDA3D_TMA=0 (`tma`).
    static std::string tma_refusal(int nx, bool periodic_x, bool periodic_y, KnobSwitch tma, void** fn = nullptr) {
        if (tma == KnobSwitch::Off) return "GOLIGHTLY_CUDA3D_TMA=0";
        int dev = 0, major = 0;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
        if (major < 9) return "the device's compute capability is below 9.0";
        if (periodic_x || periodic_y) return "x or y is periodic";
        if (nx % 8 != 0) return "nx = " + std::to_string(nx) + " is not a multiple of 8 (tensor map rows of 16 bytes)";
        void* f = nullptr;
        cudaDriverEntryPointQueryResult q{};
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess || !f) {
            (void)cudaGetLastError();
            return "the driver has no cuTensorMapEncodeTiled";
        }
        if (fn) *fn = f;
        return "";
    }

private:
    /// Fused only: update_he3_tma where tma_refusal finds nothing against it. Encodes one map
    /// per field and buffer set. GOLIGHTLY_CUDA3D_TMA=0 keeps update_he3; =require throws
    /// RunError (with the reason) where the kernel does not apply (tests).
    void setup_tma() {
        tma_ = false;
        if (!fused_) return;
        const bool require = tune_.tma_3d == KnobSwitch::Require;
        auto refuse = [&](const std::string& why) {
            if (require) throw RunError("CUDA engine (3D): GOLIGHTLY_CUDA3D_TMA=require, but " + why);
        };
        void* fn = nullptr;
        const std::string why = tma_refusal(g_.n[0], g_.periodic[0], g_.periodic[1], tune_.tma_3d, &fn);
        if (!why.empty()) return refuse(why);
        auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
        const cuuint64_t dims[3] = {cuuint64_t(g_.n[0]), cuuint64_t(g_.n[1]), cuuint64_t(g_.n[2])};
        const cuuint64_t strides[2] = {cuuint64_t(g_.n[0]) * sizeof(T), cuuint64_t(g_.n[0]) * g_.n[1] * sizeof(T)};
        tma_cfg_ = tune_.tma_cfg_3d;
        if (tma_cfg_ < 0 || tma_cfg_ >= kTmaConfigs) tma_cfg_ = 0;
        const int rows = kTmaRows[tma_cfg_];
        const cuuint32_t unit[3] = {1, 1, 1};
        for (int p = 0; p < 2; ++p)
            for (int c = 0; c < 6; ++c) {
                const cuuint32_t box[3] = {cuuint32_t(tma_box_w(c)), cuuint32_t(rows + (c == 0 || c == 2 ? 2 : 1)), 1};
                if (encode(&tma_maps_[p].f[c], sizeof(T) == 4 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32 : CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 3,
                           field_[p][c].template as<void>(), dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                           CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
                    return refuse("cuTensorMapEncodeTiled refused a field's map");
            }
        tma_attributes<8, 4>();
        tma_attributes<16, 4>();
        tma_encode_ = encode;
        if (!encode_mat_maps()) return refuse("cuTensorMapEncodeTiled refused a material map's map");
        tma_chunk_ = tune_.tma_chunk_3d;
        // psi of the next plane prefetched into L2 (GOLIGHTLY_CUDA3D_PSI_AHEAD, default 1: faster
        // than none or more planes, L1 no faster; docs/performance.md "Engine knobs").
        g_.psi_ahead = tune_.psi_ahead_3d;
        // Two barriers per plane in update_he3_two (GOLIGHTLY_CUDA3D_TWO_STEP_SKEW): 0 none,
        // 1 the inner blocks, 2 (default) also the blocks at the slabs or faces of one axis
        // (two barriers ran faster than three).
        g_.two_step_skew = tune_.two_step_skew_3d;
        tma_ = true;
    }
    /// The material maps' tensor maps (setup_tma, and upload_materials, which allocates the
    /// maps anew). False where the driver refuses one.
    bool encode_mat_maps() {
        const int rows = kTmaRows[tma_cfg_];
        const cuuint64_t dims[3] = {cuuint64_t(g_.n[0]), cuuint64_t(g_.n[1]), cuuint64_t(g_.n[2])};
        const cuuint64_t strides[2] = {cuuint64_t(g_.n[0]) * 2, cuuint64_t(g_.n[0]) * g_.n[1] * 2};
        const cuuint32_t box[3] = {kTmaTx, cuuint32_t(rows), 1}, unit[3] = {1, 1, 1};
        const int n_mat = shared_mat_ ? 1 : 3;
        for (int p = 0; p < 2; ++p) {
            tma_maps_[p].n_mat = n_mat;
            for (int c = 0; c < n_mat; ++c)
                if (tma_encode_(&tma_maps_[p].mat[c], CU_TENSOR_MAP_DATA_TYPE_UINT16, 3,
                                const_cast<std::uint16_t*>(g_.mat[c]), dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                                CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
                    return false;
        }
        if (two_) {
            const cuuint32_t tbox[3] = {kTsWm, cuuint32_t(ts_mat_rows()), 1};
            for (int p = 0; p < 2; ++p) {
                ts_maps_[p].n_mat = n_mat;
                // The stage barrier's byte count holds the maps' boxes: here, with n_mat, which a
                // live edit (upload_materials) can change.
                std::uint32_t bytes = std::uint32_t(n_mat * kTsWm * ts_mat_rows() * 2);
                for (int c = 0; c < 6; ++c) bytes += std::uint32_t(kTsW * ts_field_rows(c) * sizeof(T));
                ts_maps_[p].bytes = bytes;
                for (int c = 0; c < n_mat; ++c)
                    if (tma_encode_(&ts_maps_[p].mat[c], CU_TENSOR_MAP_DATA_TYPE_UINT16, 3,
                                    const_cast<std::uint16_t*>(g_.mat[c]), dims, strides, tbox, unit,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
                        return false;
            }
        }
        return true;
    }
    static constexpr int kTmaConfigs = 2;
    static constexpr int kTmaRows[kTmaConfigs] = {8, 16};
    template <int ROWS, int STAGES>
    static void tma_attributes() {
        CUDA_CHECK(cudaFuncSetAttribute(update_he3_tma<T, ROWS, STAGES>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        tma_smem_bytes<T, ROWS, STAGES>()));
    }
    template <int ROWS, int STAGES>
    void launch_tma_cfg(const DevGrid3<T>& g, int chunks, cudaStream_t stream) const {
        const dim3 grid(unsigned((g.n[0] + kTmaTx - 1) / kTmaTx), unsigned((g.n[1] + ROWS - 1) / ROWS), unsigned(chunks));
        update_he3_tma<T, ROWS, STAGES><<<grid, dim3(kTmaTx, ROWS + 2), tma_smem_bytes<T, ROWS, STAGES>(), stream>>>(
            g, tma_maps_[parity_]);
    }
    void launch_tma(const DevGrid3<T>& g, int chunks, cudaStream_t stream) const {
        if (tma_cfg_ == 1) launch_tma_cfg<16, 4>(g, chunks, stream);
        else launch_tma_cfg<8, 4>(g, chunks, stream);
    }
    void point_grid() {
        for (int c = 0; c < 3; ++c) {
            g_.E[c] = field_[parity_][c].template as<T>();
            g_.H[c] = field_[parity_][c + 3].template as<T>();
        }
        for (int c = 0; c < 6; ++c)
            for (int a = 0; a < 3; ++a) g_.psi[c][a] = psi_[parity_][c][a].template as<T>();
    }
    /// z chunks over [k_lo, k_hi). In place: 16 planes per chunk, so that the last wave of
    /// blocks is short (H200, 512^3 float32: 40.6 Gcells/s with 16 planes, 37.5 with the
    /// ~100 of the fused rule; 1024^3: 43.9 against 37.9; 256^3 unchanged). Fused: enough
    /// threads for about 4 x 2048 per SM, chunks of at least 16 planes (each chunk
    /// recomputes the H of the plane below it).
    void chunking(int k_lo, int k_hi, int& k_chunk, int& chunks) const {
        const int nz = std::max(1, k_hi - k_lo);
        if (fused_ && tma_) {
            k_chunk = tma_chunk_;  // 2 planes of every chunk are extra loads
        } else if (fused_) {
            const std::size_t columns = std::size_t(g_.n[0]) * g_.n[1];
            const std::size_t want = std::size_t(sm_count_) * 8192;
            int c = int(std::min<std::size_t>((want + columns - 1) / columns, std::size_t(std::max(1, nz / 16))));
            c = std::max(1, std::min(c, 65535));
            k_chunk = (nz + c - 1) / c;
        } else {
            k_chunk = std::max(16, (nz + 65534) / 65535);  // gridDim.z <= 65535
        }
        if (forced_chunk_ > 0) k_chunk = std::min(nz, forced_chunk_);  // tests: chunk edges everywhere
        chunks = (nz + k_chunk - 1) / k_chunk;
    }
    /// update_he3's grid: blocks of 32 x rows threads own 31 x (rows - 1) columns.
    dim3 fused_blocks(int rows, int chunks) const {
        return dim3(unsigned((g_.n[0] + 30) / 31), unsigned((g_.n[1] + rows - 2) / (rows - 1)), unsigned(chunks));
    }
    dim3 blocks(int chunks) const {
        return dim3(unsigned((g_.n[0] + kBulk3X - 1) / kBulk3X), unsigned((g_.n[1] + kBulk3Y - 1) / kBulk3Y), unsigned(chunks));
    }

    DevGrid3<T> g_{};
    DevBuf field_[2][6], mat_[3], table_, eps_;
    DevBuf prof_[3][6];
    DevBuf psi_[2][6][3];
    double psi_cells_ = 0;
    int chunks_ = 1;
    int sm_count_ = 1;
    CudaTuning tune_;       // the engine's knobs (setup)
    int forced_chunk_ = 0;  // GOLIGHTLY_CUDA3D_CHUNK: planes per z chunk (tests); 0: chosen here
    int parity_ = 0;
    bool fused_ = true;
    bool tma_ = false;            // update_fused runs update_he3_tma (setup_tma)
    // Planes per z chunk of update_he3_tma and its tile (GOLIGHTLY_CUDA3D_TMA_CHUNK, _TMA_CFG:
    // 0 = 32 x 8 owned columns per block, 4 stages, 4 blocks per SM; 1 = 32 x 16, 2 blocks per
    // SM). The defaults ran fastest: docs/performance.md "Engine knobs" has the figures.
    int tma_chunk_ = 24;
    int tma_cfg_ = 0;
    TmaFieldMaps tma_maps_[2];    // per buffer set: the input maps of a step from that set
    PFN_cuTensorMapEncodeTiled_v12000 tma_encode_ = nullptr;
    bool shared_mat_ = false;  // Ex, Ey, Ez read one map (upload_materials)
    // update_he3_two (setup_two_step): 32 x ts_ty_ owned columns, kTsStages planes in flight.
    // ts_ty_: float32 7 (GOLIGHTLY_CUDA3D_TWO_STEP_ROWS=8: 8; 7 rows fit 11 warps and 80
    // registers without spills, 8 rows take 13 warps and spill), float64 8.
    // Stages: 5 (float32 7 rows: 105 KB of shared memory per block, still two per SM; float64:
    // 207 KB, one). Both faster than the alternatives: docs/performance.md "Engine knobs".
    static constexpr int kTsStages = 5;
    int ts_ty_ = 8;  // setup: CudaTuning::two_step_rows_f32 for float32
    /// Box rows of field c (Ex, Ey, Ez, Hx, Hy, Hz): Ey and H are read in the window rows j0 - 2
    /// .. j0 + TY only (TY + 3 rows), Ex and Ez also in row j0 + TY + 1 (the y differences of
    /// H1). The material boxes: rows j0 - 1 .. j0 + TY (the cells of phase B, TY + 2 rows).
    int ts_field_rows(int c) const { return c == 0 || c == 2 ? ts_ty_ + 4 : ts_ty_ + 3; }
    int ts_mat_rows() const { return ts_ty_ + 2; }
    /// Calls f(std::integral_constant<int, ts_ty_>).
    template <class F> void ts_with_rows(F&& f) const {
        if constexpr (sizeof(T) == 4)
            if (ts_ty_ == 7) return f(std::integral_constant<int, 7>{});
        f(std::integral_constant<int, 8>{});
    }
    int ts_tiles_x() const { return (g_.n[0] + kTsTx - 1) / kTsTx; }
    int ts_tiles_y() const { return (g_.n[1] + ts_ty_ - 1) / ts_ty_; }
    bool two_ = false;
    // Planes per z chunk (GOLIGHTLY_CUDA3D_TWO_STEP_CHUNK; at most kTsMaxChunk): 48 ran fastest
    // of 24 to 64 (docs/performance.md "Engine knobs").
    int ts_chunk_ = 48;
    TwoStepMaps ts_maps_[2];
    DevBuf capture_[6], capture_flags_;
    DevBuf corr_[3];  // TwoStepCapture::corr (dispersive scenes)
    double captured_tiles_ = 0;    // tile-planes flagged kTsCaptured
    double captured_e_tiles_ = 0;  // flagged kTsCapturedE and not kTsCaptured
    double dispersive_tiles_ = 0;  // flagged kTsDispersive
};

}  // namespace
}  // namespace golightly::cuda
