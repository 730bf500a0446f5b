// Run driver additions for the IDE (run.hpp: RunOptions::live, frame_hook,
// frame_min_interval_s) on the bundled example, CPU backend.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

using namespace golightly;

namespace {
Project quickstart() {
    return load_project(std::filesystem::path(GOLIGHTLY_SOURCE_DIR) / "examples" / "quickstart.glproj");
}
}  // namespace

TEST_CASE("run driver: live monitor values converge to the final spectra", "[driver][live]") {
    const Project p = quickstart();
    RunOptions o;
    o.backend = BackendChoice::Cpu;
    o.threads = 1;
    o.live_every_steps = 100;
    std::vector<LiveMonitors> seen;
    o.live = [&](const LiveMonitors& l) { seen.push_back(l); };
    const RunResult r = run_project(p, "quickstart", o);
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
