// What each engine backend can run: the one place that knows it.
//
// Every chooser of a backend (the run driver's make_engine, the MPI ranks' rank_device)
// asks these functions instead of testing scene features itself, so a backend that learns
// a feature changes one function here and every chooser follows. Each answer is either
// "runs it" (no value) or an Unsupported that names what the backend cannot run; the
// choosers turn it into their refusal (an explicit backend) or their warning (auto, which
// moves on to the next backend). The checks are cheap (flags and list sizes of the scene,
// cuda_available()): nothing is allocated and no engine is made.
#pragma once

#include <optional>
#include <string>

#include "golightly/scene.hpp"

namespace golightly {

/// The engine backends a chooser picks between, in the names Engine::backend() returns
/// ("cpu", "cuda").
enum class EngineBackend { Cpu, Cuda };

/// "cpu" or "cuda" (as Engine::backend()).
std::string backend_name(EngineBackend backend);
/// "CPU" or "CUDA": the backend as messages write it.
std::string backend_title(EngineBackend backend);

/// Why a backend cannot run a scene here.
struct Unsupported {
    enum class Kind {
        /// The backend has no usable device on this machine (or was not compiled in): not
        /// a property of the scene, so backend auto moves on without a warning.
        NoDevice,
        /// The scene uses something the backend does not implement (yet).
        Feature,
    };
    EngineBackend backend = EngineBackend::Cuda;
    Kind kind = Kind::Feature;
    /// Feature: what the backend cannot run, a plural noun phrase that reads after "does
    /// not support" ("3D runs with mur boundaries"). NoDevice: why no device is usable
    /// (cuda_device_description()).
    std::string what;

    /// The error text when this backend was asked for explicitly, e.g. "backend cuda was
    /// requested but the CUDA backend does not support 3D runs with mur boundaries yet: use
    /// backend cpu or auto (golightly-cli run --backend cpu)". `host` (optional, MPI ranks)
    /// names the machine that has no device.
    std::string refusal(const std::string& host = {}) const;
    /// The warning when backend auto runs on another backend instead, e.g. "backend auto:
    /// 3D runs with mur boundaries use the CPU (the CUDA backend does not support them
    /// yet)"; empty for NoDevice (having no GPU is not worth a warning).
    std::string fallback_warning(EngineBackend instead) const;
};

/// Whether the CPU backend runs `scene` in `precision`: it implements every feature of
/// scene.hpp, so the answer is always "yes" (no value). Its memory check happens when the
/// engine is made (make_cpu_engine throws OutOfMemoryError), not here.
std::optional<Unsupported> cpu_cannot_run(const Scene& scene, Precision precision);

/// Whether the CUDA backend runs `scene` in `precision` on this machine; the first reason
/// it does not, checked in this order:
///   3D scenes with a mur boundary (Feature: the 3D CUDA engine has no Mur faces),
///   no usable CUDA device, or CUDA not compiled in (NoDevice),
///   dispersive cells where cuda_supports_dispersion() is false (Feature).
/// Whether the grid fits in device memory is not checked here: make_cuda_engine throws
/// OutOfMemoryError, and the choosers handle that (auto falls back to the CPU).
std::optional<Unsupported> cuda_cannot_run(const Scene& scene, Precision precision);

/// cpu_cannot_run() or cuda_cannot_run() by `backend`.
std::optional<Unsupported> backend_cannot_run(EngineBackend backend, const Scene& scene, Precision precision);

}  // namespace golightly
