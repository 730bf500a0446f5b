// Run driver logic with a scripted engine: stop criteria (decay, max_steps, max_time),
// cancellation, divergence location, and the normalization formulas checked against
// plane-wave DFT values whose R, T and absorption are known in closed form.
#include <catch2/catch.hpp>

#include <cmath>
#include <chrono>
#include <map>
#include <thread>

#include "golightly/compile.hpp"
#include "golightly/run.hpp"
#include "golightly/run_phases.hpp"
#include "golightly/units.hpp"

using namespace golightly;
using cvec = std::vector<std::complex<double>>;

namespace {

/// Energy follows energy_of(steps); DFT sets and probes return fixed data.
class ScriptedEngine : public Engine, public FrameSource {
public:
    FrameSource& frames() override { return *this; }
    std::function<double(std::int64_t)> energy_of = [](std::int64_t) { return 1.0; };
    std::int64_t diverge_at = -1;  ///< from this step on a field value is NaN
    int nan_i = 0, nan_j = 0;
    int nx = 10, ny = 10;
    std::map<int, cvec> dft_data;
    std::vector<double> probe;

    std::string backend() const override { return "cpu"; }
    std::string device() const override { return "scripted"; }
    Precision precision() const override { return Precision::Float64; }
    void step(int n) override { steps_ += n; }
    std::int64_t steps_done() const override { return steps_; }
    double field_energy() override { return diverged() ? NAN : energy_of(steps_); }
    bool fields_finite() override { return !diverged(); }
    void get_field(Component c, std::vector<double>& out) override {
        if (c != Component::Ez && c != Component::Hx && c != Component::Hy) throw std::invalid_argument("component");
        out.assign(std::size_t(nx) * ny, 0.1);
        if (diverged() && c == Component::Ez) out[std::size_t(nan_j) * nx + nan_i] = NAN;
    }
    void set_field(Component, const std::vector<double>&) override {}
    cvec dft(int set) override { return dft_data.at(set); }
    std::vector<double> time_samples(int) override {
        return std::vector<double>(probe.begin(), probe.begin() + std::min<std::size_t>(probe.size(), steps_));
    }
    Image8 frame(const FrameRequest&) override {
        Image8 im;
        im.width = 2;
        im.height = 2;
        im.channels = 4;
        im.pixels.assign(16, 255);
        ++frames_made;
        return im;
    }
    int frames_made = 0;  ///< frame() calls

private:
    bool diverged() const { return diverge_at >= 0 && steps_ >= diverge_at; }
    std::int64_t steps_ = 0;
};

/// A 10 x 10 TMz scene, dt = 1 fs, no monitors.
CompiledProject bare_compiled() {
    CompiledProject c;
    c.scene.polarization = Polarization::TMz;
    c.scene.nx = c.scene.ny = 10;
    c.scene.dx_um = 0.1;
    c.scene.dt_s = 1e-15;
    c.scene.courant = 0.5;
    c.scene.pml_lo[0] = c.scene.pml_lo[1] = 2;
    c.sources_end_s = 0;
    return c;
}

Project bare_project() {
    Project p;
    p.run.stop.decay_db = 20;
    p.run.stop.max_time_fs = 1000;  // 1000 steps of 1 fs
    p.run.spectrum.wavelength_min = 0.1;
    p.run.spectrum.wavelength_max = 0.1;
    return p;
}

RunResult run_scripted(const Project& p, const CompiledProject& c, const RunOptions& o,
                       const std::function<void(ScriptedEngine&)>& setup, const CompiledProject* ref = nullptr,
                       const std::function<void(ScriptedEngine&)>& setup_ref = {}) {
    return run_compiled(p, c, ref, o, [&](const Scene&, const std::string& phase) {
        auto e = std::make_unique<ScriptedEngine>();
        if (phase == "reference" && setup_ref) setup_ref(*e);
        if (phase == "main") setup(*e);
        return std::unique_ptr<Engine>(std::move(e));
    });
}

// energy: rises linearly to 100 at step 100, then falls as 100 exp(-(n - 100) / 50)
double rise_and_decay(std::int64_t n) { return n <= 100 ? double(n) : 100.0 * std::exp(-double(n - 100) / 50.0); }

}  // namespace

TEST_CASE("run driver: decay stop once the energy is decay_db below its peak", "[driver]") {
    const Project p = bare_project();
    CompiledProject c = bare_compiled();
    c.sources_end_s = 20e-15;
    const RunResult r = run_scripted(p, c, {}, [](ScriptedEngine& e) { e.energy_of = rise_and_decay; });
    // 20 dB: energy < 1 when n > 100 + 50 ln 100 = 330.3; checked every 50 steps -> 350
    CHECK(r.stop_reason == StopReason::Decay);
    CHECK(r.steps == 350);
    CHECK(r.time_fs == Approx(350.0));
    CHECK(r.cells == 100);
    CHECK(r.backend == "cpu");
}

TEST_CASE("run driver: no decay stop before the sources end", "[driver]") {
    const Project p = bare_project();
    CompiledProject c = bare_compiled();
    c.sources_end_s = 610e-15;
    const RunResult r = run_scripted(p, c, {}, [](ScriptedEngine& e) { e.energy_of = rise_and_decay; });
    CHECK(r.stop_reason == StopReason::Decay);
    CHECK(r.steps == 650);  // first check after t > 610 fs
}

TEST_CASE("run driver: max_time, max_steps and the --max-steps override", "[driver]") {
    Project p = bare_project();
    const CompiledProject c = bare_compiled();
    auto constant = [](ScriptedEngine& e) { e.energy_of = [](std::int64_t) { return 5.0; }; };
    RunResult r = run_scripted(p, c, {}, constant);
    CHECK(r.stop_reason == StopReason::MaxTime);
    CHECK(r.steps == 1000);
    p.run.stop.max_steps = 120;
    r = run_scripted(p, c, {}, constant);
    CHECK(r.stop_reason == StopReason::MaxSteps);
    CHECK(r.steps == 120);
    RunOptions o;
    o.max_steps = 70;
    r = run_scripted(p, c, o, constant);
    CHECK(r.stop_reason == StopReason::MaxSteps);
    CHECK(r.steps == 70);
    o.max_steps = 5000;  // beyond max_time: max_time wins
    r = run_scripted(p, c, o, constant);
    CHECK(r.stop_reason == StopReason::MaxTime);
    CHECK(r.steps == 1000);
}

TEST_CASE("run driver: step_limit is the limit run_compiled applies", "[driver]") {
    // run_phases.hpp: the IDE's progress model reads the limit from here, so it must be
    // the driver's (the case above checks the driver's stops at the same limits).
    Project p = bare_project();
    const CompiledProject c = bare_compiled();
    const double dt = c.scene.dt_s;
    StepLimit l = step_limit(p, {}, dt);
    CHECK(l.steps == 1000);
    CHECK_FALSE(l.is_max_steps);
    p.run.stop.max_steps = 120;
    l = step_limit(p, {}, dt);
    CHECK(l.steps == 120);
    CHECK(l.is_max_steps);
    p.run.stop.max_steps = 1000;  // equal to max_time's steps: max_time names the stop
    CHECK_FALSE(step_limit(p, {}, dt).is_max_steps);
    RunOptions o;
    o.max_steps = 5000;  // the override replaces the project's, max_time still applies
    l = step_limit(p, o, dt);
    CHECK(l.steps == 1000);
    CHECK_FALSE(l.is_max_steps);
    o.max_steps = -3;
    l = step_limit(p, o, dt);
    CHECK(l.steps == 0);
    CHECK(l.is_max_steps);
}

TEST_CASE("run driver: cancel flag, progress and frames", "[driver]") {
    Project p = bare_project();
    p.run.frames.every_steps = 25;
    const CompiledProject c = bare_compiled();
    std::atomic<bool> cancel{false};
    RunOptions o;
    o.cancel = &cancel;
    int progress_calls = 0;
    std::vector<std::int64_t> frame_steps;
    o.progress = [&](const ProgressInfo& info) {
        ++progress_calls;
        CHECK(info.phase == "main");
        CHECK(info.max_steps == 1000);
        if (info.step >= 100) cancel = true;
    };
    o.frame = [&](const Image8& im, std::int64_t step, double) {
        CHECK(im.width == 2);
        frame_steps.push_back(step);
    };
    const RunResult r = run_scripted(p, c, o, [](ScriptedEngine& e) { e.energy_of = [](std::int64_t) { return 1.0; }; });
    CHECK(r.stop_reason == StopReason::Cancelled);
    CHECK(r.steps == 100);
    CHECK(progress_calls == 2);  // checks every 50 steps
    CHECK(frame_steps == std::vector<std::int64_t>{25, 50, 75, 100});
    CHECK(r.final_frame.width == 2);
}

TEST_CASE("run driver: divergence stops the run and locates the non-finite cell", "[driver]") {
    const Project p = bare_project();
    const CompiledProject c = bare_compiled();
    const RunResult r = run_scripted(p, c, {}, [](ScriptedEngine& e) {
        e.diverge_at = 130;
        e.nan_i = 7;
        e.nan_j = 4;
    });
    CHECK(r.stop_reason == StopReason::Diverged);
    CHECK(r.steps == 150);
    REQUIRE(r.divergence);
    CHECK(r.divergence->phase == "main");
    CHECK(r.divergence->i == 7);
    CHECK(r.divergence->j == 4);
    CHECK(r.divergence->component == Component::Ez);
    CHECK(r.divergence->nonfinite_values == 1);
    CHECK(r.divergence->x_um == Approx((7 - 2) * 0.1));  // Ez sits on integer positions
    CHECK(r.divergence->y_um == Approx((4 - 2) * 0.1));
}

TEST_CASE("run driver: normalized R, T and absorption cross-section from plane-wave DFT values", "[driver]") {
    // Three frequencies. Incident wave amplitude a_f (+x); at the reflection monitor
    // E = a + r, H~ = a - r (the reflected wave travels -x); in the transmitted medium of
    // index n, E = t, H~ = n t. Expected R = |r/a|^2, T = n |t/a|^2 (Poynting flux
    // 0.5 Re E H*, H = H~/eta0). Absorption box: net outward flux -X, cross-section
    // X / (P_inc / L_inc).
    const std::size_t nf = 3;
    const cvec a = {{1.0, 0.5}, {2.0, -1.0}, {0.5, 0.0}};
    const cvec rr = {{0.3, 0.1}, {-0.4, 0.2}, {0.0, 0.2}};
    const cvec tt = {{0.5, -0.2}, {0.9, 0.9}, {0.1, 0.3}};
    const double n = 1.5;
    const int samples = 4;     // 4 samples per monitor, ds 0.25 um each
    const double l_inc = 1.0;  // incident monitor length, um

    Project p = bare_project();
    p.run.normalization.enabled = true;
    Monitor mr;
    mr.name = "R";
    mr.type = MonitorType::Flux;
    mr.kind = "reflection";
    mr.direction = "-x";
    mr.from = {1, 0};
    mr.to = {1, l_inc};
    Monitor mt = mr;
    mt.name = "T";
    mt.kind = "transmission";
    mt.direction = "+x";
    Monitor mb;
    mb.name = "A";
    mb.type = MonitorType::FluxBox;
    mb.kind = "absorption";
    p.monitors = {mr, mt, mb};

    auto monitors = [&](CompiledProject& c) {
        c.spectrum_hz = {1e14, 2e14, 3e14};
        for (int s = 0; s < 6; ++s) {
            DftSet d;
            d.component = s % 2 == 0 ? Component::Ez : Component::Hy;
            d.cell0.assign(samples, 0);
            d.frequencies_hz = c.spectrum_hz;
            c.scene.dft_sets.push_back(d);
        }
        CompiledMonitor cr;
        cr.name = "R";
        cr.type = MonitorType::Flux;
        cr.kind = "reflection";
        cr.flux_terms = {{0, 1, -1.0, 0.25}};  // direction -x
        CompiledMonitor ct = cr;
        ct.name = "T";
        ct.kind = "transmission";
        ct.flux_terms = {{2, 3, +1.0, 0.25}};
        CompiledMonitor cb;
        cb.name = "A";
        cb.type = MonitorType::FluxBox;
        cb.kind = "absorption";
        cb.flux_terms = {{4, 5, +1.0, 0.25}};
        c.monitors = {cr, ct, cb};
    };
    CompiledProject main = bare_compiled(), ref = bare_compiled();
    monitors(main);
    monitors(ref);

    auto fill = [&](const std::function<std::complex<double>(std::size_t)>& v) {
        cvec out(samples * nf);
        for (int k = 0; k < samples; ++k)
            for (std::size_t f = 0; f < nf; ++f) out[k * nf + f] = v(f);
        return out;
    };
    // absorption: the box sees a net inward flux of 0.2 |a|^2 (in flux units of the R monitor)
    auto setup_ref = [&](ScriptedEngine& e) {
        e.energy_of = rise_and_decay;
        e.dft_data[0] = fill([&](std::size_t f) { return a[f]; });
        e.dft_data[1] = fill([&](std::size_t f) { return a[f]; });
        e.dft_data[2] = fill([&](std::size_t f) { return a[f]; });
        e.dft_data[3] = fill([&](std::size_t f) { return a[f]; });
        e.dft_data[4] = fill([&](std::size_t) { return std::complex<double>(0); });
        e.dft_data[5] = fill([&](std::size_t) { return std::complex<double>(0); });
    };
    auto setup_main = [&](ScriptedEngine& e) {
        e.energy_of = rise_and_decay;
        e.dft_data[0] = fill([&](std::size_t f) { return a[f] + rr[f]; });
        e.dft_data[1] = fill([&](std::size_t f) { return a[f] - rr[f]; });
        e.dft_data[2] = fill([&](std::size_t f) { return tt[f]; });
        e.dft_data[3] = fill([&](std::size_t f) { return n * tt[f]; });
        // E = a, H~ = -0.2 a: net outward flux -0.2 |a|^2 * (0.5/eta0 * 1e-6)
        e.dft_data[4] = fill([&](std::size_t f) { return a[f]; });
        e.dft_data[5] = fill([&](std::size_t f) { return -0.2 * a[f]; });
    };
    const RunResult r = run_scripted(p, main, {}, setup_main, &ref, setup_ref);
    REQUIRE(r.normalized);
    CHECK(r.incident_monitor == "R");
    CHECK(r.reference_stop_reason == StopReason::Decay);
    REQUIRE(r.spectra.size() == 3);
    REQUIRE(r.incident_flux.size() == nf);
    for (std::size_t f = 0; f < nf; ++f) {
        const double a2 = std::norm(a[f]);
        // P_inc = 0.5/eta0 |a|^2 * (4 samples * 0.25 um) * 1e-6, positive though the monitor points -x
        CHECK(r.incident_flux[f] == Approx(0.5 / units::eta0 * a2 * 1e-6));
        CHECK(r.spectra[0].normalized[f] == Approx(std::norm(rr[f]) / a2));
        CHECK(r.spectra[1].normalized[f] == Approx(n * std::norm(tt[f]) / a2));
        CHECK(r.spectra[2].normalized[f] == Approx(0.2 * l_inc));  // cross-section, um
        // raw flux of R: along -x of the total field: -(0.5/eta0) Re (a+r)(a-r)* * 1e-6
        const double raw_r = -0.5 / units::eta0 * ((a[f] + rr[f]) * std::conj(a[f] - rr[f])).real() * 1e-6;
        CHECK(r.spectra[0].flux[f] == Approx(raw_r));
    }
}

TEST_CASE("run driver: decay measured on a time monitor's envelope", "[driver]") {
    Project p = bare_project();
    p.run.stop.monitor = "probe";
    p.run.stop.decay_db = 20;  // amplitude: factor 0.1
    // envelope window: two periods of 6 um = 41 steps of 1 fs
    p.run.spectrum.wavelength_min = p.run.spectrum.wavelength_max = 6.0;
    CompiledProject c = bare_compiled();
    CompiledMonitor m;
    m.name = "probe";
    m.type = MonitorType::Time;
    m.time_probe = 0;
    c.monitors.push_back(m);
    c.scene.time_probes.resize(1);
    const RunResult r = run_scripted(p, c, {}, [](ScriptedEngine& e) {
        e.energy_of = [](std::int64_t) { return 1.0; };  // the energy alone never decays
        for (int n = 0; n < 1000; ++n) e.probe.push_back(std::sin(2 * units::pi * n / 20.0) * std::exp(-n / 100.0));
    });
    // max |value| over steps n-41..n falls below 0.1 between n = 250 and n = 300
    CHECK(r.stop_reason == StopReason::Decay);
    CHECK(r.steps == 300);
    REQUIRE(r.time_series.size() == 1);
    CHECK(r.time_series[0].values.size() == 300);
    CHECK(r.time_series[0].time_fs[0] == Approx(1.0));  // Ez sample of step 0 at t = dt
}

TEST_CASE("run driver: pause holds the run until released, cancel ends a paused run", "[driver]") {
    const Project p = bare_project();
    const CompiledProject c = bare_compiled();
    auto constant = [](ScriptedEngine& e) { e.energy_of = [](std::int64_t) { return 5.0; }; };
    std::atomic<bool> pause{true}, cancel{false};
    RunOptions o;
    o.pause = &pause;
    o.cancel = &cancel;
    std::thread release([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        pause = false;
    });
    RunResult r = run_scripted(p, c, o, constant);
    release.join();
    CHECK(r.stop_reason == StopReason::MaxTime);
    CHECK(r.steps == 1000);
    CHECK(r.wall_s >= 0.14);

    pause = true;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        cancel = true;
    });
    r = run_scripted(p, c, o, constant);
    stopper.join();
    CHECK(r.stop_reason == StopReason::Cancelled);
    CHECK(r.steps == 0);
}
