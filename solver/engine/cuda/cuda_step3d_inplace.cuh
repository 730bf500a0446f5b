// GoLightly CUDA backend, 3D: one step per pass in place (cuda_bulk3d.cuh design 2,
// update_h3 then update_e3 on one buffer set). The engine's choice where the tensor-copy
// kernel does not run or GOLIGHTLY_CUDA3D_FUSED=0 (CudaEngine3D::choose_step). The step
// order: enqueue_one; the shared phases: cuda_step3d.cuh.
#pragma once

#include <string>

#include "cuda_step3d.cuh"

namespace golightly::cuda {
namespace {

template <class T> class InPlaceStep3D final : public StepStrategy3D<T> {
public:
    explicit InPlaceStep3D(StepParts3D<T>& p) : p_(p) {}
    std::string kernel() const override { return "one step per pass, in place (update_h3, update_e3)"; }
    void enqueue_steps(int steps) override {
        for (int k = 0; k < steps; ++k) enqueue_one(k);
    }

    /// Step k: H, then the poles and the tensor sites' E^n before E overwrites E^n, then E.
    void enqueue_one(int k) {
        const StepLaunch at = p_.at(k);
        p_.before_bulk_h(at);
        p_.bulk.update_h(p_.stream);
        p_.dispersion.before_e(at);
        p_.tensor.before_e(p_.stream);
        p_.bulk.update_e(p_.stream);
        p_.after_bulk_e(at, std::nullopt);
    }

private:
    StepParts3D<T>& p_;
};

}  // namespace
}  // namespace golightly::cuda
