// Bloch-periodic boundaries and complex fields on the 2D CUDA engine (#51 items 2 and 5):
// the engine steps the real and imaginary copies with the ordinary bulk kernels, each
// reading the other across the Bloch wrap (cuda_common.cuh DevGrid "Complex fields").
//
// Engine level (2D: TMz and TEz, x and y Bloch axes, with and without a Lorentz pole; 3D:
// the Bloch phase along x, y and z, six components): the CPU engine's complex run is exact (tests/solver/test_bloch.cpp: equal to
// the real supercell run to rounding), so the CUDA engine must equal it to rounding too.
// float64: the same arithmetic in another order (FMA contraction on the GPU) over 400
// steps of a lossy, optionally dispersive slab: relative 1e-10 (measured differences are at
// the 1e-14 level; a wrong rotation sign or a missed wrap gives order-1 differences).
// float32: rounding of single precision grown over 400 steps, 1e-3 of the largest value as
// in the other float32 GPU comparisons (tests/gpu/cuda_symmetry.cpp).
// End to end: the oblique-incidence example (30 degrees over a Bloch x axis, a glass slab)
// through run_project on CUDA gives the CPU run's normalized spectra to 1e-6 (float64; the
// spectra are ratios of DFT fluxes of fields that agree to ~1e-12).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "bloch_cases.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"
#include "golightly/distributed.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

/// Largest |a - b| relative to the largest |a| of two engines' reads (fields or DFTs).
template <class V>
double relative_deviation(const V& a, const V& b) {
    REQUIRE(a.size() == b.size());
    double scale = 0, dev = 0;
    for (std::size_t q = 0; q < a.size(); ++q) {
        scale = std::max(scale, double(std::abs(a[q])));
        dev = std::max(dev, double(std::abs(a[q] - b[q])));
    }
    REQUIRE(scale > 0);
    return dev / scale;
}

/// Largest deviation of engine `b` from engine `a` over every component's real field and
/// complex DFT of `pair` (both stepped already).
double engine_deviation(Engine& a, Engine& b, const BlochPair& pair) {
    double rel = 0;
    for (std::size_t k = 0; k < pair.comps.size(); ++k) {
        std::vector<double> fa, fb;
        cuda_select_device(0);
        a.get_field(pair.comps[k], fa);
        b.get_field(pair.comps[k], fb);
        cuda_select_device(0);
        const auto xa = a.dft(int(k));
        const auto xb = b.dft(int(k));
        rel = std::max({rel, relative_deviation(fa, fb), relative_deviation(xa, xb)});
    }
    return rel;
}

/// Largest deviation of the CUDA engine's complex run from the CPU engine's, relative to
/// the largest value, over every component's real field and complex DFT.
double cuda_vs_cpu(const BlochPair& pair, Precision precision, int steps, std::string* kernel = nullptr) {
    auto cpu = make_cpu_engine(pair.cell, precision, 1);
    auto gpu = make_cuda_engine(std::make_shared<const Scene>(pair.cell), precision);
    cpu->step(steps);
    gpu->step(steps);
    if (kernel) *kernel = gpu->kernel();
    const double rel = engine_deviation(*cpu, *gpu, pair);
    CHECK(gpu->field_energy() == Approx(cpu->field_energy()).epsilon(precision == Precision::Float64 ? 1e-10 : 1e-3));
    return rel;
}

}  // namespace

TEST_CASE("CUDA 2D: complex Bloch fields equal the CPU engine's (TMz, TEz, x and y Bloch axes, dispersive)",
          "[gpu][cuda][bloch]") {
    for (const BlochCase& bc : all_2d_bloch_cases()) {
        INFO(describe(bc));
        const double d64 = cuda_vs_cpu(make_bloch_pair(bc), Precision::Float64, 400);
        CHECK(d64 < 1e-10);
        const double d32 = cuda_vs_cpu(make_bloch_pair(bc), Precision::Float32, 400);
        CHECK(d32 < 1e-3);
        std::printf("[bloch] CUDA vs CPU %s: %.2g (float64), %.2g (float32)\n", describe(bc).c_str(), d64, d32);
    }
}

TEST_CASE("CUDA 3D: complex Bloch fields equal the CPU engine's (Bloch phase along x, y and z)",
          "[gpu][cuda][bloch]") {
    for (int a = 0; a < 3; ++a) {
        INFO("Bloch axis " << "xyz"[a]);
        std::string kernel;
        const double d64 = cuda_vs_cpu(make_bloch_pair3(a), Precision::Float64, 200, &kernel);
        CHECK(d64 < 1e-10);
        const double d32 = cuda_vs_cpu(make_bloch_pair3(a), Precision::Float32, 200);
        CHECK(d32 < 1e-3);
        CHECK(kernel.find("complex") != std::string::npos);
        std::printf("[bloch] CUDA 3D vs CPU, axis %c: %.2g (float64), %.2g (float32); kernel %s\n", "xyz"[a], d64, d32,
                    kernel.c_str());
    }
}

// Several CUDA subdomains (the distributed engine, two pieces on device 0, or on devices 0
// and 1 where two are visible) of a complex run cut along an axis without a Bloch phase:
// both copies' halos move by the peer copies (FieldStorage's imaginary arrays); equal to
// one CUDA engine to rounding in float64 (the same kernels on the same values), as the
// real runs of cuda_distributed.cpp.
TEST_CASE("CUDA: complex Bloch fields on two subdomains equal one engine (2D x Bloch, 3D y Bloch)",
          "[gpu][cuda][bloch][distributed]") {
    auto compare = [](const BlochPair& pair, int steps) {
        auto view = std::make_shared<const Scene>(pair.cell);
        auto one = make_cuda_engine(view, Precision::Float64, 0);
        std::vector<SubdomainDevice> devs(2);
        for (std::size_t s = 0; s < devs.size(); ++s) {
            devs[s].cuda = true;
            devs[s].ordinal = cuda_device_count() > 1 ? int(s) : 0;
        }
        DistributedEngine many(view, Precision::Float64, devs);
        REQUIRE(many.partition().subs.size() == 2);
        cuda_select_device(0);
        one->step(steps);
        many.step(steps / 2);
        many.step(steps - steps / 2);
        const double rel = engine_deviation(*one, many, pair);
        cuda_select_device(0);
        const double e1 = one->field_energy();
        CHECK(many.field_energy() == Approx(e1).epsilon(1e-10));
        return rel;
    };
    for (const BlochCase& bc : all_2d_bloch_cases()) {
        if (bc.bloch_axis != 0) continue;  // a Bloch y is the 2D cut axis: cuda_bloch_cut.cpp
        INFO(describe(bc));
        const double d = compare(make_bloch_pair(bc), 300);
        CHECK(d < 1e-10);
        std::printf("[bloch] CUDA 2 subdomains vs 1, %s: %.2g\n", describe(bc).c_str(), d);
    }
    const double d3 = compare(make_bloch_pair3(1), 120);
    CHECK(d3 < 1e-10);
    std::printf("[bloch] CUDA 3D 2 subdomains vs 1, Bloch y, cut z: %.2g\n", d3);
}

TEST_CASE("CUDA 2D: the oblique-incidence example gives the CPU run's spectra", "[gpu][cuda][bloch]") {
    namespace fs = std::filesystem;
    Project p = load_project(fs::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "oblique_slab.glproj");
    p.run.precision = Precision::Float64;
    RunOptions o;
    o.backend = BackendChoice::Cpu;
    const RunResult cpu = run_project(p, "oblique_slab.glproj", o);
    o.backend = BackendChoice::Cuda;
    const RunResult gpu = run_project(p, "oblique_slab.glproj", o);
    CHECK(gpu.backend == "cuda");
    REQUIRE(cpu.spectra.size() == gpu.spectra.size());
    REQUIRE_FALSE(cpu.spectra.empty());
    double dev = 0;
    for (std::size_t m = 0; m < cpu.spectra.size(); ++m) {
        const auto& a = cpu.spectra[m].normalized.empty() ? cpu.spectra[m].flux : cpu.spectra[m].normalized;
        const auto& b = gpu.spectra[m].normalized.empty() ? gpu.spectra[m].flux : gpu.spectra[m].normalized;
        REQUIRE(a.size() == b.size());
        double scale = 0;
        for (double v : a) scale = std::max(scale, std::abs(v));
        REQUIRE(scale > 0);
        for (std::size_t f = 0; f < a.size(); ++f) dev = std::max(dev, std::abs(a[f] - b[f]) / scale);
    }
    std::printf("[bloch] oblique_slab example, CUDA vs CPU spectra: %.2g (float64, %lld steps)\n", dev,
                (long long)gpu.steps);
    CHECK(dev < 1e-6);
    CHECK(gpu.steps == cpu.steps);
}
