// A user's formula for combining wavelengths (issue 53 item 2: "combined per wavelength by
// sum, min (epigraph form) or a user expression"): design.objective.combine "expression"
// with design.objective.expression of F0, F1, ... (F_k: the weighted sum of the terms at
// wavelengths_um[k]), its reader's refusals, and the objective and gradient it gives
// (adjoint_project.cpp expression_partials).
//
// Tolerances. The value is the formula of the per-frequency values (1e-14 relative: the
// same doubles through muparser). The gradient with respect to the amplitudes is each
// frequency's gradient times d expr / d F_k, which the solver takes by central differences
// of relative step 1e-6: O(h^2) truncation ~1e-12 and rounding ~1e-16 / 1e-6 = 1e-10
// relative, so 1e-8 here; a wrong partial (a missing factor or the other wavelength's)
// changes it by O(1).
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <random>

#include "adjoint_project_fixture.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"

using namespace golightly;
using namespace golightly::adjoint;

namespace {

/// The guide at two wavelengths combined by a formula (F0 at 1.6 um: not the spectrum's
/// order), then `edit`.
std::function<void(Json&)> formula(const std::function<void(Json&)>& edit) {
    return [edit](Json& j) {
        j["design"]["objective"]["wavelengths_um"] = {1.6, 1.5};
        j["design"]["objective"]["combine"] = "expression";
        j["design"]["objective"]["expression"] = "F0 * F1 - 0.5 * F1";
        edit(j);
    };
}
Project guide(const std::function<void(Json&)>& edit) { return test::edited_guide(formula(edit), "expr.glproj"); }
std::string error_of(const std::function<void(Json&)>& edit) { return test::design_error(formula(edit), "expr.glproj"); }

}  // namespace

TEST_CASE("adjoint expression: design.objective.expression is read and its errors name the field",
          "[adjoint][project]" GOLIGHTLY_NEEDS_MUPARSER) {
    const auto spec = design_spec(guide([](Json&) {}), "expr.glproj");
    CHECK(spec->objective.combine == "expression");
    CHECK(spec->objective.expression == "F0 * F1 - 0.5 * F1");
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"].erase("expression"); }),
               Catch::StartsWith("design.objective.expression: is required with combine \"expression\"") &&
                   Catch::Contains("[expr.glproj]"));
    // F2 does not exist with two wavelengths: the message says which variables do
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["expression"] = "F0 + F2"; }),
               Catch::StartsWith("design.objective.expression: ") && Catch::Contains("F2") &&
                   Catch::Contains("the variables are F0 .. F1"));
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["expression"] = "F0 +* F1"; }),
               Catch::StartsWith("design.objective.expression: "));
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["expression"] = 3; }),
               Catch::StartsWith("design.objective.expression: must be a string"));
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["combine"] = "mean"; }),
               Catch::StartsWith("design.objective.expression: is used only with combine \"expression\""));
    // one wavelength (the spectrum's centre): F0 only
    CHECK(error_of([](Json& j) {
              j["design"]["objective"].erase("wavelengths_um");
              j["design"]["objective"]["expression"] = "sqrt(F0)";
          }) == "no error");
}

TEST_CASE("adjoint expression: the objective is the formula of the per-wavelength values, its gradient chained",
          "[adjoint][project]" GOLIGHTLY_NEEDS_MUPARSER) {
    ProjectProblemOptions o;
    o.normalize = false;
    const ProjectProblem pp = problem_from_project(guide([](Json&) {}), "expr.glproj", ".", o);
    REQUIRE(pp.problem.per_frequency);
    REQUIRE(pp.wavelengths_um.size() == 2);
    // the problem's frequencies ascend in wavelength order or not: find 1.6 um's slot
    const std::size_t i16 = std::abs(pp.wavelengths_um[0] - 1.6) < std::abs(pp.wavelengths_um[1] - 1.6) ? 0 : 1;
    const std::size_t i15 = 1 - i16;
    std::mt19937 rng(7);
    std::normal_distribution<double> n(0, 1);
    Amplitudes a(pp.problem.functionals.size(), std::vector<std::complex<double>>(2));
    for (auto& row : a)
        for (auto& v : row) v = {n(rng), n(rng)};
    Amplitudes g, gf;
    const double value = pp.problem.objective(a, &g);
    const std::vector<double> F = pp.problem.per_frequency(a, &gf);
    const double F0 = F[i16], F1 = F[i15];
    CHECK(value == Approx(F0 * F1 - 0.5 * F1).epsilon(1e-14));
    // d/dF0 = F1, d/dF1 = F0 - 0.5
    const double d[2] = {i16 == 0 ? F1 : F0 - 0.5, i16 == 0 ? F0 - 0.5 : F1};
    for (std::size_t t = 0; t < a.size(); ++t)
        for (std::size_t f = 0; f < 2; ++f) {
            INFO("term " << t << " frequency " << f);
            CHECK(std::abs(g[t][f] - d[f] * gf[t][f]) <= 1e-8 * std::abs(d[f] * gf[t][f]) + 1e-300);
        }
    // and the evaluation's objective (the runs) is the formula of its per-wavelength values
    const Evaluation ev = evaluate(pp.problem, std::vector<double>(pp.problem.region.pixels(), 0.5));
    const auto& Fe = ev.objective_per_frequency;
    CHECK(ev.objective == Approx(Fe[i16] * Fe[i15] - 0.5 * Fe[i15]).epsilon(1e-14));
}
