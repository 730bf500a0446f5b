// Adjoint gradients on the CUDA engine (adjoint.hpp, issue 53 item 4): the CPU suite's
// problems (tests/common/adjoint_problems.hpp) run on the GPU in float64 give the CPU's
// gradient (the same discrete problem: both engines follow scene.hpp to rounding; the runs
// stop at the same decay check) and agree with finite differences of CUDA forward runs to
// the 1e-2 (the method's own error is ~1e-5, test_adjoint.cpp).
#include <catch2/catch.hpp>

#include "adjoint_problems.hpp"

using namespace golightly;
using namespace golightly::test;

namespace {

void check_cuda_problem(Problem cuda, Problem cpu, unsigned seed) {
    const auto rho = random_density(cuda.region.pixels(), seed);
    const auto gc = adjoint::evaluate_with_gradient(cuda, rho);
    const auto gh = adjoint::evaluate_with_gradient(cpu, rho);
    double diff = 0, norm = 0;
    for (std::size_t k = 0; k < gc.gradient.size(); ++k) {
        diff = std::max(diff, std::abs(gc.gradient[k] - gh.gradient[k]));
        norm = std::max(norm, std::abs(gh.gradient[k]));
    }
    INFO("CUDA " << gc.forward_steps << " + " << gc.adjoint_steps << " steps in " << gc.forward_s << " + "
                 << gc.adjoint_s << " s; CPU " << gh.forward_s << " + " << gh.adjoint_s << " s");
    CHECK(gc.objective == Approx(gh.objective).epsilon(1e-8));
    CHECK(diff < 1e-6 * norm);
    const Check c = directional(cuda, rho, gc.gradient, random_vector(rho.size(), seed + 1));
    INFO("F " << gc.objective << " fd " << c.fd << " adjoint " << c.adj);
    REQUIRE(std::abs(c.fd) > 1e-3 * gc.objective);
    CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
}

}  // namespace

TEST_CASE("CUDA: adjoint gradients in 2D TMz, TEz (complex adjoint run) and 3D equal the CPU's and finite differences",
          "[adjoint]") {
    for (auto make : {tmz_problem, tez_problem, problem3d}) {
        Problem cuda = make(BackendChoice::Cuda), cpu = make(BackendChoice::Cpu);
        check_cuda_problem(cuda, cpu, 7);
    }
}
