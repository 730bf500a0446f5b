// Run driver additions for the IDE (run.hpp: RunOptions::live, frame_hook,
// frame_min_interval_s) on the bundled example, CPU backend.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

using namespace golightly;

namespace {
Project quickstart() {
    return load_project(std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "quickstart.glproj");
}

/// One CPU thread, a live snapshot about every `every` steps appended to `seen`.
RunOptions live_options(std::vector<LiveMonitors>& seen, std::int64_t every) {
    RunOptions o;
    o.backend = BackendChoice::Cpu;
    o.threads = 1;
    o.live_every_steps = every;
    o.live = [&seen](const LiveMonitors& l) { seen.push_back(l); };
    return o;
}
}  // namespace

TEST_CASE("run driver: live monitor values converge to the final spectra", "[driver][live]") {
    const Project p = quickstart();
    std::vector<LiveMonitors> seen;
    const RunResult r = run_project(p, "quickstart", live_options(seen, 100));
    REQUIRE(r.normalized);
    REQUIRE(!seen.empty());
    bool saw_reference = false, saw_main = false;
    std::int64_t last_step = -1;
    std::string last_phase;
    for (const auto& l : seen) {
        if (l.phase != last_phase) last_step = -1;
        last_phase = l.phase;
        CHECK(l.step > last_step);  // increasing within a phase, about every 100 steps
        last_step = l.step;
        CHECK(l.frequency_hz == r.frequency_hz);
        REQUIRE(l.spectra.size() == r.spectra.size());
        if (l.phase == "reference") {
            saw_reference = true;
            CHECK(!l.normalized);  // P_inc is not known yet
        } else {
            saw_main = true;
            CHECK(l.normalized);
            for (const auto& s : l.spectra) CHECK(s.normalized.size() == r.frequency_hz.size());
        }
    }
    CHECK(saw_reference);
    CHECK(saw_main);
    // the last main-run snapshot is within one live interval of the end: its transmission
    // is close to the final one (the field has decayed 30 dB by then)
    const LiveMonitors& last = seen.back();
    REQUIRE(last.phase == "main");
    CHECK(r.steps - last.step < 100 + 50);
    for (std::size_t m = 0; m < r.spectra.size(); ++m)
        for (std::size_t f = 0; f < r.frequency_hz.size(); ++f)
            CHECK(last.spectra[m].normalized[f] == Approx(r.spectra[m].normalized[f]).margin(0.02));
    // and an early snapshot is not (a check that can fail: the DFTs do accumulate)
    const LiveMonitors* early = nullptr;
    for (const auto& l : seen)
        if (l.phase == "main" && !early) early = &l;
    REQUIRE(early);
    double diff = 0;
    for (std::size_t f = 0; f < r.frequency_hz.size(); ++f)
        diff = std::max(diff, std::abs(early->spectra.back().flux[f] - r.spectra.back().flux[f]));
    CHECK(diff > 0);
    // How big: the first main-run snapshot comes at step 100 (t = 100 dt = 6.7 fs with
    // dx 0.04 um, Courant 0.5), while the source pulse (1.55 um, span 0.3 um: tau = 11.9 fs)
    // peaks at t0 = 6 tau = 71 fs. Its amplitude by then is exp(-(64/11.9)^2 / 2) ~ 5e-7,
    // so the early DFTs hold a flux ~1e-12 of the final one: the difference is the whole
    // final spectrum's peak.
    double final_peak = 0;
    for (double v : r.spectra.back().flux) final_peak = std::max(final_peak, std::abs(v));
    REQUIRE(final_peak > 0);
    CHECK(diff == Approx(final_peak).epsilon(1e-3));
    // time series grow
    REQUIRE(!last.time_series.empty());
    CHECK(last.time_series[0].values.size() == std::size_t(last.step));
}

TEST_CASE("run driver: frame_hook at every frame step, rate-limited by frame_min_interval_s", "[driver][live]") {
    Project p = quickstart();
    p.run.normalization.enabled = false;
    p.run.stop.max_steps = 400;
    p.run.frames.every_steps = 20;
    RunOptions o;
    o.backend = BackendChoice::Cpu;
    o.threads = 1;
    int hooks = 0;
    std::vector<std::int64_t> steps;
    o.frame_hook = [&](Engine& e, std::int64_t step, double time_fs) {
        ++hooks;
        steps.push_back(step);
        CHECK(e.steps_done() == step);
        CHECK(time_fs > 0);
    };
    run_project(p, "quickstart", o);
    CHECK(hooks == 400 / 20);
    CHECK(steps.front() == 20);
    hooks = 0;
    o.frame_min_interval_s = 1e6;  // at most one frame
    run_project(p, "quickstart", o);
    CHECK(hooks == 1);
}

// Diffraction monitors live (issue 51 item 4): each snapshot carries the Floquet orders of
// the DFTs so far, the main run's normalized by P_inc; the last snapshot, within one live
// interval of the end, gives the final power fractions. The 20 degree grating example on
// a coarse grid (0.05 um cells), float64 on the CPU.
TEST_CASE("run driver: diffraction orders arrive live and converge to the final ones", "[driver][live][diffraction]") {
    Project p = load_project(std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "grating_20deg_2d.glproj");
    p.domain.cell_size = 0.05;
    p.domain.pml.cells = 16;
    p.run.spectrum.points = 3;
    p.run.precision = Precision::Float64;
    p.run.stop.decay_db = 50;
    std::vector<LiveMonitors> seen;
    const RunResult r = run_project(p, "grating", live_options(seen, 200));
    REQUIRE(r.stop_reason == StopReason::Decay);
    REQUIRE(r.diffraction.size() == 2);
    REQUIRE(!seen.empty());
    const LiveMonitors& last = seen.back();
    REQUIRE(last.phase == "main");
    CHECK(last.normalized);
    CHECK(r.steps - last.step < 200 + 50);
    REQUIRE(last.diffraction.size() == r.diffraction.size());
    double largest = 0;
    for (std::size_t m = 0; m < r.diffraction.size(); ++m) {
        const DiffractionResult& a = last.diffraction[m];
        const DiffractionResult& b = r.diffraction[m];
        CHECK(a.name == b.name);
        REQUIRE(a.orders.size() == b.orders.size());
        for (std::size_t f = 0; f < b.orders.size(); ++f) {
            REQUIRE(a.orders[f].size() == b.orders[f].size());
            for (std::size_t k = 0; k < b.orders[f].size(); ++k) {
                // the field has decayed about 50 dB by the last snapshot: the DFTs barely change
                CHECK(a.power_fraction(f, k) == Approx(b.power_fraction(f, k)).margin(0.01));
                largest = std::max(largest, b.power_fraction(f, k));
            }
        }
    }
    CHECK(largest > 0.05);  // the grating does diffract: the comparison compares something
    // an early main-run snapshot is not final yet (the DFTs do accumulate)
    bool early_differs = false;
    for (const auto& l : seen)
        if (l.phase == "main" && l.step <= 400 && l.diffraction.size() == r.diffraction.size() &&
            !l.diffraction[1].orders.empty())
            for (std::size_t k = 0; k < r.diffraction[1].orders[1].size() && k < l.diffraction[1].orders[1].size(); ++k)
                early_differs = early_differs ||
                                std::abs(l.diffraction[1].power_fraction(1, k) - r.diffraction[1].power_fraction(1, k)) > 0.02;
    CHECK(early_differs);
}
