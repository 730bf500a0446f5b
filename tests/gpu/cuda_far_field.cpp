// Far fields and resonances on the CUDA backend (issue 52: "CPU and CUDA, 2D and 3D"):
// the surface DFTs and time samples a CUDA run hands back give the same projection and
// resonances as on the CPU. The physics bounds are those of the CPU tests
// (tests/solver/test_far_field.cpp, test_resonances.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "golightly/project.hpp"
#include "golightly/resonance_finder.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"
#include "far_field_projects.hpp"

using namespace golightly;

TEST_CASE("CUDA: a dipole's far field is sin^2(theta) with its flux box's power", "[gpu][cuda][far_field]") {
    for (const char* precision : {"float32", "float64"}) {
        const Project p = parse_project(test::dipole_project_json(precision, "cuda"), "dipole.glproj");
        const RunResult r = run_project(p, "dipole.glproj");
        CHECK(r.backend == "cuda");
        REQUIRE(r.far_fields.size() == 1);
        const auto& s = r.far_fields[0].samples.at(0);
        double umax = 0, worst = 0;
        for (const auto& x : s) umax = std::max(umax, x.intensity);
        for (const auto& x : s) worst = std::max(worst, std::fabs(x.intensity / umax - std::pow(std::sin(x.theta_rad), 2)));
        const double flux = r.spectra.at(0).flux.at(2);
        std::printf("[far field] CUDA %s: worst |U/Umax - sin^2| %.4f, projected / flux-box power %.5f\n", precision, worst,
                    r.far_fields[0].power[0] / flux);
        CHECK(worst < 0.01);
        CHECK(r.far_fields[0].power[0] == Approx(flux).epsilon(0.005));
    }
}

TEST_CASE("CUDA: a 3D PEC box's resonances equal the Yee mode frequencies", "[gpu][cuda][resonances]") {
    // scripts/gpu-check.sh brings Harminv from .devdeps: a build without it fails here
    REQUIRE(resonance_finder_available());
    const RunResult r = run_project(parse_project(test::pec_box_project_json("cuda"), "box.glproj"), "box.glproj");
    CHECK(r.backend == "cuda");
    test::check_pec_box_resonances(r, "CUDA");
}
