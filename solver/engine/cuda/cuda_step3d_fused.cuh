// GoLightly CUDA backend, 3D: one step per pass fused (cuda_bulk3d.cuh designs 4 and 1:
// update_he3_tma, or update_he3 without tensor copies). H^{n+1/2} and E^{n+1} of one step in
// one kernel, from the current buffer set into the other, then flip. The engine's choice where
// update_he3_tma runs and two steps per pass do not (CudaEngine3D::choose_step); also the
// odd step after the pairs of TwoStepPass3D. The step order: enqueue_one; the shared phases:
// cuda_step3d.cuh.
#pragma once

#include <string>

#include "cuda_step3d.cuh"

namespace golightly::cuda {
namespace {

template <class T> class FusedStep3D final : public StepStrategy3D<T> {
public:
    explicit FusedStep3D(StepParts3D<T>& p) : p_(p) {}
    std::string kernel() const override {
        return p_.bulk.tma() ? "one step per pass, fused (update_he3_tma)" : "one step per pass, fused (update_he3)";
    }
    void enqueue_steps(int steps) override {
        for (int k = 0; k < steps; ++k) enqueue_one(k);
    }

    /// Step k: the tensor sites' E^n, the fused bulk into the other set, flip; the poles then
    /// advance from E^n of the input set (the other set after the flip, unchanged by the bulk).
    void enqueue_one(int k) {
        const StepLaunch at = p_.at(k);
        p_.rebind();
        p_.before_bulk_h(at);
        p_.tensor.before_e(p_.stream);
        p_.bulk.update_fused(p_.stream, 0, p_.bulk.nz());
        p_.bulk.flip();
        p_.rebind();
        p_.after_bulk_e(at, p_.bulk.previous_fields());
    }

private:
    StepParts3D<T>& p_;
};

}  // namespace
}  // namespace golightly::cuda
