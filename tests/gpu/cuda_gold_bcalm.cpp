// The gold nanosphere of B-CALM on CUDA (issue 15; tests/common/gold_bcalm.hpp):
// examples/gold_nanosphere_bcalm_3d.glproj as a user runs it (80 nm diameter sphere of
// B-CALM's 6-pole gold in air, TF/SF plane wave, scattering box outside and absorption box
// inside the TF/SF box, 1 nm cells, staircase), on the CUDA backend: the absorption and
// scattering cross-sections at every spectrum point in 0.3 - 1.2 um within 3 % of the Mie
// series with the same eps(w) (B-CALM reports < 5 %). Each point's errors are printed.
// The CPU test of the example (tests/solver/test_gold_bcalm.cpp) checks its eps(w) against
// B-CALM's Table 1.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

#include "gold_bcalm.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"

using namespace golightly;

TEST_CASE("CUDA: B-CALM gold nanosphere example, absorption and scattering within 3 % of Mie over 0.3-1.2 um",
          "[gold_bcalm][3d]") {
    const auto path = gold_bcalm::example_path();
    const Project p = load_project(path);
    RunOptions opts;
    opts.backend = BackendChoice::Cuda;
    const RunResult r = run_project(p, path.string(), opts);
    REQUIRE(r.backend == "cuda");
    REQUIRE(r.spectra.size() >= 2);
    const auto rows = gold_bcalm::compare_with_mie(p, r, "gold_bcalm cuda");
    REQUIRE(rows.size() == std::size_t(p.run.spectrum.points));
    for (const auto& row : rows) {
        INFO("wavelength " << row.wavelength_um << " um: sigma_sca " << row.sca << " um^2 (Mie " << row.sca_mie
                           << "), sigma_abs " << row.abs << " um^2 (Mie " << row.abs_mie << ")");
        CHECK(std::abs(row.err_sca()) <= 0.03);
        CHECK(std::abs(row.err_abs()) <= 0.03);
    }
}
