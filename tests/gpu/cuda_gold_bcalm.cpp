// The gold nanosphere of B-CALM on CUDA (issue 15; tests/common/gold_bcalm.hpp):
// examples/gold_nanosphere_bcalm_3d.glproj as a user runs it (80 nm diameter sphere of
// B-CALM's 6-pole gold in air, TF/SF plane wave, scattering box outside and absorption box
// inside the TF/SF box, 1 nm cells, staircase), on the CUDA backend: the absorption and
// scattering cross-sections against the Mie series with the same eps(w) (B-CALM reports
// < 5 %; bounds and figures at the test). Each point's errors are printed.
// The CPU test of the example (tests/solver/test_gold_bcalm.cpp) checks its eps(w) against
// B-CALM's Table 1.
// GOLIGHTLY_GOLD_BCALM_MATERIAL (the hidden target and study cases only): the sphere's
// material, "bcalm" (B-CALM's gold, the project's own; the default), "silver" (Rakic's
// silver, Appl. Opt. 37, 5271 (1998): the bundled library's "ag"), "gold" (Rakic's gold,
// "au") or any other id of the bundled material library (golightly-cli materials). The
// Mie series then uses that material's eps(w) and the labels name it, e.g.
//   GOLIGHTLY_GOLD_BCALM_MATERIAL=silver GOLIGHTLY_GOLD_BCALM=0.0025:1:32,0.00125:1:32 \
//     golightly_gpu_tests "[gold_bcalm_study]"
// for issue 49's silver sphere (Rakic's fit holds over 0.25-12 um; the example's band
// starts at 0.3 um).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "gold_bcalm.hpp"
#include "golightly/material_library.hpp"
#include "golightly/project.hpp"
#include "golightly/run.hpp"

using namespace golightly;

namespace {
/// Runs `p` on the CUDA backend with progress every 30 s (gold_bcalm::run_with_progress).
RunResult run_example_on_cuda(const Project& p, const std::string& file = gold_bcalm::example_path().string()) {
    return gold_bcalm::run_with_progress(p, file, BackendChoice::Cuda);
}

/// Applies GOLIGHTLY_GOLD_BCALM_MATERIAL (file comment) to `p`, a variant of the example:
/// its first material (the sphere's) takes the chosen library material's eps_inf, poles and
/// conductivity under its own id, so the layer still refers to it. Returns the material's
/// label for the printed lines ("bcalm" when unset). Throws std::runtime_error naming the
/// variable and the library file for an id the bundled library lacks.
std::string apply_study_material(Project& p) {
    const char* env = std::getenv("GOLIGHTLY_GOLD_BCALM_MATERIAL");
    const std::string want = env ? env : "bcalm";
    if (want == "bcalm" || want.empty()) return "bcalm";
    const std::string id = want == "silver" ? "ag" : want == "gold" ? "au" : want;
    const auto lib = load_material_library(bundled_material_library_path());
    for (const LibraryMaterial& lm : lib)
        if (lm.material.id == id) {
            Material m = lm.material;
            m.id = p.materials.at(0).id;
            p.materials.at(0) = m;
            return want;
        }
    throw std::runtime_error("GOLIGHTLY_GOLD_BCALM_MATERIAL=" + want + ": no material with id \"" + id +
                             "\" in the bundled library " + bundled_material_library_path().string());
}
}  // namespace

// What the 1 nm staircase reaches (H200, 2026-11-26: 19.6 s; 2026-11-27 with the float32 pole
// fix: 4.60 % and 10.13 %): within 1 % of Mie at 0.3-0.48 um
// (the interband region), worst 4.6 % (scattering) and 10.0 % (absorption) at 0.60 um, on
// the red flank of the plasmon, which the staircased surface broadens. The bounds below
// (3 % up to 0.5 um, 6 % and 12 % everywhere) catch a wrong factor, pole or normalization.
TEST_CASE("CUDA: B-CALM gold nanosphere example against Mie (3 % below 0.5 um, 6 % / 12 % over 0.3-1.2 um)",
          "[gold_bcalm][3d]") {
    const Project p = load_project(gold_bcalm::example_path());
    const RunResult r = run_example_on_cuda(p);
    REQUIRE(r.backend == "cuda");
    REQUIRE(r.spectra.size() >= 2);
    const auto rows = gold_bcalm::compare_with_mie(p, r, "gold_bcalm cuda");
    REQUIRE(rows.size() == std::size_t(p.run.spectrum.points));
    for (const auto& row : rows) {
        INFO("wavelength " << row.wavelength_um << " um: sigma_sca " << row.sca << " um^2 (Mie " << row.sca_mie
                           << "), sigma_abs " << row.abs << " um^2 (Mie " << row.abs_mie << ")");
        const bool blue = row.wavelength_um <= 0.5;
        CHECK(std::abs(row.err_sca()) <= (blue ? 0.03 : 0.06));
        CHECK(std::abs(row.err_abs()) <= (blue ? 0.03 : 0.12));
    }
}

// Issue 15's target (hidden): both cross-sections within 3 % of Mie at every point of
// 0.3-1.2 um. The 1 nm staircase of the example does not reach it on the red flank of the
// plasmon; the worst absorption error falls at first order with the radius in cells R
// (after the float32 pole fix: 10.13 % at R = 40, 4.80 % at 80, 3.32 % at 120, 2.43 % at
// 160), and at other alignments of the surface it is larger (5.00 % at R = 136.5;
// validation/README.md). Sub-pixel averaging of the poles makes it worse (cut cells near
// eps = 0), and so did the Farjadpour average of eps(w) itself ("Tried and dropped").
// So this runs the fine example (gold_bcalm::fine_example_path: R = 160, 512^3 cells,
// 92950 steps to 80 dB) on every visible GPU (run.devices "all" unless the project sets
// it: `auto` would take one device per 2^26 cells, run.hpp kAutoCellsPerDevice).
// Seen 2026-11-27 (`golightly-cli run` of the example on two H200s, 459 s at 29.6 Gcells/s,
// its spectra.csv against this file's Mie values): worst sca 1.18 %, abs 2.43 %.
// GOLIGHTLY_GOLD_BCALM_PROJECT runs another project, GOLIGHTLY_GOLD_BCALM_TARGET_DX (um)
// another cell size, GOLIGHTLY_GOLD_BCALM_MATERIAL another material (file comment).
TEST_CASE("CUDA: B-CALM gold nanosphere, 3 % of Mie over 0.3-1.2 um (issue 15 target)", "[.][gold_bcalm_target][3d]") {
    const std::string file = gold_bcalm::study_project_path(gold_bcalm::fine_example_path());
    Project p = load_project(file);
    if (const char* dx = std::getenv("GOLIGHTLY_GOLD_BCALM_TARGET_DX")) p.domain.cell_size = std::atof(dx);
    if (!p.run.extra.contains("devices")) p.run.extra["devices"] = "all";
    const std::string material = apply_study_material(p);
    const RunResult r = run_example_on_cuda(p, file);
    REQUIRE(r.backend == "cuda");
    char label[96];
    std::snprintf(label, sizeof label, "gold_bcalm cuda target %s dx %.6f", material.c_str(), p.domain.cell_size);
    const auto rows = gold_bcalm::compare_with_mie(p, r, label);
    REQUIRE(rows.size() == std::size_t(p.run.spectrum.points));
    for (const auto& row : rows) {
        INFO("wavelength " << row.wavelength_um << " um");
        CHECK(std::abs(row.err_sca()) <= 0.03);
        CHECK(std::abs(row.err_abs()) <= 0.03);
    }
}

// Resolution study on CUDA (hidden): GOLIGHTLY_GOLD_BCALM: comma-separated
// dx_um:averaging:precision(32|64) triples (gold_bcalm.hpp study_grids; default "0.001:0:32,0.001:0:64"),
// GOLIGHTLY_GOLD_BCALM_PROJECT another project (a variant of the example, e.g. the fine
// one), GOLIGHTLY_GOLD_BCALM_DECAY_DB the stop, GOLIGHTLY_GOLD_BCALM_MATERIAL the sphere's
// material (file comment); prints
// each grid's errors against the Mie series and its worst error, asserts nothing but
// finite values. Use it to choose the example's cell size.
TEST_CASE("CUDA: B-CALM gold nanosphere resolution study (prints)", "[.][gold_bcalm_study][3d]") {
    for (const gold_bcalm::StudyGrid& grid : gold_bcalm::study_grids("0.001:0:32,0.001:0:64")) {
        const double dx = grid.dx_um;
        const bool f64 = grid.f64;
        Project p = load_project(gold_bcalm::study_project_path());
        grid.apply(p);
        const std::string material = apply_study_material(p);
        if (const char* db = std::getenv("GOLIGHTLY_GOLD_BCALM_DECAY_DB")) p.run.stop.decay_db = std::atof(db);
        const RunResult r = run_example_on_cuda(p, gold_bcalm::study_project_path());
        char label[128];
        std::snprintf(label, sizeof label, "gold_bcalm cuda %s dx %.5f %s %s", material.c_str(), dx,
                      grid.label().c_str(), f64 ? "f64" : "f32");
        for (const auto& row : gold_bcalm::compare_with_mie(p, r, label)) CHECK(std::isfinite(row.err_abs()));
    }
}
