// GoLightly CUDA backend: dispersive cells (scene.hpp "Dispersive cells", multi-pole
// Lorentz/Drude ADE). Dispersion<T> owns the per-component cell lists, the pole-set
// coefficients and the pole state; phase before_e advances the poles from E^n, phase
// after_e (right after the E bulk update, before the E sources) applies the correction.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuda_common.cuh"

namespace golightly::cuda {
namespace {

// Dispersive cells (scene.hpp, "Dispersive cells"): one thread per listed cell of one E
// component. disp_advance runs before the E bulk update and reads E^n:
//   P~_q^{n+1} = c1 P~_q^n + c2 P~_q^{n-1} + c3 E^n,  dP = sum_q (P~_q^{n+1} - P~_q^n),
// stepped in the difference form of scene.hpp (PoleCoeffs: coefficients kd, kr, c3; state
// P~^n and d^n = P~^n - P~^{n-1}, both updated in place, a Drude pole (kr = 0) d only), which
// in float32 keeps g dt, w0^2 dt^2 and d, all lost by c1 P~^n + c2 P~^{n-1} with P~^{n-1} stored;
// disp_correct runs after it, before the E sources: E -= coef * dP, coef = weight cb / S.
// State is pole-major (P[q * n + k]) so each pole's loads coalesce across the warp.
// Traffic per dispersive cell and step (s = sizeof(T), N poles of which N_D Drude): advance
// reads cell index, pole-set id, E, reads and writes (2N - N_D) s of state, writes dP;
// correct reads index, coef, dP, E and writes E: (4N - 2N_D + 5) s + 12 B (Drude + 5
// Lorentz poles, float32: 120 B), on top of the bulk update. Engines with two buffer sets
// (3D fused) run both in one kernel after the bulk update, disp_step: (4N - 2N_D + 4) s + 8 B
// (112 B).
template <class T> struct DispDev {
    T* E;
    const int* cells;
    const std::uint32_t* set;
    const T* coef;
    const int* set_first;   // first pole of each pole set in coeffs
    const int* set_count;   // poles of each pole set
    const T* coeffs;        // kPoleCoeffs per pole: kd, kr, c3, m0, m1 (scene.hpp PoleCoeffs, difference form)
    T* P;                   // P~^n, max_poles x n (pole-major); unused for Drude poles
    T* D;                   // d^n = P~^n - P~^{n-1}, max_poles x n
    T* dP;                  // n
    int n;
    int k_begin, k_end;     // disp_advance: the list entries [k_begin, k_end) (0, n: all)
};

// Poles of a pole set held in registers at once (kDispHeld): all their state loads go out
// before the first is used, so a thread keeps up to 2 kDispHeld loads in flight, where the
// loop over the poles issues one pole's loads at a time (B-CALM's gold has 6 poles; measured
// only together with disp_step: 10 % Au at 512^3 on an H200, 31.1 Gcells/s against 29.6).
// Larger pole sets take the loop.
constexpr int kDispHeld = 8;

// Coefficients per pole in DispDev::coeffs: kd, kr, c3, m0, m1.
constexpr int kPoleCoeffs = 5;

/// One pole's step from dq = d^n, pq = P~^n and e = E^n (scene.hpp difference form): returns
/// d^{n+1} and adds the pole's dP to dp. A plain pole (m0 = 1, m1 = 0) adds d^{n+1}, with the
/// arithmetic the engines always had; a generalized pole (conformal_metal.hpp) adds
/// m0 d^{n+1} + m1 (d^{n+1} - d^n), its increment computed directly, not as a difference of
/// two rounded values.
template <class T>
__device__ __forceinline__ T disp_pole_step(const T* __restrict__ cq, T dq, T pq, T e, T& dp) {
    const T kd = cq[0], kr = cq[1], c3 = cq[2], m0 = cq[3], m1 = cq[4];
    if (m1 != T(0) || m0 != T(1)) {
        const T inc = (kr * pq + c3 * e) - kd * dq;
        const T dn = dq + inc;
        dp += m0 * dn + m1 * inc;
        return dn;
    }
    const T dn = kr != T(0) ? (dq - kd * dq) + (kr * pq + c3 * e) : (dq - kd * dq) + c3 * e;
    dp += dn;
    return dn;
}

/// The poles of list entry k advanced from e = E^n (P~ and d updated in place); returns
/// dP = sum_q d_q^{n+1} (generalized poles: m0 d^{n+1} + m1 (d^{n+1} - d^n), disp_pole_step).
/// Same arithmetic in both branches (scene.hpp difference form).
template <class T>
__device__ __forceinline__ T disp_poles(const DispDev<T>& d, int k, T e) {
    T* __restrict__ P = d.P;
    T* __restrict__ D = d.D;
    const int s = d.set[k];
    const int first = d.set_first[s], np = d.set_count[s];
    T dp = T(0);
    if (np <= kDispHeld) {
        T dq[kDispHeld], pq[kDispHeld];
#pragma unroll
        for (int q = 0; q < kDispHeld; ++q) {
            if (q < np) {
                const std::size_t at = std::size_t(q) * d.n + k;
                dq[q] = D[at];
                pq[q] = d.coeffs[kPoleCoeffs * (first + q) + 1] != T(0) ? P[at] : T(0);
            }
        }
#pragma unroll
        for (int q = 0; q < kDispHeld; ++q) {
            if (q < np) {
                const T* cq = d.coeffs + kPoleCoeffs * (first + q);
                const std::size_t at = std::size_t(q) * d.n + k;
                const T dn = disp_pole_step(cq, dq[q], pq[q], e, dp);
                if (cq[1] != T(0)) P[at] = pq[q] + dn;  // Drude (kr = 0): P~ does not enter
                D[at] = dn;
            }
        }
        return dp;
    }
    for (int q = 0; q < np; ++q) {
        const T* cq = d.coeffs + kPoleCoeffs * (first + q);
        const std::size_t at = std::size_t(q) * d.n + k;
        const T dq = D[at];
        const T p = cq[1] != T(0) ? P[at] : T(0);
        const T dn = disp_pole_step(cq, dq, p, e, dp);
        if (cq[1] != T(0)) P[at] = p + dn;
        D[at] = dn;
    }
    return dp;
}

// Traffic per cell (N poles of its set, N_D of them Drude): reads cell index (4 B), pole-set
// id (4 B) and E, reads and writes (2N - N_D) s of state, writes dP: (4N - 2N_D + 2) s + 8 B.
template <class T>
__global__ void disp_advance(DispDev<T> d) {
    const int k = d.k_begin + int(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= d.k_end) return;
    d.dP[k] = disp_poles(d, k, d.E[d.cells[k]]);
}

// Engines that write E^{n+1} into a second buffer set (the 3D fused bulk update), after that
// update: the poles advance from E^n of the input set E_in, and the output set's E^{n+1}
// gets its correction in the same thread (no dP array, one index read). Same arithmetic as
// disp_advance then disp_correct. Traffic per cell: reads cell index (4 B), pole-set id (4 B),
// coef and E^n, reads and writes (2N - N_D) s of state, read-modify-write of E^{n+1}:
// (4N - 2N_D + 4) s + 8 B (Drude + 5 Lorentz poles, float32: 112 B).
template <class T>
__global__ void disp_step(DispDev<T> d, const T* __restrict__ E_in) {
    const int k = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= d.n) return;
    const int cell = d.cells[k];
    const T dp = disp_poles(d, k, E_in[cell]);
    d.E[cell] -= d.coef[k] * dp;
}

// Two steps per pass (cuda_twostep3d.cuh), before the pass: the poles advance from E^n of
// the pass's input set and the first step's correction weight cb / S dP goes to the
// full-size array corr at the cell (update_he3_two subtracts it from E1). The second step's
// poles then advance from the captured E1 (disp_step with E_in the capture set). Same
// arithmetic as disp_step. Traffic per cell: reads cell index (4 B), pole-set id (4 B), coef
// and E^n, reads and writes (2N - N_D) s of state, writes corr: (4N - 2N_D + 3) s + 8 B.
template <class T>
__global__ void disp_advance_corr(DispDev<T> d, const T* __restrict__ E_in, T* __restrict__ corr) {
    const int k = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= d.n) return;
    const int cell = d.cells[k];
    corr[cell] = d.coef[k] * disp_poles(d, k, E_in[cell]);
}

// Two steps per pass, between two passes that follow each other (no tensor couplings, which
// would have to see the correction of E^{n+2} before the poles advance from it): after the
// second step's E sources and TF/SF corrections, one kernel does disp_step's work for step
// n + 1 (the poles advance from E1 = E^{n+1} of the capture set, E^{n+2} -= coef dP) and
// disp_advance_corr's for the next pass (the poles advance from the corrected E^{n+2},
// corr = coef dP), so that the pole state is read and written once for two pole steps. The
// additions commute with the correction (it depends on E^{n+1} only), so the result is the
// step-by-step one up to rounding. Same arithmetic as disp_step then disp_advance_corr (two
// disp_poles calls; the second reads back the state the first wrote, through L1). Traffic per
// cell: reads cell index (4 B), pole-set id (4 B), coef, E1, read-modify-write of E^{n+2},
// reads and writes (2N - N_D) s of state, writes corr: (4N - 2N_D + 5) s + 8 B (Drude + 5
// Lorentz poles, float32: 116 B for two pole steps).
template <class T>
__global__ void disp_step_advance_corr(DispDev<T> d, const T* __restrict__ E1, T* __restrict__ corr) {
    const int k = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= d.n) return;
    const int cell = d.cells[k];
    const T coef = d.coef[k];
    const T e2 = d.E[cell] - coef * disp_poles(d, k, E1[cell]);
    d.E[cell] = e2;
    corr[cell] = coef * disp_poles(d, k, e2);
}

// The 2D engine's two steps per pass (cuda_twostep2d.cuh), between consecutive passes: the
// poles advance from E1 = E^{n+1} (the capture set) and correct E^{n+2} (after its E
// sources: the correction depends on E^{n+1} only, so the two commute up to rounding), then
// advance from the corrected E^{n+2} into dP, which the next pass subtracts from its E1 as
// disp_correct does. Same arithmetic as disp_step then disp_advance. Traffic per cell: reads
// cell index (4 B), pole-set id (4 B), coef, E1, read-modify-write of E^{n+2}, reads and
// writes (2N - N_D) s of state (the second time through L1), writes dP: (4N - 2N_D + 5) s + 8 B
// for two pole steps.
template <class T>
__global__ void disp_step_advance(DispDev<T> d, const T* __restrict__ E1) {
    const int k = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= d.n) return;
    const int cell = d.cells[k];
    const T e2 = d.E[cell] - d.coef[k] * disp_poles(d, k, E1[cell]);
    d.E[cell] = e2;
    d.dP[k] = disp_poles(d, k, e2);
}

// Traffic per cell: reads cell index (4 B), coef and dP, read-modify-write of E: 4 s + 4 B.
template <class T>
__global__ void disp_correct(DispDev<T> d) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= d.n) return;
    d.E[d.cells[k]] -= d.coef[k] * d.dP[k];
}

/// The dispersive cells of the E components of a scene (empty for non-dispersive ones).
template <class T>
class Dispersion {
public:
    /// Uploads the compact dispersive-cell lists (scene.hpp) of each E component.
    void setup(const Scene& s, const DevGrid<T>& grid, cudaStream_t stream) { setup(s, fields_of(grid), stream); }
    /// The same for any grid (2D or 3D): `fields` by slot (FieldArrays).
    void setup(const Scene& s, const FieldArrays<T>& fields, cudaStream_t stream) {
        courant_ = s.courant;
        if (!s.is_dispersive()) return;
        std::vector<int> first, count;
        std::vector<T> coeffs;
        int max_poles = 0;
        for (const PoleSet& ps : s.pole_sets) {
            first.push_back(int(coeffs.size() / kPoleCoeffs));
            count.push_back(int(ps.poles.size()));
            max_poles = std::max(max_poles, int(ps.poles.size()));
            for (const PoleCoeffs& c : ps.poles) {
                coeffs.push_back(T(pole_damping(c)));
                coeffs.push_back(T(pole_restoring(c)));
                coeffs.push_back(T(c.c3));
                coeffs.push_back(T(c.m0));
                coeffs.push_back(T(c.m1));
            }
            drude_.push_back(drude_poles(ps));
        }
        upload(pole_first_, first, stream);
        upload(pole_count_, count, stream);
        upload(pole_coeffs_, coeffs, stream);
        const bool tmz = s.polarization == Polarization::TMz;
        for (int c = 0; c < 3; ++c) {
            const DispersiveCells& d = s.dispersive[c];
            if (d.cells.empty()) continue;
            const Component comp = Component(c);
            const int slot = field_slot(s, comp);
            if (slot < 0 || (s.dimensions != 3 && (tmz ? comp != Component::Ez : comp == Component::Ez)))
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
                // Traffic model (comments at the kernels): (4 N - 2 N_D + 5) s + 12 bytes per
                // cell for its pole set's N poles, N_D of them Drude; fused (4 N - 2 N_D + 4) s + 8.
                const double np = double(s.pole_sets[d.pole_set[k]].poles.size()), nd = double(drude_[d.pole_set[k]]);
                bytes_ += (4.0 * np - 2.0 * nd + 5.0) * double(sizeof(T)) + 12.0;
                bytes_fused_ += (4.0 * np - 2.0 * nd + 4.0) * double(sizeof(T)) + 8.0;
                bytes_two_step_ += (4.0 * np - 2.0 * nd + 3.5) * double(sizeof(T)) + 8.0;
                bytes_merged_ += ((4.0 * np - 2.0 * nd + 5.0) * double(sizeof(T)) + 8.0) / 2.0;
            }
            DispBufs& B = disp_[c];
            upload(B.cells, device_cells(d.cells), stream);
            upload(B.set, d.pole_set, stream);
            upload(B.coef, coef, stream);
            const std::size_t state = std::max<std::size_t>(1, n * std::size_t(max_poles)) * sizeof(T);
            for (DevBuf* level : {&B.P, &B.D}) {
                level->alloc(state);
                CUDA_CHECK(cudaMemsetAsync(level->template as<void>(), 0, state, stream));
            }
            B.dP.alloc(n * sizeof(T));
            DispDev<T> a{};
            a.E = fields.f[slot];
            a.cells = B.cells.template as<int>();
            a.set = B.set.template as<std::uint32_t>();
            a.coef = B.coef.template as<T>();
            a.set_first = pole_first_.template as<int>();
            a.set_count = pole_count_.template as<int>();
            a.coeffs = pole_coeffs_.template as<T>();
            a.P = B.P.template as<T>();
            a.D = B.D.template as<T>();
            a.dP = B.dP.template as<T>();
            a.n = int(n);
            a.k_begin = 0;
            a.k_end = int(n);
            if (!std::is_sorted(d.cells.begin(), d.cells.end())) sorted_ = false;
            disp_args_.push_back(a);
            disp_slot_.push_back(slot);
            disp_comp_.push_back(c);
            cells_[c] = d.cells;
            weight_[c] = d.weight;
        }
    }

    /// The field arrays the next launches read and write (the 3D engine's two buffer sets
    /// alternate between steps, cuda_bulk3d.cuh).
    void rebind(const FieldArrays<T>& fields) {
        for (std::size_t k = 0; k < disp_args_.size(); ++k) disp_args_[k].E = fields.f[disp_slot_[k]];
    }

    /// Phase before_e of step at.d_step + at.k: the poles advance from E^n.
    void before_e(const StepLaunch& at) const {
        for (const DispDev<T>& a : disp_args_) advance(a, 0, a.n, at);
    }
    /// Phase before_e for the cells with flat index in [cell_lo, cell_hi) (inside = true) or
    /// for the others (inside = false): split steps, whose E update of a range of planes
    /// runs before the rest. Needs each component's list sorted (sorted()).
    void before_e_part(const StepLaunch& at, std::int64_t cell_lo, std::int64_t cell_hi, bool inside) const {
        for (std::size_t q = 0; q < disp_args_.size(); ++q) {
            const std::vector<CellIndex>& cells = cells_[disp_comp_[q]];
            const int p = int(std::lower_bound(cells.begin(), cells.end(), cell_lo) - cells.begin());
            const int r = int(std::lower_bound(cells.begin(), cells.end(), cell_hi) - cells.begin());
            const DispDev<T>& a = disp_args_[q];
            if (inside) {
                advance(a, p, r, at);
            } else {
                advance(a, 0, p, at);
                advance(a, r, a.n, at);
            }
        }
    }
    /// True when every list is in increasing cell order (scene.hpp builds them so).
    bool sorted() const { return sorted_; }
    /// Engines with a second buffer set (3D fused): phase before_e is left out and this runs
    /// in place of after_e, once the bulk has written E^{n+1} to the current set (rebind):
    /// the poles advance from E^n of `input` (the step's input set, unchanged by the bulk
    /// update) and E^{n+1} -= weight cb / S dP, in one kernel (disp_step) per component.
    void after_e_from(const FieldArrays<T>& input, cudaStream_t stream) const {
        for (std::size_t q = 0; q < disp_args_.size(); ++q) {
            const DispDev<T>& a = disp_args_[q];
            disp_step<T><<<(a.n + 255) / 256, 256, 0, stream>>>(a, input.f[disp_slot_[q]]);
            CUDA_CHECK_LAUNCH();
        }
    }
    /// Two steps per pass, before the pass: the poles advance from E^n of `input` (the pass's
    /// input set) and corr[c] (full-size arrays of the E components, index as the grid) gets
    /// weight cb / S dP at each dispersive cell of component c (disp_advance_corr); the pass
    /// subtracts it from E1. After the pass, after_e_from(the capture set) is the second step's.
    void advance_into(const FieldArrays<T>& input, T* const* corr, cudaStream_t stream) const {
        for (std::size_t q = 0; q < disp_args_.size(); ++q) {
            const DispDev<T>& a = disp_args_[q];
            disp_advance_corr<T><<<(a.n + 255) / 256, 256, 0, stream>>>(a, input.f[disp_slot_[q]], corr[disp_comp_[q]]);
            CUDA_CHECK_LAUNCH();
        }
    }
    /// Two steps per pass, between consecutive passes (disp_step_advance_corr): the poles
    /// advance from E1 of `e1` (the capture set) and correct E^{n+2} (the current set,
    /// rebind), then advance from the corrected E^{n+2} and write the next pass's corr.
    void step_and_advance_into(const FieldArrays<T>& e1, T* const* corr, cudaStream_t stream) const {
        for (std::size_t q = 0; q < disp_args_.size(); ++q) {
            const DispDev<T>& a = disp_args_[q];
            disp_step_advance_corr<T><<<(a.n + 255) / 256, 256, 0, stream>>>(a, e1.f[disp_slot_[q]], corr[disp_comp_[q]]);
            CUDA_CHECK_LAUNCH();
        }
    }
    /// The 2D engine's two steps per pass (cuda_twostep2d.cuh), between consecutive passes
    /// (disp_step_advance): the poles advance from E1 of `e1` (the capture set) and correct
    /// E^{n+2} (the current set), then advance from the corrected E^{n+2} into dP, which the
    /// next pass subtracts from its E1.
    void step_and_advance(const FieldArrays<T>& e1, cudaStream_t stream) const {
        for (std::size_t q = 0; q < disp_args_.size(); ++q) {
            const DispDev<T>& a = disp_args_[q];
            disp_step_advance<T><<<(a.n + 255) / 256, 256, 0, stream>>>(a, e1.f[disp_slot_[q]]);
            CUDA_CHECK_LAUNCH();
        }
    }
    /// The per-component lists as the kernels see them (the field pointer as last bound),
    /// their field slots and host cell lists (the 2D two-step pass files them by tile).
    int lists() const { return int(disp_args_.size()); }
    const DispDev<T>& list(int q) const { return disp_args_[std::size_t(q)]; }
    int list_slot(int q) const { return disp_slot_[std::size_t(q)]; }
    const std::vector<CellIndex>& list_cells(int q) const { return cells_[disp_comp_[std::size_t(q)]]; }
    /// The flat cells (index as the grid) of every component's list, for the two-step pass's
    /// tile-plane flags.
    std::vector<std::int64_t> all_cells() const {
        std::vector<std::int64_t> out;
        for (int c = 0; c < 3; ++c) out.insert(out.end(), cells_[c].begin(), cells_[c].end());
        return out;
    }
    /// Phase after_e, first: E -= weight cb / S dP, before the E sources.
    void after_e(cudaStream_t stream) const {
        for (const DispDev<T>& a : disp_args_) {
            disp_correct<T><<<(a.n + 255) / 256, 256, 0, stream>>>(a);
            CUDA_CHECK_LAUNCH();
        }
    }

    /// Traffic model (kernel comments): disp_advance + disp_correct, or disp_step (fused = the
    /// engine calls after_e_from), or with two steps per pass (two_step) the mean of
    /// disp_advance_corr and disp_step (one of each per pass), or (merged: passes in a row
    /// share disp_step_advance_corr) half of disp_step_advance_corr.
    double bytes_per_step(bool fused = false, bool two_step = false, bool merged = false) const {
        return two_step ? (merged ? bytes_merged_ : bytes_two_step_) : fused ? bytes_fused_ : bytes_;
    }
    /// The 2D two-step pass (cuda_twostep2d.cuh): disp_advance and disp_step per pair, or (merged)
    /// disp_step_advance, per step; the pass's reads of coef and dP it counts itself.
    double bytes_per_step_2d(bool merged) const { return merged ? bytes_merged_ : (bytes_ + bytes_fused_) / 2; }

    /// Live edit: unchanged dispersive cells (the lists cannot change live,
    /// check_material_update) get their coefficient weight * cb / S from the edited map
    /// and table, copied on `stream` (host staging kept here until the next edit).
    void materials_changed(const Scene& edited, cudaStream_t stream) {
        for (int c = 0; c < 3; ++c) {
            const std::vector<CellIndex>& cells = cells_[c];
            if (cells.empty()) continue;
            const auto& map = edited.material_index[c];
            std::vector<T>& coef = coef_staging_[c];
            coef.resize(cells.size());
            for (std::size_t k = 0; k < cells.size(); ++k)
                coef[k] = T(weight_[c][k] * edited.table[map[cells[k]]].cb / courant_);
            CUDA_CHECK(cudaMemcpyAsync(disp_[c].coef.template as<void>(), coef.data(), coef.size() * sizeof(T),
                                       cudaMemcpyHostToDevice, stream));
        }
    }

private:
    static void advance(DispDev<T> a, int k_begin, int k_end, const StepLaunch& at) {
        if (k_begin >= k_end) return;
        a.k_begin = k_begin;
        a.k_end = k_end;
        disp_advance<T><<<(k_end - k_begin + 255) / 256, 256, 0, at.stream>>>(a);
        CUDA_CHECK_LAUNCH();
    }

    struct DispBufs { DevBuf cells, set, coef, P, D, dP; };
    DispBufs disp_[3];                     // per E component (Scene::dispersive index)
    DevBuf pole_first_, pole_count_, pole_coeffs_;
    std::vector<int> drude_;               // Drude poles (kr = 0) of each pole set
    std::vector<DispDev<T>> disp_args_;
    std::vector<int> disp_slot_;           // FieldArrays slot of each entry of disp_args_
    std::vector<int> disp_comp_;           // E component (cells_ index) of each entry
    bool sorted_ = true;
    std::vector<CellIndex> cells_[3];      // host copies of the lists (live edit)
    std::vector<double> weight_[3];
    std::vector<T> coef_staging_[3];
    double courant_ = 1;
    double bytes_ = 0;
    double bytes_fused_ = 0;
    double bytes_two_step_ = 0;
    double bytes_merged_ = 0;
};

}  // namespace
}  // namespace golightly::cuda
