// The viewport's frame paths on the CUDA engine: sample_field (device box means, only the
// small map crosses to the host) equals the CPU engine's on the same fields, squared too;
// frame_to_device writes exactly frame()'s bytes.
#include <catch2/catch.hpp>

#include <cmath>
#include <cuda_runtime.h>
#include <vector>

#include "golightly/bench.hpp"
#include "golightly/engine.hpp"

using namespace golightly;

TEST_CASE("CUDA sample_field and frame_to_device match the CPU engine and frame()", "[gpu][cuda][frames][sanitize]") {
    const Scene s = make_bench_scene(333, 250, Polarization::TEz);
    auto gpu = make_cuda_engine(s, Precision::Float64);
    auto cpu = make_cpu_engine(s, Precision::Float64, 2);
    std::vector<double> v(s.cells());
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = std::cos(0.11 * double(k % 333)) * std::sin(0.07 * double(k / 333));
    gpu->set_field(Component::Ex, v);
    cpu->set_field(Component::Ex, v);
    for (bool squared : {false, true}) {
        const auto a = gpu->frames().sample_field(Component::Ex, 64, 64, squared);
        const auto b = cpu->frames().sample_field(Component::Ex, 64, 64, squared);
        CHECK(a.factor == 6);  // max(ceil(333/64), ceil(250/64))
        REQUIRE(a.width == b.width);
        REQUIRE(a.height == b.height);
        REQUIRE(a.values.size() == b.values.size());
        double worst = 0;
        for (std::size_t k = 0; k < a.values.size(); ++k) worst = std::max(worst, double(std::abs(a.values[k] - b.values[k])));
        CHECK(worst < 1e-6);
    }
    CHECK_THROWS_AS(gpu->frames().sample_field(Component::Ez, 8, 8), std::invalid_argument);

    FrameRequest req{Component::Ex, 100, 100, 0.0};
    const Image8 host = gpu->frames().frame(req);
    int w = 0, h = 0;
    CHECK_FALSE(gpu->frames().frame_to_device(req, nullptr, 0, w, h));  // too small: only the size
    CHECK(w == host.width);
    CHECK(h == host.height);
    void* d = nullptr;
    REQUIRE(cudaMalloc(&d, host.pixels.size()) == cudaSuccess);
    REQUIRE(gpu->frames().frame_to_device(req, d, host.pixels.size(), w, h));
    std::vector<std::uint8_t> back(host.pixels.size());
    REQUIRE(cudaMemcpy(back.data(), d, back.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
    cudaFree(d);
    CHECK(back == host.pixels);
    int cw = 0, ch = 0;
    CHECK_FALSE(cpu->frames().frame_to_device(req, nullptr, 1 << 20, cw, ch));  // CPU engines have no device frame
}
