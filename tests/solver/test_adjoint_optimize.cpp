// Topology optimization with adjoint gradients (adjoint_optimize.hpp, issue 53 item 5): a
// few MMA iterations on the small 2D TMz problem of the adjoint tests raise the objective;
// the beta schedule; a checkpoint resumes; bad settings are refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <limits>

#include "adjoint_problems.hpp"
#include "golightly/adjoint_optimize.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

using namespace golightly;
using namespace golightly::adjoint;
using namespace golightly::test;

TEST_CASE("adjoint optimize: MMA raises a focusing objective, follows the beta schedule and resumes from its checkpoint",
          "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    const Problem p = small_tmz_problem();
    OptimizerSettings s;
    s.max_iterations = 6;
    s.beta_every = 3;
    s.mapping.beta = 2;
    s.beta_max = 8;
    s.mapping.radius_um = 0.15;
    const std::vector<double> rho0(p.region.pixels(), 0.5);
    const Scratch scratch("adjoint", "optimize");  // its own folder: the Release and ASan suites may run at once
    const auto dir = scratch.path;
    s.checkpoint = dir / "checkpoint.json";
    // the first 3 evaluations, then a resumed run of 3 more
    OptimizerSettings first = s;
    first.max_iterations = 3;
    const OptimizeResult a = optimize_density(p, rho0, first);
    REQUIRE(a.history.size() == 3);
    CHECK(a.history[0].beta == 2);
    CHECK(std::filesystem::exists(s.checkpoint));
    OptimizerSettings second = s;
    second.max_iterations = 3;
    const OptimizeResult b = optimize_density(p, rho0, second);
    REQUIRE(b.history.size() == 3);
    CHECK(b.first_iteration == 3);
    CHECK(b.history[0].index == 3);
    CHECK(b.history[0].beta == 4);  // the schedule's second step
    // MMA with a correct gradient only accepts ascent steps, so the objective grows (by
    // 5.7 % in these 6 evaluations); a wrong gradient sign or scale stalls or lowers it.
    // The bound is ascent beyond rounding, not a figure taken from a run.
    const double start = a.history.front().objective, end = b.history.back().objective;
    std::string trace;
    for (const auto* r : {&a, &b})
        for (const auto& it : r->history) trace += std::to_string(it.objective / start) + " ";
    INFO("objective " << start << " -> " << end << " (relative: " << trace << ")");
    CHECK(end > start * (1 + 1e-9));
    for (const auto& it : b.history) {
        CHECK(it.gradient_norm > 0);
        for (double r : it.rho) CHECK((r >= 0 && r <= 1));
    }
}

TEST_CASE("adjoint optimize: an explicit beta list ending at infinity with the smoothed projection", "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    const Problem p = small_tmz_problem();
    const double inf = std::numeric_limits<double>::infinity();
    OptimizerSettings s;
    s.max_iterations = 5;
    s.beta_every = 2;
    s.betas = {2, 8, inf};
    s.mapping.smoothed = true;
    s.mapping.radius_um = 0.25;
    const OptimizeResult r = optimize_density(p, std::vector<double>(p.region.pixels(), 0.5), s);
    REQUIRE(r.history.size() == 5);
    const double expected[] = {2, 2, 8, 8, inf};
    for (std::size_t k = 0; k < 5; ++k) CHECK(r.history[k].beta == expected[k]);
    // at beta = infinity the smoothed projection is 0 or 1 away from the eta level and keeps
    // a gradient through the cells the level crosses (a tanh projection's would be 0)
    const Iteration& last = r.history.back();
    CHECK(last.gradient_norm > 0);
    std::size_t grey = 0;
    for (double v : last.rho_projected) {
        CHECK((v >= 0 && v <= 1));
        if (v > 0 && v < 1) ++grey;
    }
    CHECK(grey < last.rho_projected.size() / 2);
}

TEST_CASE("adjoint optimize: refusals", "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    Problem p = small_tmz_problem();
    OptimizerSettings s;
    s.algorithm = "newton";
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("unknown algorithm"));
    s.algorithm = "lbfgs";
    s.min_length_um = 0.1;
    s.mapping.radius_um = 0.15;
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("need mma or ccsa"));
    s = OptimizerSettings{};
    const double inf = std::numeric_limits<double>::infinity();
    s.betas = {4, inf};
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("needs the smoothed projection"));
    s.mapping.smoothed = true;
    s.betas = {4, inf, inf};
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("not the last beta"));
    s.betas = {8, 4};
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("below the beta before it"));
    s = OptimizerSettings{};
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(5, 0.5), s), Catch::Contains("5 initial densities for 36"));
    p.region.n = {6, 3, 1};
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(18, 0.5), s), Catch::Contains("not square"));
}

// A 3D region one pixel thick is a design extruded through its z extent (a slab's core):
// a 2D grid, its pixels square in x and y whatever the thickness; with two or more pixels
// along z they must be cubic.
TEST_CASE("adjoint optimize: a 3D region with one pixel along z is an extruded 2D density grid", "[adjoint]") {
    DesignRegion r;
    r.lo_um = {0.0, 0.0, -0.11};
    r.hi_um = {2.2, 2.2, 0.11};
    r.n = {110, 110, 1};
    const design::DensityGrid g = density_grid(r, 3);
    CHECK(g.nx == 110);
    CHECK(g.ny == 110);
    CHECK(g.nz == 1);
    CHECK(g.dx_um == Approx(0.02).epsilon(1e-12));
    r.n = {110, 110, 2};  // 0.11 um along z against 0.02 in x and y
    CHECK_THROWS_WITH(density_grid(r, 3), Catch::Contains("not square") && Catch::Contains("along z"));
    r.n = {110, 110, 11};
    CHECK(density_grid(r, 3).nz == 11);
    r.n = {110, 55, 1};  // x and y still checked
    CHECK_THROWS_WITH(density_grid(r, 3), Catch::Contains("along y"));
}
