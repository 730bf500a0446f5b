// The relaxed bound of the length scale constraints (OptimizerSettings::
// constraint_relax_evaluations) in the optimizer's checkpoint: a run interrupted between two
// steps of the relaxation and resumed makes the iterates of an uninterrupted run, and an
// older checkpoint without the relaxation's state still resumes (restarting the schedule).
#include <catch2/catch.hpp>

#include <algorithm>
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

Json read_checkpoint_json(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return Json::parse(ss.str());
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
    REQUIRE(a.size() == b.size());
    double d = 0;
    for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
    return d;
}

// The small TMz problem (6 x 6 pixels of 0.1 um), betas 2, 4, 8 of 4 evaluations each, the
// length scale constraints (b = 0.2 um, R = 0.15 um) from beta 4 (iteration 4) with the bound
// relaxed over 8 evaluations: four NLopt runs of 2 evaluations (iterations 4-5, 6-7, 8-9,
// 10-11), each at its own bound.
OptimizerSettings relaxed_settings() {
    OptimizerSettings s;
    s.max_iterations = 12;
    s.beta_every = 4;
    s.mapping.beta = 2;
    s.beta_max = 8;
    s.mapping.radius_um = 0.15;
    s.min_length_um = 0.2;
    s.constraint_beta = 4;
    s.constraint_relax_evaluations = 8;
    return s;
}

}  // namespace

TEST_CASE("adjoint optimize: a run resumed mid-relaxation of the length scale bound repeats the uninterrupted run",
          "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    const Problem p = small_tmz_problem();
    const std::vector<double> rho0(p.region.pixels(), 0.5);
    const OptimizerSettings s = relaxed_settings();
    const OptimizeResult whole = optimize_density(p, rho0, s);
    REQUIRE(whole.history.size() == 12);
    // the relaxation is under way at iteration 6: its bound lies strictly between its start
    // (the constraint at iteration 4) and epsilon, and it steps down at 6
    const Iteration& joined = whole.history[4];
    REQUIRE(joined.bound_solid > s.constraint_epsilon);
    CHECK(whole.history[6].bound_solid < joined.bound_solid);
    CHECK(whole.history[6].bound_solid > s.constraint_epsilon);
    CHECK(whole.history[3].bound_solid == 0);  // not joined yet

    const Scratch scratch("adjoint", "relax_checkpoint");
    OptimizerSettings first = s;
    first.checkpoint = scratch.path / "checkpoint.json";
    first.max_iterations = 6;  // stops after the first step of the relaxation (iterations 4, 5)
    const OptimizeResult a = optimize_density(p, rho0, first);
    REQUIRE(a.history.size() == 6);
    const Json cp = read_checkpoint_json(first.checkpoint);
    CHECK(cp.at("next_iteration").get<int>() == 6);
    CHECK(cp.at("constraints_joined_iteration").get<int>() == 4);
    CHECK(cp.at("constraint_start_solid").get<double>() == Approx(joined.bound_solid).epsilon(1e-12));
    CHECK(cp.at("constraint_start_void").get<double>() == Approx(joined.bound_void).epsilon(1e-12));
    CHECK(cp.at("objective_scale").get<double>() > 0);
    const std::string old_format = [&] {  // the checkpoint without the additive fields
        Json j = cp;
        for (const char* k : {"constraints_joined_iteration", "constraint_start_solid", "constraint_start_void",
                              "objective_scale"})
            j.erase(k);
        return j.dump();
    }();

    OptimizerSettings second = first;
    second.max_iterations = 6;
    const OptimizeResult b = optimize_density(p, rho0, second);
    REQUIRE(b.first_iteration == 6);
    REQUIRE(b.history.size() == 6);
    // the same arithmetic in the same order: equal to rounding (the runs are deterministic;
    // without the relaxation's state the resumed run's bounds restart from its own design
    // and its iterates differ at the first NLopt step)
    for (std::size_t k = 0; k < b.history.size(); ++k) {
        const Iteration& x = b.history[k];
        const Iteration& y = whole.history[6 + k];
        INFO("iteration " << x.index);
        CHECK(x.index == y.index);
        CHECK(x.beta == y.beta);
        CHECK(x.bound_solid == Approx(y.bound_solid).epsilon(1e-12));
        CHECK(x.bound_void == Approx(y.bound_void).epsilon(1e-12));
        CHECK(max_difference(x.rho, y.rho) <= 1e-12);
        CHECK(x.objective == Approx(y.objective).epsilon(1e-10));
    }
    CHECK(max_difference(b.rho, whole.rho) <= 1e-12);

    // an older checkpoint (no relaxation state) still resumes, as before: the schedule
    // restarts at the resumed design, whose constraint value is its first bound
    std::ofstream(first.checkpoint) << old_format;
    OptimizerSettings third = first;
    third.max_iterations = 2;
    const OptimizeResult c = optimize_density(p, rho0, third);
    REQUIRE(c.first_iteration == 6);
    REQUIRE(c.history.size() == 2);
    CHECK(max_difference(c.history[0].rho, whole.history[6].rho) <= 1e-12);
    CHECK(c.history[0].bound_solid == Approx(std::max(c.history[0].constraint_solid, s.constraint_epsilon)).epsilon(1e-12));
    CHECK(c.history[0].bound_solid != Approx(whole.history[6].bound_solid).epsilon(1e-6));
}

TEST_CASE("adjoint optimize: a checkpoint with a bad relaxation state is refused naming the field",
          "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    const Problem p = small_tmz_problem();
    const Scratch scratch("adjoint", "relax_checkpoint_bad");
    OptimizerSettings s = relaxed_settings();
    s.checkpoint = scratch.path / "checkpoint.json";
    Json j;
    j["format"] = "golightly-adjoint-checkpoint";
    j["next_iteration"] = 6;
    j["rho"] = std::vector<double>(p.region.pixels(), 0.5);
    j["constraints_joined_iteration"] = 4;
    j["constraint_start_solid"] = -1.0;
    j["constraint_start_void"] = 1e-3;
    std::ofstream(s.checkpoint) << j.dump();
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(p.region.pixels(), 0.5), s),
                      Catch::Contains("checkpoint.json") && Catch::Contains("constraint_start_solid"));
}
