// Adjoint runs on several devices (adjoint.hpp RunSettings::devices, issue 53 item 4): the
// forward and adjoint runs of a density design, a shape design and a project's design cut
// into CPU subdomains (the distributed engine of ordinary runs, distributed.hpp; on a
// machine without a GPU the CPU backend steps the subdomains in one process), their design
// region spanning the cut, against the same evaluation on one device; and the adjoint
// against finite differences of the split runs (the issue's 1e-2).
//
// Tolerance of "equals one device". partition.hpp: the subdomains update every owned cell
// with the operations of the one-domain engine, and the halo exchange copies exact values,
// so the fields agree except where a vector loop of another length contracts another
// product into an FMA (one rounding, 1.1e-16 relative, per update). The DFT sets sum those
// fields per sample in the same order on either engine, and each design sample is gathered
// from the subdomain that owns it (Engine::dft). Over the N ~ 2000 steps of a run the
// rounding differences add up to at most about N * 1.1e-16 ~ 2e-13 of the fields, twice
// that in the product of a forward and an adjoint field: we hold the objective, the gradient
// and the design fields to 1e-10 relative (of their largest magnitude), well above that
// and far below any error of the decomposition (a design sample read on the wrong
// subdomain, or a halo plane missing, changes them at O(1)). The field energy that stops
// the runs is summed per subdomain (another rounding): the step counts must still agree.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <complex>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "adjoint_problems.hpp"
#include "adjoint_project_fixture.hpp"
#include "golightly/adjoint.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_shape.hpp"
#include "golightly/compile.hpp"
#include "golightly/distributed.hpp"
#include "golightly/errors.hpp"
#include "golightly/partition.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "cli_runner.hpp"
#include "optional_features.hpp"
#include "shape_block_project.hpp"
#include "test_files.hpp"

using namespace golightly;
using namespace golightly::adjoint;
namespace fs = std::filesystem;

namespace {

DeviceSelection subdomains(int n) {
    DeviceSelection d;
    d.kind = DeviceSelection::Kind::Count;
    d.count = n;
    return d;
}

/// max |a - b| / max |b| (0 when both vanish).
template <class T>
double rel_diff(const std::vector<T>& a, const std::vector<T>& b) {
    REQUIRE(a.size() == b.size());
    double d = 0, m = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        d = std::max(d, double(std::abs(a[k] - b[k])));
        m = std::max(m, double(std::abs(b[k])));
    }
    return m > 0 ? d / m : d;
}

/// The planes along the cut axis (partition_axis) of the design sites of `p`, lowest and
/// highest, and the first plane of every piece but the first when the scene is cut into `n`
/// (partition_scene, as the distributed engine cuts it). The test's premise: the design
/// region's sites lie on both sides of every cut.
void require_region_spans_cuts(const Problem& p, int n) {
    const DesignSites sites = map_design(p.scene, p.region);
    REQUIRE(sites.size() > 0);
    const int axis = partition_axis(p.scene);
    const std::int64_t plane = axis == 2 ? std::int64_t(p.scene.nx) * p.scene.ny : p.scene.nx;
    std::int64_t lo = 1 << 30, hi = -1;
    for (CellIndex c : sites.cell) lo = std::min<std::int64_t>(lo, c / plane), hi = std::max<std::int64_t>(hi, c / plane);
    const Partition part = partition_scene(p.scene, n);
    REQUIRE(part.subs.size() == std::size_t(n));
    for (int s = 1; s < n; ++s) {
        const std::int64_t cut = part.subs[std::size_t(s)].owned_lo;
        INFO("design sites on planes " << lo << " .. " << hi << ", cut " << s << " at plane " << cut);
        REQUIRE(lo < cut);
        REQUIRE(hi >= cut);
    }
}

/// One evaluation with the design fields it reports (RunSettings::on_fields).
struct Evaluated {
    Evaluation ev;
    std::vector<std::complex<double>> forward, adjoint;
};

Evaluated evaluate_on(Problem p, const std::vector<double>& rho, const DeviceSelection& devices) {
    Evaluated out;
    p.settings.devices = devices;
    p.settings.on_fields = [&out](const DesignFields& f) {
        out.forward = f.forward;
        out.adjoint = f.adjoint;
    };
    out.ev = evaluate_with_gradient(p, rho);
    return out;
}

bool has_subdomain_warning(const Evaluation& ev, int n) {
    const std::string w = "run.devices " + std::to_string(n) + " on the CPU backend: " + std::to_string(n) + " subdomains";
    std::size_t count = 0;
    for (const auto& line : ev.warnings) count += line.rfind(w, 0) == 0;
    return count == 1;  // once per evaluation, not once per run
}

/// The split evaluation `b` equals the one-device evaluation `a` (file comment: 1e-10).
void check_equal(const Evaluated& b, const Evaluated& a) {
    CHECK(b.ev.forward_steps == a.ev.forward_steps);
    CHECK(b.ev.adjoint_steps == a.ev.adjoint_steps);
    CHECK(std::abs(b.ev.objective - a.ev.objective) <= 1e-10 * std::abs(a.ev.objective));
    const double dg = rel_diff(b.ev.gradient, a.ev.gradient);
    const double df = rel_diff(b.forward, a.forward);
    const double da = rel_diff(b.adjoint, a.adjoint);
    INFO("objective " << a.ev.objective << " vs " << b.ev.objective << "; gradient " << dg << ", forward fields " << df
                      << ", adjoint fields " << da);
    WARN("split vs one device: objective " << std::abs(b.ev.objective - a.ev.objective) / std::abs(a.ev.objective)
                                            << ", gradient " << dg << ", forward fields " << df << ", adjoint fields "
                                            << da << " relative");
    CHECK(dg < 1e-10);
    CHECK(df < 1e-10);
    CHECK(da < 1e-10);
    REQUIRE(!a.forward.empty());
}

/// tmz_problem (adjoint_problems.hpp) with a taller design region, y 0.4 .. 1.9 um (grid
/// planes 20 .. 49), so that it spans the cuts of 2 pieces (plane 35) and of 3.
Problem tall_tmz_problem() {
    Problem p = test::tmz_problem();
    p.region.lo_um = {0.9, 0.4, 0};
    p.region.hi_um = {1.5, 1.9, 0};
    p.region.n = {4, 6, 1};
    return p;
}

}  // namespace

TEST_CASE("adjoint devices: 2D TMz density gradient on 2 and 3 CPU subdomains equals one device and finite differences",
          "[adjoint][distributed]") {
    const Problem p = tall_tmz_problem();
    const auto rho = test::random_density(p.region.pixels(), 31);
    const Evaluated one = evaluate_on(p, rho, DeviceSelection{});
    REQUIRE(one.ev.gradient.size() == p.region.pixels());
    for (int n : {2, 3}) {
        INFO(n << " subdomains");
        require_region_spans_cuts(p, n);
        const Evaluated split = evaluate_on(p, rho, subdomains(n));
        check_equal(split, one);
        CHECK(has_subdomain_warning(split.ev, n));
        if (n != 2) continue;
        // RunSettings::engine_factory (the seam of tests/gpu/cuda_adjoint_devices.cpp): the same
        // 2 subdomains made by hand equal make_engine's; and the comparison is sensitive: with
        // the halo exchange switched off (wrong fields near the cut) the gradient is off at O(1)
        for (const bool exchange : {true, false}) {
            Problem q = p;
            q.settings.engine_factory = [exchange](const Scene& scene, const char*) {
                auto e = std::make_unique<DistributedEngine>(view_of(scene), Precision::Float64,
                                                             std::vector<SubdomainDevice>(2));
                e->set_exchange_enabled(exchange);
                return std::unique_ptr<Engine>(std::move(e));
            };
            const Evaluated made = evaluate_on(q, rho, DeviceSelection{});
            if (exchange) {
                check_equal(made, one);
                CHECK(made.ev.warnings.empty());  // no CPU-subdomain line: the factory chose
            } else {
                CHECK(rel_diff(made.ev.gradient, one.ev.gradient) > 0.1);
            }
        }
        // the split runs' gradient against finite differences of split runs (test_adjoint.cpp's check)
        Problem q = p;
        q.settings.devices = subdomains(2);
        const test::Check c = test::directional(q, rho, split.ev.gradient, test::random_vector(rho.size(), 32));
        INFO("F " << split.ev.objective << " fd " << c.fd << " adjoint " << c.adj);
        WARN("2D TMz on 2 subdomains: adjoint vs finite differences " << std::abs(c.adj - c.fd) / std::abs(c.fd));
        REQUIRE(std::abs(c.fd) > 1e-3 * split.ev.objective);  // the direction matters
        CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
    }
}

TEST_CASE("adjoint devices: 2D TEz complex adjoint run on 2 CPU subdomains equals one device", "[adjoint][distributed]") {
    // complex functional weights: the adjoint run carries complex fields, cut like real ones
    const Problem p = test::tez_problem();  // its region: y planes 24 .. 39, across the cut at plane 32
    require_region_spans_cuts(p, 2);
    const auto rho = test::random_density(p.region.pixels(), 41);
    check_equal(evaluate_on(p, rho, subdomains(2)), evaluate_on(p, rho, DeviceSelection{}));
}

TEST_CASE("adjoint devices: 3D density gradient on 2 CPU subdomains equals one device and finite differences",
          "[adjoint][distributed][3d]") {
    // problem3d's region: z planes 9 .. 13 across the cut at plane 12 of the 24-plane grid
    const Problem p = test::problem3d();
    require_region_spans_cuts(p, 2);
    const auto rho = test::random_density(p.region.pixels(), 51);
    const Evaluated one = evaluate_on(p, rho, DeviceSelection{});
    const Evaluated split = evaluate_on(p, rho, subdomains(2));
    check_equal(split, one);
    WARN("3D forward + adjoint run: one device " << one.ev.forward_s + one.ev.adjoint_s << " s, 2 CPU subdomains "
                                                 << split.ev.forward_s + split.ev.adjoint_s << " s ("
                                                 << one.ev.forward_steps + one.ev.adjoint_steps << " steps)");
    Problem q = p;
    q.settings.devices = subdomains(2);
    const test::Check c = test::directional(q, rho, split.ev.gradient, test::random_vector(rho.size(), 52));
    INFO("F " << split.ev.objective << " fd " << c.fd << " adjoint " << c.adj);
    WARN("3D on 2 subdomains: adjoint vs finite differences " << std::abs(c.adj - c.fd) / std::abs(c.fd));
    REQUIRE(std::abs(c.fd) > 1e-3 * split.ev.objective);
    CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
}

// TEz with sub-pixel averaging: a disc (eps 4, radius 0.45 um, centre (1.43, 1.82)) whose
// rim crosses the design box's left face (x = 1.75 um) at 45 degrees where the cut plane
// is (y = 1.5 um, plane 42 of 84), so that design sites next to the cut keep a tensor
// coupling to the disc outside the box (adjoint.hpp "Sub-pixel tensor couplings": D~ =
// K^-1 E over their cluster, whose samples lie on both sides of the cut; the partition
// then carries 3 halo planes).
const char* const kDiscAcrossCut = R"JSON({"format": "golightly-project", "version": 1, "name": "disc",
  "domain": {"size": [3.0, 3.0], "cell_size": 0.05, "polarization": "TEz", "pml": {"cells": 12}},
  "materials": [{"id": "d", "epsilon_inf": 4.0}],
  "layers": [{"name": "disc", "material": "d", "shapes": [{"type": "ellipse", "center": [1.43, 1.82], "radii": [0.45, 0.45]}]}],
  "sources": [{"name": "s", "type": "point", "at": [0.62, 1.43], "component": "Ey",
               "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.4}}],
  "monitors": [],
  "run": {"subpixel_averaging": true, "precision": "float64", "backend": "cpu"}})JSON";

TEST_CASE("adjoint devices: tensor-coupled design sites next to the cut (TEz, sub-pixel averaging) on 2 CPU subdomains "
          "equal one device",
          "[adjoint][distributed][tensor]") {
    const CompiledProject cp = compile_project(parse_project(kDiscAcrossCut, "disc.glproj"), "disc.glproj");
    Problem p;
    p.scene = cp.scene;
    p.scene.dft_sets.clear();
    p.scene.time_probes.clear();
    p.region.lo_um = {1.75, 1.2, 0};
    p.region.hi_um = {2.25, 1.85, 0};
    p.region.n = {10, 13, 1};
    p.region.eps_min = 1.0;
    p.region.eps_max = 3.0;
    p.functionals = {point_functional(p.scene, Component::Ey, {2.45, 1.5, 0}, "probe")};
    p.frequencies_hz = {test::freq_hz(1.5), test::freq_hz(1.6)};
    p.objective = intensity_objective({{1.0, 0.5}});
    require_region_spans_cuts(p, 2);
    const auto rho = test::random_density(p.region.pixels(), 91);
    // the premise: design sites on the two planes either side of the cut keep a coupling
    const Partition part = partition_scene(p.scene, 2);
    CHECK(part.halo == 3);
    const std::int64_t cut = part.subs[1].owned_lo;
    Scene applied = p.scene;
    const DesignSites sites = map_design(applied, p.region);
    apply_design(applied, sites, p.region, site_density(sites, p.region, rho));
    std::set<std::pair<int, CellIndex>> in_box;
    for (std::size_t s = 0; s < sites.size(); ++s) in_box.emplace(int(sites.component[s]), sites.cell[s]);
    std::size_t coupled_at_cut = 0;  // design sites near the cut with a coupling to a site outside the box
    for (std::size_t s = 0; s < sites.size(); ++s) {
        const std::int64_t plane = sites.cell[s] / applied.nx;
        if (plane < cut - 2 || plane >= cut + 2) continue;
        const int c = int(sites.component[s]);
        const auto& listed = applied.anisotropic.cells[c];
        const auto it = std::lower_bound(listed.begin(), listed.end(), sites.cell[s]);
        if (it == listed.end() || *it != sites.cell[s]) continue;
        const std::size_t k = std::size_t(it - listed.begin());
        bool outside = false;
        for (std::size_t slot = 0; slot < 4; ++slot) {
            const std::int32_t nb = applied.anisotropic.neighbour[c][4 * k + slot];
            const int c2 = anisotropic_partner(c, 0, 2);
            outside = outside || (nb >= 0 && !in_box.count({c2, applied.anisotropic.cells[c2][std::size_t(nb)]}));
        }
        coupled_at_cut += outside;
    }
    WARN("tensor-coupled design sites within 2 planes of the cut at plane " << cut << ": " << coupled_at_cut);
    REQUIRE(coupled_at_cut >= 2);
    check_equal(evaluate_on(p, rho, subdomains(2)), evaluate_on(p, rho, DeviceSelection{}));
}

TEST_CASE("adjoint devices: a grid too small for the pieces asked for is refused by the partition, naming it",
          "[adjoint][distributed]") {
    // 70 planes cut into 20 pieces: 3 planes each, fewer than two halo widths (2 x 2)
    Problem p = tall_tmz_problem();
    p.settings.devices = subdomains(20);
    const auto rho = test::random_density(p.region.pixels(), 61);
    CHECK_THROWS_AS(evaluate_with_gradient(p, rho), RunError);
    CHECK_THROWS_WITH(evaluate_with_gradient(p, rho), Catch::Contains("cannot be cut into 20 pieces") &&
                                                          Catch::Contains("use fewer devices or a larger grid"));
}

TEST_CASE("adjoint devices: the project's run.devices and ProjectProblemOptions::devices reach the runs (mode "
          "monitors, a mode source and the normalization across the cut)",
          "[adjoint][distributed]") {
    // kAdjointGuide: 72 planes along y, cut at plane 36 (y = 1.2 um): the design region
    // (y 0.9 .. 1.5), the guide, the mode source's line and both mode monitors cross it
    ProjectProblemOptions o;
    const Project plain = test::edited_guide([](Json&) {}, "guide.glproj");
    const ProjectProblem one = problem_from_project(plain, "guide.glproj", fs::temp_directory_path(), o);
    CHECK(one.problem.settings.devices.kind == DeviceSelection::Kind::Auto);
    const Project two = test::edited_guide([](Json& j) { j["run"]["devices"] = 2; }, "guide2.glproj");
    const ProjectProblem split = problem_from_project(two, "guide2.glproj", fs::temp_directory_path(), o);
    REQUIRE(split.problem.settings.devices.kind == DeviceSelection::Kind::Count);
    REQUIRE(split.problem.settings.devices.count == 2);
    require_region_spans_cuts(split.problem, 2);
    // the normalization ran on the subdomains too: N(f) equal to rounding
    REQUIRE(split.normalization.size() == one.normalization.size());
    for (std::size_t f = 0; f < one.normalization.size(); ++f)
        CHECK(std::abs(split.normalization[f] - one.normalization[f]) <= 1e-10 * one.normalization[f]);
    const auto rho = test::random_density(one.problem.region.pixels(), 71);
    check_equal(evaluate_on(split.problem, rho, split.problem.settings.devices),
                evaluate_on(one.problem, rho, one.problem.settings.devices));
    // the option overrides run.devices
    o.devices = subdomains(3);
    o.normalize = false;
    CHECK(problem_from_project(two, "guide2.glproj", fs::temp_directory_path(), o).problem.settings.devices.count == 3);
    // a bad run.devices is the project's error, naming the field
    const auto read_bad = [] {
        const Project bad = test::edited_guide([](Json& j) { j["run"]["devices"] = "several"; }, "bad.glproj");
        ProjectProblemOptions ob;
        ob.normalize = false;
        return problem_from_project(bad, "bad.glproj", fs::temp_directory_path(), ob);
    };
    CHECK_THROWS_AS(read_bad(), ProjectError);
    CHECK_THROWS_WITH(read_bad(), Catch::Contains("run.devices"));
}

TEST_CASE("adjoint devices: a shape design's dF/dp on 2 CPU subdomains equals one device",
          "[adjoint][distributed][shape]" GOLIGHTLY_NEEDS_MUPARSER) {
    // kShapeBlockTMz: 84 planes along y, cut at plane 42 (y = 1.5 um); the block's moving
    // x faces (width w) run from y 1.25 to 1.79 um across it
    const Project project = parse_project(test::kShapeBlockTMz, "shape.glproj");
    ProjectProblemOptions o;
    const ShapeProblem sp1 = shape_problem_from_project(project, "shape.glproj", fs::temp_directory_path(), o);
    o.devices = subdomains(2);
    const ShapeProblem sp2 = shape_problem_from_project(project, "shape.glproj", fs::temp_directory_path(), o);
    const ShapeEvaluation a = evaluate_shape(sp1, sp1.p0, true);
    const ShapeEvaluation b = evaluate_shape(sp2, sp2.p0, true);
    REQUIRE(a.gradient.size() == 2);
    CHECK(b.steps == a.steps);
    CHECK(std::abs(b.objective - a.objective) <= 1e-10 * std::abs(a.objective));
    INFO("dF/dp one device " << a.gradient[0] << ", " << a.gradient[1] << "; 2 subdomains " << b.gradient[0] << ", "
                             << b.gradient[1]);
    WARN("shape on 2 subdomains vs one device: dF/dp " << rel_diff(b.gradient, a.gradient) << " relative");
    CHECK(rel_diff(b.gradient, a.gradient) < 1e-10);
    CHECK(std::abs(a.gradient[0]) > 0);
    bool warned = false;
    for (const auto& w : b.warnings) warned = warned || w.find("2 subdomains stepped in one process") != std::string::npos;
    CHECK(warned);
}

namespace {

/// The objective of history.csv's first row (optimize --adjoint).
double first_objective(const fs::path& history) {
    std::istringstream in(test::slurp(history));
    std::string header, row;
    std::getline(in, header);
    REQUIRE(std::getline(in, row));
    std::vector<std::string> cells;
    std::stringstream ss(row);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    REQUIRE(cells.size() > 2);
    return std::stod(cells[2]);
}

}  // namespace

TEST_CASE("adjoint devices: optimize --adjoint --devices 2 runs on 2 CPU subdomains and gives the one-device objective",
          "[cli][adjoint][distributed]" GOLIGHTLY_NEEDS_NLOPT) {
    test::Scratch dir("cli", "adjoint_devices");
    const fs::path project = dir.path / "guide.glproj";
    std::ofstream(project) << test::kAdjointGuide;
    const std::string base = "optimize --adjoint " + test::quote(project.string()) + " --max-iterations 1 --out ";
    const test::CliOut one = test::run_cli(base + test::quote((dir.path / "one").string()), dir.path);
    const test::CliOut two = test::run_cli(base + test::quote((dir.path / "two").string()) + " --devices 2", dir.path);
    INFO(one.out << one.err << two.out << two.err);
    REQUIRE(one.code == 0);
    REQUIRE(two.code == 0);
    CHECK(one.out.find("devices:") == std::string::npos);
    CHECK(two.out.find("devices: every forward and adjoint run cut into 2 CPU subdomains in this process") !=
          std::string::npos);
    const double f1 = first_objective(dir.path / "one" / "history.csv");
    const double f2 = first_objective(dir.path / "two" / "history.csv");
    CHECK(f1 > 0);
    CHECK(std::abs(f2 - f1) <= 1e-10 * f1);  // the file comment's bound
    // a bad selection exits 1 before anything runs; a bad run.devices is an invalid project (2)
    const test::CliOut bad = test::run_cli(base + test::quote((dir.path / "bad").string()) + " --devices 0,0", dir.path);
    CHECK(bad.code == 1);
    CHECK(bad.err.find("appears twice") != std::string::npos);
    Json j = Json::parse(test::kAdjointGuide);
    j["run"]["devices"] = "several";
    const fs::path badp = dir.path / "bad.glproj";
    std::ofstream(badp) << j.dump();
    const test::CliOut bp = test::run_cli("optimize --adjoint " + test::quote(badp.string()) + " --out " +
                                              test::quote((dir.path / "badp").string()),
                                          dir.path);
    CHECK(bp.code == 2);
    CHECK(bp.err.find("run.devices") != std::string::npos);
}
