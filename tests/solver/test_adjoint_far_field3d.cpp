// 3D far-field objective terms (`{"far_field": NAME, "theta_deg": T, "phi_deg": P}`;
// adjoint_project.cpp far_field_functionals): the radiation intensity U(theta, phi) of a
// flux_box's far field as two linear functionals of its DFT samples (r E_theta and r E_phi
// over sqrt(2 eta0)). Checked: the objective equals the run's own far field
// (far_field/<name>.csv's `intensity`, run_project) in two directions, and the adjoint
// gradient (shape parameters of a box) matches central differences of forward runs, to
// the issue's 1e-2 (float64).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>

#include "golightly/adjoint_project.hpp"
#include "golightly/adjoint_shape.hpp"
#include "golightly/compile.hpp"
#include "golightly/design_spec.hpp"
#include "golightly/errors.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "optional_features.hpp"

using namespace golightly;
namespace fs = std::filesystem;

namespace {

// An Ez dipole beside a dielectric box (eps 4, from x0 to x1 along x) in air, a
// 1.04 um flux_box around both with a far field (theta 0, 45, .., 180; phi 0, 90, 180,
// 270); the objective U at theta 90, phi 0 (+x, through the box) at 1.55 um. 0.08 um
// cells: a coarse grid, but the run's far field and the objective see the same DFTs.
const char* kRadiator3d = R"JSON({"format": "golightly-project", "version": 1, "name": "far field 3d",
  "parameters": {"x0": 0.715, "x1": 1.145},
  "domain": {"dimensions": 3, "size": [1.6, 1.6, 1.6], "cell_size": 0.08, "pml": {"cells": 8}},
  "materials": [{"id": "d", "epsilon_inf": 4.0}],
  "layers": [{"name": "box", "material": "d", "z": [0.59, 1.01],
              "shapes": [{"type": "rectangle", "min": ["x0", 0.57], "max": ["x1", 1.03]}]}],
  "sources": [{"name": "s", "type": "point", "at": [0.45, 0.77, 0.83], "component": "Ez",
               "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.55, "wavelength_span": 0.4}}],
  "monitors": [{"name": "box", "type": "flux_box", "min": [0.28, 0.28, 0.28], "max": [1.32, 1.32, 1.32],
                "far_field": {"wavelengths": [1.55], "theta_points": 5, "phi_points": 4}}],
  "run": {"spectrum": {"wavelength_min": 1.45, "wavelength_max": 1.65, "points": 5}, "precision": "float64",
          "backend": "cpu", "stop": {"decay_db": 140}},
  "design": {
    "shape_parameters": [{"name": "x0", "min": 0.6, "max": 0.9}, {"name": "x1", "min": 1.0, "max": 1.25}],
    "objective": {"terms": [{"far_field": "box", "theta_deg": 90, "phi_deg": 0}], "wavelengths_um": [1.55],
                  "goal": "maximize"}
  }})JSON";

Project radiator(const std::function<void(Json&)>& edit = {}) {
    Json j = Json::parse(kRadiator3d);
    if (edit) edit(j);
    return parse_project(j.dump(), "ff3.glproj");
}

void direction(Json& j, double theta, double phi) {
    j["design"]["objective"]["terms"][0]["theta_deg"] = theta;
    j["design"]["objective"]["terms"][0]["phi_deg"] = phi;
}

std::string error_of(const std::function<void(Json&)>& edit) {
    try {
        (void)design_spec(radiator(edit), "ff3.glproj");
    } catch (const ProjectError& e) {
        return e.json_path() + ": " + e.message();
    }
    return "no error";
}

}  // namespace

TEST_CASE("adjoint far field 3D: the objective is the run's far-field intensity, and dU/dp matches finite differences",
          "[adjoint][farfield][3d]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    // the run's far field at 1.55 um: theta index i (45 i degrees), phi index j (90 j degrees)
    Project q = radiator();
    q.extra.erase("design");
    q.run.spectrum.wavelength_min = q.run.spectrum.wavelength_max = 1.55;
    q.run.spectrum.points = 1;
    const RunResult r = run_project(q, "ff3.glproj");
    REQUIRE(r.far_fields.size() == 1);
    REQUIRE(r.far_fields[0].n_theta == 5);
    REQUIRE(r.far_fields[0].n_phi == 4);
    const auto& samples = r.far_fields[0].samples.at(0);
    // (theta 90, phi 0): E_theta dominates; (theta 45, phi 90): both parts
    for (const auto& ij : {std::pair{2, 0}, std::pair{1, 1}}) {
        const int i = ij.first, j = ij.second;  // not a structured binding: C++17 lambdas cannot capture one
        const Project project = radiator([&](Json& js) { direction(js, 45.0 * i, 90.0 * j); });
        const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(project, "ff3.glproj", fs::temp_directory_path());
        const double u = adjoint::evaluate_shape(sp, sp.p0, false).objective;
        const double ref = samples.at(std::size_t(i * 4 + j)).intensity;
        INFO("theta " << 45 * i << ", phi " << 90 * j << ": objective " << u << ", run's far field " << ref);
        CHECK(ref > 0);
        CHECK(std::abs(u - ref) < 1e-5 * ref);
    }
    // the gradient: the box's two faces normal to x, each a parameter (their edges are
    // tensor-coupled); one face each, since the width's and the position's derivatives
    // would be the sum and the difference of the two faces' and the difference cancels
    const adjoint::ShapeProblem sp = adjoint::shape_problem_from_project(radiator(), "ff3.glproj", fs::temp_directory_path());
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
        CHECK(std::abs(fd) > 1e-3 * ev.objective);
        CHECK(std::abs(ev.gradient[k] - fd) < 1e-2 * std::abs(fd));
        WARN("3D far field d/d" << sp.names[k] << ": relative difference " << std::abs(ev.gradient[k] - fd) / std::abs(fd));
    }
}

TEST_CASE("adjoint far field 3D: a 3D term takes theta_deg and phi_deg, naming the field otherwise", "[adjoint][farfield]") {
    CHECK(error_of({}) == "no error");
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["terms"][0].erase("theta_deg"); }),
               Catch::StartsWith("design.objective.terms[0].theta_deg: is required"));
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["terms"][0].erase("phi_deg"); }),
               Catch::StartsWith("design.objective.terms[0].phi_deg: is required"));
    CHECK_THAT(error_of([](Json& j) { j["design"]["objective"]["terms"][0]["angle_deg"] = 0; }),
               Catch::StartsWith("design.objective.terms[0].angle_deg: is the 2D direction"));
}

TEST_CASE("adjoint far field 3D: the time to build the far-field term's functionals (a benchmark, not a check)",
          "[.][adjoint][farfield][bench]" GOLIGHTLY_NEEDS_MUPARSER) {
    REQUIRE(expressions_available());
    // the problem at the start values twice, with the far-field term and with a point term
    // instead (the same compile, no run: the normalization is given); the difference is the
    // kernel of the flux_box's samples
    auto build_s = [](const Project& project) {
        const auto t0 = std::chrono::steady_clock::now();
        const adjoint::ProjectProblem pp =
            adjoint::shape_problem_at(project, "ff3.glproj", fs::temp_directory_path(), {}, std::vector<double>{1.0});
        CHECK(!pp.problem.functionals.empty());
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    const Project far = radiator();
    const Project point = radiator([](Json& j) {
        j["design"]["objective"]["terms"][0] = Json::parse(R"({"point": [1.37, 0.85, 0.77], "component": "Ez"})");
    });
    std::size_t samples = 0;
    for (const DftSet& s : compile_project(far, "ff3.glproj").scene.dft_sets) samples += s.cell0.size();
    double with = 1e300, without = 1e300;
    for (int r = 0; r < 3; ++r) with = std::min(with, build_s(far)), without = std::min(without, build_s(point));
    WARN("far-field term over " << samples << " DFT set samples: problem build " << with << " s, with a point term "
                                << without << " s: the kernel " << with - without << " s");
}
