// Fixed pixels of a design region (design.regions[0].fixed, adjoint_optimize.hpp
// OptimizerSettings::fixed, issue 53 item 6): the optimizer's bounds pin them, so every
// evaluation of MMA, CCSA and L-BFGS sees them exactly at their values while the free
// pixels move; a resumed checkpoint takes fixed values added since; the reader maps boxes
// to pixels by their centres (checked against a direct count) and refuses bad boxes with
// the JSON path.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "adjoint_problems.hpp"
#include "adjoint_project_fixture.hpp"
#include "golightly/adjoint_optimize.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

using namespace golightly;
using namespace golightly::adjoint;
using namespace golightly::test;

namespace {

/// The bottom row (j = 0) solid, the left column (i = 0) void, of the 6 x 6 grid; the
/// corner (0, 0) is in both: void (the later entry).
std::vector<FixedPixel> border_pixels() {
    std::vector<FixedPixel> f;
    for (std::size_t i = 1; i < 6; ++i) f.push_back({i, 1.0});
    for (std::size_t j = 0; j < 6; ++j) f.push_back({j * 6, 0.0});
    return f;
}

/// Checks that every evaluation of `r` holds the fixed pixels at exactly their values and
/// returns the largest move of a free pixel from `rho0` over the evaluations.
double check_fixed(const OptimizeResult& r, const std::vector<FixedPixel>& fixed, const std::vector<double>& rho0) {
    std::set<std::size_t> pinned;
    for (const FixedPixel& f : fixed) pinned.insert(f.index);
    double moved = 0;
    for (const Iteration& it : r.history) {
        for (const FixedPixel& f : fixed) {
            INFO("iteration " << it.index << ", pixel " << f.index);
            CHECK(it.rho.at(f.index) == f.rho);
        }
        for (std::size_t i = 0; i < it.rho.size(); ++i)
            if (!pinned.count(i)) moved = std::max(moved, std::abs(it.rho[i] - rho0[i]));
    }
    for (const FixedPixel& f : fixed) CHECK(r.rho.at(f.index) == f.rho);
    return moved;
}

}  // namespace

TEST_CASE("adjoint fixed pixels: MMA, CCSA and L-BFGS keep them exactly while the free pixels move",
          "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    const Problem p = small_tmz_problem();
    const std::vector<double> rho0(p.region.pixels(), 0.5);
    for (const char* algorithm : {"mma", "ccsa", "lbfgs"}) {
        INFO(algorithm);
        OptimizerSettings s;
        s.algorithm = algorithm;
        s.max_iterations = 3;
        s.mapping.beta = 2;
        s.mapping.radius_um = 0.15;
        s.fixed = border_pixels();
        const OptimizeResult r = optimize_density(p, rho0, s);
        REQUIRE(r.history.size() == 3);
        // the first evaluation is the start density with the fixed values in it
        CHECK(r.history[0].rho[1] == 1.0);
        CHECK(r.history[0].rho[0] == 0.0);
        CHECK(r.history[0].rho[7] == 0.5);
        // a free pixel moves by more than rounding: the optimizer steps (the bound is "not
        // stuck", not a figure from a run)
        CHECK(check_fixed(r, s.fixed, rho0) > 1e-6);
    }
}

TEST_CASE("adjoint fixed pixels: a resumed checkpoint takes the fixed values added while paused",
          "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    const Problem p = small_tmz_problem();
    const std::vector<double> rho0(p.region.pixels(), 0.5);
    const Scratch scratch("adjoint", "fixed");  // its own folder: the Release and ASan suites may run at once
    const auto dir = scratch.path;
    OptimizerSettings s;
    s.max_iterations = 2;
    s.mapping.beta = 2;
    s.mapping.radius_um = 0.15;
    s.checkpoint = dir / "checkpoint.json";
    const OptimizeResult a = optimize_density(p, rho0, s);  // no fixed pixels
    REQUIRE(a.history.size() == 2);
    // the checkpoint's design (the last evaluation's) does not hold the values fixed below
    std::size_t differ = 0;
    for (const FixedPixel& f : border_pixels()) differ += a.history.back().rho.at(f.index) != f.rho;
    CHECK(differ > 0);
    s.fixed = border_pixels();
    const OptimizeResult b = optimize_density(p, rho0, s);
    REQUIRE(b.history.size() == 2);
    CHECK(b.first_iteration == 2);
    check_fixed(b, s.fixed, rho0);
    // the free pixels continue from the checkpoint's design, not from rho0
    CHECK(b.history[0].rho[7] == a.history.back().rho[7]);
}

TEST_CASE("adjoint fixed pixels: refusals of the optimizer", "[adjoint]" GOLIGHTLY_NEEDS_NLOPT) {
    const Problem p = small_tmz_problem();
    OptimizerSettings s;
    s.fixed = {{36, 1.0}};
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("must be below 36"));
    s.fixed = {{3, 1.5}};
    CHECK_THROWS_WITH(optimize_density(p, std::vector<double>(36, 0.5), s), Catch::Contains("rho in [0, 1]"));
}

namespace {

Project guide_with_fixed(const Json& fixed) {
    Project p = parse_project(kAdjointGuide, "guide.glproj");
    p.extra["design"]["regions"][0]["fixed"] = fixed;
    return p;
}

/// The pixels of a region whose centres lie in `box`, counted directly (x fastest).
std::vector<std::size_t> centres_in(const DesignRegionSpec& r, const DesignFixedBox& box) {
    std::vector<std::size_t> out;
    for (int k = 0; k < r.pixels[2]; ++k)
        for (int j = 0; j < r.pixels[1]; ++j)
            for (int i = 0; i < r.pixels[0]; ++i) {
                const double c[3] = {r.min.x + (i + 0.5) * r.pixel_um, r.min.y + (j + 0.5) * r.pixel_um,
                                     r.min.z + (k + 0.5) * r.pixel_um};
                bool in = true;
                for (int a = 0; a < (r.pixels[2] > 1 ? 3 : 2); ++a) in = in && c[a] >= box.min[a] && c[a] <= box.max[a];
                if (in) out.push_back(std::size_t(i) + std::size_t(r.pixels[0]) * (std::size_t(j) + std::size_t(r.pixels[1]) * std::size_t(k)));
            }
    return out;
}

}  // namespace

TEST_CASE("design spec: fixed boxes become the fixed pixels of the start density and the optimizer",
          "[adjoint]") {
    // the region is 1.5 .. 2.1 x 0.9 .. 1.5 um in 0.1 um pixels (6 x 6); the guide enters
    // at the left (y 1.05 .. 1.35): its continuation solid, the top row void
    const Json fixed = Json::array({Json{{"min", {1.5, 1.0}}, {"max", {1.7, 1.4}}, {"rho", 1}},
                                    Json{{"min", {1.5, 1.4}}, {"max", {2.1, 1.5}}, {"rho", 0}}});
    const Project proj = guide_with_fixed(fixed);
    const auto spec = design_spec(proj, "guide.glproj");
    REQUIRE(spec);
    const DesignRegionSpec& r = spec->regions[0];
    REQUIRE(r.fixed.size() == 2);
    const auto pixels = r.fixed_pixels();
    // by the centres: x 1.55, 1.65 and y 1.05 .. 1.35 (4 rows) solid; y 1.45 (the top row) void
    std::vector<std::pair<std::size_t, double>> expected;
    for (std::size_t idx : centres_in(r, r.fixed[0])) expected.emplace_back(idx, 1.0);
    for (std::size_t idx : centres_in(r, r.fixed[1])) expected.emplace_back(idx, 0.0);
    std::sort(expected.begin(), expected.end());
    CHECK(expected.size() == 8 + 6);
    CHECK(pixels == expected);

    ProjectProblemOptions o;
    o.normalize = false;
    const ProjectProblem pp = problem_from_project(proj, "guide.glproj", ".", o);
    REQUIRE(pp.settings.fixed.size() == expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        CHECK(pp.settings.fixed[k].index == expected[k].first);
        CHECK(pp.settings.fixed[k].rho == expected[k].second);
        CHECK(pp.rho0[expected[k].first] == expected[k].second);
    }
    CHECK(pp.rho0[1 * 6 + 3] == 0.5);  // a free pixel keeps the start value

    // overlapping boxes: the later one wins
    const Json overlap = Json::array({Json{{"min", {1.5, 0.9}}, {"max", {2.1, 1.5}}, {"rho", 1}},
                                      Json{{"min", {1.5, 0.9}}, {"max", {1.6, 1.0}}, {"rho", 0}}});
    const auto o2 = design_spec(guide_with_fixed(overlap), "guide.glproj");
    const auto all = o2->regions[0].fixed_pixels();
    REQUIRE(all.size() == 36);
    CHECK(all[0].second == 0.0);
    CHECK(all[1].second == 1.0);
}

TEST_CASE("design spec: a 3D region's fixed box counts pixels along z", "[adjoint]") {
    DesignRegionSpec r;
    r.min = {0, 0, 0};
    r.max = {0.4, 0.3, 0.2};
    r.pixel_um = 0.1;
    r.pixels = {4, 3, 2};
    r.fixed = {{{0.1, 0.0, 0.1}, {0.3, 0.3, 0.2}, 1.0}};
    const auto got = r.fixed_pixels();
    const auto want = centres_in(r, r.fixed[0]);
    REQUIRE(want.size() == 2 * 3 * 1);
    REQUIRE(got.size() == want.size());
    for (std::size_t k = 0; k < got.size(); ++k) CHECK(got[k].first == want[k]);
}

TEST_CASE("design spec: bad fixed boxes are refused, naming the JSON path", "[adjoint]") {
    const auto refused = [](const Json& fixed, const std::string& path, const std::string& text, bool references = true) {
        INFO(fixed.dump());
        try {
            (void)design_spec(guide_with_fixed(fixed), "guide.glproj", references);
            FAIL("accepted");
        } catch (const ProjectError& e) {
            const std::string what = e.what();
            INFO(what);
            CHECK(what.find("guide.glproj") != std::string::npos);
            CHECK(what.find(path) != std::string::npos);
            CHECK(what.find(text) != std::string::npos);
        }
    };
    refused(Json::object(), "design.regions[0].fixed", "must be a list");
    refused(Json::array({Json{{"min", {1.4, 1.0}}, {"max", {1.7, 1.4}}, {"rho", 1}}}), "design.regions[0].fixed[0]",
            "inside the design region", false);
    refused(Json::array({Json{{"min", {1.5, 1.0}}, {"max", {1.7, 1.6}}, {"rho", 1}}}), "design.regions[0].fixed[0]",
            "inside the design region");
    refused(Json::array({Json{{"min", {1.5, 1.0}}, {"max", {1.7, 1.4}}, {"rho", 0.5}}}), "design.regions[0].fixed[0].rho",
            "must be 0 or 1", false);
    refused(Json::array({Json{{"min", {1.5, 1.0}}, {"max", {1.7, 1.4}}}}), "design.regions[0].fixed[0].rho",
            "is required");
    refused(Json::array({Json{{"min", {1.5, 1.0}}, {"max", {1.7, 1.4}}, {"rho", 1}},
                         Json{{"min", {1.8, 1.2}}, {"max", {1.6, 1.4}}, {"rho", 0}}}),
            "design.regions[0].fixed[1].max", "must exceed min along x", false);
    refused(Json::array({Json{{"min", {1.5}}, {"max", {1.7, 1.4}}, {"rho", 1}}}), "design.regions[0].fixed[0].min",
            "must be [x, y]");
    // between two rows of centres (1.05 and 1.15): holds none; only `optimize` refuses it
    const Json between = Json::array({Json{{"min", {1.5, 1.07}}, {"max", {1.7, 1.13}}, {"rho", 1}}});
    refused(between, "design.regions[0].fixed[0]", "holds no pixel centre");
    CHECK_NOTHROW(design_spec(guide_with_fixed(between), "guide.glproj", false));
}
