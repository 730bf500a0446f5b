// Dispersive and lossy design materials (adjoint.hpp DesignMedium): a density region that
// maps between two materials with poles and conductivity, its gradient against central
// finite differences of forward runs along random directions (float64; 2D TMz, 2D TEz
// and 3D), and the interpolation of the susceptibilities the engines step.
//
// Tolerance: the 1e-2 relative (the method's own errors, test_adjoint.cpp: ~1e-5).
// What the test can catch: the gradient must use the materials' discrete eps(w) at the
// objective's frequency. A Drude metal against air has the same eps_inf (1), so a
// gradient from eps_inf alone would be 0; one that ignores the Lorentz pole or the
// conductivity misses a term of the size of the susceptibility itself (O(1) here).
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <filesystem>
#include <random>

#include "adjoint_problems.hpp"
#include "adjoint_project_fixture.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/design_density.hpp"
#include "golightly/adjoint.hpp"
#include "golightly/dispersion.hpp"
#include "golightly/units.hpp"
#include "test_scenes.hpp"

using namespace golightly;
using namespace golightly::adjoint;
using namespace golightly::test;

namespace {

constexpr double kOmega155 = 2 * units::pi * units::c0 / (1.55e-6);  // rad/s at 1.55 um

/// A Drude metal (eps_inf 1) with Re eps about -5 and Im eps about 0.5 at 1.55 um.
DesignMedium drude_metal(double dt_s) {
    Pole p;
    p.kind = PoleKind::Drude;
    p.omega_p = 2.45 * kOmega155;
    p.gamma = 0.08 * kOmega155;
    DesignMedium m;
    m.poles = {pole_coefficients(p, dt_s)};
    return m;
}

/// A lossy Lorentz dielectric: resonance at twice the frequency of 1.55 um, Re chi about
/// 1.3 and Im chi about 0.13 there, plus a conductivity of 3e3 S/m (Im eps about 0.28).
DesignMedium lorentz_dielectric(double dt_s) {
    Pole p;
    p.kind = PoleKind::Lorentz;
    p.omega_p = 2.0 * kOmega155;
    p.omega_0 = 2.0 * kOmega155;
    p.gamma = 0.3 * kOmega155;
    DesignMedium m;
    m.sigma_s_per_m = 3e3;
    m.poles = {pole_coefficients(p, dt_s)};
    return m;
}

void check_gradient(const Problem& p, unsigned seed) {
    const auto rho = random_density(p.region.pixels(), seed);
    const Evaluation ev = evaluate_with_gradient(p, rho);
    REQUIRE(ev.gradient.size() == p.region.pixels());
    REQUIRE(ev.objective > 0);
    for (unsigned dir_seed : {seed + 100, seed + 101}) {
        const Check c = directional(p, rho, ev.gradient, test::random_vector(rho.size(), dir_seed));
        INFO("F " << ev.objective << " fd " << c.fd << " adjoint " << c.adj << " steps " << ev.forward_steps << " "
                  << ev.adjoint_steps);
        REQUIRE(std::abs(c.fd) > 1e-3 * ev.objective);  // the direction matters
        CHECK(std::abs(c.adj - c.fd) < 1e-2 * std::abs(c.fd));
        WARN("relative difference " << std::abs(c.adj - c.fd) / std::abs(c.fd));
    }
}

}  // namespace

TEST_CASE("adjoint dispersive: the design interpolates eps_inf, the conductivity and the susceptibilities",
          "[adjoint][dispersive]") {
    Problem p = tmz_problem();
    p.region.eps_min = 2.0;
    p.region.eps_max = 1.0;
    p.region.medium_min = lorentz_dielectric(p.scene.dt_s);
    p.region.medium_max = drude_metal(p.scene.dt_s);
    const DesignSites sites = map_design(p.scene, p.region);
    const std::vector<double> rho(p.region.pixels(), 0.3);
    Scene s = p.scene;
    apply_design(s, sites, p.region, site_density(sites, p.region, rho));
    const double w = kOmega155;
    // eps_d(0.3) = 0.7 eps_d(min) + 0.3 eps_d(max): linear in rho at every frequency
    const std::complex<double> want =
        0.7 * design_epsilon(p.region, 0.0, w, s.dt_s) + 0.3 * design_epsilon(p.region, 1.0, w, s.dt_s);
    CHECK(std::abs(design_epsilon(p.region, 0.3, w, s.dt_s) - want) < 1e-12 * std::abs(want));
    // and it is what the scene steps: the table's (eps_inf, sigma) and the site's poles
    for (std::size_t k : {std::size_t(0), sites.size() / 2}) {
        const Component c = sites.component[k];
        const CellIndex cell = sites.cell[k];
        const EUpdateCoeffs& e = s.table.at(s.material_index[int(c)][std::size_t(cell)]);
        CHECK(e.eps_r == Approx(1.7).epsilon(1e-12));
        CHECK(e.sigma == Approx(0.7 * 3e3).epsilon(1e-12));
        const std::complex<double> stepped =
            discrete_epsilon(e.eps_r, e.sigma, PoleSet{}, 0.0, w, s.dt_s) + cell_pole_susceptibility(s, c, cell, w);
        CHECK(std::abs(stepped - want) < 1e-12 * std::abs(want));
    }
    // the Drude metal is a metal at 1.55 um, the Lorentz dielectric a lossy dielectric
    CHECK(design_epsilon(p.region, 1.0, w, s.dt_s).real() < -3.0);
    CHECK(design_epsilon(p.region, 0.0, w, s.dt_s).real() > 2.5);
    CHECK(design_epsilon(p.region, 0.0, w, s.dt_s).imag() > 0.2);
}

TEST_CASE("adjoint dispersive: a Drude metal against air, gradient matches finite differences (2D TMz)",
          "[adjoint][dispersive]") {
    Problem p = tmz_problem();
    p.region.eps_min = p.region.eps_max = 1.0;  // the same eps_inf: only the poles differ
    p.region.medium_max = drude_metal(p.scene.dt_s);
    check_gradient(p, 31);
}

TEST_CASE("adjoint dispersive: a lossy Lorentz dielectric against a Drude metal matches finite differences (2D TEz)",
          "[adjoint][dispersive]") {
    Problem p = tez_problem();
    p.region.eps_min = 2.0;
    p.region.eps_max = 1.0;
    p.region.medium_min = lorentz_dielectric(p.scene.dt_s);
    p.region.medium_max = drude_metal(p.scene.dt_s);
    // where the interpolated eps passes Re eps = 0 (rho~ about 0.4) the sites ring long: at
    // the default stop (1e-10 of the peak energy) the truncated DFTs left 2.4e-3 between the
    // two (independent of h: 3e-4 .. 3e-3), at 1e-14 about 1e-4
    p.settings.decay = 1e-14;
    check_gradient(p, 41);
}

TEST_CASE("adjoint dispersive: air against a lossy Lorentz dielectric matches finite differences (3D)",
          "[adjoint][dispersive][3d]") {
    Problem p = problem3d();
    p.region.eps_min = 1.0;
    p.region.eps_max = 2.0;
    p.region.medium_max = lorentz_dielectric(p.scene.dt_s);
    check_gradient(p, 51);
}

TEST_CASE("adjoint dispersive: a project's dispersive design material becomes the region's poles",
          "[adjoint][dispersive][project]") {
    // the tiny guide of adjoint_project_fixture.hpp with the region between air and its Drude metal
    const Project project = test::edited_guide([](Json& j) { j["design"]["regions"][0]["materials"] = {"air", "drude"}; });
    ProjectProblemOptions o;
    o.normalize = false;
    const ProjectProblem pp = problem_from_project(project, "edited.glproj", std::filesystem::temp_directory_path(), o);
    const DesignRegion& r = pp.problem.region;
    CHECK(r.eps_min == 1.0);
    CHECK(r.eps_max == 1.0);
    CHECK(r.medium_min.lossless());
    REQUIRE(r.medium_max.poles.size() == 1);
    const PoleCoeffs want = pole_coefficients(project.find_material("drude")->poles.at(0), pp.problem.scene.dt_s);
    CHECK(r.medium_max.poles[0].c1 == want.c1);
    CHECK(r.medium_max.poles[0].c3 == want.c3);
    // a pole too fast for the time step is refused, naming the materials
    const Project fast = test::edited_guide([](Json& j) {
        j["design"]["regions"][0]["materials"] = {"air", "drude"};
        j["materials"][1]["poles"][0]["kind"] = "lorentz";
        j["materials"][1]["poles"][0]["omega_0"] = 1e17;
        j["materials"][1]["poles"][0]["omega_p"] = 1e17;
    });
    CHECK_THROWS_WITH(problem_from_project(fast, "edited.glproj", std::filesystem::temp_directory_path(), o),
                      Catch::Contains("design.regions[0].materials") && Catch::Contains("unstable"));
}

TEST_CASE("adjoint dispersive: a project's transmission through a Drude design region, gradient through filter and "
          "projection matches finite differences",
          "[adjoint][dispersive][project]") {
    // the tiny guide of adjoint_project_fixture.hpp: the output's mode power over the
    // input's, the region between air and a Drude metal (eps 0.31 + 0.01i at 1.55 um)
    const Project project = test::edited_guide([](Json& j) { j["design"]["regions"][0]["materials"] = {"air", "drude"}; });
    const ProjectProblem pp = problem_from_project(project, "edited.glproj", std::filesystem::temp_directory_path());
    design::DensityGrid g = density_grid(pp.problem.region, 2);
    auto mapped = [&](const std::vector<double>& rho) {
        g.rho = rho;
        return design::map_density(g, pp.settings.mapping);
    };
    std::mt19937 gen(61);
    std::uniform_real_distribution<double> u(0.3, 0.7), d(-1.0, 1.0);
    std::vector<double> rho(pp.rho0.size()), direction(rho.size());
    for (auto& v : rho) v = u(gen);
    for (auto& v : direction) v = d(gen);
    const Evaluation ev = evaluate_with_gradient(pp.problem, mapped(rho));
    g.rho = rho;
    const std::vector<double> grad = design::map_density_adjoint(g, pp.settings.mapping, ev.gradient);
    const double h = 1e-3;
    std::vector<double> plus = rho, minus = rho;
    for (std::size_t k = 0; k < rho.size(); ++k) plus[k] += h * direction[k], minus[k] -= h * direction[k];
    const double fd =
        (evaluate(pp.problem, mapped(plus)).objective - evaluate(pp.problem, mapped(minus)).objective) / (2 * h);
    double adj = 0;
    for (std::size_t k = 0; k < rho.size(); ++k) adj += grad[k] * direction[k];
    INFO("T " << ev.objective << "; adjoint " << adj << ", finite difference " << fd);
    CHECK(ev.objective > 0);
    REQUIRE(std::abs(fd) > 1e-3 * ev.objective);
    CHECK(std::abs(adj - fd) < 1e-2 * std::abs(fd));
    WARN("Drude design region, project: relative difference " << std::abs(adj - fd) / std::abs(fd));
}
