// Far-field objective terms (`design.objective.terms[k].far_field`, 2D; adjoint_project.cpp
// far_field_functional): the radiation intensity U(phi) of a monitor's far field, a linear
// functional of its surface DFTs through the projection's kernel, with the adjoint source on
// the monitor's samples.
//
// Checked, 2D, float64, CPU: the objective's value against the run's own far field
// (run_project: the engine's DFTs projected by far_field_run.cpp, far_field/<name>.csv's
// `intensity`), at two angles, TMz and TEz; the adjoint gradient against central
// differences of forward runs for shape parameters (TMz: a dielectric block beside a point
// source, its width and height) and for a density region along a random direction (TMz and
// TEz); the refusals.
//
// Tolerances. Value: the functional is the same projection applied sample by sample, so it
// differs from the run's far field only by the runs' ends (both at 1e-14 of the peak
// energy, run.stop.decay_db 140: ~1e-7 of the DFT amplitudes); 1e-5 relative. Dropping the
// H currents, a wrong sign of M, or the samples' node weights w0, w1 change U by O(1) (at
// phi = 0 and 90 degrees both currents matter). Gradients: as in test_adjoint_shape.cpp
// (shape: h = 1e-3 um, edges 0.1 cell or more from window edges, ~1e-4 relative) and
// test_adjoint_project3d.cpp (density: h = 1e-3), against the issue's 1e-2.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <random>

#include "golightly/adjoint.hpp"
#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_shape.hpp"
#include "golightly/design_density.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/parameters.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "optional_features.hpp"
#include "test_files.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

// A point source Ez at (1.35, 1.7) beside a block (eps 4, width w, height hb, centred at
// (2.0, 1.62)) in air, a flux_box of 1.6 x 1.6 um around both with a far field; the
// objective U at 0 degrees (+x, through the block) at 1.55 um.
const char* kRadiator = R"JSON({"format": "golightly-project", "version": 1, "name": "far field block",
  "parameters": {"w": 0.43, "hb": 0.61},
  "domain": {"size": [3.4, 3.4], "cell_size": 0.05, "polarization": "TMz", "pml": {"cells": 12}},
  "materials": [{"id": "d", "epsilon_inf": 4.0}],
  "layers": [{"name": "block", "material": "d",
              "shapes": [{"type": "rectangle", "min": ["2.0 - w / 2", "1.62 - hb / 2"], "max": ["2.0 + w / 2", "1.62 + hb / 2"]}]}],
  "sources": [{"name": "s", "type": "point", "at": [1.35, 1.7], "component": "Ez",
               "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.4}}],
  "monitors": [{"name": "box", "type": "flux_box", "min": [0.9, 0.9], "max": [2.5, 2.5],
                "far_field": {"wavelengths": [1.55], "phi_points": 8}}],
  "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 5}, "precision": "float64",
          "backend": "cpu", "stop": {"decay_db": 140}},
  "design": {
    "shape_parameters": [{"name": "w", "min": 0.2, "max": 0.7}, {"name": "hb", "min": 0.3, "max": 0.9}],
    "objective": {"terms": [{"far_field": "box", "angle_deg": 0}], "wavelengths_um": [1.55], "goal": "maximize"},
    "optimizer": {"algorithm": "mma", "max_iterations": 3}
  }})JSON";

Project radiator(const std::function<void(Json&)>& edit = {}) {
    Json j = Json::parse(kRadiator);
    if (edit) edit(j);
    return parse_project(j.dump(), "ff.glproj");
}

void angle(Json& j, double deg) { j["design"]["objective"]["terms"][0]["angle_deg"] = deg; }

/// U(phi_j) at 1.55 um from the run's own far field (phi_points 8: 45-degree steps).
double run_intensity(const Project& project, int j) {
    Project q = project;
    q.extra.erase("design");
    q.run.spectrum.wavelength_min = q.run.spectrum.wavelength_max = 1.55;
    q.run.spectrum.points = 1;
    const RunResult r = run_project(q, "ff.glproj");
    REQUIRE(r.far_fields.size() == 1);
    REQUIRE(r.far_fields[0].samples.size() == 1);
    REQUIRE(r.far_fields[0].n_phi == 8);
    return r.far_fields[0].samples[0].at(std::size_t(j)).intensity;
}

std::string error_of(const std::function<void(Json&)>& edit) {
    try {
        (void)design_spec(radiator(edit), "ff.glproj");
    } catch (const ProjectError& e) {
        return e.json_path() + ": " + e.message();
    }
    return "no error";
}

}  // namespace

TEST_CASE("adjoint far field: the objective is the run's far-field intensity (2D TMz and TEz, float64)",
          "[adjoint][farfield]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    for (const bool tez : {false, true})
        for (const int j : {0, 2}) {  // 0 and 90 degrees
            const Project project = radiator([&](Json& js) {
                angle(js, 45.0 * j);
                if (!tez) return;
                js["domain"]["polarization"] = "TEz";  // E_phi in the far field
                js["sources"][0]["component"] = "Ey";
            });
            const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(project, "ff.glproj", fs::temp_directory_path());
            const double u = adjoint::evaluate_shape(sp, sp.p0, false).objective;
            const double ref = run_intensity(project, j);
            INFO((tez ? "TEz " : "TMz ") << 45 * j << " degrees: objective " << u << ", run's far field " << ref);
            CHECK(ref > 0);
            CHECK(std::abs(u - ref) < 1e-5 * ref);
        }
}

TEST_CASE("adjoint far field: dU/dp of shape parameters matches finite differences (2D TMz, float64)",
          "[adjoint][farfield][shape]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(radiator(), "ff.glproj", fs::temp_directory_path());
    const adjoint::ShapeEvaluation ev = adjoint::evaluate_shape(sp, sp.p0, true);
    REQUIRE(ev.gradient.size() == 2);
    const double h = 1e-3;
    for (std::size_t k = 0; k < 2; ++k) {
        std::vector<double> up = sp.p0, down = sp.p0;
        up[k] += h;
        down[k] -= h;
        const double fd =
            (adjoint::evaluate_shape(sp, up, false).objective - adjoint::evaluate_shape(sp, down, false).objective) / (2 * h);
        INFO("d/d" << sp.names[k] << ": adjoint " << ev.gradient[k] << ", finite difference " << fd << ", U " << ev.objective);
        CHECK(std::abs(fd) > 1e-2 * ev.objective);
        CHECK(std::abs(ev.gradient[k] - fd) < 1e-2 * std::abs(fd));
    }
}

TEST_CASE("adjoint far field: dU/drho of a density region matches finite differences (2D TMz and TEz, float64)",
          "[adjoint][farfield][project]") {
    test::Scratch dir("adjoint", "far_field_density");
    for (const bool tez : {false, true}) {
        const Project project = radiator([&](Json& j) {
            if (tez) {
                j["domain"]["polarization"] = "TEz";  // E_phi from Ex, Ey and Hz samples
                j["sources"][0]["component"] = "Ey";
            }
            j.erase("parameters");
            j["layers"] = Json::array();
            j["design"].erase("shape_parameters");
            j["design"]["regions"] = Json::parse(R"([{"name": "dr", "min": [1.7, 1.3], "max": [2.3, 1.9], "pixel_um": 0.1,
                "materials": ["air", "d"], "rho": 0.5, "filter": {"kind": "conic", "radius_um": 0.15},
                "projection": {"beta": 2, "eta": 0.5}}])");
            angle(j, 30.0);
        });
        const adjoint::ProjectProblem pp = adjoint::problem_from_project(project, "ff.glproj", dir.path);
        REQUIRE(pp.problem.functionals.size() == 1);
        design::DensityGrid g = adjoint::density_grid(pp.problem.region, 2);
        auto mapped = [&](const std::vector<double>& rho) {
            g.rho = rho;
            return design::map_density(g, pp.settings.mapping);
        };
        std::mt19937 gen(54);
        std::uniform_real_distribution<double> u(0.3, 0.7), d(-1.0, 1.0);
        std::vector<double> rho(pp.rho0.size()), direction(rho.size());
        for (auto& v : rho) v = u(gen);
        for (auto& v : direction) v = d(gen);
        const adjoint::Evaluation ev = adjoint::evaluate_with_gradient(pp.problem, mapped(rho));
        g.rho = rho;
        const std::vector<double> grad = design::map_density_adjoint(g, pp.settings.mapping, ev.gradient);
        const double h = 1e-3;
        std::vector<double> plus = rho, minus = rho;
        for (std::size_t k = 0; k < rho.size(); ++k) plus[k] += h * direction[k], minus[k] -= h * direction[k];
        const double fd =
            (adjoint::evaluate(pp.problem, mapped(plus)).objective - adjoint::evaluate(pp.problem, mapped(minus)).objective) /
            (2 * h);
        double adj = 0;
        for (std::size_t k = 0; k < rho.size(); ++k) adj += grad[k] * direction[k];
        INFO((tez ? "TEz" : "TMz") << ": U " << ev.objective << "; adjoint " << adj << ", finite difference " << fd);
        CHECK(ev.objective > 0);
        REQUIRE(std::abs(fd) > 1e-3 * ev.objective);
        CHECK(std::abs(adj - fd) < 1e-2 * std::abs(fd));
    }
}

TEST_CASE("adjoint far field: bad far-field terms are refused, naming the field", "[adjoint][farfield]") {
    CHECK(error_of({}) == "no error");
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["terms"][0]["far_field"] = "nope"; }),
               Catch::StartsWith("design.objective.terms[0].far_field: unknown monitor \"nope\""));
    CHECK_THAT(error_of([](Json& j) { j["monitors"][0].erase("far_field"); }),
               Catch::StartsWith("design.objective.terms[0].far_field: monitor \"box\" has no `far_field`"));
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["terms"][0].erase("angle_deg"); }),
               Catch::StartsWith("design.objective.terms[0].angle_deg: is required"));
    CHECK_THAT(error_of([](Json& j) {
                   j["monitors"].push_back(Json::parse(R"({"name": "m", "type": "flux", "kind": "mode", "from": [2.7, 0.7],
                                                          "to": [2.7, 2.7], "direction": "+x"})"));
                   j["design"]["objective"]["terms"][0]["far_field"] = "m";
               }),
               Catch::StartsWith("design.objective.terms[0].far_field: monitor \"m\" is not a flux line or flux_box"));
}
