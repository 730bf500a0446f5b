// Sweeps and optimization through the whole chain (parameters -> expressions ->
// compile -> CPU engine -> normalized spectra -> sweep.csv / optimize.csv), against
// analytic thin-film optics.
//
// Set-up (as test_fresnel.cpp): 2D TMz, a 1D-like domain (x 3 um with 20-cell CPML, y
// periodic over 5 cells of 0.01 um), a uniform line source (plane wave) at x = 0.4, a
// reflection monitor at 0.9 (-x) and a transmission monitor at 2.6 (+x); the reference
// run is vacuum. Film faces sit halfway between E-sample rows (x = 1.505 + k * 0.01).
//
// Fabry-Perot slab (Born & Wolf sec. 7.6.1, Airy formula, lossless slab of index n and
// thickness d in vacuum, normal incidence):
//   T = 1 / (1 + F sin^2(delta)),  delta = 2 pi n d / lambda,  F = 4 R / (1 - R)^2,
//   R = ((n - 1) / (n + 1))^2;
// T = 1 exactly at 2 n d = m lambda, T_min = 1 / (1 + F) at 2 n d = (m + 1/2) lambda.
// Quarter-wave anti-reflection layer (Born & Wolf sec. 1.6.4): a film of index
// n_c = sqrt(n_s) on a substrate n_s reflects R = 0 at d = lambda / (4 n_c).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include "golightly/parameters.hpp"
#include "golightly/sweep.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

using namespace golightly;

namespace {

/// The 1D-like project with a film of eps `eps_film` from `film_min` to `film_max` (JSON
/// values: numbers or expression strings over the parameters) and, when eps_substrate > 0, a substrate from
/// 1.505 um into the +x PML.
std::string film_project(const std::string& parameters, const std::string& film_min, const std::string& film_max,
                         double eps_film, double eps_substrate) {
    std::string layers = R"({"name": "film", "material": "film", "shapes": [{"type": "rectangle", "min": [)" +
                         film_min + R"(, 0], "max": [)" + film_max + R"(, 0.05]}]})";
    std::string materials = R"([{"id": "film", "epsilon_inf": )" + std::to_string(eps_film) + "}";
    if (eps_substrate > 0) {
        materials += R"(, {"id": "substrate", "epsilon_inf": )" + std::to_string(eps_substrate) + "}";
        layers += R"(, {"name": "substrate", "material": "substrate", "shapes": [{"type": "rectangle", "min": [1.505, 0], "max": [3.0, 0.05]}]})";
    }
    return R"({"format": "golightly-project", "version": 1, "name": "film",
      "parameters": )" + parameters + R"(,
      "domain": {"size": [3.0, 0.05], "cell_size": 0.01, "polarization": "TMz",
                 "boundaries": {"x": "pml", "y": "periodic"}, "pml": {"cells": 20}},
      "materials": )" + materials + R"(],
      "layers": [)" + layers + R"(],
      "sources": [{"name": "plane wave", "type": "line", "from": [0.4, 0], "to": [0.4, 0.05], "component": "Ez",
                   "profile": "uniform", "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.6, "wavelength_span": 0.8}}],
      "monitors": [{"name": "R", "type": "flux", "from": [0.9, 0], "to": [0.9, 0.05], "direction": "-x", "kind": "reflection"},
                   {"name": "T", "type": "flux", "from": [2.6, 0], "to": [2.6, 0.05], "direction": "+x", "kind": "transmission"}],
      "run": {"spectrum": {"wavelength_min": 1.4, "wavelength_max": 1.8, "points": 21}, "courant": 0.5,
              "stop": {"decay_db": 60, "max_time_fs": 400}, "normalization": {"enabled": true},
              "precision": "float64", "backend": "cpu"}})";
}

RunOptions cpu_options() {
    RunOptions o;
    o.backend = BackendChoice::Cpu;
    o.threads = 2;
    return o;
}

}  // namespace

TEST_CASE("sweep: a slab thickness sweep puts the Fabry-Perot peaks at 2 n d = m lambda", "[sweep][physics]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    test::Scratch scratch("sweep", "fabry_perot");
    const double n = 2.0, lambda = 1.6;
    const Project p = parse_project(film_project(R"({"d": 0.3})", "1.505", R"("1.505 + d")", n * n, 0), "slab.glproj");
    SweepOptions o;
    o.out = scratch.path;
    o.runner = in_process_runner(cpu_options());
    o.at_um = {lambda};
    // d = 0.1 .. 0.8 um in steps of lambda / (8 n) = 0.1 um: T = 1 at d = 0.4 and 0.8 (m = 1, 2),
    // T_min at 0.2 and 0.6. A wrong factor 2 in the phase would put T = 1 at 0.2 and 0.6.
    const auto r = run_sweep(p, "slab.glproj", {parse_sweep_parameter("d=0.1:0.8:8")}, o);
    REQUIRE(r.failed == 0);
    REQUIRE(r.columns == std::vector<std::string>{"design", "d", "R@1.6", "T@1.6", "status"});
    const double R1 = std::pow((n - 1) / (n + 1), 2), F = 4 * R1 / std::pow(1 - R1, 2);
    double max_dt = 0, max_sum = 0;
    std::size_t argmax = 0;
    for (std::size_t k = 0; k < 8; ++k) {
        const double d = 0.1 * double(k + 1);
        const double T = r.rows[k][1], R = r.rows[k][0];
        const double T_airy = 1 / (1 + F * std::pow(std::sin(2 * M_PI * n * d / lambda), 2));
        std::printf("fabry-perot sweep: d %.2f um: T %.5f (Airy %.5f), R %.5f, R+T %.5f\n", d, T, T_airy, R, R + T);
        CHECK(T == Approx(T_airy).margin(0.005));
        CHECK(R + T == Approx(1.0).margin(0.005));
        max_dt = std::max(max_dt, std::abs(T - T_airy));
        max_sum = std::max(max_sum, std::abs(R + T - 1));
        if (T > r.rows[argmax][1]) argmax = k;
    }
    // Peaks (2 n d = m lambda) and troughs.
    CHECK(r.rows[3][1] > 0.99);
    CHECK(r.rows[7][1] > 0.99);
    CHECK(r.rows[1][1] == Approx(1 / (1 + F)).margin(0.005));
    CHECK(r.rows[5][1] == Approx(1 / (1 + F)).margin(0.005));
    CHECK((argmax == 3 || argmax == 7));
    std::printf("fabry-perot sweep: n %.1f, lambda %.2f um: T_min Airy %.4f, max|T-T_airy| %.2e, max|R+T-1| %.2e\n", n,
                lambda, 1 / (1 + F), max_dt, max_sum);
    const std::string csv = test::slurp(scratch.path / "sweep.csv");
    CHECK(csv.rfind("design,d,R@1.6,T@1.6,status\n", 0) == 0);
    CHECK(std::filesystem::is_regular_file(scratch.path / "design_0007" / "summary.json"));
}

TEST_CASE("optimize: a quarter-wave anti-reflection layer converges to d = lambda / (4 n_c)", "[sweep][physics]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    test::Scratch scratch("optimize", "quarter_wave");
    const double n_s = 4.0, n_c = 2.0, lambda = 1.6;
    const double d_opt = lambda / (4 * n_c);  // 0.2 um
    const Project p =
        parse_project(film_project(R"({"d": 0.15})", R"("1.505 - d")", "1.505", n_c * n_c, n_s * n_s), "ar.glproj");
    OptimizeOptions o;
    o.out = scratch.path;
    o.runner = in_process_runner(cpu_options());
    o.objective = "R(1.6)";
    o.minimize = true;
    o.algorithm = "bobyqa";
    o.max_evals = 25;
    o.xtol = 0.003;
    int evaluations = 0;
    o.log = [&](const std::string& line) {
        ++evaluations;
        std::printf("optimize: %s\n", line.c_str());
    };
    OptimizeReport r;
    r = run_optimize(p, "ar.glproj", {parse_bound_parameter("d=0.1..0.3")}, o);  // throws without NLopt: a failure
    REQUIRE(r.best.size() == 1);
    std::printf("optimize: best d %.5f um (analytic %.5f), |error| %.2e um, reported tolerance %.3g um, R %.2e, "
                "%d evaluations (%s)\n",
                r.best[0], d_opt, std::abs(r.best[0] - d_opt), r.xtol[0], r.best_objective, r.evaluations,
                r.stop.c_str());
    CHECK(std::abs(r.best[0] - d_opt) <= r.xtol[0]);
    CHECK(r.best_objective < 2e-3);  // R(0.15) = 0.07, R at the bare substrate 0.36
    CHECK(r.evaluations == evaluations);
    CHECK(r.evaluations <= 25);
    // best.glproj: the project at the best value, its expressions kept.
    const Project best = load_project(r.best_project);
    CHECK(best.parameters.at(0).value == r.best[0]);
    CHECK(project_to_json(best)["layers"][0]["shapes"][0]["min"][0] == "1.505 - d");
    const std::string csv = test::slurp(scratch.path / "optimize.csv");
    CHECK(csv.rfind("evaluation,d,objective,status\n", 0) == 0);
}

// A genuinely 2D optimization (issue 23): the length of a quarter-wave matching section
// (a one-step taper) between two sections of a parallel-plate waveguide.
//
// Set-up: 2D TMz, PEC walls at y = 0 and y = W (domain.boundaries.y "pec": Ez = 0 on both
// walls, scene.hpp), CPML along x. Every section fills the guide's width, so the modes
// sin(m pi y / W) never couple and each section is a transmission line for the TE_1 mode
// (Pozar, Microwave Engineering 4th ed., sec. 3.2, parallel-plate TE_m modes):
//   beta_i = sqrt(eps_i k0^2 - (pi / W)^2),  wave impedance Z_i = omega mu0 / beta_i.
// Input: vacuum; output: eps_s; matching section of eps_m and length L between them. The
// reflection at a junction is r = (beta_a - beta_b) / (beta_a + beta_b), both junctions
// have r of the same sign (beta increases along x), and
//   R(L) = |r1 + r2 exp(-2 i beta_m L)|^2 / |1 + r1 r2 exp(-2 i beta_m L)|^2
// is smallest at 2 beta_m L = pi: L* = pi / (2 beta_m) = lambda_g / 4 (Pozar sec. 5.4, the
// quarter-wave transformer), with R(L*) = 0 when Z_m^2 = Z_0 Z_s, i.e. beta_m = sqrt(beta_0
// beta_s), which fixes eps_m. The uniform line source also feeds the odd modes m = 3, 5,
// ..., all below cutoff in every section over the spectrum (W < 3 lambda / (2 n)): they
// decay away from the source and carry no flux. The 1D (plane-wave) answer lambda / (4
// sqrt(eps_m)) is 0.067 um shorter: 22 tolerances away.
TEST_CASE("optimize: a 2D quarter-wave matching section in a parallel-plate waveguide converges to lambda_g / 4",
          "[sweep][physics]" GOLIGHTLY_NEEDS_MUPARSER GOLIGHTLY_NEEDS_NLOPT) {
    REQUIRE(expressions_available());
    test::Scratch scratch("optimize", "matching_section_2d");
    const double W = 1.2, lambda = 1.6, eps_s = 2.25, k0 = 2 * M_PI / lambda, ky = M_PI / W;
    const double beta0 = std::sqrt(k0 * k0 - ky * ky), beta_s = std::sqrt(eps_s * k0 * k0 - ky * ky);
    const double beta_m = std::sqrt(beta0 * beta_s);
    const double eps_m = (beta_m * beta_m + ky * ky) / (k0 * k0);
    const double L_opt = M_PI / (2 * beta_m);
    const double L_1d = lambda / (4 * std::sqrt(eps_m));
    // 11 spectrum points uniform in frequency, 1/lambda = 0.625 +- 0.05: the 6th is 1.6 um.
    char spectrum[160];
    std::snprintf(spectrum, sizeof spectrum, R"("wavelength_min": %.17g, "wavelength_max": %.17g, "points": 11)",
                  1 / 0.675, 1 / 0.575);
    const std::string text = R"({"format": "golightly-project", "version": 1, "name": "matching section",
      "parameters": {"L": 0.3},
      "domain": {"size": [2.2, )" + std::to_string(W) + R"(], "cell_size": 0.02, "polarization": "TMz",
                 "boundaries": {"x": "pml", "y": "pec"}, "pml": {"cells": 20}},
      "materials": [{"id": "match", "epsilon_inf": )" + std::to_string(eps_m) + R"(},
                    {"id": "out", "epsilon_inf": )" + std::to_string(eps_s) + R"(}],
      "layers": [{"name": "section", "material": "match",
                  "shapes": [{"type": "rectangle", "min": ["1.41 - L", 0], "max": [1.41, )" + std::to_string(W) + R"(]}]},
                 {"name": "output", "material": "out",
                  "shapes": [{"type": "rectangle", "min": [1.41, 0], "max": [2.2, )" + std::to_string(W) + R"(]}]}],
      "sources": [{"name": "line", "type": "line", "from": [0.3, 0], "to": [0.3, )" + std::to_string(W) + R"(], "component": "Ez",
                   "profile": "uniform", "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.6, "wavelength_span": 0.4}}],
      "monitors": [{"name": "R", "type": "flux", "from": [0.7, 0], "to": [0.7, )" + std::to_string(W) + R"(], "direction": "-x", "kind": "reflection"},
                   {"name": "T", "type": "flux", "from": [1.9, 0], "to": [1.9, )" + std::to_string(W) + R"(], "direction": "+x", "kind": "transmission"}],
      "run": {"spectrum": {)" + spectrum + R"(}, "courant": 0.5,
              "stop": {"decay_db": 50, "max_time_fs": 400}, "normalization": {"enabled": true},
              "precision": "float64", "backend": "cpu"}})";
    const Project p = parse_project(text, "match.glproj");
    OptimizeOptions o;
    o.out = scratch.path;
    o.runner = in_process_runner(cpu_options());
    o.objective = "R(1.6)";
    o.minimize = true;
    o.algorithm = "bobyqa";
    o.max_evals = 25;
    o.xtol = 0.003;
    o.log = [&](const std::string& line) { std::printf("optimize 2D: %s\n", line.c_str()); };
    OptimizeReport r;
    r = run_optimize(p, "match.glproj", {parse_bound_parameter("L=0.15..0.65")}, o);  // throws without NLopt: a failure
    REQUIRE(r.best.size() == 1);
    std::printf("optimize 2D: eps_m %.5f, best L %.5f um (analytic lambda_g/4 %.5f, 1D lambda/(4 n_m) %.5f), "
                "|error| %.2e um, reported tolerance %.3g um, R %.2e, %d evaluations (%s)\n",
                eps_m, r.best[0], L_opt, L_1d, std::abs(r.best[0] - L_opt), r.xtol[0], r.best_objective, r.evaluations,
                r.stop.c_str());
    CHECK(std::abs(r.best[0] - L_opt) <= r.xtol[0]);
    CHECK(std::abs(L_1d - L_opt) > 10 * r.xtol[0]);  // the test tells the 2D answer from the 1D one
    CHECK(r.best_objective < 2e-3);                  // R without the section: ((b0 - bs)/(b0 + bs))^2 = 0.082
    CHECK(r.evaluations <= 25);
}
