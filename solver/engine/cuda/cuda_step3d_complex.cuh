// GoLightly CUDA backend, 3D: complex fields (scene.hpp "Bloch-periodic axes"): the real and
// the imaginary copy of the grid stepped in place (update_h3, update_e3), each reading the
// other across the Bloch wraps (DevGrid3 "Complex fields"). The engine's choice whenever the
// scene has complex fields (CudaEngine3D::choose_step). The step order: enqueue_one; the
// shared phases of one copy: cuda_step3d.cuh (no TF/SF in a complex run).
#pragma once

#include <string>

#include "golightly/scene.hpp"

#include "cuda_step3d.cuh"
#include "../cpu/cpu_bloch.hpp"  // imaginary_scene (host code)

namespace golightly::cuda {
namespace {

/// The imaginary copy of a complex run: the same grid, its sources driven by the imaginary
/// weights (cpu::imaginary_scene). Frames, fields and time probes show the real copy, DFTs
/// combine both (CudaEngine3D::dft).
template <class T> struct ImaginaryCopy3D {
    SceneView scene;  ///< cpu::imaginary_scene: the sources' imaginary weights
    Bulk3<T> bulk;
    Sources<T> sources;
    Dispersion<T> dispersion;
    TensorCouplings<T> tensor;
    Monitors<T> monitors;

    /// Sets the copy up for the real scene `sc` whose bulk is `real` (in place, as the real
    /// one), and makes the two bulks read each other across the Bloch wraps.
    void setup(const Scene& sc, Bulk3<T>& real, cudaStream_t stream, int sms, const CudaTuning& tune) {
        scene = SceneView(cpu::imaginary_scene(sc));
        const Scene& si = *scene;
        bulk.setup(si, stream, sms, false, tune);
        const FieldArrays<T> f = bulk.fields();
        sources.setup(si, f, stream);
        monitors.setup(si, f, stream);
        dispersion.setup(si, f, stream);
        tensor.setup(si, f, stream);
        real.set_bloch_partner(bulk, sc.bloch_phase, 0);
        bulk.set_bloch_partner(real, sc.bloch_phase, 1);
    }
};

template <class T> class ComplexStep3D final : public StepStrategy3D<T> {
public:
    ComplexStep3D(StepParts3D<T>& re, ImaginaryCopy3D<T>& im) : re_(re), im_(im) {}
    std::string kernel() const override {
        return "one step per pass, in place (update_h3, update_e3), two copies (complex fields)";
    }
    void enqueue_steps(int steps) override {
        for (int k = 0; k < steps; ++k) enqueue_one(k);
    }

    /// Step k: each phase for the real copy, then the imaginary one. Both H updates read E^n
    /// of both copies (across a Bloch wrap), so both come before either E update, which reads
    /// H^{n+1/2} of both.
    /// The 2D engine's enqueue_complex_steps (cuda_engine.cu) is a deliberate twin with the
    /// 2D step order (H sources after the H update, Mur walls); it says why they stay apart.
    void enqueue_one(int k) {
        struct Copy {  // one copy's bulk and extensions
            Bulk3<T>& bulk;
            Sources<T>& sources;
            Dispersion<T>& dispersion;
            TensorCouplings<T>& tensor;
            Monitors<T>& monitors;
        };
        Copy copies[2] = {{re_.bulk, re_.sources, re_.dispersion, re_.tensor, re_.monitors},
                          {im_.bulk, im_.sources, im_.dispersion, im_.tensor, im_.monitors}};
        const cudaStream_t stream = re_.stream;
        const StepLaunch at = re_.at(k);
        for (Copy& c : copies) c.sources.after_h(at);  // H sources into H^{n-1/2}
        for (Copy& c : copies) c.bulk.update_h(stream);  // H from E^n of both copies
        for (Copy& c : copies) {
            c.dispersion.before_e(at);
            c.tensor.before_e(stream);
        }
        for (Copy& c : copies) c.bulk.update_e(stream);
        for (Copy& c : copies) {  // each copy's own E from here on
            c.dispersion.after_e(stream);
            c.sources.after_e(at);
            c.tensor.after_e(stream);
            c.monitors.after_step(at);
        }
    }

private:
    StepParts3D<T>& re_;
    ImaginaryCopy3D<T>& im_;
};

}  // namespace
}  // namespace golightly::cuda
