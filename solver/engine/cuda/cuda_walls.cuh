// GoLightly CUDA backend: outer walls (scene.hpp "Outer boundary per axis"). PEC and PMC
// zeroing is fused into the bulk kernels (cuda_bulk.cuh: the tangential E on e position 0,
// the tangential H on h position n-1/2); zeroed_cell() tells the sources which cells that
// zeroing holds at 0. Walls<T> owns the first-order Mur walls: phase before_e saves E^n on
// the two outermost e lines of each Mur wall, phase after_e (after the E sources) applies
// Mur (1981), x walls first, then y walls.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "cuda_common.cuh"

namespace golightly::cuda {
namespace {

/// True where pec/pmc zeroing holds component c of `cell` at 0 after the sources.
/// 3D (scene.hpp "3D scenes"): PEC holds the E tangential to a face on its e position 0
/// (x: Ey, Ez at i = 0; y: Ex, Ez at j = 0; z: Ex, Ey at k = 0), PMC the tangential H on
/// the h position n-1/2 (x: Hy, Hz at i = nx-1; y: Hx, Hz at j = ny-1; z: Hx, Hy at k = nz-1).
bool zeroed_cell(const Scene& sc, Component c, int cell) {
    if (sc.dimensions == 3) {
        const std::int64_t row = cell / sc.nx;
        const int p[3] = {int(cell % sc.nx), int(row % sc.ny), int(row / sc.ny)};
        const int n[3] = {sc.nx, sc.ny, sc.nz};
        const int ci = int(c) % 3;
        for (int a = 0; a < 3; ++a) {
            if (a == ci) continue;  // only the components tangential to the faces normal to a
            if (!is_magnetic(c) && sc.boundary[a] == BoundaryKind::Pec && p[a] == 0) return true;
            if (is_magnetic(c) && sc.boundary[a] == BoundaryKind::Pmc && p[a] == n[a] - 1) return true;
        }
        return false;
    }
    const int i = cell % sc.nx, j = cell / sc.nx;
    const bool pec_x = sc.boundary[0] == BoundaryKind::Pec, pec_y = sc.boundary[1] == BoundaryKind::Pec;
    const bool pmc_x = sc.boundary[0] == BoundaryKind::Pmc, pmc_y = sc.boundary[1] == BoundaryKind::Pmc;
    if (sc.polarization == Polarization::TMz) {
        if (c == Component::Ez) return (pec_x && i == 0) || (pec_y && j == 0);
        if (c == Component::Hy) return pmc_x && i == sc.nx - 1;
        if (c == Component::Hx) return pmc_y && j == sc.ny - 1;
    } else {
        if (c == Component::Ey) return pec_x && i == 0;
        if (c == Component::Ex) return pec_y && j == 0;
        if (c == Component::Hz) return (pmc_x && i == sc.nx - 1) || (pmc_y && j == sc.ny - 1);
    }
    return false;
}

// Mur (1981) first order. Lines: per wall, the outermost e line (index 0 or n-1) and its
// inner neighbour. saved[wall][2][len]: E^n on outer and inner line, written before the E
// update, read after the E sources.
template <class T> struct MurWall {
    T* field;
    int outer_stride;  // offset of cell k along the wall: k * stride + base
    int base_outer, base_inner, stride, len;
};

// Traffic per wall cell: read E on the outer and inner line, write both to saved (4 s).
template <class T>
__global__ void mur_save(MurWall<T> w, T* saved) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= w.len) return;
    saved[k] = w.field[std::size_t(w.base_outer) + std::size_t(k) * w.stride];
    saved[w.len + k] = w.field[std::size_t(w.base_inner) + std::size_t(k) * w.stride];
}

// Traffic per wall cell: read saved (2 s) and the inner E^{n+1} (s), write the outer E (s).
template <class T>
__global__ void mur_apply(MurWall<T> w, const T* saved, T coeff) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= w.len) return;
    const T e0_old = saved[k], e1_old = saved[w.len + k];
    const T e1_new = w.field[std::size_t(w.base_inner) + std::size_t(k) * w.stride];
    w.field[std::size_t(w.base_outer) + std::size_t(k) * w.stride] = e1_old + coeff * (e1_new - e0_old);
}

/// First-order Mur walls on the axes whose boundary is BoundaryKind::Mur.
template <class T>
class Walls {
public:
    void setup(const Scene& sc, const DevGrid<T>& grid) {
        const bool tmz = sc.polarization == Polarization::TMz;
        const int nx = sc.nx, ny = sc.ny;
        std::size_t total = 0;
        if (sc.boundary[0] == BoundaryKind::Mur) {
            T* f = tmz ? grid.f0 : grid.f2;  // Ez or Ey
            mur_walls_.push_back({f, 0, 0, 1, nx, ny});
            mur_walls_.push_back({f, 0, nx - 1, nx - 2, nx, ny});
        }
        if (sc.boundary[1] == BoundaryKind::Mur) {
            T* f = tmz ? grid.f0 : grid.f1;  // Ez or Ex
            mur_walls_.push_back({f, 0, 0, nx, 1, nx});
            mur_walls_.push_back({f, 0, (ny - 1) * nx, (ny - 2) * nx, 1, nx});
        }
        for (const auto& w : mur_walls_) total += 2 * std::size_t(w.len);
        mur_saved_.alloc(std::max<std::size_t>(1, total) * sizeof(T));
        mur_coeff_ = T((sc.courant - 1.0) / (sc.courant + 1.0));
    }

    /// Phase before_e: E^n of the outer and inner line of every Mur wall.
    void before_e(cudaStream_t stream) const {
        std::size_t off = 0;
        for (const auto& w : mur_walls_) {
            mur_save<T><<<(w.len + 127) / 128, 128, 0, stream>>>(w, mur_saved_.template as<T>() + off);
            CUDA_CHECK_LAUNCH();
            off += 2 * std::size_t(w.len);
        }
    }
    /// Phase after_e (after the E sources): Mur on the outer line of every wall, in order.
    void after_e(cudaStream_t stream) const {
        std::size_t off = 0;
        for (const auto& w : mur_walls_) {
            mur_apply<T><<<(w.len + 127) / 128, 128, 0, stream>>>(w, mur_saved_.template as<T>() + off, mur_coeff_);
            CUDA_CHECK_LAUNCH();
            off += 2 * std::size_t(w.len);
        }
    }

    /// Not in the traffic model (as before the split into extensions): 8 s per wall cell
    /// and step, a few lines against the nx*ny bulk.
    double bytes_per_step() const { return 0; }

private:
    std::vector<MurWall<T>> mur_walls_;
    DevBuf mur_saved_;
    T mur_coeff_ = 0;
};

}  // namespace
}  // namespace golightly::cuda
