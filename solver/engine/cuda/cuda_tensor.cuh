// GoLightly CUDA backend: sub-pixel tensor couplings (scene.hpp "Anisotropic cells", the
// off-diagonal inverse-permittivity entries of sub-pixel averaging; TEz in 2D, all three E
// components in 3D). TensorCouplings<T> owns the site lists; phase before_e saves E^n of the listed sites, phase
// after_e (at the end of the E half step: after the E sources and Mur) forms dE and adds
// the couplings.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda_common.cuh"
#include "golightly/engine.hpp"  // same_anisotropic

namespace golightly::cuda {
namespace {

// Anisotropic cells (scene.hpp, "Anisotropic cells"; sub-pixel tensor): one thread per
// listed site of Ex (k < n[0]), Ey (next n[1]) or, in 3D, Ez (next n[2]). aniso_save keeps
// E^n before the E update; after the whole E half step aniso_delta turns it into dE = E - E^n,
// and aniso_couple adds sum_s w[S k + s] dE(partner(c, s / 4), nb[S k + s]), S = slots (4 in
// 2D, 8 in 3D). Three small kernels over the lists only.
template <class T> struct AnisoDev {
    T* E[3];
    const int* cells[3];
    const int* nb[3];   // S per site, -1: none
    const T* w[3];      // S per site
    T* d[3];            // per site: E^n, then dE
    int n[3];
    int slots;          // S
    int partner[3][2];  // component of slot group g of component c (scene.hpp anisotropic_partner)
    int save_lo[3], save_hi[3];  // aniso_save: the sites [save_lo, save_hi) of each component
};

__device__ inline int aniso_component(const int (&n)[3], int& k) {
    if (k < n[0]) return 0;
    k -= n[0];
    if (k < n[1]) return 1;
    k -= n[1];
    return k < n[2] ? 2 : -1;
}

// Traffic per site: cell index (4 B), read E, write d: 2 s + 4 B.
template <class T>
__global__ void aniso_save(AnisoDev<T> a) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = aniso_component(a.n, k);
    if (c < 0 || k < a.save_lo[c] || k >= a.save_hi[c]) return;
    a.d[c][k] = a.E[c][a.cells[c][k]];
}

// Traffic per site: cell index (4 B), read E and d, write d: 3 s + 4 B.
template <class T>
__global__ void aniso_delta(AnisoDev<T> a) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = aniso_component(a.n, k);
    if (c < 0) return;
    a.d[c][k] = a.E[c][a.cells[c][k]] - a.d[c][k];
}

// Traffic per site: cell index (4 B), S neighbours (4 S B), S weights and the S dE they
// name (2 S s, dE gathers mostly from L2), read-modify-write of E (2 s): (2 S + 2) s +
// (4 S + 4) B.
/// The coupling sum of site k of component c: sum_s w[S k + s] dE(partner(c, s / 4), nb[S k + s]).
template <class T>
__device__ T aniso_coupling_sum(const AnisoDev<T>& a, int c, int k) {
    const int S = a.slots;
    T s = T(0);
    for (int m = 0; m < S; ++m) {
        const int b = a.nb[c][S * k + m];
        if (b >= 0) s += a.w[c][S * k + m] * a.d[a.partner[c][m >> 2]][b];
    }
    return s;
}

template <class T>
__global__ void aniso_couple(AnisoDev<T> a) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    const int c = aniso_component(a.n, k);
    if (c < 0) return;
    a.E[c][a.cells[c][k]] += aniso_coupling_sum(a, c, k);
}

/// The tensor-coupled E sites of a scene (TEz Ex/Ey in 2D, Ex/Ey/Ez in 3D; empty otherwise).
template <class T>
class TensorCouplings {
public:
    /// Uploads Scene::anisotropic (scene.hpp "Anisotropic cells"); f: the scene's fields
    /// (cuda_common.cuh FieldArrays, slots field_slot(sc, c)).
    void setup(const Scene& sc, const FieldArrays<T>& f, cudaStream_t stream) {
        an_ = sc.anisotropic;
        const AnisotropicCells& an = an_;
        if (an.empty()) return;
        const int dims = sc.dimensions == 3 ? 3 : 2, ncomp = dims == 3 ? 3 : 2;
        const std::size_t S = std::size_t(anisotropic_slots(dims));
        if (dims == 2 && sc.polarization != Polarization::TEz)
            throw RunError("CUDA engine: anisotropic cells need the TEz polarization");
        if (dims == 2 && !an.cells[2].empty()) throw RunError("CUDA engine: a 2D scene lists anisotropic Ez sites");
        const Component comp[3] = {Component::Ex, Component::Ey, Component::Ez};
        aniso_args_.slots = int(S);
        for (int c = 0; c < ncomp; ++c)
            for (int g = 0; g < 2; ++g) aniso_args_.partner[c][g] = anisotropic_partner(c, dims == 3 ? g : 0, dims);
        for (int c = 0; c < ncomp; ++c) {
            const std::size_t m = an.cells[c].size();
            if (an.neighbour[c].size() != S * m || an.weight[c].size() != S * m)
                throw RunError("CUDA engine: anisotropic neighbour/weight arrays must hold " + std::to_string(S) +
                               " entries per cell");
            for (std::size_t k = 0; k < m; ++k)
                if (an.cells[c][k] < 0 || std::size_t(an.cells[c][k]) >= sc.cells())
                    throw RunError("CUDA engine: anisotropic cell index outside the grid");
            for (std::size_t q = 0; q < an.neighbour[c].size(); ++q) {
                const std::int32_t b = an.neighbour[c][q];
                const int p = anisotropic_partner(c, int(q % S) / 4, dims);
                if (b >= 0 && std::size_t(b) >= an.cells[p].size())
                    throw RunError("CUDA engine: anisotropic neighbour index out of range");
            }
            std::vector<T> w(an.weight[c].begin(), an.weight[c].end());
            AnisoBufs& B = aniso_[c];
            upload(B.cells, device_cells(an.cells[c]), stream);
            upload(B.nb, an.neighbour[c], stream);
            upload(B.w, w, stream);
            B.d.alloc(std::max<std::size_t>(1, m) * sizeof(T));
            slot_[c] = field_slot(sc, comp[c]);
            aniso_args_.E[c] = f.f[slot_[c]];
            aniso_args_.cells[c] = B.cells.template as<int>();
            aniso_args_.nb[c] = B.nb.template as<int>();
            aniso_args_.w[c] = B.w.template as<T>();
            aniso_args_.d[c] = B.d.template as<T>();
            aniso_args_.n[c] = int(m);
            aniso_args_.save_lo[c] = 0;
            aniso_args_.save_hi[c] = int(m);
            if (!std::is_sorted(an.cells[c].begin(), an.cells[c].end())) sorted_ = false;
            sites_ += m;
        }
        any_aniso_ = true;
    }

    /// The field arrays the next launches read and write (the 3D engine's two buffer sets
    /// alternate between steps, cuda_bulk3d.cuh).
    void rebind(const FieldArrays<T>& f) {
        for (int c = 0; c < 3; ++c)
            if (slot_[c] >= 0) aniso_args_.E[c] = f.f[slot_[c]];
    }

    /// Phase before_e: E^n of the listed sites.
    void before_e(cudaStream_t stream) const { launch(0, stream); }
    /// Phase before_e for the sites with flat index in [cell_lo, cell_hi) (inside) or the
    /// others (split steps, as Dispersion::before_e_part). Needs sorted().
    void before_e_part(cudaStream_t stream, std::int64_t cell_lo, std::int64_t cell_hi, bool inside) const {
        if (!any_aniso_) return;
        AnisoDev<T> lo = aniso_args_, hi = aniso_args_;
        for (int c = 0; c < 3; ++c) {
            const std::vector<CellIndex>& cells = an_.cells[c];
            const int p = int(std::lower_bound(cells.begin(), cells.end(), cell_lo) - cells.begin());
            const int r = int(std::lower_bound(cells.begin(), cells.end(), cell_hi) - cells.begin());
            if (inside) {
                lo.save_lo[c] = p, lo.save_hi[c] = r;
                hi.save_lo[c] = hi.save_hi[c] = 0;
            } else {
                lo.save_lo[c] = 0, lo.save_hi[c] = p;
                hi.save_lo[c] = r, hi.save_hi[c] = aniso_args_.n[c];
            }
        }
        const int total = aniso_args_.n[0] + aniso_args_.n[1] + aniso_args_.n[2];
        aniso_save<T><<<(total + 255) / 256, 256, 0, stream>>>(lo);
        CUDA_CHECK_LAUNCH();
        if (!inside) {
            aniso_save<T><<<(total + 255) / 256, 256, 0, stream>>>(hi);
            CUDA_CHECK_LAUNCH();
        }
    }
    bool sorted() const { return sorted_; }
    /// Phase after_e, last: dE at every listed site, then the couplings.
    void after_e(cudaStream_t stream) const {
        launch(1, stream);
        launch(2, stream);
    }

    /// Two steps per pass (cuda_twostep3d.cuh two_step_aniso_couple): the kernels' arguments
    /// with E read from and written to `f` (the capture set) instead of the bound fields.
    AnisoDev<T> args_on(const FieldArrays<T>& f) const {
        AnisoDev<T> a = aniso_args_;
        for (int c = 0; c < 3; ++c)
            if (slot_[c] >= 0) a.E[c] = f.f[slot_[c]];
        return a;
    }
    /// Listed sites of all components (0 without couplings): one thread each in the kernels.
    int total_sites() const { return any_aniso_ ? aniso_args_.n[0] + aniso_args_.n[1] + aniso_args_.n[2] : 0; }
    /// The flat cell indices of every listed site (two steps per pass captures their tile-planes).
    std::vector<std::int64_t> site_cells() const {
        std::vector<std::int64_t> v;
        for (int c = 0; c < 3; ++c) v.insert(v.end(), an_.cells[c].begin(), an_.cells[c].end());
        return v;
    }

    /// The three kernels above: (2 S + 7) s + (4 S + 12) B per listed site and step.
    double bytes_per_step() const {
        const double S = aniso_args_.slots;
        return double(sites_) * ((2 * S + 7) * sizeof(T) + 4 * S + 12);
    }

    /// Live edit: the couplings follow the edited interfaces (their per-step state is
    /// transient, so the lists can be replaced between steps). Synchronizes `stream`.
    /// Returns true when the lists changed (the captured graph holds their arguments).
    bool materials_changed(const Scene& edited, const FieldArrays<T>& f, cudaStream_t stream) {
        if (same_anisotropic(an_, edited.anisotropic)) return false;
        aniso_args_ = AnisoDev<T>{};
        slot_[0] = slot_[1] = slot_[2] = -1;
        sorted_ = true;
        any_aniso_ = false;
        sites_ = 0;
        setup(edited, f, stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
        return true;
    }

private:
    /// kind 0: save E^n, 1: dE = E - E^n, 2: couple.
    void launch(int kind, cudaStream_t stream) const {
        if (!any_aniso_) return;
        const int total = aniso_args_.n[0] + aniso_args_.n[1] + aniso_args_.n[2];
        const int blocks = (total + 255) / 256;
        if (kind == 0) aniso_save<T><<<blocks, 256, 0, stream>>>(aniso_args_);
        else if (kind == 1) aniso_delta<T><<<blocks, 256, 0, stream>>>(aniso_args_);
        else aniso_couple<T><<<blocks, 256, 0, stream>>>(aniso_args_);
        CUDA_CHECK_LAUNCH();
    }

    struct AnisoBufs { DevBuf cells, nb, w, d; };
    AnisoBufs aniso_[3];                   // Ex, Ey, Ez (Scene::anisotropic index)
    std::size_t sites_ = 0;
    AnisoDev<T> aniso_args_{};
    int slot_[3] = {-1, -1, -1};           // FieldArrays slot of Ex, Ey, Ez (-1: no sites)
    bool sorted_ = true;                   // every site list in increasing cell order
    bool any_aniso_ = false;
    AnisotropicCells an_;                  // the lists in use (live edit compares)
};

}  // namespace
}  // namespace golightly::cuda
