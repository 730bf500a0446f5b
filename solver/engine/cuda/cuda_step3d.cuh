// GoLightly CUDA backend, 3D: the seam between the engine (cuda_engine3d.cu) and the ways it
// steps a scene. Each way is a class behind StepStrategy3D::enqueue_steps, one header each:
//   cuda_step3d_inplace.cuh  InPlaceStep3D   update_h3, update_e3 (cuda_bulk3d.cuh design 2)
//   cuda_step3d_fused.cuh    FusedStep3D     update_he3_tma / update_he3 (designs 4 and 1)
//   cuda_step3d_two.cuh      TwoStepPass3D   update_he3_two, two steps per pass (design 5)
//   cuda_step3d_complex.cuh  ComplexStep3D   two copies in place (Bloch-periodic axes)
//   cuda_step3d_split.cuh    SplitStep3D     one step in three calls (subdomain.hpp split steps:
//                                            the distributed engine's halo overlap)
// CudaEngine3D::choose_step picks one and records why the faster ones did not apply.
//
// The step order every strategy keeps (scene.hpp's order but for the H sources and TF/SF H
// corrections, which are added to H^{n-1/2} before the H update: the H update has a
// coefficient of 1 on H^{n-1/2}, so the sum is the same, and one order keeps one engine and a
// distributed one equal to the last bit):
//   StepParts3D::before_bulk_h   TF/SF lines n -> n+1, H sources at n dt, TF/SF H corrections
//   (the strategy's bulk)        H^{n+1/2}, E^{n+1}; the pole advance and the tensor sites' E^n
//                                where the strategy needs them before E is overwritten
//   StepParts3D::after_bulk_e    dispersive correction, E sources at (n+1/2) dt, TF/SF E
//                                corrections, tensor couplings, monitors
// Each strategy's enqueue_one / enqueue_pair reads as that order in a few lines.
#pragma once

#include <cuda_runtime.h>

#include <optional>
#include <string>

#include "cuda_check.cuh"
#include "cuda_common.cuh"
#include "cuda_bulk3d.cuh"
#include "cuda_sources.cuh"
#include "cuda_dispersion.cuh"
#include "cuda_tensor.cuh"
#include "cuda_tfsf.cuh"
#include "cuda_monitors.cuh"

namespace golightly::cuda {
namespace {

/// The engine's bulk and extensions as the strategies see them (references into
/// CudaEngine3D, which owns them), and the phases that every strategy runs around its bulk
/// update.
template <class T> struct StepParts3D {
    Bulk3<T>& bulk;
    Sources<T>& sources;
    Dispersion<T>& dispersion;
    TensorCouplings<T>& tensor;
    Tfsf<T>& tfsf;
    Monitors<T>& monitors;
    cudaStream_t& stream;     ///< the engine's stream (a reference: created after the parts are bound)
    long long*& d_step;       ///< device step counter (advanced once per enqueue, CudaEngine3D::enqueue_steps)

    StepLaunch at(int k) const { return StepLaunch{stream, d_step, k}; }

    /// Points every extension at the bulk's current buffer set (after a flip).
    void rebind() {
        const FieldArrays<T> f = bulk.fields();
        sources.rebind(f);
        dispersion.rebind(f);
        tensor.rebind(f);
        tfsf.rebind(f);
        monitors.rebind(f);
    }

    /// Before the bulk: the TF/SF lines from n to n+1, the H sources at n dt and the TF/SF H
    /// corrections (E_inc^n), all added to H^{n-1/2} (file comment).
    void before_bulk_h(const StepLaunch& k) {
        tfsf.before_step(k);
        sources.after_h(k);
        tfsf.after_h(stream);
    }

    /// After the bulk, in scene.hpp's order: the dispersive correction E -= weight cb / S dP,
    /// E sources at (n+1/2) dt, TF/SF E corrections, the tensor couplings, the monitors.
    /// `disp_from`: where E^n of the step lies for the poles (the fused step's input set, the
    /// capture set's E1 for the second step of a pair); none: the poles advanced before the
    /// in-place E update (Dispersion::before_e) and only the correction runs here.
    /// `corr_next` (with `disp_from`; a scene without tensor couplings): the correction runs
    /// after the E sources and TF/SF corrections, fused with the next pass's pole advance
    /// (Dispersion::step_and_advance_into).
    void after_bulk_e(const StepLaunch& k, std::optional<FieldArrays<T>> disp_from, T* const* corr_next = nullptr) {
        if (!corr_next) {  // with corr_next: after the TF/SF corrections, below
            if (disp_from)
                dispersion.after_e_from(*disp_from, stream);
            else
                dispersion.after_e(stream);
        }
        sources.after_e(k);
        tfsf.after_e(stream);
        if (corr_next) dispersion.step_and_advance_into(*disp_from, corr_next, stream);
        tensor.after_e(stream);
        monitors.after_step(k);
    }
};

/// One way of stepping (file comment). enqueue_steps(n) enqueues steps 0 .. n - 1 relative to
/// the device step counter on the engine's stream, with no host synchronization (it is also
/// captured into a CUDA graph); the engine advances the counter after it. Throws what the
/// kernels' launch checks throw (std::runtime_error).
template <class T> class StepStrategy3D {
public:
    virtual ~StepStrategy3D() = default;
    /// What Engine::kernel() reports (the tests compare these strings).
    virtual std::string kernel() const = 0;
    virtual void enqueue_steps(int steps) = 0;
};

}  // namespace
}  // namespace golightly::cuda
