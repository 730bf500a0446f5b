// What each engine backend can run (capabilities.hpp).
#include "golightly/capabilities.hpp"

#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"

namespace golightly {

std::string backend_name(EngineBackend backend) { return backend == EngineBackend::Cuda ? "cuda" : "cpu"; }

std::string backend_title(EngineBackend backend) { return backend == EngineBackend::Cuda ? "CUDA" : "CPU"; }

std::string Unsupported::refusal(const std::string& host) const {
    const std::string head = "backend " + backend_name(backend) + " was requested but ";
    if (kind == Kind::NoDevice)
        return head + "no " + backend_title(backend) + " device is usable" + (host.empty() ? "" : " on " + host) +
               ": " + what;
    return head + "the " + backend_title(backend) + " backend does not support " + what +
           " yet: use backend cpu or auto (golightly-cli run --backend cpu)";
}

std::string Unsupported::fallback_warning(EngineBackend instead) const {
    if (kind == Kind::NoDevice) return {};
    return "backend auto: " + what + " use the " + backend_title(instead) + " (the " + backend_title(backend) +
           " backend does not support them yet)";
}

std::optional<Unsupported> cpu_cannot_run(const Scene&, Precision) { return std::nullopt; }

std::optional<Unsupported> cuda_cannot_run(const Scene& scene, Precision) {
    // The scene's features come before the device so that backend auto names them (its
    // warning) even on a machine without a GPU, as an explicit cuda names them first.
    if (scene.dimensions == 3)
        for (int a = 0; a < 3; ++a)
            if (scene.boundary[a] == BoundaryKind::Mur)
                return Unsupported{EngineBackend::Cuda, Unsupported::Kind::Feature, "3D runs with mur boundaries"};
    if (!cuda_available()) return Unsupported{EngineBackend::Cuda, Unsupported::Kind::NoDevice, cuda_device_description()};
    if (scene.is_dispersive() && !cuda_supports_dispersion())
        return Unsupported{EngineBackend::Cuda, Unsupported::Kind::Feature, "dispersive materials"};
    return std::nullopt;
}

std::optional<Unsupported> backend_cannot_run(EngineBackend backend, const Scene& scene, Precision precision) {
    return backend == EngineBackend::Cuda ? cuda_cannot_run(scene, precision) : cpu_cannot_run(scene, precision);
}

}  // namespace golightly
