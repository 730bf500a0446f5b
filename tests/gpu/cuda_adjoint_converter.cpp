// The second inverse-design benchmark on the CUDA engine: the TE0 -> TE1 mode
// converter of Schubert et al. 2022 (tests/common/adjoint_converter.hpp) at 10 nm, optimized
// with adjoint gradients in 100 MMA iterations, as the bend is in cuda_adjoint.cpp
// ([bend10]); the binarized design verified by a plain forward run, its minimum feature and
// the wall time per iteration printed. Hidden: run it with `golightly_gpu_tests "[converter10]"`.
#include <catch2/catch.hpp>

#include <cstdio>
#include <limits>

#include "adjoint_converter.hpp"
#include "golightly/adjoint_optimize.hpp"

using namespace golightly;
using namespace golightly::test;

TEST_CASE("CUDA: adjoint optimization of the 2D TE0 to TE1 mode converter at 10 nm (1.6 x 1.6 um region, conic filter "
          "of an 80 nm length scale) reaches -0.5 dB conversion and -20 dB reflection within 100 iterations",
          "[.][adjoint][converter10]") {
    // the benchmark of Schubert et al. 2022 (ceviche challenges) as the issue states it; the
    // same schedule as [bend10]
    const adjoint::Problem p = converter_problem(0.01, 0.01, BackendChoice::Cuda, Precision::Float32);
    adjoint::OptimizerSettings s;
    s.max_iterations = 100;
    s.mapping.radius_um = design::conic_radius_from_eta_e(0.08, 0.75);  // 80 nm at eta_e 0.75
    s.mapping.beta = 4;
    s.beta_every = 20;
    s.beta_max = 64;
    double total_s = 0;
    long long steps = 0;
    const adjoint::OptimizeResult r =
        adjoint::optimize_density(p, std::vector<double>(p.region.pixels(), 0.5), s, [&](const adjoint::Iteration& it) {
            total_s += it.wall_s;
            steps += it.steps;
            std::printf("converter10 iteration %d beta %g T %.4f (%.2f s, %lld steps)\n", it.index, it.beta,
                        it.objective, it.wall_s, it.steps);
            return true;
        });
    std::printf("converter10: %zu iterations in %.1f s (%.3f s per iteration, %lld steps)\n", r.history.size(), total_s,
                total_s / double(r.history.size()), steps);
    design::DesignMapping binary = s.mapping;
    binary.beta = std::numeric_limits<double>::infinity();
    design::DensityGrid grid = adjoint::density_grid(p.region, 2);
    grid.rho = r.rho;
    design::DensityGrid binarized = grid;
    binarized.rho = design::map_density(grid, binary);
    const adjoint::Evaluation ev = adjoint::evaluate(p, binarized.rho);
    const ConverterSpectra sp = converter_spectra(ev);
    for (std::size_t f = 0; f < sp.T.size(); ++f) {
        std::printf("converter10 binarized: frequency %zu T(TE1) %.4f (%.3f dB) R %.2e (%.1f dB) T(TE0) %.2e\n", f,
                    sp.T[f], 10 * std::log10(sp.T[f]), sp.R[f], 10 * std::log10(sp.R[f]), sp.T0[f]);
        CHECK(10 * std::log10(sp.T[f]) >= -0.5);
        CHECK(10 * std::log10(sp.R[f]) <= -20);
    }
    const design::MeasuredLengthScale ml = design::measure_length_scale(binarized);
    std::printf("converter10 binarized: length scale solid %.3f um, void %.3f um (imageruler)\n", ml.solid_um,
                ml.void_um);
}
