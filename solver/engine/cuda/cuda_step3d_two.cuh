// GoLightly CUDA backend, 3D: two steps per pass (cuda_twostep3d.cuh, update_he3_two; the
// engine's choice where it applies, CudaEngine3D::choose_step). Steps k and k + 1 as one pass
// (enqueue_pair), a remaining odd step fused (FusedStep3D). The order of one pair, in
// enqueue_pair:
//   0. before_bulk_h(k)          TF/SF lines n -> n+1, H sources and TF/SF H corrections of
//                                step k into H^{n-1/2}
//      tensor.before_e           E^n of the tensor sites
//      dispersion.advance_into   the poles advance from E^n; weight cb / S dP into the
//                                correction arrays, which the pass subtracts from E1
//   1. bulk.update_two           E^{n+2}, H^{n+3/2} into the other set; the owned E^{n+1},
//                                H^{n+1/2} of the flagged tile-planes into the capture set
//      carry E sources, TF/SF E corrections, tensor couplings of step k (into the capture
//      set and carried into the output: two_step_sources, two_step_tfsf,
//      two_step_aniso_couple); TF/SF lines n+1 -> n+2; carry H sources and TF/SF H
//      corrections of step k + 1
//      monitors of step k on the capture set; flip
//   2. after_bulk_e(k + 1)       the poles advance from the captured E1 and correct E^{n+2};
//                                E sources ... monitors of step k + 1
// The distributed engine's subdomains run it too where that engine steps pairs (step(2),
// then a halo exchange two planes deep: distributed.hpp); a pair then starts afresh
// (corr_ready false: no pole advance carried from the pair before).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "golightly/scene.hpp"

#include "cuda_step3d.cuh"
#include "cuda_step3d_fused.cuh"

namespace golightly::cuda {
namespace {

template <class T> class TwoStepPass3D final : public StepStrategy3D<T> {
public:
    explicit TwoStepPass3D(StepParts3D<T>& p) : p_(p), one_(p) {}
    std::string kernel() const override { return "two steps per pass (update_he3_two)"; }

    /// The cells whose tile-planes a pass captures (E1 and H1) after its first step: every
    /// cell a monitor reads and every site of the tensor couplings (their first-step
    /// correction is formed from the captured E1, two_step_aniso_couple). The dispersive
    /// cells' tile-planes capture E1 (Bulk3::set_captured_cells: the second step's poles
    /// advance from it). Flat cell indices, in no particular order.
    static std::vector<std::int64_t> captured_cells(const Scene& sc, const TensorCouplings<T>& tensor) {
        std::vector<std::int64_t> cells = tensor.site_cells();
        for (const auto& d : sc.dft_sets) {
            cells.insert(cells.end(), d.cell0.begin(), d.cell0.end());
            cells.insert(cells.end(), d.cell1.begin(), d.cell1.end());
        }
        for (const auto& pr : sc.time_probes) cells.insert(cells.end(), pr.cells.begin(), pr.cells.end());
        return cells;
    }

    /// Pairs of steps as one pass each; with dispersive cells and no tensor couplings a pair
    /// also advances the poles for the next pair (enqueue_pair's return).
    void enqueue_steps(int steps) override {
        int k = 0;
        bool corr_ready = false;
        for (; k + 1 < steps; k += 2) corr_ready = enqueue_pair(k, corr_ready, k + 3 < steps);
        for (; k < steps; ++k) one_.enqueue_one(k);
    }

    /// Enqueues steps k and k + 1 as one pass (file comment).
    /// Dispersive cells: `corr_ready` when the pair before it, in the same enqueue_steps,
    /// already advanced the poles from E^n and wrote the corrections (disp_step_advance_corr);
    /// `next_pair`: another pair follows in the same enqueue_steps. Returns whether this pair
    /// did that for the next one (never with tensor couplings, whose second-step couplings
    /// must see the correction of E^{n+2} before the poles advance from it).
    bool enqueue_pair(int k, bool corr_ready, bool next_pair) {
        const StepLaunch a0 = p_.at(k), a1 = p_.at(k + 1);
        p_.rebind();
        p_.before_bulk_h(a0);
        p_.tensor.before_e(p_.stream);
        T* corr[3] = {};
        p_.bulk.corrections(corr);
        // dispersive cells: the poles advance from E^n, the pass subtracts the correction from E1
        if (corr[0] && !corr_ready) p_.dispersion.advance_into(p_.bulk.fields(), corr, p_.stream);
        p_.bulk.update_two(p_.stream);
        carry_sources(k, 0);
        carry_tfsf(0);
        carry_couplings();
        p_.tfsf.before_step(a1);
        carry_sources(k, 1);
        carry_tfsf(1);
        p_.monitors.rebind(p_.bulk.capture_fields());
        p_.monitors.after_step(a0);
        p_.bulk.flip();
        p_.rebind();
        // The second step's poles advance from E1; with a pair after this one, and no tensor
        // couplings, also on to the next pass's corrections.
        const bool merge = corr[0] && next_pair && p_.tensor.total_sites() == 0;
        p_.after_bulk_e(a1, p_.bulk.capture_fields(), merge ? corr : nullptr);
        return merge;
    }

private:
    /// The E sources of step k (magnetic 0) or the H sources of step k + 1 (magnetic 1),
    /// carried into the pass's output (two_step_sources).
    void carry_sources(int k, int magnetic) {
        const SourceBatch<T> b = p_.sources.batch(magnetic);
        if (b.count == 0) return;
        two_step_sources<T><<<(b.count + 127) / 128, 128, 0, p_.stream>>>(p_.bulk.output_grid(), b, p_.bulk.capture(),
                                                                         p_.d_step, magnetic ? k + 1 : k, magnetic);
        CUDA_CHECK_LAUNCH();
    }
    /// The TF/SF E corrections of step k (magnetic 0) or H corrections of step k + 1
    /// (magnetic 1), carried into the output (two_step_tfsf).
    void carry_tfsf(int magnetic) {
        const TfsfCorrDev<T>& c = magnetic ? p_.tfsf.h_corrections() : p_.tfsf.e_corrections();
        if (c.count == 0) return;
        two_step_tfsf<T><<<(c.count + 127) / 128, 128, 0, p_.stream>>>(p_.bulk.output_grid(), c, p_.bulk.capture(),
                                                                       magnetic);
        CUDA_CHECK_LAUNCH();
    }
    /// The tensor couplings of step k, on the capture set: dE = E1 - E^n, the couplings added
    /// to E1 and carried, then E1 (now E^{n+1}) saved as the E^n of step k + 1's couplings.
    void carry_couplings() {
        const int sites = p_.tensor.total_sites();
        if (sites <= 0) return;
        const AnisoDev<T> a = p_.tensor.args_on(p_.bulk.capture_fields());
        const int blocks = (sites + 255) / 256;
        aniso_delta<T><<<blocks, 256, 0, p_.stream>>>(a);
        CUDA_CHECK_LAUNCH();
        two_step_aniso_couple<T><<<blocks, 256, 0, p_.stream>>>(p_.bulk.output_grid(), a, p_.bulk.capture());
        CUDA_CHECK_LAUNCH();
        aniso_save<T><<<blocks, 256, 0, p_.stream>>>(a);
        CUDA_CHECK_LAUNCH();
    }

    StepParts3D<T>& p_;
    FusedStep3D<T> one_;  ///< the odd step after the pairs
};

}  // namespace
}  // namespace golightly::cuda
