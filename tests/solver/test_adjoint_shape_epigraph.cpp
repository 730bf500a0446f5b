// The worst wavelength (`design.objective.combine: "min"`, the epigraph form) with shape
// parameters (adjoint_shape.hpp optimize_shape): the per-wavelength gradients dF_f/dp
// against central finite differences of forward runs, and MMA and CCSA raising the worse of
// two wavelengths' values.
//
// The problem: a dielectric block (eps 4) in air, its width w and centre height yc the
// parameters (as tests/solver/test_adjoint_shape.cpp), a point source and the objective
// |Ez|^2 at a probe behind the block at 1.5 and 1.6 um, 2D TMz, float64.
//
// Tolerances. dF_f/dp is the frequency-f term of the sum that gives dF/dp (the same runs
// and sites), so the rows' mean equals the mean's gradient to rounding (1e-12 of the
// largest entry). Against the forward runs' central differences (h = 1e-3 um, 2 % of a
// cell, the edges 0.1 cell or more from a window edge so that eps_r(p) is smooth on
// [p - h, p + h]): O(h^2) truncation ~1e-6 relative and the runs' end at 1e-14 of the peak
// energy ~1e-4 relative in the difference, far below the 1e-2, which is the bound.
// Taking frequency f's row from the other frequency changes it by O(1) (the two rows differ
// by more than 10 %, checked).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_shape.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"
#include "shape_block_project.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

/// The shared block (shape_block_project.hpp) with two objective wavelengths combined by
/// their minimum (the epigraph form), six evaluations.
Json block_two_wavelengths() {
    Json j = Json::parse(test::kShapeBlockTMz);
    j["name"] = "shape block minimax";
    j["design"]["objective"]["wavelengths_um"] = {1.5, 1.6};
    j["design"]["objective"]["combine"] = "min";
    j["design"]["optimizer"]["max_iterations"] = 6;
    return j;
}

Project parsed(const std::function<void(Json&)>& edit = {}) {
    Json j = block_two_wavelengths();
    if (edit) edit(j);
    return parse_project(j.dump(), "minimax.glproj");
}

double worst(const std::vector<double>& F, bool maximize) {
    return maximize ? *std::min_element(F.begin(), F.end()) : *std::max_element(F.begin(), F.end());
}

}  // namespace

TEST_CASE("adjoint shape epigraph: dF_f/dp per wavelength matches finite differences (2D TMz, float64)",
          "[adjoint][shape][epigraph]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(parsed(), "minimax.glproj", fs::temp_directory_path());
    REQUIRE(sp.wavelengths_um.size() == 2);
    const adjoint::ShapeEvaluation ev = adjoint::evaluate_shape(sp, sp.p0, true);
    REQUIRE(ev.objective_per_frequency.size() == 2);
    REQUIRE(ev.gradient_per_frequency.size() == 2);
    // combine "min": F is the worst F_f, its gradient the worst wavelength's row
    const std::size_t w = ev.objective_per_frequency[0] < ev.objective_per_frequency[1] ? 0 : 1;
    CHECK(ev.objective == ev.objective_per_frequency[w]);
    double largest = 0;
    for (const auto& row : ev.gradient_per_frequency)
        for (double g : row) largest = std::max(largest, std::abs(g));
    for (std::size_t k = 0; k < 2; ++k) CHECK(std::abs(ev.gradient[k] - ev.gradient_per_frequency[w][k]) <= 1e-12 * largest);

    const double h = 1e-3;
    for (std::size_t k = 0; k < 2; ++k) {
        std::vector<double> up = sp.p0, down = sp.p0;
        up[k] += h;
        down[k] -= h;
        const adjoint::ShapeEvaluation eu = adjoint::evaluate_shape(sp, up, false);
        const adjoint::ShapeEvaluation ed = adjoint::evaluate_shape(sp, down, false);
        REQUIRE(eu.objective_per_frequency.size() == 2);
        for (std::size_t f = 0; f < 2; ++f) {
            const double fd = (eu.objective_per_frequency[f] - ed.objective_per_frequency[f]) / (2 * h);
            const double adj = ev.gradient_per_frequency[f][k];
            INFO(sp.names[k] << " at " << sp.wavelengths_um[f] << " um: adjoint " << adj << ", finite difference " << fd
                             << ", F_f " << ev.objective_per_frequency[f]);
            CHECK(std::abs(fd) > 1e-3 * ev.objective_per_frequency[f]);  // the parameter matters here
            CHECK(std::abs(adj - fd) < 1e-2 * std::abs(fd));
        }
        // the two wavelengths' rows differ: a row taken from the other wavelength would fail
        const double g0 = ev.gradient_per_frequency[0][k], g1 = ev.gradient_per_frequency[1][k];
        CHECK(std::abs(g0 - g1) > 0.1 * std::max(std::abs(g0), std::abs(g1)));
    }
}

TEST_CASE("adjoint shape epigraph: MMA and CCSA raise the worse of two wavelengths (2D TMz, float64)",
          "[adjoint][shape][epigraph]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    for (const char* algorithm : {"mma", "ccsa"}) {
        const Project project = parsed([&](Json& j) { j["design"]["optimizer"]["algorithm"] = algorithm; });
        const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(project, "minimax.glproj", fs::temp_directory_path());
        const adjoint::ShapeOptimizeResult r = adjoint::optimize_shape(sp);
        REQUIRE(r.history.size() >= 2);
        const double start = worst(r.history.front().objective_per_frequency, true);
        double best = start;
        for (const auto& it : r.history) {
            REQUIRE(it.objective_per_frequency.size() == 2);
            CHECK(it.objective == worst(it.objective_per_frequency, true));  // the history reports the worst F_f
            CHECK(it.gradient_per_frequency.size() == 2);
            best = std::max(best, it.objective);
        }
        INFO(algorithm << ": worst F_f " << start << " -> " << r.objective << " at w = " << r.p[0] << ", yc = " << r.p[1]
                       << " (" << r.history.size() << " evaluations, " << r.stop << ")");
        CHECK(r.objective == best);  // the result is the best evaluation
        CHECK(r.objective > 1.05 * start);
        CHECK(r.history.front().p == sp.p0);
    }
}

TEST_CASE("adjoint shape epigraph: goal minimize lowers the larger of two wavelengths, and lbfgs is refused",
          "[adjoint][shape][epigraph]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    const Project project = parsed([](Json& j) { j["design"]["objective"]["goal"] = "minimize"; });
    const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(project, "minimax.glproj", fs::temp_directory_path());
    const adjoint::ShapeOptimizeResult r = adjoint::optimize_shape(sp);
    REQUIRE(!r.history.empty());
    const double start = worst(r.history.front().objective_per_frequency, false);
    for (const auto& it : r.history) CHECK(it.objective == worst(it.objective_per_frequency, false));
    INFO("worst F_f " << start << " -> " << r.objective << " (" << r.history.size() << " evaluations, " << r.stop << ")");
    CHECK(r.objective < 0.95 * start);

    try {
        (void)design_spec(parsed([](Json& j) { j["design"]["optimizer"]["algorithm"] = "lbfgs"; }), "minimax.glproj");
        FAIL("lbfgs with combine \"min\" was accepted");
    } catch (const ProjectError& e) {
        CHECK(e.json_path() == "design.objective.combine");
        CHECK_THAT(e.message(), Catch::Contains("needs design.optimizer.algorithm mma or ccsa"));
    }
}
