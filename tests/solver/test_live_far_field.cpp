// Live far fields (LiveMonitors::far_fields, issue 52): the main run's snapshots carry the
// far fields projected from the surface DFTs so far, throttled to kLiveFarFieldInterval of
// wall time, and the last snapshot equals the run's result to rounding (the same DFTs, the
// same projection).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "golightly/project.hpp"
#include "golightly/run.hpp"

using namespace golightly;

TEST_CASE("Live far fields: throttled during the run, the last snapshot equals the result", "[far_field][live]") {
    const Project p = parse_project(R"({"format": "golightly-project", "version": 1,
      "domain": {"size": [2.4, 2.4], "cell_size": 0.025, "polarization": "TMz"},
      "sources": [{"type": "point", "at": [1.2, 1.2], "component": "Ez",
                   "waveform": {"type": "gaussian_pulse", "wavelength_center": 1.0, "wavelength_span": 0.4}}],
      "monitors": [{"name": "box", "type": "flux_box", "min": [0.8, 0.8], "max": [1.6, 1.6],
                    "kind": "flux", "far_field": {"wavelengths": [0.95, 1.05], "phi_points": 72}}],
      "run": {"spectrum": {"wavelength_min": 0.9, "wavelength_max": 1.1, "points": 5},
              "precision": "float64", "stop": {"decay_db": 40}}})",
                                    "live.glproj");
    std::vector<LiveMonitors> snapshots;
    RunOptions o;
    o.threads = 1;
    o.live_every_steps = 20;
    // Each snapshot holds the run for 5 ms, so that the run lasts at least 100 ms of wall
    // time on any machine. The first projection is due after 20 times its estimated cost
    // (about 1 ms here, so after about 20 ms of wall time); on a fast machine the whole run
    // took 43 ms, which put the first projection past the middle of the run.
    o.live = [&](const LiveMonitors& l) {
        snapshots.push_back(l);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    };
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = run_project(p, "live.glproj", o);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    REQUIRE(r.far_fields.size() == 1);
    REQUIRE(snapshots.size() > 10);
    int with = 0;
    for (const LiveMonitors& l : snapshots) {
        if (l.far_fields.empty()) continue;
        ++with;
        REQUIRE(l.far_fields.size() == 1);
        CHECK(l.far_fields[0].surfaces.empty());  // the currents stay out of the snapshots
    }
    // a snapshot early in the run projects (the projection costs a fraction of a
    // millisecond here), then at most one per interval, and the last one
    INFO("snapshots " << snapshots.size() << ", with far fields " << with << ", wall " << wall << " s");
    CHECK(with >= 2);
    CHECK(with <= 2 + int(wall / kLiveFarFieldInterval) + 1);
    if (wall < kLiveFarFieldInterval) CHECK(with == 2);  // the first and the last only
    const LiveMonitors& last = snapshots.back();
    CHECK(last.phase == "main");
    CHECK(last.step == r.steps);
    REQUIRE(last.far_fields.size() == 1);
    const FarFieldResult &a = last.far_fields[0], &b = r.far_fields[0];
    REQUIRE(a.samples.size() == 2);
    REQUIRE(a.samples.size() == b.samples.size());
    CHECK(a.wavelength_um == b.wavelength_um);
    for (std::size_t w = 0; w < a.samples.size(); ++w) {
        CHECK(a.power[w] == Approx(b.power[w]).epsilon(1e-12));
        REQUIRE(a.samples[w].size() == 72);
        for (std::size_t k = 0; k < a.samples[w].size(); ++k) {
            CHECK(a.samples[w][k].intensity == Approx(b.samples[w][k].intensity).epsilon(1e-12));
            CHECK(std::abs(a.samples[w][k].e_theta - b.samples[w][k].e_theta) <= 1e-12 * std::abs(b.samples[w][k].e_theta));
        }
    }
    // the first picture was of the DFTs early in the run: far from the final one
    const auto first = std::find_if(snapshots.begin(), snapshots.end(),
                                    [](const LiveMonitors& l) { return !l.far_fields.empty(); });
    REQUIRE(first != snapshots.end());
    INFO("first projection at step " << first->step << " of " << r.steps);
    CHECK(first->step < r.steps / 2);
    CHECK(std::abs(first->far_fields[0].power[0] / b.power[0] - 1) > 0.1);
}
