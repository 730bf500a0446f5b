// GPU test executable: exits 77 (CTest: skipped) where no CUDA device is present, else
// runs the Catch2 session. `golightly_gpu_tests --bench NX NY STEPS float32|float64 TMz|TEz`
// runs one benchmark instead and prints the bench JSON object (scripts/gpu-check.sh).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "golightly/bench.hpp"
#include "golightly/cuda_device.hpp"
#include "golightly/engine.hpp"

int main(int argc, char** argv) {
    if (!golightly::cuda_available()) {
        std::printf("SKIPPED: no CUDA device (%s)\n", golightly::cuda_device_description().c_str());
        return 77;
    }
    if (argc >= 2 && std::strcmp(argv[1], "--bench") == 0) {
        if (argc != 7) {
            std::fprintf(stderr, "usage: %s --bench NX NY STEPS float32|float64 TMz|TEz\n", argv[0]);
            return 1;
        }
        try {
            golightly::BenchOptions o;
            o.backend = "cuda";
            o.nx = std::stoi(argv[2]);
            o.ny = std::stoi(argv[3]);
            o.steps = std::stoi(argv[4]);
            o.precision = std::string(argv[5]) == "float64" ? golightly::Precision::Float64 : golightly::Precision::Float32;
            o.polarization = std::string(argv[6]) == "TEz" ? golightly::Polarization::TEz : golightly::Polarization::TMz;
            std::printf("%s\n", golightly::bench_report_json(golightly::run_bench(o)).c_str());
            return 0;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bench failed: %s\n", e.what());
            return 3;
        }
    }
    std::printf("CUDA device: %s\n", golightly::cuda_device_description().c_str());
    return Catch::Session().run(argc, argv);
}
