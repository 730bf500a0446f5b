// GoLightly CUDA backend, 2D: two Yee steps per pass over the grid (temporal blocking of
// depth 2), the default bulk update of the 2D engine where it applies (CudaEngine picks it:
// see two_step_refusal in cuda_engine.cu; GOLIGHTLY_CUDA_TWO_STEP=0 opts out, =require
// throws where it does not apply).
//
// Why: one step per pass is two passes (tmz_h_update, tmz_e_update) that move 9 s + 2 B per
// cell update (TMz; cuda_bulk.cuh), and they run at about 0.95 of the copy bandwidth on an
// H200 (docs/performance.md), so only fewer bytes can make the step faster. A pass of this
// kernel reads every field and the material map(s) once and writes every field once for two
// updates: (6 s + 2 B) / 2 per cell update in TMz, (6 s + 4 B) / 2 in TEz, plus the CPML psi
// of the slab cells read and written once per pass (s per psi value and step).
//
// Design (update_two2d): a block owns a tile of kTs2X x TY cells (i0 = kTs2X bx, j0 = TY by)
// and loads the box i0 - 2 .. i0 + kTs2X + 1, j0 - 2 .. j0 + TY + 1 of the three fields into
// shared memory (cells outside the grid read 0, which is what the one-step kernels read
// beyond a face that is not periodic). Then, in place in shared memory (a, b the box
// coordinates, a = i - i0 + 2):
//   H1 = H^{n+1/2}  a in [0, X + 3), b in [0, TY + 3)   (needs E^n at +1)
//   E1 = E^{n+1}    a in [1, X + 3), b in [1, TY + 3)   (needs H1 at -1)
//   H2 = H^{n+3/2}  a in [1, X + 2), b in [1, TY + 2)   (needs E1 at +1)
//   E2 = E^{n+2}    the owned cells a in [2, X + 2), b in [2, TY + 2)
// and the owned H2, E2 (and psi) go to the other buffer set (input -> output: the halo cells
// of a tile are the owned cells of its neighbours, which must not change while it reads
// them). The arithmetic of every cell is the one-step kernels' (cuda_bulk.cuh), in the same
// order. Tiles whose box lies inside the CPML-free interior, away from the faces, run the
// kernel without CPML, face and zeroing code (EDGE = false, a 2D launch over the interior
// tile rectangle); the others (EDGE = true, a launch over the list of edge tiles) keep the
// CPML psi of their box in shared memory between the two steps. The engine refuses two
// steps per pass where 1/kappa is not 1 outside the slabs (the interior tiles skip it).
//
// Between the two steps, exactly as one step per pass orders them:
// - H sources of step k (t = n dt) are added to H1, E sources of step k (t = (n + 1/2) dt)
//   to E1 and H sources of step k + 1 to H2, inside the pass, at every box cell they hit
//   (halo cells included, so that the neighbours' updates see them): per-tile lists
//   (TwoStep2D::setup, a source cell in the boxes of up to four tiles). The E sources of
//   step k + 1 touch E2 only and run after the pass (Sources::after_e).
// - Dispersive cells (multi-pole ADE): the poles advance from E^n before the pass
//   (Dispersion::before_e, dP), and the pass subtracts weight cb / S dP from E1 at every
//   dispersive cell of the box (per-tile lists as for the sources; before the E sources, the
//   same expression as disp_correct). The owner of a dispersive cell writes its E1 to the
//   capture set; after the pass the second step's poles advance from it and correct E2
//   (Dispersion::after_e_from), before its E sources. Where another pass follows in the same
//   run of steps, the E sources come first and one kernel corrects E2 and advances the poles
//   on from it for the next pass (Dispersion::step_and_advance: the pole state is read and
//   written once for two pole steps; the correction depends on E1 only, so it commutes with
//   the sources up to rounding).
// - Monitors of step k read a capture set: the owned E1 and H1 (after their sources) of
//   every tile that holds a monitor sample or a time probe cell, written
//   by the pass into full-size arrays; the monitors then sample the capture set (rebind),
//   so a DFT sees every step.
// Not supported (one step per pass runs, kernel() says so, =require names the reason):
// periodic / Bloch axes and complex fields, Mur walls, TF/SF, tensor couplings.
//
// Traffic per cell update (model, DRAM bytes): (6 s + 2 B) / 2 TMz, (6 s + 4 B) / 2 TEz, the
// box halo re-read from L2; CPML s per psi value; the capture writes (3 s per captured cell
// per pass); per dispersive cell of a box its list entry, coef and dP (16 B + 2 s per pass),
// and the pole kernels (cuda_dispersion.cuh).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_bulk.cuh"
#include "cuda_dispersion.cuh"  // Dispersion (the lists), DispDev
#include "cuda_sources.cuh"     // DevWaveform, waveform_value

namespace golightly::cuda {
namespace {

constexpr int kTs2X = 64;        // owned columns of a tile
constexpr int kTs2Threads = 256;  // threads per block
constexpr std::uint8_t kTs2Capture = 1, kTs2Dispersive = 2, kTs2Sources = 4;

template <int TY> __host__ __device__ constexpr int ts2_bw() { return kTs2X + 4; }
template <int TY> __host__ __device__ constexpr int ts2_bh() { return TY + 4; }
template <int TY> __host__ __device__ constexpr int ts2_box() { return ts2_bw<TY>() * ts2_bh<TY>(); }
/// Shared memory: three fields of the box, and (EDGE) four CPML psi arrays of the box.
template <class T, int TY, bool EDGE> __host__ __device__ constexpr int ts2_smem_bytes() {
    return (EDGE ? 7 : 3) * ts2_box<TY>() * int(sizeof(T));
}

/// One source cell in the box of one tile: the box index b * BW + a, the field slot (0..2),
/// whether it is electric, the source (waveform index) and the weight.
struct Ts2Source {
    double weight;
    int local;
    int slot_electric;  // slot | 4 when electric
    int source;
    int pad;
};

/// One dispersive cell in the box of one tile: the box index, the field slot | list << 2, its
/// entry k in that list (Dispersion: coef[k], dP[k]) and, when the tile owns it, its grid
/// index (else -1) for the capture set.
struct Ts2Disp {
    int local;
    int slot_list;
    int k;
    int owned_cell;
};

template <class T> struct TwoStep2DArgs {
    T* out[3];                        // the output set's fields (slots as DevGrid)
    T *psiH_x, *psiH_y, *psiE_x, *psiE_y;  // the output set's CPML psi
    T* cap[3];                        // the capture set (owned E1, H1 of flagged tiles)
    const Ts2Disp* disp;              // per tile: its entries [disp_first[t], disp_first[t + 1])
    const int* disp_first;
    const T* coef[3];                 // per dispersive list: weight cb / S, and dP of step k
    const T* dP[3];
    const std::uint8_t* flags;        // per tile (by * tiles_x + bx)
    const int* src_first;             // per tile: its entries [src_first[t], src_first[t + 1])
    const Ts2Source* src;
    const DevWaveform* waveforms;
    const int* edge_tiles;            // the EDGE launch's tiles
    int tiles_x, bx0, by0;            // bx0, by0: the interior launch's first tile
    double dt;
    const long long* d_step;
    int k;                            // step offset of the pass's first step
};

/// H of one cell (TMz: Hx, Hy from Ez; TEz: Hz from Ex, Ey) in shared memory. FIRST: the
/// psi come from the input set (and go to the box's psi); else from the box's psi, and the
/// owned ones go to the output set.
template <class T, bool TE, bool EDGE, bool FIRST, int TY>
__device__ __forceinline__ void ts2_h(const DevGrid<T>& g, const TwoStep2DArgs<T>& A, T* s, T* sp, int a, int b, int i,
                                      int j, bool owned) {
    constexpr int BW = ts2_bw<TY>(), BOX = ts2_box<TY>();
    const int c = b * BW + a;
    const int nx = g.nx, ny = g.ny;
    if (!TE) {
        T* sE = s;
        T* sHx = s + BOX;
        T* sHy = s + 2 * BOX;
        const T ez = sE[c];
        const T dy = sE[c + BW] - ez;
        T ty = EDGE ? dy * g.ikh_y[j] : dy;
        if (EDGE && in_slab(j, g.lo_y, g.hi_y, ny)) {
            const std::size_t p = std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
            const T psi = g.bh_y[j] * (FIRST ? g.psiH_y[p] : sp[c]) + g.ch_y[j] * dy;
            if (FIRST) sp[c] = psi; else if (owned) A.psiH_y[p] = psi;
            ty += psi;
        }
        T hx = sHx[c] - g.S * ty;
        if (EDGE && g.pmc_y && j == ny - 1) hx = T(0);
        sHx[c] = hx;
        const T dx = sE[c + 1] - ez;
        T tx = EDGE ? dx * g.ikh_x[i] : dx;
        if (EDGE && in_slab(i, g.lo_x, g.hi_x, nx)) {
            const std::size_t p = std::size_t(j) * (g.lo_x + g.hi_x) + slab_index(i, g.lo_x, g.hi_x, nx);
            const T psi = g.bh_x[i] * (FIRST ? g.psiH_x[p] : sp[BOX + c]) + g.ch_x[i] * dx;
            if (FIRST) sp[BOX + c] = psi; else if (owned) A.psiH_x[p] = psi;
            tx += psi;
        }
        T hy = sHy[c] + g.S * tx;
        if (EDGE && g.pmc_x && i == nx - 1) hy = T(0);
        sHy[c] = hy;
    } else {
        T* sHz = s;
        T* sEx = s + BOX;
        T* sEy = s + 2 * BOX;
        const T ey = sEy[c];
        const T dx = sEy[c + 1] - ey;
        T tx = EDGE ? dx * g.ikh_x[i] : dx;
        if (EDGE && in_slab(i, g.lo_x, g.hi_x, nx)) {
            const std::size_t p = std::size_t(j) * (g.lo_x + g.hi_x) + slab_index(i, g.lo_x, g.hi_x, nx);
            const T psi = g.bh_x[i] * (FIRST ? g.psiH_x[p] : sp[c]) + g.ch_x[i] * dx;
            if (FIRST) sp[c] = psi; else if (owned) A.psiH_x[p] = psi;
            tx += psi;
        }
        const T ex = sEx[c];
        const T dy = sEx[c + BW] - ex;
        T ty = EDGE ? dy * g.ikh_y[j] : dy;
        if (EDGE && in_slab(j, g.lo_y, g.hi_y, ny)) {
            const std::size_t p = std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
            const T psi = g.bh_y[j] * (FIRST ? g.psiH_y[p] : sp[BOX + c]) + g.ch_y[j] * dy;
            if (FIRST) sp[BOX + c] = psi; else if (owned) A.psiH_y[p] = psi;
            ty += psi;
        }
        T hz = sHz[c] - g.S * (tx - ty);
        if (EDGE && ((g.pmc_x && i == nx - 1) || (g.pmc_y && j == ny - 1))) hz = T(0);
        sHz[c] = hz;
    }
}

/// E of one cell (TMz: Ez; TEz: Ex, Ey). FIRST: into shared memory, psi from the input set
/// into the box's psi; else the owned cell's E2
/// (and H2, and psi) into the output set.
template <class T, bool TE, bool EDGE, bool FIRST, int TY>
__device__ __forceinline__ void ts2_e(const DevGrid<T>& g, const TwoStep2DArgs<T>& A, T* s, T* sp, int a, int b, int i,
                                      int j) {
    constexpr int BW = ts2_bw<TY>(), BOX = ts2_box<TY>();
    const int c = b * BW + a;
    const int nx = g.nx, ny = g.ny;
    const std::size_t id = std::size_t(j) * nx + i;
    if (!TE) {
        T* sE = s;
        const T* sHx = s + BOX;
        const T* sHy = s + 2 * BOX;
        const T hx = sHx[c], hy = sHy[c];
        const T dx = hy - sHy[c - 1];
        T tx = EDGE ? dx * g.ike_x[i] : dx;
        if (EDGE && in_slab(i, g.lo_x, g.hi_x, nx)) {
            const std::size_t p = std::size_t(j) * (g.lo_x + g.hi_x) + slab_index(i, g.lo_x, g.hi_x, nx);
            const T psi = g.be_x[i] * (FIRST ? g.psiE_x[p] : sp[2 * BOX + c]) + g.ce_x[i] * dx;
            if (FIRST) sp[2 * BOX + c] = psi; else A.psiE_x[p] = psi;
            tx += psi;
        }
        const T dy = hx - sHx[c - BW];
        T ty = EDGE ? dy * g.ike_y[j] : dy;
        if (EDGE && in_slab(j, g.lo_y, g.hi_y, ny)) {
            const std::size_t p = std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
            const T psi = g.be_y[j] * (FIRST ? g.psiE_y[p] : sp[3 * BOX + c]) + g.ce_y[j] * dy;
            if (FIRST) sp[3 * BOX + c] = psi; else A.psiE_y[p] = psi;
            ty += psi;
        }
        const Coef2<T> m = g.table[g.mat_a[id]];
        T ez = m.ca * sE[c] + m.cb * (tx - ty);
        if (EDGE && ((g.pec_x && i == 0) || (g.pec_y && j == 0))) ez = T(0);
        if (FIRST) {
            sE[c] = ez;
        } else {
            A.out[0][id] = ez;
            A.out[1][id] = hx;
            A.out[2][id] = hy;
        }
    } else {
        const T* sHz = s;
        T* sEx = s + BOX;
        T* sEy = s + 2 * BOX;
        const T hz = sHz[c];
        const T dy = hz - sHz[c - BW];
        T ty = EDGE ? dy * g.ike_y[j] : dy;
        if (EDGE && in_slab(j, g.lo_y, g.hi_y, ny)) {
            const std::size_t p = std::size_t(slab_index(j, g.lo_y, g.hi_y, ny)) * nx + i;
            const T psi = g.be_y[j] * (FIRST ? g.psiE_y[p] : sp[2 * BOX + c]) + g.ce_y[j] * dy;
            if (FIRST) sp[2 * BOX + c] = psi; else A.psiE_y[p] = psi;
            ty += psi;
        }
        const Coef2<T> ma = g.table[g.mat_a[id]];
        T ex = ma.ca * sEx[c] + ma.cb * ty;
        if (EDGE && g.pec_y && j == 0) ex = T(0);
        const T dx = hz - sHz[c - 1];
        T tx = EDGE ? dx * g.ike_x[i] : dx;
        if (EDGE && in_slab(i, g.lo_x, g.hi_x, nx)) {
            const std::size_t p = std::size_t(j) * (g.lo_x + g.hi_x) + slab_index(i, g.lo_x, g.hi_x, nx);
            const T psi = g.be_x[i] * (FIRST ? g.psiE_x[p] : sp[3 * BOX + c]) + g.ce_x[i] * dx;
            if (FIRST) sp[3 * BOX + c] = psi; else A.psiE_x[p] = psi;
            tx += psi;
        }
        const Coef2<T> mb = g.table[g.mat_b[id]];
        T ey = mb.ca * sEy[c] - mb.cb * tx;
        if (EDGE && g.pec_x && i == 0) ey = T(0);
        if (FIRST) {
            sEx[c] = ex;
            sEy[c] = ey;
        } else {
            A.out[0][id] = hz;
            A.out[1][id] = ex;
            A.out[2][id] = ey;
        }
    }
}

/// The tile's sources of one kind at time (step + half) dt, added in shared memory.
template <class T, int TY>
__device__ __forceinline__ void ts2_sources(const TwoStep2DArgs<T>& A, T* s, int first, int last, int electric,
                                            long long step, double half) {
    const double t = (double(step) + half) * A.dt;
    for (int e = first + int(threadIdx.x); e < last; e += kTs2Threads) {
        const Ts2Source q = A.src[e];
        if ((q.slot_electric >> 2) != electric) continue;
        const double v = q.weight * waveform_value(A.waveforms[q.source], t);
        atomicAdd(s + (q.slot_electric & 3) * ts2_box<TY>() + q.local, T(v));
    }
}

/// Two steps of one tile (file comment). The interior launch (EDGE = false) is a 2D grid over
/// the interior tiles from (bx0, by0); the edge launch a 1D grid over edge_tiles.
template <class T, bool TE, bool EDGE, int TY>
__global__ void __launch_bounds__(kTs2Threads) update_two2d(DevGrid<T> g, TwoStep2DArgs<T> A) {
    constexpr int BW = ts2_bw<TY>(), BH = ts2_bh<TY>(), BOX = ts2_box<TY>();
    extern __shared__ __align__(16) unsigned char ts2_smem[];
    T* s = reinterpret_cast<T*>(ts2_smem);
    T* sp = s + 3 * BOX;  // EDGE only
    int bx, by;
    if (EDGE) {
        const int t = A.edge_tiles[blockIdx.x];
        bx = t % A.tiles_x;
        by = t / A.tiles_x;
    } else {
        bx = A.bx0 + int(blockIdx.x);
        by = A.by0 + int(blockIdx.y);
    }
    const int tile = by * A.tiles_x + bx;
    const int ib = bx * kTs2X - 2, jb = by * TY - 2;
    const int nx = g.nx, ny = g.ny;
    const int tid = int(threadIdx.x);
    // Load the box of E^n and H^{n-1/2} (0 outside the grid).
    for (int q = tid; q < BOX; q += kTs2Threads) {
        const int b = q / BW, a = q - b * BW;
        const int i = ib + a, j = jb + b;
        T v0 = T(0), v1 = T(0), v2 = T(0);
        if (!EDGE || (i >= 0 && i < nx && j >= 0 && j < ny)) {
            const std::size_t id = std::size_t(j) * nx + i;
            v0 = g.f0[id];
            v1 = g.f1[id];
            v2 = g.f2[id];
        }
        s[q] = v0;
        s[BOX + q] = v1;
        s[2 * BOX + q] = v2;
    }
    const std::uint8_t flags = A.flags[tile];
    int sf = 0, sl = 0;
    long long step = 0;
    if (flags & kTs2Sources) {
        sf = A.src_first[tile];
        sl = A.src_first[tile + 1];
        step = *A.d_step + A.k;
    }
    __syncthreads();
    // H1 over a in [0, X + 3), b in [0, TY + 3).
    {
        constexpr int W = kTs2X + 3, N = W * (TY + 3);
        for (int q = tid; q < N; q += kTs2Threads) {
            const int b = q / W, a = q - b * W;
            const int i = ib + a, j = jb + b;
            if (EDGE && (i < 0 || i >= nx || j < 0 || j >= ny)) continue;
            ts2_h<T, TE, EDGE, true, TY>(g, A, s, sp, a, b, i, j, false);
        }
    }
    __syncthreads();
    if (flags & kTs2Sources) {
        ts2_sources<T, TY>(A, s, sf, sl, 0, step, 0.0);
        __syncthreads();
    }
    // E1 over a in [1, X + 3), b in [1, TY + 3).
    {
        constexpr int W = kTs2X + 2, N = W * (TY + 2);
        for (int q = tid; q < N; q += kTs2Threads) {
            const int b = q / W + 1, a = q - (b - 1) * W + 1;
            const int i = ib + a, j = jb + b;
            if (EDGE && (i < 0 || i >= nx || j < 0 || j >= ny)) continue;
            ts2_e<T, TE, EDGE, true, TY>(g, A, s, sp, a, b, i, j);
        }
    }
    __syncthreads();
    int df = 0, dl = 0;
    if (flags & kTs2Dispersive) {  // E1 -= weight cb / S dP at the box's dispersive cells, as disp_correct
        df = A.disp_first[tile];
        dl = A.disp_first[tile + 1];
        for (int e = df + tid; e < dl; e += kTs2Threads) {
            const Ts2Disp d = A.disp[e];
            const int q = d.slot_list >> 2;
            s[(d.slot_list & 3) * BOX + d.local] -= A.coef[q][d.k] * A.dP[q][d.k];
        }
        __syncthreads();
    }
    if (flags & kTs2Sources) {
        ts2_sources<T, TY>(A, s, sf, sl, 1, step, 0.5);
        __syncthreads();
    }
    // The owned dispersive cells' E1 for the second step's poles (E is not written again in
    // shared memory, so no barrier after this).
    for (int e = df + tid; e < dl; e += kTs2Threads) {
        const Ts2Disp d = A.disp[e];
        if (d.owned_cell >= 0) A.cap[d.slot_list & 3][d.owned_cell] = s[(d.slot_list & 3) * BOX + d.local];
    }
    if (flags & kTs2Capture) {  // the owned E1, H1 for the monitors of step k
        constexpr int N = kTs2X * TY;
        for (int q = tid; q < N; q += kTs2Threads) {
            const int b = q / kTs2X + 2, a = q - (b - 2) * kTs2X + 2;
            const int i = ib + a, j = jb + b;
            if (EDGE && (i >= nx || j >= ny)) continue;
            const std::size_t id = std::size_t(j) * nx + i;
            const int c = b * BW + a;
            A.cap[0][id] = s[c];
            A.cap[1][id] = s[BOX + c];
            A.cap[2][id] = s[2 * BOX + c];
        }
        __syncthreads();
    }
    // H2 over a in [1, X + 2), b in [1, TY + 2).
    {
        constexpr int W = kTs2X + 1, N = W * (TY + 1);
        for (int q = tid; q < N; q += kTs2Threads) {
            const int b = q / W + 1, a = q - (b - 1) * W + 1;
            const int i = ib + a, j = jb + b;
            if (EDGE && (i < 0 || i >= nx || j < 0 || j >= ny)) continue;
            ts2_h<T, TE, EDGE, false, TY>(g, A, s, sp, a, b, i, j, a >= 2 && b >= 2);
        }
    }
    __syncthreads();
    if (flags & kTs2Sources) {
        ts2_sources<T, TY>(A, s, sf, sl, 0, step + 1, 0.0);
        __syncthreads();
    }
    // E2 of the owned cells, written with H2 to the output set.
    {
        constexpr int N = kTs2X * TY;
        for (int q = tid; q < N; q += kTs2Threads) {
            const int b = q / kTs2X + 2, a = q - (b - 2) * kTs2X + 2;
            const int i = ib + a, j = jb + b;
            if (EDGE && (i >= nx || j >= ny)) continue;
            ts2_e<T, TE, EDGE, false, TY>(g, A, s, sp, a, b, i, j);
        }
    }
    (void)BH;
}

/// The tile plan of update_two2d for one grid: tiles, interior rectangle, edge list, flags,
/// the per-tile source and dispersive-cell lists, and the capture set.
template <class T>
class TwoStep2D {
public:
    static constexpr int TY = sizeof(T) == 4 ? 32 : 16;

    /// `captured`: the cells whose tiles write E1, H1 to the capture set (monitors); `disp`:
    /// the dispersive cells' lists (their E1 is corrected in every box that holds them and
    /// captured by their owner).
    void setup(const Scene& s, const std::vector<std::int64_t>& captured, const Dispersion<T>& disp,
               cudaStream_t stream) {
        nx_ = s.nx;
        ny_ = s.ny;
        tmz_ = s.polarization == Polarization::TMz;
        tiles_x_ = (nx_ + kTs2X - 1) / kTs2X;
        tiles_y_ = (ny_ + TY - 1) / TY;
        const std::size_t tiles = std::size_t(tiles_x_) * tiles_y_;
        // Interior tiles: the box [i0 - 2, i0 + X + 2) x [j0 - 2, j0 + TY + 2) inside the
        // CPML-free cells at least one cell from every face (no zeroing, no face reads).
        const int ax = std::max(s.pml_lo[0], 1), bxe = nx_ - std::max(s.pml_hi[0], 1);
        const int ay = std::max(s.pml_lo[1], 1), bye = ny_ - std::max(s.pml_hi[1], 1);
        bx0_ = (ax + 2 + kTs2X - 1) / kTs2X;
        by0_ = (ay + 2 + TY - 1) / TY;
        bx1_ = std::max(bx0_, (bxe - 2) / kTs2X);  // (bx + 1) X + 2 <= bxe
        by1_ = std::max(by0_, (bye - 2) / TY);
        std::vector<int> edge;
        for (int by = 0; by < tiles_y_; ++by)
            for (int bx = 0; bx < tiles_x_; ++bx)
                if (!(bx >= bx0_ && bx < bx1_ && by >= by0_ && by < by1_)) edge.push_back(by * tiles_x_ + bx);
        n_edge_ = int(edge.size());
        if (edge.empty()) edge.push_back(0);
        upload(edge_, edge, stream);

        std::vector<std::uint8_t> flags(tiles, 0);
        auto owner = [&](std::int64_t cell) {
            const int i = int(cell % nx_), j = int(cell / nx_);
            return (j / TY) * tiles_x_ + i / kTs2X;
        };
        // The tiles whose box holds the cell: up to two along each axis; f(tile, box index).
        auto boxes = [&](std::int64_t cell, auto&& f) {
            const int i = int(cell % nx_), j = int(cell / nx_);
            for (int by = std::max(0, j / TY - 1); by <= std::min(tiles_y_ - 1, (j + 2) / TY); ++by) {
                const int jb = by * TY - 2;
                if (j < jb || j >= jb + TY + 4) continue;
                for (int bx = std::max(0, i / kTs2X - 1); bx <= std::min(tiles_x_ - 1, (i + 2) / kTs2X); ++bx) {
                    const int ib = bx * kTs2X - 2;
                    if (i < ib || i >= ib + kTs2X + 4) continue;
                    f(by * tiles_x_ + bx, (j - jb) * (kTs2X + 4) + (i - ib));
                }
            }
        };
        for (std::int64_t c : captured) flags[owner(c)] |= kTs2Capture;
        captured_tiles_ = 0;
        for (std::uint8_t f : flags) captured_tiles_ += (f & kTs2Capture) ? 1 : 0;
        // Dispersive cells, in every box they hit.
        std::vector<std::vector<Ts2Disp>> dper(tiles);
        n_disp_ = disp.lists();
        disp_entries_ = 0;
        disp_cells_ = 0;
        for (int q = 0; q < n_disp_ && q < 3; ++q) {
            const std::vector<CellIndex>& cells = disp.list_cells(q);
            disp_cells_ += cells.size();
            for (std::size_t k = 0; k < cells.size(); ++k) {
                const std::int64_t c = cells[k];
                const int own = owner(c);
                boxes(c, [&](int t, int local) {
                    dper[t].push_back({local, disp.list_slot(q) | (q << 2), int(k), t == own ? int(c) : -1});
                    ++disp_entries_;
                });
            }
        }
        // Sources: the cells Sources<T> files (zeroed cells dropped), in every box they hit.
        std::vector<std::vector<Ts2Source>> per(tiles);
        for (std::size_t q = 0; q < s.sources.size(); ++q) {
            const SourceTerm& src = s.sources[q];
            const int slot = field_slot(s, src.component);
            if (slot < 0) continue;  // Sources<T> refuses the scene
            const int electric = is_magnetic(src.component) ? 0 : 1;
            for (std::size_t k = 0; k < src.cells.size() && k < src.weights.size(); ++k) {
                const CellIndex c = src.cells[k];
                if (c < 0 || std::size_t(c) >= s.cells() || zeroed_cell(s, src.component, int(c))) continue;
                boxes(c, [&](int t, int local) {
                    per[t].push_back({src.weights[k], local, slot | (electric << 2), int(q), 0});
                });
            }
        }
        std::vector<int> first(tiles + 1, 0), dfirst(tiles + 1, 0);
        std::vector<Ts2Source> all;
        std::vector<Ts2Disp> dall;
        for (std::size_t t = 0; t < tiles; ++t) {
            first[t] = int(all.size());
            dfirst[t] = int(dall.size());
            if (!per[t].empty()) flags[t] |= kTs2Sources;
            if (!dper[t].empty()) flags[t] |= kTs2Dispersive;
            all.insert(all.end(), per[t].begin(), per[t].end());
            dall.insert(dall.end(), dper[t].begin(), dper[t].end());
        }
        first[tiles] = int(all.size());
        dfirst[tiles] = int(dall.size());
        if (all.empty()) all.push_back({});
        if (dall.empty()) dall.push_back({});
        upload(src_first_, first, stream);
        upload(src_, all, stream);
        upload(disp_first_, dfirst, stream);
        upload(disp_, dall, stream);
        upload(flags_, flags, stream);
        for (int q = 0; q < n_disp_ && q < 3; ++q) {
            coef_[q] = disp.list(q).coef;
            dP_[q] = disp.list(q).dP;
        }
        std::vector<DevWaveform> wf;
        for (const auto& src : s.sources) {
            const auto& w = src.waveform;
            wf.push_back({w.type == WaveformType::GaussianPulse ? 0 : 1, w.omega, w.t0_s, w.tau_s, w.ramp_s, w.amplitude,
                          w.phase_rad, src.delay_s});
        }
        if (wf.empty()) wf.push_back({});
        upload(waveforms_, wf, stream);
        dt_ = s.dt_s;
        // Capture set: full-size, written only at the flagged tiles and the dispersive cells.
        const std::size_t bytes = s.cells() * sizeof(T);
        for (DevBuf& c : cap_) {
            c.alloc(bytes);
            CUDA_CHECK(cudaMemsetAsync(c.template as<void>(), 0, bytes, stream));
        }
        // The edge kernel needs more than the default 48 KB for its psi (and float64).
        set_smem<false>();
        set_smem<true>();
    }

    /// Device bytes setup() allocates (the capture set; the lists are small).
    static std::size_t device_bytes(const Scene& s) { return s.cells() * sizeof(T) * 3; }

    /// The capture set as extensions see fields (slots as DevGrid).
    FieldArrays<T> capture() const {
        return {{cap_[0].template as<T>(), cap_[1].template as<T>(), cap_[2].template as<T>(), nullptr, nullptr, nullptr}};
    }

    /// One pass: `in` (the current set) to `out` (the other set's grid: fields and psi), steps
    /// d_step + k and d_step + k + 1.
    void launch(const DevGrid<T>& in, const DevGrid<T>& out, const long long* d_step, int k, cudaStream_t stream) const {
        TwoStep2DArgs<T> A{};
        A.out[0] = out.f0; A.out[1] = out.f1; A.out[2] = out.f2;
        A.psiH_x = out.psiH_x; A.psiH_y = out.psiH_y; A.psiE_x = out.psiE_x; A.psiE_y = out.psiE_y;
        for (int c = 0; c < 3; ++c) A.cap[c] = cap_[c].template as<T>();
        A.disp = disp_.template as<Ts2Disp>();
        A.disp_first = disp_first_.template as<int>();
        for (int q = 0; q < 3; ++q) { A.coef[q] = coef_[q]; A.dP[q] = dP_[q]; }
        A.flags = flags_.template as<std::uint8_t>();
        A.src_first = src_first_.template as<int>();
        A.src = src_.template as<Ts2Source>();
        A.waveforms = waveforms_.template as<DevWaveform>();
        A.edge_tiles = edge_.template as<int>();
        A.tiles_x = tiles_x_;
        A.bx0 = bx0_; A.by0 = by0_;
        A.dt = dt_;
        A.d_step = d_step;
        A.k = k;
        if (bx1_ > bx0_ && by1_ > by0_) {
            const dim3 grd(bx1_ - bx0_, by1_ - by0_);
            if (tmz_) update_two2d<T, false, false, TY><<<grd, kTs2Threads, ts2_smem_bytes<T, TY, false>(), stream>>>(in, A);
            else update_two2d<T, true, false, TY><<<grd, kTs2Threads, ts2_smem_bytes<T, TY, false>(), stream>>>(in, A);
            CUDA_CHECK_LAUNCH();
        }
        if (n_edge_ > 0) {
            if (tmz_) update_two2d<T, false, true, TY><<<n_edge_, kTs2Threads, ts2_smem_bytes<T, TY, true>(), stream>>>(in, A);
            else update_two2d<T, true, true, TY><<<n_edge_, kTs2Threads, ts2_smem_bytes<T, TY, true>(), stream>>>(in, A);
            CUDA_CHECK_LAUNCH();
        }
    }

    /// Traffic per step beyond the bulk model (file comment): the capture writes of the
    /// flagged tiles (3 s per owned cell) and, per dispersive cell of a box, its entry (16 B),
    /// coef and dP (2 s), and per owned one its E1 (s), per pass.
    double bytes_per_step() const {
        const double s = sizeof(T);
        return (double(captured_tiles_) * kTs2X * TY * 3 * s + double(disp_entries_) * (16 + 2 * s) +
                double(disp_cells_) * s) / 2;
    }

private:
    template <bool EDGE> void set_smem() const {
        const int bytes = ts2_smem_bytes<T, TY, EDGE>();
        if (tmz_) CUDA_CHECK(cudaFuncSetAttribute(update_two2d<T, false, EDGE, TY>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
        else CUDA_CHECK(cudaFuncSetAttribute(update_two2d<T, true, EDGE, TY>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    }

    int nx_ = 0, ny_ = 0, tiles_x_ = 0, tiles_y_ = 0;
    int bx0_ = 0, bx1_ = 0, by0_ = 0, by1_ = 0, n_edge_ = 0, n_disp_ = 0;
    bool tmz_ = true;
    std::size_t captured_tiles_ = 0, disp_entries_ = 0, disp_cells_ = 0;
    double dt_ = 0;
    const T* coef_[3] = {nullptr, nullptr, nullptr};
    const T* dP_[3] = {nullptr, nullptr, nullptr};
    DevBuf edge_, flags_, src_first_, src_, disp_first_, disp_, waveforms_, cap_[3];
};

}  // namespace
}  // namespace golightly::cuda
