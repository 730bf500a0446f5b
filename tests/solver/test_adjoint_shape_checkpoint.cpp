// Checkpoint and resume of a shape-parameter optimization (adjoint_shape.hpp
// optimize_shape's `checkpoint`; `golightly-cli optimize --adjoint --resume`): a run
// stopped after k evaluations and resumed ends with the history of an uninterrupted run,
// for the mean over wavelengths (MMA) and the worst wavelength (the epigraph form, whose t
// starts from the first evaluation), in the library and through the CLI; checkpoints of
// another problem are refused with the file and the differing field.
//
// The problem: the block of tests/solver/test_adjoint_shape.cpp (eps 4 in air, its width w
// and centre height yc, |Ez|^2 at a probe; 2D TMz, float64, CPU).
//
// Tolerance. The resumed run feeds NLopt the recorded values (JSON with 17 significant
// digits reads back the same doubles), so NLopt, which is deterministic, asks for the same
// points and rebuilds its state exactly; the evaluations after the resume are the same
// runs at the same points. The histories agree to rounding: 1e-12 relative (the issue's
// float64 resume criterion). A resume that restarted NLopt from the last point instead
// (what a density checkpoint does at a beta step) loses MMA's asymptotes and moves
// differently at the next evaluation, by far more than that.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_shape.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "cli_runner.hpp"
#include "optional_features.hpp"
#include "shape_block_project.hpp"
#include "test_files.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

/// The shared block (shape_block_project.hpp), six evaluations.
std::string block_text() {
    Json j = Json::parse(test::kShapeBlockTMz);
    j["name"] = "shape block resume";
    j["design"]["optimizer"]["max_iterations"] = 6;
    return j.dump(2);
}

Project parsed(const std::function<void(Json&)>& edit = {}) {
    Json j = Json::parse(block_text());
    if (edit) edit(j);
    return parse_project(j.dump(), "resume.glproj");
}

void epigraph(Json& j) {
    j["design"]["objective"]["wavelengths_um"] = {1.5, 1.6};
    j["design"]["objective"]["combine"] = "min";
}

bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

bool close(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!close(a[i], b[i])) return false;
    return true;
}

/// An uninterrupted run of up to 6 evaluations against one stopped by its callback after 3
/// and resumed for the rest. NLopt may stop before 6 on its own tolerances, and where it
/// stops depends on the build's rounding (5 under ASan's flags for the epigraph form): the
/// resumed run must end where the uninterrupted one of the same build ends.
void check_resume(const Project& project, const fs::path& dir) {
    const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(project, "resume.glproj", dir);
    const adjoint::ShapeOptimizeResult whole = adjoint::optimize_shape(sp, 6, {}, dir / "whole.json");
    REQUIRE(whole.history.size() >= 4);  // fresh evaluations after the resume
    const int rest = int(whole.history.size()) - 3;
    const fs::path ck = dir / "stopped.json";
    const adjoint::ShapeOptimizeResult first =
        adjoint::optimize_shape(sp, 6, [](const adjoint::ShapeIteration& it) { return it.index < 2; }, ck);
    CHECK(first.stop == "stopped by the caller");
    REQUIRE(first.history.size() == 3);
    REQUIRE(fs::exists(ck));
    int called = 0;
    const adjoint::ShapeOptimizeResult resumed = adjoint::optimize_shape(
        sp, rest,
        [&](const adjoint::ShapeIteration& it) {
            CHECK(it.index == called++);
            CHECK(it.replayed == (it.index < 3));
            return true;
        },
        ck);
    REQUIRE(resumed.history.size() == whole.history.size());
    for (std::size_t i = 0; i < whole.history.size(); ++i) {
        const auto &a = whole.history[i], &b = resumed.history[i];
        INFO("evaluation " << i << ": objective " << a.objective << " / " << b.objective << ", w " << a.p[0] << " / "
                           << b.p[0] << ", yc " << a.p[1] << " / " << b.p[1]);
        CHECK(close(a.p, b.p));
        CHECK(close(a.objective, b.objective));
        CHECK(close(a.objective_per_frequency, b.objective_per_frequency));
        CHECK(close(a.gradient, b.gradient));
        REQUIRE(a.gradient_per_frequency.size() == b.gradient_per_frequency.size());
        for (std::size_t f = 0; f < a.gradient_per_frequency.size(); ++f)
            CHECK(close(a.gradient_per_frequency[f], b.gradient_per_frequency[f]));
        CHECK(a.steps == b.steps);
    }
    CHECK(close(resumed.p, whole.p));
    CHECK(close(resumed.objective, whole.objective));
    // the optimizer moved after the resume: the comparison above covers fresh evaluations
    CHECK(!close(whole.history[3].p, whole.history[2].p));
}

}  // namespace

TEST_CASE("adjoint shape checkpoint: a stopped and resumed MMA run ends with the uninterrupted history",
          "[adjoint][shape][checkpoint]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    test::Scratch dir("adjoint", "shape_checkpoint_mean");
    check_resume(parsed(), dir.path);
}

TEST_CASE("adjoint shape checkpoint: the worst wavelength (epigraph form) resumes to the uninterrupted history",
          "[adjoint][shape][checkpoint][epigraph]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    test::Scratch dir("adjoint", "shape_checkpoint_epigraph");
    check_resume(parsed(epigraph), dir.path);
}

TEST_CASE("adjoint shape checkpoint: a checkpoint of another problem is refused, naming the file and the field",
          "[adjoint][shape][checkpoint]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    test::Scratch dir("adjoint", "shape_checkpoint_refusals");
    const fs::path ck = dir.path / "ck.json";
    const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(parsed(), "resume.glproj", dir.path);
    REQUIRE(adjoint::optimize_shape(sp, 1, {}, ck).history.size() == 1);
    // another bound
    const adjoint::ShapeProblem other = adjoint::shape_problem_from_project(
        parsed([](Json& j) { j["design"]["shape_parameters"][0]["max"] = 0.9; }), "resume.glproj", dir.path);
    CHECK_THROWS_WITH(adjoint::optimize_shape(other, 1, {}, ck),
                      Catch::StartsWith(ck.string() + ": the checkpoint is of another problem (its project_fnv1a differs"));
    // another goal (the project text differs too: the first difference is named)
    const adjoint::ShapeProblem minimize = adjoint::shape_problem_from_project(
        parsed([](Json& j) { j["design"]["objective"]["goal"] = "minimize"; }), "resume.glproj", dir.path);
    CHECK_THROWS_WITH(adjoint::optimize_shape(minimize, 1, {}, ck), Catch::Contains("the checkpoint is of another problem"));
    // another precision given by the caller (the project is the same)
    adjoint::ShapeProblem f32 = sp;
    f32.options.precision = Precision::Float32;
    CHECK_THROWS_WITH(adjoint::optimize_shape(f32, 1, {}, ck),
                      Catch::Contains("the checkpoint is of another problem (its precision differs"));
    // not a shape checkpoint (a density run's)
    std::ofstream(dir.path / "density.json") << R"({"format": "golightly-adjoint-checkpoint", "next_iteration": 3, "rho": [0.5]})";
    CHECK_THROWS_WITH(adjoint::optimize_shape(sp, 1, {}, dir.path / "density.json"),
                      Catch::StartsWith((dir.path / "density.json").string() + ": not a GoLightly shape-parameter checkpoint"));
    std::ofstream(dir.path / "broken.json") << "{\"format\": ";
    CHECK_THROWS_WITH(adjoint::optimize_shape(sp, 1, {}, dir.path / "broken.json"),
                      Catch::StartsWith((dir.path / "broken.json").string() + ": not a readable shape-parameter checkpoint"));
}

TEST_CASE("adjoint shape checkpoint: optimize --adjoint --resume continues to the uninterrupted history.csv",
          "[adjoint][shape][checkpoint][cli]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    test::Scratch dir("adjoint", "shape_checkpoint_cli");
    const fs::path file = dir.path / "block.glproj";
    std::ofstream(file) << block_text();
    auto cli = [&](const std::string& out, const std::string& extra) {
        const test::CliOut r = test::run_cli("optimize --adjoint " + test::quote(file.string()) + " --out " +
                                                 test::quote((dir.path / out).string()) + " " + extra,
                                             dir.path);
        INFO(r.out << r.err);
        CHECK(r.code == 0);
        return r;
    };
    // the rows without wall_s (column 4), as numbers
    auto rows = [&](const std::string& out) {
        std::vector<std::vector<double>> v;
        std::istringstream in(test::slurp(dir.path / out / "history.csv"));
        std::string line;
        std::getline(in, line);
        while (std::getline(in, line)) {
            std::vector<double> cells;
            std::stringstream ss(line);
            int col = 0;
            for (std::string c; std::getline(ss, c, ','); ++col)
                if (col != 4) cells.push_back(std::stod(c));
            v.push_back(cells);
        }
        return v;
    };
    (void)cli("whole", "--max-iterations 4");
    (void)cli("parts", "--max-iterations 2");
    CHECK(rows("parts").size() == 2);
    const test::CliOut r = cli("parts", "--resume --max-iterations 2");
    CHECK_THAT(r.out, Catch::Contains("resumed: 2 iteration(s) replayed from checkpoint.json"));
    CHECK_THAT(r.out, Catch::Contains("iteration 2:") && Catch::Contains("iteration 3:"));
    CHECK_THAT(r.out, !Catch::Contains("iteration 1:"));
    const auto a = rows("whole"), b = rows("parts");
    REQUIRE(a.size() == 4);
    REQUIRE(b.size() == a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        INFO("row " << i);
        CHECK(close(a[i], b[i]));
    }
    CHECK(test::slurp(dir.path / "whole" / "final.glproj") == test::slurp(dir.path / "parts" / "final.glproj"));
    // a fresh start (no --resume) drops the old checkpoint: one evaluation, from the start values
    (void)cli("parts", "--max-iterations 1");
    CHECK(rows("parts").size() == 1);
}
