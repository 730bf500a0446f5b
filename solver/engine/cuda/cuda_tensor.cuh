// GoLightly CUDA backend: TEz tensor couplings (scene.hpp "Anisotropic cells", the
// off-diagonal inverse-permittivity entries of sub-pixel averaging). TensorCouplings<T>
// owns the site lists of Ex and Ey; phase before_e saves E^n of the listed sites, phase
// after_e (at the end of the E half step: after the E sources and Mur) forms dE and adds
// the couplings.
#pragma once

#include <cstddef>
#include <vector>

#include "cuda_common.cuh"
#include "golightly/engine.hpp"  // same_anisotropic

namespace golightly::cuda {
namespace {

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

// Traffic per site: cell index (4 B), read E, write d: 2 s + 4 B.
template <class T>
__global__ void aniso_save(AnisoDev<T> a) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = k < a.n[0] ? 0 : 1;
    if (c == 1) k -= a.n[0];
    if (k >= a.n[c]) return;
    a.d[c][k] = a.E[c][a.cells[c][k]];
}

// Traffic per site: cell index (4 B), read E and d, write d: 3 s + 4 B.
template <class T>
__global__ void aniso_delta(AnisoDev<T> a) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = k < a.n[0] ? 0 : 1;
    if (c == 1) k -= a.n[0];
    if (k >= a.n[c]) return;
    a.d[c][k] = a.E[c][a.cells[c][k]] - a.d[c][k];
}

// Traffic per site: cell index (4 B), 4 neighbours (16 B), 4 weights and the 4 dE they
// name (8 s, dE gathers mostly from L2), read-modify-write of E (2 s): 10 s + 20 B.
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

/// The tensor-coupled Ex and Ey sites of a TEz scene (empty otherwise).
template <class T>
class TensorCouplings {
public:
    /// Uploads Scene::anisotropic (scene.hpp "Anisotropic cells").
    void setup(const Scene& sc, const DevGrid<T>& grid, cudaStream_t stream) {
        an_ = sc.anisotropic;
        const AnisotropicCells& an = an_;
        if (an.empty()) return;
        if (sc.polarization != Polarization::TEz) throw RunError("CUDA engine: anisotropic cells need the TEz polarization");
        const Component comp[2] = {Component::Ex, Component::Ey};
        for (int c = 0; c < 2; ++c) {
            const std::size_t m = an.cells[c].size();
            if (an.neighbour[c].size() != 4 * m || an.weight[c].size() != 4 * m)
                throw RunError("CUDA engine: anisotropic neighbour/weight arrays must hold 4 entries per cell");
            for (std::size_t k = 0; k < m; ++k)
                if (an.cells[c][k] < 0 || std::size_t(an.cells[c][k]) >= sc.cells())
                    throw RunError("CUDA engine: anisotropic cell index outside the grid");
            for (std::int32_t b : an.neighbour[c])
                if (b >= 0 && std::size_t(b) >= an.cells[1 - c].size())
                    throw RunError("CUDA engine: anisotropic neighbour index out of range");
            std::vector<T> w(an.weight[c].begin(), an.weight[c].end());
            AnisoBufs& B = aniso_[c];
            upload(B.cells, device_cells(an.cells[c]), stream);
            upload(B.nb, an.neighbour[c], stream);
            upload(B.w, w, stream);
            B.d.alloc(std::max<std::size_t>(1, m) * sizeof(T));
            aniso_args_.E[c] = field_of(grid, field_slot(sc.polarization, comp[c]));
            aniso_args_.cells[c] = B.cells.template as<int>();
            aniso_args_.nb[c] = B.nb.template as<int>();
            aniso_args_.w[c] = B.w.template as<T>();
            aniso_args_.d[c] = B.d.template as<T>();
            aniso_args_.n[c] = int(m);
        }
        any_aniso_ = true;
    }

    /// Phase before_e: E^n of the listed sites.
    void before_e(cudaStream_t stream) const { launch(0, stream); }
    /// Phase after_e, last: dE at every listed site, then the couplings.
    void after_e(cudaStream_t stream) const {
        launch(1, stream);
        launch(2, stream);
    }

    /// Not in the traffic model (as before the split into extensions): 15 s + 28 B per
    /// site and step (the three kernels above).
    double bytes_per_step() const { return 0; }

    /// Live edit: the couplings follow the edited interfaces (their per-step state is
    /// transient, so the lists can be replaced between steps). Synchronizes `stream`.
    /// Returns true when the lists changed (the captured graph holds their arguments).
    bool materials_changed(const Scene& edited, const DevGrid<T>& grid, cudaStream_t stream) {
        if (same_anisotropic(an_, edited.anisotropic)) return false;
        aniso_args_ = AnisoDev<T>{};
        any_aniso_ = false;
        setup(edited, grid, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return true;
    }

private:
    /// kind 0: save E^n, 1: dE = E - E^n, 2: couple.
    void launch(int kind, cudaStream_t stream) const {
        if (!any_aniso_) return;
        const int total = aniso_args_.n[0] + aniso_args_.n[1];
        const int blocks = (total + 255) / 256;
        if (kind == 0) aniso_save<T><<<blocks, 256, 0, stream>>>(aniso_args_);
        else if (kind == 1) aniso_delta<T><<<blocks, 256, 0, stream>>>(aniso_args_);
        else aniso_couple<T><<<blocks, 256, 0, stream>>>(aniso_args_);
        CUDA_CHECK_LAUNCH();
    }

    struct AnisoBufs { DevBuf cells, nb, w, d; };
    AnisoBufs aniso_[2];                   // Ex, Ey (Scene::anisotropic index)
    AnisoDev<T> aniso_args_{};
    bool any_aniso_ = false;
    AnisotropicCells an_;                  // the lists in use (live edit compares)
};

}  // namespace
}  // namespace golightly::cuda
