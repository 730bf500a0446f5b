// Cancelling an adjoint evaluation and optimization (adjoint.hpp RunSettings::cancel), the
// iteration callback's stop, and the design region's fields handed to RunSettings::on_fields
// (what the IDE's Inverse Design dock shows live). On the small 2D TMz problem of the
// adjoint tests (tests/common/adjoint_problems.hpp).
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "adjoint_problems.hpp"
#include "golightly/adjoint_optimize.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

using namespace golightly;
using namespace golightly::adjoint;
using namespace golightly::test;

namespace {

/// The problem with its objective wrapped: `on_call(k)` runs before evaluation k's
/// objective is computed, i.e. after that evaluation's forward run and before its adjoint
/// runs.
Problem with_hook(Problem p, std::function<void(int)> on_call) {
    auto calls = std::make_shared<int>(0);
    Objective inner = p.objective;
    p.objective = [inner, calls, on_call](const Amplitudes& a, Amplitudes* g) {
        on_call((*calls)++);
        return inner(a, g);
    };
    return p;
}

Json read_json(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return Json::parse(ss.str());
}

}  // namespace

TEST_CASE("adjoint cancel: the flag ends the forward or the adjoint run within one chunk of steps", "[adjoint]") {
    const Problem base = tmz_problem();
    const std::vector<double> rho = random_density(base.region.pixels(), 3);
    // uncancelled: both runs take many chunks, so an end within one chunk is a real stop
    const Evaluation full = evaluate_with_gradient(base, rho);
    const int chunk = base.settings.check_every;
    REQUIRE(full.forward_steps > 10 * chunk);
    REQUIRE(full.adjoint_steps > 10 * chunk);

    std::atomic<bool> cancel{false};
    SECTION("set before the evaluation: the forward run makes no step") {
        Problem p = base;
        p.settings.cancel = &cancel;
        cancel = true;
        try {
            evaluate_with_gradient(p, rho);
            FAIL("no Cancelled thrown");
        } catch (const Cancelled& c) {
            CHECK(c.run == "forward");
            CHECK(c.steps <= chunk);
        }
        CHECK_THROWS_AS(evaluate(p, rho), Cancelled);
    }
    SECTION("set during the evaluation (after its forward run): the adjoint run ends within one chunk") {
        Problem p = with_hook(base, [&](int) { cancel = true; });
        p.settings.cancel = &cancel;
        bool fields = false;
        p.settings.on_fields = [&](const DesignFields&) { fields = true; };
        try {
            evaluate_with_gradient(p, rho);
            FAIL("no Cancelled thrown");
        } catch (const Cancelled& c) {
            CHECK(c.run == "adjoint");
            CHECK(c.steps <= chunk);
        }
        CHECK_FALSE(fields);  // a cancelled evaluation hands no fields
    }
}

TEST_CASE("adjoint fields: on_fields gets the design region's forward and adjoint fields, which give d F / d eps",
          "[adjoint]") {
    Problem p = tmz_problem();
    const std::vector<double> rho = random_density(p.region.pixels(), 5);
    std::vector<DesignFields> got;
    std::size_t sites = 0;
    p.settings.on_fields = [&](const DesignFields& f) {
        got.push_back(f);
        sites = f.sites ? f.sites->size() : 0;
        got.back().sites = nullptr;  // valid during the call only
    };
    const Evaluation ev = evaluate_with_gradient(p, rho);
    REQUIRE(got.size() == 1);
    const std::size_t nf = p.frequencies_hz.size();
    REQUIRE(sites == ev.d_eps.size());
    REQUIRE(got[0].forward.size() == sites * nf);
    REQUIRE(got[0].adjoint.size() == sites * nf);
    // d F / d eps_r(s) = sum_f Re(-(1 - exp(i w dt)) E_fwd E_adj) (adjoint.hpp DesignFields)
    const double dt = p.scene.dt_s;
    double worst = 0, scale = 0;
    for (std::size_t s = 0; s < sites; ++s) {
        double d = 0;
        for (std::size_t f = 0; f < nf; ++f) {
            const double w = 2 * units::pi * p.frequencies_hz[f];
            d += std::real(-(1.0 - std::polar(1.0, w * dt)) * got[0].forward[s * nf + f] * got[0].adjoint[s * nf + f]);
        }
        worst = std::max(worst, std::abs(d - ev.d_eps[s]));
        scale = std::max(scale, std::abs(ev.d_eps[s]));
    }
    REQUIRE(scale > 0);
    // the same products summed in another order: rounding only
    CHECK(worst <= 1e-12 * scale);
    // evaluate(): the same forward field (the same run), no adjoint field
    const Evaluation fwd = evaluate(p, rho);
    REQUIRE(got.size() == 2);
    CHECK(got[1].adjoint.empty());
    REQUIRE(got[1].forward.size() == got[0].forward.size());
    double diff = 0, norm = 0;
    for (std::size_t k = 0; k < got[0].forward.size(); ++k) {
        diff = std::max(diff, std::abs(got[1].forward[k] - got[0].forward[k]));
        norm = std::max(norm, std::abs(got[0].forward[k]));
    }
    CHECK(norm > 0);
    CHECK(diff <= 1e-12 * norm);
    CHECK(fwd.objective == Approx(ev.objective).epsilon(1e-12));
}

TEST_CASE("adjoint optimize: a cancel during an evaluation stops cleanly and the checkpoint holds the last completed "
          "iteration and a resumed run continues from it",
          "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    Problem base = tmz_problem();
    base.region.n = {6, 6, 1};  // 0.1 um pixels
    base.settings.decay = 1e-8;
    OptimizerSettings s;
    s.max_iterations = 5;
    s.beta_every = 5;
    s.mapping.beta = 2;
    s.mapping.radius_um = 0.15;
    const Scratch scratch("adjoint", "cancel");  // its own folder: the Release and ASan suites may run at once
    const auto dir = scratch.path;
    s.checkpoint = dir / "checkpoint.json";
    const std::vector<double> rho0(base.region.pixels(), 0.5);

    std::atomic<bool> cancel{false};
    // evaluation 2 is cancelled between its forward and its adjoint runs
    Problem p = with_hook(base, [&](int k) {
        if (k == 2) cancel = true;
    });
    p.settings.cancel = &cancel;
    OptimizeResult a;
    REQUIRE_NOTHROW(a = optimize_density(p, rho0, s));
    CHECK(a.stop == "cancelled");
    REQUIRE(a.history.size() == 2);
    CHECK(a.rho == a.history.back().rho);
    CHECK(a.rho_projected == a.history.back().rho_projected);
    const Json cp = read_json(s.checkpoint);
    CHECK(cp.at("next_iteration").get<int>() == 2);
    CHECK(cp.at("rho").get<std::vector<double>>() == a.history.back().rho);
    CHECK(cp.at("epoch_evaluations").get<int>() == 2);

    // resume with the flag down: iteration 2 again, from the last completed design
    cancel = false;
    s.max_iterations = 2;
    const OptimizeResult b = optimize_density(base, rho0, s);
    CHECK(b.stop != "cancelled");
    CHECK(b.first_iteration == 2);
    REQUIRE(b.history.size() == 2);
    CHECK(b.history[0].index == 2);
    CHECK(b.history[0].rho == a.history.back().rho);
    CHECK(b.history[0].objective == Approx(a.history.back().objective).epsilon(1e-9));
}

TEST_CASE("adjoint optimize: the iteration callback's stop ends the run after that evaluation", "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    Problem p = tmz_problem();
    p.region.n = {6, 6, 1};
    p.settings.decay = 1e-8;
    OptimizerSettings s;
    s.max_iterations = 4;
    s.beta_every = 4;  // one NLopt run: the stop must end it, not the beta's evaluation count
    s.mapping.radius_um = 0.15;
    int calls = 0;
    const OptimizeResult r = optimize_density(p, std::vector<double>(p.region.pixels(), 0.5), s, [&](const Iteration&) {
        ++calls;
        return false;
    });
    CHECK(calls == 1);
    CHECK(r.history.size() == 1);
    CHECK(r.stop == "stopped by the caller");
}
