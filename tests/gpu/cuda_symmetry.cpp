// Mirror symmetry planes on the CUDA backend (#51 items 1 and 5: "symmetry must run on"
// the two-steps-per-pass kernel): the reduced run on the GPU gives the whole domain's
// results, as on the CPU (tests/solver/test_symmetry.cpp, whose top comment gives the 1e-6
// in float64). In float32 the two runs round differently wherever the sub-pixel averages
// of mirror-image cells differ in their last bits, so the bound is float32's: 1e-3 of the
// largest value (a wrong parity or a lost sample gives differences of order 1).
#include <catch2/catch.hpp>

#include <cstdio>

#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "symmetry_projects.hpp"

using namespace golightly;
using namespace golightly::test;

TEST_CASE("CUDA: three symmetry planes around a dipole in a sphere give the whole domain's results",
          "[gpu][cuda][symmetry]") {
    RunResult half;
    const double d64 = whole_vs_reduced(sphere_three_planes(), {1, 1, -1}, &half, BackendChoice::Cuda);
    CHECK(half.backend == "cuda");
    const double d32 = whole_vs_reduced(sphere_three_planes(), {1, 1, -1}, &half, BackendChoice::Cuda,
                                        Precision::Float32, 1e-3);
    std::printf("[symmetry] CUDA sphere, 3 planes: whole vs eighth %.3g (float64), %.3g (float32); kernel %s\n", d64,
                d32, half.kernel.c_str());
}

TEST_CASE("CUDA: a strip guide on a quarter domain (two planes) in float32, on the two-step kernel",
          "[gpu][cuda][symmetry]") {
    RunResult half;
    const double d32 = whole_vs_reduced(strip_two_planes(), {-1, 0, 1}, &half, BackendChoice::Cuda,
                                        Precision::Float32, 1e-3);
    std::printf("[symmetry] CUDA strip, 2 planes: whole vs quarter %.3g (float32); kernel %s\n", d32,
                half.kernel.c_str());
    CHECK(half.kernel.find("two steps") != std::string::npos);
    const double d64 = whole_vs_reduced(strip_two_planes(), {-1, 0, 1}, &half, BackendChoice::Cuda);
    std::printf("[symmetry] CUDA strip, 2 planes: whole vs quarter %.3g (float64); kernel %s\n", d64,
                half.kernel.c_str());
}

TEST_CASE("CUDA: a TF/SF plane wave on a sphere on a quarter domain gives the whole domain's results",
          "[gpu][cuda][symmetry]") {
    RunResult half;
    const double d64 = whole_vs_reduced(tfsf_sphere_two_planes(), {1, 0, -1}, &half, BackendChoice::Cuda);
    std::printf("[symmetry] CUDA TF/SF sphere, x and z planes: whole vs quarter %.3g (float64); kernel %s\n", d64,
                half.kernel.c_str());
}
