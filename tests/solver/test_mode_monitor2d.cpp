// Mode monitors in 2D (a flux line with kind "mode"; the 1D slab modes of mode_solver.hpp
// on the line, mode_plane.hpp ModeMonitorPlan dims 2): a slab waveguide (eps 12, 0.3 um)
// fed by the one-way mode source, TMz and TEz. Checks: the fundamental's forward power is
// the same at two planes 1.2 um apart and equals the flux through them (the mode source
// launches one mode), its backward amplitude is tiny, its phase advances by the lattice
// wavenumber times the distance; mode 1 (odd, not excited by symmetry) stays ~0.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <cstdio>

#include "golightly/project.hpp"
#include "golightly/run.hpp"
#include "golightly/units.hpp"

using namespace golightly;

namespace {

Monitor line_monitor(const std::string& name, double x, const std::string& kind) {
    Monitor m;
    m.name = name;
    m.type = MonitorType::Flux;
    m.kind = kind;
    m.from = {x, 0.3};
    m.to = {x, 2.7};
    m.direction = "+x";
    if (kind == "mode") m.extra["modes"] = Json::array({0, 1});
    return m;
}

Project slab2d(Polarization pol, double cell) {
    Project p;
    p.name = "slab2d";
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
    r.min = {-1.0, 1.35};
    r.max = {5.0, 1.65};
    wg.shapes = {r};
    p.layers = {wg};
    Source s;
    s.name = "in";
    s.type = SourceType::Line;
    s.from = {1.0, 0.3};
    s.to = {1.0, 2.7};
    s.component = pol == Polarization::TMz ? Component::Ez : Component::Hz;
    s.profile = SourceProfile::Mode;
    s.direction = "+x";
    s.waveform.wavelength_center = 1.55;
    s.waveform.wavelength_span = 0.3;
    p.sources = {s};
    p.monitors = {line_monitor("A", 1.8, "mode"), line_monitor("B", 3.0, "mode")};
    p.run.spectrum.wavelength_min = 1.45;
    p.run.spectrum.wavelength_max = 1.65;
    p.run.spectrum.points = 5;
    p.run.precision = Precision::Float64;
    p.run.backend = BackendChoice::Cpu;
    p.run.stop.decay_db = 50;
    p.run.stop.max_time_fs = 1000;
    return p;
}

}  // namespace

TEST_CASE("mode monitor 2D: slab mode amplitudes at two lines (TMz and TEz)", "[modes2dmon][slow]") {
    for (Polarization pol : {Polarization::TMz, Polarization::TEz}) {
        const double dx = 0.02;
        const Project p = slab2d(pol, dx);
        RunOptions o;
        o.threads = 2;
        const RunResult r = run_project(p, "slab2d.glproj", o);
        REQUIRE(r.mode_coefficients.size() == 4);
        REQUIRE(r.spectra.size() == 2);
        const auto &a0 = r.mode_coefficients[0], &a1 = r.mode_coefficients[1], &b0 = r.mode_coefficients[2];
        const double dt = p.run.courant * dx * units::um / units::c0;
        for (std::size_t f = 0; f < r.frequency_hz.size(); ++f) {
            const double pa = std::norm(a0.fwd[f]), pb = std::norm(b0.fwd[f]);
            const double w = 2 * M_PI * r.frequency_hz[f];
            const double k0n = 2.0 / (units::c0 * dt) * std::sin(0.5 * w * dt) * units::um;
            const double beta_l = 2.0 / dx * std::asin(0.5 * a0.n_eff[f] * k0n * dx);
            const double dphi = std::arg(b0.fwd[f] / a0.fwd[f] * std::polar(1.0, -beta_l * 1.2));
            std::printf("%s wl %.4f: n_eff %.5f | |a+|^2 / flux A %.5f B %.5f | |a-|^2/|a+|^2 %.2e | mode 1 / flux %.2e | "
                        "phase B-A - beta_l L %+.2e rad\n",
                        pol == Polarization::TMz ? "TMz" : "TEz", units::hz_to_wavelength_um(r.frequency_hz[f]),
                        a0.n_eff[f], pa / r.spectra[0].flux[f], pb / r.spectra[1].flux[f], std::norm(a0.bwd[f]) / pa,
                        std::norm(a1.fwd[f]) / r.spectra[0].flux[f], dphi);
            CHECK(std::abs(pa / r.spectra[0].flux[f] - 1) < 5e-3);
            CHECK(std::abs(pb / r.spectra[1].flux[f] - 1) < 5e-3);
            CHECK(std::norm(a0.bwd[f]) / pa < 1e-4);
            CHECK(std::norm(a1.fwd[f]) / pa < 1e-4);
            CHECK(std::abs(dphi) < 2e-3);
        }
    }
}
