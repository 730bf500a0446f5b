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

TEST_CASE("sweep: a slab thickness sweep puts the Fabry-Perot peaks at 2 n d = m lambda", "[sweep][physics]") {
    if (!expressions_available()) { WARN("SKIPPED: built without muparser"); return; }
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

TEST_CASE("optimize: a quarter-wave anti-reflection layer converges to d = lambda / (4 n_c)", "[sweep][physics]") {
    if (!expressions_available()) { WARN("SKIPPED: built without muparser"); return; }
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
    try {
        r = run_optimize(p, "ar.glproj", {parse_bound_parameter("d=0.1..0.3")}, o);
    } catch (const std::runtime_error& e) {
        if (std::string(e.what()).find("no optimizer") != std::string::npos) { WARN("SKIPPED: built without NLopt"); return; }
        throw;
    }
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
