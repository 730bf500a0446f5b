// Objectives combined over wavelengths (issue 53 item 2): the per-frequency values F_f and
// gradients d F_f / d rho of one forward and one adjoint run (adjoint.hpp
// Problem::per_frequency, Evaluation::gradient_per_frequency), the worst wavelength
// optimized in the epigraph form (adjoint_optimize.hpp OptimizerSettings::epigraph), the
// project's `design.objective.combine` and its refusals.
//
// On the small 2D TMz problem of the adjoint tests (tests/common/adjoint_problems.hpp:
// |Ez|^2 at a probe at 1.5 and 1.6 um).
//
// Tolerances. The split of the gradient over frequencies is exact algebra on the same DFT
// products (the mean's gradient is the frequencies' terms summed with the 1/N_w weights), so
// it holds to rounding: 1e-12 of the gradient's largest entry (sums of a few hundred
// products of doubles). The per-frequency gradients against central finite differences of
// F_f: the method's errors are the difference's O(h^2) truncation (h = 1e-3: ~1e-6 relative),
// the runs' end at 1e-10 of the peak energy (~1e-5 of the DFT amplitudes) and the CPML's
// departure from reciprocity (R ~ 1e-8), together far below the 1e-2 relative, which
// is the bound (as in test_adjoint.cpp); taking frequency f's term from the other frequency,
// or dropping the (1 - exp(i w dt)) factor, changes the result by O(1).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "adjoint_problems.hpp"
#include "adjoint_project_fixture.hpp"
#include "golightly/adjoint_optimize.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"

using namespace golightly;
using namespace golightly::adjoint;
using namespace golightly::test;

namespace {

/// F_f = |a_0(f)|^2: the probe's intensity at each frequency (unweighted).
FrequencyObjective probe_intensity() {
    return [](const Amplitudes& a, Amplitudes* g) {
        std::vector<double> F(a.at(0).size());
        if (g) *g = a;
        for (std::size_t f = 0; f < F.size(); ++f) {
            F[f] = std::norm(a[0][f]);
            if (g) (*g)[0][f] = 2.0 * a[0][f];
        }
        return F;
    };
}

/// The tmz problem with F_f = |a(f)|^2 and F = (1/N_w) sum_f F_f.
Problem mean_problem() {
    Problem p = tmz_problem();
    p.per_frequency = probe_intensity();
    p.objective = intensity_objective({{0.5, 0.5}});
    return p;
}

/// The worst F_f: min (maximize) or max (minimize), with the worst frequency's gradient.
Objective worst_of(FrequencyObjective per, bool maximize) {
    return [per, maximize](const Amplitudes& a, Amplitudes* g) {
        const std::vector<double> F = per(a, g);
        const auto w = maximize ? std::min_element(F.begin(), F.end()) : std::max_element(F.begin(), F.end());
        if (g)
            for (auto& row : *g)
                for (std::size_t f = 0; f < row.size(); ++f)
                    if (f != std::size_t(w - F.begin())) row[f] = 0.0;
        return *w;
    };
}

double worst(const std::vector<double>& F, bool maximize) {
    return maximize ? *std::min_element(F.begin(), F.end()) : *std::max_element(F.begin(), F.end());
}

std::string error_of(const std::function<void(Json&)>& edit) { return design_error(edit); }

}  // namespace

TEST_CASE("adjoint epigraph: the per-frequency gradients split the mean's gradient", "[adjoint]") {
    const Problem p = mean_problem();
    const auto rho = random_density(p.region.pixels(), 11);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    const std::size_t nf = p.frequencies_hz.size(), np = p.region.pixels();
    REQUIRE(nf == 2);
    REQUIRE(ev.objective_per_frequency.size() == nf);
    REQUIRE(ev.gradient_per_frequency.size() == nf);
    for (const auto& row : ev.gradient_per_frequency) REQUIRE(row.size() == np);
    // the values are the amplitudes' intensities, and the mean is their mean
    for (std::size_t f = 0; f < nf; ++f)
        CHECK(ev.objective_per_frequency[f] == Approx(std::norm(ev.amplitudes[0][f])).epsilon(1e-14));
    CHECK(ev.objective == Approx(0.5 * (ev.objective_per_frequency[0] + ev.objective_per_frequency[1])).epsilon(1e-14));
    // gradient = sum_f (1/N_w) gradient_per_frequency[f], to rounding
    double gmax = 0;
    for (double v : ev.gradient) gmax = std::max(gmax, std::abs(v));
    REQUIRE(gmax > 0);
    for (std::size_t k = 0; k < np; ++k) {
        const double sum = 0.5 * (ev.gradient_per_frequency[0][k] + ev.gradient_per_frequency[1][k]);
        CHECK(std::abs(sum - ev.gradient[k]) <= 1e-12 * gmax);
    }
    // the two frequencies' gradients differ (else the split could not be told from a copy)
    double diff = 0, norm0 = 0;
    for (std::size_t k = 0; k < np; ++k) {
        diff += std::pow(ev.gradient_per_frequency[0][k] / ev.objective_per_frequency[0] -
                             ev.gradient_per_frequency[1][k] / ev.objective_per_frequency[1],
                         2);
        norm0 += std::pow(ev.gradient_per_frequency[0][k] / ev.objective_per_frequency[0], 2);
    }
    CHECK(diff > 1e-2 * norm0);
    // evaluate() gives the values too (no adjoint, no gradients)
    const Evaluation fwd = evaluate(p, rho);
    REQUIRE(fwd.objective_per_frequency.size() == nf);
    CHECK(fwd.gradient_per_frequency.empty());
    for (std::size_t f = 0; f < nf; ++f)
        CHECK(fwd.objective_per_frequency[f] == Approx(ev.objective_per_frequency[f]).epsilon(1e-12));
}

TEST_CASE("adjoint epigraph: each per-frequency gradient matches finite differences of that wavelength's value",
          "[adjoint]") {
    const Problem p = mean_problem();
    const auto rho = random_density(p.region.pixels(), 13);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    const double h = 1e-3;
    for (unsigned seed : {51u, 52u}) {
        const auto dir = test::random_vector(rho.size(), seed);
        std::vector<double> plus = rho, minus = rho;
        for (std::size_t k = 0; k < rho.size(); ++k) plus[k] += h * dir[k], minus[k] -= h * dir[k];
        const Evaluation ep = evaluate(p, plus), em = evaluate(p, minus);
        for (std::size_t f = 0; f < p.frequencies_hz.size(); ++f) {
            const double fd = (ep.objective_per_frequency[f] - em.objective_per_frequency[f]) / (2 * h);
            double adj = 0;
            for (std::size_t k = 0; k < rho.size(); ++k) adj += ev.gradient_per_frequency[f][k] * dir[k];
            INFO("seed " << seed << " frequency " << f << ": F_f " << ev.objective_per_frequency[f] << " fd " << fd
                         << " adjoint " << adj);
            REQUIRE(std::abs(fd) > 1e-3 * ev.objective_per_frequency[f]);  // the direction matters
            CHECK(std::abs(adj - fd) < 1e-2 * std::abs(fd));
        }
    }
}

TEST_CASE("adjoint epigraph: a per-frequency objective of the wrong length is refused", "[adjoint]") {
    Problem p = mean_problem();
    p.per_frequency = [](const Amplitudes&, Amplitudes*) { return std::vector<double>{1.0}; };
    CHECK_THROWS_WITH(evaluate(p, std::vector<double>(p.region.pixels(), 0.5)),
                      Catch::Contains("per-frequency objective gave 1 values for 2 frequencies"));
}

TEST_CASE("adjoint epigraph: MMA and CCSA on the worst wavelength raise (lower) it", "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    for (const bool maximize : {true, false}) {
        for (const char* algorithm : {"mma", "ccsa"}) {
            Problem p = tmz_problem();
            p.region.n = {6, 6, 1};  // 0.1 um pixels
            p.settings.decay = 1e-8;
            p.per_frequency = probe_intensity();
            p.objective = worst_of(p.per_frequency, maximize);
            OptimizerSettings s;
            s.algorithm = algorithm;
            s.maximize = maximize;
            s.epigraph = true;
            s.max_iterations = 5;
            s.beta_every = 5;
            s.mapping.beta = 2;
            s.mapping.radius_um = 0.15;
            const OptimizeResult r = optimize_density(p, std::vector<double>(p.region.pixels(), 0.5), s);
            REQUIRE(r.history.size() == 5);  // t's start costs no evaluation of its own
            std::string trace;
            for (const auto& it : r.history) {
                REQUIRE(it.objective_per_frequency.size() == 2);
                CHECK(it.objective == worst(it.objective_per_frequency, maximize));
                for (double v : it.rho) CHECK((v >= 0 && v <= 1));
                const auto& F0 = r.history.front().objective_per_frequency;
                std::ostringstream os;
                os << it.objective_per_frequency[0] / F0[0] << "/" << it.objective_per_frequency[1] / F0[1] << " ";
                trace += os.str();
            }
            // MMA and CCSA keep their iterates feasible (t <= F_f) and raise t, so the worst
            // wavelength of the best design moves the right way beyond rounding; a gradient
            // of the wrong frequency or sign stalls or loses it. NLopt returns the best design.
            const double start = r.history.front().objective;
            double best = start;
            for (const auto& it : r.history) best = maximize ? std::max(best, it.objective) : std::min(best, it.objective);
            INFO(algorithm << (maximize ? " maximize" : " minimize") << ": F_f / F_f(start) per iteration " << trace
                           << " (start " << r.history.front().objective_per_frequency[0] << ", "
                           << r.history.front().objective_per_frequency[1] << ")");
            if (maximize) CHECK(best > start * (1 + 1e-9));
            else CHECK(best < start * (1 - 1e-9));
        }
    }
}

TEST_CASE("adjoint epigraph: the optimizer's refusals", "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    Problem p = tmz_problem();
    p.region.n = {6, 6, 1};
    OptimizerSettings s;
    s.epigraph = true;
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("Problem::per_frequency"));
    p.per_frequency = probe_intensity();
    s.algorithm = "lbfgs";
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("needs mma or ccsa"));
}

TEST_CASE("adjoint epigraph: design.objective.combine in the project and its refusals", "[adjoint][project]") {
    // the default is the mean; "min" reads; anything else and min with lbfgs are refused by name
    CHECK(design_spec(edited_guide([](Json&) {}), "g.glproj")->objective.combine == "mean");
    CHECK(design_spec(edited_guide([](Json& j) { j["design"]["objective"]["combine"] = "min"; }), "g.glproj")
              ->objective.combine == "min");
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["combine"] = "median"; }),
               Catch::StartsWith("design.objective.combine: must be one of mean, min, expression (found \"median\")") &&
                   Catch::Contains("[edited.glproj]"));
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["combine"] = 2; }),
               Catch::StartsWith("design.objective.combine: must be a string"));
    CHECK_THAT(error_of([](Json& j) {
                   j["design"]["objective"]["combine"] = "min";
                   j["design"]["optimizer"]["algorithm"] = "lbfgs";
               }),
               Catch::StartsWith("design.objective.combine: \"min\"") && Catch::Contains("mma or ccsa (found lbfgs)"));
    // lbfgs with the mean stays accepted
    CHECK(error_of([](Json& j) { j["design"]["optimizer"]["algorithm"] = "lbfgs"; }) == "no error");
}

TEST_CASE("adjoint epigraph: the project's problem gives F_f per wavelength and combines them", "[adjoint][project]") {
    ProjectProblemOptions o;
    o.normalize = false;  // N(f) = 1: the values are powers, enough to check how they combine
    for (const bool use_min : {false, true}) {
        for (const bool maximize : {true, false}) {
            const Project project = edited_guide([&](Json& j) {
                j["design"]["objective"]["wavelengths_um"] = {1.5, 1.6};
                if (use_min) j["design"]["objective"]["combine"] = "min";
                if (!maximize) j["design"]["objective"]["goal"] = "minimize";
            });
            const ProjectProblem pp = problem_from_project(project, "g.glproj", ".", o);
            CHECK(pp.settings.epigraph == use_min);
            REQUIRE(pp.problem.per_frequency);
            const Evaluation ev = evaluate(pp.problem, std::vector<double>(pp.problem.region.pixels(), 0.5));
            REQUIRE(ev.objective_per_frequency.size() == 2);
            const auto& F = ev.objective_per_frequency;
            for (std::size_t f = 0; f < 2; ++f) CHECK(F[f] == Approx(std::norm(ev.amplitudes[0][f])).epsilon(1e-14));
            INFO("F_f " << F[0] << " " << F[1]);
            REQUIRE(std::abs(F[0] - F[1]) > 1e-3 * std::abs(F[0]));  // min, max and mean differ
            CHECK(ev.objective == Approx(use_min ? worst(F, maximize) : 0.5 * (F[0] + F[1])).epsilon(1e-14));
        }
    }
}
