// Longer than 900 lines on purpose: update_he3_two is one hot kernel whose phases share
// shared-memory windows and registers across three barriers; its device helpers must be
// inlined into it under its __launch_bounds__ register budget, which keeps the kernel and
// its helpers in one header included by one translation unit. Split only with a measured
// bench (docs/performance.md).
//
// GoLightly CUDA backend, 3D: two Yee steps per pass over the grid (temporal blocking of
// depth 2), the fastest bulk update where it applies (CudaEngine3D::choose_step picks it:
// float32 or float64, the tensor-copy kernel's conditions, z not periodic;
// GOLIGHTLY_CUDA3D_TWO_STEP=0 opts out; the pass's place in the step order, with the carries
// below: TwoStepPass3D::enqueue_pair, cuda_step3d_two.cuh). Included by cuda_bulk3d.cuh after
// update_he3_tma, whose tensor copies and step arithmetic it reuses.
//
// Why: one step per pass moves at least 12 s + 2 B per cell update (every field read and
// written once), and update_he3_tma reached 0.70-0.81 of the copy bandwidth with it, about
// 51 Gcells/s at 512^3 on an H200 (docs/performance.md). Two steps per pass read and write
// every field once for two updates: 6 s + 1 B per cell update, plus CPML psi read and written
// once per pass (2 s per slab cell and axis, for two steps). Temporal blocking of stencils:
// Wolfe, "More iteration space tiling" (1989); for FDTD on GPUs, e.g. Micikevicius,
// "3D finite difference computation on GPUs using CUDA" (GPGPU-2, 2009) for the 2.5D sliding
// window it builds on.
//
// Design (update_he3_two): the 2.5D z walk of update_he3_tma. A block owns 32 x TY columns
// (i0 = 32 bx, j0 = TY by) of a z chunk [k0, k1); one thread per cell of the compute window
// a in [2, 37), b in [0, TY + 3) (i = i0 - 4 + a, j = j0 - 2 + b: the owned cells and a halo
// of 2 on the low sides, 1 on the high sides). Each plane k brings E^n, H^{n-1/2} (boxes 40
// wide from (i0 - 4, j0 - 2): Ex and Ez TY + 4 rows, Ey, Hx, Hy, Hz TY + 3, the rows they are
// read in) and the uint16 material maps (48 x (TY + 2) from (i0 - 8, j0 - 1), the cells of
// phase B) into shared memory by tensor copies, ST planes deep. Then, with three barriers:
//   A  H1(k)   = H^{n+1/2} of plane k      every window cell   (needs E^n at +1 in x, y, z)
//   B  E1(k)   = E^{n+1}                   a >= 3, b >= 1       (H1 at -1 in x, y, z)
//   C  H2(k-1) = H^{n+3/2} of plane k - 1  a in [3, 36), b in [1, TY + 2)
//   D  E2(k-1) = E^{n+2}                   the owned cells: a in [4, 36), b in [2, TY + 2)
// Blocks away from the faces and the CPML slabs (inner), and blocks that meet the slabs or
// faces of one axis only, run the same phases skewed, with two barriers per plane:
// {A(k), C(k-2)} | {B(k), D(k-2)} (planes_skewed); the rest (slabs or faces of two or three
// axes) the order above (planes). Warps take rows of the owned columns (no bank conflicts).
// H1, E1 and H2 go to shared memory (two planes each) for the neighbours' differences; each
// thread keeps its own cell's H1, E1, (ca, cb) and CPML psi of the last two planes in
// registers, so psi after the first step never leaves the thread. Owners write H2, E2 and
// psi after the second step to the other buffer set (as update_he3_tma, input -> output).
// Cells outside the grid hold 0 (the tensor unit fills zeros; computed values there are
// forced to 0), which is what a face that is not periodic reads; PEC / PMC zeroing as in
// update_h3 / update_e3. A chunk loads planes k0 - 2 .. k1 + 1.
//
// Sources and monitors between the two steps:
// - H sources of the pass's first step are added to H^{n-1/2} before it (as for one step).
// - E sources of the first step (t = (n + 1/2) dt) and H sources of the second (t = (n+1) dt)
//   are added after the pass by two_step_sources: the update is linear, so a source value v
//   added to E1 at cell c changes H2 at the cells whose curl differences hold c, and E2 at
//   c (ca v) and at the cells whose differences hold those H2 cells, CPML psi included
//   (psi' = b psi + c d is linear in d). The kernel adds exactly those changes (atomics);
//   float rounding differs from a step-by-step run by a few ulp.
// - TF/SF corrections (cuda_tfsf.cuh) the same way (two_step_tfsf): the H corrections of the
//   first step into H^{n-1/2} before the pass, its E corrections and the H corrections of
//   the second step carried after it.
// - Sub-pixel tensor couplings (cuda_tensor.cuh) of the first step: dE = E1 - E^n at every
//   listed site, read from the capture set; the coupling sum is added to E1 and carried like
//   an E source (two_step_aniso_couple). The corrected E1 becomes the E^n of the second
//   step's couplings, which run after the pass as in one step.
// - Dispersive cells (multi-pole ADE, cuda_dispersion.cuh): the correction of step n + 1,
//   weight cb / S dP with dP from E^n, depends on E^n and the pole state only, so it is
//   formed before the pass (disp_advance_corr, into the full-size arrays TwoStepCapture::corr)
//   and phase B subtracts it from E1 at every window cell of the flagged tile-planes (halo
//   cells included, so H2 and E2 see it as in a step-by-step run). The second step's poles
//   advance from the captured E1 (after its sources, TF/SF corrections and couplings) and
//   correct E2 after the pass (disp_step), as one step per pass does after its bulk update.
// - Monitors of the first step read a capture set: the owned E1 and H1 of every tile-plane
//   (32 x TY cells of one plane) that holds a monitor sample, a tensor site or a dispersive
//   cell (flags by tile-plane), written by the pass; the first step's E sources, TF/SF E
//   corrections and couplings are added to it too.
//
// Measured (H200, golightly-cli bench --dims 3 --size 512,512,512, float32, CPML on all
// faces, a flux plane and a flux box): about 81 Gcells/s against 52 for one step per pass,
// 1024^3 about 93. What bounds the pass (Nsight Compute: neither DRAM, nor issue, nor the
// link between the H200's two L2 partitions alone; its loads and stores alone take 2.3 of its
// 3.05 ms), what was tried and dropped, and the figures of each version: docs/performance.md,
// sections "Two steps per pass" to "Two steps per pass, fourth run" and "The memory floor of
// the two-step pass".
//
// Traffic per cell update, DRAM bytes (model): (12 s + 2 B, or + 6 B with three material
// maps) / 2, CPML psi s per slab cell and axis (read and written once per pass), the capture
// writes (6 s per captured cell per pass), the dispersive corrections (3 s per window cell
// of a kTsDispersive tile-plane per pass; their pole kernels in cuda_dispersion.cuh) and the
// source fix (per source cell ~40 atomics).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda_sources.cuh"  // SourceBatch, waveform_value
#include "cuda_tensor.cuh"   // AnisoDev, aniso_component
#include "cuda_tfsf.cuh"     // TfsfCorrDev

namespace golightly::cuda {
namespace {

constexpr int kTsTx = 32;  // owned columns of a block along x
constexpr int kTsW = 40;   // field box and shared buffer row length: x from i0 - 4
constexpr int kTsWm = 48;  // material box row length (uint16, 96 B): x from i0 - 8
constexpr int kTsCw = 35;  // compute window width: a = 2 .. 36

template <int TY>
__host__ __device__ constexpr int ts_rows() {  // box rows: j0 - 2 .. j0 + TY + 1
    return TY + 4;
}
template <class T, int TY>
__host__ __device__ constexpr int ts_field_slot() {
    return (kTsW * ts_rows<TY>() * int(sizeof(T)) + 127) / 128 * 128;
}
template <int TY>
__host__ __device__ constexpr int ts_mat_slot() {
    return (kTsWm * ts_rows<TY>() * 2 + 127) / 128 * 128;
}
template <class T, int TY>
__host__ __device__ constexpr int ts_stage_bytes() {  // six fields and up to three material maps of one plane
    return 6 * ts_field_slot<T, TY>() + 3 * ts_mat_slot<TY>();
}
template <class T, int TY>
__host__ __device__ constexpr int ts_buf_bytes() {  // H1, E1, H2: [2 planes][3][rows][kTsW] each
    return 3 * 2 * 3 * ts_rows<TY>() * kTsW * int(sizeof(T));
}
constexpr int kTsMaxChunk = 64;  // planes per z chunk at most (the CPML profiles of a chunk's planes in shared memory)
template <int TY>
__host__ __device__ constexpr int ts_prof_entries() {  // the window's columns, rows, and the planes of a chunk
    return kTsCw + TY + 3 + kTsMaxChunk + 4;
}
template <class T, int TY>
__host__ __device__ constexpr int ts_prof_bytes() {  // the 1D CPML profiles: six values per entry
    return ts_prof_entries<TY>() * 6 * int(sizeof(T));
}
template <class T, int TY, int ST>
__host__ __device__ constexpr int ts_smem_bytes() {
    return ST * ts_stage_bytes<T, TY>() + ts_buf_bytes<T, TY>() + ts_prof_bytes<T, TY>() + ST * 8;
}
template <int TY>
__host__ __device__ constexpr int ts_threads() {
    return (kTsCw * (TY + 3) + 31) / 32 * 32;
}

/// Tensor maps of one buffer set for update_he3_two: the six fields (box kTsW x ts_rows),
/// the material maps (box kTsWm x ts_rows, uint16).
struct TwoStepMaps {
    CUtensorMap f[6];
    CUtensorMap mat[3];
    int n_mat;  // 1 where Ex, Ey, Ez share one map, else 3
    std::uint32_t bytes;  // bytes of one plane's boxes (the stage barrier's transaction count)
};

/// Where the pass writes the fields after its first step: f[c] (full-size arrays, index as
/// the grid) for the owned cells of every tile-plane whose flag has bit kTsCaptured set (E1
/// and H1: monitors, tensor sites) or bit kTsCapturedE (E1 only: dispersive cells);
/// flags[(k * tiles_y + by) * tiles_x + bx] (k the plane, (bx, by) the block). flags null:
/// nothing is captured.
/// corr: the dispersive cells' first-step correction weight cb / S dP (cuda_dispersion.cuh
/// disp_advance_corr; full-size arrays of the three E components, 0 at every other cell),
/// subtracted from E1 at every cell of the compute window (phase B) of the tile-planes whose
/// flag has bit 1 (kTsDispersive) set. null: no dispersive cells.
constexpr std::uint8_t kTsCaptured = 1, kTsDispersive = 2, kTsCapturedE = 4;
template <class T> struct TwoStepCapture {
    T* f[6];
    const T* corr[3];
    const std::uint8_t* flags;
    int tiles_x, tiles_y, ty;
};

/// The z chunks of update_he3_two: up to three segments of planes [edge[s], edge[s + 1]),
/// segment s split evenly into the chunks (blockIdx.z) first[s] .. first[s + 1] - 1. The
/// engine puts the segment edges where a chunk's planes (its two halo planes below and the
/// one above included) leave the z CPML slabs and the faces, so that the chunks in between
/// run the inner loop (ts_chunks in Bulk3).
struct TwoStepChunks {
    int edge[4];   // edge[0] = 0 <= edge[1] <= edge[2] <= edge[3] = nz
    int first[4];  // first[0] = 0; first[3] = the number of chunks
};

/// Planes [k0, k1) of chunk bz.
__host__ __device__ inline void ts_chunk(const TwoStepChunks& c, int bz, int& k0, int& k1) {
    // Selects, not a variable index: the struct stays in registers (no stack frame).
    const bool s2 = bz >= c.first[2], s1 = !s2 && bz >= c.first[1];
    const int f0 = s2 ? c.first[2] : s1 ? c.first[1] : 0, f1 = s2 ? c.first[3] : s1 ? c.first[2] : c.first[1];
    const int e0 = s2 ? c.edge[2] : s1 ? c.edge[1] : 0, e1 = s2 ? c.edge[3] : s1 ? c.edge[2] : c.edge[1];
    const int n = f1 - f0, len = e1 - e0, r = bz - f0;
    k0 = e0 + len * r / n;  // len * (r + 1) <= len * n <= nz^2: int for nz < 46341
    k1 = e0 + len * (r + 1) / n;
}

/// One CPML-corrected difference with the psi held in a register (cpml_term_pp's arithmetic:
/// psi = b psi + c d, returns d / kappa + psi); p: b, c, 1 / kappa in shared memory, NP apart.
template <int NP, class T>
__device__ __forceinline__ T ts_term(T d, const T* p, T& psi) {
    psi = p[0] * psi + p[NP] * d;
    return d * p[2 * NP] + psi;
}

template <class T, int TY>
__device__ __forceinline__ void ts_issue(const TwoStepMaps& maps, unsigned char* st, std::uint64_t* bar, int i0, int j0,
                                         int plane) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)), "r"(maps.bytes) : "memory");
    for (int c = 0; c < 6; ++c)
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
                smem_addr(st + c * ts_field_slot<T, TY>())),
            "l"(reinterpret_cast<std::uint64_t>(&maps.f[c])), "r"(i0 - 4), "r"(j0 - 2), "r"(plane), "r"(smem_addr(bar))
            : "memory");
    for (int c = 0; c < maps.n_mat; ++c)
        asm volatile(
            "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
                smem_addr(st + 6 * ts_field_slot<T, TY>() + c * ts_mat_slot<TY>())),
            "l"(reinterpret_cast<std::uint64_t>(&maps.mat[c])), "r"(i0 - 8), "r"(j0 - 1), "r"(plane), "r"(smem_addr(bar))
            : "memory");
#endif
}

// Two steps of the bulk, input set -> output set (file comment; traffic (12 s + 2 B) per cell
// and pass, + psi s per slab cell and axis and step). Block: ts_threads<TY>() threads. Warp
// b < TY + 3 takes the row b of the owned columns, a = 4 .. 35 (thread t: a = 4 + t % 32);
// the threads after them the halo columns a = 2, 3, 36 of each row, three per row; the rest
// idle. A warp then reads 32 consecutive words of a 40-word row of shared memory, one per
// bank, and stores whole 128-byte lines; with thread t at (2 + t % 35, t / 35), warps
// straddled two rows and two threads of a warp hit one bank: Nsight Compute counted 42 %
// of the shared-memory wavefronts as excess (H200, 512^3).
// Registers: float32 two blocks per SM. With TY = 7 (the default, Bulk3::ts_ty_) a block is
// ts_threads<7>() = 352 threads (10 row warps, one of halo columns), and ptxas fits the kernel
// in 80 registers without spills. With TY = 8 it is 416 threads (13 warps: the 33 halo threads
// take two), at most 78 registers (65536 / 832), which ptxas makes 72 with a 16 B stack frame
// of spills (40 B before the general loop's CPML terms went into cpml_terms); forcing 80
// (__maxnreg__) left one block per SM: 60.9 Gcells/s against 75.9 (H200, 512^3).
// float64 (TY = 8): one block per SM (its shared memory: 207 KB with five stages), 128
// registers and, since cpml_terms, an 8 B stack frame of spills (none before). Neither
// speed changed (H200, 512^3, alternated in one call: float64 47.28 and 47.29 Gcells/s
// against 47.33 and 47.22 before; float32 with TY = 7, no spills either way, 81.61 and 81.54
// against 81.58 and 81.51).
// DISP: the scene has dispersive cells (cap.corr set; phase B subtracts the corrections of
// the flagged tile-planes). A separate instance, so that the others keep their registers
// (float32, TY = 7: 80 without spills; with the correction code 80 and 44 B of spill loads).
template <class T, int TY, int ST, bool DISP>
__global__ void __launch_bounds__(ts_threads<TY>(), ts_threads<TY>() <= 512 && sizeof(T) == 4 ? 2 : 1)
    update_he3_two(DevGrid3<T> g, const __grid_constant__ TwoStepMaps maps, TwoStepCapture<T> cap, TwoStepChunks chunks) {
    extern __shared__ __align__(128) unsigned char ts_smem[];
    constexpr int R = ts_rows<TY>();
    constexpr int kSt = ts_stage_bytes<T, TY>();
    constexpr int kFs = ts_field_slot<T, TY>();
    using Buf = T[2][3][R][kTsW];
    Buf& sH1 = *reinterpret_cast<Buf*>(ts_smem + ST * kSt);
    Buf& sE1 = *reinterpret_cast<Buf*>(ts_smem + ST * kSt + sizeof(Buf));
    Buf& sH2 = *reinterpret_cast<Buf*>(ts_smem + ST * kSt + 2 * sizeof(Buf));
    // The CPML profiles (b_e, c_e, 1/kappa_e, b_h, c_h, 1/kappa_h) of the window's columns
    // (a - 2), rows (b) and the chunk's planes (k - kb): value q of entry r at q * kNp + r
    // (consecutive columns in consecutive banks).
    constexpr int kNp = ts_prof_entries<TY>();
    T* sProf = reinterpret_cast<T*>(ts_smem + ST * kSt + ts_buf_bytes<T, TY>());
    std::uint64_t* bar = reinterpret_cast<std::uint64_t*>(ts_smem + ST * kSt + ts_buf_bytes<T, TY>() + ts_prof_bytes<T, TY>());
    const int tid = int(threadIdx.x);
    constexpr int kRowThreads = 32 * (TY + 3);
    const int u = tid - kRowThreads, ur = u % 3;
    const int a = tid < kRowThreads ? 4 + tid % 32 : ur == 2 ? 36 : 2 + ur;
    const int b = tid < kRowThreads ? tid / 32 : u / 3;
    const bool act = tid < kTsCw * (TY + 3);
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    const int bx = int(blockIdx.x), by = int(blockIdx.y), bz = int(blockIdx.z);  // tile (bx, by), chunk bz
    const int i0 = bx * kTsTx, j0 = by * TY;
    const int i = i0 - 4 + a, j = j0 - 2 + b;
    const bool ig = act && i >= 0 && i < nx && j >= 0 && j < ny;
    const bool vB = act && a >= 3 && b >= 1;
    const bool vC = act && a >= 3 && a < 36 && b >= 1 && b < TY + 2;
    const bool own = ig && a >= 4 && a < 36 && b >= 2 && b < TY + 2;
    int k0 = 0, k1 = 0;
    ts_chunk(chunks, bz, k0, k1);  // k1 - k0 <= kTsMaxChunk
    if (k0 >= k1) return;          // uniform over the block
    const int kb = k0 - 2, n_planes = k1 + 2 - kb;  // planes k0 - 2 .. k1 + 1
    // Blocks whose window lies in the grid, away from its faces (PEC / PMC zeroing) and from
    // the CPML slabs over the planes they compute run the loop without slab, zeroing or
    // grid-edge tests; the others the general loop.
    const bool clean_x = i0 - 2 >= 1 && i0 + kTsTx <= nx - 2 && i0 - 2 >= g.lo[0] && i0 + kTsTx < g.hi[0];
    const bool clean_y = j0 - 2 >= 1 && j0 + TY <= ny - 2 && j0 - 2 >= g.lo[1] && j0 + TY < g.hi[1];
    const bool clean_z = kb >= 1 && k1 <= nz - 2 && kb >= g.lo[2] && k1 < g.hi[2];
    const int dirty = int(!clean_x) + int(!clean_y) + int(!clean_z);  // axes whose slabs or faces the block meets
    const bool inner = dirty == 0;
    if (!inner)
        for (int e = tid; e < (kTsCw + TY + 3 + n_planes) * 6; e += int(blockDim.x)) {
            const int q = e % 6, r = e / 6;
            const int axis = r < kTsCw ? 0 : r < kTsCw + TY + 3 ? 1 : 2;
            const int pos = axis == 0 ? i0 - 2 + r : axis == 1 ? j0 - 2 + (r - kTsCw) : kb + (r - kTsCw - TY - 3);
            sProf[q * kNp + r] = pos >= 0 && pos < g.n[axis] ? __ldg(g.prof[axis][q] + pos) : T(0);
        }
    if (tid == 0) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
        for (int s = 0; s < ST; ++s) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar + s)) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
    }
    __syncthreads();
    if (tid == 0)
        for (int t = 0; t < min(ST, n_planes); ++t) ts_issue<T, TY>(maps, ts_smem + t * kSt, bar + t, i0, j0, kb + t);
    const std::size_t plane = std::size_t(nx) * ny;
    const std::size_t col = ig ? std::size_t(j) * nx + i : 0;
    const bool sx = i < g.lo[0] || i >= g.hi[0], sy = j < g.lo[1] || j >= g.hi[1];
    // PEC zeroes the tangential E on the low faces, PMC the tangential H on the high faces.
    const bool pec_x = g.pec[0] && i == 0, pec_y = g.pec[1] && j == 0;
    const bool pmc_x = g.pmc[0] && i == nx - 1, pmc_y = g.pmc[1] && j == ny - 1;
    // psi indices (psi_index) of the thread's cell: x slabs (k ny + j) wx + s, y slabs
    // (k wy + s) nx + i, z slabs s nx ny + j nx + i.
    const std::size_t psx = std::size_t(j) * g.w[0] + (i < g.lo[0] ? i : g.lo[0] + i - g.hi[0]);
    const std::size_t psy = std::size_t(j < g.lo[1] ? j : g.lo[1] + j - g.hi[1]) * nx + i;
    const std::size_t stride_x = std::size_t(ny) * g.w[0], stride_y = std::size_t(g.w[1]) * nx;
    auto qx_of = [&](int k) { return std::size_t(k) * stride_x + psx; };
    auto qy_of = [&](int k) { return std::size_t(k) * stride_y + psy; };
    auto qz_of = [&](int k) { return std::size_t(k < g.lo[2] ? k : g.lo[2] + k - g.hi[2]) * plane + col; };
    const T* pX = sProf + (a - 2);           // this column's profiles (E: + 0, H: + 3 kNp)
    const T* pY = sProf + (kTsCw + b);       // this row's
    const T* pZ0 = sProf + (kTsCw + TY + 3);  // plane kb's; plane k at pZ0 + (k - kb)
    // Which planes of the chunk are captured (bit k - k0): lane l of each warp reads the flags
    // of planes k0 + l and k0 + 32 + l.
    // cap_mask: E1 and H1 (kTsCaptured); with DISP, cap_mask_e: E1 (either bit).
    static_assert(kTsMaxChunk <= 64, "cap_mask holds 64 planes");
    unsigned long long cap_mask = 0, cap_mask_e = 0;
    if (cap.flags)  // uniform over the block, whose size is a multiple of 32
        for (int base = 0; base < 64; base += 32) {
            const int k = k0 + base + (tid & 31);
            const std::uint8_t fl = k < k1 ? cap.flags[(std::size_t(k) * cap.tiles_y + by) * cap.tiles_x + bx] : 0;
            cap_mask |= static_cast<unsigned long long>(__ballot_sync(0xffffffffu, (fl & kTsCaptured) != 0)) << base;
            if (DISP)
                cap_mask_e |= static_cast<unsigned long long>(__ballot_sync(0xffffffffu, (fl & (kTsCaptured | kTsCapturedE)) != 0))
                              << base;
        }
    if (!DISP) cap_mask_e = cap_mask;
    // Whether phase B of plane k subtracts the dispersive cells' first-step correction (bit
    // kTsDispersive of the tile-plane's flag; uniform over the block): one byte per plane, read
    // through L1.
    auto dispersive_at = [&](int k) {
        return DISP && k >= 0 && k < nz &&
               (__ldg(cap.flags + (std::size_t(k) * cap.tiles_y + by) * cap.tiles_x + bx) & kTsDispersive) != 0;
    };
    // The correction of E1 at the thread's cell of plane k (0 where the cell is outside the grid).
    auto disp_corr = [&](int k, T& cx, T& cy, T& cz) {
        if (!ig) return;
        const std::size_t c = std::size_t(k) * plane + col;
        cx = __ldg(cap.corr[0] + c);
        cy = __ldg(cap.corr[1] + c);
        cz = __ldg(cap.corr[2] + c);
    };
    tma_wait(bar, 0);
    // After the barrier that follows the last read of plane t - 1's stage (t = k - kb):
    // thread 0 refills that stage with plane t - 1 + ST.
    auto refill = [&](int t) {
        if (tid == 0 && t >= 1 && t - 1 + ST < n_planes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
            const int r = t - 1 + ST;
            ts_issue<T, TY>(maps, ts_smem + (r % ST) * kSt, bar + r % ST, i0, j0, kb + r);
        }
    };
    // The general loop's CPML terms of one update at plane kk (phases A to D): for each axis
    // whose slab holds the thread's cell, its two differences among d = (tx_y, tx_z, ty_x,
    // ty_z, tz_x, tz_y) corrected with their psi, ps[u] for d[u]; pr: 0 for E's profiles, 3 kNp
    // for H's. out >= 0 (the second step): ps then goes to psi_out[out + u / 2], out = 3 for H,
    // 0 for E.
    auto cpml_terms = [&](T (&d)[6], T (&ps)[6], int kk, int pr, int out) {
        const bool sz = kk < g.lo[2] || kk >= g.hi[2];
#pragma unroll
        for (int n = 0; n < 3; ++n) {  // y, z, x
            const int ax = n == 0 ? 1 : n == 1 ? 2 : 0;
            if (!(ax == 0 ? sx : ax == 1 ? sy : sz)) continue;
            const int u0 = ax == 0 ? 2 : ax == 1 ? 0 : 1, u1 = ax == 0 ? 4 : ax == 1 ? 5 : 3;
            const T* prof = (ax == 0 ? pX : ax == 1 ? pY : pZ0 + (kk - kb)) + pr;
            d[u0] = ts_term<kNp>(d[u0], prof, ps[u0]);
            d[u1] = ts_term<kNp>(d[u1], prof, ps[u1]);
            if (out >= 0) {
                const std::size_t q = ax == 0 ? qx_of(kk) : ax == 1 ? qy_of(kk) : qz_of(kk);
                g.psi_out[out + u0 / 2][ax][q] = ps[u0];
                g.psi_out[out + u1 / 2][ax][q] = ps[u1];
            }
        }
    };
    // The general loop: CPML terms where a cell lies in a slab, cells on and beyond the faces.
    auto planes = [&]() {
        // Own cell's values of the last two planes (the z walk's registers).
        T h1x = 0, h1y = 0, h1z = 0, h1px = 0, h1py = 0, h1pz = 0;  // H1 of plane k, k - 1
        T e1x = 0, e1y = 0, e1z = 0, e1px = 0, e1py = 0, e1pz = 0;  // E1 of plane k, k - 1
        Coef2<T> cx{}, cy{}, cz{};                                  // (ca, cb) of plane k
        int mx = 0, my = 0, mz = 0, mpx = 0, mpy = 0, mpz = 0;      // material indices of plane k, k - 1
        // psi after the first step: H terms (hx_y, hx_z, hy_x, hy_z, hz_x, hz_y), E terms
        // (ex_y, ex_z, ey_x, ey_z, ez_x, ez_y), of plane k and k - 1.
        T ph[6] = {}, pph[6] = {}, pe[6] = {}, ppe[6] = {};
        for (int t = 0, k = kb; k <= k1; ++t, ++k) {
            const int s = t % ST, s1 = (t + 1) % ST;
            const unsigned char* st = ts_smem + s * kSt;
            const unsigned char* sn = ts_smem + s1 * kSt;
            using F = const T[R][kTsW];
            F& Ex = *reinterpret_cast<F*>(st + 0 * kFs);
            F& Ey = *reinterpret_cast<F*>(st + 1 * kFs);
            F& Ez = *reinterpret_cast<F*>(st + 2 * kFs);
            F& Hx = *reinterpret_cast<F*>(st + 3 * kFs);
            F& Hy = *reinterpret_cast<F*>(st + 4 * kFs);
            F& Hz = *reinterpret_cast<F*>(st + 5 * kFs);
            F& Nx = *reinterpret_cast<F*>(sn + 0 * kFs);
            F& Ny = *reinterpret_cast<F*>(sn + 1 * kFs);
            const bool kin = k >= 0 && k < nz;
            const int p = k & 1, q = p ^ 1;  // buffer of plane k; of k - 1 (and k + 1)
            const bool captured = k >= k0 && k < k1 && ((cap_mask >> (k - k0)) & 1);
            const bool captured_e = k >= k0 && k < k1 && ((cap_mask_e >> (k - k0)) & 1);
            h1px = h1x; h1py = h1y; h1pz = h1z;
            {
                // psi of plane k (input set) before the wait, so that their latency overlaps it;
                // psi of plane k + 1 into L2 (no registers held).
#pragma unroll
                for (int u = 0; u < 6; ++u) {
                    pph[u] = ph[u];
                    ppe[u] = pe[u];
                }
                if (ig && kin) {
                    const bool sz = k < g.lo[2] || k >= g.hi[2];
                    if (sy) {
                        const std::size_t qy = qy_of(k);
                        ph[0] = __ldg(g.psi[3][1] + qy); ph[5] = __ldg(g.psi[5][1] + qy);
                        if (vB) { pe[0] = __ldg(g.psi[0][1] + qy); pe[5] = __ldg(g.psi[2][1] + qy); }
                    }
                    if (sz) {
                        const std::size_t qz = qz_of(k);
                        ph[1] = __ldg(g.psi[3][2] + qz); ph[3] = __ldg(g.psi[4][2] + qz);
                        if (vB) { pe[1] = __ldg(g.psi[0][2] + qz); pe[3] = __ldg(g.psi[1][2] + qz); }
                    }
                    if (sx) {
                        const std::size_t qx = qx_of(k);
                        ph[2] = __ldg(g.psi[4][0] + qx); ph[4] = __ldg(g.psi[5][0] + qx);
                        if (vB) { pe[2] = __ldg(g.psi[1][0] + qx); pe[4] = __ldg(g.psi[2][0] + qx); }
                    }
                }
                const int kp = k + 1;
                if (g.psi_ahead > 0 && ig && kp < k1 + 1 && kp < nz) {  // GOLIGHTLY_CUDA3D_PSI_AHEAD=0: none
                    if (sy) {
                        const std::size_t qy = qy_of(kp);
                        prefetch_l2(g.psi[3][1] + qy); prefetch_l2(g.psi[5][1] + qy);
                        prefetch_l2(g.psi[0][1] + qy); prefetch_l2(g.psi[2][1] + qy);
                    }
                    if (kp < g.lo[2] || kp >= g.hi[2]) {
                        const std::size_t qz = qz_of(kp);
                        prefetch_l2(g.psi[3][2] + qz); prefetch_l2(g.psi[4][2] + qz);
                        prefetch_l2(g.psi[0][2] + qz); prefetch_l2(g.psi[1][2] + qz);
                    }
                    if (sx) {
                        const std::size_t qx = qx_of(kp);
                        prefetch_l2(g.psi[4][0] + qx); prefetch_l2(g.psi[5][0] + qx);
                        prefetch_l2(g.psi[1][0] + qx); prefetch_l2(g.psi[2][0] + qx);
                    }
                }
            }
            tma_wait(bar + s1, std::uint32_t(((t + 1) / ST) & 1));
            // ---- A: H1(k) ----
            if (act) {
                const T ex = Ex[b][a], ey = Ey[b][a], ez = Ez[b][a];
                T d[6] = {Ez[b + 1][a] - ez, Ny[b][a] - ey, Ez[b][a + 1] - ez,
                          Nx[b][a] - ex,     Ey[b][a + 1] - ey, Ex[b + 1][a] - ex};
                if (ig && kin) cpml_terms(d, ph, k, 3 * kNp, -1);
                const bool z = !(ig && kin), pmc_z = g.pmc[2] && k == nz - 1;
                h1x = (z || pmc_y || pmc_z) ? T(0) : Hx[b][a] + g.S * (-d[0] + d[1]);
                h1y = (z || pmc_x || pmc_z) ? T(0) : Hy[b][a] + g.S * (d[2] - d[3]);
                h1z = (z || pmc_x || pmc_y) ? T(0) : Hz[b][a] + g.S * (-d[4] + d[5]);
                sH1[p][0][b][a] = h1x;
                sH1[p][1][b][a] = h1y;
                sH1[p][2][b][a] = h1z;
                if (captured && own) {
                    const std::size_t c = std::size_t(k) * plane + col;
                    cap.f[3][c] = h1x;
                    cap.f[4][c] = h1y;
                    cap.f[5][c] = h1z;
                }
            }
            __syncthreads();
            refill(t);
            // ---- B: E1(k) ----
            if (k >= k0 - 1) {
                e1px = e1x; e1py = e1y; e1pz = e1z;
                mpx = mx; mpy = my; mpz = mz;
                if (vB) {
                    using M = const std::uint16_t[R][kTsWm];
                    M& m0 = *reinterpret_cast<M*>(st + 6 * kFs);
                    mx = m0[b - 1][a + 4];
                    if (maps.n_mat == 3) {
                        M& m1 = *reinterpret_cast<M*>(st + 6 * kFs + ts_mat_slot<TY>());
                        M& m2 = *reinterpret_cast<M*>(st + 6 * kFs + 2 * ts_mat_slot<TY>());
                        my = m1[b - 1][a + 4];
                        mz = m2[b - 1][a + 4];
                    } else {
                        my = mx;
                        mz = mx;
                    }
                    cx = g.table[mx];
                    cy = maps.n_mat == 3 ? g.table[my] : cx;
                    cz = maps.n_mat == 3 ? g.table[mz] : cx;
                    T d[6] = {h1z - sH1[p][2][b - 1][a], h1y - sH1[q][1][b][a], h1z - sH1[p][2][b][a - 1],
                              h1x - sH1[q][0][b][a],     h1y - sH1[p][1][b][a - 1], h1x - sH1[p][0][b - 1][a]};
                    if (ig && kin) cpml_terms(d, pe, k, 0, -1);
                    T rx = 0, ry = 0, rz = 0;  // dispersive cells: weight cb / S dP
                    if (dispersive_at(k)) disp_corr(k, rx, ry, rz);
                    const bool z = !(ig && kin), pec_z = g.pec[2] && k == 0;
                    e1x = (z || pec_y || pec_z) ? T(0) : cx.ca * Ex[b][a] + cx.cb * (d[0] - d[1]) - rx;
                    e1y = (z || pec_x || pec_z) ? T(0) : cy.ca * Ey[b][a] + cy.cb * (-d[2] + d[3]) - ry;
                    e1z = (z || pec_x || pec_y) ? T(0) : cz.ca * Ez[b][a] + cz.cb * (d[4] - d[5]) - rz;
                    sE1[p][0][b][a] = e1x;
                    sE1[p][1][b][a] = e1y;
                    sE1[p][2][b][a] = e1z;
                    if (captured_e && own) {
                        const std::size_t c = std::size_t(k) * plane + col;
                        cap.f[0][c] = e1x;
                        cap.f[1][c] = e1y;
                        cap.f[2][c] = e1z;
                    }
                }
            }
            __syncthreads();
            // ---- C: H2(k-1) from E1(k-1) (buffer q) and E1(k) (buffer p) ----
            const int km = k - 1;
            T h2x = 0, h2y = 0, h2z = 0;
            if (k >= k0 && vC) {
                const bool kmin = km >= 0 && km < nz;
                T d[6] = {sE1[q][2][b + 1][a] - e1pz, sE1[p][1][b][a] - e1py,     sE1[q][2][b][a + 1] - e1pz,
                          sE1[p][0][b][a] - e1px,     sE1[q][1][b][a + 1] - e1py, sE1[q][0][b + 1][a] - e1px};
                const bool write = own && km >= k0;  // km < k1 always
                const std::size_t c = std::size_t(km) * plane + col;
                if (ig && kmin) cpml_terms(d, pph, km, 3 * kNp, write ? 3 : -1);
                const bool z = !(ig && kmin), pmc_z = g.pmc[2] && km == nz - 1;
                h2x = (z || pmc_y || pmc_z) ? T(0) : h1px + g.S * (-d[0] + d[1]);
                h2y = (z || pmc_x || pmc_z) ? T(0) : h1py + g.S * (d[2] - d[3]);
                h2z = (z || pmc_x || pmc_y) ? T(0) : h1pz + g.S * (-d[4] + d[5]);
                sH2[q][0][b][a] = h2x;
                sH2[q][1][b][a] = h2y;
                sH2[q][2][b][a] = h2z;
                if (write) {
                    g.H_out[0][c] = h2x;
                    g.H_out[1][c] = h2y;
                    g.H_out[2][c] = h2z;
                }
            }
            __syncthreads();
            // ---- D: E2(k-1) from H2(k-1) (buffer q) and H2(k-2) (buffer p) ----
            if (k >= k0 + 1 && own) {
                T d[6] = {h2z - sH2[q][2][b - 1][a], h2y - sH2[p][1][b][a],     h2z - sH2[q][2][b][a - 1],
                          h2x - sH2[p][0][b][a],     h2y - sH2[q][1][b][a - 1], h2x - sH2[q][0][b - 1][a]};
                cpml_terms(d, ppe, km, 0, 0);
                const bool pec_z = g.pec[2] && km == 0;
                const std::size_t c = std::size_t(km) * plane + col;
                const Coef2<T> cpx = g.table[mpx];
                const Coef2<T> cpy = maps.n_mat == 3 ? g.table[mpy] : cpx, cpz = maps.n_mat == 3 ? g.table[mpz] : cpx;
                g.E_out[0][c] = (pec_y || pec_z) ? T(0) : cpx.ca * e1px + cpx.cb * (d[0] - d[1]);
                g.E_out[1][c] = (pec_x || pec_z) ? T(0) : cpy.ca * e1py + cpy.cb * (-d[2] + d[3]);
                g.E_out[2][c] = (pec_x || pec_y) ? T(0) : cpz.ca * e1pz + cpz.cb * (d[4] - d[5]);
            }
        }
    };
    // Skewed order (g.two_step_skew; GOLIGHTLY_CUDA3D_TWO_STEP_SKEW=0 runs every block in the
    // order of the general loop): two barriers per plane, {A(k), C(k-2)} | {B(k), D(k-2)}.
    // C(k-2) needs B(k-2) and B(k-1) (both before the previous barrier), D(k-2) needs C(k-2)
    // (this iteration's first segment) and C(k-3). The thread keeps H1 and E1 of planes k,
    // k - 1, k - 2 and the material indices of k, k - 1, k - 2 in registers; the shared
    // buffers keep two planes each.
    // AX < 0: the inner blocks (no slab, face or grid-edge tests). AX = 0, 1, 2: blocks whose
    // window meets the CPML slabs or the faces of axis AX only: the two CPML terms of that
    // axis per field (psi after the first step of planes k, k - 1, k - 2 in registers, four
    // per plane), cells beyond the faces of AX held at 0, PEC / PMC on the faces of AX.
    // M3: three material maps (maps.n_mat == 3) or one, as a constant: the loop then carries
    // neither the test nor the selects (about 30 instructions per plane and warp fewer, by the
    // Nsight Compute source page of the inner loop: 259 per plane and warp before).
    auto planes_skewed = [&](auto ax_c, auto m3_c) {
        constexpr int AX = decltype(ax_c)::value;
        constexpr bool M3 = decltype(m3_c)::value;
        constexpr bool kS = AX >= 0;
        // The psi arrays (component, axis AX) of the two corrected terms of H, then of E:
        // x: Hy, Hz | Ey, Ez; y: Hx, Hz | Ex, Ez; z: Hx, Hy | Ex, Ey.
        constexpr int kH0 = AX == 0 ? 4 : 3, kH1 = AX == 2 ? 4 : 5, kE0 = AX == 0 ? 1 : 0, kE1 = AX == 2 ? 1 : 2;
        // This thread's position along AX (x, y: fixed; z: the plane), its slab and faces.
        const int n_ax = kS ? g.n[AX < 0 ? 0 : AX] : 0;
        const int lo_ax = kS ? g.lo[AX < 0 ? 0 : AX] : 0, hi_ax = kS ? g.hi[AX < 0 ? 0 : AX] : 0;
        const bool pec_ax = kS && g.pec[AX < 0 ? 0 : AX], pmc_ax = kS && g.pmc[AX < 0 ? 0 : AX];
        // The E profiles of position pos along AX (x, y: the thread's column or row; z: plane pos);
        // the H profiles 3 kNp further.
        auto prof_at = [&](int pos) { return AX == 0 ? pX : AX == 1 ? pY : pZ0 + (pos - kb); };
        auto slab_of = [&](int pos) { return pos < lo_ax || pos >= hi_ax; };
        auto psi_at = [&](int k) { return AX == 0 ? qx_of(k) : AX == 1 ? qy_of(k) : qz_of(k); };
        // Zeroing: beyond the grid along AX every component; on the low face the E components
        // other than AX (PEC), on the high face the H components other than AX (PMC).
        struct Zero { bool out, pec, pmc; };
        auto zero_at = [&](int pos) { return Zero{pos < 0 || pos >= n_ax, pec_ax && pos == 0, pmc_ax && pos == n_ax - 1}; };
        const int pos_t = AX == 0 ? i : j;  // x, y: the thread's column or row
        // x, y: the thread's zeroing and slab membership, the same in every plane.
        const Zero z_t = kS && AX != 2 ? zero_at(pos_t) : Zero{false, false, false};
        const bool sl_t = kS && AX != 2 && act && !z_t.out && slab_of(pos_t);
        T h1[3][3] = {}, e1[3][3] = {};  // [plane k, k-1, k-2][component]
        // Material indices [plane k, k-1, k-2]: (x | y << 16, z), two registers per plane.
        unsigned m1[3][2] = {};
        T ps[3][4] = {};                 // psi after the first step [plane k, k-1, k-2][H0, H1, E0, E1]
        auto corr = [&](T& d0, T& d1, T& d2, T& d3, T& d4, T& d5, const T* pr, T& s0, T& s1) {
            // The two differences of axis AX among (tx_y, tx_z, ty_x, ty_z, tz_x, tz_y) = d0..d5.
            if constexpr (AX == 0) { d2 = ts_term<kNp>(d2, pr, s0); d4 = ts_term<kNp>(d4, pr, s1); }
            if constexpr (AX == 1) { d0 = ts_term<kNp>(d0, pr, s0); d5 = ts_term<kNp>(d5, pr, s1); }
            if constexpr (AX == 2) { d1 = ts_term<kNp>(d1, pr, s0); d3 = ts_term<kNp>(d3, pr, s1); }
        };
        // Byte offset of cell (i, j, k - 2) in a field array, advanced by a plane per iteration
        // (the stores of C and D: two 64-bit adds each, not the product again).
        const long long plane_bytes = (long long)plane * (long long)sizeof(T);
        long long off2 = ((long long)(kb - 3) * (long long)plane + (long long)col) * (long long)sizeof(T);
        auto out_at = [&](T* base) { return reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(base) + off2); };
        // DISP: the corrections of the cell in the plane whose B phase comes next, loaded at the
        // end of the iteration before (their latency then overlaps the barrier and segment 1).
        [[maybe_unused]] T rc[3] = {};
        for (int t = 0, k = kb; k <= k1 + 1; ++t, ++k) {
            const int s = t % ST, s1 = (t + 1) % ST;
            const unsigned char* st = ts_smem + s * kSt;
            const unsigned char* sn = ts_smem + s1 * kSt;
            using F = const T[R][kTsW];
            const int p = k & 1, q = p ^ 1;  // buffer of plane k (and k - 2); of k - 1
            off2 += plane_bytes;
#pragma unroll
            for (int c = 0; c < 3; ++c) {
                h1[2][c] = h1[1][c]; h1[1][c] = h1[0][c];
                e1[2][c] = e1[1][c]; e1[1][c] = e1[0][c];
            }
#pragma unroll
            for (int c = 0; c < 2; ++c) {
                m1[2][c] = m1[1][c]; m1[1][c] = m1[0][c];
            }
            const int k2 = k - 2;
            // Position along AX and slab membership of planes k and k - 2.
            const int pos0 = AX == 2 ? k : pos_t, pos2 = AX == 2 ? k2 : pos_t;
            const Zero z0 = AX == 2 ? zero_at(k) : z_t, z2 = AX == 2 ? zero_at(k2) : z_t;
            const bool sl0 = AX == 2 ? act && !z0.out && slab_of(k) : sl_t;
            const bool sl2 = AX == 2 ? act && !z2.out && slab_of(k2) : sl_t;
            if constexpr (kS) {
#pragma unroll
                for (int u = 0; u < 4; ++u) {
                    ps[2][u] = ps[1][u];
                    ps[1][u] = ps[0][u];
                    ps[0][u] = T(0);
                }
                if (sl0 && k <= k1) {  // psi of plane k (input set), before the wait
                    const std::size_t qa = psi_at(k);
                    ps[0][0] = __ldg(g.psi[kH0][AX] + qa);
                    ps[0][1] = __ldg(g.psi[kH1][AX] + qa);
                    if (vB) {
                        ps[0][2] = __ldg(g.psi[kE0][AX] + qa);
                        ps[0][3] = __ldg(g.psi[kE1][AX] + qa);
                    }
                }
                // psi of plane k + 1 into L2 (no registers held), as the general loop does.
                const int kp = k + 1, posp = AX == 2 ? kp : pos_t;
                if (g.psi_ahead > 0 && act && kp <= k1 && posp >= 0 && posp < n_ax && slab_of(posp)) {
                    const std::size_t qa = psi_at(kp);
                    prefetch_l2(g.psi[kH0][AX] + qa);
                    prefetch_l2(g.psi[kH1][AX] + qa);
                    prefetch_l2(g.psi[kE0][AX] + qa);
                    prefetch_l2(g.psi[kE1][AX] + qa);
                }
            }
            const bool captured = k >= k0 && k < k1 && ((cap_mask >> (k - k0)) & 1);
            const bool captured_e = k >= k0 && k < k1 && ((cap_mask_e >> (k - k0)) & 1);

            if (k <= k1) tma_wait(bar + s1, std::uint32_t(((t + 1) / ST) & 1));
            // ---- segment 1: A(k), C(k-2) ----
            if (k <= k1 && act) {
                F& Ex = *reinterpret_cast<F*>(st + 0 * kFs);
                F& Ey = *reinterpret_cast<F*>(st + 1 * kFs);
                F& Ez = *reinterpret_cast<F*>(st + 2 * kFs);
                F& Nx = *reinterpret_cast<F*>(sn + 0 * kFs);
                F& Ny = *reinterpret_cast<F*>(sn + 1 * kFs);
                const T ex = Ex[b][a], ey = Ey[b][a], ez = Ez[b][a];
                const T* H0 = reinterpret_cast<const T*>(st + 3 * kFs);
                T tx_y = Ez[b + 1][a] - ez, tx_z = Ny[b][a] - ey;
                T ty_x = Ez[b][a + 1] - ez, ty_z = Nx[b][a] - ex;
                T tz_x = Ey[b][a + 1] - ey, tz_y = Ex[b + 1][a] - ex;
                if constexpr (kS)
                    if (sl0) corr(tx_y, tx_z, ty_x, ty_z, tz_x, tz_y, prof_at(pos0) + 3 * kNp, ps[0][0], ps[0][1]);
                h1[0][0] = H0[b * kTsW + a] + g.S * (-tx_y + tx_z);
                h1[0][1] = H0[kFs / int(sizeof(T)) + b * kTsW + a] + g.S * (ty_x - ty_z);
                h1[0][2] = H0[2 * kFs / int(sizeof(T)) + b * kTsW + a] + g.S * (-tz_x + tz_y);
                if constexpr (kS) {
#pragma unroll
                    for (int c = 0; c < 3; ++c)
                        if (z0.out || (c != AX && z0.pmc)) h1[0][c] = T(0);
                }
                sH1[p][0][b][a] = h1[0][0];
                sH1[p][1][b][a] = h1[0][1];
                sH1[p][2][b][a] = h1[0][2];
                if (captured && own) {
                    const std::size_t c = std::size_t(k) * plane + col;
                    cap.f[3][c] = h1[0][0];
                    cap.f[4][c] = h1[0][1];
                    cap.f[5][c] = h1[0][2];
                }
            }
            T h2x = 0, h2y = 0, h2z = 0;
            if (k >= k0 + 1 && vC) {  // C(k-2): E1(k-2) in buffer p, E1(k-1) in buffer q
                const T ex = e1[2][0], ey = e1[2][1], ez = e1[2][2];
                T tx_y = sE1[p][2][b + 1][a] - ez, tx_z = sE1[q][1][b][a] - ey;
                T ty_x = sE1[p][2][b][a + 1] - ez, ty_z = sE1[q][0][b][a] - ex;
                T tz_x = sE1[p][1][b][a + 1] - ey, tz_y = sE1[p][0][b + 1][a] - ex;
                const bool write = own && k2 >= k0;
                if constexpr (kS)
                    if (sl2) {
                        corr(tx_y, tx_z, ty_x, ty_z, tz_x, tz_y, prof_at(pos2) + 3 * kNp, ps[2][0], ps[2][1]);
                        if (write) {
                            const std::size_t qa = psi_at(k2);
                            g.psi_out[kH0][AX][qa] = ps[2][0];
                            g.psi_out[kH1][AX][qa] = ps[2][1];
                        }
                    }
                h2x = h1[2][0] + g.S * (-tx_y + tx_z);
                h2y = h1[2][1] + g.S * (ty_x - ty_z);
                h2z = h1[2][2] + g.S * (-tz_x + tz_y);
                if constexpr (kS) {
                    if (z2.out || (AX != 0 && z2.pmc)) h2x = T(0);
                    if (z2.out || (AX != 1 && z2.pmc)) h2y = T(0);
                    if (z2.out || (AX != 2 && z2.pmc)) h2z = T(0);
                }
                sH2[p][0][b][a] = h2x;
                sH2[p][1][b][a] = h2y;
                sH2[p][2][b][a] = h2z;
                if (write) {
                    *out_at(g.H_out[0]) = h2x;
                    *out_at(g.H_out[1]) = h2y;
                    *out_at(g.H_out[2]) = h2z;
                }
            }
            __syncthreads();
            refill(t);  // B(k-1) was the last reader of plane k - 1's stage
            // ---- segment 2: B(k), D(k-2) ----
            if (k >= k0 - 1 && k <= k1 && vB) {
                F& Ex = *reinterpret_cast<F*>(st + 0 * kFs);
                F& Ey = *reinterpret_cast<F*>(st + 1 * kFs);
                F& Ez = *reinterpret_cast<F*>(st + 2 * kFs);
                using M = const std::uint16_t[R][kTsWm];
                M& mm0 = *reinterpret_cast<M*>(st + 6 * kFs);
                const unsigned mx = mm0[b - 1][a + 4];
                unsigned my = mx, mz = mx;
                if constexpr (M3) {
                    M& mm1 = *reinterpret_cast<M*>(st + 6 * kFs + ts_mat_slot<TY>());
                    M& mm2 = *reinterpret_cast<M*>(st + 6 * kFs + 2 * ts_mat_slot<TY>());
                    my = mm1[b - 1][a + 4];
                    mz = mm2[b - 1][a + 4];
                }
                m1[0][0] = mx | my << 16;
                m1[0][1] = mz;
                const Coef2<T> cx = g.table[mx];
                const Coef2<T> cy = M3 ? g.table[my] : cx, cz = M3 ? g.table[mz] : cx;
                const T hx = h1[0][0], hy = h1[0][1], hz = h1[0][2];
                T tx_y = hz - sH1[p][2][b - 1][a], tx_z = hy - sH1[q][1][b][a];
                T ty_x = hz - sH1[p][2][b][a - 1], ty_z = hx - sH1[q][0][b][a];
                T tz_x = hy - sH1[p][1][b][a - 1], tz_y = hx - sH1[p][0][b - 1][a];
                if constexpr (kS)
                    if (sl0) corr(tx_y, tx_z, ty_x, ty_z, tz_x, tz_y, prof_at(pos0), ps[0][2], ps[0][3]);
                e1[0][0] = cx.ca * Ex[b][a] + cx.cb * (tx_y - tx_z);
                e1[0][1] = cy.ca * Ey[b][a] + cy.cb * (-ty_x + ty_z);
                e1[0][2] = cz.ca * Ez[b][a] + cz.cb * (tz_x - tz_y);
                if constexpr (DISP) {  // dispersive cells: weight cb / S dP (loaded a plane ahead, rc)
                    e1[0][0] -= rc[0];
                    e1[0][1] -= rc[1];
                    e1[0][2] -= rc[2];
                }
                if constexpr (kS) {
#pragma unroll
                    for (int c = 0; c < 3; ++c)
                        if (z0.out || (c != AX && z0.pec)) e1[0][c] = T(0);
                }
                sE1[p][0][b][a] = e1[0][0];
                sE1[p][1][b][a] = e1[0][1];
                sE1[p][2][b][a] = e1[0][2];
                if (captured_e && own) {
                    const std::size_t c = std::size_t(k) * plane + col;
                    cap.f[0][c] = e1[0][0];
                    cap.f[1][c] = e1[0][1];
                    cap.f[2][c] = e1[0][2];
                }
            }
            if (k >= k0 + 2 && own) {  // D(k-2): H2(k-2) in buffer p, H2(k-3) in buffer q
                const T hx = h2x, hy = h2y, hz = h2z;
                T tx_y = hz - sH2[p][2][b - 1][a], tx_z = hy - sH2[q][1][b][a];
                T ty_x = hz - sH2[p][2][b][a - 1], ty_z = hx - sH2[q][0][b][a];
                T tz_x = hy - sH2[p][1][b][a - 1], tz_y = hx - sH2[p][0][b - 1][a];
                if constexpr (kS)
                    if (sl2) {
                        corr(tx_y, tx_z, ty_x, ty_z, tz_x, tz_y, prof_at(pos2), ps[2][2], ps[2][3]);
                        const std::size_t qa = psi_at(k2);
                        g.psi_out[kE0][AX][qa] = ps[2][2];
                        g.psi_out[kE1][AX][qa] = ps[2][3];
                    }
                const Coef2<T> cx = g.table[m1[2][0] & 0xffffu];
                const Coef2<T> cy = M3 ? g.table[m1[2][0] >> 16] : cx, cz = M3 ? g.table[m1[2][1]] : cx;
                T ex2 = cx.ca * e1[2][0] + cx.cb * (tx_y - tx_z);
                T ey2 = cy.ca * e1[2][1] + cy.cb * (-ty_x + ty_z);
                T ez2 = cz.ca * e1[2][2] + cz.cb * (tz_x - tz_y);
                if constexpr (kS) {  // owned cells lie in the grid: the PEC face only
                    if (AX != 0 && z2.pec) ex2 = T(0);
                    if (AX != 1 && z2.pec) ey2 = T(0);
                    if (AX != 2 && z2.pec) ez2 = T(0);
                }
                *out_at(g.E_out[0]) = ex2;
                *out_at(g.E_out[1]) = ey2;
                *out_at(g.E_out[2]) = ez2;
            }
            if constexpr (DISP) {  // rc for B(k + 1) (0 where its tile-plane has no dispersive cell)
                rc[0] = rc[1] = rc[2] = T(0);
                if (vB && k + 1 <= k1 && dispersive_at(k + 1)) disp_corr(k + 1, rc[0], rc[1], rc[2]);
            }
            __syncthreads();
        }
    };
    // Which loop: the skewed one for the inner blocks and for blocks that meet the slabs or
    // faces of one axis only; the general one (three barriers) for the rest.
    auto skewed = [&](auto ax_c) {
        if (maps.n_mat == 3) planes_skewed(ax_c, std::true_type{});
        else planes_skewed(ax_c, std::false_type{});
    };
    if (g.two_step_skew && dirty == 0) skewed(std::integral_constant<int, -1>{});
    else if (g.two_step_skew >= 2 && dirty == 1 && !clean_x) skewed(std::integral_constant<int, 0>{});
    else if (g.two_step_skew >= 2 && dirty == 1 && !clean_y) skewed(std::integral_constant<int, 1>{});
    else if (g.two_step_skew >= 2 && dirty == 1 && !clean_z) skewed(std::integral_constant<int, 2>{});
    else planes();  // SKEW=0: the inner blocks too (their cells meet no slab or face)
}

/// The change to a two-step pass's output (file comment, "Sources and monitors") from a value
/// v added between its two steps at flat cell `cell` of component `field` (0..5: Ex .. Hz):
/// magnetic = false: v added to E1 (E^{n+1}; also to the capture set where its tile-plane is
/// captured) and carried into H2, E2 and their CPML psi; magnetic = true: v added to H2
/// (H^{n+3/2}) and carried into E2. g: the pass's grid (E_out, H_out, psi_out the output set).
/// Atomics, as several cells share neighbours. Traffic: up to 4 H and 20 E cells (value and
/// psi), as atomics.
template <class T>
__device__ void two_step_carry(const DevGrid3<T>& g, const TwoStepCapture<T>& cap, int cell, int field, T v,
                               bool magnetic) {
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    const int c3[3] = {cell % nx, (cell / nx) % ny, cell / (nx * ny)};
    auto flat = [&](const int* p) { return (std::size_t(p[2]) * ny + p[1]) * nx + p[0]; };
    auto inside = [&](const int* p) { return p[0] >= 0 && p[0] < nx && p[1] >= 0 && p[1] < ny && p[2] >= 0 && p[2] < nz; };
    auto in_slab = [&](int axis, int pos) { return pos < g.lo[axis] || pos >= g.hi[axis]; };
    // Change d of a difference along `axis` in the update of component comp at p: the change
    // of the CPML-corrected term (psi' = b psi + c d added to psi_out).
    auto term = [&](int comp, int axis, const int* p, T d) -> T {
        const int pos = p[axis];
        if (!in_slab(axis, pos)) return d;
        const bool is_e = comp < 3;
        const T* const* pr = g.prof[axis];
        const T c = is_e ? pr[1][pos] : pr[4][pos], ik = is_e ? pr[2][pos] : pr[5][pos];
        atomicAdd(g.psi_out[comp][axis] + psi_index(g, axis, p[0], p[1], p[2]), c * d);
        return d * ik + c * d;
    };
    auto e_zeroed = [&](int comp, const int* p) {  // PEC on the low faces: the tangential E stays 0
        return (comp != 0 && g.pec[0] && p[0] == 0) || (comp != 1 && g.pec[1] && p[1] == 0) ||
               (comp != 2 && g.pec[2] && p[2] == 0);
    };
    auto h_zeroed = [&](int comp, const int* p) {  // PMC on the high faces: the tangential H stays 0
        return (comp != 3 && g.pmc[0] && p[0] == nx - 1) || (comp != 4 && g.pmc[1] && p[1] == ny - 1) ||
               (comp != 5 && g.pmc[2] && p[2] == nz - 1);
    };
    // E2 changes from a change dh of H component h (3..5) at p (update_e3's differences):
    // Hx: Ey (z, +), Ez (y, -); Hy: Ex (z, -), Ez (x, +); Hz: Ex (y, +), Ey (x, -).
    auto carry_h = [&](int h, const int* p, T dh) {
        static constexpr int kE[3][2] = {{1, 2}, {0, 2}, {0, 1}}, kAx[3][2] = {{2, 1}, {2, 0}, {1, 0}};
        static constexpr int kSg[3][2] = {{1, -1}, {-1, 1}, {1, -1}};
        for (int u = 0; u < 2; ++u) {
            const int e = kE[h - 3][u], ax = kAx[h - 3][u];
            for (int side = 0; side < 2; ++side) {  // the E cell at p (d += dh), at p + ax (d -= dh)
                int q[3] = {p[0], p[1], p[2]};
                q[ax] += side;
                if (!inside(q)) continue;
                const T dt = term(e, ax, q, side == 0 ? dh : -dh);
                if (e_zeroed(e, q)) continue;
                const Coef2<T> co = g.table[g.mat[e][flat(q)]];
                atomicAdd(g.E_out[e] + flat(q), T(kSg[h - 3][u]) * co.cb * dt);
            }
        }
    };
    if (magnetic) {
        atomicAdd(g.H_out[field - 3] + flat(c3), v);
        carry_h(field, c3, v);
        return;
    }
    // E source at E1: the capture set, E2 (ca v) and the H2 cells whose differences hold it:
    // Ex: Hy (z, -), Hz (y, +); Ey: Hx (z, +), Hz (x, -); Ez: Hx (y, -), Hy (x, +).
    if (cap.flags) {
        const std::size_t tile = (std::size_t(c3[2]) * cap.tiles_y + c3[1] / cap.ty) * cap.tiles_x + c3[0] / kTsTx;
        if (cap.flags[tile] & (kTsCaptured | kTsCapturedE)) atomicAdd(cap.f[field] + cell, v);
    }
    if (!e_zeroed(field, c3)) {  // E2 = ca E1 + ...; PEC keeps a zeroed cell at 0 whatever E1 holds
        const Coef2<T> own = g.table[g.mat[field][cell]];
        atomicAdd(g.E_out[field] + cell, own.ca * v);
    }
    static constexpr int kH[3][2] = {{4, 5}, {3, 5}, {3, 4}}, kAx[3][2] = {{2, 1}, {2, 0}, {1, 0}};
    static constexpr int kSg[3][2] = {{-1, 1}, {1, -1}, {-1, 1}};
    for (int u = 0; u < 2; ++u) {
        const int h = kH[field][u], ax = kAx[field][u];
        for (int side = 0; side < 2; ++side) {  // the H cell at c (d -= v), at c - ax (d += v)
            int q[3] = {c3[0], c3[1], c3[2]};
            q[ax] -= side;
            if (!inside(q)) continue;
            const T dh = T(kSg[field][u]) * g.S * term(h, ax, q, side == 0 ? -v : v);
            if (h_zeroed(h, q)) continue;
            atomicAdd(g.H_out[h - 3] + flat(q), dh);
            carry_h(h, q, dh);
        }
    }
}


/// One source batch's change to a two-step pass's output (two_step_carry): magnetic = 0: E
/// sources of the first step (t = (n + 1/2) dt, n = *d_step + step_offset); magnetic = 1: H
/// sources of the second step (t = n dt with step_offset one more). One thread per source cell.
/// Traffic per source cell: as two_step_carry, plus the batch entry (cell, field, source,
/// weight: 20 B).
template <class T>
__global__ void two_step_sources(DevGrid3<T> g, SourceBatch<T> src, TwoStepCapture<T> cap, const long long* d_step,
                                 int step_offset, int magnetic) {
    const int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= src.count) return;
    const double t = (double(*d_step + step_offset) + src.half) * src.dt;
    const T v = T(src.weight[n] * waveform_value(src.waveforms[src.source[n]], t));
    two_step_carry(g, cap, src.cell[n], src.field[n], v, magnetic != 0);
}

/// TF/SF corrections (cuda_tfsf.cuh TfsfCorrDev; in 3D a FieldArrays slot is the component)
/// as changes of a two-step pass's output (two_step_carry): magnetic = 0: the E corrections of
/// the first step (inc = the lines' H~_inc^{n+1/2}); magnetic = 1: the H corrections of the
/// second step (inc = E_inc^{n+1}). One thread per correction. Traffic per correction: as
/// two_step_carry, plus 12 B of indices, the coefficient (s) and the incident value (8 B).
template <class T>
__global__ void two_step_tfsf(DevGrid3<T> g, TfsfCorrDev<T> c, TwoStepCapture<T> cap, int magnetic) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= c.count) return;
    two_step_carry(g, cap, c.cell[k], c.slot[k], c.coef[k] * T(c.inc[c.line[k]]), magnetic != 0);
}

/// The sub-pixel tensor couplings of a two-step pass's first step (cuda_tensor.cuh
/// aniso_couple, scene.hpp "Anisotropic cells"): a.E the capture set's E1 (every listed site's
/// tile-plane is captured), a.d its dE = E1 - E^n (aniso_delta). Adds the coupling sum
/// (aniso_coupling_sum) to the site's E1 and carries it into H2, E2 (two_step_carry). One
/// thread per listed site.
/// Traffic per site: aniso_couple's, plus two_step_carry's.
template <class T>
__global__ void two_step_aniso_couple(DevGrid3<T> g, AnisoDev<T> a, TwoStepCapture<T> cap) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = aniso_component(a.n, k);
    if (c < 0) return;
    two_step_carry(g, cap, a.cells[c][k], c, aniso_coupling_sum(a, c, k), false);
}

}  // namespace
}  // namespace golightly::cuda
