// Far fields and resonances on the CUDA backend (issue 52: "CPU and CUDA, 2D and 3D"):
// the surface DFTs and time samples a CUDA run hands back give the same projection and
// resonances as on the CPU. The physics bounds are those of the CPU tests
// (tests/solver/test_far_field.cpp, test_resonances.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>

#include "golightly/cuda_far_field.hpp"
#include "golightly/far_field.hpp"
#include "golightly/project.hpp"
#include "golightly/resonance_finder.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "far_field_projects.hpp"

using namespace golightly;

namespace {

/// Random equivalent currents on n samples of a box (or a 2D square) 2 um across.
SurfaceCurrents random_currents(int dims, Polarization pol, std::size_t n, unsigned seed) {
    std::mt19937 g(seed);
    std::uniform_real_distribution<double> u(-1, 1);
    SurfaceCurrents s;
    s.frequency_hz = units::wavelength_um_to_hz(0.8);
    s.dimensions = dims;
    s.polarization = pol;
    for (std::size_t q = 0; q < n; ++q) {
        s.position_m.push_back(Vec3{1e-6 * u(g), 1e-6 * u(g), 1e-6 * u(g)});
        s.ds.push_back(1e-16 * (1 + u(g)));
        s.j.push_back({std::complex<double>(u(g), u(g)), {u(g), u(g)}, {u(g), u(g)}});
        s.m.push_back({std::complex<double>(u(g), u(g)), {u(g), u(g)}, {u(g), u(g)}});
    }
    return s;
}

}  // namespace

// The projection's sums on the GPU (cuda_far_field.hpp) against project_far_field's own
// CPU loop, both float64: equal to rounding. The sums of ~n terms of size ~1 with random
// phases are ~sqrt(n); each term's rounding is ~1e-16 (the phase k r ~ 10 rad adds ~1e-15
// in sincos), so the difference is bounded by ~n * 1e-15 of the term size, 1e-11 of the
// result for n = 4000 with a factor of 100 to spare. Timing printed, not asserted.
TEST_CASE("CUDA: the far-field projection's sums on the GPU equal the CPU's (2D TMz, TEz and 3D)",
          "[gpu][cuda][far_field]") {
    struct Case {
        int dims;
        Polarization pol;
    };
    for (const Case c : {Case{3, Polarization::TMz}, Case{2, Polarization::TMz}, Case{2, Polarization::TEz}}) {
        const SurfaceCurrents s = random_currents(c.dims, c.pol, 4000, 7u + unsigned(c.dims) + unsigned(c.pol));
        std::vector<std::array<double, 2>> dirs;
        for (int i = 0; i < (c.dims == 3 ? 19 : 1); ++i)
            for (int j = 0; j < 72; ++j) dirs.push_back({c.dims == 3 ? units::pi * i / 18 : 0.5 * units::pi, 2 * units::pi * j / 72});
        int calls = 0;
        const RadiationVectorsFn gpu = [&calls](const SurfaceCurrents& x, const std::vector<std::array<double, 3>>& u) {
            ++calls;
            return cuda_radiation_vectors(2 * units::pi * x.frequency_hz / units::c0, x.dimensions == 2, x.position_m,
                                          x.j, x.m, x.ds, u);
        };
        const auto a = project_far_field(s, dirs);
        const auto b = project_far_field(s, dirs, gpu);
        CHECK(calls == 1);
        REQUIRE(a.size() == b.size());
        double scale = 0, worst = 0;
        for (const auto& x : a) scale = std::max(scale, std::abs(x.e_theta) + std::abs(x.e_phi));
        for (std::size_t d = 0; d < a.size(); ++d)
            worst = std::max(worst, std::abs(a[d].e_theta - b[d].e_theta) + std::abs(a[d].e_phi - b[d].e_phi));
        std::printf("[far field] GPU sums, %dD: worst |E_gpu - E_cpu| %.2e of the largest |E|\n", c.dims, worst / scale);
        CHECK(scale > 0);
        CHECK(worst < 1e-11 * scale);
    }
    // a theta-phi map at 1 degree (181 x 360 directions) of a 3D box's 60,000 samples:
    // 3.9e9 terms (the CPU loop takes minutes: timed on a 200-direction subset)
    const SurfaceCurrents big = random_currents(3, Polarization::TMz, 60000, 11u);
    std::vector<std::array<double, 2>> map;
    for (int i = 0; i <= 180; ++i)
        for (int j = 0; j < 360; ++j) map.push_back({units::pi * i / 180, 2 * units::pi * j / 360});
    const RadiationVectorsFn gpu = [](const SurfaceCurrents& x, const std::vector<std::array<double, 3>>& u) {
        return cuda_radiation_vectors(2 * units::pi * x.frequency_hz / units::c0, false, x.position_m, x.j, x.m, x.ds, u);
    };
    const auto t0 = std::chrono::steady_clock::now();
    const auto on_gpu = project_far_field(big, map, gpu);
    const auto t1 = std::chrono::steady_clock::now();
    const std::vector<std::array<double, 2>> subset(map.begin(), map.begin() + 200);
    const auto on_cpu = project_far_field(big, subset);
    const auto t2 = std::chrono::steady_clock::now();
    const double gpu_s = std::chrono::duration<double>(t1 - t0).count();
    const double cpu_s = std::chrono::duration<double>(t2 - t1).count() * double(map.size()) / double(subset.size());
    std::printf("[far field] 60000 samples x %zu directions: GPU %.3f s (%.2e terms/s), CPU loop %.1f s "
                "(extrapolated from 200 directions): %.0fx\n",
                map.size(), gpu_s, 60000.0 * double(map.size()) / gpu_s, cpu_s, cpu_s / gpu_s);
    REQUIRE(on_gpu.size() == map.size());
    double scale = 0, worst = 0;
    for (std::size_t d = 0; d < subset.size(); ++d) {
        scale = std::max(scale, std::abs(on_cpu[d].e_theta) + std::abs(on_cpu[d].e_phi));
        worst = std::max(worst, std::abs(on_cpu[d].e_theta - on_gpu[d].e_theta) + std::abs(on_cpu[d].e_phi - on_gpu[d].e_phi));
    }
    CHECK(worst < 1e-10 * scale);
}

TEST_CASE("CUDA: a dipole's far field is sin^2(theta) with its flux box's power", "[gpu][cuda][far_field]") {
    for (const char* precision : {"float32", "float64"}) {
        const Project p = parse_project(test::dipole_project_json(precision, "cuda"), "dipole.glproj");
        const RunResult r = run_project(p, "dipole.glproj");
        CHECK(r.backend == "cuda");
        REQUIRE(r.far_fields.size() == 1);
        const auto& s = r.far_fields[0].samples.at(0);
        double umax = 0, worst = 0;
        for (const auto& x : s) umax = std::max(umax, x.intensity);
        for (const auto& x : s) worst = std::max(worst, std::fabs(x.intensity / umax - std::pow(std::sin(x.theta_rad), 2)));
        const double flux = r.spectra.at(0).flux.at(2);
        std::printf("[far field] CUDA %s: worst |U/Umax - sin^2| %.4f, projected / flux-box power %.5f\n", precision, worst,
                    r.far_fields[0].power[0] / flux);
        CHECK(worst < 0.01);
        CHECK(r.far_fields[0].power[0] == Approx(flux).epsilon(0.005));
    }
}

TEST_CASE("CUDA: a 3D PEC box's resonances equal the Yee mode frequencies", "[gpu][cuda][resonances]") {
    // scripts/gpu-check.sh brings Harminv from .devdeps: a build without it fails here
    REQUIRE(resonance_finder_available());
    const RunResult r = run_project(parse_project(test::pec_box_project_json("cuda"), "box.glproj"), "box.glproj");
    CHECK(r.backend == "cuda");
    test::check_pec_box_resonances(r, "CUDA");
}
