// Physics tests of compiled sources: one-way mode injection into a slab waveguide (TMz
// and TEz), one-way and two-way plane waves, amplitude convention.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdio>

#include "golightly/compile.hpp"
#include "golightly/engine.hpp"
#include "golightly/units.hpp"
#include "project_builders.hpp"

using namespace golightly;
using golightly::test::flux_line;

namespace {

/// Flux spectrum of a compiled monitor (compile.hpp, FluxTerm), W/m per (V/m s)^2.
std::vector<double> flux_spectrum(Engine& eng, const CompiledProject& cp, const CompiledMonitor& m) {
    const std::size_t nf = cp.spectrum_hz.size();
    std::vector<double> out(nf, 0.0);
    for (const FluxTerm& t : m.flux_terms) {
        const auto E = eng.dft(t.e_set), H = eng.dft(t.h_set);
        for (std::size_t k = 0; k < E.size() / nf; ++k)
            for (std::size_t f = 0; f < nf; ++f)
                out[f] += t.sign * 0.5 / units::eta0 * std::real(E[k * nf + f] * std::conj(H[k * nf + f])) *
                          t.ds_um * 1e-6;
    }
    return out;
}

double peak_abs(const std::vector<double>& v) {
    double m = 0;
    for (double x : v) m = std::max(m, std::abs(x));
    return m;
}

/// Runs until the sources are off plus `extra_fs`.
std::unique_ptr<Engine> run(const CompiledProject& cp, double extra_fs) {
    auto eng = make_cpu_engine(cp.scene, Precision::Float64, 2);
    const double t_end = cp.sources_end_s + extra_fs * units::fs;
    eng->step(static_cast<int>(std::ceil(t_end / cp.scene.dt_s)));
    return eng;
}

/// Slab waveguide along x (eps 12, width 0.3 um centred at y = 1.5) in a 4 x 3 um PML box,
/// a mode source at x = 1.2 going +x, flux monitors at x = 2.8 (+x) and x = 0.6 (-x).
Project slab_project(Polarization pol, double cell) {
    Project p;
    p.domain.size = {4.0, 3.0, 0};
    p.domain.cell_size = cell;
    p.domain.polarization = pol;
    p.domain.pml.cells = 12;
    Material si;
    si.id = "si";
    si.epsilon_inf = 12.0;
    p.materials = {si};
    Layer wg;
    wg.name = "wg";
    wg.material = "si";
    Shape r;
    r.type = ShapeType::Rectangle;
    r.min = {0.0, 1.35};
    r.max = {4.0, 1.65};
    wg.shapes = {r};
    p.layers = {wg};
    Source s;
    s.name = "in";
    s.type = SourceType::Line;
    s.from = {1.2, 0.3};
    s.to = {1.2, 2.7};
    s.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    s.profile = SourceProfile::Mode;
    s.direction = "+x";
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.3;
    p.sources = {s};
    p.monitors = {flux_line("fwd", {2.8, 0.3}, {2.8, 2.7}, "+x"), flux_line("bwd", {0.6, 0.3}, {0.6, 2.7}, "-x")};
    p.run.spectrum.wavelength_min = 1.45;
    p.run.spectrum.wavelength_max = 1.65;
    p.run.spectrum.points = 11;
    return p;
}

/// The same, rotated by 90 degrees: slab along y, source going +y (x <-> y swapped).
Project vertical_slab_project(Polarization pol, double cell, Component component) {
    Project p = slab_project(pol, cell);
    auto swap = [](Vec2& v) { std::swap(v.x, v.y); };
    std::swap(p.domain.size[0], p.domain.size[1]);
    swap(p.layers[0].shapes[0].min);
    swap(p.layers[0].shapes[0].max);
    swap(p.sources[0].from);
    swap(p.sources[0].to);
    p.sources[0].direction = "+y";
    p.sources[0].component = component;
    for (Monitor& m : p.monitors) {
        swap(m.from);
        swap(m.to);
        m.direction[1] = 'y';
    }
    Monitor t;
    t.name = "probe";
    t.type = MonitorType::Time;
    t.at = Vec2{1.5, 2.5};
    t.component = component;
    p.monitors.push_back(t);
    return p;
}

}  // namespace

TEST_CASE("mode source: a slab along y, injected +y (TMz Ez, TEz with Ex as the source component)",
          "[compile][physics][mode]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const Component comp = pol == Polarization::TMz ? Component::Ez : Component::Ex;
        const CompiledProject cp = compile_project(vertical_slab_project(pol, 0.025, comp), "slab.glproj");
        auto eng = run(cp, 120);
        const auto fwd = flux_spectrum(*eng, cp, cp.monitors[0]);
        const auto bwd = flux_spectrum(*eng, cp, cp.monitors[1]);
        double sf = 0, sb = 0;
        for (std::size_t f = 0; f < fwd.size(); ++f) sf += fwd[f], sb += bwd[f];
        const double fraction = sf / (sf + std::abs(sb));
        std::printf("mode source %s along +y: forward fraction %.6f\n", to_string(pol).c_str(), fraction);
        INFO(to_string(pol) << ": forward fraction " << fraction);
        CHECK(sf > 0);
        CHECK(fraction > 0.99);
        // The source component's incident field has unit peak (amplitude 1): the probe
        // on the axis downstream sees about 1 (less a little pulse dispersion).
        const double peak = peak_abs(eng->time_samples(cp.monitors[2].time_probe));
        std::printf("mode source %s along +y: peak %s on the axis %.4f\n", to_string(pol).c_str(),
                    to_string(comp).c_str(), peak);
        CHECK(peak == Approx(1.0).epsilon(0.05));
    }
}

TEST_CASE("mode source: a slab waveguide mode goes > 99 % forward (TMz and TEz)", "[compile][physics][mode][slow]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const CompiledProject cp = compile_project(slab_project(pol, 0.025), "slab.glproj");
        auto eng = run(cp, 120);
        const auto fwd = flux_spectrum(*eng, cp, cp.monitors[0]);
        const auto bwd = flux_spectrum(*eng, cp, cp.monitors[1]);
        double sf = 0, sb = 0, worst = 1;
        for (std::size_t f = 0; f < fwd.size(); ++f) {
            sf += fwd[f];
            sb += bwd[f];
            worst = std::min(worst, fwd[f] / (fwd[f] + std::abs(bwd[f])));
        }
        const double fraction = sf / (sf + std::abs(sb));
        std::printf("mode source %s: forward fraction over the band %.6f, worst wavelength %.6f\n",
                    to_string(pol).c_str(), fraction, worst);
        INFO(to_string(pol) << ": forward fraction " << fraction << ", worst " << worst);
        CHECK(sf > 0);
        CHECK(fraction > 0.99);
        CHECK(worst > 0.98);
        // Reversing the direction reverses the flow.
        Project q = slab_project(pol, 0.025);
        q.sources[0].direction = "-x";
        q.sources[0].from.x = q.sources[0].to.x = 2.0;
        const CompiledProject cq = compile_project(q, "slab.glproj");
        auto e2 = run(cq, 120);
        const auto f2 = flux_spectrum(*e2, cq, cq.monitors[0]);
        const auto b2 = flux_spectrum(*e2, cq, cq.monitors[1]);
        double s2f = 0, s2b = 0;
        for (std::size_t f = 0; f < f2.size(); ++f) s2f += f2[f], s2b += b2[f];
        INFO("reversed: +x flux " << s2f << ", -x flux " << s2b);
        CHECK(s2b > 0);
        CHECK(std::abs(s2f) < 0.01 * s2b);
    }
}

// A bent mode line (`bend_radius`, mode_solver_bend.hpp) with a gentle radius (1000 um) on
// the straight slab: its mode differs from the straight one by O(w / R) = 3e-4 in profile,
// so it goes forward as the straight source's does (> 99 %) and carries the same power
// within 5e-3: the bent path's tangential H~ sign and scale are the straight path's.
TEST_CASE("mode source: a gently bent mode line injects the slab mode forward as the straight one (TMz and TEz)",
          "[compile][physics][mode][bend]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const CompiledProject straight = compile_project(slab_project(pol, 0.025), "slab.glproj");
        Project q = slab_project(pol, 0.025);
        q.sources[0].extra["bend_radius"] = 1000.0;
        const CompiledProject bent = compile_project(q, "slab.glproj");
        auto es = run(straight, 120);
        auto eb = run(bent, 120);
        double ss = 0, sf = 0, sb = 0;
        for (double v : flux_spectrum(*es, straight, straight.monitors[0])) ss += v;
        for (double v : flux_spectrum(*eb, bent, bent.monitors[0])) sf += v;
        for (double v : flux_spectrum(*eb, bent, bent.monitors[1])) sb += v;
        std::printf("bent mode source %s (R 1000 um): forward fraction %.6f, forward power / straight %.6f\n",
                    to_string(pol).c_str(), sf / (sf + std::abs(sb)), sf / ss);
        CHECK(sf / (sf + std::abs(sb)) > 0.99);
        CHECK(std::abs(sf / ss - 1) < 5e-3);
    }
}

namespace {

/// Vacuum, periodic along y (0.1 um), PML along x (4 um); a uniform line source across
/// the periodic axis at x = 1.5.
Project plane_wave_project(Polarization pol, double cell, const std::string& direction) {
    Project p;
    p.domain.size = {4.0, 0.1, 0};
    p.domain.cell_size = cell;
    p.domain.polarization = pol;
    p.domain.boundaries = {BoundaryKind::Pml, BoundaryKind::Periodic, BoundaryKind::Pml};
    p.domain.pml.cells = 16;
    Source s;
    s.name = "pw";
    s.type = SourceType::Line;
    s.from = {1.5, 0.0};
    s.to = {1.5, 0.1};
    s.component = pol == Polarization::TMz ? Component::Ez : Component::Ey;
    s.profile = SourceProfile::Uniform;
    if (!direction.empty()) s.extra["direction"] = direction;
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.3;
    p.sources = {s};
    p.monitors = {flux_line("fwd", {3.0, 0.0}, {3.0, 0.1}, "+x"), flux_line("bwd", {0.5, 0.0}, {0.5, 0.1}, "-x")};
    Monitor t;
    t.name = "probe";
    t.type = MonitorType::Time;
    t.at = Vec2{3.0, 0.05};
    t.component = s.component;
    Monitor tb = t;
    tb.name = "probe_back";
    tb.at = Vec2{0.5, 0.05};
    p.monitors.push_back(t);
    p.monitors.push_back(tb);
    p.run.spectrum.wavelength_min = 1.45;
    p.run.spectrum.wavelength_max = 1.65;
    p.run.spectrum.points = 11;
    return p;
}

}  // namespace

TEST_CASE("plane wave: a line across a periodic axis gives a uniform field of amplitude A", "[compile][physics]") {
    for (double cell : {0.02, 0.01}) {
        const CompiledProject cp = compile_project(plane_wave_project(Polarization::TMz, cell, ""), "pw.glproj");
        auto eng = make_cpu_engine(cp.scene, Precision::Float64, 2);
        // Stop while the pulse peak is 1 um from the source (still inside the interior).
        const double t_mid = cp.scene.sources[0].waveform.t0_s + 1e-6 / units::c0;
        eng->step(static_cast<int>(t_mid / cp.scene.dt_s));
        std::vector<double> ez;
        eng->get_field(Component::Ez, ez);
        const Scene& s = cp.scene;
        double dev = 0, mx = 0;
        for (int i = 0; i < s.nx; ++i)
            for (int j = 0; j < s.ny; ++j) {
                mx = std::max(mx, std::abs(ez[std::size_t(j) * s.nx + i]));
                dev = std::max(dev, std::abs(ez[std::size_t(j) * s.nx + i] - ez[i]));
            }
        INFO("cell " << cell << ": max |Ez| " << mx << ", max deviation along y " << dev);
        CHECK(mx > 0.1);
        CHECK(dev <= 1e-9 * mx);
        // Two-way: amplitude A = 1 on both sides, at every resolution.
        eng->step(static_cast<int>((cp.sources_end_s + 20 * units::fs - t_mid) / cp.scene.dt_s));
        const double fwd = peak_abs(eng->time_samples(cp.monitors[2].time_probe));
        const double bwd = peak_abs(eng->time_samples(cp.monitors[3].time_probe));
        std::printf("two-way plane wave, cell %.3f um: peak Ez %.4f (+x side), %.4f (-x side)\n", cell, fwd, bwd);
        CHECK(fwd == Approx(1.0).epsilon(0.02));
        CHECK(bwd == Approx(1.0).epsilon(0.02));
    }
}

TEST_CASE("plane wave: one-way line source in periodic vacuum and glass (TMz, TEz)", "[compile][physics][slow]") {
    for (double eps : {1.0, 4.0})
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        Project p = plane_wave_project(pol, 0.02, "+x");
        if (eps != 1.0) {
            Material glass;
            glass.id = "glass";
            glass.epsilon_inf = eps;
            p.materials = {glass};
            p.domain.background = "glass";
        }
        const double n = std::sqrt(eps);
        const CompiledProject cp = compile_project(p, "pw.glproj");
        auto eng = run(cp, 40);
        const auto fwd = flux_spectrum(*eng, cp, cp.monitors[0]);
        const auto bwd = flux_spectrum(*eng, cp, cp.monitors[1]);
        double sf = 0, sb = 0;
        for (std::size_t f = 0; f < fwd.size(); ++f) sf += fwd[f], sb += bwd[f];
        const double fraction = sf / (sf + std::abs(sb));
        const double peak = peak_abs(eng->time_samples(cp.monitors[2].time_probe));
        std::printf("one-way plane wave %s, n = %g: forward fraction %.6f (backward/forward %.2e), peak E %.4f\n",
                    to_string(pol).c_str(), n, fraction, std::abs(sb) / sf, peak);
        INFO(to_string(pol) << ", n = " << n << ": forward fraction " << fraction << ", peak " << peak);
        CHECK(fraction > 0.99);
        CHECK(peak == Approx(1.0).epsilon(0.02));
        // Flux at the centre frequency vs the analytic spectrum of the pulse:
        // E(w0) = A tau sqrt(2 pi) / 2 (positive-frequency half), P = |E|^2 / (2 eta0) * width.
        const CompiledWaveform& w = cp.scene.sources[0].waveform;
        const std::size_t fc = fwd.size() / 2;
        const double dw = 2 * units::pi * cp.spectrum_hz[fc] - w.omega;
        const double e_w = w.tau_s * std::sqrt(2 * units::pi) / 2 * std::exp(-0.5 * dw * dw * w.tau_s * w.tau_s);
        const double p_expected = n * e_w * e_w / (2 * units::eta0) * 0.1e-6;
        INFO("flux at the centre " << fwd[fc] << ", expected " << p_expected);
        CHECK(fwd[fc] == Approx(p_expected).epsilon(0.03));
    }
}
