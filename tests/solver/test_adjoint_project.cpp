// The project file's `design` section (design_spec.hpp) and its adjoint problem
// (adjoint_project.hpp): round trip, the errors that name the field, the problem built from
// the tiny guide of adjoint_project_fixture.hpp, the density files, and a cancel during the
// normalization run.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <filesystem>

#include "adjoint_project_fixture.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

/// The fixture with `edit` applied to its JSON, parsed.
Project edited(const std::function<void(Json&)>& edit) { return test::edited_guide(edit); }

/// The error of reading the edited fixture (parse_project) or of its design section with
/// its references (design_spec, as optimize --adjoint reads it).
std::string error_of(const std::function<void(Json&)>& edit) { return test::design_error(edit); }

}  // namespace

TEST_CASE("adjoint project: the design section reads, and a save keeps it and its unknown members", "[adjoint][project]") {
    test::Scratch dir("adjoint", "project");
    const Project p = parse_project(test::kAdjointGuide, "guide.glproj");
    const auto spec = design_spec(p, "guide.glproj");
    REQUIRE(spec);
    REQUIRE(spec->regions.size() == 1);
    const DesignRegionSpec& r = spec->regions[0];
    CHECK(r.name == "dr");
    CHECK(r.pixels == std::array<int, 3>{6, 6, 1});
    CHECK(r.materials == std::array<std::string, 2>{"air", "si"});
    CHECK(r.rho_uniform == 0.5);
    CHECK(r.filter_kind == "conic");
    CHECK(r.filter_radius_um == 0.15);
    CHECK(r.beta == 2);
    CHECK(r.beta_max == 16);
    CHECK(r.beta_every == 10);
    CHECK(r.projection_kind == "tanh");
    CHECK(r.betas.empty());
    REQUIRE(spec->objective.terms.size() == 1);
    CHECK(spec->objective.terms[0].monitor == "output");
    CHECK(spec->objective.terms[0].forward);
    CHECK(spec->objective.normalize_by == "input");
    CHECK(spec->objective.maximize);
    CHECK(spec->algorithm == "mma");
    CHECK(spec->max_iterations == 3);
    const fs::path file = dir.path / "guide.glproj";
    save_project(p, file);
    const Project back = load_project(file);
    CHECK(back == p);
    CHECK(back.extra.at("design").at("regions")[0].at("future_member").at("kept") == true);
    // no design section: none
    CHECK_FALSE(design_spec(edited([](Json& j) { j.erase("design"); }), "x.glproj"));
}

TEST_CASE("adjoint project: errors in the design section name the file and the field", "[adjoint][project]") {
    auto region = [](Json& j) -> Json& { return j["design"]["regions"][0]; };
    CHECK_THAT(error_of([&](Json& j) { region(j)["pixel_um"] = 0.07; }),
               Catch::StartsWith("design.regions[0].pixel_um: the box must be a whole number of pixels along x") &&
                   Catch::Contains("[edited.glproj]"));
    // dispersive and lossy design materials are accepted (their susceptibilities are
    // interpolated: adjoint.hpp DesignMedium, tests/solver/test_adjoint_dispersive.cpp)
    CHECK_NOTHROW(design_spec(edited([&](Json& j) { region(j)["materials"] = {"air", "drude"}; }), "x.glproj"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["materials"] = {"air", "gold"}; }),
               Catch::StartsWith("design.regions[0].materials[1]: unknown material id \"gold\""));
    CHECK_THAT(error_of([&](Json& j) { region(j)["materials"] = {"si", "si"}; }),
               Catch::StartsWith("design.regions[0].materials: low and high must be two different materials"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["rho"] = Json::array({0.5, 0.5}); }),
               Catch::StartsWith("design.regions[0].rho: has 2 values for 36 pixels"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["rho"] = 1.5; }), Catch::StartsWith("design.regions[0].rho: must be in [0, 1]"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["max"] = {4.0, 1.5}; }),
               Catch::StartsWith("design.regions[0].min: the box must lie inside the domain"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["filter"]["kind"] = "box"; }),
               Catch::StartsWith("design.regions[0].filter.kind: must be one of conic, gaussian"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["projection"]["kind"] = "sigmoid"; }),
               Catch::StartsWith("design.regions[0].projection.kind: must be one of tanh, smoothed"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["projection"]["betas"] = {4, "inf"}; }),
               Catch::StartsWith("design.regions[0].projection.betas[1]: \"inf\" needs projection.kind \"smoothed\""));
    CHECK_THAT(error_of([&](Json& j) {
                   region(j)["projection"]["kind"] = "smoothed";
                   region(j)["projection"]["betas"] = {4, "inf", 8};
               }),
               Catch::StartsWith("design.regions[0].projection.betas[1]: \"inf\" must be the last beta"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["projection"]["betas"] = {8, 4}; }),
               Catch::StartsWith("design.regions[0].projection.betas[1]: must not be below the beta before it (8)"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["projection"]["betas"] = {8, -1}; }),
               Catch::StartsWith("design.regions[0].projection.betas[1]: must be > 0"));
    CHECK_THAT(error_of([&](Json& j) { region(j)["projection"]["betas"] = Json::array(); }),
               Catch::StartsWith("design.regions[0].projection.betas: must be a non-empty list"));
    CHECK_THAT(error_of([&](Json& j) { j["design"]["objective"]["terms"][0]["monitor"] = "T"; }),
               Catch::StartsWith("design.objective.terms[0].monitor: monitor \"T\" is not a mode monitor"));
    CHECK_THAT(error_of([&](Json& j) { j["design"]["objective"]["terms"][0]["mode"] = 1; }),
               Catch::StartsWith("design.objective.terms[0].mode: monitor \"output\" lists 1 mode(s)"));
    CHECK_THAT(error_of([&](Json& j) { j["design"]["objective"]["normalize_by"] = "nowhere"; }),
               Catch::StartsWith("design.objective.normalize_by: unknown monitor \"nowhere\""));
    CHECK_THAT(error_of([&](Json& j) { j["design"]["objective"]["terms"][0] = {{"point", {2.5, 1.2}}, {"component", "Hz"}}; }),
               Catch::StartsWith("design.objective.terms[0].component: must be one of Ex, Ey, Ez"));
    CHECK_THAT(error_of([&](Json& j) { j["design"]["objective"]["goal"] = "best"; }),
               Catch::StartsWith("design.objective.goal: must be one of maximize, minimize"));
    CHECK_THAT(error_of([&](Json& j) { j["design"]["optimizer"]["algorithm"] = "bfgs"; }),
               Catch::StartsWith("design.optimizer.algorithm: must be one of mma, ccsa, lbfgs"));
    CHECK_THAT(error_of([&](Json& j) { j["design"]["optimizer"]["max_iterations"] = 0; }),
               Catch::StartsWith("design.optimizer.max_iterations: must be at least 1"));
    CHECK_THAT(error_of([&](Json& j) { j["design"].erase("objective"); }), Catch::StartsWith("design.objective: is required"));
    // the reader checks the section's own fields; a reference to the rest of the project
    // that an edit broke (the IDE does not edit the design yet) leaves the file readable
    CHECK_THROWS_WITH(edited([&](Json& j) { region(j)["pixel_um"] = -1; }),
                      Catch::Contains("design.regions[0].pixel_um") && Catch::Contains("must be > 0"));
    const Project dangling = edited([](Json& j) { j["monitors"].erase(1); });  // "output"
    CHECK_THROWS_WITH(design_spec(dangling, "d.glproj"),
                      Catch::Contains("design.objective.terms[0].monitor") && Catch::Contains("unknown monitor \"output\""));
}

TEST_CASE("adjoint project: the smoothed projection and a beta list reach the optimizer's settings", "[adjoint][project]") {
    test::Scratch dir("adjoint", "betas");
    const Project p = edited([](Json& j) {
        Json& pr = j["design"]["regions"][0]["projection"];
        pr["kind"] = "smoothed";
        pr["betas"] = {4, 16, "inf"};
    });
    const auto spec = design_spec(p, "edited.glproj");
    REQUIRE(spec);
    CHECK(spec->regions[0].projection_kind == "smoothed");
    REQUIRE(spec->regions[0].betas.size() == 3);
    CHECK(std::isinf(spec->regions[0].betas[2]));
    adjoint::ProjectProblemOptions o;
    o.normalize = false;
    const adjoint::ProjectProblem pp = adjoint::problem_from_project(p, "edited.glproj", dir.path, o);
    CHECK(pp.settings.mapping.smoothed);
    REQUIRE(pp.settings.betas.size() == 3);
    CHECK(pp.settings.betas[0] == 4);
    CHECK(pp.settings.betas[1] == 16);
    CHECK(std::isinf(pp.settings.betas[2]));
}

TEST_CASE("adjoint project: the guide's problem, its normalized transmission and the density files", "[adjoint][project]") {
    test::Scratch dir("adjoint", "problem");
    const Project p = parse_project(test::kAdjointGuide, "guide.glproj");
    const adjoint::ProjectProblem pp = adjoint::problem_from_project(p, "guide.glproj", dir.path);
    CHECK(pp.problem.region.n == std::array<int, 3>{6, 6, 1});
    CHECK(pp.problem.region.eps_min == 1.0);
    CHECK(pp.problem.region.eps_max == 12.0);
    REQUIRE(pp.wavelengths_um.size() == 1);
    CHECK(pp.wavelengths_um[0] == Approx(1.55).epsilon(1e-9));  // one wavelength: the spectrum is that point
    REQUIRE(pp.problem.functionals.size() == 1);
    CHECK(pp.settings.mapping.radius_um == 0.15);
    CHECK(pp.settings.maximize);
    REQUIRE(pp.normalization.size() == 1);
    CHECK(pp.normalization[0] > 0);
    // The objective is the power in the output's fundamental mode over the input's forward
    // power: a transmission, in (0, 1] up to the runs' decay (1e-10) and the monitors'
    // discretization (the mode overlap of two lines of the same guide, equal to round-off).
    adjoint::Problem prob = pp.problem;
    design::DensityGrid g = adjoint::density_grid(prob.region, 2);
    g.rho = pp.rho0;
    const adjoint::Evaluation ev = adjoint::evaluate(prob, design::map_density(g, pp.settings.mapping));
    INFO("T = " << ev.objective);
    CHECK(ev.objective > 0.05);
    CHECK(ev.objective < 1.0 + 1e-6);
    // the guide continued through the region (pixel rows at y 1.15 and 1.25 solid, those
    // either side half) passes more than the half-filled block, and at most all
    std::vector<double> guide(36, 0.0);
    for (int j = 1; j < 5; ++j)
        for (int i = 0; i < 6; ++i) guide[std::size_t(j * 6 + i)] = (j == 2 || j == 3) ? 1.0 : 0.5;
    const double t_guide = adjoint::evaluate(prob, guide).objective;
    INFO("T(guide) = " << t_guide);
    CHECK(t_guide > ev.objective);
    CHECK(t_guide < 1.0 + 1e-6);

    // density files: CSV (and HDF5 where built) read back what was written
    std::vector<double> rho(36), rp(36);
    for (std::size_t k = 0; k < 36; ++k) rho[k] = double(k) / 35.0, rp[k] = 1.0 - rho[k];
    adjoint::write_density_csv(dir.path / "d.csv", prob.region, 0.1, rho, rp);
    CHECK(adjoint::read_density_file(dir.path / "d.csv", 36) == rho);
    CHECK_THROWS_WITH(adjoint::read_density_file(dir.path / "d.csv", 35), Catch::Contains("36 densities for 35 pixels"));
#ifdef GOLIGHTLY_TEST_HDF5
    REQUIRE(adjoint::write_density_h5(dir.path / "d.h5", prob.region, 0.1, rho, rp));
    CHECK(adjoint::read_density_file(dir.path / "d.h5", 36) == rho);
#else
    CHECK_FALSE(adjoint::write_density_h5(dir.path / "d.h5", prob.region, 0.1, rho, rp));  // no HDF5: says so
    CHECK_THROWS_WITH(adjoint::read_density_file(dir.path / "d.h5", 36), Catch::Contains("no HDF5 support"));
#endif
    // a project's rho may name such a file (relative to the project's folder)
    const Project from_file = edited([](Json& j) { j["design"]["regions"][0]["rho"] = "d.csv"; });
    adjoint::ProjectProblemOptions o;
    o.normalize = false;
    CHECK(adjoint::problem_from_project(from_file, "edited.glproj", dir.path, o).rho0 == rho);
    CHECK_THROWS_WITH(adjoint::problem_from_project(from_file, "edited.glproj", dir.path / "elsewhere", o),
                      Catch::Contains("design.regions[0].rho") && Catch::Contains("cannot read the density file"));
}

TEST_CASE("adjoint project: point terms over several wavelengths, minimized", "[adjoint][project]") {
    test::Scratch dir("adjoint", "point");
    const Project p = edited([](Json& j) {
        Json& o = j["design"]["objective"];
        o["terms"] = Json::array({Json{{"point", {2.7, 1.2}}, {"component", "Ez"}, {"weight", 2.0}}});
        o["wavelengths_um"] = {1.6, 1.5, 1.55};
        o.erase("normalize_by");
        o["goal"] = "minimize";
        j["design"]["regions"][0]["name"] = "wg";  // a layer's name: the final layers get a suffix
    });
    const adjoint::ProjectProblem pp = adjoint::problem_from_project(p, "edited.glproj", dir.path);
    CHECK_FALSE(pp.settings.maximize);
    // three spectrum points from 1.5 to 1.6 um, uniform in frequency: the ends exact, the
    // middle at the mean frequency (1.548 um), the nearest to 1.55
    REQUIRE(pp.wavelengths_um.size() == 3);
    CHECK(pp.wavelengths_um[0] == Approx(1.6).epsilon(1e-9));
    CHECK(pp.wavelengths_um[1] == Approx(2.0 / (1.0 / 1.5 + 1.0 / 1.6)).epsilon(1e-9));
    CHECK(pp.wavelengths_um[2] == Approx(1.5).epsilon(1e-9));
    CHECK(pp.normalization == std::vector<double>(3, 1.0));
    // F = (2 / 3) sum_f |Ez(f)|^2 from the amplitudes
    const adjoint::Evaluation ev = adjoint::evaluate(pp.problem, pp.rho0);
    REQUIRE(ev.amplitudes.size() == 1);
    REQUIRE(ev.amplitudes[0].size() == 3);
    double sum = 0;
    for (const auto& a : ev.amplitudes[0]) sum += std::norm(a);
    CHECK(sum > 0);
    CHECK(ev.objective == Approx(2.0 / 3.0 * sum).epsilon(1e-12));
    const Project fin = adjoint::project_with_design_shapes(p, pp, std::vector<double>(36, 1.0));
    REQUIRE(fin.layers.size() == 3);
    CHECK(fin.layers[1].name == "wg 2");
    CHECK(fin.layers[2].name == "wg 2_solid");
    REQUIRE(fin.layers[2].shapes.size() == 1);  // all solid: one loop, the box
    CHECK(fin.layers[2].material == "si");
}

TEST_CASE("adjoint project: the final design's contours are the level eta of the filtered density", "[adjoint][project]") {
    test::Scratch dir("adjoint", "contours");
    const Project p = parse_project(test::kAdjointGuide, "guide.glproj");
    adjoint::ProjectProblemOptions o;
    o.normalize = false;
    adjoint::ProjectProblem pp = adjoint::problem_from_project(p, "guide.glproj", dir.path, o);
    REQUIRE(pp.problem.region.n == std::array<int, 3>{6, 6, 1});
    REQUIRE(pp.settings.mapping.radius_um == 0.15);  // the fixture's conic filter: 1.5 pixels
    // solid in the first three columns of 0.1 um pixels. The conic weights 1 - d / R reach the
    // four axis neighbours (1/3) and the four diagonal ones (1 - sqrt(2) / 1.5), so the two
    // columns beside the step filter to a = (1 + 1/3 + 2/3 + 2 w_d) / (1 + 4/3 + 4 w_d) and
    // 1 - a (the edge replication keeps the rows uniform); the level eta lies between their
    // centers at t = (a - eta) / (2 a - 1) of a pixel beyond x0 + 2.5 dx
    std::vector<double> rho(36, 0.0);
    for (int j = 0; j < 6; ++j)
        for (int i = 0; i < 3; ++i) rho[std::size_t(j * 6 + i)] = 1.0;
    const double wd = 1 - std::sqrt(2.0) / 1.5;
    const double a = (2.0 + 2 * wd) / (1.0 + 4.0 / 3.0 + 4 * wd);
    const double x0 = pp.problem.region.lo_um[0], dx = 0.1;
    for (double eta : {0.5, 0.7}) {
        pp.settings.mapping.eta = eta;
        const auto loops = adjoint::design_contours(pp, rho);
        REQUIRE(loops.size() == 1);
        double xmax = -1e9, xmin = 1e9;
        for (const auto& v : loops[0].xy_um) xmax = std::max(xmax, v[0]), xmin = std::min(xmin, v[0]);
        INFO("eta " << eta);
        CHECK(xmax == Approx(x0 + (2.5 + (a - eta) / (2 * a - 1)) * dx).epsilon(1e-12));
        CHECK(xmin == Approx(x0).epsilon(1e-12));  // the solid reaches the box's left edge
    }
}

TEST_CASE("adjoint project: keyhole polygons cut each hole into the loop around it", "[adjoint][project]") {
    // 12 x 12 pixels of 0.1 um: solid, a void square (pixels 3..8) with a solid island (5..6)
    design::DensityGrid g;
    g.nx = g.ny = 12;
    g.dx_um = 0.1;
    g.rho.assign(144, 1.0);
    for (int j = 3; j <= 8; ++j)
        for (int i = 3; i <= 8; ++i) g.rho[std::size_t(j * 12 + i)] = (i >= 5 && i <= 6 && j >= 5 && j <= 6) ? 1.0 : 0.0;
    const auto loops = design::density_contours(g, 1.0, 2.0);
    REQUIRE(loops.size() == 3);
    const auto polys = adjoint::keyhole_polygons(loops);
    REQUIRE(polys.size() == 2);  // the frame with its hole cut in, the island
    auto shoelace = [](const std::vector<Vec2>& r) {
        double s = 0;
        for (std::size_t i = 0, j = r.size() - 1; i < r.size(); j = i++) s += r[j].x * r[i].y - r[i].x * r[j].y;
        return 0.5 * s;
    };
    auto even_odd = [](const std::vector<Vec2>& r, double x, double y) {
        bool in = false;
        for (std::size_t i = 0, j = r.size() - 1; i < r.size(); j = i++)
            if ((r[i].y > y) != (r[j].y > y) && x < (r[j].x - r[i].x) * (y - r[i].y) / (r[j].y - r[i].y) + r[i].x) in = !in;
        return in;
    };
    double loops_area = 0, polys_area = 0;
    for (const auto& l : loops) loops_area += design::signed_area_um2(l);
    for (const auto& p : polys) polys_area += shoelace(p);
    CHECK(polys_area == Approx(loops_area).epsilon(1e-12));  // the slits add no area
    // the frame's polygon: solid at a corner pixel, not in the void, not over the island
    const std::vector<Vec2>& frame = shoelace(polys[0]) > shoelace(polys[1]) ? polys[0] : polys[1];
    CHECK(even_odd(frame, 1.0 + 0.15, 2.0 + 0.15));
    CHECK_FALSE(even_odd(frame, 1.0 + 0.35, 2.0 + 0.35));
    CHECK_FALSE(even_odd(frame, 1.0 + 0.6, 2.0 + 0.6));
}

TEST_CASE("adjoint project: the cancel flag ends the normalization run within a chunk of steps, and the same flag "
          "stops the iterations",
          "[adjoint][project]") {
    test::Scratch dir("adjoint", "cancel_normalization");
    const Project p = parse_project(test::kAdjointGuide, "guide.glproj");
    std::atomic<bool> cancel{false};
    std::vector<std::pair<std::string, long long>> reports;  // what on_progress said
    adjoint::ProjectProblemOptions o;
    o.cancel = &cancel;
    o.on_progress = [&](const char* run, long long steps) { reports.emplace_back(run, steps); };

    // uncancelled: the normalization run reports itself chunk by chunk and takes many
    // chunks, so that an end within one chunk below is a real stop
    const adjoint::ProjectProblem pp = adjoint::problem_from_project(p, "guide.glproj", dir.path, o);
    const int chunk = pp.problem.settings.check_every;
    REQUIRE(!reports.empty());
    const long long full = reports.back().second;
    for (std::size_t k = 0; k < reports.size(); ++k) {
        CHECK(reports[k].first == "normalization");
        CHECK(reports[k].second == (long long)(k + 1) * chunk);
    }
    REQUIRE(full > 20 * chunk);
    // the problem's runs watch the same flag
    CHECK(pp.problem.settings.cancel == &cancel);
    CHECK(bool(pp.problem.settings.on_progress));

    SECTION("set half-way through the normalization run: it ends at the next chunk, before any iteration") {
        reports.clear();
        const long long at = (full / 2 / chunk) * chunk;  // a chunk boundary half-way
        o.on_progress = [&](const char* run, long long steps) {
            reports.emplace_back(run, steps);
            if (steps == at) cancel = true;
        };
        try {
            (void)adjoint::problem_from_project(p, "guide.glproj", dir.path, o);
            FAIL("no Cancelled thrown");
        } catch (const adjoint::Cancelled& c) {
            CHECK(c.run == "normalization");
            CHECK(std::string(c.what()).find("normalization run was cancelled") != std::string::npos);
            // the flag is checked before each chunk: no step after the chunk that set it
            CHECK(c.steps == at);
        }
        REQUIRE(!reports.empty());
        CHECK(reports.back().second == at);
        CHECK(reports.size() == std::size_t(at / chunk));
    }
    SECTION("set before: the normalization run makes no step") {
        reports.clear();
        cancel = true;
        try {
            (void)adjoint::problem_from_project(p, "guide.glproj", dir.path, o);
            FAIL("no Cancelled thrown");
        } catch (const adjoint::Cancelled& c) {
            CHECK(c.run == "normalization");
            CHECK(c.steps == 0);
        }
        CHECK(reports.empty());
    }
}

TEST_CASE("adjoint project: the flag of ProjectProblemOptions::cancel stops optimize_density cleanly",
          "[adjoint][project]" GOLIGHTLY_NEEDS_NLOPT) {
    test::Scratch dir("adjoint", "cancel_iterations");
    const Project p = parse_project(test::kAdjointGuide, "guide.glproj");
    std::atomic<bool> cancel{false};
    adjoint::ProjectProblemOptions o;
    o.cancel = &cancel;
    long long after = 0;  // steps of the first iteration's runs after the flag was set
    o.on_progress = [&](const char* run, long long) {
        if (std::string(run) != "normalization" && cancel) ++after;
    };
    adjoint::ProjectProblem pp = adjoint::problem_from_project(p, "guide.glproj", dir.path, o);
    cancel = true;  // e.g. a Stop right after the normalization: the first iteration's forward run ends at once
    const adjoint::OptimizeResult r = adjoint::optimize_density(pp.problem, pp.rho0, pp.settings, {});
    CHECK(r.stop == "cancelled");
    CHECK(r.history.empty());
    CHECK(after == 0);
}
