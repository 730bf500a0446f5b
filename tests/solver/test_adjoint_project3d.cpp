// 3D design objectives in the project format (design_spec.hpp, adjoint_project.hpp): mode
// terms and normalize_by on 3D mode planes, the project-level gradient of such an objective
// against central finite differences, `golightly-cli optimize --adjoint` on a tiny 3D
// project, and the design region's DFT fields in the memory estimate (compile.hpp
// design_dft_bytes). The project: adjoint_project3d_fixture.hpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "adjoint_memory.hpp"
#include "adjoint_project3d_fixture.hpp"
#include "adjoint_project_fixture.hpp"
#include "cli_runner.hpp"
#include "env_set.hpp"
#include "golightly/adjoint.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/compile.hpp"
#include "golightly/design_density.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

Project strip3d(const std::function<void(Json&)>& edit = {}) {
    Json j = Json::parse(test::kAdjointStrip3d);
    if (edit) edit(j);
    return parse_project(j.dump(), "strip3d.glproj");
}

/// The error of the design section with its references (as optimize --adjoint reads it).
std::string error_of(const Project& p) {
    try {
        (void)design_spec(p, "edited.glproj");
    } catch (const ProjectError& e) {
        return e.json_path() + ": " + e.message() + " [" + e.file() + "]";
    }
    return "no error";
}

std::vector<double> uniform_random(std::size_t n, unsigned seed, double lo, double hi) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(lo, hi);
    std::vector<double> v(n);
    for (double& x : v) x = u(rng);
    return v;
}

}  // namespace

TEST_CASE("adjoint project 3D: mode terms and normalize_by on planes read, a mode monitor through the design "
          "region is refused",
          "[adjoint][project][3d]") {
    const Project p = strip3d();
    const auto spec = design_spec(p, "strip3d.glproj");
    REQUIRE(spec);
    CHECK(spec->regions[0].pixels == std::array<int, 3>{3, 5, 2});
    REQUIRE(spec->objective.terms.size() == 1);
    CHECK(spec->objective.terms[0].monitor == "output");
    CHECK(spec->objective.normalize_by == "input");
    // a plane through the box (x = 0.77 um inside 0.66 .. 0.99 um): its mode would be that
    // of the structure without the design
    auto moved = [](const char* monitor, double x) {
        return [=](Json& j) {
            for (Json& m : j["monitors"])
                if (m["name"] == monitor) m["center"][0] = x;
        };
    };
    CHECK_THAT(error_of(strip3d(moved("output", 0.77))),
               Catch::StartsWith("design.objective.terms[0].monitor: mode monitor \"output\" passes through design "
                                 "region \"dr\" (x = 0.77 um, inside 0.66 .. 0.99 um)") &&
                   Catch::Contains("move it outside the box") && Catch::Contains("[edited.glproj]"));
    CHECK_THAT(error_of(strip3d(moved("input", 0.88))),
               Catch::StartsWith("design.objective.normalize_by: mode monitor \"input\" passes through design region"));
    // on the box's face, or beside the box (the plane's extent misses it), is fine
    CHECK(error_of(strip3d(moved("output", 0.99))) == "no error");
    CHECK(error_of(strip3d([](Json& j) {
              j["monitors"][1]["center"] = {0.77, 0.88, 0.44};
              j["monitors"][1]["size"] = {0.0, 0.2, 0.88};
          })) == "no error");
    // the 2D line of the guide fixture through its box (x 1.5 .. 2.1 um) likewise
    Json j2 = Json::parse(test::kAdjointGuide);
    j2["monitors"][1]["from"] = {1.8, 0.2};
    j2["monitors"][1]["to"] = {1.8, 2.2};
    CHECK_THAT(error_of(parse_project(j2.dump(), "edited.glproj")),
               Catch::StartsWith("design.objective.terms[0].monitor: mode monitor \"output\" passes through design "
                                 "region \"dr\" (the line crosses the box)"));
    // a mode slot the monitor does not list, and a monitor that is not a mode monitor
    CHECK_THAT(error_of(strip3d([](Json& j) { j["design"]["objective"]["terms"][0]["mode"] = 1; })),
               Catch::StartsWith("design.objective.terms[0].mode: monitor \"output\" lists 1 mode(s)"));
    CHECK_THAT(error_of(strip3d([](Json& j) { j["monitors"][1]["kind"] = "transmission"; })),
               Catch::StartsWith("design.objective.terms[0].monitor: monitor \"output\" is not a mode monitor"));
}

TEST_CASE("adjoint project: a mode slot the monitor does not guide is refused before any run", "[adjoint][project]") {
    // the guide fixture's 0.3 um slab (eps 12) at 1.55 um: V = k0 (w / 2) sqrt(12 - 1) = 2.0,
    // so TE0 and TE1 are guided (V > pi / 2) and TE5 is not (V < 5 pi / 2): its weights
    // are 0 and the term would read nothing
    test::Scratch dir("adjoint", "unguided");
    Json j = Json::parse(test::kAdjointGuide);
    j["monitors"][1]["modes"] = {0, 5};
    j["design"]["objective"]["terms"][0]["mode"] = 1;
    adjoint::ProjectProblemOptions o;
    o.normalize = false;
    CHECK_THROWS_WITH(adjoint::problem_from_project(parse_project(j.dump(), "unguided.glproj"), "unguided.glproj",
                                                    dir.path, o),
                      Catch::Contains("design.objective.terms[0].mode") &&
                          Catch::Contains("monitor \"output\" guides no mode 5 (slot 1 of its `modes`) at 1.55 um"));
    j["design"]["objective"]["terms"][0]["mode"] = 0;  // TE0: accepted
    CHECK_NOTHROW(adjoint::problem_from_project(parse_project(j.dump(), "unguided.glproj"), "unguided.glproj", dir.path, o));
}

TEST_CASE("adjoint project 3D: mode planes over sub-pixel averaged strip edges are warned about", "[adjoint][project][3d]"
          GOLIGHTLY_NEEDS_SPECTRA) {
    // the strip moved off the cell faces (y 0.3 .. 0.74, z 0.35 .. 0.57 um): with sub-pixel
    // averaging the cells along its edges see an oblique mean normal and become
    // tensor-coupled sites; the design box moved into the oxide above the strip (clear of
    // them), the mode planes still cross them
    test::Scratch dir("adjoint", "tensor");
    adjoint::ProjectProblemOptions o;
    o.normalize = false;
    auto project = [](bool subpixel) {
        return strip3d([=](Json& j) {
            j["run"]["subpixel_averaging"] = subpixel;
            j["layers"][0]["z"] = {0.35, 0.57};
            j["layers"][0]["shapes"][0]["min"] = {-1.0, 0.3};
            j["layers"][0]["shapes"][0]["max"] = {3.0, 0.74};
            j["design"]["regions"][0]["min"][2] = 0.66;
            j["design"]["regions"][0]["max"][2] = 0.77;
        });
    };
    const adjoint::ProjectProblem pp = adjoint::problem_from_project(project(true), "strip3d.glproj", dir.path, o);
    bool warned = false;
    for (const auto& w : pp.warnings)
        warned = warned || (w.find("design.objective.terms[0]: mode monitor \"output\" samples") == 0 &&
                            w.find("sub-pixel tensor-coupled E site(s)") != std::string::npos);
    CHECK(warned);
    const adjoint::ProjectProblem staircased = adjoint::problem_from_project(project(false), "strip3d.glproj", dir.path, o);
    for (const auto& w : staircased.warnings) CHECK(w.find("tensor-coupled") == std::string::npos);
}

// The gradient the optimizer uses: d F(map(rho)) / d rho = map_density_adjoint of the
// adjoint d F / d rho^ (filter and projection chained), F the project's normalized
// objective, against central differences of F(map(rho)) along a random direction.
// Step: h = 1e-3 (rho in [0, 1]). The central difference errs by h^2/6 F''' along the
// direction (O(h^2): ~1e-6 of F for derivatives of order F per unit density) plus the
// runs' residue over h: both runs stop once the energy has decayed to 1e-10 of its peak,
// ~1e-5 of the amplitudes left undecided, mostly common to the two runs (the same step
// counts, the same structure within h), so that the quotient keeps ~1e-5 / (2 h) = 5e-3
// of F at worst and far less in practice; a larger h would trade that for the O(h^2) term.
// Both well below the 1e-2 relative, which a wrong factor (the E increment's
// (1 - exp(i w dt)), a conjugate, a sign, the normalization left out of the gradient)
// exceeds by far. Staircased, so the 3D mode functional's gradient is exact (adjoint.hpp
// mode_functional, 3D caveat).
TEST_CASE("adjoint project 3D: the gradient of a normalized mode objective over two wavelengths matches central "
          "finite differences",
          "[adjoint][project][3d][slow]" GOLIGHTLY_NEEDS_SPECTRA) {
    test::Scratch dir("adjoint", "project3d");
    const Project p = strip3d([](Json& j) { j["design"]["objective"]["wavelengths_um"] = {1.5, 1.6}; });
    const adjoint::ProjectProblem pp = adjoint::problem_from_project(p, "strip3d.glproj", dir.path);
    CHECK(pp.dimensions == 3);
    CHECK(pp.problem.region.n == std::array<int, 3>{3, 5, 2});
    CHECK(pp.problem.region.eps_min == 2.1);
    CHECK(pp.problem.region.eps_max == 12.0);
    REQUIRE(pp.wavelengths_um.size() == 2);
    CHECK(pp.wavelengths_um[0] == Approx(1.6).epsilon(1e-9));
    CHECK(pp.wavelengths_um[1] == Approx(1.5).epsilon(1e-9));
    REQUIRE(pp.problem.functionals.size() == 1);
    REQUIRE(pp.problem.functionals[0].weights_per_frequency.size() == 2);  // the mode of each wavelength
    for (const auto& w : pp.warnings) CHECK(w.find("tensor-coupled") == std::string::npos);  // staircased
    REQUIRE(pp.normalization.size() == 2);
    CHECK(pp.normalization[0] > 0);
    CHECK(pp.normalization[1] > 0);

    design::DensityGrid g = adjoint::density_grid(pp.problem.region, 3);
    auto mapped = [&](const std::vector<double>& rho) {
        g.rho = rho;
        return design::map_density(g, pp.settings.mapping);
    };
    // the start density: a normalized transmission through the half-filled block, in (0, 1]
    const double t0 = adjoint::evaluate(pp.problem, mapped(pp.rho0)).objective;
    INFO("T(rho0) = " << t0);
    CHECK(t0 > 0.05);
    CHECK(t0 < 1.0 + 1e-6);

    const std::vector<double> rho = uniform_random(pp.rho0.size(), 53, 0.3, 0.7);
    const adjoint::Evaluation ev = adjoint::evaluate_with_gradient(pp.problem, mapped(rho));
    g.rho = rho;
    const std::vector<double> grad = design::map_density_adjoint(g, pp.settings.mapping, ev.gradient);
    const std::vector<double> direction = uniform_random(rho.size(), 54, -1.0, 1.0);
    const double h = 1e-3;
    std::vector<double> plus = rho, minus = rho;
    for (std::size_t k = 0; k < rho.size(); ++k) plus[k] += h * direction[k], minus[k] -= h * direction[k];
    const double fd = (adjoint::evaluate(pp.problem, mapped(plus)).objective -
                       adjoint::evaluate(pp.problem, mapped(minus)).objective) /
                      (2 * h);
    double adj = 0;
    for (std::size_t k = 0; k < rho.size(); ++k) adj += grad[k] * direction[k];
    INFO("F " << ev.objective << ", steps forward " << ev.forward_steps << " adjoint " << ev.adjoint_steps << " ("
              << ev.forward_s << " + " << ev.adjoint_s << " s); fd " << fd << " adjoint " << adj);
    CHECK(ev.objective > 0);
    CHECK(ev.objective < 1.0 + 1e-6);
    REQUIRE(std::abs(fd) > 1e-3 * ev.objective);  // the direction moves F: the comparison means something
    CHECK(std::abs(adj - fd) < 1e-2 * std::abs(fd));
}

TEST_CASE("adjoint project 3D: the memory estimate counts the design region's forward and adjoint DFT fields",
          "[adjoint][project][3d]") {
    // compile.hpp design_dft_bytes: per E site in the box sites * (48 N_w + 160) bytes and a
    // table entry, the sites counted here by adjoint::map_design on the compiled scene
    // (independently of the compiler's count), the bytes by the engine's memory model of
    // the scene with the design applied (tests/common/adjoint_memory.hpp). Sources and monitors that need no mode solver, so that this runs
    // in every build.
    struct Case {
        const char* what;
        Project with;
        std::size_t wavelengths;
    };
    auto plain3d = [](Json& j) {
        j["sources"][0] = {{"name", "in"},        {"type", "plane"},       {"center", {0.22, 0.495, 0.44}},
                           {"size", {0.0, 0.99, 0.88}}, {"component", "Ey"}, {"profile", "gaussian"},
                           {"waist", 0.3},        {"direction", "+x"},
                           {"waveform", {{"type", "gaussian_pulse"}, {"wavelength_center", 1.55}, {"wavelength_span", 0.6}}}};
        j["monitors"] = Json::array();
    };
    std::vector<Case> cases;
    cases.push_back({"3D, one wavelength", strip3d(plain3d), 1});
    cases.push_back({"3D, three wavelengths (one repeated)", strip3d([&](Json& j) {
                         plain3d(j);
                         j["design"]["objective"]["wavelengths_um"] = {1.5, 1.55, 1.6, 1.55};
                     }),
                     3});
    Json tez = Json::parse(test::kAdjointGuide);
    tez["domain"]["polarization"] = "TEz";
    tez["sources"][0]["component"] = "Ey";
    tez["sources"][0]["profile"] = "gaussian";
    tez["sources"][0]["waist"] = 0.4;
    tez["monitors"] = Json::array();
    tez["design"]["objective"]["wavelengths_um"] = {1.5, 1.6};
    cases.push_back({"2D TEz, two wavelengths", parse_project(tez.dump(), "tez.glproj"), 2});
    for (const Case& c : cases) {
        INFO(c.what);
        Project without = c.with;
        without.extra.erase("design");
        const CompiledProject a = compile_project(c.with, "with.glproj");
        const CompiledProject b = compile_project(without, "without.glproj");
        const DesignSpec spec = *design_spec(c.with, "with.glproj", false);
        adjoint::DesignRegion region;
        region.lo_um = spec.regions[0].min;
        region.hi_um = spec.regions[0].max;
        region.n = spec.regions[0].pixels;
        region.eps_min = 2.1;
        region.eps_max = 12.0;
        const std::size_t sites = adjoint::map_design(a.scene, region).size();
        // the DFT fields, and a table entry per site (lossless design: no pole state;
        // tests/solver/test_adjoint_memory.cpp has the dispersive ones)
        const std::size_t expected = test::design_bytes_allocated(a.scene, region, c.wavelengths, c.with.run.precision);
        const std::size_t R = c.with.run.precision == Precision::Float32 ? 4 : 8;
        CHECK(expected == sites * (48 * c.wavelengths + 160) + sites * (sizeof(EUpdateCoeffs) + 2 * R + 8));
        INFO("sites " << sites << ", design_dft_bytes " << a.design_dft_bytes);
        CHECK(sites > 0);
        CHECK(a.design_dft_bytes == expected);
        CHECK(b.design_dft_bytes == 0);
        CHECK(a.memory_bytes - b.memory_bytes == expected);
    }
}

TEST_CASE("cli: optimize --adjoint on a 3D strip writes the history and densities and says what it does not export",
          "[cli][adjoint][3d][slow]" GOLIGHTLY_NEEDS_NLOPT GOLIGHTLY_NEEDS_SPECTRA) {
    test::Scratch dir("cli", "adjoint3d");
    const test::EnvSet cache("GOLIGHTLY_MODE_CACHE_DIR", (dir.path / "modes").c_str());
    const fs::path project = dir.path / "strip3d.glproj";
    std::ofstream(project) << test::kAdjointStrip3d;
    const fs::path out = dir.path / "opt";
    const test::CliOut r = test::run_cli("optimize --adjoint " + test::quote(project.string()) + " --out " +
                                             test::quote(out.string()),
                                         dir.path);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("design region 'dr': 3 x 5 x 2 pixels") != std::string::npos);
    CHECK(r.out.find("done: 2 iteration(s) from 0") != std::string::npos);
    CHECK(r.out.find("not written for a 3D design: final.gds and final.glproj") != std::string::npos);
    // history: two rows, objectives transmissions in (0, 1]
    std::istringstream h(test::slurp(out / "history.csv"));
    std::string line;
    std::getline(h, line);
    CHECK(line == "iteration,beta,objective,gradient_norm,constraint_solid,constraint_void,steps,wall_s,objective@1.55");
    int rows = 0;
    while (std::getline(h, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string cell; std::getline(ss, cell, ',');) cells.push_back(cell);
        REQUIRE(cells.size() == 9);  // one wavelength: its column is the objective
        CHECK(std::stoi(cells[0]) == rows);
        const double f = std::stod(cells[2]);
        CHECK(f > 0);
        CHECK(f < 1.0 + 1e-6);
        CHECK(std::stod(cells[3]) > 0);  // a gradient came back
        ++rows;
    }
    CHECK(rows == 2);
    CHECK(fs::exists(out / "checkpoint.json"));
    const std::string density = test::slurp(out / "density.csv");
    CHECK(density.find("# golightly density nx=3 ny=5 nz=2 pixel_um=0.11") != std::string::npos);
    CHECK(std::count(density.begin(), density.end(), '\n') == 2 + 30);
    CHECK_FALSE(fs::exists(out / "final.gds"));
    CHECK_FALSE(fs::exists(out / "final.glproj"));
    // check counts the design region's DFT fields in its memory estimate
    const test::CliOut c = test::run_cli("check --json " + test::quote(project.string()), dir.path);
    INFO(c.out << c.err);
    REQUIRE(c.code == 0);
    const Json j = Json::parse(c.out);
    REQUIRE(j.contains("design_dft_bytes"));
    CHECK(j.at("design_dft_bytes").get<std::size_t>() ==
          compile_project(load_project(project), project.string()).design_dft_bytes);
}
