// The fields of a design of shape parameters handed out for a live picture
// (adjoint_shape.hpp ShapeProblem::on_fields): called once per evaluation with the
// gradient, at the sensitivity's sites, with the forward DFT of E that a plain forward run
// gives at the same sites (point functionals, the engine's other DFT path) and the adjoint
// field whose product with the forward field and d eps / d p is the gradient.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>

#include "golightly/adjoint.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_shape.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "golightly/units.hpp"
#include "optional_features.hpp"
#include "shape_block_project.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

/// What one call of on_fields handed out (copied: the sites are valid during the call only).
struct Seen {
    adjoint::DesignSites sites;
    std::vector<char> moving;
    std::array<std::int64_t, 3> grid{}, box_lo{}, box_hi{};
    std::vector<double> p, frequencies_hz;
    std::vector<std::complex<double>> forward, adjoint;
};

}  // namespace

TEST_CASE("adjoint shape fields: on_fields gets the forward DFT at the sensitivity's sites and the adjoint field of the "
          "gradient (2D TMz, float64)",
          "[adjoint][shape]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    const std::string label = "shape.glproj";
    const Project project = parse_project(test::kShapeBlockTMz, label);
    adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(project, label, fs::temp_directory_path());
    std::vector<Seen> seen;
    sp.on_fields = [&](const adjoint::ShapeFields& f) {
        REQUIRE(f.sites != nullptr);
        seen.push_back({*f.sites, f.moving, f.grid, f.box_lo, f.box_hi, f.p, f.frequencies_hz, f.forward, f.adjoint});
    };
    const std::vector<double> p = {0.66, 1.5};  // not the start values: the hook reports these

    // without the gradient no sites are known: not called
    (void)adjoint::evaluate_shape(sp, p, false);
    CHECK(seen.empty());
    const adjoint::ShapeEvaluation ev = adjoint::evaluate_shape(sp, p, true);
    REQUIRE(seen.size() == 1);  // once per evaluation
    const Seen& f = seen[0];
    const std::size_t ns = f.sites.size(), nf = f.frequencies_hz.size(), np = sp.names.size();
    REQUIRE(ns == ev.sites);
    REQUIRE(ns > 0);
    REQUIRE(nf == 1);  // the objective's one wavelength
    CHECK(std::abs(units::c0 / f.frequencies_hz[0] / units::um - 1.55) < 1e-3);  // the spectrum point used (1.55 um)
    REQUIRE(f.forward.size() == ns * nf);
    REQUIRE(f.adjoint.size() == ns * nf);
    REQUIRE(f.moving.size() == ns);
    CHECK(f.p == p);

    // the sites are the sensitivity's, in its order, within its box
    adjoint::ProjectProblemOptions o;
    const Project at = adjoint::project_at(sp.project, sp.names, p, label);
    adjoint::ProjectProblem pp = adjoint::shape_problem_at(at, label, fs::temp_directory_path(), o, sp.normalization);
    const Scene& scene = pp.problem.scene;
    const adjoint::ShapeSensitivity sens =
        adjoint::shape_sensitivity(sp.project, sp.spec, p, scene, label, pp.problem.frequencies_hz);
    REQUIRE(sens.sites.size() == ns);
    CHECK(f.grid == std::array<std::int64_t, 3>{scene.nx, scene.ny, 1});
    CHECK(f.box_lo == sens.box_lo);
    CHECK(f.box_hi == sens.box_hi);
    double peak = 0;
    for (std::size_t s = 0; s < ns; ++s) {
        CHECK(f.sites.component[s] == sens.sites.component[s]);
        CHECK(f.sites.cell[s] == sens.sites.cell[s]);
        CHECK(bool(f.moving[s]) == bool(sens.moving[s]));
        const std::int64_t i = f.sites.cell[s] % f.grid[0], j = f.sites.cell[s] / f.grid[0];
        CHECK((i >= f.box_lo[0] && i <= f.box_hi[0] && j >= f.box_lo[1] && j <= f.box_hi[1]));
        REQUIRE(std::isfinite(std::abs(f.forward[s])));
        REQUIRE(std::isfinite(std::abs(f.adjoint[s])));
        peak = std::max(peak, std::abs(f.forward[s]));
    }
    REQUIRE(peak > 0);

    // the forward field equals a plain forward run's DFT at the same sites, read there by
    // point functionals (the engine's sets of the objective, not the design sites' sets):
    // the same float64 run, so equal to rounding (1e-9 of the peak: the sum over the run's
    // steps of terms near the peak, rounded at 1e-16 each)
    pp.problem.functionals.clear();
    for (std::size_t s = 0; s < ns; ++s)
        pp.problem.functionals.push_back({"site " + std::to_string(s), {f.sites.component[s]}, {f.sites.cell[s]}, {1.0}, {}});
    pp.problem.objective = adjoint::intensity_objective();
    pp.problem.per_frequency = {};
    const adjoint::Evaluation plain = adjoint::evaluate_sites(pp.problem, {}, false);
    REQUIRE(plain.amplitudes.size() == ns);
    double worst = 0;
    for (std::size_t s = 0; s < ns; ++s) worst = std::max(worst, std::abs(plain.amplitudes[s][0] - f.forward[s]));
    INFO("largest difference " << worst << " of the peak |E| " << peak << " over " << ns << " sites");
    CHECK(worst < 1e-9 * peak);

    // forward x adjoint x d eps / d p gives the gradient evaluate_shape reported (TMz: Ez
    // only, no tensor-coupled site), to rounding
    REQUIRE(sens.k_at.empty());
    for (std::size_t k = 0; k < np; ++k) {
        double g = 0;
        for (std::size_t s = 0; s < ns; ++s) {
            const std::complex<double> one_minus_z =
                1.0 - std::polar(1.0, 2 * units::pi * f.frequencies_hz[0] * scene.dt_s);
            g += std::real(-one_minus_z * f.forward[s] * f.adjoint[s] * sens.d_eps_w[(s * np + k) * nf]);
        }
        INFO(sp.names[k] << ": from the fields " << g << ", evaluate_shape " << ev.gradient[k]);
        CHECK(std::abs(ev.gradient[k]) > 0);
        CHECK(std::abs(g - ev.gradient[k]) < 1e-9 * std::abs(ev.gradient[k]));
    }
}

TEST_CASE("adjoint shape fields: optimize_shape calls on_fields once per new evaluation, not for replayed ones",
          "[adjoint][shape]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    const std::string label = "shape.glproj";
    adjoint::ShapeProblem sp =
        adjoint::shape_problem_from_project(parse_project(test::kShapeBlockTMz, label), label, fs::temp_directory_path());
    std::vector<std::vector<double>> at;  // the p of each call
    sp.on_fields = [&](const adjoint::ShapeFields& f) {
        CHECK(f.forward.size() == f.sites->size() * f.frequencies_hz.size());
        at.push_back(f.p);
    };
    const fs::path checkpoint = fs::temp_directory_path() / "golightly_shape_fields_checkpoint.json";
    fs::remove(checkpoint);
    const adjoint::ShapeOptimizeResult first = adjoint::optimize_shape(sp, 2, {}, checkpoint);
    REQUIRE(first.history.size() == 2);
    REQUIRE(at.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) CHECK(at[i] == first.history[i].p);
    // resumed: the two recorded evaluations are replayed (no run, no fields), one more is run
    at.clear();
    const adjoint::ShapeOptimizeResult resumed = adjoint::optimize_shape(sp, 1, {}, checkpoint);
    fs::remove(checkpoint);
    REQUIRE(resumed.history.size() == 3);
    CHECK(resumed.history[0].replayed);
    CHECK(resumed.history[1].replayed);
    CHECK(!resumed.history[2].replayed);
    REQUIRE(at.size() == 1);
    CHECK(at[0] == resumed.history[2].p);
}
