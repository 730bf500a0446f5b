// GoLightly CUDA backend, 3D: the bulk Yee update of scene.hpp "3D scenes" (six components,
// flat index (k * ny + j) * nx + i, CPML psi only inside the slabs, PEC / PMC / periodic
// faces, a uint16 material index per E component into a (ca, cb) table). Included by
// cuda_engine3d.cu only (its own translation unit; the 2D engine is cuda_engine.cu).
//
// Kernel design (2.5D): one thread per (i, j) column, threads of a warp along x (coalesced
// rows), each thread walking its column along z over a chunk [k0, k1) of planes
// (gridDim.z chunks, so small grids still fill the device). The z-neighbour is carried in
// registers from one plane to the next: the H kernel loads Ex, Ey of plane k+1 once and
// reuses them as plane k of the next iteration; the E kernel keeps Hx, Hy of plane k-1.
// The x neighbours (i +- 1) are the neighbouring threads' loads and the y neighbours
// (j +- 1) the neighbouring warps' loads of the same block, both served by L1/L2; only the
// block's halo row (1 of 8 rows) is fetched twice from L2.
//
// Traffic model per cell and step (s = sizeof(T)), DRAM bytes with the neighbours from
// cache:
//   update_h3: reads Ex, Ey, Ez, Hx, Hy, Hz, writes Hx, Hy, Hz:   6 R + 3 W = 9 s
//   update_e3: reads Hx, Hy, Hz, Ex, Ey, Ez, writes Ex, Ey, Ez,
//              reads the three uint16 material indices:           9 s + 6 B
//   -> 18 s + 6 B per cell (78 B float32, 150 B float64); the (ca, cb) table stays in L1.
//   CPML: inside the slab of axis a each of the four psi arrays of that axis (two H, two
//   E components differentiate along a) is read and written once: 8 s per slab cell and
//   axis (Bulk3<T>::cpml_bytes_per_step()); the 1D profiles are cached.
// A fused H+E kernel (E of plane k-1 updated right after H of plane k, so each field
// passes through DRAM once per step: 12 s + 6 B) is the next step for speed; not built yet.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cuda_common.cuh"

namespace golightly::cuda {
namespace {

constexpr int kBulk3X = 32;  // threads along x per block (one warp)
constexpr int kBulk3Y = 8;   // rows (j) per block
// Blocks per SM the register budget must allow: 6 caps the kernels at 40 registers (no
// spills with nvcc 13 for sm_90, float and double) for 1536 resident threads per SM; without
// the bound they took 70-80 registers (768 threads per SM), too few loads in flight to
// approach the copy bandwidth (H100: 17 Gcells/s at 512^3 float32, 54 % of copy).
constexpr int kBulk3MinBlocks = 6;

/// Everything the 3D bulk kernels need, passed by value.
template <class T> struct DevGrid3 {
    int n[3];                  // nx, ny, nz
    int lo[3], hi[3];          // slab edges per axis: slab cells p < lo or p >= hi
    int w[3];                  // slab width per axis (pml_lo + pml_hi)
    int periodic[3], pec[3], pmc[3];
    int k_chunk;               // planes per z chunk (blockIdx.z)
    T S;
    T* E[3];                   // Ex, Ey, Ez
    T* H[3];                   // Hx, Hy, Hz
    const std::uint16_t* mat[3];
    const Coef2<T>* table;
    const T* prof[3][6];       // per axis, length n[a]: b_e, c_e, inv_kappa_e, b_h, c_h, inv_kappa_h
    T* psi[6][3];              // [component Ex..Hz][derivative axis]: the slab arrays (nullptr: none)
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
__global__ void __launch_bounds__(kBulk3X * kBulk3Y, kBulk3MinBlocks) update_h3(DevGrid3<T> g) {
    const int i = blockIdx.x * kBulk3X + threadIdx.x, j = blockIdx.y * kBulk3Y + threadIdx.y;
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    if (i >= nx || j >= ny) return;
    const int k0 = blockIdx.z * g.k_chunk, k1 = min(nz, k0 + g.k_chunk);
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
        T ex_kp = T(0), ey_kp = T(0);
        if (k + 1 < nz) {
            ex_kp = Ex[idx + plane];
            ey_kp = Ey[idx + plane];
        } else if (g.periodic[2]) {
            const std::size_t w = idx - std::size_t(nz - 1) * plane;
            ex_kp = Ex[w];
            ey_kp = Ey[w];
        }
        const T ez = Ez[idx];
        const T ez_ip = has_ip ? Ez[idx + dip] : T(0), ey_ip = has_ip ? Ey[idx + dip] : T(0);
        const T ez_jp = has_jp ? Ez[idx + djp] : T(0), ex_jp = has_jp ? Ex[idx + djp] : T(0);
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
        const T hx = Hx[idx] + g.S * (-hx_y + hx_z);
        const T hy = Hy[idx] + g.S * (hy_x - hy_z);
        const T hz = Hz[idx] + g.S * (-hz_x + hz_y);
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
__global__ void __launch_bounds__(kBulk3X * kBulk3Y, kBulk3MinBlocks) update_e3(DevGrid3<T> g) {
    const int i = blockIdx.x * kBulk3X + threadIdx.x, j = blockIdx.y * kBulk3Y + threadIdx.y;
    const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
    if (i >= nx || j >= ny) return;
    const int k0 = blockIdx.z * g.k_chunk, k1 = min(nz, k0 + g.k_chunk);
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
        hx_km = Hx[idx + std::size_t(nz - 1) * plane];
        hy_km = Hy[idx + std::size_t(nz - 1) * plane];
    }
    for (int k = k0; k < k1; ++k, idx += plane) {
        const T hx = Hx[idx], hy = Hy[idx], hz = Hz[idx];
        const T hz_im = has_im ? Hz[idx - dim] : T(0), hy_im = has_im ? Hy[idx - dim] : T(0);
        const T hz_jm = has_jm ? Hz[idx - djm] : T(0), hx_jm = has_jm ? Hx[idx - djm] : T(0);
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
        const Coef2<T> cx = table[g.mat[0][idx]], cy = table[g.mat[1][idx]], cz = table[g.mat[2][idx]];
        const bool zero_z = g.pec[2] && k == 0;
        const T ex = cx.ca * Ex[idx] + cx.cb * (ex_y - ex_z);
        const T ey = cy.ca * Ey[idx] + cy.cb * (-ey_x + ey_z);
        const T ez = cz.ca * Ez[idx] + cz.cb * (ez_x - ez_y);
        Ex[idx] = (zero_y || zero_z) ? T(0) : ex;
        Ey[idx] = (zero_x || zero_z) ? T(0) : ey;
        Ez[idx] = (zero_x || zero_y) ? T(0) : ez;
        hx_km = hx;
        hy_km = hy;
    }
}

/// The 3D grid on the device: six fields, three uint16 material maps, the (ca, cb) table,
/// the CPML profiles and the slab psi arrays; launches update_h3 / update_e3.
template <class T>
class Bulk3 {
public:
    /// Allocates and uploads everything on `stream`. Throws RunError for inconsistent
    /// scene data (material maps of the wrong size, indices beyond the table, PML without
    /// a CPML profile).
    void setup(const Scene& sc, cudaStream_t stream, int sm_count) {
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
        for (int c = 0; c < 6; ++c) {
            field_[c].alloc(n * sizeof(T));
            CUDA_CHECK(cudaMemsetAsync(field_[c].template as<void>(), 0, n * sizeof(T), stream));
            (c < 3 ? g_.E[c] : g_.H[c - 3]) = field_[c].template as<T>();
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
                g_.psi[c][a] = nullptr;
                if (!kTerm[c][a] || slab[a] == 0) continue;
                psi_[c][a].alloc(slab[a] * sizeof(T));
                CUDA_CHECK(cudaMemsetAsync(psi_[c][a].template as<void>(), 0, slab[a] * sizeof(T), stream));
                g_.psi[c][a] = psi_[c][a].template as<T>();
                psi_cells_ += double(slab[a]);
            }
        // z chunks: enough threads for about 4 x 2048 per SM, chunks of at least 16 planes.
        const std::size_t columns = std::size_t(sc.nx) * sc.ny;
        const std::size_t want = std::size_t(std::max(1, sm_count)) * 8192;
        int chunks = int(std::min<std::size_t>((want + columns - 1) / columns, std::size_t(std::max(1, sc.nz / 16))));
        chunks = std::max(1, std::min(chunks, 65535));
        g_.k_chunk = (sc.nz + chunks - 1) / chunks;
        chunks_ = (sc.nz + g_.k_chunk - 1) / g_.k_chunk;
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
        for (int c = 0; c < 3; ++c) {
            const auto& m = sc.material_index[c];
            upload(mat_[c], m, stream);
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
        // The host vectors must outlive the asynchronous copies: wait here (setup only).
        CUDA_CHECK(cudaStreamSynchronize(stream));
    }

    void update_h(cudaStream_t stream) const {
        update_h3<T><<<blocks(), dim3(kBulk3X, kBulk3Y), 0, stream>>>(g_);
        CUDA_CHECK_LAUNCH();
    }
    void update_e(cudaStream_t stream) const {
        update_e3<T><<<blocks(), dim3(kBulk3X, kBulk3Y), 0, stream>>>(g_);
        CUDA_CHECK_LAUNCH();
    }

    const DevGrid3<T>& grid() const { return g_; }
    T* field(Component c) const { return field_[int(c)].template as<T>(); }
    const double* eps_table() const { return eps_.template as<double>(); }
    FieldArrays<T> fields() const {
        FieldArrays<T> f{};
        for (int c = 0; c < 6; ++c) f.f[c] = field_[c].template as<T>();
        return f;
    }

    /// Model of the bulk kernels (file comment): 18 s + 6 B per cell.
    double bytes_per_cell() const { return 18.0 * sizeof(T) + 6.0; }
    /// CPML psi traffic per step: each psi value read and written once (2 s).
    double cpml_bytes_per_step() const { return 2.0 * sizeof(T) * psi_cells_; }

private:
    dim3 blocks() const {
        return dim3(unsigned((g_.n[0] + kBulk3X - 1) / kBulk3X), unsigned((g_.n[1] + kBulk3Y - 1) / kBulk3Y), unsigned(chunks_));
    }

    DevGrid3<T> g_{};
    DevBuf field_[6], mat_[3], table_, eps_;
    DevBuf prof_[3][6];
    DevBuf psi_[6][3];
    double psi_cells_ = 0;
    int chunks_ = 1;
};

}  // namespace
}  // namespace golightly::cuda
