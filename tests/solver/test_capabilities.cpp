// What each backend says it runs (capabilities.hpp) and the one chooser built on it
// (run.hpp make_engine): refusals and warnings name the reason, on any machine.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "golightly/capabilities.hpp"
#include "golightly/compile.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"
#include "golightly/errors.hpp"
#include "golightly/run.hpp"
#include "test_3d_projects.hpp"

using namespace golightly;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/// A small compiled 3D vacuum scene with Mur faces on z (the CUDA backend has none in 3D).
Scene mur3d_scene() {
    const CompiledProject c = compile_project(test3d::vacuum_project(1.0, 0.8, 0.6, 0.05, 6, 0.8, 1.2, 3), "t.glproj");
    Scene m = c.scene;
    m.boundary[2] = BoundaryKind::Mur;
    m.pml_lo[2] = m.pml_hi[2] = 0;
    build_cpml(m, 3.0, 1e-8);
    return m;
}

}  // namespace

TEST_CASE("capabilities: the CPU runs every scene, CUDA names 3D Mur faces before a missing device",
          "[capabilities]") {
    Scene plain;  // the checks read flags and list sizes only
    plain.dimensions = 3;
    Scene mur = plain;
    mur.boundary[1] = BoundaryKind::Mur;
    for (const Precision p : {Precision::Float32, Precision::Float64}) {
        CHECK_FALSE(cpu_cannot_run(plain, p));
        CHECK_FALSE(cpu_cannot_run(mur, p));
        CHECK_FALSE(backend_cannot_run(EngineBackend::Cpu, mur, p));
    }
    // 3D Mur faces: a feature, named on any machine (auto warns about it even without a GPU).
    const auto why = cuda_cannot_run(mur, Precision::Float32);
    REQUIRE(why);
    CHECK(why->backend == EngineBackend::Cuda);
    CHECK(why->kind == Unsupported::Kind::Feature);
    CHECK(why->what == "3D runs with mur boundaries");
    CHECK(why->refusal() ==
          "backend cuda was requested but the CUDA backend does not support 3D runs with mur boundaries yet: "
          "use backend cpu or auto (golightly-cli run --backend cpu)");
    CHECK(why->fallback_warning(EngineBackend::Cpu) ==
          "backend auto: 3D runs with mur boundaries use the CPU (the CUDA backend does not support them yet)");
    // Mur faces in 2D are the CUDA engines' own.
    Scene mur2d = mur;
    mur2d.dimensions = 2;
    const auto why2d = cuda_cannot_run(mur2d, Precision::Float32);
    // A scene CUDA implements: it runs where a device is, else the reason is the device.
    const auto why_plain = cuda_cannot_run(plain, Precision::Float64);
    if (cuda_available()) {
        CHECK_FALSE(why_plain);
        CHECK_FALSE(why2d);
    } else {
        REQUIRE(why_plain);
        CHECK(why_plain->kind == Unsupported::Kind::NoDevice);
        CHECK(why_plain->what == cuda_device_description());
        CHECK(has(why_plain->refusal(), "backend cuda was requested but no CUDA device is usable: "));
        CHECK(has(why_plain->refusal("node7"), "no CUDA device is usable on node7: "));
        CHECK(why_plain->fallback_warning(EngineBackend::Cpu).empty());  // no GPU is not worth a warning
        REQUIRE(why2d);
        CHECK(why2d->kind == Unsupported::Kind::NoDevice);
    }
    CHECK(backend_name(EngineBackend::Cuda) == "cuda");
    CHECK(backend_name(EngineBackend::Cpu) == "cpu");
}

TEST_CASE("make_engine: one chooser for one device and a device selection, reasons named",
          "[capabilities][run]") {
    const Scene m = mur3d_scene();
    std::vector<std::string> warnings;
    // cpu: the CPU, silently, with or without a selection.
    auto one = make_engine(m, BackendChoice::Cpu, Precision::Float32, 1, warnings);
    CHECK(one->backend() == "cpu");
    CHECK(one->distribution().subdomains.empty());
    CHECK(make_engine(m, BackendChoice::Cpu, Precision::Float32, 1, DeviceSelection{}, warnings)->backend() == "cpu");
    CHECK(warnings.empty());
    // auto on two devices: the reason CUDA was passed over, then the CPU subdomains.
    DeviceSelection two;
    two.kind = DeviceSelection::Kind::Count;
    two.count = 2;
    auto e = make_engine(m, BackendChoice::Auto, Precision::Float32, 1, two, warnings);
    CHECK(e->backend() == "cpu");
    CHECK(e->distribution().subdomains.size() == 2);
    REQUIRE(warnings.size() == 2);
    CHECK(has(warnings[0], "3D runs with mur boundaries use the CPU"));
    CHECK(has(warnings[1], "run.devices 2 on the CPU backend"));
    // cuda: refused with the reason, with or without a selection.
    for (const bool with_selection : {false, true}) {
        try {
            if (with_selection)
                make_engine(m, BackendChoice::Cuda, Precision::Float32, 1, two, warnings);
            else
                make_engine(m, BackendChoice::Cuda, Precision::Float32, 1, warnings);
            FAIL("cuda accepted a 3D Mur scene");
        } catch (const RunError& err) {
            CHECK(has(err.what(), "backend cuda was requested but the CUDA backend does not support 3D runs with mur"));
        }
    }
}
