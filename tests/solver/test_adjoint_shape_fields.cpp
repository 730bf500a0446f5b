// The fields of a design of shape parameters handed out for a live picture
// (adjoint_shape.hpp ShapeProblem::on_fields): called once per evaluation with the
// gradient, at the sensitivity's sites, with the forward DFT of E that a plain forward run
// gives at the same sites (point functionals, the engine's other DFT path) and the adjoint
// field whose product with the forward field and d eps / d p is the gradient; and over the
// view box around the shapes (ShapeFields' rule: the sites' box grown by max(8, extent / 4)
// cells, clipped to the PML), every site of it sampled in the same runs but a source's,
// without changing F or dF/dp (bit for bit).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <vector>

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
    std::array<std::int64_t, 3> view_lo{}, view_hi{};
    std::vector<Component> view_components;
    std::vector<std::complex<double>> view_forward, view_adjoint;
    std::vector<char> view_sampled;
};

Seen copied(const adjoint::ShapeFields& f) {
    REQUIRE(f.sites != nullptr);
    return {*f.sites,       f.moving,          f.grid,         f.box_lo,       f.box_hi,
            f.p,            f.frequencies_hz,  f.forward,      f.adjoint,      f.view_lo,
            f.view_hi,      f.view_components, f.view_forward, f.view_adjoint, f.view_sampled};
}

/// The view box ShapeFields' comment defines, from the sites' box, in 2D.
std::array<std::array<std::int64_t, 3>, 2> expected_view(const Scene& scene, const std::array<std::int64_t, 3>& lo,
                                                         const std::array<std::int64_t, 3>& hi) {
    std::array<std::array<std::int64_t, 3>, 2> v{};
    const std::int64_t n[2] = {scene.nx, scene.ny};
    for (std::size_t a = 0; a < 2; ++a) {
        const std::int64_t m = std::max<std::int64_t>(8, (hi[a] - lo[a] + 1) / 4);
        v[0][a] = std::max<std::int64_t>(lo[a] - m, scene.pml_lo[a]);
        v[1][a] = std::min<std::int64_t>(hi[a] + m, n[a] - 1 - scene.pml_hi[a]);
    }
    return v;
}

}  // namespace

TEST_CASE("adjoint shape fields: on_fields gets the forward DFT at the sensitivity's sites and the adjoint field of the "
          "gradient (2D TMz, float64)",
          "[adjoint][shape]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    const std::string label = "shape.glproj";
    const Project project = parse_project(test::kShapeBlockTMz, label);
    adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(project, label, fs::temp_directory_path());
    std::vector<Seen> seen;
    sp.on_fields = [&](const adjoint::ShapeFields& f) { seen.push_back(copied(f)); };
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

    // the view: the sites' box grown by the margin (the block's 0.66 x 0.54 um is 14 x 12
    // cells or so: 8 cells each side), clipped to the PML; Ez only (TMz), every site sampled
    // (the source at x = 0.62 um lies left of it)
    const auto box = expected_view(scene, f.box_lo, f.box_hi);
    CHECK(f.view_lo == std::array<std::int64_t, 3>{box[0][0], box[0][1], 0});
    CHECK(f.view_hi == std::array<std::int64_t, 3>{box[1][0], box[1][1], 0});
    REQUIRE(f.view_lo[0] == f.box_lo[0] - 8);  // the margin is not clipped here
    REQUIRE(f.view_components == std::vector<Component>{Component::Ez});
    const std::int64_t vx = f.view_hi[0] - f.view_lo[0] + 1, vy = f.view_hi[1] - f.view_lo[1] + 1;
    const std::size_t nv = std::size_t(vx * vy);
    REQUIRE(f.view_sampled.size() == nv);
    REQUIRE(f.view_forward.size() == nv * nf);
    REQUIRE(f.view_adjoint.size() == nv * nf);
    CHECK(std::count(f.view_sampled.begin(), f.view_sampled.end(), 1) == std::ptrdiff_t(nv));
    auto view_index = [&](CellIndex cell) {
        const std::int64_t i = cell % f.grid[0] - f.view_lo[0], j = cell / f.grid[0] - f.view_lo[1];
        return std::size_t(j * vx + i);
    };
    // at the sensitivity's sites: the same DFT samples, so the same numbers exactly
    for (std::size_t s = 0; s < ns; ++s) {
        const std::size_t v = view_index(f.sites.cell[s]);
        CHECK(f.view_forward[v] == f.forward[s]);
        CHECK(f.view_adjoint[v] == f.adjoint[s]);
    }
    // everywhere else: what a plain forward run's point functionals give (every 7th site
    // of the box, the block's centre among them), to rounding as above; the block's inside
    // holds a field (not blank)
    pp.problem.functionals.clear();
    std::vector<std::size_t> probe;
    const CellIndex centre = CellIndex((f.box_lo[0] + f.box_hi[0]) / 2 + f.grid[0] * ((f.box_lo[1] + f.box_hi[1]) / 2));
    for (std::size_t v = 0; v < nv; ++v) {
        const CellIndex cell = CellIndex((f.view_lo[0] + std::int64_t(v) % vx) + f.grid[0] * (f.view_lo[1] + std::int64_t(v) / vx));
        if (v % 7 != 0 && cell != centre) continue;
        probe.push_back(v);
        pp.problem.functionals.push_back({"view " + std::to_string(v), {Component::Ez}, {cell}, {1.0}, {}});
    }
    const adjoint::Evaluation dense = adjoint::evaluate_sites(pp.problem, {}, false);
    REQUIRE(dense.amplitudes.size() == probe.size());
    double view_peak = 0;
    for (const auto& e : f.view_forward) view_peak = std::max(view_peak, std::abs(e));
    double view_worst = 0;
    for (std::size_t q = 0; q < probe.size(); ++q)
        view_worst = std::max(view_worst, std::abs(dense.amplitudes[q][0] - f.view_forward[probe[q]]));
    INFO("view: largest difference " << view_worst << " of the peak |E| " << view_peak << " at " << probe.size()
                                     << " of " << nv << " sites");
    CHECK(view_worst < 1e-9 * view_peak);
    CHECK(std::abs(f.view_forward[view_index(centre)]) > 1e-3 * view_peak);
    CHECK(std::abs(f.view_adjoint[view_index(centre)]) > 0);
}

TEST_CASE("adjoint shape fields: the view does not change F or dF/dp (bit for bit), and a source's sites in it are "
          "not sampled (2D TMz, float64)",
          "[adjoint][shape]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    const std::string label = "shape.glproj";
    // two objective wavelengths (the per-frequency values and gradients too); the source
    // moved into the view box, left of the block (x = 1.0 um; the block's left edge at
    // 1.5 - 0.33 = 1.17 um, the box reaching 0.4 um beyond it)
    Json j = Json::parse(test::kShapeBlockTMz);
    j["design"]["objective"]["wavelengths_um"] = Json::array({1.5, 1.6});
    j["sources"][0]["at"] = Json::array({1.0, 1.43});
    adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(parse_project(j.dump(), label), label, fs::temp_directory_path());
    const std::vector<double> p = {0.66, 1.5};
    const adjoint::ShapeEvaluation plain = adjoint::evaluate_shape(sp, p, true);
    std::vector<Seen> seen;
    sp.on_fields = [&](const adjoint::ShapeFields& f) { seen.push_back(copied(f)); };
    const adjoint::ShapeEvaluation viewed = adjoint::evaluate_shape(sp, p, true);
    REQUIRE(seen.size() == 1);
    // the same runs with more DFT samples: every sample is accumulated on its own, so the
    // sensitivity's samples, and all that is computed from them, are the same numbers
    CHECK(viewed.objective == plain.objective);
    CHECK(viewed.objective_per_frequency == plain.objective_per_frequency);
    REQUIRE(plain.gradient.size() == 2);
    CHECK(viewed.gradient == plain.gradient);
    REQUIRE(plain.gradient_per_frequency.size() == 2);
    CHECK(viewed.gradient_per_frequency == plain.gradient_per_frequency);
    CHECK(viewed.steps == plain.steps);
    CHECK(viewed.sites == plain.sites);

    // the source's Ez site is in the view and not sampled (0 there), every other one is
    const Seen& f = seen[0];
    const adjoint::ProjectProblem pp = adjoint::shape_problem_at(adjoint::project_at(sp.project, sp.names, p, label), label,
                                                                 fs::temp_directory_path(), {}, sp.normalization);
    const Scene& scene = pp.problem.scene;
    REQUIRE(scene.sources.size() == 1);
    REQUIRE(scene.sources[0].component == Component::Ez);
    const std::int64_t vx = f.view_hi[0] - f.view_lo[0] + 1, vy = f.view_hi[1] - f.view_lo[1] + 1;
    const std::size_t nf = f.frequencies_hz.size();
    REQUIRE(nf == 2);
    REQUIRE(f.view_sampled.size() == std::size_t(vx * vy));
    std::size_t inside = 0;
    for (CellIndex cell : scene.sources[0].cells) {
        const std::int64_t i = cell % scene.nx - f.view_lo[0], jj = cell / scene.nx - f.view_lo[1];
        if (i < 0 || jj < 0 || i >= vx || jj >= vy) continue;
        ++inside;
        const std::size_t v = std::size_t(jj * vx + i);
        CHECK(f.view_sampled[v] == 0);
        for (std::size_t k = 0; k < nf; ++k) CHECK(f.view_forward[v * nf + k] == std::complex<double>(0.0));
    }
    REQUIRE(inside >= 1);  // the case is the one meant
    CHECK(std::count(f.view_sampled.begin(), f.view_sampled.end(), 0) == std::ptrdiff_t(inside));
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

TEST_CASE("adjoint shape fields: the view keeps off a TF/SF source's faces, shrinking its margin (2D TMz, float64)",
          "[adjoint][shape]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    const std::string label = "shape.glproj";
    // the block lit by a TF/SF plane wave whose box encloses it 5 to 7 cells from its edges
    // (x 0.9 .. 2.1 um, y 0.9 .. 2.1 um; the block 1.185 .. 1.815 by 1.25 .. 1.79 um): the
    // 8-cell margin would cross the faces, which evaluate_sites refuses
    Json j = Json::parse(test::kShapeBlockTMz);
    j["sources"][0] = Json::parse(R"({"name": "wave", "type": "tfsf", "min": [0.9, 0.9], "max": [2.1, 2.1],
        "direction": "+x", "component": "Ez",
        "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.4}})");
    adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(parse_project(j.dump(), label), label, fs::temp_directory_path());
    std::vector<Seen> seen;
    sp.on_fields = [&](const adjoint::ShapeFields& f) { seen.push_back(copied(f)); };
    const adjoint::ShapeEvaluation ev = adjoint::evaluate_shape(sp, sp.p0, true);
    REQUIRE(seen.size() == 1);
    REQUIRE(ev.gradient.size() == 2);
    const Seen& f = seen[0];
    const adjoint::ProjectProblem pp = adjoint::shape_problem_at(adjoint::project_at(sp.project, sp.names, sp.p0, label),
                                                                 label, fs::temp_directory_path(), {}, sp.normalization);
    REQUIRE(pp.problem.scene.tfsf.size() == 1);
    const TfsfSource& tf = pp.problem.scene.tfsf[0];
    // one margin m on every side (the box is inside the PML-free interior), below 8
    const std::int64_t m = f.box_lo[0] - f.view_lo[0];
    INFO("margin " << m << " cells; view x " << f.view_lo[0] << " .. " << f.view_hi[0] << ", y " << f.view_lo[1] << " .. "
                   << f.view_hi[1] << "; TF/SF box x " << tf.lo[0] << " .. " << tf.hi[0] << ", y " << tf.lo[1] << " .. "
                   << tf.hi[1]);
    CHECK(m > 0);
    CHECK(m < 8);
    CHECK(f.view_lo[1] == f.box_lo[1] - m);
    CHECK(f.view_hi[0] == f.box_hi[0] + m);
    CHECK(f.view_hi[1] == f.box_hi[1] + m);
    // inside the TF region, more than a cell from each face (adjoint.hpp evaluate_sites)
    for (std::size_t a = 0; a < 2; ++a) {
        CHECK(tf.lo[a] < f.view_lo[a] - 1);
        CHECK(tf.hi[a] > f.view_hi[a] + 1);
    }
    // the largest such margin: one more cell reaches a face
    bool reaches = false;
    for (std::size_t a = 0; a < 2; ++a)
        reaches = reaches || tf.lo[a] >= f.box_lo[a] - (m + 1) - 1 || tf.hi[a] <= f.box_hi[a] + (m + 1) + 1;
    CHECK(reaches);
    CHECK(std::count(f.view_sampled.begin(), f.view_sampled.end(), 1) == std::ptrdiff_t(f.view_sampled.size()));
}
